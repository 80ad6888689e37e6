"""The deck report: a deck-out section that plays the deck file's draw and mill columns as `deckout` does,
and the shield triggers among Duel Masters' shields."""

import json
import re

import pandas as pd
import pytest
from helpers import DATA, SHARED_CARDDATA, ok, run, sample_deck
from scipy.stats import hypergeom

import deckstat
from deckstat.present.format import format_estimate, format_probability, scoring_line
from deckstat.present.report import write_report
from deckstat.terms import DEFAULT_POLICY

WANKUL = sample_deck("wankul")
DM = sample_deck("duel-masters")


@pytest.fixture(scope="module")
def effect_deck(tmp_path_factory):
    """The Wankul sample deck where 8 Personnages make their owner draw 2 cards and 4 mill 2."""
    cards = pd.read_csv(WANKUL)
    personnages = cards.index[cards["type"] == "Personnage"]
    cards["draw"], cards["mill"] = 0, 0
    copies = cards.loc[personnages, "count"].cumsum()
    cards.loc[personnages[copies <= 8], "draw"] = 2
    cards.loc[personnages[(copies > 8) & (copies <= 12)], "mill"] = 2
    path = tmp_path_factory.mktemp("effects") / "effets.csv"
    cards.to_csv(path, index=False)
    return path


def deckout_lines(page: str) -> list[str]:
    """The report's deck-out section, line by line."""
    return page.split("## When does the deck run out?")[1].strip().splitlines()


def test_report_deckout_is_the_deckout_command(effect_deck, tmp_path):
    args = ["--game", "wankul", "--trials", "3000", "--seed", "13"]
    ok(run("report", effect_deck, *args, "--out", tmp_path))
    page = (tmp_path / "report.md").read_text(encoding="utf-8")
    race = json.loads(ok(run("deckout", effect_deck, *args, "--format", "json")))
    assert race["provenance"]["policy"] == DEFAULT_POLICY == "on_draw"
    assert race["provenance"]["effect_cards"] == [12, 12]
    lines = deckout_lines(page)
    for line, summary in zip(lines, race["summary"]):
        assert line == (f"- {summary['seat']} player: turn {summary['median_turn']} (median; mean "
                        f"{summary['mean_turn']:.2f}, earliest {summary['earliest_turn']})")
    assert lines[2] == "- " + scoring_line(pd.DataFrame(race["scoring"]))
    first = race["summary"][0]
    shown = format_estimate(first["p_runs_out_first"], first["ci_low"], first["ci_high"], first["method"])
    assert lines[3] == f"- P(first player runs out first) = {shown}"
    assert lines[4].startswith("- policy on_draw: a card with a draw or mill effect is played as soon as")
    assert lines[4].endswith("; 12 cards of each deck have a draw or mill effect")
    # Ignoring the columns, the 45 cards after the opening hand last until the 46th draw fails.
    ignored = json.loads(ok(run("deckout", effect_deck, *args, "--format", "json", "--policy", "none", "--no-drought")))
    assert [s["median_turn"] for s in ignored["summary"]] == [46, 46]
    assert all(s["median_turn"] < 46 for s in race["summary"])


@pytest.mark.parametrize("policy", ["on_draw", "none"])
def test_report_deckout_equals_deckout_with_the_same_seed(effect_deck, policy):
    deck = deckstat.load_deck(effect_deck)
    report = deckstat.report(deck, "wankul", n_trials=3000, rng=21, policy=policy)
    race = deckstat.deckout(deck, "wankul", n_trials=3000, rng=21, policy=policy)
    assert report.deckout.provenance == race.provenance
    pd.testing.assert_frame_equal(report.deckout.summary, race.summary)
    pd.testing.assert_frame_equal(report.deckout.table, race.table)
    pd.testing.assert_frame_equal(report.deckout.scoring, race.scoring)


def test_report_deckout_without_effect_columns_says_so(tmp_path):
    report = deckstat.report(deckstat.load_deck(DM), "duel-masters")
    page = write_report(report, tmp_path).read_text(encoding="utf-8")
    assert ("- no card has a draw or mill effect, so only the rules' draws move the decks (policy on_draw)"
            in deckout_lines(page))
    # Hand-derived: 40 - 5 shields - 5 in hand = 30 draws; the first player skips the first draw.
    assert report.deckout.summary["median_turn"].tolist() == [31, 30]
    assert "Every number is exact." in page


# --------------------------------------------------------------------------- shield triggers

def dm_deck(triggers: int, *, column: str | None = "shield_trigger", values=(1, 0)) -> deckstat.Deck:
    """A 40-card Duel Masters deck with ``triggers`` shield triggers (no trigger column when ``column`` is None)."""
    rows = [{"name": "Brasier", "count": triggers, "type": "Sort", "civilization": "Feu"},
            {"name": "Gobelin", "count": 40 - triggers, "type": "Créature", "civilization": "Feu"}]
    if column is not None:
        rows[0][column], rows[1][column] = values
    return deckstat.Deck.from_table(rows)


