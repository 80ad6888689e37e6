"""What one block of simulated trials tallies, for each question.

A task is ``task(rng, n_trials) -> ndarray`` of integer tallies that add up
across blocks (see :mod:`deckstat.engines.runner`); questions bind their
parameters with ``functools.partial`` so that tasks can run in worker
processes. Every task deals with :func:`deckstat.engines.kernel.deal` from a
:class:`DealSpec`.

A block whose arrays would pass :data:`PART_BYTES` (many groups, long
horizons) is dealt in parts of equal size, one after the other from the same
generator, and their tallies added: memory per block stays bounded whatever
the groups and turns. The parts depend only on the question and the block
size, so the numbers still depend only on the seed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from deckstat.engines.kernel import deal
from deckstat.events import evaluate

#: Bytes a part of a block may use for the kernel's arrays (estimated by :meth:`DealSpec.bytes_per_trial`).
PART_BYTES = 96 * 2**20


@dataclass(frozen=True)
class DealSpec:
    """Everything a worker needs to deal hands for one deck (picklable).

    Attributes
    ----------
    cell_counts : ndarray of int
        Cards per disjoint cell.
    table : ndarray of int8, shape (n_cells, n_columns)
        Group membership per cell, one column per group key, then (for
        distinct groups) one column per card name.
    group_keys : tuple of str
        Group key of each of the first columns of ``table``.
    distinct_columns : tuple
        Empty when no group counts different names; otherwise, per group,
        ``None`` or the columns of ``table`` holding the names of ``distinct(G)``.
    hand_size, set_aside, max_draws : int
    mulligan : str
        Mulligan rule (see :func:`deckstat.engines.kernel.deal`).
    mulligan_limit : int
    keep : Event or None
        Keep rule.
    needs : tuple of (int, int)
        The needs policy's list (group column, cards wanted), most important
        first (see :func:`deckstat.engines.kernel.need_ranks`).
    resource : ndarray of bool or None
        Resource cells: the last need, scaled to the kept hand size.
    resource_target : float
        Wanted share of resources in a kept hand.
    """

    cell_counts: np.ndarray
    table: np.ndarray
    group_keys: tuple[str, ...]
    hand_size: int
    set_aside: int
    max_draws: int
    mulligan: str = "none"
    mulligan_limit: int = 0
    keep: object = None
    needs: tuple[tuple[int, int], ...] = ()
    resource: np.ndarray | None = None
    resource_target: float = 0.0
    distinct_columns: tuple = ()

    def counts_dict(self, counts: np.ndarray) -> dict[str, np.ndarray]:
        """Split a column-major count array (n_columns, ...) into per-group arrays keyed like the events."""
        return group_counts(counts, self.group_keys, self.distinct_columns)

    def bytes_per_trial(self, zones=("hand", "seen", "bottom")) -> int:
        """An upper estimate of the kernel's memory per trial: random words, cell ids, prefix counts, zones."""
        n_columns = self.table.shape[1]
        hands = self.mulligan_limit + 1 if self.mulligan == "bottom" else 2
        length = min(int(np.sum(self.cell_counts)), self.set_aside + hands * self.hand_size + self.max_draws + 1)
        draws = self.max_draws + 1
        zone_rows = sum(draws for zone in ("seen", "bottom") if zone in zones) + 3
        # Every draw count of a zone also gets a few bool and int16 temporaries when the events are evaluated.
        return 5 * length + 2 * n_columns * (length + 1 + zone_rows) + 8 * zone_rows

    def deal(self, rng: np.random.Generator, n_trials: int, zones=("hand", "seen", "bottom")) -> dict:
        """Run :func:`deckstat.engines.kernel.deal` for ``n_trials`` trials, computing ``zones``."""
        keep = None
        if self.keep is not None:
            def keep(counts, event=self.keep):
                return evaluate(event, self.counts_dict(counts))
        return deal(self.cell_counts, self.table, n_trials, hand_size=self.hand_size, set_aside=self.set_aside,
                    max_draws=self.max_draws, rng=rng, mulligan=self.mulligan,
                    mulligan_limit=self.mulligan_limit, keep=keep, needs=self.needs, resource=self.resource,
                    resource_target=self.resource_target, zones=zones)


def group_counts(counts: np.ndarray, group_keys: tuple[str, ...], distinct_columns: tuple = ()) -> dict:
    """Each group's count by key, from counts per table column (n_columns, ...).

    A distinct group's count is its number of names with at least one card
    (their columns are listed in ``distinct_columns``, see :class:`DealSpec`).
    """
    out = {}
    for i, key in enumerate(group_keys):
        columns = distinct_columns[i] if distinct_columns else None
        if columns is None:
            out[key] = counts[i]
            continue
        present = np.zeros(counts.shape[1:], dtype=np.int16)
        for column in columns:
            present += counts[column] > 0
        out[key] = present
    return out


