"""The tables of results for the terminal: percentages with their intervals, one :class:`Grid` per view.

Each function describes a table as columns of text, with the identifiers
each column shows, what matters most and the abbreviations it may take;
:mod:`deckstat.cli.layout` lays it out for the terminal's width. Seats whose
numbers are the same (games where both draw alike) are shown once, as the
figures show them (:func:`deckstat.present.format.merge_alike_seats`).
"""

from __future__ import annotations

import pandas as pd

from deckstat.cli.layout import Grid
from deckstat.cli.word_tables import key_value_table as key_value_table  # public here too; games show takes it light
from deckstat.i18n import N_, localise_number, number, tr, trn
from deckstat.present.format import (
    BOTH_SEATS,
    event_words,
    format_difference,
    format_estimate,
    format_points,
    format_probability,
    group_words,
    merge_alike_seats,
    same_odds_line,
    seat_words,
)
from deckstat.results import CompareResult, MulliganResult, RatioResult
from deckstat.terms import MULLIGAN_NAMES, name_of

#: Column headers a table takes from a result's columns, as a player reads them.
HEADERS = {"turn": N_("turn"), "count": N_("count"), "resource_count": N_("resource_count"), "seat": N_("seat"),
           "event": N_("event"), "deck": N_("deck"), "mean_turn": N_("mean_turn"),
           "median_turn": N_("median_turn"), "earliest_turn": N_("earliest_turn"),
           "latest_turn": N_("latest_turn")}
#: What a keep-or-mulligan decision and a construction rule's level read as.
WORDS = {"keep": N_("keep"), "mulligan": N_("mulligan"), "error": N_("error"), "warning": N_("warning")}
#: The numbers of a row that two seats must share for the row to be shown once.
ESTIMATE = ["p", "ci_low", "ci_high", "n_trials", "method"]


def header(column: str) -> str:
    """The header of a column named after a result's column (``turn``), in the language."""
    return tr(HEADERS[column]) if column in HEADERS else column


def word(value: str) -> str:
    """A decision or level of a result (``keep``, ``error``) in the language; other text as it is."""
    return tr(WORDS[value]) if value in WORDS else str(value)


#: A seat as a cell of a table's seat column reads it, under a "seat" header ("joueur": premier, second).
SEAT_CELLS = {"first": N_("first"), "second": N_("second"), BOTH_SEATS: N_("both (same odds)")}


def seat_cell(seat: str) -> str:
    """A seat in a table's seat column, under a "seat" header: ``first``, "premier" in French.

    Seats shown once because their numbers are the same read "both (same odds)"; a seat of known cards, "from
    now".
    """
    return tr(SEAT_CELLS[seat]) if seat in SEAT_CELLS else seat_words(seat)


def same_odds_note(merged: pd.DataFrame) -> list[str]:
    """The line under a table whose seats are shown once (:func:`~deckstat.present.format.merge_alike_seats`)."""
    line = same_odds_line(merged)
    return [line] if line else []


def odds_table(frame: pd.DataFrame) -> Grid:
    """A turn-by-seat table of percentages, one column per event and seat.

    Odds with known cards asked by cards drawn (no turn) have a row per number of cards drawn instead.
    """
    row_key = "draws" if "draws" in frame.columns and frame["turn"].isna().all() else "turn"
    merged = merge_alike_seats(frame, ESTIMATE, by=["event"], order=(row_key,))
    events = list(dict.fromkeys(merged["event"]))
    keys = sorted(set(merged[row_key]))
    grid = Grid([])
    grid.add(tr("cards drawn") if row_key == "draws" else header("turn"), keys, names=(row_key,), key=True)
    cells = {(getattr(r, row_key), r.event, r.seat): format_estimate(r.p, r.ci_low, r.ci_high, r.method)
             for r in merged.itertuples(index=False)}
    once = len(events) > 1 and (merged["seat"] == BOTH_SEATS).all()
    for event in events:
        for seat in dict.fromkeys(merged.loc[merged["event"] == event, "seat"]):
            who = seat_words(seat)
            # Several events whose seats are all shown once: the events alone, and a line under the table.
            label = who if len(events) == 1 else event if once else f"{event}\n{who}"
            grid.add(label, [cells.get((key, event, seat), "–") for key in keys], names=("p", seat), block=event)
    grid.notes += same_odds_note(merged)
    return grid


