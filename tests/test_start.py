"""Starting out: --version, a --help that reads as written, and questions on a deck given by its counts."""

from __future__ import annotations

import ast
import re
from importlib import metadata
from itertools import product

import numpy as np
import pytest
import typer.main
from helpers import ROOT, assert_no_crash, assert_user_error, ok, ok_json, run, sample_deck
from scipy.stats import hypergeom, multivariate_hypergeom

import deckstat
from deckstat.cli import app
from deckstat.deck import OTHER_CARDS, Deck
from deckstat.errors import DeckstatError
from deckstat.i18n import language, set_language


@pytest.fixture(autouse=True)
def _language_from_the_environment_afterwards():
    # A command run with --lang fr leaves French set in this process; the tests after this file read English.
    yield
    set_language(None)


# --------------------------------------------------------------------------- version


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_prints_the_installed_version(flag):
    result = run(flag)
    assert ok(result) == f"deckstat {metadata.version('deckstat')}\n"


# --------------------------------------------------------------------------- help

#: Each command's name on the command line, with arguments that make its required ones whole (parsed, not run).
REQUIRED = {
    "validate": ["deck.csv", "--game", "wankul"],
    "odds": ["deck.csv", "--game", "wankul", "-e", "Terrain>=1"],
    "when": ["deck.csv", "--game", "wankul", "-e", "Terrain>=1"],
    "curve": ["deck.csv", "--game", "wankul"],
    "mulligan": ["deck.csv", "--game", "wankul"],
    "deckout": ["deck.csv", "--game", "wankul"],
    "ratio": ["deck.csv", "--game", "wankul"],
    "compare": ["a.csv", "b.csv", "--game", "wankul", "-e", "Terrain>=1"],
    "sensitivity": ["deck.csv", "--game", "wankul", "-e", "Terrain>=1"],
    "sensibilite": ["deck.csv", "--game", "wankul", "-e", "Terrain>=1"],
    "combos": ["deck.csv", "--game", "wankul", "--line", "Rush: Terrain, [cost<=1]"],
    "optimise": ["deck.csv", "--game", "wankul", "-e", "Terrain>=1"],
    "report": ["deck.csv", "--game", "wankul"],
    "explore": ["deck.csv", "--game", "wankul", "--no-browser"],
    "explorer": ["deck.csv", "--game", "wankul", "--no-browser"],
    "batch": ["spec.toml"],
    "games": [],
    "games show": ["wankul"],
}


def _help(name: str) -> str:
    return ok(run(*name.split(), "--help"))


def _commands() -> list[str]:
    group = typer.main.get_command(app)
    names = []
    for name, command in group.commands.items():
        names.append(name)
        names += [f"{name} {sub}" for sub in getattr(command, "commands", {})]
    return names


def test_every_command_is_checked_here():
    assert sorted(_commands()) == sorted(REQUIRED)


def test_help_shows_the_event_syntax_as_written():
    text = _help("odds")
    assert "[cost<=1]" in text
    assert '"Terrain>=1 and [cost<=1]>=2"' in text


@pytest.mark.parametrize("name", list(REQUIRED))
def test_help_shows_no_python_types(name):
    text = _help(name)
    # Typer writes types as <bool>, <int>, <list[str]>, <path>; an event's "<=" is no such thing.
    assert not re.findall(r"<[A-Za-z][\w\[\], |]*>", text), text
    assert "Traceback" not in text


def _choices(name: str) -> list[tuple[str, str]]:
    """Every (flag, value) of the ``--flag [a|b|c]`` lists of a command's --help."""
    found = re.findall(r"(--[\w-]+) \[([\w-]+(?:\|[\w-]+)+)\]", _help(name))
    return [(flag, value) for flag, values in found for value in values.split("|")]


CHOICES = [(name, flag, value) for name in REQUIRED for flag, value in _choices(name)]


def _parse(name: str, args: list[str]) -> None:
    """Parse ``args`` as the command line would, without running the command."""
    command = typer.main.get_command(app)
    parent = command.make_context("deckstat", [*name.split(), *args], resilient_parsing=True)
    for word in name.split():
        command = command.commands[word]
        parent = command.make_context(word, [], parent=parent, resilient_parsing=True)
    with language("en"):
        command.make_context(name.split()[-1], args, parent=parent)


