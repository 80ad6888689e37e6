"""Several decks asked the same question, with their difference (:func:`plot_compare`)."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator, MultipleLocator

from deckstat.i18n import N_, tr
from deckstat.present.plots.visuals import (
    COLORS,
    PointsFormatter,
    _axes,
    _check,
    _data_lines_unclipped,
    _distinct,
    _expect,
    _interval_proxy,
    _joined,
    _legend,
    _merge_identical_seats,
    _method_words,
    _name,
    _numbers,
    _probability_axis,
    _seat_style,
    _seat_title,
    _seat_words,
    _simulated,
    _title,
    _turn_axis,
    _unique,
    _values,
)
from deckstat.results import CompareResult


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
        by turn in percentage points (``+1.2 pp``; ``+1,2 pts`` in French),
        on an axis centred on 0, with its 95% interval band when simulated,
        and a zero line; lines are labelled "deck B − deck A" with the decks'
        names. Without ``ax``: an array of two Axes, the top one with the
        decks' probabilities by turn (deck A blue, hollow markers for the
        others), the bottom one with the difference.
    """
    _expect(result_or_table, CompareResult, "result_or_table", "deckstat.compare", table=True)
    table = result_or_table.table if isinstance(result_or_table, CompareResult) else result_or_table
    frame = _check(table, ["turn", "seat", "event", "deck_a", "deck_b", "p_a", "p_b", "diff", "diff_ci_low",
                           "diff_ci_high", "method"], N_("comparison table"))
    _distinct(frame, ["deck_a", "deck_b", "game", "event", "seat", "zone", "turn"], N_("comparison table"))
    name_a = _name(frame["deck_a"].iloc[0])
    if ax is not None:
        _draw_difference(frame, _axes(ax), name_a, alone=True)
        return ax
    _, axes = plt.subplots(2, 1, figsize=(8.0, 8.0), sharex=True, height_ratios=(3, 2), layout="constrained")
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
                     markersize=5, linewidth=1.5, zorder=3, label=tr("deck A: {name}", name=name_a) + suffix)
        k = decks_b.index(deck_b)
        top.plot(turns, _numbers(part["p_b"]), linestyle=linestyle, marker=marker, color=COLORS[(1 + k) % 10],
                 markerfacecolor="white", markersize=9, linewidth=2.5, alpha=0.8, zorder=2,
                 label=tr("deck {letter}: {name}", letter=letters[deck_b], name=_name(deck_b)) + suffix)
    _probability_axis(top, _values(frame, "p_a", "p_b"))
    top.tick_params(labelbottom=True)
    top.set_xlabel(tr("Turn"))
    what = f"P({events[0]})" if len(events) == 1 else tr("P(each event)")
    seat_text = _seat_title(seats[0]) if len(seats) == 1 else None
    others = [tr("{letter}: {name}", letter=letters[d], name=_name(d)) for d in decks_b]
    if len(decks_b) == 1:
        main = tr("{what} by turn: deck A vs deck B", what=what)
    else:
        main = tr("{what} by turn: deck A vs decks {letters}", what=what,
                  letters=", ".join(letters[d] for d in decks_b))
    _title(top, main,
           _joined(tr("{letter}: {name}", letter="A", name=name_a), *others, seat_text, _method_words(frame)))
    _data_lines_unclipped(top)
    _legend(top)
    _draw_difference(frame, bottom, name_a, alone=False)
    return axes


def _draw_difference(frame: pd.DataFrame, ax: Axes, name_a: str, *, alone: bool) -> None:
    """The difference panel of :func:`plot_compare`."""
    events, decks_b = _unique(frame, "event"), _unique(frame, "deck_b")
    drawn = _merge_identical_seats(frame, ["diff", "diff_ci_low", "diff_ci_high"], by=["deck_b", "event"])
    seats = _unique(drawn, "seat")
    palette = ("0.15", COLORS[4], COLORS[5], COLORS[6], COLORS[8], COLORS[9])
    any_simulated = False
    values = [_numbers(frame["diff"])]
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
            low, high = _numbers(part["diff_ci_low"]), _numbers(part["diff_ci_high"])
            ax.fill_between(turns, low, high, color=color, alpha=0.15, linewidth=0)
            values += [low, high]
    ax.axhline(0.0, color="0.4", linewidth=1, zorder=1)
    _points_axis(ax, np.concatenate(values))
    b_words = tr("P(deck B) − P(deck A)") if len(decks_b) == 1 else tr("P(other deck) − P(deck A)")
    ax.set_ylabel(b_words + "\n" + tr("(percentage points)"))
    _turn_axis(ax, _numbers(frame["turn"]))
    minus = tr("deck B − deck A") if len(decks_b) == 1 else tr("each deck − deck A")
    above = tr("above 0: more likely than with deck A ({name})", name=name_a)
    if alone:
        what = f"P({events[0]})" if len(events) == 1 else tr("P(each event)")
        seat_text = _seat_title(seats[0]) if len(seats) == 1 else None
        names = [tr("{letter}: {name}", letter="B", name=_name(decks_b[0]))] if len(decks_b) == 1 else []
        _title(ax, tr("Difference in {what} by turn: {minus}", what=what, minus=minus),
               _joined(*names, tr("{letter}: {name}", letter="A", name=name_a),
                       seat_text, _method_words(frame)) + "\n" + above)
    else:
        _title(ax, tr("Difference: {minus}", minus=minus), above)
    _data_lines_unclipped(ax)
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles)


def _points_axis(ax: Axes, values: np.ndarray) -> None:
    """Y axis of differences of probabilities, centred on 0, in percentage points."""
    values = values[np.isfinite(values)]
    reach = float(np.max(np.abs(values))) * 1.08 if values.size else 0.0
    reach = min(max(reach, 0.005), 1.0)
    step = float(MaxNLocator(nbins=4, steps=[1, 2, 2.5, 5, 10]).tick_values(0.0, reach)[1])
    reach = min(math.ceil(reach / step - 1e-9) * step, 1.0)
    ax.set_ylim(-reach, reach)
    ax.yaxis.set_major_locator(MultipleLocator(step))
    ax.yaxis.set_major_formatter(PointsFormatter())
    ax.grid(True, axis="y", alpha=0.3)
