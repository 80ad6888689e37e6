"""Tables laid out for the width they are printed in: columns chosen, headers abbreviated, never a number split.

A table is first described as a :class:`Grid` of text columns, each with
the identifiers it shows (the names of ``--format csv``), how much it
matters (:attr:`Column.rank`) and, where useful, an abbreviated header.
:func:`lay_out` then makes the tables that fit a width (:class:`~deckstat.cli.drawing.DrawnTable`):

1. every column, boxed, its headers whole, then abbreviated (explained once
   under the table); then the same without the box's lines, which takes two
   cells a column instead of three;
2. if that is still too wide, the least useful columns go, highest rank
   first, and a footnote names them with ``--wide`` and ``--columns``;
3. if even the columns that are never dropped (the answer, its interval) do
   not fit, the table is printed in parts, its row labels repeated in each.

Cells that hold numbers never wrap: a column is as wide as its widest
number, so that ``93,8 %``, ``≈ 24.66`` or a ``◀`` stay on their line.
Text (card names, rules, headers) wraps at spaces only: a French no-break
space (``87,3 %``, ``1 000``) and the spaces of ``± 0.07%``, ``[1.2%, 3.4%]``
and ``+3.6 pp`` hold their neighbours together.

The columns chosen depend on the widths of both languages, so that a table
shows the same columns in English and in French, and ``--columns`` takes a
column's identifier or its header in either language.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rich.cells import cell_len, chop_cells

from deckstat.cli.drawing import DEFAULT_WIDTH, DrawnTable
from deckstat.errors import DeckstatError
from deckstat.i18n import tr
from deckstat.text import fold_key

#: The narrowest a text column goes for a word longer than this (a file name): the word is cut, at the width.
TEXT_FLOOR = 24


@dataclass
class Column:
    r"""One column of a :class:`Grid`, its cells already written in the current language.

    Attributes
    ----------
    header : str
        The header as printed; ``\\n`` marks where it prefers to break.
    cells : list of str
        One cell per row.
    names : tuple of str
        The identifiers the column shows, as ``--format csv`` and ``--columns`` name them (``p_flood_in_hand``).
    short : str, optional
        An abbreviated header, used when the whole one leaves too little room.
    meaning : str, optional
        What ``short`` stands for, in the legend under the table (default: the header on one line).
    rank : float
        0: always shown (row labels, the answer and its interval); above 0: dropped when the table is too wide,
        the highest first.
    justify : {"right", "left", "center"}
    text : bool
        Words that may wrap at spaces (names, rules); numbers never wrap.
    key : bool
        A row label, repeated in each part of a table printed in parts, and shown whatever ``--columns`` says.
    block : str, optional
        Columns of one block (an event's) stay in the same part of a table printed in parts, where they fit.
    """

    header: str
    cells: list[str]
    names: tuple[str, ...] = ()
    short: str | None = None
    meaning: str | None = None
    rank: float = 0
    justify: str = "right"
    text: bool = False
    key: bool = False
    block: str | None = None


@dataclass
class Grid:
    """A table before it is laid out: its columns, a line above it and lines under it (what its marks mean).

    ``header``: whether the column headers are shown (a table of labels and values has none).
    """

    columns: list[Column]
    title: str | None = None
    notes: list[str] = field(default_factory=list)
    header: bool = True

    def add(self, header: str, cells: Iterable[object], **options) -> Column:
        """Append a column of ``cells`` (written with ``str``) and return it; text reads from the left."""
        if options.get("text") and "justify" not in options:
            options["justify"] = "left"
        column = Column(header, [str(c) for c in cells], **options)
        self.columns.append(column)
        return column


@dataclass(frozen=True)
class Layout:
    """How tables are laid out.

    ``width``: the cells a line may take (None: ``--wide``, every column whatever the width); ``columns``: the
    ``--columns`` asked for (none: the columns chosen for the width).
    """

    width: int | None = DEFAULT_WIDTH
    columns: tuple[str, ...] = ()


# ----- text that wraps at spaces, never inside a number -----

#: A space that does not break: after ``±``, ``<``, ``>``, ``≈``, before ``±``, ``pp``, ``pts``, ``%``.
_HELD = re.compile(r"(?<=[±<>≈]) | (?=±|pp\b|pts\b|%)")
#: A bare number, which keeps the word after it on its line.
_NUMBER = re.compile(r"[+\-−]?\d[\d.,\u00a0]*")


def pieces(line: str) -> list[str]:
    r"""The parts of a line that never break: words between breakable spaces, intervals ``[…]`` whole.

    Examples
    --------
    >>> pieces("87.34% ± 0.07% at [1.2%, 3.4%] +3.6 pp")
    ['87.34% ± 0.07%', 'at', '[1.2%, 3.4%]', '+3.6 pp']
    >>> pieces("P(Terrain>=1) 93,8\u00a0% < 0.1%")
    ['P(Terrain>=1)', '93,8\xa0%', '< 0.1%']
    >>> pieces("8 in 50 cards")
    ['8 in', '50 cards']
    """
    found, current, depth = [], "", 0
    for index, character in enumerate(line):
        # A number keeps the word after it ("5 copies", "8 in 50 cards"): no break after a bare number.
        if character == " " and depth == 0 and not _HELD.match(line, index) and not _NUMBER.fullmatch(
                current.rsplit(" ", 1)[-1]):
            if current:
                found.append(current)
            current = ""
            continue
        current += character
        if character == "[" and "]" in line[index + 1:]:
            depth += 1
        elif character == "]" and depth:
            depth -= 1
    if current:
        found.append(current)
    return found


def wrap(text: str, width: int, fold: bool = False) -> list[str]:
    r"""``text`` on lines of at most ``width`` cells, broken at spaces only (see :func:`pieces`).

    A piece wider than ``width`` (a long file name) stays whole on a line of its own, or with ``fold`` is cut
    into lines of ``width`` cells (text only: numbers are never that wide). Line breaks in ``text`` are kept.

    Examples
    --------
    >>> wrap("P(Terrain in hand)", 10)
    ['P(Terrain', 'in hand)']
    >>> wrap("recommandé : 12 cartes, 95,4\u00a0% ± 0,1\u00a0%", 16)
    ['recommandé :', '12 cartes,', '95,4\xa0% ± 0,1\xa0%']
    >>> wrap("file data/a_very_long_name.csv", 10, fold=True)
    ['file', 'data/a_ver', 'y_long_nam', 'e.csv']
    """
    lines = []
    for paragraph in text.split("\n"):
        line = ""
        for whole in _pieces(paragraph):
            cut = chop_cells(whole, width) if fold and cell_len(whole) > width else [whole]
            if len(cut) > 1:
                if line:
                    lines.append(line)
                lines += cut[:-1]
                line = ""
                whole = cut[-1]
            piece = whole
            if line and cell_len(line) + 1 + cell_len(piece) > width:
                lines.append(line)
                line = piece
            else:
                line = f"{line} {piece}" if line else piece
        lines.append(line)
    return lines


@functools.lru_cache(maxsize=4096)
def _pieces(line: str) -> tuple[str, ...]:
    # A table's widths are chosen by wrapping its cells at width after width: a cell is cut into pieces once.
    return tuple(pieces(line))


@functools.lru_cache(maxsize=4096)
def _widest_piece(line: str) -> int:
    # Measured for every language and header form the widths are chosen for: each line once.
    return max((cell_len(p) for p in _pieces(line)), default=0)


def _widest(lines: Iterable[str]) -> int:
    return max((cell_len(line) for line in lines), default=0)


def _lines(cells: Iterable[str]) -> list[str]:
    return [line for cell in cells for line in cell.split("\n")]


# ----- measuring -----

@dataclass(frozen=True)
class _Style:
    """A table style and the cells it takes around ``n`` columns of content."""

    name: str
    table: dict

    def overhead(self, n: int) -> int:
        # Boxed: a line before each column and after the last, a space each side of each cell. Compact: no
        # lines, no outer edge; two spaces between columns.
        return 3 * n + 1 if self.name == "boxed" else 2 * max(n - 1, 0)


BOXED = _Style("boxed", {"box": "HEAVY_HEAD"})
COMPACT = _Style("compact", {"box": "SIMPLE_HEAD", "show_edge": False, "pad_edge": False,
                              "collapse_padding": True})


def _header(column: Column, short: bool) -> str:
    return column.short if short and column.short is not None else column.header


def _headless(grid: Grid) -> Grid:
    """``grid`` measured as it is shown: without its headers when it shows none."""
    if grid.header:
        return grid
    return Grid([dataclasses.replace(c, header="", short=None) for c in grid.columns], grid.title, grid.notes, False)


def _least(column: Column, short: bool, whole: bool = False) -> int:
    """The fewest cells ``column`` can be laid out in: its widest number, or its widest word.

    ``whole``: text cells on one line each, as numbers are (headers still wrap at spaces).
    """
    header = max(map(_widest_piece, _header(column, short).split("\n")), default=0)
    if column.text and not whole:
        # A word longer than the floor (a file name) may be cut; anything shorter is never.
        cells = min(max(map(_widest_piece, _lines(column.cells)), default=0),
                    max(TEXT_FLOOR, header))
    else:
        cells = _widest(_lines(column.cells))
    return max(header, cells, 1)


def _natural(column: Column, short: bool) -> int:
    """The cells ``column`` takes with nothing wrapped but where its header and cells ask for it."""
    return max(_widest(_header(column, short).split("\n")), _widest(_lines(column.cells)), 1)


def _fits(versions: Sequence[Grid], shown: list[int], style: _Style, short: bool, width: int,
          whole: bool = False) -> bool:
    """Whether the columns ``shown`` fit ``width`` in every language's version of the table."""
    return all(sum(_least(grid.columns[i], short, whole) for i in shown) + style.overhead(len(shown)) <= width
               for grid in versions)


def _height(columns: list[Column], widths: list[int]) -> int:
    """The lines the rows of ``columns`` take at ``widths`` (a row is as tall as its tallest cell)."""
    heights = [0] * max((len(c.cells) for c in columns), default=0)
    for column, w in zip(columns, widths):
        if column.text:
            for row, cell in enumerate(column.cells):
                heights[row] = max(heights[row], _line_count(cell, w))
    return sum(heights)


@functools.lru_cache(maxsize=4096)
def _line_count(cell: str, width: int) -> int:
    # _widths tries each text column a cell wider, time after time: the other columns' cells are wrapped again.
    return len(wrap(cell, width, fold=True))


def _widths(grid: Grid, shown: list[int], style: _Style, short: bool, width: int | None,
            whole: bool = False) -> list[int]:
    """The width of each shown column: natural where the table fits, else the least and what room is left.

    The room goes first to the headers of number columns (a header on one line), the narrowest need first,
    then to the row labels (each on one line), then, a cell at a time, to the text column where it saves the
    most lines.
    """
    columns = [grid.columns[i] for i in shown]
    natural = [_natural(c, short) for c in columns]
    if width is None or sum(natural) + style.overhead(len(columns)) <= width:
        return natural
    widths = [_least(c, short, whole) for c in columns]
    room = width - style.overhead(len(columns)) - sum(widths)
    for index in sorted((i for i, c in enumerate(columns) if not c.text), key=lambda i: natural[i] - widths[i]):
        given = min(room, natural[index] - widths[index])
        widths[index] += given
        room -= given
    labels = [i for i, c in enumerate(columns) if c.text and c.key]
    if sum(natural[i] - widths[i] for i in labels) <= room:
        for index in labels:
            room -= natural[index] - widths[index]
            widths[index] = natural[index]
    while room > 0:
        wanting = [i for i, c in enumerate(columns) if c.text and natural[i] > widths[i]]
        if not wanting:
            break
        if len(wanting) == 1:  # the only column that wants room takes what it wants, a cell at a time or at once
            given = min(room, natural[wanting[0]] - widths[wanting[0]])
            widths[wanting[0]] += given
            room -= given
            continue
        height = _height(columns, widths)
        # The column a cell more saves the most lines in, else the one furthest from its natural width.
        chosen = max(wanting, key=lambda i: (height - _height(columns, widths[:i] + [widths[i] + 1] + widths[i + 1:]),
                                             natural[i] - widths[i]))
        widths[chosen] += 1
        room -= 1
    return widths


def _table(grid: Grid, shown: list[int], style: _Style, short: bool, width: int | None,
           whole: bool = False) -> DrawnTable:
    """The table of the columns ``shown``, each at its width, its headers and text cells wrapped here."""
    widths = _widths(grid, shown, style, short, width, whole)
    columns = [grid.columns[i] for i in shown]
    several_lines = any(c.text and any(len(wrap(cell, w, fold=True)) > 1 for cell in c.cells)
                        for c, w in zip(columns, widths))
    # The header's own line breaks stay; a line too long for the column wraps at its spaces.
    headers = ["\n".join(line for part in _header(c, short).split("\n") for line in wrap(part, w))
               for c, w in zip(columns, widths)]
    rows = [["\n".join(wrap(cell, w, fold=True)) if c.text else cell for cell, c, w in zip(row, columns, widths)]
            for row in (zip(*[c.cells for c in columns]) if columns else [])]
    # Boxed rows of several lines are told apart by a line between them, unless the first column alone labels
    # each row (a table of labels and values); without the box, a row's first line is where its numbers are.
    # The widths are set here, and every line fits its width: nothing is wrapped or cut when it is drawn.
    return DrawnTable(headers, rows, widths, [c.justify for c in columns], show_header=grid.header,
                      show_lines=several_lines and len(columns) > 2 and style is BOXED, **style.table)


# ----- choosing the columns -----

def _legend(grid: Grid, shown: list[int]) -> str | None:
    """What the abbreviated headers shown stand for, on one line."""
    parts = [tr("{short}: {meaning}", short=_one_line(c.short),
                meaning=_one_line(c.meaning or c.header)) for c in (grid.columns[i] for i in shown)
             if c.short is not None]
    return tr("abbreviations: {list}", list=tr("; ").join(parts)) if parts else None


def _one_line(text: str) -> str:
    return " ".join(text.split("\n"))


def _dropped_note(grid: Grid, dropped: list[int]) -> str | None:
    if not dropped:
        return None
    names = ", ".join(_one_line(grid.columns[i].header) for i in sorted(dropped))
    return tr("not shown for the width: {columns} (--wide shows every column, --columns picks them)",
              columns=names)


def _parts(versions: Sequence[Grid], shown: list[int], width: int) -> list[list[int]]:
    """The columns ``shown`` in parts that fit ``width``, each with the row labels; a block's columns together."""
    columns = versions[0].columns
    keys = [i for i in shown if columns[i].key]
    blocks: list[list[int]] = []
    for index in (i for i in shown if i not in keys):
        if blocks and columns[index].block is not None and columns[blocks[-1][-1]].block == columns[index].block:
            blocks[-1].append(index)
        else:
            blocks.append([index])
    parts, current = [], []
    for block in blocks:
        if current and not _fits(versions, keys + current + block, COMPACT, True, width):
            parts.append(keys + current)
            current = []
        for index in block:  # a block wider than a part is cut where it must
            if current and not _fits(versions, keys + current + [index], COMPACT, True, width):
                parts.append(keys + current)
                current = []
            current.append(index)
    if current or not parts:
        parts.append(keys + current)
    return parts


def choose(versions: Sequence[Grid], width: int | None, picked: Sequence[int] | None = None
           ) -> tuple[list[list[int]], _Style, bool, list[int], bool]:
    """How a table is laid out for ``width``.

    Returns its parts (column indices), style, whether headers are short, the columns dropped, and whether
    text stays on one line.

    ``versions`` are the same table in each language (same columns, same order). ``picked``: the columns
    ``--columns`` asked for (the row labels are added); they are never dropped.
    """
    grid = versions[0]
    everything = list(range(len(grid.columns)))
    shown = everything if picked is None else [i for i in everything if grid.columns[i].key or i in picked]
    if width is None:
        return [shown], BOXED, False, [], True
    droppable = [] if picked is not None else sorted(
        (i for i in shown if grid.columns[i].rank > 0 and not grid.columns[i].key),
        key=lambda i: (-grid.columns[i].rank, -i))
    shorts = any(grid.columns[i].short is not None for i in shown)
    texts = any(grid.columns[i].text for i in shown)
    for n_dropped in range(len(droppable) + 1):
        dropped = droppable[:n_dropped]
        kept = [i for i in shown if i not in dropped]
        # Text on one line where it can be; else wrapped at spaces, before a column is left out.
        for whole in (True, False) if texts else (False,):
            for style in (BOXED, COMPACT):
                for short in (False, True) if shorts else (False,):
                    if _fits(versions, kept, style, short, width, whole):
                        return [kept], style, short, dropped, whole
    kept = [i for i in shown if i not in droppable]
    return _parts(versions, kept, width), COMPACT, shorts, droppable, False


def shown_as(grid: Grid, rewrite: Callable[[str, bool], str]) -> Grid:
    r"""``grid`` with its text as the terminal will show it (``rewrite(text, is_cell)``), so that it is measured so.

    Control characters are shown as escapes (``\x1b``) and characters the output's encoding lacks in plain
    ones (``≥`` as ``>=``, a ``✓`` cell as ``yes``): both change widths.
    """
    def each(column: Column) -> Column:
        return dataclasses.replace(
            column, header=rewrite(column.header, False), cells=[rewrite(c, True) for c in column.cells],
            short=None if column.short is None else rewrite(column.short, False),
            meaning=None if column.meaning is None else rewrite(column.meaning, False))

    return Grid([each(c) for c in grid.columns], None if grid.title is None else rewrite(grid.title, False),
                [rewrite(n, False) for n in grid.notes], grid.header)


def lay_out(versions: Mapping[str, Grid], lang: str, layout: Layout, picked: Sequence[int] | None = None,
            rewrite: Callable[[str, bool], str] | None = None) -> list[DrawnTable | str]:
    """What to print for one table in ``lang``: its title, its table (or parts) and the lines under it.

    ``versions`` maps each language to the table written in it; the choice of columns is the same in all.
    ``rewrite`` is how the terminal will show text (:func:`shown_as`).
    """
    if rewrite is not None:
        versions = {language: shown_as(g, rewrite) for language, g in versions.items()}
    grid = _headless(versions[lang])
    ordered = [grid] + [_headless(g) for language, g in versions.items() if language != lang and _same_shape(g, grid)]
    parts, style, short, dropped, whole = choose(ordered, layout.width, picked)
    shown: list[DrawnTable | str] = []
    if grid.title:
        shown.append(_paragraph(grid.title, layout.width))
    for part in parts:
        shown.append(_table(grid, part, style, short, layout.width, whole))
    legend = _legend(grid, sorted({i for part in parts for i in part})) if short else None
    for line in (legend, _dropped_note(grid, dropped), *grid.notes):
        if line:
            shown.append(_paragraph(line, layout.width))
    return shown


def _same_shape(one: Grid, other: Grid) -> bool:
    return len(one.columns) == len(other.columns) and all(
        len(a.cells) == len(b.cells) for a, b in zip(one.columns, other.columns))


def _paragraph(text: str, width: int | None) -> str:
    """``text`` wrapped at ``width`` (at spaces only), or as it is with ``--wide``."""
    return text if width is None else "\n".join(wrap(text, width))


# ----- --columns -----

def _names(versions: Mapping[str, Grid], index: int) -> list[str]:
    """Every name column ``index`` answers to: its identifiers and its headers, whole and short, in each language."""
    names = []
    for grid in versions.values():
        column = grid.columns[index]
        names += [*column.names, _one_line(column.header)] + ([_one_line(column.short)] if column.short else [])
    return list(dict.fromkeys(names))


def pick_columns(tables: Sequence[Mapping[str, Grid]], asked: Sequence[str]) -> list[list[int] | None]:
    """The columns of each table that ``--columns`` names (None: a table none of whose columns it names).

    A name matches a column's identifier or its header in either language, without regard to case, accents,
    spaces, ``_`` or ``-``; a name may match several columns (``p``: every probability column). A name
    that no column of any table answers to is an error naming the closest one.

    Raises
    ------
    DeckstatError
        A name no column answers to.
    """
    keyed = [[{fold_key(name) for name in _names(versions, i)}
              for i in range(len(next(iter(versions.values())).columns))] for versions in tables]
    every: dict[str, str] = {}
    for versions in tables:  # identifiers first: the name a suggestion gives
        for i in range(len(next(iter(versions.values())).columns)):
            for name in _names(versions, i):
                every.setdefault(fold_key(name), name)
    picked: list[set[int]] = [set() for _ in tables]
    for name in _joined(asked, every):
        key = fold_key(name)
        hits = [(t, i) for t, columns in enumerate(keyed) for i, names in enumerate(columns) if key in names]
        if not hits:
            close = difflib.get_close_matches(key, list(every), n=1, cutoff=0.5)
            hint = tr("; did you mean {name!r}?", name=every[close[0]]) if close else ""
            raise DeckstatError(tr("--columns: no column is named {name!r}{hint}", name=name, hint=hint))
        for t, i in hits:
            picked[t].add(i)
    return [sorted(found) if found else None for found in picked]


def _joined(asked: Sequence[str], every: Mapping[str, str]) -> list[str]:
    """The names of ``--columns a,b --columns c``, a header holding a comma taken whole when it is one."""
    split = [part.strip() for text in asked for part in text.split(",")]
    names, index = [], 0
    while index < len(split):
        # The longest run of parts that is a header with commas in it, else the part alone.
        for end in range(len(split), index, -1):
            candidate = ", ".join(split[index:end])
            if end == index + 1 or fold_key(candidate) in every:
                break
        if candidate:
            names.append(candidate)
        index = end
    return names
