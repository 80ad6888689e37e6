"""Running Monte Carlo tasks reproducibly: blocks, spawned streams, worker processes, intervals.

Trials are generated in *blocks* of :data:`BLOCK_TRIALS`. Block ``i`` draws
from its own stream, the ``i``-th child spawned from the run's
``SeedSequence``, so a block's result depends only on the seed and ``i``.
Blocks may run in worker processes, several at a time, but their tallies are
summed in block order: the chunk size and the number of workers change speed
and memory, never the numbers. Only the running sum of the tallies is kept,
so memory does not grow with the trial count.

A question that runs many simulations (a resource-count sweep, a deck
report) runs them all inside one :func:`worker_pool`, so its worker processes
start once. Every run reports the trials done through
:func:`deckstat.engines.progress.track`.
"""

from __future__ import annotations

import functools
import inspect
import math
import multiprocessing
import os
import secrets
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import closing, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from deckstat._fork import forkable
from deckstat._validate import check_half_width, check_whole, is_whole
from deckstat.engines import kernel, progress
from deckstat.engines.progress import track
from deckstat.errors import DeckstatError, param
from deckstat.i18n import N_, localise_number, number, tr, trn
from deckstat.terms import DEFAULT_CHUNK, DEFAULT_MAX_TRIALS, MOST_CHUNK, MOST_TRIALS, TRIALS_PER_SECOND

BLOCK_TRIALS = 1 << 17
DEFAULT_TRIALS = 200_000
CONFIDENCE = 0.95
#: Blocks handed to the worker processes ahead of the one being summed, per worker: enough to keep every
#: worker busy while the parent sums, few enough that memory stays bounded.
BLOCKS_AHEAD_PER_WORKER = 2
#: Seeds drawn when none is given are below this: at most 9 digits to type, a billion possible runs.
FRESH_SEED_BOUND = 10**9
#: The provenance keys that record a run's seed.
SEED_KEYS = ("seed", "seed_entropy", "seed_spawn_key")
#: What the forkserver imports once, for every worker it starts: the main module (as multiprocessing does by
#: default; otherwise each worker re-imports the command or script) and the modules the blocks run. Not the
#: compiled loops: the parent waits for the server's imports with Ctrl-C held (:func:`ctrl_c_held`), and loading
#: them (compiling those not compiled yet) took seconds; a worker loads those its run uses (:func:`_run_in_worker`).
_WORKER_PRELOAD = ["__main__", "deckstat.engines.runner", "deckstat.engines.tasks", "deckstat.engines.race"]


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
    check_seed(rng)
    generator = np.random.default_rng(fresh_seed() if rng is None else rng)
    child = generator.bit_generator.seed_seq.spawn(1)[0]
    return Streams(int(child.entropy), tuple(child.spawn_key))


#: What ``rng`` may be besides a whole number from 0 and None.
_SEED_OBJECTS = (np.random.Generator, np.random.SeedSequence, np.random.BitGenerator, Streams)


def check_seed(rng: object) -> None:
    """Refuse an ``rng`` that is no seed: a negative or non-whole number, a boolean, a string.

    Questions check it up front, whatever their method: an exact answer uses
    no seed, but a seed that cannot be one is a mistake all the same.

    Examples
    --------
    >>> check_seed(0), check_seed(None)
    (None, None)
    >>> check_seed(1.5)
    Traceback (most recent call last):
    ...
    deckstat.errors.DeckstatError: rng must be a seed from 0, a numpy Generator or None, got 1.5
    """
    if rng is None or isinstance(rng, _SEED_OBJECTS) or (is_whole(rng) and rng >= 0):
        return
    raise DeckstatError(tr("{name} must be a seed from 0, a numpy Generator or None, got {value!r}",
                           name=param("rng"), value=rng))


