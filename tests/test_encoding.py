"""Output in an encoding without ✓, → or emoji (cp1252, cp850, ASCII): plain characters, never a crash."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import DATA, ROOT
from rich.table import Table
from rich.text import Text

from deckstat.cli.terminal import PlainCharacters, plain_text
from deckstat.i18n import language

DECK = DATA / "wankul" / "sample_deck.csv"
V2 = DATA / "wankul" / "sample_deck_v2.csv"
ENCODINGS = ["cp1252", "cp850", "ascii"]
#: A card name no code page of Western Europe can write.
FAR_NAME = "ドラゴン😀"


def deckstat_in(encoding: str, *args: object) -> tuple[int, str, str]:
    """Run the ``deckstat`` command with stdout and stderr in ``encoding``; return its exit code and both outputs.

    The outputs are decoded strictly: a character the encoding cannot hold would fail here.
    """
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONUTF8", "PYTHONIOENCODING")}
    env["PYTHONIOENCODING"] = encoding
    done = subprocess.run([sys.executable, "-m", "deckstat", *map(str, args)], capture_output=True, env=env,
                          cwd=ROOT, check=False, timeout=300)
    out, err = done.stdout.decode(encoding), done.stderr.decode(encoding)
    assert "Traceback" not in err, err
    return done.returncode, out, err


@pytest.fixture(scope="module")
def far_deck(tmp_path_factory) -> Path:
    """The sample deck with two cards renamed « Épée » and a name in Japanese with an emoji."""
    rows = list(csv.reader(DECK.read_text(encoding="utf-8").splitlines()))
    others = [i for i, row in enumerate(rows) if i and row[2] != "Terrain"]
    rows[others[0]][0], rows[others[1]][0] = "Épée", FAR_NAME
    path = tmp_path_factory.mktemp("decks") / "lointain.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    return path


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_ratio_writes_its_marks_in_plain_characters(encoding):
    code, out, _ = deckstat_in(encoding, "ratio", DECK, "-g", "wankul", "--range", "10-11", "--turns", "0",
                               "--target", "0.9", "--seed", "1", "--wide")
    assert code == 0
    assert "P(Terrain>=3" in out  # ≥
    assert " yes " in out  # a legal count: ✓
    assert "< recommended" in out  # ◀
    # Columns stay aligned: every row of the table is as wide as its border.
    rows = [line for line in out.splitlines() if line.startswith("|")]
    assert rows and len({len(line) for line in rows}) == 1


def test_ratio_in_french_says_oui():
    code, out, _ = deckstat_in("cp1252", "ratio", DECK, "-g", "wankul", "--range", "10-11", "--turns", "0",
                               "--seed", "1", "--lang", "fr")
    assert code == 0 and " oui " in out


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_compare_writes_arrows_and_names(encoding):
    code, out, _ = deckstat_in(encoding, "compare", DECK, V2, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0-1")
    assert code == 0
    assert "sample_deck.csv -> sample_deck_v2.csv:" in out
    # cp1252 and cp850 have é; ASCII writes the letter without its accent.
    assert ("Yeti en Vacances" if encoding == "ascii" else "Yéti en Vacances") in out


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])  # cp850 lacks no character cp1252 has that they write
def test_odds_validate_and_games_show_run(encoding):
    code, out, _ = deckstat_in(encoding, "odds", DECK, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0-2")
    assert code == 0 and "P(Terrain>=1)" in out and "91.7%" in out
    code, out, _ = deckstat_in(encoding, "validate", DATA / "wankul" / "illegal_deck.csv", "-g", "wankul")
    assert code == 1 and "not legal" in out and "Capitaine Baguette" in out
    code, out, _ = deckstat_in(encoding, "games", "show", "wankul")
    assert code == 0 and "Wankul" in out


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_an_error_naming_a_far_card_is_one_line(encoding, tmp_path):
    decklist = tmp_path / "liste.txt"
    decklist.write_text(f"2 {FAR_NAME}\n", encoding="utf-8")
    code, out, err = deckstat_in(encoding, "validate", decklist, "-g", "wankul", "--pool", DATA / "wankul" / "pool.csv")
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "line 1" in lines[0]
    assert "unknown card '?" in lines[0]


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_csv_and_json_with_far_names(encoding, far_deck):
    common = ["compare", DECK, far_deck, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0"]
    if encoding == "cp1252":
        code, out, _ = deckstat_in(encoding, *common)
        assert code == 0 and "Épée added" in out and "????? added" in out
    code, out, _ = deckstat_in(encoding, *common, "--format", "csv", "--table", "cards")
    assert code == 0
    names = {row["name"] for row in csv.DictReader(out.splitlines())}
    assert ("Epee" if encoding == "ascii" else "Épée") in names and "?????" in names
    # JSON escapes what the encoding lacks: the same document, every name intact.
    code, out, _ = deckstat_in(encoding, *common, "--format", "json")
    assert code == 0
    assert {"Épée", FAR_NAME} <= {row["name"] for row in json.loads(out)["cards"]}


def test_a_sheet_is_utf8_whatever_the_terminal(far_deck):
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    done = subprocess.run([sys.executable, "-m", "deckstat", "compare", str(DECK), str(far_deck), "-g", "wankul",
                           "-e", "Terrain>=1", "--turns", "0", "--format", "csv", "--table", "cards", "--excel",
                           "--lang", "fr"], capture_output=True, env=env, cwd=ROOT, check=True, timeout=300)
    text = done.stdout.decode("utf-8-sig")
    assert "Épée" in text and FAR_NAME in text


@pytest.mark.parametrize(("encoding", "text", "expected"), [
    ("cp1252", "A → B ≥ 3 ≈ 2 ± 1 « 87,3\u00a0% » — ✓ ✗ ◀ ★", "A -> B >= 3 ~ 2 ± 1 « 87,3\u00a0% » — v x < *"),
    ("cp850", "A → B — ±1 «é»", "A -> B - ±1 «é»"),
    ("ascii", "Épée → ±1 « x » 87,3\u00a0%", "Epee -> +/-1 \" x \" 87,3 %"),
    ("utf-8", "✓ → 😀", "✓ → 😀"),
])
def test_plain_text_keeps_what_the_encoding_has(encoding, text, expected):
    assert plain_text(text, encoding) == expected


def test_tables_are_rewritten_before_they_are_measured():
    table = Table()
    table.add_column(Text("P(A≥2)"))
    table.add_column(Text("legal"))
    table.add_row(Text("50% ◀"), Text("✓"))
    with language("fr"):
        rewritten = PlainCharacters("cp1252").rewrite(table)
    assert [c.header.plain for c in rewritten.columns] == ["P(A>=2)", "legal"]
    assert [c.plain for column in rewritten.columns for c in column.cells] == ["50% <", "oui"]
    assert next(iter(table.columns[1].cells)).plain == "✓"  # the table itself is left as it was
