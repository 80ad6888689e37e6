"""A seed that cannot be one is refused by every question, whatever its method, before any work."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import sample_deck, stable_id

import deckstat
from deckstat.errors import DeckstatError

BAD_SEEDS = [-1, np.int64(-3), 1.5, 2.0, True, "42", [1, 2]]


@pytest.fixture(scope="module")
def deck():
    return deckstat.load_deck(sample_deck("wankul"))


def _questions(deck):
    """Each public question with a seed, asked with its method at its cheapest (exact where it has one)."""
    return {
        "odds": lambda rng: deckstat.odds(deck, "wankul", "Terrain>=1", turns=[0], mulligan=False, method="exact",
                                          rng=rng),
        "when": lambda rng: deckstat.when(deck, "wankul", "Terrain>=1", mulligan=False, method="exact", rng=rng),
        "curve": lambda rng: deckstat.curve(deck, "wankul", cards="Terrain", mulligan=False, n_trials=1000,
                                            rng=rng),
        "mulligan": lambda rng: deckstat.mulligan(deck, "wankul", event="Terrain>=1", method="exact", rng=rng),
        "deckout": lambda rng: deckstat.deckout(deck, "wankul", method="exact", rng=rng),
        "ratio": lambda rng: deckstat.ratio(deck, "wankul", event="Terrain>=1", counts=[10], n_trials=1000, rng=rng),
        "compare": lambda rng: deckstat.compare([deck, deck], "wankul", "Terrain>=1", turns=[0], method="exact",
                                                rng=rng),
        "report": lambda rng: deckstat.report(deck, "wankul", n_trials=1000, rng=rng),
    }


@pytest.mark.parametrize("name", ["odds", "when", "curve", "mulligan", "deckout", "ratio", "compare", "report"])
@pytest.mark.parametrize("seed", BAD_SEEDS, ids=stable_id)
def test_a_seed_that_cannot_be_one_is_refused_by_every_question(deck, name, seed):
    with pytest.raises(DeckstatError) as caught:
        _questions(deck)[name](seed)
    assert str(caught.value).startswith("rng must be a seed from 0, a numpy Generator or None, got "), caught.value


@pytest.mark.parametrize("seed", [0, 7, np.int32(7), None, np.random.default_rng(3), np.random.SeedSequence(3)],
                         ids=stable_id)
def test_usable_seeds_are_taken_by_an_exact_answer(deck, seed):
    result = deckstat.odds(deck, "wankul", "Terrain>=1", turns=[0], mulligan=False, method="exact", rng=seed)
    assert 0 < float(result.table["p"].iloc[0]) < 1
