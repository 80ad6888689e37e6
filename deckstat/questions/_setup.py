"""What every question shares: rules in force, events compiled to cells, the method, the turns, provenance.

A question resolves its game profile and rules once (:func:`prepare`),
which parses the events and the keep rule, checks that their groups mean
something for this deck, and partitions the drawn deck into cells; then it
picks an engine (:func:`choose_method`) and lays out the draws each seat has
made by each turn (:func:`turn_plan`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from deckstat._validate import (
    check_choice,
    check_deck,
    check_half_width,
    check_optional_whole,
    check_seats,
    check_turns,
    check_whole,
)
from deckstat._version import __version__
from deckstat.deck import LIST_SEPARATOR, Deck
from deckstat.engines import exact
from deckstat.engines.cells import partition
from deckstat.engines.tasks import DealSpec
from deckstat.errors import DeckstatError, ExpressionError, param
from deckstat.events import (
    And,
    Count,
    Event,
    NameGroup,
    Not,
    Or,
    count_caps,
    evaluate,
    groups_of,
    parse_event,
    parse_group,
)
from deckstat.games.profiles import Profile, get_profile
from deckstat.terms import FIXED_ZONES, METHODS, MULLIGAN_RULES, ZONES
from deckstat.text import fold, suggest


def check_card_types(deck: Deck, profile: Profile) -> None:
    """Refuse a type column that writes the game's card types in the plural (``Terrains``).

    Such a deck would load, then count no ``Terrain`` at all.
    """
    if "type" not in deck.cards.columns or not profile.card_types:
        return
    singular = {fold(t): t for t in profile.card_types}
    for value in dict.fromkeys(v for v in deck.cards["type"] if isinstance(v, str)):
        for item in (v.strip() for v in value.split(LIST_SEPARATOR)):
            key = fold(item)
            if key in singular or key[-1:] not in ("s", "x") or key[:-1] not in singular:
                continue
            rows = [isinstance(v, str) and key in {fold(t) for t in v.split(LIST_SEPARATOR)}
                    for v in deck.cards["type"]]
            cards = int(deck.counts[rows].sum())
            raise DeckstatError(f"type {item!r} ({cards} cards, e.g. {deck.labels[rows.index(True)]!r}) is not a "
                                f"{profile.name} card type; did you mean {singular[key[:-1]]!r}? The card types are "
                                f"{', '.join(profile.card_types)}, in the singular", source=deck.source,
                                column="type")


def check_groups(deck: Deck, event: Event, profile: Profile, what: str, text: str) -> None:
    """Refuse bare words that match no card of the deck and no card type of the game."""
    check_card_types(deck, profile)
    known_types = {t.casefold() for t in profile.card_types}
    for group in groups_of(event).values():
        if not isinstance(group, NameGroup):
            deck.mask(group)  # raises on an unknown attribute
            continue
        if deck.mask(group).any() or group.text.casefold() in known_types:
            continue
        candidates = sorted(deck.known_words() | set(profile.card_types))
        raise ExpressionError(f"{group.text!r} matches no card type, tag or card name of this deck"
                              f"{suggest(group.text, candidates)}", source=f"{what} {text!r}",
                              column=group.position)


@dataclass(frozen=True)
class Compiled:
    """Events compiled against one deck: disjoint cells and engine conditions."""

    cell_counts: np.ndarray
    cell_membership: np.ndarray
    conditions: tuple[exact.Condition, ...]
    group_keys: tuple[str, ...]


def compile_events(deck: Deck, events: Iterable[Event]) -> Compiled:
    """Partition ``deck`` into cells by the groups of ``events`` and build their conditions."""
    events = list(events)
    keys: dict[str, object] = {}
    for event in events:
        for key, group in groups_of(event).items():
            keys.setdefault(key, group)
    key_list = list(keys)
    membership = np.column_stack([deck.mask(g) for g in keys.values()]) if keys else \
        np.zeros((len(deck.cards), 0), dtype=bool)
    cell_counts, cell_membership = partition(deck.counts, membership)
    # A group's count never exceeds its cards in the deck: saturating there is exact and keeps grids small.
    sizes = {key: int(deck.counts[deck.mask(group)].sum()) for key, group in keys.items()}
    conditions = []
    for event in events:
        own = list(groups_of(event))
        caps = {key: min(cap, sizes[key]) for key, cap in count_caps(event).items()}

        def holds(arrays, event=event, own=own):
            return evaluate(event, dict(zip(own, arrays)))

        conditions.append(exact.Condition(tuple(key_list.index(k) for k in own),
                                          tuple(caps[k] for k in own), holds))
    return Compiled(cell_counts, cell_membership, tuple(conditions), tuple(key_list))


def is_increasing(event: Event, negated: bool = False) -> bool:
    """Whether ``event`` can only turn from false to true as cards are added to a zone."""
    if isinstance(event, Count):
        if event.op in ("==", "!="):
            return False
        grows = event.op in (">=", ">")
        return grows != negated
    if isinstance(event, Not):
        return is_increasing(event.item, not negated)
    if isinstance(event, (And, Or)):
        return all(is_increasing(item, negated) for item in event.items)
    return False


@dataclass(frozen=True)
class Setup:
    """A question made ready for the engines: rules in force, events compiled against the deck."""

    profile: Profile
    deck: Deck
    events: tuple[Event, ...]
    keep_text: str | None
    keep_event: Event | None
    rule: str
    limit: int
    resource_text: str | None
    compiled: Compiled
    resource_target: float
    provenance: dict = field(default_factory=dict)

    @property
    def exact_capable(self) -> bool:
        """Whether the exact engine models these rules (no mulligan, or one bottom mulligan)."""
        return self.rule == "none" or (self.rule == "bottom" and self.limit == 1)

    def condition(self, i: int) -> exact.Condition:
        """Engine condition of event ``i``."""
        return self.compiled.conditions[i]

    @property
    def keep_condition(self) -> exact.Condition | None:
        """Engine condition of the keep rule."""
        return self.compiled.conditions[len(self.events)] if self.keep_event is not None else None

    def deal_spec(self, max_draws: int) -> DealSpec:
        """The simulation spec for these rules."""
        keys = self.compiled.group_keys
        resource = None
        if self.resource_text:
            resource = self.compiled.cell_membership[:, keys.index(parse_group(self.resource_text).key)]
        return DealSpec(
            cell_counts=self.compiled.cell_counts, table=self.compiled.cell_membership.astype(np.int8),
            group_keys=keys, hand_size=self.profile.hand_size, set_aside=self.profile.set_aside,
            max_draws=max_draws, mulligan=self.rule, mulligan_limit=self.limit, keep=self.keep_event,
            resource=resource, resource_target=self.resource_target)

    def drawable(self) -> int:
        """Cards left to draw after the set-aside cards and the opening hand."""
        return self.profile.library_size(self.deck.size)

    def groups(self) -> dict:
        """Every group the events, the keep rule and the resource group read, by key."""
        out: dict = {}
        for event in self.events + ((self.keep_event,) if self.keep_event is not None else ()):
            for key, group in groups_of(event).items():
                out.setdefault(key, group)
        if self.resource_text:
            group = parse_group(self.resource_text)
            out.setdefault(group.key, group)
        return out


def mulligan_settings(profile: Profile, *, keep: str | None, mulligan: bool, mulligan_rule: str | None,
                      mulligan_limit: int | None) -> tuple[str, int, str | None]:
    """The mulligan rule, limit and keep rule in force: the profile's unless replaced."""
    rule = profile.mulligan if mulligan_rule is None else check_choice(mulligan_rule, "mulligan_rule",
                                                                       MULLIGAN_RULES)
    if not isinstance(mulligan, bool):
        raise DeckstatError(f"{param('mulligan')} must be True or False, got {mulligan!r}")
    if not mulligan:
        rule = "none"
    if rule == "none" and keep is not None and mulligan:
        raise DeckstatError(f"{profile.name} has no mulligan rule, so a keep rule does not apply; "
                            f"choose one with {param('mulligan_rule')}")
    if keep is not None and not mulligan:
        raise DeckstatError(f"{param('keep')} and {param('mulligan', False)} contradict each other: without a "
                            "mulligan every first hand is kept, so no keep rule applies")
    if rule == "none":
        return rule, 0, None
    limit = check_optional_whole(mulligan_limit, "mulligan_limit", minimum=1)
    limit = limit if limit is not None else max(profile.mulligan_limit, 1)
    if rule == "vancouver" and limit >= profile.hand_size:
        raise DeckstatError(f"Vancouver mulligans shrink the hand by one each; {param('mulligan_limit')} can be "
                            f"at most {profile.hand_size - 1} with {profile.hand_size}-card hands")
    keep_text = keep if keep is not None else profile.keep
    if keep_text is None:
        raise DeckstatError(f"{profile.name} has no default keep rule; give one with {param('keep')}")
    return rule, limit, keep_text


