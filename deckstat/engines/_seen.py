"""The compiled game of :mod:`deckstat.engines.seen`: one game at a time, each card dealt when it is drawn.

A library is an unshuffled pool and the cards put under it. A card drawn
from the pool is a uniformly random one of the pool (a Fisher-Yates step
taken only when a card is needed), so a game pays for the cards it draws,
not for the deck; a card drawn once the pool is empty is the first of those
put under, in the order they went there. Shuffling the library is merging
what lies under it back into the pool.

Each game and each side draw from their own stream (SplitMix64, seeded from
the block's seed and the game's number): the games do not depend on the
block size, and the two ways of counting a game (without and with effects)
deal the same cards until the effects make them differ.

State arrays (one game, reused from game to game):

``lib[:, side]``: library size, next pool position, first and past-last
place of the cards under it (a ring of the library's size).
``state``: Terrain in play, when it leaves play, the game over, each side's
Terrains in hand, the first and past-last pending effect card.
"""

from __future__ import annotations

import numba as nb
import numpy as np

_JIT = {"cache": True, "nogil": True, "error_model": "numpy", "boundscheck": False}
# The steps of a game allocate nothing: compiled without numba's reference counting, a call no longer pays two
# atomic operations per array it is passed (some twenty), which took half of a game's time.
_STEP = dict(_JIT, _nrt=False)

#: Effect kinds of a program (:class:`deckstat.engines.seen.Program`).
DRAW, SEARCH, LOOK = 0, 1, 2
#: Drought orders.
TOGETHER, ACTIVE_FIRST = 0, 1
#: Places in ``state``.
IN_PLAY, EXPIRES, OVER, TERRAINS, PENDING_HEAD, PENDING_TAIL = 0, 1, 2, 3, 5, 6
#: Places in ``lib``.
SIZE, POOL, HEAD, TAIL = 0, 1, 2, 3
#: "Never" for a Terrain that is never scored.
_FOREVER = np.int64(2**62)


@nb.njit(**_STEP)
def _mix(z):
    """SplitMix64's output function: a well-mixed 64-bit word from ``z``."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@nb.njit(**_STEP)
def _below(streams, side, m):
    """A random integer in [0, m) from ``side``'s stream (multiply-shift of 32 random bits)."""
    streams[side] += np.uint64(0x9E3779B97F4A7C15)
    bits = _mix(streams[side]) >> np.uint64(32)
    return np.int64((bits * np.uint64(m)) >> np.uint64(32))


@nb.njit(**_STEP)
def _left(lib, side):
    """Cards left in ``side``'s library."""
    return lib[SIZE, side] - lib[POOL, side] + lib[TAIL, side] - lib[HEAD, side]


@nb.njit(**_STEP)
def _take(pool, under, lib, streams, side):
    """The top card of ``side``'s library (there must be one)."""
    size, p = lib[SIZE, side], lib[POOL, side]
    if p < size:
        j = p + _below(streams, side, size - p)
        card = pool[side, j]
        pool[side, j] = pool[side, p]
        pool[side, p] = card
        lib[POOL, side] = p + 1
        return card
    card = under[side, lib[HEAD, side] % size]
    lib[HEAD, side] += 1
    return card


@nb.njit(**_STEP)
def _put_under(under, lib, side, card):
    """``card`` goes under ``side``'s library."""
    under[side, lib[TAIL, side] % lib[SIZE, side]] = card
    lib[TAIL, side] += 1


@nb.njit(**_STEP)
def _enter(side, card, state, counts, table, terrain0, terrain1, pending, op_start, effects):
    """``card`` joins ``side``'s hand: counted (the player's), its effects pending when they are played."""
    if side == 1:
        state[TERRAINS + 1] += terrain1[card]
        return
    state[TERRAINS] += terrain0[card]
    for c in range(counts.shape[0]):
        counts[c] += table[card, c]
    if effects and op_start[card + 1] > op_start[card]:
        pending[state[PENDING_TAIL]] = card
        state[PENDING_TAIL] += 1


@nb.njit(**_STEP)
def _force(side, time, state, terrain_turns):
    """The active side plays a Terrain from hand where none is in play (« il DOIT la poser »)."""
    if state[OVER] == 0 and state[IN_PLAY] == 0 and state[TERRAINS + side] > 0:
        state[TERRAINS + side] -= 1
        state[IN_PLAY] = 1
        state[EXPIRES] = time + terrain_turns if terrain_turns > 0 else _FOREVER


