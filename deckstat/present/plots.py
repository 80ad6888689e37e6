"""Figures of deckstat results, for players.

Every function here only draws: it receives a result made by the API
(:class:`~deckstat.results.OddsResult`, :class:`~deckstat.results.WhenResult`,
:class:`~deckstat.results.RatioResult`, :class:`~deckstat.results.DeckoutResult`,
:class:`~deckstat.results.CompareResult` or
:class:`~deckstat.results.MulliganResult`; odds and comparisons also as a bare
table, e.g. several results' tables joined with ``pd.concat``), computes
nothing statistical, and returns the matplotlib Axes it drew on. Names, rules
and counts come from the tables' columns and the result's ``provenance``; a
bare table's ``attrs`` stand in for the provenance. Pass ``ax`` to draw into
an existing figure; without it a new figure is created. :func:`save` writes a
figure to PNG or SVG and closes it.

This is the only module of deckstat that imports matplotlib, and the rest
of the package imports it only inside the functions that draw (the CLI's
``--plot``, reports): ``import deckstat`` does not load matplotlib.

Conventions shared by every figure: probabilities on a 0–100 % axis, turns as
whole numbers, colours from the colour-blind-safe ``tab10`` palette, the first
and second player told apart by line style and marker as well as colour (and
drawn as one line when their results are identical, so that neither hides the
other). Shaded bands and error bars are 95% intervals of simulated results;
exact results have none.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> import deckstat
>>> from deckstat.present import plots
>>> deck = deckstat.load_deck(DATA / "wankul" / "sample_deck.csv")
>>> ax = plots.plot_odds(deckstat.odds(deck, "wankul", "Terrain>=1"))
>>> print(ax.get_title())
P(Terrain>=1) among the cards seen by turn, both players (same odds)
sample_deck.csv · wankul · bottom mulligan, keep if Terrain>=1 · exact
>>> with tempfile.TemporaryDirectory() as folder:
...     print(plots.save(ax, Path(folder) / "terrain.png").name)
terrain.png
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from pathlib import Path, PurePath

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator, MultipleLocator, PercentFormatter

from deckstat.errors import DeckstatError
from deckstat.present.format import format_probability, ratio_where
from deckstat.results import (
    CompareResult,
    CurveResult,
    DeckoutResult,
    MulliganResult,
    OddsResult,
    RatioResult,
    WhenResult,
)

__all__ = ["plot_batch", "plot_compare", "plot_curve", "plot_deckout", "plot_mulligan", "plot_odds", "plot_ratio",
           "plot_when", "save"]

COLORS = tuple(matplotlib.colormaps["tab10"].colors)
SEAT_STYLES = {"first": ("-", "o"), "second": ("--", "s"), "both": ("-", "o")}
OTHER_STYLES = (("-.", "^"), (":", "D"), ("-", "v"))
ZONE_WORDS = {"seen": "among the cards seen", "hand": "in the kept opening hand",
              "set_aside": "among the set-aside cards", "bottom": "among the cards put under the deck"}
INTERVAL_LABEL = "95% interval (simulated)"
TURN_LABEL = "Turn (0 = kept opening hand)"
SAVE_FORMATS = {".png": "png", ".svg": "svg"}
TITLE_WIDTH = 80


# --- shared helpers -------------------------------------------------------------------------------------------

def _axes(ax: Axes | None, figsize: tuple[float, float] = (8.0, 5.0)) -> Axes:
    """``ax``, or the Axes of a new figure."""
    if ax is None:
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    elif not isinstance(ax, Axes):
        raise DeckstatError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}")
    return ax


def _check(frame: object, columns: Iterable[str], what: str) -> pd.DataFrame:
    """Refuse anything but a non-empty DataFrame with ``columns``, naming what is missing."""
    if not isinstance(frame, pd.DataFrame):
        raise DeckstatError(f"{what} must be a pandas DataFrame, got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise DeckstatError(f"{what} lacks the column(s) {', '.join(missing)}; "
                            f"it has {', '.join(map(str, frame.columns))}")
    if frame.empty:
        raise DeckstatError(f"{what} has no rows: nothing to draw")
    return frame


def _probability_axis(ax: Axes, label: str = "Probability") -> None:
    """Y axis from 0 to 100 %."""
    ax.set_ylim(0.0, 1.0)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_ylabel(label)
    ax.grid(True, axis="y", alpha=0.3)


def _turn_axis(ax: Axes, turns: np.ndarray, label: str = TURN_LABEL, pad: float = 0.5) -> None:
    """X axis of whole turns (every turn ticked up to 20 of them) around ``turns``."""
    turns = turns[np.isfinite(turns)]
    if turns.size and turns.max() - turns.min() + 2 * pad <= 21:
        ax.xaxis.set_major_locator(MultipleLocator(1))
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if turns.size:
        ax.set_xlim(turns.min() - pad, turns.max() + pad)
    ax.set_xlabel(label)


def _title(ax: Axes, main: str, detail: str | None = None) -> None:
    """A wrapped title, with a smaller second line of details."""
    text = "\n".join(textwrap.fill(line, TITLE_WIDTH) for line in main.split("\n"))
    if detail:
        text += "\n" + "\n".join(textwrap.fill(line, TITLE_WIDTH + 15) for line in detail.split("\n"))
    ax.set_title(text, fontsize=11)


def _name(path: object) -> str:
    """The file name of a deck path (or the text itself)."""
    if path is None or (not isinstance(path, str) and pd.isna(path)):
        return "?"
    return PurePath(str(path)).name or str(path)


def _seat_style(seat: object, index: int) -> tuple[str, str]:
    """Line style and marker of a seat."""
    return SEAT_STYLES.get(str(seat), OTHER_STYLES[index % len(OTHER_STYLES)])


BOTH = "both"


def _seat_words(seat: object) -> str:
    if seat == BOTH:
        return "first and second player (same)"
    return f"{seat} player" if str(seat) in SEAT_STYLES else str(seat)


def _seat_title(seat: object) -> str:
    return "both players (same odds)" if seat == BOTH else _seat_words(seat)


def _merge_identical_seats(frame: pd.DataFrame, columns: list[str], by: list[str] | None = None) -> pd.DataFrame:
    """One row set labelled ``"both"`` where every seat has the same values, so that no line hides another.

    Within each ``by`` group, when all seats have equal ``turn`` and ``columns``
    the rows of the first seat are kept with seat ``"both"``.
    """
    if "seat" not in frame.columns or frame["seat"].nunique() < 2:
        return frame
    parts = []
    groups = frame.groupby(by, sort=False) if by else [(None, frame)]
    for _, part in groups:
        seats = list(dict.fromkeys(part["seat"]))
        tables = [part[part["seat"] == seat].sort_values("turn") for seat in seats]
        keys = ["turn"] + [c for c in columns if c in part.columns]

        def values(table, keys=keys):
            return table[keys].apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float, na_value=np.nan)

        first = values(tables[0])
        same = len(seats) > 1 and all(values(t).shape == first.shape and np.array_equal(values(t), first,
                                                                                         equal_nan=True)
                                      for t in tables[1:])
        if same:
            parts.append(tables[0].assign(seat=BOTH))
        else:
            parts.append(part)
    return pd.concat(parts, ignore_index=True)


def _simulated(part: pd.DataFrame) -> bool:
    return "method" in part.columns and bool((part["method"] == "simulate").any())


def _numbers(values: pd.Series) -> np.ndarray:
    """Float array of a column (missing values as NaN)."""
    return pd.to_numeric(values, errors="coerce").to_numpy(dtype=float, na_value=np.nan)


def _unique(frame: pd.DataFrame, column: str) -> list:
    return list(dict.fromkeys(frame[column])) if column in frame.columns else [None]


def _legend(ax: Axes, handles: list | None = None, **kwargs) -> None:
    if handles is None:
        handles, _ = ax.get_legend_handles_labels()
    if handles:
        ax.legend(handles=handles, fontsize=9, framealpha=0.9, **kwargs)


def _interval_proxy() -> Patch:
    return Patch(facecolor="0.5", alpha=0.25, label=INTERVAL_LABEL)


def _seat_offsets(seats: list, width: float) -> dict:
    """Horizontal offset of each seat's bar in a group of side-by-side bars."""
    n = len(seats)
    return {seat: (i - (n - 1) / 2) * width for i, seat in enumerate(seats)}


