"""The public Python API: decks and questions in, pandas DataFrames out.

Every function takes a :class:`~deckstat.deck.Deck`, a game (profile id or
file) and a question, picks the exact engine when it can answer and the Monte
Carlo kernel otherwise (``method="auto"``), and returns a DataFrame whose
``attrs`` say how to reproduce it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from deckstat import exact, simulate
from deckstat.deck import Deck
from deckstat.errors import DeckstatError, ExpressionError
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
    to_text,
)
from deckstat.profiles import MULLIGAN_RULES, SEATS, Profile, get_profile
from deckstat.text import suggest

ODDS_COLUMNS = ["turn", "seat", "zone", "event", "p", "ci_low", "ci_high", "n_trials", "method", "zone_size"]
METHODS = ("auto", "exact", "simulate")


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
    cell_counts, cell_membership = exact.cells(deck.counts, membership)
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
        if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 0:
            raise DeckstatError(f"turns must be whole numbers from 0, got {t!r}")
    return sorted({int(t) for t in values})


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
    attrs: dict = field(default_factory=dict)

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

    def deal_spec(self, max_draws: int) -> simulate.DealSpec:
        """The simulation spec for these rules."""
        keys = self.compiled.group_keys
        resource = None
        if self.resource_text:
            resource = self.compiled.cell_membership[:, keys.index(parse_group(self.resource_text).key)]
        return simulate.DealSpec(
            cell_counts=self.compiled.cell_counts, table=self.compiled.cell_membership.astype(np.int8),
            group_keys=keys, hand_size=self.profile.hand_size, set_aside=self.profile.set_aside,
            max_draws=max_draws, mulligan=self.rule, mulligan_limit=self.limit, keep=self.keep_event,
            resource=resource, resource_target=self.resource_target)

    def drawable(self) -> int:
        """Cards left to draw after the set-aside cards and the opening hand."""
        return self.deck.size - self.profile.set_aside - self.profile.hand_size


def prepare(deck: Deck, game: str | Profile, events: Iterable[str], *, keep: str | None = None,
            mulligan: bool = True, mulligan_rule: str | None = None, mulligan_limit: int | None = None,
            resource: str | None = None) -> Setup:
    """Resolve the rules in force and compile ``events`` (and the keep rule) against ``deck``."""
    profile = get_profile(game)
    if not isinstance(deck, Deck):
        raise DeckstatError(f"deck must be a Deck (see deckstat.load_deck), got {type(deck).__name__}")
    drawn = draw_deck(deck, profile)
    texts = list(events)
    parsed = []
    for text in texts:
        event = parse_event(text)
        check_groups(drawn, event, profile, "event", text)
        parsed.append(event)
    rule = profile.mulligan if mulligan_rule is None else mulligan_rule
    if rule not in MULLIGAN_RULES:
        raise DeckstatError(f"unknown mulligan rule {rule!r}; expected one of {', '.join(MULLIGAN_RULES)}"
                            f"{suggest(rule, MULLIGAN_RULES)}")
    if not mulligan:
        rule = "none"
    if rule == "none" and keep is not None and mulligan:
        raise DeckstatError(f"{profile.name} has no mulligan rule, so a keep rule does not apply; "
                            "choose one with mulligan_rule (--mulligan-rule)")
    limit = 0
    keep_text = None
    if rule != "none":
        limit = mulligan_limit if mulligan_limit is not None else max(profile.mulligan_limit, 1)
        if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 1:
            raise DeckstatError(f"mulligan_limit must be a whole number of at least 1, got {mulligan_limit!r}")
        if rule == "vancouver" and limit >= profile.hand_size:
            raise DeckstatError(f"Vancouver mulligans shrink the hand by one each; at most "
                                f"{profile.hand_size - 1} with {profile.hand_size}-card hands")
        keep_text = keep if keep is not None else profile.keep
        if keep_text is None:
            raise DeckstatError(f"{profile.name} has no default keep rule; give one with keep (--keep)")
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
    attrs = {"game": profile.id, "deck": drawn.source, "deck_size": drawn.size, "mulligan_rule": rule,
             "mulligan_limit": limit, "keep": keep_text, "resource_group": resource_text,
             "deckstat_version": _version()}
    return Setup(profile, drawn, tuple(parsed), keep_text, keep_event, rule, limit, resource_text, compiled,
                 target, attrs)


def _method(setup: Setup, method: str, needs_order: bool = False) -> str:
    if method not in METHODS:
        raise DeckstatError(f"unknown method {method!r}; expected one of {', '.join(METHODS)}")
    capable = setup.exact_capable and not needs_order
    if method == "exact" and not capable:
        what = f"the {setup.rule} mulligan" if not setup.exact_capable else "this question"
        raise DeckstatError(f"the exact engine does not model {what}; use method='simulate' (--simulate)")
    if method == "auto":
        return "exact" if capable else "simulate"
    return method


def _runner(task, rng, chunk_size, n_workers) -> tuple[simulate.BlockRunner, simulate.Streams]:
    streams = simulate.make_streams(rng)
    return simulate.BlockRunner(task, streams, chunk_size=chunk_size, n_workers=n_workers), streams


def _run(runner: simulate.BlockRunner, n_trials: int | None, precision: float | None,
         widest=simulate.widest_half_width) -> tuple[np.ndarray, int]:
    if precision is not None:
        return runner.run_until(precision, widest)
    return runner.run(simulate.DEFAULT_TRIALS if n_trials is None else n_trials)


def _simulation_attrs(streams: simulate.Streams, n_trials: int, precision: float | None) -> dict:
    return {"seed_entropy": streams.entropy, "seed_spawn_key": list(streams.spawn_key), "n_trials": n_trials,
            "block_trials": simulate.BLOCK_TRIALS, "precision": precision,
            "confidence": simulate.CONFIDENCE, "interval": "wilson"}


def odds(deck: Deck, game: str | Profile, event: str, *, turns: int | Iterable[int] = range(7),
         seat: str = "both", zone: str = "seen", keep: str | None = None, mulligan: bool = True,
         mulligan_rule: str | None = None, mulligan_limit: int | None = None, resource: str | None = None,
         method: str = "auto", n_trials: int | None = None, rng=None, precision: float | None = None,
         chunk_size: int = simulate.DEFAULT_CHUNK, n_workers: int = 1) -> pd.DataFrame:
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
        Keep rule of the mulligan (default: the profile's).
    mulligan : bool
        ``False`` keeps every first hand.
    mulligan_rule : {"bottom", "london", "vancouver", "free", "none"}, optional
        Replace the profile's mulligan rule, e.g. to compare with published tables.
    mulligan_limit : int, optional
        Mulligans allowed (default: the profile's, or 1).
    resource : str, optional
        Group the London bottom choice and the Vancouver scry balance (default:
        the profile's resource group).
    method : {"auto", "exact", "simulate"}
        ``auto`` uses the exact engine when it models the rules (no mulligan or
        one bottom mulligan), the Monte Carlo kernel otherwise.
    n_trials : int, optional
        Simulated trials (default 200 000).
    rng : int, Generator or None
        Seed of the simulation.
    precision : float, optional
        Simulate until the widest 95% interval's half-width is at most this.
    chunk_size : int
        Trials held in memory at once; does not change the results.
    n_workers : int
        Processes for the simulation; does not change the results.

    Returns
    -------
    pandas.DataFrame
        Columns ``turn``, ``seat``, ``zone``, ``event``, ``p``, ``ci_low``,
        ``ci_high`` (95% Wilson interval; equal to ``p`` when exact),
        ``n_trials`` (missing when exact), ``method``, ``zone_size``.
        ``attrs`` record the game, deck, rules in force, the probability of
        keeping the first hand (exact), the seed entropy and trial count
        (simulated) and the deckstat version.

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.load_deck("data/wankul/sample_deck.csv")  # doctest: +SKIP
    >>> deckstat.odds(deck, "wankul", "Terrain>=1", turns=range(3))  # doctest: +SKIP
    """
    setup = prepare(deck, game, [event], keep=keep, mulligan=mulligan, mulligan_rule=mulligan_rule,
                    mulligan_limit=mulligan_limit, resource=resource)
    if zone not in exact.ZONES:
        raise DeckstatError(f"unknown zone {zone!r}; expected one of {', '.join(exact.ZONES)}"
                            f"{suggest(zone, exact.ZONES)}")
    chosen = _method(setup, method)
    profile = setup.profile
    turn_list = [0] if zone in ("hand", "set_aside") else _turns(turns)
    per_seat = {s: [profile.draws_by_turn(t, s) for t in turn_list] for s in _seats(seat)}
    drawable = setup.drawable()
    if drawable < 0:
        raise DeckstatError(f"the deck has {setup.deck.size} cards, fewer than the "
                            f"{profile.set_aside + profile.hand_size} dealt before turn 1")
    for seat_name, draws in per_seat.items():
        for t, d in zip(turn_list, draws):
            if d > drawable:
                raise DeckstatError(f"turn {t} needs {d} draws for the {seat_name} player but only {drawable} "
                                    "cards are left after the opening hand; ask for fewer turns")
    # One pass answers every draw count; seats only pick different counts.
    all_draws = sorted({d for draws in per_seat.values() for d in draws})
    attrs = dict(setup.attrs)
    if chosen == "exact":
        probs, p_keep = exact.zone_odds(setup.compiled.cell_counts, setup.compiled.cell_membership,
                                        setup.condition(0), hand_size=profile.hand_size,
                                        set_aside=profile.set_aside, draws=all_draws, zone=zone,
                                        keep=setup.keep_condition)
        probs = np.clip(probs, 0.0, 1.0)
        low, high, n_done = probs, probs, None
        attrs["p_keep"] = p_keep
    else:
        task = functools.partial(simulate.odds_task, setup.deal_spec(max(all_draws)), setup.events, zone,
                                 tuple(all_draws))
        runner, streams = _runner(task, rng, chunk_size, n_workers)
        hits, n_done = _run(runner, n_trials, precision)
        probs = hits[0] / n_done
        low, high = simulate.intervals(hits[0], n_done)
        attrs.update(_simulation_attrs(streams, n_done, precision))
    by_draws = {d: (p, lo, hi) for d, p, lo, hi in zip(all_draws, probs, low, high)}
    sizes = {"seen": lambda d: profile.hand_size + d, "hand": lambda d: profile.hand_size,
             "set_aside": lambda d: profile.set_aside, "bottom": lambda d: pd.NA}[zone]
    records = []
    text = to_text(setup.events[0])
    for seat_name, draws in per_seat.items():
        for t, d in zip(turn_list, draws):
            p, lo, hi = by_draws[d]
            records.append({"turn": t, "seat": seat_name, "zone": zone, "event": text, "p": float(p),
                            "ci_low": float(lo), "ci_high": float(hi), "n_trials": n_done, "method": chosen,
                            "zone_size": sizes(d)})
    frame = pd.DataFrame.from_records(records, columns=ODDS_COLUMNS)
    frame["n_trials"] = frame["n_trials"].astype("Int64")
    frame["zone_size"] = frame["zone_size"].astype("Int64")
    frame.attrs.update(attrs)
    return frame


