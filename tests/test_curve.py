"""Playability curves: the driver, the plain in-hand model, the question and the command line."""

from __future__ import annotations

import contextlib
import dataclasses

import numpy as np
import pandas as pd
import pytest
from scipy.stats import hypergeom

import deckstat
from deckstat.errors import DeckstatError
from deckstat.events import parse_event
from deckstat.games.profiles import HAND_PLAY
from deckstat.play import build_model, engine
from deckstat.play.base import schedule
from deckstat.play.engine import Dealing, shared_deals
from tests.helpers import ROOT, assert_user_error, ok, run, sample_deck, z_for

#: Wankul's rules (bottom mulligan, draws) with the plain in-hand play model, whose curve the exact engine answers.
WANKUL_IN_HAND = dataclasses.replace(deckstat.get_profile("wankul"), play_model=HAND_PLAY)
#: The same for Duel Masters (shields, no draw on the first player's turn 1).
DM_IN_HAND = dataclasses.replace(deckstat.get_profile("duel-masters"), play_model=HAND_PLAY)


def two_card_deck(copies: int = 4, others: int = 36) -> deckstat.Deck:
    return deckstat.Deck.from_table([{"name": "Target", "count": copies, "type": "Sort"},
                                     {"name": "Other", "count": others, "type": "Créature"}])


def test_generic_curve_is_the_hypergeometric_chance_of_having_seen_the_card():
    result = deckstat.curve(two_card_deck(), "generic", cards="Target", turns=range(1, 6), seat="both")
    for row in result.table.itertuples():
        seen = 5 + row.turn  # both seats draw on turn 1 in the generic profile
        assert row.p == pytest.approx(hypergeom(40, 4, seen).sf(0), abs=1e-12)
        assert row.method == "exact" and row.policy == "any"


def test_duel_masters_schedule_skips_the_first_draw_and_sets_the_shields_aside():
    result = deckstat.curve(two_card_deck(), DM_IN_HAND, cards="Target", turns=[1, 2, 3], seat="first")
    # Shields are five unseen cards: the hand and draws are a uniform sample of the rest.
    expected = [hypergeom(40, 4, 5 + d).sf(0) for d in (0, 1, 2)]
    assert result.table["p"].tolist() == pytest.approx(expected, abs=1e-12)


def test_licum_plays_turn_t_with_the_draws_of_the_turns_before():
    deck = deckstat.load_deck(sample_deck("licum"))
    result = deckstat.curve(deck, "licum", cards="Gontran Lafrite", turns=[1, 2], seat="first")
    game = deckstat.get_profile("licum").drawn_deck(deck)
    copies = int(game.counts[np.array(game.names) == "Gontran Lafrite"].sum())
    expected = [hypergeom(game.size, copies, 7 + d).sf(0) for d in (0, 1)]
    assert result.table["p"].tolist() == pytest.approx(expected, abs=1e-12)


def test_jdg_s_second_player_has_no_turn_25():
    # « Si l'un des joueurs pioche la dernière carte de son deck, à la fin de son tour le duel se termine »: with two
    # 30-card decks the first player draws the 25th card of their library on their turn 25, and the duel ends then.
    deck = deckstat.load_deck(sample_deck("jdg", "conditions_deck.csv"))
    message = ("turn 25 never comes for the second player: with two 30-card decks the first player draws their last "
               "card on their turn 25, and drawing the last card ends the game at the end of that turn")
    for ask in (lambda: deckstat.curve(deck, "jdg", cards="Soucoupe Rouillée", turns=[25], seat="second"),
                lambda: deckstat.curve(deck, "jdg", cards="Soucoupe Rouillée", turns=[24, 25]),
                lambda: deckstat.odds(deck, "jdg", "TERRAIN>=1", turns=[25], seat="second"),
                lambda: deckstat.when(deck, "jdg", "TERRAIN>=4", max_turn=25)):
        with pytest.raises(DeckstatError, match=message):
            ask()
    first = deckstat.curve(deck, "jdg", cards="Soucoupe Rouillée", turns=[25], seat="first")
    assert first.table["p"].item() == 1.0  # every card seen on the last turn the duel has
    second = deckstat.curve(deck, "jdg", cards="Soucoupe Rouillée", turns=[24], seat="second")
    # 29 cards seen: Soucoupe and its Station both among them unless one is the card left, 28/30.
    assert second.table["p"].item() == pytest.approx(28 / 30, abs=1e-12)
    odds = deckstat.odds(deck, "jdg", "TERRAIN>=1", turns=[24, 25], seat="first")
    assert odds.table["p"].tolist() == [1.0, 1.0]
    when = deckstat.when(deck, "jdg", "TERRAIN>=4", max_turn=24, seat="second")
    assert when.summary["p_never"].item() == pytest.approx(4 / 30, abs=1e-12)  # the card left is a TERRAIN
    with pytest.raises(DeckstatError, match="turn 26 needs 26 draws for the first player"):
        deckstat.odds(deck, "jdg", "TERRAIN>=1", turns=[26], seat="first")


