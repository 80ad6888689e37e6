"""Exact probabilities for group counts in the zones of a shuffled deck.

The deck is a uniformly random permutation. Every zone deckstat asks about
(the cards set aside, the first hand, the kept hand and the cards drawn after
it, the cards a mulligan put under the deck) is a union of consecutive
*segments* of that permutation, whose sizes are known once the turn and the
mulligan decision are.

Cards are partitioned into disjoint *cells* by the groups they belong to, so
overlapping groups are exact. The joint law of the cell counts over the
segments is a product over cells of multinomial coefficients, so the engine
folds the cells in one at a time into an array of weights indexed by

* the number of cards placed so far in each segment (exact), and
* for each *tracker* (a set of groups counted over a union of segments), each
  group's count, saturated at the count above which the question no longer
  changes (one more than the largest number it is compared with).

The last segment's size is left free, so one pass answers every turn at once.
The array stays small (hand size × draws × a few saturated counts), which makes
the exact engine fast enough to be the default.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from deckstat.errors import DeckstatError, param
from deckstat.i18n import tr
from deckstat.terms import ZONES

MAX_EXACT_DECK = 500
#: Axes an array of the engine may have: numpy's functions the engine uses (``broadcast_arrays``…) take at most
#: 32 dimensions, whatever the size of each.
MOST_AXES = 32
#: Segments an array of the engine has at most, besides the groups' axes (``zone_odds``, ``redeal_odds``).
MOST_SEGMENTS = 3


def axes_needed(event: Condition, keep: Condition | None = None) -> int:
    """The most axes an array of the engine has for ``event`` (and the keep rule): segments, then one per group.

    Examples
    --------
    >>> axes_needed(Condition((0, 1), (1, 1), lambda a: a[0] >= 1))
    5
    """
    return MOST_SEGMENTS + len(event.groups) + (len(keep.groups) if keep is not None else 0)

#: What computes a weight array: :func:`segment_weights`, or a stand-in with the same arguments.
Weigh = Callable[[np.ndarray, np.ndarray, Sequence[int], Sequence["Tracker"]], np.ndarray]


@dataclass(frozen=True)
class Tracker:
    """Groups counted over a union of segments.

    Attributes
    ----------
    segments : tuple of int
        Indices of the segments whose cards are counted; the index one past
        the last segment stands for the *rest*, the cards in no segment.
    groups : tuple of int
        Column indices into the cell membership matrix.
    caps : tuple of int
        Saturation count of each group.
    distinct : tuple of bool
        Per group, whether it counts different card names rather than
        cards (``distinct(G)``); empty: none does.
    cell_names : tuple of int
        Card name of each cell, as an integer: every cell of a distinct
        group holds one name (several cells may share one, -1 for cells in
        no distinct group); empty: each cell is its own name.
    """

    segments: tuple[int, ...]
    groups: tuple[int, ...]
    caps: tuple[int, ...]
    distinct: tuple[bool, ...] = ()
    cell_names: tuple[int, ...] = ()

    def is_distinct(self, k: int) -> bool:
        """Whether group ``k`` of this tracker counts different names."""
        return bool(self.distinct) and self.distinct[k]


def _shift(arr: np.ndarray, axis: int, delta: int, saturate: bool) -> np.ndarray:
    """Move weight ``delta`` steps up ``axis``; beyond the end it is dropped or piled on the last index."""
    if delta == 0:
        return arr
    n = arr.shape[axis]
    out = np.zeros_like(arr)
    if delta < n:
        dst = [slice(None)] * arr.ndim
        src = [slice(None)] * arr.ndim
        dst[axis] = slice(delta, n)
        src[axis] = slice(0, n - delta)
        out[tuple(dst)] = arr[tuple(src)]
    if saturate:
        # Everything from n - 1 - delta up piles on the last index. Slice by slice rather than a sum over the
        # axis: numpy reduces a short inner axis one element at a time, tens of times slower (same order of
        # additions, so the same numbers).
        at = [slice(None)] * arr.ndim

        def index(i: int) -> tuple:
            at[axis] = slice(i, i + 1)
            return tuple(at)

        start = max(n - 1 - delta, 0)
        pile = out[index(n - 1)]
        np.copyto(pile, arr[index(start)])
        for i in range(start + 1, n):
            pile += arr[index(i)]
    return out


def segment_weights(cell_counts: np.ndarray, cell_membership: np.ndarray, sizes: Sequence[int],
                    trackers: Sequence[Tracker]) -> np.ndarray:
    """Weights of every (segment fill, saturated tracker counts) state.

    Parameters
    ----------
    cell_counts : ndarray of int, shape (n_cells,)
    cell_membership : ndarray of bool, shape (n_cells, n_groups)
    sizes : sequence of int
        Maximum size of each segment. The result is indexed by the exact
        number of cards in each, from 0 to that maximum.
    trackers : sequence of Tracker

    Returns
    -------
    ndarray of float
        Axes: one per segment (length ``size + 1``), then one per tracked
        group (length ``cap + 1``). Entry = number of ways (as a float) to
        choose which cards fill the segments with those counts; divide by
        :func:`total_ways` to get a probability.

    Notes
    -----
    A distinct group's axis moves by one when at least one card of a name
    lands in the tracker's segments, whatever their number. The cells of one
    name are folded one after the other with a temporary 0/1 axis (has the
    name landed yet?), which is added to the group's axis after the name's
    last cell: a name split over several cells (by another group that tells
    its printings apart) still counts once.
    """
    shape, tracker_axes = state_shape(sizes, trackers)
    n_cells = len(cell_counts)
    names = cell_name_ids(n_cells, trackers)

    def axes_of(cell: int, distinct: bool) -> list[list[int]]:
        return cell_axes(cell_membership[cell], trackers, tracker_axes, len(sizes) + 1, distinct)

    state = np.zeros(shape)
    state[(0,) * len(shape)] = 1.0
    for run in name_runs(names):
        once = {cell: axes_of(cell, True) for cell in run}
        named = sorted({axis for cell in run for axes in once[cell] for axis in axes})
        if len(run) > 1 and named:
            # One 0/1 axis per distinct axis this name moves, appended after the others.
            flag = {axis: state.ndim + i for i, axis in enumerate(named)}
            state = state.reshape(state.shape + (1,) * len(named))
            state = np.pad(state, [(0, 0)] * (state.ndim - len(named)) + [(0, 1)] * len(named))
            once = {cell: [[flag[axis] for axis in axes] for axes in once[cell]] for cell in run}
        for cell in run:
            new = np.zeros_like(state)
            _place(state, new, int(cell_counts[cell]), 0, sizes, axes_of(cell, False), once[cell], 1.0, frozenset())
            state = new
        if len(run) > 1 and named:
            for axis in reversed(named):
                # The name counts once if any of its cells landed: add the last flag to its axis, drop the flag.
                state = state[..., 0] + _shift(state[..., 1], axis, 1, saturate=True)
    return state


def state_shape(sizes: Sequence[int], trackers: Sequence[Tracker]) -> tuple[list[int], list[list[int]]]:
    """Shape of :func:`segment_weights`' array, and the axes of each tracker's groups in it."""
    shape = [s + 1 for s in sizes]
    tracker_axes: list[list[int]] = []
    for tracker in trackers:
        axes = []
        for cap in tracker.caps:
            axes.append(len(shape))
            shape.append(cap + 1)
        tracker_axes.append(axes)
    return shape, tracker_axes


def cell_axes(member: np.ndarray, trackers: Sequence[Tracker], tracker_axes: list[list[int]], n_segments: int,
              distinct: bool) -> list[list[int]]:
    """Per segment (and the rest, last), the axes a cell in groups ``member`` moves: plain groups, or distinct ones."""
    return [[axis for tracker, axes in zip(trackers, tracker_axes) if i in tracker.segments
             for k, (group, axis) in enumerate(zip(tracker.groups, axes))
             if member[group] and tracker.is_distinct(k) == distinct] for i in range(n_segments)]


def cell_name_ids(n_cells: int, trackers: Sequence[Tracker]) -> np.ndarray:
    """The card name of each cell as the trackers give it (each cell its own name when none does)."""
    names = next((t.cell_names for t in trackers if t.cell_names), None)
    return np.asarray(names, dtype=np.int64) if names else np.arange(n_cells)


def name_runs(names: np.ndarray) -> list[list[int]]:
    """The cells grouped by name, in the order :func:`segment_weights` folds them in.

    Cells of one name side by side (the order cells are folded in does not change the weights).
    """
    order = np.argsort(names, kind="stable")
    runs: list[list[int]] = []
    for cell in order:
        if runs and names[runs[-1][0]] == names[cell]:
            runs[-1].append(int(cell))
        else:
            runs.append([int(cell)])
    return runs


def _place(state: np.ndarray, out: np.ndarray, left: int, segment: int, sizes: Sequence[int],
           moves: list[list[int]], once: list[list[int]], weight: float, moved: frozenset) -> None:
    """Add to ``out`` every way to spread ``left`` cards of one cell over segments ``segment`` onwards.

    Segment by segment, so the array shifted for ``j`` cards in one segment is
    reused for every split of the rest; saturating shifts compose, so a
    tracker over several segments may be shifted once per segment. The axes
    of ``once`` (distinct groups) move by one when a card lands, at most once
    per cell even over several segments: ``moved`` holds those already moved.
    """
    if segment == len(sizes):
        # The cards left over are the rest's.
        if left:
            for axis in moves[segment]:
                state = _shift(state, axis, left, saturate=True)
            for axis in once[segment]:
                if axis not in moved:
                    state = _shift(state, axis, 1, saturate=True)
        out += weight * state
        return
    for j in range(min(left, sizes[segment]) + 1):
        shifted = _shift(state, segment, j, saturate=False)
        for axis in moves[segment]:
            shifted = _shift(shifted, axis, j, saturate=True)
        now = moved
        if j:
            for axis in once[segment]:
                if axis not in moved:
                    shifted = _shift(shifted, axis, 1, saturate=True)
            now = moved | frozenset(once[segment])
        _place(shifted, out, left - j, segment + 1, sizes, moves, once, weight * math.comb(left, j), now)


def total_ways(deck_size: int, segment_sizes: Sequence[int]) -> float:
    """Number of ways to fill segments of these sizes from ``deck_size`` distinct cards."""
    rest = deck_size - sum(segment_sizes)
    if rest < 0:
        raise ValueError("segments larger than the deck")
    return math.factorial(deck_size) / (math.prod(math.factorial(s) for s in segment_sizes)
                                        * math.factorial(rest))


def check_exact_size(deck_size: int) -> None:
    """Refuse decks too large for float weights."""
    if deck_size > MAX_EXACT_DECK:
        raise DeckstatError(tr("the exact engine handles decks of up to {most} cards, this one has {size}; use "
                               "{option}", most=MAX_EXACT_DECK, size=deck_size, option=param("method", "simulate")))


@dataclass(frozen=True)
class Condition:
    """An event (or keep rule) over some groups, ready for the engine.

    Attributes
    ----------
    groups : tuple of int
        Columns of the cell membership matrix the condition counts.
    caps : tuple of int
        Saturation count of each group.
    holds : callable
        Maps a list of integer count arrays (one per group, broadcast
        together) to a boolean array.
    distinct, cell_names : tuple
        Which groups count different names, and the name of each cell (see :class:`Tracker`).
    """

    groups: tuple[int, ...]
    caps: tuple[int, ...]
    holds: Callable[[list[np.ndarray]], np.ndarray]
    distinct: tuple[bool, ...] = ()
    cell_names: tuple[int, ...] = ()

    def mask(self) -> np.ndarray:
        """Whether the condition holds, on the grid of saturated counts."""
        if not self.groups:
            return np.asarray(self.holds([]), dtype=float)
        # Views of sparse axes: a dense count array per group would hold groups × cells integers.
        grid = np.broadcast_arrays(*np.indices(self.grid_shape, sparse=True))
        return np.asarray(self.holds(list(grid)), dtype=float)

    @property
    def grid_shape(self) -> tuple[int, ...]:
        """The shape of :meth:`mask`: one axis of ``cap + 1`` counts per group."""
        return tuple(c + 1 for c in self.caps)

    def on_empty(self) -> float:
        """Whether the condition holds for a zone with no card (1.0 or 0.0)."""
        return float(np.asarray(self.holds([np.zeros((), dtype=int) for _ in self.groups])))

    def tracker(self, segments: tuple[int, ...]) -> Tracker:
        """Track this condition's groups over ``segments``."""
        return Tracker(segments, self.groups, self.caps, self.distinct, self.cell_names)


