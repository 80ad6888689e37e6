"""Playability curves: the turn each card or group can first be played (:func:`plot_curve`)."""

from __future__ import annotations

import math
import textwrap

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from deckstat.i18n import N_, tr
from deckstat.present.markup import figure_text
from deckstat.present.plots.visuals import (
    AXIS_NOTE,
    COLORS,
    _axes,
    _check,
    _data_lines_unclipped,
    _expect,
    _interval_proxy,
    _joined,
    _legend,
    _merge_identical_seats,
    _method_words,
    _numbers,
    _probability_axis,
    _seat_style,
    _seat_words,
    _shared,
    _simulated,
    _title,
    _turn_axis,
    _unique,
    _values,
)
from deckstat.results import CurveResult
from deckstat.terms import PLAY_POLICY_NAMES, name_of

#: Lines in one column of a legend beside the axes (:func:`plot_curve`).
_LEGEND_ROWS = 30
#: Size of one panel of :func:`plot_curve`'s small multiples, in inches, and characters of its title's lines.
_PANEL_SIZE = (2.6, 2.1)
_PANEL_TITLE_WIDTH = 28


def plot_curve(result: CurveResult, ax: Axes | None = None) -> Axes | np.ndarray:
    """Draw playability by turn: P(playable on or before turn t), for each card or group and seat.

    Parameters
    ----------
    result : CurveResult
        A :func:`deckstat.curve` result; its ``table`` (``target``, ``seat``,
        ``turn``, ``p``, ``ci_low``, ``ci_high``, ``method``) is drawn.
    ax : matplotlib.axes.Axes, optional
        Where to draw every line (default: a new figure, with one panel per
        target when there are several).

    Returns
    -------
    matplotlib.axes.Axes or numpy.ndarray of Axes
        Without ``ax`` and with several targets: small multiples, one panel
        per target in the table's order, titled with its name, on shared
        axes; each panel draws its target in colour over the others' lines in
        light grey, so that a reader matches every curve to its card and still
        compares it with the rest (curves that differ by a point would hide
        one another as lines of one plot). The Axes of the panels are
        returned. Otherwise one Axes: a colour per target, a line style per
        seat, the legend beside the axes when there are more than six lines.
        Seats with identical results share one line; 95% bands where
        simulated.
    """
    _expect(result, CurveResult, "result", "deckstat.curve")
    frame = _check(result.table, ["target", "seat", "turn", "p", "ci_low", "ci_high", "method"],
                   N_("curve result's table"))
    drawn = _merge_identical_seats(frame, ["p", "ci_low", "ci_high"], by=["target"])
    targets = _unique(drawn, "target")
    seats = _unique(drawn, "seat")
    if ax is None and len(targets) > 1:
        return _curve_panels(frame, drawn, targets, seats)
    series = list(drawn[["target", "seat"]].drop_duplicates().itertuples(index=False, name=None))
    # A legend beside the axes holds at most _LEGEND_ROWS lines a column, and the figure grows to hold it: taller
    # than the figure, it would leave the axes no room at all (a whole deck of targets).
    columns = math.ceil((len(series) + 1) / _LEGEND_ROWS)
    height = max(5.0, 1.5 + 0.25 * min(len(series) + 1, _LEGEND_ROWS))
    ax = _axes(ax, figsize=(9.0 + 3.0 * (columns - 1), height) if len(series) > 6 else (8.0, 5.0))
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
    simulated_rows = frame[frame["method"] == "simulate"] if "method" in frame.columns else frame.iloc[0:0]
    _probability_axis(ax, np.concatenate([_numbers(frame["p"]), _values(simulated_rows, "ci_low", "ci_high")]),
                      tr("P(playable on or before this turn)"))
    _turn_axis(ax, _numbers(frame["turn"]), label=tr("Turn"))
    _data_lines_unclipped(ax)
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    if len(series) > 6:
        _legend(ax, handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, ncol=columns)
    else:
        _legend(ax, handles, loc="lower right")
    policy = _shared(frame, "policy")
    detail = _joined(_method_words(frame), tr("policy {policy}", policy=name_of(PLAY_POLICY_NAMES, policy))
                     if policy is not None else None)
    _title(ax, tr("When can it be played?"), detail)
    return ax


