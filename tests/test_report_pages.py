"""The report as a page: English and French, Markdown with its figures beside it, and one self-contained HTML file
whose structure a browser reads (headings, lists, tables, figures embedded as data: URIs)."""

from __future__ import annotations

import base64
import re
import struct
from html.parser import HTMLParser

import pytest
from helpers import ok, run, sample_deck
from markdown_it import MarkdownIt
from scipy.stats import hypergeom

import deckstat
from deckstat.i18n import language
from deckstat.present.report import (
    Code,
    Document,
    Figure,
    Heading,
    Items,
    Paragraph,
    Table,
    to_html,
    to_markdown,
    write_report,
)

NBSP = "\u00a0"
#: Elements that have no end tag.
VOID = {"meta", "img", "br", "hr", "link", "input", "source", "wbr"}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Page(HTMLParser):
    """What a browser would build from an HTML page: the nesting checked, text nodes, tables, images, links."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []
        self.texts: list[tuple[tuple[str, ...], str]] = []
        self.starts: list[tuple[str, dict]] = []
        self.tables: list[dict] = []
        self.doctype = None
        self.feed(text)
        self.close()
        if self.stack:
            self.problems.append(f"unclosed {self.stack}")

    def handle_decl(self, decl):
        self.doctype = decl

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.starts.append((tag, attributes))
        if tag == "table":
            self.tables.append({"head": [], "body": [], "classes": []})
        elif tag == "tr" and self.tables:
            section = "head" if "thead" in self.stack else "body"
            self.tables[-1][section].append([])
        elif tag in ("td", "th") and self.tables:
            self.tables[-1]["head" if "thead" in self.stack else "body"][-1].append("")
            self.tables[-1]["classes"].append(attributes.get("class"))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.starts.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()

    def handle_data(self, data):
        if not data.strip():
            return
        self.texts.append((tuple(self.stack), data))
        if self.tables and self.stack and self.stack[-1] in ("td", "th"):
            rows = self.tables[-1]["head" if "thead" in self.stack else "body"]
            rows[-1][-1] += data

    def text_nodes(self) -> list[str]:
        """Every text node a reader sees (not the style sheet)."""
        return [text for stack, text in self.texts if "style" not in stack]

    def first(self, tag: str) -> str:
        """The text of the first ``tag`` element."""
        return next(text for stack, text in self.texts if stack and stack[-1] == tag)

    def all(self, tag: str) -> list[str]:
        return [text for stack, text in self.texts if stack and stack[-1] == tag]

    def images(self) -> list[dict]:
        return [attributes for tag, attributes in self.starts if tag == "img"]


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG, from its header."""
    assert data[:8] == PNG_SIGNATURE
    return struct.unpack(">II", data[16:24])


def check_page(text: str, lang: str) -> Page:
    """Everything that makes the page read right in a browser, on its own."""
    page = Page(text)
    assert page.doctype and page.doctype.lower() == "doctype html"
    assert not page.problems, page.problems
    html_tag = [attributes for tag, attributes in page.starts if tag == "html"]
    assert html_tag == [{"lang": lang}]
    assert ("meta", {"charset": "utf-8"}) in page.starts
    tags = {tag for tag, _ in page.starts}
    assert {"h1", "h2", "p", "ul", "li", "table", "thead", "tbody", "th", "td", "figure", "figcaption", "img", "code",
            "style", "title"} <= tags
    # Nothing of Markdown left over in what a reader sees.
    for node in page.text_nodes():
        assert "`" not in node and "**" not in node and "![" not in node and "|---" not in node, node
        assert not re.match(r"\s*(- |#+ |\| )", node), node
    # Self-contained: the figures are inside the page, nothing else is fetched.
    images = page.images()
    assert images
    for image in images:
        assert image["alt"].strip()
        assert image["src"].startswith("data:image/png;base64,")
        width, height = png_size(base64.b64decode(image["src"].split(",", 1)[1], validate=True))
        assert width > 300 and height > 200
    for tag, attributes in page.starts:
        for name in ("src", "href", "srcset", "data", "poster"):
            value = attributes.get(name)
            assert value is None or value.startswith("data:"), (tag, name, value)
    assert "url(" not in text and "@import" not in text
    # Every figure is captioned, every table has a header row and body rows of the same width.
    assert len(page.all("figcaption")) == len(images)
    for table in page.tables:
        assert len(table["head"]) == 1 and table["body"]
        assert all(len(row) == len(table["head"][0]) for row in table["body"])
    return page


def markdown_tables(text: str) -> list[list[list[str]]]:
    """The Markdown page's tables as a Markdown reader shows them (markdown-it-py), each a list of rows of cells."""
    tables: list[list[list[str]]] = []
    in_cell = False
    for token in MarkdownIt("commonmark").enable("table").parse(text):
        if token.type == "table_open":
            tables.append([])
        elif token.type == "tr_open":
            tables[-1].append([])
        in_cell = token.type in ("th_open", "td_open") or (in_cell and token.type == "inline")
        if in_cell and token.type == "inline":
            tables[-1][-1].append("".join(child.content for child in token.children
                                          if child.type in ("text", "code_inline")))
    return tables


