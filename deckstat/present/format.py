"""Turning results into what a player reads: numbers as text, sentences, CSV and JSON.

No statistics here: every number comes from a result; this module only
writes it. Rich tables for the terminal are in :mod:`deckstat.cli.tables`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from deckstat.errors import DeckstatError, param, render_marks
from deckstat.results import RatioResult, Result

#: How the seed of a simulated run is passed again on the command line.
SEED_RERUN = "--seed {seed}"


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


def interval_decimals(low: float, high: float) -> int:
    """Decimals of a percentage that show the first significant digit of the interval's half-width.

    Two digits when that digit is a 1 (a half-width of 0.13 points is not
    rounded to 0.1), never fewer than 0.

    Examples
    --------
    >>> interval_decimals(0.8727, 0.8741), interval_decimals(0.2366, 0.7634), interval_decimals(0.499, 0.501)
    (2, 0, 2)
    """
    half = (float(high) - float(low)) / 2 * 100
    if not half > 0:
        return 1
    exponent = math.floor(math.log10(half))
    leading = half / 10 ** exponent
    return max(0, -exponent + (1 if leading < 1.95 else 0))


def format_percent(p: float, decimals: int) -> str:
    """``p`` as a percentage with ``decimals`` decimals; never 0% or 100% unless it is exactly 0 or 1.

    Examples
    --------
    >>> format_percent(0.5, 2), format_percent(0.99991, 1), format_percent(1.0, 3), format_percent(0.00012, 1)
    ('50.00%', '99.99%', '100%', '0.01%')
    """
    p = float(p)
    if p <= 0.0:
        return "0%"
    if p >= 1.0:
        return "100%"
    # More decimals until the rounding no longer hides how far from 0% or 100% the value is.
    decimals = max(0, decimals)
    text = f"{p * 100:.{decimals}f}"
    while float(text) in (0.0, 100.0) and decimals < 12:
        decimals += 1
        text = f"{p * 100:.{decimals}f}"
    return f"{text}%"


def format_estimate(p: float, low: float, high: float, method: str) -> str:
    """``p`` as a percentage, with its 95% interval when simulated.

    Exact numbers (and intervals of zero width) are written by
    :func:`format_probability`. A simulated number is written with the
    decimals that show the first significant digit of its interval's
    half-width (:func:`interval_decimals`), so it never has fewer digits than
    its uncertainty. It is ``p ± h`` when the two arms of the interval round
    to the same ``h`` at those decimals and ``p ± h`` stays within [0%, 100%];
    otherwise (near 0% or 100%, where the Wilson interval is lopsided) it is
    ``p [low, high]``, the interval's own ends. An end is written 0% or 100%
    only when it is exactly 0 or 1.

    Examples
    --------
    >>> format_estimate(0.8734, 0.872747, 0.874050, "simulate")  # 10^6 trials
    '87.34% ± 0.07%'
    >>> format_estimate(0.5, 0.49902, 0.50098, "simulate")  # 10^6 trials
    '50.00% ± 0.10%'
    >>> format_estimate(0.999, 0.99436, 0.99982, "simulate")  # 999 of 1,000
    '99.9% [99.4%, 99.98%]'
    >>> format_estimate(1.0, 0.99617, 1.0, "simulate")  # 1,000 of 1,000
    '100% [99.62%, 100%]'
    >>> format_estimate(0.5, 0.5, 0.5, "exact")
    '50.0%'
    """
    if method != "simulate" or pd.isna(low) or pd.isna(high) or not float(high) > float(low):
        return format_probability(p)
    p, low, high = float(p), float(low), float(high)
    decimals = interval_decimals(low, high)
    below, above = (p - low) * 100, (high - p) * 100
    half = round(max(below, above), decimals)
    shown = format_percent(p, decimals)
    centre = float(shown.rstrip("%"))
    # Symmetric: the arms differ by less than half a unit of the last decimal shown.
    symmetric = abs(below - above) < 0.5 * 10 ** -decimals
    if symmetric and 0 < p < 1 and centre - half >= 0 and centre + half <= 100:
        return f"{shown} ± {half:.{decimals}f}%"
    return f"{shown} [{format_percent(low, decimals)}, {format_percent(high, decimals)}]"


def format_difference(diff: float, low: float, high: float, method: str) -> str:
    """A difference of probabilities in percentage points, with its 95% interval when simulated.

    The decimals follow the interval's width as in :func:`format_estimate`
    (at least 2 for exact differences).

    Examples
    --------
    >>> format_difference(0.0737, 0.0737, 0.0737, "exact")
    '+7.37 pts'
    >>> format_difference(-0.0213, -0.0251, -0.0175, "simulate")
    '-2.13 pts [-2.51, -1.75]'
    """
    if method != "simulate" or pd.isna(low) or pd.isna(high) or not float(high) > float(low):
        return f"{float(diff) * 100:+.2f} pts"
    decimals = max(2, interval_decimals(low, high))
    return (f"{float(diff) * 100:+.{decimals}f} pts [{float(low) * 100:+.{decimals}f}, "
            f"{float(high) * 100:+.{decimals}f}]")


def _plain(value: object) -> object:
    """A JSON-ready Python value: NumPy scalars unboxed, missing values as ``None``."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def records(frame: pd.DataFrame) -> list[dict]:
    """A table as JSON-ready records (missing values as ``None``)."""
    return [{str(k): _plain(v) for k, v in row.items()} for row in frame.to_dict(orient="records")]