@nb.njit(**_STEP)
def _search(group, take, pool, under, lib, streams, scratch, members, sets, state, counts, table, terrain0, terrain1,
            pending, op_start, effects):
    """The player takes ``take`` cards of ``sets[group]`` from the library, chosen at random, then shuffles it."""
    size = lib[SIZE, 0]
    m = 0
    for j in range(lib[POOL, 0], size):
        scratch[m] = pool[0, j]
        m += 1
    for q in range(lib[HEAD, 0], lib[TAIL, 0]):
        scratch[m] = under[0, q % size]
        m += 1
    found = 0
    for j in range(m):
        if sets[group, scratch[j]]:
            members[found] = j
            found += 1
    taken = min(take, found)
    for t in range(taken):
        j = t + _below(streams, 0, found - t)
        place = members[j]
        members[j] = members[t]
        members[t] = place
        _enter(0, scratch[place], state, counts, table, terrain0, terrain1, pending, op_start, effects)
        scratch[place] = -1
    # The rest is the library again, all of it in the pool: shuffled.
    p = size
    for j in range(m - 1, -1, -1):
        if scratch[j] >= 0:
            p -= 1
            pool[0, p] = scratch[j]
    lib[POOL, 0] = p
    lib[HEAD, 0] = 0
    lib[TAIL, 0] = 0


@nb.njit(**_STEP)
def _look(n, group, take, pool, under, lib, streams, scratch, sets, state, counts, table, terrain0, terrain1,
          pending, op_start, effects):
    """The player looks at the top ``n`` cards, takes the first ``take`` of ``sets[group]``, the rest goes under."""
    seen = min(n, _left(lib, 0))
    for i in range(seen):
        scratch[i] = _take(pool, under, lib, streams, 0)
    taken = 0
    for i in range(seen):
        card = scratch[i]
        if taken < take and sets[group, card]:
            _enter(0, card, state, counts, table, terrain0, terrain1, pending, op_start, effects)
            taken += 1
        else:
            _put_under(under, lib, 0, card)


@nb.njit(**_STEP)
def _play_effects(wankul, pool, under, lib, streams, scratch, members, state, counts, table, terrain0, terrain1,
                  pending, op_start, op_kind, op_amount, op_group, op_take, sets):
    """The player plays every pending effect card, round after round, until none is left (or it may not play).

    A round plays the cards pending at its start: their draws together (in Wankul a draw past the library loses
    the game, and nothing is drawn; otherwise the draws stop at the library's end), then their searches and looks,
    card by card in the order they came to hand. Cards that come meanwhile wait for the next round.
    """
    while state[PENDING_HEAD] < state[PENDING_TAIL]:
        if state[OVER] or (wankul and state[IN_PLAY] == 0):
            return
        start, stop = state[PENDING_HEAD], state[PENDING_TAIL]
        total = 0
        for q in range(start, stop):
            card = pending[q]
            for op in range(op_start[card], op_start[card + 1]):
                if op_kind[op] == DRAW:
                    total += op_amount[op]
        left = _left(lib, 0)
        state[PENDING_HEAD] = stop
        if total > left:
            if wankul:
                state[OVER] = 1
                return
            total = left
        for _ in range(total):
            card = _take(pool, under, lib, streams, 0)
            _enter(0, card, state, counts, table, terrain0, terrain1, pending, op_start, True)
        for q in range(start, stop):
            card = pending[q]
            for op in range(op_start[card], op_start[card + 1]):
                if op_kind[op] == SEARCH:
                    _search(op_group[op], op_take[op], pool, under, lib, streams, scratch, members, sets, state,
                            counts, table, terrain0, terrain1, pending, op_start, True)
                elif op_kind[op] == LOOK:
                    _look(op_amount[op], op_group[op], op_take[op], pool, under, lib, streams, scratch, sets, state,
                          counts, table, terrain0, terrain1, pending, op_start, True)


