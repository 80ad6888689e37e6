"""Cards a player knows about mid-game: what they are, and what that leaves unknown.

A description names cards of a deck in one of three ways:

* a card file (CSV) or a text decklist, resolved against the deck the way
  decklists are resolved against a pool (``3 VENDEUR #35``);
* names inline, separated by commas or line breaks: ``"ROCKET FIELD, LAINK, 2 DRESSEUSE"``;
* group counts inline: ``"Terrain=1, [cost<=1]=0, other=4"``. A card counts in
  the first group listed that it belongs to; ``other`` (``autre``, ``rest``,
  ``reste``) is every card in none of them. Names and group counts may be mixed.

Names pin cards down. Group counts do not: which cards of a group they are is
unknown. Every copy being a distinct card and every deal of the cards to the
zones equally likely, :func:`cell_law` averages exactly over the deals
consistent with all the zones' descriptions at once.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from deckstat._validate import check_whole
from deckstat.cards import CardIndex, read_card_csv, read_lines
from deckstat.deck import Deck
from deckstat.engines.known import joint_contents, zone_contents
from deckstat.errors import DeckstatError, ExpressionError, param
from deckstat.events import CONFUSABLES, TYPOGRAPHIC_QUOTES, expression_source, parse_group, shown_text
from deckstat.i18n import N_, number, tr
from deckstat.parsing import split_group_count, split_top_level
from deckstat.terms import MOST_EXPRESSION_CHARS
from deckstat.text import fold, fold_key, is_file, suggest

#: Words for "every card in none of the groups listed".
OTHER_WORDS = ("other", "others", "autre", "autres", "rest", "reste")
#: Suffixes that make a description a file rather than inline names.
FILE_SUFFIXES = (".csv", ".tsv", ".txt", ".dec", ".list")
#: Most cases :func:`cell_law` weighs before refusing: contents of a zone built, and pairs (partial deal, content
#: of the next zone) compared.
MAX_OUTCOMES = 200_000
#: Zones of known cards, each with the words that name it (English and French; case, accents, spaces,
#: ``_`` and ``-`` do not matter).
ZONE_WORDS = {
    "hand": ("hand", "main"),
    "gone": ("gone", "discard", "défausse", "partis", "parties"),
    "bottom": ("bottom", "dessous"),
    "set_aside": ("set_aside", "shields", "boucliers", "mis de côté", "mises de côté"),
}
#: How a message says that one zone names more copies of a card than the deck has.
_TOO_MANY_IN = {
    "hand": N_("the hand names {named} copies of {card!r}, but the deck has {count}"),
    "gone": N_("the gone names {named} copies of {card!r}, but the deck has {count}"),
    "bottom": N_("the bottom names {named} copies of {card!r}, but the deck has {count}"),
    "set_aside": N_("the set_aside names {named} copies of {card!r}, but the deck has {count}"),
}
#: A zone and the copies of a card it names, when several zones name more copies than the deck has.
_ZONE_COPIES = {"hand": N_("hand ({copies})"), "gone": N_("gone ({copies})"), "bottom": N_("bottom ({copies})"),
                "set_aside": N_("set_aside ({copies})")}
#: Words for the number of set-aside cards broken (moved to the hand, unknown which).
BROKEN_WORDS = ("broken", "brisés", "brisées", "cassés")


@dataclass(frozen=True)
class KnownCards:
    """Cards described by a player, against one deck.

    Attributes
    ----------
    rows : ndarray of int64, shape (n_rows,)
        Copies of each deck row named exactly (by name, file or decklist).
    classes : tuple of (ndarray of bool, int, str)
        Cards given by count only: the deck rows they may be, how many, and the label of the item.
    source : str
        How messages name the description (``hand '2 LAINK'``).
    text : str
        The description as messages quote it (``'2 LAINK'``, a file name), without its zone.
    """

    rows: np.ndarray
    classes: tuple[tuple[np.ndarray, int, str], ...]
    source: str
    text: str = ""

    @property
    def size(self) -> int:
        """Number of cards described."""
        return int(self.rows.sum()) + sum(n for _, n, _ in self.classes)

    @classmethod
    def none(cls, deck: Deck) -> KnownCards:
        """No card."""
        return cls(np.zeros(len(deck.cards), dtype=np.int64), (), "")


def _split_items(text: str) -> list[tuple[str, int]]:
    """Split at the commas and semicolons outside brackets and quotes, and at line breaks: items, 1-based positions.

    ``[cost<=1]=0, "A, B"`` is two items; a decklist pasted on several lines is one item per line.
    """
    pieces = (piece.strip() for piece in split_top_level(text, ",;", lines=True))
    return [(piece.text, piece.start + 1) for piece in pieces if piece.text]


#: A name in quotes after an optional count (``2 "Asteria, Spirit of Heaven's Blessing"``): the quotes keep a comma
#: or a semicolon of the name from splitting the list, and are not part of the name.
_QUOTED_NAME = re.compile(r"""^(\d+\s*[xX×]?\s*)?(["'])(.*\S.*)\2$""")


def _unquoted(item: str) -> str:
    """``item`` with the quotes around its card name taken off (``2 "A, B"`` → ``2 A, B``)."""
    match = _QUOTED_NAME.match(item)
    if match is None or match.group(2) in match.group(3):
        return item
    return f"{match.group(1) or ''}{match.group(3)}"


def _group_count(item: str) -> tuple[str, int] | None:
    """``Terrain=2`` → (``Terrain``, 2); None when the item is not a group count."""
    group_count = split_group_count(item)
    return group_count if group_count is not None and isinstance(group_count[1], int) else None


def parse_known(description: str | Path | Deck, deck: Deck, *, what: str = "known cards") -> KnownCards:
    """Resolve a description of known cards against ``deck``.

    Parameters
    ----------
    description : str, Path or Deck
        A card file or text decklist path, inline names, inline group counts, or a Deck.
    deck : Deck
        The deck the cards come from (with the profile's synonyms, so groups match as in events).
    what : str
        How messages name the description (``hand``, ``gone``…).

    Returns
    -------
    KnownCards

    Raises
    ------
    DeckstatError
        An unknown card (with the closest names), a malformed item, a group that matches no card.

    Examples
    --------
    >>> deck = Deck.from_table([{"name": "Terrain", "count": 10, "type": "Terrain"},
    ...                         {"name": "Laink", "count": 3, "type": "Personnage"}])
    >>> known = parse_known("2 Laink, Terrain=1", deck)
    >>> known.rows.tolist(), [(mask.tolist(), n) for mask, n, _ in known.classes]
    ([0, 2], [([True, False], 1)])
    """
    index = CardIndex(deck, noun="deck")
    rows = np.zeros(len(deck.cards), dtype=np.int64)
    if isinstance(description, Deck) or isinstance(description, Path) or (
            isinstance(description, str) and looks_like_file(description)):
        source = description.source if isinstance(description, Deck) else str(description)
        lines = _file_lines(description)
        for row, count in index.resolve_lines(lines, source=source):
            rows[row] += count
        if not lines:
            raise DeckstatError(tr("lists no cards"), source=source)
        return KnownCards(rows, (), expression_source(what, source), source)
    if not isinstance(description, str):
        raise DeckstatError(tr("expected a card file, a decklist, names or group counts, got {kind}",
                               kind=type(description).__name__), source=what)
    source = expression_source(what, shown_text(description))
    if len(description) > MOST_EXPRESSION_CHARS:
        raise DeckstatError(tr("{length} characters, more than the {limit} a description of cards may hold; give "
                               "the cards in a file instead", length=number(len(description)),
                               limit=number(MOST_EXPRESSION_CHARS)), source=source)
    items = _split_items(description)
    if not items:
        raise DeckstatError(tr("names no card; expected names (\"A, 2 B\") or group counts (\"Terrain=2, "
                               "other=3\")"), source=source)
    classes: list[tuple[np.ndarray, int, str]] = []
    listed = np.zeros(len(deck.cards), dtype=bool)
    other: tuple[int, int] | None = None
    for item, position in items:
        group_count = _group_count(item)
        if group_count is not None and fold(group_count[0]) in OTHER_WORDS:
            if other is not None:
                raise DeckstatError(tr("'{word}' is given twice", word=group_count[0]), source=source,
                                    column=position)
            other = (group_count[1], position)
            continue
        if group_count is not None:
            text, count = group_count
            try:
                group = parse_group(text, what=what)
                mask = deck.mask(group) & ~listed
            except ExpressionError as exc:
                raise ExpressionError(exc.message, source=source, column=position) from None
            listed |= deck.mask(group)
            classes.append((mask, count, f"{group.label}={count}"))
            continue
        try:
            row, count = index.resolve(_unquoted(item), source=source, column=position)
        except DeckstatError as exc:
            look_alike = next((k for k, ch in enumerate(item) if ch in CONFUSABLES or (
                ch in TYPOGRAPHIC_QUOTES and (k == 0 or not item[k - 1].isalnum()))), None)
            if look_alike is not None:
                ch = item[look_alike]
                raise DeckstatError(tr("{char!r} (U+{code}) is not a name or a count deckstat reads; write {ascii!r} "
                                       "instead", char=ch, code=f"{ord(ch):04X}",
                                       ascii={**CONFUSABLES, **TYPOGRAPHIC_QUOTES}[ch]), source=source,
                                    column=position + look_alike) from None
            raise _as_group_hint(exc, item, deck) from None
        rows[row] += count
    if other is not None:
        classes.append((~listed, other[0], f"other={other[0]}"))
    return KnownCards(rows, tuple((m, n, label) for m, n, label in classes if n > 0), source, repr(description))


def _as_group_hint(exc: DeckstatError, item: str, deck: Deck) -> DeckstatError:
    """An unknown name that is a group of the deck (``Terrain``): suggest a group count instead."""
    try:
        matches = deck.count(parse_group(item)) > 0
    except DeckstatError:
        matches = False
    if not matches:
        return exc
    return DeckstatError(tr("{message}; {item!r} is a group of the deck: write a count, e.g. '{item}=1'",
                            message=exc.message, item=item), source=exc.source, column=exc.column)


def looks_like_file(text: str) -> bool:
    """Whether a description names a file (a card file or decklist suffix, or an existing file)."""
    return "\n" not in text and (Path(text).suffix.lower() in FILE_SUFFIXES or is_file(text))


def _file_lines(description: str | Path | Deck) -> list[tuple[int | None, str]]:
    """``(line, "count label")`` for each card of a card file, decklist or Deck."""
    if isinstance(description, Deck) or Path(description).suffix.lower() in (".csv", ".tsv"):
        known = description if isinstance(description, Deck) else read_card_csv(description)
        return [(None, f"{count} {label}") for count, label in zip(known.counts, known.labels) if count > 0]
    path = Path(description)
    if not is_file(path):
        raise DeckstatError(tr("no such file"), source=str(path))
    # Read as decklists are (encodings, limits); a section line ("[Main]") names no card.
    return [(i, line) for i, line in read_lines(path) if not line.startswith("[")]


def check_available(deck: Deck, known: Mapping[str, KnownCards]) -> None:
    """Refuse known cards the deck cannot hold: more copies of a card, or more cards of a group, than it has."""
    counts = deck.counts
    named = sum((k.rows for k in known.values()), np.zeros(len(counts), dtype=np.int64))
    over = np.flatnonzero(named > counts)
    if over.size:
        i = int(over[0])
        zones = [(zone, int(k.rows[i])) for zone, k in known.items() if k.rows[i]]
        facts = {"named": int(named[i]), "card": deck.labels[i], "count": int(counts[i])}
        if len(zones) == 1:
            raise DeckstatError(tr(_TOO_MANY_IN[zones[0][0]], **facts))
        listed = [tr(_ZONE_COPIES[zone], copies=n) for zone, n in zones]
        joined = functools.reduce(lambda first, second: tr("{first} and {second}", first=first, second=second),
                                  listed)
        raise DeckstatError(tr("{zones} name {named} copies of {card!r}, but the deck has {count}", zones=joined,
                               **facts))
    left = counts - named
    for k in known.values():
        for mask, n, label in k.classes:
            if n > int(left[mask].sum()):
                raise DeckstatError(tr("{label}: the deck has only {left} such cards besides the cards named",
                                       label=label, left=int(left[mask].sum())), source=k.source)
    total = sum(k.size for k in known.values())
    if total > deck.size:
        raise DeckstatError(tr("{total} known cards, but the deck has {size}", total=total, size=deck.size))


def cell_law(deck: Deck, row_cells: np.ndarray, n_cells: int,
             known: Mapping[str, KnownCards]) -> list[tuple[dict[str, np.ndarray], float]]:
    """The law of the known cards' cells, per zone, given every zone's description at once.

    Every copy of every card is a distinct card, and every deal of them to
    the zones (of the sizes the descriptions give) is equally likely. A deal
    is consistent when each zone's cards split into the cards it names plus,
    for each group count, that many cards of the group. The law weighs each
    consistent deal once: a set of zone contents weighs as many deals as
    have it, normalised once over all of them.

    Parameters
    ----------
    deck : Deck
        The deck the descriptions were resolved against.
    row_cells : ndarray of int, shape (n_rows,)
        The cell of each deck row (``Compiled.card_cells`` of a compiled question).
    n_cells : int
    known : mapping of zone name to KnownCards

    Returns
    -------
    list of (dict of zone to ndarray of int64, float)
        Each outcome: the known cards of each zone per cell, and its
        probability (they sum to 1; a single outcome when every card is named).

    Raises
    ------
    DeckstatError
        Known cards the deck cannot hold (:func:`check_available`), descriptions no deal meets (naming the
        first one that cannot be met), more than :data:`MAX_OUTCOMES` cases to weigh.

    Examples
    --------
    One Terrain known in hand, of 2 cells of Terrains (3 cheap, 1 not): the cheap cell with probability 3/4.

    >>> deck = Deck.from_table([{"name": "A", "count": 3, "type": "Terrain"},
    ...                         {"name": "B", "count": 1, "type": "Terrain"}])
    >>> law = cell_law(deck, np.array([0, 1]), 2, {"hand": parse_known("Terrain=1", deck)})
    >>> [(out["hand"].tolist(), p) for out, p in law]
    [([0, 1], 0.25), ([1, 0], 0.75)]
    """
    check_available(deck, known)
    row_cells = np.asarray(row_cells, dtype=np.int64)
    zones = list(known)
    fixed = {z: np.bincount(row_cells, weights=known[z].rows, minlength=n_cells).astype(np.int64) for z in zones}
    if not any(known[z].classes for z in zones):
        return [(fixed, 1.0)]
    atoms = _Atoms(deck, row_cells, known)
    described = [z for z in zones if known[z].size]
    contents = {z: atoms.contents(z, among=described) for z in described}
    # Zones with fewer contents first: fewer partial choices to extend.
    order = sorted(described, key=lambda z: len(contents[z]))
    choices, ways = joint_contents(atoms.counts, [contents[z] for z in order], most=MAX_OUTCOMES)
    if not len(ways):
        raise _unmet(atoms, described, known)
    to_cells = np.zeros((len(atoms.counts), n_cells), dtype=np.int64)
    to_cells[np.arange(len(atoms.counts)), atoms.cell] = 1
    cells = np.concatenate([contents[z][choices[:, i]] @ to_cells for i, z in enumerate(order)], axis=1)
    # Contents alike in every cell give the same odds: one outcome, the deals of both.
    keys, outcome_of = np.unique(cells, axis=0, return_inverse=True)
    by_outcome = np.split(ways[np.argsort(outcome_of.ravel(), kind="stable")],
                          np.cumsum(np.bincount(outcome_of.ravel(), minlength=len(keys)))[:-1])
    total = sum(ways)
    law = []
    for key, outcome_ways in zip(keys, by_outcome):
        per_zone = dict(fixed)
        per_zone.update({z: key[j * n_cells:(j + 1) * n_cells].copy() for j, z in enumerate(order)})
        law.append((per_zone, sum(outcome_ways) / total))
    return sorted(law, key=lambda item: [item[0][z].tolist() for z in zones])


class _Atoms:
    """The deck's cards grouped into atoms: cards alike for every group count, in one cell.

    A row named in some zone is an atom of its own, so that a zone's content
    says how many of the named card it holds (a hand of 2 LAINK fits
    ``"LAINK, Personnage=1"``, and weighs C(copies, 2) deals).
    """

    def __init__(self, deck: Deck, row_cells: np.ndarray, known: Mapping[str, KnownCards]):
        named_somewhere = sum(k.rows for k in known.values()) > 0
        masks = [mask for k in known.values() for mask, _, _ in k.classes]
        keys = np.column_stack([row_cells, np.where(named_somewhere, np.arange(len(row_cells)), -1)] + masks)
        atom_keys, atom_of = np.unique(keys, axis=0, return_inverse=True)
        atom_of = atom_of.ravel()
        n_atoms = len(atom_keys)
        self.counts = np.bincount(atom_of, weights=deck.counts, minlength=n_atoms).astype(np.int64)
        self.cell = atom_keys[:, 0]
        self.named = {z: np.bincount(atom_of, weights=k.rows, minlength=n_atoms).astype(np.int64)
                      for z, k in known.items()}
        columns = iter(range(2, 2 + len(masks)))
        self.classes = {z: [(atom_keys[:, next(columns)].astype(bool), n) for _, n, _ in k.classes]
                        for z, k in known.items()}

    def contents(self, zone: str, *, among: Sequence[str]) -> np.ndarray:
        """Every content of ``zone`` that fits its description, besides the cards named in the other zones."""
        others = sum((self.named[z] for z in among if z != zone), np.zeros_like(self.counts))
        return zone_contents(self.counts - others, self.named[zone], self.classes[zone], most=MAX_OUTCOMES)


def _unmet(atoms: _Atoms, described: Sequence[str], known: Mapping[str, KnownCards]) -> DeckstatError:
    """The error for descriptions no deal meets: the first zone no deal meets, alone or with the zones before it.

    ``described`` lists the zones described, in their order; no deal meets them all.
    """
    for zone in described:
        if not len(atoms.contents(zone, among=[zone])):
            return DeckstatError(tr("no cards of the deck fit this description"), source=known[zone].source)
    # Each zone alone can be met: name the first zone that cannot be met together with the zones before it
    # (the last one when only all of them together cannot).
    zones = list(described)
    for end in range(2, len(described)):
        if not len(joint_contents(atoms.counts, [atoms.contents(z, among=described[:end]) for z in described[:end]],
                                  most=MAX_OUTCOMES)[0]):
            zones = described[:end]
            break
    return DeckstatError(tr("no deal of the deck fits this description together with {others}",
                            others=tr("; ").join(known[z].source for z in zones[:-1])), source=known[zones[-1]].source)


def zone_of(word: object, *, where: str = "") -> str:
    """The zone a word names (``main`` → ``hand``, ``boucliers`` → ``set_aside``); an error listing them otherwise.

    Examples
    --------
    >>> zone_of("Défausse"), zone_of("mis de côté")
    ('gone', 'set_aside')
    """
    key = fold_key(word) if isinstance(word, str) else None
    for zone, words in ZONE_WORDS.items():
        if key in {fold_key(w) for w in words}:
            return zone
    listed = "; ".join("/".join(words[:2]) for words in ZONE_WORDS.values())
    hint = suggest(word, [w for words in ZONE_WORDS.values() for w in words]) if isinstance(word, str) else ""
    message = tr("unknown zone {word!r}; the zones of known cards are {zones}{hint}", word=word, zones=listed,
                 hint=hint)
    raise DeckstatError(tr("{place}: {message}", place=where, message=message) if where else message)


def parse_given(text: str) -> tuple[str, str]:
    """Split ``"hand: Terrain=2, other=3"`` into its zone and its description.

    Examples
    --------
    >>> parse_given("main : LAINK, 2 DRESSEUSE")
    ('hand', 'LAINK, 2 DRESSEUSE')
    """
    head, sep, tail = text.partition(":")
    where = f"{param('given')} {text!r}"
    if not sep:
        raise DeckstatError(tr("{place}: {message}", place=where, message=tr(
            "expected a zone, a colon and the cards, e.g. 'hand: Terrain=2, other=3'")))
    zone = zone_of(head.strip(), where=where)
    if not tail.strip():
        raise DeckstatError(tr("{place}: {message}", place=where,
                               message=tr("no card after '{zone}:'", zone=head.strip())))
    return zone, tail.strip()


@dataclass(frozen=True)
class Knowledge:
    """What a player knows mid-game, before it is resolved against a deck.

    Attributes
    ----------
    zones : dict of str to tuple
        Descriptions (card files, decklists, names, group counts, Decks) per zone of :data:`ZONE_WORDS`.
    broken : int
        Set-aside cards moved to the hand without saying which (shields broken).
    """

    zones: dict
    broken: int = 0

    @classmethod
    def from_mapping(cls, known: Mapping) -> Knowledge:
        """Read ``{"hand": "LAINK, 2 DRESSEUSE", "gone": "gone.csv", "broken": 2}`` (zone words of either language).

        A zone's value is one description or a list of them (they add up).
        """
        if isinstance(known, Knowledge):
            return known
        if not isinstance(known, Mapping):
            raise DeckstatError(tr("{name} must map zones to descriptions of cards, e.g. {{'hand': 'Terrain=2, "
                                   "other=3'}}, got {kind}", name=param("known"), kind=type(known).__name__))
        zones: dict[str, tuple] = {}
        broken = 0
        for word, value in known.items():
            if isinstance(word, str) and fold_key(word) in {fold_key(w) for w in BROKEN_WORDS}:
                broken = check_whole(value, "broken")
                continue
            zone = zone_of(word, where=param("known"))
            items = tuple(value) if isinstance(value, (list, tuple)) else (value,)
            zones[zone] = zones.get(zone, ()) + items
        return cls(zones, broken)

    def resolve(self, deck: Deck) -> dict[str, KnownCards]:
        """Each zone's cards against ``deck`` (descriptions of a zone add up), every zone present."""
        out = {}
        for zone in ZONE_WORDS:
            parts = [parse_known(d, deck, what=zone.replace("_", "-")) for d in self.zones.get(zone, ())]
            if not parts:
                out[zone] = KnownCards.none(deck)
                continue
            out[zone] = KnownCards(sum((k.rows for k in parts), np.zeros(len(deck.cards), dtype=np.int64)),
                                   tuple(c for k in parts for c in k.classes), tr("; ").join(k.source for k in parts),
                                   "; ".join(k.text for k in parts))
        return out

    @property
    def described(self) -> dict[str, str]:
        """How each zone was described, for the provenance."""
        return {zone: "; ".join(str(getattr(d, "source", d)) for d in items) for zone, items in self.zones.items()}
