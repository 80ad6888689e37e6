"""What the commands share: option types, range parsing, the flags errors are written with, output."""

from __future__ import annotations

import copy
import inspect
import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from typer.core import TyperCommand, TyperGroup

from deckstat.cli.signals import ends_in_interrupt, interrupted_code
from deckstat.errors import DeckstatError
from deckstat.i18n import LANGUAGES, N_, NBSP, LanguageError, detect_language, get_language, language, tr
from deckstat.terms import (
    DROUGHT_ORDERS,
    FORMATS,
    MOST_SWEEP,
    MOST_TURN,
    MULLIGAN_RULES,
    POLICIES,
    SEAT_ALIASES,
    SEATS,
    ZONE_ALIASES,
    ZONES,
)

if TYPE_CHECKING:
    from rich.console import Console

    from deckstat.cli.drawing import PlainConsole
    from deckstat.results import Result

#: Exit codes: a rule broken (``validate``), unusable input, a bug in deckstat (sysexits' EX_SOFTWARE, which
#: scripts can tell from 1 and 2); Ctrl-C and SIGTERM are in :mod:`deckstat.cli.signals`.
EXIT_RULE_BROKEN, EXIT_USAGE, EXIT_INTERNAL = 1, 2, 70


#: How the command line spells the Python parameters that error messages name.
FLAGS = {
    "n_trials": "--trials", "rng": "--seed", "precision": "--precision", "chunk_size": "--chunk-size",
    "n_workers": "--workers", "turns": "--turns", "max_turn": "--max-turn", "seat": "--seat", "zone": "--zone",
    "keep": "--keep", "mulligan_rule": "--mulligan-rule", "mulligan_limit": "--mulligan-limit",
    "resource": "--resource", "event": "--event", "counts": "--range", "group": "--group", "filler": "--filler",
    "target": "--target", "target_turn": "--target-turn", "policy": "--policy", "terrain_turns": "--terrain-turns",
    "drought_order": "--drought-order", "flood": "--flood", "copies_by": "--copies-by",
    "opponent": "--opponent", "decks": "DECKS", "table": "--table", "paired": "--unpaired", "pool": "--pool",
    "mulligan=False": "--no-mulligan", "method='simulate'": "--simulate", "method='exact'": "--exact",
    "allow_absent": "--allow-absent", "allow_absent=True": "--allow-absent", "max_trials": "--max-trials",
    "priority": "--priority", "cards": "--card", "groups": "--group",
    "by_turn": "--by-turn", "objective": "--objective", "objective='curve'": "--objective curve", "card": "--card",
    "curve_group": "--curve-group",
    "known": "--known/--gone/--bottom/--given", "given": "--given", "broken": "--broken", "draws": "--draws",
    "size": "--cards", "hand_size": "--hand-size", "deck_name": "--deck-name",
    "curve_target": "--curve", "objectives": "--objective", "budget": "--budget", "lock": "--lock",
    "owned": "--owned", "start": "--start",
}

Format = Enum("Format", {name: name for name in FORMATS}, type=str)
Format.__doc__ = "Output formats."
Seat = Enum("Seat", {name: name for name in ("both", *SEATS, *SEAT_ALIASES)}, type=str)
Seat.__doc__ = "Seats at the table, in English or in French (premier, second, les-deux, tous)."


def english_seat(seat: Seat | None) -> Seat | None:
    """The seat a French name stands for (``premier`` -> ``first``): commands see first, second or both only."""
    return None if seat is None else Seat(SEAT_ALIASES.get(seat.value, seat.value))

Zone = Enum("Zone", {name: name for name in (*ZONES, *ZONE_ALIASES)}, type=str)
Zone.__doc__ = "Zones a question can count cards in, in English or in French (main, dessous, boucliers...)."


def english_zone(zone: Zone | None) -> Zone | None:
    """The zone a French or a game's name stands for (``boucliers`` -> ``set_aside``): commands see :data:`ZONES`."""
    return None if zone is None else Zone(ZONE_ALIASES.get(zone.value, zone.value))
MulliganRule = Enum("MulliganRule", {name: name for name in MULLIGAN_RULES}, type=str)
MulliganRule.__doc__ = "Mulligan rules that can replace a profile's."
Policy = Enum("Policy", {name: name for name in POLICIES}, type=str)
Policy.__doc__ = "Play policies for card effects in the deck-out model."
DroughtOrder = Enum("DroughtOrder", {name: name for name in DROUGHT_ORDERS}, type=str)
DroughtOrder.__doc__ = "Readings of Wankul's drought draws, one card at a time."


#: Where a command line's ``--lang`` is kept for its --help (the context's ``meta``, which subcommands share).
_HELP_LANGUAGE = "deckstat.help_language"
#: The words of a group's usage line after ``[OPTIONS]`` (click writes them; marked here for the catalogue).
_USAGE_WORDS = (N_("COMMAND [ARGS]..."),)
#: The text of the --help option, which click gives it (marked here for the catalogue).
_HELP_OPTION_TEXT = N_("Show this message and exit.")


def lang_values(args: list[str]) -> list[str]:
    """The values a command line gives ``--lang`` (``--lang fr``, ``--lang=fr``), in order, up to ``--``.

    Examples
    --------
    >>> lang_values(["--help", "--lang", "fr", "--lang=en", "--", "--lang", "de"])
    ['fr', 'en']
    """
    values = []
    for index, arg in enumerate(args):
        if arg == "--":  # what follows is arguments, not options
            break
        if arg == "--lang" and index + 1 < len(args):
            values.append(args[index + 1])
        elif arg.startswith("--lang="):
            values.append(arg.removeprefix("--lang="))
    return values


def asked_language(args: list[str]) -> str | None:
    """The language a command line's ``--lang`` names, wherever it stands (``--help --lang fr``), or None.

    Examples
    --------
    >>> asked_language(["--help", "--lang", "fr"]), asked_language(["--lang=en"])
    ('fr', 'en')
    >>> asked_language(["--", "--lang", "fr"]) is None  # after --, an argument
    True
    """
    # The last one counts, as for the option itself.
    return next((value for value in reversed(lang_values(args)) if value in LANGUAGES), None)


