"""Deck construction rules of the shipped games (deckstat.validate)."""

import math

import pytest
from helpers import SHARED_CARDDATA
from hypothesis import given, settings
from hypothesis import strategies as st

import deckstat
from deckstat import Deck, DeckstatError, validate
from deckstat.cards import pick_deck
from deckstat.games.profiles import RULE_KINDS
from deckstat.games.rules import CHECKS, NO_PART, file_warnings
from deckstat.questions.validate import VIOLATION_COLUMNS

GAMES = ["wankul", "duel-masters", "jdg", "licum", "pandrea"]


# ---------------------------------------------------------------- helpers


def spread(prefix: str, n: int, card_type: str, per: int = 3, **attributes) -> list[dict]:
    """``n`` cards of ``card_type`` as distinct names with at most ``per`` copies each."""
    rows, i = [], 0
    while n > 0:
        count = min(per, n)
        rows.append({"name": f"{prefix} {i}", "count": count, "type": card_type, **attributes})
        n -= count
        i += 1
    return rows


def found(result) -> list[tuple]:
    """The (subject, found, allowed) triples of a validation result's violations, in order."""
    table = result.table
    return list(zip(table["subject"], table["found"], table["allowed"]))


def wankul(size: int, terrains: int, extra: list[dict] | None = None) -> Deck:
    rows = spread("Terrain", terrains, "Terrain") + spread("Perso", size - terrains, "Personnage")
    return Deck.from_table(rows + (extra or []))


def jdg(size: int = 30, shiny: int = 0, extra: list[dict] | None = None) -> Deck:
    rows = [{"name": f"Carte {i}", "count": 1, "type": "INVOCATION", "shiny": int(i < shiny)}
            for i in range(size)]
    return Deck.from_table(rows + (extra or []))


def licum(impros: list[tuple[str, int]] | None = None, *, avant_match: int = 1, entre_periode: int = 1,
          difficultes: int = 24, punitions: int = 10, game: list[dict] | None = None,
          extra: list[dict] | None = None, deck_values: tuple[str, str] = ("preparation", "jeu")) -> Deck:
    """A Licum table: a preparation deck and a game deck (30 cards of team Rouges by default)."""
    prep, jeu = deck_values
    if impros is None:
        impros = [(f"Impro {i}", 1) for i in range(5)]
    rows = [{"deck": prep, "name": name, "count": count, "type": "Impro", "tags": "Mixte"}
            for name, count in impros]
    if avant_match:
        rows.append({"deck": prep, "name": "Avant-Match A", "count": avant_match, "type": "Avant-Match"})
    if entre_periode:
        rows.append({"deck": prep, "name": "Entre-Période A", "count": entre_periode, "type": "Entre-Période"})
    rows += [dict(r, deck=prep, tags="Punition") for r in spread("Punition", punitions, "Difficulté")]
    rows += [dict(r, deck=prep, tags="Langue") for r in spread("Difficulté", difficultes - punitions,
                                                               "Difficulté")]
    if game is None:
        game = (spread("Improvisateur", 10, "Improvisateur", per=2, team="Rouges")
                + spread("Condition", 10, "Condition") + spread("Shote", 10, "Shote"))
    rows += [dict(r, deck=jeu) for r in game]
    return Deck.from_table(rows + (extra or []))


def assert_messages(result) -> None:
    """Every violation message names the subject, what was found, what is allowed and the rule.

    The summary counts the same errors and warnings as the table, and ``legal`` means no error.
    """
    table = result.table
    assert list(table.columns) == VIOLATION_COLUMNS
    for row in table.itertuples(index=False):
        for text in (str(row.subject), row.found, row.allowed, row.rule):
            assert text in row.message
        assert row.level in ("error", "warning")
    summary = result.summary.iloc[0]
    assert summary["errors"] == (table["level"] == "error").sum()
    assert summary["warnings"] == (table["level"] == "warning").sum()
    assert result.legal is bool(summary["legal"]) is (int(summary["errors"]) == 0)


def test_every_rule_kind_a_profile_accepts_has_a_check():
    # A kind without a check would be loaded and then never checked.
    assert set(CHECKS) == set(RULE_KINDS)


