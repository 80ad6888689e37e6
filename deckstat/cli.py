"""The ``deckstat`` command line: parse arguments, call the API, print the result.

Every command prints one ``error: …`` line and exits with code 2 on unusable
input (a bad file, deck, profile or expression); nothing is half-written.
"""

from __future__ import annotations

import re
import sys
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from deckstat import api, output
from deckstat.cards import load_deck
from deckstat.deckout import deckout as api_deckout
from deckstat.errors import DeckstatError
from deckstat.profiles import DECKOUT_RULES, get_profile, list_profiles
from deckstat.rules import validate as validate_deck
from deckstat.simulate import DEFAULT_CHUNK

app = typer.Typer(
    name="deckstat",
    help="Deck statistics for card games: exact odds, deck validation, game profiles.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
games_app = typer.Typer(help="The shipped game profiles.", invoke_without_command=True)
app.add_typer(games_app, name="games")


class Format(str, Enum):
    """Output formats."""

    table = "table"
    csv = "csv"
    json = "json"


class Seat(str, Enum):
    """Seats at the table."""

    both = "both"
    first = "first"
    second = "second"


class Zone(str, Enum):
    """Zones a question can count cards in."""

    seen = "seen"
    hand = "hand"
    set_aside = "set_aside"
    bottom = "bottom"


def _stdout() -> Console:
    # Text from decks and profiles is printed as is: no rich markup ("[civilization=Feu]"),
    # no emoji codes (":smile:") and no highlighting.
    return Console(file=sys.stdout, soft_wrap=False, width=max(100, Console().width), markup=False,
                   emoji=False, highlight=False)


@contextmanager
def _user_errors():
    try:
        yield
    except DeckstatError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(code=2) from None


def parse_ranges(text: str, *, option: str, noun: str, example: str, limit: int) -> list[int]:
    """Parse ``"0-6"``, ``"3"`` or ``"0,2,4-6"`` into sorted whole numbers, naming ``option`` in errors."""
    values: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        match = re.fullmatch(r"(\d+)\s*(?:-\s*(\d+))?", part)
        if not match:
            raise DeckstatError(f"{option} {text!r}: {part!r} is not a {noun} or a range such as {example}")
        low = int(match.group(1))
        high = int(match.group(2)) if match.group(2) else low
        if high < low:
            raise DeckstatError(f"{option} {text!r}: range {part!r} goes backwards; write {high}-{low}")
        if high > limit:
            raise DeckstatError(f"{option} {text!r}: {noun} {high} is beyond any deck")
        values.update(range(low, high + 1))
    return sorted(values)


def parse_turns(text: str) -> list[int]:
    """Parse ``--turns`` (``"0-6"``, ``"3"`` or ``"0,2,4-6"``) into a sorted list of turns."""
    return parse_ranges(text, option="--turns", noun="turn", example="0-6", limit=1000)


DeckArg = Annotated[Path, typer.Argument(help="Card CSV (one row per card), or a text decklist with --pool.",
                                         show_default=False)]
GameOpt = Annotated[str, typer.Option("--game", "-g", help="Game profile id (see `deckstat games`) or a "
                                      ".toml profile file.")]
PoolOpt = Annotated[Path | None, typer.Option(help="Card pool CSV that resolves a text decklist.")]
FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="Output format.")]


class MulliganRule(str, Enum):
    """Mulligan rules that can replace a profile's."""

    none = "none"
    bottom = "bottom"
    london = "london"
    vancouver = "vancouver"
    free = "free"


SeatOpt = Annotated[Seat, typer.Option(help="Whose draws: first player, second player, or both.")]
KeepOpt = Annotated[str | None, typer.Option(help="Keep rule of the mulligan, e.g. \"Terrain>=1\" "
                                             "(default: the profile's).")]
RuleOpt = Annotated[MulliganRule | None, typer.Option(
    "--mulligan-rule", help="Replace the profile's mulligan: bottom (hand under the deck, no shuffle), london, "
    "vancouver, free (first mulligan free, then London), none.")]
LimitOpt = Annotated[int | None, typer.Option("--mulligan-limit", help="Mulligans allowed (default: the "
                                              "profile's, or 1).")]
ResourceOpt = Annotated[str | None, typer.Option(help="Resource group the London bottom choice and the "
                                                 "Vancouver scry balance (default: the profile's).")]
SimulateOpt = Annotated[bool, typer.Option("--simulate", help="Use the Monte Carlo kernel even where the exact "
                                           "engine applies.")]
