"""The ``deckstat`` command line: every command with valid and invalid input.

Expected probabilities are computed here independently (hypergeometric sums
with ``math.comb``) or taken from the Python API for the same question.
"""

from __future__ import annotations

import io
import json
import math
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pandas as pd
import pytest
from helpers import DATA, ROOT, assert_no_crash, assert_user_error, ok_json, run, sample_deck
from hypothesis import given, settings
from hypothesis import strategies as st

import deckstat
from deckstat.cli import parse_turns
from deckstat.errors import DeckstatError
from deckstat.present.format import format_probability, to_csv, to_json
from deckstat.results import Result

WANKUL = sample_deck("wankul")
WANKUL_V2 = sample_deck("wankul", "sample_deck_v2.csv")
DUEL = sample_deck("duel-masters")

GAMES = ["duel-masters", "jdg", "licum", "pandrea", "wankul"]

# What each illegal sample deck breaks (see data/README.md): a subject per violation.
ILLEGAL_SUBJECTS = {
    "wankul": {"Terrain", "Capitaine Baguette"},
    "duel-masters": {"deck size", "Gobelin Chalumeau"},
    "jdg": {"deck size", "Ninja Distrait", "[shiny=1]"},
    "licum": {"Impro", "Punition", "deck size", "Improvisateur"},
    "pandrea": {"deck size", "Paysans à Fourche"},
}

PERCENT = re.compile(r"^(?:[<>])?\d+(?:\.\d+)?%$")


def assert_usage_error(result) -> None:
    """A typer usage error: exit code 2, no traceback."""
    assert_no_crash(result)
    assert result.exit_code == 2


def table_rows(text: str) -> list[list[str]]:
    """Body rows of a rich table: the cells of each line drawn with │."""
    return [[cell.strip() for cell in line.split("│")[1:-1]] for line in text.splitlines() if "│" in line]


def flat(text: str) -> str:
    """Table text without box drawing and with whitespace collapsed, so wrapped cells read as one line."""
    return " ".join(re.sub(r"[\u2500-\u257f]", " ", text).split())


def comb(n: int, k: int) -> int:
    return math.comb(n, k) if 0 <= k <= n else 0


def p_at_least_one(successes: int, size: int, seen: int) -> float:
    return 1 - comb(size - successes, seen) / comb(size, seen)


def p_at_least_two(successes: int, size: int, seen: int) -> float:
    none = comb(size - successes, seen)
    one = successes * comb(size - successes, seen - 1)
    return 1 - (none + one) / comb(size, seen)


KEYS = ("turn", "seat", "zone", "event", "p", "method")


def odds_output(*args: object) -> dict:
    """The JSON object ``deckstat odds ARGS --format json`` prints."""
    out = ok_json(run("odds", *args, "--format", "json"))
    assert out["question"] == "odds"
    return out


def odds_json(*args: object) -> list[dict]:
    """The records of the main table of ``deckstat odds ARGS --format json``."""
    return odds_output(*args)["table"]


def pick(records: list[dict]) -> list[dict]:
    return [{k: r[k] for k in KEYS} for r in records]


def api_records(path: Path, game: str, event: str, **kwargs) -> list[dict]:
    result = deckstat.odds(deckstat.load_deck(path), game, event, **kwargs)
    return pick(result.table.to_dict(orient="records"))


def without(records: list[dict], *keys: str) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in keys} for r in records]


# --------------------------------------------------------------------------- validate


@pytest.mark.parametrize("game", GAMES)
def test_validate_sample_deck_is_legal(game):
    path = sample_deck(game)
    result = run("validate", path, "--game", game)
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    assert "legal" in result.stdout and "not legal" not in result.stdout
    assert "Every construction rule holds" in result.stdout


@pytest.mark.parametrize("game", GAMES)
def test_validate_illegal_deck_names_what_breaks(game):
    path = sample_deck(game, "illegal_deck.csv")
    result = run("validate", path, "--game", game, "--wide")  # every cell on one line, whatever the width
    assert_no_crash(result)
    assert result.exit_code == 1, result.output
    assert "not legal" in result.stdout
    subjects = {row[-4] for row in table_rows(result.stdout) if row and row[-4]}
    assert ILLEGAL_SUBJECTS[game] <= subjects


