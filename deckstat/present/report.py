"""Writing a deck report: ``report.md`` with its figures beside it, or one self-contained ``report.html``.

Every number comes from a :class:`deckstat.questions.report.Report` (see
:func:`deckstat.report`); nothing is computed here. The report is first
built as a small document — headings, paragraphs, bullet lists, tables and
figures, with inline code — in the current language (:mod:`deckstat.i18n`),
then written as Markdown or as HTML from that one model, so the two formats
always say the same thing and neither is converted from the other. The
folder is built beside the old one and swapped in, so an error or an
interruption leaves the old report or none, never a half-written one.
"""

from __future__ import annotations

import base64
import os
import re
import string
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from deckstat._fork import Forked, work_beside
from deckstat._validate import check_choice, format_ranges
from deckstat._version import __version__
from deckstat.errors import DeckstatError, render_marks
from deckstat.games.profiles import list_profiles, localized
from deckstat.i18n import N_, french_typography, get_language, localise_number, number, tr, trn
from deckstat.play import MODELS
from deckstat.present.files import atomic_write_bytes, replace_folder, write_error
from deckstat.present.format import (
    SEED_RERUN,
    curve_effects_line,
    curve_scoring_line,
    deckout_order_line,
    drought_line,
    drought_play_line,
    effects_line,
    format_difference,
    format_estimate,
    format_probability,
    merge_alike_seats,
    mulligan_played_line,
    policy_note,
    ratio_decision,
    ratio_played_line,
    same_odds_line,
    scoring_line,
    seed_note,
    sensitivity_rows,
    sensitivity_sentences,
    trial_count,
)
from deckstat.present.markup import html_attribute, html_text, markdown_code, markdown_text
from deckstat.questions.report import REPORT_TARGET, SENSITIVITY_TURN, Report
from deckstat.terms import MULLIGAN_NAMES, PLAY_MODEL_NAMES, PLAY_POLICY_NAMES, name_of

REPORT_FORMATS = ("markdown", "html")


# --------------------------------------------------------------------------- the document model

@dataclass(frozen=True)
class Code:
    """Inline code in a paragraph: a command, a column, a keep rule (``<code>`` in HTML, backticks in Markdown)."""

    text: str


#: A piece of a paragraph: plain text (card names included, written as they are) or code.
Span = str | Code


@dataclass(frozen=True)
class Heading:
    """A heading: level 1 for the page's title, 2 for its sections."""

    level: int
    text: str


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of text and code spans."""

    spans: tuple[Span, ...]


@dataclass(frozen=True)
class Items:
    """A bullet list, each item a sequence of spans."""

    items: tuple[tuple[Span, ...], ...]


@dataclass(frozen=True)
class Table:
    """A table of text cells; the columns whose every cell is a number are aligned right."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    @property
    def numeric(self) -> tuple[bool, ...]:
        """Whether each column holds numbers (every non-empty cell starts with one)."""
        return tuple(bool(cells) and all(_NUMBER.match(c) or c in ("", "–") for c in cells)
                     for cells in zip(*self.rows)) if self.rows else tuple(False for _ in self.header)


@dataclass(frozen=True)
class Figure:
    """A figure: the PNG file ``name`` (beside the Markdown page, inside the HTML page), its alt text and caption."""

    name: str
    alt: str
    caption: str


Block = Heading | Paragraph | Items | Table | Figure


@dataclass(frozen=True)
class Document:
    """A report as blocks, in the language ``lang`` it was written in."""

    title: str
    lang: str
    blocks: tuple[Block, ...]

    def figures(self) -> list[Figure]:
        """The figures, in the page's order."""
        return [block for block in self.blocks if isinstance(block, Figure)]


#: A cell that is a number, a percentage or an estimate ("87.3%", "<0.01%", "12 (your deck)", "±0,4 %").
_NUMBER = re.compile(r"^[<>≤≥±+\-−]?\s?\d")
#: A percentage written the English way: a digit right before ``%`` (French puts a no-break space there).
_ENGLISH_PERCENT = re.compile(r"\d%")


def _spans(template: str, **fields: object) -> tuple[Span, ...]:
    """The spans of a translated message: each field given as :class:`Code` stays code, the rest is text.

    ``template`` is the message as :func:`deckstat.i18n.tr` returns it without fields, so that the
    code a message names (a command, a column) is marked in whichever language it is written.

    Examples
    --------
    >>> _spans("see {command} for {what}", command=Code("deckstat curve"), what="more")
    ('see ', Code(text='deckstat curve'), ' for more')
    """
    spans: list[Span] = []
    for literal, name, spec, conversion in string.Formatter().parse(template):
        pieces: list[Span] = [literal] if literal else []
        if name is not None:
            value = fields[name]
            if isinstance(value, Code):
                pieces.append(value)
            else:
                value = repr(value) if conversion == "r" else str(value) if conversion == "s" else value
                pieces.append(format(value, spec or ""))
        for piece in pieces:
            if isinstance(piece, str) and spans and isinstance(spans[-1], str):
                spans[-1] += piece
            elif piece != "":
                spans.append(piece)
    return tuple(spans)


def _text(template: str, **fields: object) -> Paragraph:
    """A paragraph from a translated message (see :func:`_spans`)."""
    return Paragraph(_spans(template, **fields))


def _percent(text: str) -> str:
    r"""A probability written by :mod:`deckstat.present.format`, in the current language.

    A percentage still written the English way ("87.3%", "99.9% [99.4%, 99.98%]") is written the
    French way in French; one already in French form is left as it is.

    Examples
    --------
    >>> from deckstat.i18n import language
    >>> with language("fr"):
    ...     _percent("99.9% [99.4%, 99.98%]"), _percent("87.34% ± 0.07%"), _percent("87,3\xa0%")
    ('99,9\xa0% [99,4\xa0%\xa0; 99,98\xa0%]', '87,34\xa0% ± 0,07\xa0%', '87,3\xa0%')
    """
    if get_language() == "en" or not _ENGLISH_PERCENT.search(text):
        return text
    # The comma between an interval's ends would read as a decimal comma in French: a semicolon.
    text = re.sub(r"\[([^\[\],]*), ([^\[\],]*)\]", r"[\1; \2]", text)
    return french_typography(localise_number(text))


