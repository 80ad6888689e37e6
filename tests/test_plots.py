"""Figures: every plot draws real API results and hand-built frames readably; save writes PNG and SVG."""

import matplotlib

matplotlib.use("Agg")

import subprocess  # noqa: E402
import sys  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402

import deckstat  # noqa: E402
from deckstat import plots  # noqa: E402
from deckstat.api import MulliganReport  # noqa: E402

N_TRIALS = 1000


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def wankul():
    return deckstat.load_deck("data/wankul/sample_deck.csv")


@pytest.fixture(scope="module")
def wankul_v2():
    return deckstat.load_deck("data/wankul/sample_deck_v2.csv")


@pytest.fixture(scope="module")
def dm():
    return deckstat.load_deck("data/duel-masters/sample_deck.csv")


def legend_texts(ax):
    legend = ax.get_legend()
    return [t.get_text() for t in legend.get_texts()] if legend is not None else []


def assert_readable(ax, probability=True):
    """A player can read it: something drawn, a title, labelled axes, a legend, 0-100 % when a probability."""
    assert isinstance(ax, Axes)
    assert ax.lines or ax.patches or ax.collections, "nothing drawn"
    assert ax.get_title().strip(), "no title"
    assert ax.get_xlabel().strip(), "no x label"
    assert ax.get_ylabel().strip(), "no y label"
    assert legend_texts(ax), "no legend"
    if probability:
        assert ax.get_ylim() == pytest.approx((0.0, 1.0))
        assert isinstance(ax.yaxis.get_major_formatter(), matplotlib.ticker.PercentFormatter)


def given_ax(plot, data):
    """Draw into an existing Axes: the same Axes comes back, with something drawn in it."""
    fig, ax = plt.subplots()
    assert plot(data, ax=ax) is ax
    assert ax.figure is fig
    assert_readable(ax, probability=plot is not plots.plot_compare)
    return ax


# --- real API results ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def odds_results(wankul, dm):
    exact = pd.concat([deckstat.odds(wankul, "wankul", "Terrain>=1"),
                       deckstat.odds(wankul, "wankul", "Terrain>=1 and [cost<=1]>=1")], ignore_index=True)
    simulated = deckstat.odds(dm, "duel-masters", "[civilization=Feu]>=2", turns=range(5), method="simulate",
                              n_trials=N_TRIALS, rng=1)
    hand = deckstat.odds(dm, "duel-masters", "[shield_trigger=1]>=1", zone="set_aside")
    return {"exact": exact, "simulated": simulated, "hand": hand}


@pytest.mark.parametrize("kind", ["exact", "simulated", "hand"])
def test_plot_odds_real(odds_results, kind):
    frame = odds_results[kind]
    ax = plots.plot_odds(frame)
    assert_readable(ax)
    given_ax(plots.plot_odds, frame)
    if kind == "simulated":
        assert ax.collections, "simulated odds need their interval band"
        assert any("95%" in t for t in legend_texts(ax))
    else:
        assert not ax.collections


def test_plot_odds_identical_seats_share_one_line(odds_results):
    # Wankul's seats both draw on turn 1: identical odds, one line per event rather than one hidden under another.
    ax = plots.plot_odds(odds_results["exact"])
    assert len(ax.lines) == 2
    assert all("Terrain>=1" in t for t in legend_texts(ax))


def test_plot_odds_seats_that_differ_get_their_own_styles(odds_results):
    ax = plots.plot_odds(odds_results["simulated"])
    assert len(ax.lines) == 2
    assert {line.get_linestyle() for line in ax.lines} == {"-", "--"}
    assert {"first player", "second player"} <= set(legend_texts(ax))


def test_plot_odds_one_line_per_deck(wankul, wankul_v2):
    frames = []
    for deck in (wankul, wankul_v2):
        frame = deckstat.odds(deck, "wankul", "Terrain>=1", seat="first")
        frames.append(frame.assign(deck=frame.attrs["deck"]))
    ax = plots.plot_odds(pd.concat(frames, ignore_index=True))
    assert_readable(ax)
    assert len(ax.lines) == 2
    assert set(legend_texts(ax)) == {"sample_deck.csv", "sample_deck_v2.csv"}


