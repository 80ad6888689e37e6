"""The ``deckstat`` commands: parse the arguments, make one public API call, present the result.

Every command prints one ``error: …`` line and exits with code 2 on unusable
input (a bad file, deck, profile, expression or option); nothing is
half-written. A bug exits with code 70 and one ``internal error:`` line,
Ctrl-C with 130 (see :func:`deckstat.cli.options.user_errors`).

What loads pandas (the questions, the result tables) is imported inside the
commands that use it, so that ``--help`` and ``games`` answer at once.
"""

from __future__ import annotations

import functools
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

import deckstat
from deckstat.cli.batch import batch_command
from deckstat.cli.groups import (
    FROM_FLAGS,
    DeckFile,
    DeckFiles,
    Display,
    DisplayFlags,
    FixedSimulation,
    KeepRule,
    Known,
    Mulligan,
    MulliganFlags,
    Output,
    OutputFlags,
    QuickDeck,
    Simulation,
    SimulationFlags,
    expand_groups,
    family,
)
from deckstat.cli.options import (
    FLAGS,
    AllowAbsentOpt,
    Command,
    DeckArg,
    DroughtOrder,
    EventsOpt,
    Format,
    GameOpt,
    KeepOpt,
    LangOpt,
    NoEffectsOpt,
    OneSeatOpt,
    OptionalEventsOpt,
    Policy,
    QuietOpt,
    Seat,
    SeatOpt,
    SeedOpt,
    WorkersOpt,
    Zone,
    ZoneOpt,
    check_table,
    choices,
    count_parser,
    deck_names,
    english_seat,
    method,
    parse_counts,
    parse_draws,
    parse_turns,
    print_items,
    print_text,
    shown_deck,
    simulation_note,
    stdout,
    user_errors,
    warn,
)
from deckstat.cli.usage import Group
from deckstat.errors import DeckstatError
from deckstat.i18n import N_, get_language, localise_number, number, tr, trn
from deckstat.terms import (
    COPIES_BY,
    DECKOUT_RULES,
    DEFAULT_POLICY,
    MULLIGAN_NAMES,
    PLAY_MODEL_NAMES,
    PLAY_POLICY_NAMES,
    name_of,
)

app = typer.Typer(
    name="deckstat",
    # --help in the user's language; click's own errors (an unknown option, a value that is no number) as one
    # line and code 2.
    cls=Group,
    help="Deck statistics for card games: exact odds, deck validation, game profiles.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain help: rich markup would eat the event syntax ("[cost<=1]") and show Python types as metavars.
    rich_markup_mode=None,
)


def showing(quiet: bool):
    """The progress bar of a computing command (:func:`deckstat.cli.progress.showing`), rich's bar loaded then."""
    from deckstat.cli.progress import showing as bar

    return bar(quiet)


def _version(shown: bool) -> None:
    if shown:
        typer.echo(f"deckstat {deckstat.__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: Annotated[bool, typer.Option("--version", "-V", callback=_version, is_eager=True,
                                                help="Print deckstat's version and exit.")] = False) -> None:
    """Deck statistics for card games: exact odds, deck validation, game profiles."""


games_app = typer.Typer(cls=Group, help="The shipped game profiles.", invoke_without_command=True)
app.add_typer(games_app, name="games")


def _notes(result, profile, p_keep: float | None = None) -> list[str]:
    from deckstat.present.format import rules_note

    return [n for n in (rules_note(result.provenance, profile.mulligan, p_keep), simulation_note(result)) if n]


def _warn(lines) -> None:
    """Print ``warning: …`` lines on stderr, where they do not mix with --format csv or json (see :func:`warn`)."""
    warn(lines)


def _cards(n: int) -> str:
    return trn("{n} card", "{n} cards", n)


def _warn_file(loaded, profile) -> None:
    """Warn when a deck file does not look like one deck of the game (two decks, another game's cards)."""
    from deckstat.games.rules import file_warnings

    _warn(tr("{place}: {message}", place=loaded.name, message=row["message"]) for row in file_warnings(loaded, profile))


def _deck_and_opponent(deck: Path, opponent: Path | None, source, profile):
    """The deck and the opponent's deck (or None) as --deck-name names them, each file's warnings printed."""
    names = deck_names(source.deck_name, 2 if opponent is not None else 1)
    loaded = deckstat.load_deck(deck, pool=source.pool, deck_name=names[0])
    other = deckstat.load_deck(opponent, pool=source.pool, deck_name=names[1]) if opponent is not None else None
    for each in (loaded, other) if other is not None else (loaded,):
        _warn_file(each, profile)
    return loaded, other


#: How a card changed from one deck to the next, in words (a count such as ``+2`` reads the same in French).
CHANGES = {"added": N_("added"), "removed": N_("removed")}
#: The zones of known cards, as a comparison names them.
KNOWN_ZONES = {"hand": N_("hand"), "gone": N_("gone"), "bottom": N_("bottom"), "set_aside": N_("set_aside")}

CopiesBy = Enum("CopiesBy", {name: name for name in COPIES_BY}, type=str)
CopiesBy.__doc__ = "Readings of a copy limit."


#: The output of `validate`: its tables, no figure.
TablesOnly = family(OutputFlags, "fmt", "table")


@app.command(cls=Command)
@expand_groups
def validate(deck: DeckArg, game: GameOpt, source: DeckFile = FROM_FLAGS, output: TablesOnly = FROM_FLAGS,
             display: Display = FROM_FLAGS,
             copies_by: Annotated[CopiesBy | None, typer.Option(
                 "--copies-by", help="Count copy limits by card name; by card (printings identical in play, a "
                 "holo reprint, count as one card); or by printing (name and collector number, set, clan, rarity). "
                 "Default: as the game profile says.",
                 metavar=choices(CopiesBy))] = None) -> None:
    """Check a deck against its game's construction rules.

    Exit code 0 when the deck is legal, 1 when it breaks a rule, 2 when the
    input is unusable.
    """
    from deckstat.cli import tables

    with user_errors():
        profile = deckstat.get_profile(game)
        loaded = deckstat.load_deck(deck, pool=source.pool, deck_name=source.deck_name)
        deck = shown_deck(deck, loaded)
        result = deckstat.validate(loaded, profile, copies_by=copies_by.value if copies_by else None)
        verdict = tr("legal") if result.legal else tr("not legal")
        n_warnings = int(result.summary["warnings"].iloc[0])
        if n_warnings:
            verdict = trn("{verdict} ({n} warning)", "{verdict} ({n} warnings)", n_warnings, verdict=verdict)
        title = tr("{deck} — {game}, {cards}: {verdict}", deck=deck, game=profile.name,
                   cards=_cards(result.provenance["deck_size"]), verdict=verdict)
        if result.table.empty:
            title = tr("{title}. Every construction rule holds.", title=title)
        title += "".join("\n" + tr("note: {note}", note=note) for note in result.provenance["notes"])
        output.emit(result, title, lambda: [] if result.table.empty else [tables.violations_table(result.table)])
    raise typer.Exit(code=0 if result.legal else 1)


@app.command(cls=Command)
@expand_groups
def odds(
    event: EventsOpt,
    asked_deck: QuickDeck = FROM_FLAGS,
    turns: Annotated[str | None, typer.Option(help="Turns: 0-6, 3 or 0,2,4. Turn 0 is the kept opening hand "
                                              "(with known cards: now).", metavar="TURNS")] = None,
    seat: SeatOpt = Seat.both,
    zone: ZoneOpt = Zone.seen,
    rules: Mulligan = FROM_FLAGS,
    cards_known: Known = FROM_FLAGS,
    simulation: Simulation = FROM_FLAGS,
    source: DeckFile = FROM_FLAGS,
    output: Output = FROM_FLAGS,
    allow_absent: AllowAbsentOpt = False,
    no_effects: NoEffectsOpt = False,
    quiet: QuietOpt = False,
    display: Display = FROM_FLAGS,
) -> None:
    """Probability of an event in the opening hand and by turn, for one deck.

    Exact where it applies (no mulligan, or Wankul's single bottom mulligan):
    multivariate hypergeometric over disjoint groups of cards, with the
    profile's set-aside cards, mulligan and keep rule, and turn-1 draw rule.
    Otherwise (London, Vancouver, free mulligans, several bottom mulligans),
    with --simulate, or when the exact engine would take over ~1 s or 256 MiB
    (--exact forces it; docs/exact.md), the Monte Carlo kernel, with 95%
    intervals. The answer counts the cards the turns draw; beside it, the
    cards Wankul's drought draws bring (both players' turns played, as in
    curve) and the cards the deck's draw effects bring (--no-effects leaves
    them out) are counted on simulated games, and a line says by how much
    they move it. Mid-game, with the
    cards you know (--known, --gone, --bottom, --given, --broken), it answers
    exactly from now on, for --draws or turns from now (docs/known.md).

    Without a card file, a deck given by its counts, as web calculators ask:
    --cards 50 --group Terrain=12 --event "Terrain>=1" (the rest of the deck
    is other cards; without --game, generic rules: 5-card hand, no mulligan).
    """
    from deckstat.cli import tables
    from deckstat.present.format import drought_line, effects_line

    with user_errors():
        output.check_plot()
        loaded, profile, deck = asked_deck.load(source)
        _warn_file(loaded, profile)
        described = cards_known.mapping()
        if described is not None:
            # What is known is fixed: no mulligan to come, and an exact answer (no seed, no workers to share).
            result = deckstat.odds(loaded, profile, event, **_known_turns(turns, cards_known.draws), seat=seat.value,
                                   zone=zone.value, keep=rules.keep, mulligan_rule=rules.rule,
                                   mulligan_limit=rules.mulligan_limit, resource=rules.resource,
                                   method=simulation.method(), n_trials=simulation.trials,
                                   precision=simulation.precision, allow_absent=allow_absent, known=described,
                                   priority=rules.priority)
            output.draw("plot_odds", result)
            output.emit(result, _known_title(result, profile, deck, zone.value),
                        lambda: [tables.odds_table(result.table)])
            return
        with showing(quiet):
            result = deckstat.odds(loaded, profile, event, turns=parse_turns("0-6" if turns is None else turns),
                                   seat=seat.value, zone=zone.value, **rules.arguments(), **simulation.arguments(),
                                   allow_absent=allow_absent, draws=parse_draws(cards_known.draws),
                                   effects=not no_effects)
        output.draw("plot_odds", result)
        summary = result.summary.iloc[0]
        notes = _notes(result, profile, summary["p_keep_first"] if summary["method"] == "exact" else None)
        if zone.value in ("hand", "set_aside"):
            notes.append(tr("these cards are fixed once the game starts: reported at turn 0"))
        if result.droughts is not None:
            notes.append(drought_line(result.droughts))
        if result.effects is not None:
            notes.append(effects_line(result.effects))
        zone_words = {"seen": tr("in the kept hand and cards drawn"), "hand": tr("in the kept opening hand"),
                      "set_aside": tr("in the {set_aside}", set_aside=profile.set_aside_name),
                      "bottom": tr("under the deck")}[zone.value]
        events = list(dict.fromkeys(result.table["event"]))
        head = f"P({events[0]}) {zone_words}" if len(events) == 1 else tr("P(event) {where}", where=zone_words)
        title = tr("{head} — {game}, {deck} ({cards})", head=head, game=profile.name, deck=deck,
                   cards=_cards(result.provenance["deck_size"]))
        if notes:
            title += "\n" + tr("; ").join(notes)
        output.emit(result, title, lambda: [tables.odds_table(result.table)])


