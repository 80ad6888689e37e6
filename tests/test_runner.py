"""The block runner's workers and its bounded precision runs: one pool per run, the same numbers, fast refusals."""

from __future__ import annotations

import functools
import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from coin import coin_task, compiling_task, where_task
from helpers import sample_deck
from scipy.stats import binomtest, norm

import deckstat
from deckstat.cli.options import FLAGS
from deckstat.engines import progress, runner
from deckstat.errors import DeckstatError

BLOCK = runner.BLOCK_TRIALS


def block_sums(p, streams, sizes):
    """What the runner must return: block i drawn from the i-th child of the root seed, summed."""
    children = streams.root().spawn(len(sizes))
    return sum(coin_task(p, np.random.default_rng(child), size) for child, size in zip(children, sizes))


class Recorder(progress.Progress):
    """A listener's bar that remembers what it was told."""

    def __init__(self, log, description, total, unit):
        self.log = log
        log.append(("start", description, total, unit))

    def advance(self, amount=1):
        self.log.append(("advance", amount))

    def update(self, *, total=None, description=None):
        self.log.append(("update", total))

    def close(self):
        self.log.append(("close",))


def recording(log):
    return functools.partial(Recorder, log)


def advanced(log):
    return sum(entry[1] for entry in log if entry[0] == "advance")


