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
from deckstat.questions import _estimate, _setup
from deckstat.questions import curve as curve_module
from deckstat.questions import report as report_module
from deckstat.questions._estimate import Simulation, first_turn
from deckstat.questions.curve import answer_curve, plan_curve
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


@pytest.fixture
def checks(monkeypatch):
    """How many times the simulation settings are checked (:meth:`Simulation.checked` and any direct check)."""
    calls = {"checked": 0}
    check_simulation = _setup.check_simulation

    def counting(*args, **kwargs):
        calls["checked"] += 1
        return check_simulation(*args, **kwargs)

    monkeypatch.setattr(_estimate, "check_simulation", counting)
    monkeypatch.setattr(_setup, "check_simulation", counting)
    return calls


@pytest.fixture
def curve_engines(monkeypatch):
    """Every exact playability curve priced (a dry run per seat) and computed."""
    calls = {"priced": [], "computed": []}
    dry_run, exact_curve = curve_module.dry_run, curve_module.exact_curve

    def counting_dry_run(function, reduced, deck, schedule, **kwargs):
        calls["priced"].append(schedule.seat)
        return dry_run(exact_curve, reduced, deck, schedule, **kwargs)  # a dry run is no computation

    def counting_exact(reduced, deck, schedule, **kwargs):
        calls["computed"].append(schedule.seat)
        return exact_curve(reduced, deck, schedule, **kwargs)

    monkeypatch.setattr(curve_module, "dry_run", counting_dry_run)
    monkeypatch.setattr(curve_module, "exact_curve", counting_exact)
    return calls


PANDREA = DATA / "pandrea" / "sample_deck.csv"
#: Two targets of the Pandrea sample deck with an exact form, and one without (its play needs a rest to pay).
PANDREA_TARGETS = ["Paysans à Fourche", "Grenier à Navets", "Hallebardiers Grincheux"]


def test_curve_checks_once_prepares_once_and_prices_each_target_once(counted, checks, curve_engines):
    pandrea = deckstat.load_deck(PANDREA)
    result = deckstat.curve(pandrea, "pandrea", cards=PANDREA_TARGETS, turns=[1, 3], n_trials=2000, rng=5)
    assert result.table.groupby("target", sort=False)["method"].first().tolist() == ["exact", "exact", "simulate"]
    assert checks["checked"] == 1
    assert counted["prepare"] == [((), True)]
    # Each exact target priced once, a dry run per seat; computed once, as both seats draw alike in Pandrea. The
    # simulated target is never priced.
    assert curve_engines["priced"] == ["first", "second"] * 2
    assert curve_engines["computed"] == ["first"] * 2


def test_a_curve_plan_answers_as_the_question_does():
    pandrea = deckstat.load_deck(PANDREA)
    # Exact targets next to a simulated one: both paths in one question.
    simulation = Simulation.checked(n_trials=3000, rng=17)
    plan = plan_curve(pandrea, "pandrea", cards=PANDREA_TARGETS, turns=[1, 2, 4], simulation=simulation)
    planned = answer_curve(plan, simulation)
    direct = deckstat.curve(pandrea, "pandrea", cards=PANDREA_TARGETS, turns=[1, 2, 4], n_trials=3000, rng=17)
    assert set(planned.table["method"]) == {"exact", "simulate"}
    assert planned.table.equals(direct.table)
    assert planned.summary.equals(direct.summary)
    assert planned.provenance == direct.provenance
    # A plan is answered as often as asked, with the same numbers: answering leaves it as it was.
    assert answer_curve(plan, simulation).table.equals(planned.table)


