"""Plan, estimate, shape: the one path from a checked question to estimates with intervals and provenance.

A question checks everything in its ``plan_*`` function and prices the exact
engine there, once (:func:`price`), computing nothing; each computation it
plans is a :class:`Part`. :func:`estimate` then answers a part exactly or by
simulation (through :mod:`deckstat.engines.runner`) with its Wilson
intervals and provenance, and the question shapes the estimates into its
tables. The simulation settings are checked once, into a :class:`Simulation`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from deckstat._validate import check_choice
from deckstat.engines import runner
from deckstat.engines.cost import Cost
from deckstat.i18n import tr
from deckstat.questions._setup import Setup, check_simulation, pick_method
from deckstat.terms import METHODS


@dataclass(frozen=True)
class Simulation:
    """How a question is estimated: the method asked and the simulation settings, checked once.

    Build it with :meth:`checked` (which checks every setting, whether or
    not the question ends up simulated); a question given a ``Simulation``
    does not check its settings again.

    Attributes
    ----------
    method : {"auto", "exact", "simulate"}
    n_trials : int or None
        Trials of a fixed-size run (None: :data:`~deckstat.engines.runner.DEFAULT_TRIALS`).
    precision : float or None
        Simulate until the widest 95% interval's half-width is at most this.
    rng : int, Generator, Streams or None
        The seed as given; :meth:`seeded` normalises it once for every part of a question.
    chunk_size, n_workers, max_trials : int
    """

    method: str = "auto"
    n_trials: int | None = None
    precision: float | None = None
    rng: object = None
    chunk_size: int = runner.DEFAULT_CHUNK
    n_workers: int = 1
    max_trials: int = runner.DEFAULT_MAX_TRIALS

    @classmethod
    def checked(cls, *, method: object = "auto", n_trials: object = None, precision: object = None,
                rng: object = None, chunk_size: object = runner.DEFAULT_CHUNK, n_workers: object = 1,
                max_trials: object = None) -> Simulation:
        """The settings, each checked (see :func:`~deckstat.questions._setup.check_simulation`).

        ``max_trials`` None: the question takes no such parameter (its default bounds nothing it runs).

        Examples
        --------
        >>> Simulation.checked(method="simulate", n_trials=1000, rng=5).n_trials
        1000
        """
        check_simulation(n_trials, precision, chunk_size, n_workers, max_trials, rng=rng)
        check_choice(method, "method", METHODS)
        return cls(method, n_trials, precision, rng, chunk_size, n_workers,
                   runner.DEFAULT_MAX_TRIALS if max_trials is None else max_trials)

    def seeded(self) -> Simulation:
        """These settings with ``rng`` made the run's root streams (:func:`~deckstat.engines.runner.make_streams`).

        A question seeds once, so that every part it simulates starts from the
        same root, whatever ``rng`` was (None draws one fresh seed; a Generator
        is consumed once).
        """
        return self if isinstance(self.rng, runner.Streams) else replace(self, rng=runner.make_streams(self.rng))

    def with_method(self, method: str) -> Simulation:
        """The same settings for a part asked with ``method`` (a question built on another passes its choice)."""
        return self if method == self.method else replace(self, method=method)


@dataclass(frozen=True)
class Part:
    """One computation a question has planned: the method chosen and how to compute it either way.

    Attributes
    ----------
    method : {"exact", "simulate"}
        The method chosen for it (:func:`price`).
    reason : str or None
        Why ``auto`` simulated a part the exact engine models.
    exact : callable
        Runs the exact engine: returns what the question shapes (probabilities in [0, 1]).
    task : callable or None
        The simulation task, ``task(rng, size) -> tallies`` (see :mod:`deckstat.engines.tasks`).
    description : str
        What the progress line says while simulating.
    widest : callable
        The widest interval's half-width of a tally, for a ``precision`` run.
    cost : Cost or None
        The exact engine's predicted cost, when it was priced.
    """

    method: str
    reason: str | None
    exact: Callable[[], object]
    task: Callable | None = None
    description: str = ""
    widest: Callable[[np.ndarray, int], float] = runner.widest_half_width
    cost: Cost | None = None


def price(setup: Setup, method: str, cost: Callable[[], Cost] | None, *,
          needs_order: bool = False) -> tuple[str, str | None, Cost | None]:
    """The engine for ``method`` (:func:`~deckstat.questions._setup.pick_method`), why, and the cost it predicted.

    ``cost`` is called at most once: a plan keeps what it returned.
    """
    predicted: list[Cost] = []

    def once() -> Cost:
        predicted.append(cost())
        return predicted[-1]

    chosen, reason = pick_method(setup, method, needs_order, None if cost is None else once)
    return chosen, reason, predicted[-1] if predicted else None


@dataclass(frozen=True)
class Estimates:
    """What :func:`estimate` returns: the exact engine's answer or the simulation's tallies, and their provenance.

    Attributes
    ----------
    method : {"exact", "simulate"}
    values : object
        The exact answer (probabilities), or the summed tallies of the trials.
    n_trials : int or None
        Trials run (None when exact).
    provenance : dict
        ``method_reason`` when ``auto`` simulated, and what reproduces a simulation (seed, stopping rule).
    """

    method: str
    values: object
    n_trials: int | None
    provenance: dict

    def share(self, counts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Proportions and their 95% Wilson intervals: ``counts`` are hits when simulated, probabilities when exact.

        An exact probability is clipped to [0, 1] (rounding may step out) and is its own interval.
        """
        if self.n_trials is None:
            p = np.clip(counts, 0.0, 1.0)
            return p, p, p
        low, high = runner.intervals(counts, self.n_trials)
        return np.asarray(counts) / self.n_trials, low, high


