"""Card loading: load_deck, read_card_csv, read_decklist and Deck.from_table."""

from __future__ import annotations

import csv
import io
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import DATA, assert_user_error, error_of, run, write
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from deckstat import Deck, DeckstatError, load_deck, read_card_csv, read_decklist
from deckstat.cards import TOTAL_ROW_NAMES, _is_utf8
from deckstat.text import fold

WANKUL = DATA / "wankul"


def column(deck: Deck, name: str) -> list:
    return deck.cards[name].tolist()


def same_values(a: list, b: list) -> bool:
    """Element-wise equality where NaN/None equal each other."""
    def missing(v):
        return v is None or (isinstance(v, float) and math.isnan(v))

    return len(a) == len(b) and all((missing(x) and missing(y)) or x == y for x, y in zip(a, b))


# --------------------------------------------------------------------------------------------------
# Sample data
# --------------------------------------------------------------------------------------------------


def test_wankul_sample_sizes():
    deck = load_deck(WANKUL / "sample_deck.csv")
    assert deck.size == 50
    assert deck.count("Terrain") == 10
    cards = deck.cards
    assert (cards["type"] == "Terrain").sum() == 6
    personnages = cards[cards["type"] == "Personnage"]
    per_cost = personnages.groupby("cost")["count"].sum().to_dict()
    assert per_cost == {0: 12, 1: 14, 2: 9, 3: 5}
    assert cards["count"].max() <= 3
    assert "Oui, Chef !" in deck.names
    assert deck.source == str(WANKUL / "sample_deck.csv")
    assert list(cards.columns[:3]) == ["name", "count", "type"]


@pytest.mark.parametrize(
    ("relative", "size", "distinct"),
    [
        ("wankul/sample_deck.csv", 50, 24),
        ("wankul/sample_deck_v2.csv", 50, 23),
        ("wankul/illegal_deck.csv", 50, 22),
        ("wankul/sample_deck_fr.csv", 50, 24),
        ("wankul/pool.csv", 40, 40),
        ("duel-masters/sample_deck.csv", 40, 14),
        ("duel-masters/illegal_deck.csv", 38, 13),
        ("jdg/sample_deck.csv", 30, 30),
        ("jdg/illegal_deck.csv", 31, 30),
        ("licum/sample_deck.csv", 61, 36),
        ("pandrea/sample_deck.csv", 40, 17),
        ("pandrea/illegal_deck.csv", 25, 13),
    ],
)
def test_every_sample_file_loads(relative, size, distinct):
    deck = load_deck(DATA / relative)
    assert deck.size == size
    assert len(deck.names) == distinct
    assert (deck.counts >= 1).all()


def test_wankul_pool_has_every_sample_card():
    pool = load_deck(WANKUL / "pool.csv")
    assert pool.count("Terrain") == 10
    assert set(pool.counts) == {1}  # no count column
    assert set(load_deck(WANKUL / "sample_deck.csv").names) <= set(pool.names)


def test_licum_sample_keeps_its_two_decks():
    deck = load_deck(DATA / "licum" / "sample_deck.csv")
    assert deck.cards.groupby("deck")["count"].sum().to_dict() == {"jeu": 30, "preparation": 31}


def test_french_excel_sample_gives_the_same_table():
    english = load_deck(WANKUL / "sample_deck.csv").cards
    french = load_deck(WANKUL / "sample_deck_fr.csv").cards
    # French headers Nom;Quantité;Coût map to the canonical columns.
    assert list(french.columns) == list(english.columns) == ["name", "count", "type", "cost", "force", "clan"]
    assert french["name"].tolist() == english["name"].tolist()
    assert "Yéti en Vacances" in french["name"].tolist()  # cp1252 decoded, not mojibake
    assert "Oui, Chef !" in french["name"].tolist()  # unquoted comma in a ; file
    assert french["count"].tolist() == english["count"].tolist()
    for col in ("cost", "force"):
        assert pd.api.types.is_numeric_dtype(french[col])
        assert same_values(french[col].tolist(), english[col].tolist())
    assert same_values(french["type"].tolist(), english["type"].tolist())
    assert same_values(french["clan"].tolist(), english["clan"].tolist())


def test_sample_decklist_with_pool_matches_the_csv():
    csv_deck = load_deck(WANKUL / "sample_deck.csv")
    text_deck = load_deck(WANKUL / "decklist.txt", pool=WANKUL / "pool.csv")
    assert text_deck.names == csv_deck.names
    assert text_deck.counts.tolist() == csv_deck.counts.tolist()
    assert text_deck.size == 50
    assert text_deck.count("Terrain") == 10
    for col in ("type", "cost", "force", "clan"):
        assert same_values(column(text_deck, col), column(csv_deck, col)), col
    assert pd.api.types.is_numeric_dtype(text_deck.cards["cost"])


