"""The command line in French and in English: the same numbers, written as each language writes them."""

from __future__ import annotations

import re
import textwrap

import pytest
from helpers import DATA, assert_no_crash, assert_user_error, ok, run

import deckstat

NBSP = "\u00a0"
WANKUL = DATA / "wankul" / "sample_deck.csv"
WANKUL_V2 = DATA / "wankul" / "sample_deck_v2.csv"
ILLEGAL = DATA / "wankul" / "illegal_deck.csv"
DUEL_MASTERS = DATA / "duel-masters" / "sample_deck.csv"

#: Each command with its main variants, then words only French shows and words only English shows.
COMMANDS = {
    "odds": (["odds", WANKUL, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0-3"],
             ["dans la main gardée et les cartes piochées", "les deux joueurs (mêmes chances)", "(50 cartes)",
              "mulligan sous le deck", "règle de garde Terrain>=1", "première main gardée à 68,9\u00a0%"],
             ["in the kept hand and cards drawn", "both players (same odds)", "(50 cards)", "bottom mulligan",
              "keep rule Terrain>=1", "first hand kept 68.9%"]),
    "odds simulated": (["odds", WANKUL, "-g", "wankul", "-e", "Terrain>=2", "--turns", "0-2", "--trials", "20000",
                        "--seed", "7"],
                       ["simulé sur 20\u00a0000 parties, graine 7 (relancer avec --seed 7)", "\u00a0% ±",
                        "intervalles de Wilson à 95\u00a0% (± ou [bas\u00a0; haut])"],
                       ["simulated: 20,000 trials, seed 7 (rerun with --seed 7)", "% ±"]),
    "odds known": (["odds", WANKUL, "-g", "wankul", "-e", "Terrain>=2", "--known", "Terrain=1, other=4", "--turns",
                    "0-2"],
                   ["en main et dans les prochaines cartes piochées", "exact, tours à partir de maintenant",
                    "connu\u00a0: 5 en main (Terrain=1, other=4)\u00a0; 45 cartes restent dans la pioche"],
                   ["in hand and in the cards drawn next", "exact, turns from now",
                    "known: 5 in hand (Terrain=1, other=4); 45 cards left in the library"]),
    "when": (["when", WANKUL, "-g", "wankul", "-e", "Terrain>=2", "--max-turn", "3"],
             ["Premier tour où Terrain>=2 est vrai", "les deux joueurs (mêmes chances)\u00a0: tour moyen", "médiane",
              "P(toujours pas au tour 3)", "1re fois", "mêmes chances\u00a0: ici"],
             ["First turn Terrain>=2 holds", "both players (same odds): mean turn", "median", "P(not by turn 3)",
              "first on", "same odds: here the first"]),
    "curve": (["curve", WANKUL, "-g", "wankul", "--card", "Le Grenier Hanté", "--turns", "1-3", "--trials", "4000",
               "--seed", "3"],
              ["Jouable au plus tard à chaque tour", "carte ou groupe", "moyenne", "en\u00a0%",
               "modèle de jeu\u00a0: défausse, stratégie garder"],
              ["Playable on or before each turn", "card or group", "mean", "in %", "play model: discard, policy hold"]),
    "mulligan": (["mulligan", WANKUL, "-g", "wankul", "--turns", "0-2"],
                 ["mulligan sous le deck, règle de garde Terrain>=1", "garder la première main", "0 mulligan ",
                  "1 mulligan ", "Main gardée\u00a0:", "avec mulligan sous le deck", "toujours garder", "\u00a0pts"],
                 ["bottom mulligan, keep rule Terrain>=1", "keep the first hand", "0 mulligans", "1 mulligan ",
                  "Kept hand:", "with bottom mulligan", "keep every hand", " pp"]),
    "mulligan hand": (["mulligan", WANKUL, "-g", "wankul", "--hand", "Terrain=1, other=4", "-e", "Terrain>=2",
                       "--by-turn", "2"],
                      ["Garder ou mulliganer\u00a0?", "main 'Terrain=1, other=4'", "d'ici le tour 2",
                       "mulligan sous le deck, une fois", "remarque\u00a0: après un mulligan", "conseil"],
                      ["Keep or mulligan?", "hand 'Terrain=1, other=4'", "by turn 2", "bottom mulligan rule, once",
                       "note: after a mulligan", "advice"]),
    "mulligan best": (["mulligan", WANKUL, "-g", "wankul", "--best", "-e", "Terrain>=2", "--by-turn", "1"],
                      ["Meilleure règle de garde", "meilleurs choix", "Mains à garder, puis mains à mulliganer",
                       "garder"],
                      ["Best keep rule", "best decisions", "Hands to keep, then hands to mulligan", "keep"]),
    "deckout": (["deckout", WANKUL, "-g", "wankul", "--no-drought"],
                ["contre une copie de lui-même", "les deux joueurs\u00a0: deck vide au tour 46 (médiane\u00a0; "
                 "moyenne 46,00", "P(le premier joueur vide son deck en premier) = 100\u00a0%",
                 "selon les règles, le premier joueur vide son deck le premier",
                 "la partie s'arrête faute de cartes au tour 46"],
                ["against a copy of itself", "both players run out on turn 46 (median; mean 46.00",
                 "P(first player runs out first) = 100%", "by the rules, the first player runs out first",
                 "the game ends by deck-out on turn 46"]),
    "ratio": (["ratio", WANKUL, "-g", "wankul", "--range", "8-12", "--target", "0.9", "--turns", "0-1", "--seed", "1"],
              ["selon le nombre de cartes Terrain, premier joueur", "(50 cartes, dont 10 cartes Terrain actuellement)",
               "✗ 8 cartes Terrain\u00a0:", "recommandé\u00a0: 10 cartes Terrain, le plus petit nombre légal avec "
               "P(Terrain>=1) ≥ 90,0\u00a0% dans la main de départ gardée (91,7\u00a0%)", "(actuel)", "légal"],
              ["by number of Terrain cards, first player", "(50 cards, 10 Terrain cards now)", "✗ 8 Terrain cards:",
               "recommended: 10 Terrain cards, the smallest legal count with P(Terrain>=1) ≥ 90.0% in the kept "
               "opening hand (91.7%)", "(now)", "legal"]),
    "compare": (["compare", WANKUL, WANKUL_V2, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0-2"],
                ["sample_deck.csv → sample_deck_v2.csv\u00a0:", "Yéti en Vacances retirée", "Wankul\u00a0; A =",
                 "(écart exact)", "écart exact\u00a0: les chances", "\u00a0pts"],
                ["sample_deck.csv → sample_deck_v2.csv:", "Yéti en Vacances removed", "Wankul; A =",
                 "(exact difference)", "exact difference: both", " pp"]),
    "games": (["games"], ["jeu", "deck épuisé"], ["game", "deck-out"]),
    "validate": (["validate", ILLEGAL, "-g", "wankul"], ["50 cartes\u00a0: illégal", "niveau", "erreur"],
                 ["50 cards: not legal", "level", "error"]),
}


def _percents(text: str, lang: str) -> list[float]:
    """Every percentage of ``text`` as a number, read as ``lang`` writes it."""
    if lang == "fr":
        return [float(p.replace(",", ".")) for p in re.findall(r"(\d+(?:,\d+)?)\u00a0%", text)]
    return [float(p) for p in re.findall(r"(\d+(?:\.\d+)?)%", text)]


def _decimals(text: str, lang: str) -> list[float]:
    """Every number with decimals of ``text`` (percentages, mean turns, table cells), sorted."""
    pattern = r"\d+,\d+" if lang == "fr" else r"\d+\.\d+"
    return sorted(float(x.replace(",", ".")) for x in re.findall(pattern, text))


def _assert_french_numbers(text: str) -> None:
    """Decimal commas and a no-break space before every % in French."""
    assert not re.search(r"\d %", text), "a plain space before %"
    assert not re.search(r"\d%", text), "% without a space"
    assert not re.search(r"\d\.\d+\u00a0%", text), "a decimal point in a French percentage"


def _both(args: list) -> tuple:
    # Every column, whatever the width: the words and numbers of the whole tables (tests/test_terminal_tables.py
    # checks what each width shows).
    wide = ["--wide"] if args[0] != "batch" and args[:2] != ["games", "show"] else []
    english, french = run(*args, "--lang", "en", *wide), run(*args, "--lang", "fr", *wide)
    assert_no_crash(english)
    assert_no_crash(french)
    return english, french


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_writes_the_same_numbers_in_french_and_english(name):
    args, french_words, english_words = COMMANDS[name]
    english, french = _both(args)
    assert french.exit_code == english.exit_code == (1 if name == "validate" else 0), french.output
    for word in french_words:
        assert word in french.stdout, word
    for word in english_words:
        assert word in english.stdout, word
    _assert_french_numbers(french.stdout)
    assert _percents(french.stdout, "fr") == _percents(english.stdout, "en")
    assert _decimals(french.stdout, "fr") == _decimals(english.stdout, "en")
    points = re.findall(r"([+-]\d+),(\d+)\u00a0pts", french.stdout)
    assert [f"{a}.{b}" for a, b in points] == re.findall(r"([+-]\d+\.\d+) pp", english.stdout)


def test_games_show_runs_in_both_languages():
    english, french = _both(["games", "show", "wankul"])
    assert english.exit_code == french.exit_code == 0
    assert "Wankul" in french.stdout


def test_plurals_follow_each_language(tmp_path):
    # A 6-card deck: with 5 cards known in hand, 1 card is left to draw; with 4, 2 are.
    deck = tmp_path / "six.csv"
    deck.write_text("name,count,type\nA,1,x\nB,5,y\n", encoding="utf-8")
    base = ["odds", deck, "-g", "generic", "-e", "A>=1", "--draws", "1"]
    one = ok(run(*base, "--known", "B=5", "--lang", "fr"))
    two = ok(run(*base, "--known", "B=4", "--lang", "fr"))
    assert "1 carte reste dans la pioche" in one and "2 cartes restent dans la pioche" in two
    assert "(6 cartes)" in one
    one = ok(run(*base, "--known", "B=5", "--lang", "en"))
    two = ok(run(*base, "--known", "B=4", "--lang", "en"))
    assert "1 card left in the library" in one and "2 cards left in the library" in two
    # P(A among the next card) = 1 with B=5 known, 1/2 with B=4 known (A and one B left).
    assert "100%" in one and "50.0%" in two


def test_json_and_csv_do_not_change_with_the_language():
    for fmt in ("json", "csv"):
        args = ["odds", WANKUL, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0-2", "--format", fmt]
        assert ok(run(*args, "--lang", "fr")) == ok(run(*args, "--lang", "en"))


def test_errors_and_warnings_are_prefixed_in_the_language(tmp_path):
    args = ["odds", WANKUL, "-g", "wankul", "-e", "Terrain>=1", "--plot", tmp_path / "figure.txt"]
    english, french = _both(args)
    assert_user_error(english, "--plot", "expected a file name ending in .png or .svg")
    assert french.exit_code == 2 and french.stdout == ""
    [line] = french.stderr.strip().splitlines()
    assert line.startswith("erreur\u00a0: --plot ") and "il faut un nom de fichier finissant par .png ou .svg" in line
    # Duel Masters cards asked as Pandrea: the file looks like another game's.
    english, french = _both(["odds", DUEL_MASTERS, "-g", "pandrea", "-e", "[cost<=2]>=1", "--turns", "0"])
    assert english.exit_code == french.exit_code == 0
    assert english.stderr.startswith("warning: ") and french.stderr.startswith("attention\u00a0: ")


def test_batch_plan_and_summary_in_french(tmp_path):
    spec = tmp_path / "tiny.toml"
    spec.write_text(textwrap.dedent(f"""
        name = "tiny"
        seed = 5
        [decks.wankul]
        path = "{WANKUL.as_posix()}"
        game = "wankul"

        [[questions]]
        question = "odds"
        event = "Terrain>=1"
        turns = "0-1"
        mulligan = false
        method = "exact"
        [questions.sweep]
        seat = ["first", "second"]
        """), encoding="utf-8")
    english, french = _both(["batch", spec, "--dry-run", "--workers", "1"])
    assert english.exit_code == french.exit_code == 0
    assert "tâche" in french.stdout
    assert "tiny\u00a0: 2 tâches\u00a0; 2 estimées d'après les modèles de coût" in french.stdout
    assert "sur 1 processus" in french.stdout
    assert "tiny: 2 tasks; 2 estimated from the cost models" in english.stdout and "on 1 worker," in english.stdout
    french = run("batch", spec, "--out", tmp_path / "out", "--workers", "1", "--lang", "fr")
    assert french.exit_code == 0, french.output
    # Exact odds of Terrain>=1 for 2 seats and turns 0-1: 4 rows.
    assert "tiny\u00a0: 2 tâches, 2 réussies, 0 en échec\u00a0; 4 lignes dans" in french.stdout


def test_report_says_what_it_wrote_in_french(tmp_path):
    result = run("report", WANKUL, "-g", "wankul", "--out", tmp_path, "--trials", "2000", "--seed", "1", "--lang",
                 "fr")
    assert "écrit, avec ses figures" in ok(result)


@pytest.mark.parametrize(("french_seat", "seat"), [("premier", "first"), ("second", "second"),
                                                   ("deuxième", "second"), ("les-deux", "both"), ("tous", "both")])
def test_french_seat_names_ask_the_same_question(french_seat, seat):
    args = ["odds", WANKUL, "-g", "wankul", "-e", "Terrain>=2", "--turns", "0-2", "--format", "csv"]
    assert ok(run(*args, "--seat", french_seat)) == ok(run(*args, "--seat", seat))


def test_mulligan_takes_french_seat_names_and_writes_the_seat_in_french():
    args = ["mulligan", WANKUL, "-g", "wankul", "--turns", "0-1"]
    french = ok(run(*args, "--seat", "tous", "--lang", "fr"))
    assert "P(Terrain>=1) par tour, les deux joueurs" in french
    assert _percents(french, "fr") == _percents(ok(run(*args, "--seat", "both", "--lang", "en")), "en")


def test_the_python_api_accepts_french_seat_names():
    deck = deckstat.load_deck(WANKUL)
    french = deckstat.odds(deck, "wankul", "Terrain>=1", turns=[0, 2], seat="premier").table
    english = deckstat.odds(deck, "wankul", "Terrain>=1", turns=[0, 2], seat="first").table
    assert french.equals(english) and set(french["seat"]) == {"first"}
    both = deckstat.odds(deck, "wankul", "Terrain>=1", turns=[0], seat="les-deux").table
    assert list(both["seat"]) == ["first", "second"]


def test_deckstat_lang_and_the_locale_choose_french(monkeypatch):
    args = ["odds", WANKUL, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0"]
    english = ok(run(*args))
    monkeypatch.setenv("DECKSTAT_LANG", "fr")
    from_variable = ok(run(*args))
    monkeypatch.delenv("DECKSTAT_LANG")
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    from_locale = ok(run(*args))
    assert "les deux joueurs" in from_variable and "(50 cartes)" in from_variable
    assert from_locale == from_variable
    assert "both players" in english and _percents(english, "en") == _percents(from_locale, "fr")


@pytest.mark.parametrize(("french", "english"), [("boucliers", "set_aside"), ("main", "hand"), ("dessous", "bottom"),
                                                 ("vu", "seen")])
def test_french_zone_names_give_the_english_zone_s_numbers(french, english):
    args = ["odds", DUEL_MASTERS, "-g", "duel-masters", "-e", "[shield_trigger]>=1", "--turns", "0-2", "--format",
            "csv"]
    assert ok(run(*args, "--zone", french)) == ok(run(*args, "--zone", english))


def test_the_game_s_own_name_for_its_set_aside_cards_is_a_zone_in_every_question():
    deck = deckstat.load_deck(DUEL_MASTERS)
    shields = deckstat.odds(deck, "duel-masters", "[shield_trigger]>=1", zone="Shields").table
    assert set(shields["zone"]) == {"set_aside"}
    swept = deckstat.ratio(deck, "duel-masters", group="[shield_trigger]", counts=[8], zone="boucliers")
    assert set(swept.table["zone"]) == {"set_aside"}
    assert_user_error(run("odds", WANKUL, "-g", "wankul", "-e", "Terrain>=1", "--zone", "boucliers"),
                      "Wankul sets no card aside")