def _outer(*masks: np.ndarray) -> np.ndarray:
    result = masks[0]
    for mask in masks[1:]:
        result = np.multiply.outer(result, mask)
    return result


def zone_odds(cell_counts: np.ndarray, cell_membership: np.ndarray, event: Condition, *, hand_size: int,
              set_aside: int, draws: Sequence[int], zone: str = "seen",
              keep: Condition | None = None, weigh: Weigh | None = None) -> tuple[np.ndarray, float]:
    """Exact P(event) in a zone, for each number of cards drawn after the opening hand.

    Parameters
    ----------
    cell_counts, cell_membership : ndarray
        Disjoint cells, from :func:`deckstat.engines.cells.partition`.
    event : Condition
        The event.
    hand_size : int
        Cards in an opening hand.
    set_aside : int
        Cards dealt from the top before the hand.
    draws : sequence of int
        Cards drawn after the kept hand, one entry per turn asked for.
    zone : {"seen", "hand", "set_aside", "bottom"}
        ``seen``: the kept hand and every card drawn since. ``hand``: the kept
        opening hand (``draws`` is ignored). ``set_aside``: the cards dealt
        before the hand. ``bottom``: the cards a mulligan put under the deck
        and not yet drawn again.
    keep : Condition, optional
        Keep rule of a one-time bottom mulligan; ``None`` for no mulligan.
    weigh : callable, optional
        What computes the weight arrays (default :func:`segment_weights`);
        :mod:`deckstat.engines.cost` passes one that only records their sizes.

    Returns
    -------
    p : ndarray of float, shape (len(draws),)
    p_keep : float
        Probability of keeping the first hand (1.0 without a mulligan).
    """
    cell_counts = np.asarray(cell_counts, dtype=np.int64)
    n_cards = int(cell_counts.sum())
    check_exact_size(n_cards)
    weigh = weigh or segment_weights
    draws = [int(d) for d in draws]
    h, s = hand_size, set_aside
    drawable = n_cards - s
    if zone not in ZONES:
        raise DeckstatError(tr("unknown zone {zone!r}; expected one of {zones}", zone=zone, zones=", ".join(ZONES)))
    if zone == "hand":
        draws = [0] * len(draws)
    if s + h > n_cards:
        raise DeckstatError(tr("the deck has {size} cards, fewer than the {dealt} dealt before turn 1", size=n_cards,
                               dealt=s + h))
    if draws and h + max(draws) > drawable:
        raise DeckstatError(tr("{seen} cards would be seen but only {drawable} can be drawn", seen=h + max(draws),
                               drawable=drawable))
    event_mask = event.mask()

    def prob(sizes: list[int], trackers: list[Tracker], index: tuple, mask: np.ndarray,
             weights: np.ndarray | None = None) -> tuple[float, np.ndarray]:
        if weights is None:
            weights = weigh(cell_counts, cell_membership, sizes, trackers)
        return float((weights[index] * mask).sum() / total_ways(n_cards, [i for i in index])), weights

    p_keep = 1.0
    if keep is not None:
        p_keep, _ = prob([h], [keep.tracker((0,))], (h,), keep.mask())
    if zone == "set_aside":
        if s == 0:
            return np.full(len(draws), event.on_empty()), p_keep
        p, _ = prob([s], [event.tracker((0,))], (s,), event_mask)
        return np.full(len(draws), p), p_keep
    if keep is None:
        if zone == "bottom":
            return np.full(len(draws), event.on_empty()), p_keep
        most = h + max(draws, default=0)
        weights = weigh(cell_counts, cell_membership, [most], [event.tracker((0,))])
        return np.array([prob([], [], (h + d,), event_mask, weights)[0] for d in draws]), p_keep

    keep_mask = keep.mask()
    mull_mask = 1.0 - keep_mask
    out = np.zeros(len(draws))
    if zone == "bottom":
        kept_part = p_keep * event.on_empty()
        weights = None
        for i, d in enumerate(draws):
            wrap = h + d - (drawable - h)
            if wrap <= 0:
                p, weights = prob([h], [keep.tracker((0,)), event.tracker((0,))], (h,),
                                  _outer(mull_mask, event_mask), weights)
            else:
                sizes = [wrap, h - wrap]
                p, _ = prob(sizes, [keep.tracker((0, 1)), event.tracker((1,))], tuple(sizes),
                            _outer(mull_mask, event_mask))
            out[i] = kept_part + p
        return out, p_keep

    # Kept first hand: the zone is the hand (segment 0) and the next d cards (segment 1).
    kept = weigh(cell_counts, cell_membership, [h, max(draws)],
                           [keep.tracker((0,)), event.tracker((0, 1))])
    kept_mask = _outer(keep_mask, event_mask)
    # Mulligan: the first hand (segment 0) goes under the deck; the zone is the next h + d cards,
    # until the draws reach the old hand at the bottom (wrap).
    plain = [d for d in draws if h + d <= drawable - h]
    mull = None
    if plain:
        mull = weigh(cell_counts, cell_membership, [h, h + max(plain)],
                               [keep.tracker((0,)), event.tracker((1,))])
    both_mask = _outer(mull_mask, event_mask)
    wrapped = None
    if len(plain) < len(draws):
        # Past the wrap the zone is the whole library and the first `wrap` cards of the old hand (A), the rest of
        # which (B) lies under them: segments A and B of up to h cards each, then the set-aside cards; the event
        # counts A and the rest (the library). One array answers every wrap at (wrap, h - wrap, s).
        wrapped = weigh(cell_counts, cell_membership, [h, h, s], [keep.tracker((0, 1)), event.tracker((0, 3))])
    for i, d in enumerate(draws):
        out[i] = prob([], [], (h, d), kept_mask, kept)[0]
        wrap = h + d - (drawable - h)
        if wrap <= 0:
            out[i] += prob([], [], (h, h + d), both_mask, mull)[0]
        else:
            out[i] += prob([], [], (wrap, h - wrap, s), both_mask, wrapped)[0]
    return out, p_keep


