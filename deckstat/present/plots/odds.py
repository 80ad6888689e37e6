"""P(event) by turn (:func:`plot_odds`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from deckstat.i18n import N_, tr
from deckstat.present.plots.visuals import (
    COLORS,
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
    _percent,
    _place_labels,
    _present,
    _probability_axis,
    _seat_style,
    _seat_title,
    _seat_words,
    _shared,
    _simulated,
    _title,
    _turn_axis,
    _unique,
)
from deckstat.results import OddsResult
from deckstat.terms import MULLIGAN_NAMES, name_of

#: A probability ``what`` and where its cards are, for each zone of an odds result.
ZONE_WORDS = {"seen": N_("{what} among the cards seen"), "hand": N_("{what} in the kept opening hand"),
              "set_aside": N_("{what} among the set-aside cards"),
              "bottom": N_("{what} among the cards put under the deck")}


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
    frame = _check(frame, ["turn", "seat", "event", "p", "ci_low", "ci_high", "method"], N_("odds table"))
    _distinct(frame, ["deck", "game", "event", "seat", "zone", "turn"], N_("odds table"))
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
    values = []
    labels = []
    for i, (key, group) in enumerate(groups):
        names = dict(zip(series, key if isinstance(key, tuple) else (key,)))
        for seat, part in group.groupby("seat", sort=False):
            part = part.sort_values("turn")
            # One colour per event and deck; with a single one, the seats get the colours.
            color = COLORS[(i if groups.ngroups > 1 else seats.index(seat)) % len(COLORS)]
            linestyle, marker = _seat_style(seat, seats.index(seat))
            words = []
            if len(decks) > 1:
                words.append(_name(names["deck"]))
            if len(games) > 1:
                words.append(str(names["game"]))
            if len(events) > 1:
                words.append(str(names["event"]))
            if len(seats) > 1:
                words.append(_seat_words(seat))
            turns, p = _numbers(part["turn"]), _numbers(part["p"])
            ax.plot(turns, p, linestyle=linestyle, marker=marker, color=color,
                    label=", ".join(words) or str(names["event"]))
            values.append(p)
            if single_turn:
                labels += [(x, y, _percent(y), color) for x, y in zip(turns, p)]
            if _simulated(part):
                any_simulated = True
                low, high = _numbers(part["ci_low"]), _numbers(part["ci_high"])
                ax.fill_between(turns, low, high, color=color, alpha=0.2, linewidth=0)
                values += [low, high]
    # A single turn: lone points, each labelled with its value, read best against the whole axis.
    _probability_axis(ax, np.concatenate(values), whole=single_turn)
    _turn_axis(ax, _numbers(frame["turn"]), tr("Cards drawn from now") if by_draws else None)
    what = f"P({events[0]})" if len(events) == 1 else tr("P(each event)")
    if len(zones) == 1 and zones[0] is not None:
        zone = str(zones[0])
        what = tr(ZONE_WORDS[zone], what=what) if zone in ZONE_WORDS else tr("{what} in zone {zone}", what=what,
                                                                              zone=zone)
    if not single_turn:
        what = tr("{what} by cards drawn", what=what) if by_draws else tr("{what} by turn", what=what)
    main = what + (f", {_seat_title(seats[0])}" if len(seats) == 1 else "")
    deck = _shared(frame, "deck", provenance.get("deck_source"))
    game = _shared(frame, "game", provenance.get("game"))
    rules = _rules_text(provenance.get("mulligan_rule"), provenance.get("keep"))
    _title(ax, main, _joined(_name(deck) if deck is not None else None, game, rules, _method_words(frame)))
    _data_lines_unclipped(ax)
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles, loc="lower right")
    if labels:
        _place_labels(ax, labels, fontsize=9)
    return ax


def _rules_text(rule: object, keep: object) -> str | None:
    """``keeping every first hand`` or ``<rule> mulligan, keep if <keep>`` (None when the rule is unknown)."""
    rule = _present(rule)
    if rule is None:
        return None
    if rule == "none":
        return tr("keeping every first hand")
    return tr("{mulligan}, keep if {keep}", mulligan=name_of(MULLIGAN_NAMES, rule), keep=_present(keep))
