"""Batches: a grid of decks × questions × parameters from one TOML file, run unattended, one tidy table.

Layer rule: a batch runs the public questions (``deckstat.odds``, ``deckstat.ratio``…)
task by task and gathers their tables; it computes no statistics of its own
and presents nothing (the ``batch`` command prints). ``run`` holds the
executors (this process, local processes, a Dask cluster), the journal that
makes a run resumable, the output files and the dry run.
"""

from deckstat.batch.run import BatchResult, batch, plan

__all__ = ["BatchResult", "batch", "plan"]
