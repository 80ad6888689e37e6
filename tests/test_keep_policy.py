"""The best keep rule: brute force over every deal of small decks, and the exact engine for a keep rule."""

import functools
import itertools
from collections import defaultdict

import numpy as np
import pytest
from helpers import assert_user_error, ok, ok_json, run, sample_deck

import deckstat
from deckstat.engines.exact import Condition
from deckstat.engines.known import compositions
from deckstat.engines.policy import MAX_EVALUATIONS, MulliganGame, count_compositions
from deckstat.errors import DeckstatError

# Nine cards: 3 A, 2 B, 4 others; hands of 3; the goal is an A and a B.
CARDS = "AAABBCCCC"
CELLS = np.array([3, 2, 4])
MEMBERSHIP = np.array([[True, False], [False, True], [False, False]])
BOTH = Condition((0, 1), (2, 2), lambda a: (a[0] >= 1) & (a[1] >= 1))
HAND = 3
DEALS = sorted(set(itertools.permutations(CARDS)))  # every deal is equally likely


def goal(seen) -> bool:
    return "A" in seen and "B" in seen


def composition(cards) -> tuple:
    return tuple(cards.count(c) for c in "ABC")


def grouped(deals, part):
    groups = defaultdict(list)
    for deal in deals:
        groups[composition(part(deal))].append(deal)
    return groups.values()


def bottom_best(deals, k, limit, draws, set_aside=0):
    """Best P(goal) when hand k is dealt, the earlier hands lying under the deck in the order they were put back."""
    start = set_aside + k * HAND
    total = 0.0
    for group in grouped(deals, lambda deal: deal[start:start + HAND]):
        library = [deal[start + HAND:] + deal[set_aside:start] for deal in group]
        keep = np.mean([goal(deal[start:start + HAND] + rest[:draws]) for deal, rest in zip(group, library)])
        value = keep if k == limit else max(keep, bottom_best(group, k + 1, limit, draws, set_aside))
        total += len(group) / len(deals) * value
    return total


def kept_best(group, size, n_bottom, scry, draws):
    """Best P(goal) on keeping a hand of ``size`` (one composition): best cards put under, or best scry."""
    hand = group[0][:size]
    if scry:
        value = 0.0
        for top in grouped(group, lambda deal: deal[size:size + 1]):
            on_top = np.mean([goal(deal[:size] + deal[size:size + draws]) for deal in top])
            under = np.mean([goal(deal[:size] + (deal[size + 1:] + deal[size:size + 1])[:draws]) for deal in top])
            value += len(top) / len(group) * max(on_top, under)
        return value
    best = 0.0
    for put_back in {tuple(sorted(c)) for c in itertools.combinations(hand, n_bottom)}:
        outcomes = []
        for deal in group:
            kept = list(deal[:size])
            for card in put_back:
                kept.remove(card)
            outcomes.append(goal(tuple(kept) + (deal[size:] + put_back)[:draws]))
        best = max(best, np.mean(outcomes))
    return best


def reshuffle_best(rule, k, limit, draws):
    """Best P(goal) from the hand dealt after k mulligans of a rule that reshuffles."""
    size = HAND - k if rule == "vancouver" else HAND
    n_bottom = {"london": k, "free": max(k - 1, 0)}.get(rule, 0)
    total = 0.0
    for group in grouped(DEALS, lambda deal: deal[:size]):
        keep = kept_best(group, size, n_bottom, rule == "vancouver" and k > 0, draws)
        value = keep if k == limit else max(keep, reshuffle_best(rule, k + 1, limit, draws))
        total += len(group) / len(DEALS) * value
    return total


def best_value(game: MulliganGame) -> np.ndarray:
    _, probs, keep, mulligan = game.first_hands()
    return probs @ np.maximum(keep, mulligan)


@pytest.mark.parametrize("limit, set_aside, draws", [(1, 0, 0), (1, 0, 2), (1, 0, 5), (2, 0, 1), (2, 0, 4),
                                                      (1, 1, 2), (1, 1, 4)])
def test_bottom_rule_best_policy_matches_every_deal(limit, set_aside, draws):
    # Draws past the deck reach the hands put back, in order: the state must remember which hand went first.
    game = MulliganGame(CELLS, MEMBERSHIP, BOTH, draws=[draws], hand_size=HAND, set_aside=set_aside, rule="bottom",
                        limit=limit)
    assert best_value(game)[0] == pytest.approx(bottom_best(DEALS, 0, limit, draws, set_aside), abs=1e-12)