def _method_words(frame: pd.DataFrame, n_trials: object = None) -> str:
    """``exact`` or ``simulated, N games``."""
    methods = _unique(frame, "method")
    if methods == ["exact"]:
        return "exact"
    if n_trials is None and "n_trials" in frame.columns:
        n_trials = pd.to_numeric(frame["n_trials"], errors="coerce").max()
    n_text = f", {int(n_trials):,} games" if n_trials is not None and pd.notna(n_trials) else ""
    if methods == ["simulate"]:
        return f"simulated{n_text}"
    return f"exact and simulated{n_text}"


def _errors(p: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Error-bar lengths below and above ``p`` (never negative)."""
    return np.vstack([p - low, high - p]).clip(min=0)


def _joined(*parts: object) -> str:
    return " · ".join(str(p) for p in parts if p is not None and str(p) not in ("", "?"))


def _expect(value: object, kind: type, name: str, see: str, *, table: bool = False) -> None:
    """Refuse anything but a ``kind`` result (with ``table``, a DataFrame too), naming what was expected."""
    if isinstance(value, kind) or (table and isinstance(value, pd.DataFrame)):
        return
    article = "an" if kind.__name__[0] in "AEIOU" else "a"
    alternative = " or a DataFrame shaped like its table" if table else ""
    raise DeckstatError(f"{name} must be {article} {kind.__name__} (see {see}){alternative}, "
                        f"got {type(value).__name__}")


def _distinct(frame: pd.DataFrame, keys: Iterable[str], what: str) -> None:
    """Refuse rows that share every identity column: one line would zigzag through both."""
    keys = [c for c in keys if c in frame.columns]
    repeated = frame[frame.duplicated(keys, keep=False)]
    if not repeated.empty:
        row = repeated.iloc[0]
        shown = ", ".join(f"{c} {row[c]!r}" for c in keys)
        raise DeckstatError(f"{what} has several rows for {shown}: they cannot be told apart (two decks with the "
                            "same name, or results under different rules joined together?)")


def _present(value: object) -> object:
    """``value``, or None when it is missing (None, NaN, ``pd.NA``)."""
    if value is None or (np.ndim(value) == 0 and pd.isna(value)):
        return None
    return value


def _shared(frame: pd.DataFrame | None, column: str, fallback: object = None) -> object:
    """The value all rows share in ``column`` (None when they differ); ``fallback`` without that column."""
    if frame is None or column not in frame.columns or frame.empty:
        return _present(fallback)
    values = _unique(frame, column)
    return _present(values[0]) if len(values) == 1 else None


def _row(frame: pd.DataFrame | None, **where: object) -> dict:
    """The first row of ``frame`` matching ``where`` (columns that are absent are not matched), as a dict."""
    if not isinstance(frame, pd.DataFrame) or frame.empty:
        return {}
    mask = np.ones(len(frame), dtype=bool)
    for column, value in where.items():
        if column in frame.columns:
            mask &= (frame[column] == value).to_numpy(dtype=bool, na_value=False)
    rows = frame[mask]
    return rows.iloc[0].to_dict() if not rows.empty else {}


def _is_false(value: object) -> bool:
    """Whether ``value`` is present and false (a missing value is neither true nor false)."""
    value = _present(value)
    return value is not None and not bool(value)


def _rules_text(rule: object, keep: object) -> str | None:
    """``no mulligan`` or ``<rule> mulligan, keep if <keep>`` (None when the rule is unknown)."""
    rule = _present(rule)
    if rule is None:
        return None
    if rule == "none":
        return "no mulligan"
    return f"{_rule_name(rule)} mulligan, keep if {_present(keep)}"


def _rule_name(rule: object) -> str:
    return {"london": "London", "vancouver": "Vancouver"}.get(str(rule), str(rule))


# --- figures --------------------------------------------------------------------------------------------------

def plot_odds(result_or_table: OddsResult | pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Draw P(event) by turn: one line per event and seat (and deck).

    Parameters
    ----------
    result_or_table : OddsResult or pandas.DataFrame
        A :func:`deckstat.odds` result, or a DataFrame shaped like its
        ``table`` (columns ``turn``, ``seat``, ``event``, ``p``, ``ci_low``,
        ``ci_high``, ``method``; ``deck``, ``game`` and ``zone`` when
        present), e.g. several results' tables joined with ``pd.concat``:
        one line per ``event`` and ``seat``, and per ``deck`` (and ``game``)
        when the table holds several. The mulligan rule and keep rule named in
        the title come from the result's ``provenance`` (a bare table's
        ``attrs``).
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).

    Returns
    -------
    matplotlib.axes.Axes
        One colour per event (and deck), or per seat when there is a single
        event and deck; one line style and marker per seat; seats with
        identical results share one line. Simulated lines carry a shaded 95%
        interval band. A result with a single turn (zones ``hand`` and
        ``set_aside``) has its values written next to the points.
    """
    _expect(result_or_table, OddsResult, "result_or_table", "deckstat.odds", table=True)
    if isinstance(result_or_table, OddsResult):
        frame, provenance = result_or_table.table, result_or_table.provenance
    else:
        frame, provenance = result_or_table, result_or_table.attrs
    # Odds with known cards asked by cards drawn have no turn: the cards drawn are the x axis.
    by_draws = "draws" in frame.columns and "turn" in frame.columns and frame["turn"].isna().all()
    if by_draws:
        frame = frame.assign(turn=frame["draws"])
    frame = _check(frame, ["turn", "seat", "event", "p", "ci_low", "ci_high", "method"], "odds table")
    _distinct(frame, ["deck", "game", "event", "seat", "zone", "turn"], "odds table")
    ax = _axes(ax)
    decks, games, events = _unique(frame, "deck"), _unique(frame, "game"), _unique(frame, "event")
    series = [c for c, values in (("deck", decks), ("game", games)) if c in frame.columns and len(values) > 1]
    series.append("event")
    zones = _unique(frame, "zone")
    drawn = _merge_identical_seats(frame, ["p", "ci_low", "ci_high"], by=series)
    seats = _unique(drawn, "seat")
    any_simulated = False
    groups = drawn.groupby(series, sort=False, dropna=False)
    single_turn = frame["turn"].nunique() == 1
    for i, (key, group) in enumerate(groups):
        values = dict(zip(series, key if isinstance(key, tuple) else (key,)))
        for seat, part in group.groupby("seat", sort=False):
            part = part.sort_values("turn")
            # One colour per event and deck; with a single one, the seats get the colours.
            color = COLORS[(i if groups.ngroups > 1 else seats.index(seat)) % len(COLORS)]
            linestyle, marker = _seat_style(seat, seats.index(seat))
            words = []
            if len(decks) > 1:
                words.append(_name(values["deck"]))
            if len(games) > 1:
                words.append(str(values["game"]))
            if len(events) > 1:
                words.append(str(values["event"]))
            if len(seats) > 1:
                words.append(_seat_words(seat))
            turns, p = _numbers(part["turn"]), _numbers(part["p"])
            ax.plot(turns, p, linestyle=linestyle, marker=marker, color=color,
                    label=", ".join(words) or str(values["event"]))
            if single_turn:
                for x, y in zip(turns, p):
                    ax.annotate(format_probability(y), (x, y), textcoords="offset points", xytext=(8, 0),
                                va="center", fontsize=9, color=color)
            if _simulated(part):
                any_simulated = True
                ax.fill_between(turns, _numbers(part["ci_low"]), _numbers(part["ci_high"]), color=color,
                                alpha=0.2, linewidth=0)
    _probability_axis(ax)
    _turn_axis(ax, _numbers(frame["turn"]), **({"label": "cards drawn from now"} if by_draws else {}))
    zone = ZONE_WORDS.get(str(zones[0]), f"in zone {zones[0]}") if len(zones) == 1 and zones[0] is not None else ""
    what = f"P({events[0]})" if len(events) == 1 else "P(event)"
    seat_text = f", {_seat_title(seats[0])}" if len(seats) == 1 else ""
    by = "by cards drawn" if by_draws else "by turn"
    main = " ".join(w for w in (what, zone, "" if single_turn else by) if w) + seat_text
    deck = _shared(frame, "deck", provenance.get("deck_source"))
    game = _shared(frame, "game", provenance.get("game"))
    rules = _rules_text(provenance.get("mulligan_rule"), provenance.get("keep"))
    _title(ax, main, _joined(_name(deck) if deck is not None else None, game, rules, _method_words(frame)))
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles, loc="lower right")
    return ax


