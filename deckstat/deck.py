"""The :class:`Deck`: an immutable card table, and group selection over it."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import PurePath

import numpy as np
import pandas as pd

from deckstat.effects import Effect, parse_effects
from deckstat.errors import DeckstatError, ExpressionError, param
from deckstat.events import (
    TEXT_OPS,
    AttributeGroup,
    DistinctGroup,
    Group,
    NameGroup,
    PatternGroup,
    expression_source,
    parse_group,
)
from deckstat.i18n import number, tr
from deckstat.schema import (
    FALSE_WORDS,
    PRINTING_COLUMNS,
    TRUE_WORDS,
    WHOLE_NUMBER_COLUMNS,
    canonical_column,
    canonical_columns,
    name_readings,
    printing_key,
    printing_labels,
    printing_matches,
)
from deckstat.synonyms import NONE, Synonyms
from deckstat.terms import MAX_COPIES
from deckstat.text import clean_name, fold, fold_key, format_number, suggest

LIST_SEPARATOR = ";"
#: The card that stands for the rest of a deck described by counts (:meth:`Deck.from_counts`).
OTHER_CARDS = "other"
#: Characters a group name of :meth:`Deck.from_counts` may not hold: they separate or build expressions and paths.
_NOT_IN_GROUP_NAMES = ("=", ",", "[", "]", "/", "\\")


def is_missing(value: object) -> bool:
    """Whether a cell holds no value (None, NaN or pandas' NA)."""
    return value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA


def _items(value: object) -> list[str]:
    """Folded items of a possibly ``;``-separated text value."""
    if is_missing(value):
        return []
    return [fold(v) for v in str(value).split(LIST_SEPARATOR) if v.strip()]


#: What :class:`Deck` works out from its rows alone (not their counts, synonyms or source), once per deck: a deck
#: made from it with other ones (:meth:`Deck.with_counts`, :meth:`Deck.with_synonyms`, :meth:`Deck.with_source`)
#: takes it over.
_ROW_FACTS = ("printings", "effects", "labels")


@dataclass(frozen=True, eq=False)
class Deck:
    """A deck: one row per distinct card with its ``count`` and attributes.

    Build one with :func:`deckstat.load_deck` or :meth:`Deck.from_table`;
    the table is copied and must not be modified afterwards.

    Attributes
    ----------
    cards : pandas.DataFrame
        Columns ``name``, ``count``, ``type`` and any attributes.
    source : str
        Where the deck came from (a path, or ``"<table>"``).
    synonyms : Synonyms
        Values its groups treat as the same (a game profile's; see :meth:`with_synonyms`).
    """

    cards: pd.DataFrame
    source: str = "<table>"
    _masks: dict = field(default_factory=dict, repr=False, compare=False)
    synonyms: Synonyms = field(default=NONE, repr=False, compare=False)
    notes: tuple[str, ...] = field(default=(), repr=False, compare=False)

    @classmethod
    def from_table(cls, table: pd.DataFrame | Iterable[dict], *, source: str = "<table>",
                   notes: Iterable[str] = ()) -> Deck:
        """Build a deck from a DataFrame (or records) with ``name`` and optional ``count``.

        Parameters
        ----------
        table : DataFrame or iterable of dict
            One row per distinct card.
        source : str
            Shown in messages about this deck.
        notes : iterable of str
            What reading the deck changed or guessed (its encoding, cleaned names), kept as :attr:`notes`.

        Returns
        -------
        Deck
        """
        table = pd.DataFrame(table).copy()
        if "name" not in table.columns:
            raise DeckstatError(tr("the card table has no 'name' column"), source=source)
        if "count" not in table.columns:
            table["count"] = 1
        if "type" not in table.columns:
            table["type"] = None
        counts = pd.to_numeric(table["count"].astype(object), errors="coerce").astype(float)
        bad = counts.isna() | (counts <= 0) | (counts % 1 != 0) | (counts > MAX_COPIES)
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise DeckstatError(tr("card {name!r} has count {count!r}; expected a whole number of at least 1 and at "
                                   "most {maximum}", name=table["name"].iloc[row], count=table["count"].iloc[row],
                                   maximum=number(MAX_COPIES)), source=source)
        table["count"] = counts.astype(np.int64)
        table["name"] = [clean_name(n) for n in table["name"].astype(str)]
        _check_card_numbers(table, source)
        _check_effects(table, source)
        front = ["name", "count", "type"]
        table = table[front + [c for c in table.columns if c not in front]].reset_index(drop=True)
        return cls(table, source, notes=tuple(notes))

    @property
    def name(self) -> str:
        """Short name of the deck in results: its file name (``sample_deck.csv``), or :attr:`source`."""
        head, bracket, part = self.source.partition(" [")
        return PurePath(head).name + bracket + part if head and not head.startswith("<") else self.source

    @property
    def size(self) -> int:
        """Number of cards, copies included."""
        return int(self.cards["count"].sum())

    @property
    def counts(self) -> np.ndarray:
        """Copies of each distinct card, as an int64 array."""
        return self.cards["count"].to_numpy(dtype=np.int64)

    @property
    def names(self) -> list[str]:
        """Card names, one per distinct card in table order (two printings of a name repeat it; see :attr:`labels`)."""
        return list(self.cards["name"])

    @cached_property
    def effects(self) -> tuple[tuple[Effect, ...], ...]:
        """Each distinct card's effects, read from its ``effect`` cell (none without the column), in table order.

        See :mod:`deckstat.effects` and ``docs/effects.md``.
        """
        if "effect" not in self.cards.columns:
            return ((),) * len(self.cards)
        return tuple(() if is_missing(cell) else parse_effects(str(cell)) for cell in self.cards["effect"])

    @property
    def effect_copies(self) -> int:
        """Cards of the deck (copies counted) whose ``effect`` cell holds at least one effect."""
        return sum(int(count) for count, effects in zip(self.counts, self.effects) if effects)

    @property
    def attributes(self) -> list[str]:
        """Attribute columns (everything except ``name`` and ``count``)."""
        return [c for c in self.cards.columns if c not in ("name", "count")]

    def with_synonyms(self, synonyms: Synonyms | None) -> Deck:
        """The same cards, with groups matching the values ``synonyms`` declares equivalent.

        The questions call it once with the game profile's synonyms. Masks are
        cached per deck, and the result is a new deck with its own cache, so a
        mask computed with one set of synonyms is never served for another.
        """
        synonyms = synonyms or NONE
        if synonyms == self.synonyms:
            return self
        # replace() keeps every other field as it is; only the cache starts empty.
        return self._same_rows(replace(self, _masks={}, synonyms=synonyms))

    def with_source(self, source: str) -> Deck:
        """The same deck, named ``source`` in messages and results."""
        return self._same_rows(replace(self, source=source))

    def _same_rows(self, deck: Deck) -> Deck:
        """``deck``, a copy of this one's rows, given what this one worked out from them already."""
        for name in _ROW_FACTS:
            if name in self.__dict__:
                deck.__dict__[name] = self.__dict__[name]
        return deck

    def mask(self, group: Group | DistinctGroup | str) -> np.ndarray:
        """Return which distinct cards belong to ``group``.

        Text values match case- and accent-insensitively, and match every value
        :attr:`synonyms` declares equivalent (``Feu`` and ``Fire``).

        Parameters
        ----------
        group : Group, DistinctGroup or str
            A parsed group or its text (``"Terrain"``, ``"[cost<=1]"``);
            ``distinct(G)`` selects the cards of ``G``.

        Returns
        -------
        ndarray of bool, one entry per row of :attr:`cards` (a fresh array the caller may modify).
        """
        if isinstance(group, str):
            group = parse_group(group)
        if isinstance(group, DistinctGroup):
            group = group.group
        if isinstance(group, PatternGroup):
            # In a group of each requirement of the pattern, and of no other requirement.
            mask = np.ones(len(self.cards), dtype=bool)
            for i, requirement in enumerate(group.requirements):
                fills = np.logical_or.reduce([self.mask(g) for g in requirement.groups])
                mask &= fills if group.pattern >> i & 1 else ~fills
            return mask
        # Keyed by kind too: a quoted name such as "[cost<=1]" must not share a cached mask
        # with the attribute group [cost<=1].
        cache_key = (type(group).__name__, group.key)
        if cache_key not in self._masks:
            if isinstance(group, NameGroup):
                mask = self._name_mask(group)
            else:
                mask = self._attribute_mask(group)
            self._masks[cache_key] = mask
        return self._masks[cache_key].copy()

    def count(self, group: Group | str) -> int:
        """Number of cards (copies included) in ``group``."""
        return int(self.counts[self.mask(group)].sum())

    def known_words(self) -> set[str]:
        """Types, tags, names and labels (``VENDEUR #35``) a bare word can match in this deck (with synonyms)."""
        words = set(self.cards["name"].astype(str))
        if self.printing_columns:
            words.update(self.labels)
        for column in ("type", "tags"):
            if column in self.cards.columns:
                for value in self.cards[column]:
                    if not is_missing(value):
                        for item in str(value).split(LIST_SEPARATOR):
                            if item.strip():
                                words.add(item.strip())
                                words.update(self.synonyms.spellings(column, item))
        return words

    def _name_mask(self, group: NameGroup) -> np.ndarray:
        key = group.key
        mask = np.array([fold(n) == key for n in self.cards["name"]], dtype=bool)
        for column in ("type", "tags"):
            if column in self.cards.columns:
                wanted = self.synonyms.equivalents(column, group.text)
                mask |= np.array([not wanted.isdisjoint(_items(v)) for v in self.cards[column]], dtype=bool)
        if not mask.any() and self.printing_columns:
            # A card as results and decklists name it: "VENDEUR #35", "CT #83", "POLICIER (holo)" pick one printing.
            mask[card_rows(self, group.text)] = True
        return mask

    def _attribute_mask(self, group: AttributeGroup) -> np.ndarray:
        wanted = canonical_column(group.attribute)
        column = attribute_column(self, group.attribute)
        if column is None:
            options = [str(c) for c in self.cards.columns if c != "count"]
            hint = suggest(group.attribute, options) or suggest(wanted, options)
            raise ExpressionError(
                tr("unknown attribute {attribute!r}; this deck has {columns}{hint}", attribute=group.attribute,
                   columns=", ".join(options), hint=hint),
                source=expression_source("group", repr(group.label)), column=group.position)
        values = list(self.cards[column])
        op, target = group.op, group.value
        if group.bare:
            return _true_mask(self, column, group, values)
        _check_comparable(self, column, group, values)
        if isinstance(target, float) and op not in TEXT_OPS:
            compare = _NUMERIC_OPS[op]
            out = []
            for v in values:
                numbers = _numbers(v)
                if op == "!=":
                    # Missing and non-numeric values ("3000+", "X") differ from every number.
                    out.append(not any(n == target for n in numbers))
                else:
                    out.append(any(bool(compare(n, target)) for n in numbers))
            return np.array(out, dtype=bool)
        wanted_values = self.synonyms.equivalents(wanted, target if isinstance(target, str) else format_number(target))
        if op in ("=", "=="):
            return np.array([not wanted_values.isdisjoint(_items(v)) for v in values], dtype=bool)
        if op == "!=":
            return np.array([wanted_values.isdisjoint(_items(v)) for v in values], dtype=bool)
        if op == "~":
            return np.array([any(text in item for item in _items(v) for text in wanted_values) for v in values],
                            dtype=bool)
        if op == "~=":
            return np.array([any(has_word(item, text) for item in _items(v) for text in wanted_values)
                             for v in values], dtype=bool)
        raise ExpressionError(tr("{op!r} needs a number, got {value!r}", op=op, value=target),
                              source=expression_source("group", repr(group.label)), column=group.position)

    def part(self, names: Iterable[str], *, label: str) -> Deck:
        """Return the cards whose ``deck`` column is one of ``names`` (for games with two decks).

        Parameters
        ----------
        names : iterable of str
            Accepted spellings of the part (``"jeu"``, ``"game"``).
        label : str
            The part's name in messages.
        """
        if "deck" not in self.cards.columns:
            raise DeckstatError(tr("no 'deck' column to tell the {label} deck apart; add one whose values are "
                                   "{values}", label=label, values=", ".join(repr(n) for n in names)),
                                source=self.source)
        wanted = {fold(n) for n in names}
        rows = np.array([fold(v) in wanted for v in self.cards["deck"]], dtype=bool)
        return Deck.from_table(self.cards[rows].drop(columns="deck"), source=f"{self.source} [{label}]")

    def with_counts(self, counts: np.ndarray) -> Deck:
        """Return a copy with new counts (rows whose count is 0 are dropped)."""
        counts = np.asarray(counts)
        whole = counts.shape == (len(self.cards),) and np.issubdtype(counts.dtype, np.integer) \
            and bool(((counts >= 0) & (counts <= MAX_COPIES)).all())
        if not whole:  # read as a new table, whose checks name what is wrong
            table = self.cards.copy()
            table["count"] = np.asarray(counts, dtype=np.int64)
            return Deck.from_table(table[table["count"] > 0], source=self.source)
        # The rows are this deck's, already read and checked: only their counts change.
        kept = counts > 0
        table = self.cards[kept].reset_index(drop=True) if not kept.all() else self.cards.copy()
        table["count"] = counts[kept].astype(np.int64)
        deck = Deck(table, self.source)
        # What depends on the rows alone is the same, worked out once for every deck moved from this one (the
        # labels depend on which rows are kept: the printings of a name they tell apart).
        rows = np.flatnonzero(kept)
        for name in _ROW_FACTS if kept.all() else tuple(n for n in _ROW_FACTS if n != "labels"):
            value = getattr(self, name)
            deck.__dict__[name] = type(value)(value[i] for i in rows)
        return deck

    @property
    def printing_columns(self) -> list[str]:
        """The :data:`~deckstat.schema.PRINTING_COLUMNS` this deck has (``number``, ``set``, ``clan``…)."""
        return [c for c in PRINTING_COLUMNS if c in self.cards.columns]

    @cached_property
    def printings(self) -> list[tuple[str, ...]]:
        """Each distinct card's identity: its folded name and printing values (see :attr:`labels`)."""
        columns = self.printing_columns
        records = self._printing_records()
        return [(fold(name),) + printing_key(r, columns) for name, r in zip(self.cards["name"], records)]

    @cached_property
    def labels(self) -> list[str]:
        """Each distinct card as results name it: its name, with its printing when the deck holds several.

        ``VENDEUR #35`` and ``VENDEUR #36`` when both the Laink and the
        Terracid ``VENDEUR`` are in the deck, ``POLICIER (holo)`` when only a
        holo flag tells two ``POLICIER`` apart; the name alone otherwise. In
        table order, like :attr:`names`.

        Examples
        --------
        >>> deck = Deck.from_table([{"name": "VENDEUR", "number": "35", "count": 2},
        ...                         {"name": "VENDEUR", "number": "36", "count": 1},
        ...                         {"name": "PORTAL", "number": "2", "count": 3}])
        >>> deck.labels
        ['VENDEUR #35', 'VENDEUR #36', 'PORTAL']
        """
        return printing_labels(list(self.cards["name"]), self._printing_records())

    def _printing_records(self) -> list[dict]:
        """Each distinct card's printing values, by column (empty dicts when the deck has no printing column)."""
        columns = self.printing_columns
        return self.cards[columns].to_dict("records") if columns else [{}] * len(self.cards)

    @classmethod
    def from_counts(cls, size: int, groups: Mapping[str, object] | Iterable[tuple[str, object]], *,
                    part: str | None = None) -> Deck:
        """A deck described by counts alone, as a web calculator asks: 50 cards, 12 of them Terrains.

        Each group is one card of its own, named after the group, so that events
        name it (``Terrain>=1``); the groups do not overlap, and the cards no group
        claims are one card named :data:`OTHER_CARDS`.

        Parameters
        ----------
        size : int
            Cards in the deck, from 1 to :data:`MAX_COPIES`.
        groups : mapping of str to int, or (name, count) pairs
            Cards of each group, at least 1 each and at most ``size`` together;
            names are compared without case and accents, and hold no ``=``, comma, bracket or slash.
        part : str, optional
            The ``deck`` value of every card, for a game with two decks (Licum's ``jeu``).

        Returns
        -------
        Deck
            Its :attr:`source` lists the counts, ``Terrain=12, other=38``.

        Examples
        --------
        >>> deck = Deck.from_counts(50, {"Terrain": 12})
        >>> deck.names, deck.counts.tolist(), deck.source
        (['Terrain', 'other'], [12, 38], 'Terrain=12, other=38')
        """
        if not _is_whole(size) or not 1 <= size <= MAX_COPIES:
            raise DeckstatError(tr("{flag} must be a whole number of cards from 1 to {most}, got {value!r}",
                                   flag=param("size"), most=number(MAX_COPIES), value=size))
        size = int(size)
        pairs = list(groups.items()) if isinstance(groups, Mapping) else list(groups)
        if not pairs:
            raise DeckstatError(tr("{flag} is missing: name at least one group with its count, e.g. Terrain=12",
                                   flag=param("groups")))
        seen: dict[str, str] = {fold(OTHER_CARDS): OTHER_CARDS}
        rows = []
        for name, count in pairs:
            text = str(name).strip() if isinstance(name, str) else ""
            if not text or any(ch in text for ch in _NOT_IN_GROUP_NAMES):
                raise DeckstatError(tr("{flag} {name!r}: a group name is a word or a few, without any of {chars}",
                                       flag=param("groups"), name=str(name), chars=" ".join(_NOT_IN_GROUP_NAMES)))
            if fold(text) in seen:
                if seen[fold(text)] == OTHER_CARDS:
                    raise DeckstatError(tr("{flag} {name!r}: {other!r} names the cards no group claims; give the "
                                           "other groups and the rest of the deck is filled in",
                                           flag=param("groups"), name=text, other=OTHER_CARDS))
                raise DeckstatError(tr("{flag} names {name!r} twice (names are compared without case and accents)",
                                       flag=param("groups"), name=text))
            seen[fold(text)] = text
            if not _is_whole(count) or count < 1:
                raise DeckstatError(tr("{flag} {name}: expected a whole number of cards of at least 1, got {count!r}",
                                       flag=param("groups"), name=text, count=count))
            rows.append({"name": text, "count": int(count)})
        claimed = sum(row["count"] for row in rows)
        if claimed > size:
            listed = ", ".join(f"{row['name']}={row['count']}" for row in rows)
            raise DeckstatError(tr("{flag} asks for {claimed} cards ({listed}), more than the {size} of {size_flag}",
                                   flag=param("groups"), claimed=number(claimed), listed=listed, size=number(size),
                                   size_flag=param("size")))
        if claimed < size:
            rows.append({"name": OTHER_CARDS, "count": size - claimed})
        table = pd.DataFrame(rows)
        table["type"] = None
        if part is not None:
            table["deck"] = part
        return cls.from_table(table, source=", ".join(f"{row['name']}={row['count']}" for row in rows))


def _truth(value: object) -> bool | None:
    """A yes/no cell as the card loader reads one (``1``/``0``, ``oui``/``non``, ``yes``/``no``…), else ``None``."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return bool(value) if value in (0, 1) else None
    word = fold(value)
    if word in TRUE_WORDS or word in ("1", "1.0"):
        return True
    if word in FALSE_WORDS or word in ("0", "0.0"):
        return False
    return None


def _true_mask(deck: Deck, column: str, group: AttributeGroup, values: list) -> np.ndarray:
    """The cards whose yes/no ``column`` is true, for ``[column]`` alone; refused for a column that is not yes/no.

    Read as ``[cost=1]``, ``[cost]`` would count the 1-cost cards of a column that has nothing to do with yes
    and no.
    """
    truths = [None if is_missing(v) else _truth(v) for v in values]
    if any(t is None and not is_missing(v) for t, v in zip(truths, values)):
        raise ExpressionError(tr("{group} alone asks which cards have {column!r} true (1, yes, oui), but {column!r} "
                                 "holds {values}, not yes/no values; compare it instead, e.g. [{attribute}>=1] or "
                                 "[{attribute}=…]", group=group.label, column=column,
                                 values=_few([repr(v) for v in column_values(deck, column)]),
                                 attribute=group.attribute),
                              source=expression_source("group", repr(group.label)), column=group.position)
    return np.array([bool(t) for t in truths], dtype=bool)


def _check_comparable(deck: Deck, column: str, group: AttributeGroup, values: list) -> None:
    """Refuse a comparison no card can pass because of the column's kind, not the cards.

    ``[type>=1]`` on a text column and ``[cost=abc]`` on a numeric one would
    match nothing and answer 0% without a word.
    """
    present = [v for v in values if not is_missing(v)]
    if not present:
        return
    target = group.value
    numeric_target = isinstance(target, float) and group.op not in TEXT_OPS
    has_numbers = any(_numbers(v) for v in present)
    all_numbers = all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
                      for v in present)
    if numeric_target and not has_numbers:
        seen = _few([repr(v) for v in column_values(deck, column)])
        raise ExpressionError(tr("{column!r} holds text ({values}), not numbers: {group} compares it with a "
                                 "number, which no card can match; compare it with a word, or check the column",
                                 column=column, values=seen, group=group.label),
                              source=expression_source("group", repr(group.label)), column=group.position)
    if isinstance(target, str) and all_numbers and _to_float(target) is None:
        seen = _few(column_values(deck, column))
        raise ExpressionError(tr("{column!r} holds numbers ({values}), not text: {group} compares it with "
                                 "{value!r}, which no card can match; compare it with a number", column=column,
                                 values=seen, group=group.label, value=target),
                              source=expression_source("group", repr(group.label)), column=group.position)


def _few(values: list[str], shown: int = 4) -> str:
    """The first ``shown`` values, then ``…`` when there are more."""
    return ", ".join(values[:shown]) + (", …" if len(values) > shown else "")


def _check_card_numbers(table: pd.DataFrame, source: str) -> None:
    """Refuse a ``draw`` or ``mill`` value that is not a whole number of cards (``deux``, ``1.5``, ``-1``, ``inf``).

    Read as nothing, such a value would leave the card drawing no card without a word.
    """
    for column in WHOLE_NUMBER_COLUMNS:
        if column not in table.columns:
            continue
        for name, value in zip(table["name"], table[column]):
            if is_missing(value):
                continue
            cards = _to_float(value) if not isinstance(value, (bool, np.bool_)) else None
            if cards is None or not math.isfinite(cards) or not cards.is_integer() or not 0 <= cards <= MAX_COPIES:
                raise DeckstatError(tr("card {name!r} has {column} {value!r}; expected a whole number of cards from 0 "
                                       "to {maximum}", name=name, column=column,
                                       value=value if isinstance(value, str) else format_number(value),
                                       maximum=number(MAX_COPIES)), source=source, column=column)


def _check_effects(table: pd.DataFrame, source: str) -> None:
    """Refuse an ``effect`` cell deckstat cannot read, and a draw or mill given both as a column and as an effect.

    Read as nothing, a misspelt effect would leave the card without it and say nothing.
    """
    if "effect" not in table.columns:
        return
    for row, (name, cell) in enumerate(zip(table["name"], table["effect"])):
        if is_missing(cell):
            continue
        try:
            effects = parse_effects(str(cell))
        except ExpressionError as error:
            raise DeckstatError(tr("card {name!r}: {problem} (the effect column holds effects deckstat plays, see "
                                   "docs/effects.md; a column of card text to keep unplayed takes another name, such "
                                   "as 'text')", name=name, problem=str(error)), source=source,
                                column="effect") from None
        for column in WHOLE_NUMBER_COLUMNS:
            given = table[column].iloc[row] if column in table.columns else None
            # Without a moment, the effect happens at the game's (when the card is played in every shipped game).
            twin = next((e for e in effects if e.action == column and e.moment() in ("on_play", "on_draw")), None)
            if twin is not None and not is_missing(given) and _to_float(given):
                raise DeckstatError(tr("card {name!r} gives its {column} twice: {value} in the {column!r} column and "
                                       "{effect!r} in its effect; keep one", name=name, column=column,
                                       value=format_number(_to_float(given)), effect=twin.to_text()),
                                    source=source, column="effect")


def _is_whole(value: object) -> bool:
    """Whether ``value`` is a Python or NumPy integer (booleans are not)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _to_float(value: object) -> float | None:
    try:
        return float(str(value).strip().replace(",", "."))
    except ValueError:
        return None


def _numbers(value: object) -> list[float]:
    """The numbers of an attribute value: none if missing, one per numeric item of a ``;`` list."""
    if is_missing(value):
        return []
    if isinstance(value, (bool, int, float, np.bool_, np.integer, np.floating)):
        return [] if isinstance(value, (float, np.floating)) and math.isnan(value) else [float(value)]
    found = (_to_float(item) for item in str(value).split(LIST_SEPARATOR) if item.strip())
    return [n for n in found if n is not None and not math.isnan(n)]


_NUMERIC_OPS = {
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    "<": lambda a, b: a < b, "=": lambda a, b: a == b, "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def has_word(text: str, word: str) -> bool:
    """Whether ``word`` occurs in ``text`` as a whole word: bounded by non-alphanumeric characters or the ends.

    Both are compared as given (callers fold them first).

    Examples
    --------
    >>> has_word("armored dragon", "dragon"), has_word("dragonoid", "dragon"), has_word("volcano-dragon", "dragon")
    (True, False, True)
    """
    start = text.find(word)
    while start >= 0 and word:
        end = start + len(word)
        if (start == 0 or not text[start - 1].isalnum()) and (end == len(text) or not text[end].isalnum()):
            return True
        start = text.find(word, start + 1)
    return False


def attribute_column(deck: Deck, attribute: str) -> str | None:
    """The column of ``deck`` that ``[attribute…]`` reads, or ``None`` when it has none.

    The attribute is read beside the deck's headers, as a card file's headers are read together
    (:func:`~deckstat.schema.canonical_columns`): ``[mana>=2]`` is the mana number of a deck that has both a cost
    and a mana number (``Coût`` and ``Mana``), and the cost of a deck that has only a cost.

    Examples
    --------
    >>> both = Deck.from_table([{"name": "A", "count": 1, "cost": 4, "mana_number": 2}])
    >>> attribute_column(both, "mana"), attribute_column(Deck.from_table([{"name": "A", "cost": 4}]), "mana")
    ('mana_number', 'cost')
    """
    searchable = [c for c in deck.cards.columns if c != "count"]
    headers = [str(c) for c in searchable]
    # The deck's own headers may be spelled differently (a table built by hand with "Coût" and "Mana").
    canonical = canonical_columns(headers)
    for wanted in dict.fromkeys((canonical_columns([*headers, attribute])[-1], canonical_column(attribute))):
        if wanted in searchable:
            return wanted
        if wanted in canonical:
            return searchable[canonical.index(wanted)]
    return None


def card_rows(deck: Deck, text: str) -> list[int]:
    """The rows of ``deck`` a card reference names: every label deckstat prints or reads for a card.

    A name names every printing of it (``VENDEUR``); a label names one (``VENDEUR #35``, ``POLICIER (holo)``); a
    name with a collector number or printing values in brackets names the printings that have them, as decklist
    lines do (``CT #83`` when the deck holds only that ``CT``, so that its label is ``CT``; ``VENDEUR (Laink)``).
    Compared without case or accents; ``[]`` when nothing matches.

    Examples
    --------
    >>> deck = Deck.from_table([{"name": "CT", "number": "83", "count": 3},
    ...                         {"name": "PORTAL", "number": "2", "count": 1}])
    >>> card_rows(deck, "CT #83"), card_rows(deck, "ct"), card_rows(deck, "CT #84"), card_rows(deck, "PORTAL (2)")
    ([0], [0], [], [1])
    """
    wanted = fold(text.strip())
    names = [fold(n) for n in deck.names]
    rows = [i for i, name in enumerate(names) if name == wanted] or \
        [i for i, label in enumerate(deck.labels) if fold(label) == wanted]
    if rows:
        return rows
    columns = deck.printing_columns
    records = deck.cards[columns].to_dict("records") if columns else [{}] * len(names)
    for name, collector, values in name_readings(text.strip())[1:]:
        rows = [i for i, n in enumerate(names)
                if n == fold(name) and printing_matches(collector, values, records[i], columns)]
        if rows:
            return rows
    return []


def deck_name_columns(deck: Deck) -> list[str]:
    """The columns of ``deck`` whose header names a deck (``deck_name``, ``nom_du_deck``, ``paquet``…), ``deck`` last.

    A file that holds several decks tells them apart in such a column; ``deck`` is also where a game with two decks
    (Licum) names each card's part, so it comes after the others.

    Examples
    --------
    >>> deck_name_columns(Deck.from_table([{"name": "A", "deck": "jeu", "deck_name": "Feu"}]))
    ['deck_name', 'deck']
    """
    return sorted((str(c) for c in deck.cards.columns if names_decks(c)), key=lambda c: c == "deck")


def names_decks(column: object) -> bool:
    """Whether a column's header names a deck (``deck``, ``deck_name``, ``Nom du deck``, ``paquet``).

    Examples
    --------
    >>> names_decks("deck_name"), names_decks("Paquet"), names_decks("name")
    (True, True, False)
    """
    key = fold_key(column)
    return str(column) not in ("name", "count", "type") and ("deck" in key or "paquet" in key)


def column_values(deck: Deck, column: str) -> list[str]:
    """Distinct items of a column of ``deck``, the most frequent (copies included) first; numbers in order.

    Examples
    --------
    >>> deck = Deck.from_table([{"name": "A", "count": 1, "race": "Human"},
    ...                         {"name": "B", "count": 3, "race": "Armored Dragon;Human"}])
    >>> column_values(deck, "race")
    ['Human', 'Armored Dragon']
    """
    if column not in deck.cards.columns:
        return []
    copies: dict[str, list] = {}
    for value, count in zip(deck.cards[column], deck.counts):
        if is_missing(value):
            continue
        items = [value] if not isinstance(value, str) else [v.strip() for v in value.split(LIST_SEPARATOR)]
        for item in items:
            shown = format_number(item) if isinstance(item, (int, float, np.integer, np.floating)) else str(item)
            if shown:
                entry = copies.setdefault(fold(shown), [shown, 0])
                entry[1] += int(count)
    shown_values = [shown for shown, _ in copies.values()]
    numbers = [_to_float(v) for v in shown_values]
    if shown_values and all(n is not None for n in numbers):
        return [v for _, v in sorted(zip(numbers, shown_values))]
    return [shown for shown, _ in sorted(copies.values(), key=lambda entry: -entry[1])]
