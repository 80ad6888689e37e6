"""The ``deckstat`` command line.

Layer rule: every command parses its arguments, makes one public API call
(``deckstat.odds``, ``deckstat.ratio``…) and presents the result with
:mod:`deckstat.present` and the rich tables of :mod:`deckstat.cli.tables`;
no statistics here. ``options`` holds what commands share, including the
flags that error messages name instead of Python parameters.
"""

from deckstat.cli.commands import app, main
from deckstat.cli.options import parse_turns

__all__ = ["app", "main", "parse_turns"]
