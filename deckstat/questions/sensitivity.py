"""What one copy is worth: the ±1-copy table of a deck for one or several weighted objectives.

:func:`sensitivity` asks each objective of the deck and of every deck one
copy away from it (a copy fewer, a copy more, card by card), and gives each
move's change with its interval, whether the move keeps the deck legal, and,
when it does not, the legal version of the move: the same copy swapped
against the card that makes room (for a copy more) or the filler that fills
(for a copy fewer), at the deck's size.

Exact where the question is (``odds`` on the exact engine, a playability
curve whose model reduces to an event): each change is the difference of two
exact answers. Otherwise each deck is simulated on *the same games*: every
physical card of the deck and one spare card get a random key per game, and a
deck is dealt in key order, so a deck a copy away deals the same cards in the
same order except that copy (common random numbers); the interval of a change
comes from the per-game differences, far narrower than the two answers'.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from deckstat._validate import check_choice, check_deck, check_whole
from deckstat.deck import Deck, card_rows
from deckstat.engines import runner
from deckstat.engines.kernel import arrange
from deckstat.errors import DeckstatError, param
from deckstat.games.profiles import Profile, get_profile
from deckstat.i18n import tr
from deckstat.play.base import schedule
from deckstat.play.engine import Dealing
from deckstat.questions._estimate import Part, Simulation, estimate
from deckstat.questions.compare import compare
from deckstat.questions.curve import curve, plan_curve
from deckstat.questions.odds import paired_gain
from deckstat.questions.validate import validate
from deckstat.results import SensitivityResult, frame
from deckstat.text import fold

#: Objective kinds, with the words read for each (English and French).
KINDS = {"odds": ("odds", "cotes", "chances", "proba", "probabilité", "probabilite"),
         "curve": ("curve", "courbe", "jouable", "playable")}
#: Trials of a simulated objective when none are asked: the differences are paired, so fewer games do.
DEFAULT_TRIALS = 50_000
#: Games dealt per block of a simulated curve objective (the same for every run: the answer depends on the seed
#: alone).
BLOCK = 10_000

SENSITIVITY_COLUMNS = ["deck", "game", "card", "count", "move", "count_after", "change", "ci_low", "ci_high", "legal",
                       "violation", "swap_card", "swap_change", "swap_ci_low", "swap_ci_high", "method"]
OBJECTIVE_COLUMNS = ["objective", "kind", "target", "turn", "seat", "weight", "p", "ci_low", "ci_high", "n_trials",
                     "method"]
DETAIL_COLUMNS = ["objective", "card", "move", "swap_card", "p", "change", "ci_low", "ci_high", "n_trials", "method"]


@dataclass(frozen=True)
class Objective:
    """One thing the deck is judged on: P(event by a turn) or P(a card or group playable by a turn), weighted.

    Attributes
    ----------
    kind : {"odds", "curve"}
    target : str
        The event (``odds``), or the card name or group (``curve``).
    turn : int
    weight : float
    """

    kind: str
    target: str
    turn: int
    weight: float = 1.0

    @property
    def text(self) -> str:
        """The objective as :meth:`parse` reads it."""
        weight = "" if self.weight == 1 else f"{self.weight:g} * "
        return f"{weight}{self.kind}: {self.target} @ {self.turn}"

    @classmethod
    def parse(cls, text: str) -> Objective:
        """Read ``[WEIGHT *] KIND: TARGET @ TURN`` (``odds: Terrain>=1 @ 2``, ``2 * curve: [cost>=2] @ 3``).

        Examples
        --------
        >>> Objective.parse("0.5 * courbe: Robot Camembert @ 5")
        Objective(kind='curve', target='Robot Camembert', turn=5, weight=0.5)
        """
        if not isinstance(text, str) or not text.strip():
            raise DeckstatError(tr("an objective is 'KIND: TARGET @ TURN' (odds: Terrain>=1 @ 2), got {text!r}",
                                   text=text))
        body, weight = text.strip(), 1.0
        head = re.match(r"\s*([0-9]+(?:[.,][0-9]+)?)\s*[*×x]\s*", body)
        if head:
            weight = float(head.group(1).replace(",", "."))
            body = body[head.end():]
        kind_text, colon, rest = body.partition(":")
        kind = next((k for k, words in KINDS.items() if fold(kind_text.strip()) in words), None)
        if not colon or kind is None:
            raise DeckstatError(tr("objective {text!r}: expected a kind ({kinds}) then ':', as in 'odds: Terrain>=1 "
                                   "@ 2'", text=text.strip(), kinds=", ".join(KINDS)))
        target, at, turn_text = rest.rpartition("@")
        if not at or not target.strip():
            raise DeckstatError(tr("objective {text!r}: expected '@ TURN' after the {what}, as in 'odds: "
                                   "Terrain>=1 @ 2'", text=text.strip(),
                                   what=tr("event") if kind == "odds" else tr("card or group")))
        if not turn_text.strip().isdigit():
            raise DeckstatError(tr("objective {text!r}: the turn after '@' must be a whole number, got {turn!r}",
                                   text=text.strip(), turn=turn_text.strip()))
        return cls(kind, target.strip(), int(turn_text), weight)


@dataclass(frozen=True)
class Move:
    """A deck one or two copies away: ``row`` changes by ``delta``; ``swap_row`` (if any) by ``-delta``."""

    row: int
    delta: int
    swap_row: int | None = None


def sensitivity(deck: Deck, game: str | Profile, *, event: str | None = None, curve_target: str | None = None,
                by_turn: int | None = None, objectives: str | Objective | Sequence[str | Objective] = (),
                seat: str = "first", cards: str | Sequence[str] | None = None,
                filler: str | Sequence[str] | None = None, keep: str | None = None, mulligan: bool = True,
                method: str = "auto", n_trials: int | None = None, rng=None,
                chunk_size: int = runner.DEFAULT_CHUNK, n_workers: int = 1,
                opponent: Deck | None = None, allow_absent: bool = False) -> SensitivityResult:
    """What one copy fewer and one copy more of each card change, for one or several weighted objectives.

    Parameters
    ----------
    deck : Deck
    game : str or Profile
    event : str, optional
        An ``odds`` objective: P(``event`` among the cards seen by turn ``by_turn``).
    curve_target : str, optional
        A ``curve`` objective: P(this card, or group such as ``[cost>=2]``, playable by turn ``by_turn``).
    by_turn : int, optional
        The turn of ``event`` and ``curve_target`` (default: 2 for an event, 5 for a card).
    objectives : str, Objective or sequence of them
        More objectives, each ``[WEIGHT *] KIND: TARGET @ TURN`` (:meth:`Objective.parse`); the table's change
        is their weighted sum (weights as given, not normalised).
    seat : {"first", "second"}
    cards : str or sequence of str, optional
        The cards whose copies move (default: every card of the deck drawn from).
    filler : str or sequence of str, optional
        Cards that fill the place of a copy cut, in that order, when the cut alone breaks a rule (default: the
        card whose extra copy gains the most, among those a legal swap allows).
    keep, mulligan :
        The keep rule and whether to take the mulligan, as in :func:`deckstat.odds`.
    method : {"auto", "exact", "simulate"}
    n_trials : int, optional
        Games of a simulated objective (default 50,000; the changes are paired, see below).
    rng, chunk_size, n_workers :
        As in :func:`deckstat.odds`.
    opponent : Deck, optional
        The opponent's deck for a play model that plays both players (Wankul); default: ``deck`` as it is, the
        same opponent for every move.
    allow_absent : bool
        Accept an objective's group that matches no card of the deck (its answer is then 0, and the moves of the
        other cards cannot change it).

    Returns
    -------
    SensitivityResult
        ``table``: one row per card and move (``-1``, ``+1``): ``change`` (the weighted change of the objectives,
        as a probability difference) and its 95% interval, ``legal`` and the rule it breaks (``violation``), and
        for a move that breaks a rule the legal version: ``swap_card`` (the card that makes room, or the filler)
        and ``swap_change`` with its interval. Cards are sorted by their largest change. ``objectives``: the
        deck's own answer to each objective. ``detail``: each objective's change for each move.

    Notes
    -----
    A simulated change's interval is ``change ± z·sd/√n``, ``sd`` the standard deviation of the per-game
    difference (the games are the same for every deck); a weighted sum of several objectives takes the sum of
    their half-widths times the weights' sizes, which holds whatever the objectives' correlation.
    The move's legality is :func:`deckstat.validate`'s, and, in a game whose two players' decks have the same
    size (Wankul), a deck whose size changes is not legal against the same opponent.

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "A", "count": 3, "type": "x"},
    ...                                  {"name": "B", "count": 37, "type": "x"}])
    >>> result = deckstat.sensitivity(deck, "generic", event="A>=1", by_turn=0)
    >>> row = result.table[(result.table["card"] == "A") & (result.table["move"] == "+1")].iloc[0]
    >>> round(float(row["change"]), 4)  # 1 - C(37, 5)/C(41, 5) - (1 - C(37, 5)/C(40, 5))
    0.0808
    """
    plan = plan_sensitivity(deck, game, event=event, curve_target=curve_target, by_turn=by_turn,
                            objectives=objectives, seat=seat, cards=cards, filler=filler, keep=keep,
                            mulligan=mulligan, method=method, n_trials=n_trials, rng=rng, chunk_size=chunk_size,
                            n_workers=n_workers, opponent=opponent, allow_absent=allow_absent)
    return answer_sensitivity(plan)


@dataclass(frozen=True)
class SensitivityPlan:
    """A checked :func:`sensitivity` question: its objectives, the moves, their legality (nothing estimated)."""

    deck: Deck
    profile: Profile
    objectives: tuple[Objective, ...]
    seat: str
    rows: tuple[int, ...]
    fillers: tuple[int, ...]
    moves: tuple[Move, ...]
    legal: dict
    base_legal: bool
    options: dict
    simulation: Simulation
    opponent: Deck | None
    #: The deck each move makes, and each legal version once :func:`answer_sensitivity` has found it.
    decks: dict
    #: Each objective planned on the deck as it is (an OddsPlan or a CurvePlan).
    planned: tuple = ()


def plan_sensitivity(deck: Deck, game: str | Profile, *, event=None, curve_target=None, by_turn=None,
                     objectives=(), seat="first", cards=None, filler=None, keep=None, mulligan=True, method="auto",
                     n_trials=None, rng=None, chunk_size=runner.DEFAULT_CHUNK, n_workers=1,
                     opponent=None, allow_absent=False) -> SensitivityPlan:
    """Every check of :func:`sensitivity`, each objective planned on the deck as it is: nothing estimated."""
    check_deck(deck)
    if opponent is not None:
        check_deck(opponent, "opponent")
    profile = game if isinstance(game, Profile) else get_profile(game)
    check_choice(seat, "seat", ("first", "second"))
    simulation = Simulation.checked(method=method, n_trials=DEFAULT_TRIALS if n_trials is None else n_trials,
                                    rng=rng, chunk_size=chunk_size, n_workers=n_workers).seeded()
    asked = objectives_of(event, curve_target, by_turn, objectives)
    options = {"keep": keep, "mulligan": mulligan}
    planned = tuple(_check_objective(objective, deck, profile, seat, options, simulation, opponent, allow_absent)
                    for objective in asked)
    rows = _rows(deck, profile, cards, "cards")
    fillers = _rows(deck, profile, filler, "filler") if filler is not None else ()
    moves = tuple(Move(row, delta) for row in rows for delta in (-1, 1))
    base_legal = validate(deck, profile).legal
    sizes = {deck.size if opponent is None else opponent.size}
    decks = {move: moved(deck, move) for move in moves}
    legal = {move: _legality(decks[move], profile, sizes) for move in moves}
    return SensitivityPlan(deck, profile, asked, seat, rows, fillers, moves, legal, base_legal, options, simulation,
                           opponent, decks, planned)


def objectives_of(event, curve_target, by_turn, objectives) -> tuple[Objective, ...]:
    """The objectives asked: ``event`` and ``curve_target`` by ``by_turn``, then ``objectives`` (checked)."""
    if by_turn is not None:
        check_whole(by_turn, "by_turn", minimum=0)
    asked = []
    if event is not None:
        asked.append(Objective("odds", str(event), 2 if by_turn is None else int(by_turn)))
    if curve_target is not None:
        asked.append(Objective("curve", str(curve_target), 5 if by_turn is None else int(by_turn)))
    if isinstance(objectives, (str, Objective)):
        objectives = [objectives]
    for each in objectives:
        asked.append(each if isinstance(each, Objective) else Objective.parse(each))
    if not asked:
        raise DeckstatError(tr("nothing to judge the deck on: give {event}, {curve} or {objective}",
                               event=param("event"), curve=param("curve_target"), objective=param("objectives")))
    for objective in asked:
        if not math.isfinite(objective.weight) or objective.weight <= 0:
            raise DeckstatError(tr("objective {text!r}: its weight must be a positive number", text=objective.text))
    return tuple(asked)


def _check_objective(objective: Objective, deck: Deck, profile: Profile, seat: str, options: dict,
                     simulation: Simulation, opponent: Deck | None, allow_absent: bool):
    """``objective`` planned on the deck as it is (an OddsPlan or a CurvePlan).

    A bad event, card or turn is refused here, before any work; the answer uses the plan.
    """
    from deckstat.questions.odds import plan_odds

    try:
        if objective.kind == "odds":
            return plan_odds(deck, profile, objective.target, turns=[objective.turn], seat=seat, simulation=simulation,
                      sides=False, allow_absent=allow_absent, **options)
        else:
            if objective.turn < 1:
                raise DeckstatError(tr("a card is played in a turn, not in the opening hand: the turn must be 1 or "
                                       "more"))
            return plan_curve(deck, profile, **curve_target(deck, profile, objective.target), turns=[objective.turn],
                       seat=seat, simulation=simulation, opponent=opponent, allow_absent=allow_absent, **options)
    except DeckstatError as exc:
        raise exc.prefixed(tr("objective {text!r}: ", text=objective.text)) from None


def curve_target(deck: Deck, profile: Profile, target: str) -> dict:
    """A curve target as :func:`deckstat.curve` takes it: a card of the deck by its name, else a group.

    Text that is neither a card of the deck nor a group is read as a card, so that the error names the closest
    card.
    """
    from deckstat.events import parse_group

    drawn = profile.drawn_deck(deck)
    if not target.lstrip().startswith("[") and card_rows(drawn, target):
        return {"cards": target}
    try:
        parse_group(target, what="group")
    except DeckstatError:
        return {"cards": target}
    return {"groups": target}


def _rows(deck: Deck, profile: Profile, names, what: str) -> tuple[int, ...]:
    """The rows of ``deck`` (of the part drawn from) the copies of ``names`` are on; every such row for None."""
    drawn = profile.drawn_deck(deck)
    labels = drawn.labels
    full = {label: row for row, label in enumerate(deck.labels)}
    if names is None:
        return tuple(full[label] for label in labels if label in full)
    rows = []
    for name in [names] if isinstance(names, str) else list(names):
        found = card_rows(drawn, str(name))
        if not found:
            from deckstat.cards import card_hint
            raise DeckstatError(tr("{option}: card {name!r} is not in the deck {source}{hint}", option=param(what),
                                   name=str(name).strip(), source=deck.source, hint=card_hint(drawn, str(name))))
        rows.extend(full[labels[r]] for r in found if labels[r] in full)
    return tuple(dict.fromkeys(rows))


def moved(deck: Deck, move: Move) -> Deck:
    """The deck after ``move`` (a row left with no copy is dropped)."""
    counts = deck.counts.astype(np.int64).copy()
    counts[move.row] += move.delta
    if move.swap_row is not None:
        counts[move.swap_row] -= move.delta
    return deck.with_counts(counts).with_source(f"{deck.source} {_move_words(deck, move)}")


def _move_words(deck: Deck, move: Move) -> str:
    labels = deck.labels
    text = f"{'+' if move.delta > 0 else '−'}1 {labels[move.row]}"
    if move.swap_row is not None:
        text += f" {'−' if move.delta > 0 else '+'}1 {labels[move.swap_row]}"
    return f"[{text}]"


def _legality(variant: Deck, profile: Profile, sizes: set[int]) -> tuple[str, bool]:
    """The first rule the deck a move makes breaks, in words ('' for none), and whether it is a copy limit.

    A swap at the deck's size mends a rule about the size or the share of a group, never a copy limit broken by
    the copy added.
    """
    from deckstat.games.rules import localized, violations

    # The rules :func:`deckstat.validate` checks, without its file warnings and tables: a move is checked often.
    errors = [r for r in violations(variant.with_synonyms(profile.synonyms), profile) if r["level"] == "error"]
    copy_rules = {localized(rule.text) for part in profile.parts for rule in part.rules if rule.kind == "copies"}
    if errors:
        copies = [r for r in errors if r["rule"] in copy_rules]
        # The copy limit first: no swap mends it, so it is the reason that matters.
        return str((copies or errors)[0]["message"]), bool(copies)
    if profile.same_size and variant.size not in sizes:
        return tr("both players' decks must have the same size ({size} cards)", size=min(sizes)), False
    return "", False


def answer_sensitivity(plan: SensitivityPlan) -> SensitivityResult:
    """Estimate and shape a planned :func:`sensitivity` question."""
    deck, moves = plan.deck, list(plan.moves)
    first = [_estimate(plan, k, moves) for k in range(len(plan.objectives))]
    total = _weighted(plan, first, len(moves))
    swaps = _swaps(plan, moves, total)
    second = [_estimate(plan, k, list(swaps.values())) for k in range(len(plan.objectives))] if swaps else []
    swap_total = _weighted(plan, second, len(swaps)) if swaps else None
    swap_index = {move: i for i, move in enumerate(swaps)}
    labels, counts = deck.labels, deck.counts
    method = "exact" if all(answer["method"] == "exact" for answer in first) else "simulate"
    records = []
    for i, move in enumerate(moves):
        change, low, high = total[:, i]
        record = {"deck": deck.name, "game": plan.profile.id, "card": labels[move.row],
                  "count": int(counts[move.row]), "move": "+1" if move.delta > 0 else "-1",
                  "count_after": int(counts[move.row]) + move.delta, "change": change, "ci_low": low, "ci_high": high,
                  "legal": not plan.legal[move][0], "violation": plan.legal[move][0] or None, "swap_card": None,
                  "swap_change": np.nan, "swap_ci_low": np.nan, "swap_ci_high": np.nan, "method": method}
        if move in swap_index:
            j = swap_index[move]
            swap = swaps[move]
            record.update(swap_card=labels[swap.swap_row], swap_change=swap_total[0, j],
                          swap_ci_low=swap_total[1, j], swap_ci_high=swap_total[2, j])
        records.append(record)
    table = frame(records, SENSITIVITY_COLUMNS, integers=())
    # Cards that matter most first: by the larger size of their two changes (ties in the deck's order).
    weight = table["change"].abs().groupby(table["card"], sort=False).transform("max")
    table = (table.assign(_weight=-weight, _row=[moves[i].row for i in range(len(moves))])
             .sort_values(["_weight", "_row"], kind="stable").drop(columns=["_weight", "_row"])
             .reset_index(drop=True))
    objective_rows, detail = [], []
    for objective, answer in zip(plan.objectives, first):
        objective_rows.append({"objective": objective.text, "kind": objective.kind, "target": objective.target,
                               "turn": objective.turn, "seat": plan.seat, "weight": objective.weight,
                               "p": answer["p"], "ci_low": answer["ci"][0], "ci_high": answer["ci"][1],
                               "n_trials": answer["n_trials"], "method": answer["method"]})
        for i, move in enumerate(moves):
            detail.append({"objective": objective.text, "card": labels[move.row],
                           "move": "+1" if move.delta > 0 else "-1", "swap_card": None, "p": answer["values"][0, i],
                           "change": answer["values"][1, i], "ci_low": answer["values"][2, i],
                           "ci_high": answer["values"][3, i], "n_trials": answer["n_trials"],
                           "method": answer["method"]})
    for objective, answer in zip(plan.objectives, second):
        for j, move in enumerate(swaps.values()):
            detail.append({"objective": objective.text, "card": labels[move.row],
                           "move": "+1" if move.delta > 0 else "-1", "swap_card": labels[move.swap_row],
                           "p": answer["values"][0, j], "change": answer["values"][1, j],
                           "ci_low": answer["values"][2, j], "ci_high": answer["values"][3, j],
                           "n_trials": answer["n_trials"], "method": answer["method"]})
    provenance = {"question": "sensitivity", "deck_source": deck.source, "game": plan.profile.id,
                  "objectives": [o.text for o in plan.objectives], "seat": plan.seat, "deck_legal": plan.base_legal,
                  "method": method, **plan.options}
    simulated = [answer for answer in first if answer["method"] == "simulate"]
    if simulated:
        provenance.update(simulated[0]["provenance"])
        provenance["n_trials"] = simulated[0]["n_trials"]
        provenance["pairing"] = "common random numbers: every deck dealt from the same card keys"
    if plan.opponent is not None:
        provenance["opponent_source"] = plan.opponent.source
    return SensitivityResult(table=table, objectives=frame(objective_rows, OBJECTIVE_COLUMNS),
                             detail=frame(detail, DETAIL_COLUMNS), provenance=provenance)


def _weighted(plan: SensitivityPlan, answers: list[dict], n_moves: int) -> np.ndarray:
    """Rows change, low, high of the objectives' weighted change for each move (half-widths add up)."""
    total = np.zeros((3, n_moves))
    for objective, answer in zip(plan.objectives, answers):
        values = answer["values"]
        total[0] += objective.weight * values[1]
        total[1] += objective.weight * (values[1] - values[2])
        total[2] += objective.weight * (values[3] - values[1])
    return np.vstack([total[0], total[0] - total[1], total[0] + total[2]])


