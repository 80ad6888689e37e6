"""Pandrea's goldfish: Logistique cards in play pay for Unités and Stratégies every turn.

The turn followed (a simultaneous turn, one player, no opponent): draw, put
Logistique cards into play (``logistics_per_turn`` of them, the largest
producers first), then recruit. Every card in play is untapped by the reset
phase, so the logistics in play pay again each turn: a Unité or Stratégie of
cost ``c`` in hand can be played when the Logistique cards in play produce at
least ``c`` (plus the entrepôt's point once a peasant is in play). A Logistique
target is playable as soon as it is in hand: it is the turn's card put into
play. docs/play/pandrea.md gives every assumption with its rules-text quote.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd

from deckstat.deck import is_missing
from deckstat.errors import DeckstatError
from deckstat.i18n import tr
from deckstat.parsing import whole_number
from deckstat.play.base import PlayModel, Reduction, Schedule, never, record_first
from deckstat.text import fold, format_number, suggest

#: Spellings of an unlimited ``logistics_per_turn``.
UNLIMITED = ("any", "illimite", "unlimited")
#: Settings the model reads from ``[play_model]``, with their defaults.
DEFAULT_SETTINGS: dict[str, object] = {"logistics_per_turn": 1, "warehouse_points": 1,
                                       "peasants": "[name~paysan]"}
#: Production of a Logistique card when the deck has no ``logistics`` column.
DEFAULT_PRODUCTION = 1


def _shown(value: object) -> str:
    return format_number(value) if isinstance(value, (int, float, np.number)) else repr(str(value))


@dataclass
class LogisticsModel(PlayModel):
    """Pandrea: one Logistique card into play per turn, units paid by the logistics in play.

    Settings (``[play_model]`` of the profile): ``logistics_per_turn`` (a whole
    number of at least 1, or ``"any"``), ``warehouse_points`` (what the
    entrepôt gives while an allied peasant is in play; 0 turns it off) and
    ``peasants`` (the group of Unités that are peasants).

    Columns read: ``type`` (Unité, Logistique, Stratégie), ``cost`` of every
    Unité and Stratégie, and ``logistics`` (French ``logistique``,
    ``production``) of every Logistique card when the deck has that column
    (each Logistique produces 1 otherwise).

    Examples
    --------
    >>> import numpy as np
    >>> from deckstat.cards import load_deck
    >>> from deckstat.games.profiles import get_profile
    >>> from deckstat.play.base import schedule
    >>> profile = get_profile("pandrea")
    >>> deck = profile.drawn_deck(load_deck("data/pandrea/sample_deck.csv")).with_synonyms(profile.synonyms)
    >>> model = LogisticsModel(deck, profile, settings=profile.play_model.settings)
    >>> golem = deck.mask('"Golem de Pavés"')  # a Unité of cost 4
    >>> hand = np.array([[6], [9], [10], [11], [0]])  # the Golem, three Logistique cards, a peasant
    >>> library = np.array([[12], [1], [2], [3], [4]])  # a fourth Logistique card on top
    >>> model.first_turns(hand, library, schedule(profile, "first", 5, 5), [golem]).tolist()
    [[4]]
    """

    kind: ClassVar[str] = "logistics"

    def __post_init__(self) -> None:
        super().__post_init__()
        self._read_settings()
        deck = self.deck.with_synonyms(getattr(self.profile, "synonyms", None))
        table = deck.cards
        self.is_logistics = deck.mask("[type=Logistique]")
        is_unit = deck.mask("[type=Unité]")
        costed = is_unit | deck.mask("[type=Stratégie]")
        for row in np.flatnonzero(~(self.is_logistics | costed)):
            value = table["type"].iloc[row]
            found = tr("no value") if is_missing(value) else tr("type {type!r}", type=str(value))
            raise DeckstatError(tr("column 'type': card {card!r} has {found}; the logistics play model reads Unité, "
                                   "Logistique and Stratégie cards (English Unit, Logistics, Strategy)",
                                   card=table["name"].iloc[row], found=found), source=deck.source)
        self.cost = np.zeros(self.n_rows, dtype=np.int64)
        if costed.any() and "cost" not in table.columns:
            raise DeckstatError(tr("column 'cost' (coût) is missing; the logistics play model needs the cost of "
                                   "every Unité and Stratégie"), source=deck.source)
        for row in np.flatnonzero(costed):
            self.cost[row] = self._number(table, "cost", "coût", row, tr("the cost of every Unité and Stratégie"))
        self.production = np.where(self.is_logistics, DEFAULT_PRODUCTION, 0).astype(np.int64)
        if "logistics" in table.columns:
            for row in np.flatnonzero(self.is_logistics):
                self.production[row] = self._number(
                    table, "logistics", "logistique", row,
                    tr("the production of every Logistique card (or no column at all: each then produces 1)"))
        # Largest producer first, then the lowest row: the card the policy puts into play.
        logistics_rows = np.flatnonzero(self.is_logistics)
        self._drop_order = logistics_rows[np.argsort(-self.production[logistics_rows], kind="stable")]
        # The peasant group is read only by the policy that recruits peasants.
        peasants = deck.mask(self.peasant_group) & is_unit if self.policy == "peasant" else np.zeros_like(is_unit)
        peasant_rows = np.flatnonzero(peasants)
        self._peasant_order = peasant_rows[np.argsort(self.cost[peasant_rows], kind="stable")]
        self._warehouse_on = self.warehouse_points > 0 and len(self._peasant_order) > 0

    def _read_settings(self) -> None:
        where = f"{getattr(self.profile, 'path', '') or getattr(self.profile, 'id', 'profile')} [play_model]"
        for key in self.settings:
            if key not in DEFAULT_SETTINGS:
                raise DeckstatError(tr("unknown setting {key!r} for the logistics play model; expected {choices}",
                                       key=key, choices=", ".join(DEFAULT_SETTINGS))
                                    + suggest(key, list(DEFAULT_SETTINGS)), source=where)
        settings = {**DEFAULT_SETTINGS, **self.settings}
        per_turn = settings["logistics_per_turn"]
        if isinstance(per_turn, str) and fold(per_turn) in UNLIMITED:
            self.per_turn = None
        elif isinstance(per_turn, int) and not isinstance(per_turn, bool) and per_turn >= 1:
            self.per_turn = per_turn
        else:
            raise DeckstatError(tr("'logistics_per_turn' must be a whole number of at least 1 or \"any\", got "
                                   "{value!r}", value=per_turn), source=where)
        points = settings["warehouse_points"]
        if not isinstance(points, int) or isinstance(points, bool) or points < 0:
            raise DeckstatError(tr("'warehouse_points' must be a whole number of at least 0, got {value!r}",
                                   value=points), source=where)
        self.warehouse_points = points
        if not isinstance(settings["peasants"], str):
            raise DeckstatError(tr("'peasants' must be a group such as \"[name~paysan]\", got {value!r}",
                                   value=settings["peasants"]), source=where)
        self.peasant_group = settings["peasants"]

    def _number(self, table: pd.DataFrame, column: str, french: str, row: int, needed: str) -> int:
        value = table[column].iloc[row]
        number = whole_number(value)
        if number is None:
            name = table["name"].iloc[row]
            found = tr("no value") if is_missing(value) or not str(value).strip() else _shown(value)
            raise DeckstatError(tr("column {column!r} ({french}): card {card!r} has {found}; the logistics play model "
                                   "needs {needed}, as a whole number of at least 0", column=column, french=french,
                                   card=name, found=found, needed=needed), source=self.deck.source)
        return number

    def _last_turn(self, schedule: Schedule, library_size: int) -> int:
        """The last turn the player plays before losing to an empty library.

        Pandrea (« il joue le tour normalement mais si à la fin du tour il n'a
        toujours pas gagné, alors il perd par usure ») plays the turn whose draw
        fails; under the other deck-out rules that turn is not played.
        """
        profile = self.profile
        if getattr(profile, "deckout", "none") == "none":
            return schedule.max_turn
        shift = 1 if getattr(profile, "draw_step", "start") == "end" else 0
        for turn in range(1, schedule.max_turn + 1):
            if profile.draws_by_turn(turn - shift, schedule.seat) > library_size:
                return turn if profile.deckout == "lose_at_end_of_turn" else turn - 1
        return schedule.max_turn

    def first_turns(self, hand: np.ndarray, library: np.ndarray, schedule: Schedule,
                    targets: Sequence[np.ndarray]) -> np.ndarray:
        """First turn at which each target can be played (see :meth:`PlayModel.first_turns`)."""
        n_trials = hand.shape[1]
        trials = np.arange(n_trials)
        held = np.zeros((self.n_rows, n_trials), dtype=np.int16)
        for position in range(hand.shape[0]):
            held[hand[position], trials] += 1
        first = np.full((len(targets), n_trials), never(schedule), dtype=np.int16)
        members = [np.asarray(t, dtype=bool) for t in targets]
        logistics_members = [np.flatnonzero(m & self.is_logistics) for m in members]
        costed_members = [np.flatnonzero(m & ~self.is_logistics) for m in members]
        in_play = np.zeros(n_trials, dtype=np.int64)
        peasant_in_play = np.zeros(n_trials, dtype=bool)
        last_turn = self._last_turn(schedule, library.shape[0])
        for turn in range(1, last_turn + 1):
            for position in range(schedule.drawn[turn - 1], schedule.drawn[turn]):
                held[library[position], trials] += 1
            # A Logistique target in hand is the card put into play this turn.
            for k, rows in enumerate(logistics_members):
                if len(rows):
                    record_first(first[k], (held[rows] > 0).any(axis=0), turn)
            self._put_into_play(held, in_play, trials)
            budget = in_play + np.where(peasant_in_play, self.warehouse_points, 0)
            self._record_affordable(first, costed_members, held, budget, turn)
            if self._warehouse_on:
                recruited, spent = self._recruit_peasant(held, budget, peasant_in_play, trials)
                if recruited.any():
                    peasant_in_play |= recruited
                    budget = budget - spent + np.where(recruited, self.warehouse_points, 0)
                    self._record_affordable(first, costed_members, held, budget, turn)
        return first

    def _put_into_play(self, held: np.ndarray, in_play: np.ndarray, trials: np.ndarray) -> None:
        """Move the turn's Logistique cards from hand to play (in place), largest producers first."""
        order = self._drop_order
        if not len(order):
            return
        if self.per_turn is None:
            in_play += (held[order].astype(np.int64) * self.production[order, None]).sum(axis=0)
            held[order] = 0
            return
        for _ in range(self.per_turn):
            available = held[order] > 0
            has = available.any(axis=0)
            if not has.any():
                return
            rows = order[available.argmax(axis=0)[has]]
            held[rows, trials[has]] -= 1
            in_play[has] += self.production[rows]

    def _recruit_peasant(self, held, budget, peasant_in_play, trials):
        """Recruit the cheapest affordable peasant where none is in play (in place); which trials did, and its cost."""
        order = self._peasant_order
        available = held[order] > 0
        has = available.any(axis=0) & ~peasant_in_play
        cheapest = order[available.argmax(axis=0)]
        cost = self.cost[cheapest]
        recruited = has & (cost <= budget)
        held[cheapest[recruited], trials[recruited]] -= 1
        return recruited, np.where(recruited, cost, 0)

    def _record_affordable(self, first, costed_members, held, budget, turn) -> None:
        for k, rows in enumerate(costed_members):
            if len(rows):
                payable = (held[rows] > 0) & (self.cost[rows, None] <= budget[None, :])
                record_first(first[k], payable.any(axis=0), turn)

    def reduction(self, target: np.ndarray) -> Reduction | None:
        """The exact event of ``target`` when the policy makes it one, else ``None``.

        Under the ``target`` policy the target stays in hand until played, so a
        Unité or Stratégie of cost ``c`` is playable on turn ``t`` exactly when
        it has been seen and the logistics in play produce ``c``. That
        production is a count of the Logistique cards seen when every one goes
        into play on arrival (``logistics_per_turn = "any"``: the sum of their
        productions), or when ``c <= 1`` (one card a turn, the largest first:
        some producing Logistique is in play once one has been seen). A
        Logistique target is playable once seen. Otherwise ``None``.
        """
        target = np.asarray(target, dtype=bool)
        if self._warehouse_on or not target.any():
            return None
        costed = target & ~self.is_logistics
        costs = sorted({int(c) for c in self.cost[costed]})
        needed = max(costs, default=0)
        if needed == 0:
            producing = []
        elif self.per_turn is None:
            producing = [(int(p), self.is_logistics & (self.production == p))
                         for p in sorted(set(self.production[self.is_logistics].tolist())) if p > 0]
        elif needed <= 1:
            producing = [(1, self.is_logistics & (self.production > 0))]
        else:
            return None
        names = self.deck.cards["name"]

        def seen(mask: np.ndarray) -> str:
            return " or ".join(names[mask]) + " >= 1"

        # Sets: the target's Logistique cards (if any), its cards of each cost, the producers by production.
        sets, caps, words = [], [], []
        if (target & self.is_logistics).any():
            sets.append(target & self.is_logistics)
            caps.append(1)
            words.append(seen(sets[-1]))
        first_cost = len(sets)
        produced_words = " + ".join("Logistique" if p == 1 else f"{p} x Logistique({p})" for p, _ in producing)
        for cost in costs:
            sets.append(costed & (self.cost == cost))
            caps.append(1)
            words.append(seen(sets[-1]) + (f" and {produced_words} >= {cost}" if cost else ""))
        first_producer = len(sets)
        for production, mask in producing:
            sets.append(mask)
            caps.append(-(-needed // production))
        weights = [production for production, _ in producing]
        has_logistics_target = first_cost == 1

        def holds(counts: list[np.ndarray]) -> np.ndarray:
            produced = sum(w * c for w, c in zip(weights, counts[first_producer:]))
            playable = counts[0] >= 1 if has_logistics_target else False
            for i, cost in enumerate(costs):
                playable = playable | ((counts[first_cost + i] >= 1) & (produced >= cost))
            return np.asarray(playable)

        return Reduction(sets=tuple(sets), caps=tuple(caps), holds=holds, from_turn=1,
                         text=" or ".join(f"({w})" for w in words) if len(words) > 1 else words[0])
