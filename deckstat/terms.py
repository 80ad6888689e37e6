"""The names deckstat's rules and questions are spelled with, in one place.

Seats, zones, mulligan rules, methods, deck-out rules and play policies are
referred to by these names in profiles, in the Python API, on the command
line and in results; the defaults the Python API and the command line share
are here too (this module imports only :mod:`deckstat.i18n`, which imports
nothing, so the command line starts fast). The words that describe each
rule are English messages marked with ``N_``: show them through
:func:`deckstat.i18n.tr`.
"""

from deckstat.i18n import N_, tr

SEATS = ("first", "second")
#: ``seat`` values that select both seats.
BOTH_SEATS = ("both", "all")
#: The seats in French, as a player types them (``--seat premier``), and the seat each stands for.
SEAT_ALIASES = {"premier": "first", "deuxieme": "second", "deuxième": "second", "les-deux": "both", "tous": "both"}

ZONES = ("seen", "hand", "set_aside", "bottom")
#: The zones as a label names them (a progress bar's).
ZONE_NAMES = {"seen": N_("kept hand and draws"), "hand": N_("kept opening hand"), "set_aside": N_("set-aside cards"),
              "bottom": N_("under the deck")}
#: The zones in French as a player types them (``--zone boucliers``), and Duel Masters' name for its set-aside
#: cards, with the zone each stands for. A profile's own name for its set-aside cards is read too
#: (:func:`deckstat.questions._setup.check_zone`).
ZONE_ALIASES = {"vu": "seen", "vues": "seen", "main": "hand", "dessous": "bottom", "mis-de-cote": "set_aside",
                "shields": "set_aside", "boucliers": "set_aside"}
#: Zones fixed once the game starts: reported at turn 0 only.
FIXED_ZONES = ("hand", "set_aside")

METHODS = ("auto", "exact", "simulate")

#: How results are written: a table to read, csv (one table) or json (every table and the provenance).
FORMATS = ("table", "csv", "json")

MULLIGAN_RULES = ("none", "bottom", "london", "vancouver", "free", "hearthstone", "pokemon")
MULLIGAN_WORDS = {
    "none": N_("none"),
    "bottom": N_("put the hand under the deck and draw a new one from the top, no shuffle"),
    "london": N_("shuffle, draw a full hand, then put one card per mulligan under the deck (London)"),
    "vancouver": N_("shuffle, draw one card fewer per mulligan, then look at the top card and may put it under "
                    "the deck (Vancouver)"),
    "free": N_("the first mulligan draws a full new hand; later ones are London mulligans"),
    "hearthstone": N_("once: every card the hand does not need is set aside, as many cards are drawn to replace "
                      "them, then the set-aside cards are shuffled back into the deck (Hearthstone)"),
    "pokemon": N_("reveal the hand, shuffle it back and draw a full new one while it fails the keep rule "
                  "(Pokémon)"),
}
#: Mulligan rules as a sentence names them ("with the bottom mulligan", « mulligan sous le deck »).
MULLIGAN_NAMES = {
    "none": N_("no mulligan"), "bottom": N_("bottom mulligan"), "london": N_("London mulligan"),
    "vancouver": N_("Vancouver mulligan"), "free": N_("free mulligan"), "hearthstone": N_("Hearthstone mulligan"),
    "pokemon": N_("Pokémon mulligan"),
}
#: Mulligans a ``pokemon`` rule allows unless told otherwise: the rules set no limit, and a hand that fails the
#: keep rule 100 times in a row is rare enough to leave out (the last hand is kept; see docs/mulligans.md).
REDEAL_LIMIT = 100
#: Copies of one card beyond this are a typo, not a deck; no hand, draw or turn count goes beyond it either.
MAX_COPIES = 10_000
#: The most mulligans a ``pokemon`` rule may be given (a profile's or ``mulligan_limit=``).
MAX_REDEALS = 10_000
#: The most mulligans any other rule may be given: more than any hand size (London hands are empty by then).
MAX_MULLIGANS = 100

DECKOUT_RULES = {
    "lose_on_failed_draw": N_("a player who must draw from an empty deck loses"),
    "lose_on_last_draw": N_("a player who draws the last card of their deck loses"),
    "end_after_last_draw": N_("drawing the last card ends the game at the end of that turn"),
    "end_when_both_cannot_draw": N_("the game ends when both players cannot draw at the end of a turn"),
    "lose_at_end_of_turn": N_("a player with no card to draw plays the turn and loses at its end"),
    "none": N_("running out of cards has no rules effect"),
}
#: Deck-out rules under which a seat runs out when a draw fails (the others: when it draws its last card).
FAILED_DRAW_RULES = ("lose_on_failed_draw", "end_when_both_cannot_draw", "lose_at_end_of_turn")
#: Deck-out rules under which the game ends when both seats have run out (the others: when the first one does).
BOTH_OUT_RULES = ("end_when_both_cannot_draw",)

#: Readings of Wankul's « les joueurs piochent une carte à la fois jusqu'à en trouver un ».
DROUGHT_ORDERS = {
    "together": N_("both players draw one card, then both look: a round in which either finds a Terrain ends the "
                   "search; if both must draw and neither can, the active player wins"),
    "active_first": N_("one card at a time, one player after the other, the active player first; the search stops "
                       "at the first Terrain, and the first player unable to draw loses"),
}

