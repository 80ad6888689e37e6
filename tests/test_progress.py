"""Progress of long commands: what the questions report, the bar on stderr, --quiet, --trials 1e8, --max-trials."""

from __future__ import annotations

import functools
import io
import json
import os
import pty
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import assert_user_error, group_members, ok, run, sample_deck, worker_processes
from rich.console import Console

import deckstat
from deckstat.cli.progress import showing
from deckstat.engines import progress, runner

WANKUL = sample_deck("wankul")
WANKUL_V2 = sample_deck("wankul", "sample_deck_v2.csv")


class Recorder(progress.Progress):
    """A listener's bar that remembers what it was told."""

    def __init__(self, log, description, total, unit):
        self.entry = {"description": description, "total": total, "unit": unit, "done": 0, "closed": False}
        log.append(self.entry)

    def advance(self, amount=1):
        self.entry["done"] += amount

    def update(self, *, total=None, description=None):
        if total is not None:
            self.entry["total"] = total

    def close(self):
        self.entry["closed"] = True


def tracked(call):
    log = []
    with progress.listening(functools.partial(Recorder, log)):
        call()
    return log


def test_a_simulated_question_reports_its_trials():
    deck = deckstat.load_deck(WANKUL)
    log = tracked(lambda: deckstat.odds(deck, "wankul", ["Terrain>=1", "Terrain>=2"], method="simulate",
                                        n_trials=3000, rng=1))
    # Each event, then the events' drought side on the same games (as many, never more than its own 40,000).
    assert [(e["description"], e["total"], e["done"], e["unit"], e["closed"]) for e in log] == [
        ("odds Terrain>=1 (kept hand and draws)", 3000, 3000, "trials", True),
        ("odds Terrain>=2 (kept hand and draws)", 3000, 3000, "trials", True),
        ("odds with drought draws", 3000, 3000, "trials", True)]


def test_exact_answers_report_nothing_but_their_drought_side():
    deck = deckstat.load_deck(sample_deck("duel-masters"))
    assert tracked(lambda: deckstat.odds(deck, "duel-masters", "Sort>=1")) == []
    log = tracked(lambda: deckstat.odds(deckstat.load_deck(WANKUL), "wankul", "Terrain>=1"))
    assert [(e["description"], e["total"], e["done"]) for e in log] == [("odds with drought draws", 40_000, 40_000)]
    assert tracked(lambda: deckstat.odds(deckstat.load_deck(WANKUL), "wankul", "Terrain>=1", method="exact")) == []


def test_a_ratio_sweep_reports_its_counts_and_a_report_its_parts():
    deck = deckstat.load_deck(WANKUL)
    log = tracked(lambda: deckstat.ratio(deck, "wankul", counts=[9, 10, 11], turns=[0], n_trials=2000, rng=1))
    counts = [e for e in log if e["unit"] == "counts"]
    assert [(e["total"], e["done"], e["closed"]) for e in counts] == [(3, 3, True)]
    log = tracked(lambda: deckstat.report(deck, "wankul", n_trials=2000, rng=1))
    parts = [e for e in log if e["unit"] == "parts"]
    # Wankul: by-turn odds, opening hands, mulligan, playability, resource sweep, the ±1-copy table, deck-out,
    # shield triggers (none).
    assert [(e["description"], e["total"], e["done"]) for e in parts] == [("report", 8, 8)]
    assert all(e["closed"] and e["done"] == e["total"] for e in log if e["unit"] == "trials")


def slow_work():
    """A simulation of three blocks."""
    deckstat.odds(deckstat.load_deck(WANKUL), "wankul", "Terrain>=2", method="simulate",
                  n_trials=3 * runner.BLOCK_TRIALS, rng=1)


def test_the_bar_draws_on_a_terminal_and_nothing_elsewhere_or_when_quiet():
    terminal = io.StringIO()
    with showing(console=Console(file=terminal, force_terminal=True, width=100), delay=0):
        with progress.track("simulating coins", total=10, unit="trials") as bar:
            listener = progress._listener.get()
            listener.timer.join()  # the bar appears on the timer's thread: wait for it, not to race it
            bar.advance(4)
            listener.display.refresh()
    drawn = terminal.getvalue()
    assert "simulating coins" in drawn and "4/10 trials" in drawn
    for quiet, console in [(False, Console(file=io.StringIO(), force_terminal=False)),
                           (True, Console(file=io.StringIO(), force_terminal=True))]:
        with showing(quiet, console=console, delay=0):
            assert progress._listener.get() is None
            slow_work()
        assert console.file.getvalue() == ""


def test_a_quick_answer_shows_no_bar():
    terminal = io.StringIO()
    with showing(console=Console(file=terminal, force_terminal=True), delay=60):
        slow_work()
    assert terminal.getvalue() == ""


def test_the_bar_stops_its_timer_while_the_process_is_copied_and_appears_after():
    # Worker processes are copies of the command where no other thread runs: the bar's timer stops meanwhile.
    terminal = io.StringIO()
    with showing(console=Console(file=terminal, force_terminal=True, width=100), delay=0.2):
        with progress.track("simulating coins", total=10, unit="trials"):
            listener = progress._listener.get()
            timer, threads = listener.timer, threading.active_count()
            with progress.threads_paused():
                assert not timer.is_alive() and threading.active_count() == threads - 1
                time.sleep(0.3)  # past the delay: nothing appears while paused
                assert not listener.shown
            listener.timer.join()  # what was left of the delay: nothing
            assert listener.shown
            drawing = listener.display.live._refresh_thread
            with progress.threads_paused():  # shown, the bar stops drawing meanwhile, and draws again after
                assert not drawing.is_alive() and threading.active_count() == threads - 1
            assert listener.display.live._refresh_thread.is_alive()
    assert "simulating coins" in terminal.getvalue()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="copies are made on Linux alone")
