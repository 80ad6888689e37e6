"""Wankul's play model: Personnages paid by discarding cards, played on a Terrain that is scored away.

Two players by default (``players = 1``: the player alone). Turns alternate,
the first seat first; each turn of either player:

1. the Terrain in play leaves if it has been scored (``terrain_turns``
   turns after it was played, both players' turns counted: 2 by default,
   the deck-out model's reading; 0 keeps it in play for ever);
2. the active player draws (a draw from an empty library loses the game:
   nothing is playable from then on);
3. with no Terrain in play, the active player must play one from hand
   (free); with none in play and none in either hand, the *drought*: both
   players draw one card at a time until a Terrain comes (the cards join
   the hands) and the active player plays the Terrain it found (one the
   other player found waits for its turn); an empty library before one
   comes ends the game;
4. main phase of the player followed: a Terrain in hand is playable (free);
   a Personnage is playable with a Terrain in play, whoever played it, when
   the hand holds as many *other* cards as its cost (they are discarded).

Only the Terrains of the opponent's hand matter to the player (they decide
the forced Terrains and the droughts), so the opponent is followed by the
Terrains it holds. Only the Terrain/Personnage split, the Personnages' costs
and the target matter to the player's choices, so the player's hand is
followed as counts per *class* (non-target Terrains, target Terrains,
non-target Personnages by cost, target Personnages by cost), every trial at
once. The cards drawn are always the next ones of a library, so drawing k
cards, or until a Terrain comes, is a difference of the library's prefix
counts and a lookup of the next Terrain's position, whatever k or the
drought's length. Under ``hold`` the draws, droughts and Terrains in play do
not depend on the target: they are followed once for all the targets.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import numpy as np

from deckstat.deck import attribute_column, is_missing
from deckstat.errors import DeckstatError
from deckstat.i18n import N_, tr
from deckstat.parsing import whole_number
from deckstat.play.base import PlayModel, Reduction, Schedule, never, record_first, running_sums
from deckstat.text import fold, suggest

#: The ``[play_model]`` keys this model reads, with their meaning.
SETTINGS = {
    "terrain_turns": "player turns (both players' counted) a Terrain stays in play; 0: never scored",
    "play_after_drought": "whether the player may play cards in the turn a drought ends",
    "players": "2: the opponent plays its turns too (shared Terrains, droughts on both turns); 1: the player alone",
    "drought_order": "drought draws side by side (together) or one at a time, the active player first (active_first)",
}
#: Readings of the drought draws with two players (as in deckout's ``drought_order``).
DROUGHT_ORDERS = ("together", "active_first")
_COST_HELP = N_("the discard model needs the cost (cards to discard) of every Personnage it may play: fill it in, "
                 "or leave the card out")


@dataclass
class DiscardModel(PlayModel):
    """Wankul: a Personnage costs discarding other cards from hand and needs a Terrain in play.

    Settings (``[play_model]`` of the profile): ``terrain_turns`` (default:
    the profile's ``drought_scored_after``; 0 keeps a Terrain in play for
    ever), ``play_after_drought`` (default true), ``players`` (default 2:
    the opponent plays its turns too) and ``drought_order`` (default
    ``together``). See ``docs/play/wankul.md``.

    ``opponent``: the deck the opponent plays with two players (default: a
    copy of the player's deck, shuffled apart).
    """

    kind: ClassVar[str] = "discard"
    plays_draw_effects: ClassVar[bool] = True

    opponent: object = None

    def __post_init__(self) -> None:
        self.policy = self.policy_aliases.get(fold(self.policy or ""), self.policy)
        super().__post_init__()
        self._read_settings()
        cards = self.deck.cards
        _check_types(self.deck)
        self.terrain = self.deck.mask(self.profile.resource_group or "Terrain")
        rival = self.rival_deck()
        if rival is not None and rival is not self.deck:
            _check_types(rival)
        #: The opponent's Terrains, by row of its deck (None: the player plays alone).
        self.rival_terrain = None if rival is None else rival.mask(self.profile.resource_group or "Terrain")
        self.labels = list(self.deck.labels)
        self.cost_column = attribute_column(self.deck, "cost")
        self.cost = np.full(self.n_rows, np.nan)
        self.bad_cost: dict[int, str] = {}
        values = cards[self.cost_column] if self.cost_column is not None else [None] * self.n_rows
        for row, value in enumerate(values):
            if self.terrain[row] or is_missing(value) or not str(value).strip():
                continue
            number = whole_number(value)
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
                raise DeckstatError(tr("unknown [play_model] setting {key!r} for the discard model; expected "
                                       "{choices}", key=key, choices=", ".join(SETTINGS))
                                    + suggest(key, list(SETTINGS)))
        default = self.profile.drought_scored_after or 0
        turns = settings.get("terrain_turns", default)
        if isinstance(turns, bool) or not isinstance(turns, int) or turns < 0 or turns == 1:
            raise DeckstatError(tr("[play_model] terrain_turns must be 0 (Terrains are never scored) or a whole "
                                   "number of turns >= 2 (a Terrain cannot be scored before the opponent's turn), "
                                   "got {value!r}", value=turns))
        after = settings.get("play_after_drought", True)
        if not isinstance(after, bool):
            raise DeckstatError(tr("[play_model] play_after_drought must be true or false, got {value!r}", value=after))
        players = settings.get("players", 2)
        if isinstance(players, bool) or players not in (1, 2):
            raise DeckstatError(tr("[play_model] players must be 1 (the player alone) or 2 (both players' turns), "
                                   "got {value!r}", value=players))
        order = settings.get("drought_order", "together")
        if order not in DROUGHT_ORDERS:
            raise DeckstatError(tr("[play_model] drought_order must be one of {choices}, got {value!r}",
                                   choices=", ".join(DROUGHT_ORDERS), value=order)
                                + suggest(str(order), list(DROUGHT_ORDERS)))
        self.terrain_turns = turns
        self.play_after_drought = after
        self.players = players
        self.drought_order = order
        #: The player's own turns a Terrain stays in play (None: for ever).
        self.terrain_life = math.ceil(turns / 2) if turns else None

    def check_costs(self, rows: np.ndarray) -> None:
        """Raise a :class:`DeckstatError` for the first Personnage of ``rows`` whose cost cannot be read."""
        needed = np.flatnonzero(np.asarray(rows, dtype=bool) & ~self.terrain & np.isnan(self.cost))
        if len(needed) == 0:
            return
        if self.cost_column is None:
            raise DeckstatError(tr("column 'cost' (coût) is missing; {help} (card {card!r} has none)",
                                   help=tr(_COST_HELP), card=self.labels[needed[0]]))
        row = int(needed[0])
        if row in self.bad_cost:
            raise DeckstatError(tr("column 'cost' (coût): card {card!r} has {value!r}; expected a whole number of "
                                   "cards to discard (0, 1, 2…)", card=self.labels[row], value=self.bad_cost[row]))
        raise DeckstatError(tr("column 'cost' (coût): card {card!r} has no value; {help}", card=self.labels[row],
                               help=tr(_COST_HELP)))

    def reduction(self, target: np.ndarray) -> Reduction | None:
        """None: drought draws bring cards beyond the schedule's, so playability is no event on the cards seen.

        Checks that the target's cards can be read (the error comes before any simulation).
        """
        self.check_costs(target)
        return None

    def _base_classes(self) -> tuple[np.ndarray, np.ndarray]:
        """Each row's class before the target is known, and the readable Personnage costs (increasing).

        Base classes: 0 Terrains, ``1 + i`` Personnages of the i-th cost, ``1 + n_costs``
        Personnages whose cost cannot be read (discard fodder only).
        """
        personnage = ~self.terrain
        # A cost no one reads (a non-target Personnage under hold) makes the card discard fodder only.
        costs = np.unique(self.cost[personnage & ~np.isnan(self.cost)]).astype(np.int64)
        base_class = np.zeros(self.n_rows, dtype=np.int64)
        readable = personnage & ~np.isnan(self.cost)
        base_class[readable] = 1 + np.searchsorted(costs, self.cost[readable])
        base_class[personnage & np.isnan(self.cost)] = 1 + len(costs)
        return base_class, costs

    @property
    def seat_matters(self) -> bool:
        """With the opponent at the table, the seat says whose turn comes first: each seat plays its own games."""
        return self.players == 2

    def rival_deck(self):
        """The deck the opponent plays (``opponent``, or the player's own), or None when the player plays alone."""
        if self.players == 1:
            return None
        return self.opponent if self.opponent is not None else self.deck

    def first_turns(self, hand: np.ndarray, library: np.ndarray, schedule: Schedule,
                    targets: Sequence[np.ndarray], opponent: tuple[np.ndarray, np.ndarray] | None = None,
                    effect_draws: np.ndarray | None = None) -> np.ndarray:
        """First turn at which each target can be played, for every trial (see :class:`PlayModel`).

        ``opponent``: the opponent's kept hands and libraries (rows of :meth:`rival_deck`), dealt like ``hand``
        and ``library``; needed when the model plays both players (``players = 2``). ``effect_draws``: the
        player's draw effects, played as :meth:`seen_positions` plays them.
        """
        targets = [np.asarray(target, dtype=bool) for target in targets]
        for target in targets:
            self.check_costs(target)
        out = np.empty((len(targets), hand.shape[1]), dtype=np.int16)
        if not targets:
            return out
        block = _Block(self, hand, library)
        rival = self._rival(opponent)

        def game() -> _Game:
            played = _Game(self, block, rival, schedule)
            if effect_draws is not None:
                played.play_draw_effects(effect_draws)
            return played

        if self.policy == "hold":
            turns = self._hold_turns(game())
            for i, target in enumerate(targets):
                out[i] = self._hold_target(block, schedule, turns, target)
            return out
        for i, target in enumerate(targets):
            out[i] = self._one_target(game(), target)
        return out

    def seen_positions(self, hand: np.ndarray, library: np.ndarray, schedule: Schedule,
                       opponent: tuple[np.ndarray, np.ndarray] | None = None,
                       effect_draws: np.ndarray | None = None) -> np.ndarray:
        """Library cards the ``hold`` player has drawn by the main phase of each turn, drought draws included.

        The ``hold`` player's draws do not depend on a target (see :meth:`_hold_turns`), so these are the cards
        seen whatever the question. (The ``curve`` player, which spends the Terrains it does not keep, may run
        into a drought sooner and see more.) After the game ends the position stays where it was.

        ``effect_draws``: the cards each row's effects draw, played in the main phase while a Terrain is in play
        (its cost left aside), every one in hand at once, the cards they draw playing theirs in turn.

        Returns
        -------
        ndarray of int64, shape (max_turn, n_trials)
        """
        game = _Game(self, _Library(self.terrain, hand, library), self._rival(opponent), schedule)
        if effect_draws is not None:
            game.play_draw_effects(effect_draws)
        out = np.empty((schedule.max_turn, hand.shape[1]), dtype=np.int64)
        for turn in range(1, schedule.max_turn + 1):
            game.until_main(turn)
            out[turn - 1] = game.position[0]
        return out

    def _rival(self, opponent: tuple[np.ndarray, np.ndarray] | None) -> _Library | None:
        """The opponent's dealt games as the game follows them, None when the player plays alone."""
        if self.players == 1:
            return None
        if opponent is None:
            raise ValueError("the two-player discard model needs the opponent's dealt games (opponent=)")
        return _Library(self.rival_terrain, *opponent)

    def draws_of(self, seat: str, max_turn: int) -> np.ndarray:
        """Cards the rules make ``seat`` draw at the draw step of each turn 1..max_turn, past the library included."""
        shift = 1 if self.profile.draw_step == "end" else 0
        return np.diff(np.array([0] + [self.profile.draws_by_turn(t - shift, seat) for t in range(1, max_turn + 1)],
                                dtype=np.int64))

    def turn_draws(self, schedule: Schedule, library_size: int) -> np.ndarray:
        """Cards the player (row 0) and the opponent (row 1: zeros alone) draw at the draw step of turns 1..max_turn."""
        rival = np.zeros(schedule.max_turn, dtype=np.int64)
        if self.players == 2:
            rival = self.draws_of("second" if schedule.seat == "first" else "first", schedule.max_turn)
        return np.vstack([self._wanted_draws(schedule, library_size), rival])

    def _wanted_draws(self, schedule: Schedule, library_size: int) -> np.ndarray:
        """The player's draws at each turn's draw step (:meth:`draws_of`), or the schedule's when it differs."""
        wanted = np.cumsum(np.r_[0, self.draws_of(schedule.seat, schedule.max_turn)])
        if not np.array_equal(np.minimum(wanted, library_size), schedule.drawn):
            # A schedule not built from the profile: follow it as it is.
            wanted = np.asarray(schedule.drawn, dtype=np.int64)
        return np.diff(wanted)

    def _hold_turns(self, game: _Game) -> list[_Turn]:
        """The ``hold`` player's turns, the same for every target until it is played.

        This player spends no card before the target is played: the hand only
        grows by draws and shrinks by the forced Terrains, whichever Terrain is
        forced. So the draws, droughts, losses and Terrains in play do not depend
        on the target (until it is played, and then they no longer matter).
        """
        turns = []
        for turn in range(1, game.max_turn + 1):
            if game.over.all():
                break
            forced, drought = game.until_main(turn)
            active = ~game.over
            turns.append(_Turn(index=game.player.index(game.position[0]), forced=forced,
                               terrains=game.terrains[0].copy(), in_play=active & game.in_play,
                               in_hand=game.in_hand.copy(),
                               may_play=active if self.play_after_drought else active & ~drought))
        return turns
    def _hold_target(self, block: _Block, schedule: Schedule, turns: list[_Turn], target: np.ndarray) -> np.ndarray:
        """First playable turn of one target for the ``hold`` player, from the turns of :meth:`_hold_turns`."""
        seen = _Seen(block, target)
        first = np.full(block.n, never(schedule), dtype=np.int16)
        hand_parts = np.array(seen.hand_members, dtype=np.int16).reshape(len(seen.present), block.n)
        terrain_part = np.flatnonzero(seen.present == 0)
        personnage_parts = [(j, block.costs[b - 1]) for j, b in enumerate(seen.present) if b != 0]
        for turn, state in enumerate(turns, start=1):
            # The target's cards in hand, before the forced Terrain: no target card has left the hand yet.
            aimed = np.take(seen.cum, state.index, axis=1) + hand_parts
            target_terrains = aimed[terrain_part[0]] if len(terrain_part) else 0
            # The forced Terrain is a target one when every Terrain in hand is.
            use_target = state.forced & (state.terrains + state.forced == target_terrains)
            payable = np.zeros(block.n, dtype=bool)
            for j, cost in personnage_parts:
                payable |= (aimed[j] > 0) & (state.in_hand - 1 >= cost)
            playable = use_target | (state.may_play & ((target_terrains - use_target > 0) | (state.in_play & payable)))
            record_first(first, playable, turn)
        return first

    def _one_target(self, game: _Game, target: np.ndarray) -> np.ndarray:
        """First playable turn of one target, every trial at once.

        The hand is followed as counts per class: 0 non-target Terrains, 1 target
        Terrains, ``2 + i`` non-target Personnages of the i-th cost, ``2 + n_costs``
        unreadable fodder, ``3 + n_costs + i`` target Personnages of the i-th cost.
        Cards come from the library as ranges of positions (:meth:`_Seen.library_counts`).
        """
        block = game.player
        costs = block.costs
        n_costs = len(costs)
        n_classes = 3 + 2 * n_costs
        spare = slice(2, 3 + n_costs)          # non-target Personnages (the last: unreadable fodder)
        aimed = slice(3 + n_costs, n_classes)  # target Personnages
        n = block.n
        seen = _Seen(block, target)
        counts = seen.hand_counts()
        drawn = seen.library_counts(np.zeros(n, dtype=np.int64))  # library cards drawn so far, per class
        last = game.max_turn
        first = np.full(n, last + 1, dtype=np.int16)
        keep_terrain = 1 if self.terrain_life is not None else 0

        for turn in range(1, last + 1):
            if (game.over | (first <= last)).all():
                break
            forced, drought = game.until_main(turn)
            active = ~game.over & (first > last)
            # The cards drawn since the last main phase, the drought's (on either player's turn) included.
            now = seen.library_counts(game.position[0])
            counts += now - drawn
            drawn = now
            # The forced Terrain: a non-target one when the hand holds one.
            use_target = forced & (counts[0] == 0)
            counts[0] -= (forced & ~use_target).astype(np.int16)
            counts[1] -= use_target.astype(np.int16)
            in_play = active & game.in_play
            may_play = active if self.play_after_drought else active & ~drought
            in_hand = counts.sum(axis=0, dtype=np.int64)
            payable = np.zeros(n, dtype=bool)
            for index, cost in enumerate(costs):
                payable |= (counts[aimed][index] > 0) & (in_hand - 1 >= cost)
            playable = use_target | (may_play & ((counts[1] > 0) | (in_play & payable)))
            record_first(first, playable, turn)
            if self.policy == "curve":
                spending = may_play & in_play & ~playable
                self._spend(counts, spending, costs, spare, keep_terrain)
                # Spent Terrains leave the hand: the drought rule reads it.
                game.terrains[0][spending] = counts[0][spending] + counts[1][spending]
        return first

    @staticmethod
    def _spend(counts: np.ndarray, mask: np.ndarray, costs: np.ndarray, spare: slice, keep_terrain: int) -> None:
        """The ``curve`` player's plays: non-target Personnages, the most expensive payable first (in place).

        A play of cost c discards c cards among the non-target Personnages
        (the most expensive first) and the Terrains beyond ``keep_terrain``.
        """
        # Only the trials still playing are followed, and only the classes spent: each pass plays at most one
        # card per trial, and few trials play many.
        players = np.flatnonzero(mask)
        n_costs = len(costs)
        spent = np.r_[0, np.arange(counts.shape[0])[spare]][:, None]  # non-target Terrains, then Personnages
        while len(players):
            hand = counts[spent, players]
            personnages = hand[1:]
            fodder = personnages.sum(axis=0, dtype=np.int16) - 1 + np.maximum(hand[0] - keep_terrain, 0)
            choice = np.full(len(players), -1)
            for index, cost in enumerate(costs):
                choice[(personnages[index] > 0) & (cost <= fodder)] = index
            playing = choice >= 0
            players, hand, choice = players[playing], hand[:, playing], choice[playing]
            personnages = hand[1:]
            owed = costs[choice].astype(np.int16)
            # A free card is chosen only when no other is payable, and each one played leaves the others
            # unpayable: all the free cards are played in a row, then nothing else and the trial is done.
            free = owed == 0
            played = (choice, np.arange(len(players)))
            personnages[played] = np.where(free, 0, personnages[played] - 1)
            # The unreadable fodder class (last) goes first: it can never be played.
            for index in range(n_costs, -1, -1):
                paid = np.minimum(owed, personnages[index])
                personnages[index] -= paid
                owed -= paid
            hand[0] -= np.minimum(owed, np.maximum(hand[0] - keep_terrain, 0))
            counts[spent, players] = hand
            players = players[~free]


@dataclass(frozen=True)
class _Turn:
    """One turn of the ``hold`` player, every trial: the state at the main phase, after the forced Terrain."""

    index: np.ndarray     # flat index of the library position reached, in the (L + 1, n) tables
    forced: np.ndarray    # a Terrain was forced this turn
    terrains: np.ndarray  # Terrains in hand
    in_play: np.ndarray   # a Terrain is in play
    in_hand: np.ndarray   # cards in hand
    may_play: np.ndarray  # the player may play cards this turn




class _Library:
    """One player's kept hand and library in draw order, every trial, and where the library's Terrains lie.

    Drawing ``k`` cards, or until a Terrain comes, is then a lookup and a
    difference of prefix counts, whatever ``k`` or the drought's length.
    """

    def __init__(self, terrain_rows: np.ndarray, hand: np.ndarray, library: np.ndarray) -> None:
        self.size, self.n = library.shape
        self.hand = hand
        self.library = library
        self.trials = np.arange(self.n)
        self.hand_terrains = terrain_rows[hand].sum(axis=0, dtype=np.int16)
        # Counts never exceed the library size; int8 halves the memory traffic of the lookups.
        self.dtype = np.int8 if self.size <= np.iinfo(np.int8).max else np.int16
        terrain = self.holds(terrain_rows)
        #: Terrains among the first p library cards, flattened from (L + 1, n) (see :meth:`index`).
        self.terrain_cum = np.empty((self.size + 1, self.n), dtype=self.dtype)
        running_sums(terrain, self.terrain_cum)
        self.terrain_cum = self.terrain_cum.reshape(-1)
        # Next Terrain at or after each position (L: none left), scanning back from the end.
        after = np.full((self.size + 1, self.n), self.size,
                        dtype=np.int16 if self.size < np.iinfo(np.int16).max else np.int64)
        for position in range(self.size - 1, -1, -1):
            np.copyto(after[position], after[position + 1])
            after[position][terrain[position]] = position
        self.after = after.reshape(-1)

    def holds(self, rows: np.ndarray) -> np.ndarray:
        """Whether each library card is one of ``rows`` (a mask over rows), shape (L, n)."""
        listed = np.flatnonzero(rows)
        if len(listed) > 8:
            return np.take(rows, self.library.astype(np.intp))
        # A comparison per row is many times faster than a gather for the few rows of a card target.
        hits = np.zeros(self.library.shape, dtype=bool)
        for row in listed:
            hits |= self.library == int(row)
        return hits

    def index(self, position: np.ndarray, trials: np.ndarray | None = None) -> np.ndarray:
        """Flat index of each trial's ``position`` in the (L + 1, n) tables (of the trials numbered ``trials``)."""
        return position * self.n + (self.trials if trials is None else trials)

    def terrains_before(self, position: np.ndarray, trials: np.ndarray | None = None) -> np.ndarray:
        """Terrains among each trial's library cards before ``position``."""
        return self.terrain_cum[self.index(position, trials)]

    def next_terrain(self, position: np.ndarray, trials: np.ndarray | None = None) -> np.ndarray:
        """Library position of each trial's first Terrain at or after ``position`` (the library size if none)."""
        return self.after[self.index(position, trials)]


class _Block(_Library):
    """The player's deal, shared by the targets of one call: its Terrains and its library's class prefix counts."""

    def __init__(self, model: DiscardModel, hand: np.ndarray, library: np.ndarray) -> None:
        self.base_class, self.costs = model._base_classes()
        self.n_base = len(self.costs) + 2
        super().__init__(model.terrain, hand, library)

    @cached_property
    def cum(self) -> np.ndarray:
        """``cum[b, p * n + trial]``: library cards of base class b among the trial's first p."""
        library_class = np.take(self.base_class, self.library.astype(np.intp))
        cum = np.empty((self.n_base, self.size + 1, self.n), dtype=self.dtype)
        for b in range(self.n_base):
            running_sums(library_class == b, cum[b])
        return cum.reshape(self.n_base, -1)


#: A draw number past any library: "never" for the drought's steps.
_NEVER = np.iinfo(np.int64).max // 4


class _Game:
    """The game every policy plays, every trial at once: both players' draws and Terrains, the Terrain in play.

    Side 0 is the player followed, side 1 the opponent (absent when the
    player plays alone). The seat playing its t-th turn plays at time
    ``2t + seat`` (the first seat: 0); a Terrain played at time s leaves
    play at time ``s + terrain_turns`` (never with 0). Only the Terrains of
    the opponent's hand matter to the player: they decide its forced
    Terrains and the droughts. ``over``: a player lost (a draw from an empty
    library), so the game is over and nothing more is played.
    """

    def __init__(self, model: DiscardModel, block: _Block, rival: _Library | None, schedule: Schedule) -> None:
        self.model = model
        self.player = block
        self.libraries = [block] if rival is None else [block, rival]
        self.seat = 0 if schedule.seat == "first" else 1
        self.max_turn = schedule.max_turn
        self.wanted = model.turn_draws(schedule, block.size)
        n = block.n
        self.position = [np.zeros(n, dtype=np.int64) for _ in self.libraries]
        self.terrains = [library.hand_terrains.astype(np.int64) for library in self.libraries]
        self.in_hand = np.full(n, block.hand.shape[0], dtype=np.int64)
        self.over = np.zeros(n, dtype=bool)
        self.in_play = np.zeros(n, dtype=bool)
        self.expires = np.zeros(n, dtype=np.int64)
        #: The player's draw effects: cards drawn by those in hand, by library prefix, and those played so far.
        self.effects: tuple[np.ndarray, np.ndarray] | None = None
        self.resolved = np.zeros(n, dtype=np.int64)

    def play_draw_effects(self, draws: np.ndarray) -> None:
        """Have the player play the draw effects of ``draws`` (cards drawn, per row) at each main phase."""
        block = self.player
        prefix = np.empty((block.size + 1, block.n), dtype=np.int64)
        running_sums(np.take(draws, block.library), prefix)
        self.effects = (np.take(draws, block.hand).sum(axis=0), prefix.reshape(-1))

    def until_main(self, turn: int) -> tuple[np.ndarray, np.ndarray]:
        """Play up to the main phase of the player's ``turn``: the opponent's turn before it, then steps 1 to 4.

        Returns where the player played a Terrain this turn (forced, or found by the drought) and where its turn
        had a drought.
        """
        if len(self.libraries) == 2:
            rival_turn = turn if self.seat == 1 else turn - 1
            if rival_turn >= 1:
                self._turn(1, rival_turn)
        return self._turn(0, turn)

    def _turn(self, side: int, turn: int) -> tuple[np.ndarray, np.ndarray]:
        """Steps 1 to 4 of ``side``'s ``turn``: the scored Terrain leaves, the draw, the forced Terrain, a drought."""
        time = 2 * turn + (self.seat if side == 0 else 1 - self.seat)
        if self.model.terrain_life is not None:
            np.logical_and(self.in_play, self.expires > time, out=self.in_play)
        active = ~self.over
        count = int(self.wanted[side][turn - 1])
        position = self.position[side]
        losing = active & (position + count > self.libraries[side].size)
        self.over |= losing
        self._draw(side, np.where(active & ~losing, count, 0))
        forced = self._force(side, time)
        drought = self._drought(side)
        if drought.any():
            # The active player plays the Terrain its drought draws found (the opponent keeps one it found).
            forced |= self._force(side, time)
        if side == 0 and self.effects is not None:
            self._draw_effects()
        return forced, drought

    def _draw_effects(self) -> None:
        """The player plays every draw effect in hand while a Terrain is in play; the cards drawn play theirs too."""
        from_hand, prefix = self.effects
        block = self.player
        for _ in range(block.size + 1):
            total = from_hand + prefix[block.index(self.position[0])]
            pending = np.where(~self.over & self.in_play, total - self.resolved, 0)
            if not pending.any():
                return
            np.copyto(self.resolved, total, where=pending > 0)
            # A draw from an empty library loses (« si un joueur doit piocher une carte mais ne peut pas le faire »).
            losing = self.position[0] + pending > block.size
            self.over |= losing
            self._draw(0, np.where(losing, 0, pending))

    def _draw(self, side: int, count: np.ndarray, trials: np.ndarray | None = None) -> None:
        """``side`` draws ``count`` cards in each trial (of the trials numbered ``trials``)."""
        library = self.libraries[side]
        if trials is None:
            old = self.position[side]
            new = old + count
            self.terrains[side] += library.terrains_before(new) - library.terrains_before(old)
            self.position[side] = new
            if side == 0:
                self.in_hand += count
            return
        old = self.position[side][trials]
        new = old + count
        self.terrains[side][trials] += library.terrains_before(new, trials) - library.terrains_before(old, trials)
        self.position[side][trials] = new
        if side == 0:
            self.in_hand[trials] += count

    def _force(self, side: int, time: int) -> np.ndarray:
        """The active ``side`` plays a Terrain from hand where none is in play (« il DOIT la poser »)."""
        plays = ~self.over & ~self.in_play & (self.terrains[side] > 0)
        self.terrains[side] -= plays
        if side == 0:
            self.in_hand -= plays
        self.in_play |= plays
        turns = self.model.terrain_turns
        self.expires[plays] = time + turns if turns else np.iinfo(np.int64).max
        return plays

    def _drought(self, active: int) -> np.ndarray:
        """The drought draws, where no Terrain is in play and no player holds one; returns where they happened.

        Alone, the player draws until a Terrain comes. Both players draw one card at a time (``together``: side by
        side; ``active_first``: the active player first) until one of them draws a Terrain; the first failed draw
        ends the game.
        """
        stuck = ~self.over & ~self.in_play
        for terrains in self.terrains:
            stuck &= terrains == 0
        trials = np.flatnonzero(stuck)
        if trials.size == 0:
            return stuck
        steps, fails = [], []
        for library, position in zip(self.libraries, self.position):
            start = position[trials]
            found_at = library.next_terrain(start, trials).astype(np.int64)
            # Draw numbers (1: the next card) of the first Terrain and of the first failed draw.
            steps.append(np.where(found_at < library.size, found_at - start + 1, _NEVER))
            fails.append(library.size - start + 1)
        if len(steps) == 1:
            found = steps[0] < fails[0]
            draws = [np.where(found, steps[0], fails[0] - 1)]
        elif self.model.drought_order == "together":
            first_step, first_fail = np.minimum(*steps), np.minimum(*fails)
            found = first_step < first_fail
            draws = [np.where(found, first_step, first_fail - 1)] * 2
        else:
            other = 1 - active
            k_active = np.minimum(steps[active], fails[active])
            k_other = np.minimum(steps[other], fails[other])
            # The active player's k-th draw comes at place 2k - 1 of the sequence, the other's at 2k.
            active_decides = 2 * k_active - 1 < 2 * k_other
            found = np.where(active_decides, steps[active] < fails[active], steps[other] < fails[other])
            draws = [None, None]
            draws[active] = np.where(active_decides, np.where(found, k_active, k_active - 1), k_other)
            draws[other] = np.where(active_decides, k_active - 1, np.where(found, k_other, k_other - 1))
        for side, count in enumerate(draws):
            self._draw(side, count, trials)
        self.over[trials[~found]] = True
        return stuck


class _Seen:
    """One target's view of a :class:`_Block`: hand and library counts per class of :meth:`DiscardModel._one_target`."""

    def __init__(self, block: _Block, target: np.ndarray) -> None:
        self.block = block
        n_costs = len(block.costs)
        self.n_classes = 3 + 2 * n_costs
        # Base class b is class 0 (Terrains) or 1 + b when not a target, 1 or 2 + n_costs + b when a target.
        self.plain = np.concatenate([[0], np.arange(2, 3 + n_costs)])
        # The last base class, Personnages without a cost, holds no target card (check_costs refuses them).
        aimed = np.concatenate([[1], np.arange(3 + n_costs, self.n_classes), [-1]])
        members = [target & (block.base_class == b) for b in range(block.n_base)]
        self.present = np.array([b for b in range(block.n_base) if members[b].any()], dtype=np.int64)
        self.aimed = aimed[self.present]
        cum = np.zeros((len(self.present), block.size + 1, block.n), dtype=block.dtype)
        for j, b in enumerate(self.present):
            running_sums(block.holds(members[b]), cum[j])
        self.cum = cum.reshape(len(self.present), -1)
        self.hand_members = [members[b][block.hand].sum(axis=0, dtype=np.int16) for b in self.present]

    def _split(self, base: np.ndarray, aimed: np.ndarray) -> np.ndarray:
        """Counts per class from counts per base class and the target's part of them."""
        out = np.zeros((self.n_classes, base.shape[1]), dtype=np.int16)
        out[self.plain] = base
        if len(self.present):
            out[self.aimed] = aimed
            out[self.plain[self.present]] -= aimed
        return out

    def hand_counts(self) -> np.ndarray:
        """The opening hand's counts per class, shape (n_classes, n)."""
        block = self.block
        base = np.zeros((block.n_base, block.n), dtype=np.int16)
        for position in range(block.hand.shape[0]):
            base[block.base_class[block.hand[position]], block.trials] += 1
        aimed = np.array(self.hand_members, dtype=np.int16).reshape(len(self.present), block.n)
        return self._split(base, aimed)

    def library_counts(self, position: np.ndarray) -> np.ndarray:
        """Counts per class of each trial's library cards before ``position``, shape (n_classes, n)."""
        index = self.block.index(position)
        return self._split(np.take(self.block.cum, index, axis=1), np.take(self.cum, index, axis=1))


def _check_types(deck) -> None:
    """Refuse a deck whose type column is missing or empty: the model cannot tell its Terrains."""
    column = attribute_column(deck, "type")
    if column is None or all(is_missing(v) or not str(v).strip() for v in deck.cards[column]):
        raise DeckstatError(tr("column 'type' (type de carte) has no value; the discard model needs each card's "
                               "type (Terrain or Personnage): add a 'type' column"))
