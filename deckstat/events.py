"""The event language: groups of cards and boolean conditions on their counts.

Grammar (keywords are case-insensitive; ``et``/``ou``/``non`` are accepted too)::

    event      := or_expr
    or_expr    := and_expr ("or" and_expr)*
    and_expr   := not_expr ("and" not_expr)*
    not_expr   := "not" not_expr | "(" event ")" | count
    count      := group [OP INTEGER]          # a group alone means "group >= 1"
    group      := WORD | "quoted name" | "[" attribute ATTR_OP value "]"
    OP         := ">=" | "<=" | ">" | "<" | "=" | "==" | "!="
    ATTR_OP    := OP | "~"                    # "~": the value contains the text

A bare word or quoted string matches a card type, a tag or a card name, case-
and accent-insensitively. ``[cost<=1]`` compares an attribute; list attributes
(``Fire;Water``) match when any item does. Groups may overlap.

The parser is a hand-written recursive descent over a tokenizer: no ``eval``,
and every error names the character position it found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

import numpy as np

from deckstat.errors import ExpressionError
from deckstat.text import fold

COUNT_OPS = (">=", "<=", "==", "!=", "=", ">", "<")
ATTR_OPS = COUNT_OPS + ("~",)
_KEYWORDS = {"and": "and", "et": "and", "or": "or", "ou": "or", "not": "not", "non": "not"}
_WORD = re.compile(r"[^\s()\[\]<>=!~\"']+")
_INT = re.compile(r"\d+")
_NUMBER = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)$")


@dataclass(frozen=True)
class NameGroup:
    """Cards whose type, one of whose tags, or whose name is ``text``."""

    text: str
    position: int = 0

    @property
    def key(self) -> str:
        """Identity of the group: two spellings that fold alike are one group."""
        return fold(self.text)

    @property
    def label(self) -> str:
        """How the group is written back in output."""
        return self.text if _WORD.fullmatch(self.text) else f'"{self.text}"'


@dataclass(frozen=True)
class AttributeGroup:
    """Cards whose attribute compares true with a value, e.g. ``[cost<=1]``."""

    attribute: str
    op: str
    value: str | float
    position: int = 0

    @property
    def key(self) -> str:
        """Identity of the group."""
        value = self.value if isinstance(self.value, float) else fold(self.value)
        op = "=" if self.op == "==" else self.op
        return f"[{fold(self.attribute)}{op}{value}]"

    @property
    def label(self) -> str:
        """How the group is written back in output."""
        value = self.value
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return f"[{self.attribute}{self.op}{value}]"


Group = Union[NameGroup, AttributeGroup]


@dataclass(frozen=True)
class Count:
    """``group OP n``: a comparison of a group's count with a whole number."""

    group: Group
    op: str
    n: int


@dataclass(frozen=True)
class Not:
    """Negation."""

    item: Event


@dataclass(frozen=True)
class And:
    """Conjunction."""

    items: tuple[Event, ...]


@dataclass(frozen=True)
class Or:
    """Disjunction."""

    items: tuple[Event, ...]


Event = Union[Count, Not, And, Or]


@dataclass(frozen=True)
class _Token:
    kind: str  # word, string, int, op, lparen, rparen, attr, keyword, end
    text: str
    position: int  # 1-based
    value: object = None