def help_language(ctx: typer.Context) -> str:
    """The language --help is written in: the command line's ``--lang``, else ``DECKSTAT_LANG`` or the locale.

    Not the language set by an earlier command of the same process: --help is printed before ``--lang``'s
    callback has run (``--help --lang fr``), so each command line decides on its own.
    """
    asked = ctx.meta.get(_HELP_LANGUAGE)
    if asked is not None:
        return asked
    try:
        return detect_language()
    except LanguageError:  # an unknown DECKSTAT_LANG: the help is still shown, the command refuses it
        return "en"


def help_paragraphs(text: str) -> list[str]:
    r"""The paragraphs of a help text, each on one line: the messages --help is translated by.

    click rewraps each paragraph to the terminal's width, so a paragraph's line breaks carry nothing.

    Examples
    --------
    >>> help_paragraphs("First line\n    goes on.\n\n    Second one.")
    ['First line goes on.', 'Second one.']
    """
    return [" ".join(paragraph.split()) for paragraph in re.split(r"\n\s*\n", inspect.cleandoc(text))
            if paragraph.strip()]


def help_text(text: str | None) -> str | None:
    """A help text in the current language, paragraph by paragraph (English: as written)."""
    if not text or get_language() == "en":
        return text
    return "\n\n".join(tr(paragraph) for paragraph in help_paragraphs(text))


def _extras(tail: str) -> str:
    """What typer writes after a parameter's help (``  [default: table; required]``) in the current language.

    The values stay as they are (identifiers and numbers the command line takes); the words around them change.
    """
    found = re.fullmatch(r"(\s*)\[(.*)\]", tail, flags=re.DOTALL)
    if found is None or get_language() == "en":
        return tail
    parts = []
    for part in found[2].split("; "):
        if part == "required":
            part = tr("required")
        elif part.startswith("default: "):
            part = tr("default: {default}", default=part.removeprefix("default: "))
        parts.append(part)
    return f"{found[1]}[{tr('; ').join(parts)}]"


#: What stands for a no-break space while click shortens a help text (a character that is not a space).
_GLUE = "\ue000"


def _no_break(text: str | None) -> str | None:
    """``text`` with its no-break spaces held as :data:`_GLUE`."""
    return None if text is None else text.replace(NBSP, _GLUE)


@contextmanager
def _section(formatter, title: str) -> Iterator[None]:
    """Open a section of --help as click's ``formatter.section`` does, with ``title`` written whole.

    click adds the colon itself; French puts a no-break space before it (``Options :``).
    """
    formatter.write_paragraph()
    formatter.write(f"{'':>{formatter.current_indent}}{title}\n")
    formatter.indent()
    try:
        yield
    finally:
        formatter.dedent()


class _Coercion:
    """typer's coercion of one parameter's value, its pydantic validator built only for a value that needs one.

    typer builds a pydantic ``TypeAdapter`` for every parameter it processes, an absent one too: importing
    pydantic alone costs about what importing typer does, and ``deckstat games`` or ``--help`` reads no value
    that needs it. An absent value, a text for a ``str`` parameter and a name for an ``Enum`` one are read here
    as typer's validator reads them; anything else, a refused choice included, goes to typer's own coercion,
    so that every value and every error (its message, its pydantic cause) is typer's.
    """

    __slots__ = ()

    def coerce(self, value: object, param, ctx: typer.Context) -> object:
        """``value`` as typer's coercion of ``param`` returns it."""
        many = param.multiple or param.nargs == -1
        if value is None:  # typer's answer for an absent value, whatever the type
            return () if many else None
        descriptor = param.type_descriptor
        info = descriptor.parameter_info
        if not many and isinstance(value, str) and info.parser is None and descriptor.file_annotation is None:
            if descriptor.annotation is str:
                return value
            if isinstance(descriptor.annotation, type) and issubclass(descriptor.annotation, Enum):
                try:
                    return _coerce_choice(value, choices=tuple(descriptor.annotation),
                                          case_sensitive=info.case_sensitive, ctx=ctx)
                except ValueError:
                    pass  # typer's own coercion words the error
        param._runtime_param = _build_coercion(descriptor)
        return param._runtime_param.coerce(value, param=param, ctx=ctx)


try:  # typer's internals: without them (another typer), typer coerces every value itself
    from typer._coercion import build_runtime_param as _build_coercion
    from typer._param_types import coerce_cli_choice as _coerce_choice
except ImportError:  # pragma: no cover
    _build_coercion = None


def _defer_coercion(params) -> None:
    """Give each typer parameter of ``params`` not yet coerced a :class:`_Coercion`."""
    if _build_coercion is None:
        return
    for param in params:
        if getattr(param, "_runtime_param", False) is None and hasattr(param, "type_descriptor"):
            param._runtime_param = _Coercion()


class _HelpInLanguage:
    """--help in the language of the command line (``--lang``, wherever it stands), ``DECKSTAT_LANG`` or the locale.

    typer reads help texts when the command line is defined, in English, the messages' keys; they are looked up
    here, when --help is written: the help text and each parameter's paragraph by paragraph, and the words click
    and typer add (``Usage:``, ``Options:``, ``[default: …]``, ``[required]``).
    """

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        """Note the ``--lang`` of ``args`` for --help, which click may process first, then parse as usual."""
        asked = asked_language(args)
        if asked is not None:
            ctx.meta[_HELP_LANGUAGE] = asked
        _defer_coercion(self.get_params(ctx))
        return super().parse_args(ctx, args)

    def format_help(self, ctx: typer.Context, formatter) -> None:
        """Write the whole --help in :func:`help_language`."""
        with language(help_language(ctx)):
            super().format_help(ctx, formatter)

    def format_usage(self, ctx: typer.Context, formatter) -> None:
        """Write the ``Usage:`` line."""
        pieces = [tr(piece) if piece in _USAGE_WORDS else piece for piece in self.collect_usage_pieces(ctx)]
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=tr("Usage: "))

    def format_help_text(self, ctx: typer.Context, formatter) -> None:
        """Write the command's help text (its docstring, up to a form feed)."""
        text = help_text(inspect.cleandoc(self.help).partition("\f")[0]) if self.help else ""
        if text:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(text)

    def format_parameters(self, ctx: typer.Context, formatter) -> None:
        """Write the Arguments and Options sections, arguments named by their metavar alone (``DECK``)."""
        arguments, options = [], []
        for parameter in self.get_params(ctx):
            record = parameter.get_help_record(ctx)
            if record is None:
                continue
            names, text = record
            written = parameter.help or ""
            if text.startswith(written):  # typer's record: the help, then what it adds
                text = (help_text(written) or "") + _extras(text[len(written):])
            if parameter.param_type_name == "argument":
                arguments.append((parameter.metavar or parameter.name.upper(), text))
            else:
                options.append((names, text))
        for title, rows in ((tr("Arguments:"), arguments), (tr("Options:"), options)):
            if rows:
                with _section(formatter, title):
                    formatter.write_dl(rows)


