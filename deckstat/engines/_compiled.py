"""The kernel's compiled loops (numba): one trial at a time over position-major arrays.

Imported by :mod:`deckstat.engines.kernel` on the first draw only, so that
``import deckstat`` and commands that never simulate do not load numba.
Compiled code is cached on disk (``cache=True``, next to this file or in
numba's user cache): the first simulation on a machine compiles it (a few
seconds), later processes load it; starting the JIT and loading costs about
half a second, paid once at import (:func:`_load`), which worker processes
inherit from the forkserver that preloads this module.

Every loop here maps random numbers to cards exactly as the position-major
numpy formulation described in :mod:`deckstat.engines.kernel` does: the card
drawn at position ``i`` is the ``index``-th remaining card, cards ordered by
cell. Cells are found with a Fenwick tree (``O(log cells)`` a card), so the
cost does not grow with the number of groups.
"""

from __future__ import annotations

import numba as nb
import numpy as np

_JIT = {"cache": True, "nogil": True, "error_model": "numpy", "boundscheck": False}


#: Trials drawn together, position by position, over contiguous runs of each row: the loops over a tile
#: compile to SIMD instructions, and its state stays in the L1 cache.
TILE = 256


@nb.njit(**_JIT)
def draw(bits, scaled, cell_counts, table, cells_out, prefix_out):
    """Draw every trial's prefix: cell ids into ``cells_out``, group counts of every prefix into ``prefix_out``.

    Parameters
    ----------
    bits : ndarray of uint32, shape (length, n_trials)
        24 random bits in the high bits of each word when ``scaled`` (the
        index is ``(bits >> 8) * remaining >> 24``), else the indices themselves.
    scaled : bool
    cell_counts : ndarray of int64, shape (n_cells,)
    table : ndarray of int16, shape (n_cells, n_groups)
    cells_out : ndarray of int8 or int16, shape (length, n_trials), or shape (0, 0) for none
    prefix_out : ndarray of int16, shape (n_groups, length + 1, n_trials), or shape (0, 0, 0) for none
        Row 0 must hold zeros. Only for two cells; otherwise :func:`prefix_counts` follows.
    """
    length, n_trials = bits.shape
    n_cells = cell_counts.shape[0]
    n_groups = table.shape[1]
    n_cards = np.int64(0)
    for c in range(n_cells):
        n_cards += cell_counts[c]
    want_cells = cells_out.shape[0] > 0
    want_prefix = prefix_out.shape[0] > 0 and n_cells == 2
    # bounds[j]: cards left in cells 0..j; the drawn card lies past every boundary at or below its index.
    bounds = np.empty((n_cells - 1, TILE), dtype=np.int32)
    index = np.empty(TILE, dtype=np.int32)
    cell = np.empty(TILE, dtype=np.int32)
    running = np.zeros((n_groups, TILE), dtype=np.int32)
    columns = np.ascontiguousarray(table.T).astype(np.int32)
    for first in range(0, n_trials, TILE):
        width = min(TILE, n_trials - first)
        total = np.int32(0)
        for j in range(n_cells - 1):
            total += cell_counts[j]
            bounds[j, :] = total
        running[:] = 0
        for i in range(length):
            row = bits[i, first:first + width]
            if scaled:
                remaining = np.uint32(n_cards - i)
                for k in range(width):
                    index[k] = np.int32(((row[k] >> np.uint32(8)) * remaining) >> np.uint32(24))
            else:
                for k in range(width):
                    index[k] = np.int32(row[k])
            cell[:width] = 0
            for j in range(n_cells - 1):
                for k in range(width):
                    past = np.int32(bounds[j, k] <= index[k])
                    cell[k] += past
                    bounds[j, k] -= 1 - past
            if want_cells:
                out = cells_out[i, first:first + width]
                for k in range(width):
                    out[k] = cell[k]
            if want_prefix:
                # Two cells: membership is linear in the cell id (no gather, which costs more here than a
                # separate pass of prefix_counts does).
                for g in range(n_groups):
                    counts = running[g]
                    base = columns[g, 0]
                    step = columns[g, 1] - base
                    out = prefix_out[g, i + 1, first:first + width]
                    for k in range(width):
                        counts[k] += base + step * cell[k]
                        out[k] = counts[k]


