"""Load card tables from CSV files and plain-text decklists.

A card table has one row per distinct card: ``name``, ``count``, ``type`` and
any other columns as attributes. French spreadsheets are common among our
users, so the loader accepts ``,``, ``;`` and tab delimiters, UTF-8 (with or
without BOM) and cp1252, decimal commas, and French or English headers.

The standard :mod:`csv` module parses the file (rather than
``pandas.read_csv``) because every error must name the physical line it is on,
which ``csv.reader.line_num`` gives even with quoted multi-line cells.
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import math
import re
import unicodedata
from pathlib import Path

import pandas as pd

from deckstat._input import read_input_bytes
from deckstat.deck import MAX_COPIES, Deck, deck_name_columns, is_missing, names_decks
from deckstat.errors import DeckstatError, param
from deckstat.i18n import N_, NBSP, get_language, number, tr, trn
from deckstat.notes import collect_notes as collect_notes  # public here too; the command line takes it from notes
from deckstat.notes import publish as _publish
from deckstat.schema import (
    AMBIGUOUS_HEADERS,
    COLUMN_ALIASES,
    COUNT_OR_NUMBER_HEADERS,
    FALSE_WORDS,
    PRINTING_COLUMNS,
    TEXT_COLUMNS,
    TRUE_WORDS,
    WHOLE_NUMBER_COLUMNS,
    canonical_column,
    canonical_columns,
    count_column_lookalike,
    header_key,
    may_be_count_header,
    name_readings,
    printing_matches,
    printing_text,
)
from deckstat.terms import MOST_CARD_COLUMNS, MOST_CARD_FILE_BYTES, MOST_CARD_ROWS
from deckstat.text import clean_name, closest, fold, is_file, suggest

_NUMBER = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)$")
_LIST_SEPARATOR = ";"
_DELIMITERS = (",", ";", "\t")
#: Excel's first line naming the delimiter (``sep=;``), written by its exports and read by it, not data.
_EXCEL_SEP = re.compile(r"\Asep=([,;\t]) *(?:\r\n|\r|\n)", re.IGNORECASE)
#: Names of the rows spreadsheets add under a deck to sum it up (compared with :func:`fold`).
TOTAL_ROW_NAMES = {"total", "totaux", "sous-total", "sous total", "total general", "grand total", "somme", "sum"}
#: Integers beyond this magnitude are not exact as floats; such a column stays float.
_MAX_EXACT_INT = 2**53


def _read_text(path: Path, notes: list[str] | None = None) -> str:
    try:
        raw = read_input_bytes(path, kind="cards", limit=MOST_CARD_FILE_BYTES)
    except FileNotFoundError:
        raise DeckstatError(tr("file not found"), source=str(path)) from None
    except IsADirectoryError:
        raise DeckstatError(tr("is a directory, expected a CSV or text file"), source=str(path)) from None
    except OSError as exc:
        raise DeckstatError(tr("cannot be read ({reason})", reason=exc.strerror), source=str(path)) from None
    if raw.startswith(b"PK\x03\x04"):
        raise DeckstatError(tr("is a zip archive (an .xlsx or .ods workbook?); save it as CSV first"),
                            source=str(path))
    text = _decode(raw, str(path), notes if notes is not None else [])
    if "\x00" in text:
        raise DeckstatError(tr("is a binary file, expected a CSV or text file"), source=str(path))
    if not text.strip():
        raise DeckstatError(tr("is empty, expected a header row and one row per card"), source=str(path))
    return text


def _decode(raw: bytes, source: str, notes: list[str]) -> str:
    """The text of a file: UTF-8 (with or without BOM), UTF-16 with a BOM, or a file wholly in cp1252.

    A file that is UTF-8 except some lines (a row pasted from another program)
    is refused: read either way, some of its text would be wrong without a word.
    """
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise DeckstatError(tr("starts as UTF-16 text but byte {offset} is not UTF-16; save it as UTF-8",
                                   offset=exc.start + 1), source=source) from None
    bomless = _bomless_utf16(raw)
    if bomless:
        try:
            return raw.decode(bomless)
        except UnicodeDecodeError:
            pass  # not UTF-16 after all: refused as binary below
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    lines = raw.split(b"\n")
    utf8_lines = [i for i, line in enumerate(lines) if not line.isascii() and _is_utf8(line)]
    if utf8_lines:
        first_bad = next(i for i, line in enumerate(lines) if not _is_utf8(line))
        raise DeckstatError(tr("this line is not UTF-8 while the rest of the file is (a row in cp1252?): its "
                               "accents cannot be read for sure; save the whole file as UTF-8 (Excel: \"CSV "
                               "UTF-8\")"), source=source, line=first_bad + 1)
    # Excel on French Windows writes cp1252; the five bytes cp1252 leaves undefined are read as latin-1.
    try:
        text = raw.decode("cp1252")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    # Said only when a character looks like another encoding's (Mac, DOS, Cyrillic, latin-9): a French Excel file
    # read as cp1252 is read right, and a note on each of its runs would be noise.
    odd = looks_misread(text)
    if odd is not None:
        line, char = odd
        notes.append(tr("{source}: read as Windows text (cp1252), not UTF-8, and line {line} holds {char!r}, which "
                        "card names rarely hold: the file may be in another encoding; if its accents look wrong, "
                        "save it as UTF-8 (Excel: \"CSV UTF-8\")", source=source, line=line, char=char))
    return text


#: Characters a file read as cp1252 holds when it was written in another encoding: the C1 controls (bytes cp1252
#: leaves undefined), and the symbols that Mac Roman, DOS (cp850) and latin-9 accents and ``œ`` turn into.
_MISREAD = frozenset("\u201a\u0192\u201e\u2020\u2021\u02c6\u2030\u0160\u2039\u017d\u02dc\u0161\u203a\u017e"
                     "¤¦¨¯´¸¬¹²³¼½¾¶×÷ÐðÞþ") | frozenset(map(chr, range(0x80, 0xA0)))
_MISREAD_RUN = re.compile(r"[^\W\d_a-zA-Z]{3}")


def looks_misread(text: str) -> tuple[int, str] | None:
    r"""The first line and character of ``text`` (read as cp1252) that look like another encoding's, or ``None``.

    French, Spanish or German text read as cp1252 holds letters such as ``é``, ``œ``, ``ß`` and a few symbols
    (``’``, ``…``, ``€``). A Mac Roman ``é`` reads as ``Ž``, a DOS ``é`` as ``‚``, a latin-9 ``œ`` as ``½``, and
    Cyrillic as runs of accented letters (``Äðàêîí``): any of these is named.

    Examples
    --------
    >>> looks_misread("Nom;Coût\nCœur de Pâte;2\n"), looks_misread("Nom\nCaf\u017d\n")
    (None, (2, 'Ž'))
    >>> looks_misread("Nom\n" + "Маг".encode("cp1251").decode("cp1252") + "\n")
    (2, 'Ìàã')
    """
    for line_no, line in enumerate(text.splitlines(), start=1):
        if line.isascii():
            continue
        odd = next((ch for ch in line if ch in _MISREAD), None)
        if odd is not None:
            return line_no, odd
        run = _MISREAD_RUN.search(line)
        if run:
            return line_no, run.group(0)
    return None


def _bomless_utf16(raw: bytes) -> str | None:
    """``utf-16-le`` or ``utf-16-be`` for UTF-16 text written without a byte order mark, else ``None``.

    Some exporters write UTF-16 without its mark; read as UTF-8 it holds a NUL
    byte after (or before) every ASCII character, and would be refused as a
    binary file. A card file is mostly Latin-1 text, whose characters all have
    a zero high byte: nine pairs in ten at least (fewer is a UTF-16 part pasted
    next to another encoding, or a binary file).
    """
    if len(raw) < 4 or len(raw) % 2:
        return None
    even_zeros, odd_zeros = raw[0::2].count(0), raw[1::2].count(0)
    pairs = len(raw) // 2
    if odd_zeros >= 0.9 * pairs and even_zeros == 0:
        return "utf-16-le"
    if even_zeros >= 0.9 * pairs and odd_zeros == 0:
        return "utf-16-be"
    return None


def _is_utf8(line: bytes) -> bool:
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _sniff_delimiter(text: str) -> str:
    """Return the delimiter of a card CSV.

    The header decides: the delimiter that splits it into a recognised name
    column and the most fields wins, then the one that gives the fewest
    sample rows too many fields. :class:`csv.Sniffer` alone is fooled by
    cells holding commas or quotes (``Oui, Chef !`` in a ``;`` file).
    """
    lines = [line for line in text.splitlines() if line.strip()][:20]
    header = lines[0]
    scores = {}
    for d in _DELIMITERS:
        fields = next(csv.reader([header], delimiter=d), [])
        if "name" not in (canonical_column(f.strip()) for f in fields):
            continue
        bad = 0
        try:
            for row in itertools.islice(csv.reader(io.StringIO(text, newline=""), delimiter=d), 1, 50):
                bad += len(row) > len(fields) and any(f.strip() for f in row[len(fields):])
        except csv.Error:
            bad += 1
        scores[d] = (len(fields), -bad)
    if scores:
        return max(scores, key=lambda d: scores[d])  # ties keep the _DELIMITERS order
    try:
        return csv.Sniffer().sniff("\n".join(lines), delimiters=",;\t").delimiter
    except csv.Error:
        counts = {d: header.count(d) for d in (";", "\t", ",")}
        best = max(counts, key=counts.get)
        return best if counts[best] else ","


def _parse_number(text: str, decimal_comma: bool) -> float | None:
    text = text.strip().replace("\u00a0", "").replace(" ", "")
    if not _NUMBER.match(text):
        return None
    if "," in text:
        if not decimal_comma:
            return None
        text = text.replace(",", ".")
    return float(text)


def _convert_column(values: list[str], decimal_comma: bool) -> list[object]:
    """Turn a column of strings into numbers or 0/1 flags when every value allows it."""
    present = [v.strip() for v in values if v.strip()]
    if not present:
        return [None] * len(values)
    numbers = [_parse_number(v, decimal_comma) for v in present]
    if all(n is not None for n in numbers):
        integral = all(float(n).is_integer() and abs(n) <= _MAX_EXACT_INT for n in numbers)
        out: list[object] = []
        for v in values:
            n = _parse_number(v, decimal_comma) if v.strip() else None
            out.append(None if n is None else (int(n) if integral else n))
        return out
    folded = {fold(v) for v in present}
    # Only "non" is still a flag column (a deck without shiny cards); only "x"/"n" may be text.
    if folded <= (TRUE_WORDS | FALSE_WORDS) and not folded <= {"x", "n"}:
        return [None if not v.strip() else int(fold(v) in TRUE_WORDS) for v in values]
    return [v.strip() or None for v in values]


def _parse_count(text: str, source: str, line: int, header: str) -> int:
    value = text.strip()
    if not value:
        return 1
    number = _parse_number(value.rstrip("xX×"), decimal_comma=True)
    if number is None or not float(number).is_integer():
        raise DeckstatError(tr("count {value!r} is not a whole number", value=value), source=source, line=line,
                            column=header)
    if number <= 0:
        raise DeckstatError(tr("count {value!r} must be at least 1", value=value), source=source, line=line,
                            column=header)
    if number > MAX_COPIES:
        raise DeckstatError(tr("count {value!r} is too large (at most {maximum})", value=value, maximum=MAX_COPIES),
                            source=source, line=line, column=header)
    return int(number)


def read_card_csv(path: str | Path) -> Deck:
    """Load a deck from a card CSV, one row per distinct card.

    Parameters
    ----------
    path : str or Path
        CSV file with at least a name column (``name``/``nom``…). A ``count``
        column (``quantité``, ``qté``, ``nombre``, ``exemplaires``…) gives the
        copies, 1 when absent; ``type`` and any other columns are attributes.

    Returns
    -------
    Deck

    Raises
    ------
    DeckstatError
        With the file, line, column and value of the first problem found.
    """
    path = Path(path)
    source = str(path)
    notes: list[str] = []
    text = _read_text(path, notes)
    excel_sep = _EXCEL_SEP.match(text)
    delimiter = excel_sep.group(1) if excel_sep else _sniff_delimiter(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    if excel_sep:
        next(reader)  # the line names the delimiter and is no header; reader.line_num still counts it
    try:
        header: list[str] = []
        while not any(h.strip() for h in header):  # skip blank lines above the header
            header = next(reader)
    except (StopIteration, csv.Error):  # only delimiters, no header cell
        raise DeckstatError(tr("has no header row"), source=source, line=reader.line_num or None) from None
    header_line = reader.line_num
    if len(header) > MOST_CARD_COLUMNS:
        raise DeckstatError(tr("{columns} columns, more than the {limit} deckstat reads in a card file; keep the "
                               "columns the questions use", columns=number(len(header)),
                               limit=number(MOST_CARD_COLUMNS)), source=source, line=header_line)
    header = [h.strip() for h in header]
    canonical = canonical_columns(header)
    if "name" not in canonical or sum(bool(h) for h in header) == 1:
        _refuse_title_line(text, header, header_line, source)
    if "name" not in canonical:
        if sum(bool(h) for h in header) < 2 or not any(c in COLUMN_ALIASES for c in canonical):
            # No column deckstat knows: not a card file (a key, a configuration file given by mistake), whose
            # first line is never quoted.
            raise DeckstatError(tr("is not a card file: its first line names no column of a card file; expected a "
                                   "CSV file whose first line names the columns, such as 'name;count;type'"),
                                source=source, line=header_line)
        raise DeckstatError(
            tr("no card-name column; the header is {header}, expected one of 'name', 'nom', 'carte'",
               header=", ".join(repr(h) for h in header)), source=source, line=header_line)
    for h in header:
        if header_key(h) in AMBIGUOUS_HEADERS:
            raise DeckstatError(tr(AMBIGUOUS_HEADERS[header_key(h)], column=h), source=source, line=header_line,
                                column=h)
    for i, col in enumerate(canonical):
        if header[i] and canonical.index(col) != i:
            first = header[canonical.index(col)]
            raise DeckstatError(tr("columns {first!r} and {second!r} both mean {meaning!r}", first=first,
                                   second=header[i], meaning=col), source=source, line=header_line)
    rows: list[list[str]] = []
    row_lines: list[int] = []
    name_idx = canonical.index("name")
    try:
        last_line = reader.line_num
        for fields in reader:
            first_line, last_line = last_line + 1, reader.line_num
            if not any(f.strip() for f in fields):
                continue
            # A row shorter than the header has no name cell yet (it is padded below).
            name = fields[name_idx] if name_idx < len(fields) else ""
            if "\n" in name or "\r" in name:
                shown = repr(name[:40]) + ("…" if len(name) > 40 else "")
                raise DeckstatError(tr("the card name {name} spans several lines; is a quote (\") left open?",
                                       name=shown), source=source, line=first_line, column=header[name_idx])
            if len(fields) > len(header) and any(f.strip() for f in fields[len(header):]):
                extra = next(f.strip() for f in fields[len(header):] if f.strip())
                raise DeckstatError(
                    tr("{fields} fields but the header has {header} (delimiter {delimiter!r}); the extra value "
                       "is {extra!r}", fields=len(fields), header=len(header), delimiter=delimiter, extra=extra),
                    source=source, line=reader.line_num)
            fields = (fields + [""] * len(header))[: len(header)]
            if len(rows) == MOST_CARD_ROWS:
                raise DeckstatError(tr("more than {limit} card rows, the most deckstat reads in a card file; keep "
                                       "only the cards the deck can use, or split the pool into several files",
                                       limit=number(MOST_CARD_ROWS)), source=source, line=first_line)
            rows.append(fields)
            row_lines.append(reader.line_num)
    except csv.Error as exc:
        raise DeckstatError(tr("malformed CSV ({reason})", reason=exc), source=source, line=reader.line_num) from None
    if not rows:
        raise DeckstatError(tr("has a header but no card rows"), source=source, line=header_line)
    # Spreadsheets often save trailing empty columns ("Nom;Qté;;"): drop them when they hold nothing.
    for i, h in enumerate(header):
        if not h:
            filled = [(ln, r[i].strip()) for r, ln in zip(rows, row_lines) if r[i].strip()]
            if filled:
                raise DeckstatError(tr("column {number} has no header but holds {value!r}", number=i + 1,
                                       value=filled[0][1]), source=source, line=filled[0][0])
    keep_columns = [i for i, h in enumerate(header) if h]
    header = [header[i] for i in keep_columns]
    canonical = [canonical[i] for i in keep_columns]
    rows = [[r[i] for i in keep_columns] for r in rows]

    name_idx = canonical.index("name")
    count_idx = canonical.index("count") if "count" in canonical else None
    for ln, row in zip(row_lines, rows):
        if not row[name_idx].strip():
            raise DeckstatError(tr("empty card name"), source=source, line=ln, column=header[name_idx])
        if not clean_name(row[name_idx]):
            raise DeckstatError(tr("the card name {name!r} is only invisible characters or spaces",
                                   name=row[name_idx].strip()), source=source, line=ln, column=header[name_idx])
    _refuse_total_row(rows, row_lines, name_idx, count_idx, source, header)
    decimal_comma = delimiter != ","
    columns: dict[str, list[object]] = {}
    for i, col in enumerate(canonical):
        if i == name_idx:
            columns[col] = _clean_names([r[i] for r in rows], row_lines, source, notes)
        elif i == count_idx:
            columns[col] = [_parse_count(r[i], source, ln, header[i]) for r, ln in zip(rows, row_lines)]
        elif col in WHOLE_NUMBER_COLUMNS:
            columns[col] = [_parse_cards(r[i], decimal_comma, source, ln, header[i]) for r, ln in zip(rows, row_lines)]
        elif col in TEXT_COLUMNS:
            columns[col] = [r[i].strip() or None for r in rows]
        else:
            columns[col] = _convert_column([r[i] for r in rows], decimal_comma)
    if count_idx is None:
        _refuse_count_lookalike(header, rows, row_lines, decimal_comma, source, header_line)
        _refuse_unread_count(header, rows, name_idx, source, header_line)
        columns["count"] = [1] * len(rows)
    table = pd.DataFrame(columns)
    raw = {col: [r[i].strip() for r in rows] for i, col in enumerate(canonical)}
    table = _merge_duplicates(table, row_lines, source, dict(zip(canonical, header)), raw)
    if "effect" in table.columns and table["effect"].notna().any():
        notes.append(tr("{source}: of the card effects of column {column!r}, deckout and the report's deck-out "
                        "section play draw and mill (when the card is played or drawn), odds, when, compare and ratio "
                        "answer beside their table with the draws, searches and looks played, curve (the play models "
                        "of Wankul, Duel Masters and the games without one) with the draws played; the other effects, "
                        "and every effect in the other questions, are left out of the answers",
                        source=source, column=header[canonical.index("effect")]))
    _publish(notes)
    return Deck.from_table(table, source=source, notes=notes)


def _refuse_count_lookalike(header: list[str], rows: list[list[str]], row_lines: list[int], decimal_comma: bool,
                            source: str, header_line: int) -> None:
    """Refuse a file without a count column whose column of whole numbers is named like one (``Quantitée``).

    Read as it is, each line would be one copy: a 51-card deck would load as
    a pool of 20 cards, a confident wrong answer.
    """
    for i, column in enumerate(header):
        near = count_column_lookalike(column)
        if near is None:
            continue
        values = [_parse_number(r[i], decimal_comma) for r in rows if r[i].strip()]
        if values and all(v is not None and v >= 0 and float(v).is_integer() for v in values):
            raise DeckstatError(
                tr("this column looks like the count of copies but is not read as one, so each line would "
                   "count as one card; name it 'quantité' or 'count' (or remove it for one copy per line)"),
                source=source, line=header_line, column=column)


#: The most copies of one card a column may hold and still be taken for an unrecognised count (60-card decks
#: hold up to about 30 basic lands).
_MOST_LIKELY_COPIES = 99
#: The largest deck a column of an unrecognised header may add up to and still be taken for the count: beyond any
#: deck of the shipped games (Licum's two decks together hold 60), below the smallest real pool met (180 cards).
MOST_LIKELY_DECK = 150


def count_shape(cells: list[str]) -> tuple[int, int, int] | None:
    """``(low, high, cards)`` when a column's cells hold what a count column holds, else ``None``.

    What a count holds: whole numbers from 1 to :data:`_MOST_LIKELY_COPIES` (``3x`` too) in at least half the
    rows, one at least above 1, adding up (an empty cell as 1) to at most :data:`MOST_LIKELY_DECK` cards, and, in
    five rows or more, some value repeated (identifiers and collector numbers differ from row to row).

    Examples
    --------
    >>> count_shape(["3", "2", "1", "3", "3x"]), count_shape(["1", "1"]), count_shape(["1", "2", "3", "4", "5"])
    ((1, 3, 12), None, None)
    """
    present = [cell.strip() for cell in cells if cell.strip()]
    if not present or 2 * len(present) < len(cells):
        return None
    values = []
    for cell in present:
        value = _parse_number(cell.rstrip("xX×"), decimal_comma=True)
        if value is None or not float(value).is_integer() or not 1 <= value <= _MOST_LIKELY_COPIES:
            return None
        values.append(int(value))
    cards = sum(values) + len(cells) - len(present)
    if max(values) < 2 or cards > MOST_LIKELY_DECK or (len(cells) >= 5 and len(set(values)) == len(values)):
        return None
    return min(values), max(values), cards


def _refuse_unread_count(header: list[str], rows: list[list[str]], name_idx: int, source: str,
                         header_line: int) -> None:
    """Refuse a file without a count column that has a column of what a count holds under another header.

    Read as it is, each row would be one copy: a 50-card deck counted by a ``Stück`` column would load as a
    19-card one, a confident wrong answer. ``#`` (read as the collector number) is refused the same way when its
    column holds counts. A column of numbers under a header that says what it holds (``Niveau``, ``source_id``,
    a known attribute) is never refused.
    """
    for i, column in enumerate(header):
        if i == name_idx or not may_be_count_header(column):
            continue
        shape = count_shape([r[i] for r in rows])
        if shape is None:
            continue
        low, high, cards = shape
        facts = {"low": low, "high": high, "cards": number(cards), "rows": number(len(rows))}
        if header_key(column) in COUNT_OR_NUMBER_HEADERS:
            raise DeckstatError(tr("this column holds whole numbers from {low} to {high}, as a count of copies does "
                                   "({cards} cards in all), but its header also means the collector number; rename "
                                   "it 'quantité' (copies) or 'numéro' (collector number)", **facts),
                                source=source, line=header_line, column=column)
        raise DeckstatError(tr("this column holds whole numbers from {low} to {high}, as a count of copies does, but "
                               "its header is not one deckstat reads as the count: the file would load as {rows} "
                               "cards, one per row, not {cards}; if it is the count, name it 'quantité' or "
                               "'count'; if not, add a 'count' column", **facts),
                            source=source, line=header_line, column=column)


def _clean_names(cells: list[str], row_lines: list[int], source: str, notes: list[str]) -> list[str]:
    """The names of a card column read by :func:`~deckstat.text.clean_name`, with a note naming the first changed.

    A zero-width space pasted from a web page would otherwise make one card
    two, each under the copy limit.
    """
    names = [clean_name(cell) for cell in cells]
    # A name only recomposed (NFC) looks the same and needs no note.
    changed = [i for i, (cell, name) in enumerate(zip(cells, names))
               if unicodedata.normalize("NFC", cell.strip()) != name]
    if changed:
        first = changed[0]
        notes.append(trn("{source}, line {line}: the card name {before!r} is read as {after!r} (invisible "
                         "characters or unusual spaces removed)",
                         "{source}, line {line}: the card name {before!r} is read as {after!r}, and {n} names in "
                         "all (invisible characters or unusual spaces removed)", len(changed), source=source,
                         line=row_lines[first], before=cells[first].strip(), after=names[first]))
    return names


def _parse_cards(text: str, decimal_comma: bool, source: str, line: int, header: str) -> int | None:
    """A ``draw`` or ``mill`` cell: a whole number of cards from 0 to the deck size limit, or empty."""
    value = text.strip()
    if not value:
        return None
    number = _parse_number(value, decimal_comma)
    if number is None or not float(number).is_integer() or number < 0:
        raise DeckstatError(tr("{value!r} is not a number of cards; expected a whole number of at least 0 "
                               "written in digits", value=value), source=source, line=line, column=header)
    if number > MAX_COPIES:
        raise DeckstatError(tr("{value!r} is more cards than a deck holds (at most {maximum})", value=value,
                               maximum=MAX_COPIES), source=source, line=line, column=header)
    return int(number)


def _refuse_title_line(text: str, header: list[str], header_line: int, source: str) -> None:
    """Refuse a title line above the real header (``Mon deck Wankul;;;``), naming the header's line.

    Spreadsheets often carry a title in their first row; read as the header,
    it would leave no name column, or make the real header a card.
    """
    lines = text.splitlines()
    for line_no in range(header_line + 1, min(header_line + 10, len(lines)) + 1):
        line = lines[line_no - 1]
        for delimiter in _DELIMITERS:
            fields = [f.strip() for f in next(csv.reader([line], delimiter=delimiter), [])]
            if sum(bool(f) for f in fields) >= 2 and "name" in (canonical_column(f) for f in fields):
                title = " ".join(h for h in header if h)
                raise DeckstatError(tr("line {line} ({title!r}) is above the header on line {header_line} "
                                       "({header!r}); delete the title line(s) so that the header comes first",
                                       line=header_line, title=title, header_line=line_no, header=line.strip()),
                                    source=source, line=header_line)


def _refuse_total_row(rows: list[list[str]], row_lines: list[int], name_idx: int, count_idx: int | None,
                      source: str, header: list[str]) -> None:
    """Refuse a spreadsheet's total row (``TOTAL;50``): last in the file, or summing the rows above it."""
    counts = [_parse_number(r[count_idx], decimal_comma=True) if count_idx is not None else None for r in rows]
    for i, (row, ln) in enumerate(zip(rows, row_lines)):
        name = row[name_idx].strip()
        if fold(name) not in TOTAL_ROW_NAMES:
            continue
        above = [c if c is not None else 1 for c in counts[:i]]
        sums_up = bool(above) and counts[i] is not None and counts[i] == sum(above)
        if (i == len(rows) - 1 and len(rows) > 1) or sums_up:
            total = f" {row[count_idx].strip()!r}" if count_idx is not None and row[count_idx].strip() else ""
            why = tr(" (the sum of the rows above)") if sums_up else ""
            raise DeckstatError(tr("{name!r}{total}{why} looks like a total row, not a card; delete it (deckstat "
                                   "adds up the counts itself)", name=name, total=total, why=why),
                                source=source, line=ln, column=header[name_idx])


