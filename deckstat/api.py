"""The public Python API: decks and questions in, pandas DataFrames out."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from deckstat import exact
from deckstat.deck import Deck
from deckstat.errors import DeckstatError, ExpressionError
from deckstat.events import Event, NameGroup, count_caps, evaluate, groups_of, parse_event, to_text
from deckstat.profiles import SEATS, Profile, get_profile
from deckstat.text import suggest

ODDS_COLUMNS = ["turn", "seat", "zone", "event", "p", "method", "zone_size"]


def _version() -> str:
    from deckstat import __version__

    return __version__


def draw_deck(deck: Deck, profile: Profile) -> Deck:
    """Return the part of ``deck`` that is shuffled and drawn from under ``profile``.

    For games with one deck this is ``deck`` itself; for Licum it is the game deck.
    """
    if len(profile.parts) == 1:
        return deck
    part = profile.part()
    return deck.part(part.aliases, label=part.name)


def check_groups(deck: Deck, event: Event, profile: Profile, what: str, text: str) -> None:
    """Refuse bare words that match no card of the deck and no card type of the game."""
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
    cell_counts, cell_membership = exact.cells(deck.counts, membership)
    conditions = []
    for event in events:
        own = list(groups_of(event))
        caps = count_caps(event)

        def holds(arrays, event=event, own=own):
            return evaluate(event, dict(zip(own, arrays)))

        conditions.append(exact.Condition(tuple(key_list.index(k) for k in own),
                                          tuple(caps[k] for k in own), holds))
    return Compiled(cell_counts, cell_membership, tuple(conditions))


def _seats(seat: str) -> tuple[str, ...]:
    if seat in ("both", "all"):
        return SEATS
    if seat not in SEATS:
        raise DeckstatError(f"seat must be 'first', 'second' or 'both', got {seat!r}")
    return (seat,)


def _turns(turns: int | Iterable[int]) -> list[int]:
    values = [turns] if isinstance(turns, (int, np.integer)) else list(turns)
    if not values:
        raise DeckstatError("no turn asked for")
    for t in values:
        if not isinstance(t, (int, np.integer)) or t < 0:
            raise DeckstatError(f"turns must be whole numbers from 0, got {t!r}")
    return sorted({int(t) for t in values})


def resolve_keep(profile: Profile, keep: str | None, mulligan: bool) -> str | None:
    """Return the keep rule in force: ``None`` when there is no mulligan."""
    if not mulligan:
        return None
    if profile.mulligan == "none":
        if keep is not None:
            raise DeckstatError(f"{profile.name} has no mulligan rule, so a keep rule does not apply")
        return None
    if profile.mulligan_limit != 1:
        raise DeckstatError(f"the exact engine models one mulligan; {profile.name} allows "
                            f"{profile.mulligan_limit}")
    return keep if keep is not None else profile.keep


def odds(deck: Deck, game: str | Profile, event: str, *, turns: int | Iterable[int] = range(7),
         seat: str = "both", zone: str = "seen", keep: str | None = None, mulligan: bool = True,
         method: str = "exact") -> pd.DataFrame:
    """Probability that an event holds in a zone, by turn and seat.

    Parameters
    ----------
    deck : Deck
        The deck (for Licum, a table holding both decks; the game deck is drawn).
    game : str or Profile
        Game profile id (``"wankul"``, ``"duel-masters"``…) or a ``.toml`` profile path.
    event : str
        Event expression, e.g. ``"Terrain>=1 and [cost<=1]>=1"``.
    turns : int or iterable of int
        Turns to report; turn 0 is the kept opening hand, turn t the state
        after the player's draw step of their t-th turn.
    seat : {"both", "first", "second"}
        Which player's draws to follow.
    zone : {"seen", "hand", "set_aside", "bottom"}
        Where the cards are counted. ``hand`` and ``set_aside`` do not change
        with turns and are reported at turn 0 only.
    keep : str, optional
        Keep rule for the profile's mulligan (default: the profile's).
    mulligan : bool
        ``False`` keeps every first hand.
    method : {"exact"}
        ``exact``: the exact engine (see :mod:`deckstat.exact`).

    Returns
    -------
    pandas.DataFrame
        Columns ``turn``, ``seat``, ``zone``, ``event``, ``p``, ``method``,
        ``zone_size``; ``attrs`` records the game, deck, keep rule, the
        probability of keeping the first hand and the deckstat version.

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.load_deck("data/wankul/sample_deck.csv")  # doctest: +SKIP
    >>> deckstat.odds(deck, "wankul", "Terrain>=1", turns=range(3))  # doctest: +SKIP
    """
    profile = get_profile(game)
    if not isinstance(deck, Deck):
        raise DeckstatError(f"deck must be a Deck (see deckstat.load_deck), got {type(deck).__name__}")
    if method != "exact":
        raise DeckstatError(f"unknown method {method!r}; expected 'exact'")
    if zone not in exact.ZONES:
        raise DeckstatError(f"unknown zone {zone!r}; expected one of {', '.join(exact.ZONES)}"
                            f"{suggest(zone, exact.ZONES)}")
    drawn = draw_deck(deck, profile)
    parsed = parse_event(event)
    check_groups(drawn, parsed, profile, "event", event)
    keep_text = resolve_keep(profile, keep, mulligan)
    events = [parsed]
    if keep_text is not None:
        keep_event = parse_event(keep_text, what="keep rule")
        check_groups(drawn, keep_event, profile, "keep rule", keep_text)
        events.append(keep_event)
    compiled = compile_events(drawn, events)
    event_condition = compiled.conditions[0]
    keep_condition = compiled.conditions[1] if keep_text is not None else None
    turn_list = [0] if zone in ("hand", "set_aside") else _turns(turns)
    seats = _seats(seat)
    records = []
    set_aside = profile.set_aside
    hand_size = profile.hand_size
    drawable = drawn.size - set_aside - hand_size
    per_seat = {seat_name: [profile.draws_by_turn(t, seat_name) for t in turn_list] for seat_name in seats}
    for seat_name, draws in per_seat.items():
        for t, d in zip(turn_list, draws):
            if d > drawable:
                raise DeckstatError(f"turn {t} needs {d} draws for the {seat_name} player but only {drawable} "
                                    "cards are left after the opening hand; ask for fewer turns")
    # One engine pass answers every draw count; seats only pick different counts.
    all_draws = sorted({d for draws in per_seat.values() for d in draws})
    probs, p_keep = exact.zone_odds(compiled.cell_counts, compiled.cell_membership, event_condition,
                                    hand_size=hand_size, set_aside=set_aside, draws=all_draws, zone=zone,
                                    keep=keep_condition)
    by_draws = dict(zip(all_draws, probs))
    for seat_name, draws in per_seat.items():
        for t, d in zip(turn_list, draws):
            size = {"seen": hand_size + d, "hand": hand_size, "set_aside": set_aside}.get(zone, np.nan)
            records.append({"turn": t, "seat": seat_name, "zone": zone, "event": to_text(parsed),
                            "p": float(min(max(by_draws[d], 0.0), 1.0)), "method": "exact", "zone_size": size})
    frame = pd.DataFrame.from_records(records, columns=ODDS_COLUMNS)
    frame.attrs.update({
        "game": profile.id, "deck": drawn.source, "deck_size": drawn.size, "keep": keep_text,
        "p_keep": p_keep, "mulligan": keep_text is not None, "deckstat_version": _version(),
    })
    return frame