def to_json(result: Result) -> str:
    """JSON text of a result: an object with its question, provenance and every table's records.

    Floats are written with full precision (they read back as the same
    numbers); probabilities are in [0, 1]; missing values are ``null``.
    """
    out = {"question": result.question, "provenance": _plain(result.provenance)}
    out.update({name: records(frame) for name, frame in result.frames().items()})
    return json.dumps(out, ensure_ascii=False, indent=2, allow_nan=False)


def provenance_columns(provenance: dict) -> dict[str, object]:
    """The provenance values a CSV row carries: every single value, and lists of numbers as text."""
    out = {}
    for key, value in provenance.items():
        if isinstance(value, (list, tuple)):
            if all(isinstance(v, (int, float)) for v in value):
                out[key] = " ".join(str(v) for v in value)
        elif not isinstance(value, dict):
            out[key] = value
    return out


def csv_table(result: Result, table: str | None = None) -> pd.DataFrame:
    """One table of a result (default: its main table), each row with the provenance columns that reproduce it."""
    frames = result.frames()
    name = next(iter(frames)) if table is None else table
    if name not in frames:
        raise DeckstatError(f"{param('table')} must be one of {', '.join(frames)}, got {name!r}")
    frame = frames[name]
    extra = {k: v for k, v in provenance_columns(result.provenance).items() if k not in frame.columns}
    return frame.assign(**extra)


def to_csv(result: Result, table: str | None = None, *, excel: bool = False) -> str:
    r"""CSV text of one table of a result (default: its main table), each row with the provenance to reproduce it.

    Probabilities are numbers in [0, 1]. With ``excel``, the spreadsheet
    dialect of the current language (:mod:`deckstat.present.spreadsheet`:
    ``;`` and a decimal comma in French, ``\r\n`` line ends, formulas
    neutralised); write it with ``encoding="utf-8-sig", newline=""`` so that
    the file starts with the byte order mark a spreadsheet needs.
    """
    from deckstat.present.spreadsheet import PLAIN, frame_to_csv, spreadsheet_dialect

    return frame_to_csv(csv_table(result, table), spreadsheet_dialect() if excel else PLAIN)


def ratio_where(zone: str, turn: int, set_aside_name: str = "set-aside cards") -> str:
    """Where and when a ratio target is checked, in words ("in the kept opening hand", "by turn 3")."""
    if zone == "set_aside":
        return f"in the {set_aside_name}"
    if zone == "bottom":
        return f"under the deck by turn {turn}"
    return "in the kept opening hand" if zone == "hand" or turn == 0 else f"by turn {turn}"


