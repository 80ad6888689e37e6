"""The question commands: simulated odds, mulligan, when, deckout, compare, report and --plot.

Also what every question command shares: several events, the JSON object and
the CSV table with their provenance, and seeds that reproduce the numbers
whatever the chunk size and the number of workers.
"""

import io
import json

import pandas as pd
import pytest
from helpers import DATA, assert_user_error, ok, ok_json, run, sample_deck, z_for

import deckstat
from deckstat.engines.runner import BLOCK_TRIALS
from deckstat.present.format import format_probability

WANKUL = sample_deck("wankul")
WANKUL_V2 = sample_deck("wankul", "sample_deck_v2.csv")
DM = sample_deck("duel-masters")
MTG = DATA / "mtg"

# One cheap invocation of each question command (without --game and output options).
QUESTIONS = {
    "odds": ["odds", WANKUL, "-e", "Terrain>=2", "--turns", "0-1"],
    "when": ["when", WANKUL, "-e", "Terrain>=2", "--max-turn", "2"],
    "mulligan": ["mulligan", WANKUL, "--turns", "0-1"],
    "ratio": ["ratio", WANKUL, "--range", "9-10", "--turns", "0-1"],
    "deckout": ["deckout", WANKUL],
    "compare": ["compare", WANKUL, WANKUL_V2, "-e", "Terrain>=2", "--turns", "0-1"],
}
# The tables of each result, in the order --format json writes them.
TABLES = {
    "odds": ["table", "summary", "droughts"],
    "when": ["table", "summary", "droughts"],
    "mulligan": ["summary", "mulligans", "kept_hand", "by_turn", "played"],
    "ratio": ["table", "summary", "played"],
    "deckout": ["table", "summary", "game_end", "scoring"],
    "compare": ["table", "odds", "cards", "played"],
    "validate": ["table", "summary"],
}


def json_of(*args: object) -> dict:
    return ok_json(run(*args, "--format", "json"))


def csv_of(*args: object) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(ok(run(*args, "--format", "csv"))), dtype={"seed_spawn_key": str})


# --------------------------------------------------------------------------- odds, simulated


def test_simulated_odds_json_has_intervals_and_matches_the_api():
    out = json_of("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1 and [cost<=1]>=2", "--turns", "0-3",
                  "--simulate", "--trials", "20000", "--seed", "7")
    records = out["table"]
    api = deckstat.odds(deckstat.load_deck(WANKUL), "wankul", "Terrain>=1 and [cost<=1]>=2", turns=range(4),
                        method="simulate", n_trials=20000, rng=7)
    assert [r["p"] for r in records] == list(api.table["p"])
    assert [r["p_keep_first"] for r in out["summary"]] == list(api.summary["p_keep_first"])
    assert out["provenance"] == json.loads(json.dumps(api.provenance))
    for record in records:
        assert record["ci_low"] <= record["p"] <= record["ci_high"] and record["n_trials"] == 20000
        assert record["method"] == "simulate"


def test_simulated_odds_table_shows_plus_minus_and_the_seed():
    out = ok(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=2", "--turns", "0-2", "--simulate",
                 "--trials", "5000", "--seed", "3"))
    assert "±" in out and "seed 3" in out and "5,000 trials" in out


def test_precision_option():
    out = json_of("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=2", "--turns", "0", "--precision", "0.01",
                  "--seed", "1")
    record = out["table"][0]
    assert (record["ci_high"] - record["ci_low"]) / 2 <= 0.01
    assert out["provenance"]["precision"] == 0.01
    assert_user_error(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=2", "--precision", "2"),
                      "--precision must be an interval half-width between 0 and 0.5, got 2")