@pytest.mark.parametrize("rule", ["london", "free", "vancouver"])
@pytest.mark.parametrize("limit, draws", [(1, 1), (2, 0), (2, 2), (2, 6)])
def test_reshuffling_rules_best_policy_matches_every_deal(rule, limit, draws):
    game = MulliganGame(CELLS, MEMBERSHIP, BOTH, draws=[draws], hand_size=HAND, set_aside=0, rule=rule, limit=limit)
    assert best_value(game)[0] == pytest.approx(reshuffle_best(rule, 0, limit, draws), abs=1e-12)


@functools.cache
def shuffled_value(final, rest, draws):
    """P(goal) on ``final`` plus the first ``draws`` cards of ``rest`` in every order, each as likely."""
    orders = set(itertools.permutations(rest))
    return np.mean([goal(final + order[:draws]) for order in orders])


def hearthstone_best(draws, set_aside):
    """Per first-hand composition, the best P(goal) over every choice of cards to replace, deal by deal."""
    best = {}
    for group in grouped(DEALS, lambda deal: deal[set_aside:set_aside + HAND]):
        hand = group[0][set_aside:set_aside + HAND]
        choices = {tuple(sorted(c)) for m in range(HAND + 1) for c in itertools.combinations(hand, m)}
        values = []
        for replaced in choices:
            outcomes = []
            for deal in group:
                kept = list(hand)
                for card in replaced:
                    kept.remove(card)
                library = deal[set_aside + HAND:]
                arrivals = library[:len(replaced)]
                # The replaced cards are shuffled into what is left of the library; the set-aside cards stay out.
                rest = tuple(sorted(library[len(replaced):] + replaced))
                outcomes.append(shuffled_value(tuple(sorted(kept + list(arrivals))), rest, draws))
            values.append(np.mean(outcomes))
        best[composition(hand)] = max(values)
    return best


@pytest.mark.parametrize("set_aside, draws", [(0, 0), (0, 1), (0, 3), (1, 2), (1, 5)])
def test_hearthstone_best_replacement_matches_every_deal(set_aside, draws):
    game = MulliganGame(CELLS, MEMBERSHIP, BOTH, draws=[draws], hand_size=HAND, set_aside=set_aside,
                        rule="hearthstone", limit=1)
    assert game.evaluations() <= MAX_EVALUATIONS
    expected = hearthstone_best(draws, set_aside)
    hands, probs = compositions(CELLS, HAND)
    for hand in hands:
        replaced, values = game.replacements(hand)
        assert replaced[0].sum() == 0 and (replaced <= hand).all()
        assert values.max() == pytest.approx(expected[tuple(int(x) for x in hand)], abs=1e-12)
    assert game.evaluated <= game.evaluations()


def test_hearthstone_replacing_one_card_by_hand():
    # Hand A, C, C with one draw; the 6 cards left are A, A, B, B, C, C. Replacing a C: a B arrives with
    # probability 2/6; otherwise the draw, from 6 cards holding 2 B (the C shuffled back in), finds one with
    # probability 2/6: 1/3 + 2/3 * 1/3 = 5/9. Kept whole: one draw from 6 cards with 2 B: 1/3.
    game = MulliganGame(CELLS, MEMBERSHIP, BOTH, draws=[1], hand_size=HAND, set_aside=0, rule="hearthstone",
                        limit=1)
    replaced, values = game.replacements(np.array([1, 0, 2]))
    by_choice = {tuple(int(x) for x in r): float(v[0]) for r, v in zip(replaced, values)}
    assert by_choice[(0, 0, 0)] == pytest.approx(1 / 3, abs=1e-15)
    assert by_choice[(0, 0, 1)] == pytest.approx(5 / 9, abs=1e-15)


def test_several_draw_counts_are_answered_at_once():
    together = MulliganGame(CELLS, MEMBERSHIP, BOTH, draws=[0, 2], hand_size=HAND, set_aside=0, rule="london",
                            limit=2)
    for i, draws in enumerate((0, 2)):
        alone = MulliganGame(CELLS, MEMBERSHIP, BOTH, draws=[draws], hand_size=HAND, set_aside=0, rule="london",
                             limit=2)
        assert best_value(together)[i] == pytest.approx(best_value(alone)[0], abs=1e-15)


