"""Comparing decklists: exact differences, common random numbers, interval coverage."""

import numpy as np
import pandas as pd
import pytest
from helpers import FAMILY_ALPHA, sample_deck, z_for
from scipy.stats import binomtest, norm

import deckstat
from deckstat.questions.compare import card_differences, compare

EVENT = "Terrain>=1 and [cost<=1]>=1"


@pytest.fixture(scope="module")
def decks():
    return [deckstat.load_deck(sample_deck("wankul")), deckstat.load_deck(sample_deck("wankul", "sample_deck_v2.csv"))]


def test_card_differences(decks):
    diff = card_differences(*decks).set_index("name")
    assert diff.loc["Yéti en Vacances", "change"] == "removed"
    assert diff.loc["Forêt des Chaussettes", "change"] == "+1"
    assert (diff["count_a"] != diff["count_b"]).all()
    assert (decks[1].size - decks[0].size) == (diff["count_b"] - diff["count_a"]).sum()
    assert (diff["deck_a"] == "sample_deck.csv").all() and (diff["deck_b"] == "sample_deck_v2.csv").all()
    assert card_differences(decks[0], decks[0]).empty


def test_exact_difference_is_the_difference_of_exact_odds(decks):
    result = compare(decks, "wankul", EVENT, turns=range(5))
    a = deckstat.odds(decks[0], "wankul", EVENT, turns=range(5)).table
    b = deckstat.odds(decks[1], "wankul", EVENT, turns=range(5)).table
    table = result.table
    assert list(table["seat"]) == list(a["seat"]) and list(table["turn"]) == list(a["turn"])
    np.testing.assert_allclose(table["diff"], b["p"] - a["p"], atol=1e-15)
    np.testing.assert_allclose(table["p_a"], a["p"], atol=1e-15)
    np.testing.assert_allclose(table["p_b"], b["p"], atol=1e-15)
    assert (table["method"] == "exact").all() and table["p_value"].isna().all()
    assert (table["deck_a"] == "sample_deck.csv").all() and (table["deck_b"] == "sample_deck_v2.csv").all()
    # Each deck's own odds, as deckstat.odds gives them.
    pd.testing.assert_frame_equal(result.odds, pd.concat([a, b], ignore_index=True))
    # The card differences, as card_differences gives them.
    pd.testing.assert_frame_equal(result.cards, card_differences(*decks))
    assert not result.cards.empty
    assert result.deckout is None and result.ratio is None


def test_paired_simulation_agrees_with_exact_and_is_narrower(decks):
    exact = compare(decks, "wankul", EVENT, turns=range(5), seat="first").table
    n = 100_000
    paired = compare(decks, "wankul", EVENT, turns=range(5), seat="first", method="simulate", n_trials=n,
                     rng=2).table
    unpaired = compare(decks, "wankul", EVENT, turns=range(5), seat="first", method="simulate", n_trials=n, rng=2,
                       paired=False).table
    z = z_for(len(paired))
    # The paired estimate's standard error is the half-width / 1.96.
    se = (paired["diff_ci_high"] - paired["diff_ci_low"]) / 2 / norm.ppf(0.975)
    assert (np.abs(paired["diff"] - exact["diff"]) <= z * se).all()
    half_paired = paired["diff_ci_high"] - paired["diff_ci_low"]
    half_unpaired = unpaired["diff_ci_high"] - unpaired["diff_ci_low"]
    assert (half_paired < 0.8 * half_unpaired).all(), (half_paired / half_unpaired).tolist()
    assert (paired["p_value"] < FAMILY_ALPHA).all()


def test_unpaired_difference_is_the_two_proportion_z_test(decks):
    table = compare(decks, "wankul", EVENT, turns=range(3), seat="first", method="simulate", n_trials=20_000,
                    rng=4, paired=False).table
    n = table["n_trials"].astype(float)
    pooled = (table["p_a"] + table["p_b"]) / 2
    z_stat = np.abs(table["diff"]) / np.sqrt(2 * pooled * (1 - pooled) / n)
    np.testing.assert_allclose(table["p_value"], 2 * norm.sf(z_stat), rtol=1e-12, atol=1e-300)
    half = norm.ppf(0.975) * np.sqrt((table["p_a"] * (1 - table["p_a"]) + table["p_b"] * (1 - table["p_b"])) / n)
    np.testing.assert_allclose(table["diff_ci_high"] - table["diff"], half, rtol=1e-12)


def test_paired_difference_interval_coverage(decks):
    exact = compare(decks, "wankul", EVENT, turns=[1], seat="first").table["diff"].iloc[0]
    n_runs, covered = 200, 0
    for child in np.random.SeedSequence(11).spawn(n_runs):
        run = compare(decks, "wankul", EVENT, turns=[1], seat="first", method="simulate", n_trials=4000,
                      rng=np.random.default_rng(child)).table
        covered += run["diff_ci_low"].iloc[0] <= exact <= run["diff_ci_high"].iloc[0]
    assert binomtest(covered, n_runs, 0.95).pvalue > FAMILY_ALPHA, covered


def test_identical_decks_have_no_difference(decks):
    table = compare([decks[0], decks[0]], "wankul", EVENT, turns=range(3), method="simulate", n_trials=20_000,
                    rng=1).table
    assert (table["diff"] == 0).all() and (table["p_value"] == 1.0).all()


def test_three_decks_and_bad_input(decks):
    result = compare(decks + [decks[0]], "wankul", EVENT, turns=[0], seat="first")
    # The same file twice: decks are told apart by their position.
    names = ["sample_deck.csv (1)", "sample_deck_v2.csv (2)", "sample_deck.csv (3)"]
    assert list(result.table["deck_a"]) == names[:1] * 2 and list(result.table["deck_b"]) == names[1:]
    assert list(result.odds["deck"]) == names
    assert set(result.cards["deck_b"]) == {names[1]}  # the third deck has no card difference
    np.testing.assert_allclose(result.odds["p"].iloc[2], result.odds["p"].iloc[0], atol=1e-15)
    with pytest.raises(deckstat.DeckstatError, match="two decks"):
        compare(decks[:1], "wankul", EVENT)


def test_deckout_side_by_side(decks):
    result = compare(decks, "wankul", EVENT, turns=[0], with_deckout=True, n_trials=5000, rng=1)
    table = result.deckout
    assert list(table["deck"].unique()) == ["sample_deck.csv", "sample_deck_v2.csv"]
    assert set(table["seat"]) == {"first", "second"}
    # Each deck races a copy of itself: the same rows as deckstat.deckout on that deck alone.
    alone = deckstat.deckout(decks[1], "wankul", n_trials=5000, rng=1).summary
    pd.testing.assert_frame_equal(table[table["deck"] == "sample_deck_v2.csv"].reset_index(drop=True), alone)
