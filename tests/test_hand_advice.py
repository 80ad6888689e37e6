"""Keep or mulligan one hand: hand-derived values, a plain shuffling simulator, and the errors a player can make."""

import random
from math import comb, sqrt

import pytest
from helpers import assert_user_error, ok, ok_json, run, sample_deck, z_for

import deckstat
from deckstat.errors import DeckstatError
from deckstat.questions.hand_advice import DEPENDS

SMALL = deckstat.Deck.from_table([{"name": "Plaine", "count": 2, "type": "Terrain"},
                                  {"name": "Héros", "count": 10, "type": "Personnage"}])


def advice(deck, hand, event, by_turn, **options):
    return deckstat.hand_advice(deck, "wankul", hand, event, by_turn=by_turn, seat="first", **options).table.iloc[0]


def test_no_terrain_in_hand_by_turn_0():
    # Kept: no Terrain. Mulliganed: 5 cards from the 7 left, 2 of them Terrains: 1 - C(5,5)/C(7,5) = 20/21.
    row = advice(SMALL, "5 Héros", "Terrain>=1", 0)
    assert (row["p_keep"], row["p_mulligan"]) == pytest.approx((0.0, 20 / 21), abs=1e-12)
    assert row["advice"] == "mulligan"
    assert row["margin"] == pytest.approx(-20 / 21, abs=1e-12)


def test_the_hand_put_back_is_drawn_last():
    # One Terrain in hand, two wanted. Kept, by turn 3 (3 draws from 7 cards holding the other Terrain): 3/7.
    # Mulliganed: the Terrain goes under the deck; 5 + 2 cards see all 7 others (one Terrain), and the third draw
    # is one of the 5 cards put back, the Terrain with probability 1/5.
    row = advice(SMALL, "Plaine, 4 Héros", "Terrain>=2", 3)
    assert (row["p_keep"], row["p_mulligan"]) == pytest.approx((3 / 7, 1 / 5), abs=1e-12)
    assert row["advice"] == "keep"
    # By turn 1 the mulligan cannot reach it: the one Terrain left must be in the hand of 5 and draw of 1 from 7.
    row = advice(SMALL, "Plaine, 4 Héros", "Terrain>=2", 1)
    assert (row["p_keep"], row["p_mulligan"]) == pytest.approx((1 / 7, 0.0), abs=1e-12)


def test_group_counts_that_pin_cells_down_equal_names():
    by_name = advice(SMALL, "Plaine, 4 Héros", "Terrain>=2", 3)
    by_count = advice(SMALL, "Terrain=1, other=4", "Terrain>=2", 3)
    assert by_count["p_keep"] == pytest.approx(by_name["p_keep"], abs=1e-15)
    assert by_count["p_mulligan"] == pytest.approx(by_name["p_mulligan"], abs=1e-15)


def test_reshuffling_rules_value_a_mulligan_alike_for_every_hand():
    a = advice(SMALL, "5 Héros", "Terrain>=1", 2, mulligan_rule="london")
    b = advice(SMALL, "Plaine, 4 Héros", "Terrain>=1", 2, mulligan_rule="london")
    assert a["p_mulligan"] == pytest.approx(b["p_mulligan"], abs=1e-15)
    # London, one mulligan: a fresh hand of 5 from 12, one card put back (a Héros whenever there is one),
    # then two draws: P(no Terrain) = P(no Terrain among the 7 cards seen) = C(10,7)/C(12,7).
    assert a["p_mulligan"] == pytest.approx(1 - comb(10, 7) / comb(12, 7), abs=1e-12)


SAMPLE = deckstat.load_deck(sample_deck("wankul"))
NAMES = ["Le Stagiaire Paniqué", "Mamie Croquette", "Robot Camembert", "Ninja du Marché", "Dragon de la Boulangerie"]
GOAL = "Terrain>=1 and [cost<=1]>=1"


def cards_of(deck):
    rows = deck.cards.to_dict("records")
    return [row for row in rows for _ in range(int(row["count"]))]


