"""The optimiser against every legal deck of small pools, and what it promises on large ones."""

import itertools
from math import comb

import numpy as np
import pytest
from helpers import DATA, assert_user_error, ok, run, sample_deck

import deckstat
from deckstat.questions import optimise as optimise_module

# A 10-card Wankul deck (at least 2 Terrains, at most 3 copies of a card) and a pool of three more cards.
DECK = [{"name": "Plaine", "count": 2, "type": "Terrain"}, {"name": "Mousse", "count": 3, "type": "Personnage",
                                                             "cost": 0},
        {"name": "Lutin", "count": 3, "type": "Personnage", "cost": 1},
        {"name": "Géant", "count": 2, "type": "Personnage", "cost": 3}]
POOL = [{"name": "Colline", "type": "Terrain"}, {"name": "Ogre", "type": "Personnage", "cost": 2},
        {"name": "Lutin", "type": "Personnage", "cost": 1}]
ROWS = ["Plaine", "Mousse", "Lutin", "Géant", "Colline", "Ogre"]
TERRAIN, CHEAP, COSTLY = {"Plaine", "Colline"}, {"Mousse", "Lutin"}, {"Géant", "Ogre"}
OBJECTIVES = ["odds: Terrain>=1 and [cost<=1]>=1 @ 1", "0.5 * odds: [cost>=2]>=1 @ 2"]
#: Cards seen by the first player by turns 1 and 2 of a 10-card Wankul deck with no mulligan, as the engine deals.
SEEN = tuple(int(deckstat.odds(deckstat.Deck.from_table(DECK), "wankul", "Terrain>=1", turns=[t], seat="first",
                               mulligan=False, sides=False).table["zone_size"].iloc[0]) for t in (1, 2))


def _none_of(n: int, k: int, m: int) -> float:
    """P(none of k cards among m drawn from n)."""
    return comb(n - k, m) / comb(n, m)


def _value(counts: dict[str, int]) -> tuple[float, float]:
    """Both objectives in closed form, no mulligan, on the cards seen by turns 1 and 2 (:data:`SEEN`).

    Terrains and cheap cards are disjoint, so P(both) = 1 - P(no Terrain) - P(no cheap card) + P(neither).
    """
    n = sum(counts.values())
    t, c, h = (sum(counts.get(r, 0) for r in group) for group in (TERRAIN, CHEAP, COSTLY))
    m1, m2 = SEEN
    first = 1 - _none_of(n, t, m1) - _none_of(n, c, m1) + _none_of(n, t + c, m1)
    return first, 1 - _none_of(n, h, m2)


def _legal(counts: dict[str, int], caps: dict[str, int]) -> bool:
    """The rules text's construction rules for 10 cards, and the copies a candidate may hold."""
    return (sum(counts.values()) == 10 and sum(counts.get(r, 0) for r in TERRAIN) >= 2
            and all(counts.get(r, 0) <= caps[r] for r in ROWS))


def _brute_force(caps: dict[str, int]) -> float:
    best = -1.0
    for combo in itertools.product(*(range(caps[r] + 1) for r in ROWS)):
        counts = dict(zip(ROWS, combo))
        if _legal(counts, caps):
            first, second = _value(counts)
            best = max(best, first + 0.5 * second)
    return best


def _optimise(**kwargs):
    deck, pool = deckstat.Deck.from_table(DECK, source="small.csv"), deckstat.Deck.from_table(POOL, source="pool")
    return deckstat.optimise(deck, "wankul", objectives=OBJECTIVES, pool=pool, mulligan=False, budget=30, rng=3,
                             **kwargs)


@pytest.mark.parametrize("owned, caps", [
    (None, dict.fromkeys(ROWS, 3)),
    # One Ogre, no Colline owned; the deck's own copies (3 Lutin) are always allowed.
    ([{"name": "Ogre", "count": 1}, {"name": "Lutin", "count": 1}, {"name": "Plaine", "count": 3},
      {"name": "Géant", "count": 2}, {"name": "Mousse", "count": 3}],
     {"Plaine": 3, "Mousse": 3, "Lutin": 3, "Géant": 2, "Colline": 0, "Ogre": 1}),
])
def test_the_optimum_of_a_small_pool_is_the_exhaustive_one(owned, caps):
    result = _optimise(owned=None if owned is None else deckstat.Deck.from_table(owned, source="owned"))
    assert result.provenance["search"] == "exhaustive"
    best = result.table[result.table["candidate"] == "best"].iloc[0]
    assert best["value"] == pytest.approx(_brute_force(caps), abs=1e-12)
    counts = dict(zip(result.best.names, result.best.counts.tolist()))
    assert _legal(counts, caps) and deckstat.validate(result.best, "wankul").legal
    assert sum(_value(counts) * np.array([1, 0.5])) == pytest.approx(best["value"], abs=1e-12)
    # The objectives' table holds each objective's answer for the deck and the best, as deckstat.odds gives it.
    for row, objective in zip(result.objectives.itertuples(index=False), OBJECTIVES):
        event, turn = objective.split(": ")[1].split(" @ ")
        p = deckstat.odds(result.best, "wankul", event, turns=[int(turn)], seat="first", mulligan=False,
                          sides=False).table["p"].iloc[0]
        assert row.p_best == pytest.approx(p, abs=1e-12)