def _clauses(parts: Iterable[str]) -> str:
    """Clauses joined with semicolons, with French's no-break space before each in French."""
    return ("\u00a0; " if get_language() == "fr" else "; ").join(parts)


def _estimate(p: float, low: float, high: float, method: str) -> str:
    return _percent(format_estimate(p, low, high, method))


def _probability(p: float) -> str:
    return _percent(format_probability(p))


# --------------------------------------------------------------------------- the report's text

#: What the report calls its parts when it says which were simulated.
_PART_NAMES = {"hands": N_("opening hand"), "by_turn": N_("by turn"), "mulligan": N_("mulligan"),
               "ratio": N_("resource count"), "deckout": N_("deck-out"), "shield_triggers": N_("shield triggers"),
               "playability": N_("playability"), "sensitivity": N_("copies")}
#: A by-turn column: an event for one seat.
_SEAT_COLUMNS = {"first": N_("{event} (first)"), "second": N_("{event} (second)"), "both": N_("{event} (both)")}
#: A deck-out line: one seat's run-out turn.
_SEAT_DECKOUT = {"first": N_("first player: turn {median} (median; mean {mean}, earliest {earliest})"),
                 "second": N_("second player: turn {median} (median; mean {mean}, earliest {earliest})")}
#: The level of a broken construction rule, as the table of violations shows it.
_LEVELS = {"error": N_("error"), "warning": N_("warning")}


def how_computed(report: Report) -> str:
    """Which parts are simulated, each with its trials, and the seed that reproduces them."""
    parts = report.parts()
    simulated = []
    for part in report.simulated():
        provenance = parts[part].provenance
        name = tr(_PART_NAMES[part])
        if "deckout_n_trials" in provenance:  # the ratio sweep: only its deck-out turns are simulated
            simulated.append(trn("{part}: {n} deck-out race per count", "{part}: {n} deck-out races per count",
                                 provenance["deckout_n_trials"], part=name))
        else:
            trials = trial_count(parts[part]) or report.n_trials
            simulated.append(trn("{part}: {n} trial", "{part}: {n} trials", trials, part=name))
    sides = [side for side in (report.by_turn.droughts, report.by_turn.effects) if side is not None]
    if sides:
        simulated.append(trn("{part}, beside its table: {n} game", "{part}, beside its table: {n} games",
                             int(sides[0]["n_trials"].iloc[0]), part=tr(_PART_NAMES["by_turn"])))
    if report.mulligan is not None and report.mulligan.played is not None:
        simulated.append(trn("{part}, beside its table: {n} game", "{part}, beside its table: {n} games",
                             int(report.mulligan.played["n_trials"].iloc[0]), part=tr(_PART_NAMES["mulligan"])))
    if report.ratio is not None and report.ratio.played is not None:
        simulated.append(trn("{part}, beside its table: {n} game per count",
                             "{part}, beside its table: {n} games per count",
                             int(report.ratio.played["n_trials"].iloc[0]), part=tr(_PART_NAMES["ratio"])))
    if not simulated:
        return tr("Every number is exact.")
    return tr("Simulated parts ({parts}), {seed}; 95% intervals shown as ± when symmetric, else as [low, high]. "
              "The other numbers are exact.", parts=_clauses(simulated),
              seed=seed_note(report.provenance, SEED_RERUN))


