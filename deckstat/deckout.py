"""Deck-out timing: on which turn each seat's deck runs out, and who runs out first.

Two decks race under one game's rules (``deckout`` in the profile):

``lose_on_failed_draw`` (Wankul)   a player who must draw from an empty deck loses;
``lose_on_last_draw`` (Duel Masters)   drawing the last card loses;
``end_after_last_draw`` (JdG)   drawing the last card ends the duel at the end of that turn;
``end_when_both_cannot_draw`` (Licum)   each player draws at the end of each turn; a player runs
    out when it cannot, and the match ends when both cannot;
``lose_at_end_of_turn`` (Pandrea, *usure*)   a player with no card to draw plays the turn and
    loses at its end.

The turn reported is the round: a seat's own turn number (in simultaneous
games both seats share it). The other ways a game ends (life points, scores)
are not modelled, and after one seat runs out the other keeps playing, so that
both seats' distributions are defined; "who runs out first" compares the
moments they run out.

Without card effects and without Wankul's drought rule the answer is
deterministic and computed exactly. Otherwise it is simulated, vectorised
over trials with one Python step per turn: the drought rule (no card of the
drought group in play and none in either hand: both players draw one card at
a time, together, until one appears; if both must draw and cannot, the active
player wins) and the ``draw``/``mill`` columns under a play policy.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from deckstat import simulate
from deckstat.api import _runner, _simulation_attrs, _version, check_groups, draw_deck
from deckstat.deck import Deck
from deckstat.errors import DeckstatError
from deckstat.events import Count, evaluate, groups_of, parse_event, parse_group
from deckstat.kernel import draw_cells
from deckstat.profiles import SEATS, Profile, get_profile

POLICIES = {
    "none": "card effects are ignored: only the rules' draws move the decks",
    "on_draw": "a card with a draw or mill effect is played as soon as its owner draws it (opening-hand cards on "
               "the owner's first turn), and the cards it draws are played the same way",
    "each_turn": "on each of its owner's turns, every effect card drawn since the last one is played once; the "
                 "cards they draw wait for the next turn",
}
FAILED_DRAW_RULES = ("lose_on_failed_draw", "end_when_both_cannot_draw", "lose_at_end_of_turn")
LAST_DRAW_RULES = ("lose_on_last_draw", "end_after_last_draw")
DECKOUT_COLUMNS = ["seat", "turn", "p", "cdf", "ci_low", "ci_high", "n_trials", "method"]


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


@dataclass(frozen=True)
class RaceSpec:
    """Everything a worker needs to run deck-out races (picklable)."""

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


def library_size(deck_size: int, profile: Profile) -> int:
    """Cards left to draw after the set-aside cards and the opening hand."""
    return deck_size - profile.set_aside - profile.hand_size


def deterministic_round(library: int, first_turn_draw: int, draws_per_turn: int, rule: str) -> int:
    """The round a seat runs out on, without effects: the first whose draws exceed (or reach) the library."""
    if draws_per_turn < 1:
        raise DeckstatError("a deck never runs out when players draw no card per turn")
    needed = library + 1 if rule in FAILED_DRAW_RULES else max(library, 1)
    if first_turn_draw >= needed:
        return 1
    return 1 + -(-(needed - first_turn_draw) // draws_per_turn)


def _deal(seat: SeatSpec, spec: RaceSpec, rng: np.random.Generator, n: int):
    """Hand and library (cell ids, position-major) after the bottom mulligan, if any."""
    n_cards = int(seat.cell_counts.sum())
    cells = draw_cells(seat.cell_counts, n, n_cards, rng)
    s, h = spec.set_aside, spec.hand_size
    hand = cells[s:s + h]
    library = cells[s + h:]
    if spec.keep is not None and n_cards >= s + 2 * h:
        counts = seat.keep_table[hand].sum(axis=0, dtype=np.int16)  # (n, n_groups)
        keeps = evaluate(spec.keep, dict(zip(spec.keep_keys, counts.T))).astype(cells.dtype)
        second = cells[s + h:s + 2 * h]
        # Mulligan: the hand goes under the deck and the next one is kept.
        under = np.concatenate([cells[s + 2 * h:], hand])
        hand = second + keeps * (hand - second)
        library = under + keeps * (library - under)
    return hand, library


def _prefix(values: np.ndarray, library: np.ndarray) -> np.ndarray:
    per_card = np.take(values, library)
    out = np.zeros((library.shape[0] + 1, library.shape[1]), dtype=np.int32)
    for j in range(library.shape[0]):
        np.add(out[j], per_card[j], out=out[j + 1])
    return out


def race_task(spec: RaceSpec, rng: np.random.Generator, n: int) -> np.ndarray:
    """Run ``n`` races; return tallies of shape (3, max_rounds + 2).

    Rows 0 and 1: per seat, how many races it ran out on each round (the last
    column: not within ``max_rounds``). Row 2: [first seat ran out first,
    second seat first, same moment].
    """
    columns = np.arange(n)
    libraries, terrain, draws, mills, next_terrain, sizes = [], [], [], [], [], []
    hand_terrain, pending_draw, pending_mill = [], [], []
    for seat in spec.seats:
        hand, library = _deal(seat, spec, rng, n)
        libraries.append(library)
        sizes.append(library.shape[0])
        terrain.append(_prefix(seat.drought.astype(np.int32), library))
        draws.append(_prefix(seat.draw.astype(np.int32), library))
        mills.append(_prefix(seat.mill.astype(np.int32), library))
        hand_terrain.append(np.take(seat.drought.astype(np.int32), hand).sum(axis=0))
        use_effects = spec.policy != "none"
        pending_draw.append(np.take(seat.draw, hand).sum(axis=0).astype(np.int32) * use_effects)
        pending_mill.append(np.take(seat.mill, hand).sum(axis=0).astype(np.int32) * use_effects)
        if spec.drought:
            # Index of the first drought card at or after each position (the library size: none left).
            is_terrain = np.take(seat.drought, library)
            following = np.empty((library.shape[0] + 1, n), dtype=np.int32)
            following[-1] = library.shape[0]
            for j in range(library.shape[0] - 1, -1, -1):
                following[j] = np.where(is_terrain[j], j, following[j + 1])
            next_terrain.append(following)
    pointer = np.zeros((2, n), dtype=np.int32)
    out_round = np.zeros((2, n), dtype=np.int32)
    out_time = np.full((2, n), np.iinfo(np.int32).max, dtype=np.int32)
    in_play = np.zeros(n, dtype=bool)
    expires = np.zeros(n, dtype=np.int64)

    def run_out(seat, mask, round_number, time):
        fresh = mask & (out_round[seat] == 0)
        out_round[seat][fresh] = round_number
        out_time[seat][fresh] = time

    def draw(seat, count, mask, round_number, time):
        count = np.where(mask, count, 0)
        available = sizes[seat] - pointer[seat]
        taken = np.minimum(count, available)
        old, new = pointer[seat], pointer[seat] + taken
        hand_terrain[seat] += terrain[seat][new, columns] - terrain[seat][old, columns]
        if spec.policy != "none":
            pending_draw[seat] += draws[seat][new, columns] - draws[seat][old, columns]
            pending_mill[seat] += mills[seat][new, columns] - mills[seat][old, columns]
        pointer[seat] = new
        failed = mask & (count > available)
        if spec.rule in FAILED_DRAW_RULES:
            run_out(seat, failed, round_number, time)
        else:
            run_out(seat, failed | (mask & (taken > 0) & (new == sizes[seat])), round_number, time)

    def mill(seat, mask):
        other = 1 - seat
        amount = np.where(mask, pending_mill[seat], 0)
        pending_mill[seat][mask] = 0
        pointer[other] = np.minimum(pointer[other] + amount, sizes[other])

    def play_effects(seat, mask, round_number, time):
        if spec.policy == "none":
            return
        for _ in range(sizes[seat] + 1):
            extra = np.where(mask, pending_draw[seat], 0)
            mill(seat, mask)
            if not extra.any():
                return
            pending_draw[seat][mask] = 0
            draw(seat, extra, mask & (extra > 0), round_number, time)
            if spec.policy == "each_turn":
                return

    def force_terrain(seat, mask, time):
        plays = mask & ~in_play & (hand_terrain[seat] > 0)
        hand_terrain[seat] -= plays
        in_play[plays] = True
        if spec.terrain_turns is not None:
            expires[plays] = time + spec.terrain_turns

    def drought(seat, mask, round_number, time):
        other = 1 - seat
        stuck = mask & (out_round[other] == 0) & ~in_play & (hand_terrain[seat] == 0) & (hand_terrain[other] == 0)
        if not stuck.any():
            return
        steps, fails = [], []
        for s in (seat, other):
            found_at = next_terrain[s][pointer[s], columns]
            steps.append(np.where(found_at < sizes[s], found_at - pointer[s] + 1, np.iinfo(np.int32).max))
            fails.append(sizes[s] - pointer[s] + 1)
        found = stuck & (np.minimum(steps[0], steps[1]) < np.minimum(fails[0], fails[1]))
        both_draw = np.minimum(steps[0], steps[1])
        for s in (seat, other):
            draw_count = np.where(found, both_draw, np.minimum(fails[0], fails[1]) - 1)
            # Cards drawn in a drought are not played then: effects wait in hand.
            draw(s, draw_count, stuck, round_number, time)
        failing = stuck & ~found
        active_fails = failing & (fails[0] <= fails[1])
        other_fails = failing & (fails[1] <= fails[0])
        # Both unable to draw at once: the active player wins.
        run_out(seat, active_fails & ~other_fails, round_number, time)
        run_out(other, other_fails, round_number, time)

    def turn(seat, round_number, time):
        active = out_round[seat] == 0
        if spec.drought and spec.terrain_turns is not None:
            in_play[in_play & (expires <= time)] = False
        if not spec.draw_at_end:
            count = spec.seats[seat].first_turn_draw if round_number == 1 else spec.draws_per_turn
            if count:
                draw(seat, np.full(n, count, dtype=np.int32), active, round_number, time)
        active = out_round[seat] == 0
        if spec.drought:
            force_terrain(seat, active, time)
        play_effects(seat, active & (out_round[seat] == 0), round_number, time)
        if spec.drought:
            active = out_round[seat] == 0
            force_terrain(seat, active, time)
            drought(seat, active, round_number, time)
            force_terrain(seat, out_round[seat] == 0, time)
        if spec.draw_at_end:
            count = spec.seats[seat].first_turn_draw if round_number == 1 else spec.draws_per_turn
            draw(seat, np.full(n, count, dtype=np.int32), out_round[seat] == 0, round_number, time)

    for round_number in range(1, spec.max_rounds + 1):
        for seat in (0, 1):
            time = 2 * round_number if spec.simultaneous else 2 * round_number + seat
            turn(seat, round_number, time)
        if (out_round > 0).all():
            break
    width = spec.max_rounds + 2
    tallies = np.zeros((3, width), dtype=np.int64)
    for seat in (0, 1):
        rounds = np.where(out_round[seat] > 0, out_round[seat], width - 1)
        tallies[seat] = np.bincount(rounds, minlength=width)[:width]
    tallies[2, 0] = np.count_nonzero(out_time[0] < out_time[1])
    tallies[2, 1] = np.count_nonzero(out_time[1] < out_time[0])
    tallies[2, 2] = np.count_nonzero(out_time[0] == out_time[1])
    return tallies


def _seat_spec(deck: Deck, profile: Profile, keep_groups: dict, drought_group, seat: str) -> SeatSpec:
    columns = [deck.mask(g) for g in keep_groups.values()]
    drought = deck.mask(drought_group) if drought_group is not None else np.zeros(len(deck.cards), dtype=bool)
    effects = []
    for name in ("draw", "mill"):
        if name in deck.cards.columns:
            values = pd.to_numeric(deck.cards[name], errors="coerce")
            bad = values.notna() & ((values < 0) | (values % 1 != 0))
            if bad.any():
                card = deck.cards["name"][bad].iloc[0]
                raise DeckstatError(f"card {card!r} has {name} {deck.cards[name][bad].iloc[0]!r}; expected a whole "
                                    "number of at least 0", source=deck.source, column=name)
            effects.append(values.fillna(0).to_numpy(dtype=np.int64))
        else:
            effects.append(np.zeros(len(deck.cards), dtype=np.int64))
    keys = np.column_stack(columns + [drought, effects[0], effects[1]]).astype(np.int64) if len(deck.cards) else \
        np.zeros((0, len(columns) + 3), dtype=np.int64)
    patterns, inverse = np.unique(keys, axis=0, return_inverse=True)
    counts = np.bincount(inverse.ravel(), weights=deck.counts, minlength=len(patterns)).astype(np.int64)
    n_keep = len(columns)
    return SeatSpec(cell_counts=counts, keep_table=patterns[:, :n_keep].astype(np.int8),
                    drought=patterns[:, n_keep].astype(bool), draw=patterns[:, n_keep + 1],
                    mill=patterns[:, n_keep + 2], first_turn_draw=profile.first_turn_draw[seat])


def deckout(deck: Deck, game: str | Profile, *, opponent: Deck | None = None, policy: str = "none",
            drought: bool = True, terrain_turns: int | None = None, keep: str | None = None, mulligan: bool = True,
            method: str = "auto", n_trials: int | None = None, rng=None, chunk_size: int = simulate.DEFAULT_CHUNK,
            n_workers: int = 1) -> pd.DataFrame:
    """On which turn each seat's deck runs out, under the game's deck-out rule.

    Parameters
    ----------
    deck : Deck
        The first player's deck.
    game : str or Profile
    opponent : Deck, optional
        The second player's deck (default: a copy of ``deck``).
    policy : {"none", "on_draw", "each_turn"}
        When cards with ``draw`` (extra cards their owner draws) or ``mill``
        (cards the opponent discards from the deck) effects are played; see
        :data:`POLICIES`. Costs and other conditions are not modelled.
    drought : bool
        Apply the profile's drought rule (Wankul), if it has one.
    terrain_turns : int, optional
        With the drought rule: how many turns (of either player) a drought-group
        card stays in play before it is scored and discarded; by default it stays.
    keep, mulligan
        The opening mulligan (Wankul's puts the hand under the deck: the deck
        count does not change, but which cards are left does).
    method : {"auto", "exact", "simulate"}
        ``exact`` is available without effects and without the drought rule.
    n_trials, rng, chunk_size, n_workers
        As in :func:`deckstat.odds`.

    Returns
    -------
    pandas.DataFrame
        ``seat``, ``turn``, ``p`` (the seat runs out on that turn), ``cdf``,
        ``ci_low``/``ci_high`` (95% Wilson, simulated), ``n_trials``, ``method``.
        ``attrs``: ``summary`` per seat (mean, median, earliest, latest turn),
        ``p_first_runs_out_first``, ``p_same_moment``, the rule, the policy in
        words, the assumptions and the seed.
    """
    profile = get_profile(game)
    for name, value in (("deck", deck), ("opponent", opponent)):
        if value is not None and not isinstance(value, Deck):
            raise DeckstatError(f"{name} must be a Deck (see deckstat.load_deck), got {type(value).__name__}")
    if policy not in POLICIES:
        raise DeckstatError(f"unknown policy {policy!r}; expected one of {', '.join(POLICIES)}")
    if terrain_turns is not None and (isinstance(terrain_turns, bool) or not isinstance(terrain_turns, int)
                                      or terrain_turns < 1):
        raise DeckstatError(f"terrain_turns must be a whole number of at least 1, got {terrain_turns!r}")
    if profile.deckout == "none":
        raise DeckstatError(f"{profile.name}: running out of cards has no rules effect, so there is no deck-out turn")
    decks = [draw_deck(deck, profile), draw_deck(opponent if opponent is not None else deck, profile)]
    if profile.mulligan not in ("none", "bottom") and mulligan:
        raise DeckstatError(f"the deck-out model handles no mulligan or the bottom mulligan; {profile.name} uses "
                            f"{profile.mulligan}: pass mulligan=False (--no-mulligan)")
    keep_text = (keep or profile.keep) if (mulligan and profile.mulligan == "bottom") else None
    keep_event = parse_event(keep_text, what="keep rule") if keep_text else None
    keep_groups = groups_of(keep_event) if keep_event is not None else {}
    drought_group = parse_group(profile.drought_group) if (drought and profile.drought_group) else None
    for d in decks:
        if keep_event is not None:
            check_groups(d, keep_event, profile, "keep rule", keep_text)
        if drought_group is not None:
            check_groups(d, Count(drought_group, ">=", 1), profile, "drought group", profile.drought_group)
        if library_size(d.size, profile) < 0:
            raise DeckstatError(f"{d.source} has {d.size} cards, fewer than the "
                                f"{profile.set_aside + profile.hand_size} dealt before turn 1")
    seats = tuple(_seat_spec(d, profile, keep_groups, drought_group, seat) for d, seat in zip(decks, SEATS))
    has_effects = policy != "none" and any((s.draw > 0).any() or (s.mill > 0).any() for s in seats)
    needs_simulation = has_effects or drought_group is not None
    if method not in ("auto", "exact", "simulate"):
        raise DeckstatError(f"unknown method {method!r}; expected auto, exact or simulate")
    if method == "exact" and needs_simulation:
        why = "card effects" if has_effects else "the drought rule"
        raise DeckstatError(f"the deck-out turn is random with {why}; use method='simulate' or turn it off")
    chosen = "simulate" if (method == "simulate" or needs_simulation) else "exact"
    libraries = [library_size(d.size, profile) for d in decks]
    attrs = {"game": profile.id, "deck": decks[0].source, "opponent": decks[1].source, "rule": profile.deckout,
             "policy": policy, "policy_text": POLICIES[policy], "drought": drought_group is not None,
             "terrain_turns": terrain_turns, "keep": keep_text, "library_sizes": libraries,
             "assumptions": [
                 "other ways the game ends (life, score) are not modelled; after one seat runs out the other keeps "
                 "playing",
                 "card costs and conditions are ignored: effect cards are played as the policy says",
             ] + (["a drought-group card in play stays until the end" if terrain_turns is None else
                   f"a drought-group card in play is scored after {terrain_turns} turns"]
                  if drought_group is not None else []),
             "deckstat_version": _version()}
    if chosen == "exact":
        rounds = [deterministic_round(lib, s.first_turn_draw, profile.draws_per_turn, profile.deckout)
                  for lib, s in zip(libraries, seats)]
        times = [2 * r if profile.turn_order == "simultaneous" else 2 * r + i for i, r in enumerate(rounds)]
        rows = [{"seat": SEATS[i], "turn": r, "p": 1.0, "cdf": 1.0, "ci_low": 1.0, "ci_high": 1.0,
                 "n_trials": pd.NA, "method": "exact"} for i, r in enumerate(rounds)]
        first = float(times[0] < times[1])
        same = float(times[0] == times[1])
        attrs.update({"p_first_runs_out_first": first, "p_first_ci": (first, first), "p_same_moment": same,
                      "summary": {SEATS[i]: {"mean": float(r), "median": r, "earliest": r, "latest": r}
                                  for i, r in enumerate(rounds)}})
        frame = pd.DataFrame(rows, columns=DECKOUT_COLUMNS)
        frame["n_trials"] = frame["n_trials"].astype("Int64")
        frame.attrs.update(attrs)
        return frame
    most_draws = max(libraries) + 1
    max_rounds = most_draws // max(profile.draws_per_turn, 1) + 3
    spec = RaceSpec(seats=seats, keep_keys=tuple(keep_groups), keep=keep_event, hand_size=profile.hand_size,
                    set_aside=profile.set_aside, draws_per_turn=profile.draws_per_turn, rule=profile.deckout,
                    simultaneous=profile.turn_order == "simultaneous", draw_at_end=profile.draw_step == "end",
                    policy=policy, drought=drought_group is not None, terrain_turns=terrain_turns,
                    max_rounds=max_rounds)
    runner, streams = _runner(functools.partial(race_task, spec), rng, chunk_size, n_workers)
    tallies, n_done = runner.run(simulate.DEFAULT_TRIALS if n_trials is None else n_trials)
    attrs.update(_simulation_attrs(streams, n_done, None))
    rows = []
    summary = {}
    for i, seat in enumerate(SEATS):
        hist = tallies[i, 1:max_rounds + 1]
        turns = np.flatnonzero(hist)
        if turns.size == 0:
            raise DeckstatError(f"the {seat} seat never ran out within {max_rounds} turns")
        span = np.arange(turns[0], turns[-1] + 1)
        low, high = simulate.intervals(hist[span], n_done)
        cdf = np.cumsum(hist)[span] / n_done
        for t, hits, lo, hi, c in zip(span + 1, hist[span], low, high, cdf):
            rows.append({"seat": seat, "turn": int(t), "p": hits / n_done, "cdf": float(c), "ci_low": lo,
                         "ci_high": hi, "n_trials": n_done, "method": "simulate"})
        p = hist / n_done
        mean = float(np.dot(np.arange(1, max_rounds + 1), p) / p.sum())
        summary[seat] = {"mean": mean, "median": int(np.searchsorted(np.cumsum(p), 0.5) + 1),
                         "earliest": int(turns[0] + 1), "latest": int(turns[-1] + 1)}
    first = int(tallies[2, 0])
    attrs.update({"p_first_runs_out_first": first / n_done,
                  "p_first_ci": simulate.wilson_interval(first, n_done),
                  "p_same_moment": int(tallies[2, 2]) / n_done, "summary": summary})
    frame = pd.DataFrame(rows, columns=DECKOUT_COLUMNS)
    frame["n_trials"] = frame["n_trials"].astype("Int64")
    frame.attrs.update(attrs)
    return frame