def plot_when(result: WhenResult, ax: Axes | None = None) -> Axes:
    """Draw on which turn an event first holds: bars of the first turn, line of "by this turn".

    Parameters
    ----------
    result : WhenResult
        A :func:`deckstat.when` result. Its ``table`` (``event``, ``seat``,
        ``turn``, ``p``, ``ci_low``, ``ci_high``, ``cdf``, ``cdf_low``,
        ``cdf_high``, ``method``) is drawn; its ``summary`` (``p_never`` and
        ``max_turn`` per event and seat) is named in the title.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).

    Returns
    -------
    matplotlib.axes.Axes
        Bars: P(first holds on that turn), side by side per event and seat.
        Lines: P(holds by that turn). With one event the seats get the
        colours; with several, each event has its colour and the seats are
        told apart by line style, marker and bar hatching. Seats with
        identical results share one set of bars and one line. Simulated
        results carry 95% error bars and bands. The title gives, per event
        and seat, the probability that the event has not held by the last
        turn.
    """
    _expect(result, WhenResult, "result", "deckstat.when")
    frame = _check(result.table, ["seat", "turn", "p", "cdf", "ci_low", "ci_high", "cdf_low", "cdf_high", "method"],
                   "when result's table")
    summary = result.summary if isinstance(result.summary, pd.DataFrame) else None
    ax = _axes(ax)
    has_event = "event" in frame.columns
    events = _unique(frame, "event")
    drawn = _merge_identical_seats(frame, ["p", "cdf", "ci_low", "ci_high", "cdf_low", "cdf_high"],
                                   by=["event"] if has_event else None)
    seats = _unique(drawn, "seat")
    series = list(drawn[["event", "seat"]].drop_duplicates().itertuples(index=False, name=None)) if has_event \
        else [(None, seat) for seat in seats]
    width = 0.8 / len(series)
    offsets = _seat_offsets(series, width)
    hatches = ("", "//", "..", "xx")
    any_simulated = False
    for key in series:
        event, seat = key
        part = drawn[drawn["seat"] == seat]
        if has_event:
            part = part[part["event"] == event]
        part = part.sort_values("turn")
        seat_index = seats.index(seat)
        # One event: a colour per seat; several: a colour per event, the seats told apart by style.
        color = COLORS[(events.index(event) if len(events) > 1 else seat_index) % len(COLORS)]
        hatch = hatches[seat_index % len(hatches)] if len(events) > 1 else ""
        linestyle, marker = _seat_style(seat, seat_index)
        turns = _numbers(part["turn"])
        pmf = _numbers(part["p"])
        simulated = _simulated(part)
        any_simulated |= simulated
        errors = _errors(pmf, _numbers(part["ci_low"]), _numbers(part["ci_high"])) if simulated else None
        who = f"{event}, {_seat_words(seat)}" if len(events) > 1 else _seat_words(seat)
        ax.bar(turns + offsets[key], pmf, width=width, color=color, alpha=0.5, edgecolor=color, hatch=hatch,
               yerr=errors, error_kw={"ecolor": "0.2", "capsize": 2, "linewidth": 1},
               label=f"{who}: holds for the first time on this turn")
        ax.plot(turns, _numbers(part["cdf"]), linestyle=linestyle, marker=marker, color=color,
                label=f"{who}: has held by this turn")
        if simulated:
            ax.fill_between(turns, _numbers(part["cdf_low"]), _numbers(part["cdf_high"]), color=color, alpha=0.2,
                            linewidth=0)
    _probability_axis(ax)
    _turn_axis(ax, _numbers(frame["turn"]))
    max_turn = _present(summary["max_turn"].dropna().max()) if summary is not None and "max_turn" in summary else None
    if max_turn is None:
        max_turn = np.nanmax(_numbers(frame["turn"]))
    never_text = _never_text(summary, events, int(max_turn))
    deck = _shared(frame, "deck", result.provenance.get("deck_source"))
    game = _shared(frame, "game", result.provenance.get("game"))
    what = str(events[0]) if len(events) == 1 and events[0] is not None else "each event"
    _title(ax, f"When does {what} first hold among the cards seen?",
           _joined(never_text, _name(deck) if deck is not None else None, game, _method_words(frame)))
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles, loc="best")
    return ax


