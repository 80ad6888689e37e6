"""Deck-out timing: on which turn each seat's deck runs out, and who runs out first.

Two decks race under one game's rules (``deckout`` in the profile, see
:data:`deckstat.terms.DECKOUT_RULES`). The turn reported is the round: a
seat's own turn number (in simultaneous games both seats share it). The
other ways a game ends (life points, scores) are not modelled, and after one
seat runs out the other keeps playing, so that both seats' distributions are
defined; "who runs out first" compares the moments they run out.

Without card effects and without Wankul's drought rule the answer is
deterministic and computed exactly; otherwise it is simulated by the race
engine (:mod:`deckstat.engines.race`).
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from deckstat._validate import check_choice, check_deck, check_optional_whole
from deckstat._version import __version__
from deckstat.deck import Deck
from deckstat.engines import runner
from deckstat.engines.race import RaceSpec, SeatSpec, deterministic_round, race_task
from deckstat.errors import DeckstatError, param
from deckstat.events import Count, groups_of, parse_event, parse_group
from deckstat.games.profiles import Profile, get_profile
from deckstat.questions._setup import check_groups, check_simulation, mulligan_settings
from deckstat.results import DeckoutResult, frame
from deckstat.terms import DEFAULT_POLICY, METHODS, POLICIES, SEATS

DECKOUT_COLUMNS = ["deck", "opponent", "game", "seat", "turn", "p", "ci_low", "ci_high", "cdf", "cdf_low", "cdf_high",
                   "n_trials", "method"]
SUMMARY_COLUMNS = ["deck", "opponent", "game", "seat", "mean_turn", "median_turn", "earliest_turn", "latest_turn",
                   "p_runs_out_first", "ci_low", "ci_high", "p_same_moment", "n_trials", "method"]


def _effects(deck: Deck) -> list[np.ndarray]:
    """The ``draw`` and ``mill`` values of each distinct card (0 without the column)."""
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
    return effects


def _effect_cards(deck: Deck) -> int:
    """Cards (copies counted) with a draw or mill effect."""
    draw, mill = _effects(deck)
    return int(deck.counts[(draw > 0) | (mill > 0)].sum())


def _seat_spec(deck: Deck, profile: Profile, keep_groups: dict, drought_group, seat: str) -> SeatSpec:
    membership = np.column_stack([deck.mask(g) for g in keep_groups.values()]) if keep_groups else \
        np.zeros((len(deck.cards), 0), dtype=bool)
    drought = deck.mask(drought_group) if drought_group is not None else np.zeros(len(deck.cards), dtype=bool)
    draw, mill = _effects(deck)
    return SeatSpec.from_cards(deck.counts, membership, drought, draw, mill, profile.first_turn_draw[seat])


def deckout(deck: Deck, game: str | Profile, *, opponent: Deck | None = None, policy: str = DEFAULT_POLICY,
            drought: bool = True, terrain_turns: int | None = None, keep: str | None = None, mulligan: bool = True,
            method: str = "auto", n_trials: int | None = None, rng=None, chunk_size: int = runner.DEFAULT_CHUNK,
            n_workers: int = 1) -> DeckoutResult:
    """On which turn each seat's deck runs out, under the game's deck-out rule.

    Parameters
    ----------
    deck : Deck
        The first player's deck.
    game : str or Profile
    opponent : Deck, optional
        The second player's deck (default: a copy of ``deck``).
    policy : {"on_draw", "each_turn", "none"}
        When cards with ``draw`` (extra cards their owner draws) or ``mill``
        (cards the opponent discards from the deck) effects are played; see
        :data:`deckstat.terms.POLICIES`. Costs and other conditions are not
        modelled. The default, ``on_draw``, plays them as soon as they are
        drawn; ``none`` ignores the columns. A deck without such cards gets
        the same exact answer under every policy.
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
    DeckoutResult
        ``table``: per seat (``deck`` is the seat's deck) and turn, ``p`` (the
        seat runs out on that turn) and ``cdf``, with 95% Wilson intervals when
        simulated. ``summary``: per seat, the mean, median, earliest and latest
        turn, ``p_runs_out_first`` (this seat runs out strictly before the
        other) with its interval, and ``p_same_moment``. ``provenance`` holds
        the rule, the policy in words, ``effect_cards`` (cards with a draw or
        mill effect in each seat's deck) and the assumptions.

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "Terrain", "count": 10, "type": "Terrain"},
    ...                                  {"name": "Personnage", "count": 40, "type": "Personnage"}])
    >>> deckstat.deckout(deck, "wankul", drought=False).summary[["seat", "median_turn", "p_runs_out_first"]]
         seat  median_turn  p_runs_out_first
    0   first           46               1.0
    1  second           46               0.0
    """
    profile = get_profile(game)
    check_deck(deck)
    if opponent is not None:
        check_deck(opponent, "opponent")
    check_choice(policy, "policy", tuple(POLICIES))
    check_choice(method, "method", METHODS)
    terrain_turns = check_optional_whole(terrain_turns, "terrain_turns", minimum=1)
    check_simulation(n_trials, None, chunk_size, n_workers)
    if profile.deckout == "none":
        raise DeckstatError(f"{profile.name}: running out of cards has no rules effect, so there is no deck-out turn")
    decks = [profile.drawn_deck(deck), profile.drawn_deck(opponent if opponent is not None else deck)]
    rule, _, keep_text = mulligan_settings(profile, keep=keep, mulligan=mulligan, mulligan_rule=None,
                                           mulligan_limit=None)
    if rule not in ("none", "bottom"):
        raise DeckstatError(f"the deck-out model handles no mulligan or the bottom mulligan; {profile.name} uses "
                            f"{rule}: pass {param('mulligan', False)}")
    keep_event = parse_event(keep_text, what="keep rule") if keep_text else None
    keep_groups = groups_of(keep_event) if keep_event is not None else {}
    drought_group = parse_group(profile.drought_group) if (drought and profile.drought_group) else None
    for d in decks:
        if keep_event is not None:
            check_groups(d, keep_event, profile, "keep rule", keep_text)
        if drought_group is not None:
            check_groups(d, Count(drought_group, ">=", 1), profile, "drought group", profile.drought_group)
        if profile.library_size(d.size) < 0:
            raise DeckstatError(f"{d.source} has {d.size} cards, fewer than the "
                                f"{profile.set_aside + profile.hand_size} dealt before turn 1")
    seats = tuple(_seat_spec(d, profile, keep_groups, drought_group, seat) for d, seat in zip(decks, SEATS))
    effect_cards = [_effect_cards(d) for d in decks]
    has_effects = policy != "none" and any(effect_cards)
    needs_simulation = has_effects or drought_group is not None
    if method == "exact" and needs_simulation:
        why = "card effects" if has_effects else "the drought rule"
        raise DeckstatError(f"the deck-out turn is random with {why}; use {param('method', 'simulate')} or turn "
                            "it off")
    chosen = "simulate" if (method == "simulate" or needs_simulation) else "exact"
    libraries = [profile.library_size(d.size) for d in decks]
    provenance = {"question": "deckout", "game": profile.id, "deck_source": decks[0].source,
                  "opponent_source": decks[1].source, "rule": profile.deckout, "policy": policy,
                  "policy_text": POLICIES[policy], "effect_cards": effect_cards, "drought": drought_group is not None,
                  "terrain_turns": terrain_turns, "mulligan_rule": rule, "keep": keep_text,
                  "library_sizes": libraries,
                  "assumptions": [
                      "other ways the game ends (life, score) are not modelled; after one seat runs out the other "
                      "keeps playing",
                      "card costs and conditions are ignored: effect cards are played as the policy says",
                  ] + (["a drought-group card in play stays until the end" if terrain_turns is None else
                        f"a drought-group card in play is scored after {terrain_turns} turns"]
                       if drought_group is not None else []),
                  "deckstat_version": __version__}
    names = [(decks[0].name, decks[1].name), (decks[1].name, decks[0].name)]
    if chosen == "exact":
        table, summary = _exact_race(profile, seats, libraries, names)
    else:
        spec = RaceSpec(seats=seats, keep_keys=tuple(keep_groups), keep=keep_event, hand_size=profile.hand_size,
                        set_aside=profile.set_aside, draws_per_turn=profile.draws_per_turn, rule=profile.deckout,
                        simultaneous=profile.turn_order == "simultaneous", draw_at_end=profile.draw_step == "end",
                        policy=policy, drought=drought_group is not None, terrain_turns=terrain_turns,
                        max_rounds=(max(libraries) + 1) // max(profile.draws_per_turn, 1) + 3)
        streams = runner.make_streams(rng)
        tallies, n_done = runner.simulate(functools.partial(race_task, spec), streams, n_trials=n_trials,
                                          chunk_size=chunk_size, n_workers=n_workers)
        provenance.update(runner.provenance(streams))
        table, summary = _simulated_race(profile, tallies, n_done, spec.max_rounds, names)
    return DeckoutResult(table=table, summary=summary, provenance=provenance)


def _exact_race(profile: Profile, seats: tuple[SeatSpec, SeatSpec], libraries: list[int],
                names: list[tuple[str, str]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Without effects or droughts every game runs out on the same turn: the tables of that certainty."""
    rounds = [deterministic_round(lib, s.first_turn_draw, profile.draws_per_turn, profile.deckout)
              for lib, s in zip(libraries, seats)]
    times = [2 * r if profile.turn_order == "simultaneous" else 2 * r + i for i, r in enumerate(rounds)]
    rows, summary = [], []
    for i, r in enumerate(rounds):
        identity = {"deck": names[i][0], "opponent": names[i][1], "game": profile.id, "seat": SEATS[i]}
        first = float(times[i] < times[1 - i])
        rows.append({**identity, "turn": r, "p": 1.0, "ci_low": 1.0, "ci_high": 1.0, "cdf": 1.0, "cdf_low": 1.0,
                     "cdf_high": 1.0, "n_trials": None, "method": "exact"})
        summary.append({**identity, "mean_turn": float(r), "median_turn": r, "earliest_turn": r, "latest_turn": r,
                        "p_runs_out_first": first, "ci_low": first, "ci_high": first,
                        "p_same_moment": float(times[0] == times[1]), "n_trials": None, "method": "exact"})
    return frame(rows, DECKOUT_COLUMNS), frame(summary, SUMMARY_COLUMNS)


