"""What a mulligan rule does to a deck: how often a hand is kept, what it holds, what it buys by turn."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from deckstat._validate import check_events, check_seats
from deckstat.deck import Deck
from deckstat.engines import runner, tasks
from deckstat.engines.cost import Cost
from deckstat.errors import DeckstatError, param
from deckstat.games.profiles import Profile, get_profile
from deckstat.i18n import tr
from deckstat.questions._estimate import Part, Simulation, estimate, price
from deckstat.questions._setup import Setup, all_draws, default_keep_remedy, mulligan_settings, prepare, turn_plan
from deckstat.questions.odds import (
    OddsPlan,
    answer_odds,
    check_switches,
    event_plan,
    plan_odds,
    plan_sides,
    played_rows,
)
from deckstat.results import MulliganResult, frame
from deckstat.terms import SEATS

SUMMARY_COLUMNS = ["deck", "game", "mulligan_rule", "mulligan_limit", "keep", "p_keep_first", "ci_low", "ci_high",
                   "expected_mulligans", "n_trials", "method"]
MULLIGANS_COLUMNS = ["deck", "game", "mulligans", "p", "ci_low", "ci_high", "n_trials", "method"]
KEPT_HAND_COLUMNS = ["deck", "game", "group", "count", "p", "ci_low", "ci_high", "n_trials", "method"]
BY_TURN_COLUMNS = ["deck", "game", "event", "seat", "turn", "mulligan_rule", "p", "ci_low", "ci_high", "n_trials",
                   "method"]


@runner.pooled
def mulligan(deck: Deck, game: str | Profile, *, keep: str | None = None, event: str | Sequence[str] | None = None,
             turns: int | Iterable[int] = range(7), seat: str = "first", mulligan_rule: str | None = None,
             mulligan_limit: int | None = None, resource: str | None = None, method: str = "auto",
             n_trials: int | None = None, rng=None, chunk_size: int = runner.DEFAULT_CHUNK,
             n_workers: int = 1, allow_absent: bool = False, priority: str | None = None, effects: bool = True,
             sides: bool = True) -> MulliganResult:
    """How often a hand is kept, what the kept hand holds, and what the mulligan buys by turn.

    Parameters
    ----------
    deck, game
        As in :func:`deckstat.odds`.
    keep : str, optional
        Keep rule (default: the profile's).
    event : str or list of str, optional
        Event(s) for the by-turn comparison (default: the resource group
        ``>=1``, else the keep rule).
    turns, seat
        Turns and seat (``first``, ``second`` or ``both``) of the by-turn comparison.
    mulligan_rule, mulligan_limit, resource, method, n_trials, rng, chunk_size, n_workers, allow_absent
        As in :func:`deckstat.odds`; a game without a mulligan rule needs ``mulligan_rule``.
    priority : str, optional
        As in :func:`deckstat.odds`: the cards London, Vancouver, free and
        Hearthstone mulligans keep.
    effects, sides : bool
        As in :func:`deckstat.odds`: beside ``by_turn``, the same odds with
        Wankul's drought draws and the deck's draw, search and look effects
        played (``played``; under the bottom mulligan or none only).

    Returns
    -------
    MulliganResult
        ``summary`` (P(keep the first hand), expected mulligans: under the
        Pokémon rule, the extra cards the opponent draws), ``mulligans`` (how
        many are taken; under the Pokémon rule the counts past the last one
        seen, or under 1e-9 when exact, are left out), ``kept_hand`` (each group's count
        in the kept hand) and ``by_turn`` (P(event) with the rule and with
        ``mulligan_rule == "none"``, keeping every first hand); ``played``:
        ``by_turn``'s rows with what it leaves out played, when it leaves
        something out (``p_without``: the answer).

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "Terrain", "count": 10, "type": "Terrain"},
    ...                                  {"name": "Personnage", "count": 40, "type": "Personnage"}])
    >>> result = deckstat.mulligan(deck, "wankul", turns=[0])
    >>> round(float(result.summary["p_keep_first"].iloc[0]), 4)
    0.6894
    """
    simulation = Simulation.checked(method=method, n_trials=n_trials, rng=rng, chunk_size=chunk_size,
                                    n_workers=n_workers)
    plan = plan_mulligan(deck, game, keep=keep, event=event, turns=turns, seat=seat, mulligan_rule=mulligan_rule,
                         mulligan_limit=mulligan_limit, resource=resource, allow_absent=allow_absent,
                         priority=priority, simulation=simulation, effects=effects, sides=sides)
    return answer_mulligan(plan, simulation)


@dataclass(frozen=True)
class MulliganPlan:
    """A checked :func:`mulligan` question (nothing computed).

    Attributes
    ----------
    setup : Setup
        Every event, the keep rule and the resource group compiled together: the kept hands.
    part : Part
        The kept hands' law, by the method chosen for the whole question.
    with_rule, without : OddsPlan
        The by-turn odds under the rule and keeping every first hand, each event compiled on its own.
    """

    setup: Setup
    part: Part
    with_rule: OddsPlan
    without: OddsPlan


def plan_mulligan(deck: Deck, game: str | Profile, *, keep: str | None = None,
                  event: str | Sequence[str] | None = None, turns: int | Iterable[int] = range(7),
                  seat: str = "first", mulligan_rule: str | None = None, mulligan_limit: int | None = None,
                  resource: str | None = None, allow_absent: bool = False, priority: str | None = None,
                  simulation: Simulation | None = None, effects: bool = True,
                  sides: bool = True) -> MulliganPlan:
    """Every check of :func:`mulligan`, each set-up prepared and each exact computation priced once.

    The by-turn odds under the rule are planned here, with the method the
    whole question chose, rather than checked and priced again by
    :func:`~deckstat.questions.odds.plan_odds`.
    """
    simulation = Simulation() if simulation is None else simulation
    check_switches(effects=effects, sides=sides)
    profile = get_profile(game)
    check_seats(seat)
    rule, _, keep_text = mulligan_settings(profile, keep=keep, mulligan=True, mulligan_rule=mulligan_rule,
                                           mulligan_limit=mulligan_limit)
    if rule == "none":
        raise DeckstatError(tr("{game} has no mulligan rule; choose one with {option} (bottom, london, vancouver, "
                               "free, hearthstone or pokemon)", game=profile.name, option=param("mulligan_rule")))
    if event is None:
        resource_text = resource if resource is not None else profile.resource_group
        event = f"{resource_text}>=1" if resource_text else keep_text
    texts = tuple(check_events(event))
    setup = prepare(deck, profile, texts, keep=keep, mulligan_rule=mulligan_rule, mulligan_limit=mulligan_limit,
                    resource=resource, allow_absent=allow_absent,
                    keep_remedy=default_keep_remedy(profile, can_skip=False), priority=priority)
    # The by-turn odds compile each event on its own, as odds() does; one event compiles as the kept hands do.
    by_event = [setup] if len(texts) == 1 else [
        prepare(deck, profile, [text], keep=setup.keep_text, mulligan_rule=setup.rule, mulligan_limit=setup.limit,
                resource=resource, allow_absent=allow_absent, priority=priority) for text in texts]
    costs: list[Cost] = []
    turn_plans: list = []

    def by_turn_cost() -> Cost:
        turn_plans[:] = [turn_plan(one, turns, seat) for one in by_event]
        costs[:] = [one.exact_cost(one.condition(0), all_draws(per_seat))
                    for one, (_, per_seat) in zip(by_event, turn_plans)]
        return sum(costs, Cost())

    chosen, reason, _ = price(setup, simulation.method, by_turn_cost)
    if not turn_plans:
        turn_plans = [turn_plan(one, turns, seat) for one in by_event]
    events = tuple(event_plan(one, turn_list, per_seat, "seen", chosen, costs[i] if costs else None)
                   for i, (one, (turn_list, per_seat)) in enumerate(zip(by_event, turn_plans)))
    # --exact asks for no simulation at all: the sides are left out with it.
    played = sides and simulation.method != "exact"
    with_rule = OddsPlan(texts, events, chosen, "seen", sides=plan_sides(events, effects) if played else None)
    without = plan_odds(deck, profile, texts, turns=turns, seat=seat, mulligan=False, allow_absent=allow_absent,
                        simulation=simulation.with_method("exact" if chosen == "exact" else "auto"), sides=False)
    if played:
        # Asked here, not by plan_odds: an exact method given to it would leave them out.
        without = replace(without, sides=plan_sides(without.events, effects))
    task = functools.partial(tasks.hand_task, setup.deal_spec(0)) if chosen == "simulate" else None
    part = Part(chosen, reason, functools.partial(_kept_hand_exact, setup), task, tr("mulligan: kept hands"))
    return MulliganPlan(setup, part, with_rule, without)


def answer_mulligan(plan: MulliganPlan, simulation: Simulation) -> MulliganResult:
    """Estimate and shape a planned :func:`mulligan` question (``simulation``: the settings it was planned with)."""
    setup, profile, chosen = plan.setup, plan.setup.profile, plan.part.method
    if chosen == "simulate":
        simulation = simulation.seeded()
    answers = {setup.rule: answer_odds(plan.with_rule, simulation), "none": answer_odds(plan.without, simulation)}
    by_turn = pd.concat([answer.table.assign(mulligan_rule=rule) for rule, answer in answers.items()],
                        ignore_index=True)
    played = []
    for rule, answer in answers.items():
        rows = played_rows(answer)
        if rows is not None:
            played.append(rows.assign(mulligan_rule=rule))
    # Each turn's two rows side by side, events in the order asked.
    order = {text: i for i, text in enumerate(dict.fromkeys(by_turn["event"]))}
    by_turn = (by_turn.assign(order=by_turn["event"].map(order), seat_order=by_turn["seat"].map(SEATS.index))
               .sort_values(["order", "seat_order", "turn"], kind="stable")
               [BY_TURN_COLUMNS].reset_index(drop=True))
    identity = {"deck": setup.deck.name, "game": profile.id}
    estimates = estimate(plan.part, simulation)
    n_done = estimates.n_trials
    if chosen == "exact":
        kept_rows, mull_p, _ = estimates.values
        mull_low = mull_high = mull_p
    else:
        tallies = estimates.values
        mull_p, mull_low, mull_high = estimates.share(tallies[0, :setup.limit + 1])
        kept_rows = _kept_hand_simulated(setup, tallies, n_done)
    kept_rows = [{**identity, **row, "n_trials": n_done, "method": chosen} for row in kept_rows]
    shown = len(mull_p)
    if setup.rule == "pokemon":
        # Up to 100 redeals by default: the rows no trial reached, or too rare to matter, say nothing.
        shown = int(np.flatnonzero(mull_p >= (1e-9 if chosen == "exact" else 1e-300))[-1]) + 1
    mulligans = frame([{**identity, "mulligans": k, "p": float(mull_p[k]), "ci_low": float(mull_low[k]),
                        "ci_high": float(mull_high[k]), "n_trials": n_done, "method": chosen}
                       for k in range(shown)], MULLIGANS_COLUMNS)
    summary = frame([{**identity, "mulligan_rule": setup.rule, "mulligan_limit": setup.limit, "keep": setup.keep_text,
                      "p_keep_first": float(mull_p[0]), "ci_low": float(mull_low[0]), "ci_high": float(mull_high[0]),
                      "expected_mulligans": float(np.dot(np.arange(len(mull_p)), mull_p)), "n_trials": n_done,
                      "method": chosen}], SUMMARY_COLUMNS, integers=("n_trials", "mulligan_limit"))
    provenance = {**setup.provenance, **estimates.provenance, "question": "mulligan"}
    return MulliganResult(summary=summary, mulligans=mulligans, kept_hand=frame(kept_rows, KEPT_HAND_COLUMNS),
                          by_turn=by_turn, provenance=provenance,
                          played=pd.concat(played, ignore_index=True)[PLAYED_COLUMNS] if played else None)


#: Columns of :attr:`~deckstat.results.MulliganResult.played`.
PLAYED_COLUMNS = ["deck", "game", "event", "seat", "turn", "mulligan_rule", "p_without", "p", "ci_low", "ci_high",
                  "droughts", "effects", "n_trials"]


def _kept_hand_exact(setup: Setup) -> tuple[list[dict], np.ndarray, None]:
    """Exact law of each group's count in the kept hand, and of the mulligans taken."""
    profile, keys = setup.profile, setup.compiled.group_keys
    labels = {key: group.label for key, group in setup.groups().items()}
    rows = []
    for index, key in enumerate(keys):
        for count in range(profile.hand_size + 1):
            condition = setup.compiled.condition(index, count + 1, lambda a, c=count: a[0] == c)
            p, p_keep = setup.exact_odds(condition, [0], "hand")
            p = float(np.clip(p[0], 0, 1))
            rows.append({"group": labels[key], "count": count, "p": p, "ci_low": p, "ci_high": p})
    if setup.rule == "pokemon":
        # Mulligan k < limit ends a run of k failed hands; the hand after the last one is kept as it comes.
        fail = 1.0 - p_keep
        return rows, np.array([fail ** k * p_keep for k in range(setup.limit)] + [fail ** setup.limit]), None
    return rows, np.array([p_keep, 1 - p_keep]), None


def _kept_hand_simulated(setup: Setup, tallies: np.ndarray, n_done: int) -> list[dict]:
    """Each group's count in the kept hand, from :func:`deckstat.engines.tasks.hand_task` tallies."""
    hand_size = setup.profile.hand_size
    labels = {key: group.label for key, group in setup.groups().items()}
    rows = []
    for i, key in enumerate(setup.compiled.group_keys):
        low, high = runner.intervals(tallies[1 + i, :hand_size + 1], n_done)
        for count in range(hand_size + 1):
            rows.append({"group": labels[key], "count": count, "p": tallies[1 + i, count] / n_done,
                         "ci_low": float(low[count]), "ci_high": float(high[count])})
    return rows
