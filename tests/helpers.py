"""Helpers shared by the test files: data paths, statistical tolerances, running the command line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from scipy.stats import norm
from typer.testing import CliRunner

from deckstat import DeckstatError, load_deck
from deckstat.cli import app

ROOT = Path(__file__).resolve().parents[1]
#: The sample data the project ships (paths do not depend on the working directory).
DATA = ROOT / "data"
#: Real card pools, outside the repository; tests that use them skip when absent.
SHARED_CARDDATA = ROOT.parent / "shared" / "carddata"

#: Chance a correct statistical test of this suite fails, per test (Bonferroni-split across its comparisons).
FAMILY_ALPHA = 1e-3


def sample_deck(game: str, name: str = "sample_deck.csv") -> Path:
    """Path of a sample deck of ``game`` in ``data/``."""
    return DATA / game / name


def z_for(n_comparisons: int) -> float:
    """Two-sided normal quantile that keeps ``n_comparisons`` tests together at :data:`FAMILY_ALPHA`."""
    return float(norm.isf(FAMILY_ALPHA / (2 * n_comparisons)))


_runner = CliRunner()


def run(*args: object):
    """Invoke the ``deckstat`` command line in process with ``args``."""
    return _runner.invoke(app, [str(a) for a in args])


def assert_no_crash(result) -> None:
    """No uncaught exception (CliRunner would swallow its traceback) and no traceback text."""
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


def ok(result) -> str:
    """Exit code 0, no traceback; return stdout."""
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    return result.stdout


def ok_json(result) -> dict:
    """Exit code 0 and a JSON object on stdout."""
    return json.loads(ok(result))


def assert_user_error(result, *needles: str) -> str:
    """Exit code 2, one ``error: …`` line on stderr naming ``needles``, nothing on stdout."""
    assert_no_crash(result)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(("error: ", "erreur\u00a0: ")), lines[0]
    assert result.stdout == ""
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def write(tmp_path: Path, content: str | bytes, name: str = "deck.csv", encoding: str = "utf-8") -> Path:
    """Write ``content`` (text in ``encoding``, or bytes as they are) to ``tmp_path / name``; return the path."""
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode(encoding))
    return path


def error_of(path: Path, **kwargs) -> str:
    """Load ``path`` expecting a DeckstatError; return its one-line message."""
    with pytest.raises(DeckstatError) as info:
        load_deck(path, **kwargs)
    message = str(info.value)
    assert "\n" not in message
    return message


def stable_id(value: object) -> str:
    """A test id from ``repr``, without the memory address some objects show (the same in every worker process)."""
    import re

    return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(value))


def spec_error(path: Path) -> str:
    """The one-line :class:`~deckstat.batching.SpecError` loading the spec ``path`` raises."""
    from deckstat.batching import SpecError, load_spec

    with pytest.raises(SpecError) as caught:
        load_spec(path)
    message = str(caught.value)
    assert "\n" not in message
    return message


def line_of(path: Path, needle: str) -> int:
    """The 1-based line of ``path`` holding ``needle`` (the tests write each needle once)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    [number] = [i for i, line in enumerate(lines, start=1) if needle in line]
    return number


def group_members(pgid: int) -> list[int]:
    """The running processes of process group ``pgid`` (Linux: read from ``/proc``; zombies left out)."""
    return [pid for pid, (_, group, state) in _processes().items() if group == pgid and state != "Z"]


def running(pid: int) -> bool:
    """Whether process ``pid`` still runs (Linux: read from ``/proc``; a zombie has ended)."""
    found = _processes().get(pid)
    return found is not None and found[2] != "Z"


def worker_processes(pgid: int) -> list[int]:
    """The worker processes of the deckstat process leading group ``pgid``, however the pool started them.

    Copies of deckstat (``fork``) are its children; a forkserver's workers are the server's. multiprocessing's
    own helpers, the forkserver and the resource tracker, are children of deckstat running
    ``multiprocessing``'s code, and are left out.
    """
    processes = _processes()
    helpers = {pid for pid, (parent, _, _) in processes.items()
               if parent == pgid and b"multiprocessing" in _command_line(pid)}
    return [pid for pid in group_members(pgid) if pid != pgid and pid not in helpers]


def children(pid: int | None = None) -> list[int]:
    """The processes ``pid`` (default: this one) started that still exist, zombies included (read from ``/proc``)."""
    parent = os.getpid() if pid is None else pid
    return [child for child, (its_parent, _, _) in _processes().items() if its_parent == parent]


def only_here(function):
    """``function`` as this process calls it; in a copy of this process (``fork``) it raises RuntimeError instead."""
    parent = os.getpid()

    def called(*args, **kwargs):
        if os.getpid() != parent:
            raise RuntimeError("the copy fails")
        return function(*args, **kwargs)

    return called


def _processes() -> dict[int, tuple[int, int, str]]:
    """Each process's parent, group and state, from ``/proc``."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:  # ended meanwhile
                continue
            found[int(entry.name)] = (int(fields[1]), int(fields[2]), fields[0])
    return found


def _command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""