def _swaps(plan: SensitivityPlan, moves: list[Move], total: np.ndarray) -> dict[Move, Move]:
    """For each move that breaks a rule, its legal version at the deck's size, when there is one.

    A copy more takes the place of the copy whose cut costs least; a copy cut is filled by the first ``filler``
    that makes a legal deck, else by the card whose copy more gains most. Candidates are tried in that order
    until one makes a legal deck (legality alone is checked; the swap is then estimated on its own).
    """
    if not plan.base_legal:
        return {}
    change = {move: total[0, i] for i, move in enumerate(moves)}
    sizes = {plan.deck.size if plan.opponent is None else plan.opponent.size}
    out = {}
    for move in moves:
        broken, unmendable = plan.legal[move]
        if not broken or unmendable and move.delta > 0:
            continue
        # A partner whose own copy more breaks the copy limit would break it in the swap too.
        others = [m for m in moves if m.delta == -move.delta and m.row != move.row and not plan.legal[m][1]]
        if move.delta > 0:
            # Least loss first: the cut whose change is largest (nearest zero from below).
            candidates = sorted(others, key=lambda m: -change[m])
        else:
            gains = sorted(others, key=lambda m: -change[m])
            candidates = [m for r in plan.fillers for m in gains if m.row == r] + \
                [m for m in gains if m.row not in plan.fillers]
        for candidate in candidates:
            swap = Move(move.row, move.delta, candidate.row)
            plan.decks[swap] = moved(plan.deck, swap)
            if not _legality(plan.decks[swap], plan.profile, sizes)[0]:
                out[move] = swap
                break
    return out


