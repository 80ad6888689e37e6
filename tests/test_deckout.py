"""Deck-out timing: exact effect-free turns per game and seat, the drought rule, card effects."""

import random

import numpy as np
import pandas as pd
import pytest
from helpers import sample_deck, z_for

import deckstat
from deckstat.engines.race import deterministic_round
from deckstat.games.profiles import parse_profile
from deckstat.questions.deckout import mean_turns


def sample(game):
    return deckstat.load_deck(sample_deck(game))


def turns_by_seat(result):
    """The single deck-out turn of each seat of a deterministic race."""
    assert result.table["seat"].is_unique
    return dict(zip(result.table["seat"], result.table["turn"]))


def summary_of(result, seat):
    """The summary row of ``seat``."""
    rows = result.summary[result.summary["seat"] == seat]
    assert len(rows) == 1
    return rows.iloc[0]


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
    result = deckstat.deckout(sample(game), game, drought=False)
    assert (result.table["method"] == "exact").all() and (result.summary["method"] == "exact").all()
    assert turns_by_seat(result) == turns
    assert (result.table["p"] == 1.0).all()
    first, second = summary_of(result, "first"), summary_of(result, "second")
    assert first["p_runs_out_first"] == first_first
    assert second["p_runs_out_first"] == 1.0 - first_first - same
    assert first["p_same_moment"] == second["p_same_moment"] == same
    for seat, turn in turns.items():
        row = summary_of(result, seat)
        assert row["mean_turn"] == row["median_turn"] == row["earliest_turn"] == row["latest_turn"] == turn


@pytest.mark.parametrize("game", sorted(EXPECTED))
def test_simulation_reproduces_the_exact_turns(game):
    turns, first_first, same = EXPECTED[game]
    result = deckstat.deckout(sample(game), game, drought=False, method="simulate", n_trials=3000, rng=1)
    assert (result.table["method"] == "simulate").all() and (result.table["n_trials"] == 3000).all()
    assert turns_by_seat(result) == turns
    assert (result.table["p"] == 1.0).all()
    first, second = summary_of(result, "first"), summary_of(result, "second")
    assert first["p_runs_out_first"] == first_first
    assert second["p_runs_out_first"] == 1.0 - first_first - same
    assert first["p_same_moment"] == same


def test_deterministic_round_formula():
    assert deterministic_round(45, 1, 1, "lose_on_failed_draw") == 46
    assert deterministic_round(30, 0, 1, "lose_on_last_draw") == 31
    assert deterministic_round(30, 1, 1, "lose_on_last_draw") == 30
    assert deterministic_round(10, 2, 2, "lose_on_failed_draw") == 6  # draws 2, 4, ..., 10 then 12 > 10
    assert deterministic_round(0, 1, 1, "lose_on_last_draw") == 1


def test_game_end_is_the_earlier_deck_out_or_licum_the_later():
    small = [{"name": "T", "count": 10, "type": "Terrain"}, {"name": "P", "count": 30, "type": "Personnage"}]
    wankul = deckstat.deckout(sample("wankul"), "wankul", opponent=deckstat.Deck.from_table(small), drought=False)
    # 46 and 36 (see test_opponent_deck_changes_the_race): the game ends when the second player runs out.
    assert wankul.game_end[["turn", "p"]].values.tolist() == [[36, 1.0]]
    assert "earlier" in wankul.provenance["game_end_text"]
    # Licum: game decks of 30 and 20 cards run out at the end of turns 24 and 14 (7-card hands, one draw at the
    # end of each turn); the match ends when neither player can draw: turn 24.
    licum = deckstat.load_deck(sample_deck("licum"))
    short = licum.cards[licum.cards["deck"] == "preparation"]
    game = licum.cards[licum.cards["deck"] == "jeu"].assign(count=lambda t: np.minimum(t["count"], 1))
    extra = game.head(4).assign(name=lambda t: t["name"] + " bis")
    opponent = deckstat.Deck.from_table(pd.concat([short, game, extra]))  # a 20-card game deck
    result = deckstat.deckout(licum, "licum", opponent=opponent)
    assert turns_by_seat(result) == {"first": 24, "second": 14}
    assert result.game_end[["turn", "p"]].values.tolist() == [[24, 1.0]]
    assert "later" in result.provenance["game_end_text"]


