"""deckstat: deck statistics for card games.

Exact odds where a closed form exists, Monte Carlo where it does not, for
Wankul, Duel Masters, Joueur du Grenier TCG, Licum, Pandrea and any game
described by a profile file. Every question returns a
:class:`~deckstat.results.Result` of tidy pandas DataFrames.

The package is layered: ``engines`` (numpy arrays in and out) → ``questions``
(the public functions, results as DataFrames) → ``present`` (text, files,
figures) and ``cli`` (the command line). The names below are imported when
first used (``deckstat.odds`` loads the odds question, numpy and pandas), so
``import deckstat`` itself loads none of numpy, pandas, scipy, matplotlib or
rich (nor deckstat's own messages: ``python -m deckstat`` imports the
package before the command line can answer a Ctrl-C, so that moment stays
short).
"""

import importlib

from deckstat._version import __version__

#: The module that defines each public name, imported on first use (PEP 562): a question's numpy and pandas (and
#: the command line's start) are paid for only by what asks for them.
_SOURCES = {
    "BatchResult": "deckstat.batching",
    "batch": "deckstat.batching",
    "load_deck": "deckstat.cards",
    "read_card_csv": "deckstat.cards",
    "read_decklist": "deckstat.cards",
    "Deck": "deckstat.deck",
    "DeckstatError": "deckstat.errors",
    "ExpressionError": "deckstat.errors",
    "parse_event": "deckstat.events",
    "parse_group": "deckstat.events",
    "get_language": "deckstat.i18n",
    "language": "deckstat.i18n",
    "set_language": "deckstat.i18n",
    "Profile": "deckstat.games.profiles",
    "get_profile": "deckstat.games.profiles",
    "list_profiles": "deckstat.games.profiles",
    "load_profile_file": "deckstat.games.profiles",
    "card_differences": "deckstat.questions.compare",
    "combos": "deckstat.questions.combos",
    "compare": "deckstat.questions.compare",
    "curve": "deckstat.questions.curve",
    "deckout": "deckstat.questions.deckout",
    "explore": "deckstat.explorer",
    "hand_advice": "deckstat.questions.hand_advice",
    "keep_policy": "deckstat.questions.keep_policy",
    "mulligan": "deckstat.questions.mulligan",
    "odds": "deckstat.questions.odds",
    "optimise": "deckstat.questions.optimise",
    "ratio": "deckstat.questions.ratio",
    "sensitivity": "deckstat.questions.sensitivity",
    "with_resource_count": "deckstat.questions.ratio",
    "Report": "deckstat.questions.report",
    "report": "deckstat.questions.report",
    "validate": "deckstat.questions.validate",
    "when": "deckstat.questions.when",
    "CombosResult": "deckstat.results",
    "CompareResult": "deckstat.results",
    "CurveResult": "deckstat.results",
    "DeckoutResult": "deckstat.results",
    "HandAdviceResult": "deckstat.results",
    "KeepPolicyResult": "deckstat.results",
    "MulliganResult": "deckstat.results",
    "OddsResult": "deckstat.results",
    "OptimiseResult": "deckstat.results",
    "RatioResult": "deckstat.results",
    "SensitivityResult": "deckstat.results",
    "Result": "deckstat.results",
    "ValidationResult": "deckstat.results",
    "WhenResult": "deckstat.results",
}


def __getattr__(name: str) -> object:
    """Import a public name from its module the first time it is asked for."""
    try:
        module = _SOURCES[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "BatchResult",
    "CombosResult",
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
    "OptimiseResult",
    "Profile",
    "RatioResult",
    "Report",
    "Result",
    "SensitivityResult",
    "ValidationResult",
    "WhenResult",
    "__version__",
    "batch",
    "card_differences",
    "combos",
    "compare",
    "curve",
    "deckout",
    "explore",
    "get_language",
    "get_profile",
    "hand_advice",
    "keep_policy",
    "language",
    "list_profiles",
    "load_deck",
    "load_profile_file",
    "mulligan",
    "odds",
    "optimise",
    "parse_event",
    "parse_group",
    "ratio",
    "read_card_csv",
    "read_decklist",
    "report",
    "sensitivity",
    "set_language",
    "validate",
    "when",
    "with_resource_count",
]