def _never_text(summary: pd.DataFrame | None, events: list, max_turn: int) -> str | None:
    """``P(not by turn N) = …`` from a when summary: per event, one value for both seats or one per seat."""
    if summary is None or "p_never" not in summary.columns or "seat" not in summary.columns:
        return None
    pieces = []
    for event in events:
        rows = summary[summary["event"] == event] if "event" in summary.columns and event is not None else summary
        never = {seat: p for seat, p in zip(rows["seat"], rows["p_never"]) if _present(p) is not None}
        if not never:
            continue
        shown = {format_probability(p) for p in never.values()}
        if len(never) > 1 and len(shown) == 1:
            pieces.append((event, True, f"{shown.pop()} for both players"))
        else:
            pieces.append((event, False, ", ".join(f"{_seat_words(seat)} {format_probability(p)}"
                                                    for seat, p in never.items())))
    if not pieces:
        return None
    if len(events) == 1:
        _, same, text = pieces[0]
        return f"P(not by turn {max_turn}) = {text}" if same else f"P(not by turn {max_turn}): {text}"
    return f"P(not by turn {max_turn}): " + "; ".join(f"{event} {text}" for event, _, text in pieces)


def plot_curve(result: CurveResult, ax: Axes | None = None) -> Axes:
    """Draw playability by turn: P(playable on or before turn t), one line per card or group and seat.

    Parameters
    ----------
    result : CurveResult
        A :func:`deckstat.curve` result; its ``table`` (``target``, ``seat``,
        ``turn``, ``p``, ``ci_low``, ``ci_high``, ``method``) is drawn.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).

    Returns
    -------
    matplotlib.axes.Axes
        A colour per target, a line style per seat (seats with identical
        results share one line), 95% bands where simulated; the legend sits
        beside the axes when there are more than six lines.
    """
    _expect(result, CurveResult, "result", "deckstat.curve")
    frame = _check(result.table, ["target", "seat", "turn", "p", "ci_low", "ci_high", "method"],
                   "curve result's table")
    drawn = _merge_identical_seats(frame, ["p", "ci_low", "ci_high"], by=["target"])
    targets = _unique(drawn, "target")
    seats = _unique(drawn, "seat")
    series = list(drawn[["target", "seat"]].drop_duplicates().itertuples(index=False, name=None))
    ax = _axes(ax, figsize=(9.0, 5.0) if len(series) > 6 else (8.0, 5.0))
    palette = COLORS if len(targets) <= len(COLORS) else tuple(matplotlib.colormaps["tab20"].colors)
    any_simulated = False
    for target, seat in series:
        part = drawn[(drawn["target"] == target) & (drawn["seat"] == seat)].sort_values("turn")
        color = palette[targets.index(target) % len(palette)]
        linestyle, marker = _seat_style(seat, seats.index(seat))
        turns = _numbers(part["turn"])
        label = str(target) if len(seats) == 1 else f"{target}, {_seat_words(seat)}"
        ax.plot(turns, _numbers(part["p"]), color=color, linestyle=linestyle, marker=marker, markersize=4,
                label=label)
        if _simulated(part):
            any_simulated = True
            ax.fill_between(turns, _numbers(part["ci_low"]), _numbers(part["ci_high"]), color=color, alpha=0.2,
                            linewidth=0)
    _probability_axis(ax, "P(playable on or before this turn)")
    _turn_axis(ax, _numbers(frame["turn"]), label="Turn")
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    if len(series) > 6:
        _legend(ax, handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    else:
        _legend(ax, handles, loc="lower right")
    policy = _shared(frame, "policy")
    detail = _joined(_method_words(frame), f"policy {policy}" if policy is not None else None)
    _title(ax, "When can it be played?", detail)
    return ax


def plot_ratio(result: RatioResult, ax: Axes | None = None) -> Axes:
    """Draw P(event at the target turn) against the number of resource cards.

    Parameters
    ----------
    result : RatioResult
        A :func:`deckstat.ratio` result. Its ``table`` (one row per resource
        count, event and turn: ``resource_count``, ``turn``, ``seat``,
        ``event``, ``p``, ``ci_low``, ``ci_high``, ``method``, ``legal``,
        ``target_status``, ``is_current``) is drawn at the target turn; its
        ``summary`` (one row per event: ``group``, ``current_count``,
        ``target``, ``target_turn``, ``recommended``, ``smallest_reaching``,
        ``smallest_reaching_legal``) gives the deck's own count, the target
        and the recommendations; the deck size comes from the ``provenance``.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).

    Returns
    -------
    matplotlib.axes.Axes
        Legal decks are filled markers, decks that break a construction rule
        hollow grey ones, each labelled with its probability (one event);
        simulated points carry 95% error bars. A horizontal line marks the
        target, a dashed vertical one each event's recommended count (always
        a legal deck) and a dash-dotted one the smaller count that would
        reach the target but is illegal, if any; under the curve objective a
        dotted one marks the best count (``summary["best"]``); a grey band
        marks the deck's own count. With several events each event's lines
        take its colour.
    """
    _expect(result, RatioResult, "result", "deckstat.ratio")
    frame = _check(result.table, ["resource_count", "turn", "seat", "event", "p", "ci_low", "ci_high", "method",
                                  "legal"], "ratio result's table")
    summary = result.summary if isinstance(result.summary, pd.DataFrame) else pd.DataFrame()
    provenance = result.provenance
    ax = _axes(ax)
    first = _row(summary)
    target_turn = _present(first.get("target_turn"))
    if target_turn is None:
        # deckstat.ratio's default: the kept opening hand.
        target_turn = 0 if (frame["turn"] == 0).any() else frame["turn"].max()
    at_turn = frame[frame["turn"] == target_turn]
    if at_turn.empty:
        raise DeckstatError(f"ratio result has no row at target turn {target_turn!r}; turns: "
                            f"{', '.join(map(str, sorted(set(frame['turn']))))}")
    group = _present(first.get("group")) or provenance.get("group") or "resource"
    events, seats = _unique(at_turn, "event"), _unique(at_turn, "seat")
    n_series = len(events) * len(seats)
    handles = []
    colors = {}
    for i, ((event, seat), part) in enumerate(at_turn.groupby(["event", "seat"], sort=False)):
        part = part.sort_values("resource_count")
        color = colors[event, seat] = COLORS[i % len(COLORS)]
        linestyle, marker = _seat_style(seat, seats.index(seat))
        x, p = _numbers(part["resource_count"]), _numbers(part["p"])
        legal = part["legal"].astype(bool).to_numpy()
        suffix = _series_suffix(event, seat, events, seats)
        ax.plot(x, p, linestyle=linestyle, color=color, alpha=0.5, linewidth=1.2, zorder=2)
        if _simulated(part):
            ax.errorbar(x, p, yerr=_errors(p, _numbers(part["ci_low"]), _numbers(part["ci_high"])), fmt="none",
                        ecolor="0.25", capsize=3, linewidth=1, zorder=5)
        ax.plot(x[legal], p[legal], linestyle="none", marker=marker, markersize=7, color=color, zorder=4)
        ax.plot(x[~legal], p[~legal], linestyle="none", marker=marker, markersize=7, markerfacecolor="white",
                markeredgecolor="0.45", markeredgewidth=1.5, zorder=4)
        if n_series == 1 and len(x) <= 16:
            for xi, pi in zip(x, p):
                if np.isfinite(pi):
                    ax.annotate(format_probability(pi), (xi, pi), textcoords="offset points", xytext=(0, -14),
                                ha="center", va="top", fontsize=7.5, color="0.2", zorder=6,
                                bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none",
                                      "alpha": 0.85})
        if legal.any():
            handles.append(Line2D([], [], linestyle="none", marker=marker, markersize=7, color=color,
                                  label=f"legal deck{suffix}"))
        if (~legal).any():
            handles.append(Line2D([], [], linestyle="none", marker=marker, markersize=7, markerfacecolor="white",
                                  markeredgecolor="0.45", markeredgewidth=1.5,
                                  label=f"illegal deck: breaks a construction rule{suffix}"))
    if _simulated(at_turn):
        handles.append(Line2D([], [], color="0.25", marker="_", markersize=10, linestyle="none",
                              label=INTERVAL_LABEL))
    target = _present(first.get("target"))
    if target is not None:
        handles.append(ax.axhline(float(target), color="0.2", linestyle=":", linewidth=1.5,
                                  label=f"target: {format_probability(float(target))}"))
    several = len(colors) > 1
    for event, seat in colors:
        info = _row(summary, event=event, seat=seat)
        # One series: the usual green and purple; several: each series' own colour.
        color = colors[event, seat] if several else COLORS[2]
        legal_color = colors[event, seat] if several else COLORS[4]
        suffix = _series_suffix(event, seat, events, seats)
        recommended = _present(info.get("recommended"))
        if recommended is not None:
            handles.append(ax.axvline(float(recommended), color=color, linestyle="--", linewidth=1.5,
                                      label=f"recommended: {int(recommended)} {group} cards, the smallest legal count "
                                            f"reaching the target{suffix}"))
        elif target is not None:
            rows = frame[(frame["event"] == event) & (frame["seat"] == seat)]
            handles.append(Line2D([], [], linestyle="none",
                                  label=f"no recommendation: {_no_recommendation(rows, group)}{suffix}"))
        best = _present(info.get("best"))
        if best is not None:
            decided = info.get("best_decision") == "decided"
            handles.append(ax.axvline(float(best), color=color, linestyle=(0, (1, 1)), linewidth=2.0,
                                      label=f"{'best' if decided else 'best estimate (not told apart)'}: "
                                            f"{int(best)} {group} cards, the highest among legal counts{suffix}"))
        smallest = _present(info.get("smallest_reaching"))
        if smallest is not None and _is_false(info.get("smallest_reaching_legal")):
            handles.append(ax.axvline(float(smallest), color=legal_color, linestyle="-.", linewidth=1.5,
                                      label=f"{int(smallest)} {group} cards would reach the target but is illegal"
                                            f"{suffix}"))
    current = _present(first.get("current_count"))
    if current is None and "is_current" in frame.columns:
        own = frame.loc[frame["is_current"].astype(bool), "resource_count"]
        current = own.iloc[0] if len(own) else None
    if current is not None:
        # The deck as the player built it: a band behind the points, so every marker stays readable.
        handles.append(ax.axvspan(float(current) - 0.4, float(current) + 0.4, color="0.88", zorder=0,
                                  label=f"your deck: {int(current)} {group} cards"))
    _probability_axis(ax)
    _turn_axis(ax, _numbers(at_turn["resource_count"]), f"Number of {group} cards in the deck")
    event = events[0] if len(events) == 1 else "event"
    seat_text = f", {_seat_title(seats[0])}" if len(seats) == 1 else ""
    turn_text = ratio_where(_present(first.get("zone")) or provenance.get("zone", "seen"), int(target_turn),
                            provenance.get("set_aside_name", "set-aside cards"))
    size = provenance.get("deck_size")
    deck = _shared(frame, "deck", provenance.get("deck_source"))
    game = _shared(frame, "game", provenance.get("game"))
    _title(ax, f"P({event}) {turn_text}{seat_text}, by number of {group} cards",
           _joined(_name(deck) if deck is not None else None, f"{size} cards" if size else None, game,
                   _method_words(at_turn)))
    _legend(ax, handles, loc="lower right")
    return ax


