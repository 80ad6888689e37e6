"""The command line's own mistakes as one line, where the bad-input corpus cannot say it.

The corpus (tests/bad_inputs/usage.toml) runs in process with the language from ``DECKSTAT_LANG``; here: the
installed ``deckstat`` command and ``python -m deckstat``, ``--lang`` against the environment, and a language
that must not carry over from one command to the next in the same process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import DATA, assert_user_error, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from deckstat.cli import app

WANKUL = DATA / "wankul" / "sample_deck.csv"
DECKSTAT = Path(sys.executable).with_name("deckstat")


def _run_process(*command: str, lang: str = "en") -> subprocess.CompletedProcess:
    env = {**os.environ, "DECKSTAT_LANG": lang}
    return subprocess.run(command, capture_output=True, text=True, encoding="utf-8", env=env, timeout=120)


def _one_error_line(done: subprocess.CompletedProcess, prefix: str = "error: ") -> str:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(prefix), lines[0]
    return lines[0]


@pytest.mark.skipif(not DECKSTAT.exists(), reason="the deckstat command is not installed next to this Python")
def test_the_installed_command_says_a_missing_option_in_one_line():
    line = _one_error_line(_run_process(str(DECKSTAT), "odds", str(WANKUL), "--game", "wankul"))
    assert line == "error: missing option --event EVENT; see 'deckstat odds --help'"


def test_python_m_deckstat_says_a_bad_value_in_one_line_in_french():
    done = _run_process(sys.executable, "-m", "deckstat", "odds", str(WANKUL), "--game", "wankul", "-e",
                        "Terrain>=1", "--mulligan-limit", "abc", "--lang", "fr")
    line = _one_error_line(done, "erreur\u00a0: ")
    assert "--mulligan-limit\u00a0: 'abc' n'est pas un nombre entier" in line
    assert "deckstat odds --help" in line


@pytest.mark.skipif(not DECKSTAT.exists(), reason="the deckstat command is not installed next to this Python")
def test_the_installed_command_still_prints_its_help_and_version():
    alone = subprocess.run([str(DECKSTAT)], capture_output=True, text=True, timeout=120)
    assert alone.returncode == 0 and "Usage: deckstat" in alone.stdout and alone.stderr == ""
    version = subprocess.run([str(DECKSTAT), "--version"], capture_output=True, text=True, timeout=120)
    assert version.returncode == 0 and version.stdout.startswith("deckstat ")


def test_deckstat_alone_prints_its_help_and_succeeds():
    result = run()
    assert result.exit_code == 0, result.output
    assert "Usage: deckstat" in result.stdout and "odds" in result.stdout
    assert result.stderr == ""


@pytest.mark.parametrize(("lang", "environment", "prefix", "words"), [
    ("--lang=fr", "en", "erreur\u00a0: ", "n'est pas un nombre"),
    ("--lang=en", "fr", "error: ", "is not a number"),
])
def test_lang_in_the_arguments_wins_over_the_environment(lang, environment, prefix, words):
    result = CliRunner().invoke(app, ["odds", str(WANKUL), "--game", "wankul", "-e", "Terrain>=1", lang,
                                      "--precision", "x"], env={"DECKSTAT_LANG": environment})
    line = assert_user_error(result, words)
    assert line.startswith(prefix)


def test_the_last_lang_counts_as_for_any_option():
    result = run("odds", WANKUL, "--game", "wankul", "--lang", "fr", "--lang", "en")
    assert assert_user_error(result, "missing option --event").startswith("error: ")


def test_an_unusable_lang_still_gets_an_error_line_in_the_environment_language():
    result = CliRunner().invoke(app, ["odds", str(WANKUL), "--game", "wankul", "--lang", "klingon"],
                                env={"DECKSTAT_LANG": "fr"})
    line = assert_user_error(result, "--lang\u00a0: 'klingon'", "en, fr")
    assert line.startswith("erreur\u00a0: ")


def test_a_french_command_does_not_make_the_next_mistake_french():
    assert assert_user_error(run("games", "show", "--lang", "fr")).startswith("erreur\u00a0: ")
    line = assert_user_error(run("odds", WANKUL, "--game", "wankul"), "missing option --event")
    assert line.startswith("error: ")


def test_an_unusable_deckstat_lang_gives_an_english_error_line():
    # click refuses the option before --lang's callback could refuse the environment.
    result = CliRunner().invoke(app, ["validate", str(WANKUL), "--bogus"], env={"DECKSTAT_LANG": "tlh"})
    assert assert_user_error(result, "no such option --bogus").startswith("error: ")


def test_a_control_character_in_a_bad_value_is_shown_not_obeyed():
    result = run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--precision", "\x1b[31mred")
    line = assert_user_error(result, "--precision")
    assert "\x1b" not in line


def test_outside_standalone_mode_the_exit_code_is_returned():
    from typer.main import get_command

    group = get_command(app)
    assert group.main(["odds", "--bogus"], prog_name="deckstat", standalone_mode=False) == 2
    assert group.main(["--version"], prog_name="deckstat", standalone_mode=False) == 0


#: Options of each kind click reads itself, with how a value it refuses is described.
READ_BY_CLICK = {"--mulligan-limit": "is not a whole number", "--precision": "is not a number",
                 "--seat": "is not one of: both, first, second"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(option=st.sampled_from(sorted(READ_BY_CLICK)),
       value=st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=12))
def test_any_value_of_an_option_click_reads_is_one_line_and_code_2(option, value, tmp_path):
    # The deck does not exist: a value click accepts reaches the command, which refuses the deck instead.
    missing = tmp_path / "no-such-deck.csv"
    result = run("odds", missing, "--game", "wankul", "-e", "Terrain>=1", option, value)
    line = assert_user_error(result)
    if "no-such-deck.csv" not in line:
        assert line.startswith(f"error: {option}: ") and READ_BY_CLICK[option] in line, (value, line)
        assert line.endswith("; see 'deckstat odds --help'"), line