def ratio_decision(result: RatioResult, names: Mapping[str, str] | None = None) -> list[str]:
    """The sweep's decision in words, one sentence per event (none without a target).

    The recommendation is always a legal deck; when a smaller, illegal count
    would reach the target, the sentence says so after it. ``names`` writes
    the parameters a sentence suggests (``n_trials``) as the caller spells
    them, e.g. command-line flags.
    """
    lines = []
    for summary in result.summary.itertuples(index=False):
        if getattr(summary, "objective", "event") == "curve":
            lines.append(render_marks(_best_sentence(result, summary), names))
        if summary.decision == "no target":
            continue
        rows = result.table[result.table["event"] == summary.event]
        at_turn = rows[rows["turn"] == summary.target_turn].set_index("resource_count")
        legal = at_turn[at_turn["legal"].astype(bool)]
        label, target, turn = summary.group, summary.target, summary.target_turn
        where = ratio_where(getattr(summary, "zone", "seen"), int(turn),
                            result.provenance.get("set_aside_name", "set-aside cards"))
        goal = f"P({summary.event}) ≥ {format_probability(target)} {where}"

        def shown(k, at_turn=at_turn):
            row = at_turn.loc[k]
            return format_estimate(row["p"], row["ci_low"], row["ci_high"], row["method"])

        if summary.decision == "decided":
            k = int(summary.recommended)
            text = f"recommended: {k} {label} cards, the smallest legal count with {goal} ({shown(k)})"
        elif summary.decision == "none" and legal.empty:
            text = (f"no recommendation: no count swept from {at_turn.index.min()} to {at_turn.index.max()} gives "
                    "a legal deck")
        elif summary.decision == "none":
            best = int(legal["p"].idxmax())
            text = (f"no legal count from {legal.index.min()} to {legal.index.max()} reaches {goal} (highest: "
                    f"{best} {label} cards, {shown(best)})")
        else:
            unsure = [int(k) for k, status in legal["target_status"].items() if status == "undecided"]
            how = f"simulate more trials ({param('n_trials')})"
            if result.provenance.get("mulligan_rule") in ("none", "bottom") and \
                    result.provenance.get("mulligan_limit", 0) <= 1:
                how += f" or use the exact engine ({param('method', 'exact')})"
            text = (f"undecided: the 95% interval of P({summary.event}) {where} contains "
                    f"{format_probability(target)} at {', '.join(map(str, unsure))} {label} cards; {how}")
        smallest = summary.smallest_reaching
        if not pd.isna(smallest) and not bool(summary.smallest_reaching_legal):
            broken = str(at_turn.loc[int(smallest), "violations"]).split("; ")
            text += (f"; {int(smallest)} would reach the target but is illegal: {broken[0]}"
                     f"{' …' if len(broken) > 1 else ''}")
        lines.append(render_marks(text, names))
    return lines


def _best_sentence(result: RatioResult, summary) -> str:
    """The curve objective's best count in words: the legal count with the highest P at the target turn."""
    rows = result.table[(result.table["event"] == summary.event) & (result.table["turn"] == summary.target_turn)]
    at_turn = rows.set_index("resource_count")
    label, turn = summary.group, int(summary.target_turn)
    goal = f"P({summary.event}) by turn {turn}"
    if summary.best_decision == "none":
        return (f"no best count: no count swept from {at_turn.index.min()} to {at_turn.index.max()} gives a legal "
                "deck")
    k = int(summary.best)
    row = at_turn.loc[k]
    shown = format_estimate(row["p"], row["ci_low"], row["ci_high"], row["method"])
    close = summary.close_to_best
    if summary.best_decision == "decided":
        text = f"best: {k} {label} cards, the legal count with the highest {goal} ({shown})"
        if close:
            text += f"; {close} {label} cards give the same"
        return text
    how = f"simulate more trials ({param('n_trials')})"
    return (f"best estimate: {k} {label} cards, {goal} {shown}, but the 95% intervals at {close} {label} cards "
            f"overlap its own, so the sweep cannot tell them apart; {how}")


def seed_note(provenance: Mapping, rerun: str = "rng={seed}") -> str:
    """The seed of a simulated run and how to run it again ("" when the provenance records no seed).

    ``rerun`` writes how the caller passes a seed back, e.g. a command-line flag.

    Examples
    --------
    >>> seed_note({"seed": 483920175, "seed_entropy": 483920175, "seed_spawn_key": [0]}, "--seed {seed}")
    'seed 483920175 (rerun with --seed 483920175)'
    >>> seed_note({"seed": None, "seed_entropy": 12, "seed_spawn_key": [3]})
    'seed entropy 12, spawn key [3]'
    """
    seed = provenance.get("seed")
    if seed is not None:
        return f"seed {seed} (rerun with {rerun.format(seed=seed)})"
    if provenance.get("seed_entropy") is None:
        return ""
    # A Generator that had already been drawn from: no single number gives its streams again.
    return f"seed entropy {provenance['seed_entropy']}, spawn key {list(provenance.get('seed_spawn_key', []))}"


