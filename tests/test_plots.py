"""Figures: every plot draws real API results and hand-built results readably; save writes PNG and SVG."""

import matplotlib

matplotlib.use("Agg")

import dataclasses  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from helpers import sample_deck  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402

import deckstat  # noqa: E402
from deckstat.i18n import tr  # noqa: E402
from deckstat.present import plots  # noqa: E402
from deckstat.present.format import format_probability  # noqa: E402
from deckstat.results import (  # noqa: E402
    DeckoutResult,
    MulliganResult,
    OddsResult,
    RatioResult,
    WhenResult,
)

N_TRIALS = 1000


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def wankul():
    return deckstat.load_deck(sample_deck("wankul"))


@pytest.fixture(scope="module")
def wankul_v2():
    return deckstat.load_deck(sample_deck("wankul", "sample_deck_v2.csv"))


@pytest.fixture(scope="module")
def dm():
    return deckstat.load_deck(sample_deck("duel-masters"))


def legend_texts(ax):
    legend = ax.get_legend()
    return [t.get_text() for t in legend.get_texts()] if legend is not None else []


def assert_readable(ax, probability=True):
    """A player can read it: something drawn, a title, labelled axes, a legend, percent ticks within 0-100 %."""
    assert isinstance(ax, Axes)
    assert ax.lines or ax.patches or ax.collections, "nothing drawn"
    assert ax.get_title().strip(), "no title"
    assert ax.get_xlabel().strip(), "no x label"
    assert ax.get_ylabel().strip(), "no y label"
    assert legend_texts(ax), "no legend"
    if probability:
        bottom, top = ax.get_ylim()
        assert 0.0 <= bottom < top <= 1.0
        assert isinstance(ax.yaxis.get_major_formatter(), plots.ProbabilityFormatter)
        assert (bottom == 0.0) == (tr(plots.AXIS_NOTE) not in ax.get_ylabel())


def given_ax(plot, data):
    """Draw into an existing Axes: the same Axes comes back, with something drawn in it."""
    fig, ax = plt.subplots()
    assert plot(data, ax=ax) is ax
    assert ax.figure is fig
    assert_readable(ax, probability=plot is not plots.plot_compare)
    return ax


def title_of(ax):
    """The title on one line (long titles wrap)."""
    return " ".join(ax.get_title().split())


def has_error_bars(ax):
    """Error bars are drawn as line collections next to the bars or points."""
    return any(isinstance(c, matplotlib.collections.LineCollection) for c in ax.collections)


# --- real API results ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def odds_results(wankul, dm):
    exact = deckstat.odds(wankul, "wankul", ["Terrain>=1", "Terrain>=1 and [cost<=1]>=1"])
    simulated = deckstat.odds(dm, "duel-masters", "[civilization=Feu]>=2", turns=range(5), method="simulate",
                              n_trials=N_TRIALS, rng=1)
    hand = deckstat.odds(dm, "duel-masters", "[shield_trigger=1]>=1", zone="set_aside")
    return {"exact": exact, "simulated": simulated, "hand": hand}


@pytest.mark.parametrize("form", ["result", "table"])
@pytest.mark.parametrize("kind", ["exact", "simulated", "hand"])
def test_plot_odds_real(odds_results, kind, form):
    result = odds_results[kind]
    data = result if form == "result" else result.table
    ax = plots.plot_odds(data)
    assert_readable(ax)
    given_ax(plots.plot_odds, data)
    if kind == "simulated":
        assert ax.collections, "simulated odds need their interval band"
        assert any("95%" in t for t in legend_texts(ax))
    else:
        assert not ax.collections
        assert not any("95%" in t for t in legend_texts(ax))


def test_plot_odds_title_names_deck_game_and_rules(odds_results):
    title = title_of(plots.plot_odds(odds_results["exact"]))
    assert "sample_deck.csv" in title and "wankul" in title
    assert "bottom mulligan, keep if Terrain>=1" in title
    assert "keeping every first hand" in title_of(plots.plot_odds(odds_results["hand"]))
    # A single turn (the shields) has its value written next to the point.
    assert plots.plot_odds(odds_results["hand"]).texts


