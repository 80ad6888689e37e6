"""Game profiles: the rules that matter to deck statistics, as data.

A profile is a TOML file (see ``deckstat/games/*.toml`` and
``docs/profiles.md``). The shipped games are looked up by id or alias; any
other value of ``game`` that names an existing ``.toml`` file is loaded as a
user profile, with the same checks.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from deckstat.errors import DeckstatError
from deckstat.events import parse_event, parse_group
from deckstat.text import fold, suggest

SEATS = ("first", "second")
MULLIGAN_RULES = ("none", "bottom")
DECKOUT_RULES = {
    "lose_on_failed_draw": "a player who must draw from an empty deck loses",
    "lose_on_last_draw": "a player who draws the last card of their deck loses",
    "end_after_last_draw": "drawing the last card ends the game at the end of that turn",
    "end_when_both_cannot_draw": "the game ends when both players cannot draw at the end of a turn",
    "lose_at_end_of_turn": "a player with no card to draw plays the turn and loses at its end",
    "none": "running out of cards has no rules effect",
}
RULE_KINDS = ("size", "copies", "count", "ratio", "distinct", "fraction", "allowed", "same_value")


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
        ``"none"`` or ``"bottom"`` (put the hand under the deck, draw a new one).
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
    """

    id: str
    name: str
    aliases: tuple[str, ...]
    description: str
    card_types: tuple[str, ...]
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
    special_rules: tuple[str, ...]
    assumptions: tuple[str, ...]
    sources: tuple[str, ...]
    path: str = ""
    extra: dict = field(default_factory=dict, repr=False)

    def draws_by_turn(self, turn: int, seat: str) -> int:
        """Cards drawn after the opening hand, up to and including ``turn``, for ``seat``."""
        if turn <= 0:
            return 0
        return self.first_turn_draw[seat] + (turn - 1) * self.draws_per_turn

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
            rows.append(("mulligan", f"put the hand under the deck and draw a new one, {times}; "
                                     f"default keep rule: {self.keep}"))
        draws = ", ".join(f"{seat} player {self.first_turn_draw[seat]}" for seat in SEATS)
        rows.append(("turn 1 draw", draws))
        rows.append(("later turns", f"{self.draws_per_turn} card(s) per turn"))
        rows.append(("deck-out", DECKOUT_RULES[self.deckout]))
        if self.resource_group:
            rows.append(("resource group", self.resource_group))
        for text in self.special_rules:
            rows.append(("special rule", text))
        for text in self.assumptions:
            rows.append(("assumption", text))
        for text in self.sources:
            rows.append(("rules text", text))
        if self.path:
            rows.append(("profile file", self.path))
        return rows


def _require(data: dict, key: str, kind: type | tuple, where: str, default: object = ...):
    if key not in data:
        if default is ...:
            raise DeckstatError(f"missing {key!r}", source=where)
        return default
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise DeckstatError(f"{key!r} must be {names}, got {value!r}", source=where)
    return value


def _parse_rule(data: dict, where: str) -> Rule:
    kind = _require(data, "kind", str, where)
    if kind not in RULE_KINDS:
        raise DeckstatError(f"unknown rule kind {kind!r}; expected one of {', '.join(RULE_KINDS)}"
                            f"{suggest(kind, RULE_KINDS)}", source=where)
    text = _require(data, "text", str, where)
    params = {k: v for k, v in data.items() if k not in ("kind", "text", "source", "id")}
    for key in ("group", "of"):
        if key in params:
            parse_group(params[key], what=f"{where} {key}")
    for key in ("groups", "count_as_one"):
        for group in params.get(key, []):
            parse_group(group, what=f"{where} {key}")
    return Rule(kind, text, params, data.get("source", ""), data.get("id", kind))


