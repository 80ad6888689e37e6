"""The report's resource-count sweep: computed in a copy of the process beside the other parts when a second
processor is free, with the numbers it has when computed in turn; a copy that fails or is interrupted leaves
nothing behind."""

from __future__ import annotations

import pandas as pd
import pytest
from helpers import children, only_here, sample_deck

import deckstat
import deckstat.questions.report as report_module
from deckstat.errors import DeckstatError

#: A report small enough for a test; its sweep has several counts, each with simulated deck-out turns.
TRIALS = 2_000

#: Judged as each test starts, not at collection: a test file run before in this process may have left a thread.
needs_copy = pytest.mark.skipif("not report_module.work_beside()", reason="the sweep is computed in turn here")


@pytest.fixture(scope="module")
def deck():
    return deckstat.load_deck(sample_deck("wankul"))


@pytest.fixture
def copies(monkeypatch) -> list[int]:
    """The process ids of the copies the report makes, in order."""
    made: list[int] = []
    real = report_module.Forked

    def counted(job):
        copy = real(job)
        made.append(copy.pid)
        return copy

    monkeypatch.setattr(report_module, "Forked", counted)
    return made


def _in_turn(deck, monkeypatch, **arguments):
    with monkeypatch.context() as patch:
        patch.setattr(report_module, "work_beside", lambda: False)
        return deckstat.report(deck, "wankul", n_trials=TRIALS, **arguments)


def _assert_same_numbers(report, expected) -> None:
    ours, theirs = report.frames(), expected.frames()
    assert ours.keys() == theirs.keys()
    for name, table in theirs.items():
        pd.testing.assert_frame_equal(ours[name], table, obj=name)


@needs_copy
@pytest.mark.parametrize("seed", [1, 20261203])
def test_the_sweep_computed_beside_has_the_numbers_computed_in_turn(deck, monkeypatch, copies, seed):
    earlier = set(children())
    beside = deckstat.report(deck, "wankul", n_trials=TRIALS, rng=seed)
    assert len(copies) == 1 and not set(children()) - earlier
    assert beside.ratio.provenance.get("seed_entropy") is not None  # its deck-out turns were simulated
    _assert_same_numbers(beside, _in_turn(deck, monkeypatch, rng=seed))
    # And the numbers of `deckstat ratio` on the same counts with the same seed, as the report promises.
    counts = sorted(beside.ratio.table["resource_count"].unique().tolist())
    alone = deckstat.ratio(deck, "wankul", counts=counts, turns=range(6), target=report_module.REPORT_TARGET,
                           n_trials=TRIALS, rng=seed)
    pd.testing.assert_frame_equal(beside.ratio.table, alone.table)


@needs_copy
def test_a_sweep_the_copy_fails_to_compute_is_computed_here(deck, monkeypatch, copies):
    earlier = set(children())
    monkeypatch.setattr(report_module, "ratio", only_here(report_module.ratio))
    report = deckstat.report(deck, "wankul", n_trials=TRIALS, rng=3)
    assert len(copies) == 1 and not set(children()) - earlier
    _assert_same_numbers(report, _in_turn(deck, monkeypatch, rng=3))


@needs_copy
def test_the_sweeps_own_error_is_raised_as_it_is(deck, monkeypatch, copies):
    def refused(*args, **kwargs):
        raise DeckstatError("no sweep for this deck")

    monkeypatch.setattr(report_module, "ratio", refused)
    earlier = set(children())
    with pytest.raises(DeckstatError, match="no sweep for this deck"):
        deckstat.report(deck, "wankul", n_trials=TRIALS, rng=3)
    assert len(copies) == 1 and not set(children()) - earlier


@needs_copy
def test_an_interrupted_report_ends_the_sweeps_copy(deck, copies):
    earlier = set(children())

    def interrupt(name, part):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        deckstat.report(deck, "wankul", n_trials=TRIALS, rng=4, on_part=interrupt)
    assert len(copies) == 1
    assert not set(children()) - earlier  # ended and waited for: not even a zombie


def test_no_copy_without_a_sweep_or_with_worker_processes(monkeypatch, copies):
    # Duel Masters has no resource group: nothing to sweep.
    deckstat.report(deckstat.load_deck(sample_deck("duel-masters")), "duel-masters", n_trials=TRIALS, rng=5)
    # Worker processes already use the other processors: the sweep runs on them, in turn with the other parts.
    monkeypatch.setattr(report_module, "work_beside", lambda: True)
    deckstat.report(deckstat.load_deck(sample_deck("wankul")), "wankul", n_trials=TRIALS, rng=5, n_workers=2)
    assert copies == []