def _block_sizes(n_trials: int) -> Iterator[int]:
    # A generator: a run of 10^12 trials has 7.6 million blocks, whose list alone would take 60 MB.
    full, rest = divmod(n_trials, BLOCK_TRIALS)
    for _ in range(full):
        yield BLOCK_TRIALS
    if rest:
        yield rest


def _n_blocks(n_trials: int) -> int:
    return -(-n_trials // BLOCK_TRIALS)


#: Wall seconds from asking for worker processes to the end of their first block when they load the compiled
#: loops (the forkserver imports numpy and deckstat, the worker numba: 0.8-1 s on a 2-core machine); a quarter of
#: it without them (0.2 s), on an install that never compiled them (:func:`deckstat.engines.kernel.compiled_once`).
POOL_START_SECONDS = 1.0
#: The same for worker processes forked from this one (:func:`~deckstat._fork.forkable`): they have its modules and
#: loaded loops, and run their first block a few hundredths of a second after being asked for.
FORKED_START_SECONDS = 0.05


def _pool_start_seconds() -> float:
    with progress.threads_paused():
        if forkable():
            return FORKED_START_SECONDS
    return POOL_START_SECONDS if kernel.compiled_once() else POOL_START_SECONDS / 4


def _pool_pays(seconds_left: float, n_processes: int, start_seconds: float) -> bool:
    """Whether ``n_processes`` worker processes end ``seconds_left`` of this process's work sooner than it alone.

    This process waits for them to start (the first submission blocks until the forkserver is ready), then all
    share the work: ``start_seconds + left / (n + 1)`` against ``left``.

    Examples
    --------
    >>> _pool_pays(1.5, 1, 1.0), _pool_pays(3.0, 1, 1.0), _pool_pays(1.5, 3, 1.0)
    (False, True, True)
    """
    return n_processes > 0 and start_seconds + seconds_left / (n_processes + 1) < seconds_left


def _run_one(task: Callable, seed: np.random.SeedSequence, size: int) -> np.ndarray:
    return task(np.random.default_rng(seed), size)


def _run_in_worker(task: Callable, seed: np.random.SeedSequence, size: int, run_trials: int) -> np.ndarray:
    """:func:`_run_one` in a worker process, its draws judged as part of a run of ``run_trials`` trials.

    The worker then chooses numpy or the compiled loops as the parent did for the run (:func:`kernel.loops`),
    from its first block, rather than from its own blocks' work so far.
    """
    with kernel.drawing(run_trials):
        return _run_one(task, seed, size)


def _start_worker(parent: int) -> None:
    """What each worker process does first: ignore Ctrl-C, end itself if ``parent`` ends, leave compiling to it."""
    # Ctrl-C reaches every process of the terminal's group: the parent stops the run and shuts the pool down,
    # while a worker interrupted in the middle of a block would only print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A worker forked from the parent has the parent's SIGTERM handler (a command's turns it into Ctrl-C): the pool
    # ends a worker with SIGTERM, which must end it.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    kernel.compiles_here = False
    if os.name == "posix":  # elsewhere os.kill(pid, 0) is not a harmless probe
        threading.Thread(target=_end_with, args=(parent,), daemon=True, name="deckstat-parent-watch").start()


def _end_with(parent: int, every: float = 0.5) -> None:
    # A parent killed outright (kill -9) cannot shut its pool down, and its workers would wait for work forever.
    while _alive(parent):
        time.sleep(every)
    os._exit(1)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` is running: not gone, and not a zombie its own parent has yet to reap."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):  # PermissionError: another user's process has the number now
        return False
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            state = handle.read().rpartition(")")[2].split()[0]
    except (OSError, IndexError):  # no /proc (macOS): a zombie parent keeps its workers until it is reaped
        return True
    return state not in ("Z", "X")


def process_pool(n_workers: int, preload: Iterable[str] = ()) -> ProcessPoolExecutor:
    """A pool of ``n_workers`` processes started safely: copies of this one, else forkserver (spawn elsewhere).

    Copies of this process (``fork``) have its modules and loaded loops and
    start at once, but only while it has no other thread (:func:`forkable`):
    a progress bar's on a terminal, say. Otherwise workers fork from a server
    that has imported ``preload``. Either way, they ignore Ctrl-C (the parent
    handles it) and end themselves when the parent process ends, even killed.
    A progress bar's threads are paused while the copies are made
    (:func:`deckstat.engines.progress.threads_paused`).
    """
    with progress.threads_paused():
        if forkable():
            pool = ProcessPoolExecutor(max_workers=n_workers, mp_context=multiprocessing.get_context("fork"),
                                       initializer=_start_worker, initargs=(os.getpid(),))
            # The pool makes its copies at its first submission, before it starts a thread of its own: made now,
            # while no other thread runs. A copy has this process's signal handlers until it ignores Ctrl-C:
            # held, a Ctrl-C meanwhile does nothing there.
            try:
                with ctrl_c_held():
                    pool.submit(int)
            except BaseException:
                # Interrupted as its copies start (the held Ctrl-C raised here): nobody else has the pool to shut it
                # down, and Python's exit would join its thread, and wait for its copies, with no handler of ours.
                pool.shutdown(wait=True, cancel_futures=True)
                raise
            return pool
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(list(preload))
        with ctrl_c_held():  # a helper half started when the command stops would be left behind
            _start_helpers()
    return ProcessPoolExecutor(max_workers=n_workers, mp_context=context, initializer=_start_worker,
                               initargs=(os.getpid(),))


def _start_helpers() -> None:
    """Start multiprocessing's resource tracker and forkserver now, deaf to Ctrl-C from their first instruction.

    A Ctrl-C reaches every process of the terminal's group. These two are new
    Python processes that import numpy and deckstat before they set their own
    handlers, and an interrupt meanwhile printed their traceback under the
    parent's ``interrupted``. The parent blocks Ctrl-C while it forks and
    execs the server, which inherits the block until it ignores the signal
    itself; the workers forked from it ignore it too (:func:`_start_worker`).
    Blocked rather than ignored, a Ctrl-C that arrives meanwhile waits and
    reaches the parent once the server has started: ignored, it was lost,
    and the command ran to its end.
    """
    from multiprocessing import forkserver, resource_tracker

    # The tracker blocks and then unblocks Ctrl-C around its own start (CPython does so): started first, it cannot
    # unblock the signal in the middle of the server's start.
    resource_tracker.ensure_running()
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        forkserver.ensure_running()
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextmanager
def ctrl_c_held() -> Iterator[None]:
    """Hold a Ctrl-C (or a SIGTERM the program turns into one) that arrives inside the block; raise it after.

    Submitting to a process pool may start a worker: interrupted between
    asking the forkserver for it and learning its pid, the pool would not know
    the worker, would not wait for it, and the worker, finding the parent's
    queues gone, printed a traceback. Held, the interrupt comes once the pool
    knows every process it has, so that shutting it down ends them all.
    SIGTERM is held only where a handler of the program's own is installed
    (``deckstat`` commands turn it into an interrupt); otherwise it ends the
    process as it would anyway.
    """
    if threading.current_thread() is not threading.main_thread():  # only the main thread receives signals
        yield
        return
    held: list[int] = []
    previous = {signal.SIGINT: signal.getsignal(signal.SIGINT)}
    if callable(signal.getsignal(signal.SIGTERM)):
        previous[signal.SIGTERM] = signal.getsignal(signal.SIGTERM)
    for signum in previous:
        signal.signal(signum, lambda received, frame: held.append(received))
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(held):
            handler = previous[signum]
            if callable(handler):
                handler(signum, None)  # Python's own SIGINT handler raises KeyboardInterrupt; so does the SIGTERM one


class WorkerPool:
    """Worker processes, started when the first block needs them and reused by every run until :meth:`close`.

    The processes are those of :func:`process_pool`.

    Parameters
    ----------
    n_workers : int
        The most processes that run blocks at once, this one included: the
        pool has ``n_workers - 1`` (at least one). They start one by one as
        blocks arrive, so a run of fewer blocks starts fewer processes.
    """

    def __init__(self, n_workers: int):
        self.n_workers = check_whole(n_workers, "n_workers", minimum=1)
        self._executor: ProcessPoolExecutor | None = None

    @property
    def started(self) -> bool:
        """Whether the processes were asked for (a run then uses them without weighing their start)."""
        return self._executor is not None

    def executor(self) -> ProcessPoolExecutor:
        """The process pool, created on first use."""
        if self._executor is None:
            # This process is one of the workers (see BlockRunner._blocks): the pool has one process fewer.
            self._executor = process_pool(max(1, self.n_workers - 1), _WORKER_PRELOAD)
        return self._executor

    def close(self) -> None:
        """Cancel the blocks not started, wait for those running, and end every worker process."""
        if self._executor is not None:
            executor, self._executor = self._executor, None
            executor.shutdown(wait=True, cancel_futures=True)


_active_pool: ContextVar[WorkerPool | None] = ContextVar("deckstat_worker_pool", default=None)


@contextmanager
def worker_pool(n_workers: int = 1) -> Iterator[WorkerPool | None]:
    """Share one pool of ``n_workers`` processes among every simulation run inside the ``with`` block.

    The processes start when the first block needs them (never for exact
    answers) and end when the block exits, however it exits. Inside a pool
    that is already active this one is that pool, so a question that calls
    others (a sweep, a report) keeps one set of processes. With
    ``n_workers=1`` no pool is made: runs with ``n_workers > 1`` then make
    their own, for their own duration.

    Examples
    --------
    >>> with worker_pool(1) as pool:
    ...     pool is None
    True
    """
    n_workers = check_whole(n_workers, "n_workers", minimum=1)
    active = _active_pool.get()
    if active is not None or n_workers == 1:
        yield active
        return
    pool = WorkerPool(n_workers)
    token = _active_pool.set(pool)
    try:
        yield pool
    finally:
        _active_pool.reset(token)
        pool.close()


def pooled(question: Callable) -> Callable:
    """Run ``question`` inside a :func:`worker_pool` of its own ``n_workers``.

    Every simulation the question runs, those of the questions it calls
    included, then shares one set of worker processes. An ``n_workers`` that
    is not a whole number from 1 runs without a pool, so that the question
    itself refuses it, naming it.
    """
    default = inspect.signature(question).parameters["n_workers"].default

    @functools.wraps(question)
    def with_pool(*args, **kwargs):
        n_workers = kwargs.get("n_workers", default)
        with worker_pool(n_workers if is_whole(n_workers) and n_workers >= 1 else 1):
            return question(*args, **kwargs)

    return with_pool


def _wilson_half_width_extremes(half_width: float) -> tuple[int, int]:
    """The fewest and the most trials a 95% Wilson interval needs to be at most ``half_width`` wide.

    A proportion observed at 0 (or 1) needs the fewest, ``z²/(2h) - z²``; one
    observed at 1/2 the most, ``z²/(4h²) - z²`` (the normal approximation's
    ``z²·p(1-p)/h²`` at ``p = 1/2``, less ``z²``).

    Examples
    --------
    >>> _wilson_half_width_extremes(1e-5)
    (192070, 9603647048)
    """
    z = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)
    fewest = math.ceil(z * z / (2 * half_width) - z * z)
    most = math.ceil(z * z / (4 * half_width * half_width) - z * z)
    return max(fewest, 1), max(most, 1)


def estimate_trials(tallies: np.ndarray, n_done: int, half_width: float,
                    widest: Callable[[np.ndarray, int], float], limit: int) -> int:
    """Trials at which ``widest`` would be at most ``half_width`` if the observed proportions held (within 0.1%).

    ``widest`` is evaluated on the tallies scaled to a larger trial count, so
    the estimate is that of the very intervals the run checks (Wilson), for
    the observed proportions. The search stops past ``limit``: the answer is
    then only known to be larger.
    """
    def too_wide(n: int) -> bool:
        return widest(np.asarray(tallies, dtype=float) * (n / n_done), n) > half_width

    if not too_wide(n_done):
        return n_done
    low, high = n_done, 2 * n_done
    while too_wide(high):
        if high > limit:
            return high
        low, high = high, 2 * high
    while high - low > max(1, low // 1000):
        middle = (low + high) // 2
        low, high = (middle, high) if too_wide(middle) else (low, middle)
    return high


def written(n: int) -> str:
    """A trial count as people write large ones: ``200,000``, ``1e8``, ``9.6e9``.

    Examples
    --------
    >>> written(200_000), written(10**8), written(9_603_647_048), written(25_000_000)
    ('200,000', '1e8', '9.6e9', '2.5e7')
    """
    if n < 10**6:
        return f"{n:,}"
    mantissa, exponent = f"{n:.1e}".split("e")
    return f"{mantissa.removesuffix('.0')}e{int(exponent)}"


def check_trials(value: object, name: str = "n_trials") -> int:
    """A count of trials from 1 to :data:`~deckstat.terms.MOST_TRIALS`, refused with the time it would take.

    Examples
    --------
    >>> check_trials(10**15)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    deckstat.errors.DeckstatError: n_trials 1e15 would take about 10,522 days on one core (1.1e6 trials a ...
    """
    count = check_whole(value, name, minimum=1)
    if count > MOST_TRIALS:
        from deckstat.engines.cost import format_seconds

        seconds = count / TRIALS_PER_SECOND
        time_taken = format_seconds(seconds) if seconds < 2 * 86400 else \
            trn("{n} day", "{n} days", round(seconds / 86400))
        raise DeckstatError(tr("{name} {value} would take about {time} on one core ({rate} trials a second); "
                               "deckstat runs at most {most} trials: give fewer, or {precision} to stop once the "
                               "intervals are narrow enough", name=param(name), value=localise_number(written(count)),
                               time=time_taken, rate=localise_number(written(int(TRIALS_PER_SECOND))),
                               most=localise_number(written(MOST_TRIALS)), precision=param("precision")))
    return count


#: What :func:`_too_many` says, by how sure the count of trials needed is.
_TOO_MANY = {
    "about": N_("{precision} {half_width} needs about {needed} trials, more than {max_trials} {most}: ask a coarser "
                "{precision} or raise {max_trials}"),
    "at least": N_("{precision} {half_width} needs at least {needed} trials, more than {max_trials} {most}: ask a "
                   "coarser {precision} or raise {max_trials}"),
}


def _too_many(half_width: float, needed: int, max_trials: int, how: str) -> DeckstatError:
    return DeckstatError(tr(_TOO_MANY[how], precision=param("precision"), half_width=localise_number(f"{half_width:g}"),
                            needed=localise_number(written(needed)), max_trials=param("max_trials"),
                            most=localise_number(written(max_trials))))


class BlockRunner:
    """Runs a task block by block, in this process or on worker processes.

    Parameters
    ----------
    task : callable
        ``task(rng, n_trials) -> ndarray`` of tallies (summable across blocks).
        Must be picklable when ``n_workers > 1`` (a module-level function or
        a ``functools.partial`` of one).
    streams : Streams
    chunk_size : int
        With several workers, trials handed to them ahead of the block being
        summed (rounded to whole blocks; at least two blocks per worker are).
    n_workers : int
        Processes that run blocks, this one included; 1 runs in this process
        alone. Inside a :func:`worker_pool` the pool's processes and this one
        run the blocks; otherwise the run starts its own pool, of at most as
        many processes as it has blocks less one (a 2-block run with
        ``n_workers=32`` starts 1), and closes it when it ends. More workers
        than cores only add overhead.
    description : str
        What the progress listener is told the run is.
    """

    def __init__(self, task: Callable, streams: Streams, *, chunk_size: int = DEFAULT_CHUNK,
                 n_workers: int = 1, description: str = "simulating"):
        chunk_size = check_whole(check_whole(chunk_size, "chunk_size", minimum=1), "chunk_size", minimum=1,
                                 maximum=MOST_CHUNK)
        self.task = task
        self.root = streams.root()
        self.blocks_per_chunk = max(1, chunk_size // BLOCK_TRIALS)
        self.n_workers = check_whole(n_workers, "n_workers", minimum=1)
        self.description = description
        #: The precision run's estimate of the trials it needs (after its first block), else None.
        self.estimated_trials: int | None = None

    def _blocks(self, sizes: Iterable[int], n_blocks: int) -> Iterator[tuple[np.ndarray, int]]:
        """Each block's tallies and size, in block order; blocks not consumed are cancelled on close.

        With several workers this process is one of them: while the block due
        next is still running on a worker process, it runs a block itself, a
        new one or one handed to a process that has not started it. Before it
        starts processes it runs two blocks and times the second: a run that
        would end sooner alone than with processes that take
        :data:`POOL_START_SECONDS` to start (:func:`_pool_pays`) starts none.
        Each block's seed is spawned in block order when the block is made,
        whoever runs it, so the numbers do not depend on who does.
        """
        sizes = iter(sizes)
        pool = _active_pool.get()
        if self.n_workers > 1 and n_blocks > 1 and not (pool is not None and pool.started):
            # Starting worker processes costs about POOL_START_SECONDS: the first blocks run here, the second
            # timed (the first pays for loading the loops), and a run that would end sooner alone stays alone.
            seconds = 0.0
            for _ in range(2):
                size = next(sizes, None)
                if size is None:
                    return
                started = time.perf_counter()
                tally = _run_one(self.task, self.root.spawn(1)[0], size)
                seconds = time.perf_counter() - started
                n_blocks -= 1
                yield tally, size
            if self.estimated_trials is not None:  # a precision run knows its length after its first block
                n_blocks = min(n_blocks, _n_blocks(self.estimated_trials) - 2)
            processes = min(self.n_workers, n_blocks + 1) - 1
            if not _pool_pays(n_blocks * seconds, processes, _pool_start_seconds()):
                n_blocks = 1
        if self.n_workers == 1 or n_blocks <= 1:
            for size in sizes:
                yield _run_one(self.task, self.root.spawn(1)[0], size), size
            return
        own = WorkerPool(min(self.n_workers, n_blocks)) if pool is None else None
        executor = (own or pool).executor()
        ahead = max(self.blocks_per_chunk, BLOCKS_AHEAD_PER_WORKER * ((own or pool).n_workers - 1))
        # Blocks in block order: [seed, size, future or None, tallies or None].
        pending: deque = deque()
        submitted = 0

        def make(submit: bool) -> bool:
            nonlocal submitted
            size = next(sizes, None)
            if size is None:
                return False
            # Spawned one at a time, in block order: the same children as spawned all at once.
            block = [self.root.spawn(1)[0], size, None, None]
            if submit:
                with ctrl_c_held():
                    block[2] = executor.submit(_run_in_worker, self.task, block[0], size, kernel.run_trials())
                submitted += 1
            pending.append(block)
            return True

        def run_here(block: list) -> None:
            block[3] = _run_one(self.task, block[0], block[1])
            block[2] = None

        try:
            for _ in range(min(ahead, n_blocks)):
                make(submit=True)
            while pending:
                head = pending[0]
                if head[2] is not None and head[2].done():
                    head[3], head[2] = head[2].result(), None
                    submitted -= 1
                if head[3] is not None:
                    pending.popleft()
                    while submitted < ahead and make(submit=True):
                        pass
                    yield head[3], head[1]
                    continue
                # The block due next is not done: run one here rather than wait. A new block first (those handed
                # to the processes are theirs while they keep up), else the last one handed out and not started.
                if make(submit=False):
                    run_here(pending[-1])
                    continue
                waiting = [block for block in pending if block[2] is not None]
                stolen = next((block for block in reversed(waiting) if block[2].cancel()), None)
                if stolen is not None:
                    submitted -= 1
                    run_here(stolen)
                    continue
                head[3], head[2] = head[2].result(), None
                submitted -= 1
        finally:
            for block in pending:
                if block[2] is not None:
                    block[2].cancel()
            if own is not None:
                own.close()

    def run(self, n_trials: int) -> tuple[np.ndarray, int]:
        """Run ``n_trials`` trials; return the summed tallies and the trial count."""
        n_trials = check_trials(n_trials)
        total, n_done = None, 0
        with track(self.description, total=n_trials, unit="trials") as bar, kernel.drawing(n_trials), \
                closing(self._blocks(_block_sizes(n_trials), _n_blocks(n_trials))) as blocks:
            for tally, size in blocks:
                progress.stop_if_requested()
                total = tally.copy() if total is None else total + tally
                n_done += size
                bar.advance(size)
        return total, n_done

    def run_until(self, half_width: float, widest: Callable[[np.ndarray, int], float],
                  max_trials: int = DEFAULT_MAX_TRIALS) -> tuple[np.ndarray, int]:
        """Add blocks until ``widest(tallies, n) <= half_width``, checked after every block.

        Checking at block boundaries (not chunk boundaries) makes the stopping
        point, hence the result, independent of the chunk size and the
        workers. The run is refused before any block when even proportions
        of 0 would need more than ``max_trials`` trials, and after the first
        block when the observed proportions would (see
        :func:`estimate_trials`, recorded as :attr:`estimated_trials`); it
        stops with an error if it reaches ``max_trials`` all the same.
        """
        half_width = check_half_width(half_width, "precision")
        max_trials = check_trials(max_trials, "max_trials")
        fewest, most = _wilson_half_width_extremes(half_width)
        if fewest > max_trials:
            raise _too_many(half_width, fewest, max_trials, "at least")
        total, n_done, width = None, 0, math.inf
        with track(self.description, total=min(most, max_trials), unit="trials") as bar, kernel.drawing() as run, \
                closing(self._blocks(_block_sizes(max_trials), _n_blocks(max_trials))) as blocks:
            for tally, size in blocks:
                progress.stop_if_requested()
                total = tally.copy() if total is None else total + tally
                n_done += size
                bar.advance(size)
                if self.estimated_trials is None:
                    self.estimated_trials = estimate_trials(total, n_done, half_width, widest,
                                                            limit=2 * max(most, max_trials))
                    if self.estimated_trials > max_trials:
                        raise _too_many(half_width, self.estimated_trials, max_trials, "about")
                    run.trials = self.estimated_trials
                width = widest(total, n_done)
                if width <= half_width:
                    return total, n_done
                # The normal approximation: the half-width shrinks as 1/sqrt(n).
                expected = max(n_done + BLOCK_TRIALS, math.ceil(n_done * (width / half_width) ** 2))
                bar.update(total=min(expected, max_trials))
        raise DeckstatError(tr("{precision} {half_width} not reached within {max_trials} {most} trials (the widest "
                               "half-width is {width}): ask a coarser {precision} or raise {max_trials}",
                               precision=param("precision"), half_width=localise_number(f"{half_width:g}"),
                               max_trials=param("max_trials"), most=localise_number(written(max_trials)),
                               width=localise_number(f"{width:.2g}")))


def wilson_interval(hits: int, n_trials: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion, without continuity correction.

    The closed form of scipy's ``binomtest(hits, n_trials).proportion_ci(method="wilson")``
    (Newcombe 1998), which it matches to rounding; 0 and 1 are exact bounds
    when no or every trial hits.

    >>> [round(b, 6) for b in wilson_interval(5, 10)]
    [0.236593, 0.763407]
    """
    hits, n_trials = int(hits), int(n_trials)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = hits / n_trials
    denominator = 2 * (n_trials + z * z)
    center = (2 * n_trials * p + z * z) / denominator
    half = z / denominator * math.sqrt(4 * n_trials * p * (1 - p) + z * z)
    low = 0.0 if hits == 0 else center - half
    high = 1.0 if hits == n_trials else center + half
    return max(0.0, low), min(1.0, high)


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
             widest: Callable[[np.ndarray, int], float] = widest_half_width, max_trials: int = DEFAULT_MAX_TRIALS,
             description: str = "simulating") -> tuple[np.ndarray, int]:
    """Run ``task`` on ``streams`` for ``n_trials`` trials, or until ``widest`` is at most ``precision``.

    Returns the summed tallies and the number of trials run (see
    :func:`simulate_until` for what a precision run records).
    """
    tallies, n_done, _ = simulate_until(task, streams, precision, n_trials=n_trials, chunk_size=chunk_size,
                                        n_workers=n_workers, widest=widest, max_trials=max_trials,
                                        description=description)
    return tallies, n_done


def simulate_until(task: Callable, streams: Streams, precision: float | None, *, n_trials: int | None = None,
                   chunk_size: int = DEFAULT_CHUNK, n_workers: int = 1,
                   widest: Callable[[np.ndarray, int], float] = widest_half_width,
                   max_trials: int = DEFAULT_MAX_TRIALS,
                   description: str = "simulating") -> tuple[np.ndarray, int, dict | None]:
    """Run ``task`` until ``widest`` is at most ``precision``, within ``max_trials`` (:meth:`BlockRunner.run_until`).

    With ``precision`` None, runs ``n_trials`` trials (default
    :data:`DEFAULT_TRIALS`) instead. Returns the summed tallies, the number
    of trials run, and for a precision run the stopping facts for the
    provenance (None otherwise): ``max_trials``, ``estimated_trials`` (the
    estimate after the first block) and ``stopping_rule`` (in words).
    """
    runner = BlockRunner(task, streams, chunk_size=chunk_size, n_workers=n_workers, description=description)
    if precision is None:
        return (*runner.run(DEFAULT_TRIALS if n_trials is None else n_trials), None)
    tallies, n_done = runner.run_until(precision, widest, max_trials)
    rule = tr("stop after the first block of {block} trials at which every 95% Wilson interval is at most "
              "±{precision}; refuse after the first block when the observed proportions need more than max_trials "
              "({most})", block=number(BLOCK_TRIALS), precision=localise_number(f"{precision:g}"),
              most=localise_number(written(max_trials)))
    return tallies, n_done, {"max_trials": max_trials, "estimated_trials": runner.estimated_trials,
                             "stopping_rule": rule}


def provenance(streams: Streams, precision: float | None = None, stopping: dict | None = None) -> dict:
    """What reproduces a simulated result: the root seed, the block size, the stopping rule, the interval.

    ``seed`` is the number to pass again as ``rng`` (``--seed``), or ``None``
    when only ``seed_entropy`` and ``seed_spawn_key`` (the root
    ``SeedSequence``) record the streams. ``stopping`` holds a precision
    run's facts (:func:`simulate_until`).
    """
    return {"seed": streams.seed, "seed_entropy": streams.entropy, "seed_spawn_key": list(streams.spawn_key),
            "block_trials": BLOCK_TRIALS, "precision": precision, "confidence": CONFIDENCE, "interval": "wilson",
            **(stopping or {})}
