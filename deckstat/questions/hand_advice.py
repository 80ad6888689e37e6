"""Should I mulligan this hand? P(event by a turn) if it is kept, and if it is mulliganed, exact."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from deckstat.deck import Deck
from deckstat.errors import DeckstatError
from deckstat.games.profiles import Profile
from deckstat.knowledge import cell_law, parse_known
from deckstat.questions.keep_policy import TIE, prepare_policy
from deckstat.results import HandAdviceResult, frame

ADVICE_COLUMNS = ["deck", "game", "event", "hand", "seat", "turn", "mulligan_rule", "mulligan_limit", "p_keep",
                  "p_mulligan", "margin", "advice", "later", "method"]


def hand_advice(deck: Deck, game: str | Profile, hand: str | Path | Deck, event: str | None = None, *,
                by_turn: int, seat: str = "both", keep: str | None = None, mulligan_rule: str | None = None,
                mulligan_limit: int | None = None, resource: str | None = None,
                allow_absent: bool = False) -> HandAdviceResult:
    """Keep or mulligan this opening hand, for an event by a turn.

    Keeping: P(event on the hand and the draws by ``by_turn``), the draws
    coming from the rest of the deck. Mulliganing: the hand goes where the
    rule puts it (under the deck for Wankul's bottom rule, where it is drawn
    again only after the rest; shuffled back for the others) and P(event by
    the turn) follows with the later hands kept or mulliganed, whichever is
    better, or by the keep rule ``keep`` when one is given. A hand given by
    group counts (``Terrain=1, other=4``) is averaged exactly over the cards
    it may be. Exact.

    Parameters
    ----------
    deck, game
        As in :func:`deckstat.odds`.
    hand : str, Path or Deck
        The opening hand: names (``"A, B, 2 C"``), a card file or decklist,
        or group counts (``"Terrain=1, [cost<=1]=0, other=4"``); see
        :func:`deckstat.knowledge.parse_known`. It must have the profile's
        hand size.
    event : str, optional
        The goal (default: the resource group ``>=1``, else the keep rule).
    by_turn : int
        Turn by which the event should hold.
    seat : {"both", "first", "second"}
    keep : str, optional
        Keep rule for the hands after a mulligan (default: decided optimally).
    mulligan_rule, mulligan_limit, resource, allow_absent
        As in :func:`deckstat.keep_policy`.

    Returns
    -------
    HandAdviceResult

    Examples
    --------
    Wankul, 10 Terrains in 50 cards, a hand without Terrain, a Terrain wanted by turn 1 (first player, one draw):
    keeping it leaves 10 Terrains among 45 cards, one draw: 10/45; a mulligan sees 6 of the other 45
    (the hand put back comes last), 1 - C(35,6)/C(45,6).

    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "Plaine", "count": 10, "type": "Terrain"},
    ...                                  {"name": "Héros", "count": 40, "type": "Personnage"}])
    >>> result = deckstat.hand_advice(deck, "wankul", "5 Héros", "Terrain>=1", by_turn=1, seat="first")
    >>> row = result.table.iloc[0]
    >>> round(float(row["p_keep"]), 4), round(float(row["p_mulligan"]), 4), row["advice"]
    (0.2222, 0.8007, 'mulligan')
    """
    question = prepare_policy(deck, game, event, by_turn=by_turn, seat=seat, keep=keep, mulligan_rule=mulligan_rule,
                              mulligan_limit=mulligan_limit, resource=resource, allow_absent=allow_absent)
    setup, engine, compiled = question.setup, question.game, question.compiled
    profile, drawn = setup.profile, setup.deck
    known = parse_known(hand, drawn, what="hand")
    if known.size != profile.hand_size:
        raise DeckstatError(f"the hand has {known.size} card{'s' if known.size != 1 else ''}, but a {profile.name} "
                            f"opening hand has {profile.hand_size}", source=known.source)
    law = cell_law(drawn, compiled.card_cells, len(compiled.cell_counts), {"hand": known})
    later = question.keep_condition if keep is not None else None
    p_keep = np.zeros(len(engine.draws))
    p_mulligan = np.zeros(len(engine.draws))
    for outcome, p in law:
        cells = outcome["hand"]
        p_keep += p * engine.keep_value(cells)
        p_mulligan += p * engine.mulligan_value(cells, later)
    shown = known.source.removeprefix("hand ")
    identity = {"deck": drawn.name, "game": profile.id, "event": question.event_text, "hand": shown}
    later_text = question.later_text(setup.keep_text if keep is not None else None)
    records = []
    for seat_name in question.per_seat:
        i = question.seat_index(seat_name)
        keeps = p_keep[i] >= p_mulligan[i] - TIE
        records.append({**identity, "seat": seat_name, "turn": question.turn, "mulligan_rule": setup.rule,
                        "mulligan_limit": setup.limit, "p_keep": float(p_keep[i]),
                        "p_mulligan": float(p_mulligan[i]), "margin": float(p_keep[i] - p_mulligan[i]),
                        "advice": "keep" if keeps else "mulligan", "later": later_text, "method": "exact"})
    provenance = {**setup.provenance, "question": "hand_advice", "event": question.event_text,
                  "by_turn": question.turn, "hand": shown, "later": later_text,
                  "hand_cells": [{"hand": question.hand_label(out["hand"]), "p": p} for out, p in law]}
    if keep is None:
        provenance["keep"] = None
    return HandAdviceResult(table=frame(records, ADVICE_COLUMNS, integers=("mulligan_limit",)),
                            provenance=provenance)

