"""Deck construction checks: every rule of a game profile, applied to a deck.

Rule kinds (parameters as in the profile file, see ``docs/profiles.md``):

``size``        ``min``/``max`` cards; ``count_as_one`` groups count together as one card.
``copies``      at most ``max`` copies per value of ``by`` (default ``name``), within ``group`` if given;
                ``by = "printing"`` counts each printing of a name apart (``VENDEUR #35``, ``#36``).
``count``       ``min``/``max`` cards of ``group``.
``ratio``       at least one card of ``group`` per ``per`` cards of the deck (rounded up).
``distinct``    ``min``/``max`` different names in ``group``.
``fraction``    cards of ``group`` at most ``max`` times the cards of ``of``.
``allowed``     every card belongs to one of ``groups``.
``same_value``  all cards of ``group`` share one value of ``attribute``.

Cards of the profile's ``outside_decks`` groups (Licum's Mise au Jeu cards)
are set apart before any rule is checked: they count in no deck. A ``count``
rule whose group reads a column the deck lacks (``[shiny=1]`` without a
``shiny`` column) counts no card, and :func:`notes` says so.

:func:`file_warnings` looks for signs that a file is not one deck of the game
asked for: a deck-name column with several decks in it, card types or
columns of another shipped game.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from deckstat.deck import LIST_SEPARATOR, Deck, is_missing
from deckstat.errors import DeckstatError, ExpressionError
from deckstat.events import AttributeGroup, parse_group
from deckstat.games.profiles import DeckPart, Profile, Rule, group_words, list_profiles
from deckstat.schema import canonical_column
from deckstat.text import fold, fold_key

NO_PART = "(no deck)"
#: The ``part`` of warnings about the whole file, in games with several decks.
WHOLE_FILE = "(file)"


def _bounds(rule: Rule) -> tuple[int | None, int | None]:
    return rule.params.get("min"), rule.params.get("max")


def _bound_text(low: int | None, high: int | None, unit: str) -> str:
    """``unit`` is singular (``"card"``): "exactly 1 card", "at least 40 cards"."""
    if low is not None and high is not None:
        return f"exactly {_plural(low, unit)}" if low == high else f"{low} to {_plural(high, unit)}"
    if low is not None:
        return f"at least {_plural(low, unit)}"
    return f"at most {_plural(high, unit)}"


def _outside(value: float, low: float | None, high: float | None) -> bool:
    return (low is not None and value < low) or (high is not None and value > high)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _check_rule(deck: Deck, rule: Rule) -> list[dict]:
    p = rule.params
    out: list[dict] = []

    def add(subject: str, found: str, allowed: str) -> None:
        out.append({"rule": rule.text, "level": p.get("level", "error"), "subject": subject,
                    "found": found, "allowed": allowed})

    if rule.kind == "size":
        size = deck.size
        together = p.get("count_as_one", [])
        if together:
            mask = np.zeros(len(deck.cards), dtype=bool)
            for group in together:
                mask |= deck.mask(group)
            grouped = int(deck.counts[mask].sum())
            size = size - grouped + (1 if grouped else 0)
        low, high = _bounds(rule)
        if _outside(size, low, high):
            note = f" ({' + '.join(together)} counted as one)" if together else ""
            add("deck size", f"{_plural(size, 'card')}{note}", _bound_text(low, high, "card"))
    elif rule.kind == "copies":
        rows = deck.mask(p["group"]) if "group" in p else np.ones(len(deck.cards), dtype=bool)
        if p.get("by") == "printing":
            keys, values = deck.printings, deck.labels
        else:
            column = canonical_column(p.get("by", "name"))
            if column not in deck.cards.columns:
                raise DeckstatError(f"the deck has no {column!r} column, needed by the rule {rule.text!r}",
                                    source=deck.source)
            values = list(deck.cards[column])
            keys = [None if is_missing(v) else fold(v) for v in values]
        totals: dict[object, int] = {}
        shown: dict[object, str] = {}
        for key, value, count, counted in zip(keys, values, deck.counts, rows):
            if not counted or key is None:
                continue
            totals[key] = totals.get(key, 0) + int(count)
            shown.setdefault(key, str(value))
        for key, total in totals.items():
            if total > p["max"]:
                add(shown[key], _plural(total, "copy").replace("copys", "copies"),
                    f"at most {p['max']}")
    elif rule.kind == "count":
        n = 0 if absent_column(deck, p["group"]) else deck.count(p["group"])
        low, high = _bounds(rule)
        if _outside(n, low, high):
            add(p["group"], _plural(n, "card"), _bound_text(low, high, "card"))
    elif rule.kind == "ratio":
        n = deck.count(p["group"])
        needed = math.ceil(deck.size / p["per"])
        if n < needed:
            add(p["group"], f"{n} in {_plural(deck.size, 'card')}",
                f"at least {needed} (1 per {_plural(p['per'], 'card')})")
    elif rule.kind == "distinct":
        names = {fold(name) for name in deck.cards["name"][deck.mask(p["group"])]}
        low, high = _bounds(rule)
        if _outside(len(names), low, high):
            add(p["group"], f"{len(names)} different", _bound_text(low, high, "different card"))
    elif rule.kind == "fraction":
        n, of = deck.count(p["group"]), deck.count(p["of"])
        if n > p["max"] * of:
            add(p["group"], f"{n} of {of} {p['of']}", f"at most {math.floor(p['max'] * of)} "
                f"({p['max']:g} of {p['of']})")
    elif rule.kind == "allowed":
        mask = np.zeros(len(deck.cards), dtype=bool)
        for group in p["groups"]:
            mask |= deck.mask(group)
        for name, kind in zip(deck.cards["name"][~mask], deck.cards["type"][~mask]):
            add(name, f"type {kind!r}" if not is_missing(kind) else "no type", " or ".join(p["groups"]))
    elif rule.kind == "same_value":
        column = canonical_column(p["attribute"])
        rows = deck.mask(p["group"])
        if rows.any() and column not in deck.cards.columns:
            raise DeckstatError(f"the deck has no {p['attribute']!r} column, needed by the rule "
                                f"{rule.text!r}", source=deck.source)
        if rows.any():
            tally: dict[str, int] = {}
            label: dict[str, str] = {}
            for value, count in zip(deck.cards[column][rows], deck.counts[rows]):
                key = "" if is_missing(value) else fold(value)
                tally[key] = tally.get(key, 0) + int(count)
                label.setdefault(key, "(none)" if not key else str(value))
            if len(tally) > 1:
                found = ", ".join(f"{label[k]} ({_plural(n, 'card')})" for k, n in tally.items())
                add(p["group"], found, f"one {p['attribute']}")
    return out


def absent_column(deck: Deck, group_text: str) -> str | None:
    """The attribute ``group_text`` compares if ``deck`` has no such column (``shiny`` for ``[shiny=1]``), else None."""
    group = parse_group(group_text)
    if not isinstance(group, AttributeGroup):
        return None
    wanted = canonical_column(group.attribute)
    if any(canonical_column(str(c)) == wanted for c in deck.cards.columns if c != "count"):
        return None
    return group.attribute


def _split_parts(deck: Deck, profile: Profile) -> list[tuple[DeckPart, Deck, list[dict]]]:
    if len(profile.parts) == 1:
        return [(profile.parts[0], deck, [])]
    if "deck" not in deck.cards.columns:
        names = "; ".join(f"{p.name}: {', '.join(p.aliases)}" for p in profile.parts)
        raise DeckstatError(f"{profile.name} decks have {len(profile.parts)} parts; add a 'deck' column "
                            f"naming each card's part ({names})", source=deck.source)
    known = {fold(a) for part in profile.parts for a in part.aliases}
    stray = []
    for name, value in zip(deck.cards["name"], deck.cards["deck"]):
        missing = is_missing(value) or not str(value).strip()
        if missing or fold(value) not in known:
            stray.append({"rule": "every card belongs to one of the decks", "level": "error",
                          "subject": name, "found": "no deck" if missing else f"deck {str(value)!r}",
                          "allowed": " or ".join(p.aliases[0] for p in profile.parts)})
    # Stray cards belong to no part: they are reported once, under NO_PART, and counted in no deck.
    out = [(part, deck.part(part.aliases, label=part.name).with_synonyms(deck.synonyms), [])
           for part in profile.parts]
    if stray:
        out.append((DeckPart("", NO_PART, (), ()), deck, stray))
    return out


def _copies_counted_by(rule: Rule, copies_by: str) -> Rule:
    """A copy limit read ``by`` name or printing, whatever its profile says; its text says so."""
    if rule.params.get("by", "name") == copies_by:
        return rule
    reading = "every printing of a name together" if copies_by == "name" else "each printing apart"
    text = (f"at most {rule.params['max']} copies of a card, counting {reading} "
            f"(the profile counts by {rule.params.get('by', 'name')})")
    return replace(rule, params={**rule.params, "by": copies_by}, text=text)


def violations(deck: Deck, profile: Profile, *, copies_by: str | None = None) -> list[dict]:
    """Every construction rule of ``profile`` that ``deck`` breaks, as records.

    ``copies_by`` (``"name"`` or ``"printing"``), when given, replaces the
    ``by`` of every copy limit of the profile.

    Each record has ``part`` (which of the game's decks; ``"(no deck)"`` for a
    card whose ``deck`` value names no part), ``rule``, ``level`` (``error``
    or ``warning``), ``subject`` (card or category), ``found``, ``allowed``
    and a one-line ``message``.

    Raises
    ------
    DeckstatError
        For a Licum table without a ``deck`` column, or a deck that lacks a
        column a rule needs (``team``…; a ``count`` rule counts no card
        instead, see :func:`notes`).
    """
    rows = []
    for part, part_deck, extra in _split_parts(profile.counted_deck(deck), profile):
        found = extra[:]
        for rule in part.rules:
            if copies_by is not None and rule.kind == "copies":
                rule = _copies_counted_by(rule, copies_by)
            try:
                found.extend(_check_rule(part_deck, rule))
            except ExpressionError as exc:
                # A group over an attribute the deck lacks, e.g. [shiny=1] without a shiny column.
                raise DeckstatError(f"cannot check the rule {rule.text!r}: {exc}", source=part_deck.source) from None
        for row in found:
            row["part"] = part.name
            row["message"] = f"{row['subject']}: {row['found']}, allowed {row['allowed']} ({row['rule']})"
            rows.append(row)
    return rows


def notes(deck: Deck, profile: Profile) -> list[str]:
    """What validating ``deck`` read in a way the user should know: cards set apart, absent columns.

    Returns
    -------
    list of str
        One sentence per note, e.g. that a deck without a ``shiny`` column is
        read as holding no shiny card.
    """
    out = []
    outside = profile.outside_mask(deck)
    if outside.any():
        n = int(deck.counts[outside].sum())
        names = ", ".join(dict.fromkeys(str(name) for name in deck.cards["name"][outside]))
        out.append(f"{_plural(n, 'card')} of {' or '.join(group_words(g) for g in profile.outside_decks)} ({names}) "
                   "set apart: "
                   "they count in no deck and are never drawn")
    counted = profile.counted_deck(deck)
    for part, part_deck, _ in _split_parts(counted, profile):
        for rule in part.rules:
            if rule.kind == "count" and (column := absent_column(part_deck, rule.params["group"])):
                where = f"the {part.name} deck" if len(profile.parts) > 1 else "the deck"
                out.append(f"{where} has no {column!r} column: no card is counted as {rule.params['group']} for "
                           f"the rule {rule.text!r}; add the column to check it")
    return out


def _looks_like_a_deck(types: list[object]) -> bool:
    """Whether the cards under one value of a deck-name column look like a deck, not a heading such as [Terrains].

    Decklist headings group cards of one type; a deck mixes types. Without types, every value is a deck.
    """
    return len({fold(t) for t in types if not is_missing(t)}) >= 2


def _deck_name_columns(deck: Deck, profile: Profile) -> list[str]:
    """Columns whose header names a deck (``deck``, ``deck_name``, ``paquet``…), except the part column."""
    out = []
    for column in deck.cards.columns:
        if column in ("name", "count", "type"):
            continue
        if column == "deck" and len(profile.parts) > 1:
            continue  # Licum's deck column names each card's part
        key = fold_key(column)
        if "deck" in key or "paquet" in key:
            out.append(column)
    return out


def _type_items(value: object) -> list[str]:
    if is_missing(value):
        return []
    return [item.strip() for item in str(value).split(LIST_SEPARATOR) if item.strip()]


def _best_matches(matched: dict[str, set]) -> list[tuple[str, set]]:
    """The games that explain foreign types or columns: those whose matches no other game's strictly contain.

    Games with the same matches are named together (``"A or B"``).
    """
    kept: dict[frozenset, list[str]] = {}
    for name, keys in matched.items():
        if keys and not any(keys < other for other in matched.values()):
            kept.setdefault(frozenset(keys), []).append(name)
    return [(" or ".join(names), set(keys)) for keys, names in kept.items()]


def file_warnings(deck: Deck, profile: Profile) -> list[dict]:
    """Signs that ``deck`` is not one deck of ``profile``'s game, as warning records like :func:`violations`.

    Three signs, each a warning (the deck is checked anyway):

    - a column whose header names a deck (``deck_name``, ``deck``, ``paquet``…)
      holds several decks: two or more of its values each gather cards of
      several types (a decklist's section headings, such as ``[Terrains]``,
      gather one type and are not decks);
    - card types that are not the game's but are those of another shipped
      game (``Terrain`` and ``Personnage``, Wankul's, in a Duel Masters deck);
    - columns that belong to another shipped game's card data (its
      ``signature_columns``: Wankul's ``force``, ``effigy``…).

    Returns
    -------
    list of dict
        Records with ``part``, ``rule``, ``level`` (``warning``), ``subject``,
        ``found``, ``allowed`` and ``message``.

    Examples
    --------
    >>> from deckstat import Deck, get_profile
    >>> deck = Deck.from_table([{"name": "T", "count": 10, "type": "Terrain"},
    ...                         {"name": "P", "count": 40, "type": "Personnage"}])
    >>> [row["subject"] for row in file_warnings(deck, get_profile("duel-masters"))]
    ['Wankul card types']
    """
    rows = []
    types = deck.cards["type"] if "type" in deck.cards.columns else [None] * len(deck.cards)
    typed = any(not is_missing(t) for t in types)
    for column in _deck_name_columns(deck, profile):
        groups: dict[str, tuple[str, int, list]] = {}
        for value, count, card_type in zip(deck.cards[column], deck.counts, types):
            if is_missing(value) or not str(value).strip():
                continue
            label, total, seen = groups.get(fold(value), (str(value).strip(), 0, []))
            groups[fold(value)] = (label, total + int(count), seen + [card_type])
        decks = [(label, total) for label, total, seen in groups.values() if not typed or _looks_like_a_deck(seen)]
        if len(decks) >= 2:
            listed = ", ".join(f"{label!r} ({_plural(total, 'card')})" for label, total in decks)
            rows.append({"rule": "one deck per file: the cards of every deck in it are counted together",
                         "subject": f"column {column!r}", "found": f"{len(decks)} decks: {listed}",
                         "allowed": f"one deck; keep only the rows of one {column} value, e.g. {decks[0][0]!r}, "
                                    "in a file of its own"})
    others = [p for p in list_profiles() if p.id != profile.id]
    own_types = {fold(t) for t in profile.card_types}
    type_counts: dict[str, tuple[str, int]] = {}
    for card_type, count in zip(types, deck.counts):
        for item in _type_items(card_type):
            if fold(item) not in own_types:
                label, total = type_counts.get(fold(item), (item, 0))
                type_counts[fold(item)] = (label, total + int(count))
    matched = {p.name: {key for key in type_counts if key in {fold(t) for t in p.card_types}} for p in others}
    for owners, keys in _best_matches(matched):
        shown = ", ".join(f"{type_counts[k][0]} ({_plural(type_counts[k][1], 'card')})" for k in type_counts
                          if k in keys)
        rows.append({"rule": f"the file holds {owners} cards? check the game", "subject": f"{owners} card types",
                     "found": shown, "allowed": f"{profile.name} types" + (f" ({', '.join(profile.card_types)})"
                                                                            if profile.card_types else "")})
    own_columns = set(profile.signature_columns)
    columns = {canonical_column(str(c)): str(c) for c in deck.cards.columns}
    matched = {p.name: {c for c in columns if c not in own_columns and c in p.signature_columns} for p in others}
    for owners, keys in _best_matches(matched):
        rows.append({"rule": f"the file holds {owners} cards? check the game", "subject": f"{owners} columns",
                     "found": ", ".join(columns[c] for c in columns if c in keys),
                     "allowed": f"{profile.name} card data"})
    part = profile.parts[0].name if len(profile.parts) == 1 else WHOLE_FILE
    for row in rows:
        row.update(level="warning", part=part,
                   message=f"{row['subject']}: {row['found']}, expected {row['allowed']} ({row['rule']})")
    return rows
