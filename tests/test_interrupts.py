"""Ctrl-C and SIGTERM at any moment of a parallel run: one line, the documented exit code, no process left.

A terminal sends Ctrl-C to the whole process group: the parent, multiprocessing's forkserver and resource
tracker, and the workers. The delays are drawn from a seeded generator, so a failure names the moment again.
"""

from __future__ import annotations

import compileall
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import DATA, group_members, worker_processes

import deckstat
from deckstat.cli.options import usable_cores

WANKUL = DATA / "wankul" / "sample_deck.csv"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists() or usable_cores() < 2 or os.name != "posix",
                                reason="needs POSIX process groups, /proc and two usable cores")


#: Starts deckstat as a terminal's foreground job does, with Ctrl-C at its default action, even where the suite
#: itself runs with it ignored (a shell's background job, some CI runners): an ignored signal stays ignored through
#: exec, and deckstat rightly leaves it so. It runs below the suite's priority: its workers simulate at full speed
#: until the signal comes, and would otherwise take the cores of the tests running beside this one while it waits.
_AS_A_TERMINAL_DOES = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.nice(10); "
                       "os.execv(sys.executable, [sys.executable, '-m', 'deckstat', *sys.argv[1:]])")


@pytest.fixture(scope="module", autouse=True)
def _compiled() -> None:
    """Byte-compile the package before the first signal, as an installed package ships it.

    A fresh checkout's first command compiles every module it imports, on a loaded machine for a large part of a
    second: a signal then reaches CPython's own start-up (the import of ``deckstat/__init__.py``), before any
    code of deckstat can answer it, and the test would measure the checkout rather than the command.
    """
    compileall.compile_dir(str(Path(deckstat.__file__).parent), quiet=1)


#: The same start as :data:`_AS_A_TERMINAL_DOES`, importing the package alone (see :func:`startup`).
_STARTING = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.nice(10); "
             "os.execv(sys.executable, [sys.executable, '-c', 'import deckstat'])")


@pytest.fixture(scope="module")
def startup(_compiled) -> float:
    """Seconds CPython takes here to start and import the package, as the runs below start (the longest of three).

    A signal in that time reaches CPython's own start-up (runpy loading ``deckstat/__main__``), before any code of
    deckstat runs: the runs' signals come after it, so that a loaded machine does not move them into it.
    """
    times = []
    for _ in range(3):
        begun = time.monotonic()
        subprocess.run([sys.executable, "-I", "-S", "-c", _STARTING], check=True, capture_output=True)
        times.append(time.monotonic() - begun)
    return max(times)


def _deckstat(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-I", "-S", "-c", _AS_A_TERMINAL_DOES, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "DECKSTAT_LANG": "en", **(env or {})},
                            start_new_session=True)


def _end(process: subprocess.Popen, timeout: float = 60) -> str:
    """The process's stderr once it has ended, and no process of its group left after a few seconds."""
    try:
        _, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail("the signal did not end deckstat")
    deadline = time.monotonic() + 10  # a worker watching for its parent's end looks twice a second
    while group_members(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = group_members(process.pid)
    if left:
        os.killpg(process.pid, signal.SIGKILL)
    assert not left, f"processes outlived deckstat: {left}"
    return stderr.decode()


def _signalled(delays: list[float], start, send) -> list[tuple[float, subprocess.Popen]]:
    """Start one run per delay, all at once, and ``send`` each its signal that long after its own start.

    The runs are independent processes: started together, the test waits for the longest delay, not their sum.
    """
    runs = []
    for delay in delays:
        runs.append((delay, start(), time.monotonic()))
    for delay, process, started in sorted(runs, key=lambda run: run[2] + run[0]):
        time.sleep(max(0.0, started + delay - time.monotonic()))
        send(process)
    return [(delay, process) for delay, process, _ in runs]


def _simulation(env: dict[str, str] | None = None) -> subprocess.Popen:
    return _deckstat("odds", str(WANKUL), "--game", "wankul", "-e", "Terrain>=1", "--simulate", "--trials", "1e9",
                     "--workers", "2", "-q", env=env)


@pytest.mark.parametrize("seed", [1, 2])
def test_ctrl_c_at_any_moment_of_a_parallel_simulation_ends_with_one_line(seed, startup):
    # From the imports through the workers' start to the run itself; 10^9 trials never end first.
    delays = random.Random(seed)
    runs = _signalled([delays.uniform(max(0.05, startup), 3.0) for _ in range(3)], _simulation,
                      lambda process: os.killpg(process.pid, signal.SIGINT))
    # Every run ended (and its pipes read) before any is judged: a failure leaves no process or pipe behind.
    ended = [(delay, process, _end(process)) for delay, process in runs]
    for delay, process, stderr in ended:
        assert (process.returncode, stderr.strip()) == (130, "interrupted"), f"after {delay:.2f} s:\n{stderr}"


def _spec(folder: Path, trials: str, precision: str = "") -> Path:
    spec = folder / "spec.toml"
    spec.write_text(f"""name = "stop"
seed = 1
{trials}
[decks.w]
path = "{WANKUL.as_posix()}"
game = "wankul"
[[questions]]
question = "odds"
decks = ["w"]
event = ["Terrain>=1"]
turns = "0-2"
method = "simulate"
[questions.sweep]
seat = ["first", "second"]
{precision}
""", encoding="utf-8")
    return spec


def _wait_for_workers(process: subprocess.Popen, count: int) -> None:
    deadline = time.monotonic() + 60
    while len(worker_processes(process.pid)) < count and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)


