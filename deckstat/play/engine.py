"""Playability curves from a play model: simulated games in blocks, or the exact engine where the model reduces.

The simulation deals whole games with :func:`deckstat.engines.kernel.deal_order`
(the kept hand and the library in draw order, under the profile's bottom
mulligan), then asks the model for each target's first playable turn, for each
seat's schedule on the same deals. Tallies are histograms of that turn, so
blocks add up and the block runner's streams make the result independent of
chunk size and worker count.
"""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

import numpy as np

from deckstat.engines import exact
from deckstat.engines.cells import partition
from deckstat.engines.kernel import deal_order
from deckstat.engines.seen import Program, Seat, SeenGame, play_seen
from deckstat.errors import DeckstatError
from deckstat.events import Event, evaluate, groups_of, saturation_caps
from deckstat.i18n import tr
from deckstat.play.base import PlayModel, Reduction, Schedule, effect_positions, running_sums


@dataclass(frozen=True)
class KeepRule:
    """A keep rule as :func:`deal_order` calls it: group counts of hands (n_groups, n) -> keep or not (picklable)."""

    event: Event
    keys: tuple[str, ...]

    def __call__(self, counts: np.ndarray) -> np.ndarray:
        """Keep (True) or mulligan each hand."""
        return evaluate(self.event, {key: counts[i] for i, key in enumerate(self.keys)})


@dataclass(frozen=True)
class Dealing:
    """How games are dealt: the deck's rows, the opening hand, the bottom mulligan (picklable).

    Attributes
    ----------
    counts : ndarray of int
        Copies of each row of the drawn deck.
    hand_size, set_aside : int
    keep_table : ndarray of int8, shape (n_rows, n_keep_groups)
        Membership of each row in the keep rule's groups.
    keep : KeepRule or None
        The keep rule of the bottom mulligan; ``None``: no mulligan.
    limit : int
        Bottom mulligans allowed.
    """

    counts: np.ndarray
    hand_size: int
    set_aside: int
    keep_table: np.ndarray
    keep: KeepRule | None = None
    limit: int = 0

    @classmethod
    def of(cls, deck, hand_size: int, set_aside: int, keep: Event | None, limit: int) -> Dealing:
        """The dealing of ``deck`` with an optional bottom mulligan under ``keep``."""
        if keep is None or limit == 0:
            return cls(deck.counts, hand_size, set_aside, np.zeros((len(deck.cards), 0), dtype=np.int8))
        groups = groups_of(keep)
        table = np.column_stack([deck.mask(group) for group in groups.values()]).astype(np.int8)
        return cls(deck.counts, hand_size, set_aside, table, KeepRule(keep, tuple(groups)), limit)

    def deal(self, rng: np.random.Generator, n_trials: int) -> tuple[np.ndarray, np.ndarray]:
        """Kept hands (hand_size, n) and libraries (library_size, n), as row numbers.

        Inside :func:`shared_deals`, the games an earlier call dealt from the same generator state are taken
        again (read-only), and the generator is left where dealing them leaves it: the same numbers.
        """
        deals = _shared_deals.get()
        if deals is None:
            return self._deal(rng, n_trials)
        key = (pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL), n_trials, repr(rng.bit_generator.state))
        kept = deals.games.get(key)
        if kept is not None:
            hand, library, state = kept
            rng.bit_generator.state = state
            return hand, library
        hand, library = self._deal(rng, n_trials)
        for games in (hand, library):
            games.flags.writeable = False  # shared: whoever takes them must not change them
        deals.keep(key, (hand, library, rng.bit_generator.state), hand.nbytes + library.nbytes)
        return hand, library

    def _deal(self, rng: np.random.Generator, n_trials: int) -> tuple[np.ndarray, np.ndarray]:
        dealt = deal_order(self.counts, self.keep_table, n_trials, rng, hand_size=self.hand_size,
                           set_aside=self.set_aside, limit=self.limit, keep=self.keep)
        return dealt["hand"], dealt["library"]


#: Bytes of dealt games :func:`shared_deals` keeps at most: past them, the oldest are let go.
SHARED_DEALS_BYTES = 64 << 20