class Command(_HelpInLanguage, TyperCommand):
    """A command whose --help is in the user's language and names arguments as options are named: by metavar.

    Typer adds the Python type to an argument (``DECK <path>``); the options already say what they take.
    """

    def format_options(self, ctx: typer.Context, formatter) -> None:
        """Write the Arguments and Options sections of --help."""
        self.format_parameters(ctx, formatter)


class Group(_HelpInLanguage, TyperGroup):
    """A group of commands (the app, ``games``) whose --help is in the user's language; formatting only."""

    def format_options(self, ctx: typer.Context, formatter) -> None:
        """Write the Options and Commands sections of --help."""
        self.format_parameters(ctx, formatter)
        self.format_commands(ctx, formatter)

    def format_commands(self, ctx: typer.Context, formatter) -> None:
        """Write the Commands section: each command with the start of its help, cut as click cuts it."""
        commands = [(name, command) for name in self.list_commands(ctx)
                    if (command := self.get_command(ctx, name)) is not None and not command.hidden]
        if not commands:
            return
        limit = formatter.width - 6 - max(len(name) for name, _ in commands)  # as click: room for the names
        rows = []
        for name, command in commands:
            # A shallow copy holding the translated text, so that click's own shortening cuts it. That splits
            # words at every space, no-break ones too, and joins them with plain ones: they are held apart.
            shown = copy.copy(command)
            shown.help = _no_break(help_text(command.help))
            shown.short_help = _no_break(help_text(command.short_help))
            rows.append((name, shown.get_short_help_str(limit).replace(_GLUE, NBSP)))
        with _section(formatter, tr("Commands:")):
            formatter.write_dl(rows)


#: The names --seat takes for one seat (English and French).
ONE_SEAT_NAMES = (*SEATS, *(alias for alias, seat in SEAT_ALIASES.items() if seat in SEATS))


def choices(values: type[Enum] | tuple[str, ...]) -> str:
    """The metavar of an option with choices, ``[a|b|c]``: the values it accepts, as --help lists them."""
    return "[" + "|".join(v.value if isinstance(v, Enum) else v for v in values) + "]"


DeckArg = Annotated[Path, typer.Argument(help="Card CSV (one row per card), or a text decklist with --pool.",
                                         show_default=False, metavar="DECK")]
GameOpt = Annotated[str, typer.Option("--game", "-g", help="Game profile id (see `deckstat games`) or a "
                                      ".toml profile file.", metavar="GAME")]
PoolOpt = Annotated[Path | None, typer.Option(help="Card pool CSV that resolves a text decklist (card files are read "
                                              "as they are).", metavar="FILE")]
DeckNameOpt = Annotated[str | None, typer.Option(
    "--deck-name", help="For a file that holds several decks (a deck_name column): the deck to read.",
    metavar="NAME")]
DeckNamesOpt = Annotated[list[str] | None, typer.Option(
    "--deck-name", help="For files that hold several decks (a deck_name column): the deck to read, once for every "
    "file, or once per deck in order.", metavar="NAME")]
FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="Output format: a table to read, csv (one table, "
                                           "each row with what reproduces it) or json (every table and the "
                                           "provenance).", metavar=choices(Format))]
TableOpt = Annotated[str | None, typer.Option("--table", help="With --format csv: which table of the result to "
                                              "write (default: the first; see --format json for their names).",
                                              metavar="TABLE")]
EventsOpt = Annotated[list[str], typer.Option("--event", "-e", help="Event, e.g. \"Terrain>=1 and [cost<=1]>=2\". "
                                              "Repeat for several events.", metavar="EVENT")]
OptionalEventsOpt = Annotated[list[str] | None, typer.Option("--event", "-e", help="Event(s) asked (default: the "
                                                             "resource group >= 1). Repeat for several.",
                                                             metavar="EVENT")]
TurnsOpt = Annotated[str, typer.Option(help="Turns: 0-6, 3 or 0,2,4. Turn 0 is the kept opening hand.",
                                       metavar="TURNS")]
SeatOpt = Annotated[Seat, typer.Option(help="Whose draws: first player, second player, or both (French: premier, "
                                       "second, les-deux...).", callback=english_seat, metavar=choices(Seat))]
OneSeatOpt = Annotated[Seat, typer.Option(help="Whose draws: first or second player (French: premier, second).",
                                          callback=english_seat, metavar=choices(ONE_SEAT_NAMES))]
ZoneOpt = Annotated[Zone, typer.Option(help="seen: kept hand and draws; hand: kept opening hand; set_aside: e.g. "
                                       "Duel Masters shields; bottom: cards a mulligan put under the deck (French: "
                                       "vu, main, boucliers, dessous).", callback=english_zone,
                                       metavar=choices(ZONES))]
KeepOpt = Annotated[str | None, typer.Option(help="Keep rule of the mulligan, e.g. \"Terrain>=1\" "
                                             "(default: the profile's).", metavar="EVENT")]
