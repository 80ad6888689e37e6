"""The cards a player has seen by each turn, on simulated games played card by card (compiled).

What the turns' draws leave out is played here: Wankul's forced Terrains and
drought draws on both players' turns, and the effects that bring cards to
hand (draw, search, look). Each card is dealt when it is drawn (see
:mod:`deckstat.engines._seen`), so a game costs the cards it draws. The
player is side 0, the opponent side 1 (Wankul with two players only; only
the Terrains of its hand are followed).

The games of a block depend only on its generator (one seed drawn from it)
and the game's number, so tallies do not depend on the block size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: Effect kinds a :class:`Program` holds, as the compiled game reads them.
KINDS = {"draw": 0, "search": 1, "look": 2}
#: Drought orders, as the compiled game reads them.
ORDERS = {"together": 0, "active_first": 1}


@dataclass(frozen=True)
class Program:
    """The effects each row of a deck plays when it comes to hand, in the order written.

    Attributes
    ----------
    start : ndarray of int64, shape (n_rows + 1,)
        Row r's effects are ``start[r]:start[r + 1]`` of the arrays below.
    kind : ndarray of int64
        :data:`KINDS`.
    amount : ndarray of int64
        Cards drawn (``draw``) or looked at (``look``).
    group : ndarray of int64
        The row of ``sets`` a ``search`` or ``look`` takes from.
    take : ndarray of int64
        Cards taken (``search``, ``look``).
    sets : ndarray of bool, shape (n_sets, n_rows)
    """

    start: np.ndarray
    kind: np.ndarray
    amount: np.ndarray
    group: np.ndarray
    take: np.ndarray
    sets: np.ndarray

    @classmethod
    def of(cls, effects: Sequence[Sequence[tuple]], n_rows: int) -> Program:
        """From each row's effects ``(kind, amount, set or None, take)``, ``set`` a mask over the rows."""
        start, kind, amount, group, take, sets = [0], [], [], [], [], []
        for row_effects in effects:
            for name, n, members, k in row_effects:
                kind.append(KINDS[name])
                amount.append(int(n))
                take.append(int(k))
                if members is None:
                    group.append(0)
                else:
                    group.append(len(sets))
                    sets.append(np.asarray(members, dtype=bool))
            start.append(len(kind))
        as_int = [np.asarray(values, dtype=np.int64) for values in (start, kind, amount, group, take)]
        table = np.array(sets, dtype=bool).reshape(len(sets), n_rows) if sets else np.zeros((1, n_rows), dtype=bool)
        return cls(*as_int, table)

    @classmethod
    def none(cls, n_rows: int) -> Program:
        """No effect."""
        return cls.of([()] * n_rows, n_rows)

    @property
    def empty(self) -> bool:
        """No row has an effect."""
        return len(self.kind) == 0

    @property
    def draws_only(self) -> bool:
        """Every effect is a draw."""
        return bool(np.all(self.kind == KINDS["draw"]))

    def draws(self) -> np.ndarray:
        """Cards each row's effects draw."""
        rows = np.repeat(np.arange(len(self.start) - 1), np.diff(self.start))
        drawn = np.where(self.kind == KINDS["draw"], self.amount, 0)
        return np.bincount(rows, weights=drawn, minlength=len(self.start) - 1).astype(np.int64)


@dataclass(frozen=True)
class Seat:
    """One player's deck as the game deals it (picklable).

    Attributes
    ----------
    counts : ndarray of int
        Copies of each row.
    terrain : ndarray of bool
        Rows that are Terrains (Wankul's drought group); all False outside Wankul.
    keep_member : ndarray of int8, shape (n_rows, n_keep_groups)
        Membership in the keep rule's groups.
    limit : int
        Bottom mulligans allowed (0: none).
    """

    counts: np.ndarray
    terrain: np.ndarray
    keep_member: np.ndarray
    limit: int = 0

    def cards(self) -> np.ndarray:
        """Every card of the deck as its row number."""
        return np.repeat(np.arange(len(self.counts), dtype=np.int64), np.asarray(self.counts, dtype=np.int64))


