"""The exact engine for known cards and the descriptions of known cards, against hand-derived values."""

import itertools
from collections import Counter
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from deckstat.deck import Deck
from deckstat.engines.exact import Condition
from deckstat.engines.known import bounded_splits, compositions, joint_contents, known_odds, zone_contents
from deckstat.errors import DeckstatError
from deckstat.knowledge import cell_law, parse_known

AT_LEAST_ONE = Condition((0,), (2,), lambda a: a[0] >= 1)
TERRAIN = np.array([[True], [False]])


def test_known_odds_is_the_hypergeometric_over_the_unknown_cards():
    # 50 cards, 10 Terrains; a hand of 5 holds none and 12 other cards are gone: 10 Terrains among 33.
    p = known_odds(np.array([10, 23]), TERRAIN, AT_LEAST_ONE, base=[0], draws=[1, 2, 3])
    expected = [1 - comb(23, d) / comb(33, d) for d in (1, 2, 3)]
    assert p == pytest.approx(expected, abs=1e-12)


def test_a_known_card_in_the_zone_already_counts():
    two = Condition((0,), (3,), lambda a: a[0] >= 2)
    p = known_odds(np.array([4, 16]), TERRAIN, two, base=[1], draws=[0, 3])
    assert p[0] == 0.0
    assert p[1] == pytest.approx(1 - stats.hypergeom(20, 4, 3).pmf(0), abs=1e-12)


def test_cards_known_at_the_bottom_are_drawn_last():
    # Library: 1 Terrain and 4 others; the bottom block: 2 Terrains. A Terrain in the next 5 draws is certain
    # only because of the library's one; drawing 6 reaches the bottom block.
    library, bottom = np.array([1, 4]), np.array([2, 0])
    p = known_odds(library, TERRAIN, AT_LEAST_ONE, base=[0], draws=[2, 5, 6], bottom=bottom)
    assert p[0] == pytest.approx(1 - comb(4, 2) / comb(5, 2), abs=1e-12)
    assert p[1] == 1.0
    # With the same cards shuffled together instead, 2 draws find a Terrain far more often.
    mixed = known_odds(library + bottom, TERRAIN, AT_LEAST_ONE, base=[0], draws=[2])
    assert mixed[0] == pytest.approx(1 - comb(4, 2) / comb(7, 2), abs=1e-12)
    assert mixed[0] > p[0]


def test_no_terrain_left_in_the_library_waits_for_the_bottom_block():
    # Wankul: the mulligan put 2 Terrains under 3 others. The 4th draw reaches the block of 5 in random order.
    bottom = np.array([2, 3])
    p = known_odds(np.array([0, 3]), TERRAIN, AT_LEAST_ONE, base=[0], draws=[3, 4, 5], bottom=bottom)
    assert p.tolist() == pytest.approx([0.0, 2 / 5, 1 - comb(3, 2) / comb(5, 2)], abs=1e-12)


def test_more_draws_than_cards_is_an_error():
    with pytest.raises(DeckstatError, match="only 5 cards are left"):
        known_odds(np.array([1, 4]), TERRAIN, AT_LEAST_ONE, base=[0], draws=[6])


def test_compositions_are_the_multivariate_hypergeometric_law():
    counts = np.array([3, 0, 4, 2])
    splits, probs = compositions(counts, 4)
    assert probs.sum() == pytest.approx(1.0, abs=1e-12)
    assert (splits.sum(axis=1) == 4).all() and (splits <= counts).all()
    reference = stats.multivariate_hypergeom(m=counts, n=4)
    assert probs == pytest.approx([reference.pmf(s) for s in splits], abs=1e-12)
    assert len(splits) == len({tuple(s) for s in splits.tolist()})


DECK = Deck.from_table([{"name": "Plage", "count": 3, "type": "Terrain", "cost": 0},
                        {"name": "Forêt", "count": 1, "type": "Terrain", "cost": 2},
                        {"name": "Laink", "count": 2, "type": "Personnage", "cost": 1},
                        {"name": "Dresseuse", "count": 4, "type": "Personnage", "cost": 3}])