def test_the_tied_set_and_the_front_hold_legal_decks_only():
    result = _optimise()
    best = result.table[result.table["candidate"] == "best"]["value"].iloc[0]
    assert (result.tied["value"] - best).abs().max() <= 1e-12
    front = result.front
    assert front is not None and len(front) >= 1
    # No deck of the front beats another on both objectives, and the best deck's objectives are on it or under it.
    for a in front.itertuples(index=False):
        assert not any(b.p_1 >= a.p_1 and b.p_2 >= a.p_2 and (b.p_1 > a.p_1 or b.p_2 > a.p_2)
                       for b in front.itertuples(index=False))


@pytest.fixture(scope="module")
def wankul():
    return deckstat.load_deck(sample_deck("wankul"))


@pytest.fixture(scope="module")
def pool():
    return deckstat.load_deck(DATA / "wankul" / "pool.csv")


def test_a_local_search_is_never_worse_than_the_decks_the_user_knew(wankul, pool):
    start = deckstat.load_deck(sample_deck("wankul", "sample_deck_v2.csv"))
    result = deckstat.optimise(wankul, "wankul", event="Terrain>=1 and [cost<=1]>=1", by_turn=2, pool=pool,
                               start=start, budget=3, rng=1)
    assert result.provenance["search"] == "local"
    values = result.table.set_index("candidate")["value"]
    assert values["best"] >= values["current"] and values["best"] >= values["start"]
    assert deckstat.validate(result.best, "wankul").legal and result.best.size == wankul.size
    p = deckstat.odds(result.best, "wankul", "Terrain>=1 and [cost<=1]>=1", turns=[2], seat="first",
                      sides=False).table["p"].iloc[0]
    assert values["best"] == pytest.approx(p, abs=1e-12)


def test_locked_cards_keep_their_copies(wankul, pool):
    result = deckstat.optimise(wankul, "wankul", event="[cost<=1]>=2", by_turn=1, pool=pool,
                               lock=["Robot Camembert", "Le Grenier Hanté"], budget=2, rng=2)
    best = dict(zip(result.best.names, result.best.counts.tolist()))
    assert best["Robot Camembert"] == 3 and best["Le Grenier Hanté"] == 2


def test_ctrl_c_keeps_the_best_deck_so_far(wankul, pool, monkeypatch):
    def interrupted(self, counts):
        raise KeyboardInterrupt

    monkeypatch.setattr(optimise_module._Search, "_climb", interrupted)
    result = deckstat.optimise(wankul, "wankul", event="Terrain>=1", by_turn=1, pool=pool, budget=5, rng=1)
    assert result.provenance["interrupted"]
    values = result.table.set_index("candidate")["value"]
    assert values["best"] >= values["current"]


@pytest.mark.parametrize("kwargs, needle", [
    ({"objectives": "curve: Robot Camembert @ 4", "mulligan_rule": "london", "keep": "Terrain>=1"},
     "bottom mulligan"),
    ({"objectives": "curve: Robot Camembart @ 4"}, "Robot Camembart"),
    ({"event": "Terrain>=1", "budget": 0}, "budget"),
    ({"event": "Terrain>=1", "lock": "Nobody"}, "Nobody"),
    ({"event": "[cots<=1]>=1"}, "cots"),
    ({}, "nothing to judge"),
])
def test_bad_questions_are_refused_before_the_search(wankul, kwargs, needle):
    with pytest.raises(deckstat.DeckstatError, match=needle):
        deckstat.optimise(wankul, "wankul", **kwargs)


def test_a_start_deck_of_another_size_is_refused(wankul):
    start = deckstat.Deck.from_table([{"name": "Robot Camembert", "count": 3, "type": "Personnage", "cost": 2}])
    with pytest.raises(deckstat.DeckstatError, match="keeps the deck's size"):
        deckstat.optimise(wankul, "wankul", event="Terrain>=1", start=start)