def _estimate(plan: SensitivityPlan, k: int, moves: list[Move]) -> dict:
    """Objective ``k`` on the deck and on each deck ``moves`` make.

    ``values`` rows: p, change, low, high per move; ``p`` and ``ci``: the deck's own answer.
    """
    objective, planned = plan.objectives[k], plan.planned[k]
    if objective.kind == "odds":
        return _odds_changes(plan, objective, planned, moves)
    return _curve_changes(plan, objective, planned, moves)


def _odds_changes(plan: SensitivityPlan, objective: Objective, planned, moves: list[Move]) -> dict:
    exact = _exact_odds_changes(plan, planned, moves)
    if exact is not None:
        return exact
    decks = [plan.deck, *(plan.decks[move] for move in moves)]
    simulation = plan.simulation
    result = compare(decks, plan.profile, objective.target, turns=[objective.turn], seat=plan.seat,
                     method=simulation.method, n_trials=simulation.n_trials, rng=simulation.rng,
                     chunk_size=simulation.chunk_size, n_workers=simulation.n_workers, allow_absent=True, sides=False,
                     **plan.options)
    table = result.table
    values = np.vstack([table["p_b"].to_numpy(float), table["diff"].to_numpy(float),
                        table["diff_ci_low"].to_numpy(float), table["diff_ci_high"].to_numpy(float)])
    own = result.odds[result.odds["deck"] == table["deck_a"].iloc[0]].iloc[0]
    method = str(table["method"].iloc[0])
    return {"values": values, "p": float(own["p"]), "ci": (float(own["ci_low"]), float(own["ci_high"])),
            "method": method, "n_trials": None if method == "exact" else int(table["n_trials"].iloc[0]),
            "provenance": {k: v for k, v in result.provenance.items() if k in ("seed", "stopping")}}


