"""One estimation path: each set-up prepared and priced once, and batch specs refused as the command line refuses."""

import re

import numpy as np
import pandas as pd
import pytest
from helpers import DATA, run

import deckstat
from deckstat.batching import SpecError, load_spec
from deckstat.batching.spec import SPEC_WORDS
from deckstat.cli.options import FLAGS
from deckstat.questions import _estimate, _setup, deckout
from deckstat.questions._estimate import Simulation, first_turn
from deckstat.questions.odds import answer_odds, plan_odds
from deckstat.questions.ratio import answer_ratio, plan_ratio

WANKUL = DATA / "wankul" / "sample_deck.csv"
WANKUL_V2 = DATA / "wankul" / "sample_deck_v2.csv"


@pytest.fixture
def counted(monkeypatch):
    """Every set-up :func:`prepare` builds (its events and whether a mulligan applies), and every exact pricing."""
    calls = {"prepare": [], "cost": 0}
    prepare_setup, exact_cost = _setup.prepare_setup, _setup.Setup.exact_cost

    def counting_prepare(deck, game, events, **rules):
        calls["prepare"].append((tuple(events), rules.get("mulligan", True)))
        return prepare_setup(deck, game, events, **rules)

    def counting_cost(self, *args, **kwargs):
        calls["cost"] += 1
        return exact_cost(self, *args, **kwargs)

    monkeypatch.setattr(_setup, "prepare_setup", counting_prepare)
    monkeypatch.setattr(_setup.Setup, "exact_cost", counting_cost)
    return calls


@pytest.fixture(scope="module")
def deck():
    return deckstat.load_deck(WANKUL)


def test_odds_prepares_and_prices_each_event_once(counted, deck):
    deckstat.odds(deck, "wankul", ["Terrain>=1", "Terrain>=2"], turns=[0, 3])
    assert counted["prepare"] == [(("Terrain>=1",), True), (("Terrain>=2",), True)]
    assert counted["cost"] == 2


def test_mulligan_prepares_each_deal_once_and_prices_it_once(counted, deck):
    result = deckstat.mulligan(deck, "wankul", keep="Terrain>=1", turns=[0, 2])
    assert set(result.by_turn["method"]) == {"exact"}
    # The kept hands and the by-turn odds under the rule share one set-up; keeping every hand is another deal.
    assert counted["prepare"] == [(("Terrain>=1",), True), (("Terrain>=1",), False)]
    assert counted["cost"] == 2


def test_mulligan_with_several_events_compiles_each_on_its_own_once(counted, deck):
    deckstat.mulligan(deck, "wankul", keep="Terrain>=1", event=["Terrain>=2", "[cost<=1]>=1"], turns=[1])
    events = [events for events, _ in counted["prepare"]]
    assert events[0] == ("Terrain>=2", "[cost<=1]>=1")  # the kept hands: every event together
    assert len(events) == len(set(counted["prepare"])) == 5  # then each event with the rule and without
    assert counted["cost"] == 4


def test_simulated_mulligan_prices_only_the_deal_without_it(counted, deck):
    result = deckstat.mulligan(deck, "wankul", keep="Terrain>=1", turns=[0], method="simulate", n_trials=2000, rng=3)
    assert len(counted["prepare"]) == 2
    # Keeping every first hand is answered under auto, which prices it; the rule's side is simulated as asked.
    assert counted["cost"] == 1
    assert result.by_turn.groupby("mulligan_rule")["method"].first().to_dict() == {"bottom": "simulate",
                                                                                   "none": "exact"}


def test_compare_prepares_and_prices_each_deck_once(counted, deck):
    other = deckstat.load_deck(WANKUL_V2)
    result = deckstat.compare([deck, other], "wankul", "Terrain>=2", turns=[0, 1])
    assert set(result.table["method"]) == {"exact"}
    assert len(counted["prepare"]) == 2
    assert counted["cost"] == 2


