"""The explorer: a deck's questions answered as a player changes them, in a local page or a notebook.

Layer rule: the explorer presents, as the command line does. Each view reads
its settings from the widgets, makes one public API call (``deckstat.odds``,
``deckstat.mulligan``, ``deckstat.curve``, ``deckstat.sensitivity``) and shows
the result with :mod:`deckstat.present`; no statistics here and nothing from
``deckstat.engines``. It is the only package of deckstat that imports Panel and
Bokeh, which come with the ``explore`` extra (``pip install deckstat[explore]``);
:mod:`deckstat.explorer.state` (the state as a batch spec and as a page's
address) needs neither.
"""

from __future__ import annotations

__all__ = ["explore"]


def explore(deck, game, *, lang: str | None = None, state=None, seed: int | None = None, pool=None,
            deck_name: str | None = None):
    """The explorer of a deck, as widgets in a notebook (the same explorer ``deckstat explore`` serves as a page).

    Parameters
    ----------
    deck : Deck or str or Path
        The deck, or its card file.
    game : str or Profile
        Game profile id or ``.toml`` profile path.
    lang : {"en", "fr"}, optional
        The language of the widgets (default: deckstat's current language).
    state : ExploreState or str or Path, optional
        The questions to start from: a state, or a state file saved by the explorer (a batch spec).
    seed : int, optional
        Seed of the simulated answers (default: the state's, else 1).
    pool : str or Path, optional
        The card pool that resolves a text decklist (``deck`` a path), or that resolved the Deck given: written
        into a saved state with the deck's path, so that ``deckstat batch`` reads the same deck.
    deck_name : str, optional
        For a file that holds several decks, the deck to read (``deck`` a path).

    Returns
    -------
    Explorer
        Displays itself in a notebook; its widgets (``explorer.copies``, ``explorer.event_input``…) can be set
        from code, and ``explorer.answers`` holds the results shown.

    Raises
    ------
    DeckstatError
        Without Panel (the ``explore`` extra), for a deck or a state file that cannot be read.
    """
    from deckstat.explorer.app import Explorer

    return Explorer.open(deck, game, lang=lang, state=state, seed=seed, pool=pool, deck_name=deck_name)