TrialsOpt = Annotated[int | None, typer.Option("--trials", help="Simulated trials (default 200000).")]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Seed of the simulation; the same seed gives the "
                                             "same numbers.")]
PrecisionOpt = Annotated[float | None, typer.Option(help="Simulate until every 95% interval's half-width is "
                                                    "at most this (e.g. 0.001).")]
ChunkOpt = Annotated[int, typer.Option("--chunk-size", help="Trials held in memory at once; the numbers do "
                                       "not depend on it.")]
WorkersOpt = Annotated[int, typer.Option("--workers", help="Processes for the simulation; the numbers do not "
                                         "depend on it.")]


PlotOpt = Annotated[Path | None, typer.Option("--plot", help="Also draw the result into this .png or .svg file.")]


def _check_plot(path: Path | None) -> None:
    if path is not None and path.suffix.lower() not in (".png", ".svg"):
        raise DeckstatError(f"--plot {str(path)!r}: expected a file name ending in .png or .svg")


def _draw(path: Path | None, function: str, result) -> None:
    """Draw ``result`` with ``deckstat.plots.<function>`` into ``path`` (plots load matplotlib: only when asked)."""
    if path is None:
        return
    from deckstat import plots

    plots.save(getattr(plots, function)(result), path)


NoMulliganOpt = Annotated[bool, typer.Option("--no-mulligan", help="Keep every first hand.")]


def _check_keep(keep: str | None, no_mulligan: bool) -> None:
    if keep is not None and no_mulligan:
        raise DeckstatError("--keep and --no-mulligan contradict each other: --no-mulligan keeps every first hand, "
                            "so no keep rule applies")


def _method(simulate: bool) -> str:
    return "simulate" if simulate else "auto"


def _simulation_note(attrs: dict) -> str:
    if "n_trials" not in attrs:
        return ""
    return (f"simulated: {attrs['n_trials']:,} trials, seed {attrs['seed_entropy']} (--seed reproduces it), "
            "95% Wilson intervals (±)")


def _rules_note(attrs: dict, profile) -> str:
    rule = attrs.get("mulligan_rule", "none")
    if rule == "none":
        return "no mulligan" if profile.mulligan != "none" else ""
    note = f"{rule} mulligan (up to {attrs['mulligan_limit']}), keep rule {attrs['keep']}"
    if "p_keep" in attrs:
        note += f", first hand kept {output.format_probability(attrs['p_keep'])}"
    return note


def _emit(frame, fmt: Format, table: Table | None, title: str) -> None:
    if fmt is Format.csv:
        sys.stdout.write(output.to_csv(frame))
    elif fmt is Format.json:
        sys.stdout.write(output.to_json(frame) + "\n")
    else:
        console = _stdout()
        console.print(Text(title), soft_wrap=True)
        if table is not None:
            console.print(table)


@app.command()
def validate(deck: DeckArg, game: GameOpt, pool: PoolOpt = None, fmt: FormatOpt = Format.table) -> None:
    """Check a deck against its game's construction rules.

    Exit code 0 when the deck is legal, 1 when it breaks a rule, 2 when the
    input is unusable.
    """
    with _user_errors():
        profile = get_profile(game)
        loaded = load_deck(deck, pool=pool)
        result = validate_deck(loaded, profile)
    legal = result.attrs["legal"]
    verdict = "legal" if legal else "not legal"
    title = f"{deck} — {profile.name}, {loaded.size} cards: {verdict}"
    if result.empty:
        title += ". Every construction rule holds."
    _emit(result, fmt, None if result.empty else output.violations_table(result), title)
    raise typer.Exit(code=0 if legal else 1)


