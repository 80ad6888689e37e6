"""The event language: groups of cards and boolean conditions on their counts.

Grammar (keywords are case-insensitive; ``et``/``ou``/``non`` are accepted too)::

    event      := or_expr
    or_expr    := and_expr ("or" and_expr)*
    and_expr   := not_expr ("and" not_expr)*
    not_expr   := "not" not_expr | "(" event ")" | cards | count
    cards      := "distinct_cards" "(" requirement ("," requirement)* ")"
    requirement:= [INTEGER] group ("|" group)*  # INTEGER cards of any of the groups, 1 when left out
    count      := counted [OP INTEGER]        # a group alone means "group >= 1"
    counted    := group | "distinct" "(" group ")"
    group      := WORD | "quoted name" | "[" attribute ATTR_OP value "]" | "[" attribute "]"
    OP         := ">=" | "<=" | ">" | "<" | "=" | "==" | "!="
    ATTR_OP    := OP | "~=" | "~"             # "~": contains the text; "~=": contains the whole word
    value      := NUMBER | text | "quoted text" # "<", "<=", ">", ">=" need a NUMBER; "~", "~=" keep text

A bare word or quoted string matches a card type, a tag or a card name, case-
and accent-insensitively. ``[cost<=1]`` compares an attribute; list attributes
(``Fire;Water``) match when any item does. ``[race~Dragon]`` matches a value
that contains the text anywhere (``Armored Dragon``, ``Dragonoid``);
``[race~=Dragon]`` only one that contains it as a whole word, bounded by
non-alphanumeric characters or the ends (``Armored Dragon``, not
``Dragonoid``), as CSS's ``~=``. An attribute alone, ``[shield_trigger]``, is
the cards for which a yes/no attribute is true (``1``, ``oui``, ``yes``…), as
``[shield_trigger=1]``. Groups may overlap. A game profile may
declare values that mean the same (``Feu`` and ``Fire``): see
:class:`deckstat.synonyms.Synonyms`.

``distinct(Impro)>=2`` (in French ``différentes(Impro)>=2``, or
``distinctes``) counts the different card *names* of a group in the zone,
not its copies: two copies of one Impro make 1, printings of one name are
one card. ``distinct(G)`` alone means ``distinct(G)>=1``, the same as ``G``.
The plain and the distinct count of one group may appear in one event
(``Impro>=3 and distinct(Impro)>=2``). A card named ``Distinct`` is written
in quotes.

``distinct_cards(Terrain, 2 [cost<=1], Ninja|Robot)`` (in French
``cartes_distinctes(...)``) holds when the zone has cards enough to meet
every requirement with *different physical cards*: a Terrain, two cheap cards
and a Ninja or a Robot, five cards in all, where a card in two groups fills
one requirement only. By Hall's theorem it holds exactly when, for every set
of requirements, the cards that can fill one of them are at least as many as
they need together; so it is a condition on the counts of the cards that fill
each combination of requirements (:class:`PatternGroup`), which both engines
count as they count any group.

The parser is a hand-written recursive descent over a tokenizer: no ``eval``,
and every error names the character position it found. Nesting of parentheses
and ``not`` is limited to :data:`MAX_DEPTH` levels. :func:`to_text` writes an
event so that :func:`parse_event` reads back the same tree.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

from deckstat.errors import ExpressionError
from deckstat.i18n import N_, number, tr
from deckstat.parsing import opens_quote
from deckstat.terms import MOST_EXPRESSION_CHARS, MOST_EXPRESSION_DEPTH, MOST_EXPRESSION_TERMS
from deckstat.text import fold, format_number

if TYPE_CHECKING:  # numpy is imported where events are evaluated: reading one (a profile, a command line) needs none
    import numpy as np

COUNT_OPS = (">=", "<=", "==", "!=", "=", ">", "<")
#: Operators that compare text only: ``~`` (contains the text) and ``~=`` (contains the whole word).
TEXT_OPS = ("~=", "~")
ATTR_OPS = COUNT_OPS + TEXT_OPS
_KEYWORDS = {"and": "and", "et": "and", "or": "or", "ou": "or", "not": "not", "non": "not",
             "distinct": "distinct", "distinctes": "distinct", "differentes": "distinct",
             "distinct_cards": "cards", "cartes_distinctes": "cards"}
#: A bare word inside ``distinct_cards(...)``, where ``,`` and ``|`` separate requirements and alternatives.
_CARDS_WORD = re.compile(r"(?:[^\s()\[\]<>=!~\"',|]|(?<=\w)')+")
#: Most requirements of one ``distinct_cards(...)``: it reads the counts of every combination of them.
MOST_REQUIREMENTS = 6
#: A bare word; an apostrophe inside it (``FREDDY'S``, ``D'AVION``) is part of it, one opening it is a quote.
_WORD = re.compile(r"(?:[^\s()\[\]<>=!~\"']|(?<=\w)')+")
_INT = re.compile(r"\d+")
_NUMBER = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)$")
# "~=" before "~" and "=": "[race~=Dragon]" is one operator, not "~" with the value "=Dragon".
_ATTR_OP = re.compile(r">=|<=|==|!=|~=|=|>|<|~")
_QUOTES = "\"'"
#: Deepest nesting of parentheses and ``not`` accepted (keeps the parser off Python's recursion limit).
MAX_DEPTH = MOST_EXPRESSION_DEPTH
#: Characters that look like the ASCII an expression is written with, and that ASCII: refused, not read as
#: part of a card name (``Terrain≥1`` would otherwise ask for a card named ``Terrain≥1``).
CONFUSABLES = {
    "≥": ">=", "⩾": ">=", "≧": ">=", "≤": "<=", "⩽": "<=", "≦": "<=", "≠": "!=", "＝": "=", "＞": ">", "＜": "<",
    "！": "!", "～": "~", "（": "(", "）": ")", "［": "[", "］": "]",
}
#: Typographic quotes, and the ASCII quote to write where one opens a quoted name (inside a word, ``’`` is an
#: apostrophe of the name).
TYPOGRAPHIC_QUOTES = {"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "＂": '"', "‘": "'", "’": "'", "＇": "'"}
#: Expressions longer than this are shown cut in messages (to their first :data:`_CUT_CHARS` characters).
_SHOWN_CHARS, _CUT_CHARS = 500, 100


#: How messages name an expression (or a description of cards), by the ``what`` deckstat's own callers give;
#: ``{text}`` is the expression as typed, quoted, or a file name.
_NAMED = {
    "event": N_("event {text}"), "group": N_("group {text}"), "keep rule": N_("keep rule {text}"),
    "resource group": N_("resource group {text}"), "drought group": N_("drought group {text}"),
    "priority": N_("priority {text}"),
    "known cards": N_("known cards {text}"), "hand": N_("hand {text}"), "gone": N_("gone {text}"),
    "bottom": N_("bottom {text}"), "set-aside": N_("set-aside {text}"), "effect": N_("effect {text}"),
}


def expression_source(what: str, text: str) -> str:
    """How messages name ``text`` read as ``what``: ``event 'Terrain>=1'``.

    ``what`` is written in the current language when deckstat has words for it, else as given.

    Examples
    --------
    >>> expression_source("keep rule", repr("Terrain>=2")), expression_source("profile.toml keep", "'x'")
    ("keep rule 'Terrain>=2'", "profile.toml keep 'x'")
    """
    message = _NAMED.get(what)
    return f"{what} {text}" if message is None else tr(message, text=text)


def shown_text(text: str) -> str:
    """``text`` quoted for a message, cut when long (positions in the message still count every character)."""
    if len(text) <= _SHOWN_CHARS:
        return repr(text)
    return tr("{start}… ({length} characters)", start=repr(text[:_CUT_CHARS]), length=number(len(text)))


def _quote(text: str) -> str:
    """Quote ``text`` with a quote character it does not contain."""
    return f"'{text}'" if '"' in text else f'"{text}"'


@dataclass(frozen=True)
class NameGroup:
    """Cards whose type, one of whose tags, or whose name is ``text``."""

    text: str
    position: int = field(default=0, compare=False)

    @property
    def key(self) -> str:
        """Identity of the group: two spellings that fold alike are one group."""
        return fold(self.text)

    @property
    def label(self) -> str:
        """How the group is written back in output (quoted unless it reads back as the same word)."""
        text = self.text
        if _WORD.fullmatch(text) and not _INT.fullmatch(text) and fold(text) not in _KEYWORDS:
            return text
        return _quote(text)


@dataclass(frozen=True)
class AttributeGroup:
    """Cards whose attribute compares true with a value, e.g. ``[cost<=1]``.

    ``bare`` marks an attribute written alone, ``[shield_trigger]``: the cards whose yes/no attribute is true
    (``op`` ``=`` and ``value`` 1), which only a yes/no column may be asked (see :meth:`deckstat.deck.Deck.mask`).
    """

    attribute: str
    op: str
    value: str | float
    position: int = field(default=0, compare=False)
    bare: bool = False

    @property
    def key(self) -> str:
        """Identity of the group (a text value is quoted, so ``[x="1"]`` and ``[x=1]`` stay apart)."""
        if self.bare:
            return f"[{fold(self.attribute)}]"
        value = format_number(self.value) if isinstance(self.value, float) else f'"{fold(self.value)}"'
        op = "=" if self.op == "==" else self.op
        return f"[{fold(self.attribute)}{op}{value}]"

    @property
    def label(self) -> str:
        """How the group is written back in output."""
        if self.bare:
            return f"[{self.attribute}]"
        value = self.value
        if isinstance(value, float):
            shown = format_number(value)
        elif (value and value == value.strip() and not _NUMBER.match(value)
              and not any(ch in value for ch in "[]<>=!~" + _QUOTES)):
            shown = value
        else:
            shown = _quote(value)
        return f"[{self.attribute}{self.op}{shown}]"


Group = Union[NameGroup, AttributeGroup]


@dataclass(frozen=True)
class DistinctGroup:
    """The different card names of a group, e.g. ``distinct(Impro)``: copies of one name count once."""

    group: Group
    position: int = field(default=0, compare=False)

    @property
    def key(self) -> str:
        """Identity of the count; upper case, which no folded group key has, so it never meets the plain group's."""
        return f"DISTINCT({self.group.key})"

    @property
    def label(self) -> str:
        """How the count is written back in output."""
        return f"distinct({self.group.label})"


