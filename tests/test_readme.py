"""The README's examples run as written, on the sample decks of ``data/``."""

from __future__ import annotations

import re
import shlex

import matplotlib
import pytest
from helpers import DATA, ROOT, assert_no_crash, run

README = (ROOT / "README.md").read_text(encoding="utf-8")

#: The file names the README uses for a reader's own decks, and the sample that stands in for each.
STAND_INS = {
    "my_deck.csv": DATA / "wankul" / "sample_deck.csv",
    "mon_deck.csv": DATA / "wankul" / "sample_deck_fr.csv",
    "deck_v1.csv": DATA / "wankul" / "sample_deck.csv",
    "deck_v2.csv": DATA / "wankul" / "sample_deck_v2.csv",
    "other.csv": DATA / "wankul" / "sample_deck_v2.csv",
    "dm_deck.csv": DATA / "duel-masters" / "sample_deck.csv",
    "runs/tournament.toml": ROOT / "runs" / "tournament.toml",
    "data/wankul/pool.csv": DATA / "wankul" / "pool.csv",
}


def _commands() -> list[str]:
    """Every ``deckstat …`` command of the README: lines of code blocks and inline code spans."""
    found = []
    for block in re.findall(r"```\n(.*?)```", README, flags=re.S):
        found += [line for line in block.splitlines() if line.startswith("deckstat ")]
    found += re.findall(r"`(deckstat [^`]+)`", README)
    commands = []
    for line in found:
        line = re.sub(r"\s+#.*$", "", line).strip()  # a trailing comment
        if re.search(r"<[a-z_]+>", line):  # a placeholder such as <game>
            continue
        if line not in commands:
            commands.append(line)
    return commands


COMMANDS = _commands()


def test_the_readme_has_examples():
    assert len(COMMANDS) >= 15


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_command_runs(command, tmp_path, monkeypatch):
    if command.startswith("deckstat explore"):
        pytest.skip("serves a page until stopped; tests/test_explorer_page.py drives it in a browser")
    monkeypatch.chdir(tmp_path)
    args = [str(STAND_INS.get(arg, arg)) for arg in shlex.split(command)[1:]]
    result = run(*args)
    assert_no_crash(result)
    assert result.exit_code == 0, f"{command}\n{result.output}"


def test_readme_python_example_runs(monkeypatch):
    matplotlib.use("Agg")
    block = re.search(r"```python\n(.*?)```", README, flags=re.S).group(1)
    monkeypatch.chdir(ROOT)
    exec(compile(block, "README.md", "exec"), {})


def test_the_set_up_commands_install_what_their_job_needs():
    first, second = re.search(r"```\n(.*?)```", README, flags=re.S).group(1).splitlines()[:2]
    # The report needs no extra; the tests need the test extra.
    assert re.search(r"pip install -q -e \. ", first) and "deckstat report" in first
    assert 'pip install -q -e ".[test]"' in second and "pytest" in second
