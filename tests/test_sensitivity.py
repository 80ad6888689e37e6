"""The ±1-copy table: against separate exact runs, a derived paired difference, the rules, and the command line."""

import math
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest
from helpers import assert_user_error, ok, run, sample_deck, z_for
from scipy.special import comb

import deckstat
from deckstat.questions.sensitivity import Move, Objective, moved

Z95 = NormalDist().inv_cdf(0.975)


def generic_deck():
    return deckstat.Deck.from_table([{"name": "A", "count": 3, "type": "x"}, {"name": "B", "count": 5, "type": "y"},
                                     {"name": "C", "count": 32, "type": "z"}], source="small.csv")


@pytest.fixture(scope="module")
def wankul():
    return deckstat.load_deck(sample_deck("wankul"))


@pytest.fixture(scope="module")
def wankul_table(wankul):
    return deckstat.sensitivity(wankul, "wankul", event="Terrain>=1 and [cost<=1]>=1", by_turn=2)


def _row(table, card, move):
    return table[(table["card"] == card) & (table["move"] == move)].iloc[0]


def test_exact_changes_are_two_exact_runs_apart(wankul, wankul_table):
    event = "Terrain>=1 and [cost<=1]>=1"
    base = deckstat.odds(wankul, "wankul", event, turns=[2], seat="first", sides=False).table["p"].iloc[0]
    labels = wankul.labels
    for card in ("Robot Camembert", "Le Grenier Hanté", "Poulet Astronaute"):
        row = labels.index(card)
        for delta, move in ((-1, "-1"), (1, "+1")):
            other = moved(wankul, Move(row, delta))
            p = deckstat.odds(other, "wankul", event, turns=[2], seat="first", sides=False).table["p"].iloc[0]
            got = _row(wankul_table.table, card, move)
            assert got["change"] == pytest.approx(p - base, abs=1e-12)
            assert got["ci_low"] == got["change"] == got["ci_high"]
            assert got["count_after"] == wankul.counts[row] + delta


def test_exact_changes_match_the_hypergeometric_closed_form():
    # P(at least one A among the m cards seen), no mulligan: 1 - C(N - a, m) / C(N, m).
    deck, t = generic_deck(), 3
    result = deckstat.sensitivity(deck, "generic", event="A>=1", by_turn=t, mulligan=False)
    m = int(deckstat.odds(deck, "generic", "A>=1", turns=[t], seat="first", mulligan=False,
                          sides=False).table["zone_size"].iloc[0])

    def p(n, a):
        return 1 - comb(n - a, m, exact=True) / comb(n, m, exact=True)

    assert result.objectives["p"].iloc[0] == pytest.approx(p(40, 3), abs=1e-12)
    expected = {("A", "-1"): p(39, 2) - p(40, 3), ("A", "+1"): p(41, 4) - p(40, 3),
                ("B", "-1"): p(39, 3) - p(40, 3), ("B", "+1"): p(41, 3) - p(40, 3),
                ("C", "-1"): p(39, 3) - p(40, 3), ("C", "+1"): p(41, 3) - p(40, 3)}
    for (card, move), change in expected.items():
        assert _row(result.table, card, move)["change"] == pytest.approx(change, abs=1e-12)


def test_weighted_objectives_add_their_changes():
    deck = generic_deck()
    one = deckstat.sensitivity(deck, "generic", objectives="odds: A>=1 @ 2", mulligan=False).table
    two = deckstat.sensitivity(deck, "generic", objectives="odds: B>=1 and C>=2 @ 4", mulligan=False).table
    both = deckstat.sensitivity(deck, "generic", objectives=["2 * odds: A>=1 @ 2", "0.5 * odds: B>=1 and C>=2 @ 4"],
                                mulligan=False)
    for row in both.table.itertuples(index=False):
        expected = 2 * _row(one, row.card, row.move)["change"] + 0.5 * _row(two, row.card, row.move)["change"]
        assert row.change == pytest.approx(expected, abs=1e-12)
    assert list(both.objectives["weight"]) == [2.0, 0.5]