def test_the_help_lists_choices():
    listed = {(name, flag) for name, flag, _ in CHOICES}
    assert {("odds", "--seat"), ("odds", "--zone"), ("odds", "--mulligan-rule"), ("deckout", "--policy"),
            ("ratio", "--objective"), ("validate", "--copies-by"), ("report", "--lang")} <= listed
    assert len(CHOICES) > 50


@pytest.mark.parametrize(("name", "flag", "value"), CHOICES)
def test_every_choice_the_help_lists_is_accepted(name, flag, value):
    _parse(name, [*REQUIRED[name], flag, value])


def test_a_choice_the_help_does_not_list_is_refused():
    # What the test above would see if --help listed a value the parser refuses.
    with pytest.raises(Exception, match="not one of|invalid choice"):
        _parse("odds", [*REQUIRED["odds"], "--seat", "third"])


QUICK = ["--cards", "50", "--group", "Terrain=12", "-e", "Terrain>=1", "--turns", "0-1"]


@pytest.mark.parametrize(("flag", "value"), [(f, v) for f, v in _choices("odds") if f != "--lang"] + [
    ("--lang", "fr")])
def test_odds_runs_with_every_listed_choice(flag, value):
    # Run, not only parsed: a choice is either answered or refused in deckstat's words, never as a bad value.
    extra = ["--trials", "2000", "--seed", "1"] if flag == "--mulligan-rule" and value not in ("none", "bottom") \
        else []
    result = run("odds", *QUICK, "--game", "wankul", flag, value, *extra)
    assert_no_crash(result)
    assert "Invalid value" not in result.output
    assert result.exit_code == 0 or result.stderr.startswith("error: "), result.output


# --------------------------------------------------------------------------- nothing needs the extras

#: Packages only the extras install (test, notebooks, distributed, parquet).
EXTRAS = {"pytest", "hypothesis", "jupyter", "nbclient", "nbformat", "ipykernel", "IPython", "dask", "distributed",
          "pyarrow", "ruff"}