def test_plot_odds_reads_the_provenance_before_the_attrs(wankul):
    result = deckstat.odds(wankul, "wankul", "Terrain>=1", mulligan_rule="london")
    result.table.attrs = {"mulligan_rule": "vancouver", "keep": "Terrain>=3"}
    assert "London mulligan, keep if Terrain>=1" in title_of(plots.plot_odds(result))
    # A bare table has only its attrs to name the rules.
    assert "Vancouver mulligan, keep if Terrain>=3" in title_of(plots.plot_odds(result.table))


def test_plot_odds_identical_seats_share_one_line(odds_results):
    # Wankul's seats both draw on turn 1: identical odds, one line per event rather than one hidden under another.
    ax = plots.plot_odds(odds_results["exact"])
    assert len(ax.lines) == 2
    assert all("Terrain>=1" in t for t in legend_texts(ax))
    assert "both players (same odds)" in title_of(ax)
    assert len({line.get_color() for line in ax.lines}) == 2, "one colour per event"


def test_plot_odds_seats_that_differ_get_their_own_styles(odds_results):
    ax = plots.plot_odds(odds_results["simulated"])
    assert len(ax.lines) == 2
    assert {line.get_linestyle() for line in ax.lines} == {"-", "--"}
    assert {"first player", "second player"} <= set(legend_texts(ax))


def test_plot_odds_concatenated_decks_one_line_per_deck(wankul, wankul_v2):
    tables = [deckstat.odds(deck, "wankul", "Terrain>=1").table for deck in (wankul, wankul_v2)]
    frame = pd.concat(tables, ignore_index=True)
    assert set(frame["seat"]) == {"first", "second"}
    ax = plots.plot_odds(frame)
    assert_readable(ax)
    # Each deck's identical seats merge: one line per deck, named by the deck column.
    assert len(ax.lines) == 2
    assert legend_texts(ax) == ["sample_deck.csv", "sample_deck_v2.csv"]
    assert len({line.get_color() for line in ax.lines}) == 2
    title = title_of(ax)
    assert "wankul" in title, "the game comes from the game column"
    assert "sample_deck" not in title, "no single deck to name"


def test_plot_odds_compare_odds_table(wankul, wankul_v2):
    result = deckstat.compare([wankul, wankul_v2], "wankul", "Terrain>=1", seat="first", method="simulate",
                              n_trials=N_TRIALS, rng=7)
    ax = plots.plot_odds(result.odds)
    assert legend_texts(ax)[:2] == ["sample_deck.csv", "sample_deck_v2.csv"]
    assert ax.collections


@pytest.fixture(scope="module")
def when_results(wankul, dm):
    return {"exact": deckstat.when(wankul, "wankul", "Terrain>=2", max_turn=8),
            "simulated": deckstat.when(dm, "duel-masters", "[civilization=Feu]>=2", max_turn=6, method="simulate",
                                       n_trials=N_TRIALS, rng=2)}


@pytest.mark.parametrize("kind", ["exact", "simulated"])
def test_plot_when_real(when_results, kind):
    result = when_results[kind]
    ax = plots.plot_when(result)
    assert_readable(ax)
    given_ax(plots.plot_when, result)
    max_turn = int(result.summary["max_turn"].iloc[0])
    assert f"not by turn {max_turn}" in title_of(ax)
    assert ax.patches, "the first-turn distribution is drawn as bars"
    assert ax.lines, "the cumulative probability is drawn as a line"
    assert bool(ax.collections) == (kind == "simulated"), "bands and error bars only when simulated"


def test_plot_when_identical_seats_merge(when_results):
    ax = plots.plot_when(when_results["exact"])
    assert len(ax.lines) == 1
    assert "for both players" in title_of(ax)
    ax = plots.plot_when(when_results["simulated"])
    assert len([line for line in ax.lines if not line.get_label().startswith("_")]) == 2, "error-bar caps aside"


def test_plot_when_several_events(wankul):
    result = deckstat.when(wankul, "wankul", ["Terrain>=2", "Terrain>=3"], max_turn=8)
    ax = plots.plot_when(result)
    assert_readable(ax)
    assert len(ax.lines) == 2, "one line per event (the seats are identical)"
    assert len({line.get_color() for line in ax.lines}) == 2, "one colour per event"
    title = title_of(ax)
    assert "each event" in title
    for event, p_never in zip(result.summary["event"], result.summary["p_never"]):
        assert f"{event} {format_probability(p_never)}" in title
    assert any(t.startswith("Terrain>=3") for t in legend_texts(ax))