# ---------------------------------------------------------------- shipped sample decks


@pytest.mark.parametrize("game", GAMES)
def test_sample_deck_is_legal(data_dir, game):
    deck = deckstat.load_deck(data_dir / game / "sample_deck.csv")
    result = validate(deck, game)
    assert result.table.empty
    assert list(result.table.columns) == VIOLATION_COLUMNS
    assert result.legal is True
    assert result.summary.to_dict(orient="records") == [
        {"deck": "sample_deck.csv", "game": game, "deck_size": deck.size, "legal": True, "errors": 0,
         "warnings": 0}]
    assert result.provenance["game"] == game and result.provenance["deck_size"] == deck.size


@pytest.mark.parametrize("name", ["sample_deck_fr.csv", "sample_deck_v2.csv"])
def test_other_wankul_samples_are_legal(data_dir, name):
    result = validate(deckstat.load_deck(data_dir / "wankul" / name), "wankul")
    assert result.table.empty and result.legal


def test_wankul_text_decklist_is_legal(data_dir):
    deck = deckstat.load_deck(data_dir / "wankul" / "decklist.txt", pool=data_dir / "wankul" / "pool.csv")
    result = validate(deck, "wankul")
    assert deck.size == 50
    assert result.table.empty and result.legal


ILLEGAL = {
    "wankul": [
        ("deck", "Terrain", "8 in 50 cards", "at least 10 (1 per 5 cards)"),
        ("deck", "Capitaine Baguette", "4 copies", "at most 3"),
    ],
    "duel-masters": [
        ("deck", "deck size", "38 cards", "at least 40 cards"),
        ("deck", "Gobelin Chalumeau", "5 copies", "at most 4"),
    ],
    "jdg": [
        ("deck", "deck size", "31 cards", "exactly 30 cards"),
        ("deck", "Ninja Distrait", "2 copies", "at most 1"),
        ("deck", "[shiny=1]", "6 cards", "at most 5 cards"),
    ],
    "licum": [
        ("preparation", "Impro", "4 cards", "exactly 5 cards"),
        ("preparation", "Impro", "4 different", "exactly 5 different cards"),
        ("preparation", "Punition", "14 of 24 Difficulté", "at most 12 (0.5 of Difficulté)"),
        ("game", "deck size", "32 cards", "at most 30 cards"),
        ("game", "Improvisateur", "Rouges (11 cards), Bleus (2 cards)", "one team"),
    ],
    "pandrea": [
        ("deck", "deck size", "25 cards", "at least 30 cards"),
        ("deck", "Paysans à Fourche", "4 copies", "at most 3"),
    ],
}


@pytest.mark.parametrize("game", GAMES)
def test_illegal_deck_has_the_expected_violations(data_dir, game):
    result = validate(deckstat.load_deck(data_dir / game / "illegal_deck.csv"), game)
    table = result.table
    got = list(zip(table["part"], table["subject"], table["found"], table["allowed"]))
    assert sorted(got) == sorted(ILLEGAL[game])
    assert set(table["deck"]) == {"illegal_deck.csv"} and set(table["game"]) == {game}
    assert set(result.table["level"]) == {"error"}
    assert result.legal is False
    assert_messages(result)


def test_illegal_wankul_message_reads_as_a_sentence(data_dir):
    result = validate(deckstat.load_deck(data_dir / "wankul" / "illegal_deck.csv"), "wankul")
    messages = set(result.table["message"])
    assert ("Capitaine Baguette: 4 copies, allowed at most 3 (at most 3 copies of a card, printings identical in "
            "play counted as one card)") in messages
    assert any(m.startswith("Terrain: 8 in 50 cards, allowed at least 10") for m in messages)


# ---------------------------------------------------------------- Wankul


@pytest.mark.parametrize(("size", "terrains"), [(50, 10), (50, 20), (25, 5), (26, 6), (30, 6), (6, 2), (10, 2)])
def test_wankul_terrain_ratio_met(size, terrains):
    result = validate(wankul(size, terrains), "wankul")
    assert result.table.empty and result.legal