def test_a_licum_player_with_no_card_left_plays_on(tmp_path):
    # « Le match fini [...] quand les deux joueurs n'ont plus de cartes à tirer à la fin de leur tour »: a 17-card
    # game deck cannot draw at the end of turn 11, but the match goes on while the opponent draws, up to the end of
    # turn 24 with a 30-card game deck (the largest allowed).
    table = deckstat.load_deck(sample_deck("licum")).cards
    game = table[table["deck"] == "jeu"]
    keep = game["name"].isin(["Gontran Lafrite", "Marcel Poudrier", "Yvette Trampoline", "Bertrand Pichenotte",
                              "Public en Délire", "Objection de l'Arbitre", "Shote d'Énergie", "Ovation Debout",
                              "Coach Réjean Sifflet"])
    deck = deckstat.Deck.from_table(pd.concat([table[table["deck"] != "jeu"], game[keep]]))
    assert deckstat.get_profile("licum").drawn_deck(deck).size == 17
    result = deckstat.curve(deck, "licum", cards="Public en Délire", turns=range(10, 25), seat="first")
    (note,) = result.provenance["play_notes"]
    assert note.startswith("turns 12 to 24 are played with no card left to draw (the player cannot draw at the end "
                           "of turn 11)") and "turn 24 at the latest with a 30-card deck" in note
    assert result.table["p"].tolist()[-1] == 1.0 and result.table["method"].iloc[0] == "exact"
    with pytest.raises(DeckstatError, match="turn 25 is past the last turn"):
        deckstat.curve(deck, "licum", cards="Public en Délire", turns=[25], seat="first")
    # A 30-card game deck runs out on the last turn a match can reach: no turn is played without a draw.
    full = deckstat.curve(deckstat.load_deck(sample_deck("licum")), "licum", cards="Public en Délire",
                          turns=[24], seat="first")
    assert full.provenance["play_notes"] == []


def _agree(exact: pd.DataFrame, simulated: pd.DataFrame, n_trials: int) -> None:
    merged = exact.merge(simulated, on=["target", "seat", "turn"], suffixes=("_exact", "_sim"))
    z = z_for(len(merged))
    p = merged["p_exact"].to_numpy()
    se = np.sqrt(np.maximum(p * (1 - p), 1e-12) / n_trials)
    assert np.all(np.abs(merged["p_sim"].to_numpy() - p) <= z * se + 1e-12), merged


def test_simulation_agrees_with_the_exact_curve_under_the_bottom_mulligan():
    deck = deckstat.load_deck(sample_deck("wankul"))
    kwargs = {"groups": ["[coût>=2]", "Terrain"], "cards": "Robot Camembert", "turns": range(1, 9)}
    exact = deckstat.curve(deck, WANKUL_IN_HAND, **kwargs)
    assert set(exact.table["method"]) == {"exact"}
    simulated = deckstat.curve(deck, WANKUL_IN_HAND, method="simulate", n_trials=40_000, rng=7, **kwargs)
    assert set(simulated.table["method"]) == {"simulate"}
    _agree(exact.table, simulated.table, 40_000)
    # The mulligan matters: without it, fewer first hands hold a Terrain.
    bare = deckstat.curve(deck, WANKUL_IN_HAND, groups="Terrain", turns=[1], mulligan=False, seat="first")
    kept = exact.table.query("target == 'Terrain' and turn == 1 and seat == 'first'")["p"].item()
    assert bare.table["p"].item() < kept


def test_same_seed_same_numbers_whatever_the_chunk_size():
    deck = deckstat.load_deck(sample_deck("duel-masters"))
    runs = [deckstat.curve(deck, "duel-masters", cards="Lézard Pétard", turns=range(1, 5), method="simulate",
                           n_trials=30_000, rng=11, chunk_size=size).table for size in (30_000, 7_000)]
    pd.testing.assert_frame_equal(runs[0], runs[1])


