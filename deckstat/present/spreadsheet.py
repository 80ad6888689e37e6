r"""CSV that a spreadsheet opens as it is: the dialect of the player's language, and no formula in a text cell.

Plain CSV (``,`` between cells, ``.`` as decimal mark, UTF-8 without a BOM,
``\n`` line ends) is for programs and stays the same in every language. The
spreadsheet dialect is for a person who double-clicks the file:

- French: ``;`` between cells and a decimal comma, since French Excel and
  LibreOffice read ``,`` as the decimal mark and would put a whole row in
  one cell;
- English: ``,`` and ``.``;
- both: UTF-8 with a byte order mark (without it Excel reads the file in the
  Windows code page and « Épée » comes out as « Ã‰pÃ©e »), ``\r\n`` line
  ends, and every text cell that a spreadsheet would run as a formula (one
  starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return)
  prefixed with ``'``. Numbers stay numbers, negative ones included.

Column names and identifier values (``turn``, ``p``, ``first``, ``exact``)
are the same as in plain CSV and JSON in both languages, so that a sheet or
a formula built on one file works on the next.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import pandas as pd

from deckstat.i18n import get_language

#: Where a cell starting with these would be read by a spreadsheet as a formula (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A text cell that is a plain number is no formula, whatever its sign.
_NUMBER = re.compile(r"[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?")


@dataclass(frozen=True)
class Dialect:
    """How a CSV file is written: cell separator, decimal mark, encoding and line end."""

    sep: str
    decimal: str
    encoding: str
    lineterminator: str
    #: Whether text cells that look like formulas are neutralised.
    spreadsheet: bool


#: CSV for programs: the same in every language.
PLAIN = Dialect(sep=",", decimal=".", encoding="utf-8", lineterminator="\n", spreadsheet=False)


def spreadsheet_dialect(lang: str | None = None) -> Dialect:
    """The CSV dialect a spreadsheet opens in ``lang`` (default: the current language).

    Examples
    --------
    >>> spreadsheet_dialect("fr").sep, spreadsheet_dialect("fr").decimal, spreadsheet_dialect("en").sep
    (';', ',', ',')
    """
    if (lang or get_language()) == "fr":
        return Dialect(sep=";", decimal=",", encoding="utf-8-sig", lineterminator="\r\n", spreadsheet=True)
    return Dialect(sep=",", decimal=".", encoding="utf-8-sig", lineterminator="\r\n", spreadsheet=True)


def neutralise(value: object) -> object:
    r"""``value`` with a ``'`` in front when it is text a spreadsheet would run as a formula.

    Examples
    --------
    >>> neutralise('=HYPERLINK("http://x")'), neutralise("-2+3+cmd|' /C calc'!A0"), neutralise("@SUM(A1)")
    ('\'=HYPERLINK("http://x")', "'-2+3+cmd|' /C calc'!A0", "'@SUM(A1)")
    >>> neutralise("-3"), neutralise(-0.25), neutralise("Terrain>=1"), neutralise("+1")
    ('-3', -0.25, 'Terrain>=1', '+1')
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def _decimal(value: object, decimal: str) -> object:
    # Floats in a column of mixed values (pandas only rewrites the decimal mark of float columns).
    if isinstance(value, float) and math.isfinite(value) and decimal != ".":
        return repr(value).replace(".", decimal)
    return value


def spreadsheet_ready(frame: pd.DataFrame, dialect: Dialect) -> pd.DataFrame:
    """``frame`` with its text cells neutralised and the floats of mixed columns written with the decimal mark."""
    if not dialect.spreadsheet:
        return frame
    out = frame.copy()
    for column in out.columns:
        dtype = out[column].dtype
        if pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype):
            out[column] = out[column].map(lambda v: _decimal(neutralise(v), dialect.decimal)).astype(object)
    return out


def frame_to_csv(frame: pd.DataFrame, dialect: Dialect = PLAIN) -> str:
    r"""CSV text of ``frame`` in ``dialect`` (without the byte order mark: :attr:`Dialect.encoding` adds it).

    Examples
    --------
    >>> frame = pd.DataFrame({"turn": [0, 1], "p": [0.5, -0.25], "event": ["Épée>=1", "-x"]})
    >>> frame_to_csv(frame, spreadsheet_dialect("fr"))
    "turn;p;event\r\n0;0,5;Épée>=1\r\n1;-0,25;'-x\r\n"
    >>> frame_to_csv(frame)
    'turn,p,event\n0,0.5,Épée>=1\n1,-0.25,-x\n'
    """
    return spreadsheet_ready(frame, dialect).to_csv(index=False, sep=dialect.sep, decimal=dialect.decimal,
                                                     lineterminator=dialect.lineterminator)


def csv_bytes(frame: pd.DataFrame, dialect: Dialect = PLAIN) -> bytes:
    """The bytes of ``frame``'s CSV file in ``dialect``, byte order mark included when the dialect has one."""
    return frame_to_csv(frame, dialect).encode(dialect.encoding)