def test_simulated_licum_match_ends_at_the_later_deck_out():
    # With draw effects and no mill, each seat's run-out turn depends on its own shuffle only: the seats are
    # independent, so P(match over by t) = P(first out by t) * P(second out by t).
    rows = [{"deck": "jeu", "name": "Pioche", "count": 6, "type": "Shote", "draw": 1},
            {"deck": "jeu", "name": "Vanille", "count": 14, "type": "Condition"}]
    deck = deckstat.Deck.from_table(rows)
    n = 40_000
    result = deckstat.deckout(deck, "licum", policy="on_draw", n_trials=n, rng=10)
    cdf = {seat: result.table[result.table["seat"] == seat].set_index("turn")["cdf"] for seat in ("first", "second")}
    end = result.game_end.set_index("turn")["cdf"]
    turns = sorted(set(end.index) | set(cdf["first"].index) | set(cdf["second"].index))
    z = z_for(len(turns))
    for t in turns:
        f1, f2 = (float(c[c.index <= t].iloc[-1]) if (c.index <= t).any() else 0.0 for c in cdf.values())
        fe = float(end[end.index <= t].iloc[-1]) if (end.index <= t).any() else 0.0
        # sd of the difference at most the sum of the sds of its two estimates.
        sd = np.sqrt(fe * (1 - fe) / n) + np.sqrt((f2 ** 2 * f1 * (1 - f1) + f1 ** 2 * f2 * (1 - f2)) / n)
        assert abs(fe - f1 * f2) <= z * sd + 1e-12, (t, fe, f1 * f2)
    assert result.game_end["p"].sum() == pytest.approx(1.0)


def test_decks_of_different_sizes_are_raced_with_a_warning():
    short = deckstat.Deck.from_table([{"name": "T", "count": 8, "type": "Terrain"},
                                      {"name": "P", "count": 32, "type": "Personnage"}], source="court.csv")
    result = deckstat.deckout(sample("wankul"), "wankul", opponent=short, drought=False)
    assert result.provenance["warnings"] == [
        "Wankul: both players' decks must have the same number of cards; sample_deck.csv has 50 and court.csv 40"]
    assert deckstat.deckout(sample("wankul"), "wankul", drought=False).provenance["warnings"] == []
    # Duel Masters sets no such rule.
    dm = deckstat.deckout(sample("duel-masters"), "dm", opponent=deckstat.Deck.from_table(
        [{"name": "C", "count": 44, "type": "Créature"}]))
    assert dm.provenance["warnings"] == []
    compared = deckstat.compare([sample("wankul"), short], "wankul", "Terrain>=1", turns=[0], mulligan=False)
    assert compared.provenance["warnings"] == result.provenance["warnings"]


def test_opponent_deck_changes_the_race():
    short = deckstat.Deck.from_table([{"name": "T", "count": 10, "type": "Terrain"},
                                      {"name": "P", "count": 30, "type": "Personnage"}])
    result = deckstat.deckout(sample("wankul"), "wankul", opponent=short, drought=False)
    assert turns_by_seat(result) == {"first": 46, "second": 36}
    assert summary_of(result, "first")["p_runs_out_first"] == 0.0
    assert summary_of(result, "second")["p_runs_out_first"] == 1.0
    # Each seat's row names its own deck and the other as the opponent.
    decks = dict(zip(result.table["seat"], zip(result.table["deck"], result.table["opponent"])))
    assert decks == {"first": ("sample_deck.csv", "<table>"), "second": ("<table>", "sample_deck.csv")}


# --- Wankul's drought rule -----------------------------------------------------------------------------------

SMALL = [{"name": "Terrain", "count": 2, "type": "Terrain"}, {"name": "Perso", "count": 8, "type": "Personnage"}]