def _show(cell: str) -> str:
    return repr(cell) if cell else tr("empty")


def _same(a: object, b: object) -> bool:
    a_missing = a is None or (isinstance(a, float) and math.isnan(a))
    b_missing = b is None or (isinstance(b, float) and math.isnan(b))
    if a_missing or b_missing:
        return a_missing and b_missing
    if isinstance(a, str) and isinstance(b, str):
        return fold(a) == fold(b)
    return a == b


def _merge_duplicates(table: pd.DataFrame, row_lines: list[int], source: str,
                      headers: dict[str, str], raw: dict[str, list[str]]) -> pd.DataFrame:
    """Sum the counts of repeated cards; refuse repeats whose attributes differ.

    A card is its name, its printing (the :data:`~deckstat.schema.PRINTING_COLUMNS`
    the table has) and its deck (part or name, :func:`~deckstat.deck.names_decks`): two rows that differ in
    one of them are two cards.
    """
    # A card in two decks of one file (its deck part, or a deck_name column) is two rows, one per deck.
    key_columns = ["name"] + [c for c in table.columns if names_decks(c)]
    printing = [c for c in PRINTING_COLUMNS if c in table.columns]
    first_row: dict[tuple, int] = {}
    keep: list[int] = []
    counts = list(table["count"])
    attributes = [c for c in table.columns if c not in ("name", "count", "deck")]
    records = table.to_dict("records")
    for i, record in enumerate(records):
        key = tuple(fold(record[c]) for c in key_columns) + tuple(fold(printing_text(c, record[c])) for c in printing)
        if key not in first_row:
            first_row[key] = i
            keep.append(i)
            continue
        j = first_row[key]
        for col in attributes:
            if not _same(records[j][col], record[col]):
                raise DeckstatError(
                    tr("card {name!r} is also on line {line} with {column} {there}, here {here}; give each card "
                       "one row, or the same attributes{hint}", name=record["name"], line=row_lines[j],
                       column=headers.get(col, col), there=_show(raw[col][j]), here=_show(raw[col][i]),
                       hint=_printing_hint(printing, headers)),
                    source=source, line=row_lines[i], column=headers.get(col, col))
        counts[j] += counts[i]
    merged = table.iloc[keep].copy()
    merged["count"] = [counts[i] for i in keep]
    return merged.reset_index(drop=True)


