"""Batch specs: read a TOML file (or a dict), check everything, expand it into tasks.

A spec names decks (``[decks.<label>]``, a glob giving one deck per file)
and questions (``[[questions]]``) whose keys are the Python API's parameter
names; ``[questions.sweep]`` lists values to try, and the tasks are every
deck of the question times every combination of swept values. See
``docs/batch.md``.

A spec that cannot run starts nothing: :func:`load_spec` checks the keys,
the types, the values (with the questions' own checks), the files, the
events and, for every task, that the deck loads and its groups exist, and
raises one :class:`SpecError` naming the file, the line and the key.
"""

from __future__ import annotations

import dataclasses
import glob
import hashlib
import inspect
import itertools
import json
import math
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from deckstat._input import read_input_bytes
from deckstat._validate import (
    check_choice,
    check_events,
    check_half_width,
    check_probability,
    check_seats,
    check_whole,
    is_whole,
    parse_count,
    parse_ranges,
)
from deckstat.batching.tasks import (
    QUESTIONS,
    SEED_BOUND,
    SPEC_NAMES,
    UNPLANNED_PARAMETERS,
    DeckSource,
    Task,
    api_arguments,
    api_parameters,
    cached_deck,
    cached_profile,
    counted_row,
    process_setups,
    result_tables,
    unkept_tables,
)
from deckstat.deck import MAX_COPIES
from deckstat.engines.runner import check_trials
from deckstat.errors import _MARK, DeckstatError, ExpressionError
from deckstat.events import expression_source, parse_event, parse_group
from deckstat.games.profiles import get_profile
from deckstat.i18n import N_, tr
from deckstat.i18n import number as written_number
from deckstat.knowledge import BROKEN_WORDS, fold_key, looks_like_file, zone_of
from deckstat.parsing import kind_name, split_top_level, unknown_key, wrong_kind
from deckstat.questions._estimate import Simulation
from deckstat.questions._setup import check_card_types, shared_setups
from deckstat.questions.compare import plan_compare
from deckstat.questions.curve import plan_curve
from deckstat.questions.deckout import plan_deckout
from deckstat.questions.mulligan import plan_mulligan
from deckstat.questions.odds import plan_odds
from deckstat.questions.ratio import plan_ratio
from deckstat.questions.sensitivity import Objective, plan_sensitivity
from deckstat.questions.when import plan_when
from deckstat.terms import (
    DROUGHT_ORDERS,
    METHODS,
    MOST_BATCH_TASKS,
    MOST_SPEC_BYTES,
    MOST_TURN,
    MULLIGAN_RULES,
    POLICIES,
)
from deckstat.text import is_file, suggest

#: Top-level keys of a spec; the last four are defaults for every question that takes them.
TOP_KEYS = ("name", "seed", "game", "decks", "questions", "method", "trials", "precision", "max_trials")
DEFAULT_KEYS = ("method", "trials", "precision", "max_trials")
DECK_KEYS = ("path", "game", "pool", "deck_name", "counts")
#: Keys of a question that are not parameters of its function.
QUESTION_KEYS = ("question", "decks", "sweep", "table", "seed")
#: Largest seed a spec may give: 11 digits, as the seeds derived for tasks (see ``tasks.SEED_BOUND``).
MAX_SEED = SEED_BOUND - 1
#: How parameter names read in messages about a spec (the Python API's names, spelled as the spec spells them).
SPEC_WORDS = {"n_trials": "trials", "rng": "seed", "method='simulate'": "method = \"simulate\"",
              "method='exact'": "method = \"exact\"", "mulligan=False": "mulligan = false",
              "allow_absent=True": "allow_absent = true", "allow_absent": "allow_absent", "decks": "decks"}


class SpecError(DeckstatError):
    """A batch spec that cannot run: ``<file>:<line>: <key path>: <problem>; <expected>``.

    Parameters
    ----------
    message : str
        What is wrong and what was expected.
    source : str, optional
        The spec file (None for a spec given as a dict).
    line : int, optional
        The line of the key in the file.
    key : str, optional
        The key path, e.g. ``questions[2].sweep.seat``.
    """

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 key: str | None = None, column: str | int | None = None):
        self.key = key
        super().__init__(message, source=source, line=line, column=column)

    def _located(self) -> str:
        text = tr("{place}: {message}", place=self.key, message=self.message) if self.key else self.message
        if self.source:
            place = f"{self.source}:{self.line}" if self.line is not None else self.source
            text = tr("{place}: {message}", place=place, message=text)
        return text


@dataclass(frozen=True)
class Spec:
    """A checked batch spec, expanded into tasks.

    Attributes
    ----------
    name : str
        The spec's ``name``, else the file's stem, else ``"batch"``.
    source : Path or None
        The TOML file (None for a dict).
    seed : int or None
        The spec's ``seed``; None lets the runner draw one (and record it).
    tasks : tuple of Task
        In spec order: questions in order, each deck in order, then the sweep's
        combinations in the order written.
    digest : str
        SHA-256 (hex) of the canonical parsed spec and of the bytes of every
        deck, pool, profile and known-cards file it uses.
    inputs : tuple of (str, str)
        Those files, by absolute path, with the SHA-256 of each; every task
        carries those it reads (:attr:`Task.inputs`).
    """

    name: str
    source: Path | None
    seed: int | None
    tasks: tuple[Task, ...]
    digest: str
    canonical: str = field(default="{}", repr=False)
    #: Every file the spec uses (absolute path) with the SHA-256 of its bytes.
    inputs: tuple[tuple[str, str], ...] = ()

    @property
    def spec_digest(self) -> str:
        """SHA-256 (hex) of the canonical parsed spec alone: what the tasks ask, whatever the files hold."""
        return hashlib.sha256(self.canonical.encode("utf-8")).hexdigest()

    def to_dict(self) -> dict:
        """The canonical parsed spec, JSON-ready (recorded with the results)."""
        return json.loads(self.canonical)


# --- where each key is written -------------------------------------------------------------------------------