def when_table(frame: pd.DataFrame) -> Grid:
    """First-turn distribution: P(first holds on turn t) and P(holds by turn t), per event and seat."""
    merged = merge_alike_seats(frame, ESTIMATE + ["cdf", "cdf_low", "cdf_high"], by=["event"])
    events = list(dict.fromkeys(merged["event"]))
    turns = sorted(set(merged["turn"]))
    rows = {(r.turn, r.event, r.seat): r for r in merged.itertuples(index=False)}
    once = (merged["seat"] == BOTH_SEATS).all()
    grid = Grid([])
    grid.add(header("turn"), turns, names=("turn",), key=True)
    for event in events:
        prefix = f"{event}\n" if len(events) > 1 else ""
        for seat in dict.fromkeys(merged.loc[merged["event"] == event, "seat"]):
            who = seat_words(seat)
            firsts = [rows[(t, event, seat)] for t in turns]
            # Every seat shown once: the line under the table says so, the headers need not.
            grid.add(prefix + (tr("first on\nturn") if once else tr("{who}:\nfirst on turn", who=who)),
                     [format_estimate(r.p, r.ci_low, r.ci_high, r.method) for r in firsts], names=("p", seat),
                     block=f"{event} {seat}")
            grid.add(prefix + (tr("by\nturn") if once else tr("{who}:\nby turn", who=who)),
                     [format_estimate(r.cdf, r.cdf_low, r.cdf_high, r.method) for r in firsts], names=("cdf", seat),
                     block=f"{event} {seat}")
    grid.notes += same_odds_note(merged)
    return grid


def curve_table(frame: pd.DataFrame, summary: pd.DataFrame) -> Grid:
    """Playability: one row per target and seat, P(playable by turn t) per turn, then the first playable turn.

    Cells show the estimate alone, so that ten turns fit a terminal; the intervals are in ``--format csv``.
    ``mean`` is the mean first playable turn among games where it comes by the last turn, ``>tN`` the
    probability that it does not. A target whose seats have the same numbers has one row.
    """
    merged = merge_alike_seats(frame, ESTIMATE, by=["target"])
    merged_summary = merge_alike_seats(summary, ["mean_turn", "p_never", "n_trials", "method"], by=["target"],
                                       order=())
    # A target is shown once when both its curve and its summary are the same for both seats.
    once = set(merged_summary.loc[merged_summary["seat"] == BOTH_SEATS, "target"]) & \
        set(merged.loc[merged["seat"] == BOTH_SEATS, "target"])

    def rows(merged_rows: pd.DataFrame, original: pd.DataFrame) -> pd.DataFrame:
        return pd.concat([merged_rows[merged_rows["target"] == t] if t in once else original[original["target"] == t]
                          for t in dict.fromkeys(summary["target"])], ignore_index=True)

    rows_summary, shown = rows(merged_summary, summary), rows(merged, frame)
    turns = sorted(set(shown["turn"]))
    by_turn = {(r.target, r.seat, r.turn): r for r in shown.itertuples(index=False)}
    every_row_once = bool(len(rows_summary)) and (rows_summary["seat"] == BOTH_SEATS).all()
    grid = Grid([], title=tr("P(playable on or before turn t), in %"))
    grid.add(tr("card or group"), rows_summary["target"], names=("target",), key=True, text=True, justify="left")
    if not every_row_once:
        grid.add(header("seat"), [seat_cell(s) for s in rows_summary["seat"]], names=("seat",), key=True, text=True,
                 justify="left")
    for turn in turns:
        grid.add(f"t{turn}", [_percent(by_turn[(s.target, s.seat, turn)].p) for s in
                               rows_summary.itertuples(index=False)], names=("p", f"t{turn}"))
    grid.add(tr("mean"), ["—" if s.mean_turn != s.mean_turn else number(s.mean_turn, 2)
                          for s in rows_summary.itertuples(index=False)], names=("mean_turn",), rank=1)
    grid.add(f">t{turns[-1]}", [_percent(s.p_never) for s in rows_summary.itertuples(index=False)],
             names=("p_never",), rank=1)
    grid.notes += same_odds_note(rows_summary)
    return grid