@dataclass
class _Deals:
    """The games dealt inside one :func:`shared_deals` block, by dealing, trials and generator state."""

    games: dict = field(default_factory=dict)
    sizes: dict = field(default_factory=dict)

    def keep(self, key, games, size: int) -> None:
        self.games[key], self.sizes[key] = games, size
        while sum(self.sizes.values()) > SHARED_DEALS_BYTES and len(self.games) > 1:
            oldest = next(iter(self.games))
            del self.games[oldest], self.sizes[oldest]


_shared_deals: ContextVar[_Deals | None] = ContextVar("deckstat_shared_deals", default=None)


@contextmanager
def shared_deals() -> Iterator[None]:
    """Inside the block, :meth:`Dealing.deal` deals the same games once for every question that plays them.

    Questions seeded alike deal the same games from the same generator states: the two ends of a curve's
    assumption (Terrains scored or not), a report's parts. Each plays them its own way; dealing them once
    changes no number. The games are kept up to :data:`SHARED_DEALS_BYTES`; an inner block shares the outer
    one's.
    """
    if _shared_deals.get() is not None:
        yield
        return
    token = _shared_deals.set(_Deals())
    try:
        yield
    finally:
        _shared_deals.reset(token)


@dataclass(frozen=True)
class CurveSpec:
    """Everything a worker needs to simulate one curve question (picklable)."""

    model: PlayModel
    dealing: Dealing
    targets: tuple[np.ndarray, ...]
    schedules: tuple[Schedule, ...]
    #: The opponent's dealing, for a model that plays both players (:meth:`PlayModel.rival_deck`).
    opponent: Dealing | None = None
    #: The cards each row's draw effects draw, for :func:`curve_effects_task` (a model that plays them).
    effect_draws: np.ndarray | None = None

    @property
    def max_turn(self) -> int:
        """The last turn followed."""
        return self.schedules[0].max_turn


def curve_task(spec: CurveSpec, rng: np.random.Generator, n_trials: int) -> np.ndarray:
    """Histogram of the first playable turn, shape (n_seats, n_targets, max_turn + 1).

    With an opponent, each game deals the player's cards, then the opponent's, from ``rng``.

    Bin ``t - 1`` counts games first playable on turn ``t``; the last bin, games not playable by ``max_turn``.
    """
    hand, library = spec.dealing.deal(rng, n_trials)
    # The opponent's games come after the player's from the same stream: the player's are those of a goldfish.
    rival = {} if spec.opponent is None else {"opponent": spec.opponent.deal(rng, n_trials)}
    bins = spec.max_turn + 1
    tallies = np.zeros((len(spec.schedules), len(spec.targets), bins), dtype=np.int64)
    done: dict[tuple, int] = {}
    for s, plan in enumerate(spec.schedules):
        # Seats that draw alike (Wankul, JdG, Licum, Pandrea) play the same games: count them once.
        key = (plan.drawn.tobytes(), plan.seat if spec.model.seat_matters else "")
        if key in done:
            tallies[s] = tallies[done[key]]
            continue
        done[key] = s
        first = spec.model.first_turns(hand, library, plan, spec.targets, **rival)
        for i in range(len(spec.targets)):
            tallies[s, i] = np.bincount(first[i].astype(np.int64) - 1, minlength=bins)[:bins]
    return tallies


@dataclass(frozen=True)
class SeenSpec:
    """Events on the cards a player has seen beyond the turns' draws: drought draws, draw effects (picklable).

    Attributes
    ----------
    model : PlayModel or None
        A model with ``seen_positions`` (Wankul's discard model: its drought draws), or None: the cards the
        schedule draws.
    dealing, opponent : Dealing, Dealing or None
        The player's and, when the model plays both players, the opponent's.
    schedules : tuple of Schedule
        One per seat asked.
    turns : tuple of int
        The turns counted (0: the kept hand).
    table : ndarray of int, shape (n_rows, n_columns)
        Each row's membership in each counted column (:attr:`deckstat.engines.tasks.DealSpec.table`, by row).
    events : tuple
        Per event: its columns of ``table``, their group keys and distinct columns (see
        :func:`deckstat.engines.tasks.group_counts`), and the event.
    program : Program or None
        The player's effects: the games are then counted twice, without and with them. Draws alone are played
        by the model (or :func:`effect_positions`); searches and looks by the compiled game of
        :func:`deckstat.engines.seen.play_seen` (:func:`seen_game`), which plays the whole game.
    """

    model: PlayModel | None
    dealing: Dealing
    opponent: Dealing | None
    schedules: tuple[Schedule, ...]
    turns: tuple[int, ...]
    table: np.ndarray
    events: tuple[tuple[tuple[int, ...], tuple[str, ...], tuple, Event], ...]
    program: Program | None = None
    #: Count "has held by the turn" (turns in increasing order, as :func:`deckstat.when` asks) instead of "holds".
    cumulative: bool = False


