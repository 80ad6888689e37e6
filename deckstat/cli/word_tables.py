"""Tables of words alone, as ``deckstat games show`` prints a profile: they load no pandas, unlike :mod:`tables`."""

from __future__ import annotations

from deckstat.cli.layout import Grid


def key_value_table(rows: list[tuple[str, str]]) -> Grid:
    """A two-column table of labels and values, values wrapped at spaces."""
    grid = Grid([], header=False)
    grid.add("", [label for label, _ in rows], key=True, text=True, justify="left")
    grid.add("", [value for _, value in rows], text=True, justify="left")
    return grid