@pytest.fixture(scope="module")
def ratio_results(wankul):
    return {"exact": deckstat.ratio(wankul, "wankul", counts=range(8, 13), target=0.95, target_turn=5),
            "simulated": deckstat.ratio(wankul, "wankul", counts=[9, 10, 11], target=0.97, method="simulate",
                                        n_trials=N_TRIALS, rng=3)}


@pytest.mark.parametrize("kind", ["exact", "simulated"])
def test_plot_ratio_real(ratio_results, kind):
    result = ratio_results[kind]
    ax = plots.plot_ratio(result)
    assert_readable(ax)
    given_ax(plots.plot_ratio, result)
    texts = legend_texts(ax)
    assert any(t.startswith("illegal deck") for t in texts)
    assert any(t.startswith("target") for t in texts)
    turn = result.summary["target_turn"].iloc[0]
    assert (f"by turn {turn}" if turn else "in the kept opening hand") in title_of(ax)
    assert "your deck: 10 Terrain cards" in texts
    assert f"{result.provenance['deck_size']} cards" in title_of(ax)
    assert has_error_bars(ax) == (kind == "simulated")
    assert any("95%" in t for t in texts) == (kind == "simulated")


def test_plot_ratio_marks_the_recommendation(ratio_results):
    result = ratio_results["exact"]
    ax = plots.plot_ratio(result)
    row = result.summary.iloc[0]
    # By turn 5, 8 Terrains reach 95% but Wankul asks for 10: the recommendation is the legal 10.
    recommended, smallest = int(row["recommended"]), int(row["smallest_reaching"])
    assert (recommended, smallest) == (10, 8) and not row["smallest_reaching_legal"]
    verticals = {float(np.atleast_1d(line.get_xdata())[0]) for line in ax.lines
                 if len(np.atleast_1d(line.get_xdata())) == 2 and len(set(np.atleast_1d(line.get_xdata()))) == 1}
    assert {float(recommended), float(smallest)} <= verticals
    texts = legend_texts(ax)
    assert "recommended: 10 Terrain cards, the smallest legal count reaching the target" in texts
    assert "8 Terrain cards would reach the target but is illegal" in texts


def test_plot_ratio_several_events(wankul):
    result = deckstat.ratio(wankul, "wankul", counts=range(8, 13), target=0.95, event=["Terrain>=1", "Terrain>=2"])
    assert list(result.summary["decision"]) == ["decided", "none"]
    ax = plots.plot_ratio(result)
    assert_readable(ax)
    texts = legend_texts(ax)
    assert any(t.startswith("recommended:") and t.endswith("(Terrain>=1)") for t in texts)
    assert "no recommendation: no legal count swept reaches the target (Terrain>=2)" in texts
    assert "P(each event)" in title_of(ax)


@pytest.fixture(scope="module")
def deckout_results(wankul, dm):
    return {"wankul": deckstat.deckout(wankul, "wankul", terrain_turns=3, n_trials=2000, rng=1),
            "duel-masters": deckstat.deckout(dm, "duel-masters")}


def test_plot_deckout_real_spread_over_turns(deckout_results):
    result = deckout_results["wankul"]
    ax = plots.plot_deckout(result)
    assert_readable(ax)
    given_ax(plots.plot_deckout, result)
    title = title_of(ax)
    assert "P(first player's deck runs out first)" in title
    assert "(wankul)" in title and "sample_deck.csv" in title
    assert "95% interval" in title and "drought rule" in title
    # P(run out by turn t): one line per seat from 0 the turn before the first deck-out, up to the result's cdf.
    assert not ax.patches and len(ax.lines) == 2
    for line, seat in zip(ax.lines, ["first", "second"]):
        rows = result.table[result.table["seat"] == seat].sort_values("turn")
        assert line.get_ydata()[0] == 0.0
        assert list(line.get_ydata()[1:]) == pytest.approx(list(rows["cdf"]))
        assert np.all(np.diff(line.get_ydata()) >= 0)
    assert ax.get_ylim() == (0.0, 1.0)
    assert ax.collections, "simulated: interval bands"


