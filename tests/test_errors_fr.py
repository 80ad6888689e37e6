"""Errors and event labels in French: the same place and facts as in English, in French words and typography."""

import json
import textwrap
from pathlib import Path

import pytest
from helpers import run
from scipy.special import comb

import deckstat
from deckstat import i18n
from deckstat._validate import parse_ranges
from deckstat.batching import load_spec
from deckstat.errors import DeckstatError
from deckstat.events import parse_event, to_text
from deckstat.questions import _setup

NBSP = "\u00a0"
# A 50-card Wankul deck: 10 Terrains, 40 Héros.
POOL = "name,count,type\nTerrain,10,Terrain\nHéros,40,Personnage\n"


@pytest.fixture(autouse=True)
def _language_follows_the_environment_afterwards():
    """``--lang`` sets the language of the process the command line runs in: give the next test its own."""
    yield
    i18n.set_language(None)


@pytest.fixture
def files(tmp_path: Path) -> Path:
    """A folder with the pool, a CSV with a bad count on line 3, one without a name column, and a decklist."""
    (tmp_path / "pool.csv").write_text(POOL, encoding="utf-8")
    (tmp_path / "bad_count.csv").write_text("name,count,type\nTerrain,10,Terrain\nHéros,abc,Personnage\n",
                                            encoding="utf-8")
    (tmp_path / "no_name.csv").write_text("titre_du_deck,count\nA,2\n", encoding="utf-8")
    (tmp_path / "list.txt").write_text("10 Terrain\n40 Terain\n", encoding="utf-8")
    return tmp_path


def message(call, lang: str) -> str:
    """The one-line message of the DeckstatError ``call`` raises in ``lang`` (its place written in ``lang`` too)."""
    with i18n.language(lang):
        with pytest.raises(DeckstatError) as caught:
            call()
        text = str(caught.value)
    assert "\n" not in text
    return text


def cli_error(lang: str, *args: object) -> str:
    """The one error line of a command that refuses its input in ``lang`` (exit code 2, nothing on stdout)."""
    result = run(*args, "--lang", lang)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_a_bad_csv_cell_names_its_line_and_column_in_both_languages(files):
    bad = files / "bad_count.csv"
    english = message(lambda: deckstat.load_deck(bad), "en")
    french = message(lambda: deckstat.load_deck(bad), "fr")
    assert english == f"{bad}, line 3, column 'count': count 'abc' is not a whole number"
    assert french == f"{bad}, ligne 3, colonne 'count'{NBSP}: la quantité 'abc' n'est pas un nombre entier"
    args = ("odds", bad, "-g", "wankul", "-e", "Terrain>=1")
    assert cli_error("en", *args).endswith(english)
    assert cli_error("fr", *args).endswith(french)


def test_a_missing_name_column_lists_the_header_and_the_names_expected(files):
    path = files / "no_name.csv"
    english = message(lambda: deckstat.load_deck(path), "en")
    french = message(lambda: deckstat.load_deck(path), "fr")
    assert english == (f"{path}, line 1: no card-name column; the header is 'titre_du_deck', 'count', expected one "
                       "of 'name', 'nom', 'carte'")
    assert french == (f"{path}, ligne 1{NBSP}: pas de colonne de nom de carte{NBSP}; l'en-tête est 'titre_du_deck', "
                      "'count', attendu l'une de 'name', 'nom', 'carte'")
    assert cli_error("fr", "validate", path, "-g", "wankul").endswith(french)


def test_an_unknown_card_of_a_decklist_names_its_line_and_the_closest_card(files):
    decklist, pool = files / "list.txt", files / "pool.csv"
    english = message(lambda: deckstat.load_deck(decklist, pool=pool), "en")
    french = message(lambda: deckstat.load_deck(decklist, pool=pool), "fr")
    assert english == f"{decklist}, line 2: unknown card 'Terain', not in the pool {pool}; did you mean 'Terrain'?"
    assert french == (f"{decklist}, ligne 2{NBSP}: carte inconnue 'Terain', introuvable dans le fichier de cartes "
                      f"{pool}{NBSP}; vouliez-vous dire 'Terrain'{NBSP}?")
    args = ("odds", decklist, "--pool", pool, "-g", "wankul", "-e", "Terrain>=1")
    assert cli_error("en", *args).endswith(english)
    assert cli_error("fr", *args).endswith(french)


