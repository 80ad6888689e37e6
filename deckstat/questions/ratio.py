"""Questions about deck construction built on the odds engines: the resource ratio sweep.

:func:`ratio` answers "10, 11 or 12 Terrains?": it rebuilds the deck at each
resource count, keeping its size, and asks :func:`deckstat.odds`,
:func:`deckstat.when`, :func:`deckstat.deckout` and :func:`deckstat.validate`
about each version. No engine code lives here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from deckstat._validate import check_deck, check_events, check_probability, check_seats, check_turns, check_whole
from deckstat.deck import Deck
from deckstat.engines import runner
from deckstat.errors import DeckstatError, param
from deckstat.events import NameGroup, parse_group
from deckstat.games.profiles import Profile, get_profile
from deckstat.questions._setup import check_simulation, choose_method, prepare
from deckstat.questions.deckout import deckout
from deckstat.questions.odds import odds
from deckstat.questions.validate import validate
from deckstat.questions.when import when
from deckstat.results import RatioResult, frame
from deckstat.text import fold, suggest

RATIO_COLUMNS = ["deck", "game", "event", "seat", "resource_count", "turn", "p", "ci_low", "ci_high", "n_trials",
                 "method", "legal", "violations", "p_resource_in_hand", "mulligan_rate",
                 "expected_first_resource_turn", "deckout_turn_first", "deckout_turn_second", "target_status"]
SUMMARY_COLUMNS = ["deck", "game", "event", "seat", "group", "current_count", "target", "target_turn", "decision",
                   "recommended", "recommended_is_legal", "recommended_legal", "legal_decision", "method"]

#: How the deck is rebuilt at each resource count (also stored in ``provenance["scaling"]``).
SCALING_RULE = (
    "The deck size stays constant. The resource cards are scaled to the new total in proportion to their current "
    "counts; the other cards of the drawn deck are scaled in proportion to theirs to fill the rest. Rounding is by "
    "largest remainder (each card gets the whole part of its exact share, then the leftover copies go one each to "
    "the largest fractional parts, ties to the card listed first), so the result is deterministic and every card "
    "is within one copy of its exact share. A card scaled to 0 copies leaves the deck.")
FILLER_RULE = (
    "The deck size stays constant. The resource cards are scaled to the new total in proportion to their current "
    "counts (largest-remainder rounding, ties to the card listed first); only the filler card {filler!r} changes "
    "to make room, every other card keeps its count.")
ADDED_RULE = (" The deck had no {group} card: a card named {name!r} of type {group} is added to sweep upwards.")

#: Added to a deck that has no card of the swept type.
ADDED_SUFFIX = " (ajouté)"

#: Rounding slack of exact probabilities when they are compared with a target.
EXACT_SLACK = 1e-12
#: Questions simulated for each resource count; each gets its own stream (2 was a separate mulligan run).
_STREAM_ODDS, _STREAM_HAND, _STREAM_WHEN, _STREAM_DECKOUT = 0, 1, 3, 4
#: Trials of the deck-out race at each count when no trial count is given.
DECKOUT_TRIALS = 20_000
#: Default sweep: this many counts either side of the deck's own.
DEFAULT_SPAN = 5


def scale_counts(counts: Iterable[int], total: int) -> np.ndarray:
    """Scale whole counts to a new ``total`` in proportion, by largest remainder.

    Each entry gets the whole part of ``count * total / sum(counts)``; the
    copies left over go one each to the largest fractional parts, ties to the
    entry listed first. The arithmetic is on integers, so the result is exact
    and deterministic.

    Parameters
    ----------
    counts : iterable of int
        Current counts (at least one positive unless ``total`` is 0).
    total : int
        The new sum.

    Returns
    -------
    ndarray of int64
        Counts summing to ``total``, each within one of its exact share.

    Examples
    --------
    >>> scale_counts([2, 2, 1], 7).tolist()
    [3, 3, 1]
    """
    counts = np.asarray(list(counts), dtype=np.int64)
    total = int(total)
    if total < 0:
        raise DeckstatError(f"cannot scale to a negative total ({total})")
    current = int(counts.sum())
    if total == 0:
        return np.zeros_like(counts)
    if current <= 0:
        raise DeckstatError(f"cannot scale {current} cards to {total}")
    products = [int(c) * total for c in counts]
    out = np.array([p // current for p in products], dtype=np.int64)
    remainders = [p % current for p in products]
    leftover = total - int(out.sum())
    order = sorted(range(len(counts)), key=lambda i: (-remainders[i], i))
    for i in order[:leftover]:
        out[i] += 1
    return out


@dataclass(frozen=True)
class _Plan:
    """How to rebuild a deck at any resource count."""

    table: pd.DataFrame
    source: str
    base: np.ndarray
    resource: np.ndarray
    other: np.ndarray
    filler: int | None
    current: int
    size: int
    label: str
    added: str | None

    def deck_at(self, k: int) -> Deck:
        """The deck with ``k`` resource cards and the same drawn-deck size."""
        if k > self.size:
            raise DeckstatError(f"{k} {self.label} cards do not fit in a {self.size}-card deck")
        counts = self.base.copy()
        weights = self.base[self.resource]
        if self.added is not None:
            weights = np.ones_like(weights)  # the added card is the only resource card
        if k > 0 and not weights.any():
            raise DeckstatError(f"the deck has no {self.label} card to add copies of; add one to the deck, "
                                f"or sweep a card type of the game ({param('group')})")
        counts[self.resource] = scale_counts(weights, k)
        rest = self.size - k
        if self.filler is None:
            if rest > 0 and not self.base[self.other].any():
                raise DeckstatError(f"at {k} {self.label} cards the deck has no other card to fill the "
                                    f"remaining {rest}")
            counts[self.other] = scale_counts(self.base[self.other], rest)
        else:
            name = self.table["name"].iloc[self.filler]
            have = int(self.base[self.filler])
            need = have - (k - self.current)
            if need < 0:
                raise DeckstatError(f"at {k} {self.label} cards the filler {name!r} would need {need} copies "
                                    f"(it has {have}); sweep to at most {self.current + have} or choose "
                                    "another filler")
            counts[self.filler] = need
        table = self.table.copy()
        table["count"] = counts
        return Deck.from_table(table[counts > 0], source=self.source)


def _plan(deck: Deck, profile: Profile, group: str, filler: str | None, need_add: bool) -> _Plan:
    parsed = parse_group(group, what="group")
    label = parsed.label
    drawn = profile.drawn_deck(deck)
    table = deck.cards.copy()
    if len(profile.parts) == 1:
        in_part = np.ones(len(table), dtype=bool)
    else:
        aliases = {fold(a) for a in profile.part().aliases}
        in_part = np.array([fold(v) in aliases for v in table["deck"]], dtype=bool)
    resource = deck.mask(parsed) & in_part
    base = deck.counts.copy()
    current = int(base[resource].sum())
    added = None
    if current == 0 and need_add:
        types = {fold(t): t for t in profile.card_types}
        if not (isinstance(parsed, NameGroup) and parsed.key in types):
            raise DeckstatError(f"the deck has no {label} card, so there is nothing to scale up; add one to the "
                                f"deck, or sweep a card type of {profile.name} "
                                f"({', '.join(profile.card_types) or 'none listed'})")
        kind = types[parsed.key]
        names = {fold(n) for n in table["name"]}
        added = kind + ADDED_SUFFIX
        n = 2
        while fold(added) in names:
            added = f"{kind}{ADDED_SUFFIX[:-1]} {n})"
            n += 1
        row = {column: None for column in table.columns}
        row.update({"name": added, "count": 0, "type": kind})
        if len(profile.parts) > 1:
            row["deck"] = profile.part().aliases[0]
        table = pd.concat([table, pd.DataFrame([row]).astype(object)], ignore_index=True)
        base = np.append(base, 0)
        in_part = np.append(in_part, True)
        resource = np.append(resource, True)
    filler_row = None
    if filler is not None:
        candidates = [i for i in range(len(table)) if in_part[i] and fold(table["name"].iloc[i]) == fold(filler)]
        if not candidates:
            names = [str(n) for n, ok in zip(table["name"], in_part) if ok]
            raise DeckstatError(f"filler {filler!r} is not a card of the deck{suggest(filler, names)}")
        if len(candidates) > 1:
            raise DeckstatError(f"filler {filler!r} names {len(candidates)} rows of the deck; merge them or "
                                "choose another filler")
        filler_row = candidates[0]
        if resource[filler_row]:
            raise DeckstatError(f"filler {filler!r} is itself a {label} card; choose a card outside {label}")
    return _Plan(table=table, source=deck.source, base=base, resource=resource, other=in_part & ~resource,
                 filler=filler_row, current=current, size=drawn.size, label=label, added=added)


def with_resource_count(deck: Deck, game: str | Profile, count: int, *, group: str | None = None,
                        filler: str | None = None) -> Deck:
    """Return ``deck`` rebuilt with ``count`` cards of the resource group, at the same size.

    The rule is :data:`SCALING_RULE` (or :data:`FILLER_RULE` with a
    ``filler``); see :func:`ratio`.

    Parameters
    ----------
    deck : Deck
    game : str or Profile
    count : int
        Resource cards wanted.
    group : str, optional
        Resource group (default: the profile's ``resource_group``).
    filler : str, optional
        Name of the one card whose count changes to make room.

    Returns
    -------
    Deck
    """
    profile = get_profile(game)
    check_deck(deck)
    count = _check_count(count, "count")
    group = _group(profile, group)
    return _plan(deck, profile, group, filler, need_add=count > 0).deck_at(count)


def _check_count(value: object, name: str = "counts") -> int:
    return check_whole(value, name)


def _group(profile: Profile, group: str | None) -> str:
    if group is None:
        if not profile.resource_group:
            raise DeckstatError(f"{profile.name} has no resource group; name the cards to sweep with "
                                f"{param('group')}, e.g. Terrain")
        return profile.resource_group
    if not isinstance(group, str) or not group.strip():
        raise DeckstatError(f"{param('group')} must be a card group such as Terrain or [cost<=1], got {group!r}")
    return group



def _deckout_columns(profile: Profile, deck: Deck, *, keep: str | None, mulligan: bool, n_trials: int,
                     rng: np.random.SeedSequence) -> dict[str, float]:
    """Mean turn each seat runs out of cards, for games whose deck-out depends on the resource ratio.

    That is a profile with a ``drought_group`` (Wankul: with no Terrain in play
    or in hand, both players draw one card at a time until one appears). The
    deck races a copy of itself; the turn is simulated. NaN for other games,
    whose deck-out turn does not depend on the ratio.
    """
    if not profile.drought_group:
        return {"deckout_turn_first": math.nan, "deckout_turn_second": math.nan}
    race = deckout(deck, profile, keep=keep, mulligan=mulligan, n_trials=n_trials, rng=np.random.default_rng(rng))
    mean = dict(zip(race.summary["seat"], race.summary["mean_turn"]))
    return {"deckout_turn_first": mean["first"], "deckout_turn_second": mean["second"]}


def _violations(report: pd.DataFrame) -> str:
    parts = []
    for row in report.itertuples(index=False):
        text = f"{row.subject}: {row.found}, allowed {row.allowed}"
        parts.append(text if row.level == "error" else f"warning: {text}")
    return "; ".join(parts)


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


def ratio(deck: Deck, game: str | Profile, *, counts: Iterable[int] | None = None, group: str | None = None,
          filler: str | None = None, event: str | Sequence[str] | None = None, turns: int | Iterable[int] = range(6),
          seat: str = "first", target: float | None = None, target_turn: int | None = None,
          keep: str | None = None, mulligan: bool = True, method: str = "auto", n_trials: int | None = None,
          rng=None, chunk_size: int = runner.DEFAULT_CHUNK, n_workers: int = 1) -> RatioResult:
    """Sweep the number of resource cards ("10, 11 or 12 Terrains?") at a constant deck size.

    At each resource count the deck is rebuilt (see *Scaling* below), checked
    with :func:`deckstat.validate`, and asked: P(event) by turn
    (:func:`deckstat.odds`), P(a resource card in the kept hand), the
    mulligan rate, the expected first turn with a resource card
    (:func:`deckstat.when`) and, for games with a drought rule, the mean
    deck-out turn (:func:`deckstat.deckout`).

    Scaling
    -------
    The deck size stays constant. The resource cards are scaled to the new
    total in proportion to their current counts; the other cards of the drawn
    deck are scaled in proportion to theirs to fill the rest. Rounding is by
    largest remainder: each card gets the whole part of its exact share, the
    leftover copies go one each to the largest fractional parts, ties to the
    card listed first (deterministic; every card within one copy of its exact
    share; a card scaled to 0 leaves the deck). With ``filler``, the resource
    cards are scaled the same way but only the filler's count changes to make
    room (an error if it would go below 0). A deck with no resource card can
    be swept upwards only when the group is a card type of the game: a card
    named e.g. ``"Terrain (ajouté)"`` of that type is added. For games with
    two decks (Licum) only the drawn deck changes. ``provenance["scaling"]``
    states the rule in force.

    Parameters
    ----------
    deck : Deck
    game : str or Profile
        Game profile id or ``.toml`` profile path.
    counts : iterable of int, optional
        Resource counts to sweep (default: the deck's own count ± 5, from 0).
    group : str, optional
        The resource group (default: the profile's ``resource_group``, e.g.
        ``Terrain`` for Wankul).
    filler : str, optional
        Name of the one card whose count makes room.
    event : str or list of str, optional
        Event(s) asked by turn (default: ``"<group> >= 1"``).
    turns : int or iterable of int
        Turns reported (turn 0 is the kept opening hand).
    seat : {"first", "second"}
        Whose draws.
    target : float, optional
        A probability: name the smallest count whose P(event at
        ``target_turn``) reaches it, for each event.
    target_turn : int, optional
        Turn of the target (default: the last turn asked).
    keep, mulligan, method, n_trials, rng, chunk_size, n_workers
        As in :func:`deckstat.odds`. Every question at every count has its own
        random stream derived from ``rng`` and the count, so a count gets the
        same numbers whatever the other counts swept.

    Returns
    -------
    RatioResult
        ``table``: one row per event, resource count and turn: ``p`` with its
        interval, and the facts of the rebuilt deck: ``legal``, ``violations``
        (``""`` when legal), ``p_resource_in_hand`` (a resource card in the
        kept hand), ``mulligan_rate`` (the first hand is put back; 0 without a
        mulligan), ``expected_first_resource_turn`` (mean first turn with a
        resource card among the cards seen, followed to the last turn the
        deck allows; NaN at count 0), ``deckout_turn_first`` and
        ``deckout_turn_second`` (mean deck-out turns under a drought rule, NaN
        for other games), ``target_status`` (``reached``, ``not reached`` or
        ``undecided`` at the target turn). ``summary``: per event, the
        ``decision`` (``decided``, ``none``, ``undecided`` or ``no target``),
        the ``recommended`` count and whether it is legal, and the smallest
        legal count reaching the target (``recommended_legal``).

    Notes
    -----
    The target decision is exact with exact results (up to a rounding slack
    of 1e-12). With simulated results a count is *reached* when its 95%
    interval's lower end is at least the target, *not reached* when its upper
    end is below it, *undecided* otherwise; the recommendation is the smallest
    reached count provided every smaller count is not reached, otherwise the
    decision is undecided. :func:`deckstat.present.format.ratio_decision`
    writes the decision as a sentence.

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "Terrain", "count": 10, "type": "Terrain"},
    ...                                  {"name": "Personnage", "count": 40, "type": "Personnage"}])
    >>> sweep = deckstat.ratio(deck, "wankul", counts=range(10, 15), turns=[0], target=0.95)
    >>> sweep.table[["resource_count", "p"]].round(4).values.tolist()[:3]
    [[10.0, 0.9175], [11.0, 0.9381], [12.0, 0.954]]
    >>> int(sweep.summary["recommended"].iloc[0])
    12
    """
    profile = get_profile(game)
    check_deck(deck)
    seat = check_seats(seat, single=True)[0]
    group = _group(profile, group)
    parsed_group = parse_group(group, what="group")
    label = parsed_group.label
    resource_event = f"{label}>=1"
    texts = check_events(resource_event if event is None else event)
    turn_list = check_turns(turns)
    check_simulation(n_trials, None, chunk_size, n_workers)
    if target is not None:
        target = check_probability(target, "target")
    if target_turn is None:
        target_turn = turn_list[-1]
    elif target_turn not in turn_list:
        raise DeckstatError(f"{param('target_turn')} {target_turn!r} is not one of the turns asked "
                            f"({', '.join(map(str, turn_list))})")
    # Rules, events and method are checked once, on the deck as it is, before any count is computed.
    setup = prepare(deck, profile, texts, keep=keep, mulligan=mulligan)
    chosen = choose_method(setup, method)
    count_list = _count_list(counts, profile, parsed_group, setup.deck)
    plan = _plan(deck, profile, group, filler, need_add=count_list[-1] > 0)
    if count_list[-1] > plan.size:
        raise DeckstatError(f"{count_list[-1]} {label} cards do not fit in a {plan.size}-card deck; sweep at most "
                            f"{plan.size}")
    # Each question at each count draws from its own stream: root seed + (count, question).
    streams = runner.make_streams(rng) if chosen == "simulate" else None
    questions = _Questions(profile=profile, texts=texts, resource_event=resource_event, turns=turn_list, seat=seat,
                           keep=keep, mulligan=mulligan, method=method, n_trials=n_trials, chunk_size=chunk_size,
                           n_workers=n_workers, streams=streams,
                           # The deck-out race is always simulated, so it always needs a seed.
                           race_streams=streams or runner.make_streams(rng))
    tables, provenance = [], {}
    for k in count_list:
        try:
            table, provenance = questions.at(k, plan.deck_at(k))
        except DeckstatError as exc:
            raise exc.prefixed(f"with {k} {label} cards: ") from None
        tables.append(table)
    table, summary = _decisions(pd.concat(tables, ignore_index=True), target, target_turn)
    summary = summary.assign(group=label, current_count=plan.current, method=chosen)[SUMMARY_COLUMNS]
    provenance.update({"question": "ratio", "group": label, "filler": filler, "scaling": _scaling(plan, label),
                       "added_card": plan.added, "counts": count_list})
    if streams is not None:
        provenance.update(runner.provenance(streams))
    elif profile.drought_group:
        provenance.update({key: value for key, value in runner.provenance(questions.race_streams).items()
                           if key in runner.SEED_KEYS})
    return RatioResult(table=table, summary=summary, provenance=provenance)


def _count_list(counts: Iterable[int] | None, profile: Profile, group, drawn: Deck) -> list[int]:
    """The resource counts to sweep: as given, or the deck's own count ± :data:`DEFAULT_SPAN`."""
    if counts is None:
        current = drawn.count(group)
        low = 0 if _survives_zero(group, profile) else 1
        count_list = list(range(max(low, current - DEFAULT_SPAN), min(drawn.size, current + DEFAULT_SPAN) + 1))
    else:
        values = [counts] if isinstance(counts, (int, np.integer)) else list(counts)
        count_list = sorted({_check_count(c) for c in values})
        if not count_list:
            raise DeckstatError(f"{param('counts')} is empty; give at least one resource count")
    if count_list[0] == 0 and not _survives_zero(group, profile):
        raise DeckstatError(f"at 0 cards the group {group.label} matches no card of the deck, so the events cannot "
                            "be asked; start the sweep at 1, or sweep a card type of the game")
    return count_list