def test_summary_mean_median_and_never_follow_the_curve():
    result = deckstat.curve(two_card_deck(), "generic", cards="Target", turns=range(1, 4), seat="first")
    cdf = result.table["p"].to_numpy()
    pmf = np.diff(cdf, prepend=0.0)
    row = result.summary.iloc[0]
    assert row["p_never"] == pytest.approx(1 - cdf[-1])
    assert row["mean_turn"] == pytest.approx(np.dot([1, 2, 3], pmf) / cdf[-1])
    assert row["median_turn"] == 2  # 49.3% by turn 1 (6 cards seen), 55.2% by turn 2


def test_every_card_is_a_target_by_default_and_printings_share_a_name():
    deck = deckstat.Deck.from_table([{"name": "VENDEUR", "number": "35", "count": 2, "type": "Personnage"},
                                     {"name": "VENDEUR", "number": "36", "count": 1, "type": "Personnage"},
                                     {"name": "PORTAL", "count": 10, "type": "Terrain"},
                                     {"name": "Autre", "count": 37, "type": "Personnage"}])
    every = deckstat.curve(deck, WANKUL_IN_HAND, turns=[1], seat="first", mulligan=False)
    assert list(dict.fromkeys(every.table["target"])) == ["VENDEUR #35", "VENDEUR #36", "PORTAL", "Autre"]
    by_name = deckstat.curve(deck, WANKUL_IN_HAND, cards="vendeur", turns=[1], seat="first", mulligan=False)
    assert by_name.table["p"].item() == pytest.approx(hypergeom(50, 3, 6).sf(0), abs=1e-12)
    one = deckstat.curve(deck, WANKUL_IN_HAND, cards="VENDEUR #36", turns=[1], seat="first", mulligan=False)
    assert one.table["p"].item() == pytest.approx(hypergeom(50, 1, 6).sf(0), abs=1e-12)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"cards": "Bolshack Dragon"}, ["'Bolshack Dragon'", "not in the deck"]),
    ({"cards": "Target", "turns": [0, 1]}, ["turns", "start at turn 1"]),
    ({"cards": "Target", "turns": [40]}, ["last turn", "up to"]),
    ({"cards": "Target", "policy": "greedy"}, ["policy", "'greedy'", "any"]),
    ({"groups": "[cost>=2]"}, ["cost"]),
    ({"cards": ""}, ["card names"]),
])
def test_bad_requests_are_refused_with_words(kwargs, words):
    with pytest.raises(DeckstatError) as info:
        deckstat.curve(two_card_deck(), "generic", **kwargs)
    for word in words:
        assert word in str(info.value)


def test_profile_play_model_table_is_read_and_checked(tmp_path):
    base = (ROOT / "deckstat" / "games" / "generic.toml").read_text(encoding="utf-8")
    good = tmp_path / "good.toml"
    good.write_text(base.replace('id = "generic"', 'id = "mine"') + '\n[play_model]\nkind = "hand"\n'
                    'assumptions = ["Cards cost nothing."]\nturns_kept = 2\n', encoding="utf-8")
    profile = deckstat.load_profile_file(good)
    assert profile.play_model.kind == "hand" and profile.play_model.settings == {"turns_kept": 2}
    assert ("play assumption", "Cards cost nothing.") in profile.describe()
    bad = tmp_path / "bad.toml"
    bad.write_text(base.replace('id = "generic"', 'id = "mine2"') + '\n[play_model]\nkind = "tapping"\n',
                   encoding="utf-8")
    with pytest.raises(DeckstatError, match="unknown play model 'tapping'"):
        deckstat.curve(two_card_deck(), deckstat.load_profile_file(bad), cards="Target")


def test_the_driver_deals_the_kernel_s_hands():
    deck = deckstat.load_deck(sample_deck("duel-masters"))
    profile = DM_IN_HAND
    dealing = Dealing.of(deck, profile.hand_size, profile.set_aside, None, 0)
    hand, library = dealing.deal(np.random.default_rng(1), 1000)
    assert hand.shape == (5, 1000) and library.shape == (30, 1000)
    # Every game holds each card as many times as the deck does, shields aside.
    held = np.stack([np.bincount(np.concatenate([hand[:, i], library[:, i]]), minlength=len(deck.cards))
                     for i in range(50)])
    assert np.all(held <= deck.counts) and np.all(held.sum(axis=1) == 35)
    model = build_model(deck, profile)
    first = model.first_turns(hand, library, schedule(profile, "second", 3, 30), [np.arange(len(deck.cards)) == 0])
    in_hand = (hand == 0).any(axis=0)
    assert np.all((first[0] == 1) == (in_hand | (library[0] == 0)))


