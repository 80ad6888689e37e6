"""Tables drawn without rich are drawn as rich draws them: rich itself is the reference.

deckstat writes its tables itself where rich would only place characters (a pipe, a file, a plain terminal),
so that listing the games does not pay for importing rich's console. Every table shape the layout makes
(both styles, headers or none, lines between rows, cells of several lines, every justification, wide
characters) is drawn both ways and compared byte for byte, on a terminal (bold headers) and off one.
"""

from __future__ import annotations

import builtins
import io
import os
import subprocess
import sys

import pytest
from helpers import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console

from deckstat.cli.drawing import DrawnTable, PlainConsole, plain_console, terminal_width
from deckstat.cli.layout import BOXED, COMPACT

#: Words of every width class: ASCII, accented, wide (two cells each), a no-break space, an escaped control.
WORDS = st.sampled_from(["a", "Terrain", "é", "Épée", "93,8\u00a0%", "ル", "ドラゴン", "≥", "±", "\\x1b", "", " ", "1"])


def _cell_lines(width: int):
    """Lines that fit ``width`` cells, as the layout hands them over (wrapped already)."""
    line = st.lists(WORDS, max_size=4).map(" ".join).filter(lambda text: cell_len(text) <= width)
    return st.lists(line, min_size=1, max_size=3).map("\n".join)


@st.composite
def tables(draw):
    n = draw(st.integers(0, 5))
    widths = draw(st.lists(st.integers(1, 12), min_size=n, max_size=n))
    n_rows = draw(st.integers(0, 4))
    style = draw(st.sampled_from([BOXED, COMPACT]))
    return DrawnTable(headers=[draw(_cell_lines(w)) for w in widths],
                      rows=[[draw(_cell_lines(w)) for w in widths] for _ in range(n_rows)],
                      widths=widths, justify=draw(st.lists(st.sampled_from(["left", "right", "center"]),
                                                           min_size=n, max_size=n)),
                      show_header=draw(st.booleans()), show_lines=draw(st.booleans()), **style.table)


def _rich(table: DrawnTable, terminal: bool) -> str:
    console = Console(file=io.StringIO(), width=100_000, markup=False, emoji=False, highlight=False,
                      force_terminal=terminal, color_system="standard" if terminal else None, legacy_windows=False)
    console.print(table, soft_wrap=False)
    return console.file.getvalue()


@settings(max_examples=300, deadline=None)
@given(table=tables(), terminal=st.booleans())
def test_a_table_is_drawn_as_rich_draws_it(table, terminal):
    written = io.StringIO()
    PlainConsole(written, "utf-8", is_terminal=terminal).print(table, soft_wrap=False)
    assert written.getvalue() == _rich(table, terminal)


@settings(max_examples=100, deadline=None)
@given(text=st.text(st.characters(codec="utf-8"), max_size=30))
def test_a_sentence_is_written_as_rich_writes_it(text):
    from deckstat.cli.drawing import rich_stdout
    from deckstat.cli.options import print_text

    plain, reference = io.StringIO(), io.StringIO()
    print_text(PlainConsole(plain, "utf-8", is_terminal=False), text)
    print_text(rich_stdout(reference), text)
    assert plain.getvalue() == reference.getvalue()
    # Control characters are shown, never obeyed, nor dropped unseen.
    assert not any(ord(c) < 32 and c not in "\n\t" for c in plain.getvalue().replace("\n", ""))


def test_a_table_with_a_tab_is_left_to_rich():
    # rich widens a tab to the next multiple of 8 cells; what it prints is what deckstat prints.
    table = DrawnTable(["a\tb"], [["x"]], [9], ["left"])
    written = io.StringIO()
    PlainConsole(written, "utf-8", is_terminal=False).print(table, soft_wrap=False)
    assert written.getvalue() == _rich(table, terminal=False)


@pytest.fixture
def plain_environment(monkeypatch):
    """No variable rich reads, and no IPython in this process (a notebook test beside this one may have started one)."""
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "NO_COLOR", "JUPYTER_COLUMNS", "JUPYTER_LINES",
                 "DATABRICKS_RUNTIME_VERSION"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delattr(builtins, "get_ipython", raising=False)
    return monkeypatch


@pytest.mark.parametrize("environment, drawn_here", [
    ({}, True), ({"FORCE_COLOR": "1"}, False), ({"TTY_COMPATIBLE": "1"}, False), ({"TTY_INTERACTIVE": "0"}, False),
    ({"NO_COLOR": "1"}, True), ({"JUPYTER_COLUMNS": "120"}, False),
])
def test_rich_draws_wherever_its_reading_of_the_environment_matters(plain_environment, environment, drawn_here):
    for name, value in environment.items():
        plain_environment.setenv(name, value)
    stream = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    assert (plain_console(stream) is not None) is drawn_here
    legacy = io.TextIOWrapper(io.BytesIO(), encoding="cp1252")
    assert plain_console(legacy) is None  # rich's own characters for an encoding that lacks the box's


def test_rich_draws_under_ipython(plain_environment):
    # IPython puts get_ipython in the builtins; rich asks it whether this is a notebook.
    stream = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    assert plain_console(stream) is not None
    plain_environment.setattr(builtins, "get_ipython", lambda: None, raising=False)
    assert plain_console(stream) is None and terminal_width() is None


@pytest.mark.parametrize("columns", [None, "100", "37", "x", "0"])
def test_the_width_is_the_one_rich_would_take(plain_environment, columns):
    plain_environment.setenv("TERM", "xterm")
    if columns is None:
        plain_environment.delenv("COLUMNS", raising=False)
    else:
        plain_environment.setenv("COLUMNS", columns)
    width = terminal_width()
    assert width is None and columns == "0" or width == Console().width


@pytest.mark.parametrize("command", [["games"], ["games", "show", "wankul"]])
def test_the_game_listings_load_no_rich_console_and_print_what_rich_prints(command):
    # In fresh processes (this one has rich loaded). FORCE_COLOR="" leaves the drawing to rich, plain still.
    code = ("import sys\n"
            "from deckstat.cli import main\n"
            f"sys.argv = ['deckstat', *{command!r}]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('rich.') and m != 'rich.cells'"
            " and not m.startswith('rich._')), file=sys.stderr)\n")
    environment = {name: value for name, value in os.environ.items()
                   if name not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")}
    drawn = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                            env={**environment, **extra, "COLUMNS": "80"}) for extra in ({}, {"FORCE_COLOR": ""})]
    assert drawn[0].stderr.strip() == "[]"
    assert "rich.console" in drawn[1].stderr
    assert drawn[0].stdout == drawn[1].stdout and "│" in drawn[0].stdout
