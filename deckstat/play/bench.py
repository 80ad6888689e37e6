"""Licum: one card a turn to the bench, Substituts, and springs that fetch a named card.

Each turn a player may play one card from hand (an Improvisateur to the bench,
or a Condition); Shotes and Scuze, mais... are free. A Substitut is played by
taking an Improvisateur of the bench back to hand, so it needs one there. An
Improvisateur's *spring* fetches a named card from the game deck, which is
then played at once. The card column ``spring`` names the cards each
Improvisateur fetches.

The policy ``target`` plays the target when it can, otherwise an Improvisateur
whose spring fetches it, otherwise (only when a Substitut needs one) an
Improvisateur for the bench. Without Substituts a target's playability is an
event on the cards seen (:meth:`BenchModel.reduction`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from deckstat.deck import LIST_SEPARATOR, is_missing
from deckstat.errors import DeckstatError
from deckstat.i18n import tr
from deckstat.play.base import PlayModel, Reduction, Schedule, never, plays_on, record_first, seen_by_turn
from deckstat.text import fold

#: Card types of the game deck played from hand, as the rules text names them.
PLAYED_TYPES = ("Improvisateur", "Condition", "Scuze Mais", "Shote")
#: Preparation cards a game deck may hold: never played from hand.
PREPARATION_TYPES = ("Impro", "Avant-Match", "Entre-Période", "Difficulté")
#: Improvisateurs on the bench at once (the Entraîneur apart).
BENCH_LIMIT = 6
#: Improvisateurs the policy benches while waiting, so a spring's carrier and the card it fetches still fit.
FILLER_LIMIT = BENCH_LIMIT - 2


@dataclass
class BenchModel(PlayModel):
    """Licum's goldfish: one play a turn, the Substitut's swap, springs.

    Reads ``type``, ``tags`` (the roles ``Substitut`` and ``Entraineur``; a
    deck without tags has neither) and, when the deck has one, ``spring``
    (FR ``ressort``: names of the cards an Improvisateur fetches,
    ``;``-separated; names not in the game deck fetch nothing).

    A card in hand is playable when:

    * Condition, or Improvisateur other than a Substitut: always (it takes the
      turn's play; the policy keeps bench room for it);
    * Substitut: an Improvisateur is already on the bench to take back;
    * Shote, Scuze mais…: always, free (the goldfish assumes the moment the
      card answers comes);
    * Impro, Avant-Match, Entre-Période, Difficulté: never from hand.

    A card is also playable on the turn an Improvisateur whose spring names it
    is played (the spring fetches it from the deck and it is played at once).
    """

    kind: ClassVar[str] = "bench"

    def __post_init__(self) -> None:
        super().__post_init__()
        cards = self.deck.cards
        names = [str(n) for n in cards["name"]]
        n_rows = len(cards)
        deck = self.deck.with_synonyms(getattr(self.profile, "synonyms", None))
        kinds = {t: deck.mask(f'[type="{t}"]') for t in PLAYED_TYPES + PREPARATION_TYPES}
        known = np.logical_or.reduce(list(kinds.values())) if kinds else np.zeros(n_rows, bool)
        for row in np.flatnonzero(~known):
            value = cards["type"].iloc[row]
            shown = tr("no value") if is_missing(value) else tr("type {type!r}", type=str(value))
            raise DeckstatError(tr("column 'type': card {card!r} of the game deck has {found}; the bench model needs "
                                   "one of {types} (or a preparation type: {preparation})", card=names[row],
                                   found=shown, types=", ".join(PLAYED_TYPES),
                                   preparation=", ".join(PREPARATION_TYPES)))
        self.is_improvisateur = kinds["Improvisateur"]
        has_tags = "tags" in cards.columns
        self.is_substitut = self.is_improvisateur & (deck.mask("[tags=Substitut]") if has_tags else False)
        self.is_entraineur = self.is_improvisateur & (deck.mask("[tags=Entraineur]") if has_tags else False)
        #: Cards never played from hand.
        self.unplayable = np.logical_or.reduce([kinds[t] for t in PREPARATION_TYPES])
        folded = [fold(n) for n in names]
        #: fetches[c, r]: Improvisateur c's spring fetches card r.
        self.fetches = np.zeros((n_rows, n_rows), dtype=bool)
        if "spring" in cards.columns:
            for row, value in enumerate(cards["spring"]):
                if is_missing(value) or not str(value).strip():
                    continue
                if not self.is_improvisateur[row]:
                    raise DeckstatError(tr("column 'spring' (ressort): card {card!r} is a {type}, and only "
                                           "Improvisateurs have springs; leave its cell empty", card=names[row],
                                           type=cards["type"].iloc[row]))
                for item in str(value).split(LIST_SEPARATOR):
                    self.fetches[row] |= np.array([f == fold(item) for f in folded], dtype=bool)
        # The same Improvisateur twice on one bench is not allowed: fillers are counted by name.
        name_ids = {f: i for i, f in enumerate(dict.fromkeys(folded))}
        self._name_of = np.array([name_ids[f] for f in folded], dtype=np.int64)
        self._n_names = len(name_ids)

    def _plan(self, target: np.ndarray):
        """Which rows count for ``target`` under the policy: the target's own cards, its carriers, the fillers."""
        playable = target & ~self.unplayable
        carriers = self.fetches[:, playable].any(axis=1) & ~target
        needs_bench = (target | carriers) & self.is_substitut
        fillers = self.is_improvisateur & ~self.is_substitut & ~self.is_entraineur & ~target & ~carriers
        return playable & ~self.is_substitut, carriers, needs_bench, fillers

    def first_turns(self, hand: np.ndarray, library: np.ndarray, schedule: Schedule,
                    targets: Sequence[np.ndarray]) -> np.ndarray:
        """First turn each target is playable under the policy (see :meth:`PlayModel.first_turns`).

        Per trial the state is the cards seen (a card leaves the hand only when
        played, which ends the target's count) and, when a Substitut is
        involved, how many Improvisateurs the policy has benched.
        """
        n_trials = hand.shape[1]
        n_rows = self.n_rows
        first = np.full((len(targets), n_trials), never(schedule), dtype=np.int16)
        benched = np.zeros((len(targets), n_trials), dtype=np.int16)
        copies = self.deck.counts
        plans = []
        for target in targets:
            free, carriers, needs_bench, fillers = self._plan(target)
            playable = target & ~self.unplayable
            # Each carrier with the target cards its spring can fetch.
            springs = [(c, np.flatnonzero(self.fetches[c] & playable)) for c in np.flatnonzero(carriers)]
            by_name = np.zeros((self._n_names, n_rows), dtype=np.int16)
            by_name[self._name_of[fillers], np.flatnonzero(fillers)] = 1
            plans.append((np.flatnonzero(free), np.flatnonzero(target & needs_bench), springs,
                          bool(needs_bench.any()), by_name[by_name.any(axis=1)]))
        # A player with no card left plays on while the match lasts (« quand les deux joueurs n'ont plus de cartes à
        # tirer »): the schedule's last turn.
        for turn, seen in seen_by_turn(hand, library, schedule, n_rows, play_on=plays_on(self.profile)):
            for k, (free, substituts, springs, uses_bench, by_name) in enumerate(plans):
                has_bench = benched[k] >= 1
                playable = (seen[free] > 0).any(axis=0)
                if len(substituts):
                    playable |= (seen[substituts] > 0).any(axis=0) & has_bench
                for carrier, fetched in springs:
                    # A spring finds the card only while a copy is still in the deck.
                    in_deck = (copies[fetched][:, None] - seen[fetched]).sum(axis=0) > 0
                    ready = has_bench if self.is_substitut[carrier] else True
                    playable |= (seen[carrier] > 0) & ready & in_deck
                record_first(first[k], playable, turn)
                if uses_bench:
                    # The turn's play went to nothing better: bench an Improvisateur not yet there.
                    names_seen = ((by_name @ (seen > 0).astype(np.int16)) > 0).sum(axis=0)
                    bench = ~playable & (names_seen > benched[k]) & (benched[k] < FILLER_LIMIT)
                    benched[k] += bench
        return first

    def reduction(self, target: np.ndarray) -> Reduction | None:
        """``X or a carrier of X seen``, when no Substitut is involved (it needs an earlier play)."""
        free, carriers, needs_bench, _ = self._plan(target)
        # Without a Substitut, a carrier seen means the card it fetches is in the deck or in hand: either way
        # the target is played that turn.
        free = free | carriers
        if needs_bench.any() or not free.any():
            return None
        names = [str(self.deck.cards["name"].iloc[r]) for r in np.flatnonzero(free)]
        return Reduction(sets=(free.copy(),), caps=(1,), holds=lambda counts: counts[0] >= 1,
                         text=" or ".join(names) + " >= 1")
