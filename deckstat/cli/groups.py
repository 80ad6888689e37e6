"""The options several commands share, each family one object: a command's signature names what is particular to it.

A command declares a family as one parameter, ``simulation: Simulation = FROM_FLAGS``; :func:`expand_groups`
writes the family's options into the signature Typer reads, at that place and in the family's order, and hands the
command the object they make. A family's option is declared once here (its flag, help, default and checks are the
aliases of :mod:`deckstat.cli.options`); a command that takes only some of a family's options names them
(``family(SimulationFlags, "simulate", "trials")``).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable
from typing import Annotated, Any

from typer.models import OptionInfo

from deckstat.cli.options import (
    BottomOpt,
    BrokenOpt,
    CardsOpt,
    ChunkOpt,
    ColumnsOpt,
    DeckNameOpt,
    DeckNamesOpt,
    DrawsOpt,
    ExactOpt,
    ExcelOpt,
    Format,
    FormatOpt,
    GivenOpt,
    GoneOpt,
    GroupCountsOpt,
    HandSizeOpt,
    KeepOpt,
    KnownOpt,
    LangOpt,
    LimitOpt,
    MaxTrialsOpt,
    NoMulliganOpt,
    PlotOpt,
    PoolOpt,
    PrecisionOpt,
    PriorityOpt,
    QuickDeckArg,
    QuickGameOpt,
    ResourceOpt,
    RuleOpt,
    SeedOpt,
    SimulateOpt,
    TableOpt,
    TrialsOpt,
    WideOpt,
    WorkersOpt,
    check_plot,
    deck_and_game,
    draw,
    emit,
    known_mapping,
    method,
    rule_value,
)
from deckstat.terms import DEFAULT_CHUNK, DEFAULT_MAX_TRIALS

__all__ = ["FROM_FLAGS", "DeckFile", "DeckFileFlags", "DeckFiles", "DeckFilesFlags", "Display", "DisplayFlags",
           "FixedSimulation", "Flags", "KeepRule", "Known", "KnownFlags", "Mulligan", "MulliganFlags", "Output",
           "OutputFlags", "QuickDeck", "QuickDeckFlags", "Simulation", "SimulationFlags", "expand_groups", "family"]


class _Family:
    """What the option families share: the options a command offers, and the values of those alone."""

    #: The options of the family this command offers, in the order --help lists them (set by :func:`expand_groups`).
    offered: tuple[str, ...] = ()

    def given(self) -> dict[str, Any]:
        """The values of the options offered, by parameter name."""
        return {name: getattr(self, name) for name in self.offered}


@dataclasses.dataclass(frozen=True)
class Flags:
    """Marks a parameter as an option family, and which of its options the command offers (all when none named).

    Parameters
    ----------
    family : type
        The family's dataclass (:class:`SimulationFlags`…).
    *names : str
        The family's options the command takes, in the family's order.
    helps : dict of str to str, optional
        Help texts that replace the family's for this command, by option name (where an option means less
        here than in the family: ``deckout``'s ``--trials`` does not ask for the simulation).
    """

    family: type
    names: tuple[str, ...]
    helps: dict[str, str]

    def __init__(self, family: type, *names: str, helps: dict[str, str] | None = None) -> None:
        object.__setattr__(self, "family", family)
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "helps", dict(helps or {}))


@dataclasses.dataclass(frozen=True)
class SimulationFlags(_Family):
    """How a question is computed: the exact engine or the simulation, and the simulation's settings.

    ``--simulate``, ``--exact``, ``--trials``, ``--seed``, ``--precision``, ``--max-trials``, ``--chunk-size``,
    ``--workers``.
    """

    simulate: SimulateOpt = False
    exact: ExactOpt = False
    trials: TrialsOpt = None
    seed: SeedOpt = None
    precision: PrecisionOpt = None
    max_trials: MaxTrialsOpt = DEFAULT_MAX_TRIALS
    chunk_size: ChunkOpt = DEFAULT_CHUNK
    workers: WorkersOpt = 1

    def method(self) -> str:
        """The method the flags offered ask for (:func:`~deckstat.cli.options.method`)."""
        return method(self.simulate, self.trials, self.precision, self.exact)

    def arguments(self, **replaced: Any) -> dict[str, Any]:
        """The questions' keyword arguments of the options offered (``method=``, ``n_trials=``, ``rng=``…).

        ``replaced`` are arguments the command computes itself (``deckout`` asks for the simulation by
        ``--simulate`` alone); the method is checked first, before the other arguments are read.
        """
        arguments = {"method": replaced.pop("method") if "method" in replaced else self.method()}
        names = {"trials": "n_trials", "seed": "rng", "precision": "precision", "max_trials": "max_trials",
                 "chunk_size": "chunk_size", "workers": "n_workers"}
        arguments.update((names[name], getattr(self, name)) for name in self.offered if name in names)
        return {**arguments, **replaced}


@dataclasses.dataclass(frozen=True)
class MulliganFlags(_Family):
    """``--keep``, ``--no-mulligan``, ``--mulligan-rule``, ``--mulligan-limit``, ``--resource``, ``--priority``."""

    keep: KeepOpt = None
    no_mulligan: NoMulliganOpt = False
    mulligan_rule: RuleOpt = None
    mulligan_limit: LimitOpt = None
    resource: ResourceOpt = None
    priority: PriorityOpt = None

    @property
    def rule(self) -> str | None:
        """The ``--mulligan-rule`` asked for, by its value."""
        return rule_value(self.mulligan_rule)

    def arguments(self) -> dict[str, Any]:
        """The questions' keyword arguments of the options offered (``--no-mulligan``: ``mulligan=False``)."""
        values = self.given()
        if "no_mulligan" in values:
            values["mulligan"] = not values.pop("no_mulligan")
        if "mulligan_rule" in values:
            values["mulligan_rule"] = self.rule
        return values