def slow_wankul(n_games, seed, terrains=2, size=10, hand_size=5, mulligan=False, terrain_turns=None,
                order="together"):
    """Wankul deck-out with the drought rule, one game at a time, rules applied literally.

    With ``mulligan``, a player whose five cards hold no Terrain puts them under the deck in the order
    they were dealt and takes the next five (once). A Terrain in play stays (or, with ``terrain_turns``,
    leaves play when that many turns of either player have begun since it was played); a player holding
    one with none in play must play it; with none in play and none in hand, both draw one card at a time
    until one appears: ``order="together"``, both draw and then look (if both must draw and cannot, the
    active player wins); ``"active_first"``, the active player draws, then the other, and so on, stopping at
    the first Terrain (the first unable to draw loses).

    Returns each seat's deck-out rounds and, per game, which seat ran out first (0 or 1; 2: the same moment).
    """
    rng = random.Random(seed)
    rounds = {0: [], 1: []}
    firsts = []
    for _ in range(n_games):
        hands, libs = [], []
        for _seat in range(2):
            cards = ["T"] * terrains + ["P"] * (size - terrains)
            rng.shuffle(cards)
            hand, lib = cards[:hand_size], cards[hand_size:]
            if mulligan and "T" not in hand:
                hand, lib = lib[:hand_size], lib[hand_size:] + hand
            hands.append(hand)
            libs.append(lib)
        out = [None, None]
        when = [None, None]
        in_play = False
        expires = None
        round_number = 0
        while None in out:
            round_number += 1
            for a in (0, 1):
                b = 1 - a
                now = 2 * round_number + a
                if in_play and expires is not None and now >= expires:
                    in_play = False
                if out[a] is not None:
                    continue
                if not libs[a]:
                    out[a], when[a] = round_number, now
                    continue
                hands[a].append(libs[a].pop(0))
                if not in_play and "T" in hands[a]:
                    hands[a].remove("T")
                    in_play = True
                    expires = None if terrain_turns is None else now + terrain_turns
                while (order == "active_first" and out[a] is None and out[b] is None and not in_play
                       and "T" not in hands[a] and "T" not in hands[b]):
                    for s in (a, b):
                        if not libs[s]:
                            out[s], when[s] = round_number, now
                            break
                        hands[s].append(libs[s].pop(0))
                        if "T" in hands[s]:
                            break
                while (order == "together" and out[b] is None and not in_play and "T" not in hands[a]
                       and "T" not in hands[b]):
                    if not libs[a] or not libs[b]:
                        loser = b if not libs[b] else a  # both empty: the active player wins
                        out[loser], when[loser] = round_number, now
                        break
                    hands[a].append(libs[a].pop(0))
                    hands[b].append(libs[b].pop(0))
                if not in_play and "T" in hands[a] and out[a] is None:
                    hands[a].remove("T")
                    in_play = True
                    expires = None if terrain_turns is None else now + terrain_turns
        rounds[0].append(out[0])
        rounds[1].append(out[1])
        firsts.append(0 if when[0] < when[1] else 1 if when[1] < when[0] else 2)
    return rounds, firsts


def assert_same_proportions(kernel, slow, n_kernel, n_slow, z):
    """Two independent estimates of each proportion agree: |difference| within z pooled standard errors."""
    kernel, slow = np.asarray(kernel, float), np.asarray(slow, float)
    pooled = (kernel * n_kernel + slow * n_slow) / (n_kernel + n_slow)
    se = np.sqrt(pooled * (1 - pooled) * (1 / n_kernel + 1 / n_slow))
    assert np.all(np.abs(kernel - slow) <= z * se), (kernel, slow, z * se)


