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
from helpers import assert_user_error, ok, ok_json, run, sample_deck, z_for
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import hypergeom, norm

import deckstat
from deckstat.engines import runner
from deckstat.errors import DeckstatError
from deckstat.present.format import format_probability, ratio_decision
from deckstat.questions.ratio import RATIO_COLUMNS, _decide, _status, scale_counts, with_resource_count

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
    return deckstat.ratio(wankul_deck, "wankul", counts=counts, turns=range(6), target=0.95)


# --- rebuilding the deck ----------------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(counts=st.lists(st.integers(0, 50), min_size=1, max_size=12), total=st.integers(0, 200))
def test_largest_remainder_keeps_the_total_and_each_share(counts, total):
    if sum(counts) == 0:
        counts[0] = 1
    out = scale_counts(counts, total)
    assert out.sum() == total
    whole = [c * total // sum(counts) for c in counts]
    remainder = [c * total % sum(counts) for c in counts]
    extra = [int(o) - w for o, w in zip(out, whole)]
    # Each card gets the whole part of its exact share plus at most one copy...
    assert all(e in (0, 1) for e in extra)
    # ...and the extra copies go to the largest remainders, ties to the card listed first.
    for i, j in itertools.combinations(range(len(counts)), 2):
        if extra[j] > extra[i]:
            assert remainder[j] > remainder[i]
        if extra[i] > extra[j]:
            assert remainder[i] >= remainder[j]
    np.testing.assert_array_equal(out, scale_counts(counts, total))


@st.composite
def random_deck(draw):
    n_terrains = draw(st.integers(0, 5))
    n_others = draw(st.integers(1, 8))
    cards = [{"name": f"terrain {i}", "count": draw(st.integers(1, 6)), "type": "Terrain", "cost": None}
             for i in range(n_terrains)]
    cards += [{"name": f"perso {i}", "count": draw(st.integers(1, 6)), "type": "Personnage",
               "cost": draw(st.integers(0, 3))} for i in range(n_others)]
    deck = deckstat.Deck.from_table(cards)
    return deck, draw(st.integers(0, deck.size))


@settings(max_examples=60, deadline=None)
@given(question=random_deck())
def test_rebuilt_deck_keeps_its_size_and_proportions(question):
    deck, k = question
    rebuilt = with_resource_count(deck, "wankul", k)
    assert rebuilt.size == deck.size
    assert rebuilt.count("Terrain") == k
    before = dict(zip(deck.cards["name"], deck.counts))
    after = dict(zip(rebuilt.cards["name"], rebuilt.counts))
    terrains = {n: c for n, c in before.items() if n.startswith("terrain")}
    others = {n: c for n, c in before.items() if n.startswith("perso")}
    if not terrains and k:
        added = rebuilt.cards.set_index("name").loc["Terrain (ajouté)"]
        assert added["count"] == k and added["type"] == "Terrain"
    for group, total in ((terrains, k), (others, deck.size - k)):
        for name, count in group.items():
            share = count * total / sum(group.values())
            assert math.floor(share) <= after.get(name, 0) <= math.floor(share) + 1, (name, share, after)
    # Cards keep their attributes.
    types = dict(zip(deck.cards["name"], deck.cards["type"]))
    assert all(types.get(name, "Terrain") == kind for name, kind in zip(rebuilt.cards["name"], rebuilt.cards["type"]))


def test_filler_is_the_only_other_card_that_changes(wankul_deck):
    before = dict(zip(wankul_deck.cards["name"], wankul_deck.counts))
    rebuilt = with_resource_count(wankul_deck, "wankul", 12, filler="mamie croquette")
    after = dict(zip(rebuilt.cards["name"], rebuilt.counts))
    assert rebuilt.size == SIZE and rebuilt.count("Terrain") == 12
    assert after["Mamie Croquette"] == before["Mamie Croquette"] - 2
    personnages = [n for n, t in zip(wankul_deck.cards["name"], wankul_deck.cards["type"]) if t == "Personnage"]
    assert all(after[n] == before[n] for n in personnages if n != "Mamie Croquette")
    # The Terrains still scale in proportion: 2,2,2,2,1,1 -> 12 by largest remainder.
    terrains = [after[n] for n, t in zip(rebuilt.cards["name"], rebuilt.cards["type"]) if t == "Terrain"]
    assert terrains == [3, 3, 2, 2, 1, 1]
    down = with_resource_count(wankul_deck, "wankul", 7, filler="Poulet Astronaute")
    assert dict(zip(down.cards["name"], down.counts))["Poulet Astronaute"] == 4


def test_filler_errors(wankul_deck):
    with pytest.raises(DeckstatError, match="would need -3 copies"):
        with_resource_count(wankul_deck, "wankul", 14, filler="Poulet Astronaute")
    with pytest.raises(DeckstatError, match="did you mean 'Mamie Croquette'"):
        with_resource_count(wankul_deck, "wankul", 12, filler="Mamie Croquete")
    with pytest.raises(DeckstatError, match="itself a Terrain card"):
        with_resource_count(wankul_deck, "wankul", 12, filler="Plage de Galets")
    with pytest.raises(DeckstatError, match="do not fit"):
        with_resource_count(wankul_deck, "wankul", 51)


def test_filler_sweep_records_its_rule(wankul_deck):
    result = deckstat.ratio(wankul_deck, "wankul", counts=[10, 11], turns=[0], filler="Mamie Croquette")
    assert result.provenance["filler"] == "Mamie Croquette"
    assert "only the filler card 'Mamie Croquette' changes" in result.provenance["scaling"]
    assert len(result.table) == 2
    # Only the Terrain count matters for Terrain>=1, so the filler gives the same odds as scaling.
    for row in result.table.itertuples():
        assert row.p == pytest.approx(wankul_exact(row.resource_count, row.turn)["by_turn"], abs=1e-12)


def test_a_deck_without_resource_gets_an_added_card():
    deck = deckstat.Deck.from_table([{"name": "Perso", "count": 50, "type": "Personnage", "cost": 1}])
    result = deckstat.ratio(deck, "wankul", counts=[0, 3], turns=[0])
    assert result.provenance["added_card"] == "Terrain (ajouté)"
    assert "'Terrain (ajouté)'" in result.provenance["scaling"]
    at3 = result.table[result.table["resource_count"] == 3].iloc[0]
    assert at3["p_resource_in_hand"] == pytest.approx(wankul_exact(3, 0)["hand"], abs=1e-12)
    at0 = result.table[result.table["resource_count"] == 0].iloc[0]
    assert at0["p"] == 0 and at0["mulligan_rate"] == 1 and math.isnan(at0["expected_first_resource_turn"])
    with pytest.raises(DeckstatError, match="nothing to scale up"):
        deckstat.ratio(deck, "wankul", group="[cost=9]", counts=[2], turns=[0])


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
    provenance = sweep.provenance
    assert provenance["group"] == "Terrain" and provenance["filler"] is None
    assert "largest remainder" in provenance["scaling"]
    assert provenance["game"] == "wankul" and provenance["deck_size"] == SIZE and provenance["deckstat_version"]
    assert provenance["counts"] == [0, 1, 5, 8, 9, 10, 11, 12, 13, 14, 15]
    assert table.attrs == provenance and sweep.summary.attrs == provenance
    summary = sweep.summary
    assert len(summary) == 1
    row = summary.iloc[0]
    assert row["group"] == "Terrain" and row["current_count"] == 10 and row["event"] == "Terrain>=1"
    assert row["target"] == 0.95 and row["target_turn"] == 5 and row["method"] == "exact"


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
    result = deckstat.ratio(wankul_deck, "wankul", counts=[0, 10, 12], turns=[0, 2], mulligan=False, seat="second")
    assert (result.table["seat"] == "second").all() and result.provenance["mulligan_rule"] == "none"
    assert len(result.table) == 6
    for row in result.table.itertuples():
        expected = wankul_exact(row.resource_count, row.turn, mulligan=False)
        assert row.p == pytest.approx(expected["by_turn"], abs=1e-12)
        assert row.p_resource_in_hand == pytest.approx(expected["hand"], abs=1e-12)
        assert row.mulligan_rate == 0
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
    result = deckstat.ratio(deck, "wankul", counts=range(0, 6), turns=[0], mulligan=mulligan)
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

def test_exact_target_names_the_smallest_count_reaching_it(sweep, wankul_deck):
    # By turn 5 even 8 Terrains reach 95%; 8 is not legal, 10 is the smallest legal count.
    reaching = [k for k in (0, 1, 5, 8, 9, 10) if wankul_exact(k, 5)["by_turn"] >= 0.95]
    summary = sweep.summary.iloc[0]
    assert summary["decision"] == "decided" and summary["recommended"] == reaching[0] == 8
    assert summary["recommended_is_legal"] is not None and not summary["recommended_is_legal"]
    assert summary["recommended_legal"] == 10
    assert summary["legal_decision"] == "decided"
    [sentence] = ratio_decision(sweep)
    assert sentence.startswith("recommended: 8 Terrain cards") and "not legal" in sentence
    assert "the smallest legal count reaching it is 10" in sentence
    # In the opening hand: the smallest count whose closed form reaches 95%.
    result = deckstat.ratio(wankul_deck, "wankul", counts=range(8, 15), turns=[0, 5], target=0.95, target_turn=0)
    expected = min(k for k in range(8, 15) if wankul_exact(k, 0)["by_turn"] >= 0.95)
    assert result.summary["recommended"].iloc[0] == expected == 12
    assert ratio_decision(result)[0].startswith("recommended: 12 Terrain cards")
    # The status at the target turn is repeated on every turn row of its count.
    statuses = result.table.groupby("resource_count")["target_status"].agg(set)
    assert all(statuses[k] == {"reached" if k >= 12 else "not reached"} for k in range(8, 15))
    unreachable = deckstat.ratio(wankul_deck, "wankul", counts=[8, 9], turns=[0], target=0.99)
    assert unreachable.summary["decision"].iloc[0] == "none"
    assert pd.isna(unreachable.summary["recommended"].iloc[0])
    assert ratio_decision(unreachable)[0].startswith("no count")
    # Without a target there is no decision and no sentence.
    assert sweep.summary["decision"].iloc[0] == "decided"
    plain = deckstat.ratio(wankul_deck, "wankul", counts=[10], turns=[0])
    assert plain.summary["decision"].iloc[0] == "no target" and ratio_decision(plain) == []
    assert plain.table["target_status"].isna().all()


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

def test_cli_table():
    out = ok(run("ratio", WANKUL, "--game", "wankul", "--range", "9-11", "--event", "Terrain>=1", "--turns", "0-1",
                 "--target", "0.93", "--target-turn", "0", "--seed", "5"))
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in out.splitlines() if "│" in line]
    body = {r[0]: r for r in rows if r[0]}
    assert set(body) == {"9", "10", "11 ◀"}
    assert body["9"][1] == "✗" and body["10"][1] == "✓"
    assert body["10"][2] == format_probability(wankul_exact(10, 0)["hand"])
    assert body["10"][3] == format_probability(wankul_exact(10, 0)["rate"])
    assert body["10"][6] == format_probability(wankul_exact(10, 0)["by_turn"])
    # The simulated deck-out column is the API's number for the same seed.
    api = deckstat.ratio(deckstat.load_deck(WANKUL), "wankul", counts=range(9, 12), event="Terrain>=1", turns=range(2),
                         target=0.93, target_turn=0, rng=5).table
    assert body["10"][5] == f"≈ turn {api.loc[api['resource_count'] == 10, 'deckout_turn_first'].iloc[0]:.2f}"
    assert "✗ 9 Terrain cards: Terrain: 9 in 50 cards" in out
    assert "recommended: 11 Terrain cards" in out


def test_cli_json_matches_the_api(wankul_deck):
    out = ok_json(run("ratio", WANKUL, "--game", "wankul", "--range", "10,12", "--turns", "0-1", "--format", "json",
                      "--seed", "3"))
    assert out["question"] == "ratio" and set(out) == {"question", "provenance", "table", "summary"}
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