def build_document(report: Report) -> Document:
    """The report as a :class:`Document` in the current language; figures named as :func:`write_report` saves them.

    Parameters
    ----------
    report : Report
        From :func:`deckstat.report`.

    Returns
    -------
    Document
    """
    profile, deck = report.profile, report.deck
    blocks: list[Block] = [
        Heading(1, f"{deck.name} — {profile.name}"),
        Paragraph((f"{trn('{n} card', '{n} cards', deck.size)}. deckstat {__version__}. {how_computed(report)}",)),
    ]
    with_effects = deck.effect_copies
    if with_effects:
        # The answers below would otherwise read as if the effects the file declares were played everywhere.
        curve = report.playability.curve if report.playability is not None else None
        if curve is not None and curve.effects is not None:
            sections = tr("the by-turn and playability sections their draws beside their tables")
        else:
            sections = tr("the by-turn section their draws beside its table")
        blocks.append(_text(trn("Card effects: {n} card of the deck has one (docs/effects.md). The deck-out section "
                                "plays their draws and mills, {sections}; the other sections leave every card effect "
                                "out.",
                                "Card effects: {n} cards of the deck have one (docs/effects.md). The deck-out "
                                "section plays their draws and mills, {sections}; the other sections leave every card "
                                "effect out.", with_effects, sections=sections)))
    blocks.append(Heading(2, tr("Is the deck legal?")))
    violations = report.validation.table
    if violations.empty:
        blocks.append(_text(tr("Yes: every construction rule of the game holds.")))
    else:
        blocks.append(_text(tr("No.") if not report.validation.legal else tr("Yes, with warnings.")))
        blocks.append(Table(
            (tr("deck"), tr("level"), tr("subject"), tr("found"), tr("allowed"), tr("rule")),
            tuple((str(v.part), tr(_LEVELS[v.level]) if v.level in _LEVELS else str(v.level), str(v.subject),
                   _cell(v.found), _cell(v.allowed), str(v.rule))
                  for v in violations.itertuples(index=False))))
    blocks += [Heading(2, tr("Opening hand")),
               Table((tr("event"), tr("kept opening hand")),
                     tuple((event, _estimate(row.p, row.ci_low, row.ci_high, row.method))
                           for event, row in zip(report.events, report.hands.table.itertuples(index=False))))]
    if report.mulligan is not None:
        summary = report.mulligan.summary.iloc[0]
        kept = _estimate(summary["p_keep_first"], summary["ci_low"], summary["ci_high"], summary["method"])
        mulligan = name_of(MULLIGAN_NAMES, summary["mulligan_rule"])
        blocks += [_text(tr("{mulligan}, keep rule {keep}: the first hand is kept {kept} of the time."),
                         mulligan=mulligan[:1].upper() + mulligan[1:], keep=Code(str(summary["keep"])), kept=kept),
                   Figure("mulligan.png", tr("Chart: probability by turn with the {mulligan} and keeping every first "
                                             "hand.", mulligan=mulligan),
                          tr("With the mulligan and keeping every first hand, by turn."))]
        line = mulligan_played_line(report.mulligan.played) if report.mulligan.played is not None else ""
        if line:
            blocks.append(Paragraph((line[:1].upper() + line[1:] + ".",)))
    if report.shield_triggers is not None:
        blocks += _shield_section(report)
    blocks += [Heading(2, tr("By turn")),
               _text(tr("Probability of holding at least one, among the kept hand and the cards drawn since (turn 0 "
                        "is the opening hand)."))]
    # Seats with the same numbers (both draw alike) are one column, as in the figure and the command line.
    by_turn = merge_alike_seats(report.by_turn.table, ["p", "ci_low", "ci_high", "method"], by=["event"])
    pivot = by_turn.assign(cell=[_estimate(r.p, r.ci_low, r.ci_high, r.method)
                                 for r in by_turn.itertuples(index=False)])
    pivot = pivot.pivot_table(index="turn", columns=["event", "seat"], values="cell", aggfunc="first", sort=False)
    header = [tr("turn")] + [tr(_SEAT_COLUMNS[s], event=e) if s in _SEAT_COLUMNS else f"{e} ({s})"
                             for e, s in pivot.columns]
    blocks += [Table(tuple(header), tuple((number(turn), *cells) for turn, *cells in
                                          pivot.reset_index().itertuples(index=False)))]
    same = same_odds_line(by_turn)
    if same:
        blocks.append(Paragraph((same[:1].upper() + same[1:] + ".",)))
    for side, line_of in ((report.by_turn.droughts, drought_line), (report.by_turn.effects, effects_line)):
        if side is not None:
            line = line_of(side)
            blocks.append(Paragraph((line[:1].upper() + line[1:] + ".",)))
    blocks += [Figure("odds.png", tr("Chart: the probabilities of the table above by turn, one line per event and "
                                     "player."),
                      tr("Probability of holding at least one, by turn."))]
    if report.playability is not None:
        blocks += _playability_section(report)
    if report.ratio is not None:
        blocks += _ratio_section(report)
    if report.sensitivity is not None:
        blocks += _sensitivity_section(report)
    blocks += _deckout_section(report)
    fitted = [part for block in blocks for part in (fit_table(block) if isinstance(block, Table) else [block])]
    return Document(title=f"{deck.name} — {profile.name}", lang=get_language(), blocks=tuple(fitted))


#: How wide a table may be, in characters of its font: the HTML page's text is 60rem wide, about 110 characters
#: of its tables' type, and a Markdown viewer's page about as wide. A wider table is split (:func:`fit_table`).
TABLE_WIDTH = 100
#: What a cell adds to its text's width (padding and border), in characters.
_CELL_PAD = 3


def column_width(header: str, cells: Sequence[str], numeric: bool) -> int:
    """The narrowest a column can be drawn, in characters: numbers do not wrap, words wrap between them.

    A text column is given at least a short line (16 characters) when its cells are that long, so that a
    card name wraps on two or three lines, not one word a line.
    """
    words = [len(word) for text in (header, *cells) for word in text.split()]
    width = max(words, default=1)
    if numeric:
        width = max(width, *(len(cell) for cell in cells)) if cells else width
    else:
        width = max(width, min(16, max((len(cell) for cell in cells), default=0)))
    return width + _CELL_PAD


def fit_table(table: Table, width: int = TABLE_WIDTH) -> list[Table]:
    """``table``, or the tables it splits into so that each fits ``width`` characters.

    As a terminal does with a table wider than itself: the columns after the first go, in their order, into as
    many tables as needed, each repeating the first column (the turn, the card, the count) so that every row
    can still be read on its own; no column is left behind a side scroller.

    Examples
    --------
    >>> wide = Table(("turn", *(f"[civilization={k}]>=1 (first)" for k in range(8))), (("0", *("87.3%",) * 8),))
    >>> [part.header[:2] for part in fit_table(wide)]
    [('turn', '[civilization=0]>=1 (first)'), ('turn', '[civilization=4]>=1 (first)')]
    """
    numeric = table.numeric
    widths = [column_width(header, [row[i] for row in table.rows], numeric[i])
              for i, header in enumerate(table.header)]
    if sum(widths) <= width or len(widths) <= 2:
        return [table]
    groups: list[list[int]] = [[]]
    used = widths[0]
    for i in range(1, len(widths)):
        if groups[-1] and used + widths[i] > width:
            groups.append([])
            used = widths[0]
        groups[-1].append(i)
        used += widths[i]
    # As many tables, with as even a share of the columns as fits: 2 and 2 rather than 3 and 1.
    rest = list(range(1, len(widths)))
    even = [list(chunk) for chunk in np.array_split(rest, len(groups))]
    if all(widths[0] + sum(widths[i] for i in chunk) <= width for chunk in even):
        groups = [[int(i) for i in chunk] for chunk in even]
    return [Table((table.header[0], *(table.header[i] for i in group)),
                  tuple((row[0], *(row[i] for i in group)) for row in table.rows)) for group in groups]


