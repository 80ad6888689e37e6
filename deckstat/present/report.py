"""Writing a deck report: a folder with ``report.md`` (or ``report.html``) and the figures it shows.

Every number comes from a :class:`deckstat.questions.report.Report` (see
:func:`deckstat.report`); nothing is computed here. The page is written only
after every figure, so an error leaves no half-written report.
"""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from deckstat._validate import check_choice
from deckstat._version import __version__
from deckstat.errors import DeckstatError, render_marks
from deckstat.games.profiles import list_profiles
from deckstat.play import MODELS
from deckstat.present.format import (
    SEED_RERUN,
    format_estimate,
    format_probability,
    policy_note,
    ratio_decision,
    seed_note,
    trial_count,
)
from deckstat.questions.report import Report

REPORT_FORMATS = ("markdown", "html")


def _table(frame: pd.DataFrame) -> str:
    """A Markdown table of a small DataFrame (cells already formatted as text)."""
    header = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    rows = ["| " + " | ".join(str(v).replace("|", "\\|") for v in row) + " |"
            for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *rows])


def write_report(report: Report, out: str | Path, *, fmt: str = "markdown") -> Path:
    """Write ``report`` into the folder ``out`` (created if needed); return the page's path.

    Parameters
    ----------
    report : Report
        From :func:`deckstat.report`.
    out : str or Path
        Folder to write into.
    fmt : {"markdown", "html"}

    Returns
    -------
    Path
        ``out/report.md`` or ``out/report.html``.
    """
    from deckstat.present import plots

    check_choice(fmt, "fmt", REPORT_FORMATS)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise DeckstatError("exists and is not a folder", source=str(out))
    profile, deck = report.profile, report.deck
    out.mkdir(parents=True, exist_ok=True)
    figures = {"odds": plots.save(plots.plot_odds(report.by_turn), out / "odds.png")}
    if report.mulligan is not None:
        figures["mulligan"] = plots.save(plots.plot_mulligan(report.mulligan), out / "mulligan.png")
    if report.ratio is not None:
        figures["ratio"] = plots.save(plots.plot_ratio(report.ratio), out / "ratio.png")
    playable = report.playability
    if playable is not None and playable.curve is not None:
        figures["playability"] = plots.save(plots.plot_curve(playable.curve), out / "playability.png")
    figures["deckout"] = plots.save(plots.plot_deckout(report.deckout), out / "deckout.png")

    name = deck.name
    lines = [f"# {name} — {profile.name}", "", f"{deck.size} cards. deckstat {__version__}. {how_computed(report)}",
             ""]
    lines += ["## Is the deck legal?", ""]
    violations = report.validation.table
    if violations.empty:
        lines += ["Yes: every construction rule of the game holds.", ""]
    else:
        lines += ["No." if not report.validation.legal else "Yes, with warnings.", "",
                  _table(violations[["part", "level", "subject", "found", "allowed", "rule"]]
                         .rename(columns={"part": "deck"})), ""]
    lines += ["## Opening hand", ""]
    rows = [{"event": e, "kept opening hand": format_estimate(row.p, row.ci_low, row.ci_high, row.method)}
            for e, row in zip(report.events, report.hands.table.itertuples(index=False))]
    lines += [_table(pd.DataFrame(rows)), ""]
    if report.mulligan is not None:
        summary = report.mulligan.summary.iloc[0]
        kept = format_estimate(summary["p_keep_first"], summary["ci_low"], summary["ci_high"], summary["method"])
        lines += [f"Mulligan ({summary['mulligan_rule']}, keep rule `{summary['keep']}`): the first hand is kept "
                  f"{kept} of the time.", "", f"![mulligan]({figures['mulligan'].name})", ""]
    if report.shield_triggers is not None:
        lines += _shield_section(report)
    lines += ["## By turn", "", "Probability of holding at least one, among the kept hand and the cards drawn "
              "since (turn 0 is the opening hand).", ""]
    by_turn = report.by_turn.table
    pivot = by_turn.assign(cell=[format_estimate(r.p, r.ci_low, r.ci_high, r.method)
                                 for r in by_turn.itertuples(index=False)])
    pivot = pivot.pivot_table(index="turn", columns=["event", "seat"], values="cell", aggfunc="first", sort=False)
    pivot.columns = [f"{e} ({s})" for e, s in pivot.columns]
    lines += [_table(pivot.reset_index()), "", f"![by turn]({figures['odds'].name})", ""]
    if playable is not None:
        lines += _playability_section(report, figures.get("playability"))
    if report.ratio is not None:
        lines += _ratio_section(report, figures["ratio"].name)
    race = report.deckout
    lines += ["## When does the deck run out?", ""]
    for summary in race.summary.itertuples(index=False):
        lines.append(f"- {summary.seat} player: turn {summary.median_turn} (median; mean {summary.mean_turn:.2f}, "
                     f"earliest {summary.earliest_turn})")
    first = race.summary.set_index("seat").loc["first"]
    shown = format_estimate(first["p_runs_out_first"], first["ci_low"], first["ci_high"], first["method"])
    lines += [f"- P(first player runs out first) = {shown}",
              f"- {policy_note(race.provenance)}",
              *([f"- every first hand is kept: the deck-out model has no {profile.mulligan} mulligan"]
                if race.provenance["mulligan_rule"] != profile.mulligan else []),
              f"- {'; '.join(race.provenance['assumptions'])}", "",
              f"![deck-out]({figures['deckout'].name})", ""]
    text = "\n".join(lines)
    if fmt == "markdown":
        page = out / "report.md"
        page.write_text(text, encoding="utf-8")
    else:
        page = out / "report.html"
        page.write_text(_to_html(text, name), encoding="utf-8")
    return page


