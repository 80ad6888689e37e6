"""What a keep rule and mulligan do (:func:`plot_mulligan`)."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from deckstat.i18n import N_, tr
from deckstat.present.plots.visuals import (
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
    _name,
    _numbers,
    _percent,
    _present,
    _probability_axis,
    _row,
    _seat_style,
    _seat_title,
    _seat_words,
    _shared,
    _simulated,
    _title,
    _turn_axis,
    _unique,
)
from deckstat.results import MulliganResult
from deckstat.terms import MULLIGAN_NAMES, name_of


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
                   N_("mulligan result's by_turn"))
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
    with_words = tr("with the {mulligan}", mulligan=name_of(MULLIGAN_NAMES, rule)) if rule else tr("with the mulligan")
    if keep:
        with_words += tr(" (keep if {keep})", keep=keep)
    values = [_numbers(frame["p"])]
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
                                                  ("without", COLORS[1], tr("keeping every first hand"), "white")):
                color = COLORS[e % len(COLORS)] if len(events) > 1 else color
                ax.plot(turns, _numbers(part[f"p_{side}"]), linestyle=linestyle, marker=marker, color=color,
                        markerfacecolor=face or color, label=f"{prefix}{side_words}")
                if (part[f"method_{side}"] == "simulate").any():
                    low, high = _numbers(part[f"p_{side}_low"]), _numbers(part[f"p_{side}_high"])
                    ax.fill_between(turns, low, high, color=color, alpha=0.2, linewidth=0)
                    values += [low, high]
    _probability_axis(ax, np.concatenate(values))
    _turn_axis(ax, _numbers(frame["turn"]))
    seat_text = _seat_title(seats[0]) if len(seats) == 1 else None
    kept = None
    if _present(info.get("p_keep_first")) is not None:
        kept = tr("first hand kept {p} of the time", p=_percent(info["p_keep_first"]))
    deck = _present(info.get("deck")) or _shared(frame, "deck", result.provenance.get("deck_source"))
    game = _present(info.get("game")) or _shared(frame, "game", result.provenance.get("game"))
    what = f"P({events[0]})" if len(events) == 1 else tr("P(each event)")
    _title(ax, tr("{what} among the cards seen by turn: mulligan or keep every hand?", what=what),
           _joined(seat_text, kept, _name(deck) if deck is not None else None, game,
                   _method_words(frame[~is_none] if (~is_none).any() else frame, _present(info.get("n_trials")))))
    _data_lines_unclipped(ax)
    handles, _ = ax.get_legend_handles_labels()
    if simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles, loc="lower right")
    return ax
