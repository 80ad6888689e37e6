"""The Duel Masters mana play model: hand-made games, the literal simulator, the exact reduction, errors, real data."""

from __future__ import annotations

import csv
import importlib.util
import math

import numpy as np
import pytest
from scipy.stats import hypergeom

import deckstat
from deckstat.engines.kernel import deal_order
from deckstat.errors import DeckstatError
from deckstat.games.profiles import get_profile
from deckstat.play.base import schedule
from deckstat.play.mana import ManaModel, _CivFirst
from tests.helpers import DATA, ROOT, SHARED_CARDDATA

PROFILE = get_profile("duel-masters")
_spec = importlib.util.spec_from_file_location("literal_play", ROOT / "scripts" / "literal_play.py")
literal = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(literal)


def card(name, civilization, cost, type_="Sort", race="", count=1, **more):
    return {"name": name, "count": count, "type": type_, "civilization": civilization, "race": race,
            "cost": cost, **more}


def make_model(records, policy=""):
    deck = deckstat.Deck.from_table(records).with_synonyms(PROFILE.synonyms)
    return ManaModel(deck, PROFILE, policy=policy)


def play(model, hand, library, target_rows, max_turn=6, seat="first"):
    """First playable turn of one hand-made game (rows), target = the given rows."""
    hand = np.asarray(hand, dtype=np.int16)[:, None]
    library = np.asarray(library, dtype=np.int16)[:, None]
    target = np.isin(np.arange(model.n_rows), target_rows)
    return int(model.first_turns(hand, library, schedule(PROFILE, seat, max_turn, len(library)), [target])[0, 0])


def deal(deck, n, seed):
    dealt = deal_order(deck.counts, np.zeros((len(deck.cards), 0), np.int8), n, np.random.default_rng(seed),
                       hand_size=PROFILE.hand_size, set_aside=PROFILE.set_aside)
    return dealt["hand"], dealt["library"]


# -- hand-made games ---------------------------------------------------------------------------------------------

FIRE_WATER = [card("Flamme", "Feu", 2), card("Goutte", "Eau", 5), card("Braise", "Feu", 6)]


def test_one_charge_a_turn_sets_the_turn():
    # Fire card of cost 2 in hand, a Fire card to charge: 1 mana on turn 1, 2 on turn 2.
    model = make_model(FIRE_WATER)
    assert play(model, [0, 2, 1, 1, 1], [1] * 30, [0]) == 2
    # Cost 2 on the draw (second seat) is also turn 2: one charge a turn, whatever the draws.
    assert play(model, [0, 2, 1, 1, 1], [1] * 30, [0], seat="second") == 2


def test_a_card_of_the_civilization_must_be_in_mana():
    model = make_model(FIRE_WATER)
    # Only Water to charge until the Fire card drawn on turn 4 (library position 2, first seat).
    assert play(model, [0, 1, 1, 1, 1], [1, 1, 2] + [1] * 27, [0]) == 4
    # No Fire card ever besides the last copy of the target: never (turn 7 with 6 turns followed).
    assert play(model, [0, 1, 1, 1, 1], [1] * 30, [0]) == 7


def test_civ_first_charges_a_second_copy_and_first_drawn_does_not():
    model = make_model(FIRE_WATER)
    hand, library = [1, 1, 0, 0, 1], [1] * 30
    # A second copy brings the missing Fire: charged on turn 1, the other copy is cast on turn 2.
    assert play(model, hand, library, [0]) == 2
    # The naive policy charges the Water cards in hand order and never a target copy: never Fire.
    assert play(make_model(FIRE_WATER, "first_drawn"), hand, library, [0]) == 7


def test_civ_first_prefers_the_missing_civilization_over_the_expensive_card():
    # Hand: target, Water 5, Fire 6, Water 5, Water 5. civ_first charges the Fire card on turn 1;
    # first_drawn charges Water, Fire (turn 2: the card in hand longest that is not the target).
    records = [card("Flamme", "Feu", 1), card("Goutte", "Eau", 5), card("Braise", "Feu", 6)]
    hand, library = [0, 1, 2, 1, 1], [1] * 30
    assert play(make_model(records), hand, library, [0]) == 1
    assert play(make_model(records, "first_drawn"), hand, library, [0]) == 2


