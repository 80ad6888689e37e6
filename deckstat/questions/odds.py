"""P(event) in a zone, by turn and seat: the question most others build on."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from statistics import NormalDist

import numpy as np
import pandas as pd

from deckstat._validate import check_events
from deckstat.deck import Deck
from deckstat.engines import runner, tasks
from deckstat.engines.cost import Cost
from deckstat.errors import DeckstatError, param
from deckstat.events import to_text
from deckstat.games.profiles import Profile, get_profile
from deckstat.i18n import tr
from deckstat.knowledge import Knowledge
from deckstat.play import build_model
from deckstat.play.base import schedule
from deckstat.play.engine import Dealing, SeenSpec, seen_game, seen_task
from deckstat.questions import known as known_cards
from deckstat.questions._estimate import Estimates, Part, Simulation, estimate, price, stack_events
from deckstat.questions._setup import (
    Setup,
    all_draws,
    check_zone,
    prepare,
    refuse_empty_zone,
    turn_plan,
    zone_size,
)
from deckstat.questions.deckout import effect_program
from deckstat.results import OddsResult, frame
from deckstat.terms import ZONE_NAMES, name_of

ODDS_COLUMNS = ["deck", "game", "event", "seat", "turn", "zone", "zone_size", "p", "ci_low", "ci_high", "n_trials",
                "method"]
#: The turns asked when none are given.
DEFAULT_TURNS = range(7)
KEEP_COLUMNS = ["deck", "game", "event", "mulligan_rule", "mulligan_limit", "keep", "p_keep_first", "ci_low",
                "ci_high", "n_trials", "method"]


@runner.pooled
def odds(deck: Deck, game: str | Profile, event: str | Sequence[str], *,
         turns: int | Iterable[int] = DEFAULT_TURNS,
         seat: str = "both", zone: str = "seen", keep: str | None = None, mulligan: bool = True,
         mulligan_rule: str | None = None, mulligan_limit: int | None = None, resource: str | None = None,
         method: str = "auto", n_trials: int | None = None, rng=None, precision: float | None = None,
         chunk_size: int = runner.DEFAULT_CHUNK, n_workers: int = 1, allow_absent: bool = False,
         max_trials: int = runner.DEFAULT_MAX_TRIALS, priority: str | None = None,
         known: Mapping | Knowledge | None = None, draws: int | Iterable[int] | None = None,
         effects: bool = True, sides: bool = True) -> OddsResult:
    """Probability that an event holds in a zone, by turn and seat.

    Parameters
    ----------
    deck : Deck
        The deck (for Licum, a table holding both decks; the game deck is drawn).
    game : str or Profile
        Game profile id (``"wankul"``, ``"duel-masters"``…) or a ``.toml`` profile path.
    event : str or list of str
        Event expression(s), e.g. ``"Terrain>=1 and [cost<=1]>=1"``.
    turns : int or iterable of int
        Turns to report; turn 0 is the kept opening hand, turn t the state
        after the player's draw step of their t-th turn.
    seat : {"both", "first", "second"}
        Which player's draws to follow.
    zone : {"seen", "hand", "set_aside", "bottom"}
        Where the cards are counted. ``hand`` and ``set_aside`` do not change
        with turns and are reported at turn 0 only. French names (``main``,
        ``dessous``…) and the game's name for its set-aside cards
        (``shields``, ``boucliers``) are read too.
    keep : str, optional
        Keep rule of the mulligan (default: the profile's).
    mulligan : bool
        ``False`` keeps every first hand.
    mulligan_rule : {"bottom", "london", "vancouver", "free", "hearthstone", "pokemon", "none"}, optional
        Replace the profile's mulligan rule, e.g. to compare with published tables.
    mulligan_limit : int, optional
        Mulligans allowed (default: the profile's, or 1).
    resource : str, optional
        Resource group (default: the profile's): the last need of the London,
        Vancouver, free and Hearthstone card choices, with its share of the
        deck times the kept hand size (see ``docs/mulligans.md``).
    method : {"auto", "exact", "simulate"}
        ``auto`` uses the exact engine when it models the rules (no mulligan,
        one bottom mulligan, or the Pokémon rule) and its predicted cost is
        small (at most about a second and 256 MiB, see
        :mod:`deckstat.engines.cost`), the Monte Carlo kernel otherwise; then
        ``provenance["method_reason"]`` says why. ``exact`` forces the exact
        engine, and is refused up front when it would need more than 10
        minutes or 4 GiB.
    n_trials : int, optional
        Simulated trials (default 200 000).
    rng : int, Generator or None
        Seed of the simulation. None draws a fresh seed below 10**9; either
        way ``provenance["seed"]`` is the number that, passed again, gives the
        same numbers (``None`` after a Generator that had already been used:
        then ``seed_entropy`` and ``seed_spawn_key`` record its streams).
        Every event is simulated from the same root seed, so an event's
        numbers do not depend on the others asked with it.
    precision : float, optional
        Simulate until the widest 95% interval's half-width is at most this,
        block by block (the first block at which it holds ends the run).
    chunk_size : int
        With several workers, trials handed out ahead; does not change the
        results.
    n_workers : int
        Processes for the simulation (one pool for every event); does not
        change the results. A script that sets it above 1 must guard its
        top level with ``if __name__ == "__main__":``, as processes started
        by ``multiprocessing`` re-import it.
    allow_absent : bool
        Accept groups (in the events, the keep rule or ``resource``) that
        match no card of the deck. By default such a group is an error that
        lists the values the deck has: a misspelt name or a value the card
        file writes differently would otherwise give a silent 0%.
    max_trials : int
        The most trials a ``precision`` run may spend (default 10**8; it
        bounds nothing else). A precision that even proportions of 0 could
        not reach within it is refused before any trial; otherwise the trials
        needed are estimated after the first block of 131,072 from the
        observed proportions, and a precision that needs more is refused then,
        before the time is spent. A run that reaches ``max_trials`` all the
        same stops with an error. The estimate and the stopping rule are
        recorded in the provenance (``estimated_trials``, ``stopping_rule``).
    priority : str, optional
        Which cards the London, Vancouver, free and Hearthstone mulligans keep,
        most important first, e.g. ``"Terrain=2, [cost<=1]=1, Dragon"`` (a
        group without ``=count`` wants every card of it). Replaces the needs
        read from the keep rule, the event and the resource group.
    known : mapping, optional
        Cards known mid-game, by zone: ``{"hand": "LAINK, 2 DRESSEUSE",
        "gone": "gone.csv", "bottom": "Terrain=2, other=3", "set_aside":
        …, "broken": 2}`` (French zone words too: ``main``, ``défausse``,
        ``dessous``, ``boucliers``, ``brisés``). Each description is a card
        file, a text decklist, names or group counts, or a list of them; see
        docs/known.md. The answer is then exact, with no mulligan: the zone
        ``seen`` counts the hand described, the broken set-aside cards and
        the next cards drawn; turn ``t`` is the state after the draw of the
        player's ``t``-th turn from now (``seat`` ``first`` or ``second``:
        the hand is that seat's opening hand and turn 1 draws as the profile
        says). ``zone="set_aside"`` counts the broken set-aside cards, or
        every set-aside card when none is broken.
    draws : int or iterable of int, optional
        With ``known``: the numbers of next cards drawn to report, instead of turns.
    effects : bool
        Whether to answer beside ``table`` with the deck's draw, search and look effects played (the
        ``effects`` table; see :func:`plan_sides`); ``False`` asks the plain question alone.
    sides : bool
        Whether to answer beside ``table`` what it leaves out at all (the ``droughts`` and ``effects`` tables);
        ``False`` gives ``table`` and ``summary`` alone, as a batch that keeps only them asks.

    Returns
    -------
    OddsResult
        ``table``: one row per event, seat and turn, with ``p`` and its 95%
        Wilson interval (equal to ``p`` when exact); ``summary``: per event,
        the rules in force and ``p_keep_first``. With ``known``, ``table``
        has a ``draws`` column (cards drawn from now; ``turn`` is missing when
        ``draws`` was given), ``seat`` is ``now`` unless a seat was given, and
        ``summary`` holds the number of known cards in each zone and the
        ``library`` left to draw before the bottom block. ``droughts``
        (Wankul, zone ``seen``): the answer beside the same events with the
        drought draws it leaves out, both players' turns played as in
        :func:`deckstat.curve` (:func:`plan_sides`; 40,000 games at most,
        on the question's seed, or on a seed of their own when none is given
        and nothing else is simulated; none with ``method="exact"``).
        ``effects`` (zone ``seen``, a deck whose cards draw, search or look:
        a ``draw`` column or ``pioche``, ``cherche``, ``regarde`` effects,
        unless ``effects=False``): on the same simulated games, ``p_without``
        the effects (with Wankul's drought draws when ``droughts``), ``p``
        with them played, and their ``gain`` = ``p - p_without`` with its
        95% interval (paired).

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "Terrain", "count": 10, "type": "Terrain"},
    ...                                  {"name": "Personnage", "count": 40, "type": "Personnage"}])
    >>> result = deckstat.odds(deck, "wankul", "Terrain>=1", turns=[0], seat="first", mulligan=False)
    >>> round(float(result.table["p"].iloc[0]), 4)  # 1 - C(40,5)/C(50,5)
    0.6894
    """
    simulation = Simulation.checked(method=method, n_trials=n_trials, precision=precision, rng=rng,
                                    chunk_size=chunk_size, n_workers=n_workers, max_trials=max_trials)
    plan = plan_odds(deck, game, event, turns=turns, seat=seat, zone=zone, keep=keep, mulligan=mulligan,
                     mulligan_rule=mulligan_rule, mulligan_limit=mulligan_limit, resource=resource,
                     allow_absent=allow_absent, priority=priority, known=known, draws=draws, simulation=simulation,
                     effects=effects, sides=sides)
    return answer_odds(plan, simulation)


@dataclass(frozen=True)
class EventPlan:
    """One event of :func:`odds` (or of a question built on it), checked and priced: nothing computed.

    Attributes
    ----------
    setup : Setup
        The rules in force and this event compiled on its own.
    turns : list of int
    per_seat : dict of str to list of int
        Per seat, the cards drawn after the opening hand by each turn (:func:`turn_plan`).
    zone : str
    part : Part
        The computation, by the method chosen for it.
    """

    setup: Setup
    turns: list[int]
    per_seat: dict[str, list[int]]
    zone: str
    part: Part


@dataclass(frozen=True)
class OddsPlan:
    """A checked :func:`odds` question: each event's plan, or with known cards each event's rows.

    ``method`` is the method asked (a question built on odds asks for the method it chose).
    """

    texts: tuple[str, ...]
    events: tuple[EventPlan, ...]
    method: str
    zone: str
    knowledge: Knowledge | None = None
    known: tuple[tuple[Setup, object], ...] = ()
    #: The same question with the drought draws and card effects the answer leaves out (:func:`plan_sides`).
    sides: Sides | None = None


def plan_odds(deck: Deck, game: str | Profile, event: str | Sequence[str], *,
              turns: int | Iterable[int] = DEFAULT_TURNS, seat: str = "both", zone: str = "seen",
              keep: str | None = None, mulligan: bool = True, mulligan_rule: str | None = None,
              mulligan_limit: int | None = None, resource: str | None = None, allow_absent: bool = False,
              priority: str | None = None, known: Mapping | Knowledge | None = None,
              draws: int | Iterable[int] | None = None, simulation: Simulation | None = None,
              effects: bool = True, sides: bool = True) -> OddsPlan:
    """Every check of :func:`odds`, and its exact engine priced once per event: nothing computed.

    Parameters are those of :func:`odds`; ``simulation`` holds its method and simulation settings (default:
    ``auto`` with the default settings).

    Returns
    -------
    OddsPlan
        For :func:`answer_odds`.
    """
    simulation = Simulation() if simulation is None else simulation
    check_switches(effects=effects, sides=sides)
    texts = tuple(check_events(event))
    zone = check_zone(zone, get_profile(game))
    if known is not None:
        knowledge = Knowledge.from_mapping(known)
        known_cards.check_known_question(method=simulation.method, keep=keep, mulligan_rule=mulligan_rule,
                                         mulligan_limit=mulligan_limit, resource=resource, zone=zone,
                                         priority=priority, n_trials=simulation.n_trials,
                                         precision=simulation.precision)
        planned = []
        for text in texts:
            setup = prepare(deck, game, [text], keep=None, mulligan=False, mulligan_rule=None, mulligan_limit=None,
                            resource=None, allow_absent=allow_absent)
            refuse_empty_zone(setup.profile, zone)
            planned.append((setup, known_cards.plan(setup, turns=turns, draws=draws, seat=seat, zone=zone,
                                                    turns_given=turns is not DEFAULT_TURNS)))
        return OddsPlan(texts, (), "exact", zone, knowledge, tuple(planned))
    if draws is not None:
        raise DeckstatError(tr("{draws} counts the cards drawn after a known hand; describe it with {known}, or ask "
                               "by {turns}", draws=param("draws"), known=param("known"), turns=param("turns")))
    rules = {"keep": keep, "mulligan": mulligan, "mulligan_rule": mulligan_rule, "mulligan_limit": mulligan_limit,
             "resource": resource, "allow_absent": allow_absent, "priority": priority}
    events = tuple(plan_event(prepare(deck, game, [text], **rules), turns=turns, seat=seat, zone=zone,
                              method=simulation.method) for text in texts)
    # --exact asks for no simulation at all: the sides are left out with it.
    planned = plan_sides(events, effects) if sides and simulation.method != "exact" else None
    return OddsPlan(texts, events, simulation.method, zone, sides=planned)


def check_switches(**switches: object) -> None:
    """Refuse a switch (``effects=``, ``sides=``) that is not True or False."""
    for name, value in switches.items():
        if not isinstance(value, bool):
            raise DeckstatError(tr("{name} must be True or False, got {value!r}", name=param(name), value=value))


#: Games simulated for the sides of an exact answer (drought draws, card effects): ±0.5 point at most.
SIDE_TRIALS = 40_000
#: The seed of the sides when the question has none: an exact answer prints the same figures every run.
SIDE_SEED = 26
DROUGHT_COLUMNS = ["deck", "game", "event", "seat", "turn", "p_without", "p", "ci_low", "ci_high", "n_trials"]
EFFECT_COLUMNS = ["deck", "game", "event", "seat", "turn", "p_without", "p", "ci_low", "ci_high", "gain",
                  "gain_low", "gain_high", "droughts", "n_trials"]


@dataclass(frozen=True)
class Sides:
    """What an exact :func:`odds` answer leaves out, planned: drought draws, card effects (see :func:`plan_sides`)."""

    part: Part
    droughts: bool
    effects: bool


def plan_sides(events: Sequence[EventPlan], effects: bool = True, cumulative: bool = False) -> Sides | None:
    """The events on the cards seen with what the answer leaves out: Wankul's drought draws, card effects.

    The answer of :func:`odds` counts the cards the turns draw. In Wankul a drought (« les joueurs piochent une
    carte à la fois jusqu'à en trouver un ») brings more, on either player's turn: the games are then played with
    the play model of :func:`deckstat.curve` (both players' turns, the ``hold`` player's draws, the same scoring
    and drought readings). A card whose effects draw, search or look (``pioche=2``, ``cherche=[type=Terrain]``,
    or a ``draw`` column; ``effects=False`` leaves them out) brings more too: the player plays each such card as
    soon as it is in hand (in Wankul, while a Terrain is in play), its cost left aside, and the cards it brings play
    theirs (see ``docs/effects.md``). Each event is counted on the
    cards seen by each turn, on the same games without and with the effects (``cumulative``: whether it has held
    by each turn, for :func:`deckstat.when`). None where neither applies, the zone is not ``seen``, or the
    mulligan is not the bottom one (or none).
    """
    setup, first = events[0].setup, events[0]
    profile = setup.profile
    if first.zone != "seen" or setup.rule not in ("none", "bottom"):
        return None
    model = None
    if profile.drought_group and profile.play_model.kind == "discard":
        try:
            model = build_model(setup.deck, profile)
        except DeckstatError:
            model = None
        if model is not None and not model.terrain.any():
            model = None
    program = effect_program(setup.deck, profile) if effects else None
    if model is None and program is None:
        return None
    library = setup.drawable()
    schedules = tuple(schedule(profile, seat, max(max(first.turns), 1), library) for seat in first.per_seat)
    keep = setup.keep_event if setup.rule == "bottom" else None
    limit = setup.limit if keep is not None else 0

    def dealing(deck) -> Dealing:
        return Dealing.of(deck, profile.hand_size, profile.set_aside, keep, limit)

    # Each event was compiled on its own: its columns side by side, each event reading its own.
    tables, counted, start = [], [], 0
    for event in events:
        compiled = event.setup.compiled
        table = compiled.table[compiled.card_cells]
        tables.append(table)
        distinct = tuple(None if columns is None else tuple(start + c for c in columns)
                         for columns in compiled.distinct_columns)
        counted.append((tuple(range(start, start + len(compiled.group_keys))), compiled.group_keys, distinct,
                        event.setup.events[0]))
        start += table.shape[1]
    rival = model.rival_deck() if model is not None else None
    spec = SeenSpec(model, dealing(setup.deck), None if rival is None else dealing(rival), schedules,
                    tuple(first.turns), np.column_stack(tables), tuple(counted), program, cumulative)
    if program is not None and not program.draws_only:
        # The compiled game tables the keep rule: refuse one it cannot table now, not in the middle of the work.
        seen_game(model, spec.dealing, spec.opponent, schedules[0], spec.table, spec.turns, program)
    words = tr("odds with drought draws") if program is None else tr("odds with card effects")
    return Sides(Part("simulate", None, lambda: None, functools.partial(seen_task, spec), words),
                 droughts=model is not None, effects=program is not None)


def answer_sides(plan, table: pd.DataFrame, asked: Simulation, simulation: Simulation,
                 column: str = "p") -> tuple[pd.DataFrame | None, pd.DataFrame | None, dict]:
    """The ``droughts`` and ``effects`` tables of a planned question, and what reproduces them (its seed).

    ``plan``: its ``events`` and ``sides`` (:func:`plan_sides`); ``table``: its answer, ``column`` the answer
    each side row stands beside. ``asked``: the simulation settings given; ``simulation``: those the answer ran
    with. The sides share the question's seed when it has one (given, or drawn for a simulated part, and then
    printed); an exact answer asked without a seed gets the sides' own, so it is the same every run.
    """
    seeded = asked.rng is not None or any(event.part.method == "simulate" for event in plan.events)
    return _side_tables(plan, table, simulation if seeded else asked, column)


def _side_tables(plan, table: pd.DataFrame, simulation: Simulation,
                 column: str) -> tuple[pd.DataFrame | None, pd.DataFrame | None, dict]:
    """Each answer beside the same events with drought draws and with card effects (:func:`plan_sides`)."""
    if plan.sides is None:
        return None, None, {}
    asked = simulation.n_trials if simulation.n_trials is not None else runner.DEFAULT_TRIALS
    sized = replace(simulation, n_trials=min(asked, SIDE_TRIALS), precision=None,
                    rng=SIDE_SEED if simulation.rng is None else simulation.rng).seeded()
    estimates = estimate(plan.sides.part, sized)
    n = estimates.n_trials
    counts = estimates.values
    droughts, effects = [], []
    for e, event in enumerate(plan.events):
        text = to_text(event.setup.events[0])
        rows = table[table["event"] == text]
        for s, seat_name in enumerate(event.per_seat):
            for j, turn in enumerate(event.turns):
                without = float(rows[(rows["seat"] == seat_name) & (rows["turn"] == turn)][column].iloc[0])
                base = {"deck": event.setup.deck.name, "game": event.setup.profile.id, "event": text,
                        "seat": seat_name, "turn": turn, "p_without": without}
                p, low, high = estimates.share(counts[0, s, e, j])
                if plan.sides.droughts:
                    droughts.append({**base, "p": float(p), "ci_low": float(low), "ci_high": float(high),
                                     "n_trials": n})
                if plan.sides.effects:
                    p, low, high = estimates.share(counts[1, s, e, j])
                    gain, gain_low, gain_high = paired_gain(counts[2, s, e, j], counts[3, s, e, j], n)
                    # Without the effects on the same games: the answer, or with Wankul's droughts the drought side.
                    effects.append({**base, "p_without": float(counts[0, s, e, j]) / n, "p": float(p),
                                    "ci_low": float(low), "ci_high": float(high), "gain": gain,
                                    "gain_low": gain_low, "gain_high": gain_high, "droughts": plan.sides.droughts,
                                    "n_trials": n})
    return (frame(droughts, DROUGHT_COLUMNS, integers=("n_trials",)) if plan.sides.droughts else None,
            frame(effects, EFFECT_COLUMNS, integers=("n_trials",)) if plan.sides.effects else None,
            {**estimates.provenance, "n_trials": n})


def played_rows(result: OddsResult) -> pd.DataFrame | None:
    """An odds answer's rows with what it leaves out played, or None when it leaves nothing out.

    Its ``effects`` rows (with the drought draws where it has them), else its ``droughts`` rows; ``p_without`` is
    the answer's ``p``, and ``droughts`` and ``effects`` say which were played.
    """
    side = result.effects if result.effects is not None else result.droughts
    if side is None:
        return None
    plain = result.table.set_index(["event", "seat", "turn"])["p"]
    return side.assign(p_without=[float(plain[key]) for key in zip(side["event"], side["seat"], side["turn"])],
                       droughts=result.droughts is not None, effects=result.effects is not None)


def paired_gain(up: int, down: int, n: int) -> tuple[float, float, float]:
    """The change of a proportion on the same ``n`` games, and its 95% interval (normal, on the paired outcomes).

    ``up`` games where the event holds only with the change, ``down`` only without it.

    Examples
    --------
    >>> [round(x, 4) for x in paired_gain(30, 10, 1000)]
    [0.02, 0.0077, 0.0323]
    """
    gain = (up - down) / n
    variance = max((up + down) / n - gain**2, 0.0) / n
    half = NormalDist().inv_cdf(0.5 + runner.CONFIDENCE / 2) * variance**0.5
    return gain, max(gain - half, -1.0), min(gain + half, 1.0)


def plan_event(setup: Setup, *, turns, seat: str, zone: str, method: str) -> EventPlan:
    """The turns of one prepared event, and its method chosen with the exact engine priced once."""
    turn_list, per_seat = turn_plan(setup, turns, seat, zone)
    return event_plan(setup, turn_list, per_seat, zone, method)


def event_plan(setup: Setup, turns: list[int], per_seat: dict[str, list[int]], zone: str, method: str,
               predicted: Cost | None = None) -> EventPlan:
    """One prepared event's part, by ``method``; ``predicted`` is its exact cost when a caller has priced it."""
    draws = all_draws(per_seat)
    condition = setup.condition(0)
    chosen, reason, cost = price(setup, method, lambda: predicted if predicted is not None else
                                 setup.exact_cost(condition, draws, zone))
    task = description = None
    if chosen == "simulate":
        task = functools.partial(tasks.odds_task, setup.deal_spec(max(draws)), setup.events, zone, tuple(draws))
        description = tr("odds {event} ({zone})", event=to_text(setup.events[0]), zone=name_of(ZONE_NAMES, zone))
    part = Part(chosen, reason, functools.partial(setup.exact_odds, condition, draws, zone), task, description,
                _widest_event, cost)
    return EventPlan(setup, turns, per_seat, zone, part)


