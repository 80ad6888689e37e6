"""What an exact question will cost, known before any weight array is allocated.

The exact engine's time and memory grow with the product of its array's
axes (segment fills times saturated group counts) and with the number of
ways each cell can spread over the segments, so a question can take a
millisecond or an hour. :func:`dry_run` runs the engine's own code
(:func:`deckstat.engines.exact.zone_odds` or ``redeal_odds``) with a stand-in
for :func:`~deckstat.engines.exact.segment_weights` that allocates nothing: it
walks the same cells, segments and splits and counts the array passes they
would make, and hands back a zero array of the right shape that takes no
memory. The arrays the engine would hold at once are followed as the real
run holds them (a weakref per stand-in array), so the peak memory is that of
the code as it is, not of a model of it.

Seconds come from the passes through two constants measured on one core
(:data:`SECONDS_PER_ELEMENT`, :data:`SECONDS_PER_OPERATION`); the tests check
the predictions against measured runs.
"""

from __future__ import annotations

import functools
import math
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from deckstat.engines import exact
from deckstat.i18n import N_, localise_number, tr

#: Seconds per float64 element an array operation of the exact engine reads or writes (measured, one core).
SECONDS_PER_ELEMENT = 2.0e-9
#: Fixed seconds of one numpy operation of the exact engine (call overhead, measured, one core).
SECONDS_PER_OPERATION = 8.0e-6
#: Bytes of one element of a weight array.
ELEMENT_BYTES = 8


@dataclass(frozen=True)
class Cost:
    """Predicted work and memory of an exact computation.

    Attributes
    ----------
    passes : float
        Array elements read or written, summed over the engine's operations.
    operations : int
        Numpy operations on weight arrays.
    peak_bytes : int
        Most bytes of weight arrays alive at once.
    largest : int
        Elements of the largest weight array.
    at_least : bool
        Whether only the memory is known, as a lower bound (see :func:`grid_floor`): too much to look closer.
    axes : int
        Axes of the engine's arrays, when more than numpy takes (:data:`~deckstat.engines.exact.MOST_AXES`):
        the engine cannot run at all (see :func:`too_many_axes`); 0 otherwise.
    """

    passes: float = 0.0
    operations: int = 0
    peak_bytes: int = 0
    largest: int = 0
    at_least: bool = False
    axes: int = 0

    @property
    def seconds(self) -> float:
        """Predicted seconds on one core of the machine the constants were measured on."""
        return self.passes * SECONDS_PER_ELEMENT + self.operations * SECONDS_PER_OPERATION

    def __add__(self, other: Cost) -> Cost:
        """Two computations run one after the other: work adds up, memory is the larger peak."""
        return Cost(self.passes + other.passes, self.operations + other.operations,
                    max(self.peak_bytes, other.peak_bytes), max(self.largest, other.largest),
                    self.at_least or other.at_least, max(self.axes, other.axes))

    def describe(self) -> str:
        """The cost in words: ``~40 s and 1.2 GiB``, ``at least 12.2 GiB`` for a lower bound, or the axes."""
        if self.axes:
            return tr("arrays of {axes} axes, one per group counted, more than the {most} numpy takes",
                      axes=self.axes, most=exact.MOST_AXES)
        if self.at_least:
            return tr("at least {memory}", memory=format_bytes(self.peak_bytes))
        return tr("~{seconds} and {memory}", seconds=format_seconds(self.seconds), memory=format_bytes(self.peak_bytes))


def too_many_axes(event: exact.Condition, keep: exact.Condition | None = None) -> Cost | None:
    """The cost of a question the engine cannot take at all, its arrays having too many axes; else None.

    Checked before :func:`grid_floor` and :func:`dry_run`, which would build such arrays themselves (40 groups
    that match no card make 40 axes of length 1: no memory, but more axes than numpy takes).

    Examples
    --------
    >>> many = exact.Condition(tuple(range(40)), (0,) * 40, lambda a: a[0] >= 1)
    >>> too_many_axes(many).axes, too_many_axes(exact.Condition((0,), (1,), lambda a: a[0] >= 1))
    (43, None)
    """
    axes = exact.axes_needed(event, keep)
    if axes <= exact.MOST_AXES:
        return None
    return Cost(passes=math.inf, peak_bytes=0, at_least=True, axes=axes)