def test_plot_deckout_single_turns_are_said_in_words(deckout_results):
    # Duel Masters without effects: each seat runs out on one known turn; a full-height bar would say nothing more.
    result = deckout_results["duel-masters"]
    ax = plots.plot_deckout(result)
    assert not ax.patches and not ax.lines and not ax.axison
    text = " ".join(" ".join(t.get_text() for t in ax.texts).split())
    for seat in ("first", "second"):
        turn = int(result.summary.set_index("seat").loc[seat, "median_turn"])
        assert f"{seat} player: the deck always runs out on turn {turn}" in text
    assert "P(first player's deck runs out first) = 0%" in title_of(ax)


@pytest.fixture(scope="module")
def mulligan_results(wankul):
    return {"exact": deckstat.mulligan(wankul, "wankul"),
            "simulated": deckstat.mulligan(wankul, "wankul", mulligan_rule="london", seat="second",
                                           n_trials=N_TRIALS, rng=4)}


@pytest.mark.parametrize("kind", ["exact", "simulated"])
def test_plot_mulligan_real(mulligan_results, kind):
    result = mulligan_results[kind]
    ax = plots.plot_mulligan(result)
    assert_readable(ax)
    given_ax(plots.plot_mulligan, result)
    texts = legend_texts(ax)
    rule = {"exact": "bottom", "simulated": "London"}[kind]
    assert f"with the {rule} mulligan (keep if Terrain>=1)" in texts
    assert "keeping every first hand" in texts
    assert bool(ax.collections) == (kind == "simulated")
    assert len(ax.lines) == 2
    assert "first hand kept" in title_of(ax)
    assert title_of(ax).endswith({"exact": "exact", "simulated": f"simulated, {N_TRIALS:,} games"}[kind])


def test_plot_mulligan_several_events(wankul):
    result = deckstat.mulligan(wankul, "wankul", event=["Terrain>=1", "Terrain>=2"])
    ax = plots.plot_mulligan(result)
    assert_readable(ax)
    assert len(ax.lines) == 4
    assert len({line.get_color() for line in ax.lines}) == 2, "one colour per event"
    assert "Terrain>=2, keeping every first hand" in legend_texts(ax)


@pytest.fixture(scope="module")
def compare_results(wankul, wankul_v2):
    return {"exact": deckstat.compare([wankul, wankul_v2], "wankul", "Terrain>=1", method="exact"),
            "simulated": deckstat.compare([wankul, wankul_v2], "wankul", "Terrain>=1", method="simulate",
                                          n_trials=N_TRIALS, rng=5)}


@pytest.mark.parametrize("form", ["result", "table"])
@pytest.mark.parametrize("kind", ["exact", "simulated"])
def test_plot_compare_real(compare_results, kind, form):
    result = compare_results[kind]
    data = result if form == "result" else result.table
    axes = plots.plot_compare(data)
    assert isinstance(axes, np.ndarray) and axes.shape == (2,)
    top, bottom = axes
    assert_readable(top)
    assert_readable(bottom, probability=False)
    assert top.figure is bottom.figure
    # Wankul's identical seats share one line per deck.
    assert legend_texts(top) == ["deck A: sample_deck.csv", "deck B: sample_deck_v2.csv"]
    ax = given_ax(plots.plot_compare, data)
    assert "sample_deck_v2.csv − sample_deck.csv" in legend_texts(ax)
    assert bool(ax.collections) == (kind == "simulated")


# --- hand-built results --------------------------------------------------------------------------------------

IDENTITY = {"deck": "main.csv", "game": "duel-masters"}
PROVENANCE = {"game": "duel-masters", "deck_source": "decks/main.csv", "deck_size": 40, "mulligan_rule": "none",
              "keep": None}


def odds_table(method="simulate"):
    rows = []
    for seat, shift in (("first", 0.0), ("second", 0.05)):
        for t in range(5):
            p = min(0.5 + 0.1 * t + shift, 1.0)
            rows.append({**IDENTITY, "event": "Dragon>=1", "seat": seat, "turn": t, "zone": "seen",
                         "zone_size": 5 + t, "p": p, "ci_low": max(p - 0.03, 0), "ci_high": min(p + 0.03, 1),
                         "n_trials": 500 if method == "simulate" else None, "method": method})
    return pd.DataFrame(rows).astype({"n_trials": "Int64"})


