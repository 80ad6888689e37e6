"""The option families of the command line (``deckstat.cli.groups``): declared once, written into each command.

A small Typer app built here takes families the way the commands do; the real commands are checked for what the
families must not change: the options each offers, the modes of ``mulligan``, ``deckout``'s reading of --trials.
"""

from __future__ import annotations

import inspect
import json

import pytest
import typer
from helpers import assert_user_error, ok, run, sample_deck
from typer.testing import CliRunner

from deckstat.cli.commands import app
from deckstat.cli.groups import (
    FROM_FLAGS,
    FixedSimulation,
    KeepRule,
    Known,
    Mulligan,
    MulliganFlags,
    Simulation,
    SimulationFlags,
    expand_groups,
    family,
)
from deckstat.cli.options import EventsOpt, Format, TrialsOpt, method
from deckstat.terms import DEFAULT_CHUNK, DEFAULT_MAX_TRIALS

WANKUL = sample_deck("wankul")
DUEL = sample_deck("duel-masters")

_seen: dict[str, object] = {}


def _probe(**families) -> typer.Typer:
    """An app of one command that takes ``--event`` and ``families``, and keeps the objects it is called with."""
    parameters = [inspect.Parameter("event", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=EventsOpt)]
    parameters += [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=FROM_FLAGS,
                                     annotation=annotation) for name, annotation in families.items()]

    def command(**values) -> None:
        _seen.clear()
        _seen.update(values)

    # The signature a command writes by hand (``simulation: Simulation = FROM_FLAGS``), for the families asked.
    command.__signature__ = inspect.Signature(parameters)
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    probe = typer.Typer(add_completion=False)
    probe.command()(expand_groups(command))
    return probe


def _invoke(probe: typer.Typer, *args: str):
    return CliRunner().invoke(probe, ["-e", "A>=1", *args])


def _option_names(command) -> list[str]:
    return [parameter.opts[0] for parameter in command.params]


def test_a_family_is_written_in_place_in_its_order():
    probe = _probe(rules=KeepRule, simulation=FixedSimulation, cards_known=Known)
    command = typer.main.get_command(probe)
    assert _option_names(command) == [
        "--event", "--keep", "--no-mulligan", "--simulate", "--exact", "--trials", "--seed", "--chunk-size",
        "--workers", "--known", "--gone", "--bottom", "--given", "--broken", "--draws"]


def test_the_command_gets_one_object_per_family_with_the_values_given():
    probe = _probe(simulation=FixedSimulation, rules=Mulligan)
    result = _invoke(probe, "--trials", "1e3", "--seed", "5", "--no-mulligan", "--mulligan-rule", "london",
                     "--keep", "A>=2")
    assert result.exit_code == 0, result.output
    simulation, rules = _seen["simulation"], _seen["rules"]
    assert isinstance(simulation, SimulationFlags) and isinstance(rules, MulliganFlags)
    # --trials goes through its parser (1e3), the options left out keep the family's defaults.
    assert (simulation.trials, simulation.seed, simulation.chunk_size, simulation.precision) == (1000, 5,
                                                                                                DEFAULT_CHUNK, None)
    assert simulation.offered == ("simulate", "exact", "trials", "seed", "chunk_size", "workers")
    # The questions' keyword arguments of the options offered alone: no precision= or max_trials= here.
    assert simulation.arguments() == {"method": "simulate", "n_trials": 1000, "rng": 5, "chunk_size": DEFAULT_CHUNK,
                                      "n_workers": 1}
    assert rules.arguments() == {"keep": "A>=2", "mulligan": False, "mulligan_rule": "london",
                                 "mulligan_limit": None, "resource": None, "priority": None}