def test_a_command_on_a_terminal_copies_itself_for_its_workers():
    # stderr a terminal: the progress bar's timer runs, and is paused while the workers are made.
    leader, follower = pty.openpty()
    code = "from deckstat.cli.commands import main; main()"
    process = subprocess.Popen([sys.executable, "-c", code, "odds", str(WANKUL), "--game", "wankul", "-e",
                                "Terrain>=1", "--simulate", "--trials", "1e10", "--workers", "2", "--seed", "1"],
                               stdout=subprocess.DEVNULL, stderr=follower, start_new_session=True,
                               env={**os.environ, "DECKSTAT_LANG": "en"})
    os.close(follower)
    try:
        deadline = time.monotonic() + 120
        while not worker_processes(process.pid) and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        workers, members = worker_processes(process.pid), group_members(process.pid)
        parents = {Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1] for pid in workers}
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        os.close(leader)
    assert workers and parents == {str(process.pid)}
    assert len(members) == 2  # deckstat and its worker: no forkserver, no resource tracker


@pytest.mark.parametrize("command", ["odds", "when", "mulligan", "ratio", "deckout", "compare", "report"])
def test_every_long_command_takes_quiet(command, tmp_path):
    args = {"odds": ["odds", WANKUL, "-e", "Terrain>=2", "--turns", "0"],
            "when": ["when", WANKUL, "-e", "Terrain>=2", "--max-turn", "1"],
            "mulligan": ["mulligan", WANKUL, "--turns", "0"],
            "ratio": ["ratio", WANKUL, "--range", "10", "--turns", "0"],
            "deckout": ["deckout", WANKUL, "--trials", "2000"],
            "compare": ["compare", WANKUL, WANKUL_V2, "-e", "Terrain>=2", "--turns", "0"],
            "report": ["report", WANKUL, "--trials", "2e3", "--out", tmp_path]}[command]
    quiet = ok(run(*args, "--game", "wankul", "--seed", "4", "--quiet"))
    if command == "odds":  # one option of the shared flags: its short name is checked once
        assert ok(run(*args, "--game", "wankul", "--seed", "4", "-q")) == quiet
    # CliRunner's stderr is not a terminal: without --quiet too, nothing but the answer and no bar.
    loud = run(*args, "--game", "wankul", "--seed", "4")
    assert ok(loud) == quiet
    assert loud.stderr == ""


def test_trials_are_written_as_people_write_them():
    base = ["odds", WANKUL, "--game", "wankul", "-e", "Terrain>=2", "--turns", "0", "--seed", "2", "--format",
            "json"]
    plain = json.loads(ok(run(*base, "--trials", "3000")))
    for written in ("3_000", "3e3", "3.0e3", "3E3"):
        assert json.loads(ok(run(*base, "--trials", written))) == plain
    assert plain["table"][0]["n_trials"] == 3000
    for bad in ("1.5", "abc", "1e3.5", "-5"):
        assert_user_error(run(*base, "--trials", bad), "--trials must be a whole number of at least 1",
                          f"got '{bad}'")
    assert_user_error(run("report", WANKUL, "--game", "wankul", "--trials", "2.5"), "--trials")


def test_max_trials_on_the_command_line():
    base = ["odds", WANKUL, "--game", "wankul", "-e", "Terrain>=2", "--turns", "0-3", "--seed", "2"]
    assert_user_error(run(*base, "--precision", "0.0005", "--max-trials", "1e6"),
                      "--precision 0.0005 needs about ", "trials, more than --max-trials 1e6: ask a coarser "
                      "--precision or raise --max-trials")
    assert_user_error(run("when", WANKUL, "--game", "wankul", "-e", "Terrain>=2", "--precision", "1e-9"),
                      "--precision 1e-09 needs at least 1.9e9 trials, more than --max-trials 1e8")
    assert_user_error(run(*base, "--precision", "0.01", "--max-trials", "1.5"), "--max-trials must be a whole number")
    reached = json.loads(ok(run(*base, "--precision", "0.005", "--max-trials", "1e6", "--format", "json")))
    assert reached["provenance"]["max_trials"] == 10**6


def test_the_bar_is_written_in_the_commands_language_from_rich_threads():
    # rich draws the bar from threads of its own, which do not see a language set in the command (--lang fr).
    from deckstat.i18n import language

    terminal = io.StringIO()
    with language("fr"), showing(console=Console(file=terminal, force_terminal=True, width=120), delay=0):
        with progress.track("simulation", total=100_000, unit="trials") as bar:
            bar.advance(12_345)
            listener = progress._listener.get()
            drawn = []
            drawer = threading.Thread(target=lambda: drawn.append(listener.display.get_renderable()))
            drawer.start()
            drawer.join()
            written = Console(file=io.StringIO(), width=120, force_terminal=False)
            written.print(drawn[0])
    assert "12,3k/100,0k parties" in written.file.getvalue()