def odds_result(method="simulate"):
    return OddsResult(table=odds_table(method), summary=pd.DataFrame(), provenance=dict(PROVENANCE))


def when_result():
    pmf = np.array([0.3, 0.2, 0.15, 0.1, 0.05])
    cdf = np.cumsum(pmf)
    table = pd.DataFrame({**IDENTITY, "event": "Dragon>=1", "seat": "first", "turn": np.arange(5), "p": pmf,
                          "ci_low": pmf - 0.02, "ci_high": pmf + 0.02, "cdf": cdf, "cdf_low": cdf - 0.02,
                          "cdf_high": cdf + 0.02, "n_trials": 800, "method": "simulate"})
    summary = pd.DataFrame([{**IDENTITY, "event": "Dragon>=1", "seat": "first", "max_turn": 4, "mean_turn": 1.3,
                             "median_turn": 1, "p_never": 0.2, "n_trials": 800, "method": "simulate"}])
    return WhenResult(table=table, summary=summary, provenance=dict(PROVENANCE))


def ratio_result(target=0.9, recommended=10, method="simulate", target_turn=2):
    rows = []
    for k in range(7, 13):
        p_turn = {t: min(0.55 + 0.04 * k + 0.02 * t, 0.99) for t in range(4)}
        at_target = p_turn.get(target_turn, p_turn[3])
        status = None if target is None else ("reached" if at_target >= target else "not reached")
        for t, p in p_turn.items():
            rows.append({**IDENTITY, "event": "Terrain>=1", "seat": "first", "resource_count": k, "turn": t,
                         "p": p, "ci_low": p - 0.01, "ci_high": min(p + 0.01, 1.0), "method": method,
                         "legal": k >= 10, "target_status": status})
    summary = pd.DataFrame([{**IDENTITY, "event": "Terrain>=1", "seat": "first", "group": "Terrain",
                             "current_count": 10, "target": target, "target_turn": target_turn,
                             "recommended": recommended, "smallest_reaching": recommended,
                             "smallest_reaching_legal": recommended is not None or None, "method": method}]).astype(
        {"recommended": "Int64", "smallest_reaching": "Int64"})
    return RatioResult(table=pd.DataFrame(rows), summary=summary, provenance=dict(PROVENANCE))


def deckout_result():
    rows, summary = [], []
    for seat, base in (("first", 20), ("second", 21)):
        for t, p, cdf in zip(range(base, base + 3), (0.25, 0.5, 0.25), (0.25, 0.75, 1.0)):
            rows.append({**IDENTITY, "opponent": "other.csv", "seat": seat, "turn": t, "p": p, "ci_low": p - 0.02,
                         "ci_high": p + 0.02, "cdf": cdf, "cdf_low": cdf - 0.02, "cdf_high": min(cdf + 0.02, 1.0),
                         "n_trials": 1000, "method": "simulate"})
        summary.append({**IDENTITY, "opponent": "other.csv", "seat": seat, "mean_turn": base + 1.0,
                        "median_turn": base + 1, "earliest_turn": base, "latest_turn": base + 2,
                        "p_runs_out_first": 0.75 if seat == "first" else 0.2,
                        "ci_low": 0.72 if seat == "first" else 0.18, "ci_high": 0.78 if seat == "first" else 0.22,
                        "p_same_moment": 0.05, "n_trials": 1000, "method": "simulate"})
    return DeckoutResult(table=pd.DataFrame(rows), summary=pd.DataFrame(summary),
                         provenance={**PROVENANCE, "drought": False})


def compare_table(seats=("first", "second")):
    rows = []
    for seat in seats:
        for t in range(6):
            p_a = 0.6 + 0.05 * t
            p_b = p_a + 0.04 - 0.005 * t
            diff = p_b - p_a
            rows.append({"game": "wankul", "event": "Terrain>=1", "seat": seat, "turn": t, "zone": "seen",
                         "deck_a": "main.csv", "deck_b": "main_v2.csv", "p_a": p_a, "p_b": p_b, "diff": diff,
                         "diff_ci_low": diff - 0.02, "diff_ci_high": diff + 0.02, "p_value": 0.03,
                         "n_trials": 1000, "method": "simulate"})
    return pd.DataFrame(rows)