def _playability_section(report: Report, figure: Path | None) -> list[str]:
    """The "Playability by turn" section: cards x turns, the mean first turn, P(not by the last turn), the figure."""
    playable, profile = report.playability, report.profile
    lines = ["## Playability by turn", ""]
    if playable.curve is None:
        return lines + [f"No playability curve: {render_marks(playable.error)}.", ""]
    result = playable.curve
    table, summary = result.table, result.summary.set_index("target")
    kind, policy = result.provenance["play_model"], result.provenance["policy"]
    described = MODELS[kind].policies.get(policy, "") if kind in MODELS else ""
    last = int(table["turn"].max())
    shipped = profile.id in {p.id for p in list_profiles()}
    where = f"`deckstat games show {profile.id}`" if shipped else "The profile file's `[play_model]` table"
    followed = (f"the {len(playable.copies)} most-copied of the deck's {playable.names} cards"
                if playable.names > len(playable.copies) else "every card of the deck")
    lines += [f"Probability that the card can be played on or before each turn, first player, for {followed} "
              f"(every printing of a name together): play model `{kind}`, policy `{policy}`"
              f"{f' ({described})' if described else ''}. {where} gives the model's assumptions; `deckstat curve` "
              "other cards, groups, seats and policies.", ""]
    if not playable.mulligan:
        lines += [f"Every first hand is kept: playability curves model the bottom mulligan, not {profile.mulligan}.",
                  ""]
    simulated = table[table["method"] == "simulate"]
    if not simulated.empty:
        widest = float((simulated["ci_high"] - simulated["ci_low"]).max()) / 2
        lines += [f"Simulated: {trial_count(result) or report.n_trials:,} games; every 95% interval is within "
                  f"±{format_probability(widest)}.", ""]
    rows = []
    for target, part in table.groupby("target", sort=False):
        row = {"card": target, "copies": playable.copies.get(target, "")}
        row.update({f"turn {t}": format_probability(p) for t, p in zip(part["turn"], part["p"])})
        mean = summary.loc[target, "mean_turn"]
        row["mean first turn"] = "–" if pd.isna(mean) else f"{mean:.2f}"
        row[f"P(not by turn {last})"] = format_probability(summary.loc[target, "p_never"])
        rows.append(row)
    lines += [_table(pd.DataFrame(rows)), "",
              f"Mean first turn: among the games where the card is playable by turn {last}.", ""]
    return lines + [f"![playability]({figure.name})", ""]


def _ratio_section(report: Report, figure: str) -> list[str]:
    """The "How many resource cards?" section: the decision, one row per count, the figure."""
    result = report.ratio
    sweep, summary = result.table, result.summary.iloc[0]
    group, flood, target_turn = summary["group"], summary["flood"], int(summary["target_turn"])
    methods = result.provenance["methods"]
    at_target = sweep[sweep["turn"] == target_turn]
    last = sweep[sweep["turn"] == sweep["turn"].max()]
    recommended = None if pd.isna(summary["recommended"]) else int(summary["recommended"])
    lines = [f"## How many {group} cards?", "", *ratio_decision(result), ""]
    count = [f"{k}{' (your deck)' if now else ''}{' ◀ recommended' if k == recommended else ''}"
             for k, now in zip(at_target["resource_count"], at_target["is_current"])]
    columns = {
        "count": count,
        "legal": ["yes" if ok else "no: " + why.split(";")[0]
                  for ok, why in zip(at_target["legal"], at_target["violations"])],
        "≥1 in opening hand": [format_probability(p) for p in at_target["p_resource_in_hand"]],
        f"≥{flood} in opening hand (flood)": [format_probability(p) for p in at_target["p_flood_in_hand"]],
    }
    if "mulligan_rate" in at_target.columns:
        columns["mulligan rate"] = [format_probability(p) for p in at_target["mulligan_rate"]]
    if target_turn != int(last["turn"].iloc[0]):
        columns[f"by turn {int(last['turn'].iloc[0])}"] = [format_estimate(r.p, r.ci_low, r.ci_high, r.method)
                                                           for r in last.itertuples(index=False)]
    if at_target["deckout_turn_first"].notna().any():
        simulated = methods.get("deckout_turn_first") == "simulate"
        columns["deck runs out (mean turn, simulated)" if simulated else "deck runs out (turn)"] = [
            f"{t:.2f}" if simulated else f"{t:g}" for t in at_target["deckout_turn_first"]]
    lines += [_table(pd.DataFrame(columns)), ""]
    if result.provenance["added_cards"]:
        lines += [f"Counts above what the deck's {group} cards allow add generic cards: "
                  f"{', '.join(result.provenance['added_cards'])}.", ""]
    return lines + [f"![ratio]({figure})", ""]