def assert_race_matches(result, slow, n_kernel, n_slow, turns):
    """Each seat's deck-out turn distribution over ``turns`` and who runs out first, against the slow race."""
    rounds, firsts = slow
    z = z_for(2 * len(turns) + 3)
    for i, seat in enumerate(("first", "second")):
        rows = result.table[result.table["seat"] == seat].set_index("turn")["p"]
        # Every race ends within the turns compared.
        assert set(rows.index) <= set(turns) and set(rounds[i]) <= set(turns)
        counts = np.bincount(rounds[i], minlength=max(turns) + 1) / n_slow
        assert_same_proportions([rows.get(t, 0.0) for t in turns], counts[list(turns)], n_kernel, n_slow, z)
    shares = np.bincount(firsts, minlength=3) / n_slow
    kernel = [summary_of(result, "first")["p_runs_out_first"], summary_of(result, "second")["p_runs_out_first"],
              summary_of(result, "first")["p_same_moment"]]
    assert_same_proportions(kernel, shares, n_kernel, n_slow, z)


def test_drought_drains_decks_as_derived_on_paper():
    deck = deckstat.Deck.from_table(SMALL)
    without = deckstat.deckout(deck, "wankul", drought=False, mulligan=False)
    assert turns_by_seat(without) == {"first": 6, "second": 6}
    n = 200_000
    result = deckstat.deckout(deck, "wankul", mulligan=False, terrain_turns="never", n_trials=n, rng=3)
    # A drought needs the first player's hand and turn-1 draw and the second player's hand all without a
    # Terrain: 2/9 * 3/5 * 2/9 = 12/405. Then both draw at least once more, so both run out before turn 6.
    expected_early = 12 / 405
    for seat in ("first", "second"):
        rows = result.table[result.table["seat"] == seat]
        early = rows.loc[rows["turn"] < 6, "p"].sum()
        se = np.sqrt(expected_early * (1 - expected_early) / n)
        assert abs(early - expected_early) <= z_for(2) * se
        assert summary_of(result, seat)["mean_turn"] < 6
        assert summary_of(result, seat)["latest_turn"] == 6


def test_drought_distribution_matches_a_literal_simulator():
    deck = deckstat.Deck.from_table(SMALL)
    n_kernel, n_slow = 200_000, 40_000
    result = deckstat.deckout(deck, "wankul", mulligan=False, terrain_turns="never", n_trials=n_kernel, rng=5)
    assert_race_matches(result, slow_wankul(n_slow, seed=5), n_kernel, n_slow, turns=range(1, 8))


def test_scored_terrains_and_the_bottom_mulligan_match_a_literal_simulator():
    # 13 cards, 2 Terrains, a Terrain leaves play two turns after it is played: droughts are frequent. A
    # Terrain-less first hand goes under the last 3 cards, and drought draws reach it.
    deck = deckstat.Deck.from_table([{"name": "Terrain", "count": 2, "type": "Terrain"},
                                     {"name": "Perso", "count": 11, "type": "Personnage"}])
    n_kernel, n_slow = 100_000, 20_000
    slow = {}
    for mulligan in (True, False):
        result = deckstat.deckout(deck, "wankul", mulligan=mulligan, terrain_turns=2, n_trials=n_kernel, rng=12)
        assert result.provenance["mulligan_rule"] == ("bottom" if mulligan else "none")
        assert result.provenance["terrain_turns"] == 2
        slow[mulligan] = slow_wankul(n_slow, seed=12, size=13, mulligan=mulligan, terrain_turns=2)
        assert_race_matches(result, slow[mulligan], n_kernel, n_slow, turns=range(1, 10))
    # The mulligan matters here: the two literal races differ beyond sampling noise.
    shares = [np.bincount(slow[m][0][0], minlength=10)[1:10] / n_slow for m in (True, False)]
    pooled = (shares[0] + shares[1]) / 2
    assert np.any(np.abs(shares[0] - shares[1]) > z_for(9) * np.sqrt(pooled * (1 - pooled) * 2 / n_slow))


@pytest.mark.parametrize("terrain_turns", ["never", 2])
def test_drought_active_player_first_matches_a_literal_simulator(terrain_turns):
    deck = deckstat.Deck.from_table(SMALL)
    n_kernel, n_slow = 100_000, 20_000
    result = deckstat.deckout(deck, "wankul", mulligan=False, terrain_turns=terrain_turns,
                              drought_order="active_first", n_trials=n_kernel, rng=8)
    assert result.provenance["drought_order"] == "active_first"
    slow = slow_wankul(n_slow, seed=8, terrain_turns=None if terrain_turns == "never" else terrain_turns,
                       order="active_first")
    assert_race_matches(result, slow, n_kernel, n_slow, turns=range(1, 8))


