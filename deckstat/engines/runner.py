"""Running Monte Carlo tasks reproducibly: blocks, spawned streams, chunks, workers, intervals.

Trials are generated in *blocks* of :data:`BLOCK_TRIALS`. Block ``i`` draws
from its own stream, the ``i``-th child spawned from the run's
``SeedSequence``, so a block's result depends only on the seed and ``i``.
Chunks (how many blocks are held in memory at once) and workers (how many
processes run blocks) change speed and memory, never the numbers. Only
per-block tallies are kept, so memory does not grow with the trial count.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from deckstat._validate import check_half_width, check_whole
from deckstat.errors import DeckstatError, param

BLOCK_TRIALS = 1 << 17
DEFAULT_TRIALS = 200_000
DEFAULT_CHUNK = 1 << 18
MAX_PRECISION_TRIALS = 2_000_000_000
CONFIDENCE = 0.95
#: Seeds drawn when none is given are below this: at most 9 digits to type, a billion possible runs.
FRESH_SEED_BOUND = 10**9
#: The provenance keys that record a run's seed.
SEED_KEYS = ("seed", "seed_entropy", "seed_spawn_key")


@dataclass(frozen=True)
class Streams:
    """The run's root seed: ``SeedSequence(entropy, spawn_key=spawn_key)``; block i is its i-th child."""

    entropy: int
    spawn_key: tuple[int, ...]

    def root(self) -> np.random.SeedSequence:
        """The root ``SeedSequence`` (a fresh object: spawning from it starts at child 0)."""
        return np.random.SeedSequence(self.entropy, spawn_key=self.spawn_key)

    @property
    def seed(self) -> int | None:
        """The whole number that, passed as ``rng`` (``--seed``), gives these streams again.

        ``None`` when no number does: the streams of a Generator that had
        already been used, or of a spawned ``SeedSequence``.
        """
        return self.entropy if self.spawn_key == (0,) else None


def fresh_seed() -> int:
    """A seed drawn from the operating system's entropy, short enough to type back."""
    return secrets.randbelow(FRESH_SEED_BOUND)


def make_streams(rng: int | np.random.Generator | np.random.SeedSequence | Streams | None) -> Streams:
    """Normalise ``rng`` once and derive the run's root seed from it.

    None draws a fresh seed (:func:`fresh_seed`) and then runs exactly as that
    seed passed as an int would, so the seed recorded in the provenance
    (``seed``) reproduces the run. A Generator passed in is consumed (one
    ``spawn``), so two runs with the same Generator object differ, as two
    draws from it would; its streams are recorded as ``seed_entropy`` and
    ``seed_spawn_key``. :class:`Streams` are returned as they are, so a
    question that runs several simulations normalises ``rng`` once and gives
    each the same root.

    Examples
    --------
    >>> make_streams(483920175).seed
    483920175
    >>> drawn = make_streams(None)
    >>> drawn.seed < FRESH_SEED_BOUND and make_streams(drawn.seed) == drawn
    True
    """
    if isinstance(rng, Streams):
        return rng
    if isinstance(rng, (bool, np.bool_)) or (isinstance(rng, (int, np.integer)) and rng < 0):
        raise DeckstatError(f"{param('rng')} must be a seed from 0, a numpy Generator or None, got {rng!r}")
    generator = np.random.default_rng(fresh_seed() if rng is None else rng)
    child = generator.bit_generator.seed_seq.spawn(1)[0]
    return Streams(int(child.entropy), tuple(child.spawn_key))


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
        chunk_size = check_whole(chunk_size, "chunk_size", minimum=1)
        self.task = task
        self.root = streams.root()
        self.blocks_per_chunk = max(1, chunk_size // BLOCK_TRIALS)
        self.n_workers = check_whole(n_workers, "n_workers", minimum=1)
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
        self._run(_block_sizes(check_whole(n_trials, "n_trials", minimum=1)))
        return np.sum(self.block_tallies, axis=0), sum(self.block_sizes)

    def run_until(self, half_width: float, widest: Callable[[np.ndarray, int], float],
                  max_trials: int = MAX_PRECISION_TRIALS) -> tuple[np.ndarray, int]:
        """Add blocks until ``widest(tallies, n) <= half_width``, checked after every block.

        Checking at block boundaries (not chunk boundaries) makes the stopping
        point, hence the result, independent of the chunk size.
        """
        half_width = check_half_width(half_width, "precision")
        total = None
        n_done = 0
        checked = 0
        while True:
            if n_done >= max_trials:
                raise DeckstatError(f"{param('precision')} {half_width} not reached within {max_trials} trials")
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
    from scipy.stats import binomtest  # scipy.stats takes half a second to import: only when simulating

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


def simulate(task: Callable, streams: Streams, *, n_trials: int | None = None, precision: float | None = None,
             chunk_size: int = DEFAULT_CHUNK, n_workers: int = 1,
             widest: Callable[[np.ndarray, int], float] = widest_half_width) -> tuple[np.ndarray, int]:
    """Run ``task`` on ``streams`` for ``n_trials`` trials, or until ``widest`` is at most ``precision``.

    Returns the summed tallies and the number of trials run.
    """
    runner = BlockRunner(task, streams, chunk_size=chunk_size, n_workers=n_workers)
    if precision is not None:
        return runner.run_until(precision, widest)
    return runner.run(DEFAULT_TRIALS if n_trials is None else n_trials)


def provenance(streams: Streams, precision: float | None = None) -> dict:
    """What reproduces a simulated result: the root seed, the block size, the stopping rule, the interval.

    ``seed`` is the number to pass again as ``rng`` (``--seed``), or ``None``
    when only ``seed_entropy`` and ``seed_spawn_key`` (the root
    ``SeedSequence``) record the streams.
    """
    return {"seed": streams.seed, "seed_entropy": streams.entropy, "seed_spawn_key": list(streams.spawn_key),
            "block_trials": BLOCK_TRIALS, "precision": precision, "confidence": CONFIDENCE, "interval": "wilson"}