def html_tables(page: Page) -> list[list[list[str]]]:
    return [[*table["head"], *table["body"]] for table in page.tables]


def numbers(cells: list[str], lang: str) -> list[float]:
    """The numbers of some cells written in ``lang`` ("87.3%", "1,234" in English; "87,3 %", "1 234" in French)."""
    found = []
    for cell in cells:
        for token in re.findall(r"\d(?:[\d\u00a0.,]*\d)?", cell):
            if lang == "fr":
                token = token.replace(NBSP, "").replace(",", ".")
            else:
                token = token.replace(",", "")
            found.append(float(token))
    return found


# --------------------------------------------------------------------------- pages of the sample decks

@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Each sample deck's report (Wankul simulated, Duel Masters exact) in both languages and both formats."""
    out = {}
    reports = {"wankul": deckstat.report(deckstat.load_deck(sample_deck("wankul")), "wankul", n_trials=1000, rng=7),
               "duel-masters": deckstat.report(deckstat.load_deck(sample_deck("duel-masters")), "duel-masters",
                                               rng=7)}
    for game, report in reports.items():
        for lang in ("en", "fr"):
            for fmt in ("markdown", "html"):
                folder = tmp_path_factory.mktemp(f"{game}-{lang}-{fmt}")
                with language(lang):
                    path = write_report(report, folder, fmt=fmt)
                out[game, lang, fmt] = path
    return out