class _Tokenizer:
    def __init__(self, text: str, what: str):
        self.text = text
        self.what = what

    def error(self, message: str, position: int) -> ExpressionError:
        return ExpressionError(message, source=f"{self.what} {self.text!r}", column=position)

    def tokens(self) -> list[_Token]:
        text, i, out = self.text, 0, []
        while i < len(text):
            ch = text[i]
            if ch.isspace():
                i += 1
            elif ch == "(":
                out.append(_Token("lparen", ch, i + 1))
                i += 1
            elif ch == ")":
                out.append(_Token("rparen", ch, i + 1))
                i += 1
            elif ch == "[":
                end = self._closing_bracket(i)
                out.append(self._attribute(i, end))
                i = end + 1
            elif ch == "]":
                raise self.error("']' without a matching '['", i + 1)
            elif ch in "\"'":
                end = text.find(ch, i + 1)
                if end < 0:
                    raise self.error(f"unclosed quote {ch}", i + 1)
                if end == i + 1:
                    raise self.error("empty quoted name", i + 1)
                out.append(_Token("string", text[i + 1:end], i + 1))
                i = end + 1
            elif ch in "<>=!~":
                op = next((op for op in ATTR_OPS if text.startswith(op, i)), None)
                if op is None or op == "~":
                    raise self.error(f"unexpected {ch!r}; comparisons are {' '.join(COUNT_OPS)}", i + 1)
                out.append(_Token("op", op, i + 1))
                i += len(op)
            else:
                match = _WORD.match(text, i)
                word = match.group(0)
                if _INT.fullmatch(word):
                    out.append(_Token("int", word, i + 1, int(word)))
                elif fold(word) in _KEYWORDS:
                    out.append(_Token("keyword", _KEYWORDS[fold(word)], i + 1))
                else:
                    out.append(_Token("word", word, i + 1))
                i = match.end()
        out.append(_Token("end", "", len(text) + 1))
        return out

    def _closing_bracket(self, start: int) -> int:
        quote = None
        for j in range(start + 1, len(self.text)):
            ch = self.text[j]
            if quote:
                quote = None if ch == quote else quote
            elif ch in "\"'":
                quote = ch
            elif ch == "]":
                return j
            elif ch == "[":
                break
        raise self.error("'[' without a matching ']'", start + 1)

    def _attribute(self, start: int, end: int) -> _Token:
        inner = self.text[start + 1:end]
        match = re.search(r">=|<=|==|!=|=|>|<|~", inner)
        if match is None:
            raise self.error("expected an attribute comparison such as [cost<=1]", start + 1)
        attribute = inner[: match.start()].strip()
        raw_value = inner[match.end():].strip()
        if not attribute:
            raise self.error(f"missing attribute name before {match.group(0)!r}", start + 2)
        if not raw_value:
            raise self.error(f"missing value after {match.group(0)!r}", start + 2 + match.end())
        if len(raw_value) >= 2 and raw_value[0] == raw_value[-1] and raw_value[0] in "\"'":
            value: str | float = raw_value[1:-1]
        elif _NUMBER.match(raw_value):
            value = float(raw_value.replace(",", "."))
        else:
            value = raw_value
        if match.group(0) in ("<", "<=", ">", ">=") and not isinstance(value, float):
            raise self.error(f"{match.group(0)!r} needs a number, got {raw_value!r}", start + 2 + match.end())
        group = AttributeGroup(attribute, match.group(0), value, start + 1)
        return _Token("attr", self.text[start:end + 1], start + 1, group)


class _Parser:
    def __init__(self, text: str, what: str):
        self.tokenizer = _Tokenizer(text, what)
        self.tokens = self.tokenizer.tokens()
        self.index = 0

    @property
    def current(self) -> _Token:
        return self.tokens[self.index]

    def advance(self) -> _Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def error(self, message: str, token: _Token | None = None) -> ExpressionError:
        token = token or self.current
        return self.tokenizer.error(message, token.position)

    def parse(self) -> Event:
        if self.current.kind == "end":
            raise self.error("empty expression; expected something like Terrain>=1")
        event = self.or_expr()
        if self.current.kind != "end":
            raise self.error(f"unexpected {self.current.text!r}; expected 'and', 'or' or the end")
        return event

    def or_expr(self) -> Event:
        items = [self.and_expr()]
        while self.current.kind == "keyword" and self.current.text == "or":
            self.advance()
            items.append(self.and_expr())
        return items[0] if len(items) == 1 else Or(tuple(items))

    def and_expr(self) -> Event:
        items = [self.not_expr()]
        while self.current.kind == "keyword" and self.current.text == "and":
            self.advance()
            items.append(self.not_expr())
        return items[0] if len(items) == 1 else And(tuple(items))

    def not_expr(self) -> Event:
        token = self.current
        if token.kind == "keyword" and token.text == "not":
            self.advance()
            return Not(self.not_expr())
        if token.kind == "lparen":
            self.advance()
            inner = self.or_expr()
            if self.current.kind != "rparen":
                raise self.error(f"expected ')' to close the '(' at position {token.position}")
            self.advance()
            return inner
        return self.count()

    def count(self) -> Count:
        group = self.group()
        if self.current.kind != "op":
            return Count(group, ">=", 1)
        op = self.advance().text
        number = self.current
        if number.kind != "int":
            shown = number.text or "the end"
            raise self.error(f"expected a whole number after {op!r}, got {shown!r}")
        self.advance()
        return Count(group, "==" if op == "=" else op, number.value)

    def group(self) -> Group:
        token = self.advance()
        if token.kind == "word":
            group: Group = NameGroup(token.text, token.position)
        elif token.kind == "string":
            group = NameGroup(token.text, token.position)
        elif token.kind == "attr":
            group = token.value
        elif token.kind == "end":
            raise self.error("unexpected end; expected a card group such as Terrain or [cost<=1]", token)
        else:
            raise self.error(f"unexpected {token.text!r}; expected a card group such as Terrain or [cost<=1]",
                             token)
        return group