def test_decklist_accepts_a_pool_deck_or_a_string_path():
    pool = load_deck(WANKUL / "pool.csv")
    from_deck = read_decklist(WANKUL / "decklist.txt", pool)
    from_str = read_decklist(str(WANKUL / "decklist.txt"), str(WANKUL / "pool.csv"))
    assert from_deck.names == from_str.names
    assert from_deck.counts.tolist() == from_str.counts.tolist()


# --------------------------------------------------------------------------------------------------
# Delimiters, encodings, decimals, headers
# --------------------------------------------------------------------------------------------------

ROWS = [("Yéti en Vacances", 1, "0"), ("Château Gonflable", 2, "3"), ("Forêt des Chaussettes", 3, "-2")]


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252"])
def test_delimiters_and_encodings(tmp_path, delimiter, encoding):
    lines = [delimiter.join(["Nom", "Quantité", "Coût"])] + [delimiter.join([n, str(c), k]) for n, c, k in ROWS]
    path = write(tmp_path, "\n".join(lines) + "\n", encoding=encoding)
    deck = read_card_csv(path)
    assert deck.names == [r[0] for r in ROWS]
    assert deck.counts.tolist() == [1, 2, 3]
    assert column(deck, "cost") == [0, 3, -2]
    assert deck.cards["cost"].dtype == np.int64


