"""Errors raised for unusable user input.

Every error deckstat raises for bad input is a :class:`DeckstatError` whose
message is one line naming where the problem is (file, line, column, token)
and what was expected. The CLI prints that line and exits with code 2.
"""

from __future__ import annotations


class DeckstatError(ValueError):
    """Unusable input: a bad file, deck, profile, expression or argument.

    Parameters
    ----------
    message : str
        What is wrong and what was expected.
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

    def __str__(self) -> str:
        where = []
        if self.source:
            where.append(str(self.source))
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            col = self.column
            where.append(f"column {col!r}" if isinstance(col, str) else f"position {col}")
        prefix = ", ".join(where)
        text = f"{prefix}: {self.message}" if prefix else self.message
        return " ".join(text.split("\n"))


class ExpressionError(DeckstatError):
    """A group or event expression that cannot be parsed or resolved."""
