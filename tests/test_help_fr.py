"""--help in French: every text of every command's help translated, whichever way French is asked for."""

from __future__ import annotations

import re

import pytest
import typer.main
from helpers import ok, run

from deckstat.cli import app
from deckstat.cli.options import asked_language, help_paragraphs
from deckstat.i18n import catalogue, language, tr


def _commands(command=None, path: tuple[str, ...] = ()) -> dict[str, object]:
    """Every command and group of the command line by its words (``""`` for the app, ``"games show"``)."""
    command = typer.main.get_command(app) if command is None else command
    found = {" ".join(path): command}
    for name, subcommand in getattr(command, "commands", {}).items():
        found |= _commands(subcommand, (*path, name))
    return found


COMMANDS = _commands()


def _flat(text: str) -> str:
    """``text`` with its line breaks and runs of spaces (no-break ones too) as one space: help is rewrapped.

    A line may also end on a word's hyphen (``point-`` / ``virgule``), which joins the next line without a space.
    """
    return " ".join(re.sub(r"(?<=\w)-\n\s*(?=\w)", "-", text).split())


def _help(name: str, *extra: str) -> str:
    return ok(run(*name.split(), "--help", *extra))


@pytest.fixture
def french_help(monkeypatch):
    """The French --help of a command: asked with ``--lang fr`` where it has one, else with ``DECKSTAT_LANG``."""
    def written(name: str) -> str:
        if any(parameter.name == "lang" for parameter in COMMANDS[name].params):
            return _help(name, "--lang", "fr")
        monkeypatch.setenv("DECKSTAT_LANG", "fr")
        return _help(name)

    return written


def _texts(command) -> list[str]:
    """The help paragraphs --help shows for ``command``: its own, each parameter's, and the --help option's."""
    texts = [command.help, *(parameter.help for parameter in command.params), "Show this message and exit."]
    return [paragraph for text in texts if text for paragraph in help_paragraphs(text)]


def test_every_command_is_covered():
    assert {"", "odds", "batch", "games", "games show"} <= set(COMMANDS)
    # sensitivity's and explore's French names, sensibilite and explorer, are hidden commands of their own.
    assert len(COMMANDS) == 19


@pytest.mark.parametrize("name", list(COMMANDS))
def test_french_help_shows_each_text_in_french_and_none_in_english(name, french_help):
    shown = _flat(french_help(name))
    french = catalogue("fr")
    for paragraph in _texts(COMMANDS[name]):
        assert _flat(french[paragraph]) in shown, paragraph
        assert _flat(paragraph) not in shown, paragraph


@pytest.mark.parametrize("name", list(COMMANDS))
def test_french_help_keeps_none_of_clicks_english_words(name, french_help):
    text = french_help(name)
    for english in ("Usage:", "Options:", "Arguments:", "Commands:", "COMMAND [ARGS]", "Show this message", "[default:",
                    "default:", "[required]", "required]"):
        assert english not in text, english
    assert text.startswith(f"Utilisation\u00a0: {' '.join(['deckstat', *name.split()])} [OPTIONS]")
    assert "\x1b" not in text  # plain text, as in English


@pytest.mark.parametrize("name", list(COMMANDS))
def test_french_help_keeps_its_no_break_spaces(name, french_help):
    # None lost on the way (click rewraps and shortens): no line may start with a colon, semicolon or percent sign.
    text = french_help(name)
    assert not re.findall(r"[ \n][:;?!%]", text)
    assert "\u00a0:" in text


@pytest.mark.parametrize("name", ["", "games"])
def test_french_command_lists_start_each_command_with_its_french_help(name, french_help):
    text = french_help(name)
    listed = text.split("Commandes\u00a0:\n", 1)[1]
    rows = dict(re.findall(r"^  (\S+) +(.+)$", listed, flags=re.MULTILINE))
    group = COMMANDS[name]
    shown_commands = {n: c for n, c in group.commands.items() if not c.hidden}
    assert set(rows) == set(shown_commands)
    for command_name, command in shown_commands.items():
        with language("fr"):
            first = tr(help_paragraphs(command.help)[0])
        shown = rows[command_name].removesuffix("...")
        assert first.startswith(shown) and len(shown) > 20, (command_name, rows[command_name])


