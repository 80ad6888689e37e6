"""The best legal deck from a pool and a collection: :func:`optimise`.

Candidates are legal decks of the deck's size built from the deck's cards and
a pool's, within the copies owned (or the copy limit), locked cards kept as
they are. The objectives are ``odds`` and ``curve`` objectives as
:func:`deckstat.sensitivity` reads them, weighted.

Search. When the candidates are few (:data:`EXHAUSTIVE_LIMIT`), every one is
evaluated: the optimum is exact. Otherwise an iterated local search on
one-copy swaps (a copy of one card out, a copy of another in): steepest
ascent, then restarts from the best deck shaken by a few random swaps, until
the budget ends. Swaps keep the deck's size, so most keep it legal; and a
question reads a deck only through the counts of its *cells* (the cards
alike for every group the objectives name), so the neighbours of a deck are
evaluated once per distinct cell counts: a few dozen exact answers a step,
however large the pool, where a population method would spend its budget
re-evaluating decks the objectives cannot tell apart. The deck as it is and
``start`` are always candidates: the answer is never worse than a deck the
user knew.

Evaluation is exact (each objective on the exact engine, memoised on the
cells' counts) where every objective is an exact ``odds`` one. Otherwise
(a playability curve, a mulligan the exact engine does not model) the
candidates are raced on shared games (see :func:`optimise`'s Notes): a
curve's play model reads more of a card than the cells, so its classes are
the cards alike in every game attribute, and when a step has more swaps than
:data:`MOST_RACED` the race takes those whose halves gain most (each copy
out and each copy in measured once on shared games).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from deckstat._validate import check_choice, check_deck
from deckstat.deck import Deck
from deckstat.engines import runner
from deckstat.engines.progress import track
from deckstat.errors import DeckstatError, param
from deckstat.games.profiles import Profile, get_profile
from deckstat.i18n import tr
from deckstat.questions._estimate import Simulation
from deckstat.questions.compare import card_differences, compare
from deckstat.questions.odds import plan_odds
from deckstat.questions.sensitivity import Objective, objectives_of
from deckstat.results import OptimiseResult, frame
from deckstat.schema import PRINTING_COLUMNS
from deckstat.text import fold

#: Candidate decks enumerated outright when there are no more.
EXHAUSTIVE_LIMIT = 20_000
#: Seconds of search when no budget is given.
DEFAULT_BUDGET = 60.0
#: Random swaps that shake the best deck before a restart.
SHAKE = 4
#: Two values closer than this are the same (exact answers differ by rounding only below it).
TIE = 1e-12
#: Decks of the tied set shown.
MOST_TIED = 5
#: Games a raced candidate is first played on, and the most it is played on when none is given.
RACE_START, MOST_RACE_TRIALS = 4_000, 128_000
#: Swaps raced at once; past it, those whose halves (a copy out, a copy in, each measured once) gain most.
MOST_RACED = 16

OPTIMISE_COLUMNS = ["deck", "game", "candidate", "value", "gain", "gain_low", "gain_high", "legal", "method"]
OBJECTIVE_COLUMNS = ["objective", "weight", "p_current", "p_best", "change"]


@dataclass(frozen=True)
class Universe:
    """Every card a candidate may hold, once: the deck's cards, then the pool's others.

    Attributes
    ----------
    deck : Deck
        One row per card (count 1): the deck's rows, then the pool's cards the deck lacks.
    start : ndarray of int64
        The deck's copies of each row.
    caps : ndarray of int64
        The most copies of each row a candidate may hold: the copy limit, within those owned (the deck's own
        copies always allowed).
    locked : ndarray of bool
        Rows whose copies stay as in the deck.
    owned : dict or None
        With a collection, the copies a candidate may hold of each folded name: those owned, or the deck's own
        when it holds more.
    folded : tuple of str
        Each row's folded name.
    """

    deck: Deck
    start: np.ndarray
    caps: np.ndarray
    locked: np.ndarray
    owned: dict | None
    folded: tuple[str, ...]

    def candidate(self, counts: np.ndarray, source: str) -> Deck:
        """The deck with ``counts`` copies of each row."""
        return replace(self.deck.with_counts(counts), source=source)


def optimise(deck: Deck, game: str | Profile, *, objectives: str | Objective | Sequence[str | Objective] = (),
             event: str | None = None, by_turn: int | None = None, pool: Deck | None = None,
             owned: Deck | None = None, lock: str | Sequence[str] | None = None, start: Deck | None = None,
             seat: str = "first", keep: str | None = None, mulligan: bool = True,
             mulligan_rule: str | None = None, budget: float = DEFAULT_BUDGET, method: str = "auto",
             n_trials: int | None = None, rng=None, n_workers: int = 1) -> OptimiseResult:
    """The best legal deck of the deck's size from its cards and a pool's, for weighted exact objectives.

    Parameters
    ----------
    deck : Deck
        The current deck: its size is kept, and it is always a candidate.
    game : str or Profile
    objectives : str, Objective or sequence of them
        ``[WEIGHT *] odds: EVENT @ TURN`` or ``curve: CARD @ TURN`` (see
        :meth:`deckstat.questions.sensitivity.Objective.parse`); the value of a deck is their weighted sum.
    event, by_turn : optional
        One more objective, ``odds: event @ by_turn`` (default turn 2).
    pool : Deck, optional
        Cards a candidate may hold besides the deck's own (a card table, one row per card). Without it, only
        the copies of the deck's own cards change.
    owned : Deck, optional
        The collection: copies owned of each card name (a candidate holds no more, or no more than the deck
        when it holds more). Without it, any card up to the game's copy limit.
    lock : str or sequence of str, optional
        Cards of the deck whose copies stay as they are.
    start : Deck, optional
        Another deck the search starts from (a candidate too).
    seat : {"first", "second"}
    keep, mulligan, mulligan_rule :
        As in :func:`deckstat.odds`.
    budget : float
        Seconds of search; the exhaustive search and the first climb always finish.
    method : {"auto", "exact", "simulate"}
        ``auto``: exact objectives where the exact engine answers them (its cost as :func:`deckstat.odds`
        prices it); when one is simulated (a London mulligan, say), candidates are raced (see Notes).
    n_trials : int, optional
        Most games a raced candidate is played on (default :data:`MOST_RACE_TRIALS`).
    rng : int or Generator, optional
        Seeds the restarts' random swaps and the races' games (recorded as ``seed``).
    n_workers : int
        Processes for the races' games.

    Returns
    -------
    OptimiseResult
        ``best``: the best deck found (a :class:`Deck`); ``cards``: its differences from the deck;
        ``table``: the deck, ``start`` and the best, with their ``value`` and ``gain``; ``objectives``: each
        objective for the deck and the best; ``tied``: the legal decks found with the best value (up to
        :data:`MOST_TIED`; ``cards``, and ``changes`` from the best); ``front``: with two objectives, the legal
        decks checked that no other beats on both (``changes`` from the deck); ``provenance``: the search
        (``exhaustive`` or ``local``), evaluations, restarts, seconds, seed, and ``interrupted`` when Ctrl-C
        ended it (the best deck so far is then the answer).

    Notes
    -----
    A race compares the incumbent deck with every legal one-copy swap of it (one per pair of cell classes) on the
    same games (common random numbers, as :func:`deckstat.compare`), :data:`RACE_START` games each, then halves
    the field: a candidate leaves when its interval on the gain over the incumbent lies wholly below the
    leader's, and the games double for those left. The leader replaces the incumbent once its gain's interval
    is above zero and it is separated from every other candidate (or the games are at their most, when it is
    above zero alone); the search stops at an incumbent no candidate beats, or when the budget ends. Decks
    still tied with the best at that moment are the ``tied`` table. Intervals are 95% (a weighted sum of
    objectives adds their half-widths times the weights' sizes); a race tests many candidates, so a gain
    it accepts is one whose interval clears zero, not a family-wise guarantee.

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "A", "count": 2, "type": "x"},
    ...                                  {"name": "B", "count": 38, "type": "y"}])
    >>> pool = deckstat.Deck.from_table([{"name": "C", "type": "x"}, {"name": "D", "type": "y"}])
    >>> owned = deckstat.Deck.from_table([{"name": "A", "count": 4}, {"name": "C", "count": 3}])
    >>> result = deckstat.optimise(deck, "generic", event="[type=x]>=1", by_turn=0, pool=pool, owned=owned, budget=5)
    >>> sorted(zip(result.best.names, result.best.counts.tolist()))  # every x card owned
    [('A', 4), ('B', 33), ('C', 3)]
    """
    plan = plan_optimise(deck, game, objectives=objectives, event=event, by_turn=by_turn, pool=pool, owned=owned,
                         lock=lock, start=start, seat=seat, keep=keep, mulligan=mulligan, mulligan_rule=mulligan_rule,
                         budget=budget, method=method, n_trials=n_trials, rng=rng, n_workers=n_workers)
    return answer_optimise(plan)


@dataclass(frozen=True)
class Evaluator:
    """The objectives of a candidate from its counts, exact, memoised on the cells' counts.

    Attributes
    ----------
    setups : tuple
        Per objective: its set-up compiled on the universe, its engine condition, the draws of its engine run
        and the index of the objective's draw count among them.
    cells : ndarray of int64, shape (n_objectives, n_rows)
        Each row's cell for each objective.
    weights : ndarray of float
    memo : dict
        Each objective's answer by the cells' counts.
    exact : bool
        Whether every objective is answered exactly (otherwise candidates are raced, see :func:`optimise`).
    curves : dict
        The curve objectives by index (:class:`CurveObjective`); their "cells" are the rows alike in play.
    """

    setups: tuple
    cells: np.ndarray
    weights: np.ndarray
    memo: dict
    exact: bool = True
    curves: dict = field(default_factory=dict)

    def signature(self, counts: np.ndarray) -> tuple:
        """What the objectives read of a deck: each objective's cell counts."""
        return tuple(tuple(np.bincount(cells, weights=counts, minlength=int(cells.max()) + 1).astype(np.int64)
                           .tolist()) for cells in self.cells)

    def values(self, counts: np.ndarray) -> np.ndarray:
        """Each objective's answer for the deck with ``counts`` copies of each row."""
        key = self.signature(counts)
        found = self.memo.get(key)
        if found is None:
            found = np.array([self._answer(k, np.asarray(key[k], dtype=np.int64)) for k in range(len(self.setups))])
            self.memo[key] = found
        return found

    def weighted(self, counts: np.ndarray) -> float:
        """The weighted sum of the objectives."""
        return float(self.weights @ self.values(counts))

    def _answer(self, k: int, cell_counts: np.ndarray) -> float:
        setup, condition, draws, index = self.setups[k]
        return float(np.clip(setup.exact_odds_at(cell_counts, condition, draws)[index], 0.0, 1.0))