def test_several_workers_give_the_numbers_of_one_for_fixed_runs_and_precision_runs():
    streams = runner.make_streams(23)
    task = functools.partial(coin_task, 0.3)
    n = 5 * BLOCK + 11
    expected = block_sums(0.3, streams, [BLOCK] * 5 + [11])
    precise = runner.simulate(task, streams, precision=0.0015)
    assert precise[1] % BLOCK == 0 and precise[1] > BLOCK
    np.testing.assert_array_equal(precise[0], block_sums(0.3, streams, [BLOCK] * (precise[1] // BLOCK)))
    with runner.worker_pool(3):
        for chunk in (1, 7 * BLOCK):
            tallies, n_done = runner.simulate(task, streams, n_trials=n, chunk_size=chunk, n_workers=3)
            assert n_done == n
            np.testing.assert_array_equal(tallies, expected)
            tallies, n_done = runner.simulate(task, streams, precision=0.0015, chunk_size=chunk, n_workers=3)
            assert n_done == precise[1]
            np.testing.assert_array_equal(tallies, precise[0])
    # Without a shared pool, each run makes and closes its own.
    tallies, n_done = runner.simulate(task, streams, precision=0.0015, n_workers=2)
    np.testing.assert_array_equal(tallies, precise[0])


def test_this_process_runs_blocks_beside_its_workers_with_the_same_numbers():
    streams = runner.make_streams(5)
    n_blocks = 40
    task = functools.partial(where_task, os.getpid())
    alone, _ = runner.simulate(task, streams, n_trials=n_blocks * BLOCK)
    assert alone[1:].tolist() == [n_blocks, 0]
    shared, _ = runner.simulate(task, streams, n_trials=n_blocks * BLOCK, n_workers=2, chunk_size=BLOCK)
    assert shared[0] == alone[0]
    # Both ran blocks: this process while its worker started (a second or so), and the worker after.
    assert shared[1] > 0 and shared[2] > 0 and shared[1] + shared[2] == n_blocks


#: In a fresh process: 20 blocks alone, on two workers, and on two workers while another thread runs.
_FORKING = """
import functools, json, os, sys, threading
sys.path.insert(0, {tests!r})
from coin import copy_task
from deckstat.engines import runner
runner._pool_start_seconds = lambda: 0.0  # the processes start however short the run
task = functools.partial(copy_task, os.getpid())
runs = [runner.simulate(task, runner.make_streams(8), n_trials=20 * runner.BLOCK_TRIALS, n_workers=n)[0].tolist()
        for n in (1, 2)]
release = threading.Event()
threading.Thread(target=release.wait).start()
runs.append(runner.simulate(task, runner.make_streams(8), n_trials=20 * runner.BLOCK_TRIALS, n_workers=2)[0].tolist())
release.set()
print(json.dumps(runs))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="copies are made on Linux alone")
def test_workers_are_copies_of_a_process_with_one_thread_else_come_from_the_forkserver():
    # A copy (fork) has this process's modules and loaded loops and starts at once; with another thread running
    # (Jupyter's, a Dask client's), a copy could inherit a lock that thread holds, so the forkserver makes them.
    found = subprocess.run([sys.executable, "-c", _FORKING.format(tests=str(Path(__file__).parent))],
                           capture_output=True, text=True, timeout=300)
    assert found.returncode == 0, found.stderr
    alone, copies, served = json.loads(found.stdout)
    assert alone[1:] == [0, 0]
    assert copies[0] == served[0] == alone[0]
    assert copies[1] > 0 and copies[2] == 0
    assert served[1] == 0 and served[2] > 0


def test_worker_processes_leave_compiling_to_this_one():
    task = functools.partial(compiling_task, os.getpid())
    tallies, _ = runner.simulate(task, runner.make_streams(6), n_trials=30 * BLOCK, n_workers=2, chunk_size=BLOCK)
    # Every block run here may compile; none run by a worker may.
    assert tallies[0] == 30 and tallies[1] < 30 and tallies[2] == tallies[1]


def test_one_pool_serves_every_run_inside_it_and_its_processes_end_with_it():
    task = functools.partial(coin_task, 0.5)
    with runner.worker_pool(2) as pool:
        assert multiprocessing.active_children() == []  # nothing starts before a block needs it
        runner.simulate(task, runner.make_streams(1), n_trials=4 * BLOCK, n_workers=2)
        executor = pool.executor()
        workers = multiprocessing.active_children()
        assert 1 <= len(workers) <= 2
        runner.simulate(task, runner.make_streams(2), n_trials=4 * BLOCK, n_workers=2)
        assert pool.executor() is executor
        with runner.worker_pool(4) as inner:  # a question inside another keeps the outer pool
            assert inner is pool
        assert {w.pid for w in multiprocessing.active_children()} <= {w.pid for w in workers}
    assert multiprocessing.active_children() == []
    assert not any(w.is_alive() for w in workers)


def test_a_run_without_a_pool_starts_no_more_processes_than_blocks(monkeypatch):
    sizes = []

    class Counted(runner.WorkerPool):
        def __init__(self, n_workers):
            sizes.append(n_workers)
            super().__init__(n_workers)

    monkeypatch.setattr(runner, "WorkerPool", Counted)
    streams = runner.make_streams(4)
    # The first two blocks run here (the second is timed), two are left: a pool of this process and one other.
    tallies, _ = runner.simulate(functools.partial(coin_task, 0.5), streams, n_trials=4 * BLOCK, n_workers=16)
    assert sizes == [2]
    np.testing.assert_array_equal(tallies, block_sums(0.5, streams, [BLOCK] * 4))
    # Two blocks run in this process before any pool is weighed: no pool at all.
    runner.simulate(functools.partial(coin_task, 0.5), streams, n_trials=2 * BLOCK, n_workers=16)
    assert sizes == [2]
    assert multiprocessing.active_children() == []


def slow_task(seconds: float, rng: np.random.Generator, n_trials: int) -> np.ndarray:
    """A block that takes ``seconds``: 1 and the pid of the process that ran it."""
    time.sleep(seconds)
    return np.array([1, os.getpid()])


@pytest.mark.parametrize("seconds, n_blocks, pays", [(0.001, 40, False), (0.05, 40, True), (0.05, 12, False)])
def test_processes_start_only_when_the_run_left_would_end_sooner_with_them(monkeypatch, seconds, n_blocks, pays):
    # Timed from its second block: 38 blocks of 1 ms left end in 38 ms alone; of 50 ms, in 1.9 s alone against
    # 0.5 s + 0.95 s with one more process; 10 of 50 ms, in 0.5 s alone against 0.75 s.
    monkeypatch.setattr(runner, "_pool_start_seconds", lambda: 0.5)
    assert runner._pool_pays((n_blocks - 2) * seconds, 1, 0.5) is pays
    calls = []

    class Counted(runner.WorkerPool):
        def executor(self):
            calls.append(self.n_workers)
            return super().executor()

    monkeypatch.setattr(runner, "WorkerPool", Counted)
    task = functools.partial(slow_task, seconds)
    tallies, _ = runner.simulate(task, runner.make_streams(3), n_trials=n_blocks * BLOCK, n_workers=2)
    assert tallies[0] == n_blocks
    assert bool(calls) is pays


def test_progress_is_told_the_total_and_every_block():
    log = []
    with progress.listening(recording(log)):
        runner.simulate(functools.partial(coin_task, 0.5), runner.make_streams(5), n_trials=2 * BLOCK + 100,
                        n_workers=2, description="coins")
    assert log[0] == ("start", "coins", 2 * BLOCK + 100, "trials")
    assert [e for e in log if e[0] == "advance"] == [("advance", BLOCK), ("advance", BLOCK), ("advance", 100)]
    assert log[-1] == ("close",)


def test_a_precision_no_run_can_reach_is_refused_before_any_block():
    log = []
    with progress.listening(recording(log)), pytest.raises(DeckstatError) as caught:
        # Even proportions of 0 need z^2 / (2 h) - z^2 = 1.9e9 trials for h = 1e-9.
        runner.simulate(functools.partial(coin_task, 0.5), runner.make_streams(6), precision=1e-9)
    assert caught.value.render(FLAGS) == ("--precision 1e-09 needs at least 1.9e9 trials, more than --max-trials "
                                          "1e8: ask a coarser --precision or raise --max-trials")
    assert advanced(log) == 0


def test_a_precision_the_observed_proportions_cannot_reach_is_refused_after_one_block():
    log = []
    with progress.listening(recording(log)), pytest.raises(DeckstatError) as caught:
        # A fair coin: z^2 p (1 - p) / h^2 = 3.8415 * 0.25 / 1e-10 = 9.6e9 trials.
        runner.simulate(functools.partial(coin_task, 0.5), runner.make_streams(7), precision=1e-5, n_workers=2)
    assert caught.value.render(FLAGS) == ("--precision 1e-05 needs about 9.6e9 trials, more than --max-trials "
                                          "1e8: ask a coarser --precision or raise --max-trials")
    assert advanced(log) == BLOCK
    # The total the bar started with was the worst case (p = 1/2) within max_trials.
    assert log[0][2] == runner.DEFAULT_MAX_TRIALS
    assert multiprocessing.active_children() == []


def test_the_estimate_is_that_of_the_normal_approximation_for_the_observed_proportion():
    # After one block of a 0.2-coin, the Wilson estimate is within 1% of the normal one: n = z^2 p (1 - p) / h^2.
    tallies = np.array([int(0.2 * BLOCK), BLOCK // 6])
    estimate = runner.estimate_trials(tallies, BLOCK, 0.002, runner.widest_half_width, limit=10**9)
    p = tallies[0] / BLOCK
    assert estimate == pytest.approx(norm.ppf(0.975) ** 2 * p * (1 - p) / 0.002**2, rel=0.01)


def test_a_run_that_reaches_max_trials_stops_with_a_message(monkeypatch):
    # An estimate that proves optimistic: the run goes on to max_trials and stops there.
    monkeypatch.setattr(runner, "estimate_trials", lambda *args, **kwargs: 2 * BLOCK)
    log = []
    with progress.listening(recording(log)), pytest.raises(DeckstatError) as caught:
        runner.simulate(functools.partial(coin_task, 0.5), runner.make_streams(8), precision=0.001,
                        max_trials=3 * BLOCK)
    message = caught.value.render(FLAGS)
    assert message.startswith("--precision 0.001 not reached within --max-trials 393,216 trials")
    assert message.endswith("ask a coarser --precision or raise --max-trials")
    assert advanced(log) == 3 * BLOCK


def test_precision_runs_record_the_estimate_and_the_stopping_rule():
    deck = deckstat.load_deck(sample_deck("wankul"))
    result = deckstat.odds(deck, "wankul", "Terrain>=2", turns=[0], seat="first", method="simulate",
                           precision=0.004, rng=9)
    provenance = result.provenance
    n_done = int(result.table["n_trials"].iloc[0])
    assert provenance["max_trials"] == runner.DEFAULT_MAX_TRIALS
    # Even p = 1/2 needs only z^2 / (4 h^2) = 3.8415 / (4 * 0.004^2) = 60,025 trials: one block is enough.
    assert provenance["estimated_trials"] == n_done == BLOCK
    assert "at most ±0.004" in provenance["stopping_rule"]
    with pytest.raises(DeckstatError, match="needs about"):
        deckstat.when(deck, "wankul", "Terrain>=2", max_turn=3, method="simulate", precision=0.0005,
                      max_trials=10**6, rng=9)


def test_max_trials_must_be_a_whole_number():
    deck = deckstat.load_deck(sample_deck("wankul"))
    with pytest.raises(DeckstatError) as caught:
        deckstat.odds(deck, "wankul", "Terrain>=2", precision=0.01, max_trials=0)
    assert caught.value.render(FLAGS) == "--max-trials must be a whole number of at least 1, got 0"


@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_wilson_interval_is_scipys(confidence):
    rng = np.random.default_rng(8)
    n_trials = np.concatenate([[1, 2, 7, 10, 200_000], rng.integers(1, 10**9, 200)])
    for n in n_trials:
        for hits in {0, 1, int(n) // 2, int(rng.integers(0, n + 1)), int(n) - 1, int(n)}:
            ci = binomtest(hits, int(n)).proportion_ci(confidence_level=confidence, method="wilson")
            low, high = runner.wilson_interval(hits, int(n), confidence)
            assert low == pytest.approx(max(0.0, ci.low), abs=1e-12)
            assert high == pytest.approx(min(1.0, ci.high), abs=1e-12)
    # 0 of 10 by hand: the lower bound is 0 and the upper one z^2 / (n + z^2) with z = 1.959964 (95%).
    assert runner.wilson_interval(0, 10) == (0.0, pytest.approx(1.959964**2 / (10 + 1.959964**2), abs=1e-6))