def test_reference_mulligan_rules():
    out = json_of("odds", MTG / "deck.csv", "--game", MTG / "profile.toml", "-e", "Land>=4", "--turns", "4",
                  "--seat", "first", "--trials", "20000", "--seed", "1")
    assert out["table"][0]["method"] == "simulate"
    assert out["provenance"]["mulligan_rule"] == "london"
    # The keep rate of a simulated London mulligan is simulated too.
    [summary] = out["summary"]
    assert summary["method"] == "simulate" and summary["ci_low"] <= summary["p_keep_first"] <= summary["ci_high"]
    out = ok(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--turns", "0", "--mulligan-rule",
                 "london", "--mulligan-limit", "2", "--trials", "5000", "--seed", "1"))
    assert "London mulligan (up to 2)" in out
    assert_user_error(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--mulligan-rule", "vancouver",
                          "--mulligan-limit", "5"), "Vancouver", "--mulligan-limit", "at most 4")


# --------------------------------------------------------------------------- mulligan, when, deckout, compare


def test_mulligan_command():
    out = ok(run("mulligan", WANKUL, "--game", "wankul", "--keep", "Terrain>=1 and [cost<=1]>=1"))
    result = deckstat.mulligan(deckstat.load_deck(WANKUL), "wankul", keep="Terrain>=1 and [cost<=1]>=1")
    assert format_probability(result.summary["p_keep_first"].iloc[0]) in out
    assert "Kept hand" in out and "keep every hand" in out
    data = json_of("mulligan", WANKUL, "--game", "wankul")
    assert list(data) == ["question", "provenance", *TABLES["mulligan"]]
    by_turn = pd.DataFrame(data["by_turn"])
    # Two rows per turn: the profile's rule and keeping every hand.
    assert sorted(set(by_turn["mulligan_rule"])) == ["bottom", "none"]
    assert by_turn.groupby("turn").size().tolist() == [2] * 7
    assert_user_error(run("mulligan", DM, "--game", "duel-masters"), "no mulligan rule", "--mulligan-rule")
    out = ok(run("mulligan", DM, "--game", "duel-masters", "--mulligan-rule", "london", "--keep",
                 "[civilization=Feu]>=1", "--trials", "5000", "--seed", "2"))
    assert "London mulligan, keep rule" in out


def test_when_command():
    out = ok(run("when", DM, "--game", "duel-masters", "--event", "[civilization=Feu]>=1 and [race=Dragon]>=1"))
    assert "median" in out and "P(not by turn 10)" in out
    data = json_of("when", DM, "--game", "duel-masters", "--event", "[race=Dragon]>=1", "--max-turn", "4",
                   "--seat", "second")
    records = data["table"]
    assert [r["turn"] for r in records] == list(range(5)) and records[-1]["cdf"] <= 1
    [summary] = data["summary"]
    assert summary["seat"] == "second" and summary["max_turn"] == 4
    assert summary["p_never"] == pytest.approx(1 - records[-1]["cdf"], abs=1e-12)
    # 30 cards are left to draw after the shields and the hand: turn 31 is the first player's last.
    assert_user_error(run("when", DM, "--game", "duel-masters", "--event", "[race=Dragon]>=1", "--max-turn", "40"),
                      "--max-turn", "31")


def test_deckout_command():
    out = ok(run("deckout", DM, "--game", "duel-masters"))
    assert "first player runs out on turn 31" in out and "second player runs out on turn 30" in out
    data = json_of("deckout", WANKUL, "--game", "wankul", "--opponent", WANKUL_V2, "--trials", "3000", "--seed", "1",
                   "--terrain-turns", "3")
    records = data["table"]
    assert {"deck", "opponent", "seat", "turn", "p"} <= set(records[0])
    for seat in ("first", "second"):
        assert sum(r["p"] for r in records if r["seat"] == seat) == pytest.approx(1.0)
    # The table names the seat's own deck: the opponent's for the second seat.
    assert {(r["seat"], r["deck"]) for r in records} == {("first", "sample_deck.csv"),
                                                         ("second", "sample_deck_v2.csv")}
    assert [r["seat"] for r in data["summary"]] == ["first", "second"]
    assert_user_error(run("deckout", WANKUL, "--game", "wankul", "--terrain-turns", "0"),
                      "--terrain-turns must be a whole number of at least 1, got 0")