@pytest.mark.parametrize(("size", "terrains", "needed"), [(50, 9, 10), (25, 4, 5), (26, 5, 6), (6, 1, 2), (11, 2, 3)])
def test_wankul_terrain_ratio_broken(size, terrains, needed):
    result = validate(wankul(size, terrains), "wankul")
    assert found(result) == [("Terrain", f"{terrains} in {size} cards", f"at least {needed} (1 per 5 cards)")]
    assert not result.legal


def test_wankul_more_than_50_cards_is_illegal():
    result = validate(wankul(51, 11), "wankul")
    assert found(result) == [("deck size", "51 cards", "6 to 50 cards")]
    assert_messages(result)


def test_wankul_smallest_deck_is_six_cards():
    assert validate(wankul(6, 2), "wankul").legal
    result = validate(wankul(5, 1), "wankul")
    assert found(result) == [("deck size", "5 cards", "6 to 50 cards")]


@pytest.mark.parametrize(("copies", "legal"), [(3, True), (4, False)])
def test_wankul_at_most_three_copies(copies, legal):
    rows = spread("Terrain", 10, "Terrain") + spread("Perso", 40 - copies, "Personnage")
    result = validate(Deck.from_table(rows + [{"name": "Souvent", "count": copies, "type": "Personnage"}]), "wankul")
    assert result.legal is legal
    assert found(result) == ([] if legal else [("Souvent", "4 copies", "at most 3")])


def test_wankul_copies_are_counted_across_spellings():
    rows = spread("Terrain", 10, "Terrain") + spread("Perso", 36, "Personnage")
    rows += [{"name": "Yéti en Vacances", "count": 2, "type": "Personnage"},
             {"name": "YETI EN VACANCES", "count": 2, "type": "Personnage"}]
    result = validate(Deck.from_table(rows), "wankul")
    assert found(result) == [("Yéti en Vacances", "4 copies", "at most 3")]


def test_wankul_card_of_another_type_is_reported():
    extra = [{"name": "Sortilège", "count": 1, "type": "Sort"}, {"name": "Sans Type", "count": 1, "type": None}]
    result = validate(wankul(48, 10, extra=extra), "wankul")
    assert found(result) == [("Sortilège", "type 'Sort'", "Terrain or Personnage"),
                             ("Sans Type", "no type", "Terrain or Personnage"),
                             # Sort is a Duel Masters type: a warning says which game it belongs to.
                             ("Duel Masters card types", "Sort (1 card)", "Wankul types (Terrain, Personnage)")]


@settings(max_examples=60, deadline=None)
@given(size=st.integers(1, 60), data=st.data())
def test_wankul_legal_exactly_when_the_rules_hold(size, data):
    terrains = data.draw(st.integers(0, size))
    result = validate(wankul(size, terrains), "wankul")
    expected = 6 <= size <= 50 and terrains >= math.ceil(size / 5)
    assert result.legal is expected
    assert result.table.empty is expected


# ---------------------------------------------------------------- Joueur du Grenier


def test_jdg_exactly_30_cards():
    assert validate(jdg(30), "jdg").table.empty
    assert found(validate(jdg(29), "jdg")) == [("deck size", "29 cards", "exactly 30 cards")]
    assert found(validate(jdg(31), "jdg")) == [("deck size", "31 cards", "exactly 30 cards")]


def test_jdg_no_duplicates():
    deck = Deck.from_table([{"name": f"Carte {i}", "count": 1, "type": "EFFET", "shiny": 0} for i in range(28)]
                           + [{"name": "Doublon", "count": 2, "type": "CONTRE", "shiny": 0}])
    assert found(validate(deck, "jdg")) == [("Doublon", "2 copies", "at most 1")]


def test_jdg_shiny_and_plain_printings_are_duplicates():
    deck = jdg(28, extra=[{"name": "Robot Brillant", "count": 1, "type": "INVOCATION", "shiny": 1},
                          {"name": "robot brillant", "count": 1, "type": "INVOCATION", "shiny": 0}])
    assert found(validate(deck, "jdg")) == [("Robot Brillant", "2 copies", "at most 1")]