@nb.njit(**_STEP)
def _drought(active, players, order, pool, under, lib, streams, state, counts, table, terrain0, terrain1, pending,
             op_start, effects):
    """Drought draws: one card at a time until a Terrain comes; a failed draw ends the game.

    Alone, the player draws. Two players draw side by side (``TOGETHER``) or the active one first.
    """
    while True:
        if players == 1:
            if _left(lib, 0) == 0:
                state[OVER] = 1
                return
            card = _take(pool, under, lib, streams, 0)
            _enter(0, card, state, counts, table, terrain0, terrain1, pending, op_start, effects)
            if terrain0[card]:
                return
        elif order == TOGETHER:
            if _left(lib, 0) == 0 or _left(lib, 1) == 0:
                state[OVER] = 1
                return
            mine = _take(pool, under, lib, streams, 0)
            _enter(0, mine, state, counts, table, terrain0, terrain1, pending, op_start, effects)
            theirs = _take(pool, under, lib, streams, 1)
            _enter(1, theirs, state, counts, table, terrain0, terrain1, pending, op_start, effects)
            if terrain0[mine] or terrain1[theirs]:
                return
        else:
            for k in range(2):
                side = active if k == 0 else 1 - active
                if _left(lib, side) == 0:
                    state[OVER] = 1
                    return
                card = _take(pool, under, lib, streams, side)
                _enter(side, card, state, counts, table, terrain0, terrain1, pending, op_start, effects)
                if (terrain0[card] if side == 0 else terrain1[card]):
                    return


@nb.njit(**_STEP)
def _wankul_turn(side, turn, seat, players, order, terrain_turns, effects, wanted, pool, under, lib, streams,
                 scratch, members, state, counts, table, terrain0, terrain1, pending, op_start, op_kind, op_amount,
                 op_group, op_take, sets):
    """Steps 1 to 4 of ``side``'s ``turn`` and, for the player, its draw effects in the main phase."""
    time = 2 * turn + (seat if side == 0 else 1 - seat)
    if terrain_turns > 0 and state[IN_PLAY] and state[EXPIRES] <= time:
        state[IN_PLAY] = 0
    if state[OVER]:
        return
    count = wanted[side, turn - 1]
    if count > _left(lib, side):
        state[OVER] = 1
        return
    for _ in range(count):
        card = _take(pool, under, lib, streams, side)
        _enter(side, card, state, counts, table, terrain0, terrain1, pending, op_start, effects)
    _force(side, time, state, terrain_turns)
    if state[OVER] == 0 and state[IN_PLAY] == 0 and state[TERRAINS] == 0 and (
            players == 1 or state[TERRAINS + 1] == 0):
        _drought(side, players, order, pool, under, lib, streams, state, counts, table, terrain0, terrain1, pending,
                 op_start, effects)
        _force(side, time, state, terrain_turns)
    if side == 0 and effects:
        _play_effects(True, pool, under, lib, streams, scratch, members, state, counts, table, terrain0, terrain1,
                      pending, op_start, op_kind, op_amount, op_group, op_take, sets)


@nb.njit(**_STEP)
def _deal(side, cards, hand_size, set_aside, limit, keep_member, keep_caps, keep_lookup, hand, pool, under, lib,
          streams, state, counts, table, terrain0, terrain1, pending, op_start, effects):
    """Deal ``side``'s set-aside cards and hand under the bottom mulligan, from a fresh library of ``cards``."""
    size = cards.shape[0]
    for j in range(size):
        pool[side, j] = cards[j]
    lib[SIZE, side], lib[POOL, side], lib[HEAD, side], lib[TAIL, side] = size, 0, 0, 0
    for _ in range(set_aside):
        _take(pool, under, lib, streams, side)
    for i in range(hand_size):
        hand[i] = _take(pool, under, lib, streams, side)
    for _ in range(limit):
        index = 0
        for g in range(keep_caps.shape[0]):
            count = 0
            for i in range(hand_size):
                count += keep_member[hand[i], g]
            index = index * (keep_caps[g] + 1) + min(count, keep_caps[g])
        if keep_lookup[index]:
            break
        # The hand goes under the deck in the order it was dealt (a random one), a new one is dealt.
        for i in range(hand_size):
            _put_under(under, lib, side, hand[i])
        for i in range(hand_size):
            hand[i] = _take(pool, under, lib, streams, side)
    for i in range(hand_size):
        _enter(side, hand[i], state, counts, table, terrain0, terrain1, pending, op_start, effects)


@nb.njit(**_STEP)
def _dealt(side, hand_rows, library_rows, pool, under, lib, state, counts, table, terrain0, terrain1, pending,
           op_start, effects):
    """A game dealt beforehand: the library in its order (all of it under an empty pool), the hand joined."""
    size = library_rows.shape[0]
    for j in range(size):
        under[side, j] = library_rows[j]
    lib[SIZE, side], lib[POOL, side], lib[HEAD, side], lib[TAIL, side] = size, size, 0, size
    for i in range(hand_rows.shape[0]):
        _enter(side, hand_rows[i], state, counts, table, terrain0, terrain1, pending, op_start, effects)