def _series_suffix(event: object, seat: object, events: list, seats: list) -> str:
    """`` (event, seat)`` naming what tells a series apart, or nothing with a single series."""
    words = [str(event)] if len(events) > 1 else []
    words += [_seat_words(seat)] if len(seats) > 1 else []
    return f" ({', '.join(words)})" if words else ""


def _no_recommendation(rows: pd.DataFrame, group: str) -> str:
    """Why a sweep recommends no count, from the ``target_status`` of its legal resource counts."""
    if "legal" in rows.columns:
        rows = rows[rows["legal"].astype(bool)]
        if rows.empty:
            return "no count swept gives a legal deck"
    statuses = {}
    if "target_status" in rows.columns:
        for count, status in zip(rows["resource_count"], rows["target_status"]):
            if _present(status) is not None:
                statuses.setdefault(count, status)
    unsure = [str(k) for k in sorted(statuses) if statuses[k] == "undecided"]
    if unsure:
        return f"undecided at {', '.join(unsure)} {group} (the 95% interval contains the target)"
    if statuses and all(status == "not reached" for status in statuses.values()):
        return "no legal count swept reaches the target"
    return "none"


def plot_deckout(result: DeckoutResult, ax: Axes | None = None) -> Axes:
    """Draw on which turn each seat's deck runs out.

    Parameters
    ----------
    result : DeckoutResult
        A :func:`deckstat.deckout` result. Its ``table`` (``seat``, ``turn``,
        ``p``, ``ci_low``, ``ci_high``, ``method``) is drawn; its ``summary``
        gives each seat's median and mean turn and, in the row of seat
        ``first``, P(the first player runs out first) with its interval and
        P(same moment); ``deck`` and ``opponent`` name the decks and the
        ``provenance`` tells whether the drought rule applied.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).

    Returns
    -------
    matplotlib.axes.Axes
        Bars of P(the deck runs out on that turn), side by side per seat where
        the seats share a turn, with 95% error bars when simulated; the title
        gives P(the first player runs out first).
    """
    _expect(result, DeckoutResult, "result", "deckstat.deckout")
    frame = _check(result.table, ["seat", "turn", "p", "ci_low", "ci_high", "method"], "deckout result's table")
    summary = result.summary if isinstance(result.summary, pd.DataFrame) else None
    provenance = result.provenance
    ax = _axes(ax)
    seats = _unique(frame, "seat")
    turn_sets = [set(frame.loc[frame["seat"] == seat, "turn"]) for seat in seats]
    shared = any(a & b for i, a in enumerate(turn_sets) for b in turn_sets[i + 1:])
    width = 0.8 / len(seats) if shared else 0.8
    offsets = _seat_offsets(seats, width) if shared else dict.fromkeys(seats, 0.0)
    hatches = ("", "//", "..", "xx")
    for i, seat in enumerate(seats):
        part = frame[frame["seat"] == seat].sort_values("turn")
        color = COLORS[i % len(COLORS)]
        p = _numbers(part["p"])
        errors = _errors(p, _numbers(part["ci_low"]), _numbers(part["ci_high"])) if _simulated(part) else None
        label = _seat_words(seat)
        info = _row(summary, seat=seat)
        median, mean = _present(info.get("median_turn")), _present(info.get("mean_turn"))
        if median is not None:
            earliest = _present(info.get("earliest_turn"))
            if earliest is not None and earliest == _present(info.get("latest_turn")):
                label += f": always on turn {median}"
            else:
                label += f": median turn {median}"
                if mean is not None:
                    label += f", mean {mean:.1f}"
        ax.bar(_numbers(part["turn"]) + offsets[seat], p, width=width, color=color, alpha=0.75, edgecolor=color,
               hatch=hatches[i % len(hatches)], yerr=errors,
               error_kw={"ecolor": "0.2", "capsize": 2, "linewidth": 1}, label=label)
    _probability_axis(ax)
    _turn_axis(ax, _numbers(frame["turn"]), "Turn the deck runs out on (the player's own turn number)",
               pad=1.5 if not shared else 0.75)
    first = _row(summary, seat="first")
    p_first = _present(first.get("p_runs_out_first"))
    race = None
    if p_first is not None:
        race = f"P(first player runs out first) = {format_probability(p_first)}"
        low, high = _present(first.get("ci_low")), _present(first.get("ci_high"))
        if _simulated(frame) and low is not None and high is not None and low != high:
            race += f" (95% interval {format_probability(low)} to {format_probability(high)})"
        same = _present(first.get("p_same_moment"))
        if same:
            race += f"; at the same moment: {format_probability(same)}"
    names = _row(frame, seat="first") or _row(frame)
    game = _shared(frame, "game", provenance.get("game"))
    deck = _name(first.get("deck", names.get("deck", provenance.get("deck_source"))))
    opponent = _name(first.get("opponent", names.get("opponent", provenance.get("opponent_source"))))
    decks = deck if opponent in ("?", deck) else f"{deck} vs {opponent}"
    main = f"When does each deck run out{f' ({game})' if game else ''}?"
    if race:
        main += "\n" + race
    _title(ax, main, _joined(decks, "drought rule" if provenance.get("drought") else None, _method_words(frame)))
    handles, _ = ax.get_legend_handles_labels()
    if _simulated(frame):
        handles.append(Line2D([], [], color="0.2", marker="_", markersize=10, linestyle="none", label=INTERVAL_LABEL))
    # Below the axes: a bar may fill the whole height (a deterministic deck-out).
    _legend(ax, handles, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncols=2)
    return ax


