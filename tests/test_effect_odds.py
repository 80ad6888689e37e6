"""odds and curve beside their answer: what the deck's draw effects bring, against literal games and a closed form."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pandas as pd
import pytest
from helpers import DATA, ok, run, z_for

import deckstat
from deckstat.play.base import effect_positions
from deckstat.questions.odds import paired_gain

WANKUL = DATA / "wankul" / "sample_deck.csv"


def literal_positions(hand, library, drawn, draws):
    """One game card by card: at each turn's main phase every card seen and not played yet is played, in order."""
    seen = list(hand)
    taken, played, turn_draws, out = 0, 0, 0, []
    for base in drawn:
        # The turn's draws, then the effects.
        for _ in range(base - turn_draws):
            if taken < len(library):
                seen.append(library[taken])
                taken += 1
        turn_draws = base
        while played < len(seen):
            for _ in range(int(draws[seen[played]])):
                if taken < len(library):
                    seen.append(library[taken])
                    taken += 1
            played += 1
        out.append(taken)
    return out


def random_games(rng: np.random.Generator, smallest: int, n: int = 300):
    """Random draw effects (a row's draws, per row) and ``n`` dealt games: 5-card hands and libraries, row numbers."""
    n_rows, size = int(rng.integers(2, 8)), int(rng.integers(smallest, 30))
    draws = rng.integers(0, 4, n_rows) * (rng.random(n_rows) < 0.6)
    return draws, rng.integers(0, n_rows, (5, n)), rng.integers(0, n_rows, (size, n))


@pytest.mark.parametrize("seed", range(5))
def test_effect_draws_are_those_of_a_literal_game(seed):
    rng = np.random.default_rng([seed, 51])
    draws, hand, library = random_games(rng, 4)
    n, size = hand.shape[1], library.shape[0]
    drawn = np.minimum(np.arange(int(rng.integers(0, 2)), int(rng.integers(0, 2)) + 10), size)
    fast = effect_positions(hand, library, drawn, draws)
    for i in range(n):
        assert fast[:, i].tolist() == literal_positions(hand[:, i], library[:, i], drawn, draws), i


def drawer_deck(n_cards: int) -> deckstat.Deck:
    return deckstat.Deck.from_table([{"name": "Pioche", "count": 1, "effect": "pioche=1"},
                                     {"name": "Cible", "count": 1},
                                     {"name": "Autre", "count": n_cards - 2}])


def test_one_drawer_gives_the_closed_form():
    """One card that draws 1 and one target among N cards, generic rules (5-card hand, a card a turn).

    By turn t >= 1 the turns have drawn m = 5 + t cards; the drawer among them adds one. The target is seen when
    the drawer lies among the first m and the target among the first m + 1 (m / N * m / (N - 1)), or the drawer
    lies beyond and the target among the first m ((N - m) / N * m / (N - 1)): m / (N - 1) in all, against m / N
    without the effect. On turn 0 nothing is played yet.
    """
    n_cards = 30
    result = deckstat.odds(drawer_deck(n_cards), "generic", '"Cible">=1', turns=range(0, 11), seat="first", rng=3)
    effects = result.effects
    assert list(effects["turn"]) == list(range(0, 11)) and not effects["droughts"].any()
    z = z_for(3 * len(effects))
    for row in effects.itertuples(index=False):
        m = 5 + row.turn
        exact = m / n_cards if row.turn == 0 else m / (n_cards - 1)
        plain = m / n_cards
        assert row.p_without == pytest.approx(float(result.table.query(f"turn == {row.turn}")["p"].iloc[0]),
                                              abs=z * math.sqrt(plain * (1 - plain) / row.n_trials))
        assert abs(row.p - exact) <= z * math.sqrt(exact * (1 - exact) / row.n_trials), row
        # The gain is paired: its interval is far narrower than either answer's, and holds the true gain.
        true_gain = exact - plain
        assert row.gain == pytest.approx(row.p - row.p_without, abs=1e-12)
        width = z / 1.96 * (row.gain_high - row.gain_low) / 2
        assert abs(row.gain - true_gain) <= width + 1e-12, row
        assert row.gain_high - row.gain_low < (row.ci_high - row.ci_low) / 3 or row.turn == 0


