"""The resource-count sweep (:func:`plot_ratio`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D

from deckstat.errors import DeckstatError
from deckstat.games.profiles import localized
from deckstat.i18n import N_, tr, trn
from deckstat.present.format import ratio_where
from deckstat.present.plots.visuals import (
    COLORS,
    INTERVAL_LABEL,
    _axes,
    _check,
    _data_lines_unclipped,
    _errors,
    _expect,
    _joined,
    _legend,
    _method_words,
    _name,
    _numbers,
    _percent,
    _place_labels,
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
    _values,
)
from deckstat.results import RatioResult


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
        hollow grey ones, each labelled with its probability (one event;
        labels that would overlap another label, a point or the target line
        are left out); simulated points carry 95% error bars. A horizontal
        line marks the target, a dashed vertical one each event's
        recommended count (always a legal deck) and a dash-dotted one the
        smaller count that would reach the target but is illegal, if any;
        under the curve objective a dotted one marks the best count
        (``summary["best"]``); a grey band marks the deck's own count. With
        several events each event's lines take its colour.
    """
    _expect(result, RatioResult, "result", "deckstat.ratio")
    frame = _check(result.table, ["resource_count", "turn", "seat", "event", "p", "ci_low", "ci_high", "method",
                                  "legal"], N_("ratio result's table"))
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
        raise DeckstatError(tr("ratio result has no row at target turn {turn!r}; turns: {turns}", turn=target_turn,
                               turns=", ".join(map(str, sorted(set(frame["turn"]))))))
    group = _present(first.get("group")) or provenance.get("group") or tr("resource")
    events, seats = _unique(at_turn, "event"), _unique(at_turn, "seat")
    n_series = len(events) * len(seats)
    handles = []
    colors = {}
    labels = []
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
            labels += [(xi, pi, _percent(pi), "0.2") for xi, pi in zip(x, p)]
        if legal.any():
            handles.append(Line2D([], [], linestyle="none", marker=marker, markersize=7, color=color,
                                  label=tr("legal deck") + suffix))
        if (~legal).any():
            handles.append(Line2D([], [], linestyle="none", marker=marker, markersize=7, markerfacecolor="white",
                                  markeredgecolor="0.45", markeredgewidth=1.5,
                                  label=tr("illegal deck: breaks a construction rule") + suffix))
    if _simulated(at_turn):
        handles.append(Line2D([], [], color="0.25", marker="_", markersize=10, linestyle="none",
                              label=tr(INTERVAL_LABEL)))
    target = _present(first.get("target"))
    if target is not None:
        handles.append(ax.axhline(float(target), color="0.2", linestyle=":", linewidth=1.5,
                                  label=tr("target: {p}", p=_percent(float(target)))))
    several = len(colors) > 1
    for event, seat in colors:
        info = _row(summary, event=event, seat=seat)
        # One series: the usual green and purple; several: each series' own colour.
        color = colors[event, seat] if several else COLORS[2]
        legal_color = colors[event, seat] if several else COLORS[4]
        suffix = _series_suffix(event, seat, events, seats)
        recommended = _present(info.get("recommended"))
        if recommended is not None:
            text = trn("recommended: {n} {group} card, the smallest legal count reaching the target",
                       "recommended: {n} {group} cards, the smallest legal count reaching the target",
                       int(recommended), group=group)
            handles.append(ax.axvline(float(recommended), color=color, linestyle="--", linewidth=1.5,
                                      label=text + suffix))
        elif target is not None:
            rows = frame[(frame["event"] == event) & (frame["seat"] == seat)]
            handles.append(Line2D([], [], linestyle="none", label=tr("no recommendation: {why}",
                                                                     why=_no_recommendation(rows, group)) + suffix))
        best = _present(info.get("best"))
        if best is not None:
            if info.get("best_decision") == "decided":
                text = trn("best: {n} {group} card, the highest among legal counts",
                           "best: {n} {group} cards, the highest among legal counts", int(best), group=group)
            else:
                text = trn("best estimate (not told apart): {n} {group} card, the highest among legal counts",
                           "best estimate (not told apart): {n} {group} cards, the highest among legal counts",
                           int(best), group=group)
            handles.append(ax.axvline(float(best), color=color, linestyle=(0, (1, 1)), linewidth=2.0,
                                      label=text + suffix))
        smallest = _present(info.get("smallest_reaching"))
        if smallest is not None and _is_false(info.get("smallest_reaching_legal")):
            text = trn("{n} {group} card would reach the target but is illegal",
                       "{n} {group} cards would reach the target but is illegal", int(smallest), group=group)
            handles.append(ax.axvline(float(smallest), color=legal_color, linestyle="-.", linewidth=1.5,
                                      label=text + suffix))
    current = _present(first.get("current_count"))
    if current is None and "is_current" in frame.columns:
        own = frame.loc[frame["is_current"].astype(bool), "resource_count"]
        current = own.iloc[0] if len(own) else None
    if current is not None:
        # The deck as the player built it: a band behind the points, so every marker stays readable.
        handles.append(ax.axvspan(float(current) - 0.4, float(current) + 0.4, color="0.88", zorder=0,
                                  label=trn("your deck: {n} {group} card", "your deck: {n} {group} cards",
                                            int(current), group=group)))
    simulated_rows = at_turn[at_turn["method"] == "simulate"]
    _probability_axis(ax, np.concatenate([_numbers(at_turn["p"]), _values(simulated_rows, "ci_low", "ci_high"),
                                          [] if target is None else [float(target)]]))
    _turn_axis(ax, _numbers(at_turn["resource_count"]), tr("Number of {group} cards in the deck", group=group))
    what = f"P({events[0]})" if len(events) == 1 else tr("P(each event)")
    seat_text = f", {_seat_title(seats[0])}" if len(seats) == 1 else ""
    turn_text = ratio_where(_present(first.get("zone")) or provenance.get("zone", "seen"), int(target_turn),
                            localized(provenance.get("set_aside_name") or tr("set-aside cards")))
    size = provenance.get("deck_size")
    deck = _shared(frame, "deck", provenance.get("deck_source"))
    game = _shared(frame, "game", provenance.get("game"))
    _title(ax, tr("{what} {where}{seat}, by number of {group} cards", what=what, where=turn_text,
                  seat=seat_text, group=group),
           _joined(_name(deck) if deck is not None else None, trn("{n} card", "{n} cards", size) if size else None,
                   game, _method_words(at_turn)))
    _data_lines_unclipped(ax)
    _legend(ax, handles, loc="lower right")
    if labels:
        _place_labels(ax, labels, avoid_y=[] if target is None else [float(target)], fontsize=7.5)
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
            return tr("no count swept gives a legal deck")
    statuses = {}
    if "target_status" in rows.columns:
        for count, status in zip(rows["resource_count"], rows["target_status"]):
            if _present(status) is not None:
                statuses.setdefault(count, status)
    unsure = [str(k) for k in sorted(statuses) if statuses[k] == "undecided"]
    if unsure:
        return tr("undecided at {counts} {group} (the 95% interval contains the target)", counts=", ".join(unsure),
                  group=group)
    if statuses and all(status == "not reached" for status in statuses.values()):
        return tr("no legal count swept reaches the target")
    return tr("the sweep gives no reason")


def _is_false(value: object) -> bool:
    """Whether ``value`` is present and false (a missing value is neither true nor false)."""
    value = _present(value)
    return value is not None and not bool(value)