def parse_event(text: str, *, what: str = "event") -> Event:
    """Parse an event expression.

    Parameters
    ----------
    text : str
        For example ``"Terrain>=1 and [cost<=1]>=2"``.
    what : str
        How the expression is named in error messages (``event``, ``keep rule``).

    Returns
    -------
    Event
        The syntax tree; see :func:`groups_of`, :func:`count_caps` and :func:`evaluate`.

    Raises
    ------
    ExpressionError
        With the 1-based character position of the problem.

    Examples
    --------
    >>> parse_event("Terrain>=1 and not [cost>2]>=1")  # doctest: +ELLIPSIS
    And(items=(Count(group=NameGroup(text='Terrain', ...
    """
    if not isinstance(text, str):
        raise ExpressionError(f"expected text, got {type(text).__name__}", source=what)
    return _Parser(text, what).parse()


def parse_group(text: str, *, what: str = "group") -> Group:
    """Parse a single group (``Terrain``, ``"Nom de carte"``, ``[cost<=1]``)."""
    if not isinstance(text, str):
        raise ExpressionError(f"expected text, got {type(text).__name__}", source=what)
    parser = _Parser(text, what)
    group = parser.group()
    if parser.current.kind != "end":
        raise parser.error(f"unexpected {parser.current.text!r}; expected a single card group such as "
                           "Terrain or [cost<=1]")
    return group


def iter_counts(event: Event):
    """Yield every :class:`Count` node of ``event``."""
    if isinstance(event, Count):
        yield event
    elif isinstance(event, Not):
        yield from iter_counts(event.item)
    else:
        for item in event.items:
            yield from iter_counts(item)


def groups_of(event: Event) -> dict[str, Group]:
    """Return the distinct groups of ``event`` by key, in order of appearance."""
    out: dict[str, Group] = {}
    for count in iter_counts(event):
        out.setdefault(count.group.key, count.group)
    return out


def count_caps(event: Event) -> dict[str, int]:
    """Return, per group key, the count above which the event no longer changes.

    A group's count only matters up to one more than the largest number it is
    compared with, so exact engines can saturate counts there.
    """
    caps: dict[str, int] = {}
    for count in iter_counts(event):
        caps[count.group.key] = max(caps.get(count.group.key, 0), count.n + 1)
    return caps


_COMPARE = {
    ">=": np.greater_equal, "<=": np.less_equal, ">": np.greater, "<": np.less,
    "==": np.equal, "!=": np.not_equal,
}


def evaluate(event: Event, counts: dict[str, np.ndarray]) -> np.ndarray:
    """Evaluate ``event`` on arrays of group counts.

    Parameters
    ----------
    event : Event
    counts : dict of str to ndarray
        Count of each group (by key); arrays broadcast together.

    Returns
    -------
    ndarray of bool
    """
    if isinstance(event, Count):
        return _COMPARE[event.op](counts[event.group.key], event.n)
    if isinstance(event, Not):
        return np.logical_not(evaluate(event.item, counts))
    parts = [evaluate(item, counts) for item in event.items]
    combine = np.logical_and if isinstance(event, And) else np.logical_or
    result = parts[0]
    for part in parts[1:]:
        result = combine(result, part)
    return result


def to_text(event: Event) -> str:
    """Write ``event`` back in canonical form (used as the ``event`` column of results)."""
    if isinstance(event, Count):
        return f"{event.group.label}{event.op}{event.n}"
    if isinstance(event, Not):
        inner = to_text(event.item)
        return f"not {inner}" if isinstance(event.item, Count) else f"not ({inner})"
    word = " and " if isinstance(event, And) else " or "
    parts = []
    for item in event.items:
        text = to_text(item)
        needs_parens = isinstance(item, (And, Or)) and type(item) is not type(event)
        parts.append(f"({text})" if needs_parens else text)
    return word.join(parts)
