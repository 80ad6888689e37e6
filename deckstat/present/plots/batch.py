"""One probability column of a batch table, one line per setting (:func:`plot_batch`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from deckstat.errors import DeckstatError
from deckstat.i18n import N_, tr, trn
from deckstat.present.plots.visuals import (
    COLORS,
    _axes,
    _check,
    _data_lines_unclipped,
    _interval_proxy,
    _joined,
    _legend,
    _numbers,
    _percent,
    _place_labels,
    _probability_axis,
    _seat_style,
    _seat_words,
    _simulated,
    _title,
    _turn_axis,
    _unique,
)
from deckstat.terms import MULLIGAN_NAMES, name_of

#: Columns of a batch table that hold answers or bookkeeping, never a setting that tells two lines apart.
_BATCH_VALUE_COLUMNS = frozenset({"task_id", "question", "seed", "turn", "p", "ci_low", "ci_high", "cdf", "cdf_low",
                                  "cdf_high", "n_trials", "method", "zone_size", "deck_file", "event"})
#: What a batch plot draws for each question: the probability column and the words of its axis.
BATCH_CURVES = {"odds": ("p", N_("P(event) by turn")), "when": ("cdf", N_("P(event has held) by turn"))}


def _setting(value: object) -> str:
    """A setting as written in a spec: 1000, not the 1000.0 a column with gaps holds."""
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _setting_words(column: str, value: object) -> str:
    """A batch line's setting in the language: a seat or a rule in words, a deck as named, else ``key=value``.

    Other keys stay as the spec writes them (``turns=0-6``): the spec's keys are the same in every language.
    """
    if column == "seat":
        return _seat_words(value)
    if column == "mulligan_rule":
        return name_of(MULLIGAN_NAMES, value) if value != "none" else tr("keeping every first hand")
    if column == "trials":
        return trn("{n} trial", "{n} trials", int(float(value)))
    if column == "deck":
        return str(value)
    return f"{column}={_setting(value)}"


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
        their 95% interval band. Batches compare close settings: the
        probability axis fits the values, so that their differences show.
    """
    if question not in BATCH_CURVES:
        raise DeckstatError(tr("question must be one of {choices}, got {question!r}", choices=", ".join(BATCH_CURVES),
                               question=question))
    frame = _check(table, ["task_id", "question", "event", "seat", "turn"], N_("batch table"))
    frame = frame[frame["question"] == question]
    if frame.empty:
        raise DeckstatError(tr("the batch table has no {question} rows: nothing to draw", question=question))
    events = _unique(frame, "event")
    event = events[0] if event is None else event
    if event not in events:
        raise DeckstatError(tr("the batch's {question} rows have no event {event!r}; they have {events}",
                               question=question, event=event, events=", ".join(map(str, events))))
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
    values = [_numbers(frame[column])]
    labels = []
    for i, (_, part) in enumerate(lines):
        part = part.sort_values("turn")
        first = part.iloc[0]
        label = ", ".join(_setting_words(c, first[c]) for c in settings if not pd.isna(first[c])) \
            or str(first["deck"])
        linestyle, marker = _seat_style(first["seat"], i)
        color = COLORS[i % len(COLORS)]
        turns, p = _numbers(part["turn"]), _numbers(part[column])
        ax.plot(turns, p, linestyle=linestyle, marker=marker, color=color, label=label)
        if single_turn:  # a lone point says little without its value
            labels += [(x, y, _percent(y), color) for x, y in zip(turns, p)]
        if _simulated(part) and {low, high} <= set(part.columns):
            any_simulated = True
            ax.fill_between(turns, _numbers(part[low]), _numbers(part[high]), color=color, alpha=0.2, linewidth=0)
            values += [_numbers(part[low]), _numbers(part[high])]
    _probability_axis(ax, np.concatenate(values), whole=single_turn)
    _turn_axis(ax, _numbers(frame["turn"]))
    shared = [str(frame[c].iloc[0]) for c in ("deck", "game") if c in frame.columns and c not in settings]
    _title(ax, tr("{what}: {event}", what=tr(words), event=event),
           _joined(*shared, trn("{n} line", "{n} lines", lines.ngroups)))
    _data_lines_unclipped(ax)
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    if labels:
        _place_labels(ax, labels, fontsize=9)
    return ax