@dataclasses.dataclass(frozen=True)
class KnownFlags(_Family):
    """``--known``, ``--gone``, ``--bottom``, ``--given``, ``--broken``, ``--draws``: the cards known mid-game."""

    known: KnownOpt = None
    gone: GoneOpt = None
    bottom: BottomOpt = None
    given: GivenOpt = None
    broken: BrokenOpt = None
    draws: DrawsOpt = None

    def mapping(self) -> dict | None:
        """The ``known=`` mapping of the questions, or None when no card is known (``--draws`` aside)."""
        return known_mapping(self.known, self.gone, self.bottom, self.given, self.broken)


@dataclasses.dataclass(frozen=True)
class QuickDeckFlags(_Family):
    """``DECK`` and ``--game``, or a deck given by its counts (``--cards``, ``--group``), and ``--hand-size``."""

    deck: QuickDeckArg = None
    game: QuickGameOpt = None
    cards: CardsOpt = None
    group: GroupCountsOpt = None
    hand_size: HandSizeOpt = None

    def load(self, source: DeckFileFlags):
        """The deck, its game's rules and how titles name it (:func:`~deckstat.cli.options.deck_and_game`)."""
        return deck_and_game(self.deck, self.game, pool=source.pool, cards=self.cards, groups=self.group,
                             hand_size=self.hand_size, deck_name=source.deck_name)


@dataclasses.dataclass(frozen=True)
class DeckFileFlags(_Family):
    """``--pool`` and ``--deck-name``: how a deck file is read."""

    pool: PoolOpt = None
    deck_name: DeckNameOpt = None


@dataclasses.dataclass(frozen=True)
class DeckFilesFlags(_Family):
    """``--pool`` and ``--deck-name`` (once, or once per deck) for a command that reads several decks."""

    pool: PoolOpt = None
    deck_name: DeckNamesOpt = None


@dataclasses.dataclass(frozen=True)
class OutputFlags(_Family):
    """``--format``, ``--table``, ``--plot``: what a command prints, and the figure it draws."""

    fmt: FormatOpt = Format.table
    table: TableOpt = None
    plot: PlotOpt = None

    def check_plot(self) -> None:
        """Refuse an unusable ``--plot`` file before any work (:func:`~deckstat.cli.options.check_plot`)."""
        check_plot(self.plot)

    def draw(self, function: str, result) -> None:
        """Draw ``result`` into ``--plot``, if given (:func:`~deckstat.cli.options.draw`)."""
        draw(self.plot, function, result)

    def emit(self, result, title: str, build: Callable[[], list] | None = None) -> None:
        """Print ``result`` in ``--format`` (:func:`~deckstat.cli.options.emit`)."""
        emit(result, self.fmt, self.table, title, build)


@dataclasses.dataclass(frozen=True)
class DisplayFlags(_Family):
    """``--lang``, ``--excel``, ``--wide``, ``--columns``: how everything is written.

    Their callbacks set the language and the layout as the command line is parsed; the command reads none of them.
    """

    lang: LangOpt = None
    excel: ExcelOpt = None
    wide: WideOpt = False
    columns: ColumnsOpt = None


@functools.cache
def _hints(family: type) -> dict[str, Any]:
    """The annotations of ``family``'s fields, evaluated once for all the commands that take it."""
    return typing.get_type_hints(family, include_extras=True)


def _options(marker: Flags) -> list[inspect.Parameter]:
    """The parameters of the options ``marker`` offers, as the family declares them."""
    hints = _hints(marker.family)
    fields = {field.name: field for field in dataclasses.fields(marker.family)}
    names = marker.names or tuple(fields)
    unknown = [name for name in names if name not in fields]
    if unknown:
        raise TypeError(f"{marker.family.__name__} has no option {unknown[0]!r}")
    if list(names) != [name for name in fields if name in names]:
        raise TypeError(f"{marker.family.__name__}: name its options in its order ({', '.join(fields)})")
    unknown = [name for name in marker.helps if name not in names]
    if unknown:
        raise TypeError(f"{marker.family.__name__}: a help for {unknown[0]!r}, an option not offered")
    return [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=fields[name].default,
                              annotation=_with_help(hints[name], marker.helps.get(name))) for name in names]