def test_a_simulated_change_is_the_derived_paired_difference():
    """+1 copy of A, in-hand model, no mulligan: the spare card lands among the m cards seen with probability
    m / (N + 1), and only then can the game change, from no A seen to A seen: the per-game difference D is 0 or 1,
    P(D = 1) = m / (N + 1) · C(N - a, m) / C(N, m), and its interval's half-width z·sqrt(p(1 - p)/n)."""
    deck, t, n = generic_deck(), 3, 40_000
    result = deckstat.sensitivity(deck, "generic", curve_target="A", by_turn=t, mulligan=False, method="simulate",
                                  n_trials=n, rng=11, cards="A")
    m = int(deckstat.odds(deck, "generic", "A>=1", turns=[t], seat="first", mulligan=False,
                          sides=False).table["zone_size"].iloc[0])
    size, a = deck.size, 3
    gain = m / (size + 1) * comb(size - a, m, exact=True) / comb(size, m, exact=True)
    row = _row(result.table, "A", "+1")
    se = math.sqrt(gain * (1 - gain) / n)
    slack = z_for(2) * se
    assert abs(row["change"] - gain) < slack
    # The half-width is z·sqrt(p(1 - p)/n) at the estimated p: within what p's own error allows (p < 1/2).
    half = (row["ci_high"] - row["ci_low"]) / 2

    def width(p):
        return Z95 * math.sqrt(p * (1 - p) / n)

    assert width(gain - slack) <= half <= width(gain + slack)
    # Paired: narrower than two independent runs of the deck's own answer, 1 - C(N - a, m) / C(N, m), would give.
    p_deck = 1 - comb(size - a, m, exact=True) / comb(size, m, exact=True)
    assert half < Z95 * math.sqrt(2 * p_deck * (1 - p_deck) / n)
    # A copy fewer: the change is exact's within its interval, stretched for the two comparisons.
    exact = deckstat.sensitivity(deck, "generic", curve_target="A", by_turn=t, mulligan=False, cards="A").table
    fewer, exact_fewer = _row(result.table, "A", "-1"), _row(exact, "A", "-1")
    half = (fewer["ci_high"] - fewer["ci_low"]) / 2
    assert abs(fewer["change"] - exact_fewer["change"]) < z_for(2) / Z95 * half


def test_simulated_tables_depend_on_the_seed_alone(wankul):
    common = {"curve_target": "Robot Camembert", "by_turn": 4, "cards": ["Robot Camembert", "Le Grenier Hanté"],
              "n_trials": 3_000, "rng": 5}
    one = deckstat.sensitivity(wankul, "wankul", chunk_size=1_000, **common).table
    two = deckstat.sensitivity(wankul, "wankul", chunk_size=3_000, **common).table
    assert one.equals(two)


def test_legality_and_the_legal_version_of_a_move(wankul, wankul_table):
    table = wankul_table.table
    # A 4th copy breaks the copy limit: no swap at the deck's size mends it.
    fourth = _row(table, "Robot Camembert", "+1")
    assert not fourth["legal"] and "3" in fourth["violation"] and pd.isna(fourth["swap_card"])
    event = "Terrain>=1 and [cost<=1]>=1"
    base = deckstat.odds(wankul, "wankul", event, turns=[2], seat="first", sides=False).table["p"].iloc[0]
    labels = wankul.labels
    for card, move in (("Le Grenier Hanté", "-1"), ("Ninja du Marché", "+1")):
        row = _row(table, card, move)
        assert not row["legal"] and isinstance(row["swap_card"], str)
        delta = -1 if move == "-1" else 1
        swapped = moved(wankul, Move(labels.index(card), delta, labels.index(row["swap_card"])))
        assert swapped.size == wankul.size and deckstat.validate(swapped, "wankul").legal
        p = deckstat.odds(swapped, "wankul", event, turns=[2], seat="first", sides=False).table["p"].iloc[0]
        assert row["swap_change"] == pytest.approx(p - base, abs=1e-12)
    # The copy more takes the place of the cut that costs least.
    cuts = table[(table["move"] == "-1") & (table["card"] != "Ninja du Marché")]
    assert _row(table, "Ninja du Marché", "+1")["swap_card"] == cuts.loc[cuts["change"].idxmax(), "card"]