def test_compositions_are_counted_as_listed():
    assert count_compositions([3, 2, 4], 3) == 9
    assert count_compositions([10, 40], 5) == 6


SAMPLE = deckstat.load_deck(sample_deck("wankul"))
SMALL = deckstat.Deck.from_table([{"name": "Plaine", "count": 2, "type": "Terrain"},
                                  {"name": "Héros", "count": 10, "type": "Personnage"}])
GOAL = "Terrain>=1 and [cost<=1]>=1"


@pytest.mark.parametrize("event, by_turn", [(GOAL, 2), ("Terrain>=2", 3), ("[cost<=1]>=2 or Terrain>=3", 0)])
def test_keep_rule_value_is_the_exact_engine_of_odds(event, by_turn):
    # The exact engine conditions on the keep rule over segments of one shuffle: an independent computation.
    result = deckstat.keep_policy(SAMPLE, "wankul", event, by_turn=by_turn, seat="both")
    expected = deckstat.odds(SAMPLE, "wankul", event, turns=[by_turn], seat="both", method="exact").table
    assert result.summary["p_keep_rule"].to_numpy() == pytest.approx(expected["p"].to_numpy(), abs=1e-12)
    assert (result.summary["p_best"] >= result.summary["p_keep_rule"] - 1e-12).all()
    policy = result.policy
    assert policy.groupby("seat")["p_hand"].sum().to_numpy() == pytest.approx([1, 1], abs=1e-12)


def test_keep_rule_value_when_draws_reach_the_hand_put_back():
    # 12 cards, 3 Terrains: after two hands of 5 only 2 cards lie above the hand put back, so turn 4 reaches it.
    deck = deckstat.Deck.from_table([{"name": "Plaine", "count": 3, "type": "Terrain"},
                                     {"name": "Héros", "count": 9, "type": "Personnage"}])
    result = deckstat.keep_policy(deck, "wankul", "Terrain>=2", by_turn=4, seat="first", keep="Terrain>=1")
    expected = deckstat.odds(deck, "wankul", "Terrain>=2", turns=[4], seat="first", keep="Terrain>=1").table
    assert result.summary["p_keep_rule"].iloc[0] == pytest.approx(expected["p"].iloc[0], abs=1e-12)


def test_a_keep_rule_that_mulligans_good_hands_loses_what_the_policy_gains():
    # Keep only hands with 3 Terrains or more: most hands that hold a Terrain are mulliganed for nothing.
    result = deckstat.keep_policy(SAMPLE, "wankul", "Terrain>=1", by_turn=0, seat="first", keep="Terrain>=3")
    row = result.summary.iloc[0]
    # Best: keep any hand with a Terrain, mulligan the others: P = 1 - P(no Terrain in either hand).
    from math import comb
    no_terrain = comb(40, 5) / comb(50, 5) * comb(35, 5) / comb(45, 5)
    assert row["p_best"] == pytest.approx(1 - no_terrain, abs=1e-12)
    assert row["gain"] == pytest.approx(row["p_best"] - row["p_keep_rule"], abs=1e-15)
    assert row["gain"] > 0.2


@pytest.mark.parametrize("event, by_turn, limit", [(GOAL, 2, None), ("Terrain>=2", 3, 3), ("[cost<=1]>=2", 0, 1)])
def test_pokemon_best_policy_is_the_rule_and_equals_odds(event, by_turn, limit):
    result = deckstat.keep_policy(SAMPLE, "wankul", event, by_turn=by_turn, seat="both", mulligan_rule="pokemon",
                                  mulligan_limit=limit)
    expected = deckstat.odds(SAMPLE, "wankul", event, turns=[by_turn], seat="both", mulligan_rule="pokemon",
                             mulligan_limit=limit, method="exact").table
    summary = result.summary
    assert summary["p_best"].to_numpy() == pytest.approx(expected["p"].to_numpy(), abs=1e-12)
    assert (summary["gain"] == 0).all() and summary["choice"].str.startswith("none").all()
    assert (result.policy["decision"] == result.policy["keep_rule"]).all()
    assert "leaves no choice" in result.provenance["later"]


