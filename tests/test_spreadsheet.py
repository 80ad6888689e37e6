"""CSV for spreadsheets (--excel): read back, it gives the numbers of --format json; plain CSV stays as it was."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import textwrap
from math import comb
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import DATA, ROOT, assert_user_error, ok, run
from hypothesis import given
from hypothesis import strategies as st

from deckstat.present.spreadsheet import FORMULA_STARTS, neutralise

DECK = DATA / "wankul" / "sample_deck.csv"
V2 = DATA / "wankul" / "sample_deck_v2.csv"
BOM = b"\xef\xbb\xbf"
#: With the bottom mulligan (keep a hand with a Terrain, else put it under the deck and draw 5 from the other 45),
#: P(Terrain >= 1 in the kept hand) of a 50-card deck with 10 Terrains.
P_KEPT_TERRAIN = 1 - comb(40, 5) / comb(50, 5) * comb(35, 5) / comb(45, 5)

#: One question per command, small enough to run twice; simulated ones with a fixed seed.
QUESTIONS = {
    "odds": (["odds", DECK, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0-3"], 0),
    "when": (["when", DECK, "-g", "wankul", "-e", "Terrain>=2", "--max-turn", "4"], 0),
    "ratio": (["ratio", DECK, "-g", "wankul", "--range", "9-11", "--turns", "0-1", "--seed", "3"], 0),
    "deckout": (["deckout", DECK, "-g", "wankul", "--trials", "2000", "--seed", "3"], 0),
    # V2 has more Terrains than the sample deck: the differences B - A are negative numbers.
    "compare": (["compare", V2, DECK, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0-2"], 0),
    "validate": (["validate", DATA / "wankul" / "illegal_deck.csv", "-g", "wankul"], 1),
}


def _invoke(args: list, code: int) -> bytes:
    result = run(*args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == code, result.output
    return result.stdout_bytes


def _read_sheet(data: bytes, tmp_path: Path) -> pd.DataFrame:
    path = tmp_path / "sheet.csv"
    path.write_bytes(data)
    return pd.read_csv(path, sep=";", decimal=",", encoding="utf-8-sig")


def _assert_same_table(sheet: pd.DataFrame, records: list[dict]) -> None:
    """The sheet's columns hold the values of the JSON records (it has the provenance columns besides)."""
    expected = pd.DataFrame.from_records(records)
    assert len(sheet) == len(expected)
    for column in expected.columns:
        want, got = expected[column], sheet[column]
        if pd.api.types.is_numeric_dtype(want) and not pd.api.types.is_bool_dtype(want):
            assert pd.api.types.is_numeric_dtype(got), (column, got.dtype)
            np.testing.assert_allclose(got.to_numpy(float), want.to_numpy(float), rtol=1e-15, atol=0,
                                       equal_nan=True, err_msg=column)
        else:
            def words(values):  # CSV writes an empty text and a missing value alike
                return [None if v is None or v == "" or (isinstance(v, float) and np.isnan(v)) else str(v)
                        for v in values]
            assert words(got) == words(want), column


@pytest.mark.parametrize("question", list(QUESTIONS))
def test_the_french_sheet_reads_back_as_the_json_numbers(question, tmp_path):
    args, code = QUESTIONS[question]
    data = _invoke([*args, "--format", "csv", "--excel", "--lang", "fr"], code)
    document = json.loads(_invoke([*args, "--format", "json", "--lang", "fr"], code))
    first = [key for key in document if key not in ("question", "provenance")][0]
    sheet = _read_sheet(data, tmp_path)
    _assert_same_table(sheet, document[first])
    if question == "compare":
        assert (sheet["diff"] < 0).all() and sheet["diff"].dtype == float  # negative numbers are numbers


def test_a_french_sheet_has_the_bom_semicolons_decimal_commas_and_crlf():
    data = _invoke([*QUESTIONS["odds"][0], "--turns", "0", "--no-mulligan", "--format", "csv", "--excel",
                    "--lang", "fr"], 0)
    assert data.startswith(BOM)
    text = data[len(BOM):].decode("utf-8")
    lines = text.split("\r\n")
    assert lines[-1] == "" and "\n" not in "".join(lines)
    header, row = lines[0].split(";"), lines[1].split(";")
    p = row[header.index("p")]
    # Without mulligan: P(Terrain >= 1 in 5 cards of 50 with 10 Terrains) = 1 - C(40,5)/C(50,5).
    assert "," in p and "." not in p
    assert float(p.replace(",", ".")) == pytest.approx(1 - comb(40, 5) / comb(50, 5), abs=1e-15)


def test_an_english_sheet_keeps_commas_and_points_with_the_bom():
    data = _invoke([*QUESTIONS["odds"][0], "--turns", "0", "--format", "csv", "--excel", "--lang", "en"], 0)
    assert data.startswith(BOM) and b"\r\n" in data
    frame = pd.read_csv(io.BytesIO(data), encoding="utf-8-sig")
    assert frame["p"].iloc[0] == pytest.approx(P_KEPT_TERRAIN, abs=1e-15)


def _deck_with_names(folder: Path, names: list[str]) -> Path:
    """The sample deck with its first non-Terrain cards renamed ``names``."""
    rows = list(csv.reader(DECK.read_text(encoding="utf-8").splitlines()))
    others = [i for i, row in enumerate(rows) if i and row[2] != "Terrain"]
    for index, name in zip(others, names):
        rows[index][0] = name
    path = folder / "noms.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    return path


