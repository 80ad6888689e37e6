"""Run the command-line interface: ``python -m deckstat``."""

from deckstat.cli import main

main()