def _known_turns(turns: str | None, draws: str | None) -> dict:
    """The ``turns=``/``draws=`` arguments of the flags given (neither: turns 0-6 from now)."""
    if draws is not None and turns is not None:
        raise DeckstatError(tr("give --turns or --draws, not both"))
    if draws is not None:
        return {"draws": parse_draws(draws)}
    return {"turns": parse_turns(turns)} if turns is not None else {}


def _known_title(result, profile, deck: Path, zone: str) -> str:
    """What is asked with known cards, and what is known, in words."""
    provenance = result.provenance
    events = list(dict.fromkeys(result.table["event"]))
    head = f"P({events[0]})" if len(events) == 1 else tr("P(event)")
    broken = provenance["broken"]
    shields = profile.set_aside_name
    in_hand = trn("in hand (with the {n} broken {shields})", "in hand (with the {n} broken {shields})", broken,
                  shields=shields) if broken else tr("in hand")
    where = {"seen": tr("{where} and in the cards drawn next", where=in_hand), "hand": in_hand,
             "set_aside": trn("among the {n} broken {shields}", "among the {n} broken {shields}", broken,
                              shields=shields) if broken else tr("in the {set_aside}", set_aside=shields)}[zone]
    names = {"hand": tr("in hand"), "gone": tr("gone"), "bottom": tr("under the deck"),
             "set_aside": tr("known {shields}", shields=shields)}
    known = [f"{info['cards']} {names[z]} ({info['described']})" for z, info in provenance["known"].items()]
    if broken:
        known.append(tr("{broken} {shields} broken", broken=broken, shields=shields))
    seats = set(result.table["seat"])
    when = tr("turns from now") if seats == {"now"} else tr("turns from the opening hand")
    if result.table["turn"].isna().all():
        when = tr("cards drawn from now")
    when = f", {when}" if zone == "seen" else ""
    asked = tr("{head} {where} — {game}, {deck} ({cards}); exact{when}", head=head, where=where, game=profile.name,
               deck=deck, cards=_cards(provenance["deck_size"]), when=when)
    return asked + "\n" + trn("known: {known}; {n} card left in the library",
                              "known: {known}; {n} cards left in the library", provenance["library"],
                              known=tr("; ").join(known) or tr("nothing"))


@app.command(cls=Command)
@expand_groups
def when(
    event: EventsOpt,
    asked_deck: QuickDeck = FROM_FLAGS,
    max_turn: Annotated[int, typer.Option("--max-turn", help="Last turn followed.", metavar="N")] = 10,
    seat: SeatOpt = Seat.both,
    rules: Mulligan = FROM_FLAGS,
    simulation: Simulation = FROM_FLAGS,
    source: DeckFile = FROM_FLAGS,
    output: Output = FROM_FLAGS,
    allow_absent: AllowAbsentOpt = False,
    no_effects: NoEffectsOpt = False,
    quiet: QuietOpt = False,
    display: Display = FROM_FLAGS,
) -> None:
    """On which turn an event first holds among the cards seen: distribution, mean, median, P(never).

    Exact when the event can only become true as cards are seen (>=, >), the
    exact engine models the mulligan and it is cheap (docs/exact.md); simulated
    otherwise. Without a card file: --cards N --group NAME=COUNT, as `odds`.
    """
    import pandas as pd

    from deckstat.cli import tables
    from deckstat.present.format import drought_line, effects_line, format_estimate, merge_alike_seats, seat_words

    with user_errors():
        output.check_plot()
        loaded, profile, deck = asked_deck.load(source)
        _warn_file(loaded, profile)
        with showing(quiet):
            result = deckstat.when(loaded, profile, event, max_turn=max_turn, seat=seat.value, **rules.arguments(),
                                   **simulation.arguments(), allow_absent=allow_absent, effects=not no_effects)
        output.draw("plot_when", result)
        events = list(dict.fromkeys(result.table["event"]))
        lines = [tr("First turn {events} holds among the cards seen — {game}, {deck}", events=" / ".join(events),
                    game=profile.name, deck=deck)]
        lines += _notes(result, profile)
        if result.droughts is not None:
            lines.append(drought_line(result.droughts))
        if result.effects is not None:
            lines.append(effects_line(result.effects))
        summaries = merge_alike_seats(result.summary, ["mean_turn", "median_turn", "p_never", "p_never_low",
                                                       "p_never_high", "n_trials", "method"], by=["event"], order=())
        for summary in summaries.itertuples(index=False):
            mean = "—" if summary.mean_turn != summary.mean_turn else number(summary.mean_turn, 2)
            median = f"> {max_turn}" if pd.isna(summary.median_turn) else str(summary.median_turn)
            prefix = f"{summary.event}, " if len(events) > 1 else ""
            never = format_estimate(summary.p_never, summary.p_never_low, summary.p_never_high, summary.method)
            lines.append(prefix + tr("{seat}: mean turn {mean} (when it happens by turn {max_turn}), median {median}, "
                                     "P(not by turn {max_turn}) {never}", seat=seat_words(summary.seat), mean=mean,
                                     max_turn=max_turn, median=median, never=never))
        output.emit(result, "\n".join(lines), lambda: [tables.when_table(result.table)])


@app.command(cls=Command)
@expand_groups
def curve(
    deck: DeckArg,
    game: GameOpt,
    card: Annotated[list[str] | None, typer.Option("--card", "-c", help="A card name (repeatable); every printing "
                                                   "of the name counts.", metavar="CARD")] = None,
    group: Annotated[list[str] | None, typer.Option("--group", help="A group expression, e.g. \"[cost>=2]\" "
                                                    "(repeatable); any of its cards counts.", metavar="GROUP")] = None,
    turns: Annotated[str, typer.Option(help="Turns: 1-8, 3 or 1,3,5.", metavar="TURNS")] = "1-10",
    seat: SeatOpt = Seat.both,
    policy: Annotated[str | None, typer.Option(help="Play policy of the game's model (see `deckstat games show`; "
                                               "default: the profile's).", metavar="POLICY")] = None,
    opponent: Annotated[Path | None, typer.Option(help="The opponent's deck, for a game played with both players' "
                                                  "turns (Wankul; default: a copy of DECK).", metavar="DECK")]
    = None,
    rules: KeepRule = FROM_FLAGS,
    simulation: Simulation = FROM_FLAGS,
    source: DeckFiles = FROM_FLAGS,
    output: Output = FROM_FLAGS,
    allow_absent: AllowAbsentOpt = False,
    no_effects: NoEffectsOpt = False,
    quiet: QuietOpt = False,
    display: Display = FROM_FLAGS,
) -> None:
    """When can I play it: P(a card or group is playable on or before turn t) under the game's costs.

    The game's goldfish play model (costs, conditions, the player's policy)
    is in `deckstat games show`. Without --card or --group, every card of the
    deck. Exact where the model reduces to the cards seen, simulated otherwise.
    """
    from deckstat.cli import tables
    from deckstat.present.format import curve_effects_line, curve_scoring_line, drought_play_line, format_probability

    with user_errors():
        output.check_plot()
        profile = deckstat.get_profile(game)
        loaded, other = _deck_and_opponent(deck, opponent, source, profile)
        deck = shown_deck(deck, loaded)
        with showing(quiet):
            result = deckstat.curve(loaded, profile, cards=card or None, groups=group or None,
                                    turns=parse_turns(turns), seat=seat.value, policy=policy, **rules.arguments(),
                                    **simulation.arguments(), allow_absent=allow_absent, opponent=other,
                                    effects=not no_effects)
        output.draw("plot_curve", result)
        provenance = result.provenance
        lines = [tr("Playable on or before each turn — {game}, {deck}", game=profile.name, deck=deck),
                 tr("play model: {model}, policy {policy} (see `deckstat games show`); mean first turn among games "
                    "where it is playable by the last turn", model=name_of(PLAY_MODEL_NAMES, provenance["play_model"]),
                    policy=name_of(PLAY_POLICY_NAMES, provenance["policy"]))]
        if provenance.get("players") == 2:
            lines.append(tr("both players' turns are played (shared Terrains, droughts on either turn) against {deck}",
                            deck=shown_deck(opponent, other) if other is not None else tr("a copy of the deck")))
        lines += _notes(result, profile)
        lines += [tr("note: {note}", note=note) for note in provenance.get("play_notes", [])]
        simulated = result.table[result.table["method"] == "simulate"]
        if not simulated.empty:
            widest = float((simulated["ci_high"] - simulated["ci_low"]).max()) / 2
            lines.append(tr("widest 95% interval ±{p} (every interval: --format csv)", p=format_probability(widest)))
        if result.scoring is not None:
            lines.append(curve_scoring_line(result.scoring))
        if result.drought_play is not None:
            lines.append(drought_play_line(result.drought_play))
        if result.effects is not None:
            lines.append(curve_effects_line(result.effects))
        output.emit(result, "\n".join(lines), lambda: [tables.curve_table(result.table, result.summary)])