def _printing_hint(printing: list[str], headers: dict[str, str]) -> str:
    """Which columns would make the two rows two printings of the name."""
    if printing:
        shown = ", ".join(repr(headers.get(c, c)) for c in printing)
        return tr(" (printings of a name differ in {columns})", columns=shown)
    return tr(" (printings of a name differ in a column such as 'numéro', 'édition', 'clan' or 'rareté')")


_DECKLIST_LINE = re.compile(r"^\s*(?:(\d+)\s*[xX×]?\s+)?(.+?)\s*$")
_DECKLIST_COUNT_ONLY = re.compile(r"^\s*(\d+)\s+(.+?)\s*$")
_SECTION_LINE = re.compile(r"^\s*(?:\[(.+)\]|([^\d].*?):)\s*$")


def _decklist_parses(line: str) -> list[tuple[str | None, str]]:
    """Readings ``(count text, name)`` of a decklist line, the usual one first.

    ``2 X Factor`` reads as 2 × ``Factor`` but also as 2 × ``X Factor``, and
    ``1000 Sabords`` as 1 × ``1000 Sabords``: the caller takes the first
    reading whose name is in the pool.
    """
    match = _DECKLIST_LINE.match(line)
    parses: list[tuple[str | None, str]] = [(match.group(1), match.group(2))]
    plain = _DECKLIST_COUNT_ONLY.match(line)
    if plain and plain.group(2) != match.group(2):
        parses.append((plain.group(1), plain.group(2)))
    if match.group(1):
        parses.append((None, line.strip()))
    return parses