def simulation_note(result, rerun: str = "rng={seed}") -> str:
    """How the simulated numbers of a result were made ("" when every number is exact).

    ``result`` is a :class:`~deckstat.results.Result` or anything with its
    ``provenance`` and ``frames()``; ``rerun`` is as in :func:`seed_note`.
    """
    seed = seed_note(result.provenance, rerun)
    trials = trial_count(result)
    if not seed or trials is None:
        return ""
    return f"simulated: {trials:,} trials, {seed}, 95% Wilson intervals (± or [low, high])"


def trial_count(result: Result) -> int | None:
    """The largest trial count of a result's tables (None when nothing was simulated)."""
    counts = [int(v) for frame in result.frames().values() if "n_trials" in frame.columns
              for v in frame["n_trials"].dropna()]
    return max(counts) if counts else None


def policy_note(provenance: Mapping) -> str:
    """The deck-out play policy in words, with how many cards of each deck it plays.

    Examples
    --------
    >>> policy_note({"policy": "none", "policy_text": "card effects are ignored", "effect_cards": [0, 0]})
    'policy none: card effects are ignored'
    >>> policy_note({"policy": "on_draw", "policy_text": "played when drawn", "effect_cards": [0, 0]})
    "no card has a draw or mill effect, so only the rules' draws move the decks (policy on_draw)"
    >>> policy_note({"policy": "on_draw", "policy_text": "played when drawn", "effect_cards": [8, 8]})
    'policy on_draw: played when drawn; 8 cards of each deck have a draw or mill effect'
    """
    policy = provenance["policy"]
    text = f"policy {policy}: {provenance['policy_text']}"
    cards = provenance.get("effect_cards")
    if cards is None or (policy == "none" and not any(cards)):
        return text
    if not any(cards):
        return f"no card has a draw or mill effect, so only the rules' draws move the decks " \
               f"(policy {policy})"
    if cards[0] == cards[1]:
        counted = f"{cards[0]} card{'s' if cards[0] != 1 else ''} of each deck"
        verb = "has" if cards[0] == 1 else "have"
    else:
        counted = f"{cards[0]} card{'s' if cards[0] != 1 else ''} of the first player's deck and {cards[1]} of the " \
                  "second's"
        verb = "have" if sum(cards) != 1 else "has"
    return f"{text}; {counted} {verb} a draw or mill effect" + (", not played" if policy == "none" else "")


def rules_note(provenance: dict, profile_mulligan: str, p_keep: float | None = None) -> str:
    """The mulligan in force, in words ("" when the game has none)."""
    rule = provenance.get("mulligan_rule", "none")
    if rule == "none":
        return "no mulligan" if profile_mulligan != "none" else ""
    note = f"{rule} mulligan (up to {provenance['mulligan_limit']}), keep rule {provenance['keep']}"
    if p_keep is not None:
        note += f", first hand kept {format_probability(p_keep)}"
    return note


def game_end_line(game_end: pd.DataFrame, when_text: str) -> str:
    """When the game ends by deck-out, in one line: the median turn (with mean and range when it varies).

    Examples
    --------
    >>> table = pd.DataFrame({"turn": [24], "p": [1.0], "cdf": [1.0]})
    >>> game_end_line(table, "at the later of the two decks' run-out turns")
    "the game ends by deck-out on turn 24, at the later of the two decks' run-out turns"
    """
    turns, p = game_end["turn"].to_numpy(), game_end["p"].to_numpy(dtype=float)
    median = int(turns[np.searchsorted(game_end["cdf"].to_numpy(dtype=float), 0.5)])
    if len(turns) == 1:
        return f"the game ends by deck-out on turn {median}, {when_text}"
    mean = float(np.dot(turns, p) / p.sum())
    return (f"the game ends by deck-out on turn {median} (median; mean {mean:.2f}, earliest {turns.min()}, latest "
            f"{turns.max()}), {when_text}")
