"""Writing files safely: a file that cannot be written is one error line after the printed result, files and
report folders are replaced atomically, and text from card files cannot drive the terminal."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from deckstat.errors import DeckstatError
from deckstat.present import files
from tests.helpers import ROOT, assert_no_crash, assert_user_error, ok, run, sample_deck

WANKUL = sample_deck("wankul")
ODDS = ("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--turns", "0-2")
ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob(f"{files.TEMPORARY_PREFIX}*"))


# --------------------------------------------------------------------------- --plot into a place it cannot go

def test_plot_into_a_missing_folder_is_refused_before_the_work(tmp_path):
    target = tmp_path / "nodir" / "x.png"
    assert_user_error(run(*ODDS, "--plot", target), str(target), "no such folder")


def test_plot_under_a_file_is_refused(tmp_path):
    (tmp_path / "afile").write_text("not a folder")
    target = tmp_path / "afile" / "x.png"
    assert_user_error(run("deckout", WANKUL, "--game", "wankul", "--plot", target), str(target),
                      "a part of the path is a file")


def test_plot_onto_a_folder_is_refused(tmp_path):
    (tmp_path / "figure.png").mkdir()
    assert_user_error(run(*ODDS, "--plot", tmp_path / "figure.png"), "figure.png", "it is a folder")


@pytest.mark.skipif(ROOT_USER or sys.platform == "win32", reason="root writes into read-only folders")
def test_plot_into_a_read_only_folder_is_refused(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        assert_user_error(run(*ODDS, "--plot", folder / "x.png"), "x.png", "permission denied")
    finally:
        folder.chmod(0o700)


def test_plot_in_french_says_why_in_french(tmp_path):
    line = assert_user_error(run(*ODDS, "--plot", tmp_path / "nodir" / "x.png", "--lang", "fr"))
    assert line.endswith("écriture impossible\u00a0: ce dossier n'existe pas"), line


def test_a_figure_that_fails_when_written_comes_after_the_printed_table(tmp_path, monkeypatch):
    # The folder vanishes between the check and the writing: the table is printed, then one error line.
    monkeypatch.setattr(files, "check_writable_file", lambda path: None)
    target = tmp_path / "gone" / "x.png"
    result = run(*ODDS, "--plot", target)
    assert_no_crash(result)
    assert result.exit_code == 2
    assert "Terrain" in result.stdout and "%" in result.stdout  # the computed table
    lines = result.stderr.strip().splitlines()
    assert lines == [f"error: {target}: cannot write: no such folder"]
    assert not target.parent.exists()


@pytest.mark.parametrize("command, extra", [
    ("when", ["--event", "Terrain>=2"]), ("mulligan", []), ("ratio", ["--range", "9-11"]),
    ("deckout", ["--no-drought"]), ("compare", [sample_deck("wankul", "sample_deck_v2.csv"), "--event", "Terrain>=1"]),
    ("curve", ["--card", "Mamie Croquette", "--turns", "1-3", "--trials", "500"])])
def test_every_command_prints_its_result_before_a_figure_fails(tmp_path, monkeypatch, command, extra):
    monkeypatch.setattr(files, "check_writable_file", lambda path: None)
    target = tmp_path / "gone" / "x.png"
    result = run(command, WANKUL, *extra, "--game", "wankul", "--plot", target)
    assert_no_crash(result)
    assert result.exit_code == 2
    assert "Wankul" in result.stdout, result.stdout
    assert result.stderr.strip().splitlines() == [f"error: {target}: cannot write: no such folder"]


def test_plot_is_written_after_the_table(tmp_path):
    target = tmp_path / "x.png"
    out = ok(run(*ODDS, "--plot", target))
    assert "Terrain" in out
    assert target.read_bytes().startswith(b"\x89PNG")
    assert _leftovers(tmp_path) == []


def test_save_names_the_path_and_the_reason(tmp_path):
    import matplotlib.pyplot as plt

    from deckstat.present import plots

    figure = plt.figure()
    with pytest.raises(DeckstatError, match="cannot write: no such folder"):
        plots.save(figure, tmp_path / "nodir" / "x.png")
    assert not plt.fignum_exists(figure.number)


# --------------------------------------------------------------------------- report --out

def test_report_under_a_file_is_refused_before_the_work(tmp_path):
    (tmp_path / "afile").write_text("not a folder")
    assert_user_error(run("report", WANKUL, "--game", "wankul", "--out", tmp_path / "afile" / "sub"),
                      "afile", "a part of the path is a file")
    assert_user_error(run("report", WANKUL, "--game", "wankul", "--out", tmp_path / "afile"),
                      "afile", "exists and is not a folder")


@pytest.mark.skipif(ROOT_USER or sys.platform == "win32", reason="root writes into read-only folders")
def test_report_into_a_read_only_folder_is_refused(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        assert_user_error(run("report", WANKUL, "--game", "wankul", "--out", folder / "report"),
                          "report", "permission denied")
    finally:
        folder.chmod(0o700)


def test_report_twice_into_the_same_folder_replaces_it(tmp_path):
    # The README's first command, run twice; then the same folder as HTML holds the HTML page alone.
    out = tmp_path / "report"
    for _ in range(2):
        ok(run("report", WANKUL, "--game", "wankul", "--out", out, "--trials", 2000, "--seed", 1))
    first = {p.name for p in out.iterdir()}
    assert "report.md" in first and "odds.png" in first
    ok(run("report", WANKUL, "--game", "wankul", "--out", out, "--html", "--trials", 2000, "--seed", 1))
    assert [p.name for p in out.iterdir()] == ["report.html"]
    assert _leftovers(tmp_path) == []


def test_report_into_a_folder_with_other_files_leaves_them(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    ok(run("report", WANKUL, "--game", "wankul", "--out", tmp_path, "--trials", 2000, "--seed", 1))
    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert (tmp_path / "report.md").exists()
    assert _leftovers(tmp_path) == []


# --------------------------------------------------------------------------- the helpers

def test_atomic_write_replaces_the_file(tmp_path):
    path = tmp_path / "a.csv"
    path.write_bytes(b"old")
    files.atomic_write_bytes(path, b"new")
    assert path.read_bytes() == b"new"
    assert os.listdir(tmp_path) == ["a.csv"]


def test_atomic_write_failing_inside_keeps_the_old_file(tmp_path):
    path = tmp_path / "a.csv"
    path.write_bytes(b"old")

    def half(temporary: Path) -> None:
        temporary.write_bytes(b"ne")
        raise RuntimeError("stopped while writing")

    with pytest.raises(RuntimeError):
        files.atomic_write(path, half)
    assert path.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["a.csv"]


def test_atomic_write_into_a_missing_folder_names_it(tmp_path):
    with pytest.raises(DeckstatError, match="no such folder") as caught:
        files.atomic_write_bytes(tmp_path / "nodir" / "a.csv", b"x")
    assert str(tmp_path / "nodir" / "a.csv") in caught.value.render()


def test_replace_folder_failing_inside_keeps_the_old_folder(tmp_path):
    target = tmp_path / "report"
    target.mkdir()
    (target / "report.md").write_text("old")
    with pytest.raises(RuntimeError), files.replace_folder(target) as build:
        (build / "report.md").write_text("half")
        (build / "odds.png").write_bytes(b"\x89PNG")
        raise RuntimeError("stopped while building")
    assert [p.name for p in target.iterdir()] == ["report.md"]
    assert (target / "report.md").read_text() == "old"
    assert sorted(os.listdir(tmp_path)) == ["report"]


def test_replace_folder_swaps_in_the_new_content_alone(tmp_path):
    target = tmp_path / "report"
    target.mkdir()
    (target / "report.md").write_text("old")
    (target / "deckout.png").write_bytes(b"old figure")
    with files.replace_folder(target) as build:
        (build / "report.md").write_text("new")
    assert [p.name for p in target.iterdir()] == ["report.md"]
    assert (target / "report.md").read_text() == "new"
    assert sorted(os.listdir(tmp_path)) == ["report"]


def test_replace_folder_creates_a_missing_one(tmp_path):
    with files.replace_folder(tmp_path / "a" / "b") as build:
        (build / "x").write_text("x")
    assert (tmp_path / "a" / "b" / "x").read_text() == "x"


# --------------------------------------------------------------------------- killed while writing a report

def _complete(folder: Path) -> bool:
    """A report whose page and every figure it shows are there (the page is written last)."""
    page = folder / "report.md"
    if not page.exists():
        return False
    shown = [line[line.index("](") + 2:-1] for line in page.read_text(encoding="utf-8").splitlines()
             if line.startswith("![")]
    return bool(shown) and all((folder / name).stat().st_size > 0 for name in shown)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_report_killed_at_a_random_time_leaves_the_old_report_or_the_new_one(tmp_path):
    out = tmp_path / "report"
    command = [sys.executable, "-m", "deckstat", "report", str(WANKUL), "--game", "wankul", "--out", str(out),
               "--trials", "2000", "--seed", "1"]
    env = {**os.environ, "MPLBACKEND": "Agg"}
    started = time.monotonic()
    subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)
    duration = time.monotonic() - started
    old = {p.name: p.read_bytes() for p in out.iterdir()}
    (out / "report.md").write_text((out / "report.md").read_text(encoding="utf-8") + "\nold run\n",
                                   encoding="utf-8")
    old["report.md"] = (out / "report.md").read_bytes()
    chooser = random.Random(20261201)
    for _ in range(3):
        process = subprocess.Popen([*command, "--seed", str(chooser.randrange(1000))], cwd=ROOT, env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(chooser.uniform(0.3, 1.0) * duration)
        process.send_signal(signal.SIGKILL)
        process.wait()
        if out.exists():
            now = {p.name: p.read_bytes() for p in out.iterdir()}
            assert now == old or (_complete(out) and b"old run" not in now["report.md"]), sorted(now)
            old = now
        # What a killed run leaves aside is hidden and never named like the report.
        assert all(p.name.startswith(files.TEMPORARY_PREFIX) for p in tmp_path.iterdir() if p != out)


def _gone_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_next_write_clears_what_a_killed_run_left(tmp_path):
    pid = _gone_pid()
    left_file = tmp_path / f"{files.TEMPORARY_PREFIX}{pid}-odds.png"
    left_file.write_bytes(b"half a figure")
    left_folder = tmp_path / f"{files.TEMPORARY_PREFIX}{pid}-report"
    (left_folder / "figures").mkdir(parents=True)
    other = tmp_path / f"{files.TEMPORARY_PREFIX}{pid}-another.png"  # not the path written: left alone
    other.write_bytes(b"x")
    files.atomic_write_bytes(tmp_path / "odds.png", b"png")
    with files.replace_folder(tmp_path / "report") as build:
        (build / "report.md").write_text("new", encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["odds.png", "report", other.name])


def test_a_report_set_aside_by_a_killed_swap_is_put_back_not_removed(tmp_path):
    pid = _gone_pid()
    aside = tmp_path / f"{files.TEMPORARY_PREFIX}{pid}-old-report"
    aside.mkdir()
    (aside / "report.md").write_text("the previous report", encoding="utf-8")
    files.clear_leftovers(tmp_path / "report")
    assert (tmp_path / "report" / "report.md").read_text(encoding="utf-8") == "the previous report"
    assert not aside.exists()


def test_files_of_a_running_process_are_left_alone(tmp_path):
    mine = tmp_path / f"{files.TEMPORARY_PREFIX}{os.getpid()}-odds.png"
    mine.write_bytes(b"being written")
    files.clear_leftovers(tmp_path / "odds.png")
    assert mine.exists()


# --------------------------------------------------------------------------- escape codes

def test_control_characters_of_card_names_are_shown_not_obeyed(tmp_path):
    deck = tmp_path / "deck.csv"
    deck.write_text("name,count,type\n\x1b[31mRed,32,Terrain\nBell\x07,4,Personnage\n\x9b2J,4,Personnage\n",
                    encoding="utf-8")
    result = run("validate", deck, "--game", "wankul")  # each card over the copy limit: named in the table
    assert_no_crash(result)
    shown = result.stdout + result.stderr
    assert "\x1b" not in shown and "\x07" not in shown and "\x9b" not in shown
    for name in ("\\x1b[31mRed", "\\x9b2J", "Bell"):  # a bell shown as an escape or left out
        assert name in result.stdout, result.stdout


def test_safe_text_keeps_line_feeds_and_tabs():
    from deckstat.cli.terminal import safe_text

    assert safe_text("a\tb\nc\x1b[0m\x7f\x85é") == "a\tb\nc\\x1b[0m\\x7f\\x85é"


def test_safe_text_shows_direction_controls():
    from deckstat.cli.terminal import safe_text

    assert safe_text("Dragon\u202eeliF\u2066x\u2069\u200f") == "Dragon\\u202eeliF\\u2066x\\u2069\\u200f"


def test_safe_text_escapes_the_unicode_line_separators():
    # str.splitlines() ends a line at U+2028 and U+2029: an error naming such a file would span two lines.
    from deckstat.cli.terminal import safe_text

    assert safe_text("a\u2028b\u2029c") == "a\\u2028b\\u2029c"
    result = run("odds", sample_deck("wankul"), "--game", "wankul", "-e", "Terrain>=1", "--pool", "x\u2028y.csv")
    assert_user_error(result, "x\\u2028y.csv")