def mulligan_result(seats=("first",)):
    rows = []
    for seat in seats:
        for t, (p_with, p_without) in enumerate(zip((0.9, 0.92, 0.94, 0.96, 0.97), (0.7, 0.75, 0.8, 0.84, 0.88))):
            rows.append({**IDENTITY, "event": "Terrain>=1", "seat": seat, "turn": t, "mulligan_rule": "london",
                         "p": p_with, "ci_low": p_with - 0.01, "ci_high": p_with + 0.01, "n_trials": 1000,
                         "method": "simulate"})
            rows.append({**IDENTITY, "event": "Terrain>=1", "seat": seat, "turn": t, "mulligan_rule": "none",
                         "p": p_without, "ci_low": p_without, "ci_high": p_without, "n_trials": None,
                         "method": "exact"})
    summary = pd.DataFrame([{**IDENTITY, "mulligan_rule": "london", "mulligan_limit": 1, "keep": "Terrain>=1",
                             "p_keep_first": 0.7, "ci_low": 0.69, "ci_high": 0.71, "expected_mulligans": 0.3,
                             "n_trials": 1000, "method": "simulate"}])
    return MulliganResult(summary=summary, mulligans=pd.DataFrame(), kept_hand=pd.DataFrame(),
                          by_turn=pd.DataFrame(rows), provenance=dict(PROVENANCE))


HAND_BUILT = {
    "odds": (plots.plot_odds, odds_result),
    "when": (plots.plot_when, when_result),
    "ratio": (plots.plot_ratio, ratio_result),
    "deckout": (plots.plot_deckout, deckout_result),
    "mulligan": (plots.plot_mulligan, mulligan_result),
}


@pytest.mark.parametrize("name", sorted(HAND_BUILT))
def test_hand_built_results(name):
    plot, make = HAND_BUILT[name]
    ax = plot(make())
    assert_readable(ax)
    given_ax(plot, make())


def test_plot_when_hand_built_details():
    ax = plots.plot_when(when_result())
    assert "P(not by turn 4): first player 20.0%" in title_of(ax)
    assert "Dragon>=1" in title_of(ax)
    assert "first player: has held by this turn" in legend_texts(ax)


def test_plot_deckout_hand_built_details():
    ax = plots.plot_deckout(deckout_result())
    title = title_of(ax)
    assert "P(first player's deck runs out first) = 75.0% (95% interval 72.0% to 78.0%)" in title
    assert "at the same moment: 5.0%" in title
    assert "main.csv vs other.csv" in title
    assert "drought rule" not in title
    texts = legend_texts(ax)
    assert "first player: median turn 21, mean 21.0" in texts
    assert "95% interval (simulated)" in texts


def test_plot_mulligan_identical_seats_share_lines():
    ax = plots.plot_mulligan(mulligan_result(("first", "second")))
    assert len(ax.lines) == 2
    assert "both players (same odds)" in title_of(ax)
    # The rule's simulated line has a band; keeping every first hand is exact: none.
    assert len(ax.collections) == 1


def test_plot_ratio_hand_built_details():
    ax = plots.plot_ratio(ratio_result())
    texts = legend_texts(ax)
    assert "legal deck" in texts
    assert "illegal deck: breaks a construction rule" in texts
    assert "target: 90.0%" in texts
    assert any(t.startswith("recommended: 10 Terrain") for t in texts)
    assert not any("illegal" in t and "would reach" in t for t in texts)
    assert "your deck: 10 Terrain cards" in texts
    assert any("95% interval" in t for t in texts)
    assert "by turn 2" in title_of(ax)
    assert "40 cards" in title_of(ax)
    # Illegal counts are hollow.
    hollow = [line for line in ax.lines if line.get_markerfacecolor() in ("white", (1.0, 1.0, 1.0, 1.0))]
    assert hollow and sorted(hollow[0].get_xdata()) == [7, 8, 9]


def test_plot_ratio_without_target_or_recommendation():
    result = ratio_result(target=None, recommended=None, method="exact", target_turn=None)  # default: turn 0
    ax = plots.plot_ratio(result)
    assert_readable(ax)
    assert "in the kept opening hand" in title_of(ax)
    assert not any(t.startswith(("target", "recommended", "no recommendation")) for t in legend_texts(ax))
    assert not has_error_bars(ax)


