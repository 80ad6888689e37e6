"""Is the deck legal? Every construction rule of its game, checked."""

from __future__ import annotations

import os

from deckstat._validate import check_deck
from deckstat._version import __version__
from deckstat.deck import Deck
from deckstat.games.profiles import Profile, get_profile
from deckstat.games.rules import violations
from deckstat.results import ValidationResult, frame

VIOLATION_COLUMNS = ["deck", "game", "part", "rule", "level", "subject", "found", "allowed", "message"]
SUMMARY_COLUMNS = ["deck", "game", "deck_size", "legal", "errors", "warnings"]


def validate(deck: Deck, game: str | os.PathLike | Profile) -> ValidationResult:
    """Check a deck against every construction rule of a game.

    Parameters
    ----------
    deck : Deck
        The deck; for games with several decks (Licum) a table with a
        ``deck`` column naming each card's part.
    game : str, path or Profile
        Game profile id or alias, or a ``.toml`` profile path.

    Returns
    -------
    ValidationResult
        ``table``: one row per violation (``part``, ``rule``, ``level``,
        ``subject``, ``found``, ``allowed``, ``message``), empty for a legal
        deck; ``summary``: one row with ``legal`` (no error; warnings allowed)
        and the number of ``errors`` and ``warnings``. ``.legal`` reads it.

    Raises
    ------
    DeckstatError
        For an unknown game, a Licum table without a ``deck`` column, or a
        deck that lacks a column a rule needs (``shiny``, ``team``…).

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "Terrain", "count": 8, "type": "Terrain"},
    ...                                  {"name": "Personnage", "count": 42, "type": "Personnage"}])
    >>> result = deckstat.validate(deck, "wankul")
    >>> result.legal
    False
    >>> result.table["subject"].tolist()  # 8 < 10 Terrains; 8 and 42 copies of one card
    ['Terrain', 'Terrain', 'Personnage']
    """
    profile = get_profile(game)
    check_deck(deck)
    identity = {"deck": deck.name, "game": profile.id}
    rows = [{**identity, **row} for row in violations(deck.with_synonyms(profile.synonyms), profile)]
    table = frame(rows, VIOLATION_COLUMNS, integers=())
    errors = int((table["level"] == "error").sum())
    summary = frame([{**identity, "deck_size": deck.size, "legal": errors == 0, "errors": errors,
                      "warnings": int((table["level"] == "warning").sum())}], SUMMARY_COLUMNS, integers=())
    provenance = {"question": "validate", "game": profile.id, "deck_source": deck.source, "deck_size": deck.size,
                  "deckstat_version": __version__}
    return ValidationResult(table=table, summary=summary, provenance=provenance)