#: The mulligan options of `mulligan` beside its --keep, which --help lists with the question.
MulliganRules = family(MulliganFlags, "mulligan_rule", "mulligan_limit", "resource", "priority")


@app.command(cls=Command)
@expand_groups
def mulligan(
    asked_deck: QuickDeck = FROM_FLAGS,
    keep: KeepOpt = None,
    event: OptionalEventsOpt = None,
    turns: Annotated[str | None, typer.Option(help="Turns of the by-turn comparison (default 0-6).",
                                              show_default=False, metavar="TURNS")] = None,
    seat: Annotated[Seat, typer.Option(help="Seat of the by-turn comparison: first, second or both.",
                                       callback=english_seat, metavar=choices(Seat))] = Seat.first,
    hand: Annotated[str | None, typer.Option(
        "--hand", help="Keep or mulligan this opening hand? Names (\"A, B, 2 C\"), a card file, or group counts "
        "(\"Terrain=1, [cost<=1]=0, other=4\"); with --by-turn.", show_default=False, metavar="HAND")] = None,
    best: Annotated[bool, typer.Option(
        "--best", help="The best keep rule: keep or mulligan each possible first hand, whichever gives the higher "
        "P(--event by --by-turn), compared with --keep (default: the profile's); with hearthstone, the best cards "
        "to replace; pokemon leaves no choice.")] = False,
    by_turn: Annotated[int | None, typer.Option(
        "--by-turn", help="With --hand or --best: the turn by which --event should hold.", show_default=False,
        metavar="N")]
    = None,
    rules: MulliganRules = FROM_FLAGS,
    simulation: FixedSimulation = FROM_FLAGS,
    source: DeckFile = FROM_FLAGS,
    output: Output = FROM_FLAGS,
    allow_absent: AllowAbsentOpt = False,
    no_effects: NoEffectsOpt = False,
    quiet: QuietOpt = False,
    display: Display = FROM_FLAGS,
) -> None:
    """What a keep rule does: P(keep the first hand), the kept hand, and the odds with and without mulligan.

    Uses the profile's mulligan (Wankul: the hand goes under the deck and 5 new
    cards are drawn, once); --mulligan-rule london|vancouver|free|hearthstone|pokemon
    compares with the usual reference rules. The cards a London, Vancouver,
    free or Hearthstone mulligan keeps follow the keep rule's and the event's
    needs, or --priority (see docs/mulligans.md). With --hand: keep or
    mulligan that hand (Hearthstone: which cards to replace), for --event by
    --by-turn; with --best: the best keep rule for it (both exact; see
    docs/keep_policy.md). Without a card file: --cards N --group NAME=COUNT,
    as `odds`.
    """
    load = functools.partial(asked_deck.load, source)  # each mode reads the deck after its own checks
    with user_errors():
        if hand is not None and best:
            raise DeckstatError(tr("give --hand (keep or mulligan this hand) or --best (the best keep rule), not "
                                   "both"))
    if hand is None and not best:
        _keep_rule_odds(load, keep=keep, event=event, turns=turns, seat=seat, by_turn=by_turn, rules=rules,
                        simulation=simulation, output=output, allow_absent=allow_absent, quiet=quiet,
                        no_effects=no_effects)
        return
    _check_decision("--hand" if hand is not None else "--best", event=event, turns=turns, by_turn=by_turn,
                    simulation=simulation, output=output, priority=rules.priority)
    # --exact, --chunk-size, --workers and --quiet do not change an exact decision for one turn.
    common = {"by_turn": by_turn, "seat": seat.value, "keep": keep, "mulligan_rule": rules.rule,
              "mulligan_limit": rules.mulligan_limit, "resource": rules.resource, "allow_absent": allow_absent}
    goal = event[0] if event else None
    if hand is not None:
        _hand_advice(load, hand, goal, common, output)
    else:
        _best_keep_rule(load, goal, common, output)


def _keep_rule_odds(load, *, keep, event, turns, seat, by_turn, rules, simulation, output, allow_absent,
                    quiet, no_effects=False) -> None:
    """``mulligan``: what the keep rule does, and the odds by turn with and without the mulligan."""
    from deckstat.cli import tables
    from deckstat.present.format import mulligan_played_line, seat_words

    with user_errors():
        if by_turn is not None:
            raise DeckstatError(tr("--by-turn goes with --hand (keep or mulligan this hand) or --best (the best keep "
                                   "rule); the keep rule's odds by turn take --turns"))
        turns = "0-6" if turns is None else turns
        output.check_plot()
        loaded, profile, deck = load()
        _warn_file(loaded, profile)
        with showing(quiet):
            result = deckstat.mulligan(loaded, profile, keep=keep, event=event or None, turns=parse_turns(turns),
                                       seat=seat.value, **rules.arguments(), **simulation.arguments(),
                                       allow_absent=allow_absent, effects=not no_effects)
        output.draw("plot_mulligan", result)
        summary = result.summary.iloc[0]
        title = tr("Mulligan — {game}, {deck}: {mulligan}, keep rule {keep}", game=profile.name, deck=deck,
                   mulligan=name_of(MULLIGAN_NAMES, summary["mulligan_rule"]), keep=summary["keep"])
        note = simulation_note(result)
        if result.played is not None and mulligan_played_line(result.played):
            note = "\n".join(filter(None, [note, mulligan_played_line(result.played)]))
        events = " / ".join(dict.fromkeys(result.by_turn["event"]))

        def build():
            keep_table, kept_hand, by_turn = tables.mulligan_tables(result)
            who = tr("both players") if seat is Seat.both else seat_words(seat.value)
            return [keep_table, tr("Kept hand: how many cards of each group"), kept_hand,
                    tr("P({events}) by turn, {who}", events=events, who=who), by_turn]

        output.emit(result, title + ("\n" + note if note else ""), build)


def _check_decision(what: str, *, event, turns, by_turn, simulation, output, priority) -> None:
    """Refuse what ``mulligan --hand`` and ``--best`` (``what``) cannot answer: exact, one event by one turn."""
    with user_errors():
        if priority is not None:
            raise DeckstatError(tr("--priority does not apply to {what}, which puts under the deck the cards that "
                                   "leave the best odds (every choice is tried)", what=what))
        if by_turn is None:
            raise DeckstatError(tr("{what} needs --by-turn, the turn by which --event should hold (e.g. --by-turn 2)",
                                   what=what))
        simulated = simulation.simulate or simulation.trials is not None or simulation.seed is not None
        for flag, given in (("--turns", turns is not None), (tr("--simulate, --trials or --seed"), simulated),
                            ("--plot", output.plot is not None)):
            if given:
                raise DeckstatError(tr("{flag} does not apply to {what}, which is exact for one turn (--by-turn)",
                                       flag=flag, what=what))
        if event and len(event) > 1:
            raise DeckstatError(tr("{what} answers for one --event at a time, got {count}", what=what,
                                   count=len(event)))


def _hand_advice(load, hand: str, goal: str | None, common: dict, output) -> None:
    """``mulligan --hand``: keep or mulligan this opening hand (Hearthstone: which cards to replace)."""
    from deckstat.cli import tables

    with user_errors():
        loaded, profile, deck = load()
        _warn_file(loaded, profile)
        result = deckstat.hand_advice(loaded, profile, hand, goal, **common)
        row = result.table.iloc[0]
        later = row["later"] if row["mulligan_rule"] in ("hearthstone", "pokemon") else \
            tr("after a mulligan, {later}", later=row["later"])
        title = "\n".join([tr("Keep or mulligan? — {game}, {deck}: hand {hand}", game=profile.name, deck=deck,
                              hand=row["hand"]),
                           f"{tr('P({event}) by turn {turn}', event=row['event'], turn=row['turn'])}, "
                           f"{_rule_words(row)}",
                           tr("note: {note}", note=later)])
        output.emit(result, title, lambda: [tables.hand_advice_table(result.table)])


def _best_keep_rule(load, goal: str | None, common: dict, output) -> None:
    """``mulligan --best``: the keep rule that maximises P(goal by the turn), hand by hand."""
    from deckstat.cli import tables
    from deckstat.present.format import merge_alike_seats, seat_words

    with user_errors():
        loaded, profile, deck = load()
        _warn_file(loaded, profile)
        result = deckstat.keep_policy(loaded, profile, goal, **common)
        row = result.summary.iloc[0]
        title = (tr("Best keep rule — {game}, {deck}: {goal}, {rules}", game=profile.name, deck=deck,
                    goal=tr("P({event}) by turn {turn}", event=row["event"], turn=row["turn"]),
                    rules=_rule_words(row))
                 + "\n" + tr("note: {note}", note=result.provenance["later"]))
        if row["mulligan_rule"] == "hearthstone":
            title += "\n" + tr("compared with the simple rule: {later}", later=result.provenance["rule_later"])

        def build():
            shown = [tables.keep_policy_summary_table(result.summary)]
            # The seats' policies, once when they are the same (the decision the figures take too).
            policy = merge_alike_seats(result.policy, ["hand", "p_hand", "p_keep", "p_mulligan", "margin", "decision",
                                                       "keep_rule"], order=())
            replacing = row["mulligan_rule"] == "hearthstone"
            for seat_name in dict.fromkeys(policy["seat"]):
                whose = seat_words(seat_name)
                hands = tr("Hands to keep whole, then hands to replace cards from — {whose}", whose=whose) \
                    if replacing else tr("Hands to keep, then hands to mulligan — {whose}", whose=whose)
                shown += [hands, tables.keep_policy_table(policy[policy["seat"] == seat_name], replacing=replacing)]
            return shown

        output.emit(result, title, build)


