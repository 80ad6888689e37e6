"""Every figure, in English and in French, passes the readability checks; axes fit the data; numbers read as a player's.

The figures are drawn from real results on the sample decks (exact where the question allows, few trials
otherwise) and from hand-built results whose values are chosen to be hard to draw (curves near 100 %, a value on
the target line, a deck that always runs out on the same turn).
"""

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from figure_checks import check_figure, figure_problems  # noqa: E402
from helpers import DATA, ok, run, sample_deck  # noqa: E402

import deckstat  # noqa: E402
from deckstat.i18n import language, tr  # noqa: E402
from deckstat.present import plots  # noqa: E402
from deckstat.results import DeckoutResult, OddsResult, RatioResult  # noqa: E402

N_TRIALS = 500
LANGUAGES = ["en", "fr"]
NBSP = "\u00a0"


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def decks():
    return {"wankul": deckstat.load_deck(sample_deck("wankul")),
            "wankul_v2": deckstat.load_deck(sample_deck("wankul", "sample_deck_v2.csv")),
            "dm": deckstat.load_deck(sample_deck("duel-masters"))}


@pytest.fixture(scope="module")
def results(decks):
    """One result of each kind of figure, made once for the module."""
    wankul, v2, dm = decks["wankul"], decks["wankul_v2"], decks["dm"]
    batch_rows = []
    for task, (name, deck) in enumerate((("sample_deck", wankul), ("sample_deck_v2", v2))):
        table = deckstat.odds(deck, "wankul", "Terrain>=1", turns=range(4), seat="first").table
        batch_rows.append(table.assign(task_id=task, question="odds", deck=f"wankul/{name}"))
    return {
        "odds": (plots.plot_odds, deckstat.odds(wankul, "wankul", ["Terrain>=1", "Terrain>=1 and [cost<=1]>=1"])),
        "odds simulated": (plots.plot_odds, deckstat.odds(dm, "duel-masters", "[civilization=Feu]>=2",
                                                          turns=range(5), method="simulate", n_trials=N_TRIALS,
                                                          rng=1)),
        "odds one turn": (plots.plot_odds, deckstat.odds(dm, "duel-masters", "[shield_trigger=1]>=1",
                                                         zone="set_aside")),
        "when": (plots.plot_when, deckstat.when(wankul, "wankul", "Terrain>=2", max_turn=8)),
        "curve": (plots.plot_curve, deckstat.curve(dm, "duel-masters", groups="[cost>=3]", turns=range(1, 7),
                                                   method="simulate", n_trials=N_TRIALS, rng=2)),
        "ratio": (plots.plot_ratio, deckstat.ratio(wankul, "wankul", target=0.9)),
        "deckout over several turns": (plots.plot_deckout, deckstat.deckout(wankul, "wankul", n_trials=N_TRIALS,
                                                                            rng=3)),
        "deckout on one turn": (plots.plot_deckout, deckstat.deckout(dm, "duel-masters")),
        "compare": (plots.plot_compare, deckstat.compare([wankul, v2], "wankul", "Terrain>=1", method="exact")),
        "mulligan": (plots.plot_mulligan, deckstat.mulligan(wankul, "wankul")),
        "batch": (plots.plot_batch, pd.concat(batch_rows, ignore_index=True)),
    }


