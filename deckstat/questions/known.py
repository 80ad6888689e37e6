"""Odds mid-game, once some cards are known: the hand held, cards gone, cards under the deck, shields.

:func:`deckstat.odds` and :func:`deckstat.compare` answer here when given
``known=``. Every card of the deck is in one of these places:

* ``hand``: the cards held now, as described (describe the whole hand);
* ``gone``: played, in play, discarded, milled: neither drawn nor counted;
* ``bottom``: known to lie under the library, drawn after it in random order;
* ``set_aside``: cards known among the set-aside cards (Duel Masters shields
  looked at); the others set aside are unknown;
* ``broken``: a number of set-aside cards moved to the hand, taken at random
  among them (shields broken), without saying which;
* the library: every other card, in uniformly random order, with the unknown
  set-aside cards a random part of the same unknown cards.

The answer is exact: it averages over every deal consistent with all the
zones' descriptions at once, each deal weighing the same
(:func:`deckstat.knowledge.cell_law`), and on each the next draws are
hypergeometric (:func:`deckstat.engines.known.known_zone_odds`). No mulligan
applies once the hand is known.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from deckstat._validate import check_seats, check_turns, seat_name
from deckstat.engines.known import known_zone_odds
from deckstat.errors import DeckstatError, param
from deckstat.events import to_text
from deckstat.i18n import N_, tr
from deckstat.knowledge import Knowledge, KnownCards, cell_law
from deckstat.questions._setup import Setup
from deckstat.results import frame
from deckstat.terms import BOTH_SEATS, MOST_SWEEP

#: Zones a question with known cards counts in (``bottom`` is a zone of known cards, not a question's).
KNOWN_ZONES = ("seen", "hand", "set_aside")
KNOWN_COLUMNS = ["deck", "game", "event", "seat", "turn", "draws", "zone", "zone_size", "p", "ci_low", "ci_high",
                 "n_trials", "method"]
KNOWN_SUMMARY_COLUMNS = ["deck", "game", "event", "hand", "gone", "bottom", "set_aside", "set_aside_unknown",
                         "broken", "library", "method"]
#: The seat column of rows counted from now rather than from the start of the game.
NOW = "now"
#: How a message counts the known cards of a zone that are no longer in the library.
_KNOWN_IN = {"hand": N_("{count} hand"), "gone": N_("{count} gone"), "set_aside": N_("{count} set-aside")}


def check_known_question(*, method: str, keep: object, mulligan_rule: object, mulligan_limit: object,
                         resource: object, zone: str, priority: object = None, n_trials: object = None,
                         precision: object = None) -> None:
    """Refuse settings that do not apply once cards are known: mulligans, simulation, the bottom zone.

    The simulation is named by what asked for it: ``n_trials``, ``precision`` or ``method``.
    """
    if method == "simulate" or n_trials is not None or precision is not None:
        option = param("n_trials") if n_trials is not None else param("precision") if precision is not None \
            else param("method", "simulate")
        raise DeckstatError(tr("odds with known cards are exact and quick; {option} does not apply to them",
                               option=option))
    for name, value in (("keep", keep), ("mulligan_rule", mulligan_rule), ("mulligan_limit", mulligan_limit),
                        ("resource", resource), ("priority", priority)):
        if value is not None:
            raise DeckstatError(tr("{name} does not apply with {known}: once the hand is known, no mulligan is left "
                                   "to take", name=param(name), known=param("known")))
    if zone not in KNOWN_ZONES:
        raise DeckstatError(tr("with {known}, {zone} must be one of {zones}; cards known under the deck are given as "
                               "the bottom zone of the known cards", known=param("known"), zone=param("zone"),
                               zones=", ".join(KNOWN_ZONES)))


def plan(setup: Setup, *, turns: object, draws: object, seat: object, zone: str,
         turns_given: bool) -> list[tuple[str, int | None, int]]:
    """The rows asked: (seat label, turn or None, cards drawn from now).

    ``draws`` counts the next cards. Otherwise turn ``t`` is the state after
    the draw step of the player's ``t``-th turn from now, ``t`` times the
    profile's draws per turn; with ``seat`` ``first`` or ``second`` the
    known hand is that seat's opening hand instead, and its first turn draws
    as the profile says (none for Duel Masters' first player).
    """
    profile = setup.profile
    seats = check_seats(seat)
    from_now = seat_name(seat) in BOTH_SEATS
    if draws is not None:
        if turns_given:
            raise DeckstatError(tr("give {turns} or {draws}, not both", turns=param("turns"), draws=param("draws")))
        if not from_now:
            raise DeckstatError(tr("{seat} sets how turns draw; with {draws} the cards drawn are counted directly",
                                   seat=param("seat"), draws=param("draws")))
        counts = [0] if zone != "seen" else check_turns(draws, "draws", maximum=MOST_SWEEP)
        return [(NOW, None, d) for d in counts]
    turn_list = [0] if zone != "seen" else check_turns(turns)
    if from_now:
        return [(NOW, t, _drawn(profile, NOW, t)) for t in turn_list]
    return [(s, t, _drawn(profile, s, t)) for s in seats for t in turn_list]


def _drawn(profile, seat: str, turn: int) -> int:
    """Cards drawn by ``turn``: from now, or (``seat`` first or second) from the opening hand."""
    return turn * profile.draws_per_turn if seat == NOW else profile.draws_by_turn(turn, seat)


def answer(setup: Setup, knowledge: Knowledge, *, zone: str,
           rows: list[tuple[str, int | None, int]]) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """The odds table, summary and provenance of one event, with known cards."""
    deck, profile = setup.deck, setup.profile
    known = knowledge.resolve(deck)
    set_aside_known = known["set_aside"].size
    if set_aside_known and not profile.set_aside:
        raise DeckstatError(tr("{game} sets no card aside, yet the set-aside zone names {count}", game=profile.name,
                               count=set_aside_known))
    if set_aside_known > profile.set_aside:
        raise DeckstatError(tr("the set-aside zone names {count} cards, but {game} sets {set_aside} aside ({name})",
                               count=set_aside_known, game=profile.name, set_aside=profile.set_aside,
                               name=profile.set_aside_name))
    if knowledge.broken > profile.set_aside:
        facts = {"option": param("broken"), "broken": knowledge.broken, "game": profile.name,
                 "set_aside": profile.set_aside, "name": profile.set_aside_name}
        raise DeckstatError(tr("{option} {broken}: {game} sets only {set_aside} cards aside ({name})", **facts)
                            if profile.set_aside else
                            tr("{option} {broken}: {game} sets only {set_aside} cards aside", **facts))
    hidden = profile.set_aside - set_aside_known
    n_known = sum(k.size for k in known.values())
    library = deck.size - n_known - hidden
    if library < 0:
        raise DeckstatError(tr("{known} known cards and {hidden} unknown {name} are more than the {size} cards of the "
                               "deck", known=n_known, hidden=hidden, name=profile.set_aside_name, size=deck.size))
    _check_draws(rows, library, known, setup, hidden)
    compiled = setup.compiled
    cells = compiled.card_cells
    n_cells = len(compiled.cell_counts)
    draws = sorted({d for _, _, d in rows})
    probs = np.zeros(len(draws))
    for outcome, weight in cell_law(deck, cells, n_cells, known):
        unknown = compiled.cell_counts - sum(outcome.values())
        probs += weight * known_zone_odds(
            unknown, compiled.cell_membership, setup.condition(0), hand=outcome["hand"], draws=draws,
            bottom=outcome["bottom"], set_aside=outcome["set_aside"], hidden=hidden, broken=knowledge.broken,
            zone="set_aside" if zone == "set_aside" else "seen")
    by_draws = dict(zip(draws, np.clip(probs, 0.0, 1.0)))
    identity = {"deck": deck.name, "game": profile.id, "event": to_text(setup.events[0])}
    held = known["hand"].size + knowledge.broken
    records = []
    for seat, turn, d in rows:
        size = {"seen": held + d, "hand": held, "set_aside": knowledge.broken or profile.set_aside}[zone]
        p = float(by_draws[d])
        records.append({**identity, "seat": seat, "turn": turn, "draws": d, "zone": zone, "zone_size": size, "p": p,
                        "ci_low": p, "ci_high": p, "n_trials": None, "method": "exact"})
    table = frame(records, KNOWN_COLUMNS, integers=("n_trials", "zone_size", "turn"))
    counts = {z: k.size for z, k in known.items()}
    summary = frame([{**identity, **counts, "set_aside_unknown": hidden, "broken": knowledge.broken,
                      "library": library, "method": "exact"}], KNOWN_SUMMARY_COLUMNS, integers=())
    provenance = dict(setup.provenance)
    provenance.update({"known": {z: {"cards": counts[z], "described": text}
                                 for z, text in knowledge.described.items()},
                       "broken": knowledge.broken, "library": library})
    return table, summary, provenance


def _check_draws(rows, library: int, known: Mapping[str, KnownCards], setup: Setup, hidden: int) -> None:
    """Refuse rows that draw past the library and the bottom block, saying where the cards went."""
    profile = setup.profile
    left = library + known["bottom"].size
    over = [(seat, turn, d) for seat, turn, d in rows if d > left]
    if not over:
        return
    seat, turn, d = over[0]
    where = [tr(_KNOWN_IN[z], count=known[z].size) for z in ("hand", "gone", "set_aside") if known[z].size]
    if hidden:
        where.append(tr("{hidden} unknown {name}", hidden=hidden, name=profile.set_aside_name))
    accounted = tr(" ({size} cards − {known})", size=setup.deck.size, known=" − ".join(where)) if where else ""
    if turn is None:
        raise DeckstatError(tr("{option} {draws}: only {left} cards are left to draw{accounted}",
                               option=param("draws"), draws=d, left=left, accounted=accounted))
    last = max(t for t in range(turn) if _drawn(profile, seat, t) <= left)
    raise DeckstatError(tr("turn {turn} draws {draws} cards but only {left} are left to draw{accounted}; {option} can "
                           "go up to turn {last}", turn=turn, draws=d, left=left, accounted=accounted,
                           option=param("turns"), last=last))

