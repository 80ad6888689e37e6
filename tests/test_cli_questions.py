"""The question commands: simulated odds, mulligan, when, deckout, compare, report and --plot."""

import json

import pytest
from typer.testing import CliRunner

import deckstat
from deckstat.cli import app

runner = CliRunner()
WANKUL = "data/wankul/sample_deck.csv"
WANKUL_V2 = "data/wankul/sample_deck_v2.csv"
DM = "data/duel-masters/sample_deck.csv"


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def ok(result):
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.stdout


def user_error(result, *needles):
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and "Traceback" not in result.output
    line = result.stderr.strip()
    assert line.startswith("error: ") and "\n" not in line
    for needle in needles:
        assert needle in line
    return line


def test_simulated_odds_json_has_intervals_and_matches_the_api():
    out = ok(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1 and [cost<=1]>=2", "--turns", "0-3",
                 "--simulate", "--trials", "20000", "--seed", "7", "--format", "json"))
    records = json.loads(out)
    api = deckstat.odds(deckstat.load_deck(WANKUL), "wankul", "Terrain>=1 and [cost<=1]>=2", turns=range(4),
                        method="simulate", n_trials=20000, rng=7)
    assert [r["p"] for r in records] == list(api["p"])
    for record in records:
        assert record["ci_low"] <= record["p"] <= record["ci_high"] and record["n_trials"] == 20000
        assert record["method"] == "simulate"


def test_simulated_odds_table_shows_plus_minus_and_the_seed():
    out = ok(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=2", "--turns", "0-2", "--simulate",
                 "--trials", "5000", "--seed", "3"))
    assert "±" in out and "seed 3" in out and "5,000 trials" in out


def test_precision_option():
    out = ok(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=2", "--turns", "0", "--precision", "0.01",
                 "--seed", "1", "--format", "json"))
    record = json.loads(out)[0]
    assert (record["ci_high"] - record["ci_low"]) / 2 <= 0.01
    user_error(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=2", "--precision", "2"), "precision")


def test_reference_mulligan_rules():
    out = ok(run("odds", "data/mtg/deck.csv", "--game", "data/mtg/profile.toml", "-e", "Land>=4", "--turns", "4",
                 "--seat", "first", "--trials", "20000", "--seed", "1", "--format", "json"))
    assert json.loads(out)[0]["method"] == "simulate"
    out = ok(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--turns", "0", "--mulligan-rule",
                 "london", "--mulligan-limit", "2", "--trials", "5000", "--seed", "1"))
    assert "london mulligan (up to 2)" in out
    user_error(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--mulligan-rule", "vancouver",
                   "--mulligan-limit", "5"), "Vancouver")


def test_mulligan_command():
    out = ok(run("mulligan", WANKUL, "--game", "wankul", "--keep", "Terrain>=1 and [cost<=1]>=1"))
    report = deckstat.mulligan(deckstat.load_deck(WANKUL), "wankul", keep="Terrain>=1 and [cost<=1]>=1")
    assert deckstat.output.format_probability(report.summary["p_keep_first"].iloc[0]) in out
    assert "Kept hand" in out and "keep every hand" in out
    records = json.loads(ok(run("mulligan", WANKUL, "--game", "wankul", "--format", "json")))
    assert {r["table"] for r in records} == {"summary", "mulligans", "kept_hand", "by_turn"}
    user_error(run("mulligan", DM, "--game", "duel-masters"), "no mulligan rule")
    out = ok(run("mulligan", DM, "--game", "duel-masters", "--mulligan-rule", "london", "--keep",
                 "[civilization=Feu]>=1", "--trials", "5000", "--seed", "2"))
    assert "london rule" in out


def test_when_command():
    out = ok(run("when", DM, "--game", "duel-masters", "--event", "[civilization=Feu]>=1 and [race=Dragon]>=1"))
    assert "median" in out and "P(not by turn 10)" in out
    records = json.loads(ok(run("when", DM, "--game", "duel-masters", "--event", "[race=Dragon]>=1", "--max-turn",
                                "4", "--seat", "second", "--format", "json")))
    assert [r["turn"] for r in records] == list(range(5)) and records[-1]["cdf"] <= 1
    user_error(run("when", DM, "--game", "duel-masters", "--event", "[race=Dragon]>=1", "--max-turn", "40"),
               "max_turn")