def test_report_checks_its_settings_once_and_prepares_each_set_up_once(monkeypatch, checks, deck):
    prepared, priced, inside_ratio, outside = [], [], [False], {"checked": 0}
    prepare_setup, ratio, sensitivity = _setup.prepare_setup, report_module.ratio, report_module.sensitivity
    checked, predict = _estimate.check_simulation, _setup.Setup._predict

    def counting_predict(self, condition, draws, zone):
        if not inside_ratio[0]:
            priced.append((id(self), id(condition), tuple(draws), zone))
        return predict(self, condition, draws, zone)

    def counting_prepare(deck, game, events, **rules):
        if not inside_ratio[0]:
            prepared.append((id(deck), tuple(events), repr(sorted(rules.items()))))
        return prepare_setup(deck, game, events, **rules)

    def counting_check(*args, **kwargs):
        outside["checked"] += not inside_ratio[0]
        return checked(*args, **kwargs)

    def ratio_apart(*args, **kwargs):
        # The resource-count sweep keeps its own checks and set-ups (one deck per count): not counted here.
        inside_ratio[0] = True
        try:
            return ratio(*args, **kwargs)
        finally:
            inside_ratio[0] = False

    monkeypatch.setattr(_setup, "prepare_setup", counting_prepare)
    monkeypatch.setattr(_estimate, "check_simulation", counting_check)
    def sensitivity_apart(*args, **kwargs):
        # So does the ±1-copy table (one deck per move), a question built on compare.
        inside_ratio[0] = True
        try:
            return sensitivity(*args, **kwargs)
        finally:
            inside_ratio[0] = False

    monkeypatch.setattr(report_module, "ratio", ratio_apart)
    monkeypatch.setattr(report_module, "sensitivity", sensitivity_apart)
    monkeypatch.setattr(_setup.Setup, "_predict", counting_predict)
    result = deckstat.report(deck, "wankul", n_trials=2000, rng=3, turns=3)
    assert result.ratio is not None and result.playability.curve is not None
    assert outside["checked"] == 1
    # The by-turn odds, the kept hand and the mulligan's kept hands share one set-up (Terrain>=1 under the bottom
    # mulligan); the mulligan's side without it and the playability curves have their own.
    events = [(events, rules) for _, events, rules in prepared]
    assert len(prepared) == len(set(prepared)) == 3
    assert sorted(e for e, _ in events) == [(), ("Terrain>=1",), ("Terrain>=1",)]
    # Four exact odds, each priced once: by turn, the kept hand, and the mulligan's by-turn odds with the rule and
    # without it.
    assert len(priced) == len(set(priced)) == 4


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


# --- curve (not a batch question): its plan refuses what the command line refuses, with the same words ------------

CURVE_BAD = [
    # (command line after the deck, plan_curve's arguments, simulation settings)
    (["--turns", "0-3"], {"turns": range(4)}, {}),
    (["--turns", "1-60"], {"turns": range(1, 61)}, {}),
    (["-c", "ZZZ"], {"cards": "ZZZ"}, {}),
    (["--group", "Terain"], {"groups": "Terain"}, {}),
    (["--group", "[colour=Rouge]"], {"groups": "[colour=Rouge]"}, {}),
    (["--policy", "bogus"], {"policy": "bogus"}, {}),
    (["--keep", "Terain>=1"], {"keep": "Terain>=1"}, {}),
    (["--trials", "1000", "--precision", "0.01"], {}, {"n_trials": 1000, "precision": 0.01}),
    (["--trials", "0"], {}, {"n_trials": 0}),
]


@pytest.mark.parametrize(("command", "arguments", "settings"), CURVE_BAD,
                         ids=[" ".join(command) for command, _, _ in CURVE_BAD])
def test_a_curve_plan_and_the_command_line_refuse_alike(deck, command, arguments, settings):
    result = run("curve", WANKUL, "--game", "wankul", *command)
    assert result.exit_code == 2, result.output
    with pytest.raises(deckstat.DeckstatError) as caught:
        plan_curve(deck, "wankul", **arguments, simulation=Simulation.checked(**settings))
    assert "error: " + caught.value.render(FLAGS) == result.stderr.strip()