#: Printings listed in full in an error message; more are summed up.
_MAX_LISTED = 8


def _describe(record: dict, columns: list[str]) -> str:
    """A printing's values for an error message: ``#35, Origins, Laink, Commune``."""
    texts = [printing_text(c, record.get(c)) for c in columns]
    return ", ".join(t for t in texts if t) or tr("no number, set, clan or rarity")


def card_hint(deck: Deck, text: str) -> str:
    """What a message adds when ``text`` names no card of ``deck``: its printings of the name, or the closest labels.

    Examples
    --------
    >>> deck = Deck.from_table([{"name": "CT", "number": "83", "count": 3},
    ...                         {"name": "PORTAL", "number": "2", "count": 1}])
    >>> card_hint(deck, "CT #84"), card_hint(deck, "Portall")
    ("; the deck has 'CT' (#83)", "; did you mean 'PORTAL'?")
    """
    names = [fold(n) for n in deck.names]
    columns = deck.printing_columns
    for name, _, _ in name_readings(text.strip())[1:]:
        rows = [i for i, n in enumerate(names) if n == fold(name)]
        if rows:
            records = deck.cards[columns].to_dict("records") if columns else [{}] * len(names)
            shown = [f"{deck.labels[i]!r} ({_describe(records[i], columns)})" if columns else repr(deck.labels[i])
                     for i in rows]
            return tr("; the deck has {cards}", cards=_listed(shown))
    labels = list(dict.fromkeys(deck.labels))
    wanted = fold(text.strip())
    partial = [label for label in labels if wanted and wanted in fold(label)]
    if partial:
        return tr("; cards whose name contains it: {cards}",
                  cards=", ".join(partial[:5]) + (" …" if len(partial) > 5 else ""))
    return suggest(text.strip(), labels)