@dataclass(frozen=True)
class Requirement:
    """``n`` cards of any of ``groups``, inside ``distinct_cards(...)``."""

    n: int
    groups: tuple[Group, ...]

    @property
    def key(self) -> str:
        """Identity of the requirement: its count and its groups' keys."""
        return f"{self.n} " + "|".join(g.key for g in self.groups)

    @property
    def label(self) -> str:
        """How the requirement is written back in output (``2 Terrain|[cost<=1]``)."""
        text = "|".join(g.label for g in self.groups)
        return text if self.n == 1 else f"{self.n} {text}"


@dataclass(frozen=True)
class PatternGroup:
    """The cards that can fill exactly the requirements of ``pattern`` of a ``distinct_cards(...)``.

    Bit i of ``pattern`` stands for requirement i: the cards are in a group of each of those requirements and of
    none of the others.
    """

    requirements: tuple[Requirement, ...]
    pattern: int

    @property
    def key(self) -> str:
        """Identity of the count; upper case, which no folded group key has."""
        return f"CARDS({', '.join(r.key for r in self.requirements)})#{self.pattern}"

    @property
    def label(self) -> str:
        """How the count is written in a message (its line, and the combination's number)."""
        return f"distinct_cards({', '.join(r.label for r in self.requirements)})#{self.pattern}"

    @property
    def position(self) -> int:
        """Where the line's first group was written."""
        return self.requirements[0].groups[0].position


