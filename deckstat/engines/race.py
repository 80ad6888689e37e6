"""The two-player deck-out race: the turn each seat runs out of cards, vectorised over trials.

Two decks race under one deck-out rule (:data:`deckstat.terms.DECKOUT_RULES`),
one Python step per seat and turn, every trial at once: the rules' draws,
Wankul's drought rule (no card of the drought group in play and none in
either hand: the players draw one card at a time until one appears, in the
order :data:`deckstat.terms.DROUGHT_ORDERS` names: together, where if both
must draw and cannot the active player wins, or the active player first)
and ``draw`` / ``mill`` card effects under a play policy
(:data:`deckstat.terms.POLICIES`).

Decks are dealt by :func:`deckstat.engines.kernel.deal_order` (the bottom
mulligan included), over cells from :func:`deckstat.engines.cells.partition`
whose key rows carry the keep rule's groups, the drought group and the
effect values.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from deckstat.engines.cells import partition
from deckstat.engines.kernel import deal_order
from deckstat.engines.tasks import group_counts
from deckstat.errors import DeckstatError
from deckstat.events import evaluate
from deckstat.i18n import tr
from deckstat.terms import BOTH_OUT_RULES, FAILED_DRAW_RULES

_NEVER = np.iinfo(np.int32).max


@dataclass(frozen=True)
class SeatSpec:
    """One seat's deck, reduced to cells (picklable).

    Attributes
    ----------
    cell_counts : ndarray of int
    keep_table : ndarray of int8, shape (n_cells, n_keep_groups)
        Membership in the keep rule's groups.
    drought : ndarray of bool
        Cells of the drought group.
    draw, mill : ndarray of int
        Effect values of each cell.
    first_turn_draw : int
    """

    cell_counts: np.ndarray
    keep_table: np.ndarray
    drought: np.ndarray
    draw: np.ndarray
    mill: np.ndarray
    first_turn_draw: int

    @classmethod
    def from_cards(cls, counts: np.ndarray, keep_membership: np.ndarray, drought: np.ndarray, draw: np.ndarray,
                   mill: np.ndarray, first_turn_draw: int) -> SeatSpec:
        """Reduce a deck's distinct cards (copies, keep-group membership, drought flag, effects) to cells."""
        keys = np.column_stack([np.asarray(keep_membership).reshape(len(counts), -1), drought, draw, mill])
        cell_counts, cell_keys = partition(counts, keys.astype(np.int64))
        n_keep = cell_keys.shape[1] - 3
        return cls(cell_counts=cell_counts, keep_table=cell_keys[:, :n_keep].astype(np.int8),
                   drought=cell_keys[:, n_keep].astype(bool), draw=cell_keys[:, n_keep + 1],
                   mill=cell_keys[:, n_keep + 2], first_turn_draw=int(first_turn_draw))


@dataclass(frozen=True)
class RaceSpec:
    """Everything a worker needs to run deck-out races (picklable).

    ``keep_distinct`` is empty, or per keep-rule group ``None`` or the
    columns of the seats' ``keep_table`` holding the names of a ``distinct(G)``
    (see :func:`deckstat.engines.tasks.group_counts`).
    """

    seats: tuple[SeatSpec, SeatSpec]
    keep_keys: tuple[str, ...]
    keep: object
    hand_size: int
    set_aside: int
    draws_per_turn: int
    rule: str
    simultaneous: bool
    draw_at_end: bool
    policy: str
    drought: bool
    terrain_turns: int | None
    max_rounds: int
    drought_order: str = "together"
    keep_distinct: tuple = ()


