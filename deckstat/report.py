"""A one-command report on one deck: validation, opening hands, the by-turn curve, ratios, deck-out.

The report is a folder holding ``report.md`` (or ``report.html``) and the
figures it shows. Every number in it comes from the public API, with the
seed written down so it can be reproduced.
"""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from deckstat.analysis import ratio
from deckstat.api import _version, mulligan, odds
from deckstat.deck import Deck
from deckstat.deckout import deckout
from deckstat.errors import DeckstatError
from deckstat.output import format_estimate, format_probability
from deckstat.profiles import Profile, get_profile
from deckstat.rules import validate

REPORT_FORMATS = ("markdown", "html")


def _table(frame: pd.DataFrame) -> str:
    """A Markdown table of a small DataFrame (cells already formatted as text)."""
    header = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    rows = ["| " + " | ".join(str(v).replace("|", "\\|") for v in row) + " |"
            for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *rows])


def _questions(deck: Deck, profile: Profile) -> list[str]:
    """Groups the report follows: the resource group, else each civilization, else the commonest type."""
    if profile.resource_group:
        return [profile.resource_group]
    if "civilization" in deck.cards.columns:
        values = []
        for cell in deck.cards["civilization"].dropna():
            for value in str(cell).split(";"):
                if value.strip() and value.strip() not in values:
                    values.append(value.strip())
        if values:
            return [f"[civilization={v}]" for v in values]
    types = deck.cards.groupby("type")["count"].sum().sort_values(ascending=False)
    if types.empty:
        raise DeckstatError("the deck has no card type to report on", source=deck.source)
    return [str(types.index[0])]