def grid_floor(event: exact.Condition, keep: exact.Condition | None = None) -> Cost:
    """A lower bound of the exact engine's memory, known from the conditions alone.

    Every weight array has one axis per group of the event (``cap + 1``
    counts), and with a keep rule the engine holds the outer product of the
    two masks: that many float64 elements at least. Beyond the limits, this
    refuses a question before :func:`dry_run`, whose stand-ins would still
    have to be multiplied with masks that large.

    Examples
    --------
    >>> event = exact.Condition((0, 1), (4, 4), lambda a: a[0] >= 4)
    >>> grid_floor(event).peak_bytes, grid_floor(event).describe()
    (200, 'at least 1 KiB')
    """
    elements = math.prod(event.grid_shape) * (math.prod(keep.grid_shape) if keep is not None else 1)
    return Cost(peak_bytes=elements * ELEMENT_BYTES, largest=elements, at_least=True)


def format_seconds(seconds: float) -> str:
    """A duration as people read it, in the current language.

    Examples
    --------
    >>> format_seconds(0.004), format_seconds(2.3), format_seconds(95), format_seconds(7300)
    ('4 ms', '2.3 s', '1.6 min', '2.0 h')
    """
    if seconds < 1:
        text = f"{seconds * 1000:.0f} ms"
    elif seconds < 10:
        text = f"{seconds:.1f} s"
    elif seconds < 60:
        text = f"{seconds:.0f} s"
    elif seconds < 3600:
        text = f"{seconds / 60:.1f} min"
    else:
        text = f"{seconds / 3600:.1f} h"
    return localise_number(text)


def format_bytes(n_bytes: float) -> str:
    """A memory size in binary units, in the current language (French writes ``Gio`` for ``GiB``).

    Examples
    --------
    >>> format_bytes(512), format_bytes(3 * 2**20), format_bytes(256 * 2**20), format_bytes(1.25 * 2**30)
    ('1 KiB', '3.0 MiB', '256 MiB', '1.2 GiB')
    """
    if n_bytes < 2**20:
        value, unit = f"{max(n_bytes / 2**10, 1):.0f}", N_("{value} KiB")
    elif n_bytes < 100 * 2**20:
        value, unit = f"{n_bytes / 2**20:.1f}", N_("{value} MiB")
    elif n_bytes < 2**30:
        value, unit = f"{n_bytes / 2**20:.0f}", N_("{value} MiB")
    else:
        value, unit = f"{n_bytes / 2**30:.1f}", N_("{value} GiB")
    return tr(unit, value=localise_number(value))


def weights_cost(cell_counts: np.ndarray, cell_membership: np.ndarray, sizes: Sequence[int],
                 trackers: Sequence[exact.Tracker]) -> Cost:
    """The cost of one :func:`~deckstat.engines.exact.segment_weights` call, walking its loops without arrays.

    Each cell is folded in by :func:`~deckstat.engines.exact._place`, which
    visits every split of the cell's cards over the segments and shifts a
    copy of the whole array for each; the count of those copies, times the
    array's size, is the work. The peak holds the array, the one being
    filled, one shifted copy per segment, one being made, and the product
    added at the end of a split.
    """
    cell_counts = np.asarray(cell_counts, dtype=np.int64)
    shape, tracker_axes = exact.state_shape(sizes, trackers)
    base = math.prod(shape)
    names = exact.cell_name_ids(len(cell_counts), trackers)
    n_segments = len(sizes)
    passes, operations, largest = float(base), 1, base
    for run in exact.name_runs(names):
        once = {cell: exact.cell_axes(cell_membership[cell], trackers, tracker_axes, n_segments + 1, True)
                for cell in run}
        named = sorted({axis for cell in run for axes in once[cell] for axis in axes})
        flagged = len(run) > 1 and bool(named)
        size = base * 2 ** len(named) if flagged else base
        largest = max(largest, size)
        if flagged:
            passes += base + size  # the reshaped array padded with the flag axes
            operations += 2
        for cell in run:
            moves = exact.cell_axes(cell_membership[cell], trackers, tracker_axes, n_segments + 1, False)
            counts = tuple(len(m) for m in moves)
            once_axes = tuple(tuple(a) for a in once[cell])
            split_passes, split_operations = _place_cost(int(cell_counts[cell]), tuple(int(s) for s in sizes),
                                                         counts, once_axes)
            passes += size * (1 + split_passes)
            operations += 1 + split_operations
        if flagged:
            # Each flag folded back: the two halves, one shifted, added.
            passes += len(named) * size * 2
            operations += len(named) * 4
    peak = largest * (n_segments + 4) * ELEMENT_BYTES
    return Cost(passes, operations, peak, largest)