_KEY = r'(?:[A-Za-z0-9_-]+|"[^"]*"|\'[^\']*\')'
_DOTTED = re.compile(rf"\s*({_KEY}(?:\s*\.\s*{_KEY})*)\s*")
_HEADER = re.compile(rf"^\s*(\[\[?)\s*({_KEY}(?:\s*\.\s*{_KEY})*)\s*\]\]?")


def _split_key(text: str) -> list[str]:
    parts = re.findall(_KEY, text)
    return [p[1:-1] if p[:1] in "\"'" else p for p in parts]


def _strip_strings(line: str) -> str:
    """The line with string contents blanked and any comment removed (for bracket counting)."""
    out, quote, i = [], None, 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 2
                continue
            if ch == quote:
                quote = None
            out.append(" " if ch != quote else ch)
        elif ch in "\"'":
            quote = ch
            out.append(ch)
        elif ch == "#":
            break
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def key_lines(text: str) -> dict[str, int]:
    """Map each key path of a TOML text to the 1-based line it is written on.

    Table headers (``[a.b]``), arrays of tables (``[[questions]]``, numbered
    ``questions[0]``, ``questions[1]``…), dotted keys and one-line inline
    tables are followed; keys inside multi-line arrays or strings are not
    mistaken for keys.

    Examples
    --------
    >>> text = "seed = 1|[[questions]]|question = 'odds'|[questions.sweep]|seat = []".replace("|", chr(10))
    >>> key_lines(text)["questions[0].sweep.seat"], key_lines(text)["questions[0].question"]
    (5, 3)
    """
    lines: dict[str, int] = {}
    counts: dict[str, int] = {}
    prefix = ""
    depth = 0
    in_multiline: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        if in_multiline:
            if in_multiline in raw:
                in_multiline = None
            continue
        line = raw
        for quote in ('"""', "'''"):
            if line.count(quote) % 2 == 1:
                in_multiline = quote
        if depth == 0:
            header = _HEADER.match(line)
            if header:
                parts = _split_key(header.group(2))
                prefix = _table_path(parts, counts, array=header.group(1) == "[[")
                lines.setdefault(prefix.rsplit("[", 1)[0] if header.group(1) == "[[" else prefix, number)
                lines.setdefault(prefix, number)
                continue
            if "=" in line:
                key_text, _, value = line.partition("=")
                if _DOTTED.fullmatch(key_text):
                    path = ".".join(filter(None, [prefix, ".".join(_split_key(key_text))]))
                    lines.setdefault(path, number)
                    _inline_keys(path, value, number, lines)
        stripped = _strip_strings(line)
        depth = max(0, depth + stripped.count("[") + stripped.count("{") - stripped.count("]") - stripped.count("}"))
    return lines


def _table_path(parts: list[str], counts: dict[str, int], *, array: bool) -> str:
    """The key path of a table header, with the index of each array of tables it is under."""
    path = ""
    for i, part in enumerate(parts):
        path = f"{path}.{part}" if path else part
        last = i == len(parts) - 1
        if array and last:
            index = counts.get(path, -1) + 1
            counts[path] = index
            # A new element resets the numbering of the arrays below it.
            for key in [k for k in counts if k.startswith(path + "[")]:
                del counts[key]
            path = f"{path}[{index}]"
        elif path in counts:
            path = f"{path}[{counts[path]}]"
    return path


def _inline_keys(path: str, value: str, number: int, lines: dict[str, int]) -> None:
    """Record the keys of an inline table written on one line (``sweep = { seat = [...] }``)."""
    text = _strip_strings(value).strip()
    if not text.startswith("{"):
        return
    # Keys at the first level of the inline table: each top-level item up to its '=' (strings are blanked, so
    # quotes need no care; the table's own closing brace is a stray closer, which the splitter ignores).
    for item in split_top_level(text[1:], ",", brackets="[]{}", quotes=""):
        key, equals, _ = item.text.partition("=")
        key = key.strip()
        if equals and key and _DOTTED.fullmatch(key):
            lines.setdefault(f"{path}.{'.'.join(_split_key(key))}", number)


# --- the parse ------------------------------------------------------------------------------------------------

class _Where:
    """Turns problems into :class:`SpecError` located at a key's line."""

    def __init__(self, source: str | None, lines: dict[str, int]):
        self.source = source
        self.lines = lines

    def line(self, key: str) -> int | None:
        path = key
        while path:
            if path in self.lines:
                return self.lines[path]
            trimmed = re.sub(r"(\[\d+\]|\.[^.\[]+)$", "", path)
            if trimmed == path:
                break
            path = trimmed
        return None

    def error(self, key: str, message: str) -> SpecError:
        return SpecError(message, source=self.source, line=self.line(key), key=key)

    def wrap(self, key: str, exc: DeckstatError) -> SpecError:
        """A question's or loader's error, said about ``key`` with the spec's parameter names."""
        return self.error(key, exc.render(SPEC_WORDS))


def _keys(where: _Where, key: str, table: object, allowed: tuple[str, ...] | list[str]) -> dict:
    if not isinstance(table, Mapping):
        raise where.error(key, wrong_kind(table, tr("a table")))
    found = unknown_key(table, allowed)
    if found is not None:
        name, message = found
        raise where.error(f"{key}.{name}" if key else name, message)
    return dict(table)


