"""Writing to a terminal or a file whose encoding lacks characters deckstat uses (cp1252, cp850, ascii).

A Windows terminal or a file redirected there is often in cp1252 or cp850,
which have ``é``, ``«``, ``±`` and the no-break space but not ``✓``, ``→``
or ``≥``, nor the emoji and Japanese letters some card names hold. Rather
than stopping on the first of them with ``UnicodeEncodeError``, deckstat
writes each character the encoding lacks in plain characters: a symbol by
its usual ASCII spelling (``→`` as ``->``, ``≥`` as ``>=``, ``✓`` as ``v``),
a letter by its unaccented form where the encoding lacks the accent, and
anything else as ``?``. A table cell that is only ``✓`` or ``✗`` reads
``yes``/``no`` (``oui``/``non`` in French). Tables are rewritten before
rich measures them, so their columns stay aligned.
"""

from __future__ import annotations

import codecs
import copy
import dataclasses
import io
import sys
import unicodedata
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING

from deckstat.i18n import N_, tr
from deckstat.text import DIRECTION_CONTROLS

if TYPE_CHECKING:
    from rich.console import RenderHook

# rich is imported when something is drawn, not here: every command line sets its streams up through this module
# (protect_streams, safe_text), --help and the game listings too, and rich's console alone costs a third of typer.

#: The name of the codec error handler that writes a character an encoding lacks in plain characters.
ERRORS = "deckstat-plain"
#: Plain spellings of the symbols deckstat writes, for encodings that lack them.
PLAIN = {
    "✓": "v", "✔": "v", "✗": "x", "✘": "x", "→": "->", "←": "<-", "◀": "<", "▶": ">", "★": "*", "≥": ">=",
    "≤": "<=", "≈": "~", "≠": "!=", "−": "-", "–": "-", "—": "-", "…": "...", "±": "+/-", "×": "x", "·": ".",
    "«": '"', "»": '"', "‘": "'", "’": "'", "“": '"', "”": '"', "\u00a0": " ", "\u202f": " ", "²": "2", "³": "3",
    "°": "o", "√": "sqrt ", "•": "*", "━": "-", "─": "-", "│": "|",
}
#: Table cells that are a single mark, written as a word where the encoding lacks the mark.
WORDS = {"✓": N_("yes"), "✗": N_("no")}


def is_unicode(encoding: str | None) -> bool:
    """Whether ``encoding`` writes every character (UTF-8, UTF-16, UTF-32)."""
    return codecs.lookup(encoding or "utf-8").name.startswith("utf")


@cache
def _can_write(character: str, encoding: str) -> bool:
    try:
        character.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


@cache
def plain_character(character: str, encoding: str) -> str:
    r"""``character`` as ``encoding`` can write it: itself, its plain spelling, its unaccented letters, or ``?``.

    Examples
    --------
    >>> [plain_character(c, "cp1252") for c in "é→✓±\u00a0😀"]
    ['é', '->', 'v', '±', '\xa0', '?']
    >>> [plain_character(c, "ascii") for c in "É«±ル"]
    ['E', '"', '+/-', '?']
    """
    if _can_write(character, encoding):
        return character
    spelled = PLAIN.get(character)
    if spelled is not None and all(_can_write(c, encoding) for c in spelled):
        return spelled
    if spelled is not None:
        return "".join(plain_character(c, encoding) for c in spelled)
    # Compatibility decomposition: É -> E + accent, ﬁ -> fi, ² -> 2; keep what the encoding writes.
    parts = [c for c in unicodedata.normalize("NFKD", character)
             if not unicodedata.combining(c) and _can_write(c, encoding)]
    return "".join(parts) or "?"


def plain_text(text: str, encoding: str) -> str:
    """``text`` with each character ``encoding`` lacks written in plain characters (:func:`plain_character`).

    Examples
    --------
    >>> plain_text("deck_v1.csv → Épée ✓", "ascii")
    'deck_v1.csv -> Epee v'
    """
    if is_unicode(encoding):
        return text
    return "".join(plain_character(c, encoding) for c in text)