def test_names_pin_cards_down_and_counts_add_up():
    known = parse_known("Plage, 2 Dresseuse, plage", DECK, what="hand")
    assert known.rows.tolist() == [2, 0, 0, 2] and known.classes == ()


def test_group_counts_take_the_first_group_listed():
    known = parse_known("Terrain=1, [cost<=1]=1, other=2", DECK, what="hand")
    (terrain, n1, _), (cheap, n2, _), (other, n3, _) = known.classes
    assert terrain.tolist() == [True, True, False, False] and n1 == 1
    # A cheap Terrain is a Terrain: the cheap group here is what is left of it.
    assert cheap.tolist() == [False, False, True, False] and n2 == 1
    assert other.tolist() == [False, False, False, True] and n3 == 2


def test_the_law_of_group_counts_over_cells_is_hypergeometric():
    # Cells by "cost<=1": [Plage, Laink] and [Forêt, Dresseuse]. Two Terrains known: both Plage (3 of 4 ways
    # to choose 2 of 4 Terrains that avoid Forêt: C(3,2)/C(4,2)) or one of each.
    row_cells = np.array([0, 1, 0, 1])
    law = cell_law(DECK, row_cells, 2, {"hand": parse_known("Terrain=2", DECK)})
    as_dict = {tuple(out["hand"].tolist()): p for out, p in law}
    assert as_dict == pytest.approx({(2, 0): comb(3, 2) / comb(4, 2), (1, 1): 3 / comb(4, 2)})


def test_known_cards_the_deck_cannot_hold_are_refused():
    with pytest.raises(DeckstatError, match="names 4 copies of 'Laink', but the deck has 2"):
        cell_law(DECK, np.array([0, 1, 0, 1]), 2, {"hand": parse_known("4 Laink", DECK)})
    with pytest.raises(DeckstatError, match=r"hand \(2\) and gone \(1\) name 3 copies"):
        cell_law(DECK, np.array([0, 1, 0, 1]), 2, {"hand": parse_known("2 Laink", DECK),
                                                   "gone": parse_known("Laink", DECK)})
    with pytest.raises(DeckstatError, match="only 2 such cards"):
        cell_law(DECK, np.array([0, 1, 0, 1]), 2, {"hand": parse_known("2 Plage, Terrain=3", DECK)})


@pytest.mark.parametrize("text, words", [
    ("Laink, Zorro", ["position 8", "unknown card 'Zorro'"]),
    ("Terrain", ["write a count", "Terrain=1"]),
    ("other=1, reste=2", ["given twice"]),
    (" , ", ["names no card"]),
])
def test_bad_descriptions_name_the_item(text, words):
    with pytest.raises(DeckstatError) as info:
        parse_known(text, DECK, what="hand")
    for word in words:
        assert word in str(info.value)


def test_distinct_names_already_held_count_once():
    # Names A (2 copies), B (2), C (2) and 4 blanks: one cell per name. A is in hand; the library holds the other
    # A, both B, both C and the blanks (9 cards). distinct>=2 after 2 draws: at least one B or C among them.
    membership = np.array([[True], [True], [True], [False]])
    condition = Condition((0,), (3,), lambda a: a[0] >= 2, distinct=(True,), cell_names=(0, 1, 2, -1))
    library, held = np.array([1, 2, 2, 4]), np.array([1, 0, 0, 0])
    p = known_odds(library, membership, condition, base=[1], draws=[0, 2], seen_cells=held)
    assert p[0] == 0.0
    assert p[1] == pytest.approx(1 - comb(5, 2) / comb(9, 2), abs=1e-12)
    # Counting copies instead would take the second A for a new name.
    copies = Condition((0,), (3,), lambda a: a[0] >= 2)
    assert known_odds(library, membership, copies, base=[1], draws=[2])[0] > p[1]