def seen_task(spec: SeenSpec, rng: np.random.Generator, n_trials: int) -> np.ndarray:
    """Games where each event holds on the cards seen by each turn, shape (n_ways, n_seats, n_events, n_turns).

    Way 0 counts the cards the model (or the schedule) draws; with a ``program``, way 1 the same games with
    the effects played (:func:`effect_positions`, or the model's own), way 2 the games where the event holds
    with them and not without, way 3 the reverse (the paired difference). Without a search or a look, dealt by
    :meth:`Dealing.deal` (numpy's loops for a run this small: the question it serves is otherwise exact); with
    one, played by the compiled game (:func:`seen_game`).
    """
    if spec.program is not None and not spec.program.draws_only:
        return _compiled_seen_task(spec, rng, n_trials)
    hand, library = spec.dealing.deal(rng, n_trials)
    rival = {} if spec.opponent is None else {"opponent": spec.opponent.deal(rng, n_trials)}
    # Row numbers as indices once: every lookup below would convert them again.
    hand, library = hand.astype(np.intp), library.astype(np.intp)
    table = np.asarray(spec.table, dtype=np.int16)
    trials = np.arange(n_trials)
    in_hand = table[hand].sum(axis=0).T  # (n_columns, n)
    prefix = np.empty((table.shape[1], library.shape[0] + 1, n_trials), dtype=np.int16)
    for column in range(table.shape[1]):
        running_sums(np.take(table[:, column], library), prefix[column])
    ways = (None,) if spec.program is None else (None, spec.program.draws())
    out = np.zeros((1 if len(ways) == 1 else 4, len(spec.schedules), len(spec.events), len(spec.turns)),
                   dtype=np.int64)
    for s, plan in enumerate(spec.schedules):
        without = {}
        for w, draws in enumerate(ways):
            if spec.model is not None:
                positions = spec.model.seen_positions(hand, library, plan, effect_draws=draws, **rival)
            elif draws is not None:
                positions = effect_positions(hand, library, plan.drawn[1:], draws)
            else:
                positions = np.broadcast_to(np.asarray(plan.drawn[1:], dtype=np.int64)[:, None],
                                            (plan.max_turn, n_trials))
            held = {}
            for j, turn in enumerate(spec.turns):
                counts = in_hand + (prefix[:, positions[turn - 1], trials] if turn else 0)
                for e, (columns, keys, distinct, event) in enumerate(spec.events):
                    holds = evaluate(event, _event_counts(counts, columns, keys, distinct))
                    if spec.cumulative:
                        holds = holds | held[e] if e in held else holds
                        held[e] = holds
                    out[w, s, e, j] = np.count_nonzero(holds)
                    if w == 0 and len(ways) == 2:
                        without[e, j] = holds
                    elif w == 1:
                        out[2, s, e, j] = np.count_nonzero(holds & ~without[e, j])
                        out[3, s, e, j] = np.count_nonzero(~holds & without[e, j])
    return out


