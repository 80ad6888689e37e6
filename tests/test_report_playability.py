"""The report's "Playability by turn" section: deckstat.curve over the deck's cards, first player."""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from figure_checks import check_figure  # noqa: E402
from helpers import DATA, ROOT, SHARED_CARDDATA, ok, run, sample_deck  # noqa: E402
from scipy.stats import hypergeom  # noqa: E402

import deckstat  # noqa: E402
from deckstat.i18n import language  # noqa: E402
from deckstat.present import plots  # noqa: E402
from deckstat.present.format import format_probability  # noqa: E402
from deckstat.present.markup import figure_text  # noqa: E402
from deckstat.present.report import write_report  # noqa: E402
from deckstat.questions.report import PLAYABILITY_CARDS, reach_turns  # noqa: E402
from deckstat.terms import PLAY_MODEL_NAMES, name_of  # noqa: E402

GAMES = ["wankul", "duel-masters", "jdg", "licum", "pandrea"]


#: A cell of the turn a level is reached: a turn, two turns the intervals cannot tell apart, "N or later", or "–".
REACH = re.compile(r"(\d+)(?:–\d+| or later)?|–")


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
    model = name_of(PLAY_MODEL_NAMES, profile.play_model.kind)
    assert f"play model {model}, policy " in text and f"`deckstat games show {profile.id}`" in text
    header, _, *rows = table_rows(text)
    assert header[:4] == ["card", "copies", "turn by which P ≥ 50%", "turn by which P ≥ 90%"]
    assert header[4] == "mean first turn" and header[5].startswith("P(not by turn ")
    assert 1 <= len(rows) <= PLAYABILITY_CARDS
    # Each row is a curve: P(playable by turn t) never falls, so it reaches 50% no later than 90%.
    for row in rows:
        half, most = (REACH.fullmatch(cell) for cell in row[2:4])
        assert half and most, row
        if half[1] and most[1]:
            assert int(half[1]) <= int(most[1]), row


def test_the_section_is_deckstat_curve_for_the_first_player(tmp_path):
    deck = deckstat.load_deck(sample_deck("duel-masters"))
    report = deckstat.report(deck, "duel-masters", rng=8)
    shown = report.playability.curve
    alone = deckstat.curve(deck, "duel-masters", cards="Lézard Pétard", seat="first", turns=range(1, 11), rng=8)
    mine = shown.table[shown.table["target"] == "Lézard Pétard"].reset_index(drop=True)
    pd.testing.assert_frame_equal(mine, alone.table)
    assert set(shown.table["seat"]) == {"first"}
    # Every one of the 14 names, the most-copied first: the four 4-ofs, then the 3-ofs, then 2-ofs in the deck's order.
    assert list(report.playability.copies.values()) == [4, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2]
    assert report.playability.names == 14
    page = write_report(report, tmp_path).read_text(encoding="utf-8")
    assert "for every card of the deck" in section(page)


def test_hand_computed_values_on_a_two_card_deck(tmp_path):
    deck = deckstat.Deck.from_table([{"name": "Dragon", "count": 3, "type": "Créature"},
                                     {"name": "Sort", "count": 37, "type": "Sort"}])
    report = deckstat.report(deck, "generic", turns=4)
    page = write_report(report, tmp_path).read_text(encoding="utf-8")
    text = section(page)
    assert "for every card of the deck" in text and "Every first hand is kept" not in text
    header, _, sort, dragon = table_rows(text)  # the most-copied first
    assert header == ["card", "copies", "turn by which P ≥ 50%", "turn by which P ≥ 90%", "mean first turn",
                      "P(not by turn 4)"]
    # The generic profile draws on turn 1 for both seats: 5 + t cards seen by turn t.
    by_turn = [hypergeom(40, 3, 5 + t).sf(0) for t in range(1, 5)]  # 36.7%, 41.9%, 46.7%, 51.3%
    assert by_turn[2] < 0.5 <= by_turn[3] and by_turn[3] < 0.9
    assert dragon == ["Dragon", "3", "4", "–", dragon[4], format_probability(1 - by_turn[-1])]
    pmf = [by_turn[0]] + [b - a for a, b in zip(by_turn, by_turn[1:])]
    assert dragon[4] == f"{sum(t * p for t, p in zip(range(1, 5), pmf)) / by_turn[-1]:.2f}"
    assert hypergeom(40, 37, 6).sf(0) >= 0.9  # 37 Sorts in 40 cards: one among 6 cards seen, nine times in ten
    assert sort[:4] == ["Sort", "37", "1", "1"]
    assert "A dash: not reached by turn 4." in text
    html_page = write_report(report, tmp_path / "html", fmt="html").read_text(encoding="utf-8")
    # The HTML page holds the figure itself, described for those who cannot see it.
    assert "<h2>Playability by turn</h2>" in html_page and 'src="playability.png"' not in html_page
    assert 'alt="Chart: one small panel per card of the table above, in its order' in html_page


