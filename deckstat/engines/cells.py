"""The partition of decks into disjoint *cells*: cards that every question in play treats alike.

Cards are grouped by a key row (their membership in each group, and any
per-card values a model needs, such as draw or mill effects). Every engine
works on cells, not cards: the exact engine folds them into its weights, the
kernel draws cell ids, the deck-out race reads effect values per cell, and
compare deals several decks over one shared list of cells so that their
shuffles can be paired.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def partition(counts: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Partition cards into disjoint cells by their key rows.

    Parameters
    ----------
    counts : ndarray of int, shape (n_cards,)
        Copies of each distinct card.
    keys : ndarray of bool or int, shape (n_cards, n_keys)
        What tells cards apart (group membership, effect values).

    Returns
    -------
    cell_counts : ndarray of int64, shape (n_cells,)
        Cards in each non-empty cell.
    cell_keys : ndarray, shape (n_cells, n_keys)
        The key row shared by the cards of each cell, sorted (the dtype of ``keys``).

    Examples
    --------
    >>> counts, keys = partition(np.array([3, 2, 4]), np.array([[True], [False], [True]]))
    >>> counts.tolist(), keys.ravel().tolist()
    ([2, 7], [False, True])
    """
    cell_keys, cell_counts = shared_partition([(counts, keys)])
    present = cell_counts[0] > 0
    return cell_counts[0][present], cell_keys[present]


def shared_partition(decks: Sequence[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, list[np.ndarray]]:
    """One list of cells for several decks, each with its own count per cell.

    Parameters
    ----------
    decks : sequence of (counts, keys)
        Each deck's copies per distinct card and key rows, as in :func:`partition`
        (the same key columns for every deck).

    Returns
    -------
    cell_keys : ndarray, shape (n_cells, n_keys)
        Every key row found in any deck, sorted.
    cell_counts : list of ndarray of int64
        Per deck, its cards in each cell (0 where it has none).
    """
    key_arrays = [np.asarray(keys).reshape(len(counts), -1) for counts, keys in decks]
    stacked = np.concatenate(key_arrays, axis=0)
    cell_keys, inverse = np.unique(stacked, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    per_deck, start = [], 0
    for (counts, _), keys in zip(decks, key_arrays):
        rows = inverse[start:start + len(keys)]
        start += len(keys)
        per_deck.append(np.bincount(rows, weights=counts, minlength=len(cell_keys)).astype(np.int64))
    return cell_keys, per_deck
