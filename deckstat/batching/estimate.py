"""The dry run's estimates: each task's method and time from the cost models, with no task run.

An exact answer costs what :mod:`deckstat.engines.cost` predicts for the
exact engine (the prediction ``auto`` itself uses to choose the method), a
simulated one its trials times a measured time per trial of its kind, and
every task a fixed time for its set-up and its tables. Nothing is computed:
a spec of 10,000 small tasks is estimated in seconds.

What a task's estimate depends on is shared between tasks (the decks, the
compiled events, the predicted exact costs), keyed by exactly that: tasks
that differ in their seed, their trials or their seat share the work that
does not depend on them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from deckstat._validate import check_turns, parse_count
from deckstat.batching.tasks import UNPLANNED_PARAMETERS, Task, api_arguments, cached_deck, cached_profile
from deckstat.engines.runner import BLOCK_TRIALS, DEFAULT_MAX_TRIALS, DEFAULT_TRIALS, _wilson_half_width_extremes
from deckstat.questions._estimate import Part, Simulation
from deckstat.questions._setup import shared_setups
from deckstat.questions.curve import plan_curve, plan_never_scored_curve, plan_no_play_after_drought_curve
from deckstat.questions.odds import plan_odds
from deckstat.questions.ratio import plan_ratio
from deckstat.questions.sensitivity import curve_target

#: Seconds of a task besides its engines: checks, compiling its events, building its tables (measured, one core).
TASK_SECONDS = 0.03
#: Seconds of one event's exact answer besides the engine's array work (set-up, tables), per event.
EXACT_EVENT_SECONDS = 0.005
#: Seconds per simulated trial and event on one core, by kind of simulation (measured on the sample decks).
SECONDS_PER_TRIAL = {"odds": 2.5e-7, "when": 3e-7, "mulligan": 3e-7, "race": 8e-6, "curve": 1.5e-6}
#: Seconds per simulated trial of each deck compared with paired trials besides the first (they share its shuffles).
PAIRED_DECK_SECONDS_PER_TRIAL = 3e-8
#: Seconds of checking one deck a sensitivity move makes against the game's rules (measured on the sample decks).
MOVE_SECONDS = 0.01
#: Seconds of one deck's answer to one sensitivity objective besides its engine: its set-up and its rows.
DECK_SECONDS = 0.005
#: Seconds of one deck's exact playability answer (a whole curve question; measured on the sample decks).
CURVE_EXACT_SECONDS = 0.01
#: Seconds of one target's exact playability curve for one seat (measured on the Duel Masters sample deck).
CURVE_EXACT_TARGET_SECONDS = 0.0015
#: Seconds per simulated game, seat and playability target besides the first (the first is in
#: ``SECONDS_PER_TRIAL["curve"]``, the game itself; measured on the Wankul and Duel Masters sample decks).
CURVE_TARGET_SECONDS_PER_TRIAL = 1.5e-7
#: Simulated games the effects table plays per game of the answer: each game without and with the draw effects.
CURVE_EFFECTS_PLAYS = 2


@dataclass(frozen=True)
class Estimate:
    """A task's predicted method, simulated trials and seconds on one worker.

    ``how`` says where the figure comes from: ``model`` (the cost models),
    ``at most`` (a precision run, counted at its worst case, a proportion of
    1/2), or why there is none.
    """

    method: str | None
    trials: int | None
    seconds: float | None
    how: str


class Estimator:
    """Estimates tasks, sharing the work that tasks have in common (see the module's doc).

    A task is planned by its question's own ``plan_*`` function (the method
    it chooses, the exact engine's predicted cost), with the set-ups and
    predictions shared between tasks (:func:`~deckstat.questions._setup.shared_setups`).
    """

    def __init__(self) -> None:
        self._shared: dict[tuple, object] = {}
        self._ratio_plans: dict[tuple, object] = {}

    def plan(self, task: Task):
        """The plan of ``task``'s question for its decks and parameters (its checks, nothing computed)."""
        from deckstat.batching.spec import PLANS

        subject, simulation, arguments = self._arguments(task)
        with shared_setups(self._shared):
            return PLANS[task.question](subject, cached_profile(task.game), simulation=simulation, **arguments)

    def _arguments(self, task: Task) -> tuple[object, Simulation, dict]:
        """What ``task``'s plan is given: its deck (the decks compared), its simulation, its other arguments."""
        decks = [cached_deck(source) for source in task.decks]
        arguments = api_arguments(task, decks)
        for name in ("n_trials", "precision", "max_trials"):  # the trials are estimated here, not checked
            arguments.pop(name, None)
        simulation = Simulation.checked(method=arguments.pop("method", "auto"))
        return decks if task.question == "compare" else decks[0], simulation, arguments

    # A task.

    def estimate(self, task: Task) -> Estimate:
        """The method, trials and seconds of ``task``."""
        params = dict(task.params)
        trials, how = _trials(params)
        if params.get("known") is not None:  # known cards: small exact sums, not modelled further
            return Estimate("exact", None, TASK_SECONDS, "model")
        question = task.question
        if question in ("odds", "when", "compare"):
            plan = self.plan(task)
            kind = "when" if question == "when" else "odds"
            parts = [e.part for e in plan.events] if question != "compare" else \
                [e.part for planned in plan.events for e in planned.events]
            methods, seconds = {p.method for p in parts}, sum(_seconds(p, kind, trials) for p in parts)
            if question == "compare" and params.get("with_deckout"):
                for index in range(len(task.decks)):
                    if self._deckout_simulates(task, index, params):
                        methods.add("simulate")
                        seconds += trials * SECONDS_PER_TRIAL["race"]
            if question == "compare" and plan.ratio_counts is not None:
                seconds += sum(_ratio_seconds(self._compare_ratio(plan, index), trials, params.get("trials"))
                               for index in range(len(task.decks)))
        elif question == "mulligan":
            plan = self.plan(task)
            # The by-turn table holds the odds with the rule and without; the kept hands are simulated or exact.
            parts = [e.part for e in plan.with_rule.events + plan.without.events]
            methods, seconds = {p.method for p in parts}, sum(_seconds(p, "odds", trials) for p in parts)
            if plan.part.method == "simulate":
                methods.add("simulate")
                seconds += trials * SECONDS_PER_TRIAL["mulligan"]
        elif question == "sensitivity":
            plan = self.plan(task)
            # Its own default trials when the spec gives none (the plan holds them).
            trials = int(params["trials"]) if "trials" in params else plan.simulation.n_trials
            methods, seconds = self._sensitivity(plan, trials)
        elif question == "curve":
            methods, seconds = self._curve(task, trials)
        elif question == "ratio":
            plan = self._ratio_plan(task)
            # The method of the sweep's odds, as its summary says; the deck-out races add their seconds.
            methods = {p.method for p in plan.parts}
            seconds = _ratio_seconds(plan, trials, params.get("trials"))
        else:  # deckout
            simulated = self._deckout_simulates(task, 0, params)
            methods = {"simulate" if simulated else "exact"}
            seconds = trials * SECONDS_PER_TRIAL["race"] if simulated else 0.0
        chosen = "simulate" if methods == {"simulate"} else "exact" if methods == {"exact"} else "exact + simulate"
        return Estimate(chosen, trials if "simulate" in methods else None, TASK_SECONDS + seconds,
                        how if "simulate" in methods else "model")

    def _sensitivity(self, plan, trials: int) -> tuple[set[str], float]:
        """Methods and seconds of a planned sensitivity: each objective asked of the deck and every deck a move makes.

        A move that breaks a rule of a legal deck is asked again in its legal version, with the deck once more
        (counted for every such move: the answer may find no legal version for some). Each deck a move makes is
        checked against the game's rules. An objective's method and exact cost on every deck are those of the deck
        as it is.
        """
        moves = len(plan.moves)
        swaps = sum(1 for move in plan.moves if plan.legal[move][0] and not (plan.legal[move][1] and move.delta > 0)) \
            if plan.base_legal else 0
        decks = 1 + moves + (1 + swaps if swaps else 0)
        methods, seconds = set(), (moves + swaps) * MOVE_SECONDS
        for objective in plan.objectives:
            with shared_setups(self._shared):
                if objective.kind == "odds":
                    planned = plan_odds(plan.deck, plan.profile, objective.target, turns=[objective.turn],
                                        seat=plan.seat, simulation=plan.simulation, sides=False, **plan.options)
                    parts = [event.part for event in planned.events]
                    methods |= {part.method for part in parts}
                    # The decks' odds are compared: exact one by one, or simulated on the same shuffles.
                    exact = [part for part in parts if part.method == "exact"]
                    seconds += decks * (DECK_SECONDS + sum(_seconds(part, "odds", trials) for part in exact))
                    if len(exact) < len(parts):
                        seconds += trials * (SECONDS_PER_TRIAL["odds"] + decks * PAIRED_DECK_SECONDS_PER_TRIAL)
                else:
                    planned = plan_curve(plan.deck, plan.profile, **curve_target(plan.deck, plan.profile,
                                                                                  objective.target),
                                         turns=[objective.turn], seat=plan.seat, simulation=plan.simulation,
                                         opponent=plan.opponent, **plan.options)
                    exact = planned.use_exact[0]
                    methods.add("exact" if exact else "simulate")
                    # Exact: one curve question per deck; simulated: every deck plays the same games.
                    seconds += decks * (CURVE_EXACT_SECONDS if exact else trials * SECONDS_PER_TRIAL["curve"])
        return methods, seconds

    def _curve(self, task: Task, trials: int) -> tuple[set[str], float]:
        """Methods and seconds of a curve task: its answer, and each end of an assumption its play model answers.

        Wankul's model answers the question again with Terrains never scored and with no card played after a
        drought (its ``scoring`` and ``drought_play`` tables), each planned here as the question plans it. The
        ``effects`` table plays every simulated game again without and with the draw effects; a batch computes it
        only for ``table = "effects"`` or ``effects = true``.
        """
        deck, simulation, arguments = self._arguments(task)
        effects = arguments.pop("effects", task.param("table") == "effects")
        profile = cached_profile(task.game)
        with shared_setups(self._shared):
            plan = plan_curve(deck, profile, simulation=simulation, effects=effects, **arguments)
            ends = [plan_never_scored_curve(plan, deck, simulation=simulation, **arguments),
                    plan_no_play_after_drought_curve(plan, deck, simulation=simulation, **arguments)]
        methods, seconds = set(), 0.0
        for planned in [plan, *(end for end in ends if end is not None)]:
            seats, exact = len(planned.schedules), sum(planned.use_exact)
            methods |= {"exact"} if exact else set()
            seconds += exact * seats * CURVE_EXACT_TARGET_SECONDS
            if planned.simulated:
                methods.add("simulate")
                seconds += _curve_game_seconds(trials, seats, len(planned.simulated))
        if plan.effects is not None:
            methods.add("simulate")
            seconds += CURVE_EFFECTS_PLAYS * _curve_game_seconds(trials, len(plan.schedules), len(plan.labels))
        return methods, seconds

    def _ratio_plan(self, task: Task):
        """The plan of a ratio task, shared with the tasks that differ from it only in their seed, trials or table.

        A sweep plans every count it rebuilds; tasks sweeping seeds would otherwise plan it again each.
        """
        key = (task.decks, task.game, tuple(p for p in task.params if p[0] not in UNPLANNED_PARAMETERS))
        if key not in self._ratio_plans:
            self._ratio_plans[key] = self.plan(task)
        return self._ratio_plans[key]

    def _compare_ratio(self, plan, index: int):
        """The plan of the sweep a comparison with ``ratio_counts`` asks of its deck ``index``, as compare asks it."""
        with shared_setups(self._shared):
            return plan_ratio(plan.decks[index], plan.profile, counts=plan.ratio_counts, turns=check_turns(plan.turns),
                              seat="first" if plan.seat in ("both", "all") else plan.seat,
                              allow_absent=plan.allow_absent, simulation=Simulation())

    def _deckout_simulates(self, task: Task, index: int, params: dict) -> bool:
        from deckstat.questions.deckout import simulates

        opponent = None
        if task.question == "deckout" and len(task.decks) > 1:
            opponent = cached_deck(task.decks[1])
        names = ("policy", "drought", "terrain_turns", "drought_order", "keep", "mulligan", "allow_absent")
        given = {name: params[name] for name in names if name in params}
        if task.question != "deckout":
            given = {name: value for name, value in given.items() if name in ("keep", "mulligan")}
            given["allow_absent"] = True
        return simulates(cached_deck(task.decks[index]), cached_profile(task.game), opponent=opponent, **given)


def _seconds(part: Part, kind: str, trials: int) -> float:
    """Seconds of one planned part: the exact engine's predicted time, or its trials."""
    if part.method == "exact":
        return EXACT_EVENT_SECONDS + (part.cost.seconds if part.cost is not None else 0.0)
    return trials * SECONDS_PER_TRIAL[kind]


def _curve_game_seconds(trials: int, seats: int, targets: int) -> float:
    """Seconds of simulating ``trials`` games for each seat, following ``targets`` playability targets in each."""
    return trials * seats * (SECONDS_PER_TRIAL["curve"] + (targets - 1) * CURVE_TARGET_SECONDS_PER_TRIAL)


def _ratio_seconds(plan, trials: int, races: object) -> float:
    """Seconds of a planned ratio sweep: each count's odds and first-turn parts, and its deck-out races.

    ``races``: the trials given, which the races run too (default: the plan's, :data:`DECKOUT_TRIALS`).
    """
    seconds = 0.0
    for count in plan.counts:
        for planned, kind in ((count.hand, "odds"), (count.by_turn, "odds"), (count.timing, "when")):
            if planned is not None:
                seconds += sum(_seconds(event.part, kind, trials) for event in planned.events)
        if count.race is not None and count.race.spec is not None:
            seconds += (plan.deckout.n_trials if races is None else int(races)) * SECONDS_PER_TRIAL["race"]
    return seconds


def _trials(params: Mapping[str, object]) -> tuple[int, str]:
    """The trials a simulated task runs, and how sure that is: a precision run is counted at its worst case."""
    if params.get("precision") is not None:
        cap = parse_count(params.get("max_trials", DEFAULT_MAX_TRIALS), "max_trials", minimum=1)
        _, most = _wilson_half_width_extremes(float(params["precision"]))
        return min(cap, math.ceil(most / BLOCK_TRIALS) * BLOCK_TRIALS), "at most"
    return parse_count(params.get("trials", DEFAULT_TRIALS), "trials", minimum=1), "model"