@pytest.mark.parametrize("args", [
    ("--help", "--lang", "fr"), ("--lang", "fr", "--help"), ("--help", "--lang=fr"),
    ("--lang", "en", "--help", "--lang", "fr"),
])
def test_lang_on_the_command_line_before_or_after_help(args):
    assert ok(run("odds", *args)).startswith("Utilisation\u00a0: deckstat odds")


def test_the_lang_of_games_holds_for_the_help_of_its_subcommand():
    assert ok(run("games", "--lang", "fr", "show", "--help")).startswith("Utilisation\u00a0: deckstat games show")


@pytest.mark.parametrize("environ", [{"DECKSTAT_LANG": "fr"}, {"DECKSTAT_LANG": "", "LANG": "fr_FR.UTF-8"},
                                     {"DECKSTAT_LANG": "francais"}])
@pytest.mark.parametrize("name", ["", "odds", "games", "games show"])
def test_french_from_the_environment(monkeypatch, environ, name):
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    for variable, value in environ.items():
        monkeypatch.setenv(variable, value)
    assert _help(name).startswith("Utilisation\u00a0: deckstat")


def test_the_command_line_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv("DECKSTAT_LANG", "fr")
    assert _help("odds", "--lang", "en").startswith("Usage: deckstat odds")


def test_help_follows_its_own_command_line_not_the_last_command_run():
    ok(run("games", "--lang", "fr"))  # leaves French set in this process
    assert _help("odds").startswith("Usage: deckstat odds")


def test_an_unknown_deckstat_lang_still_shows_the_help(monkeypatch):
    monkeypatch.setenv("DECKSTAT_LANG", "klingon")
    assert _help("odds").startswith("Usage: deckstat odds")


def test_english_help_is_as_click_writes_it():
    assert _help("").startswith(
        "Usage: deckstat [OPTIONS] COMMAND [ARGS]...\n\n"
        "  Deck statistics for card games: exact odds, deck validation, game profiles.\n\n"
        "Options:\n"
        "  -V, --version  Print deckstat's version and exit.\n"
        "  --help         Show this message and exit.\n\n"
        "Commands:\n"
        "  validate     Check a deck against its game's construction rules.\n"
        "  odds         Probability of an event in the opening hand and by turn, for...\n")
    # Lines short enough for any width click wraps at; longer texts compared whatever their line breaks.
    validate = _help("validate")
    assert validate.startswith("Usage: deckstat validate [OPTIONS] {DECK}\n\n"
                               "  Check a deck against its game's construction rules.\n\n")
    assert "\n\nArguments:\n  DECK  Card CSV (one row per card)" in validate
    assert "\n\nOptions:\n  -g, --game GAME                 Game profile id" in validate
    assert "  --help                          Show this message and exit.\n" in validate
    flat = _flat(validate)
    assert "Exit code 0 when the deck is legal, 1 when it breaks a rule, 2 when the input is unusable." in flat
    assert "(every table and the provenance). [default: table]" in flat
    assert ".toml profile file. [required]" in flat
    assert "GAME  Profile id, alias or .toml file.  [required]" in _help("games show")


def test_defaults_are_shown_as_they_are_with_the_french_word():
    shown = _flat(_help("odds", "--lang", "fr"))
    for value in ("both", "seen", "100000000", "262144", "1"):
        assert f"[par défaut : {value}]" in shown
    assert "[obligatoire]" in shown
    assert '"Terrain>=1 et [cost<=1]>=2"' in shown  # event syntax as written, rich markup off


def _choices(text: str) -> list[tuple[str, str]]:
    return re.findall(r"(--[\w-]+) \[([\w-]+(?:\|[\w-]+)+)\]", text)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_french_help_lists_the_same_choices(name, french_help):
    # The lists test_start.py checks against the parser: the same in both languages.
    english = _choices(_help(name))
    assert _choices(french_help(name)) == english
    assert english or not any("[" in (p.metavar or "") for p in COMMANDS[name].params)


@pytest.mark.parametrize(("args", "expected"), [
    ([], None), (["--lang", "fr"], "fr"), (["-e", "x", "--lang=en"], "en"), (["--lang"], None),
    (["--lang", "de"], None), (["--lang", "fr", "--lang", "en"], "en"), (["--", "--lang", "fr"], None),
    (["--language", "fr"], None),
])
def test_asked_language(args, expected):
    assert asked_language(args) == expected