def test_jdg_at_most_five_shiny_cards():
    assert validate(jdg(30, shiny=5), "jdg").table.empty
    result = validate(jdg(30, shiny=6), "jdg")
    assert found(result) == [("[shiny=1]", "6 cards", "at most 5 cards")]
    assert result.table.loc[0, "rule"] == "at most 5 shiny cards"


def test_jdg_card_types():
    deck = jdg(29, extra=[{"name": "Intrus", "count": 1, "type": "Terrain vague", "shiny": 0}])
    assert found(validate(deck, "jdg")) == [
        ("Intrus", "type 'Terrain vague'", "INVOCATION or EFFET or CONTRE or EQUIPEMENT or TERRAIN")]
    lower_case = Deck.from_table([{"name": f"C{i}", "type": "invocation", "shiny": 0} for i in range(30)])
    assert validate(lower_case, "jdg").table.empty


def test_jdg_deck_without_shiny_column_is_read_as_none_shiny_with_a_note():
    deck = Deck.from_table([{"name": f"Carte {i}", "type": "EFFET"} for i in range(30)])
    result = validate(deck, "jdg")
    assert result.legal and result.table.empty
    (note,) = result.provenance["notes"]
    assert "no 'shiny' column" in note and "at most 5 shiny cards" in note
    # The same deck with the column filled in is checked as before.
    assert validate(jdg(shiny=6), "jdg").legal is False
    assert validate(jdg(shiny=5), "jdg").provenance["notes"] == []


def test_count_rule_with_a_minimum_over_an_absent_column_counts_no_card(tmp_path):
    text = """id = "mini"\nname = "Mini"\n[[decks]]\n[[decks.rules]]\nkind = "count"\ngroup = "[rare=1]"
min = 2\ntext = "at least 2 rare cards"\n[play]\nhand_size = 1\nfirst_turn_draw = { first = 1, second = 1 }\n"""
    path = tmp_path / "mini.toml"
    path.write_text(text, encoding="utf-8")
    result = validate(Deck.from_table([{"name": "A", "count": 3}]), path)
    assert found(result) == [("[rare=1]", "0 cards", "at least 2 cards")]
    assert "no 'rare' column" in result.provenance["notes"][0]


# ---------------------------------------------------------------- Duel Masters


def test_duel_masters_at_least_40_cards_no_maximum():
    deck = lambda n: Deck.from_table(spread("Créature", n, "Créature", per=4))  # noqa: E731
    assert validate(deck(40), "duel-masters").table.empty
    assert validate(deck(80), "duel-masters").table.empty
    result = validate(deck(39), "duel-masters")
    assert found(result) == [("deck size", "39 cards", "at least 40 cards")]


def test_duel_masters_at_most_four_copies():
    rows = spread("Sort", 36, "Sort", per=4)
    assert validate(Deck.from_table(rows + [{"name": "Dragon", "count": 4, "type": "Créature"}]), "dm").table.empty
    result = validate(Deck.from_table(rows + [{"name": "Dragon", "count": 5, "type": "Créature"}]), "dm")
    assert found(result) == [("Dragon", "5 copies", "at most 4")]


def test_duel_masters_accepts_any_card_type():
    rows = spread("Créature", 39, "Créature", per=4) + [{"name": "Nouveau", "count": 1, "type": "Bouclier X"}]
    assert validate(Deck.from_table(rows), "duel-masters").table.empty


# ---------------------------------------------------------------- Licum


def test_licum_reference_deck_is_legal():
    deck = licum()
    result = validate(deck, "licum")
    assert result.table.empty and result.legal
    assert deck.size == 31 + 30


def test_licum_avant_match_and_entre_periode_count_as_one():
    assert validate(licum(difficultes=24), "licum").table.empty  # 31 physical cards count as 30
    result = validate(licum(difficultes=25, punitions=10), "licum")  # 32 physical cards count as 31
    assert list(result.table["part"]) == ["preparation"]
    assert found(result) == [("deck size", "31 cards (Avant-Match + Entre-Période counted as one)",
                              "at most 30 cards")]
    assert_messages(result)


def test_licum_preparation_has_no_minimum():
    assert validate(licum(difficultes=2, punitions=1), "licum").table.empty


