"""The light commands start light: what ``deckstat games``, ``games show`` and ``--help`` import, never how long.

Each command runs in a fresh interpreter, which reports the modules it holds when it ends. numpy, pandas,
pyarrow, numba, scipy and matplotlib are the questions' tools; pydantic is typer's reader of option values, which
these command lines do without (deckstat.cli.options._Coercion). ``games show`` describes the play policies from
the play models' catalogue (deckstat.play.catalogue), which must say what the model classes say.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tomllib
from importlib import resources

import pytest

from deckstat import play
from deckstat.effects import DEFAULT_TIMING, TIMINGS
from deckstat.games import profiles
from deckstat.i18n import read_catalogue
from deckstat.play import MODELS

HEAVY = ("numpy", "pandas", "pyarrow", "numba", "matplotlib", "scipy", "pydantic")

_REPORT = """
import atexit, json, sys
sys.argv = ["deckstat", *json.loads(sys.argv[1])]
atexit.register(lambda: print("MODULES=" + json.dumps(sorted({name.split(".")[0] for name in sys.modules})),
                              file=sys.stderr))
from deckstat.cli import main
main()
"""


def _imported(*args: str, env: dict | None = None) -> set[str]:
    """The top-level packages a fresh ``deckstat ARGS`` holds when it ends (it must end well)."""
    environment = {key: value for key, value in os.environ.items() if key != "DECKSTAT_LANG"} | (env or {})
    done = subprocess.run([sys.executable, "-c", _REPORT, json.dumps(list(args))], capture_output=True, text=True,
                          env=environment, timeout=120)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stderr.splitlines() if line.startswith("MODULES="))
    return set(json.loads(line.removeprefix("MODULES=")))


@pytest.mark.parametrize("args", [("games",), ("games", "--lang", "fr"), ("--help",), ("odds", "--help"),
                                  ("games", "--help")])
def test_light_commands_load_none_of_the_questions_tools(args):
    imported = _imported(*args)
    assert not imported & set(HEAVY), sorted(imported & set(HEAVY))


def test_french_from_the_environment_loads_none_of_them_either():
    imported = _imported("games", env={"DECKSTAT_LANG": "fr"})
    assert not imported & set(HEAVY), sorted(imported & set(HEAVY))


def _shipped_ids() -> list[str]:
    return [profile.id for profile in profiles.list_profiles()]


@pytest.mark.parametrize("game", _shipped_ids())
def test_showing_a_shipped_profile_loads_none_of_them(game):
    # Its play policies come from the catalogue, not from the model classes (which read decks with pandas).
    imported = _imported("games", "show", game)
    assert not imported & set(HEAVY), sorted(imported & set(HEAVY))


@pytest.mark.parametrize("args", [("games", "show", "wankul", "--lang", "fr"), ("games", "show", "wankul", "--help"),
                                  ("games", "show", str(resources.files("deckstat.games") / "jdg.toml"))])
def test_showing_a_profile_in_french_or_its_help_or_a_profile_file_loads_none_of_them(args):
    imported = _imported(*args)
    assert not imported & set(HEAVY), sorted(imported & set(HEAVY))


def test_showing_a_profile_in_french_from_the_environment_loads_none_of_them():
    imported = _imported("games", "show", "duel-masters", env={"DECKSTAT_LANG": "fr"})
    assert not imported & set(HEAVY), sorted(imported & set(HEAVY))


def test_an_unknown_profile_is_refused_without_them():
    # user_errors opens its block of deck notes without the card reader.
    done = subprocess.run([sys.executable, "-c", _REPORT, json.dumps(["games", "show", "wankel"])],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "wankul" in done.stderr
    line = next(line for line in done.stderr.splitlines() if line.startswith("MODULES="))
    assert not set(json.loads(line.removeprefix("MODULES="))) & set(HEAVY)


# --------------------------------------------------------------------------- the play models' catalogue


@pytest.mark.parametrize("kind", sorted(MODELS))
def test_the_catalogue_says_what_each_model_class_says(kind):
    entry = MODELS[kind]
    model = entry.load()
    assert model.__name__ == entry.name and getattr(play, entry.name) is model
    assert (model.kind, model.policies, model.default_policy, model.policy_aliases) == \
        (entry.kind, entry.policies, entry.default_policy, entry.policy_aliases)


def test_the_catalogue_names_every_model_class():
    from deckstat.play.base import PlayModel

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    for module in ("bench", "condition", "discard", "hand", "logistics", "mana"):
        importlib.import_module(f"deckstat.play.{module}")
    assert {cls.kind for cls in subclasses(PlayModel) if cls.kind} == set(MODELS)


def test_every_shipped_profile_names_a_model_of_the_catalogue():
    for profile in profiles.list_profiles():
        entry = MODELS[profile.play_model.kind]
        assert (profile.play_model.policy or entry.default_policy) in entry.policies


def test_help_loads_no_rich_console():
    # --help is click's plain text: rich's console and tables are loaded by what prints a table.
    done = subprocess.run([sys.executable, "-c", _REPORT.replace(
        "name.split(\".\")[0] for name in sys.modules", "name for name in sys.modules"), json.dumps(["--help"])],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stderr.splitlines() if line.startswith("MODULES="))
    modules = set(json.loads(line.removeprefix("MODULES=")))
    assert not modules & {"rich.console", "rich.table", "rich.progress"}


def test_an_absent_or_plain_value_is_read_as_typer_reads_it():
    # A refused choice still goes through typer's reader: the same one-line error, named in the language.
    done = subprocess.run([sys.executable, "-m", "deckstat", "games", "--lang", "de"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert "--lang" in done.stderr and "'de'" in done.stderr


# --------------------------------------------------------------------------- the shipped profiles, read unparsed


def _shipped_files():
    return sorted((entry for entry in resources.files("deckstat.games").iterdir() if entry.name.endswith(".toml")),
                  key=lambda entry: entry.name)


@pytest.mark.parametrize("entry", _shipped_files(), ids=lambda entry: entry.name)
def test_a_shipped_profile_read_unparsed_is_the_profile_read_with_every_check(entry):
    # At start-up the shipped profiles' groups, keep rule and effect moment are taken as written (no expression
    # parser, no numpy): here every check runs, and the two readings give the same profile.
    data = tomllib.loads(entry.read_text(encoding="utf-8"))
    where = f"deckstat/games/{entry.name}"
    checked = profiles.parse_profile(data, where=where)
    assert profiles.parse_profile(data, where=where, check_expressions=False) == checked
    assert checked.effect_moment in TIMINGS


def test_no_two_shipped_profiles_share_a_name():
    # get_profile reads the profile a name's file holds alone (wankul.toml for "wankul"): right only when no other
    # profile answers to that name.
    named = [profiles._names(profile) for profile in profiles.list_profiles()]
    for index, names in enumerate(named):
        assert not names & set().union(*named[:index], *named[index + 1:])
    for entry in _shipped_files():
        assert profiles.fold_key(entry.name.removesuffix(".toml")) in profiles._names(profiles._shipped_profile(entry))


@pytest.mark.parametrize("name", ["wankul", "Duel Masters", "duel_masters", "dm", "JDG", "jdg-tcg", "generic",
                                  "licum", "pandrea"])
def test_a_profile_named_by_its_file_is_the_profile_of_the_list(name):
    found = profiles.get_profile(name)
    assert any(found is profile for profile in profiles.list_profiles())
    assert profiles.fold_key(name) in profiles._names(found)


def test_the_default_effect_moment_is_the_effects_one():
    assert profiles._DEFAULT_MOMENT == DEFAULT_TIMING


def test_a_user_profile_is_still_parsed_in_full(tmp_path):
    entry = next(e for e in _shipped_files() if e.name == "generic.toml")
    text = entry.read_text(encoding="utf-8").replace('effect_moment = "on_play"', 'effect_moment = "jouee"')
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    assert profiles.load_profile_file(path).effect_moment == "on_play"  # the French word, read


# --------------------------------------------------------------------------- the catalogue, read as JSON


def test_the_french_catalogue_reads_as_tomllib_reads_it():
    text = resources.files("deckstat.locales").joinpath("fr.toml").read_text(encoding="utf-8")
    assert read_catalogue(text) == tomllib.loads(text)


@pytest.mark.parametrize("text", [
    '"a" = "b"\n',
    '# c\n\n"a\\tb" = "\\u00e9\\"\\\\"\n"{n} x" = ["un", "des"]\n',
    '"a" = "b" # a comment after\n',
    "a = 'literal'\n",
    '"a" = "\\U0001F600"\n',
    '"a" = "tab\there"\n',
    '"a" = """\nlong"""\n',
    '[table]\n"a" = "b"\n',
    '"a"="b"\n',
    '"a" = ["b",]\n',
])
def test_a_catalogue_reads_as_tomllib_reads_it(text):
    assert read_catalogue(text) == tomllib.loads(text)


@pytest.mark.parametrize("text", ['"a" = "b"\n"a" = "c"\n', '"a" = "b"\n"\\u0061" = "c"\n', '"a" = "\\ud800"\n',
                                  '"a" = "b\n', '"a" = "\\/"\n', '# bad \x01\n'])
def test_a_broken_catalogue_is_refused_as_tomllib_refuses_it(text):
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(text)
    with pytest.raises(tomllib.TOMLDecodeError):
        read_catalogue(text)
