"""Text normalisation shared by loaders, group matching and profiles."""

from __future__ import annotations

import difflib
import functools
import unicodedata
from pathlib import Path

from deckstat.i18n import tr

#: Characters that show as nothing but make two spellings of a name differ: zero-width space, non-joiner and
#: joiner, word joiner, byte-order mark (zero-width no-break space), soft hyphen.
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
#: Direction controls: marks (LRM, RLM, ALM), embeddings, overrides and isolates. A right-to-left override shows
#: ``Dragon\u202eeliF`` as another name than the one compared, so they never belong inside a card name.
DIRECTION_CONTROLS = "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_DROP_INVISIBLE = str.maketrans("", "", INVISIBLE + DIRECTION_CONTROLS)
#: Spaces that are not U+0020: no-break, narrow no-break, figure space.
_OTHER_SPACES = str.maketrans({"\u00a0": " ", "\u202f": " ", "\u2007": " "})


def clean_name(text: str) -> str:
    """Return a card name as typed, without what a spreadsheet or a web page slips into it unseen.

    Unicode NFC (``é`` as one character), invisible characters and direction controls removed
    (:data:`INVISIBLE`, :data:`DIRECTION_CONTROLS`), no-break spaces read as spaces, runs of spaces as one,
    no outer spaces.

    Examples
    --------
    >>> clean_name("Cœur\u200b de\u00a0 Pâte\u00ad")
    'Cœur de Pâte'
    >>> clean_name("Pe\u0301tale") == "Pétale"
    True
    >>> clean_name("\u202eDragon\u202c")
    'Dragon'

    """
    text = unicodedata.normalize("NFC", str(text).translate(_DROP_INVISIBLE).translate(_OTHER_SPACES))
    return " ".join(text.split())


def fold(text: object) -> str:
    """Return ``text`` case- and accent-insensitive, with spacing collapsed.

    Parameters
    ----------
    text : object
        Any value; it is converted with ``str``.

    Returns
    -------
    str
        Lower-case text without diacritics, single spaces, no outer spaces.

    Examples
    --------
    >>> fold("  Entre-Période ")
    'entre-periode'
    """
    return _fold(str(text))


@functools.lru_cache(maxsize=1 << 16)
def _fold(text: str) -> str:
    # Card names and column headers are folded again and again (each lookup of a group, each event's name): once.
    decomposed = unicodedata.normalize("NFKD", text.translate(_DROP_INVISIBLE))
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(stripped.casefold().split())


def fold_key(text: object) -> str:
    """Return a looser key than :func:`fold`: spaces, ``_``, ``-`` and ``.`` removed.

    Used for column headers, where ``Coût``, ``cout`` and ``co_ut`` mean the same.
    """
    return "".join(ch for ch in fold(text) if ch not in " _-.'’")


def closest(word: str, candidates: list[str] | set[str]) -> str | None:
    """The candidate closest to ``word`` (compared folded), or ``None`` when none is close.

    Examples
    --------
    >>> closest("Yeti en Vacance", ["Yéti en Vacances", "Poulet"]), closest("Zzz", ["Poulet"])
    ('Yéti en Vacances', None)
    """
    by_fold = {fold(c): c for c in candidates}
    match = difflib.get_close_matches(fold(word), list(by_fold), n=1, cutoff=0.6)
    return by_fold[match[0]] if match else None


def suggest(word: str, candidates: list[str] | set[str]) -> str:
    """Return ``"; did you mean 'x'?"`` for the closest candidate, or ``""``."""
    match = closest(word, candidates)
    return tr("; did you mean {name!r}?", name=match) if match is not None else ""


def format_number(value: float) -> str:
    """Write a number so that it reads back as the same number, without an exponent.

    Examples
    --------
    >>> format_number(3.0), format_number(0.1), format_number(1e-7)
    ('3', '0.1', '0.0000001')
    """
    value = float(value)
    if value.is_integer():
        return str(int(value))
    import numpy as np  # here: the terminal's text helpers import this module, and --help needs no numpy

    return np.format_float_positional(value, unique=True, trim="-")


def is_file(path: str | Path) -> bool:
    """Whether ``path`` names an existing file; a name the system refuses (too long, a NUL in it) names none.

    :meth:`pathlib.Path.is_file` raises for such names instead of answering.
    """
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False
