"""The questions players ask, as public functions: decks and options in, :class:`~deckstat.results.Result` out.

``odds``      P(event) in a zone by turn and seat;
``when``      the first turn an event holds;
``mulligan``  what a keep rule and mulligan do;
``ratio``     the resource-count sweep ("10, 11 or 12 Terrains?");
``deckout``   the turn each seat runs out of cards;
``compare``   the same question for several decks, with the difference;
``validate``  the game's construction rules;
``report``    all of the above for one deck.

Layer rule: questions check their arguments, resolve the rules in force
(``_setup``), call the engines and shape their arrays into tidy tables. They
import the engines, games, decks and results; never ``deckstat.present``
(text and figures), ``deckstat.cli``, matplotlib or rich.

Plan, estimate, shape: ``plan_odds``, ``plan_when``, ``plan_mulligan``,
``plan_compare`` and ``plan_deckout`` make every check of their question and
price the exact engine once, computing nothing (a batch spec is checked by
them); ``_estimate.estimate`` answers each planned part exactly or by
simulation, with its intervals and provenance, on one checked
``_estimate.Simulation``; the question then shapes the tables. A question
built on another (mulligan on odds, compare on odds) passes its plans down.
"""
