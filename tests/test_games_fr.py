"""Game profiles, construction rules and rule words in French: ``games show`` and ``validate`` with ``--lang fr``."""

import pickle

import pytest
from helpers import DATA, assert_user_error, ok, run

import deckstat
from deckstat import i18n
from deckstat.games.profiles import Text, get_profile, list_profiles, localized
from deckstat.games.rules import file_warnings

SHIPPED = ("wankul", "duel-masters", "jdg", "licum", "pandrea", "generic")
#: Labels that are the same word in both languages.
SAME_WORD = {"deck", "mulligan"}
NBSP = "\u00a0"


@pytest.fixture(autouse=True)
def _language_of_the_environment():
    # A command run in process keeps its --lang afterwards: each test starts and ends in the suite's language.
    i18n.set_language(None)
    yield
    i18n.set_language(None)


def flat(text: str) -> str:
    """The table as one line of words (long cells wrap; a no-break space reads as a space)."""
    return " ".join(text.replace("│", " ").split())


def labels(output: str) -> set[str]:
    """The first column of a ``games show`` table."""
    found = set()
    for line in output.splitlines():
        cells = line.split("│")
        if len(cells) >= 3 and cells[1].strip():
            found.add(cells[1].strip())
    return found


def profile_texts(profile) -> list:
    """Every text of a profile a player reads, each a :class:`Text`."""
    texts = [profile.description, *profile.special_rules, *profile.assumptions, *profile.play_model.assumptions]
    texts += [rule.text for part in profile.parts for rule in part.rules]
    if profile.set_aside:
        texts.append(profile.set_aside_name)
    if len(profile.parts) > 1:
        texts += [part.name for part in profile.parts]
    return texts


@pytest.mark.parametrize("game", SHIPPED)
def test_games_show_in_french_has_no_english_label_left(game):
    english = labels(ok(run("games", "show", game, "--lang", "en")))
    french = labels(ok(run("games", "show", game, "--lang", "fr")))
    assert "game" in english and "jeu" in french
    assert french & english <= SAME_WORD


@pytest.mark.parametrize("game", SHIPPED)
def test_every_text_of_the_shipped_profiles_has_its_french_text(game):
    profile = get_profile(game)
    for text in profile_texts(profile):
        assert isinstance(text, Text), text
        with i18n.language("fr"):
            french = localized(text)
        assert french and french != str(text), text
        assert i18n.french_typography(french) == french, french


@pytest.mark.parametrize("game", SHIPPED)
def test_games_show_in_french_shows_the_french_texts_and_not_the_english_ones(game):
    shown = flat(ok(run("games", "show", game, "--lang", "fr")))
    profile = get_profile(game)
    for text in profile_texts(profile):
        with i18n.language("fr"):
            assert flat(localized(text)) in shown
        if len(str(text)) > 12:  # short names ("game", "shields") may occur inside other words
            assert flat(str(text)) not in shown, str(text)
    # The rules-text quotes are French already: shown as written.
    for quote in profile.sources:
        assert flat(quote) in shown