#: How :class:`CardIndex` names the cards it looks names up in, by its ``noun``.
_INDEX_NOUNS = {"pool": N_("the pool {source}"), "deck": N_("the deck {source}")}


class CardIndex:
    """Finds the card a decklist line names in a pool: ``3 VENDEUR #35`` → (pool row, 3).

    Parameters
    ----------
    pool_deck : Deck
        The cards lines may name (a card pool, or a deck itself).
    noun : str
        How messages name ``pool_deck`` (``pool``, ``deck``).
    """

    def __init__(self, pool_deck: Deck, *, noun: str = "pool"):
        self.pool = pool_deck
        self.noun = noun
        table = pool_deck.cards.drop(columns=["count", "deck"], errors="ignore")
        self.names = list(table["name"])
        self.columns = pool_deck.printing_columns
        self.records = table.to_dict("records")
        self.by_name: dict[str, list[int]] = {}
        seen: set[tuple] = set()
        for i, printing in enumerate(pool_deck.printings):
            if printing not in seen:  # a Licum pool lists a card once per deck part
                seen.add(printing)
                self.by_name.setdefault(printing[0], []).append(i)
        self.by_base: dict[str, list[str]] = {}
        if "base_name" in table.columns:
            for name, base in zip(table["name"], table["base_name"]):
                if isinstance(base, str) and fold(base) != fold(name) and name not in self.by_base.get(fold(base), []):
                    self.by_base.setdefault(fold(base), []).append(name)

    @property
    def where(self) -> str:
        """How messages name the pool: ``the pool cards.csv``."""
        return tr(_INDEX_NOUNS.get(self.noun, _INDEX_NOUNS["pool"]), source=self.pool.source)

    def resolve(self, stripped: str, *, source: str, line: int | None = None,
                column: int | None = None) -> tuple[int, int]:
        """The pool row and the count a line (``3 Nom``, ``3x Nom``, ``Nom #35``…) names.

        Raises
        ------
        LineError
            An unknown card, a count out of range, or a name that matches several printings.
        """
        pool_deck, records, columns, by_name, by_base = self.pool, self.records, self.columns, self.by_name, \
            self.by_base
        where = {"source": source, "line": line, "column": column}
        readings = [(count, *reading) for count, rest in _decklist_parses(stripped) for reading in name_readings(rest)]
        # The first reading that names one printing wins, else the first that names several, else none.
        matches = [(r, [i for i in by_name[fold(r[1])] if printing_matches(r[2], r[3], records[i], columns)])
                   for r in readings if fold(r[1]) in by_name]
        best = (next((m for m in matches if len(m[1]) == 1), None) or next((m for m in matches if m[1]), None)
                or (matches[0] if matches else (readings[0], [])))
        (count_text, name, number, values), chosen = best
        if len(chosen) > 1:
            # A label reads back: "POLICIER" names the plain printing when the other is "POLICIER (holo)".
            labelled = [i for i in chosen if fold(pool_deck.labels[i]) in {fold(r[1]) for r in readings}]
            chosen = labelled if len(labelled) == 1 else chosen
        if not matches:
            # Report the name without its printing selectors: "VENDEUR", not "VENDEUR #35".
            name = min((r[1] for r in readings if r[0] == count_text), key=len)
        count = int(count_text) if count_text else 1
        # A line that starts with a count is written as a decklist line, whatever follows.
        shaped = count_text is not None
        if count <= 0:
            message = tr("count {value!r} must be at least 1", value=count_text)
            raise LineError(message, short=message, shaped=True, **where)
        if count > MAX_COPIES:
            message = tr("count {value!r} is too large (at most {maximum})", value=count_text, maximum=MAX_COPIES)
            raise LineError(message, short=message, shaped=True, **where)
        key = fold(name)
        if key not in by_name:
            full = next((by_base[fold(r[1])] for r in readings if fold(r[1]) in by_base), None)
            if full:
                names = _listed([repr(n) for n in full])
                raise LineError(tr("unknown card {name!r} in {where}: it is the base name of {names}; write the full "
                                   "name, e.g. '{count} {example}'", name=name, where=self.where, names=names,
                                   count=count, example=full[0]),
                                short=tr("{name!r} is the base name of {names}", name=name, names=names),
                                shaped=True, **where)
            near = closest(name, self.names)
            hint = tr("; did you mean {name!r}?", name=near) if near is not None else ""
            raise LineError(tr("unknown card {name!r}, not in {where}{hint}", name=name, where=self.where,
                               hint=hint),
                            short=tr("unknown card {name!r}{hint}", name=name,
                                     hint=tr(" (did you mean {name!r}?)", name=near) if near is not None else ""),
                            shaped=shaped or near is not None, **where)
        candidates = by_name[key]
        if len(chosen) != 1:
            # French puts a no-break space before the semicolon between printings too.
            sep = "; " if get_language() != "fr" else NBSP + "; "
            listed = _listed([_describe(records[i], columns) for i in (chosen or candidates)], sep=sep)
            labels = _listed([repr(pool_deck.labels[i]) for i in (chosen or candidates)])
            if not chosen:
                picked = " ".join(([f"#{number}"] if number else []) + ([f"({', '.join(values)})"] if values else []))
                raise LineError(tr("no printing of {name!r} in {where} matches {picked!r}; it has {printings}",
                                   name=name, where=self.where, picked=picked, printings=listed),
                                short=tr("no printing of {name!r} matches {picked!r} (its printings: {labels})",
                                         name=name, picked=picked, labels=labels), shaped=True, **where)
            others = by_base.get(key, [])
            also = tr(" (and it is the base name of {names})", names=_listed([repr(n) for n in others])) \
                if others else ""
            raise LineError(tr("{line!r} matches {matches} cards of {where}: {printings}{also}; pick one with "
                               "its number or printing values, e.g. '{count} {example}'", line=stripped,
                               matches=len(chosen), where=self.where, printings=listed, also=also, count=count,
                               example=pool_deck.labels[chosen[0]]),
                            short=tr("{name!r} matches {matches} cards; pick one: {labels}", name=name,
                                     matches=len(chosen), labels=labels), shaped=True, **where)
        return chosen[0], count

    def resolve_lines(self, lines: list[tuple[int | None, str]], *, source: str) -> list[tuple[int, int]]:
        """The pool row and count of each ``(line number, text)`` of a file, or one error naming every bad line.

        A file none of whose lines names a card is shown only as far as its lines are written as decklist lines
        (a count first, a close name, a name of the pool): a file that is no decklist at all (a configuration
        file, a key given by mistake) is named, never quoted.

        Raises
        ------
        DeckstatError
            The error of the one bad line as :meth:`resolve` words it; for several, one message listing them.
        """
        resolved: list[tuple[int, int]] = []
        failures: list[LineError] = []
        for line_no, text in lines:
            try:
                resolved.append(self.resolve(text, source=source, line=line_no))
            except LineError as exc:
                failures.append(exc)
        if not failures:
            return resolved
        shown = failures if resolved else [f for f in failures if f.shaped]
        hidden = len(failures) - len(shown)
        if not shown:
            raise DeckstatError(trn("is not a text decklist: its line names no card of {where} and is not written as "
                                    "a decklist line; expected lines such as '3 Card name'",
                                    "is not a text decklist: none of its {n} lines names a card of {where} or is "
                                    "written as a decklist line; expected lines such as '3 Card name'",
                                    len(failures), where=self.where), source=source)
        if len(shown) == 1 and not hidden:
            raise shown[0]
        listed = tr("; ").join(tr("line {line}: {problem}", line=f.line, problem=f.short)
                               for f in shown[:_MAX_LISTED])
        more = len(shown) - _MAX_LISTED
        if more > 0:
            listed += tr("; ") + trn("… and {n} more line", "… and {n} more lines", more)
        if hidden:
            listed += tr("; ") + trn("{n} line that is not a decklist line (not shown)",
                                     "{n} lines that are not decklist lines (not shown)", hidden)
        raise DeckstatError(trn("{n} line does not name one card of {where}: {lines}",
                                "{n} lines do not name one card of {where}: {lines}", len(failures),
                                where=self.where, lines=listed), source=source)