@pytest.fixture(scope="module")
def when_results(wankul, dm):
    return {"exact": deckstat.when(wankul, "wankul", "Terrain>=2", max_turn=8),
            "simulated": deckstat.when(dm, "duel-masters", "[civilization=Feu]>=2", max_turn=6, method="simulate",
                                       n_trials=N_TRIALS, rng=2)}


@pytest.mark.parametrize("kind", ["exact", "simulated"])
def test_plot_when_real(when_results, kind):
    frame = when_results[kind]
    ax = plots.plot_when(frame)
    assert_readable(ax)
    given_ax(plots.plot_when, frame)
    max_turn = frame.attrs["summary"]["first"]["max_turn"]
    assert f"not by turn {max_turn}" in ax.get_title()
    assert ax.patches, "the first-turn distribution is drawn as bars"
    assert ax.lines, "the cumulative probability is drawn as a line"


@pytest.fixture(scope="module")
def ratio_results(wankul):
    return {"exact": deckstat.ratio(wankul, "wankul", counts=range(8, 13), target=0.95),
            "simulated": deckstat.ratio(wankul, "wankul", counts=[9, 10, 11], target=0.97, method="simulate",
                                        n_trials=N_TRIALS, rng=3)}


@pytest.mark.parametrize("kind", ["exact", "simulated"])
def test_plot_ratio_real(ratio_results, kind):
    frame = ratio_results[kind]
    ax = plots.plot_ratio(frame)
    assert_readable(ax)
    given_ax(plots.plot_ratio, frame)
    texts = legend_texts(ax)
    assert any(t.startswith("illegal deck") for t in texts)
    assert any(t.startswith("target") for t in texts)
    assert f"by turn {frame.attrs['target_turn']}" in ax.get_title()


def test_plot_ratio_marks_the_recommendation(ratio_results):
    frame = ratio_results["exact"]
    ax = plots.plot_ratio(frame)
    recommended = frame.attrs["recommended"]
    assert recommended is not None
    verticals = [line for line in ax.lines if len(set(np.atleast_1d(line.get_xdata()))) == 1
                 and len(np.atleast_1d(line.get_xdata())) == 2]
    assert any(float(np.atleast_1d(v.get_xdata())[0]) == recommended for v in verticals)
    assert any(f"recommended: {recommended}" in t for t in legend_texts(ax))


@pytest.fixture(scope="module")
def deckout_results(wankul, dm):
    return {"wankul": deckstat.deckout(wankul, "wankul", terrain_turns=3, n_trials=2000, rng=1),
            "duel-masters": deckstat.deckout(dm, "duel-masters")}


@pytest.mark.parametrize("game", ["wankul", "duel-masters"])
def test_plot_deckout_real(deckout_results, game):
    frame = deckout_results[game]
    ax = plots.plot_deckout(frame)
    assert_readable(ax)
    given_ax(plots.plot_deckout, frame)
    assert "P(first player runs out first)" in ax.get_title()
    assert len(ax.patches) >= len(frame)


def test_plot_deckout_single_turns_are_centred(deckout_results):
    # Duel Masters without effects: each seat runs out on one known turn; its bar sits on that turn.
    frame = deckout_results["duel-masters"]
    ax = plots.plot_deckout(frame)
    centres = sorted(p.get_x() + p.get_width() / 2 for p in ax.patches)
    assert centres == pytest.approx(sorted(frame["turn"]))
    assert "P(first player runs out first) = 0%" in ax.get_title()


@pytest.fixture(scope="module")
def mulligan_results(wankul):
    return {"exact": deckstat.mulligan(wankul, "wankul"),
            "simulated": deckstat.mulligan(wankul, "wankul", mulligan_rule="london", seat="both",
                                           n_trials=N_TRIALS, rng=4)}


@pytest.mark.parametrize("kind", ["exact", "simulated"])
def test_plot_mulligan_real(mulligan_results, kind):
    report = mulligan_results[kind]
    ax = plots.plot_mulligan(report)
    assert_readable(ax)
    given_ax(plots.plot_mulligan, report)
    texts = legend_texts(ax)
    assert any("mulligan" in t for t in texts) and any("keeping every first hand" in t for t in texts)
    assert bool(ax.collections) == (kind == "simulated")