Counted = Union[NameGroup, AttributeGroup, DistinctGroup, PatternGroup]


@dataclass(frozen=True)
class Count:
    """``group OP n``: a comparison of a group's count (or its number of different names) with a whole number."""

    group: Counted
    op: str
    n: int


@dataclass(frozen=True)
class Not:
    """Negation; ``word`` is the keyword as written (``not``, ``non``), which :func:`to_text` echoes."""

    item: Event
    word: str = field(default="not", compare=False)


@dataclass(frozen=True)
class And:
    """Conjunction; ``words`` are the keywords as written between the items (``and``, ``et``), if known."""

    items: tuple[Event, ...]
    words: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Or:
    """Disjunction; ``words`` are the keywords as written between the items (``or``, ``ou``), if known."""

    items: tuple[Event, ...]
    words: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Cards:
    """``distinct_cards(...)``: every requirement met by different physical cards (see the module's notes).

    ``word`` is the keyword as written (``distinct_cards``, ``cartes_distinctes``), which :func:`to_text` echoes.
    """

    requirements: tuple[Requirement, ...]
    word: str = field(default="distinct_cards", compare=False)

    def patterns(self) -> list[PatternGroup]:
        """The group of each non-empty combination of requirements."""
        return [PatternGroup(self.requirements, p) for p in range(1, 2 ** len(self.requirements))]

    def need(self, pattern: int) -> int:
        """Cards the requirements of ``pattern`` need together."""
        return sum(r.n for i, r in enumerate(self.requirements) if pattern >> i & 1)

    def holds(self, counts: dict[str, np.ndarray]) -> np.ndarray:
        """Hall's condition: every set of requirements has as many cards able to fill one of them as it needs."""
        import numpy as np

        groups = self.patterns()
        result = None
        for subset in range(1, 2 ** len(self.requirements)):
            able = sum(counts[g.key] for g in groups if g.pattern & subset)
            enough = np.greater_equal(able, self.need(subset))
            result = enough if result is None else np.logical_and(result, enough)
        return result


