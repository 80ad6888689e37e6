"""Card names spelled with letters of another script that look alike: ``Mort-Vivаnt`` with a Cyrillic ``а``.

Such a name is another string than the name it imitates but the same card to
a player's eye, so a copy limit must count them together
(:func:`deckstat.games.rules.copy_keys`) and the player be warned
(:func:`deckstat.games.rules.file_warnings`). Which letters look alike comes
from Unicode's confusables data (UTS #39), read through the
``confusable-homoglyphs`` package, loaded only for a name with a letter that is
not Latin.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from deckstat.i18n import N_, tr
from deckstat.text import DIRECTION_CONTROLS, INVISIBLE

#: Direction marks and invisible characters around right-to-left glyphs of the confusables data.
_DROP_MARKS = str.maketrans("", "", INVISIBLE + DIRECTION_CONTROLS)


#: Scripts a look-alike message names, in words (others are shown as Unicode names them, ``ARMENIAN``).
SCRIPT_WORDS = {"LATIN": N_("Latin"), "CYRILLIC": N_("Cyrillic"), "GREEK": N_("Greek")}


@dataclass(frozen=True)
class Lookalike:
    """A letter of a name that imitates a letter of the script the name is read in (a Cyrillic ``а`` in a Latin name).

    Attributes
    ----------
    character : str
        The letter as written (``"а"``, U+0430).
    script, imitated_script : str
        Its Unicode script and the script of the letter it imitates (``"CYRILLIC"``, ``"LATIN"``).
    imitated : str
        The letter it looks like (``"a"``).
    """

    character: str
    script: str
    imitated: str
    imitated_script: str

    @property
    def code_point(self) -> str:
        """``U+0430``."""
        return f"U+{ord(self.character):04X}"

    def describe(self) -> str:
        """In words: ``Cyrillic 'а' (U+0430) looks like Latin 'a'``."""
        return tr("{script} {character!r} ({code}) looks like {latin} {imitated!r}", script=script_word(self.script),
                  character=self.character, code=self.code_point, latin=script_word(self.imitated_script),
                  imitated=self.imitated)


def script_word(script: str) -> str:
    """A Unicode script alias in words (``CYRILLIC`` -> ``Cyrillic``, ``cyrillique`` in French)."""
    return tr(SCRIPT_WORDS[script]) if script in SCRIPT_WORDS else script.title()


def _letter_script(ch: str) -> str | None:
    """The script of a letter (``LATIN``, ``CYRILLIC``…), ``None`` for what is not a letter (digits, marks, ``-``)."""
    if not unicodedata.category(ch).startswith("L"):
        return None
    name = unicodedata.name(ch, "")
    if name.startswith("LATIN "):
        return "LATIN"  # the common case, without loading the confusables data
    from confusable_homoglyphs import categories

    script = categories.alias(ch)
    return None if script in ("COMMON", "INHERITED") else script


#: Look-alikes Unicode's confusables data leaves out: the Cyrillic capital QA is drawn as a Latin Q (its small
#: letter ԛ is in the data, as q).
_MORE_LOOKALIKES = {"\u051a": "Q"}


def _confusable_with(ch: str) -> set[str]:
    """The characters Unicode's confusables data (UTS #39) says ``ch`` can be mistaken for, ``ch`` left out.

    The data maps each character to a prototype, and a prototype to every character that maps to it: ``ch``'s
    prototype and everything that shares it.
    """
    from confusable_homoglyphs import confusables

    data = confusables.confusables_data

    def glyphs(key: str) -> list[str]:
        # Right-to-left glyphs come wrapped in direction marks; they are no letters of the scripts compared.
        return [entry["c"].translate(_DROP_MARKS) for entry in data.get(key, [])]

    found = set(glyphs(ch))
    for prototype in list(found):
        found.update(glyphs(prototype))
    found.update(other for other, latin in _MORE_LOOKALIKES.items() if latin == ch)
    if ch in _MORE_LOOKALIKES:
        found.add(_MORE_LOOKALIKES[ch])
    found.discard(ch)
    return {g for g in found if len(g) == 1}


def _plain_in(script: str, glyph: str) -> bool:
    """Whether ``glyph`` is an everyday letter of ``script``: for Latin, a letter of a-z once its accents are gone.

    Latin's rarer letters (``ĸ``, small capitals such as ``ʜ``, ``ß``) are what Unicode pairs with many Greek and
    Cyrillic letters (``κ``, ``н``, ``β``) that no reader takes for a Latin letter in a name.
    """
    if _letter_script(glyph) != script:
        return False
    if script != "LATIN":
        return True
    base = unicodedata.normalize("NFKD", glyph)[0]
    return base.isascii() and base.isalpha()


def _imitation(ch: str, script: str) -> str | None:
    """The everyday letter of ``script`` that ``ch`` looks like, of the same case where there is one."""
    candidates = [g for g in _confusable_with(ch) if _plain_in(script, g)]
    if not candidates:
        return None
    # The same case first (a capital І looks like I more than like l), then plain ASCII, then the lowest.
    return min(candidates, key=lambda g: (g.isupper() != ch.isupper(), not g.isascii(), ord(g)))


def _read_in(chars: list[str], scripts: list[str | None], script: str, *, whole: bool) -> list[str | None] | None:
    """Each character's look-alike in ``script`` (``None``: kept as it is).

    ``whole``: ``None`` unless every letter of another script has one, so that the text reads wholly in ``script``.
    """
    out: list[str | None] = []
    for ch, own in zip(chars, scripts):
        imitated = _imitation(ch, script) if own is not None and own != script else None
        if imitated is None and own is not None and own != script and whole:
            return None
        out.append(imitated)
    return out


def _reading_order(scripts: list[str | None]) -> list[str]:
    """The scripts a text may be read in: Latin first, then the others by how many letters they write."""
    tally: dict[str, int] = {}
    for script in scripts:
        if script is not None:
            tally[script] = tally.get(script, 0) + 1
    return sorted(tally, key=lambda s: (s != "LATIN", -tally[s], s))


def lookalikes(name: str) -> tuple[str, tuple[Lookalike, ...]]:
    """The name a mixed-script name imitates, and the letters that imitate another script's.

    A name whose letters belong to several scripts (Latin with a Cyrillic or
    Greek letter, or the other way round) is read in one of them: Latin when
    every letter of another script looks like a Latin letter, otherwise the
    first of its other scripts (the one most letters are written in first) in
    which it reads wholly. Whether a letter looks like another comes from
    Unicode's confusables data (UTS #39, through the ``confusable-homoglyphs``
    package), the letter of the same case first; for Latin only the letters
    a-z (with accents) count. A name that reads wholly in none of its scripts
    (``Дракон Dragon``) is read word by word: a word mixing scripts is read in
    the same way, or else its letters of other scripts that look like one of
    its main script are. A name wholly in one script, Cyrillic or Greek
    included, is itself; digits, punctuation and accents belong to no script.

    Parameters
    ----------
    name : str

    Returns
    -------
    tuple of (str, tuple of Lookalike)
        The imitated name (``name`` itself when nothing imitates) and the look-alike letters, in order.

    Examples
    --------
    >>> lookalikes("Mort-Viv\u0430nt")[0], lookalikes("Mort-Viv\u0430nt")[1][0].code_point
    ('Mort-Vivant', 'U+0430')
    >>> lookalikes("R\u03bfbot \u0406")[0]  # a Greek omicron, a Cyrillic capital I
    'Robot I'
    >>> lookalikes("\u041c\u043e\u0441\u043a\u0432\u0430"), lookalikes("Yéti 2")
    (('Москва', ()), ('Yéti 2', ()))
    """
    text = str(name)
    if text.isascii():
        return text, ()
    chars = list(unicodedata.normalize("NFD", text))
    scripts = [_letter_script(ch) for ch in chars]
    order = _reading_order(scripts)
    if len(order) < 2:
        return text, ()
    reading = next((r for s in order if (r := _read_in(chars, scripts, s, whole=True)) is not None), None)
    if reading is None:
        reading = [None] * len(chars)
        # Word by word: runs of letters and the accents on them.
        start = 0
        while start < len(chars):
            if scripts[start] is None:
                start += 1
                continue
            end = start
            while end < len(chars) and (scripts[end] is not None or unicodedata.combining(chars[end])):
                end += 1
            word_order = _reading_order(scripts[start:end])
            if len(word_order) > 1:
                word = next((r for s in word_order
                             if (r := _read_in(chars[start:end], scripts[start:end], s, whole=True)) is not None),
                            None)
                if word is None:
                    main = sorted(word_order, key=lambda s: -scripts[start:end].count(s))[0]
                    word = _read_in(chars[start:end], scripts[start:end], main, whole=False)
                reading[start:end] = word
            start = end
    found = [Lookalike(ch, own, imitated, _letter_script(imitated))
             for ch, own, imitated in zip(chars, scripts, reading) if imitated is not None]
    if not found:
        return text, ()
    imitation = "".join(imitated or ch for ch, imitated in zip(chars, reading))
    return unicodedata.normalize("NFC", imitation), tuple(found)