def _cell(value: object) -> str:
    """A cell of the violations table: numbers in the current language, text as it is."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and not pd.isna(value):
        return number(value)
    return "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)


def _shield_section(report: Report) -> list[Block]:
    """P(at least k shield triggers among the shields) for k = 1..3 and their expected number, in words."""
    triggers = report.shield_triggers
    shields = triggers.shields
    aside = localized(report.profile.set_aside_name) or tr("set-aside cards")
    blocks: list[Block] = [Heading(2, tr("Shield triggers"))]
    if triggers.cards == 0:
        return blocks + [_text(tr("No card of the deck is marked as a shield trigger (déclencheur de bouclier) in "
                                  "its shield_trigger column, so none of your {shields} {aside} can be one."),
                               shields=number(shields), aside=aside)]
    rows = triggers.odds.table
    one = _estimate(rows["p"].iloc[0], rows["ci_low"].iloc[0], rows["ci_high"].iloc[0], rows["method"].iloc[0])
    named = trn("{n} shield trigger (déclencheur de bouclier)", "{n} shield triggers (déclencheurs de bouclier)",
                triggers.cards)
    # A sum of exact probabilities may land just below a half (0.8749999…): round that off first.
    expected = number(round(triggers.expected, 9), 2)
    blocks.append(_text(tr("With {named} in {size} cards, at least one of your {shields} {aside} is a shield trigger "
                           "{one} of the time; on average {expected} of them are."),
                        named=named, size=number(report.deck.size), shields=number(shields), aside=aside, one=one,
                        expected=expected))
    shown = min(3, shields)
    return blocks + [Table(
        (tr("shield triggers among the {shields} {aside}", shields=number(shields), aside=aside), tr("probability")),
        tuple((tr("at least {k}", k=number(k)), _estimate(r.p, r.ci_low, r.ci_high, r.method))
              for k, r in zip(range(1, shown + 1), rows.head(shown).itertuples(index=False))))]


def _playability_section(report: Report) -> list[Block]:
    """The "Playability by turn" section: cards x turns, the mean first turn, P(not by the last turn), the figure."""
    playable, profile = report.playability, report.profile
    blocks: list[Block] = [Heading(2, tr("Playability by turn"))]
    if playable.curve is None:
        return blocks + [_text(tr("No playability curve: {reason}."), reason=render_marks(playable.error))]
    result = playable.curve
    table, summary = result.table, result.summary.set_index("target")
    kind, policy = result.provenance["play_model"], result.provenance["policy"]
    described = tr(MODELS[kind].policies[policy]) if kind in MODELS and policy in MODELS[kind].policies else ""
    last = int(table["turn"].max())
    if playable.names > len(playable.copies):
        followed = tr("the {shown} most-copied of the deck's {names} cards", shown=number(len(playable.copies)),
                      names=number(playable.names))
    else:
        followed = tr("every card of the deck")
    spans = _spans(tr("Probability that the card can be played on or before each turn, first player, for {followed} "
                      "(every printing of a name together): play model {kind}, policy {policy}"),
                   followed=followed, kind=name_of(PLAY_MODEL_NAMES, kind), policy=name_of(PLAY_POLICY_NAMES, policy))
    if described:
        # A policy's description is a sentence; inside the parentheses it loses its full stop.
        spans += (f" ({described.rstrip('.')})",)
    spans += (". ",)
    if profile.id in {p.id for p in list_profiles()}:
        spans += _spans(tr("{command} gives the model's assumptions; {curve} other cards, groups, seats and "
                           "policies."), command=Code(f"deckstat games show {profile.id}"),
                        curve=Code("deckstat curve"))
    else:
        spans += _spans(tr("The profile file's {table} table gives the model's assumptions; {curve} other cards, "
                           "groups, seats and policies."), table=Code("[play_model]"), curve=Code("deckstat curve"))
    blocks.append(Paragraph(_joined(spans)))
    if result.provenance.get("players") == 2:
        blocks.append(_text(tr("Both players' turns are played, the opponent with a copy of the deck: the Terrains "
                               "are shared ground and a drought makes both players draw.")))
    if not playable.mulligan:
        blocks.append(_text(tr("Every first hand is kept: playability curves model the bottom mulligan, not the "
                               "{mulligan}."), mulligan=name_of(MULLIGAN_NAMES, profile.mulligan)))
    for side, line_of in ((result.scoring, curve_scoring_line), (result.drought_play, drought_play_line),
                          (result.effects, curve_effects_line)):
        if side is not None:
            line = line_of(side)
            blocks.append(Paragraph((line[:1].upper() + line[1:] + ".",)))
    simulated = table[table["method"] == "simulate"]
    if not simulated.empty:
        widest = float((simulated["ci_high"] - simulated["ci_low"]).max()) / 2
        blocks.append(_text(trn("Simulated: {n} game; every 95% interval is within ±{width}.",
                                "Simulated: {n} games; every 95% interval is within ±{width}.",
                                trial_count(result) or report.n_trials, width=_probability(widest))))
    # One row per card, a few columns: the turns by which it is playable at even odds and nine times in ten; the
    # figure's panels give every turn's probability.
    reach = playable.reach.set_index(["target", "level"])
    levels = list(dict.fromkeys(playable.reach["level"]))
    header = [tr("card"), tr("copies"),
              *(tr("turn by which P ≥ {p}", p=_percent(f"{level * 100:g}%")) for level in levels),
              tr("mean first turn"), tr("P(not by turn {turn})", turn=number(last))]
    rows = []
    for target in dict.fromkeys(table["target"]):
        mean = summary.loc[target, "mean_turn"]
        copies = playable.copies.get(target)
        rows.append((str(target), "" if copies is None else number(copies),
                     *(_reach_cell(reach.loc[(target, level)]) for level in levels),
                     "–" if pd.isna(mean) else number(mean, 2), _probability(summary.loc[target, "p_never"])))
    notes = [tr("Mean first turn: among the games where the card is playable by turn {turn}.", turn=number(last))]
    if any(cell == "–" for row in rows for cell in row[2:2 + len(levels)]):
        notes.append(tr("A dash: not reached by turn {turn}.", turn=number(last)))
    if any(re.search(r"\d–\d", cell) for row in rows for cell in row[2:2 + len(levels)]):
        notes.append(tr("Two turns such as 3–4: the 95% intervals cannot tell which of them is the first."))
    return blocks + [
        Table(tuple(header), tuple(rows)),
        Paragraph((" ".join(notes),)),
        Figure("playability.png", tr("Chart: one small panel per card of the table above, in its order, each "
                                     "titled with the card's name: its probability of being playable by each turn, "
                                     "over the other cards' curves in grey."),
               tr("Probability that each card can be played on or before each turn, first player.")),
    ]


def _reach_cell(row: pd.Series) -> str:
    """The turn a card's playability reaches a level: ``3``, ``3–4``, ``9 or later`` or ``–``.

    Two turns, or "or later", when the 95% intervals cannot tell the first turn apart; a dash when the level is
    not reached by the last turn.
    """
    earliest, latest = row["earliest"], row["latest"]
    if pd.isna(earliest):
        return "–"
    if pd.isna(latest):  # the interval's top reaches the level by the last turn, its bottom does not
        return tr("{turn} or later", turn=number(int(earliest)))
    if earliest == latest:
        return number(int(earliest))
    return f"{number(int(earliest))}–{number(int(latest))}"


def _joined(spans: Iterable[Span]) -> tuple[Span, ...]:
    """``spans`` with neighbouring text joined."""
    out: list[Span] = []
    for span in spans:
        if isinstance(span, str) and out and isinstance(out[-1], str):
            out[-1] += span
        elif span != "":
            out.append(span)
    return tuple(out)


def _ratio_section(report: Report) -> list[Block]:
    """The "How many resource cards?" section: the decision, one row per count, the figure."""
    result = report.ratio
    sweep, summary = result.table, result.summary.iloc[0]
    group, flood, target_turn = summary["group"], summary["flood"], int(summary["target_turn"])
    methods = result.provenance["methods"]
    at_target = sweep[sweep["turn"] == target_turn]
    last_turn = int(sweep["turn"].max())
    last = sweep[sweep["turn"] == last_turn]
    recommended = None if pd.isna(summary["recommended"]) else int(summary["recommended"])
    blocks: list[Block] = [Heading(2, tr("How many {group} cards?", group=group)),
                           *(_text(line) for line in ratio_decision(result)), _counts_shown(report, at_target)]
    counts = []
    for k, now in zip(at_target["resource_count"], at_target["is_current"]):
        text = number(k)
        if now:
            text = tr("{count} (your deck)", count=text)
        if k == recommended:
            text = tr("{count} ◀ recommended", count=text)
        counts.append(text)
    columns = {tr("count"): counts}
    if not at_target["legal"].all():  # a column of "yes" alone says nothing
        columns[tr("legal")] = [tr("yes") if legal else tr("no: {reason}", reason=why.split(";")[0])
                                for legal, why in zip(at_target["legal"], at_target["violations"])]
    columns |= {
        tr("≥1 in opening hand"): [_probability(p) for p in at_target["p_resource_in_hand"]],
        tr("≥{flood} in opening hand (flood)", flood=number(flood)): [_probability(p)
                                                                      for p in at_target["p_flood_in_hand"]],
    }
    if "mulligan_rate" in at_target.columns:
        columns[tr("mulligan rate")] = [_probability(p) for p in at_target["mulligan_rate"]]
    if target_turn != last_turn:
        columns[tr("by turn {turn}", turn=number(last_turn))] = [_estimate(r.p, r.ci_low, r.ci_high, r.method)
                                                                 for r in last.itertuples(index=False)]
    if at_target["deckout_turn_first"].notna().any():
        simulated = methods.get("deckout_turn_first") == "simulate"
        name = tr("deck runs out (mean turn, simulated)") if simulated else tr("deck runs out (turn)")
        columns[name] = [number(t, 2) if simulated else number(t) for t in at_target["deckout_turn_first"]]
    blocks.append(Table(tuple(columns), tuple(zip(*columns.values()))))
    if result.played is not None:
        line = ratio_played_line(result.played, group)
        blocks.append(Paragraph((line[:1].upper() + line[1:] + ".",)))
    if result.provenance["added_cards"]:
        blocks.append(_text(tr("Counts above what the deck's {group} cards allow add generic cards: {cards}."),
                            group=group, cards=", ".join(result.provenance["added_cards"])))
    return blocks + [Figure("ratio.png", tr("Chart: the probability against the number of {group} cards, with the "
                                            "target.", group=group),
                            tr("Probability against the number of {group} cards.", group=group))]


#: Sentences of the ±1-copy section: the cards that move the answer most.
SENSITIVITY_SENTENCES = 3
#: A move of the ±1-copy section, as its legal versions' table names it.
_MOVES = {"-1": N_("a copy fewer"), "+1": N_("a copy more")}


def _sensitivity_section(report: Report) -> list[Block]:
    """The "What is one copy worth?" section: each card's copy fewer and copy more, its legal version."""
    result = report.sensitivity
    objective = result.objectives.iloc[0]
    command = Code(f"deckstat sensitivity --event \"{objective['target']}\" --by-turn {SENSITIVITY_TURN}")
    blocks: list[Block] = [
        Heading(2, tr("What is one copy worth?")),
        _text(tr("P({event}) by turn {turn} for the first player is {p}. Below, what one copy fewer and one copy more "
                 "of each card change, in points; ✗ marks a move that breaks a rule alone, and its legal version "
                 "keeps the deck's size ({command} gives the same numbers)."),
              event=Code(str(objective["target"])), turn=number(SENSITIVITY_TURN),
              p=_estimate(objective["p"], objective["ci_low"], objective["ci_high"], objective["method"]),
              command=command)]
    legal_rows = [{"card": move.card, "move": tr(_MOVES[move.move]),
                   "swap": ("+1 " if move.move == "-1" else "−1 ") + move.swap_card,
                   "change": format_difference(move.swap_change, move.swap_ci_low, move.swap_ci_high, move.method)}
                  for move in result.table.itertuples(index=False)
                  if not move.legal and isinstance(move.swap_card, str)]
    # Cards whose moves read alike (the Terrains of a Terrain event, say) are one row.
    merged: dict[tuple, list[str]] = {}
    for row in sensitivity_rows(result):
        merged.setdefault((number(row["count"]), row["minus"], row["plus"]), []).append(row["card"])
    blocks.append(Table((tr("card"), tr("copies"), tr("a copy fewer"), tr("a copy more")),
                        tuple((" · ".join(cards), count, minus, plus)
                              for (count, minus, plus), cards in merged.items())))
    if legal_rows:
        alike: dict[tuple, list[str]] = {}
        for row in legal_rows:
            alike.setdefault((row["move"], row["swap"], row["change"]), []).append(row["card"])
        blocks += [_text(tr("The legal version of each move marked ✗, at the deck's size:")),
                   Table((tr("card"), tr("move"), tr("with"), tr("change")),
                         tuple((" · ".join(cards), move, swap, change) for (move, swap, change), cards
                               in alike.items()))]
    # A sentence for each of the first cards whose moves change the answer differently: the others read alike.
    sentences, told = [], set()
    changes = result.table.groupby("card", sort=False)["change"].apply(lambda c: tuple(np.round(c, 9)))
    for sentence, change in zip(sensitivity_sentences(result), changes):
        if change not in told and len(sentences) < SENSITIVITY_SENTENCES:
            told.add(change)
            sentences.append(sentence)
    blocks += [Paragraph((sentence[:1].upper() + sentence[1:] + ".",)) for sentence in sentences]
    return blocks


