"""Message catalogues: one TOML file per language other than English (see :mod:`deckstat.i18n`)."""
