"""What the report shows and how it is laid out: the resource-count sweep over legal decks by default, tables that
fit the page (split as a terminal would, stacked on a phone), every body cell labelled with its column."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from helpers import ok, run, sample_deck
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from test_report_pages import Page

import deckstat
from deckstat.i18n import language
from deckstat.present.report import TABLE_WIDTH, Table, build_document, column_width, fit_table, to_html, to_markdown
from deckstat.questions.ratio import legal_counts

PNG = b"\x89PNG\r\n\x1a\n" + b"\0\0\0\rIHDR\0\0\4\0\0\0\3\0"


@pytest.fixture(scope="module")
def wankul():
    return deckstat.load_deck(sample_deck("wankul"))


@pytest.fixture(scope="module")
def reports(wankul):
    illegal = deckstat.load_deck(sample_deck("wankul", "illegal_deck.csv"))
    return {"default": deckstat.report(wankul, "wankul", n_trials=1000, rng=7),
            "illegal counts": deckstat.report(wankul, "wankul", n_trials=1000, rng=7, illegal_counts=True),
            "illegal deck": deckstat.report(illegal, "wankul", n_trials=1000, rng=7)}


def markdown_of(report, lang="en") -> str:
    with language(lang):
        return to_markdown(build_document(report))


def ratio_section(text: str) -> str:
    return text.split("## How many Terrain cards?")[1].split("\n## ")[0]


# --------------------------------------------------------------------------- the resource-count sweep

def test_the_sweep_shows_legal_counts_only(reports, wankul):
    sweep = reports["default"].ratio
    # Wankul: at least one Terrain per 5 cards (rules text 000), so 10 in the sample's 50 cards; the 11 legal
    # counts nearest the deck's own 10.
    assert sorted(set(sweep.table["resource_count"])) == list(range(10, 21))
    assert sweep.table["legal"].all()
    assert legal_counts(wankul, "wankul") == (10, list(range(10, 21)))
    # The numbers are those of `deckstat ratio --range 10-20 --target 0.95` with the same seed and trials.
    alone = deckstat.ratio(wankul, "wankul", counts=range(10, 21), turns=range(6), target=0.95, n_trials=1000, rng=7)
    pd.testing.assert_frame_equal(sweep.table, alone.table)
    text = ratio_section(markdown_of(reports["default"]))
    assert "Only counts that make a legal deck under the game's construction rules" in text
    assert "`deckstat ratio --range 10-20 --target 0.95` gives the same numbers" in text
    assert "`deckstat report --illegal-counts`" in text
    header = text.split("\n| ")[1]
    assert "legal" not in header and "illegal" not in text.split("![")[1].split("](")[0].lower()


def test_illegal_counts_are_shown_when_asked_and_marked(reports):
    sweep = reports["illegal counts"].ratio
    at_hand = sweep.table[sweep.table["turn"] == 0]
    assert list(at_hand["resource_count"]) == list(range(5, 16))  # the deck's own 10 ± 5, as `deckstat ratio`
    assert list(at_hand["legal"]) == [False] * 5 + [True] * 6
    text = ratio_section(markdown_of(reports["illegal counts"]))
    assert "Every count from 5 to 15, legal or not; `deckstat ratio --range 5-15 --target 0.95`" in text
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| count | legal |")
    assert rows[1].startswith("| 5 | no: Terrain: 5 in 50 cards, allowed at least 10")
    french = markdown_of(reports["illegal counts"], "fr").split("## Combien de cartes Terrain")[1]
    assert "Tous les nombres de 5 à 15, légaux ou non\u00a0;" in french and "| 5 | non\u00a0: " in french


def test_an_illegal_deck_keeps_its_own_count_marked(reports):
    sweep = reports["illegal deck"].ratio
    at_hand = sweep.table[sweep.table["turn"] == 0].set_index("resource_count")
    # 8 Terrains (and a card over the copy limit): its own count, illegal, then the legal rebuilt decks.
    assert list(at_hand.index) == [8, 10, 11, 12] and not at_hand.loc[8, "legal"] and at_hand.loc[10:, "legal"].all()
    assert at_hand.loc[8, "is_current"]
    text = ratio_section(markdown_of(reports["illegal deck"]))
    assert "and your deck's own, which does not" in text
    assert "| 8 (your deck) | no: " in text


def test_illegal_counts_must_be_a_flag(wankul):
    with pytest.raises(deckstat.DeckstatError, match="illegal_counts must be True or False"):
        deckstat.report(wankul, "wankul", illegal_counts="yes")


def test_the_command_line_flag(tmp_path):
    ok(run("report", sample_deck("wankul"), "--game", "wankul", "--trials", "500", "--seed", "1", "--out", tmp_path,
           "--illegal-counts", "--lang", "fr"))
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "Tous les nombres de 5 à 15, légaux ou non" in text and "| 5 | non\u00a0: Terrain" in text


# --------------------------------------------------------------------------- tables that fit

CELLS = st.lists(st.sampled_from(list("abcdefghij ") + ["87,3\u00a0%", "Terrain>=1", "[civilization=Feu]"]),
                 max_size=12).map("".join)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 14), st.integers(1, 4), st.data())
def test_a_wide_table_splits_into_tables_that_fit_and_keep_every_cell(n_columns, n_rows, data):
    header = tuple(data.draw(CELLS) for _ in range(n_columns))
    rows = tuple(tuple(data.draw(CELLS) for _ in range(n_columns)) for _ in range(n_rows))
    table = Table(header, rows)
    parts = fit_table(table)
    # Every part starts with the first column, then takes the next columns in order: together, the whole table.
    assert all(part.header[0] == header[0] and [row[0] for row in part.rows] == [row[0] for row in rows]
               for part in parts)
    assert [h for part in parts for h in part.header[1:]] == list(header[1:])
    for i in range(n_rows):
        assert [c for part in parts for c in part.rows[i][1:]] == list(rows[i][1:])
    numeric = table.numeric
    for part in parts:
        widths = [column_width(h, [row[i] for row in part.rows], part.numeric[i]) for i, h in enumerate(part.header)]
        # A part is over the width only when it holds a single column besides the first, too wide on its own.
        assert sum(widths) <= TABLE_WIDTH or len(part.header) <= 2, widths
    if len(parts) == 1:
        assert parts[0] is table and numeric == parts[0].numeric


@pytest.mark.parametrize("game", ["wankul", "duel-masters", "jdg", "licum", "pandrea"])
def test_every_table_of_every_sample_report_fits(game):
    report = deckstat.report(deckstat.load_deck(sample_deck(game)), game, n_trials=500, rng=3)
    for lang in ("en", "fr"):
        with language(lang):
            document = build_document(report)
        for block in document.blocks:
            if isinstance(block, Table):
                widths = [column_width(h, [row[i] for row in block.rows], block.numeric[i])
                          for i, h in enumerate(block.header)]
                assert sum(widths) <= TABLE_WIDTH, (game, lang, block.header, widths)


def test_a_deck_of_many_civilizations_gets_its_by_turn_table_split():
    deck = deckstat.Deck.from_table([{"name": f"Carte {civ}", "count": 8, "type": "Créature", "civilization": civ,
                                      "cost": 2} for civ in ("Feu", "Eau", "Nature", "Lumière", "Ténèbres")])
    report = deckstat.report(deck, "duel-masters", n_trials=500, rng=2)
    document = build_document(report)
    by_turn = [block for block in document.blocks if isinstance(block, Table) and block.header[0] == "turn"]
    assert len(by_turn) >= 2
    headers = [h for block in by_turn for h in block.header[1:]]
    table = report.by_turn.table
    assert len(headers) == len(set(headers)) == len(set(zip(table["event"], table["seat"]))) == 10
    # Markdown and HTML hold the same split tables.
    markdown = to_markdown(document)
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    assert sum(token.type == "table_open" for token in tokens) == sum(isinstance(b, Table) for b in document.blocks)


# --------------------------------------------------------------------------- HTML on a wide page and a phone

def test_html_cells_carry_their_header_and_the_page_stacks_tables_on_a_phone(reports):
    with language("fr"):
        document = build_document(reports["default"])
    images = {figure.name: PNG for figure in document.figures()}
    text = to_html(document, images)
    page = Page(text)
    labelled = 0
    for tag, attributes in page.starts:
        if tag == "td":
            labelled += 1
            assert attributes.get("data-label")
    body_cells = sum(len(row) for table in page.tables for row in table["body"])
    assert labelled == body_cells
    # Each cell's label is its column's header.
    cells = iter(attributes["data-label"] for tag, attributes in page.starts if tag == "td")
    for table in page.tables:
        for row in table["body"]:
            assert [next(cells) for _ in row] == table["head"][0]
    style = text.split("<style>")[1].split("</style>")[0]
    assert "overflow-x" not in style  # nothing hidden behind a side scroller
    phone = re.search(r"@media \(max-width: 40rem\) \{(.*)\n\}", style, re.S).group(1)
    assert "display: block" in phone and "content: attr(data-label)" in phone


# --------------------------------------------------------------------------- what one copy is worth

def test_the_copies_section_is_the_sensitivity_command(reports, wankul):
    report = reports["default"]
    alone = deckstat.sensitivity(wankul, "wankul", event="Terrain>=1", by_turn=2, seat="first", method="exact")
    pd.testing.assert_frame_equal(report.sensitivity.table, alone.table)
    for lang, heading, command in (("en", "## What is one copy worth?", "`deckstat sensitivity --event"),
                                   ("fr", "## Que vaut un exemplaire\u00a0?", "`deckstat sensitivity --event")):
        text = markdown_of(report, lang).split(heading)[1].split("\n## ")[0]
        assert command in text
        # Cards whose moves read alike share a row: every card is in the table once.
        rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
        # A table too wide is split in two, each part with its header row.
        named = [name for line in rows for name in line.split(" | ")[0][2:].split(" · ")
                 if name not in ("card", "carte")]
        assert sorted(set(named)) == sorted(alone.table["card"].unique())
    # The deck that breaks a rule gets the moves, never a legal version of them.
    illegal = reports["illegal deck"].sensitivity
    assert illegal is not None and illegal.table["swap_card"].isna().all()
