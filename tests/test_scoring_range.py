"""Wankul's Terrain scoring is an assumption: deckout and the report give the answer at both ends of it."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest
from helpers import DATA, ok, run, z_for

import deckstat

WANKUL = DATA / "wankul" / "sample_deck.csv"


@pytest.fixture(scope="module")
def deck():
    return deckstat.load_deck(WANKUL)


@pytest.fixture(scope="module")
def answer(deck):
    return deckstat.deckout(deck, "wankul", n_trials=4000, rng=8)


def test_each_end_is_the_race_run_with_that_setting_on_the_same_games(deck, answer):
    never = deckstat.deckout(deck, "wankul", n_trials=4000, rng=8, terrain_turns="never")
    default = deckstat.deckout(deck, "wankul", n_trials=4000, rng=8, terrain_turns=2)
    columns = ["seat", "median_turn", "mean_turn", "earliest_turn", "latest_turn"]
    for end, race in (("first_legal_moment", default), ("never", never)):
        rows = answer.scoring[answer.scoring["terrain_scoring"] == end][columns].reset_index(drop=True)
        pd.testing.assert_frame_equal(rows, race.summary[columns].reset_index(drop=True))
    # The answer itself is the default end, unchanged by the range beside it.
    pd.testing.assert_frame_equal(answer.summary, default.summary)
    # Terrains that stay in play all but switch the drought rule off: the deck lasts longer, beyond the noise of
    # either mean (standard errors from each run-out distribution; a one-sided test per seat).
    for seat in ("first", "second"):
        (low, low_error), (high, high_error) = (_mean_and_error(race.table, seat) for race in (answer, never))
        assert high - low > z_for(2) * np.hypot(low_error, high_error)


def _mean_and_error(table: pd.DataFrame, seat: str) -> tuple[float, float]:
    """A seat's mean run-out turn and its standard error, from a simulated distribution."""
    rows = table[table["seat"] == seat]
    turns, p = rows["turn"].to_numpy(dtype=float), rows["p"].to_numpy(dtype=float)
    mean = float(np.dot(turns, p))
    return mean, float(np.sqrt((np.dot(turns**2, p) - mean**2) / rows["n_trials"].iloc[0]))


@pytest.mark.parametrize("arguments", [{"terrain_turns": 2}, {"terrain_turns": "never"}, {"drought": False}])
def test_no_range_when_the_question_sets_the_assumption_or_leaves_the_rule_out(deck, arguments):
    assert deckstat.deckout(deck, "wankul", n_trials=500, rng=1, **arguments).scoring is None


@pytest.mark.parametrize("game", ["duel-masters", "jdg", "licum", "pandrea"])
def test_games_without_the_assumption_get_no_range(game):
    assert deckstat.deckout(deckstat.load_deck(DATA / game / "sample_deck.csv"), game).scoring is None


def test_the_command_line_says_both_ends_in_english_and_french_and_json_holds_them():
    common = ("deckout", WANKUL, "--game", "wankul", "--trials", 2000, "--seed", 4)
    english = ok(run(*common))
    assert "Terrain scoring is an assumption" in english and "never scored, on turn 46" in english
    french = ok(run(*common, "--lang", "fr"))
    assert "le score des Terrains est une hypothèse" in french and "jamais scoré, au tour 46" in french
    data = json.loads(ok(run(*common, "--format", "json")))
    assert {row["terrain_scoring"] for row in data["scoring"]} == {"first_legal_moment", "never"}
    assert "Terrain scoring" not in ok(run(*common, "--terrain-turns", "2"))


def test_the_report_says_both_ends(tmp_path):
    ok(run("report", WANKUL, "--game", "wankul", "--out", tmp_path, "--trials", 1000, "--seed", 3))
    page = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "Terrain scoring is an assumption" in page and "never scored, on turn 46" in page


