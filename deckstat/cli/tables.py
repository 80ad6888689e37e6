"""Rich tables of results for the terminal: percentages with their intervals, one table per view."""

from __future__ import annotations

import pandas as pd
from rich import box
from rich.table import Table
from rich.text import Text

from deckstat.i18n import N_, get_language, localise_number, number, tr, trn
from deckstat.present.format import (
    format_difference,
    format_estimate,
    format_points,
    format_probability,
    seat_words,
)
from deckstat.results import CompareResult, MulliganResult, RatioResult

#: Column headers a table takes from a result's columns, as a player reads them.
HEADERS = {"turn": N_("turn"), "count": N_("count"), "resource_count": N_("resource_count"), "seat": N_("seat"),
           "event": N_("event"), "deck": N_("deck"), "mean_turn": N_("mean_turn"),
           "median_turn": N_("median_turn"), "earliest_turn": N_("earliest_turn"),
           "latest_turn": N_("latest_turn")}
#: What a keep-or-mulligan decision and a construction rule's level read as.
WORDS = {"keep": N_("keep"), "mulligan": N_("mulligan"), "error": N_("error"), "warning": N_("warning")}
#: The two columns of the first-turn table, per seat.
WHEN_HEADERS = {("first", "p"): N_("first: first on turn"), ("first", "cdf"): N_("first: by turn"),
                ("second", "p"): N_("second: first on turn"), ("second", "cdf"): N_("second: by turn")}


def _text(value: object) -> Text:
    """Table text shown as is: no rich markup, emoji codes or highlighting."""
    return Text(str(value))


def header(column: str) -> str:
    """The header of a column named after a result's column (``turn``), in the language."""
    return tr(HEADERS[column]) if column in HEADERS else column


def word(value: str) -> str:
    """A decision or level of a result (``keep``, ``error``) in the language; other text as it is."""
    return tr(WORDS[value]) if value in WORDS else str(value)


def seat_cell(seat: str) -> str:
    """A seat in a table's seat column: ``first`` in English, under a "seat" header; "premier joueur" in French.

    French has no short word for the seat that reads alone in a cell, so it writes the player.
    """
    return str(seat) if get_language() == "en" else seat_words(seat)


def odds_table(frame: pd.DataFrame) -> Table:
    """A turn-by-seat table of percentages, one column per event and seat.

    Odds with known cards asked by cards drawn (no turn) have a row per number of cards drawn instead.
    """
    table = Table()
    row_key = "draws" if "draws" in frame.columns and frame["turn"].isna().all() else "turn"
    table.add_column(_text(tr("cards drawn") if row_key == "draws" else header("turn")), justify="right")
    events = list(dict.fromkeys(frame["event"]))
    seats = list(dict.fromkeys(frame["seat"]))
    columns = [(e, s) for e in events for s in seats]
    for event, seat in columns:
        who = seat_words(seat)
        label = who if len(events) == 1 else f"{event}\n{who}"
        table.add_column(_text(label), justify="right")
    cells = {(getattr(r, row_key), r.event, r.seat): format_estimate(r.p, r.ci_low, r.ci_high, r.method)
             for r in frame.itertuples(index=False)}
    for key in sorted(set(frame[row_key])):
        table.add_row(_text(key), *[_text(cells.get((key, e, s), "–")) for e, s in columns])
    return table


def when_table(frame: pd.DataFrame) -> Table:
    """First-turn distribution: P(first holds on turn t) and P(holds by turn t), per event and seat."""
    table = Table()
    table.add_column(_text(header("turn")), justify="right")
    events = list(dict.fromkeys(frame["event"]))
    seats = list(dict.fromkeys(frame["seat"]))
    for event in events:
        for seat in seats:
            prefix = f"{event}\n" if len(events) > 1 else ""
            table.add_column(_text(prefix + tr(WHEN_HEADERS[seat, "p"])), justify="right")
            table.add_column(_text(prefix + tr(WHEN_HEADERS[seat, "cdf"])), justify="right")
    rows = {(r.turn, r.event, r.seat): r for r in frame.itertuples(index=False)}
    for turn in sorted(set(frame["turn"])):
        cells = []
        for event in events:
            for seat in seats:
                r = rows[(turn, event, seat)]
                cells += [format_estimate(r.p, r.ci_low, r.ci_high, r.method),
                          format_estimate(r.cdf, r.cdf_low, r.cdf_high, r.method)]
        table.add_row(_text(turn), *[_text(c) for c in cells])
    return table