def _simulated_race(profile: Profile, tallies: np.ndarray, n_done: int, max_rounds: int,
                    names: list[tuple[str, str]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The tables of simulated races, from :func:`deckstat.engines.race.race_task` tallies."""
    rows, summary = [], []
    for i, seat in enumerate(SEATS):
        identity = {"deck": names[i][0], "opponent": names[i][1], "game": profile.id, "seat": seat}
        hist = tallies[i, 1:max_rounds + 1]
        turns = np.flatnonzero(hist)
        if turns.size == 0:
            raise DeckstatError(f"the {seat} seat never ran out within {max_rounds} turns")
        span = np.arange(turns[0], turns[-1] + 1)
        low, high = runner.intervals(hist[span], n_done)
        cumulative = np.cumsum(hist)[span]
        cdf_low, cdf_high = runner.intervals(cumulative, n_done)
        for j, t in enumerate(span + 1):
            rows.append({**identity, "turn": int(t), "p": hist[span[j]] / n_done, "ci_low": low[j],
                         "ci_high": high[j], "cdf": float(cumulative[j] / n_done), "cdf_low": cdf_low[j],
                         "cdf_high": cdf_high[j], "n_trials": n_done, "method": "simulate"})
        p = hist / n_done
        first = int(tallies[2, i])
        first_low, first_high = runner.wilson_interval(first, n_done)
        summary.append({**identity, "mean_turn": float(np.dot(np.arange(1, max_rounds + 1), p) / p.sum()),
                        "median_turn": int(np.searchsorted(np.cumsum(p), 0.5) + 1),
                        "earliest_turn": int(turns[0] + 1), "latest_turn": int(turns[-1] + 1),
                        "p_runs_out_first": first / n_done, "ci_low": first_low, "ci_high": first_high,
                        "p_same_moment": int(tallies[2, 2]) / n_done, "n_trials": n_done, "method": "simulate"})
    return frame(rows, DECKOUT_COLUMNS), frame(summary, SUMMARY_COLUMNS)