@dataclass(frozen=True)
class OptimisePlan:
    """A checked :func:`optimise` question (nothing evaluated)."""

    deck: Deck
    profile: Profile
    objectives: tuple[Objective, ...]
    universe: Universe
    evaluator: Evaluator
    starts: tuple[np.ndarray, ...]
    seat: str
    budget: float
    streams: runner.Streams
    options: dict
    most_trials: int
    n_workers: int
    method: str = "auto"


def plan_optimise(deck, game, *, objectives=(), event=None, by_turn=None, pool=None, owned=None, lock=None,
                  start=None, seat="first", keep=None, mulligan=True, mulligan_rule=None, budget=DEFAULT_BUDGET,
                  method="auto", n_trials=None, rng=None, n_workers=1) -> OptimisePlan:
    """Every check of :func:`optimise`: the candidates' cards, the objectives compiled on them; nothing evaluated."""
    check_deck(deck)
    profile = game if isinstance(game, Profile) else get_profile(game)
    if len(profile.parts) > 1:
        raise DeckstatError(tr("optimise builds the decks of games of one deck; {game} has {n}", game=profile.name,
                               n=len(profile.parts)))
    check_choice(seat, "seat", ("first", "second"))
    if not isinstance(budget, (int, float)) or isinstance(budget, bool) or not math.isfinite(budget) or budget <= 0:
        raise DeckstatError(tr("{name} must be a positive number of seconds, got {value!r}", name=param("budget"),
                               value=budget))
    asked = objectives_of(event, None, by_turn, objectives)
    simulation = Simulation.checked(method=method, n_trials=n_trials, rng=rng, n_workers=n_workers)
    most = MOST_RACE_TRIALS if n_trials is None else int(n_trials)
    if most < RACE_START:
        raise DeckstatError(tr("{name} must be at least {least} (a race starts with that many games), got {value}",
                               name=param("n_trials"), least=RACE_START, value=most))
    options = {"keep": keep, "mulligan": mulligan, "mulligan_rule": mulligan_rule}
    universe = build_universe(deck, profile, pool, owned, lock)
    evaluator = _evaluator(deck, universe, profile, asked, seat, options, simulation)
    starts = [universe.start]
    if start is not None:
        check_deck(start, "start")
        starts.append(_counts_in(universe, start.with_synonyms(profile.synonyms), "start"))
    return OptimisePlan(deck, profile, asked, universe, evaluator, tuple(starts), seat, float(budget),
                        runner.make_streams(rng), options, most, n_workers, simulation.method)


