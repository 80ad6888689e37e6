"""Deck-out timing: exact effect-free turns per game and seat, the drought rule, card effects."""

import random

import numpy as np
import pytest
from scipy.stats import norm

import deckstat
from deckstat.deckout import deterministic_round
from deckstat.profiles import parse_profile

FAMILY_ALPHA = 1e-3


def z_for(n_comparisons):
    return float(norm.isf(FAMILY_ALPHA / (2 * n_comparisons)))


def sample(game):
    return deckstat.load_deck(f"data/{game}/sample_deck.csv")


# Hand-derived: cards left after set-aside and hand, the turn-1 draw per seat, and the rule.
#   Wankul 50 - 5 = 45 left, both draw on turn 1: the 46th draw fails, turn 46; the first player fails first.
#   Duel Masters 40 - 5 shields - 5 = 30: the second player draws its 30th card on turn 30, the first player
#   (no draw on turn 1) on turn 31.
#   JdG 30 - 5 = 25: the last card is drawn on turn 25; the first player draws it first.
#   Licum game deck 30 - 7 = 23, drawn at the end of turns 1..23: nobody can draw at the end of turn 24.
#   Pandrea 40 - 5 = 35: no card to draw on turn 36 (usure); turns are simultaneous.
EXPECTED = {
    "wankul": ({"first": 46, "second": 46}, 1.0, 0.0),
    "duel-masters": ({"first": 31, "second": 30}, 0.0, 0.0),
    "jdg": ({"first": 25, "second": 25}, 1.0, 0.0),
    "licum": ({"first": 24, "second": 24}, 0.0, 1.0),
    "pandrea": ({"first": 36, "second": 36}, 0.0, 1.0),
}


@pytest.mark.parametrize("game", sorted(EXPECTED))
def test_effect_free_deckout_turns_are_exact(game):
    turns, first_first, same = EXPECTED[game]
    frame = deckstat.deckout(sample(game), game, drought=False)
    assert (frame["method"] == "exact").all()
    assert dict(zip(frame["seat"], frame["turn"])) == turns
    assert (frame["p"] == 1.0).all()
    assert frame.attrs["p_first_runs_out_first"] == first_first
    assert frame.attrs["p_same_moment"] == same


@pytest.mark.parametrize("game", sorted(EXPECTED))
def test_simulation_reproduces_the_exact_turns(game):
    turns, first_first, same = EXPECTED[game]
    frame = deckstat.deckout(sample(game), game, drought=False, method="simulate", n_trials=3000, rng=1)
    assert dict(zip(frame["seat"], frame["turn"])) == turns
    assert (frame["p"] == 1.0).all()
    assert frame.attrs["p_first_runs_out_first"] == first_first
    assert frame.attrs["p_same_moment"] == same


def test_deterministic_round_formula():
    assert deterministic_round(45, 1, 1, "lose_on_failed_draw") == 46
    assert deterministic_round(30, 0, 1, "lose_on_last_draw") == 31
    assert deterministic_round(30, 1, 1, "lose_on_last_draw") == 30
    assert deterministic_round(10, 2, 2, "lose_on_failed_draw") == 6  # draws 2, 4, ..., 10 then 12 > 10
    assert deterministic_round(0, 1, 1, "lose_on_last_draw") == 1


def test_opponent_deck_changes_the_race():
    short = deckstat.Deck.from_table([{"name": "T", "count": 10, "type": "Terrain"},
                                      {"name": "P", "count": 30, "type": "Personnage"}])
    frame = deckstat.deckout(sample("wankul"), "wankul", opponent=short, drought=False)
    assert dict(zip(frame["seat"], frame["turn"])) == {"first": 46, "second": 36}
    assert frame.attrs["p_first_runs_out_first"] == 0.0


# --- Wankul's drought rule -----------------------------------------------------------------------------------

SMALL = [{"name": "Terrain", "count": 2, "type": "Terrain"}, {"name": "Perso", "count": 8, "type": "Personnage"}]