def test_cli_curve_prints_a_table_writes_csv_and_a_plot(tmp_path):
    out = ok(run("curve", sample_deck("duel-masters"), "--game", "dm", "--card", "Lézard Pétard", "--turns", "1-4"))
    assert "Lézard Pétard" in out and "t4" in out and "play model" in out
    csv = ok(run("curve", sample_deck("duel-masters"), "--game", "dm", "--group", "[civilization=Feu]",
                 "--format", "csv", "--seat", "first", "--turns", "2"))
    assert "[civilization=Feu]" in csv and ",first,2," in csv
    plot = tmp_path / "curve.png"
    ok(run("curve", sample_deck("wankul"), "--game", "wankul", "--group", "[coût>=2]", "--plot", plot,
           "--simulate", "--trials", "2000", "--seed", "1"))
    assert plot.stat().st_size > 10_000


def test_cli_curve_errors_are_one_line():
    assert_user_error(run("curve", sample_deck("duel-masters"), "--game", "dm", "--card", "Nope"),
                      "'Nope'", "not in the deck")
    assert_user_error(run("curve", sample_deck("duel-masters"), "--game", "dm", "--policy", "nope"), "--policy")


def test_workers_give_the_numbers_of_one_process():
    deck = deckstat.load_deck(sample_deck("wankul"))
    runs = [deckstat.curve(deck, "wankul", groups="[coût>=2]", turns=range(1, 4), method="simulate",
                           n_trials=20_000, rng=3, n_workers=workers).table for workers in (1, 2)]
    pd.testing.assert_frame_equal(runs[0], runs[1])


def test_seats_that_draw_alike_share_their_games_and_others_do_not():
    pandrea = deckstat.curve(deckstat.load_deck(sample_deck("pandrea")), "pandrea", cards="Hallebardiers Grincheux",
                             turns=range(1, 4), method="simulate", n_trials=5_000, rng=3)
    first, second = (pandrea.table[pandrea.table["seat"] == s]["p"].to_numpy() for s in ("first", "second"))
    assert np.array_equal(first, second)  # both Pandrea players draw alike, and play alone
    # Both Wankul players draw on turn 1, but the second sees the opponent's first turn (its Terrain) first.
    wankul = deckstat.curve(deckstat.load_deck(sample_deck("wankul")), "wankul", groups="[coût>=2]",
                            turns=range(1, 4), method="simulate", n_trials=5_000, rng=3)
    first, second = (wankul.table[wankul.table["seat"] == s]["p"].to_numpy() for s in ("first", "second"))
    assert not np.array_equal(first, second)
    dm = deckstat.curve(deckstat.load_deck(sample_deck("duel-masters")), "duel-masters", cards="Lézard Pétard",
                        turns=range(1, 4), method="simulate", n_trials=5_000, rng=3)
    first, second = (dm.table[dm.table["seat"] == s]["p"].to_numpy() for s in ("first", "second"))
    assert np.all(first <= second) and not np.array_equal(first, second)  # the first player skips a draw


def test_policies_have_french_names():
    deck = deckstat.load_deck(sample_deck("wankul"))
    result = deckstat.curve(deck, "wankul", cards="Robot Camembert", turns=[2], seat="first", policy="Courbe",
                            n_trials=2_000, rng=1)
    assert set(result.table["policy"]) == {"curve"} and result.provenance["policy"] == "curve"


@pytest.mark.parametrize(("game", "deck_file", "cards"), [
    ("duel-masters", "sample_deck.csv", ["Gobelin Chalumeau", "Dragon Crème Brûlée", "Engrais Miracle"]),
    ("jdg", "conditions_deck.csv", None),
    ("licum", "springs_deck.csv", None),
    ("pandrea", "logistics_deck.csv", None),
])
def test_each_model_s_exact_reductions_agree_with_its_simulation_through_the_driver(game, deck_file, cards):
    deck = deckstat.load_deck(sample_deck(game, deck_file))
    turns = range(1, 9)
    exact = deckstat.curve(deck, game, cards=cards, turns=turns)
    exact_rows = exact.table[exact.table["method"] == "exact"]
    assert len(exact_rows) > 0
    reduced = list(dict.fromkeys(exact_rows["target"]))
    n_trials = 20_000
    simulated = deckstat.curve(deck, game, cards=reduced, turns=turns, method="simulate", n_trials=n_trials, rng=5)
    assert set(simulated.table["method"]) == {"simulate"}
    _agree(exact_rows, simulated.table, n_trials)