def plot_compare(result_or_table: CompareResult | pd.DataFrame, ax: Axes | None = None) -> Axes | np.ndarray:
    """Draw how decks compare by turn.

    Parameters
    ----------
    result_or_table : CompareResult or pandas.DataFrame
        A :func:`deckstat.compare` result, or its ``table``: columns
        ``turn``, ``seat``, ``event``, ``deck_a``, ``deck_b``, ``p_a``,
        ``p_b``, ``diff`` (``p_b - p_a``), ``diff_ci_low``, ``diff_ci_high``,
        ``method``. Several ``deck_b`` values (each compared with the same
        deck A) give one line each.
    ax : matplotlib.axes.Axes, optional
        Where to draw the difference. Without it a new figure with two panels
        is made.

    Returns
    -------
    matplotlib.axes.Axes or numpy.ndarray of Axes
        With ``ax``: that Axes, showing the difference P(deck B) − P(deck A)
        by turn, with its 95% interval band when simulated, and a zero line;
        lines are labelled "deck B − deck A" with the decks' names. Without
        ``ax``: an array of two Axes, the top one with the decks'
        probabilities by turn (deck A blue, hollow markers for the others),
        the bottom one with the difference.
    """
    _expect(result_or_table, CompareResult, "result_or_table", "deckstat.compare", table=True)
    table = result_or_table.table if isinstance(result_or_table, CompareResult) else result_or_table
    frame = _check(table, ["turn", "seat", "event", "deck_a", "deck_b", "p_a", "p_b", "diff", "diff_ci_low",
                           "diff_ci_high", "method"], "comparison table")
    _distinct(frame, ["deck_a", "deck_b", "game", "event", "seat", "zone", "turn"], "comparison table")
    name_a = _name(frame["deck_a"].iloc[0])
    if ax is not None:
        _draw_difference(frame, _axes(ax), name_a, alone=True)
        return ax
    _, axes = plt.subplots(2, 1, figsize=(8.0, 7.5), sharex=True, height_ratios=(3, 2), layout="constrained")
    top, bottom = axes
    events, decks_b = _unique(frame, "event"), _unique(frame, "deck_b")
    letters = {deck: chr(ord("B") + k) if k < 24 else str(k + 2) for k, deck in enumerate(decks_b)}
    drawn = _merge_identical_seats(frame, ["p_a", "p_b"], by=["deck_b", "event"])
    seats = _unique(drawn, "seat")
    event_styles = ("-", "--", ":", "-.")
    for (deck_b, event, seat), part in drawn.groupby(["deck_b", "event", "seat"], sort=False):
        part = part.sort_values("turn")
        linestyle, marker = _seat_style(seat, seats.index(seat))
        if len(events) > 1 and len(seats) == 1:
            linestyle = event_styles[events.index(event) % len(event_styles)]
        words = [str(event)] if len(events) > 1 else []
        words += [_seat_words(seat)] if len(seats) > 1 else []
        suffix = f" ({', '.join(words)})" if words else ""
        turns = _numbers(part["turn"])
        if deck_b == decks_b[0]:  # deck A is the same in every pair: drawn once
            # Thin and on top, so that a deck with the same odds shows around it instead of hiding it.
            top.plot(turns, _numbers(part["p_a"]), linestyle=linestyle, marker=marker, color=COLORS[0],
                     markersize=5, linewidth=1.5, zorder=3, label=f"deck A: {name_a}{suffix}")
        k = decks_b.index(deck_b)
        top.plot(turns, _numbers(part["p_b"]), linestyle=linestyle, marker=marker, color=COLORS[(1 + k) % 10],
                 markerfacecolor="white", markersize=9, linewidth=2.5, alpha=0.8, zorder=2,
                 label=f"deck {letters[deck_b]}: {_name(deck_b)}{suffix}")
    _probability_axis(top)
    top.tick_params(labelbottom=True)
    top.set_xlabel("Turn")
    what = f"P({events[0]})" if len(events) == 1 else "P(event)"
    seat_text = _seat_title(seats[0]) if len(seats) == 1 else None
    others = [f"{letters[d]}: {_name(d)}" for d in decks_b]
    versus = "deck B" if len(decks_b) == 1 else "decks " + ", ".join(letters[d] for d in decks_b)
    _title(top, f"{what} by turn: deck A vs {versus}",
           _joined(f"A: {name_a}", *others, seat_text, _method_words(frame)))
    _legend(top, loc="best")
    _draw_difference(frame, bottom, name_a, alone=False)
    return axes