def _compiled_seen_task(spec: SeenSpec, rng: np.random.Generator, n_trials: int) -> np.ndarray:
    """:func:`seen_task` on the compiled game: every seat's games played card by card, effects of any kind."""
    n_turns = len(spec.turns)
    out = np.zeros((4, len(spec.schedules), len(spec.events), n_turns), dtype=np.int64)
    for s, plan in enumerate(spec.schedules):
        game = seen_game(spec.model, spec.dealing, spec.opponent, plan, spec.table, spec.turns, spec.program)
        counts = play_seen(game, rng, n_trials, ways=2)
        held = {}
        for j in range(n_turns):
            for e, (columns, keys, distinct, event) in enumerate(spec.events):
                without, with_effects = (evaluate(event, _event_counts(counts[w, j], columns, keys, distinct))
                                         for w in range(2))
                if spec.cumulative:
                    if e in held:
                        without, with_effects = without | held[e][0], with_effects | held[e][1]
                    held[e] = (without, with_effects)
                out[:, s, e, j] = [np.count_nonzero(without), np.count_nonzero(with_effects),
                                   np.count_nonzero(with_effects & ~without), np.count_nonzero(without & ~with_effects)]
    return out


def seen_game(model: PlayModel | None, dealing: Dealing, opponent: Dealing | None, plan: Schedule,
              table: np.ndarray, turns: Sequence[int], program: Program | None) -> SeenGame:
    """One seat's games for :func:`deckstat.engines.seen.play_seen`: the dealing, the model's rules, the counts.

    Parameters
    ----------
    model : PlayModel or None
        Wankul's discard model: its forced Terrains and drought draws, on both players' turns when it plays both
        (the opponent dealt by ``opponent``). None: the turns draw the schedule's cards and nothing more.
    dealing, opponent : Dealing, Dealing or None
    plan : Schedule
    table : ndarray of int, shape (n_rows, n_columns)
    turns : sequence of int
    program : Program or None
        The player's effects (None: none).
    """
    n_rows = len(dealing.counts)
    program = program if program is not None else Program.none(n_rows)
    caps, lookup = _keep_lookup(dealing)
    library_size = int(np.sum(dealing.counts)) - dealing.hand_size - dealing.set_aside
    if model is None:
        wanted = np.vstack([np.diff(np.asarray(plan.drawn, dtype=np.int64)), np.zeros(plan.max_turn, np.int64)])
        return SeenGame(_seat(dealing, np.zeros(n_rows, dtype=bool)), None, table, program, wanted, tuple(turns),
                        dealing.hand_size, dealing.set_aside, caps, lookup)
    rival = None
    if model.rival_deck() is not None:
        rival = _seat(opponent, model.rival_terrain)
    return SeenGame(_seat(dealing, model.terrain), rival, table, program, model.turn_draws(plan, library_size),
                    tuple(turns), dealing.hand_size, dealing.set_aside, caps, lookup, wankul=True,
                    seat=0 if plan.seat == "first" else 1, drought_order=model.drought_order,
                    terrain_turns=model.terrain_turns)


def _seat(dealing: Dealing, terrain: np.ndarray) -> Seat:
    return Seat(np.asarray(dealing.counts, dtype=np.int64), np.asarray(terrain, dtype=bool), dealing.keep_table,
                dealing.limit if dealing.keep is not None else 0)


#: The most hands (capped group counts) a keep rule is tabled for in the compiled game.
MOST_KEEP_HANDS = 2**20


def _keep_lookup(dealing: Dealing) -> tuple[np.ndarray, np.ndarray]:
    """The keep rule as a table of every hand's capped group counts (see :class:`SeenGame`)."""
    if dealing.keep is None or dealing.limit == 0:
        return np.zeros(0, dtype=np.int64), np.ones(1, dtype=bool)
    caps = saturation_caps(dealing.keep.event)
    caps = np.array([min(caps[key], dealing.hand_size) for key in dealing.keep.keys], dtype=np.int64)
    if np.prod(caps + 1, dtype=float) > MOST_KEEP_HANDS:
        raise DeckstatError(tr("the keep rule counts too many groups to play searches and looks with it ({n} "
                               "groups); write it with fewer groups, or ask without effects (--no-effects)",
                               n=len(caps)))
    grid = np.array(list(itertools.product(*(range(cap + 1) for cap in caps))), dtype=np.int16).T
    return caps, np.asarray(dealing.keep(grid), dtype=bool)


def _event_counts(counts: np.ndarray, columns: tuple[int, ...], keys: tuple[str, ...], distinct: tuple) -> dict:
    """One event's group counts from every column's: its own columns; a distinct group's, its names with a card.

    As :func:`deckstat.engines.tasks.group_counts`, for an event whose columns lie among other events'.
    """
    out = {}
    for i, key in enumerate(keys):
        names = distinct[i] if distinct else None
        out[key] = counts[columns[i]] if names is None else (counts[list(names)] > 0).sum(axis=0, dtype=np.int16)
    return out