def test_validate_illegal_counts_in_words():
    result = run("validate", DATA / "wankul" / "illegal_deck.csv", "--game", "wankul", "--wide")
    text = flat(result.stdout)
    assert "8 in 50 cards" in text
    assert "Capitaine Baguette 4 copies at most 3" in text


@pytest.mark.parametrize("game", GAMES)
def test_validate_json_parses(game):
    for name, code in (("sample_deck.csv", 0), ("illegal_deck.csv", 1)):
        result = run("validate", sample_deck(game, name), "--game", game, "--format", "json")
        assert_no_crash(result)
        assert result.exit_code == code
        out = json.loads(result.stdout)
        assert out["question"] == "validate"
        assert set(out) == {"question", "provenance", "table", "summary"}
        records = out["table"]
        assert isinstance(records, list)
        [summary] = out["summary"]
        assert summary["legal"] is (code == 0)
        assert summary["errors"] == len([r for r in records if r["level"] == "error"])
        assert (summary["deck"], summary["game"]) == (name, game)
        if code == 0:
            assert not [r for r in records if r["level"] == "error"]
        else:
            assert ILLEGAL_SUBJECTS[game] <= {r["subject"] for r in records}
            assert {"part", "rule", "level", "subject", "found", "allowed", "message"} <= set(records[0])
            assert {(r["deck"], r["game"]) for r in records} == {(name, game)}


@pytest.mark.parametrize("game", GAMES)
def test_validate_csv_parses(game):
    path = sample_deck(game, "illegal_deck.csv")
    result = run("validate", path, "--game", game, "--format", "csv")
    assert_no_crash(result)
    assert result.exit_code == 1
    frame = pd.read_csv(io.StringIO(result.stdout))
    assert ILLEGAL_SUBJECTS[game] <= set(frame["subject"])
    assert set(frame["level"]) <= {"error", "warning"}
    # Each row carries what reproduces it.
    assert set(frame["game"]) == {game}
    assert set(frame["deckstat_version"]) == {deckstat.__version__}
    assert set(frame["deck_source"]) == {str(path)}


def test_validate_legal_deck_csv_and_json_are_empty_but_parse():
    result = run("validate", WANKUL, "--game", "wankul", "--format", "csv")
    assert result.exit_code == 0
    frame = pd.read_csv(io.StringIO(result.stdout))
    assert frame.empty and "subject" in frame.columns
    result = run("validate", WANKUL, "--game", "wankul", "--format", "json")
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert out["table"] == []
    assert out["summary"] == [{"deck": "sample_deck.csv", "game": "wankul", "deck_size": 50, "legal": True,
                               "errors": 0, "warnings": 0}]


def test_validate_csv_summary_table():
    result = run("validate", sample_deck("wankul", "illegal_deck.csv"), "--game", "wankul", "--format", "csv",
                 "--table", "summary")
    assert_no_crash(result)
    assert result.exit_code == 1
    frame = pd.read_csv(io.StringIO(result.stdout))
    assert len(frame) == 1
    assert frame.loc[0, ["deck", "game", "legal", "errors", "warnings"]].tolist() == [
        "illegal_deck.csv", "wankul", False, 2, 0]


def test_validate_french_excel_csv():
    result = run("validate", DATA / "wankul" / "sample_deck_fr.csv", "--game", "wankul")
    assert result.exit_code == 0, result.output


def test_validate_text_decklist_with_pool():
    decklist = DATA / "wankul" / "decklist.txt"
    result = run("validate", decklist, "--game", "wankul", "--pool", DATA / "wankul" / "pool.csv")
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    assert "50 cards: legal" in result.stdout


def test_validate_text_decklist_without_pool_hints_at_pool():
    assert_user_error(run("validate", DATA / "wankul" / "decklist.txt", "--game", "wankul"),
                      "decklist.txt", "--pool")