def _rule_words(row) -> str:
    limit = int(row["mulligan_limit"])
    mulligan = name_of(MULLIGAN_NAMES, row["mulligan_rule"])
    if limit == 1:
        return tr("{mulligan} rule, once", mulligan=mulligan)
    return tr("{mulligan} rule, up to {limit} times", mulligan=mulligan, limit=limit)


#: The deck-out race has no --exact (it is exact whenever it can be) and no --precision.
DeckoutSimulation = family(SimulationFlags, "simulate", "trials", "seed", "chunk_size", "workers",
                           helps={"simulate": "Simulate the deck-out race even where the answer is exact "
                                              "(without effects and without the drought rule); --trials "
                                              "alone does not ask for it."})


@app.command(cls=Command)
@expand_groups
def deckout(
    deck: DeckArg,
    game: GameOpt,
    opponent: Annotated[Path | None, typer.Option(help="The second player's deck (default: a copy of DECK).",
                                                  metavar="DECK")]
    = None,
    policy: Annotated[Policy, typer.Option(help="When cards with draw/mill effects (the draw and mill columns) "
                                           "are played: on_draw (as soon as drawn, chaining), each_turn (once "
                                           "per owner's turn), none (ignored).",
                                           metavar=choices(Policy))] = Policy[DEFAULT_POLICY],
    no_drought: Annotated[bool, typer.Option("--no-drought", help="Ignore Wankul's drought rule.")] = False,
    terrain_turns: Annotated[str | None, typer.Option("--terrain-turns", help="With the drought rule: turns (of "
                                                      "either player) a Terrain stays in play before it is scored "
                                                      "and discarded, or 'never' (default: the profile's; Wankul: "
                                                      "2, gone when its owner's next turn begins).",
                                                      show_default=False, metavar="N")] = None,
    drought_order: Annotated[DroughtOrder, typer.Option("--drought-order", help="Reading of the drought rule's "
                                                        "'one card at a time': together (both draw, then both "
                                                        "look) or active_first (the active player draws first, "
                                                        "then the other).",
                                                        metavar=choices(DroughtOrder))] = DroughtOrder.together,
    rules: KeepRule = FROM_FLAGS,
    simulation: DeckoutSimulation = FROM_FLAGS,
    source: DeckFiles = FROM_FLAGS,
    output: Output = FROM_FLAGS,
    allow_absent: AllowAbsentOpt = False,
    quiet: QuietOpt = False,
    display: Display = FROM_FLAGS,
) -> None:
    """On which turn each seat's deck runs out, and who runs out first, under the game's deck-out rule.

    Wankul: lose when you must draw and cannot (both at once: the active player
    wins), with the drought rule (no Terrain in play or in hand: both draw one
    card at a time until one appears, --drought-order) and Terrains scored and
    discarded 2 turns after they are played (--terrain-turns). All players'
    decks should have the same size. Duel Masters: drawing the last card loses
    (the 5 shields leave the deck first; the first player skips the first
    draw). JdG: drawing the last card ends the duel at the end of that turn.
    Licum: both draw at the end of each turn; the match ends at the end of
    the first turn at which neither can draw, the later of the two decks.
    Pandrea: usure. Other ways a game ends are not modelled. Without effects
    and without the drought rule the answer is exact.
    """
    from deckstat.cli import tables
    from deckstat.present.format import (
        BOTH_SEATS,
        deckout_order_line,
        format_estimate,
        format_probability,
        game_end_line,
        merge_alike_seats,
        policy_note,
        scoring_line,
        seat_words,
    )

    with user_errors():
        output.check_plot()
        profile = deckstat.get_profile(game)
        loaded, other = _deck_and_opponent(deck, opponent, source, profile)
        deck = shown_deck(deck, loaded)
        opponent = shown_deck(opponent, other) if opponent is not None else None
        with showing(quiet):
            result = deckstat.deckout(loaded, profile, opponent=other, policy=policy.value, drought=not no_drought,
                                      terrain_turns=int(terrain_turns) if terrain_turns and terrain_turns.isdigit()
                                      else terrain_turns, drought_order=drought_order.value, **rules.arguments(),
                                      # --trials alone leaves the method to the question, as --seed does
                                      **simulation.arguments(method=method(simulation.simulate)),
                                      allow_absent=allow_absent)
        output.draw("plot_deckout", result)
        provenance = result.provenance
        _warn(provenance["warnings"])
        vs = tr("against {opponent}", opponent=opponent) if opponent is not None else tr("against a copy of itself")
        lines = [tr("Deck-out — {game}, {deck} (first player) {vs}: {rule}", game=profile.name, deck=deck, vs=vs,
                    rule=tr(DECKOUT_RULES[profile.deckout])),
                 policy_note(provenance)]
        if provenance["drought"]:
            lines.append(tr("drought rule on; {assumptions}",
                            assumptions=tr("; ").join(provenance["assumptions"][-2:])))
        note = simulation_note(result)
        if note:
            lines.append(note)
        # Seats whose run-out turns are the same are one line, and one column, as the figures show them.
        summaries = merge_alike_seats(result.summary, ["mean_turn", "median_turn", "earliest_turn", "latest_turn"],
                                      order=())
        for summary in summaries.itertuples(index=False):
            facts = {"turn": summary.median_turn, "mean": number(summary.mean_turn, 2),
                     "earliest": summary.earliest_turn, "latest": summary.latest_turn}
            lines.append(tr("both players run out on turn {turn} (median; mean {mean}, earliest {earliest}, latest "
                            "{latest})", **facts) if summary.seat == BOTH_SEATS else
                         tr("{seat} runs out on turn {turn} (median; mean {mean}, earliest {earliest}, latest "
                            "{latest})", seat=seat_words(summary.seat), **facts))
        if result.scoring is not None:
            lines.append(scoring_line(result.scoring))
        first = result.summary.iloc[0]
        line = tr("P(first player runs out first) = {p}", p=format_estimate(first["p_runs_out_first"], first["ci_low"],
                                                                             first["ci_high"], first["method"]))
        if first["p_same_moment"]:
            line = tr("{text}, at the same moment {p}", text=line, p=format_probability(first["p_same_moment"]))
        lines.append(line)
        order = deckout_order_line(provenance)
        if order:
            lines.append(order)
        lines.append(game_end_line(result.game_end, provenance["game_end_text"]))
        distribution = merge_alike_seats(result.table, ["p", "ci_low", "ci_high", "cdf", "n_trials", "method"])
        output.emit(result, "\n".join(lines), lambda: [tables.distribution_table(distribution, "turn", "seat")])