def build_universe(deck: Deck, profile: Profile, pool: Deck | None, owned: Deck | None, lock) -> Universe:
    """The cards candidates are built from: the deck's, then the pool's others (see :class:`Universe`)."""
    table = deck.with_synonyms(profile.synonyms).cards.copy()
    start = table["count"].to_numpy(np.int64).copy()
    if pool is not None:
        check_deck(pool, "pool")
        known = {_identity(record, table.columns) for record in table.to_dict("records")}
        fresh = [record for record in pool.with_synonyms(profile.synonyms).cards.to_dict("records")
                 if _identity(record, table.columns) not in known]
        if fresh:
            table = pd.concat([table, pd.DataFrame.from_records(fresh)], ignore_index=True)
            start = np.concatenate([start, np.zeros(len(fresh), dtype=np.int64)])
    table["count"] = 1
    universe_deck = Deck.from_table(table.drop(columns=["deck"], errors="ignore"), source=deck.source)
    limit = min([int(rule.params.get("max", 10**6)) for part in profile.parts for rule in part.rules
                 if rule.kind == "copies"] or [10**6])
    names = tuple(fold(n) for n in universe_deck.names)
    caps = np.full(len(names), limit, dtype=np.int64)
    allowed = None
    if owned is not None:
        check_deck(owned, "owned")
        allowed = {}
        for name, count in zip(owned.names, owned.counts):
            allowed[fold(name)] = allowed.get(fold(name), 0) + int(count)
        held: dict[str, int] = {}
        for name, count in zip(names, start):
            held[name] = held.get(name, 0) + int(count)
        allowed = {name: max(allowed.get(name, 0), held.get(name, 0)) for name in set(allowed) | set(held)}
        caps = np.minimum(caps, [allowed.get(n, 0) for n in names])
    caps = np.maximum(caps, start)  # the deck as it is is always a candidate
    locked = np.zeros(len(names), dtype=bool)
    for text in [] if lock is None else [lock] if isinstance(lock, str) else list(lock):
        rows = [r for r, n in enumerate(names) if n == fold(str(text)) and start[r] > 0]
        if not rows:
            from deckstat.cards import card_hint

            raise DeckstatError(tr("{option}: card {name!r} is not in the deck {source}{hint}", option=param("lock"),
                                   name=str(text).strip(), source=deck.source, hint=card_hint(deck, str(text))))
        locked[rows] = True
    return Universe(universe_deck, start, caps, locked, allowed, names)