def test_a_filler_fills_first(wankul):
    result = deckstat.sensitivity(wankul, "wankul", event="Terrain>=1", by_turn=1, filler="Yéti en Vacances",
                                  cards=["Robot Camembert", "Yéti en Vacances", "Ninja du Marché"])
    assert _row(result.table, "Robot Camembert", "-1")["swap_card"] == "Yéti en Vacances"
    assert _row(result.table, "Yéti en Vacances", "-1")["swap_card"] != "Yéti en Vacances"


def test_cards_are_sorted_by_their_largest_change(wankul_table):
    largest = wankul_table.table.groupby("card", sort=False)["change"].apply(lambda c: c.abs().max())
    assert list(largest) == sorted(largest, reverse=True)
    assert np.all(wankul_table.table.groupby("card", sort=False)["move"].apply(list).map(tuple) == ("-1", "+1"))


@pytest.mark.parametrize("text, weight, kind, target, turn", [
    ("odds: Terrain>=1 @ 2", 1.0, "odds", "Terrain>=1", 2),
    ("2 * curve: [cost>=2] @ 3", 2.0, "curve", "[cost>=2]", 3),
    ("0,5 × courbe : Robot Camembert @ 5", 0.5, "curve", "Robot Camembert", 5),
    ("cotes: A>=1 and B@x>=1 @ 0", 1.0, "odds", "A>=1 and B@x>=1", 0),
])
def test_objectives_are_read_in_english_and_french(text, weight, kind, target, turn):
    assert Objective.parse(text) == Objective(kind, target, turn, weight)


@pytest.mark.parametrize("text, needle", [
    ("Terrain>=1 @ 2", "kind"), ("odds: Terrain>=1", "@ TURN"), ("odds: Terrain>=1 @ two", "whole number"),
    ("guess: Terrain>=1 @ 2", "kind"), ("", "KIND: TARGET @ TURN"),
])
def test_a_bad_objective_is_one_line_naming_it(text, needle):
    with pytest.raises(deckstat.DeckstatError, match=needle.replace("(", r"\(")):
        Objective.parse(text)


def test_bad_questions_are_refused_before_any_work(wankul):
    with pytest.raises(deckstat.DeckstatError, match="nothing to judge"):
        deckstat.sensitivity(wankul, "wankul")
    with pytest.raises(deckstat.DeckstatError, match="Robot Camembart"):
        deckstat.sensitivity(wankul, "wankul", curve_target="Robot Camembart")
    with pytest.raises(deckstat.DeckstatError, match="objective 'odds: \\[cots<=1\\]>=1 @ 2'"):
        deckstat.sensitivity(wankul, "wankul", objectives="odds: [cots<=1]>=1 @ 2")
    with pytest.raises(deckstat.DeckstatError, match="not in the deck"):
        deckstat.sensitivity(wankul, "wankul", event="Terrain>=1", cards="Nobody")


def test_the_command_answers_in_english_and_french():
    deck = sample_deck("wankul")
    english = ok(run("sensitivity", deck, "--game", "wankul", "--event", "Terrain>=1 and [cost<=1]>=1",
                     "--by-turn", "2", "--card", "Robot Camembert", "--card", "Le Grenier Hanté"))
    assert "a copy fewer" in english and "a 4th Robot Camembert" in english and "cutting Le Grenier Hanté" in english
    french = ok(run("sensibilite", deck, "--game", "wankul", "--objective", "cotes: Terrain>=1 @ 1", "--card",
                    "Robot Camembert", "--lang", "fr"))
    assert "Ce que vaut un exemplaire" in french and "couper Robot Camembert" in french and "4e" in french
    data = ok(run("sensitivity", deck, "--game", "wankul", "--event", "Terrain>=1", "--card", "Robot Camembert",
                  "--format", "csv"))
    assert data.splitlines()[0].startswith("deck,game,card,count,move")


def test_the_command_refuses_a_bad_objective_in_one_line():
    assert_user_error(run("sensitivity", sample_deck("wankul"), "--game", "wankul", "--objective", "odds Terrain"),
                      "odds Terrain")
