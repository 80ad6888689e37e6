"""Playability by turn: P(a card, or any card of a group, can be played on or before turn t)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from deckstat._validate import check_deck, check_seats, check_turns
from deckstat.cards import card_hint
from deckstat.deck import Deck, card_rows
from deckstat.engines import runner
from deckstat.engines.cost import Cost, dry_run
from deckstat.errors import DeckstatError, param
from deckstat.events import Count, Event, parse_group
from deckstat.games.profiles import Profile
from deckstat.i18n import N_, tr
from deckstat.play import build_model
from deckstat.play.base import PlayModel, Schedule, schedule
from deckstat.play.engine import (
    CurveSpec,
    Dealing,
    curve_effects_task,
    curve_task,
    exact_curve,
    reductions,
    shared_deals,
)
from deckstat.questions._estimate import Part, Simulation, estimate, first_turn, join_reasons, price
from deckstat.questions._setup import Setup, check_game_reaches, check_groups, prepare, shared_setups
from deckstat.questions.deckout import card_effects, same_size_warning
from deckstat.questions.odds import paired_gain
from deckstat.results import CurveResult, frame
from deckstat.terms import BOTH_OUT_RULES

CURVE_COLUMNS = ["deck", "game", "target", "seat", "turn", "p", "ci_low", "ci_high", "n_trials", "method", "policy"]
EFFECT_COLUMNS = ["deck", "game", "target", "seat", "turn", "p_without", "p", "ci_low", "ci_high", "gain", "gain_low",
                  "gain_high", "n_trials"]
SUMMARY_COLUMNS = ["deck", "game", "target", "seat", "max_turn", "mean_turn", "median_turn", "p_never",
                   "p_never_low", "p_never_high", "n_trials", "method", "policy"]
#: Turns followed when none are asked for.
DEFAULT_TURNS = range(1, 11)
#: A turn past the last one the deck can play, by the seats asked.
_PAST_LAST_TURN = {
    ("first",): N_("turn {turn} is past the last turn this {size}-card deck can play for first ({last}); {option} "
                   "can go up to {last}"),
    ("second",): N_("turn {turn} is past the last turn this {size}-card deck can play for second ({last}); {option} "
                    "can go up to {last}"),
    ("first", "second"): N_("turn {turn} is past the last turn this {size}-card deck can play for first and second "
                            "({last}); {option} can go up to {last}"),
}


def curve(deck: Deck, game: str | Profile, *, cards: str | Sequence[str] | None = None,
          groups: str | Sequence[str] | None = None, turns=DEFAULT_TURNS, seat: str = "both",
          policy: str | None = None, keep: str | None = None, mulligan: bool = True, method: str = "auto",
          n_trials: int | None = None, rng=None, precision: float | None = None,
          chunk_size: int = runner.DEFAULT_CHUNK, n_workers: int = 1,
          max_trials: int = runner.DEFAULT_MAX_TRIALS, allow_absent: bool = False,
          opponent: Deck | None = None, effects: bool = True) -> CurveResult:
    """P(a card or group can be played on or before turn t), under the game's play model.

    The profile's play model (``deckstat games show``) says what playing a
    card costs and which *policy* the player follows; "playable on turn t"
    means that in the main phase of the player's t-th turn a copy is in hand
    and can be paid for. A group is playable when any of its cards is.

    Parameters
    ----------
    deck : Deck
    game : str or Profile
    cards : str or sequence of str, optional
        Card names (every printing of a name is one target) or labels (``VENDEUR #35``: that printing).
    groups : str or sequence of str, optional
        Group expressions (``"[cost>=2]"``, ``Terrain``); each is one target. Without ``cards`` or
        ``groups``, every distinct card of the deck is a target.
    turns : int or iterable of int
        Turns reported (1 or more); default 1..10, up to the last turn the deck can play.
    seat : {"first", "second", "both"}
    policy : str, optional
        A policy of the model (default: the profile's).
    keep, mulligan :
        The keep rule of the profile's bottom mulligan, and whether to take it (as in :func:`deckstat.odds`).
    method : {"auto", "exact", "simulate"}
        ``auto``: exact for targets whose model reduces to an event on the cards seen (when its predicted cost
        is small, as in :func:`deckstat.odds`; ``provenance["method_reason"]`` says why not), simulated for the
        others.
    n_trials, rng, precision, chunk_size, n_workers, max_trials :
        Simulation settings, as in :func:`deckstat.odds`.
    allow_absent : bool
        Answer 0 for a group that matches no card of the deck instead of refusing it.
    opponent : Deck, optional
        The deck the opponent plays, for a play model that plays both players' turns (Wankul's: the Terrains are
        shared and a drought makes both players draw); default: a copy of ``deck``, shuffled apart. Refused by the
        one-player models.
    effects : bool
        Whether to answer beside ``table`` with the deck's draw effects played, when the play model plays them
        (Wankul's; the ``effects`` table, as in :func:`deckstat.odds`); ``False`` asks the plain question alone.

    Returns
    -------
    CurveResult
        ``table``: per target, seat and turn, ``p`` = P(playable by that turn) with its 95% interval;
        ``summary``: per target and seat, the mean and median first playable turn among games where it is
        playable by the last turn, and ``p_never`` (not by then) with its interval. ``provenance["play_notes"]``
        says what the model assumed where the deck's columns were silent (Duel Masters mana numbers).
        ``scoring``: with Wankul's discard model, ``table`` at both ends of the Terrain-scoring assumption (each
        Terrain scored at the first legal moment, the answer; never scored), on the same random games.
        ``drought_play``: likewise at both ends of the reading of « ils ne peuvent pas jouer d'autres cartes »
        (cards played once the drought's Terrain is in play, the answer; none in that turn).
        ``effects``: see ``effects`` above and :class:`~deckstat.results.CurveResult`.

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "A", "count": 4, "type": "x"},
    ...                                  {"name": "B", "count": 36, "type": "x"}])
    >>> result = deckstat.curve(deck, "generic", cards="A", turns=[1, 2], seat="first")
    >>> result.table["p"].round(4).tolist()  # seen 5 + t cards: 1 - C(36, 5 + t) / C(40, 5 + t)
    [0.4925, 0.5522]
    """
    simulation = Simulation.checked(method=method, n_trials=n_trials, precision=precision, rng=rng,
                                    chunk_size=chunk_size, n_workers=n_workers, max_trials=max_trials)
    arguments = {"cards": cards, "groups": groups, "turns": turns, "seat": seat, "policy": policy, "keep": keep,
                 "mulligan": mulligan, "allow_absent": allow_absent, "simulation": simulation, "opponent": opponent}
    with shared_setups():  # both ends of an assumption on one set-up
        plan = plan_curve(deck, game, effects=effects, **arguments)
        never = plan_never_scored_curve(plan, deck, **arguments)
        still = plan_no_play_after_drought_curve(plan, deck, **arguments)
    return answer_curve(plan, simulation, never_scored=never, no_play_after_drought=still)


def plan_never_scored_curve(plan: CurvePlan, deck: Deck, **arguments) -> CurvePlan | None:
    """``plan`` with Terrains never scored, when its play model scores them by assumption (Wankul's discard model).

    The rules text says only « Certains effets de cartes vous permettent de scorer un Terrain »: the model
    scores each Terrain at the first legal moment; this plan keeps every Terrain in play. None for another model,
    or one that never scores Terrains already.
    """
    if plan.model.kind != "discard" or not plan.model.terrain_turns:
        return None
    # The same profile, so the same set-up (shared with the answer's plan); only the play model changes.
    return plan_curve(deck, plan.setup.profile, play_settings={"terrain_turns": 0}, **arguments)


def plan_no_play_after_drought_curve(plan: CurvePlan, deck: Deck, **arguments) -> CurvePlan | None:
    """``plan`` with no card played in a turn that had a drought, when its play model plays them (Wankul).

    The rules text says « ils ne peuvent pas jouer d'autres cartes » during the drought; the model reads it as
    lasting while the drought lasts (``play_after_drought``); this plan reads it as the whole turn. None for
    another model, or one that reads it so already.
    """
    if plan.model.kind != "discard" or not plan.model.play_after_drought:
        return None
    return plan_curve(deck, plan.setup.profile, play_settings={"play_after_drought": False}, **arguments)


@dataclass(frozen=True)
class CurvePlan:
    """A checked :func:`curve` question: its targets, each with its method, and its simulation (nothing computed).

    Attributes
    ----------
    setup : Setup
        The rules in force (the bottom mulligan or none) on the drawn deck.
    model : PlayModel
        The play model under the policy in force.
    labels : tuple of str
        The targets, as asked.
    reduced : tuple
        Each target's exact form (:func:`~deckstat.play.engine.reductions`), None when it has none.
    use_exact : tuple of bool
        Whether each target is answered exactly.
    turns : list of int
        The turns reported.
    schedules : tuple of Schedule
        Each seat's draws, turn by turn (:func:`~deckstat.play.base.schedule`).
    keep_event : Event or None
        The keep rule the exact engine applies (the bottom mulligan's).
    provenance : dict
        The rules, the play model and why ``auto`` simulated targets it could answer exactly.
    simulated : tuple of int
        The targets simulated, by index in ``labels``.
    part : Part or None
        Their simulation, when there are any.
    effects : Part or None
        Every target played without and with the deck's draw effects (:func:`curve_effects_task`), when the
        model plays them and the deck has some.
    targets : tuple of ndarray
        Each target's rows of the drawn deck.
    dealing, rival_dealing : Dealing
        How the player's games are dealt, and the opponent's (None for a model that plays alone).
    """

    setup: Setup
    model: PlayModel
    labels: tuple[str, ...]
    reduced: tuple
    use_exact: tuple[bool, ...]
    turns: list[int]
    schedules: tuple[Schedule, ...]
    keep_event: Event | None
    provenance: dict
    simulated: tuple[int, ...]
    part: Part | None
    effects: Part | None = None
    targets: tuple = ()
    dealing: Dealing | None = None
    rival_dealing: Dealing | None = None


def plan_curve(deck: Deck, game: str | Profile, *, cards: str | Sequence[str] | None = None,
               groups: str | Sequence[str] | None = None, turns=DEFAULT_TURNS, seat: str = "both",
               policy: str | None = None, keep: str | None = None, mulligan: bool = True, allow_absent: bool = False,
               simulation: Simulation | None = None, play_settings: Mapping | None = None,
               opponent: Deck | None = None, effects: bool = False) -> CurvePlan:
    """Every check of :func:`curve`, and its exact engine priced once per target: nothing computed.

    Parameters are those of :func:`curve`; ``simulation`` holds its method and simulation settings (default:
    ``auto`` with the default settings), checked by the caller. ``play_settings`` replace some of the profile's
    ``[play_model]`` settings for the play model alone (:func:`plan_never_scored_curve`). ``effects``: plan the
    draw-effects side too (:func:`deckstat.curve` asks for it; a plan for another end of an assumption does not).

    Returns
    -------
    CurvePlan
        For :func:`answer_curve`.
    """
    simulation = Simulation() if simulation is None else simulation
    method = simulation.method
    if not isinstance(effects, bool):
        raise DeckstatError(tr("{name} must be True or False, got {value!r}", name=param("effects"), value=effects))
    turn_list = check_turns(turns, "turns")
    if not turn_list or turn_list[0] < 1:
        raise DeckstatError(tr("{option} start at turn 1: a card is played in a turn, not in the opening hand",
                               option=param("turns")))
    seats = check_seats(seat)
    setup = prepare(deck, game, [], keep=keep, mulligan=mulligan)
    profile, drawn = setup.profile, setup.deck
    if setup.rule not in ("none", "bottom"):
        raise DeckstatError(tr("playability curves model the bottom mulligan or none, not {rule}; pass {option}",
                               rule=setup.rule, option=param("mulligan", False)))
    if play_settings:
        model_profile = replace(profile, play_model=replace(profile.play_model,
                                                            settings={**profile.play_model.settings, **play_settings}))
    else:
        model_profile = profile
    rival = _opponent(opponent, profile, setup) if opponent is not None else None
    model = build_model(drawn, model_profile, policy, opponent=rival)
    labels, targets = play_targets(drawn, profile, cards, groups, allow_absent=allow_absent)
    library = profile.library_size(drawn.size)
    if library < 0:
        raise DeckstatError(tr("the deck has {size} cards, fewer than the {dealt} dealt before turn 1", size=drawn.size,
                               dealt=profile.set_aside + profile.hand_size))
    for s in seats:
        check_game_reaches(profile, drawn.size, s, turn_list[-1])
    last = min(last_play_turn(profile, drawn.size, s) for s in seats)
    if turn_list[-1] > last:
        raise DeckstatError(tr(_PAST_LAST_TURN[seats], turn=turn_list[-1], size=drawn.size, last=last,
                               option=param("turns")))
    max_turn = turn_list[-1]
    schedules = tuple(schedule(profile, s, max_turn, library) for s in seats)
    keep_event = setup.keep_event if setup.rule == "bottom" else None
    reduced = reductions(model, targets)
    if method == "exact":
        missing = [label for label, r in zip(labels, reduced) if r is None]
        if missing:
            raise DeckstatError(tr("the {model} model under policy {policy} has no exact form for {targets}; use "
                                   "{option}", model=model.kind, policy=model.policy,
                                   targets=", ".join(missing[:3]) + (" …" if len(missing) > 3 else ""),
                                   option=param("method", "simulate")))
    exact_limit_ok = setup.rule == "none" or setup.limit == 1
    use_exact = [r is not None and method != "simulate" and exact_limit_ok for r in reduced]
    provenance = dict(setup.provenance)
    reasons = []
    for i, label in enumerate(labels):
        if use_exact[i]:
            def cost(i=i) -> Cost:
                total = Cost()
                for turn_schedule in schedules:
                    total += dry_run(exact_curve, reduced[i], drawn, turn_schedule, hand_size=profile.hand_size,
                                     set_aside=profile.set_aside, keep=keep_event)
                return total

            chosen, reason, _ = price(setup, method, cost)
            use_exact[i] = chosen == "exact"
            if reason:
                reasons.append(tr("{place}: {message}", place=label, message=reason) if len(labels) > 1 else reason)
    if reasons:
        provenance["method_reason"] = join_reasons(reasons)
    provenance.update({"play_model": model.kind, "policy": model.policy,
                       "play_notes": model.notes() + _played_on(profile, drawn.size, max_turn)})
    rival_deck = model.rival_deck()
    if rival_deck is not None:
        provenance.update({"players": 2, "opponent_source": rival_deck.source,
                           "warnings": [*provenance.get("warnings", []), *same_size_warning(profile, [drawn,
                                                                                                     rival_deck])]})
    simulated = tuple(i for i, e in enumerate(use_exact) if not e)
    limit = setup.limit if keep_event is not None else 0
    dealing = Dealing.of(drawn, profile.hand_size, profile.set_aside, keep_event, limit)
    rival_dealing = None
    if rival_deck is not None:
        rival_dealing = Dealing.of(rival_deck, profile.hand_size, profile.set_aside, keep_event, limit)
    part = None
    if simulated:
        spec = CurveSpec(model, dealing, tuple(targets[i] for i in simulated), schedules, rival_dealing)
        part = Part("simulate", None, lambda: None, functools.partial(curve_task, spec), tr("playability"), _widest)
    effects_part = None
    draws = card_effects(drawn, profile)[0] if effects and model.plays_draw_effects else None
    if draws is not None and draws.any():
        spec = CurveSpec(model, dealing, tuple(targets), schedules, rival_dealing, draws)
        effects_part = Part("simulate", None, lambda: None, functools.partial(curve_effects_task, spec),
                            tr("playability with card effects"))
    return CurvePlan(setup, model, tuple(labels), tuple(reduced), tuple(use_exact), turn_list, schedules, keep_event,
                     provenance, simulated, part, effects_part, tuple(targets), dealing, rival_dealing)


def answer_curve(plan: CurvePlan, simulation: Simulation, never_scored: CurvePlan | None = None,
                 no_play_after_drought: CurvePlan | None = None) -> CurveResult:
    """Estimate and shape a planned :func:`curve` question (``simulation``: the settings it was planned with).

    ``never_scored`` (:func:`plan_never_scored_curve`): the same question with Terrains never scored, answered on
    the same seed; both ends of the assumption make ``CurveResult.scoring``. ``no_play_after_drought``
    (:func:`plan_no_play_after_drought_curve`) likewise makes ``CurveResult.drought_play``.
    """
    simulation = simulation.seeded()  # both ends, and the effects, on the same random games
    with shared_deals():  # dealt once
        return _answer_ends(plan, simulation, never_scored, no_play_after_drought)


def _answer_ends(plan: CurvePlan, simulation: Simulation, never_scored: CurvePlan | None,
                 no_play_after_drought: CurvePlan | None) -> CurveResult:
    result = _answer(plan, simulation)
    if plan.effects is not None:
        result = replace(result, effects=_effects_table(plan, simulation))
    if never_scored is not None:
        other = _answer(never_scored, simulation)
        scoring = pd.concat([result.table.assign(terrain_scoring="first_legal_moment"),
                             other.table.assign(terrain_scoring="never")], ignore_index=True)
        result = replace(result, scoring=scoring[["terrain_scoring", *result.table.columns]])
    if no_play_after_drought is not None:
        other = _answer(no_play_after_drought, simulation)
        ends = pd.concat([result.table.assign(play_after_drought=True),
                          other.table.assign(play_after_drought=False)], ignore_index=True)
        result = replace(result, drought_play=ends[["play_after_drought", *result.table.columns]])
    return result


def _effects_table(plan: CurvePlan, simulation: Simulation) -> pd.DataFrame:
    """Every target and turn played without and with the deck's draw effects, on the same games, and the gain."""
    estimates = estimate(plan.effects, simulation)
    counts, n = estimates.values, estimates.n_trials
    rows = []
    for s, turn_schedule in enumerate(plan.schedules):
        for i, label in enumerate(plan.labels):
            for t in plan.turns:
                p, low, high = estimates.share(counts[1, s, i, t - 1])
                gain, gain_low, gain_high = paired_gain(counts[2, s, i, t - 1], counts[3, s, i, t - 1], n)
                rows.append({"deck": plan.setup.deck.name, "game": plan.setup.profile.id, "target": label,
                             "seat": turn_schedule.seat, "turn": t, "p_without": float(counts[0, s, i, t - 1]) / n,
                             "p": float(p), "ci_low": float(low), "ci_high": float(high), "gain": gain,
                             "gain_low": gain_low, "gain_high": gain_high, "n_trials": n})
    return frame(rows, EFFECT_COLUMNS, integers=("n_trials",))


def _answer(plan: CurvePlan, simulation: Simulation) -> CurveResult:
    profile, drawn, model = plan.setup.profile, plan.setup.deck, plan.model
    provenance = dict(plan.provenance)
    estimates = None
    if plan.part is not None:
        estimates = estimate(plan.part, simulation.seeded())
        provenance.update(estimates.provenance)
    max_turn = plan.turns[-1]
    rows, summary = [], []
    identity = {"deck": drawn.name, "game": profile.id}
    for i, label in enumerate(plan.labels):
        answered: dict[bytes, np.ndarray] = {}  # seats that draw alike have the same exact curve
        for s, turn_schedule in enumerate(plan.schedules):
            if plan.use_exact[i]:
                key = turn_schedule.drawn.tobytes()
                if key not in answered:
                    answered[key] = exact_curve(plan.reduced[i], drawn, turn_schedule, hand_size=profile.hand_size,
                                                set_aside=profile.set_aside, keep=plan.keep_event)
                cdf = low = high = answered[key]
                done, how = None, "exact"
            else:
                hist = estimates.values[s, plan.simulated.index(i)]
                cdf, low, high = estimates.share(np.cumsum(hist[:-1]))
                done, how = estimates.n_trials, "simulate"
            base = {**identity, "target": label, "seat": turn_schedule.seat}
            for t in plan.turns:
                rows.append({**base, "turn": t, "p": float(cdf[t - 1]), "ci_low": float(low[t - 1]),
                             "ci_high": float(high[t - 1]), "n_trials": done, "method": how,
                             "policy": model.policy})
            summary.append({**base, "max_turn": max_turn,
                            **first_turn(np.arange(1, max_turn + 1), np.diff(cdf, prepend=0.0), cdf, low, high),
                            "n_trials": done, "method": how, "policy": model.policy})
    return CurveResult(table=frame(rows, CURVE_COLUMNS),
                       summary=frame(summary, SUMMARY_COLUMNS, integers=("n_trials", "median_turn")),
                       provenance=provenance)


def _opponent(opponent: Deck, profile: Profile, setup: Setup) -> Deck:
    """The opponent's drawn deck, its keep rule's groups checked (the error names the opponent)."""
    check_deck(opponent, "opponent")
    drawn = profile.drawn_deck(opponent).with_synonyms(profile.synonyms)
    if profile.library_size(drawn.size) < 0:
        raise DeckstatError(tr("{deck} has {size} cards, fewer than the {dealt} dealt before turn 1",
                               deck=drawn.source, size=drawn.size, dealt=profile.set_aside + profile.hand_size))
    if setup.rule == "bottom" and setup.keep_event is not None:
        try:
            check_groups(drawn, setup.keep_event, profile, "keep rule", setup.keep_text)
        except DeckstatError as exc:
            raise exc.prefixed(tr("opponent {deck}: ", deck=drawn.name)) from None
    return drawn


def _played_on(profile: Profile, deck_size: int, max_turn: int) -> list[str]:
    """A note when the turns followed go past the player's own last draw, in a game where the player plays on."""
    if profile.draw_step != "end" or profile.deckout not in BOTH_OUT_RULES:
        return []
    # Drawing at the end of a turn, the player cannot draw at the end of this turn (the same for both seats).
    run_out = profile.last_turn(deck_size, "first") + 1
    if max_turn <= run_out:
        return []
    largest = profile.largest_drawn_deck()
    return [tr("turns {start} to {end} are played with no card left to draw (the player cannot draw at the end of "
               "turn {run_out}): the match goes on while the opponent can draw, until the end of turn {latest} at the "
               "latest with a {largest}-card deck, the largest allowed", start=run_out + 1, end=max_turn,
               run_out=run_out, latest=profile.last_turn(largest, "first") + 1 if largest else max_turn,
               largest=largest if largest else deck_size)]


def _widest(tallies: np.ndarray, n_trials: int) -> float:
    return runner.widest_half_width(np.cumsum(tallies[..., :-1], axis=-1), n_trials)


def last_play_turn(profile: Profile, deck_size: int, seat: str) -> int:
    """The last turn whose main phase the seat reaches with cards drawn as the profile says.

    Under Licum's rule the match ends only when neither player can draw (« quand les deux joueurs n'ont plus de
    cartes à tirer à la fin de leur tour »): a player with no card left plays on, at most until an opponent with
    the largest game deck allowed (30 cards) cannot draw either. Under JdG's the second player's last turn comes
    before the first player's last draw ends the duel (:meth:`~deckstat.games.profiles.Profile.duel_end_turn`).
    """
    last = profile.last_turn(deck_size, seat)
    if profile.draw_step == "end":
        played = last + 1
        largest = profile.largest_drawn_deck()
        if profile.deckout in BOTH_OUT_RULES and largest is not None:
            played = max(played, profile.last_turn(largest, seat) + 1)
        return played
    if profile.deckout == "lose_on_last_draw":
        # Drawing the last card loses at once: the turn that draws it is never played.
        library = profile.library_size(deck_size)
        if last >= 1 and profile.draws_by_turn(last, seat) >= library:
            return last - 1
    return profile.last_game_turn(deck_size, seat)


def _as_list(value, name: str) -> list[str]:
    if value is None:
        return []
    items = [value] if isinstance(value, str) else list(value)
    for item in items:
        if not isinstance(item, str) or not item.strip():
            raise DeckstatError(tr("{name} must be card names or group expressions, got {value!r}", name=param(name),
                                   value=item))
    return items


def play_targets(deck: Deck, profile: Profile, cards, groups, *,
                 allow_absent: bool = False) -> tuple[list[str], list[np.ndarray]]:
    """Target labels and their card masks over the deck's rows."""
    card_list, group_list = _as_list(cards, "cards"), _as_list(groups, "groups")
    labels, masks = [], []
    if not card_list and not group_list:
        for row, label in enumerate(deck.labels):
            if deck.counts[row] > 0:
                mask = np.zeros(len(deck.cards), dtype=bool)
                mask[row] = True
                labels.append(label)
                masks.append(mask)
        return labels, masks
    for text in card_list:
        mask = np.zeros(len(deck.cards), dtype=bool)
        # Any label deckstat prints or reads for the card: its name, "VENDEUR #35", "CT #83", "POLICIER (holo)".
        mask[card_rows(deck, text)] = True
        if not mask.any():
            raise DeckstatError(tr("card {name!r} is not in the deck {source}{hint}", name=text.strip(),
                                   source=deck.source, hint=card_hint(deck, text)))
        labels.append(text.strip())
        masks.append(mask & (deck.counts > 0))
    for text in group_list:
        group = parse_group(text, what="group")
        check_groups(deck, Count(group, ">=", 1), profile, "group", text, allow_absent=allow_absent)
        labels.append(text.strip())
        masks.append(deck.mask(group) & (deck.counts > 0))
    return labels, masks