def _exact_odds_changes(plan: SensitivityPlan, planned, moves: list[Move]) -> dict | None:
    """An exact odds objective on every deck a move makes, from the deck's own cells; None where it cannot.

    A move changes only the counts of the cells its cards are in, so the event compiled once on the deck answers
    every deck a move makes (the exact engine once per distinct cell counts: the Terrains of a Terrain event are one
    cell). It cannot when the simulation was asked for, the exact engine does not take the rules, or a deck a copy
    smaller would run out of cards to draw by the turn (its draws would differ from the deck's).
    """
    if plan.simulation.method == "simulate":
        return None
    event = planned.events[0]
    setup = event.setup
    draws = sorted({d for seat_draws in event.per_seat.values() for d in seat_draws})
    if event.part.method != "exact" or not setup.exact_capable or setup.drawable() - 1 < max(draws) + 1:
        return None
    index = draws.index(event.per_seat[plan.seat][0])
    condition = setup.condition(0)
    memo: dict[tuple, float] = {}

    def answer(counts: np.ndarray) -> float:
        key = tuple(setup.cell_counts_of(counts).tolist())
        if key not in memo:
            memo[key] = float(np.clip(setup.exact_odds_at(np.asarray(key), condition, draws)[index], 0.0, 1.0))
        return memo[key]

    p0 = answer(setup.deck.counts)
    values = np.zeros((4, len(moves)))
    for i, move in enumerate(moves):
        p = answer(_drawn_counts(plan, setup.deck, move))
        values[:, i] = p, p - p0, p - p0, p - p0
    return {"values": values, "p": p0, "ci": (p0, p0), "method": "exact", "n_trials": None, "provenance": {}}