def test_licum_five_copies_of_one_impro_is_illegal():
    result = validate(licum(impros=[("Impro Unique", 5)]), "licum")
    assert found(result) == [("Impro", "1 different", "exactly 5 different cards")]
    assert not result.legal


@pytest.mark.parametrize("n", [4, 6])
def test_licum_exactly_five_impros(n):
    result = validate(licum(impros=[(f"Impro {i}", 1) for i in range(n)], difficultes=20, punitions=10),
                      "licum")
    assert found(result) == [("Impro", f"{n} cards", "exactly 5 cards"),
                             ("Impro", f"{n} different", "exactly 5 different cards")]


def test_licum_impro_names_compare_without_case_or_accents():
    impros = [("Impro 0", 1), ("Impro 1", 1), ("Impro 2", 1), ("Été", 1), ("ETE", 1)]
    assert found(validate(licum(impros=impros), "licum")) == [("Impro", "4 different", "exactly 5 different cards")]


@pytest.mark.parametrize(("avant_match", "entre_periode", "expected"), [
    (0, 1, [("Avant-Match", "0 cards", "exactly 1 card")]),
    (1, 0, [("Entre-Période", "0 cards", "exactly 1 card")]),
    (2, 1, [("Avant-Match", "2 cards", "exactly 1 card")]),
])
def test_licum_one_avant_match_and_one_entre_periode(avant_match, entre_periode, expected):
    result = validate(licum(avant_match=avant_match, entre_periode=entre_periode, difficultes=20), "licum")
    assert found(result) == expected


@pytest.mark.parametrize(("punitions", "difficultes", "legal"), [
    (12, 24, True), (13, 24, False), (0, 24, True), (11, 23, True), (12, 23, False), (1, 1, False)])
def test_licum_punitions_at_most_half_of_the_difficultes(punitions, difficultes, legal):
    result = validate(licum(difficultes=difficultes, punitions=punitions), "licum")
    assert result.legal is legal
    if not legal:
        assert found(result) == [("Punition", f"{punitions} of {difficultes} Difficulté",
                                  f"at most {difficultes // 2} (0.5 of Difficulté)")]
        assert list(result.table["part"]) == ["preparation"]


def test_licum_preparation_holds_only_preparation_cards():
    extra = [{"deck": "preparation", "name": "Condition Perdue", "count": 1, "type": "Condition"}]
    result = validate(licum(difficultes=20, extra=extra), "licum")
    assert found(result) == [("Condition Perdue", "type 'Condition'",
                              "Impro or Avant-Match or Entre-Période or Difficulté")]


def test_licum_game_deck_at_most_30_cards_copies_allowed():
    game = [{"name": "Improvisateur A", "count": 2, "type": "Improvisateur", "team": "Rouges"},
            {"name": "Shote Répétée", "count": 28, "type": "Shote"}]
    assert validate(licum(game=game), "licum").table.empty
    game[1]["count"] = 29
    result = validate(licum(game=game), "licum")
    assert list(result.table["part"]) == ["game"]
    assert found(result) == [("deck size", "31 cards", "at most 30 cards")]


# Six more game-deck cards: the game deck then holds the 7-card starting hand.
PADDING = {"name": "Remplissage", "count": 6, "type": "Shote"}


def test_licum_improvisateurs_of_one_team():
    game = [{"name": "Improvisateur A", "count": 2, "type": "Improvisateur", "team": "Rouges"},
            {"name": "Improvisateur B", "count": 1, "type": "Improvisateur", "team": "Bleus"},
            {"name": "Condition A", "count": 3, "type": "Condition", "team": "Verts"},
            PADDING]
    result = validate(licum(game=game), "licum")
    assert found(result) == [("Improvisateur", "Rouges (2 cards), Bleus (1 card)", "one team")]
    assert result.table.loc[0, "part"] == "game"
    game[1]["team"] = "ROUGES"
    assert validate(licum(game=game), "licum").table.empty


def test_licum_improvisateur_without_team_breaks_the_one_team_rule():
    game = [{"name": "Improvisateur A", "count": 1, "type": "Improvisateur", "team": "Rouges"},
            {"name": "Improvisateur B", "count": 1, "type": "Improvisateur", "team": None},
            PADDING]
    assert found(validate(licum(game=game), "licum")) == [
        ("Improvisateur", "Rouges (1 card), (none) (1 card)", "one team")]