def _with_help(annotation: Any, text: str | None) -> Any:
    """``annotation`` (``Annotated[type, typer.Option(...)]``) with the option's help replaced by ``text``, if any."""
    if text is None:
        return annotation
    extras = [copy.copy(extra) if isinstance(extra, OptionInfo) else extra for extra in annotation.__metadata__]
    for extra in extras:
        if isinstance(extra, OptionInfo):
            extra.help = text
    return Annotated[(annotation.__origin__, *extras)]


def _marker(annotation: object) -> Flags | None:
    """The :class:`Flags` an ``Annotated[Family, Flags(...)]`` annotation carries, if any."""
    if typing.get_origin(annotation) is not Annotated:
        return None
    return next((extra for extra in annotation.__metadata__ if isinstance(extra, Flags)), None)


def expand_groups(command: Callable[..., Any]) -> Callable[..., Any]:
    """Write the option families a command takes into the signature Typer reads; call it with one object each.

    A parameter annotated ``Annotated[Family, Flags(Family, …)]`` becomes the family's options (the ones named, or
    all), in its place; the command is called with the family's object built from them, whose ``offered`` names
    them. Every other parameter stays as it is. The signature is written when Typer first reads it: a command
    line builds one command (:func:`deckstat.cli.commands.command_line`), and evaluating every command's
    annotations at import cost a tenth of what ``deckstat games`` takes.
    """
    return _Expanded(command)


class _Expanded:
    """A command whose option families become options in its signature (see :func:`expand_groups`)."""

    def __init__(self, command: Callable[..., Any]) -> None:
        functools.update_wrapper(self, command, assigned=("__module__", "__name__", "__qualname__", "__doc__"))
        del self.__wrapped__  # Typer reads the signature below, not the command's
        self._command = command
        self._expanded: tuple[inspect.Signature, dict[str, tuple[type, tuple[str, ...]]]] | None = None

    def _expand(self) -> tuple[inspect.Signature, dict[str, tuple[type, tuple[str, ...]]]]:
        if self._expanded is None:
            command = self._command
            signature = inspect.signature(command, eval_str=True)
            parameters: list[inspect.Parameter] = []
            families: dict[str, tuple[type, tuple[str, ...]]] = {}
            for parameter in signature.parameters.values():
                marker = _marker(parameter.annotation)
                if marker is None:
                    parameters.append(parameter)
                    continue
                options = _options(marker)
                families[parameter.name] = (marker.family, tuple(option.name for option in options))
                parameters += options
            seen = [parameter.name for parameter in parameters]
            clash = next((name for name in seen if seen.count(name) > 1), None)
            if clash is not None:
                raise TypeError(f"{command.__name__}: the option {clash!r} is declared twice")
            self._expanded = signature.replace(parameters=parameters), families
        return self._expanded

    @property
    def __signature__(self) -> inspect.Signature:
        return self._expand()[0]

    @property
    def __annotations__(self) -> dict[str, Any]:
        return {parameter.name: parameter.annotation for parameter in self.__signature__.parameters.values()
                if parameter.annotation is not inspect.Parameter.empty}

    def __call__(self, **values: Any) -> Any:
        for name, (family, offered) in self._expand()[1].items():
            made = family(**{option: values.pop(option) for option in offered})
            object.__setattr__(made, "offered", offered)
            values[name] = made
        return self._command(**values)


def family(flags: type, *names: str, helps: dict[str, str] | None = None) -> Any:
    """The annotation of a command's parameter that takes the family ``flags``: its options ``names``, or all.

    ``helps`` replaces the help of some of them for the commands that take this annotation (see :class:`Flags`).
    """
    return Annotated[flags, Flags(flags, *names, helps=helps)]


#: The default of a family's parameter, which the command line always gives.
FROM_FLAGS: Any = None

#: The families, with all their options: ``simulation: Simulation = FROM_FLAGS``.
Simulation = family(SimulationFlags)
Mulligan = family(MulliganFlags)
Known = family(KnownFlags)
QuickDeck = family(QuickDeckFlags)
DeckFile = family(DeckFileFlags)
DeckFiles = family(DeckFilesFlags)
Output = family(OutputFlags)
Display = family(DisplayFlags)
#: A simulation of a fixed number of trials (no --precision, so no --max-trials).
FixedSimulation = family(SimulationFlags, "simulate", "exact", "trials", "seed", "chunk_size", "workers",
                         helps={"simulate": "Use the Monte Carlo kernel even where the exact engine applies "
                                            "(--trials implies it)."})
#: The keep rule and --no-mulligan alone, for the questions that take no other mulligan option.
KeepRule = family(MulliganFlags, "keep", "no_mulligan")
