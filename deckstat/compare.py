"""Comparing decklists: the card differences and the same question for every deck, with the difference.

Exact where the exact engine applies (the difference is then exact too).
Otherwise both decks are simulated with *common random numbers*: in each
trial the decks are shuffled from the same random card indices (see
:func:`deckstat.kernel.card_indices`), over one shared list of card cells, so
a Terrain swapped for a Personnage changes only the trials that card
reaches. Each deck's marginal is still an exact uniform shuffle; only the
pairing is shared, which makes the interval on the difference much narrower
than with independent runs. ``paired=False`` runs them independently.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import binomtest, norm

from deckstat import simulate
from deckstat.api import Setup, _method, _runner, _seats, _simulation_attrs, _turns, odds, prepare
from deckstat.deck import Deck
from deckstat.errors import DeckstatError
from deckstat.events import groups_of, parse_group, to_text
from deckstat.text import fold

COMPARE_COLUMNS = ["turn", "seat", "zone", "event", "deck_a", "deck_b", "p_a", "p_b", "diff", "diff_ci_low",
                   "diff_ci_high", "p_value", "n_trials", "method"]


def card_differences(a: Deck, b: Deck) -> pd.DataFrame:
    """Cards added, removed or changed in count from deck ``a`` to deck ``b``.

    Returns
    -------
    pandas.DataFrame
        ``name``, ``count_a``, ``count_b``, ``change`` (``added``, ``removed``,
        or a signed count such as ``+1``), sorted by name; unchanged cards left out.
    """
    counts_a = {fold(n): (n, c) for n, c in zip(a.cards["name"], a.counts)}
    counts_b = {fold(n): (n, c) for n, c in zip(b.cards["name"], b.counts)}
    rows = []
    for key in sorted(set(counts_a) | set(counts_b)):
        name, count_a = counts_a.get(key, (None, 0))
        name_b, count_b = counts_b.get(key, (None, 0))
        if count_a == count_b:
            continue
        change = "added" if count_a == 0 else "removed" if count_b == 0 else f"{count_b - count_a:+d}"
        rows.append({"name": name or name_b, "count_a": int(count_a), "count_b": int(count_b), "change": change})
    return pd.DataFrame(rows, columns=["name", "count_a", "count_b", "change"])


def _groups(setup: Setup) -> dict:
    groups = {}
    for event in setup.events + ((setup.keep_event,) if setup.keep_event is not None else ()):
        groups.update(groups_of(event))
    if setup.resource_text:
        group = parse_group(setup.resource_text)
        groups.setdefault(group.key, group)
    return groups


def _common_specs(setups: list[Setup], max_draws: int) -> list[simulate.DealSpec]:
    """One DealSpec per deck over a shared list of cells, so that shuffles can be paired."""
    groups: dict = {}
    for setup in setups:
        for key, group in _groups(setup).items():
            groups.setdefault(key, group)
    keys = tuple(groups)
    memberships = [np.column_stack([s.deck.mask(g) for g in groups.values()]) for s in setups]
    patterns, inverse = np.unique(np.vstack(memberships), axis=0, return_inverse=True)
    inverse = inverse.ravel()
    specs, start = [], 0
    for setup, membership in zip(setups, memberships):
        rows = inverse[start:start + len(membership)]
        start += len(membership)
        counts = np.bincount(rows, weights=setup.deck.counts, minlength=len(patterns)).astype(np.int64)
        resource = None
        if setup.resource_text:
            resource = patterns[:, keys.index(parse_group(setup.resource_text).key)].astype(bool)
        specs.append(simulate.DealSpec(
            cell_counts=counts, table=patterns.astype(np.int8), group_keys=keys,
            hand_size=setup.profile.hand_size, set_aside=setup.profile.set_aside, max_draws=max_draws,
            mulligan=setup.rule, mulligan_limit=setup.limit, keep=setup.keep_event, resource=resource,
            resource_target=setup.resource_target))
    return specs


def compare_task(specs: tuple, event, zone: str, draws: tuple[int, ...], paired: bool, rng: np.random.Generator,
                 n_trials: int) -> np.ndarray:
    """Hits per deck and joint hits with the first deck: int64 array (2 * n_decks, len(draws)).

    Rows ``0..k-1``: hits of each deck; rows ``k..2k-1``: trials where deck 0
    and deck i both hit (row ``k`` repeats deck 0's hits).
    """
    from deckstat.events import evaluate

    if paired:
        state = rng.bit_generator.state
        generators = []
        for _ in specs:
            clone = np.random.Generator(type(rng.bit_generator)())
            clone.bit_generator.state = state
            generators.append(clone)
    else:
        generators = rng.spawn(len(specs))
    holds = []
    for spec, generator in zip(specs, generators):
        dealt = spec.deal(generator, n_trials, zones=(zone,))
        counts = spec.counts_dict(simulate.zone_counts(dealt, zone, list(draws)))
        holds.append(evaluate(event, counts))
    hits = [[np.count_nonzero(row) for row in h] for h in holds]
    joint = [[np.count_nonzero(row) for row in (holds[0] & h)] for h in holds]
    return np.array(hits + joint, dtype=np.int64)


def compare(decks: list[Deck], game, event: str, *, turns=range(7), seat: str = "both", zone: str = "seen",
            keep: str | None = None, mulligan: bool = True, mulligan_rule: str | None = None,
            mulligan_limit: int | None = None, resource: str | None = None, method: str = "auto",
            paired: bool = True, n_trials: int | None = None, rng=None, chunk_size: int = simulate.DEFAULT_CHUNK,
            n_workers: int = 1) -> pd.DataFrame:
    """The same question for two or more decks, each against the first, with the difference.

    Parameters
    ----------
    decks : list of Deck
        Deck A first; every other deck is compared with it.
    game, event, turns, seat, zone, keep, mulligan, mulligan_rule, mulligan_limit, resource
        As in :func:`deckstat.odds`.
    method : {"auto", "exact", "simulate"}
    paired : bool
        Simulate with common random numbers (default) or independently.
    n_trials, rng, chunk_size, n_workers
        As in :func:`deckstat.odds`.

    Returns
    -------
    pandas.DataFrame
        One row per other deck, seat and turn: ``p_a``, ``p_b``, ``diff`` =
        ``p_b - p_a``, its 95% interval (``diff_ci_low``, ``diff_ci_high``) and
        the ``p_value`` of "no difference" (exact McNemar test on the paired
        trials; a two-proportion z test when unpaired; missing when exact).
        ``attrs["differences"]`` lists the card differences per deck.

    Notes
    -----
    The paired interval is ``diff ± z·sd/√n`` with ``sd`` the standard deviation of
    the per-trial difference (normal approximation, accurate at the trial counts used).
    """
    decks = list(decks)
    if len(decks) < 2:
        raise DeckstatError("compare needs at least two decks")
    for d in decks:
        if not isinstance(d, Deck):
            raise DeckstatError(f"decks must be Deck objects (see deckstat.load_deck), got {type(d).__name__}")
    common = {"keep": keep, "mulligan": mulligan, "mulligan_rule": mulligan_rule, "mulligan_limit": mulligan_limit,
              "resource": resource}
    setups = [prepare(d, game, [event], **common) for d in decks]
    chosen = "exact" if all(_method(s, method) == "exact" for s in setups) else "simulate"
    if method == "exact" and chosen != "exact":
        _method(setups[0], "exact")
    names = [Path(d.source).name if d.source != "<table>" else f"deck {i + 1}" for i, d in enumerate(decks)]
    text = to_text(setups[0].events[0])
    rows = []
    attrs = dict(setups[0].attrs)
    attrs.update({"decks": [d.source for d in decks], "paired": paired,
                  "differences": {names[i]: card_differences(decks[0], d).to_dict("records")
                                  for i, d in enumerate(decks[1:], start=1)}})
    if chosen == "exact":
        frames = [odds(d, game, event, turns=turns, seat=seat, zone=zone, method="exact", **common) for d in decks]
        base = frames[0]
        for i, frame in enumerate(frames[1:], start=1):
            for a, b in zip(base.itertuples(index=False), frame.itertuples(index=False)):
                diff = b.p - a.p
                rows.append({"turn": a.turn, "seat": a.seat, "zone": zone, "event": text, "deck_a": names[0],
                             "deck_b": names[i], "p_a": a.p, "p_b": b.p, "diff": diff, "diff_ci_low": diff,
                             "diff_ci_high": diff, "p_value": np.nan, "n_trials": pd.NA, "method": "exact"})
    else:
        profile = setups[0].profile
        turn_list = [0] if zone in ("hand", "set_aside") else _turns(turns)
        per_seat = {s: [profile.draws_by_turn(t, s) for t in turn_list] for s in _seats(seat)}
        for setup in setups:
            if max(max(d) for d in per_seat.values()) > setup.drawable():
                raise DeckstatError(f"{setup.deck.source}: the turns asked for need more cards than the deck holds")
        all_draws = sorted({d for draws in per_seat.values() for d in draws})
        specs = _common_specs(setups, max(all_draws))
        event_tree = setups[0].events[0]
        if any(groups_of(s.events[0]).keys() != groups_of(event_tree).keys() for s in setups):
            raise DeckstatError("the event must read the same groups in every deck")
        task = functools.partial(compare_task, tuple(specs), event_tree, zone, tuple(all_draws), paired)
        runner, streams = _runner(task, rng, chunk_size, n_workers)
        tallies, n_done = runner.run(simulate.DEFAULT_TRIALS if n_trials is None else n_trials)
        attrs.update(_simulation_attrs(streams, n_done, None))
        k = len(decks)
        z = norm.ppf(0.5 + simulate.CONFIDENCE / 2)
        index = {d: j for j, d in enumerate(all_draws)}
        for i in range(1, k):
            for seat_name, draws in per_seat.items():
                for t, d in zip(turn_list, draws):
                    j = index[d]
                    hits_a, hits_b, both = int(tallies[0, j]), int(tallies[i, j]), int(tallies[k + i, j])
                    p_a, p_b = hits_a / n_done, hits_b / n_done
                    diff = p_b - p_a
                    if paired:
                        only_a, only_b = hits_a - both, hits_b - both
                        variance = max((only_a + only_b) / n_done - diff ** 2, 0.0)
                        discordant = only_a + only_b
                        p_value = binomtest(only_b, discordant, 0.5).pvalue if discordant else 1.0
                    else:
                        variance = p_a * (1 - p_a) + p_b * (1 - p_b)
                        pooled = (hits_a + hits_b) / (2 * n_done)
                        se_null = np.sqrt(2 * pooled * (1 - pooled) / n_done)
                        p_value = float(2 * norm.sf(abs(diff) / se_null)) if se_null > 0 else 1.0
                    half = z * np.sqrt(variance / n_done)
                    rows.append({"turn": t, "seat": seat_name, "zone": zone, "event": text, "deck_a": names[0],
                                 "deck_b": names[i], "p_a": p_a, "p_b": p_b, "diff": diff,
                                 "diff_ci_low": max(diff - half, -1.0), "diff_ci_high": min(diff + half, 1.0),
                                 "p_value": float(p_value), "n_trials": n_done, "method": "simulate"})
    frame = pd.DataFrame(rows, columns=COMPARE_COLUMNS)
    frame["n_trials"] = frame["n_trials"].astype("Int64")
    frame.attrs.update(attrs)
    return frame


def compare_deckout(decks: list[Deck], game, **kwargs) -> pd.DataFrame:
    """Deck-out summaries of several decks side by side (each against a copy of itself).

    Returns one row per deck and seat: mean, median, earliest and latest turn,
    and P(first player runs out first). Keyword arguments go to
    :func:`deckstat.deckout`.
    """
    from deckstat.deckout import deckout

    rows = []
    for d in decks:
        result = deckout(d, game, **kwargs)
        for seat_name, summary in result.attrs["summary"].items():
            rows.append({"deck": Path(d.source).name, "seat": seat_name, **summary,
                         "p_first_runs_out_first": result.attrs["p_first_runs_out_first"],
                         "method": result["method"].iloc[0]})
    return pd.DataFrame(rows)
