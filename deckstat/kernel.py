"""Vectorised Monte Carlo kernels: numpy arrays in, numpy arrays out.

No pandas here and no per-trial Python loop; randomness comes from a
``numpy.random.Generator`` passed in.

Representation. Cards are reduced to *cells* (disjoint classes by group
membership). A shuffled deck prefix is drawn position by position without
replacement, for all trials at once: with ``bounds[j]`` the number of
remaining cards in cells ``0..j`` (cumulative), a uniform ``u`` scaled by the
remaining deck size falls below exactly the boundaries at or above the drawn
card's cell, and those boundaries drop by one. A position costs a handful of
operations per cell boundary over contiguous arrays of trials, whatever the
deck size, and no deck matrix is ever built. Arrays are position-major
(``[position, trial]``) so that every step and every prefix sum runs over
contiguous memory; cell ids are ``int8`` (``int16`` past 127 cells) and counts
``int16``.

Zones are differences of prefix counts: the cards seen after ``d`` draws by
a player who kept hand ``k`` under the Wankul rule are the positions after
that hand, then (once the deck is exhausted) the bottomed hands in order.

Uniforms are ``float32``: choosing a cell from ``u * remaining`` then has a
bias below ``remaining / 2**24`` in probability (under 1e-5 for decks of up
to 100 cards), far under the standard error of any run this package makes.
"""

from __future__ import annotations

import numpy as np

MULLIGAN_RULES = ("none", "bottom", "london", "vancouver", "free")


def cell_dtype(n_cells: int) -> np.dtype:
    """Smallest integer dtype that holds cell ids."""
    return np.dtype(np.int8) if n_cells <= 127 else np.dtype(np.int16)


def draw_cells(cell_counts: np.ndarray, n_trials: int, length: int, rng: np.random.Generator) -> np.ndarray:
    """Draw the first ``length`` cards of ``n_trials`` independent shuffles, as cell ids.

    Parameters
    ----------
    cell_counts : ndarray of int, shape (n_cells,)
        Cards in each cell.
    n_trials : int
        Independent shuffles.
    length : int
        Cards drawn from the top of each shuffle (at most the deck size).
    rng : numpy.random.Generator

    Returns
    -------
    ndarray of int8 or int16, shape (length, n_trials)
        Cell id of each drawn card, position-major.
    """
    cell_counts = np.asarray(cell_counts, dtype=np.int64)
    n_cards = int(cell_counts.sum())
    if length > n_cards:
        raise ValueError(f"cannot draw {length} cards from {n_cards}")
    n_cells = len(cell_counts)
    dtype = cell_dtype(n_cells)
    out = np.zeros((length, n_trials), dtype=dtype)
    if n_cells <= 1 or length == 0:
        return out
    uniforms = rng.random((length, n_trials), dtype=np.float32)
    bounds = np.repeat(np.cumsum(cell_counts[:-1]).astype(np.float32)[:, None], n_trials, axis=1)
    above = np.empty(n_trials, dtype=bool)
    for i in range(length):
        threshold = uniforms[i]
        threshold *= np.float32(n_cards - i)
        cell = out[i]
        for j in range(n_cells - 1):
            # The card is in a cell after boundary j when the threshold is at or past it.
            np.greater(bounds[j], threshold, out=above)
            bounds[j] -= above
            cell += ~above
    return out


