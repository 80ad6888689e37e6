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

from deckstat.deck import OTHER_CARDS
from deckstat.errors import DeckstatError, param, render_marks
from deckstat.i18n import N_, get_language, localise_number, number, tr, trn
from deckstat.results import RatioResult, Result
from deckstat.terms import MULLIGAN_NAMES, POLICY_NAMES, name_of

#: How the seed of a simulated run is passed again on the command line.
SEED_RERUN = "--seed {seed}"


#: How the seat of a result is named for a reader; ``now`` is a known-cards question asked from now.
SEAT_WORDS = {"first": N_("first player"), "second": N_("second player"), "now": N_("from now"),
              "both": N_("both players (same odds)")}


def seat_words(seat: str) -> str:
    """A seat of a result as a player reads it (``first`` -> "first player", "premier joueur" in French).

    Examples
    --------
    >>> seat_words("second")
    'second player'
    >>> from deckstat.i18n import language
    >>> with language("fr"):
    ...     seat_words("first")
    'premier joueur'
    """
    return tr(SEAT_WORDS[seat]) if seat in SEAT_WORDS else str(seat)


#: The seat of rows that stand for both seats, whose numbers are the same (:func:`merge_alike_seats`).
BOTH_SEATS = "both"


def merge_alike_seats(frame: pd.DataFrame, columns: list[str], by: list[str] | None = None,
                      order: tuple[str, ...] = ("turn", "draws")) -> pd.DataFrame:
    """Both seats' rows as one set with seat ``"both"`` where the seats have the same numbers.

    The one place that decides when the first and the second player "have the same odds", for the tables of
    the command line and for the figures: in games where both seats draw alike (Wankul, JdG…) their rows are
    the same, and showing them twice says nothing. Within each ``by`` group, the rows of each seat, in the
    order of the ``order`` columns present, are compared on ``columns`` (and those order columns): numbers must
    be exactly equal, as they are when computed exactly or simulated from the same draws (a simulation deals
    each game once for both seats), never merely close; text must be the same. Where they are, the first
    seat's rows are kept with seat ``"both"``; elsewhere every row is kept.

    The tidy tables of the Python API keep a row per seat (a filter on ``seat == "second"`` works whatever
    the game, and tables of several games join); merging them is how a table or a figure shows them.

    Examples
    --------
    >>> frame = pd.DataFrame({"seat": ["first", "second"] * 2, "turn": [0, 0, 1, 1], "p": [0.5, 0.5, 0.7, 0.7]})
    >>> merge_alike_seats(frame, ["p"])
       seat  turn    p
    0  both     0  0.5
    1  both     1  0.7
    >>> merge_alike_seats(frame.assign(p=[0.5, 0.5, 0.7, 0.7000001]), ["p"])["seat"].tolist()
    ['first', 'second', 'first', 'second']
    """
    if frame.empty or "seat" not in frame.columns or frame["seat"].nunique() < 2:
        return frame
    keys = [c for c in order if c in frame.columns]
    compared = keys + [c for c in columns if c in frame.columns and c not in keys]
    parts = []
    for _, part in (frame.groupby(by, sort=False, dropna=False) if by else [(None, frame)]):
        seats = list(dict.fromkeys(part["seat"]))
        tables = [part[part["seat"] == seat] for seat in seats]
        if keys:
            tables = [t.sort_values(keys, kind="stable") for t in tables]
        same = len(seats) > 1 and all(_same_values(tables[0], t, compared) for t in tables[1:])
        parts.append(tables[0].assign(seat=BOTH_SEATS) if same else part)
    return pd.concat(parts, ignore_index=True)


def _same_values(one: pd.DataFrame, other: pd.DataFrame, columns: list[str]) -> bool:
    """Whether two seats' rows hold the same values: numbers exactly equal (missing ones too), text the same."""
    if len(one) != len(other):
        return False
    for column in columns:
        a, b = one[column], other[column]
        if pd.api.types.is_numeric_dtype(a) and pd.api.types.is_numeric_dtype(b):
            if not np.array_equal(a.to_numpy(dtype=float, na_value=np.nan), b.to_numpy(dtype=float, na_value=np.nan),
                                  equal_nan=True):
                return False
        elif [None if pd.isna(v) else v for v in a] != [None if pd.isna(v) else v for v in b]:
            return False
    return True


def group_words(label: str) -> str:
    """A hand or deck written by group counts (``Terrain=1, other=4``), the rest of the cards named in the language.

    Examples
    --------
    >>> from deckstat.i18n import language
    >>> with language("fr"):
    ...     group_words("Terrain=1, other=4")
    'Terrain=1, autre=4'
    """
    parts = []
    for part in str(label).split(", "):
        name, equals, count = part.rpartition("=")
        parts.append(f"{tr('other')}={count}" if equals and name == OTHER_CARDS else part)
    return ", ".join(parts)


def format_probability(p: float) -> str:
    r"""Format a probability as a percentage a player can read.

    One decimal in the middle of the range; near 0 or 1, enough decimals to
    show how far from certain it is. French writes a decimal comma and a
    no-break space before ``%``.

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
    >>> from deckstat.i18n import language
    >>> with language("fr"):
    ...     format_probability(0.8734), format_probability(1e-7)
    ('87,3\xa0%', '0,00001\xa0%')
    """
    if p is None or pd.isna(p):
        return "–"
    return localise_number(_probability(float(p)))