def test_the_curve_gives_both_ends_each_the_model_run_with_that_setting(deck):
    answer = deckstat.curve(deck, "wankul", cards="Robot Camembert", turns=range(1, 11), n_trials=4000, rng=9)
    profile = deckstat.get_profile("wankul")
    never_profile = dataclasses.replace(profile, play_model=dataclasses.replace(
        profile.play_model, settings={**profile.play_model.settings, "terrain_turns": 0}))
    never = deckstat.curve(deck, never_profile, cards="Robot Camembert", turns=range(1, 11), n_trials=4000, rng=9)
    columns = ["target", "seat", "turn", "p", "ci_low", "ci_high"]
    for end, result in (("first_legal_moment", answer), ("never", never)):
        rows = answer.scoring[answer.scoring["terrain_scoring"] == end][columns].reset_index(drop=True)
        pd.testing.assert_frame_equal(rows, result.table[columns].reset_index(drop=True))
    assert never.scoring is None  # a model that never scores has no other end
    # Terrains kept in play end the droughts, whose draws bring the player cards: by turn 10 a real move, beyond
    # the binomial noise of the two estimates.
    at_ten = answer.scoring.query("turn == 10 and seat == 'first'").set_index("terrain_scoring")["p"]
    error = np.hypot(*(np.sqrt(p * (1 - p) / 4000) for p in at_ten))
    assert at_ten["first_legal_moment"] - at_ten["never"] > z_for(1) * error


def test_other_play_models_get_no_curve_range():
    for game in ("duel-masters", "jdg", "pandrea"):
        result = deckstat.curve(deckstat.load_deck(DATA / game / "sample_deck.csv"), game, turns=[1, 2],
                                n_trials=500, rng=1)
        assert result.scoring is None


def test_the_curve_command_names_the_largest_move():
    text = ok(run("curve", WANKUL, "--game", "wankul", "--card", "Robot Camembert", "--trials", 3000, "--seed", 2))
    assert "Terrain scoring is an assumption" in text and "Robot Camembert is playable by turn" in text


def test_curve_shows_both_readings_of_playing_in_a_drought_turn(deck, tmp_path):
    # « ils ne peuvent pas jouer d'autres cartes »: read as the drought's length (the answer) or its whole turn.
    # On the same games the hold player draws alike whatever it may play, so forbidding plays in a drought turn
    # can only delay the first playable turn: the answer is at least the other end, turn by turn.
    result = deckstat.curve(deck, "wankul", cards=["Robot Camembert", "Capitaine Baguette"], turns=range(1, 9),
                            seat="first", n_trials=20_000, rng=4)
    ends = result.drought_play
    assert set(ends["play_after_drought"]) == {True, False}
    wide = ends.pivot_table(index=["target", "turn"], columns="play_after_drought", values="p")
    assert (wide[True] >= wide[False] - 1e-12).all() and (wide[True] > wide[False]).any()
    answer = result.table.set_index(["target", "turn"])["p"]
    assert np.allclose(wide[True].reindex(answer.index), answer)
    # A model that forbids it already, and another game, give no second reading.
    profile = deckstat.get_profile("wankul")
    settings = {**profile.play_model.settings, "play_after_drought": False}
    strict = dataclasses.replace(profile, play_model=dataclasses.replace(profile.play_model, settings=settings))
    assert deckstat.curve(deck, strict, cards="Robot Camembert", turns=[2], n_trials=500, rng=1).drought_play is None
    assert deckstat.curve(deckstat.load_deck(DATA / "duel-masters" / "sample_deck.csv"), "duel-masters",
                          turns=[2], n_trials=500, rng=1).drought_play is None
    english = ok(run("curve", WANKUL, "-g", "wankul", "--card", "Robot Camembert", "--turns", "1-6", "--trials",
                     "4000", "--seed", "2"))
    assert "is read as lasting while the drought lasts (the default)" in english
    french = ok(run("games", "show", "wankul", "--lang", "fr"))
    assert "drought_play" in french
