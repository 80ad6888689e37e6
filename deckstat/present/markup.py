"""Text written as it is in Markdown, HTML and matplotlib figures: one escaping function per format.

Card names, deck and file names, events, keep rules, group labels and profile
names come from the player's files and command line. Written into a page or
a figure without escaping, a name such as ``[site](https://x)``, ``_x_``,
`` `a` ``, ``<script>`` or ``$x$`` would become a link, emphasis, code, live
HTML or mathematics. Every function here returns text that its format shows
as the input's characters, and nothing else; whitespace is written as the
formats show it (a run of spaces, tabs or line breaks reads as one space).

- :func:`markdown_text`: text of a paragraph, heading, list item, table cell or image description (CommonMark
  and GitHub's extensions: tables, strikethrough, autolinks, mathematics).
- :func:`markdown_code`: a code span whose fence is longer than any run of backticks in the text.
- :func:`html_text`, :func:`html_attribute`: HTML text and a quoted attribute value.
- :func:`figure_text`: text of a matplotlib figure (titles, labels, legends), where ``$…$`` is mathematics.
"""

from __future__ import annotations

import html
import re

#: Whitespace a page shows as one space (not the no-break space, which French typography needs as it is).
_WHITESPACE = re.compile(r"[ \t\n\r\f\v\x1c-\x1f\x85\u2028\u2029]+")
#: Characters Markdown may read as syntax anywhere in a line: a backslash before each shows it as it is
#: (CommonMark lets any ASCII punctuation be escaped that way). ``$`` starts mathematics on GitHub, ``~``
#: strikethrough, ``|`` a table cell, ``@`` an e-mail autolink, ``&`` a character reference (``&amp;``), ``#``
#: a heading (also at its end, where a heading's closing ``#`` would be taken off). An ``_`` between two letters
#: or digits (``on_draw``) cannot start or end emphasis, so it stays as it is, easier to read.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*\[\]<|~$@#]|&(?=#|[A-Za-z][A-Za-z0-9]*;)|(?<![^\W_])_|_(?![^\W_]))")
#: What an autolink of GitHub's Markdown starts with (``https://``, ``www.``): broken by escaping its punctuation.
_AUTOLINK = re.compile(r"(?i)(:)(?=//)|(?<=www)(\.)")
#: What opens a block when a line starts with it: a heading, a quote, a list item, a thematic break.
_BLOCK_START = re.compile(r"^([>+=\-])|^(\d{1,9})([.)])")


def _one_line(text: str) -> str:
    return _WHITESPACE.sub(" ", text)


def markdown_text(text: str, *, line_start: bool = False) -> str:
    r"""``text`` written so that Markdown shows its characters, not syntax.

    Parameters
    ----------
    text : str
    line_start : bool
        Whether the text starts a block (a paragraph or a list item), where ``#``, ``-``, ``+``, ``=`` or
        ``1.`` would open a heading or a list.

    Examples
    --------
    >>> print(markdown_text("[x](https://e.org) _a_ *b* `c` <i> $d$ | &amp; Terrain>=1 on_draw"))
    \[x\](https\://e.org) \_a\_ \*b\* \`c\` \<i> \$d\$ \| \&amp; Terrain>=1 on_draw
    >>> print(markdown_text("1. Dragon", line_start=True), markdown_text("# x", line_start=True))
    1\. Dragon \# x
    """
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", _one_line(text))
    text = _AUTOLINK.sub(lambda m: "\\" + (m.group(1) or m.group(2)), text)
    if line_start:
        text = text.lstrip(" ")
        text = _BLOCK_START.sub(lambda m: "\\" + m.group(1) if m.group(1) else m.group(2) + "\\" + m.group(3), text)
    return text


def markdown_code(text: str) -> str:
    """``text`` as a Markdown code span: fenced by more backticks than its longest run of them.

    A text that starts or ends with a backtick, or with a space at both ends, is padded with a space inside the
    fence (Markdown takes one off each side), so that it shows as it is.

    Examples
    --------
    >>> print(markdown_code("Terrain>=1"), markdown_code("a`b"), markdown_code("``"))
    `Terrain>=1` ``a`b`` ``` `` ```
    """
    text = _one_line(text) or " "
    runs = [len(run) for run in re.findall(r"`+", text)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = text.strip(" ") and (text[0] == "`" or text[-1] == "`" or (text[0] == " " and text[-1] == " "))
    return f"{fence} {text} {fence}" if pad else f"{fence}{text}{fence}"


def html_text(text: str) -> str:
    r"""``text`` as HTML text between tags (quotes left as they are, easier to read in the page's source).

    Examples
    --------
    >>> html_text("<b>Épée</b> & \"Œil\"")
    '&lt;b&gt;Épée&lt;/b&gt; &amp; "Œil"'
    """
    return html.escape(text, quote=False)


def html_attribute(text: str) -> str:
    """``text`` as the value of an HTML attribute written between double quotes.

    Examples
    --------
    >>> html_attribute('a "b" <c>')
    'a &quot;b&quot; &lt;c&gt;'
    """
    return html.escape(text, quote=True)


def figure_text(text: str) -> str:
    r"""``text`` as matplotlib shows it as it is: every ``$`` escaped, so that no pair of them is mathematics.

    Examples
    --------
    >>> print(figure_text("Pièce à $2$"))
    Pièce à \$2\$
    """
    return text.replace("$", r"\$")
