"""Mulligan rules and the cards they keep: the kernel against a literal simulator and hand-derived values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import hypergeom

import deckstat
from deckstat.errors import DeckstatError, ExpressionError
from deckstat.games.profiles import parse_profile
from deckstat.questions._setup import parse_priority, prepare
from tests import literal
from tests.helpers import assert_user_error, ok, run, sample_deck, z_for


def make_profile(*, hand_size=5, mulligan="none", keep=None, limit=None, resource=None):
    play = {"hand_size": hand_size, "set_aside": 0, "mulligan": mulligan,
            "first_turn_draw": {"first": 1, "second": 1}, "draws_per_turn": 1}
    if limit is not None:
        play["mulligan_limit"] = limit
    if keep is not None:
        play["keep"] = keep
    data = {"id": "test", "name": "Test", "card_types": ["Terrain", "Personnage"],
            "decks": [{"id": "main", "rules": []}], "play": play}
    if resource:
        data["resource_group"] = resource
    return parse_profile(data, where="test profile")


def two_kinds(wanted: int, other: int) -> deckstat.Deck:
    return deckstat.Deck.from_table([{"name": "W", "count": wanted, "type": "Terrain"},
                                     {"name": "O", "count": other, "type": "Personnage"}])


def hand_p(deck, profile, event, **kwargs) -> tuple[float, int]:
    result = deckstat.odds(deck, profile, event, turns=[0], seat="first", zone="hand", method="simulate",
                           n_trials=200_000, **kwargs)
    return float(result.table["p"].iloc[0]), 200_000


def assert_close(p: float, n: int, expected: float, n_comparisons: int) -> None:
    se = math.sqrt(max(expected * (1 - expected), 1e-12) / n)
    assert abs(p - expected) <= z_for(n_comparisons) * se, (p, expected)


# --- hand-derived values on a 6-card deck (2 W, 4 O), 3-card hands -------------------------------------------

def test_london_keeps_the_wanted_cards_it_mulliganed_for():
    # q = P(W>=1 in 3 cards) = 1 - C(4,3)/C(6,3) = 0.8. A failed hand is reshuffled, 3 cards drawn and one put
    # under: the needs (W 1 from the keep rule, W 2 from the event) keep every W, so the kept 2 cards hold
    # both W exactly when the new 3 cards do, P = C(2,2)C(4,1)/C(6,3) = 0.2. First hands are kept with both W
    # with the same 0.2. P(W>=2 in the kept hand) = 0.2 + (1 - 0.8) * 0.2 = 0.24 (a random bottom: 0.2133).
    profile = make_profile(hand_size=3, mulligan="london", keep="Terrain>=1", limit=1)
    both = math.comb(2, 2) * math.comb(4, 1) / math.comb(6, 3)
    q = 1 - math.comb(4, 3) / math.comb(6, 3)
    p, n = hand_p(two_kinds(2, 4), profile, "Terrain>=2", rng=5)
    assert_close(p, n, both + (1 - q) * both, 2)
    # A priority that wants every other card puts a W under instead: only first hands hold both, 0.2.
    p, n = hand_p(two_kinds(2, 4), profile, "Terrain>=2", rng=5, priority="Personnage")
    assert_close(p, n, both, 2)


def test_hearthstone_replaces_what_the_hand_does_not_need():
    # Needs: W 1 (keep rule), W 2 (event). Hands of 2 W (P 0.2) keep both. Hands of 1 W (0.6) replace their
    # 2 O with 2 of the 3 cards left (1 W, 2 O): the W comes with P 2/3. Hands of 0 W (0.2) replace all 3 with
    # the 3 cards left (2 W, 1 O). P(W>=2 in hand) = 0.2 + 0.6 * 2/3 + 0.2 = 0.8.
    profile = make_profile(hand_size=3, mulligan="hearthstone", keep="Terrain>=1")
    p, n = hand_p(two_kinds(2, 4), profile, "Terrain>=2", rng=6)
    assert_close(p, n, 0.8, 1)


def test_pokemon_is_the_hand_conditioned_on_the_keep_rule():
    deck = two_kinds(6, 14)
    q = hypergeom(M=20, n=6, N=5).sf(0)
    both = hypergeom(M=20, n=6, N=5).sf(1)
    for limit in (1, 3, 100):
        profile = make_profile(mulligan="pokemon", keep="Terrain>=1", limit=limit)
        fail = (1 - q) ** limit
        expected = (1 - fail) * both / q + fail * both
        result = deckstat.odds(deck, profile, "Terrain>=2", turns=[0], seat="first", zone="hand")
        assert result.table["method"].iloc[0] == "exact"
        assert result.table["p"].iloc[0] == pytest.approx(expected, rel=1e-12)
    # The rules set no limit: the default makes the truncation negligible.
    profile = make_profile(mulligan="pokemon", keep="Terrain>=1")
    assert profile.mulligan_limit == 100
    report = deckstat.mulligan(deck, profile, event="Terrain>=2", turns=[0])
    assert report.summary["expected_mulligans"].iloc[0] == pytest.approx((1 - q) / q, rel=1e-9)
    simulated = deckstat.mulligan(deck, profile, event="Terrain>=2", turns=[0], method="simulate",
                                  n_trials=200_000, rng=2)
    row = simulated.by_turn[simulated.by_turn["mulligan_rule"] == "pokemon"]
    assert_close(float(row["p"].iloc[0]), 200_000, both / q, 1)


# --- the kernel against the literal simulator ----------------------------------------------------------------

GROUPS = ("terrain", "cheap")
#: 20 cards: 6 Terrains, 6 cheap Personnages, 8 others.
CARDS = [frozenset({"terrain"})] * 6 + [frozenset({"cheap"})] * 6 + [frozenset()] * 8
RULES = [("london", 2), ("vancouver", 2), ("free", 2), ("hearthstone", 1), ("pokemon", 3), ("bottom", 2)]
TURNS = [0, 3]


def literal_deck() -> deckstat.Deck:
    return deckstat.Deck.from_table([{"name": "T", "count": 6, "type": "Terrain"},
                                     {"name": "Petit", "count": 6, "type": "Personnage", "cost": 1},
                                     {"name": "Gros", "count": 8, "type": "Personnage", "cost": 4}])


def literal_hits(rule: str, limit: int, n_trials: int, seed: int) -> np.ndarray:
    """P(Terrain>=2 and [cost<=1]>=1) by turn, and P(keep the first hand), literally."""
    rng = np.random.default_rng(seed)

    def needs(kept_size):
        # Keep rule Terrain>=2, event Terrain>=2 and [cost<=1]>=1, then the resource share 6/20 of the hand.
        return [("terrain", 2), ("cheap", 1), ("terrain", round(6 / 20 * kept_size))]

    hits = np.zeros(len(TURNS) + 1)
    for _ in range(n_trials):
        game = literal.opening(CARDS, rule, hand_size=5, set_aside=0, limit=limit, rng=rng, needs=needs,
                               keep=lambda hand: literal.count(hand, "terrain") >= 2, surplus="terrain")
        for i, turn in enumerate(TURNS):
            seen = game.hand + game.library[:turn]
            hits[i] += literal.count(seen, "terrain") >= 2 and literal.count(seen, "cheap") >= 1
        hits[-1] += game.mulligans == 0
    return hits / n_trials


@pytest.mark.parametrize(("rule", "limit"), RULES)
def test_kernel_agrees_with_the_literal_simulator(rule, limit):
    profile = make_profile(mulligan=rule, keep="Terrain>=2", limit=limit, resource="Terrain")
    n_kernel, n_slow = 200_000, 30_000
    result = deckstat.odds(literal_deck(), profile, "Terrain>=2 and [cost<=1]>=1", turns=TURNS, seat="first",
                           method="simulate", n_trials=n_kernel, rng=11)
    kernel = np.append(result.table["p"].to_numpy(), result.summary["p_keep_first"].iloc[0])
    slow = literal_hits(rule, limit, n_slow, seed=12)
    se = np.sqrt(np.clip(slow * (1 - slow), 1e-4, None) * (1 / n_kernel + 1 / n_slow))
    assert np.all(np.abs(kernel - slow) <= z_for(len(RULES) * len(kernel)) * se), (kernel, slow)


@pytest.mark.parametrize("rule", ["london", "free"])
def test_surplus_resources_go_under_before_other_unwanted_cards(rule):
    # P(the kept hand holds at most 2 Terrains): "not" brings no need, so the needs are the keep rule's 2
    # Terrains and the resource share; a flooded hand sheds its surplus Terrains first. The literal simulator
    # without that rule is 3 points lower for London (0.83 against 0.86), far outside the tolerance.
    profile = make_profile(mulligan=rule, keep="Terrain>=2", limit=2, resource="Terrain")
    n_kernel, n_slow = 200_000, 30_000
    kernel = deckstat.odds(literal_deck(), profile, "not Terrain>=3", turns=[0], seat="first", zone="hand",
                           method="simulate", n_trials=n_kernel, rng=3).table["p"].iloc[0]
    rng = np.random.default_rng(4)
    hits = 0
    for _ in range(n_slow):
        game = literal.opening(CARDS, rule, hand_size=5, set_aside=0, limit=2, rng=rng, surplus="terrain",
                               needs=lambda kept: [("terrain", 2), ("terrain", round(6 / 20 * kept))],
                               keep=lambda hand: literal.count(hand, "terrain") >= 2)
        hits += literal.count(game.hand, "terrain") <= 2
    slow = hits / n_slow
    se = np.sqrt(slow * (1 - slow) * (1 / n_kernel + 1 / n_slow))
    assert abs(kernel - slow) <= z_for(2) * se, (kernel, slow)


def test_needs_policy_puts_away_the_least_wanted_cards():
    hand = [frozenset({"terrain"}), frozenset(), frozenset({"terrain"}), frozenset({"cheap"})]
    needs = [("terrain", 1), ("cheap", 1)]
    assert literal.ranks(hand, needs) == [0, None, None, 1]
    # Unwanted cards go first, the last drawn first; then the last need.
    assert literal.least_wanted(hand, needs, 3) == [2, 1, 3]
    # With Terrain as the resource group, a surplus Terrain goes before a plain card drawn after it.
    flooded = [frozenset({"terrain"}), frozenset({"terrain"}), frozenset(), frozenset({"cheap"})]
    assert literal.least_wanted(flooded, needs, 1) == [2]
    assert literal.least_wanted(flooded, needs, 1, surplus="terrain") == [1]


# --- the published order on the sample Wankul deck -----------------------------------------------------------

def test_london_vancouver_none_order_on_the_sample_wankul_deck():
    deck = deckstat.load_deck(sample_deck("wankul"))
    n = 200_000
    turns = [0, 1, 2, 3]
    runs = {}
    for rule in ("london", "vancouver"):
        for limit in (1, 2):
            runs[rule, limit] = deckstat.odds(deck, "wankul", ["Terrain>=1", "Terrain>=2"], turns=turns,
                                              seat="first", mulligan_rule=rule, mulligan_limit=limit,
                                              n_trials=n, rng=21).table
    none = deckstat.odds(deck, "wankul", ["Terrain>=1", "Terrain>=2"], turns=turns, seat="first",
                         mulligan=False).table
    z = z_for(3 * 2 * 2 * len(turns))
    for limit in (1, 2):
        london, vancouver = runs["london", limit], runs["vancouver", limit]
        se = np.sqrt((london["p"] * (1 - london["p"]) + vancouver["p"] * (1 - vancouver["p"])) / n)
        assert np.all(london["p"] >= vancouver["p"] - z * se)
        se_v = np.sqrt(vancouver["p"] * (1 - vancouver["p"]) / n)
        assert np.all(vancouver["p"] >= none["p"] - z * se_v)
    # Keeping the Terrains the event needs puts London's kept hand with two mulligans clearly above
    # Vancouver's for Terrain>=2 (bottoming Terrains beyond the deck's share put it 5 points below).
    two = runs["london", 2][runs["london", 2]["event"] == "Terrain>=2"]["p"].to_numpy()
    two_v = runs["vancouver", 2][runs["vancouver", 2]["event"] == "Terrain>=2"]["p"].to_numpy()
    assert two[0] > two_v[0] + 0.02


# --- priority -------------------------------------------------------------------------------------------------

def test_priority_parses_groups_and_counts():
    parsed = parse_priority('Terrain=2, [name="A, B"]>=1 ,Dragon')
    assert [(g.label, n) for g, n in parsed] == [("Terrain", 2), ('[name=A, B]', 1), ("Dragon", None)]
    assert [g.position for g, _ in parsed] == [1, 12, 30]
    for text, position in [("Terrain=2,,Dragon", 11), ("Terrain<=2", 8), ("Terrain=x", 9), ("Terrain=0", 9),
                           ("Terrain, [cost<=1", 10)]:
        with pytest.raises(ExpressionError) as info:
            parse_priority(text)
        assert info.value.column == position, (text, info.value)


def test_priority_groups_are_compiled_and_replace_the_needs():
    deck = literal_deck()
    profile = make_profile(mulligan="london", keep="Terrain>=2", limit=2, resource="Terrain")
    setup = prepare(deck, profile, ["Terrain>=1"])
    assert [(g.label, n) for g, n in setup.needs_for(4)] == [("Terrain", 2), ("Terrain", 1)]
    setup = prepare(deck, profile, ["Terrain>=1"], priority="[cost<=1]=1, Terrain")
    assert [(g.label, n) for g, n in setup.needs_for(4)] == [("[cost<=1]", 1), ("Terrain", None)]
    assert "[cost<=1]" in setup.compiled.group_keys
    with pytest.raises(DeckstatError, match="chooses no card"):
        prepare(deck, make_profile(mulligan="bottom", keep="Terrain>=1"), ["Terrain>=1"], priority="Terrain")


def test_priority_on_the_command_line():
    deck = sample_deck("wankul")
    out = ok(run("odds", deck, "-g", "wankul", "-e", "Terrain>=2", "--mulligan-rule", "london", "--turns", "0",
                 "--priority", "Personnage=3, Terrain", "--trials", "20000", "--seed", "1", "-f", "json"))
    assert '"priority": "Personnage=3, Terrain"' in out
    assert_user_error(run("odds", deck, "-g", "wankul", "-e", "Terrain>=2", "--mulligan-rule", "london",
                          "--priority", "Terrain=deux"), "priority 'Terrain=deux'", "position 9")
    assert_user_error(run("mulligan", deck, "-g", "wankul", "--priority", "Terrain"), "--priority", "bottom")


# --- profiles -------------------------------------------------------------------------------------------------

def test_profiles_accept_the_new_rules():
    pokemon = make_profile(mulligan="pokemon", keep="Terrain>=1")
    words = dict(pokemon.describe())["mulligan"]
    assert "until the keep rule holds" in words and "100" in words
    hearthstone = make_profile(mulligan="hearthstone", keep="Terrain>=1")
    assert hearthstone.mulligan_limit == 1 and "shuffled back" in dict(hearthstone.describe())["mulligan"]
    with pytest.raises(DeckstatError, match="one round"):
        make_profile(mulligan="hearthstone", keep="Terrain>=1", limit=2)
    with pytest.raises(DeckstatError, match="one round"):
        deckstat.odds(two_kinds(6, 14), "wankul", "Terrain>=1", mulligan_rule="hearthstone", mulligan_limit=2)


def test_when_and_compare_keep_the_cards_priority_names():
    # The London example above: the needs keep both W (P 0.24 that the kept hand holds 2), a priority for the
    # other cards bottoms a W (0.2). when's turn 0 and each deck of compare are that kept hand.
    profile = make_profile(hand_size=3, mulligan="london", keep="Terrain>=1", limit=1)
    both = math.comb(2, 2) * math.comb(4, 1) / math.comb(6, 3)
    q = 1 - math.comb(4, 3) / math.comb(6, 3)
    n = 200_000
    for priority, expected in ((None, both + (1 - q) * both), ("Personnage", both)):
        first = deckstat.when(two_kinds(2, 4), profile, "Terrain>=2", max_turn=0, seat="first", n_trials=n, rng=7,
                              priority=priority)
        assert_close(float(first.table["cdf"].iloc[0]), n, expected, 6)
        compared = deckstat.compare([two_kinds(2, 4), two_kinds(2, 4)], profile, "Terrain>=2", turns=[0],
                                    seat="first", zone="hand", n_trials=n, rng=7, priority=priority)
        assert len(compared.odds) == 2
        for p in compared.odds["p"]:
            assert_close(float(p), n, expected, 6)


def test_hearthstone_two_of_in_the_opening_hand_on_the_play():
    # The usual Hearthstone question: a 2-of in 30 cards, 3 cards on the play, every other card replaced.
    # P(it is among the first 3) = 1 - C(28,3)/C(30,3); otherwise the 3 replacements come from the 27 cards
    # without the replaced ones: 1 - C(25,3)/C(27,3). Together 0.365517.
    first = 1 - math.comb(28, 3) / math.comb(30, 3)
    again = 1 - math.comb(25, 3) / math.comb(27, 3)
    expected = first + (1 - first) * again
    profile = make_profile(hand_size=3, mulligan="hearthstone", keep="Terrain>=1")
    p, n = hand_p(two_kinds(2, 28), profile, "Terrain>=1", rng=8)
    assert_close(p, n, expected, 2)
    best = deckstat.keep_policy(two_kinds(2, 28), profile, "Terrain>=1", by_turn=0, seat="first")
    assert best.summary["p_best"].iloc[0] == pytest.approx(expected, abs=1e-12)
