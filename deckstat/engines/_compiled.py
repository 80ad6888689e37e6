"""The kernel's compiled loops (numba): one trial at a time over position-major arrays.

Imported by :mod:`deckstat.engines.kernel` only for a run long enough for it
to pay (:func:`deckstat.engines.kernel.loops`; numpy draws the same numbers
otherwise), so that ``import deckstat``, commands that never simulate and
short simulations do not load numba.
Compiled code is cached on disk (``cache=True``, next to this file or in
numba's user cache): the first call of a signature on a machine compiles it
(one to two seconds each), later processes load it; starting the JIT and
loading costs about half a second in a process. A signature is compiled or
loaded when a question first needs it (:func:`deckstat.engines.kernel.compiled`
tells the player when that takes long), in every process that uses it, worker
processes included.

Every loop here maps random numbers to cards exactly as the position-major
numpy formulation described in :mod:`deckstat.engines.kernel` does: the card
drawn at position ``i`` is the ``index``-th remaining card, cards ordered by
cell. A card's cell is found against every cell boundary (branch-free, over a
tile of trials at once), so the cost does not grow with the number of groups.

The random words are given (``bits``) or generated where they are used, from
the state of numpy's ``PCG64`` (:func:`draw_from`, :func:`deal_round`): the
words of position ``i`` start at word ``i * n_trials`` of the stream, as in a
position-major ``random_raw`` draw, so each position's row has a generator of
its own, jumped there (:func:`pcg_advance`) and stepped along the tiles. They
are the very words ``random_raw`` would give, without an array of them
written and read back.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import types
from numba.extending import intrinsic

_JIT = {"cache": True, "nogil": True, "error_model": "numpy", "boundscheck": False}


#: Trials drawn together, position by position, over contiguous runs of each row: the loops over a tile
#: compile to SIMD instructions, and its state stays in the L1 cache.
TILE = 256


@intrinsic
def _mulhi(typingctx, a, b):
    """High 64 bits of the 128-bit product of two uint64 (one multiply instruction)."""
    if a != types.uint64 or b != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        word = args[0].type
        wide = type(word)(128)  # LLVM's i128, from the argument's integer type (calling a type makes a constant)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(product, wide(64)), word)

    return types.uint64(types.uint64, types.uint64), codegen


#: numpy's PCG64 multiplier (high, low 64 bits).
_PCG_MULTIPLIER = (np.uint64(2549297995355413924), np.uint64(4865540595714422341))


@nb.njit(inline="always", **_JIT)
def _mul128(a_high, a_low, b_high, b_low):
    return _mulhi(a_low, b_low) + a_low * b_high + a_high * b_low, a_low * b_low


@nb.njit(inline="always", **_JIT)
def _add128(a_high, a_low, b_high, b_low):
    low = a_low + b_low
    return a_high + b_high + np.uint64(low < a_low), low


@nb.njit(inline="always", **_JIT)
def _pcg_next(high, low, inc_high, inc_low):
    """One step of numpy's PCG64: the new state (high, low) and its 64-bit output word (XSL-RR)."""
    high, low = _mul128(high, low, _PCG_MULTIPLIER[0], _PCG_MULTIPLIER[1])
    high, low = _add128(high, low, inc_high, inc_low)
    mixed = high ^ low
    turn = high >> np.uint64(58)
    return high, low, (mixed >> turn) | (mixed << ((np.uint64(64) - turn) & np.uint64(63)))


@nb.njit(**_JIT)
def pcg_advance(high, low, inc_high, inc_low, delta):
    """The state (high, low) of numpy's PCG64 after ``delta`` steps, in ``O(log delta)`` (as ``PCG64.advance``)."""
    mult_high, mult_low = np.uint64(0), np.uint64(1)
    plus_high, plus_low = np.uint64(0), np.uint64(0)
    cur_mult_high, cur_mult_low = _PCG_MULTIPLIER
    cur_plus_high, cur_plus_low = inc_high, inc_low
    delta = np.uint64(delta)
    while delta > np.uint64(0):
        if delta & np.uint64(1):
            mult_high, mult_low = _mul128(mult_high, mult_low, cur_mult_high, cur_mult_low)
            plus_high, plus_low = _mul128(plus_high, plus_low, cur_mult_high, cur_mult_low)
            plus_high, plus_low = _add128(plus_high, plus_low, cur_plus_high, cur_plus_low)
        one_high, one_low = _add128(cur_mult_high, cur_mult_low, np.uint64(0), np.uint64(1))
        cur_plus_high, cur_plus_low = _mul128(one_high, one_low, cur_plus_high, cur_plus_low)
        cur_mult_high, cur_mult_low = _mul128(cur_mult_high, cur_mult_low, cur_mult_high, cur_mult_low)
        delta >>= np.uint64(1)
    high, low = _mul128(mult_high, mult_low, high, low)
    return _add128(high, low, plus_high, plus_low)