def test_compare_command_json_fields():
    data = json_of("compare", WANKUL, WANKUL_V2, "--game", "wankul", "--event", "Terrain>=1", "--turns", "0-2")
    for record in data["table"]:
        assert {"p_a", "p_b", "diff", "diff_ci_low", "diff_ci_high", "p_value"} <= set(record)
        assert record["diff"] == pytest.approx(record["p_b"] - record["p_a"])
        assert (record["deck_a"], record["deck_b"]) == ("sample_deck.csv", "sample_deck_v2.csv")
    assert {r["deck"] for r in data["odds"]} == {"sample_deck.csv", "sample_deck_v2.csv"}
    assert {r["name"]: r["change"] for r in data["cards"]}["Yéti en Vacances"] == "removed"
    out = ok(run("compare", WANKUL, WANKUL_V2, "--game", "wankul", "--event", "Terrain>=1", "--turns", "0-2",
                 "--seat", "first", "--trials", "20000", "--seed", "4", "--deckout"))
    assert "Yéti en Vacances removed" in out and "paired" in out and "Deck-out" in out
    assert_user_error(run("compare", WANKUL, "--game", "wankul", "--event", "Terrain>=1"), "DECKS", "two decks")


# --------------------------------------------------------------------------- several events

EVENTS = ["Terrain>=1", "Terrain>=2 and [cost<=1]>=1"]
# The table whose rows are per event.
EVENT_TABLE = {"odds": "table", "when": "table", "compare": "table", "ratio": "table", "mulligan": "by_turn"}
SEVERAL = {
    "odds": ["odds", WANKUL, "--turns", "0-2"],
    "when": ["when", WANKUL, "--max-turn", "3"],
    "compare": ["compare", WANKUL, WANKUL_V2, "--turns", "0-2"],
    "ratio": ["ratio", WANKUL, "--range", "10-11", "--turns", "0-2"],
    "mulligan": ["mulligan", WANKUL, "--turns", "0-2"],
}


@pytest.mark.parametrize("command", sorted(SEVERAL))
def test_several_events_give_rows_for_every_event(command):
    # The seed fixes the simulated deck-out columns of the ratio sweep; every other number is exact.
    args = [*SEVERAL[command], "--game", "wankul", "--seed", "1"]
    both = json_of(*args, "-e", EVENTS[0], "-e", EVENTS[1])
    name = EVENT_TABLE[command]
    assert list(dict.fromkeys(r["event"] for r in both[name])) == EVENTS
    for event in EVENTS:
        alone = json_of(*args, "-e", event)
        for table in TABLES[command]:
            if "event" in (alone[table][0] if alone[table] else {}):
                assert [r for r in both[table] if r["event"] == event] == alone[table], (table, event)
    if "summary" in both and "event" in both["summary"][0]:
        assert list(dict.fromkeys(r["event"] for r in both["summary"])) == EVENTS
    text = ok(run(*args, "-e", EVENTS[0], "-e", EVENTS[1]))
    flat = " ".join(text.split())
    for event in EVENTS:
        assert event in flat or event.replace(" ", "") in flat.replace(" ", ""), event


@pytest.mark.parametrize("command", sorted(SEVERAL))
def test_simulated_events_do_not_depend_on_each_other(command):
    args = [*SEVERAL[command], "--game", "wankul", "--trials", "3000", "--seed", "11"]
    both = json_of(*args, "-e", EVENTS[0], "-e", EVENTS[1])
    alone = json_of(*args, "-e", EVENTS[1])
    name = EVENT_TABLE[command]
    rows = [r for r in both[name] if r["event"] == EVENTS[1]]
    assert rows and rows == alone[name]
    # (Keeping every hand, the mulligan command's reference rows, stays exact.)
    assert {r["method"] for r in rows if r.get("mulligan_rule") != "none"} == {"simulate"}