def _percent(p: float) -> str:
    """A probability in percent with one decimal, never rounded to a certainty it is not (``>99.9``, ``<0.1``)."""
    if 0 < p < 0.0005:
        return localise_number("<0.1")
    if 0.9995 <= p < 1:
        return localise_number(">99.9")
    return number(100 * p, 1)


def frame_table(frame: pd.DataFrame, headers: dict[str, str] | None = None) -> Grid:
    """A plain table of a small DataFrame, every cell shown as text, the first column a row label.

    Columns are headed ``headers`` (default: as named).
    """
    grid = Grid([])
    for index, column in enumerate(frame.columns):
        grid.add((headers or {}).get(column, column), frame[column], names=(column,), key=index == 0,
                 text=frame[column].dtype == object)
    return grid


def distribution_table(frame: pd.DataFrame, row_key: str, column_key: str, value: str = "p",
                       formatted: bool = False) -> Grid:
    """A table with one row per ``row_key`` value and one column per ``column_key`` value.

    Values are probabilities shown as percentages, or text already formatted
    when ``formatted`` is true. Seats as columns are named as a player reads them.
    """
    grid = Grid([])
    keys = sorted(set(frame[row_key]))
    grid.add(header(row_key), keys, names=(row_key,), key=True)
    values = {(getattr(r, row_key), getattr(r, column_key)): getattr(r, value)
              for r in frame.itertuples(index=False)}
    for column in dict.fromkeys(frame[column_key]):
        cells = [values.get((key, column), "–" if formatted else float("nan")) for key in keys]
        grid.add(seat_words(column) if column_key == "seat" else column,
                 [c if formatted else format_probability(c) for c in cells], names=(value, str(column)))
    if column_key == "seat":
        grid.notes += same_odds_note(frame)
    return grid


def violations_table(frame: pd.DataFrame) -> Grid:
    """A table of construction-rule violations (the deck part shown when there are several)."""
    grid = Grid([])
    multi = frame["part"].nunique() > 1 if len(frame) else False
    if multi:
        grid.add(header("deck"), frame["part"], names=("part",), key=True, text=True, justify="left")
    grid.add(tr("level"), [word(level) for level in frame["level"]], names=("level",), text=True, justify="left")
    for column, name in ((N_("subject"), "subject"), (N_("found"), "found"), (N_("allowed"), "allowed"),
                         (N_("rule"), "rule")):
        grid.add(tr(column), frame[name], names=(name,), text=True, justify="left", key=name == "subject")
    return grid