def _counts_shown(report: Report, at_target: pd.DataFrame) -> Paragraph:
    """Which resource counts the sweep shows, and the commands that give the same numbers or the other counts."""
    counts = [int(k) for k in at_target["resource_count"]]
    command = Code(f"deckstat ratio --range {format_ranges(counts)} --target {REPORT_TARGET:g}")
    if report.illegal_counts:
        return _text(tr("Every count from {low} to {high}, legal or not; {command} gives the same numbers."),
                     low=number(min(counts)), high=number(max(counts)), command=command)
    own = at_target[at_target["is_current"].astype(bool)]
    if not own.empty and not bool(own["legal"].iloc[0]):
        template = tr("Counts that make a legal deck under the game's construction rules, and your deck's own, "
                      "which does not; {illegal} adds the illegal counts around yours, {command} gives the same "
                      "numbers.")
    else:
        template = tr("Only counts that make a legal deck under the game's construction rules; {illegal} adds the "
                      "illegal counts around yours, {command} gives the same numbers.")
    return _text(template, illegal=Code("deckstat report --illegal-counts"), command=command)


def _deckout_section(report: Report) -> list[Block]:
    """The "When does the deck run out?" section: each seat's turn, who runs out first, the model, the figure."""
    race, profile = report.deckout, report.profile
    items: list[tuple[Span, ...]] = []
    for summary in race.summary.itertuples(index=False):
        fields = {"median": number(summary.median_turn), "mean": number(summary.mean_turn, 2),
                  "earliest": number(summary.earliest_turn)}
        items.append((tr(_SEAT_DECKOUT[summary.seat], **fields),))
    if race.scoring is not None:
        items.append((scoring_line(race.scoring),))
    first = race.summary.set_index("seat").loc["first"]
    shown = _estimate(first["p_runs_out_first"], first["ci_low"], first["ci_high"], first["method"])
    items.append((tr("P(first player runs out first) = {p}", p=shown),))
    if deckout_order_line(race.provenance):
        items.append((deckout_order_line(race.provenance),))
    items.append((policy_note(race.provenance),))
    if race.provenance["mulligan_rule"] != profile.mulligan:
        items.append((tr("every first hand is kept: the deck-out model has no {mulligan}",
                         mulligan=name_of(MULLIGAN_NAMES, profile.mulligan)),))
    items.append((_clauses(race.provenance["assumptions"]),))
    return [Heading(2, tr("When does the deck run out?")), Items(tuple(items)),
            Figure("deckout.png", tr("Chart: on which turn each player's deck runs out."),
                   tr("The turn each player's deck runs out."))]