@nb.njit(**_JIT)
def _stream_rows(stream, length, n_trials, high, low, half, carry):
    """Each row's generator state: row ``i`` starts at 32-bit word ``i * n_trials`` of the stream.

    ``half[i]`` tells that the row starts with the high half of a 64-bit
    word, held in ``carry[i]``. Returns the state after the whole draw
    (``ceil(length * n_trials / 2)`` words, as ``random_raw`` takes them).
    """
    for i in range(length):
        offset = i * n_trials
        high[i], low[i] = pcg_advance(stream[0], stream[1], stream[2], stream[3], offset // 2)
        half[i] = offset % 2
        if half[i]:
            high[i], low[i], word = _pcg_next(high[i], low[i], stream[2], stream[3])
            carry[i] = np.uint32(word >> np.uint64(32))
    return pcg_advance(stream[0], stream[1], stream[2], stream[3], (length * n_trials + 1) // 2)


@nb.njit(inline="always", **_JIT)
def _stream_tile(high, low, half, carry, inc_high, inc_low, width, tile):
    """The next ``width`` 32-bit words of every row into ``tile[:, :width]`` (low half of a 64-bit word first)."""
    length = high.shape[0]
    # Rows interleaved: their generators are independent, so the multiplies of one overlap the next's.
    pairs = width // 2 - 1 if width >= 2 else 0
    for i in range(length):
        if half[i]:
            tile[i, 0] = carry[i]
    for p in range(pairs):
        for i in range(length):
            high[i], low[i], word = _pcg_next(high[i], low[i], inc_high, inc_low)
            k = 2 * p + half[i]
            tile[i, k] = np.uint32(word & np.uint64(0xFFFFFFFF))
            tile[i, k + 1] = np.uint32(word >> np.uint64(32))
    for i in range(length):
        k = 2 * pairs + half[i]
        left = 0
        while k < width:
            high[i], low[i], word = _pcg_next(high[i], low[i], inc_high, inc_low)
            tile[i, k] = np.uint32(word & np.uint64(0xFFFFFFFF))
            if k + 1 < width:
                tile[i, k + 1] = np.uint32(word >> np.uint64(32))
            else:  # the high half opens the row's next tile
                carry[i] = np.uint32(word >> np.uint64(32))
                left = 1
            k += 2
        half[i] = left


@nb.njit(inline="always", **_JIT)
def _words(bits, generated, high, low, half, carry, inc_high, inc_low, first, width, tile):
    """The random words of trials ``first .. first + width - 1`` at every position into ``tile[:, :width]``."""
    if generated:
        _stream_tile(high, low, half, carry, inc_high, inc_low, width, tile)
    else:
        for i in range(tile.shape[0]):
            for k in range(width):
                tile[i, k] = bits[i, first + k]


@nb.njit(**_JIT)
def _tile_cells(tile, width, scaled, n_cards, cell_counts, drawn):
    """The cell drawn at every position of a tile's trials from their random words: ``drawn[i, :width]``."""
    n_cells = cell_counts.shape[0]
    # Work space of this call's own, so that the compiler knows it overlaps no argument (the loops compile to SIMD).
    bounds = np.empty((max(n_cells - 1, 1), TILE), dtype=np.int32)
    index = np.empty(TILE, dtype=np.int32)
    cell = np.empty(TILE, dtype=np.int32)
    # bounds[j]: cards left in cells 0..j; the drawn card lies past every boundary at or below its index.
    total = np.int32(0)
    for j in range(n_cells - 1):
        total += cell_counts[j]
        for k in range(width):
            bounds[j, k] = total
    for i in range(tile.shape[0]):
        row = tile[i]
        if scaled:
            remaining = np.uint32(n_cards - i)
            for k in range(width):
                index[k] = np.int32(((row[k] >> np.uint32(8)) * remaining) >> np.uint32(24))
        else:
            for k in range(width):
                index[k] = np.int32(row[k])
        for k in range(width):
            cell[k] = 0
        for j in range(n_cells - 1):
            for k in range(width):
                past = np.int32(bounds[j, k] <= index[k])
                cell[k] += past
                bounds[j, k] -= 1 - past
        out = drawn[i]
        for k in range(width):
            out[k] = cell[k]


@nb.njit(**_JIT)
def _source(bits, stream, length, n_trials):
    """Work space for the random words of a tile, and each row's generator (see :func:`_stream_rows`)."""
    tile = np.empty((length, TILE), dtype=np.uint32)
    high = np.empty(length, dtype=np.uint64)
    low = np.empty(length, dtype=np.uint64)
    half = np.zeros(length, dtype=np.int64)
    carry = np.zeros(length, dtype=np.uint32)
    if stream.shape[0]:
        stream[0], stream[1] = _stream_rows(stream, length, n_trials, high, low, half, carry)
    return tile, high, low, half, carry


@nb.njit(**_JIT)
def draw_from(bits, scaled, stream, length, n_trials, cell_counts, table, cells_out, prefix_out):
    """:func:`draw`, from random words given or generated here.

    Parameters
    ----------
    bits : ndarray of uint32, shape (length, n_trials), or any with ``stream``
    scaled : bool
    stream : ndarray of uint64, shape (4,) or (0,)
        A numpy ``PCG64`` state (state high, state low, increment high,
        increment low): the words are generated here, the very words ``bits``
        would hold had ``random_raw`` drawn them from that state (``scaled``
        must then be true). On return it holds the state after those words.
        Shape (0,): the words are ``bits``.
    length, n_trials : int
    cell_counts, table, cells_out, prefix_out
        As for :func:`draw`.
    """
    n_cells = cell_counts.shape[0]
    n_groups = table.shape[1]
    n_cards = np.int64(0)
    for c in range(n_cells):
        n_cards += cell_counts[c]
    want_cells = cells_out.shape[0] > 0
    want_prefix = prefix_out.shape[0] > 0 and n_cells == 2
    # The loop of draw, its words from the tile (one position-major draw's words, generated or copied).
    bounds = np.empty((n_cells - 1, TILE), dtype=np.int32)
    index = np.empty(TILE, dtype=np.int32)
    cell = np.empty(TILE, dtype=np.int32)
    running = np.zeros((n_groups, TILE), dtype=np.int32)
    columns = np.ascontiguousarray(table.T).astype(np.int32)
    tile, high, low, half, carry = _source(bits, stream, length, n_trials)
    generated = stream.shape[0] > 0
    inc_high = stream[2] if generated else np.uint64(0)
    inc_low = stream[3] if generated else np.uint64(0)
    for first in range(0, n_trials, TILE):
        width = min(TILE, n_trials - first)
        _words(bits, generated, high, low, half, carry, inc_high, inc_low, first, width, tile)
        total = np.int32(0)
        for j in range(n_cells - 1):
            total += cell_counts[j]
            bounds[j, :] = total
        running[:] = 0
        for i in range(length):
            row = tile[i]
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
                for g in range(n_groups):
                    counts = running[g]
                    base = columns[g, 0]
                    step = columns[g, 1] - base
                    out = prefix_out[g, i + 1, first:first + width]
                    for k in range(width):
                        counts[k] += base + step * cell[k]
                        out[k] = counts[k]


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


#: Needs whose membership a cell's bit mask holds (bits of an int64); past them the table is read instead.
_MASK_NEEDS = 63


@nb.njit(inline="always", **_JIT)
def _bottom_tile(local, start, drawn_size, width, wants, masks, counts, surplus_resource, n_bottom, membership,
                 under, met, rank, bits, scores, best, chosen):
    """Group counts of the ``n_bottom`` cards each hand of a tile puts under the deck, into ``under[:, :width]``.

    ``local[start + p, w]`` holds the cell of hand ``w``'s ``p``-th card, in
    drawn order; ``wants`` (n_needs, n_cells) and ``membership`` (n_groups,
    n_cells) are 0/1, ``masks`` (n_cells,) the needs each cell serves as bits
    (:func:`_need_masks`). The needs policy of
    :func:`deckstat.engines.kernel.need_ranks` and the choice of
    :func:`deckstat.engines.kernel.bottom_choice`: a card's rank is the first
    need it serves that earlier wanted cards have not met; unwanted cards
    rank ``n_needs`` (``n_needs + 1`` for a surplus resource card when
    ``surplus_resource``: the last need is the resource group); the highest
    ranks go first, and among equal ranks the card drawn last. The other
    arrays are work space of at least ``width`` columns.
    """
    n_needs = wants.shape[0]
    n_groups = membership.shape[0]
    wide = n_needs > _MASK_NEEDS
    # Every hand of the tile at once, card by card, branch-free: the loops over hands compile to SIMD.
    for i in range(n_needs):
        for w in range(width):
            met[i, w] = 0
    for p in range(drawn_size):
        cells = local[start + p]
        for w in range(width):
            bits[w] = masks[cells[w]]
            rank[w] = n_needs
        for i in range(n_needs):
            count = counts[i]
            done = met[i]
            want = wants[i]
            for w in range(width):
                serves = want[cells[w]] if wide else np.int32((bits[w] >> i) & 1)
                chosen_here = (rank[w] == n_needs) & (serves != 0) & (done[w] < count)
                rank[w] = i if chosen_here else rank[w]
        for i in range(n_needs):
            done = met[i]
            want = wants[i]
            for w in range(width):
                serves = want[cells[w]] if wide else np.int32((bits[w] >> i) & 1)
                done[w] += serves & np.int32(rank[w] < n_needs)
        if surplus_resource:
            resource = wants[n_needs - 1]
            for w in range(width):
                rank[w] += np.int32(rank[w] == n_needs) & resource[cells[w]]
        score = scores[p]
        for w in range(width):
            score[w] = rank[w] * drawn_size + p
    for g in range(n_groups):
        for w in range(width):
            under[g, w] = 0
    for _ in range(min(n_bottom, drawn_size)):
        # The best score of each hand and its card's cell; scores are distinct within a hand (they hold the
        # position), so the card chosen is the one with the best score, which then drops out.
        for w in range(width):
            best[w] = scores[0, w]
            chosen[w] = local[start, w]
        for p in range(1, drawn_size):
            score = scores[p]
            cells = local[start + p]
            for w in range(width):
                higher = score[w] > best[w]
                chosen[w] = cells[w] if higher else chosen[w]
                best[w] = score[w] if higher else best[w]
        for p in range(drawn_size):
            score = scores[p]
            for w in range(width):
                score[w] = -1 if score[w] == best[w] else score[w]
        for g in range(n_groups):
            in_group = membership[g]
            for w in range(width):
                under[g, w] += in_group[chosen[w]]


@nb.njit(**_JIT)
def _need_masks(wants):
    """Each cell's needs as the bits of an int64 (the first :data:`_MASK_NEEDS` needs)."""
    n_needs, n_cells = wants.shape
    masks = np.zeros(n_cells, dtype=np.int64)
    for c in range(n_cells):
        for i in range(min(n_needs, _MASK_NEEDS)):
            masks[c] |= np.int64(wants[i, c] != 0) << i
    return masks


@nb.njit(**_JIT)
def deal_round(bits, scaled, stream, length, cell_counts, table, rows, n_trials, start, drawn_size, n_bottom, member,
               counts, surplus_resource, k, hands, seen, bottom, hand_out, aside_out, mulligans):
    """One round of a reshuffling mulligan (London, free, Pokémon: no scry): draw it, write its zones.

    Every pending trial is shuffled anew and draws ``length`` positions (the
    random words as :func:`draw_from` reads them); the group counts of its
    hand (``drawn_size`` cards from ``start``) go to ``hands[:, t]``, and its
    zones, as if it kept that hand, to row ``rows[t]`` of the outputs (rows
    increasing; ``rows`` of shape (0,): row ``t``, for ``n_trials`` trials): a
    trial that takes a mulligan instead has them written again by a later round.
    The kept hand is the hand less the ``n_bottom`` cards it puts under the
    deck (see :func:`_bottom_tile`; ``member`` (n_cells, n_needs), ``counts``
    and ``surplus_resource`` are the needs policy); ``seen[:, d]`` adds the
    ``d`` next cards; ``bottom`` may have shape (0, 0, 0) and ``mulligans``
    shape (0,): not written.
    """
    every_row = rows.shape[0] == 0
    n_cells = cell_counts.shape[0]
    n_groups = table.shape[1]
    n_draws = seen.shape[1]
    library = start + drawn_size
    n_cards = np.int64(0)
    for c in range(n_cells):
        n_cards += cell_counts[c]
    drawn = np.empty((length, TILE), dtype=np.int32)
    kept = np.empty(TILE, dtype=np.int32)
    aside = np.empty(TILE, dtype=np.int32)
    # Zeros until a round bottoms cards (then _bottom_tile writes every tile's).
    under = np.zeros((n_groups, TILE), dtype=np.int32)
    targets = np.empty(TILE, dtype=np.int64)
    membership = np.ascontiguousarray(table.T).astype(np.int32)
    wants = np.ascontiguousarray(member.T).astype(np.int32)
    masks = _need_masks(wants)
    met = np.empty((wants.shape[0], TILE), dtype=np.int32)
    rank = np.empty(TILE, dtype=np.int32)
    need_bits = np.empty(TILE, dtype=np.int64)
    scores = np.empty((drawn_size, TILE), dtype=np.int32)
    best = np.empty(TILE, dtype=np.int32)
    chosen = np.empty(TILE, dtype=np.int32)
    want_bottom = bottom.shape[0] > 0
    tile, high, low, half, carry = _source(bits, stream, length, n_trials)
    generated = stream.shape[0] > 0
    inc_high = stream[2] if generated else np.uint64(0)
    inc_low = stream[3] if generated else np.uint64(0)
    # Two cells: membership is linear in the cell id (no gather).
    linear = n_cells == 2
    for first in range(0, n_trials, TILE):
        width = min(TILE, n_trials - first)
        _words(bits, generated, high, low, half, carry, inc_high, inc_low, first, width, tile)
        _tile_cells(tile, width, scaled, n_cards, cell_counts, drawn)
        for w in range(width):
            targets[w] = first + w if every_row else rows[first + w]
        # Rows are increasing: a tile of consecutive rows (every tile of a first round) is written as runs.
        run = targets[width - 1] - targets[0] == width - 1
        if n_bottom:
            _bottom_tile(drawn, start, drawn_size, width, wants, masks, counts, surplus_resource, n_bottom,
                         membership, under, met, rank, need_bits, scores, best, chosen)
        for g in range(n_groups):
            in_group = membership[g]
            for w in range(width):
                aside[w] = 0
                kept[w] = 0
            for p in range(start):
                _add_members(aside, drawn[p], in_group, linear, width)
            for p in range(start, library):
                _add_members(kept, drawn[p], in_group, linear, width)
            out = hands[g, first:first + width]
            for w in range(width):
                out[w] = kept[w]
            if n_bottom:
                for w in range(width):
                    kept[w] -= under[g, w]
            _put(hand_out[g], targets, run, kept, width)
            _put(aside_out[g], targets, run, aside, width)
            for d in range(n_draws):
                if d:
                    _add_members(kept, drawn[library + d - 1], in_group, linear, width)
                _put(seen[g, d], targets, run, kept, width)
            if want_bottom:
                for d in range(n_draws):
                    _put(bottom[g, d], targets, run, under[g], width)
        if mulligans.shape[0]:
            for w in range(width):
                mulligans[np.uint64(targets[w])] = k


@nb.njit(inline="always", **_JIT)
def _add_members(counts, cells, in_group, linear, width):
    """Add each trial's card's membership (``in_group[cell]``, 0/1) to ``counts[:width]``."""
    if linear:
        base = in_group[0]
        step = in_group[1] - base
        for w in range(width):
            counts[w] += base + step * cells[w]
    else:
        for w in range(width):
            counts[w] += in_group[cells[w]]


@nb.njit(inline="always", **_JIT)
def _put(out, targets, run, values, width):
    """``out[targets[w]] = values[w]`` for ``w < width``; ``run``: the targets are consecutive."""
    if run:
        part = out[targets[0]:targets[0] + width]
        for w in range(width):
            part[w] = values[w]
    else:
        for w in range(width):
            out[np.uint64(targets[w])] = values[w]
