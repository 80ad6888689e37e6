"""Bad inputs run through the command line: the exact exit code, and one ``error:`` line naming the culprit.

Every ``[[case]]`` of every ``tests/bad_inputs/*.toml`` file is one test. The format:

- ``id`` (unique, kebab-case), ``about`` (what is wrong with the input), ``args`` (the command line; ``{NAME}``
  is the path of file ``NAME`` made in the case's folder, ``{tmp}`` that folder, ``{data}`` the repository's
  ``data/``), ``exit`` (the exact exit code) and ``words`` (each must be in the ``error:`` line when ``exit`` is
  2, else somewhere on stderr);
- optional ``lang`` (``en`` or ``fr``, through ``DECKSTAT_LANG``), ``stdout_words``, ``env``;
- ``[case.files."NAME"]`` tables: files made before the run, from ``text`` (``encoding``, ``repeat``), ``hex``
  (raw bytes) or ``zeros`` (a sparse file of that many zero bytes).

For exit 2 the run must print nothing on stdout and exactly one stderr line starting ``error: `` (``erreur : ``).
No run may show a traceback or leave a ``.deckstat-partial-*`` file behind.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from deckstat.cli import app
from tests.helpers import DATA

CORPUS = Path(__file__).resolve().parent / "bad_inputs"
#: Keys a case may have; anything else is a typo that would silently weaken the case.
CASE_KEYS = {"id", "about", "args", "exit", "words", "lang", "stdout_words", "env", "files"}
FILE_KEYS = {"text", "encoding", "repeat", "hex", "zeros"}
ERROR_PREFIXES = {"en": "error: ", "fr": "erreur\u00a0: "}
PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
KEBAB = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def _load_cases() -> list[tuple[str, dict]]:
    cases = []
    for path in sorted(CORPUS.glob("*.toml")):
        with path.open("rb") as handle:
            for case in tomllib.load(handle).get("case", []):
                cases.append((path.name, case))
    return cases


CASES = _load_cases()


def _make_files(folder: Path, files: dict[str, dict]) -> None:
    for name, spec in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if "text" in spec:
            text = spec["text"] * spec.get("repeat", 1)
            target.write_bytes(text.encode(spec.get("encoding", "utf-8")))
        elif "hex" in spec:
            target.write_bytes(bytes.fromhex(spec["hex"]))
        elif "zeros" in spec:
            target.touch()
            os.truncate(target, spec["zeros"])
        else:
            raise AssertionError(f"file {name!r} needs text, hex or zeros")


def _substitute(arg: str, folder: Path, files: dict[str, dict]) -> str:
    def replace(match: re.Match) -> str:
        key = match.group(1)
        if key == "tmp":
            return str(folder)
        if key == "data":
            return str(DATA)
        if key in files:
            return str(folder / key)
        return match.group(0)  # event syntax such as "{a}" is left as written

    return PLACEHOLDER.sub(replace, arg)


def test_the_corpus_is_well_formed():
    ids = [case.get("id") for _, case in CASES]
    assert len(CASES) >= 100, len(CASES)
    assert len(set(ids)) == len(ids), sorted({i for i in ids if ids.count(i) > 1})
    for file_name, case in CASES:
        where = f"{file_name}: {case.get('id')}"
        assert isinstance(case.get("id"), str) and KEBAB.fullmatch(case["id"]), where
        assert isinstance(case.get("about"), str) and case["about"].strip(), where
        assert isinstance(case.get("args"), list) and case["args"], where
        assert all(isinstance(arg, str) for arg in case["args"]), where
        assert isinstance(case.get("exit"), int), where
        assert isinstance(case.get("words"), list) and all(isinstance(w, str) and w for w in case["words"]), where
        # An exit-2 case must name the culprit; exit 0 and 1 cases must at least say what they print.
        assert case["words"] or case.get("stdout_words"), where
        assert case.get("lang", "en") in ERROR_PREFIXES, where
        assert not set(case) - CASE_KEYS, (where, set(case) - CASE_KEYS)
        for name, spec in case.get("files", {}).items():
            assert not set(spec) - FILE_KEYS, (where, name)
            assert len(FILE_KEYS & set(spec) - {"encoding", "repeat"}) == 1, (where, name)


def check_run(case: dict, result, folder: Path) -> None:
    """Assert that ``result`` (a CliRunner result) is what ``case`` expects and ``folder`` holds no partial file."""
    lang = case.get("lang", "en")
    shown = f"exit {result.exit_code}\nstdout: {result.stdout!r}\nstderr: {result.stderr!r}"
    assert result.exception is None or isinstance(result.exception, SystemExit), (repr(result.exception), shown)
    assert "Traceback" not in result.stdout + result.stderr, shown
    assert result.exit_code == case["exit"], shown
    if case["exit"] == 2:
        assert result.stdout == "", shown
        lines = result.stderr.strip("\n").splitlines()
        assert len(lines) == 1, shown
        assert lines[0].startswith(ERROR_PREFIXES[lang]), shown
        for word in case["words"]:
            assert word in lines[0], (word, shown)
    else:
        for word in case["words"]:
            assert word in result.stderr, (word, shown)
    for word in case.get("stdout_words", []):
        assert word in result.stdout, (word, shown)
    left = sorted(p.name for p in folder.rglob(".deckstat-partial-*"))
    assert not left, left


@pytest.mark.parametrize("case", [case for _, case in CASES], ids=[case["id"] for _, case in CASES])
def test_bad_input(case: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    files = case.get("files", {})
    _make_files(tmp_path, files)
    args = [_substitute(arg, tmp_path, files) for arg in case["args"]]
    env = {"DECKSTAT_LANG": case.get("lang", "en"), **case.get("env", {})}
    monkeypatch.chdir(tmp_path)  # outputs written with relative paths land in the case's folder

    check_run(case, CliRunner().invoke(app, args, env=env), tmp_path)


def _result(exit_code: int, stdout: str = "", stderr: str = "", exception: BaseException | None = None):
    return SimpleNamespace(exit_code=exit_code, stdout=stdout, stderr=stderr, exception=exception)


@pytest.mark.parametrize("result", [
    _result(2, stderr="error: deck.csv, line 3: no\n", exception=ValueError("escaped")),
    _result(2, stderr="Traceback (most recent call last):\nerror: deck.csv, line 3\n"),
    _result(70, stderr="internal error: IndexError: deck.csv, line 3\n"),
    _result(2, stderr="error: deck.csv, line 3\nerror: again\n"),
    _result(2, stdout="P(Terrain>=1)\n", stderr="error: deck.csv, line 3\n"),
    _result(2, stderr="warning: deck.csv, line 3\n"),
    _result(2, stderr="error: deck.csv, line 4\n"),
], ids=["exception", "traceback", "exit-code", "two-lines", "stdout", "prefix", "word"])
def test_the_checks_refuse_what_a_case_forbids(result, tmp_path):
    case = {"exit": 2, "words": ["deck.csv", "line 3"]}
    check_run(case, _result(2, stderr="error: deck.csv, line 3: count '-1' must be at least 1\n"), tmp_path)
    with pytest.raises(AssertionError):
        check_run(case, result, tmp_path)


def test_the_checks_refuse_a_partial_file_left_behind(tmp_path):
    (tmp_path / ".deckstat-partial-fig.png").write_bytes(b"")
    with pytest.raises(AssertionError):
        check_run({"exit": 0, "words": []}, _result(0, stdout="ok\n"), tmp_path)
