"""Comparing decklists: the card differences and the same question for every deck, with the difference.

Exact where the exact engine applies (the difference is then exact too).
Otherwise the decks are simulated with *common random numbers*: in each
trial the decks are shuffled from the same random card indices (see
:func:`deckstat.engines.kernel.card_indices`), over one shared list of card
cells (:func:`deckstat.engines.cells.shared_partition`), so a Terrain swapped
for a Personnage changes only the trials that card reaches. Each deck's
marginal is still an exact uniform shuffle; only the pairing is shared, which
makes the interval on the difference much narrower than with independent
runs. ``paired=False`` runs them independently.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from statistics import NormalDist

import numpy as np
import pandas as pd

from deckstat._validate import check_deck, check_events, check_turns
from deckstat.deck import Deck
from deckstat.engines import runner
from deckstat.engines.cells import shared_partition
from deckstat.engines.tasks import DealSpec, compare_task
from deckstat.errors import DeckstatError, param
from deckstat.events import groups_of, to_text
from deckstat.games.profiles import Profile, get_profile
from deckstat.i18n import tr
from deckstat.knowledge import Knowledge
from deckstat.questions import known as known_cards
from deckstat.questions._estimate import Estimates, Part, Simulation, estimate, join_reasons
from deckstat.questions._setup import Setup, all_draws, check_pooled, check_zone, key_columns, prepare, zone_size
from deckstat.questions.deckout import deckout, same_size_warning
from deckstat.questions.odds import (
    DEFAULT_TURNS,
    ODDS_COLUMNS,
    SIDE_SEED,
    SIDE_TRIALS,
    EventPlan,
    OddsPlan,
    Sides,
    answer_odds,
    check_switches,
    plan_event,
    plan_odds,
    plan_sides,
    shape_event,
)
from deckstat.questions.ratio import ratio
from deckstat.results import CompareResult, frame
from deckstat.schema import PRINTING_COLUMNS, printing_key, printing_labels
from deckstat.text import fold

COMPARE_COLUMNS = ["game", "event", "seat", "turn", "zone", "deck_a", "deck_b", "p_a", "p_b", "diff", "diff_ci_low",
                   "diff_ci_high", "p_value", "n_trials", "method"]
CARD_COLUMNS = ["deck_a", "deck_b", "name", "count_a", "count_b", "change"]


def card_differences(a: Deck, b: Deck) -> pd.DataFrame:
    """Cards added, removed or changed in count from deck ``a`` to deck ``b``.

    Returns
    -------
    pandas.DataFrame
        ``deck_a``, ``deck_b``, ``name``, ``count_a``, ``count_b``, ``change``
        (``added``, ``removed``, or a signed count such as ``+1``), sorted by
        name; unchanged cards left out. Printings of a name are cards of
        their own: when the decks hold several, ``name`` is their label
        (``VENDEUR #35``, see :attr:`Deck.labels`).

    Examples
    --------
    >>> import deckstat
    >>> a = deckstat.Deck.from_table([{"name": "Terrain", "count": 10}, {"name": "Yéti", "count": 3}], source="a")
    >>> b = deckstat.Deck.from_table([{"name": "Terrain", "count": 12}, {"name": "Dragon", "count": 1}], source="b")
    >>> card_differences(a, b)[["name", "change"]].values.tolist()
    [['Dragon', 'added'], ['Terrain', '+2'], ['Yéti', 'removed']]
    """
    check_deck(a, "a")
    check_deck(b, "b")
    # A card is its name and printing; the label tells printings apart when either deck holds several of a name.
    columns = [c for c in PRINTING_COLUMNS if c in a.printing_columns or c in b.printing_columns]
    names: dict[tuple, str] = {}
    records: dict[tuple, dict] = {}
    counts: list[dict[tuple, int]] = [{}, {}]
    for deck, tally in zip((a, b), counts):
        table = deck.cards.reindex(columns=["name", *columns])
        for record, count in zip(table.to_dict("records"), deck.counts):
            key = (fold(record["name"]),) + printing_key(record, columns)
            names.setdefault(key, str(record["name"]))
            records.setdefault(key, record)
            tally[key] = tally.get(key, 0) + int(count)
    labels = dict(zip(names, printing_labels(list(names.values()), list(records.values()))))
    rows = []
    for key in sorted(names):
        count_a, count_b = counts[0].get(key, 0), counts[1].get(key, 0)
        if count_a == count_b:
            continue
        change = "added" if count_a == 0 else "removed" if count_b == 0 else f"{count_b - count_a:+d}"
        rows.append({"deck_a": a.name, "deck_b": b.name, "name": labels[key], "count_a": count_a,
                     "count_b": count_b, "change": change})
    return pd.DataFrame(rows, columns=CARD_COLUMNS)


def _common_specs(setups: list[Setup], max_draws: int) -> list[DealSpec]:
    """One DealSpec per deck over a shared list of cells, so that shuffles can be paired."""
    groups: dict = {}
    for setup in setups:
        for key, group in setup.groups().items():
            groups.setdefault(key, group)
    keys = tuple(groups)
    card_keys, distinct_columns = key_columns([s.deck for s in setups], groups)
    cell_keys, per_deck = shared_partition([(s.deck.counts, k) for s, k in zip(setups, card_keys)])
    # The last key column only parts names (see key_columns); the kernel counts the others.
    table = cell_keys[:, :-1].astype(np.int8)
    if not any(c is not None for c in distinct_columns):
        distinct_columns = ()
    specs = []
    for setup, counts in zip(setups, per_deck):
        specs.append(DealSpec(
            cell_counts=counts, table=table, group_keys=keys, distinct_columns=distinct_columns,
            hand_size=setup.profile.hand_size, set_aside=setup.profile.set_aside, max_draws=max_draws,
            mulligan=setup.rule, mulligan_limit=setup.limit, keep=setup.keep_event,
            needs=setup.need_columns(keys), resource=setup.resource_cells(keys, cell_keys),
            resource_target=setup.resource_target))
    return specs


@runner.pooled
def compare(decks: Sequence[Deck], game: str | Profile, event: str | Sequence[str], *,
            turns: int | Iterable[int] = DEFAULT_TURNS, seat: str = "both", zone: str = "seen", keep: str | None = None,
            mulligan: bool = True, mulligan_rule: str | None = None, mulligan_limit: int | None = None,
            resource: str | None = None, method: str = "auto", paired: bool = True, n_trials: int | None = None,
            rng=None, chunk_size: int = runner.DEFAULT_CHUNK, n_workers: int = 1, with_deckout: bool = False,
            ratio_counts: Iterable[int] | None = None, allow_absent: bool = False,
            known: Mapping | Knowledge | None = None, draws: int | Iterable[int] | None = None,
            priority: str | None = None, effects: bool = True, sides: bool = True) -> CompareResult:
    """The same question for two or more decks, each against the first, with the difference.

    Parameters
    ----------
    decks : list of Deck
        Deck A first; every other deck is compared with it.
    game, event, turns, seat, zone, keep, mulligan, mulligan_rule, mulligan_limit, resource, priority
        As in :func:`deckstat.odds` (every deck keeps its cards by the same needs or ``priority``).
    method : {"auto", "exact", "simulate"}
    paired : bool
        Simulate with common random numbers (default) or independently.
    n_trials, rng, chunk_size, n_workers
        As in :func:`deckstat.odds`.
    with_deckout : bool
        Also give each deck's deck-out summary (against a copy of itself),
        as :func:`deckstat.deckout`.
    ratio_counts : iterable of int, optional
        Also sweep each deck's resource count over these counts, as
        :func:`deckstat.ratio` (its default event: a resource card seen) over ``turns``.
    allow_absent : bool
        Accept groups that match no card of any deck. A group that only some
        decks have is always accepted: comparing a deck with a card and one
        without it is a question in its own right.
    known, draws
        Cards known mid-game, as in :func:`deckstat.odds`: the same
        descriptions are read against every deck (names must be in each), and
        every deck is answered exactly; the tables then have a ``draws``
        column.
    effects, sides : bool
        As in :func:`deckstat.odds`: beside the comparison, the same one with Wankul's drought draws and each
        deck's draw, search and look effects played (the ``played`` table); ``effects=False`` leaves the effects
        out of it, ``sides=False`` the whole table.

    Returns
    -------
    CompareResult
        ``table``: one row per other deck, event, seat and turn: ``p_a``,
        ``p_b``, ``diff`` = ``p_b - p_a``, its 95% interval (``diff_ci_low``,
        ``diff_ci_high``) and the ``p_value`` of "no difference" (exact
        McNemar test on the paired trials; a two-proportion z test when
        unpaired; missing when exact). ``odds``: each deck's own odds.
        ``cards``: the card differences. ``deckout``, ``ratio``: when asked.
        ``played``: when a deck has effects (or the game drought draws, Wankul), the difference with them
        played on simulated games (each deck on its own games, so the interval is that of independent runs).
        ``provenance["warnings"]``: in a game whose two players' decks must
        have the same size (Wankul), a warning when the decks compared differ
        in size.

    Notes
    -----
    The paired interval is ``diff ± z·sd/√n`` with ``sd`` the standard deviation of
    the per-trial difference (normal approximation, accurate at the trial counts used).

    Examples
    --------
    >>> import deckstat
    >>> a = deckstat.Deck.from_table([{"name": "Terrain", "count": 10, "type": "Terrain"},
    ...                               {"name": "Personnage", "count": 40, "type": "Personnage"}], source="a")
    >>> b = deckstat.Deck.from_table([{"name": "Terrain", "count": 12, "type": "Terrain"},
    ...                               {"name": "Personnage", "count": 38, "type": "Personnage"}], source="b")
    >>> result = deckstat.compare([a, b], "wankul", "Terrain>=1", turns=[0], seat="first", mulligan=False)
    >>> round(float(result.table["diff"].iloc[0]), 4)  # C(40, 5) / C(50, 5) - C(38, 5) / C(50, 5)
    0.0737
    """
    if isinstance(decks, Deck) or not isinstance(decks, Iterable):
        raise DeckstatError(tr("{name} must be a list of at least two decks", name=param("decks")))
    decks = list(decks)
    simulation = Simulation.checked(method=method, n_trials=n_trials, rng=rng, chunk_size=chunk_size,
                                    n_workers=n_workers)
    plan = plan_compare(decks, game, event, turns=turns, seat=seat, zone=zone, keep=keep, mulligan=mulligan,
                        mulligan_rule=mulligan_rule, mulligan_limit=mulligan_limit, resource=resource, paired=paired,
                        with_deckout=with_deckout, ratio_counts=ratio_counts, allow_absent=allow_absent, known=known,
                        draws=draws, priority=priority, simulation=simulation, effects=effects, sides=sides)
    return answer_compare(plan, simulation)


@dataclass(frozen=True)
class CompareEvent:
    """One event of a :func:`compare` question, checked and priced for every deck.

    Attributes
    ----------
    events : tuple of EventPlan
        Per deck, the event compiled on its own (used as they are when every deck is answered exactly).
    method : {"exact", "simulate"}
        Exact only when every deck is.
    reasons : tuple of str
        Why ``auto`` simulated some deck, each naming it.
    part : Part or None
        The decks simulated together (common random numbers), when simulated.
    known : tuple of OddsPlan
        With known cards: per deck, its plan (then ``events`` is empty).
    sides : tuple of Sides or None, or None
        Per deck, what its answer leaves out (:func:`~deckstat.questions.odds.plan_sides`); None when no deck
        leaves anything out.
    """

    events: tuple[EventPlan, ...]
    method: str
    reasons: tuple[str, ...] = ()
    part: Part | None = None
    known: tuple[OddsPlan, ...] = ()
    sides: tuple[Sides | None, ...] | None = None


@dataclass(frozen=True)
class ComparePlan:
    """A checked :func:`compare` question: each event's plans, and the tables asked besides (nothing computed)."""

    decks: tuple[Deck, ...]
    names: tuple[str, ...]
    profile: Profile
    events: tuple[CompareEvent, ...]
    turns: object
    seat: str
    zone: str
    paired: bool
    with_deckout: bool
    ratio_counts: Iterable[int] | None
    allow_absent: bool


def plan_compare(decks: Sequence[Deck], game: str | Profile, event: str | Sequence[str], *,
                 turns: int | Iterable[int] = DEFAULT_TURNS, seat: str = "both", zone: str = "seen",
                 keep: str | None = None, mulligan: bool = True, mulligan_rule: str | None = None,
                 mulligan_limit: int | None = None, resource: str | None = None, paired: bool = True,
                 with_deckout: bool = False, ratio_counts: Iterable[int] | None = None, allow_absent: bool = False,
                 known: Mapping | Knowledge | None = None, draws: int | Iterable[int] | None = None,
                 priority: str | None = None, simulation: Simulation | None = None, effects: bool = True,
                 sides: bool = True) -> ComparePlan:
    """Every check of :func:`compare` on every deck, each deck's exact engine priced once: nothing computed.

    Each deck's event is planned as :func:`~deckstat.questions.odds.plan_event` plans it, and those plans are
    what an exact comparison answers, rather than asking :func:`~deckstat.questions.odds.odds` again.
    """
    simulation = Simulation() if simulation is None else simulation
    check_switches(effects=effects, sides=sides)
    if len(decks) < 2:
        raise DeckstatError(tr("{name} must hold at least two decks to compare, got {count}", name=param("decks"),
                               count=len(decks)))
    for d in decks:
        check_deck(d, "decks")
    texts = check_events(event)
    profile = get_profile(game)
    zone = check_zone(zone, profile)
    common = {"keep": keep, "mulligan": mulligan, "mulligan_rule": mulligan_rule, "mulligan_limit": mulligan_limit,
              "resource": resource, "priority": priority}
    names = _names(decks)
    if known is None and draws is not None:
        raise DeckstatError(tr("{draws} counts the cards drawn after a known hand; describe it with {known}, or ask "
                               "by {turns}", draws=param("draws"), known=param("known"), turns=param("turns")))
    if known is not None:
        known_cards.check_known_question(method=simulation.method, keep=keep, mulligan_rule=mulligan_rule,
                                         mulligan_limit=mulligan_limit, resource=resource, zone=zone,
                                         priority=priority, n_trials=simulation.n_trials)
    planned = []
    for text in texts:
        if known is not None:
            if not allow_absent:
                check_pooled([profile.drawn_deck(d) for d in decks], profile, [text], keep=None, keep_text=None,
                             resource=None, scope="any deck compared")
            planned.append(CompareEvent((), "exact", known=tuple(
                _naming(name, plan_odds, d, profile, text, turns=turns, seat=seat, zone=zone, allow_absent=True,
                        known=known, draws=draws) for d, name in zip(decks, names))))
            continue
        setups = [prepare(d, profile, [text], **common, allow_absent=True) for d in decks]
        if not allow_absent:
            check_pooled([s.deck for s in setups], profile, [text], keep=keep, keep_text=setups[0].keep_text,
                         resource=resource, scope="any deck compared")
        events = tuple(_naming(name, plan_event, s, turns=turns, seat=seat, zone=zone, method=simulation.method)
                       for s, name in zip(setups, names))
        chosen = "exact" if all(e.part.method == "exact" for e in events) else "simulate"
        reasons = tuple(tr("{place}: {message}", place=name, message=e.part.reason)
                        for name, e in zip(names, events) if e.part.reason)
        part = _simulated_part(events, zone, paired) if chosen == "simulate" else None
        # --exact asks for no simulation at all: the sides are left out with it.
        deck_sides = tuple(plan_sides([e], effects) for e in events) \
            if sides and simulation.method != "exact" else ()
        planned.append(CompareEvent(events, chosen, reasons, part,
                                    sides=deck_sides if any(deck_sides) else None))
    return ComparePlan(tuple(decks), tuple(names), profile, tuple(planned), turns, seat, zone, paired, with_deckout,
                       ratio_counts, allow_absent)


def _simulated_part(events: tuple[EventPlan, ...], zone: str, paired: bool) -> Part:
    """The decks of ``events`` simulated together, over one list of cells."""
    setups = [e.setup for e in events]
    draws = all_draws(events[-1].per_seat)
    specs = _common_specs(setups, max(draws))
    event = setups[0].events[0]
    if any(groups_of(s.events[0]).keys() != groups_of(event).keys() for s in setups):
        raise DeckstatError(tr("the event must read the same groups in every deck"))
    task = functools.partial(compare_task, tuple(specs), event, zone, tuple(draws), paired)
    return Part("simulate", None, lambda: None, task, tr("compare {event}", event=to_text(event)))


def answer_compare(plan: ComparePlan, simulation: Simulation) -> CompareResult:
    """Estimate and shape a planned :func:`compare` question (``simulation``: the settings it was planned with)."""
    decks, names, profile = plan.decks, list(plan.names), plan.profile
    asked = simulation
    # One root seed for every simulated part, the deck-out and ratio tables included.
    simulation = simulation.seeded()
    streams = simulation.rng
    tables, odds_tables, played, provenance, reasons = [], [], [], {}, []
    for planned in plan.events:
        if planned.known:
            results = [_naming(name, answer_odds, sub, Simulation()) for sub, name in zip(planned.known, names)]
            frames = [r.table for r in results]
            tables.append(_exact_differences(frames, names))
            odds_tables.extend(frame.assign(deck=name) for frame, name in zip(frames, names))
            provenance = dict(results[0].provenance)
            provenance["library"] = [r.provenance["library"] for r in results]
            continue
        reasons += planned.reasons
        setups = [e.setup for e in planned.events]
        if planned.method == "exact":
            frames = [shape_event(e, estimate(e.part, simulation))[0] for e in planned.events]
            table = _exact_differences(frames, names)
            provenance = dict(setups[0].provenance)
        else:
            estimates = estimate(planned.part, simulation)
            table, frames = _simulated_differences(planned.events, names, zone=plan.zone, paired=plan.paired,
                                                   estimates=estimates)
            provenance = {**setups[0].provenance, **estimates.provenance}
        tables.append(table)
        odds_tables.extend(frame.assign(deck=name) for frame, name in zip(frames, names))
        if planned.sides is not None:
            # An exact comparison asked without a seed plays its sides from their own: the same every run.
            seeded = asked.rng is not None or planned.method == "simulate"
            played.append(_played(planned, frames, table, names,
                                  simulation if seeded else replace(asked, rng=SIDE_SEED).seeded()))
    cards = pd.concat([card_differences(decks[0], d).assign(deck_a=names[0], deck_b=names[i])
                       for i, d in enumerate(decks[1:], start=1)], ignore_index=True)
    deckout_table = ratio_table = None
    if plan.with_deckout:
        deckout_table = pd.concat([deckout(d, profile, n_trials=simulation.n_trials, rng=streams,
                                           n_workers=simulation.n_workers, allow_absent=plan.allow_absent)
                                   .summary.assign(deck=name, opponent=name)
                                   for d, name in zip(decks, names)], ignore_index=True)
    if plan.ratio_counts is not None:
        ratio_seat = "first" if plan.seat in ("both", "all") else plan.seat
        ratio_table = pd.concat([ratio(d, profile, counts=plan.ratio_counts, turns=check_turns(plan.turns),
                                       seat=ratio_seat, n_trials=simulation.n_trials, rng=streams,
                                       n_workers=simulation.n_workers, allow_absent=plan.allow_absent)
                                 .table.assign(deck=name) for d, name in zip(decks, names)], ignore_index=True)
    provenance.update({"question": "compare", "deck_sources": [d.source for d in decks], "paired": plan.paired,
                       "warnings": same_size_warning(profile, [profile.drawn_deck(d) for d in decks])})
    if plan.with_deckout or plan.ratio_counts is not None:
        provenance.update(runner.provenance(streams))
    if reasons:
        provenance["method_reason"] = join_reasons(reasons)
    provenance.pop("deck_source", None)
    provenance.pop("deck_size", None)
    known = any(planned.known for planned in plan.events)
    return CompareResult(table=pd.concat(tables, ignore_index=True),
                         odds=pd.concat(odds_tables, ignore_index=True)[
                             known_cards.KNOWN_COLUMNS if known else ODDS_COLUMNS], cards=cards,
                         deckout=deckout_table, ratio=ratio_table,
                         played=pd.concat(played, ignore_index=True) if played else None, provenance=provenance)


PLAYED_COLUMNS = ["deck_a", "deck_b", "event", "seat", "turn", "p_a", "p_b", "diff", "diff_ci_low", "diff_ci_high",
                  "diff_without", "droughts", "effects_a", "effects_b", "n_trials"]


def _played(planned: CompareEvent, frames: list[pd.DataFrame], table: pd.DataFrame, names: list[str],
            simulation: Simulation) -> pd.DataFrame:
    """The comparison with each deck's drought draws and card effects played, beside ``table`` (the answer).

    A deck whose answer leaves nothing out keeps its answer. Each deck's sides run on games of their own (from
    the question's seed), so the difference's interval adds the two variances.
    """
    sized = replace(simulation, n_trials=min(simulation.n_trials or runner.DEFAULT_TRIALS, SIDE_TRIALS),
                    precision=None)
    by_deck, n_games = [], None
    for event, side, answer in zip(planned.events, planned.sides, frames):
        if side is None:
            # The answer itself: exact (no variance), or simulated with its own trials.
            n = answer["n_trials"].fillna(0).to_numpy(dtype=float)
            p = answer["p"].to_numpy(dtype=float)
            variance = np.where(n > 0, p * (1 - p) / np.maximum(n, 1), 0.0)
            by_deck.append((p, variance, False, False))
            continue
        estimates = estimate(side.part, sized)
        n_games = estimates.n_trials
        way = 1 if side.effects else 0
        p = np.array([estimates.values[way, s, 0, j] / n_games for s in range(len(event.per_seat))
                      for j in range(len(event.turns))])
        by_deck.append((p, p * (1 - p) / n_games, side.droughts, side.effects))
    z = NormalDist().inv_cdf(0.5 + runner.CONFIDENCE / 2)
    rows = []
    first = planned.events[0]
    keys = [(seat, turn) for seat in first.per_seat for turn in first.turns]
    text = to_text(first.setup.events[0])
    p_a, var_a, droughts_a, effects_a = by_deck[0]
    for b in range(1, len(by_deck)):
        p_b, var_b, droughts_b, effects_b = by_deck[b]
        answer = table[table["deck_b"] == names[b]].set_index(["seat", "turn"])["diff"]
        for k, (seat, turn) in enumerate(keys):
            diff = float(p_b[k] - p_a[k])
            half = z * math.sqrt(var_a[k] + var_b[k])
            rows.append({"deck_a": names[0], "deck_b": names[b], "event": text, "seat": seat, "turn": turn,
                         "p_a": float(p_a[k]), "p_b": float(p_b[k]), "diff": diff,
                         "diff_ci_low": max(diff - half, -1.0), "diff_ci_high": min(diff + half, 1.0),
                         "diff_without": float(answer[(seat, turn)]), "droughts": droughts_a or droughts_b,
                         "effects_a": effects_a, "effects_b": effects_b, "n_trials": n_games})
    return frame(rows, PLAYED_COLUMNS, integers=("n_trials",))


def _naming(name: str, function, *args, **kwargs):
    """``function(*args, **kwargs)``, its :class:`DeckstatError` naming deck ``name`` (which of those compared)."""
    try:
        return function(*args, **kwargs)
    except DeckstatError as exc:
        raise exc.prefixed(tr("{deck}: ", deck=name)) from None


def _names(decks: list[Deck]) -> list[str]:
    """A name per deck that tells it from the others: its file name, else its path, else its position."""
    names = [d.name if d.source != "<table>" else f"deck {i + 1}" for i, d in enumerate(decks)]
    if len(set(names)) == len(names):
        return names
    sources = [d.source if d.source != "<table>" else f"deck {i + 1}" for i, d in enumerate(decks)]
    if len(set(sources)) == len(sources):
        return sources
    return [f"{name} ({i + 1})" for i, name in enumerate(names)]


def _exact_differences(frames: list[pd.DataFrame], names: list[str]) -> pd.DataFrame:
    rows = []
    base = frames[0]
    # Odds with known cards count the cards drawn from now too (their turn may be missing).
    with_draws = "draws" in base.columns
    for i, other in enumerate(frames[1:], start=1):
        for a, b in zip(base.itertuples(index=False), other.itertuples(index=False)):
            diff = b.p - a.p
            rows.append({"game": a.game, "event": a.event, "seat": a.seat, "turn": a.turn, "zone": a.zone,
                         "deck_a": names[0], "deck_b": names[i], "p_a": a.p, "p_b": b.p, "diff": diff,
                         "diff_ci_low": diff, "diff_ci_high": diff, "p_value": np.nan, "n_trials": None,
                         "method": "exact", **({"draws": a.draws} if with_draws else {})})
    columns = COMPARE_COLUMNS[:4] + ["draws"] + COMPARE_COLUMNS[4:] if with_draws else COMPARE_COLUMNS
    return frame(rows, columns, integers=("n_trials", "turn") if with_draws else ("n_trials",))


def _simulated_differences(events: tuple[EventPlan, ...], names: list[str], *, zone: str, paired: bool,
                           estimates: Estimates) -> tuple[pd.DataFrame, list[pd.DataFrame]]:
    if paired:
        # The exact McNemar test of the discordant pairs; scipy.stats takes half a second to import.
        from scipy.stats import binomtest

    setups = [e.setup for e in events]
    profile = setups[0].profile
    turn_list, per_seat = events[-1].turns, events[-1].per_seat
    draws = all_draws(per_seat)
    tallies, n_done = estimates.values, estimates.n_trials
    event = setups[0].events[0]
    k = len(setups)
    z = NormalDist().inv_cdf(0.5 + runner.CONFIDENCE / 2)
    index = {d: j for j, d in enumerate(draws)}
    text = to_text(event)
    rows = []
    deck_odds = [[] for _ in setups]
    for i in range(k):
        low, high = runner.intervals(tallies[i], n_done)
        for seat_name, seat_draws in per_seat.items():
            for t, d in zip(turn_list, seat_draws):
                j = index[d]
                deck_odds[i].append({"deck": names[i], "game": profile.id, "event": text, "seat": seat_name,
                                     "turn": t, "zone": zone, "zone_size": zone_size(profile, zone, d),
                                     "p": tallies[i, j] / n_done, "ci_low": low[j], "ci_high": high[j],
                                     "n_trials": n_done, "method": "simulate"})
    for i in range(1, k):
        for seat_name, seat_draws in per_seat.items():
            for t, d in zip(turn_list, seat_draws):
                j = index[d]
                hits_a, hits_b, both = int(tallies[0, j]), int(tallies[i, j]), int(tallies[k + i, j])
                p_a, p_b = hits_a / n_done, hits_b / n_done
                diff = p_b - p_a
                if paired:
                    only_a, only_b = hits_a - both, hits_b - both
                    variance = max((only_a + only_b) / n_done - diff ** 2, 0.0)
                    discordant = only_a + only_b
                    p_value = binomtest(only_b, discordant, 0.5).pvalue if discordant else 1.0
                else:
                    variance = p_a * (1 - p_a) + p_b * (1 - p_b)
                    pooled = (hits_a + hits_b) / (2 * n_done)
                    se_null = np.sqrt(2 * pooled * (1 - pooled) / n_done)
                    # Two-sided normal tail: 2 (1 - Phi(x)) = erfc(x / sqrt 2).
                    p_value = math.erfc(abs(diff) / se_null / math.sqrt(2)) if se_null > 0 else 1.0
                half = z * np.sqrt(variance / n_done)
                rows.append({"game": profile.id, "event": text, "seat": seat_name, "turn": t, "zone": zone,
                             "deck_a": names[0], "deck_b": names[i], "p_a": p_a, "p_b": p_b, "diff": diff,
                             "diff_ci_low": max(diff - half, -1.0), "diff_ci_high": min(diff + half, 1.0),
                             "p_value": float(p_value), "n_trials": n_done, "method": "simulate"})
    odds_frames = [frame(records, ODDS_COLUMNS, integers=("n_trials", "zone_size")) for records in deck_odds]
    return frame(rows, COMPARE_COLUMNS), odds_frames