def test_ratio_prepares_and_prices_each_count_once_and_checks_its_settings_once(counted, deck, monkeypatch):
    checks = []
    check_simulation = _setup.check_simulation

    def counting_check(*args, **kwargs):
        checks.append(args)
        return check_simulation(*args, **kwargs)

    monkeypatch.setattr(_estimate, "check_simulation", counting_check)
    monkeypatch.setattr(deckout, "check_simulation", counting_check)
    counts = [9, 10, 11]
    result = deckstat.ratio(deck, "wankul", counts=counts, turns=[0, 2], n_trials=2000, rng=1)
    assert set(result.table["method"]) == {"exact"}
    assert result.provenance["methods"]["deckout_turn_first"] == "simulate"  # Wankul's drought: raced at each count
    # The deck as it is (its method), then per count the resource event (asked in the hand, by turn and for its
    # first turn) and the flood side of the hand: one set-up each.
    assert [events for events, _ in counted["prepare"]] == [("Terrain>=1",)] + [("Terrain>=1",), ("Terrain>=3",)] * 3
    # Per count: the hand's two events, the odds by turn and the first turn, each priced once.
    assert counted["cost"] == 4 * len(counts)
    # Once for the sweep, not again by each count's odds, first turn and deck-out race.
    assert len(checks) == 1


def test_a_ratio_plan_answers_as_the_sweep_does(deck):
    simulation = Simulation.checked(method="simulate", n_trials=2000, rng=4)
    planned = answer_ratio(plan_ratio(deck, "wankul", counts=[10, 12], turns=[0, 1], simulation=simulation),
                           simulation)
    direct = deckstat.ratio(deck, "wankul", counts=[10, 12], turns=[0, 1], method="simulate", n_trials=2000, rng=4)
    pd.testing.assert_frame_equal(planned.table, direct.table)
    pd.testing.assert_frame_equal(planned.summary, direct.summary)
    assert planned.provenance == direct.provenance


def test_a_plan_answers_as_the_question_does(deck):
    simulation = Simulation.checked(method="simulate", n_trials=3000, rng=11)
    planned = answer_odds(plan_odds(deck, "wankul", "Terrain>=2", turns=[0, 2], simulation=simulation), simulation)
    direct = deckstat.odds(deck, "wankul", "Terrain>=2", turns=[0, 2], method="simulate", n_trials=3000, rng=11)
    assert planned.table.equals(direct.table)
    assert planned.provenance == direct.provenance


def test_simulation_settings_are_checked_once_up_front():
    with pytest.raises(deckstat.DeckstatError, match="n_trials"):
        Simulation.checked(n_trials=0)
    with pytest.raises(deckstat.DeckstatError, match="method"):
        Simulation.checked(method="sometimes")
    with pytest.raises(deckstat.DeckstatError, match="not both"):
        Simulation.checked(n_trials=1000, precision=0.01)


def test_first_turn_summary_against_a_literal_distribution():
    # First turn 0, 1 or 3 with P 0.2, 0.3, 0.1; never by turn 3 with P 0.4.
    pmf = np.array([0.2, 0.3, 0.0, 0.1])
    cdf = np.cumsum(pmf)
    summary = first_turn([0, 1, 2, 3], pmf, cdf, cdf - 0.05, cdf + 0.05)
    assert summary["mean_turn"] == pytest.approx((0 * 0.2 + 1 * 0.3 + 3 * 0.1) / 0.6, abs=1e-15)
    assert summary["median_turn"] == 1
    assert summary["p_never"] == pytest.approx(0.4, abs=1e-15)
    assert (summary["p_never_low"], summary["p_never_high"]) == pytest.approx((0.35, 0.45), abs=1e-15)
    never = first_turn([1, 2], np.zeros(2), np.zeros(2), np.zeros(2), np.zeros(2))
    assert np.isnan(never["mean_turn"]) and never["median_turn"] is pd.NA and never["p_never"] == 1.0


# --- a batch spec and the command line refuse the same inputs with the same words ------------------------------

#: An event of four groups over 41 turns: refused when the exact engine's time limit is made tiny.
NINE = "Terrain>=1 and [cost=1]>=2 and [clan=Laink]>=1 and [cost=2]>=1"