@app.command()
def odds(
    deck: DeckArg,
    game: GameOpt,
    event: Annotated[list[str], typer.Option("--event", "-e", help="Event, e.g. \"Terrain>=1 and "
                                             "[cost<=1]>=2\". Repeat for several events.")],
    turns: Annotated[str, typer.Option(help="Turns: 0-6, 3 or 0,2,4. Turn 0 is the kept opening hand.")]
    = "0-6",
    seat: SeatOpt = Seat.both,
    zone: Annotated[Zone, typer.Option(help="seen: kept hand and draws; hand: kept opening hand; "
                                       "set_aside: e.g. Duel Masters shields; bottom: cards a mulligan "
                                       "put under the deck.")] = Zone.seen,
    keep: KeepOpt = None,
    no_mulligan: NoMulliganOpt = False,
    mulligan_rule: RuleOpt = None,
    mulligan_limit: LimitOpt = None,
    resource: ResourceOpt = None,
    simulate: SimulateOpt = False,
    trials: TrialsOpt = None,
    seed: SeedOpt = None,
    precision: PrecisionOpt = None,
    chunk_size: ChunkOpt = DEFAULT_CHUNK,
    workers: WorkersOpt = 1,
    pool: PoolOpt = None,
    fmt: FormatOpt = Format.table,
    plot: PlotOpt = None,
) -> None:
    """Probability of an event in the opening hand and by turn, for one deck.

    Exact where it applies (no mulligan, or Wankul's single bottom mulligan):
    multivariate hypergeometric over disjoint groups of cards, with the
    profile's set-aside cards, mulligan and keep rule, and turn-1 draw rule.
    Otherwise (London, Vancouver, free mulligans, several bottom mulligans) or
    with --simulate, the Monte Carlo kernel, with 95% intervals. The question
    is about one deck under its own draw rules: rules that couple both
    players' decks (Wankul's drought draws when no Terrain is anywhere) belong
    to the two-player deck-out model, not to these odds.
    """
    with _user_errors():
        _check_plot(plot)
        _check_keep(keep, no_mulligan)
        if (trials is not None or precision is not None) and not simulate and mulligan_rule in (None, "none", "bottom"):
            simulate = True
        profile = get_profile(game)
        loaded = load_deck(deck, pool=pool)
        turn_list = parse_turns(turns)
        frames = [api.odds(loaded, profile, e, turns=turn_list, seat=seat.value, zone=zone.value, keep=keep,
                           mulligan=not no_mulligan, mulligan_rule=mulligan_rule.value if mulligan_rule else None,
                           mulligan_limit=mulligan_limit, resource=resource, method=_method(simulate),
                           n_trials=trials, rng=seed, precision=precision, chunk_size=chunk_size,
                           n_workers=workers)
                  for e in event]
        import pandas as pd

        result = pd.concat(frames, ignore_index=True)
        result.attrs = frames[0].attrs
        _draw(plot, "plot_odds", result)
    attrs = result.attrs
    notes = [n for n in (_rules_note(attrs, profile), _simulation_note(attrs)) if n]
    if zone.value in ("hand", "set_aside"):
        notes.append(f"the {zone.value} zone is fixed once the game starts: reported at turn 0")
    zone_words = {"seen": "in the kept hand and cards drawn", "hand": "in the kept opening hand",
                  "set_aside": f"in the {profile.set_aside_name}", "bottom": "under the deck"}[zone.value]
    head = f"P({event[0]}) {zone_words}" if len(event) == 1 else f"P(event) {zone_words}"
    title = f"{head} — {profile.name}, {deck} ({attrs['deck_size']} cards)"
    if notes:
        title += "\n" + "; ".join(notes)
    _emit(result, fmt, output.odds_table(result), title)


@app.command()
def when(
    deck: DeckArg,
    game: GameOpt,
    event: Annotated[str, typer.Option("--event", "-e", help="Event, e.g. \"[civilization=Feu]>=1 and "
                                       "[race=Dragon]>=1\".")],
    max_turn: Annotated[int, typer.Option("--max-turn", help="Last turn followed.")] = 10,
    seat: SeatOpt = Seat.both,
    keep: KeepOpt = None,
    no_mulligan: NoMulliganOpt = False,
    mulligan_rule: RuleOpt = None,
    mulligan_limit: LimitOpt = None,
    resource: ResourceOpt = None,
    simulate: SimulateOpt = False,
    trials: TrialsOpt = None,
    seed: SeedOpt = None,
    precision: PrecisionOpt = None,
    chunk_size: ChunkOpt = DEFAULT_CHUNK,
    workers: WorkersOpt = 1,
    pool: PoolOpt = None,
    fmt: FormatOpt = Format.table,
    plot: PlotOpt = None,
) -> None:
    """On which turn an event first holds among the cards seen: distribution, mean, median, P(never).

    Exact when the event can only become true as cards are seen (>=, >) and
    the exact engine models the mulligan; simulated otherwise.
    """
    with _user_errors():
        _check_plot(plot)
        _check_keep(keep, no_mulligan)
        profile = get_profile(game)
        loaded = load_deck(deck, pool=pool)
        result = api.when(loaded, profile, event, max_turn=max_turn, seat=seat.value, keep=keep,
                          mulligan=not no_mulligan, mulligan_rule=mulligan_rule.value if mulligan_rule else None,
                          mulligan_limit=mulligan_limit, resource=resource, method=_method(simulate),
                          n_trials=trials, rng=seed, precision=precision, chunk_size=chunk_size,
                          n_workers=workers)
        _draw(plot, "plot_when", result)
    attrs = result.attrs
    lines = [f"First turn {event} holds among the cards seen — {profile.name}, {deck}"]
    lines += [n for n in (_rules_note(attrs, profile), _simulation_note(attrs)) if n]
    for seat_name, summary in attrs["summary"].items():
        mean = "—" if summary["mean"] is None else f"{summary['mean']:.2f}"
        median = f"> {max_turn}" if summary["median"] is None else str(summary["median"])
        lines.append(f"{seat_name} player: mean turn {mean} (when it happens by turn {max_turn}), median {median}, "
                     f"P(not by turn {max_turn}) {output.format_probability(summary['p_never'])}")
    _emit(result, fmt, output.when_table(result), "\n".join(lines))


