"""Exit codes scripts can trust, limits refused up front, workers that end with their parent."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import deckstat
from deckstat.cli.options import EXIT_INTERNAL, usable_cores
from deckstat.cli.signals import EXIT_INTERRUPTED
from deckstat.engines import exact, runner
from deckstat.errors import DeckstatError
from tests.helpers import (
    ROOT,
    assert_no_crash,
    assert_user_error,
    group_members,
    ok,
    run,
    sample_deck,
    worker_processes,
)

WANKUL = sample_deck("wankul")
ODDS = ("odds", WANKUL, "--game", "wankul", "--event", "Terrain>=1", "--turns", "0-2")


def _boom(*args, **kwargs):
    raise RuntimeError("boom\nsecond line")


def _internal_line(result) -> str:
    assert_no_crash(result)
    assert result.exit_code == EXIT_INTERNAL, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_a_crash_in_validate_is_the_internal_error_code_not_a_broken_rule(monkeypatch):
    monkeypatch.setattr(deckstat, "validate", _boom)
    line = _internal_line(run("validate", WANKUL, "--game", "wankul"))
    assert line.startswith("internal error: RuntimeError: boom second line."), line
    assert "report" in line


def test_a_crash_is_said_in_french(monkeypatch):
    monkeypatch.setattr(deckstat, "validate", _boom)
    line = _internal_line(run("validate", WANKUL, "--game", "wankul", "--lang", "fr"))
    assert line.startswith("erreur interne\u00a0: RuntimeError\u00a0: boom"), line


def test_deckstat_debug_shows_the_traceback(monkeypatch):
    monkeypatch.setattr(deckstat, "odds", _boom)
    monkeypatch.setenv("DECKSTAT_DEBUG", "1")
    result = run(*ODDS)
    assert result.exit_code == EXIT_INTERNAL
    assert "Traceback" in result.stderr and result.stderr.strip().splitlines()[-1].startswith("internal error:")


def test_ctrl_c_inside_a_command_is_130_with_one_line(monkeypatch):
    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(deckstat, "odds", interrupt)
    result = run(*ODDS, "--lang", "fr")
    assert result.exit_code == EXIT_INTERRUPTED
    assert result.stderr.strip() == "interrompu"


def _class_built_under_ctrl_c() -> None:
    # What a Ctrl-C does while a library's module creates its classes: Python 3.11 wraps it in a RuntimeError.
    class Interrupted:
        def __set_name__(self, owner, name):
            raise KeyboardInterrupt

    type("Loading", (), {"attribute": Interrupted()})


def test_a_ctrl_c_that_python_wrapped_while_a_library_loaded_is_130_with_one_line(monkeypatch):
    monkeypatch.setattr(deckstat, "odds", lambda *args, **kwargs: _class_built_under_ctrl_c())
    result = run(*ODDS)
    assert result.exit_code == EXIT_INTERRUPTED
    assert result.stderr.strip() == "interrupted"


def _driver(patch: str, *args: object) -> list[str]:
    code = ("import sys, deckstat\n" + patch + "\nfrom deckstat.cli.commands import main\n"
            f"sys.argv = ['deckstat', *{[str(a) for a in args]!r}]\nmain()\n")
    return [sys.executable, "-c", code]


def test_the_installed_entry_point_exits_70_on_a_crash_in_a_subprocess():
    patch = "def boom(*a, **k):\n    raise ZeroDivisionError('division by zero')\ndeckstat.validate = boom"
    done = subprocess.run(_driver(patch, "validate", WANKUL, "--game", "wankul"), capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env={**os.environ, "DECKSTAT_LANG": "en"})
    assert done.returncode == EXIT_INTERNAL, done.stderr
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith("internal error: ZeroDivisionError: division by zero.")
    assert "Traceback" not in done.stderr


def test_a_crash_outside_the_commands_handling_is_70_too():
    # An option's parser runs before the command's own handling: main() still gives one line and 70.
    patch = "import deckstat._validate as v\ndef boom(*a, **k):\n    raise OSError('no')\nv.parse_count = boom"
    done = subprocess.run(_driver(patch, *ODDS, "--trials", "1000"), capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={**os.environ, "DECKSTAT_LANG": "en"})
    assert done.returncode == EXIT_INTERNAL, done.stderr
    assert done.stderr.strip() == "internal error: OSError: no. This is a bug in deckstat: please report it with " \
        "the command that caused it (DECKSTAT_DEBUG=1 shows the traceback)"


_SWALLOWING = """
import os, signal, weakref
import deckstat.questions.odds as question
signal.signal(signal.SIGINT, signal.default_int_handler)  # as a terminal's foreground job has it
plain = question.answer_odds
def signalled():
    os.kill(os.getpid(), signal.{name})
    for _ in range(10**6):
        pass