def redeal_odds(cell_counts: np.ndarray, cell_membership: np.ndarray, event: Condition, *, hand_size: int,
                set_aside: int, draws: Sequence[int], zone: str, keep: Condition,
                limit: int, weigh: Weigh | None = None) -> tuple[np.ndarray, float]:
    """Exact P(event) under the Pokémon mulligan: reshuffle and redraw while the hand fails ``keep``.

    Every hand comes from a fresh shuffle, so the kept deal is the
    no-mulligan deal conditioned on ``keep``, unless ``limit`` mulligans
    all failed and the last hand was kept as it came:
    ``P = (1 - f**limit) P(event and keep) / q + f**limit P(event)`` with
    ``q`` the chance to keep a hand and ``f = 1 - q``. Set-aside cards dealt
    before or after the hand have the same law (they are uniform among the
    cards the kept hand leaves), and no card is ever under the deck.

    Parameters
    ----------
    cell_counts, cell_membership, event, hand_size, set_aside, draws
        As in :func:`zone_odds`.
    zone : {"seen", "hand", "set_aside", "bottom"}
    keep : Condition
        The keep rule.
    limit : int
        Mulligans allowed; the hand after the last one is kept whatever it holds.
    weigh : callable, optional
        As in :func:`zone_odds`.

    Returns
    -------
    p : ndarray of float, shape (len(draws),)
    p_keep : float
        Probability of keeping the first hand.
    """
    cell_counts = np.asarray(cell_counts, dtype=np.int64)
    n_cards = int(cell_counts.sum())
    weigh = weigh or segment_weights
    plain, _ = zone_odds(cell_counts, cell_membership, event, hand_size=hand_size, set_aside=set_aside,
                         draws=draws, zone=zone, weigh=weigh)
    h, s = hand_size, set_aside
    q = float(weigh(cell_counts, cell_membership, [h], [keep.tracker((0,))])[(h,)].ravel()
              @ keep.mask().ravel() / total_ways(n_cards, [h]))
    fail_all = (1.0 - q) ** limit
    if zone == "bottom" or q == 0.0:
        return (np.full(len(draws), event.on_empty()) if zone == "bottom" else plain), q
    draws = [0] * len(draws) if zone == "hand" else [int(d) for d in draws]
    if zone == "set_aside":
        if s == 0:
            return plain, q
        weights = weigh(cell_counts, cell_membership, [s, h], [event.tracker((0,)), keep.tracker((1,))])
        joint = (weights[(s, h)] * _outer(event.mask(), keep.mask())).sum() / total_ways(n_cards, [s, h])
        joint = np.full(len(draws), joint)
    else:
        weights = weigh(cell_counts, cell_membership, [h, max(draws)],
                                  [keep.tracker((0,)), event.tracker((0, 1))])
        mask = _outer(keep.mask(), event.mask())
        joint = np.array([(weights[(h, d)] * mask).sum() / total_ways(n_cards, [h, d]) for d in draws])
    return (1.0 - fail_all) * joint / q + fail_all * plain, q