def reached(seen) -> bool:
    terrain = sum(card["type"] == "Terrain" for card in seen)
    cheap = sum(card["cost"] == card["cost"] and card["cost"] <= 1 for card in seen)
    return terrain >= 1 and cheap >= 1


def simulate(deal_hand, draws, n_trials, seed, later_keeps=None, limit=1):
    """Per trial: deal the hand, shuffle the rest; keep it, or put it under and take the next hands from the top."""
    rng = random.Random(seed)
    kept = mulliganed = 0
    for _ in range(n_trials):
        hand, rest = deal_hand(rng)
        rng.shuffle(rest)
        kept += reached(hand + rest[:draws])
        put_back = list(hand)
        rng.shuffle(put_back)
        library, under = rest, [put_back]
        for k in range(1, limit + 1):
            new, library = library[:5], library[5:]
            if k == limit or later_keeps(new):
                break
            rng.shuffle(new)
            under.append(new)
        mulliganed += reached(new + (library + [c for block in under for c in block])[:draws])
    return kept / n_trials, mulliganed / n_trials


def check_against(row, p_keep, p_mulligan, n_trials):
    z = z_for(2)
    for exact, estimate in ((row["p_keep"], p_keep), (row["p_mulligan"], p_mulligan)):
        assert abs(estimate - exact) <= z * sqrt(exact * (1 - exact) / n_trials) + 1e-12


def test_named_hand_against_a_shuffling_simulator():
    cards = cards_of(SAMPLE)

    def deal(rng):
        rest = list(cards)
        hand = []
        for name in NAMES:
            hand.append(rest.pop(next(i for i, c in enumerate(rest) if c["name"] == name)))
        return hand, rest

    row = advice(SAMPLE, ", ".join(NAMES), GOAL, 2)
    check_against(row, *simulate(deal, 2, 20_000, seed=11), 20_000)


def test_group_count_hand_against_a_shuffling_simulator():
    # Two cheap Personnages and three dearer ones, which cards they are unknown: each trial deals them at random.
    cards = cards_of(SAMPLE)
    cheap = [i for i, c in enumerate(cards) if c["type"] != "Terrain" and c["cost"] <= 1]
    dear = [i for i, c in enumerate(cards) if c["type"] != "Terrain" and not c["cost"] <= 1]

    def deal(rng):
        chosen = set(rng.sample(cheap, 2)) | set(rng.sample(dear, 3))
        return [cards[i] for i in chosen], [c for i, c in enumerate(cards) if i not in chosen]

    row = advice(SAMPLE, "Terrain=0, [cost<=1]=2, other=3", GOAL, 3)
    check_against(row, *simulate(deal, 3, 20_000, seed=12), 20_000)


def test_later_hands_by_the_keep_rule_against_a_shuffling_simulator():
    # Two mulligans allowed, the second hand kept when it holds a Terrain: that is what --keep makes it assume.
    cards = cards_of(SAMPLE)

    def deal(rng):
        rest = list(cards)
        hand = [rest.pop(next(i for i, c in enumerate(rest) if c["name"] == name)) for name in NAMES]
        return hand, rest

    def has_terrain(hand):
        return any(c["type"] == "Terrain" for c in hand)

    row = advice(SAMPLE, ", ".join(NAMES), GOAL, 2, mulligan_limit=2, keep="Terrain>=1")
    assert "kept when the keep rule Terrain>=1 holds" in row["later"]
    check_against(row, *simulate(deal, 2, 20_000, seed=13, later_keeps=has_terrain, limit=2), 20_000)


def test_optimal_later_hands_do_at_least_as_well_as_a_keep_rule():
    best = advice(SAMPLE, ", ".join(NAMES), GOAL, 2, mulligan_limit=2)
    by_rule = advice(SAMPLE, ", ".join(NAMES), GOAL, 2, mulligan_limit=2, keep="Terrain>=1")
    assert best["p_mulligan"] >= by_rule["p_mulligan"] - 1e-12
    assert "whichever gives the higher probability" in best["later"]