def test_an_event_syntax_error_names_its_position(files):
    deck = deckstat.load_deck(files / "pool.csv")
    english = message(lambda: deckstat.odds(deck, "wankul", "Terrain>="), "en")
    french = message(lambda: deckstat.odds(deck, "wankul", "Terrain>="), "fr")
    assert english == "event 'Terrain>=', position 10: expected a whole number after '>=', got the end"
    assert french == f"événement 'Terrain>=', position 10{NBSP}: attendu un nombre entier après '>=', reçu la fin"
    assert cli_error("fr", "odds", files / "pool.csv", "-g", "wankul", "-e", "Terrain>=").endswith(french)
    # The French keywords are read, and named, as French.
    french_keyword = message(lambda: parse_event("Terrain>=1 et"), "fr")
    assert french_keyword == ("événement 'Terrain>=1 et', position 14\u00a0: fin inattendue\u00a0; attendu un groupe "
                              "de cartes comme Terrain ou [cost<=1]")


def test_an_unknown_group_suggests_the_closest_one(files):
    deck = deckstat.load_deck(files / "pool.csv")
    english = message(lambda: deckstat.odds(deck, "wankul", "Terain>=1"), "en")
    french = message(lambda: deckstat.odds(deck, "wankul", "Terain>=1"), "fr")
    assert english == ("event 'Terain>=1', position 1: Terain matches no card type, tag or card name of this deck; "
                       "its types are Personnage, Terrain; did you mean 'Terrain'?; to ask about it anyway, pass "
                       "allow_absent=True")
    assert french == (f"événement 'Terain>=1', position 1{NBSP}: Terain ne correspond à aucun type de carte, aucune "
                      f"étiquette ni aucun nom de carte de ce deck{NBSP}; ses types sont Personnage, Terrain{NBSP}; "
                      f"vouliez-vous dire 'Terrain'{NBSP}?{NBSP}; pour poser la question malgré tout, passez "
                      "allow_absent=True")
    line = cli_error("fr", "odds", files / "pool.csv", "-g", "wankul", "-e", "Terain>=1")
    assert "position 1\u00a0: Terain ne correspond à aucun type de carte" in line
    assert "--allow-absent" in line  # the option is written as the command line's flag


def test_bad_turn_ranges_name_the_option(files):
    call = lambda: parse_ranges("5-2", option="--turns", noun="turn", example="0-6", limit=1000)  # noqa: E731
    assert message(call, "en") == "--turns '5-2': range '5-2' goes backwards; write 2-5"
    assert message(call, "fr") == f"--turns '5-2'{NBSP}: l'intervalle '5-2' est à l'envers{NBSP}; écrivez 2-5"
    pool = files / "pool.csv"
    assert cli_error("fr", "odds", pool, "-g", "wankul", "-e", "Terrain>=1", "--turns", "2-x").endswith(
        f"--turns '2-x'{NBSP}: '2-x' n'est ni un tour ni un intervalle comme 0-6")
    # A turn past the deck: the 50-card deck leaves 45 cards after the opening hand of 5.
    line = cli_error("fr", "odds", pool, "-g", "wankul", "-e", "Terrain>=1", "--turns", "100", "--seat", "first")
    assert line.endswith("le tour 100 demande 100 pioches au premier joueur, mais la main de départ n'en laisse que "
                         f"45 cartes dans le deck{NBSP}; --turns peut aller jusqu'au tour 45")


def test_a_trial_count_below_one_names_the_parameter_or_the_flag(files):
    deck = deckstat.load_deck(files / "pool.csv")
    call = lambda: deckstat.odds(deck, "wankul", "Terrain>=1", n_trials=0)  # noqa: E731
    assert message(call, "en") == "n_trials must be a whole number of at least 1, got 0"
    assert message(call, "fr") == "n_trials doit être un nombre entier d'au moins 1, reçu 0"
    args = ("odds", files / "pool.csv", "-g", "wankul", "-e", "Terrain>=1", "--trials", "0")
    assert cli_error("en", *args).endswith("--trials must be a whole number of at least 1, got 0")
    assert cli_error("fr", *args).endswith("--trials doit être un nombre entier d'au moins 1, reçu 0")


def test_a_bad_batch_spec_names_its_file_line_and_key(files):
    spec = files / "spec.toml"
    spec.write_text(textwrap.dedent("""\
        game = "wankul"

        [decks.petit]
        path = "pool.csv"

        [[questions]]
        question = "odds"
        event = "Terrain>=1"
        sweap = { turns = [1, 2] }
        """), encoding="utf-8")
    english = message(lambda: load_spec(spec), "en")
    french = message(lambda: load_spec(spec), "fr")
    assert english == f"{spec}:9: questions[0].sweap: unknown key; did you mean 'sweep'?"
    assert french == f"{spec}:9{NBSP}: questions[0].sweap{NBSP}: clé inconnue{NBSP}; vouliez-vous dire 'sweep'{NBSP}?"
    assert cli_error("fr", "batch", spec, "--dry-run").endswith(french)