def mulligan_tables(result: MulliganResult) -> list[Grid]:
    """The keep rate and mulligans taken, the kept hand by group, and the by-turn odds with and without."""
    summary = result.summary.iloc[0]
    rule = summary["mulligan_rule"]
    keep = key_value_table([
        (tr("keep the first hand"), format_estimate(summary["p_keep_first"], summary["ci_low"], summary["ci_high"],
                                                    summary["method"])),
        (tr("expected mulligans"), number(summary["expected_mulligans"], 3)),
    ] + [(trn("{n} mulligan", "{n} mulligans", int(r.mulligans)),
          format_estimate(r.p, r.ci_low, r.ci_high, r.method)) for r in result.mulligans.itertuples(index=False)])
    by_turn = result.by_turn
    with_rule = by_turn[by_turn["mulligan_rule"] == rule].reset_index(drop=True)
    without = by_turn[by_turn["mulligan_rule"] == "none"].reset_index(drop=True)
    paired = with_rule.assign(p_without=without["p"].to_numpy())
    merged = merge_alike_seats(paired, ESTIMATE + ["p_without"], by=["event"])
    keys = [k for k in ("event", "seat") if merged[k].nunique() > 1]
    turns = Grid([])
    for k in keys:
        turns.add(header(k), [seat_cell(s) for s in merged["seat"]] if k == "seat" else merged[k], names=(k,),
                  key=True, text=True, justify="left")
    turns.add(header("turn"), merged["turn"], names=("turn",), key=True)
    turns.add(tr("with {mulligan}", mulligan=name_of(MULLIGAN_NAMES, rule)),
              [format_estimate(r.p, r.ci_low, r.ci_high, r.method) for r in merged.itertuples(index=False)],
              names=("p", rule))
    turns.add(tr("keep every hand"), [format_probability(p) for p in merged["p_without"]], names=("p", "none"))
    turns.add(tr("difference"), [format_points(r.p - r.p_without, 1) for r in merged.itertuples(index=False)],
              names=("difference",))
    turns.notes += same_odds_note(merged)
    kept = result.kept_hand.assign(group=[group_words(g) for g in result.kept_hand["group"]])
    return [keep, distribution_table(kept, "count", "group"), turns]