def test_least_needed_card_is_the_most_expensive():
    # Mana has Fire; the Water card of cost 9 goes before the cost-1 one, whatever the hand order.
    records = [card("Flamme", "Feu", 3), card("Petite", "Eau", 1), card("Grosse", "Eau", 9), card("Braise", "Feu", 6)]
    model = make_model(records)
    hand = np.array([[0], [3], [1], [2], [1]], dtype=np.int16)
    charge = _CivFirst(model, np.array([True, False, False, False]), np.zeros(4, dtype=bool), np.array([], int)).choose
    counts = np.zeros((4, 1), dtype=np.int16)
    np.add.at(counts, (hand[:, 0], 0), 1)
    mana = np.zeros((len(model.kinds), 1), dtype=np.int16)
    assert charge(counts, mana, np.zeros(1, bool), 0).tolist() == [3]  # Fire missing: Braise
    mana[model.kinds.index(frozenset({"feu"}))] = 1
    assert charge(counts, mana, np.zeros(1, bool), 0).tolist() == [2]  # then the cost-9 card


def test_multicolour_mana_enters_tapped():
    # Target Fire cost 1; the only Fire to charge is a Fire;Nature card: tapped on turn 1, usable on turn 2.
    records = [card("Flamme", "Feu", 1), card("Chimère", "Feu;Nature", 4), card("Goutte", "Eau", 5)]
    assert play(make_model(records), [0, 1, 2, 2, 2], [2] * 30, [0]) == 2
    # A mono Fire card charged on turn 1 pays on turn 1.
    records[1] = card("Braise", "Feu", 4)
    assert play(make_model(records), [0, 1, 2, 2, 2], [2] * 30, [0]) == 1


def test_multicolour_mana_counts_as_each_of_its_civilizations():
    # Target Fire;Nature cost 2. Turn 1: the Fire;Nature card (tapped). Turn 2: a Water card; the two pay,
    # the multicolour card giving both civilizations (one card cannot pay twice, but one card may cover two).
    records = [card("Hydre", "Feu;Nature", 2), card("Chimère", "Feu;Nature", 4), card("Goutte", "Eau", 5)]
    assert play(make_model(records), [0, 1, 2, 2, 2], [2] * 30, [0]) == 2
    # A multicolour target needs each of its civilizations: with Fire and Water only, never.
    records[1] = card("Braise", "Feu", 4)
    assert play(make_model(records), [0, 1, 2, 2, 2], [2] * 30, [0]) == 7


EVOLUTION = [
    card("Lézard", "Feu", 1, "Créature", "Dragonoïde"),
    card("Lézard Suprême", "Feu", 2, "Créature évoluée", "Dragonoïde"),
    card("Braise", "Feu", 6),
    card("Goutte", "Eau", 5),
]


def test_evolution_on_a_base_cast_earlier():
    model = make_model(EVOLUTION)
    # Turn 1: charge Braise (Fire missing; the evolution and the base are the last of theirs), cast the base.
    # Turn 2: two mana, the base is in play: evolve.
    assert play(model, [1, 0, 2, 3, 3], [3] * 30, [1]) == 2
    # Without any base creature in the deck game, never.
    assert play(model, [1, 2, 3, 3, 3], [3] * 30, [1]) == 7


def test_evolution_and_its_base_the_same_turn_need_mana_for_both():
    model = make_model(EVOLUTION)
    # Base drawn on turn 3 (library position 1). Mana Braise, Braise, Goutte: 3 mana, two of them Fire,
    # one for each card: base (1) and evolution (2) the same turn.
    assert play(model, [1, 2, 2, 3, 3], [3, 0] + [3] * 28, [1]) == 3
    # Only one Fire mana: the base alone on turn 3, the evolution on turn 4.
    assert play(model, [1, 2, 3, 3, 3], [3, 0] + [3] * 28, [1]) == 4