def test_the_two_drought_readings_differ():
    # Together, both players draw as many drought cards; active first, the active player draws one more when
    # it finds the Terrain. On equal decks the first player then no longer always runs out first.
    deck = sample("wankul")
    together = deckstat.deckout(deck, "wankul", n_trials=20_000, rng=9)
    in_turn = deckstat.deckout(deck, "wankul", drought_order="active_first", n_trials=20_000, rng=9)
    assert together.provenance["drought_order"] == "together"
    assert summary_of(together, "first")["p_runs_out_first"] == 1.0
    first = summary_of(in_turn, "first")
    assert first["ci_high"] < 1.0
    with pytest.raises(deckstat.DeckstatError, match="drought_order must be one of together, active_first"):
        deckstat.deckout(deck, "wankul", drought_order="alternate")


def test_scored_terrains_are_the_wankul_default():
    # The rules discard a scored Terrain and let it be scored from the opponent's turn: by default it is gone
    # when its owner's next turn begins (2 turns), which makes droughts, and early deck-outs, common.
    deck = sample("wankul")
    default = deckstat.deckout(deck, "wankul", n_trials=20_000, rng=6)
    two = deckstat.deckout(deck, "wankul", terrain_turns=2, n_trials=20_000, rng=6)
    stays = deckstat.deckout(deck, "wankul", terrain_turns="jamais", n_trials=20_000, rng=6)
    assert default.provenance["terrain_turns"] == 2 == deckstat.get_profile("wankul").drought_scored_after
    assert "(the profile's default)" in default.provenance["assumptions"][-2]
    pd.testing.assert_frame_equal(default.table, two.table)
    # A kept hand always holds a Terrain here and it never leaves play: no drought, every deck runs out on 46.
    assert summary_of(stays, "first")["median_turn"] == 46
    assert summary_of(default, "first")["latest_turn"] < 46
    with pytest.raises(deckstat.DeckstatError, match="terrain_turns must be a whole number of at least 1 or 'never'"):
        deckstat.deckout(deck, "wankul", terrain_turns="souvent")


def test_kept_hand_with_a_terrain_prevents_the_drought():
    # With the mulligan (keep a hand with a Terrain), the 10-card deck always keeps a Terrain: after a
    # Terrain-less first hand, the other five cards hold both. The first player plays it on turn 1.
    result = deckstat.deckout(deckstat.Deck.from_table(SMALL), "wankul", terrain_turns="never", n_trials=20_000,
                              rng=2)
    assert turns_by_seat(result) == {"first": 6, "second": 6}


def test_scored_terrains_bring_more_droughts():
    deck = sample("wankul")
    stays = deckstat.deckout(deck, "wankul", terrain_turns="never", n_trials=20_000, rng=4)
    scored = deckstat.deckout(deck, "wankul", terrain_turns=2, n_trials=20_000, rng=4)
    assert summary_of(scored, "first")["mean_turn"] < summary_of(stays, "first")["mean_turn"]
    assert scored.provenance["terrain_turns"] == 2 and stays.provenance["terrain_turns"] is None


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
    result = deckstat.deckout(deck, effect_profile(), policy=policy, n_trials=n_kernel, rng=9)
    assert result.provenance["policy"] == policy
    slow = slow_effects(n_slow, 9, policy)
    baseline = deckstat.deckout(deck, effect_profile(), policy="none")
    assert turns_by_seat(baseline) == {"first": 13, "second": 13}
    turns = range(1, 14)
    for i, seat in enumerate(("first", "second")):
        rows = result.table[result.table["seat"] == seat].set_index("turn")["p"]
        assert set(rows.index) <= set(turns) and set(slow[i]) <= set(turns)
        counts = np.bincount(slow[i], minlength=15) / n_slow
        assert summary_of(result, seat)["mean_turn"] < 13
        assert_same_proportions([rows.get(t, 0.0) for t in turns], counts[list(turns)], n_kernel, n_slow,
                                z_for(2 * len(turns)))