def draw_prefix_counts(cell_counts: np.ndarray, table: np.ndarray, n_trials: int, length: int,
                       rng: np.random.Generator) -> np.ndarray:
    """Group counts of every prefix of ``n_trials`` shuffles, drawn directly.

    The same draws as :func:`draw_cells` followed by :func:`prefix_counts`
    (identical results for the same generator state), without materialising
    cell ids: with boundaries ``j`` crossed (``above[j]``: the card lies in a
    cell at or before ``j``), a group's count grows by ``t[-1] - sum_j
    (t[j + 1] - t[j]) * above[j]`` where ``t`` is the group's membership by
    cell, which is a few additions of booleans per group.

    Returns
    -------
    ndarray of int16, shape (n_groups, length + 1, n_trials)
    """
    cell_counts = np.asarray(cell_counts, dtype=np.int64)
    n_cards = int(cell_counts.sum())
    if length > n_cards:
        raise ValueError(f"cannot draw {length} cards from {n_cards}")
    table = np.asarray(table, dtype=np.int16).reshape(len(cell_counts), -1)
    n_cells, n_groups = table.shape
    out = np.zeros((n_groups, length + 1, n_trials), dtype=np.int16)
    if length == 0:
        return out
    if n_cells == 1:
        out[:] = (table[0][:, None] * np.arange(length + 1, dtype=np.int16))[:, :, None]
        return out
    uniforms = rng.random((length, n_trials), dtype=np.float32)
    bounds = np.repeat(np.cumsum(cell_counts[:-1]).astype(np.float32)[:, None], n_trials, axis=1)
    above = np.empty((n_cells - 1, n_trials), dtype=bool)
    steps = np.diff(table, axis=0)  # (n_cells - 1, n_groups)
    plans = [(int(table[-1, g]), [(int(steps[j, g]), j) for j in range(n_cells - 1) if steps[j, g]])
             for g in range(n_groups)]
    for i in range(length):
        threshold = uniforms[i]
        threshold *= np.float32(n_cards - i)
        for j in range(n_cells - 1):
            np.greater(bounds[j], threshold, out=above[j])
            bounds[j] -= above[j]
        for g, (last, terms) in enumerate(plans):
            previous, current = out[g, i], out[g, i + 1]
            if last:
                np.add(previous, 1, out=current)
            else:
                current[...] = previous
            for sign, j in terms:
                (np.subtract if sign > 0 else np.add)(current, above[j], out=current)
    return out