def build_report(deck: Deck, game: str | Profile, out: str | Path, *, fmt: str = "markdown", n_trials: int = 100_000,
                 rng: int = 2026, turns: int = 10) -> Path:
    """Write a report on ``deck`` into the folder ``out``; return the page's path.

    Parameters
    ----------
    deck : Deck
    game : str or Profile
    out : str or Path
        Folder to write into (created if needed).
    fmt : {"markdown", "html"}
    n_trials : int
        Trials of each simulated part (deck-out with the drought rule, other mulligans).
    rng : int
        Seed of every simulated part.
    turns : int
        Last turn of the by-turn curves.

    Returns
    -------
    Path
        ``out/report.md`` or ``out/report.html``.
    """
    from deckstat import plots

    if fmt not in REPORT_FORMATS:
        raise DeckstatError(f"unknown report format {fmt!r}; expected markdown or html")
    profile = get_profile(game)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise DeckstatError("exists and is not a folder", source=str(out))
    groups = _questions(deck, profile)
    # Compute everything before writing anything: an error leaves no half-written report.
    violations = validate(deck, profile)
    drawable = deck.size - profile.set_aside - profile.hand_size
    last_turn = min(turns, max(t for t in range(turns + 1)
                               if all(profile.draws_by_turn(t, s) <= drawable for s in ("first", "second"))))
    events = [f"{g}>=1" for g in groups]
    by_turn = pd.concat([odds(deck, profile, e, turns=range(last_turn + 1), n_trials=n_trials, rng=rng)
                         for e in events], ignore_index=True)
    hands = pd.concat([odds(deck, profile, e, zone="hand", seat="first", n_trials=n_trials, rng=rng)
                       for e in events], ignore_index=True)
    report_mulligan = mulligan(deck, profile, n_trials=n_trials, rng=rng) if profile.mulligan != "none" else None
    sweep = None
    if profile.resource_group and len(profile.parts) == 1:
        current = deck.count(profile.resource_group)
        counts = range(max(current - 4, 0), min(current + 4, deck.size) + 1)
        # The question players ask of a count: does the kept opening hand hold one 95% of the time?
        sweep = ratio(deck, profile, counts=counts, turns=range(min(last_turn, 5) + 1), target=0.95, target_turn=0,
                      n_trials=n_trials, rng=rng)
    race = deckout(deck, profile, n_trials=n_trials, rng=rng)

    out.mkdir(parents=True, exist_ok=True)
    figures = {}
    figures["odds"] = plots.save(plots.plot_odds(by_turn), out / "odds.png")
    if report_mulligan is not None:
        figures["mulligan"] = plots.save(plots.plot_mulligan(report_mulligan), out / "mulligan.png")
    if sweep is not None:
        figures["ratio"] = plots.save(plots.plot_ratio(sweep), out / "ratio.png")
    figures["deckout"] = plots.save(plots.plot_deckout(race), out / "deckout.png")

    name = Path(deck.source).name
    lines = [f"# {name} — {profile.name}", "",
             f"{deck.size} cards. deckstat {_version()}; simulated parts use seed {rng} and {n_trials:,} trials "
             "(95% intervals shown as ±).", ""]
    lines += ["## Is the deck legal?", ""]
    if violations.empty:
        lines += ["Yes: every construction rule of the game holds.", ""]
    else:
        legal = violations.attrs["legal"]
        lines += ["No." if not legal else "Yes, with warnings.", "",
                  _table(violations[["deck", "level", "subject", "found", "allowed", "rule"]]), ""]
    lines += ["## Opening hand", ""]
    rows = []
    for e, row in zip(events, hands.itertuples(index=False)):
        rows.append({"event": e, "kept opening hand": format_estimate(row.p, row.ci_low, row.ci_high, row.method)})
    lines += [_table(pd.DataFrame(rows)), ""]
    if report_mulligan is not None:
        summary = report_mulligan.summary.iloc[0]
        kept = format_estimate(summary["p_keep_first"], summary["ci_low"], summary["ci_high"], summary["method"])
        lines += [f"Mulligan ({summary['rule']}, keep rule `{summary['keep']}`): the first hand is kept {kept} of "
                  "the time.", "", f"![mulligan]({figures['mulligan'].name})", ""]
    lines += ["## By turn", "", "Probability of holding at least one, among the kept hand and the cards drawn "
              "since (turn 0 is the opening hand).", ""]
    pivot = by_turn.assign(cell=[format_estimate(r.p, r.ci_low, r.ci_high, r.method)
                                 for r in by_turn.itertuples(index=False)])
    pivot = pivot.pivot_table(index="turn", columns=["event", "seat"], values="cell", aggfunc="first")
    pivot.columns = [f"{e} ({s})" for e, s in pivot.columns]
    lines += [_table(pivot.reset_index()), "", f"![by turn]({figures['odds'].name})", ""]
    if sweep is not None:
        lines += [f"## How many {profile.resource_group}?", "", sweep.attrs.get("decision", ""), ""]
        last = sweep[sweep["turn"] == sweep["turn"].max()]
        table = pd.DataFrame({
            "count": last["resource_count"],
            "legal": ["yes" if ok else "no: " + why.split(";")[0]
                      for ok, why in zip(last["legal"], last["violations"])],
            "in opening hand": [format_probability(p) for p in last["p_resource_in_hand"]],
            "mulligan rate": [format_probability(p) for p in last["mulligan_rate"]],
            f"by turn {int(last['turn'].iloc[0])}": [format_estimate(r.p, r.ci_low, r.ci_high, r.method)
                                                     for r in last.itertuples(index=False)],
        })
        lines += [_table(table), "", f"![ratio]({figures['ratio'].name})", ""]
    lines += ["## When does the deck run out?", ""]
    for seat_name, summary in race.attrs["summary"].items():
        lines.append(f"- {seat_name} player: turn {summary['median']} (median; mean {summary['mean']:.2f}, "
                     f"earliest {summary['earliest']})")
    lines += [f"- P(first player runs out first) = {format_probability(race.attrs['p_first_runs_out_first'])}",
              f"- {race.attrs['policy_text']}; {'; '.join(race.attrs['assumptions'])}", "",
              f"![deck-out]({figures['deckout'].name})", ""]
    text = "\n".join(lines)
    if fmt == "markdown":
        page = out / "report.md"
        page.write_text(text, encoding="utf-8")
    else:
        page = out / "report.html"
        page.write_text(_to_html(text, name), encoding="utf-8")
    return page


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
