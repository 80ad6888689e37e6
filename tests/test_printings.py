"""Several printings under one name: collector numbers, labels, decklists, copy limits, loader hints."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from helpers import SHARED_CARDDATA, assert_user_error, run
from hypothesis import given, settings
from hypothesis import strategies as st

import deckstat
from deckstat import Deck, DeckstatError, load_deck, read_card_csv, validate
from deckstat.games.profiles import get_profile
from deckstat.questions.ratio import with_resource_count
from deckstat.schema import canonical_column
from deckstat.text import fold

# A small invented pool in the shape of the real Wankul ones: the Laink and Terracid versions of a character
# share a name (MARCHAND #35 and #36), a common and a holo printing share one too (GENDARME), collector numbers
# carry letters (2A), a reprint has a suffixed name and a base name (CHEVAL - Booster Or).
POOL = """\
numéro,nom,base_name,type,saison,effigie,rareté,coût,force
1,PORT,PORT,Terrain,Origins,Terrain,Terrain,,
2,FORÊT,FORÊT,Terrain,Origins,Terrain,Terrain,,
35,MARCHAND,MARCHAND,Personnage,Origins,Laink,Commune,1,3
36,MARCHAND,MARCHAND,Personnage,Origins,Terracid,Commune,1,4
112,GENDARME,GENDARME,Personnage,Origins,Laink,Peu Commune,1,2
153,GENDARME,GENDARME,Personnage,Origins,Laink,Ultra rare holo 1,1,2
5,LOUP,LOUP,Personnage,Origins,Random,Commune,0,1
2A,CHEVAL - Booster Or,CHEVAL,Personnage,Hors Serie,Laink,Edition Gold,2,5
14,Jet (Sky),Jet (Sky),Personnage,Campus,Guest,Rare,3,6
14,JUGE,JUGE,Personnage,Campus,Guest,Rare,2,2
14,JUGE,JUGE,Personnage,Battle,Guest,Rare,2,2
"""


def write(tmp_path: Path, text: str, name: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def pool(tmp_path) -> Path:
    return write(tmp_path, POOL, "pool.csv")


def decklist(tmp_path: Path, pool: Path, text: str) -> Deck:
    return load_deck(write(tmp_path, text, "deck.txt"), pool=pool)


def decklist_error(tmp_path: Path, pool: Path, text: str) -> str:
    with pytest.raises(DeckstatError) as info:
        decklist(tmp_path, pool, text)
    return str(info.value)


def load_error(path: Path) -> str:
    with pytest.raises(DeckstatError) as info:
        load_deck(path)
    return str(info.value)


# --------------------------------------------------------------------------------------------------
# Collector numbers are not quantities
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("header", ["number", "Number", "N°", "n°", "Nº", "No", "numéro", "Numero", "num",
                                    "card_number", "Collector Number", "collector_number", "set_number",
                                    "N° de carte"])
def test_collector_number_headers_mean_the_number(header):
    assert canonical_column(header) == "number"


@pytest.mark.parametrize("header", ["count", "Quantité", "qté", "nombre", "nb", "exemplaires", "copies"])
def test_quantity_headers_still_mean_the_count(header):
    assert canonical_column(header) == "count"


@pytest.mark.parametrize(("header", "canonical"), [("season_name", "set"), ("Édition", "set"), ("collection", "set"),
                                                   ("effigy", "clan"), ("Effigie", "clan"), ("is_holo", "shiny")])
def test_printing_headers(header, canonical):
    assert canonical_column(header) == canonical


def test_a_lone_n_header_is_refused_with_a_hint(tmp_path):
    message = load_error(write(tmp_path, "N,nom\n35,MARCHAND\n", "deck.csv"))
    assert "column 'N'" in message and "'quantité'" in message and "'numéro'" in message


def test_collector_numbers_stay_text(tmp_path):
    deck = read_card_csv(write(tmp_path, "n°;nom;qté\n2A;A;1\n007;B;2\n16/55;C;3\n35;D;1\nS181;E;1\n", "deck.csv"))
    assert deck.cards["number"].tolist() == ["2A", "007", "16/55", "35", "S181"]
    assert deck.counts.tolist() == [1, 2, 3, 1, 1]
    assert deck.count("[number>=16]") == 1  # only 35: 007 reads as 7, and 2A, 16/55, S181 are not numbers


# --------------------------------------------------------------------------------------------------
# Card identity: name plus printing
# --------------------------------------------------------------------------------------------------


def test_two_printings_of_a_name_are_two_cards(pool):
    deck = read_card_csv(pool)
    assert len(deck.cards) == 11 and deck.size == 11
    marchand = deck.cards[deck.cards["name"] == "MARCHAND"]
    assert marchand["force"].tolist() == [3, 4] and marchand["clan"].tolist() == ["Laink", "Terracid"]
    assert deck.names.count("MARCHAND") == 2
    assert deck.count("MARCHAND") == 2  # a name group matches every printing of the name
    assert deck.count('"GENDARME"') == 2


def test_labels_tell_printings_apart(pool):
    deck = read_card_csv(pool)
    assert deck.labels == ["PORT", "FORÊT", "MARCHAND #35", "MARCHAND #36", "GENDARME #112", "GENDARME #153", "LOUP",
                           "CHEVAL - Booster Or", "Jet (Sky)", "JUGE #14 (Campus)", "JUGE #14 (Battle)"]


def test_labels_without_numbers(tmp_path):
    deck = read_card_csv(write(tmp_path, "nom,qté,holo,clan\nGENDARME,2,non,Laink\nGENDARME,1,oui,Laink\n"
                                         "GARDE,1,non,Laink\nGARDE,1,non,Terracid\n", "deck.csv"))
    assert deck.labels == ["GENDARME", "GENDARME (holo)", "GARDE (Laink)", "GARDE (Terracid)"]


def test_identical_rows_still_merge(tmp_path):
    deck = read_card_csv(write(tmp_path, "numéro,nom,qté,force\n35,MARCHAND,1,3\n36,MARCHAND,1,4\n35,marchand,2,3\n",
                               "deck.csv"))
    assert deck.labels == ["MARCHAND #35", "MARCHAND #36"]
    assert deck.counts.tolist() == [3, 1]


def test_same_printing_with_other_attributes_is_an_error(tmp_path):
    message = load_error(write(tmp_path, "numéro,nom,qté,force\n35,MARCHAND,1,3\n35,MARCHAND,1,4\n", "deck.csv"))
    assert "line 3" in message and "'MARCHAND' is also on line 2 with force '3', here '4'" in message
    assert "printings of a name differ in 'numéro'" in message


def test_without_printing_columns_a_repeated_name_with_other_attributes_is_still_an_error(tmp_path):
    message = load_error(write(tmp_path, "nom,qté,force\nMARCHAND,1,3\nMARCHAND,1,4\n", "deck.csv"))
    assert "also on line 2" in message and "'numéro', 'édition', 'clan' or 'rareté'" in message


# --------------------------------------------------------------------------------------------------
# Text decklists against a pool with several printings per name
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("line", ["3 MARCHAND #35", "3 marchand #35", "3x MARCHAND # 35", "3 MARCHAND (35)",
                                  "3 MARCHAND (Laink)", "3 MARCHAND #35 (laink, Commune)"])
def test_a_line_picks_one_printing(tmp_path, pool, line):
    deck = decklist(tmp_path, pool, line + "\n")
    assert deck.cards[["name", "number", "clan", "force"]].values.tolist() == [["MARCHAND", "35", "Laink", 3]]
    assert deck.size == 3


def test_a_name_with_several_printings_must_pick_one(tmp_path, pool):
    message = decklist_error(tmp_path, pool, "LOUP\n3 MARCHAND\n")
    assert message.startswith(f"{tmp_path / 'deck.txt'}, line 2: '3 MARCHAND' matches 2 cards of the pool")
    assert "#35, Origins, Laink, Commune; #36, Origins, Terracid, Commune" in message
    assert "e.g. '3 MARCHAND #35'" in message


def test_a_selector_that_matches_no_printing(tmp_path, pool):
    message = decklist_error(tmp_path, pool, "2 MARCHAND #37\n")
    assert "no printing of 'MARCHAND'" in message and "matches '#37'" in message and "#36, Origins" in message


def test_holo_picks_by_the_rarity_when_the_pool_has_no_flag(tmp_path, pool):
    deck = decklist(tmp_path, pool, "1 GENDARME (holo)\n2 GENDARME (Peu Commune)\n")
    assert deck.labels == ["GENDARME #153", "GENDARME #112"] and deck.counts.tolist() == [1, 2]


def test_a_name_with_one_printing_just_works(tmp_path, pool):
    deck = decklist(tmp_path, pool, "2 LOUP\n1 LOUP #5\n1 Jet (Sky)\n")
    assert deck.labels == ["LOUP", "Jet (Sky)"] and deck.counts.tolist() == [3, 1]


def test_same_number_in_two_sets_needs_the_set(tmp_path, pool):
    message = decklist_error(tmp_path, pool, "1 JUGE #14\n")
    assert "matches 2 cards" in message and "e.g. '1 JUGE #14 (Campus)'" in message
    assert decklist(tmp_path, pool, "1 JUGE #14 (Battle)\n").cards["set"].tolist() == ["Battle"]


def test_a_base_name_points_to_the_full_name(tmp_path, pool):
    message = decklist_error(tmp_path, pool, "1 CHEVAL\n")
    assert "unknown card 'CHEVAL'" in message and "base name of 'CHEVAL - Booster Or'" in message
    assert "'1 CHEVAL - Booster Or'" in message
    assert decklist(tmp_path, pool, "1 CHEVAL - Booster Or\n").cards["number"].tolist() == ["2A"]


def test_the_plain_printing_reads_back_by_its_bare_label(tmp_path):
    pool = write(tmp_path, "nom,holo\nGENDARME,non\nGENDARME,oui\n", "pool.csv")
    deck = decklist(tmp_path, pool, "2 GENDARME\n1 GENDARME (holo)\n")
    assert deck.cards["shiny"].tolist() == [0, 1] and deck.counts.tolist() == [2, 1]


def test_lines_of_one_printing_add_up_and_printings_stay_apart(tmp_path, pool):
    deck = decklist(tmp_path, pool, "2 MARCHAND #35\n1 MARCHAND #36\n1 MARCHAND (Laink)\n")
    assert deck.labels == ["MARCHAND #35", "MARCHAND #36"] and deck.counts.tolist() == [3, 1]


def test_every_label_of_a_pool_reads_back(tmp_path, pool):
    pool_deck = read_card_csv(pool)
    deck = decklist(tmp_path, pool, "".join(f"1 {label}\n" for label in pool_deck.labels))
    assert deck.labels == pool_deck.labels
    assert deck.cards.drop(columns="count").equals(pool_deck.cards.drop(columns="count"))


NUMBERS = st.one_of(st.integers(1, 300).map(str),
                    st.from_regex(r"[A-Z]?[0-9]{1,3}[A-Z]?(/[0-9]{2,3})?", fullmatch=True))


@settings(max_examples=60, deadline=None)
@given(printings=st.lists(st.tuples(st.sampled_from(["MARCHAND", "Loup des Bois", "Jet-Pack", "Éclair"]),
                                    st.one_of(st.none(), NUMBERS), st.sampled_from(["Origins", "Hors Série", "DM-01"]),
                                    st.sampled_from(["Laink", "Terracid", ""]), st.booleans()),
                          min_size=1, max_size=8,
                          unique_by=lambda p: (fold(p[0]), fold(p[1] or ""), p[2], p[3], p[4])))
def test_labels_read_back_as_decklist_lines(tmp_path_factory, printings):
    rows = [{"name": name, "number": number, "set": set_name, "clan": clan or None, "shiny": int(shiny)}
            for name, number, set_name, clan, shiny in printings]
    pool = Deck.from_table(rows, source="pool")
    path = tmp_path_factory.mktemp("labels") / "deck.txt"
    path.write_text("".join(f"{i + 1} {label}\n" for i, label in enumerate(pool.labels)), encoding="utf-8")
    deck = load_deck(path, pool=pool)
    assert deck.printings == pool.printings and deck.counts.tolist() == list(range(1, len(rows) + 1))


def test_a_card_in_both_decks_of_a_pool_is_not_two_printings(tmp_path):
    pool = write(tmp_path, "deck,nom,type\npreparation,Chrono,Difficulté\njeu,Chrono,Difficulté\n", "pool.csv")
    assert decklist(tmp_path, pool, "[jeu]\n2 Chrono\n").size == 2


# --------------------------------------------------------------------------------------------------
# Copy limits: by name, by card (printings identical in play together) or by printing
# --------------------------------------------------------------------------------------------------


def wankul_deck(marchand_35: int, marchand_36: int) -> Deck:
    """A 50-card Wankul deck around two printings of one name."""
    rows = [{"name": f"Terrain {i}", "count": 2, "type": "Terrain"} for i in range(5)]
    rows += [{"name": "MARCHAND", "number": "35", "clan": "Laink", "count": marchand_35, "type": "Personnage"},
             {"name": "MARCHAND", "number": "36", "clan": "Terracid", "count": marchand_36, "type": "Personnage"}]
    filler = 40 - marchand_35 - marchand_36
    rows += [{"name": f"Perso {i}", "count": min(3, filler - 3 * i), "type": "Personnage"}
             for i in range((filler + 2) // 3)]
    return Deck.from_table(rows)


def subjects(result) -> list[tuple[str, str]]:
    return [tuple(r) for r in result.table[["subject", "found"]].values.tolist()]


def test_wankul_counts_copies_of_cards_as_they_play():
    # The two MARCHAND differ in clan (Laink, Terracid): two cards in play, 2 + 2 copies is legal.
    deck = wankul_deck(2, 2)
    assert deck.size == 50
    result = validate(deck, "wankul")
    assert result.legal and result.provenance["notes"] == []
    assert get_profile("wankul").parts[0].rules[2].params["by"] == "card"


def gendarme_deck(common: int, holo: int, **holo_changes) -> Deck:
    """A 50-card Wankul deck with a common GENDARME and its holo reprint (same clan, cost and force)."""
    rows = [{"name": f"Terrain {i}", "count": 2, "type": "Terrain", "rarity": "Terrain"} for i in range(5)]
    rows += [{"name": "GENDARME", "number": "112", "rarity": "Peu Commune", "clan": "Laink", "cost": 1, "force": 2,
              "count": common, "type": "Personnage"},
             {"name": "GENDARME", "number": "153", "rarity": "Ultra rare holo 1", "clan": "Laink", "cost": 1,
              "force": 2, "count": holo, "type": "Personnage", **holo_changes}]
    filler = 40 - common - holo
    rows += [{"name": f"Perso {i}", "count": min(3, filler - 3 * i), "type": "Personnage", "rarity": "Commune",
              "clan": "Random", "cost": 0, "force": 1} for i in range((filler + 2) // 3)]
    return Deck.from_table(rows)


def test_printings_identical_in_play_are_one_card():
    # « aucune carte ne peut être présente en plus de 3 exemplaires »: a holo reprint is the same card.
    result = validate(gendarme_deck(2, 2), "wankul")
    assert subjects(result) == [("GENDARME", "4 copies (2 × GENDARME #112, 2 × GENDARME #153)")]
    assert "GENDARME: 4 copies (2 × GENDARME #112, 2 × GENDARME #153), allowed at most 3" in result.table["message"][0]
    (note,) = result.provenance["notes"]
    assert note.startswith("GENDARME #112 and GENDARME #153 count as one card for the rule 'at most 3 copies")
    assert note.endswith("printings that differ only in rarity, number and agree in play (type, clan, cost, force)")
    assert validate(gendarme_deck(2, 1), "wankul").legal
    # Each printing apart is one setting away, and so is every printing of a name together.
    assert validate(gendarme_deck(2, 2), "wankul", copies_by="printing").legal
    assert subjects(validate(gendarme_deck(2, 2), "wankul", copies_by="name")) == [("GENDARME", "4 copies")]


@pytest.mark.parametrize("change", [{"force": 3}, {"cost": 2}, {"clan": "Terracid"}, {"type": "Terrain"},
                                    {"effect": "pioche=1"}])
def test_printings_that_differ_in_play_are_two_cards(change):
    # An effect only the holo's row fills differs too: the common's cell is empty.
    assert validate(gendarme_deck(2, 2, **change), "wankul").legal


def test_copies_by_name_is_one_setting_away():
    result = validate(wankul_deck(2, 2), "wankul", copies_by="name")
    assert subjects(result) == [("MARCHAND", "4 copies")]
    assert result.table["rule"].iloc[0] == ("at most 3 copies of a card, counting every printing of a name together "
                                            "(the profile counts by card)")
    assert result.provenance["copies_by"] == "name"


def test_a_printing_over_the_limit_is_named_with_its_label():
    result = validate(wankul_deck(4, 1), "wankul")
    assert subjects(result) == [("MARCHAND #35", "4 copies")]


def test_copies_by_printing_on_a_profile_that_counts_names():
    deck = Deck.from_table([{"name": "Lézard", "set": "DM-01", "count": 3}, {"name": "Lézard", "set": "DM-05",
                                                                                "count": 2},
                            {"name": "Gobelin", "count": 35}])
    assert ("Lézard", "5 copies") in subjects(validate(deck, "duel-masters"))
    by_printing = subjects(validate(deck, "duel-masters", copies_by="printing"))
    assert by_printing == [("Gobelin", "35 copies")]


@pytest.mark.parametrize("game", ["duel-masters", "jdg", "pandrea"])
def test_other_profiles_count_copies_by_name(game):
    copies = [r for part in get_profile(game).parts for r in part.rules if r.kind == "copies"]
    assert copies and all(r.params["by"] == "name" and "name" in r.text for r in copies)


def test_copies_by_is_checked():
    with pytest.raises(DeckstatError, match="copies_by must be one of name, card, printing, got 'numéro'"):
        validate(wankul_deck(2, 2), "wankul", copies_by="numéro")


def test_cli_copies_by(tmp_path):
    path = tmp_path / "deck.csv"
    wankul_deck(2, 2).cards.to_csv(path, index=False)
    assert run("validate", path, "-g", "wankul").exit_code == 0
    result = run("validate", path, "-g", "wankul", "--copies-by", "name", "--wide")
    assert result.exit_code == 1 and "MARCHAND" in result.stdout and "4 copies" in result.stdout
    assert run("validate", path, "-g", "wankul", "--copies-by", "printing").exit_code == 0
    assert run("validate", path, "-g", "wankul", "--copies-by", "set").exit_code == 2


def test_card_differences_tell_printings_apart():
    a = Deck.from_table([{"name": "MARCHAND", "number": "35", "count": 2}, {"name": "LOUP", "count": 3}], source="a")
    b = Deck.from_table([{"name": "MARCHAND", "number": "35", "count": 2},
                         {"name": "MARCHAND", "number": "36", "count": 1}, {"name": "LOUP", "count": 2}], source="b")
    table = deckstat.card_differences(a, b)
    assert table[["name", "count_a", "count_b", "change"]].values.tolist() == [["LOUP", 3, 2, "-1"],
                                                                               ["MARCHAND #36", 0, 1, "added"]]


# --------------------------------------------------------------------------------------------------
# Spreadsheet habits that would make a wrong deck
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("title", ["Mon deck Wankul;;;", "Mon deck Wankul", "Deck du 12/03;Version 2;;"])
def test_a_title_line_above_the_header_gets_a_hint(tmp_path, title):
    path = write(tmp_path, f"{title}\nNom;Quantité;Type;Coût\nA;2;Terrain;\n", "deck.csv")
    message = load_error(path)
    assert message.startswith(f"{path}, line 1: line 1 (")
    assert "is above the header on line 2 ('Nom;Quantité;Type;Coût')" in message


def test_a_one_column_file_is_not_mistaken_for_a_title(tmp_path):
    deck = read_card_csv(write(tmp_path, "nom\nCarte\nNom\n", "deck.csv"))
    assert deck.names == ["Carte", "Nom"]


@pytest.mark.parametrize("total", ["TOTAL;50", "Total;", "Somme;50", "sous-total;50"])
def test_a_total_row_at_the_end_gets_a_hint(tmp_path, total):
    path = write(tmp_path, f"Nom;Quantité\nA;20\nB;30\n{total}\n", "deck.csv")
    message = load_error(path)
    assert message.startswith(f"{path}, line 4, column 'Nom': ") and "looks like a total row" in message


def test_a_total_row_that_sums_the_rows_above_gets_a_hint_anywhere(tmp_path):
    message = load_error(write(tmp_path, "Nom;Quantité\nA;20\nB;30\nTotal;50\nC;1\n", "deck.csv"))
    assert "line 4" in message and "'Total' '50' (the sum of the rows above) looks like a total row" in message


def test_a_card_named_total_elsewhere_is_a_card(tmp_path):
    deck = read_card_csv(write(tmp_path, "Nom;Quantité\nTotal;2\nB;3\n", "deck.csv"))
    assert deck.names == ["Total", "B"]


def test_plural_card_types_get_a_hint(tmp_path):
    path = write(tmp_path, "Nom;Quantité;Type\nA;10;Terrains\nB;40;Personnage\n", "deck.csv")
    deck = load_deck(path)
    with pytest.raises(DeckstatError, match="type 'Terrains' .10 cards, e.g. 'A'. is not a Wankul card type; did you "
                                            "mean 'Terrain'?"):
        validate(deck, "wankul")
    with pytest.raises(DeckstatError, match="did you mean 'Terrain'"):
        deckstat.odds(deck, "wankul", "Terrain>=1", turns=0)
    assert_user_error(run("validate", path, "-g", "wankul"), "column 'type'", "did you mean 'Terrain'?")


def test_a_type_that_is_its_own_word_is_left_alone():
    # "Scuze Mais" is a Licum type; "Logistiques" is close to nothing in the Wankul profile.
    deck = Deck.from_table([{"name": "A", "count": 10, "type": "Terrain"}, {"name": "B", "count": 40,
                                                                             "type": "Logistiques"}])
    assert ("B", "type 'Logistiques'") in subjects(validate(deck, "wankul"))


# --------------------------------------------------------------------------------------------------
# Real card pools (outside the repository; skipped when absent)
# --------------------------------------------------------------------------------------------------

real_data = pytest.mark.skipif(not SHARED_CARDDATA.is_dir(), reason="no real card data next to the repository")


@real_data
@pytest.mark.parametrize(("file", "rows", "size"), [
    ("wankul_octerry_cards.csv", 747, 747),
    ("wankul_wildcodeschool_cards.csv", 335, 335),
    ("wankul_timeuh_cards.csv", 180, 180),
    ("dm_latepate64_tcg_cards.csv", 1152, 1152),
    ("dm_latepate64_tcg_printings.csv", 1267, 1267),
    # 32 rows repeat a printing of the source exactly (some with a stray space before the number): merged.
    ("dm_ravenite_ocg_cards.csv", 10312, 10344),
])
def test_real_pools_load_as_card_tables(file, rows, size):
    deck = load_deck(SHARED_CARDDATA / file)
    assert (len(deck.cards), deck.size) == (rows, size)
    assert len(set(deck.labels)) == rows  # every card has a label of its own


@real_data
def test_real_wankul_pool_keeps_collector_numbers_and_printings():
    deck = load_deck(SHARED_CARDDATA / "wankul_octerry_cards.csv")
    assert deck.count("Terrain") == 116 and deck.count("Personnage") == 631  # the counts its README gives
    vendeur = deck.cards[deck.cards["name"] == "VENDEUR"]
    assert vendeur[["number", "clan"]].values.tolist() == [["35", "Laink"], ["36", "Terracid"]]
    assert "2A" in set(deck.cards["number"])


def wankul_decklist(pool: Deck) -> str:
    """A 50-card decklist from the real pool: 4 Terrains and 10 Personnages x 3, 2+2 VENDEUR, 2+2 POLICIER."""
    cards = pool.cards.assign(label=pool.labels)
    per_name = Counter(pool.names)
    single = cards[np.array([per_name[n] == 1 for n in pool.names]) & (cards["set"] == "Origins")]
    terrains = single[single["type"] == "Terrain"]["label"].head(4).tolist()
    personnages = single[single["type"] == "Personnage"]["label"].head(10).tolist()
    lines = [f"3 {name}" for name in terrains]
    lines += ["2 VENDEUR #35", "2 VENDEUR (Terracid)", "2 POLICIER #112", "2 POLICIER (Laink, holo)"]
    lines += [f"3 {name}" for name in personnages]
    return "# Terrains et Personnages\n" + "\n".join(lines) + "\n"


@real_data
def test_real_wankul_decklist_with_several_printings(tmp_path):
    pool_path = SHARED_CARDDATA / "wankul_octerry_cards.csv"
    path = write(tmp_path, wankul_decklist(load_deck(pool_path)), "deck.txt")
    deck = load_deck(path, pool=pool_path)
    assert deck.size == 50 and deck.count("Terrain") == 12
    assert deck.count("VENDEUR") == 4 and deck.count("POLICIER") == 4
    assert {"VENDEUR #35", "VENDEUR #36", "POLICIER #112", "POLICIER #153"} <= set(deck.labels)
    # The two VENDEUR differ in play (clan, force); POLICIER #112 and its holo #153 do not: one card, 4 copies.
    result = validate(deck, "wankul")
    assert subjects(result) == [("POLICIER", "4 copies (2 × POLICIER #112, 2 × POLICIER #153)")]
    (note,) = result.provenance["notes"]
    assert note.startswith("POLICIER #112 and POLICIER #153 count as one card") and "source_id, number, rarity" in note
    assert validate(deck, "wankul", copies_by="printing").legal
    assert subjects(validate(deck, "wankul", copies_by="name")) == [("VENDEUR", "4 copies"), ("POLICIER", "4 copies")]
    # P(at least one of the 12 Terrains in the 5-card hand) = 1 - C(38,5)/C(50,5).
    p = deckstat.odds(deck, "wankul", "Terrain>=1", turns=0, mulligan=False).table["p"].iloc[0]
    assert p == pytest.approx(1 - 501942 / 2118760, rel=1e-12)
    assert run("validate", path, "-g", "wankul", "--pool", pool_path).exit_code == 1
    assert run("validate", path, "-g", "wankul", "--pool", pool_path, "--copies-by", "printing").exit_code == 0
    assert run("validate", path, "-g", "wankul", "--pool", pool_path, "--copies-by", "name").exit_code == 1


def test_every_label_of_a_card_names_it_in_every_option(tmp_path, pool):
    # The deck holds one MARCHAND and one GENDARME, so results label them by their names alone; the labels the
    # decklist needed, the pool's labels and printing values name them as well, wherever a card is named.
    deck = decklist(tmp_path, pool, "3 MARCHAND #35\n2 GENDARME (holo)\n3 PORT\n3 FORÊT\n3 LOUP\n")
    assert deck.labels == ["MARCHAND", "GENDARME", "PORT", "FORÊT", "LOUP"]
    for label, row in (("MARCHAND #35", 0), ("marchand (35)", 0), ("MARCHAND (Laink)", 0), ("GENDARME #153", 1),
                       ("GENDARME (holo)", 1), ("GENDARME (Ultra rare holo 1)", 1), ("MARCHAND", 0)):
        assert deckstat.deck.card_rows(deck, label) == [row], label
        assert deck.count(f'"{label}"') == deck.counts[row], label  # an event's quoted name
    curve = deckstat.curve(deck, "wankul", cards=["MARCHAND #35", "GENDARME (holo)"], turns=[1], seat="first",
                           rng=1, n_trials=20_000)
    by_name = deckstat.curve(deck, "wankul", cards=["MARCHAND", "GENDARME"], turns=[1], seat="first", rng=1,
                             n_trials=20_000)
    assert curve.table["p"].tolist() == by_name.table["p"].tolist()
    assert curve.table["target"].tolist() == ["MARCHAND #35", "GENDARME (holo)"]
    known = deckstat.odds(deck, "wankul", "Terrain>=1", known={"hand": "MARCHAND #35, 2 GENDARME #153"},
                          turns=[1], seat="first").table["p"].iloc[0]
    assert known == deckstat.odds(deck, "wankul", "Terrain>=1", known={"hand": "MARCHAND, 2 GENDARME"},
                                  turns=[1], seat="first").table["p"].iloc[0]


def test_a_label_of_another_printing_gets_the_right_one_suggested(tmp_path, pool):
    deck = decklist(tmp_path, pool, "3 MARCHAND #35\n3 PORT\n3 FORÊT\n3 LOUP\n")
    with pytest.raises(DeckstatError) as info:
        deckstat.curve(deck, "wankul", cards="MARCHAND #36", turns=[1])
    assert "'MARCHAND' (#35, Origins, Laink, Commune)" in str(info.value)
    with pytest.raises(DeckstatError, match="did you mean 'MARCHAND'"):
        deckstat.odds(deck, "wankul", '"MARCHAND #36">=1', turns=[0])
    path = write(tmp_path, "3 MARCHAND #35\n3 PORT\n3 FORÊT\n3 LOUP\n", "deck.txt")
    line = assert_user_error(run("curve", path, "-g", "wankul", "--pool", pool, "--card", "MARCHAND #36"),
                             "'MARCHAND #36' is not in the deck")
    assert "'MARCHAND' (#35" in line
    assert run("curve", path, "-g", "wankul", "--pool", pool, "--card", "MARCHAND #35", "--turns", "1-2").exit_code == 0


@real_data
def test_real_wankul_curve_takes_the_label_the_decklist_needed(tmp_path):
    pool_path = SHARED_CARDDATA / "wankul_octerry_cards.csv"
    path = write(tmp_path, wankul_decklist(load_deck(pool_path)) + "3 CT #83\n", "deck.txt")
    deck = load_deck(path, pool=pool_path)
    assert "CT" in deck.labels and "CT #83" not in deck.labels
    shown = run("curve", path, "-g", "wankul", "--pool", pool_path, "--card", "CT #83", "--turns", "1-2")
    assert shown.exit_code == 0, shown.output
    assert "CT #83" in shown.stdout


@real_data
def test_real_wankul_decklist_errors_name_the_printings(tmp_path):
    pool_path = SHARED_CARDDATA / "wankul_octerry_cards.csv"
    message = assert_user_error(run("validate", write(tmp_path, "3 VENDEUR\n", "deck.txt"), "-g", "wankul",
                                    "--pool", pool_path), "line 1")
    assert "#35, Origins, Laink, Commune; #36, Origins, Terracid, Commune" in message
    assert "e.g. '3 VENDEUR #35'" in message
    message = assert_user_error(run("validate", write(tmp_path, "1 LINK\n", "deck.txt"), "-g", "wankul",
                                    "--pool", pool_path), "line 1")
    assert "base name of 'LINK - Gagnant TIcket Or Campus'" in message


@real_data
@pytest.mark.parametrize("file", ["wankul_octerry_cards.csv", "dm_latepate64_tcg_printings.csv"])
def test_every_label_of_a_real_pool_reads_back(tmp_path, file):
    pool = load_deck(SHARED_CARDDATA / file)
    deck = load_deck(write(tmp_path, "".join(f"1 {label}\n" for label in pool.labels), "deck.txt"), pool=pool)
    assert deck.labels == pool.labels and deck.size == len(pool.cards)


@real_data
@pytest.mark.parametrize(("file", "hulcus"), [("dm_latepate64_tcg_printings.csv", ["#23/110", "#M9/Y1"]),
                                              ("dm_ravenite_ocg_cards.csv", ["#80", "#247"])])
def test_real_duel_masters_decklist_counts_copies_by_name(tmp_path, file, hulcus):
    pool_path = SHARED_CARDDATA / file
    pool = load_deck(pool_path)
    per_name = Counter(pool.names)
    singles = [n for n in per_name if per_name[n] == 1 and "#" not in n and "(" not in n]
    lines = [f"2 Aqua Hulcus {hulcus[0]}", f"2 Aqua Hulcus {hulcus[1]}"] + [f"4 {n}" for n in singles[:9]]
    path = write(tmp_path, "\n".join(lines) + "\n", "deck.txt")
    deck = load_deck(path, pool=pool)
    assert deck.size == 40 and deck.count('"Aqua Hulcus"') == 4
    assert validate(deck, "duel-masters").legal
    path.write_text("\n".join(lines + [f"1 Aqua Hulcus {hulcus[0]}"]) + "\n", encoding="utf-8")
    result = validate(load_deck(path, pool=pool), "duel-masters")
    assert subjects(result) == [("Aqua Hulcus", "5 copies")]
    assert validate(load_deck(path, pool=pool), "duel-masters", copies_by="printing").legal


def test_a_ratio_filler_names_one_printing_by_its_label():
    deck = wankul_deck(2, 2)
    with pytest.raises(DeckstatError, match=r"names 2 printings of the deck \('MARCHAND #35', 'MARCHAND #36'\)"):
        with_resource_count(deck, "wankul", 9, filler="MARCHAND")
    # One Terrain fewer: the named printing takes the copy, within the limit of 3 per printing.
    rebuilt = with_resource_count(deck, "wankul", 9, filler="MARCHAND #36")
    copies = dict(zip(rebuilt.labels, rebuilt.counts))
    assert (copies["MARCHAND #35"], copies["MARCHAND #36"]) == (2, 3)
    assert rebuilt.size == 50 and rebuilt.count("Terrain") == 9


#: Printings of two names told apart by number, clan or holo flag, and a card with an effect.
_PRINTED = Deck.from_table([
    {"name": "VENDEUR", "number": "35", "clan": "Laink", "count": 2, "type": "Personnage", "cost": 1},
    {"name": "VENDEUR", "number": "36", "clan": "Terracid", "count": 1, "type": "Personnage", "cost": 1},
    {"name": "POLICIER", "shiny": 0, "count": 1, "type": "Personnage", "cost": 2},
    {"name": "POLICIER", "shiny": 1, "count": 2, "type": "Personnage", "cost": 2},
    {"name": "PORTAL", "number": "2", "count": 3, "type": "Terrain", "effect": "draw=1"}])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=5, max_size=5), st.booleans())
def test_a_deck_with_new_counts_is_the_deck_read_with_them(counts, read_before):
    if read_before:  # what the deck had worked out about its rows is carried over, and must be what reading gives
        _PRINTED.labels, _PRINTED.printings, _PRINTED.effects  # noqa: B018
    table = _PRINTED.cards.assign(count=counts)
    if not any(counts):
        return
    moved, read = _PRINTED.with_counts(np.array(counts)), Deck.from_table(table[table["count"] > 0])
    assert moved.cards.equals(read.cards)
    assert (moved.labels, moved.printings, moved.effects) == (read.labels, read.printings, read.effects)


def test_new_counts_out_of_range_are_refused_as_a_table_would_be():
    with pytest.raises(DeckstatError, match="count"):
        _PRINTED.with_counts(np.array([1, 1, 1, 1, 10**9]))