def test_pokemon_by_hand():
    # 2 Plaines, 10 Héros, hands of 5, keep rule Terrain>=1, goal Terrain>=2 by turn 1 (one draw).
    # P(no Terrain) = C(10,5)/C(12,5) = 7/22, so q = 15/22; a hand with one Terrain (35/66) finds the other in one
    # draw from 7 with probability 1/7, one with two (5/33) has it: P(goal and keep) = 5/66 + 10/66 = 5/22, and
    # P(goal) is the same (no hand without Terrain reaches it). With L mulligans allowed:
    # P = (1 - f^L) (5/22) / (15/22) + f^L 5/22, f = 7/22.
    f = 7 / 22
    for limit in (1, 2, 100):
        result = deckstat.keep_policy(SMALL, "wankul", "Terrain>=2", by_turn=1, seat="first",
                                      mulligan_rule="pokemon", mulligan_limit=limit)
        expected = (1 - f ** limit) / 3 + f ** limit * 5 / 22
        assert result.summary["p_best"].iloc[0] == pytest.approx(expected, abs=1e-15)
        assert result.summary["p_keep_first_best"].iloc[0] == pytest.approx(15 / 22, abs=1e-15)


def test_pokemon_with_a_keep_rule_no_hand_meets():
    # Three Terrains are never in a hand here: every redeal fails, the last hand is kept as it came.
    result = deckstat.keep_policy(SMALL, "wankul", "Terrain>=1", by_turn=0, seat="first", keep="Terrain>=3",
                                  mulligan_rule="pokemon", allow_absent=True)
    assert result.summary["p_best"].iloc[0] == pytest.approx(1 - 7 / 22, abs=1e-15)


def test_hearthstone_policy_by_hand():
    # 2 Plaines, 10 Héros, goal Terrain>=2 in the hand (turn 0). A hand with one Terrain replaces its 4 Héros:
    # 4 cards from the 7 left, one of them a Plaine: 4/7. Without Terrain all 5 go: both Plaines among 5 of 7,
    # C(5,3)/C(7,5) = 10/21. Two Terrains: kept. Best: 7/22 * 10/21 + 35/66 * 4/7 + 5/33 = 20/33.
    # The simple rule keeps the hand with one Terrain (keep rule Terrain>=1): 0 for it, so 10/33.
    result = deckstat.keep_policy(SMALL, "wankul", "Terrain>=2", by_turn=0, seat="first",
                                  mulligan_rule="hearthstone")
    row = result.summary.iloc[0]
    assert (row["p_best"], row["p_keep_rule"], row["gain"]) == pytest.approx((20 / 33, 10 / 33, 10 / 33), abs=1e-15)
    assert row["choice"] == "which cards to replace"
    policy = result.policy.set_index("hand")
    assert policy.loc["Terrain=1, other=4", "decision"] == "replace: other=4"
    assert policy.loc["Terrain=1, other=4", "keep_rule"] == "keep"
    assert policy.loc["Terrain=1, other=4", "p_mulligan"] == pytest.approx(4 / 7, abs=1e-15)
    assert policy.loc["Terrain=0, other=5", "decision"] == policy.loc["Terrain=0, other=5", "keep_rule"] \
        == "replace: other=5"
    assert policy.loc["Terrain=2, other=3", "decision"] == "keep"
    assert row["p_keep_first_best"] == pytest.approx(5 / 33, abs=1e-15)


def test_hearthstone_and_pokemon_on_the_sample_deck():
    for rule in ("hearthstone", "pokemon"):
        result = deckstat.keep_policy(SAMPLE, "wankul", GOAL, by_turn=2, seat="first", mulligan_rule=rule)
        row = result.summary.iloc[0]
        assert row["p_best"] >= row["p_keep_rule"] - 1e-12
        assert result.policy["p_hand"].sum() == pytest.approx(1, abs=1e-12)
        # The best policy's value is its hands' values weighted by their chances.
        best = np.where(result.policy["decision"] == "keep", result.policy["p_keep"], result.policy["p_mulligan"])
        assert row["p_best"] == pytest.approx(float(result.policy["p_hand"] @ best), abs=1e-12)


def test_policy_table_reads_by_group():
    result = deckstat.keep_policy(SAMPLE, "wankul", GOAL, by_turn=2, seat="first")
    hands = result.policy["hand"].tolist()
    assert hands[0] == "Terrain=0, [cost<=1]=0, other=5"
    assert len(hands) == count_compositions([10, 20, 20], 5) == 21
    decisions = dict(zip(result.policy["hand"], result.policy["decision"]))
    assert decisions["Terrain=1, [cost<=1]=0, other=4"] == "keep"
    assert decisions["Terrain=0, [cost<=1]=5, other=0"] == "mulligan"


