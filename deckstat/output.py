"""Turning result DataFrames into what a player reads: tables, CSV, JSON."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
from rich.table import Table
from rich.text import Text

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
    >>> format_probability(1e-7)
    '0.00001%'
    """
    if p is None or pd.isna(p):
        return "–"
    p = float(p)
    if p <= 0.0:
        return "0%"
    if p >= 1.0:
        return "100%"
    distance = min(p, 1.0 - p) * 100
    # One significant digit of the distance to 0% or 100%: 0.004 points -> 3 decimals.
    # The tiny offset keeps 0.001 computed as 0.000999… at 3 decimals.
    decimals = 1 if distance >= 0.1 else min(8, -math.floor(math.log10(distance) + 1e-9))
    text = f"{p * 100:.{decimals}f}"
    if float(text) == 0.0:
        return f"<{10 ** -decimals:.{decimals}f}%"
    if float(text) == 100.0:
        return f">{100 - 10 ** -decimals:.{decimals}f}%"
    return f"{text}%"


def format_estimate(p: float, low: float, high: float, method: str) -> str:
    """``p`` as a percentage, with ``± half-width`` of its interval when simulated.

    Examples
    --------
    >>> format_estimate(0.8734, 0.8721, 0.8747, "simulate")
    '87.3% ± 0.13%'
    >>> format_estimate(0.5, 0.5, 0.5, "exact")
    '50.0%'
    """
    text = format_probability(p)
    if method != "simulate" or pd.isna(low) or pd.isna(high):
        return text
    half = (float(high) - float(low)) / 2 * 100
    if half <= 0:
        return text
    digits = max(0, 1 - math.floor(math.log10(half)))
    return f"{text} ± {half:.{digits}f}%"


def to_csv(frame: pd.DataFrame) -> str:
    """CSV text of a result (probabilities as numbers in [0, 1])."""
    return frame.to_csv(index=False, lineterminator="\n")


def _plain(value: object) -> object:
    """A JSON-ready Python value: NumPy scalars unboxed, missing values as ``None``."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def to_json(frame: pd.DataFrame) -> str:
    """JSON list of records of a result.

    Floats are written with full precision (they read back as the same
    numbers); missing values are ``null``.
    """
    records = [{str(k): _plain(v) for k, v in row.items()} for row in frame.to_dict(orient="records")]
    return json.dumps(records, ensure_ascii=False, indent=2, allow_nan=False)


def _text(value: object) -> Text:
    """Table text shown as is: no rich markup, emoji codes or highlighting."""
    return Text(str(value))


def odds_table(frame: pd.DataFrame) -> Table:
    """A turn-by-seat table of percentages, one column per event and seat."""
    table = Table()
    table.add_column(_text("turn"), justify="right")
    events = list(dict.fromkeys(frame["event"]))
    seats = list(dict.fromkeys(frame["seat"]))
    columns = [(e, s) for e in events for s in seats]
    for event, seat in columns:
        label = f"{seat} player" if len(events) == 1 else f"{event}\n{seat} player"
        table.add_column(_text(label), justify="right")
    cells = {}
    for row in frame.itertuples(index=False):
        low = getattr(row, "ci_low", float("nan"))
        high = getattr(row, "ci_high", float("nan"))
        cells[(row.turn, row.event, row.seat)] = format_estimate(row.p, low, high, row.method)
    for turn in sorted(set(frame["turn"])):
        table.add_row(_text(turn), *[_text(cells.get((turn, e, s), "–")) for e, s in columns])
    return table


def when_table(frame: pd.DataFrame) -> Table:
    """First-turn distribution: P(first holds on turn t) and P(holds by turn t), per seat."""
    table = Table()
    table.add_column(_text("turn"), justify="right")
    seats = list(dict.fromkeys(frame["seat"]))
    for seat in seats:
        table.add_column(_text(f"{seat}: first on turn"), justify="right")
        table.add_column(_text(f"{seat}: by turn"), justify="right")
    rows = {(r.turn, r.seat): r for r in frame.itertuples(index=False)}
    for turn in sorted(set(frame["turn"])):
        cells = []
        for seat in seats:
            r = rows[(turn, seat)]
            cells += [format_estimate(r.pmf, r.pmf_low, r.pmf_high, r.method),
                      format_estimate(r.cdf, r.cdf_low, r.cdf_high, r.method)]
        table.add_row(_text(turn), *[_text(c) for c in cells])
    return table


def key_value_table(rows: list[tuple[str, str]]) -> Table:
    """A two-column table of labels and values."""
    table = Table(show_header=False)
    table.add_column(_text("what"), style="bold")
    table.add_column(_text("value"))
    for label, value in rows:
        table.add_row(_text(label), _text(value))
    return table


def frame_table(frame: pd.DataFrame) -> Table:
    """A plain table of a small DataFrame, every cell shown as text."""
    table = Table()
    for column in frame.columns:
        table.add_column(_text(column), justify="right")
    for row in frame.itertuples(index=False):
        table.add_row(*[_text(v) for v in row])
    return table


def distribution_table(frame: pd.DataFrame, row_key: str, column_key: str, value: str = "p",
                       formatted: bool = False) -> Table:
    """A table with one row per ``row_key`` value and one column per ``column_key`` value.

    Values are probabilities shown as percentages, or text already formatted
    when ``formatted`` is true.
    """
    table = Table()
    table.add_column(_text(row_key), justify="right")
    columns = list(dict.fromkeys(frame[column_key]))
    for column in columns:
        table.add_column(_text(column), justify="right")
    values = {(getattr(r, row_key), getattr(r, column_key)): getattr(r, value)
              for r in frame.itertuples(index=False)}
    for key in sorted(set(frame[row_key])):
        cells = [values.get((key, c), "–" if formatted else float("nan")) for c in columns]
        table.add_row(_text(key), *[_text(c if formatted else format_probability(c)) for c in cells])
    return table


def violations_table(frame: pd.DataFrame) -> Table:
    """A table of construction-rule violations."""
    table = Table()
    multi = frame["deck"].nunique() > 1 if len(frame) else False
    if multi:
        table.add_column(_text("deck"))
    for column in ("level", "subject", "found", "allowed", "rule"):
        table.add_column(_text(column))
    for row in frame.itertuples(index=False):
        cells = [row.level, row.subject, row.found, row.allowed, row.rule]
        table.add_row(*[_text(c) for c in ([row.deck] if multi else []) + cells])
    return table
