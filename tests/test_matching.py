"""Whole-word matching (``~=``), French/English synonyms from the profiles, and groups that match no card."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import deckstat
from deckstat.deck import Deck, has_word
from deckstat.errors import DeckstatError, ExpressionError
from deckstat.games.profiles import parse_profile
from deckstat.synonyms import Synonyms
from tests.helpers import SHARED_CARDDATA, assert_user_error, ok, run

# --------------------------------------------------------------------------- whole words


@pytest.fixture
def races() -> Deck:
    return Deck.from_table([
        {"name": "Bolshack", "count": 1, "type": "Creature", "race": "Armored Dragon"},
        {"name": "Gardienne", "count": 2, "type": "Creature", "race": "Volcano Dragon;Human"},
        {"name": "Crème Brûlée", "count": 4, "type": "Creature", "race": "Dragon"},
        {"name": "Lézard", "count": 8, "type": "Creature", "race": "Dragonoid"},
        {"name": "Scarabée", "count": 16, "type": "Creature", "race": "Insecte Géant"},
        {"name": "Brasier", "count": 32, "type": "Spell", "race": None},
    ])


def named(deck: Deck, group: str) -> set[str]:
    return set(deck.cards["name"][deck.mask(group)])


@pytest.mark.parametrize(("group", "expected"), [
    ("[race~=Dragon]", {"Bolshack", "Gardienne", "Crème Brûlée"}),
    ("[race~Dragon]", {"Bolshack", "Gardienne", "Crème Brûlée", "Lézard"}),
    ("[race~=dragon]", {"Bolshack", "Gardienne", "Crème Brûlée"}),
    ("[race~=Armored Dragon]", {"Bolshack"}),
    ("[race~=Drag]", set()),
    ("[race~=geant]", {"Scarabée"}),  # accent-insensitive
    ("[race~=Human]", {"Gardienne"}),  # any item of a list
    ("[name~=Brulee]", {"Crème Brûlée"}),
])
def test_whole_word_and_part_of_a_value(races, group, expected):
    assert named(races, group) == expected


def test_whole_word_counts(races):
    assert races.count("[race~=Dragon]") == 1 + 2 + 4
    assert races.count("[race~Dragon]") == 1 + 2 + 4 + 8


@pytest.mark.parametrize(("text", "word", "expected"), [
    ("armored dragon", "dragon", True),
    ("dragon", "dragon", True),
    ("dragonoid", "dragon", False),
    ("volcano-dragon", "dragon", True),  # a hyphen bounds a word
    ("dragon_rider", "dragon", True),  # so does an underscore: only letters and digits join
    ("dragons dragon", "dragon", True),  # the second occurrence counts
    ("dragon2", "dragon", False),
    ("", "dragon", False),
])
def test_has_word(text, word, expected):
    assert has_word(text, word) is expected


@given(st.lists(st.sampled_from(["dragon", "oid", " ", "-", "x", "é"]), max_size=8).map("".join),
       st.sampled_from(["dragon", "x", "oid"]))
def test_a_whole_word_is_a_part(text, word):
    # '~=' never matches where '~' does not, and a text that is exactly the word is a whole word.
    if has_word(text, word):
        assert word in text
    assert has_word(word, word)


# --------------------------------------------------------------------------- synonyms


FR_EN = Synonyms((("civilization", ("Feu", "Fire")), ("type", ("Sort", "Spell")), ("race", ("Humain", "Human"))))


@pytest.fixture
def english() -> Deck:
    return Deck.from_table([
        {"name": "Bolshack", "count": 4, "type": "Creature", "civilization": "Fire", "race": "Armored Dragon"},
        {"name": "Gardienne", "count": 2, "type": "Creature", "civilization": "Fire;Light",
         "race": "Volcano Dragon;Human"},
        {"name": "Magma Gazer", "count": 3, "type": "Spell", "civilization": "Fire", "race": None},
        {"name": "Terror Pit", "count": 1, "type": "Spell", "civilization": "Darkness", "race": None},
    ]).with_synonyms(FR_EN)


@pytest.mark.parametrize(("group", "n"), [
    ("[civilization=Feu]", 9), ("[civilization=FIRE]", 9), ("[civilisation=feu]", 9),
    ("[civilization!=Feu]", 1), ("[civilization~Fe]", 0), ("[civilization~Feu]", 9), ("[civilization~=Feu]", 9),
    ("Sort", 4), ("Spell", 4), ("[type=Sort]", 4), ("[type!=Sort]", 6),
    ("[race=Humain]", 2), ("[race~=Humain]", 2), ("Creature", 6), ("Créature", 6),
])
def test_synonyms_match_either_language(english, group, n):
    assert english.count(group) == n


def test_synonyms_never_change_names(english):
    spell_named = Deck.from_table([{"name": "Sort", "count": 1, "type": "Creature"},
                                   {"name": "Spell", "count": 2, "type": "Creature"}]).with_synonyms(FR_EN)
    assert spell_named.count("Sort") == 1  # a card name means only itself


def test_mask_cache_follows_the_synonyms():
    plain = Deck.from_table([{"name": "A", "count": 3, "type": "Spell", "civilization": "Fire"}])
    assert plain.count("[civilization=Feu]") == 0  # cached without synonyms…
    with_them = plain.with_synonyms(FR_EN)
    assert with_them.count("[civilization=Feu]") == 3  # …and not served to the deck that has them
    assert plain.count("[civilization=Feu]") == 0
    assert with_them.with_synonyms(FR_EN) is with_them
    assert with_them.with_synonyms(None).count("Sort") == 0


def _profile(synonyms: object) -> dict:
    return {"id": "t", "name": "T", "decks": [{"id": "main"}], "play": {"hand_size": 5,
            "first_turn_draw": {"first": 1, "second": 1}}, "synonyms": synonyms}


def test_profile_synonyms_are_parsed_by_canonical_column():
    profile = parse_profile(_profile({"civilisation": [["Feu", "Fire"]], "Type": [["Sort", "Spell", "Sorcery"]]}),
                            where="t.toml")
    assert profile.synonyms.equivalents("civilization", "fire") == {"feu", "fire"}
    assert profile.synonyms.equivalents("type", "Sorcery") == {"sort", "spell", "sorcery"}
    assert ("same values", "type: Sort = Spell = Sorcery") in profile.describe()


@pytest.mark.parametrize(("synonyms", "wording"), [
    ([["Feu", "Fire"]], "synonyms: expected a table [synonyms], got a list"),
    ({"civilization": "Feu"}, "expected a list of sets"),
    ({"civilization": [["Feu", 3]]}, "expected a list of texts such as"),
    ({"civilization": [["Feu"]]}, "names a single value"),
    ({"type": [["Créature", "CREATURE"]]}, "case and accents are ignored"),
    ({"civilization": [["Feu", "Fire"], ["fire", "Fuego"]]}, "'Fire' is in two sets"),
    ({"civilization": [["Feu;Eau", "Fire"]]}, "expected a non-empty text without ';'"),
    ({"civilization": [["Feu", "Fire"]], "civilisation": [["Eau", "Water"]]}, "name the same column"),
])
def test_profile_synonyms_are_checked(synonyms, wording):
    with pytest.raises(DeckstatError) as info:
        parse_profile(_profile(synonyms), where="t.toml")
    assert wording in str(info.value) and "t.toml" in str(info.value)


@pytest.mark.parametrize(("french", "english"), [
    ("[civilization=Feu]>=2", "[civilization=Fire]>=2"),
    ("Sort>=1", "Spell>=1"),
    ("[civilization=Ténèbres]>=1", "[civilization=Darkness]>=1"),
])
def test_duel_masters_accepts_french_and_english(french, english):
    deck = Deck.from_table([
        {"name": "Bolshack", "count": 12, "type": "Creature", "civilization": "Fire"},
        {"name": "Magma Gazer", "count": 8, "type": "Spell", "civilization": "Fire"},
        {"name": "Terror Pit", "count": 20, "type": "Spell", "civilization": "Darkness"},
    ])
    a = deckstat.odds(deck, "duel-masters", french, turns=[0, 3]).table["p"]
    b = deckstat.odds(deck, "duel-masters", english, turns=[0, 3]).table["p"]
    assert a.tolist() == b.tolist()


def test_french_deck_answers_english_events():
    deck = deckstat.load_deck(Path(deckstat.__file__).parents[1] / "data" / "duel-masters" / "sample_deck.csv")
    fire = deckstat.odds(deck, "dm", "[civilization=Fire]>=1 and Spell>=1", turns=[2]).table["p"].iloc[0]
    feu = deckstat.odds(deck, "dm", "[civilization=Feu]>=1 and Sort>=1", turns=[2]).table["p"].iloc[0]
    assert fire == feu and 0 < fire < 1


def test_wankul_english_type_in_validation():
    # 'Character' is Wankul's Personnage: the 'allowed' rule accepts it.
    deck = Deck.from_table([{"name": f"T{i}", "count": 2, "type": "Terrain"} for i in range(5)]
                           + [{"name": f"P{i}", "count": 2, "type": "Character"} for i in range(20)])
    assert deckstat.validate(deck, "wankul").legal
    assert deck.size == 50 and deckstat.odds(deck, "wankul", "Personnage>=5", turns=[0], mulligan=False).table[
        "p"].iloc[0] == pytest.approx(math.comb(40, 5) / math.comb(50, 5))


def test_games_show_prints_synonyms():
    out = ok(run("games", "show", "duel-masters"))
    assert "Feu = Fire" in out and "Sort = Spell" in out


def test_every_shipped_synonym_is_consistent():
    for profile in deckstat.list_profiles():
        for column, spellings in profile.synonyms.sets:
            assert len({deckstat.text.fold(s) for s in spellings}) >= 2, (profile.id, column)


@pytest.mark.skipif(not (SHARED_CARDDATA / "dm_decklists_jasfreaq.csv").exists(), reason="no shared card data")
def test_real_english_decklists_answer_french_events():
    deck = deckstat.load_deck(SHARED_CARDDATA / "dm_decklists_jasfreaq.csv")
    fire = deckstat.odds(deck, "duel-masters", "[civilization=Fire]>=2", turns=range(4)).table["p"]
    feu = deckstat.odds(deck, "duel-masters", "[civilization=Feu]>=2", turns=range(4)).table["p"]
    assert fire.tolist() == feu.tolist()
    assert fire.iloc[0] > 0.5  # half the 80 cards are Fire
    dark = deckstat.odds(deck, "duel-masters", "[civilization=Ténèbres]>=1 and Sort>=1", turns=[3]).table["p"]
    assert dark.iloc[0] > 0


@pytest.mark.skipif(not (SHARED_CARDDATA / "dm_latepate64_tcg_cards.csv").exists(), reason="no shared card data")
def test_real_english_pool_whole_word_races():
    pool = pd.read_csv(SHARED_CARDDATA / "dm_latepate64_tcg_cards.csv")
    deck = Deck.from_table(pool.assign(count=1)).with_synonyms(deckstat.get_profile("dm").synonyms)
    races = pool["races"].fillna("")
    whole = sum(any(w == "Dragon" for item in r.split(";") for w in item.split()) for r in races)
    part = sum("dragon" in r.lower() for r in races)
    assert deck.count("[race~=Dragon]") == whole
    assert deck.count("[race~Dragon]") == part > whole  # Dragonoid is a part, not a whole word
    assert deck.count("[civilization=Feu]") == deck.count("[civilization=Fire]") > 0


# --------------------------------------------------------------------------- groups that match no card


@pytest.fixture
def fire_deck() -> Deck:
    return Deck.from_table([
        {"name": "Bolshack Dragon", "count": 10, "type": "Creature", "civilization": "Fire",
         "race": "Armored Dragon"},
        {"name": "Deadly Fighter", "count": 10, "type": "Creature", "civilization": "Fire", "race": "Dragonoid"},
        {"name": "Magma Gazer", "count": 20, "type": "Spell", "civilization": "Fire", "race": None},
    ])


@pytest.mark.parametrize(("event", "words"), [
    ("[civilization=Fuego]>=2", ["[civilization=Fuego]", "matches no card", "Fire", "allow_absent=True"]),
    ("[race=Dragon]", ["its race values are", "Armored Dragon", "Dragonoid", "use ~= to match a whole word",
                       "[race~=Dragon] (Armored Dragon)"]),
    # Only inside a longer word: what ~ would count is named, never offered as the fix.
    ("[race=Dragono]", ["no race value holds the word 'Dragono'", "(Dragonoid)", "[race~Dragono] would count"]),
    ("[race~=Dragono]", ["no race value holds the word 'Dragono'", "(Dragonoid)"]),
    ("[race=Armored Dragn]", ["did you mean 'Armored Dragon'?"]),
    ("Sortilège", ["matches no card type, tag or card name", "its types are Creature, Spell"]),
    ('"Bolshack Dragn"', ["did you mean 'Bolshack Dragon'?"]),
    ("Bolshack", ["use [name~=Bolshack] to match a whole word of a card name"]),
    ("[cost>=1]", ["unknown attribute 'cost'"]),
    ("Creature and [civilization=Eau]", ["position 14", "[civilization=Eau]"]),
])
def test_absent_group_is_an_error_that_says_what_the_deck_has(fire_deck, event, words):
    with pytest.raises(ExpressionError) as info:
        deckstat.odds(fire_deck, "duel-masters", event, turns=[0])
    message = str(info.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message


@pytest.mark.parametrize(("event", "words"), [
    # A bare word that is a whole word of a race (not of a card name first): the race it most likely means.
    ("Dragon", ["use [race~=Dragon] to match a whole word of a race value (Armored Dragon)"]),
    ("Dragonoid", ["use [race=Dragonoid] to match the cards of that race value"]),
    ("Armored", ["[race~=Armored]"]),
])
def test_a_bare_word_gets_the_attribute_it_is_a_word_of(fire_deck, event, words):
    with pytest.raises(ExpressionError) as info:
        deckstat.odds(fire_deck, "duel-masters", event, turns=[0])
    for word in words:
        assert word in str(info.value), str(info.value)


def test_a_word_only_inside_longer_words_is_never_offered_as_a_fix():
    # A deck of Dragonoids holds no Dragon: [race~Dragon] would count the Dragonoids, so it is named, not advised.
    deck = Deck.from_table([{"name": "Deadly Fighter", "count": 20, "type": "Creature", "race": "Dragonoid"},
                            {"name": "Magma Gazer", "count": 20, "type": "Spell", "race": None}])
    for event in ("[race=Dragon]", "[race~=Dragon]", "Dragon"):
        with pytest.raises(ExpressionError) as info:
            deckstat.odds(deck, "duel-masters", event, turns=[0])
        message = str(info.value)
        assert "no race value holds the word 'Dragon', only longer words that contain it (Dragonoid)" in message
        assert "[race~Dragon] would count" in message and "use ~" not in message and "use [" not in message


@pytest.mark.skipif(not SHARED_CARDDATA.is_dir(), reason="no real card data next to the repository")
def test_real_duel_masters_races_get_whole_word_advice(tmp_path):
    pool = deckstat.load_deck(SHARED_CARDDATA / "dm_latepate64_tcg_cards.csv")
    fire = pool.cards[pool.cards["civilization"] == "Fire"]  # the file's "civilizations" and "races" columns
    dragonoids = fire[fire["race"] == "Dragonoid"]["name"].head(10).tolist()
    armored = fire[fire["race"] == "Armored Dragon"]["name"].head(5).tolist()
    only = tmp_path / "dragonoids.txt"
    only.write_text("".join(f"4 {n}\n" for n in dragonoids), encoding="utf-8")
    line = assert_user_error(run("odds", only, "-g", "duel-masters", "--pool", SHARED_CARDDATA /
                                 "dm_latepate64_tcg_cards.csv", "--event", "[races=Dragon]>=1"),
                             "no races value holds the word 'Dragon'", "(Dragonoid)")
    assert "use ~" not in line
    mixed = tmp_path / "mixed.txt"
    mixed.write_text("".join(f"4 {n}\n" for n in dragonoids[:5] + armored), encoding="utf-8")
    for event, advice in (("[races=Dragon]>=1", "[races~=Dragon] (Armored Dragon)"),
                          ("Dragon>=1", "use [race~=Dragon] to match a whole word of a race value")):
        line = assert_user_error(run("odds", mixed, "-g", "duel-masters", "--pool", SHARED_CARDDATA /
                                     "dm_latepate64_tcg_cards.csv", "--event", event), advice)
        assert "Dragonoid)" not in line.split(advice)[1][:20]
    # The advice given answers: Armored Dragons counted, Dragonoids not.
    deck = deckstat.load_deck(mixed, pool=SHARED_CARDDATA / "dm_latepate64_tcg_cards.csv")
    assert deck.count("[races~=Dragon]") == 20 and deck.count("[races~Dragon]") == 40


# --------------------------------------------------------------------------- a yes/no attribute alone


def test_a_bare_yes_no_attribute_counts_the_cards_where_it_is_true(tmp_path):
    deck = deckstat.load_deck(Path(__file__).resolve().parents[1] / "data" / "duel-masters" / "sample_deck.csv")
    assert deck.count("[shield_trigger]") == deck.count("[shield_trigger=1]") == 8
    assert deck.count("[Déclencheur de bouclier]") == 8
    words = tmp_path / "words.csv"
    words.write_text("Nom;Quantité;Déclencheur de bouclier\nA;3;oui\nB;2;non\nC;4;OUI\nD;1;\n", encoding="utf-8")
    assert deckstat.load_deck(words).count("[shield_trigger]") == 7
    flags = Deck.from_table([{"name": "A", "count": 2, "blocker": True}, {"name": "B", "count": 3, "blocker": False},
                             {"name": "C", "count": 5, "blocker": "yes"}])
    assert flags.count("[blocker]") == 7
    exact = deckstat.odds(deck, "duel-masters", "[shield_trigger]>=1", zone="set_aside", turns=[0])
    explicit = deckstat.odds(deck, "duel-masters", "[shield_trigger=1]>=1", zone="set_aside", turns=[0])
    assert exact.table["p"].tolist() == explicit.table["p"].tolist()
    # 8 triggers among 40 cards, 5 shields: 1 - C(32,5)/C(40,5).
    assert exact.table["p"].iloc[0] == pytest.approx(1 - math.comb(32, 5) / math.comb(40, 5), rel=1e-12)
    out = ok(run("odds", Path(__file__).resolve().parents[1] / "data" / "duel-masters" / "sample_deck.csv", "-g",
                 "duel-masters", "--event", "[shield_trigger]>=1", "--zone", "set_aside"))
    assert "[shield_trigger]>=1" in out


def test_a_bare_attribute_that_is_not_yes_no_is_refused():
    deck = deckstat.load_deck(Path(__file__).resolve().parents[1] / "data" / "duel-masters" / "sample_deck.csv")
    with pytest.raises(ExpressionError) as info:
        deckstat.odds(deck, "duel-masters", "[cost]>=1", turns=[0])
    message = str(info.value)
    assert "[cost] alone asks which cards have 'cost' true" in message and "[cost>=1]" in message
    with pytest.raises(ExpressionError, match="'race' holds"):
        deckstat.odds(deck, "duel-masters", "[race]", turns=[0])
    assert_user_error(run("odds", Path(__file__).resolve().parents[1] / "data" / "duel-masters" / "sample_deck.csv",
                          "-g", "duel-masters", "--event", "[power]", "--lang", "fr"), "[power] seul",
                      "[power>=1]")


def test_absent_value_list_is_short():
    deck = Deck.from_table([{"name": f"c{i}", "count": 1, "type": "Creature", "race": f"Race {i}"}
                            for i in range(40)])
    with pytest.raises(ExpressionError, match=r"its race values are Race 0, (Race \d+, ){7}…") as info:
        deckstat.odds(deck, "duel-masters", "[race=Dragon]", turns=[0])
    assert "Race 12" not in str(info.value)


def test_a_card_type_of_the_game_absent_from_the_deck():
    creatures = Deck.from_table([{"name": "Bolshack", "count": 40, "type": "Creature"}])
    with pytest.raises(ExpressionError, match="Sort is a card type of Duel Masters, but no card of this deck has it"):
        deckstat.odds(creatures, "duel-masters", "Sort>=1", turns=[0])


def test_allow_absent_asks_anyway(fire_deck):
    result = deckstat.odds(fire_deck, "duel-masters", "[civilization=Water]>=1", turns=[0, 2], seat="first",
                           allow_absent=True)
    assert result.table["p"].tolist() == [0.0, 0.0]
    result = deckstat.odds(fire_deck, "duel-masters", "not \"Terror Pit\"", turns=[0], seat="first",
                           allow_absent=True)
    assert result.table["p"].tolist() == [1.0]


def test_allow_absent_must_be_a_bool(fire_deck):
    with pytest.raises(DeckstatError, match="allow_absent must be True or False"):
        deckstat.odds(fire_deck, "duel-masters", "Spell", allow_absent="yes")


@pytest.fixture
def no_terrain() -> Deck:
    return Deck.from_table([{"name": f"Personnage {i}", "count": 3, "type": "Personnage"} for i in range(10)])


def test_default_keep_rule_on_a_deck_without_its_cards(no_terrain):
    with pytest.raises(ExpressionError) as info:
        deckstat.odds(no_terrain, "wankul", "Personnage>=1", turns=[0])
    message = str(info.value)
    for word in ("keep rule 'Terrain>=1'", "Terrain is a card type of Wankul", "its types are Personnage",
                 "Wankul's default keep rule", "keep", "mulligan=False", "allow_absent=True"):
        assert word in message, message
    # Without a mulligan the keep rule does not apply; with allow_absent every first hand goes back.
    assert deckstat.odds(no_terrain, "wankul", "Personnage>=1", turns=[0], mulligan=False).table["p"].iloc[0] == 1
    kept = deckstat.odds(no_terrain, "wankul", "Personnage>=1", turns=[0], allow_absent=True).summary
    assert kept["p_keep_first"].iloc[0] == 0


def test_mulligan_question_checks_its_keep_rule(no_terrain):
    with pytest.raises(ExpressionError, match="keep rule") as info:
        deckstat.mulligan(no_terrain, "wankul", event="Personnage>=1")
    assert "mulligan=False" not in str(info.value)  # no advice to drop the mulligan from the mulligan question
    with pytest.raises(ExpressionError, match="keep rule 'Personage>=1'"):
        deckstat.mulligan(no_terrain, "wankul", keep="Personage>=1", event="Personnage>=1")


def test_when_and_deckout_check_groups(no_terrain, fire_deck):
    with pytest.raises(ExpressionError, match="did you mean 'Fire'"):
        deckstat.when(fire_deck, "duel-masters", "[civilization=Fier]>=1")
    with pytest.raises(ExpressionError, match="default keep rule"):
        deckstat.deckout(no_terrain, "wankul")
    with pytest.raises(ExpressionError, match="opponent"):
        deckstat.deckout(Deck.from_table([{"name": "T", "count": 30, "type": "Terrain"}]), "wankul",
                         opponent=no_terrain)
    race = deckstat.deckout(no_terrain, "wankul", allow_absent=True, n_trials=200, rng=1)
    assert race.summary["n_trials"].iloc[0] == 200


def test_compare_refuses_only_groups_no_deck_has(fire_deck):
    water = Deck.from_table([{"name": "Aqua Hulcus", "count": 40, "type": "Creature", "civilization": "Water"}],
                            source="water")
    # Water is in one deck: a fair question (0 in the Fire deck, 1 in the Water deck).
    result = deckstat.compare([fire_deck, water], "duel-masters", "[civilization=Eau]>=1", turns=[0])
    assert result.table["p_a"].iloc[0] == 0 and result.table["p_b"].iloc[0] == 1
    with pytest.raises(ExpressionError, match="any deck compared") as info:
        deckstat.compare([fire_deck, water], "duel-masters", "[civilization=Nature]>=1", turns=[0])
    assert "Fire" in str(info.value) and "Water" in str(info.value)  # the values of every deck
    result = deckstat.compare([fire_deck, water], "duel-masters", "[civilization=Nature]>=1", turns=[0],
                              allow_absent=True)
    assert result.table["diff"].iloc[0] == 0


def test_ratio_sweeps_a_deck_without_the_group(no_terrain):
    # The sweep adds the Terrain it needs; the default keep rule names it: no error.
    result = deckstat.ratio(no_terrain, "wankul", counts=[0, 10], turns=[0])
    p = dict(zip(result.table["resource_count"], result.table["p"]))
    # At 10 Terrains in 30 cards: no Terrain in the first hand, nor in the 5 drawn after it went under the deck.
    assert p[0] == 0 and math.isclose(p[10], 1 - math.comb(20, 5) / math.comb(30, 5) * math.comb(15, 5)
                                      / math.comb(25, 5))


def test_ratio_refuses_groups_absent_at_every_count(no_terrain):
    with pytest.raises(ExpressionError, match="the deck at any count swept") as info:
        deckstat.ratio(no_terrain, "wankul", counts=[0, 10], turns=[0], event="Terain>=1")
    assert "did you mean 'Terrain'" in str(info.value)
    result = deckstat.ratio(no_terrain, "wankul", counts=[0, 10], turns=[0], event="Terain>=1", allow_absent=True)
    assert result.table["p"].tolist() == [0.0, 0.0]


# --------------------------------------------------------------------------- the command line


@pytest.fixture
def fire_csv(tmp_path, fire_deck) -> Path:
    path = tmp_path / "fire.csv"
    fire_deck.cards.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("command", ["odds", "when"])
def test_cli_absent_group_exits_2(fire_csv, command):
    result = run(command, fire_csv, "--game", "duel-masters", "--event", "[race=Dragon]>=1")
    assert_user_error(result, "[race=Dragon]", "Armored Dragon", "[race~=Dragon]", "--allow-absent")


def test_cli_allow_absent(fire_csv):
    out = ok(run("odds", fire_csv, "--game", "duel-masters", "--event", "[civilization=Water]>=1", "--turns", "0",
                 "--allow-absent"))
    assert "0%" in out
    out = ok(run("odds", fire_csv, "--game", "duel-masters", "--event", "[civilization=Feu]>=1", "--turns", "0"))
    assert "100%" in out


def test_cli_default_keep_rule(tmp_path, no_terrain):
    path = tmp_path / "personnages.csv"
    no_terrain.cards.to_csv(path, index=False)
    assert_user_error(run("odds", path, "--game", "wankul", "--event", "Personnage"), "default keep rule",
                      "--keep", "--no-mulligan", "--allow-absent")
    assert_user_error(run("mulligan", path, "--game", "wankul", "--event", "Personnage"), "default keep rule",
                      "--keep", "--allow-absent")
    assert_user_error(run("deckout", path, "--game", "wankul"), "default keep rule")
    ok(run("deckout", path, "--game", "wankul", "--allow-absent", "--trials", "200", "--seed", "1"))


def test_cli_compare_and_ratio(tmp_path, fire_csv, no_terrain):
    assert_user_error(run("compare", fire_csv, fire_csv, "--game", "duel-masters", "--event", "[race=Human]"),
                      "any deck compared", "--allow-absent")
    path = tmp_path / "personnages.csv"
    no_terrain.cards.to_csv(path, index=False)
    assert_user_error(run("ratio", path, "--game", "wankul", "--range", "0,10", "--event", "Terain"),
                      "did you mean 'Terrain'")
    ok(run("ratio", path, "--game", "wankul", "--range", "0,10", "--turns", "0"))


def test_an_unknown_attribute_is_named_in_the_event_typed(english):
    with pytest.raises(ExpressionError) as info:
        deckstat.odds(english, "duel-masters", "Spell>=1 and [colour=Fire]>=1", turns=[0])
    # Position 14 is the '[' of the group in the event as typed, not in the group alone.
    assert str(info.value).startswith("event 'Spell>=1 and [colour=Fire]>=1', position 14: unknown attribute 'colour'")