def test_a_mulligan_curves_do_not_model_keeps_every_first_hand(tmp_path):
    deck = deckstat.load_deck(DATA / "mtg" / "deck.csv")
    profile = deckstat.get_profile(DATA / "mtg" / "profile.toml")
    report = deckstat.report(deck, profile, n_trials=2000, rng=4)
    assert report.playability.mulligan is False
    page = write_report(report, tmp_path).read_text(encoding="utf-8")
    text = section(page)
    assert "Every first hand is kept: playability curves model the bottom mulligan, not the London mulligan." in text
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
    assert names > PLAYABILITY_CARDS and f"for the 20 most-copied of the deck's {names} cards" in text
    header, _, *rows = table_rows(text)
    assert len(rows) == PLAYABILITY_CARDS and header[-1] == "P(not by turn 10)"
    assert [int(r[1]) for r in rows] == sorted(kokujo["quantity"], reverse=True)[:PLAYABILITY_CARDS]


def test_reach_turns_are_read_off_the_curve_and_its_intervals():
    # Hand-built curves: exact (intervals of width 0) and simulated, one straddling 50% at turn 2.
    table = pd.DataFrame({
        "target": ["exact"] * 4 + ["simulated"] * 4,
        "turn": [1, 2, 3, 4] * 2,
        "p": [0.2, 0.5, 0.89, 0.95, 0.3, 0.49, 0.7, 0.905],
        "ci_low": [0.2, 0.5, 0.89, 0.95, 0.28, 0.47, 0.68, 0.895],
        "ci_high": [0.2, 0.5, 0.89, 0.95, 0.32, 0.51, 0.72, 0.915]})
    reach = reach_turns(table).set_index(["target", "level"])
    # Exactly 50% at turn 2 reaches 50%; 90% first at turn 4.
    assert reach.loc[("exact", 0.5), ["turn", "earliest", "latest"]].tolist() == [2, 2, 2]
    assert reach.loc[("exact", 0.9), ["turn", "earliest", "latest"]].tolist() == [4, 4, 4]
    # 49% ± 2% at turn 2: the first turn at 50% may be 2 or 3; 90.5% ± 1% at the last turn: 4 or later.
    assert reach.loc[("simulated", 0.5), ["turn", "earliest", "latest"]].tolist() == [3, 2, 3]
    simulated_90 = reach.loc[("simulated", 0.9)]
    assert simulated_90["turn"] == 4 and simulated_90["earliest"] == 4 and pd.isna(simulated_90["latest"])
    from deckstat.present.report import _reach_cell
    with language("fr"):
        assert [_reach_cell(reach.loc[key]) for key in reach.index] == ["2", "4", "2–3", "4 ou plus tard"]


def test_a_deck_of_20_distinct_cards_gets_one_readable_panel_per_card(tmp_path):
    # A 40-card deck of 20 names, 2 copies each: the report follows all 20, the figure has a panel for each, titled
    # with its card, in the table's order.
    deck = deckstat.Deck.from_table([{"name": f"Carte {chr(65 + k)} $x_{k}$", "count": 2, "type": "Créature"}
                                     for k in range(20)])
    report = deckstat.report(deck, "generic", turns=8, n_trials=2000, rng=1)
    names = list(report.playability.copies)
    assert len(names) == 20
    with language("fr"):  # the longer words
        panels = plots.plot_curve(report.playability.curve)
        check_figure(panels)
        assert [panel.get_title() for panel in panels] == [figure_text(name) for name in names]
        plt.close(panels[0].figure)
    page = write_report(report, tmp_path).read_text(encoding="utf-8")
    assert [row[0] for row in table_rows(section(page))[2:]] == [name.replace("$", "\\$") for name in names]