Event = Union[Count, Not, And, Or, Cards]


@dataclass(frozen=True)
class _Token:
    kind: str  # word, string, int, op, lparen, rparen, attr, keyword, comma, bar (in distinct_cards), end
    text: str
    position: int  # 1-based
    value: object = None


class _Tokenizer:
    def __init__(self, text: str, what: str):
        self.text = text
        self.what = what

    def error(self, message: str, position: int) -> ExpressionError:
        return ExpressionError(message, source=expression_source(self.what, shown_text(self.text)), column=position)

    def _refuse_confusables(self) -> None:
        """Refuse look-alikes of the ASCII operators, brackets and quotes outside quoted names."""
        quote = None
        for i, ch in enumerate(self.text):
            if quote:
                quote = None if ch == quote else quote
            elif opens_quote(self.text, i):
                quote = ch
            elif ch in CONFUSABLES:
                raise self.error(tr("{char!r} (U+{code}) is not an operator or bracket deckstat reads; write "
                                    "{ascii!r} instead (a card name holding it is written in quotes)", char=ch,
                                    code=f"{ord(ch):04X}", ascii=CONFUSABLES[ch]), i + 1)
            elif ch in TYPOGRAPHIC_QUOTES and (i == 0 or not self.text[i - 1].isalnum() or ch in "«»“”„＂＇"):
                raise self.error(tr("typographic quote {char!r} (U+{code}); write a plain {ascii} around a name",
                                    char=ch, code=f"{ord(ch):04X}", ascii=TYPOGRAPHIC_QUOTES[ch]), i + 1)

    def tokens(self) -> list[_Token]:
        text, i, out = self.text, 0, []
        # Depth of the parentheses inside distinct_cards(...), where "," and "|" are separators (0: outside).
        inside = 0
        if len(text) > MOST_EXPRESSION_CHARS:
            raise self.error(tr("{length} characters, more than the {limit} an expression may hold; ask several "
                                "smaller questions, or name cards by an attribute such as [cost<=1]",
                                length=number(len(text)), limit=number(MOST_EXPRESSION_CHARS)),
                             MOST_EXPRESSION_CHARS + 1)
        self._refuse_confusables()
        while i < len(text):
            ch = text[i]
            if ch.isspace():
                i += 1
            elif ch == "(":
                if inside or (out and out[-1].kind == "keyword" and out[-1].text == "cards"):
                    inside += 1
                out.append(_Token("lparen", ch, i + 1))
                i += 1
            elif ch == ")":
                inside = max(inside - 1, 0)
                out.append(_Token("rparen", ch, i + 1))
                i += 1
            elif inside and ch in ",|":
                out.append(_Token("comma" if ch == "," else "bar", ch, i + 1))
                i += 1
            elif ch == "[":
                end = self._closing_bracket(i)
                out.append(self._attribute(i, end))
                i = end + 1
            elif ch == "]":
                raise self.error(tr("']' without a matching '['"), i + 1)
            elif opens_quote(text, i):
                end = text.find(ch, i + 1)
                if end < 0:
                    raise self.error(tr("unclosed quote {quote}", quote=ch), i + 1)
                if not text[i + 1:end].strip():
                    raise self.error(tr("empty quoted name; expected a card type, tag or name between the quotes"),
                                     i + 1)
                out.append(_Token("string", text[i + 1:end], i + 1))
                i = end + 1
            elif ch in "<>=!~":
                op = next((op for op in COUNT_OPS if text.startswith(op, i)), None)
                if op is None:
                    hint = tr("; '~' and '~=' only work inside [attribute~text]") if ch == "~" else ""
                    raise self.error(tr("unexpected {char!r}; expected a comparison: {operators}{hint}", char=ch,
                                        operators=" ".join(COUNT_OPS), hint=hint), i + 1)
                out.append(_Token("op", op, i + 1))
                i += len(op)
            else:
                match = (_CARDS_WORD if inside else _WORD).match(text, i)
                word = match.group(0)
                if _INT.fullmatch(word):
                    out.append(_Token("int", word, i + 1, int(word)))
                elif fold(word) in _KEYWORDS:
                    out.append(_Token("keyword", _KEYWORDS[fold(word)], i + 1, word))
                else:
                    out.append(_Token("word", word, i + 1))
                i = match.end()
        out.append(_Token("end", "", len(text) + 1))
        # Counted once the text is cut into tokens, before any parsing: its length bounds the work.
        terms = [token for token in out if token.kind in ("word", "string", "attr")]
        if len(terms) > MOST_EXPRESSION_TERMS:
            raise self.error(tr("{terms} card groups, more than the {limit} an expression may name; ask several "
                                "smaller questions, or name cards by an attribute such as [cost<=1]",
                                terms=number(len(terms)), limit=number(MOST_EXPRESSION_TERMS)),
                             terms[MOST_EXPRESSION_TERMS].position)
        return out

    def _closing_bracket(self, start: int) -> int:
        quote, opened = None, 0
        for j in range(start + 1, len(self.text)):
            ch = self.text[j]
            if quote:
                quote = None if ch == quote else quote
            elif opens_quote(self.text, j):
                quote, opened = ch, j
            elif ch == "]":
                return j
            elif ch == "[":
                raise self.error(tr("'[' inside [...]; expected ']' to close the '[' at position {position}",
                                    position=start + 1), j + 1)
        if quote:
            raise self.error(tr("unclosed quote {quote}", quote=quote), opened + 1)
        raise self.error(tr("'[' without a matching ']'"), start + 1)

    def _attribute(self, start: int, end: int) -> _Token:
        inner = self.text[start + 1:end]
        base = start + 2  # 1-based position of inner[0]
        match, quote = None, None
        for k, ch in enumerate(inner):  # the first comparison outside quotes
            if quote:
                quote = None if ch == quote else quote
            elif opens_quote(inner, k):
                quote = ch
            else:
                match = _ATTR_OP.match(inner, k)
                if match:
                    break
        if match is None:
            attribute = inner.strip()
            if not attribute or any(ch in attribute for ch in _QUOTES + "!~"):
                raise self.error(tr("expected an attribute comparison such as [cost<=1], or a yes/no attribute "
                                    "alone such as [shield_trigger]"), start + 1)
            # A yes/no attribute alone: the cards for which it is true, as [shield_trigger=1].
            group = AttributeGroup(attribute, "=", 1.0, start + 1, bare=True)
            return _Token("attr", self.text[start:end + 1], start + 1, group)
        op = match.group(0)
        attribute = inner[: match.start()].strip()
        rest = inner[match.end():]
        raw_value = rest.strip()
        value_position = base + match.end() + len(rest) - len(rest.lstrip())
        if not attribute:
            raise self.error(tr("missing attribute name before {op!r}; expected something like [cost{op}1]", op=op),
                             base + len(inner) - len(inner.lstrip()))
        if any(ch in attribute for ch in _QUOTES):
            raise self.error(tr("quote in attribute name {attribute!r}; expected a column name such as cost",
                                attribute=attribute), base + len(inner) - len(inner.lstrip()))
        if not raw_value:
            raise self.error(tr("missing value after {op!r}; expected a number or a text", op=op),
                             base + match.end())
        if raw_value[0] in _QUOTES:
            body = raw_value[1:-1]
            if len(raw_value) < 2 or raw_value[-1] != raw_value[0] or raw_value[0] in body:
                raise self.error(tr("expected the quotes to surround the whole value, got {value!r}",
                                    value=raw_value), value_position)
            if not body.strip():
                raise self.error(tr("empty value after {op!r}; expected a number or a text", op=op), value_position)
            value: str | float = body
        elif any(opens_quote(raw_value, k) for k in range(len(raw_value))):
            raise self.error(tr("expected the quotes to surround the whole value, got {value!r}", value=raw_value),
                             value_position)
        elif op not in TEXT_OPS and _NUMBER.match(raw_value):
            value = float(raw_value.replace(",", "."))
            if not math.isfinite(value):
                raise self.error(tr("number {value!r} is too large", value=raw_value), value_position)
        else:
            value = raw_value
        if op in ("<", "<=", ">", ">=") and not isinstance(value, float):
            raise self.error(tr("{op!r} needs a number, got {value!r}", op=op, value=raw_value), value_position)
        group = AttributeGroup(attribute, op, value, start + 1)
        return _Token("attr", self.text[start:end + 1], start + 1, group)