def _probability(p: float) -> str:
    """:func:`format_probability` in English, whatever the language (the text other formats are built from)."""
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
    r"""``p`` as a percentage with ``decimals`` decimals; never 0% or 100% unless it is exactly 0 or 1.

    Examples
    --------
    >>> format_percent(0.5, 2), format_percent(0.99991, 1), format_percent(1.0, 3), format_percent(0.00012, 1)
    ('50.00%', '99.99%', '100%', '0.01%')
    >>> from deckstat.i18n import language
    >>> with language("fr"):
    ...     format_percent(0.5, 2)
    '50,00\xa0%'
    """
    return localise_number(_percent(p, decimals))


def _percent(p: float, decimals: int) -> str:
    """:func:`format_percent` in English, whatever the language."""
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


def format_interval(low: str, high: str) -> str:
    r"""The two ends of an interval, already written: ``[1.2%, 3.4%]``; French ``[1,2 % ; 3,4 %]``.

    French separates the ends with a semicolon, since its decimal mark is the comma.

    Examples
    --------
    >>> from deckstat.i18n import language
    >>> with language("fr"):
    ...     format_interval("1,2\xa0%", "3,4\xa0%")
    '[1,2\xa0%\xa0; 3,4\xa0%]'
    """
    return tr("[{low}, {high}]", low=low, high=high)


def format_estimate(p: float, low: float, high: float, method: str) -> str:
    r"""``p`` as a percentage, with its 95% interval when simulated.

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
    >>> from deckstat.i18n import language
    >>> with language("fr"):
    ...     format_estimate(0.8734, 0.872747, 0.874050, "simulate"), format_estimate(0.999, 0.99436, 0.99982,
    ...                                                                            "simulate")
    ('87,34\xa0% ± 0,07\xa0%', '99,9\xa0% [99,4\xa0%\xa0; 99,98\xa0%]')
    """
    if method != "simulate" or pd.isna(low) or pd.isna(high) or not float(high) > float(low):
        return format_probability(p)
    p, low, high = float(p), float(low), float(high)
    decimals = interval_decimals(low, high)
    below, above = (p - low) * 100, (high - p) * 100
    half = round(max(below, above), decimals)
    shown = _percent(p, decimals)
    centre = float(shown.rstrip("%"))
    # Symmetric: the arms differ by less than half a unit of the last decimal shown.
    symmetric = abs(below - above) < 0.5 * 10 ** -decimals
    if symmetric and 0 < p < 1 and centre - half >= 0 and centre + half <= 100:
        return f"{localise_number(shown)} ± {localise_number(f'{half:.{decimals}f}%')}"
    return f"{localise_number(shown)} {format_interval(format_percent(low, decimals), format_percent(high, decimals))}"


def format_points(diff: float, decimals: int = 1) -> str:
    r"""A difference of probabilities in percentage points, signed: ``+7.4 pp``; French ``+7,4 pts``.

    Examples
    --------
    >>> format_points(0.0737), format_points(-0.0213, 2)
    ('+7.4 pp', '-2.13 pp')
    >>> from deckstat.i18n import language
    >>> with language("fr"):
    ...     format_points(0.0737)
    '+7,4\xa0pts'
    """
    return tr("{points} pp", points=_signed(diff, decimals))


def _signed(diff: float, decimals: int) -> str:
    """``diff`` in percentage points with its sign and ``decimals`` decimals, in the language's numbers."""
    return localise_number(f"{float(diff) * 100:+.{decimals}f}")


def format_difference(diff: float, low: float, high: float, method: str) -> str:
    r"""A difference of probabilities in percentage points, with its 95% interval when simulated.

    The decimals follow the interval's width as in :func:`format_estimate`
    (at least 2 for exact differences).

    Examples
    --------
    >>> format_difference(0.0737, 0.0737, 0.0737, "exact")
    '+7.37 pp'
    >>> format_difference(-0.0213, -0.0251, -0.0175, "simulate")
    '-2.13 pp [-2.51, -1.75]'
    >>> from deckstat.i18n import language
    >>> with language("fr"):
    ...     format_difference(-0.0213, -0.0251, -0.0175, "simulate")
    '-2,13\xa0pts [-2,51\xa0; -1,75]'
    """
    if method != "simulate" or pd.isna(low) or pd.isna(high) or not float(high) > float(low):
        return format_points(diff, 2)
    decimals = max(2, interval_decimals(low, high))
    return f"{format_points(diff, decimals)} {format_interval(_signed(low, decimals), _signed(high, decimals))}"


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
        raise DeckstatError(tr("{table} must be one of {choices}, got {name!r}", table=param("table"),
                               choices=", ".join(frames), name=name))
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


def event_words(event: str, provenance: Mapping) -> str:
    """An event of a result as a player reads it: the curve objective's ``"X playable"`` in the language.

    The ``event`` column names the curve objective of :func:`deckstat.ratio` in English, as an identifier of
    the rows; a table or a sentence names it in the language.

    Examples
    --------
    >>> from deckstat.i18n import language
    >>> with language("fr"):
    ...     event_words("Dragon playable", {"objective": "curve", "card": "Dragon"})
    'Dragon jouable'
    """
    if provenance.get("objective") == "curve":
        target = provenance.get("card") or provenance.get("curve_group")
        if event == f"{target} playable":
            return tr("{target} playable", target=target)
    return str(event)


