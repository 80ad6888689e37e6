"""Tables and sentences written to stdout, drawn here where rich would only lay characters side by side.

The tables deckstat prints are laid out before they are drawn (:mod:`deckstat.cli.layout` sets every column's
width and wraps every cell), so drawing them is placing box characters and spaces. Where stdout is a pipe, a
file or a plain terminal in a Unicode encoding, :func:`plain_console` writes them itself, character for
character as rich writes them (its header in bold on a terminal), without importing rich, whose console and
tables cost about half of what importing typer costs (``deckstat games`` lists five profiles). Anywhere else (a
legacy encoding, Windows, IPython or Jupyter, ``FORCE_COLOR`` or ``TTY_COMPATIBLE``, a text with tabs) rich draws
them.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import IO

from rich.cells import cell_len

from deckstat.cli.terminal import is_unicode, safe_text

#: What a pipe or a file is laid out for (a terminal has its own width; ``$COLUMNS`` overrides both).
DEFAULT_WIDTH = 80

#: Box characters, eight lines of four (rich's layout of a box): top; header row; line under the header; body
#: row; line between rows; line above a footer; last row; bottom. Each line: left, fill, divider, right.
BOXES = {
    "HEAVY_HEAD": ("┏━┳┓", "┃ ┃┃", "┡━╇┩", "│ ││", "├─┼┤", "├─┼┤", "│ ││", "└─┴┘"),
    "SQUARE": ("┌─┬┐", "│ ││", "├─┼┤", "│ ││", "├─┼┤", "├─┼┤", "│ ││", "└─┴┘"),
    "SIMPLE_HEAD": ("    ", "    ", " ── ", "    ", "    ", "    ", "    ", "    "),
}
#: The box a table without headers is drawn in (a heavy line under headers it does not show would be wrong).
WITHOUT_HEADER = {"HEAVY_HEAD": "SQUARE"}
_BOLD, _RESET = "\x1b[1m", "\x1b[0m"


@dataclass(frozen=True)
class DrawnTable:
    r"""A table whose every cell is already wrapped to its column's width: what to draw, and how.

    Attributes
    ----------
    headers : list of str
        Each column's header, ``\n`` between its lines.
    rows : list of list of str
        The cells, row by row, ``\n`` between a cell's lines.
    widths : list of int
        Each column's width in terminal cells, not counting its padding.
    justify : list of str
        ``"left"``, ``"right"`` or ``"center"``, per column.
    box : str
        A key of :data:`BOXES`.
    show_header, show_edge, show_lines : bool
        Whether the headers, the outer frame and a line between rows are drawn.
    pad_edge, collapse_padding : bool
        rich's: a space before the first and after the last column; one space, not two, between columns.
    """

    headers: list[str]
    rows: list[list[str]]
    widths: list[int]
    justify: list[str]
    box: str = "HEAVY_HEAD"
    show_header: bool = True
    show_edge: bool = True
    show_lines: bool = False
    pad_edge: bool = True
    collapse_padding: bool = False

    @property
    def columns(self) -> list[str]:
        """The headers (a table has columns; a sentence has none)."""
        return self.headers

    def __rich__(self):
        """The same table as rich's :class:`~rich.table.Table`, for a console that draws it."""
        from rich import box
        from rich.table import Table
        from rich.text import Text

        table = Table(padding=(0, 1), box=getattr(box, self.box), show_header=self.show_header,
                      show_edge=self.show_edge, show_lines=self.show_lines, pad_edge=self.pad_edge,
                      collapse_padding=self.collapse_padding)
        for header, width, justify in zip(self.headers, self.widths, self.justify):
            table.add_column(Text(header), justify=justify, width=width, no_wrap=True)
        for row in self.rows:
            table.add_row(*[Text(cell) for cell in row])
        return table

    def texts(self) -> list[str]:
        """Every text the table holds, headers and cells."""
        return [*self.headers, *(cell for row in self.rows for cell in row)]

    def lines(self, bold: bool = False) -> list[str]:
        """The table's lines as rich draws them (``bold``: on a terminal, its headers in bold)."""
        if not self.widths:
            return [""]
        box = BOXES[self.box if self.show_header else WITHOUT_HEADER.get(self.box, self.box)]
        n = len(self.widths)
        # Each column's padding, left and right, as rich gives it: one space each side, the edges and the
        # collapsed gaps without theirs.
        pads = []
        for index in range(n):
            left = 1 if index == 0 or not self.collapse_padding else 0
            right = 1
            if not self.pad_edge:
                left = 0 if index == 0 else left
                right = 0 if index == n - 1 else right
            pads.append((left, right))
        spans = [width + left + right for width, (left, right) in zip(self.widths, pads)]

        def rule(line: str) -> str:
            left, fill, divider, right = line
            drawn = divider.join(fill * span for span in spans)
            return left + drawn + right if self.show_edge else drawn

        out = []
        if self.show_edge:
            out.append(rule(box[0]))
        rows = ([(self.headers, True)] if self.show_header else []) + [(row, False) for row in self.rows]
        for index, (cells, header) in enumerate(rows):
            first, last = index == 0, index == len(rows) - 1
            frame = box[1] if first else box[6] if last else box[3]
            shaped = [self._cell(text, width, justify, pad, header)
                      for text, width, justify, pad in zip(cells, self.widths, self.justify, pads)]
            height = max(len(cell) for cell in shaped)
            style = bold and header
            for line_no in range(height):
                parts = []
                for cell, span in zip(shaped, spans):
                    # A header's lines sit at the bottom of its row, a cell's at the top (rich's).
                    missing = height - len(cell)
                    at = line_no - missing if header else line_no
                    if 0 <= at < len(cell):
                        parts.append("".join(_styled(piece, style) for piece in cell[at]))
                    else:
                        parts.append(_styled(" " * span, style))
                joined = frame[2].join(parts)
                out.append(frame[0] + joined + frame[3] if self.show_edge else joined)
            if header:
                out.append(rule(box[2]))
            elif self.show_lines and not last:
                out.append(rule(box[4]))
        if self.show_edge:
            out.append(rule(box[7]))
        return out

    @staticmethod
    def _cell(text: str, width: int, justify: str, pad: tuple[int, int], header: bool) -> list[list[str]]:
        """Each line of one cell as its pieces: the left padding, the text justified in ``width``, the right."""
        lines = []
        for line in text.split("\n"):
            if justify != "left":
                line = line.rstrip()
            room = width - cell_len(line)
            if justify == "right":
                line = " " * room + line
            elif justify == "center":
                line = " " * (room // 2) + line + " " * (room - room // 2)
            else:
                line += " " * room
            lines.append([" " * pad[0], line, " " * pad[1]])
        return lines


def rich_stdout(file: IO[str]):
    """The rich console deckstat prints to ``file`` with, where it does not draw itself."""
    from rich.console import Console

    from deckstat.cli.terminal import SafeCharacters, plain_console_hooks

    # No rich markup ("[civilization=Feu]"), no emoji codes (":smile:") and no highlighting; as wide as any table
    # (they are laid out before they reach it).
    console = Console(file=file, soft_wrap=False, width=_UNLIMITED, markup=False, emoji=False, highlight=False)
    # Card names and profile text are data: their control characters (ESC, BEL…) are shown, never obeyed.
    console.push_render_hook(SafeCharacters())
    for hook in plain_console_hooks(console.encoding):
        console.push_render_hook(hook)
    return console


#: The width of the console tables are printed on: more than any table takes.
_UNLIMITED = 100_000


def rich_text(text: str):
    """``text`` as rich's Text, its control characters escaped first (Text would drop BEL, BS and CR unseen)."""
    from rich.text import Text

    return Text(safe_text(text))


def _styled(text: str, bold: bool) -> str:
    return f"{_BOLD}{text}{_RESET}" if bold and text else text


class PlainConsole:
    """Writes sentences and :class:`DrawnTable` to a text stream as rich's console would, without rich.

    Attributes
    ----------
    file : text stream
    encoding : str
    is_terminal : bool
        Whether the stream is a terminal (its headers are then bold, and its sentences wrap at its width).
    """

    def __init__(self, file: IO[str], encoding: str, is_terminal: bool) -> None:
        self.file = file
        self.encoding = encoding
        self.is_terminal = is_terminal
        self._rich = None

    def print(self, item: object, soft_wrap: bool = True) -> None:
        """Write a sentence (its control characters as escapes) or a table, and a line feed."""
        table = isinstance(item, DrawnTable)
        if any("\t" in text for text in (item.texts() if table else [str(item)])):
            # rich widens a tab to the next multiple of 8 cells, as it measures it: rich draws those.
            self._rich_console().print(item if table else rich_text(str(item)), soft_wrap=soft_wrap)
            return
        lines = item.lines(bold=self.is_terminal) if table else [safe_text(str(item))]
        self.file.write("".join(line + "\n" for line in lines))
        self.file.flush()

    def _rich_console(self):
        if self._rich is None:
            self._rich = rich_stdout(self.file)
        return self._rich


def _rich_decides() -> bool:
    """Whether rich reads this environment otherwise than a plain stream: Windows, IPython or Jupyter, IDLE."""
    import builtins

    # IPython puts get_ipython in the builtins; rich then asks it whether it is a notebook (no terminal, HTML).
    return (sys.platform.startswith("win") or hasattr(builtins, "get_ipython")
            or any(name in os.environ for name in ("JUPYTER_COLUMNS", "JUPYTER_LINES", "DATABRICKS_RUNTIME_VERSION"))
            or getattr(sys.stdin, "__module__", "").startswith("idlelib"))


def _dumb_terminal() -> bool:
    """Whether ``$TERM`` names a terminal rich draws nothing fancy on (nor measures)."""
    return os.environ.get("TERM", "").lower() in ("dumb", "unknown")


def plain_console(stream: IO[str] | None = None) -> PlainConsole | None:
    """A :class:`PlainConsole` for ``stream`` (stdout), or None where rich must draw.

    rich styles a terminal's output and reads environment variables to decide what is one; deckstat draws
    itself only where that reading is plain: no ``FORCE_COLOR``, ``TTY_COMPATIBLE`` or ``TTY_INTERACTIVE``,
    not Windows, IPython or IDLE, a Unicode encoding, and a terminal that is not ``TERM=dumb``.
    """
    stream = sys.stdout if stream is None else stream
    encoding = getattr(stream, "encoding", None) or "utf-8"
    if (_rich_decides() or not is_unicode(encoding)
            or any(name in os.environ for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"))):
        return None
    try:
        terminal = bool(stream.isatty())
    except (AttributeError, ValueError):
        terminal = False
    if terminal and _dumb_terminal():
        return None
    return PlainConsole(stream, encoding, terminal)


def terminal_width() -> int | None:
    """The width rich's console takes: ``$COLUMNS``, else the terminal of stdin, stdout or stderr, else 80.

    None where rich must say (Windows, IPython, ``TERM=dumb``, a ``$COLUMNS`` of 0).
    """
    if _rich_decides():
        return None
    if _dumb_terminal():
        return None
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns) or None
    for descriptor in (0, 1, 2):
        try:
            width = os.get_terminal_size(descriptor).columns
        except (AttributeError, ValueError, OSError):
            continue
        return width or DEFAULT_WIDTH
    return DEFAULT_WIDTH