def caught(*args, **kwargs):
    try:  # the signal's interrupt caught on its way out, as it once was inside a library's import
        signalled()
    except KeyboardInterrupt:
        pass
    return plain(*args, **kwargs)
class Thing:
    pass
def in_a_callback(*args, **kwargs):
    # Raised in a weakref callback (as in the import system's module locks): Python prints "Exception ignored"
    # and goes on.
    thing = Thing()
    ref = weakref.ref(thing, lambda gone: signalled())
    del thing
    return plain(*args, **kwargs)
question.answer_odds = {way}
"""


@pytest.mark.parametrize("way", ["caught", "in_a_callback"])
@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupt_python_lost_still_stops_the_simulation_in_one_line(how, way):
    # The command stops at its first block all the same (without the stop request it ran its 2 million trials
    # and ended with 0), with the signal's code and no "Exception ignored" traceback.
    patch = _SWALLOWING.format(name=how.name, way=way)
    done = subprocess.run(_driver(patch, *ODDS, "--simulate", "--trials", "2e6", "--workers", "1"),
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, "DECKSTAT_LANG": "en"})
    assert (done.returncode, done.stderr.strip()) == (128 + how, "interrupted"), done.stderr


def test_a_stop_asked_for_ends_a_simulation_at_its_next_block(monkeypatch):
    from deckstat.engines import progress

    monkeypatch.setattr(progress, "_stop_signals", [])
    blocks = []

    def counted(rng, size):
        blocks.append(size)
        if len(blocks) == 2:
            progress.request_stop(signal.SIGTERM)
        return np.zeros(1)

    with pytest.raises(KeyboardInterrupt):
        runner.BlockRunner(counted, runner.make_streams(1)).run(10 * runner.BLOCK_TRIALS)
    assert len(blocks) == 2


def test_a_batch_waiting_for_its_tasks_sees_a_stop_asked_for(monkeypatch):
    # Python drops an interrupt raised in a destructor or a weakref callback: the stop request remains, and a
    # run waiting for a task that has minutes to go must end at once, not when the task does.
    from concurrent.futures import ThreadPoolExecutor

    from deckstat.batching import run as batch_run
    from deckstat.engines import progress

    # The request goes to this test's own list: a timer late after a failure cannot stop the tests after it.
    stops: list[int] = []
    monkeypatch.setattr(progress, "_stop_signals", stops)
    never = threading.Event()
    with ThreadPoolExecutor(2) as pool:
        futures = [pool.submit(int, "1"), pool.submit(never.wait, 60)]
        waits = iter(batch_run._completed(futures))
        assert next(waits) is futures[0]
        threading.Timer(0.3, stops.append, (signal.SIGTERM,)).start()  # what request_stop does
        start = time.monotonic()
        try:
            with pytest.raises(KeyboardInterrupt):
                next(waits)
        finally:
            never.set()
    assert time.monotonic() - start < 0.3 + 20 * progress.STOP_LOOK_SECONDS


def test_a_pool_interrupted_as_its_copies_start_is_shut_down_before_the_interrupt_goes_on(monkeypatch):
    from concurrent.futures import process as futures_process
    from contextlib import contextmanager

    @contextmanager
    def interrupted_at_the_end():  # as ctrl_c_held raises a Ctrl-C that came inside its block
        yield
        raise KeyboardInterrupt

    pools = []

    class Recorded(runner.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            pools.append(self)

    monkeypatch.setattr(runner, "forkable", lambda: True)
    monkeypatch.setattr(runner, "ctrl_c_held", interrupted_at_the_end)
    monkeypatch.setattr(runner, "ProcessPoolExecutor", Recorded)
    before = set(futures_process._threads_wakeups)
    with pytest.raises(KeyboardInterrupt):
        runner.process_pool(2)
    assert len(pools) == 1
    with pytest.raises(RuntimeError, match="after shutdown"):
        pools[0].submit(int)
    assert not [thread for thread in futures_process._threads_wakeups if thread not in before and thread.is_alive()]


def test_a_compile_waited_for_sees_a_stop_asked_for(monkeypatch):
    from deckstat.engines import kernel, progress

    stops: list[int] = []  # this test's own (see the batch's test above)
    monkeypatch.setattr(progress, "_stop_signals", stops)
    never = threading.Event()
    threading.Timer(0.3, stops.append, (signal.SIGINT,)).start()
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            kernel._interruptible(never.wait, 60)
    finally:
        never.set()
    assert time.monotonic() - start < 5


def test_a_batch_waiting_on_dask_sees_a_stop_asked_for(monkeypatch):
    from deckstat.batching import run as batch_run
    from deckstat.engines import progress

    class NeverReady:  # Dask's as_completed over a task that has minutes to go
        def is_empty(self):
            return False

        def next_batch(self, block=True):
            assert not block
            return []

    stops: list[int] = []  # this test's own (see the test above)
    monkeypatch.setattr(progress, "_stop_signals", stops)
    dask = type("distributed", (), {"as_completed": staticmethod(lambda futures: NeverReady())})
    threading.Timer(0.3, stops.append, (signal.SIGTERM,)).start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        list(batch_run._completed_on_dask(dask, ["a task"]))
    assert time.monotonic() - start < 0.3 + 20 * progress.STOP_LOOK_SECONDS


def test_a_batch_with_nothing_asked_yields_every_task_once():
    from concurrent.futures import ThreadPoolExecutor

    from deckstat.batching import run as batch_run

    with ThreadPoolExecutor(3) as pool:
        futures = [pool.submit(time.sleep, delay) for delay in (0.4, 0.0, 0.2, 0.0)]
        assert sorted(map(id, batch_run._completed(futures))) == sorted(map(id, futures))


def test_an_exception_in_a_worker_arrives_as_itself():
    # The pool pickles the worker's exception back: the parent raises the same type (here math.log(rng, size)
    # fails in the worker), which the command line reports as an internal error, not as a broken pool.
    simulation = runner.BlockRunner(math.log, runner.make_streams(1), n_workers=2)
    with pytest.raises(TypeError):
        simulation.run(3 * runner.BLOCK_TRIALS)


def _start_long_simulation(*extra: str) -> subprocess.Popen:
    args = (*ODDS, "--simulate", "--trials", "1e10", "--seed", "1", "--quiet", *extra)
    return subprocess.Popen(_driver("", *args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            env={**os.environ, "DECKSTAT_LANG": "en"}, start_new_session=True)


def _wait_for_workers(process: subprocess.Popen, count: int) -> None:
    deadline = time.monotonic() + 120
    while len(worker_processes(process.pid)) < count and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1)  # the workers have started and run blocks
    if len(worker_processes(process.pid)) < count:
        os.killpg(process.pid, signal.SIGKILL)
        pytest.fail(f"the simulation did not start its workers: {process.communicate()[1]!r}")


needs_linux_and_two_cores = pytest.mark.skipif(not Path("/proc/self/stat").exists() or usable_cores() < 2,
                                               reason="needs /proc and two usable cores")


@needs_linux_and_two_cores
def test_sigint_stops_a_simulation_with_130_and_one_line():
    process = _start_long_simulation("--workers", "2")
    _wait_for_workers(process, 1)  # one worker process: the parent is the second worker
    process.send_signal(signal.SIGINT)
    try:
        _, stderr = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        pytest.fail("SIGINT did not stop the simulation")
    assert process.returncode == EXIT_INTERRUPTED, stderr
    assert stderr.decode().strip() == "interrupted"


@needs_linux_and_two_cores
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_workers_end_with_their_parent(how):
    process = _start_long_simulation("--workers", "2")
    _wait_for_workers(process, 1)
    os.kill(process.pid, how)  # the parent alone, with no chance to shut its pool down when it is SIGKILL
    try:  # the output pipes close when the last process holding them has ended
        process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail("worker processes outlived their parent")
    deadline = time.monotonic() + 15
    while group_members(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = group_members(process.pid)
    if left:
        os.killpg(process.pid, signal.SIGKILL)
    assert not left, "worker processes outlived their parent"


# --- limits up front -------------------------------------------------------------------------------------------

def test_absurd_trial_counts_are_refused_with_the_time_they_would_take():
    line = assert_user_error(run(*ODDS, "--trials", "1e15"), "--trials 1e15", "days on one core", "at most 1e12",
                             "--precision")
    assert "10,522 days" in line  # 10^15 / 1.1e6 trials a second / 86,400 s a day
    assert_user_error(run(*ODDS, "--precision", "0.01", "--max-trials", "2e12"), "--max-trials 2e12")
    with pytest.raises(DeckstatError, match="n_trials"):
        deckstat.odds(deckstat.load_deck(WANKUL), deckstat.get_profile("wankul"), "Terrain>=1", turns=[0],
                      n_trials=10**12 + 1)
    assert runner.check_trials(10**12) == 10**12


def test_blocks_are_listed_lazily():
    sizes = runner._block_sizes(10**15)
    assert next(sizes) == runner.BLOCK_TRIALS  # a list of 7.6e9 blocks would not fit in memory
    assert list(runner._block_sizes(300_000)) == [131_072, 131_072, 37_856]
    assert runner._n_blocks(300_000) == 3 and runner._n_blocks(262_144) == 2


def test_a_precision_that_needs_too_many_trials_is_refused_after_the_first_block():
    # P(Terrain in the first hand) is far from 0 and 1, so ±0.00001 needs about (1.96/0.00001)^2 p(1-p) trials,
    # billions, beyond the default --max-trials 1e8.
    line = assert_user_error(run(*ODDS, "--precision", "0.00001", "--seed", "1"), "--precision 1e-05",
                             "--max-trials 1e8")
    needed = float(line.split("needs about ")[1].split(" trials")[0])
    assert 1e9 < needed <= (1.96 / 0.00001) ** 2 / 4 * 1.01


def test_an_exact_question_without_the_memory_is_refused_with_its_cost(monkeypatch):
    real = exact.zone_odds

    def short_of_memory(*args, weigh=None, **kwargs):
        if weigh is None:  # the real run, not the cost estimate's dry run
            raise MemoryError
        return real(*args, weigh=weigh, **kwargs)

    monkeypatch.setattr(exact, "zone_odds", short_of_memory)
    assert_user_error(run(*ODDS, "--exact"), "not enough memory for the exact engine", "--simulate", "~")


# --- numbers range-checked at the boundary --------------------------------------------------------------------

@pytest.mark.parametrize(("flag", "value"), [("--seed", "-1"), ("--seed", "abc"), ("--trials", "0"),
                                             ("--max-trials", "0"), ("--chunk-size", "0"), ("--chunk-size", "1e10"),
                                             ("--workers", "0"), ("--workers", "2.5"), ("--mulligan-limit", "0")])
def test_numbers_out_of_range_are_one_line(flag, value):
    extra = ("--precision", "0.01") if flag == "--max-trials" else ("--simulate",)
    assert_user_error(run(*ODDS, *extra, flag, value), flag)


def test_a_negative_seed_is_refused_even_where_no_simulation_runs():
    assert_user_error(run(*ODDS, "--exact", "--seed", "-1"), "--seed", "at least 0")


def test_more_workers_than_cores_are_capped_with_a_note():
    result = run(*ODDS, "--simulate", "--trials", "1000", "--seed", "3", "--workers", str(10_000))
    ok(result)
    assert f"note: --workers 10000 is more than the {usable_cores()} cores" in result.stderr
    alone = ok(run(*ODDS, "--simulate", "--trials", "1000", "--seed", "3"))
    assert result.stdout == alone  # the numbers do not depend on the workers


def test_the_usable_cores_follow_the_affinity():
    expected = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert usable_cores() == expected
    assert np.issubdtype(type(usable_cores()), np.integer)


def test_a_mulligan_limit_beyond_what_any_deck_needs_is_refused():
    # A limit of 10^8 used to fill gigabytes a block (the hands are tallied by mulligans taken).
    assert_user_error(run("mulligan", WANKUL, "--game", "wankul", "--mulligan-rule", "london", "--mulligan-limit",
                          "100000000"), "--mulligan-limit can be at most 100 with the london mulligan")