class _Parser:
    def __init__(self, text: str, what: str):
        self.tokenizer = _Tokenizer(text, what)
        self.tokens = self.tokenizer.tokens()
        self.index = 0
        self.depth = 0

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
            raise self.error(tr("empty expression; expected something like Terrain>=1"))
        event = self.or_expr()
        if self.current.kind != "end":
            if self.current.kind == "rparen":
                raise self.error(tr("unexpected ')' without a matching '('; expected 'and', 'or' or the end"))
            raise self.error(tr("unexpected {token!r}; expected 'and', 'or' or the end", token=self.current.text))
        return event

    def or_expr(self) -> Event:
        items, words = [self.and_expr()], []
        while self.current.kind == "keyword" and self.current.text == "or":
            words.append(self.advance().value.lower())
            items.append(self.and_expr())
        return items[0] if len(items) == 1 else Or(tuple(items), tuple(words))

    def and_expr(self) -> Event:
        items, words = [self.not_expr()], []
        while self.current.kind == "keyword" and self.current.text == "and":
            words.append(self.advance().value.lower())
            items.append(self.not_expr())
        return items[0] if len(items) == 1 else And(tuple(items), tuple(words))

    def not_expr(self) -> Event:
        token = self.current
        if (token.kind == "keyword" and token.text == "not") or token.kind == "lparen":
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self.error(tr("expression nested too deeply; expected at most {depth} levels of parentheses "
                                    "and 'not'", depth=MAX_DEPTH))
            self.advance()
            if token.kind == "keyword":
                event: Event = Not(self.not_expr(), token.value.lower())
            else:
                event = self.or_expr()
                if self.current.kind != "rparen":
                    raise self.error(tr("expected ')' to close the '(' at position {position}, got {token}",
                                        position=token.position, token=self._shown()))
                self.advance()
            self.depth -= 1
            return event
        if token.kind == "keyword" and token.text == "cards":
            return self.cards()
        return self.count()

    def cards(self) -> Cards:
        keyword = self.advance()
        word = keyword.value
        if self.current.kind != "lparen":
            raise self.error(tr("expected '(' after {word!r}, got {token}; write it as {word}(Terrain, 2 [cost<=1])",
                                word=word, token=self._shown()))
        opening = self.advance()
        requirements = [self.requirement()]
        while self.current.kind == "comma":
            self.advance()
            requirements.append(self.requirement())
        if self.current.kind != "rparen":
            raise self.error(tr("expected ',' or ')' to close the '(' at position {position}, got {token}",
                                position=opening.position, token=self._shown()))
        self.advance()
        if len(requirements) > MOST_REQUIREMENTS:
            raise self.error(tr("{n} requirements, more than the {most} one {word}(...) may hold; split the line",
                                n=len(requirements), most=MOST_REQUIREMENTS, word=word), keyword)
        if self.current.kind == "op":
            raise self.error(tr("{word}(...) is a condition, compared with nothing: write the counts inside, as in "
                                "{word}(2 Terrain, [cost<=1])", word=word))
        return Cards(tuple(requirements), word.lower())

    def requirement(self) -> Requirement:
        n = 1
        if self.current.kind == "int":
            n = self.advance().value
            if n < 1:
                raise self.error(tr("a requirement needs at least 1 card, got {n}", n=n), self.tokens[self.index - 1])
        groups = [self.group()]
        while self.current.kind == "bar":
            self.advance()
            groups.append(self.group())
        return Requirement(n, tuple(groups))

    def _shown(self) -> str:
        """The current token for a message: quoted, or ``the end``."""
        return repr(self.current.text) if self.current.kind != "end" else tr("the end")

    def count(self) -> Count:
        group = self.distinct() if self.current.kind == "keyword" and self.current.text == "distinct" \
            else self.group()
        if self.current.kind != "op":
            return Count(group, ">=", 1)
        op = self.advance().text
        number = self.current
        if number.kind != "int":
            hint = ""
            if number.kind == "op" and number.position == self.tokens[self.index - 1].position + len(op):
                swapped = (number.text + op).replace("==", "=")
                if swapped in COUNT_OPS and swapped != op + number.text:
                    hint = tr(" (did you mean {operator!r}?)", operator=swapped)
            raise self.error(tr("expected a whole number after {op!r}, got {token}{hint}", op=op, token=self._shown(),
                                hint=hint))
        self.advance()
        return Count(group, "==" if op == "=" else op, number.value)

    def distinct(self) -> DistinctGroup:
        keyword = self.advance()
        word = keyword.value
        if self.current.kind != "lparen":
            raise self.error(tr("expected '(' after {word!r}, got {token}; write it as {word}(Impro)>=2, or quote a "
                                "card named {word!r}", word=word, token=self._shown()))
        opening = self.advance()
        if self.current.kind == "keyword" and self.current.text == "distinct":
            raise self.error(tr("distinct(...) inside distinct(...); expected a card group such as Impro or "
                                "[cost<=1]"))
        group = self.group()
        if self.current.kind != "rparen":
            raise self.error(tr("expected ')' to close the '(' at position {position}, got {token}; {word}(...) "
                                "holds a single card group, compared outside: {word}(Impro)>=2",
                                position=opening.position, token=self._shown(), word=word))
        self.advance()
        return DistinctGroup(group, keyword.position)

    def group(self) -> Group:
        token = self.advance()
        if token.kind == "keyword" and token.text in ("distinct", "cards"):
            raise self.error(tr("{word}(...) counts different cards in an event; expected a single card group such "
                                "as Terrain or [cost<=1] here", word=token.value), token)
        if token.kind == "word":
            group: Group = NameGroup(token.text, token.position)
        elif token.kind == "string":
            group = NameGroup(token.text, token.position)
        elif token.kind == "attr":
            group = token.value
        elif token.kind == "end":
            raise self.error(tr("unexpected end; expected a card group such as Terrain or [cost<=1]"), token)
        else:
            raise self.error(tr("unexpected {token!r}; expected a card group such as Terrain or [cost<=1]",
                                token=token.text), token)
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
        raise ExpressionError(tr("expected text, got {kind}", kind=type(text).__name__), source=what)
    return _Parser(text, what).parse()