@app.command()
def mulligan(
    deck: DeckArg,
    game: GameOpt,
    keep: KeepOpt = None,
    event: Annotated[str | None, typer.Option("--event", "-e", help="Event for the by-turn comparison "
                                              "(default: the resource group >= 1).")] = None,
    turns: Annotated[str, typer.Option(help="Turns of the by-turn comparison.")] = "0-6",
    seat: Annotated[Seat, typer.Option(help="Seat of the by-turn comparison.")] = Seat.first,
    mulligan_rule: RuleOpt = None,
    mulligan_limit: LimitOpt = None,
    resource: ResourceOpt = None,
    simulate: SimulateOpt = False,
    trials: TrialsOpt = None,
    seed: SeedOpt = None,
    chunk_size: ChunkOpt = DEFAULT_CHUNK,
    workers: WorkersOpt = 1,
    pool: PoolOpt = None,
    fmt: FormatOpt = Format.table,
    plot: PlotOpt = None,
) -> None:
    """What a keep rule does: P(keep the first hand), the kept hand, and the odds with and without mulligan.

    Uses the profile's mulligan (Wankul: the hand goes under the deck and 5 new
    cards are drawn, once); --mulligan-rule london|vancouver|free compares with
    the usual reference rules.
    """
    with _user_errors():
        _check_plot(plot)
        if seat is Seat.both:
            raise DeckstatError("--seat must be first or second for the mulligan comparison")
        profile = get_profile(game)
        loaded = load_deck(deck, pool=pool)
        report = api.mulligan(loaded, profile, keep=keep, event=event, turns=parse_turns(turns), seat=seat.value,
                              mulligan_rule=mulligan_rule.value if mulligan_rule else None,
                              mulligan_limit=mulligan_limit, resource=resource, method=_method(simulate),
                              n_trials=trials, rng=seed, chunk_size=chunk_size, n_workers=workers)
        _draw(plot, "plot_mulligan", report)
    summary = report.summary.iloc[0]
    if fmt is not Format.table:
        import pandas as pd

        frames = {"summary": report.summary, "mulligans": report.mulligans, "kept_hand": report.kept_hand,
                  "by_turn": report.by_turn}
        long = pd.concat([f.assign(table=name) for name, f in frames.items()], ignore_index=True)
        _emit(long, fmt, None, "")
        return
    console = _stdout()
    attrs = report.summary.attrs
    title = f"Mulligan — {profile.name}, {deck}: {summary['rule']} rule, keep rule {summary['keep']}"
    note = _simulation_note(attrs)
    console.print(Text(title + ("\n" + note if note else "")), soft_wrap=True)
    keep_text = output.format_estimate(summary["p_keep_first"], summary["ci_low"], summary["ci_high"],
                                       summary["method"])
    console.print(output.key_value_table([
        ("keep the first hand", keep_text),
        ("expected mulligans", f"{summary['expected_mulligans']:.3f}"),
    ] + [(f"{int(r.mulligans)} mulligan(s)", output.format_estimate(r.p, r.ci_low, r.ci_high, summary["method"]))
         for r in report.mulligans.itertuples(index=False)]))
    console.print(Text("Kept hand: how many cards of each group"))
    console.print(output.distribution_table(report.kept_hand, "count", "group"))
    by_turn = report.by_turn
    table = Table()
    for column in ("turn", f"with {summary['rule']} mulligan", "keep every hand", "difference"):
        table.add_column(Text(column), justify="right")
    for r in by_turn.itertuples(index=False):
        table.add_row(Text(str(r.turn)),
                      Text(output.format_estimate(r.p_with, r.p_with_low, r.p_with_high, r.method)),
                      Text(output.format_probability(r.p_without)),
                      Text(f"{(r.p_with - r.p_without) * 100:+.1f} points"))
    console.print(Text(f"P({by_turn['event'].iloc[0]}) by turn, {seat.value} player"))
    console.print(table)