def test_simulated_several_events_agree_with_exact():
    args = ["when", WANKUL, "--game", "wankul", "-e", EVENTS[0], "-e", EVENTS[1], "--max-turn", "3", "--seat",
            "first"]
    n = 20000
    simulated = json_of(*args, "--trials", n, "--seed", "5")["table"]
    exact = json_of(*args)["table"]
    assert [(r["event"], r["turn"]) for r in simulated] == [(r["event"], r["turn"]) for r in exact]
    z = z_for(2 * len(exact))
    for sim, ex in zip(simulated, exact):
        for key in ("p", "cdf"):
            se = (ex[key] * (1 - ex[key]) / n) ** 0.5
            assert abs(sim[key] - ex[key]) <= z * se, (sim, ex)


# --------------------------------------------------------------------------- JSON and CSV


@pytest.mark.parametrize("command", sorted(QUESTIONS))
def test_json_holds_the_provenance_and_every_table(command):
    out = json_of(*QUESTIONS[command], "--game", "wankul", "--trials", "2000", "--seed", "12")
    assert list(out) == ["question", "provenance", *TABLES[command]]
    assert out["question"] == command
    provenance = out["provenance"]
    assert provenance["seed_entropy"] == 12 and provenance["seed_spawn_key"] == [0]
    assert provenance["deckstat_version"] == deckstat.__version__
    assert (provenance["game"], provenance["mulligan_rule"], provenance["keep"]) == ("wankul", "bottom",
                                                                                      "Terrain>=1")
    if command != "deckout":
        assert provenance["mulligan_limit"] == 1
    for name in TABLES[command]:
        records = out[name]
        assert records and all(isinstance(r, dict) for r in records), name
        for record in records:
            for key in ("p", "ci_low", "ci_high", "cdf", "p_keep_first", "p_runs_out_first"):
                if record.get(key) is not None:
                    assert 0.0 <= record[key] <= 1.0, (name, record)
            if record.get("method") == "simulate" and "n_trials" in record:
                assert record["n_trials"] == 2000, (name, record)


def test_validate_json_holds_the_provenance():
    result = run("validate", WANKUL, "--game", "wankul", "--format", "json")
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert list(out) == ["question", "provenance", *TABLES["validate"]]
    assert out["provenance"]["deckstat_version"] == deckstat.__version__
    assert out["provenance"]["game"] == "wankul" and out["provenance"]["deck_size"] == 50


def test_csv_rows_carry_the_provenance():
    args = ["odds", WANKUL, "--game", "wankul", "-e", "Terrain>=2", "--turns", "0-1", "--trials", "2000", "--seed",
            "12"]
    frame = csv_of(*args)
    records = json_of(*args)
    assert list(frame.columns[:len(records["table"][0])]) == list(records["table"][0])
    assert frame["p"].tolist() == [r["p"] for r in records["table"]]
    for column, value in {"seed_entropy": 12, "seed_spawn_key": "0", "mulligan_rule": "bottom",
                          "mulligan_limit": 1, "keep": "Terrain>=1", "game": "wankul",
                          "deckstat_version": deckstat.__version__}.items():
        assert frame[column].tolist() == [value] * len(frame), column
    summary = csv_of(*args, "--table", "summary")
    assert list(summary.columns[:len(records["summary"][0])]) == list(records["summary"][0])
    assert summary["p_keep_first"].tolist() == [r["p_keep_first"] for r in records["summary"]]
    assert summary["seed_entropy"].tolist() == [12]


@pytest.mark.parametrize("table", TABLES["mulligan"])
def test_csv_table_option_picks_each_table(table):
    args = ["mulligan", WANKUL, "--game", "wankul", "--turns", "0-1"]
    frame = csv_of(*args, "--table", table)
    records = json_of(*args)[table]
    assert len(frame) == len(records)
    assert list(frame.columns[:len(records[0])]) == list(records[0])
    assert set(frame["deckstat_version"]) == {deckstat.__version__}


@pytest.mark.parametrize("command", ["odds", "mulligan", "compare", "validate"])
def test_csv_unknown_table_is_one_line_error(command):
    args = QUESTIONS.get(command, ["validate", WANKUL])
    line = assert_user_error(run(*args, "--game", "wankul", "--format", "csv", "--table", "nope"),
                             "--table", "'nope'")
    assert all(name in line for name in TABLES[command])