def _draw_difference(frame: pd.DataFrame, ax: Axes, name_a: str, *, alone: bool) -> None:
    """The difference panel of :func:`plot_compare`."""
    events, decks_b = _unique(frame, "event"), _unique(frame, "deck_b")
    drawn = _merge_identical_seats(frame, ["diff", "diff_ci_low", "diff_ci_high"], by=["deck_b", "event"])
    seats = _unique(drawn, "seat")
    palette = ("0.15", COLORS[4], COLORS[5], COLORS[6], COLORS[8], COLORS[9])
    any_simulated = False
    groups = drawn.groupby(["deck_b", "event", "seat"], sort=False)
    for i, ((deck_b, event, seat), part) in enumerate(groups):
        part = part.sort_values("turn")
        linestyle, marker = _seat_style(seat, seats.index(seat))
        # Several decks B: each keeps its top-panel colour; one deck B: one colour per event and seat.
        color = COLORS[(1 + decks_b.index(deck_b)) % 10] if len(decks_b) > 1 else palette[i % len(palette)]
        words = [str(event)] if len(events) > 1 else []
        words += [_seat_words(seat)] if len(seats) > 1 else []
        turns = _numbers(part["turn"])
        label = f"{_name(deck_b)} − {name_a}" + (f" ({', '.join(words)})" if words else "")
        ax.plot(turns, _numbers(part["diff"]), linestyle=linestyle, marker=marker, color=color, label=label)
        if _simulated(part):
            any_simulated = True
            ax.fill_between(turns, _numbers(part["diff_ci_low"]), _numbers(part["diff_ci_high"]), color=color,
                            alpha=0.15, linewidth=0)
    ax.axhline(0.0, color="0.4", linewidth=1, zorder=1)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    b_words = "deck B" if len(decks_b) == 1 else "other deck"
    ax.set_ylabel(f"P({b_words}) − P(deck A)\n(percentage points)")
    ax.grid(True, axis="y", alpha=0.3)
    low, high = ax.get_ylim()
    reach = min(max(abs(low), abs(high), 0.01), 1.0)
    ax.set_ylim(-reach, reach)
    _turn_axis(ax, _numbers(frame["turn"]))
    minus = "deck B − deck A" if len(decks_b) == 1 else "each deck − deck A"
    if alone:
        what = f"P({events[0]})" if len(events) == 1 else "P(event)"
        seat_text = _seat_title(seats[0]) if len(seats) == 1 else None
        names = [f"B: {_name(decks_b[0])}"] if len(decks_b) == 1 else []
        _title(ax, f"Difference in {what} by turn: {minus}",
               _joined(*names, f"A: {name_a}", seat_text, _method_words(frame))
               + f"\nabove 0: more likely than with deck A ({name_a})")
    else:
        _title(ax, f"Difference: {minus}", f"above 0: more likely than with deck A ({name_a})")
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles, loc="best")


def plot_mulligan(result: MulliganResult, ax: Axes | None = None) -> Axes:
    """Draw P(event) by turn with the mulligan rule and keeping every first hand.

    Parameters
    ----------
    result : MulliganResult
        A :func:`deckstat.mulligan` result. Its ``by_turn`` table (``turn``,
        ``seat``, ``event``, ``mulligan_rule``, ``p``, ``ci_low``,
        ``ci_high``, ``method``: rows of the rule, and rows ``"none"`` keeping
        every first hand) is drawn; its ``summary`` (rule, keep rule,
        P(keep the first hand)) is named in the title.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).

    Returns
    -------
    matplotlib.axes.Axes
        With the mulligan: filled markers; keeping every first hand: hollow
        markers. With one event, blue is the rule and orange keeping every
        hand; with several, each event has its colour. One line style per
        seat (seats with identical results share a line), with 95% bands
        when simulated. The method in the title is the rule's.
    """
    _expect(result, MulliganResult, "result", "deckstat.mulligan")
    frame = _check(result.by_turn, ["turn", "seat", "event", "mulligan_rule", "p", "ci_low", "ci_high", "method"],
                   "mulligan result's by_turn")
    ax = _axes(ax)
    info = _row(result.summary)
    rules = [rule for rule in _unique(frame, "mulligan_rule") if rule != "none"]
    rule = _present(info.get("mulligan_rule")) or result.provenance.get("mulligan_rule") or next(iter(rules), None)
    keep = _present(info.get("keep")) or result.provenance.get("keep")
    keys = [c for c in ("deck", "game", "event", "seat", "turn") if c in frame.columns]
    is_none = (frame["mulligan_rule"] == "none").to_numpy(dtype=bool, na_value=False)
    sides = {}
    for side, rows in (("with", frame[~is_none]), ("without", frame[is_none])):
        sides[side] = rows[keys + ["p", "ci_low", "ci_high", "method"]].rename(
            columns={"p": f"p_{side}", "ci_low": f"p_{side}_low", "ci_high": f"p_{side}_high",
                     "method": f"method_{side}"})
    wide = sides["with"].merge(sides["without"], on=keys, how="outer", sort=False)
    drawn = _merge_identical_seats(wide, ["p_with", "p_with_low", "p_with_high", "p_without", "p_without_low",
                                          "p_without_high"], by=["event"])
    events, seats = _unique(drawn, "event"), _unique(drawn, "seat")
    simulated = _simulated(frame)
    with_words = f"with the {_rule_name(rule)} mulligan" if rule else "with the mulligan"
    if keep:
        with_words += f" (keep if {keep})"
    for e, event in enumerate(events):
        for i, seat in enumerate(seats):
            part = drawn[(drawn["event"] == event) & (drawn["seat"] == seat)].sort_values("turn")
            if part.empty:
                continue
            linestyle, marker = _seat_style(seat, i)
            words = ([str(event)] if len(events) > 1 else []) + ([_seat_words(seat)] if len(seats) > 1 else [])
            prefix = f"{', '.join(words)}, " if words else ""
            turns = _numbers(part["turn"])
            # One event: a colour per side; several: a colour per event, hollow markers keeping every hand.
            for side, color, side_words, face in (("with", COLORS[0], with_words, None),
                                                  ("without", COLORS[1], "keeping every first hand", "white")):
                color = COLORS[e % len(COLORS)] if len(events) > 1 else color
                ax.plot(turns, _numbers(part[f"p_{side}"]), linestyle=linestyle, marker=marker, color=color,
                        markerfacecolor=face or color, label=f"{prefix}{side_words}")
                if (part[f"method_{side}"] == "simulate").any():
                    ax.fill_between(turns, _numbers(part[f"p_{side}_low"]), _numbers(part[f"p_{side}_high"]),
                                    color=color, alpha=0.2, linewidth=0)
    _probability_axis(ax)
    _turn_axis(ax, _numbers(frame["turn"]))
    seat_text = _seat_title(seats[0]) if len(seats) == 1 else None
    kept = None
    if _present(info.get("p_keep_first")) is not None:
        kept = f"first hand kept {format_probability(info['p_keep_first'])} of the time"
    deck = _present(info.get("deck")) or _shared(frame, "deck", result.provenance.get("deck_source"))
    game = _present(info.get("game")) or _shared(frame, "game", result.provenance.get("game"))
    what = f"P({events[0]})" if len(events) == 1 else "P(event)"
    _title(ax, f"{what} among the cards seen by turn: mulligan or keep every hand?",
           _joined(seat_text, kept, _name(deck) if deck is not None else None, game,
                   _method_words(frame[~is_none] if (~is_none).any() else frame, _present(info.get("n_trials")))))
    handles, _ = ax.get_legend_handles_labels()
    if simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles, loc="lower right")
    return ax