@app.command(cls=Command)
@expand_groups
def ratio(
    deck: DeckArg,
    game: GameOpt,
    counts: Annotated[str | None, typer.Option("--range", help="Resource counts to sweep: 8-20, 10 or 8,10,12-14 "
                                               "(default: the deck's own count ± 5).", metavar="COUNTS")] = None,
    event: OptionalEventsOpt = None,
    turns: Annotated[str | None, typer.Option(help="Turns: 0-6, 3 or 0,2,4. Turn 0 is the kept opening hand "
                                              "[default: 0-5; with --objective curve, 1 to --turn].",
                                              metavar="TURNS")] = None,
    zone: Annotated[str, typer.Option(help="Where the events are counted: seen (kept hand and draws), hand, "
                                      "set_aside (or the game's name for it, e.g. shields) or bottom.",
                                      metavar="ZONE")] = "seen",
    target: Annotated[float | None, typer.Option(help="Probability to reach, e.g. 0.95: names the smallest legal "
                                                 "count whose P(event) at the target turn reaches it.",
                                                 metavar="P")] = None,
    target_turn: Annotated[int | None, typer.Option("--target-turn", "--turn", help="Turn of the target (default: "
                                                    "0, the kept opening hand; with --objective curve, the last "
                                                    "of --turns).", metavar="N")] = None,
    objective: Annotated[str, typer.Option(help="event: P(event) by turn (the default); curve: P(--card is "
                                           "playable by --turn), as `deckstat curve`, and the count that "
                                           "maximises it.", metavar="[event|curve]")] = "event",
    card: Annotated[str | None, typer.Option("--card", "-c", help="With --objective curve: the card to play "
                                             "(every printing of the name).", metavar="CARD")] = None,
    curve_group: Annotated[str | None, typer.Option("--curve-group", help="With --objective curve: a group to "
                                                    "play any card of, e.g. \"[race=Dragon]\".",
                                                    metavar="GROUP")] = None,
    policy: Annotated[str | None, typer.Option(help="With --objective curve: the play policy (see `deckstat games "
                                               "show`; default: the profile's).", metavar="POLICY")] = None,
    flood: Annotated[int | None, typer.Option(help="Resource cards in the kept hand that make a flood (default: "
                                              "more than half the hand, 3 of 5).", metavar="N")] = None,
    group: Annotated[str | None, typer.Option(help="Resource group to sweep (default: the profile's, e.g. "
                                              "Terrain).", metavar="GROUP")] = None,
    filler: Annotated[list[str] | None, typer.Option(help="Card that takes the difference first, within the "
                                                     "copy limit; repeat for several, in order (default: the "
                                                     "cards with the most copies, or the furthest below the "
                                                     "limit).", metavar="CARD")] = None,
    seat: OneSeatOpt = Seat.first,
    rules: KeepRule = FROM_FLAGS,
    simulation: FixedSimulation = FROM_FLAGS,
    source: DeckFiles = FROM_FLAGS,
    output: Output = FROM_FLAGS,
    opponent: Annotated[Path | None, typer.Option(help="With --objective curve, a game played with both players' "
                                                  "turns (Wankul): the opponent's deck at every count (default: a "
                                                  "copy of the deck rebuilt at each count).", metavar="DECK")] = None,
    allow_absent: AllowAbsentOpt = False,
    no_effects: NoEffectsOpt = False,
    quiet: QuietOpt = False,
    display: Display = FROM_FLAGS,
) -> None:
    """10, 11 or 12 Terrains? Sweep the resource count at a constant deck size.

    At each count the deck is rebuilt within the game's copy limit: resource
    copies are added to the cards furthest below it (then to generic cards
    such as "Terrain générique 1") or removed from those with the most; the
    other cards make up the difference the same way (--filler cards first).
    Each version is validated and asked P(event) by turn in --zone, the
    screw and flood sides of the kept hand, the mulligan rate (games with a
    mulligan), the mean first turn with a resource card and the deck-out
    turn. --target 0.95 names the smallest legal count reaching it at
    --target-turn (default: the kept opening hand); with --simulate a count
    whose 95% interval contains the target leaves the decision undecided.
    --objective curve --card NAME --turn 6 asks instead P(the card is
    playable by turn 6) under the game's play model (as `deckstat curve`)
    and names the legal count that maximises it.
    """
    from deckstat.cli import tables
    from deckstat.present.format import event_words, ratio_decision, ratio_played_line, seat_words
    from deckstat.questions.ratio import DEFAULT_TURNS as DEFAULT_RATIO_TURNS
    from deckstat.questions.ratio import facts_for_zone

    with user_errors():
        output.check_plot()
        profile = deckstat.get_profile(game)
        loaded, other = _deck_and_opponent(deck, opponent, source, profile)
        deck = shown_deck(deck, loaded)
        with showing(quiet):
            result = deckstat.ratio(loaded, profile, counts=parse_counts(counts) if counts is not None else None,
                                    group=group, filler=filler or None, event=event or None,
                                    turns=parse_turns(turns) if turns is not None else DEFAULT_RATIO_TURNS,
                                    seat=seat.value, zone=zone, target=target, target_turn=target_turn,
                                    flood=flood, **rules.arguments(), **simulation.arguments(),
                                    allow_absent=allow_absent, objective=objective, card=card,
                                    curve_group=curve_group, policy=policy, effects=not no_effects,
                                    opponent=other)
        output.draw("plot_ratio", result)
        provenance, summary = result.provenance, result.summary.iloc[0]
        label = summary["group"]
        events = " / ".join(event_words(e, provenance) for e in result.summary["event"])
        asked = tr("P({event}) by turn {turn}", event=events, turn=summary["target_turn"]) \
            if provenance.get("objective") == "curve" else f"P({events})"
        head = tr("{asked} by number of {label} cards, {seat} — {game}, {deck} ({cards}, {current} now)", asked=asked,
                  label=label, seat=seat_words(summary["seat"]), game=profile.name, deck=deck,
                  cards=_cards(provenance["deck_size"]),
                  current=trn("{n} {label} card", "{n} {label} cards", summary["current_count"], label=label))
        how = tr("deck rebuilt within the copy limit")
        if provenance["filler"]:
            how = tr("{how}, {filler} first", how=how, filler=", ".join(provenance["filler"]))
        if provenance["added_cards"]:
            how = tr("{how}; generic cards added: {cards}", how=how, cards=", ".join(provenance["added_cards"]))
        notes = [how, *_notes(result, profile)]
        if provenance.get("objective") == "curve":
            notes.append(tr("play model {model}, policy {policy} (see `deckstat games show`)",
                            model=name_of(PLAY_MODEL_NAMES, provenance["play_model"]),
                            policy=name_of(PLAY_POLICY_NAMES, provenance["policy"])))
        if other is not None:
            notes.append(tr("the opponent plays {deck} at every count", deck=shown_deck(opponent, other)))
        if provenance["methods"].get("deckout_turn_first") == "simulate":
            notes.append(trn("deck-out turns simulated: {n} race per count, seed {seed}",
                             "deck-out turns simulated: {n} races per count, seed {seed}",
                             provenance["deckout_n_trials"], seed=provenance["seed_entropy"]))
        if result.played is not None:
            notes.append(ratio_played_line(result.played, label))
        facts = facts_for_zone(result.summary["zone"].iloc[0])
        output.emit(result, head + "\n" + tr("; ").join(notes), lambda: [tables.ratio_table(result, facts)])
        if output.fmt is not Format.table:
            return
        lines = [trn("✗ {n} {label} card: {violations}", "✗ {n} {label} cards: {violations}", count, label=label,
                     violations=rows["violations"].iloc[0])
                 for count, rows in result.table.groupby("resource_count", sort=True) if not rows["legal"].iloc[0]]
        lines += ratio_decision(result, FLAGS)
        if result.summary["recommended"].notna().any():
            lines.append(tr("◀ recommended: the smallest legal count reaching the target; (now): the deck's own "
                            "count"))
        if "best" in result.summary.columns and result.summary["best"].notna().any():
            lines.append(tr("★ best: the legal count with the highest P at the target turn"))
        if lines:
            print_text(stdout(), "\n".join(lines))


#: The mulligan options of `optimise`: its candidates' needs are its objectives'.
OptimiseRules = family(MulliganFlags, "keep", "no_mulligan", "mulligan_rule")
#: A race's settings: the most games a candidate is played on, the seed, the processes.
RaceSimulation = family(SimulationFlags, "simulate", "exact", "trials", "seed", "workers",
                        helps={"simulate": "Race the candidates on simulated games even where the exact engine "
                                           "applies.",
                               "trials": "Most games a raced candidate is played on (default 128,000).",
                               "seed": "Seed of the restarts' random swaps and of the races' games (printed)."})

#: The mulligan options of `compare`: the decks' resource group is each deck's own.
CompareRules = family(MulliganFlags, "keep", "no_mulligan", "mulligan_rule", "mulligan_limit", "priority")


@app.command(cls=Command)
@expand_groups
def compare(
    decks: Annotated[list[Path], typer.Argument(help="Two or more decks; each is compared with the first.",
                                                show_default=False, metavar="DECKS")],
    game: GameOpt,
    event: EventsOpt,
    turns: Annotated[str | None, typer.Option(help="Turns: 0-6, 3 or 0,2,4.", metavar="TURNS")] = None,
    seat: SeatOpt = Seat.both,
    zone: ZoneOpt = Zone.seen,
    rules: CompareRules = FROM_FLAGS,
    cards_known: Known = FROM_FLAGS,
    unpaired: Annotated[bool, typer.Option("--unpaired", help="Simulate the decks independently instead of "
                                           "with the same shuffles (wider intervals on the difference).")] = False,
    with_deckout: Annotated[bool, typer.Option("--deckout", help="Also show each deck's deck-out turns.")] = False,
    ratio_range: Annotated[str | None, typer.Option("--ratio", help="Also sweep the resource count over this "
                                                    "range (e.g. 8-14) for each deck.", metavar="COUNTS")] = None,
    simulation: FixedSimulation = FROM_FLAGS,
    source: DeckFiles = FROM_FLAGS,
    output: Output = FROM_FLAGS,
    allow_absent: AllowAbsentOpt = False,
    no_effects: NoEffectsOpt = False,
    quiet: QuietOpt = False,
    display: Display = FROM_FLAGS,
) -> None:
    """The same question for several versions of a deck: card differences, odds, and the difference.

    The difference (deck B minus deck A) comes with a 95% interval and the
    p-value of "no difference". Exact where the exact engine applies;
    otherwise simulated with common random numbers (the same shuffles drive
    every deck), which narrows the interval on the difference.
    """
    with user_errors():
        output.check_plot()
        profile = deckstat.get_profile(game)
        loaded = [deckstat.load_deck(d, pool=source.pool, deck_name=name)
                  for d, name in zip(decks, deck_names(source.deck_name, len(decks)))]
        for each in loaded:
            _warn_file(each, profile)
        described = cards_known.mapping()
        draws = cards_known.draws
        asked = _known_turns(turns, draws) if described is not None else \
            {"turns": parse_turns("0-6" if turns is None else turns), "draws": parse_draws(draws)}
        with showing(quiet):
            result = deckstat.compare(loaded, profile, event, **asked, seat=seat.value, zone=zone.value,
                                      **rules.arguments(), **simulation.arguments(), paired=not unpaired,
                                      with_deckout=with_deckout,
                                      ratio_counts=None if ratio_range is None else parse_counts(ratio_range,
                                                                                                 "--ratio"),
                                      allow_absent=allow_absent, known=described, effects=not no_effects)
        output.draw("plot_compare", result)
        _warn(result.provenance["warnings"])
        check_table(output.fmt, output.table)
        if output.fmt is not Format.table:
            output.emit(result, "")
            return
        _print_comparison(result, loaded, profile)  # inside the block: printed before the figure is saved


def _print_comparison(result, decks: list, profile) -> None:
    from deckstat.cli import tables
    from deckstat.present.format import compare_played_line, format_probability, merge_alike_seats

    def build() -> list:
        shown = []
        for name in result.table["deck_b"].unique():
            changes = result.cards[result.cards["deck_b"] == name]
            text = ", ".join(f"{c.name} {tr(CHANGES[c.change]) if c.change in CHANGES else c.change}"
                             for c in changes.itertuples(index=False)) or tr("same cards")
            shown.append(tr("{deck_a} → {deck_b}: {changes}", deck_a=decks[0].name, deck_b=name, changes=text))
        note = simulation_note(result)
        if note:
            pairing = tr("paired (same shuffles)") if result.provenance["paired"] else tr("independent runs")
            shown.append(tr("; ").join([note, pairing]))
        events = " / ".join(dict.fromkeys(result.table["event"]))
        zone, broken = result.table["zone"].iloc[0], result.provenance.get("broken", 0)
        where = {"hand": tr("in hand") if "known" in result.provenance else tr("in the kept opening hand"),
                 "bottom": tr("under the deck"),
                 "set_aside": trn("among the {n} broken {shields}", "among the {n} broken {shields}", broken,
                                  shields=profile.set_aside_name) if broken else
                 tr("in the {set_aside}", set_aside=profile.set_aside_name)}.get(zone)
        deck_a = result.table["deck_a"].iloc[0]
        shown.append(tr("P({events}) {where} — {game}; A = {deck}", events=events, where=where, game=profile.name,
                        deck=deck_a) if where else
                     tr("P({events}) — {game}; A = {deck}", events=events, game=profile.name, deck=deck_a))
        if "known" in result.provenance:
            known = tr("; ").join(f"{tr(KNOWN_ZONES.get(zone, zone))} {info['cards']} ({info['described']})"
                                  for zone, info in result.provenance["known"].items()) or tr("nothing")
            broken = result.provenance["broken"]
            if broken:
                known = tr("{known}; {broken} broken", known=known, broken=broken)
            shown.append(tr("known: {known}; exact, from now", known=known))
        shown.append(tables.compare_table(result))
        if result.played is not None:
            shown.append(compare_played_line(result.played))
        if result.deckout is not None:
            shown.append(tr("Deck-out (each deck against a copy of itself)"))
            columns = ["deck", "seat", "mean_turn", "median_turn", "earliest_turn", "latest_turn"]
            deckout = merge_alike_seats(result.deckout, columns[2:], by=["deck"], order=())
            rows = deckout.assign(mean_turn=[localise_number(str(round(t, 2))) for t in deckout["mean_turn"]],
                                  seat=[tables.seat_cell(s) for s in deckout["seat"]])[columns]
            grid = tables.frame_table(rows, {c: tables.header(c) for c in columns})
            grid.notes += tables.same_odds_note(deckout)
            shown.append(grid)
        if result.ratio is not None:
            sweep = result.ratio
            last = sweep[(sweep["turn"] == sweep["turn"].max()) & (sweep["event"] == sweep["event"].iloc[0])]
            shown.append(tr("Ratio sweep: {goal}", goal=tr("P({event}) by turn {turn}", event=last["event"].iloc[0],
                                                            turn=int(last["turn"].iloc[0]))))
            shown.append(tables.distribution_table(last.assign(value=[format_probability(p) for p in last["p"]]),
                                                   "resource_count", "deck", value="value", formatted=True))
        return shown

    print_items(build)