@pytest.mark.parametrize("hand, words", [
    ("Plaine, 3 Héros", ["the hand has 4 cards", "opening hand has 5"]),
    ("Plaine, Zorro, 3 Héros", ["unknown card 'Zorro'"]),
    ("Terrain=3, other=2", ["only 2 such cards"]),
])
def test_bad_hands_are_refused(hand, words):
    with pytest.raises(DeckstatError) as info:
        advice(SMALL, hand, "Terrain>=1", 1)
    for word in words:
        assert word in str(info.value)


def test_a_game_without_mulligan_is_refused():
    deck = deckstat.load_deck(sample_deck("duel-masters"))
    with pytest.raises(DeckstatError, match="no mulligan rule"):
        deckstat.hand_advice(deck, "duel-masters", "Feu=5", "Feu>=1", by_turn=1)


def test_cli_hand_advice():
    out = ok(run("mulligan", sample_deck("wankul"), "--game", "wankul", "--hand", ", ".join(NAMES), "--event", GOAL,
                 "--by-turn", 2, "--seat", "both"))
    assert "Keep or mulligan?" in out and "second player" in out and " pp" in out
    data = ok_json(run("mulligan", sample_deck("wankul"), "--game", "wankul", "--hand",
                       "Terrain=1, [cost<=1]=0, other=4", "--event", GOAL, "--by-turn", 2, "--format", "json"))
    assert data["table"][0]["advice"] == "keep"
    csv = ok(run("mulligan", sample_deck("wankul"), "--game", "wankul", "--hand", "Terrain=1, other=4",
                 "--by-turn", 1, "--format", "csv"))
    assert csv.splitlines()[0].startswith("deck,game,event,hand")


def test_cli_hand_errors_are_one_line():
    assert_user_error(run("mulligan", sample_deck("wankul"), "--game", "wankul", "--hand", "Terrain=1, other=3",
                          "--by-turn", 1), "4 cards", "5")
    assert_user_error(run("mulligan", sample_deck("wankul"), "--game", "wankul", "--hand", "Zorro, 4 Mamie",
                          "--by-turn", 1), "Zorro")
    assert_user_error(run("mulligan", sample_deck("duel-masters"), "--game", "duel-masters", "--hand", "Feu=5",
                          "--by-turn", 1), "no mulligan rule", "--mulligan-rule")


def test_pokemon_advice_is_forced_by_the_keep_rule():
    # 2 Plaines, 10 Héros, keep rule Terrain>=1, goal Terrain>=2 by turn 1, two redeals allowed. Kept with one
    # Terrain: the other among one draw from 7, 1/7. A redeal leaves one more: a hand meets the keep rule with
    # q = 15/22 (f = 7/22) and then reaches the goal with probability 1/3 (see test_keep_policy), the last hand
    # kept as it came reaches it with 5/22: (1 - f)/3 + f * 5/22.
    f = 7 / 22
    row = advice(SMALL, "Plaine, 4 Héros", "Terrain>=2", 1, mulligan_rule="pokemon", mulligan_limit=2)
    assert (row["p_keep"], row["p_mulligan"]) == pytest.approx((1 / 7, (1 - f) / 3 + f * 5 / 22), abs=1e-15)
    assert row["advice"] == "keep" and row["forced"]
    # Keeping would be better than the redeal here, but the rule allows none without a Terrain.
    row = advice(SMALL, "5 Héros", "Terrain>=1", 0, mulligan_rule="pokemon")
    assert row["advice"] == "mulligan" and row["forced"] and row["p_keep"] == 0
    assert "leaves no choice" in row["later"]


