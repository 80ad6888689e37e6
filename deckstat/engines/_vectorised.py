"""The kernel's draw loops in numpy: the same numbers as :mod:`deckstat.engines._compiled`, without numba.

Starting numba and loading its compiled code costs about a second of CPU in a
new process (a first run on a machine compiles it, several seconds more),
while a question at the default trials needs a few tens of milliseconds of
drawing. :func:`deckstat.engines.kernel.loops` sends such small draws here
until the compiled loops are loaded. Both map the same random words to the
same cards with the same integer arithmetic, so which one runs changes no
number (tested).
"""

from __future__ import annotations

import numpy as np

#: :func:`draw` writes prefix counts whatever the number of cells (the compiled one only for two).
PREFIX_FROM_ANY_CELLS = True


def draw(bits, scaled, cell_counts, table, cells_out, prefix_out):
    """Draw every trial's prefix, as :func:`deckstat.engines._compiled.draw` does (same arguments, same results).

    Parameters
    ----------
    bits : ndarray of uint32, shape (length, n_trials)
    scaled : bool
    cell_counts : ndarray of int64, shape (n_cells,)
    table : ndarray of int16, shape (n_cells, n_groups)
    cells_out : ndarray of int8 or int16, shape (length, n_trials), or shape (0, 0) for none
    prefix_out : ndarray of int16, shape (n_groups, length + 1, n_trials), or shape (0, 0, 0) for none
        Row 0 must hold zeros.
    """
    length, n_trials = bits.shape
    n_cards = int(cell_counts.sum())
    want_cells = cells_out.shape[0] > 0
    want_prefix = prefix_out.shape[0] > 0
    # bounds[j]: cards left in cells 0..j; the drawn card lies past every boundary at or below its index.
    bounds = np.repeat(np.cumsum(cell_counts[:-1]).astype(np.int32)[:, None], n_trials, axis=1)
    index = np.empty(n_trials, dtype=np.uint32)
    past = np.empty(n_trials, dtype=bool)
    cell = np.empty(n_trials, dtype=np.int32 if want_prefix else cells_out.dtype)
    members = table.T.astype(np.int16)
    for i in range(length):
        if scaled:
            np.right_shift(bits[i], np.uint32(8), out=index)
            index *= np.uint32(n_cards - i)
            index >>= np.uint32(24)
        else:
            index[:] = bits[i]
        signed = index.view(np.int32)  # indices are under 2**31: the same values, compared as the loop does
        cell[:] = 0
        for j in range(len(bounds)):
            np.less_equal(bounds[j], signed, out=past)
            cell += past
            # A boundary at or below the index keeps its count; the others lose the drawn card.
            bounds[j] -= 1
            bounds[j] += past
        if want_cells:
            cells_out[i] = cell
        if want_prefix:
            for g in range(len(members)):
                np.add(prefix_out[g, i], members[g][cell], out=prefix_out[g, i + 1])


def prefix_counts(cells, table, out):
    """Group counts of every prefix of drawn cells into ``out`` (n_groups, length + 1, n_trials), row 0 zeros."""
    members = table.T.astype(np.int16)
    for g in range(len(members)):
        np.cumsum(members[g][cells], axis=0, dtype=np.int16, out=out[g, 1:])