def curve_table(frame: pd.DataFrame, summary: pd.DataFrame) -> Table:
    """Playability: one row per target and seat, P(playable by turn t) per turn, then the first playable turn.

    Cells show the estimate alone, so that ten turns fit a terminal; the intervals are in ``--format csv``.
    ``mean`` is the mean first playable turn among games where it comes by the last turn, ``>tN`` the
    probability that it does not.
    """
    table = Table(title=tr("P(playable on or before turn t), in %"), box=box.SIMPLE_HEAD, pad_edge=False,
                  collapse_padding=True, padding=(0, 1))
    table.add_column(_text(tr("card or group")), overflow="fold", min_width=12)
    table.add_column(_text(header("seat")), no_wrap=True)
    turns = sorted(set(frame["turn"]))
    for turn in turns:
        table.add_column(_text(f"t{turn}"), justify="right", no_wrap=True)
    table.add_column(_text(tr("mean")), justify="right", no_wrap=True)
    table.add_column(_text(f">t{turns[-1]}"), justify="right", no_wrap=True)
    rows = {(r.target, r.seat, r.turn): r for r in frame.itertuples(index=False)}
    for s in summary.itertuples(index=False):
        cells = [_percent(rows[(s.target, s.seat, t)].p) for t in turns]
        mean = "—" if s.mean_turn != s.mean_turn else number(s.mean_turn, 2)
        table.add_row(_text(s.target), _text(seat_cell(s.seat)), *[_text(c) for c in cells], _text(mean),
                      _text(_percent(s.p_never)))
    return table