# --------------------------------------------------------------------------- compare --deckout --ratio

COMPARE_ALL = ["compare", WANKUL, WANKUL_V2, "--game", "wankul", "-e", "Terrain>=1", "--turns", "0-1", "--deckout",
               "--ratio", "9-11", "--trials", "2000", "--seed", "3"]


def test_compare_deckout_and_ratio_table():
    text = ok(run(*COMPARE_ALL))
    assert "Deck-out (each deck against a copy of itself)" in text
    assert "Ratio sweep" in text
    assert text.count("sample_deck_v2.csv") >= 3  # card changes, deck-out row and ratio column
    rows = [line.split("│")[1].strip() for line in text.split("Ratio sweep")[1].splitlines() if "│" in line]
    assert rows == ["9", "10", "11"]


@pytest.fixture(scope="module")
def compare_all() -> dict:
    return json_of(*COMPARE_ALL)


def test_compare_deckout_and_ratio_json(compare_all):
    out = compare_all
    assert out["provenance"]["seed_entropy"] == 3
    assert list(out) == ["question", "provenance", *TABLES["compare"][:-1], "deckout", "ratio", "played"]
    names = {"sample_deck.csv", "sample_deck_v2.csv"}
    deckout = pd.DataFrame(out["deckout"])
    assert sorted(zip(deckout["deck"], deckout["seat"])) == sorted((d, s) for d in names for s in ("first", "second"))
    assert deckout["p_runs_out_first"].between(0, 1).all()
    ratio = pd.DataFrame(out["ratio"])
    assert set(ratio["deck"]) == names
    assert ratio.groupby("deck")["resource_count"].apply(lambda s: sorted(set(s))).tolist() == [[9, 10, 11]] * 2
    assert len(ratio) == 2 * 3 * 2  # decks, counts, turns


def test_compare_deckout_and_ratio_csv(compare_all):
    out = compare_all
    main = csv_of(*COMPARE_ALL)
    assert main["diff"].tolist() == [r["diff"] for r in out["table"]]
    assert set(main["paired"]) == {True}
    for name in ("deckout", "ratio"):
        frame = csv_of(*COMPARE_ALL, "--table", name)
        assert len(frame) == len(out[name])
        assert frame["deck"].tolist() == [r["deck"] for r in out[name]]
        assert frame["seed_entropy"].tolist() == [3] * len(frame)


def test_compare_provenance_reproduces_every_table():
    """Rerun with the recorded seed: every simulated table comes back the same, deck-out and ratio included."""
    args = ["compare", WANKUL, WANKUL_V2, "--game", "wankul", "-e", "Terrain>=1", "--turns", "0", "--deckout",
            "--ratio", "10", "--trials", "2000"]
    first = json_of(*args)
    again = json_of(*args, "--seed", first["provenance"]["seed_entropy"])
    for name in ("table", "odds", "deckout", "ratio"):
        assert again[name] == first[name], name


@pytest.mark.slow
def test_compare_with_exact_odds_records_the_seed_of_its_simulated_deckout():
    out = json_of("compare", WANKUL, WANKUL_V2, "--game", "wankul", "-e", "Terrain>=1", "--turns", "0",
                  "--deckout", "--ratio", "10")
    assert {r["method"] for r in out["table"]} == {"exact"}
    assert {r["method"] for r in out["deckout"]} == {"simulate"}
    assert out["provenance"].get("seed_entropy") is not None


# --------------------------------------------------------------------------- seeds, chunks and workers

SEEDED = dict(QUESTIONS, ratio=["ratio", WANKUL, "--range", "10", "--turns", "0"])


@pytest.mark.parametrize("command", [pytest.param(c, marks=pytest.mark.slow) if c in ("deckout", "ratio") else c
                                     for c in sorted(SEEDED)])
def test_same_seed_same_json_whatever_the_chunk_size_and_workers(command):
    # Two blocks of trials: one chunk by default, two with --chunk-size 1, spread over two processes.
    base = [*SEEDED[command], "--game", "wankul", "--trials", BLOCK_TRIALS + 1000, "--seed", "21"]
    reference = json_of(*base)
    assert reference["provenance"]["seed_entropy"] == 21
    assert json_of(*base, "--chunk-size", "1") == reference
    assert json_of(*base, "--chunk-size", 2 * BLOCK_TRIALS, "--workers", "2") == reference