FIGURES = ["odds", "odds simulated", "odds one turn", "when", "curve", "ratio", "deckout over several turns",
           "deckout on one turn", "compare", "mulligan", "batch"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", FIGURES)
def test_every_figure_is_readable_in_both_languages(results, name, lang):
    plot, result = results[name]
    with language(lang):
        drawn = plot(result)
        check_figure(drawn)
        if name != "batch":  # drawn into an Axes of the caller's figure
            _, ax = plt.subplots(figsize=(8, 5), layout="constrained")
            check_figure(plot(result, ax=ax))


def tick_labels(ax, axis="y"):
    ax.figure.canvas.draw()
    labels = ax.get_yticklabels() if axis == "y" else ax.get_xticklabels()
    return [t.get_text() for t in labels if t.get_text()]


def test_french_figures_write_french_numbers_and_words(results):
    plot, result = results["odds simulated"]
    with language("fr"):
        ax = plot(result)
        labels = tick_labels(ax)
        assert ax.get_xlabel() == "Tour (0 = main de départ gardée)"
        assert "Probabilité" in ax.get_ylabel() and f"l'axe ne part pas de 0{NBSP}%" in ax.get_ylabel()
        assert "simulé, 500 parties" in ax.get_title()
        assert "premier joueur" in [t.get_text() for t in ax.get_legend().get_texts()]
    assert all(label.endswith(f"{NBSP}%") for label in labels), labels
    assert any("," in label for label in labels), labels  # 87,5 % and the like
    assert not any("." in label for label in labels), labels
    with language("en"):
        english = tick_labels(plot(result))
    assert all(label.endswith("%") and NBSP not in label for label in english), english


def flat_odds(values):
    """Hand-built exact odds: one event per value, the same probability on every turn."""
    rows = [{"deck": "main.csv", "game": "wankul", "event": f"Terrain>={k + 1}", "seat": "first", "turn": t,
             "zone": "seen", "p": p, "ci_low": p, "ci_high": p, "method": "exact"}
            for k, p in enumerate(values) for t in range(4)]
    return OddsResult(table=pd.DataFrame(rows), summary=pd.DataFrame(), provenance={"game": "wankul"})


def test_curves_near_100_percent_are_visibly_apart():
    # 97 % and 99 %: two points on a 0-100 % axis; the fitted axis puts a fifth of its height between them.
    ax = plots.plot_odds(flat_odds([0.97, 0.99]))
    check_figure(ax)
    bottom, top = ax.get_ylim()
    assert bottom > 0.9 and top == 1.0
    assert (0.99 - 0.97) / (top - bottom) >= 0.2
    assert tr(plots.AXIS_NOTE) in ax.get_ylabel()
    # The marker at 100 % is drawn whole, not cut by the frame.
    assert all(not line.get_clip_on() for line in ax.lines)


@pytest.mark.parametrize(("values", "limits"), [
    ([0.3, 0.9], (0.0, 1.0)),       # little to gain: 0-100 %
    ([0.6, 0.99], (0.5, 1.0)),      # more than a third of the axis would be empty below the data
    ([0.01, 0.02], (0.0, 0.06)),    # small probabilities: from 0 %, not up to 100 %
    ([0.5, 0.5], (0.0, 1.0)),       # a single value: its place on the whole axis
])
def test_probability_axes_fit_the_data(values, limits):
    bottom, top, step = plots.probability_limits(values)
    assert (bottom, top) == pytest.approx(limits)
    assert min(values) >= bottom and max(values) <= top
    assert round(bottom / step, 9).is_integer() and round(top / step, 9).is_integer()
    assert (top - bottom) / step <= 10


def test_the_axis_note_is_there_exactly_when_the_axis_does_not_start_at_0():
    low = plots.plot_odds(flat_odds([0.3, 0.9]))
    assert low.get_ylim()[0] == 0 and tr(plots.AXIS_NOTE) not in low.get_ylabel()
    high = plots.plot_odds(flat_odds([0.95, 0.99]))
    assert high.get_ylim()[0] > 0 and tr(plots.AXIS_NOTE) in high.get_ylabel()
    with language("fr"):
        assert f"l'axe ne part pas de 0{NBSP}%" in plots.plot_odds(flat_odds([0.95, 0.99])).get_ylabel()


def compare_table(diffs):
    rows = []
    for t, diff in enumerate(diffs):
        rows.append({"game": "wankul", "event": "Terrain>=1", "seat": "first", "turn": t, "zone": "seen",
                     "deck_a": "main.csv", "deck_b": "main_v2.csv", "p_a": 0.5, "p_b": 0.5 + diff, "diff": diff,
                     "diff_ci_low": diff, "diff_ci_high": diff, "method": "exact"})
    return pd.DataFrame(rows)


def test_the_difference_panel_is_in_percentage_points():
    # Differences up to 4 points: ticks every 2 points, signed, in points rather than percentages.
    top, bottom = plots.plot_compare(compare_table([0.04, 0.03, 0.02, -0.01]))
    check_figure(top.figure)
    labels = tick_labels(bottom)
    assert "+4 pp" in labels and "−2 pp" in labels and "0 pp" in labels
    assert not any("%" in label for label in labels)
    assert "(percentage points)" in bottom.get_ylabel()
    low, high = bottom.get_ylim()
    assert low == -high and high >= 0.04
    with language("fr"):
        _, bottom = plots.plot_compare(compare_table([0.012, 0.006, 0.0, -0.006]))
        labels = tick_labels(bottom)
    assert f"+0,5{NBSP}pts" in labels and f"0{NBSP}pts" in labels and f"−1,0{NBSP}pts" in labels, labels
    assert all(label.endswith(f"{NBSP}pts") for label in labels), labels


def ratio_on_the_target(target=0.9):
    """Hand-built sweep whose count 10 lands exactly on the target and whose neighbours crowd it."""
    rows = []
    for k, p in zip(range(7, 14), (0.86, 0.875, 0.89, target, 0.905, 0.91, 0.912)):
        rows.append({"deck": "main.csv", "game": "wankul", "event": "Terrain>=1", "seat": "first",
                     "resource_count": k, "turn": 0, "p": p, "ci_low": p, "ci_high": p, "method": "exact",
                     "legal": k >= 10, "target_status": "reached" if p >= target else "not reached"})
    summary = pd.DataFrame([{"event": "Terrain>=1", "seat": "first", "group": "Terrain", "current_count": 10,
                             "target": target, "target_turn": 0, "recommended": 10, "smallest_reaching": 10,
                             "smallest_reaching_legal": True}])
    return RatioResult(table=pd.DataFrame(rows), summary=summary,
                       provenance={"game": "wankul", "deck_size": 50, "zone": "seen"})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_ratio_value_labels_avoid_each_other_the_points_and_the_target_line(lang):
    with language(lang):
        ax = plots.plot_ratio(ratio_on_the_target())
        check_figure(ax)
        renderer = ax.figure.canvas.get_renderer()
        target_y = ax.transData.transform((0, 0.9))[1]
        boxes = [t.get_window_extent(renderer) for t in ax.texts]
        assert len(boxes) >= 4, "most points keep their value"
        for box in boxes:
            assert not box.y0 - 1 <= target_y <= box.y1 + 1, "a value label crosses the target line"
        points = ax.transData.transform(np.column_stack([range(7, 14), [0.86, 0.875, 0.89, 0.9, 0.905, 0.91,
                                                                        0.912]]))
        for box in boxes:
            assert not any(box.contains(x, y) for x, y in points), "a value label covers a point"


def deckout(turn_share):
    """Hand-built deck-out: both seats run out on turn 46 in ``turn_share`` of the games, else on turn 47."""
    rows, summary = [], []
    for seat in ("first", "second"):
        shares = [(46, turn_share)] + ([(47, 1 - turn_share)] if turn_share < 1 else [])
        cdf = 0.0
        for turn, p in shares:
            cdf += p
            rows.append({"seat": seat, "turn": turn, "p": p, "ci_low": p, "ci_high": p, "cdf": cdf, "cdf_low": cdf,
                         "cdf_high": cdf, "method": "exact", "deck": "main.csv", "opponent": "main.csv"})
        summary.append({"seat": seat, "median_turn": 46, "mean_turn": 46 + (1 - turn_share), "earliest_turn": 46,
                        "latest_turn": shares[-1][0], "p_runs_out_first": 1.0 if seat == "first" else None,
                        "method": "exact", "deck": "main.csv", "opponent": "main.csv"})
    return DeckoutResult(table=pd.DataFrame(rows), summary=pd.DataFrame(summary), provenance={"game": "wankul"})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_deckout_on_one_turn_is_a_sentence_not_a_wall(lang):
    with language(lang):
        ax = plots.plot_deckout(deckout(1.0))
        check_figure(ax)
        text = " ".join(t.get_text() for t in ax.texts)
    assert not ax.patches and not ax.lines
    expected = {"en": "first player: the deck always runs out on turn 46",
                "fr": f"premier joueur{NBSP}: le deck est toujours vide au tour 46"}[lang]
    assert expected in re.sub("[ \n]+", " ", text)


def test_a_deckout_nearly_on_one_turn_says_how_often():
    # 99.5 % of the games on turn 46: still a sentence, with the share and the other turn.
    ax = plots.plot_deckout(deckout(0.995))
    text = re.sub("[ \n]+", " ", " ".join(t.get_text() for t in ax.texts))
    assert "the deck runs out on turn 46 in 99.5% of games (otherwise on turn 47)" in text
    # 98 %: below NEARLY_ONE_TURN, a curve of P(run out by turn t).
    ax = plots.plot_deckout(deckout(0.98))
    check_figure(ax)
    assert ax.lines and not ax.texts
    assert ax.get_ylabel() == "P(deck has run out by turn t)"
    assert list(ax.lines[0].get_ydata()) == pytest.approx([0.0, 0.98, 1.0])


# --- the command line's --plot ------------------------------------------------------------------------------

WANKUL = sample_deck("wankul")
PLOTTING = {
    "odds": ["odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1"],
    "when": ["when", WANKUL, "--game", "wankul", "--event", "Terrain>=2"],
    "curve": ["curve", WANKUL, "--game", "wankul", "--group", "[coût>=2]", "--turns", "1-5", "--trials", "500"],
    "mulligan": ["mulligan", WANKUL, "--game", "wankul"],
    "ratio": ["ratio", WANKUL, "--game", "wankul", "--range", "8-12"],
    "deckout": ["deckout", WANKUL, "--game", "wankul", "--trials", "500"],
    "deckout on one turn": ["deckout", sample_deck("duel-masters"), "--game", "duel-masters"],
    "compare": ["compare", WANKUL, sample_deck("wankul", "sample_deck_v2.csv"), "--game", "wankul", "--event",
                "Terrain>=1"],
}


@pytest.fixture
def checked_saves(monkeypatch):
    """Run check_figure on every figure the command line saves; return the files saved."""
    saved = []
    real_save = plots.save

    def save(figure_or_ax, path):
        check_figure(figure_or_ax)
        saved.append(path)
        return real_save(figure_or_ax, path)

    monkeypatch.setattr(plots, "save", save)
    return saved


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(PLOTTING))
def test_command_line_plots_are_readable(tmp_path, checked_saves, name, lang):
    path = tmp_path / "figure.png"
    ok(run(*PLOTTING[name], "--plot", path, "--lang", lang))
    assert checked_saves == [path] and path.stat().st_size > 1000