def estimate(part: Part, simulation: Simulation) -> Estimates:
    """Answer ``part`` by its method: the exact engine, or a simulation on ``simulation``'s settings.

    ``simulation`` should be :meth:`~Simulation.seeded` once for a whole
    question, so that its parts share one root seed.
    """
    provenance = {"method_reason": part.reason} if part.reason else {}
    if part.method == "exact":
        return Estimates("exact", part.exact(), None, provenance)
    streams = runner.make_streams(simulation.rng)
    tallies, n_done, stopping = runner.simulate_until(
        part.task, streams, simulation.precision, n_trials=simulation.n_trials, max_trials=simulation.max_trials,
        widest=part.widest, chunk_size=simulation.chunk_size, n_workers=simulation.n_workers,
        description=part.description)
    provenance.update(runner.provenance(streams, simulation.precision, stopping))
    return Estimates("simulate", tallies, n_done, provenance)


def first_turn(turns: Sequence[int], pmf: np.ndarray, cdf: np.ndarray, cdf_low: np.ndarray,
               cdf_high: np.ndarray) -> dict:
    """The summary of a first-turn distribution: mean and median turn, and P(never) with its interval.

    Parameters
    ----------
    turns : sequence of int
        The turns of ``pmf`` and ``cdf``, in order.
    pmf, cdf : ndarray
        P(first on turn t) and P(on or before turn t), by turn.
    cdf_low, cdf_high : ndarray
        The interval of ``cdf`` (equal to it when exact).

    Returns
    -------
    dict
        ``mean_turn`` (given that it happens by the last turn; NaN if it never does), ``median_turn`` (the
        first turn at which ``cdf`` reaches 1/2, else NA), ``p_never``, ``p_never_low``, ``p_never_high``.

    Examples
    --------
    >>> import numpy as np
    >>> cdf = np.array([0.25, 0.75, 1.0])
    >>> first_turn([0, 1, 2], np.diff(cdf, prepend=0.0), cdf, cdf, cdf)["median_turn"]
    1
    """
    held = float(cdf[-1])
    mean = float(np.dot(turns, pmf) / held) if held > 0 else np.nan
    median = next((int(t) for t, c in zip(turns, cdf) if c >= 0.5), pd.NA)
    return {"mean_turn": mean, "median_turn": median, "p_never": 1.0 - held, "p_never_low": 1.0 - float(cdf_high[-1]),
            "p_never_high": 1.0 - float(cdf_low[-1])}


def join_reasons(reasons: Sequence[str]) -> str:
    """Several clauses (parts' ``method_reason``, a count's violations) in one sentence, joined by « ; »."""
    return functools.reduce(lambda first, second: tr("{first}; {second}", first=first, second=second), reasons)


def stack_events(texts: Sequence[str], answers: Sequence[tuple[pd.DataFrame, pd.DataFrame, dict]],
                 question: str) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """Stack the answers of a question asked event by event (each event compiled on its own).

    Parameters
    ----------
    texts : sequence of str
        The events, in the order asked.
    answers : sequence of (table, summary, provenance)
        Each event's answer, in the same order.
    question : str
        Recorded as ``provenance["question"]``.

    Returns
    -------
    table, summary : pandas.DataFrame
        The events' tables and summaries, one after the other.
    provenance : dict
        The last event's, with every event's ``method_reason`` (each named by its event when there are several).
    """
    tables, summaries, provenance, reasons = [], [], {}, []
    for text, (table, summary, provenance) in zip(texts, answers):
        tables.append(table)
        summaries.append(summary)
        reason = provenance.pop("method_reason", None)
        if reason:
            reasons.append(tr("{place}: {message}", place=text, message=reason) if len(texts) > 1 else reason)
    if reasons:
        provenance["method_reason"] = join_reasons(reasons)
    provenance["question"] = question
    return pd.concat(tables, ignore_index=True), pd.concat(summaries, ignore_index=True), provenance
