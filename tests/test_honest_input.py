"""Card files read as written, or refused: encodings, hidden characters in names, numbers, comparisons."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest
from helpers import SHARED_CARDDATA, assert_user_error, error_of, ok, run, write

from deckstat import Deck, DeckstatError, load_deck
from deckstat.cards import collect_notes, count_shape
from deckstat.errors import ExpressionError
from deckstat.schema import canonical_column


def filler(n_cards: int) -> str:
    """Rows of ``n_cards`` distinct one-copy cards, ``Carte 1`` to ``Carte n``."""
    return "".join(f"Carte {i};1;Unité\n" for i in range(1, n_cards + 1))


# --------------------------------------------------------------------------- encodings

def test_utf8_file_with_one_cp1252_line_is_refused_naming_the_line(tmp_path):
    # 20 one-copy cards then a cp1252 row of 31: read as cp1252, "Quantité" would no longer be a count column.
    content = "Nom;Quantité;Type\n".encode() + filler(20).encode() + "Pâte à crêpes;31;Unité\n".encode("cp1252")
    path = write(tmp_path, content)
    message = error_of(path)
    assert "line 22" in message and "UTF-8" in message
    stderr = assert_user_error(run("validate", path, "--game", "pandrea"), "line 22", "UTF-8")
    assert "legal" not in stderr


def test_utf8_with_bom_and_one_cp1252_line_is_refused(tmp_path):
    content = "\ufeffNom;Quantité\nÉlan;2\n".encode() + "Crête;3\n".encode("cp1252")
    assert "line 3" in error_of(write(tmp_path, content))


def test_clean_cp1252_file_is_read_without_a_note(tmp_path):
    # French Excel's "CSV (séparateur: point-virgule)" is cp1252: read right, so nothing is said on any run.
    path = write(tmp_path, "Nom;Quantité;Type\nPâte à crêpes;3;Unité\nŒuf dur;2;Sort\n".encode("cp1252"))
    with collect_notes() as notes:
        deck = load_deck(path)
    assert deck.size == 5
    assert list(deck.cards["name"]) == ["Pâte à crêpes", "Œuf dur"]
    assert notes == [] and deck.notes == ()
    for _ in range(2):
        result = run("odds", path, "--game", "pandrea", "--event", "Unité>=1", "--turns", "0")
        ok(result)
        assert "note:" not in result.stderr


def test_the_french_excel_sample_gives_no_note():
    result = run("validate", Path(__file__).resolve().parents[1] / "data" / "wankul" / "sample_deck_fr.csv",
                 "--game", "wankul")
    ok(result)
    assert result.stderr == ""


@pytest.mark.parametrize(("encoding", "second", "third", "line", "char"), [
    ("mac_roman", "Pâte", "Œuf dur", 3, "‰"),     # Mac â (0x89)
    ("cp850", "Pâte", "Oeuf dur", 3, "ƒ"),        # DOS â (0x83); cp850 has no œ
    ("iso8859_15", "Pate", "Œuf dur", 4, "¼"),    # latin-9 Œ (0xBC)
    ("cp1251", "Pate", "Маг", 4, "Ìàã"),          # Cyrillic
])
def test_a_file_in_another_encoding_gets_a_note_naming_the_line(tmp_path, encoding, second, third, line, char):
    text = f"Nom;Qty;Type\nPoulet;3;Unit\n{second};2;Sort\n{third};1;Sort\nMage;1;Unit\n"
    path = write(tmp_path, text.encode(encoding))
    with collect_notes() as notes:
        deck = load_deck(path)
    assert deck.size == 7
    assert len(notes) == 1 and f"line {line}" in notes[0] and repr(char) in notes[0] and "UTF-8" in notes[0]
    assert deck.notes == tuple(notes)
    result = run("odds", path, "--game", "pandrea", "--event", "Unit>=1", "--turns", "0")
    ok(result)
    assert result.stderr.count("note:") == 1 and f"line {line}" in result.stderr


def test_utf16_file_with_bom_is_read(tmp_path):
    path = write(tmp_path, "Nom;Quantité\nÉlan;2\nCrête;3\n".encode("utf-16"))
    deck = load_deck(path)
    assert deck.size == 5 and list(deck.cards["name"]) == ["Élan", "Crête"]
    assert deck.notes == ()


def test_utf8_file_gives_no_note(tmp_path):
    with collect_notes() as notes:
        load_deck(write(tmp_path, "Nom;Quantité\nÉlan;2\n".encode()))
    assert notes == []


# --------------------------------------------------------------------------- names

def test_zero_width_space_and_soft_hyphen_do_not_split_a_card(tmp_path):
    content = ("Nom;Quantité;Type\nDragon;3;Unité\nDra\u200bgon;1;Unité\nDragon\u00ad;1;Unité\n"
               + filler(25)).encode()
    path = write(tmp_path, content)
    with collect_notes() as notes:
        deck = load_deck(path)
    assert deck.count("Dragon") == 5 and deck.size == 30
    assert list(deck.cards["name"]).count("Dragon") == 1
    assert len(notes) == 1 and "line 3" in notes[0] and "2 names" in notes[0]
    result = run("validate", path, "--game", "pandrea")
    assert result.exit_code == 1, result.output  # at most 3 copies: the 5 dragons break it
    assert "Dragon" in result.stdout


@pytest.mark.parametrize("name", ["Cœur\u00a0de Pâte", "Cœur  de Pâte", "Cœur de\u2060 Pâte", "\ufeffCœur de Pâte",
                                  "Cœur\u200c de\u200d Pâte", "Cœur de Pa\u0302te", "\u202eCœur de Pâte\u202c",
                                  "\u2067Cœur de Pâte\u2069", "Cœur de\u200e Pâte"])
def test_name_spellings_read_as_one_name(tmp_path, name):
    path = write(tmp_path, f"Nom;Quantité\nCœur de Pâte;1\n{name};2\n".encode())
    deck = load_deck(path)
    assert list(deck.cards["name"]) == ["Cœur de Pâte"] and deck.size == 3


def test_right_to_left_override_does_not_hide_a_fourth_copy(tmp_path):
    # "\u202enogarD" shows as "Dragon" but holds another name: it stays "nogarD", in the open.
    path = write(tmp_path, ("Nom;Quantité;Type\nDragon;3;Unité\n\u202enogarD\u202c;1;Unité\n\u202eDragon;1;Unité\n"
                            + filler(24)).encode())
    with collect_notes() as notes:
        deck = load_deck(path)
    assert deck.count("Dragon") == 4 and deck.count("nogarD") == 1
    assert len(notes) == 1 and "line 3" in notes[0]
    result = run("validate", path, "--game", "pandrea")
    assert result.exit_code == 1, result.output
    assert "\u202e" not in result.output and "Dragon" in result.stdout


def test_decklist_line_with_zero_width_space_names_the_pool_card(tmp_path):
    pool = write(tmp_path, "Nom;Type\nDragon;Unité\n".encode(), name="pool.csv")
    decklist = write(tmp_path, "3 Dra\u200bgon\n".encode(), name="deck.txt")
    assert load_deck(decklist, pool=pool).count("Dragon") == 3


def test_from_table_cleans_names():
    deck = Deck.from_table([{"name": "Dra\u200bgon", "count": 2}, {"name": "Dragon", "count": 1}])
    assert list(deck.cards["name"]) == ["Dragon", "Dragon"] and deck.count("Dragon") == 3


# --------------------------------------------------------------------------- columns

@pytest.mark.parametrize("header", ["Quantitée", "Quantity2", "Quantitées", "Exemplairs"])
def test_a_count_column_misspelt_is_refused_not_read_as_one_copy_per_line(tmp_path, header):
    path = write(tmp_path, f"Nom;{header};Type\nA;10;Terrain\nB;41;Personnage\n".encode())
    line = assert_user_error(run("validate", path, "--game", "wankul"), "line 1", repr(header), "'quantité'")
    assert "count of copies" in line


@pytest.mark.parametrize("header", ["Amount", "Qtés", "Nb exemplaires", "Nombre d'exemplaires", "Nb copies",
                                    "Exemplaire(s)", "Nb ex.", "NB. EX", "Nb d'ex.", "Ex", "Ex.", "Exemplaires", "Qt",
                                    "Qté", "Qté :", "Qty", "cnt", "Cnt", "Nbre", "Nbr.", "x", "×", "copies",
                                    "Anzahl", "Stück", "Cantidad"])
def test_other_spellings_of_the_count_are_read(tmp_path, header):
    path = write(tmp_path, f"Nom;{header};Type\nA;10;Terrain\nB;41;Personnage\n".encode())
    assert load_deck(path).size == 51


def test_a_column_of_numbers_not_named_like_a_count_is_an_attribute(tmp_path):
    path = write(tmp_path, "Nom;Coût;Puissance\nA;10;2\nB;4;1\n".encode())
    deck = load_deck(path)
    assert deck.size == 2 and list(deck.cards["cost"]) == [10, 4]


def sample_with_count_header(tmp_path, header: str) -> Path:
    """The Wankul sample deck (50 cards on 24 rows) with its count column headed ``header``."""
    lines = (Path(__file__).resolve().parents[1] / "data" / "wankul" / "sample_deck.csv").read_text(
        encoding="utf-8").splitlines()
    assert lines[0].startswith("name,count,")
    return write(tmp_path, "\n".join([lines[0].replace("count", header, 1), *lines[1:]]) + "\n")


@pytest.mark.parametrize("header", ["Stk", "Pièces", "Possédés", "Nb possédés", "Menge_total", "Owned"])
def test_an_unrecognised_column_that_holds_the_count_is_refused_naming_it(tmp_path, header):
    # Read as an attribute, the 50-card sample would validate as 24 cards, one per row, without a word.
    path = sample_with_count_header(tmp_path, header)
    line = assert_user_error(run("validate", path, "--game", "wankul"), "line 1", f"column {header!r}",
                             "24 cards", "not 50", "'quantité'", "'count'")
    assert "from 1 to 3" in line
    assert_user_error(run("odds", path, "--game", "wankul", "--event", "Terrain", "--lang", "fr"), repr(header),
                      "'quantité'")


def test_a_hash_column_holding_counts_is_refused_and_one_holding_numbers_is_the_collector_number(tmp_path):
    path = sample_with_count_header(tmp_path, "#")
    assert_user_error(run("validate", path, "--game", "wankul"), "column '#'", "'quantité'", "'numéro'")
    numbers = write(tmp_path, "#,name,type\n35,VENDEUR,Personnage\n36,VENDEUR,Personnage\n2,PORTAL,Terrain\n"
                              "7,GOLF,Terrain\n12,RUST,Terrain\n", name="numbers.csv")
    deck = load_deck(numbers)
    assert deck.size == 5 and deck.labels[:2] == ["VENDEUR #35", "VENDEUR #36"]


@pytest.mark.parametrize(("header", "values"), [
    ("Niveau", [1, 2, 3, 2, 1]),         # a word that says what the numbers are
    ("booster_id", [1, 1, 2, 2, 2]),     # an identifier
    ("n_civilizations", [1, 2, 1, 1, 2]),  # a known attribute in the header
    ("Stk", [1, 1, 1, 1, 1]),            # every row one copy: reading it as the count changes nothing
    ("Stk", [0, 1, 2, 1, 0]),            # a 0 is no count
    ("Stk", [1, 2, 3, 4, 5]),            # every row different: an identifier, not copies
    ("Stk", [40, 41, 42, 40, 41]),       # 204 cards: beyond any deck
])
def test_columns_of_numbers_that_are_no_count_are_read_as_attributes(tmp_path, header, values):
    rows = "".join(f"Carte {i},{v},Unité\n" for i, v in enumerate(values))
    deck = load_deck(write(tmp_path, f"name,{header},type\n{rows}"))
    assert deck.size == len(values)


real_data = pytest.mark.skipif(not SHARED_CARDDATA.is_dir(), reason="no real card data next to the repository")


@real_data
@pytest.mark.parametrize("file", sorted(p.name for p in SHARED_CARDDATA.glob("*.csv")) if SHARED_CARDDATA.is_dir()
                         else [])
def test_real_pools_and_decks_cut_from_them_are_never_taken_for_unread_counts(tmp_path, file):
    # Every real pool, and decks of 5 to 60 of its rows without their count column, load as they are.
    with (SHARED_CARDDATA / file).open(encoding="utf-8", newline="") as handle:
        header, *body = list(csv.reader(handle))
    load_deck(SHARED_CARDDATA / file)
    chooser = random.Random(file)
    kept = [i for i, h in enumerate(header) if canonical_column(h) != "count"]
    for size in (5, 12, 20, 40, 60):
        rows = chooser.sample(body, min(size, len(body)))
        path = tmp_path / f"cut_{size}.csv"
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow([header[i] for i in kept])
            writer.writerows([[row[i] for i in kept] for row in rows])
        assert load_deck(path).size == len(rows)


def test_count_shape_reads_what_a_count_column_holds():
    assert count_shape(["2", "3x", "", "1"]) == (1, 3, 7)  # an empty cell is one copy
    assert count_shape(["", "", "2"]) is None  # mostly empty
    assert count_shape(["2", "abc"]) is None and count_shape(["2", "1.5"]) is None


# --------------------------------------------------------------------------- files that are not card files

SECRET = "AKIA0123456789SECRET"


@pytest.mark.parametrize(("name", "content"), [
    ("credentials", f"[default]\naws_access_key_id = {SECRET}\n"),
    ("key.csv", f"{SECRET}\n"),
    ("settings.json", f'{{"token": "{SECRET}"}}\n'),
    ("keys.csv", f"user,password\nbob,{SECRET}\n"),
    ("netrc.txt", f"machine example.org login bob password {SECRET}\n"),
])
def test_a_file_that_is_no_card_file_is_named_never_quoted(tmp_path, name, content):
    path = write(tmp_path, content, name=name)
    pool = write(tmp_path, "Nom;Type\nPoulet;Unité\n", name="pool.csv")
    deck = write(tmp_path, "Nom;Quantité;Type\nPoulet;30;Unité\n", name="deck.csv")
    runs = [("validate", path, "--game", "pandrea"),
            ("validate", path, "--game", "pandrea", "--pool", pool),
            ("validate", write(tmp_path, "2 Poulet\n", name="list.txt"), "--game", "pandrea", "--pool", path),
            ("odds", deck, "--game", "pandrea", "--event", "Unité", "--known", path),
            ("compare", deck, path, "--game", "pandrea", "--event", "Unité")]
    for args in runs:
        line = assert_user_error(run(*args))
        assert SECRET not in line and "password" not in line and "token" not in line, line
        assert str(path) in line, line
        # Said what it is not; a .txt given without a pool is refused as a decklist before it is read.
        assert "is not a" in line or ("--pool" not in args and "text decklist" in line), line


# --------------------------------------------------------------------------- numbers read from a file

@pytest.mark.parametrize("value", ["deux", "1.5", "-1", "1e18", "inf", "NaN"])
def test_draw_cell_that_is_not_a_whole_number_is_refused(tmp_path, value):
    path = write(tmp_path, f"Nom;Quantité;Pioche\nPioche Bonus;2;{value}\nDragon;3;\n".encode())
    message = error_of(path)
    assert "line 2" in message and "'Pioche'" in message and repr(value) in message
    assert_user_error(run("deckout", path, "--game", "pandrea"), "line 2", "Pioche", value)


def test_huge_draw_is_refused_with_the_limit(tmp_path):
    path = write(tmp_path, b"name,count,mill\nA,2,1000000000000000000\n")
    message = error_of(path)
    assert "line 2" in message and "'mill'" in message and "10000" in message


def test_whole_draw_values_are_read(tmp_path):
    deck = load_deck(write(tmp_path, "Nom;Quantité;Pioche;Meule\nA;2;2;\nB;3;0;1\n".encode()))
    assert list(deck.cards["draw"]) == [2, 0] and list(deck.cards["mill"])[1] == 1


@pytest.mark.parametrize("value", ["1.5", "-1", "1e18", "inf", "NaN", "deux", "1000000000000000000"])
def test_count_cell_that_is_not_a_usable_count_is_refused(tmp_path, value):
    path = write(tmp_path, f"Nom;Quantité\nDragon;{value}\n".encode())
    message = error_of(path)
    assert "line 2" in message and "'Quantité'" in message and repr(value) in message


@pytest.mark.parametrize("value", ["deux", 1.5, -1, float("inf"), float("nan")])
def test_from_table_refuses_a_draw_that_is_not_a_number_of_cards(value):
    if value != value:  # NaN is a missing value in a DataFrame: no draw
        assert Deck.from_table([{"name": "A", "draw": value}]).size == 1
        return
    with pytest.raises(DeckstatError, match="draw"):
        Deck.from_table([{"name": "A", "draw": value}])


# --------------------------------------------------------------------------- comparisons

@pytest.fixture
def typed_deck(tmp_path) -> Path:
    return write(tmp_path, "Nom;Quantité;Type;Coût\nDragon;3;Unité;2\nFeu;2;Stratégie;1\nMur;1;Unité;3\n".encode())


@pytest.mark.parametrize("group", ["[type>=1]", "[type<3]", "[type=1]"])
def test_text_column_compared_with_a_number_is_an_error(typed_deck, group):
    deck = load_deck(typed_deck)
    with pytest.raises(ExpressionError) as info:
        deck.count(group)
    message = str(info.value)
    assert "'type'" in message and group in message and "'Unité'" in message
    assert_user_error(run("odds", typed_deck, "--game", "pandrea", "--event", f"{group}>=1", "--turns", "0"),
                      "type", group, "Unité")


def test_numeric_column_compared_with_text_is_an_error(typed_deck):
    deck = load_deck(typed_deck)
    with pytest.raises(ExpressionError) as info:
        deck.count("[cost=abc]")
    assert "'cost'" in str(info.value) and "'abc'" in str(info.value) and "1, 2, 3" in str(info.value)


def test_comparisons_that_can_match_still_count(typed_deck):
    deck = load_deck(typed_deck)
    assert deck.count("[cost>=2]") == 4
    assert deck.count('[cost="2"]') == 3  # a number written as text reads as that number
    assert deck.count("[type=Unité]") == 4
