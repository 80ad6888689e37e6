"""On which turn an event first holds among the cards seen: its distribution, mean, median and P(never)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from deckstat._validate import MAX_TURN, check_events, check_whole
from deckstat.deck import Deck
from deckstat.engines import runner, tasks
from deckstat.events import to_text
from deckstat.games.profiles import Profile
from deckstat.i18n import tr
from deckstat.questions._setup import (
    Setup,
    all_draws,
    check_simulation,
    each_event,
    is_increasing,
    pick_method,
    turn_plan,
)
from deckstat.results import WhenResult, frame

WHEN_COLUMNS = ["deck", "game", "event", "seat", "turn", "p", "ci_low", "ci_high", "cdf", "cdf_low", "cdf_high",
                "n_trials", "method"]
SUMMARY_COLUMNS = ["deck", "game", "event", "seat", "max_turn", "mean_turn", "median_turn", "p_never", "p_never_low",
                   "p_never_high", "n_trials", "method"]


@runner.pooled
def when(deck: Deck, game: str | Profile, event: str | Sequence[str], *, max_turn: int = 10, seat: str = "both",
         keep: str | None = None, mulligan: bool = True, mulligan_rule: str | None = None,
         mulligan_limit: int | None = None, resource: str | None = None, method: str = "auto",
         n_trials: int | None = None, rng=None, precision: float | None = None,
         chunk_size: int = runner.DEFAULT_CHUNK, n_workers: int = 1, allow_absent: bool = False,
         max_trials: int = runner.DEFAULT_MAX_TRIALS, priority: str | None = None) -> WhenResult:
    """Distribution of the first turn at which an event holds among the cards seen.

    Exact when the event can only become true as cards are seen (comparisons
    ``>=``/``>``, or ``<``/``<=`` under ``not``), the exact engine models the
    mulligan and it is cheap enough (see ``method`` in :func:`deckstat.odds`);
    simulated otherwise. Parameters as in :func:`deckstat.odds`
    (``allow_absent``, ``priority``, ``precision`` and ``max_trials`` included; the precision
    is that of the ``cdf`` intervals); ``max_turn`` is the last turn followed.

    Returns
    -------
    WhenResult
        ``table``: per event, seat and turn 0..``max_turn``, ``p`` (first holds
        on that turn) and ``cdf`` (holds by that turn), with their 95%
        intervals when simulated. ``summary``: per event and seat, the mean and
        median first turn among games where it holds by ``max_turn``, and
        ``p_never`` (it has not held by then) with its 95% interval
        (``p_never_low``, ``p_never_high``; equal to ``p_never`` when exact).

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "Terrain", "count": 10, "type": "Terrain"},
    ...                                  {"name": "Personnage", "count": 40, "type": "Personnage"}])
    >>> result = deckstat.when(deck, "wankul", "Terrain>=1", max_turn=3, seat="first", mulligan=False)
    >>> result.table["cdf"].round(4).tolist()  # 1 - C(40, 5 + t) / C(50, 5 + t)
    [0.6894, 0.7585, 0.8133, 0.8568]
    """
    texts = check_events(event)
    max_turn = check_whole(max_turn, "max_turn", maximum=MAX_TURN)
    check_simulation(n_trials, precision, chunk_size, n_workers, max_trials)
    streams = runner.make_streams(rng) if method != "exact" else None
    rules = {"deck": deck, "game": game, "keep": keep, "mulligan": mulligan, "mulligan_rule": mulligan_rule,
             "mulligan_limit": mulligan_limit, "resource": resource, "allow_absent": allow_absent,
             "priority": priority}
    answer = functools.partial(_when_one, max_turn=max_turn, seat=seat, method=method, n_trials=n_trials,
                               streams=streams, precision=precision, chunk_size=chunk_size, n_workers=n_workers,
                               max_trials=max_trials)
    table, summary, provenance = each_event(texts, rules, answer, "when")
    return WhenResult(table=table, summary=summary, provenance=provenance)


def _widest_cdf(tallies: np.ndarray, n_trials: int) -> float:
    return runner.widest_half_width(np.cumsum(tallies[:, :-1], axis=1), n_trials)


def _when_one(setup: Setup, *, max_turn, seat, method, n_trials, streams, precision, chunk_size,
              n_workers, max_trials) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    turns, per_seat = turn_plan(setup, range(max_turn + 1), seat, turns_name="max_turn")
    chosen, reason = pick_method(setup, method, needs_order=not is_increasing(setup.events[0]),
                                 cost=lambda: setup.exact_cost(setup.condition(0), all_draws(per_seat)))
    provenance = dict(setup.provenance)
    if reason:
        provenance["method_reason"] = reason
    if chosen == "exact":
        draws = all_draws(per_seat)
        probs, _ = setup.exact_odds(setup.condition(0), draws)
        by_draws = dict(zip(draws, np.clip(probs, 0, 1)))
        tallies, n_done = None, None
    else:
        if streams is None:
            streams = runner.make_streams(None)
        task = functools.partial(tasks.when_task, setup.deal_spec(max(all_draws(per_seat))), setup.events[0],
                                 tuple(tuple(d) for d in per_seat.values()))
        settings = {"chunk_size": chunk_size, "n_workers": n_workers,
                    "description": tr("when {event}", event=to_text(setup.events[0]))}
        tallies, n_done, stopping = runner.simulate_until(task, streams, precision, n_trials=n_trials,
                                                          max_trials=max_trials, widest=_widest_cdf, **settings)
        provenance.update(runner.provenance(streams, precision, stopping))
    identity = {"deck": setup.deck.name, "game": setup.profile.id, "event": to_text(setup.events[0])}
    rows, summary = [], []
    for i, (seat_name, draws) in enumerate(per_seat.items()):
        if tallies is None:
            cdf = np.maximum.accumulate(np.array([by_draws[d] for d in draws]))
            pmf = np.diff(cdf, prepend=0.0)
            pmf_low = pmf_high = pmf
            cdf_low = cdf_high = cdf
        else:
            hist = tallies[i]
            pmf = hist[:-1] / n_done
            cdf = np.cumsum(hist[:-1]) / n_done
            pmf_low, pmf_high = runner.intervals(hist[:-1], n_done)
            cdf_low, cdf_high = runner.intervals(np.cumsum(hist[:-1]), n_done)
        for t in turns:
            rows.append({**identity, "seat": seat_name, "turn": t, "p": float(pmf[t]), "ci_low": float(pmf_low[t]),
                         "ci_high": float(pmf_high[t]), "cdf": float(cdf[t]), "cdf_low": float(cdf_low[t]),
                         "cdf_high": float(cdf_high[t]), "n_trials": n_done, "method": chosen})
        held = float(cdf[-1])
        mean = float(np.dot(turns, pmf) / held) if held > 0 else np.nan
        median = next((t for t in turns if cdf[t] >= 0.5), pd.NA)
        summary.append({**identity, "seat": seat_name, "max_turn": max_turn, "mean_turn": mean, "median_turn": median,
                        "p_never": 1.0 - held, "p_never_low": 1.0 - float(cdf_high[-1]),
                        "p_never_high": 1.0 - float(cdf_low[-1]), "n_trials": n_done, "method": chosen})
    return (frame(rows, WHEN_COLUMNS), frame(summary, SUMMARY_COLUMNS, integers=("n_trials", "median_turn")),
            provenance)
