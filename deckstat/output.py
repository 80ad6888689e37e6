"""Turning result DataFrames into what a player reads: tables, CSV, JSON."""

from __future__ import annotations

import json
import math

import pandas as pd
from rich.markup import escape
from rich.table import Table

FORMATS = ("table", "csv", "json")


def format_probability(p: float) -> str:
    """Format a probability as a percentage a player can read.

    One decimal in the middle of the range; near 0 or 1, enough decimals to
    show how far from certain it is.

    Examples
    --------
    >>> format_probability(0.8734)
    '87.3%'
    >>> format_probability(0.99996)
    '99.996%'
    >>> format_probability(0.0)
    '0%'
    """
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    if p <= 0.0:
        return "0%"
    if p >= 1.0:
        return "100%"
    distance = min(p, 1.0 - p) * 100
    decimals = 1 if distance >= 0.1 else min(8, 1 - math.floor(math.log10(distance)))
    text = f"{p * 100:.{decimals}f}"
    if float(text) == 0.0:
        return f"<{10 ** -decimals:.{decimals}f}%"
    if float(text) == 100.0:
        return f">{100 - 10 ** -decimals:.{decimals}f}%"
    return f"{text}%"


def to_csv(frame: pd.DataFrame) -> str:
    """CSV text of a result (probabilities as numbers in [0, 1])."""
    return frame.to_csv(index=False)


def to_json(frame: pd.DataFrame) -> str:
    """JSON list of records of a result."""
    records = json.loads(frame.to_json(orient="records", double_precision=15))
    return json.dumps(records, ensure_ascii=False, indent=2)


def odds_table(frame: pd.DataFrame) -> Table:
    """A turn-by-seat table of percentages, one column per event and seat."""
    table = Table()
    table.add_column("turn", justify="right")
    events = list(dict.fromkeys(frame["event"]))
    seats = list(dict.fromkeys(frame["seat"]))
    columns = [(e, s) for e in events for s in seats]
    for event, seat in columns:
        label = f"{seat} player" if len(events) == 1 else f"{event}\n{seat} player"
        table.add_column(escape(label), justify="right")
    pivot = frame.pivot_table(index="turn", columns=["event", "seat"], values="p", aggfunc="first")
    for turn, row in pivot.iterrows():
        cells = [format_probability(row.get((e, s), float("nan"))) for e, s in columns]
        table.add_row(str(turn), *cells)
    return table


def violations_table(frame: pd.DataFrame) -> Table:
    """A table of construction-rule violations."""
    table = Table()
    multi = frame["deck"].nunique() > 1 if len(frame) else False
    if multi:
        table.add_column("deck")
    for column in ("level", "subject", "found", "allowed", "rule"):
        table.add_column(column)
    for row in frame.itertuples(index=False):
        cells = [row.level, str(row.subject), row.found, row.allowed, row.rule]
        table.add_row(*[escape(str(c)) for c in ([row.deck] if multi else []) + cells])
    return table
