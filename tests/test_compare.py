"""Comparing decklists: exact differences, common random numbers, interval coverage."""

import numpy as np
import pytest
from scipy.stats import binomtest, norm

import deckstat
from deckstat.compare import card_differences, compare, compare_deckout

FAMILY_ALPHA = 1e-3
EVENT = "Terrain>=1 and [cost<=1]>=1"


@pytest.fixture(scope="module")
def decks():
    return [deckstat.load_deck("data/wankul/sample_deck.csv"), deckstat.load_deck("data/wankul/sample_deck_v2.csv")]


def test_card_differences(decks):
    diff = card_differences(*decks).set_index("name")
    assert diff.loc["Yéti en Vacances", "change"] == "removed"
    assert diff.loc["Forêt des Chaussettes", "change"] == "+1"
    assert (diff["count_a"] != diff["count_b"]).all()
    assert (decks[1].size - decks[0].size) == (diff["count_b"] - diff["count_a"]).sum()
    assert card_differences(decks[0], decks[0]).empty


def test_exact_difference_is_the_difference_of_exact_odds(decks):
    frame = compare(decks, "wankul", EVENT, turns=range(5))
    a = deckstat.odds(decks[0], "wankul", EVENT, turns=range(5))
    b = deckstat.odds(decks[1], "wankul", EVENT, turns=range(5))
    np.testing.assert_allclose(frame["diff"], b["p"] - a["p"], atol=1e-15)
    assert (frame["method"] == "exact").all() and frame["p_value"].isna().all()
    assert frame.attrs["differences"]["sample_deck_v2.csv"]


def test_paired_simulation_agrees_with_exact_and_is_narrower(decks):
    exact = compare(decks, "wankul", EVENT, turns=range(5), seat="first")
    n = 100_000
    paired = compare(decks, "wankul", EVENT, turns=range(5), seat="first", method="simulate", n_trials=n, rng=2)
    unpaired = compare(decks, "wankul", EVENT, turns=range(5), seat="first", method="simulate", n_trials=n, rng=2,
                       paired=False)
    z = norm.isf(FAMILY_ALPHA / (2 * len(paired)))
    # The paired estimate's standard error is the half-width / 1.96.
    se = (paired["diff_ci_high"] - paired["diff_ci_low"]) / 2 / norm.ppf(0.975)
    assert (np.abs(paired["diff"] - exact["diff"]) <= z * se).all()
    half_paired = paired["diff_ci_high"] - paired["diff_ci_low"]
    half_unpaired = unpaired["diff_ci_high"] - unpaired["diff_ci_low"]
    assert (half_paired < 0.8 * half_unpaired).all(), (half_paired / half_unpaired).tolist()
    assert (paired["p_value"] < FAMILY_ALPHA).all()


def test_paired_difference_interval_coverage(decks):
    exact = compare(decks, "wankul", EVENT, turns=[1], seat="first")["diff"].iloc[0]
    n_runs, covered = 200, 0
    for child in np.random.SeedSequence(11).spawn(n_runs):
        run = compare(decks, "wankul", EVENT, turns=[1], seat="first", method="simulate", n_trials=4000,
                      rng=np.random.default_rng(child))
        covered += run["diff_ci_low"].iloc[0] <= exact <= run["diff_ci_high"].iloc[0]
    assert binomtest(covered, n_runs, 0.95).pvalue > FAMILY_ALPHA, covered


def test_identical_decks_have_no_difference(decks):
    frame = compare([decks[0], decks[0]], "wankul", EVENT, turns=range(3), method="simulate", n_trials=20_000,
                    rng=1)
    assert (frame["diff"] == 0).all() and (frame["p_value"] == 1.0).all()


def test_three_decks_and_bad_input(decks):
    frame = compare(decks + [decks[0]], "wankul", EVENT, turns=[0], seat="first")
    assert list(frame["deck_b"]) == ["sample_deck_v2.csv", "sample_deck.csv"]
    with pytest.raises(deckstat.DeckstatError, match="two decks"):
        compare(decks[:1], "wankul", EVENT)


def test_deckout_side_by_side(decks):
    table = compare_deckout(decks, "wankul", n_trials=5000, rng=1)
    assert list(table["deck"].unique()) == ["sample_deck.csv", "sample_deck_v2.csv"]
    assert set(table["seat"]) == {"first", "second"}
