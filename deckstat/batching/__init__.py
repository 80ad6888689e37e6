"""Batches: a grid of decks × questions × parameters from one TOML spec, run unattended, one tidy table.

:func:`load_spec` reads and checks a spec and expands it into :class:`Task`
objects; :func:`run_task` answers one task in this process; :func:`batch`
runs them all (in this process, on local processes or on a Dask cluster),
with a journal that makes a run resumable, and :func:`plan` is the dry run.
A batch runs the public questions (``deckstat.odds``, ``deckstat.ratio``…)
and gathers their tables; it computes no statistics of its own and presents
nothing (the ``batch`` command prints). See ``docs/batch.md``.
"""

from deckstat.batching.run import BatchResult, batch, plan
from deckstat.batching.spec import Spec, SpecError, load_spec
from deckstat.batching.tasks import DeckSource, Task, run_task

__all__ = ["BatchResult", "DeckSource", "Spec", "SpecError", "Task", "batch", "load_spec", "plan", "run_task"]
