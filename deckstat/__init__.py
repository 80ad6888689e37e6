"""deckstat: deck statistics for card games.

Exact odds where a closed form exists, Monte Carlo where it does not, for
Wankul, Duel Masters, Joueur du Grenier TCG, Licum, Pandrea and any game
described by a profile file. Every question returns a
:class:`~deckstat.results.Result` of tidy pandas DataFrames.

The package is layered: ``engines`` (numpy arrays in and out) → ``questions``
(the public functions, results as DataFrames) → ``present`` (text, files,
figures) and ``cli`` (the command line). ``import deckstat`` loads neither
matplotlib nor rich.
"""

from deckstat._version import __version__
from deckstat.batching import BatchResult, batch
from deckstat.cards import load_deck, read_card_csv, read_decklist
from deckstat.deck import Deck
from deckstat.errors import DeckstatError, ExpressionError
from deckstat.events import parse_event, parse_group
from deckstat.games.profiles import Profile, get_profile, list_profiles, load_profile_file
from deckstat.questions.compare import card_differences, compare
from deckstat.questions.curve import curve
from deckstat.questions.deckout import deckout
from deckstat.questions.hand_advice import hand_advice
from deckstat.questions.keep_policy import keep_policy
from deckstat.questions.mulligan import mulligan
from deckstat.questions.odds import odds
from deckstat.questions.ratio import ratio, with_resource_count
from deckstat.questions.report import Report, report
from deckstat.questions.validate import validate
from deckstat.questions.when import when
from deckstat.results import (
    CompareResult,
    CurveResult,
    DeckoutResult,
    HandAdviceResult,
    KeepPolicyResult,
    MulliganResult,
    OddsResult,
    RatioResult,
    Result,
    ValidationResult,
    WhenResult,
)

__all__ = [
    "BatchResult",
    "CompareResult",
    "CurveResult",
    "Deck",
    "DeckoutResult",
    "DeckstatError",
    "ExpressionError",
    "HandAdviceResult",
    "KeepPolicyResult",
    "MulliganResult",
    "OddsResult",
    "Profile",
    "RatioResult",
    "Report",
    "Result",
    "ValidationResult",
    "WhenResult",
    "__version__",
    "batch",
    "card_differences",
    "compare",
    "curve",
    "deckout",
    "get_profile",
    "hand_advice",
    "keep_policy",
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
    "report",
    "validate",
    "when",
    "with_resource_count",
]
