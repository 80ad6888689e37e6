"""The French catalogue against the messages of the code, and the language machinery."""

import ast
from pathlib import Path

import pytest
import typer.main
from helpers import assert_user_error, run

from deckstat import i18n
from deckstat.cli import app
from deckstat.cli.options import help_paragraphs
from deckstat.errors import DeckstatError

PACKAGE = Path(i18n.__file__).parent
CALLS = {"tr": 1, "N_": 1, "trn": 2}


def _messages() -> dict[str, tuple[str, ...]]:
    """Every message the package writes through tr/trn/N_: msgid -> (forms...), with where it is."""
    found: dict[str, tuple[str, ...]] = {}
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name not in CALLS or len(node.args) < CALLS[name]:
                continue
            forms = node.args[:CALLS[name]]
            where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
            if any(isinstance(f, ast.JoinedStr) for f in forms):
                problems.append(f"{where}: an f-string cannot be looked up; use {{fields}}")
                continue
            if not all(isinstance(f, ast.Constant) and isinstance(f.value, str) for f in forms):
                continue  # written elsewhere and marked with N_ there
            values = tuple(f.value for f in forms)
            if found.get(values[0], values) != values:
                problems.append(f"{where}: {values[0]!r} used with two different plural forms")
            found[values[0]] = values
    assert not problems, "\n".join(problems)
    for paragraph in _help_messages(typer.main.get_command(app)):
        found.setdefault(paragraph, (paragraph,))
    return found


def _help_messages(command) -> set[str]:
    """The paragraphs of every help text of the command line: commands' help (docstrings) and parameters' help=.

    Read from the command tree rather than marked one by one with N_(): a help text is already marked by where it
    stands, wrapping the hundred and more of them would bury the option declarations, and the tree holds exactly
    what --help writes (not, say, a group callback's docstring that its help= replaces).
    """
    texts = [command.help, command.short_help, *(parameter.help for parameter in command.params)]
    found = {paragraph for text in texts if text for paragraph in help_paragraphs(text)}
    for subcommand in getattr(command, "commands", {}).values():
        found |= _help_messages(subcommand)
    return found


@pytest.fixture(scope="module")
def messages():
    return _messages()


@pytest.fixture(scope="module")
def french():
    return i18n.catalogue("fr")


def test_every_message_of_the_code_has_a_french_text(messages, french):
    missing = sorted(m for m in messages if m not in french)
    assert not missing, f"{len(missing)} messages without French text, e.g. {missing[:5]}"


def test_every_french_text_has_a_message_in_the_code(messages, french):
    stale = sorted(m for m in french if m not in messages)
    assert not stale, f"{len(stale)} French texts no code writes, e.g. {stale[:5]}"


def test_plural_messages_have_two_forms_and_others_one(messages, french):
    for msgid, forms in messages.items():
        text = french.get(msgid)
        if text is None:
            continue
        if len(forms) == 2:
            assert isinstance(text, list) and len(text) == 2 and all(isinstance(t, str) for t in text), msgid
        else:
            assert isinstance(text, str), msgid


def test_french_texts_fill_the_same_fields(messages, french):
    for msgid, forms in messages.items():
        text = french.get(msgid)
        if text is None:
            continue
        for english, translated in zip(forms, text if isinstance(text, list) else [text]):
            assert i18n.fields_of(translated) <= i18n.fields_of(english) | {"n"}, (msgid, translated)
            assert i18n.fields_of(english) - {"n"} <= i18n.fields_of(translated) | {"n"}, (msgid, translated)


def test_french_texts_follow_french_typography(french):
    for msgid, text in french.items():
        for form in text if isinstance(text, list) else [text]:
            assert i18n.french_typography(form) == form, (msgid, form)


@pytest.mark.parametrize(("environ", "expected"), [
    ({}, "en"), ({"LANG": "fr_FR.UTF-8"}, "fr"), ({"LANG": "fr_CA"}, "fr"), ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, "en"), ({"LC_MESSAGES": "fr_BE", "LANG": "en_US"}, "fr"),
    ({"DECKSTAT_LANG": "fr", "LANG": "en_US"}, "fr"), ({"DECKSTAT_LANG": "en", "LC_ALL": "fr_FR"}, "en"),
])
def test_language_follows_deckstat_lang_then_the_locale(environ, expected):
    assert i18n.detect_language(environ) == expected


def test_an_unknown_language_is_an_error_naming_its_source(monkeypatch):
    with pytest.raises(i18n.LanguageError, match="DECKSTAT_LANG.*'klingon'.*en, fr"):
        i18n.detect_language({"DECKSTAT_LANG": "klingon"})
    monkeypatch.setenv("DECKSTAT_LANG", "klingon")
    assert i18n.get_language() == "en"  # errors can still be written
    result = run("games", "show", "wankul")
    assert_user_error(result, "DECKSTAT_LANG", "klingon", "en, fr")


@pytest.mark.parametrize(("n", "english", "french_text"), [
    (0, "0 cards", "0 carte"), (1, "1 card", "1 carte"), (2, "2 cards", "2 cartes"),
    (50, "50 cards", "50 cartes"), (12345, "12,345 cards", "12\u00a0345 cartes"),
])
def test_plurals_follow_each_language(n, english, french_text):
    with i18n.language("en"):
        assert i18n.trn("{n} card", "{n} cards", n) == english
    with i18n.language("fr"):
        assert i18n.trn("{n} card", "{n} cards", n) == french_text


def test_the_language_block_restores_the_language_before_it():
    i18n.set_language("en")
    with i18n.language("fr"):
        assert i18n.get_language() == "fr"
    assert i18n.get_language() == "en"
    i18n.set_language(None)


def test_error_places_are_written_in_the_language():
    error = DeckstatError("x", source="deck.csv", line=4, column="Coût")
    with i18n.language("fr"):
        assert error.render() == "deck.csv, ligne 4, colonne 'Coût'\u00a0: x"
    with i18n.language("en"):
        assert error.render() == "deck.csv, line 4, column 'Coût': x"