def deterministic_round(library: int, first_turn_draw: int, draws_per_turn: int, rule: str) -> int:
    """The round a seat runs out on, without effects: the first whose draws exceed (or reach) the library."""
    if draws_per_turn < 1:
        raise DeckstatError(tr("a deck never runs out when players draw no card per turn"))
    needed = library + 1 if rule in FAILED_DRAW_RULES else max(library, 1)
    if first_turn_draw >= needed:
        return 1
    return 1 + -(-(needed - first_turn_draw) // draws_per_turn)


#: Races advanced together: their state arrays stay in the processor's cache, and memory stays bounded.
SUB_BLOCK = 16384


def _small(bound: int) -> type:
    """The smallest signed integer dtype holding values up to ``bound``."""
    return np.int16 if bound < np.iinfo(np.int16).max else np.int32


def _prefix(per_card: np.ndarray, most: int) -> np.ndarray:
    """Running sums of a value along each library, trial-major, shape (n_trials, length + 1).

    ``per_card`` holds the value of each card in each library, trial-major, ``most`` its largest.
    """
    length = per_card.shape[1]
    out = np.zeros((per_card.shape[0], length + 1), dtype=_small(max(most, 1) * length))
    np.cumsum(per_card, axis=1, dtype=out.dtype, out=out[:, 1:])
    return out


def _drought_positions(is_drought: np.ndarray, met: np.ndarray) -> np.ndarray:
    """Where each library's drought cards lie, in order; the library size past the last one.

    ``met`` is the drought track (:func:`_prefix` of ``is_drought``): the
    drought cards before each position, which is the rank of the next one, so
    the first drought card at or after position ``j`` is at
    ``positions[met[j]]``. Trial-major, shape (n_trials, most drought cards + 1).
    """
    n, length = is_drought.shape
    most = int(met[:, -1].max(initial=0)) + 1
    positions = np.full(n * most, length, dtype=_small(length))
    # One flat pass (nonzero on a 2-d array costs several times more): each drought card, its race and place.
    cards = np.flatnonzero(is_drought)
    races = cards // length
    places = cards - races * length
    positions[races * most + met.ravel()[races * (length + 1) + places]] = places
    return positions.reshape(n, most)


class _Track:
    """A trial-major table of one value per trial and library position, read at each trial's own position."""

    def __init__(self, table: np.ndarray):
        self.flat = table.ravel()
        self.width = table.shape[1]
        self.base = np.arange(table.shape[0], dtype=np.int64) * self.width

    def at(self, position: np.ndarray, races: np.ndarray | None = None) -> np.ndarray:
        """The value at ``position`` of every race, or of the races numbered ``races``."""
        base = self.base if races is None else races * self.width
        return self.flat[base + position]


class _Race:
    """The state of ``n`` races between two seats, advanced one seat-turn at a time.

    ``dealt`` holds each seat's kept hand and library as cell ids, trial-major.
    """

    def __init__(self, spec: RaceSpec, dealt: list[tuple[np.ndarray, np.ndarray]]):
        self.spec = spec
        n = dealt[0][0].shape[0]
        self.n = n
        # Decks without a draw or mill card play no effect whatever the policy.
        self.effects = spec.policy != "none" and any(seat.draw.any() or seat.mill.any() for seat in spec.seats)
        self.sizes, self.terrain, self.draws, self.mills, self.drought_places = [], [], [], [], []
        self.hand_terrain, self.pending_draw, self.pending_mill = [], [], []
        for seat, (hand, library) in zip(spec.seats, dealt):
            drought = seat.drought.astype(np.int8)
            self.sizes.append(library.shape[1])
            is_drought = np.take(drought, library)
            met = _prefix(is_drought, 1)
            self.terrain.append(_Track(met))
            self.hand_terrain.append(np.take(drought, hand).sum(axis=1, dtype=np.int32))
            if self.effects:
                self.draws.append(_Track(_prefix(np.take(seat.draw, library), int(seat.draw.max(initial=0)))))
                self.mills.append(_Track(_prefix(np.take(seat.mill, library), int(seat.mill.max(initial=0)))))
                self.pending_draw.append(np.take(seat.draw, hand).sum(axis=1).astype(np.int32))
                self.pending_mill.append(np.take(seat.mill, hand).sum(axis=1).astype(np.int32))
            else:
                self.pending_draw.append(np.zeros(n, dtype=np.int32))
                self.pending_mill.append(np.zeros(n, dtype=np.int32))
            if spec.drought:
                self.drought_places.append(_Track(_drought_positions(is_drought, met)))
        self.pointer = np.zeros((2, n), dtype=np.int32)
        # Drought cards among the cards drawn or milled so far: the terrain track at each seat's pointer.
        self.seen_terrain = [np.zeros(n, dtype=track.flat.dtype) for track in self.terrain]
        self.out_round = np.zeros((2, n), dtype=np.int32)
        self.out_time = np.full((2, n), _NEVER, dtype=np.int32)
        # Whether each seat still has cards: out_round == 0, kept rather than recomputed at every step.
        self.alive = np.ones((2, n), dtype=bool)
        self.in_play = np.zeros(n, dtype=bool)
        self.expires = np.zeros(n, dtype=np.int32)

    def run_out(self, seat: int, mask: np.ndarray, round_number: int, time: int) -> None:
        self.run_out_some(seat, np.flatnonzero(mask), round_number, time)

    def run_out_some(self, seat: int, races: np.ndarray, round_number: int, time: int) -> None:
        """:meth:`run_out` for the races numbered ``races``."""
        races = races[self.alive[seat][races]]
        self.out_round[seat][races] = round_number
        self.out_time[seat][races] = time
        self.alive[seat][races] = False

    def draw(self, seat: int, count, mask: np.ndarray, round_number: int, time: int) -> None:
        # A product, not np.where: the masks are irregular, and where's branches cost more than the arithmetic.
        count = np.multiply(mask, count, dtype=np.int32)
        available = self.sizes[seat] - self.pointer[seat]
        taken = np.minimum(count, available)
        old, new = self.pointer[seat], self.pointer[seat] + taken
        seen = self.terrain[seat].at(new)
        self.hand_terrain[seat] += seen - self.seen_terrain[seat]
        self.seen_terrain[seat] = seen
        if self.effects:
            self.pending_draw[seat] += self.draws[seat].at(new) - self.draws[seat].at(old)
            self.pending_mill[seat] += self.mills[seat].at(new) - self.mills[seat].at(old)
        self.pointer[seat] = new
        # Out: a draw that fails, or under the other rules a draw that takes the last card (count is 0 off mask).
        if self.spec.rule in FAILED_DRAW_RULES:
            out = count > available
        else:
            out = (count > 0) & (count >= available)
        self.run_out_some(seat, np.flatnonzero(out), round_number, time)

    def draw_some(self, seat: int, races: np.ndarray, count: np.ndarray, round_number: int, time: int) -> None:
        """:meth:`draw` for the races numbered ``races``, ``count`` cards each."""
        old = self.pointer[seat][races]
        available = self.sizes[seat] - old
        taken = np.minimum(count, available)
        new = old + taken
        seen = self.terrain[seat].at(new, races)
        self.hand_terrain[seat][races] += seen - self.seen_terrain[seat][races]
        self.seen_terrain[seat][races] = seen
        if self.effects:
            self.pending_draw[seat][races] += self.draws[seat].at(new, races) - self.draws[seat].at(old, races)
            self.pending_mill[seat][races] += self.mills[seat].at(new, races) - self.mills[seat].at(old, races)
        self.pointer[seat][races] = new
        out = count > available
        if self.spec.rule not in FAILED_DRAW_RULES:
            out |= (taken > 0) & (new == self.sizes[seat])
        self.run_out_some(seat, races[out], round_number, time)

    def mill(self, seat: int, mask: np.ndarray) -> None:
        other = 1 - seat
        amount = np.where(mask, self.pending_mill[seat], 0)
        self.pending_mill[seat][mask] = 0
        self.pointer[other] = np.minimum(self.pointer[other] + amount, self.sizes[other])
        # Milled cards go to the discard pile, not to the hand: the count of drought cards met moves on alone.
        self.seen_terrain[other] = self.terrain[other].at(self.pointer[other])

    def play_effects(self, seat: int, mask: np.ndarray, round_number: int, time: int) -> None:
        if not self.effects:
            return
        for _ in range(self.sizes[seat] + 1):
            extra = np.where(mask, self.pending_draw[seat], 0)
            self.mill(seat, mask)
            if not extra.any():
                return
            self.pending_draw[seat][mask] = 0
            self.draw(seat, extra, mask & (extra > 0), round_number, time)
            if self.spec.policy == "each_turn":
                return

    def force_terrain(self, seat: int, mask: np.ndarray, time: int) -> None:
        plays = mask & ~self.in_play & (self.hand_terrain[seat] > 0)
        self.hand_terrain[seat] -= plays
        self.in_play |= plays
        if self.spec.terrain_turns is not None:
            # Every play expires later than the plays before it: a maximum sets the new ones alone.
            np.maximum(self.expires, plays * np.int32(time + self.spec.terrain_turns), out=self.expires)

    def drought(self, seat: int, mask: np.ndarray, round_number: int, time: int) -> None:
        other = 1 - seat
        # Called right after the active seat played any drought card it held: no card in play means none in
        # its hand.
        stuck = mask & self.alive[other] & ~self.in_play & (self.hand_terrain[other] == 0)
        # Few races are in drought on a given turn: the rest of the work is done on those alone.
        races = np.flatnonzero(stuck)
        if races.size == 0:
            return
        self._drought_draws(seat, races, round_number, time)
        # The active seat plays the drought card it found, if it still has cards (none was in play).
        plays = races[self.alive[seat][races] & (self.hand_terrain[seat][races] > 0)]
        self.hand_terrain[seat][plays] -= 1
        self.in_play[plays] = True
        if self.spec.terrain_turns is not None:
            self.expires[plays] = time + self.spec.terrain_turns

    def _drought_draws(self, seat: int, races: np.ndarray, round_number: int, time: int) -> None:
        """The drought draws of the races numbered ``races``, in drought on ``seat``'s turn."""
        other = 1 - seat
        steps, fails = [], []
        for s in (seat, other):
            pointer = self.pointer[s][races]
            found_at = self.drought_places[s].at(self.seen_terrain[s][races], races)
            # Draw numbers (1 = the next card) of the first drought card and of the first failed draw.
            steps.append(np.where(found_at < self.sizes[s], found_at - pointer + 1, _NEVER).astype(np.int64))
            fails.append((self.sizes[s] - pointer + 1).astype(np.int64))
        if self.spec.drought_order == "active_first":
            self._drought_in_turn(seat, races, steps, fails, round_number, time)
            return
        found = np.minimum(steps[0], steps[1]) < np.minimum(fails[0], fails[1])
        draw_count = np.where(found, np.minimum(steps[0], steps[1]), np.minimum(fails[0], fails[1]) - 1)
        for s in (seat, other):
            # Cards drawn in a drought are not played then: effects wait in hand.
            self.draw_some(s, races, draw_count, round_number, time)
        active_fails = ~found & (fails[0] <= fails[1])
        other_fails = ~found & (fails[1] <= fails[0])
        # Both unable to draw at once: the active player wins.
        self.run_out_some(seat, races[active_fails & ~other_fails], round_number, time)
        self.run_out_some(other, races[other_fails], round_number, time)

    def _drought_in_turn(self, seat: int, races: np.ndarray, steps: list, fails: list, round_number: int,
                         time: int) -> None:
        """Drought draws one player at a time, the active player first: it stops at the first drought card.

        The active player's k-th drought draw comes at position 2k - 1 of the sequence, the other's at 2k; the
        first event (a drought card found, or a draw that fails) in that order decides.
        """
        other = 1 - seat
        k_active = np.minimum(steps[0], fails[0])
        k_other = np.minimum(steps[1], fails[1])
        active_first = 2 * k_active - 1 < 2 * k_other
        # Cards each player draws: up to and including the deciding draw, minus the failed draw itself.
        active_draws = np.where(active_first, np.where(steps[0] < fails[0], k_active, k_active - 1), k_other)
        other_draws = np.where(active_first, k_active - 1, np.where(steps[1] < fails[1], k_other, k_other - 1))
        self.draw_some(seat, races, active_draws, round_number, time)
        self.draw_some(other, races, other_draws, round_number, time)
        self.run_out_some(seat, races[active_first & (fails[0] <= steps[0])], round_number, time)
        self.run_out_some(other, races[~active_first & (fails[1] <= steps[1])], round_number, time)

    def turn_draw(self, seat: int, round_number: int, time: int) -> None:
        count = self.spec.seats[seat].first_turn_draw if round_number == 1 else self.spec.draws_per_turn
        if count or self.spec.draw_at_end:
            self.draw(seat, count, self.alive[seat], round_number, time)

    def turn(self, seat: int, round_number: int, time: int) -> None:
        spec = self.spec
        if spec.drought and spec.terrain_turns is not None:
            np.logical_and(self.in_play, self.expires > time, out=self.in_play)
        if not spec.draw_at_end:
            self.turn_draw(seat, round_number, time)
        if spec.drought:
            self.force_terrain(seat, self.alive[seat], time)
        if self.effects:
            # The races with cards when the effects begin play them all, even one that runs out meanwhile.
            self.play_effects(seat, self.alive[seat].copy(), round_number, time)
        if spec.drought:
            if self.effects:
                # Effects may have drawn drought cards since the last play (without effects nothing changed).
                self.force_terrain(seat, self.alive[seat], time)
            self.drought(seat, self.alive[seat], round_number, time)
        if spec.draw_at_end:
            self.turn_draw(seat, round_number, time)

    def tallies(self) -> np.ndarray:
        width = self.spec.max_rounds + 2
        tallies = np.zeros((4, width), dtype=np.int64)
        rounds = np.where(self.out_round > 0, self.out_round, width - 1)
        for seat in (0, 1):
            tallies[seat] = np.bincount(rounds[seat], minlength=width)[:width]
        tallies[2, 0] = np.count_nonzero(self.out_time[0] < self.out_time[1])
        tallies[2, 1] = np.count_nonzero(self.out_time[1] < self.out_time[0])
        tallies[2, 2] = np.count_nonzero(self.out_time[0] == self.out_time[1])
        ends = rounds.max(axis=0) if self.spec.rule in BOTH_OUT_RULES else rounds.min(axis=0)
        tallies[3] = np.bincount(ends, minlength=width)[:width]
        return tallies


def race_task(spec: RaceSpec, rng: np.random.Generator, n: int) -> np.ndarray:
    """Run ``n`` races; return tallies of shape (4, max_rounds + 2).

    Rows 0 and 1: per seat, how many races it ran out on each round (the last
    column: not within ``max_rounds``). Row 2: [first seat ran out first,
    second seat first, same moment]. Row 3: how many races the deck-out rule
    ended on each round: the later seat's round under
    :data:`deckstat.terms.BOTH_OUT_RULES` (Licum), the earlier one otherwise.
    """
    dealt = []
    for seat in spec.seats:
        keep = None
        if spec.keep is not None:
            def keep(counts, event=spec.keep):
                return evaluate(event, group_counts(counts, spec.keep_keys, spec.keep_distinct))
        cells = deal_order(seat.cell_counts, seat.keep_table, n, rng, hand_size=spec.hand_size,
                           set_aside=spec.set_aside, limit=1 if keep is not None else 0, keep=keep)
        # Trial-major and as small as the cell ids allow: each race reads its own cards.
        dtype = _small(len(seat.cell_counts))
        dealt.append((np.ascontiguousarray(cells["hand"].T, dtype=dtype),
                      np.ascontiguousarray(cells["library"].T, dtype=dtype)))
    tallies = np.zeros((4, spec.max_rounds + 2), dtype=np.int64)
    # The races are dealt above, all at once: how they are grouped below changes speed, never the numbers.
    for start in range(0, n, SUB_BLOCK):
        race = _Race(spec, [(hand[start:start + SUB_BLOCK], library[start:start + SUB_BLOCK])
                            for hand, library in dealt])
        for round_number in range(1, spec.max_rounds + 1):
            for seat in (0, 1):
                time = 2 * round_number if spec.simultaneous else 2 * round_number + seat
                race.turn(seat, round_number, time)
            if (race.out_round > 0).all():
                break
        tallies += race.tallies()
    return tallies
