"""The version of deckstat, in a module of its own so that any module can read it without import cycles."""

__version__ = "0.1.0"