def slow_wankul(n_games, seed, terrains=2, size=10, hand_size=5):
    """Wankul deck-out with the drought rule, one game at a time, rules applied literally (no mulligan).

    A Terrain in play stays; a player holding one with none in play must play it; with none in play and
    none in hand, both draw one card at a time together until one appears.
    """
    rng = random.Random(seed)
    rounds = {0: [], 1: []}
    for _ in range(n_games):
        decks = []
        for _seat in range(2):
            cards = ["T"] * terrains + ["P"] * (size - terrains)
            rng.shuffle(cards)
            decks.append(cards)
        hands = [d[:hand_size] for d in decks]
        libs = [d[hand_size:] for d in decks]
        out = [None, None]
        in_play = False
        round_number = 0
        while None in out:
            round_number += 1
            for a in (0, 1):
                b = 1 - a
                if out[a] is not None:
                    continue
                if not libs[a]:
                    out[a] = round_number
                    continue
                hands[a].append(libs[a].pop(0))
                if not in_play and "T" in hands[a]:
                    hands[a].remove("T")
                    in_play = True
                while out[b] is None and not in_play and "T" not in hands[a] and "T" not in hands[b]:
                    if not libs[a] or not libs[b]:
                        if not libs[b]:
                            out[b] = round_number  # both empty: the active player wins
                        else:
                            out[a] = round_number
                        break
                    hands[a].append(libs[a].pop(0))
                    hands[b].append(libs[b].pop(0))
                if not in_play and "T" in hands[a] and out[a] is None:
                    hands[a].remove("T")
                    in_play = True
        rounds[0].append(out[0])
        rounds[1].append(out[1])
    return rounds


def test_drought_drains_decks_as_derived_on_paper():
    deck = deckstat.Deck.from_table(SMALL)
    without = deckstat.deckout(deck, "wankul", drought=False, mulligan=False)
    assert dict(zip(without["seat"], without["turn"])) == {"first": 6, "second": 6}
    n = 200_000
    frame = deckstat.deckout(deck, "wankul", mulligan=False, n_trials=n, rng=3)
    # A drought needs the first player's hand and turn-1 draw and the second player's hand all without a
    # Terrain: 2/9 * 3/5 * 2/9 = 12/405. Then both draw at least once more, so both run out before turn 6.
    expected_early = 12 / 405
    for seat in ("first", "second"):
        rows = frame[frame["seat"] == seat]
        early = rows.loc[rows["turn"] < 6, "p"].sum()
        se = np.sqrt(expected_early * (1 - expected_early) / n)
        assert abs(early - expected_early) <= z_for(2) * se
        assert frame.attrs["summary"][seat]["mean"] < 6


def test_drought_distribution_matches_a_literal_simulator():
    deck = deckstat.Deck.from_table(SMALL)
    n_kernel, n_slow = 200_000, 40_000
    frame = deckstat.deckout(deck, "wankul", mulligan=False, n_trials=n_kernel, rng=5)
    slow = slow_wankul(n_slow, seed=5)
    for i, seat in enumerate(("first", "second")):
        rows = frame[frame["seat"] == seat].set_index("turn")["p"]
        counts = np.bincount(slow[i], minlength=8)[1:8] / n_slow
        for turn in range(1, 8):
            p = rows.get(turn, 0.0)
            se = np.sqrt(max(p * (1 - p), 1e-12) * (1 / n_kernel + 1 / n_slow))
            assert abs(p - counts[turn - 1]) <= z_for(14) * se, (seat, turn, p, counts[turn - 1])


def test_kept_hand_with_a_terrain_prevents_the_drought():
    # With the mulligan (keep a hand with a Terrain), the 10-card deck always keeps a Terrain: after a
    # Terrain-less first hand, the other five cards hold both. The first player plays it on turn 1.
    frame = deckstat.deckout(deckstat.Deck.from_table(SMALL), "wankul", n_trials=20_000, rng=2)
    assert dict(zip(frame["seat"], frame["turn"])) == {"first": 6, "second": 6}


def test_scored_terrains_bring_more_droughts():
    deck = sample("wankul")
    stays = deckstat.deckout(deck, "wankul", n_trials=20_000, rng=4)
    scored = deckstat.deckout(deck, "wankul", terrain_turns=2, n_trials=20_000, rng=4)
    assert scored.attrs["summary"]["first"]["mean"] < stays.attrs["summary"]["first"]["mean"]


# --- card effects ------------------------------------------------------------------------------------------

def effect_profile():
    play = {"hand_size": 3, "first_turn_draw": {"first": 1, "second": 1}, "draws_per_turn": 1,
            "deckout": "lose_on_failed_draw"}
    return parse_profile({"id": "fx", "name": "Effects", "decks": [{"id": "main", "rules": []}], "play": play},
                         where="effects profile")


