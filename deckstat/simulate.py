"""Running Monte Carlo kernels reproducibly: blocks, spawned streams, chunks, workers, intervals.

Trials are generated in *blocks* of :data:`BLOCK_TRIALS`. Block ``i`` draws
from its own stream, the ``i``-th child spawned from the run's
``SeedSequence``, so a block's result depends only on the seed and ``i``.
Chunks (how many blocks are held in memory at once) and workers (how many
processes run blocks) change speed and memory, never the numbers. Only
per-block tallies are kept, so memory does not grow with the trial count.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np
from scipy.stats import binomtest

from deckstat.errors import DeckstatError

BLOCK_TRIALS = 1 << 17
DEFAULT_TRIALS = 200_000
DEFAULT_CHUNK = 1 << 18
MAX_PRECISION_TRIALS = 2_000_000_000
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Streams:
    """The run's root seed: ``SeedSequence(entropy, spawn_key=spawn_key)``; block i is its i-th child."""

    entropy: int
    spawn_key: tuple[int, ...]

    def root(self) -> np.random.SeedSequence:
        """The root ``SeedSequence`` (a fresh object: spawning from it starts at child 0)."""
        return np.random.SeedSequence(self.entropy, spawn_key=self.spawn_key)


def make_streams(rng: int | np.random.Generator | np.random.SeedSequence | None) -> Streams:
    """Normalise ``rng`` once and derive the run's root seed from it.

    An int (or None, for fresh entropy) seeds a new generator; a Generator
    passed in is consumed (one ``spawn``), so two runs with the same
    Generator object differ, as two draws from it would.
    """
    generator = np.random.default_rng(rng)
    child = generator.bit_generator.seed_seq.spawn(1)[0]
    return Streams(int(child.entropy), tuple(child.spawn_key))


def check_trials(n_trials: int) -> int:
    """Validate a trial count."""
    if isinstance(n_trials, bool) or not isinstance(n_trials, (int, np.integer)) or n_trials < 1:
        raise DeckstatError(f"n_trials must be a whole number of at least 1, got {n_trials!r}")
    return int(n_trials)


def _block_sizes(n_trials: int) -> list[int]:
    full, rest = divmod(n_trials, BLOCK_TRIALS)
    return [BLOCK_TRIALS] * full + ([rest] if rest else [])


def _run_one(task: Callable, seed: np.random.SeedSequence, size: int) -> np.ndarray:
    return task(np.random.default_rng(seed), size)