def _widest_event(tallies: np.ndarray, n_trials: int) -> float:
    # The last row counts the kept first hands: not an answer, so no part of the stopping rule.
    return runner.widest_half_width(tallies[:-1], n_trials)


def answer_odds(plan: OddsPlan, simulation: Simulation) -> OddsResult:
    """Estimate and shape a planned :func:`odds` question (``simulation``: the settings it was planned with)."""
    if plan.knowledge is not None:
        answers = [known_cards.answer(setup, plan.knowledge, zone=plan.zone, rows=rows)
                   for setup, rows in plan.known]
        table, summary, provenance = stack_events(plan.texts, answers, "odds")
        return OddsResult(table=table, summary=summary, provenance=provenance)
    asked = simulation
    if plan.method != "exact":
        simulation = simulation.seeded()
    answers = [shape_event(event, estimate(event.part, simulation)) for event in plan.events]
    table, summary, provenance = stack_events(plan.texts, answers, "odds")
    droughts, effects, sides = answer_sides(plan, table, asked, simulation)
    if sides:
        provenance["sides"] = sides
    return OddsResult(table=table, summary=summary, provenance=provenance, droughts=droughts, effects=effects)


def shape_event(event: EventPlan, estimates: Estimates) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """One event's odds table, its P(keep the first hand) and its provenance."""
    setup, zone, profile = event.setup, event.zone, event.setup.profile
    draws = all_draws(event.per_seat)
    if estimates.method == "exact":
        probs, p_keep = estimates.values
    else:
        probs, p_keep = estimates.values[0], estimates.values[-1, 0]
    probs, low, high = estimates.share(probs)
    keep_p, keep_low, keep_high = (float(x) for x in estimates.share(p_keep))
    n_done, chosen = estimates.n_trials, estimates.method
    by_draws = {d: (p, lo, hi) for d, p, lo, hi in zip(draws, probs, low, high)}
    text = to_text(setup.events[0])
    identity = {"deck": setup.deck.name, "game": profile.id, "event": text}
    records = []
    for seat_name, seat_draws in event.per_seat.items():
        for t, d in zip(event.turns, seat_draws):
            p, lo, hi = by_draws[d]
            records.append({**identity, "seat": seat_name, "turn": t, "zone": zone,
                            "zone_size": zone_size(profile, zone, d), "p": float(p), "ci_low": float(lo),
                            "ci_high": float(hi), "n_trials": n_done, "method": chosen})
    table = frame(records, ODDS_COLUMNS, integers=("n_trials", "zone_size"))
    summary = frame([{**identity, "mulligan_rule": setup.rule, "mulligan_limit": setup.limit, "keep": setup.keep_text,
                      "p_keep_first": keep_p, "ci_low": keep_low, "ci_high": keep_high, "n_trials": n_done,
                      "method": chosen}], KEEP_COLUMNS, integers=("n_trials", "mulligan_limit"))
    return table, summary, {**setup.provenance, **estimates.provenance}