def _identity(record: dict, columns) -> tuple:
    """A card's name and the printing columns the deck's table has: a pool card already in the deck has the same."""
    return (fold(str(record.get("name", ""))),
            *(fold(str(record.get(c))) for c in PRINTING_COLUMNS if c in columns and not pd.isna(record.get(c))))


def _counts_in(universe: Universe, other: Deck, what: str) -> np.ndarray:
    """``other``'s copies over the universe's rows (each of its cards must be one of them)."""
    labels = {fold(label): row for row, label in enumerate(universe.deck.labels)}
    names: dict[str, int] = {}
    for row, name in enumerate(universe.folded):
        names.setdefault(name, row)
    counts = np.zeros(len(universe.folded), dtype=np.int64)
    for label, name, count in zip(other.labels, other.names, other.counts):
        row = labels.get(fold(label), names.get(fold(name)))
        if row is None:
            raise DeckstatError(tr("{option}: card {name!r} is neither in the deck nor in the pool",
                                   option=param(what), name=label))
        counts[row] += int(count)
    if counts.sum() != universe.start.sum():
        raise DeckstatError(tr("{option} has {size} cards; the deck has {deck}, and optimise keeps the deck's size",
                               option=param(what), size=int(counts.sum()), deck=int(universe.start.sum())))
    return counts


def _evaluator(deck: Deck, universe: Universe, profile: Profile, asked, seat: str, options: dict,
               simulation: Simulation) -> Evaluator:
    setups, cells, exact, curves = [], [], [], {}
    # Every card of the universe, as many as the deck's size at least: the events are compiled on it once.
    copies = np.maximum(universe.start, 1)
    copies[0] += max(0, int(universe.start.sum()) - int(copies.sum()))
    compiled_on = universe.deck.with_counts(copies)
    for k, objective in enumerate(asked):
        if objective.kind == "curve":
            curves[k] = _curve_objective(deck, universe, compiled_on, profile, objective, seat, options, simulation)
            setups.append(None)
            cells.append(curves[k].classes)
            exact.append(False)
            continue
        try:
            # The cells are the universe's: a group must match one of its cards (the deck's or the pool's); the
            # draws by turn are the deck's (its size bounds them), which may lack the group's cards.
            wide = plan_odds(compiled_on, profile, objective.target, turns=[objective.turn], seat=seat, sides=False,
                             simulation=simulation, **options)
            own = plan_odds(deck, profile, objective.target, turns=[objective.turn], seat=seat, sides=False,
                            allow_absent=True, simulation=simulation, **options)
        except DeckstatError as exc:
            raise exc.prefixed(tr("objective {text!r}: ", text=objective.text)) from None
        event = own.events[0]
        exact.append(event.part.method == "exact" and event.setup.exact_capable)
        draws = sorted({d for seat_draws in event.per_seat.values() for d in seat_draws})
        index = draws.index(event.per_seat[seat][0])
        setup = wide.events[0].setup
        setups.append((setup, setup.condition(0), draws, index))
        cells.append(np.asarray(setup.compiled.card_cells, dtype=np.int64))
    return Evaluator(tuple(setups), np.vstack(cells), np.array([o.weight for o in asked]), {}, all(exact), curves)


@dataclass(frozen=True)
class CurveObjective:
    """A curve objective on the universe's rows: its plan (the play model, the target's rows), rows alike in play."""

    plan: object
    classes: np.ndarray


def _curve_objective(deck: Deck, universe: Universe, compiled_on: Deck, profile: Profile, objective: Objective,
                     seat: str, options: dict, simulation: Simulation) -> CurveObjective:
    """Plan a curve objective on every card of the universe, the opponent (in Wankul) the deck as it is."""
    from deckstat.games.rules import game_columns
    from deckstat.questions.curve import plan_curve
    from deckstat.questions.sensitivity import curve_target

    target = curve_target(compiled_on, profile, objective.target)
    arguments = {**target, "turns": [objective.turn], "seat": seat, "simulation": simulation.with_method("simulate"),
                 "keep": options["keep"], "mulligan": options["mulligan"]}
    if options.get("mulligan_rule") is not None:
        raise DeckstatError(tr("objective {text!r}: a playability curve models the bottom mulligan or none, not "
                               "{rule}", text=objective.text, rule=options["mulligan_rule"]))
    try:
        planned = plan_curve(compiled_on, profile, **arguments)
        if planned.model.rival_deck() is not None:
            planned = plan_curve(compiled_on, profile, opponent=deck, **arguments)
    except DeckstatError as exc:
        raise exc.prefixed(tr("objective {text!r}: ", text=objective.text)) from None
    drawn = planned.setup.deck
    if len(drawn.cards) != len(universe.deck.cards):
        raise DeckstatError(tr("objective {text!r}: optimise weighs playability curves in games of one deck",
                               text=objective.text))
    mask = planned.targets[0]
    # Rows alike in play (every game attribute) and for the target are one class: a swap between them is nothing.
    columns = game_columns(drawn)
    keys = [(bool(m), *(str(v) for v in row)) for m, row in zip(mask, drawn.cards[columns].itertuples(index=False))]
    ids: dict[tuple, int] = {}
    classes = np.array([ids.setdefault(key, len(ids)) for key in keys], dtype=np.int64)
    return CurveObjective(planned, classes)