def test_evolves_from_names_the_base_race():
    records = EVOLUTION[:1] + [card("Dragon du Fournil", "Feu", 2, "Créature évoluée", "Dragon",
                                    evolves_from="Dragonoïde")] + EVOLUTION[2:]
    assert play(make_model(records), [1, 0, 2, 3, 3], [3] * 30, [1]) == 2
    del records[1]["evolves_from"]
    assert play(make_model(records), [1, 0, 2, 3, 3], [3] * 30, [1]) == 7


def test_evolution_flag_column_and_french_headers(tmp_path):
    path = tmp_path / "deck.csv"
    path.write_text("Nom,Quantité,Type,Civilisation,Races,Coût,Évolution,Évolue de\n"
                    "Lézard,1,Créature,Feu,Dragonoïde,1,0,\n"
                    "Dragon du Fournil,1,Créature,Feu,Dragon,2,1,Dragonoïde\n"
                    "Braise,1,Sort,Feu,,6,0,\n"
                    "Goutte,37,Sort,Eau,,5,0,\n", encoding="utf-8")
    deck = deckstat.load_deck(path).with_synonyms(PROFILE.synonyms)
    model = ManaModel(deck, PROFILE)
    assert model.is_evolution.tolist() == [False, True, False, False]
    assert model.bases[1].tolist() == [True, False, False, False]
    assert play(model, [1, 0, 2, 3, 3], [3] * 30, [1]) == 2


def test_a_group_target_is_playable_when_any_card_is():
    model = make_model(FIRE_WATER)
    # Flamme (cost 2) in hand, Braise (6) too: the group is playable on turn 2, as Flamme alone.
    assert play(model, [0, 2, 1, 1, 1], [1] * 30, [0, 2]) == 2
    # Braise alone: turn 6.
    assert play(model, [0, 2, 1, 1, 1], [1] * 30, [2]) == 6


def test_drawing_the_last_card_loses():
    # A library of 3 cards: on the play, the last one is drawn on turn 4, when the game is lost.
    records = [card("Flamme", "Feu", 4), card("Braise", "Feu", 6)]
    model = make_model(records)
    assert play(model, [0, 1, 1, 1, 1], [1, 1, 1], [0], max_turn=6) == 7
    records[0]["cost"] = 3
    assert play(make_model(records), [0, 1, 1, 1, 1], [1, 1, 1], [0], max_turn=6) == 3


def test_zero_cost_needs_no_mana():
    records = [card("Gratuit", "Feu", 0), card("Goutte", "Eau", 5)]
    assert play(make_model(records), [0, 1, 1, 1, 1], [1] * 30, [0]) == 1


# -- mana numbers (« leur chiffre de mana ») ----------------------------------------------------------------------

def test_a_card_gives_its_mana_number():
    # Braise gives 2 mana: charged on turns 1 and 2, it pays Flamme (cost 4) on turn 2, not 4.
    records = [card("Flamme", "Feu", 4, mana_number=1), card("Braise", "Feu", 6, mana_number=2)]
    assert play(make_model(records), [0, 1, 1, 1, 1], [1] * 30, [0]) == 2
    records[1]["mana_number"] = 1
    assert play(make_model(records), [0, 1, 1, 1, 1], [1] * 30, [0]) == 4


def test_a_card_of_mana_number_zero_gives_no_mana_nor_its_civilization():
    # Cendre (mana 0) is charged first on turn 1 under first_drawn: Flamme (cost 2) waits for two cards that give
    # mana, one of them Feu. Under civ_first the Feu Cendre does not count as bringing Feu: Braise is charged first,
    # then Goutte (it gives mana, Cendre does not).
    records = [card("Flamme", "Feu", 2, mana_number=1), card("Cendre", "Feu", 1, mana_number=0),
               card("Goutte", "Eau", 3, mana_number=1), card("Braise", "Feu", 1, mana_number=1)]
    first_drawn = make_model(records, "first_drawn")
    assert play(first_drawn, [0, 1, 2, 2, 2], [2] * 30, [0]) == 7  # Cendre, then Gouttes: no Feu mana, ever…
    assert play(first_drawn, [0, 1, 2, 3, 2], [2] * 30, [0]) == 3  # …Cendre, Goutte, Braise: Feu on turn 3
    assert play(make_model(records), [0, 1, 2, 3, 2], [2] * 30, [0]) == 2  # Braise then Goutte


