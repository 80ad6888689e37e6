"""Rich tables of results for the terminal: percentages with their intervals, one table per view."""

from __future__ import annotations

import pandas as pd
from rich import box
from rich.table import Table
from rich.text import Text

from deckstat.present.format import format_difference, format_estimate, format_probability
from deckstat.results import CompareResult, MulliganResult, RatioResult


def _text(value: object) -> Text:
    """Table text shown as is: no rich markup, emoji codes or highlighting."""
    return Text(str(value))


def odds_table(frame: pd.DataFrame) -> Table:
    """A turn-by-seat table of percentages, one column per event and seat.

    Odds with known cards asked by cards drawn (no turn) have a row per number of cards drawn instead.
    """
    table = Table()
    row_key = "draws" if "draws" in frame.columns and frame["turn"].isna().all() else "turn"
    table.add_column(_text("cards drawn" if row_key == "draws" else "turn"), justify="right")
    events = list(dict.fromkeys(frame["event"]))
    seats = list(dict.fromkeys(frame["seat"]))
    columns = [(e, s) for e in events for s in seats]
    for event, seat in columns:
        who = "from now" if seat == "now" else f"{seat} player"
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
    table.add_column(_text("turn"), justify="right")
    events = list(dict.fromkeys(frame["event"]))
    seats = list(dict.fromkeys(frame["seat"]))
    for event in events:
        for seat in seats:
            prefix = f"{event}\n" if len(events) > 1 else ""
            table.add_column(_text(f"{prefix}{seat}: first on turn"), justify="right")
            table.add_column(_text(f"{prefix}{seat}: by turn"), justify="right")
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
    table = Table(title="P(playable on or before turn t), in %", box=box.SIMPLE_HEAD, pad_edge=False,
                  collapse_padding=True, padding=(0, 1))
    table.add_column(_text("card or group"), overflow="fold", min_width=12)
    table.add_column(_text("seat"), no_wrap=True)
    turns = sorted(set(frame["turn"]))
    for turn in turns:
        table.add_column(_text(f"t{turn}"), justify="right", no_wrap=True)
    table.add_column(_text("mean"), justify="right", no_wrap=True)
    table.add_column(_text(f">t{turns[-1]}"), justify="right", no_wrap=True)
    rows = {(r.target, r.seat, r.turn): r for r in frame.itertuples(index=False)}
    for s in summary.itertuples(index=False):
        cells = [_percent(rows[(s.target, s.seat, t)].p) for t in turns]
        mean = "—" if s.mean_turn != s.mean_turn else f"{s.mean_turn:.2f}"
        table.add_row(_text(s.target), _text(s.seat), *[_text(c) for c in cells], _text(mean),
                      _text(_percent(s.p_never)))
    return table


def _percent(p: float) -> str:
    """A probability in percent with one decimal, never rounded to a certainty it is not (``>99.9``, ``<0.1``)."""
    if 0 < p < 0.0005:
        return "<0.1"
    if 0.9995 <= p < 1:
        return ">99.9"
    return f"{100 * p:.1f}"


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
    """A table of construction-rule violations (the deck part shown when there are several)."""
    table = Table()
    multi = frame["part"].nunique() > 1 if len(frame) else False
    if multi:
        table.add_column(_text("deck"))
    for column in ("level", "subject", "found", "allowed", "rule"):
        table.add_column(_text(column))
    for row in frame.itertuples(index=False):
        cells = [row.level, row.subject, row.found, row.allowed, row.rule]
        table.add_row(*[_text(c) for c in ([row.part] if multi else []) + cells])
    return table