def test_a_card_named_in_part_is_refused_with_the_names_that_contain_it():
    with pytest.raises(DeckstatError, match="cards whose name contains it: Golem de Pavés"):
        deckstat.curve(deckstat.load_deck(sample_deck("pandrea")), "pandrea", cards="golem")


def test_a_group_of_no_card_is_refused_unless_allowed_then_never_playable():
    deck = deckstat.load_deck(sample_deck("duel-masters"))
    with pytest.raises(DeckstatError, match="matches no card"):
        deckstat.curve(deck, "duel-masters", groups="[coût>=9]")
    result = deckstat.curve(deck, "duel-masters", groups="[coût>=9]", turns=[1, 2], allow_absent=True)
    assert result.table["p"].tolist() == [0.0] * 4 and result.summary["p_never"].tolist() == [1.0, 1.0]
    assert_user_error(run("curve", sample_deck("duel-masters"), "--game", "dm", "--group", "[coût>=9]"),
                      "--allow-absent")


def _wankul_dealing(keep: bool = True) -> Dealing:
    deck = deckstat.load_deck(sample_deck("wankul"))
    profile = deckstat.get_profile("wankul")
    drawn = profile.drawn_deck(deck)
    event = parse_event("Terrain>=1") if keep else None
    return Dealing.of(drawn.with_synonyms(profile.synonyms), profile.hand_size, profile.set_aside, event, 1)


def test_games_dealt_again_from_the_same_state_are_taken_once_and_leave_the_generator_alike():
    dealing = _wankul_dealing()
    alone = np.random.default_rng(7)
    expected = dealing.deal(alone, 1000)
    with shared_deals():
        first, again = np.random.default_rng(7), np.random.default_rng(7)
        dealt = dealing.deal(first, 1000)
        taken = dealing.deal(again, 1000)
        assert taken[0] is dealt[0] and taken[1] is dealt[1]  # dealt once
        # The same games as dealt outside the block, and the generators where dealing leaves them.
        for ours, theirs in zip(taken, expected):
            np.testing.assert_array_equal(ours, theirs)
        assert again.bit_generator.state == first.bit_generator.state == alone.bit_generator.state
        # Shared games cannot be changed by one of their takers.
        with pytest.raises(ValueError, match="read-only"):
            taken[1][0, 0] = 0
        # Another state, other trials or another dealing deal anew.
        assert dealing.deal(np.random.default_rng(8), 1000)[1] is not dealt[1]
        assert dealing.deal(np.random.default_rng(7), 999)[1] is not dealt[1]
        assert _wankul_dealing(keep=False).deal(np.random.default_rng(7), 1000)[1] is not dealt[1]
    # Outside the block nothing is kept.
    assert dealing.deal(np.random.default_rng(7), 1000)[1] is not dealt[1]


def test_shared_deals_keep_a_bounded_number_of_bytes(monkeypatch):
    dealing = _wankul_dealing()
    monkeypatch.setattr(engine, "SHARED_DEALS_BYTES", 1)
    with shared_deals():
        dealt = dealing.deal(np.random.default_rng(1), 500)
        assert dealing.deal(np.random.default_rng(1), 500)[1] is dealt[1]  # the last one is always kept
        dealing.deal(np.random.default_rng(2), 500)
        assert dealing.deal(np.random.default_rng(1), 500)[1] is not dealt[1]  # let go for the newer one


def test_a_curve_s_two_ends_are_dealt_once_with_the_numbers_dealt_twice(monkeypatch):
    deck = deckstat.load_deck(sample_deck("wankul"))
    dealt = []
    real = Dealing._deal
    monkeypatch.setattr(Dealing, "_deal", lambda self, rng, n: dealt.append(n) or real(self, rng, n))
    once = deckstat.report(deck, "wankul", n_trials=3000, rng=5).playability.curve
    shared = len(dealt)
    dealt.clear()
    monkeypatch.setattr("deckstat.questions.curve.shared_deals", contextlib.nullcontext)
    monkeypatch.setattr("deckstat.questions.report.shared_deals", contextlib.nullcontext)
    twice = deckstat.report(deck, "wankul", n_trials=3000, rng=5).playability.curve
    assert shared < len(dealt)
    for name, table in twice.frames().items():
        pd.testing.assert_frame_equal(once.frames()[name], table, obj=name)
