"""Property tests: the parsers of known cards, of --given and of priority lists, and the known-card law."""

import math

import numpy as np
import pytest
from helpers import sample_deck
from hypothesis import example, given, settings
from hypothesis import strategies as st

import deckstat
from deckstat.deck import Deck
from deckstat.engines.exact import Condition
from deckstat.engines.known import compositions, known_odds
from deckstat.errors import DeckstatError
from deckstat.knowledge import Knowledge, cell_law, parse_given, parse_known
from deckstat.questions._setup import parse_priority

DECK = Deck.from_table([{"name": "Plage", "count": 3, "type": "Terrain", "cost": 0},
                        {"name": "Forêt", "count": 1, "type": "Terrain", "cost": 2},
                        {"name": "Laink", "count": 2, "type": "Personnage", "cost": 1},
                        {"name": "Dresseuse", "count": 4, "type": "Personnage", "cost": 3}])
ROW_CELLS = np.array([0, 1, 0, 1])  # cells by [cost<=1]
TOKENS = st.sampled_from([
    "Plage", "Forêt", "foret", "Laink", "Dresseuse", "Terrain", "Personnage", "[cost<=1]", "[cost>=9]", "[cost",
    "other", "autre", "reste", "=", "=1", "=2", "=99999999999999999999", "2 ", "2x ", "x2", ",", ", ", ";", "(",
    ")", "[", "]", '"', "'", ":", "hand:", "main :", "gone:", "dessous:", "poche:", " ", "", "é", "\u200b",
    "\x00", "≥", "#35", "(holo)", "-1", "0", "nan",
])
TEXTS = st.one_of(st.lists(TOKENS, max_size=14).map("".join), st.text(max_size=40))


@settings(max_examples=300, deadline=None)
@given(text=TEXTS)
@example(text="2 Plage\nLaink")  # a decklist pasted on two lines
@example(text=":\n0")
def test_a_description_gives_known_cards_or_a_deckstat_error(text):
    try:
        known = parse_known(text, DECK, what="hand")
    except DeckstatError as exc:
        assert "\n" not in str(exc)
        return
    assert known.size == int(known.rows.sum()) + sum(n for _, n, _ in known.classes)
    try:
        law = cell_law(DECK, ROW_CELLS, 2, {"hand": known})
    except DeckstatError:
        return
    # A law: probabilities that add up to 1, each outcome placing exactly the cards described.
    assert math.fsum(p for _, p in law) == pytest.approx(1.0, abs=1e-12)
    for outcome, p in law:
        assert p > 0 and int(outcome["hand"].sum()) == known.size
        assert (outcome["hand"] <= np.bincount(ROW_CELLS, weights=DECK.counts, minlength=2)).all()


@settings(max_examples=300, deadline=None)
@given(text=TEXTS)
def test_given_gives_a_zone_and_cards_or_a_deckstat_error(text):
    try:
        zone, cards = parse_given(text)
    except DeckstatError as exc:
        assert "\n" not in str(exc)
        return
    assert zone in ("hand", "gone", "bottom", "set_aside") and cards == cards.strip() and cards


@settings(max_examples=300, deadline=None)
@given(text=TEXTS)
@example(text=":!")  # an operator character that starts no operator
def test_a_priority_list_parses_or_gives_a_deckstat_error(text):
    try:
        needs = parse_priority(text)
    except DeckstatError as exc:
        assert "\n" not in str(exc)
        return
    assert needs and all(n is None or n >= 1 for _, n in needs)


@settings(max_examples=200, deadline=None)
@given(zones=st.dictionaries(st.sampled_from(["hand", "main", "gone", "défausse", "bottom", "dessous", "broken",
                                              "poche", "", "HAND"]),
                             st.one_of(TEXTS, st.lists(TEXTS, max_size=3), st.integers(-2, 3)), max_size=4))
def test_a_known_mapping_answers_or_gives_a_deckstat_error(zones):
    try:
        result = deckstat.odds(DECK, "wankul", "Terrain>=1", known=Knowledge.from_mapping(zones), draws=[0, 1])
    except DeckstatError as exc:
        assert "\n" not in str(exc)
        return
    assert ((result.table["p"] >= 0) & (result.table["p"] <= 1)).all()


@settings(max_examples=200, deadline=None)
@given(library=st.lists(st.integers(0, 6), min_size=2, max_size=4), bottom=st.lists(st.integers(0, 3), min_size=4,
                                                                                      max_size=4),
       base=st.integers(0, 2), need=st.integers(1, 4))
def test_known_odds_grow_with_draws_and_match_the_enumeration(library, bottom, base, need):
    # Cell 0 is the group; P(group >= need) on base + the next d cards, against every split of the draws.
    library = np.array(library)
    bottom = np.array(bottom[:len(library)])
    membership = np.zeros((len(library), 1), dtype=bool)
    membership[0] = True
    condition = Condition((0,), (need + 1,), lambda a: a[0] >= need)
    n_library, n_bottom = int(library.sum()), int(bottom.sum())
    draws = list(range(n_library + n_bottom + 1))
    p = known_odds(library, membership, condition, base=[base], draws=draws, bottom=bottom)
    assert np.all(np.diff(p) >= -1e-12)
    for d in draws:
        if d <= n_library:
            splits, probs = compositions(library, d)
            expected = sum(q for s, q in zip(splits, probs) if base + s[0] >= need)
        else:
            splits, probs = compositions(bottom, d - n_library)
            expected = sum(q for s, q in zip(splits, probs) if base + library[0] + s[0] >= need)
        assert p[d] == pytest.approx(expected, abs=1e-12)


WANKUL = deckstat.load_deck(sample_deck("wankul"))
HAND_TOKENS = st.sampled_from(["Terrain", "[cost<=1]", "other", "=", "=0", "=1", "=4", "=5", ", ", "Plage de Galets",
                               "2 Mamie Croquette", "Le Grenier Hanté", "3x ", "autre=5", "Terrain=1", ":", "\u00ad"])


@settings(max_examples=100, deadline=None)
@given(text=st.one_of(st.lists(HAND_TOKENS, max_size=10).map("".join), st.text(max_size=30)))
def test_hand_advice_answers_or_gives_a_deckstat_error(text):
    try:
        result = deckstat.hand_advice(WANKUL, "wankul", text, "Terrain>=1 and [cost<=1]>=1", by_turn=2)
    except DeckstatError as exc:
        assert "\n" not in str(exc)
        return
    table = result.table
    assert ((table["p_keep"] >= 0) & (table["p_keep"] <= 1) & (table["p_mulligan"] >= 0)
            & (table["p_mulligan"] <= 1)).all()
    assert set(table["advice"]) <= {"keep", "mulligan"}