NoMulliganOpt = Annotated[bool, typer.Option("--no-mulligan", help="Keep every first hand.")]
RuleOpt = Annotated[MulliganRule | None, typer.Option(
    "--mulligan-rule", help="Replace the profile's mulligan: bottom (hand under the deck, no shuffle), london, "
    "vancouver, free (first mulligan free, then London), hearthstone (replace the cards not needed, once), "
    "pokemon (redraw until the keep rule holds), none.", metavar=choices(MulliganRule))]
LimitOpt = Annotated[int | None, typer.Option("--mulligan-limit", help="Mulligans allowed (default: the "
                                              "profile's, or 1).", metavar="N")]
ResourceOpt = Annotated[str | None, typer.Option(help="Resource group (default: the profile's): London, "
                                                 "Vancouver, free and Hearthstone mulligans keep its share of "
                                                 "the hand.", metavar="GROUP")]
PriorityOpt = Annotated[str | None, typer.Option(help="Cards London, Vancouver, free and Hearthstone mulligans "
                                                 "keep, most important first, e.g. \"Terrain=2, [cost<=1]=1, "
                                                 "Dragon\" (no count: every card of the group); default: the "
                                                 "keep rule's, the event's, then the resource group's needs.",
                                                 metavar="GROUPS")]
SimulateOpt = Annotated[bool, typer.Option("--simulate", help="Use the Monte Carlo kernel even where the exact "
                                           "engine applies (--trials and --precision imply it).")]
ExactOpt = Annotated[bool, typer.Option("--exact", help="Use the exact engine even when it would be slow (by "
                                        "default it is used when it models the rules and its predicted cost is "
                                        "under ~1 s and 256 MiB); refused up front beyond 10 min or 4 GiB.")]


def count_parser(name: str, minimum: int = 1) -> Callable[[object], int]:
    """A Typer ``parser=`` for a whole number written as people write it (``200000``, ``100_000``, ``1e8``).

    A value that is not one prints the one-line ``error:`` naming the flag of
    ``name`` and exits with code 2, as every other bad input does.
    """
    def parse(text: object) -> int:
        from deckstat._validate import parse_count  # it loads numpy, which --help does without

        try:
            try:
                return parse_count(text, name)
            except DeckstatError:
                # Not a number at all: say "at least 1", the least most count flags take (0 is left to the
                # question, which refuses it in the words of every other bad count).
                return parse_count(text, name, minimum=minimum)
        except DeckstatError as exc:
            typer.echo(tr("error: {message}", message=exc.render(FLAGS)), err=True)
            raise typer.Exit(code=2) from None

    return parse


TrialsOpt = Annotated[int | None, typer.Option("--trials", parser=count_parser("n_trials"),
                                               help="Simulated trials, e.g. 200000, 100_000 or 1e8 "
                                               "(default 200000).", metavar="N")]
MaxTrialsOpt = Annotated[int, typer.Option("--max-trials", parser=count_parser("max_trials"),
                                           help="The most trials --precision may spend; a precision that needs "
                                           "more is refused after the first block of trials.", metavar="N")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar (it is drawn on stderr, only "
                                        "when stderr is a terminal and the work lasts over a second).")]
Lang = Enum("Lang", {name: name for name in ("en", "fr")}, type=str)
Lang.__doc__ = "Languages of the output."


def use_language(value: Lang | None) -> Lang | None:
    """Write this command's output in ``value`` (``None``: as ``DECKSTAT_LANG`` or the locale say)."""
    from deckstat.i18n import LanguageError, detect_language, set_language

    # Always set, also to None: in one process (tests, notebooks) a command must not inherit the last one's --lang.
    set_language(None if value is None else value.value)
    if value is None:
        try:
            detect_language()
        except LanguageError as exc:
            typer.echo(tr("error: {message}", message=exc), err=True)
            raise typer.Exit(code=2) from None
    return value


LangOpt = Annotated[Lang | None, typer.Option(
    "--lang", callback=use_language, is_eager=True, show_default=False,
    help="Language of tables, messages, reports and figures: fr or en (default: DECKSTAT_LANG, else the locale).",
    metavar=choices(Lang))]
SeedOpt = Annotated[int | None, typer.Option("--seed", parser=count_parser("rng", minimum=0),
                                             help="Seed of the simulation; the same seed gives the same numbers.",
                                             metavar="N")]
PrecisionOpt = Annotated[float | None, typer.Option(help="Simulate until every 95% interval's half-width is "
                                                    "at most this (e.g. 0.001).", metavar="H")]
ChunkOpt = Annotated[int, typer.Option("--chunk-size", parser=count_parser("chunk_size"),
                                       help="With --workers, trials handed to the workers ahead of the block being "
                                       "summed; the numbers do not depend on it.", metavar="N")]


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it, else every core)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def cap_workers(value: int) -> int:
    """Refuse ``--workers`` below 1; above the usable cores, say so on stderr and use the cores.

    More processes than cores only share them (the numbers do not depend on
    the workers), and each holds its own memory.
    """
    if value < 1:
        typer.echo(tr("error: {message}", message=tr("{name} must be a whole number of at least {minimum}, got {value}",
                                                      name="--workers", minimum=1, value=value)), err=True)
        raise typer.Exit(code=EXIT_USAGE)
    cores = usable_cores()
    if value > cores:
        typer.echo(tr("note: {option} {asked} is more than the {cores} cores deckstat may use here: using {cores}",
                      option="--workers", asked=value, cores=cores), err=True)
        return cores
    return value


WorkersOpt = Annotated[int, typer.Option("--workers", parser=count_parser("n_workers"), callback=cap_workers,
                                         help="Processes for the simulation, this one included (it runs blocks "
                                         "too): the others start once for the whole command, not for a run this "
                                         "one would end sooner alone (at most one per block of 131,072 trials, "
                                         "and at most the machine's cores); the numbers do not depend on it.",
                                         metavar="N")]
AllowAbsentOpt = Annotated[bool, typer.Option("--allow-absent", help="Ask about groups that match no card of the "
                                               "deck (otherwise an error that lists the values the deck has).")]
NoEffectsOpt = Annotated[bool, typer.Option("--no-effects", help="Ask the plain question alone: no answer beside "
                                           "it with the deck's card effects played (docs/effects.md).")]