def test_shield_triggers_are_hypergeometric(tmp_path):
    report = deckstat.report(dm_deck(7), "duel-masters")
    triggers = report.shield_triggers
    assert (triggers.cards, triggers.shields) == (7, 5)
    shields = hypergeom(40, 7, 5)  # population, triggers in it, shields dealt
    for k in (1, 2, 3):
        assert triggers.at_least(k) == pytest.approx(shields.sf(k - 1), rel=1e-12)
    assert triggers.expected == pytest.approx(shields.mean(), rel=1e-12)  # 5 * 7 / 40 = 0.875
    assert set(triggers.odds.table["method"]) == {"exact"}
    page = write_report(report, tmp_path).read_text(encoding="utf-8")
    section = page.split("## Shield triggers")[1].split("## ")[0]
    assert (f"With 7 shield triggers (déclencheurs de bouclier) in 40 cards, at least one of your 5 shields is a "
            f"shield trigger {format_probability(shields.sf(0))} of the time; on average 0.88 of them are."
            in section)
    rows = [line for line in section.splitlines() if line.startswith("| at least")]
    assert rows == [f"| at least {k} | {format_probability(shields.sf(k - 1))} |" for k in (1, 2, 3)]


def test_shield_trigger_column_in_french(tmp_path):
    path = tmp_path / "deck.csv"
    path.write_text("Nom;Quantité;Type;Civilisation;Déclencheur de bouclier\n"
                    "Brasier;4;Sort;Feu;oui\nGobelin;36;Créature;Feu;non\n", encoding="utf-8")
    triggers = deckstat.report(deckstat.load_deck(path), "duel-masters").shield_triggers
    assert triggers.cards == 4
    assert triggers.at_least(1) == pytest.approx(hypergeom(40, 4, 5).sf(0), rel=1e-12)


def test_no_shield_section_without_the_column_or_the_shields(tmp_path):
    report = deckstat.report(dm_deck(7, column=None), "duel-masters")
    assert report.shield_triggers is None
    assert "Shield triggers" not in write_report(report, tmp_path).read_text(encoding="utf-8")
    # A game that sets no card aside has no shields, whatever the columns.
    wankul = pd.read_csv(WANKUL).assign(shield_trigger=1)
    assert deckstat.report(deckstat.Deck.from_table(wankul), "wankul", n_trials=500).shield_triggers is None


def test_a_deck_without_shield_triggers_is_told_so(tmp_path):
    report = deckstat.report(dm_deck(4, values=(0, 0)), "duel-masters")
    assert report.shield_triggers.cards == 0 and report.shield_triggers.expected == 0
    page = write_report(report, tmp_path).read_text(encoding="utf-8")
    assert "No card of the deck is marked as a shield trigger" in page


@pytest.mark.skipif(not (SHARED_CARDDATA / "dm_decklists_jasfreaq.csv").exists(), reason="no shared card data")
def test_shield_triggers_of_a_real_decklist(tmp_path):
    lists = pd.read_csv(SHARED_CARDDATA / "dm_decklists_jasfreaq.csv")
    path = tmp_path / "kokujo.csv"
    lists[lists["deck_name"] == "Kokujo's Darkness Deck"].drop(columns="deck_name").to_csv(path, index=False)
    ok(run("report", path, "--game", "duel-masters", "--out", tmp_path / "out"))
    page = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    shields = hypergeom(40, 6, 5)  # 6 shield triggers among its 40 cards
    assert re.search(rf"With 6 shield triggers .* {re.escape(format_probability(shields.sf(0)))} of the time; "
                     r"on average 0\.75 of them are\.", page)


def test_report_under_a_mulligan_the_deckout_model_lacks(tmp_path):
    deck = deckstat.load_deck(DATA / "mtg" / "deck.csv")
    profile = deckstat.get_profile(DATA / "mtg" / "profile.toml")
    report = deckstat.report(deck, profile, n_trials=2000, rng=4)
    kept = deckstat.deckout(deck, profile, mulligan=False, n_trials=2000, rng=4)
    pd.testing.assert_frame_equal(report.deckout.summary, kept.summary)
    # Hand-derived: 60 - 7 = 53 draws; the first player skips the first draw and fails on turn 55.
    assert report.deckout.summary["median_turn"].tolist() == [55, 54]
    page = write_report(report, tmp_path).read_text(encoding="utf-8")
    assert "- every first hand is kept: the deck-out model has no London mulligan" in deckout_lines(page)