def ratio_table(result: RatioResult, facts: tuple[str, ...]) -> Grid:
    """One row per resource count: legality, screw and flood, mulligan, first resource turn, deck-out, P(event).

    ``facts`` are the columns of a count's facts that mean something in the zone asked
    (:func:`deckstat.questions.ratio.facts_for_zone`). The deck's own count reads "(now)"; "◀" follows each
    event's probability at the target turn on its recommended (legal) count, "★" the best count of the curve
    objective. When the table is too wide, the facts go first, then the turns furthest from the target.
    """
    frame = result.table
    provenance = result.provenance
    methods = provenance.get("methods", {})
    summary = result.summary.iloc[0]
    group, flood = summary["group"], summary["flood"]
    events = list(dict.fromkeys(frame["event"]))
    turns = sorted(set(frame["turn"]))
    target_turn = int(summary["target_turn"])
    counts = sorted(set(frame["resource_count"]))
    firsts = frame.groupby("resource_count", sort=True).first()
    recommended = {(row.event, int(row.target_turn)): int(row.recommended)
                   for row in result.summary.itertuples(index=False) if not pd.isna(row.recommended)}
    best = {(row.event, int(row.target_turn)): int(row.best)
            for row in result.summary.itertuples(index=False) if not pd.isna(getattr(row, "best", None))}

    def approx(column: str) -> str:
        return "≈ " if methods.get(column) == "simulate" else ""

    def facts_of(column: str) -> list:
        return [firsts.loc[k, column] for k in counts]

    grid = Grid([])
    grid.add(tr("{group}\ncards", group=group), [tr("{count} (now)", count=k) if firsts.loc[k, "is_current"]
                                                   else str(k) for k in counts],
             names=("resource_count",), key=True)
    if "legal" in facts:
        grid.add(tr("legal"), ["✓" if legal else "✗" for legal in facts_of("legal")], names=("legal",),
                 justify="center")
    if "p_resource_in_hand" in facts:
        grid.add(tr("P({group}\nin hand)", group=group),
                 [approx("p_resource_in_hand") + format_probability(p) for p in facts_of("p_resource_in_hand")],
                 names=("p_resource_in_hand",), rank=7,
                 short=tr("≥1 in\nhand"), meaning=tr("P(at least 1 {group} card in the kept hand)", group=group))
    if "p_flood_in_hand" in facts:
        grid.add(tr("P({group}≥{flood}\nin hand)", group=group, flood=flood),
                 [approx("p_flood_in_hand") + format_probability(p) for p in facts_of("p_flood_in_hand")],
                 names=("p_flood_in_hand",), rank=3,
                 short=tr("≥{flood} in\nhand", flood=flood),
                 meaning=tr("P(at least {flood} {group} cards in the kept hand: flood)", flood=flood, group=group))
    if "mulligan_rate" in facts and "mulligan_rate" in frame.columns:
        grid.add(tr("mulligan\nrate"), [approx("mulligan_rate") + format_probability(p)
                                        for p in facts_of("mulligan_rate")], names=("mulligan_rate",), rank=4,
                 short=tr("mull."), meaning=tr("mulligan rate, games with a mulligan"))
    if "expected_first_resource_turn" in facts:
        grid.add(tr("first {group}\nturn (mean)", group=group),
                 ["–" if mean != mean else approx("expected_first_resource_turn") + number(mean, 2)  # NaN at 0
                  for mean in facts_of("expected_first_resource_turn")],
                 names=("expected_first_resource_turn",), rank=5,
                 short=tr("1st\nturn"), meaning=tr("mean first turn with a {group} card", group=group))
    if "deckout_turn_first" in facts and frame["deckout_turn_first"].notna().any():
        simulated = methods.get("deckout_turn_first") == "simulate"
        grid.add(tr("deck runs out\n(mean turn,\nsimulated)") if simulated else tr("deck runs out\n(turn, exact)"),
                 ["–" if turn != turn else "≈ " + number(turn, 2) if simulated else number(turn)
                  for turn in facts_of("deckout_turn_first")], names=("deckout_turn_first",), rank=6,
                 short=tr("deck\nout"), meaning=tr("mean turn the deck runs out") if simulated else
                 tr("turn the deck runs out"))
    if "target_copies" in facts and "target_copies" in frame.columns:
        grid.add(tr("{card}\ncopies", card=provenance.get("card") or provenance.get("curve_group")),
                 facts_of("target_copies"), names=("target_copies",), rank=1)
    where = {"hand": tr("kept hand"),
             "set_aside": tr("in the {set_aside}", set_aside=provenance.get("set_aside_name", "set-aside cards"))}
    cells = {}
    for r in frame.itertuples(index=False):
        mark = " ◀" if recommended.get((r.event, r.turn)) == r.resource_count else ""
        mark += " ★" if best.get((r.event, r.turn)) == r.resource_count else ""
        cells[r.resource_count, r.event, r.turn] = format_estimate(r.p, r.ci_low, r.ci_high, r.method) + mark
    for event in events:
        for turn in turns:
            when = where.get(summary["zone"]) or tr("turn {turn}", turn=turn)
            grid.add(when if len(events) == 1 else f"{event_words(event, provenance)}\n{when}",
                     [cells.get((k, event, turn), "–") for k in counts], names=("p", f"t{turn}"),
                     # The target turn is the answer; the others go when the table is too wide, furthest first.
                     rank=0 if turn == target_turn else 2 + abs(turn - target_turn) / 1000)
    return grid