def test_batch_plots_are_readable(tmp_path, checked_saves):
    spec = tmp_path / "spec.toml"
    spec.write_text(f"""
seed = 1
trials = 500
[decks.w]
path = "{(DATA / 'wankul' / 'sample_deck.csv').as_posix()}"
game = "wankul"
[[questions]]
question = "odds"
event = "Terrain>=1"
turns = "0-3"
[questions.sweep]
seat = ["first", "second"]
[[questions]]
question = "when"
event = "Terrain>=2"
max_turn = 4
""", encoding="utf-8")
    ok(run("batch", spec, "--out", tmp_path / "out", "--workers", "1", "--quiet", "--plots"))
    assert len(checked_saves) == 2


def test_the_checks_find_what_they_look_for():
    # A figure with every fault: the checks name each one.
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 5], [0.5, 1.5], marker="o", label="line")
    ax.set_ylim(0.2, 1.0)
    ax.yaxis.set_major_formatter(plots.ProbabilityFormatter())
    ax.text(0.5, 0.5, "one text", transform=ax.transAxes)
    ax.text(0.5, 0.5, "another text", transform=ax.transAxes)
    ax.text(2.0, 2.0, "far away", transform=ax.transAxes)
    problems = "\n".join(figure_problems(fig))
    assert "y outside" in problems
    assert "texts overlap: 'one text' and 'another text'" in problems
    assert "'far away' outside the figure" in problems
    assert "without saying so" in problems