def test_every_option_of_a_full_family_reaches_the_question():
    probe = _probe(simulation=Simulation)
    result = _invoke(probe, "--precision", "0.01", "--max-trials", "2e6", "--chunk-size", "1000")
    assert result.exit_code == 0, result.output
    assert _seen["simulation"].arguments() == {"method": "simulate", "n_trials": None, "rng": None,
                                               "precision": 0.01, "max_trials": 2_000_000, "chunk_size": 1000,
                                               "n_workers": 1}
    # Nothing given: the defaults the commands had, and the method left to the question.
    assert _invoke(probe).exit_code == 0
    assert _seen["simulation"].arguments() == {"method": "auto", "n_trials": None, "rng": None, "precision": None,
                                               "max_trials": DEFAULT_MAX_TRIALS, "chunk_size": DEFAULT_CHUNK,
                                               "n_workers": 1}


def test_a_method_the_command_computes_itself_replaces_the_flags_one():
    probe = _probe(simulation=family(SimulationFlags, "simulate", "trials"))
    assert _invoke(probe, "--trials", "500").exit_code == 0
    simulation = _seen["simulation"]
    assert simulation.arguments()["method"] == "simulate"
    assert simulation.arguments(method=method(simulation.simulate)) == {"method": "auto", "n_trials": 500}


def test_options_a_command_does_not_offer_are_refused_by_the_command_line():
    probe = _probe(simulation=FixedSimulation)
    result = _invoke(probe, "--precision", "0.01")
    assert result.exit_code == 2
    assert "--precision" in result.output


@pytest.mark.parametrize("annotation, message", [
    (family(SimulationFlags, "trials", "simulate"), "in its order"),
    (family(SimulationFlags, "simulate", "trails"), "no option 'trails'"),
    (family(SimulationFlags, "simulate", helps={"trials": "Trials."}), "a help for 'trials', an option not offered"),
])
def test_a_family_named_wrongly_is_refused_when_the_command_is_built(annotation, message):
    # Built when a command line names it (or --help lists it whole); the suite builds every command of the app.
    probe = _probe(simulation=annotation)
    with pytest.raises(TypeError, match=message):
        typer.main.get_command(probe)


def _help_of(probe: typer.Typer, option: str) -> str:
    command = typer.main.get_command(probe)
    return next(parameter.help for parameter in command.params if parameter.opts[0] == option)


def test_a_help_replaced_for_one_command_leaves_the_familys_own_alone():
    replaced = _probe(simulation=family(SimulationFlags, "simulate", "trials", helps={"simulate": "Only here."}))
    assert _help_of(replaced, "--simulate") == "Only here."
    assert _help_of(replaced, "--trials") == _help_of(_probe(simulation=Simulation), "--trials")
    assert _help_of(_probe(simulation=Simulation), "--simulate") != "Only here."
    # The option itself is unchanged: its flag, its default and what the command receives.
    assert _invoke(replaced, "--simulate").exit_code == 0 and _seen["simulation"].simulate is True


def test_an_option_declared_twice_is_refused_when_the_command_is_built():
    def command(trials: TrialsOpt = None, simulation: Simulation = FROM_FLAGS) -> None:
        """Takes --trials twice."""

    expanded = expand_groups(command)
    with pytest.raises(TypeError, match="'trials' is declared twice"):
        inspect.signature(expanded)


def test_every_command_of_the_app_builds_whole():
    # The families are expanded when a command is built: every command, built once here, names its options rightly.
    group = typer.main.get_command(app)
    for name in group.list_commands(None):
        command = group.get_command(None, name)
        assert command.params or isinstance(command, typer.core.TyperGroup), name


def _command(name: str):
    group = typer.main.get_command(app)
    return group.get_command(None, name)