def ratio_where(zone: str, turn: int, set_aside_name: str = "set-aside cards") -> str:
    """Where and when a ratio target is checked, in words ("in the kept opening hand", "by turn 3")."""
    if zone == "set_aside":
        return tr("in the {set_aside}", set_aside=set_aside_name)
    if zone == "bottom":
        return tr("under the deck by turn {turn}", turn=turn)
    return tr("in the kept opening hand") if zone == "hand" or turn == 0 else tr("by turn {turn}", turn=turn)


def _plural_of(counts: str) -> int:
    """The number a list of counts written ``"11, 13"`` agrees with: the count itself when it is alone."""
    parts = str(counts).split(", ")
    return int(parts[0]) if len(parts) == 1 and parts[0].isdigit() else 2


def _more_trials(result: RatioResult | None = None) -> str:
    """How to decide what the sweep could not: more trials, or the exact engine where it applies."""
    if result is not None and result.provenance.get("mulligan_rule") in ("none", "bottom") and \
            result.provenance.get("mulligan_limit", 0) <= 1:
        return tr("simulate more trials ({trials}) or use the exact engine ({exact})", trials=param("n_trials"),
                  exact=param("method", "exact"))
    return tr("simulate more trials ({trials})", trials=param("n_trials"))


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
        goal = f"P({event_words(summary.event, result.provenance)}) ≥ {format_probability(target)} {where}"

        def shown(k, at_turn=at_turn):
            row = at_turn.loc[k]
            return format_estimate(row["p"], row["ci_low"], row["ci_high"], row["method"])

        if summary.decision == "decided":
            k = int(summary.recommended)
            text = trn("recommended: {n} {label} card, the smallest legal count with {goal} ({estimate})",
                       "recommended: {n} {label} cards, the smallest legal count with {goal} ({estimate})", k,
                       label=label, goal=goal, estimate=shown(k))
        elif summary.decision == "none" and legal.empty:
            text = tr("no recommendation: no count swept from {low} to {high} gives a legal deck",
                      low=at_turn.index.min(), high=at_turn.index.max())
        elif summary.decision == "none":
            best = int(legal["p"].idxmax())
            text = trn("no legal count from {low} to {high} reaches {goal} (highest: {n} {label} card, {estimate})",
                       "no legal count from {low} to {high} reaches {goal} (highest: {n} {label} cards, {estimate})",
                       best, low=legal.index.min(), high=legal.index.max(), goal=goal, label=label,
                       estimate=shown(best))
        else:
            unsure = ", ".join(str(int(k)) for k, status in legal["target_status"].items() if status == "undecided")
            text = trn("undecided: the 95% interval of P({event}) {where} contains {target} at {counts} {label} card; "
                       "{how}",
                       "undecided: the 95% interval of P({event}) {where} contains {target} at {counts} {label} "
                       "cards; {how}", _plural_of(unsure), event=event_words(summary.event, result.provenance),
                       where=where,
                       target=format_probability(target), counts=unsure, label=label, how=_more_trials(result))
        smallest = summary.smallest_reaching
        if not pd.isna(smallest) and not bool(summary.smallest_reaching_legal):
            broken = str(at_turn.loc[int(smallest), "violations"]).split("; ")
            text = tr("{text}; {count} would reach the target but is illegal: {violation}", text=text,
                      count=int(smallest), violation=broken[0] + (" …" if len(broken) > 1 else ""))
        lines.append(render_marks(text, names))
    return lines


def _best_sentence(result: RatioResult, summary) -> str:
    """The curve objective's best count in words: the legal count with the highest P at the target turn."""
    rows = result.table[(result.table["event"] == summary.event) & (result.table["turn"] == summary.target_turn)]
    at_turn = rows.set_index("resource_count")
    label, turn = summary.group, int(summary.target_turn)
    goal = tr("P({event}) by turn {turn}", event=event_words(summary.event, result.provenance), turn=turn)
    if summary.best_decision == "none":
        return tr("no best count: no count swept from {low} to {high} gives a legal deck",
                  low=at_turn.index.min(), high=at_turn.index.max())
    k = int(summary.best)
    row = at_turn.loc[k]
    shown = format_estimate(row["p"], row["ci_low"], row["ci_high"], row["method"])
    close = summary.close_to_best
    if summary.best_decision == "decided":
        text = trn("best: {n} {label} card, the legal count with the highest {goal} ({estimate})",
                   "best: {n} {label} cards, the legal count with the highest {goal} ({estimate})", k, label=label,
                   goal=goal, estimate=shown)
        if close:
            text = trn("{text}; {close} {label} card gives the same", "{text}; {close} {label} cards give the same",
                       _plural_of(close), text=text, close=close, label=label)
        return text
    return trn("best estimate: {n} {label} card, {goal} {estimate}, but the 95% intervals at {close} {label} cards "
               "overlap its own, so the sweep cannot tell them apart; {how}",
               "best estimate: {n} {label} cards, {goal} {estimate}, but the 95% intervals at {close} {label} cards "
               "overlap its own, so the sweep cannot tell them apart; {how}", k, label=label, goal=goal,
               estimate=shown, close=close, how=_more_trials())