class Policy(str, Enum):
    """Play policies for card effects in the deck-out model."""

    none = "none"
    on_draw = "on_draw"
    each_turn = "each_turn"


@app.command()
def deckout(
    deck: DeckArg,
    game: GameOpt,
    opponent: Annotated[Path | None, typer.Option(help="The second player's deck (default: a copy of DECK).")]
    = None,
    policy: Annotated[Policy, typer.Option(help="When cards with draw/mill effects (the draw and mill columns) "
                                           "are played: none (ignored), on_draw (as soon as drawn, chaining), "
                                           "each_turn (once per owner's turn).")] = Policy.none,
    no_drought: Annotated[bool, typer.Option("--no-drought", help="Ignore Wankul's drought rule.")] = False,
    terrain_turns: Annotated[int | None, typer.Option("--terrain-turns", help="With the drought rule: turns a "
                                                      "Terrain stays in play before it is scored (default: "
                                                      "until the end).")] = None,
    keep: KeepOpt = None,
    no_mulligan: NoMulliganOpt = False,
    simulate: SimulateOpt = False,
    trials: TrialsOpt = None,
    seed: SeedOpt = None,
    chunk_size: ChunkOpt = DEFAULT_CHUNK,
    workers: WorkersOpt = 1,
    pool: PoolOpt = None,
    fmt: FormatOpt = Format.table,
    plot: PlotOpt = None,
) -> None:
    """On which turn each seat's deck runs out, and who runs out first, under the game's deck-out rule.

    Wankul: lose when you must draw and cannot (both at once: the active player
    wins), with the drought rule (no Terrain in play or in hand: both draw one
    card at a time until one appears). Duel Masters: drawing the last card loses
    (the 5 shields leave the deck first; the first player skips the first
    draw). JdG: drawing the last card ends the duel at the end of that turn.
    Licum: both draw at the end of each turn; the match ends when both cannot.
    Pandrea: usure. Other ways a game ends are not modelled. Without effects
    and without the drought rule the answer is exact.
    """
    with _user_errors():
        _check_plot(plot)
        profile = get_profile(game)
        loaded = load_deck(deck, pool=pool)
        other = load_deck(opponent, pool=pool) if opponent is not None else None
        result = api_deckout(loaded, profile, opponent=other, policy=policy.value, drought=not no_drought,
                             terrain_turns=terrain_turns, keep=keep, mulligan=not no_mulligan,
                             method=_method(simulate), n_trials=trials, rng=seed, chunk_size=chunk_size,
                             n_workers=workers)
        _draw(plot, "plot_deckout", result)
    attrs = result.attrs
    vs = f"against {opponent}" if opponent is not None else "against a copy of itself"
    lines = [f"Deck-out — {profile.name}, {deck} (first player) {vs}: {DECKOUT_RULES[profile.deckout]}",
             f"policy: {attrs['policy_text']}"]
    if attrs["drought"]:
        lines.append("drought rule on; " + attrs["assumptions"][-1])
    note = _simulation_note(attrs)
    if note:
        lines.append(note)
    for seat_name, summary in attrs["summary"].items():
        lines.append(f"{seat_name} player runs out on turn {summary['median']} (median; mean {summary['mean']:.2f}, "
                     f"earliest {summary['earliest']}, latest {summary['latest']})")
    first = attrs["p_first_runs_out_first"]
    lines.append(f"P(first player runs out first) = {output.format_probability(first)}"
                 + (f", at the same moment {output.format_probability(attrs['p_same_moment'])}"
                    if attrs["p_same_moment"] else ""))
    _emit(result, fmt, output.distribution_table(result, "turn", "seat"), "\n".join(lines))


def _parse_counts(text: str) -> list[int]:
    """Parse ``--range`` (``"8-20"``, ``"10"`` or ``"8,10,12-14"``) into sorted resource counts."""
    return parse_ranges(text, option="--range", noun="count", example="8-14", limit=100_000)