def test_plot_ratio_says_why_there_is_no_recommendation():
    ax = plots.plot_ratio(ratio_result(target=0.999, recommended=None))
    assert "no recommendation: no legal count swept reaches the target" in legend_texts(ax)
    result = ratio_result(target=0.999, recommended=None)
    result.table.loc[result.table["resource_count"] >= 11, "target_status"] = "undecided"
    ax = plots.plot_ratio(result)
    assert any(t.startswith("no recommendation: undecided at 11, 12 Terrain") for t in legend_texts(ax))


def test_plot_ratio_names_a_missing_target_turn():
    with pytest.raises(deckstat.DeckstatError, match="target turn 9"):
        plots.plot_ratio(ratio_result(target_turn=9))


@pytest.mark.parametrize("seats", [("first",), ("first", "second")])
def test_plot_compare_hand_built(seats):
    frame = compare_table(seats)
    axes = plots.plot_compare(frame)
    assert isinstance(axes, np.ndarray) and len(axes) == 2
    assert_readable(axes[0])
    assert_readable(axes[1], probability=False)
    ax = given_ax(plots.plot_compare, frame)
    assert ax.collections, "a simulated difference carries its interval band"
    assert any(line.get_ydata()[0] == 0 and len(set(line.get_ydata())) == 1 for line in ax.lines), "zero line"
    assert any("main_v2.csv − main.csv" in t for t in legend_texts(ax))
    assert "deck B − deck A" in title_of(ax)


def test_plot_compare_several_decks_b():
    frame = pd.concat([compare_table(("first",)),
                       compare_table(("first",)).assign(deck_b="other.csv", p_b=lambda f: f["p_a"], diff=0.0,
                                                        diff_ci_low=-0.01, diff_ci_high=0.01)], ignore_index=True)
    top, bottom = plots.plot_compare(frame)
    assert_readable(top)
    assert_readable(bottom, probability=False)
    # Deck A once, then each deck B: three curves; one difference per deck B (plus the zero line).
    assert legend_texts(top) == ["deck A: main.csv", "deck B: main_v2.csv", "deck C: other.csv"]
    assert legend_texts(bottom)[:2] == ["main_v2.csv − main.csv", "other.csv − main.csv"]
    ax = given_ax(plots.plot_compare, frame)
    assert "each deck − deck A" in title_of(ax)


def test_plot_odds_band_only_when_simulated():
    assert plots.plot_odds(odds_result("simulate")).collections
    assert not plots.plot_odds(odds_result("exact")).collections


def test_plot_odds_hand_built_title():
    title = title_of(plots.plot_odds(odds_result("exact")))
    assert "main.csv · duel-masters · keeping every first hand · exact" in title


# --- refused inputs ------------------------------------------------------------------------------------------

NOT_ENOUGH = pd.DataFrame({"turn": [0], "seat": ["first"]})
EMPTY = {"summary": pd.DataFrame(), "provenance": {}}


@pytest.mark.parametrize("plot, data", [
    (plots.plot_odds, NOT_ENOUGH),
    (plots.plot_odds, OddsResult(table=NOT_ENOUGH, **EMPTY)),
    (plots.plot_compare, NOT_ENOUGH),
    (plots.plot_when, WhenResult(table=NOT_ENOUGH, **EMPTY)),
    (plots.plot_ratio, RatioResult(table=NOT_ENOUGH, **EMPTY)),
    (plots.plot_deckout, DeckoutResult(table=NOT_ENOUGH, **EMPTY)),
    (plots.plot_mulligan, MulliganResult(summary=pd.DataFrame(), mulligans=pd.DataFrame(),
                                         kept_hand=pd.DataFrame(), by_turn=NOT_ENOUGH, provenance={})),
], ids=["odds-table", "odds", "compare-table", "when", "ratio", "deckout", "mulligan"])
def test_missing_columns_are_named(plot, data):
    with pytest.raises(deckstat.DeckstatError, match="lacks the column"):
        plot(data)