EFFECT_DECK = [{"name": "Pioche", "count": 3, "type": "Sort", "draw": 2},
               {"name": "Meule", "count": 2, "type": "Sort", "mill": 3},
               {"name": "Vanille", "count": 10, "type": "Unité"}]


def _slow_draw(lib, pending, count):
    """Draw ``count`` cards into ``pending`` effects; False when the deck ran out first."""
    for _ in range(count):
        if not lib:
            return False
        card = lib.pop(0)
        pending[0] += card[0]
        pending[1] += card[1]
    return True


def slow_effects(n_games, seed, policy):
    """Two copies of EFFECT_DECK race; effect cards played when drawn (on_draw) or once per turn (each_turn)."""
    rng = random.Random(seed)
    cards = [(2, 0)] * 3 + [(0, 3)] * 2 + [(0, 0)] * 10
    rounds = {0: [], 1: []}
    for _ in range(n_games):
        libs, pending = [], []
        for _seat in range(2):
            deck = cards[:]
            rng.shuffle(deck)
            hand, lib = deck[:3], deck[3:]
            libs.append(lib)
            pending.append([sum(c[0] for c in hand), sum(c[1] for c in hand)])
        out = [None, None]
        r = 0
        while None in out:
            r += 1
            for a in (0, 1):
                if out[a] is not None:
                    continue
                ok = _slow_draw(libs[a], pending[a], 1)
                while ok:
                    extra, milled = pending[a]
                    pending[a][:] = [0, 0]
                    del libs[1 - a][:milled]
                    if not extra:
                        break
                    ok = _slow_draw(libs[a], pending[a], extra)
                    if policy == "each_turn":
                        break
                if not ok:
                    out[a] = r
        rounds[0].append(out[0])
        rounds[1].append(out[1])
    return rounds


@pytest.mark.parametrize("policy", ["on_draw", "each_turn"])
def test_draw_and_mill_effects_match_a_literal_simulator(policy):
    deck = deckstat.Deck.from_table(EFFECT_DECK)
    n_kernel, n_slow = 100_000, 20_000
    frame = deckstat.deckout(deck, effect_profile(), policy=policy, n_trials=n_kernel, rng=9)
    slow = slow_effects(n_slow, 9, policy)
    baseline = deckstat.deckout(deck, effect_profile())
    assert dict(zip(baseline["seat"], baseline["turn"])) == {"first": 13, "second": 13}
    turns = range(1, 14)
    for i, seat in enumerate(("first", "second")):
        rows = frame[frame["seat"] == seat].set_index("turn")["p"]
        counts = np.bincount(slow[i], minlength=15) / n_slow
        assert frame.attrs["summary"][seat]["mean"] < 13
        for turn in turns:
            p = rows.get(turn, 0.0)
            se = np.sqrt(max(p * (1 - p), 1e-12) * (1 / n_kernel + 1 / n_slow))
            assert abs(p - counts[turn]) <= z_for(2 * len(turns)) * se, (seat, turn, p, counts[turn])


def test_effects_policy_none_is_exact_and_bad_values_are_refused():
    deck = deckstat.Deck.from_table(EFFECT_DECK)
    frame = deckstat.deckout(deck, effect_profile(), policy="none")
    assert (frame["method"] == "exact").all()
    with pytest.raises(deckstat.DeckstatError, match="policy"):
        deckstat.deckout(deck, effect_profile(), policy="sometimes")
    bad = deckstat.Deck.from_table([{"name": "X", "count": 10, "type": "Sort", "draw": -1}])
    with pytest.raises(deckstat.DeckstatError, match="draw"):
        deckstat.deckout(bad, effect_profile(), policy="on_draw")
    with pytest.raises(deckstat.DeckstatError, match="random"):
        deckstat.deckout(deck, effect_profile(), policy="on_draw", method="exact")


def test_deckout_reproducible_whatever_the_chunk_size():
    deck = sample("wankul")
    a = deckstat.deckout(deck, "wankul", terrain_turns=3, n_trials=140_000, rng=8, chunk_size=1)
    b = deckstat.deckout(deck, "wankul", terrain_turns=3, n_trials=140_000, rng=8, chunk_size=1 << 20)
    np.testing.assert_array_equal(a["p"], b["p"])