def _curve_changes(plan: SensitivityPlan, objective: Objective, base, moves: list[Move]) -> dict:
    target = curve_target(plan.deck, plan.profile, objective.target)
    simulation = plan.simulation
    if base.use_exact[0]:
        answers = [_exact_curve(d, plan, target, objective.turn)
                   for d in [plan.deck, *(plan.decks[move] for move in moves)]]
        p = np.asarray(answers, dtype=float)
        change = p[1:] - p[0]
        return {"values": np.vstack([p[1:], change, change, change]), "p": float(p[0]), "ci": (p[0], p[0]),
                "method": "exact", "n_trials": None, "provenance": {}}
    counts = base.setup.deck.counts.astype(np.int64)
    spec = curve_moves_spec(base, counts, [_drawn_counts(plan, base.setup.deck, move) for move in moves],
                            objective.turn, plan.seat)
    estimates, rows = paired_curve(spec, simulation)
    n = estimates.n_trials
    low, high = runner.intervals(estimates.values[:1, 0], n)
    return {"values": rows.T, "p": float(estimates.values[0, 0] / n), "ci": (float(low[0]), float(high[0])),
            "method": "simulate", "n_trials": n,
            "provenance": {k: v for k, v in estimates.provenance.items() if k in ("seed", "stopping")}}