def parse_profile(data: dict, *, where: str) -> Profile:
    """Build a :class:`Profile` from the mapping read from a profile file.

    Raises
    ------
    DeckstatError
        Naming the file and the key that is missing or wrong.
    """
    play = _require(data, "play", dict, where)
    pwhere = f"{where} [play]"
    parts_data = _require(data, "decks", list, where)
    if not parts_data:
        raise DeckstatError("'decks' lists no deck", source=where)
    parts = []
    for i, part in enumerate(parts_data):
        part_where = f"{where} [[decks]] #{i + 1}"
        rules = tuple(_parse_rule(r, f"{part_where} rule #{j + 1}")
                      for j, r in enumerate(_require(part, "rules", list, part_where, [])))
        part_id = _require(part, "id", str, part_where, "main")
        parts.append(DeckPart(part_id, _require(part, "name", str, part_where, part_id),
                              tuple(_require(part, "aliases", list, part_where, [part_id])), rules))
    hand_size = _require(play, "hand_size", int, pwhere)
    set_aside = _require(play, "set_aside", int, pwhere, 0)
    if hand_size < 0 or set_aside < 0:
        raise DeckstatError("hand_size and set_aside must be at least 0", source=pwhere)
    mulligan = _require(play, "mulligan", str, pwhere, "none")
    if mulligan not in MULLIGAN_RULES:
        raise DeckstatError(f"mulligan must be one of {', '.join(MULLIGAN_RULES)}, got {mulligan!r}",
                            source=pwhere)
    keep = _require(play, "keep", str, pwhere, None)
    if keep is not None:
        parse_event(keep, what=f"{pwhere} keep")
    if mulligan != "none" and keep is None:
        raise DeckstatError("a profile with a mulligan needs a default 'keep' rule", source=pwhere)
    first = _require(play, "first_turn_draw", dict, pwhere)
    for seat in SEATS:
        _require(first, seat, int, f"{pwhere} first_turn_draw")
    deckout = _require(play, "deckout", str, pwhere, "lose_on_failed_draw")
    if deckout not in DECKOUT_RULES:
        raise DeckstatError(f"deckout must be one of {', '.join(DECKOUT_RULES)}, got {deckout!r}",
                            source=pwhere)
    resource = _require(data, "resource_group", str, where, None)
    if resource:
        parse_group(resource, what=f"{where} resource_group")
    draw_part = _require(play, "draw_deck", str, pwhere, parts[0].id)
    if draw_part not in {p.id for p in parts}:
        raise DeckstatError(f"draw_deck {draw_part!r} is not one of the decks", source=pwhere)
    return Profile(
        id=_require(data, "id", str, where),
        name=_require(data, "name", str, where),
        aliases=tuple(_require(data, "aliases", list, where, [])),
        description=_require(data, "description", str, where, ""),
        card_types=tuple(_require(data, "card_types", list, where, [])),
        resource_group=resource,
        parts=tuple(parts),
        hand_size=hand_size,
        set_aside=set_aside,
        set_aside_name=_require(play, "set_aside_name", str, pwhere, "set aside"),
        mulligan=mulligan,
        mulligan_limit=_require(play, "mulligan_limit", int, pwhere, 1 if mulligan != "none" else 0),
        keep=keep,
        first_turn_draw={seat: first[seat] for seat in SEATS},
        draws_per_turn=_require(play, "draws_per_turn", int, pwhere, 1),
        deckout=deckout,
        draw_part=draw_part,
        special_rules=tuple(_require(data, "special_rules", list, where, [])),
        assumptions=tuple(_require(data, "assumptions", list, where, [])),
        sources=tuple(_require(data, "sources", list, where, [])),
        path=where,
        extra={k: v for k, v in data.items() if k == "notes"},
    )


def load_profile_file(path: str | Path) -> Profile:
    """Load a profile from a TOML file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DeckstatError("profile file not found", source=str(path)) from None
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


def get_profile(game: str | Profile) -> Profile:
    """Return a profile by id, alias or TOML file path.

    Parameters
    ----------
    game : str or Profile
        ``"wankul"``, ``"duel-masters"``, ``"dm"``, ``"jdg"``, ``"licum"``,
        ``"pandrea"``, ``"generic"``, or a path to a ``.toml`` profile.

    Returns
    -------
    Profile
    """
    if isinstance(game, Profile):
        return game
    if not isinstance(game, str):
        raise DeckstatError(f"game must be a name or a profile file, got {game!r}")
    profiles = list_profiles()
    key = fold(game)
    for profile in profiles:
        if key == fold(profile.id) or key in {fold(a) for a in profile.aliases}:
            return profile
    if game.endswith(".toml") or Path(game).is_file():
        return load_profile_file(game)
    names = [p.id for p in profiles]
    raise DeckstatError(f"unknown game {game!r}; expected one of {', '.join(names)} or a .toml profile file"
                        f"{suggest(game, names)}")
