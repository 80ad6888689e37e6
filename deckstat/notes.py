"""The notes of the decks loaded while a command runs (an encoding guessed, names cleaned), gathered for it.

Apart from :mod:`deckstat.cards`, which reads the decks (with pandas): a command opens its block of notes
(:func:`deckstat.cli.options.user_errors`) whether or not it loads a deck.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

#: Notes of the files loaded inside :func:`collect_notes`; ``None`` outside it.
_LOAD_NOTES: ContextVar[list[str] | None] = ContextVar("deckstat_load_notes", default=None)


@contextmanager
def collect_notes() -> Iterator[list[str]]:
    """Gather the notes of the decks loaded inside the block, in order (the command line writes them on stderr).

    Each loaded :class:`~deckstat.deck.Deck` keeps its own in :attr:`~deckstat.deck.Deck.notes` too.
    """
    notes: list[str] = []
    token = _LOAD_NOTES.set(notes)
    try:
        yield notes
    finally:
        _LOAD_NOTES.reset(token)


def publish(notes: list[str]) -> None:
    """Add ``notes`` to the block of :func:`collect_notes` around, if any."""
    sink = _LOAD_NOTES.get()
    if sink is not None:
        sink.extend(notes)