def test_overlapping_groups_name_the_cells_of_both():
    result = deckstat.keep_policy(SAMPLE, "wankul", "[cost<=1]>=1 and [force>=3]>=1", by_turn=1, seat="first")
    assert "[cost<=1] & [force>=3]" in result.policy["hand"].iloc[0]


def test_too_many_hands_are_refused_up_front():
    event = " and ".join(f"[force={f}]>=1" for f in range(1, 9))
    with pytest.raises(DeckstatError, match="different opening hands"):
        deckstat.keep_policy(SAMPLE, "wankul", event, by_turn=2, mulligan_limit=2)


def test_a_game_without_mulligan_needs_a_rule():
    with pytest.raises(DeckstatError, match="no mulligan rule"):
        deckstat.keep_policy(deckstat.load_deck(sample_deck("duel-masters")), "duel-masters", "Feu>=1", by_turn=1)


def test_cli_best_prints_summary_and_policy():
    out = ok(run("mulligan", sample_deck("wankul"), "--game", "wankul", "--event", GOAL, "--by-turn", 2, "--best",
                 "--seat", "both", "--wide"))
    assert "Best keep rule" in out and "keep rule Terrain>=1" in out and "both players (same odds)" in out
    data = ok_json(run("mulligan", sample_deck("wankul"), "--game", "wankul", "--event", GOAL, "--by-turn", 2,
                       "--best", "--mulligan-rule", "london", "--format", "json"))
    assert {"summary", "policy"} <= set(data)


def test_cli_best_under_hearthstone_and_pokemon():
    base = ["mulligan", sample_deck("wankul"), "--game", "wankul", "--event", GOAL, "--by-turn", 2, "--best"]
    out = ok(run(*base, "--mulligan-rule", "hearthstone", "--wide"))
    assert "Hearthstone mulligan rule, once" in out and "compared with the simple rule" in out
    assert "replace:" in out and "replacement" in out
    data = ok_json(run(*base, "--mulligan-rule", "hearthstone", "--format", "json"))
    decisions = {row["hand"]: row["decision"] for row in data["policy"]}
    assert decisions["Terrain=1, [cost<=1]=0, other=4"] == "replace: other=4"
    out = ok(run(*base, "--mulligan-rule", "pokemon"))
    assert "the rule leaves no choice" in out and "+0.00 pp" in out
    data = ok_json(run(*base, "--mulligan-rule", "pokemon", "--format", "json"))
    assert data["summary"][0]["choice"].startswith("none")


def test_hearthstone_cost_is_refused_up_front():
    # 14 kinds of cards, 4 of each: 8,554 hands of 5, but each choice of cards replaced averages over every arrival.
    cells, membership = np.full(14, 4), np.eye(14, dtype=bool)
    game = MulliganGame(cells, membership, BOTH, draws=[2], hand_size=5, set_aside=0, rule="hearthstone", limit=1)
    assert count_compositions(cells, 5) < MAX_EVALUATIONS < game.evaluations()
    with pytest.raises(DeckstatError, match="under the hearthstone rule with one round"):
        game.check_cost()
    # Set-aside cards make a final hand's value depend on the cards replaced: more evaluations.
    cells = np.array([10, 10, 20])
    plain = MulliganGame(cells, MEMBERSHIP, BOTH, draws=[3], hand_size=5, set_aside=0, rule="hearthstone", limit=1)
    aside = MulliganGame(cells, MEMBERSHIP, BOTH, draws=[3], hand_size=5, set_aside=5, rule="hearthstone", limit=1)
    assert plain.evaluations() < aside.evaluations()


@pytest.mark.parametrize("args, needles", [
    (["--best"], ["--best needs --by-turn"]),
    (["--best", "--by-turn", 2, "--hand", "Terrain=5"], ["not both"]),
    (["--by-turn", 2], ["--by-turn goes with --hand"]),
    (["--best", "--by-turn", 2, "--turns", "0-3"], ["--turns does not apply"]),
    (["--best", "--by-turn", 2, "--trials", 1000], ["does not apply to --best"]),
    (["--best", "--by-turn", 99], ["--by-turn can go up to turn"]),
])
def test_cli_errors(args, needles):
    assert_user_error(run("mulligan", sample_deck("wankul"), "--game", "wankul", *args), *needles)