# --------------------------------------------------------------------------- Markdown

def _markdown_spans(spans: Sequence[Span]) -> str:
    """A block's spans as Markdown: code spans fenced, text escaped (the first also where a block starts)."""
    out = []
    for i, span in enumerate(spans):
        out.append(markdown_code(span.text) if isinstance(span, Code) else markdown_text(span, line_start=i == 0))
    return "".join(out)


def _markdown_cell(text: str) -> str:
    return markdown_text(text).strip(" ")


def to_markdown(document: Document) -> str:
    """The document as Markdown; each figure is an image of its PNG file, named as saved beside the page.

    Every text is escaped (:mod:`deckstat.present.markup`): a card name or an event shows as it is written,
    never as a link, emphasis, code or HTML.
    """
    lines: list[str] = []
    for block in document.blocks:
        if isinstance(block, Heading):
            lines.append(f"{'#' * block.level} {markdown_text(block.text)}")
        elif isinstance(block, Paragraph):
            lines.append(_markdown_spans(block.spans))
        elif isinstance(block, Items):
            lines.extend(f"- {_markdown_spans(item)}" for item in block.items)
        elif isinstance(block, Table):
            lines.append("| " + " | ".join(_markdown_cell(c) for c in block.header) + " |")
            lines.append("|" + "|".join("---" for _ in block.header) + "|")
            lines.extend("| " + " | ".join(_markdown_cell(c) for c in row) + " |" for row in block.rows)
        elif isinstance(block, Figure):
            lines += [f"![{markdown_text(block.alt)}]({block.name})", "", f"*{markdown_text(block.caption).strip()}*"]
        lines.append("")
    return "\n".join(lines)


