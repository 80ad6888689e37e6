"""Any name a player writes shows as its own characters in the report's Markdown and HTML and in figures: never a
link, emphasis, code, live HTML or mathematics. The pages are read back with real parsers (markdown-it-py for
CommonMark with GitHub's tables and strikethrough, html.parser for HTML, matplotlib's own text layout)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from markdown_it import MarkdownIt  # noqa: E402

from deckstat.present.markup import figure_text, html_attribute, html_text, markdown_code, markdown_text  # noqa: E402
from deckstat.present.report import (  # noqa: E402
    Code,
    Document,
    Figure,
    Heading,
    Items,
    Paragraph,
    Table,
    to_html,
    to_markdown,
)

#: Characters that mean something to Markdown, HTML or mathtext, mixed with letters, digits and spaces.
ALPHABET = st.sampled_from(list("`*_[]()<>!|~$&#@:;/\\.-+=\"'{}^%\n\t ") + list("aZé1 ") + ["\u00a0", "www.", "://",
                                                                                        "&amp;", "<script>", "1. "])
NAMES = st.lists(ALPHABET, max_size=14).map("".join)
#: Names that a loader would hand over: written with something to show.
SHOWN = NAMES.filter(lambda name: name.strip())
PNG = b"\x89PNG\r\n\x1a\n" + b"\0\0\0\rIHDR\0\0\4\0\0\0\3\0"


def shown(text: str) -> str:
    """What a reader sees of ``text``: whitespace runs (not a no-break space) as one space, whitespace ends trimmed."""
    return re.sub(r"[ \t\n\r\f\v]+", " ", text).strip()


# --------------------------------------------------------------------------- Markdown, read by markdown-it-py

PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"])
#: Inline tokens a name may become: text and the code span it was put in, nothing else.
PLAIN = {"text", "code_inline", "softbreak"}


def inline_text(tokens) -> tuple[str, set[str]]:
    """The text of inline tokens and the kinds of the other tokens among them."""
    text, kinds = "", set()
    for token in tokens:
        if token.type in ("text", "code_inline"):
            text += token.content
        elif token.type == "softbreak":
            text += " "
        else:
            kinds.add(token.type)
    return text, kinds


def blocks_of(markdown: str) -> list[tuple[str, str, set[str]]]:
    """Each inline run of the page: the block it is in, its text, and the other inline tokens it holds."""
    found, block = [], None
    for token in PARSER.parse(markdown):
        if token.type.endswith("_open"):
            block = token.type[:-5]
        if token.type in ("html_block", "code_block", "fence", "hr", "blockquote_open"):
            found.append((token.type, token.content, {token.type}))
        if token.type == "inline":
            text, kinds = inline_text(token.children)
            images = [child for child in token.children if child.type == "image"]
            for image in images:
                alt, alt_kinds = inline_text(image.children)
                found.append(("image", alt, alt_kinds))
            found.append((block, text, kinds - {"image"}))
    return found


@settings(max_examples=300, deadline=None)
@given(SHOWN)
@example("`code` and ``more``")
@example("<script>alert(1)</script>")
@example("[text](https://example.org)")
@example("_x_ *y* **z** a | b")
@example("$x$ line\nbreak 1. first")
@example("1. first")
@example("> quote")
@example("- item")
@example("# title")
@example("&amp; &#35; ~~gone~~ x@example.org ![i](x.png)")
@example("---")
@example("`")
@example(" a ")
def test_markdown_writes_every_name_as_text(name):
    document = Document(title=name, lang="en", blocks=(
        Heading(1, name),
        Paragraph((name,)),
        Paragraph(("see ", Code(name), " and ", name)),
        Items(((name,), (Code(name), " ", name))),
        Table((name, "n"), ((name, "1"),)),
        Figure("odds.png", name, name),
    ))
    blocks = blocks_of(to_markdown(document))
    expected = shown(name)
    # No block of the page comes from the name: one heading, paragraphs, a list, a table, an image.
    assert [kind for kind, _, kinds in blocks if kind in ("html_block", "code_block", "fence", "hr",
                                                           "blockquote_open")] == []
    for kind, text, kinds in blocks:
        assert kinds <= ({"em_open", "em_close"} if kind == "paragraph" and text == expected else set()), \
            (kind, text, kinds)
    texts = [shown(text) for _, text, _ in blocks]
    assert texts.count(expected) >= 7, texts  # heading, paragraph, list item, table cells, image alt, caption
    assert shown(f"see {name} and {name}") in texts and shown(f"{name} {name}") in texts, texts


# --------------------------------------------------------------------------- HTML, read by html.parser

class Reader(HTMLParser):
    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: list[dict] = []
        self.texts: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes.append(dict(attrs))

    def handle_data(self, data):
        self.texts.append(data)


@settings(max_examples=200, deadline=None)
@given(NAMES)
@example("<script>alert(1)</script>")
@example('"><img src=x onerror=alert(1)>')
@example("&amp; &lt;")
def test_html_writes_every_name_as_text(name):
    body = f'<p title="{html_attribute(name)}">{html_text(name)}</p>'
    reader = Reader(body)
    assert reader.tags == ["p"] and reader.attributes == [{"title": name}]
    assert "".join(reader.texts) == name


@settings(max_examples=50, deadline=None)
@given(SHOWN)
@example("<b>x</b> & \"q\" 'a'")
def test_the_html_report_writes_every_name_as_text(name):
    document = Document(title=name, lang="en", blocks=(
        Heading(1, name), Paragraph((name, Code(name))), Items(((name,),)), Table((name,), ((name,),)),
        Figure("odds.png", name, name)))
    reader = Reader(to_html(document, {"odds.png": PNG}))
    assert not {"script", "b", "a", "em", "strong"} & set(reader.tags)
    assert {"alt": name} == {key: value for key, value in reader.attributes[reader.tags.index("img")].items()
                             if key == "alt"}
    assert reader.texts.count(name) >= 7  # title, heading, paragraph, code, item, header and body cells, caption


# --------------------------------------------------------------------------- figures, laid out by matplotlib

@settings(max_examples=100, deadline=None)
@given(NAMES)
@example("$x$")
@example("\\$")
@example("$a$ $b$ \\alpha")
def test_figure_text_shows_every_name_as_written(name):
    figure = plt.figure()
    try:
        text = figure.text(0, 0, figure_text(name))
        # What matplotlib lays out: the string and whether it is mathematics.
        laid_out, math = text._preprocess_math(text.get_text())
        assert math is False and laid_out == name
    finally:
        plt.close(figure)


def test_markdown_helpers_examples():
    assert markdown_text("Terrain>=1") == "Terrain>=1"  # events stay readable in the page's source
    assert markdown_code("a ``b`` c") == "```a ``b`` c```"


def test_names_in_figures_are_never_mathtext():
    import deckstat
    from deckstat.present import plots

    deck = deckstat.Deck.from_table([{"name": "Pièce $2$", "count": 20, "type": "Terrain"},
                                     {"name": "Héros", "count": 30, "type": "Personnage"}], source="deck $a$.csv")
    figure = plots.plot_odds(deckstat.odds(deck, "wankul", "[name=Pièce $2$]>=1")).figure
    try:
        texts = [text for text in figure.findobj(matplotlib.text.Text) if "$" in text.get_text()]
        assert texts  # the title and the legend
        for text in texts:
            laid_out, math = text._preprocess_math(text.get_text())
            assert math is False and "\\$" not in laid_out, laid_out
        assert any("deck $a$.csv" in text._preprocess_math(text.get_text())[0] for text in texts)
    finally:
        plt.close(figure)