def test_the_paired_gain_and_its_interval_against_a_direct_computation():
    rng = random.Random(4)
    pairs = [(rng.random() < 0.4, rng.random() < 0.3) for _ in range(5000)]
    up = sum(a and not b for a, b in pairs)
    down = sum(b and not a for a, b in pairs)
    differences = np.array([int(a) - int(b) for a, b in pairs], dtype=float)
    gain, low, high = paired_gain(up, down, len(pairs))
    assert gain == pytest.approx(differences.mean(), abs=1e-12)
    half = 1.959963984540054 * differences.std() / math.sqrt(len(pairs))
    assert (low, high) == pytest.approx((gain - half, gain + half), abs=1e-12)


def test_a_deck_without_draw_effects_has_no_effect_table_and_the_same_answer():
    deck = deckstat.load_deck(DATA / "duel-masters" / "sample_deck.csv")
    with_side = deckstat.odds(deck, "duel-masters", "Sort>=1", turns=range(0, 5))
    plain = deckstat.odds(deck, "duel-masters", "Sort>=1", turns=range(0, 5), effects=False)
    assert with_side.effects is None and with_side.droughts is None
    pd.testing.assert_frame_equal(with_side.table, plain.table)


def test_no_effects_asks_the_plain_question_and_the_answer_does_not_move(tmp_path):
    deck = drawer_deck(30)
    with_side = deckstat.odds(deck, "generic", '"Cible">=1', turns=[0, 3], seat="first")
    plain = deckstat.odds(deck, "generic", '"Cible">=1', turns=[0, 3], seat="first", effects=False)
    assert plain.effects is None and with_side.effects is not None
    pd.testing.assert_frame_equal(with_side.table, plain.table)
    with pytest.raises(deckstat.DeckstatError, match="effects must be True or False"):
        deckstat.odds(deck, "generic", '"Cible">=1', effects="no")
    path = tmp_path / "deck.csv"
    path.write_text("nom,quantité,effet\nPioche,1,pioche=1\nCible,1,\nAutre,28,\n", encoding="utf-8")
    english = ok(run("odds", path, "-g", "generic", "--event", '"Cible">=1', "--turns", "0-3", "--seat", "first"))
    assert "card effects are left out of this answer" in english and "the effects add" in english
    french = ok(run("odds", path, "-g", "generic", "--event", '"Cible">=1', "--turns", "0-3", "--seat", "first",
                    "--lang", "fr"))
    assert "les effets ajoutent" in french
    assert "card effects" not in ok(run("odds", path, "-g", "generic", "--event", '"Cible">=1', "--no-effects"))
    data = json.loads(ok(run("odds", path, "-g", "generic", "--event", '"Cible">=1', "--format", "json", "--seed",
                             "2")))
    assert {row["turn"] for row in data["effects"]} == set(range(0, 7))


def test_wankul_effects_are_counted_with_the_drought_draws_on_the_same_games(tmp_path):
    table = pd.read_csv(WANKUL)
    table["effet"] = table["name"].map({"Le Stagiaire Paniqué": "pioche=1", "Capitaine Baguette": "pioche=2",
                                        "Robot Camembert": "meule=1"})
    path = tmp_path / "effets.csv"
    table.to_csv(path, index=False)
    result = deckstat.odds(deckstat.load_deck(path), "wankul", '"Robot Camembert">=1', turns=range(0, 7),
                           seat="first", rng=5)
    effects, droughts = result.effects, result.droughts
    assert effects["droughts"].all()
    # Without the effects, the same games are the drought side's.
    assert np.array_equal(effects["p_without"].to_numpy(), droughts["p"].to_numpy())
    # A mill effect draws nothing: only the two drawing cards count, and from turn 1 they add cards.
    assert (effects["gain_low"].iloc[1:] > 0).all() and effects["gain"].iloc[0] == 0


def effect_deck(tmp_path):
    table = pd.read_csv(WANKUL)
    table["effet"] = table["name"].map({"Le Stagiaire Paniqué": "pioche=1", "Capitaine Baguette": "pioche=2"})
    path = tmp_path / "effets.csv"
    table.to_csv(path, index=False)
    return path