def test_mana_numbers_are_read_from_the_file(tmp_path):
    path = tmp_path / "deck.csv"
    path.write_text("nom;quantité;type;civilisation;coût;chiffre de mana\nFlamme;20;Sort;Feu;4;2\n"
                    "Goutte;20;Sort;Eau;1;0\n", encoding="utf-8")
    deck = deckstat.load_deck(path)
    assert deck.cards["mana_number"].tolist() == [2, 0]
    # "mana" beside a cost column is the mana number; alone, it is the cost.
    path.write_text("name,count,civilization,cost,mana\nFlamme,40,Fire,4,2\n", encoding="utf-8")
    assert deckstat.load_deck(path).cards[["cost", "mana_number"]].values.tolist() == [[4, 2]]
    path.write_text("name,count,civilization,mana\nFlamme,40,Fire,4\n", encoding="utf-8")
    assert deckstat.load_deck(path).cards["cost"].tolist() == [4]
    # Headers are compared without their punctuation, "Mana :" beside "Coût" as "mana" is.
    path.write_text("nom;quantité;civilisation;Mana :;Coût\nFlamme;40;Feu;2;4\n", encoding="utf-8")
    assert deckstat.load_deck(path).cards[["cost", "mana_number"]].values.tolist() == [[4, 2]]
    table = deckstat.Deck.from_table([card("Flamme", "Feu", 4, count=40, mana=2)])
    assert ManaModel(table.with_synonyms(PROFILE.synonyms), PROFILE).mana_numbers.tolist() == [2]


def test_an_event_reads_mana_as_the_file_does():
    # Beside a cost column, [mana…] asks for the mana number the file's "Mana" column holds, not the cost.
    by_hand = [card("Flamme", "Feu", 4, count=10, mana=2), card("Goutte", "Eau", 2, count=30, mana=1)]
    loaded = [card("Flamme", "Feu", 4, count=10, mana_number=2), card("Goutte", "Eau", 2, count=30, mana_number=1)]
    for deck in (deckstat.Deck.from_table(by_hand), deckstat.Deck.from_table(loaded)):
        assert (deck.count("[mana>=2]"), deck.count("[cost>=2]"), deck.count("[chiffre de mana=1]")) == (10, 40, 30)
    alone = deckstat.Deck.from_table([{"name": "Flamme", "count": 10, "mana": 4}])
    assert alone.count("[mana>=2]") == alone.count("[cost>=2]") == 10  # "mana" alone is the cost


def test_the_assumed_mana_number_is_said():
    deck = deckstat.load_deck(DATA / "duel-masters" / "sample_deck.csv")
    result = deckstat.curve(deck, "duel-masters", cards="Gobelin Chalumeau", turns=[2], seat="first")
    (note,) = result.provenance["play_notes"]
    assert "no mana-number column" in note and "every card is assumed to give 1 mana" in note
    with_column = deck.cards.assign(mana_number=1)
    result = deckstat.curve(deckstat.Deck.from_table(with_column), "duel-masters", cards="Gobelin Chalumeau",
                            turns=[2], seat="first")
    assert result.provenance["play_notes"] == [] and result.table["method"].iloc[0] == "exact"
    two = deckstat.curve(deckstat.Deck.from_table(with_column.assign(mana_number=2)), "duel-masters",
                         cards="Gobelin Chalumeau", turns=[2], seat="first", n_trials=4000, rng=1)
    assert two.table["method"].iloc[0] == "simulate"  # the reduction holds for mana numbers of 1 only


@pytest.mark.parametrize(("value", "words"), [("", "has no value"), ("deux", "'deux'"), ("1.5", "1.5"),
                                              ("-1", "-1")])