@functools.lru_cache(maxsize=4096)
def _place_cost(left: int, sizes: tuple[int, ...], moves: tuple[int, ...],
                once: tuple[tuple[int, ...], ...], segment: int = 0,
                moved: frozenset = frozenset()) -> tuple[float, int]:
    """Array passes (in units of the array's size) and operations of ``_place`` from ``segment`` on."""
    if segment == len(sizes):
        # The rest's saturating shifts, then weight * state added to the output.
        shifts = (moves[segment] + len([a for a in once[segment] if a not in moved])) if left else 0
        return 2.0 + 3 * shifts, 2 + 4 * shifts
    passes, operations = 0.0, 0
    for j in range(min(left, sizes[segment]) + 1):
        now = moved
        if j:
            # A plain shift writes a zero array and copies; a saturating one also sums the tail into the last index.
            passes += 2 + 3 * moves[segment]
            operations += 2 + 4 * moves[segment]
            fresh = [axis for axis in once[segment] if axis not in moved]
            passes += 3 * len(fresh)
            operations += 4 * len(fresh)
            now = moved | frozenset(once[segment])
        more_passes, more_operations = _place_cost(left - j, sizes, moves, once, segment + 1, now)
        passes += more_passes
        operations += more_operations
    return passes, operations


class DryRun:
    """A stand-in for :func:`~deckstat.engines.exact.segment_weights` that adds up what the real calls would cost.

    Pass it as ``weigh=`` to the exact engine; afterwards :attr:`cost`
    holds the work of every call and the peak of the arrays alive at once.
    """

    def __init__(self) -> None:
        self.passes = 0.0
        self.operations = 0
        self.largest = 0
        self.peak = 0
        self._live = 0

    def __call__(self, cell_counts: np.ndarray, cell_membership: np.ndarray, sizes: Sequence[int],
                 trackers: Sequence[exact.Tracker]) -> np.ndarray:
        """Record the cost of ``segment_weights`` with these arguments; return zeros of its shape."""
        call = weights_cost(cell_counts, cell_membership, sizes, trackers)
        self.passes += call.passes
        self.operations += call.operations
        self.largest = max(self.largest, call.largest)
        self.peak = max(self.peak, self._live + call.peak_bytes)
        shape, _ = exact.state_shape(sizes, trackers)
        # Zeros of the right shape, stored as one number: the engine reads them as it would read real weights.
        stand_in = np.broadcast_to(np.zeros(()), shape)
        held = math.prod(shape) * ELEMENT_BYTES
        self._live += held
        weakref.finalize(stand_in, self._release, held)
        return stand_in

    def _release(self, held: int) -> None:
        self._live -= held

    @property
    def cost(self) -> Cost:
        """What the calls so far would cost."""
        return Cost(self.passes, self.operations, self.peak, self.largest)


def dry_run(engine: Callable[..., object], *args, **kwargs) -> Cost:
    """The cost of ``engine(*args, **kwargs)`` (an exact engine function taking ``weigh=``), without running it.

    Examples
    --------
    >>> membership = np.array([[True], [False]])
    >>> event = exact.Condition((0,), (2,), lambda a: a[0] >= 1)
    >>> cost = dry_run(exact.zone_odds, np.array([24, 36]), membership, event, hand_size=7, set_aside=0,
    ...                draws=range(11))
    >>> cost.largest  # 7 + 10 cards seen at most, times counts 0, 1, 2+
    54
    """
    recorder = DryRun()
    engine(*args, weigh=recorder, **kwargs)
    return recorder.cost