def test_curve_plays_the_draw_effects_on_the_same_games(tmp_path):
    deck = deckstat.load_deck(effect_deck(tmp_path))
    result = deckstat.curve(deck, "wankul", cards="Robot Camembert", turns=range(1, 7), n_trials=6000, rng=8)
    effects = result.effects
    # The answer and the side's plain games are the same games: the same numbers.
    assert np.array_equal(effects["p_without"].to_numpy(), result.table["p"].to_numpy())
    assert np.allclose(effects["gain"], effects["p"] - effects["p_without"], atol=1e-12)
    # Effects only add cards to the hold player's hand: a gain on every turn, beyond its paired interval.
    assert (effects["gain_low"] > 0).all()
    plain = deckstat.curve(deck, "wankul", cards="Robot Camembert", turns=range(1, 7), n_trials=6000, rng=8,
                           effects=False)
    assert plain.effects is None
    pd.testing.assert_frame_equal(plain.table, result.table)
    # A deck without effects gives no side.
    assert deckstat.curve(deckstat.load_deck(WANKUL), "wankul", cards="Robot Camembert", turns=[1, 2],
                          n_trials=500, rng=1).effects is None
    # Duel Masters' mana model plays them too (the game-by-game check against the literal simulator is in
    # test_play_mana): with three cards drawing 1, the cards come sooner.
    dm = pd.read_csv(DATA / "duel-masters" / "sample_deck.csv")
    dm["effect"] = ["pioche=1" if row < 3 else "" for row in range(len(dm))]
    dm.to_csv(tmp_path / "dm.csv", index=False)
    played = deckstat.curve(deckstat.load_deck(tmp_path / "dm.csv"), "duel-masters", turns=[1, 2, 3],
                            n_trials=4000, rng=1)
    # Most of its answers are exact (the model's reduction): the side's games without effects agree within z·SE.
    side = played.effects.merge(played.table, on=["target", "seat", "turn"], suffixes=("", "_answer"))
    se = np.sqrt(side["p_answer"] * (1 - side["p_answer"]) / side["n_trials"]).to_numpy()
    assert (np.abs(side["p_without"] - side["p_answer"]).to_numpy() <= z_for(len(side)) * se + 1e-12).all()
    assert (played.effects["gain_low"] > 0).any()


def test_curve_command_says_what_the_effects_add(tmp_path):
    path = effect_deck(tmp_path)
    common = ("curve", path, "-g", "wankul", "--card", "Robot Camembert", "--turns", "1-4", "--trials", 3000,
              "--seed", 2)
    assert "the effects add" in ok(run(*common))
    assert "les effets ajoutent" in ok(run(*common, "--lang", "fr"))
    assert "card effects" not in ok(run(*common, "--no-effects"))
    data = json.loads(ok(run(*common, "--format", "json")))
    assert {row["turn"] for row in data["effects"]} == {1, 2, 3, 4}


def test_when_with_one_drawer_gives_the_closed_form():
    # The drawer's closed form (see test_one_drawer_gives_the_closed_form) is a first turn's CDF: the target, once
    # seen, stays seen.
    n_cards = 30
    result = deckstat.when(drawer_deck(n_cards), "generic", '"Cible">=1', max_turn=8, seat="first", rng=5)
    effects = result.effects
    assert list(effects["turn"]) == list(range(0, 9)) and result.droughts is None
    cdf = result.table.set_index("turn")["cdf"]
    z = z_for(2 * len(effects))
    for row in effects.itertuples(index=False):
        m = 5 + row.turn
        exact = m / n_cards if row.turn == 0 else m / (n_cards - 1)
        plain = m / n_cards
        assert cdf[row.turn] == pytest.approx(plain, abs=1e-12)  # the exact answer
        # Both sides of the gain come from the same simulated games.
        assert abs(row.p_without - plain) <= z * math.sqrt(plain * (1 - plain) / row.n_trials), row
        assert abs(row.p - exact) <= z * math.sqrt(exact * (1 - exact) / row.n_trials), row


def test_when_counts_an_event_that_has_held_not_one_that_holds():
    # "Exactly one Cible and at most 6 Autre" stops holding as cards come: odds counts it at each turn, when
    # counts it once it has held. On the same games (same seed), when's side is never below odds' and never falls.
    deck = drawer_deck(30)
    event = '"Cible"==1 and "Autre"<=6'
    odds = deckstat.odds(deck, "generic", event, turns=range(0, 7), seat="first", rng=8).effects
    when = deckstat.when(deck, "generic", event, max_turn=6, seat="first", rng=8).effects
    for column in ("p", "p_without"):
        assert (when[column].to_numpy() >= odds[column].to_numpy() - 1e-12).all()
        assert (np.diff(when[column].to_numpy()) >= -1e-12).all()
    assert (odds["p"].to_numpy()[-1] < odds["p"].to_numpy().max()) and when["p"].iloc[0] == odds["p"].iloc[0]


