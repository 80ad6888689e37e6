"""Odds once cards are known, against hypergeometric values derived by hand."""

from math import comb

import numpy as np
import pytest
from helpers import SHARED_CARDDATA, sample_deck
from scipy import stats

import deckstat
from deckstat.deck import Deck
from deckstat.errors import DeckstatError

# The Wankul sample deck: 50 cards, 10 Terrains; its Personnages: 26 of cost 0 or 1, 14 of cost 2 or 3.
WANKUL = deckstat.load_deck(sample_deck("wankul"))
FIVE_PERSONNAGES = "3 Mamie Croquette, 2 Tonton Barbecue"
# The Duel Masters sample deck: 40 cards, 8 shield triggers, 5 shields set aside.
DUEL_MASTERS = deckstat.load_deck(sample_deck("duel-masters"))
TRIGGER = "[shield_trigger=1]>=1"


def p_of(result) -> list[float]:
    return result.table["p"].tolist()


def test_a_known_hand_leaves_the_rest_hypergeometric():
    result = deckstat.odds(WANKUL, "wankul", "Terrain>=1", known={"hand": FIVE_PERSONNAGES}, draws=[0, 1, 2, 3])
    assert p_of(result) == pytest.approx([1 - comb(35, d) / comb(45, d) for d in range(4)], abs=1e-12)
    # A Terrain held counts, and is one fewer in the library.
    two = deckstat.odds(WANKUL, "wankul", "Terrain>=2", known={"main": "Plage de Galets, 2 Mamie Croquette, "
                                                                       "2 Tonton Barbecue"}, draws=[1, 3])
    assert p_of(two) == pytest.approx([1 - comb(36, d) / comb(45, d) for d in (1, 3)], abs=1e-12)
    assert two.table["zone_size"].tolist() == [6, 8]


def test_gone_cards_leave_the_library(tmp_path):
    gone = tmp_path / "gone.csv"
    gone.write_text("name,count\nPlage de Galets,2\nCantine du Lycée,2\nCapitaine Baguette,3\n", encoding="utf-8")
    # 50 - 5 in hand - 7 gone = 38 cards, 6 of them Terrains.
    expected = [1 - comb(32, d) / comb(38, d) for d in (1, 2, 5)]
    from_file = deckstat.odds(WANKUL, "wankul", "Terrain>=1", known={"hand": FIVE_PERSONNAGES, "gone": gone},
                              draws=[1, 2, 5])
    assert p_of(from_file) == pytest.approx(expected, abs=1e-12)
    by_counts = deckstat.odds(WANKUL, "wankul", "Terrain>=1",
                              known={"hand": FIVE_PERSONNAGES, "défausse": "Terrain=4, other=3"}, draws=[1, 2, 5])
    assert p_of(by_counts) == pytest.approx(expected, abs=1e-12)
    assert from_file.summary[["hand", "gone", "library"]].values.tolist() == [[5, 7, 38]]


def test_a_hand_given_by_group_counts_is_averaged_over_its_cards():
    # One Terrain and 4 Personnages of unknown cost. No cheap card by then: the 4 are among the 14 expensive
    # ones, and the next d cards among the 19 other cards of the 45 left.
    result = deckstat.odds(WANKUL, "wankul", "[cost<=1]>=1", known={"hand": "Terrain=1, other=4"}, draws=[0, 1, 4])
    fail = [comb(14, 4) / comb(40, 4) * comb(19, d) / comb(45, d) for d in (0, 1, 4)]
    assert p_of(result) == pytest.approx([1 - f for f in fail], abs=1e-12)


def test_cards_known_at_the_bottom_change_the_answer():
    deck = Deck.from_table([{"name": "Plaine", "count": 4, "type": "Terrain"},
                            {"name": "Gobelin", "count": 16, "type": "Personnage"}])
    known = {"hand": "5 Gobelin", "bottom": "Terrain=4, other=1"}
    result = deckstat.odds(deck, "wankul", "Terrain>=1", known=known, draws=[1, 10, 11, 12])
    # The library is 10 Gobelins; the 11th card is the first of the block of 5, 4 of them Plaines.
    assert p_of(result) == pytest.approx([0.0, 0.0, 4 / 5, 1.0], abs=1e-12)
    mixed = deckstat.odds(deck, "wankul", "Terrain>=1", known={"hand": "5 Gobelin"}, draws=[1, 10])
    assert p_of(mixed) == pytest.approx([4 / 15, 1 - comb(11, 10) / comb(15, 10)], abs=1e-12)