@nb.njit(**_JIT)
def prefix_counts(cells, table, out):
    """Group counts of every prefix of drawn cells into ``out`` (n_groups, length + 1, n_trials), row 0 zeros."""
    length, n_trials = cells.shape
    n_groups = table.shape[1]
    columns = np.ascontiguousarray(table.T)
    for g in range(n_groups):
        member = columns[g]
        for i in range(length):
            row = cells[i]
            before = out[g, i]
            after = out[g, i + 1]
            for t in range(n_trials):
                after[t] = before[t] + member[np.uint32(row[t])]


@nb.njit(**_JIT)
def _bottom_tile(hands, width, member, counts, surplus_resource, n_bottom, table, under):
    """Group counts of the ``n_bottom`` cards each hand of a tile puts under the deck, into ``under[:, :width]``.

    ``hands[w]`` holds hand ``w``'s cell ids in drawn order. The needs policy
    of :func:`deckstat.engines.kernel.need_ranks` and the choice of
    :func:`deckstat.engines.kernel.bottom_choice`: a card's rank is the first
    need it serves that earlier wanted cards have not met; unwanted cards
    rank ``n_needs`` (``n_needs + 1`` for a surplus resource card when
    ``surplus_resource``: the last need is the resource group); the highest
    ranks go first, and among equal ranks the card drawn last.
    """
    length = hands.shape[1]
    n_needs = member.shape[1]
    n_groups = table.shape[1]
    met = np.zeros(n_needs, dtype=np.int64)
    scores = np.empty(length, dtype=np.int64)
    # Branch-free (bitwise tests, selects): the cards are random, so branches on them would be mispredicted.
    for w in range(width):
        met[:] = 0
        for p in range(length):
            cell = np.uint32(hands[w, p])
            rank = n_needs
            for i in range(n_needs):
                serves = (rank == n_needs) & member[cell, i] & (met[i] < counts[i])
                rank = i if serves else rank
            wanted = rank < n_needs
            for i in range(n_needs):
                met[i] += member[cell, i] & wanted
            if surplus_resource:
                rank += (not wanted) & member[cell, n_needs - 1]
            scores[p] = rank * length + p
        for g in range(n_groups):
            under[g, w] = 0
        for _ in range(min(n_bottom, length)):
            chosen = 0
            best = scores[0]
            for p in range(1, length):
                higher = scores[p] > best
                chosen = p if higher else chosen
                best = scores[p] if higher else best
            scores[chosen] = -1
            for g in range(n_groups):
                under[g, w] += table[np.uint32(hands[w, chosen]), g]


