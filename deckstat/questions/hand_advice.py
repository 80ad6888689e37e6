"""Should I mulligan this hand? P(event by a turn) if it is kept, and if it is mulliganed, exact."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from deckstat.deck import Deck
from deckstat.errors import DeckstatError, param
from deckstat.games.profiles import Profile
from deckstat.i18n import N_, tr, trn
from deckstat.knowledge import cell_law, parse_known
from deckstat.questions.keep_policy import TIE, PolicyQuestion, best_replacement, prepare_policy
from deckstat.results import HandAdviceResult, frame

ADVICE_COLUMNS = ["deck", "game", "event", "hand", "seat", "turn", "mulligan_rule", "mulligan_limit", "p_keep",
                  "p_mulligan", "margin", "advice", "forced", "later", "method"]
#: Advice when the best cards to replace differ between the cards a hand given by group counts may be.
DEPENDS = N_("depends on which cards they are (see hand_cells)")


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

    Under the ``pokemon`` rule there is no choice: a hand that meets the keep
    rule is kept, any other is redealt; the advice says what the rule does
    (``forced``) and both values are still given. Under the ``hearthstone``
    rule the choice is which cards to replace: ``p_mulligan`` is the value of
    the best cards to replace (at least one; the fewest on a tie), the advice
    ``keep`` or ``replace: other=2`` (by group, like the hand).

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
        Keep rule for the hands after a mulligan (default: decided optimally);
        under ``pokemon``, the rule's keep rule (default: the profile's); not
        with ``hearthstone`` (one round, nothing decided after it).
    mulligan_rule, mulligan_limit, resource, allow_absent
        As in :func:`deckstat.keep_policy`.

    Returns
    -------
    HandAdviceResult
        ``table``: per seat, ``p_keep``, ``p_mulligan``, ``margin``,
        ``advice`` and whether the rule forces it (``forced``).

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
        raise DeckstatError(trn("the hand has {n} card, but a {game} opening hand has {size}",
                                "the hand has {n} cards, but a {game} opening hand has {size}", known.size,
                                game=profile.name, size=profile.hand_size), source=known.source)
    law = cell_law(drawn, compiled.card_cells, len(compiled.cell_counts), {"hand": known})
    if setup.rule == "hearthstone" and keep is not None:
        raise DeckstatError(tr("{option} sets how the hands after a mulligan are decided; the Hearthstone mulligan is "
                               "one round, with nothing decided after it", option=param("keep")))
    if setup.rule == "hearthstone":
        p_keep, p_mulligan, advice, per_outcome = _replacement_advice(question, law)
        forced = False
    else:
        later = question.keep_condition if keep is not None else None
        p_keep = np.zeros(len(engine.draws))
        p_mulligan = np.zeros(len(engine.draws))
        for outcome, p in law:
            cells = outcome["hand"]
            p_keep += p * engine.keep_value(cells)
            p_mulligan += p * engine.mulligan_value(cells, later)
        per_outcome = [{} for _ in law]
        forced = setup.rule == "pokemon"
        if forced:
            # The keep rule decides; a hand given by group counts may hold cards it reads differently.
            kept = {engine.kept_by(question.keep_condition, outcome["hand"]) for outcome, _ in law}
            decided = "keep" if kept == {True} else "mulligan" if kept == {False} else tr(DEPENDS)
            for extra, (outcome, _) in zip(per_outcome, law):
                extra["advice"] = "keep" if engine.kept_by(question.keep_condition, outcome["hand"]) else "mulligan"
            advice = [decided] * len(engine.draws)
        else:
            advice = ["keep" if p_keep[i] >= p_mulligan[i] - TIE else "mulligan" for i in range(len(engine.draws))]
    shown = known.text
    identity = {"deck": drawn.name, "game": profile.id, "event": question.event_text, "hand": shown}
    later_text = question.later_text(setup.keep_text if keep is not None else None)
    records = []
    for seat_name in question.per_seat:
        i = question.seat_index(seat_name)
        records.append({**identity, "seat": seat_name, "turn": question.turn, "mulligan_rule": setup.rule,
                        "mulligan_limit": setup.limit, "p_keep": float(p_keep[i]),
                        "p_mulligan": float(p_mulligan[i]), "margin": float(p_keep[i] - p_mulligan[i]),
                        "advice": advice[i], "forced": forced, "later": later_text, "method": "exact"})
    provenance = {**setup.provenance, "question": "hand_advice", "event": question.event_text,
                  "by_turn": question.turn, "hand": shown, "choice": question.choice_text, "later": later_text,
                  "hand_cells": [{"hand": question.hand_label(out["hand"]), "p": p, **extra}
                                 for (out, p), extra in zip(law, per_outcome)]}
    if keep is None and setup.rule != "pokemon":
        provenance["keep"] = None
    return HandAdviceResult(table=frame(records, ADVICE_COLUMNS, integers=("mulligan_limit",)),
                            provenance=provenance)


def _replacement_advice(question: PolicyQuestion, law) -> tuple[np.ndarray, np.ndarray, list[str], list[dict]]:
    """Hearthstone: keeping the hand whole, the best cards to replace, and the advice per value column.

    Each card the hand may be is seen by the player, who replaces the best
    cards for it: the value of replacing is the average of those best values.
    """
    engine = question.game
    n_draws = len(engine.draws)
    p_keep, p_replace = np.zeros(n_draws), np.zeros(n_draws)
    choices, per_outcome = [], []
    for outcome, p in law:
        replaced, values = engine.replacements(outcome["hand"])
        best = best_replacement(replaced, values)
        best_values = values[best, np.arange(n_draws)]
        p_keep += p * values[0]
        p_replace += p * best_values
        chosen = [question.replace_label(replaced[best[i]] if best_values[i] > values[0, i] + TIE
                                         else replaced[0]) for i in range(n_draws)]
        choices.append(chosen)
        per_outcome.append({"advice": {seat: chosen[question.seat_index(seat)] for seat in question.per_seat}
                            if len(question.per_seat) > 1 else chosen[0]})
    advice = []
    for i in range(n_draws):
        labels = {chosen[i] for chosen in choices}
        advice.append(labels.pop() if len(labels) == 1 else tr(DEPENDS))
    return p_keep, p_replace, advice, per_outcome