def _percent(p: float) -> str:
    """A probability in percent with one decimal, never rounded to a certainty it is not (``>99.9``, ``<0.1``)."""
    if 0 < p < 0.0005:
        return localise_number("<0.1")
    if 0.9995 <= p < 1:
        return localise_number(">99.9")
    return number(100 * p, 1)


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
    when ``formatted`` is true. Seats as columns are named as a player reads them.
    """
    table = Table()
    table.add_column(_text(header(row_key)), justify="right")
    columns = list(dict.fromkeys(frame[column_key]))
    for column in columns:
        table.add_column(_text(seat_cell(column) if column_key == "seat" else column), justify="right")
    values = {(getattr(r, row_key), getattr(r, column_key)): getattr(r, value)
              for r in frame.itertuples(index=False)}
    for key in sorted(set(frame[row_key])):
        cells = [values.get((key, c), "–" if formatted else float("nan")) for c in columns]
        table.add_row(_text(key), *[_text(c if formatted else format_probability(c)) for c in cells])
    return table


def violations_table(frame: pd.DataFrame) -> Table:
    """A table of construction-rule violations (the deck part shown when there are several)."""
    table = Table()
    multi = frame["part"].nunique() > 1 if len(frame) else False
    if multi:
        table.add_column(_text(header("deck")))
    for column in (N_("level"), N_("subject"), N_("found"), N_("allowed"), N_("rule")):
        table.add_column(_text(tr(column)))
    for row in frame.itertuples(index=False):
        cells = [word(row.level), row.subject, row.found, row.allowed, row.rule]
        table.add_row(*[_text(c) for c in ([row.part] if multi else []) + cells])
    return table


def mulligan_tables(result: MulliganResult) -> list[Table]:
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
    keys = [k for k in ("event", "seat") if with_rule[k].nunique() > 1]
    turns = Table()
    for column in (*map(header, keys), header("turn"), tr("with {rule} mulligan", rule=rule),
                   tr("keep every hand"), tr("difference")):
        turns.add_column(_text(column), justify="right")
    for a, b in zip(with_rule.itertuples(index=False), without.itertuples(index=False)):
        cells = [a.turn, format_estimate(a.p, a.ci_low, a.ci_high, a.method), format_probability(b.p),
                 format_points(a.p - b.p, 1)]
        shown_keys = [seat_cell(a.seat) if k == "seat" else getattr(a, k) for k in keys]
        turns.add_row(*[_text(c) for c in shown_keys + cells])
    return [keep, distribution_table(result.kept_hand, "count", "group"), turns]


def ratio_table(result: RatioResult) -> Table:
    """One row per resource count: legality, screw and flood, mulligan, first resource turn, deck-out, P(event).

    The deck's own count reads "(now)"; "◀" follows each event's probability
    at the target turn on its recommended (legal) count.
    """
    frame = result.table
    provenance = result.provenance
    methods = provenance.get("methods", {})
    summary = result.summary.iloc[0]
    group, flood = summary["group"], summary["flood"]
    events = list(dict.fromkeys(frame["event"]))
    turns = sorted(set(frame["turn"]))
    table = Table(collapse_padding=True)
    deckout = frame["deckout_turn_first"].notna().any()
    deckout_simulated = methods.get("deckout_turn_first") == "simulate"
    legal = tr("legal")
    columns = [tr("{group}\ncards", group=group), legal, tr("P({group}\nin hand)", group=group),
               tr("P({group}≥{flood}\nin hand)", group=group, flood=flood)]
    if "mulligan_rate" in frame.columns:
        columns.append(tr("mulligan\nrate"))
    columns.append(tr("first {group}\nturn (mean)", group=group))
    if deckout:
        columns.append(tr("deck runs out\n(mean turn,\nsimulated)") if deckout_simulated else
                       tr("deck runs out\n(turn, exact)"))
    copies = "target_copies" in frame.columns
    if copies:
        columns.append(tr("{card}\ncopies", card=provenance.get("card") or provenance.get("curve_group")))
    for column in columns:
        table.add_column(Text(column), justify="center" if column == legal else "right")
    where = {"hand": tr("kept hand"),
             "set_aside": tr("in the {set_aside}", set_aside=provenance.get("set_aside_name", "set-aside cards"))}
    for event in events:
        for turn in turns:
            when = where.get(summary["zone"]) or tr("turn {turn}", turn=turn)
            table.add_column(Text(when if len(events) == 1 else f"{event}\n{when}"), justify="right")
    recommended = {(row.event, int(row.target_turn)): int(row.recommended)
                   for row in result.summary.itertuples(index=False) if not pd.isna(row.recommended)}
    best = {(row.event, int(row.target_turn)): int(row.best)
            for row in result.summary.itertuples(index=False) if not pd.isna(getattr(row, "best", None))}

    def approx(column: str) -> str:
        return "≈ " if methods.get(column) == "simulate" else ""

    for count, rows in frame.groupby("resource_count", sort=True):
        first = rows.iloc[0]
        by_turn = {}
        for r in rows.itertuples(index=False):
            mark = " ◀" if recommended.get((r.event, r.turn)) == count else ""
            mark += " ★" if best.get((r.event, r.turn)) == count else ""
            by_turn[r.event, r.turn] = format_estimate(r.p, r.ci_low, r.ci_high, r.method) + mark
        mean = first["expected_first_resource_turn"]
        cells = [tr("{count} (now)", count=count) if first["is_current"] else str(count),
                 "✓" if first["legal"] else "✗",
                 approx("p_resource_in_hand") + format_probability(first["p_resource_in_hand"]),
                 approx("p_flood_in_hand") + format_probability(first["p_flood_in_hand"])]
        if "mulligan_rate" in frame.columns:
            cells.append(approx("mulligan_rate") + format_probability(first["mulligan_rate"]))
        cells.append("–" if mean != mean else approx("expected_first_resource_turn") + number(mean, 2))  # NaN at 0
        if deckout:
            turn = first["deckout_turn_first"]
            cells.append("–" if turn != turn else "≈ " + number(turn, 2) if deckout_simulated else number(turn))
        if copies:
            cells.append(str(first["target_copies"]))
        table.add_row(*[Text(c) for c in cells], *[Text(by_turn.get((e, t), "–")) for e in events for t in turns])
    return table


def compare_table(result: CompareResult) -> Table:
    """One row per other deck, event, seat and turn: both decks' odds and the difference with its interval."""
    frame = result.table
    several = frame["event"].nunique() > 1 or frame["deck_b"].nunique() > 1
    # With known cards asked by cards drawn, a row is a number of cards drawn, not a turn.
    by_draws = "draws" in frame.columns and frame["turn"].isna().all()
    table = Table()
    columns = ((header("event"), header("deck")) if several else ()) + (
        tr("cards drawn") if by_draws else header("turn"), header("seat"), tr("deck A"), tr("deck B"),
        tr("B − A [95% interval]"), tr("p-value"))
    for column in columns:
        table.add_column(Text(column), justify="right")
    # Each deck's own interval, from its odds table, so that a simulated p is written with its digits.
    odds = {(o.deck, o.event, o.seat, o.turn): o for o in result.odds.itertuples(index=False)}

    def shown(deck: str, r) -> str:
        o = odds.get((deck, r.event, r.seat, r.turn))
        p = r.p_a if deck == r.deck_a else r.p_b
        return format_probability(p) if o is None else format_estimate(p, o.ci_low, o.ci_high, o.method)

    for r in frame.itertuples(index=False):
        interval = format_difference(r.diff, r.diff_ci_low, r.diff_ci_high, r.method)
        # "exact" is the same word in French.
        p_value = "exact" if r.method == "exact" else localise_number(f"{r.p_value:.2g}" if r.p_value >= 1e-4
                                                                      else "< 0.0001")
        cells = [r.draws if by_draws else r.turn, seat_cell(r.seat), shown(r.deck_a, r), shown(r.deck_b, r),
                 interval, p_value]
        table.add_row(*[Text(str(c)) for c in ([r.event, r.deck_b] if several else []) + cells])
    return table