class BlockRunner:
    """Runs a task block by block, in chunks, on one or more processes.

    Parameters
    ----------
    task : callable
        ``task(rng, n_trials) -> ndarray`` of tallies (summable across blocks).
        Must be picklable when ``n_workers > 1`` (a module-level function or
        a ``functools.partial`` of one).
    streams : Streams
    chunk_size : int
        Trials held in memory at once (rounded to whole blocks).
    n_workers : int
        Processes; 1 runs in this process.
    """

    def __init__(self, task: Callable, streams: Streams, *, chunk_size: int = DEFAULT_CHUNK,
                 n_workers: int = 1):
        if isinstance(chunk_size, bool) or not isinstance(chunk_size, (int, np.integer)) or chunk_size < 1:
            raise DeckstatError(f"chunk_size must be a whole number of at least 1, got {chunk_size!r}")
        if isinstance(n_workers, bool) or not isinstance(n_workers, (int, np.integer)) or n_workers < 1:
            raise DeckstatError(f"n_workers must be a whole number of at least 1, got {n_workers!r}")
        self.task = task
        self.root = streams.root()
        self.blocks_per_chunk = max(1, int(chunk_size) // BLOCK_TRIALS)
        self.n_workers = int(n_workers)
        self.block_tallies: list[np.ndarray] = []
        self.block_sizes: list[int] = []

    def _run(self, sizes: list[int]) -> None:
        for start in range(0, len(sizes), self.blocks_per_chunk):
            chunk = sizes[start:start + self.blocks_per_chunk]
            seeds = self.root.spawn(len(chunk))
            if self.n_workers == 1 or len(chunk) == 1:
                results = [_run_one(self.task, seed, size) for seed, size in zip(seeds, chunk)]
            else:
                with ProcessPoolExecutor(max_workers=min(self.n_workers, len(chunk))) as pool:
                    results = list(pool.map(_run_one, [self.task] * len(chunk), seeds, chunk))
            self.block_tallies.extend(results)
            self.block_sizes.extend(chunk)

    def run(self, n_trials: int) -> tuple[np.ndarray, int]:
        """Run ``n_trials`` trials; return the summed tallies and the trial count."""
        self._run(_block_sizes(check_trials(n_trials)))
        return np.sum(self.block_tallies, axis=0), sum(self.block_sizes)

    def run_until(self, half_width: float, widest: Callable[[np.ndarray, int], float],
                  max_trials: int = MAX_PRECISION_TRIALS) -> tuple[np.ndarray, int]:
        """Add blocks until ``widest(tallies, n) <= half_width``, checked after every block.

        Checking at block boundaries (not chunk boundaries) makes the stopping
        point, hence the result, independent of the chunk size.
        """
        if not (isinstance(half_width, (int, float)) and 0 < half_width < 0.5):
            raise DeckstatError(f"precision must be a half-width between 0 and 0.5, got {half_width!r}")
        total = None
        n_done = 0
        checked = 0
        while True:
            if n_done >= max_trials:
                raise DeckstatError(f"precision {half_width} not reached within {max_trials} trials")
            self._run([BLOCK_TRIALS] * self.blocks_per_chunk)
            for tally, size in zip(self.block_tallies[checked:], self.block_sizes[checked:]):
                total = tally.copy() if total is None else total + tally
                n_done += size
                checked += 1
                if widest(total, n_done) <= half_width:
                    del self.block_tallies[checked:], self.block_sizes[checked:]
                    return total, n_done


def wilson_interval(hits: int, n_trials: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (scipy's ``binomtest``)."""
    ci = binomtest(int(hits), int(n_trials)).proportion_ci(confidence_level=confidence, method="wilson")
    return max(0.0, float(ci.low)), min(1.0, float(ci.high))


def widest_half_width(hits: np.ndarray, n_trials: int) -> float:
    """Half-width of the widest Wilson interval among proportions estimated from the same trials.

    For a fixed trial count the Wilson half-width grows with p(1-p), so the
    widest interval is the one whose estimate is closest to 1/2.
    """
    hits = np.asarray(hits, dtype=float).ravel()
    closest = hits[np.argmin(np.abs(hits / n_trials - 0.5))]
    low, high = wilson_interval(int(closest), n_trials)
    return (high - low) / 2


def intervals(hits: np.ndarray, n_trials: int) -> tuple[np.ndarray, np.ndarray]:
    """Wilson intervals for an array of hit counts out of ``n_trials``."""
    flat = np.asarray(hits).ravel()
    bounds = [wilson_interval(int(h), n_trials) for h in flat]
    low = np.array([b[0] for b in bounds]).reshape(np.shape(hits))
    high = np.array([b[1] for b in bounds]).reshape(np.shape(hits))
    return low, high


def standard_error(p: float, n_trials: int) -> float:
    """Binomial standard error ``sqrt(p (1 - p) / n)``."""
    return math.sqrt(max(p * (1 - p), 0.0) / n_trials)


@dataclass(frozen=True)
class DealSpec:
    """Everything a worker needs to deal hands for one deck (picklable).

    Attributes
    ----------
    cell_counts : ndarray of int
        Cards per disjoint cell.
    table : ndarray of int8, shape (n_cells, n_groups)
        Group membership per cell.
    group_keys : tuple of str
        Group key of each column of ``table``.
    hand_size, set_aside, max_draws : int
    mulligan : str
        Mulligan rule (see :func:`deckstat.kernel.deal`).
    mulligan_limit : int
    keep : Event or None
        Keep rule.
    resource : ndarray of bool or None
        Resource cells for bottom/scry choices.
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
    resource: np.ndarray | None = None
    resource_target: float = 0.0

    def counts_dict(self, counts: np.ndarray) -> dict[str, np.ndarray]:
        """Split a group-major count array (n_groups, ...) into per-group arrays keyed like the events."""
        return {key: counts[i] for i, key in enumerate(self.group_keys)}

    def deal(self, rng: np.random.Generator, n_trials: int, zones=("hand", "seen", "bottom")) -> dict:
        """Run :func:`deckstat.kernel.deal` for ``n_trials`` trials, computing ``zones``."""
        from deckstat.events import evaluate
        from deckstat.kernel import deal

        keep = None
        if self.keep is not None:
            def keep(counts, event=self.keep):
                return evaluate(event, self.counts_dict(counts))
        return deal(self.cell_counts, self.table, n_trials, hand_size=self.hand_size, set_aside=self.set_aside,
                    max_draws=self.max_draws, rng=rng, mulligan=self.mulligan,
                    mulligan_limit=self.mulligan_limit, keep=keep, resource=self.resource,
                    resource_target=self.resource_target, zones=zones)


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
    """Hits of each event for each draw count: int64 array (n_events, len(draws))."""
    from deckstat.events import evaluate

    dealt = spec.deal(rng, n_trials, zones=(zone,))
    counts = spec.counts_dict(zone_counts(dealt, zone, list(draws)))
    # Row by row: count_nonzero over a leading axis is several times slower.
    return np.array([[np.count_nonzero(row) for row in evaluate(event, counts)] for event in events],
                    dtype=np.int64)


def when_task(spec: DealSpec, event, draws_by_seat: tuple[tuple[int, ...], ...], rng: np.random.Generator,
              n_trials: int) -> np.ndarray:
    """Histogram of the first turn the event holds in the seen zone, per seat.

    Returns an int64 array (n_seats, n_turns + 1); the last column counts
    trials where it never held within the turns.
    """
    from deckstat.events import evaluate

    dealt = spec.deal(rng, n_trials, zones=("seen",))
    out = []
    for draws in draws_by_seat:
        holds = evaluate(event, spec.counts_dict(dealt["seen"][:, list(draws), :]))
        first = np.where(holds.any(axis=0), holds.argmax(axis=0), len(draws))
        out.append(np.bincount(first, minlength=len(draws) + 1))
    return np.array(out, dtype=np.int64)


def hand_task(spec: DealSpec, rng: np.random.Generator, n_trials: int) -> np.ndarray:
    """Tallies of the kept hand: row 0 counts mulligans taken, rows 1.. each group's count in the hand.

    Returns an int64 array (1 + n_groups, width) with width large enough for
    both the hand size and the mulligan limit.
    """
    dealt = spec.deal(rng, n_trials, zones=("hand",))
    width = max(spec.hand_size, spec.mulligan_limit) + 1
    rows = [np.bincount(dealt["mulligans"].astype(np.int64), minlength=width)[:width]]
    for g in range(spec.table.shape[1]):
        rows.append(np.bincount(dealt["hand"][g].astype(np.int64), minlength=width)[:width])
    return np.array(rows, dtype=np.int64)