def compare_table(result: CompareResult) -> Grid:
    """One row per other deck, event, seat and turn: both decks' odds and the difference.

    An exact difference is written alone under a header that says so; a simulated one with its 95% interval and
    the p-value of "no difference". Seats with the same numbers are one row.
    """
    frame = result.table
    several = frame["event"].nunique() > 1 or frame["deck_b"].nunique() > 1
    # With known cards asked by cards drawn, a row is a number of cards drawn, not a turn.
    by_draws = "draws" in frame.columns and frame["turn"].isna().all()
    row_key = "draws" if by_draws else "turn"
    merged = merge_alike_seats(frame, ["p_a", "p_b", "diff", "diff_ci_low", "diff_ci_high", "p_value", "method"],
                               by=["deck_b", "event"], order=(row_key,))
    # Each deck's own interval, from its odds table, so that a simulated p is written with its digits.
    first_seat = frame["seat"].iloc[0] if len(frame) else None
    odds = {(o.deck, o.event, o.seat, getattr(o, row_key)): o for o in result.odds.itertuples(index=False)}

    def shown(deck: str, r, p: float) -> str:
        o = odds.get((deck, r.event, first_seat if r.seat == BOTH_SEATS else r.seat, getattr(r, row_key)))
        return format_probability(p) if o is None else format_estimate(p, o.ci_low, o.ci_high, o.method)

    exact = (merged["method"] != "simulate").all()
    simulated = (merged["method"] == "simulate").all()
    grid = Grid([])
    rows = list(merged.itertuples(index=False))
    if several:
        grid.add(header("event"), [r.event for r in rows], names=("event",), key=True, text=True)
        grid.add(header("deck"), [r.deck_b for r in rows], names=("deck_b",), key=True, text=True)
    grid.add(tr("cards drawn") if by_draws else header("turn"), [getattr(r, row_key) for r in rows],
             names=(row_key,), key=True)
    # No seat column when the seats are shown once (the line under the table says so) or the question is asked
    # from now, with known cards, where no seat is meant.
    if set(merged["seat"]) - {BOTH_SEATS, "now"}:
        grid.add(header("seat"), [seat_cell(r.seat) for r in rows], names=("seat",), key=True, text=True)
    grid.add(tr("deck A"), [shown(r.deck_a, r, r.p_a) for r in rows], names=("p_a",), rank=1)
    grid.add(tr("deck B"), [shown(r.deck_b, r, r.p_b) for r in rows], names=("p_b",), rank=1)
    difference = tr("B − A\n(exact difference)") if exact else tr("B − A\n[95% interval]")
    grid.add(difference, [format_difference(r.diff, r.diff_ci_low, r.diff_ci_high, r.method) +
                          ("" if exact or r.method == "simulate" else " " + tr("(exact)")) for r in rows],
             names=("diff", "diff_ci_low", "diff_ci_high"))
    if not exact:
        grid.add(tr("p-value"), ["–" if r.method != "simulate" else
                                 localise_number(f"{r.p_value:.2g}" if r.p_value >= 1e-4 else "< 0.0001")
                                 for r in rows], names=("p_value",), rank=2)
    if exact:
        grid.notes.append(tr("exact difference: both decks' odds are computed exactly, so the difference has no "
                             "interval and no p-value"))
    elif not simulated:
        grid.notes.append(tr("(exact): computed exactly, with no interval and no p-value"))
    grid.notes += same_odds_note(merged)
    return grid


def hand_advice_table(frame: pd.DataFrame) -> Grid:
    """One row per seat: P(event by the turn) if the hand is kept, if it is mulliganed, the margin and the advice.

    Under the Hearthstone rule the mulligan is the best cards to replace; an
    advice the rule forces (Pokémon) says so.
    """
    replacing = (frame["mulligan_rule"] == "hearthstone").any()
    merged = merge_alike_seats(frame, ["p_keep", "p_mulligan", "margin", "advice", "forced"], order=())
    headers = (N_("keep whole"), N_("best replacement"), N_("keep − replace")) if replacing else \
        (N_("keep"), N_("mulligan"), N_("keep − mulligan"))
    rows = list(merged.itertuples(index=False))
    grid = Grid([])
    grid.add(tr("seat"), [seat_words(r.seat) for r in rows], names=("seat",), key=True, text=True, justify="left")
    for text, name, cells in ((headers[0], "p_keep", [format_probability(r.p_keep) for r in rows]),
                              (headers[1], "p_mulligan", [format_probability(r.p_mulligan) for r in rows]),
                              (headers[2], "margin", [format_points(r.margin, 1) for r in rows])):
        grid.add(tr(text), cells, names=(name,))
    grid.add(tr("advice"), [tr("{advice} (forced by the rule)", advice=word(r.advice)) if r.forced
                            else word(r.advice) for r in rows], names=("advice",), text=True)
    grid.notes += same_odds_note(merged)
    return grid


