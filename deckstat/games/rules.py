"""Deck construction checks: every rule of a game profile, applied to a deck.

Rule kinds (parameters as in the profile file, see ``docs/profiles.md``):

``size``        ``min``/``max`` cards; ``count_as_one`` groups count together as one card.
``copies``      at most ``max`` copies per value of ``by`` (default ``name``), within ``group`` if given;
                ``by = "card"`` counts printings identical in play as one card and printings that differ in
                play (``VENDEUR #35``, ``#36``) apart; ``by = "printing"`` counts each printing apart. A name
                that mixes scripts counts as the name it imitates (:func:`copy_keys`).
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
columns of another shipped game, card names that mix scripts.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from deckstat.deck import LIST_SEPARATOR, Deck, deck_name_columns, is_missing
from deckstat.errors import DeckstatError, ExpressionError
from deckstat.events import AttributeGroup, parse_group
from deckstat.games.profiles import DeckPart, Profile, Rule, group_words, list_profiles, localized
from deckstat.i18n import number, tr, trn
from deckstat.lookalikes import lookalikes
from deckstat.schema import canonical_column, printing_only
from deckstat.terms import COPIES_BY_NAMES, name_of
from deckstat.text import fold, format_number

NO_PART = "(no deck)"
#: The ``part`` of warnings about the whole file, in games with several decks.
WHOLE_FILE = "(file)"


def _bounds(rule: Rule) -> tuple[int | None, int | None]:
    return rule.params.get("min"), rule.params.get("max")


def _bound_text(low: int | None, high: int | None, distinct: bool = False) -> str:
    """The bounds in words: "exactly 1 card", "at least 40 cards", "exactly 5 different cards"."""
    if low is not None and high is not None and low == high:
        return (trn("exactly {n} different card", "exactly {n} different cards", low) if distinct else
                trn("exactly {n} card", "exactly {n} cards", low))
    if low is not None and high is not None:
        return (trn("{low} to {n} different card", "{low} to {n} different cards", high, low=number(low))
                if distinct else trn("{low} to {n} card", "{low} to {n} cards", high, low=number(low)))
    if low is not None:
        return (trn("at least {n} different card", "at least {n} different cards", low) if distinct else
                trn("at least {n} card", "at least {n} cards", low))
    return (trn("at most {n} different card", "at most {n} different cards", high) if distinct else
            trn("at most {n} card", "at most {n} cards", high))


def _outside(value: float, low: float | None, high: float | None) -> bool:
    return (low is not None and value < low) or (high is not None and value > high)


#: Readings of a copy limit besides a column of the deck (see :func:`copy_keys`).
COPY_READINGS = ("name", "card", "printing")
#: Columns that are neither a game attribute nor a printing value: who the card is and how many copies.
_IDENTITY_COLUMNS = ("name", "count", "deck", "base_name")


def game_columns(deck: Deck) -> list[str]:
    """The columns that make a card in play: every column but the name, count, deck part and printing-only ones.

    Two printings of a name that agree on all of them (type, cost, force,
    clan, effects…) are one card for a copy limit read ``by = "card"``; see
    :func:`deckstat.schema.printing_only` for the columns left out.
    """
    return [c for c in deck.cards.columns if c not in _IDENTITY_COLUMNS and not printing_only(str(c))]


def _value_key(value: object) -> str:
    """A cell as compared between printings: numbers as written back (``2`` for ``2.0``), text folded, lists sorted."""
    if is_missing(value):
        return ""
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_)):
        return format_number(value)
    return LIST_SEPARATOR.join(sorted(fold(v) for v in str(value).split(LIST_SEPARATOR) if v.strip()))


def copy_name(name: object) -> str:
    """The name a copy limit counts a card under: a look-alike spelling counts as the name it imitates, folded.

    Examples
    --------
    >>> copy_name("Mort-Viv\u0430nt") == copy_name("MORT-VIVANT")  # a Cyrillic a
    True
    """
    return fold(lookalikes(str(name))[0])


def copy_keys(deck: Deck, by: str) -> tuple[list[tuple | None], list[str]]:
    """What a copy limit counts each distinct card (row) of ``deck`` as, and how it names the row.

    Parameters
    ----------
    deck : Deck
    by : str
        ``"name"``: every printing of a name together; ``"card"``: a name and
        its game attributes (:func:`game_columns`; the ``base_name`` stands for
        the name when the deck has one), so printings identical in play are one
        card and printings that differ in play (Wankul's Laink and Terracid
        ``VENDEUR``) are two; ``"printing"``: a name and its printing values
        (:attr:`Deck.printings`), each printing apart; any other value names a
        column whose values are counted.

    Returns
    -------
    keys : list of tuple or None
        One per row; rows with the same key share the limit (``None``: not counted, an empty cell of a column).
    labels : list of str
        The row as a violation names it: its label (``VENDEUR #35``), or its name when counting by name.

    Names are compared without case or accents, and a name mixing scripts
    counts as the name it imitates (:func:`deckstat.lookalikes.lookalikes`).
    """
    names = [copy_name(n) for n in deck.cards["name"]]
    if by == "name":
        return [(n,) for n in names], [str(n) for n in deck.cards["name"]]
    if by == "printing":
        return [(n,) + printing[1:] for n, printing in zip(names, deck.printings)], list(deck.labels)
    if by == "card":
        if "base_name" in deck.cards.columns:
            names = [n if is_missing(base) or not str(base).strip() else copy_name(base)
                     for n, base in zip(names, deck.cards["base_name"])]
        columns = game_columns(deck)
        values = zip(*(deck.cards[c] for c in columns)) if columns else ([()] * len(names))
        return [(n,) + tuple(_value_key(v) for v in row) for n, row in zip(names, values)], list(deck.labels)
    column = canonical_column(by)
    values = list(deck.cards[column])
    return [None if is_missing(v) else (fold(v),) for v in values], [str(v) for v in values]


def _key_name(deck: Deck, keys: list, key: tuple) -> str:
    """The name of the cards counted under ``key``: the first one's, as the name it imitates if it mixes scripts."""
    row = keys.index(key)
    return lookalikes(str(deck.cards["name"].iloc[row]))[0]


def counted_together(deck: Deck, by: str, rows: np.ndarray | None = None) -> list[tuple[list[str], str]]:
    """Cards a copy limit read ``by`` counts as one although the deck writes them apart, and why.

    Parameters
    ----------
    deck : Deck
    by : str
        A reading of :func:`copy_keys`.
    rows : ndarray of bool, optional
        The rows the limit checks (its ``group``); all by default.

    Returns
    -------
    list of (labels, reason)
        For each set of such cards (printings of a name identical in play,
        look-alike spellings of a name): their labels and why they count as one
        (the printing columns they differ in and the columns they agree on; the
        look-alike letters).
    """
    if by not in COPY_READINGS:
        return []
    keys, labels = copy_keys(deck, by)
    together: dict[tuple, list[int]] = {}
    for row, key in enumerate(keys):
        if key is not None and (rows is None or rows[row]):
            together.setdefault(key, []).append(row)
    out = []
    names = list(deck.cards["name"])
    for members in together.values():
        shown = list({fold(labels[r]): labels[r] for r in reversed(members)}.values())[::-1]
        if len(shown) < 2:
            continue
        reasons = []
        letters = list(dict.fromkeys(f.describe() for r in members for f in lookalikes(str(names[r]))[1]))
        if letters:
            reasons.append(tr("a name spelled with look-alike letters ({letters})", letters="; ".join(letters)))
        spellings = list(dict.fromkeys(str(names[r]) for r in members))
        if by == "card" and "base_name" in deck.cards.columns and len({fold(n) for n in spellings}) > 1:
            bases = list(dict.fromkeys(str(deck.cards["base_name"].iloc[r]) for r in members
                                       if not is_missing(deck.cards["base_name"].iloc[r])))
            if bases:
                reasons.append(tr("reprints of {base} (its base_name)", base=tr(" and ").join(bases)))
        if by == "card":
            differing = [c for c in deck.cards.columns if c not in _IDENTITY_COLUMNS and printing_only(str(c))
                         and len({_value_key(deck.cards[c].iloc[r]) for r in members}) > 1]
            if differing:
                reasons.append(tr("printings that differ only in {columns} and agree in play ({compared})",
                                  columns=", ".join(differing),
                                  compared=", ".join(game_columns(deck)) or tr("the deck has no such column")))
        out.append((shown, tr("; ").join(reasons)))
    return out


#: What a check finds: one (subject, found, allowed) per breach, in the words a violation shows.
Breach = tuple[str, str, str]


def _check_size(deck: Deck, rule: Rule) -> list[Breach]:
    """The deck's size, its ``count_as_one`` groups counted together as one card."""
    size = deck.size
    together = rule.params.get("count_as_one", [])
    if together:
        mask = np.zeros(len(deck.cards), dtype=bool)
        for group in together:
            mask |= deck.mask(group)
        grouped = int(deck.counts[mask].sum())
        size = size - grouped + (1 if grouped else 0)
    low, high = _bounds(rule)
    if not _outside(size, low, high):
        return []
    found = trn("{n} card", "{n} cards", size)
    if together:
        found = tr("{cards} ({groups} counted as one)", cards=found, groups=" + ".join(together))
    return [(tr("deck size"), found, _bound_text(low, high))]


def _check_copies(deck: Deck, rule: Rule) -> list[Breach]:
    """Copies of each card as :func:`copy_keys` reads them (``by``), within ``group`` if given."""
    p = rule.params
    rows = deck.mask(p["group"]) if "group" in p else np.ones(len(deck.cards), dtype=bool)
    by = p.get("by", "name")
    if by not in COPY_READINGS and canonical_column(by) not in deck.cards.columns:
        raise DeckstatError(tr("the deck has no {column!r} column, needed by the rule {rule!r}",
                               column=canonical_column(by), rule=localized(rule.text)), source=deck.source)
    keys, shown = copy_keys(deck, by)
    totals: dict[object, int] = {}
    parts: dict[object, dict[str, int]] = {}
    for key, label, count, counted in zip(keys, shown, deck.counts, rows):
        if not counted or key is None:
            continue
        totals[key] = totals.get(key, 0) + int(count)
        # Spellings of one label that differ in case or accents only are one part (Yéti, YETI).
        part = parts.setdefault(key, {})
        spelled = next((known for known in part if fold(known) == fold(label)), label)
        part[spelled] = part.get(spelled, 0) + int(count)
    out = []
    for key, total in totals.items():
        if total <= p["max"]:
            continue
        found = trn("{n} copy", "{n} copies", total)
        if len(parts[key]) > 1:
            # Cards counted together (printings identical in play, look-alike spellings): each named.
            found = tr("{copies} ({parts})", copies=found,
                       parts=", ".join(f"{number(n)} × {label}" for label, n in parts[key].items()))
            subject = _key_name(deck, keys, key)
        else:
            subject = next(iter(parts[key]))
        out.append((subject, found, tr("at most {max}", max=number(p["max"]))))
    return out


def _check_count(deck: Deck, rule: Rule) -> list[Breach]:
    """Cards of ``group``; a group over a column the deck lacks counts none (:func:`notes` says so)."""
    group = rule.params["group"]
    n = 0 if absent_column(deck, group) else deck.count(group)
    low, high = _bounds(rule)
    if not _outside(n, low, high):
        return []
    return [(group, trn("{n} card", "{n} cards", n), _bound_text(low, high))]


def _check_ratio(deck: Deck, rule: Rule) -> list[Breach]:
    """At least one card of ``group`` per ``per`` cards of the deck, rounded up."""
    group, per = rule.params["group"], rule.params["per"]
    n = deck.count(group)
    needed = math.ceil(deck.size / per)
    if n >= needed:
        return []
    return [(group, tr("{found} in {cards}", found=number(n), cards=trn("{n} card", "{n} cards", deck.size)),
             tr("at least {needed} (1 per {cards})", needed=number(needed), cards=trn("{n} card", "{n} cards", per)))]


def _check_distinct(deck: Deck, rule: Rule) -> list[Breach]:
    """Different names in ``group``, compared without case or accents."""
    group = rule.params["group"]
    names = {fold(name) for name in deck.cards["name"][deck.mask(group)]}
    low, high = _bounds(rule)
    if not _outside(len(names), low, high):
        return []
    return [(group, trn("{n} different", "{n} different", len(names)), _bound_text(low, high, distinct=True))]


def _check_fraction(deck: Deck, rule: Rule) -> list[Breach]:
    """Cards of ``group`` at most ``max`` times the cards of ``of``."""
    p = rule.params
    n, of = deck.count(p["group"]), deck.count(p["of"])
    if n <= p["max"] * of:
        return []
    return [(p["group"], tr("{found} of {total} {group}", found=number(n), total=number(of), group=p["of"]),
             tr("at most {most} ({share} of {group})", most=number(math.floor(p["max"] * of)),
                share=number(p["max"]), group=p["of"]))]


def _check_allowed(deck: Deck, rule: Rule) -> list[Breach]:
    """Every card in one of ``groups``: each other card, with its type."""
    groups = rule.params["groups"]
    mask = np.zeros(len(deck.cards), dtype=bool)
    for group in groups:
        mask |= deck.mask(group)
    return [(name, tr("type {type!r}", type=kind) if not is_missing(kind) else tr("no type"), tr(" or ").join(groups))
            for name, kind in zip(deck.cards["name"][~mask], deck.cards["type"][~mask])]


def _check_same_value(deck: Deck, rule: Rule) -> list[Breach]:
    """One value of ``attribute`` across the cards of ``group`` (an empty cell is a value of its own)."""
    p = rule.params
    column = canonical_column(p["attribute"])
    rows = deck.mask(p["group"])
    if not rows.any():
        return []
    if column not in deck.cards.columns:
        raise DeckstatError(tr("the deck has no {column!r} column, needed by the rule {rule!r}",
                               column=p["attribute"], rule=localized(rule.text)), source=deck.source)
    tally: dict[str, int] = {}
    label: dict[str, str] = {}
    for value, count in zip(deck.cards[column][rows], deck.counts[rows]):
        key = "" if is_missing(value) else fold(value)
        tally[key] = tally.get(key, 0) + int(count)
        label.setdefault(key, tr("(none)") if not key else str(value))
    if len(tally) <= 1:
        return []
    found = ", ".join(f"{label[k]} ({trn('{n} card', '{n} cards', n)})" for k, n in tally.items())
    return [(p["group"], found, tr("one {attribute}", attribute=p["attribute"]))]


#: The check of each rule kind (``deckstat.games.profiles.RULE_KINDS``).
CHECKS: dict[str, Callable[[Deck, Rule], list[Breach]]] = {
    "size": _check_size, "copies": _check_copies, "count": _check_count, "ratio": _check_ratio,
    "distinct": _check_distinct, "fraction": _check_fraction, "allowed": _check_allowed,
    "same_value": _check_same_value,
}


def _check_rule(deck: Deck, rule: Rule) -> list[dict]:
    """The records of every breach of ``rule`` in ``deck``, by the check of its kind."""
    check = CHECKS.get(rule.kind)
    if check is None:
        return []
    return [{"rule": localized(rule.text), "level": rule.params.get("level", "error"), "subject": subject,
             "found": found, "allowed": allowed} for subject, found, allowed in check(deck, rule)]


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
        names = "; ".join(tr("{part}: {aliases}", part=localized(p.name), aliases=", ".join(p.aliases))
                          for p in profile.parts)
        raise DeckstatError(tr("{game} decks have {n} parts; add a 'deck' column naming each card's part ({names})",
                               game=profile.name, n=number(len(profile.parts)), names=names), source=deck.source)
    known = {fold(a) for part in profile.parts for a in part.aliases}
    stray = []
    for name, value in zip(deck.cards["name"], deck.cards["deck"]):
        missing = is_missing(value) or not str(value).strip()
        if missing or fold(value) not in known:
            found = tr("no deck") if missing else tr("deck {value!r}", value=str(value))
            stray.append({"rule": tr("every card belongs to one of the decks"), "level": "error",
                          "subject": name, "found": found,
                          "allowed": tr(" or ").join(p.aliases[0] for p in profile.parts)})
    # Stray cards belong to no part: they are reported once, under NO_PART, and counted in no deck.
    out = [(part, deck.part(part.aliases, label=part.name).with_synonyms(deck.synonyms), [])
           for part in profile.parts]
    if stray:
        out.append((DeckPart("", NO_PART, (), ()), deck, stray))
    return out


def _copies_counted_by(rule: Rule, copies_by: str) -> Rule:
    """A copy limit read ``by`` name, card or printing, whatever its profile says; its text says so."""
    if rule.params.get("by", "name") == copies_by:
        return rule
    limit, by = rule.params["max"], rule.params.get("by", "name")
    if copies_by == "name":
        text = trn("at most {n} copy of a card, counting every printing of a name together (the profile counts "
                   "by {by})", "at most {n} copies of a card, counting every printing of a name together (the "
                   "profile counts by {by})", limit, by=name_of(COPIES_BY_NAMES, by))
    elif copies_by == "card":
        text = trn("at most {n} copy of a card, counting printings identical in play as one card and printings "
                   "that differ in play apart (the profile counts by {by})",
                   "at most {n} copies of a card, counting printings identical in play as one card and printings "
                   "that differ in play apart (the profile counts by {by})", limit, by=name_of(COPIES_BY_NAMES, by))
    else:
        text = trn("at most {n} copy of a card, counting each printing apart (the profile counts by {by})",
                   "at most {n} copies of a card, counting each printing apart (the profile counts by {by})",
                   limit, by=name_of(COPIES_BY_NAMES, by))
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
                raise DeckstatError(tr("cannot check the rule {rule!r}: {error}", rule=localized(rule.text),
                                       error=exc), source=part_deck.source) from None
        for row in found:
            row["part"] = str(part.name)
            row["message"] = tr("{subject}: {found}, allowed {allowed} ({rule})", **row)
            rows.append(row)
    return rows


def notes(deck: Deck, profile: Profile, *, copies_by: str | None = None) -> list[str]:
    """What validating ``deck`` read in a way the user should know: cards set apart, absent columns, merged cards.

    ``copies_by`` reads every copy limit that way, as in :func:`violations`.

    Returns
    -------
    list of str
        One sentence per note, e.g. that a deck without a ``shiny`` column is
        read as holding no shiny card, or that two printings of a name
        identical in play count as one card.
    """
    out = []
    outside = profile.outside_mask(deck)
    if outside.any():
        n = int(deck.counts[outside].sum())
        names = ", ".join(dict.fromkeys(str(name) for name in deck.cards["name"][outside]))
        groups = tr(" or ").join(group_words(g) for g in profile.outside_decks)
        out.append(trn("{n} card of {groups} ({names}) set apart: it counts in no deck and is never drawn",
                       "{n} cards of {groups} ({names}) set apart: they count in no deck and are never drawn", n,
                       groups=groups, names=names))
    counted = profile.counted_deck(deck)
    for part, part_deck, _ in _split_parts(counted, profile):
        for rule in part.rules:
            if rule.kind == "count" and (column := absent_column(part_deck, rule.params["group"])):
                fields = {"column": column, "group": rule.params["group"], "rule": localized(rule.text)}
                if len(profile.parts) > 1:
                    out.append(tr("the {part} deck has no {column!r} column: no card is counted as {group} for the "
                                  "rule {rule!r}; add the column to check it", part=localized(part.name), **fields))
                else:
                    out.append(tr("the deck has no {column!r} column: no card is counted as {group} for the rule "
                                  "{rule!r}; add the column to check it", **fields))
            if rule.kind == "copies":
                if copies_by is not None:
                    rule = _copies_counted_by(rule, copies_by)
                group = part_deck.mask(rule.params["group"]) if "group" in rule.params else None
                for labels, reason in counted_together(part_deck, rule.params.get("by", "name"), group):
                    out.append(tr("{cards} count as one card for the rule {rule!r}: {reason}",
                                  cards=tr(" and ").join(labels), rule=localized(rule.text), reason=reason))
    return out


def _looks_like_a_deck(types: list[object]) -> bool:
    """Whether the cards under one value of a deck-name column look like a deck, not a heading such as [Terrains].

    Decklist headings group cards of one type; a deck mixes types. Without types, every value is a deck.
    """
    return len({fold(t) for t in types if not is_missing(t)}) >= 2


def _deck_name_columns(deck: Deck, profile: Profile) -> list[str]:
    """Columns whose header names a deck (``deck``, ``deck_name``, ``paquet``…), except the part column."""
    # Licum's deck column names each card's part.
    return [c for c in deck_name_columns(deck) if not (c == "deck" and len(profile.parts) > 1)]


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
    return [(tr(" or ").join(names), set(keys)) for keys, names in kept.items()]


def file_warnings(deck: Deck, profile: Profile) -> list[dict]:
    """Signs that ``deck`` is not one deck of ``profile``'s game, as warning records like :func:`violations`.

    Four signs, each a warning (the deck is checked anyway):

    - a column whose header names a deck (``deck_name``, ``deck``, ``paquet``…)
      holds several decks: two or more of its values each gather cards of
      several types (a decklist's section headings, such as ``[Terrains]``,
      gather one type and are not decks);
    - card types that are not the game's but are those of another shipped
      game (``Terrain`` and ``Personnage``, Wankul's, in a Duel Masters deck);
    - columns that belong to another shipped game's card data (its
      ``signature_columns``: Wankul's ``force``, ``effigy``…);
    - a card name that mixes scripts, a Cyrillic ``а`` in a Latin name
      (:func:`deckstat.text.lookalikes`): copy limits count it as the name it
      imitates.

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
            listed = ", ".join(f"{label!r} ({trn('{n} card', '{n} cards', total)})" for label, total in decks)
            rows.append({"rule": tr("one deck per file: the cards of every deck in it are counted together"),
                         "subject": tr("column {column!r}", column=column),
                         "found": trn("{n} deck: {decks}", "{n} decks: {decks}", len(decks), decks=listed),
                         "allowed": tr("one deck: pick one with --deck-name {example!r} (deck_name= in Python and "
                                       "batch specs), or keep the rows of one {column} value in a file of their own",
                                       column=column, example=decks[0][0])})
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
        shown = ", ".join(f"{type_counts[k][0]} ({trn('{n} card', '{n} cards', type_counts[k][1])})"
                          for k in type_counts if k in keys)
        allowed = (tr("{game} types ({types})", game=profile.name, types=", ".join(profile.card_types))
                   if profile.card_types else tr("{game} types", game=profile.name))
        rows.append({"rule": tr("the file holds {owners} cards? check the game", owners=owners),
                     "subject": tr("{owners} card types", owners=owners), "found": shown, "allowed": allowed})
    own_columns = set(profile.signature_columns)
    columns = {canonical_column(str(c)): str(c) for c in deck.cards.columns}
    matched = {p.name: {c for c in columns if c not in own_columns and c in p.signature_columns} for p in others}
    for owners, keys in _best_matches(matched):
        rows.append({"rule": tr("the file holds {owners} cards? check the game", owners=owners),
                     "subject": tr("{owners} columns", owners=owners),
                     "found": ", ".join(columns[c] for c in columns if c in keys),
                     "allowed": tr("{game} card data", game=profile.name)})
    for name in dict.fromkeys(str(n) for n in deck.cards["name"]):
        imitated, letters = lookalikes(name)
        if letters:
            rows.append({"rule": tr("a name that mixes scripts counts as the name it imitates, {name!r}, for copy "
                                    "limits", name=imitated),
                         "subject": name, "found": tr("; ").join(letter.describe() for letter in letters),
                         "allowed": tr("the letters of one script")})
    part = str(profile.parts[0].name) if len(profile.parts) == 1 else WHOLE_FILE
    for row in rows:
        row.update(level="warning", part=part, message=tr("{subject}: {found}, expected {allowed} ({rule})", **row))
    return rows
