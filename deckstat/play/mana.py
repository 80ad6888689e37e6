"""Duel Masters: mana zone, civilizations and evolution creatures.

Each turn the player untaps, draws (not on the first player's first turn),
puts at most one card from hand into the mana zone, then casts. A card in the
mana zone gives its *mana number* (« leur chiffre de mana », 1 on every card
of the French base set; the ``mana_number`` column when the deck has one) of
mana of its civilizations. A cost ``c`` is paid with ``c`` mana, at least one
of each of the card's civilizations. A multicolour card in the mana zone
enters tapped (it gives no mana the turn it is charged) and then counts as
each of its civilizations. An evolution creature also needs a creature sharing one of
its races (or its ``evolves_from`` races) in the battle zone: cast on an
earlier turn, or the same turn when the mana pays for both.

State per trial: hand counts per card (rows), mana per *kind* (the distinct
civilization sets of the deck), the kind charged this turn (tapped)
and whether a base creature is in the battle zone. Paying is checked against
*covers*: the minimal sets of kinds holding every civilization a card asks
for; a payment (one card, or a base and its evolution the same turn) is
possible when the untapped mana is enough in total and holds, for one choice
of covers, the kinds they use (disjoint between the two cards).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from deckstat.deck import LIST_SEPARATOR, is_missing
from deckstat.errors import DeckstatError
from deckstat.i18n import number as number_text
from deckstat.i18n import tr
from deckstat.parsing import whole_number
from deckstat.play.base import PlayModel, Reduction, Schedule, effect_positions, never
from deckstat.schema import canonical_columns
from deckstat.terms import MAX_COPIES
from deckstat.text import fold

_EVOLUTION_WORDS = ("evolution", "evoluee", "evolue")
_CREATURE_WORD = "creature"
_TRUE_WORDS = ("1", "1.0", "true", "oui", "yes", "vrai")
#: Charging priority tiers: cards that are neither target nor base go first, target copies last.
_PLAIN, _BASE, _TARGET = 0, 1, 2


def _items(value: object) -> list[str]:
    if is_missing(value):
        return []
    return [v.strip() for v in str(value).split(LIST_SEPARATOR) if v.strip()]


@dataclass
class ManaModel(PlayModel):
    """Duel Masters goldfish: one charge a turn, civilization requirements, evolutions.

    Reads ``cost`` (every card), ``civilization`` (every card: any card can be
    charged), ``type`` and ``race`` (creatures and evolutions), optional
    ``is_evolution`` (0/1), ``evolves_from`` (the race(s) an evolution is put
    on) and ``mana_number`` (FR ``chiffre de mana``, or ``mana`` beside a
    ``cost`` column: the mana a card gives in the mana zone; 1 for every card
    when the deck has no such column, as :meth:`notes` says).

    Examples
    --------
    >>> import numpy as np, deckstat
    >>> from deckstat.games.profiles import get_profile
    >>> from deckstat.play.base import schedule
    >>> profile = get_profile("duel-masters")
    >>> deck = deckstat.Deck.from_table([
    ...     {"name": "Dragon", "count": 1, "type": "Créature", "civilization": "Feu", "race": "Dragon", "cost": 2},
    ...     {"name": "Flamme", "count": 39, "type": "Sort", "civilization": "Feu", "cost": 5}])
    >>> model = ManaModel(deck, profile)
    >>> hand = np.array([[0], [1], [1], [1], [1]]); library = np.ones((30, 1), dtype=np.int16)
    >>> model.first_turns(hand, library, schedule(profile, "first", 3, 30), [np.array([True, False])]).tolist()
    [[2]]
    """

    kind: ClassVar[str] = "mana"
    plays_draw_effects: ClassVar[bool] = True

    def __post_init__(self) -> None:
        super().__post_init__()
        cards = self.deck.cards
        labels = self.deck.labels
        synonyms = getattr(self.deck, "synonyms", None)

        def canonical(column: str, text: str) -> str:
            if synonyms:
                return min(synonyms.equivalents(column, text))
            return fold(text)

        def require(column: str, french: str, why: str) -> list:
            if column not in cards.columns:
                raise DeckstatError(tr("the deck has no column {column!r} ({french}); the mana model needs {why}: "
                                       "add a {french!r} column", column=column, french=french, why=why))
            return list(cards[column])

        costs = []
        for label, value in zip(labels, require("cost", "coût", tr("every card's cost"))):
            number = None if is_missing(value) else whole_number(value, most=MAX_COPIES)
            if number is None:
                shown = tr("no value") if is_missing(value) else tr("cost {cost!r}", cost=value)
                raise DeckstatError(tr("column 'cost' (coût): card {card!r} has {found}; the mana model needs every "
                                       "card's cost as a whole number from 0 to {most} (fill in the coût column)",
                                       card=label, found=shown, most=number_text(MAX_COPIES)))
            costs.append(number)
        self.costs = np.asarray(costs, dtype=np.int64)

        #: The column the mana numbers were read from (``None``: none, every card gives 1).
        self.mana_column = next((c for c, canonical in zip(cards.columns, canonical_columns([str(c) for c in
                                 cards.columns])) if canonical == "mana_number"), None)
        mana_numbers = []
        for label, value in zip(labels, cards[self.mana_column] if self.mana_column is not None
                                else [1] * len(cards)):
            blank = is_missing(value) or not str(value).strip()
            number = None if blank else whole_number(value, most=MAX_COPIES)
            if number is None:
                shown = tr("no value") if blank else tr("mana number {value!r}", value=value)
                raise DeckstatError(tr("column {column!r} (chiffre de mana): card {card!r} has {found}; the mana "
                                       "model needs every card's mana number as a whole number from 0 to {most} "
                                       "(fill in the column, or remove it: without it every card gives 1 mana)",
                                       column=str(self.mana_column), card=label, found=shown,
                                       most=number_text(MAX_COPIES)))
            mana_numbers.append(number)
        #: The mana each card gives in the mana zone (« leur chiffre de mana »).
        self.mana_numbers = np.asarray(mana_numbers, dtype=np.int64)

        civ_sets, civ_lists = [], []  # civ_lists: in the order the cell writes them
        for label, value in zip(labels, require("civilization", "civilisation",
                                                tr("every card's civilization (any card can be charged as mana)"))):
            items = _items(value)
            if not items:
                raise DeckstatError(tr("column 'civilization' (civilisation): card {card!r} has no value; the mana "
                                       "model needs every card's civilization (any card can be charged as mana), "
                                       "e.g. Feu, or Feu;Nature for a multicolour card", card=label))
            civ_lists.append(list(dict.fromkeys(canonical("civilization", v) for v in items)))
            civ_sets.append(frozenset(civ_lists[-1]))
        self.card_civs = civ_sets
        self.civ_order = civ_lists
        #: Mana kinds: the distinct civilization sets, mono-civilization ones first.
        self.kinds = sorted(set(civ_sets), key=lambda s: (len(s), sorted(s)))
        self.row_kind = np.asarray([self.kinds.index(s) for s in civ_sets], dtype=np.int64)
        self.multicolour_kind = np.asarray([len(s) > 1 for s in self.kinds])

        types = [fold(v) if not is_missing(v) else "" for v in cards["type"]] if "type" in cards.columns \
            else [""] * len(cards)
        flags = [False] * len(cards)
        if "is_evolution" in cards.columns:
            flags = [not is_missing(v) and fold(v) in _TRUE_WORDS for v in cards["is_evolution"]]
        self.is_evolution = np.asarray([flag or any(w in t for w in _EVOLUTION_WORDS)
                                        for flag, t in zip(flags, types)])
        self.is_creature = np.asarray([_CREATURE_WORD in t for t in types]) | self.is_evolution
        races = ([[canonical("race", r) for r in _items(v)] for v in cards["race"]] if "race" in cards.columns
                 else [[] for _ in range(len(cards))])
        evolves = ([[canonical("race", r) for r in _items(v)] for v in cards["evolves_from"]]
                   if "evolves_from" in cards.columns else [[] for _ in range(len(cards))])
        self.base_races = []
        for label, evolution, own, wanted in zip(labels, self.is_evolution, races, evolves):
            needed = set(wanted or own) if evolution else set()
            if evolution and not needed:
                raise DeckstatError(tr("column 'race': evolution creature {card!r} has no race; the mana model needs "
                                       "the race it evolves from (fill in race, or an evolves_from / évolue_de "
                                       "column)", card=label))
            self.base_races.append(needed)
        plain_creature = self.is_creature & ~self.is_evolution
        #: bases[r]: the non-evolution creatures an evolution r can be put on (all False for other cards).
        self.bases = np.zeros((len(cards), len(cards)), dtype=bool)
        for r, needed in enumerate(self.base_races):
            if needed:
                self.bases[r] = plain_creature & np.asarray([bool(needed & set(own)) for own in races])
        self._covers_cache: dict = {}
        self._needs_cache: dict = {}

    def notes(self) -> list[str]:
        """What the model assumed of this deck: every card's mana number is 1 when the deck does not give them."""
        if self.mana_column is None:
            return [tr("the deck has no mana-number column ('chiffre de mana', 'mana_number', or 'mana' beside a "
                       "cost column): every card is assumed to give 1 mana, as every card of the French base set "
                       "does")]
        return []

    # -- paying -------------------------------------------------------------------------------------------------

    def _covers(self, row: int) -> list[tuple[int, ...]]:
        """Minimal sets of mana kinds holding every civilization of ``row``, at most ``cost`` of them."""
        if row not in self._covers_cache:
            wanted, cost = self.card_civs[row], int(self.costs[row])
            found: list[frozenset] = []
            if cost == 0:
                found = [frozenset()]
            else:
                useful = [k for k, s in enumerate(self.kinds) if s & wanted]
                for size in range(1, min(len(wanted), cost) + 1):
                    for combo in itertools.combinations(useful, size):
                        if set().union(*(self.kinds[k] for k in combo)) >= wanted and \
                                not any(f <= set(combo) for f in found):
                            found.append(frozenset(combo))
            self._covers_cache[row] = [tuple(sorted(f)) for f in found]
        return self._covers_cache[row]

    def _needs(self, rows: Sequence[int]) -> list[np.ndarray]:
        """Kind counts that pay the civilizations of ``rows`` together (one cover each, disjoint)."""
        key = tuple(int(r) for r in rows)
        if key not in self._needs_cache:
            self._needs_cache[key] = self._find_needs(key)
        return self._needs_cache[key]

    def _find_needs(self, rows: tuple[int, ...]) -> list[np.ndarray]:
        needs = []
        for combo in itertools.product(*(self._covers(r) for r in rows)):
            need = np.zeros(len(self.kinds), dtype=np.int64)
            for cover in combo:
                np.add.at(need, list(cover), 1)
            if not any((other <= need).all() for other in needs):
                needs = [other for other in needs if not (need <= other).all()] + [need]
        return needs

    def _payable(self, untapped: np.ndarray, total: np.ndarray, rows: Sequence[int]) -> np.ndarray:
        """Whether the untapped mana pays for ``rows`` together, per trial."""
        ok = total >= int(self.costs[list(rows)].sum())
        any_need = np.zeros_like(ok)
        for need in self._needs(rows):
            kinds = np.flatnonzero(need)
            fits = np.ones_like(ok)
            for k in kinds:
                fits &= untapped[k] >= need[k]
            any_need |= fits
        return ok & any_need

    # -- the game -----------------------------------------------------------------------------------------------

    def first_turns(self, hand: np.ndarray, library: np.ndarray, schedule: Schedule,
                    targets: Sequence[np.ndarray], effect_draws: np.ndarray | None = None) -> np.ndarray:
        """First playable turn of each target (see :meth:`PlayModel.first_turns`), the policy aiming at that target.

        ``effect_draws``: the cards each row's draw effects draw. Each turn, after its draw and before the charge,
        the player plays every card in hand whose draws are not played yet, its cost left aside (the card stays in
        hand), the cards drawn playing theirs (:func:`~deckstat.play.base.effect_positions`).
        """
        n = hand.shape[1]
        hand, library = np.asarray(hand), np.asarray(library)
        # Library cards drawn by each turn 0..max_turn, per trial.
        if effect_draws is None:
            reach = np.broadcast_to(np.asarray(schedule.drawn, dtype=np.int64)[:, None], (schedule.max_turn + 1, n))
        else:
            reach = np.vstack([np.zeros((1, n), dtype=np.int64),
                               effect_positions(hand, library, schedule.drawn[1:], effect_draws)])
        out = np.empty((len(targets), n), dtype=np.int16)
        for i, target in enumerate(targets):
            out[i] = self._first_turns_one(hand, library, schedule, np.asarray(target, dtype=bool), reach,
                                           effect_draws is not None)
        return out

    def _first_turns_one(self, hand_rows: np.ndarray, library: np.ndarray, schedule: Schedule,
                         target: np.ndarray, reach: np.ndarray, uneven: bool) -> np.ndarray:
        n_rows, n = self.n_rows, hand_rows.shape[1]
        first = np.full(n, never(schedule), dtype=np.int16)
        target_rows = np.flatnonzero(target)
        if len(target_rows) == 0:
            return first
        evolutions = [r for r in target_rows if self.is_evolution[r]]
        base_mask = self.bases[evolutions].any(axis=0) if evolutions else np.zeros(n_rows, dtype=bool)
        base_rows = np.flatnonzero(base_mask)
        # Bases by increasing cost: the policy casts the cheapest one it can pay.
        base_rows = base_rows[np.argsort(self.costs[base_rows], kind="stable")]

        # A row's copies in hand never exceed the cards seen: int8 halves the memory traffic when they fit.
        most_drawn = int(reach[-1].max(initial=0))
        small = hand_rows.shape[0] + most_drawn < 127
        count_type = np.int8 if small else np.int16
        trials = np.arange(n)
        hand = np.zeros((n_rows, n), dtype=count_type)
        for position in range(hand_rows.shape[0]):
            hand[hand_rows[position], trials] += 1
        # Mana is counted in mana, not cards: a card gives its mana number.
        most_mana = int(self.mana_numbers.max(initial=1)) * (hand_rows.shape[0] + most_drawn)
        mana_type = next(t for t in (np.int8, np.int16, np.int32, np.int64) if most_mana <= np.iinfo(t).max)
        mana = np.zeros((len(self.kinds), n), dtype=mana_type)
        total_type = np.promote_types(mana_type, np.int16)
        gives = self.mana_numbers.astype(mana.dtype)
        has_multicolour = bool(self.multicolour_kind.any())
        # Which base creatures are in the battle zone; `zone`: any of them.
        in_zone = {int(b): np.zeros(n, dtype=bool) for b in base_rows}
        zone = np.zeros(n, dtype=bool)
        # The games still followed (trial numbers): a game whose target was played is dropped once enough are.
        alive = trials
        pending = np.ones(n, dtype=bool)

        policy = _CivFirst(self, target, base_mask, base_rows) if self.policy == "civ_first" else \
            _FirstDrawn(hand_rows, library, most_drawn, target)
        size = library.shape[0]
        for turn in range(1, schedule.max_turn + 1):
            if uneven:
                before, drawn = reach[turn - 1][alive], reach[turn][alive]
                # The last card of the deck drawn: the game is lost, nothing more is played.
                pending &= ~((drawn >= size) & (drawn > before))
            else:
                before, drawn = int(schedule.drawn[turn - 1]), int(schedule.drawn[turn])
                if drawn >= size and drawn > before:
                    break  # the last card of the deck was drawn: the game is lost
            # Flat views: hand_flat[row * n + trial] adds one card per trial at half the cost of hand[row, trials].
            hand_flat, mana_flat = hand.reshape(-1), mana.reshape(-1)
            if uneven:
                for position in range(int(before.min(initial=0)), int(drawn.max(initial=0))):
                    taken = ((position >= before) & (position < drawn)).astype(hand.dtype)
                    cards = library[position][alive]
                    hand_flat[cards.astype(np.int64) * n + trials] += taken
            else:
                for position in range(before, drawn):
                    cards = library[position] if len(alive) == len(first) else library[position][alive]
                    hand_flat[cards.astype(np.int64) * n + trials] += 1
            charged = policy.choose(hand, mana, zone, drawn)
            charging = charged >= 0
            rows = np.where(charging, charged, 0)
            hand_flat[rows * n + trials] -= charging
            kinds = self.row_kind[rows]
            gained = charging * gives[rows]
            mana_flat[kinds * n + trials] += gained
            untapped = mana
            if has_multicolour:
                untapped = mana.copy()
                untapped[kinds, trials] -= gained * self.multicolour_kind[kinds]
            total = untapped.sum(axis=0, dtype=total_type)
            playable = np.zeros(n, dtype=bool)
            for r in target_rows:
                in_hand = hand[r] > 0
                if not self.is_evolution[r]:
                    playable |= in_hand & self._payable(untapped, total, [r])
                    continue
                on_zone = np.zeros(n, dtype=bool)
                together = np.zeros(n, dtype=bool)
                for b in np.flatnonzero(self.bases[r]):
                    on_zone |= in_zone[int(b)]
                    together |= (hand[b] > 0) & self._payable(untapped, total, [b, r])
                on_zone &= self._payable(untapped, total, [r])
                playable |= in_hand & (on_zone | together)
            hit = playable & pending
            first[alive[hit]] = turn
            pending &= ~hit
            if len(base_rows):
                # Put a base on the battle zone for the turns to come (the cheapest the mana pays).
                cast = np.full(n, -1, dtype=np.int64)
                for b in base_rows[::-1]:
                    fits = ~zone & (hand[b] > 0) & self._payable(untapped, total, [b])
                    cast = np.where(fits, b, cast)
                casting = cast >= 0
                hand[np.where(casting, cast, 0), trials] -= casting
                for b in base_rows:
                    in_zone[int(b)] |= cast == b
                zone |= casting
                policy.cast(cast)
            left = int(np.count_nonzero(pending))
            if left == 0:
                break
            if left < 0.75 * n and turn < schedule.max_turn:
                keep = np.flatnonzero(pending)
                # take() gives C-contiguous arrays, so the flat views below stay views.
                alive, pending, zone = alive[keep], pending[keep], zone[keep]
                hand, mana = hand.take(keep, axis=1), mana.take(keep, axis=1)
                in_zone = {b: games[keep] for b, games in in_zone.items()}
                policy.keep(keep)
                n, trials = len(keep), np.arange(len(keep))
        return first

    # -- exact answers ------------------------------------------------------------------------------------------

    def reduction(self, target: np.ndarray) -> Reduction | None:
        """Exact event for one mono-civilization, non-evolution card under ``civ_first``.

        Claim: when every card of the deck has one civilization (nothing
        enters the mana zone tapped) and gives 1 mana, the hand holds at least 2 cards when a
        turn's charge is made, and the deck is not empty, card ``X`` of
        civilization ``C`` and cost ``c >= 1`` is playable on turn ``t``
        exactly when ``t >= c``, at least one ``X`` has been seen and at least
        two ``C`` cards (``X``'s copies included) have been seen.

        Proof. The policy casts nothing for ``X`` and charges every turn: a
        turn's charge finds ``hand_size`` cards in hand (one draw and one charge
        a turn), of which only the last ``X`` is kept, so the mana zone holds
        ``t`` untapped cards on turn ``t``. Every seen card is in hand or mana.
        If: ``X`` seen is in hand (its last copy is never charged); if no ``C``
        card is in mana when turn ``t``'s charge comes, the two seen ``C`` cards
        are in hand and one of them is not the last ``X``, so the policy, which
        charges a missing civilization first, charges it; ``t >= c`` mana with a
        ``C`` among them pays. Only if: playing needs ``X`` in hand (seen),
        ``c`` mana after ``t`` charges (``t >= c``) and a ``C`` card in mana
        besides the ``X`` in hand (a second ``C`` card seen). A cost of 0 needs
        only ``X`` in hand. The event does not see the deck running out (turn 31
        and later for a 40-card deck on the play).
        """
        rows = np.flatnonzero(target)
        if self.policy != "civ_first" or len(rows) != 1 or self.profile.hand_size < 2 or \
                self.profile.draws_per_turn < 1 or (self.mana_numbers != 1).any():
            return None
        x = int(rows[0])
        if self.is_evolution[x] or self.multicolour_kind.any():
            return None
        name = self.deck.labels[x]
        x_mask = np.zeros(self.n_rows, dtype=bool)
        x_mask[x] = True
        cost = int(self.costs[x])
        if cost == 0:
            return Reduction(sets=(x_mask,), caps=(1,), holds=lambda counts: counts[0] >= 1, from_turn=1,
                             text=f"{name} >= 1")
        (civ,) = self.card_civs[x]
        civ_mask = np.asarray([civ in s for s in self.card_civs])
        spelled = self.deck.cards["civilization"].iloc[x]
        return Reduction(sets=(x_mask, civ_mask), caps=(1, 2),
                         holds=lambda counts: (counts[0] >= 1) & (counts[1] >= 2), from_turn=cost,
                         text=f"{name} >= 1 and [civilization={spelled}] >= 2, from turn {cost}")