def test_accents_stay_and_formula_like_names_are_neutralised(tmp_path):
    names = ["Épée", "=1+1", "-Flèche", "@Tête", "+2 Œufs"]
    deck = _deck_with_names(tmp_path, names)
    args = ["compare", DECK, deck, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0", "--table", "cards",
            "--format", "csv"]
    sheet = _read_sheet(_invoke([*args, "--excel", "--lang", "fr"], 0), tmp_path)
    added = set(sheet.loc[sheet["change"] == "added", "name"])
    assert added == {"Épée", "'=1+1", "'-Flèche", "'@Tête", "'+2 Œufs"}
    # Plain CSV is for programs: the names as they are.
    plain = pd.read_csv(io.BytesIO(_invoke(args, 0)))
    assert set(plain.loc[plain["change"] == "added", "name"]) == set(names)


@given(st.text(max_size=12))
def test_a_neutralised_cell_never_starts_a_formula_and_keeps_its_text(text):
    cell = neutralise(text)
    assert cell in (text, "'" + text)
    if cell == text and text.startswith(FORMULA_STARTS):
        float(text.replace(",", "."))  # left as it was only when it is a number


def test_plain_csv_is_unchanged_in_both_languages():
    args = [*QUESTIONS["odds"][0], "--format", "csv"]
    english = run(*args, "--lang", "en").stdout_bytes
    # Not a file (a test's capture): plain, even in French.
    assert run(*args, "--lang", "fr").stdout_bytes == english
    assert not english.startswith(BOM) and b"\r" not in english
    lines = english.decode("utf-8").splitlines()
    assert lines[0].startswith("deck,game,event,seat,turn,zone,zone_size,p,ci_low,ci_high,n_trials,method,")
    frame = pd.read_csv(io.BytesIO(english))
    assert frame.loc[frame["turn"] == 0, "p"].iloc[0] == pytest.approx(P_KEPT_TERRAIN, abs=1e-15)


def _to_file(args: list, path: Path) -> bytes:
    """Run deckstat with stdout redirected to ``path``, as ``deckstat … > path`` does."""
    with path.open("wb") as handle:
        done = subprocess.run([sys.executable, "-m", "deckstat", *map(str, args)], stdout=handle,
                              stderr=subprocess.PIPE, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr.decode()
    return path.read_bytes()


def test_french_into_a_file_is_a_sheet_unless_no_excel(tmp_path):
    args = [*QUESTIONS["odds"][0], "--format", "csv"]
    sheet = _to_file([*args, "--lang", "fr"], tmp_path / "fr.csv")
    assert sheet.startswith(BOM) and b";" in sheet.splitlines()[0]
    assert _read_sheet(sheet, tmp_path)["p"].iloc[0] == pytest.approx(P_KEPT_TERRAIN, abs=1e-15)
    english = _to_file([*args, "--lang", "en"], tmp_path / "en.csv")
    assert english == run(*args, "--lang", "en").stdout_bytes
    assert _to_file([*args, "--lang", "fr", "--no-excel"], tmp_path / "plain.csv") == english


@pytest.mark.parametrize("fmt", ["json", "table"])
def test_excel_goes_with_format_csv_only(fmt):
    result = run(*QUESTIONS["odds"][0], "--format", fmt, "--excel")
    assert_user_error(result, "--excel", "--format csv", f"--format {fmt}")


def test_no_excel_is_harmless_with_a_table():
    assert "Terrain>=1" in ok(run(*QUESTIONS["odds"][0], "--no-excel"))


BATCH = """
[[questions]]
question = "odds"
event = "Terrain>=1"
turns = "0"
mulligan = false
"""


@pytest.mark.parametrize(("flags", "spreadsheet"), [(["--lang", "fr"], True), (["--lang", "en"], False),
                                                    (["--lang", "fr", "--no-excel"], False),
                                                    (["--lang", "en", "--excel"], True)])
def test_batch_results_csv_follow_the_language_and_the_flags(tmp_path, flags, spreadsheet):
    spec = tmp_path / "lot.toml"
    spec.write_text(f'name = "lot"\nseed = 1\n[decks.wankul]\npath = "{DECK.as_posix()}"\ngame = "wankul"\n'
                    + textwrap.dedent(BATCH), encoding="utf-8")
    result = run("batch", spec, "--out", tmp_path / "out", "--workers", "1", "-q", *flags)
    assert result.exit_code == 0, result.output
    data = (tmp_path / "out" / "results.csv").read_bytes()
    assert data.startswith(BOM) == spreadsheet
    french = spreadsheet and "fr" in flags
    table = pd.read_csv(io.BytesIO(data), sep=";" if french else ",", decimal="," if french else ".",
                        encoding="utf-8-sig")
    # No mulligan: P(Terrain >= 1 in 5 cards of 50 with 10 Terrains) = 1 - C(40,5)/C(50,5).
    assert table["p"].iloc[0] == pytest.approx(1 - comb(40, 5) / comb(50, 5), abs=1e-15)
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["results_csv"]["sep"] == (";" if french else ",")
    assert manifest["results_csv"]["encoding"] == ("utf-8-sig" if spreadsheet else "utf-8")


def test_the_python_api_writes_the_sheet_of_the_current_language():
    import deckstat
    from deckstat.i18n import language
    from deckstat.present.format import to_csv

    result = deckstat.odds(deckstat.load_deck(DECK), deckstat.get_profile("wankul"), "Terrain>=1", turns=[0])
    with language("fr"):
        text = to_csv(result, excel=True)
    frame = pd.read_csv(io.StringIO(text), sep=";", decimal=",")
    assert frame["p"].iloc[0] == pytest.approx(P_KEPT_TERRAIN, abs=1e-15)
    assert to_csv(result).startswith("deck,game,")  # plain, whatever the language
