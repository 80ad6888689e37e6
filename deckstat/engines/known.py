"""Exact probabilities once some cards are known: a hand held, cards gone, cards known to lie at the bottom.

What is still unknown is a uniformly shuffled *library* of known composition
(per cell), possibly followed by *bottom* cards known to lie under it (a
Wankul mulligan, an effect that puts cards under the deck), in random order
among themselves. The cards drawn next come from the library first, then
from the bottom block. A zone's count of a group is then the known count
already in it (``base``) plus the count among the cards drawn, whose law is
multivariate hypergeometric over the cells: the same weights
:func:`deckstat.engines.exact.segment_weights` computes, over the library or
over the bottom block.

What the known zones hold, when described by group counts, is a law over
*atoms* (cards alike for every group that matters): :func:`zone_contents`
lists the contents a zone may have, and :func:`joint_contents` the choices
of one content per zone that the deck's cards can hold together, each with
its exact number of deals.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np

from deckstat.engines.exact import Condition, segment_weights
from deckstat.errors import DeckstatError
from deckstat.i18n import number, tr

#: Pairs compared at once by :func:`joint_contents` (bounds its memory).
_PAIRS_PER_BLOCK = 1 << 16


def _holds_after(condition: Condition, base: np.ndarray) -> np.ndarray:
    """Whether ``condition`` holds on ``base + x`` for every saturated count ``x`` of its groups.

    ``x`` saturated at a group's cap means "cap or more", and so does
    ``base + x`` clipped at the cap: the event does not change past it.
    """
    if not condition.groups:
        return np.asarray(condition.holds([]), dtype=float)
    caps = np.asarray(condition.caps)
    grid = np.indices([c + 1 for c in caps])
    offset = np.asarray([base[g] for g in condition.groups]).reshape((-1,) + (1,) * len(caps))
    values = np.minimum(grid + offset, caps.reshape(offset.shape))
    return np.asarray(condition.holds(list(values)), dtype=float)


def _distinct_view(condition: Condition, membership: np.ndarray, base: np.ndarray,
                   seen_cells: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Membership and base for the ``distinct(G)`` groups of ``condition``, given the cards already in the zone.

    A name already in the zone counts once in the base, and its other copies
    no longer move the count: they leave the group's column.
    """
    if not any(condition.distinct):
        return membership, base
    membership, base = membership.copy(), base.copy()
    n_cells = len(membership)
    names = np.asarray(condition.cell_names, dtype=np.int64) if condition.cell_names else np.arange(n_cells)
    seen = np.zeros(n_cells, dtype=np.int64) if seen_cells is None else np.asarray(seen_cells, dtype=np.int64)
    for group, is_distinct in zip(condition.groups, condition.distinct):
        if not is_distinct:
            continue
        present = np.unique(names[(seen > 0) & membership[:, group]])
        base[group] = len(present)
        membership[:, group] &= ~np.isin(names, present)
    return membership, base


def group_counts(cells: np.ndarray, membership: np.ndarray) -> np.ndarray:
    """Cards of each group among ``cells`` (cards per cell), copies counted."""
    cells = np.asarray(cells, dtype=np.int64)
    return (cells[:, None] * np.asarray(membership, dtype=bool).reshape(len(cells), -1)).sum(axis=0)


