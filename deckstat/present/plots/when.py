"""The first turn an event holds, and the turn it is met by (:func:`plot_when`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from deckstat.i18n import N_, french_typography, get_language, number, tr
from deckstat.present.plots.visuals import (
    COLORS,
    _axes,
    _check,
    _data_lines_unclipped,
    _errors,
    _expect,
    _interval_proxy,
    _joined,
    _legend,
    _merge_identical_seats,
    _method_words,
    _name,
    _numbers,
    _percent,
    _present,
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
from deckstat.results import WhenResult


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
                   N_("when result's table"))
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
               label=tr("{who}: holds for the first time on this turn", who=who))
        ax.plot(turns, _numbers(part["cdf"]), linestyle=linestyle, marker=marker, color=color,
                label=tr("{who}: has held by this turn", who=who))
        if simulated:
            ax.fill_between(turns, _numbers(part["cdf_low"]), _numbers(part["cdf_high"]), color=color, alpha=0.2,
                            linewidth=0)
    # The bars start at 0: so does the axis.
    _probability_axis(ax, np.concatenate([[0.0], _values(frame, "p", "cdf", "ci_high", "cdf_low", "cdf_high")]))
    _turn_axis(ax, _numbers(frame["turn"]))
    max_turn = _present(summary["max_turn"].dropna().max()) if summary is not None and "max_turn" in summary else None
    if max_turn is None:
        max_turn = np.nanmax(_numbers(frame["turn"]))
    never_text = _never_text(summary, events, int(max_turn))
    deck = _shared(frame, "deck", result.provenance.get("deck_source"))
    game = _shared(frame, "game", result.provenance.get("game"))
    if len(events) == 1 and events[0] is not None:
        main = tr("When does {event} first hold among the cards seen?", event=events[0])
    else:
        main = tr("When does each event first hold among the cards seen?")
    _title(ax, main, _joined(never_text, _name(deck) if deck is not None else None, game, _method_words(frame)))
    _data_lines_unclipped(ax)
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles)
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
        shown = {_percent(p) for p in never.values()}
        if len(never) > 1 and len(shown) == 1:
            pieces.append((event, True, tr("{p} for both players", p=shown.pop())))
        else:
            pieces.append((event, False, ", ".join(f"{_seat_words(seat)} {_percent(p)}"
                                                    for seat, p in never.items())))
    if not pieces:
        return None
    turn = number(max_turn)
    if len(events) == 1:
        _, same, text = pieces[0]
        return tr("P(not by turn {turn}) = {text}", turn=turn, text=text) if same \
            else tr("P(not by turn {turn}): {text}", turn=turn, text=text)
    return tr("P(not by turn {turn}): {text}", turn=turn,
              text=_semicolon().join(f"{event} {text}" for event, _, text in pieces))


def _semicolon() -> str:
    """The separator of a list of clauses, with French's space before the semicolon."""
    return french_typography("; ") if get_language() == "fr" else "; "


def _seat_offsets(seats: list, width: float) -> dict:
    """Horizontal offset of each seat's bar in a group of side-by-side bars."""
    n = len(seats)
    return {seat: (i - (n - 1) / 2) * width for i, seat in enumerate(seats)}
