"""Game profiles shipped with deckstat, one TOML file per game."""