def _plain_errors(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    lacking = error.object[error.start:error.end]
    return "".join(plain_character(c, error.encoding) for c in lacking), error.end


codecs.register_error(ERRORS, _plain_errors)

#: ASCII under another name. click takes a stream in ASCII for a misconfigured locale and writes UTF-8 to it
#: instead; under this name an ASCII output asked for (``PYTHONIOENCODING=ascii``) stays ASCII, errors included.
ASCII = "deckstat-ascii"


def _find_codec(name: str) -> codecs.CodecInfo | None:
    if name != ASCII.replace("-", "_"):  # codecs asks in lower case, with underscores
        return None
    ascii_codec = codecs.lookup("ascii")
    return codecs.CodecInfo(ascii_codec.encode, ascii_codec.decode, name=ASCII,
                            incrementalencoder=ascii_codec.incrementalencoder,
                            incrementaldecoder=ascii_codec.incrementaldecoder,
                            streamwriter=ascii_codec.streamwriter, streamreader=ascii_codec.streamreader)


codecs.register(_find_codec)


def protect_streams() -> None:
    """Make ``sys.stdout`` and ``sys.stderr`` write the characters their encoding lacks in plain characters.

    Streams in a Unicode encoding, and streams that are not text files
    (a test's capture), are left as they are.
    """
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if isinstance(stream, io.TextIOWrapper) and not is_unicode(stream.encoding):
            ascii_stream = codecs.lookup(stream.encoding).name == "ascii"
            stream.reconfigure(errors=ERRORS, **({"encoding": ASCII} if ascii_stream else {}))


class PlainCharacters:
    """A rich render hook that rewrites text and tables in the characters an encoding has, before they are measured.

    A :class:`rich.console.RenderHook` (registered as one by :func:`plain_console_hooks`, so that this module
    loads without rich).
    """

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding

    def process_renderables(self, renderables: list) -> list:
        """The renderables of one ``print``, rewritten."""
        return [self.rewrite(r) for r in renderables]

    def rewrite(self, renderable, *, cell: bool = False):
        """``renderable`` (text, :class:`~rich.text.Text` or :class:`~rich.table.Table`) in plain characters."""
        from rich.table import Table
        from rich.text import Text

        if isinstance(renderable, str):
            return self._string(renderable, cell)
        if isinstance(renderable, Text):
            plain = self._string(renderable.plain, cell)
            if plain == renderable.plain:
                return renderable
            # Styles cannot follow characters that changed length; deckstat's text has none (markup is off).
            return Text(plain, style=renderable.style, justify=renderable.justify, overflow=renderable.overflow,
                        no_wrap=renderable.no_wrap, end=renderable.end, tab_size=renderable.tab_size)
        if isinstance(renderable, Table):
            table = copy.copy(renderable)
            table.title = self.rewrite(renderable.title) if renderable.title is not None else None
            table.caption = self.rewrite(renderable.caption) if renderable.caption is not None else None
            table.columns = [dataclasses.replace(column, header=self.rewrite(column.header),
                                                 footer=self.rewrite(column.footer),
                                                 _cells=[self.rewrite(c, cell=True) for c in column.cells])
                             for column in renderable.columns]
            return table
        return renderable

    def _string(self, text: str, cell: bool) -> str:
        if cell and text.strip() in WORDS and not _can_write(text.strip(), self.encoding):
            return plain_text(tr(WORDS[text.strip()]), self.encoding)
        return plain_text(text, self.encoding)


#: Control characters a terminal may obey (C0 but line feed and tab, DEL, C1), each shown as a Python escape.
_CONTROL = {code: f"\\x{code:02x}" for code in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if chr(code) not in "\n\t"}
#: Direction controls (right-to-left overrides, isolates, marks) reorder what follows them on screen; shown as
#: ``\u202e``-style escapes, so text reads in the order it is stored.
_CONTROL.update({ord(ch): f"\\u{ord(ch):04x}" for ch in DIRECTION_CONTROLS})
# The line and paragraph separators end a line for readers of the output (str.splitlines), though not for a
# terminal: shown as escapes too, so that one line of deckstat (an error) stays one line.
_CONTROL.update({code: f"\\u{code:04x}" for code in (0x2028, 0x2029)})


def safe_text(text: str) -> str:
    r"""``text`` with its control characters (ESC, BEL, CSI…) written as escapes, so a terminal shows them.

    A card name or a profile's text is data: written as it is, ``ESC [31m``
    would turn the terminal red, and other sequences can move the cursor or
    rename the window. Line feeds and tabs stay; the Unicode line and
    paragraph separators (U+2028, U+2029) are escaped, as they split lines.

    Examples
    --------
    >>> print(safe_text("\x1b[31mRed\a"))
    \x1b[31mRed\x07
    >>> print(safe_text("Dragon\u202eeliF"))
    Dragon\u202eeliF
    """
    return text.translate(_CONTROL)


class SafeCharacters(PlainCharacters):
    """A rich render hook that writes the control characters of text and tables as escapes (:func:`safe_text`)."""

    def __init__(self) -> None:
        super().__init__("utf-8")

    def _string(self, text: str, cell: bool) -> str:
        return safe_text(text)


def shown_text(text: str, encoding: str, cell: bool = False) -> str:
    r"""``text`` as a console writing in ``encoding`` shows it, for text measured before it is drawn.

    Control characters are written as escapes, then the characters the encoding lacks in plain ones (a ``cell``
    that is only ``✓`` or ``✗`` as a word): what :class:`SafeCharacters` and :class:`PlainCharacters` do when
    they draw.

    Examples
    --------
    >>> shown_text("\x1b[31m≥ ✓", "ascii"), shown_text("✓", "ascii", cell=True)
    ('\\x1b[31m>= v', 'yes')
    """
    safe = safe_text(text)
    return safe if is_unicode(encoding) else PlainCharacters(encoding)._string(safe, cell)


def plain_console_hooks(encoding: str) -> Iterable[RenderHook]:
    """The render hooks a console writing in ``encoding`` needs (none for a Unicode encoding)."""
    from rich.console import RenderHook

    RenderHook.register(PlainCharacters)  # SafeCharacters too; rich itself loaded with the console
    return [] if is_unicode(encoding) else [PlainCharacters(encoding)]