def test_utf8_bom_does_not_stick_to_the_first_header(tmp_path):
    path = write(tmp_path, "nom;quantité\nCafé Noir;2\n", encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    deck = load_deck(path)
    assert list(deck.cards.columns[:2]) == ["name", "count"]
    assert deck.names == ["Café Noir"]


def test_cp1252_file_is_decoded(tmp_path):
    path = write(tmp_path, "Nom;Qté;Équipe\nCœur de Pâte;2;Rôtis\n", encoding="cp1252")
    with pytest.raises(UnicodeDecodeError):
        path.read_bytes().decode("utf-8")
    deck = load_deck(path)
    assert deck.names == ["Cœur de Pâte"]
    assert column(deck, "team") == ["Rôtis"]


@pytest.mark.parametrize("delimiter", [";", "\t"])
def test_decimal_commas_with_semicolon_or_tab(tmp_path, delimiter):
    text = "\n".join(delimiter.join(r) for r in [["nom", "coût", "force"], ["A", "1,5", "2"], ["B", "2", "-3"]])
    deck = load_deck(write(tmp_path, text + "\n"))
    assert column(deck, "cost") == [1.5, 2.0]
    assert deck.cards["cost"].dtype == np.float64
    # A column of whole numbers stays int.
    assert column(deck, "force") == [2, -3]
    assert deck.cards["force"].dtype == np.int64
    assert all(type(v) is int for v in column(deck, "force"))


def test_decimal_points_in_a_comma_file(tmp_path):
    deck = load_deck(write(tmp_path, 'name,cost,note\nA,1.5,"2,5"\nB,2,"3,5"\n'))
    assert column(deck, "cost") == [1.5, 2.0]
    # With a comma delimiter a decimal comma is not a number: the text is kept as is.
    assert column(deck, "note") == ["2,5", "3,5"]


def test_many_decimal_comma_rows_do_not_fool_the_delimiter(tmp_path):
    rows = "".join(f"Carte {i};{i % 3 + 1};{i},5\n" for i in range(15))
    deck = load_deck(write(tmp_path, "Nom;Quantité;Coût\n" + rows))
    assert len(deck.names) == 15
    assert column(deck, "cost")[:3] == [0.5, 1.5, 2.5]


@pytest.mark.parametrize(
    ("header", "canonical", "value", "expected"),
    [
        ("nom", "name", "X", "X"),
        ("Nom", "name", "X", "X"),
        ("quantité", "count", "3", 3),
        ("Quantité", "count", "3", 3),
        ("qté", "count", "3", 3),
        ("QTE", "count", "3", 3),
        ("nombre", "count", "2", 2),
        ("exemplaires", "count", "4", 4),
        ("coût", "cost", "2", 2),
        ("Coût", "cost", "2", 2),
        ("cout", "cost", "2", 2),
        ("COUT", "cost", "2", 2),
        ("puissance", "power", "5000", 5000),
        ("civilisation", "civilization", "Feu", "Feu"),
        ("équipe", "team", "Rouges", "Rouges"),
        ("Équipe", "team", "Rouges", "Rouges"),
        ("brillante", "shiny", "oui", 1),
        ("Brillante", "shiny", "non", 0),
        ("catégorie", "type", "Sort", "Sort"),
        ("Points de vie", "points_de_vie", "12", 12),
    ],
)
def test_french_and_english_headers(tmp_path, header, canonical, value, expected):
    name_header = "nom" if canonical != "name" else header
    text = f"{name_header};{header}\nCarte;{value}\n" if canonical != "name" else f"{header};qté\n{value};1\n"
    deck = load_deck(write(tmp_path, text))
    assert canonical in deck.cards.columns
    assert column(deck, canonical) == [expected]


def test_english_headers(tmp_path):
    text = (
        "name,count,type,cost,power,civilization,team,shiny\n"
        "A,2,Creature,3,1000,Fire,Red,yes\n"
        "B,1,Spell,1,,Water,Blue,no\n"
    )
    deck = load_deck(write(tmp_path, text))
    assert list(deck.cards.columns) == ["name", "count", "type", "cost", "power", "civilization", "team", "shiny"]
    assert column(deck, "shiny") == [1, 0]
    assert column(deck, "cost") == [3, 1]


def test_brillante_oui_non_becomes_one_zero(tmp_path):
    deck = load_deck(write(tmp_path, "Nom;Brillante\nA;oui\nB;non\nC;OUI\nD;Non\nE;\n"))
    assert same_values(column(deck, "shiny"), [1, 0, 1, 0, None])


def test_count_defaults_to_one_without_a_count_column(tmp_path):
    deck = load_deck(write(tmp_path, "Nom;Coût\nA;1\nB;2\n"))
    assert deck.counts.tolist() == [1, 1]
    assert deck.size == 2
    assert deck.cards["count"].dtype == np.int64


def test_empty_count_cell_means_one_and_3x_is_three(tmp_path):
    deck = load_deck(write(tmp_path, "Nom;Quantité\nA;\nB;3x\nC; 2 \n"))
    assert deck.counts.tolist() == [1, 3, 2]


def test_numbers_stay_numbers(tmp_path):
    deck = load_deck(write(tmp_path, "name,count,cost,force,note\nA,2,0,-2,rare\nB,1,3,10,\nC,1,,7,x\n"))
    assert column(deck, "force") == [-2, 10, 7]
    assert deck.cards["force"].dtype == np.int64
    assert pd.api.types.is_numeric_dtype(deck.cards["cost"])
    assert same_values(column(deck, "cost"), [0, 3, None])
    assert not any(isinstance(v, str) for v in column(deck, "cost"))
    assert same_values(column(deck, "note"), ["rare", None, "x"])


def test_huge_numbers_stay_numeric(tmp_path):
    deck = load_deck(write(tmp_path, "name,cost\nA,99999999999999999999\nB,1\n"))
    assert deck.cards["cost"].dtype == np.float64
    assert column(deck, "cost") == [1e20, 1.0]


def test_quoted_name_with_a_comma(tmp_path):
    deck = load_deck(write(tmp_path, 'name,count,cost\n"Oui, Chef !",2,1\nPoulet Astronaute,1,1\n'))
    assert deck.names == ["Oui, Chef !", "Poulet Astronaute"]
    assert deck.counts.tolist() == [2, 1]


def test_semicolon_file_with_quotes_and_commas_in_a_name(tmp_path):
    # What French Excel writes for the name  Le "Boss", enfin  (csv.Sniffer alone reads it as a comma file).
    deck = load_deck(write(tmp_path, 'Nom;Quantité;Coût\n"Le ""Boss"", enfin";2;1\n'))
    assert deck.names == ['Le "Boss", enfin']
    assert deck.counts.tolist() == [2]
    assert column(deck, "cost") == [1]


def test_single_column_file_with_commas_in_names(tmp_path):
    deck = load_deck(write(tmp_path, "name\nOui, Chef !\nNon, Merci\n"))
    assert deck.names == ["Oui, Chef !", "Non, Merci"]


def test_multivalued_cell_in_a_comma_file(tmp_path):
    deck = load_deck(write(tmp_path, "name,race\nA,Dragon;Humain\nB,Dragonoïde\n"))
    assert column(deck, "race") == ["Dragon;Humain", "Dragonoïde"]


def test_crlf_blank_lines_and_blank_lines_above_the_header(tmp_path):
    deck = load_deck(write(tmp_path, "\r\n\r\nnom;qté\r\nA;2\r\n\r\nB;1\r\n"))
    assert deck.names == ["A", "B"]
    assert deck.counts.tolist() == [2, 1]


def test_trailing_empty_columns_from_a_spreadsheet_are_dropped(tmp_path):
    deck = load_deck(write(tmp_path, "Nom;Qté;;\nA;2;;\nB;1;;\n"))
    assert list(deck.cards.columns) == ["name", "count", "type"]
    assert deck.counts.tolist() == [2, 1]


def test_spaces_around_cells_are_trimmed(tmp_path):
    deck = load_deck(write(tmp_path, " nom ; qté ; coût \n  A  ; 2 ; 1 \n"))
    assert deck.names == ["A"]
    assert deck.counts.tolist() == [2]
    assert column(deck, "cost") == [1]


def test_same_card_twice_with_identical_attributes_merges(tmp_path):
    text = "Nom;Quantité;Coût;Type\nYéti en Vacances;1;3;Personnage\nB;2;1;Sort\nYETI EN VACANCES;2;3;personnage\n"
    deck = load_deck(write(tmp_path, text))
    assert deck.names == ["Yéti en Vacances", "B"]
    assert deck.counts.tolist() == [3, 2]
    assert deck.size == 5


def test_same_name_in_two_decks_is_two_cards(tmp_path):
    deck = load_deck(write(tmp_path, "name,count,deck,cost\nA,1,jeu,1\nA,2,preparation,2\nA,1,jeu,1\n"))
    assert deck.names == ["A", "A"]
    assert deck.counts.tolist() == [2, 2]
    assert column(deck, "deck") == ["jeu", "preparation"]


# --------------------------------------------------------------------------------------------------
# Bad card CSVs: the message names file, line, column and value
# --------------------------------------------------------------------------------------------------


def test_missing_name_column(tmp_path):
    path = write(tmp_path, "Libellé;Quantité\nA;2\n")
    message = error_of(path)
    assert str(path) in message
    assert "line 1" in message
    assert "no card-name column" in message
    assert "'Libellé'" in message and "'Quantité'" in message
    assert "'nom'" in message


@pytest.mark.parametrize("bad", ["2.5", "deux", "2,5", "x"])
def test_non_integer_count(tmp_path, bad):
    delimiter = ";" if "," in bad else ","
    path = write(tmp_path, f"Nom{delimiter}Quantité\nA{delimiter}1\nB{delimiter}{bad}\n")
    message = error_of(path)
    assert str(path) in message
    assert "line 3" in message
    assert "column 'Quantité'" in message
    assert repr(bad) in message
    assert "whole number" in message


@pytest.mark.parametrize("bad", ["0", "-1", "-3"])
def test_count_zero_or_negative(tmp_path, bad):
    path = write(tmp_path, f"name;count\nA;2\n\nB;{bad}\n")
    message = error_of(path)
    assert str(path) in message
    assert "line 4" in message  # the blank line still counts
    assert "column 'count'" in message
    assert repr(bad) in message
    assert "at least 1" in message


def test_count_too_large(tmp_path):
    path = write(tmp_path, "name,count\nA,99999999999999999999\n")
    message = error_of(path)
    assert "line 2" in message and "column 'count'" in message and "'99999999999999999999'" in message
    assert "too large" in message


def test_same_card_with_conflicting_attributes(tmp_path):
    text = "Nom;Quantité;Coût\nYéti en Vacances;1;3\nB;2;1\nyéti en vacances;1;2\n"
    path = write(tmp_path, text)
    message = error_of(path)
    assert str(path) in message
    assert "line 4" in message and "line 2" in message
    assert "column 'Coût'" in message
    assert "'3'" in message and "'2'" in message
    assert "Yéti en Vacances" in message or "yéti en vacances" in message


def test_conflict_with_an_empty_cell_names_it(tmp_path):
    path = write(tmp_path, "name,count,cost\nA,1,1\nA,1,\n")
    message = error_of(path)
    assert "line 3" in message and "line 2" in message and "column 'cost'" in message
    assert "'1'" in message and "empty" in message
    assert "nan" not in message


def test_empty_file(tmp_path):
    path = write(tmp_path, b"")
    message = error_of(path)
    assert str(path) in message
    assert "empty" in message


def test_blank_file(tmp_path):
    message = error_of(write(tmp_path, "  \n\n\t\n"))
    assert "empty" in message


def test_header_only_file(tmp_path):
    path = write(tmp_path, "Nom;Quantité;Coût\n\n")
    message = error_of(path)
    assert str(path) in message
    assert "no card rows" in message


def test_file_of_delimiters_only(tmp_path):
    path = write(tmp_path, ";;;\n;;\n")
    message = error_of(path)
    assert str(path) in message


def test_binary_file(tmp_path):
    path = write(tmp_path, b"\x7fELF\x02\x01\x01\x00\x00\x00name,count\n")
    message = error_of(path)
    assert str(path) in message
    assert "binary" in message


def test_nul_byte_far_into_the_file(tmp_path):
    rows = "".join(f"Carte {i},1\n" for i in range(1000))
    path = write(tmp_path, ("name,count\n" + rows).encode() + b"\x00\x00")
    assert path.stat().st_size > 4096
    assert "binary" in error_of(path)


def test_xlsx_workbook(tmp_path):
    path = write(tmp_path, b"PK\x03\x04\x14\x00\x06\x00" + bytes(range(256)), name="deck.xlsx")
    message = error_of(path)
    assert str(path) in message
    assert "zip" in message and "xlsx" in message and "CSV" in message


def test_xlsx_saved_with_a_csv_name(tmp_path):
    path = write(tmp_path, b"PK\x03\x04rest-of-archive")
    assert "zip" in error_of(path)


def test_utf16_file(tmp_path):
    path = write(tmp_path, "Nom\tQuantité\nA\t2\n", encoding="utf-16")
    assert load_deck(path).size == 2


def test_row_with_more_fields_than_the_header(tmp_path):
    path = write(tmp_path, "name,count\nA,2\nB,1,surplus\n")
    message = error_of(path)
    assert str(path) in message
    assert "line 3" in message
    assert "3 fields" in message and "header has 2" in message
    assert "'surplus'" in message


def test_row_with_trailing_empty_fields_is_fine(tmp_path):
    assert load_deck(write(tmp_path, "name,count\nA,2,,\n")).counts.tolist() == [2]


def test_missing_file(tmp_path):
    path = tmp_path / "absent.csv"
    message = error_of(path)
    assert str(path) in message
    assert "not found" in message


def test_directory_instead_of_a_file(tmp_path):
    message = error_of(tmp_path)
    assert str(tmp_path) in message
    assert "directory" in message


def test_empty_card_name(tmp_path):
    path = write(tmp_path, "Nom;Quantité\nA;1\n ;2\n")
    message = error_of(path)
    assert "line 3" in message and "column 'Nom'" in message and "empty card name" in message


def test_two_headers_with_the_same_meaning(tmp_path):
    message = error_of(write(tmp_path, "Nom;Quantité;Qté\nA;1;1\n"))
    assert "line 1" in message and "'Quantité'" in message and "'Qté'" in message and "'count'" in message


def test_unnamed_column_holding_values(tmp_path):
    path = write(tmp_path, "Nom;Qté;\nA;1;\nB;2;oups\n")
    message = error_of(path)
    assert "line 3" in message and "column 3" in message and "'oups'" in message


def test_unclosed_quote(tmp_path):
    path = write(tmp_path, 'name,count\nA,1\n"Oui, Chef !,2\nB,1\nC,1\n')
    message = error_of(path)
    assert str(path) in message
    assert "line 3" in message and "column 'name'" in message and "quote" in message


def test_quoted_multiline_attribute_keeps_line_numbers(tmp_path):
    path = write(tmp_path, 'name,count,text\nA,1,"two\nlines"\nB,0,\n')
    assert "line 4" in error_of(path)


def test_decklist_without_pool_is_refused(tmp_path):
    path = write(tmp_path, "2 Poulet Astronaute\n", name="deck.txt")
    message = error_of(path)
    assert str(path) in message
    assert "decklist" in message and "pool" in message


# --------------------------------------------------------------------------------------------------
# Text decklists
# --------------------------------------------------------------------------------------------------

POOL = "Nom;Type;Coût\nPoulet Astronaute;Personnage;1\nYéti en Vacances;Personnage;3\nPlage de Galets;Terrain;\n"


@pytest.fixture
def pool(tmp_path) -> Path:
    return write(tmp_path, POOL, name="pool.csv")


def test_decklist_line_formats(tmp_path, pool):
    text = (
        "# commentaire\n// autre commentaire\n\n"
        "2 Poulet Astronaute\n3x Plage de Galets\nyeti en vacances\n1 x Plage de Galets\n2× Poulet Astronaute\n"
    )
    deck = load_deck(write(tmp_path, text, name="deck.txt"), pool=pool)
    assert deck.names == ["Poulet Astronaute", "Plage de Galets", "Yéti en Vacances"]
    assert deck.counts.tolist() == [4, 4, 1]
    assert column(deck, "type") == ["Personnage", "Terrain", "Personnage"]
    assert same_values(column(deck, "cost"), [1, None, 3])
    assert "deck" not in deck.cards.columns


def test_decklist_in_cp1252(tmp_path, pool):
    deck = load_deck(write(tmp_path, "2 Yéti en Vacances\n", name="deck.txt", encoding="cp1252"), pool=pool)
    assert deck.names == ["Yéti en Vacances"]


def test_decklist_sections_fill_the_deck_column(tmp_path, pool):
    text = "[Préparation]\n2 Poulet Astronaute\nJeu:\n1 Poulet Astronaute\nYéti en Vacances\n1 Yéti en Vacances\n"
    deck = load_deck(write(tmp_path, text, name="deck.txt"), pool=pool)
    assert deck.names == ["Poulet Astronaute", "Poulet Astronaute", "Yéti en Vacances"]
    assert column(deck, "deck") == ["Préparation", "Jeu", "Jeu"]
    assert deck.counts.tolist() == [2, 1, 2]


def test_decklist_unknown_card_suggests_a_close_name(tmp_path, pool):
    path = write(tmp_path, "2 Poulet Astronaute\n\n1 Yeti en Vacance\n", name="deck.txt")
    message = error_of(path, pool=pool)
    assert str(path) in message
    assert "line 3" in message
    assert "'Yeti en Vacance'" in message
    assert "did you mean 'Yéti en Vacances'" in message
    assert str(pool) in message


def test_decklist_unknown_card_without_close_match(tmp_path, pool):
    message = error_of(write(tmp_path, "1 Zzzzqqq\n", name="deck.txt"), pool=pool)
    assert "line 1" in message and "'Zzzzqqq'" in message and "did you mean" not in message


def test_decklist_lists_every_bad_line_in_one_message(tmp_path, pool):
    text = "2 Poulet Astronaut\n3 Plage de Galets\n1 Zzzzqqq\nYeti en Vacance\n0 Poulet Astronaute\n"
    path = write(tmp_path, text, name="deck.txt")
    message = error_of(path, pool=pool)
    assert "4 lines do not name one card" in message and str(pool) in message
    for line, words in ((1, "'Poulet Astronaut' (did you mean 'Poulet Astronaute'?)"), (3, "'Zzzzqqq'"),
                        (4, "'Yeti en Vacance' (did you mean 'Yéti en Vacances'?)"), (5, "'0' must be at least 1")):
        assert f"line {line}: " in message and words in message, message
    assert "line 2" not in message
    line = assert_user_error(run("validate", path, "--game", "wankul", "--pool", pool, "--lang", "fr"),
                             "4 lignes ne nomment pas une carte", "ligne 1\u00a0: carte inconnue")
    assert "ligne 5" in line


def test_decklist_with_many_bad_lines_sums_up_the_tail(tmp_path, pool):
    text = "".join(f"1 Carte {i}\n" for i in range(12)) + "1 Poulet Astronaute\n"
    message = error_of(write(tmp_path, text, name="deck.txt"), pool=pool)
    assert "12 lines" in message and "line 8: " in message and "line 9: " not in message
    assert "… and 4 more lines" in message


def test_a_file_no_line_of_which_names_a_card_is_not_quoted(tmp_path, pool):
    # A line written as no decklist line is not shown unless the file is shown to be a decklist.
    secret = "ghp_0123456789abcdef"
    path = write(tmp_path, f"# config\ntoken = {secret}\nuser: bob\n", name="deck.txt")
    message = error_of(path, pool=pool)
    assert secret not in message and "bob" not in message
    assert "is not a text decklist" in message and "none of its 2 lines" in message
    # Lines written as decklist lines are still shown, the others counted.
    path = write(tmp_path, f"token = {secret}\n3 Poulet Astronot\n", name="deck.txt")
    message = error_of(path, pool=pool)
    assert secret not in message and "line 2: unknown card 'Poulet Astronot'" in message
    assert "1 line that is not a decklist line (not shown)" in message
    # Once a line names a card, the file is a decklist: every bad line is shown.
    message = error_of(write(tmp_path, "3 Poulet Astronaute\nmystery line\n", name="deck.txt"), pool=pool)
    assert "line 2" in message and "'mystery line'" in message


def test_decklist_count_zero(tmp_path, pool):
    message = error_of(write(tmp_path, "1 Poulet Astronaute\n0 Plage de Galets\n", name="deck.txt"), pool=pool)
    assert "line 2" in message and "'0'" in message and "at least 1" in message


def test_decklist_count_too_large(tmp_path, pool):
    message = error_of(write(tmp_path, "99999999999999999999 Plage de Galets\n", name="d.txt"), pool=pool)
    assert "line 1" in message and "too large" in message


def test_decklist_with_only_comments(tmp_path, pool):
    path = write(tmp_path, "# rien\n\n// toujours rien\n", name="deck.txt")
    message = error_of(path, pool=pool)
    assert str(path) in message and "no cards" in message


def test_decklist_missing_file_and_missing_pool(tmp_path, pool):
    missing = tmp_path / "absent.txt"
    assert str(missing) in error_of(missing, pool=pool)
    deck_path = write(tmp_path, "1 Poulet Astronaute\n", name="deck.txt")
    missing_pool = tmp_path / "absent_pool.csv"
    message = error_of(deck_path, pool=missing_pool)
    assert str(missing_pool) in message and "not found" in message


def test_decklist_binary_file(tmp_path, pool):
    assert "binary" in error_of(write(tmp_path, b"2 Poulet\x00", name="deck.txt"), pool=pool)


def test_decklist_names_that_look_like_counts(tmp_path):
    pool = write(tmp_path, "name,type\nX Tornade,Sort\n1000 Sabords,Sort\nPoulet,Sort\n", name="pool.csv")
    text = "2 X Tornade\n1000 Sabords\n3 x Poulet\n"
    deck = load_deck(write(tmp_path, text, name="deck.txt"), pool=pool)
    assert deck.names == ["X Tornade", "1000 Sabords", "Poulet"]
    assert deck.counts.tolist() == [2, 1, 3]


# --------------------------------------------------------------------------------------------------
# Deck.from_table
# --------------------------------------------------------------------------------------------------


def test_from_table_records_default_count_and_type():
    deck = Deck.from_table([{"name": " A ", "cost": 1}, {"name": "B", "cost": 2}])
    assert list(deck.cards.columns) == ["name", "count", "type", "cost"]
    assert deck.names == ["A", "B"]
    assert deck.counts.tolist() == [1, 1]
    assert deck.source == "<table>"
    assert deck.size == 2


def test_from_table_dataframe_is_copied_and_reordered():
    table = pd.DataFrame({"cost": [1, 2], "name": ["A", "B"], "count": [2.0, 3.0], "type": ["Sort", "Terrain"]})
    before = table.copy()
    deck = Deck.from_table(table, source="ici")
    assert list(deck.cards.columns) == ["name", "count", "type", "cost"]
    assert deck.counts.tolist() == [2, 3]
    assert deck.cards["count"].dtype == np.int64
    assert deck.source == "ici"
    pd.testing.assert_frame_equal(table, before)


def test_from_table_without_name():
    with pytest.raises(DeckstatError, match=r"ici: .*no 'name' column"):
        Deck.from_table([{"nom": "A"}], source="ici")


@pytest.mark.parametrize("bad", [0, -1, 2.5, "deux", None])
def test_from_table_bad_count(bad):
    with pytest.raises(DeckstatError) as info:
        Deck.from_table([{"name": "A", "count": 1}, {"name": "Carte fautive", "count": bad}], source="ici")
    message = str(info.value)
    assert message.startswith("ici: ") and "'Carte fautive'" in message and "whole number" in message


@pytest.mark.parametrize("huge", [10**20, 2**63, 1e20])
def test_from_table_count_beyond_int64_is_refused(huge):
    # Used to wrap around to a negative int64 count.
    with pytest.raises(DeckstatError, match="'Carte énorme'"):
        Deck.from_table([{"name": "Carte énorme", "count": huge}])


# --------------------------------------------------------------------------------------------------
# Property tests
# --------------------------------------------------------------------------------------------------

# Letters French players use, all encodable in cp1252, plus punctuation that needs quoting or fools sniffers.
NAME_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéèêëàâîïôöûùüçœÉÈÊÀÂÎÔÇŒ 0123456789'-!?.,;\""
# A last row named "Total" is a spreadsheet's sum, refused on purpose.
names = (st.text(NAME_ALPHABET, min_size=1, max_size=24).map(str.strip)
         .filter(lambda n: n and fold(n) not in TOTAL_ROW_NAMES))
costs = st.one_of(st.integers(-10, 20), st.integers(-20, 40).map(lambda n: n / 2))


@settings(max_examples=200, deadline=None)
@given(
    rows=st.lists(st.tuples(names, st.integers(1, 4), costs), min_size=1, max_size=12,
                  unique_by=lambda row: fold(row[0])),
    delimiter=st.sampled_from([",", ";", "\t"]),
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "cp1252"]),
    header=st.sampled_from([("name", "count", "cost"), ("Nom", "Quantité", "Coût"), ("nom", "qté", "cout"),
                            ("Carte", "Exemplaires", "COÛT")]),
)
def test_roundtrip_random_tables(tmp_path_factory, rows, delimiter, encoding, header):
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n" if delimiter == ";" else "\n")
    writer.writerow(header)
    for name, count, cost in rows:
        text_cost = str(cost) if isinstance(cost, int) or not cost.is_integer() else str(int(cost))
        if delimiter != ",":
            text_cost = text_cost.replace(".", ",")  # French spreadsheets write decimal commas
        writer.writerow([name, count, text_cost])
    data = buffer.getvalue().encode(encoding)
    if encoding == "cp1252":
        # A cp1252 line that also happens to be valid UTF-8 ("Éœ") reads as UTF-8 (inherent), and makes the file
        # one of mixed encodings when another line is not: skip.
        assume(not any(not line.isascii() and _is_utf8(line) for line in data.split(b"\n")))
    path = tmp_path_factory.mktemp("roundtrip") / "deck.csv"
    path.write_bytes(data)

    deck = load_deck(path)
    assert deck.names == [" ".join(r[0].split()) for r in rows]  # runs of spaces read as one
    assert deck.counts.tolist() == [r[1] for r in rows]
    assert column(deck, "cost") == pytest.approx([float(r[2]) for r in rows])
    assert pd.api.types.is_numeric_dtype(deck.cards["cost"])
    if all(float(r[2]).is_integer() for r in rows):
        assert deck.cards["cost"].dtype == np.int64
    assert deck.size == sum(r[1] for r in rows)