# --------------------------------------------------------------------------- HTML

#: The page's style: a readable width, tables with borders, numbers aligned right, figures as wide as the text.
_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       line-height: 1.5; color: #1f2328; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .5rem; }
h2 { font-size: 1.25rem; margin-top: 2.2rem; padding-bottom: .2rem; border-bottom: 1px solid #d0d7de; }
code { font-family: ui-monospace, "Cascadia Mono", Consolas, Menlo, monospace; font-size: .9em;
       background: #f3f4f6; padding: .05em .3em; border-radius: 4px; }
.table { margin: 1rem 0; }
table { border-collapse: collapse; font-size: .93rem; font-variant-numeric: tabular-nums; max-width: 100%; }
th, td { border: 1px solid #c8ced6; padding: .3rem .6rem; text-align: left; vertical-align: top;
         overflow-wrap: break-word; }
th { background: #f3f4f6; }
.num { text-align: right; }
td.num { white-space: nowrap; }
@media (max-width: 40rem) {
  /* A phone: each row stacked as "header: value" lines, so that no column is out of sight. */
  table, tbody, tr, td { display: block; width: 100%; box-sizing: border-box; }
  thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  tr { border: 1px solid #c8ced6; border-radius: 4px; margin: 0 0 .6rem; }
  td { border: none; border-top: 1px solid #eaeef2; display: flex; justify-content: space-between; gap: 1rem;
       text-align: right; white-space: normal; }
  td:first-child { border-top: none; font-weight: 600; background: #f3f4f6; }
  td::before { content: attr(data-label); font-weight: 600; text-align: left; color: #57606a; }
}
figure { margin: 1.2rem 0; }
figure img { display: block; max-width: 100%; height: auto; }
figcaption { font-size: .9rem; color: #57606a; margin-top: .3rem; }
""".strip()


def _html_spans(spans: Sequence[Span]) -> str:
    return "".join(f"<code>{html_text(s.text)}</code>" if isinstance(s, Code) else html_text(s) for s in spans)


def _html_row(cells: Sequence[str], numeric: Sequence[bool], tag: str, labels: Sequence[str] = ()) -> str:
    """A table row; body cells carry their column's header (``data-label``), which a phone shows beside them."""
    out = []
    for i, (cell, num) in enumerate(zip(cells, numeric)):
        attributes = ' class="num"' if num else ""
        if labels:
            attributes += f' data-label="{html_attribute(labels[i])}"'
        out.append(f"<{tag}{attributes}>{html_text(cell)}</{tag}>")
    return "<tr>" + "".join(out) + "</tr>"


def to_html(document: Document, images: dict[str, bytes]) -> str:
    """The document as one HTML page, each figure's PNG inside it as a ``data:`` URI.

    Parameters
    ----------
    document : Document
    images : dict of str to bytes
        The PNG of each figure, by the figure's ``name``.

    Returns
    -------
    str
        A page that needs no other file: its style and figures are inside it.
    """
    body = []
    for block in document.blocks:
        if isinstance(block, Heading):
            body.append(f"<h{block.level}>{html_text(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            body.append(f"<p>{_html_spans(block.spans)}</p>")
        elif isinstance(block, Items):
            body.append("<ul>\n" + "\n".join(f"<li>{_html_spans(item)}</li>" for item in block.items) + "\n</ul>")
        elif isinstance(block, Table):
            numeric = block.numeric
            rows = "\n".join(_html_row(row, numeric, "td", block.header) for row in block.rows)
            body.append(f'<div class="table"><table>\n<thead>{_html_row(block.header, numeric, "th")}</thead>\n'
                        f"<tbody>\n{rows}\n</tbody>\n</table></div>")
        elif isinstance(block, Figure):
            data = base64.b64encode(images[block.name]).decode("ascii")
            body.append(f'<figure><img src="data:image/png;base64,{data}" alt="{html_attribute(block.alt)}">'
                        f"<figcaption>{html_text(block.caption)}</figcaption></figure>")
    return (f'<!DOCTYPE html>\n<html lang="{document.lang}">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html_text(document.title)}</title>\n<style>\n{_STYLE}\n</style>\n</head>\n<body>\n<main>\n"
            + "\n".join(body) + "\n</main>\n</body>\n</html>\n")


# --------------------------------------------------------------------------- writing

#: Each figure of the report, by the file name it is saved as, in the page's order: the report part it shows
#: (a :class:`Report` attribute, the name ``deckstat.report`` announces it by to ``on_part``).
FIGURE_PARTS = {"odds.png": "by_turn", "mulligan.png": "mulligan", "ratio.png": "ratio",
                "playability.png": "playability", "deckout.png": "deckout"}


def _figure_of(name: str, part: object) -> Callable[[], object] | None:
    """The call that draws figure ``name`` from its report part, or None when the part has nothing to draw."""
    from deckstat.present import plots

    if part is None:
        return None
    if name == "playability.png":
        curve = part.curve
        return None if curve is None else lambda: plots.plot_curve(curve)
    plot = {"odds.png": plots.plot_odds, "mulligan.png": plots.plot_mulligan, "ratio.png": plots.plot_ratio,
            "deckout.png": plots.plot_deckout}[name]
    return lambda: plot(part)


def _figures(report: Report) -> dict[str, Callable[[], object]]:
    """The report's figures, by the file name they are saved as, each as the call that draws it."""
    figures = {name: _figure_of(name, getattr(report, part)) for name, part in FIGURE_PARTS.items()}
    return {name: draw for name, draw in figures.items() if draw is not None}


#: The figure drawn beside the others when a second processor is free: the slowest by far (one panel per card).
_DRAWN_APART = ("playability.png",)


def _images(figures: dict[str, Callable[[], object]], drawn: dict[str, bytes] | None = None) -> dict[str, bytes]:
    """The PNG file of each figure, in the page's order; the slowest drawn in a second process when one helps.

    ``drawn``: figures already drawn (ahead, :class:`FiguresAhead`), taken as they are.
    """
    from deckstat.present import plots

    drawn = dict(drawn or {})
    left = {name: draw for name, draw in figures.items() if name not in drawn}
    apart = [name for name in _DRAWN_APART if name in left] if len(left) > 1 and _can_fork() else []
    helper = Forked(lambda: {name: plots.png_bytes(left[name]()) for name in apart}) if apart else None
    try:
        images = {name: plots.png_bytes(draw()) for name, draw in left.items() if name not in apart}
        drawn.update((helper() or {}) if helper is not None else {})
    finally:
        if helper is not None:
            helper.stop()
    # A figure the other process did not bring back is drawn here, where an error in it is raised as it is.
    return {name: drawn[name] if name in drawn else images.get(name) or plots.png_bytes(draw())
            for name, draw in figures.items()}


class FiguresAhead:
    """The report's figures drawn in copies of this process while the report computes its next parts.

    Give :meth:`part` to :func:`deckstat.report` as ``on_part``, then this object to :func:`write_report`:
    each figure is drawn, in a copy of this process (where one may be made: :func:`_can_fork`), as soon as
    the part it shows is computed, on the second processor while this one computes the next parts. The
    page takes a figure drawn ahead only for the very part object it was drawn from and in the language it
    is written in; any other figure, and any a copy failed to draw, it draws itself, the same. Use it as a
    context manager: leaving it ends the copies still running (an interrupted report leaves none behind).
    """

    def __init__(self) -> None:
        self._copies: dict[str, tuple[object, str, Forked]] = {}

    def part(self, name: str, part: object) -> None:
        """Start drawing the figures of report part ``name`` (``on_part`` of :func:`deckstat.report`)."""
        from deckstat.present import plots

        for figure, shown in FIGURE_PARTS.items():
            if shown != name or figure in self._copies:
                continue
            draw = _figure_of(figure, part)
            if draw is not None and _can_fork():
                self._copies[figure] = (part, get_language(), Forked(lambda draw=draw: plots.png_bytes(draw())))

    def take(self, report: Report) -> dict[str, bytes]:
        """The figures drawn ahead for ``report``'s own parts, in the current language; the copies then end."""
        drawn = {}
        try:
            for figure, (part, lang, copy) in self._copies.items():
                if part is getattr(report, FIGURE_PARTS[figure]) and lang == get_language():
                    data = copy()
                    if isinstance(data, bytes):
                        drawn[figure] = data
        finally:
            self.close()
        return drawn

    def close(self) -> None:
        """End every copy still running."""
        copies, self._copies = self._copies, {}
        for _, _, copy in copies.values():
            copy.stop()

    def __enter__(self) -> FiguresAhead:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _can_fork() -> bool:
    """Whether a copy of this process may draw beside it: forkable, no window open, a second processor.

    See :func:`~deckstat._fork.forkable`. A window toolkit already started may refuse to run in a copy; on one
    processor the copy would only take turns with this process.
    """
    from deckstat.present.plots.visuals import no_window_backend

    return work_beside() and no_window_backend()


#: The files a report writes: the pages and every figure :func:`_plots` may draw.
REPORT_FILES = frozenset({"report.md", "report.html", "odds.png", "mulligan.png", "ratio.png", "playability.png",
                          "deckout.png"})


def write_report(report: Report, out: str | Path, *, fmt: str = "markdown", ahead: FiguresAhead | None = None
                 ) -> Path:
    """Write ``report`` into the folder ``out`` (created if needed), in the current language; return the page's path.

    Parameters
    ----------
    report : Report
        From :func:`deckstat.report`.
    out : str or Path
        Folder to write into.
    fmt : {"markdown", "html"}
        ``"markdown"`` writes ``report.md`` and its figures as PNG files beside it; ``"html"`` writes one
        ``report.html`` that holds its figures and style, to open in a browser or send as it is.
    ahead : FiguresAhead, optional
        The figures drawn while the report was computed (its ``on_part``); the same files as drawn here.

    Returns
    -------
    Path
        ``out/report.md`` or ``out/report.html``.

    Notes
    -----
    A new folder, or one that holds only a report's files, is built beside ``out`` and swapped in: it
    then holds this report alone, and an interrupted run leaves the old report (or no folder), never
    a mix. In a folder that holds other files too, or the working folder (``out="."``), those are left alone and each of
    the report's files is replaced on its own, figures first and the page last.
    """
    check_choice(fmt, "fmt", REPORT_FORMATS)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise DeckstatError(tr("exists and is not a folder"), source=str(out))
    document = build_document(report)
    # Drawn before the folder is touched: an error leaves the old report.
    images = _images(_figures(report), ahead.take(report) if ahead is not None else None)
    page = out / ("report.md" if fmt == "markdown" else "report.html")
    here = Path.cwd().resolve()
    # Swapping renames in the parent folder; a folder that holds more than a report, or the working folder, stays.
    swap = os.access(out.absolute().parent, os.W_OK | os.X_OK) and (
        not out.exists() or (out.resolve() != here and out.resolve() not in here.parents
                             and all(child.name in REPORT_FILES for child in out.iterdir())))
    if swap:
        with replace_folder(out) as build:
            _write_files(document, images, build, fmt)
    else:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise write_error(error, out) from None
        _write_files(document, images, out, fmt)
    return page


def _write_files(document: Document, images: dict[str, bytes], folder: Path, fmt: str) -> None:
    """Write the page and its figures into the existing ``folder``, each file atomically, the page last."""
    if fmt == "markdown":
        for name, data in images.items():
            atomic_write_bytes(folder / name, data)
        page, text = folder / "report.md", to_markdown(document)
    else:
        page, text = folder / "report.html", to_html(document, images)
    atomic_write_bytes(page, text.encode("utf-8"))