PlotOpt = Annotated[Path | None, typer.Option("--plot", help="Also draw the result into this .png or .svg file.",
                                              metavar="FILE")]


def stdout() -> Console | PlainConsole:
    r"""A console that prints text from decks and profiles as is, in the characters stdout's encoding has.

    Control characters are written visibly (``\x1b``), so that a card name cannot drive the terminal. Tables
    are laid out for the width by :func:`print_items` before they reach it, so the console itself never cuts
    a line: a table whose row labels and one column are wider than the terminal (never seen on real decks)
    is printed whole, and the terminal folds it, rather than cut short with "…". Where rich would only
    place characters (:func:`~deckstat.cli.drawing.plain_console`), deckstat writes them itself, the same.
    """
    from deckstat.cli.drawing import plain_console, rich_stdout

    return plain_console(sys.stdout) or rich_stdout(sys.stdout)


def layout():
    """How this command lays out its tables (:class:`~deckstat.cli.layout.Layout`).

    For the terminal's width (``$COLUMNS`` when set; 80 for a pipe or a file), or, with ``--wide``, every
    column whatever the width; with the columns ``--columns`` names.
    """
    from deckstat.cli.drawing import terminal_width
    from deckstat.cli.layout import Layout

    width = None
    if not _wide.get():
        width = terminal_width()
        if width is None:  # where rich's console knows better (Windows, IPython, a dumb terminal)
            from rich.console import Console

            width = Console().width
    return Layout(width=width, columns=tuple(_columns.get() or ()))


def use_wide(value: bool) -> bool:
    """Remember this command's ``--wide`` for :func:`layout`."""
    _wide.set(bool(value))  # always set: in one process a command must not inherit the last one's choice
    return value


def use_columns(value: list[str] | None) -> list[str] | None:
    """Remember this command's ``--columns`` for :func:`layout`."""
    _columns.set(list(value) if value else None)
    return value


_wide: ContextVar[bool] = ContextVar("deckstat_wide", default=False)
_columns: ContextVar[list[str] | None] = ContextVar("deckstat_columns", default=None)
WideOpt = Annotated[bool, typer.Option(
    "--wide", callback=use_wide, help="Show every column of the tables, however wide (by default the tables fit "
    "the terminal's width, or 80 columns in a pipe or a file, and name the columns left out).")]
ColumnsOpt = Annotated[list[str] | None, typer.Option(
    "--columns", callback=use_columns, show_default=False, metavar="NAMES",
    help="Show these columns of the tables (with their row labels), by the names of the --format csv headers or "
    "as headed in either language, comma-separated, e.g. --columns p_flood_in_hand,mulligan_rate.")]


def print_text(console: Console | PlainConsole, text: str) -> None:
    """Print sentences: on a terminal, wrapped at spaces to its width (never inside a number).

    Elsewhere they are printed one line each, as written, so that a pipe or a file keeps each sentence whole.
    """
    from deckstat.cli.layout import wrap

    width = layout().width
    if width is not None and console.is_terminal:
        text = "\n".join(wrap(text, width))
    console.print(_sentence(console, text), soft_wrap=True)


def _sentence(console: Console | PlainConsole, text: str):
    """``text`` as ``console`` takes a sentence: as it is for deckstat's own, as rich's Text for rich's."""
    from deckstat.cli.drawing import PlainConsole, rich_text

    return text if isinstance(console, PlainConsole) else rich_text(text)


def use_excel(value: bool | None) -> bool | None:
    """Remember this command's ``--excel``/``--no-excel`` (``None``: neither) for :func:`emit`."""
    # Always set, also to None: in one process (tests, notebooks) a command must not inherit the last one's choice.
    _excel.set(value)
    return value


_excel: ContextVar[bool | None] = ContextVar("deckstat_excel", default=None)
ExcelOpt = Annotated[bool | None, typer.Option(
    "--excel/--no-excel", callback=use_excel, show_default=False,
    help="With --format csv: a file a spreadsheet opens as it is, in the language's dialect (French: ; and a "
    "decimal comma), UTF-8 with a BOM, formulas neutralised. Default: on when the language is French and "
    "stdout is a file; --no-excel writes the plain CSV programs read.")]