#: The drought readings as a sentence names them (``--drought-order together``).
DROUGHT_ORDER_NAMES = {"together": N_("together"), "active_first": N_("active player first")}

POLICIES = {
    "none": N_("card effects are ignored: only the rules' draws move the decks"),
    "on_draw": N_("a card with a draw or mill effect is played as soon as its owner draws it (opening-hand cards "
                  "on the owner's first turn), and the cards it draws are played the same way"),
    "each_turn": N_("on each of its owner's turns, every effect card drawn since the last one is played once; the "
                    "cards they draw wait for the next turn"),
}
#: The deck-out policies as a sentence names them ("policy on_draw", « stratégie à la pioche »).
POLICY_NAMES = {"none": N_("policy none"), "on_draw": N_("policy on_draw"), "each_turn": N_("policy each_turn")}
#: The policy of ``deckout`` (and of the deck report) unless another is asked for: the deck file's draw and mill
#: columns count, played as soon as drawn. Without such columns every policy gives the same answer.
DEFAULT_POLICY = "on_draw"

TURN_ORDERS = ("alternating", "simultaneous")
DRAW_STEPS = ("start", "end")

#: Readings of a copy limit: copies of a name; of a card (a name and its game attributes: printings identical in
#: play together); or of each printing (name and printing columns).
COPIES_BY = ("name", "card", "printing")

#: The readings of a copy limit as a sentence names them ("the profile counts by printing").
COPIES_BY_NAMES = {"name": N_("name"), "card": N_("card"), "printing": N_("printing")}

#: The goldfish play models (``[play_model] kind``) and their policies, as a sentence names them.
PLAY_MODEL_NAMES = {"hand": N_("in hand"), "discard": N_("discard"), "mana": N_("mana"),
                    "condition": N_("summoning conditions"), "bench": N_("bench and springs"),
                    "logistics": N_("logistics")}
PLAY_POLICY_NAMES = {"any": N_("any"), "hold": N_("hold"), "curve": N_("curve"), "civ_first": N_("civ_first"),
                     "first_drawn": N_("first_drawn"), "target": N_("target"), "peasant": N_("peasant")}


def name_of(names: dict[str, str], value: object) -> str:
    """``value`` (an identifier) as a sentence names it in the current language, from one of the tables above.

    An identifier the table lacks (a custom profile's) is returned as it is.

    Examples
    --------
    >>> from deckstat.i18n import language
    >>> name_of(MULLIGAN_NAMES, "london")
    'London mulligan'
    >>> with language("fr"):
    ...     name_of(MULLIGAN_NAMES, "bottom"), name_of(MULLIGAN_NAMES, "house")
    ('mulligan sous le deck', 'house')
    """
    return tr(names[str(value)]) if str(value) in names else str(value)


#: Trials handed to the worker processes ahead of the block being summed (``chunk_size``, ``--chunk-size``).
DEFAULT_CHUNK = 1 << 18
#: The largest ``chunk_size``: about 7,600 blocks handed out ahead, whose tallies stay a few megabytes.
MOST_CHUNK = 10**9
#: The most trials a precision run may spend unless told otherwise: about a minute and a half on one core.
DEFAULT_MAX_TRIALS = 10**8
#: Trials the kernel runs a second on one core for a typical question (10^8 in about a minute and a half).
TRIALS_PER_SECOND = 1.1e6
#: The most trials any run takes (``n_trials``, ``max_trials``): about ten days on one core, a day on a dozen.
#: Far beyond what any deck question needs (10^8 trials give intervals of ±0.0001), and refused up front.
MOST_TRIALS = 10**12

# Limits on what deckstat reads, refused before any work (docs/limits.md lists them all).
#: The last turn any question follows (``turns``, ``max_turn``, ``target_turn``, ``by_turn``): far beyond any game.
MOST_TURN = 1000
#: The largest count ``--range`` sweeps to and the most draws ``--draws`` follows.
MOST_SWEEP = 100_000
#: The largest card file, decklist or known-cards file read: 8 MB, ten times the largest real pool met (0.84 MB,
#: 10,345 cards); reading and checking a file this size peaks near half a gigabyte.
MOST_CARD_FILE_BYTES = 8_000_000
#: The most card rows a card file may hold (a real pool this size is about 8 MB).
MOST_CARD_ROWS = 100_000
#: The most columns a card file may have (real ones have about a dozen).
MOST_CARD_COLUMNS = 1_000
#: The largest profile file read (the shipped ones are 2 to 20 kB).
MOST_PROFILE_BYTES = 1_000_000
#: The largest batch spec read.
MOST_SPEC_BYTES = 1_000_000
#: The most tasks one batch spec may ask for: counted from its sweeps before any task is made (a million tasks
#: took 40 s and 750 MB only to be listed).
MOST_BATCH_TASKS = 10_000
#: The longest event, group, keep rule or known-cards description, in characters.
MOST_EXPRESSION_CHARS = 10_000
#: The most card groups (terms) one event names, repeats included.
MOST_EXPRESSION_TERMS = 1_000
#: The deepest nesting of parentheses and ``not`` in an event (keeps the parser off Python's recursion limit).
MOST_EXPRESSION_DEPTH = 100