def _drawn_counts(plan: SensitivityPlan, drawn: Deck, move: Move) -> np.ndarray:
    """The copies of each row of ``drawn`` (the deck drawn from) once ``move`` is made."""
    index = {label: row for row, label in enumerate(drawn.labels)}
    full = plan.deck.labels
    counts = drawn.counts.astype(np.int64).copy()
    counts[index[full[move.row]]] += move.delta
    if move.swap_row is not None:
        counts[index[full[move.swap_row]]] -= move.delta
    return counts


def _exact_curve(deck: Deck, plan: SensitivityPlan, target: dict, turn: int) -> float:
    """P(the target playable by ``turn``) for ``deck``, exact; 0 when a move has cut the target card's last copy."""
    if "cards" in target and not card_rows(plan.profile.drawn_deck(deck), target["cards"]):
        return 0.0
    return float(curve(deck, plan.profile, **target, turns=[turn], seat=plan.seat, method="exact",
                       opponent=plan.opponent, allow_absent=True, **plan.options).table["p"].iloc[0])


@dataclass(frozen=True)
class CurveMovesSpec:
    """The games of a simulated curve objective for the deck and each deck a move away (picklable)."""

    model: object
    dealing: Dealing
    opponent: Dealing | None
    slots: np.ndarray
    #: Each deck after the first: the deck's slots it drops and the rows its spare cards are, in order.
    variants: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    target: np.ndarray
    turn: int
    schedules: tuple
    limit: int