def _text(where: _Where, key: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise where.error(key, wrong_kind(value, tr("a non-empty text")))
    return value


def _checked(where: _Where, key: str, check: Callable[[], object]) -> object:
    try:
        return check()
    except DeckstatError as exc:
        raise where.wrap(key, exc) from None


# Each parameter's check: the value as the spec writes it → the canonical value (JSON-ready, lists as tuples).

def _range_value(name: str, example: str, limit: int, noun: str) -> Callable[[object], tuple[int, ...]]:
    def check(value: object) -> tuple[int, ...]:
        if isinstance(value, str):
            values = parse_ranges(value, option=name, noun=noun, example=example, limit=limit)
        elif is_whole(value):
            values = [check_whole(value, name)]
        elif isinstance(value, list) and value:
            values = [check_whole(v, name) for v in value]
        else:
            raise DeckstatError(tr("{name} must be a range such as {example!r}, a whole number or a list of them, "
                                   "got {value!r}", name=name, example=example, value=value))
        return tuple(sorted(set(values)))
    return check


def _events(name: str) -> Callable[[object], tuple[str, ...]]:
    def check(value: object) -> tuple[str, ...]:
        if isinstance(value, list) and not value:
            raise DeckstatError(tr("{name} is empty; give at least one event such as Terrain>=1", name=name))
        texts = check_events(value, name)
        for text in texts:
            parse_event(text)
        return tuple(texts)
    return check


def _texts(name: str) -> Callable[[object], tuple[str, ...]]:
    def check(value: object) -> tuple[str, ...]:
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not items or not all(isinstance(v, str) and v.strip() for v in items):
            raise DeckstatError(tr("{name} must be a text or a list of texts, got {value!r}", name=name, value=value))
        return tuple(items)
    return check


def _one_event(name: str) -> Callable[[object], str]:
    """One event, for a question that asks about one (sensitivity: more are its ``objectives``)."""
    def check(value: object) -> str:
        if isinstance(value, list):
            raise DeckstatError(tr("{name} is one event here; give the others as objectives, e.g. objectives = "
                                   "[\"odds: Terrain>=2 @ 3\"], got {value!r}", name=name, value=value))
        return _string(name, parse_event)(value)
    return check


def _groups(value: object) -> tuple[str, ...]:
    """Group expressions (curve's ``groups``), each read as the question reads it: one text or a list of them."""
    texts = _texts("groups")(value)
    for text in texts:
        parse_group(text, what="group")
    return texts


def _objective_texts(value: object) -> tuple[str, ...]:
    """Objectives ``[WEIGHT *] KIND: TARGET @ TURN``, each read as :func:`deckstat.sensitivity` reads it."""
    texts = _texts("objectives")(value)
    for text in texts:
        Objective.parse(text)
    return texts


def _boolean(name: str) -> Callable[[object], bool]:
    def check(value: object) -> bool:
        if not isinstance(value, bool):
            raise DeckstatError(tr("{name} must be true or false, got {value!r}", name=name, value=value))
        return value
    return check


def _string(name: str, parse: Callable[[str], object] | None = None) -> Callable[[object], str]:
    def check(value: object) -> str:
        if not isinstance(value, str) or not value.strip():
            raise DeckstatError(tr("{name} must be a text, got {value!r}", name=name, value=value))
        if parse is not None:
            parse(value)
        return value
    return check


def _terrain_turns(value: object) -> int | str:
    if isinstance(value, str) and value.strip().lower() in ("never", "jamais"):
        return "never"
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    return check_whole(value, "terrain_turns", minimum=1, maximum=MAX_COPIES) if not isinstance(value, str) \
        else value


def _seat(value: object) -> str:
    check_seats(value)
    return str(value)


def _seed(value: object) -> int:
    seed = check_whole(value, "seed")
    if seed > MAX_SEED:
        raise DeckstatError(tr("seed {value} has {digits} digits; a batch's seeds have at most {most}, so that a "
                               "spreadsheet keeps them whole (it keeps 15 digits and shows 11): give a smaller seed",
                               value=seed, digits=len(str(seed)), most=len(str(MAX_SEED))))
    return seed


def _number(name: str, check: Callable[[object, str], float]) -> Callable[[object], float]:
    return lambda value: check(value, name)


PARAMETER_CHECKS: dict[str, Callable[[object], object]] = {
    "event": _events("event"),
    "turns": _range_value("turns", "0-6", 1000, "turn"),
    "counts": _range_value("counts", "8-14", 100_000, "count"),
    "ratio_counts": _range_value("ratio_counts", "8-14", 100_000, "count"),
    "seat": _seat,
    "zone": _string("zone"),
    "keep": _string("keep", lambda text: parse_event(text, what="keep rule")),
    "resource": _string("resource", lambda text: parse_group(text, what="resource group")),
    "group": _string("group", lambda text: parse_group(text, what="group")),
    "filler": _texts("filler"),
    "cards": _texts("cards"),
    "groups": _groups,
    "curve_target": _string("curve_target"),
    "objectives": _objective_texts,
    "mulligan": _boolean("mulligan"),
    "allow_absent": _boolean("allow_absent"),
    "drought": _boolean("drought"),
    "paired": _boolean("paired"),
    "with_deckout": _boolean("with_deckout"),
    "mulligan_rule": lambda value: check_choice(value, "mulligan_rule", MULLIGAN_RULES),
    "method": lambda value: check_choice(value, "method", METHODS),
    "policy": lambda value: check_choice(value, "policy", tuple(POLICIES)),
    "drought_order": lambda value: check_choice(value, "drought_order", tuple(DROUGHT_ORDERS)),
    "mulligan_limit": lambda value: check_whole(value, "mulligan_limit", minimum=1),
    "max_turn": lambda value: check_whole(value, "max_turn", maximum=MOST_TURN),
    "target_turn": lambda value: check_whole(value, "target_turn", maximum=MOST_TURN),
    "by_turn": lambda value: check_whole(value, "by_turn", maximum=MOST_TURN),
    "flood": lambda value: check_whole(value, "flood", minimum=1),
    # Bounded here as the questions bound them, so that 1e18 trials stop the spec, not its task at run time.
    "trials": lambda value: check_trials(parse_count(value, "trials", minimum=1), "trials"),
    "max_trials": lambda value: check_trials(parse_count(value, "max_trials", minimum=1), "max_trials"),
    "precision": _number("precision", check_half_width),
    "target": _number("target", check_probability),
    "terrain_turns": _terrain_turns,
    "seed": lambda value: _seed(value),
}
#: Checks of a parameter that one question reads differently from the others, by (question, parameter).
QUESTION_CHECKS: dict[tuple[str, str], Callable[[object], object]] = {
    ("sensitivity", "event"): _one_event("event"),
    # A policy of the game's play model (which the plan checks), not one of deckout's.
    ("curve", "policy"): _string("policy"),
}


def _json_value(value: object) -> object:
    """A value of a parameter no check knows (one a question gained later), as JSON-ready data."""
    if isinstance(value, list):
        return tuple(_json_value(v) for v in value)
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    raise DeckstatError(tr("expected a text, a number, true/false or a list, got {kind}", kind=kind_name(value)))


@dataclass(frozen=True)
class _Deck:
    """A ``[decks.<name>]`` table, resolved."""

    name: str
    sources: tuple[DeckSource, ...]
    game: str
    written: dict


class _Parser:
    def __init__(self, data: Mapping, source: Path | None, text: str | None, base_dir: Path):
        self.data = data
        self.source = source
        self.base_dir = base_dir
        self.where = _Where(str(source) if source is not None else None, key_lines(text) if text else {})
        self.files: dict[str, Path] = {}
        #: Files the spec names that lie outside its folder, with the path as written.
        self.outside: dict[Path, str] = {}
        #: Tasks the questions read so far ask for, counted before any is made.
        self.task_count = 0
        # The preflight's shared work: tasks that differ only in what its checks do not read (seed, trials,
        # table…) are checked once, and the set-ups of a deck's events are compiled once for every task.
        self._checked: set[str] = set()
        self._card_types: set[tuple] = set()

    # Decks and games.

    def path(self, key: str, text: str) -> Path:
        """The file ``text`` names, from the spec's folder; a NUL in it is refused, as no file name holds one."""
        if "\0" in text:
            raise self.where.error(key, tr("the file name holds a NUL character, which no file name can"))
        return self.note_place((self.base_dir / text).resolve(), text)

    def note_place(self, path: Path, written: str) -> Path:
        """Remember where ``path`` (resolved, links followed) lies: in the spec's folder, or outside it."""
        if not path.is_relative_to(self.base_dir):
            self.outside[path] = written
        return path

    def load(self, key: str, path: Path, kind: str, load: Callable[[], object]) -> object:
        """``load()`` a file the spec names; an error about a file outside the spec's folder says only where it is.

        A path that leads out of the spec's folder (absolute, ``../``, a link) may
        reach any file of the machine, and what a loader quotes of a file that
        is no card file (its first line…) would show it. Such a file's error
        names the path as written, where it leads and what kind of file was
        expected, never the loader's words about its content.
        """
        try:
            return load()
        except DeckstatError as exc:
            if path not in self.outside:
                raise self.where.wrap(key, exc) from None
            raise self.where.error(key, tr("{file!r} leads outside the spec's folder, to {path}, which is not {kind} "
                                           "deckstat can read ({problem}); 'deckstat validate' on the file says more",
                                           file=self.outside[path], path=path, kind=tr(kind),
                                           problem=_problem_place(exc))) from None

    def game(self, key: str, value: object) -> str:
        text = _text(self.where, key, value)
        if text.lower().endswith(".toml") or "/" in text or os.sep in text:
            path = self.path(key, text)
            if not is_file(path):
                raise self.where.error(key, tr("profile file {file!r} not found (looked for {path})", file=text,
                                               path=path))
            self.load(key, path, _PROFILE_KIND, lambda: cached_profile(str(path)))
            self.files[f"profile:{text}"] = path
            return str(path)
        return _checked(self.where, key, lambda: get_profile(text)).id

    def decks(self, default_game: str | None) -> dict[str, _Deck]:
        table = self.data.get("decks")
        if table is None:
            raise self.where.error("decks", tr("the spec names no deck; add a [decks.<name>] table with a path"))
        if not isinstance(table, Mapping) or not table:
            raise self.where.error("decks", tr("expected [decks.<name>] tables, each with a path"))
        decks: dict[str, _Deck] = {}
        labels: dict[str, str] = {}
        for name, entry in table.items():
            key = f"decks.{name}"
            if isinstance(entry, str):
                entry = {"path": entry}
            entry = _keys(self.where, key, entry, DECK_KEYS)
            if "path" not in entry:
                raise self.where.error(key, tr("no path; expected path = \"<card CSV or decklist>\""))
            written = _text(self.where, f"{key}.path", entry["path"])
            if "game" in entry:
                game = self.game(f"{key}.game", entry["game"])
            elif default_game is not None:
                game = default_game
            else:
                raise self.where.error(key, tr("no game; give game = \"wankul\" (or another profile id) here or at "
                                               "the top of the spec"))
            pool = None
            if "pool" in entry:
                pool_text = _text(self.where, f"{key}.pool", entry["pool"])
                pool = self.path(f"{key}.pool", pool_text)
                if not is_file(pool):
                    raise self.where.error(f"{key}.pool", tr("card pool {file!r} not found (looked for {path})",
                                                             file=pool_text, path=pool))
                self.files[f"pool:{pool_text}"] = pool
            deck_name = _text(self.where, f"{key}.deck_name", entry["deck_name"]) if "deck_name" in entry else None
            sources = self.deck_files(f"{key}.path", name, written, pool, deck_name)
            counts = self.counts(f"{key}.counts", entry["counts"]) if "counts" in entry else ()
            if counts:
                sources = tuple(self.edited(key, source, counts) for source in sources)
            for source in sources:
                if source.label in labels:
                    raise self.where.error(key, tr("the deck label {label!r} is also given by decks.{other}; rename "
                                                   "one of them", label=source.label, other=labels[source.label]))
                labels[source.label] = name
                self.files[f"deck:{source.label}"] = source.path
            decks[name] = _Deck(name, sources, game, {k: v for k, v in entry.items()})
        return decks

    def deck_files(self, key: str, name: str, written: str, pool: Path | None,
                   deck_name: str | None = None) -> tuple[DeckSource, ...]:
        pattern = self.base_dir / written
        path = self.path(key, written)
        if glob.has_magic(written):
            matches = sorted(self.note_place(Path(p).resolve(), str(Path(p).relative_to(self.base_dir)
                                                                     if Path(p).is_relative_to(self.base_dir) else p))
                             for p in glob.glob(str(pattern)) if Path(p).is_file())
            if not matches:
                raise self.where.error(key, tr("{pattern!r} matches no file (looked in {folder})", pattern=written,
                                               folder=pattern.parent.resolve()))
            stems = [p.stem for p in matches]
            for stem in stems:
                if stems.count(stem) > 1:
                    raise self.where.error(key, tr("{pattern!r} matches two files named {stem!r}; the label "
                                                   "{name}/{stem} would name both", pattern=written, stem=stem,
                                                   name=name))
            return tuple(DeckSource(f"{name}/{p.stem}", p, pool, deck_name) for p in matches)
        if not is_file(path):
            raise self.where.error(key, tr("deck file {file!r} not found (looked for {path})", file=written, path=path))
        return (DeckSource(name, path, pool, deck_name),)

    def counts(self, key: str, value: object) -> tuple[tuple[str, int], ...]:
        """A deck's ``counts = { "<card>" = <copies> }`` table as sorted (card, copies) pairs."""
        if not isinstance(value, Mapping):
            raise self.where.error(key, tr("expected a table of copies by card, e.g. counts = {{ \"Robot Camembert\" "
                                           "= 3 }}, got {kind}", kind=kind_name(value)))
        for card, copies in value.items():
            if not is_whole(copies) or not 0 <= copies <= MAX_COPIES:
                raise self.where.error(f"{key}.{card}", tr("expected a whole number of copies from 0 to {most}, got "
                                                           "{value!r}", most=written_number(MAX_COPIES), value=copies))
        return tuple(sorted((str(card), int(copies)) for card, copies in value.items()))

    def edited(self, key: str, source: DeckSource, counts: tuple[tuple[str, int], ...]) -> DeckSource:
        """``source`` with ``counts`` set, each card found in its deck (every deck a glob matches).

        The task keeps each card by its label in that deck (the key as written, but for a name that differs from
        its row's label only by case or accents): its rows then say the counts as ``deck.labels`` reads them.
        """
        deck = self.file_deck(f"{key}.path", source)
        rows: dict[int, tuple[str, int]] = {}
        for card, copies in counts:
            row = _checked(self.where, f"{key}.counts.{card}", lambda card=card: counted_row(deck, card))
            if row in rows:
                raise self.where.error(f"{key}.counts.{card}", tr("{card!r} names the card {other!r} names too; give "
                                                                  "its copies once", card=card, other=rows[row][0]))
            rows[row] = (card, copies)
        edited = dataclasses.replace(source, counts=tuple(sorted((deck.labels[row], copies)
                                                                 for row, (_, copies) in rows.items())))
        if _checked(self.where, f"{key}.counts", lambda: cached_deck(edited)).size == 0:
            raise self.where.error(f"{key}.counts", tr("the counts leave no card in the deck {source}; keep at least "
                                                       "one copy", source=deck.source))
        return edited

    def file_deck(self, key: str, source: DeckSource):
        """The deck ``source`` names (edited by its counts), loaded as :meth:`load` loads a file the spec names."""
        # A decklist's errors may quote its pool: one outside the folder is said as its deck would be.
        place = source.pool if source.pool in self.outside and source.path not in self.outside else source.path
        return self.load(key, place, _POOL_DECK_KIND if source.pool is not None else _DECK_KIND,
                         lambda: cached_deck(source))

    # Questions.

    def deck_labels(self, key: str, value: object, decks: dict[str, _Deck]) -> list[tuple[DeckSource, str]]:
        """The decks a ``decks`` list (or an ``opponent``) names, with each one's game."""
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not items:
            raise self.where.error(key, tr("expected a list of deck names, got {kind} {value!r}",
                                           kind=kind_name(value), value=value))
        by_label = {s.label: (s, d.game) for d in decks.values() for s in d.sources}
        chosen: list[tuple[DeckSource, str]] = []
        for i, label in enumerate(items):
            item_key = f"{key}[{i}]" if isinstance(value, list) else key
            if not isinstance(label, str):
                raise self.where.error(item_key, tr("expected a deck name, got {kind}", kind=kind_name(label)))
            if label in decks:
                chosen += [(s, decks[label].game) for s in decks[label].sources]
            elif label in by_label:
                chosen.append(by_label[label])
            else:
                names = list(dict.fromkeys([*decks, *by_label]))
                raise self.where.error(item_key, tr("unknown deck {label!r}{hint}; the spec's decks are {decks}",
                                                    label=label, hint=suggest(label, names), decks=", ".join(names)))
        return list(dict.fromkeys(chosen))

    def defaults(self) -> dict[str, object]:
        out = {}
        for name in DEFAULT_KEYS:
            if name in self.data:
                out[name] = _checked(self.where, name, lambda name=name: PARAMETER_CHECKS[name](self.data[name]))
        return out

    def parameter(self, question: str, key: str, name: str, value: object) -> object:
        if name == "table":
            tables = result_tables(question)
            if not isinstance(value, str) or value not in tables:
                hint = suggest(value, list(tables)) if isinstance(value, str) else ""
                raise self.where.error(key, tr("{value!r} is not a table of the {question} result{hint}; expected "
                                               "one of {tables}", value=value, question=question, hint=hint,
                                               tables=", ".join(tables)))
            return value
        if name == "opponent":
            return value  # resolved with the decks
        if name == "known":
            return _checked(self.where, key, lambda: self.known(value))
        check = QUESTION_CHECKS.get((question, name), PARAMETER_CHECKS.get(name))
        if check is None:
            return _checked(self.where, key, lambda: _json_value(value))
        return _checked(self.where, key, lambda: check(value))

    def known(self, value: object) -> tuple:
        """A ``known = {hand = "…", gone = ["…"], broken = 2}`` table as sorted (zone, texts or count) pairs.

        Zone words are those of :func:`deckstat.odds` (``main``, ``défausse``…); a
        description naming a file is a path from the spec's folder, as deck paths are.
        """
        if not isinstance(value, Mapping):
            raise DeckstatError(tr("expected a table of known cards by zone, e.g. known = {{ hand = \"Terrain=2, "
                                   "other=3\" }}, got {kind}", kind=kind_name(value)))
        pairs = {}
        for word, described in value.items():
            if isinstance(word, str) and fold_key(word) in {fold_key(w) for w in BROKEN_WORDS}:
                pairs["broken"] = check_whole(described, "broken")
                continue
            zone = zone_of(word)
            texts = described if isinstance(described, list) else [described]
            if not texts or not all(isinstance(t, str) for t in texts):
                raise DeckstatError(tr("{zone}: expected a description of cards (names, group counts or a file) or a "
                                       "list of them, got {kind}", zone=word, kind=kind_name(described)))
            resolved = []
            for text in texts:
                path = self.base_dir / text
                if looks_like_file(text) and not is_file(path):  # refused now, not when its task runs
                    raise DeckstatError(tr("no such file"), source=str(path))
                if looks_like_file(text):
                    self.files[f"known:{text}"] = path.resolve()
                resolved.append(str(path.resolve()) if looks_like_file(text) else text)
            pairs[zone] = pairs.get(zone, ()) + tuple(resolved)
        return tuple(sorted(pairs.items()))

    def question(self, index: int, entry: object, decks: dict[str, _Deck], defaults: dict) -> list[tuple[Task, str]]:
        key = f"questions[{index}]"
        if not isinstance(entry, Mapping):
            raise self.where.error(key, tr("expected a [[questions]] table, got {kind}", kind=kind_name(entry)))
        if "question" not in entry:
            raise self.where.error(key, tr("no question; expected question = one of {questions}",
                                           questions=", ".join(QUESTIONS)))
        name = entry["question"]
        if not isinstance(name, str) or name not in QUESTIONS:
            hint = suggest(name, list(QUESTIONS)) if isinstance(name, str) else ""
            message = tr("unknown question {name!r}{hint}", name=name, hint=hint) if hint else \
                tr("unknown question {name!r}; expected one of {questions}", name=name, questions=", ".join(QUESTIONS))
            raise self.where.error(f"{key}.question", message)
        parameters = api_parameters(name)
        allowed = [*QUESTION_KEYS, *parameters]
        entry = _keys(self.where, key, entry, allowed)
        fixed: dict[str, object] = {}
        for param_name, value in entry.items():
            if param_name in ("question", "decks", "sweep"):
                continue
            fixed[param_name] = self.parameter(name, f"{key}.{param_name}", param_name, value)
        sweep: dict[str, list] = {}
        if "sweep" in entry:
            sweep_table = entry["sweep"]
            if not isinstance(sweep_table, Mapping):
                raise self.where.error(f"{key}.sweep", tr("expected a table of value lists, got {kind}",
                                                          kind=kind_name(sweep_table)))
            for param_name, values in sweep_table.items():
                sweep_key = f"{key}.sweep.{param_name}"
                if param_name == "decks":
                    raise self.where.error(sweep_key, tr("decks is already a sweep: list the decks in {key}.decks, one "
                                                         "task per deck", key=key))
                if param_name not in allowed or param_name in ("question", "sweep"):
                    hint = suggest(str(param_name), [a for a in allowed if a not in ("question", "decks", "sweep")])
                    raise self.where.error(sweep_key, tr("not a parameter of {question}{hint}", question=name,
                                                         hint=hint))
                if param_name in fixed:
                    raise self.where.error(sweep_key, tr("{name} is given in {key} too; give it once, fixed or swept",
                                                         name=param_name, key=key))
                if not isinstance(values, list) or not values:
                    raise self.where.error(sweep_key, tr("expected a non-empty list of values to try, got {kind} "
                                                         "{value!r}", kind=kind_name(values), value=values))
                checked = [self.parameter(name, sweep_key, param_name, v) for v in values]
                sweep[param_name] = checked
        missing = [p for p, spec in parameters.items() if spec.default is inspect.Parameter.empty]
        for param_name in missing:
            if param_name not in fixed and param_name not in sweep:
                raise self.where.error(key, tr("{question} needs {name}, e.g. {name} = \"Terrain>=1\"", question=name,
                                               name=param_name))
        given = set(fixed) | set(sweep)
        if name == "sensitivity" and not given & {"event", "curve_target", "objectives"}:
            raise self.where.error(key, tr("sensitivity needs something to judge the deck on: event, curve_target or "
                                           "objectives, e.g. event = \"Terrain>=1\""))
        for default_name, value in defaults.items():
            if default_name in given or default_name not in parameters:
                continue
            # A question that sets trials or precision itself does not inherit the other as a default; one with
            # known cards is exact and inherits neither.
            if default_name in ("trials", "precision") and given & {"trials", "precision"}:
                continue
            if default_name in ("trials", "precision", "max_trials") and "known" in given:
                continue
            fixed[default_name] = value
        chosen = self.deck_labels(f"{key}.decks", entry["decks"], decks) if "decks" in entry else [
            (s, d.game) for d in decks.values() for s in d.sources]
        groups = [chosen] if name == "compare" else [[c] for c in chosen]
        if name == "compare":
            if len(chosen) < 2:
                raise self.where.error(f"{key}.decks", tr("compare needs at least two decks"))
            games = {game for _, game in chosen}
            if len(games) > 1:
                raise self.where.error(f"{key}.decks", tr("the decks compared are of different games ({games}); "
                                                          "compare decks of one game", games=", ".join(sorted(games))))
        swept_names = tuple(sweep)
        self.task_count += len(groups) * math.prod(len(values) for values in sweep.values())
        if self.task_count > MOST_BATCH_TASKS:
            raise self.where.error(f"{key}.sweep" if sweep else key, tr(
                "the spec asks for {count} tasks up to here, more than the {limit} a batch runs; sweep fewer values, "
                "or split it into several specs", count=written_number(self.task_count),
                limit=written_number(MOST_BATCH_TASKS)))
        tasks = []
        for group in groups:
            game = group[0][1]
            for combination in itertools.product(*sweep.values()):
                params = {**fixed, **dict(zip(swept_names, combination))}
                sources = tuple(s for s, _ in group)
                if name in ("deckout", "ratio", "sensitivity", "curve") and "opponent" in params:
                    opp_key = f"{key}.sweep.opponent" if "opponent" in sweep else f"{key}.opponent"
                    [(opponent, opponent_game)] = self._one_deck(opp_key, params["opponent"], decks)
                    if opponent_game != game:
                        raise self.where.error(opp_key, tr("{deck!r} is a {game} deck, not {wanted}",
                                                           deck=opponent.label, game=opponent_game, wanted=game))
                    params["opponent"] = opponent.label
                    sources = sources + (opponent,)
                task = Task(name, sources, game, tuple(sorted(params.items())), swept_names)
                tasks.append((task, key))
        return tasks

    def _one_deck(self, key: str, value: object, decks: dict[str, _Deck]) -> list[tuple[DeckSource, str]]:
        if not isinstance(value, str):
            raise self.where.error(key, tr("expected the name of one deck of the spec, got {kind}",
                                           kind=kind_name(value)))
        found = self.deck_labels(key, value, decks)
        if len(found) != 1:
            raise self.where.error(key, tr("{value!r} names {count} decks; give one of {decks}", value=value,
                                           count=len(found), decks=", ".join(s.label for s, _ in found)))
        return found

    def parse(self) -> tuple[str | None, int | None, list[Task], dict]:
        data = _keys(self.where, "", self.data, TOP_KEYS)
        name = None
        if "name" in data:
            name = _text(self.where, "name", data["name"])
        seed = None
        if "seed" in data:
            seed = _checked(self.where, "seed", lambda: PARAMETER_CHECKS["seed"](data["seed"]))
        default_game = self.game("game", data["game"]) if "game" in data else None
        defaults = self.defaults()
        decks = self.decks(default_game)
        questions = data.get("questions")
        if not isinstance(questions, list) or not questions:
            raise self.where.error("questions", tr("the spec asks no question; add [[questions]] tables with "
                                                   "question = one of {questions}", questions=", ".join(QUESTIONS)))
        tasks: list[tuple[Task, str]] = []
        for index, entry in enumerate(questions):
            tasks += self.question(index, entry, decks, defaults)
        seen: dict[str, str] = {}
        for task, key in tasks:
            if task.task_id in seen:
                raise self.where.error(key, tr("asks the same task twice ({task}), also asked by {other}; drop one",
                                               task=task.describe(), other=seen[task.task_id]))
            seen[task.task_id] = key
        for task, key in tasks:
            self.preflight(task, key, decks)
        canonical = {"name": name, "seed": seed, "game": default_game,
                     "defaults": {k: _jsonable(v) for k, v in defaults.items()},
                     "decks": {d.name: {"path": d.written["path"], "game": d.game, "pool": d.written.get("pool"),
                                        **({"deck_name": d.written["deck_name"]} if "deck_name" in d.written else {}),
                                        # Only when set, so that a spec without counts keeps its digest.
                                        **({"counts": dict(d.sources[0].counts)} if d.sources[0].counts else {}),
                                        "labels": [s.label for s in d.sources]} for d in decks.values()},
                     "questions": [_jsonable(q) for q in questions]}
        return name, seed, [t for t, _ in tasks], canonical

    # The preflight: every task's deck and groups, with the questions' own checks.

    def preflight(self, task: Task, key: str, decks: dict[str, _Deck]) -> None:
        params = {name: value for name, value in task.params if name not in UNPLANNED_PARAMETERS}
        checked = json.dumps([task.question, [str(d.path) for d in task.decks],
                              [str(d.pool) for d in task.decks], [d.deck_name for d in task.decks],
                              [d.counts for d in task.decks], task.game, params, unkept_tables(task)],
                             sort_keys=True, default=str)
        if checked in self._checked:
            return
        deck_of = {s.label: d for d in decks.values() for s in d.sources}
        profile = cached_profile(task.game)
        loaded = []
        for source in task.decks:
            deck_key = f"decks.{deck_of[source.label].name}.path"
            deck = self.file_deck(deck_key, source)
            if (source, task.game) not in self._card_types:
                _checked(self.where, deck_key, lambda deck=deck: check_card_types(profile.drawn_deck(deck), profile))
                self._card_types.add((source, task.game))
            loaded.append(deck)
        try:
            with shared_setups(process_setups()):
                _check_task(task, loaded, profile, params)
        except DeckstatError as exc:
            raise self.where.wrap(_blamed_key(exc, task, key), exc) from None
        self._checked.add(checked)


#: What kind of file a spec's path was expected to name, in the error about a file outside its folder.
_DECK_KIND = N_("a card file (a CSV with a name column)")
_POOL_DECK_KIND = N_("a text decklist or a card file")
_PROFILE_KIND = N_("a game profile (a TOML file)")


def _problem_place(exc: DeckstatError) -> str:
    """Where in a file a loader found its problem, without its words about the content."""
    line = getattr(exc, "line", None)
    return tr("line {line}", line=line) if line is not None else tr("unreadable")


def _blamed_key(exc: DeckstatError, task: Task, key: str) -> str:
    """The key a question's error is about: the parameter it names, else the event, else the question."""
    named = [SPEC_NAMES.get(m, m) for m in _MARK.findall(exc.message)]
    if task.question == "sensitivity":
        named[:0] = _objective_keys(exc.message, task)
    if task.question == "curve":
        named[:0] = _card_keys(exc.message, task)
    if isinstance(exc, ExpressionError) and isinstance(exc.source, str):
        for candidate, what in (("keep", "keep rule"), ("resource", "resource group"), ("group", "group"),
                                ("groups", "group"), ("event", "event")):
            value = task.param(candidate)
            texts = value if isinstance(value, tuple) else (value,)
            # The source names the expression as the parser did, in the language of the message.
            if any(isinstance(t, str) and exc.source == expression_source(what, repr(t)) for t in texts):
                named.insert(0, candidate)
    for name in (n.split("=")[0] for n in named):
        if task.param(name) is not None:
            return f"{key}.sweep.{name}" if name in task.swept else f"{key}.{name}"
    return key


def _plan_sensitivity(deck, profile, *, simulation: Simulation, **arguments):
    """:func:`~deckstat.questions.sensitivity.plan_sensitivity` given a ``simulation``, as the other plans are.

    It takes its settings one by one, as :func:`deckstat.sensitivity` does, so that trials left unset keep its
    own default (fewer than the other questions': its changes are paired).
    """
    return plan_sensitivity(deck, profile, method=simulation.method, n_trials=simulation.n_trials,
                            rng=simulation.rng, chunk_size=simulation.chunk_size, n_workers=simulation.n_workers,
                            **arguments)


def _card_keys(message: str, task: Task) -> list[str]:
    """``["cards"]`` when a curve's message is about one of its ``cards`` (its message names no parameter)."""
    for card in task.param("cards") or ():
        # The message as curve words it, up to the deck's source, in the language it was written in.
        if tr("card {name!r} is not in the deck {source}{hint}", name=card.strip(), source="", hint="").rstrip() \
                in message:
            return ["cards"]
    return []


def _objective_keys(message: str, task: Task) -> list[str]:
    """The key a sensitivity objective's error is about: the key that wrote the objective its message names.

    An objective read from ``event`` or ``curve_target`` takes its turn from ``by_turn``: a message about its
    turns is about ``by_turn``, when the spec gives it. Every objective is planned with the keep rule, whose
    errors are said about the objective too.
    """
    keep = task.param("keep")
    if keep is not None and expression_source("keep rule", repr(keep)) in message:
        return ["keep"]
    for name, kind in (("event", "odds"), ("curve_target", "curve")):
        target = task.param(name)
        # The message starts "objective 'odds: <event> @ <turn>': " (Objective.text, weight 1).
        if target is not None and repr(Objective(kind, str(target), 0).text)[:-2] in message:
            about_turns = "turns" in _MARK.findall(message) and task.param("by_turn") is not None
            return ["by_turn", name] if about_turns else [name]
    for text in task.param("objectives") or ():
        try:
            written = Objective.parse(text).text
        except DeckstatError:
            continue
        if repr(written) in message:
            return ["objectives"]
    return []


#: The function that makes every check of a question, by question: a spec is refused by the checks and messages
#: of the function that will answer it.
PLANS = {"odds": plan_odds, "when": plan_when, "mulligan": plan_mulligan, "ratio": plan_ratio,
         "compare": plan_compare, "deckout": plan_deckout, "sensitivity": _plan_sensitivity, "curve": plan_curve}
#: Settings of a question that go into its :class:`~deckstat.questions._estimate.Simulation`.
_SIMULATION_SETTINGS = ("method", "n_trials", "precision", "max_trials", "chunk_size", "n_workers")


def _check_task(task: Task, decks: list, profile, params: dict) -> None:
    """Run the checks a question makes before it computes anything, on this task's deck(s): its ``plan_*``.

    ``params`` are the task's parameters the checks read (see :data:`deckstat.batching.tasks.UNPLANNED_PARAMETERS`).
    """
    # The tables the task does not keep are left out as its run leaves them out: it is checked as it will run.
    arguments = {**unkept_tables(task), **{name: value for name, value in api_arguments(task, decks).items()
                                           if SPEC_NAMES.get(name, name) in params}}
    settings = {name: arguments.pop(name) for name in _SIMULATION_SETTINGS if name in arguments}
    subject = decks if task.question == "compare" else decks[0]
    PLANS[task.question](subject, profile, simulation=Simulation.checked(**settings), **arguments)


def _jsonable(value: object) -> object:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def _toml_error(exc: tomllib.TOMLDecodeError, source: str) -> SpecError:
    text = str(exc)
    match = re.search(r"\(at line (\d+), column (\d+)\)", text)
    line = getattr(exc, "lineno", None) or (int(match.group(1)) if match else None)
    message = re.sub(r"\s*\(at line \d+, column \d+\)", "", text)
    column = getattr(exc, "colno", None) or (int(match.group(2)) if match else None)
    if column:
        return SpecError(tr("column {column}: not valid TOML: {reason}", column=column, reason=message), source=source,
                         line=line)
    return SpecError(tr("not valid TOML: {reason}", reason=message), source=source, line=line)


def load_spec(source: str | os.PathLike | Mapping, *, base_dir: Path | None = None) -> Spec:
    """Read, check and expand a batch spec.

    Parameters
    ----------
    source : str, path or mapping
        A TOML spec file, or the same content as a dict.
    base_dir : Path, optional
        Folder the spec's relative paths start from: the file's folder for a
        file, the current folder for a dict unless given.

    Returns
    -------
    Spec

    Raises
    ------
    SpecError
        One line naming the file, the line and the key path, and what was
        expected: nothing runs from a spec that cannot run entirely.
    """
    if isinstance(source, Mapping):
        path, text, data = None, None, source
        base = Path(base_dir) if base_dir is not None else Path.cwd()
    else:
        path = Path(source)
        try:
            raw = read_input_bytes(path, kind="spec", limit=MOST_SPEC_BYTES, error=SpecError)
        except FileNotFoundError:
            raise SpecError(tr("spec file not found"), source=str(path)) from None
        except OSError as exc:
            raise SpecError(tr("cannot read the spec file ({reason})", reason=exc.strerror or exc),
                            source=str(path)) from None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SpecError(tr("not UTF-8 text (byte {byte}); save the spec as UTF-8", byte=exc.start),
                            source=str(path)) from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise _toml_error(exc, str(path)) from None
        base = Path(base_dir) if base_dir is not None else path.resolve().parent
    parser = _Parser(data, path, text, base.resolve())
    name, seed, tasks, canonical = parser.parse()
    canonical_text = json.dumps(canonical, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    digest = hashlib.sha256(canonical_text.encode("utf-8"))
    inputs: dict[str, str] = {}
    for label, file in sorted(parser.files.items()):
        data = file.read_bytes()
        digest.update(f"\0{label}\0".encode())
        digest.update(data)
        inputs[str(file)] = hashlib.sha256(data).hexdigest()
    tasks = [dataclasses.replace(task, inputs=tuple((f, inputs[f]) for f in _task_files(task) if f in inputs))
             for task in tasks]
    spec_name = name or (path.stem if path is not None else "batch")
    return Spec(spec_name, path.resolve() if path is not None else None, seed, tuple(tasks), digest.hexdigest(),
                canonical_text, tuple(sorted(inputs.items())))


def _task_files(task: Task) -> list[str]:
    """The files a task reads: its decks and their pools, a profile file, the known-cards files."""
    files = [str(d.path) for d in task.decks] + [str(d.pool) for d in task.decks if d.pool is not None]
    if task.game.lower().endswith(".toml"):
        files.append(task.game)
    for _, texts in task.param("known") or ():
        files += [t for t in (texts if isinstance(texts, tuple) else ()) if isinstance(t, str)]
    return list(dict.fromkeys(files))