def parse_group(text: str, *, what: str = "group") -> Group:
    """Parse a single group (``Terrain``, ``"Nom de carte"``, ``[cost<=1]``)."""
    if not isinstance(text, str):
        raise ExpressionError(tr("expected text, got {kind}", kind=type(text).__name__), source=what)
    parser = _Parser(text, what)
    group = parser.group()
    if parser.current.kind != "end":
        raise parser.error(tr("unexpected {token!r}; expected a single card group such as Terrain or [cost<=1]",
                              token=parser.current.text))
    return group


def iter_counts(event: Event):
    """Yield every :class:`Count` node of ``event``."""
    if isinstance(event, Count):
        yield event
    elif isinstance(event, Cards):
        # A card of a combination of requirements helps up to what they need together: saturate there.
        for group in event.patterns():
            yield Count(group, ">=", event.need(group.pattern))
    elif isinstance(event, Not):
        yield from iter_counts(event.item)
    else:
        for item in event.items:
            yield from iter_counts(item)


def groups_of(event: Event) -> dict[str, Counted]:
    """Return the counts ``event`` reads by key, in order of appearance (each group once).

    A group and its ``distinct(...)`` are two entries with two keys.
    """
    out: dict[str, Counted] = {}
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


def saturation_caps(event: Event) -> dict[str, int]:
    """Return, per group key, the smallest count at which counts can be saturated without changing ``event``.

    A count compared with ``>= n`` or ``< n`` only matters up to ``n`` ("``n``
    or more" decides it); with ``>``, ``<=``, ``==`` or ``!=`` up to ``n + 1``
    (:func:`count_caps`). The exact engine's arrays have one axis of
    ``cap + 1`` entries per group, so this tighter cap makes them smaller.

    Examples
    --------
    >>> saturation_caps(parse_event("Terrain>=2 and Dragon==1 and Sort<3"))
    {'terrain': 2, 'dragon': 2, 'sort': 3}
    """
    caps: dict[str, int] = {}
    for count in iter_counts(event):
        cap = count.n if count.op in (">=", "<") else count.n + 1
        caps[count.group.key] = max(caps.get(count.group.key, 0), cap)
    return caps