def answer_optimise(plan: OptimisePlan) -> OptimiseResult:
    """Search the candidates of a planned :func:`optimise` question and shape the answer."""
    search = _Search(plan) if plan.evaluator.exact else _Race(plan)
    interrupted = False
    try:
        with track(tr("optimising"), total=None, unit="decks") as progress:
            search.progress = progress
            search.run()
    except KeyboardInterrupt:
        # The best deck so far is an answer: the user asked to stop, not to lose it.
        interrupted = True
    return _shape(plan, search, interrupted)


class _Search:
    """The search's state: the best legal deck so far, and every legal deck checked."""

    def __init__(self, plan: OptimisePlan):
        self.plan = plan
        self.universe = plan.universe
        self.evaluator = plan.evaluator
        self.legal_memo: dict[bytes, bool] = {}
        self.checked: dict[bytes, np.ndarray] = {}
        self.best = plan.starts[0].copy()
        self.best_value = -math.inf
        self.kind = "local"
        self.restarts = 0
        self.evaluations = 0
        self.progress = None
        self.started = time.monotonic()
        self.rng = np.random.default_rng(plan.streams.root())
        free = ~self.universe.locked & (self.universe.caps > 0)
        self.free = free
        # Rows alike for every objective: a swap is evaluated once per pair of such classes.
        self.classes = [tuple(column) for column in self.evaluator.cells.T]

    def legal(self, counts: np.ndarray) -> bool:
        """Whether the deck with ``counts`` breaks no construction rule and holds no more than owned."""
        key = counts.tobytes()
        found = self.legal_memo.get(key)
        if found is None:
            from deckstat.games.rules import violations

            deck = self.universe.candidate(counts, "candidate")
            found = self._owned(counts) and not any(r["level"] == "error"
                                                    for r in violations(deck, self.plan.profile))
            self.legal_memo[key] = found
            if found:
                self.checked[key] = counts.copy()
        return found

    def _owned(self, counts: np.ndarray) -> bool:
        """No name holds more copies than the collection allows."""
        allowed = self.universe.owned
        if allowed is None:
            return True
        totals: dict[str, int] = {}
        for name, count in zip(self.universe.folded, counts):
            if count:
                totals[name] = totals.get(name, 0) + int(count)
        return all(total <= allowed.get(name, 0) for name, total in totals.items())

    def value(self, counts: np.ndarray) -> float:
        """The candidate's weighted value (counted as an evaluation)."""
        self.evaluations += 1
        if self.progress is not None:
            self.progress.advance()
        return self.evaluator.weighted(counts)

    def offer(self, counts: np.ndarray, value: float) -> bool:
        """Keep ``counts`` as the best when it beats it and is legal."""
        if value > self.best_value + TIE and self.legal(counts):
            self.best, self.best_value = counts.copy(), value
            return True
        return False

    def out_of_time(self) -> bool:
        return time.monotonic() - self.started > self.plan.budget

    def run(self) -> None:
        for counts in self.plan.starts:
            self.offer(counts, self.value(counts))
        if self.best_value == -math.inf:
            # No deck the user knew is legal: the search starts from the deck all the same.
            self.best_value = self.value(self.best)
        size = self._space_size()
        if size is not None and size <= EXHAUSTIVE_LIMIT:
            self.kind = "exhaustive"
            self._exhaustive()
            return
        current = self.best.copy()
        while True:
            self._climb(current)
            if self.out_of_time():
                return
            self.restarts += 1
            current = self._shake(self.best)

    def _space_size(self) -> int | None:
        """How many count vectors of the deck's size the caps allow (None: more than ten times the limit)."""
        free = np.flatnonzero(self.free)
        total = int(self.best[free].sum())
        ways = [1] + [0] * total
        for row in free:
            cap = int(min(self.universe.caps[row], total))
            ways = [sum(ways[j - k] for k in range(min(cap, j) + 1)) for j in range(total + 1)]
            if ways[total] > 10 * EXHAUSTIVE_LIMIT:
                return None
        return ways[total]

    def _exhaustive(self) -> None:
        free = np.flatnonzero(self.free)
        total = int(self.best[free].sum())
        scored = []
        for combo in _compositions(total, [int(min(self.universe.caps[r], total)) for r in free]):
            counts = self.best.copy()
            counts[free] = combo
            scored.append((self.value(counts), counts))
        scored.sort(key=lambda item: -item[0])
        for value, counts in scored:
            if value < self.best_value - TIE:
                break
            # The best legal one is kept; those tied with it are checked so that the tied set is known.
            if not self.offer(counts, value) and len(self.checked) < 50 * MOST_TIED:
                self.legal(counts)

    def _neighbours(self, counts: np.ndarray) -> list[tuple[float, int, int]]:
        """Every one-copy swap of ``counts`` as (value, row out, row in), best first; each class pair evaluated once."""
        outs = np.flatnonzero(self.free & (counts > 0))
        ins = np.flatnonzero(self.free & (counts < self.universe.caps))
        values: dict[tuple, float] = {}
        found = []
        for a in outs:
            for b in ins:
                if a == b:
                    continue
                key = (self.classes[a], self.classes[b])
                if key not in values:
                    counts[a] -= 1
                    counts[b] += 1
                    values[key] = self.value(counts)
                    counts[a] += 1
                    counts[b] -= 1
                found.append((values[key], int(a), int(b)))
        found.sort(key=lambda item: -item[0])
        return found

    def _climb(self, counts: np.ndarray) -> np.ndarray:
        """Steepest ascent over legal one-copy swaps from ``counts``, to a local optimum."""
        counts = counts.copy()
        value = self.evaluator.weighted(counts)
        while not self.out_of_time():
            moved = False
            for candidate, a, b in self._neighbours(counts):
                if candidate <= value + TIE:
                    break
                counts[a] -= 1
                counts[b] += 1
                if self.legal(counts):
                    value = candidate
                    self.offer(counts, value)
                    moved = True
                    break
                counts[a] += 1
                counts[b] -= 1
            if not moved:
                break
        return counts

    def _shake(self, counts: np.ndarray) -> np.ndarray:
        """``counts`` after :data:`SHAKE` random legal swaps (fewer when few are found)."""
        counts = counts.copy()
        for _ in range(SHAKE):
            outs = np.flatnonzero(self.free & (counts > 0))
            ins = np.flatnonzero(self.free & (counts < self.universe.caps))
            if not len(outs) or not len(ins):
                break
            for _ in range(20):
                a, b = int(self.rng.choice(outs)), int(self.rng.choice(ins))
                if a == b:
                    continue
                counts[a] -= 1
                counts[b] += 1
                if self.legal(counts):
                    break
                counts[a] += 1
                counts[b] -= 1
        return counts