def _guarded(tree: ast.Module) -> set[int]:
    """Lines of imports inside a ``try`` that catches ImportError, where a missing extra gets its own message."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
                isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError")
                for h in node.handlers):
            lines |= {n.lineno for stmt in node.body for n in ast.walk(stmt) if hasattr(n, "lineno")}
    return lines


def _unguarded_imports():
    """``(place, module)`` for each absolute import of the package outside a :func:`_guarded` block."""
    for path in sorted((ROOT / "deckstat").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        guarded = _guarded(tree)
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            if names and node.lineno not in guarded:
                for name in names:
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", name


def test_the_package_imports_no_extra_outside_a_guard():
    assert not [place for place, name in _unguarded_imports() if name.split(".")[0] in EXTRAS]


def test_the_package_imports_only_what_it_declares():
    # A module another package happens to bring (click came with typer until typer carried its own) is not a
    # dependency: a plain install may lack it.
    import sys

    # A distribution's import name writes its dashes as underscores (confusable-homoglyphs, confusable_homoglyphs).
    declared = {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower().replace("-", "_")
                for r in metadata.requires("deckstat") or [] if "extra ==" not in r}
    allowed = declared | set(sys.stdlib_module_names) | {"deckstat"}
    assert not [f"{place} imports {name}" for place, name in _unguarded_imports()
                if name.split(".")[0].lower() not in allowed]


def test_the_package_requires_no_extra():
    requires = metadata.requires("deckstat") or []
    plain = [r for r in requires if "extra ==" not in r]
    assert {re.split(r"[<>=!~ \[;]", r)[0].lower() for r in plain} == {
        "numpy", "numba", "scipy", "pandas", "matplotlib", "typer", "rich", "confusable-homoglyphs"}


# --------------------------------------------------------------------------- a deck given by its counts


def test_counts_match_the_hypergeometric_distribution():
    # The web calculator's question: 50 cards, 12 Terrains, at least one in a 5-card opening hand.
    table = ok_json(run("odds", "--cards", 50, "--group", "Terrain=12", "--event", "Terrain>=1", "--turns", 0,
                        "--no-mulligan", "--format", "json"))["table"]
    expected = 1 - hypergeom(50, 12, 5).pmf(0)
    assert {row["seat"] for row in table} == {"first", "second"}
    for row in table:
        assert row["method"] == "exact"
        assert abs(row["p"] - expected) < 1e-12


def test_counts_follow_the_generic_draws_and_a_named_game():
    # Generic rules: 5 cards, then one more each turn for both players; turn 3 has seen 8.
    table = ok_json(run("odds", "--cards", 50, "--group", "Terrain=12", "-e", "Terrain>=1", "--turns", "0-3",
                        "--game", "generic", "--seat", "first", "--format", "json"))["table"]
    for row in table:
        assert abs(row["p"] - (1 - hypergeom(50, 12, 5 + row["turn"]).pmf(0))) < 1e-12
    # Duel Masters: 5 shields leave the 40 cards before the 5-card hand; the first player skips the first draw.
    table = ok_json(run("odds", "--cards", 40, "--group", "Feu=14", "-e", "Feu>=1", "--turns", "1",
                        "--game", "duel-masters", "--seat", "first", "--format", "json"))["table"]
    assert abs(table[0]["p"] - (1 - hypergeom(40, 14, 5).pmf(0))) < 1e-12


def test_several_groups_and_a_larger_hand():
    table = ok_json(run("odds", "--cards", 60, "--group", "Land=24", "--group", "Sort=10", "--hand-size", 7,
                        "-e", "Land>=2 and Sort>=1", "--turns", 0, "--seat", "first", "--format", "json"))["table"]
    dist = multivariate_hypergeom([24, 10, 26], 7)
    expected = sum(dist.pmf([land, spell, 7 - land - spell])
                   for land, spell in product(range(2, 8), range(1, 8)) if land + spell <= 7)
    assert abs(table[0]["p"] - expected) < 1e-12
    assert table[0]["zone_size"] == 7


def test_counts_with_the_wankul_mulligan():
    # Wankul keeps a hand with a Terrain, else puts it under the deck and draws 5 new cards once.
    summary = ok_json(run("mulligan", "--cards", 50, "--group", "Terrain=12", "--game", "wankul",
                          "--format", "json"))["summary"][0]
    assert abs(summary["p_keep_first"] - (1 - hypergeom(50, 12, 5).pmf(0))) < 1e-12
    # The second hand comes from the 45 cards under which the first (no Terrain) went.
    table = ok_json(run("odds", "--cards", 50, "--group", "Terrain=12", "--game", "wankul", "-e", "Terrain>=1",
                        "--turns", 0, "--seat", "first", "--format", "json"))["table"]
    miss = hypergeom(50, 12, 5).pmf(0)
    assert abs(table[0]["p"] - (1 - miss * hypergeom(45, 12, 5).pmf(0))) < 1e-12


def test_when_on_counts():
    summary = ok_json(run("when", "--cards", 50, "--group", "Terrain=12", "-e", "Terrain>=1", "--max-turn", 4,
                          "--format", "json"))["summary"]
    for row in summary:
        assert abs(row["p_never"] - hypergeom(50, 12, 9).pmf(0)) < 1e-12


def test_counts_in_a_game_with_two_decks():
    # Licum draws a 7-card hand from its game deck; the counts describe that deck.
    table = ok_json(run("odds", "--cards", 30, "--group", "Impro=8", "--game", "licum", "-e", "Impro>=1",
                        "--turns", 0, "--seat", "first", "--format", "json"))["table"]
    assert abs(table[0]["p"] - (1 - hypergeom(30, 8, 7).pmf(0))) < 1e-12


def test_the_title_names_the_counts_and_the_rules():
    out = ok(run("odds", "--cards", 60, "--group", "Land=24", "-e", "Land>=2", "--hand-size", 7, "--turns", 0))
    assert "Generic, 7-card hand, Land=24, other=36 (60 cards)" in out.splitlines()[0]


def test_python_gives_the_numbers_of_the_command_line():
    deck = Deck.from_counts(50, {"Terrain": 12})
    assert (deck.names, deck.counts.tolist()) == (["Terrain", OTHER_CARDS], [12, 38])
    result = deckstat.odds(deck, "generic", "Terrain>=1", turns=[0, 2])
    table = ok_json(run("odds", "--cards", 50, "--group", "Terrain=12", "-e", "Terrain>=1", "--turns", "0,2",
                        "--format", "json"))["table"]
    assert np.array_equal(result.table["p"].to_numpy(), [row["p"] for row in table])


def test_a_deck_of_one_group_has_no_other_cards():
    assert Deck.from_counts(40, [("Carte", 40)]).names == ["Carte"]


@pytest.mark.parametrize(("args", "needles"), [
    (["-e", "Terrain>=1"], ["card file (DECK)", "--cards N"]),
    ([sample_deck("wankul"), "-e", "Terrain>=1"], ["--game is missing"]),
    ([sample_deck("wankul"), "--cards", 50, "--group", "Terrain=12", "-e", "Terrain>=1"], ["not both"]),
    (["--group", "Terrain=12", "-e", "Terrain>=1"], ["give --cards too"]),
    (["--cards", 50, "-e", "Terrain>=1"], ["--group is missing"]),
    (["--cards", 50, "--group", "Terrain", "-e", "Terrain>=1"], ["--group 'Terrain'", "NAME=COUNT"]),
    (["--cards", 50, "--group", "Terrain=x", "-e", "Terrain>=1"], ["--group Terrain", "'x'"]),
    (["--cards", 50, "--group", "Terrain=0", "-e", "Terrain>=1"], ["--group Terrain", "at least 1"]),
    (["--cards", 10, "--group", "Terrain=8", "--group", "Sort=5", "-e", "Terrain>=1"], ["13 cards", "--cards"]),
    (["--cards", 0, "--group", "Terrain=1", "-e", "Terrain>=1"], ["--cards", "from 1 to 10,000"]),
    (["--cards", "x", "--group", "Terrain=1", "-e", "Terrain>=1"], ["--cards", "'x'"]),
    (["--cards", 50, "--group", "Terrain=12", "--group", "terrain=3", "-e", "Terrain>=1"], ["'terrain' twice"]),
    (["--cards", 50, "--group", "Terrain=12", "--group", "Autre=3", "-e", "Terrain>=1", "--group", "other=2"],
     ["'other' names the cards no group claims"]),
    (["--cards", 50, "--group", "[cost<=1]=3", "-e", "Terrain>=1"], ["--group '[cost<=1]'", "group name"]),
    (["--cards", 50, "--group", "Terrain=12", "-e", "Terrains>=1"], ["did you mean 'Terrain'"]),
    (["--cards", 3, "--group", "Terrain=2", "-e", "Terrain>=1"], ["3 cards"]),
    (["--cards", 50, "--group", "Terrain=12", "-e", "Terrain>=1", "--hand-size", 0], ["--hand-size"]),
    (["--cards", 50, "--group", "Terrain=12", "-e", "Terrain>=1", "--pool", "pool.csv"], ["--pool"]),
])
def test_counts_that_make_no_deck_are_refused(args, needles):
    assert_user_error(run("odds", *args), *needles)


def test_refusals_speak_french():
    line = assert_user_error(run("odds", "--cards", 10, "--group", "Terrain=8", "--group", "Sort=5", "-e",
                                 "Terrain>=1", "--lang", "fr"))
    assert line == "erreur\u00a0: --group demande 13 cartes (Terrain=8, Sort=5), plus que les 10 de --cards"
    line = assert_user_error(run("mulligan", "--lang", "fr"))
    assert "donnez un fichier de cartes" in line


@language("en")
def test_python_refusals_name_the_parameters():
    with pytest.raises(DeckstatError, match="^size must be a whole number of cards from 1 to 10,000, got 0$"):
        Deck.from_counts(0, {"Terrain": 1})
    with pytest.raises(DeckstatError, match="^groups is missing"):
        Deck.from_counts(50, {})
    with pytest.raises(DeckstatError, match="^groups asks for 60 cards"):
        Deck.from_counts(50, {"Terrain": 30, "Sort": 30})
    with pytest.raises(DeckstatError, match="got True"):
        Deck.from_counts(50, {"Terrain": True})