def test_bounded_splits_are_every_split_once():
    bounds = np.array([2, 0, 3, 1])
    expected = [s for s in itertools.product(*(range(b + 1) for b in bounds)) if sum(s) == 3]
    assert [tuple(r) for r in bounded_splits(bounds, 3).tolist()] == sorted(expected)
    assert bounded_splits(bounds, 7).shape == (0, 4)


def fits(content, named, classes) -> bool:
    """Whether ``content`` splits into the named cards plus each class's count of its atoms, card by card."""
    if min(np.subtract(content, named)) < 0:
        return False
    rest = [a for a, k in enumerate(np.subtract(content, named)) for _ in range(k)]
    slots = [inside for inside, n in classes for _ in range(n)]

    def place(cards, slots):
        if not cards:
            return not slots
        return any(slot[cards[0]] and place(cards[1:], slots[:i] + slots[i + 1:]) for i, slot in enumerate(slots))

    return place(rest, slots)


@settings(max_examples=150, deadline=None)
@given(bounds=st.lists(st.integers(0, 3), min_size=1, max_size=4), data=st.data())
def test_zone_contents_are_the_contents_that_fit_each_once(bounds, data):
    n_atoms = len(bounds)
    named = [data.draw(st.integers(0, b)) for b in bounds]
    classes = data.draw(st.lists(st.tuples(st.lists(st.booleans(), min_size=n_atoms, max_size=n_atoms),
                                           st.integers(0, 3)), max_size=3))
    classes = [(np.array(inside), n) for inside, n in classes]
    size = sum(named) + sum(n for _, n in classes)
    got = zone_contents(np.array(bounds), np.array(named), classes, most=10**6)
    expected = [c for c in itertools.product(*(range(b + 1) for b in bounds))
                if sum(c) == size and fits(c, named, classes)]
    assert [tuple(r) for r in got.tolist()] == expected


@settings(max_examples=100, deadline=None)
@given(counts=st.lists(st.integers(0, 3), min_size=1, max_size=3), data=st.data())
def test_joint_contents_count_the_labelled_deals(counts, data):
    # Zones of random contents; the labelled cards (atom, copy) dealt to them, counted one deal at a time.
    n_zones = data.draw(st.integers(1, 3))
    contents = [np.array(data.draw(st.lists(st.lists(st.integers(0, 2), min_size=len(counts), max_size=len(counts)),
                                            min_size=1, max_size=3, unique_by=tuple)))
                for _ in range(n_zones)]
    # Each zone holds one number of cards: keep the contents of the first one's size.
    contents = [rows[rows.sum(axis=1) == rows[0].sum()] for rows in contents]
    choices, ways = joint_contents(np.array(counts), contents, most=10**6)
    cards = [a for a, k in enumerate(counts) for _ in range(k)]
    sizes = [int(rows[0].sum()) for rows in contents]
    deals: Counter = Counter()

    def deal(left, zone, picked):
        if zone == n_zones:
            key = tuple(tuple(np.bincount([cards[i] for i in p], minlength=len(counts)).tolist()) for p in picked)
            deals[key] += 1
            return
        for pick in itertools.combinations(left, sizes[zone]):
            deal([i for i in left if i not in pick], zone + 1, picked + [pick])

    deal(list(range(len(cards))), 0, [])
    got = {tuple(tuple(contents[z][row].tolist()) for z, row in enumerate(choice)): w
           for choice, w in zip(choices.tolist(), ways.tolist())}
    wanted = {key: n for key, n in deals.items()
              if all(any((row == np.array(key[z])).all() for row in contents[z]) for z in range(n_zones))}
    assert got == wanted


def test_enumerations_past_their_limit_are_refused():
    with pytest.raises(DeckstatError, match="more than 10 cases to weigh"):
        zone_contents(np.array([5, 5, 5]), np.zeros(3, dtype=int), [(np.array([True, True, True]), 4)], most=10)
    rows = bounded_splits(np.array([5, 5, 5]), 2)
    with pytest.raises(DeckstatError, match="more than 30 cases to weigh"):
        joint_contents(np.array([5, 5, 5]), [rows, rows], most=30)