@pytest.mark.parametrize("plot, make, expected", [
    (plots.plot_odds, when_result, "result_or_table must be an OddsResult"),
    (plots.plot_odds, lambda: [1, 2, 3], "result_or_table must be an OddsResult"),
    (plots.plot_compare, odds_result, "result_or_table must be a CompareResult"),
    (plots.plot_when, odds_result, "result must be a WhenResult"),
    (plots.plot_when, lambda: when_result().table, "result must be a WhenResult"),
    (plots.plot_ratio, lambda: ratio_result().table, "result must be a RatioResult"),
    (plots.plot_deckout, when_result, "result must be a DeckoutResult"),
    (plots.plot_mulligan, odds_table, "result must be a MulliganResult"),
])
def test_wrong_inputs_name_what_was_expected(plot, make, expected):
    with pytest.raises(deckstat.DeckstatError, match=expected):
        plot(make())


def test_rows_that_cannot_be_told_apart_are_refused(compare_results):
    # The same deck under two mulligan rules, joined: the table has no column telling the two apart.
    with pytest.raises(deckstat.DeckstatError, match="cannot be told apart"):
        plots.plot_odds(pd.concat([odds_table(), odds_table()], ignore_index=True))
    table = compare_results["exact"].table
    with pytest.raises(deckstat.DeckstatError, match="deck_b 'sample_deck_v2.csv'"):
        plots.plot_compare(pd.concat([table, table], ignore_index=True))


def test_bad_inputs():
    with pytest.raises(deckstat.DeckstatError, match="no rows"):
        plots.plot_odds(odds_table().iloc[0:0])
    with pytest.raises(deckstat.DeckstatError, match="no rows"):
        plots.plot_when(dataclasses.replace(when_result(), table=when_result().table.iloc[0:0]))
    with pytest.raises(deckstat.DeckstatError, match="Axes"):
        plots.plot_odds(odds_result(), ax="left")


# --- saving --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("suffix", [".png", ".svg", ".PNG"])
def test_save_writes_and_closes(tmp_path, suffix):
    ax = plots.plot_odds(odds_result())
    figure = ax.figure
    path = plots.save(ax, tmp_path / f"odds{suffix}")
    assert path.stat().st_size > 0
    assert not plt.fignum_exists(figure.number)
    head = path.read_bytes()[:200]
    assert head.startswith(b"\x89PNG") if suffix.lower() == ".png" else b"<svg" in path.read_bytes()[:2000]


def test_save_png_at_150_dpi(tmp_path):
    from PIL import Image

    path = plots.save(plots.plot_when(when_result()), tmp_path / "when.png")
    with Image.open(path) as image:
        assert image.info["dpi"] == pytest.approx((150, 150), abs=0.1)
        assert image.width > 1000  # 8 inches at 150 dpi, less the trimmed margins


def test_save_two_panel_array(tmp_path):
    axes = plots.plot_compare(compare_table())
    path = plots.save(axes, tmp_path / "compare.svg")
    assert path.stat().st_size > 0
    assert not plt.fignum_exists(axes[0].figure.number)


@pytest.mark.parametrize("name", ["odds.pdf", "odds.jpg", "odds"])
def test_save_refuses_other_extensions(tmp_path, name):
    ax = plots.plot_odds(odds_result())
    suffix = name.partition(".")[2]
    with pytest.raises(deckstat.DeckstatError, match=f"'.{suffix}'" if suffix else "without extension"):
        plots.save(ax, tmp_path / name)
    assert not (tmp_path / name).exists()


def test_save_refuses_what_is_not_a_figure(tmp_path):
    with pytest.raises(deckstat.DeckstatError, match="Figure or Axes"):
        plots.save("not a figure", tmp_path / "x.png")


# --- layering ------------------------------------------------------------------------------------------------

def test_package_does_not_import_matplotlib():
    # Every module but the plots package (and __main__, which runs the CLI) loads without matplotlib.
    code = """
import importlib, pathlib, sys
import deckstat
# Module names from the files: pkgutil.walk_packages would import the plots package to list its modules.
root = pathlib.Path(deckstat.__file__).parent
names = [".".join(path.relative_to(root.parent).with_suffix("").parts).removesuffix(".__init__")
         for path in sorted(root.rglob("*.py"))]
names = [n for n in names
         if n not in ("deckstat", "deckstat.__main__") and not n.startswith("deckstat.present.plots")]
for name in names:
    importlib.import_module(name)
assert "deckstat.cli" in names and "deckstat.present.report" in names and "deckstat.questions.odds" in names, names
loaded = sorted(m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib."))
print(len(names), loaded)
sys.exit(1 if loaded else 0)
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