def prepare(deck: Deck, game: str | Profile, events: Iterable[str], *, keep: str | None = None,
            mulligan: bool = True, mulligan_rule: str | None = None, mulligan_limit: int | None = None,
            resource: str | None = None) -> Setup:
    """Resolve the rules in force and compile ``events`` (and the keep rule) against ``deck``."""
    profile = get_profile(game)
    check_deck(deck)
    drawn = profile.drawn_deck(deck)
    texts = list(events)
    parsed = []
    for text in texts:
        event = parse_event(text)
        check_groups(drawn, event, profile, "event", text)
        parsed.append(event)
    rule, limit, keep_text = mulligan_settings(profile, keep=keep, mulligan=mulligan, mulligan_rule=mulligan_rule,
                                               mulligan_limit=mulligan_limit)
    if rule == "bottom" and limit > 1 and profile.set_aside + (limit + 1) * profile.hand_size > drawn.size:
        most = max(1, (drawn.size - profile.set_aside) // profile.hand_size - 1)
        raise DeckstatError(f"{param('mulligan_limit')} {limit} asks for {limit + 1} hands of {profile.hand_size} "
                            f"cards from the top of a {drawn.size}-card deck; it can be at most {most}")
    keep_event = None
    all_events = list(parsed)
    if keep_text is not None:
        keep_event = parse_event(keep_text, what="keep rule")
        check_groups(drawn, keep_event, profile, "keep rule", keep_text)
        all_events.append(keep_event)
    resource_text = resource if resource is not None else profile.resource_group
    target = 0.0
    if resource_text:
        group = parse_group(resource_text, what="resource group")
        check_groups(drawn, Count(group, ">=", 1), profile, "resource group", resource_text)
        all_events.append(Count(group, ">=", 1))
        target = drawn.count(group) / drawn.size
    compiled = compile_events(drawn, all_events)
    provenance = {"game": profile.id, "deck_source": drawn.source, "deck_size": drawn.size, "mulligan_rule": rule,
                  "mulligan_limit": limit, "keep": keep_text, "resource_group": resource_text,
                  "deckstat_version": __version__}
    return Setup(profile, drawn, tuple(parsed), keep_text, keep_event, rule, limit, resource_text, compiled,
                 target, provenance)


def each_event(texts: list[str], rules: dict, answer: Callable[[Setup], tuple[pd.DataFrame, pd.DataFrame, dict]],
               question: str) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """Answer a question event by event and stack the answers.

    Each event is compiled on its own with ``rules`` (the :func:`prepare`
    arguments), so its cells, and hence its simulated numbers for a given
    seed, do not depend on the other events asked with it.

    Returns
    -------
    table, summary : pandas.DataFrame
        The events' tables and summaries, one after the other.
    provenance : dict
    """
    tables, summaries, provenance = [], [], {}
    for text in texts:
        table, summary, provenance = answer(prepare(events=[text], **rules))
        tables.append(table)
        summaries.append(summary)
    provenance["question"] = question
    return pd.concat(tables, ignore_index=True), pd.concat(summaries, ignore_index=True), provenance


def choose_method(setup: Setup, method: str, needs_order: bool = False) -> str:
    """The engine for ``method``: ``auto`` picks exact whenever it models the question."""
    check_choice(method, "method", METHODS)
    capable = setup.exact_capable and not needs_order
    if method == "exact" and not capable:
        what = f"the {setup.rule} mulligan" if not setup.exact_capable else "this question"
        raise DeckstatError(f"the exact engine does not model {what}; use {param('method', 'simulate')}")
    if method == "auto":
        return "exact" if capable else "simulate"
    return method


def check_simulation(n_trials: object, precision: object, chunk_size: object, n_workers: object) -> None:
    """Check the simulation settings up front, whether or not the question ends up simulated."""
    check_optional_whole(n_trials, "n_trials", minimum=1)
    if precision is not None:
        check_half_width(precision)
        if n_trials is not None:
            raise DeckstatError(f"give {param('n_trials')} or {param('precision')}, not both: the simulation runs "
                                "a number of trials, or until the intervals are narrow enough")
    check_whole(chunk_size, "chunk_size", minimum=1)
    check_whole(n_workers, "n_workers", minimum=1)


def check_zone(zone: object) -> str:
    """A zone name (see :data:`deckstat.terms.ZONES`)."""
    return check_choice(zone, "zone", ZONES)


def turn_plan(setup: Setup, turns: object, seat: object, zone: str = "seen", *,
              turns_name: str = "turns") -> tuple[list[int], dict[str, list[int]]]:
    """The turns reported and, per seat, the cards drawn after the opening hand by each of them.

    Fixed zones (the kept hand, the set-aside cards) are reported at turn 0
    only. Turns whose draws the deck cannot supply are refused, naming the
    last turn it can.
    """
    profile = setup.profile
    turn_list = [0] if zone in FIXED_ZONES else check_turns(turns, turns_name)
    seats = check_seats(seat)
    drawable = setup.drawable()
    if drawable < 0:
        raise DeckstatError(f"the deck has {setup.deck.size} cards, fewer than the "
                            f"{profile.set_aside + profile.hand_size} dealt before turn 1")
    per_seat = {s: [profile.draws_by_turn(t, s) for t in turn_list] for s in seats}
    for seat_name, draws in per_seat.items():
        for t, d in zip(turn_list, draws):
            if d > drawable:
                last = profile.last_turn(setup.deck.size, seat_name)
                raise DeckstatError(f"turn {t} needs {d} draws for the {seat_name} player but only {drawable} "
                                    f"cards are left after the opening hand; {param(turns_name)} can go up to "
                                    f"turn {last}")
    return turn_list, per_seat


def zone_size(profile: Profile, zone: str, draws: int) -> int | None:
    """Cards in ``zone`` after ``draws`` draws (``None`` for ``bottom``, whose size depends on the mulligan)."""
    return {"seen": profile.hand_size + draws, "hand": profile.hand_size,
            "set_aside": profile.set_aside}.get(zone)


def all_draws(per_seat: dict[str, list[int]]) -> list[int]:
    """Every draw count any seat needs, sorted: one pass of an engine answers them all."""
    return sorted({d for draws in per_seat.values() for d in draws})