@pytest.mark.parametrize(("game", "needles"), [
    ("wankul", ["deck au moins 1 Terrain pour 5 cartes, arrondi au-dessus",
                "main de départ 5 cartes",
                "mulligan remettre la main sous le deck et piocher une nouvelle main sur le dessus, sans mélanger, "
                "une fois ; règle de garde par défaut : Terrain>=1",
                "pioche du tour 1 premier joueur : 1 carte, second joueur : 1 carte",
                "tours suivants 1 carte par tour",
                "deck épuisé un joueur qui doit piocher dans un deck vide perd",
                "les decks des deux joueurs ont le même nombre de cartes",
                "une carte Terrain en jeu est marquée puis défaussée 2 tours après avoir été posée",
                "stratégie de jeu garder (--policy hold) (par défaut) : Ne joue que les Terrains",
                "stratégie de jeu courbe (--policy curve) : À chaque tour",
                "réglage du modèle terrain_turns = 2",
                "valeurs équivalentes type : Personnage = Character"]),
    ("duel-masters", ["mises de côté 5 cartes du dessus du deck, avant la main (boucliers)",
                      "premier joueur : 0 carte, second joueur : 1 carte",
                      "un joueur qui pioche la dernière carte de son deck perd",
                      "modèle de jeu mana, stratégie par défaut civilisations d'abord"]),
    ("licum", ["paquet de préparation exactement 5 Impros", "paquet de jeu au moins 7 cartes",
               "main de départ 7 cartes",
               "hors des decks Mise au Jeu : jamais comptées dans un deck, jamais mélangées ni piochées"]),
    ("jdg", ["piocher la dernière carte termine la partie à la fin de ce tour"]),
    ("pandrea", ["un joueur qui n'a plus de carte à piocher joue le tour et perd à sa fin"]),
    ("generic", ["hypothèse de jeu Pas de modèle de jeu dans ce profil",
                 "stratégie de jeu dès qu'en main (--policy any) (par défaut) : jouer la cible dès qu'un "
                 "exemplaire est en main"]),
])
def test_games_show_in_french_reads_the_rules_in_french(game, needles):
    shown = flat(ok(run("games", "show", game, "--lang", "fr")))
    for needle in needles:
        assert needle in shown, needle


def test_french_words_carry_french_typography():
    out = ok(run("games", "show", "wankul", "--lang", "fr"))
    assert f"premier joueur{NBSP}: 1 carte" in out
    assert f"règle de garde par défaut{NBSP}: Terrain>=1" in out


def test_english_rows_keep_their_words():
    rows = dict(get_profile("duel-masters").describe(with_play_model=True))
    assert rows["later turns"] == "1 card per turn"
    assert rows["set aside"] == "5 cards from the top before the hand (shields)"
    assert rows["play policy"].startswith("first_drawn: charge the card")


# --------------------------------------------------------------------------- validate


def found(result) -> list[tuple[str, str, str]]:
    return sorted(zip(result.table["subject"], result.table["found"], result.table["allowed"]))


def test_validate_in_french_writes_the_violations_in_french():
    deck = deckstat.load_deck(DATA / "wankul" / "illegal_deck.csv")
    with i18n.language("fr"):
        result = deckstat.validate(deck, "wankul")
    # 8 Terrains in 50 cards, 10 needed; Capitaine Baguette 4 times, 3 allowed.
    assert found(result) == [("Capitaine Baguette", "4 exemplaires", "au plus 3"),
                             ("Terrain", "8 sur 50 cartes", "au moins 10 (1 pour 5 cartes)")]
    assert set(result.table["rule"]) == {
        "au plus 3 exemplaires d'une carte, les impressions identiques en jeu comptées comme une seule carte",
        "au moins 1 Terrain pour 5 cartes, arrondi au-dessus (10 dans un deck de 50 cartes, 9 de 41 à 45 cartes)"}
    assert any(message.startswith(f"Terrain{NBSP}: 8 sur 50 cartes, permis{NBSP}: au moins 10 (1 pour 5 cartes) (")
               for message in result.table["message"])
    # What programs read does not change.
    assert list(result.table["level"]) == ["error", "error"] and set(result.table["part"]) == {"deck"}


def test_validate_in_french_wrong_size_and_printing_limit():
    deck = deckstat.load_deck(DATA / "jdg" / "illegal_deck.csv")
    with i18n.language("fr"):
        result = deckstat.validate(deck, "jdg")
        copies = deckstat.validate(deckstat.load_deck(DATA / "wankul" / "illegal_deck.csv"), "wankul",
                                   copies_by="name")
    assert found(result) == [("Ninja Distrait", "2 exemplaires", "au plus 1"),
                             ("[shiny=1]", "6 cartes", "au plus 5 cartes"),
                             ("taille du deck", "31 cartes", "exactement 30 cartes")]
    assert ("au plus 3 exemplaires d'une carte, toutes les impressions d'un même nom comptées ensemble (le profil "
            "compte par carte)") in set(copies.table["rule"])