def compare_from_odds(deck_a, deck_b):
    """A comparison frame in the expected schema from two exact odds results."""
    a = deckstat.odds(deck_a, "wankul", "Terrain>=1")
    b = deckstat.odds(deck_b, "wankul", "Terrain>=1")
    frame = a[["turn", "seat", "event"]].copy()
    frame["deck_a"], frame["deck_b"] = a.attrs["deck"], b.attrs["deck"]
    frame["p_a"], frame["p_b"] = a["p"], b["p"].to_numpy()
    frame["diff"] = frame["p_b"] - frame["p_a"]
    frame["diff_ci_low"] = frame["diff_ci_high"] = frame["diff"]
    frame["p_value"] = np.nan
    frame["method"] = "exact"
    return frame


def test_plot_compare_real(wankul, wankul_v2):
    frame = compare_from_odds(wankul, wankul_v2)
    axes = plots.plot_compare(frame)
    assert isinstance(axes, np.ndarray) and axes.shape == (2,)
    top, bottom = axes
    assert_readable(top)
    assert_readable(bottom, probability=False)
    assert top.figure is bottom.figure
    ax = given_ax(plots.plot_compare, frame)
    assert "sample_deck_v2.csv − sample_deck.csv" in legend_texts(ax)


# --- hand-built frames ---------------------------------------------------------------------------------------

def odds_frame(method="simulate"):
    turns = np.arange(5)
    rows = []
    for seat, shift in (("first", 0.0), ("second", 0.05)):
        for t in turns:
            p = min(0.5 + 0.1 * t + shift, 1.0)
            rows.append({"turn": t, "seat": seat, "zone": "seen", "event": "Dragon>=1", "p": p,
                         "ci_low": max(p - 0.03, 0), "ci_high": min(p + 0.03, 1), "n_trials": 500,
                         "method": method, "zone_size": 5 + t})
    return pd.DataFrame(rows)


def when_frame():
    pmf = np.array([0.3, 0.2, 0.15, 0.1, 0.05])
    cdf = np.cumsum(pmf)
    frame = pd.DataFrame({"seat": "first", "turn": np.arange(5), "pmf": pmf, "cdf": cdf, "pmf_low": pmf - 0.02,
                          "pmf_high": pmf + 0.02, "cdf_low": cdf - 0.02, "cdf_high": cdf + 0.02,
                          "method": "simulate"})
    frame.attrs["summary"] = {"first": {"mean": 1.3, "median": 1, "p_never": 0.2, "max_turn": 4}}
    frame.attrs["event"] = "Dragon>=1"
    return frame


def ratio_frame(target=0.9, recommended=10, method="simulate"):
    rows = []
    for k in range(7, 13):
        for t in range(4):
            p = min(0.55 + 0.04 * k + 0.02 * t, 0.99)
            rows.append({"resource_count": k, "turn": t, "seat": "first", "event": "Terrain>=1", "p": p,
                         "ci_low": p - 0.01, "ci_high": min(p + 0.01, 1.0), "method": method, "legal": k >= 10})
    frame = pd.DataFrame(rows)
    frame.attrs.update({"target": target, "target_turn": 2, "recommended": recommended, "group": "Terrain"})
    return frame


def deckout_frame():
    rows = []
    for seat, base in (("first", 20), ("second", 21)):
        for t, p in zip(range(base, base + 3), (0.25, 0.5, 0.25)):
            rows.append({"seat": seat, "turn": t, "p": p, "cdf": np.nan, "ci_low": p - 0.02, "ci_high": p + 0.02,
                         "n_trials": 1000, "method": "simulate"})
    frame = pd.DataFrame(rows)
    frame.attrs.update({"p_first_runs_out_first": 0.75, "p_first_ci": (0.72, 0.78),
                        "summary": {"first": {"mean": 21.0, "median": 21, "earliest": 20, "latest": 22},
                                    "second": {"mean": 22.0, "median": 22, "earliest": 21, "latest": 23}}})
    return frame


def compare_frame(seats=("first", "second")):
    rows = []
    for seat in seats:
        for t in range(6):
            p_a = 0.6 + 0.05 * t
            p_b = p_a + 0.04 - 0.005 * t
            diff = p_b - p_a
            rows.append({"turn": t, "seat": seat, "event": "Terrain>=1", "deck_a": "decks/old/main.csv",
                         "deck_b": "decks/new/main_v2.csv", "p_a": p_a, "p_b": p_b, "diff": diff,
                         "diff_ci_low": diff - 0.02, "diff_ci_high": diff + 0.02, "p_value": 0.03,
                         "method": "simulate"})
    return pd.DataFrame(rows)


