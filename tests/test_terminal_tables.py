"""Tables laid out for the terminal's width: every command at 80, 100 and 140 columns, in English and in French.

What a player reads must fit the width it is printed in: no table line
longer than the width, no number or mark split across lines, and any column
left out named under the table (``--wide`` and ``--columns`` show it). The
sentences above and below the tables are one line each in a pipe (a terminal
wraps them at spaces) and are left out of the width check.
"""

from __future__ import annotations

import io
import re
import textwrap

import pandas as pd
import pytest
from helpers import DATA, SHARED_CARDDATA, assert_user_error, ok, run
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console

import deckstat
from deckstat.cli import layout as layout_module
from deckstat.cli import options
from deckstat.cli.layout import COMPACT, Column, Grid, Layout, choose, lay_out, pick_columns, pieces, wrap
from deckstat.errors import DeckstatError
from deckstat.i18n import language
from deckstat.present.format import BOTH_SEATS, merge_alike_seats

WANKUL = DATA / "wankul" / "sample_deck.csv"
WANKUL_V2 = DATA / "wankul" / "sample_deck_v2.csv"
ILLEGAL = DATA / "wankul" / "illegal_deck.csv"
WIDTHS = (80, 100, 140)
LANGS = ("en", "fr")

#: A Duel Masters deck with card names as long as the real ones ("Gray Balloon, Shadow of Greed"), invented.
LONG_NAMES = [
    ("Armored Decimator Valkaizer of the Burning Sun", 4, "Créature", "Feu", 5, 1),
    ("Gray Shadow Balloon, Whisperer of Forgotten Greed", 4, "Créature", "Ténèbres", 3, 0),
    ("Masked Horror, Shadow of Unending Scorn", 4, "Créature", "Ténèbres", 5, 0),
    ("Super Explosive Volcanodon of the Molten Depths", 4, "Créature", "Feu", 4, 0),
    ("Deadly Fighter Braid Claw", 4, "Créature", "Feu", 1, 0),
    ("Writhing Bone Ghoul", 4, "Créature", "Ténèbres", 2, 1),
    ("Tornado Flame", 4, "Sort", "Feu", 5, 1),
    ("Immortal Baron, Vorg", 4, "Créature", "Feu", 2, 0),
    ("Skeleton Soldier, the Defiled", 4, "Créature", "Ténèbres", 4, 0),
    ("Marrow Ooze, the Twister", 4, "Créature", "Ténèbres", 1, 1),
]