def test_a_spec_error_from_an_event_blames_the_event_key_in_both_languages(files):
    spec = files / "spec.toml"
    spec.write_text(textwrap.dedent("""\
        game = "wankul"

        [decks.petit]
        path = "pool.csv"

        [[questions]]
        question = "odds"
        turns = "0-2"
        event = "Terain>=1"
        """), encoding="utf-8")
    assert message(lambda: load_spec(spec), "en").startswith(f"{spec}:9: questions[0].event: event 'Terain>=1'")
    assert message(lambda: load_spec(spec), "fr").startswith(
        f"{spec}:9{NBSP}: questions[0].event{NBSP}: événement 'Terain>=1'")


def test_an_exact_request_refused_for_its_cost_says_the_limits_in_the_language(files, monkeypatch):
    monkeypatch.setattr(_setup, "MAX_EXACT_SECONDS", 1e-9)
    deck = deckstat.load_deck(files / "pool.csv")
    call = lambda: deckstat.odds(deck, "wankul", "Terrain>=1", method="exact")  # noqa: E731
    english, french = message(call, "en"), message(call, "fr")
    assert english.startswith("the exact engine would take ~")
    assert english.endswith("for this question, beyond its limits (0 ms, 4.0 GiB); use method='simulate', or ask "
                            "about fewer groups or turns")
    assert french.startswith("le calcul exact prendrait ~")
    assert french.endswith(f"pour cette question, au-delà de ses limites (0 ms, 4,0 Gio){NBSP}; employez "
                           "method='simulate', ou portez la question sur moins de groupes ou de tours")
    line = cli_error("fr", "odds", files / "pool.csv", "-g", "wankul", "-e", "Terrain>=1", "--exact")
    assert "au-delà de ses limites (0 ms, 4,0 Gio)" in line and "--simulate" in line


# --- the event as the player wrote it ------------------------------------------------------------------------------

def test_french_keywords_are_echoed_as_written():
    assert to_text(parse_event("Terrain>=1 et Sort>=1")) == "Terrain>=1 et Sort>=1"
    assert to_text(parse_event("Terrain>=1 ET non Sort=0 ou Héros")) == "(Terrain>=1 et non Sort==0) ou Héros>=1"
    assert to_text(parse_event("non (A ou B) and C")) == "non (A>=1 ou B>=1) and C>=1"
    # English keywords read as before, whatever their case.
    assert to_text(parse_event("Terrain>=1 AND Sort>=1 Or NOT A")) == "(Terrain>=1 and Sort>=1) or not A>=1"


@pytest.mark.parametrize(("french", "english"), [
    ("Terrain>=1 et Sort>=1", "Terrain>=1 and Sort>=1"),
    ("non Terrain>=1 ou Sort=2", "not Terrain>=1 or Sort=2"),
])
def test_events_differing_only_by_the_keywords_language_are_equal(french, english):
    assert parse_event(french) == parse_event(english)
    assert hash(parse_event(french)) == hash(parse_event(english))
    assert parse_event(to_text(parse_event(french))) == parse_event(french)


def test_odds_show_each_event_as_written_with_the_same_numbers(files):
    deck = deckstat.load_deck(files / "pool.csv")
    events = ["Terrain>=1 et Héros>=1", "Terrain>=1 and Héros>=1"]
    table = deckstat.odds(deck, "wankul", events, turns=0, mulligan=False, method="exact", seat="first").table
    assert list(table["event"]) == events
    # Both types in a 5-card hand of 10 Terrains and 40 Héros.
    expected = 1 - (comb(40, 5) + comb(10, 5)) / comb(50, 5)
    assert table["p"].tolist() == pytest.approx([expected, expected], rel=1e-12)


def test_the_command_line_shows_the_event_as_written_in_either_language(files):
    for lang in ("en", "fr"):
        result = run("odds", files / "pool.csv", "-g", "wankul", "-e", "Terrain>=2 ou non Héros>=5", "--turns", "0",
                     "--no-mulligan", "--format", "json", "--lang", lang)
        assert result.exit_code == 0, result.output
        events = {row["event"] for row in json.loads(result.stdout)["table"]}
        assert events == {"Terrain>=2 ou non Héros>=5"}