def mulligan_tables(result: MulliganResult) -> list[Table]:
    """The keep rate and mulligans taken, the kept hand by group, and the by-turn odds with and without."""
    summary = result.summary.iloc[0]
    rule = summary["mulligan_rule"]
    keep = key_value_table([
        ("keep the first hand", format_estimate(summary["p_keep_first"], summary["ci_low"], summary["ci_high"],
                                                summary["method"])),
        ("expected mulligans", f"{summary['expected_mulligans']:.3f}"),
    ] + [(f"{int(r.mulligans)} mulligan{'s' if r.mulligans != 1 else ''}",
          format_estimate(r.p, r.ci_low, r.ci_high, r.method)) for r in result.mulligans.itertuples(index=False)])
    by_turn = result.by_turn
    with_rule = by_turn[by_turn["mulligan_rule"] == rule].reset_index(drop=True)
    without = by_turn[by_turn["mulligan_rule"] == "none"].reset_index(drop=True)
    keys = [k for k in ("event", "seat") if with_rule[k].nunique() > 1]
    turns = Table()
    for column in (*keys, "turn", f"with {rule} mulligan", "keep every hand", "difference"):
        turns.add_column(_text(column), justify="right")
    for a, b in zip(with_rule.itertuples(index=False), without.itertuples(index=False)):
        cells = [a.turn, format_estimate(a.p, a.ci_low, a.ci_high, a.method), format_probability(b.p),
                 f"{(a.p - b.p) * 100:+.1f} points"]
        turns.add_row(*[_text(c) for c in [getattr(a, k) for k in keys] + cells])
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
    columns = [f"{group}\ncards", "legal", f"P({group}\nin hand)", f"P({group}≥{flood}\nin hand)"]
    if "mulligan_rate" in frame.columns:
        columns.append("mulligan\nrate")
    columns.append(f"first {group}\nturn (mean)")
    if deckout:
        columns.append("deck runs out\n" + ("(mean turn,\nsimulated)" if deckout_simulated else "(turn, exact)"))
    copies = "target_copies" in frame.columns
    if copies:
        columns.append(f"{provenance.get('card') or provenance.get('curve_group')}\ncopies")
    for column in columns:
        table.add_column(Text(column), justify="center" if column == "legal" else "right")
    where = {"hand": "kept hand", "set_aside": f"in the {provenance.get('set_aside_name', 'set-aside cards')}"}
    for event in events:
        for turn in turns:
            when = where.get(summary["zone"], f"turn {turn}")
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
        cells = [f"{count} (now)" if first["is_current"] else str(count), "✓" if first["legal"] else "✗",
                 approx("p_resource_in_hand") + format_probability(first["p_resource_in_hand"]),
                 approx("p_flood_in_hand") + format_probability(first["p_flood_in_hand"])]
        if "mulligan_rate" in frame.columns:
            cells.append(approx("mulligan_rate") + format_probability(first["mulligan_rate"]))
        cells.append("–" if mean != mean else f"{approx('expected_first_resource_turn')}{mean:.2f}")  # NaN at 0
        if deckout:
            turn = first["deckout_turn_first"]
            cells.append("–" if turn != turn else f"≈ {turn:.2f}" if deckout_simulated else f"{turn:g}")
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
    for column in (("event", "deck") if several else ()) + ("cards drawn" if by_draws else "turn", "seat",
                                                              "deck A", "deck B", "B − A [95% interval]",
                                                              "p-value"):
        table.add_column(Text(column), justify="right")
    # Each deck's own interval, from its odds table, so that a simulated p is written with its digits.
    odds = {(o.deck, o.event, o.seat, o.turn): o for o in result.odds.itertuples(index=False)}

    def shown(deck: str, r) -> str:
        o = odds.get((deck, r.event, r.seat, r.turn))
        p = r.p_a if deck == r.deck_a else r.p_b
        return format_probability(p) if o is None else format_estimate(p, o.ci_low, o.ci_high, o.method)

    for r in frame.itertuples(index=False):
        interval = format_difference(r.diff, r.diff_ci_low, r.diff_ci_high, r.method)
        p_value = "exact" if r.method == "exact" else (f"{r.p_value:.2g}" if r.p_value >= 1e-4 else "< 0.0001")
        cells = [r.draws if by_draws else r.turn, r.seat, shown(r.deck_a, r), shown(r.deck_b, r), interval,
                 p_value]
        table.add_row(*[Text(str(c)) for c in ([r.event, r.deck_b] if several else []) + cells])
    return table


def hand_advice_table(frame: pd.DataFrame) -> Table:
    """One row per seat: P(event by the turn) if the hand is kept, if it is mulliganed, the margin and the advice.

    Under the Hearthstone rule the mulligan is the best cards to replace; an
    advice the rule forces (Pokémon) says so.
    """
    replacing = (frame["mulligan_rule"] == "hearthstone").any()
    table = Table()
    headers = ("keep whole", "best replacement", "keep − replace") if replacing else \
        ("keep", "mulligan", "keep − mulligan")
    for column in ("seat", *headers, "advice"):
        table.add_column(_text(column), justify="right")
    for r in frame.itertuples(index=False):
        advice = f"{r.advice} (forced by the rule)" if r.forced else r.advice
        table.add_row(*[_text(c) for c in (f"{r.seat} player", format_probability(r.p_keep),
                                           format_probability(r.p_mulligan), f"{r.margin * 100:+.1f} points",
                                           advice)])
    return table


def keep_policy_summary_table(frame: pd.DataFrame) -> Table:
    """One row per seat: P(event by the turn) with the best decisions and with the keep rule, and the gain."""
    keep = frame["keep"].iloc[0]
    # The Hearthstone comparison: kept whole when the keep rule holds, else every card outside the groups replaced.
    rule = f"keep rule {keep},\nelse replace other" if (frame["mulligan_rule"] == "hearthstone").any() else \
        f"keep rule {keep}"
    table = Table()
    for column in ("seat", "best decisions", rule, "gain", "first hand kept\n(best / keep rule)"):
        table.add_column(_text(column), justify="right")
    for r in frame.itertuples(index=False):
        table.add_row(*[_text(c) for c in (f"{r.seat} player", format_probability(r.p_best),
                                           format_probability(r.p_keep_rule), f"{r.gain * 100:+.2f} points",
                                           f"{format_probability(r.p_keep_first_best)} / "
                                           f"{format_probability(r.p_keep_first_rule)}")])
    return table


def keep_policy_table(frame: pd.DataFrame, replacing: bool = False) -> Table:
    """One seat's policy: the hands to keep first, then the hands to mulligan, each with its odds both ways.

    ``replacing``: Hearthstone, where the mulligan is the best cards to replace.
    """
    table = Table()
    table.add_column(_text("hand"), no_wrap=True)
    headers = ("keep whole", "best\nreplacement", "keep − replace", "best", "keep rule,\nelse replace other") \
        if replacing else ("keep", "mulligan", "keep − mulligan", "best", "keep rule")
    for column in ("P(hand)", *headers):
        table.add_column(_text(column), justify="right")
    ordered = frame.assign(order=(frame["decision"] != "keep")).sort_values("order", kind="stable")
    for r in ordered.itertuples(index=False):
        table.add_row(*[_text(c) for c in (r.hand, format_probability(r.p_hand), format_probability(r.p_keep),
                                           format_probability(r.p_mulligan), f"{r.margin * 100:+.1f} points",
                                           r.decision, r.keep_rule)])
    return table
