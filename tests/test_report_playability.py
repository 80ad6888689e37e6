"""The report's "Playability by turn" section: deckstat.curve over the deck's cards, first player."""

from __future__ import annotations

import pandas as pd
import pytest
from helpers import DATA, ROOT, SHARED_CARDDATA, ok, run, sample_deck
from scipy.stats import hypergeom

import deckstat
from deckstat.present.format import format_probability
from deckstat.present.report import write_report
from deckstat.questions.report import PLAYABILITY_CARDS

GAMES = ["wankul", "duel-masters", "jdg", "licum", "pandrea"]


def section(page: str) -> str:
    return page.split("## Playability by turn")[1].split("\n## ")[0]


def table_rows(text: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip("|").split(" | ")] for line in text.splitlines() if line.startswith("|")]


@pytest.mark.parametrize("game", GAMES)
def test_every_sample_deck_gets_the_section_and_its_figure(game, tmp_path):
    ok(run("report", sample_deck(game), "--game", game, "--trials", "2000", "--seed", "5", "--out", tmp_path))
    page = (tmp_path / "report.md").read_text(encoding="utf-8")
    text = section(page)
    assert "](playability.png)" in text and (tmp_path / "playability.png").stat().st_size > 0
    profile = deckstat.get_profile(game)
    assert f"play model `{profile.play_model.kind}`" in text and f"`deckstat games show {profile.id}`" in text
    header, _, *rows = table_rows(text)
    assert header[:3] == ["card", "copies", "turn 1"] and header[-2] == "mean first turn"
    assert 1 <= len(rows) <= PLAYABILITY_CARDS
    # Each row is a curve: P(playable by turn t) never falls.
    for row in rows:
        values = [float(c.rstrip("%")) for c in row[2:-2]]
        assert values == sorted(values) and all(0 <= v <= 100 for v in values)


def test_the_section_is_deckstat_curve_for_the_first_player(tmp_path):
    deck = deckstat.load_deck(sample_deck("duel-masters"))
    report = deckstat.report(deck, "duel-masters", rng=8)
    shown = report.playability.curve
    alone = deckstat.curve(deck, "duel-masters", cards="Lézard Pétard", seat="first", turns=range(1, 11), rng=8)
    mine = shown.table[shown.table["target"] == "Lézard Pétard"].reset_index(drop=True)
    pd.testing.assert_frame_equal(mine, alone.table)
    assert set(shown.table["seat"]) == {"first"}
    # The 12 most-copied of 14 names: the four 4-ofs, then the 3-ofs, then 2-ofs in the deck's order.
    assert list(report.playability.copies.values()) == [4, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2]
    assert report.playability.names == 14
    page = write_report(report, tmp_path).read_text(encoding="utf-8")
    assert "for the 12 most-copied of the deck's 14 cards" in section(page)


def test_hand_computed_values_on_a_two_card_deck(tmp_path):
    deck = deckstat.Deck.from_table([{"name": "Dragon", "count": 3, "type": "Créature"},
                                     {"name": "Sort", "count": 37, "type": "Sort"}])
    report = deckstat.report(deck, "generic", turns=4)
    page = write_report(report, tmp_path).read_text(encoding="utf-8")
    text = section(page)
    assert "for every card of the deck" in text and "Every first hand is kept" not in text
    header, _, sort, dragon = table_rows(text)  # the most-copied first
    assert header == ["card", "copies", "turn 1", "turn 2", "turn 3", "turn 4", "mean first turn",
                      "P(not by turn 4)"]
    # The generic profile draws on turn 1 for both seats: 5 + t cards seen by turn t.
    by_turn = [hypergeom(40, 3, 5 + t).sf(0) for t in range(1, 5)]
    assert dragon[:2] == ["Dragon", "3"] and dragon[2:6] == [format_probability(p) for p in by_turn]
    assert dragon[7] == format_probability(1 - by_turn[-1])
    pmf = [by_turn[0]] + [b - a for a, b in zip(by_turn, by_turn[1:])]
    assert dragon[6] == f"{sum(t * p for t, p in zip(range(1, 5), pmf)) / by_turn[-1]:.2f}"
    assert sort[2:6] == [format_probability(hypergeom(40, 37, 5 + t).sf(0)) for t in range(1, 5)]
    html_page = write_report(report, tmp_path / "html", fmt="html").read_text(encoding="utf-8")
    # The HTML page holds the figure itself, described for those who cannot see it.
    assert "<h2>Playability by turn</h2>" in html_page and 'src="playability.png"' not in html_page
    assert 'alt="Chart: the playability curves of the table above, one line per card."' in html_page


def test_a_mulligan_curves_do_not_model_keeps_every_first_hand(tmp_path):
    deck = deckstat.load_deck(DATA / "mtg" / "deck.csv")
    profile = deckstat.get_profile(DATA / "mtg" / "profile.toml")
    report = deckstat.report(deck, profile, n_trials=2000, rng=4)
    assert report.playability.mulligan is False
    page = write_report(report, tmp_path).read_text(encoding="utf-8")
    text = section(page)
    assert f"Every first hand is kept: playability curves model the bottom mulligan, not {profile.mulligan}." in text
    assert "The profile file's `[play_model]` table gives the model's assumptions" in text


def test_a_model_that_cannot_read_the_deck_leaves_the_rest_of_the_report(tmp_path):
    base = (ROOT / "deckstat" / "games" / "generic.toml").read_text(encoding="utf-8")
    path = tmp_path / "odd.toml"
    path.write_text(base.replace('id = "generic"', 'id = "odd"') + '\n[play_model]\nkind = "telepathy"\n',
                    encoding="utf-8")
    deck = deckstat.Deck.from_table([{"name": "A", "count": 4, "type": "x"}, {"name": "B", "count": 36, "type": "x"}])
    report = deckstat.report(deck, deckstat.load_profile_file(path))
    assert report.playability.curve is None and "telepathy" in report.playability.error
    page = write_report(report, tmp_path / "out").read_text(encoding="utf-8")
    assert "No playability curve: unknown play model 'telepathy'" in section(page)
    assert "## When does the deck run out?" in page and not (tmp_path / "out" / "playability.png").exists()


@pytest.mark.skipif(not (SHARED_CARDDATA / "dm_decklists_jasfreaq.csv").exists(), reason="no shared card data")
def test_a_real_decklist_gets_its_playability(tmp_path):
    lists = pd.read_csv(SHARED_CARDDATA / "dm_decklists_jasfreaq.csv")
    path = tmp_path / "kokujo.csv"
    kokujo = lists[lists["deck_name"] == "Kokujo's Darkness Deck"].drop(columns="deck_name")
    kokujo.to_csv(path, index=False)
    ok(run("report", path, "--game", "duel-masters", "--out", tmp_path / "out", "--seed", "3"))
    text = section((tmp_path / "out" / "report.md").read_text(encoding="utf-8"))
    names = kokujo["card_name"].nunique()
    assert f"for the 12 most-copied of the deck's {names} cards" in text
    header, _, *rows = table_rows(text)
    assert len(rows) == 12 and header[-1] == "P(not by turn 10)"
    assert [int(r[1]) for r in rows] == sorted(kokujo["quantity"], reverse=True)[:12]
