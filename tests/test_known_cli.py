"""The known-card flags of `deckstat odds` and `deckstat compare`: the numbers of the Python API, one-line errors."""

from math import comb

import pytest
from helpers import assert_user_error, ok, ok_json, run, sample_deck

import deckstat

WANKUL = sample_deck("wankul")
WANKUL_V2 = sample_deck("wankul", "sample_deck_v2.csv")
DUEL_MASTERS = sample_deck("duel-masters")


def p_column(data: dict, table: str = "table", column: str = "p") -> list[float]:
    return [row[column] for row in data[table]]


def test_known_hand_and_gone_file_give_the_python_numbers(tmp_path):
    hand = tmp_path / "hand.csv"
    hand.write_text("name,count\nMamie Croquette,3\nTonton Barbecue,2\n", encoding="utf-8")
    gone = tmp_path / "gone.txt"
    gone.write_text("# joués\n2 Plage de Galets\n2 Cantine du Lycée\n3 Capitaine Baguette\n", encoding="utf-8")
    data = ok_json(run("odds", WANKUL, "--game", "wankul", "--event", "Terrain>=1", "--known", hand, "--gone", gone,
                       "--draws", "1-3", "--format", "json"))
    assert p_column(data) == pytest.approx([1 - comb(32, d) / comb(38, d) for d in (1, 2, 3)], abs=1e-12)
    python = deckstat.odds(deckstat.load_deck(WANKUL), "wankul", "Terrain>=1", known={"hand": hand, "gone": gone},
                           draws=[1, 2, 3])
    assert p_column(data) == python.table["p"].tolist()
    assert data["provenance"]["known"]["hand"]["cards"] == 5 and data["provenance"]["library"] == 38


def test_given_by_zone_with_turns_from_now():
    out = ok(run("odds", WANKUL, "--game", "wankul", "--event", "Terrain>=1", "--given", "main: Terrain=0, autre=5",
                 "--turns", "1-4"))
    assert "known: 5 in hand (Terrain=0, autre=5); 45 cards left in the library" in out
    assert "turns from now" in out and "from now" in out
    # 1 - C(35,4)/C(45,4) = 68.0%.
    assert f"{100 * (1 - comb(35, 4) / comb(45, 4)):.1f}%" in out


def test_bottom_cards_are_drawn_last():
    data = ok_json(run("odds", WANKUL, "--game", "wankul", "--event", "Terrain>=1", "--known",
                       "3 Mamie Croquette, 2 Tonton Barbecue", "--bottom", "Terrain=2, other=3", "--draws", "1,40,41",
                       "--format", "json"))
    # 40 cards in the library, 8 of them Terrains; the 41st card is the first of the block of 5.
    assert p_column(data) == pytest.approx([8 / 40, 1.0, 1.0], abs=1e-12)
    assert data["summary"][0]["bottom"] == 5


def test_broken_shields_in_duel_masters():
    data = ok_json(run("odds", DUEL_MASTERS, "--game", "duel-masters", "--event", "[shield_trigger=1]>=1", "--zone",
                       "set_aside", "--broken", "2", "--format", "json"))
    assert p_column(data) == pytest.approx([1 - comb(32, 2) / comb(40, 2)], abs=1e-12)
    out = ok(run("odds", DUEL_MASTERS, "--game", "duel-masters", "--event", "[shield_trigger=1]>=1", "--zone",
                 "set_aside", "--broken", "2"))
    assert "among the 2 broken shields" in out and "36.4%" in out


def test_compare_with_a_known_hand():
    data = ok_json(run("compare", WANKUL, WANKUL_V2, "--game", "wankul", "--event", "Terrain>=1", "--given",
                       "hand: Terrain=0, other=5", "--draws", "1-3", "--format", "json"))
    assert p_column(data, column="p_a") == pytest.approx([1 - comb(35, d) / comb(45, d) for d in (1, 2, 3)])
    assert p_column(data, column="p_b") == pytest.approx([1 - comb(33, d) / comb(45, d) for d in (1, 2, 3)])
    out = ok(run("compare", WANKUL, WANKUL_V2, "--game", "wankul", "--event", "Terrain>=1", "--given",
                 "hand: Terrain=0, other=5", "--draws", "1-3"))
    assert "cards drawn" in out and "known: hand 5" in out


@pytest.mark.parametrize("args, words", [
    (["--known", "Zorro, 2 Mamie Croquette"], ["unknown card 'Zorro'", "hand 'Zorro, 2 Mamie Croquette'"]),
    (["--known", "4 Mamie Croquette"], ["4 copies of 'Mamie Croquette'", "the deck has 3"]),
    (["--given", "pioche: Terrain=1"], ["--given", "unknown zone 'pioche'", "hand/main"]),
    (["--given", "Terrain=1"], ["--given", "expected a zone, a colon"]),
    (["--known", "3 Mamie Croquette, 2 Tonton Barbecue", "--draws", "46"],
     ["--draws 46", "only 45 cards are left to draw"]),
    (["--known", "Mamie Croquette", "--draws", "1", "--turns", "1"], ["--turns or --draws, not both"]),
    (["--known", "Mamie Croquette", "--simulate"], ["does not apply"]),
    (["--known", "Mamie Croquette", "--keep", "Terrain>=1"], ["--keep does not apply"]),
    (["--known", "Mamie Croquette", "--priority", "Terrain"], ["--priority does not apply"]),
    (["--broken", "1"], ["--broken 1", "Wankul sets only 0"]),
    (["--draws", "1-3"], ["--draws counts the cards drawn after a known hand"]),
])
def test_bad_known_cards_are_one_line_errors(args, words):
    assert_user_error(run("odds", WANKUL, "--game", "wankul", "--event", "Terrain>=1", *args), *words)


def test_compare_names_the_deck_that_lacks_a_known_card():
    assert_user_error(run("compare", WANKUL, WANKUL_V2, "--game", "wankul", "--event", "Terrain>=1", "--known",
                          "Yéti en Vacances", "--draws", "1"),
                      "sample_deck_v2.csv: ", "unknown card 'Yéti en Vacances'")


def test_plot_by_cards_drawn(tmp_path):
    figure = tmp_path / "odds.png"
    ok(run("odds", WANKUL, "--game", "wankul", "--event", "Terrain>=1", "--known",
           "3 Mamie Croquette, 2 Tonton Barbecue", "--draws", "1-5", "--plot", figure))
    assert figure.stat().st_size > 0