@dataclass(frozen=True)
class SeenGame:
    """One seat's games: who plays, what the turns draw, what is counted (picklable).

    Attributes
    ----------
    player, rival : Seat, Seat or None
        The rival plays only in Wankul with two players.
    table : ndarray of int, shape (n_rows, n_columns)
        Each row's membership in each counted column.
    program : Program
        The player's effects (played on way 1 of :func:`play_seen`).
    wanted : ndarray of int64, shape (2, max_turn)
        Cards each side draws at the draw step of each turn (row 1: the rival's; unused alone). Outside Wankul,
        the draws of the player's schedule.
    turns : tuple of int
        The turns counted (0: the kept hand; t: the main phase of turn t).
    hand_size, set_aside : int
    keep_caps : ndarray of int64, shape (n_keep_groups,)
        Counts past a cap keep or not as the cap does.
    keep_lookup : ndarray of bool
        Whether a hand is kept, by its capped counts in mixed radix (``caps + 1``), the first group most
        significant.
    wankul : bool
        Wankul's forced Terrains and drought draws; otherwise the turns draw ``wanted`` and nothing else.
    seat : int
        0: the player plays first.
    drought_order : str
        :data:`ORDERS`.
    terrain_turns : int
        Player turns (both players' counted) a Terrain stays in play; 0: for ever.
    """

    player: Seat
    rival: Seat | None
    table: np.ndarray
    program: Program
    wanted: np.ndarray
    turns: tuple[int, ...]
    hand_size: int
    set_aside: int
    keep_caps: np.ndarray
    keep_lookup: np.ndarray
    wankul: bool = False
    seat: int = 0
    drought_order: str = "together"
    terrain_turns: int = 0

    def limits(self) -> np.ndarray:
        """Each side's bottom mulligans, no more than its deck can deal hands."""
        out = []
        for side in (self.player, self.rival):
            if side is None or len(self.keep_caps) == 0:
                out.append(0)
                continue
            n_cards = int(np.sum(side.counts))
            out.append(max(0, min(side.limit, (n_cards - self.set_aside) // max(self.hand_size, 1) - 1)))
        return np.asarray(out, dtype=np.int64)


def play_seen(game: SeenGame, rng: np.random.Generator, n_trials: int, ways: int = 1,
              dealt: tuple | None = None) -> np.ndarray:
    """The player's cards of each column seen by each turn, without effects (way 0) and with them (way 1).

    Parameters
    ----------
    game : SeenGame
    rng : numpy.random.Generator
        One seed is drawn from it.
    n_trials : int
    ways : {1, 2}
        2: each game is played a second time with the player's effects, from the same deal.
    dealt : tuple of ndarray, optional
        ``(hand, library)`` or ``(hand, library, rival_hand, rival_library)`` as row numbers, position-major:
        games dealt beforehand (their mulligans taken), played in that order; only searches draw random numbers.

    Returns
    -------
    ndarray of int16, shape (ways, len(turns), n_columns, n_trials)
    """
    from deckstat.engines import _seen

    seed = int(rng.integers(0, 2**63))
    player, rival = game.player, game.rival
    players = 1 if rival is None else 2
    empty = np.zeros((0, 0), dtype=np.int64)
    if dealt is not None:
        n_trials = dealt[0].shape[1]
        arrays = [np.ascontiguousarray(a, dtype=np.int64) for a in dealt]
        hand0, library0 = arrays[0], arrays[1]
        hand1, library1 = (arrays[2], arrays[3]) if len(arrays) == 4 else (empty, empty)
    else:
        hand0 = library0 = hand1 = library1 = empty
    other = rival if rival is not None else player
    table = np.ascontiguousarray(game.table, dtype=np.int64)
    out = np.zeros((ways, len(game.turns), table.shape[1], n_trials), dtype=np.int16)
    program = game.program
    _seen.play(np.uint64(seed), n_trials, player.cards(), other.cards() if rival is not None else np.zeros(0, np.int64),
               hand0, library0, hand1, library1, game.hand_size, game.set_aside, game.limits(),
               np.ascontiguousarray(player.keep_member, dtype=np.int64),
               np.ascontiguousarray(other.keep_member, dtype=np.int64), np.asarray(game.keep_caps, dtype=np.int64),
               np.asarray(game.keep_lookup, dtype=np.bool_), player.terrain.astype(np.int64),
               other.terrain.astype(np.int64), table, program.start, program.kind, program.amount, program.group,
               program.take, np.ascontiguousarray(program.sets, dtype=np.bool_),
               np.ascontiguousarray(game.wanted, dtype=np.int64), np.asarray(game.turns, dtype=np.int64),
               game.wankul, game.seat, players, ORDERS[game.drought_order], game.terrain_turns, ways, out)
    return out