def keep_policy_summary_table(frame: pd.DataFrame) -> Grid:
    """One row per seat: P(event by the turn) with the best decisions and with the keep rule, and the gain."""
    keep = frame["keep"].iloc[0]
    # The Hearthstone comparison: kept whole when the keep rule holds, else every card outside the groups replaced.
    rule = tr("keep rule {keep},\nelse replace other", keep=keep) \
        if (frame["mulligan_rule"] == "hearthstone").any() else tr("keep rule {keep}", keep=keep)
    merged = merge_alike_seats(frame, ["p_best", "p_keep_rule", "gain", "p_keep_first_best", "p_keep_first_rule"],
                               order=())
    rows = list(merged.itertuples(index=False))
    grid = Grid([])
    grid.add(header("seat"), [seat_words(r.seat) for r in rows], names=("seat",), key=True, text=True,
             justify="left")
    grid.add(tr("best decisions"), [format_probability(r.p_best) for r in rows], names=("p_best",))
    grid.add(rule, [format_probability(r.p_keep_rule) for r in rows], names=("p_keep_rule",))
    grid.add(tr("gain"), [format_points(r.gain, 2) for r in rows], names=("gain",))
    grid.add(tr("first hand kept\n(best / keep rule)"),
             [f"{format_probability(r.p_keep_first_best)} / {format_probability(r.p_keep_first_rule)}" for r in rows],
             names=("p_keep_first_best", "p_keep_first_rule"), rank=1)
    grid.notes += same_odds_note(merged)
    return grid


def keep_policy_table(frame: pd.DataFrame, replacing: bool = False) -> Grid:
    """One seat's policy: the hands to keep first, then the hands to mulligan, each with its odds both ways.

    ``replacing``: Hearthstone, where the mulligan is the best cards to replace.
    """
    headers = (N_("keep whole"), N_("best\nreplacement"), N_("keep − replace"), N_("best"),
               N_("keep rule,\nelse replace other")) \
        if replacing else (N_("keep"), N_("mulligan"), N_("keep − mulligan"), N_("best"), N_("keep rule"))
    ordered = frame.assign(order=(frame["decision"] != "keep")).sort_values("order", kind="stable")
    rows = list(ordered.itertuples(index=False))
    grid = Grid([])
    grid.add(tr("hand"), [group_words(r.hand) for r in rows], names=("hand",), key=True, text=True, justify="left")
    grid.add(tr("P(hand)"), [format_probability(r.p_hand) for r in rows], names=("p_hand",), rank=1)
    for text, name, cells in ((headers[0], "p_keep", [format_probability(r.p_keep) for r in rows]),
                              (headers[1], "p_mulligan", [format_probability(r.p_mulligan) for r in rows]),
                              (headers[2], "margin", [format_points(r.margin, 1) for r in rows]),
                              (headers[3], "decision", [_decision_words(r.decision) for r in rows]),
                              (headers[4], "keep_rule", [_decision_words(r.keep_rule) for r in rows])):
        grid.add(tr(text), cells, names=(name,), text=name in ("decision", "keep_rule"))
    return grid


def _decision_words(decision: str) -> str:
    """A keep-policy decision in the language: ``keep``, ``mulligan``, or ``replace: other=2``."""
    if str(decision).startswith("replace: "):
        return tr("replace: {cards}", cards=group_words(str(decision).removeprefix("replace: ")))
    return word(decision)


def sensitivity_table(result) -> Grid:
    """One row per card: its copies and what a copy fewer and a copy more change (✗: the move breaks a rule)."""
    from deckstat.present.format import sensitivity_rows

    frame = pd.DataFrame(sensitivity_rows(result), columns=["card", "count", "minus", "plus"]).astype({"count": str})
    grid = frame_table(frame, {"card": tr("card"), "count": tr("copies"), "minus": tr("a copy fewer"),
                               "plus": tr("a copy more")})
    grid.notes.append(tr("✗: the move alone breaks a rule of the deck; below, its legal version at the deck's size"))
    return grid
