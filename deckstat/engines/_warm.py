"""Imported by the worker processes' forkserver: the compiled loops' common signatures, loaded once for all.

Importing it starts numba's JIT and loads (or compiles) those signatures, so
that every worker forked from the server starts with them.
"""

from deckstat.engines._compiled import warm

warm()