@pytest.fixture(scope="module")
def long_names(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dm")
    path = folder / "long_names.csv"
    rows = ["name,count,type,civilization,cost,shield_trigger"]
    rows += [f'"{name}",{count},{kind},{civ},{cost},{trigger}' for name, count, kind, civ, cost, trigger in LONG_NAMES]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


#: Every command's text output and its variants: zones, seats, quick mode, known cards, Duel Masters shields.
COMMANDS = {
    "validate": ["validate", ILLEGAL, "-g", "wankul"],
    "odds": ["odds", WANKUL, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0-6"],
    "odds events": ["odds", WANKUL, "-g", "wankul", "-e", "Terrain>=1", "-e", "[cost<=1]>=2", "-e", "Terrain>=2",
                    "--turns", "0-4", "--simulate", "--trials", "2000", "--seed", "3"],
    "odds quick": ["odds", "--cards", "50", "--group", "Terrain=12", "-e", "Terrain>=1", "--turns", "0-3"],
    "odds seat": ["odds", "{dm}", "-g", "duel-masters", "-e", "[civilization=Feu]>=2", "-e", "[cost<=2]>=1",
                  "--turns", "0-5", "--simulate", "--trials", "2000", "--seed", "2"],
    "odds shields": ["odds", "{dm}", "-g", "duel-masters", "--zone", "set_aside", "-e", "[shield_trigger=1]>=1"],
    "odds known": ["odds", WANKUL, "-g", "wankul", "-e", "Terrain>=2", "--known", "Terrain=1, other=4", "--draws",
                   "1-3"],
    "odds broken": ["odds", "{dm}", "-g", "duel-masters", "--zone", "set_aside", "-e", "[shield_trigger=1]>=1",
                    "--broken", "2"],
    "when": ["when", "{dm}", "-g", "duel-masters", "-e", "[shield_trigger=1]>=1", "-e", "[cost<=2]>=2",
             "--max-turn", "4", "--simulate", "--trials", "2000", "--seed", "2"],
    "curve": ["curve", "{dm}", "-g", "duel-masters", "--turns", "1-10", "--trials", "2000", "--seed", "1"],
    "curve wankul": ["curve", WANKUL, "-g", "wankul", "--card", "Le Grenier Hanté", "--card", "Robot Camembert",
                     "--turns", "1-10", "--trials", "2000", "--seed", "1"],
    "mulligan": ["mulligan", WANKUL, "-g", "wankul", "--turns", "0-3", "--seat", "both"],
    "mulligan quick": ["mulligan", "--cards", "50", "--group", "Terrain=12", "-g", "wankul", "--mulligan-rule",
                       "london", "--trials", "2000", "--seed", "1"],
    "mulligan hand": ["mulligan", WANKUL, "-g", "wankul", "--hand", "Terrain=1, other=4", "-e", "Terrain>=2",
                      "--by-turn", "2", "--seat", "both"],
    "mulligan best": ["mulligan", WANKUL, "-g", "wankul", "--best", "-e", "Terrain>=2", "--by-turn", "1"],
    "deckout": ["deckout", WANKUL, "-g", "wankul", "--trials", "2000", "--seed", "1"],
    "deckout dm": ["deckout", "{dm}", "-g", "duel-masters"],
    "ratio": ["ratio", WANKUL, "-g", "wankul", "--range", "9-12", "--target", "0.95", "--trials", "500", "--seed",
              "1"],
    "ratio simulated": ["ratio", WANKUL, "-g", "wankul", "--range", "9-11", "--simulate", "--trials", "2000",
                        "--seed", "1", "--target", "0.9"],
    "ratio shields": ["ratio", DATA / "duel-masters" / "sample_deck.csv", "-g", "duel-masters", "--group",
                      "[shield_trigger=1]", "--zone", "shields", "--range", "6-10", "--target", "0.85"],
    "compare": ["compare", WANKUL, WANKUL_V2, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0-3"],
    "compare simulated": ["compare", WANKUL, WANKUL_V2, ILLEGAL, "-g", "wankul", "-e", "Terrain>=1", "-e",
                          "Terrain>=2", "--turns", "0-2", "--simulate", "--trials", "2000", "--seed", "2",
                          "--deckout", "--ratio", "9-11"],
    "games": ["games"],
    "games show": ["games", "show", "duel-masters"],
}

#: A number or a mark that a line break split from its own: a cell that starts with what ends a number.
_SPLIT_START = re.compile(r"^(%|±|pp\b|pts\b|◀|★|\])")
_SPLIT_END = re.compile(r"(±|\[|[\d,.]\u00a0?)$")


def _args(name: str, dm) -> list[str]:
    return [str(dm) if a == "{dm}" else str(a) for a in COMMANDS[name]]


_CACHE: dict = {}


def _printed(args: list[str], lang: str, width: int | None, monkeypatch) -> tuple[str, list[str]]:
    """What a command prints at ``width`` (None: ``--wide``) in ``lang``, and the sentences among it.

    The command runs once per language: what it prints is laid out at every width of the test and with
    ``--wide``, each into its own console, as a terminal of that width would show it.
    """
    key = (tuple(args), lang)
    if key not in _CACHE:
        widths = (*WIDTHS, None)
        buffers = {w: io.StringIO() for w in widths}
        sentences: list[str] = []
        real_items, real_text = options.print_items, options.print_text

        def recording(console, text):
            sentences.extend(str(text).split("\n"))
            real_text(console, text)

        def at_every_width(build):
            for w in widths:
                console = Console(file=buffers[w], width=w or 100_000, markup=False, emoji=False, highlight=False,
                                  soft_wrap=False)
                monkeypatch.setattr(options, "layout", lambda w=w: Layout(width=w))
                monkeypatch.setattr(options, "stdout", lambda console=console: console)
                real_items(build)

        for module in ("deckstat.cli.options", "deckstat.cli.commands", "deckstat.cli.batch"):
            monkeypatch.setattr(f"{module}.print_text", recording, raising=False)
            monkeypatch.setattr(f"{module}.print_items", at_every_width, raising=False)
        result = run(*args, "--lang", lang, *(["-q"] if _quiet(args) else []))
        monkeypatch.undo()
        assert result.exit_code in (0, 1), result.output
        _CACHE[key] = {w: (buffers[w].getvalue(), sentences) for w in widths}
    return _CACHE[key][width]


def _quiet(args: list[str]) -> bool:
    return args[0] not in ("validate", "games")


def _table_lines(stdout: str, sentences: list[str]) -> list[str]:
    """The lines the layout wrote: tables, their parts and the lines under them (not the command's sentences)."""
    said = set(sentences)
    return [line for line in stdout.splitlines() if line not in said and line.strip()]


def _cells(line: str) -> list[str]:
    """The cells of a table line: between box lines, or between runs of two spaces (tables without a box)."""
    if any(c in line for c in "│┃"):
        return [c.strip() for c in re.split(r"[│┃]", line)]
    return [c.strip() for c in re.split(r" {2,}", line)]


def _numbers(lines: list[str]) -> set[str]:
    return set(re.findall(r"\d+(?:[.,]\d+)?(?:\u00a0?%)", "\n".join(lines)))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_table_fits_the_width_whole(name, width, lang, long_names, monkeypatch):
    args = [a for a in _args(name, long_names) if a]
    stdout, sentences = _printed(args, lang, width, monkeypatch)
    lines = _table_lines(stdout, sentences)
    assert lines, stdout
    for line in lines:
        assert cell_len(line) <= width, f"{cell_len(line)} > {width}: {line!r}"
        for cell in _cells(line):
            assert not _SPLIT_START.search(cell), f"a number or a mark split across lines: {line!r}"
    for upper, lower in zip(lines, lines[1:]):
        # A number cut at its end: a digit or comma ending one line, its "%" starting the next in the same place.
        for match in re.finditer(r"\d\u00a0?$", upper):
            column = cell_len(upper[:match.end()])
            assert not lower[column:column + 2].lstrip().startswith("%"), (upper, lower)
    # What the width leaves out is named under the table; --wide shows it.
    wide, wide_sentences = _printed(args, lang, None, monkeypatch)
    missing = _numbers(_table_lines(wide, wide_sentences)) - _numbers(lines)
    dropped = {"en": "not shown for the width", "fr": "non montrées faute de largeur"}[lang]
    if missing:
        assert dropped in " ".join(lines), f"{sorted(missing)[:5]} left out without a word"


@pytest.mark.parametrize("lang", LANGS)
def test_the_columns_are_the_same_in_both_languages(lang, monkeypatch):
    # The choice of columns is made on both languages' widths: the same numbers, whatever the language.
    args = [str(a) for a in COMMANDS["ratio"]]
    english, _ = _printed(args, "en", 80, monkeypatch)
    french, _ = _printed(args, "fr", 80, monkeypatch)
    as_numbers = sorted(float(x.replace(",", ".").replace("\u00a0", "").rstrip("%")) for x in _numbers(
        [english if lang == "en" else french]))
    other = sorted(float(x.replace(",", ".").replace("\u00a0", "").rstrip("%")) for x in _numbers(
        [french if lang == "en" else english]))
    assert as_numbers == other


def test_real_duel_masters_decks_fit(tmp_path, monkeypatch):
    decklists = SHARED_CARDDATA / "dm_decklists_jasfreaq.csv"
    if not decklists.exists():
        pytest.skip("no real card data here")
    rows = pd.read_csv(decklists)
    deck = rows[rows["deck_name"] == rows["deck_name"].iloc[0]]
    path = tmp_path / "real.csv"
    deck.rename(columns={"card_name": "name", "quantity": "count", "civilizations": "civilization"})[
        ["name", "count", "type", "civilization", "cost", "shield_trigger"]].to_csv(path, index=False)
    for width in (80, 100):
        monkeypatch.setenv("COLUMNS", str(width))
        out = ok(run("curve", path, "-g", "duel-masters", "--turns", "1-10", "--trials", "2000", "--seed", "1", "-q",
                     "--lang", "fr"))
        table = [line for line in out.splitlines() if re.search(r"\d,\d  ", line)]
        assert table and all(cell_len(line) <= width for line in table)


def test_wide_shows_every_column_and_columns_picks_them(monkeypatch):
    # $COLUMNS, as a terminal of that width sets it (a pipe without it: 80).
    monkeypatch.setenv("COLUMNS", "80")
    args = ["ratio", WANKUL, "-g", "wankul", "--range", "9-11", "--trials", "500", "--seed", "1"]
    out = ok(run(*args))
    assert all(cell_len(line) <= 80 for line in out.splitlines() if any(c in line for c in "│┃━"))
    narrow = " ".join(out.split())
    assert "not shown for the width: P(Terrain in hand)" in narrow and "mulligan rate" in narrow
    wide = ok(run(*args, "--wide"))
    assert "mulligan" in wide and "deck runs out" in wide and max(map(cell_len, wide.splitlines())) > 80
    # By the --format csv name, by the header in English, by the header in French; row labels come with them.
    for pick in ("mulligan_rate", "mulligan rate", "taux de mulligan"):
        picked = ok(run(*args, "--columns", pick))
        header = [line for line in picked.splitlines() if "┃" in line]
        assert "mulligan" in " ".join(header) and "Terrain" in " ".join(header)
        assert "turn 0" not in " ".join(header) and "not shown" not in picked
    # A header holding a comma is one name.
    picked = ok(run(*args, "--columns", "deck runs out (mean turn, simulated),p_flood_in_hand"))
    assert "≈" in picked and "Terrain≥3" in picked


def test_an_unknown_column_is_one_line_naming_the_closest(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    args = ["ratio", WANKUL, "-g", "wankul", "--range", "9-11", "--trials", "500", "--seed", "1"]
    assert_user_error(run(*args, "--columns", "mulligan_rat"), "mulligan_rat", "did you mean 'mulligan_rate'?")
    assert_user_error(run(*args, "--columns", "p_flood", "--lang", "fr"), "p_flood", "p_flood_in_hand")
    assert_user_error(run(*args, "--wide", "--format", "csv"), "--wide", "--format csv")
    assert_user_error(run(*args, "--columns", "legal", "--format", "json"), "--columns", "--format json")


# ----- the layout itself -----

def _grid(widths: list[int], keys: int = 1, rows: int = 3, text: tuple[int, ...] = ()) -> Grid:
    grid = Grid([])
    for index, width in enumerate(widths):
        cells = [("word " * (width // 5 + 1))[:width].strip() if index in text else f"{index}" * width
                 for _ in range(rows)]
        grid.add(f"h{index}", cells, key=index < keys, text=index in text, rank=0 if index < keys else index,
                 names=(f"c{index}",))
    return grid


def _render(shown, width: int = 200) -> list[str]:
    console = Console(file=io.StringIO(), width=width, markup=False, emoji=False, highlight=False)
    for item in shown:
        console.print(item, soft_wrap=not hasattr(item, "columns"))
    return console.file.getvalue().splitlines()


@pytest.mark.parametrize("style", ["boxed", "compact"])
@pytest.mark.parametrize("n_columns", [1, 2, 5, 9])
def test_the_width_a_style_takes_is_the_width_rich_draws(style, n_columns):
    grid = _grid([3 + i for i in range(n_columns)], keys=0)
    chosen = layout_module.BOXED if style == "boxed" else COMPACT
    table = layout_module._table(grid, list(range(n_columns)), chosen, False, None)
    drawn = max(cell_len(line) for line in _render([table]))
    assert drawn == sum(3 + i for i in range(n_columns)) + chosen.overhead(n_columns)


@settings(max_examples=60, deadline=None)
@given(widths=st.lists(st.integers(1, 30), min_size=2, max_size=9), width=st.integers(40, 140),
       n_text=st.integers(0, 2))
def test_a_table_fits_any_width_its_row_labels_fit(widths, width, n_text):
    text = tuple(range(1, 1 + min(n_text, len(widths) - 1)))
    grid = _grid(widths, keys=1, text=text)
    lines = _render(lay_out({"en": grid}, "en", Layout(width=width)), width=100_000)
    # Nothing is ever cut short: every number is whole on a line, or named as left out.
    assert "…" not in "\n".join(lines)
    for column in grid.columns:
        if not column.text:
            assert any(column.cells[0] in line for line in lines) or "not shown" in "\n".join(lines)
    # Whenever the row labels and any one column fit, every line fits.
    least = [layout_module._least(c, False) for c in grid.columns]
    if all(least[0] + w + COMPACT.overhead(2) <= width for w in least[1:]):
        assert all(cell_len(line) <= width for line in lines), (widths, width)


def test_columns_go_least_useful_first_and_tables_split_rather_than_lose_answers():
    grid = _grid([4, 10, 10, 10, 10, 10], keys=1)  # ranks 1..5: the last column is the least useful
    parts, style, _, dropped, _ = choose([grid], 40)
    assert dropped == [5, 4] and parts == [[0, 1, 2, 3]] and style is COMPACT  # 4 + 3 × 10 + 3 × 2 spaces
    answers = Grid([Column("turn", ["0"], key=True)] + [Column(f"e{i}", ["87.34% ± 0.07%"], block=f"e{i // 2}")
                                                         for i in range(6)])
    parts, style, _, dropped, _ = choose([answers], 50)
    assert dropped == [] and style is COMPACT
    assert parts == [[0, 1, 2], [0, 3, 4], [0, 5, 6]]  # every answer shown, each event's columns together


def test_text_wraps_at_spaces_never_inside_a_number():
    assert pieces("P(Terrain>=1) 93,8\u00a0% ± 0,1\u00a0% [92,1\u00a0% ; 95,0\u00a0%] +3,6\u00a0pts") == [
        "P(Terrain>=1)", "93,8\u00a0% ± 0,1\u00a0%", "[92,1\u00a0% ; 95,0\u00a0%]", "+3,6\u00a0pts"]
    assert pieces("+3.65 pp < 0.1%") == ["+3.65 pp", "< 0.1%"]
    text = "recommended: 12 Terrain cards, the smallest legal count with P(Terrain>=1) ≥ 95.0% (95.41% ± 0.09%)"
    for width in range(16, 60):  # "(95.41% ± 0.09%)" is 16 cells
        lines = wrap(text, width)
        assert " ".join(lines) == text
        assert all(cell_len(line) <= width for line in lines)
        assert any("95.41% ± 0.09%" in line for line in lines)


def test_columns_are_picked_by_identifier_or_header_in_either_language():
    with language("en"):
        en = Grid([Column("turn", ["0"], names=("turn",), key=True),
                   Column("mulligan\nrate", ["31.1%"], names=("mulligan_rate",))])
    with language("fr"):
        fr = Grid([Column("tour", ["0"], names=("turn",), key=True),
                   Column("taux de\nmulligan", ["31,1\u00a0%"], names=("mulligan_rate",))])
    tables = [{"en": en, "fr": fr}]
    for name in ("mulligan_rate", "Mulligan rate", "taux de mulligan", "MULLIGAN-RATE"):
        assert pick_columns(tables, [name]) == [[1]]
    with pytest.raises(DeckstatError, match="'mulligan_rat'.*did you mean 'mulligan_rate'"):
        pick_columns(tables, ["mulligan_rat"])


# ----- seats shown once: the one decision the tables and the figures share -----

def test_seats_merge_only_when_their_numbers_are_the_same():
    deck = deckstat.load_deck(WANKUL)
    exact = deckstat.odds(deck, "wankul", "Terrain>=1", turns=range(4)).table
    assert set(merge_alike_seats(exact, ["p", "ci_low", "ci_high"])["seat"]) == {BOTH_SEATS}
    # Simulated from the same deals, the seats' counts are the same games: merged too.
    simulated = deckstat.odds(deck, "wankul", "Terrain>=1", turns=range(4), method="simulate", n_trials=4000,
                              rng=1).table
    assert set(merge_alike_seats(simulated, ["p", "ci_low", "ci_high"])["seat"]) == {BOTH_SEATS}
    # Duel Masters' first player skips the first draw: never merged.
    dm = deckstat.odds(deckstat.load_deck(DATA / "duel-masters" / "sample_deck.csv"), "duel-masters",
                       "[cost<=2]>=1", turns=range(4)).table
    assert set(merge_alike_seats(dm, ["p"])["seat"]) == {"first", "second"}
    # Close is not the same: a difference in the last bit keeps both seats.
    nudged = exact.copy()
    nudged.loc[nudged["seat"] == "second", "p"] = nudged.loc[nudged["seat"] == "second", "p"].map(
        lambda p: float(pd.Series([p]).add(1e-15).iloc[0]))
    assert set(merge_alike_seats(nudged, ["p"])["seat"]) == {"first", "second"}
    # The tidy frames keep a row per seat: merging is how a table or a figure shows them.
    assert set(exact["seat"]) == {"first", "second"}


def test_a_target_is_shown_once_only_when_its_curve_and_summary_both_agree():
    from deckstat.cli.tables import curve_table

    seats = ["first", "first", "second", "second"] * 2
    p = [0.1, 0.2, 0.1, 0.2, 0.3, 0.4, 0.3, 0.5]  # B's curves differ at turn 2
    frame = pd.DataFrame({"target": ["A"] * 4 + ["B"] * 4, "seat": seats, "turn": [1, 2] * 4, "p": p, "ci_low": p,
                          "ci_high": p, "n_trials": [None] * 8, "method": ["exact"] * 8})
    summary = pd.DataFrame({"target": ["A", "A", "B", "B"], "seat": ["first", "second"] * 2,
                            "mean_turn": [1.5, 1.5, 1.2, 1.2], "p_never": [0.8, 0.8, 0.6, 0.6],
                            "n_trials": [None] * 4, "method": ["exact"] * 4})
    grid = curve_table(frame, summary)
    cells = {column.header: column.cells for column in grid.columns}
    assert cells["card or group"] == ["A", "B", "B"]
    assert cells["seat"] == ["both (same odds)", "first", "second"]
    assert cells["t1"] == ["10.0", "30.0", "30.0"] and cells["t2"] == ["20.0", "40.0", "50.0"]


def test_text_columns_must_match_too():
    policy = pd.DataFrame({"seat": ["first", "second"], "hand": ["Terrain=1, other=4", "Terrain=2, other=3"],
                           "p_keep": [0.5, 0.5]})
    assert set(merge_alike_seats(policy, ["hand", "p_keep"], order=())["seat"]) == {"first", "second"}
    assert set(merge_alike_seats(policy.assign(hand="x"), ["hand", "p_keep"], order=())["seat"]) == {BOTH_SEATS}


def test_the_figures_decide_with_the_same_function():
    from deckstat.present import plots

    assert plots._merge_identical_seats is merge_alike_seats


def test_tables_show_alike_seats_once_and_say_why(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    out = ok(run("odds", WANKUL, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0-2"))
    assert "both players (same odds)" in out and "first player" not in out
    assert "same odds: here the first and the second player's numbers are the same" in " ".join(out.split())
    dm = ok(run("odds", DATA / "duel-masters" / "sample_deck.csv", "-g", "duel-masters", "-e", "[cost<=2]>=1"))
    assert "first player" in dm and "second player" in dm and "same odds" not in dm


# ----- sentences in the language, and what they explain -----

def test_deckout_says_why_the_first_player_runs_out_first(tmp_path):
    jdg = " ".join(ok(run("deckout", DATA / "jdg" / "sample_deck.csv", "-g", "jdg")).split())
    assert "both players run out on turn 25" in jdg
    assert "P(first player runs out first) = 100%" in jdg
    assert "the first player draws first in each round: by the rules, the first player runs out first" in jdg
    french = " ".join(ok(run("deckout", DATA / "jdg" / "sample_deck.csv", "-g", "jdg", "--lang", "fr")).split())
    assert "selon les règles, le premier joueur vide son deck le premier dans toutes les parties" in french
    licum = " ".join(ok(run("deckout", DATA / "licum" / "sample_deck.csv", "-g", "licum")).split())
    assert "both run out at the same moment in every game" in licum
    # Decks of different sizes: the rules do not fix the order, and nothing is claimed.
    smaller = tmp_path / "smaller.csv"
    smaller.write_text("name,count,type\nPlaine,9,Terrain\nMime,36,Personnage\n", encoding="utf-8")
    other = ok(run("deckout", WANKUL, "-g", "wankul", "--opponent", smaller, "--no-drought"))
    assert "by the rules" not in other


def test_deckout_order_holds_in_every_simulated_game():
    # The drought rule read "together" keeps the order: what the sentence claims, checked on the races.
    result = deckstat.deckout(deckstat.load_deck(WANKUL), "wankul", n_trials=4000, rng=3)
    assert result.provenance["order_by_rules"] == "first"
    assert result.summary["p_runs_out_first"].iloc[0] == 1.0
    other = deckstat.deckout(deckstat.load_deck(WANKUL), "wankul", n_trials=500, rng=3, drought_order="active_first")
    assert other.provenance["order_by_rules"] is None


def test_compare_says_exact_difference_and_keeps_p_values_for_simulations():
    exact = ok(run("compare", WANKUL, WANKUL_V2, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0-1"))
    assert "(exact difference)" in exact and "p-value ┃" not in exact and "│   exact │" not in exact
    assert "+3.65 pp" in exact
    simulated = ok(run("compare", WANKUL, WANKUL_V2, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0-1",
                       "--simulate", "--trials", "2000", "--seed", "1", "--wide"))
    assert "[95% interval]" in simulated and "p-value" in simulated and "exact" not in simulated.split("A =")[1]
    french = ok(run("compare", WANKUL, WANKUL_V2, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0-1", "--lang",
                    "fr"))
    assert "(écart exact)" in french and "valeur p ┃" not in french


@pytest.mark.parametrize("zone", ["shields", "set_aside"])
def test_shield_tables_keep_only_what_means_something_for_shields(zone):
    args = ["ratio", DATA / "duel-masters" / "sample_deck.csv", "-g", "duel-masters", "--group", "[shield_trigger=1]",
            "--zone", zone, "--range", "6-8", "--wide"]
    english = ok(run(*args))
    for meaningless in ("in hand", "first [shield_trigger=1]", "deck runs out"):
        assert meaningless not in english
    assert "in the shields" in english and "legal" in english
    french = ok(run(*args, "--lang", "fr"))
    assert "parmi les boucliers" in french and "shields" not in french.replace("shield_trigger", "")


#: English words that French output must not show (identifiers of options, rules and seats).
ENGLISH_WORDS = re.compile(r"\b(bottom|london|hold|on_draw|together|printing|Generic|other=|shields|first|"
                           r"exact difference|same odds|player|trials)\b")


@pytest.mark.parametrize(("args", "allowed"), [
    (["odds", "--cards", "50", "--group", "Terrain=12", "-e", "Terrain>=1", "--turns", "0-1"], ()),
    (["mulligan", WANKUL, "-g", "wankul", "--turns", "0-1"], ()),
    (["curve", WANKUL, "-g", "wankul", "--card", "Robot Camembert", "--turns", "1-3", "--trials", "2000", "--seed",
      "1"], ()),
    (["deckout", WANKUL, "-g", "wankul", "--trials", "2000", "--seed", "1"], ()),
    (["validate", ILLEGAL, "-g", "wankul", "--copies-by", "name"], ()),
    (["odds", DATA / "duel-masters" / "sample_deck.csv", "-g", "duel-masters", "--zone", "set_aside", "-e",
      "[shield_trigger=1]>=1"], ("shield_trigger",)),
    (["games"], ()),
])
def test_french_output_has_no_english_words(args, allowed):
    result = run(*args, "--lang", "fr", "--wide", *(["-q"] if args[0] not in ("validate", "games") else []))
    assert result.exit_code in (0, 1), result.output  # validate: 1, the deck breaks a rule
    out = result.stdout
    for word in allowed:
        out = out.replace(word, "")
    # File names and the --seed to type again are the user's own words.
    out = out.replace(str(WANKUL), "").replace(str(ILLEGAL), "")
    assert not ENGLISH_WORDS.search(out), ENGLISH_WORDS.search(out)


def test_the_progress_bar_shows_events_as_written():
    from deckstat.cli.progress import _Listener

    console = Console(file=io.StringIO(), width=160, force_terminal=True, color_system=None)
    listener = _Listener(console, delay=60)
    bar = listener("odds Terrain>=1 and [cost<=1]>=2 (seen)", 1000, "trials")
    bar.advance(10)
    console.print(listener.display.get_renderable())
    listener.close()
    assert "Terrain>=1 and [cost<=1]>=2" in console.file.getvalue()
    with language("fr"):
        console = Console(file=io.StringIO(), width=160, force_terminal=True, color_system=None)
        listener = _Listener(console, delay=60)
        listener("x", 1000, "trials").advance(10)
        console.print(listener.display.get_renderable())
        listener.close()
        assert "parties" in console.file.getvalue()


def test_sentences_wrap_at_spaces_on_a_terminal_and_stay_whole_in_a_pipe(monkeypatch):
    options.use_wide(False)  # what a command line without --wide sets
    text = textwrap.dedent("""\
        recommandé : 12 cartes Terrain, le plus petit nombre légal avec P(Terrain>=1) ≥ 95,0\u00a0% dans la main \
de départ gardée (95,4\u00a0%)""")
    monkeypatch.setenv("COLUMNS", "40")
    terminal = Console(file=io.StringIO(), force_terminal=True, color_system=None, width=40)
    options.print_text(terminal, text)
    lines = terminal.file.getvalue().splitlines()
    assert len(lines) > 1 and all(cell_len(line) <= 40 for line in lines)
    assert " ".join(lines) == text
    pipe = Console(file=io.StringIO(), width=40)
    options.print_text(pipe, text)
    assert pipe.file.getvalue().splitlines() == [text]