BAD = [
    # (command line after the deck(s), spec question)
    (["odds", "-e", "Terain>=1"], {"question": "odds", "event": "Terain>=1"}),
    (["odds", "-e", "[colour=Rouge]>=1"], {"question": "odds", "event": "[colour=Rouge]>=1"}),
    (["odds", "-e", "Terrain>=1", "--turns", "0-60"], {"question": "odds", "event": "Terrain>=1", "turns": "0-60"}),
    (["when", "-e", "Terrain>=3", "--max-turn", "60"], {"question": "when", "event": "Terrain>=3", "max_turn": 60}),
    (["odds", "-e", "Terrain>=1", "--zone", "set_aside"],
     {"question": "odds", "event": "Terrain>=1", "zone": "set_aside"}),
    (["odds", "-e", "Terrain>=1", "--mulligan-rule", "london", "--exact"],
     {"question": "odds", "event": "Terrain>=1", "mulligan_rule": "london", "method": "exact"}),
    (["mulligan", "--keep", "Terain>=1"], {"question": "mulligan", "keep": "Terain>=1"}),
    (["mulligan", "--mulligan-rule", "vancouver", "--mulligan-limit", "9"],
     {"question": "mulligan", "mulligan_rule": "vancouver", "mulligan_limit": 9}),
    (["deckout", "--keep", "Terain>=1"], {"question": "deckout", "keep": "Terain>=1"}),
    (["compare", WANKUL_V2, "-e", "Terain>=2"], {"question": "compare", "event": "Terain>=2", "second": True}),
    (["ratio", "--group", "[colour=Rouge]"], {"question": "ratio", "group": "[colour=Rouge]"}),
    (["ratio", "-e", "Terrain>=1", "--group", "[colour=Rouge]"],
     {"question": "ratio", "event": "Terrain>=1", "group": "[colour=Rouge]"}),
    (["ratio", "-e", "Terain>=1"], {"question": "ratio", "event": "Terain>=1"}),
    (["ratio", "--keep", "Terain>=1"], {"question": "ratio", "keep": "Terain>=1"}),
    (["ratio", "--range", "10-60"], {"question": "ratio", "counts": "10-60"}),
    (["ratio", "--filler", "Foo"], {"question": "ratio", "filler": "Foo"}),
    (["ratio", "--zone", "set_aside"], {"question": "ratio", "zone": "set_aside"}),
    (["ratio", "--target", "0.9", "--turns", "1-3"], {"question": "ratio", "target": 0.9, "turns": "1-3"}),
    (["ratio", "--flood", "9"], {"question": "ratio", "flood": 9}),
    (["odds", "-e", NINE, "--turns", "0-40", "--seat", "first", "--exact"],
     {"question": "odds", "event": NINE, "turns": "0-40", "seat": "first", "method": "exact"}),
]


def _python_words(text: str, words: dict[str, str]) -> str:
    """``text`` with the parameters a boundary spells its own way (``--allow-absent``) written as in Python.

    A spelling of several names (``--allow-absent`` for ``allow_absent`` and ``allow_absent=True``) reads as the
    longest, the one with its value.
    """
    names: dict[str, str] = {}
    for name, shown in words.items():
        if len(name) > len(names.get(shown, "")):
            names[shown] = name
    for shown in sorted(names, key=len, reverse=True):
        text = text.replace(shown, names[shown])
    return text


def _spec_message(question: dict) -> str:
    question = dict(question)
    decks = ["a", "b"] if question.pop("second", False) else ["a"]
    spec = {"game": "wankul", "seed": 1, "decks": {"a": {"path": WANKUL.name}, "b": {"path": WANKUL_V2.name}},
            "questions": [{**question, "decks": decks}]}
    with pytest.raises(SpecError) as caught:
        load_spec(spec, base_dir=WANKUL.parent)
    message = str(caught.value)
    # Whatever key the spec blames, the question's own words follow it.
    return re.split(r"questions\[0\][\w.\[\]]*: ", message, maxsplit=1)[1]


@pytest.mark.parametrize(("command", "question"), BAD, ids=[q["question"] + str(i) for i, (_, q) in enumerate(BAD)])
def test_a_spec_and_the_command_line_refuse_alike(monkeypatch, command, question):
    if question.get("event") == NINE:
        monkeypatch.setattr(_setup, "MAX_EXACT_SECONDS", 1e-4)
    result = run(command[0], WANKUL, *command[1:], "--game", "wankul")
    assert result.exit_code == 2, result.output
    cli = result.stderr.strip().removeprefix("error: ")
    assert _python_words(_spec_message(question), SPEC_WORDS) == _python_words(cli, FLAGS)