def mulligan_report():
    turns = np.arange(5)
    p_with = np.array([0.9, 0.92, 0.94, 0.96, 0.97])
    p_without = np.array([0.7, 0.75, 0.8, 0.84, 0.88])
    by_turn = pd.DataFrame({"turn": turns, "seat": "first", "event": "Terrain>=1", "p_with": p_with,
                            "p_with_low": p_with - 0.01, "p_with_high": p_with + 0.01, "p_without": p_without,
                            "p_without_low": p_without, "p_without_high": p_without, "method": "simulate"})
    summary = pd.DataFrame([{"rule": "london", "limit": 1, "keep": "Terrain>=1", "p_keep_first": 0.7,
                             "ci_low": 0.69, "ci_high": 0.71, "expected_mulligans": 0.3, "n_trials": 1000,
                             "method": "simulate"}])
    return MulliganReport(summary, pd.DataFrame(), pd.DataFrame(), by_turn)


HAND_BUILT = {
    "odds": (plots.plot_odds, odds_frame),
    "when": (plots.plot_when, when_frame),
    "ratio": (plots.plot_ratio, ratio_frame),
    "deckout": (plots.plot_deckout, deckout_frame),
    "mulligan": (plots.plot_mulligan, mulligan_report),
}


@pytest.mark.parametrize("name", sorted(HAND_BUILT))
def test_hand_built_frames(name):
    plot, make = HAND_BUILT[name]
    ax = plot(make())
    assert_readable(ax)
    given_ax(plot, make())


def test_plot_ratio_hand_built_details():
    ax = plots.plot_ratio(ratio_frame())
    texts = legend_texts(ax)
    assert "legal deck" in texts
    assert "illegal deck: breaks a construction rule" in texts
    assert "target: 90.0%" in texts
    assert any(t.startswith("recommended: 10 Terrain") for t in texts)
    assert any("95% interval" in t for t in texts)
    assert "by turn 2" in ax.get_title()
    # Illegal counts are hollow.
    hollow = [line for line in ax.lines if line.get_markerfacecolor() in ("white", (1.0, 1.0, 1.0, 1.0))]
    assert hollow and sorted(hollow[0].get_xdata()) == [7, 8, 9]


def test_plot_ratio_without_target_or_recommendation():
    frame = ratio_frame(target=None, recommended=None, method="exact")
    frame.attrs["target_turn"] = None  # default: the last turn
    ax = plots.plot_ratio(frame)
    assert_readable(ax)
    assert "by turn 3" in ax.get_title()
    assert not any(t.startswith(("target", "recommended")) for t in legend_texts(ax))


def test_plot_ratio_names_a_missing_target_turn():
    frame = ratio_frame()
    frame.attrs["target_turn"] = 9
    with pytest.raises(deckstat.DeckstatError, match="target turn 9"):
        plots.plot_ratio(frame)


@pytest.mark.parametrize("seats", [("first",), ("first", "second")])
def test_plot_compare_hand_built(seats):
    frame = compare_frame(seats)
    axes = plots.plot_compare(frame)
    assert isinstance(axes, np.ndarray) and len(axes) == 2
    assert_readable(axes[0])
    assert_readable(axes[1], probability=False)
    ax = given_ax(plots.plot_compare, frame)
    assert ax.collections, "a simulated difference carries its interval band"
    assert any(line.get_ydata()[0] == 0 and len(set(line.get_ydata())) == 1 for line in ax.lines), "zero line"
    assert any("main_v2.csv − main.csv" in t for t in legend_texts(ax))
    assert "deck B − deck A" in ax.get_title()


def test_plot_compare_several_decks_b():
    frame = pd.concat([compare_frame(("first",)),
                       compare_frame(("first",)).assign(deck_b="decks/new/other.csv",
                                                        p_b=lambda f: f["p_a"], diff=0.0, diff_ci_low=-0.01,
                                                        diff_ci_high=0.01)], ignore_index=True)
    top, bottom = plots.plot_compare(frame)
    assert_readable(top)
    assert_readable(bottom, probability=False)
    # Deck A once, then each deck B: three curves; one difference per deck B (plus the zero line).
    assert legend_texts(top) == ["deck A: main.csv", "deck B: main_v2.csv", "deck C: other.csv"]
    assert legend_texts(bottom)[:2] == ["main_v2.csv − main.csv", "other.csv − main.csv"]
    ax = given_ax(plots.plot_compare, frame)
    assert "each deck − deck A" in ax.get_title()