def test_a_bad_mana_number_names_the_column_and_the_card(value, words):
    records = [card("Flamme", "Feu", 2, mana_number=1), card("Braise", "Feu", 1, mana_number=value)]
    with pytest.raises(DeckstatError) as error:
        make_model(records)
    message = str(error.value)
    assert "column 'mana_number' (chiffre de mana): card 'Braise'" in message and words in message, message


# -- the literal simulator, game by game --------------------------------------------------------------------------

def read_records(path):
    with open(path, encoding="utf-8") as handle:
        records = [dict(row) for row in csv.DictReader(handle)]
    for record in records:
        if "évolue_de" in record:
            record["evolves_from"] = record.pop("évolue_de")
    return records


def same_as_literal(records, deck, targets, policy, seat, n=400, seed=7, max_turn=12, effect_draws=None):
    model = ManaModel(deck.with_synonyms(PROFILE.synonyms), PROFILE, policy=policy)
    hand, library = deal(deck, n, seed)
    turns = schedule(PROFILE, seat, max_turn, library.shape[0])
    got = model.first_turns(hand, library, turns, targets, effect_draws=effect_draws)
    cards = literal.cards_of(records)
    drawn = [int(d) for d in turns.drawn]
    draws = None if effect_draws is None else [int(d) for d in effect_draws]
    for i, target in enumerate(targets):
        rows = set(np.flatnonzero(target).tolist())
        expected = [literal.first_turn(cards, hand[:, j].tolist(), library[:, j].tolist(), drawn, rows, policy,
                                       effect_draws=draws) for j in range(n)]
        assert got[i].tolist() == expected, f"target {i}"
    return got


@pytest.mark.parametrize("policy", ["civ_first", "first_drawn"])
@pytest.mark.parametrize("seat", ["first", "second"])
@pytest.mark.parametrize("name", ["sample_deck.csv", "evolution_deck.csv"])
def test_model_matches_literal_simulator_game_by_game(name, seat, policy):
    path = DATA / "duel-masters" / name
    deck = deckstat.load_deck(path)
    rows = np.arange(len(deck.cards))
    targets = [rows == i for i in rows] + [np.isin(rows, [3, 5]), np.isin(rows, [0, 8, 11])]
    got = same_as_literal(read_records(path), deck, targets, policy, seat)
    assert (got <= 12).any(axis=1).all()  # every card is playable in some game


@pytest.mark.parametrize("policy", ["civ_first", "first_drawn"])
@pytest.mark.parametrize("seed", range(3))
def test_model_matches_literal_simulator_with_draw_effects(seed, policy):
    # Random draw effects on the sample deck (some drawing 3, so that decks run out by turn 14): the same first
    # turn as the literal game, game by game, with the effects played.
    path = DATA / "duel-masters" / "sample_deck.csv"
    deck = deckstat.load_deck(path)
    rng = np.random.default_rng([seed, 71])
    rows = np.arange(len(deck.cards))
    effect_draws = rng.integers(1, 4, len(rows)) * (rng.random(len(rows)) < 0.4)
    targets = [rows == i for i in rows] + [np.isin(rows, [3, 5])]
    seat = ("first", "second")[seed % 2]
    with_effects = same_as_literal(read_records(path), deck, targets, policy, seat, n=150, seed=seed, max_turn=14,
                                   effect_draws=effect_draws)
    assert with_effects.max() <= 15 and (with_effects < 15).any()


@pytest.mark.parametrize("seat", ["first", "second"])
def test_model_matches_literal_simulator_with_mana_numbers(seat):
    # Mana numbers 0, 1 and 2, a multicolour card giving 2 (tapped the turn it comes), an evolution on a base.
    records = [card("Flamme", "Feu", 5, count=4, mana_number=2), card("Cendre", "Feu", 1, count=6, mana_number=0),
               card("Goutte", "Eau", 3, count=8), card("Vague", "Eau", 6, count=6, mana_number=2),
               card("Hydre", "Feu;Eau", 4, count=4, mana_number=2), card("Pousse", "Nature", 2, count=6),
               card("Lézard", "Nature", 2, "Créature", "Bête", count=3, mana_number=0),
               card("Bête Suprême", "Nature;Feu", 5, "Créature évoluée", "Bête", count=3)]
    records = [{"mana_number": 1, **r} for r in records]
    deck = deckstat.Deck.from_table(records)
    rows = np.arange(len(records))
    targets = [rows == i for i in rows] + [np.isin(rows, [0, 5]), np.isin(rows, [3, 7])]
    for policy in ("civ_first", "first_drawn"):
        same_as_literal([{**r, "mana_number": str(r.get("mana_number", 1))} for r in records], deck, targets,
                        policy, seat, n=300)