@pytest.mark.parametrize("command", sorted(QUESTIONS))
@pytest.mark.parametrize("flag", ["--trials", "--chunk-size", "--workers"])
def test_bad_counts_name_the_flag(command, flag):
    assert_user_error(run(*QUESTIONS[command], "--game", "wankul", "--simulate", flag, "0"),
                      f"{flag} must be a whole number of at least 1, got 0")


# --------------------------------------------------------------------------- --plot and report


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
    assert_user_error(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--plot", tmp_path / "x.pdf"),
                      "--plot", ".png")
    assert not (tmp_path / "x.pdf").exists()


@pytest.fixture(scope="module")
def wankul_report(tmp_path_factory):
    """The sample Wankul deck's Markdown report folder, written once by the command for the tests that read it."""
    out_dir = tmp_path_factory.mktemp("report") / "rapport"
    ok(run("report", WANKUL, "--game", "wankul", "--out", out_dir, "--trials", "2000"))
    return out_dir


@pytest.mark.parametrize(("flag", "page"), [([], "report.md"), (["--html"], "report.html")])
def test_report_command(tmp_path, wankul_report, flag, page):
    out_dir = wankul_report
    if flag:
        out_dir = tmp_path / "rapport"
        ok(run("report", WANKUL, "--game", "wankul", "--out", out_dir, "--trials", "2000", *flag))
    text = (out_dir / page).read_text(encoding="utf-8")
    assert "Is the deck legal?" in text and "How many Terrain cards?" in text and "run out" in text
    if page == "report.html":  # one file: its figures inside it
        assert text.count('<img src="data:image/png;base64,') == 5 and not list(out_dir.glob("*.png"))
        return
    for figure in ("odds.png", "mulligan.png", "ratio.png", "deckout.png"):
        assert (out_dir / figure).stat().st_size > 1000
        assert figure in text


def test_report_on_other_games(tmp_path):
    ok(run("report", DM, "--game", "duel-masters", "--out", tmp_path / "dm", "--trials", "2000"))
    text = (tmp_path / "dm" / "report.md").read_text(encoding="utf-8")
    # The event as written; its brackets escaped in the page's source, so that Markdown shows them, not a link.
    assert "\\[civilization=Feu\\]>=1" in text and "ratio.png" not in text
    ok(run("report", sample_deck("licum"), "--game", "licum", "--out", tmp_path / "licum", "--trials", "2000"))


def test_report_refuses_a_file_as_folder(tmp_path):
    target = tmp_path / "file.txt"
    target.write_text("x")
    assert_user_error(run("report", WANKUL, "--game", "wankul", "--out", target, "--trials", "1000"),
                      str(target), "not a folder")


def test_report_tables_are_markdown(wankul_report):
    lines = (wankul_report / "report.md").read_text(encoding="utf-8").splitlines()
    table = [line for line in lines if line.startswith("|")]
    # The opening-hand table: header, rule, one row per event, all with the same number of cells.
    assert table[0] == "| event | kept opening hand |" and table[1] == "|---|---|"
    assert table[2].startswith("| Terrain>=1 | ") and table[2].count("|") == 3


# --------------------------------------------------------------------------- rules-text notes and warnings


def write_csv(path, rows: list[dict]) -> str:
    pd.DataFrame(rows).to_csv(path, index=False)
    return str(path)


def test_validate_prints_the_note_of_a_jdg_deck_without_shiny_column(tmp_path):
    deck = write_csv(tmp_path / "sans_brillance.csv", [{"name": f"Carte {i}", "type": "EFFET"} for i in range(30)])
    out = ok(run("validate", deck, "--game", "jdg"))
    assert "30 cards: legal. Every construction rule holds." in out
    assert "note: the deck has no 'shiny' column: no card is counted as [shiny=1]" in out
    data = json_of("validate", deck, "--game", "jdg", "--format", "json")
    assert data["summary"][0]["legal"] is True and "shiny" in data["provenance"]["notes"][0]