@pytest.mark.parametrize("card_type", ["Impro", "Avant-Match", "Entre-Période", "Difficulté"])
def test_licum_preparation_cards_in_the_game_deck_are_only_a_warning(card_type):
    game = [{"name": "Improvisateur A", "count": 1, "type": "Improvisateur", "team": "Rouges"},
            {"name": "Carte de Préparation", "count": 2, "type": card_type},
            PADDING]
    result = validate(licum(game=game), "licum")
    assert found(result) == [(card_type, "2 cards", "at most 0 cards")]
    assert list(result.table["level"]) == ["warning"]
    assert list(result.table["part"]) == ["game"]
    assert result.legal is True
    assert_messages(result)


def test_licum_table_without_deck_column_is_refused():
    deck = Deck.from_table([{"name": f"Impro {i}", "type": "Impro"} for i in range(5)])
    with pytest.raises(DeckstatError, match=r"'deck' column") as info:
        validate(deck, "licum")
    assert "preparation" in str(info.value) and "jeu" in str(info.value)


@pytest.mark.parametrize(("value", "found_text"), [("réserve", "deck 'réserve'"), (None, "no deck"),
                                                    ("", "no deck")])
def test_licum_card_with_unknown_deck_value_is_a_violation(value, found_text):
    extra = [{"deck": value, "name": "Carte Égarée", "count": 3, "type": "Shote"}]
    result = validate(licum(extra=extra), "licum")
    assert found(result) == [("Carte Égarée", found_text, "preparation or game")]
    assert list(result.table["part"]) == [NO_PART]
    assert result.legal is False
    assert_messages(result)  # the stray card counts in neither deck: the game deck stays at 30


@pytest.mark.parametrize("values", [("préparation", "game"), ("PREP", "Jeu"), ("Preparation", "JEU")])
def test_licum_deck_values_are_matched_by_alias(values):
    assert validate(licum(deck_values=values), "licum").table.empty


# ---------------------------------------------------------------- Pandrea (assumed limits)


def test_pandrea_assumed_size_at_least_30_no_maximum():
    deck = lambda n: Deck.from_table(spread("Unité", n, "Unité"))  # noqa: E731
    assert validate(deck(30), "pandrea").table.empty
    assert validate(deck(90), "pandrea").table.empty
    assert found(validate(deck(29), "pandrea")) == [("deck size", "29 cards", "at least 30 cards")]


def test_pandrea_assumed_at_most_three_copies():
    rows = spread("Logistique", 27, "Logistique")
    assert validate(Deck.from_table(rows + [{"name": "Golem", "count": 3, "type": "Unité"}]), "pandrea").table.empty
    result = validate(Deck.from_table(rows + [{"name": "Golem", "count": 4, "type": "Unité"}]), "pandrea")
    assert found(result) == [("Golem", "4 copies", "at most 3")]
    assert "assumption" in deckstat.get_profile("pandrea").part().rules[1].source


# ---------------------------------------------------------------- validate() itself


def test_generic_profile_accepts_any_deck_that_fills_the_opening_hand():
    assert validate(Deck.from_table([{"name": "Seule", "count": 5, "type": "Quoi"}]), "generic").table.empty
    # A smaller deck cannot deal its 5-card hand, which odds refuses too.
    result = validate(Deck.from_table([{"name": "Seule", "count": 4, "type": "Quoi"}]), "generic")
    found_rows = result.table[["subject", "found", "allowed"]].values.tolist()
    assert found_rows == [["deck size", "4 cards", "at least 5 cards"]]


def test_validate_accepts_a_profile_object_and_an_alias():
    deck = wankul(50, 10)
    assert validate(deck, deckstat.get_profile("wankul")).table.empty
    result = validate(deck, "WANKUL-TCG")
    assert result.summary["game"].tolist() == ["wankul"] and result.provenance["game"] == "wankul"


