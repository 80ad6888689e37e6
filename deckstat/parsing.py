"""Small parsers every layer shares: top-level splits, ``GROUP=COUNT``, card cells as numbers, TOML table keys.

Each reads text one way wherever it is typed (an option, a batch spec, a profile, a card file), so the same
input is split, counted and refused alike; positions are kept for the messages that point at a token.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import NamedTuple

from deckstat.i18n import N_, tr
from deckstat.text import suggest

#: Characters that close a comparison, so ``Terrain<=2`` or ``a==2`` is not read as ``GROUP=COUNT``.
_OPERATOR_ENDS = "<>!=~"
_LINE_BREAKS = "\n\r"


class Piece(NamedTuple):
    """A piece of a text and where it starts in it (0-based)."""

    text: str
    start: int

    def strip(self) -> Piece:
        """The piece without outer spaces, its start moved to its first character."""
        return Piece(self.text.strip(), self.start + len(self.text) - len(self.text.lstrip()))


def opens_quote(text: str, index: int, quotes: str = "\"'") -> bool:
    """Whether ``text[index]`` opens a quoted span: a quote character that is no apostrophe inside a word.

    French and English card names hold apostrophes (``PILOTE D'AVION``, ``FREDDY'S``, ``Pangaea's Song``): a
    ``'`` right after a letter or a digit belongs to the word; only one at the start of a word opens a quote.

    Examples
    --------
    >>> [opens_quote(t, t.index("'")) for t in ("'A B'", "D'AVION", "x='1'")]
    [True, False, True]
    """
    ch = text[index]
    return ch in quotes and not (ch == "'" and index > 0 and text[index - 1].isalnum())


def _top_level(text: str, chars: str, brackets: str, quotes: str, lines: bool) -> Iterator[int]:
    """Indexes of ``chars`` outside brackets and quotes (and, with ``lines``, of every line break).

    One depth counts every kind of bracket; a closing bracket with none open is ignored. With ``lines``, a line
    break ends any bracket or quote left open, so one bad line never swallows the next.
    """
    openers, closers = brackets[0::2], brackets[1::2]
    depth, quote = 0, None
    for i, ch in enumerate(text):
        if lines and ch in _LINE_BREAKS:
            depth, quote = 0, None
            yield i
        elif quote:
            quote = None if ch == quote else quote
        elif opens_quote(text, i, quotes):
            quote = ch
        elif ch in openers:
            depth += 1
        elif ch in closers:
            depth = max(depth - 1, 0)
        elif ch in chars and depth == 0:
            yield i


def find_top_level(text: str, chars: str, *, brackets: str = "()[]", quotes: str = "\"'") -> int:
    """Index of the first of ``chars`` outside brackets and quotes, or -1.

    Parameters
    ----------
    text : str
        The text to search.
    chars : str
        The characters looked for.
    brackets : str
        Bracket pairs, opener then closer (``"()[]"``).
    quotes : str
        Characters that open and close a quoted span.

    Examples
    --------
    >>> find_top_level('"a=b" [x<=1] <= 2', "<>=", brackets="[]")
    13
    """
    return next(_top_level(text, chars, brackets, quotes, False), -1)


def split_top_level(text: str, separators: str = ",", *, brackets: str = "()[]", quotes: str = "\"'",
                    lines: bool = False) -> list[Piece]:
    """Split ``text`` at the ``separators`` outside brackets and quotes.

    Parameters
    ----------
    text : str
        The text to split.
    separators : str
        Each character that separates two pieces.
    brackets : str
        Bracket pairs, opener then closer; separators inside them do not split.
    quotes : str
        Characters that open and close a quoted span; separators inside one do not split. ``""`` for text where
        an apostrophe belongs to a name (``L'Ours``).
    lines : bool
        Whether a line break also separates (and ends any bracket or quote left open on its line).

    Returns
    -------
    list of Piece
        Every piece as written, empty ones included, with its 0-based start: joining the pieces with the
        separators found gives ``text`` back.

    Examples
    --------
    >>> [p.text for p in split_top_level("Promo (Starter, 2), holo", brackets="()", quotes="")]
    ['Promo (Starter, 2)', ' holo']
    >>> split_top_level('[cost<=1]=0, "A, B"')
    [Piece(text='[cost<=1]=0', start=0), Piece(text=' "A, B"', start=12)]
    """
    pieces, start = [], 0
    for i in _top_level(text, separators, brackets, quotes, lines):
        pieces.append(Piece(text[start:i], start))
        start = i + 1
    pieces.append(Piece(text[start:], start))
    return pieces


def whole_text(text: str) -> int | None:
    """``text`` as a whole number written in the digits 0-9 (outer spaces allowed), else ``None``.

    ``str.isdigit`` also accepts ``²`` and other digits ``int`` cannot read; this does not.

    Examples
    --------
    >>> whole_text(" 12 "), whole_text("²"), whole_text("-1"), whole_text("")
    (12, None, None, None)
    """
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else None


def split_group_count(item: str) -> tuple[str, int | str] | None:
    """Read ``GROUP=COUNT`` (``Terrain=2``, ``[cost<=1]=1``): the group and its count, split at the last ``=``.

    Parameters
    ----------
    item : str
        One item of a list (``--group``, a hand given by group counts).

    Returns
    -------
    tuple of (str, int or str) or None
        The group and the count without outer spaces, the count as an int when written in digits and as the
        text otherwise (for a message to quote); ``None`` when the item is no ``GROUP=COUNT``: no ``=``, nothing
        on one side, or a comparison (``Terrain>=2``, ``a==2``).

    Examples
    --------
    >>> split_group_count(" Terrain = 12"), split_group_count("[cost<=1]=x"), split_group_count("Terrain>=2")
    (('Terrain', 12), ('[cost<=1]', 'x'), None)
    """
    head, equals, tail = item.rpartition("=")
    head, tail = head.strip(), tail.strip()
    if not equals or not head or not tail or head[-1] in _OPERATOR_ENDS:
        return None
    count = whole_text(tail)
    return head, tail if count is None else count


def whole_number(value: object, *, most: int | None = None) -> int | None:
    """A card cell as a whole number from 0 to ``most``, or ``None`` when it is not one.

    Reads what a card file holds: integers, floats with nothing after the point (``3.0``), text in digits with
    a decimal point or a French decimal comma (``"2"``, ``"2,0"``). A blank, a missing value, a fraction, a
    negative or non-finite number, a truth value and digit groups (``1_000``, ``1 000``) are not numbers of cards.

    Parameters
    ----------
    value : object
        The cell as the card table holds it.
    most : int, optional
        The largest number accepted (beyond it a value is a typo).

    Examples
    --------
    >>> whole_number("2,0"), whole_number(3.0), whole_number(" 4 "), whole_number("1,5"), whole_number("")
    (2, 3, 4, None, None)
    >>> whole_number(float("nan")), whole_number(-1), whole_number(True), whole_number(11, most=10)
    (None, None, None, None)
    """
    # numbers.Integral and numbers.Real take numpy's scalars too; numpy's truth values read as text, and fail.
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, numbers.Integral):
        number: float = int(value)
    elif isinstance(value, numbers.Real):
        number = float(value)
    else:
        text = str(value).strip()
        if "_" in text:
            return None
        try:
            number = float(text.replace(",", "."))
        except ValueError:
            return None
    if not math.isfinite(number) or number < 0 or (most is not None and number > most) or number != int(number):
        return None
    return int(number)


def unknown_key(table: Mapping, allowed: Sequence[str], *, accept: Callable[[str], bool] | None = None,
                rule: str | None = None) -> tuple[str, str] | None:
    """The first key of a TOML table that the table does not read, and the message that refuses it.

    Profiles and batch specs refuse a misspelt key in one shape, after the place they name: ``KEY: unknown
    key; did you mean 'x'?``, or the keys the table reads when none is close.

    Parameters
    ----------
    table : Mapping
        The table as ``tomllib`` reads it.
    allowed : sequence of str
        The keys it reads.
    accept : callable, optional
        Whether a key outside ``allowed`` is read all the same (a ``<key>_<lang>`` translation).
    rule : str, optional
        The kind of rule the table describes, named in the message (its keys depend on it).

    Returns
    -------
    tuple of (str, str) or None
        The key and the message (without the place), or ``None`` when every key is read.

    Examples
    --------
    >>> unknown_key({"hand_sise": 5}, ["hand_size", "mulligan"])
    ('hand_sise', "unknown key; did you mean 'hand_size'?")
    >>> unknown_key({"zzz": 1}, ["min", "max"], rule="count")
    ('zzz', "unknown key for a 'count' rule; expected one of min, max")
    """
    for name in table:
        key = str(name)
        if key in allowed or (accept is not None and accept(key)):
            continue
        hint = suggest(key, list(allowed))
        if rule is None:
            message = tr("unknown key{hint}", hint=hint) if hint else \
                tr("unknown key; expected one of {keys}", keys=", ".join(allowed))
        else:
            message = tr("unknown key for a {kind!r} rule{hint}", kind=rule, hint=hint) if hint else \
                tr("unknown key for a {kind!r} rule; expected one of {keys}", kind=rule, keys=", ".join(allowed))
        return key, message
    return None


#: How messages name the kind of a value a TOML file gives (``true``, ``3``, ``"x"``, ``[…]``, ``{…}``).
KIND_NAMES = {bool: N_("true/false"), int: N_("a whole number"), float: N_("a number"), str: N_("a text"),
              list: N_("a list"), dict: N_("a table")}


def kind_name(value: object) -> str:
    """The kind of a TOML value as a message names it (``a whole number``, ``a table``)."""
    name = KIND_NAMES.get(type(value))
    return type(value).__name__ if name is None else tr(name)


def shown_value(value: object) -> str:
    """A value in a message: tables and lists named (``a table``), others as written, shortened past 60 characters."""
    if isinstance(value, (dict, list)):
        return kind_name(value)
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def wrong_kind(value: object, expected: str) -> str:
    """The message that refuses a TOML value of the wrong kind; profiles and batch specs word it alike.

    Tables and lists are named, not printed; other values are shown, shortened past 60 characters.

    Parameters
    ----------
    value : object
        The value as ``tomllib`` reads it.
    expected : str
        What the key takes, as the message says it (``a whole number``, ``a list of texts``).

    Examples
    --------
    >>> wrong_kind("4", "a whole number")
    "expected a whole number, got a text '4'"
    >>> wrong_kind({"a": 1}, "a list")
    'expected a list, got a table'
    """
    if isinstance(value, (dict, list)):
        return tr("expected {expected}, got {kind}", expected=expected, kind=kind_name(value))
    return tr("expected {expected}, got {kind} {value}", expected=expected, kind=kind_name(value),
              value=shown_value(value))