def seed_note(provenance: Mapping, rerun: str = "rng={seed}") -> str:
    """The seed of a simulated run and how to run it again ("" when the provenance records no seed).

    ``rerun`` writes how the caller passes a seed back, e.g. a command-line flag. The seed is written as it is
    typed back, without thousands separators.

    Examples
    --------
    >>> seed_note({"seed": 483920175, "seed_entropy": 483920175, "seed_spawn_key": [0]}, "--seed {seed}")
    'seed 483920175 (rerun with --seed 483920175)'
    >>> seed_note({"seed": None, "seed_entropy": 12, "seed_spawn_key": [3]})
    'seed entropy 12, spawn key [3]'
    >>> from deckstat.i18n import language
    >>> with language("fr"):
    ...     seed_note({"seed": 483920175}, "--seed {seed}")
    'graine 483920175 (relancer avec --seed 483920175)'
    """
    seed = provenance.get("seed")
    if seed is not None:
        return tr("seed {seed} (rerun with {rerun})", seed=seed, rerun=rerun.format(seed=seed))
    if provenance.get("seed_entropy") is None:
        return ""
    # A Generator that had already been drawn from: no single number gives its streams again.
    return tr("seed entropy {entropy}, spawn key {key}", entropy=provenance["seed_entropy"],
              key=list(provenance.get("seed_spawn_key", [])))


def simulation_note(result, rerun: str = "rng={seed}") -> str:
    """How the simulated numbers of a result were made ("" when every number is exact).

    ``result`` is a :class:`~deckstat.results.Result` or anything with its
    ``provenance`` and ``frames()``; ``rerun`` is as in :func:`seed_note`.
    """
    seed = seed_note(result.provenance, rerun)
    trials = trial_count(result)
    if not seed or trials is None:
        return ""
    return trn("simulated: {n} trial, {seed}, 95% Wilson intervals (± or [low, high])",
               "simulated: {n} trials, {seed}, 95% Wilson intervals (± or [low, high])", trials, seed=seed)


#: Tables beside an answer, simulated on games of their own, whose lines say their trials themselves.
SIDE_TABLES = ("droughts", "effects", "played")