def test_broken_shields_count_as_a_random_draw_from_the_shields():
    triggers = DUEL_MASTERS.count("[shield_trigger=1]")
    assert (DUEL_MASTERS.size, triggers) == (40, 8)
    result = deckstat.odds(DUEL_MASTERS, "duel-masters", TRIGGER, zone="set_aside", known={"broken": 2})
    assert p_of(result) == pytest.approx([1 - comb(32, 2) / comb(40, 2)], abs=1e-12)
    assert result.table["zone_size"].tolist() == [2]
    # Two triggers known among the 5 shields, one shield broken: a known one with probability 2/5, else one
    # of the 3 unknown shields, whose triggers are 6 among the 38 unknown cards.
    known = {"boucliers": "2 Brasier Soudain", "brisés": 1}
    one = deckstat.odds(DUEL_MASTERS, "duel-masters", TRIGGER, zone="set_aside", known=known)
    assert p_of(one) == pytest.approx([2 / 5 + 3 / 5 * 6 / 38], abs=1e-12)
    # Without broken shields the zone is the 5 shields: the 2 known triggers make the event certain.
    assert p_of(deckstat.odds(DUEL_MASTERS, "duel-masters", TRIGGER, zone="set_aside",
                              known={"set_aside": "2 Brasier Soudain"})) == [1.0]


def test_broken_shields_join_the_hand():
    # A hand of 5 cards without trigger, 2 shields broken: the broken ones and the next d cards are 2 + d of the
    # 35 unknown cards, 8 of them triggers.
    hand = {"hand": "[shield_trigger=1]=0, other=5", "broken": 2}
    result = deckstat.odds(DUEL_MASTERS, "duel-masters", TRIGGER, known=hand, draws=[0, 3])
    assert p_of(result) == pytest.approx([1 - comb(27, 2 + d) / comb(35, 2 + d) for d in (0, 3)], abs=1e-12)
    assert result.table["zone_size"].tolist() == [7, 10]


def test_draws_reaching_the_bottom_block_past_unknown_shields():
    deck = Deck.from_table([{"name": "Piège", "count": 8, "type": "Sort", "shield_trigger": 1},
                            {"name": "Bête", "count": 32, "type": "Créature", "shield_trigger": 0}])
    # 11 unknown cards (6 Pièges): the 5 shields and a library of 6; then a bottom block of 2 Pièges, 2 Bêtes.
    known = {"hand": "5 Bête", "gone": "20 Bête", "bottom": "2 Piège, 2 Bête"}
    library = stats.hypergeom(11, 6, 6)
    result = deckstat.odds(deck, "duel-masters", "Piège>=5", known=known, draws=[6, 7])
    assert p_of(result) == pytest.approx([library.sf(4), library.sf(4) + library.pmf(4) / 2], abs=1e-12)
    # One shield broken into the hand: it and the library are 7 of the 11 unknown cards.
    seven = stats.hypergeom(11, 6, 7)
    broken = deckstat.odds(deck, "duel-masters", "Piège>=5", known={**known, "broken": 1}, draws=[7])
    assert p_of(broken) == pytest.approx([seven.sf(4) + seven.pmf(4) / 2], abs=1e-12)


def test_turns_count_from_now_or_from_the_opening_hand():
    from_now = deckstat.odds(WANKUL, "wankul", "Terrain>=1", known={"hand": FIVE_PERSONNAGES}, turns=[1, 3])
    assert p_of(from_now) == pytest.approx([1 - comb(35, d) / comb(45, d) for d in (1, 3)], abs=1e-12)
    assert from_now.table[["seat", "turn", "draws"]].values.tolist() == [["now", 1, 1], ["now", 3, 3]]
    # Duel Masters' first player does not draw on turn 1: an opening hand without trigger stays so.
    opening = deckstat.odds(DUEL_MASTERS, "duel-masters", TRIGGER, known={"hand": "[shield_trigger=1]=0, other=5"},
                            turns=[1, 2], seat="first")
    assert p_of(opening) == pytest.approx([0.0, 8 / 35], abs=1e-12)
    assert opening.table["draws"].tolist() == [0, 1]


def test_compare_reads_the_same_hand_in_each_deck():
    other = deckstat.load_deck(sample_deck("wankul", "sample_deck_v2.csv"))
    assert other.count("Terrain") == 12
    result = deckstat.compare([WANKUL, other], "wankul", "Terrain>=1", known={"hand": "Terrain=0, other=5"},
                              draws=[1, 3])
    p_a = [1 - comb(35, d) / comb(45, d) for d in (1, 3)]
    p_b = [1 - comb(33, d) / comb(45, d) for d in (1, 3)]
    assert result.table["p_a"].tolist() == pytest.approx(p_a, abs=1e-12)
    assert result.table["diff"].tolist() == pytest.approx(np.subtract(p_b, p_a).tolist(), abs=1e-12)
    assert result.table["draws"].tolist() == [1, 3]
    with pytest.raises(DeckstatError, match="sample_deck_v2.csv: .*unknown card 'Yéti en Vacances'"):
        deckstat.compare([WANKUL, other], "wankul", "Terrain>=1", known={"hand": "Yéti en Vacances"}, draws=[1])


