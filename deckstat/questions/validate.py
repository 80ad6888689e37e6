"""Is the deck legal? Every construction rule of its game, checked."""

from __future__ import annotations

import os

from deckstat._validate import check_choice, check_deck
from deckstat._version import __version__
from deckstat.deck import Deck
from deckstat.games.profiles import Profile, get_profile
from deckstat.games.rules import file_warnings, notes, violations
from deckstat.questions._setup import check_card_types
from deckstat.results import ValidationResult, frame
from deckstat.terms import COPIES_BY

VIOLATION_COLUMNS = ["deck", "game", "part", "rule", "level", "subject", "found", "allowed", "message"]
SUMMARY_COLUMNS = ["deck", "game", "deck_size", "legal", "errors", "warnings"]


def validate(deck: Deck, game: str | os.PathLike | Profile, *, copies_by: str | None = None) -> ValidationResult:
    """Check a deck against every construction rule of a game.

    Parameters
    ----------
    deck : Deck
        The deck; for games with several decks (Licum) a table with a
        ``deck`` column naming each card's part.
    game : str, path or Profile
        Game profile id or alias, or a ``.toml`` profile path.
    copies_by : {"name", "card", "printing"}, optional
        How copy limits count: copies of a name (the Laink and the Terracid
        ``VENDEUR`` together); of a card, a name with its game attributes
        (printings identical in play, such as a holo reprint, together;
        printings that differ in play, such as the two ``VENDEUR``, apart); or
        of each printing (name plus collector number, set, clan, rarity,
        holo: each apart). Default: as the profile says (``by`` of its
        ``copies`` rules). A violation names each card it counted together
        (``2 × VENDEUR #35``), and ``provenance["notes"]`` says why they
        count as one. Whatever the reading, a name that mixes scripts (a
        Cyrillic ``а`` in a Latin name) counts as the name it imitates, with
        a warning.

    Returns
    -------
    ValidationResult
        ``table``: one row per violation (``part``, ``rule``, ``level``,
        ``subject``, ``found``, ``allowed``, ``message``), empty for a legal
        deck, with warnings about a file that does not look like one deck of
        this game (:func:`deckstat.games.rules.file_warnings`); ``summary``:
        one row with ``deck_size`` (cards that count: Licum's Mise au Jeu
        cards do not), ``legal`` (no error; warnings allowed) and the number
        of ``errors`` and ``warnings``. ``.legal`` reads it.
        ``provenance["notes"]`` says what was read in a way worth knowing
        (cards set apart; a ``count`` rule over a column the deck lacks, such
        as JdG's ``shiny``, counts no card; cards a copy limit counts as one).

    Raises
    ------
    DeckstatError
        For an unknown game, a Licum table without a ``deck`` column, or a
        deck that lacks a column a rule other than ``count`` needs (``team``…).

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
    if copies_by is not None:
        check_choice(copies_by, "copies_by", COPIES_BY)
    check_card_types(deck, profile)
    identity = {"deck": deck.name, "game": profile.id}
    deck = deck.with_synonyms(profile.synonyms)
    rows = [{**identity, **row}
            for row in violations(deck, profile, copies_by=copies_by) + file_warnings(deck, profile)]
    table = frame(rows, VIOLATION_COLUMNS, integers=())
    errors = int((table["level"] == "error").sum())
    counted = profile.counted_deck(deck).size
    summary = frame([{**identity, "deck_size": counted, "legal": errors == 0, "errors": errors,
                      "warnings": int((table["level"] == "warning").sum())}], SUMMARY_COLUMNS, integers=())
    provenance = {"question": "validate", "game": profile.id, "deck_source": deck.source, "deck_size": counted,
                  "copies_by": copies_by, "notes": notes(deck, profile, copies_by=copies_by),
                  "deckstat_version": __version__}
    return ValidationResult(table=table, summary=summary, provenance=provenance)