@pytest.mark.parametrize("name, offered, refused", [
    ("odds", ["--precision", "--max-trials", "--known", "--resource", "--cards"], []),
    ("when", ["--precision", "--resource", "--priority", "--cards"], ["--known", "--zone"]),
    ("curve", ["--precision", "--keep", "--no-mulligan"], ["--mulligan-rule", "--cards"]),
    ("mulligan", ["--exact", "--mulligan-rule", "--priority", "--cards"], ["--precision", "--no-mulligan"]),
    ("deckout", ["--simulate", "--trials", "--no-mulligan"], ["--exact", "--precision", "--mulligan-rule"]),
    ("ratio", ["--exact", "--keep"], ["--precision", "--mulligan-rule", "--known"]),
    ("compare", ["--exact", "--known", "--priority"], ["--precision", "--resource", "--cards"]),
    ("validate", ["--pool", "--deck-name", "--format", "--table", "--excel"], ["--plot", "--quiet"]),
    ("report", ["--pool", "--deck-name", "--lang"], ["--format", "--excel"]),
])
def test_each_command_offers_the_options_it_had(name, offered, refused):
    options = {opt for parameter in _command(name).params for opt in parameter.opts}
    assert set(offered) <= options
    assert not set(refused) & options


def test_a_deck_file_family_reads_one_or_several_deck_names():
    # compare and deckout read several decks: --deck-name may be repeated; the others take it once.
    assert next(p for p in _command("compare").params if p.name == "deck_name").multiple
    assert next(p for p in _command("deckout").params if p.name == "deck_name").multiple
    assert not next(p for p in _command("odds").params if p.name == "deck_name").multiple


def test_the_output_family_keeps_its_default_format():
    fmt = next(p for p in _command("when").params if p.name == "fmt")
    assert fmt.default in (Format.table, "table")


@pytest.mark.parametrize("args, needles", [
    (["--hand", "Terrain=1, other=4", "--by-turn", 2, "--seed", 3], ["does not apply to --hand"]),
    (["--hand", "Terrain=1, other=4", "--by-turn", 2, "--plot", "hand.png"], ["--plot does not apply to --hand"]),
    (["--hand", "Terrain=1, other=4", "--by-turn", 2, "-e", "Terrain>=1", "-e", "Terrain>=2"],
     ["--hand answers for one --event at a time, got 2"]),
    (["--hand", "Terrain=1, other=4"], ["--hand needs --by-turn"]),
    # London puts back the cards that leave the best odds; a priority would be silently ignored.
    (["--hand", "Terrain=1, other=4", "--by-turn", 2, "--mulligan-rule", "london", "--priority", "Terrain"],
     ["--priority does not apply to --hand"]),
    (["--best", "--by-turn", 2, "--mulligan-rule", "london", "--priority", "Terrain"],
     ["--priority does not apply to --best"]),
])
def test_mulligan_hand_mode_checks_its_own_flags(args, needles):
    assert_user_error(run("mulligan", WANKUL, "--game", "wankul", *args), *needles)


def test_mulligan_modes_answer_their_own_question():
    common = ("mulligan", WANKUL, "--game", "wankul", "-e", "Terrain>=2", "--format", "json")
    hand = json.loads(ok(run(*common, "--hand", "Terrain=1, other=4", "--by-turn", 2)))
    best = json.loads(ok(run(*common, "--best", "--by-turn", 2)))
    odds = json.loads(ok(run(*common)))
    assert hand["question"] == "hand_advice"
    assert best["question"] == "keep_policy"
    assert odds["question"] == "mulligan"


def test_deckout_trials_alone_leaves_the_method_to_the_question():
    # Duel Masters' deck-out without effects is exact: --trials does not ask for the simulation, --simulate does.
    common = ("deckout", DUEL, "--game", "duel-masters", "--format", "json")
    plain = json.loads(ok(run(*common)))
    with_trials = json.loads(ok(run(*common, "--trials", 2000)))
    simulated = json.loads(ok(run(*common, "--simulate", "--trials", 2000, "--seed", 1)))
    assert with_trials == plain
    assert {row["method"] for row in plain["summary"]} == {"exact"}
    assert {row["method"] for row in simulated["summary"]} == {"simulate"}