def test_the_largest_mana_numbers_allowed_count_as_the_literal_simulator_counts_them():
    # Four Gouttes of 10,000 mana each exceed what a 16-bit counter holds: the Feu card they wait for still pays.
    records = [card("Flamme", "Feu", 10_000, count=1, mana_number=1), card("Braise", "Feu", 1, count=2, mana_number=1),
               card("Goutte", "Eau", 10_000, count=37, mana_number=10_000)]
    deck = deckstat.Deck.from_table(records)
    rows = np.arange(len(records))
    # 50 games, not more: the literal simulator spends about a second on each (it counts 10,000 mana one by one),
    # and 19 of these games pay their Flamme after turn 6, each compared with the literal game by game.
    got = same_as_literal([{**r, "mana_number": str(r["mana_number"])} for r in records], deck, [rows == 0],
                          "first_drawn", "first", n=50, max_turn=20)
    paid_late = (got[0] > 6) & (got[0] <= 20)
    assert paid_late.sum() >= 10  # many games see their Braise after four Gouttes, and pay


@pytest.mark.parametrize("column", ["cost", "mana_number"])
def test_a_cost_or_mana_number_beyond_the_limit_is_refused(column):
    records = [card("Flamme", "Feu", 2, mana_number=1), card("Braise", "Feu", 1, mana_number=1)]
    records[1][column] = 1e20  # read from a file, 99999999999999999999 is this float
    with pytest.raises(DeckstatError, match="as a whole number from 0 to 10,000"):
        make_model(records)


def test_model_matches_literal_simulator_multicolour_deck():
    records = [card("Hydre", "Feu;Nature", 3, count=4), card("Chimère", "Feu;Eau", 4, count=4),
               card("Braise", "Feu", 2, count=8), card("Pousse", "Nature", 2, count=8),
               card("Goutte", "Eau", 3, count=8), card("Tri", "Feu;Nature;Eau", 5, count=4),
               card("Lézard", "Nature", 1, "Créature", "Bête", count=2),
               card("Bête Suprême", "Feu;Nature", 3, "Créature évoluée", "Bête", count=2)]
    deck = deckstat.Deck.from_table(records)
    rows = np.arange(len(records))
    targets = [rows == i for i in rows] + [np.isin(rows, [0, 7])]
    for policy in ("civ_first", "first_drawn"):
        same_as_literal(records, deck, targets, policy, "first", n=300)


# -- the exact reduction ------------------------------------------------------------------------------------------

def seen_counts(hand, library, drawn, mask):
    """Cards of ``mask`` among the opening hand and the first ``drawn`` library cards, per trial."""
    return mask[hand].sum(axis=0) + mask[library[:drawn]].sum(axis=0)