def hand_advice_table(frame: pd.DataFrame) -> Table:
    """One row per seat: P(event by the turn) if the hand is kept, if it is mulliganed, the margin and the advice.

    Under the Hearthstone rule the mulligan is the best cards to replace; an
    advice the rule forces (Pokémon) says so.
    """
    replacing = (frame["mulligan_rule"] == "hearthstone").any()
    table = Table()
    headers = (N_("keep whole"), N_("best replacement"), N_("keep − replace")) if replacing else \
        (N_("keep"), N_("mulligan"), N_("keep − mulligan"))
    for column in (N_("seat"), *headers, N_("advice")):
        table.add_column(_text(tr(column)), justify="right")
    for r in frame.itertuples(index=False):
        advice = tr("{advice} (forced by the rule)", advice=word(r.advice)) if r.forced else word(r.advice)
        table.add_row(*[_text(c) for c in (seat_words(r.seat), format_probability(r.p_keep),
                                           format_probability(r.p_mulligan), format_points(r.margin, 1),
                                           advice)])
    return table


def keep_policy_summary_table(frame: pd.DataFrame) -> Table:
    """One row per seat: P(event by the turn) with the best decisions and with the keep rule, and the gain."""
    keep = frame["keep"].iloc[0]
    # The Hearthstone comparison: kept whole when the keep rule holds, else every card outside the groups replaced.
    rule = tr("keep rule {keep},\nelse replace other", keep=keep) \
        if (frame["mulligan_rule"] == "hearthstone").any() else tr("keep rule {keep}", keep=keep)
    table = Table()
    for column in (header("seat"), tr("best decisions"), rule, tr("gain"),
                   tr("first hand kept\n(best / keep rule)")):
        table.add_column(_text(column), justify="right")
    for r in frame.itertuples(index=False):
        table.add_row(*[_text(c) for c in (seat_words(r.seat), format_probability(r.p_best),
                                           format_probability(r.p_keep_rule), format_points(r.gain, 2),
                                           f"{format_probability(r.p_keep_first_best)} / "
                                           f"{format_probability(r.p_keep_first_rule)}")])
    return table


def keep_policy_table(frame: pd.DataFrame, replacing: bool = False) -> Table:
    """One seat's policy: the hands to keep first, then the hands to mulligan, each with its odds both ways.

    ``replacing``: Hearthstone, where the mulligan is the best cards to replace.
    """
    table = Table()
    table.add_column(_text(tr("hand")), no_wrap=True)
    headers = (N_("keep whole"), N_("best\nreplacement"), N_("keep − replace"), N_("best"),
               N_("keep rule,\nelse replace other")) \
        if replacing else (N_("keep"), N_("mulligan"), N_("keep − mulligan"), N_("best"), N_("keep rule"))
    for column in (N_("P(hand)"), *headers):
        table.add_column(_text(tr(column)), justify="right")
    ordered = frame.assign(order=(frame["decision"] != "keep")).sort_values("order", kind="stable")
    for r in ordered.itertuples(index=False):
        table.add_row(*[_text(c) for c in (r.hand, format_probability(r.p_hand), format_probability(r.p_keep),
                                           format_probability(r.p_mulligan), format_points(r.margin, 1),
                                           word(r.decision), word(r.keep_rule))])
    return table