def test_the_command_writes_the_best_deck(tmp_path):
    out = tmp_path / "meilleur.csv"
    text = ok(run("optimise", sample_deck("wankul"), "--game", "wankul", "--pool", DATA / "wankul" / "pool.csv",
                  "--objective", "odds: Terrain>=1 and [cost<=1]>=1 @ 2", "--budget", "2s", "--seed", "4",
                  "--out", out))
    assert "odds: Terrain>=1 and [cost<=1]>=1 @ 2" in text
    best = deckstat.load_deck(out)
    assert best.size == 50 and deckstat.validate(best, "wankul").legal
    french = ok(run("optimise", sample_deck("wankul"), "--game", "wankul", "--event", "Terrain>=1", "--by-turn", "1",
                    "--budget", "1", "--lang", "fr"))
    assert "meilleur deck" in french


def test_the_command_refuses_a_bad_budget():
    assert_user_error(run("optimise", sample_deck("wankul"), "--game", "wankul", "--event", "Terrain>=1",
                          "--budget", "soon"), "--budget")


# --------------------------------------------------------------------------- races, where an objective is simulated

def test_a_race_reaches_the_exhaustive_optimum_within_its_interval():
    caps = dict.fromkeys(ROWS, 3)
    optimum = _brute_force(caps)
    result = _optimise(method="simulate", n_trials=64_000)
    assert result.provenance["search"] == "race" and result.provenance["method"] == "simulate"
    counts = dict(zip(result.best.names, result.best.counts.tolist()))
    assert _legal(counts, caps)
    reached = sum(_value(counts) * np.array([1, 0.5]))
    best = result.table.set_index("candidate").loc["best"]
    # A race stops when no swap is clearly better: the deck it keeps is within an interval of the optimum.
    assert best["gain_high"] > best["gain_low"]
    assert optimum - reached <= best["gain_high"] - best["gain_low"] + 1e-12
    # The gain's interval is that of a paired difference of the objectives' weighted sum: it covers the exact one.
    current = dict(zip(ROWS, [2, 3, 3, 2, 0, 0]))
    exact_gain = reached - sum(_value(current) * np.array([1, 0.5]))
    assert best["gain_low"] - 1e-12 <= exact_gain <= best["gain_high"] + 1e-12


def test_a_race_under_the_london_mulligan_never_loses_the_deck_it_started_from():
    dm = deckstat.load_deck(sample_deck("duel-masters"))
    result = deckstat.optimise(dm, "duel-masters", objectives="odds: [cost<=2]>=2 @ 2", mulligan_rule="london",
                               keep="[cost<=3]>=2", budget=20, rng=1)
    assert result.provenance["search"] == "race"
    best = result.table.set_index("candidate").loc["best"]
    assert best["gain_low"] > 0 and best["legal"] and result.best.size == dm.size
    again = deckstat.optimise(dm, "duel-masters", objectives="odds: [cost<=2]>=2 @ 2", mulligan_rule="london",
                              keep="[cost<=3]>=2", budget=20, rng=1)
    assert again.best.cards.equals(result.best.cards)


def test_a_curve_objective_is_raced_to_the_deck_that_holds_every_copy_it_can():
    # In-hand play model (no play model of its own): "playable by turn t" is "a copy among the m cards seen".
    deck = deckstat.Deck.from_table([{"name": "A", "count": 2, "type": "x"}, {"name": "B", "count": 38, "type": "y"}],
                                    source="small.csv")
    pool = deckstat.Deck.from_table([{"name": "C", "type": "x"}, {"name": "D", "type": "y"}], source="pool")
    owned = deckstat.Deck.from_table([{"name": "A", "count": 4}, {"name": "C", "count": 3}], source="owned")
    result = deckstat.optimise(deck, "generic", objectives="curve: [type=x] @ 2", pool=pool, owned=owned,
                               mulligan=False, budget=60, rng=2)
    assert result.provenance["search"] == "race"
    assert sorted(zip(result.best.names, result.best.counts.tolist())) == [("A", 4), ("B", 33), ("C", 3)]
    m = int(deckstat.odds(deck, "generic", "[type=x]>=1", turns=[2], seat="first", mulligan=False,
                          sides=False).table["zone_size"].iloc[0])
    gain = (1 - comb(33, m) / comb(40, m)) - (1 - comb(38, m) / comb(40, m))
    best = result.table.set_index("candidate").loc["best"]
    assert best["gain_low"] <= gain <= best["gain_high"]