def test_validate_refuses_unknown_game_and_non_deck():
    with pytest.raises(DeckstatError, match="unknown game 'wankl'.*did you mean 'wankul'"):
        validate(wankul(50, 10), "wankl")
    with pytest.raises(DeckstatError, match="deck must be a Deck"):
        validate([{"name": "x"}], "wankul")


def test_several_violations_of_one_deck_are_all_reported():
    extra = [{"name": "Quatre Fois", "count": 4, "type": "Personnage"}, {"name": "Sort", "count": 1, "type": "Sort"}]
    rows = spread("Terrain", 8, "Terrain") + spread("Perso", 40, "Personnage") + extra
    result = validate(Deck.from_table(rows), "wankul")
    assert sorted(result.table["subject"]) == ["Duel Masters card types", "Quatre Fois", "Sort", "Terrain",
                                               "deck size"]
    assert_messages(result)


# ---------------------------------------------------------------- Licum's Mise au Jeu and starting hand

MISE_AU_JEU = [{"deck": "jeu", "name": "Mise au Jeu Verte", "count": 1, "type": "Mise au Jeu"},
               {"deck": None, "name": "Mise au Jeu Rouge", "count": 1, "type": "Mise au Jeu"}]


def test_licum_mise_au_jeu_cards_never_count():
    # « Elles ne comptent jamais dans vos totaux de cartes »: a 30-card game deck with its two Mise au Jeu
    # cards (one filed under the game deck, one under no deck) is a legal 30-card game deck.
    deck = licum(extra=MISE_AU_JEU)
    result = validate(deck, "licum")
    assert result.table.empty and result.legal
    assert result.summary["deck_size"].iloc[0] == 31 + 30
    (note,) = result.provenance["notes"]
    assert note.startswith("2 cards of Mise au Jeu (Mise au Jeu Verte, Mise au Jeu Rouge) set apart")


def test_licum_mise_au_jeu_cards_are_never_drawn():
    from scipy.stats import hypergeom

    deck = licum(extra=MISE_AU_JEU)
    # The game deck: 10 Improvisateurs, 10 Conditions, 10 Shotes; P(no Shote in the 7-card hand) is
    # hypergeometric over 30 cards, not 31.
    result = deckstat.odds(deck, "licum", "Shote>=1", turns=[0], seat="first")
    assert result.provenance["deck_size"] == 30
    assert result.table["p"].iloc[0] == pytest.approx(1 - hypergeom(M=30, n=10, N=7).pmf(0), abs=1e-12)
    drawn = deckstat.get_profile("licum").drawn_deck(deck)
    assert drawn.size == 30 and not any(name.startswith("Mise au Jeu") for name in drawn.names)


def test_licum_game_deck_must_hold_the_starting_hand():
    # « Prenez 7 cartes de ce dernier, c'est votre main de départ. »
    six = [{"name": "Improvisateur A", "count": 1, "type": "Improvisateur", "team": "Rouges"},
           {"name": "Shote", "count": 5, "type": "Shote"}]
    result = validate(licum(game=six), "licum")
    assert found(result) == [("deck size", "6 cards", "at least 7 cards")]
    assert list(result.table["part"]) == ["game"] and not result.legal
    (rule,) = [r for r in deckstat.get_profile("licum").part("game").rules if r.id == "game-hand"]
    assert "Prenez 7 cartes" in rule.source
    seven = licum(game=[dict(six[1], count=6), six[0]])
    assert validate(seven, "licum").legal
    # The questions agree: the 7-card deck deals its hand (turn 0) and has nothing left to draw.
    assert deckstat.odds(seven, "licum", "Improvisateur>=1", turns=[0]).table["p"].tolist() == [1.0, 1.0]
    with pytest.raises(DeckstatError, match="can go up to turn 0"):
        deckstat.odds(seven, "licum", "Improvisateur>=1", turns=[1])


# ---------------------------------------------------------------- files that are not one deck of the game


def two_decks(column: str = "deck_name") -> Deck:
    rows = [dict(r, **{column: "Feu"}) for r in spread("Créature Feu", 30, "Créature", per=4)
            + spread("Sort Feu", 10, "Sort", per=4)]
    rows += [dict(r, **{column: "Ténèbres"}) for r in spread("Créature Ténèbres", 30, "Créature", per=4)
             + spread("Sort Ténèbres", 10, "Sort", per=4)]
    return Deck.from_table(rows)