class LineError(DeckstatError):
    """A line of a decklist or known-cards file that names no card, or several.

    ``short`` says what is wrong in a few words, for a message that lists several lines; ``shaped`` tells whether
    the line is written as a decklist line (a count first, a name of the pool or close to one), so that it may
    be quoted even when no line of its file names a card.
    """

    def __init__(self, message: str, *, short: str | None = None, shaped: bool = True, source: str | None = None,
                 line: int | None = None, column: str | int | None = None):
        self.short = message if short is None else short
        self.shaped = shaped
        super().__init__(message, source=source, line=line, column=column)


def _card_csv_header(text: str) -> str | None:
    """The first line of ``text`` when it is a card file's header (two columns or more, a name column), else None."""
    first = next((line.strip() for line in text.splitlines()
                  if line.strip() and not line.strip().startswith(("#", "//"))), "")
    for delimiter in _DELIMITERS:
        fields = [f.strip() for f in next(csv.reader([first], delimiter=delimiter), [])]
        if len(fields) >= 2 and "name" in (canonical_column(f) for f in fields):
            return first
    return None


def _refuse_card_csv(text: str, source: str) -> None:
    """Refuse a card CSV given as a decklist: its header would be read as an unknown card named 'name,count,…'."""
    header = _card_csv_header(text)
    if header is not None:
        raise DeckstatError(tr("is a card file (its first line is the header {header!r}), not a text decklist; "
                               "give it without {option}", header=header, option=param("pool")), source=source)