@dataclass(frozen=True)
class _Questions:
    """What the sweep asks of the deck rebuilt at each count, and the random streams it asks with."""

    profile: Profile
    texts: list[str]
    resource_event: str
    turns: list[int]
    seat: str
    keep: str | None
    mulligan: bool
    method: str
    n_trials: int | None
    chunk_size: int
    n_workers: int
    streams: runner.Streams | None
    race_streams: runner.Streams

    def seed(self, k: int, question: int) -> np.random.SeedSequence | None:
        if self.streams is None:
            return None
        return np.random.SeedSequence(self.streams.entropy, spawn_key=self.streams.spawn_key + (k, question))

    def at(self, k: int, rebuilt: Deck) -> tuple[pd.DataFrame, dict]:
        """P(event) by turn for the deck with ``k`` resource cards, with its facts on every row."""
        profile, seat = self.profile, self.seat
        common = {"keep": self.keep, "mulligan": self.mulligan, "method": self.method, "n_trials": self.n_trials,
                  "chunk_size": self.chunk_size, "n_workers": self.n_workers}
        report = validate(rebuilt, profile)
        by_turn = odds(rebuilt, profile, self.texts, turns=self.turns, seat=seat, rng=self.seed(k, _STREAM_ODDS),
                       **common)
        hand = odds(rebuilt, profile, self.resource_event, zone="hand", seat=seat, rng=self.seed(k, _STREAM_HAND),
                    **common)
        first_turn = math.nan
        if k > 0:
            last = profile.last_turn(profile.drawn_deck(rebuilt).size, seat)
            timing = when(rebuilt, profile, self.resource_event, max_turn=last, seat=seat,
                          rng=self.seed(k, _STREAM_WHEN), **common)
            first_turn = float(timing.summary["mean_turn"].iloc[0])
        race_seed = np.random.SeedSequence(self.race_streams.entropy,
                                           spawn_key=self.race_streams.spawn_key + (k, _STREAM_DECKOUT))
        facts = {"resource_count": k, "legal": report.legal, "violations": _violations(report.table),
                 "p_resource_in_hand": float(hand.table["p"].iloc[0]),
                 "expected_first_resource_turn": first_turn,
                 **_deckout_columns(profile, rebuilt, keep=self.keep, mulligan=self.mulligan,
                                    n_trials=DECKOUT_TRIALS if self.n_trials is None else self.n_trials,
                                    rng=race_seed)}
        provenance = {key: value for key, value in by_turn.provenance.items()
                      if key not in (*runner.SEED_KEYS, "question")}
        # Each event's first hands (or the exact engine) give its mulligan rate.
        keep_rates = dict(zip(by_turn.summary["event"], by_turn.summary["p_keep_first"]))
        rates = 1.0 - by_turn.table["event"].map(keep_rates).astype(float)
        return by_turn.table.assign(mulligan_rate=rates, **facts), provenance


