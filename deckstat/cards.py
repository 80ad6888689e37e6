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

import csv
import io
import itertools
import math
import re
from pathlib import Path

import pandas as pd

from deckstat.deck import MAX_COPIES, Deck
from deckstat.errors import DeckstatError, param
from deckstat.schema import canonical_column
from deckstat.text import fold, suggest

_TRUE_WORDS = {"oui", "yes", "true", "vrai", "x", "o", "y"}
_FALSE_WORDS = {"non", "no", "false", "faux", "n", ""}
_NUMBER = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)$")
_LIST_SEPARATOR = ";"
_DELIMITERS = (",", ";", "\t")
#: Integers beyond this magnitude are not exact as floats; such a column stays float.
_MAX_EXACT_INT = 2**53


def _read_text(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise DeckstatError("file not found", source=str(path)) from None
    except IsADirectoryError:
        raise DeckstatError("is a directory, expected a CSV or text file", source=str(path)) from None
    except OSError as exc:
        raise DeckstatError(f"cannot be read ({exc.strerror})", source=str(path)) from None
    if raw.startswith(b"PK\x03\x04"):
        raise DeckstatError("is a zip archive (an .xlsx or .ods workbook?); save it as CSV first",
                            source=str(path))
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise DeckstatError("is UTF-16 text; save it as UTF-8 or cp1252 (Excel: \"CSV UTF-8\" or "
                            "\"CSV (séparateur: point-virgule)\")", source=str(path))
    if b"\x00" in raw:
        raise DeckstatError("is a binary file, expected a CSV or text file", source=str(path))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Excel on French Windows writes cp1252.
        text = raw.decode("cp1252", errors="replace")
    if not text.strip():
        raise DeckstatError("is empty, expected a header row and one row per card", source=str(path))
    return text


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
    if folded <= (_TRUE_WORDS | _FALSE_WORDS) and not folded <= {"x", "n"}:
        return [None if not v.strip() else int(fold(v) in _TRUE_WORDS) for v in values]
    return [v.strip() or None for v in values]


def _parse_count(text: str, source: str, line: int, header: str) -> int:
    value = text.strip()
    if not value:
        return 1
    number = _parse_number(value.rstrip("xX×"), decimal_comma=True)
    if number is None or not float(number).is_integer():
        raise DeckstatError(f"count {value!r} is not a whole number", source=source, line=line,
                            column=header)
    if number <= 0:
        raise DeckstatError(f"count {value!r} must be at least 1", source=source, line=line, column=header)
    if number > MAX_COPIES:
        raise DeckstatError(f"count {value!r} is too large (at most {MAX_COPIES})", source=source, line=line,
                            column=header)
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
    text = _read_text(path)
    delimiter = _sniff_delimiter(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header: list[str] = []
        while not any(h.strip() for h in header):  # skip blank lines above the header
            header = next(reader)
    except (StopIteration, csv.Error):  # only delimiters, no header cell
        raise DeckstatError("has no header row", source=source, line=reader.line_num or None) from None
    header_line = reader.line_num
    header = [h.strip() for h in header]
    canonical = [canonical_column(h) for h in header]
    if "name" not in canonical:
        raise DeckstatError(
            f"no card-name column; the header is {', '.join(repr(h) for h in header)}, expected one of "
            "'name', 'nom', 'carte'", source=source, line=header_line)
    for i, col in enumerate(canonical):
        if header[i] and canonical.index(col) != i:
            first = header[canonical.index(col)]
            raise DeckstatError(f"columns {first!r} and {header[i]!r} both mean {col!r}", source=source,
                                line=header_line)
    rows: list[list[str]] = []
    row_lines: list[int] = []
    name_idx = canonical.index("name")
    try:
        last_line = reader.line_num
        for fields in reader:
            first_line, last_line = last_line + 1, reader.line_num
            if not any(f.strip() for f in fields):
                continue
            if "\n" in fields[name_idx] or "\r" in fields[name_idx]:
                shown = repr(fields[name_idx][:40]) + ("…" if len(fields[name_idx]) > 40 else "")
                raise DeckstatError(f"the card name {shown} spans several lines; is a quote (\") left open?",
                                    source=source, line=first_line, column=header[name_idx])
            if len(fields) > len(header) and any(f.strip() for f in fields[len(header):]):
                extra = next(f.strip() for f in fields[len(header):] if f.strip())
                raise DeckstatError(
                    f"{len(fields)} fields but the header has {len(header)} (delimiter {delimiter!r}); "
                    f"the extra value is {extra!r}", source=source, line=reader.line_num)
            fields = (fields + [""] * len(header))[: len(header)]
            rows.append(fields)
            row_lines.append(reader.line_num)
    except csv.Error as exc:
        raise DeckstatError(f"malformed CSV ({exc})", source=source, line=reader.line_num) from None
    if not rows:
        raise DeckstatError("has a header but no card rows", source=source, line=header_line)
    # Spreadsheets often save trailing empty columns ("Nom;Qté;;"): drop them when they hold nothing.
    for i, h in enumerate(header):
        if not h:
            filled = [(ln, r[i].strip()) for r, ln in zip(rows, row_lines) if r[i].strip()]
            if filled:
                raise DeckstatError(f"column {i + 1} has no header but holds {filled[0][1]!r}",
                                    source=source, line=filled[0][0])
    keep_columns = [i for i, h in enumerate(header) if h]
    header = [header[i] for i in keep_columns]
    canonical = [canonical[i] for i in keep_columns]
    rows = [[r[i] for i in keep_columns] for r in rows]

    name_idx = canonical.index("name")
    count_idx = canonical.index("count") if "count" in canonical else None
    decimal_comma = delimiter != ","
    columns: dict[str, list[object]] = {}
    for i, col in enumerate(canonical):
        if i == name_idx:
            columns[col] = [r[i].strip() for r in rows]
        elif i == count_idx:
            columns[col] = [_parse_count(r[i], source, ln, header[i]) for r, ln in zip(rows, row_lines)]
        else:
            columns[col] = _convert_column([r[i] for r in rows], decimal_comma)
    for ln, name in zip(row_lines, columns["name"]):
        if not name:
            raise DeckstatError("empty card name", source=source, line=ln, column=header[name_idx])
    if count_idx is None:
        columns["count"] = [1] * len(rows)
    table = pd.DataFrame(columns)
    raw = {col: [r[i].strip() for r in rows] for i, col in enumerate(canonical)}
    table = _merge_duplicates(table, row_lines, source, dict(zip(canonical, header)), raw)
    return Deck.from_table(table, source=source)


def _show(cell: str) -> str:
    return repr(cell) if cell else "empty"


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
    """Sum the counts of repeated names; refuse repeats whose attributes differ."""
    key_columns = ["name"] + (["deck"] if "deck" in table.columns else [])
    first_row: dict[tuple, int] = {}
    keep: list[int] = []
    counts = list(table["count"])
    attributes = [c for c in table.columns if c not in ("name", "count", "deck")]
    records = table.to_dict("records")
    for i, record in enumerate(records):
        key = tuple(fold(record[c]) for c in key_columns)
        if key not in first_row:
            first_row[key] = i
            keep.append(i)
            continue
        j = first_row[key]
        for col in attributes:
            if not _same(records[j][col], record[col]):
                raise DeckstatError(
                    f"card {record['name']!r} is also on line {row_lines[j]} with {headers.get(col, col)} "
                    f"{_show(raw[col][j])}, here {_show(raw[col][i])}; give each card one row, or the same "
                    "attributes", source=source, line=row_lines[i], column=headers.get(col, col))
        counts[j] += counts[i]
    merged = table.iloc[keep].copy()
    merged["count"] = [counts[i] for i in keep]
    return merged.reset_index(drop=True)


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


def read_decklist(path: str | Path, pool: Deck | str | Path) -> Deck:
    """Load a plain-text decklist resolved against a card pool.

    Each line is ``3 Nom de carte``, ``3x Nom de carte`` or ``Nom de carte``
    (one copy). Blank lines and lines starting with ``#`` or ``//`` are
    ignored. A line ``[Préparation]`` or ``Préparation:`` starts a section
    whose name is stored in the ``deck`` column (for games with two decks).

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
    pool_table = pool_deck.cards.drop(columns=["count", "deck"], errors="ignore")
    by_name: dict[str, int] = {}
    for i, name in enumerate(pool_table["name"]):
        by_name.setdefault(fold(name), i)
    text = _read_text(path)
    entries: list[tuple[int, int, str | None]] = []
    section: str | None = None
    for line_no, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "//")):
            continue
        section_match = _SECTION_LINE.match(stripped)
        if section_match:
            section = (section_match.group(1) or section_match.group(2)).strip()
            continue
        parses = _decklist_parses(stripped)
        count_text, name = next((p for p in parses if fold(p[1]) in by_name), parses[0])
        count = int(count_text) if count_text else 1
        if count <= 0:
            raise DeckstatError(f"count {count_text!r} must be at least 1", source=source, line=line_no)
        if count > MAX_COPIES:
            raise DeckstatError(f"count {count_text!r} is too large (at most {MAX_COPIES})", source=source,
                                line=line_no)
        key = fold(name)
        if key not in by_name:
            hint = suggest(name, list(pool_table["name"]))
            raise DeckstatError(f"unknown card {name!r}, not in the pool {pool_deck.source}{hint}",
                                source=source, line=line_no)
        entries.append((by_name[key], count, section))
    if not entries:
        raise DeckstatError("lists no cards", source=source)
    rows = []
    for pool_index, count, sec in entries:
        row = dict(pool_table.iloc[pool_index])
        row["count"] = count
        if section is not None or sec is not None:
            row["deck"] = sec
        rows.append(row)
    table = pd.DataFrame(rows)
    key_columns = ["name"] + (["deck"] if "deck" in table.columns else [])
    table["_key"] = [tuple(fold(v) for v in vals) for vals in table[key_columns].itertuples(index=False)]
    counts = table.groupby("_key", sort=False)["count"].sum()
    table = table.drop_duplicates("_key").copy()
    table["count"] = [counts[k] for k in table["_key"]]
    table = table.drop(columns="_key").reset_index(drop=True)
    return Deck.from_table(table, source=source)


def load_deck(path: str | Path, *, pool: str | Path | Deck | None = None) -> Deck:
    """Load a deck from a card CSV, or from a text decklist and a card pool.

    Parameters
    ----------
    path : str or Path
        A card CSV (one row per distinct card) or, with ``pool``, a text
        decklist (``3 Nom`` per line).
    pool : str, Path or Deck, optional
        Card pool CSV that resolves the names of a text decklist.

    Returns
    -------
    Deck

    Examples
    --------
    >>> deck = load_deck(DATA / "wankul" / "sample_deck.csv")  # DATA: the repository's data/ folder
    >>> deck.size, deck.count("Terrain")
    (50, 10)
    """
    if pool is not None:
        return read_decklist(path, pool)
    if Path(path).suffix.lower() in (".txt", ".dec", ".list"):
        raise DeckstatError(f"looks like a text decklist; give the card pool CSV that resolves its names with "
                            f"{param('pool')}", source=str(path))
    return read_card_csv(path)