def sensitivity(
    deck: DeckArg,
    game: GameOpt,
    event: Annotated[str | None, typer.Option("--event", "-e", help="Judge the deck on P(this event among the "
                                              "cards seen by --by-turn).", metavar="EVENT")] = None,
    curve_target: Annotated[str | None, typer.Option("--curve", help="Judge the deck on P(this card, or group "
                                                     "such as \"[cost>=2]\", is playable by --by-turn), as "
                                                     "`deckstat curve`.", metavar="CARD")] = None,
    by_turn: Annotated[int | None, typer.Option("--by-turn", help="Turn of --event (default 2) or --curve "
                                                "(default 5).", metavar="N")] = None,
    objectives: Annotated[list[str] | None, typer.Option(
        "--objective", help="Another objective, 'odds: EVENT @ TURN' or 'curve: CARD @ TURN', with an optional "
        "weight ('2 * curve: [cost>=2] @ 3'); repeat for several: the change is their weighted sum.",
        metavar="OBJECTIVE")] = None,
    cards: Annotated[list[str] | None, typer.Option("--card", "-c", help="Only these cards' copies move (repeat; "
                                                    "default: every card).", metavar="CARD")] = None,
    filler: Annotated[list[str] | None, typer.Option(help="Card that fills the place of a copy cut when the cut "
                                                     "alone breaks a rule; repeat for several, in order (default: "
                                                     "the card whose copy more gains most).",
                                                     metavar="CARD")] = None,
    seat: OneSeatOpt = Seat.first,
    opponent: Annotated[Path | None, typer.Option(help="With a play model that plays both players (Wankul): the "
                                                  "opponent's deck, the same for every move (default: DECK as it "
                                                  "is).", metavar="DECK")] = None,
    rules: KeepRule = FROM_FLAGS,
    simulation: FixedSimulation = FROM_FLAGS,
    source: DeckFiles = FROM_FLAGS,
    output: Output = FROM_FLAGS,
    allow_absent: AllowAbsentOpt = False,
    quiet: QuietOpt = False,
    display: Display = FROM_FLAGS,
) -> None:
    """Which card to cut, what one more copy is worth: a copy fewer and a copy more of each card.

    For each card, the change in the answer (P(--event by --by-turn), P(--curve playable by --by-turn), or the
    weighted sum of --objective) when the deck has one copy fewer and one copy more, with its interval; whether
    the move keeps the deck legal and, when it does not, its legal version at the deck's size (the card that
    makes room, or the filler that fills). Exact where the question is; otherwise every deck is dealt the same
    games (common random numbers), so each change's interval is far narrower than the answers'. Default
    50,000 games when simulated (--trials).
    """
    from deckstat.cli import tables
    from deckstat.present.format import format_estimate, seat_words, sensitivity_sentences

    with user_errors():
        output.check_plot()
        profile = deckstat.get_profile(game)
        loaded, other = _deck_and_opponent(deck, opponent, source, profile)
        deck = shown_deck(deck, loaded)
        with showing(quiet):
            result = deckstat.sensitivity(loaded, profile, event=event, curve_target=curve_target, by_turn=by_turn,
                                          objectives=objectives or (), seat=seat.value, cards=cards or None,
                                          filler=filler or None, opponent=other, allow_absent=allow_absent,
                                          **rules.arguments(), **simulation.arguments())
        lines = [tr("What a copy is worth — {game}, {deck}, {seat}", game=profile.name, deck=deck,
                    seat=seat_words(seat.value))]
        for row in result.objectives.itertuples(index=False):
            what = tr("P({event}) by turn {turn}", event=row.target, turn=row.turn) if row.kind == "odds" else \
                tr("P({card} playable by turn {turn})", card=row.target, turn=row.turn)
            weight = "" if row.weight == 1 else tr(" (weight {weight})", weight=localise_number(f"{row.weight:g}"))
            lines.append(tr("{what}{weight} = {p}", what=what, weight=weight,
                            p=format_estimate(row.p, row.ci_low, row.ci_high, row.method)))
        note = simulation_note(result)
        if note:
            lines.append(tr("{note}; every deck on the same games", note=note))
        if not result.provenance["deck_legal"]:
            lines.append(tr("the deck as it is breaks a rule (`deckstat validate`): no legal version is proposed"))
        output.emit(result, "\n".join(lines), lambda: [tables.sensitivity_table(result)])
        if output.fmt is Format.table:
            print_text(stdout(), "\n".join(sensitivity_sentences(result)))


app.command(cls=Command)(expand_groups(sensitivity))
app.command("sensibilite", cls=Command, hidden=True)(expand_groups(sensitivity))


@app.command(cls=Command)
@expand_groups
def combos(
    deck: DeckArg,
    game: GameOpt,
    lines: Annotated[Path | None, typer.Option(help="TOML file of named lines: [lines] Rush = [\"Terrain\", "
                                               "\"2 [cost<=1]\"].", metavar="FILE")] = None,
    line: Annotated[list[str] | None, typer.Option(help="A line as 'NAME: REQUIREMENT, REQUIREMENT' ('Rush: "
                                                   "Terrain, 2 [cost<=1]'); repeat for several.",
                                                   metavar="LINE")] = None,
    turns: Annotated[str | None, typer.Option(help="Turns: 0-6, 3 or 0,2,4.", metavar="TURNS")] = None,
    seat: SeatOpt = Seat.both,
    zone: ZoneOpt = Zone.seen,
    rules: Mulligan = FROM_FLAGS,
    simulation: FixedSimulation = FROM_FLAGS,
    source: DeckFile = FROM_FLAGS,
    output: Output = FROM_FLAGS,
    allow_absent: AllowAbsentOpt = False,
    quiet: QuietOpt = False,
    display: Display = FROM_FLAGS,
) -> None:
    """Combo lines: each line met by different physical cards, at least one line, and what each line alone adds.

    A line is a list of requirements: a group or a card, with a count (1 when left out) and any-of alternatives
    ('2 [cost<=1]', 'Robot Camembert | Ninja du Marché'); each requirement needs cards of its own, so a card in two
    groups fills one requirement only. Each line is the event distinct_cards(...) of `deckstat odds`: exact where
    the engine allows, simulated otherwise. See docs/combos.md.
    """
    from deckstat.cli import tables
    from deckstat.present.format import format_estimate, merge_alike_seats, seat_words

    with user_errors():
        output.check_plot()
        profile = deckstat.get_profile(game)
        loaded = deckstat.load_deck(deck, pool=source.pool, deck_name=source.deck_name)
        _warn_file(loaded, profile)
        asked = _asked_lines(lines, line)
        with showing(quiet):
            result = deckstat.combos(loaded, profile, asked, turns=parse_turns("0-6" if turns is None else turns),
                                     seat=seat.value, zone=zone.value, **rules.arguments(), **simulation.arguments(),
                                     allow_absent=allow_absent)
        table = result.table
        head = [tr("Combo lines — {game}, {deck}", game=profile.name, deck=shown_deck(deck, loaded))]
        for name, requirements in result.provenance["lines"].items():
            head.append(tr("{line}: {requirements}", line=name, requirements=" + ".join(requirements)))
        note = simulation_note(result)
        if note:
            head.append(note)
        # Seats that draw alike are one column; otherwise each line's column names its seat.
        merged = merge_alike_seats(table, ["p", "ci_low", "ci_high", "n_trials", "method"], by=["line", "kind"])
        seats = merged["seat"].nunique() > 1
        columns = []
        for row in merged.itertuples(index=False):
            label = tr("{line} alone", line=row.line) if row.kind == "alone" else row.line
            columns.append(tr("{line} ({seat})", line=label, seat=seat_words(row.seat)) if seats else label)
        shown = merged.assign(column=columns, value=[format_estimate(r.p, r.ci_low, r.ci_high, r.method)
                                                     for r in merged.itertuples(index=False)])
        output.emit(result, "\n".join(head), lambda: [tables.distribution_table(shown, "turn", "column",
                                                                                value="value", formatted=True)])


def _asked_lines(path: Path | None, texts: list[str] | None):
    """The lines of --lines (a file) or of each --line 'NAME: REQUIREMENTS', refused when neither or both."""
    if (path is None) == (not texts):
        raise DeckstatError(tr("give the lines with --lines FILE or --line 'NAME: REQUIREMENTS', one of them"))
    if path is not None:
        return path
    out = {}
    for text in texts:
        name, colon, requirements = text.partition(":")
        if not colon or not name.strip() or not requirements.strip():
            raise DeckstatError(tr("--line {text!r}: expected 'NAME: REQUIREMENT, REQUIREMENT', as in 'Rush: Terrain, "
                                   "2 [cost<=1]'", text=text))
        out[name.strip()] = requirements
    return out