def part_sizes(n_trials: int, bytes_per_trial: int) -> list[int]:
    """Sizes of the parts a block of ``n_trials`` is dealt in: as few as keep each under :data:`PART_BYTES`.

    Examples
    --------
    >>> part_sizes(131072, 100)
    [131072]
    >>> part_sizes(10, PART_BYTES // 4)
    [4, 3, 3]
    """
    n_parts = max(1, min(n_trials, -(-n_trials * bytes_per_trial // PART_BYTES)))
    size, rest = divmod(n_trials, n_parts)
    return [size + 1] * rest + [size] * (n_parts - rest)


def _in_parts(tally, n_trials: int, bytes_per_trial: int) -> np.ndarray:
    """``tally(size)`` summed over the parts of a block (see :func:`part_sizes`)."""
    return sum(tally(size) for size in part_sizes(n_trials, bytes_per_trial))


def zone_counts(dealt: dict, zone: str, draws: list[int]) -> np.ndarray:
    """Group counts in ``zone`` for each number of draws: shape (n_groups, len(draws), n_trials)."""
    if zone in ("seen", "bottom"):
        if draws == list(range(draws[0], draws[-1] + 1)):
            return dealt[zone][:, draws[0]:draws[-1] + 1, :]
        return dealt[zone][:, draws, :]
    fixed = dealt["hand"] if zone == "hand" else dealt["set_aside"]
    return np.broadcast_to(fixed[:, None, :], (fixed.shape[0], len(draws), fixed.shape[1]))


def odds_task(spec: DealSpec, events: tuple, zone: str, draws: tuple[int, ...], rng: np.random.Generator,
              n_trials: int) -> np.ndarray:
    """Hits of each event for each draw count, and first hands kept.

    Returns an int64 array (n_events + 1, len(draws)): row ``i`` counts the
    trials where event ``i`` holds after each draw count; the last row counts
    the trials that kept their first hand (the same number in every column).
    """
    def tally(size):
        dealt = spec.deal(rng, size, zones=(zone,))
        counts = spec.counts_dict(zone_counts(dealt, zone, list(draws)))
        # Row by row: count_nonzero over a leading axis is several times slower.
        hits = [[np.count_nonzero(row) for row in evaluate(event, counts)] for event in events]
        hits.append([np.count_nonzero(dealt["mulligans"] == 0)] * len(draws))
        return np.array(hits, dtype=np.int64)

    return _in_parts(tally, n_trials, spec.bytes_per_trial((zone,)) + 2 * len(events) * len(draws))


def when_task(spec: DealSpec, event, draws_by_seat: tuple[tuple[int, ...], ...], rng: np.random.Generator,
              n_trials: int) -> np.ndarray:
    """Histogram of the first turn the event holds in the seen zone, per seat.

    Returns an int64 array (n_seats, n_turns + 1); the last column counts
    trials where it never held within the turns.
    """
    def tally(size):
        dealt = spec.deal(rng, size, zones=("seen",))
        out = []
        for draws in draws_by_seat:
            holds = evaluate(event, spec.counts_dict(dealt["seen"][:, list(draws), :]))
            first = np.where(holds.any(axis=0), holds.argmax(axis=0), len(draws))
            out.append(np.bincount(first, minlength=len(draws) + 1))
        return np.array(out, dtype=np.int64)

    return _in_parts(tally, n_trials, spec.bytes_per_trial(("seen",)))


def hand_task(spec: DealSpec, rng: np.random.Generator, n_trials: int) -> np.ndarray:
    """Tallies of the kept hand: row 0 counts mulligans taken, rows 1.. each group's count in the hand (by key).

    Returns an int64 array (1 + n_groups, width) with width large enough for
    both the hand size and the mulligan limit.
    """
    dealt = spec.deal(rng, n_trials, zones=("hand",))
    width = max(spec.hand_size, spec.mulligan_limit) + 1
    rows = [np.bincount(dealt["mulligans"].astype(np.int64), minlength=width)[:width]]
    for counts in spec.counts_dict(dealt["hand"]).values():
        rows.append(np.bincount(counts.astype(np.int64), minlength=width)[:width])
    return np.array(rows, dtype=np.int64)


def compare_task(specs: tuple[DealSpec, ...], event, zone: str, draws: tuple[int, ...], paired: bool,
                 rng: np.random.Generator, n_trials: int) -> np.ndarray:
    """Hits per deck and joint hits with the first deck: int64 array (2 * n_decks, len(draws)).

    Rows ``0..k-1``: hits of each deck; rows ``k..2k-1``: trials where deck 0
    and deck i both hit (row ``k`` repeats deck 0's hits). ``paired`` deals
    every deck from the same random numbers (``specs`` share one list of
    cells); otherwise each deck has its own spawned stream.
    """
    if paired:
        state = rng.bit_generator.state
        generators = []
        for _ in specs:
            clone = np.random.Generator(type(rng.bit_generator)())
            clone.bit_generator.state = state
            generators.append(clone)
    else:
        generators = rng.spawn(len(specs))
    def tally(size):
        holds = []
        for spec, generator in zip(specs, generators):
            dealt = spec.deal(generator, size, zones=(zone,))
            counts = spec.counts_dict(zone_counts(dealt, zone, list(draws)))
            holds.append(evaluate(event, counts))
        hits = [[np.count_nonzero(row) for row in h] for h in holds]
        joint = [[np.count_nonzero(row) for row in (holds[0] & h)] for h in holds]
        return np.array(hits + joint, dtype=np.int64)

    return _in_parts(tally, n_trials, sum(spec.bytes_per_trial((zone,)) for spec in specs))
