"""Files that hold several decks (``--deck-name``), and one card pool serving the decklists of a comparison."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from helpers import DATA, SHARED_CARDDATA, assert_user_error, ok, ok_json, run, write

import deckstat
from deckstat import DeckstatError, load_deck
from deckstat.batching import load_spec, run_task

# Two Duel Masters decks of 40 cards in one file, as deck builders export them: the rows of each deck side by side.
FIRE = [("Gobelin Chalumeau", 4, "Créature", 0, 2), ("Dragon Crème Brûlée", 4, "Créature", 0, 6),
        ("Lézard Volcan", 4, "Créature", 0, 3), ("Torche Vive", 4, "Sort", 1, 2), ("Salamandre", 4, "Créature", 0, 4),
        ("Brasier", 4, "Sort", 0, 5), ("Cendre", 4, "Créature", 0, 1), ("Fournaise", 4, "Créature", 0, 7),
        ("Étincelle", 4, "Sort", 1, 3), ("Chaudron", 4, "Créature", 0, 5)]
WATER = [("Poisson Lune", 4, "Créature", 0, 2), ("Vague", 4, "Sort", 1, 3), ("Méduse", 4, "Créature", 0, 4),
         ("Corail", 4, "Créature", 0, 1), ("Marée", 4, "Sort", 1, 5), ("Triton", 4, "Créature", 0, 6),
         ("Écume", 4, "Sort", 1, 2), ("Abysse", 4, "Créature", 0, 7), ("Brume", 4, "Sort", 1, 3),
         ("Lagon", 4, "Créature", 0, 3)]
HEADER = "deck_name;Nom;Quantité;Type;shield_trigger;Civilisation;Coût\n"


def rows(deck: str, cards) -> str:
    return "".join(f"{deck};{name};{count};{kind};{trigger};Feu;{cost}\n" for name, count, kind, trigger, cost in cards)


@pytest.fixture
def both(tmp_path) -> Path:
    return write(tmp_path, HEADER + rows("Feu de Shobu", FIRE) + rows("Eau de Kokujo", WATER), name="decks.csv")


@pytest.fixture
def water_alone(tmp_path) -> Path:
    """The water deck in a file of its own: the reference a picked deck must equal."""
    return write(tmp_path, HEADER.replace("deck_name;", "") + "".join(
        f"{name};{count};{kind};{trigger};Feu;{cost}\n" for name, count, kind, trigger, cost in WATER),
        name="water.csv")


def test_deck_name_picks_the_rows_of_one_deck(both, water_alone):
    deck = load_deck(both, deck_name="eau de KOKUJO")  # compared without case or accents
    alone = load_deck(water_alone)
    assert deck.size == 40 and deck.names == alone.names and deck.counts.tolist() == alone.counts.tolist()
    assert "deck_name" not in deck.cards.columns
    assert deck.source == f"{both} [Eau de Kokujo]" and deck.name == "decks.csv [Eau de Kokujo]"
    assert load_deck(both).size == 80


def test_a_card_in_two_decks_of_a_file_is_one_row_per_deck(tmp_path):
    # Not "the same card twice with other attributes": each deck has its own copies of it.
    path = write(tmp_path, "deck_name,name,count,type\nRouge,Forêt,4,Terrain\nRouge,Mime,6,Personnage\n"
                           "Bleu,Forêt,3,Terrain\nBleu,Yéti,7,Personnage\nBleu,Forêt,1,Terrain\n")
    assert load_deck(path).size == 21
    assert load_deck(path, deck_name="Rouge").count("Forêt") == 4
    assert load_deck(path, deck_name="Bleu").count("Forêt") == 4  # its two rows add up


@pytest.mark.parametrize(("name", "words"), [
    ("Kokujo", ["no deck of that name in column 'deck_name'", "'Feu de Shobu', 'Eau de Kokujo'",
                "did you mean 'Eau de Kokujo'?"]),
    ("Eau de Kokujp", ["did you mean 'Eau de Kokujo'?"]),
    ("  ", ["deck_name must be the name of a deck of the file"]),
])
def test_an_unknown_deck_name_lists_the_decks(both, name, words):
    with pytest.raises(DeckstatError) as info:
        load_deck(both, deck_name=name)
    for word in words:
        assert word in str(info.value), str(info.value)


def test_deck_name_on_a_file_of_one_deck_is_refused():
    with pytest.raises(DeckstatError, match="has no column that names decks"):
        load_deck(DATA / "wankul" / "sample_deck.csv", deck_name="mine")


def test_the_several_decks_warning_names_them_and_the_option(both):
    result = run("odds", both, "-g", "duel-masters", "--event", "Sort", "--turns", "0")
    ok(result)
    assert "'Feu de Shobu' (40 cards), 'Eau de Kokujo' (40 cards)" in result.stderr
    assert "--deck-name 'Feu de Shobu'" in result.stderr
    picked = run("odds", both, "-g", "duel-masters", "--event", "Sort", "--turns", "0", "--deck-name", "Feu de Shobu")
    ok(picked)
    assert picked.stderr == ""


def tables_of(result: dict) -> dict[str, list]:
    """The tables of a ``--format json`` result, by name."""
    return {name: rows for name, rows in result.items() if isinstance(rows, list)}


@pytest.mark.parametrize("command", [
    ["odds", "--event", "[shield_trigger]>=1", "--zone", "set_aside"],
    ["when", "--event", "Sort>=2"],
    ["mulligan", "--keep", "Sort>=1", "--mulligan-rule", "london", "--trials", "20000"],
    ["curve", "--card", "Vague", "--turns", "1-3"],
    ["ratio", "--group", "[shield_trigger]", "--range", "16-20", "--zone", "shields", "--target", "0.5"],
    ["deckout"],
])
def test_every_command_reads_the_picked_deck_as_a_file_of_its_own(both, water_alone, command):
    name, *options = command
    common = ["-g", "duel-masters", "--format", "json", "--seed", "3"] if name != "ratio" else \
        ["-g", "duel-masters", "--format", "json"]
    picked = tables_of(ok_json(run(name, both, "--deck-name", "Eau de Kokujo", *options, *common)))
    alone = tables_of(ok_json(run(name, water_alone, *options, *common)))
    assert picked.keys() == alone.keys() and alone
    for table, rows_alone in alone.items():
        # Every column but those that name the deck.
        shown = [{k: v for k, v in r.items() if k not in ("deck", "opponent")} for r in picked[table]]
        assert shown == [{k: v for k, v in r.items() if k not in ("deck", "opponent")} for r in rows_alone], table


def test_validate_and_report_take_a_deck_name(both, tmp_path):
    result = run("validate", both, "-g", "duel-masters", "--deck-name", "Feu de Shobu")
    assert f"{both} [Feu de Shobu] — Duel Masters, 40 cards: legal" in ok(result)
    assert run("validate", both, "-g", "duel-masters").exit_code == 0  # legal, with a warning
    out = tmp_path / "report"
    ok(run("report", both, "-g", "duel-masters", "--deck-name", "Feu de Shobu", "--out", out, "--trials", "2000",
           "--seed", "1", "--quiet"))
    assert "Feu de Shobu" in (out / "report.md").read_text(encoding="utf-8")


def test_the_shields_of_each_deck_of_a_file(both):
    # 4 Étincelle / Torche Vive triggers among 40 cards: 1 - C(32, 5)/C(40, 5) of one among the 5 shields; the
    # water deck has 16.
    shobu = deckstat.odds(load_deck(both, deck_name="Feu de Shobu"), "duel-masters", "[shield_trigger]>=1",
                          zone="set_aside", turns=[0])
    kokujo = deckstat.odds(load_deck(both, deck_name="Eau de Kokujo"), "duel-masters", "[shield_trigger]>=1",
                           zone="set_aside", turns=[0])
    assert shobu.table["p"].iloc[0] == pytest.approx(1 - math.comb(32, 5) / math.comb(40, 5), rel=1e-12)
    assert kokujo.table["p"].iloc[0] == pytest.approx(1 - math.comb(24, 5) / math.comb(40, 5), rel=1e-12)


def test_compare_and_deckout_take_a_name_per_deck(both):
    result = ok_json(run("compare", both, both, "-g", "duel-masters", "--event", "Sort>=1", "--turns", "0",
                         "--deck-name", "Feu de Shobu", "--deck-name", "Eau de Kokujo", "--format", "json"))
    assert {r["deck"] for r in result["odds"]} == {"decks.csv [Feu de Shobu]", "decks.csv [Eau de Kokujo]"}
    # One name serves every file.
    ok(run("compare", both, both, "-g", "duel-masters", "--event", "Sort>=1", "--turns", "0", "--deck-name",
           "Feu de Shobu"))
    assert_user_error(run("compare", both, both, both, "-g", "duel-masters", "--event", "Sort", "--deck-name", "a",
                          "--deck-name", "b"), "--deck-name is given 2 times for 3 decks")
    shown = ok(run("deckout", both, "--opponent", both, "-g", "duel-masters", "--deck-name", "Feu de Shobu",
                   "--deck-name", "Eau de Kokujo"))
    assert "decks.csv [Feu de Shobu] (first player) against" in shown and "[Eau de Kokujo]" in shown


def test_deck_name_errors_on_the_command_line(both):
    assert_user_error(run("odds", both, "-g", "duel-masters", "--event", "Sort", "--deck-name", "Shobu"),
                      "--deck-name 'Shobu'", "did you mean 'Feu de Shobu'?")
    assert_user_error(run("odds", both, "-g", "duel-masters", "--event", "Sort", "--deck-name", "Shobu",
                          "--lang", "fr"), "aucun deck de ce nom", "vouliez-vous dire 'Feu de Shobu'")
    assert_user_error(run("odds", "--cards", "40", "--group", "Sort=10", "--event", "Sort", "--deck-name", "x"),
                      "--deck-name", "--cards")


def test_a_batch_spec_names_the_deck_of_a_file(both, tmp_path):
    spec = write(tmp_path, f'name = "t"\nseed = 1\ntrials = 2000\ngame = "duel-masters"\n\n'
                           f'[decks.fire]\npath = "{both.name}"\ndeck_name = "Feu de Shobu"\n\n'
                           f'[decks.water]\npath = "{both.name}"\ndeck_name = "Eau de Kokujo"\n\n'
                           '[[questions]]\nquestion = "odds"\ndecks = ["fire", "water"]\n'
                           'event = "[shield_trigger]>=1"\nzone = "set_aside"\nturns = "0"\n', name="spec.toml")
    loaded = load_spec(spec)
    results = {task.decks[0].label: run_task(task, task.seed(loaded.seed))["p"].iloc[0] for task in loaded.tasks}
    assert results["fire"] == pytest.approx(1 - math.comb(32, 5) / math.comb(40, 5), rel=1e-12)
    assert results["water"] == pytest.approx(1 - math.comb(24, 5) / math.comb(40, 5), rel=1e-12)
    # A name the file does not hold is refused before any task runs, naming the deck of the spec.
    spec.write_text(spec.read_text(encoding="utf-8").replace("Eau de Kokujo", "Kokujo"), encoding="utf-8")
    line = assert_user_error(run("batch", spec, "--dry-run"), "decks.water", "deck_name 'Kokujo'",
                             "did you mean 'Eau de Kokujo'?")
    assert "spec.toml" in line


@pytest.mark.skipif(not SHARED_CARDDATA.is_dir(), reason="no real card data next to the repository")
def test_real_file_of_two_decks(tmp_path):
    path = SHARED_CARDDATA / "dm_decklists_jasfreaq.csv"
    shobu = load_deck(path, deck_name="Shobu's Fire Deck")
    kokujo = load_deck(path, deck_name="kokujo's darkness deck")
    # The counts the data's README gives: 40 cards each, 2 and 6 shield triggers.
    assert (shobu.size, shobu.count("[shield_trigger]")) == (40, 2)
    assert (kokujo.size, kokujo.count("[shield_trigger]")) == (40, 6)
    assert deckstat.validate(shobu, "duel-masters").legal and deckstat.validate(kokujo, "duel-masters").legal
    p = deckstat.odds(kokujo, "duel-masters", "[shield_trigger]", zone="set_aside", turns=[0]).table["p"].iloc[0]
    assert p == pytest.approx(1 - math.comb(34, 5) / math.comb(40, 5), rel=1e-12)


# --------------------------------------------------------------------------- one pool, decklists and card files


def test_compare_decklists_and_card_files_with_one_pool(tmp_path):
    pool = DATA / "wankul" / "pool.csv"
    decklist = DATA / "wankul" / "decklist.txt"
    csv_deck, v2 = DATA / "wankul" / "sample_deck.csv", DATA / "wankul" / "sample_deck_v2.csv"
    mixed = ok_json(run("compare", decklist, v2, csv_deck, "-g", "wankul", "--event", "Terrain>=1", "--turns", "0-2",
                        "--pool", pool, "--format", "json"))
    apart = deckstat.compare([load_deck(decklist, pool=pool), load_deck(v2), load_deck(csv_deck)], "wankul",
                             "Terrain>=1", turns=range(3))
    assert [r["p"] for r in mixed["odds"]] == apart.odds["p"].tolist()
    # A card file given with a pool is read as it is, in Python too; a pool that is no file is still refused.
    assert load_deck(csv_deck, pool=pool).cards.equals(load_deck(csv_deck).cards)
    assert_user_error(run("odds", csv_deck, "-g", "wankul", "-e", "Terrain", "--pool", tmp_path / "absent.csv"),
                      "absent.csv", "not found")


def test_a_card_file_with_another_suffix_is_told_by_its_first_line(tmp_path):
    pool = DATA / "wankul" / "pool.csv"
    as_data = write(tmp_path, (DATA / "wankul" / "sample_deck.csv").read_text(encoding="utf-8"), name="deck.data")
    assert load_deck(as_data, pool=pool).size == 50
    as_list = write(tmp_path, (DATA / "wankul" / "decklist.txt").read_text(encoding="utf-8"), name="deck.data")
    assert load_deck(as_list, pool=pool).size == 50
    # read_decklist itself still refuses a card file: it was asked for a decklist.
    with pytest.raises(DeckstatError, match="is a card file"):
        deckstat.read_decklist(write(tmp_path, "name,count\nA,1\n", name="x.txt"), pool)
