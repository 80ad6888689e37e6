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
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from deckstat.deck import Deck, is_missing
from deckstat.errors import DeckstatError, ExpressionError
from deckstat.games.profiles import DeckPart, Profile, Rule
from deckstat.schema import canonical_column
from deckstat.text import fold

NO_PART = "(no deck)"
#: Readings of a copy limit: copies of a name, or of each printing (name and printing columns).
COPIES_BY = ("name", "printing")


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
        n = deck.count(p["group"])
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
    out = [(part, deck.part(part.aliases, label=part.name), []) for part in profile.parts]
    if stray:
        out.append((DeckPart("", NO_PART, (), ()), deck, stray))
    return out


def _copies_counted_by(rule: Rule, copies_by: str) -> Rule:
    """A copy limit read ``by`` name or printing, whatever its profile says; its text says so."""
    if rule.params.get("by", "name") == copies_by:
        return rule
    return replace(rule, params={**rule.params, "by": copies_by}, text=f"{rule.text}; counted by {copies_by} here")


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
        column a rule needs (``shiny``, ``team``…).
    """
    rows = []
    for part, part_deck, extra in _split_parts(deck, profile):
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
