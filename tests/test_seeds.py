"""Seeds that travel: a run without a seed prints a short one, and that seed gives the same numbers again."""

import json
import re

import numpy as np
import pandas as pd
import pytest
from helpers import ok, run, sample_deck

import deckstat
from deckstat.engines import runner
from deckstat.present.format import seed_note, simulation_note

WANKUL = sample_deck("wankul")
WANKUL_V2 = sample_deck("wankul", "sample_deck_v2.csv")
PRINTED_SEED = re.compile(r"seed (\d+) \(rerun with --seed \1\)")

# One cheap simulated invocation of each command that simulates (without --seed).
SIMULATED = {
    "odds": ["odds", WANKUL, "-e", "Terrain>=2", "--turns", "0-1", "--trials", "2000"],
    "when": ["when", WANKUL, "-e", "Terrain>=2", "--max-turn", "2", "--trials", "2000"],
    "mulligan": ["mulligan", WANKUL, "--turns", "0-1", "--simulate", "--trials", "2000"],
    "ratio": ["ratio", WANKUL, "--range", "10", "--turns", "0", "--simulate", "--trials", "2000"],
    "deckout": ["deckout", WANKUL, "--trials", "2000"],
    "compare": ["compare", WANKUL, WANKUL_V2, "-e", "Terrain>=2", "--turns", "0-1", "--trials", "2000"],
}


def printed_seed(text: str) -> str:
    """The seed a command printed, checked to be short enough to type."""
    found = PRINTED_SEED.findall(text)
    assert found, text
    assert len(set(found)) == 1
    assert int(found[0]) < runner.FRESH_SEED_BOUND
    return found[0]


@pytest.mark.parametrize("command", sorted(SIMULATED))
def test_printed_seed_reruns_the_command(command):
    args = [*SIMULATED[command], "--game", "wankul"]
    first = ok(run(*args))
    seed = printed_seed(first)
    assert ok(run(*args, "--seed", seed)) == first


def test_printed_seed_is_the_recorded_one():
    args = [*SIMULATED["odds"], "--game", "wankul"]
    seed = printed_seed(ok(run(*args)))
    provenance = json.loads(ok(run(*args, "--seed", seed, "--format", "json")))["provenance"]
    assert provenance["seed"] == provenance["seed_entropy"] == int(seed)
    assert provenance["seed_spawn_key"] == [0]


def test_report_prints_and_records_its_seed(tmp_path):
    args = ["report", WANKUL, "--game", "wankul", "--trials", "2000"]
    out = ok(run(*args, "--out", tmp_path / "a"))
    seed = printed_seed(out)
    page = (tmp_path / "a" / "report.md").read_text(encoding="utf-8")
    assert f"seed {seed} (rerun with --seed {seed})" in page
    ok(run(*args, "--out", tmp_path / "b", "--seed", seed))
    assert (tmp_path / "b" / "report.md").read_text(encoding="utf-8") == page


def test_exact_answers_print_no_seed():
    out = ok(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=2", "--turns", "0-1"))
    assert "seed" not in out


# --------------------------------------------------------------------------- Python API

def wankul():
    return deckstat.load_deck(WANKUL)


API_CALLS = {
    "odds": lambda rng: deckstat.odds(wankul(), "wankul", "Terrain>=2", turns=[0, 3], method="simulate",
                                      n_trials=2000, rng=rng),
    "when": lambda rng: deckstat.when(wankul(), "wankul", "Terrain>=2", max_turn=2, method="simulate",
                                      n_trials=2000, rng=rng),
    "mulligan": lambda rng: deckstat.mulligan(wankul(), "wankul", turns=[0], method="simulate", n_trials=2000,
                                              rng=rng),
    "deckout": lambda rng: deckstat.deckout(wankul(), "wankul", n_trials=2000, rng=rng),
}


def assert_same_result(a, b):
    assert a.provenance == b.provenance
    for name, frame in a.frames().items():
        pd.testing.assert_frame_equal(frame, b.frames()[name])


@pytest.mark.parametrize("question", sorted(API_CALLS))
def test_recorded_seed_reruns_the_question(question):
    first = API_CALLS[question](None)
    seed = first.provenance["seed"]
    assert isinstance(seed, int) and 0 <= seed < runner.FRESH_SEED_BOUND
    assert first.provenance["seed_entropy"] == seed and first.provenance["seed_spawn_key"] == [0]
    assert_same_result(API_CALLS[question](seed), first)


def test_runs_without_a_seed_draw_different_seeds():
    # Two draws below 10**9 coincide once in a billion.
    assert runner.make_streams(None).seed != runner.make_streams(None).seed


def test_a_fresh_generator_records_the_seed_it_was_made_with():
    first = API_CALLS["odds"](np.random.default_rng(77))
    assert first.provenance["seed"] == 77
    assert_same_result(API_CALLS["odds"](77), first)


def test_a_used_generator_records_its_streams():
    generator = np.random.default_rng(77)
    API_CALLS["odds"](generator)
    second = API_CALLS["odds"](generator)
    # The generator's second spawn: no number passed as rng gives these streams, its SeedSequence does.
    assert second.provenance["seed"] is None
    assert second.provenance["seed_entropy"] == 77 and second.provenance["seed_spawn_key"] == [1]
    assert_same_result(API_CALLS["odds"](runner.Streams(77, (1,))), second)
    assert seed_note(second.provenance) == "seed entropy 77, spawn key [1]"
    assert "seed entropy 77, spawn key [1]" in simulation_note(second)
    assert "seed entropy 77" in repr(second)


def test_report_records_its_seed_and_reruns():
    first = deckstat.report(wankul(), "wankul", n_trials=2000)
    assert first.seed is not None and first.seed < runner.FRESH_SEED_BOUND
    assert first.provenance["seed"] == first.seed
    again = deckstat.report(wankul(), "wankul", n_trials=2000, rng=first.seed)
    assert again.provenance == first.provenance
    for name, frame in first.frames().items():
        pd.testing.assert_frame_equal(frame, again.frames()[name])
    # The drought rule makes Wankul's deck-out random, the sweep's deck-out turns included, and the discard model's
    # playability (drought draws); the odds are exact.
    assert first.simulated() == ["ratio", "deckout", "playability"]