#: The numpy comparison of each operator, by name.
_COMPARE = {">=": "greater_equal", "<=": "less_equal", ">": "greater", "<": "less", "==": "equal", "!=": "not_equal"}


def evaluate(event: Event, counts: dict[str, np.ndarray]) -> np.ndarray:
    """Evaluate ``event`` on arrays of group counts.

    Parameters
    ----------
    event : Event
    counts : dict of str to ndarray
        Count of each group (by key; for a :class:`DistinctGroup`, its
        number of different names); arrays broadcast together.

    Returns
    -------
    ndarray of bool
    """
    import numpy as np

    if isinstance(event, Count):
        return getattr(np, _COMPARE[event.op])(counts[event.group.key], event.n)
    if isinstance(event, Cards):
        return event.holds(counts)
    if isinstance(event, Not):
        return np.logical_not(evaluate(event.item, counts))
    parts = [evaluate(item, counts) for item in event.items]
    combine = np.logical_and if isinstance(event, And) else np.logical_or
    result = parts[0]
    for part in parts[1:]:
        result = combine(result, part)
    return result


def to_text(event: Event) -> str:
    """Write ``event`` back in canonical form (used as the ``event`` column of results).

    ``and``, ``or`` and ``not`` keep the language the player wrote them in (``et``, ``ou``, ``non``), so
    results show the event as written; spacing, operators, brackets and ``distinct`` are canonical.

    Examples
    --------
    >>> to_text(parse_event("Terrain >= 1 ET non Sort=0")), to_text(parse_event("A or B"))
    ('Terrain>=1 et non Sort==0', 'A>=1 or B>=1')
    """
    if isinstance(event, Count):
        return f"{event.group.label}{event.op}{event.n}"
    if isinstance(event, Cards):
        return f"{event.word}({', '.join(r.label for r in event.requirements)})"
    if isinstance(event, Not):
        inner = to_text(event.item)
        return f"{event.word} {inner}" if isinstance(event.item, (Count, Cards)) else f"{event.word} ({inner})"
    default = "and" if isinstance(event, And) else "or"
    words = event.words if len(event.words) == len(event.items) - 1 else (default,) * (len(event.items) - 1)
    parts = []
    for item in event.items:
        text = to_text(item)
        # A nested and/or is always bracketed, even ``(a and b) and c``: the text then parses back
        # to the same tree, not to a flattened one.
        parts.append(f"({text})" if isinstance(item, (And, Or)) else text)
    return parts[0] + "".join(f" {word} {part}" for word, part in zip(words, parts[1:]))
