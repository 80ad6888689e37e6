"""The language deckstat writes in: English or French.

What a player reads (tables, sentences, errors, reports, figures) is written
through :func:`tr` and :func:`trn`. The English text is the message itself
(as with :mod:`gettext`, the source text is the key); the French catalogue
``deckstat/locales/fr.toml`` maps each message to its French text. A message
whose text is built elsewhere (a table of rule words) is marked with
:func:`N_` where it is written, so that the catalogue check finds it.

Why a TOML table rather than gettext ``.po``/``.mo`` files: the standard
library reads TOML (no compiled ``.mo`` file kept in step with its source, no
build step, no extra dependency), plural forms are explicit arrays, and the
test suite checks the catalogue directly: every message in the code has a
French text, every French text a message in the code, the same ``{fields}``,
French typography (a no-break space before ``: ; ? !`` and ``%``). The calls
have gettext's shape, so moving to gettext later is mechanical.

The language is chosen, in order, by :func:`set_language` (the command line's
``--lang``), the ``DECKSTAT_LANG`` environment variable, then the locale
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``: French when it starts with ``fr``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache

#: The languages deckstat writes in.
LANGUAGES = ("en", "fr")
#: How each language is named on the command line and in ``DECKSTAT_LANG`` (the ids themselves are accepted too).
LANGUAGE_ALIASES = {"english": "en", "anglais": "en", "francais": "fr", "français": "fr", "french": "fr"}
#: The space French typography puts before ``: ; ? !`` and ``%`` and between thousands. The no-break space
#: (U+00A0) rather than the narrow one (U+202F): every terminal font has it, and cp1252 (Windows, French
#: Excel) can write it.
NBSP = "\u00a0"

_current: ContextVar[str | None] = ContextVar("deckstat_language", default=None)
_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:[!:][^{}]*)?\}")


class LanguageError(ValueError):
    """A language deckstat does not write in (the command line reports it as unusable input)."""


def normalise_language(value: str, *, source: str = "language") -> str:
    """Return ``"en"`` or ``"fr"`` for a language id or name (``fr``, ``fr_FR``, ``français``).

    Raises
    ------
    LanguageError
        When ``value`` names neither language.

    Examples
    --------
    >>> normalise_language("fr_FR.UTF-8"), normalise_language("English")
    ('fr', 'en')
    """
    text = str(value).strip().casefold()
    if text in LANGUAGE_ALIASES:
        return LANGUAGE_ALIASES[text]
    head = re.split(r"[_.@-]", text, maxsplit=1)[0]
    if head in LANGUAGES:
        return head
    # Not through tr(): the environment may be what names the unknown language.
    message = N_("{source}: unknown language {value!r}; expected one of: {choices}")
    found = _lookup(message, _current.get() or "en")
    raise LanguageError((found or message).format(source=source, value=str(value), choices=", ".join(LANGUAGES)))


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """The language asked for by ``DECKSTAT_LANG``, else by the locale's variables; English by default.

    Examples
    --------
    >>> detect_language({"LANG": "fr_FR.UTF-8"}), detect_language({"LANG": "C.UTF-8"}), detect_language({})
    ('fr', 'en', 'en')
    >>> detect_language({"DECKSTAT_LANG": "en", "LANG": "fr_FR.UTF-8"})
    'en'
    """
    environ = os.environ if environ is None else environ
    forced = environ.get("DECKSTAT_LANG", "").strip()
    if forced:
        return normalise_language(forced, source="DECKSTAT_LANG")
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "").strip()
        if value:
            # The first locale variable set decides, as for the C library.
            return "fr" if value.casefold().startswith("fr") else "en"
    return "en"


def get_language() -> str:
    """The language deckstat writes in now (``"en"`` or ``"fr"``).

    An unknown ``DECKSTAT_LANG`` reads as English here, so that an error can still be written; the
    command line refuses it before any work (:func:`detect_language` raises).
    """
    chosen = _current.get()
    if chosen is not None:
        return chosen
    try:
        return detect_language()
    except LanguageError:
        return "en"


def set_language(lang: str | None) -> str:
    """Write in ``lang`` (``"en"``, ``"fr"``, or ``None`` to follow the environment again); return the language.

    Examples
    --------
    >>> set_language("fr"); tr("line {line}", line=2)
    'fr'
    'ligne 2'
    >>> set_language(None) == detect_language()
    True
    """
    _current.set(None if lang is None else normalise_language(lang))
    return get_language()


@contextmanager
def language(lang: str | None) -> Iterator[str]:
    """Write in ``lang`` inside a ``with`` block (``None``: the current language).

    Examples
    --------
    >>> with language("fr"):
    ...     trn("{n} card", "{n} cards", 2)
    '2 cartes'
    """
    token = _current.set(get_language() if lang is None else normalise_language(lang))
    try:
        yield get_language()
    finally:
        _current.reset(token)


@cache
def catalogue(lang: str) -> dict[str, str | list[str]]:
    """The messages of ``lang`` keyed by their English text (empty for English)."""
    if lang == "en":
        return {}
    from deckstat._shipped import parsed, shipped_path

    return parsed(shipped_path("locales", f"{lang}.toml"), read_catalogue)


#: A TOML basic string whose escapes JSON reads alike (no ``\U``, no tab, no surrogate); possessive, so that a
#: line that is not one fails at once.
_STRING = r'"(?:[^"\\\x00-\x1f\x7f]++|\\[btnfr"\\]|\\u(?![dD][89a-fA-F])[0-9A-Fa-f]{4})*+"'
#: A catalogue's message as the catalogue writes each: ``"english" = "texte"`` or ``"english" = ["un", "des"]``.
_ENTRY = re.compile(rf"({_STRING}) = ({_STRING}|\[{_STRING}(?:, {_STRING})*+\])")
_COMMENT = re.compile(r"#[^\x00-\x08\x0a-\x1f\x7f]*+")


def read_catalogue(text: str) -> dict[str, str | list[str]]:
    r"""``tomllib.loads(text)`` for a catalogue, in a fifth of the time.

    tomllib reads the French catalogue in about a third of the time typer takes to import, and every command
    that prints a table reads it. A catalogue whose every line is a comment, blank or one message written as
    :data:`_ENTRY` says is read as the JSON object of the same strings; any other file (and one naming a
    message twice) is left to tomllib, which reads it or says what is wrong.

    Examples
    --------
    >>> read_catalogue('# messages\n"{n} card" = ["{n} carte", "{n} cartes"]\n"yes" = "oui"\n')
    {'{n} card': ['{n} carte', '{n} cartes'], 'yes': 'oui'}
    """
    entries = []
    for line in text.split("\n"):
        if not line or _COMMENT.fullmatch(line):
            continue
        found = _ENTRY.fullmatch(line)
        if found is None:
            return _toml(text)
        entries.append(f"{found[1]}: {found[2]}")
    data = json.loads("{" + ",".join(entries) + "}")
    if len(data) != len(entries):  # a message twice: tomllib names the line
        return _toml(text)
    return data


def _toml(text: str) -> dict:
    import tomllib  # only for a catalogue :func:`read_catalogue` does not read itself

    return tomllib.loads(text)


def _strict() -> bool:
    # The test suite sets it so that a message missing from a catalogue fails loudly instead of
    # quietly falling back to English.
    return os.environ.get("DECKSTAT_STRICT_I18N", "") not in ("", "0")


def _lookup(msgid: str, lang: str) -> str | list[str] | None:
    if lang == "en":
        return None
    found = catalogue(lang).get(msgid)
    if found is None and _strict():
        raise KeyError(f"no {lang} text for message {msgid!r}")
    return found


def _fill(text: str, fields: Mapping[str, object]) -> str:
    return text.format(**fields) if fields else text


def N_(msgid: str) -> str:
    """Mark ``msgid`` as a message written later through :func:`tr`; return it unchanged."""
    return msgid


def tr(msgid: str, /, **fields: object) -> str:
    r"""``msgid`` in the current language, its ``{fields}`` filled in.

    Parameters
    ----------
    msgid : str
        The English text, with ``{name}`` fields (``str.format`` syntax).
    **fields
        The values of the fields. Numbers should be written first (:func:`number`), so that
        they follow the language's decimal mark.

    Examples
    --------
    >>> with language("fr"):
    ...     tr("{source}: unknown language {value!r}; expected one of: {choices}", source="x", value="de",
    ...        choices="en, fr")
    "x\xa0: langue inconnue 'de'\xa0; langues possibles\xa0: en, fr"
    """
    found = _lookup(msgid, get_language())
    return _fill(msgid if found is None else found, fields)


def plural_index(n: float, lang: str) -> int:
    """0 for the singular form, 1 for the plural: English counts 1 as singular, French 0 and 1.

    Examples
    --------
    >>> [plural_index(n, "en") for n in (0, 1, 2)], [plural_index(n, "fr") for n in (0, 1, 1.5, 2)]
    ([1, 0, 1], [0, 0, 0, 1])
    """
    if lang == "fr":
        return 0 if abs(n) < 2 else 1
    return 0 if n == 1 else 1


def trn(singular: str, plural: str, n: float, /, **fields: object) -> str:
    r"""The singular or plural message for ``n`` in the current language, with ``{n}`` and ``{fields}`` filled in.

    ``{n}`` is written with :func:`number` unless ``fields`` gives it.

    Examples
    --------
    >>> trn("{n} card", "{n} cards", 1), trn("{n} card", "{n} cards", 1000)
    ('1 card', '1,000 cards')
    >>> with language("fr"):
    ...     trn("{n} card", "{n} cards", 0), trn("{n} card", "{n} cards", 1000)
    ('0 carte', '1\xa0000 cartes')
    """
    lang = get_language()
    index = plural_index(n, lang)
    found = _lookup(singular, lang)
    text = (singular, plural)[index] if found is None else found[index]
    values = {"n": number(n), **fields}
    return text.format(**values)


def decimal_mark() -> str:
    """The decimal mark of the current language: ``"."`` or ``","``."""
    return "," if get_language() == "fr" else "."


def localise_number(text: str) -> str:
    r"""A number written in English (``1,234.5``, ``87.3%``, ``±0.07%``) as the current language writes it.

    Only for text that is a number (with a sign, ``%``, ``±``, ``<``/``>``); card names and
    expressions are never passed here.

    Examples
    --------
    >>> with language("fr"):
    ...     localise_number("1,234.5"), localise_number("87.3%"), localise_number("-0.4 pp")
    ('1\xa0234,5', '87,3\xa0%', '-0,4\xa0pp')
    >>> localise_number("87.3%")
    '87.3%'
    """
    if get_language() != "fr":
        return text
    text = text.replace(",", "\u0000").replace(".", ",").replace("\u0000", NBSP)
    return re.sub(r"(?<=\d) ?(%|pp\b)", NBSP + r"\1", text)


def number(value: float, decimals: int | None = None) -> str:
    r"""``value`` written for a reader: thousands separated, ``decimals`` decimals (default: as few as needed).

    Examples
    --------
    >>> number(1234567), number(0.25), number(2.5, 2)
    ('1,234,567', '0.25', '2.50')
    >>> with language("fr"):
    ...     number(1234567), number(0.25)
    ('1\xa0234\xa0567', '0,25')
    """
    value = float(value)
    if decimals is not None:
        text = f"{value:,.{decimals}f}"
    elif value.is_integer():
        text = f"{int(value):,}"
    else:
        text = f"{value:,.12g}" if abs(value) < 1e15 else repr(value)
    return localise_number(text)


def french_typography(text: str) -> str:
    r"""``text`` with the no-break spaces French puts before ``: ; ? !`` and ``%`` (none doubled).

    Used to check catalogue entries and to write joined French text; URLs, times and
    ``[key:value]`` tokens keep their colon.

    Examples
    --------
    >>> french_typography("Attention: 3 cartes; 87,3% ?")
    'Attention\xa0: 3 cartes\xa0; 87,3\xa0%\xa0?'
    """
    text = re.sub(r"[ \u00a0\u202f]?([;?!])(?=\s|$)", NBSP + r"\1", text)
    text = re.sub(r"(?<=[^\s\d:/\[{])[ \u00a0\u202f]?:(?=\s|$)", NBSP + ":", text)
    return re.sub(r"(?<=[\d}])[ \u00a0\u202f]?%", NBSP + "%", text)


def fields_of(text: str) -> set[str]:
    """The ``{field}`` names of a message.

    Examples
    --------
    >>> sorted(fields_of("{n} card in {deck!r}, {p:.1f}"))
    ['deck', 'n', 'p']
    """
    return set(_FIELD.findall(text.replace("{{", "").replace("}}", "")))
