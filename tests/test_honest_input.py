"""Card files read as written, or refused: encodings, hidden characters in names, numbers, comparisons."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import assert_user_error, error_of, ok, run, write

from deckstat import Deck, DeckstatError, load_deck
from deckstat.cards import collect_notes
from deckstat.errors import ExpressionError


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


def test_clean_cp1252_file_is_read_with_a_note(tmp_path):
    path = write(tmp_path, "Nom;Quantité;Type\nPâte à crêpes;3;Unité\nŒuf dur;2;Sort\n".encode("cp1252"))
    with collect_notes() as notes:
        deck = load_deck(path)
    assert deck.size == 5
    assert list(deck.cards["name"]) == ["Pâte à crêpes", "Œuf dur"]
    assert len(notes) == 1 and "cp1252" in notes[0] and str(path) in notes[0]
    assert deck.notes == tuple(notes)
    result = run("odds", path, "--game", "pandrea", "--event", "Unité>=1", "--turns", "0")
    ok(result)
    assert "note:" in result.stderr and "cp1252" in result.stderr


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

@pytest.mark.parametrize("header", ["Quantitée", "Quantity2", "Nb copies", "Exemplaire(s)"])
def test_a_count_column_misspelt_is_refused_not_read_as_one_copy_per_line(tmp_path, header):
    path = write(tmp_path, f"Nom;{header};Type\nA;10;Terrain\nB;41;Personnage\n".encode())
    line = assert_user_error(run("validate", path, "--game", "wankul"), "line 1", repr(header), "'quantité'")
    assert "count of copies" in line


@pytest.mark.parametrize("header", ["Amount", "Qtés", "Nb exemplaires", "Nombre d'exemplaires"])
def test_other_spellings_of_the_count_are_read(tmp_path, header):
    path = write(tmp_path, f"Nom;{header};Type\nA;10;Terrain\nB;41;Personnage\n".encode())
    assert load_deck(path).size == 51


def test_a_column_of_numbers_not_named_like_a_count_is_an_attribute(tmp_path):
    path = write(tmp_path, "Nom;Coût;Puissance\nA;10;2\nB;4;1\n".encode())
    deck = load_deck(path)
    assert deck.size == 2 and list(deck.cards["cost"]) == [10, 4]


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