#: Columns of a batch table that hold answers or bookkeeping, never a setting that tells two lines apart.
_BATCH_VALUE_COLUMNS = frozenset({"task_id", "question", "seed", "turn", "p", "ci_low", "ci_high", "cdf", "cdf_low",
                                  "cdf_high", "n_trials", "method", "zone_size", "deck_file", "event"})
#: What a batch plot draws for each question: the probability column and the words of its axis.
BATCH_CURVES = {"odds": ("p", "P(event) by turn"), "when": ("cdf", "P(event has held) by turn")}


def _setting(value: object) -> str:
    """A setting as written in a spec: 1000, not the 1000.0 a column with gaps holds."""
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value)


def plot_batch(table: pd.DataFrame, question: str = "odds", event: str | None = None,
               ax: Axes | None = None) -> Axes:
    """Draw one event of a batch's results by turn: one line per task and seat.

    Parameters
    ----------
    table : pandas.DataFrame
        A batch table (:func:`deckstat.batch`'s ``table``, or its
        ``results.csv`` read back).
    question : {"odds", "when"}
        Whose rows to draw: ``p`` of ``odds``, ``cdf`` (held by turn t) of ``when``.
    event : str, optional
        The event to draw (default: the first one of that question).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        Each line is labelled with the settings that differ between the
        lines drawn (deck, swept parameters, seat); simulated lines carry
        their 95% interval band.
    """
    if question not in BATCH_CURVES:
        raise DeckstatError(f"question must be one of {', '.join(BATCH_CURVES)}, got {question!r}")
    frame = _check(table, ["task_id", "question", "event", "seat", "turn"], "batch table")
    frame = frame[frame["question"] == question]
    if frame.empty:
        raise DeckstatError(f"the batch table has no {question} rows: nothing to draw")
    events = _unique(frame, "event")
    event = events[0] if event is None else event
    if event not in events:
        raise DeckstatError(f"the batch's {question} rows have no event {event!r}; they have "
                            f"{', '.join(map(str, events))}")
    column, words = BATCH_CURVES[question]
    frame = frame[frame["event"] == event]
    low, high = ("ci_low", "ci_high") if column == "p" else ("cdf_low", "cdf_high")
    # The settings that tell the lines apart: those that differ between the rows at one turn.
    settings = [c for c in frame.columns if c not in _BATCH_VALUE_COLUMNS
                and frame[c].astype(str).nunique() > 1]
    ax = _axes(ax, figsize=(11.0, 5.5))  # room for the legend beside the axes
    any_simulated = False
    single_turn = frame["turn"].nunique() == 1
    lines = frame.groupby(["task_id", "seat"], sort=False, dropna=False)
    for i, (_, part) in enumerate(lines):
        part = part.sort_values("turn")
        first = part.iloc[0]
        label = ", ".join(f"{c}={_setting(first[c])}" if c not in ("deck", "seat") else str(first[c])
                          for c in settings if not pd.isna(first[c])) or str(first["deck"])
        linestyle, marker = _seat_style(first["seat"], i)
        color = COLORS[i % len(COLORS)]
        turns, p = _numbers(part["turn"]), _numbers(part[column])
        ax.plot(turns, p, linestyle=linestyle, marker=marker, color=color, label=label)
        if single_turn:  # a lone point says little without its value
            for x, y in zip(turns, p):
                ax.annotate(format_probability(y), (x, y), textcoords="offset points", xytext=(10, 6 - 12 * (i % 2)),
                            va="center", fontsize=9, color=color)
        if _simulated(part) and {low, high} <= set(part.columns):
            any_simulated = True
            ax.fill_between(turns, _numbers(part[low]), _numbers(part[high]), color=color, alpha=0.2, linewidth=0)
    _probability_axis(ax)
    # Batches compare close settings: a 0-100 % axis would flatten the differences they are run to show.
    lowest = np.nanmin(_numbers(frame[low] if low in frame.columns else frame[column]))
    bottom = max(0.0, np.floor((lowest - 0.02) * 20) / 20) if np.isfinite(lowest) else 0.0
    if bottom > 0:
        ax.set_ylim(bottom, 1.0)
        ax.set_ylabel(f"Probability (axis starts at {bottom:.0%})")
    _turn_axis(ax, _numbers(frame["turn"]))
    shared = [f"{c}={frame[c].iloc[0]}" for c in ("deck", "game") if c in frame.columns and c not in settings]
    _title(ax, f"{words}: {event}", _joined(*shared, f"{lines.ngroups} {'line' if lines.ngroups == 1 else 'lines'}"))
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    return ax


def save(figure_or_ax, path: str | Path) -> Path:
    """Save a figure as PNG (150 dpi) or SVG, chosen by the file extension, and close it.

    Parameters
    ----------
    figure_or_ax : matplotlib.figure.Figure, matplotlib.axes.Axes or array of Axes
        What a ``plot_*`` function returned, or its figure.
    path : str or pathlib.Path
        Output file ending in ``.png`` or ``.svg`` (any case).

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    DeckstatError
        For another extension, or something that is not a figure.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SAVE_FORMATS:
        shown = f"extension {path.suffix!r}" if path.suffix else "a file name without extension"
        raise DeckstatError(f"cannot save a figure with {shown}; use a .png or .svg file name", source=str(path))
    target = figure_or_ax
    if isinstance(target, np.ndarray) and target.size:
        target = target.flat[0]
    if not isinstance(target, (Axes, Figure)):
        raise DeckstatError(f"figure_or_ax must be a matplotlib Figure or Axes, got {type(figure_or_ax).__name__}")
    figure = target.figure.figure  # the root figure, also for an Axes in a subfigure
    options = {"dpi": 150} if suffix == ".png" else {}
    figure.savefig(path, format=SAVE_FORMATS[suffix], bbox_inches="tight", **options)
    plt.close(figure)
    return path
