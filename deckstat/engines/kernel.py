"""Vectorised Monte Carlo kernels: numpy arrays in, numpy arrays out.

No pandas here and no per-trial Python loop; randomness comes from a
``numpy.random.Generator`` passed in.

Representation. Cards are reduced to *cells* (disjoint classes by group
membership). A shuffled deck prefix is drawn position by position without
replacement, for all trials at once: with ``bounds[j]`` the number of
remaining cards in cells ``0..j`` (cumulative), a uniform index among the
remaining cards falls below exactly the boundaries above the drawn card's
cell, and those boundaries drop by one. The loops run compiled (numba, in
:mod:`deckstat.engines._compiled`, loaded for runs long enough for them to
pay, see :func:`loops`; numpy's loops give the same numbers) over tiles of
256 trials, position by position, so that a step is a few SIMD operations
per cell boundary, whatever the deck size, and no deck matrix is ever built.
Arrays are position-major (``[position, trial]``); cell ids are ``int8``
(``int16`` past 127 cells) and counts ``int16``. The random numbers of
position ``i`` are the ``i``-th row of one position-major draw, so a longer
draw from the same generator state extends a shorter one (:func:`deal` and
:func:`deal_order` deal the same shuffles). For numpy's ``PCG64`` (every
seed's generator) the compiled loops generate those words from the
generator's state where they use them (:func:`_stream`) instead of reading
them from an array: the same numbers.

A reshuffling mulligan round (London, free, Pokémon) is one compiled pass
over its pending trials: it draws them and writes each one's zones as if it
kept its hand; the keep rule then reads the round's hands at once, and the
trials it sends back are written again by a later round.

Zones are differences of prefix counts: the cards seen after ``d`` draws by
a player who kept hand ``k`` under the Wankul rule are the positions after
that hand, then (once the deck is exhausted) the bottomed hands in order.

The drawn card's index is ``(u * remaining) >> 24`` for a 24-bit uniform
integer ``u`` (see :func:`card_indices`): each index then has probability
within ``1 / 2**24`` of ``1 / remaining`` (relative error under 1.5e-5 for
decks of up to 255 cards), far under the standard error of any run this
package makes.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from deckstat.engines import progress
from deckstat.engines.progress import track
from deckstat.i18n import N_, tr
from deckstat.terms import MULLIGAN_RULES

#: Zones :func:`deal` can compute.
DEAL_ZONES = ("hand", "seen", "bottom")


def cell_dtype(n_cells: int) -> np.dtype:
    """Smallest integer dtype that holds cell ids."""
    return np.dtype(np.int8) if n_cells <= 127 else np.dtype(np.int16)


#: What the progress line says while numba starts and compiles or loads a signature (seconds on a first run).
PREPARING = N_("preparing the compiled simulation kernel (slow only on a first run after install)")

#: The compiled signatures this process has compiled or loaded: (function, (dtype, ndim, contiguous) per array…).
_ready: set[tuple] = set()


def _compiled():
    """The compiled loops, imported on first use (numba costs a third of a second to import)."""
    module = sys.modules.get("deckstat.engines._compiled")
    if module is None:
        with track(tr(PREPARING), total=None, unit=""):
            from deckstat.engines import _compiled as module
    return module


def compiled(name: str, *args):
    """The compiled function ``name``, its signature for ``args`` compiled or loaded first.

    A first run after install compiles each signature a question needs (one
    to two seconds each); that happens here, under a progress line of its own
    (shown by the command line past about a second), not inside a
    simulation's progress. Later calls with arrays of the same types cost a
    set lookup.
    """
    function = getattr(_compiled(), name)
    key = (name, *((a.dtype.str, a.ndim, a.flags.c_contiguous) if isinstance(a, np.ndarray) else type(a)
                   for a in args))
    if key not in _ready:
        from numba import typeof

        with track(tr(PREPARING), total=None, unit=""):
            _interruptible(function.compile, tuple(typeof(a) for a in args))
        if not _ready:
            _mark_compiled()
        _ready.add(key)
    return function


def _interruptible(call, *args) -> None:
    """``call(*args)`` in a helper thread while this one waits, so that a Ctrl-C or SIGTERM stops the wait at once.

    Python raises a Ctrl-C in the main thread wherever it is: inside numba's
    compiler, it could leave a signature half compiled, and saving it then
    failed, so that an interrupted first run ended in an internal error
    instead of its one ``interrupted`` line. The helper thread (a daemon) is
    never interrupted; the main thread's wait for it is, and the helper is
    left to end with the process. Elsewhere than the main thread, called here.
    """
    if threading.current_thread() is not threading.main_thread():
        call(*args)
        return
    failures: list[BaseException] = []

    def run() -> None:
        try:
            call(*args)
        except BaseException as exc:  # raised again in the waiting thread
            failures.append(exc)

    helper = threading.Thread(target=run, name="deckstat-compile", daemon=True)
    helper.start()
    while helper.is_alive():
        helper.join(progress.STOP_LOOK_SECONDS)
        progress.stop_if_requested()  # an interrupt Python dropped (see progress.request_stop) stops the wait too
    if failures:
        raise failures[0]


def _compiled_marks() -> list[Path]:
    """Where a file says the compiled loops of this install were compiled once (numba then loads them from disk).

    Its name holds the modification times and sizes of ``_compiled.py`` and of numba's ``__init__.py``: a new
    version of either (whose signatures numba compiles again) is a new name. It is kept where numba keeps them:
    in ``$NUMBA_CACHE_DIR`` when it is set (emptying it empties both), else beside ``_compiled.py``, else (a
    read-only install) in the user's cache folder.
    """
    global _marks
    if _marks is None:
        import importlib.util
        import os

        try:
            numba_init = Path(importlib.util.find_spec("numba").origin)
            stamps = [Path(__file__).with_name("_compiled.py").stat(), numba_init.stat()]
        except (AttributeError, ImportError, OSError, ValueError):  # no numba: never marked
            _marks = []
            return _marks
        name = "deckstat-compiled-" + "-".join(f"{s.st_mtime_ns}-{s.st_size}" for s in stamps)
        if os.environ.get("NUMBA_CACHE_DIR"):
            _marks = [Path(os.environ["NUMBA_CACHE_DIR"]) / name]
        else:
            user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "deckstat"
            _marks = [Path(__file__).with_name("__pycache__") / name, user / name]
    return _marks


_marks: list[Path] | None = None


def compiled_once() -> bool:
    """Whether the compiled loops were compiled on this install before (a later process loads them in ~1 s)."""
    return any(mark.exists() for mark in _compiled_marks())


def _mark_compiled() -> None:
    for mark in _compiled_marks():
        try:
            mark.parent.mkdir(parents=True, exist_ok=True)
            mark.touch()
            return
        except OSError:  # a read-only folder: the next one
            continue


#: Card-steps (trials × positions × (cells + groups)) past which a run's draws are compiled: the compiled loops
#: take about two thirds of numpy's time per card-step in long runs, so they win back starting numba and loading
#: them (about 0.8 s of CPU in a new process, and 120 MiB) only past some 10^9 card-steps. `deckstat odds
#: --simulate` on the Wankul sample, 10^7 trials (9·10^8 card-steps): the same wall time either way (1.9 s),
#: 176 MiB with numpy against 294; 10^8: 5.8 s against 3.9 s. A report on a sample deck stays under it (10^9
#: card-steps beside its resource-count sweep) and never starts numba.
VECTORISED_WORK = 1_400_000_000
#: The same before the compiled loops were ever compiled on this install: compiling the signatures a question
#: uses costs 10-15 s of CPU, which the compiled loops (about half numpy's time per card-step, and no faster on
#: some decks) win back only past some 20 s of numpy work. Below it a first run is numpy's, at most about twice
#: a later compiled one, instead of several times it.
VECTORISED_WORK_UNCOMPILED = 5_000_000_000
#: A numpy operation's own cost, in trials: what makes many small draws slower in numpy than compiled.
VECTORISED_CALL = 1_000
#: Whether this process compiles the loops when a run would win the time back. Worker processes do not: each
#: would compile for itself at once; they draw with numpy until the main process has compiled them.
compiles_here = True
#: Card-steps drawn by numpy in this process so far: past :data:`VECTORISED_WORK`, loading the compiled loops pays.
_vectorised_work = 0


def loops(n_trials: int, length: int, n_cells: int, n_groups: int):
    """The module whose ``draw`` and ``prefix_counts`` a draw of this size uses: numpy or compiled.

    The compiled loops once they are loaded in this process, or once the
    draws of this process (this one included) are too many for numpy to beat
    their loading (:data:`VECTORISED_WORK`), or their compiling when they
    were never compiled on this install (:data:`VECTORISED_WORK_UNCOMPILED`);
    the numpy loops of :mod:`deckstat.engines._vectorised` otherwise. Both
    give the same numbers.
    """
    global _vectorised_work
    if "deckstat.engines._compiled" in sys.modules:
        return _Compiled
    work = length * (n_cells + n_groups) * (n_trials + VECTORISED_CALL)
    run = _run.get()
    if run is None or run.choice is None:
        # A run that said how many trials it draws is judged whole, at its first draw, so that it never starts in
        # numpy and stops to compile near its end.
        planned = _vectorised_work + max(work, work * (run.trials if run else 0) // max(n_trials, 1))
        compiled = planned > VECTORISED_WORK and (
            (compiles_here and planned > VECTORISED_WORK_UNCOMPILED) or compiled_once())
        choice = _Compiled if compiled else _numpy_loops()
        if run is not None and run.trials:
            run.choice = choice
    else:
        choice = run.choice
    if choice is not _Compiled:
        _vectorised_work += work
    return choice


def _numpy_loops():
    from deckstat.engines import _vectorised

    return _vectorised


@dataclass
class _Run:
    """The simulation under way in this context: the trials it draws in all (0: not known yet), the loops chosen."""

    trials: int = 0
    choice: object = None


_run: ContextVar[_Run | None] = ContextVar("deckstat_kernel_run", default=None)


@contextmanager
def drawing(n_trials: int = 0) -> Iterator[_Run]:
    """Say that the draws made inside are one run of ``n_trials`` trials (0: not known yet; set ``.trials`` later).

    :func:`loops` then chooses numpy or the compiled loops once for the whole run, from its whole work.
    """
    token = _run.set(_Run(int(n_trials)))
    try:
        yield _run.get()
    finally:
        _run.reset(token)


def run_trials() -> int:
    """The trials of the run under way in this context (:func:`drawing`; 0 when none is, or its length is not known)."""
    run = _run.get()
    return run.trials if run is not None else 0


class _Compiled:
    """``draw`` and ``prefix_counts`` of :mod:`deckstat.engines._compiled`, through :func:`compiled`."""

    @staticmethod
    def draw(*args):
        compiled("draw", *args)(*args)

    @staticmethod
    def prefix_counts(*args):
        compiled("prefix_counts", *args)(*args)


def _random_bits(rng: np.random.Generator, n_cards: int, length: int, n_trials: int) -> tuple[np.ndarray, bool]:
    """Random words for :func:`card_indices`, as the compiled loops read them: (bits, scaled).

    For decks under 256 cards, 24 random bits in the high bits of uint32
    words (``scaled``, the index is computed where it is used); otherwise the
    indices themselves.
    """
    if n_cards < 256:
        words = rng.bit_generator.random_raw(-(-length * n_trials // 2))
        return words.view(np.uint32)[:length * n_trials].reshape(length, n_trials), True
    uniforms = rng.random((length, n_trials))
    uniforms *= np.arange(n_cards, n_cards - length, -1)[:, None]
    return uniforms.astype(np.uint32), False


#: Placeholders for the arrays the compiled loops leave out: random words (generated), a stream (words given).
_NO_BITS = np.zeros((0, 0), dtype=np.uint32)
_NO_STREAM = np.zeros(0, dtype=np.uint64)
_WORD = (1 << 64) - 1


def _stream(rng: np.random.Generator, n_cards: int) -> np.ndarray | None:
    """The state from which the compiled loops generate the words :func:`_random_bits` would draw, or None.

    For numpy's ``PCG64`` (the generator of every seed) and decks under 256
    cards: uint64 (state high, state low, increment high, increment low).
    The compiled loops write the state after those words back into it
    (:func:`_set_stream` hands it to ``rng``).
    """
    if n_cards >= 256 or type(rng.bit_generator) is not np.random.PCG64:
        return None
    state = rng.bit_generator.state["state"]
    return np.array([state["state"] >> 64, state["state"] & _WORD, state["inc"] >> 64, state["inc"] & _WORD],
                    dtype=np.uint64)


def _set_stream(rng: np.random.Generator, stream: np.ndarray) -> None:
    """Move ``rng`` past the words generated from ``stream`` (as ``random_raw`` would; a buffered half-word stays)."""
    state = rng.bit_generator.state
    state["state"]["state"] = int(stream[0]) << 64 | int(stream[1])
    rng.bit_generator.state = state


def card_indices(rng: np.random.Generator, n_cards: int, length: int, n_trials: int) -> np.ndarray:
    """Uniform indices of the card drawn at each position among those remaining.

    Row ``i`` holds integers in ``[0, n_cards - i)``. For decks under 256
    cards they come from 24 random bits each, ``(u * remaining) >> 24`` in
    32-bit integers (two per 64-bit word of the bit generator, about twice as
    fast as floats); larger decks use float64 uniforms. The kernel's draws
    read the same numbers (computed inside its compiled loop).

    Returns
    -------
    ndarray of int16 (int32 for decks of 2**15 cards or more), shape (length, n_trials)
    """
    index_type = np.int16 if n_cards < 2**15 else np.int32
    bits, scaled = _random_bits(rng, n_cards, length, n_trials)
    if not scaled:
        return bits.astype(index_type)
    bits = bits >> np.uint32(8)
    bits *= np.arange(n_cards, n_cards - length, -1).astype(np.uint32)[:, None]
    bits >>= np.uint32(24)
    return bits.astype(index_type)


#: Trials a Vancouver round after a mulligan (the scry) carries from the draw to the kept zones at a time: their
#: arrays stay in the cache between the steps. The random numbers are drawn for the whole round first, so this
#: changes no number.
ROUND_CHUNK = 1 << 14


def _draw(cell_counts, table, n_trials: int, length: int, rng, *, cells: bool, prefix: bool):
    """Draw ``length`` positions of ``n_trials`` shuffles: (cell ids or None, prefix counts or None)."""
    cell_counts = np.ascontiguousarray(cell_counts, dtype=np.int64)
    n_cards = int(cell_counts.sum())
    if length > n_cards:
        raise ValueError(f"cannot draw {length} cards from {n_cards}")
    bits = scaled = None
    if length and n_trials and len(cell_counts) > 1:
        stream = _stream(rng, n_cards)
        if stream is not None and "deckstat.engines._compiled" in sys.modules:
            return _draw_generated(stream, rng, cell_counts, table, n_trials, length, cells=cells, prefix=prefix)
        bits, scaled = _random_bits(rng, n_cards, length, n_trials)
    return _draw_from(bits, scaled, cell_counts, table, n_trials, length, cells=cells, prefix=prefix)


def _draw_generated(stream, rng, cell_counts, table, n_trials: int, length: int, *, cells: bool, prefix: bool):
    """:func:`_draw` with the random words generated inside the compiled loop from ``stream`` (see :func:`_stream`).

    The same numbers as drawing the words first (the compiled loops are
    loaded: numpy's loops cannot beat them any more).
    """
    table = np.ascontiguousarray(np.asarray(table, dtype=np.int16).reshape(len(cell_counts), -1))
    fused = len(cell_counts) == 2
    cells_out = np.empty((length, n_trials) if cells or (prefix and not fused) else (0, 0),
                         dtype=cell_dtype(len(cell_counts)))
    prefix_out = np.empty((table.shape[1], length + 1, n_trials) if prefix else (0, 0, 0), dtype=np.int16)
    if prefix:
        prefix_out[:, 0] = 0
    args = (_NO_BITS, True, stream, length, n_trials, cell_counts, table, cells_out, prefix_out)
    compiled("draw_from", *args)(*args)
    _set_stream(rng, stream)
    if prefix and not fused:
        args = (cells_out, table, prefix_out)
        compiled("prefix_counts", *args)(*args)
    return (cells_out if cells else None), (prefix_out if prefix else None)


def _draw_from(bits, scaled, cell_counts, table, n_trials: int, length: int, *, cells: bool, prefix: bool,
               module=None):
    """:func:`_draw` from its random words (None when no random number is needed: one cell or nothing drawn).

    ``module``: the loops to draw with (default: those :func:`loops` chooses).
    """
    table = np.ascontiguousarray(np.asarray(table, dtype=np.int16).reshape(len(cell_counts), -1))
    dtype = cell_dtype(len(cell_counts))
    if bits is not None and module is None:
        module = loops(n_trials, length, len(cell_counts), table.shape[1])
    # Past two cells, the compiled prefix counts are a second pass over the cell ids (see _compiled.draw).
    fused = len(cell_counts) == 2 or getattr(module, "PREFIX_FROM_ANY_CELLS", False)
    # The compiled loops write every entry but the prefix counts' row 0: no need to clear the rest first.
    allocate = np.zeros if bits is None else np.empty
    cells_out = allocate((length, n_trials) if cells or (prefix and not fused) else (0, 0), dtype=dtype)
    prefix_out = allocate((table.shape[1], length + 1, n_trials) if prefix else (0, 0, 0), dtype=np.int16)
    if bits is not None:
        if prefix:
            prefix_out[:, 0] = 0
        module.draw(bits, scaled, cell_counts, table, cells_out, prefix_out)
        if prefix and not fused:
            module.prefix_counts(cells_out, table, prefix_out)
    elif prefix and length:
        # One cell: every position holds it (and no random number is spent).
        prefix_out[:] = (table[0][:, None] * np.arange(length + 1, dtype=np.int16))[:, :, None]
    return (cells_out if cells else None), (prefix_out if prefix else None)


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
    table = np.zeros((len(cell_counts), 0), dtype=np.int16)
    return _draw(cell_counts, table, n_trials, length, rng, cells=True, prefix=False)[0]


def draw_prefix_counts(cell_counts: np.ndarray, table: np.ndarray, n_trials: int, length: int,
                       rng: np.random.Generator) -> np.ndarray:
    """Group counts of every prefix of ``n_trials`` shuffles, drawn directly.

    The same draws as :func:`draw_cells` followed by :func:`prefix_counts`
    (identical results for the same generator state), without materialising
    cell ids.

    Returns
    -------
    ndarray of int16, shape (n_groups, length + 1, n_trials)
    """
    return _draw(cell_counts, table, n_trials, length, rng, cells=False, prefix=True)[1]


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
    table = np.ascontiguousarray(np.asarray(table, dtype=np.int16).reshape(len(table), -1))
    out = np.zeros((table.shape[1], length + 1, n_trials), dtype=np.int16)
    if length and n_trials:
        module = loops(n_trials, length, table.shape[0], table.shape[1])
        module.prefix_counts(np.ascontiguousarray(cells), table, out)
    return out


def need_ranks(hand_cells: np.ndarray, member: np.ndarray, counts) -> np.ndarray:
    """Rank of each card of a hand under the needs policy.

    The hand is walked in its (random) drawn order; a card is *wanted* with
    the rank of the first need it serves that earlier wanted cards have not
    met yet, and then counts for every need whose group it belongs to.

    Parameters
    ----------
    hand_cells : ndarray of int, shape (hand positions, n_trials)
        Cell id of each card, in drawn order.
    member : ndarray of bool, shape (n_cells, n_needs)
        Whether each cell belongs to the group of each need, most important need first.
    counts : sequence of int
        Cards each need asks for.

    Returns
    -------
    ndarray of int16, shape (hand positions, n_trials)
        Index of the need each card serves; ``n_needs`` for a card that is not wanted.

    Examples
    --------
    >>> member = np.array([[True], [False]])  # cell 0 is a Terrain, cell 1 is not
    >>> need_ranks(np.array([[0], [1], [0]]), member, [1]).ravel().tolist()
    [0, 1, 1]
    """
    length, n_trials = hand_cells.shape
    n_needs = len(counts)
    ranks = np.full((length, n_trials), n_needs, dtype=np.int16)
    if not n_needs:
        return ranks
    member = np.asarray(member, dtype=bool).reshape(-1, n_needs)
    members = [member[:, i][hand_cells] for i in range(n_needs)]
    met = np.zeros((n_needs, n_trials), dtype=np.int32)
    free = np.empty(n_trials, dtype=bool)
    for p in range(length):
        free[:] = True
        for i, count in enumerate(counts):
            serves = free & members[i][p] & (met[i] < count)
            ranks[p][serves] = i
            free &= ~serves
        for i in range(n_needs):
            met[i] += members[i][p] & ~free
    return ranks


def bottom_choice(ranks: np.ndarray, n_bottom: int) -> np.ndarray:
    """Which hand positions go under the deck: the ``n_bottom`` least wanted cards.

    Unwanted cards go first, then wanted cards from the last need up; among
    cards of one rank, the card drawn last goes first (a uniformly random
    choice, the hand being in shuffled order). The kernel applies this rule
    one hand at a time in its compiled loop; this is its array statement.

    Examples
    --------
    >>> bottom_choice(np.array([[0], [2], [1], [2]]), 2).ravel().tolist()
    [False, True, False, True]
    """
    length = ranks.shape[0]
    # One score per card, the highest goes first: the rank, then the position.
    score = ranks.astype(np.int32) * length + np.arange(length)[:, None]
    order = np.argsort(-score, axis=0)
    under = np.zeros(ranks.shape, dtype=bool)
    np.put_along_axis(under, order[:n_bottom], True, axis=0)
    return under


@dataclass(frozen=True)
class _Needs:
    """The needs policy of one deal: fixed needs, then the resource group scaled to the kept hand."""

    member: np.ndarray  # (n_cells, n_needs) bool; the resource group is the last column when there is one
    counts: tuple[int, ...]
    resource_target: float | None

    @property
    def size(self) -> int:
        """Needs in the list: the rank of a card no need wants."""
        return self.member.shape[1]

    def ranks(self, hand_cells: np.ndarray, kept_size: int) -> np.ndarray:
        counts = self.counts
        if self.resource_target is not None:
            counts = counts + (round(self.resource_target * kept_size),)
        return need_ranks(hand_cells, self.member, counts)

    def policy(self, drawn_size: int, n_bottom: int) -> tuple:
        """The needs policy as the compiled loops read it, for a hand of ``drawn_size`` that bottoms ``n_bottom``.

        Returns ``member``, ``counts`` and ``surplus_resource`` (see ``_compiled.deal_round``).

        The cards put under the deck are those :func:`bottom_choice` picks from
        :meth:`ranks`, with the unwanted resource cards ranked after the other
        unwanted cards: past its share, a resource card is surplus and goes
        under the deck before an unwanted card of another kind (a flooded hand
        sheds lands, not spells).
        """
        counts = self.counts
        if self.resource_target is not None:
            counts = counts + (round(self.resource_target * (drawn_size - n_bottom)),)
        return (np.ascontiguousarray(self.member), np.array(counts, dtype=np.int64),
                self.resource_target is not None)


def _needs(table, needs, resource, resource_target) -> _Needs:
    table = np.asarray(table).reshape(len(table), -1)
    columns = [table[:, g].astype(bool) for g, _ in needs]
    counts = tuple(int(min(n, np.iinfo(np.int32).max)) for _, n in needs)
    if resource is not None:
        columns.append(np.asarray(resource, dtype=bool))
    member = np.column_stack(columns) if columns else np.zeros((len(table), 0), dtype=bool)
    return _Needs(member, counts, resource_target if resource is not None else None)


def deal(cell_counts: np.ndarray, table: np.ndarray, n_trials: int, *, hand_size: int, set_aside: int,
         max_draws: int, rng: np.random.Generator, mulligan: str = "none", mulligan_limit: int = 0,
         keep=None, needs=(), resource: np.ndarray | None = None, resource_target: float = 0.0,
         zones=DEAL_ZONES) -> dict:
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
    mulligan : {"none", "bottom", "london", "vancouver", "free", "hearthstone", "pokemon"}
        ``bottom``: the hand goes under the deck and a new hand is drawn from
        the top, no shuffle (Wankul). ``london``: shuffle, draw a full hand,
        put one card per mulligan under the deck. ``vancouver``: shuffle, draw
        one card fewer per mulligan, then scry 1. ``free``: the first
        mulligan is a full new hand, later ones are London. ``hearthstone``:
        one round, every card the needs policy does not want is set aside,
        replaced from the library, then shuffled back into it (the keep rule
        only feeds the needs). ``pokemon``: shuffle and draw a full hand again
        while the keep rule fails. London's bottom cards, the Vancouver scry
        and Hearthstone's replaced cards follow the needs policy
        (:func:`need_ranks`, :func:`bottom_choice`).
    mulligan_limit : int
        Mulligans allowed; the last hand is always kept.
    keep : callable, optional
        Maps the group counts of a hand, shape (n_groups, n), to a bool array
        (n,): keep it or not. Required unless ``mulligan == "none"``.
    needs : sequence of (int, int)
        The needs policy's list, most important first: (group column of
        ``table``, cards wanted).
    resource : ndarray of bool, shape (n_cells,), optional
        Resource cells: a last need of ``round(resource_target * kept hand
        size)`` resource cards.
    resource_target : float
        Wanted share of resources in a kept hand.
    zones : collection of str
        Zones to compute among ``hand``, ``seen``, ``bottom`` (the others
        cost nothing); ``mulligans``, ``first_hand`` and ``set_aside`` always come.

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
        if not limit and "deckstat.engines._compiled" in sys.modules \
                and set_aside + hand_size + max_draws <= cell_counts.sum():
            return _deal_kept(cell_counts, table, n_trials, hand_size, set_aside, max_draws, rng, zones)
        return _deal_bottom(cell_counts, table, n_trials, hand_size, set_aside, max_draws, rng, limit, keep,
                            zones)
    policy = _needs(table, needs, resource, resource_target)
    if mulligan == "hearthstone":
        return _deal_replace(cell_counts, table, n_trials, hand_size, set_aside, max_draws, rng, policy)
    return _deal_reshuffle(cell_counts, table, n_trials, hand_size, set_aside, max_draws, rng, mulligan,
                           mulligan_limit, keep, policy, zones)


def bottom_mulligans(hand_counts, keep, n_trials: int, *, hand_size: int, set_aside: int, limit: int) -> np.ndarray:
    """Mulligans taken under the bottom rule (Wankul): the number of the hand each trial keeps.

    Hand ``k`` is the ``hand_size`` cards from position ``set_aside + k *
    hand_size`` of the shuffle; it is kept when ``keep`` accepts it or when it
    is hand ``limit``. The hands before it lie under the deck in order, so
    the library is the shuffle after hand ``k`` followed by hands ``0..k-1``
    (see :func:`deal_order`).

    Parameters
    ----------
    hand_counts : callable
        Maps the start position of a hand to its group counts, shape (n_groups, n_trials).
    keep : callable
        Maps group counts of hands to a bool array (n_trials,).
    n_trials, hand_size, set_aside, limit : int

    Returns
    -------
    ndarray of int8, shape (n_trials,)
    """
    mulligans = np.zeros(n_trials, dtype=np.int8)
    decided = np.zeros(n_trials, dtype=bool)
    for k in range(limit):
        keeps = keep(hand_counts(set_aside + k * hand_size))
        mulligans += ~decided & ~keeps
        decided |= keeps
    return mulligans


def deal_order(cell_counts: np.ndarray, table: np.ndarray, n_trials: int, rng: np.random.Generator, *,
               hand_size: int, set_aside: int, limit: int = 0, keep=None) -> dict:
    """Shuffle whole decks and apply the bottom mulligan: the kept hand and the library in draw order, as cell ids.

    The same shuffles and decisions as :func:`deal` with ``mulligan="bottom"``
    (for the same generator state), for models that follow every card.

    Parameters
    ----------
    cell_counts : ndarray of int, shape (n_cells,)
    table : ndarray of int, shape (n_cells, n_groups)
        Membership of each cell in the keep rule's groups.
    n_trials : int
    rng : numpy.random.Generator
    hand_size, set_aside : int
    limit : int
        Bottom mulligans allowed (fewer when the deck cannot deal that many hands).
    keep : callable, optional
        Maps group counts of hands (n_groups, n_trials) to a bool array; needed when ``limit > 0``.

    Returns
    -------
    dict
        ``hand`` (hand_size, n_trials) and ``library`` (n_cards - set_aside -
        hand_size, n_trials) cell ids, position-major; ``mulligans`` taken.
    """
    cell_counts = np.asarray(cell_counts, dtype=np.int64)
    cells = draw_cells(cell_counts, n_trials, int(cell_counts.sum()), rng)
    return arrange(cells, cell_counts, table, hand_size=hand_size, set_aside=set_aside, limit=limit, keep=keep)


def arrange(cells: np.ndarray, cell_counts: np.ndarray, table: np.ndarray, *, hand_size: int, set_aside: int,
            limit: int = 0, keep=None) -> dict:
    """The kept hand and the library in draw order of whole shuffled decks ``cells``, under the bottom mulligan.

    See :func:`deal_order`, which shuffles with the kernel and calls this.
    """
    n_cards, n_trials = cells.shape
    limit = max(0, min(limit, (n_cards - set_aside) // max(hand_size, 1) - 1)) if keep is not None else 0
    table16 = np.asarray(table, dtype=np.int16).reshape(len(cell_counts), -1)

    def hand_counts(start):
        return table16[cells[start:start + hand_size]].sum(axis=0, dtype=np.int16).T

    mulligans = bottom_mulligans(hand_counts, keep, n_trials, hand_size=hand_size, set_aside=set_aside,
                                 limit=limit)
    start = set_aside
    hand = cells[start:start + hand_size]
    library = cells[start + hand_size:]
    for k in range(1, limit + 1):
        start = set_aside + k * hand_size
        chosen = (mulligans == k)[None, :]
        hand = np.where(chosen, cells[start:start + hand_size], hand)
        # The hands put back lie under the deck, in the order they were dealt.
        library = np.where(chosen, np.concatenate([cells[start + hand_size:], cells[set_aside:start]]), library)
    return {"hand": hand, "library": library, "mulligans": mulligans}


def _deal_kept(cell_counts, table, n_trials, hand_size, set_aside, max_draws, rng, zones):
    """No mulligan, the compiled loops loaded, the draws within the deck: :func:`_deal_bottom`'s numbers in one pass.

    The first hand is kept: one round of ``_compiled.deal_round`` writes the
    zones straight from the draws, with no prefix counts in between.
    """
    n_groups = table.shape[1]
    table16 = np.ascontiguousarray(np.asarray(table, dtype=np.int16).reshape(len(table), -1))
    seen = np.empty((n_groups, max_draws + 1 if "seen" in zones else 1, n_trials), dtype=np.int16)
    hand = np.empty((n_groups, n_trials), dtype=np.int16)
    aside = np.empty((n_groups, n_trials), dtype=np.int16)
    first_hand = np.empty((n_groups, n_trials), dtype=np.int16)
    no_needs = (np.zeros((len(cell_counts), 0), dtype=bool), np.zeros(0, dtype=np.int64), False)
    _deal_round(np.ascontiguousarray(cell_counts, dtype=np.int64), table16, rng, set_aside + hand_size + max_draws,
                _EVERY_ROW, n_trials, set_aside, hand_size, 0, no_needs, 0, first_hand, seen, _NO_ZONE, hand, aside,
                _NO_MULLIGANS)
    dealt = {"mulligans": np.zeros(n_trials, dtype=np.int8), "first_hand": first_hand, "set_aside": aside}
    if "hand" in zones:
        dealt["hand"] = hand
    if "seen" in zones:
        dealt["seen"] = seen
    if "bottom" in zones:
        dealt["bottom"] = np.broadcast_to(np.zeros((n_groups, 1, n_trials), dtype=np.int16),
                                          (n_groups, max_draws + 1, n_trials))
    return dealt


def _deal_bottom(cell_counts, table, n_trials, hand_size, set_aside, max_draws, rng, limit, keep, zones):
    n_cards = int(cell_counts.sum())
    # Positions past this are only reached by wrapping into the bottomed hands, and then it is the deck.
    length = min(n_cards, set_aside + (limit + 1) * hand_size + max_draws)
    prefix = draw_prefix_counts(cell_counts, table, n_trials, length, rng)
    base = prefix[:, set_aside]
    mulligans = bottom_mulligans(lambda start: prefix[:, start + hand_size] - prefix[:, start], keep, n_trials,
                                 hand_size=hand_size, set_aside=set_aside, limit=limit)
    # Masks as 0/1 integers: selecting by arithmetic is several times faster than np.where or
    # np.copyto(where=...) on these arrays.
    chosen = [(mulligans == k).astype(np.int16) for k in range(limit + 1)]
    starts = [set_aside + k * hand_size for k in range(limit + 1)]

    def select(rows):
        """Per trial, the row of the hand it kept: rows[k] is a (n_groups, n) array for hand k."""
        out = rows[0].copy()
        for k in range(1, limit + 1):
            out += chosen[k] * (rows[k] - rows[0])
        return out

    dealt = {"mulligans": mulligans, "first_hand": prefix[:, set_aside + hand_size] - base,
             "set_aside": base - prefix[:, 0]}
    offset = select([prefix[:, start] for start in starts])
    if "hand" in zones:
        # A hand that runs past the deck's last card goes on with the hands bottomed before it, as draws do.
        ends = [start + hand_size for start in starts]
        wrapped = [set_aside + min(max(end - n_cards, 0), k * hand_size) for k, end in enumerate(ends)]
        dealt["hand"] = select([prefix[:, min(end, length)] + prefix[:, wrap] - base
                                for end, wrap in zip(ends, wrapped)]) - offset
    wraps = set_aside + (limit + 1) * hand_size + max_draws > n_cards
    if "seen" in zones and not wraps:
        seen = np.empty((prefix.shape[0], max_draws + 1, n_trials), dtype=np.int16)
        for d in range(max_draws + 1):
            seen[:, d] = select([prefix[:, start + hand_size + d] for start in starts])
        seen -= offset[:, None, :]
        dealt["seen"] = seen
    if "bottom" in zones and not wraps:
        dealt["bottom"] = np.broadcast_to((offset - base)[:, None, :], (prefix.shape[0], max_draws + 1, n_trials))
    if wraps and ({"seen", "bottom"} & set(zones)):
        # Draws reach the bottomed hands: the library is the rest of the deck, then hands 0..k-1 in order.
        draws = np.arange(max_draws + 1)
        seen = bottom = None
        for k, start in enumerate(starts):
            after = start + hand_size + draws
            wrapped = set_aside + np.minimum(np.maximum(after - n_cards, 0), k * hand_size)
            seen_k = prefix[:, np.minimum(after, length)] - prefix[:, start][:, None] \
                + prefix[:, wrapped] - base[:, None]
            bottom_k = prefix[:, start][:, None] - prefix[:, wrapped]
            if k == 0:
                seen, bottom = seen_k, bottom_k
            else:
                seen = seen + chosen[k] * (seen_k - seen)
                bottom = bottom + chosen[k] * (bottom_k - bottom)
        dealt["seen"], dealt["bottom"] = seen, bottom
    return dealt


def _deal_reshuffle(cell_counts, table, n_trials, hand_size, set_aside, max_draws, rng, rule, limit, keep,
                    needs: _Needs, zones):
    n_cards = int(cell_counts.sum())
    n_groups = table.shape[1]
    table16 = np.asarray(table, dtype=np.int16).reshape(len(table), -1)
    # The first round writes every trial's zones (see _deal_round): no need to clear them first.
    seen = np.empty((n_groups, max_draws + 1, n_trials), dtype=np.int16)
    bottom = np.empty((n_groups, max_draws + 1, n_trials) if "bottom" in zones else (0, 0, 0), dtype=np.int16)
    hand_out = np.empty((n_groups, n_trials), dtype=np.int16)
    aside_out = np.empty((n_groups, n_trials), dtype=np.int16)
    mulligans = np.empty(n_trials, dtype=np.int16)
    first_hand = np.empty((n_groups, n_trials), dtype=np.int16)
    cell_counts = np.ascontiguousarray(cell_counts, dtype=np.int64)
    pending = None  # the first round: every trial, in order (no array of them to write and read)
    # Small deals in numpy until the compiled loops pay (see loops): rounds after the first deal fewer trials, and
    # the needs policy walks each hand once per need.
    vectorised = loops(n_trials * 3 // 2, set_aside + hand_size + max_draws, len(cell_counts),
                       n_groups + 2 * needs.size) is _vectorised_module()
    for k in range(limit + 1):
        n_pending = n_trials if pending is None else pending.size
        if n_pending == 0:
            break
        # Vancouver draws one card fewer per mulligan; the other rules draw a full hand.
        drawn_size = hand_size - k if rule == "vancouver" else hand_size
        n_bottom = {"london": k, "free": max(k - 1, 0)}.get(rule, 0)
        scry = rule == "vancouver" and k > 0
        length = min(n_cards, set_aside + drawn_size + max_draws + scry)
        start = set_aside
        if not scry:
            # One compiled pass draws the round (its random words generated where they are used) and writes every
            # pending trial's zones as if it kept; the keep rule then reads the round's hands at once, and the
            # trials it sends back have their zones written again by a later round.
            drawn = np.empty((n_groups, n_pending), dtype=np.int16)
            deal_round = _deal_round_vectorised if vectorised and length == start + drawn_size + max_draws \
                else _deal_round
            deal_round(cell_counts, table16, rng, length, _EVERY_ROW if pending is None else pending, n_pending,
                       start, drawn_size, n_bottom, needs.policy(drawn_size, n_bottom), k, drawn, seen, bottom,
                       hand_out, aside_out, mulligans)
            if k == 0:
                first_hand = drawn
            keeps = keep(drawn) if k < limit else np.ones(n_pending, dtype=bool)
            pending = np.flatnonzero(~keeps) if pending is None else pending[~keeps]
            continue
        # Vancouver after a mulligan: a smaller hand, then the scry of the top card.
        bits = scaled = None
        if length and len(cell_counts) > 1:
            bits, scaled = _random_bits(rng, n_cards, length, pending.size)
        left = []
        for first in range(0, pending.size, ROUND_CHUNK):
            part = pending[first:first + ROUND_CHUNK]
            part_bits = None if bits is None else bits[:, first:first + ROUND_CHUNK]
            cells, prefix = _draw_from(part_bits, scaled, cell_counts, table16, part.size, length, cells=True,
                                       prefix=True)
            drawn = prefix[:, start + drawn_size] - prefix[:, start]
            keeps = keep(drawn) if k < limit else np.ones(part.size, dtype=bool)
            rows = part[keeps]
            if rows.size:
                prefix = prefix[:, :, keeps]
                kept = drawn[:, keeps]
                under = np.zeros((n_groups, max_draws + 1, rows.size), dtype=np.int16)
                library_start = start + drawn_size
                after = library_start + np.arange(max_draws + 1)
                library = prefix[:, after] - prefix[:, library_start][:, None]
                if length > library_start:
                    # The top card stays when the hand plus it would want it, else it goes under the deck.
                    ranks = needs.ranks(cells[start:library_start + 1, keeps], drawn_size)
                    away = ranks[-1] == needs.size
                    # Without it, draw d reaches one card further; it comes back only as the very last card.
                    top_counts = prefix[:, library_start + 1] - prefix[:, library_start]
                    beyond = after + 1 > length
                    shifted = prefix[:, np.minimum(after + 1, length)] - prefix[:, library_start + 1][:, None] \
                        + np.where(beyond[None, :, None], top_counts[:, None, :], 0)
                    library = np.where(away[None, None, :], shifted, library)
                    under += np.where(away[None, None, :] & ~beyond[None, :, None], top_counts[:, None, :],
                                      0).astype(np.int16)
                seen[:, :, rows] = kept[:, None, :] + library
                if bottom.size:
                    bottom[:, :, rows] = under
                hand_out[:, rows] = kept
                aside_out[:, rows] = prefix[:, start] - prefix[:, 0]
                mulligans[rows] = k
            left.append(part[~keeps])
        pending = np.concatenate(left)
    dealt = {"hand": hand_out, "first_hand": first_hand, "seen": seen, "mulligans": mulligans,
             "set_aside": aside_out}
    if "bottom" in zones:
        dealt["bottom"] = bottom
    return dealt


#: ``rows`` of a round of every trial, in order, and zones not written (see ``_compiled.deal_round``).
_EVERY_ROW = np.zeros(0, dtype=np.int64)
_NO_ZONE = np.zeros((0, 0, 0), dtype=np.int16)
_NO_MULLIGANS = np.zeros(0, dtype=np.int16)


def _deal_round(cell_counts, table, rng, length, rows, n_trials, start, drawn_size, n_bottom, policy, k, drawn, seen,
                bottom, hand_out, aside_out, mulligans) -> None:
    """One reshuffling round without scry for the trials ``rows``: their hands into ``drawn``, their zones written.

    See ``_compiled.deal_round``. The random words are generated inside the
    compiled loop when the generator allows it (:func:`_stream`), else drawn
    first; either way the numbers are those of :func:`draw_cells`.
    """
    stream = None
    if length and len(cell_counts) > 1:
        n_cards = int(cell_counts.sum())
        stream = _stream(rng, n_cards)
        bits, scaled = (_NO_BITS, True) if stream is not None else _random_bits(rng, n_cards, length, n_trials)
    else:  # one cell, or nothing drawn: every position holds cell 0, and no random number is spent
        bits, scaled = np.zeros((length, n_trials), dtype=np.uint32), True
    args = (bits, scaled, _NO_STREAM if stream is None else stream, length, cell_counts, table, rows, n_trials, start,
            drawn_size, n_bottom, *policy, k, drawn, seen, bottom, hand_out, aside_out, mulligans)
    compiled("deal_round", *args)(*args)
    if stream is not None:
        _set_stream(rng, stream)


def _vectorised_module():
    from deckstat.engines import _vectorised

    return _vectorised


def _deal_round_vectorised(cell_counts, table, rng, length, rows, n_trials, start, drawn_size, n_bottom, policy, k,
                           drawn, seen, bottom, hand_out, aside_out, mulligans) -> None:
    """:func:`_deal_round` in numpy, with the same numbers: the round's random words, then the needs policy's bottom.

    For draws that stay within the deck (``length`` reaches the last draw).
    """
    member, counts, surplus_resource = policy
    bits = scaled = None
    if length and len(cell_counts) > 1:
        bits, scaled = _random_bits(rng, int(cell_counts.sum()), length, n_trials)
    cells, prefix = _draw_from(bits, scaled, cell_counts, table, n_trials, length, cells=True, prefix=True,
                               module=_vectorised_module())
    library = start + drawn_size
    target = slice(None) if rows.shape[0] == 0 else rows
    drawn[:] = prefix[:, library] - prefix[:, start]
    kept = drawn.copy()
    if n_bottom:
        hand_cells = cells[start:library]
        ranks = need_ranks(hand_cells, member, counts)
        if surplus_resource:
            # An unwanted resource card is surplus: it goes under the deck before an unwanted card of another kind.
            last = member.shape[1] - 1
            ranks += (ranks == member.shape[1]) & member[:, last][hand_cells]
        chosen = bottom_choice(ranks, n_bottom)
        under = np.stack([(table[:, g][hand_cells] * chosen).sum(axis=0, dtype=np.int16)
                          for g in range(table.shape[1])])
        kept -= under
    hand_out[:, target] = kept
    aside_out[:, target] = prefix[:, start] - prefix[:, 0]
    for d in range(seen.shape[1]):
        seen[:, d, target] = kept + (prefix[:, library + d] - prefix[:, library])
    if bottom.shape[0]:
        bottom[:, :, target] = (under if n_bottom else np.zeros_like(kept))[:, None, :]
    if mulligans.shape[0]:
        mulligans[target] = k


def _deal_replace(cell_counts, table, n_trials, hand_size, set_aside, max_draws, rng, needs: _Needs):
    """Hearthstone: replace the unwanted cards of the hand, then shuffle them back into the library."""
    n_cards = int(cell_counts.sum())
    library_size = n_cards - set_aside - hand_size
    if library_size < hand_size:
        raise ValueError(f"replacing a whole {hand_size}-card hand needs {hand_size} cards in the library, "
                         f"{library_size} are left")
    table16 = np.asarray(table, dtype=np.int16).reshape(len(table), -1)
    n_groups = table16.shape[1]
    # The hand, as many replacements as it can need, and the draws after them.
    length = min(n_cards, set_aside + 2 * hand_size + max_draws)
    cells = draw_cells(cell_counts, n_trials, length, rng)
    prefix = prefix_counts(cells, table16)
    start = set_aside
    hand_cells = cells[start:start + hand_size]
    unwanted = needs.ranks(hand_cells, hand_size) == needs.size
    replaced = unwanted.sum(axis=0).astype(np.int64)
    members = table16[hand_cells]  # (hand positions, n_trials, n_groups)
    first_hand = prefix[:, start + hand_size] - prefix[:, start]
    library_start = start + hand_size

    def at(positions):
        """Prefix counts at a position that differs by trial: (n_groups, n_trials)."""
        return np.take_along_axis(prefix, positions[None, None, :], axis=1)[:, 0, :]

    rest_start = library_start + replaced
    kept = first_hand - (members * unwanted[:, :, None]).sum(axis=0).T.astype(np.int16) \
        + at(rest_start) - prefix[:, library_start]
    # The set-aside cards in a uniformly random order (their hand order depends on the policy's walk).
    keys = rng.random(unwanted.shape)
    keys[~unwanted] = 2.0
    order = np.argsort(keys, axis=0)
    ordered = np.take_along_axis(members, order[:, :, None], axis=0)
    set_back = np.zeros((hand_size + 1, n_trials, n_groups), dtype=np.int16)
    np.cumsum(ordered, axis=0, out=set_back[1:])
    # The library is the rest of the shuffle with the set-aside cards shuffled in: each next card is one
    # of them with probability (set-aside cards left) / (cards left).
    uniforms = rng.random((max_draws, n_trials))
    from_set_back = np.zeros(n_trials, dtype=np.int64)
    seen = np.empty((n_groups, max_draws + 1, n_trials), dtype=np.int16)
    for d in range(max_draws + 1):
        returned = np.take_along_axis(set_back, from_set_back[None, :, None], axis=0)[0].T
        seen[:, d] = kept + returned + at(rest_start + d - from_set_back) - at(rest_start)
        if d < max_draws:
            from_set_back += uniforms[d] * (library_size - d) < replaced - from_set_back
    return {"hand": kept, "first_hand": first_hand, "seen": seen, "mulligans": (replaced > 0).astype(np.int16),
            "set_aside": prefix[:, start] - prefix[:, 0], "bottom": np.zeros_like(seen)}