CSV_TOKENS = st.sampled_from([
    "name", "nom", "count", "Quantité", "qté", "cost", "Coût", "deck", "type", "brillante", "", " ",
    ",", ";", "\t", "\n", "\r\n", "\r", '"', "'", "#", "[Jeu]", "Jeu:", "x", "2x ",
    "0", "1", "-3", "2,5", "2.5", "3x", "oui", "non", "Yéti", "é", "\ufeff", "\x00", "\x85",
    "99999999999999999999", "1e5", "nan", "inf", "٣", "²", "PK\x03\x04",
])
ANY_CONTENT = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300).map(lambda s: s.encode("utf-8", "surrogatepass")),
    st.lists(CSV_TOKENS, max_size=60).map("".join).map(lambda s: s.encode("utf-8")),
    st.lists(CSV_TOKENS, max_size=60).map("".join).map(lambda s: s.encode("cp1252", "replace")),
)


@settings(max_examples=200, deadline=None)
@given(content=ANY_CONTENT, suffix=st.sampled_from([".csv", ".txt"]))
def test_arbitrary_input_gives_a_deck_or_a_deckstat_error(tmp_path_factory, content, suffix):
    path = tmp_path_factory.mktemp("fuzz") / f"input{suffix}"
    path.write_bytes(content)
    try:
        deck = load_deck(path)
    except DeckstatError as exc:
        assert str(exc).startswith(str(path))
        assert "\n" not in str(exc)
        return
    assert isinstance(deck, Deck)
    assert deck.size >= 1
    assert (deck.counts >= 1).all()


