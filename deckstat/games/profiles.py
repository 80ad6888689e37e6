"""Game profiles: the rules that matter to deck statistics, as data.

A profile is a TOML file (see ``deckstat/games/*.toml`` and
``docs/profiles.md``). The shipped games are looked up by id or alias; any
other value of ``game`` that names an existing ``.toml`` file is loaded as a
user profile, with the same checks.

The texts a player reads (description, rules, assumptions…) are English, each
with an optional French twin, the same key with ``_fr`` appended
(``description_fr``, ``text_fr``); they are kept as :class:`Text` values and
shown with :func:`localized`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from deckstat._input import read_input_bytes
from deckstat._shipped import parsed, shipped_path
from deckstat.errors import DeckstatError, ExpressionError
from deckstat.i18n import LANGUAGES, N_, get_language, number, tr, trn
from deckstat.parsing import KIND_NAMES, shown_value, unknown_key, wrong_kind
from deckstat.schema import canonical_column
from deckstat.synonyms import NONE, Synonyms
from deckstat.terms import (
    DECKOUT_RULES,
    DRAW_STEPS,
    MAX_COPIES,
    MAX_MULLIGANS,
    MAX_REDEALS,
    MOST_PROFILE_BYTES,
    MULLIGAN_RULES,
    MULLIGAN_WORDS,
    PLAY_MODEL_NAMES,
    PLAY_POLICY_NAMES,
    REDEAL_LIMIT,
    SEATS,
    TURN_ORDERS,
    name_of,
)
from deckstat.text import fold, fold_key, is_file, suggest

if TYPE_CHECKING:
    import numpy as np

# The expression parser (deckstat.events, deckstat.effects) is imported where a profile's groups, keep rule or
# effect moment are read, so that ``deckstat games`` and ``import deckstat.games.profiles`` do without it; numpy is
# imported only where events are evaluated.

#: :data:`deckstat.effects.DEFAULT_TIMING`, the moment of an effect that names none (a test keeps them equal).
_DEFAULT_MOMENT = "on_play"


class Text(str):
    """A text of a profile: the English text itself, with its translations by language.

    It is a ``str`` (the English text), so that code comparing or storing
    profile texts sees one value in every language; :func:`localized` gives
    the text of the current language.

    Examples
    --------
    >>> from deckstat.i18n import language
    >>> rule = Text("exactly 30 cards", {"fr": "exactement 30 cartes"})
    >>> rule == "exactly 30 cards", localized(rule)
    (True, 'exactly 30 cards')
    >>> with language("fr"):
    ...     localized(rule)
    'exactement 30 cartes'
    """

    translations: Mapping[str, str]

    def __new__(cls, english: str, translations: Mapping[str, str] | None = None) -> Text:
        """``english``, with ``translations`` keyed by language (``{"fr": ...}``)."""
        text = super().__new__(cls, english)
        text.translations = dict(translations or {})
        return text


    def shown(self) -> str:
        """The text in the current language (English when it has no translation into it)."""
        return self.translations.get(get_language(), str(self))

    def __format__(self, spec: str) -> str:
        """The text in the current language, wherever a message writes it (``tr("in the {name}", name=…)``).

        ``str()`` and comparisons keep the English text, which JSON, CSV and option values use.
        """
        return format(self.shown(), spec)


class _Message(Text):
    """A profile text written by deckstat itself (a default), translated by the catalogue."""

    def shown(self) -> str:
        return tr(str(self))


def localized(text: str) -> str:
    """``text`` in the current language: its translation when it is a :class:`Text` that has one, else itself."""
    return text.shown() if isinstance(text, Text) else text


#: The languages a profile text may be translated into: the key ``<key>_<lang>`` holds the text of ``<lang>``.
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")

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
HAND_PLAY = PlaySettings(kind="hand", assumptions=(_Message(N_(
    "No play model in this profile: a card counts as playable as soon as it is in hand (no cost, no condition).")),))


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
    effect_moment : str
        When a card effect that names no moment happens: a key of
        :data:`deckstat.effects.TIMINGS` (``[play] effect_moment``, default ``on_play``).
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
    effect_moment: str = _DEFAULT_MOMENT

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
            raise DeckstatError(tr("seat must be one of {choices}, got {seat!r}", choices=", ".join(SEATS), seat=seat))
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

    def last_draw_turn(self, library: int, seat: str) -> int | None:
        """The turn on which ``seat`` draws the last of ``library`` cards (``None``: never)."""
        first = self.first_turn_draw[seat]
        if library <= 0:
            return None
        if library <= first:
            return 1
        if self.draws_per_turn == 0:
            return None
        return 1 + math.ceil((library - first) / self.draws_per_turn)

    def duel_end_turn(self, deck_size: int, seat: str) -> int | None:
        """The last turn of ``seat`` that a deck-out ending the game for both players lets come (``None``: none).

        Both decks hold ``deck_size`` cards. Under ``end_after_last_draw`` (JdG: « Si l'un des joueurs pioche la
        dernière carte de son deck, à la fin de son tour le duel se termine »)
        with turns taken one after the other, the game ends at the end of the
        first turn, in play order, that draws a player's last card: with two
        30-card JdG decks, the first player's turn 25, so the second player has
        no turn 25.

        Examples
        --------
        >>> jdg = get_profile("jdg")
        >>> jdg.duel_end_turn(30, "first"), jdg.duel_end_turn(30, "second")
        (25, 24)
        >>> get_profile("wankul").duel_end_turn(50, "second") is None
        True
        """
        if self.deckout != "end_after_last_draw" or self.turn_order != "alternating":
            return None
        library = self.library_size(deck_size)
        ends = {s: self.last_draw_turn(library, s) for s in SEATS}
        if ends["first"] is None and ends["second"] is None:
            return None
        # The first player's turn t comes before the second player's turn t.
        if ends["second"] is None or (ends["first"] is not None and ends["first"] <= ends["second"]):
            end, by = ends["first"], "first"
        else:
            end, by = ends["second"], "second"
        return end - 1 if seat == "second" and by == "first" else end

    def last_game_turn(self, deck_size: int, seat: str) -> int:
        """The last turn of ``seat`` whose draws both the deck and the game reach, both decks of ``deck_size`` cards.

        :meth:`last_turn`, or earlier when the deck-out rule ends the game
        first (:meth:`duel_end_turn`).
        """
        last = self.last_turn(deck_size, seat)
        end = self.duel_end_turn(deck_size, seat)
        return last if end is None else min(last, end)

    def largest_drawn_deck(self) -> int | None:
        """The most cards the drawn deck may hold under its construction rules (Licum's game deck: 30), or ``None``."""
        highs = [rule.params["max"] for rule in self.part().rules
                 if rule.kind == "size" and rule.params.get("max") is not None and not rule.params.get("count_as_one")]
        return min(highs) if highs else None

    def outside_mask(self, deck) -> np.ndarray:
        """Which distinct cards of ``deck`` belong to no deck (:attr:`outside_decks`)."""
        import numpy as np

        mask = np.zeros(len(deck.cards), dtype=bool)
        for group in self.outside_decks:
            mask |= deck.mask(group)
        return mask

    def counted_deck(self, deck):
        """``deck`` without the cards that belong to no deck (Licum's Mise au Jeu cards)."""
        import numpy as np

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
        drawn = deck.part(part.aliases, label=part.name)
        if drawn.size == 0 and deck.size > 0:
            # Every question about it would fail on its groups, far from the cause: the 'deck' column's values.
            found = sorted({str(v) for v in deck.cards["deck"] if isinstance(v, str) and v.strip()})
            raise DeckstatError(tr("no card's 'deck' value is {values}, so the {label} deck drawn from is empty; the "
                                   "column holds {found}", values=" or ".join(repr(a) for a in part.aliases),
                                   label=part.name, found=", ".join(repr(v) for v in found) or tr("nothing")),
                                source=deck.source, column="deck")
        return drawn

    def part(self, part_id: str | None = None) -> DeckPart:
        """Return the deck part ``part_id`` (default: the part drawn from)."""
        wanted = part_id or self.draw_part
        for part in self.parts:
            if part.id == wanted:
                return part
        raise DeckstatError(tr("{game} has no deck part {part!r}; it has {parts}", game=self.name, part=wanted,
                               parts=", ".join(p.id for p in self.parts)))

    def describe(self, *, with_play_model: bool = False) -> list[tuple[str, str]]:
        """Return the profile in words, as (field, text) pairs for ``deckstat games show``, in the current language.

        Parameters
        ----------
        with_play_model : bool
            Also list the play model's policies (the default one marked) and the profile's settings for it,
            after the play model's assumptions.
        """
        from deckstat.effects import TIMINGS

        rows = [(tr("game"), f"{self.name} ({self.id})"), (tr("about"), localized(self.description))]
        for part in self.parts:
            label = tr("deck") if len(self.parts) == 1 else tr("{part} deck", part=localized(part.name))
            for rule in part.rules:
                rows.append((label, localized(rule.text)))
        rows.append((tr("opening hand"), trn("{n} card", "{n} cards", self.hand_size)))
        if self.set_aside:
            rows.append((tr("set aside"), trn("{n} card from the top before the hand ({name})",
                                              "{n} cards from the top before the hand ({name})", self.set_aside,
                                              name=localized(self.set_aside_name))))
        if self.mulligan == "none":
            rows.append((tr("mulligan"), tr(MULLIGAN_WORDS["none"])))
        else:
            if self.mulligan == "pokemon":
                times = trn("until the keep rule holds (after {n} mulligan the hand is kept)",
                            "until the keep rule holds (after {n} mulligans the hand is kept)", self.mulligan_limit)
            elif self.mulligan_limit == 1:
                times = tr("once")
            else:
                times = trn("up to {n} time", "up to {n} times", self.mulligan_limit)
            rows.append((tr("mulligan"), tr("{rule}, {times}; default keep rule: {keep}",
                                            rule=tr(MULLIGAN_WORDS[self.mulligan]), times=times, keep=self.keep)))
        first, second = (self.first_turn_draw[seat] for seat in SEATS)
        rows.append((tr("turn 1 draw"), ", ".join((trn("first player {n}", "first player {n}", first),
                                                   trn("second player {n}", "second player {n}", second)))))
        rows.append((tr("later turns"), trn("{n} card per turn", "{n} cards per turn", self.draws_per_turn)))
        rows.append((tr("deck-out"), tr(DECKOUT_RULES[self.deckout])))
        rows.append((tr("card effects"), tr("an effect without a moment of its own happens {moment}",
                                            moment=tr(TIMINGS[self.effect_moment][1]))))
        if self.same_size:
            rows.append((tr("both decks"), tr("the two players' decks have the same number of cards")))
        if self.outside_decks:
            rows.append((tr("outside the decks"), tr("{groups}: never counted in a deck, never shuffled in or drawn",
                                                     groups=", ".join(group_words(g) for g in self.outside_decks))))
        if self.drought_group:
            if self.drought_scored_after is None:
                drought = tr("a {group} card in play stays in play until the end (deck-out model default)",
                             group=self.drought_group)
            else:
                drought = trn("a {group} card in play is scored and discarded {n} turn after it is played "
                              "(deck-out model default)",
                              "a {group} card in play is scored and discarded {n} turns after it is played "
                              "(deck-out model default)", self.drought_scored_after, group=self.drought_group)
            rows.append((tr("drought rule"), drought))
            if self.drought_scored_after is not None:
                # An assumption that moves answers far beyond their intervals: the questions show both ends.
                rows.append((tr("shown as a range"), tr(
                    "when a {group} card is scored: deckout, curve and the report answer with each scored at the "
                    "first legal moment and beside it with none scored (their scoring table)",
                    group=self.drought_group)))
            rows.append((tr("shown as a range"), tr(
                "drought draws: odds answers exactly without them and beside it with them, on games of both "
                "players' turns (its droughts table)")))
            if self.play_model.kind == "discard" and self.play_model.settings.get("play_after_drought", True):
                rows.append((tr("shown as a range"), tr(
                    "« ils ne peuvent pas jouer d'autres cartes »: curve and the report answer with cards played "
                    "once the drought's Terrain is in play and beside it with none played in that turn (its "
                    "drought_play table)")))
        if self.resource_group:
            rows.append((tr("resource group"), self.resource_group))
        for text in self.special_rules:
            rows.append((tr("special rule"), localized(text)))
        play = self.play_model
        model_name = name_of(PLAY_MODEL_NAMES, play.kind)
        rows.append((tr("play model"), tr("{model}, default policy {policy}", model=model_name,
                                          policy=name_of(PLAY_POLICY_NAMES, play.policy))
                     if play.policy else model_name))
        for text in play.assumptions:
            rows.append((tr("play assumption"), localized(text)))
        if with_play_model:
            rows.extend(self._play_policies())
        for text in play.sources:
            rows.append((tr("play rules text"), text))
        for text in self.assumptions:
            rows.append((tr("assumption"), localized(text)))
        for text in self.sources:
            rows.append((tr("rules text"), text))
        for column, text in self.synonyms.describe():
            rows.append((tr("same values"), tr("{column}: {values}", column=column, values=text)))
        if self.path:
            rows.append((tr("profile file"), self.path))
        return rows

    def _play_policies(self) -> list[tuple[str, str]]:
        """The play model's policies in words (the default one marked), then the profile's settings for it."""
        from deckstat.play import MODELS  # the play models read profiles: imported when needed

        model = MODELS.get(self.play_model.kind)
        if model is None:
            return []
        default = self.play_model.policy or model.default_policy
        rows = []
        for name, text in model.policies.items():
            # The policy's name in the language, with the value --policy takes where the two differ.
            shown = name_of(PLAY_POLICY_NAMES, name)
            if shown != name:
                shown = tr("{policy} (--policy {value})", policy=shown, value=name)
            words = (tr("{policy} (default): {text}", policy=shown, text=tr(text)) if name == default else
                     tr("{policy}: {text}", policy=shown, text=tr(text)))
            rows.append((tr("play policy"), words))
        rows += [(tr("play setting"), f"{key} = {value}") for key, value in self.play_model.settings.items()]
        return rows


def group_words(text: str) -> str:
    """A group as a player reads it: a name without its quotes (``Mise au Jeu``), an attribute test as written."""
    from deckstat.events import NameGroup, parse_group

    group = parse_group(text)
    return group.text if isinstance(group, NameGroup) else group.label


def _require(data: dict, key: str, kind: type | tuple, where: str, default: object = ...):
    if key not in data:
        if default is ...:
            raise DeckstatError(tr("missing {key!r}", key=key), source=where)
        return default
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        # A whole number is a number: (int, float) reads "a number".
        named = [k for k in kinds if not (k is int and float in kinds)]
        names = tr(" or ").join(tr(KIND_NAMES[k]) if k in KIND_NAMES else k.__name__ for k in named)
        _refuse(key, wrong_kind(value, names), where)
    return value


def _refuse(key: str, message: str, where: str) -> NoReturn:
    """Refuse the value of ``key``: the same shape as an unknown key's message, ``KEY: problem``."""
    raise DeckstatError(tr("{place}: {message}", place=key, message=message), source=where)


def _require_strings(data: dict, key: str, where: str, default: object = ...):
    """A list of strings, e.g. ``aliases`` or ``sources``."""
    value = _require(data, key, list, where, default)
    if key in data:
        for item in value:
            if not isinstance(item, str):
                _refuse(key, tr("expected a list of texts, got the item {item}", item=shown_value(item)), where)
    return value


def _require_count(data: dict, key: str, where: str, default: object = ..., *, least: int = 0,
                   most: int | None = None):
    """An integer from ``least`` to ``most`` (hand sizes, draws, rule bounds)."""
    value = _require(data, key, int, where, default)
    if key in data and value < least:
        raise DeckstatError(tr("{key!r} must be at least {least}, got {value!r}", key=key, least=least, value=value),
                            source=where)
    if key in data and most is not None and value > most:
        raise DeckstatError(tr("{key!r} must be at most {most}, got {value!r}", key=key, most=number(most),
                               value=value), source=where)
    return value


def _check_translated_keys(data: dict, keys: tuple[str, ...], where: str) -> None:
    """Refuse a ``<key>_<lang>`` key whose ``<key>`` cannot be translated in this table (misspelt, or ``sources``)."""
    for name in data:
        base, _, lang = str(name).rpartition("_")
        if not base or lang not in TRANSLATED or base in keys:
            continue
        if base == "sources":
            raise DeckstatError(tr("{key!r}: 'sources' are quotes of the rules text and are shown as written in "
                                   "every language; leave the key out", key=name), source=where)
        raise DeckstatError(tr("{key!r} translates {base!r}, which has no translation in this table; the texts "
                               "that have one here are {keys}", key=name, base=base,
                               keys=", ".join(repr(k) for k in keys) or tr("none")), source=where)


#: The keys a profile's tables may hold (a text's ``<key>_<lang>`` twin is checked by :func:`_check_translated_keys`).
_TOP_KEYS = ("id", "name", "aliases", "description", "card_types", "outside_decks", "signature_columns",
             "resource_group", "decks", "play", "special_rules", "assumptions", "sources", "notes", "synonyms",
             "play_model")
_PLAY_KEYS = ("hand_size", "set_aside", "set_aside_name", "mulligan", "mulligan_limit", "keep", "first_turn_draw",
              "draws_per_turn", "deckout", "turns", "draw_step", "drought", "drought_scored_after", "same_size",
              "effect_moment",
              "draw_deck")
_DECK_KEYS = ("id", "name", "aliases", "rules")
_RULE_KEYS = ("kind", "text", "source", "id", "level")


def _refuse_unknown_keys(data: dict, keys: tuple[str, ...], where: str, *, rule: str | None = None) -> None:
    """Refuse a key this table does not read: a misspelt ``hand_sise`` would otherwise be ignored without a word.

    ``rule`` is the kind of the rule the table describes, named in the message (its keys depend on it).
    """
    def translated(name: str) -> bool:
        base, _, lang = name.rpartition("_")
        return lang in TRANSLATED and base in keys

    found = unknown_key(data, keys, accept=translated, rule=rule)
    if found is not None:
        name, message = found
        raise DeckstatError(tr("{place}: {message}", place=name, message=message), source=where)


def _translation(data: dict, key: str, lang: str, kind: type, where: str):
    """The ``<key>_<lang>`` twin of ``key`` (a string or a list of strings), or None when there is none."""
    twin = f"{key}_{lang}"
    if twin not in data:
        return None
    if key not in data:
        raise DeckstatError(tr("{twin!r} translates {key!r}, which is missing; give the English text too",
                               twin=twin, key=key), source=where)
    values = [_require(data, twin, str, where)] if kind is str else _require_strings(data, twin, where)
    if any(not value.strip() for value in values):
        raise DeckstatError(tr("{twin!r} holds an empty text; write the translation, or leave the key out",
                               twin=twin), source=where)
    return values[0] if kind is str else values


def _text(data: dict, key: str, where: str, default: str = ...) -> Text:
    """A text a player reads (``description``, a rule's ``text``), with its ``<key>_fr`` translation if any."""
    english = _require(data, key, str, where, default)
    found = {}
    for lang in TRANSLATED:
        value = _translation(data, key, lang, str, where)
        if value is not None:
            found[lang] = value
    return english if isinstance(english, Text) else Text(english, found)


def _texts(data: dict, key: str, where: str) -> tuple[Text, ...]:
    """A list of texts a player reads (``assumptions``), with the ``<key>_fr`` list of their translations if any."""
    english = _require_strings(data, key, where, [])
    found: dict[str, list[str]] = {}
    for lang in TRANSLATED:
        values = _translation(data, key, lang, list, where)
        if values is None:
            continue
        if len(values) != len(english):
            raise DeckstatError(trn("{twin!r} has {n} text for the {total} of {key!r}; give one translation per "
                                    "English text, in the same order",
                                    "{twin!r} has {n} texts for the {total} of {key!r}; give one translation per "
                                    "English text, in the same order", len(values), twin=f"{key}_{lang}",
                                    total=number(len(english)), key=key), source=where)
        found[lang] = values
    return tuple(Text(text, {lang: values[i] for lang, values in found.items()}) for i, text in enumerate(english))


def _parse_rule(data: object, where: str, check_expressions: bool = True) -> Rule:
    if not isinstance(data, dict):
        raise DeckstatError(wrong_kind(data, tr("a table [[decks.rules]] for each rule")), source=where)
    kind = _require(data, "kind", str, where)
    if kind not in RULE_KINDS:
        raise DeckstatError(tr("unknown rule kind {kind!r}; expected one of {choices}", kind=kind,
                               choices=", ".join(RULE_KINDS)) + suggest(kind, RULE_KINDS), source=where)
    _check_translated_keys(data, ("text",), where)
    _refuse_unknown_keys(data, (*_RULE_KEYS, *(key for key, _, _ in _RULE_PARAMS[kind])), where, rule=kind)
    text = _text(data, "text", where)
    source = _require(data, "source", str, where, "")
    rule_id = _require(data, "id", str, where, kind)
    level = _require(data, "level", str, where, "error")
    if level not in RULE_LEVELS:
        raise DeckstatError(tr("'level' must be one of {choices}, got {level!r}", choices=", ".join(RULE_LEVELS),
                               level=level) + suggest(level, RULE_LEVELS), source=where)
    for key, key_type, required in _RULE_PARAMS[kind]:
        default = ... if required else None
        if key_type is int:
            _require_count(data, key, where, default, least=1 if key == "per" else 0)
        elif key_type is list:
            _require_strings(data, key, where, default)
        else:
            _require(data, key, key_type, where, default)
    if kind in ("count", "distinct") and "min" not in data and "max" not in data:
        raise DeckstatError(tr("a {kind!r} rule needs 'min' or 'max' (or both)", kind=kind), source=where)
    if data.get("min") is not None and data.get("max") is not None and data["min"] > data["max"]:
        raise DeckstatError(tr("'min' ({low}) is larger than 'max' ({high})", low=data["min"], high=data["max"]),
                            source=where)
    if kind == "fraction" and data["max"] < 0:
        raise DeckstatError(tr("'max' must be at least 0, got {value!r}", value=data["max"]), source=where)
    if kind == "allowed" and not data["groups"]:
        raise DeckstatError(tr("'groups' lists no group"), source=where)
    texts = {"text", *(f"text_{lang}" for lang in TRANSLATED)}
    params = {k: v for k, v in data.items() if k not in ("kind", "source", "id", *texts)}
    params["level"] = level
    if check_expressions:
        from deckstat.events import parse_group

        for key in ("group", "of"):
            if key in params:
                parse_group(params[key], what=f"{where} {key}")
        for key in ("groups", "count_as_one"):
            for group in params.get(key, []):
                parse_group(group, what=f"{where} {key}")
    return Rule(kind, text, params, source, rule_id)


def _parse_parts(parts_data: list, where: str, check_expressions: bool = True) -> list[DeckPart]:
    """The decks a player builds (``[[decks]]``), each with its rules and the ``deck`` values that name it."""
    if not parts_data:
        raise DeckstatError(tr("'decks' lists no deck"), source=where)
    parts: list[DeckPart] = []
    seen_aliases: dict[str, str] = {}
    for i, part in enumerate(parts_data):
        part_where = f"{where} [[decks]] #{i + 1}"
        if not isinstance(part, dict):
            raise DeckstatError(wrong_kind(part, tr("a table [[decks]] for each deck")), source=part_where)
        rules = tuple(_parse_rule(r, tr("{place} rule #{number}", place=part_where, number=j + 1), check_expressions)
                      for j, r in enumerate(_require(part, "rules", list, part_where, [])))
        part_id = _require(part, "id", str, part_where, "main")
        if any(p.id == part_id for p in parts):
            raise DeckstatError(tr("two decks have the id {id!r}; give each deck its own 'id'", id=part_id),
                                source=part_where)
        aliases = tuple(_require_strings(part, "aliases", part_where, [part_id]))
        if not aliases:
            raise DeckstatError(tr("'aliases' is empty; list the values of the 'deck' column that mean this deck"),
                                source=part_where)
        for alias in aliases:
            if seen_aliases.get(fold(alias), part_id) != part_id:
                raise DeckstatError(tr("the alias {alias!r} names both the {first!r} and the {second!r} deck",
                                       alias=alias, first=seen_aliases[fold(alias)], second=part_id),
                                    source=part_where)
            seen_aliases[fold(alias)] = part_id
        _check_translated_keys(part, ("name",), part_where)
        _refuse_unknown_keys(part, _DECK_KEYS, part_where)
        parts.append(DeckPart(part_id, _text(part, "name", part_where, part_id), aliases, rules))
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
        _refuse("synonyms", wrong_kind(data, tr("a table [synonyms]")), where)
    sets: list[tuple[str, tuple[str, ...]]] = []
    columns: dict[str, str] = {}
    for key, value in data.items():
        swhere = f"{where} synonyms.{key}"
        column = canonical_column(key)
        if column in columns:
            raise DeckstatError(tr("{key!r} and {other!r} name the same column {column!r}; merge them", key=key,
                                   other=columns[column], column=column), source=f"{where} [synonyms]")
        columns[column] = key
        if not isinstance(value, list):
            raise DeckstatError(wrong_kind(value, tr("a list of sets of values such as [[\"Feu\", \"Fire\"]]")),
                                source=swhere)
        seen: dict[str, str] = {}
        for spellings in value:
            if not isinstance(spellings, list) or not all(isinstance(v, str) for v in spellings):
                expected = tr("a list of texts such as [\"Feu\", \"Fire\"] for each set")
                raise DeckstatError(wrong_kind(spellings, expected), source=swhere)
            for spelling in spellings:
                if not spelling.strip() or ";" in spelling:
                    raise DeckstatError(tr("{value!r} is not a value: expected a non-empty text without ';'",
                                           value=spelling), source=swhere)
            folded = {fold(v) for v in spellings}
            if len(folded) < 2:
                raise DeckstatError(tr("the set {values!r} names a single value (case and accents are ignored "
                                       "anyway); a set needs two different spellings or more", values=spellings),
                                    source=swhere)
            clash = sorted(folded & seen.keys())
            if clash:
                raise DeckstatError(tr("{value!r} is in two sets; a value can mean only one thing",
                                       value=seen[clash[0]]), source=swhere)
            for spelling in spellings:
                seen.setdefault(fold(spelling), spelling)
            sets.append((column, tuple(spellings)))
    return Synonyms(tuple(sets))


def _effect_moment(play: dict, where: str, check_expressions: bool = True) -> str:
    """``[play] effect_moment``: when an effect that names no moment happens, in French or English words."""
    written = _require(play, "effect_moment", str, where, _DEFAULT_MOMENT)
    if not check_expressions:
        return written
    from deckstat.effects import moment_of

    try:
        return moment_of(written)
    except ExpressionError as error:
        _refuse("effect_moment", error.message, where)


def _parse_play_model(data: object, where: str) -> PlaySettings:
    if data is None:
        return HAND_PLAY
    mwhere = f"{where} [play_model]"
    if not isinstance(data, dict):
        _refuse("play_model", wrong_kind(data, tr("a table [play_model]")), where)
    kind = _require(data, "kind", str, mwhere)
    _check_translated_keys(data, ("assumptions",), mwhere)
    texts = {"assumptions", *(f"assumptions_{lang}" for lang in TRANSLATED)}
    rest = {k: v for k, v in data.items() if k not in ("kind", "policy", "sources", *texts)}
    return PlaySettings(kind=kind, policy=_require(data, "policy", str, mwhere, ""),
                        assumptions=_texts(data, "assumptions", mwhere),
                        sources=tuple(_require_strings(data, "sources", mwhere, [])), settings=rest)


def _choice_error(key: str, value: str, choices, where: str) -> DeckstatError:
    """A value of ``key`` that is none of ``choices``."""
    return DeckstatError(tr("{key!r} must be one of {choices}, got {value!r}", key=key, choices=", ".join(choices),
                            value=value) + suggest(value, list(choices)), source=where)


def parse_profile(data: dict, *, where: str, check_expressions: bool = True) -> Profile:
    """Build a :class:`Profile` from the mapping read from a profile file.

    Parameters
    ----------
    data : dict
        The profile file's tables, as :mod:`tomllib` reads them.
    where : str
        The file, named in error messages.
    check_expressions : bool
        Parse the groups, the keep rule and the effect moment (which loads the expression parser and numpy).
        ``False`` takes them as written: for the shipped profiles only, whose expressions the tests parse and
        whose effect moment they check is written as its canonical name.

    Raises
    ------
    DeckstatError
        Naming the file and the key that is missing or wrong.
    """
    play = _require(data, "play", dict, where)
    pwhere = f"{where} [play]"
    _check_translated_keys(data, ("name", "description", "special_rules", "assumptions"), where)
    _check_translated_keys(play, ("set_aside_name",), pwhere)
    _refuse_unknown_keys(data, _TOP_KEYS, where)
    _refuse_unknown_keys(play, _PLAY_KEYS, pwhere)
    if check_expressions:
        from deckstat.events import parse_event, parse_group
    parts = _parse_parts(_require(data, "decks", list, where), where, check_expressions)
    hand_size = _require_count(play, "hand_size", pwhere, most=MAX_COPIES)
    set_aside = _require_count(play, "set_aside", pwhere, 0, most=MAX_COPIES)
    mulligan = _require(play, "mulligan", str, pwhere, "none")
    if mulligan not in MULLIGAN_RULES:
        raise _choice_error("mulligan", mulligan, MULLIGAN_RULES, pwhere)
    mulligan_limit = _require_count(play, "mulligan_limit", pwhere, 0 if mulligan == "none" else
                                    REDEAL_LIMIT if mulligan == "pokemon" else 1,
                                    most=MAX_REDEALS if mulligan == "pokemon" else MAX_MULLIGANS)
    if mulligan != "none" and mulligan_limit < 1:
        raise DeckstatError(tr("'mulligan_limit' must be at least 1 with mulligan = {mulligan!r}, got {limit}",
                               mulligan=mulligan, limit=mulligan_limit), source=pwhere)
    if mulligan == "hearthstone" and mulligan_limit != 1:
        raise DeckstatError(tr("'mulligan_limit' must be 1 with mulligan = \"hearthstone\" (one round), got {limit}",
                               limit=mulligan_limit), source=pwhere)
    keep = _require(play, "keep", str, pwhere, None)
    if keep is not None and check_expressions:
        parse_event(keep, what=f"{pwhere} keep")
    if mulligan != "none" and keep is None:
        raise DeckstatError(tr("a profile with a mulligan needs a default 'keep' rule"), source=pwhere)
    first = _require(play, "first_turn_draw", dict, pwhere)
    _refuse_unknown_keys(first, SEATS, f"{pwhere} first_turn_draw")
    for seat in SEATS:
        _require_count(first, seat, f"{pwhere} first_turn_draw", most=MAX_COPIES)
    draws_per_turn = _require_count(play, "draws_per_turn", pwhere, 1, most=MAX_COPIES)
    deckout = _require(play, "deckout", str, pwhere, "lose_on_failed_draw")
    if deckout not in DECKOUT_RULES:
        raise _choice_error("deckout", deckout, DECKOUT_RULES, pwhere)
    resource = _require(data, "resource_group", str, where, None)
    if resource and check_expressions:
        parse_group(resource, what=f"{where} resource_group")
    turn_order = _require(play, "turns", str, pwhere, "alternating")
    if turn_order not in TURN_ORDERS:
        raise _choice_error("turns", turn_order, TURN_ORDERS, pwhere)
    draw_step = _require(play, "draw_step", str, pwhere, "start")
    if draw_step not in DRAW_STEPS:
        raise _choice_error("draw_step", draw_step, DRAW_STEPS, pwhere)
    drought = _require(play, "drought", str, pwhere, None)
    if drought and check_expressions:
        parse_group(drought, what=f"{pwhere} drought")
    scored_after = _require_count(play, "drought_scored_after", pwhere, None, least=1)
    if scored_after is not None and not drought:
        raise DeckstatError(tr("'drought_scored_after' needs a 'drought' group"), source=pwhere)
    same_size = _require(play, "same_size", bool, pwhere, False)
    effect_moment = _effect_moment(play, pwhere, check_expressions)
    outside = _require_strings(data, "outside_decks", where, [])
    for group in outside if check_expressions else ():
        parse_group(group, what=f"{where} outside_decks")
    draw_part = _require(play, "draw_deck", str, pwhere, parts[0].id)
    if draw_part not in {p.id for p in parts}:
        raise DeckstatError(tr("'draw_deck' {deck!r} is not one of the decks ({decks})", deck=draw_part,
                               decks=", ".join(p.id for p in parts)), source=pwhere)
    return Profile(
        id=_require(data, "id", str, where),
        name=_text(data, "name", where),
        aliases=tuple(_require_strings(data, "aliases", where, [])),
        description=_text(data, "description", where, ""),
        card_types=tuple(_require_strings(data, "card_types", where, [])),
        outside_decks=tuple(outside),
        signature_columns=tuple(dict.fromkeys(canonical_column(c) for c in
                                              _require_strings(data, "signature_columns", where, []))),
        resource_group=resource,
        parts=tuple(parts),
        hand_size=hand_size,
        set_aside=set_aside,
        set_aside_name=_text(play, "set_aside_name", pwhere, _Message(N_("set aside"))),
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
        effect_moment=effect_moment,
        turn_order=turn_order,
        draw_step=draw_step,
        special_rules=_texts(data, "special_rules", where),
        assumptions=_texts(data, "assumptions", where),
        sources=tuple(_require_strings(data, "sources", where, [])),
        path=where,
        extra={k: v for k, v in data.items() if k == "notes"},
        synonyms=_parse_synonyms(data.get("synonyms"), where),
        play_model=_parse_play_model(data.get("play_model"), where),
    )


def load_profile_file(path: str | Path) -> Profile:
    """Load a profile from a TOML file."""
    import tomllib

    path = Path(path)
    try:
        raw = read_input_bytes(path, kind="profile", limit=MOST_PROFILE_BYTES)
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        # TOML is UTF-8; a profile saved by a Windows editor in cp1252 fails on its first accent.
        raise DeckstatError(tr("not UTF-8 text (byte {offset}); save the profile as UTF-8", offset=exc.start + 1),
                            source=str(path), line=raw[:exc.start].count(b"\n") + 1) from None
    except FileNotFoundError:
        raise DeckstatError(tr("profile file not found"), source=str(path)) from None
    except OSError as exc:
        raise DeckstatError(tr("cannot read the profile file ({reason})", reason=exc.strerror or exc),
                            source=str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise DeckstatError(tr("not a valid TOML profile ({reason})", reason=exc), source=str(path)) from None
    if "play" not in data and "decks" not in data:
        # Another TOML file given by mistake: named, its keys and values never quoted.
        raise DeckstatError(tr("is not a game profile: it has neither a [play] table nor [[decks]]; expected a "
                               "profile such as deckstat/games/generic.toml (see docs/profiles.md)"), source=str(path))
    return parse_profile(data, where=str(path))


def _shipped_files() -> list:
    """The shipped profiles' files, by name."""
    return sorted(shipped_path("games").glob("*.toml"), key=lambda e: e.name)


#: The shipped profiles read so far, by file name: each file is read once.
_READ: dict[str, Profile] = {}


def _toml(text: str) -> dict:
    import tomllib  # only when a shipped profile is read again (deckstat._shipped)

    return tomllib.loads(text)


def _shipped_profile(entry) -> Profile:
    if entry.name not in _READ:
        data = parsed(entry, _toml)
        # Their expressions are parsed by the tests (tests/test_startup_imports.py): not at every start.
        _READ[entry.name] = parse_profile(data, where=f"deckstat/games/{entry.name}", check_expressions=False)
    return _READ[entry.name]


def _shipped() -> dict[str, Profile]:
    return {profile.id: profile for profile in map(_shipped_profile, _shipped_files())}


def _names(profile: Profile) -> set[str]:
    """What names ``profile`` (its id, name and aliases), as :func:`get_profile` compares them."""
    return {fold_key(n) for n in (profile.id, profile.name, *profile.aliases)}


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
        raise DeckstatError(tr("game must be a name or a profile file, got {game!r}", game=game))
    key = fold_key(game)
    # A profile named by its file (wankul.toml, duel_masters.toml) is read alone: no two shipped profiles share a
    # name (tests/test_startup_imports.py), so no other could be the one asked for.
    entry = next((e for e in _shipped_files() if key and fold_key(e.name.removesuffix(".toml")) == key), None)
    if entry is not None and key in _names(_shipped_profile(entry)):
        return _shipped_profile(entry)
    profiles = list_profiles()
    for profile in profiles:
        if key and key in _names(profile):
            return profile
    if game.endswith(".toml") or is_file(game):
        return load_profile_file(game)
    names = [p.id for p in profiles]
    raise DeckstatError(tr("unknown game {game!r}; expected one of {choices} or a .toml profile file", game=game,
                           choices=", ".join(names)) + suggest(game, names))