@pytest.mark.skipif(not hasattr(deckstat, "compare"), reason="deckstat.compare is not there yet")
def test_plot_compare_api_result(wankul, wankul_v2):
    frame = deckstat.compare([wankul, wankul_v2], "wankul", "Terrain>=1", method="simulate", n_trials=N_TRIALS,
                             rng=5)
    axes = plots.plot_compare(frame)
    assert_readable(axes[0])
    assert_readable(axes[1], probability=False)
    ax = given_ax(plots.plot_compare, frame)
    assert ax.collections
    assert "sample_deck_v2.csv − sample_deck.csv" in legend_texts(ax)


def test_plot_odds_band_only_when_simulated():
    assert plots.plot_odds(odds_frame("simulate")).collections
    assert not plots.plot_odds(odds_frame("exact")).collections


@pytest.mark.parametrize("plot", [plots.plot_odds, plots.plot_when, plots.plot_ratio, plots.plot_deckout,
                                  plots.plot_compare])
def test_missing_columns_are_named(plot):
    with pytest.raises(deckstat.DeckstatError, match="lacks the column"):
        plot(pd.DataFrame({"turn": [0], "seat": ["first"]}))


def test_bad_inputs():
    with pytest.raises(deckstat.DeckstatError, match="DataFrame"):
        plots.plot_odds([1, 2, 3])
    with pytest.raises(deckstat.DeckstatError, match="no rows"):
        plots.plot_odds(odds_frame().iloc[0:0])
    with pytest.raises(deckstat.DeckstatError, match="MulliganReport"):
        plots.plot_mulligan(odds_frame())
    with pytest.raises(deckstat.DeckstatError, match="Axes"):
        plots.plot_odds(odds_frame(), ax="left")


# --- saving --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("suffix", [".png", ".svg", ".PNG"])
def test_save_writes_and_closes(tmp_path, suffix):
    ax = plots.plot_odds(odds_frame())
    figure = ax.figure
    path = plots.save(ax, tmp_path / f"odds{suffix}")
    assert path.stat().st_size > 0
    assert not plt.fignum_exists(figure.number)
    head = path.read_bytes()[:200]
    assert head.startswith(b"\x89PNG") if suffix.lower() == ".png" else b"<svg" in path.read_bytes()[:2000]


def test_save_png_at_150_dpi(tmp_path):
    from PIL import Image

    path = plots.save(plots.plot_when(when_frame()), tmp_path / "when.png")
    with Image.open(path) as image:
        assert image.info["dpi"] == pytest.approx((150, 150), abs=0.1)
        assert image.width > 1000  # 8 inches at 150 dpi, less the trimmed margins


def test_save_two_panel_array(tmp_path):
    axes = plots.plot_compare(compare_frame())
    path = plots.save(axes, tmp_path / "compare.svg")
    assert path.stat().st_size > 0
    assert not plt.fignum_exists(axes[0].figure.number)


@pytest.mark.parametrize("name", ["odds.pdf", "odds.jpg", "odds"])
def test_save_refuses_other_extensions(tmp_path, name):
    ax = plots.plot_odds(odds_frame())
    suffix = name.partition(".")[2]
    with pytest.raises(deckstat.DeckstatError, match=f"'.{suffix}'" if suffix else "without extension"):
        plots.save(ax, tmp_path / name)
    assert not (tmp_path / name).exists()


def test_save_refuses_what_is_not_a_figure(tmp_path):
    with pytest.raises(deckstat.DeckstatError, match="Figure or Axes"):
        plots.save("not a figure", tmp_path / "x.png")


# --- layering ------------------------------------------------------------------------------------------------

def test_package_does_not_import_matplotlib():
    # Every module but plots (and __main__, which runs the CLI) loads without matplotlib.
    code = """
import importlib, pkgutil, sys
import deckstat
names = [m.name for m in pkgutil.walk_packages(deckstat.__path__, "deckstat.")
         if m.name not in ("deckstat.plots", "deckstat.__main__")]
for name in names:
    importlib.import_module(name)
assert "deckstat.cli" in names and "deckstat.api" in names, names
loaded = sorted(m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib."))
print(len(names), loaded)
sys.exit(1 if loaded else 0)
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