@settings(max_examples=200, deadline=None)
@given(content=ANY_CONTENT)
def test_arbitrary_decklist_gives_a_deck_or_a_deckstat_error(tmp_path_factory, content):
    path = tmp_path_factory.mktemp("fuzz") / "decklist.txt"
    path.write_bytes(content)
    try:
        deck = load_deck(path, pool=WANKUL / "pool.csv")
    except DeckstatError as exc:
        assert str(exc).startswith(str(path))
        return
    assert deck.size >= 1
    assert (deck.counts >= 1).all()


def test_messages_are_single_lines_even_for_multiline_cells(tmp_path):
    message = error_of(write(tmp_path, 'name,count\n"A\nB",1\n'))
    assert re.search(r"line 2\b", message)


def test_a_text_decklist_without_a_pool_names_the_parameter_or_the_flag():
    with pytest.raises(DeckstatError, match=r"decklist\.txt: looks like a text decklist; .* with pool$"):
        load_deck(DATA / "wankul" / "decklist.txt")
    assert_user_error(run("validate", DATA / "wankul" / "decklist.txt", "--game", "wankul"), "with --pool")


def test_a_row_shorter_than_the_header_before_the_name_column(tmp_path):
    # The name is the second column; the row has one field, so it has no name cell.
    path = tmp_path / "deck.csv"
    path.write_bytes(b",name\n\x01")
    with pytest.raises(DeckstatError, match="column 1 has no header"):
        load_deck(path)