class _Race(_Search):
    """The search when an objective is simulated: candidates raced on shared games (see :func:`optimise`'s Notes)."""

    def __init__(self, plan: OptimisePlan):
        super().__init__(plan)
        self.kind = "race"
        self.screened = 0
        self.rounds = 0
        self.games = 0
        self.tied: list[np.ndarray] = []

    def run(self) -> None:
        self.best = self.plan.starts[0].copy()
        self.legal(self.best)
        if len(self.plan.starts) > 1 and self.legal(self.plan.starts[1]):
            winner, _ = self._race(self.best, [self.plan.starts[1]])
            if winner is not None:
                self.best = winner
        while not self.out_of_time():
            candidates = self._swaps(self.best)
            if not candidates:
                return
            winner, tied = self._race(self.best, candidates)
            if winner is None:
                self.tied = tied
                return
            self.best = winner

    def _swaps(self, counts: np.ndarray) -> list[np.ndarray]:
        """One legal deck for each pair of cell classes a one-copy swap of ``counts`` can move between."""
        outs = np.flatnonzero(self.free & (counts > 0))
        ins = np.flatnonzero(self.free & (counts < self.universe.caps))
        pairs: dict[tuple, list[tuple[int, int]]] = {}
        for a in outs:
            for b in ins:
                if a != b:
                    pairs.setdefault((self.classes[a], self.classes[b]), []).append((int(a), int(b)))
        found, moves = [], []
        for options in pairs.values():
            if self.classes[options[0][0]] == self.classes[options[0][1]]:
                continue  # a swap within a class changes nothing the objectives read
            for a, b in options[:10]:
                swapped = counts.copy()
                swapped[a] -= 1
                swapped[b] += 1
                if self.legal(swapped):
                    found.append(swapped)
                    moves.append((a, b))
                    break
        if len(found) <= MOST_RACED:
            return found
        # Too many to race: the swaps whose two halves (a copy out, a copy in) gain most, each half measured once.
        outs, ins = sorted({a for a, _ in moves}), sorted({b for _, b in moves})
        halves = []
        for a in outs:
            halves.append(counts.copy())
            halves[-1][a] -= 1
        for b in ins:
            halves.append(counts.copy())
            halves[-1][b] += 1
        gains = self.paired(counts, halves, RACE_START)[0]
        self.screened += len(halves)
        gain_out = dict(zip(outs, gains[:len(outs)]))
        gain_in = dict(zip(ins, gains[len(outs):]))
        order = sorted(range(len(moves)), key=lambda i: -(gain_out[moves[i][0]] + gain_in[moves[i][1]]))
        return [found[i] for i in order[:MOST_RACED]]

    def _race(self, incumbent: np.ndarray, candidates: list[np.ndarray]) -> tuple[np.ndarray | None, list]:
        """Successive halving of ``candidates`` against ``incumbent``: the winner (or None) and the decks tied."""
        alive = list(range(len(candidates)))
        n = RACE_START
        while True:
            diff, half = self.paired(incumbent, [candidates[i] for i in alive], n)
            self.rounds += 1
            self.evaluations += len(alive)
            self.games += n * (len(alive) + 1)
            if self.progress is not None:
                self.progress.advance(len(alive))
            low, high = diff - half, diff + half
            lead = int(np.argmax(diff))
            keep = [k for k in range(len(alive)) if high[k] >= low[lead]]
            if low[lead] > 0 and len(keep) == 1:
                return candidates[alive[lead]], []
            if np.all(high < 0):
                return None, []
            if 2 * n > self.plan.most_trials or self.out_of_time():
                # Undecided at the most games: a leader above zero is taken, the others left tied with it.
                if low[lead] > 0:
                    return candidates[alive[lead]], [candidates[alive[k]] for k in keep if k != lead]
                return None, [candidates[alive[k]] for k in keep if high[k] >= 0]
            alive = [alive[k] for k in keep]
            n *= 2

    def paired(self, incumbent: np.ndarray, candidates: list[np.ndarray], n: int) -> tuple[np.ndarray, np.ndarray]:
        """Each candidate's weighted gain over ``incumbent`` on shared games, and its 95% half-width."""
        return _paired_gains(self.plan, incumbent, candidates, n, int(self.rng.integers(0, 2**63)))[:2]