def stdout_is_file() -> bool:
    """Whether stdout is a regular file (``> results.csv``) rather than a terminal or a pipe."""
    try:
        return stat.S_ISREG(os.fstat(sys.stdout.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):  # a stream without a file descriptor (a test's capture)
        return False


def excel_csv(*, to_file: bool | None = None) -> bool:
    """Whether a CSV is written in the spreadsheet dialect.

    As ``--excel``/``--no-excel`` say; otherwise in French when the CSV goes to a file (``to_file``; default:
    whether stdout is one).
    """
    from deckstat.i18n import get_language

    chosen = _excel.get()
    if chosen is not None:
        return chosen
    return get_language() == "fr" and (stdout_is_file() if to_file is None else to_file)


def _write_bytes(data: bytes) -> None:
    """Write ``data`` to stdout as they are (a spreadsheet's CSV is UTF-8 whatever the terminal's encoding)."""
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(data.decode("utf-8-sig"))
        return
    buffer.write(data)
    buffer.flush()


def internal_error(exc: BaseException) -> str:
    """The one line printed for an unexpected exception (a bug): its type and message, and where to report it.

    With ``DECKSTAT_DEBUG=1`` in the environment the traceback is printed to
    stderr first.
    """
    if os.environ.get("DECKSTAT_DEBUG") == "1":
        import traceback

        traceback.print_exception(exc, file=sys.stderr)
    message = " ".join(str(exc).split()) or "-"
    return tr("internal error: {kind}: {message}. This is a bug in deckstat: please report it with the command "
              "that caused it (DECKSTAT_DEBUG=1 shows the traceback)", kind=type(exc).__name__, message=message)


#: The base of the command line's own errors: click's, which typer either depends on or (0.29 on) carries inside
#: itself, so it is found from typer rather than imported (a plain install may have no ``click`` module at all).
_CLICK_EXCEPTION = next(kind for kind in typer.BadParameter.__mro__ if kind.__name__ == "ClickException")


@contextmanager
def user_errors(flags: dict[str, str] = FLAGS) -> Iterator[None]:
    """Turn what stops a command into one line on stderr and its exit code.

    A :class:`DeckstatError` (unusable input) prints ``error:`` (parameters
    written as ``flags``) and exits with code 2; Ctrl-C prints
    ``interrupted`` and exits with 130; any other exception is a bug: one
    ``internal error:`` line (:func:`internal_error`) and code 70, never the
    code of a result (``validate``'s 1). When the block ends well, the notes
    of the decks loaded inside (an encoding guessed, names cleaned) go to
    stderr, and the figures :func:`draw` was given are saved, after what it
    printed, so that a figure that cannot be written still leaves the result
    on the screen.
    """
    from deckstat.cli.terminal import safe_text
    from deckstat.notes import collect_notes  # not deckstat.cards: a command that reads no deck loads no pandas

    pending: list[tuple[object, Path]] = []
    token = _figures.set(pending) if _figures.get() is None else None  # the outermost block saves them
    warned: list[str] = []
    warn_token = _warnings.set(warned) if _warnings.get() is None else None  # and prints the warnings
    failed = True
    with collect_notes() as load_notes:
        try:
            yield
            if token is not None:
                _save_figures(pending)
            failed = False
        except DeckstatError as exc:
            typer.echo(safe_text(tr("error: {message}", message=exc.render(flags))), err=True)
            raise typer.Exit(code=EXIT_USAGE) from None
        except (typer.Exit, typer.Abort, _CLICK_EXCEPTION, BrokenPipeError):  # the command line's own endings
            raise
        except (KeyboardInterrupt, Exception) as exc:
            if ends_in_interrupt(exc):  # also a Ctrl-C while a library loaded, which Python may wrap on its way out
                typer.echo(tr("interrupted"), err=True)
                raise typer.Exit(code=interrupted_code()) from None
            typer.echo(safe_text(internal_error(exc)), err=True)
            raise typer.Exit(code=EXIT_INTERNAL) from None
        finally:
            if token is not None:
                _figures.reset(token)
                _close_figures(pending)
            if warn_token is not None:
                _warnings.reset(warn_token)
                for line in warned if not failed else ():
                    typer.echo(line, err=True)
            for note in dict.fromkeys(load_notes) if not failed else ():
                typer.echo(safe_text(tr("note: {note}", note=note)), err=True)


#: The warnings of the running command, printed when its :func:`user_errors` block ends well.
_warnings: ContextVar[list[str] | None] = ContextVar("deckstat_warnings", default=None)


def warn(lines) -> None:
    """Print ``warning: …`` lines on stderr once the command has done its work.

    Inside :func:`user_errors` they wait for its block to end well: a command
    that fails prints its one ``error:`` line alone (the error says what is
    wrong; a warning that the file holds another game's cards comes with an
    answer, not with a refusal). Outside, they are printed at once.
    """
    from deckstat.cli.terminal import safe_text

    pending = _warnings.get()
    for line in lines:
        text = safe_text(tr("warning: {message}", message=line))
        if pending is None:
            typer.echo(text, err=True)
        else:
            pending.append(text)


#: The figures drawn by the running command, with their files, saved when its :func:`user_errors` block ends.
_figures: ContextVar[list[tuple[object, Path]] | None] = ContextVar("deckstat_figures", default=None)


def _save_figures(pending: list[tuple[object, Path]]) -> None:
    if not pending:
        return
    from deckstat.present import plots

    sys.stdout.flush()  # the result first, then any error about its figure
    while pending:
        figure, path = pending.pop(0)
        plots.save(figure, path)


def _close_figures(pending: list[tuple[object, Path]]) -> None:
    if pending:
        from deckstat.present import plots

        for figure, _ in pending:
            plots.close(figure)
        pending.clear()


def parse_turns(text: str) -> list[int]:
    """Parse ``--turns`` (``"0-6"``, ``"3"`` or ``"0,2,4-6"``) into a sorted list of turns."""
    from deckstat._validate import parse_ranges

    return parse_ranges(text, option="--turns", noun="turn", example="0-6", limit=MOST_TURN)


def parse_counts(text: str, option: str = "--range") -> list[int]:
    """Parse ``--range`` (``"8-20"``, ``"10"`` or ``"8,10,12-14"``) into sorted resource counts.

    ``option`` is the flag the errors name (compare's ``--ratio`` takes the same ranges).
    """
    from deckstat._validate import parse_ranges

    return parse_ranges(text, option=option, noun="count", example="8-14", limit=MOST_SWEEP)


def method(simulate: bool, trials: int | None = None, precision: float | None = None, exact: bool = False) -> str:
    """The method the flags ask for: ``--exact`` exact; ``--simulate``, ``--trials``, ``--precision`` simulation."""
    if exact and (simulate or trials is not None or precision is not None):
        raise DeckstatError(tr("--exact asks for the exact engine, --simulate, --trials and --precision for the "
                               "simulation: give one or the other"))
    if exact:
        return "exact"
    return "simulate" if simulate or trials is not None or precision is not None else "auto"


def rule_value(rule: Enum | None) -> str | None:
    """The value of an optional enum option."""
    return None if rule is None else rule.value


def check_plot(path: Path | None) -> None:
    """Refuse a --plot file that is neither .png nor .svg, or whose folder is missing or read-only, before any work."""
    if path is None:
        return
    if path.suffix.lower() not in (".png", ".svg"):
        raise DeckstatError(tr("--plot {path!r}: expected a file name ending in .png or .svg", path=str(path)))
    from deckstat.present.files import check_writable_file

    check_writable_file(path)


def draw(path: Path | None, function: str, result) -> None:
    """Draw ``result`` with ``deckstat.present.plots.<function>``, to save into ``path`` once the result is printed.

    matplotlib loads only when asked; the file is written when the command's :func:`user_errors` block ends.
    """
    if path is None:
        return
    from deckstat.present import plots

    figure = getattr(plots, function)(result)
    pending = _figures.get()
    if pending is None:  # outside a command's block (a test calling it directly): save now
        plots.save(figure, path)
    else:
        pending.append((figure, path))


def emit(result: Result, fmt: Format, table: str | None, title: str,
         build: Callable[[], list] | None = None) -> None:
    """Print ``result``: CSV of one table, JSON of all, or a title and what ``build`` makes.

    ``build`` returns the tables to print (:class:`~deckstat.cli.layout.Grid`) and lines between them; it is
    called in each language, so that a table shows the same columns in all (:func:`print_items`). The CSV is
    in the spreadsheet dialect when :func:`excel_csv` says so (``--excel``, or French into a file).
    """
    from deckstat.present import format as present  # it loads pandas, which --help does without

    check_table(fmt, table)
    if fmt is Format.csv and excel_csv():
        from deckstat.present.spreadsheet import spreadsheet_dialect

        _write_bytes(present.to_csv(result, table, excel=True).encode(spreadsheet_dialect().encoding))
    elif fmt is Format.csv:
        sys.stdout.write(present.to_csv(result, table))
    elif fmt is Format.json:
        text = present.to_json(result)
        if not _can_write(text):
            # \u escapes: the same JSON, in the characters any encoding has.
            text = json.dumps(json.loads(text), ensure_ascii=True, indent=2)
        sys.stdout.write(text + "\n")
    else:
        print_items(lambda: [title, *(build() if build is not None else [])])


def print_items(build: Callable[[], list]) -> None:
    """Print sentences and tables (:class:`~deckstat.cli.layout.Grid`) laid out for :func:`layout`.

    ``build`` makes them in the current language; it is called in each language, so that the columns a table
    keeps for the width are the same in all, and ``--columns`` takes headers in any of them. The ``--columns``
    asked for are checked before anything is printed.
    """
    from deckstat.cli.layout import Grid, lay_out, pick_columns
    from deckstat.cli.terminal import shown_text
    from deckstat.i18n import LANGUAGES

    current = get_language()
    made = {}
    for lang in LANGUAGES:
        with language(lang):
            made[lang] = build()
    # The same items in every language, in the same order (a build that differed would be measured alone).
    items = [{lang: made[lang][i] if len(made[lang]) == len(made[current]) else made[current][i]
              for lang in LANGUAGES} for i in range(len(made[current]))]
    chosen = layout()
    grids = [item for item in items if isinstance(item[current], Grid)]
    picked = iter(pick_columns(grids, chosen.columns) if chosen.columns else [None] * len(grids))
    console = stdout()

    def rewrite(text: str, cell: bool) -> str:
        return shown_text(text, console.encoding, cell)

    for item in items:
        if isinstance(item[current], Grid):
            for shown in lay_out(item, current, chosen, next(picked), rewrite):
                sentence = isinstance(shown, str)
                console.print(_sentence(console, shown) if sentence else shown, soft_wrap=sentence)
        elif item[current]:
            print_text(console, str(item[current]))


def _can_write(text: str) -> bool:
    try:
        text.encode(getattr(sys.stdout, "encoding", None) or "utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_table(fmt: Format, table: str | None) -> None:
    """Refuse --table and --excel without --format csv, where they would be ignored."""
    from deckstat.i18n import tr

    if _excel.get() and fmt is not Format.csv:
        raise DeckstatError(tr("--excel writes the CSV of --format csv for a spreadsheet; with --format {format} it "
                               "has no effect", format=fmt.value))
    for flag, given in (("--wide", _wide.get()), ("--columns", _columns.get())):
        if given and fmt is not Format.table:
            raise DeckstatError(tr("{flag} lays out the tables of --format table; with --format {format} it has no "
                                   "effect", flag=flag, format=fmt.value))
    if table is not None and fmt is not Format.csv:
        raise DeckstatError(tr("--table picks the table of --format csv; with --format json it has no effect (json "
                               "holds every table)") if fmt is Format.json else
                            tr("--table picks the table of --format csv; --format {format} shows every table",
                               format=fmt.value))


def simulation_note(result: Result) -> str:
    """How the simulated numbers were made, with the ``--seed`` that reproduces them (every command prints this).

    ``result`` may also be a deck :class:`~deckstat.questions.report.Report`, which has the same provenance and frames.
    """
    from deckstat.present import format as present

    note = present.simulation_note(result, present.SEED_RERUN)
    # Why auto simulated what the exact engine models (its predicted cost), before how.
    reason = result.provenance.get("method_reason")
    if reason and "exact would take" in reason:
        reason = tr("{reason}; --exact forces it", reason=reason)
    return tr("; ").join(n for n in (reason, note) if n)


KnownOpt = Annotated[list[str] | None, typer.Option(
    "--known", help="Cards in hand now (the whole hand): a card file, a decklist, names \"LAINK, 2 DRESSEUSE\" or "
    "group counts \"Terrain=2, other=3\". Answers from now on, exactly; see docs/known.md.", metavar="CARDS")]
GoneOpt = Annotated[list[str] | None, typer.Option(
    "--gone", help="Cards played, in play, discarded or milled: out of the deck and not counted (as --known).",
    metavar="CARDS")]
BottomOpt = Annotated[list[str] | None, typer.Option(
    "--bottom", help="Cards known to lie under the deck, drawn last in random order (as --known).", metavar="CARDS")]
GivenOpt = Annotated[list[str] | None, typer.Option(
    "--given", help="Known cards with their zone: \"hand: Terrain=2, other=3\", \"gone: …\", \"bottom: …\", "
    "\"set_aside: …\" (main, défausse, dessous, boucliers in French). Repeat for several.", metavar="ZONE:CARDS")]
BrokenOpt = Annotated[int | None, typer.Option(
    "--broken", help="Set-aside cards (shields) moved to the hand so far, unknown which. With --zone set_aside "
    "the event is counted among them.", metavar="N")]
DrawsOpt = Annotated[str | None, typer.Option(
    "--draws", help="With known cards: the next cards drawn, e.g. 1-3, instead of --turns.", metavar="DRAWS")]


def known_mapping(hand: list[str] | None, gone: list[str] | None, bottom: list[str] | None,
                  given: list[str] | None, broken: int | None) -> dict | None:
    """The ``known=`` mapping of the known-card flags, or None when none is given."""
    from deckstat.knowledge import parse_given

    zones: dict[str, list[str]] = {}
    for zone, texts in (("hand", hand), ("gone", gone), ("bottom", bottom)):
        if texts:
            zones.setdefault(zone, []).extend(texts)
    for text in given or []:
        zone, description = parse_given(text)
        zones.setdefault(zone, []).append(description)
    if not zones and broken is None:
        return None
    return {**zones, "broken": broken or 0} if broken is not None else zones


def parse_draws(text: str | None) -> list[int] | None:
    """Parse ``--draws`` (``"1-3"``, ``"2"`` or ``"1,3,5-6"``)."""
    from deckstat._validate import parse_ranges

    return None if text is None else parse_ranges(text, option="--draws", noun="draw", example="1-3", limit=MOST_SWEEP)


def shown_deck(path: Path, loaded) -> str:
    """How titles name a deck read from ``path``: the path, and the deck ``--deck-name`` picked in brackets."""
    _, bracket, picked = loaded.source.partition(" [")
    return f"{path}{bracket}{picked}"


def deck_names(names: list[str] | None, count: int) -> list[str | None]:
    """The ``--deck-name`` of each of ``count`` decks: none, one for every deck, or one per deck in order."""
    if not names:
        return [None] * count
    if len(names) == 1:
        return names * count
    if len(names) != count:
        raise DeckstatError(tr("--deck-name is given {given} times for {count} decks: give it once for every deck, "
                               "or once per deck in order", given=len(names), count=count))
    return list(names)


#: The rules a deck given by counts follows when no --game is named.
QUICK_GAME = "generic"

QuickDeckArg = Annotated[Path | None, typer.Argument(
    help="Card CSV (one row per card), or a text decklist with --pool; none with --cards and --group.",
    show_default=False, metavar="DECK")]
QuickGameOpt = Annotated[str | None, typer.Option(
    "--game", "-g", help="Game profile id (see `deckstat games`) or a .toml profile file. With --cards it may be "
    "left out: generic rules, a 5-card hand, no mulligan, 1 card drawn each turn.", show_default=False,
    metavar="GAME")]
CardsOpt = Annotated[int | None, typer.Option(
    "--cards", parser=count_parser("size"), help="Without a card file: a deck of N cards, its groups given by "
    "--group and the rest other cards, e.g. --cards 50 --group Terrain=12.", show_default=False, metavar="N")]
GroupCountsOpt = Annotated[list[str] | None, typer.Option(
    "--group", help="With --cards: COUNT cards named NAME, which events name (Terrain>=1); repeat for several "
    "groups, which do not overlap.", show_default=False, metavar="NAME=COUNT")]
HandSizeOpt = Annotated[int | None, typer.Option(
    "--hand-size", parser=count_parser("hand_size"), help="Cards in the opening hand, instead of the game's "
    "(e.g. 7).", show_default=False, metavar="N")]


def parse_group_counts(texts: list[str]) -> list[tuple[str, object]]:
    """``--group`` values (``Terrain=12``) as (name, count) pairs; the counts are checked by ``Deck.from_counts``."""
    from deckstat.i18n import tr
    from deckstat.parsing import split_group_count

    pairs = []
    for text in texts:
        pair = split_group_count(text)
        if pair is None:
            raise DeckstatError(tr("--group {text!r}: expected NAME=COUNT, e.g. Terrain=12", text=text))
        pairs.append(pair)
    return pairs


def deck_and_game(deck: Path | None, game: str | None, *, pool: Path | None = None, cards: int | None = None,
                  groups: list[str] | None = None, hand_size: int | None = None, deck_name: str | None = None):
    """The deck a command asks about and its game's rules: a card file, or a deck given by ``--cards``/``--group``.

    Returns
    -------
    tuple
        The :class:`~deckstat.deck.Deck`, the :class:`~deckstat.games.profiles.Profile` (with ``--hand-size``)
        and how titles name the deck: the file (with the deck ``--deck-name`` picks), or the counts
        (``Terrain=12, other=38``).
    """
    import dataclasses

    import deckstat
    from deckstat._validate import check_whole
    from deckstat.i18n import tr, trn

    by_counts = cards is not None or bool(groups)
    if by_counts and deck is not None:
        raise DeckstatError(tr("give a card file (DECK) or --cards with --group, not both"))
    if by_counts and cards is None:
        raise DeckstatError(tr("--group NAME=COUNT describes a deck of --cards N cards: give --cards too"))
    if by_counts and pool is not None:
        raise DeckstatError(tr("--pool resolves a text decklist; a deck given by --cards has none"))
    if by_counts and deck_name is not None:
        raise DeckstatError(tr("--deck-name picks a deck of a file that holds several; a deck given by --cards is "
                               "one deck"))
    if not by_counts and deck is None:
        raise DeckstatError(tr("give a card file (DECK), or --cards N with --group NAME=COUNT for a deck given by "
                               "its counts"))
    if game is None and not by_counts:
        raise DeckstatError(tr("--game is missing: the game whose rules apply (see `deckstat games`); only a deck "
                               "given by --cards may leave it out"))
    profile = deckstat.get_profile(game or QUICK_GAME)
    if hand_size is not None and hand_size != profile.hand_size:
        hand_size = check_whole(hand_size, "hand_size", minimum=1)
        profile = dataclasses.replace(profile, hand_size=hand_size, name=trn(
            "{game}, {n}-card hand", "{game}, {n}-card hand", hand_size, game=profile.name))
    if not by_counts:
        loaded = deckstat.load_deck(deck, pool=pool, deck_name=deck_name)
        return loaded, profile, deck if deck_name is None else shown_deck(deck, loaded)
    # A game with two decks (Licum) draws from one of them: the counts describe that one.
    part = profile.part().aliases[0] if len(profile.parts) > 1 else None
    loaded = deckstat.Deck.from_counts(cards, parse_group_counts(groups or []), part=part)
    from deckstat.present.format import group_words  # the rest of the deck named in the language: "autre=38"

    return loaded, profile, group_words(loaded.source)
