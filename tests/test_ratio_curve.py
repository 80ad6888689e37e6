"""The resource sweep under the curve objective: P(a card is playable by a turn) at each count, and the best count.

The tests that use a shipped game hold for any correct play model: the value at
each count is `deckstat.curve` on the deck rebuilt at that count, and the best
count is the arg max over legal counts. Hand-computed values use the generic
profile, whose plain in-hand model makes playability the hypergeometric chance
of having seen a copy.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from helpers import SHARED_CARDDATA, assert_user_error, ok, ok_json, run, sample_deck
from scipy.stats import hypergeom

import deckstat
from deckstat.errors import DeckstatError
from deckstat.present.format import format_probability, ratio_decision
from deckstat.present.plots import plot_ratio
from deckstat.questions.ratio import CURVE_SUMMARY_COLUMNS, CURVE_TABLE_COLUMNS, RATIO_COLUMNS, with_resource_count

DM = sample_deck("duel-masters")
FIRE = "[civilization=Feu]"
DRAGON = "Dragon Crème Brûlée"


@pytest.fixture(scope="module")
def dm_deck():
    return deckstat.load_deck(DM)


@pytest.fixture(scope="module")
def dm_sweep(dm_deck):
    return deckstat.ratio(dm_deck, "duel-masters", group=FIRE, counts=range(18, 27), objective="curve", card=DRAGON,
                          target_turn=6)


def generic_deck(terrain_a: int = 2, terrain_b: int = 6) -> deckstat.Deck:
    """40 cards of the generic profile (no copy limit): two Terrains and Sorts."""
    return deckstat.Deck.from_table([{"name": "Terrain A", "count": terrain_a, "type": "Terrain"},
                                     {"name": "Terrain B", "count": terrain_b, "type": "Terrain"},
                                     {"name": "Sort", "count": 40 - terrain_a - terrain_b, "type": "Sort"}])


def constant_card_deck() -> deckstat.Deck:
    """40 generic cards where sweeping Terrain up never changes the Dragon's 4 copies (the Sorts, the most
    numerous, make room)."""
    return deckstat.Deck.from_table([{"name": "Dragon", "count": 4, "type": "Créature"},
                                     {"name": "Terrain", "count": 10, "type": "Terrain"},
                                     {"name": "Sort", "count": 26, "type": "Sort"}])


# --- the value at each count ------------------------------------------------------------------------------

def test_each_count_is_the_curve_of_the_rebuilt_deck(dm_deck, dm_sweep):
    table = dm_sweep.table
    assert list(table.columns) == [c for c in RATIO_COLUMNS if c != "mulligan_rate"] + CURVE_TABLE_COLUMNS
    assert sorted(set(table["turn"])) == list(range(1, 7))
    assert (table["event"] == f"{DRAGON} playable").all()
    for k, rows in table.groupby("resource_count"):
        rebuilt = with_resource_count(dm_deck, "duel-masters", k, group=FIRE)
        alone = deckstat.curve(rebuilt, "duel-masters", cards=DRAGON, turns=range(1, 7), seat="first")
        assert rows["p"].tolist() == alone.table["p"].tolist()
        assert rows["ci_low"].tolist() == alone.table["ci_low"].tolist()
        assert rows["method"].tolist() == alone.table["method"].tolist()
        drawn = deckstat.get_profile("duel-masters").drawn_deck(rebuilt)
        copies = int(drawn.counts[np.array(drawn.names) == DRAGON].sum())
        assert (rows["target_copies"] == copies).all()
        assert (rows["policy"] == alone.table["policy"].iloc[0]).all()
    assert dm_sweep.provenance["play_model"] == deckstat.get_profile("duel-masters").play_model.kind
    assert dm_sweep.provenance["objective"] == "curve" and dm_sweep.provenance["card"] == DRAGON


def test_a_group_target_is_the_curve_of_the_group(dm_deck):
    sweep = deckstat.ratio(dm_deck, "duel-masters", group=FIRE, counts=[20, 24], objective="curve",
                           curve_group="[race=Dragon]", turns=[2, 4], seat="second")
    for k in (20, 24):
        rebuilt = with_resource_count(dm_deck, "duel-masters", k, group=FIRE)
        alone = deckstat.curve(rebuilt, "duel-masters", groups="[race=Dragon]", turns=[2, 4], seat="second")
        assert sweep.table.loc[sweep.table["resource_count"] == k, "p"].tolist() == alone.table["p"].tolist()
    assert sweep.summary["target_turn"].item() == 4  # the last turn asked
    assert sweep.summary["seat"].item() == "second"


def test_hand_computed_values_when_the_card_is_in_the_swept_group():
    # No copy limit: each added Terrain goes to the Terrain with the fewest copies (Terrain A, 2), the Sorts make
    # room; each removed one comes off the Terrain with the most (Terrain B, 6).
    sweep = deckstat.ratio(generic_deck(), "generic", group="Terrain", counts=range(6, 14), objective="curve",
                           card="Terrain A", target_turn=3)
    at_turn = sweep.table[sweep.table["turn"] == 3].set_index("resource_count")
    copies = {6: 2, 7: 2, 8: 2, 9: 3, 10: 4, 11: 5, 12: 6, 13: 7}
    for k, c in copies.items():
        assert at_turn.loc[k, "target_copies"] == c
        # The generic profile draws on turn 1 for both seats: 5 + 3 cards seen by turn 3.
        assert at_turn.loc[k, "p"] == pytest.approx(hypergeom(40, c, 8).sf(0), abs=1e-12)
    row = sweep.summary.iloc[0]
    assert (row["best"], row["best_decision"], row["close_to_best"]) == (13, "decided", "")


def test_a_count_that_leaves_the_card_out_gives_zero():
    # Copies come off the Terrain with the most (ties: the one listed last): at 1 Terrain only Terrain A is
    # left, at 0 none.
    sweep = deckstat.ratio(generic_deck(terrain_a=1, terrain_b=3), "generic", group="[type=Terrain]",
                           counts=[0, 1, 4],
                           objective="curve", card="Terrain A", target_turn=2)
    at_turn = sweep.table[sweep.table["turn"] == 2].set_index("resource_count")
    assert at_turn.loc[0, "target_copies"] == 0 and at_turn.loc[0, "p"] == 0 and at_turn.loc[0, "method"] == "exact"
    assert at_turn.loc[1, "target_copies"] == 1
    assert at_turn.loc[1, "p"] == pytest.approx(hypergeom(40, 1, 7).sf(0), abs=1e-12)


# --- the best count -----------------------------------------------------------------------------------------

def test_best_is_the_arg_max_over_legal_counts(dm_sweep):
    at_turn = dm_sweep.table[dm_sweep.table["turn"] == 6]
    legal = at_turn[at_turn["legal"]]
    top = legal["p"].max()
    tied = legal.loc[legal["p"] >= top - 1e-12, "resource_count"].tolist()
    row = dm_sweep.summary.iloc[0]
    assert list(dm_sweep.summary.columns[-len(CURVE_SUMMARY_COLUMNS):]) == CURVE_SUMMARY_COLUMNS
    assert row["best"] == tied[0] and row["best_decision"] == "decided"
    assert row["close_to_best"] == ", ".join(map(str, tied[1:]))
    assert row["decision"] == "no target" and pd.isna(row["recommended"])


def test_exact_ties_name_the_smallest_count_and_the_others():
    sweep = deckstat.ratio(constant_card_deck(), "generic", group="Terrain", counts=[10, 11, 12], objective="curve",
                           card="Dragon", target_turn=4)
    p = sweep.table.loc[sweep.table["turn"] == 4, "p"]
    assert p.tolist() == pytest.approx([hypergeom(40, 4, 9).sf(0)] * 3, abs=1e-12)
    row = sweep.summary.iloc[0]
    assert (row["best"], row["best_decision"], row["close_to_best"]) == (10, "decided", "11, 12")
    [sentence] = ratio_decision(sweep)
    assert sentence == (f"best: 10 Terrain cards, the legal count with the highest P(Dragon playable) by turn 4 "
                        f"({format_probability(hypergeom(40, 4, 9).sf(0))}); 11, 12 Terrain cards give the same")


def test_overlapping_simulated_intervals_leave_the_best_undecided():
    sweep = deckstat.ratio(constant_card_deck(), "generic", group="Terrain", counts=[10, 11, 12], objective="curve",
                           card="Dragon", target_turn=4, method="simulate", n_trials=2_000, rng=12)
    at_turn = sweep.table[sweep.table["turn"] == 4]
    assert (at_turn["method"] == "simulate").all() and (at_turn["n_trials"] == 2_000).all()
    row = sweep.summary.iloc[0]
    best = int(at_turn.loc[at_turn["p"].idxmax(), "resource_count"])
    assert row["best"] == best and row["best_decision"] == "undecided"
    assert row["close_to_best"] == ", ".join(str(k) for k in (10, 11, 12) if k != best)
    [sentence] = ratio_decision(sweep)
    assert sentence.startswith(f"best estimate: {best} Terrain cards") and "simulate more trials" in sentence


def test_the_best_count_is_legal(dm_deck):
    # Below 10 Terrains a Wankul deck breaks the 1-in-5 rule: the best count is searched among legal decks only.
    deck = deckstat.load_deck(sample_deck("wankul"))
    sweep = deckstat.ratio(deck, "wankul", counts=[8, 9, 10, 11], objective="curve", card="Robot Camembert",
                           target_turn=3)
    at_turn = sweep.table[sweep.table["turn"] == 3].set_index("resource_count")
    assert not at_turn.loc[8, "legal"] and at_turn.loc[10, "legal"]
    legal = at_turn[at_turn["legal"]]
    assert sweep.summary["best"].item() in legal.index
    assert at_turn.loc[sweep.summary["best"].item(), "p"] == legal["p"].max()


# --- streams and reproducibility ------------------------------------------------------------------------------

def test_a_simulated_count_is_the_curve_on_its_own_stream(dm_deck):
    kwargs = {"group": FIRE, "objective": "curve", "card": DRAGON, "turns": [3, 5], "method": "simulate",
              "n_trials": 3_000, "rng": 31}
    sweep = deckstat.ratio(dm_deck, "duel-masters", counts=[21, 23], **kwargs)
    entropy, key = sweep.provenance["seed_entropy"], tuple(sweep.provenance["seed_spawn_key"])
    assert sweep.provenance["methods"]["p"] == "simulate"
    for k in (21, 23):
        rebuilt = with_resource_count(dm_deck, "duel-masters", k, group=FIRE)
        # Stream 5 of the count: documented in ratio(); each count's trials are its own.
        stream = np.random.SeedSequence(entropy, spawn_key=key + (k, 5))
        alone = deckstat.curve(rebuilt, "duel-masters", cards=DRAGON, turns=[3, 5], seat="first", method="simulate",
                               n_trials=3_000, rng=stream)
        rows = sweep.table[sweep.table["resource_count"] == k]
        assert rows["p"].tolist() == alone.table["p"].tolist()
        assert rows["ci_high"].tolist() == alone.table["ci_high"].tolist()
    # Same seed, same numbers; a count's numbers do not depend on the other counts swept.
    again = deckstat.ratio(dm_deck, "duel-masters", counts=[23], **kwargs)
    pd.testing.assert_frame_equal(
        sweep.table[sweep.table["resource_count"] == 23].reset_index(drop=True)[["p", "ci_low", "ci_high"]],
        again.table[["p", "ci_low", "ci_high"]])


def test_the_event_objective_is_unchanged(dm_deck):
    plain = deckstat.ratio(dm_deck, "duel-masters", group=FIRE, counts=[21, 22])
    assert list(plain.table.columns) == [c for c in RATIO_COLUMNS if c != "mulligan_rate"]
    assert "best" not in plain.summary.columns and "objective" not in plain.provenance
    assert (plain.table["event"] == f"{FIRE}>=1").all() and sorted(set(plain.table["turn"])) == list(range(6))


# --- refusals ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("kwargs", "words"), [
    ({"target_turn": 6}, ["objective='curve'", "needs the card to play", "card", "curve_group"]),
    ({"card": DRAGON, "curve_group": "[race=Dragon]", "target_turn": 6}, ["one of them"]),
    ({"card": "Bolshack Dragon", "target_turn": 6}, ["'Bolshack Dragon'", "not in the deck"]),
    # 30 cards after the shields and the hand; the first player draws the last one on turn 31, and loses.
    ({"card": DRAGON, "target_turn": 40}, ["turn 40 is past the last turn", "40-card deck", "up to 30"]),
    ({"card": DRAGON}, ["needs the turn", "target_turn"]),
    ({"card": DRAGON, "turns": [0, 3]}, ["turns", "start at turn 1"]),
    ({"card": DRAGON, "target_turn": 6, "event": "[race=Dragon]>=1"}, ["event", "objective"]),
    ({"card": DRAGON, "target_turn": 6, "zone": "hand"}, ["zone", "played from the hand"]),
    ({"card": DRAGON, "target_turn": 6, "policy": "greedy"}, ["policy", "'greedy'"]),
    ({"card": DRAGON, "turns": [2, 4], "target_turn": 3}, ["target_turn 3 is not one of the turns"]),
])
def test_curve_requests_are_refused_with_words(dm_deck, kwargs, words):
    with pytest.raises(DeckstatError) as info:
        deckstat.ratio(dm_deck, "duel-masters", group=FIRE, counts=[22], objective="curve", **kwargs)
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"card": DRAGON}, ["card", "objective='curve'"]),
    ({"policy": "any"}, ["policy", "objective='curve'"]),
    ({"objective": "odds"}, ["objective", "event, curve"]),
])
def test_curve_options_need_the_curve_objective(dm_deck, kwargs, words):
    with pytest.raises(DeckstatError) as info:
        deckstat.ratio(dm_deck, "duel-masters", group=FIRE, counts=[22], **kwargs)
    for word in words:
        assert word in str(info.value)


# --- command line and plot -----------------------------------------------------------------------------------------

def test_cli_curve_objective_table_and_json(dm_sweep):
    args = ["ratio", DM, "--game", "duel-masters", "--group", FIRE, "--range", "18-26", "--objective", "curve",
            "--card", DRAGON, "--turn", "6"]
    out = ok(run(*args))
    best = int(dm_sweep.summary["best"].item())
    assert f"P({DRAGON} playable) by turn 6 by number of {FIRE} cards" in out
    assert f"best: {best} {FIRE} cards, the legal count with the highest P({DRAGON} playable) by turn 6" in out
    assert "★" in out and "play model" in out
    data = ok_json(run(*args, "--format", "json"))
    assert data["summary"][0]["best"] == best and data["provenance"]["objective"] == "curve"
    assert [r["p"] for r in data["table"]] == dm_sweep.table["p"].tolist()


def test_cli_curve_errors_name_the_flags():
    base = ["ratio", DM, "--game", "duel-masters", "--group", FIRE, "--range", "22"]
    assert_user_error(run(*base, "--objective", "curve", "--turn", "6"), "--objective curve needs the card to play",
                      "--card", "--curve-group")
    assert_user_error(run(*base, "--card", DRAGON), "--card names what the curve objective plays",
                      "--objective curve")
    assert_user_error(run(*base, "--objective", "curve", "--card", DRAGON), "--target-turn")


def test_plot_marks_the_best_count(dm_sweep):
    ax = plot_ratio(dm_sweep)
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    best = int(dm_sweep.summary["best"].item())
    assert any(label.startswith(f"best: {best} {FIRE} cards") for label in labels)
    assert f"P({DRAGON} playable) by turn 6" in ax.get_title()
    plt.close(ax.figure)


def test_csv_keeps_the_curve_columns(dm_sweep):
    out = ok(run("ratio", DM, "--game", "duel-masters", "--group", FIRE, "--range", "22", "--objective", "curve",
                 "--card", DRAGON, "--turns", "1-3", "--format", "csv", "--table", "summary"))
    header = out.splitlines()[0].split(",")
    assert {"best", "best_decision", "close_to_best", "policy"} <= set(header)


# --- real card data ---------------------------------------------------------------------------------------------

def real_two_colour_deck(tmp_path) -> tuple[deckstat.Deck, str]:
    """A 40-card Fire/Darkness deck (the first 20 copies of each real decklist) and its costliest Fire card."""
    lists = pd.read_csv(SHARED_CARDDATA / "dm_decklists_jasfreaq.csv")
    halves = [one[one["quantity"].cumsum() <= 20] for _, one in lists.groupby("deck_name", sort=False)]
    cards = pd.concat(halves).rename(columns={"card_name": "name", "quantity": "count",
                                              "civilizations": "civilization"})
    path = tmp_path / "fire_darkness.csv"
    cards[["name", "count", "type", "civilization", "cost", "shield_trigger"]].to_csv(path, index=False)
    fire = cards[cards["civilization"] == "Fire"].sort_values("cost", kind="stable")
    return deckstat.load_deck(path), str(fire["name"].iloc[-1])


@pytest.mark.skipif(not (SHARED_CARDDATA / "dm_decklists_jasfreaq.csv").exists(), reason="no shared card data")
def test_a_real_two_colour_deck(tmp_path):
    deck, card = real_two_colour_deck(tmp_path)
    assert deck.size == 40 and deckstat.validate(deck, "duel-masters").legal
    sweep = deckstat.ratio(deck, "duel-masters", group="[civilization=Fire]", objective="curve", card=card,
                           target_turn=6)
    table = sweep.table
    assert table["p"].between(0, 1).all()
    for _, rows in table.groupby("resource_count"):
        assert rows.sort_values("turn")["p"].is_monotonic_increasing
    at_turn = table[(table["turn"] == 6) & table["legal"]]
    best = sweep.summary["best"].item()
    assert at_turn.set_index("resource_count").loc[best, "p"] == at_turn["p"].max()
    # The card is in the swept group: more Fire cards never leave it fewer copies.
    copies = table.groupby("resource_count")["target_copies"].first()
    assert copies.is_monotonic_increasing and copies.loc[20] == deck.counts[np.array(deck.names) == card].sum()


def test_a_fixed_opponent_plays_the_same_deck_at_every_count():
    # By default the opponent is a copy of the deck rebuilt at each count; --opponent fixes it. Given the deck as it
    # is, the count the deck has now plays the very games of the default (same seed), the others differ.
    deck = deckstat.load_deck(sample_deck("wankul"))
    asked = {"objective": "curve", "card": "Robot Camembert", "target_turn": 5, "counts": [10, 13],
             "n_trials": 4000, "rng": 5}
    default = deckstat.ratio(deck, "wankul", **asked).table.set_index(["resource_count", "turn"])["p"]
    fixed = deckstat.ratio(deck, "wankul", opponent=deck, **asked).table.set_index(["resource_count", "turn"])["p"]
    assert np.array_equal(default.loc[10].to_numpy(), fixed.loc[10].to_numpy())
    assert not np.array_equal(default.loc[13].to_numpy(), fixed.loc[13].to_numpy())
    with pytest.raises(DeckstatError, match="opponent"):
        deckstat.ratio(deck, "wankul", counts=[10], opponent=deck)
    other = sample_deck("wankul", "sample_deck_v2.csv")
    out = ok(run("ratio", sample_deck("wankul"), "-g", "wankul", "--objective", "curve", "--card", "Robot Camembert",
                 "--turn", "3", "--range", "10", "--trials", "2000", "--opponent", other))
    assert "the opponent plays" in out and "sample_deck_v2.csv at every count" in out
    # A one-player play model takes no opponent.
    assert_user_error(run("ratio", sample_deck("duel-masters"), "-g", "duel-masters", "--group", "[civilization=Feu]",
                          "--objective", "curve", "--card", "Lézard Pétard", "--turn", "3", "--opponent",
                          sample_deck("duel-masters")), "opponent")