def when(deck: Deck, game: str | Profile, event: str, *, max_turn: int = 10, seat: str = "both",
         keep: str | None = None, mulligan: bool = True, mulligan_rule: str | None = None,
         mulligan_limit: int | None = None, resource: str | None = None, method: str = "auto",
         n_trials: int | None = None, rng=None, precision: float | None = None,
         chunk_size: int = simulate.DEFAULT_CHUNK, n_workers: int = 1) -> pd.DataFrame:
    """Distribution of the first turn at which an event holds among the cards seen.

    Exact when the event can only become true as cards are seen (comparisons
    ``>=``/``>``, or ``<``/``<=`` under ``not``) and the exact engine models the
    mulligan; simulated otherwise. Parameters as in :func:`odds`.

    Returns
    -------
    pandas.DataFrame
        One row per seat and turn 0..``max_turn``: ``pmf`` (first holds on
        that turn), ``cdf`` (holds by that turn), their 95% intervals when
        simulated, ``method``. ``attrs["summary"]`` holds, per seat, the mean
        and median first turn among games where it holds by ``max_turn``, and
        ``p_never`` (it has not held by then).
    """
    setup = prepare(deck, game, [event], keep=keep, mulligan=mulligan, mulligan_rule=mulligan_rule,
                    mulligan_limit=mulligan_limit, resource=resource)
    if isinstance(max_turn, bool) or not isinstance(max_turn, (int, np.integer)) or max_turn < 0:
        raise DeckstatError(f"max_turn must be a whole number from 0, got {max_turn!r}")
    chosen = _method(setup, method, needs_order=not is_increasing(setup.events[0]))
    turns = list(range(int(max_turn) + 1))
    per_seat = {s: [setup.profile.draws_by_turn(t, s) for t in turns] for s in _seats(seat)}
    drawable = setup.drawable()
    for seat_name, draws in per_seat.items():
        if draws[-1] > drawable:
            last = max(t for t, d in zip(turns, draws) if d <= drawable) if draws[0] <= drawable else None
            raise DeckstatError(f"turn {max_turn} needs {draws[-1]} draws for the {seat_name} player but only "
                                f"{drawable} cards are left after the opening hand; use max_turn={last}")
    attrs = dict(setup.attrs)
    rows = []
    summary = {}
    if chosen == "exact":
        all_draws = sorted({d for draws in per_seat.values() for d in draws})
        probs, p_keep = exact.zone_odds(setup.compiled.cell_counts, setup.compiled.cell_membership,
                                        setup.condition(0), hand_size=setup.profile.hand_size,
                                        set_aside=setup.profile.set_aside, draws=all_draws,
                                        keep=setup.keep_condition)
        attrs["p_keep"] = p_keep
        by_draws = dict(zip(all_draws, np.clip(probs, 0, 1)))
        tallies = None
    else:
        task = functools.partial(simulate.when_task, setup.deal_spec(max(max(d) for d in per_seat.values())),
                                 setup.events[0], tuple(tuple(d) for d in per_seat.values()))
        runner, streams = _runner(task, rng, chunk_size, n_workers)
        tallies, n_done = _run(runner, n_trials, precision, widest=_widest_cdf)
        attrs.update(_simulation_attrs(streams, n_done, precision))
    for i, (seat_name, draws) in enumerate(per_seat.items()):
        if tallies is None:
            cdf = np.maximum.accumulate(np.array([by_draws[d] for d in draws]))
            pmf = np.diff(cdf, prepend=0.0)
            pmf_low = pmf_high = pmf
            cdf_low = cdf_high = cdf
        else:
            hist = tallies[i]
            pmf = hist[:-1] / n_done
            cdf = np.cumsum(hist[:-1]) / n_done
            pmf_low, pmf_high = simulate.intervals(hist[:-1], n_done)
            cdf_low, cdf_high = simulate.intervals(np.cumsum(hist[:-1]), n_done)
        for t in turns:
            rows.append({"seat": seat_name, "turn": t, "pmf": float(pmf[t]), "cdf": float(cdf[t]),
                         "pmf_low": float(pmf_low[t]), "pmf_high": float(pmf_high[t]),
                         "cdf_low": float(cdf_low[t]), "cdf_high": float(cdf_high[t]), "method": chosen})
        held = float(cdf[-1])
        mean = float(np.dot(turns, pmf) / held) if held > 0 else None
        median = next((t for t in turns if cdf[t] >= 0.5), None)
        summary[seat_name] = {"mean": mean, "median": median, "p_never": 1.0 - held, "max_turn": int(max_turn)}
    frame = pd.DataFrame(rows)
    attrs["summary"] = summary
    attrs["event"] = to_text(setup.events[0])
    frame.attrs.update(attrs)
    return frame


