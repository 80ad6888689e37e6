"""The turn each seat runs out of cards (:func:`plot_deckout`)."""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from deckstat.i18n import N_, number, tr
from deckstat.present.plots.visuals import (
    COLORS,
    _axes,
    _check,
    _data_lines_unclipped,
    _expect,
    _interval_proxy,
    _joined,
    _legend,
    _method_words,
    _name,
    _numbers,
    _percent,
    _present,
    _probability_axis,
    _row,
    _seat_style,
    _seat_words,
    _shared,
    _simulated,
    _title,
    _turn_axis,
    _unique,
)
from deckstat.results import DeckoutResult

#: Share of a deck-out's games on one turn above which the figure states that turn in words instead of a curve.
NEARLY_ONE_TURN = 0.99


def plot_deckout(result: DeckoutResult, ax: Axes | None = None) -> Axes:
    """Draw on which turn each seat's deck runs out.

    Parameters
    ----------
    result : DeckoutResult
        A :func:`deckstat.deckout` result. Its ``table`` (``seat``, ``turn``,
        ``p``, ``ci_low``, ``ci_high``, ``cdf``, ``cdf_low``, ``cdf_high``,
        ``method``) is drawn; its ``summary`` gives each seat's median and
        mean turn and, in the row of seat ``first``, P(the first player runs
        out first) with its interval and P(same moment); ``deck`` and
        ``opponent`` name the decks and the ``provenance`` tells whether the
        drought rule applied.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).

    Returns
    -------
    matplotlib.axes.Axes
        When a seat's deck runs out on several turns: P(the deck has run out
        by turn t) for each seat (``cdf``; without that column, the running
        sum of ``p``), from 0 the turn before the earliest one, with 95%
        bands when simulated. When every seat's deck runs out on one turn in
        at least :data:`NEARLY_ONE_TURN` of the games, a curve would be a
        wall: the figure says it in words instead ("The first player's deck
        always runs out on turn 31"), with the share of games and the other
        turns when it is not all of them. The title gives P(the first player
        runs out first).
    """
    _expect(result, DeckoutResult, "result", "deckstat.deckout")
    frame = _check(result.table, ["seat", "turn", "p", "ci_low", "ci_high", "method"], N_("deckout result's table"))
    summary = result.summary if isinstance(result.summary, pd.DataFrame) else None
    provenance = result.provenance
    ax = _axes(ax)
    seats = _unique(frame, "seat")
    parts = {seat: frame[frame["seat"] == seat].sort_values("turn") for seat in seats}
    # The turn holding most of each seat's games, and its share.
    peaks = {}
    for seat, part in parts.items():
        p = _numbers(part["p"])
        top = int(np.nanargmax(p))
        peaks[seat] = (int(_numbers(part["turn"])[top]), float(p[top]))
    first = _row(summary, seat="first")
    p_first = _present(first.get("p_runs_out_first"))
    race = None
    if p_first is not None:
        race = tr("P(first player's deck runs out first) = {p}", p=_percent(p_first))
        low, high = _present(first.get("ci_low")), _present(first.get("ci_high"))
        if _simulated(frame) and low is not None and high is not None and low != high:
            race += tr(" (95% interval {low} to {high})", low=_percent(low), high=_percent(high))
        same = _present(first.get("p_same_moment"))
        if same:
            race += tr("; at the same moment: {p}", p=_percent(same))
    if all(share >= NEARLY_ONE_TURN for _, share in peaks.values()):
        _deckout_in_words(ax, parts, peaks)
    else:
        _deckout_curves(ax, parts, summary)
    names = _row(frame, seat="first") or _row(frame)
    game = _shared(frame, "game", provenance.get("game"))
    deck = _name(first.get("deck", names.get("deck", provenance.get("deck_source"))))
    opponent = _name(first.get("opponent", names.get("opponent", provenance.get("opponent_source"))))
    decks = deck if opponent in ("?", deck) else tr("{deck} vs {opponent}", deck=deck, opponent=opponent)
    main = tr("When does each deck run out ({game})?", game=game) if game else tr("When does each deck run out?")
    if race:
        main += "\n" + race
    drought = tr("with the drought rule") if provenance.get("drought") else None
    _title(ax, main, _joined(decks, drought, _method_words(frame)))
    return ax