@nb.njit(**_JIT)
def play(seed, n_trials, cards0, cards1, dealt_hand0, dealt_library0, dealt_hand1, dealt_library1, hand_size,
         set_aside, limits, keep_member0, keep_member1, keep_caps, keep_lookup, terrain0, terrain1, table, op_start,
         op_kind, op_amount, op_group, op_take, sets, wanted, turns, wankul, seat, players, order, terrain_turns,
         n_ways, out):
    """Play ``n_trials`` games and count the player's cards seen by each turn of ``turns``, in ``out``.

    See :func:`deckstat.engines.seen.play_seen`, which checks and prepares the arguments. ``out`` has shape
    (n_ways, len(turns), n_columns, n_trials): way 0 plays no effect, way 1 every effect.
    """
    max_turn = wanted.shape[1]
    n_columns = table.shape[1]
    dealt = dealt_hand0.shape[1] > 0
    size = max(cards0.shape[0], cards1.shape[0], dealt_library0.shape[0] + 1, dealt_library1.shape[0] + 1)
    pool = np.empty((2, size), dtype=np.int64)
    under = np.empty((2, size), dtype=np.int64)
    lib = np.zeros((4, 2), dtype=np.int64)
    streams = np.zeros(2, dtype=np.uint64)
    scratch = np.empty(size, dtype=np.int64)
    members = np.empty(size, dtype=np.int64)
    pending = np.empty(size + hand_size + 1, dtype=np.int64)
    hand = np.empty(max(hand_size, 1), dtype=np.int64)
    state = np.zeros(7, dtype=np.int64)
    counts = np.zeros(n_columns, dtype=np.int64)
    snapshots = np.zeros((max_turn + 1, n_columns), dtype=np.int64)
    base = np.uint64(seed)
    for game in range(n_trials):
        for way in range(n_ways):
            effects = way == 1
            state[:] = 0
            counts[:] = 0
            for side in range(2):
                streams[side] = _mix(base ^ _mix(np.uint64(2 * game + side + 1)))
            if dealt:
                _dealt(0, dealt_hand0[:, game], dealt_library0[:, game], pool, under, lib, state, counts, table,
                       terrain0, terrain1, pending, op_start, effects)
                if players == 2:
                    _dealt(1, dealt_hand1[:, game], dealt_library1[:, game], pool, under, lib, state, counts, table,
                           terrain0, terrain1, pending, op_start, effects)
            else:
                _deal(0, cards0, hand_size, set_aside, limits[0], keep_member0, keep_caps, keep_lookup, hand, pool,
                      under, lib, streams, state, counts, table, terrain0, terrain1, pending, op_start, effects)
                if players == 2:
                    _deal(1, cards1, hand_size, set_aside, limits[1], keep_member1, keep_caps, keep_lookup, hand,
                          pool, under, lib, streams, state, counts, table, terrain0, terrain1, pending, op_start,
                          effects)
            snapshots[0, :] = counts
            for turn in range(1, max_turn + 1):
                if wankul:
                    if players == 2:
                        rival_turn = turn if seat == 1 else turn - 1
                        if rival_turn >= 1:
                            _wankul_turn(1, rival_turn, seat, players, order, terrain_turns, effects, wanted, pool,
                                         under, lib, streams, scratch, members, state, counts, table, terrain0,
                                         terrain1, pending, op_start, op_kind, op_amount, op_group, op_take, sets)
                    _wankul_turn(0, turn, seat, players, order, terrain_turns, effects, wanted, pool, under, lib,
                                 streams, scratch, members, state, counts, table, terrain0, terrain1, pending,
                                 op_start, op_kind, op_amount, op_group, op_take, sets)
                else:
                    count = min(wanted[0, turn - 1], _left(lib, 0))
                    for _ in range(count):
                        card = _take(pool, under, lib, streams, 0)
                        _enter(0, card, state, counts, table, terrain0, terrain1, pending, op_start, effects)
                    if effects:
                        _play_effects(False, pool, under, lib, streams, scratch, members, state, counts, table,
                                      terrain0, terrain1, pending, op_start, op_kind, op_amount, op_group, op_take,
                                      sets)
                snapshots[turn, :] = counts
            for j in range(turns.shape[0]):
                for c in range(n_columns):
                    out[way, j, c, game] = snapshots[turns[j], c]
