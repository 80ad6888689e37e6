"""Game rules as data: the shipped profiles (one TOML file per game), their loader, and construction checks.

Layer rule: modules here read decks and events (``deckstat.deck``,
``deckstat.events``) and compute no probabilities; they import nothing from
``deckstat.engines``, ``deckstat.questions``, ``deckstat.present`` or
``deckstat.cli``.
"""
