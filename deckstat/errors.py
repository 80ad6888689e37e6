"""Errors raised for unusable user input.

Every error deckstat raises for bad input is a :class:`DeckstatError` whose
message is one line naming where the problem is (file, line, column, token)
and what was expected. The CLI prints that line and exits with code 2.

Messages name the Python parameter at fault (``n_trials``) through
:func:`param`, which marks it in the text; :meth:`DeckstatError.render`
writes the marks as Python names by default, or as the command line's flags
(``--trials``) when the CLI passes its own names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from deckstat.i18n import tr

_OPEN, _CLOSE = "\ue000", "\ue001"
_MARK = re.compile(f"{_OPEN}([^{_OPEN}{_CLOSE}]*){_CLOSE}")


def param(name: str, value: object = None) -> str:
    """Mark a parameter (and optionally the value to give it) inside an error message.

    Parameters
    ----------
    name : str
        The Python parameter, e.g. ``"n_trials"``.
    value : object, optional
        A value to suggest, e.g. ``"simulate"`` for ``method``.

    Returns
    -------
    str
        Text that reads ``n_trials`` (or ``method='simulate'``) in Python, and
        the matching flag on the command line.

    Examples
    --------
    >>> str(DeckstatError(f"{param('n_trials')} must be at least 1"))
    'n_trials must be at least 1'
    >>> DeckstatError(f"use {param('method', 'simulate')}").render({"method='simulate'": "--simulate"})
    'use --simulate'
    """
    key = name if value is None else f"{name}={value!r}"
    return f"{_OPEN}{key}{_CLOSE}"


def render_marks(text: str, names: Mapping[str, str] | None = None) -> str:
    """Write the parameters marked with :func:`param` in ``text`` through ``names`` (default: Python names)."""
    names = names or {}
    return _MARK.sub(lambda m: names.get(m.group(1), m.group(1)), text)


class DeckstatError(ValueError):
    """Unusable input: a bad file, deck, profile, expression or argument.

    Parameters
    ----------
    message : str
        What is wrong and what was expected; parameters marked with :func:`param`.
    source : str, optional
        The file (or other input) the problem is in.
    line : int, optional
        1-based line number in ``source``.
    column : str or int, optional
        Column name (CSV) or 1-based character position (expressions).
    """

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 column: str | int | None = None):
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        super().__init__(self.__str__())

    def _located(self) -> str:
        where = []
        if self.source:
            where.append(str(self.source))
        if self.line is not None:
            where.append(tr("line {line}", line=self.line))
        if self.column is not None:
            col = self.column
            where.append(tr("column {column!r}", column=col) if isinstance(col, str)
                         else tr("position {position}", position=col))
        prefix = ", ".join(where)
        return tr("{place}: {message}", place=prefix, message=self.message) if prefix else self.message

    def render(self, names: Mapping[str, str] | None = None) -> str:
        """The one-line message, with marked parameters written through ``names`` (default: Python names)."""
        return " ".join(render_marks(self._located(), names).split("\n"))

    def __str__(self) -> str:
        return self.render()

    def prefixed(self, context: str) -> DeckstatError:
        """The same error, its whole message (place included) after ``context``."""
        return type(self)(context + self._located())


class ExpressionError(DeckstatError):
    """A group or event expression that cannot be parsed or resolved."""