def _decisions(table: pd.DataFrame, target: float | None, target_turn: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each count's target status on the table, and per event the recommended count."""
    table = table.assign(legal=table["legal"].astype(bool), target_status=None)
    summaries = []
    for text in table["event"].unique():
        rows = table[table["event"] == text]
        statuses = _statuses(rows, target, target_turn)
        table.loc[rows.index, "target_status"] = rows["resource_count"].map(statuses)
        first = rows.iloc[0]
        summaries.append({"deck": first["deck"], "game": first["game"], "event": text, "seat": first["seat"],
                          "target": target, "target_turn": target_turn, **_decision(rows, statuses, target)})
    table = table.reindex(columns=RATIO_COLUMNS).sort_values(["event", "resource_count", "turn"], kind="stable",
                                                              key=_in_order(table["event"]))
    table = table.reset_index(drop=True)
    table["n_trials"] = table["n_trials"].astype("Int64")
    summary = frame(summaries, [c for c in SUMMARY_COLUMNS if c not in ("group", "current_count", "method")],
                    integers=("recommended", "recommended_legal"))
    return table, summary


def _scaling(plan: _Plan, label: str) -> str:
    """How the deck was rebuilt, in words."""
    if plan.filler is None:
        scaling = SCALING_RULE
    else:
        scaling = FILLER_RULE.format(filler=str(plan.table["name"].iloc[plan.filler]))
    if plan.added is not None:
        scaling += ADDED_RULE.format(group=label, name=plan.added)
    return scaling


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
    """The recommended count for one event, overall and among legal decks."""
    if target is None:
        return {"decision": "no target", "recommended": None, "recommended_is_legal": None,
                "recommended_legal": None, "legal_decision": None}
    legal_at = dict(zip(rows["resource_count"].astype(int), rows["legal"]))
    recommended, kind = _decide(statuses)
    legal_choice, legal_kind = _decide({k: s for k, s in statuses.items() if legal_at[k]})
    return {"decision": kind, "recommended": recommended,
            "recommended_is_legal": None if recommended is None else bool(legal_at[recommended]),
            "recommended_legal": legal_choice, "legal_decision": legal_kind}


def _survives_zero(group, profile: Profile) -> bool:
    """Whether events on ``group`` can still be asked of a deck with none of its cards."""
    if not isinstance(group, NameGroup):
        return True
    return group.key in {fold(t) for t in profile.card_types}