@pytest.mark.parametrize("column", ["deck_name", "deck", "Nom du deck", "paquet"])
def test_two_decks_in_one_file_are_a_warning(column):
    result = validate(two_decks(column), "duel-masters")
    assert result.legal
    (row,) = result.table.itertuples(index=False)
    assert row.level == "warning" and row.subject == f"column {column!r}"
    assert row.found == "2 decks: 'Feu' (40 cards), 'Ténèbres' (40 cards)"
    assert "pick one with --deck-name 'Feu'" in row.allowed and "deck_name=" in row.allowed
    assert_messages(result)
    # The deck the warning names is the one the option picks.
    picked = pick_deck(two_decks(column), "Feu")
    assert picked.size == 40 and validate(picked, "duel-masters").table.empty


def test_decklist_sections_of_one_type_are_not_decks():
    rows = [dict(r, deck="Terrains") for r in spread("Terrain", 10, "Terrain")]
    rows += [dict(r, deck="Personnages") for r in spread("Perso", 40, "Personnage")]
    assert validate(Deck.from_table(rows), "wankul").table.empty


def test_licum_deck_column_names_parts_but_a_deck_name_column_is_checked():
    assert validate(licum(), "licum").table.empty
    table = licum().cards.assign(deck_name=["Rouges"] * 20 + ["Bleus"] * (len(licum().cards) - 20))
    result = validate(Deck.from_table(table), "licum")
    assert list(result.table["subject"]) == ["column 'deck_name'"]
    assert list(result.table["part"]) == ["(file)"]


def test_another_games_types_and_columns_are_warnings(data_dir):
    result = validate(deckstat.load_deck(data_dir / "wankul" / "sample_deck.csv"), "duel-masters")
    assert result.legal
    assert found(result) == [("Wankul card types", "Terrain (10 cards), Personnage (40 cards)",
                              "Duel Masters types (Créature, Sort)"),
                             ("Wankul columns", "force, clan", "Duel Masters card data")]
    assert set(result.table["level"]) == {"warning"}
    assert_messages(result)
    # A type two games share is given to the game that explains the most: Wankul, not JdG's TERRAIN too.
    assert "Joueur du Grenier" not in " ".join(result.table["message"])


@pytest.mark.parametrize("game", GAMES)
def test_a_games_own_sample_gives_no_file_warning(data_dir, game):
    deck = deckstat.load_deck(data_dir / game / "sample_deck.csv")
    assert file_warnings(deck, deckstat.get_profile(game)) == []


@pytest.mark.skipif(not (SHARED_CARDDATA / "dm_decklists_jasfreaq.csv").exists(), reason="no shared card data")
def test_shared_file_with_two_duel_masters_decks():
    deck = deckstat.load_deck(SHARED_CARDDATA / "dm_decklists_jasfreaq.csv")
    result = validate(deck, "duel-masters")
    assert found(result) == [("column 'deck_name'",
                              "2 decks: \"Shobu's Fire Deck\" (40 cards), \"Kokujo's Darkness Deck\" (40 cards)",
                              "one deck: pick one with --deck-name \"Shobu's Fire Deck\" (deck_name= in Python and "
                              "batch specs), or keep the rows of one deck_name value in a file of their own")]


# ---------------------------------------------------------------- Wankul's rounded Terrain minimum


@pytest.mark.parametrize(("size", "legal_terrains"), [(41, 9), (42, 9), (44, 9), (45, 9), (46, 10)])
def test_wankul_terrain_minimum_is_rounded_up(size, legal_terrains):
    assert validate(wankul(size, legal_terrains), "wankul").legal
    result = validate(wankul(size, legal_terrains - 1), "wankul")
    assert found(result) == [("Terrain", f"{legal_terrains - 1} in {size} cards",
                              f"at least {legal_terrains} (1 per 5 cards)")]
    (rule,) = [r for r in deckstat.get_profile("wankul").parts[0].rules if r.kind == "ratio"]
    assert "rounded up" in rule.text
