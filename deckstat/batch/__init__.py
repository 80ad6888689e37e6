"""Batch runs: a grid of decks × questions × parameters from one TOML spec, as one tidy table.

:func:`load_spec` reads and checks a spec and expands it into :class:`Task`
objects; :func:`run_task` answers one task in this process. See
``docs/batch.md``.
"""

from deckstat.batch.spec import Spec, SpecError, load_spec
from deckstat.batch.tasks import DeckSource, Task, run_task

__all__ = ["DeckSource", "Spec", "SpecError", "Task", "load_spec", "run_task"]