#: What the report calls its parts when it says which were simulated.
_PART_NAMES = {"hands": "opening hand", "by_turn": "by turn", "mulligan": "mulligan", "ratio": "resource count",
               "deckout": "deck-out", "shield_triggers": "shield triggers", "playability": "playability"}


def how_computed(report: Report) -> str:
    """Which parts are simulated, each with its trials, and the seed that reproduces them."""
    parts = report.parts()
    simulated = []
    for part in report.simulated():
        provenance = parts[part].provenance
        if "deckout_n_trials" in provenance:  # the ratio sweep: only its deck-out turns are simulated
            simulated.append(f"{_PART_NAMES[part]}: {provenance['deckout_n_trials']:,} deck-out races per count")
        else:
            trials = trial_count(parts[part]) or report.n_trials
            simulated.append(f"{_PART_NAMES[part]}: {trials:,} trials")
    if not simulated:
        return "Every number is exact."
    return (f"Simulated parts ({'; '.join(simulated)}), {seed_note(report.provenance, SEED_RERUN)}; 95% intervals "
            "shown as ± when symmetric, else as [low, high]. The other numbers are exact.")


def _shield_section(report: Report) -> list[str]:
    """P(at least k shield triggers among the shields) for k = 1..3 and their expected number, in words."""
    triggers = report.shield_triggers
    shields = triggers.shields
    aside = report.profile.set_aside_name or "set-aside cards"
    lines = ["## Shield triggers", ""]
    if triggers.cards == 0:
        return lines + [f"No card of the deck is marked as a shield trigger (déclencheur de bouclier) in its "
                        f"shield_trigger column, so none of your {shields} {aside} can be one.", ""]
    rows = triggers.odds.table
    one = format_estimate(rows["p"].iloc[0], rows["ci_low"].iloc[0], rows["ci_high"].iloc[0], rows["method"].iloc[0])
    several = triggers.cards != 1
    named = (f"{triggers.cards} shield trigger{'s' if several else ''} "
             f"(déclencheur{'s' if several else ''} de bouclier)")
    # A sum of exact probabilities may land just below a half (0.8749999…): round that off first.
    expected = f"{round(triggers.expected, 9):.2f}"
    lines += [f"With {named} in {report.deck.size} cards, at least one of your {shields} {aside} is a shield trigger "
              f"{one} of the time; on average {expected} of them are.", ""]
    table = pd.DataFrame({
        f"shield triggers among the {shields} {aside}": [f"at least {k}" for k in range(1, min(3, shields) + 1)],
        "probability": [format_estimate(r.p, r.ci_low, r.ci_high, r.method)
                        for r in rows.head(min(3, shields)).itertuples(index=False)],
    })
    return lines + [_table(table), ""]


def _to_html(markdown: str, title: str) -> str:
    """Render the report's small Markdown subset (headings, lists, tables, images) as HTML."""
    body, table = [], []

    def flush_table():
        if not table:
            return
        cells = [[html.escape(c.strip().replace("\\|", "|")) for c in row.strip("|").split(" | ")] for row in table]
        head = "".join(f"<th>{c}</th>" for c in cells[0])
        rows = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in cells[2:])
        body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        table.clear()

    for line in markdown.splitlines():
        if line.startswith("|"):
            table.append(line)
            continue
        flush_table()
        if line.startswith("## "):
            body.append(f"<h2>{html.escape(line[3:])}</h2>")
        elif line.startswith("# "):
            body.append(f"<h1>{html.escape(line[2:])}</h1>")
        elif line.startswith("!["):
            alt, src = line[2:].split("](")
            body.append(f'<p><img src="{html.escape(src.rstrip(")"))}" alt="{html.escape(alt)}"></p>')
        elif line.startswith("- "):
            body.append(f"<li>{html.escape(line[2:])}</li>")
        elif line.strip():
            body.append(f"<p>{html.escape(line)}</p>")
    flush_table()
    style = ("body{font-family:sans-serif;max-width:60em;margin:2em auto}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}img{max-width:100%}")
    return (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{style}</style></head><body>{''.join(body)}</body></html>\n")
