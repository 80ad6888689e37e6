"""Questions about deck construction built on the odds engines: the resource ratio sweep.

:func:`ratio` answers "10, 11 or 12 Terrains?": it rebuilds the deck at each
resource count, keeping its size and its copy limits, and asks the questions
of :func:`deckstat.odds`, :func:`deckstat.when`, :func:`deckstat.deckout` and
:func:`deckstat.validate` about each version. :func:`plan_ratio` checks the
sweep and plans each count's questions (priced once, nothing computed);
:func:`answer_ratio` estimates and shapes them. No engine code lives here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from deckstat._validate import (
    check_choice,
    check_deck,
    check_events,
    check_probability,
    check_seats,
    check_turns,
    check_whole,
)
from deckstat.cards import card_hint
from deckstat.deck import Deck, attribute_column, card_rows
from deckstat.engines import runner
from deckstat.engines.progress import track
from deckstat.errors import DeckstatError, param
from deckstat.events import AttributeGroup, Count, NameGroup, parse_group
from deckstat.games.profiles import Profile, get_profile
from deckstat.i18n import N_, tr
from deckstat.play import build_model
from deckstat.questions._estimate import Part, Simulation, join_reasons
from deckstat.questions._setup import (
    check_groups,
    check_pooled,
    check_zone,
    choose_method,
    prepare,
    question_setups,
)
from deckstat.questions.curve import curve, last_play_turn, play_targets
from deckstat.questions.deckout import answer_mean_turns, plan_deckout
from deckstat.questions.odds import OddsPlan, answer_odds, check_switches, plan_odds, played_rows
from deckstat.questions.validate import validate
from deckstat.questions.when import WhenPlan, answer_when, plan_when
from deckstat.results import RatioResult, frame
from deckstat.schema import canonical_column
from deckstat.terms import FIXED_ZONES, MOST_TURN
from deckstat.text import fold

RATIO_COLUMNS = ["deck", "game", "event", "seat", "resource_count", "turn", "zone", "p", "ci_low", "ci_high",
                 "n_trials", "method", "is_current", "legal", "violations", "p_resource_in_hand", "p_flood_in_hand",
                 "mulligan_rate", "expected_first_resource_turn", "deckout_turn_first", "deckout_turn_second",
                 "target_status"]
SUMMARY_COLUMNS = ["deck", "game", "event", "seat", "zone", "group", "current_count", "target", "target_turn",
                   "decision", "recommended", "smallest_reaching", "smallest_reaching_legal", "flood", "method"]

#: The facts of a rebuilt deck that each row of the table carries, in the order a table shows them.
FACTS = ("legal", "p_resource_in_hand", "p_flood_in_hand", "mulligan_rate", "expected_first_resource_turn",
         "deckout_turn_first", "target_copies")
#: The facts that mean something when the events are counted among the set-aside cards (Duel Masters' shields):
#: the kept hand's screw and flood, the first resource turn and the deck-out turn are about the cards drawn, and
#: say nothing of what lies in the shields. The table keeps every column, computed as for any zone.
SET_ASIDE_FACTS = ("legal", "mulligan_rate", "target_copies")


def facts_for_zone(zone: str) -> tuple[str, ...]:
    """The facts of :data:`FACTS` that answer something about ``zone``, for a table to show.

    Examples
    --------
    >>> facts_for_zone("set_aside")
    ('legal', 'mulligan_rate', 'target_copies')
    >>> len(facts_for_zone("seen")) == len(FACTS)
    True
    """
    return SET_ASIDE_FACTS if zone == "set_aside" else FACTS


#: How the deck is rebuilt at each resource count (also stored in ``provenance["scaling"]``, in the language).
SCALING_RULE = N_(
    "The deck size stays constant and no card goes above the game's copy limit (a singleton deck stays "
    "singleton). With more {group} cards, each added copy goes to the {group} card furthest below the limit "
    "(fewest copies first, ties to the card listed first); once every one is at the limit, generic cards named "
    "{generic!r}, {generic2!r}… are added, each up to the limit. With fewer, each copy removed comes off the "
    "{group} card with the most copies (ties to the card listed last). The other cards of the drawn deck make up "
    "the difference the same way: copies are removed from those with the most copies first and added to those "
    "furthest below the limit first (ties: removed from the card listed last, added to the card listed first, so "
    "the top of the list changes last). A card brought to 0 copies leaves the deck.")
IGNORED_LIMIT = N_(" The deck breaks the copy limit as it is, so the rebuilt decks are not held to it (copies are "
                 "added to the cards with the fewest).")
FILLER_RULE = N_(" The filler cards {fillers} take the difference first, in that order, within the copy limit; the "
               "rest follows the rule above.")

#: A turn past the last one the deck can play, by the seat swept.
_PAST_LAST_TURN = {
    "first": N_("turn {turn} is past the last turn this {size}-card deck can play for the first player ({last}); "
                "{turns} and {target_turn} can go up to {last}"),
    "second": N_("turn {turn} is past the last turn this {size}-card deck can play for the second player ({last}); "
                 "{turns} and {target_turn} can go up to {last}"),
}

#: Rounding slack of exact probabilities when they are compared with a target.
EXACT_SLACK = 1e-12
#: Questions simulated for each resource count; each gets its own stream (2 was a separate mulligan run).
_STREAM_ODDS, _STREAM_HAND, _STREAM_WHEN, _STREAM_DECKOUT, _STREAM_CURVE = 0, 1, 3, 4, 5
#: Trials of the deck-out race at each count when no trial count is given. The sweep shows a mean turn: its
#: standard error is the turn's standard deviation / 89, at most 0.015 turn (95% interval ±0.03) on the Wankul
#: sample deck's default sweep, whose deck-out turns spread by 0.7 to 1.3 turns (sd) from 5 to 15 Terrains.
DECKOUT_TRIALS = 8_000
#: Default sweep: this many counts either side of the deck's own.
DEFAULT_SPAN = 5
#: Default target turn: the kept opening hand.
DEFAULT_TARGET_TURN = 0
#: Default turns of the event objective (turn 0 is the kept opening hand).
DEFAULT_TURNS = range(6)
#: What the sweep compares counts by: the events' odds, or how soon a card can be played (:func:`deckstat.curve`).
OBJECTIVES = ("event", "curve")
#: Columns the table and the summary gain under the curve objective.
CURVE_TABLE_COLUMNS = ["target_copies", "play_model", "policy"]
CURVE_SUMMARY_COLUMNS = ["objective", "best", "best_decision", "close_to_best", "play_model", "policy"]


def default_flood(hand_size: int) -> int:
    """The default flood threshold: more than half the opening hand.

    A hand holding more resource cards than other cards has more to play
    with than to play; with 5 cards that is 3 or more.

    Examples
    --------
    >>> default_flood(5), default_flood(7)
    (3, 4)
    """
    return hand_size // 2 + 1


def _add(counts: np.ndarray, caps: np.ndarray, rows: Sequence[int], n: int) -> int:
    """Add ``n`` copies among ``rows``, each to the card furthest below its cap; return the copies left over.

    Ties go to the card with fewer copies, then to the one listed first in ``rows``.
    """
    for placed in range(n):
        best, best_key = None, None
        for position, i in enumerate(rows):
            room = caps[i] - counts[i]
            if room <= 0:
                continue
            key = (-room, counts[i], position)
            if best_key is None or key < best_key:
                best, best_key = i, key
        if best is None:
            return n - placed
        counts[best] += 1
    return 0


def _remove(counts: np.ndarray, rows: Sequence[int], n: int) -> int:
    """Remove ``n`` copies among ``rows``, each from the card with the most copies (ties: listed last)."""
    for removed in range(n):
        best, best_key = None, None
        for position, i in enumerate(rows):
            if counts[i] <= 0:
                continue
            key = (-counts[i], -position)
            if best_key is None or key < best_key:
                best, best_key = i, key
        if best is None:
            return n - removed
        counts[best] -= 1
    return 0


def _caps(table: pd.DataFrame, profile: Profile) -> np.ndarray:
    """Copies each row may hold under the drawn part's ``copies`` rules by name or printing (inf without one).

    A row is one printing of a name, so a limit by printing caps each row; a
    limit by card or by name caps each row too, which is exact unless the deck
    holds several printings of one name that the limit counts together (the
    sweep's legality column still checks the whole rule).
    """
    caps = np.full(len(table), np.inf)
    rules = [r for r in profile.part().rules if r.kind == "copies"
             and (r.params.get("by") in ("card", "printing")
                  or canonical_column(r.params.get("by", "name")) == "name")]
    if not rules or table.empty:
        return caps
    probe = Deck.from_table(table.assign(count=1))
    for rule in rules:
        rows = probe.mask(rule.params["group"]) if "group" in rule.params else np.ones(len(table), dtype=bool)
        caps[rows] = np.minimum(caps[rows], rule.params["max"])
    return caps


def _limit_text(caps: np.ndarray) -> str:
    finite = {int(c) for c in caps if np.isfinite(c)}
    if len(finite) != 1:
        return tr("the copy limits")
    limit = finite.pop()
    return tr("one copy of a card (singleton)") if limit == 1 else tr("at most {limit} copies of a card", limit=limit)


def _room(counts: np.ndarray, caps: np.ndarray, rows: Sequence[int]) -> float:
    return float(sum(max(caps[i] - counts[i], 0) for i in rows))


@dataclass(frozen=True)
class _Plan:
    """How to rebuild a deck at any resource count."""

    table: pd.DataFrame
    source: str
    base: np.ndarray
    resource: tuple[int, ...]
    other: tuple[int, ...]
    caps: np.ndarray
    fillers: tuple[int, ...]
    current: int
    size: int
    label: str
    game: str
    generic: dict | None
    generic_stem: str
    generic_cap: float
    no_generic: str
    ignore_limit: bool

    @property
    def lowest(self) -> int:
        """The fewest resource cards the other cards can make room for within their copy limits."""
        return max(0, int(self.current - min(_room(self.base, self.caps, self.other), self.current)))

    @property
    def highest(self) -> int:
        """The most resource cards the deck can hold (generic cards included)."""
        if self.generic is not None:
            return self.size
        return int(min(self.size, self.current + _room(self.base, self.caps, self.resource)))

    def generic_names(self, n: int) -> list[str]:
        """Names of ``n`` generic resource cards, none spelled like a card of the deck."""
        taken = {fold(name) for name in self.table["name"]}
        names, i = [], 1
        while len(names) < n:
            name = f"{self.generic_stem} {i}"
            if fold(name) not in taken:
                names.append(name)
            i += 1
        return names

    def check(self, k: int) -> None:
        """Refuse a count the deck cannot be rebuilt at within its size and copy limits."""
        if k > self.size:
            raise DeckstatError(tr("{count} {group} cards do not fit in a {size}-card deck; sweep at most {size}",
                                   count=k, group=self.label, size=self.size))
        if k > self.highest:
            if self.current == 0:
                raise DeckstatError(tr("the deck has no {group} card, so there is nothing to scale up; {remedy}",
                                       group=self.label, remedy=self.no_generic))
            raise DeckstatError(tr("{game}: above {highest} {group} cards the deck's {group} cards would break "
                                   "{limits}, and {remedy}; sweep up to {highest}", game=self.game,
                                   highest=self.highest, group=self.label, limits=_limit_text(self.caps),
                                   remedy=self.no_generic))
        if k < self.lowest:
            others = len({fold(self.table['name'].iloc[i]) for i in self.other})
            if not others:
                raise DeckstatError(tr("{game}: every card of the deck is a {group} card, so none can make room for "
                                       "fewer; sweep from {lowest}", game=self.game, group=self.label,
                                       lowest=self.lowest))
            raise DeckstatError(tr("{game}: below {lowest} {group} cards the deck's {others} other cards cannot fill "
                                   "its {size} places with {limits}; sweep from {lowest}", game=self.game,
                                   lowest=self.lowest, group=self.label, others=others, size=self.size,
                                   limits=_limit_text(self.caps)))

    def deck_at(self, k: int) -> tuple[Deck, list[str]]:
        """The deck with ``k`` resource cards and the same drawn-deck size, and the generic cards it holds."""
        self.check(k)
        counts = self.base.copy()
        table, caps, resource = self.table, self.caps, list(self.resource)
        added: list[str] = []
        delta = k - self.current
        if delta > 0:
            left = _add(counts, caps, resource, delta)
            if left:
                n_new = 1 if not np.isfinite(self.generic_cap) else math.ceil(left / self.generic_cap)
                added = self.generic_names(n_new)
                rows = pd.DataFrame([{**{c: None for c in table.columns}, **self.generic, "name": name, "count": 0}
                                     for name in added]).astype(object)
                table = pd.concat([table, rows], ignore_index=True)
                new = list(range(len(counts), len(counts) + n_new))
                counts = np.append(counts, np.zeros(n_new, dtype=np.int64))
                caps = np.append(caps, np.full(n_new, self.generic_cap))
                _add(counts, caps, new, left)
            left = delta
            for i in self.fillers:
                taken = min(int(counts[i]), left)
                counts[i] -= taken
                left -= taken
            _remove(counts, self.other, left)
        elif delta < 0:
            _remove(counts, resource, -delta)
            left = -delta
            for i in self.fillers:
                given = int(min(max(caps[i] - counts[i], 0), left))
                counts[i] += given
                left -= given
            _add(counts, caps, self.other, left)
        rebuilt = table.assign(count=counts)
        return Deck.from_table(rebuilt[counts > 0], source=self.source), added


def _plan(deck: Deck, profile: Profile, group: str, fillers: Sequence[str]) -> _Plan:
    parsed = parse_group(group, what="group")
    label = parsed.label
    deck = deck.with_synonyms(profile.synonyms)
    drawn = profile.drawn_deck(deck)
    table = deck.cards.copy()
    if len(profile.parts) == 1:
        in_part = np.ones(len(table), dtype=bool)
    else:
        aliases = {fold(a) for a in profile.part().aliases}
        in_part = np.array([fold(v) in aliases for v in table["deck"]], dtype=bool)
    is_resource = deck.mask(parsed) & in_part
    resource = tuple(int(i) for i in np.flatnonzero(is_resource))
    other = tuple(int(i) for i in np.flatnonzero(in_part & ~is_resource))
    caps = _caps(table, profile)
    # A deck already over the limit (a sketch such as "40 Personnage") is rebuilt without it.
    ignore_limit = bool((deck.counts[in_part] > caps[in_part]).any())
    if ignore_limit:
        caps = np.full(len(table), np.inf)
    filler_rows = []
    for filler in fillers:
        # A printing is named by its label first ("POLICIER" is the plain one next to "POLICIER (holo)"), then by
        # any other reference deckstat prints or reads for it ("VENDEUR #35", "CT #83").
        candidates = [i for i in range(len(table)) if in_part[i] and fold(deck.labels[i]) == fold(filler)] or \
            [i for i in card_rows(deck, filler) if in_part[i]]
        if not candidates:
            raise DeckstatError(tr("{option} {filler!r} is not a card of the deck{hint}", option=param("filler"),
                                   filler=filler, hint=card_hint(deck, filler)))
        if len(candidates) > 1:
            shown = ", ".join(repr(deck.labels[i]) for i in candidates)
            raise DeckstatError(tr("{option} {filler!r} names {count} printings of the deck ({printings}); name one "
                                   "of them", option=param("filler"), filler=filler, count=len(candidates),
                                   printings=shown))
        if is_resource[candidates[0]]:
            raise DeckstatError(tr("filler {filler!r} is itself a {group} card; choose a card outside {group}",
                                   filler=filler, group=label))
        if candidates[0] not in filler_rows:
            filler_rows.append(candidates[0])
    generic, stem, reason = _generic(deck, table, resource, parsed, profile)
    generic_cap = np.inf
    if generic is not None and not ignore_limit:
        row = {**{c: None for c in table.columns}, **generic, "name": f"{stem} 1", "count": 1}
        generic_cap = float(_caps(pd.DataFrame([row]).astype(object), profile)[0])
    return _Plan(table=table, source=deck.source, base=deck.counts.copy(), resource=resource, other=other, caps=caps,
                 fillers=tuple(filler_rows), current=int(deck.counts[list(resource)].sum()), size=drawn.size,
                 label=label, game=profile.name, generic=generic, generic_stem=stem, generic_cap=generic_cap,
                 no_generic=reason, ignore_limit=ignore_limit)


def _generic(deck: Deck, table: pd.DataFrame, resource: tuple[int, ...], parsed,
             profile: Profile) -> tuple[dict | None, str, str]:
    """What a generic resource card carries, its name stem, and why there is none when there is none.

    For a card type of the game it is a card of that type; otherwise it takes
    the type and the grouping attribute (or tags) of the first card of the
    group in the deck, and nothing else.
    """
    types = {fold(t): t for t in profile.card_types}
    label = parsed.label
    if isinstance(parsed, NameGroup) and parsed.key in types:
        template, stem = {"type": types[parsed.key]}, f"{types[parsed.key]} générique"
    elif resource:
        first = table.iloc[resource[0]]
        columns = ["type"]
        if isinstance(parsed, NameGroup):
            columns.append("tags")
        elif isinstance(parsed, AttributeGroup):
            columns.append(attribute_column(deck, parsed.attribute))
        template = {c: first[c] for c in columns if c in table.columns}
        stem = f"Carte générique {label}"
    else:
        if not profile.card_types:
            return None, "", tr("add one to the deck, or sweep a card type of {game} (none listed)", game=profile.name)
        return None, "", tr("add one to the deck, or sweep a card type of {game} ({types})", game=profile.name,
                            types=", ".join(profile.card_types))
    if len(profile.parts) > 1:
        template["deck"] = profile.part().aliases[0]
    row = {**{c: None for c in table.columns}, **template, "name": f"{stem} 1", "count": 1}
    if not Deck.from_table(pd.DataFrame([row]).astype(object)).mask(parsed)[0]:
        return None, "", tr("{group} names cards, not a type or attribute a generic card could carry", group=label)
    return template, stem, ""


def with_resource_count(deck: Deck, game: str | Profile, count: int, *, group: str | None = None,
                        filler: str | Sequence[str] | None = None) -> Deck:
    """Return ``deck`` rebuilt with ``count`` cards of the resource group, at the same size.

    The rule is :data:`SCALING_RULE`; see :func:`ratio`.

    Parameters
    ----------
    deck : Deck
    game : str or Profile
    count : int
        Resource cards wanted.
    group : str, optional
        Resource group (default: the profile's ``resource_group``).
    filler : str or list of str, optional
        Cards that take the difference first, in the order given.

    Returns
    -------
    Deck

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "Plaine", "count": 3, "type": "Terrain"},
    ...                                  {"name": "Forêt", "count": 2, "type": "Terrain"},
    ...                                  {"name": "Héros", "count": 3, "type": "Personnage"},
    ...                                  {"name": "Voleur", "count": 2, "type": "Personnage"}])
    >>> rebuilt = with_resource_count(deck, "wankul", 7)
    >>> dict(zip(rebuilt.cards["name"], rebuilt.counts.tolist()))
    {'Plaine': 3, 'Forêt': 3, 'Héros': 2, 'Voleur': 1, 'Terrain générique 1': 1}
    """
    profile = get_profile(game)
    check_deck(deck)
    count = check_whole(count, "count")
    group = _group(profile, group)
    return _plan(deck, profile, group, _fillers(filler)).deck_at(count)[0]


def legal_counts(deck: Deck, game: str | Profile, *, group: str | None = None, n: int = 2 * DEFAULT_SPAN + 1,
                 reach: int = 4 * DEFAULT_SPAN) -> tuple[int, list[int]]:
    """The deck's own resource count, and the ``n`` counts nearest to it at which the rebuilt deck is legal.

    Each count within ``reach`` of the deck's own is rebuilt as :func:`ratio` rebuilds it and checked
    against the profile's construction rules; the nearest legal ones are kept (the smaller first on a tie).

    Parameters
    ----------
    deck : Deck
    game : str or Profile
    group : str, optional
        Resource group (default: the profile's ``resource_group``).
    n : int
        Legal counts wanted.
    reach : int
        How far from the deck's own count to look.

    Returns
    -------
    tuple of (int, list of int)
        The deck's own count, and the legal counts in increasing order (empty when none is legal).

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.load_deck(DATA / "wankul" / "sample_deck.csv")
    >>> legal_counts(deck, "wankul")  # Wankul asks at least one Terrain per 5 cards: 10 in 50
    (10, [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20])
    """
    profile = get_profile(game)
    check_deck(deck)
    group = _group(profile, group)
    plan = _plan(deck, profile, group, [])
    # As ratio's own default sweep: no count that leaves the deck without the group's cards when events need them.
    low = max(plan.lowest, 0 if _survives_zero(parse_group(group, what="group"), profile) else 1)
    nearest = sorted(range(max(low, plan.current - reach), min(plan.highest, plan.current + reach) + 1),
                     key=lambda k: (abs(k - plan.current), k))
    legal: list[int] = []
    for k in nearest:
        if len(legal) == n:
            break
        if validate(plan.deck_at(k)[0], profile).legal:
            legal.append(k)
    return plan.current, sorted(legal)


def _fillers(filler: str | Sequence[str] | None) -> list[str]:
    if filler is None:
        return []
    names = [filler] if isinstance(filler, str) else list(filler)
    if not all(isinstance(n, str) and n.strip() for n in names):
        raise DeckstatError(tr("{name} must name cards of the deck, got {value!r}", name=param("filler"), value=filler))
    return names


def _group(profile: Profile, group: str | None) -> str:
    if group is None:
        if not profile.resource_group:
            raise DeckstatError(tr("{game} has no resource group; name the cards to sweep with {option}, e.g. "
                                   "Terrain", game=profile.name, option=param("group")))
        return profile.resource_group
    if not isinstance(group, str) or not group.strip():
        raise DeckstatError(tr("{name} must be a card group such as Terrain or [cost<=1], got {value!r}",
                               name=param("group"), value=group))
    return group


def check_ratio_zone(profile: Profile, zone: object) -> str:
    """A zone of :data:`deckstat.terms.ZONES`, or the profile's name for its set-aside cards (``shields``)."""
    zone = check_zone(zone, profile)
    if zone == "set_aside" and not profile.set_aside:
        raise DeckstatError(tr("{game} sets no card aside, so {option} set_aside is always empty", game=profile.name,
                               option=param("zone")))
    return zone


def _violations(report: pd.DataFrame) -> str:
    parts = []
    for row in report.itertuples(index=False):
        text = tr("{subject}: {found}, allowed {allowed}", subject=row.subject, found=row.found, allowed=row.allowed)
        parts.append(text if row.level == "error" else tr("warning: {text}", text=text))
    return join_reasons(parts) if parts else ""


def _status(p: float, low: float, high: float, target: float, method: str) -> str:
    if method == "exact":
        return "reached" if p >= target - EXACT_SLACK else "not reached"
    if low >= target:
        return "reached"
    if high < target:
        return "not reached"
    return "undecided"


def _decide(statuses: dict[int, str]) -> tuple[int | None, str]:
    """The recommended count and the kind of decision: ``decided``, ``none`` or ``undecided``."""
    for k in sorted(statuses):
        if statuses[k] == "reached":
            return k, "decided"
        if statuses[k] == "undecided":
            return None, "undecided"
    return None, "none"


def check_target(target: object, target_turn: object, turns: list[int]) -> tuple[float | None, int]:
    """The ``target`` probability and the turn it is checked at, which must be one of ``turns``."""
    if target is not None:
        target = check_probability(target, "target")
    if target_turn is None:
        if target is not None and DEFAULT_TARGET_TURN not in turns:
            raise DeckstatError(tr("the target is checked in the kept opening hand (turn 0) unless {option} says "
                                   "otherwise, and turn 0 is not one of the turns asked ({turns}); add it or give "
                                   "{option}", option=param("target_turn"), turns=", ".join(map(str, turns))))
        return target, DEFAULT_TARGET_TURN
    if target_turn not in turns:
        raise DeckstatError(tr("{option} {turn!r} is not one of the turns asked ({turns})", option=param("target_turn"),
                               turn=target_turn, turns=", ".join(map(str, turns))))
    return target, target_turn


@dataclass(frozen=True)
class _Goal:
    """What the curve objective plays: one card (every printing of its name) or any card of a group."""

    card: str | None
    group: str | None
    play_model: str
    policy: str
    #: The opponent's deck at every count (None: a copy of the deck rebuilt at that count).
    opponent: Deck | None = None

    @property
    def label(self) -> str:
        """The card or group as given."""
        return self.card if self.card is not None else self.group

    @property
    def event(self) -> str:
        """How the table's ``event`` column names the objective."""
        return f"{self.label} playable"

    def copies(self, drawn: Deck) -> int:
        """Copies of the card, or cards of the group, in ``drawn`` (0 when rebuilding removed them all)."""
        if self.group is not None:
            return int(drawn.counts[drawn.mask(parse_group(self.group, what="group"))].sum())
        return int(drawn.counts[card_rows(drawn, self.card)].sum())


def _curve_goal(deck: Deck, profile: Profile, *, event, zone: str, turns, target_turn, seat: str, card, curve_group,
                policy, keep, mulligan, opponent: Deck | None = None) -> tuple[_Goal, list[int], int]:
    """Check the curve objective's request on the deck as it is; return it with its turns and target turn.

    Turns default to ``1..target_turn`` and the target turn to the last turn asked; one of them is needed.
    """
    if event is not None:
        raise DeckstatError(tr("{event} is asked by the event objective; with {curve} the sweep asks when {card} can "
                               "be played", event=param("event"), curve=param("objective", "curve"),
                               card=param("card")))
    if zone != "seen":
        raise DeckstatError(tr("{zone} counts the event objective's cards; with {curve} a card is played from the "
                               "hand", zone=param("zone"), curve=param("objective", "curve")))
    if (card is None) == (curve_group is None):
        raise DeckstatError(tr("{curve} needs the card to play: {card} (a card name) or {group} (a group such as "
                               "\"[race=Dragon]\"), one of them", curve=param("objective", "curve"),
                               card=param("card"), group=param("curve_group")))
    for name, value in (("card", card), ("curve_group", curve_group)):
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise DeckstatError(tr("{name} must be a card name or a group expression, got {value!r}",
                                   name=param(name), value=value))
    if isinstance(turns, range) and turns == DEFAULT_TURNS:
        if target_turn is None:
            raise DeckstatError(tr("{curve} needs the turn it is played by: give {target_turn} (e.g. 6), or {turns}, "
                                   "whose last turn is used", curve=param("objective", "curve"),
                                   target_turn=param("target_turn"), turns=param("turns")))
        turn_list = list(range(1, check_whole(target_turn, "target_turn", minimum=1, maximum=MOST_TURN) + 1))
    else:
        turn_list = check_turns(turns)
    if not turn_list or turn_list[0] < 1:
        raise DeckstatError(tr("{turns} start at turn 1 with {curve}: a card is played in a turn, not in the opening "
                               "hand", turns=param("turns"), curve=param("objective", "curve")))
    target_turn = turn_list[-1] if target_turn is None else target_turn
    drawn = profile.drawn_deck(deck).with_synonyms(profile.synonyms)
    # The card must be in the deck as it is, and the turns within what its (constant) size allows.
    play_targets(drawn, profile, card, curve_group)
    last = last_play_turn(profile, drawn.size, seat)
    if turn_list[-1] > last:
        raise DeckstatError(tr(_PAST_LAST_TURN[seat], turn=turn_list[-1], size=drawn.size, last=last,
                               turns=param("turns"), target_turn=param("target_turn")))
    if opponent is not None:
        check_deck(opponent, "opponent")
    rival = None if opponent is None else profile.drawn_deck(opponent).with_synonyms(profile.synonyms)
    model = build_model(drawn, profile, policy, opponent=rival)
    setup = prepare(deck, profile, [], keep=keep, mulligan=mulligan, allow_absent=True)
    if setup.rule not in ("none", "bottom"):
        raise DeckstatError(tr("playability curves model the bottom mulligan or none, not {rule}; pass {option}",
                               rule=setup.rule, option=param("mulligan", False)))
    goal = _Goal(card=card.strip() if card is not None else None,
                 group=curve_group.strip() if curve_group is not None else None, play_model=model.kind,
                 policy=model.policy, opponent=opponent)
    return goal, turn_list, target_turn


def _best(at_turn: pd.DataFrame) -> dict:
    """The legal count with the highest P at the target turn, and whether the sweep tells it apart from the others.

    Exact values tie within :data:`EXACT_SLACK`: the smallest tied count is the best and the others are named
    (``decided``). A simulated best is ``undecided`` when another legal count's 95% interval overlaps its own
    (those counts are named); ``none`` when no count swept is legal.
    """
    legal = at_turn[at_turn["legal"].astype(bool)].sort_values("resource_count")
    if legal.empty:
        return {"best": None, "best_decision": "none", "close_to_best": ""}
    top = float(legal["p"].max())
    exact_rows = (legal["method"] == "exact").all()
    if exact_rows:
        tied = legal[legal["p"] >= top - EXACT_SLACK]
        best = int(tied["resource_count"].iloc[0])
        close = [int(k) for k in tied["resource_count"].iloc[1:]]
        decision = "decided"
    else:
        best_row = legal[legal["p"] == top].iloc[0]
        best = int(best_row["resource_count"])
        others = legal[legal["resource_count"] != best]
        close = [int(r.resource_count) for r in others.itertuples(index=False)
                 if r.ci_high >= best_row["ci_low"] and r.ci_low <= best_row["ci_high"]]
        decision = "undecided" if close else "decided"
    return {"best": best, "best_decision": decision, "close_to_best": ", ".join(map(str, close))}


@runner.pooled
def ratio(deck: Deck, game: str | Profile, *, counts: Iterable[int] | None = None, group: str | None = None,
          filler: str | Sequence[str] | None = None, event: str | Sequence[str] | None = None,
          turns: int | Iterable[int] = DEFAULT_TURNS, seat: str = "first", zone: str = "seen",
          target: float | None = None, target_turn: int | None = None, flood: int | None = None,
          keep: str | None = None, mulligan: bool = True, method: str = "auto", n_trials: int | None = None, rng=None,
          chunk_size: int = runner.DEFAULT_CHUNK, n_workers: int = 1, allow_absent: bool = False,
          objective: str = "event", card: str | None = None, curve_group: str | None = None,
          policy: str | None = None, effects: bool = True, sides: bool = True,
          opponent: Deck | None = None) -> RatioResult:
    """Sweep the number of resource cards ("10, 11 or 12 Terrains?") at a constant deck size.

    At each resource count the deck is rebuilt (see *Rebuilding* below),
    checked with :func:`deckstat.validate`, and asked: P(event) by turn in
    ``zone`` (:func:`deckstat.odds`), the screw and flood sides of the kept
    hand (P(at least one resource card), P(at least ``flood``)), the mulligan
    rate, the expected first turn with a resource card
    (:func:`deckstat.when`) and the mean deck-out turn
    (:func:`deckstat.deckout`).

    Rebuilding
    ----------
    The deck size stays constant and no card goes above the game's copy
    limit (unless the deck breaks it as it is), so a singleton game's deck
    stays singleton. With more resource
    cards, each added copy goes to the resource card furthest below the limit
    (fewest copies first, ties to the card listed first); once every one is
    at the limit, generic cards are added (``"Terrain générique 1"``,
    ``"Terrain générique 2"``…, each up to the limit: for a card type of the
    game a card of that type, otherwise a card with only the type and the
    grouping attribute of the group's first card). With fewer, copies come
    off the resource cards with the most copies (ties to the card listed
    last). The other cards of the drawn deck make up the difference the same
    way: removed from the most copies first, added to those furthest below
    the limit first, so the top of the list changes last. ``filler`` cards
    take the difference first, in the order given, within the limit. A count
    that cannot be built (fewer resource cards than the other cards can make
    room for within the limit, e.g. fewer TERRAIN cards than a singleton JdG
    deck has; more than the limit allows when no generic card fits the
    group) is refused with the range that can; the default range stops
    there. For games with two decks (Licum) only the drawn deck changes.
    ``provenance["scaling"]`` states the rule and ``provenance["added_cards"]``
    the generic cards.

    Parameters
    ----------
    deck : Deck
    game : str or Profile
        Game profile id or ``.toml`` profile path.
    counts : iterable of int, optional
        Resource counts to sweep (default: the deck's own count ± 5, within
        what can be built).
    group : str, optional
        The resource group (default: the profile's ``resource_group``, e.g.
        ``Terrain`` for Wankul).
    filler : str or list of str, optional
        Cards that take the difference first.
    event : str or list of str, optional
        Event(s) asked by turn (default: ``"<group> >= 1"``).
    turns : int or iterable of int
        Turns reported (turn 0 is the kept opening hand); only turn 0 for the
        fixed zones ``hand`` and ``set_aside``. Default 0..5; under the curve
        objective turns start at 1 and default to ``1..target_turn``.
    seat : {"first", "second"}
        Whose draws.
    zone : {"seen", "hand", "set_aside", "bottom"}
        Where the events are counted, as in :func:`deckstat.odds`; the
        profile's name for its set-aside cards is accepted (Duel Masters
        ``"shields"``).
    target : float, optional
        A probability: name the smallest legal count whose P(event at
        ``target_turn``) reaches it, for each event.
    target_turn : int, optional
        Turn of the target (default 0: the kept opening hand, the question
        players ask of a count). Under the curve objective, the turn ``T`` of
        P(playable by turn T) that the best count maximises (default: the
        last of ``turns``; one of the two is needed).
    flood : int, optional
        Resource cards in the kept hand counted as a flood (default: more
        than half the hand, 3 of 5; see :func:`default_flood`).
    keep, mulligan, method, n_trials, rng, chunk_size, n_workers
        As in :func:`deckstat.odds`. Every question at every count has its own
        random stream spawned from ``rng`` and the count, so a count gets the
        same numbers whatever the other counts swept; the deck-out race too,
        even when everything else is exact.
    allow_absent : bool
        Accept groups (of the events or the keep rule) that match no card at
        any count swept. A group that matches cards at some counts only (the
        swept group at 0, the other cards when the sweep reaches the deck
        size) is always accepted.
    objective : {"event", "curve"}
        What each count is asked: ``event`` (the default) P(event) by turn;
        ``curve`` P(``card`` is playable on or before each turn) from
        :func:`deckstat.curve` under the game's play model, and the count
        that maximises it at ``target_turn`` (see *Curve objective*).
    card : str, optional
        Curve objective: the card to play (every printing of the name; a
        label such as ``"VENDEUR #35"`` for one printing).
    curve_group : str, optional
        Curve objective: a group expression instead of ``card``; playable
        when any of its cards is.
    policy : str, optional
        Curve objective: a policy of the play model (default: the
        profile's; ``deckstat games show`` lists them).
    effects, sides : bool
        As in :func:`deckstat.odds`: beside P(event), each count's P with
        Wankul's drought draws and the deck's effects played (``played``).
    opponent : Deck, optional
        Curve objective, a game played with both players' turns (Wankul):
        the opponent's deck at every count (default: a copy of the deck
        rebuilt at that count, so the opponent changes with the count).

    Curve objective
    ---------------
    At each count the rebuilt deck is asked :func:`deckstat.curve` with the
    same seat, keep rule, mulligan, policy, method and trials: exact where the
    play model reduces to the cards seen, simulated otherwise from the
    count's own stream (the root seed's spawn key + ``(count, 5)``), so a
    count's numbers do not depend on the other counts swept. The table's
    ``event`` column reads ``"<card> playable"``, with ``target_copies``
    (the card's copies in that deck), ``play_model`` and ``policy``. The
    card is rebuilt like any other: when it belongs to the swept group its
    copies go up and down with the count (a count that leaves it no copy
    gives 0), otherwise it may lose or gain copies as one of the other cards
    that make up the difference (name other cards as ``filler`` to keep
    it as it is). The summary's
    ``best`` is the legal count with the highest P at ``target_turn``.
    Exact values within 1e-12 of each other tie: ``best`` is the smallest of
    them and ``close_to_best`` names the others (``best_decision``
    ``decided``). With simulated values, a legal count whose 95% interval
    overlaps the best's cannot be told apart from it: ``best`` is the point
    estimate's arg max, ``close_to_best`` names those counts and
    ``best_decision`` is ``undecided`` (``none``: no legal count). A
    ``target`` works as with events: the smallest legal count whose
    P(playable by ``target_turn``) reaches it is ``recommended``.

    Returns
    -------
    RatioResult
        ``table``: one row per event, resource count and turn: ``p`` with its
        interval, and the facts of the rebuilt deck: ``is_current`` (the
        deck's own count), ``legal``, ``violations`` (``""`` when legal),
        ``p_resource_in_hand`` (screw side: at least one resource card in the
        kept hand), ``p_flood_in_hand`` (at least ``flood``),
        ``mulligan_rate`` (the first hand is put back; no such column when
        the rules in force have no mulligan), ``expected_first_resource_turn``
        (mean first turn with a resource card among the cards seen, followed
        to the last turn the deck allows; NaN at count 0),
        ``deckout_turn_first`` and ``deckout_turn_second`` (mean deck-out
        turns: simulated under a drought rule, from ``n_trials`` races or
        :data:`DECKOUT_TRIALS` (standard error: the turn's standard deviation
        / 89, about 0.01 turn), exact otherwise; NaN where running out has no
        effect), ``target_status`` (``reached``, ``not
        reached`` or ``undecided`` at the target turn). ``summary``: per
        event, the ``decision`` among legal decks (``decided``, ``none``,
        ``undecided`` or ``no target``), the ``recommended`` count (always a
        legal deck), and ``smallest_reaching``, the smallest count reaching
        the target legal or not, with ``smallest_reaching_legal``.
        ``provenance["methods"]`` says how each column was computed.

    Notes
    -----
    The target decision is exact with exact results (up to a rounding slack
    of 1e-12). With simulated results a count is *reached* when its 95%
    interval's lower end is at least the target, *not reached* when its upper
    end is below it, *undecided* otherwise; the recommendation is the smallest
    reached legal count provided every smaller legal count is not reached,
    otherwise the decision is undecided.
    :func:`deckstat.present.format.ratio_decision` writes the decision as a
    sentence.

    Examples
    --------
    >>> import deckstat
    >>> cards = ([{"name": f"Terrain {i}", "count": 2, "type": "Terrain"} for i in range(5)]
    ...          + [{"name": f"Perso {i}", "count": 2, "type": "Personnage"} for i in range(20)])
    >>> sweep = deckstat.ratio(deckstat.Deck.from_table(cards), "wankul", counts=range(8, 15), turns=[0],
    ...                        target=0.95)
    >>> sweep.table[["resource_count", "legal", "p"]].round(4).values.tolist()[2:5]
    [[10, True, 0.9175], [11, True, 0.9381], [12, True, 0.954]]
    >>> sweep.summary[["recommended", "smallest_reaching"]].values.tolist()
    [[12, 12]]
    """
    simulation = Simulation.checked(method=method, n_trials=n_trials, rng=rng, chunk_size=chunk_size,
                                    n_workers=n_workers)
    plan = plan_ratio(deck, game, counts=counts, group=group, filler=filler, event=event, turns=turns, seat=seat,
                      zone=zone, target=target, target_turn=target_turn, flood=flood, keep=keep, mulligan=mulligan,
                      allow_absent=allow_absent, objective=objective, card=card, curve_group=curve_group,
                      policy=policy, simulation=simulation, effects=effects, sides=sides, opponent=opponent)
    return answer_ratio(plan, simulation)


@dataclass(frozen=True)
class CountPlan:
    """One resource count of a sweep, checked and priced: its deck and the plan of each question asked of it.

    Attributes
    ----------
    count : int
    deck : Deck
        The deck rebuilt with ``count`` resource cards.
    added : tuple of str
        The generic cards it holds.
    hand : OddsPlan
        The screw and flood sides of the kept hand.
    by_turn : OddsPlan or None
        P(event) by turn (None under the curve objective, which asks :func:`deckstat.curve`).
    timing : WhenPlan or None
        The first turn with a resource card (None at count 0).
    race : deck-out plan or None
        The deck racing a copy of itself (None where running out has no effect or its mulligan is not modelled).
    """

    count: int
    deck: Deck
    added: tuple[str, ...]
    hand: OddsPlan
    by_turn: OddsPlan | None
    timing: WhenPlan | None
    race: object | None


@dataclass(frozen=True)
class RatioPlan:
    """A checked :func:`ratio` sweep: how the deck is rebuilt, and each count's plan (nothing computed).

    ``method`` is the method asked, ``chosen`` the one the deck as it is gets (the summary's ``method``);
    ``deckout`` holds the settings of the deck-out races (``auto``, :data:`DECKOUT_TRIALS` unless trials were
    given).
    """

    profile: Profile
    rebuild: _Plan
    texts: tuple[str, ...]
    label: str
    zone: str
    seat: str
    turns: list[int]
    flood: int
    target: float | None
    target_turn: int
    keep: str | None
    mulligan: bool
    rule: str
    method: str
    chosen: str
    goal: _Goal | None
    counts: tuple[CountPlan, ...]
    deckout: Simulation
    #: Beside P(event) by turn, the same with the drought draws and card effects it leaves out (``played``).
    effects: bool = True
    sides: bool = True

    @property
    def parts(self) -> list[Part]:
        """Every part the counts' odds and first-turn questions planned (the dry run prices them)."""
        plans = [p for c in self.counts for p in (c.hand, c.by_turn, c.timing) if p is not None]
        return [event.part for p in plans for event in p.events]


def plan_ratio(deck: Deck, game: str | Profile, *, counts: Iterable[int] | None = None, group: str | None = None,
               filler: str | Sequence[str] | None = None, event: str | Sequence[str] | None = None,
               turns: int | Iterable[int] = DEFAULT_TURNS, seat: str = "first", zone: str = "seen",
               target: float | None = None, target_turn: int | None = None, flood: int | None = None,
               keep: str | None = None, mulligan: bool = True, allow_absent: bool = False, objective: str = "event",
               card: str | None = None, curve_group: str | None = None, policy: str | None = None,
               simulation: Simulation | None = None, effects: bool = True, sides: bool = True,
               opponent: Deck | None = None) -> RatioPlan:
    """Every check of :func:`ratio`, each count's deck rebuilt and its questions planned and priced once.

    Parameters are those of :func:`ratio`; ``simulation`` holds its method and simulation settings (default:
    ``auto`` with the default settings), passed down to each count's questions unchecked.

    Returns
    -------
    RatioPlan
        For :func:`answer_ratio`.
    """
    simulation = Simulation() if simulation is None else simulation
    check_switches(effects=effects, sides=sides)
    profile = get_profile(game)
    check_deck(deck)
    objective = check_choice(objective, "objective", OBJECTIVES)
    seat = check_seats(seat, single=True)[0]
    zone = check_ratio_zone(profile, zone)
    group = _group(profile, group)
    parsed_group = parse_group(group, what="group")
    # The sweep may add the group's very cards, so only what no card could match (an unknown attribute) is refused.
    check_groups(profile.drawn_deck(deck).with_synonyms(profile.synonyms), Count(parsed_group, ">=", 1), profile,
                 "group", group, allow_absent=True)
    label = parsed_group.label
    flood = default_flood(profile.hand_size) if flood is None else check_whole(flood, "flood", minimum=1,
                                                                                 maximum=profile.hand_size)
    goal, texts, turn_list, target_turn = _objective(
        deck, profile, objective, label=label, event=event, zone=zone, turns=turns, target_turn=target_turn,
        seat=seat, card=card, curve_group=curve_group, policy=policy, keep=keep, mulligan=mulligan,
        opponent=opponent)
    target, target_turn = check_target(target, target_turn, turn_list)
    # Rules, events and method are checked once, on the deck as it is, before any count is computed.
    # Groups absent from the deck as it is may be the very cards the sweep adds: they are checked below, on
    # every deck of the sweep.
    setup = prepare(deck, profile, [f"{label}>=1"] if goal else texts, keep=keep, mulligan=mulligan,
                    allow_absent=True)
    chosen = choose_method(setup, simulation.method)
    rebuild = _plan(deck, profile, group, _fillers(filler))
    count_list = _count_list(counts, profile, parsed_group, rebuild)
    rebuilt = {k: _at_count(k, label, rebuild.deck_at, k) for k in count_list}
    if not allow_absent and goal is None:
        check_pooled([profile.drawn_deck(d) for d, _ in rebuilt.values()], profile, texts, keep=keep,
                     keep_text=setup.keep_text, resource=None, scope="the deck at any count swept")
    deckout = replace(simulation, method="auto",
                      n_trials=DECKOUT_TRIALS if simulation.n_trials is None else simulation.n_trials)
    plan = RatioPlan(profile=profile, rebuild=rebuild, texts=tuple(texts), label=label, zone=zone, seat=seat,
                     turns=turn_list, flood=flood, target=target, target_turn=target_turn, keep=keep,
                     mulligan=mulligan, rule=setup.rule, method=simulation.method, chosen=chosen, goal=goal,
                     counts=(), deckout=deckout, effects=effects, sides=sides)
    # The questions of a count share its set-ups (the resource event is asked in the hand, by turn and by when).
    with question_setups():
        planned = tuple(_at_count(k, label, _plan_count, plan, k, *rebuilt[k], simulation) for k in count_list)
    return replace(plan, counts=planned)


def _at_count(k: int, label: str, function, *args):
    """``function(*args)``, its refusal prefixed with the count it was refused at."""
    try:
        return function(*args)
    except DeckstatError as exc:
        raise exc.prefixed(tr("with {count} {group} cards: ", count=k, group=label)) from None


def _objective(deck: Deck, profile: Profile, objective: str, *, label: str, event, zone: str, turns, target_turn,
               seat: str, card, curve_group, policy, keep, mulligan,
               opponent: Deck | None = None) -> tuple[_Goal | None, list[str], list[int], int | None]:
    """The curve objective's goal (None for events), the events asked, the turns and the target turn given."""
    if objective == "curve":
        goal, turn_list, target_turn = _curve_goal(deck, profile, event=event, zone=zone, turns=turns,
                                                   target_turn=target_turn, seat=seat, card=card,
                                                   curve_group=curve_group, policy=policy, keep=keep,
                                                   mulligan=mulligan, opponent=opponent)
        return goal, [goal.event], turn_list, target_turn
    for name, value in (("card", card), ("curve_group", curve_group), ("policy", policy), ("opponent", opponent)):
        if value is not None:
            raise DeckstatError(tr("{name} names what the curve objective plays; add {curve} or leave it out",
                                   name=param(name), curve=param("objective", "curve")))
    texts = check_events(f"{label}>=1" if event is None else event)
    return None, texts, [0] if zone in FIXED_ZONES else check_turns(turns), target_turn


def _plan_count(plan: RatioPlan, k: int, rebuilt: Deck, added: list[str], simulation: Simulation) -> CountPlan:
    """The questions asked of the deck with ``k`` resource cards, each planned with the sweep's settings."""
    profile, seat = plan.profile, plan.seat
    # The sweep itself empties groups (the resource group at 0): what was asked was checked up front.
    rules = {"keep": plan.keep, "mulligan": plan.mulligan, "allow_absent": True}
    resource_event = f"{plan.label}>=1"
    hand = plan_odds(rebuilt, profile, [resource_event, f"{plan.label}>={plan.flood}"], zone="hand", seat=seat,
                     simulation=simulation, **rules)
    by_turn = None if plan.goal is not None else plan_odds(rebuilt, profile, list(plan.texts), turns=plan.turns,
                                                           seat=seat, zone=plan.zone, simulation=simulation,
                                                           effects=plan.effects, sides=plan.sides, **rules)
    timing = None
    if k > 0:
        last = profile.last_game_turn(profile.drawn_deck(rebuilt).size, seat)
        timing = plan_when(rebuilt, profile, resource_event, max_turn=last, seat=seat, simulation=simulation,
                           sides=False, **rules)
    race = None
    # No deck-out turn where running out has no rules effect, or whose mulligan the deck-out model does not handle.
    if profile.deckout != "none" and not (plan.mulligan and profile.mulligan not in ("none", "bottom")):
        race = plan_deckout(rebuilt, profile, keep=plan.keep, mulligan=plan.mulligan, allow_absent=True,
                            simulation=plan.deckout)
    return CountPlan(k, rebuilt, tuple(added), hand, by_turn, timing, race)


def answer_ratio(plan: RatioPlan, simulation: Simulation) -> RatioResult:
    """Estimate and shape a planned :func:`ratio` sweep (``simulation``: the settings it was planned with)."""
    # Each question at each count draws from its own stream: root seed + (count, question).
    streams = simulation.seeded().rng
    # Under auto a question the exact engine models may still be simulated (too costly): every question gets its
    # stream, which an exact one does not read.
    simulated = plan.chosen == "simulate" or plan.method == "auto"
    tables, played, provenance, methods, added = [], [], {}, {}, []
    with track(tr("ratio: {group} counts", group=plan.label), total=len(plan.counts), unit="counts") as counts_done:
        for planned in plan.counts:
            table, provenance, methods, sides = _at_count(planned.count, plan.label, _answer_count, plan, planned,
                                                          _Streams(simulation, streams, simulated))
            added += [name for name in planned.added if name not in added]
            tables.append(table.assign(is_current=planned.count == plan.rebuild.current))
            if sides is not None:
                played.append(sides)
            counts_done.advance()
    result = _shape(plan, pd.concat(tables, ignore_index=True), provenance, methods, added, streams)
    if not played:
        return result
    return replace(result, played=frame(pd.concat(played, ignore_index=True).to_dict("records"), PLAYED_COLUMNS,
                                        integers=("resource_count", "n_trials")))


@dataclass(frozen=True)
class _Streams:
    """The sweep's settings and root streams: each question at each count gets its own stream."""

    simulation: Simulation
    root: runner.Streams
    simulated: bool

    def at(self, k: int, question: int, settings: Simulation | None = None, *,
           always: bool = False) -> Simulation:
        """``settings`` (default: the sweep's) seeded for one question at count ``k`` (no seed for exact ones)."""
        seed = None
        if self.simulated or always:
            seed = np.random.SeedSequence(self.root.entropy, spawn_key=self.root.spawn_key + (k, question))
        return replace(self.simulation if settings is None else settings, rng=seed)


def _answer_count(plan: RatioPlan, planned: CountPlan,
                  streams: _Streams) -> tuple[pd.DataFrame, dict, dict, pd.DataFrame | None]:
    """P(event) by turn for one count's deck, with its facts on every row.

    Returns the table, the provenance of the odds, how each column was computed, and the same P with the
    drought draws and card effects played (None when the answer leaves nothing out).
    """
    k, rebuilt = planned.count, planned.deck
    report = validate(rebuilt, plan.profile)
    hand = answer_odds(planned.hand, streams.at(k, _STREAM_HAND))
    if planned.by_turn is not None:
        by_turn = answer_odds(planned.by_turn, streams.at(k, _STREAM_ODDS))
        # Each event's first hands (or the exact engine) give its mulligan rate.
        keep_rates = dict(zip(by_turn.summary["event"], by_turn.summary["p_keep_first"]))
        rates = 1.0 - by_turn.table["event"].map(keep_rates).astype(float)
        by_turn_table, by_turn_provenance = by_turn.table, by_turn.provenance
        p_method, rate_method = str(by_turn.table["method"].iloc[0]), str(by_turn.summary["method"].iloc[0])
    else:
        by_turn_table, by_turn_provenance = _playable(plan, k, rebuilt, streams.at(k, _STREAM_CURVE, always=True))
        # The keep rule does not depend on what is asked: the hand question's first hands give the rate.
        rates = 1.0 - float(hand.summary["p_keep_first"].iloc[0])
        p_method, rate_method = str(by_turn_table["method"].iloc[0]), str(hand.summary["method"].iloc[0])
    first_turn, when_method = math.nan, None
    if planned.timing is not None:
        timing = answer_when(planned.timing, streams.at(k, _STREAM_WHEN))
        first_turn = float(timing.summary["mean_turn"].iloc[0])
        when_method = str(timing.summary["method"].iloc[0])
    # The race is simulated under a drought rule even when every other number is exact.
    deckouts, deckout_method = {"deckout_turn_first": math.nan, "deckout_turn_second": math.nan}, None
    if planned.race is not None:
        mean, deckout_method = answer_mean_turns(planned.race,
                                                 streams.at(k, _STREAM_DECKOUT, plan.deckout, always=True))
        deckouts = {"deckout_turn_first": mean["first"], "deckout_turn_second": mean["second"]}
    facts = {"resource_count": k, "legal": report.legal, "violations": _violations(report.table),
             "p_resource_in_hand": float(hand.table["p"].iloc[0]), "p_flood_in_hand": float(hand.table["p"].iloc[1]),
             "expected_first_resource_turn": first_turn, **deckouts}
    provenance = {key: value for key, value in by_turn_provenance.items() if key not in (*runner.SEED_KEYS, "question")}
    hand_method = str(hand.table["method"].iloc[0])
    methods = {"p": p_method, "p_resource_in_hand": hand_method, "p_flood_in_hand": hand_method,
               "mulligan_rate": rate_method, "expected_first_resource_turn": when_method,
               "deckout_turn_first": deckout_method, "deckout_turn_second": deckout_method}
    played = None
    if planned.by_turn is not None:
        played = _played(by_turn, k)
    return by_turn_table.assign(mulligan_rate=rates, **facts), provenance, methods, played


#: Columns of :attr:`~deckstat.results.RatioResult.played`.
PLAYED_COLUMNS = ["deck", "game", "event", "seat", "resource_count", "turn", "p_without", "p", "ci_low", "ci_high",
                  "droughts", "effects", "n_trials"]


def _played(by_turn, k: int) -> pd.DataFrame | None:
    """One count's P(event) by turn with what :func:`deckstat.odds` left out played (:func:`played_rows`)."""
    rows = played_rows(by_turn)
    return None if rows is None else rows.assign(resource_count=k)[PLAYED_COLUMNS]


def _playable(plan: RatioPlan, k: int, rebuilt: Deck, settings: Simulation) -> tuple[pd.DataFrame, dict]:
    """P(the goal's card is playable by each turn) for the deck with ``k`` resource cards, from :func:`curve`.

    A deck the rebuilding left without a copy of the card never plays it: 0, exactly.
    """
    goal, profile = plan.goal, plan.profile
    drawn = profile.drawn_deck(rebuilt).with_synonyms(profile.synonyms)
    copies = goal.copies(drawn)
    identity = {"deck": drawn.name, "game": profile.id, "event": goal.event, "seat": plan.seat}
    if copies == 0:
        rows = [{**identity, "turn": t, "p": 0.0, "ci_low": 0.0, "ci_high": 0.0, "n_trials": None,
                 "method": "exact"} for t in plan.turns]
        provenance = {"play_model": goal.play_model, "policy": goal.policy}
    else:
        result = curve(rebuilt, profile, cards=goal.card, groups=goal.group, turns=plan.turns, seat=plan.seat,
                       policy=goal.policy, keep=plan.keep, mulligan=plan.mulligan, method=settings.method,
                       n_trials=settings.n_trials, rng=settings.rng, chunk_size=settings.chunk_size,
                       n_workers=settings.n_workers, effects=False, opponent=goal.opponent)
        rows = result.table.assign(event=goal.event)[["deck", "game", "event", "seat", "turn", "p", "ci_low",
                                                      "ci_high", "n_trials", "method"]].to_dict("records")
        provenance = result.provenance
    table = frame(rows, ["deck", "game", "event", "seat", "turn", "p", "ci_low", "ci_high", "n_trials", "method"],
                  integers=("n_trials",))
    return table.assign(target_copies=copies, play_model=goal.play_model, policy=goal.policy), provenance


def _shape(plan: RatioPlan, swept: pd.DataFrame, provenance: dict, methods: dict, added: list[str],
           streams: runner.Streams) -> RatioResult:
    """The sweep's table, its summary per event, and its provenance."""
    goal, rebuild, label = plan.goal, plan.rebuild, plan.label
    columns = RATIO_COLUMNS if plan.rule != "none" else [c for c in RATIO_COLUMNS if c != "mulligan_rate"]
    if goal is not None:
        columns = columns + CURVE_TABLE_COLUMNS
        methods = {**methods, "p": "simulate" if (swept["method"] == "simulate").any() else "exact"}
    table, summary = _decisions(swept, plan.target, plan.target_turn, columns)
    shared = {"zone": plan.zone, "group": label, "current_count": rebuild.current, "flood": plan.flood}
    if goal is None:
        summary = summary.assign(**shared, method=plan.chosen)[SUMMARY_COLUMNS]
    else:
        best = _best(table[table["turn"] == plan.target_turn])
        summary = summary.assign(**shared, method=methods["p"], objective="curve", **best,
                                 play_model=goal.play_model,
                                 policy=goal.policy)[SUMMARY_COLUMNS + CURVE_SUMMARY_COLUMNS]
        summary["best"] = summary["best"].astype("Int64")
    provenance.update({"question": "ratio", "group": label, "zone": plan.zone,
                       "set_aside_name": plan.profile.set_aside_name, "flood": plan.flood,
                       "filler": [str(rebuild.table["name"].iloc[i]) for i in rebuild.fillers] or None,
                       "scaling": _scaling(rebuild, label), "added_cards": added,
                       "counts": [c.count for c in plan.counts], "methods": methods})
    if goal is not None:
        provenance.update({"objective": "curve", "card": goal.card, "curve_group": goal.group,
                           "play_model": goal.play_model, "policy": goal.policy})
    if plan.chosen == "simulate" or "simulate" in (methods.get("deckout_turn_first"), methods.get("p")):
        provenance.update(runner.provenance(streams))
    if methods.get("deckout_turn_first") == "simulate":
        provenance["deckout_n_trials"] = plan.deckout.n_trials
    return RatioResult(table=table, summary=summary, provenance=provenance)


def _scaling(rebuild: _Plan, label: str) -> str:
    """How the deck is rebuilt, in the language: :data:`SCALING_RULE` and what applies to this deck."""
    scaling = tr(SCALING_RULE, group=label, generic=f"{rebuild.generic_stem} 1",
                 generic2=f"{rebuild.generic_stem} 2")
    if rebuild.ignore_limit:
        scaling += tr(IGNORED_LIMIT)
    if rebuild.fillers:
        scaling += tr(FILLER_RULE, fillers=", ".join(repr(str(rebuild.table["name"].iloc[i]))
                                                     for i in rebuild.fillers))
    return scaling


def _count_list(counts: Iterable[int] | None, profile: Profile, group, plan: _Plan) -> list[int]:
    """The resource counts to sweep: as given, or the deck's own count ± :data:`DEFAULT_SPAN` where it can be built."""
    if counts is None:
        current = plan.current
        low = max(plan.lowest, 0 if _survives_zero(group, profile) else 1)
        count_list = list(range(max(low, current - DEFAULT_SPAN), min(plan.highest, current + DEFAULT_SPAN) + 1))
        if not count_list:  # no count fits (a group the deck lacks and cannot grow): the plan says why
            plan.check(low)
    else:
        values = [counts] if isinstance(counts, (int, np.integer)) else list(counts)
        count_list = sorted({check_whole(c, "counts") for c in values})
        if not count_list:
            raise DeckstatError(tr("{name} is empty; give at least one resource count", name=param("counts")))
    if count_list[0] == 0 and not _survives_zero(group, profile):
        raise DeckstatError(tr("at 0 cards the group {group} matches no card of the deck, so the events cannot be "
                               "asked; start the sweep at 1, or sweep a card type of the game", group=group.label))
    # Refused up front, before any count is computed.
    plan.check(count_list[-1])
    plan.check(count_list[0])
    return count_list


def _decisions(table: pd.DataFrame, target: float | None, target_turn: int,
               columns: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each count's target status on the table, and per event the recommended count."""
    table = table.assign(legal=table["legal"].astype(bool), is_current=table["is_current"].astype(bool),
                         target_status=None)
    summaries = []
    for text in table["event"].unique():
        rows = table[table["event"] == text]
        statuses = _statuses(rows, target, target_turn)
        table.loc[rows.index, "target_status"] = rows["resource_count"].map(statuses)
        first = rows.iloc[0]
        summaries.append({"deck": first["deck"], "game": first["game"], "event": text, "seat": first["seat"],
                          "target": target, "target_turn": target_turn, **_decision(rows, statuses, target)})
    table = table.reindex(columns=columns).sort_values(["event", "resource_count", "turn"], kind="stable",
                                                       key=_in_order(table["event"]))
    table = table.reset_index(drop=True)
    table["n_trials"] = table["n_trials"].astype("Int64")
    summary = frame(summaries, [c for c in SUMMARY_COLUMNS
                                if c not in ("zone", "group", "current_count", "flood", "method")],
                    integers=("recommended", "smallest_reaching"))
    return table, summary


def _in_order(events: pd.Series):
    """A sort key keeping events in the order they were asked."""
    order = {text: i for i, text in enumerate(dict.fromkeys(events))}

    def key(column: pd.Series) -> pd.Series:
        return column.map(order) if column.name == "event" else column

    return key


def _statuses(rows: pd.DataFrame, target: float | None, target_turn: int) -> dict[int, str | None]:
    """Per resource count, whether P(event at the target turn) reaches the target."""
    at_turn = rows[rows["turn"] == target_turn]
    if target is None:
        return {int(k): None for k in at_turn["resource_count"]}
    return {int(r.resource_count): _status(r.p, r.ci_low, r.ci_high, target, r.method)
            for r in at_turn.itertuples(index=False)}


def _decision(rows: pd.DataFrame, statuses: dict[int, str | None], target: float | None) -> dict:
    """The recommended (legal) count for one event, and the smallest count reaching the target, legal or not."""
    if target is None:
        return {"decision": "no target", "recommended": None, "smallest_reaching": None,
                "smallest_reaching_legal": None}
    legal_at = dict(zip(rows["resource_count"].astype(int), rows["legal"]))
    recommended, kind = _decide({k: s for k, s in statuses.items() if legal_at[k]})
    smallest, _ = _decide(statuses)
    return {"decision": kind, "recommended": recommended, "smallest_reaching": smallest,
            "smallest_reaching_legal": None if smallest is None else bool(legal_at[smallest])}


def _survives_zero(group, profile: Profile) -> bool:
    """Whether events on ``group`` can still be asked of a deck with none of its cards."""
    if not isinstance(group, NameGroup):
        return True
    return group.key in {fold(t) for t in profile.card_types}