@pytest.mark.parametrize("lang", LANGUAGES)
def test_batch_legends_name_seats_and_rules_in_the_language(decks, lang):
    rows = []
    for task, (seat, rule) in enumerate((s, r) for s in ("first", "second") for r in ("bottom", "london")):
        table = deckstat.odds(decks["wankul"], "wankul", "Terrain>=1", turns=range(3), seat=seat, mulligan_rule=rule,
                              n_trials=N_TRIALS, rng=task).table
        rows.append(table.assign(task_id=task, question="odds", deck="wankul/sample_deck", mulligan_rule=rule))
    with language(lang):
        ax = plots.plot_batch(pd.concat(rows, ignore_index=True))
        check_figure(ax)
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        title = ax.get_title()
    if lang == "fr":
        assert labels[:4] == ["premier joueur, mulligan sous le deck", "premier joueur, mulligan de Londres",
                              "second joueur, mulligan sous le deck", "second joueur, mulligan de Londres"]
        words = set(re.findall(r"[A-Za-z_]+", " ".join(labels) + " " + title))
        assert not {"first", "player", "game", "seat", "mulligan_rule"} & words, words
    else:
        assert labels[:4] == ["first player, bottom mulligan", "first player, London mulligan",
                              "second player, bottom mulligan", "second player, London mulligan"]
    assert title.splitlines()[1].startswith("wankul/sample_deck · wankul · ")  # no "deck=", "game="