def test_validate_decklist_unknown_card(tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text("2 Le Grenier Hanté\n3 Carte Qui N'Existe Pas\n", encoding="utf-8")
    line = assert_user_error(run("validate", path, "--game", "wankul", "--pool", DATA / "wankul" / "pool.csv"),
                             str(path), "line 2")
    assert "Carte Qui N'Existe Pas" in line


@pytest.mark.parametrize(("content", "needles"), [
    (None, ["file not found"]),
    ("", ["empty"]),
    ("name,count\nA,0\n", ["line 2", "count"]),
    ("name,count,type\nA,1,Terrain,extra\n", ["line 2"]),
    ("nom_inconnu;x\n1;2\n", ["line 1"]),
    (b"\x00\x01\x02binary", ["binary"]),
], ids=["missing", "empty", "zero-count", "too-many-fields", "no-name-column", "binary"])
def test_validate_bad_file(tmp_path, content, needles):
    path = tmp_path / "deck.csv"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    assert_user_error(run("validate", path, "--game", "wankul"), str(path), *needles)


def test_validate_directory_is_a_bad_file(tmp_path):
    assert_user_error(run("validate", tmp_path, "--game", "wankul"), str(tmp_path), "directory")


def test_validate_missing_pool_file(tmp_path):
    pool = tmp_path / "pool.csv"
    assert_user_error(run("validate", DATA / "wankul" / "decklist.txt", "--game", "wankul", "--pool", pool),
                      str(pool))


def test_validate_unknown_game_suggests():
    assert_user_error(run("validate", WANKUL, "--game", "wankull"), "'wankull'", "did you mean 'wankul'")


def test_validate_bad_profile_file(tmp_path):
    profile = tmp_path / "game.toml"
    profile.write_text("id = \n", encoding="utf-8")
    assert_user_error(run("validate", WANKUL, "--game", profile), str(profile))


@pytest.mark.parametrize("args", [
    ["validate", str(WANKUL)],
    ["validate", str(WANKUL), "--game", "wankul", "--format", "xml"],
    ["validate", "--game", "wankul"],
    ["odds", str(WANKUL), "--game", "wankul"],
    ["odds", str(WANKUL), "--game", "wankul", "-e", "Terrain>=1", "--seat", "third"],
    ["odds", str(WANKUL), "--game", "wankul", "-e", "Terrain>=1", "--zone", "graveyard"],
    ["games", "show"],
], ids=["no-game", "bad-format", "no-deck", "no-event", "bad-seat", "bad-zone", "show-no-id"])
def test_usage_errors(args):
    assert_usage_error(run(*args))


# --------------------------------------------------------------------------- odds


def test_odds_terrain_table_turns_0_to_6_both_seats():
    result = run("odds", WANKUL, "--game", "wankul", "--event", "Terrain>=1", "--turns", "0-6")
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    assert "P(Terrain>=1)" in result.stdout
    # Both seats draw alike in Wankul: one column for both, as the figures draw one line.
    assert "both players (same odds)" in result.stdout and "first player" not in result.stdout
    assert "keep rule Terrain>=1" in result.stdout
    rows = table_rows(result.stdout)
    assert [r[0] for r in rows] == [str(t) for t in range(7)]
    for row in rows:
        assert len(row) == 2
        assert all(PERCENT.match(cell) for cell in row[1:]), row
    # Turn 0 with the default keep rule, computed by hand: keep a hand with a Terrain
    # (probability q); otherwise the 5 cards go under the deck and a new hand comes
    # from the other 45 cards, 10 of them Terrains.
    q = p_at_least_one(10, 50, 5)
    expected = q + (1 - q) * p_at_least_one(10, 45, 5)
    assert rows[0][1] == format_probability(expected) == "91.7%"


def test_odds_default_keep_rule_matches_hand_computation():
    records = odds_json(WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--turns", "0-6")
    q = p_at_least_one(10, 50, 5)
    for record in records:
        seen = 5 + record["turn"]
        assert record["p"] == pytest.approx(q + (1 - q) * p_at_least_one(10, 45, seen), abs=1e-12)


def test_odds_no_mulligan_second_seat():
    args = ("odds", WANKUL, "--game", "wankul", "--event", "Terrain>=1", "--no-mulligan", "--seat", "second")
    result = run(*args)
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    assert "second player" in result.stdout and "first player" not in result.stdout
    assert "no mulligan" in result.stdout
    rows = table_rows(result.stdout)
    assert [r[0] for r in rows] == [str(t) for t in range(7)]
    for turn, row in enumerate(rows):
        assert row[1] == format_probability(p_at_least_one(10, 50, 5 + turn))
    assert rows[0][1] == "68.9%"
    records = odds_json(*args[1:])
    assert {r["seat"] for r in records} == {"second"}
    for record in records:
        assert record["p"] == pytest.approx(p_at_least_one(10, 50, 5 + record["turn"]), abs=1e-12)


def test_odds_custom_keep_rule():
    keep = "Terrain>=1 and [cost<=1]>=1"
    result = run("odds", WANKUL, "--game", "wankul", "--keep", keep, "--event", "Terrain>=2")
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    assert f"keep rule {keep}" in result.stdout
    assert "P(Terrain>=2)" in result.stdout
    records = odds_json(WANKUL, "--game", "wankul", "--keep", keep, "--event", "Terrain>=2")
    assert pick(records) == api_records(WANKUL, "wankul", "Terrain>=2", keep=keep)
    default = odds_json(WANKUL, "--game", "wankul", "--event", "Terrain>=2")
    assert [r["p"] for r in records] != [r["p"] for r in default]


def test_odds_duel_masters_civilization_second_seat():
    args = (DUEL, "--game", "duel-masters", "--event", "[civilization=Feu]>=2", "--seat", "second",
            "--turns", "0-4")
    result = run("odds", *args)
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    # rich must not eat the brackets as markup.
    assert "P([civilization=Feu]>=2)" in result.stdout
    assert "\\[" not in result.stdout
    rows = table_rows(result.stdout)
    assert [r[0] for r in rows] == ["0", "1", "2", "3", "4"]
    # 22 Feu cards in 40; the shields are random too, so the cards seen are a random
    # 5 + turn (the second player draws on turn 1).
    for turn, row in enumerate(rows):
        assert row[1] == format_probability(p_at_least_two(22, 40, 5 + turn))
    for record in odds_json(*args):
        assert record["p"] == pytest.approx(p_at_least_two(22, 40, 5 + record["turn"]), abs=1e-12)


def test_odds_duel_masters_first_player_skips_turn_one_draw():
    records = odds_json(DUEL, "--game", "duel-masters", "-e", "[civilization=Feu]>=2", "--turns", "1")
    by_seat = {r["seat"]: r["p"] for r in records}
    assert by_seat["first"] == pytest.approx(p_at_least_two(22, 40, 5), abs=1e-12)
    assert by_seat["second"] == pytest.approx(p_at_least_two(22, 40, 6), abs=1e-12)


def test_odds_shield_triggers_in_shields():
    args = (DUEL, "--game", "duel-masters", "--zone", "set_aside", "--event", "[shield_trigger=1]>=1")
    result = run("odds", *args)
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    assert "shields" in result.stdout
    assert "[shield_trigger=1]" in result.stdout
    rows = table_rows(result.stdout)
    assert [r[0] for r in rows] == ["0"]
    expected = p_at_least_one(8, 40, 5)
    assert rows[0][1:] == [format_probability(expected)]  # the same shields for both seats: one column
    records = odds_json(*args)
    assert {r["zone"] for r in records} == {"set_aside"}
    assert all(r["p"] == pytest.approx(expected, abs=1e-12) for r in records)


def test_odds_several_events():
    args = ("odds", DUEL, "--game", "duel-masters", "-e", "[civilization=Feu]>=2", "-e", "[race=Dragon]>=1",
            "--turns", "0-2")
    result = run(*args, "--wide")
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "[civilization=Feu]>=2" in text and "[race=Dragon]>=1" in text
    assert "\\[" not in text
    rows = table_rows(text)
    assert [r[0] for r in rows] == ["0", "1", "2"]
    assert all(len(r) == 5 for r in rows)
    out = odds_output(*args[1:])
    records = out["table"]
    assert {r["event"] for r in records} == {"[civilization=Feu]>=2", "[race=Dragon]>=1"}
    assert len(records) == 2 * 2 * 3
    expected = (api_records(DUEL, "duel-masters", "[civilization=Feu]>=2", turns=range(3))
                + api_records(DUEL, "duel-masters", "[race=Dragon]>=1", turns=range(3)))
    assert pick(records) == expected
    assert [r["event"] for r in out["summary"]] == ["[civilization=Feu]>=2", "[race=Dragon]>=1"]


ODDS_COLUMNS = ["deck", "game", "event", "seat", "turn", "zone", "zone_size", "p", "ci_low", "ci_high", "n_trials",
                "method"]
ODDS_SUMMARY_COLUMNS = ["deck", "game", "event", "mulligan_rule", "mulligan_limit", "keep", "p_keep_first", "ci_low",
                        "ci_high", "n_trials", "method"]


def test_odds_json_records_match_api():
    out = odds_output(WANKUL, "--game", "wankul", "-e", "Terrain>=1 and [cost<=1]>=2", "--turns", "0-6")
    records = out["table"]
    assert isinstance(records, list) and len(records) == 14
    for record in records:
        assert list(record) == ODDS_COLUMNS
        assert 0.0 <= record["p"] <= 1.0
        assert record["method"] == "exact" and record["n_trials"] is None
        assert (record["deck"], record["game"]) == ("sample_deck.csv", "wankul")
    # JSON keeps full precision: the very numbers the Python API returns.
    assert pick(records) == api_records(WANKUL, "wankul", "Terrain>=1 and [cost<=1]>=2", turns=range(7))
    [summary] = out["summary"]
    assert list(summary) == ODDS_SUMMARY_COLUMNS
    assert summary["p_keep_first"] == pytest.approx(p_at_least_one(10, 50, 5), abs=1e-12)
    assert (summary["mulligan_rule"], summary["mulligan_limit"], summary["keep"]) == ("bottom", 1, "Terrain>=1")


def test_odds_json_missing_zone_size_is_null():
    records = odds_json(WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--zone", "bottom", "--turns", "0")
    assert all(r["zone_size"] is None for r in records)
    # The default keep rule only sends Terrain-less hands under the deck.
    assert all(r["p"] == 0.0 for r in records)


def test_odds_csv_parses_and_matches_api():
    result = run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--turns", "0-3", "--format", "csv")
    assert_no_crash(result)
    assert result.exit_code == 0
    assert "\r" not in result.stdout
    frame = pd.read_csv(io.StringIO(result.stdout))
    assert list(frame.columns[:len(ODDS_COLUMNS)]) == ODDS_COLUMNS
    assert frame["p"].between(0, 1).all()
    expected = api_records(WANKUL, "wankul", "Terrain>=1", turns=range(4))
    assert frame["turn"].tolist() == [r["turn"] for r in expected]
    assert frame["seat"].tolist() == [r["seat"] for r in expected]
    assert frame["p"].tolist() == pytest.approx([r["p"] for r in expected], rel=1e-14)


@pytest.mark.parametrize(("game", "event"), [
    ("wankul", "Terrain>=1"), ("duel-masters", "Sort>=1"), ("jdg", "TERRAIN>=1"),
    ("licum", "Shote>=1"), ("pandrea", "Logistique>=1"),
])
def test_odds_every_game(game, event):
    path = sample_deck(game)
    records = odds_json(path, "--game", game, "-e", event, "--turns", "0-2")
    assert pick(records) == api_records(path, game, event, turns=range(3))
    assert all(0.0 < r["p"] < 1.0 for r in records)


def test_odds_text_decklist_with_pool_equals_csv():
    from_text = odds_output(DATA / "wankul" / "decklist.txt", "--pool", DATA / "wankul" / "pool.csv",
                            "--game", "wankul", "-e", "Terrain>=2", "--turns", "0-2")
    from_csv = odds_output(WANKUL, "--game", "wankul", "-e", "Terrain>=2", "--turns", "0-2")
    # Only the deck's name and source differ.
    assert {r["deck"] for r in from_text["table"]} == {"decklist.txt"}
    for name in ("table", "summary"):
        assert without(from_text[name], "deck") == without(from_csv[name], "deck")
    assert without([from_text["provenance"]], "deck_source") == without([from_csv["provenance"]], "deck_source")


@pytest.mark.parametrize(("spec", "turns"), [
    ("0-3", [0, 1, 2, 3]),
    ("2", [2]),
    ("0,2,4", [0, 2, 4]),
    ("4,0-1,1", [0, 1, 4]),
    (" 1 - 2 ", [1, 2]),
])
def test_odds_turn_specs(spec, turns):
    records = odds_json(WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--turns", spec)
    assert sorted({r["turn"] for r in records}) == turns
    assert len(records) == 2 * len(turns)


@pytest.mark.parametrize(("spec", "needle"), [
    ("3-1", "backwards"),
    ("a", "'a'"),
    ("", "is not a turn"),
    ("1,,2", "is not a turn"),
    ("-1", "'-1'"),
    ("2-", "'2-'"),
    ("1.5", "'1.5'"),
    ("0-5000", "beyond any deck"),
])
def test_odds_bad_turn_spec(spec, needle):
    assert_user_error(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--turns", spec),
                      "--turns", needle)


@pytest.mark.parametrize("spec", ["0,2,4-6", "6-6", "0-0"])
def test_parse_turns(spec):
    expected = {"0,2,4-6": [0, 2, 4, 5, 6], "6-6": [6], "0-0": [0]}[spec]
    assert parse_turns(spec) == expected


def test_parse_turns_rejects_backwards_range():
    with pytest.raises(DeckstatError, match="backwards"):
        parse_turns("3-1")


def test_odds_turns_beyond_the_deck():
    # Wankul: 50 cards, 5 in hand, so 45 draws at most; turn 46 needs 46.
    assert_user_error(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--turns", "0-60"),
                      "turn 46", "45")
    # Duel Masters: 40 cards, 5 shields and 5 in hand leave 30 draws.
    assert_user_error(run("odds", DUEL, "--game", "duel-masters", "-e", "Sort>=1", "--turns", "31",
                          "--seat", "second"), "turn 31", "30")
    records = odds_json(DUEL, "--game", "duel-masters", "-e", "Sort>=1", "--turns", "30", "--seat", "second")
    assert records[0]["p"] == 1.0


@pytest.mark.parametrize(("event", "needles"), [
    ("Terrain>=", ["position 10", "whole number"]),
    ("Terrain>=1 and", ["position 15"]),
    ("(Terrain>=1", ["position 12", "')'"]),
    ("Terrain>=1)", ["position 11"]),
    ("[cost<=1>=1", ["position 1", "']'"]),
    ("[cost<=a]>=1", ["position 8"]),
    ("Terrian>=1", ["position 1", "did you mean 'Terrain'"]),
    ("[colour=red]>=1", ["position 1", "colour"]),
    ("", ["empty"]),
])
def test_odds_bad_event(event, needles):
    line = assert_user_error(run("odds", WANKUL, "--game", "wankul", "-e", event), *needles)
    assert "position" in line


def test_odds_bad_second_event_writes_nothing():
    result = run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "-e", "Terrain>=", "--format", "json")
    assert_user_error(result, "Terrain>=", "position")


def test_odds_bad_keep_rule():
    assert_user_error(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--keep", "Terrain>=1 and"),
                      "keep rule", "position 15")


@pytest.mark.parametrize(("game", "event"), [("duel-masters", "Sort>=1"), ("jdg", "TERRAIN>=1"),
                                             ("pandrea", "Logistique>=1")])
def test_odds_keep_rule_for_game_without_mulligan(game, event):
    assert_user_error(run("odds", sample_deck(game), "--game", game, "-e", event, "--keep", event), "no mulligan",
                      "--mulligan-rule")


@pytest.mark.parametrize("command", ["odds", "when", "ratio", "deckout", "compare"])
def test_keep_rule_contradicts_no_mulligan(command):
    decks = [WANKUL, WANKUL_V2] if command == "compare" else [WANKUL]
    event = [] if command in ("ratio", "deckout") else ["-e", "Terrain>=1"]
    assert_user_error(run(command, *decks, "--game", "wankul", *event, "--keep", "Terrain>=2", "--no-mulligan"),
                      "--keep and --no-mulligan contradict each other")


def test_odds_unknown_game_and_bad_file(tmp_path):
    assert_user_error(run("odds", WANKUL, "--game", "duel-master", "-e", "Terrain>=1"),
                      "'duel-master'", "did you mean 'duel-masters'")
    missing = tmp_path / "missing.csv"
    assert_user_error(run("odds", missing, "--game", "wankul", "-e", "Terrain>=1"), str(missing))


def test_odds_huge_count_in_event_is_not_a_crash():
    result = run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=99999999999999999999", "--turns", "0")
    assert_no_crash(result)
    assert result.exit_code in (0, 2)


def test_validate_absurd_count_is_refused(tmp_path):
    path = tmp_path / "deck.csv"
    path.write_text("name,count,type\nA,99999999999999999999999,Terrain\n", encoding="utf-8")
    assert_user_error(run("validate", path, "--game", "wankul"), str(path), "count")


def test_python_dash_m_help():
    done = subprocess.run([sys.executable, "-m", "deckstat", "--help"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, encoding="utf-8")
    assert done.returncode == 0, done.stderr
    for command in ("validate", "odds", "games"):
        assert command in done.stdout


def test_python_dash_m_error_is_one_line(tmp_path):
    missing = tmp_path / "missing.csv"
    done = subprocess.run([sys.executable, "-m", "deckstat", "validate", str(missing), "--game", "wankul"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60, encoding="utf-8")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [f"error: {missing}: file not found"]


# --------------------------------------------------------------------------- games


def test_games_lists_the_six_profiles():
    result = run("games", "--wide")
    assert_no_crash(result)
    assert result.exit_code == 0
    ids = [row[0] for row in table_rows(result.stdout) if row[0]]
    assert ids == ["duel-masters", "generic", "jdg", "licum", "pandrea", "wankul"]
    assert [p.id for p in deckstat.list_profiles()] == ids
    # Rebuild each profile's cells from the wrapped table lines.
    cells: dict[str, list[str]] = {}
    current = None
    for row in table_rows(result.stdout):
        current = row[0] or current
        cells[current] = [" ".join(filter(None, pair)) for pair in zip(cells.get(current, [""] * 6), row)]
    wankul_size = "50 cards, or fewer in a casual game where both players use the same size"
    assert cells["wankul"][1:5] == ["Wankul", wankul_size, "5", "bottom mulligan"]
    assert cells["duel-masters"][1] == "Duel Masters"
    # Licum has two decks: each size rule says which deck it is about.
    assert cells["licum"][2].startswith("preparation: at most 30 cards")
    assert "; game: at most 30 cards" in cells["licum"][2]


def test_games_show_wankul():
    result = run("games", "show", "wankul")
    assert_no_crash(result)
    assert result.exit_code == 0
    text = flat(result.stdout)
    assert "Wankul (wankul)" in text
    assert "at most 3 copies of a card" in text
    assert "at least 1 Terrain per 5 cards" in text
    assert "opening hand 5 cards" in text
    assert "assumption" in text
    assert "The mulligan puts the 5 cards under the deck in random order" in text
    assert "rules text" in text
    assert "« aucune carte ne peut être présente en plus de 3 exemplaires »" in text
    assert "« Le premier joueur commence par piocher une carte. »" in text
    assert "play model discard" in text and "play policy hold (default):" in text and "play policy curve:" in text


def test_games_show_alias_and_profile_file():
    by_alias = run("games", "show", "wankul-tcg")
    by_file = run("games", "show", ROOT / "deckstat" / "games" / "wankul.toml")
    assert by_alias.exit_code == by_file.exit_code == 0
    assert "Wankul (wankul)" in by_alias.stdout and "Wankul (wankul)" in by_file.stdout


def test_games_show_duel_masters_sources_are_literal():
    result = run("games", "show", "duel-masters")
    assert result.exit_code == 0
    text = flat(result.stdout)
    assert "shields" in text
    assert "« La personne qui joue en premier ne pioche pas de carte lors de son premier tour. »" in text


def test_games_show_unknown():
    line = assert_user_error(run("games", "show", "nope"), "'nope'")
    for game_id in ("duel-masters", "jdg", "licum", "pandrea", "wankul"):
        assert game_id in line
    assert_user_error(run("games", "show", "wankull"), "did you mean 'wankul'")


# --------------------------------------------------------------------------- output


@pytest.mark.parametrize(("p", "text"), [
    (0, "0%"),
    (0.0, "0%"),
    (1, "100%"),
    (1.0, "100%"),
    (0.5, "50.0%"),
    (0.8734, "87.3%"),
    (0.99996, "99.996%"),
    (1e-7, "0.00001%"),
    (0.99999999, "99.999999%"),
    (0.001, "0.1%"),
    (0.0005, "0.05%"),
    (0.9995, "99.95%"),
    (0.05, "5.0%"),
    (1e-12, "<0.00000001%"),
    (1 - 1e-12, ">99.99999999%"),
    (-1e-18, "0%"),
    (1 + 1e-15, "100%"),
    (float("nan"), "–"),
    (None, "–"),
])
def test_format_probability(p, text):
    assert format_probability(p) == text


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=0.0, max_value=1.0, exclude_min=True, exclude_max=True))
def test_format_probability_never_rounds_to_certainty(p):
    text = format_probability(p)
    value = float(text.lstrip("<>").rstrip("%"))
    assert 0.0 < value < 100.0
    if not text.startswith(("<", ">")):
        decimals = len(text.rstrip("%").partition(".")[2])
        assert abs(value - 100 * p) <= 0.5 * 10 ** -decimals + 1e-9


def test_table_output_shows_markup_and_emoji_codes_literally(tmp_path):
    path = tmp_path / "deck.csv"
    path.write_text("name,count,type\n[bold]Dragon :smile:,4,Personnage\n"
                    "Plage,2,Terrain\nForêt,2,Terrain\nGrotte,2,Terrain\nPuits,2,Terrain\nDune,2,Terrain\n"
                    "Ogre \\,3,Personnage\n", encoding="utf-8")
    result = run("validate", path, "--game", "wankul", "--wide")
    assert_no_crash(result)
    assert result.exit_code == 1
    subjects = [row[1] for row in table_rows(result.stdout)]
    assert "[bold]Dragon :smile:" in subjects
    assert "😄" not in result.stdout
    result = run("odds", path, "--game", "wankul", "-e", "\"[bold]Dragon :smile:\">=1", "--turns", "0")
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    assert "[bold]Dragon :smile:" in result.stdout
    assert "😄" not in result.stdout


def test_jdg_shiny_rule_subject_is_literal():
    result = run("validate", DATA / "jdg" / "illegal_deck.csv", "--game", "jdg")
    assert "[shiny=1]" in result.stdout
    assert "\\[" not in result.stdout


@dataclass(frozen=True, kw_only=True, repr=False)
class TwoTables(Result):
    question: ClassVar[str] = "two"
    table: pd.DataFrame
    extra: pd.DataFrame


def two_tables() -> TwoTables:
    table = pd.DataFrame({"turn": [0, 1], "p": [0.1 + 0.2, float("nan")], "event": ["[a=b]>=1", "x"],
                          "n_trials": pd.array([None, 5], dtype="Int64")})
    extra = pd.DataFrame({"name": ["a"], "count": [3]})
    provenance = {"seed_entropy": 2**100 + 1, "seed_spawn_key": [0, 1, 2], "keep": "Terrain>=1",
                  "counts": [8, 9], "library_sizes": {"first": 45}, "precision": None}
    return TwoTables(table=table, extra=extra, provenance=provenance)


def test_output_to_json():
    out = json.loads(to_json(two_tables()))
    assert out == {
        "question": "two",
        "provenance": {"seed_entropy": 2**100 + 1, "seed_spawn_key": [0, 1, 2], "keep": "Terrain>=1",
                       "counts": [8, 9], "library_sizes": {"first": 45}, "precision": None},
        "table": [{"turn": 0, "p": 0.1 + 0.2, "event": "[a=b]>=1", "n_trials": None},
                  {"turn": 1, "p": None, "event": "x", "n_trials": 5}],
        "extra": [{"name": "a", "count": 3}],
    }


def test_output_to_csv_one_table_with_provenance_columns():
    back = pd.read_csv(io.StringIO(to_csv(two_tables())), dtype={"seed_entropy": str})
    assert back["p"][0] == pytest.approx(0.1 + 0.2, rel=1e-15) and math.isnan(back["p"][1])
    assert list(back.columns[:4]) == ["turn", "p", "event", "n_trials"]
    # Single values and lists of numbers are columns; a mapping is not.
    assert set(back["seed_entropy"]) == {str(2**100 + 1)}
    assert set(back["seed_spawn_key"]) == {"0 1 2"} and set(back["counts"]) == {"8 9"}
    assert set(back["keep"]) == {"Terrain>=1"}
    assert "library_sizes" not in back.columns
    extra = pd.read_csv(io.StringIO(to_csv(two_tables(), "extra")))
    assert extra[["name", "count"]].values.tolist() == [["a", 3]] and "seed_spawn_key" in extra.columns
    with pytest.raises(DeckstatError, match=r"table must be one of table, extra, got 'nope'"):
        to_csv(two_tables(), "nope")