def _curve_panels(frame: pd.DataFrame, drawn: pd.DataFrame, targets: list, seats: list) -> np.ndarray:
    """Small multiples of :func:`plot_curve`: one panel per target on the same scales, the others in grey behind.

    Every panel gets the same limits and ticks rather than matplotlib's shared axes, whose upkeep grows with the
    square of the panels (a fifth of the drawing time of 20 panels) for the same image.
    """
    n = len(targets)
    columns = 3 if n in (5, 6, 9) else min(n, 4)
    rows = math.ceil(n / columns)
    width, height = _PANEL_SIZE
    size = (max(8.0, width * columns + 0.8), height * rows + 1.6)  # room for the titles and the legend
    figure, grid = plt.subplots(rows, columns, figsize=size, squeeze=False,
                                layout="constrained")
    panels = grid.ravel()
    simulated_rows = frame[frame["method"] == "simulate"] if "method" in frame.columns else frame.iloc[0:0]
    values = np.concatenate([_numbers(frame["p"]), _values(simulated_rows, "ci_low", "ci_high")])
    lines = {(target, seat): part.sort_values("turn") for (target, seat), part in
             drawn.groupby(["target", "seat"], sort=False)}
    # Cards alike in play have the same curve: each distinct curve is drawn once in grey behind a panel (a deck of
    # 20 names has a handful), which draws the same figure at a fraction of the cost.
    curves: dict[tuple, list] = {}
    for (other, _), part in lines.items():
        points = (tuple(_numbers(part["turn"])), tuple(_numbers(part["p"])))
        curves.setdefault(points, []).append(other)
    any_simulated = False
    handles: dict[str, object] = {}
    for panel, target in zip(panels, targets):
        for (turns, probabilities), owners in curves.items():
            if any(other != target for other in owners):
                line, = panel.plot(turns, probabilities, color="0.8", linewidth=0.9, zorder=1)
                handles.setdefault("others", line)
        for (other, seat), part in lines.items():
            if other != target:
                continue
            index = seats.index(seat)
            linestyle, marker = _seat_style(seat, index)
            color = COLORS[index % len(COLORS)]
            turns = _numbers(part["turn"])
            line, = panel.plot(turns, _numbers(part["p"]), color=color, linestyle=linestyle, marker=marker,
                               markersize=3.5, linewidth=1.6, zorder=3)
            handles.setdefault(f"seat {seat}", line)
            line.set_label(tr("the card named above the panel") if len(seats) == 1
                           else tr("the card named above the panel, {seat}", seat=_seat_words(seat)))
            if _simulated(part):
                any_simulated = True
                panel.fill_between(turns, _numbers(part["ci_low"]), _numbers(part["ci_high"]), color=color,
                                   alpha=0.25, linewidth=0, zorder=2)
        panel.set_title(figure_text(textwrap.fill(str(target), _PANEL_TITLE_WIDTH)), fontsize=9.5)
        _probability_axis(panel, values, label="")
        _turn_axis(panel, _numbers(frame["turn"]), label="")
        panel.tick_params(labelsize=8)
        _data_lines_unclipped(panel)
    for panel in panels[n:]:
        panel.set_visible(False)
    # The common axes are labelled once, on the figure; tick labels only on the outer panels.
    for panel in panels[:n]:
        panel.label_outer()
    for panel in panels[max(0, n - columns):n]:  # the bottom panel of each column keeps its turn labels
        panel.xaxis.set_tick_params(labelbottom=True)
        panel.set_xlabel(tr("Turn"), fontsize=9)
    label = tr("P(playable on or before this turn)")
    if panels[0].get_ylim()[0] > 0:
        label += "\n(" + tr(AXIS_NOTE) + ")"
    figure.supylabel(figure_text(label), fontsize=10)
    for panel in panels[:n]:
        panel.set_ylabel("")
    legend = [handles[key] for key in handles if key.startswith("seat ")]
    if "others" in handles:
        handles["others"].set_label(tr("the other cards"))
        legend.append(handles["others"])
    if any_simulated:
        legend.append(_interval_proxy())
    figure.legend(handles=legend, labels=[figure_text(h.get_label()) for h in legend], loc="outside lower center",
                  ncols=min(len(legend), 3), fontsize=9, frameon=False)
    policy = _shared(frame, "policy")
    detail = _joined(_method_words(frame), tr("policy {policy}", policy=name_of(PLAY_POLICY_NAMES, policy))
                     if policy is not None else None)
    figure.suptitle(figure_text(tr("When can each card be played?") + "\n" + detail), fontsize=11)
    return panels[:n]