def _ratio_table(result) -> Table:
    """One row per resource count: legality, hand, mulligan, first resource turn, P(event) by turn."""
    group = result.attrs["group"]
    turns = sorted(set(result["turn"]))
    table = Table(collapse_padding=True)
    deckout = result["deckout_turn_first"].notna().any()
    columns = [f"{group}\ncards", "legal", f"P({group}\nin hand)", "mulligan\nrate", f"first {group}\nturn (mean)"]
    if deckout:
        columns.append("deck runs\nout (mean)")
    for column in columns:
        table.add_column(Text(column), justify="center" if column == "legal" else "right")
    for turn in turns:
        table.add_column(Text(f"turn {turn}"), justify="right")
    recommended = result.attrs.get("recommended")
    for count, rows in result.groupby("resource_count", sort=True):
        first = rows.iloc[0]
        by_turn = {r.turn: output.format_estimate(r.p, r.ci_low, r.ci_high, r.method)
                   for r in rows.itertuples(index=False)}
        mean = first["expected_first_resource_turn"]
        simulated = first["method"] == "simulate"
        approx = "≈ " if simulated else ""
        cells = [f"{count} ◀" if count == recommended else str(count), "✓" if first["legal"] else "✗",
                 approx + output.format_probability(first["p_resource_in_hand"]),
                 approx + output.format_probability(first["mulligan_rate"]),
                 "–" if mean != mean else f"{approx}{mean:.2f}"]  # NaN at 0 resource cards
        if deckout:
            cells.append(f"≈ turn {first['deckout_turn_first']:.2f}")
        table.add_row(*[Text(c) for c in cells], *[Text(by_turn.get(t, "–")) for t in turns])
    return table


@app.command()
def ratio(
    deck: DeckArg,
    game: GameOpt,
    counts: Annotated[str | None, typer.Option("--range", help="Resource counts to sweep: 8-20, 10 or 8,10,12-14 "
                                               "(default: the deck's own count ± 5).")] = None,
    event: Annotated[str | None, typer.Option("--event", "-e", help="Event by turn (default: the resource "
                                              "group >= 1, e.g. Terrain>=1).")] = None,
    turns: Annotated[str, typer.Option(help="Turns: 0-5, 3 or 0,2,4. Turn 0 is the kept opening hand.")] = "0-5",
    target: Annotated[float | None, typer.Option(help="Probability to reach, e.g. 0.95: names the smallest count "
                                                 "whose P(event) at the target turn reaches it.")] = None,
    target_turn: Annotated[int | None, typer.Option("--target-turn", help="Turn of the target (default: the "
                                                    "last turn).")] = None,
    group: Annotated[str | None, typer.Option(help="Resource group to sweep (default: the profile's, e.g. "
                                              "Terrain).")] = None,
    filler: Annotated[str | None, typer.Option(help="Card whose count alone makes room (default: every other "
                                               "card is scaled in proportion).")] = None,
    seat: Annotated[Seat, typer.Option(help="Whose draws: first or second player.")] = Seat.first,
    keep: KeepOpt = None,
    no_mulligan: NoMulliganOpt = False,
    simulate: SimulateOpt = False,
    trials: TrialsOpt = None,
    seed: SeedOpt = None,
    chunk_size: ChunkOpt = DEFAULT_CHUNK,
    workers: WorkersOpt = 1,
    pool: PoolOpt = None,
    fmt: FormatOpt = Format.table,
    plot: PlotOpt = None,
) -> None:
    """10, 11 or 12 Terrains? Sweep the resource count at a constant deck size.

    At each count the deck is rebuilt: the resource cards scaled in proportion
    to their counts, the other cards scaled to fill the rest (or only --filler
    changes), by largest-remainder rounding. Each version is validated and
    asked P(resource in the kept hand), the mulligan rate, the mean first turn
    with a resource card and P(event) by turn. --target 0.95 names the
    smallest count reaching it at --target-turn; with --simulate a count whose
    95% interval contains the target leaves the decision undecided.
    """
    from deckstat.analysis import ratio as ratio_sweep

    with _user_errors():
        _check_keep(keep, no_mulligan)
        _check_plot(plot)
        if seat is Seat.both:
            raise DeckstatError("--seat must be first or second for the ratio sweep")
        if trials is not None:
            simulate = True
        count_list = _parse_counts(counts) if counts is not None else None
        turn_list = parse_turns(turns)
        profile = get_profile(game)
        loaded = load_deck(deck, pool=pool)
        result = ratio_sweep(loaded, profile, counts=count_list, group=group, filler=filler, event=event,
                             turns=turn_list, seat=seat.value, target=target, target_turn=target_turn, keep=keep,
                             mulligan=not no_mulligan, method=_method(simulate), n_trials=trials, rng=seed,
                             chunk_size=chunk_size, n_workers=workers)
        _draw(plot, "plot_ratio", result)
    attrs = result.attrs
    group_label = attrs["group"]
    head = (f"P({attrs['event']}) by turn, {attrs['seat']} player, by number of {group_label} cards — "
            f"{profile.name}, {deck} ({attrs['deck_size']} cards, {attrs['current_count']} {group_label} cards now)")
    how = (f"only {attrs['filler']} changes to keep the size" if attrs["filler"] is not None
           else "other cards scaled in proportion to keep the size")
    if attrs["added_card"] is not None:
        how += f"; {attrs['added_card']!r} added"
    notes = [n for n in (how, _rules_note(attrs, profile), _simulation_note(attrs)) if n]
    _emit(result, fmt, _ratio_table(result), head + "\n" + "; ".join(notes))
    if fmt is not Format.table:
        return
    lines = [f"✗ {count} {group_label} cards: {rows['violations'].iloc[0]}"
             for count, rows in result.groupby("resource_count", sort=True) if not rows["legal"].iloc[0]]
    if attrs["target"] is not None:
        lines.append(attrs["decision"])
    if lines:
        _stdout().print(Text("\n".join(lines)), soft_wrap=True)


