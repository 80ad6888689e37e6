"""Wankul's goldfish: Personnages paid by discarding cards, played on a Terrain that is scored away.

One player, no opponent. Each of the player's turns:

1. the Terrain in play leaves if it has been scored (``terrain_turns`` player
   turns after it was played, both players' turns counted: 2 by default, the
   deck-out model's reading; 0 keeps it in play for ever);
2. the player draws (a draw from an empty library loses the game: nothing is
   playable from then on);
3. with no Terrain in play, the player must play one from hand (free); with
   none in hand either, the *drought*: the player draws one card at a time
   until a Terrain comes (the cards join the hand) and plays it; an empty
   library before one comes loses the game;
4. main phase: a Terrain in hand is playable (free); a Personnage is playable
   with a Terrain in play when the hand holds as many *other* cards as its
   cost (they are discarded).

Only the Terrain/Personnage split, the Personnages' costs and the target
matter to the player's choices, so the hand is followed as counts per
*class* (non-target Terrains, target Terrains, non-target Personnages by
cost, target Personnages by cost), every trial at once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from deckstat.deck import attribute_column, is_missing
from deckstat.errors import DeckstatError
from deckstat.play.base import PlayModel, Reduction, Schedule, never, record_first
from deckstat.text import fold, suggest

#: French names of the policies.
POLICY_ALIASES = {"garder": "hold", "conserver": "hold", "courbe": "curve", "jouer": "curve"}
#: The ``[play_model]`` keys this model reads, with their meaning.
SETTINGS = {
    "terrain_turns": "player turns (both players' counted) a Terrain stays in play; 0: never scored",
    "play_after_drought": "whether the player may play cards in the turn a drought ends",
}
_COST_HELP = ("the discard model needs the cost (cards to discard) of every Personnage it may play: "
              "fill it in, or leave the card out")


@dataclass
class DiscardModel(PlayModel):
    """Wankul: a Personnage costs discarding other cards from hand and needs a Terrain in play.

    Settings (``[play_model]`` of the profile): ``terrain_turns`` (default:
    the profile's ``drought_scored_after``; 0 keeps a Terrain in play for
    ever) and ``play_after_drought`` (default true). See ``docs/play/wankul.md``.
    """

    kind: ClassVar[str] = "discard"
    policies: ClassVar[dict[str, str]] = {
        "hold": "Plays only the Terrains the rules force and keeps every other card for the target, "
                "played as soon as it can be paid.",
        "curve": "Each turn the target cannot be played, plays other Personnages, the most expensive it can "
                 "pay first, discarding only cards it does not need for the target (and keeping a Terrain "
                 "for the next turn when Terrains are scored).",
    }
    default_policy: ClassVar[str] = "hold"
    policy_aliases: ClassVar[dict[str, str]] = POLICY_ALIASES

    def __post_init__(self) -> None:
        self.policy = POLICY_ALIASES.get(fold(self.policy or ""), self.policy)
        super().__post_init__()
        self._read_settings()
        cards = self.deck.cards
        type_column = attribute_column(self.deck, "type")
        if type_column is None or all(is_missing(v) or not str(v).strip() for v in cards[type_column]):
            raise DeckstatError("column 'type' (type de carte) has no value; the discard model needs each card's "
                                "type (Terrain or Personnage): add a 'type' column")
        self.terrain = self.deck.mask(self.profile.resource_group or "Terrain")
        self.labels = list(self.deck.labels)
        self.cost_column = attribute_column(self.deck, "cost")
        self.cost = np.full(self.n_rows, np.nan)
        self.bad_cost: dict[int, str] = {}
        values = cards[self.cost_column] if self.cost_column is not None else [None] * self.n_rows
        for row, value in enumerate(values):
            if self.terrain[row] or is_missing(value) or not str(value).strip():
                continue
            number = _whole_number(value)
            if number is None:
                self.bad_cost[row] = str(value)
            else:
                self.cost[row] = number
        if self.policy == "curve":
            # This player may play any Personnage: every one needs a cost.
            self.check_costs(~self.terrain)

    def _read_settings(self) -> None:
        settings = dict(self.settings or {})
        for key in settings:
            if key not in SETTINGS:
                raise DeckstatError(f"unknown [play_model] setting {key!r} for the discard model; expected "
                                    f"{', '.join(SETTINGS)}{suggest(key, list(SETTINGS))}")
        default = self.profile.drought_scored_after or 0
        turns = settings.get("terrain_turns", default)
        if isinstance(turns, bool) or not isinstance(turns, int) or turns < 0 or turns == 1:
            raise DeckstatError(f"[play_model] terrain_turns must be 0 (Terrains are never scored) or a whole "
                                f"number of turns >= 2 (a Terrain cannot be scored before the opponent's turn), "
                                f"got {turns!r}")
        after = settings.get("play_after_drought", True)
        if not isinstance(after, bool):
            raise DeckstatError(f"[play_model] play_after_drought must be true or false, got {after!r}")
        self.terrain_turns = turns
        self.play_after_drought = after
        #: The player's own turns a Terrain stays in play (None: for ever).
        self.terrain_life = math.ceil(turns / 2) if turns else None

    def check_costs(self, rows: np.ndarray) -> None:
        """Raise a :class:`DeckstatError` for the first Personnage of ``rows`` whose cost cannot be read."""
        needed = np.flatnonzero(np.asarray(rows, dtype=bool) & ~self.terrain & np.isnan(self.cost))
        if len(needed) == 0:
            return
        if self.cost_column is None:
            raise DeckstatError(f"column 'cost' (coût) is missing; {_COST_HELP} (card "
                                f"{self.labels[needed[0]]!r} has none)")
        row = int(needed[0])
        if row in self.bad_cost:
            raise DeckstatError(f"column 'cost' (coût): card {self.labels[row]!r} has {self.bad_cost[row]!r}; "
                                f"expected a whole number of cards to discard (0, 1, 2…)")
        raise DeckstatError(f"column 'cost' (coût): card {self.labels[row]!r} has no value; {_COST_HELP}")

    def reduction(self, target: np.ndarray) -> Reduction | None:
        """None: drought draws bring cards beyond the schedule's, so playability is no event on the cards seen.

        Checks that the target's cards can be read (the error comes before any simulation).
        """
        self.check_costs(target)
        return None

    def _classes(self, target: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each row's class, the Personnage costs in class order, and each class's cost (-1 for Terrains).

        Classes: 0 non-target Terrains, 1 target Terrains, then non-target
        Personnages by increasing cost, then target Personnages by increasing cost.
        """
        personnage = ~self.terrain
        # A cost no one reads (a non-target Personnage under hold) makes the card discard fodder only.
        costs = np.unique(self.cost[personnage & ~np.isnan(self.cost)]).astype(np.int64)
        n_costs = len(costs)
        row_class = np.empty(self.n_rows, dtype=np.int64)
        row_class[self.terrain] = np.where(target[self.terrain], 1, 0)
        for row in np.flatnonzero(personnage):
            if np.isnan(self.cost[row]):
                # Fodder: put it among the most expensive non-target Personnages, never played.
                row_class[row] = 2 + n_costs
                continue
            index = int(np.searchsorted(costs, self.cost[row]))
            row_class[row] = 2 + index + (n_costs + 1 if target[row] else 0)
        class_cost = np.concatenate([[-1, -1], costs, [-1], costs])
        return row_class, costs, class_cost

    def first_turns(self, hand: np.ndarray, library: np.ndarray, schedule: Schedule,
                    targets: Sequence[np.ndarray]) -> np.ndarray:
        """First turn at which each target can be played, for every trial (see :class:`PlayModel`)."""
        n = hand.shape[1]
        out = np.empty((len(targets), n), dtype=np.int16)
        for i, target in enumerate(targets):
            target = np.asarray(target, dtype=bool)
            self.check_costs(target)
            out[i] = self._one_target(hand, library, schedule, target)
        return out

    def _wanted_draws(self, schedule: Schedule, library_size: int) -> np.ndarray:
        """Cards the rules make the player draw at each turn's draw step, the draws past the library included."""
        shift = 1 if self.profile.draw_step == "end" else 0
        wanted = np.array([0] + [self.profile.draws_by_turn(t - shift, schedule.seat)
                                 for t in range(1, schedule.max_turn + 1)], dtype=np.int64)
        if not np.array_equal(np.minimum(wanted, library_size), schedule.drawn):
            # A schedule not built from the profile: follow it as it is.
            wanted = np.asarray(schedule.drawn, dtype=np.int64)
        return np.diff(wanted)

    def _one_target(self, hand: np.ndarray, library: np.ndarray, schedule: Schedule,
                    target: np.ndarray) -> np.ndarray:
        row_class, costs, class_cost = self._classes(target)
        n_costs = len(costs)
        n_classes = len(class_cost)
        spare = slice(2, 3 + n_costs)          # non-target Personnages (the last: unreadable fodder)
        aimed = slice(3 + n_costs, n_classes)  # target Personnages
        n = hand.shape[1]
        size = library.shape[0]
        trials = np.arange(n)
        counts = np.zeros((n_classes, n), dtype=np.int16)
        for position in range(hand.shape[0]):
            counts[row_class[hand[position]], trials] += 1
        library_class = row_class.astype(np.int16)[library]
        position = np.zeros(n, dtype=np.int64)
        lost = np.zeros(n, dtype=bool)
        gone_at = np.zeros(n, dtype=np.int64)  # the turn the Terrain in play leaves (0: none in play)
        last = schedule.max_turn
        first = np.full(n, never(schedule), dtype=np.int16)
        keep_terrain = 1 if self.terrain_life is not None else 0

        def draw(mask: np.ndarray) -> np.ndarray:
            """One card for the trials of ``mask`` that can draw; the others in ``mask`` lose. Returns its class."""
            empty = mask & (position >= size)
            lost[empty] = True
            drawing = mask & ~empty
            if size == 0:
                return np.full(n, -1)
            drawn = library_class[np.minimum(position, size - 1), trials]
            counts[drawn, trials] += drawing.astype(np.int16)
            position[drawing] += 1
            return np.where(drawing, drawn, -1)

        for turn, wanted in enumerate(self._wanted_draws(schedule, size), start=1):
            active = ~lost & (first > last)
            if not active.any():
                break
            for _ in range(int(wanted)):
                draw(active & ~lost)
            active &= ~lost
            in_play = active & (gone_at > turn)
            # Drought: no Terrain in play or in hand; draw until one comes.
            drought = active & ~in_play & (counts[0] + counts[1] == 0)
            seeking = drought.copy()
            while seeking.any():
                drawn = draw(seeking)
                seeking &= ~lost & (drawn != 0) & (drawn != 1)
            active &= ~lost
            # The forced Terrain: a non-target one when the hand holds one.
            forced = active & ~in_play & (counts[0] + counts[1] > 0)
            use_target = forced & (counts[0] == 0)
            counts[0] -= (forced & ~use_target).astype(np.int16)
            counts[1] -= use_target.astype(np.int16)
            gone_at[forced] = turn + self.terrain_life if self.terrain_life is not None else last + 2
            in_play = active & (in_play | forced)
            may_play = active if self.play_after_drought else active & ~drought
            in_hand = counts.sum(axis=0, dtype=np.int64)
            payable = np.zeros(n, dtype=bool)
            for index, cost in enumerate(costs):
                payable |= (counts[aimed][index] > 0) & (in_hand - 1 >= cost)
            playable = use_target | (may_play & ((counts[1] > 0) | (in_play & payable)))
            record_first(first, playable, turn)
            if self.policy == "curve":
                self._spend(counts, may_play & in_play & ~playable, costs, spare, keep_terrain)
        return first

    @staticmethod
    def _spend(counts: np.ndarray, mask: np.ndarray, costs: np.ndarray, spare: slice, keep_terrain: int) -> None:
        """The ``curve`` player's plays: non-target Personnages, the most expensive payable first (in place).

        A play of cost c discards c cards among the non-target Personnages
        (the most expensive first) and the Terrains beyond ``keep_terrain``.
        """
        personnages = counts[spare]
        n_costs = len(costs)
        while mask.any():
            fodder = (personnages.sum(axis=0, dtype=np.int64) - 1
                      + np.maximum(counts[0].astype(np.int64) - keep_terrain, 0))
            choice = np.full(counts.shape[1], -1)
            for index, cost in enumerate(costs):
                choice = np.where(mask & (personnages[index] > 0) & (cost <= fodder), index, choice)
            mask = mask & (choice >= 0)
            if not mask.any():
                return
            for index in range(n_costs):
                personnages[index] -= (mask & (choice == index)).astype(np.int16)
            owed = np.where(mask, costs[np.maximum(choice, 0)], 0).astype(np.int64)
            # The unreadable fodder class (last) goes first: it can never be played.
            for index in range(n_costs, -1, -1):
                paid = np.minimum(owed, personnages[index]).astype(np.int16)
                personnages[index] -= paid
                owed -= paid
            paid = np.minimum(owed, np.maximum(counts[0] - keep_terrain, 0)).astype(np.int16)
            counts[0] -= paid


def _whole_number(value: object) -> int | None:
    """A cost cell as a whole number of cards >= 0, or None when it is not one."""
    try:
        number = float(str(value).strip().replace(",", "."))
    except ValueError:
        return None
    if math.isnan(number) or number < 0 or number != int(number):
        return None
    return int(number)