def test_when_in_the_command_line_with_and_without_effects(tmp_path):
    path = tmp_path / "deck.csv"
    path.write_text("nom,quantité,effet\nPioche,1,pioche=1\nCible,1,\nAutre,28,\n", encoding="utf-8")
    english = ok(run("when", path, "-g", "generic", "--event", '"Cible">=1', "--max-turn", "4", "--seat", "first"))
    assert "the effects add" in english
    french = ok(run("when", path, "-g", "generic", "--event", '"Cible">=1', "--max-turn", "4", "--lang", "fr"))
    assert "les effets ajoutent" in french
    plain = ok(run("when", path, "-g", "generic", "--event", '"Cible">=1', "--max-turn", "4", "--no-effects"))
    assert "the effects add" not in plain
    tables = json.loads(ok(run("when", path, "-g", "generic", "--event", '"Cible">=1', "--max-turn", "4",
                               "--format", "json")))
    assert "effects" in json.dumps(tables)


def test_compare_with_the_effects_played_against_the_closed_form():
    # Deck B is deck A with one card that draws 1: with the draw played, B − A = m / (N − 1) − m / N by turn t
    # (see test_one_drawer_gives_the_closed_form); the answer itself, exact, says 0.
    n_cards = 30
    plain = deckstat.Deck.from_table([{"name": "Pioche", "count": 1}, {"name": "Cible", "count": 1},
                                      {"name": "Autre", "count": n_cards - 2}], source="a.csv")
    result = deckstat.compare([plain, drawer_deck(n_cards)], "generic", '"Cible">=1', turns=range(1, 7),
                              seat="first", rng=11)
    played = result.played
    assert (result.table["diff"].abs() < 1e-12).all() and (played["diff_without"].abs() < 1e-12).all()
    assert not played["effects_a"].any() and played["effects_b"].all() and not played["droughts"].any()
    z = z_for(len(played))
    for row in played.itertuples(index=False):
        m = 5 + row.turn
        assert row.p_a == pytest.approx(m / n_cards, abs=1e-12)  # deck A leaves nothing out: its exact answer
        true_diff = m / (n_cards - 1) - m / n_cards
        width = z / 1.96 * (row.diff_ci_high - row.diff_ci_low) / 2
        assert abs(row.diff - true_diff) <= width + 1e-12, row
    assert deckstat.compare([plain, drawer_deck(n_cards)], "generic", '"Cible">=1', turns=[2], seat="first",
                            effects=False).played is None


def test_compare_in_wankul_plays_the_drought_draws_and_says_so(tmp_path):
    sample, effects = DATA / "wankul" / "sample_deck.csv", DATA / "wankul" / "effects_deck.csv"
    arguments = ("compare", sample, effects, "-g", "wankul", "--event", '"Robot Camembert">=1', "--turns", "6",
                 "--seat", "first")
    english = ok(run(*arguments))
    assert "with the drought draws and card effects this answer leaves out" in english
    # Asked without a seed and answered exactly, the line is the same every run.
    assert english == ok(run(*arguments))
    french = ok(run(*arguments, "--lang", "fr"))
    assert "avec les pioches de disette et les effets des cartes" in french
    droughts_only = ok(run(*arguments, "--no-effects"))
    assert "with the drought draws this answer leaves out" in droughts_only
    result = deckstat.compare([deckstat.load_deck(sample), deckstat.load_deck(effects)], "wankul",
                              '"Robot Camembert">=1', turns=[6], seat="first", effects=False, rng=2)
    assert result.played["droughts"].all() and not result.played["effects_b"].any()
    # The two decks hold the same cards: with the drought draws alone they are dealt alike from the same seed.
    assert result.played["diff"].abs().max() < 1e-12