def zone_counts(condition: Condition, membership: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """Each group's count among ``cells`` (per-cell counts), names for the ``distinct(G)`` groups of ``condition``."""
    cells = np.asarray(cells, dtype=np.int64)
    membership = np.asarray(membership, dtype=bool).reshape(len(cells), -1)
    _, counts = _distinct_view(condition, membership, group_counts(cells, membership), cells)
    return counts


def known_odds(library: np.ndarray, membership: np.ndarray, condition: Condition, *, base: Sequence[int],
               draws: Sequence[int], bottom: np.ndarray | None = None,
               seen_cells: np.ndarray | None = None) -> np.ndarray:
    """Exact P(condition) on the known cards of a zone plus the next ``d`` cards drawn, for each ``d``.

    Parameters
    ----------
    library : ndarray of int, shape (n_cells,)
        Unknown cards still to be drawn, per cell, in uniformly random order.
    membership : ndarray of bool, shape (n_cells, n_groups)
        Group membership of each cell.
    condition : Condition
        The event, over columns of ``membership``.
    base : sequence of int, length n_groups
        Cards of each group already known in the zone (the hand held, the cards seen).
    draws : sequence of int
        Numbers of cards drawn next; at most the library plus the bottom block.
    bottom : ndarray of int, shape (n_cells,), optional
        Cards known to lie under the library, drawn after it in random order.
    seen_cells : ndarray of int, shape (n_cells,), optional
        The known cards of the zone per cell. A ``distinct(G)`` group of
        ``condition`` counts the names among them (its entry of ``base`` is
        not read); without it, no card of such a group is known in the zone.

    Returns
    -------
    ndarray of float, shape (len(draws),)

    Examples
    --------
    Four Terrains among 20 unknown cards, none held: P(at least one in the next 3)
    is 1 - C(16,3)/C(20,3).

    >>> membership = np.array([[True], [False]])
    >>> holds = Condition((0,), (2,), lambda a: a[0] >= 1)
    >>> p = known_odds(np.array([4, 16]), membership, holds, base=[0], draws=[3])
    >>> round(float(p[0]), 6), round(1 - math.comb(16, 3) / math.comb(20, 3), 6)
    (0.508772, 0.508772)
    """
    library = np.asarray(library, dtype=np.int64)
    bottom = np.zeros_like(library) if bottom is None else np.asarray(bottom, dtype=np.int64)
    membership = np.asarray(membership, dtype=bool).reshape(len(library), -1)
    base = np.asarray(base, dtype=np.int64)
    if (library < 0).any() or (bottom < 0).any() or (base < 0).any():
        raise ValueError("negative card counts")
    n_library, n_bottom = int(library.sum()), int(bottom.sum())
    draws = [int(d) for d in draws]
    if any(d < 0 for d in draws):
        raise ValueError("negative number of draws")
    if draws and max(draws) > n_library + n_bottom:
        raise DeckstatError(tr("{draws} draws asked, but only {left} cards are left to draw", draws=max(draws),
                               left=n_library + n_bottom))
    seen = np.zeros_like(library) if seen_cells is None else np.asarray(seen_cells, dtype=np.int64)
    out = np.empty(len(draws))
    early = [d for d in draws if d <= n_library]
    if early:
        member, start = _distinct_view(condition, membership, base, seen)
        weights = segment_weights(library, member, [max(early)], [condition.tracker((0,))])
        mask = _holds_after(condition, start)
    late = [d for d in draws if d > n_library]
    if late:
        # The whole library is drawn: its cards join the zone, and the rest comes from the bottom block.
        drawn_all = base + group_counts(library, membership)
        member, start = _distinct_view(condition, membership, drawn_all, seen + library)
        late_weights = segment_weights(bottom, member, [max(late) - n_library], [condition.tracker((0,))])
        late_mask = _holds_after(condition, start)
    for i, d in enumerate(draws):
        if d <= n_library:
            out[i] = float((weights[d] * mask).sum()) / math.comb(n_library, d)
        else:
            k = d - n_library
            out[i] = float((late_weights[k] * late_mask).sum()) / math.comb(n_bottom, k)
    return np.clip(out, 0.0, 1.0)


def bounded_splits(bounds: np.ndarray, size: int) -> np.ndarray:
    """Every way ``size`` cards split over cells holding at most ``bounds`` cards each.

    Parameters
    ----------
    bounds : ndarray of int, shape (n_cells,)
    size : int

    Returns
    -------
    ndarray of int64, shape (n_splits, n_cells)
        One row per split, in lexicographic order; no row when ``size`` is
        negative or more than the cells hold.

    Examples
    --------
    >>> bounded_splits(np.array([1, 2]), 2).tolist()
    [[0, 2], [1, 1]]
    """
    bounds = np.asarray(bounds, dtype=np.int64)
    if size < 0 or size > int(bounds.sum()):
        return np.zeros((0, len(bounds)), dtype=np.int64)
    # Cards the later cells can still take bound each cell's share from below: no dead branch.
    after = np.concatenate([np.cumsum(bounds[::-1])[::-1][1:], [0]]).astype(np.int64)
    rows = np.zeros((1, 0), dtype=np.int64)
    left = np.array([size], dtype=np.int64)
    for cell, bound in enumerate(bounds):
        low = np.maximum(0, left - after[cell])
        width = np.minimum(left, bound) - low + 1
        parent = np.repeat(np.arange(len(rows)), width)
        first = np.cumsum(width) - width
        taken = low[parent] + np.arange(len(parent)) - first[parent]
        rows = np.column_stack([rows[parent], taken])
        left = left[parent] - taken
    return rows


@functools.lru_cache(maxsize=256)
def _binomials(count: int) -> np.ndarray:
    """``C(n, k)`` as exact integers (an object array) for ``0 <= n, k <= count``."""
    table = np.empty((count + 1, count + 1), dtype=object)
    for n in range(count + 1):
        table[n] = [math.comb(n, k) for k in range(count + 1)]
    table.flags.writeable = False
    return table


def compositions(cell_counts: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Every way ``size`` cards drawn from the cells can split among them, with its probability.

    Parameters
    ----------
    cell_counts : ndarray of int, shape (n_cells,)
    size : int
        Cards drawn (at most the total).

    Returns
    -------
    splits : ndarray of int64, shape (n_splits, n_cells)
        Cards of each cell drawn, one row per split, in lexicographic order.
    probabilities : ndarray of float, shape (n_splits,)
        Multivariate hypergeometric probability of each split (they sum to 1).

    Examples
    --------
    >>> splits, p = compositions(np.array([2, 3]), 2)
    >>> splits.tolist(), [round(float(x), 2) for x in p]
    ([[0, 2], [1, 1], [2, 0]], [0.3, 0.6, 0.1])
    """
    cell_counts = np.asarray(cell_counts, dtype=np.int64)
    total = int(cell_counts.sum())
    if size < 0 or size > total:
        raise ValueError(f"cannot draw {size} cards from {total}")
    # Cards that can still go to the cells after each one bound the split (no dead branches).
    after = np.concatenate([np.cumsum(cell_counts[::-1])[::-1][1:], [0]])
    splits: list[list[int]] = []
    ways: list[int] = []

    def walk(cell: int, left: int, prefix: list[int], weight: int) -> None:
        if cell == len(cell_counts):
            splits.append(list(prefix))
            ways.append(weight)
            return
        for k in range(max(0, left - int(after[cell])), min(left, int(cell_counts[cell])) + 1):
            prefix.append(k)
            walk(cell + 1, left - k, prefix, weight * math.comb(int(cell_counts[cell]), k))
            prefix.pop()

    walk(0, size, [], 1)
    all_ways = math.comb(total, size)
    return (np.array(splits, dtype=np.int64).reshape(len(splits), len(cell_counts)),
            np.array([w / all_ways for w in ways]))


def zone_contents(bounds: np.ndarray, named: np.ndarray, classes: Sequence[tuple[np.ndarray, int]], *,
                  most: int) -> np.ndarray:
    """Every content of a zone that fits its description, each once.

    A content fits when its cards split into the ``named`` cards plus, for
    each class, that many cards of the class's atoms. Classes may overlap
    (a zone described twice, a named card also in a counted group): the
    same content reached by two splits is one content.

    Parameters
    ----------
    bounds : ndarray of int, shape (n_atoms,)
        Cards of each atom the zone may hold.
    named : ndarray of int, shape (n_atoms,)
        Cards of each atom named in the zone.
    classes : sequence of (ndarray of bool, shape (n_atoms,), int)
        The atoms of each group count, and the count.
    most : int
        Most partial contents built before refusing.

    Returns
    -------
    ndarray of int64, shape (n_contents, n_atoms)
        Cards of each atom in the zone, one distinct row per content, sorted; no row when none fits.

    Raises
    ------
    DeckstatError
        More than ``most`` partial contents.

    Examples
    --------
    Two atoms, both in the class; one card of atom 0 named, one card of the class:

    >>> zone_contents(np.array([2, 1]), np.array([1, 0]), [(np.array([True, True]), 1)], most=100).tolist()
    [[1, 1], [2, 0]]
    """
    bounds = np.asarray(bounds, dtype=np.int64)
    named = np.asarray(named, dtype=np.int64)
    found = named[None, :] if (named <= bounds).all() else np.zeros((0, len(bounds)), dtype=np.int64)
    built = 0
    for inside, n in classes:
        inside = np.flatnonzero(inside)
        blocks = []
        for partial in found:
            splits = bounded_splits((bounds - partial)[inside], n)
            built += len(splits)
            if built > most:
                raise DeckstatError(_too_many(most))
            block = np.repeat(partial[None, :], len(splits), axis=0)
            block[:, inside] += splits
            blocks.append(block)
        found = np.unique(np.concatenate(blocks), axis=0) if blocks else np.zeros((0, len(bounds)), dtype=np.int64)
    return found


def _too_many(most: int) -> str:
    """The refusal of an enumeration past ``most`` cases."""
    return tr("the cards given by group counts leave more than {most} cases to weigh; name more of them, or count "
              "fewer groups", most=number(most))


def joint_contents(counts: np.ndarray, contents: Sequence[np.ndarray], *,
                   most: int) -> tuple[np.ndarray, np.ndarray]:
    """Every choice of one content per zone that the deck's cards can hold together, with its number of deals.

    Every copy is a distinct card: a joint choice is met by
    ``prod over atoms of count! / (x_1! ... x_z! rest!)`` choices of the
    cards in each zone (``x_i`` the atom's cards in zone ``i``), the number
    of labelled deals with these contents.

    Parameters
    ----------
    counts : ndarray of int, shape (n_atoms,)
        Cards of each atom in the deck.
    contents : sequence of ndarray of int, shape (n_contents_i, n_atoms)
        The contents each zone may have (:func:`zone_contents`).
    most : int
        Most (partial choice, content) pairs examined before refusing.

    Returns
    -------
    choices : ndarray of int64, shape (n_choices, n_zones)
        The row of each zone's content, one row per joint choice the cards can hold.
    ways : ndarray of object (int), shape (n_choices,)
        Its number of labelled deals, exactly; no row when no choice fits.

    Raises
    ------
    DeckstatError
        More than ``most`` pairs to examine.

    Examples
    --------
    Two cards of one atom; one in the hand (2 ways), then one gone (1 way), or two gone (none):

    >>> choices, ways = joint_contents(np.array([2]), [np.array([[1]]), np.array([[1], [2]])], most=100)
    >>> choices.tolist(), ways.tolist()
    ([[0, 0]], [2])
    """
    counts = np.asarray(counts, dtype=np.int64)
    used = np.zeros((1, len(counts)), dtype=np.int64)
    choices = np.zeros((1, 0), dtype=np.int64)
    ways = np.ones(1, dtype=object)
    examined = 0
    for rows in contents:
        rows = np.asarray(rows, dtype=np.int64)
        examined += len(used) * len(rows)
        if examined > most:
            raise DeckstatError(_too_many(most))
        # Pairs (partial choice, content) whose cards are all still available, a bounded block at a time.
        step = max(1, _PAIRS_PER_BLOCK // max(len(rows), 1))
        parents, picked = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
        for first in range(0, len(used), step):
            fits = (rows[None, :, :] <= (counts - used[first:first + step])[:, None, :]).all(axis=2)
            block_parent, block_row = np.nonzero(fits)
            parents.append(block_parent + first)
            picked.append(block_row)
        parent, row = np.concatenate(parents), np.concatenate(picked)
        # The zone's cards of an atom are chosen among the ones the earlier zones left: C(left, taken).
        factor = np.ones(len(parent), dtype=object)
        for atom in np.flatnonzero(rows.any(axis=0)):
            count = int(counts[atom])
            factor = factor * _binomials(count)[count - used[parent, atom], rows[row, atom]]
        ways = ways[parent] * factor
        used = used[parent] + rows[row]
        choices = np.column_stack([choices[parent], row])
    return choices, ways


def known_zone_odds(unknown: np.ndarray, membership: np.ndarray, condition: Condition, *, hand: np.ndarray,
                    draws: Sequence[int], bottom: np.ndarray | None = None, set_aside: np.ndarray | None = None,
                    hidden: int = 0, broken: int = 0, zone: str = "seen") -> np.ndarray:
    """Exact P(condition) in a zone mid-game, with set-aside cards known or not and some of them broken.

    The cards whose place is unknown (``unknown``) are the library and the
    ``hidden`` set-aside cards nobody looked at, a uniformly random subset of
    them. ``broken`` set-aside cards (Duel Masters shields broken so far) were
    moved to the hand, taken at random among all the set-aside cards, the
    known ones and the hidden ones alike.

    Parameters
    ----------
    unknown : ndarray of int, shape (n_cells,)
        Cards in the library or among the hidden set-aside cards, per cell.
    membership : ndarray of bool, shape (n_cells, n_groups)
    condition : Condition
    hand : ndarray of int, shape (n_cells,)
        Cards known in hand, per cell.
    draws : sequence of int
        Cards drawn next (zone ``seen``); at most the library plus the bottom block.
    bottom : ndarray of int, shape (n_cells,), optional
        Cards known to lie under the library, drawn after it in random order.
    set_aside : ndarray of int, shape (n_cells,), optional
        Set-aside cards known by name, per cell.
    hidden : int
        Set-aside cards not known.
    broken : int
        Set-aside cards moved to the hand, unknown which.
    zone : {"seen", "set_aside"}
        ``seen``: the hand, the broken cards and the next ``d`` cards drawn.
        ``set_aside``: the broken cards when ``broken`` > 0, else every
        set-aside card (``draws`` then only sets the length of the result).

    Returns
    -------
    ndarray of float, shape (len(draws),)

    Examples
    --------
    Two shields broken at random out of five, none known, in 40 cards with 8 triggers:
    P(a trigger among them) = 1 - C(32,2)/C(40,2).

    >>> membership = np.array([[True], [False]])
    >>> holds = Condition((0,), (2,), lambda a: a[0] >= 1)
    >>> p = known_zone_odds(np.array([8, 32]), membership, holds, hand=np.zeros(2, int), draws=[0], hidden=5,
    ...                     broken=2, zone="set_aside")
    >>> round(float(p[0]), 6), round(1 - math.comb(32, 2) / math.comb(40, 2), 6)
    (0.364103, 0.364103)
    """
    unknown = np.asarray(unknown, dtype=np.int64)
    n_cells = len(unknown)
    membership = np.asarray(membership, dtype=bool).reshape(n_cells, -1)
    zeros = np.zeros(n_cells, dtype=np.int64)
    hand = np.asarray(hand, dtype=np.int64)
    bottom = zeros if bottom is None else np.asarray(bottom, dtype=np.int64)
    set_aside = zeros if set_aside is None else np.asarray(set_aside, dtype=np.int64)
    draws = [int(d) for d in draws]
    n_unknown = int(unknown.sum())
    if hidden < 0 or broken < 0 or hidden > n_unknown:
        raise ValueError("impossible numbers of hidden or broken set-aside cards")
    if broken > int(set_aside.sum()) + hidden:
        raise DeckstatError(tr("{broken} set-aside cards broken, but there are only {count}", broken=broken,
                               count=int(set_aside.sum()) + hidden))

    def counts(cells: np.ndarray) -> np.ndarray:
        return group_counts(cells, membership)

    # Which set-aside cards are broken: the known cells, then one slot for the hidden cards.
    broken_splits = list(zip(*compositions(np.append(set_aside, hidden), broken)))
    if zone == "set_aside":
        if broken == 0:
            p = known_odds(unknown, membership, condition, base=counts(set_aside), draws=[hidden],
                           seen_cells=set_aside)[0]
        else:
            p = sum(q * known_odds(unknown, membership, condition, base=counts(split[:-1]), draws=[split[-1]],
                                   seen_cells=split[:-1])[0]
                    for split, q in broken_splits)
        return np.full(len(draws), float(p))
    library = n_unknown - hidden
    if draws and max(draws) > library + int(bottom.sum()):
        raise DeckstatError(tr("{draws} draws asked, but only {left} cards are left to draw", draws=max(draws),
                               left=library + int(bottom.sum())))
    out = np.zeros(len(draws))
    base = counts(hand)
    if hidden == 0 or not draws or max(draws) <= library:
        # The hidden broken cards and the next d draws are together a uniformly random subset of the
        # unknown cards, of h + d of them, as long as the draws stay in the library.
        for split, q in broken_splits:
            h = int(split[-1])
            out += q * known_odds(unknown, membership, condition, base=base + counts(split[:-1]),
                                  draws=[h + d for d in draws], bottom=bottom, seen_cells=hand + split[:-1])
        return np.clip(out, 0.0, 1.0)
    # Draws reach the bottom block: which cells the hidden set-aside cards hold sets the library's end.
    for hidden_cells, r in zip(*compositions(unknown, hidden)):
        for split, q in zip(*compositions(np.concatenate([set_aside, hidden_cells]), broken)):
            moved = split[:n_cells] + split[n_cells:]
            out += r * q * known_odds(unknown - hidden_cells, membership, condition, base=base + counts(moved),
                                      draws=draws, bottom=bottom, seen_cells=hand + moved)
    return np.clip(out, 0.0, 1.0)