def test_validate_in_french_licum_counts_and_shares():
    deck = deckstat.load_deck(DATA / "licum" / "illegal_deck.csv")
    with i18n.language("fr"):
        result = deckstat.validate(deck, "licum")
    rows = found(result)
    assert ("Impro", "4 différentes", "exactement 5 cartes différentes") in rows
    # 14 Punitions for 24 Difficultés: at most half, 12.
    assert ("Punition", "14 sur 24 Difficulté", "au plus 12 (0,5 × Difficulté)") in rows
    assert ("Improvisateur", "Rouges (11 cartes), Bleus (2 cartes)", "une seule valeur de team") in rows


def test_validate_command_in_french():
    result = run("validate", DATA / "jdg" / "illegal_deck.csv", "--game", "jdg", "--lang", "fr", "--wide")
    assert result.exit_code == 1
    out = flat(result.stdout)
    assert "taille du deck" in out and "exactement 30 cartes" in out and "2 exemplaires" in out
    assert "pas de doublon : un exemplaire de chaque nom de carte" in out


def test_notes_and_file_warnings_in_french():
    deck = deckstat.Deck.from_table([{"name": "T", "count": 10, "type": "Terrain"},
                                     {"name": "P", "count": 40, "type": "Personnage"}])
    with i18n.language("fr"):
        (warning,) = file_warnings(deck, get_profile("duel-masters"))
        mise = deckstat.Deck.from_table([{"name": "Mise au Jeu Verte", "count": 1, "type": "Mise au Jeu",
                                          "deck": "jeu"},
                                         {"name": "Impro", "count": 5, "type": "Impro", "deck": "préparation"}])
        notes = deckstat.validate(mise, "licum").provenance["notes"]
    assert warning["subject"] == "types de cartes de Wankul"
    assert warning["found"] == "Terrain (10 cartes), Personnage (40 cartes)"
    assert warning["rule"] == f"le fichier contient des cartes de Wankul{NBSP}? vérifiez le jeu"
    assert notes[0].startswith(f"1 carte Mise au Jeu (Mise au Jeu Verte) mise à part{NBSP}: elle ne compte")


# --------------------------------------------------------------------------- user profiles

USER_PROFILE = """
id = "tiny"
name = "Tiny"
description = "A tiny game."
{description_fr}
special_rules = ["Draw two on turn one.", "No hand limit."]
{special_fr}
[[decks]]
id = "main"
name = "deck"

[[decks.rules]]
kind = "size"
min = 10
text = "at least 10 cards"
{text_fr}

[play]
hand_size = 4
set_aside = 2
set_aside_name = "prizes"
{aside_fr}
first_turn_draw = {{ first = 2, second = 2 }}
"""


def write_profile(tmp_path, **french):
    fields = {"description_fr": "", "special_fr": "", "text_fr": "", "aside_fr": "", **french}
    path = tmp_path / "tiny.toml"
    path.write_text(USER_PROFILE.format(**fields), encoding="utf-8")
    return path


def test_a_user_profile_with_french_texts_shows_them(tmp_path):
    path = write_profile(tmp_path, description_fr='description_fr = "Un tout petit jeu."',
                         special_fr='special_rules_fr = ["Piocher deux au premier tour.", "Pas de limite de main."]',
                         text_fr='text_fr = "au moins 10 cartes"', aside_fr='set_aside_name_fr = "récompenses"')
    shown = flat(ok(run("games", "show", path, "--lang", "fr")))
    assert "en bref Un tout petit jeu." in shown
    assert "règle spéciale Piocher deux au premier tour. règle spéciale Pas de limite de main." in shown
    assert "deck au moins 10 cartes" in shown
    assert "mises de côté 2 cartes du dessus du deck, avant la main (récompenses)" in shown
    assert "A tiny game" not in shown
    english = flat(ok(run("games", "show", path, "--lang", "en")))
    assert "about A tiny game." in english and "set aside 2 cards from the top before the hand (prizes)" in english