@nb.njit(**_JIT)
def settle(cells, prefix, keeps, rows, start, drawn_size, n_bottom, member, counts, surplus_resource, table, k,
           seen, bottom, hand_out, aside_out, mulligans):
    """Write the zones of the trials that keep the hand of mulligan ``k`` (London, free, Pokémon: no scry).

    ``cells`` (length, n) and ``prefix`` (n_groups, length + 1, n) are the
    round's draws for its ``n`` pending trials, ``keeps`` which of them keep,
    ``rows`` their rows in the outputs. The kept hand is the ``drawn_size``
    cards from ``start`` less the ``n_bottom`` it puts under the deck (see
    :func:`_bottom_tile`); ``seen[:, d]`` adds the ``d`` next cards.
    ``bottom`` may have shape (0, 0, 0): not computed.
    """
    n_groups = prefix.shape[0]
    n_trials = keeps.shape[0]
    n_draws = seen.shape[1]
    library = start + drawn_size
    hands = np.empty((TILE, drawn_size), dtype=cells.dtype)
    kept = np.empty((n_groups, TILE), dtype=np.int32)
    under = np.zeros((n_groups, TILE), dtype=np.int32)
    columns = np.empty(TILE, dtype=np.int64)
    targets = np.empty(TILE, dtype=np.int64)
    want_bottom = bottom.shape[0] > 0
    first = 0
    while first < n_trials:
        # A tile of kept trials: their columns here and their rows in the outputs.
        width = 0
        while first < n_trials and width < TILE:
            if keeps[first]:
                columns[width] = first
                width += 1
            first += 1
        for w in range(width):
            targets[w] = rows[columns[w]]
        if n_bottom:
            for p in range(drawn_size):
                row = cells[start + p]
                for w in range(width):
                    hands[w, p] = row[np.uint64(columns[w])]
        for g in range(n_groups):
            at_start = prefix[g, start]
            at_library = prefix[g, library]
            for w in range(width):
                t = np.uint64(columns[w])
                kept[g, w] = at_library[t] - at_start[t]
                under[g, w] = 0
        if n_bottom:
            _bottom_tile(hands, width, member, counts, surplus_resource, n_bottom, table, under)
            for g in range(n_groups):
                for w in range(width):
                    kept[g, w] -= under[g, w]
        for g in range(n_groups):
            at_library = prefix[g, library]
            for d in range(n_draws):
                drawn = prefix[g, library + d]
                out = seen[g, d]
                for w in range(width):
                    t = np.uint64(columns[w])
                    out[np.uint64(targets[w])] = kept[g, w] + drawn[t] - at_library[t]
            if want_bottom:
                for d in range(n_draws):
                    out = bottom[g, d]
                    for w in range(width):
                        out[np.uint64(targets[w])] = under[g, w]
            at_start = prefix[g, start]
            at_zero = prefix[g, 0]
            hand_row = hand_out[g]
            aside_row = aside_out[g]
            for w in range(width):
                t = np.uint64(columns[w])
                target = np.uint64(targets[w])
                hand_row[target] = kept[g, w]
                aside_row[target] = at_start[t] - at_zero[t]
        for w in range(width):
            mulligans[np.uint64(targets[w])] = k


def _load() -> None:
    """Load (or compile, the first time on a machine) the common signatures: one cost, paid at import.

    The first call of a compiled function costs about half a second (the JIT
    starts); paying it here lets worker processes inherit it from the server
    they fork from.
    """
    one = np.zeros((1, 1), dtype=np.uint32)
    counts = np.array([1, 1], dtype=np.int64)
    table = np.array([[1], [0]], dtype=np.int16)
    for cell_type in (np.int8, np.int16):
        cells = np.zeros((1, 1), dtype=cell_type)
        prefix = np.zeros((1, 2, 1), dtype=np.int16)
        draw(one, True, counts, table, cells, prefix)
        # A column slice of a round's random words (see kernel.ROUND_CHUNK): a non-contiguous array.
        draw(np.zeros((2, 2), dtype=np.uint32)[:, :1], True, counts, table, np.zeros((2, 1), dtype=cell_type),
             np.zeros((1, 3, 1), dtype=np.int16))
        prefix_counts(cells, table, prefix)
        keeps = np.ones(1, dtype=np.bool_)
        rows = np.zeros(1, dtype=np.int64)
        member = np.ones((2, 1), dtype=np.bool_)
        seen = np.zeros((1, 1, 1), dtype=np.int16)
        settle(cells, prefix, keeps, rows, 0, 1, 1, member, np.ones(1, dtype=np.int64), True, table, 0, seen,
               np.zeros((0, 0, 0), dtype=np.int16), np.zeros((1, 1), dtype=np.int16),
               np.zeros((1, 1), dtype=np.int16), np.zeros(1, dtype=np.int16))



_load()