def read_lines(path: str | Path) -> list[tuple[int, str]]:
    """The numbered lines of a text file that may name cards, read as card files are read.

    The same limits, encodings and refusals as :func:`read_card_csv` (a binary file, an empty one); blank lines
    and comments (``#``, ``//``) are left out, and the notes of the reading (an encoding guessed) published.
    """
    path = Path(path)
    notes: list[str] = []
    text = _read_text(path, notes)
    _publish(notes)
    return [(line_no, line.strip()) for line_no, line in enumerate(text.splitlines(), start=1)
            if line.strip() and not line.strip().startswith(("#", "//"))]


def read_decklist(path: str | Path, pool: Deck | str | Path) -> Deck:
    """Load a plain-text decklist resolved against a card pool.

    Each line is ``3 Nom de carte``, ``3x Nom de carte`` or ``Nom de carte``
    (one copy). Blank lines and lines starting with ``#`` or ``//`` are
    ignored. A line ``[Préparation]`` or ``Préparation:`` starts a section
    whose name is stored in the ``deck`` column (for games with two decks).

    When the pool holds several printings of a name (the Laink and the
    Terracid ``VENDEUR``, a common and a holo ``POLICIER``), the line picks
    one with its collector number, ``3 VENDEUR #35``, or with printing
    values in brackets, ``3 VENDEUR (Laink)``, ``1 POLICIER (Terracid, holo)``:
    the labels results show (:attr:`Deck.labels`) read back, so a bare
    ``POLICIER`` names the plain printing next to ``POLICIER (holo)``. A
    name alone that matches several printings otherwise is an error listing
    them.

    Parameters
    ----------
    path : str or Path
        The decklist.
    pool : Deck, str or Path
        The card pool (a card CSV) that gives each card's attributes.

    Returns
    -------
    Deck
    """
    path = Path(path)
    source = str(path)
    pool_deck = pool if isinstance(pool, Deck) else read_card_csv(pool)
    index = CardIndex(pool_deck)
    notes: list[str] = []
    text = _read_text(path, notes)
    _refuse_card_csv(text, source)
    _publish(notes)
    lines: list[tuple[int, str]] = []
    sections: list[str | None] = []
    section: str | None = None
    for line_no, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "//")):
            continue
        section_match = _SECTION_LINE.match(stripped)
        if section_match:
            section = (section_match.group(1) or section_match.group(2)).strip()
            continue
        lines.append((line_no, stripped))
        sections.append(section)
    entries = [(row, count, sec) for (row, count), sec in zip(index.resolve_lines(lines, source=source), sections)]
    records = index.records
    if not entries:
        raise DeckstatError(tr("lists no cards"), source=source)
    rows = []
    for pool_index, count, sec in entries:
        row = dict(records[pool_index])
        row["count"] = count
        if section is not None or sec is not None:
            row["deck"] = sec
        rows.append(row)
    table = pd.DataFrame(rows)
    # Lines naming the same printing (of the same section) add up.
    table["_key"] = [(i, fold(sec) if sec is not None else None) for i, _, sec in entries]
    counts = table.groupby("_key", sort=False)["count"].sum()
    table = table.drop_duplicates("_key").copy()
    table["count"] = [counts[k] for k in table["_key"]]
    table = table.drop(columns="_key").reset_index(drop=True)
    return Deck.from_table(table, source=source, notes=[*pool_deck.notes, *notes])