def curve_moves_spec(planned, counts: np.ndarray, variants: Sequence[np.ndarray], turn: int,
                     seat: str) -> CurveMovesSpec:
    """The shared games of a planned curve for the deck with ``counts`` and each deck of ``variants``.

    ``counts`` and each variant are copies of the rows of ``planned``'s drawn deck; a variant drops the last
    copies of the rows it has fewer of, and deals a spare card for each copy it has more of.
    """
    profile = planned.setup.profile
    slots = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    moves = []
    for other in variants:
        change = np.asarray(other, dtype=np.int64) - counts
        dropped = tuple(int(np.flatnonzero(slots == row)[-1 - j]) for row in np.flatnonzero(change < 0)
                        for j in range(-change[row]))
        added = tuple(int(row) for row in np.flatnonzero(change > 0) for _ in range(change[row]))
        moves.append((dropped, added))
    schedules = tuple(schedule(profile, seat, turn, profile.library_size(int(np.sum(c))))
                      for c in [counts, *variants])
    dealing = replace(planned.dealing, counts=counts)
    return CurveMovesSpec(planned.model, dealing, planned.rival_dealing, slots, tuple(moves), planned.targets[0],
                          turn, schedules, dealing.limit)


def paired_curve(spec: CurveMovesSpec, simulation: Simulation) -> tuple:
    """The games of ``spec``: their estimates, and per variant ``p``, its change and the change's 95% interval."""
    estimates = estimate(Part("simulate", None, lambda: None, functools.partial(curve_moves_task, spec),
                              tr("playability, a copy away")), simulation)
    tallies, n = estimates.values, estimates.n_trials
    rows = np.array([[tallies[i, 0] / n, *paired_gain(int(tallies[i, 1]), int(tallies[i, 2]), n)]
                     for i in range(1, len(tallies))]).reshape(-1, 4)
    return estimates, rows


