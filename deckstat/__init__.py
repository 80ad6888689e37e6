"""deckstat: deck statistics for card games.

Exact odds where a closed form exists, Monte Carlo where it does not, for
Wankul, Duel Masters, Joueur du Grenier TCG, Licum, Pandrea and any game
described by a profile file.
"""

from deckstat.analysis import ratio
from deckstat.api import MulliganReport, mulligan, odds, when
from deckstat.cards import load_deck, read_card_csv, read_decklist
from deckstat.compare import card_differences, compare
from deckstat.deck import Deck
from deckstat.deckout import deckout
from deckstat.errors import DeckstatError, ExpressionError
from deckstat.events import parse_event, parse_group
from deckstat.profiles import Profile, get_profile, list_profiles, load_profile_file
from deckstat.rules import validate

__version__ = "0.1.0"

__all__ = [
    "Deck",
    "MulliganReport",
    "DeckstatError",
    "ExpressionError",
    "Profile",
    "__version__",
    "card_differences",
    "compare",
    "deckout",
    "get_profile",
    "list_profiles",
    "load_deck",
    "load_profile_file",
    "mulligan",
    "odds",
    "parse_event",
    "parse_group",
    "ratio",
    "read_card_csv",
    "read_decklist",
    "validate",
    "when",
]