def _deckout_curves(ax: Axes, parts: dict, summary: pd.DataFrame | None) -> None:
    """P(the deck has run out by turn t) per seat."""
    start = min(np.nanmin(_numbers(part["turn"])) for part in parts.values()) - 1
    any_simulated = False
    for i, (seat, part) in enumerate(parts.items()):
        color = COLORS[i % len(COLORS)]
        linestyle, marker = _seat_style(seat, i)
        turns = np.concatenate([[start], _numbers(part["turn"])])
        cumulative = _numbers(part["cdf"]) if "cdf" in part.columns else np.nancumsum(_numbers(part["p"]))
        label = _seat_words(seat)
        info = _row(summary, seat=seat)
        median, mean = _present(info.get("median_turn")), _present(info.get("mean_turn"))
        if median is not None:
            earliest = _present(info.get("earliest_turn"))
            if earliest is not None and earliest == _present(info.get("latest_turn")):
                label = tr("{who}: always on turn {turn}", who=label, turn=number(median))
            elif mean is not None:
                label = tr("{who}: median turn {turn}, mean {mean}", who=label, turn=number(median),
                           mean=number(mean, 1))
            else:
                label = tr("{who}: median turn {turn}", who=label, turn=number(median))
        ax.plot(turns, np.concatenate([[0.0], cumulative]), linestyle=linestyle, marker=marker, markersize=4,
                color=color, label=label)
        if _simulated(part) and {"cdf_low", "cdf_high"} <= set(part.columns):
            any_simulated = True
            ax.fill_between(turns[1:], _numbers(part["cdf_low"]), _numbers(part["cdf_high"]), color=color,
                            alpha=0.2, linewidth=0)
    _probability_axis(ax, [0.0, 1.0], tr("P(deck has run out by turn t)"))
    every = np.concatenate([[start]] + [_numbers(part["turn"]) for part in parts.values()])
    _turn_axis(ax, every, tr("Turn (the player's own turn number)"))
    _data_lines_unclipped(ax)
    handles, _ = ax.get_legend_handles_labels()
    if any_simulated:
        handles.append(_interval_proxy())
    _legend(ax, handles, loc="lower right")


def _deckout_in_words(ax: Axes, parts: dict, peaks: dict) -> None:
    """Each seat's one turn, written on the figure: a bar filling the whole height would tell nothing more."""
    lines = []
    for seat, part in parts.items():
        turn, share = peaks[seat]
        who = _seat_words(seat)
        if share >= 1.0:
            if _simulated(part):
                lines.append(tr("{who}: the deck runs out on turn {turn} in every game simulated", who=who,
                                turn=number(turn)))
            else:
                lines.append(tr("{who}: the deck always runs out on turn {turn}", who=who, turn=number(turn)))
            continue
        turns, p = _numbers(part["turn"]), _numbers(part["p"])
        others = sorted(int(t) for t, q in zip(turns, p) if t != turn and q > 0)
        if len(others) == 1:
            otherwise = tr("otherwise on turn {turn}", turn=number(others[0]))
        else:
            otherwise = tr("otherwise on turns {low} to {high}", low=number(others[0]), high=number(others[-1]))
        lines.append(tr("{who}: the deck runs out on turn {turn} in {p} of games ({otherwise})", who=who,
                        turn=number(turn), p=_percent(share), otherwise=otherwise))
    text = "\n\n".join(textwrap.fill(line, 60) for line in lines)
    ax.set_axis_off()
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center", fontsize=13, linespacing=1.4)