def curve_effects_task(spec: CurveSpec, rng: np.random.Generator, n_trials: int) -> np.ndarray:
    """The same games played without and with the draw effects, shape (4, n_seats, n_targets, max_turn).

    Per turn t: games playable by t without the effects (0) and with them (1), with them and not without (2), and
    the reverse (3): the paired difference.
    """
    hand, library = spec.dealing.deal(rng, n_trials)
    rival = {} if spec.opponent is None else {"opponent": spec.opponent.deal(rng, n_trials)}
    turns = np.arange(1, spec.max_turn + 1)[:, None]
    out = np.zeros((4, len(spec.schedules), len(spec.targets), spec.max_turn), dtype=np.int64)
    for s, plan in enumerate(spec.schedules):
        plain = spec.model.first_turns(hand, library, plan, spec.targets, **rival)
        played = spec.model.first_turns(hand, library, plan, spec.targets, effect_draws=spec.effect_draws, **rival)
        for i in range(len(spec.targets)):
            without, with_effects = plain[i][None, :] <= turns, played[i][None, :] <= turns
            out[:, s, i] = [without.sum(axis=1), with_effects.sum(axis=1), (with_effects & ~without).sum(axis=1),
                            (without & ~with_effects).sum(axis=1)]
    return out


def exact_curve(reduction: Reduction, dealing_deck, schedule: Schedule, *, hand_size: int, set_aside: int,
                keep: Event | None, weigh: exact.Weigh | None = None) -> np.ndarray:
    """Exact P(playable by turn t), t = 1..max_turn, for a target whose model reduces to an event on the cards seen.

    Parameters
    ----------
    reduction : Reduction
        Its ``holds`` must be increasing in every count (more cards seen never make a card unplayable), so that
        playable on turn ``t`` is playable by turn ``t``.
    dealing_deck : Deck
        The drawn deck.
    schedule : Schedule
    hand_size, set_aside : int
    keep : Event or None
        Keep rule of one bottom mulligan (the exact engine models one), or ``None``.
    weigh : callable, optional
        As in :func:`deckstat.engines.exact.zone_odds` (:func:`deckstat.engines.cost.dry_run` passes it).

    Returns
    -------
    ndarray of float, shape (max_turn,)
    """
    k = len(reduction.sets)
    columns = [np.asarray(s, dtype=np.int64) for s in reduction.sets]
    keep_condition = None
    if keep is not None:
        groups = groups_of(keep)
        columns += [dealing_deck.mask(group).astype(np.int64) for group in groups.values()]
        keys = tuple(groups)
        caps = saturation_caps(keep)

        def keep_holds(arrays, keep=keep, keys=keys):
            return evaluate(keep, dict(zip(keys, arrays)))

        keep_condition = exact.Condition(tuple(range(k, k + len(keys))), tuple(caps[key] for key in keys),
                                         keep_holds)
    cell_counts, membership = partition(dealing_deck.counts, np.column_stack(columns))
    sizes = [int(dealing_deck.counts[np.asarray(s, dtype=bool)].sum()) for s in reduction.sets]
    condition = exact.Condition(tuple(range(k)), tuple(min(c, n) for c, n in zip(reduction.caps, sizes)),
                                reduction.holds)
    turns = np.arange(1, schedule.max_turn + 1)
    probs, _ = exact.zone_odds(cell_counts, membership.astype(bool), condition, hand_size=hand_size,
                               set_aside=set_aside, draws=[int(schedule.drawn[t]) for t in turns], keep=keep_condition,
                               weigh=weigh)
    probs = np.clip(np.maximum.accumulate(probs), 0.0, 1.0)
    return np.where(turns >= reduction.from_turn, probs, 0.0)


def reductions(model: PlayModel, targets: Sequence[np.ndarray]) -> list[Reduction | None]:
    """Each target's exact reduction under the model's policy, or ``None``."""
    return [model.reduction(np.asarray(t, dtype=bool)) for t in targets]