def trial_count(result: Result) -> int | None:
    """The largest trial count of a result's answer tables (None when nothing was simulated; sides left out)."""
    counts = [int(v) for name, frame in result.frames().items() if "n_trials" in frame.columns
              and name not in SIDE_TABLES for v in frame["n_trials"].dropna()]
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
    >>> policy_note({"policy": "none", "policy_text": "card effects are ignored", "effect_cards": [1, 0]})
    "policy none: card effects are ignored; 1 card of the first player's deck and 0 of the second's has a draw or \
mill effect, not played"
    """
    policy = provenance["policy"]
    text = tr("{policy}: {text}", policy=name_of(POLICY_NAMES, policy), text=provenance["policy_text"])
    cards = provenance.get("effect_cards")
    if cards is None or (policy == "none" and not any(cards)):
        return text
    if not any(cards):
        return tr("no card has a draw or mill effect, so only the rules' draws move the decks ({policy})",
                  policy=name_of(POLICY_NAMES, policy))
    if cards[0] == cards[1]:
        text = trn("{text}; {n} card of each deck has a draw or mill effect",
                   "{text}; {n} cards of each deck have a draw or mill effect", cards[0], text=text)
    else:
        first = trn("{n} card of the first player's deck", "{n} cards of the first player's deck", cards[0])
        text = trn("{text}; {first} and {second} of the second's has a draw or mill effect",
                   "{text}; {first} and {second} of the second's have a draw or mill effect", sum(cards), text=text,
                   first=first, second=number(cards[1]))
    return tr("{text}, not played", text=text) if policy == "none" else text


def rules_note(provenance: dict, profile_mulligan: str, p_keep: float | None = None) -> str:
    r"""The mulligan in force, in words ("" when the game has none).

    Examples
    --------
    >>> rules_note({"mulligan_rule": "bottom", "mulligan_limit": 1, "keep": "Terrain>=1"}, "bottom", 0.8734)
    'bottom mulligan (up to 1), keep rule Terrain>=1, first hand kept 87.3%'
    >>> from deckstat.i18n import language
    >>> with language("fr"):
    ...     rules_note({"mulligan_rule": "bottom", "mulligan_limit": 1, "keep": "Terrain>=1"}, "bottom", 0.8734)
    'mulligan sous le deck (1 au plus), règle de garde Terrain>=1, première main gardée à 87,3\xa0%'
    """
    rule = provenance.get("mulligan_rule", "none")
    if rule == "none":
        return tr("no mulligan") if profile_mulligan != "none" else ""
    note = tr("{mulligan} (up to {limit}), keep rule {keep}", mulligan=name_of(MULLIGAN_NAMES, rule),
              limit=number(provenance["mulligan_limit"]), keep=provenance["keep"])
    if p_keep is not None:
        note = tr("{note}, first hand kept {p}", note=note, p=format_probability(p_keep))
    return note


def same_odds_line(merged: pd.DataFrame) -> str:
    """The line under a table whose seats are shown once (:func:`merge_alike_seats`), "" when none is.

    Examples
    --------
    >>> same_odds_line(pd.DataFrame({"seat": ["first", "second"]}))
    ''
    """
    if "seat" in merged.columns and (merged["seat"] == BOTH_SEATS).any():
        return tr("same odds: here the first and the second player's numbers are the same (the same cards dealt "
                  "or drawn alike), so they are shown once")
    return ""


def deckout_order_line(provenance: Mapping) -> str:
    """Why one seat runs out first in every game, when the rules alone decide it ("" otherwise).

    ``provenance["order_by_rules"]`` (:func:`deckstat.deckout`) says when: both decks hold as many cards to draw
    and both players draw alike, so each round takes as many cards from each; the first player draws first
    (``first``), or both draw at the same time (``same_moment``).

    Examples
    --------
    >>> deckout_order_line({"order_by_rules": "first", "drought": False})
    'both decks hold as many cards to draw and both players draw alike, and the first player draws first in each \
round: by the rules, the first player runs out first in every game'
    >>> deckout_order_line({"order_by_rules": None})
    ''
    """
    order = provenance.get("order_by_rules")
    if order == "first" and provenance.get("drought"):
        return tr("both decks hold as many cards to draw and both players draw alike (drought draws take one card "
                  "from each deck at a time), and the first player draws first in each round: by the rules, the "
                  "first player runs out first in every game")
    if order == "first":
        return tr("both decks hold as many cards to draw and both players draw alike, and the first player draws "
                  "first in each round: by the rules, the first player runs out first in every game")
    if order == "same_moment":
        return tr("both decks hold as many cards to draw and both players draw alike, at the same time: by the "
                  "rules, both run out at the same moment in every game")
    return ""


def scoring_line(scoring: pd.DataFrame) -> str:
    """What the deck-out answer becomes at the other end of the Terrain-scoring assumption, in one line.

    ``scoring``: :attr:`deckstat.results.DeckoutResult.scoring`. Seats with the same turns are said once.

    Examples
    --------
    >>> scoring = pd.DataFrame({"seat": ["first", "second"] * 2, "median_turn": [25, 25, 46, 46],
    ...                         "terrain_scoring": ["first_legal_moment"] * 2 + ["never"] * 2,
    ...                         "mean_turn": [24.67, 25.35, 46.0, 46.0]})
    >>> scoring_line(scoring)
    'Terrain scoring is an assumption (« Certains effets de cartes vous permettent de scorer un Terrain »): each \
Terrain scored at the first legal moment (the default), run-out on turn 25 (median); never scored, on turn 46 \
(median; mean 46.00)'
    """
    medians, means = {}, {}
    for end in ("first_legal_moment", "never"):
        rows = scoring[scoring["terrain_scoring"] == end]
        medians[end] = sorted(set(int(m) for m in rows["median_turn"]))
        means[end] = rows["mean_turn"].to_numpy(dtype=float)

    def turns(end: str) -> str:
        if len(medians[end]) == 1:
            return tr("turn {turn}", turn=medians[end][0])
        return tr("turns {turns}", turns=", ".join(map(str, medians[end])))

    never = tr("{turns} (median; mean {mean})", turns=turns("never"), mean=number(float(means["never"][0]), 2)) \
        if np.allclose(means["never"], means["never"][0]) else tr("{turns} (median)", turns=turns("never"))
    return tr("Terrain scoring is an assumption (« Certains effets de cartes vous permettent de scorer un Terrain »): "
              "each Terrain scored at the first legal moment (the default), run-out on {default} (median); never "
              "scored, on {never}", default=turns("first_legal_moment"), never=never)


def curve_scoring_line(scoring: pd.DataFrame) -> str:
    """How far the playability curve moves at the other end of the Terrain-scoring assumption, in one line.

    ``scoring``: :attr:`deckstat.results.CurveResult.scoring`; the line names the largest move (every move:
    ``--format csv``).

    Examples
    --------
    >>> scoring = pd.DataFrame({"terrain_scoring": ["first_legal_moment", "never"], "target": ["Robot", "Robot"],
    ...                         "seat": ["first", "first"], "turn": [5, 5], "p": [0.7714, 0.4886]})
    >>> curve_scoring_line(scoring)
    'Terrain scoring is an assumption (« Certains effets de cartes vous permettent de scorer un Terrain »): with \
each Terrain scored at the first legal moment (the default), Robot is playable by turn 5 in 77.1% of games; never \
scored, in 48.9% (the largest move; every one: --format csv)'
    """
    keys = ["target", "seat", "turn"]
    ends = scoring.pivot_table(index=keys, columns="terrain_scoring", values="p", aggfunc="first", sort=False)
    move = (ends["never"] - ends["first_legal_moment"]).abs()
    target, _, turn = move.idxmax()
    row = ends.loc[move.idxmax()]
    return tr("Terrain scoring is an assumption (« Certains effets de cartes vous permettent de scorer un Terrain »): "
              "with each Terrain scored at the first legal moment (the default), {target} is playable by turn "
              "{turn} in {p} of games; never scored, in {never} (the largest move; every one: --format csv)",
              target=target, turn=turn, p=format_probability(row["first_legal_moment"]),
              never=format_probability(row["never"]))


def drought_play_line(ends: pd.DataFrame) -> str:
    """How far the playability curve moves at the other reading of « ils ne peuvent pas jouer d'autres cartes ».

    ``ends``: :attr:`deckstat.results.CurveResult.drought_play`; the line names the largest move.

    Examples
    --------
    >>> ends = pd.DataFrame({"play_after_drought": [True, False], "target": ["Robot", "Robot"],
    ...                      "seat": ["first", "first"], "turn": [5, 5], "p": [0.502, 0.487]})
    >>> drought_play_line(ends)
    "« ils ne peuvent pas jouer d'autres cartes » is read as lasting while the drought lasts (the default): Robot \
is playable by turn 5 in 50.2% of games; read as the whole turn of the drought, in 48.7% (the largest move; every \
one: --format csv)"
    """
    keys = ["target", "seat", "turn"]
    wide = ends.pivot_table(index=keys, columns="play_after_drought", values="p", aggfunc="first", sort=False)
    move = (wide[False] - wide[True]).abs()
    target, _, turn = move.idxmax()
    row = wide.loc[move.idxmax()]
    return tr("« ils ne peuvent pas jouer d'autres cartes » is read as lasting while the drought lasts (the "
              "default): {target} is playable by turn {turn} in {p} of games; read as the whole turn of the "
              "drought, in {other} (the largest move; every one: --format csv)", target=target, turn=turn,
              p=format_probability(row[True]), other=format_probability(row[False]))


def drought_line(droughts: pd.DataFrame) -> str:
    """How far an answer that leaves Wankul's drought draws out moves with them, in one line (the largest move).

    ``droughts``: :attr:`deckstat.results.OddsResult.droughts`.

    Examples
    --------
    >>> droughts = pd.DataFrame({"event": ["Robot>=1", "Robot>=1"], "seat": ["first", "first"], "turn": [5, 6],
    ...                          "p_without": [0.479, 0.518], "p": [0.511, 0.567]})
    >>> print(drought_line(droughts))
    drought draws (« les joueurs piochent une carte à la fois jusqu'à en trouver un ») are left out of this \
answer; with them, both players' turns played (simulated), Robot>=1 holds by turn 6 in 56.7% of games instead of \
51.8% (the largest move; every one: --format csv)
    """
    row, event = _largest_move(droughts, droughts["p"] - droughts["p_without"])
    return tr("drought draws (« les joueurs piochent une carte à la fois jusqu'à en trouver un ») are left out of "
              "this answer; with them, both players' turns played (simulated), {event} holds by turn {turn} in {p} "
              "of games instead of {without} (the largest move; every one: --format csv)", event=event,
              turn=int(row["turn"]), p=format_probability(row["p"]), without=format_probability(row["p_without"]))


def effects_line(effects: pd.DataFrame) -> str:
    """What the deck's draw effects change in an answer that leaves them out, in one line (the largest gain).

    ``effects``: :attr:`deckstat.results.OddsResult.effects`.

    Examples
    --------
    >>> effects = pd.DataFrame({"event": ["Robot>=1"] * 2, "seat": ["first"] * 2, "turn": [1, 2],
    ...                         "p_without": [0.304, 0.351], "p": [0.379, 0.438], "gain": [0.075, 0.087],
    ...                         "gain_low": [0.072, 0.084], "gain_high": [0.078, 0.090], "droughts": False})
    >>> print(effects_line(effects))
    card effects are left out of this answer (docs/effects.md); on simulated games, Robot>=1 holds by turn 2 in \
43.8% of games with the effects played and in 35.1% without: the effects add 8.7 points [8.4, 9.0] (the largest \
gain; every one: --format csv)
    """
    row, event, numbers = _largest_gain(effects, "event")
    if bool(row["droughts"]):
        text = N_("card effects are left out of this answer (docs/effects.md); on simulated games with the drought "
                  "draws, {event} holds by turn {turn} in {p} of games with the effects played and in {without} "
                  "without: the effects add {gain} points [{low}, {high}] (the largest gain; every one: --format "
                  "csv)")
    else:
        text = N_("card effects are left out of this answer (docs/effects.md); on simulated games, {event} holds by "
                  "turn {turn} in {p} of games with the effects played and in {without} without: the effects add "
                  "{gain} points [{low}, {high}] (the largest gain; every one: --format csv)")
    return tr(text, event=event, **numbers)


def compare_played_line(played: pd.DataFrame) -> str:
    """How a comparison moves with the drought draws and card effects it leaves out, in one line (the largest move).

    ``played``: :attr:`deckstat.results.CompareResult.played`.

    Examples
    --------
    >>> played = pd.DataFrame({"deck_a": ["a.csv"] * 2, "deck_b": ["b.csv"] * 2, "event": ["Robot>=1"] * 2,
    ...                        "seat": ["first"] * 2, "turn": [2, 6], "diff": [0.038, 0.042],
    ...                        "diff_ci_low": [0.031, 0.035], "diff_ci_high": [0.045, 0.049],
    ...                        "diff_without": [0.0, 0.0], "droughts": [True] * 2, "effects_a": [False] * 2,
    ...                        "effects_b": [True] * 2})
    >>> print(compare_played_line(played))
    with the drought draws and card effects this answer leaves out, played on simulated games, b.csv − a.csv for \
Robot>=1 by turn 6 is +4.2 points [3.5, 4.9] instead of +0.0 (the largest move; every one: --format csv)
    """
    row, event = _largest_move(played, played["diff"] - played["diff_without"])
    lead = _played_lead(bool(played["droughts"].any()),
                        bool(played["effects_a"].any() or played["effects_b"].any()))

    def points(value: float) -> str:
        text = number(round(100 * float(value), 1) + 0.0, 1)  # + 0.0: no "-0.0"
        return text if text.startswith("-") else "+" + text

    return tr("{lead}, {deck_b} − {deck_a} for {event} by turn {turn} is {diff} points [{low}, {high}] instead of "
              "{without} (the largest move; every one: --format csv)", lead=lead, deck_a=row["deck_a"],
              deck_b=row["deck_b"], event=event, turn=int(row["turn"]), diff=points(row["diff"]),
              low=number(100 * float(row["diff_ci_low"]), 1), high=number(100 * float(row["diff_ci_high"]), 1),
              without=points(row["diff_without"]))


def ratio_played_line(played: pd.DataFrame, group: str) -> str:
    """How a resource-count sweep moves with the drought draws and card effects it leaves out (the largest move).

    ``played``: :attr:`deckstat.results.RatioResult.played`; ``group``: the resource group's label.

    Examples
    --------
    >>> played = pd.DataFrame({"event": ["Terrain>=1"] * 2, "seat": ["first"] * 2, "resource_count": [5, 10],
    ...                        "turn": [3, 3], "p_without": [0.794, 0.964], "p": [0.901, 0.974],
    ...                        "droughts": [True] * 2, "effects": [False] * 2})
    >>> print(ratio_played_line(played, "Terrain"))
    with the drought draws this answer leaves out, played on simulated games, at 5 Terrain cards Terrain>=1 holds \
by turn 3 in 90.1% of games instead of 79.4% (the largest move; every one: --format csv)
    """
    row, _ = _largest_move(played, played["p"] - played["p_without"])
    return tr("{lead}, at {count} {group} cards {event} holds by turn {turn} in {p} of games instead of {without} "
              "(the largest move; every one: --format csv)",
              lead=_played_lead(bool(played["droughts"].any()), bool(played["effects"].any())),
              count=int(row["resource_count"]), group=group, event=row["event"], turn=int(row["turn"]),
              p=format_probability(row["p"]), without=format_probability(row["p_without"]))


def mulligan_played_line(played: pd.DataFrame) -> str:
    """How what the mulligan buys moves with the drought draws and card effects it leaves out (the largest move).

    ``played``: :attr:`deckstat.results.MulliganResult.played`, with rows under the rule and keeping every first
    hand (``mulligan_rule`` ``none``); "" without both.

    Examples
    --------
    >>> played = pd.DataFrame({"event": ["Terrain>=1"] * 2, "seat": ["first"] * 2, "turn": [4, 4],
    ...                        "mulligan_rule": ["bottom", "none"], "p_without": [0.975, 0.891],
    ...                        "p": [0.993, 0.974], "droughts": [True] * 2, "effects": [False] * 2})
    >>> print(mulligan_played_line(played))
    with the drought draws this answer leaves out, played on simulated games, the mulligan lifts Terrain>=1 by \
turn 4 by 1.9 points (99.3% against 97.4% keeping every first hand) instead of 8.4 (the largest move; every one: \
--format csv)
    """
    keys = ["event", "seat", "turn"]
    rule = played[played["mulligan_rule"] != "none"]
    none = played[played["mulligan_rule"] == "none"]
    if rule.empty or none.empty:
        return ""
    both = rule.merge(none, on=keys, suffixes=("", "_none"))
    gain, answer = both["p"] - both["p_none"], both["p_without"] - both["p_without_none"]
    row, event = _largest_move(both, gain - answer)
    return tr("{lead}, the mulligan lifts {event} by turn {turn} by {gain} points ({p} against {none} keeping every "
              "first hand) instead of {answer} (the largest move; every one: --format csv)",
              lead=_played_lead(bool(played["droughts"].any()), bool(played["effects"].any())), event=event,
              turn=int(row["turn"]), gain=number(100 * float(row["p"] - row["p_none"]), 1),
              p=format_probability(row["p"]), none=format_probability(row["p_none"]),
              answer=number(100 * float(row["p_without"] - row["p_without_none"]), 1))


#: How a line about a side played on simulated games begins, by (drought draws, card effects) played.
_PLAYED_LEADS = {
    (True, True): N_("with the drought draws and card effects this answer leaves out, played on simulated games"),
    (True, False): N_("with the drought draws this answer leaves out, played on simulated games"),
    (False, True): N_("with the card effects this answer leaves out, played on simulated games"),
}


def _played_lead(droughts: bool, effects: bool) -> str:
    """The beginning of a line about what an answer leaves out, played (:data:`_PLAYED_LEADS`)."""
    return tr(_PLAYED_LEADS[droughts, effects])


def _largest_move(table: pd.DataFrame, move, label: str = "event") -> tuple[pd.Series, str]:
    """The row of ``table`` where ``move`` is largest in size, and its ``label`` (with the seat when seats differ)."""
    row = table.iloc[int(np.argmax(np.abs(np.asarray(move, dtype=float))))]
    shown = row[label]
    if table["seat"].nunique() > 1:
        shown = tr("{event} ({seat})", event=shown, seat=seat_words(row["seat"]))
    return row, shown


def _largest_gain(effects: pd.DataFrame, label: str) -> tuple[pd.Series, str, dict]:
    """The row of an effects table with the largest gain, its label (with the seat when seats differ), its numbers.

    The numbers are the message fields ``turn``, ``p``, ``without``, ``gain``, ``low`` and ``high`` (in points).
    """
    row, shown = _largest_move(effects, effects["gain"], label)
    return row, shown, {"turn": int(row["turn"]), "p": format_probability(row["p"]),
                        "without": format_probability(row["p_without"]),
                        "gain": number(100 * float(row["gain"]), 1), "low": number(100 * float(row["gain_low"]), 1),
                        "high": number(100 * float(row["gain_high"]), 1)}


def curve_effects_line(effects: pd.DataFrame) -> str:
    """What the deck's draw effects change in a playability curve that leaves them out, in one line (the largest).

    ``effects``: :attr:`deckstat.results.CurveResult.effects`.

    Examples
    --------
    >>> effects = pd.DataFrame({"target": ["Robot"] * 2, "seat": ["first"] * 2, "turn": [1, 2],
    ...                         "p_without": [0.281, 0.333], "p": [0.356, 0.427], "gain": [0.075, 0.094],
    ...                         "gain_low": [0.073, 0.093], "gain_high": [0.076, 0.096]})
    >>> print(curve_effects_line(effects))
    card effects are left out of this answer (docs/effects.md); on the same games with their draws played, Robot \
is playable by turn 2 in 42.7% of games instead of 33.3%: the effects add 9.4 points [9.3, 9.6] (the largest \
gain; every one: --format csv)
    """
    _, target, numbers = _largest_gain(effects, "target")
    return tr("card effects are left out of this answer (docs/effects.md); on the same games with their draws "
              "played, {target} is playable by turn {turn} in {p} of games instead of {without}: the effects add "
              "{gain} points [{low}, {high}] (the largest gain; every one: --format csv)", target=target, **numbers)


def game_end_line(game_end: pd.DataFrame, when_text: str) -> str:
    r"""When the game ends by deck-out, in one line: the median turn (with mean and range when it varies).

    Examples
    --------
    >>> table = pd.DataFrame({"turn": [24], "p": [1.0], "cdf": [1.0]})
    >>> game_end_line(table, "at the later of the two decks' run-out turns")
    "the game ends by deck-out on turn 24, at the later of the two decks' run-out turns"
    >>> table = pd.DataFrame({"turn": [20, 21], "p": [0.25, 0.75], "cdf": [0.25, 1.0]})
    >>> from deckstat.i18n import language
    >>> with language("fr"):
    ...     game_end_line(table, "…")
    "la partie s'arrête faute de cartes au tour 21 (médiane\xa0; moyenne 20,75, au plus tôt 20, au plus tard 21), …"
    """
    turns, p = game_end["turn"].to_numpy(), game_end["p"].to_numpy(dtype=float)
    median = int(turns[np.searchsorted(game_end["cdf"].to_numpy(dtype=float), 0.5)])
    if len(turns) == 1:
        return tr("the game ends by deck-out on turn {turn}, {when}", turn=median, when=when_text)
    mean = float(np.dot(turns, p) / p.sum())
    return tr("the game ends by deck-out on turn {turn} (median; mean {mean}, earliest {earliest}, latest {latest}), "
              "{when}", turn=median, mean=number(mean, 2), earliest=int(turns.min()), latest=int(turns.max()),
              when=when_text)


def _ordinal(n: int) -> str:
    """``n`` as an ordinal: ``3rd``; French ``3e``."""
    if get_language() == "fr":
        return f"{n}er" if n == 1 else f"{n}e"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _points_words(change: float, low: float, high: float, method: str) -> tuple[str, str]:
    """How a move changes the answer (``gain``, ``cost`` or ``none``) and its size in points (``2.1 pts``)."""
    if change == 0 or (method == "simulate" and low <= 0 <= high):
        return "none", ""
    size = abs(float(change)) * 100
    shown = localise_number(f"{size:.1f}")
    return ("gain" if change > 0 else "cost"), trn("{points} pt", "{points} pts", round(size, 1),
                                                   points=shown)


def sensitivity_sentences(result) -> list[str]:
    """One sentence per card of a :func:`deckstat.sensitivity` table: what cutting a copy and adding one do.

    « couper Ninja du Marché coûte 0,3 pt ; un 3e Robot Camembert rapporte 2,1 pts »; a move that breaks a rule
    says so, with its legal version when there is one.
    """
    sentences = []
    for card, rows in result.table.groupby("card", sort=False):
        parts = []
        for row in rows.itertuples(index=False):
            how, points = _points_words(row.change, row.ci_low, row.ci_high, row.method)
            if row.move == "-1":
                text = {"gain": tr("cutting {card} gains {points}", card=card, points=points),
                        "cost": tr("cutting {card} costs {points}", card=card, points=points),
                        "none": tr("cutting {card} changes nothing measurable", card=card)}[how]
                swap = tr("filled by {other}", other=row.swap_card)
            else:
                nth = _ordinal(int(row.count_after))
                text = {"gain": tr("a {nth} {card} gains {points}", nth=nth, card=card, points=points),
                        "cost": tr("a {nth} {card} costs {points}", nth=nth, card=card, points=points),
                        "none": tr("a {nth} {card} changes nothing measurable", nth=nth, card=card)}[how]
                swap = tr("in place of {other}", other=row.swap_card)
            if not row.legal:
                if isinstance(row.swap_card, str):
                    how, points = _points_words(row.swap_change, row.swap_ci_low, row.swap_ci_high, row.method)
                    legal = {"gain": tr("{swap}: gains {points}", swap=swap, points=points),
                             "cost": tr("{swap}: costs {points}", swap=swap, points=points),
                             "none": tr("{swap}: changes nothing measurable", swap=swap)}[how]
                    text = tr("{text} (not legal alone; {legal})", text=text, legal=legal)
                else:
                    text = tr("{text} (not legal)", text=text)
            parts.append(text)
        sentences.append(tr("; ").join(parts))
    return sentences


def sensitivity_rows(result) -> list[dict]:
    """One row per card of a :func:`deckstat.sensitivity` table, as the command line and the report show it.

    ``card``, ``count``, and for each move (``minus``, ``plus``) its change as text, with its interval when
    simulated, marked ✗ when the move breaks a rule alone.
    """
    rows = []
    for card, moves in result.table.groupby("card", sort=False):
        row = {"card": card, "count": int(moves["count"].iloc[0]), "minus": "", "plus": ""}
        for move in moves.itertuples(index=False):
            text = format_difference(move.change, move.ci_low, move.ci_high, move.method)
            row["minus" if move.move == "-1" else "plus"] = text if move.legal else f"{text} ✗"
        rows.append(row)
    return rows