@app.command()
def compare(
    decks: Annotated[list[Path], typer.Argument(help="Two or more decks; each is compared with the first.",
                                                show_default=False)],
    game: GameOpt,
    event: Annotated[str, typer.Option("--event", "-e", help="Event, e.g. \"Terrain>=1\".")],
    turns: Annotated[str, typer.Option(help="Turns: 0-6, 3 or 0,2,4.")] = "0-6",
    seat: SeatOpt = Seat.both,
    zone: Annotated[Zone, typer.Option(help="seen, hand, set_aside or bottom (see `deckstat odds --help`).")]
    = Zone.seen,
    keep: KeepOpt = None,
    no_mulligan: NoMulliganOpt = False,
    mulligan_rule: RuleOpt = None,
    mulligan_limit: LimitOpt = None,
    simulate: SimulateOpt = False,
    unpaired: Annotated[bool, typer.Option("--unpaired", help="Simulate the decks independently instead of "
                                           "with the same shuffles (wider intervals on the difference).")] = False,
    with_deckout: Annotated[bool, typer.Option("--deckout", help="Also show each deck's deck-out turns.")] = False,
    ratio_range: Annotated[str | None, typer.Option("--ratio", help="Also sweep the resource count over this "
                                                    "range (e.g. 8-14) for each deck.")] = None,
    trials: TrialsOpt = None,
    seed: SeedOpt = None,
    chunk_size: ChunkOpt = DEFAULT_CHUNK,
    workers: WorkersOpt = 1,
    pool: PoolOpt = None,
    fmt: FormatOpt = Format.table,
    plot: PlotOpt = None,
) -> None:
    """The same question for several versions of a deck: card differences, odds, and the difference.

    The difference (deck B minus deck A) comes with a 95% interval and the
    p-value of "no difference". Exact where the exact engine applies;
    otherwise simulated with common random numbers (the same shuffles drive
    every deck), which narrows the interval on the difference.
    """
    from deckstat.compare import compare as compare_decks
    from deckstat.compare import compare_deckout

    with _user_errors():
        _check_plot(plot)
        if len(decks) < 2:
            raise DeckstatError("compare needs at least two decks")
        _check_keep(keep, no_mulligan)
        if trials is not None:
            simulate = True
        profile = get_profile(game)
        loaded = [load_deck(d, pool=pool) for d in decks]
        result = compare_decks(loaded, profile, event, turns=parse_turns(turns), seat=seat.value, zone=zone.value,
                               keep=keep, mulligan=not no_mulligan,
                               mulligan_rule=mulligan_rule.value if mulligan_rule else None,
                               mulligan_limit=mulligan_limit, method=_method(simulate), paired=not unpaired,
                               n_trials=trials, rng=seed, chunk_size=chunk_size, n_workers=workers)
        extra = []
        if with_deckout:
            extra.append(("Deck-out (each deck against a copy of itself)",
                          compare_deckout(loaded, profile, n_trials=trials, rng=seed)))
        if ratio_range is not None:
            from deckstat.analysis import ratio as ratio_sweep

            sweeps = []
            for path, d in zip(decks, loaded):
                sweep = ratio_sweep(d, profile, counts=_parse_counts(ratio_range), turns=parse_turns(turns),
                                    seat="first" if seat is Seat.both else seat.value, n_trials=trials, rng=seed)
                last = sweep[sweep["turn"] == sweep["turn"].max()]
                sweeps.append(last.assign(deck=path.name))
            import pandas as pd

            extra.append((f"Ratio sweep: P({sweeps[0]['event'].iloc[0]}) by turn {int(sweeps[0]['turn'].max())}",
                          pd.concat(sweeps, ignore_index=True)))
        _draw(plot, "plot_compare", result)
    if fmt is not Format.table:
        _emit(result, fmt, None, "")
        return
    console = _stdout()
    for name, changes in result.attrs["differences"].items():
        console.print(Text(f"{decks[0].name} → {name}: " + (", ".join(
            f"{c['name']} {c['change']}" for c in changes) if changes else "same cards")), soft_wrap=True)
    note = _simulation_note(result.attrs)
    if note:
        pairing = "paired (same shuffles)" if result.attrs["paired"] else "independent runs"
        console.print(Text(f"{note}; {pairing}"), soft_wrap=True)
    table = Table()
    for column in ("turn", "seat", "deck A", "deck B", "B − A [95% interval]", "p-value"):
        table.add_column(Text(column), justify="right")
    for r in result.itertuples(index=False):
        interval = f"{(r.diff) * 100:+.2f} pts"
        if r.method == "simulate":
            interval += f" [{r.diff_ci_low * 100:+.2f}, {r.diff_ci_high * 100:+.2f}]"
        p_value = "exact" if r.method == "exact" else (f"{r.p_value:.2g}" if r.p_value >= 1e-4 else "< 0.0001")
        table.add_row(*[Text(str(c)) for c in (r.turn, r.seat, output.format_probability(r.p_a),
                                                output.format_probability(r.p_b), interval, p_value)])
    console.print(Text(f"P({result['event'].iloc[0]}) — {profile.name}; A = {result['deck_a'].iloc[0]}"))
    console.print(table)
    for title, frame in extra:
        console.print(Text(title))
        if "resource_count" in frame.columns:
            frame = frame.assign(p=[output.format_probability(p) for p in frame["p"]])
            console.print(output.distribution_table(frame.assign(value=frame["p"]), "resource_count", "deck",
                                                    value="value", formatted=True))
        else:
            shown = frame.assign(mean=frame["mean"].round(2))
            console.print(output.frame_table(shown[["deck", "seat", "mean", "median", "earliest", "latest"]]))