def parse_budget(text: str) -> float:
    """``--budget``: seconds as ``90``, ``90s``, ``2m``, ``2min`` or ``1h``."""
    import re

    found = re.fullmatch(r"\s*(\d+(?:[.,]\d+)?)\s*(s|sec|m|min|h)?\s*", text or "", flags=re.IGNORECASE)
    if not found:
        raise DeckstatError(tr("{option}: expected seconds such as 90, 90s, 2m or 1h, got {value!r}",
                               option="--budget", value=text))
    seconds = float(found.group(1).replace(",", ".")) * {"m": 60, "min": 60, "h": 3600}.get(
        (found.group(2) or "s").lower(), 1)
    if seconds <= 0:
        raise DeckstatError(tr("{option}: expected seconds such as 90, 90s, 2m or 1h, got {value!r}",
                               option="--budget", value=text))
    return seconds


@app.command(cls=Command)
@expand_groups
def optimise(
    deck: DeckArg,
    game: GameOpt,
    objectives: Annotated[list[str] | None, typer.Option(
        "--objective", help="An objective, 'odds: EVENT @ TURN' or 'curve: CARD @ TURN', with an optional weight "
        "('2 * curve: [cost>=2] @ 3'); repeat for several: a deck's value is their weighted sum.",
        metavar="OBJECTIVE")] = None,
    event: Annotated[str | None, typer.Option("--event", "-e", help="An objective: P(this event among the cards seen "
                                              "by --by-turn).", metavar="EVENT")] = None,
    by_turn: Annotated[int | None, typer.Option("--by-turn", help="Turn of --event (default 2).",
                                                metavar="N")] = None,
    pool: Annotated[Path | None, typer.Option(help="Card table of the cards a candidate may hold besides the "
                                              "deck's own (also resolves a text decklist DECK).",
                                              metavar="POOL")] = None,
    owned: Annotated[Path | None, typer.Option(help="Your collection (name, count): no candidate holds more copies "
                                               "than owned (default: any card up to the copy limit).",
                                               metavar="FILE")] = None,
    lock: Annotated[list[str] | None, typer.Option(help="A card of the deck whose copies stay as they are "
                                                   "(repeat).", metavar="CARD")] = None,
    start: Annotated[Path | None, typer.Option(help="Another deck to start from (a candidate too).",
                                               metavar="DECK")] = None,
    budget: Annotated[str, typer.Option(help="Time for the search: 90, 90s, 2m, 1h.", metavar="TIME")] = "60s",
    save: Annotated[Path | None, typer.Option("--out", "-o", help="Write the best deck as a card CSV here.",
                                              metavar="FILE")] = None,
    seat: OneSeatOpt = Seat.first,
    rules: OptimiseRules = FROM_FLAGS,
    simulation: RaceSimulation = FROM_FLAGS,
    output: Output = FROM_FLAGS,
    quiet: QuietOpt = False,
    display: Display = FROM_FLAGS,
) -> None:
    """The best legal deck of the same size from your deck's cards, a pool's and your collection.

    Candidates keep the deck's size and the game's construction rules, within the copies owned (--owned) and
    with --lock cards as they are. Exact odds objectives (--objective, --event): every candidate when they are
    few, otherwise a local search on one-copy swaps with restarts until --budget ends; the deck itself (and
    --start) is always a candidate, so the answer is never worse. A playability curve ('curve: CARD @ TURN') or an
    objective the exact engine does not answer (a London mulligan, --simulate) races the swaps on shared games
    instead, halving the field until one is clearly better; the decks still tied are named. Ctrl-C keeps the best
    deck so far. Prints the changes, each objective before and after, the decks tied with the best and, with two
    exact objectives, the trade-off front; --out writes the best deck.
    """
    from deckstat.cli import tables
    from deckstat.present.files import check_writable_file, write_card_file
    from deckstat.present.format import format_difference, format_points, format_probability, seat_words

    with user_errors():
        seconds = parse_budget(budget)
        profile = deckstat.get_profile(game)
        loaded = deckstat.load_deck(deck, pool=pool)
        _warn_file(loaded, profile)
        pool_deck = deckstat.read_card_csv(pool) if pool is not None else None
        owned_deck = deckstat.load_deck(owned) if owned is not None else None
        start_deck = deckstat.load_deck(start, pool=pool) if start is not None else None
        if save is not None:
            check_writable_file(save)
        with showing(quiet):
            result = deckstat.optimise(loaded, profile, objectives=objectives or (), event=event, by_turn=by_turn,
                                       pool=pool_deck, owned=owned_deck, lock=lock or None, start=start_deck,
                                       seat=seat.value, budget=seconds, **rules.arguments(),
                                       # --trials bounds a race; it does not ask for one
                                       **simulation.arguments(method=method(simulation.simulate, None, None,
                                                                            simulation.exact)))
        if save is not None:
            write_card_file(result.best, save)
        provenance = result.provenance
        values = result.table.set_index("candidate")
        lines = [tr("The best deck found — {game}, {deck}, {seat}", game=profile.name, deck=shown_deck(deck, loaded),
                    seat=seat_words(seat.value))]
        for row in result.objectives.itertuples(index=False):
            weight = "" if row.weight == 1 else tr(" (weight {weight})", weight=localise_number(f"{row.weight:g}"))
            lines.append(tr("{objective}{weight}: {now} now, {best} with the best deck ({change})",
                            objective=row.objective, weight=weight, now=format_probability(row.p_current),
                            best=format_probability(row.p_best), change=format_points(row.change, 2)))
        seconds = localise_number(f"{provenance['seconds']:.1f}")
        if provenance["search"] == "race":
            lines.append(tr("candidates raced on shared games: {evaluations} races in {rounds} rounds, {games} games, "
                            "{checks} legality checks in {seconds} s; seed {seed}",
                            evaluations=number(provenance["evaluations"]), rounds=number(provenance["rounds"]),
                            games=number(provenance["games"]), checks=number(provenance["legality_checks"]),
                            seconds=seconds, seed=provenance["seed"]))
        else:
            search = tr("every candidate evaluated") if provenance["search"] == "exhaustive" else trn(
                "local search, {n} restart", "local search, {n} restarts", provenance["restarts"])
            lines.append(tr("{search}: {evaluations} candidates evaluated ({distinct} exact answers), {checks} "
                            "legality checks in {seconds} s; seed {seed}", search=search,
                            evaluations=number(provenance["evaluations"]),
                            distinct=number(provenance["distinct_evaluations"]),
                            checks=number(provenance["legality_checks"]), seconds=seconds, seed=provenance["seed"]))
        if provenance["interrupted"]:
            lines.append(tr("interrupted: the best deck found so far"))
        if not values.loc["best", "legal"]:
            lines.append(tr("no legal deck found: the deck as it is breaks a rule (`deckstat validate`)"))
        elif not values.loc["current", "legal"]:
            lines.append(tr("the deck as it is breaks a rule (`deckstat validate`); the best deck found is legal"))
        best = values.loc["best"]
        if best["gain"] <= 0:
            lines.append(tr("no legal deck found beats the deck as it is"))
        elif best["method"] == "simulate" and best["gain_low"] <= 0:
            lines.append(tr("the best deck found is not clearly better than the deck as it is: {gain}",
                            gain=format_difference(best["gain"], best["gain_low"], best["gain_high"], "simulate")))
        else:
            lines.append(tr("gain: {gain}", gain=format_difference(best["gain"], best["gain_low"], best["gain_high"],
                                                                   best["method"])))
        if save is not None:
            lines.append(tr("best deck written to {path}", path=str(save)))

        def build() -> list:
            shown = []
            if len(result.cards):
                changes = result.cards.assign(change=[tr(CHANGES[c]) if c in CHANGES else c
                                                      for c in result.cards["change"]])
                shown.append(tables.frame_table(changes[["name", "count_a", "count_b", "change"]],
                                                {"name": tr("card"), "count_a": tr("now"),
                                                 "count_b": tr("best deck"), "change": tr("change")}))
            listing = "\n".join(f"{int(count)} {label}" for label, count in zip(result.best.labels,
                                                                                 result.best.counts))
            shown.append(tr("The best deck:") + "\n" + listing)
            if provenance["search"] == "race" and len(result.tied):
                shown.append(trn("undecided: {n} deck within the interval of the best, e.g. the best deck with "
                                 "{cards}", "undecided: {n} decks within the interval of the best, e.g. the best "
                                 "deck with {cards}", len(result.tied), cards=result.tied["changes"].iloc[0]))
            elif len(result.tied) > 1:
                shown.append(trn("{n} legal deck found with the same value, e.g. the best deck with {cards}",
                                 "{n} legal decks found with the same value, e.g. the best deck with {cards}",
                                 len(result.tied),
                                 cards=result.tied["changes"].iloc[1]))
            if result.front is not None and len(result.front) > 1:
                front = result.front.assign(p_1=[format_probability(p) for p in result.front["p_1"]],
                                            p_2=[format_probability(p) for p in result.front["p_2"]])
                names = list(result.objectives["objective"])
                shown.append(tr("Trade-off: the legal decks checked that no other beats on both objectives"))
                front = front.assign(copies_changed=[number(n) for n in front["copies_changed"]])
                shown.append(tables.frame_table(front[["p_1", "p_2", "copies_changed"]],
                                                {"p_1": "P1", "p_2": "P2", "copies_changed": tr("copies swapped")}))
                shown.append(tr("P1: {first}; P2: {second}; each deck: --format csv --table front",
                                first=names[0], second=names[1]))
            return shown

        output.emit(result, "\n".join(lines), build)


