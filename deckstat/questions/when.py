"""On which turn an event first holds among the cards seen: its distribution, mean, median and P(never)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from deckstat._validate import check_events, check_whole
from deckstat.deck import Deck
from deckstat.engines import runner, tasks
from deckstat.events import to_text
from deckstat.games.profiles import Profile
from deckstat.i18n import tr
from deckstat.questions._estimate import Estimates, Part, Simulation, estimate, first_turn, price, stack_events
from deckstat.questions._setup import Setup, all_draws, is_increasing, prepare, turn_plan
from deckstat.questions.odds import EventPlan, Sides, answer_sides, check_switches, plan_sides
from deckstat.results import WhenResult, frame
from deckstat.terms import MOST_TURN

WHEN_COLUMNS = ["deck", "game", "event", "seat", "turn", "p", "ci_low", "ci_high", "cdf", "cdf_low", "cdf_high",
                "n_trials", "method"]
SUMMARY_COLUMNS = ["deck", "game", "event", "seat", "max_turn", "mean_turn", "median_turn", "p_never", "p_never_low",
                   "p_never_high", "n_trials", "method"]


@runner.pooled
def when(deck: Deck, game: str | Profile, event: str | Sequence[str], *, max_turn: int = 10, seat: str = "both",
         keep: str | None = None, mulligan: bool = True, mulligan_rule: str | None = None,
         mulligan_limit: int | None = None, resource: str | None = None, method: str = "auto",
         n_trials: int | None = None, rng=None, precision: float | None = None,
         chunk_size: int = runner.DEFAULT_CHUNK, n_workers: int = 1, allow_absent: bool = False,
         max_trials: int = runner.DEFAULT_MAX_TRIALS, priority: str | None = None, effects: bool = True,
         sides: bool = True) -> WhenResult:
    """Distribution of the first turn at which an event holds among the cards seen.

    Exact when the event can only become true as cards are seen (comparisons
    ``>=``/``>``, or ``<``/``<=`` under ``not``), the exact engine models the
    mulligan and it is cheap enough (see ``method`` in :func:`deckstat.odds`);
    simulated otherwise. Parameters as in :func:`deckstat.odds`
    (``allow_absent``, ``priority``, ``precision`` and ``max_trials`` included; the precision
    is that of the ``cdf`` intervals); ``max_turn`` is the last turn followed.
    ``effects`` and ``sides`` as in :func:`deckstat.odds`: beside the answer, on simulated games, the first turn
    with Wankul's drought draws and with the deck's draw, search and look effects played.

    Returns
    -------
    WhenResult
        ``table``: per event, seat and turn 0..``max_turn``, ``p`` (first holds
        on that turn) and ``cdf`` (holds by that turn), with their 95%
        intervals when simulated. ``summary``: per event and seat, the mean and
        median first turn among games where it holds by ``max_turn``, and
        ``p_never`` (it has not held by then) with its 95% interval
        (``p_never_low``, ``p_never_high``; equal to ``p_never`` when exact). ``droughts`` and ``effects``: as
        in :func:`deckstat.odds`, ``p`` there being the event's having held by the turn (the ``cdf``).

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "Terrain", "count": 10, "type": "Terrain"},
    ...                                  {"name": "Personnage", "count": 40, "type": "Personnage"}])
    >>> result = deckstat.when(deck, "wankul", "Terrain>=1", max_turn=3, seat="first", mulligan=False)
    >>> result.table["cdf"].round(4).tolist()  # 1 - C(40, 5 + t) / C(50, 5 + t)
    [0.6894, 0.7585, 0.8133, 0.8568]
    """
    simulation = Simulation.checked(method=method, n_trials=n_trials, precision=precision, rng=rng,
                                    chunk_size=chunk_size, n_workers=n_workers, max_trials=max_trials)
    plan = plan_when(deck, game, event, max_turn=max_turn, seat=seat, keep=keep, mulligan=mulligan,
                     mulligan_rule=mulligan_rule, mulligan_limit=mulligan_limit, resource=resource,
                     allow_absent=allow_absent, priority=priority, simulation=simulation, effects=effects,
                     sides=sides)
    return answer_when(plan, simulation)


@dataclass(frozen=True)
class WhenPlan:
    """A checked :func:`when` question: each event's set-up, turns and part (nothing computed)."""

    texts: tuple[str, ...]
    events: tuple[EventPlan, ...]
    method: str
    max_turn: int
    #: The first turn with the drought draws and card effects the answer leaves out (:func:`plan_sides`).
    sides: Sides | None = None