def _listed(items: list[str], sep: str = ", ") -> str:
    """Items joined, the long tail summed up as ``… and 12 more``."""
    shown = sep.join(items[:_MAX_LISTED])
    return shown + (sep + tr("… and {more} more", more=len(items) - _MAX_LISTED) if len(items) > _MAX_LISTED else "")


#: Suffixes of text decklists, which a pool resolves, and of card files, read as they are even when a pool is given.
DECKLIST_SUFFIXES = (".txt", ".dec", ".list")
CARD_FILE_SUFFIXES = (".csv", ".tsv")


def is_card_file(path: str | Path) -> bool:
    """Whether ``path`` is a card file (read as it is) rather than a text decklist (resolved against a pool).

    The suffix tells (``.csv``, ``.tsv``; ``.txt``, ``.dec``, ``.list``); for another suffix, the first line: a card
    file's names its columns, a name column among them.
    """
    suffix = Path(path).suffix.lower()
    if suffix in DECKLIST_SUFFIXES:
        return False
    if suffix in CARD_FILE_SUFFIXES:
        return True
    return _card_csv_header(_read_text(Path(path))) is not None


def load_deck(path: str | Path, *, pool: str | Path | Deck | None = None, deck_name: str | None = None) -> Deck:
    """Load a deck from a card CSV, or from a text decklist and a card pool.

    Parameters
    ----------
    path : str or Path
        A card CSV (one row per distinct card) or, with ``pool``, a text
        decklist (``3 Nom`` per line).
    pool : str, Path or Deck, optional
        Card pool CSV that resolves the names of a text decklist. A card
        file (:func:`is_card_file`) is read as it is, so that one pool may
        serve the decklists of a comparison that also has card files.
    deck_name : str, optional
        For a file that holds several decks (a ``deck_name`` column), the
        deck to load (see :func:`pick_deck`).

    Returns
    -------
    Deck

    Examples
    --------
    >>> deck = load_deck(DATA / "wankul" / "sample_deck.csv")  # DATA: the repository's data/ folder
    >>> deck.size, deck.count("Terrain")
    (50, 10)
    """
    if deck_name is not None and (not isinstance(deck_name, str) or not deck_name.strip()):
        raise DeckstatError(tr("{option} must be the name of a deck of the file, got {value!r}",
                               option=param("deck_name"), value=deck_name))
    if pool is not None and not isinstance(pool, Deck) and not is_file(pool):
        read_card_csv(pool)  # a pool that is no file is refused as such, even where no decklist needs it
    if pool is not None and not is_card_file(path):
        deck = read_decklist(path, pool)
    elif pool is None and Path(path).suffix.lower() in DECKLIST_SUFFIXES:
        raise DeckstatError(tr("looks like a text decklist; give the card pool CSV that resolves its names with "
                               "{option}", option=param("pool")), source=str(path))
    else:
        deck = read_card_csv(path)
    return deck if deck_name is None else pick_deck(deck, deck_name)


def pick_deck(deck: Deck, deck_name: str) -> Deck:
    """The cards of one deck of a file that holds several, told apart by a column such as ``deck_name``.

    Parameters
    ----------
    deck : Deck
        The cards of the whole file.
    deck_name : str
        A value of a column whose header names a deck (:func:`~deckstat.deck.deck_name_columns`), compared
        without case or accents.

    Returns
    -------
    Deck
        The rows of that deck, without the column; its :attr:`~Deck.source` names the deck
        (``decks.csv [Shobu's Fire Deck]``).

    Raises
    ------
    DeckstatError
        When the file has no such column, or no deck of that name (the message lists the decks and the closest).

    Examples
    --------
    >>> both = Deck.from_table([{"name": "A", "count": 2, "deck_name": "Feu"},
    ...                         {"name": "B", "count": 3, "deck_name": "Eau"}], source="decks.csv")
    >>> pick_deck(both, "feu").source, pick_deck(both, "feu").size
    ('decks.csv [Feu]', 2)
    """
    columns = deck_name_columns(deck)
    if not columns:
        raise DeckstatError(tr("{option} {name!r}: the file has no column that names decks (such as 'deck_name'), "
                               "so it holds one deck; leave {option} out", option=param("deck_name"),
                               name=deck_name), source=deck.source)
    wanted = fold(deck_name)
    for column in columns:
        rows = [not is_missing(v) and fold(v) == wanted for v in deck.cards[column]]
        if any(rows):
            written = str(deck.cards[column][rows.index(True)]).strip()
            return Deck.from_table(deck.cards[rows].drop(columns=column), source=f"{deck.source} [{written}]",
                                   notes=deck.notes)
    column = columns[0]
    names = list(dict.fromkeys(str(v).strip() for v in deck.cards[column] if not is_missing(v) and str(v).strip()))
    # A deck is often asked for by the start of its name ("Shobu" for "Shobu's Fire Deck").
    near = closest(deck_name, names) or next((n for n in names if wanted in fold(n)), None)
    raise DeckstatError(tr("{option} {name!r}: no deck of that name in column {column!r}, whose decks are "
                           "{names}{hint}", option=param("deck_name"), name=deck_name, column=column,
                           names=_listed([repr(n) for n in names]),
                           hint=tr("; did you mean {name!r}?", name=near) if near is not None else ""),
                        source=deck.source)