@pytest.mark.parametrize("game", ["wankul", "duel-masters"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_html_page_is_whole_and_well_formed(pages, game, lang):
    path = pages[game, lang, "html"]
    page = check_page(path.read_text(encoding="utf-8"), lang)
    # One file: no figure written beside it.
    assert [p.name for p in path.parent.iterdir()] == ["report.html"]
    assert page.first("title") == page.first("h1")
    headings = page.all("h2")
    if lang == "en":
        assert headings[0] == "Is the deck legal?" and "When does the deck run out?" in headings
    else:
        assert headings[0] == f"Le deck est-il légal{NBSP}?" and f"Quand le deck est-il vide{NBSP}?" in headings


@pytest.mark.parametrize("game", ["wankul", "duel-masters"])
def test_markdown_keeps_its_figures_beside_it(pages, game):
    for lang in ("en", "fr"):
        path = pages[game, lang, "markdown"]
        text = path.read_text(encoding="utf-8")
        shown = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", text)
        assert shown and sorted(shown) == sorted(p.name for p in path.parent.glob("*.png"))
        for name in shown:
            assert png_size((path.parent / name).read_bytes())[0] > 300


@pytest.mark.parametrize("game", ["wankul", "duel-masters"])
def test_both_formats_and_both_languages_show_the_same_numbers(pages, game):
    tables = {(lang, fmt): (markdown_tables(pages[game, lang, fmt].read_text(encoding="utf-8")) if fmt == "markdown"
                            else html_tables(Page(pages[game, lang, fmt].read_text(encoding="utf-8"))))
              for lang in ("en", "fr") for fmt in ("markdown", "html")}
    # Markdown and HTML are written from one document: the same cells.
    assert tables["en", "markdown"] == tables["en", "html"]
    assert tables["fr", "markdown"] == tables["fr", "html"]
    english, french = tables["en", "html"], tables["fr", "html"]
    assert len(english) == len(french) >= 3
    for table_en, table_fr in zip(english, french):
        assert len(table_en) == len(table_fr)
        for row_en, row_fr in zip(table_en[1:], table_fr[1:]):
            assert numbers(row_en, "en") == numbers(row_fr, "fr"), (row_en, row_fr)


def test_french_numbers_and_words_in_the_french_tables(pages):
    page = Page(pages["wankul", "fr", "html"].read_text(encoding="utf-8"))
    cells = [cell for table in page.tables for row in table["body"] for cell in row]
    percents = [cell for cell in cells if "%" in cell]
    assert percents and all(f"{NBSP}%" in cell and not re.search(r"\d%", cell) for cell in percents)
    assert not any(re.search(r"\d\.\d", cell) for cell in cells)  # decimal commas only
    assert any(re.fullmatch(r"\d+,\d %", cell.replace(NBSP, " ")) for cell in percents)
    headers = [cell for table in page.tables for cell in table["head"][0]]
    assert {"événement", "main de départ gardée", "tour", "carte", "exemplaires", "nombre"} <= set(headers)
    # Both Wankul players draw alike: one column for both (docs/report.md).
    assert "Terrain>=1 (les deux joueurs)" in headers and f"tour où P ≥ 50{NBSP}%" in headers
    assert "légal" not in headers  # every count shown is legal: no column of "oui"
    assert any(cell.startswith("12 ◀ recommandé") for cell in cells) and "10 (votre deck)" in cells
    texts = " ".join(page.text_nodes())
    assert "Mulligan sous le deck, règle de garde " in texts and "des cas." in texts
    assert f"Graphique{NBSP}:" in " ".join(image["alt"] for image in page.images())


def test_shield_triggers_in_french_are_hypergeometric(pages):
    page = Page(pages["duel-masters", "fr", "html"].read_text(encoding="utf-8"))
    paragraph = next(text for text in page.all("p") if text.startswith("Avec "))
    shields = hypergeom(40, 8, 5)  # the sample deck's 8 shield triggers among 40 cards, 5 shields
    share = f"{shields.sf(0) * 100:.1f}".replace(".", ",")
    assert paragraph.startswith("Avec 8 déclencheurs de bouclier sur 40 cartes, au moins un de vos 5 ")
    assert f"dans {share}{NBSP}% des cas{NBSP}; en moyenne, 1,00 le sont." in paragraph  # 5 * 8 / 40 = 1
    table = next(t for t in page.tables if t["head"][0][0].startswith("déclencheurs parmi les 5"))
    assert [row[0] for row in table["body"]] == ["au moins 1", "au moins 2", "au moins 3"]
    assert numbers([row[1] for row in table["body"]], "fr") == [round(shields.sf(k - 1) * 100, 1) for k in (1, 2, 3)]


def test_the_report_command_writes_french_html(tmp_path):
    ok(run("report", sample_deck("duel-masters"), "--game", "duel-masters", "--out", tmp_path, "--html",
           "--lang", "fr"))
    page = check_page((tmp_path / "report.html").read_text(encoding="utf-8"), "fr")
    assert page.first("h2") == f"Le deck est-il légal{NBSP}?"


# --------------------------------------------------------------------------- the document model and its two writers

TRICKY = "<b>Épée</b> & \"Œil\" d'*Or* | `x`"

DOCUMENT = Document(title=f"Deck {TRICKY}", lang="fr", blocks=(
    Heading(1, f"Deck {TRICKY}"),
    Paragraph(("Voir ", Code("deckstat games show wankul"), f" pour {TRICKY}.")),
    Items((("un",), ("deux ", Code("a`b")))),
    Table(("carte", "exemplaires", "tour 1"), ((TRICKY, "3", f"12,5{NBSP}%"), ("7 Nains", "2", "–"))),
    Figure("odds.png", f"Graphique : {TRICKY}", f"Légende {TRICKY}"),
))


def test_html_escapes_card_names_in_text_and_attributes():
    text = to_html(DOCUMENT, {"odds.png": PNG_SIGNATURE + b"\0\0\0\rIHDR\0\0\4\0\0\0\3\0"})
    page = Page(text)
    assert not page.problems and "b" not in {tag for tag, _ in page.starts}
    assert page.first("h1") == f"Deck {TRICKY}" and page.first("title") == f"Deck {TRICKY}"
    assert page.images()[0]["alt"] == f"Graphique : {TRICKY}"
    assert page.all("code") == ["deckstat games show wankul", "a`b"]
    assert page.all("li") == ["un", "deux "]
    table = page.tables[0]
    assert table["body"] == [[TRICKY, "3", f"12,5{NBSP}%"], ["7 Nains", "2", "–"]]
    # The columns of numbers are aligned right, the card names left (a name starting with a digit too).
    assert table["classes"] == [None, "num", "num", None, "num", "num", None, "num", "num"]
    assert '<html lang="fr">' in text


def test_markdown_shows_card_names_as_they_are():
    text = to_markdown(DOCUMENT)
    lines = text.splitlines()
    assert lines[0] == r"# Deck \<b>Épée\</b> & " + "\"Œil\" d'\\*Or\\* \\| \\`x\\`"
    assert "Voir `deckstat games show wankul` pour" in text and "deux ``a`b``" in text
    assert lines[lines.index("| carte | exemplaires | tour 1 |") + 2].startswith(
        "| \\<b>Épée\\</b> & \"Œil\" d'\\*Or\\* \\| \\`x\\` | 3 |")
    assert "![Graphique : \\<b>Épée\\</b>" in text and "](odds.png)" in text and "*Légende " in text


def test_seats_with_the_same_odds_are_one_column_and_the_deckout_order_is_explained(pages):
    wankul = pages["wankul", "en", "markdown"].read_text(encoding="utf-8")
    # Wankul: both players draw on their first turn, so their by-turn odds are the same numbers.
    assert "| turn | Terrain>=1 (both) |" in wankul and "same odds: here the first and the second" in wankul.lower()
    assert "by the rules, the first player runs out first in every game" in wankul
    # Duel Masters: the first player does not draw on turn 1, so the seats differ and keep a column each.
    duel = pages["duel-masters", "en", "markdown"].read_text(encoding="utf-8")
    assert "(first) |" in duel and "(second) |" in duel and "same odds" not in duel.lower()


def test_the_french_report_names_rules_models_and_policies_in_french(pages):
    page = Page(pages["wankul", "fr", "html"].read_text(encoding="utf-8"))
    texts = " ".join(page.text_nodes())
    assert "mulligan sous le deck" in texts.lower() and "stratégie garder" in texts
    # Identifiers of rules, models and policies are English words; none is left in the sentences the page writes.
    assert not {"bottom", "hold", "discard", "on_draw"} & set(re.findall(r"[A-Za-z_]+", texts))