class _CivFirst:
    """The default charge: a missing civilization first, else plain cards (most mana first), never the last."""

    def __init__(self, model: ManaModel, target: np.ndarray, base_mask: np.ndarray, base_rows: np.ndarray):
        tier = np.where(target, _TARGET, np.where(base_mask, _BASE, _PLAIN))
        # Within a tier, the largest mana number first, then the most expensive.
        self.order = np.lexsort((np.arange(model.n_rows), -model.costs, -model.mana_numbers, tier))
        self.target_sorted = np.flatnonzero(target[self.order])
        self.base_sorted = np.flatnonzero(base_mask[self.order])
        self.target_rows, self.base_rows = np.flatnonzero(target), base_rows
        wanted = []  # civilizations the target and its bases need, the target's first
        for r in list(self.target_rows) + list(base_rows):
            wanted += [c for c in model.civ_order[r] if c not in wanted]
        # Per wanted civilization (last first, so the first overrides): positions in `order` of the cards
        # bringing it (a card whose mana number is 0 brings no mana, so no civilization), and the mana kinds
        # holding it.
        self.bringers = [(np.flatnonzero([c in model.card_civs[r] and model.mana_numbers[r] > 0 for r in self.order]),
                          np.asarray([c in s for s in model.kinds])) for c in reversed(wanted)]
        self.bringers = [(rows, kinds) for rows, kinds in self.bringers if len(rows)]
        # Rank weights (highest first): a max over the weighted eligible cards picks the first in `order`.
        self.weights = np.arange(model.n_rows, 0, -1, dtype=np.int8 if model.n_rows < 127 else np.int32)[:, None]
        # The card of each weight, and -1 for "nothing to charge" (weight 0).
        self.by_weight = np.concatenate([[-1], self.order[::-1]])

    def choose(self, hand, mana, zone, drawn):
        eligible = hand[self.order] > 0
        eligible[self.target_sorted] &= hand[self.target_rows].sum(axis=0) >= 2
        if len(self.base_sorted):
            eligible[self.base_sorted] &= zone | (hand[self.base_rows].sum(axis=0) >= 2)
        score = eligible * self.weights
        best = score.max(axis=0)
        for rows, kinds in self.bringers:
            missing = mana[kinds].sum(axis=0) == 0
            bringing = score[rows].max(axis=0)
            np.copyto(best, bringing, where=missing & (bringing > 0))
        return self.by_weight[best]

    def cast(self, rows):
        pass

    def keep(self, games):
        pass


