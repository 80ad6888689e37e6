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
from rich.markup import escape
from rich.table import Table

from deckstat import api, output
from deckstat.cards import load_deck
from deckstat.errors import DeckstatError
from deckstat.profiles import get_profile, list_profiles
from deckstat.rules import validate as validate_deck

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
    return Console(file=sys.stdout, soft_wrap=False, width=max(100, Console().width))


@contextmanager
def _user_errors():
    try:
        yield
    except DeckstatError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(code=2) from None


def parse_turns(text: str) -> list[int]:
    """Parse ``"0-6"``, ``"3"`` or ``"0,2,4-6"`` into a sorted list of turns."""
    turns: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        match = re.fullmatch(r"(\d+)\s*(?:-\s*(\d+))?", part)
        if not match:
            raise DeckstatError(f"--turns {text!r}: {part!r} is not a turn or a range such as 0-6")
        low = int(match.group(1))
        high = int(match.group(2)) if match.group(2) else low
        if high < low:
            raise DeckstatError(f"--turns {text!r}: range {part!r} goes backwards")
        if high > 1000:
            raise DeckstatError(f"--turns {text!r}: turn {high} is beyond any deck")
        turns.update(range(low, high + 1))
    return sorted(turns)


DeckArg = Annotated[Path, typer.Argument(help="Card CSV (one row per card), or a text decklist with --pool.",
                                         show_default=False)]
GameOpt = Annotated[str, typer.Option("--game", "-g", help="Game profile id (see `deckstat games`) or a "
                                      ".toml profile file.")]
PoolOpt = Annotated[Path | None, typer.Option(help="Card pool CSV that resolves a text decklist.")]
FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="Output format.")]


def _emit(frame, fmt: Format, table: Table | None, title: str) -> None:
    if fmt is Format.csv:
        sys.stdout.write(output.to_csv(frame))
    elif fmt is Format.json:
        sys.stdout.write(output.to_json(frame) + "\n")
    else:
        console = _stdout()
        console.print(escape(title))
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
    seat: Annotated[Seat, typer.Option(help="Whose draws: first player, second player, or both.")]
    = Seat.both,
    zone: Annotated[Zone, typer.Option(help="seen: kept hand and draws; hand: kept opening hand; "
                                       "set_aside: e.g. Duel Masters shields; bottom: cards a mulligan "
                                       "put under the deck.")] = Zone.seen,
    keep: Annotated[str | None, typer.Option(help="Keep rule for the profile's mulligan, e.g. "
                                             "\"Terrain>=1\" (default: the profile's).")] = None,
    no_mulligan: Annotated[bool, typer.Option("--no-mulligan", help="Keep every first hand.")] = False,
    pool: PoolOpt = None,
    fmt: FormatOpt = Format.table,
) -> None:
    """Probability of an event in the opening hand and by turn, for one deck.

    Exact: multivariate hypergeometric over disjoint groups of cards, with the
    profile's set-aside cards, mulligan and keep rule, and turn-1 draw rule.
    The question is about one deck under its own draw rules: rules that couple
    both players' decks (Wankul's drought draws when no Terrain is anywhere)
    belong to the two-player deck-out model, not to these odds.
    """
    with _user_errors():
        profile = get_profile(game)
        loaded = load_deck(deck, pool=pool)
        turn_list = parse_turns(turns)
        frames = [api.odds(loaded, profile, e, turns=turn_list, seat=seat.value, zone=zone.value, keep=keep,
                           mulligan=not no_mulligan) for e in event]
    import pandas as pd

    result = pd.concat(frames, ignore_index=True)
    result.attrs = frames[0].attrs
    attrs = result.attrs
    notes = []
    if attrs["keep"]:
        notes.append(f"keep rule {attrs['keep']}, first hand kept {output.format_probability(attrs['p_keep'])}")
    elif profile.mulligan != "none":
        notes.append("no mulligan")
    if zone.value in ("hand", "set_aside"):
        notes.append(f"the {zone.value} zone is fixed once the game starts: reported at turn 0")
    zone_words = {"seen": "in the kept hand and cards drawn", "hand": "in the kept opening hand",
                  "set_aside": f"in the {profile.set_aside_name}", "bottom": "under the deck"}[zone.value]
    head = f"P({event[0]}) {zone_words}" if len(event) == 1 else f"P(event) {zone_words}"
    title = f"{head} — {profile.name}, {deck} ({attrs['deck_size']} cards)"
    if notes:
        title += "\n" + "; ".join(notes)
    _emit(result, fmt, output.odds_table(result), title)


@games_app.callback()
def games(ctx: typer.Context) -> None:
    """List the shipped game profiles (``deckstat games show ID`` for one in words)."""
    if ctx.invoked_subcommand is not None:
        return
    table = Table()
    for column in ("id", "game", "deck", "hand", "mulligan", "deck-out"):
        table.add_column(column)
    for profile in list_profiles():
        size_rules = [r.text for p in profile.parts for r in p.rules if r.kind == "size"]
        table.add_row(*[escape(c) for c in (profile.id, profile.name, "; ".join(size_rules),
                                             str(profile.hand_size), profile.mulligan,
                                             profile.deckout.replace("_", " "))])
    _stdout().print(table)


@games_app.command("show")
def games_show(game: Annotated[str, typer.Argument(help="Profile id, alias or .toml file.")]) -> None:
    """Show one game profile's rules in words, with its assumptions and rules-text sources."""
    with _user_errors():
        profile = get_profile(game)
    table = Table(show_header=False)
    table.add_column("what", style="bold")
    table.add_column("rule")
    for field_name, text in profile.describe():
        table.add_row(escape(field_name), escape(text))
    _stdout().print(table)


def main() -> None:
    """Entry point of the ``deckstat`` command."""
    app()