def test_a_user_profile_without_french_texts_shows_them_in_english_under_french_labels(tmp_path):
    shown = flat(ok(run("games", "show", write_profile(tmp_path), "--lang", "fr")))
    assert "en bref A tiny game." in shown
    assert "deck at least 10 cards" in shown
    assert "main de départ 4 cartes" in shown
    assert "pioche du tour 1 premier joueur : 2 cartes, second joueur : 2 cartes" in shown
    assert "mises de côté 2 cartes du dessus du deck, avant la main (prizes)" in shown


def test_the_default_set_aside_name_is_written_in_each_language(tmp_path):
    path = tmp_path / "aside.toml"
    path.write_text(write_profile(tmp_path).read_text(encoding="utf-8").replace('set_aside_name = "prizes"', ""),
                    encoding="utf-8")
    profile = get_profile(path)
    assert profile.set_aside_name == "set aside"
    with i18n.language("fr"):
        assert localized(profile.set_aside_name) == "mises de côté"


@pytest.mark.parametrize(("french", "needles"), [
    ({"description_fr": "description_fr = 3"}, ["tiny.toml", "description_fr: expected a text, got a whole number 3"]),
    ({"description_fr": 'description_fr = ""'}, ["'description_fr' holds an empty text"]),
    ({"special_fr": 'special_rules_fr = ["Piocher deux au premier tour."]'},
     ["'special_rules_fr' has 1 text for the 2 of 'special_rules'"]),
    ({"special_fr": 'special_rules_fr = ["Piocher deux.", 2]'},
     ["special_rules_fr: expected a list of texts, got the item 2"]),
    ({"special_fr": 'special_rules_fr = "Piocher deux."'}, ["special_rules_fr: expected a list, got a text 'Piocher"]),
    ({"text_fr": "text_fr = [\"au moins\"]"}, ["[[decks]] #1 rule #1", "text_fr: expected a text, got a list"]),
    ({"aside_fr": 'set_aside_name_fr = "récompenses"\nhand_size_fr = 3'},
     ["[play]", "'hand_size_fr' translates 'hand_size'", "are 'set_aside_name'"]),
    ({"description_fr": 'sources_fr = ["« x »"]'}, ["'sources_fr': 'sources' are quotes of the rules text"]),
    ({"description_fr": 'descripton_fr = "Un jeu."'},
     ["'descripton_fr' translates 'descripton'", "'description', 'special_rules', 'assumptions'"]),
    ({"description_fr": 'assumptions_fr = ["Une hypothèse."]'},
     ["'assumptions_fr' translates 'assumptions', which is missing"]),
])
def test_a_malformed_french_text_is_a_one_line_error_naming_the_key(tmp_path, french, needles):
    assert_user_error(run("games", "show", write_profile(tmp_path, **french)), *needles)


def test_profile_errors_are_written_in_french(tmp_path):
    path = write_profile(tmp_path, description_fr="description_fr = 3")
    assert_user_error(run("games", "show", path, "--lang", "fr"),
                      "description_fr\u00a0: attendu un texte, reçu un nombre entier 3")


def test_play_model_assumptions_translate_and_stay_out_of_the_settings(tmp_path):
    text = write_profile(tmp_path).read_text(encoding="utf-8") + (
        '\n[play_model]\nkind = "hand"\nassumptions = ["Cards cost nothing."]\n'
        'assumptions_fr = ["Les cartes ne coûtent rien."]\n')
    path = tmp_path / "model.toml"
    path.write_text(text, encoding="utf-8")
    profile = get_profile(path)
    assert profile.play_model.settings == {}
    shown = flat(ok(run("games", "show", path, "--lang", "fr")))
    assert "hypothèse de jeu Les cartes ne coûtent rien." in shown and "réglage du modèle" not in shown


def test_profiles_with_their_translations_pickle():
    # Worker processes receive the profile.
    for profile in list_profiles():
        copy = pickle.loads(pickle.dumps(profile))
        assert copy == profile
        assert copy.description.translations == profile.description.translations
        with i18n.language("fr"):
            assert localized(copy.parts[0].rules[0].text) == localized(profile.parts[0].rules[0].text)
