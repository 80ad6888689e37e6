"""Questions about deck construction built on the odds engines: the resource ratio sweep.

:func:`ratio` answers "10, 11 or 12 Terrains?": it rebuilds the deck at each
resource count, keeping its size, and asks :func:`deckstat.odds`,
:func:`deckstat.when`, :func:`deckstat.mulligan` and
:func:`deckstat.validate` about each version. No engine code lives here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from deckstat import api, simulate
from deckstat.deck import Deck
from deckstat.errors import DeckstatError
from deckstat.events import NameGroup, parse_group
from deckstat.output import format_estimate, format_probability
from deckstat.profiles import Profile, get_profile
from deckstat.rules import validate
from deckstat.text import fold, suggest

RATIO_COLUMNS = ["resource_count", "turn", "seat", "event", "p", "ci_low", "ci_high", "n_trials", "method",
                 "legal", "violations", "p_resource_in_hand", "mulligan_rate", "expected_first_resource_turn",
                 "deckout_turn_first", "deckout_turn_second"]

#: How the deck is rebuilt at each resource count (also stored in ``attrs["scaling"]``).
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
#: Questions simulated for each resource count; each gets its own stream.
_STREAM_ODDS, _STREAM_HAND, _STREAM_MULLIGAN, _STREAM_WHEN, _STREAM_DECKOUT = range(5)
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
                                "or sweep a card type of the game (group)")
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
    drawn = api.draw_deck(deck, profile)
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
    count = _check_count(count)
    group = _group(profile, group)
    return _plan(deck, profile, group, filler, need_add=count > 0).deck_at(count)


def _check_count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise DeckstatError(f"resource counts must be whole numbers from 0, got {value!r}")
    return int(value)


def _group(profile: Profile, group: str | None) -> str:
    if group is None:
        if not profile.resource_group:
            raise DeckstatError(f"{profile.name} has no resource group; name the cards to sweep with group "
                                "(--group), e.g. group=\"Terrain\"")
        return profile.resource_group
    if not isinstance(group, str) or not group.strip():
        raise DeckstatError(f"group must be a card group such as Terrain or [cost<=1], got {group!r}")
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
    from deckstat.deckout import deckout

    race = deckout(deck, profile, keep=keep, mulligan=mulligan, n_trials=n_trials, rng=np.random.default_rng(rng))
    summary = race.attrs["summary"]
    return {"deckout_turn_first": summary["first"]["mean"], "deckout_turn_second": summary["second"]["mean"]}


def _violations(report: pd.DataFrame) -> str:
    parts = []
    for row in report.itertuples(index=False):
        text = f"{row.subject}: {row.found}, allowed {row.allowed}"
        parts.append(text if row.level == "error" else f"warning: {text}")
    return "; ".join(parts)


def _last_turn(profile: Profile, deck: Deck, seat: str) -> int:
    """The last turn whose draws the drawn deck can supply for ``seat``."""
    drawable = deck.size - profile.set_aside - profile.hand_size
    first = profile.first_turn_draw[seat]
    if drawable < first:
        return 0
    if profile.draws_per_turn == 0:
        return 1
    return 1 + (drawable - first) // profile.draws_per_turn


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
          filler: str | None = None, event: str | None = None, turns: int | Iterable[int] = range(6),
          seat: str = "first", target: float | None = None, target_turn: int | None = None,
          keep: str | None = None, mulligan: bool = True, method: str = "auto", n_trials: int | None = None,
          rng=None, chunk_size: int = simulate.DEFAULT_CHUNK, n_workers: int = 1) -> pd.DataFrame:
    """Sweep the number of resource cards ("10, 11 or 12 Terrains?") at a constant deck size.

    At each resource count the deck is rebuilt (see *Scaling* below), checked
    with :func:`deckstat.validate`, and asked: P(event) by turn
    (:func:`deckstat.odds`), P(a resource card in the kept hand), the
    mulligan rate and the expected first turn with a resource card
    (:func:`deckstat.when`).

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
    two decks (Licum) only the drawn deck changes. ``attrs["scaling"]``
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
    event : str, optional
        Event asked by turn (default: ``"<group> >= 1"``).
    turns : int or iterable of int
        Turns reported (turn 0 is the kept opening hand).
    seat : {"first", "second"}
        Whose draws.
    target : float, optional
        A probability: name the smallest count whose P(event at
        ``target_turn``) reaches it.
    target_turn : int, optional
        Turn of the target (default: the last turn asked).
    keep, mulligan, method, n_trials, rng, chunk_size, n_workers
        As in :func:`deckstat.odds`. Every question at every count has its own
        random stream derived from ``rng`` and the count, so a count gets the
        same numbers whatever the other counts swept.

    Returns
    -------
    pandas.DataFrame
        One row per resource count and turn: ``resource_count``, ``turn``,
        ``seat``, ``event``, ``p``, ``ci_low``, ``ci_high``, ``n_trials``,
        ``method``, ``legal``, ``violations`` (what the rebuilt deck breaks,
        ``""`` when legal), ``p_resource_in_hand`` (a resource card in the
        kept hand), ``mulligan_rate`` (the first hand is put back; 0 without
        a mulligan), ``expected_first_resource_turn`` (mean first turn with a
        resource card among the cards seen, followed to the last turn the
        deck allows, so with one draw per turn every game counts; NaN at
        count 0),
        ``deckout_turn_first`` and ``deckout_turn_second`` (NaN: reserved for
        the two-player deck-out model). ``attrs`` hold ``group``, ``filler``,
        ``scaling``, ``current_count``, ``target``, ``target_turn``,
        ``target_status`` (per count: reached, not reached or undecided),
        ``recommended`` (int or None), ``decision`` (one line), and the game,
        deck, rules and version of the underlying odds.

    Notes
    -----
    The target decision is exact with exact results (up to a rounding slack
    of 1e-12). With simulated results a count is *reached* when its 95%
    interval's lower end is at least the target, *not reached* when its upper
    end is below it, *undecided* otherwise; the recommendation is the smallest
    reached count provided every smaller count is not reached, otherwise the
    decision is undecided.

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.load_deck("data/wankul/sample_deck.csv")  # doctest: +SKIP
    >>> deckstat.ratio(deck, "wankul", counts=range(8, 15), target=0.95)  # doctest: +SKIP
    """
    profile = get_profile(game)
    if not isinstance(deck, Deck):
        raise DeckstatError(f"deck must be a Deck (see deckstat.load_deck), got {type(deck).__name__}")
    if seat not in ("first", "second"):
        raise DeckstatError(f"the ratio sweep follows one seat: seat must be 'first' or 'second', got {seat!r}")
    group = _group(profile, group)
    parsed_group = parse_group(group, what="group")
    label = parsed_group.label
    resource_event = f"{label}>=1"
    event = resource_event if event is None else event
    turn_list = api._turns(turns)
    if target is not None:
        if isinstance(target, bool) or not isinstance(target, (int, float, np.integer, np.floating)) \
                or not 0 <= float(target) <= 1:
            raise DeckstatError(f"target must be a probability from 0 to 1, got {target!r}")
        target = float(target)
    if target_turn is None:
        target_turn = turn_list[-1]
    elif target_turn not in turn_list:
        raise DeckstatError(f"target_turn {target_turn!r} is not one of the turns asked "
                            f"({', '.join(map(str, turn_list))})")
    # Rules, events and method are checked once, on the deck as it is, before any count is computed.
    setup = api.prepare(deck, profile, [event], keep=keep, mulligan=mulligan)
    chosen = api._method(setup, method)
    drawn_current = api.draw_deck(deck, profile).count(parsed_group)
    if counts is None:
        size = setup.deck.size
        low = 0 if _survives_zero(parsed_group, profile) else 1
        count_list = list(range(max(low, drawn_current - DEFAULT_SPAN), min(size, drawn_current + DEFAULT_SPAN) + 1))
    else:
        values = [counts] if isinstance(counts, (int, np.integer)) else list(counts)
        count_list = sorted({_check_count(c) for c in values})
        if not count_list:
            raise DeckstatError("no resource count to sweep")
    if count_list[0] == 0 and not _survives_zero(parsed_group, profile):
        raise DeckstatError(f"at 0 cards the group {label} matches no card of the deck, so the events cannot be "
                            "asked; start the sweep at 1, or sweep a card type of the game")
    plan = _plan(deck, profile, group, filler, need_add=count_list[-1] > 0)
    if count_list[-1] > plan.size:
        raise DeckstatError(f"{count_list[-1]} {label} cards do not fit in a {plan.size}-card deck; sweep at most "
                            f"{plan.size}")
    # Each question at each count draws from its own stream: root seed + (count, question).
    streams = simulate.make_streams(rng) if chosen == "simulate" else None
    # The deck-out race is always simulated, so it always needs a seed.
    race_streams = streams or simulate.make_streams(rng)

    def seed(k: int, question: int):
        if streams is None:
            return None
        return np.random.SeedSequence(streams.entropy, spawn_key=streams.spawn_key + (k, question))

    common = {"keep": keep, "mulligan": mulligan, "method": method, "n_trials": n_trials,
              "chunk_size": chunk_size, "n_workers": n_workers}
    records = []
    base_attrs: dict = {}
    points: dict[int, tuple[float, float, float, str]] = {}
    legal_at: dict[int, bool] = {}
    violations_at: dict[int, str] = {}
    for k in count_list:
        try:
            rebuilt = plan.deck_at(k)
            report = validate(rebuilt, profile)
            frame = api.odds(rebuilt, profile, event, turns=turn_list, seat=seat, rng=seed(k, _STREAM_ODDS),
                             **common)
            hand = api.odds(rebuilt, profile, resource_event, zone="hand", seat=seat,
                            rng=seed(k, _STREAM_HAND), **common)
            rule = frame.attrs["mulligan_rule"]
            if rule == "none":
                rate = 0.0
            elif "p_keep" in frame.attrs:
                rate = 1.0 - float(frame.attrs["p_keep"])
            else:
                summary = api.mulligan(rebuilt, profile, keep=keep, turns=[0], seat=seat, method=method,
                                       n_trials=n_trials, rng=seed(k, _STREAM_MULLIGAN), chunk_size=chunk_size,
                                       n_workers=n_workers).summary
                rate = 1.0 - float(summary["p_keep_first"].iloc[0])
            if k == 0:
                first_turn = math.nan
            else:
                drawn = api.draw_deck(rebuilt, profile)
                timing = api.when(rebuilt, profile, resource_event, max_turn=_last_turn(profile, drawn, seat),
                                  seat=seat, rng=seed(k, _STREAM_WHEN), **common)
                mean = timing.attrs["summary"][seat]["mean"]
                first_turn = math.nan if mean is None else float(mean)
        except DeckstatError as exc:
            raise DeckstatError(f"with {k} {label} cards: {exc}") from None
        if not base_attrs:
            base_attrs = {key: value for key, value in frame.attrs.items()
                          if key not in ("p_keep", "seed_entropy", "seed_spawn_key", "n_trials")}
        legal = bool(report.attrs["legal"])
        broken = _violations(report)
        race_key = race_streams.spawn_key + (k, _STREAM_DECKOUT)
        race_seed = np.random.SeedSequence(race_streams.entropy, spawn_key=race_key)
        legal_at[k], violations_at[k] = legal, broken
        extra = {"legal": legal, "violations": broken, "p_resource_in_hand": float(hand["p"].iloc[0]),
                 "mulligan_rate": rate, "expected_first_resource_turn": first_turn,
                 **_deckout_columns(profile, rebuilt, keep=keep, mulligan=mulligan,
                                    n_trials=DECKOUT_TRIALS if n_trials is None else n_trials, rng=race_seed)}
        for row in frame.itertuples(index=False):
            records.append({"resource_count": k, "turn": row.turn, "seat": row.seat, "event": row.event,
                            "p": row.p, "ci_low": row.ci_low, "ci_high": row.ci_high, "n_trials": row.n_trials,
                            "method": row.method, **extra})
            if row.turn == target_turn:
                points[k] = (row.p, row.ci_low, row.ci_high, row.method)
    result = pd.DataFrame.from_records(records, columns=RATIO_COLUMNS)
    result["n_trials"] = result["n_trials"].astype("Int64")
    result["legal"] = result["legal"].astype(bool)
    attrs = dict(base_attrs)
    if plan.filler is None:
        scaling = SCALING_RULE
    else:
        scaling = FILLER_RULE.format(filler=str(plan.table["name"].iloc[plan.filler]))
    if plan.added is not None:
        scaling += ADDED_RULE.format(group=label, name=plan.added)
    attrs.update({"group": label, "filler": filler, "scaling": scaling, "added_card": plan.added,
                  "current_count": plan.current, "counts": count_list, "event": result["event"].iloc[0],
                  "seat": seat, "method": chosen, "target": target, "target_turn": target_turn})
    if streams is not None:
        attrs.update({"seed_entropy": streams.entropy, "seed_spawn_key": list(streams.spawn_key),
                      "n_trials": int(result["n_trials"].iloc[0]), "confidence": simulate.CONFIDENCE,
                      "interval": "wilson"})
    attrs.update(_target_attrs(points, legal_at, violations_at, target, target_turn, attrs["event"], label,
                               setup.exact_capable))
    result.attrs.update(attrs)
    return result


def _survives_zero(group, profile: Profile) -> bool:
    """Whether events on ``group`` can still be asked of a deck with none of its cards."""
    if not isinstance(group, NameGroup):
        return True
    return group.key in {fold(t) for t in profile.card_types}


def _target_attrs(points: dict[int, tuple[float, float, float, str]], legal_at: dict[int, bool],
                  violations_at: dict[int, str], target: float | None, target_turn: int, event: str, label: str,
                  exact_capable: bool) -> dict:
    if target is None:
        return {"target_status": None, "recommended": None, "recommended_is_legal": None,
                "recommended_legal": None, "decision": "no target given"}
    statuses = {k: _status(p, lo, hi, target, m) for k, (p, lo, hi, m) in points.items()}
    recommended, kind = _decide(statuses)
    legal_choice, legal_kind = _decide({k: s for k, s in statuses.items() if legal_at[k]})
    goal = f"P({event}) ≥ {format_probability(target)} by turn {target_turn}"
    if kind == "decided":
        p, lo, hi, m = points[recommended]
        decision = f"recommended: {recommended} {label} cards, the smallest count with {goal} " \
                   f"({format_estimate(p, lo, hi, m)})"
        if not legal_at[recommended]:
            broken = violations_at[recommended].split("; ")
            decision += f"; but that deck is not legal ({broken[0]}{' …' if len(broken) > 1 else ''})"
            if legal_kind == "decided":
                decision += f"; the smallest legal count reaching it is {legal_choice}"
            elif legal_kind == "none":
                decision += "; no legal count swept reaches it"
            else:
                decision += "; among legal counts the decision is undecided"
    elif kind == "none":
        best = max(points, key=lambda k: points[k][0])
        p, lo, hi, m = points[best]
        decision = f"no count from {min(points)} to {max(points)} reaches {goal} (highest: {best} " \
                   f"{label} cards, {format_estimate(p, lo, hi, m)})"
    else:
        unsure = [k for k in sorted(statuses) if statuses[k] == "undecided"]
        how = "simulate more trials (n_trials, --trials)"
        if exact_capable:
            how += " or use the exact engine (method='exact', or without --simulate)"
        decision = f"undecided: the 95% interval of P({event}) at turn {target_turn} contains " \
                   f"{format_probability(target)} at {', '.join(map(str, unsure))} {label} cards; {how}"
    return {"target_status": statuses, "recommended": recommended,
            "recommended_is_legal": None if recommended is None else legal_at[recommended],
            "recommended_legal": legal_choice, "decision": decision}