def _widest_cdf(tallies: np.ndarray, n_trials: int) -> float:
    return simulate.widest_half_width(np.cumsum(tallies[:, :-1], axis=1), n_trials)


@dataclass(frozen=True)
class MulliganReport:
    """What a mulligan rule does to a deck: see :func:`mulligan`.

    Attributes
    ----------
    summary : pandas.DataFrame
        One row: rule, limit, keep rule, ``p_keep_first`` (keep the first hand)
        with its interval, expected mulligans, method.
    mulligans : pandas.DataFrame
        ``mulligans`` taken (0..limit) and ``p``.
    kept_hand : pandas.DataFrame
        ``group``, ``count``, ``p``: distribution of each group's count in the kept hand.
    by_turn : pandas.DataFrame
        ``turn``, ``seat``, ``event``, ``p_with``, ``p_without`` (the mulligan
        rule against keeping every first hand), with intervals when simulated.
    """

    summary: pd.DataFrame
    mulligans: pd.DataFrame
    kept_hand: pd.DataFrame
    by_turn: pd.DataFrame


def mulligan(deck: Deck, game: str | Profile, *, keep: str | None = None, event: str | None = None,
             turns: int | Iterable[int] = range(7), seat: str = "first", mulligan_rule: str | None = None,
             mulligan_limit: int | None = None, resource: str | None = None, method: str = "auto",
             n_trials: int | None = None, rng=None, chunk_size: int = simulate.DEFAULT_CHUNK,
             n_workers: int = 1) -> MulliganReport:
    """How often a hand is kept, what the kept hand holds, and what the mulligan buys by turn.

    Parameters
    ----------
    deck, game
        As in :func:`odds`.
    keep : str, optional
        Keep rule (default: the profile's).
    event : str, optional
        Event for the by-turn comparison (default: the resource group ``>=1``,
        else the keep rule).
    turns, seat
        Turns and seat of the by-turn comparison.
    mulligan_rule, mulligan_limit, resource, method, n_trials, rng, chunk_size, n_workers
        As in :func:`odds`; a game without a mulligan rule needs ``mulligan_rule``.

    Returns
    -------
    MulliganReport
    """
    profile = get_profile(game)
    if (mulligan_rule or profile.mulligan) == "none":
        raise DeckstatError(f"{profile.name} has no mulligan rule; choose one with mulligan_rule "
                            "(--mulligan-rule bottom|london|vancouver|free)")
    base = prepare(deck, profile, [], keep=keep, mulligan_rule=mulligan_rule, mulligan_limit=mulligan_limit,
                   resource=resource)
    if event is None:
        event = f"{base.resource_text}>=1" if base.resource_text else base.keep_text
    setup = prepare(deck, profile, [event], keep=keep, mulligan_rule=mulligan_rule,
                    mulligan_limit=mulligan_limit, resource=resource)
    chosen = _method(setup, method)
    keys = setup.compiled.group_keys
    labels = {}
    for ev in setup.events + ((setup.keep_event,) if setup.keep_event is not None else ()):
        for key, group in groups_of(ev).items():
            labels.setdefault(key, group.label)
    if setup.resource_text:
        group = parse_group(setup.resource_text)
        labels.setdefault(group.key, group.label)
    hand_size = profile.hand_size
    common = {"method": chosen, "n_trials": n_trials, "rng": rng, "chunk_size": chunk_size,
              "n_workers": n_workers}
    with_rule = odds(deck, profile, event, turns=turns, seat=seat, keep=setup.keep_text,
                     mulligan_rule=setup.rule, mulligan_limit=setup.limit, resource=resource, **common)
    without = odds(deck, profile, event, turns=turns, seat=seat, mulligan=False,
                   **{**common, "method": "exact" if chosen == "exact" else "auto"})
    by_turn = with_rule[["turn", "seat", "event"]].copy()
    by_turn["p_with"] = with_rule["p"]
    by_turn["p_with_low"] = with_rule["ci_low"]
    by_turn["p_with_high"] = with_rule["ci_high"]
    by_turn["p_without"] = without["p"].to_numpy()
    by_turn["p_without_low"] = without["ci_low"].to_numpy()
    by_turn["p_without_high"] = without["ci_high"].to_numpy()
    by_turn["method"] = chosen
    attrs = dict(setup.attrs)
    if chosen == "exact":
        cell_counts, cell_membership = setup.compiled.cell_counts, setup.compiled.cell_membership
        kept_rows = []
        for key in keys:
            index = keys.index(key)
            for count in range(hand_size + 1):
                condition = exact.Condition((index,), (count + 1,), lambda a, c=count: a[0] == c)
                p, p_keep = exact.zone_odds(cell_counts, cell_membership, condition, hand_size=hand_size,
                                            set_aside=profile.set_aside, draws=[0], zone="hand",
                                            keep=setup.keep_condition)
                kept_rows.append({"group": labels[key], "count": count, "p": float(np.clip(p[0], 0, 1))})
        mull_p = np.array([p_keep, 1 - p_keep])
        mull_low = mull_high = mull_p
        n_done = None
    else:
        task = functools.partial(simulate.hand_task, setup.deal_spec(0))
        runner, streams = _runner(task, rng, chunk_size, n_workers)
        tallies, n_done = runner.run(simulate.DEFAULT_TRIALS if n_trials is None else n_trials)
        attrs.update(_simulation_attrs(streams, n_done, None))
        mull_p = tallies[0, :setup.limit + 1] / n_done
        mull_low, mull_high = simulate.intervals(tallies[0, :setup.limit + 1], n_done)
        kept_rows = [{"group": labels[key], "count": count, "p": tallies[1 + i, count] / n_done}
                     for i, key in enumerate(keys) for count in range(hand_size + 1)]
    mulligans = pd.DataFrame({"mulligans": np.arange(len(mull_p)), "p": mull_p, "ci_low": mull_low,
                              "ci_high": mull_high})
    summary = pd.DataFrame([{
        "rule": setup.rule, "limit": setup.limit, "keep": setup.keep_text, "p_keep_first": float(mull_p[0]),
        "ci_low": float(mull_low[0]), "ci_high": float(mull_high[0]),
        "expected_mulligans": float(np.dot(np.arange(len(mull_p)), mull_p)), "n_trials": n_done,
        "method": chosen}])
    kept_hand = pd.DataFrame(kept_rows, columns=["group", "count", "p"])
    for frame in (summary, mulligans, kept_hand, by_turn):
        frame.attrs.update(attrs)
    return MulliganReport(summary, mulligans, kept_hand, by_turn)