def prefix_counts(cells: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Group counts of every prefix of drawn cards.

    Parameters
    ----------
    cells : ndarray of int, shape (length, n_trials)
    table : ndarray of bool or int8, shape (n_cells, n_groups)
        Group membership of each cell.

    Returns
    -------
    ndarray of int16, shape (n_groups, length + 1, n_trials)
        ``[g, j, :]`` = cards of group ``g`` among the first ``j`` drawn.
    """
    length, n_trials = cells.shape
    table = np.asarray(table, dtype=np.int16).reshape(len(table), -1)
    out = np.zeros((table.shape[1], length + 1, n_trials), dtype=np.int16)
    for g in range(table.shape[1]):
        member = np.take(table[:, g], cells)
        # A running sum row by row: numpy's cumsum along the leading axis is strided and much slower.
        for j in range(length):
            np.add(out[g, j], member[j], out=out[g, j + 1])
    return out


def _bottom_mask(is_resource: np.ndarray, n_bottom: int, target: int) -> np.ndarray:
    """Which hand positions go under the deck under the resource-balancing policy.

    ``is_resource`` is (hand positions, trials). Resources are put back while
    the hand holds more than ``target`` of them, other cards otherwise; within
    each kind the cards drawn last go first (a uniformly random choice, since
    the hand is in shuffled order).
    """
    hand_size = is_resource.shape[0]
    n_resource = is_resource.sum(axis=0)
    bottom_resource = np.clip(n_resource - target, 0, n_bottom)
    bottom_resource = np.maximum(bottom_resource, n_bottom - (hand_size - n_resource))
    bottom_other = n_bottom - bottom_resource
    rank_resource = np.cumsum(is_resource[::-1], axis=0)[::-1]
    rank_other = np.cumsum(~is_resource[::-1], axis=0)[::-1]
    return np.where(is_resource, rank_resource <= bottom_resource, rank_other <= bottom_other)


def deal(cell_counts: np.ndarray, table: np.ndarray, n_trials: int, *, hand_size: int, set_aside: int,
         max_draws: int, rng: np.random.Generator, mulligan: str = "none", mulligan_limit: int = 0,
         keep=None, resource: np.ndarray | None = None, resource_target: float = 0.0) -> dict:
    """Deal opening hands under a mulligan rule and draw ``max_draws`` cards after them.

    Parameters
    ----------
    cell_counts : ndarray of int, shape (n_cells,)
    table : ndarray of bool or int8, shape (n_cells, n_groups)
        Group membership of each cell.
    n_trials : int
    hand_size, set_aside : int
        Opening-hand size and cards dealt from the top before it.
    max_draws : int
        Cards drawn after the kept hand (at most the cards left).
    rng : numpy.random.Generator
    mulligan : {"none", "bottom", "london", "vancouver", "free"}
        ``bottom``: the hand goes under the deck and a new hand is drawn from
        the top, no shuffle (Wankul). ``london``: shuffle, draw a full hand,
        put one card per mulligan under the deck. ``vancouver``: shuffle, draw
        one card fewer per mulligan, then scry 1. ``free``: the first
        mulligan is a full new hand, later ones are London.
    mulligan_limit : int
        Mulligans allowed; the last hand is always kept.
    keep : callable, optional
        Maps the group counts of a hand, shape (n_groups, n), to a bool array
        (n,): keep it or not. Required unless ``mulligan == "none"``.
    resource : ndarray of bool, shape (n_cells,), optional
        Resource cells: the London bottom choice and the Vancouver scry keep
        the hand's share of resources near ``resource_target``.
    resource_target : float
        Wanted share of resources in a kept hand.

    Returns
    -------
    dict of ndarray
        Group counts, group-major and trial-last: ``hand`` (kept hand,
        (n_groups, n)), ``first_hand`` (first hand dealt), ``set_aside``,
        ``seen`` (kept hand plus the first d draws, (n_groups, max_draws + 1,
        n)), ``bottom`` (cards put under the deck and not drawn again yet,
        same shape), and ``mulligans`` taken, (n,).
    """
    cell_counts = np.asarray(cell_counts, dtype=np.int64)
    if mulligan not in MULLIGAN_RULES:
        raise ValueError(f"unknown mulligan rule {mulligan!r}")
    if mulligan != "none" and mulligan_limit > 0 and keep is None:
        raise ValueError("a mulligan rule needs a keep rule")
    if mulligan in ("none", "bottom") or mulligan_limit == 0:
        limit = mulligan_limit if mulligan == "bottom" else 0
        return _deal_bottom(cell_counts, table, n_trials, hand_size, set_aside, max_draws, rng, limit, keep)
    if resource is None:
        resource = np.zeros(len(cell_counts), dtype=bool)
    return _deal_reshuffle(cell_counts, table, n_trials, hand_size, set_aside, max_draws, rng, mulligan,
                           mulligan_limit, keep, np.asarray(resource, dtype=bool), resource_target)


def _deal_bottom(cell_counts, table, n_trials, hand_size, set_aside, max_draws, rng, limit, keep):
    n_cards = int(cell_counts.sum())
    # Positions past this are only reached by wrapping into the bottomed hands, and then it is the deck.
    length = min(n_cards, set_aside + (limit + 1) * hand_size + max_draws)
    prefix = draw_prefix_counts(cell_counts, table, n_trials, length, rng)
    base = prefix[:, set_aside]
    first_hand = prefix[:, set_aside + hand_size] - base
    mulligans = np.zeros(n_trials, dtype=np.int8)
    decided = np.zeros(n_trials, dtype=bool)
    for k in range(limit):
        start = set_aside + k * hand_size
        keeps = keep(prefix[:, start + hand_size] - prefix[:, start])
        mulligans += ~decided & ~keeps
        decided |= keeps
    draws = np.arange(max_draws + 1)
    seen = bottom = hand = None
    for k in range(limit + 1):
        start = set_aside + k * hand_size
        after = start + hand_size + draws
        hand_k = prefix[:, start + hand_size] - prefix[:, start]
        # Library: positions after hand k, then hands 0..k-1 in the order they went under.
        past = np.maximum(after - n_cards, 0)
        if past.any():
            wrapped = set_aside + np.minimum(past, k * hand_size)
            seen_k = prefix[:, np.minimum(after, length)] - prefix[:, start][:, None] \
                + prefix[:, wrapped] - base[:, None]
            bottom_k = prefix[:, start][:, None] - prefix[:, wrapped]
        else:
            seen_k = prefix[:, after[0]:after[-1] + 1] - prefix[:, start][:, None]
            bottom_k = np.broadcast_to((prefix[:, start] - base)[:, None], seen_k.shape)
        if k == 0:
            seen, bottom, hand = seen_k, bottom_k, hand_k
        else:
            # Arithmetic selection: much faster than np.where broadcasting a trial mask.
            chosen = (mulligans == k).astype(np.int16)
            seen = seen + chosen * (seen_k - seen)
            bottom = bottom + chosen * (bottom_k - bottom)
            hand = hand + chosen * (hand_k - hand)
    return {"hand": hand, "first_hand": first_hand, "seen": seen, "bottom": bottom,
            "mulligans": mulligans, "set_aside": base - prefix[:, 0]}


def _deal_reshuffle(cell_counts, table, n_trials, hand_size, set_aside, max_draws, rng, rule, limit, keep,
                    resource, resource_target):
    n_cards = int(cell_counts.sum())
    n_groups = table.shape[1]
    table16 = np.asarray(table, dtype=np.int16).reshape(len(table), -1)
    seen = np.zeros((n_groups, max_draws + 1, n_trials), dtype=np.int16)
    hand_out = np.zeros((n_groups, n_trials), dtype=np.int16)
    aside_out = np.zeros((n_groups, n_trials), dtype=np.int16)
    mulligans = np.zeros(n_trials, dtype=np.int8)
    first_hand = None
    pending = np.arange(n_trials)
    for k in range(limit + 1):
        if pending.size == 0:
            break
        # Vancouver draws one card fewer per mulligan; London and free draw a full hand.
        drawn_size = hand_size - k if rule == "vancouver" else hand_size
        n_bottom = {"london": k, "free": max(k - 1, 0)}.get(rule, 0)
        scry = rule == "vancouver" and k > 0
        length = min(n_cards, set_aside + drawn_size + max_draws + scry)
        cells = draw_cells(cell_counts, pending.size, length, rng)
        prefix = prefix_counts(cells, table16)
        start = set_aside
        drawn = prefix[:, start + drawn_size] - prefix[:, start]
        if first_hand is None:
            first_hand = drawn
        keeps = keep(drawn) if k < limit else np.ones(pending.size, dtype=bool)
        rows = pending[keeps]
        if rows.size:
            prefix = prefix[:, :, keeps]
            kept = drawn[:, keeps]
            if n_bottom:
                hand_cells = cells[start:start + drawn_size, keeps]
                target = round(resource_target * (drawn_size - n_bottom))
                under = _bottom_mask(resource[hand_cells], n_bottom, target)
                # Bottomed cards are past every draw reported (draws stop before the deck runs out).
                kept = kept - np.stack([(table16[:, g][hand_cells] * under).sum(axis=0) for g in range(n_groups)])
            library_start = start + drawn_size
            after = library_start + np.arange(max_draws + 1)
            library = prefix[:, after] - prefix[:, library_start][:, None]
            if scry and length > library_start:
                top = cells[library_start, keeps]
                resources = resource[cells[start:library_start, keeps]].sum(axis=0)
                target = round(resource_target * drawn_size)
                # The top card goes under the deck if it would push resources past the target,
                # or if it is not a resource while the hand lacks them.
                away = np.where(resource[top], resources >= target, resources < target)
                # Without it, draw d reaches one card further; it comes back only as the very last card.
                top_counts = prefix[:, library_start + 1] - prefix[:, library_start]
                beyond = after + 1 > length
                shifted = prefix[:, np.minimum(after + 1, length)] - prefix[:, library_start + 1][:, None] \
                    + np.where(beyond[None, :, None], top_counts[:, None, :], 0)
                library = np.where(away[None, None, :], shifted, library)
            seen[:, :, rows] = kept[:, None, :] + library
            hand_out[:, rows] = kept
            aside_out[:, rows] = prefix[:, start] - prefix[:, 0]
            mulligans[rows] = k
        pending = pending[~keeps]
    return {"hand": hand_out, "first_hand": first_hand, "seen": seen, "mulligans": mulligans,
            "set_aside": aside_out, "bottom": np.zeros_like(seen)}
