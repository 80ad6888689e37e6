"""The kernel's compiled loops (numba): one trial at a time over position-major arrays.

Imported by :mod:`deckstat.engines.kernel` on first use only, so that
``import deckstat`` and commands that never simulate do not load numba.
Compiled code is cached on disk (``cache=True``): a process pays the
compilation once per machine, then about a tenth of a second to load it.

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
        Row 0 must hold zeros.
    """
    length, n_trials = bits.shape
    n_cells = cell_counts.shape[0]
    n_groups = table.shape[1]
    n_cards = np.int64(0)
    for c in range(n_cells):
        n_cards += cell_counts[c]
    want_cells = cells_out.shape[0] > 0
    want_prefix = prefix_out.shape[0] > 0
    # bounds[j]: cards left in cells 0..j; the drawn card lies past every boundary at or below its index.
    bounds = np.empty((n_cells - 1, TILE), dtype=np.int32)
    index = np.empty(TILE, dtype=np.int32)
    cell = np.empty(TILE, dtype=np.int32)
    running = np.zeros((n_groups, TILE), dtype=np.int32)
    # Membership of the drawn card by group, without a gather: the first cell's, plus steps at boundaries crossed.
    first_cell = np.empty(n_groups, dtype=np.int32)
    steps = np.empty((max(n_cells - 1, 0), n_groups), dtype=np.int32)
    for g in range(n_groups):
        first_cell[g] = table[0, g]
        for j in range(n_cells - 1):
            steps[j, g] = table[j + 1, g] - table[j, g]
    added = np.empty((n_groups, TILE), dtype=np.int32)
    past = np.empty(TILE, dtype=np.int32)
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
            for g in range(n_groups):
                added[g, :width] = first_cell[g]
            for j in range(n_cells - 1):
                bound = bounds[j]
                for k in range(width):
                    past[k] = np.int32(bound[k] <= index[k])
                    cell[k] += past[k]
                    bound[k] -= 1 - past[k]
                for g in range(n_groups):
                    step = steps[j, g]
                    if step:
                        add = added[g]
                        for k in range(width):
                            add[k] += step * past[k]
            if want_cells:
                out = cells_out[i, first:first + width]
                for k in range(width):
                    out[k] = cell[k]
            if want_prefix:
                for g in range(n_groups):
                    add = added[g]
                    counts = running[g]
                    out = prefix_out[g, i + 1, first:first + width]
                    for k in range(width):
                        counts[k] += add[k]
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
                after[t] = before[t] + member[row[t]]


@nb.njit(inline="always", **_JIT)
def _bottom_one(hand, member, counts, surplus_resource, n_bottom, table, put_back, met, ranks):
    """Group counts of the ``n_bottom`` cards one hand (cell ids in drawn order) puts under the deck, into ``put_back``.

    The needs policy of :func:`deckstat.engines.kernel.need_ranks` and the
    choice of :func:`deckstat.engines.kernel.bottom_choice`: a card's rank is
    the first need it serves that earlier wanted cards have not met;
    unwanted cards rank ``n_needs`` (``n_needs + 1`` for a surplus resource
    card when ``surplus_resource``: the last need is the resource group); the
    highest ranks go first, and among equal ranks the card drawn last.
    """
    length = hand.shape[0]
    n_needs = member.shape[1]
    n_groups = table.shape[1]
    met[:] = 0
    # Branch-free: the hand's cards are random, so branches on them would be mispredicted half the time.
    for p in range(length):
        cell = hand[p]
        rank = n_needs
        for i in range(n_needs - 1, -1, -1):
            serves = member[cell, i] & (met[i] < counts[i])
            rank = i if serves else rank
        wanted = rank < n_needs
        for i in range(n_needs):
            met[i] += member[cell, i] & wanted
        if n_needs:
            rank += surplus_resource & (not wanted) & member[cell, n_needs - 1]
        ranks[p] = rank * length + p
    put_back[:] = 0
    for _ in range(min(n_bottom, length)):
        chosen = 0
        for p in range(1, length):
            if ranks[p] > ranks[chosen]:
                chosen = p
        ranks[chosen] = -1
        for g in range(n_groups):
            put_back[g] += table[hand[chosen], g]


@nb.njit(**_JIT)
def settle(cells, prefix, keeps, rows, start, drawn_size, n_bottom, member, counts, surplus_resource, table, k,
           seen, bottom, hand_out, aside_out, mulligans):
    """Write the zones of the trials that keep the hand of mulligan ``k`` (London, free, Pokémon: no scry).

    ``cells`` (length, n) and ``prefix`` (n_groups, length + 1, n) are the
    round's draws for its ``n`` pending trials, ``keeps`` which of them keep,
    ``rows`` their rows in the outputs. The kept hand is the ``drawn_size``
    cards from ``start`` less the ``n_bottom`` it puts under the deck (see
    :func:`_bottom_one`); ``seen[:, d]`` adds the ``d`` next cards.
    ``bottom`` may have shape (0, 0, 0): not computed.
    """
    n_groups = prefix.shape[0]
    n_trials = keeps.shape[0]
    n_draws = seen.shape[1]
    library = start + drawn_size
    met = np.zeros(member.shape[1], dtype=np.int64)
    ranks = np.empty(drawn_size, dtype=np.int64)
    hands = np.empty((TILE, drawn_size), dtype=cells.dtype)
    put_back = np.zeros(n_groups, dtype=np.int64)
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
                    hands[w, p] = row[columns[w]]
        for g in range(n_groups):
            at_start = prefix[g, start]
            at_library = prefix[g, library]
            for w in range(width):
                t = columns[w]
                kept[g, w] = at_library[t] - at_start[t]
                under[g, w] = 0
        if n_bottom:
            for w in range(width):
                _bottom_one(hands[w], member, counts, surplus_resource, n_bottom, table, put_back, met, ranks)
                for g in range(n_groups):
                    kept[g, w] -= put_back[g]
                    under[g, w] = put_back[g]
        for g in range(n_groups):
            for d in range(n_draws):
                for w in range(width):
                    t = columns[w]
                    seen[g, d, targets[w]] = kept[g, w] + prefix[g, library + d, t] - prefix[g, library, t]
            if want_bottom:
                for d in range(n_draws):
                    for w in range(width):
                        bottom[g, d, targets[w]] = under[g, w]
            for w in range(width):
                t = columns[w]
                hand_out[g, targets[w]] = kept[g, w]
                aside_out[g, targets[w]] = prefix[g, start, t] - prefix[g, 0, t]
        for w in range(width):
            mulligans[targets[w]] = k