def curve_moves_task(spec: CurveMovesSpec, rng: np.random.Generator, n_trials: int) -> np.ndarray:
    """Per deck (the deck first, then each variant): games playable by the turn, and games that gain and lose it.

    Every card of the deck and each spare get a random key per game; a deck deals its cards in key order, so a
    deck a few copies away deals the same games but for the copies moved. Returns int64 (1 + n_variants, 3).
    """
    n_slots = len(spec.slots)
    spares = max([len(added) for _, added in spec.variants] + [0])
    keys = rng.random((n_trials, n_slots + spares))
    order = np.argsort(keys, axis=1, kind="stable")
    rival = {}
    if spec.opponent is not None:
        rival = {"opponent": spec.opponent.deal(rng, n_trials)}
    out = np.zeros((1 + len(spec.variants), 3), dtype=np.int64)
    base_hits = None
    for v, (dropped, added) in enumerate([((), ()), *spec.variants]):
        rows = np.concatenate([spec.slots, np.asarray(added, dtype=np.int64), np.zeros(spares - len(added), np.int64)])
        keep = np.ones(n_slots + spares, dtype=bool)
        keep[n_slots + len(added):] = False
        keep[list(dropped)] = False
        chosen = order[keep[order]].reshape(n_trials, int(keep.sum()))
        cells = np.ascontiguousarray(rows[chosen].T)
        counts = np.bincount(rows[keep], minlength=len(spec.dealing.counts))
        dealt = arrange(cells, counts, spec.dealing.keep_table, hand_size=spec.dealing.hand_size,
                        set_aside=spec.dealing.set_aside, limit=spec.limit, keep=spec.dealing.keep)
        first = spec.model.first_turns(dealt["hand"], dealt["library"], spec.schedules[v], [spec.target], **rival)[0]
        hits = first <= spec.turn
        if base_hits is None:
            base_hits = hits
        out[v] = [np.count_nonzero(hits), np.count_nonzero(hits & ~base_hits), np.count_nonzero(base_hits & ~hits)]
    return out