class _FirstDrawn:
    """The naive charge: the card in hand longest that is not a target card."""

    def __init__(self, hand_rows: np.ndarray, library: np.ndarray, most_drawn: int, target: np.ndarray):
        self.dealt = np.concatenate([hand_rows, library[:most_drawn]]).astype(np.int64)
        self.gone = np.zeros(self.dealt.shape, dtype=bool)
        self.kept = target[self.dealt]
        self.opening = hand_rows.shape[0]

    def choose(self, hand, mana, zone, drawn):
        """The card to charge per trial (-1: none); ``drawn``: library cards drawn, one number or per trial."""
        if np.ndim(drawn) == 0:
            reachable = self.opening + drawn
            free = ~self.gone[:reachable] & ~self.kept[:reachable]
        else:
            reachable = self.opening + int(np.max(drawn, initial=0))
            held = np.arange(reachable)[:, None] < self.opening + np.asarray(drawn)[None, :]
            free = ~self.gone[:reachable] & ~self.kept[:reachable] & held
        found = free.any(axis=0)
        at = np.argmax(free, axis=0)
        trials = np.arange(free.shape[1])
        self.gone[at[found], trials[found]] = True
        return np.where(found, self.dealt[at, trials], -1)

    def cast(self, rows):
        """Mark the longest-held copy of ``rows`` (per trial, -1 for none) as out of hand."""
        has = rows >= 0
        at = np.argmax((self.dealt == rows[None, :]) & ~self.gone, axis=0)
        self.gone[at[has], np.flatnonzero(has)] = True

    def keep(self, games):
        self.dealt, self.gone, self.kept = self.dealt[:, games], self.gone[:, games], self.kept[:, games]
