"""Card effects as data: the effect column's vocabulary in French and English, its errors, the loaders, deckout."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from fuzzing import fuzz_settings
from helpers import DATA, assert_user_error, ok, run
from hypothesis import given
from hypothesis import strategies as st

import deckstat
from deckstat.effects import ACTIONS, FRENCH_WORDS, TIMINGS, Effect, effects_text, parse_effects
from deckstat.errors import DeckstatError, ExpressionError
from deckstat.events import AttributeGroup, NameGroup, parse_group
from deckstat.i18n import language

TERRAIN = NameGroup("Terrain")


@pytest.mark.parametrize(("text", "expected"), [
    ("pioche=2", Effect("draw", amount=2)),
    ("draw", Effect("draw", amount=1)),
    ("Piocher = 3", Effect("draw", amount=3)),
    ("adversaire pioche=1", Effect("opponent_draws", amount=1)),
    ("meule=4", Effect("mill", amount=4)),
    ("défausse=2", Effect("discard", amount=2)),
    ("ADVERSAIRE-DÉFAUSSE", Effect("opponent_discards", amount=1)),
    ("cherche=Terrain", Effect("search", group=TERRAIN, take=1)),
    ("cherche=[type=Terrain]:2", Effect("search", group=parse_group("[type=Terrain]"), take=2)),
    ("spring='Sifflet'", Effect("search", group=NameGroup("Sifflet"), take=1)),
    ('cherche="Robot Camembert":1', Effect("search", group=NameGroup("Robot Camembert"), take=1)),
    ("regarde=5:[race~=Dragon]:1", Effect("look", amount=5, group=parse_group("[race~=Dragon]"), take=1)),
    ("look=3:Terrain", Effect("look", amount=3, group=TERRAIN, take=1)),
    ("complète=5", Effect("refill", amount=5)),
    ("mana", Effect("mana", amount=1)),
    ("score", Effect("score")),
    ("Permanent: pioche par tour=+1", Effect("turn_draws", "in_play", amount=1)),
    ("∞:pioche_par_tour=-1", Effect("turn_draws", "in_play", amount=-1)),
    ("déclencheur:mana=1", Effect("mana", "trigger", amount=1)),
    ("piochée : pioche=1", Effect("draw", "on_draw", amount=1)),
    ("gagnant:pioche=2", Effect("draw", "won", amount=2)),
    ("perdant:défausse=1", Effect("discard", "lost", amount=1)),
    ("combo:score", Effect("score", "combo")),
])
def test_each_action_and_moment_reads_in_french_and_english(text, expected):
    assert parse_effects(text) == (expected,)


def test_a_cell_holds_several_effects_in_order_and_an_empty_cell_none():
    assert parse_effects("pioche=2; cherche=[cost<=1]; score") == (
        Effect("draw", amount=2), Effect("search", group=AttributeGroup("cost", "<=", 1), take=1), Effect("score"))
    assert parse_effects("") == parse_effects("   ") == ()


@pytest.mark.parametrize(("text", "position", "words"), [
    ("pioch=2", 1, "unknown action 'pioch'; expected one of draw, "),
    ("pioch=2", 1, "did you mean 'pioche'?"),
    ("defause=1", 1, "did you mean 'défausse'?"),
    ("permanant:pioche=1", 1, "unknown moment 'permanant'; expected one of on_play, on_draw, in_play"),
    ("pioche=deux", 8, "expected a number of cards (1 or more), got 'deux'"),
    ("pioche=0", 8, "0 is out of range; expected a whole number from 1 to 10000"),
    ("pioche=1.5", 8, "got '1.5'"),
    ("pioche=", 8, "nothing after '='"),
    ("regarde=5", 10, "regarde needs a number of cards (1 or more), a card group such as Terrain"),
    ("regarde=2:Terrain:3", 19, "takes 3 of the top 2 cards; expected at most 2"),
    ("score=1", 7, "score takes no argument; unexpected '1'"),
    ("pioche=2:3", 10, "pioche takes a number of cards (1 or more) (1 when left out) after '='; unexpected '3'"),
    ("pioche_par_tour=0", 17, "a change of 0 cards draws as before"),
    ("complète", 9, "complète needs a number of cards (1 or more) after '='"),
    ("pioche=2;;score", 10, "empty effect between two ';'"),
    ("cherche=:1", 9, "empty argument; expected a card group"),
    ("cherche=[cost<=]:1", 16, "missing value after '<='"),
    ("cherche=Terrain≥1", 16, "'≥' (U+2265)"),
    (":pioche=1", 1, "unknown moment ''"),
    ("pioche:2", 1, "'pioche' is an action, not a moment: its arguments come after '=', as in pioche=2"),
])
def test_a_bad_effect_names_its_position_and_what_was_expected(text, position, words):
    with pytest.raises(ExpressionError) as info:
        parse_effects(text)
    message = str(info.value)
    assert message.startswith(f"effect {text!r}, position {position}: "), message
    assert words in message, message
    assert "\n" not in message


def test_errors_and_keywords_read_in_french():
    with language("fr"), pytest.raises(ExpressionError) as info:
        parse_effects("pioch=2")
    message = str(info.value)
    assert message.startswith("effet 'pioch=2', position 1") and "action inconnue 'pioch'" in message, message
    assert "attendu l'une de pioche, adversaire_pioche, meule, défausse" in message, message


def test_every_french_word_reads_as_its_action_or_moment():
    for name, word in FRENCH_WORDS.items():
        if name in ACTIONS:
            arguments = {"search": "=Terrain", "look": "=3:Terrain", "refill": "=5", "turn_draws": "=+1"}
            assert parse_effects(word + arguments.get(name, ""))[0].action == name
        else:
            assert parse_effects(f"{word}:score")[0].timing == name


# --- round trips and fuzzing -----------------------------------------------------------------------------------

GROUPS = [TERRAIN, NameGroup("Robot Camembert"), NameGroup("L'Ours"), parse_group("[cost<=1]"),
          parse_group("[race~=Dragon]"), parse_group('[type="Terrain"]')]


@st.composite
def effects(draw):
    action = draw(st.sampled_from(sorted(ACTIONS)))
    kinds = [kind.rstrip("?") for kind in ACTIONS[action][1]]
    amount = None
    if "±n" in kinds:
        amount = draw(st.integers(-10_000, 10_000).filter(bool))
    elif "n" in kinds:
        amount = draw(st.integers(1, 10_000))
    group = draw(st.sampled_from(GROUPS)) if "group" in kinds else None
    take = draw(st.integers(1, amount if action == "look" else 10_000)) if "k" in kinds else None
    return Effect(action, draw(st.sampled_from([None, *sorted(TIMINGS)])), amount, group, take)


@fuzz_settings(200)
@given(st.lists(effects(), min_size=1, max_size=4))
def test_a_cell_written_back_reads_as_the_same_effects(cell):
    assert parse_effects(effects_text(tuple(cell))) == tuple(cell)


@fuzz_settings(300)
@given(st.text(alphabet=st.sampled_from(list("pioche=2;:[]<>=~\"' -+∞éÉ0123456789abcdefTerrainscorx")), max_size=40))
def test_any_text_reads_or_is_refused_with_one_line(text):
    try:
        read = parse_effects(text)
    except ExpressionError as error:
        assert "\n" not in str(error) and "position" in str(error)
    else:
        assert parse_effects(effects_text(read)) == read


# --- card files and decks --------------------------------------------------------------------------------------

CARDS = """nom;quantité;type;coût;effet
Terrain Vert;12;Terrain;;
Piocheur;6;Personnage;1;pioche=2
Chercheur;4;Personnage;2;cherche=Terrain
Gros;18;Personnage;2;
"""


def test_the_effect_column_is_read_from_a_french_or_english_file(tmp_path):
    french = tmp_path / "deck.csv"
    french.write_text(CARDS, encoding="utf-8")
    english = tmp_path / "deck_en.csv"
    english.write_text(CARDS.replace("nom;quantité;type;coût;effet", "name;count;type;cost;effect"), encoding="utf-8")
    for path in (french, english):
        deck = deckstat.load_deck(path)
        assert deck.effects == ((), (Effect("draw", amount=2),), (Effect("search", group=TERRAIN, take=1),), ())
    assert deckstat.load_deck(tmp_path / "deck.csv").effects == deckstat.load_deck(english).effects


def test_a_deck_without_the_column_has_no_effect():
    deck = deckstat.load_deck(DATA / "wankul" / "sample_deck.csv")
    assert deck.effects == ((),) * len(deck.cards)


def test_a_bad_effect_in_a_card_file_is_one_line_naming_the_file_card_and_position(tmp_path):
    path = tmp_path / "deck.csv"
    path.write_text(CARDS.replace("pioche=2", "pioch=2"), encoding="utf-8")
    message = assert_user_error(run("odds", path, "--game", "wankul", "-e", "Terrain>=1"),
                                str(path), "card 'Piocheur'", "effect 'pioch=2', position 1",
                                "did you mean 'pioche'?")
    assert "column 'effect'" in message


def test_a_draw_given_as_a_column_and_as_an_effect_is_refused():
    with pytest.raises(DeckstatError, match="card 'A' gives its draw twice: 2 in the 'draw' column and 'draw=2'"):
        deckstat.Deck.from_table([{"name": "A", "count": 3, "draw": 2, "effect": "pioche=2"}])
    # Another moment, or another action, is no second copy of the column.
    deckstat.Deck.from_table([{"name": "A", "count": 3, "draw": 2, "effect": "gagnant:pioche=2; meule=1"}])


def test_a_file_with_effects_says_which_are_played(tmp_path):
    path = tmp_path / "deck.csv"
    path.write_text(CARDS, encoding="utf-8")
    result = run("odds", path, "--game", "wankul", "-e", "Terrain>=1", "--turns", "0")
    ok(result)
    assert "deckout and the report's deck-out section play draw and mill" in result.stderr
    assert "column 'effet'" in result.stderr


@pytest.mark.parametrize(("effect", "column"), [("pioche=2", "draw"), ("meule=3", "mill")])
def test_deckout_plays_a_draw_or_mill_effect_as_the_column_of_the_same_value(tmp_path, effect, column):
    # Two ways to write the same card: the same seed gives the same race, number for number.
    as_effect = tmp_path / "effect.csv"
    as_effect.write_text(f"name;count;type;cost;effect\nTerrain Vert;12;Terrain;;\nCarte;6;Personnage;1;{effect}\n"
                         "Gros;22;Personnage;2;\n", encoding="utf-8")
    as_column = tmp_path / "column.csv"
    as_column.write_text(f"name;count;type;cost;{column}\nTerrain Vert;12;Terrain;;\n"
                         f"Carte;6;Personnage;1;{effect.split('=')[1]}\nGros;22;Personnage;2;\n", encoding="utf-8")
    answers = []
    for path in (as_effect, as_column):
        data = json.loads(ok(run("deckout", path, "--game", "wankul", "--trials", 3000, "--seed", 11,
                                 "--format", "json")))
        answers.append([{k: v for k, v in row.items() if k not in ("deck", "opponent")} for row in data["summary"]])
    assert answers[0] == answers[1]
    plain = deckstat.deckout(deckstat.load_deck(as_effect).cards.drop(columns="effect").pipe(deckstat.Deck.from_table),
                             "wankul", n_trials=3000, rng=11)
    played = deckstat.deckout(deckstat.load_deck(as_effect), "wankul", n_trials=3000, rng=11)
    # The effect moves the deck-out turn: it is played, not read and dropped.
    assert not np.allclose(plain.summary["mean_turn"], played.summary["mean_turn"])


def test_an_effect_without_a_moment_happens_at_the_games_moment(tmp_path):
    # Wankul: « Par défaut, le texte indique un effet qui se déclenche au moment où la carte est posée ».
    for game in ("wankul", "duel-masters", "jdg", "licum", "pandrea"):
        assert deckstat.get_profile(game).effect_moment == "on_play"
    (effect,) = parse_effects("pioche=2")
    assert effect.timing is None and effect.moment() == "on_play" and effect.moment("in_play") == "in_play"
    assert parse_effects("piochée:pioche=2")[0].moment("in_play") == "on_draw"


def test_deckout_plays_only_the_effects_of_the_moments_it_plays(tmp_path):
    path = tmp_path / "deck.csv"
    base = "name;count;type;cost;effect\nTerrain Vert;12;Terrain;;\nCarte;6;Personnage;1;{}\nGros;22;Personnage;2;\n"
    answers = {}
    for name, cell in [("none", ""), ("played", "pioche=2"), ("won", "gagnant:pioche=2"),
                       ("permanent", "permanent:pioche=2")]:
        path.write_text(base.format(cell), encoding="utf-8")
        answers[name] = deckstat.deckout(deckstat.load_deck(path), "wankul", n_trials=2000, rng=5).summary
    assert answers["won"].equals(answers["none"]) and answers["permanent"].equals(answers["none"])
    assert not answers["played"].equals(answers["none"])
    # A game whose effects happen while the card is in play: a draw without a moment is not the deck-out's.
    path.write_text(base.format("pioche=2"), encoding="utf-8")
    in_play = dataclasses.replace(deckstat.get_profile("wankul"), effect_moment="in_play")
    assert deckstat.deckout(deckstat.load_deck(path), in_play, n_trials=2000, rng=5).summary.equals(answers["none"])


@pytest.mark.parametrize(("written", "words"), [
    ('effect_moment = "permanant"', ["effect_moment: unknown moment 'permanant'", "did you mean 'permanent'?"]),
    ("effect_moment = 3", ["effect_moment: expected a text, got a whole number 3"]),
])
def test_a_profiles_effect_moment_is_checked(tmp_path, written, words):
    text = (DATA / "mtg" / "profile.toml").read_text(encoding="utf-8").replace("[play]\n", f"[play]\n{written}\n", 1)
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DeckstatError) as info:
        deckstat.get_profile(str(path))
    for needle in words:
        assert needle in str(info.value)


def test_a_profile_reads_its_effect_moment_in_french(tmp_path):
    text = (DATA / "mtg" / "profile.toml").read_text(encoding="utf-8").replace("[play]\n",
                                                                              '[play]\neffect_moment = "piochée"\n', 1)
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    assert deckstat.get_profile(str(path)).effect_moment == "on_draw"


def test_the_report_says_which_effects_it_plays(tmp_path):
    path = tmp_path / "deck.csv"
    path.write_text(CARDS, encoding="utf-8")
    ok(run("report", path, "--game", "wankul", "--out", tmp_path / "report", "--trials", 1000, "--seed", 2))
    page = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert ("Card effects: 10 cards of the deck have one (docs/effects.md). The deck-out section plays their draws "
            "and mills, the by-turn and playability sections their draws beside their tables; the other sections leave "
            "every card effect out.") in page
    assert "card effects are left out of this answer" in page.casefold()


def test_the_questions_that_leave_effects_out_say_so_in_their_provenance(tmp_path):
    path = tmp_path / "deck.csv"
    path.write_text(CARDS, encoding="utf-8")
    deck = deckstat.load_deck(path)
    for result in (deckstat.odds(deck, "wankul", event="Terrain>=1", turns=[0, 1]),
                   deckstat.when(deck, "wankul", event="Terrain>=2", max_turn=3),
                   deckstat.curve(deck, "wankul", cards="Piocheur", turns=[1, 2], n_trials=500, rng=1)):
        assert (result.provenance["card_effects"], result.provenance["cards_with_effects"]) == ("left out", 10)
    plain = deckstat.odds(deckstat.load_deck(DATA / "wankul" / "sample_deck.csv"), "wankul", event="Terrain>=1")
    assert "card_effects" not in plain.provenance