@app.command(cls=Command)
@expand_groups
def report(
    deck: DeckArg,
    game: GameOpt,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder to write the report and its figures into.",
                                      metavar="FOLDER")]
    = Path("report"),
    html: Annotated[bool, typer.Option("--html", help="Write report.html instead of report.md.")] = False,
    trials: Annotated[int | None, typer.Option("--trials", parser=count_parser("n_trials"),
                                                help="Trials of the simulated parts, e.g. 100000 or 1e6 [default: "
                                                "100,000; the resource-count sweep: as `deckstat ratio`].",
                                                metavar="N")] = None,
    seed: SeedOpt = None,
    policy: Annotated[Policy, typer.Option(help="When the deck-out part plays the cards of the draw and mill "
                                           "columns (see `deckstat deckout --help`).",
                                           metavar=choices(Policy))] = Policy[DEFAULT_POLICY],
    workers: WorkersOpt = 1,
    source: DeckFile = FROM_FLAGS,
    allow_absent: AllowAbsentOpt = False,
    illegal_counts: Annotated[bool, typer.Option("--illegal-counts",
                                                 help="Show, in the resource-count sweep, the counts around the "
                                                 "deck's own that make an illegal deck too (marked).")] = False,
    quiet: QuietOpt = False,
    lang: LangOpt = None,
) -> None:
    """Everything about one deck in one page, with figures.

    Legality, opening hands and mulligan, the by-turn curve, playability by
    turn (`deckstat curve` for the first player over the 20 most-copied
    cards), the resource-count sweep over legal decks, deck-out timing (with
    the draw and mill columns, as `deckstat deckout`) and, for a deck with a
    shield_trigger column, the shield triggers among the shields, written as
    report.md (or report.html) into --out.
    """
    from deckstat.cli.progress import bar_paused
    from deckstat.present.files import check_writable_folder
    from deckstat.present.report import FiguresAhead, how_computed, write_report

    with user_errors():
        check_writable_folder(out)  # before the work, not after it
        profile = deckstat.get_profile(game)
        loaded = deckstat.load_deck(deck, pool=source.pool, deck_name=source.deck_name)
        # Each figure is drawn (where a copy of the process may draw it) while the next parts are computed; the
        # progress bar's threads are paused while the copy is made.
        with FiguresAhead() as ahead:
            with showing(quiet):
                result = deckstat.report(loaded, profile, n_trials=trials, rng=seed, policy=policy.value,
                                         allow_absent=allow_absent, illegal_counts=illegal_counts,
                                         n_workers=workers, on_part=bar_paused(ahead.part))
            page = write_report(result, out, fmt="html" if html else "markdown", ahead=ahead)
    # The page's own account of what was simulated, with how many trials, and the seed that reruns it.
    print_text(stdout(), tr("wrote {page} and its figures", page=page) + "\n" + how_computed(result))


@app.command(cls=Command)
@expand_groups
def explore(
    deck: DeckArg,
    game: GameOpt,
    port: Annotated[int, typer.Option(help="Port of the page (0: a free one).", metavar="PORT", min=0,
                                      max=65535)] = 0,
    host: Annotated[str, typer.Option(help="Address to listen on. Anything but 127.0.0.1 lets other machines "
                                      "open the page.", metavar="HOST")] = "127.0.0.1",
    browser: Annotated[bool, typer.Option("--browser/--no-browser", help="Open the page in the browser.")] = True,
    state: Annotated[Path | None, typer.Option(help="Start from a state the explorer saved (a batch spec).",
                                               metavar="FILE")] = None,
    seed: SeedOpt = None,
    source: DeckFile = FROM_FLAGS,
    lang: LangOpt = None,
) -> None:
    """A local page that answers as you change the deck, the event, the seat, the turns or the rules.

    The by-turn curve with its interval, the keep/mulligan table, the
    playability of a chosen card and the ±1-copy table, exact where the
    exact engine answers and tightening while you wait where they are
    simulated. The page's state is saved as a batch spec (`deckstat batch`
    runs it again) and kept in its address. Needs `pip install
    "deckstat[explore]"`. Ctrl-C stops it.
    """
    from deckstat.explorer.app import LOCAL_HOSTS, serve
    from deckstat.explorer.state import DeckFile

    with user_errors():
        if host not in LOCAL_HOSTS:
            typer.echo(tr("warning: listening on {host}: other machines can open this page and read the deck",
                          host=host), err=True)
        loaded = deckstat.load_deck(deck, pool=source.pool, deck_name=source.deck_name)

        def ready(url: str) -> None:
            print_text(stdout(), tr("deckstat explorer at {url} (Ctrl-C stops it)", url=url))

        where = DeckFile(str(deck.resolve()), deck_name=source.deck_name,
                         pool=str(source.pool.resolve()) if source.pool is not None else None)
        serve(loaded, game, port=port, host=host, open_browser=browser, lang=get_language(), state=state,
              seed=seed, ready=ready, deck_file=where)


app.command("explorer", cls=Command, hidden=True)(explore)


#: What the game listings take of the display options (they write no CSV).
Layout = family(DisplayFlags, "lang", "wide", "columns")


@games_app.callback()
@expand_groups
def games(ctx: typer.Context, display: Layout = FROM_FLAGS) -> None:
    """List the shipped game profiles (``deckstat games show ID`` for one in words)."""
    if ctx.invoked_subcommand is not None:
        return
    from deckstat.cli.layout import Grid
    from deckstat.games.profiles import localized

    def build() -> list:
        grid = Grid([])
        profiles = deckstat.list_profiles()
        rows = []
        for profile in profiles:
            several = len(profile.parts) > 1
            size_rules = [tr("{place}: {message}", place=localized(p.name), message=localized(r.text)) if several
                          else localized(r.text) for p in profile.parts for r in p.rules if r.kind == "size"]
            rows.append((profile.id, f"{profile.name}", tr("; ").join(size_rules), str(profile.hand_size),
                         name_of(MULLIGAN_NAMES, profile.mulligan), tr(DECKOUT_RULES[profile.deckout])))
        for index, (header, name) in enumerate(((tr("id"), "id"), (tr("game"), "game"), (tr("deck"), "deck"),
                                                (tr("hand"), "hand_size"), (tr("mulligan"), "mulligan"),
                                                (tr("deck-out"), "deckout"))):
            grid.add(header, [row[index] for row in rows], names=(name,), key=index == 0, text=index != 3,
                     justify="right" if index == 3 else "left")
        return [grid]

    try:  # not user_errors: it loads the card reader (pandas) for the notes of decks, and no deck is read here
        print_items(build)
    except DeckstatError as exc:  # --columns naming no column
        typer.echo(tr("error: {message}", message=exc.render(FLAGS)), err=True)
        raise typer.Exit(code=2) from None


@games_app.command("show", cls=Command)
@expand_groups
def games_show(game: Annotated[str, typer.Argument(help="Profile id, alias or .toml file.", metavar="GAME")],
               display: Layout = FROM_FLAGS) -> None:
    """Show one game profile's rules in words, with its assumptions and rules-text sources."""
    from deckstat.cli.word_tables import key_value_table  # words only: not deckstat.cli.tables, which loads pandas

    with user_errors():
        profile = deckstat.get_profile(game)
        print_items(lambda: [key_value_table(profile.describe(with_play_model=True))])


app.command("batch", cls=Command)(batch_command)


def _stand_in(callback):
    """A callback named and documented as ``callback``, taking nothing: its command as ``--help`` lists it."""
    def stand_in() -> None:  # never run: the command a command line names is built whole
        raise RuntimeError(f"{callback.__name__} is listed, not built")

    stand_in.__name__ = stand_in.__qualname__ = callback.__name__
    stand_in.__doc__ = callback.__doc__
    return stand_in


def command_line(args: list[str]) -> typer.Typer:
    """``app`` as the command line ``args`` uses it: the command they name whole, the others by name and help.

    typer builds every command's options before it reads the command line (some 400 of them, about a third of
    what importing typer costs); a command line runs one command at most, and the others are only listed (by
    ``--help``), by their name, help and whether hidden. The groups (``games``) are built whole. A command
    line whose first word is ``--`` or no command gets every command whole, for click to say what is wrong.
    """
    import copy

    from typer.main import get_command_name

    # The app's own options (--help, --version) take no value: its first other word is the command.
    word = next((arg for arg in args if not arg.startswith("-") or arg == "--"), None)
    names = [info.name or get_command_name(info.callback.__name__) for info in app.registered_commands]
    if word is not None and word not in names and all(group.name != word for group in app.registered_groups):
        return app
    shown = copy.copy(app)
    shown.registered_commands = []
    for name, info in zip(names, app.registered_commands):
        if name != word:
            info = copy.copy(info)
            info.callback = _stand_in(info.callback)
        shown.registered_commands.append(info)
    return shown


def main() -> None:
    """Entry point of the ``deckstat`` command."""
    from deckstat.cli.signals import (
        INTERRUPT_CODES,
        ends_in_interrupt,
        forget_handled_interrupt,
        interrupted_code,
        stop_on_sigterm,
    )
    stop_on_sigterm()
    try:
        # Loaded inside the try: a Ctrl-C while rich's terminal classes are built reads "interrupted" too.
        from deckstat.cli.terminal import protect_streams

        protect_streams()  # a cp1252 or cp850 terminal gets plain characters for what it lacks, never a crash
        command_line(sys.argv[1:])()
    except KeyboardInterrupt:  # while typer builds the commands, before the group's own handling (usage.Group)
        typer.echo(tr("interrupted"), err=True)
        raise SystemExit(interrupted_code()) from None
    except Exception as exc:  # a bug outside the commands' own handling (user_errors), e.g. in an option's parser
        from deckstat.cli.options import EXIT_INTERNAL, internal_error

        if ends_in_interrupt(exc):
            typer.echo(tr("interrupted"), err=True)
            raise SystemExit(interrupted_code()) from None
        typer.echo(internal_error(exc), err=True)
        raise SystemExit(EXIT_INTERNAL) from None
    finally:
        # The command has ended and said how: a Ctrl-C (or a SIGTERM) while Python shuts down would otherwise end
        # the process silently with the signal's status, after a complete result.
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        ending = sys.exc_info()[1]
        if isinstance(ending, SystemExit) and ending.code in INTERRUPT_CODES:
            forget_handled_interrupt()