def plan_when(deck: Deck, game: str | Profile, event: str | Sequence[str], *, max_turn: int = 10,
              seat: str = "both", keep: str | None = None, mulligan: bool = True, mulligan_rule: str | None = None,
              mulligan_limit: int | None = None, resource: str | None = None, allow_absent: bool = False,
              priority: str | None = None, simulation: Simulation | None = None, effects: bool = True,
              sides: bool = True) -> WhenPlan:
    """Every check of :func:`when`, and its exact engine priced once per event: nothing computed.

    Parameters are those of :func:`when`; ``simulation`` holds its method and simulation settings.
    """
    simulation = Simulation() if simulation is None else simulation
    check_switches(effects=effects, sides=sides)
    texts = tuple(check_events(event))
    max_turn = check_whole(max_turn, "max_turn", maximum=MOST_TURN)
    rules = {"keep": keep, "mulligan": mulligan, "mulligan_rule": mulligan_rule, "mulligan_limit": mulligan_limit,
             "resource": resource, "allow_absent": allow_absent, "priority": priority}
    events = tuple(_plan_first_turn(prepare(deck, game, [text], **rules), max_turn, seat, simulation.method)
                   for text in texts)
    # --exact asks for no simulation at all: the sides are left out with it.
    planned = plan_sides(events, effects, cumulative=True) if sides and simulation.method != "exact" else None
    return WhenPlan(texts, events, simulation.method, max_turn, planned)


def _plan_first_turn(setup: Setup, max_turn: int, seat: str, method: str) -> EventPlan:
    turns, per_seat = turn_plan(setup, range(max_turn + 1), seat, turns_name="max_turn")
    draws = all_draws(per_seat)
    condition = setup.condition(0)
    # Only an event that stays true once it holds has its first turn in P(event) by turn.
    chosen, reason, cost = price(setup, method, lambda: setup.exact_cost(condition, draws),
                                 needs_order=not is_increasing(setup.events[0]))
    task = description = None
    if chosen == "simulate":
        task = functools.partial(tasks.when_task, setup.deal_spec(max(draws)), setup.events[0],
                                 tuple(tuple(d) for d in per_seat.values()))
        description = tr("when {event}", event=to_text(setup.events[0]))
    part = Part(chosen, reason, functools.partial(setup.exact_odds, condition, draws), task, description,
                _widest_cdf, cost)
    return EventPlan(setup, turns, per_seat, "seen", part)


def answer_when(plan: WhenPlan, simulation: Simulation) -> WhenResult:
    """Estimate and shape a planned :func:`when` question (``simulation``: the settings it was planned with)."""
    asked = simulation
    if plan.method != "exact":
        simulation = simulation.seeded()
    answers = [_shape(event, estimate(event.part, simulation), plan.max_turn) for event in plan.events]
    table, summary, provenance = stack_events(plan.texts, answers, "when")
    droughts, effects, sides = answer_sides(plan, table, asked, simulation, column="cdf")
    if sides:
        provenance["sides"] = sides
    return WhenResult(table=table, summary=summary, provenance=provenance, droughts=droughts, effects=effects)


def _widest_cdf(tallies: np.ndarray, n_trials: int) -> float:
    return runner.widest_half_width(np.cumsum(tallies[:, :-1], axis=1), n_trials)


def _shape(event: EventPlan, estimates: Estimates, max_turn: int) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    setup, turns, chosen, n_done = event.setup, event.turns, estimates.method, estimates.n_trials
    if chosen == "exact":
        probs = estimates.share(estimates.values[0])[0]
        by_draws = dict(zip(all_draws(event.per_seat), probs))
    identity = {"deck": setup.deck.name, "game": setup.profile.id, "event": to_text(setup.events[0])}
    rows, summary = [], []
    for i, (seat_name, draws) in enumerate(event.per_seat.items()):
        if chosen == "exact":
            # P(event among the cards seen) by turn is its first turn's CDF; the max keeps it monotone to rounding.
            cdf = np.maximum.accumulate(np.array([by_draws[d] for d in draws]))
            pmf = np.diff(cdf, prepend=0.0)
            hits, cumulative = pmf, cdf
        else:
            hits = estimates.values[i][:-1]  # the last count: never by max_turn
            cumulative = np.cumsum(hits)
        pmf, pmf_low, pmf_high = estimates.share(hits)
        cdf, cdf_low, cdf_high = estimates.share(cumulative)
        for t in turns:
            rows.append({**identity, "seat": seat_name, "turn": t, "p": float(pmf[t]), "ci_low": float(pmf_low[t]),
                         "ci_high": float(pmf_high[t]), "cdf": float(cdf[t]), "cdf_low": float(cdf_low[t]),
                         "cdf_high": float(cdf_high[t]), "n_trials": n_done, "method": chosen})
        summary.append({**identity, "seat": seat_name, "max_turn": max_turn,
                        **first_turn(turns, pmf, cdf, cdf_low, cdf_high), "n_trials": n_done, "method": chosen})
    return (frame(rows, WHEN_COLUMNS), frame(summary, SUMMARY_COLUMNS, integers=("n_trials", "median_turn")),
            {**setup.provenance, **estimates.provenance})
