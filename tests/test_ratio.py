"""The resource ratio sweep: deck rebuilding, agreement with closed forms, target decisions, CLI.

Exact results are checked against hypergeometric formulas (scipy.stats) and
full enumeration to 1e-12. Simulated results must lie within z standard
errors of the exact values, with z the Bonferroni-corrected normal quantile
for a family-wise false-alarm rate of 1e-3 (as in test_simulate.py); seeds
are fixed, so the tests are deterministic.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pandas as pd
import pytest
from helpers import SHARED_CARDDATA, assert_user_error, ok, ok_json, run, sample_deck, z_for
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import hypergeom, norm

import deckstat
from deckstat.engines import runner
from deckstat.errors import DeckstatError
from deckstat.present.format import format_probability, ratio_decision
from deckstat.questions.ratio import RATIO_COLUMNS, _decide, _status, with_resource_count

WANKUL = sample_deck("wankul")
SIZE, HAND = 50, 5


@functools.cache
def no_terrain(size: int, terrains: int, seen: int) -> float:
    """P(no Terrain among ``seen`` cards from ``size`` holding ``terrains``)."""
    return float(hypergeom(M=size, n=terrains, N=seen).pmf(0))


def wankul_exact(k: int, turn: int, *, mulligan: bool = True) -> dict:
    """Closed forms for the Wankul bottom mulligan (keep a hand with a Terrain, else 5 new cards, once).

    A mulliganed hand holds no Terrain and goes under the deck, so every later card comes from the other 45,
    which hold all k Terrains, until the deck is exhausted.
    """
    miss_first = no_terrain(SIZE, k, HAND)
    if not mulligan:
        return {"hand": 1 - miss_first, "rate": 0.0, "by_turn": 1 - no_terrain(SIZE, k, HAND + turn),
                "first_turn": sum(no_terrain(SIZE, k, HAND + t) for t in range(SIZE - HAND + 1)) if k else math.nan}
    rest = SIZE - HAND
    survival = [miss_first * no_terrain(rest, k, HAND + t) for t in range(rest - HAND + 1)]
    return {"hand": 1 - miss_first * no_terrain(rest, k, HAND), "rate": miss_first,
            "by_turn": 1 - miss_first * no_terrain(rest, k, HAND + turn),
            "first_turn": sum(survival) if k else math.nan, "survival": survival}


@pytest.fixture(scope="module")
def wankul_deck():
    return deckstat.load_deck(WANKUL)


@pytest.fixture(scope="module")
def sweep(wankul_deck):
    counts = [0, 1, 5, 8, 9, 10, 11, 12, 13, 14, 15]
    return deckstat.ratio(wankul_deck, "wankul", counts=counts, turns=range(6), target=0.95, target_turn=5,
                          n_trials=2_000, rng=2026)


# --- rebuilding the deck ----------------------------------------------------------------------------------

def counts_of(deck) -> dict[str, int]:
    return dict(zip(deck.cards["name"], deck.counts.tolist()))


def test_rebuilding_follows_the_documented_order(wankul_deck):
    before = counts_of(wankul_deck)
    # Two more Terrains: to the Terrains furthest below 3 copies (the two single ones, listed first first); two
    # Personnages fewer: from the most copies (3), ties to the card listed last (Robot Camembert, then Chevalier).
    up = counts_of(with_resource_count(wankul_deck, "wankul", 12))
    changed = {n: up.get(n, 0) - c for n, c in before.items() if up.get(n, 0) != c}
    assert changed == {"Station Spatiale Moisie": 1, "Forêt des Chaussettes": 1, "Robot Camembert": -1,
                       "Chevalier du Canapé": -1}
    # Two Terrains fewer: from the most copies (2), ties to the card listed last; two Personnages more: to those
    # furthest below the limit (the single copies), ties to the card listed first.
    down = counts_of(with_resource_count(wankul_deck, "wankul", 8))
    changed = {n: down.get(n, 0) - c for n, c in before.items() if down.get(n, 0) != c}
    assert changed == {"Cantine du Lycée": -1, "Château Gonflable": -1, "Poulet Astronaute": 1,
                       "Yéti en Vacances": 1}
    assert with_resource_count(wankul_deck, "wankul", 10).cards.equals(wankul_deck.cards)


@st.composite
def random_deck(draw):
    n_terrains = draw(st.integers(0, 5))
    n_others = draw(st.integers(1, 8))
    cards = [{"name": f"terrain {i}", "count": draw(st.integers(1, 3)), "type": "Terrain", "cost": None}
             for i in range(n_terrains)]
    cards += [{"name": f"perso {i}", "count": draw(st.integers(1, 3)), "type": "Personnage",
               "cost": draw(st.integers(0, 3))} for i in range(n_others)]
    deck = deckstat.Deck.from_table(cards)
    return deck, draw(st.integers(0, deck.size))


@settings(max_examples=80, deadline=None)
@given(question=random_deck())
def test_rebuilt_deck_keeps_its_size_and_the_copy_limit(question):
    deck, k = question
    others = {n: c for n, c in counts_of(deck).items() if n.startswith("perso")}
    room = sum(3 - c for c in others.values())
    current = deck.count("Terrain")
    if k < current - room:
        with pytest.raises(DeckstatError, match=f"sweep from {current - room}"):
            with_resource_count(deck, "wankul", k)
        return
    rebuilt = with_resource_count(deck, "wankul", k)
    after = counts_of(rebuilt)
    assert rebuilt.size == deck.size and rebuilt.count("Terrain") == k
    assert max(after.values()) <= 3
    # Copies only move in the direction asked: the swept group one way, the other cards the other way.
    for name, count in counts_of(deck).items():
        grows = name.startswith("terrain") == (k > current)
        assert (after.get(name, 0) >= count) if grows else (after.get(name, 0) <= count), (name, k)
    added = [n for n in after if n not in counts_of(deck)]
    assert all(n.startswith("Terrain générique ") for n in added)
    # Generic cards only once every Terrain of the deck is at the limit.
    if added:
        assert all(after[n] == 3 for n in counts_of(deck) if n.startswith("terrain"))
    types = dict(zip(deck.cards["name"], deck.cards["type"]))
    assert all(types.get(name, "Terrain") == kind for name, kind in zip(rebuilt.cards["name"], rebuilt.cards["type"]))


def test_generic_cards_when_every_terrain_is_at_the_limit(wankul_deck):
    # Six Terrains hold at most 18 copies; 22 need two generic Terrains, whose 4 copies spread by the same rule.
    rebuilt = with_resource_count(wankul_deck, "wankul", 22)
    after = counts_of(rebuilt)
    assert after["Terrain générique 1"] == 2 and after["Terrain générique 2"] == 2
    assert deckstat.validate(rebuilt, "wankul").legal
    result = deckstat.ratio(wankul_deck, "wankul", counts=[18, 22], turns=[0], n_trials=200)
    assert result.provenance["added_cards"] == ["Terrain générique 1", "Terrain générique 2"]
    assert result.table["legal"].all()


def test_filler_cards_take_the_difference_first(wankul_deck):
    before = counts_of(wankul_deck)
    rebuilt = with_resource_count(wankul_deck, "wankul", 12, filler="mamie croquette")
    after = counts_of(rebuilt)
    assert rebuilt.size == SIZE and rebuilt.count("Terrain") == 12
    assert after["Mamie Croquette"] == before["Mamie Croquette"] - 2
    personnages = [n for n, t in zip(wankul_deck.cards["name"], wankul_deck.cards["type"]) if t == "Personnage"]
    assert all(after[n] == before[n] for n in personnages if n != "Mamie Croquette")
    # Poulet Astronaute (1 copy) can take 2 more within the limit; the third goes by the default rule (the
    # other single copy, Yéti en Vacances), then the fourth to the first card listed with 2 copies.
    down = counts_of(with_resource_count(wankul_deck, "wankul", 6, filler=["Poulet Astronaute"]))
    assert down["Poulet Astronaute"] == 3 and down["Yéti en Vacances"] == 2
    assert down["Pigeon Voleur de Frites"] == 3
    assert max(down.values()) == 3
    both = counts_of(with_resource_count(wankul_deck, "wankul", 14, filler=["Yéti en Vacances", "Mamie Croquette"]))
    # Four copies fewer: Yéti en Vacances' one, then Mamie Croquette's three; both leave the deck.
    assert "Yéti en Vacances" not in both and "Mamie Croquette" not in both
    assert all(both[n] == before[n] for n in personnages if n not in ("Yéti en Vacances", "Mamie Croquette"))


def test_filler_errors(wankul_deck):
    with pytest.raises(DeckstatError, match="did you mean 'Mamie Croquette'"):
        with_resource_count(wankul_deck, "wankul", 12, filler="Mamie Croquete")
    with pytest.raises(DeckstatError, match="itself a Terrain card"):
        with_resource_count(wankul_deck, "wankul", 12, filler="Plage de Galets")
    with pytest.raises(DeckstatError, match="do not fit"):
        with_resource_count(wankul_deck, "wankul", 51)


def test_filler_sweep_records_its_rule(wankul_deck):
    result = deckstat.ratio(wankul_deck, "wankul", counts=[10, 11], turns=[0], filler="Mamie Croquette",
                            n_trials=200)
    assert result.provenance["filler"] == ["Mamie Croquette"]
    assert "The filler cards 'Mamie Croquette' take the difference first" in result.provenance["scaling"]
    assert len(result.table) == 2
    # Only the Terrain count matters for Terrain>=1, so the filler gives the same odds as the default rule.
    for row in result.table.itertuples():
        assert row.p == pytest.approx(wankul_exact(row.resource_count, row.turn)["by_turn"], abs=1e-12)


def test_a_deck_without_resource_gets_a_generic_card():
    deck = deckstat.Deck.from_table([{"name": f"Perso {i}", "count": 2, "type": "Personnage", "cost": 1}
                                     for i in range(25)])
    result = deckstat.ratio(deck, "wankul", counts=[0, 3], turns=[0], n_trials=200)
    assert result.provenance["added_cards"] == ["Terrain générique 1"]
    assert "'Terrain générique 1'" in result.provenance["scaling"]
    at3 = result.table[result.table["resource_count"] == 3].iloc[0]
    assert at3["p_resource_in_hand"] == pytest.approx(wankul_exact(3, 0)["hand"], abs=1e-12)
    at0 = result.table[result.table["resource_count"] == 0].iloc[0]
    assert at0["p"] == 0 and at0["mulligan_rate"] == 1 and math.isnan(at0["expected_first_resource_turn"])
    with pytest.raises(DeckstatError, match="nothing to scale up"):
        deckstat.ratio(deck, "wankul", group="[cost=9]", counts=[2], turns=[0])


def test_default_sweep_of_a_group_the_deck_lacks_says_why():
    # No count fits, so the default sweep around the deck's own count is empty: refused, not an IndexError.
    assert_user_error(run("ratio", WANKUL, "--game", "wankul", "--group", "Sort", "--trials", "300"),
                      "no Sort card", "nothing to scale up")
    with pytest.raises(DeckstatError, match="nothing to scale up"):
        deckstat.ratio(deckstat.load_deck(WANKUL), "wankul", group="Sort", turns=[0])


@pytest.mark.parametrize(("game", "kwargs", "limit"), [
    ("wankul", {"counts": range(0, 46)}, 3),
    ("duel-masters", {"group": "[civilization=Feu]"}, 4),
    ("duel-masters", {"group": "[shield_trigger=1]", "counts": range(0, 30)}, 4),
    ("jdg", {"counts": range(4, 27)}, 1),
])
def test_every_swept_deck_of_the_samples_keeps_the_copy_limit(game, kwargs, limit):
    deck = deckstat.load_deck(sample_deck(game))
    group = kwargs.get("group")
    counts = kwargs.get("counts")
    if counts is None:  # the default sweep
        counts = deckstat.ratio(deck, game, group=group, turns=[0], n_trials=100).provenance["counts"]
    for k in counts:
        rebuilt = with_resource_count(deck, game, k, group=group)
        assert max(rebuilt.counts) <= limit, k
        broken = deckstat.validate(rebuilt, game).table
        # Wankul asks for 10 Terrains in 50 cards: the only rule a swept deck may break is that one, below 10.
        if game == "wankul" and k < 10:
            assert list(broken["subject"]) == ["Terrain"], k
        else:
            assert broken.empty, (k, broken)


def test_a_singleton_deck_stays_singleton_or_is_refused():
    deck = deckstat.load_deck(sample_deck("jdg"))
    # The default sweep starts at the deck's own 4 TERRAIN: below, its 26 other cards cannot fill 30 places.
    result = deckstat.ratio(deck, "jdg", turns=[0], target=0.5)
    assert result.provenance["counts"] == list(range(4, 10))
    assert result.table["legal"].all()
    assert result.provenance["added_cards"] == [f"TERRAIN générique {i}" for i in range(1, 6)]
    rebuilt = with_resource_count(deck, "jdg", 6)
    assert set(rebuilt.counts) == {1} and rebuilt.size == 30
    # The two cards listed last among the others make room.
    assert {"Lunettes 3D Rouge-Bleu", "Pistolet en Plastique Orange"}.isdisjoint(rebuilt.cards["name"])
    # Refused up front, before any count is computed.
    with pytest.raises(DeckstatError, match=r"^Joueur du Grenier TCG: below 4 TERRAIN cards "
                                            r"the deck's 26 other cards cannot fill its 30 places with one copy of "
                                            r"a card \(singleton\); sweep from 4$"):
        deckstat.ratio(deck, "jdg", counts=[3, 4])
    assert_user_error(run("ratio", sample_deck("jdg"), "--game", "jdg", "--range", "2-6"), "singleton",
                      "sweep from 4")


def test_a_deck_made_only_of_the_group_cannot_go_lower():
    deck = deckstat.Deck.from_table([{"name": f"Feu {i}", "count": 4, "type": "Créature", "civilization": "Feu"}
                                     for i in range(10)])
    assert deckstat.ratio(deck, "duel-masters", group="[civilization=Feu]", turns=[0]).provenance["counts"] == [40]
    with pytest.raises(DeckstatError, match=r"^Duel Masters: every card of the deck is a \[civilization=Feu\] card, "
                                            r"so none can make room for fewer; sweep from 40$"):
        deckstat.ratio(deck, "duel-masters", group="[civilization=Feu]", counts=[39, 40])


# --- agreement with closed forms ---------------------------------------------------------------------------

def test_sweep_shape_and_provenance(sweep):
    table = sweep.table
    assert list(table.columns) == RATIO_COLUMNS
    assert len(table) == 11 * 6
    assert (table["method"] == "exact").all() and table["n_trials"].isna().all()
    assert (table["deck"] == "sample_deck.csv").all() and (table["game"] == "wankul").all()
    assert (table["event"] == "Terrain>=1").all() and (table["seat"] == "first").all()
    # Wankul's drought rule makes the deck-out turn depend on the Terrain count: fewer Terrains, more
    # droughts, earlier deck-outs (at most turn 46, when 45 cards are left after the hand).
    by_count = table.groupby("resource_count")["deckout_turn_first"].first()
    assert by_count.notna().all() and (by_count <= 46).all()
    assert by_count.iloc[0] < by_count.iloc[-1]
    assert list(table.groupby("resource_count")["is_current"].first().loc[lambda s: s].index) == [10]
    provenance = sweep.provenance
    assert provenance["group"] == "Terrain" and provenance["filler"] is None and provenance["zone"] == "seen"
    assert "furthest below the limit" in provenance["scaling"]
    # The deck-out race is simulated from the run's seed even though every probability is exact.
    assert provenance["methods"]["p"] == "exact" and provenance["methods"]["deckout_turn_first"] == "simulate"
    assert provenance["seed_entropy"] == 2026 and provenance["deckout_n_trials"] == 2_000
    assert provenance["game"] == "wankul" and provenance["deck_size"] == SIZE and provenance["deckstat_version"]
    assert provenance["counts"] == [0, 1, 5, 8, 9, 10, 11, 12, 13, 14, 15]
    assert table.attrs == provenance and sweep.summary.attrs == provenance
    summary = sweep.summary
    assert len(summary) == 1
    row = summary.iloc[0]
    assert row["group"] == "Terrain" and row["current_count"] == 10 and row["event"] == "Terrain>=1"
    assert row["target"] == 0.95 and row["target_turn"] == 5 and row["method"] == "exact" and row["flood"] == 3


def test_sweep_matches_the_hypergeometric_and_mulligan_formulas(sweep):
    for row in sweep.table.itertuples():
        expected = wankul_exact(row.resource_count, row.turn)
        assert row.p == pytest.approx(expected["by_turn"], abs=1e-12)
        assert row.ci_low == row.p == row.ci_high
        assert row.p_resource_in_hand == pytest.approx(expected["hand"], abs=1e-12)
        assert row.mulligan_rate == pytest.approx(expected["rate"], abs=1e-12)
        if row.resource_count == 0:
            assert math.isnan(row.expected_first_resource_turn)
        else:
            assert row.expected_first_resource_turn == pytest.approx(expected["first_turn"], abs=1e-12)


def test_sweep_without_mulligan(wankul_deck):
    result = deckstat.ratio(wankul_deck, "wankul", counts=[0, 10, 12], turns=[0, 2], mulligan=False, seat="second",
                            n_trials=200)
    assert (result.table["seat"] == "second").all() and result.provenance["mulligan_rule"] == "none"
    assert len(result.table) == 6
    # Without a mulligan in force there is no mulligan column.
    assert "mulligan_rate" not in result.table.columns
    for row in result.table.itertuples():
        expected = wankul_exact(row.resource_count, row.turn, mulligan=False)
        assert row.p == pytest.approx(expected["by_turn"], abs=1e-12)
        assert row.p_resource_in_hand == pytest.approx(expected["hand"], abs=1e-12)
        # Flood: 3 or more Terrains among the 5 cards of the hand.
        assert row.p_flood_in_hand == pytest.approx(hypergeom(SIZE, row.resource_count, HAND).sf(2), abs=1e-12)
        if row.resource_count:
            assert row.expected_first_resource_turn == pytest.approx(expected["first_turn"], abs=1e-12)


def enumerate_small_deck(size: int, terrains: int, *, mulligan: bool) -> tuple[float, float]:
    """P(Terrain in the kept hand) and the mean first turn with a Terrain, over every placement of the Terrains.

    Turn t shows the kept hand and t draws; a mulliganed hand goes under the deck.
    """
    in_hand, turns, n = 0, 0, 0
    for places in itertools.combinations(range(size), terrains):
        order = [i in places for i in range(size)]
        if mulligan and not any(order[:HAND]):
            order = order[HAND:] + order[:HAND]
        first = order.index(True)
        in_hand += first < HAND
        turns += max(0, first - HAND + 1)
        n += 1
    return in_hand / n, turns / n


@pytest.mark.parametrize("mulligan", [True, False])
def test_expected_first_turn_matches_enumeration_on_a_small_deck(mulligan):
    deck = deckstat.Deck.from_table([{"name": "T", "count": 3, "type": "Terrain"},
                                     {"name": "P", "count": 9, "type": "Personnage"}])
    result = deckstat.ratio(deck, "wankul", counts=range(0, 6), turns=[0], mulligan=mulligan, n_trials=200)
    assert list(result.table["resource_count"]) == list(range(0, 6))
    for row in result.table.itertuples():
        if row.resource_count == 0:
            assert math.isnan(row.expected_first_resource_turn)
            continue
        hand, first_turn = enumerate_small_deck(12, row.resource_count, mulligan=mulligan)
        assert row.p_resource_in_hand == pytest.approx(hand, abs=1e-12)
        assert row.expected_first_resource_turn == pytest.approx(first_turn, abs=1e-12)


def test_legal_flags_follow_the_ten_terrain_minimum(sweep):
    by_count = sweep.table.groupby("resource_count").first()
    for k, row in by_count.iterrows():
        assert row["legal"] == (k >= 10), k
        assert (row["violations"] == "") == row["legal"]
        if k < 10:
            assert f"Terrain: {k} in 50 cards, allowed at least 10" in row["violations"]


# --- target decisions ---------------------------------------------------------------------------------------

def test_exact_target_names_the_smallest_legal_count_reaching_it(sweep, wankul_deck):
    # By turn 5 even 8 Terrains reach 95%; 8 is not legal, 10 is the smallest legal count and the headline.
    reaching = [k for k in (0, 1, 5, 8, 9, 10) if wankul_exact(k, 5)["by_turn"] >= 0.95]
    summary = sweep.summary.iloc[0]
    assert summary["decision"] == "decided" and summary["recommended"] == 10
    assert summary["smallest_reaching"] == reaching[0] == 8 and not summary["smallest_reaching_legal"]
    [sentence] = ratio_decision(sweep)
    assert sentence.startswith("recommended: 10 Terrain cards, the smallest legal count with P(Terrain>=1) ≥ 95.0% "
                               "by turn 5")
    assert sentence.endswith("; 8 would reach the target but is illegal: Terrain: 8 in 50 cards, allowed at least "
                             "10 (1 per 5 cards)")
    # By default the target is checked in the kept opening hand: the smallest count whose closed form reaches 95%.
    result = deckstat.ratio(wankul_deck, "wankul", counts=range(8, 15), turns=[0, 5], target=0.95, n_trials=200)
    expected = min(k for k in range(8, 15) if wankul_exact(k, 0)["by_turn"] >= 0.95)
    assert result.summary["target_turn"].iloc[0] == 0
    assert result.summary["recommended"].iloc[0] == result.summary["smallest_reaching"].iloc[0] == expected == 12
    assert ratio_decision(result)[0] == ("recommended: 12 Terrain cards, the smallest legal count with "
                                         "P(Terrain>=1) ≥ 95.0% in the kept opening hand (95.4%)")
    # The status at the target turn is repeated on every turn row of its count.
    statuses = result.table.groupby("resource_count")["target_status"].agg(set)
    assert all(statuses[k] == {"reached" if k >= 12 else "not reached"} for k in range(8, 15))
    unreachable = deckstat.ratio(wankul_deck, "wankul", counts=[8, 9, 10], turns=[0], target=0.99, n_trials=200)
    assert unreachable.summary["decision"].iloc[0] == "none"
    assert pd.isna(unreachable.summary["recommended"].iloc[0])
    assert ratio_decision(unreachable)[0].startswith("no legal count from 10 to 10 reaches")
    only_illegal = deckstat.ratio(wankul_deck, "wankul", counts=[8, 9], turns=[0], target=0.5, n_trials=200)
    assert ratio_decision(only_illegal)[0].startswith("no recommendation: no count swept from 8 to 9 gives a legal "
                                                      "deck; 8 would reach the target but is illegal")
    # Without a target there is no decision and no sentence.
    plain = deckstat.ratio(wankul_deck, "wankul", counts=[10], turns=[0], n_trials=200)
    assert plain.summary["decision"].iloc[0] == "no target" and ratio_decision(plain) == []
    assert plain.table["target_status"].isna().all()


def test_best_legal_count_of_a_small_deck():
    # 20 cards, at most 3 copies, at least 4 Terrains (1 per 5 cards); no mulligan: P(Terrain in the 5-card hand)
    # = 1 - C(20-k, 5) / C(20, 5): 0.447 at 2, 0.601 at 3, 0.718 at 4. Target 0.5: 3 reaches it but is illegal,
    # 4 is the answer.
    cards = ([{"name": f"T{i}", "count": 2, "type": "Terrain"} for i in range(2)]
             + [{"name": f"P{i}", "count": c, "type": "Personnage"} for i, c in enumerate([3, 3, 3, 3, 2, 2])])
    deck = deckstat.Deck.from_table(cards)
    # Its Personnages have room for 2 more copies, so the sweep can go down to 2 Terrains.
    result = deckstat.ratio(deck, "wankul", counts=range(2, 8), turns=[0], target=0.5, mulligan=False, n_trials=200)
    p = {k: 1 - hypergeom(20, k, HAND).pmf(0) for k in range(2, 8)}
    at = result.table.set_index("resource_count")
    for k in range(2, 8):
        assert at.loc[k, "p"] == pytest.approx(p[k], abs=1e-12)
        assert at.loc[k, "legal"] == (k >= 4)
    assert min(k for k in p if p[k] >= 0.5) == 3
    summary = result.summary.iloc[0]
    assert (summary["recommended"], summary["smallest_reaching"], summary["smallest_reaching_legal"]) == (4, 3, False)
    assert ratio_decision(result)[0].endswith("; 3 would reach the target but is illegal: Terrain: 3 in 20 cards, "
                                              "allowed at least 4 (1 per 5 cards)")


def test_report_and_ratio_give_the_same_recommendation(wankul_deck):
    report = deckstat.report(wankul_deck, "wankul", n_trials=300, rng=1)
    # The report's sweep is `ratio --range 10-20 --target 0.95` with the report's seed and trials, deck-out turns
    # included: the legal counts nearest the deck's own 10 (Wankul asks at least 10 Terrains in 50 cards).
    sweep = deckstat.ratio(wankul_deck, "wankul", counts=range(10, 21), target=0.95, n_trials=300, rng=1)
    pd.testing.assert_frame_equal(report.ratio.table, sweep.table)
    pd.testing.assert_frame_equal(report.ratio.summary, sweep.summary)
    # With the illegal counts asked for: `ratio --target 0.95`, the deck's own count +/- 5.
    every = deckstat.report(wankul_deck, "wankul", n_trials=300, rng=1, illegal_counts=True)
    pd.testing.assert_frame_equal(every.ratio.table,
                                  deckstat.ratio(wankul_deck, "wankul", target=0.95, n_trials=300, rng=1).table)
    # The smallest legal count (at least 10) with a Terrain in the kept hand 95% of the time, from the closed form.
    expected = min(k for k in range(10, 16) if wankul_exact(k, 0)["hand"] >= 0.95)
    assert sweep.summary["recommended"].iloc[0] == expected == 12
    assert "recommended: 12 Terrain cards" in ok(run("ratio", WANKUL, "--game", "wankul", "--target", "0.95",
                                                     "--range", "9-13"))


def test_decision_rule_on_statuses():
    assert _status(0.5, 0.4, 0.6, 0.5, "simulate") == "undecided"
    assert _status(0.7, 0.6, 0.8, 0.5, "simulate") == "reached"
    assert _status(0.3, 0.2, 0.4, 0.5, "simulate") == "not reached"
    assert _status(0.5 - 1e-15, 0.5, 0.5, 0.5, "exact") == "reached"
    assert _decide({8: "not reached", 9: "not reached", 10: "reached", 11: "undecided"}) == (10, "decided")
    assert _decide({8: "not reached", 9: "undecided", 10: "reached"}) == (None, "undecided")
    assert _decide({8: "not reached", 9: "not reached"}) == (None, "none")


def test_few_trials_straddling_the_target_are_undecided(wankul_deck):
    target = wankul_exact(10, 0)["by_turn"]
    result = deckstat.ratio(wankul_deck, "wankul", counts=[10, 11], turns=[0], target=target, method="simulate",
                            n_trials=300, rng=1)
    at10 = result.table[result.table["resource_count"] == 10].iloc[0]
    assert at10["ci_low"] <= target <= at10["ci_high"]
    assert at10["target_status"] == "undecided"
    assert result.summary["decision"].iloc[0] == "undecided" and pd.isna(result.summary["recommended"].iloc[0])
    [decision] = ratio_decision(result)
    assert decision.startswith("undecided") and "trials" in decision and "exact engine" in decision
    assert "(n_trials)" in decision and "(method='exact')" in decision


def test_simulated_sweep_agrees_with_exact_and_decides_when_the_trials_suffice(wankul_deck):
    counts, turns = [10, 12], [0, 3]
    exact = {k: {t: wankul_exact(k, t) for t in turns} for k in counts}
    p10, p12 = exact[10][0]["by_turn"], exact[12][0]["by_turn"]
    target = (p10 + p12) / 2
    n_comparisons = 10
    z, z95 = z_for(n_comparisons), float(norm.isf((1 - runner.CONFIDENCE) / 2))
    # Enough trials that an estimate within z standard errors, with its 95% interval around it, stays on its side
    # of the target (0.8 leaves room for the Wilson interval's correction terms).
    sd = max(math.sqrt(p * (1 - p)) for p in (p10, p12))
    n_trials = math.ceil(((z + z95) * sd / (0.8 * (p12 - p10) / 2)) ** 2)
    result = deckstat.ratio(wankul_deck, "wankul", counts=counts, turns=turns, target=target, target_turn=0,
                            method="simulate", n_trials=n_trials, rng=2026)
    assert (result.table["method"] == "simulate").all() and (result.table["n_trials"] == n_trials).all()
    assert result.provenance["seed_entropy"] is not None

    def tol(p: float) -> float:
        return z * math.sqrt(p * (1 - p) / n_trials)

    for row in result.table.itertuples():
        expected = exact[row.resource_count][row.turn]
        assert abs(row.p - expected["by_turn"]) <= tol(expected["by_turn"])
        if row.turn == 0:
            assert abs(row.p_resource_in_hand - expected["hand"]) <= tol(expected["hand"])
            assert abs(row.mulligan_rate - expected["rate"]) <= tol(expected["rate"])
            survival = np.array(expected["survival"])
            pmf = -np.diff(np.concatenate([[1.0], survival, [0.0]]))
            support = np.arange(len(pmf))
            mean = float(support @ pmf)
            sd_turn = math.sqrt(float(support**2 @ pmf) - mean**2)
            assert mean == pytest.approx(expected["first_turn"], abs=1e-12)
            assert abs(row.expected_first_resource_turn - mean) <= z * sd_turn / math.sqrt(n_trials)
    assert result.summary["decision"].iloc[0] == "decided", ratio_decision(result)
    assert result.summary["recommended"].iloc[0] == 12, ratio_decision(result)


def test_a_count_gets_the_same_simulated_numbers_whatever_else_is_swept(wankul_deck):
    kwargs = {"turns": [0, 2], "method": "simulate", "n_trials": 2_000, "rng": 5}
    both = deckstat.ratio(wankul_deck, "wankul", counts=[10, 11], **kwargs)
    alone = deckstat.ratio(wankul_deck, "wankul", counts=[11], **kwargs)
    at11 = both.table[both.table["resource_count"] == 11].reset_index(drop=True)
    pd.testing.assert_frame_equal(at11, alone.table)
    assert both.provenance["seed_entropy"] == alone.provenance["seed_entropy"]


def test_an_event_gets_the_same_simulated_numbers_whatever_else_is_asked(wankul_deck):
    first, second = "[cost<=1]>=2", "Terrain>=2"
    kwargs = {"counts": [10], "turns": [0, 2], "target": 0.5, "method": "simulate", "n_trials": 5_000, "rng": 3}
    both = deckstat.ratio(wankul_deck, "wankul", event=[first, second], **kwargs)
    alone = deckstat.ratio(wankul_deck, "wankul", event=second, **kwargs)
    assert list(both.table["event"].unique()) == [first, second]
    pd.testing.assert_frame_equal(both.table[both.table["event"] == second].reset_index(drop=True), alone.table)
    pd.testing.assert_frame_equal(both.summary[both.summary["event"] == second].reset_index(drop=True),
                                  alone.summary)


# --- argument errors ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("kwargs", "needle"), [
    ({"seat": "both"}, "seat must be one of first, second, got 'both'"),
    ({"target": 1.5}, "target must be a probability"),
    ({"target": 0.9, "target_turn": 7}, "target_turn 7 is not one of the turns"),
    ({"counts": [-1]}, "counts must be a whole number from 0, got -1"),
    ({"counts": []}, "counts is empty; give at least one resource count"),
    ({"counts": [10, 51]}, "51 Terrain cards do not fit in a 50-card deck"),
    ({"group": '"Plage de Galets"', "counts": [0, 1]}, "start the sweep at 1"),
    ({"method": "exact", "keep": "Terrain>=1", "event": "Terrain>=x"}, "position"),
])
def test_bad_arguments_are_refused(wankul_deck, kwargs, needle):
    with pytest.raises(DeckstatError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        deckstat.ratio(wankul_deck, "wankul", **{"turns": [0, 1], **kwargs})


def test_a_game_without_resource_group_needs_one():
    deck = deckstat.load_deck(sample_deck("duel-masters"))
    with pytest.raises(DeckstatError, match="^Duel Masters has no resource group; name the cards to sweep with "
                                            "group, e.g. Terrain$"):
        deckstat.ratio(deck, "duel-masters")
    # The command line names the flag instead.
    assert_user_error(run("ratio", sample_deck("duel-masters"), "--game", "duel-masters"),
                      "no resource group; name the cards to sweep with --group, e.g. Terrain")


# --- command line -------------------------------------------------------------------------------------------

def cli_rows(out: str) -> dict[str, list[str]]:
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in out.splitlines() if "│" in line]
    return {r[0]: r for r in rows if r[0]}


def test_cli_table():
    out = ok(run("ratio", WANKUL, "--game", "wankul", "--range", "9-11", "--event", "Terrain>=1", "--turns", "0-1",
                 "--target", "0.93", "--seed", "4", "--wide"))
    body = cli_rows(out)
    assert set(body) == {"9", "10 (now)", "11"}
    assert body["9"][1] == "✗" and body["10 (now)"][1] == "✓"
    row = body["10 (now)"]
    assert row[2] == format_probability(wankul_exact(10, 0)["hand"])
    assert row[4] == format_probability(wankul_exact(10, 0)["rate"])
    # The simulated deck-out column is the API's number for the same seed.
    api = deckstat.ratio(deckstat.load_deck(WANKUL), "wankul", counts=range(9, 12), event="Terrain>=1", turns=range(2),
                         target=0.93, rng=4).table
    assert row[6] == f"≈ {api.loc[api['resource_count'] == 10, 'deckout_turn_first'].iloc[0]:.2f}"
    assert row[7] == format_probability(wankul_exact(10, 0)["by_turn"])
    # The target is checked in the kept opening hand: its column carries the mark on the recommended count.
    assert body["11"][7] == format_probability(wankul_exact(11, 0)["by_turn"]) + " ◀"
    assert "◀" not in body["11"][8]
    assert "deck-out turns simulated: 8,000 races per count, seed 4" in out
    assert "✗ 9 Terrain cards: Terrain: 9 in 50 cards" in out
    assert "recommended: 11 Terrain cards, the smallest legal count" in out


def test_cli_zone_flood_and_fillers():
    dm = sample_deck("duel-masters")
    out = ok(run("ratio", dm, "--game", "duel-masters", "--group", "[shield_trigger=1]", "--zone", "shields",
                 "--range", "8-12", "--target", "0.85", "--flood", "2", "--wide"))
    body = cli_rows(out)
    # Among the shields, the kept hand's screw and flood, the first turn with one and the deck-out turn say
    # nothing: the table leaves them out, whatever the width.
    assert "in hand" not in out and "deck runs out" not in out and "turn (mean)" not in out
    assert body["12"] == ["12", "✓", format_probability(1 - hypergeom(40, 12, 5).pmf(0)) + " ◀"]
    assert "in the shields" in out
    # In the kept hand they do; no mulligan column in a game without a mulligan, and the deck-out turn is exact.
    out = ok(run("ratio", dm, "--game", "duel-masters", "--group", "[shield_trigger=1]", "--zone", "hand",
                 "--range", "8-12", "--flood", "2", "--wide"))
    body = cli_rows(out)
    assert "mulligan" not in out and "(turn, exact)" in out and "simulated" not in out
    assert body["8 (now)"][3] == format_probability(hypergeom(40, 8, 5).sf(1))
    filled = ok_json(run("ratio", WANKUL, "--game", "wankul", "--range", "6", "--turns", "0", "--trials", "100",
                         "--filler", "Poulet Astronaute", "--filler", "Yéti en Vacances", "--format", "json"))
    assert filled["provenance"]["filler"] == ["Poulet Astronaute", "Yéti en Vacances"]


def test_cli_json_matches_the_api(wankul_deck):
    out = ok_json(run("ratio", WANKUL, "--game", "wankul", "--range", "10,12", "--turns", "0-1", "--format", "json",
                      "--seed", "3"))
    assert out["question"] == "ratio" and set(out) == {"question", "provenance", "table", "summary", "played"}
    records = out["table"]
    assert len(records) == 4
    api = deckstat.ratio(wankul_deck, "wankul", counts=[10, 12], turns=[0, 1], rng=3)
    assert out["provenance"]["seed_entropy"] == api.provenance["seed_entropy"]
    assert out["provenance"]["counts"] == [10, 12]
    [summary] = out["summary"]
    assert summary["group"] == "Terrain" and summary["decision"] == "no target" and summary["recommended"] is None
    for record, row in zip(records, api.table.itertuples()):
        assert {"resource_count", "turn", "p", "legal"} <= set(record)
        assert record["resource_count"] == row.resource_count and record["turn"] == row.turn
        assert record["p"] == row.p and record["legal"] is True
        assert record["deckout_turn_first"] == row.deckout_turn_first


def test_cli_errors():
    assert_user_error(run("ratio", WANKUL, "--game", "wankul", "--range", "20-8"), "--range '20-8'", "backwards")
    assert_user_error(run("ratio", WANKUL, "--game", "wankul", "--range", "10-11", "--filler", "Mamie Croquete"),
                      "filler 'Mamie Croquete'", "did you mean 'Mamie Croquette'?")
    assert_user_error(run("ratio", WANKUL, "--game", "wankul", "--seat", "both"), "--seat")
    assert_user_error(run("ratio", WANKUL, "--game", "wankul", "--range", "ten"), "--range")


# --- screw and flood, zones, deck-out, games without a mulligan ---------------------------------------------

def test_flood_column_matches_the_hypergeometric():
    deck = deckstat.load_deck(sample_deck("jdg"))
    result = deckstat.ratio(deck, "jdg", counts=[4, 6, 9], turns=[0], flood=2)
    assert result.summary["flood"].iloc[0] == 2 and result.provenance["flood"] == 2
    for row in result.table.itertuples():
        k = row.resource_count
        assert row.p_resource_in_hand == pytest.approx(hypergeom(30, k, HAND).sf(0), abs=1e-12)
        assert row.p_flood_in_hand == pytest.approx(hypergeom(30, k, HAND).sf(1), abs=1e-12)
    # The default: more than half the hand, 3 of 5 cards.
    default = deckstat.ratio(deck, "jdg", counts=[6], turns=[0])
    assert default.table["p_flood_in_hand"].iloc[0] == pytest.approx(hypergeom(30, 6, HAND).sf(2), abs=1e-12)
    with pytest.raises(DeckstatError, match="flood must be a whole number from 1 to 5"):
        deckstat.ratio(deck, "jdg", counts=[6], flood=6)


def test_shield_triggers_are_counted_in_the_five_shields():
    deck = deckstat.load_deck(sample_deck("duel-masters"))
    result = deckstat.ratio(deck, "duel-masters", group="[shield_trigger=1]", zone="shields", counts=range(4, 15),
                            target=0.85)
    table = result.table
    assert (table["zone"] == "set_aside").all() and (table["turn"] == 0).all()
    assert result.provenance["zone"] == "set_aside"
    # No mulligan in Duel Masters: no mulligan column.
    assert "mulligan_rate" not in table.columns
    for row in table.itertuples():
        shields = hypergeom(40, row.resource_count, 5)  # the 5 shields come off the top of a shuffled deck
        assert row.p == pytest.approx(shields.sf(0), abs=1e-12)
        # The hand is dealt after the shields: by symmetry, 5 cards of the same 40.
        assert row.p_resource_in_hand == pytest.approx(shields.sf(0), abs=1e-12)
        assert row.p_flood_in_hand == pytest.approx(shields.sf(2), abs=1e-12)
        assert row.legal
    expected = min(k for k in range(4, 15) if hypergeom(40, k, 5).sf(0) >= 0.85)
    assert result.summary["recommended"].iloc[0] == expected == 12
    assert ratio_decision(result)[0].startswith("recommended: 12 [shield_trigger=1] cards, the smallest legal count "
                                                "with P([shield_trigger=1]>=1) ≥ 85.0% in the shields")
    with pytest.raises(DeckstatError, match="Wankul sets no card aside"):
        deckstat.ratio(deckstat.load_deck(WANKUL), "wankul", zone="set_aside")


def test_deckout_column_follows_the_seed(wankul_deck):
    kwargs = {"counts": [9, 11], "turns": [0], "n_trials": 500}
    first = deckstat.ratio(wankul_deck, "wankul", rng=7, **kwargs)
    again = deckstat.ratio(wankul_deck, "wankul", rng=7, **kwargs)
    other = deckstat.ratio(wankul_deck, "wankul", rng=8, **kwargs)
    columns = ["deckout_turn_first", "deckout_turn_second"]
    pd.testing.assert_frame_equal(first.table[columns], again.table[columns])
    assert not first.table[columns].equals(other.table[columns])
    unseeded = [deckstat.ratio(wankul_deck, "wankul", **kwargs) for _ in range(2)]
    assert not unseeded[0].table[columns].equals(unseeded[1].table[columns])
    # The seed that was drawn is recorded, and gives the same numbers again.
    replay = deckstat.ratio(wankul_deck, "wankul", rng=unseeded[0].provenance["seed_entropy"], **kwargs)
    pd.testing.assert_frame_equal(replay.table[columns], unseeded[0].table[columns])
    assert first.provenance["methods"]["deckout_turn_first"] == "simulate"
    assert first.provenance["methods"]["p"] == "exact"


def test_deckout_column_is_the_mean_turn_deckout_gives_on_the_counts_stream(wankul_deck):
    # The sweep asks the race for the means alone; they are deckout's, for the count's own stream (root seed,
    # spawn key + (count, 4)). The deck's own count rebuilds the deck as it is.
    sweep = deckstat.ratio(wankul_deck, "wankul", counts=[10], turns=[0], n_trials=3_000, rng=7)
    stream = np.random.SeedSequence(sweep.provenance["seed_entropy"],
                                    spawn_key=(*sweep.provenance["seed_spawn_key"], 10, 4))
    race = deckstat.deckout(wankul_deck, "wankul", n_trials=3_000, rng=stream)
    means = dict(zip(race.summary["seat"], race.summary["mean_turn"]))
    assert sweep.table["deckout_turn_first"].iloc[0] == means["first"]
    assert sweep.table["deckout_turn_second"].iloc[0] == means["second"]
    assert race.summary["method"].iloc[0] == "simulate"


def test_deckout_turn_is_exact_without_a_drought_rule():
    deck = deckstat.load_deck(sample_deck("duel-masters"))
    result = deckstat.ratio(deck, "duel-masters", group="[civilization=Feu]", counts=[20, 24], turns=[0])
    # 40 cards, 5 shields and 5 in hand leave 30 to draw; drawing the last one loses. The first player skips the
    # turn-1 draw, so draws its 30th card on turn 31; the second player on turn 30.
    assert (result.table["deckout_turn_first"] == 31).all() and (result.table["deckout_turn_second"] == 30).all()
    assert result.provenance["methods"]["deckout_turn_first"] == "exact"
    assert "seed_entropy" not in result.provenance


def test_target_turn_defaults_to_the_kept_hand(wankul_deck):
    with pytest.raises(DeckstatError, match=r"turn 0 is not one of the turns asked \(2, 3\)"):
        deckstat.ratio(wankul_deck, "wankul", counts=[10], turns=[2, 3], target=0.9)
    result = deckstat.ratio(wankul_deck, "wankul", counts=[10], turns=[2, 3], target=0.9, target_turn=3,
                            n_trials=100)
    assert result.summary["target_turn"].iloc[0] == 3


@pytest.mark.skipif(not (SHARED_CARDDATA / "dm_decklists_jasfreaq.csv").exists(), reason="shared card data absent")
def test_a_real_duel_masters_deck(tmp_path):
    lists = pd.read_csv(SHARED_CARDDATA / "dm_decklists_jasfreaq.csv")
    one = lists[lists["deck_name"] == lists["deck_name"].iloc[0]]
    path = tmp_path / "deck.csv"
    one.rename(columns={"card_name": "name", "quantity": "count", "civilizations": "civilization"})[
        ["name", "count", "type", "civilization", "cost", "shield_trigger"]].to_csv(path, index=False)
    deck = deckstat.load_deck(path)
    fire = deck.count("[civilization=Fire]")
    result = deckstat.ratio(deck, "duel-masters", group="[civilization=Fire]", turns=[0])
    assert fire in result.provenance["counts"]
    for k in result.provenance["counts"]:
        rebuilt = with_resource_count(deck, "duel-masters", k, group="[civilization=Fire]")
        assert max(rebuilt.counts) <= max(4, max(deck.counts)) and rebuilt.size == deck.size
    size = deck.size
    for row in result.table.itertuples():
        assert row.p_resource_in_hand == pytest.approx(hypergeom(size, row.resource_count, 5).sf(0), abs=1e-12)