@pytest.mark.parametrize(("how", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stopped_batch_keeps_its_journal_and_says_so_in_one_line(tmp_path, how, code):
    process = _deckstat("batch", str(_spec(tmp_path, "trials = 1_000_000_000")), "--out", str(tmp_path / "out"),
                        "--workers", "2", "-q")
    _wait_for_workers(process, 2)
    if how == signal.SIGINT:
        os.killpg(process.pid, how)  # as a terminal does
    else:
        os.kill(process.pid, how)  # as kill or a scheduler's time limit does
    lines = _end(process).strip().splitlines()
    assert process.returncode == code, "\n".join(lines)
    assert len(lines) == 1 and lines[0].startswith("interrupted: the finished tasks are in "), "\n".join(lines)
    assert "--resume" in lines[0]


def test_a_task_failing_inside_a_worker_fails_alone_with_one_line_and_code_1(tmp_path):
    # ±0.00001 needs billions of trials: the worker's task is refused after its first block, the other runs.
    spec = _spec(tmp_path, "", 'precision = [0.01, 0.00001]').read_text(encoding="utf-8")
    (tmp_path / "spec.toml").write_text(spec.replace('seat = ["first", "second"]\n', ""), encoding="utf-8")
    process = _deckstat("batch", str(tmp_path / "spec.toml"), "--out", str(tmp_path / "out"), "--workers", "2",
                        "-q")
    lines = _end(process, timeout=120).strip().splitlines()
    assert process.returncode == 1, lines
    assert len(lines) == 1 and lines[0].startswith("failed: task "), lines
    assert "precision 1e-05 needs about" in lines[0] and "Traceback" not in lines[0]


#: A SIGTERM whose interrupt Python dropped (raised in a destructor or a weakref callback) once the batch's workers
#: run: only its stop request is left, a second after the pool has started.
_DROPPED = """
import signal, sys, threading
import deckstat.batching.run as batch_run
from deckstat.engines import progress
run = batch_run.Processes.run
def dropped(self, *args, **kwargs):
    threading.Timer(1.0, progress.request_stop, (signal.SIGTERM,)).start()
    return run(self, *args, **kwargs)
batch_run.Processes.run = dropped
from deckstat.cli import main
sys.argv[0] = "deckstat"
main()
"""


def test_a_batch_whose_interrupt_python_dropped_stops_all_the_same(tmp_path):
    # Its wait for tasks of 10^9 trials looked at nothing else: it ran on for their minutes.
    spec = _spec(tmp_path, "trials = 1_000_000_000")
    done = subprocess.run([sys.executable, "-c", _DROPPED, "batch", str(spec), "--out", str(tmp_path / "out"),
                           "--workers", "2", "-q"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "DECKSTAT_LANG": "en"})
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 143, done.stderr
    assert len(lines) == 1 and lines[0].startswith("interrupted: the finished tasks are in "), done.stderr


@pytest.mark.parametrize("seed", [3, 4])
def test_sigterm_while_the_batch_workers_start_gives_the_one_line(tmp_path, seed, startup):
    # From the spec's loading through the forkserver's and the workers' start: one line, 143, no process left.
    delays = random.Random(seed)
    spec = str(_spec(tmp_path, "trials = 1_000_000_000"))
    outs = iter(tmp_path / f"out{attempt}" for attempt in range(3))
    runs = _signalled([delays.uniform(max(0.3, startup), 2.5) for _ in range(3)],
                      lambda: _deckstat("batch", spec, "--out", str(next(outs)), "--workers", "2", "-q"),
                      lambda process: os.kill(process.pid, signal.SIGTERM))
    ended = [(delay, process, _end(process).strip().splitlines()) for delay, process in runs]
    for delay, process, lines in ended:
        assert process.returncode == 143, f"after {delay:.2f} s:\n" + "\n".join(lines)
        assert len(lines) == 1 and lines[0].startswith("interrupted"), f"after {delay:.2f} s:\n" + "\n".join(lines)


# Ctrl-C's case is test_ctrl_c_at_any_moment_of_a_parallel_simulation_ends_with_one_line: its stderr must be
# "interrupted" alone, and the resource tracker's warnings would come on that same stderr.
@pytest.mark.parametrize(("how", "code"), [(signal.SIGTERM, 143)])
def test_a_signal_during_a_parallel_simulation_leaks_no_semaphore(how, code):
    delays = random.Random(how)
    runs = _signalled([delays.uniform(1.0, 3.0) for _ in range(3)], _simulation,
                      lambda process: os.kill(process.pid, how))
    ended = [(delay, process, _end(process)) for delay, process in runs]
    for delay, process, stderr in ended:
        assert "leaked" not in stderr and "resource_tracker" not in stderr, f"after {delay:.2f} s:\n{stderr}"
        assert (process.returncode, stderr.strip()) == (code, "interrupted"), f"after {delay:.2f} s:\n{stderr}"


# Each signal at two of the four moments (a compile from an empty cache costs seconds of CPU a run).
@pytest.mark.parametrize(("how", "code", "after_draw"), [(signal.SIGINT, 130, (0.0, 1.2)),
                                                         (signal.SIGTERM, 143, (0.6, 1.8))],
                         ids=["SIGINT", "SIGTERM"])
def test_a_signal_while_a_first_run_compiles_the_kernel_ends_it_in_one_line(tmp_path, how, code, after_draw):
    # An empty numba cache: each run (10^9 trials, worth compiling) compiles its loops, ``draw`` then ``draw_from``
    # (whose file comes seconds later). Signals at moments of the second compile: the command ends then, in one
    # line (an interrupt raised inside numba's compiler once left it half done, and the command failed with an
    # internal error), not once the compile has ended and written its file.
    caches = [tmp_path / str(i) for i in range(len(after_draw))]
    runs = [(_simulation({"NUMBA_CACHE_DIR": str(cache)}), cache, delay) for cache, delay in zip(caches, after_draw)]
    deadline = time.monotonic() + 300
    waiting = list(runs)
    while waiting:
        assert time.monotonic() < deadline, "no compiled loop written in 300 s"
        for run in list(waiting):
            process, cache, delay = run
            written = [path.stat().st_mtime for path in cache.glob("*/_compiled.draw-*.nbc")]
            if process.poll() is not None or (written and time.time() >= written[0] + delay):
                os.killpg(process.pid, how) if how == signal.SIGINT else os.kill(process.pid, how)
                waiting.remove(run)
        time.sleep(0.02)
    ended = [(delay, process, cache, _end(process)) for process, cache, delay in runs]
    for delay, process, cache, stderr in ended:
        assert list(cache.glob("*/_compiled.draw-*.nbc")), f"after {delay:.2f} s:\n{stderr}"
        assert not list(cache.glob("*/_compiled.draw_from-*.nbc")), (delay, "the command waited for the compile")
        assert (process.returncode, stderr.strip()) == (code, "interrupted"), f"after {delay:.2f} s:\n{stderr}"


@pytest.mark.parametrize(("how", "code", "to_group"), [(signal.SIGINT, 130, True), (signal.SIGTERM, 143, False)])
def test_a_report_stopped_while_its_figures_are_drawn_ahead_leaves_no_copy(tmp_path, how, code, to_group):
    # The report draws each figure in a copy of itself as soon as its part is computed: Ctrl-C (to the whole
    # group, as a terminal sends it) or SIGTERM (to deckstat alone) then ends the copies with it, and no report is
    # written. The copies are seen alive at the signal in at least one of the runs, or the test proves nothing.
    runs, seen_copies = [], 0
    for delay in (1.5, 3.0, 4.5):
        out = tmp_path / f"report-{delay}"
        process = _deckstat("report", str(WANKUL), "--game", "wankul", "--out", str(out), "--seed", "1", "-q")
        runs.append((delay, out, process, time.monotonic()))
    for delay, _, process, started in runs:
        time.sleep(max(0.0, started + delay - time.monotonic()))
        seen_copies += len(group_members(process.pid)) > 1
        os.killpg(process.pid, how) if to_group else process.send_signal(how)
    ended = []
    for delay, out, process, _ in runs:
        try:
            stderr = process.communicate(timeout=60)[1].decode()
        finally:
            # Ended with deckstat, not on their own later (a copy left running ends once it has drawn its figure).
            left = group_members(process.pid)
            if left:
                os.killpg(process.pid, signal.SIGKILL)
        ended.append((delay, out, process, stderr, left))
    for delay, out, process, stderr, left in ended:
        assert not left, (delay, left)
        if process.returncode == 0:  # ended before its signal on a fast machine
            continue
        assert (process.returncode, stderr.strip()) == (code, "interrupted"), f"after {delay:.2f} s:\n{stderr}"
        assert not out.exists(), delay
    assert seen_copies, "no figure was being drawn when the signals came"