@pytest.mark.parametrize("known, kwargs, words", [
    ({"hand": "Zorro"}, {}, ["unknown card 'Zorro'"]),
    ({"hand": "4 Mamie Croquette"}, {}, ["4 copies of 'Mamie Croquette'", "the deck has 3"]),
    ({"hand": "Terrain=11"}, {}, ["Terrain=11", "only 10 such cards"]),
    ({"hand": FIVE_PERSONNAGES}, {"draws": [46]}, ["draws 46", "only 45 cards are left", "50 cards − 5 hand"]),
    ({"hand": FIVE_PERSONNAGES}, {"turns": [46]}, ["turn 46", "up to turn 45"]),
    ({"pioche": "Terrain=1"}, {}, ["unknown zone 'pioche'"]),
    ({"set_aside": "Plage de Galets"}, {}, ["Wankul sets no card aside"]),
    ({"broken": 1}, {}, ["broken 1", "Wankul sets only 0"]),
    ({"hand": FIVE_PERSONNAGES}, {"method": "simulate"}, ["exact", "does not apply"]),
    ({"hand": FIVE_PERSONNAGES}, {"keep": "Terrain>=1"}, ["keep does not apply", "no mulligan"]),
    ({"hand": FIVE_PERSONNAGES}, {"zone": "bottom"}, ["zone must be one of seen, hand, set_aside"]),
    ({"hand": FIVE_PERSONNAGES}, {"draws": [1], "turns": [1]}, ["not both"]),
])
def test_impossible_known_cards_are_refused(known, kwargs, words):
    with pytest.raises(DeckstatError) as info:
        deckstat.odds(WANKUL, "wankul", "Terrain>=1", known=known, **kwargs)
    for word in words:
        assert word in str(info.value)


def test_draws_without_known_cards_are_refused():
    with pytest.raises(DeckstatError, match="draws counts the cards drawn after a known hand"):
        deckstat.odds(WANKUL, "wankul", "Terrain>=1", draws=[1])


@pytest.mark.skipif(not (SHARED_CARDDATA / "wankul_octerry_cards.csv").exists(), reason="no shared card data")
def test_real_wankul_decklist_with_printings_resolves_known_names(tmp_path):
    pool_path = SHARED_CARDDATA / "wankul_octerry_cards.csv"
    pool = deckstat.load_deck(pool_path)
    terrains = [label for label, kind in zip(pool.labels, pool.cards["type"]) if kind == "Terrain"][:4]
    lines = [f"3 {t}" for t in terrains] + ["2 VENDEUR #35", "2 VENDEUR #36", "3 LAINK #149", "3 DRESSEUSE"]
    personnages = [label for label, kind, name in zip(pool.labels, pool.cards["type"], pool.names)
                   if kind == "Personnage" and "#" not in label and name not in ("LAINK", "DRESSEUSE", "VENDEUR")]
    lines += [f"3 {p}" for p in personnages[:9]] + [f"1 {personnages[9]}"]
    path = tmp_path / "deck.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    deck = deckstat.load_deck(path, pool=pool_path)
    assert (deck.size, deck.count("Terrain")) == (50, 12)
    result = deckstat.odds(deck, "wankul", "Terrain>=1", known={"hand": "LAINK, 2 DRESSEUSE, VENDEUR #36, "
                                                                        "vendeur (Laink)"}, draws=[1, 2])
    # 5 Personnages held: 12 Terrains among the 45 other cards.
    assert p_of(result) == pytest.approx([1 - comb(33, d) / comb(45, d) for d in (1, 2)], abs=1e-12)
    with pytest.raises(DeckstatError, match="matches 2 cards"):
        deckstat.odds(deck, "wankul", "Terrain>=1", known={"hand": "VENDEUR"}, draws=[1])


def test_a_name_held_counts_once_in_a_distinct_count():
    # Licum's game deck: 30 cards, 11 Improvisateurs, Ginette Boisvert twice. Both copies held: a second name
    # needs an Improvisateur of another name, 9 of them among the 28 cards left.
    licum = deckstat.load_deck(sample_deck("licum"))
    both = deckstat.odds(licum, "licum", "distinct(Improvisateur)>=2", known={"hand": "2 Ginette Boisvert"},
                         draws=[0, 1, 2])
    assert p_of(both) == pytest.approx([0.0] + [1 - comb(19, d) / comb(28, d) for d in (1, 2)], abs=1e-12)
    # One copy held and the other gone: the same cards are left to draw.
    gone = deckstat.odds(licum, "licum", "distinct(Improvisateur)>=2",
                         known={"hand": "Ginette Boisvert", "gone": "Ginette Boisvert"}, draws=[1, 2])
    assert p_of(gone) == pytest.approx(p_of(both)[1:], abs=1e-12)