def _paired_gains(plan: OptimisePlan, incumbent: np.ndarray, candidates: list[np.ndarray], n: int,
                  seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Weighted gains of ``candidates`` over ``incumbent`` and their half-widths, on the same games.

    From :func:`deckstat.compare`; also each objective's answer for the incumbent, and for the candidates
    (shape (n_objectives, n_candidates)).
    """
    universe = plan.universe
    decks = [universe.candidate(incumbent, "incumbent"),
             *(universe.candidate(c, f"candidate {i + 1}") for i, c in enumerate(candidates))]
    gains, halves = np.zeros(len(candidates)), np.zeros(len(candidates))
    answers_incumbent, answers = [], []
    for k, objective in enumerate(plan.objectives):
        if k in plan.evaluator.curves:
            diff, half, now, then = _curve_gains(plan, plan.evaluator.curves[k], objective.turn, incumbent,
                                                 candidates, n, seed)
            gains += objective.weight * diff
            halves += abs(objective.weight) * half
            answers_incumbent.append(now)
            answers.append(then)
            continue
        # An objective the exact engine answers stays exact in a race (unless asked otherwise): no interval to add.
        result = compare(decks, plan.profile, objective.target, turns=[objective.turn], seat=plan.seat,
                         method=plan.method, n_trials=n, rng=seed, n_workers=plan.n_workers, allow_absent=True,
                         sides=False, **plan.options)
        table = result.table
        diff = table["diff"].to_numpy(float)
        half = (table["diff_ci_high"].to_numpy(float) - table["diff_ci_low"].to_numpy(float)) / 2
        gains += objective.weight * diff
        halves += abs(objective.weight) * half
        answers_incumbent.append(float(table["p_a"].iloc[0]))
        answers.append(table["p_b"].to_numpy(float))
    return gains, halves, np.array(answers_incumbent), np.array(answers)


def _curve_gains(plan: OptimisePlan, curve: CurveObjective, turn: int, incumbent: np.ndarray,
                 candidates: list[np.ndarray], n: int, seed: int):
    """A curve objective's gains of ``candidates`` over ``incumbent`` on the same games (cards dealt by key)."""
    from deckstat.questions.sensitivity import curve_moves_spec, paired_curve

    spec = curve_moves_spec(curve.plan, incumbent, candidates, turn, plan.seat)
    estimates, rows = paired_curve(spec, Simulation.checked(n_trials=n, rng=seed, n_workers=plan.n_workers).seeded())
    return rows[:, 1], (rows[:, 3] - rows[:, 2]) / 2, estimates.values[0, 0] / estimates.n_trials, rows[:, 0]


def _compositions(total: int, caps: list[int]):
    """Every tuple of ``len(caps)`` whole numbers, each within its cap, summing to ``total``."""
    if not caps:
        if total == 0:
            yield ()
        return
    rest = sum(caps[1:])
    for k in range(max(0, total - rest), min(caps[0], total) + 1):
        for tail in _compositions(total - k, caps[1:]):
            yield (k, *tail)


def _shape(plan: OptimisePlan, search: _Search, interrupted: bool) -> OptimiseResult:
    universe, evaluator, deck = plan.universe, plan.evaluator, plan.deck
    best = search.best
    best_deck = universe.candidate(best, f"{deck.source} [optimised]")
    named = [("current", universe.start)] + ([("start", plan.starts[1])] if len(plan.starts) > 1 else []) + \
        [("best", best)]
    if evaluator.exact:
        values = [evaluator.values(counts) for _, counts in named]
        gains = [(float(plan.evaluator.weights @ (v - values[0])),) * 3 for v in values]
        tied, front = _tied_and_front(plan, search)
    else:
        # The decks compared once more, on games of their own, as many as a race plays at most.
        seed = int(search.rng.integers(0, 2**63))
        diff, half, now, then = _paired_gains(plan, universe.start, [c for _, c in named[1:]], plan.most_trials, seed)
        values = [now] + [then[:, i] for i in range(len(named) - 1)]
        gains = [(0.0, 0.0, 0.0)] + [(float(d), float(d - h), float(d + h)) for d, h in zip(diff, half)]
        labels = universe.deck.labels
        tied = frame([{"candidate": i + 1, "value": np.nan, "cards": _listing(labels, counts),
                       "changes": _changes(labels, best, counts)} for i, counts in enumerate(search.tied[:MOST_TIED])],
                     ["candidate", "value", "cards", "changes"], integers=("candidate",))
        front = None
    table = [{"deck": deck.name, "game": plan.profile.id, "candidate": name,
              "value": float(plan.evaluator.weights @ value), "gain": gain[0], "gain_low": gain[1],
              "gain_high": gain[2], "legal": search.legal(counts), "method": "exact" if evaluator.exact else "simulate"}
             for (name, counts), value, gain in zip(named, values, gains)]
    objective_rows = [{"objective": objective.text, "weight": objective.weight, "p_current": float(values[0][k]),
                       "p_best": float(values[-1][k]), "change": float(values[-1][k] - values[0][k])}
                      for k, objective in enumerate(plan.objectives)]
    provenance = {"question": "optimise", "deck_source": deck.source, "game": plan.profile.id,
                  "objectives": [o.text for o in plan.objectives], "seat": plan.seat, "search": search.kind,
                  "evaluations": search.evaluations, "distinct_evaluations": len(evaluator.memo),
                  "legality_checks": len(search.legal_memo), "restarts": search.restarts,
                  "seconds": round(time.monotonic() - search.started, 2), "budget": plan.budget,
                  "interrupted": interrupted, "pool_cards": int(len(universe.start) - len(deck.cards)),
                  "owned": universe.owned is not None,
                  "locked": [universe.deck.labels[r] for r in np.flatnonzero(universe.locked)],
                  "method": "exact" if evaluator.exact else "simulate", "seed": plan.streams.seed,
                  "seed_entropy": plan.streams.entropy}
    if not evaluator.exact:
        provenance.update(rounds=search.rounds, games=search.games, most_trials=plan.most_trials,
                          confidence=runner.CONFIDENCE, screened=search.screened)
    return OptimiseResult(best=best_deck, table=frame(table, OPTIMISE_COLUMNS, integers=()),
                          objectives=frame(objective_rows, OBJECTIVE_COLUMNS, integers=()),
                          cards=card_differences(deck, best_deck), tied=tied, front=front, provenance=provenance)


def _tied_and_front(plan: OptimisePlan, search: _Search) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """The legal decks checked with the best value; with two objectives, those no other checked deck beats on both."""
    evaluator, labels = plan.evaluator, plan.universe.deck.labels
    checked = list(search.checked.values())
    tied_rows = []
    for counts in checked:
        value = evaluator.weighted(counts)
        if abs(value - search.best_value) <= TIE and len(tied_rows) < MOST_TIED:
            tied_rows.append({"candidate": len(tied_rows) + 1, "value": value, "cards": _listing(labels, counts),
                              "changes": _changes(labels, search.best, counts)})
    tied = frame(tied_rows, ["candidate", "value", "cards", "changes"], integers=("candidate",))
    if len(plan.objectives) != 2:
        return tied, None
    points = [(tuple(evaluator.values(counts)), counts) for counts in checked]
    front_rows = []
    for (a, b), counts in sorted(points, key=lambda item: (-item[0][0], -item[0][1])):
        if any(x >= a and y >= b and (x > a or y > b) for (x, y), _ in points):
            continue
        if front_rows and front_rows[-1]["p_1"] == a and front_rows[-1]["p_2"] == b:
            continue
        front_rows.append({"p_1": a, "p_2": b, "value": evaluator.weighted(counts),
                           "cards": _listing(labels, counts), "changes": _changes(labels, plan.universe.start, counts),
                           "copies_changed": int(np.abs(counts - plan.universe.start).sum() // 2)})
    return tied, frame(front_rows, ["p_1", "p_2", "value", "copies_changed", "cards", "changes"], integers=())


def _changes(labels: list[str], before: np.ndarray, after: np.ndarray) -> str:
    """What turns ``before`` into ``after``: ``+2 A, −1 B`` (copies added first); empty when they are the same."""
    moves = [(int(b) - int(a), label) for label, a, b in zip(labels, before, after) if a != b]
    return ", ".join(f"{'+' if d > 0 else '−'}{abs(d)} {label}" for d, label in sorted(moves, key=lambda m: -m[0]))


def _listing(labels: list[str], counts: np.ndarray) -> str:
    """A deck as ``3 A, 2 B``."""
    return ", ".join(f"{int(c)} {label}" for label, c in zip(labels, counts) if c)