def test_validate_warns_about_another_games_deck():
    result = run("validate", WANKUL, "--game", "duel-masters", "--wide")
    out = ok(result)
    assert "50 cards: legal (2 warnings)" in out and "Wankul card types" in out and "Wankul columns" in out


def test_question_commands_print_file_warnings_on_stderr():
    result = run("odds", WANKUL, "--game", "dm", "-e", "Terrain>=1", "--turns", "0", "--format", "csv")
    ok(result)
    assert result.stderr.splitlines() == [
        "warning: sample_deck.csv: Wankul card types: Terrain (10 cards), Personnage (40 cards), expected Duel "
        "Masters types (Créature, Sort) (the file holds Wankul cards? check the game)",
        "warning: sample_deck.csv: Wankul columns: force, clan, expected Duel Masters card data (the file holds "
        "Wankul cards? check the game)"]
    pd.read_csv(io.StringIO(result.stdout))  # stdout stays a clean CSV
    assert ok(run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--turns", "0")) and \
        run("odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--turns", "0").stderr == ""


def test_deckout_warns_about_decks_of_different_sizes(tmp_path):
    short = write_csv(tmp_path / "court.csv", [{"name": "T", "count": 8, "type": "Terrain"},
                                               {"name": "P", "count": 32, "type": "Personnage"}])
    result = run("deckout", WANKUL, "--game", "wankul", "--opponent", short, "--no-drought")
    out = ok(result)
    assert result.stderr == ("warning: Wankul: both players' decks must have the same number of cards; "
                             "sample_deck.csv has 50 and court.csv 40\n")
    assert "the game ends by deck-out on turn 36, at the earlier of the two decks' run-out turns" in out
    compared = run("compare", WANKUL, short, "--game", "wankul", "-e", "Terrain>=1", "--turns", "0")
    ok(compared)
    assert "same number of cards" in compared.stderr


def test_deckout_licum_says_when_the_match_ends():
    out = ok(run("deckout", sample_deck("licum"), "--game", "licum"))
    assert ("the game ends by deck-out on turn 24, at the later of the two decks' run-out turns: the end of the "
            "first turn at which neither player can draw") in out


def test_deckout_drought_options():
    args = ["deckout", WANKUL, "--game", "wankul", "--trials", "2000", "--seed", "3", "--format", "json"]
    default = json_of(*args)["provenance"]
    assert (default["terrain_turns"], default["drought_order"]) == (2, "together")
    other = json_of(*args, "--terrain-turns", "never", "--drought-order", "active_first")["provenance"]
    assert (other["terrain_turns"], other["drought_order"]) == (None, "active_first")
    assert_user_error(run("deckout", WANKUL, "--game", "wankul", "--terrain-turns", "souvent"),
                      "--terrain-turns must be a whole number of at least 1 or 'never', got 'souvent'")
    out = ok(run("deckout", WANKUL, "--game", "wankul", "--trials", "2000", "--seed", "3"))
    assert "scored and discarded 2 turns after it is played (the profile's default)" in out
    assert "drought draws (together)" in out


@pytest.mark.parametrize(("game", "needles"), [
    ("wankul", ["rounded up", "the two players' decks have the same number of cards",
                "scored and discarded 2 turns after it is played", "drought_order = active_first"]),
    ("licum", ["Mise au Jeu: never counted in a deck, never shuffled in or drawn",
               "at least 7 cards: the 7-card starting hand is taken from it", "later of the two decks"]),
    ("pandrea", ["« désengagées »"]),
    ("jdg", ["at most 5 shiny cards"]),
    ("duel-masters", ["at most 4 copies"]),
])
def test_games_show_states_the_rules_read(game, needles):
    # The table wraps long cells: read it as one line of words.
    flat = " ".join(ok(run("games", "show", game)).replace("│", " ").split())
    for needle in needles:
        assert needle in flat, needle