def test_deckout_command():
    out = ok(run("deckout", DM, "--game", "duel-masters"))
    assert "first player runs out on turn 31" in out and "second player runs out on turn 30" in out
    records = json.loads(ok(run("deckout", WANKUL, "--game", "wankul", "--opponent", WANKUL_V2, "--trials", "3000",
                                "--seed", "1", "--terrain-turns", "3", "--format", "json")))
    assert {"seat", "turn", "p"} <= set(records[0])
    for seat in ("first", "second"):
        assert sum(r["p"] for r in records if r["seat"] == seat) == pytest.approx(1.0)
    user_error(run("deckout", WANKUL, "--game", "wankul", "--terrain-turns", "0"), "terrain_turns")


def test_compare_command_json_fields():
    records = json.loads(ok(run("compare", WANKUL, WANKUL_V2, "--game", "wankul", "--event", "Terrain>=1",
                                "--turns", "0-2", "--format", "json")))
    for record in records:
        assert {"p_a", "p_b", "diff", "diff_ci_low", "diff_ci_high", "p_value"} <= set(record)
        assert record["diff"] == pytest.approx(record["p_b"] - record["p_a"])
    out = ok(run("compare", WANKUL, WANKUL_V2, "--game", "wankul", "--event", "Terrain>=1", "--turns", "0-2",
                 "--seat", "first", "--trials", "20000", "--seed", "4", "--deckout"))
    assert "Yéti en Vacances removed" in out and "paired" in out and "Deck-out" in out
    user_error(run("compare", WANKUL, "--game", "wankul", "--event", "Terrain>=1"), "two decks")


def test_plot_option_writes_files(tmp_path):
    for command, extra in [("odds", ["-e", "Terrain>=1"]), ("when", ["--event", "Terrain>=2"]),
                           ("mulligan", []), ("ratio", ["--range", "9-11"]), ("deckout", ["--no-drought"]),
                           ("compare", [WANKUL_V2, "--event", "Terrain>=1"])]:
        path = tmp_path / f"{command}.png"
        ok(run(command, WANKUL, *extra, "--game", "wankul", "--plot", path))
        assert path.stat().st_size > 1000, command
    svg = tmp_path / "odds.svg"
    ok(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--plot", svg))
    assert svg.read_text().lstrip().startswith("<?xml")
    user_error(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--plot", tmp_path / "x.pdf"), ".png")
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("flag,page", [([], "report.md"), (["--html"], "report.html")])
def test_report_command(tmp_path, flag, page):
    out_dir = tmp_path / "rapport"
    ok(run("report", WANKUL, "--game", "wankul", "--out", out_dir, "--trials", "2000", *flag))
    text = (out_dir / page).read_text(encoding="utf-8")
    assert "Is the deck legal?" in text and "How many Terrain?" in text and "run out" in text
    for figure in ("odds.png", "mulligan.png", "ratio.png", "deckout.png"):
        assert (out_dir / figure).stat().st_size > 1000
        assert figure in text


def test_report_on_other_games(tmp_path):
    ok(run("report", DM, "--game", "duel-masters", "--out", tmp_path / "dm", "--trials", "2000"))
    text = (tmp_path / "dm" / "report.md").read_text(encoding="utf-8")
    assert "[civilization=Feu]>=1" in text and "ratio.png" not in text
    ok(run("report", "data/licum/sample_deck.csv", "--game", "licum", "--out", tmp_path / "licum", "--trials",
           "2000"))


def test_report_refuses_a_file_as_folder(tmp_path):
    target = tmp_path / "file.txt"
    target.write_text("x")
    user_error(run("report", WANKUL, "--game", "wankul", "--out", target, "--trials", "1000"), "not a folder")


def test_report_tables_are_markdown(tmp_path):
    ok(run("report", WANKUL, "--game", "wankul", "--out", tmp_path, "--trials", "2000"))
    lines = (tmp_path / "report.md").read_text(encoding="utf-8").splitlines()
    table = [line for line in lines if line.startswith("|")]
    # The opening-hand table: header, rule, one row per event, all with the same number of cells.
    assert table[0] == "| event | kept opening hand |" and table[1] == "|---|---|"
    assert table[2].startswith("| Terrain>=1 | ") and table[2].count("|") == 3