def test_effects_policy_none_is_exact_and_bad_values_are_refused():
    deck = deckstat.Deck.from_table(EFFECT_DECK)
    result = deckstat.deckout(deck, effect_profile(), policy="none")
    assert (result.table["method"] == "exact").all()
    with pytest.raises(deckstat.DeckstatError, match="policy"):
        deckstat.deckout(deck, effect_profile(), policy="sometimes")
    with pytest.raises(deckstat.DeckstatError, match="draw"):
        deckstat.Deck.from_table([{"name": "X", "count": 10, "type": "Sort", "draw": -1}])
    with pytest.raises(deckstat.DeckstatError, match="random"):
        deckstat.deckout(deck, effect_profile(), policy="on_draw", method="exact")


@pytest.mark.slow
def test_deckout_reproducible_whatever_the_chunk_size():
    deck = sample("wankul")
    a = deckstat.deckout(deck, "wankul", terrain_turns=3, n_trials=140_000, rng=8, chunk_size=1)
    b = deckstat.deckout(deck, "wankul", terrain_turns=3, n_trials=140_000, rng=8, chunk_size=1 << 20)
    np.testing.assert_array_equal(a.table["p"], b.table["p"])
    np.testing.assert_array_equal(a.summary["p_runs_out_first"], b.summary["p_runs_out_first"])


def test_the_default_policy_plays_the_effect_columns_as_soon_as_drawn():
    deck = deckstat.Deck.from_table(EFFECT_DECK)
    default = deckstat.deckout(deck, effect_profile(), n_trials=2000, rng=3)
    assert default.provenance["policy"] == "on_draw" and default.provenance["effect_cards"] == [5, 5]
    on_draw = deckstat.deckout(deck, effect_profile(), policy="on_draw", n_trials=2000, rng=3)
    pd.testing.assert_frame_equal(default.summary, on_draw.summary)
    # Without draw or mill columns every policy gives the same exact race.
    plain = deckstat.deckout(sample("duel-masters"), "duel-masters")
    assert plain.provenance["effect_cards"] == [0, 0]
    assert set(plain.table["method"]) == {"exact"}
    pd.testing.assert_frame_equal(plain.summary, deckstat.deckout(sample("duel-masters"), "duel-masters",
                                                                 policy="none").summary)


@pytest.mark.parametrize("drought_order", ["together", "active_first"])
def test_races_advanced_in_smaller_groups_give_the_same_numbers(monkeypatch, drought_order):
    # The races of a block are dealt at once and then advanced a group at a time: the grouping is speed only.
    from deckstat.engines import race

    deck = sample("wankul")
    results = []
    for group in (race.SUB_BLOCK, 333):
        monkeypatch.setattr(race, "SUB_BLOCK", group)
        results.append(deckstat.deckout(deck, "wankul", drought_order=drought_order, n_trials=2_000, rng=21))
    pd.testing.assert_frame_equal(results[0].table, results[1].table)
    pd.testing.assert_frame_equal(results[0].summary, results[1].summary)
    pd.testing.assert_frame_equal(results[0].game_end, results[1].game_end)


def test_mean_turns_are_the_summary_means():
    deck = deckstat.Deck.from_table(SMALL)
    means, method = mean_turns(deck, "wankul", mulligan=False, n_trials=3_000, rng=5)
    race = deckstat.deckout(deck, "wankul", mulligan=False, n_trials=3_000, rng=5)
    assert method == "simulate"
    assert means == dict(zip(race.summary["seat"], race.summary["mean_turn"]))
    # Without the drought rule's randomness (Duel Masters), the exact turns of EXPECTED.
    means, method = mean_turns(sample("duel-masters"), "duel-masters")
    assert method == "exact" and means == {"first": 31.0, "second": 30.0}
