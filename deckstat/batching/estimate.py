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

from deckstat._validate import parse_count
from deckstat.batching.tasks import Task, cached_deck, cached_profile
from deckstat.engines.cost import Cost
from deckstat.engines.runner import BLOCK_TRIALS, DEFAULT_MAX_TRIALS, DEFAULT_TRIALS, _wilson_half_width_extremes
from deckstat.events import parse_group
from deckstat.questions._setup import all_draws, check_zone, is_increasing, pick_method, prepare, turn_plan
from deckstat.questions.ratio import DEFAULT_SPAN, check_ratio_zone
from deckstat.questions.ratio import DEFAULT_TURNS as RATIO_TURNS
from deckstat.terms import FIXED_ZONES

#: Seconds of a task besides its engines: checks, compiling its events, building its tables (measured, one core).
TASK_SECONDS = 0.03
#: Seconds of one event's exact answer besides the engine's array work (set-up, tables), per event.
EXACT_EVENT_SECONDS = 0.005
#: Seconds per simulated trial and event on one core, by kind of simulation (measured on the sample decks).
SECONDS_PER_TRIAL = {"odds": 2.5e-7, "when": 3e-7, "mulligan": 3e-7, "race": 8e-6}
#: Resource counts a ratio sweeps when it is not told (the deck's own count ± 5).
RATIO_DEFAULT_COUNTS = 2 * DEFAULT_SPAN + 1
#: Races behind each count's deck-out turn in a ratio sweep when ``trials`` is not given.
RATIO_DECKOUT_TRIALS = 8_000


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
    """Estimates tasks, sharing the work that tasks have in common (see the module's doc)."""

    def __init__(self) -> None:
        self._setups: dict[tuple, object] = {}
        self._costs: dict[tuple, Cost] = {}

    # What tasks share.

    def setup(self, task: Task, deck_index: int, events: tuple[str, ...], rules: Mapping[str, object]):
        """The question's set-up for these events and rules on deck ``deck_index`` of ``task``, and its key."""
        source = task.decks[deck_index]
        # The deck a file's deck_name picks too: two decks of one file are two set-ups.
        key = (source.path, source.pool, source.deck_name, task.game, events, tuple(sorted(rules.items())))
        if key not in self._setups:
            self._setups[key] = prepare(cached_deck(source), cached_profile(task.game), list(events), **rules)
        return key, self._setups[key]

    def exact_cost(self, key: tuple, setup, draws: list[int], zone: str) -> Cost:
        """The exact engine's predicted cost for the set-up ``key``, these draws and this zone."""
        cost_key = (key, tuple(draws), zone)
        if cost_key not in self._costs:
            self._costs[cost_key] = setup.exact_cost(setup.condition(0), draws, zone)
        return self._costs[cost_key]

    # One event of odds or when: its method and seconds.

    def event(self, task: Task, deck_index: int, event: str, rules: Mapping[str, object], *, kind: str, method: str,
              turns, seat: str, zone: str, trials: int) -> tuple[str, float]:
        """The method ``method`` comes to for one event, as the question picks it, and its seconds."""
        key, setup = self.setup(task, deck_index, (event,), rules)
        if kind == "when":
            _, per_seat = turn_plan(setup, turns, seat, turns_name="max_turn")
        else:
            _, per_seat = turn_plan(setup, turns, seat, zone)
        draws = all_draws(per_seat)
        needs_order = kind == "when" and not is_increasing(setup.events[0])
        cost: list[Cost] = []

        def predicted() -> Cost:
            cost.append(self.exact_cost(key, setup, draws, zone))
            return cost[-1]

        chosen, _ = pick_method(setup, method, needs_order, cost=predicted)
        if chosen == "exact":
            return chosen, EXACT_EVENT_SECONDS + (cost[-1].seconds if cost else 0.0)
        return chosen, trials * SECONDS_PER_TRIAL[kind]

    # A task.

    def estimate(self, task: Task) -> Estimate:
        """The method, trials and seconds of ``task``."""
        params = dict(task.params)
        trials, how = _trials(params)
        if params.get("known") is not None:  # known cards: small exact sums, not modelled further
            return Estimate("exact", None, TASK_SECONDS, "model")
        method = params.get("method", "auto")
        question = task.question
        if question in ("odds", "when", "compare"):
            methods, seconds = self._events(task, params, trials, method)
            if question == "compare" and params.get("with_deckout"):
                for index in range(len(task.decks)):
                    if self._deckout_simulates(task, index, params):
                        methods.add("simulate")
                        seconds += trials * SECONDS_PER_TRIAL["race"]
            if question == "compare" and params.get("ratio_counts"):
                seconds += len(params["ratio_counts"]) * len(task.decks) * self._ratio_count(task, params, None)
        elif question == "mulligan":
            methods, seconds = self._mulligan(task, params, trials, method)
        elif question == "ratio":
            counts = params.get("counts")
            n_counts = len(counts) if isinstance(counts, tuple) else 1 if counts is not None else RATIO_DEFAULT_COUNTS
            per_count = self._ratio_count(task, params, params.get("trials"))
            methods, seconds = {"exact" if method != "simulate" else "simulate"}, n_counts * per_count
        else:  # deckout
            simulated = self._deckout_simulates(task, 0, params)
            methods = {"simulate" if simulated else "exact"}
            seconds = trials * SECONDS_PER_TRIAL["race"] if simulated else 0.0
        chosen = "simulate" if methods == {"simulate"} else "exact" if methods == {"exact"} else "exact + simulate"
        return Estimate(chosen, trials if "simulate" in methods else None, TASK_SECONDS + seconds,
                        how if "simulate" in methods else "model")

    def _events(self, task: Task, params: dict, trials: int, method: str) -> tuple[set[str], float]:
        rules = _rules(params)
        if task.question == "compare":  # as compare sets each deck up: a group only one deck holds is asked about
            rules["allow_absent"] = True
        kind = "when" if task.question == "when" else "odds"
        turns = range(params.get("max_turn", 10) + 1) if kind == "when" else list(params.get("turns", range(7)))
        zone = check_zone(params.get("zone", "seen"), cached_profile(task.game))
        methods, seconds = set(), 0.0
        for index in range(len(task.decks)):
            for event in params["event"]:
                chosen, cost = self.event(task, index, event, rules, kind=kind, method=method, turns=turns,
                                          seat=params.get("seat", "both"), zone=zone, trials=trials)
                methods.add(chosen)
                seconds += cost
        return methods, seconds

    def _mulligan(self, task: Task, params: dict, trials: int, method: str) -> tuple[set[str], float]:
        profile = cached_profile(task.game)
        events = params.get("event")
        if not events:
            resource = params.get("resource") or profile.resource_group
            events = (f"{resource}>=1",) if resource else ((params.get("keep") or profile.keep),)
        rules = {**_rules(params), "mulligan": True}
        methods, seconds = set(), 0.0
        for event in events:
            # With the rule, and without: the by-turn table holds both.
            for with_rule in (True, False):
                chosen, cost = self.event(task, 0, event, {**rules, "mulligan": with_rule}, kind="odds",
                                          method=method if with_rule else "auto",
                                          turns=list(params.get("turns", range(7))), seat=params.get("seat", "first"),
                                          zone="seen", trials=trials)
                methods.add(chosen)
                seconds += cost
        if "simulate" in methods:
            seconds += trials * SECONDS_PER_TRIAL["mulligan"]
        return methods, seconds

    def _ratio_count(self, task: Task, params: dict, trials: object) -> float:
        """Seconds of one count of a ratio sweep: its exact odds and its deck-out turn's races."""
        profile = cached_profile(task.game)
        group = params.get("group") or profile.resource_group
        events = list(params.get("event", ()))
        if group is not None:
            events += [f"{group}>=1"]
        zone = check_ratio_zone(profile, params.get("zone", "seen"))
        turns = [0] if zone in FIXED_ZONES else list(params.get("turns", RATIO_TURNS))
        seconds = 0.0
        rules = {"keep": params.get("keep"), "mulligan": params.get("mulligan", True), "allow_absent": True}
        for event in events:
            chosen, cost = self.event(task, 0, event, rules, kind="odds", method=params.get("method", "auto"),
                                      turns=turns, seat=params.get("seat", "first"), zone=zone,
                                      trials=_trials(params)[0])
            seconds += cost * 4  # each count asks the resource and flood sides, the mulligan rate, the first turn
        if group is not None and parse_group(group) is not None and self._deckout_simulates(task, 0, params):
            races = RATIO_DECKOUT_TRIALS if trials is None else int(trials)
            seconds += races * SECONDS_PER_TRIAL["race"]
        return seconds

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


def _rules(params: Mapping[str, object]) -> dict[str, object]:
    return {"keep": params.get("keep"), "mulligan": params.get("mulligan", True),
            "mulligan_rule": params.get("mulligan_rule"), "mulligan_limit": params.get("mulligan_limit"),
            "resource": params.get("resource"), "allow_absent": bool(params.get("allow_absent", False)),
            "priority": params.get("priority")}


def _trials(params: Mapping[str, object]) -> tuple[int, str]:
    """The trials a simulated task runs, and how sure that is: a precision run is counted at its worst case."""
    if params.get("precision") is not None:
        cap = parse_count(params.get("max_trials", DEFAULT_MAX_TRIALS), "max_trials", minimum=1)
        _, most = _wilson_half_width_extremes(float(params["precision"]))
        return min(cap, math.ceil(most / BLOCK_TRIALS) * BLOCK_TRIALS), "at most"
    return parse_count(params.get("trials", DEFAULT_TRIALS), "trials", minimum=1), "model"