def test_hearthstone_advice_by_hand():
    # 2 Plaines, 10 Héros, the hand Plaine + 4 Héros, goal Terrain>=2 by turn 1 (one draw). Kept whole: the other
    # Plaine in one draw from 7, 1/7. Replacing the 4 Héros: 4 of the 7 cards arrive, the Plaine among them 4/7;
    # otherwise it is among the 3 left, in a library of 7 with the 4 replaced: 4/7 + 3/7 * 1/7 = 31/49.
    # Replacing 3 Héros: 3/7 + 4/7 * 1/7 = 25/49; replacing all 5: one Plaine among the 5 arrivals (5/7), then
    # the replaced one drawn (1/7), 5/49: both lower.
    row = advice(SMALL, "Plaine, 4 Héros", "Terrain>=2", 1, mulligan_rule="hearthstone")
    assert (row["p_keep"], row["p_mulligan"]) == pytest.approx((1 / 7, 31 / 49), abs=1e-15)
    assert row["advice"] == "replace: other=4" and not row["forced"]
    # A hand with both Plaines is kept whole: every replacement ties at 1 at best.
    row = advice(SMALL, "2 Plaine, 3 Héros", "Terrain>=2", 1, mulligan_rule="hearthstone")
    assert row["advice"] == "keep" and row["p_keep"] == 1


def test_hearthstone_replacement_against_a_shuffling_simulator():
    # One Terrain and four dear Personnages (which ones unknown): the advice replaces the four; simulate it.
    cards = cards_of(SAMPLE)
    terrains = [i for i, c in enumerate(cards) if c["type"] == "Terrain"]
    dear = [i for i, c in enumerate(cards) if c["type"] != "Terrain" and not c["cost"] <= 1]
    row = advice(SAMPLE, "Terrain=1, [cost<=1]=0, other=4", GOAL, 2, mulligan_rule="hearthstone")
    assert row["advice"] == "replace: other=4"
    rng = random.Random(14)
    n_trials = 20_000
    reached_count = 0
    for _ in range(n_trials):
        replaced = rng.sample(dear, 4)
        held = rng.choice(terrains)
        rest = [c for i, c in enumerate(cards) if i != held and i not in replaced]
        rng.shuffle(rest)
        library = rest[4:] + [cards[i] for i in replaced]
        rng.shuffle(library)
        reached_count += reached([cards[held]] + rest[:4] + library[:2])
    estimate, exact = reached_count / n_trials, row["p_mulligan"]
    assert abs(estimate - exact) <= z_for(1) * sqrt(exact * (1 - exact) / n_trials) + 1e-12


def test_hearthstone_advice_that_depends_on_the_cards():
    # "other=4" may be cheap cards (keep them all) or dear ones (replace them): the advice says it depends.
    result = deckstat.hand_advice(SAMPLE, "wankul", "Terrain=1, other=4", GOAL, by_turn=2, seat="first",
                                  mulligan_rule="hearthstone")
    assert result.table["advice"].iloc[0] == DEPENDS
    by_cells = {cells["hand"]: cells["advice"] for cells in result.provenance["hand_cells"]}
    assert by_cells["Terrain=1, [cost<=1]=2, other=2"] == "keep"
    assert by_cells["Terrain=1, [cost<=1]=0, other=4"] == "replace: other=4"


def test_keep_rule_does_not_apply_to_a_hearthstone_hand():
    with pytest.raises(DeckstatError, match="one round"):
        advice(SMALL, "5 Héros", "Terrain>=1", 1, mulligan_rule="hearthstone", keep="Terrain>=1")


def test_cli_hand_advice_under_hearthstone_and_pokemon():
    base = ["mulligan", sample_deck("wankul"), "--game", "wankul", "--hand", "Terrain=1, [cost<=1]=0, other=4",
            "--event", GOAL, "--by-turn", 2]
    out = ok(run(*base, "--mulligan-rule", "hearthstone"))
    assert "best replacement" in out and "replace: other=4" in out
    out = ok(run(*base, "--mulligan-rule", "pokemon"))
    assert "forced by the rule" in out and "leaves no choice" in out
    data = ok_json(run(*base, "--mulligan-rule", "pokemon", "--format", "json"))
    assert data["table"][0]["forced"] is True and data["table"][0]["advice"] == "keep"