def test_ratio_plays_the_effects_at_every_count_against_the_closed_form():
    # The drawer and the target keep their single copies at every count (the filler takes the difference):
    # P(target seen by turn t) = m / (N - 1) with the draw, m / N without.
    n_cards = 30
    deck = deckstat.Deck.from_table([{"name": "Pioche", "count": 1, "effect": "pioche=1", "type": "Autre"},
                                     {"name": "Cible", "count": 1, "type": "Autre"},
                                     {"name": "Land", "count": 6, "type": "Land"},
                                     {"name": "Autre", "count": n_cards - 8, "type": "Autre"}])
    result = deckstat.ratio(deck, "generic", group="Land", counts=[4, 6, 8], event='"Cible">=1', turns=[2, 5],
                            filler="Autre", rng=4)
    played = result.played
    assert sorted(set(played["resource_count"])) == [4, 6, 8] and played["effects"].all()
    assert not played["droughts"].any()
    z = z_for(len(played))
    for row in played.itertuples(index=False):
        m = 5 + row.turn
        assert row.p_without == pytest.approx(m / n_cards, abs=1e-12)  # the table's exact answer
        exact = m / (n_cards - 1)
        assert abs(row.p - exact) <= z * math.sqrt(exact * (1 - exact) / row.n_trials), row
    assert deckstat.ratio(deck, "generic", group="Land", counts=[6], event='"Cible">=1', turns=[2],
                          filler="Autre", effects=False).played is None


def test_ratio_command_line_says_what_the_drought_draws_change():
    arguments = ("ratio", WANKUL, "-g", "wankul", "--event", "Terrain>=1", "--turns", "1-3", "--range", "8-11",
                 "--seed", "5")
    english = ok(run(*arguments))
    assert "with the drought draws this answer leaves out, played on simulated games, at 8 Terrain cards" in english
    french = ok(run(*arguments, "--lang", "fr"))
    assert "avec les pioches de disette que cette réponse laisse de côté" in french
    tables = json.loads(ok(run(*arguments, "--format", "json")))
    played = pd.DataFrame(tables["played"])
    # Drought draws only add cards: a Terrain is seen as often or more, at every count (beyond the noise).
    se = np.sqrt(played["p"] * (1 - played["p"]) / played["n_trials"])
    assert (played["p"] >= played["p_without"] - z_for(len(played)) * se).all()


def test_mulligan_plays_what_its_odds_leave_out_under_both_rules(tmp_path):
    # The by-turn odds with the bottom mulligan and keeping every first hand, each with the drought draws and the
    # draws played: more cards seen, so at least as often (beyond the noise), and the line says what the
    # mulligan buys then.
    deck = deckstat.load_deck(DATA / "wankul" / "effects_deck.csv")
    result = deckstat.mulligan(deck, "wankul", turns=[0, 2, 4], rng=6)
    played = result.played
    assert set(played["mulligan_rule"]) == {"bottom", "none"} and played["effects"].all() and played["droughts"].all()
    se = np.sqrt(played["p"] * (1 - played["p"]) / played["n_trials"])
    assert (played["p"] >= played["p_without"] - z_for(len(played)) * se).all()
    answer = result.by_turn.set_index(["mulligan_rule", "turn"])["p"]
    assert np.allclose(played.set_index(["mulligan_rule", "turn"])["p_without"], answer.reindex(
        played.set_index(["mulligan_rule", "turn"]).index))
    plain = deckstat.mulligan(deck, "wankul", turns=[2], rng=6, effects=False).played
    assert not plain["effects"].any() and plain["droughts"].all()
    # A rule the sides do not deal (London) keeps only the rows that keep every first hand.
    london = deckstat.mulligan(deck, "wankul", turns=[2], rng=6, mulligan_rule="london").played
    assert set(london["mulligan_rule"]) == {"none"}
    english = ok(run("mulligan", DATA / "wankul" / "effects_deck.csv", "-g", "wankul", "--seed", "6"))
    assert "the mulligan lifts Terrain>=1 by turn" in english
    french = ok(run("mulligan", DATA / "wankul" / "effects_deck.csv", "-g", "wankul", "--lang", "fr"))
    assert "le mulligan relève Terrain>=1 au tour" in french


def test_curve_in_hand_plays_the_draws_against_the_closed_form():
    # The in-hand model (a game without a play model): playable once seen, so the drawer's closed form m / (N - 1).
    n_cards = 30
    result = deckstat.curve(drawer_deck(n_cards), "generic", cards="Cible", turns=range(1, 7), seat="first", rng=3)
    z = z_for(len(result.effects))
    for row in result.effects.itertuples(index=False):
        m = 5 + row.turn
        exact, plain = m / (n_cards - 1), m / n_cards
        assert abs(row.p - exact) <= z * math.sqrt(exact * (1 - exact) / row.n_trials), row
        assert abs(row.p_without - plain) <= z * math.sqrt(plain * (1 - plain) / row.n_trials), row
