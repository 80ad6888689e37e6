"""Values that mean the same card property, such as French ``Feu`` and English ``Fire``.

A game profile lists them in its ``[synonyms]`` table (see
``docs/profiles.md``); group matching (:meth:`deckstat.deck.Deck.mask`) then
treats every value of a set as the same value, whatever language the card
file uses: ``[civilization=Feu]`` matches a card whose civilization is
``Fire``, and the bare word ``Sort`` a card of type ``Spell``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deckstat.text import fold


@dataclass(frozen=True)
class Synonyms:
    """Sets of equivalent values, per canonical column.

    Parameters
    ----------
    sets : tuple of (str, tuple of str)
        Each entry is a canonical column (``civilization``, ``type``, ``race``…)
        and the spellings that mean one value there, as the profile writes
        them. A folded spelling belongs to at most one set of a column.

    Examples
    --------
    >>> synonyms = Synonyms((("civilization", ("Feu", "Fire")),))
    >>> sorted(synonyms.equivalents("civilization", "FEU"))
    ['feu', 'fire']
    >>> sorted(synonyms.equivalents("race", "Feu"))
    ['feu']
    """

    sets: tuple[tuple[str, tuple[str, ...]], ...] = ()
    _lookup: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for column, spellings in self.sets:
            folded = frozenset(fold(s) for s in spellings)
            for key in folded:
                self._lookup[(column, key)] = folded

    def __bool__(self) -> bool:
        return bool(self.sets)

    def equivalents(self, column: str, text: str) -> frozenset[str]:
        """The folded values that mean ``text`` in the canonical ``column`` (``text`` itself included)."""
        folded = fold(text)
        return self._lookup.get((column, folded), frozenset((folded,)))

    def spellings(self, column: str, text: str) -> list[str]:
        """The profile's spellings of the values that mean ``text`` in ``column`` (``[]`` when it has none)."""
        folded = fold(text)
        for set_column, spellings in self.sets:
            if set_column == column and folded in {fold(s) for s in spellings}:
                return list(spellings)
        return []

    def columns(self) -> list[str]:
        """The columns that have synonyms, in profile order."""
        return list(dict.fromkeys(column for column, _ in self.sets))

    def describe(self) -> list[tuple[str, str]]:
        """One (column, ``"Feu = Fire, Eau = Water"``) pair per column, for ``deckstat games show``."""
        return [(column, ", ".join(" = ".join(spellings) for c, spellings in self.sets if c == column))
                for column in self.columns()]


#: No synonyms: every value means only itself.
NONE = Synonyms()
