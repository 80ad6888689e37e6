"""Game profiles: the rules that matter to deck statistics, as data.

A profile is a TOML file (see ``deckstat/games/*.toml`` and
``docs/profiles.md``). The shipped games are looked up by id or alias; any
other value of ``game`` that names an existing ``.toml`` file is loaded as a
user profile, with the same checks.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from deckstat.errors import DeckstatError
from deckstat.events import NameGroup, parse_event, parse_group
from deckstat.schema import canonical_column
from deckstat.synonyms import NONE, Synonyms
from deckstat.terms import (
    DECKOUT_RULES,
    DRAW_STEPS,
    MULLIGAN_RULES,
    MULLIGAN_WORDS,
    REDEAL_LIMIT,
    SEATS,
    TURN_ORDERS,
)
from deckstat.text import fold, fold_key, suggest

RULE_KINDS = ("size", "copies", "count", "ratio", "distinct", "fraction", "allowed", "same_value")
RULE_LEVELS = ("error", "warning")
# Parameters of each rule kind: (key, type, required). Groups are checked separately.
_RULE_PARAMS: dict[str, tuple[tuple[str, type | tuple, bool], ...]] = {
    "size": (("min", int, False), ("max", int, False), ("count_as_one", list, False)),
    "copies": (("max", int, True), ("by", str, False), ("group", str, False)),
    "count": (("group", str, True), ("min", int, False), ("max", int, False)),
    "ratio": (("group", str, True), ("per", int, True)),
    "distinct": (("group", str, True), ("min", int, False), ("max", int, False)),
    "fraction": (("group", str, True), ("of", str, True), ("max", (int, float), True)),
    "allowed": (("groups", list, True),),
    "same_value": (("group", str, True), ("attribute", str, True)),
}


@dataclass(frozen=True)
class Rule:
    """One construction rule of a deck (see :mod:`deckstat.rules` for the kinds)."""

    kind: str
    text: str
    params: dict
    source: str = ""
    id: str = ""


@dataclass(frozen=True)
class DeckPart:
    """A deck a player builds: most games have one (``main``), Licum has two."""

    id: str
    name: str
    aliases: tuple[str, ...]
    rules: tuple[Rule, ...]


@dataclass(frozen=True)
class PlaySettings:
    """A game's goldfish play model, from the profile's ``[play_model]`` table.

    Attributes
    ----------
    kind : str
        Which model (``hand``, ``mana``, ``discard``, ``condition``, ``bench``, ``logistics``; see
        :mod:`deckstat.play`).
    policy : str
        Default policy ("" for the model's own default).
    assumptions, sources : tuple of str
        What the model assumes, and the rules-text quotes it rests on (shown by ``deckstat games show``).
    settings : dict
        The table's other keys, read by the model (e.g. ``terrain_turns``).
    """

    kind: str
    policy: str = ""
    assumptions: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    settings: dict = field(default_factory=dict)


#: The play model of a profile without a ``[play_model]`` table: a card is playable once in hand.
HAND_PLAY = PlaySettings(kind="hand", assumptions=(
    "No play model in this profile: a card counts as playable as soon as it is in hand (no cost, no condition).",))


@dataclass(frozen=True)
class Profile:
    """A game's rules as deckstat uses them.

    Attributes
    ----------
    id, name : str
        Short id (``wankul``) and display name.
    hand_size : int
        Cards in the opening hand.
    set_aside : int
        Cards dealt from the top before the hand (Duel Masters shields).
    mulligan : str
        A key of :data:`MULLIGAN_WORDS`: ``"none"``, ``"bottom"`` (Wankul: the
        hand goes under the deck, a new one is drawn), ``"london"``,
        ``"vancouver"`` or ``"free"``.
    mulligan_limit : int
        How many mulligans are allowed.
    keep : str or None
        Default keep rule, an event on the opening hand.
    first_turn_draw : dict
        Cards drawn on turn 1, by seat (``first``, ``second``).
    draws_per_turn : int
        Cards drawn on each later turn.
    deckout : str
        Key of :data:`DECKOUT_RULES`.
    draw_part : str
        Id of the deck part that is shuffled and drawn from.
    turn_order : {"alternating", "simultaneous"}
        Whether players take turns one after the other or play each turn together.
    draw_step : {"start", "end"}
        Whether the turn's draw comes at its start or its end (Licum).
    drought_group : str or None
        Wankul's drought rule: when no card of this group is in play and
        neither player holds one, both draw one card at a time until one
        appears (a two-player rule, used by the deck-out model).
    drought_scored_after : int or None
        With the drought rule: turns (of either player) a card of the drought
        group stays in play before it is scored and discarded; ``None``: it
        stays until the end.
    outside_decks : tuple of str
        Groups of cards a player brings to the game that belong to no deck
        (Licum's Mise au Jeu cards): they never count in a deck's size and are
        never shuffled into the drawn deck.
    signature_columns : tuple of str
        Canonical card-data columns that say a file holds this game's cards
        (Wankul ``force``); another game's validation warns about them.
    same_size : bool
        Both players' decks must have the same number of cards (Wankul).
    synonyms : Synonyms
        Values that mean the same in card files (French ``Feu``, English
        ``Fire``), from the ``[synonyms]`` table; groups match them all.
    play_model : PlaySettings
        The goldfish play model for playability curves (``[play_model]``).
    """

    id: str
    name: str
    aliases: tuple[str, ...]
    description: str
    card_types: tuple[str, ...]
    outside_decks: tuple[str, ...]
    signature_columns: tuple[str, ...]
    resource_group: str | None
    parts: tuple[DeckPart, ...]
    hand_size: int
    set_aside: int
    set_aside_name: str
    mulligan: str
    mulligan_limit: int
    keep: str | None
    first_turn_draw: dict
    draws_per_turn: int
    deckout: str
    draw_part: str
    drought_group: str | None
    drought_scored_after: int | None
    same_size: bool
    turn_order: str
    draw_step: str
    special_rules: tuple[str, ...]
    assumptions: tuple[str, ...]
    sources: tuple[str, ...]
    path: str = ""
    extra: dict = field(default_factory=dict, repr=False)
    synonyms: Synonyms = field(default=NONE, repr=False)
    play_model: PlaySettings = field(default=HAND_PLAY, repr=False)

    def draws_by_turn(self, turn: int, seat: str) -> int:
        """Cards drawn after the opening hand, up to and including ``turn``, for ``seat``.

        Parameters
        ----------
        turn : int
            Turn number; turn 0 is the kept opening hand.
        seat : str
            ``"first"`` or ``"second"``.

        Returns
        -------
        int
            ``first_turn_draw[seat] + (turn - 1) * draws_per_turn`` for
            ``turn >= 1``, 0 for turn 0.
        """
        if seat not in SEATS:
            raise DeckstatError(f"seat must be one of {', '.join(SEATS)}, got {seat!r}")
        if turn <= 0:
            return 0
        return self.first_turn_draw[seat] + (turn - 1) * self.draws_per_turn

    def library_size(self, deck_size: int) -> int:
        """Cards left to draw after the set-aside cards and the opening hand."""
        return deck_size - self.set_aside - self.hand_size

    def last_turn(self, deck_size: int, seat: str) -> int:
        """The last turn whose draws a drawn deck of ``deck_size`` cards can supply for ``seat``."""
        library = self.library_size(deck_size)
        first = self.first_turn_draw[seat]
        if library < first:
            return 0
        if self.draws_per_turn == 0:
            return 1
        return 1 + (library - first) // self.draws_per_turn

    def outside_mask(self, deck) -> np.ndarray:
        """Which distinct cards of ``deck`` belong to no deck (:attr:`outside_decks`)."""
        mask = np.zeros(len(deck.cards), dtype=bool)
        for group in self.outside_decks:
            mask |= deck.mask(group)
        return mask

    def counted_deck(self, deck):
        """``deck`` without the cards that belong to no deck (Licum's Mise au Jeu cards)."""
        mask = self.outside_mask(deck)
        return deck.with_counts(np.where(mask, 0, deck.counts)) if mask.any() else deck

    def drawn_deck(self, deck):
        """The cards that are shuffled and drawn from: the deck itself, or Licum's game deck.

        Cards of :attr:`outside_decks` are never among them, whatever their ``deck`` value.
        """
        deck = self.counted_deck(deck)
        if len(self.parts) == 1:
            return deck
        part = self.part()
        return deck.part(part.aliases, label=part.name)

    def part(self, part_id: str | None = None) -> DeckPart:
        """Return the deck part ``part_id`` (default: the part drawn from)."""
        wanted = part_id or self.draw_part
        for part in self.parts:
            if part.id == wanted:
                return part
        raise DeckstatError(f"{self.name} has no deck part {wanted!r}; it has "
                            f"{', '.join(p.id for p in self.parts)}")

    def describe(self) -> list[tuple[str, str]]:
        """Return the profile in words, as (field, text) pairs for ``deckstat games show``."""
        rows = [("game", f"{self.name} ({self.id})"), ("about", self.description)]
        for part in self.parts:
            label = "deck" if len(self.parts) == 1 else f"{part.name} deck"
            for rule in part.rules:
                rows.append((label, rule.text))
        rows.append(("opening hand", f"{self.hand_size} cards"))
        if self.set_aside:
            rows.append(("set aside", f"{self.set_aside} cards from the top before the hand "
                                      f"({self.set_aside_name})"))
        if self.mulligan == "none":
            rows.append(("mulligan", "none"))
        else:
            times = "once" if self.mulligan_limit == 1 else f"up to {self.mulligan_limit} times"
            if self.mulligan == "pokemon":
                times = f"until the keep rule holds (after {self.mulligan_limit} mulligans the hand is kept)"
            rows.append(("mulligan", f"{MULLIGAN_WORDS[self.mulligan]}, {times}; "
                                     f"default keep rule: {self.keep}"))
        draws = ", ".join(f"{seat} player {self.first_turn_draw[seat]}" for seat in SEATS)
        rows.append(("turn 1 draw", draws))
        rows.append(("later turns", f"{self.draws_per_turn} card(s) per turn"))
        rows.append(("deck-out", DECKOUT_RULES[self.deckout]))
        if self.same_size:
            rows.append(("both decks", "the two players' decks have the same number of cards"))
        if self.outside_decks:
            rows.append(("outside the decks", f"{', '.join(group_words(g) for g in self.outside_decks)}: never "
                                              "counted in a deck, never shuffled in or drawn"))
        if self.drought_group:
            stays = ("stays in play until the end" if self.drought_scored_after is None else
                     f"is scored and discarded {self.drought_scored_after} turns after it is played")
            rows.append(("drought rule", f"a {self.drought_group} card in play {stays} (deck-out model default)"))
        if self.resource_group:
            rows.append(("resource group", self.resource_group))
        for text in self.special_rules:
            rows.append(("special rule", text))
        play = self.play_model
        rows.append(("play model", play.kind + (f", default policy {play.policy}" if play.policy else "")))
        for text in play.assumptions:
            rows.append(("play assumption", text))
        for text in play.sources:
            rows.append(("play rules text", text))
        for text in self.assumptions:
            rows.append(("assumption", text))
        for text in self.sources:
            rows.append(("rules text", text))
        for column, text in self.synonyms.describe():
            rows.append(("same values", f"{column}: {text}"))
        if self.path:
            rows.append(("profile file", self.path))
        return rows


def group_words(text: str) -> str:
    """A group as a player reads it: a name without its quotes (``Mise au Jeu``), an attribute test as written."""
    group = parse_group(text)
    return group.text if isinstance(group, NameGroup) else group.label


_TYPE_NAMES = {int: "an integer", float: "a number", str: "a string", list: "a list", dict: "a table"}


def _shown(value: object) -> str:
    """A wrong value, shortly: tables and lists are named, not printed."""
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _require(data: dict, key: str, kind: type | tuple, where: str, default: object = ...):
    if key not in data:
        if default is ...:
            raise DeckstatError(f"missing {key!r}", source=where)
        return default
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        names = " or ".join(_TYPE_NAMES.get(k, k.__name__) for k in kinds)
        raise DeckstatError(f"{key!r} must be {names}, got {_shown(value)}", source=where)
    return value


def _require_strings(data: dict, key: str, where: str, default: object = ...):
    """A list of strings, e.g. ``aliases`` or ``sources``."""
    value = _require(data, key, list, where, default)
    if key in data:
        for item in value:
            if not isinstance(item, str):
                raise DeckstatError(f"{key!r} must be a list of strings, got the item {_shown(item)}", source=where)
    return value


def _require_count(data: dict, key: str, where: str, default: object = ..., *, least: int = 0):
    """An integer of at least ``least`` (hand sizes, draws, rule bounds)."""
    value = _require(data, key, int, where, default)
    if key in data and value < least:
        raise DeckstatError(f"{key!r} must be at least {least}, got {value!r}", source=where)
    return value


def _parse_rule(data: object, where: str) -> Rule:
    if not isinstance(data, dict):
        raise DeckstatError(f"a rule must be a table [[decks.rules]], got {_shown(data)}", source=where)
    kind = _require(data, "kind", str, where)
    if kind not in RULE_KINDS:
        raise DeckstatError(f"unknown rule kind {kind!r}; expected one of {', '.join(RULE_KINDS)}"
                            f"{suggest(kind, RULE_KINDS)}", source=where)
    text = _require(data, "text", str, where)
    source = _require(data, "source", str, where, "")
    rule_id = _require(data, "id", str, where, kind)
    level = _require(data, "level", str, where, "error")
    if level not in RULE_LEVELS:
        raise DeckstatError(f"'level' must be one of {', '.join(RULE_LEVELS)}, got {level!r}"
                            f"{suggest(level, RULE_LEVELS)}", source=where)
    for key, key_type, required in _RULE_PARAMS[kind]:
        default = ... if required else None
        if key_type is int:
            _require_count(data, key, where, default, least=1 if key == "per" else 0)
        elif key_type is list:
            _require_strings(data, key, where, default)
        else:
            _require(data, key, key_type, where, default)
    if kind in ("count", "distinct") and "min" not in data and "max" not in data:
        raise DeckstatError(f"a {kind!r} rule needs 'min' or 'max' (or both)", source=where)
    if data.get("min") is not None and data.get("max") is not None and data["min"] > data["max"]:
        raise DeckstatError(f"'min' ({data['min']}) is larger than 'max' ({data['max']})", source=where)
    if kind == "fraction" and data["max"] < 0:
        raise DeckstatError(f"'max' must be at least 0, got {data['max']!r}", source=where)
    if kind == "allowed" and not data["groups"]:
        raise DeckstatError("'groups' lists no group", source=where)
    params = {k: v for k, v in data.items() if k not in ("kind", "text", "source", "id")}
    params["level"] = level
    for key in ("group", "of"):
        if key in params:
            parse_group(params[key], what=f"{where} {key}")
    for key in ("groups", "count_as_one"):
        for group in params.get(key, []):
            parse_group(group, what=f"{where} {key}")
    return Rule(kind, text, params, source, rule_id)


def _parse_parts(parts_data: list, where: str) -> list[DeckPart]:
    """The decks a player builds (``[[decks]]``), each with its rules and the ``deck`` values that name it."""
    if not parts_data:
        raise DeckstatError("'decks' lists no deck", source=where)
    parts: list[DeckPart] = []
    seen_aliases: dict[str, str] = {}
    for i, part in enumerate(parts_data):
        part_where = f"{where} [[decks]] #{i + 1}"
        if not isinstance(part, dict):
            raise DeckstatError(f"each deck must be a table [[decks]], got {_shown(part)}", source=part_where)
        rules = tuple(_parse_rule(r, f"{part_where} rule #{j + 1}")
                      for j, r in enumerate(_require(part, "rules", list, part_where, [])))
        part_id = _require(part, "id", str, part_where, "main")
        if any(p.id == part_id for p in parts):
            raise DeckstatError(f"two decks have the id {part_id!r}; give each deck its own 'id'",
                                source=part_where)
        aliases = tuple(_require_strings(part, "aliases", part_where, [part_id]))
        if not aliases:
            raise DeckstatError("'aliases' is empty; list the values of the 'deck' column that mean this deck",
                                source=part_where)
        for alias in aliases:
            if seen_aliases.get(fold(alias), part_id) != part_id:
                raise DeckstatError(f"the alias {alias!r} names both the {seen_aliases[fold(alias)]!r} and the "
                                    f"{part_id!r} deck", source=part_where)
            seen_aliases[fold(alias)] = part_id
        parts.append(DeckPart(part_id, _require(part, "name", str, part_where, part_id), aliases, rules))
    return parts


def _parse_synonyms(data: object, where: str) -> Synonyms:
    """The ``[synonyms]`` table: per column, a list of sets of values that mean the same.

    For example ``civilization = [["Feu", "Fire"], ["Eau", "Water"]]``. Column
    names are read as card-file headers are (``civilisation`` is
    ``civilization``); values compare without case or accents.
    """
    if data is None:
        return NONE
    if not isinstance(data, dict):
        raise DeckstatError(f"'synonyms' must be a table [synonyms], got {_shown(data)}", source=where)
    sets: list[tuple[str, tuple[str, ...]]] = []
    columns: dict[str, str] = {}
    for key, value in data.items():
        swhere = f"{where} synonyms.{key}"
        column = canonical_column(key)
        if column in columns:
            raise DeckstatError(f"{key!r} and {columns[column]!r} name the same column {column!r}; merge them",
                                source=f"{where} [synonyms]")
        columns[column] = key
        if not isinstance(value, list):
            raise DeckstatError(f"expected a list of sets of values such as [[\"Feu\", \"Fire\"]], got "
                                f"{_shown(value)}", source=swhere)
        seen: dict[str, str] = {}
        for spellings in value:
            if not isinstance(spellings, list) or not all(isinstance(v, str) for v in spellings):
                raise DeckstatError(f"each set must be a list of strings such as [\"Feu\", \"Fire\"], got "
                                    f"{_shown(spellings)}", source=swhere)
            for spelling in spellings:
                if not spelling.strip() or ";" in spelling:
                    raise DeckstatError(f"{spelling!r} is not a value: expected a non-empty text without ';'",
                                        source=swhere)
            folded = {fold(v) for v in spellings}
            if len(folded) < 2:
                raise DeckstatError(f"the set {spellings!r} names a single value (case and accents are ignored "
                                    "anyway); a set needs two different spellings or more", source=swhere)
            clash = sorted(folded & seen.keys())
            if clash:
                raise DeckstatError(f"{seen[clash[0]]!r} is in two sets; a value can mean only one thing",
                                    source=swhere)
            for spelling in spellings:
                seen.setdefault(fold(spelling), spelling)
            sets.append((column, tuple(spellings)))
    return Synonyms(tuple(sets))


def _parse_play_model(data: object, where: str) -> PlaySettings:
    if data is None:
        return HAND_PLAY
    mwhere = f"{where} [play_model]"
    if not isinstance(data, dict):
        raise DeckstatError("'play_model' must be a table", source=where)
    kind = _require(data, "kind", str, mwhere)
    rest = {k: v for k, v in data.items() if k not in ("kind", "policy", "assumptions", "sources")}
    return PlaySettings(kind=kind, policy=_require(data, "policy", str, mwhere, ""),
                        assumptions=tuple(_require_strings(data, "assumptions", mwhere, [])),
                        sources=tuple(_require_strings(data, "sources", mwhere, [])), settings=rest)


def parse_profile(data: dict, *, where: str) -> Profile:
    """Build a :class:`Profile` from the mapping read from a profile file.

    Raises
    ------
    DeckstatError
        Naming the file and the key that is missing or wrong.
    """
    play = _require(data, "play", dict, where)
    pwhere = f"{where} [play]"
    parts = _parse_parts(_require(data, "decks", list, where), where)
    hand_size = _require_count(play, "hand_size", pwhere)
    set_aside = _require_count(play, "set_aside", pwhere, 0)
    mulligan = _require(play, "mulligan", str, pwhere, "none")
    if mulligan not in MULLIGAN_RULES:
        raise DeckstatError(f"'mulligan' must be one of {', '.join(MULLIGAN_RULES)}, got {mulligan!r}"
                            f"{suggest(mulligan, MULLIGAN_RULES)}", source=pwhere)
    mulligan_limit = _require_count(play, "mulligan_limit", pwhere, 0 if mulligan == "none" else
                                    REDEAL_LIMIT if mulligan == "pokemon" else 1)
    if mulligan != "none" and mulligan_limit < 1:
        raise DeckstatError(f"'mulligan_limit' must be at least 1 with mulligan = {mulligan!r}, got "
                            f"{mulligan_limit}", source=pwhere)
    if mulligan == "hearthstone" and mulligan_limit != 1:
        raise DeckstatError(f"'mulligan_limit' must be 1 with mulligan = \"hearthstone\" (one round), got "
                            f"{mulligan_limit}", source=pwhere)
    keep = _require(play, "keep", str, pwhere, None)
    if keep is not None:
        parse_event(keep, what=f"{pwhere} keep")
    if mulligan != "none" and keep is None:
        raise DeckstatError("a profile with a mulligan needs a default 'keep' rule", source=pwhere)
    first = _require(play, "first_turn_draw", dict, pwhere)
    for seat in SEATS:
        _require_count(first, seat, f"{pwhere} first_turn_draw")
    draws_per_turn = _require_count(play, "draws_per_turn", pwhere, 1)
    deckout = _require(play, "deckout", str, pwhere, "lose_on_failed_draw")
    if deckout not in DECKOUT_RULES:
        raise DeckstatError(f"'deckout' must be one of {', '.join(DECKOUT_RULES)}, got {deckout!r}"
                            f"{suggest(deckout, list(DECKOUT_RULES))}", source=pwhere)
    resource = _require(data, "resource_group", str, where, None)
    if resource:
        parse_group(resource, what=f"{where} resource_group")
    turn_order = _require(play, "turns", str, pwhere, "alternating")
    if turn_order not in TURN_ORDERS:
        raise DeckstatError(f"'turns' must be one of {', '.join(TURN_ORDERS)}, got {turn_order!r}", source=pwhere)
    draw_step = _require(play, "draw_step", str, pwhere, "start")
    if draw_step not in DRAW_STEPS:
        raise DeckstatError(f"'draw_step' must be one of {', '.join(DRAW_STEPS)}, got {draw_step!r}", source=pwhere)
    drought = _require(play, "drought", str, pwhere, None)
    if drought:
        parse_group(drought, what=f"{pwhere} drought")
    scored_after = _require_count(play, "drought_scored_after", pwhere, None, least=1)
    if scored_after is not None and not drought:
        raise DeckstatError("'drought_scored_after' needs a 'drought' group", source=pwhere)
    same_size = _require(play, "same_size", bool, pwhere, False)
    outside = _require_strings(data, "outside_decks", where, [])
    for group in outside:
        parse_group(group, what=f"{where} outside_decks")
    draw_part = _require(play, "draw_deck", str, pwhere, parts[0].id)
    if draw_part not in {p.id for p in parts}:
        raise DeckstatError(f"'draw_deck' {draw_part!r} is not one of the decks "
                            f"({', '.join(p.id for p in parts)})", source=pwhere)
    return Profile(
        id=_require(data, "id", str, where),
        name=_require(data, "name", str, where),
        aliases=tuple(_require_strings(data, "aliases", where, [])),
        description=_require(data, "description", str, where, ""),
        card_types=tuple(_require_strings(data, "card_types", where, [])),
        outside_decks=tuple(outside),
        signature_columns=tuple(dict.fromkeys(canonical_column(c) for c in
                                              _require_strings(data, "signature_columns", where, []))),
        resource_group=resource,
        parts=tuple(parts),
        hand_size=hand_size,
        set_aside=set_aside,
        set_aside_name=_require(play, "set_aside_name", str, pwhere, "set aside"),
        mulligan=mulligan,
        mulligan_limit=mulligan_limit,
        keep=keep,
        first_turn_draw={seat: first[seat] for seat in SEATS},
        draws_per_turn=draws_per_turn,
        deckout=deckout,
        draw_part=draw_part,
        drought_group=drought,
        drought_scored_after=scored_after,
        same_size=same_size,
        turn_order=turn_order,
        draw_step=draw_step,
        special_rules=tuple(_require_strings(data, "special_rules", where, [])),
        assumptions=tuple(_require_strings(data, "assumptions", where, [])),
        sources=tuple(_require_strings(data, "sources", where, [])),
        path=where,
        extra={k: v for k, v in data.items() if k == "notes"},
        synonyms=_parse_synonyms(data.get("synonyms"), where),
        play_model=_parse_play_model(data.get("play_model"), where),
    )


def load_profile_file(path: str | Path) -> Profile:
    """Load a profile from a TOML file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DeckstatError("profile file not found", source=str(path)) from None
    except OSError as exc:
        raise DeckstatError(f"cannot read the profile file ({exc.strerror or exc})", source=str(path)) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DeckstatError(f"not a valid TOML profile ({exc})", source=str(path)) from None
    return parse_profile(data, where=str(path))


def _shipped() -> dict[str, Profile]:
    profiles = {}
    for entry in sorted(resources.files("deckstat.games").iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
            profile = parse_profile(data, where=f"deckstat/games/{entry.name}")
            profiles[profile.id] = profile
    return profiles


_CACHE: dict[str, Profile] = {}


def list_profiles() -> list[Profile]:
    """Return the shipped game profiles."""
    if not _CACHE:
        _CACHE.update(_shipped())
    return list(_CACHE.values())


def get_profile(game: str | os.PathLike | Profile) -> Profile:
    """Return a profile by id, alias, display name or TOML file path.

    Names are compared without case, accents, spaces, ``-`` or ``_``, so
    ``"Duel Masters"``, ``"duel_masters"`` and ``"DM"`` all name Duel Masters.

    Parameters
    ----------
    game : str, path or Profile
        ``"wankul"``, ``"duel-masters"``, ``"dm"``, ``"jdg"``, ``"licum"``,
        ``"pandrea"``, ``"generic"``, or a path to a ``.toml`` profile.

    Returns
    -------
    Profile
    """
    if isinstance(game, Profile):
        return game
    if isinstance(game, os.PathLike):
        return load_profile_file(game)
    if not isinstance(game, str):
        raise DeckstatError(f"game must be a name or a profile file, got {game!r}")
    profiles = list_profiles()
    key = fold_key(game)
    for profile in profiles:
        if key and key in {fold_key(n) for n in (profile.id, profile.name, *profile.aliases)}:
            return profile
    if game.endswith(".toml") or Path(game).is_file():
        return load_profile_file(game)
    names = [p.id for p in profiles]
    raise DeckstatError(f"unknown game {game!r}; expected one of {', '.join(names)} or a .toml profile file"
                        f"{suggest(game, names)}")