@app.command()
def report(
    deck: DeckArg,
    game: GameOpt,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder to write the report and its figures into.")]
    = Path("report"),
    html: Annotated[bool, typer.Option("--html", help="Write report.html instead of report.md.")] = False,
    trials: Annotated[int, typer.Option("--trials", help="Trials of the simulated parts.")] = 100_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the simulated parts.")] = 2026,
    pool: PoolOpt = None,
) -> None:
    """Everything about one deck in one page, with figures.

    Legality, opening hands and mulligan, the by-turn curve, the resource-count
    sweep and deck-out timing, written as report.md (or report.html) into --out.
    """
    from deckstat.report import build_report

    with _user_errors():
        profile = get_profile(game)
        loaded = load_deck(deck, pool=pool)
        page = build_report(loaded, profile, out, fmt="html" if html else "markdown", n_trials=trials, rng=seed)
    _stdout().print(Text(f"wrote {page} and its figures"))


@games_app.callback()
def games(ctx: typer.Context) -> None:
    """List the shipped game profiles (``deckstat games show ID`` for one in words)."""
    if ctx.invoked_subcommand is not None:
        return
    table = Table()
    for column in ("id", "game", "deck", "hand", "mulligan", "deck-out"):
        table.add_column(Text(column))
    for profile in list_profiles():
        several = len(profile.parts) > 1
        size_rules = [f"{p.name}: {r.text}" if several else r.text
                      for p in profile.parts for r in p.rules if r.kind == "size"]
        table.add_row(*[Text(c) for c in (profile.id, profile.name, "; ".join(size_rules),
                                           str(profile.hand_size), profile.mulligan,
                                           profile.deckout.replace("_", " "))])
    _stdout().print(table)


@games_app.command("show")
def games_show(game: Annotated[str, typer.Argument(help="Profile id, alias or .toml file.")]) -> None:
    """Show one game profile's rules in words, with its assumptions and rules-text sources."""
    with _user_errors():
        profile = get_profile(game)
    table = Table(show_header=False)
    table.add_column(Text("what"), style="bold")
    table.add_column(Text("rule"))
    for field_name, text in profile.describe():
        table.add_row(Text(field_name), Text(text))
    _stdout().print(table)


def main() -> None:
    """Entry point of the ``deckstat`` command."""
    app()