@pytest.mark.parametrize("copies", [1, 4, 10, 20, 35])
@pytest.mark.parametrize("seat", ["first", "second"])
def test_reduction_holds_game_by_game(copies, seat):
    # Many copies of the target: the hand never runs out of cards to charge, a copy is kept.
    records = [card("Flamme", "Feu", 3, count=copies), card("Braise", "Feu", 5, count=(40 - copies) // 2),
               card("Goutte", "Eau", 2, count=40 - copies - (40 - copies) // 2)]
    deck = deckstat.Deck.from_table([r for r in records if r["count"]])
    model = ManaModel(deck.with_synonyms(PROFILE.synonyms), PROFILE)
    target = np.arange(len(deck.cards)) == 0
    reduction = model.reduction(target)
    assert reduction.from_turn == 3
    hand, library = deal(deck, 20_000, 11)
    turns = schedule(PROFILE, seat, 12, library.shape[0])
    first = model.first_turns(hand, library, turns, [target])[0]
    for t in range(1, 13):
        counts = [seen_counts(hand, library, int(turns.drawn[t]), mask) for mask in reduction.sets]
        counts = [np.minimum(c, cap) for c, cap in zip(counts, reduction.caps)]
        expected = reduction.holds(counts) & (t >= reduction.from_turn)
        assert ((first <= t) == expected).all(), f"turn {t}"


def test_reduction_matches_a_hypergeometric_hand_computation():
    # Sample deck: Gobelin Chalumeau, 4 copies, Feu, cost 2; 22 Feu cards in 40. Seen on turn t (first
    # seat): 5 + t - 1 of the 40 cards (shields are as random as the rest). P(X >= 1 and Feu >= 2)
    # = P(X >= 1) - P(exactly one Feu card, and it is an X).
    deck = deckstat.load_deck(DATA / "duel-masters" / "sample_deck.csv")
    model = ManaModel(deck.with_synonyms(PROFILE.synonyms), PROFILE)
    target = np.asarray(deck.names) == "Gobelin Chalumeau"
    reduction = model.reduction(target)
    assert reduction.from_turn == 2 and "Gobelin Chalumeau" in reduction.text
    n = 200_000
    hand, library = deal(deck, n, 5)
    turns = schedule(PROFILE, "first", 10, library.shape[0])
    first = model.first_turns(hand, library, turns, [target])[0]
    for t in range(1, 11):
        seen = 5 + int(turns.drawn[t])
        exact = 0.0 if t < 2 else (1 - hypergeom(40, 4, seen).pmf(0)) - hypergeom(40, 22, seen).pmf(1) * 4 / 22
        simulated = float((first <= t).mean())
        error = math.sqrt(max(exact * (1 - exact), 1e-12) / n)
        assert abs(simulated - exact) <= 4.5 * error + 1e-12, (t, simulated, exact)
    assert abs(hypergeom(40, 4, 6).sf(0) - hypergeom(40, 22, 6).pmf(1) * 4 / 22 - 0.4836) < 1e-3


def test_no_reduction_where_the_policy_does_not_make_one():
    evolution = make_model(EVOLUTION)
    assert evolution.reduction(np.array([False, True, False, False])) is None  # evolution
    assert evolution.reduction(np.array([True, True, False, False])) is None  # a group
    assert make_model(EVOLUTION, "first_drawn").reduction(np.array([True, False, False, False])) is None
    multicolour = make_model([card("Flamme", "Feu", 2), card("Chimère", "Feu;Nature", 4)])
    assert multicolour.reduction(np.array([True, False])) is None  # a tapped charge could cost a turn


# -- errors -------------------------------------------------------------------------------------------------------

def test_missing_cost_column():
    with pytest.raises(DeckstatError, match="no column 'cost' \\(coût\\).*add a 'coût' column"):
        make_model([{"name": "Flamme", "civilization": "Feu"}])


@pytest.mark.parametrize("cost, words", [(None, "has no value"), ("beaucoup", "has cost 'beaucoup'"),
                                         (-1, "has cost -1"), (2.5, "has cost 2.5")])
def test_bad_cost(cost, words):
    with pytest.raises(DeckstatError, match=f"column 'cost' \\(coût\\): card 'Flamme' {words}; the mana model needs "
                                            "every card's cost as a whole number"):
        make_model([card("Flamme", "Feu", cost), card("Goutte", "Eau", 2)])


def test_missing_civilization():
    with pytest.raises(DeckstatError, match="no column 'civilization' \\(civilisation\\)"):
        make_model([{"name": "Flamme", "cost": 2}])
    with pytest.raises(DeckstatError, match="card 'Goutte' has no value; the mana model needs every card's "
                                            "civilization .*Feu;Nature for a multicolour card"):
        make_model([card("Flamme", "Feu", 2), card("Goutte", "", 2)])


def test_evolution_without_race():
    with pytest.raises(DeckstatError, match="evolution creature 'Suprême' has no race.*évolue_de"):
        make_model([card("Suprême", "Feu", 2, "Créature évoluée"), card("Goutte", "Eau", 2)])


def test_unknown_policy():
    with pytest.raises(DeckstatError, match="unknown policy 'greedy'.*civ_first, first_drawn"):
        make_model(FIRE_WATER, "greedy")


# -- real card pools ----------------------------------------------------------------------------------------------

needs_carddata = pytest.mark.skipif(not (SHARED_CARDDATA / "dm_latepate64_tcg_cards.csv").exists(),
                                    reason="real card data not available")


def pool_rows():
    with open(SHARED_CARDDATA / "dm_latepate64_tcg_cards.csv", encoding="utf-8") as handle:
        return {row["name"]: row for row in csv.DictReader(handle)}


def check_curves(first, max_turn):
    for row in first:
        curve = np.array([(row <= t).mean() for t in range(1, max_turn + 1)])
        assert ((curve >= 0) & (curve <= 1)).all() and (np.diff(curve) >= 0).all()


@needs_carddata
def test_real_pool_deck_with_evolutions_and_multicolour(tmp_path):
    pool = pool_rows()
    evolution = next(r for r in pool.values() if r["is_evolution"] == "1" and r["civilizations"] == "Fire"
                     and r["races"])
    race = evolution["races"].split(";")[0]
    bases = [r for r in pool.values() if r["is_evolution"] == "0" and r["type"] == "Creature"
             and race in r["races"].split(";")][:2]
    multicolour = next(r for r in pool.values() if r["civilizations"] == "Fire;Nature")
    fillers = [r for r in pool.values() if r["civilizations"] in ("Fire", "Nature") and r["is_evolution"] == "0"
               and r not in bases][:6]
    chosen = [evolution, *bases, multicolour, *fillers]
    assert len(chosen) == 10
    columns = ["name", "type", "civilizations", "races", "cost", "is_evolution"]
    path = tmp_path / "real.csv"
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["count", *columns])
        for row in chosen:
            writer.writerow([4, *(row[c] for c in columns)])
    assert deckstat.validate(deckstat.load_deck(path), "duel-masters").summary["legal"].all()
    deck = deckstat.load_deck(path)
    records = [{"name": r["name"], "count": 4, "type": r["type"], "civilization": r["civilizations"],
                "race": r["races"], "cost": r["cost"], "is_evolution": r["is_evolution"]} for r in chosen]
    rows = np.arange(10)
    targets = [rows == i for i in rows]
    for policy in ("civ_first", "first_drawn"):
        first = same_as_literal(records, deck, targets, policy, "first", n=300, max_turn=10)
        check_curves(first, 10)
    model = ManaModel(deck.with_synonyms(PROFILE.synonyms), PROFILE)
    assert model.is_evolution.tolist()[0] and model.bases[0, 1:3].all()
    hand, library = deal(deck, 20_000, 3)
    first = model.first_turns(hand, library, schedule(PROFILE, "first", 10, library.shape[0]), targets)
    check_curves(first, 10)
    assert (first[0] <= 10).mean() > 0.2  # the evolution is played in a good share of games by turn 10


@needs_carddata
def test_real_decklists():
    pool = pool_rows()
    with open(SHARED_CARDDATA / "dm_decklists_jasfreaq.csv", encoding="utf-8") as handle:
        lines = list(csv.DictReader(handle))
    for deck_name in sorted({line["deck_name"] for line in lines}):
        records = []
        for line in lines:
            if line["deck_name"] == deck_name:
                row = pool[line["card_name"]]
                records.append({"name": row["name"], "count": int(line["quantity"]), "type": row["type"],
                                "civilization": row["civilizations"], "race": row["races"], "cost": row["cost"],
                                "is_evolution": row["is_evolution"]})
        deck = deckstat.Deck.from_table(records)
        assert deck.size == 40
        rows = np.arange(len(records))
        first = same_as_literal(records, deck, [rows == i for i in rows], "civ_first", "second", n=200,
                                max_turn=10)
        check_curves(first, 10)
