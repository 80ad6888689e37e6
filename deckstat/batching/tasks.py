"""One task of a batch: a question about one deck (or the decks compared), with fixed parameters.

A :class:`Task` holds only primitives, tuples and paths, so it travels to
worker processes and Dask workers as it is. Its identity (the question, the
deck labels, the game and the parameters, not its place in the spec) names
it (:attr:`Task.task_id`) and seeds it (:meth:`Task.seed`), so a task gets
the same seed whatever the executor, the number of workers or the order in
which the spec lists it. :func:`run_task` answers it in this process.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import os
from dataclasses import dataclass, fields, replace
from pathlib import Path

import pandas as pd

from deckstat._validate import format_ranges
from deckstat.cards import load_deck
from deckstat.deck import Deck
from deckstat.errors import DeckstatError
from deckstat.games.profiles import Profile, get_profile, load_profile_file
from deckstat.i18n import tr
from deckstat.questions._setup import shared_setups
from deckstat.questions.compare import compare
from deckstat.questions.curve import curve
from deckstat.questions.deckout import deckout
from deckstat.questions.mulligan import mulligan
from deckstat.questions.odds import odds
from deckstat.questions.ratio import ratio
from deckstat.questions.sensitivity import sensitivity
from deckstat.questions.when import when
from deckstat.results import Result
from deckstat.text import suggest

#: The questions a batch can ask, by the name a spec gives them.
QUESTIONS = {"odds": odds, "when": when, "mulligan": mulligan, "ratio": ratio, "deckout": deckout,
             "compare": compare, "sensitivity": sensitivity, "curve": curve}
#: Parameters the runner sets itself (or that the spec gives another way), never a spec key.
RUNNER_PARAMETERS = ("deck", "decks", "game", "rng", "n_workers", "chunk_size")
#: Spec spellings of the questions' keyword arguments.
SPEC_NAMES = {"n_trials": "trials"}
API_NAMES = {spec: api for api, spec in SPEC_NAMES.items()}
#: Parameters a task's plan does not read (checked when the spec is parsed; its estimate reads the trials itself):
#: tasks that differ only in them are checked and planned once.
UNPLANNED_PARAMETERS = ("seed", "table", "trials", "precision", "max_trials")
#: Parameters written as whole-number ranges ("0-6", "8,10,12-14").
RANGE_PARAMETERS = ("turns", "counts", "ratio_counts")
#: Parameters that hold several texts, written "a; b" in the result table.
TEXT_LIST_PARAMETERS = ("event", "filler", "cards", "objectives", "groups")
#: Columns every row of a batch starts with, before the task's parameters.
LEADING_COLUMNS = ("task_id", "question", "deck", "game")
#: The column that gives, in the rows of a task that reads an edited deck, the copies the spec sets.
EDITED_COLUMN = "deck_counts"
#: Separator of the deck labels of a comparison in the ``deck`` column.
COMPARED = " vs "
#: Seeds of tasks are below this: at most 11 digits, which a spreadsheet shows and copies whole (Excel's
#: General format writes a 12-digit number as 1.23457E+11, and keeps 15 significant digits at most).
SEED_BOUND = 10**11
#: How task seeds are derived: 2 is below :data:`SEED_BOUND`; 1 (runs made before) took 63 bits of the same hash.
SEED_SCHEME = 2


@dataclass(frozen=True)
class DeckSource:
    """Where a deck of the spec comes from.

    Attributes
    ----------
    label : str
        The spec's name for the deck (``"wankul"``), or ``"wankul/<file stem>"``
        for each file a glob matches.
    path : Path
        The card CSV or text decklist, absolute.
    pool : Path or None
        The card pool that resolves a text decklist, absolute.
    deck_name : str or None
        For a file that holds several decks, the one to read (see :func:`deckstat.cards.pick_deck`).
    counts : tuple of (str, int)
        The copies the spec's ``counts`` set, by card label (:attr:`Deck.labels`, :func:`edited_deck`), sorted by
        label; empty for the deck as its file holds it.
    """

    label: str
    path: Path
    pool: Path | None = None
    deck_name: str | None = None
    counts: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Task:
    """A question with every parameter fixed, about one deck (or the decks compared).

    Attributes
    ----------
    question : str
        ``"odds"``, ``"when"``, ``"mulligan"``, ``"ratio"``, ``"deckout"``, ``"compare"``, ``"sensitivity"`` or
        ``"curve"``.
    decks : tuple of DeckSource
        The deck asked about; for ``compare`` the decks compared (the first is
        deck A); for ``deckout``, ``ratio``, ``sensitivity`` or ``curve`` with an ``opponent``, the deck then the
        opponent's.
    game : str
        A shipped profile id, or the absolute path of a ``.toml`` profile.
    params : tuple of (str, object)
        The question's keyword arguments with their spec names (``trials``,
        ``table``, ``seed``…), sorted by name; lists are tuples.
    swept : tuple of str
        The parameters whose value comes from a sweep.
    inputs : tuple of (str, str)
        The files the task reads and the SHA-256 (hex) of their bytes when the spec was loaded.
    """

    question: str
    decks: tuple[DeckSource, ...]
    game: str
    params: tuple[tuple[str, object], ...]
    swept: tuple[str, ...] = ()
    #: The files the task reads (deck, pool, profile, known cards) with the SHA-256 the spec found in each; not
    #: part of the task's identity. The run checks them before and after the task (:func:`changed_input`).
    inputs: tuple[tuple[str, str], ...] = ()

    # Computed once per task (a run reads the id and the seed several times a task); not a field, so not compared.
    @functools.cached_property
    def identity(self) -> str:
        """Canonical JSON of the question, the deck labels, the game and the parameters.

        A game given as a profile file counts by its content, not its path, so
        a spec and its files moved elsewhere keep their task ids and seeds.
        The copies an edited deck's ``counts`` set are part of what the task
        asks, as its parameters are: the same label with other counts is
        another task (another id and seed). A task of unedited decks has the
        identity it had before decks could be edited.
        """
        identity = {"question": self.question, "decks": [d.label for d in self.decks],
                    "game": _game_identity(self.game), "params": dict(self.params)}
        edited = edited_counts(self.decks)
        if edited:
            identity["counts"] = edited
        return json.dumps(identity, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    @functools.cached_property
    def task_id(self) -> str:
        """The first 16 hex digits of the SHA-256 of :attr:`identity`."""
        return hashlib.sha256(self.identity.encode("utf-8")).hexdigest()[:16]

    def param(self, name: str, default: object = None) -> object:
        """The value of parameter ``name`` (spec spelling), or ``default``."""
        return dict(self.params).get(name, default)

    def seed(self, spec_seed: int, scheme: int = SEED_SCHEME) -> int:
        """The seed this task runs with.

        The task's own ``seed`` parameter when the spec gives one; otherwise
        a number below :data:`SEED_BOUND` (11 digits at most) derived from
        ``spec_seed`` and :attr:`identity`, so it does not depend on where the
        task is listed or who runs it. ``scheme=1`` gives the 63-bit seeds of
        runs recorded before (a manifest without ``seed_scheme``), so that
        such a run resumes with the seeds it started with.

        Examples
        --------
        >>> task = Task("odds", (DeckSource("d", Path("/d.csv")),), "wankul", (("event", ("Terrain>=1",)),))
        >>> task.seed(1) == task.seed(1) != task.seed(2), task.seed(1) < SEED_BOUND
        (True, True)
        """
        own = self.param("seed")
        if own is not None:
            return int(own)
        digest = hashlib.sha256(f"{spec_seed}\0{self.identity}".encode()).digest()
        if scheme == 1:
            return int.from_bytes(digest[:8], "big") >> 1
        return int.from_bytes(digest[:8], "big") % SEED_BOUND

    @property
    def deck_label(self) -> str:
        """The ``deck`` column: the deck's label, or the labels compared joined with `` vs ``."""
        if self.question == "compare":
            return COMPARED.join(d.label for d in self.decks)
        return self.decks[0].label

    def describe(self) -> str:
        """One short line: the question, the deck and the swept values."""
        text = f"{self.question} {self.deck_label}"
        if self.question == "deckout" and self.param("opponent") is not None:
            text += f" against {self.param('opponent')}"
        swept = [f"{name}={shown_value(name, self.param(name))}" for name in self.swept]
        return text + (" " + " ".join(swept) if swept else "")


def edited_counts(decks: tuple[DeckSource, ...]) -> dict[str, dict[str, int]]:
    """The copies set by each edited deck of ``decks``, by deck label then card (empty when none is edited)."""
    return {d.label: dict(d.counts) for d in decks if d.counts}


def shown_value(name: str, value: object) -> object:
    """A parameter as the spec writes it: ranges as ``"0-6"``, several texts as ``"a; b"``.

    Known cards read ``hand: Terrain=2, other=3; broken: 2``.
    """
    if name == "known":
        return "; ".join(f"{zone}: {' + '.join(texts) if isinstance(texts, tuple) else texts}"
                         for zone, texts in value)
    if isinstance(value, (tuple, list)):
        if name in RANGE_PARAMETERS:
            return format_ranges(value)
        return "; ".join(str(v) for v in value)
    return value


@functools.cache
def result_tables(question: str) -> tuple[str, ...]:
    """The names of the tables a question's result holds, main table first (``Result.frames()`` names)."""
    for cls in _result_classes(Result):
        if cls.question == question:
            return tuple(f.name for f in fields(cls) if f.name != "provenance")
    raise KeyError(question)


def _result_classes(base: type) -> list[type]:
    found = []
    for cls in base.__subclasses__():
        found += [cls, *_result_classes(cls)]
    return found


def api_parameters(question: str) -> dict[str, inspect.Parameter]:
    """The keyword arguments of a question a spec may set, by spec name (``trials`` for ``n_trials``)."""
    signature = inspect.signature(QUESTIONS[question])
    return {SPEC_NAMES.get(name, name): parameter for name, parameter in signature.parameters.items()
            if name not in RUNNER_PARAMETERS}


# Per-process caches: a worker answering 200 tasks reads each file once. Keys hold the file's
# inode, change and modification times and size, so a file edited between two runs in one process is read again.
_DECKS: dict[tuple, Deck] = {}
_PROFILES: dict[tuple, Profile] = {}


def _file_key(path: Path) -> tuple:
    try:
        status = os.stat(path)
    except OSError:
        return (str(path), None, None, None, None)
    # The inode and the change time too: an editor that saves by renaming a new file over the old one, or a
    # write within the clock's resolution, leaves the size and the modification time as they were.
    return (str(path), status.st_ino, status.st_mtime_ns, status.st_ctime_ns, status.st_size)


def cached_deck(source: DeckSource) -> Deck:
    """The deck ``source`` names, loaded once per process (while its files stay unchanged), edited by its counts."""
    key = (_file_key(source.path), _file_key(source.pool) if source.pool is not None else None, source.deck_name,
           source.counts)
    if key not in _DECKS:
        if source.counts:
            # The file's deck is cached too: the spec's check of the counts and every other edit of it read it once.
            _DECKS[key] = edited_deck(cached_deck(replace(source, counts=())), source.counts)
        else:
            _DECKS[key] = load_deck(source.path, pool=source.pool, deck_name=source.deck_name)
    return _DECKS[key]


def counted_row(deck: Deck, card: str) -> int:
    """The row of ``deck`` whose copies a ``counts`` key sets: a card's label, or its name as the file writes it.

    The key is compared exactly, so that a spec says which card it changes without a reading that could change
    with the deck: a label as :attr:`Deck.labels` and the results write it (the explorer saves its counts so), or
    a name as :attr:`Deck.names` holds it (the file's spelling). A name held by several rows (two printings of a
    card) that is not the label of one of them names none: the key must be the label of one (``VENDEUR #35``).

    Parameters
    ----------
    deck : Deck
        The deck as its file holds it.
    card : str
        A key of ``counts``.

    Returns
    -------
    int

    Raises
    ------
    DeckstatError
        For a name of several printings, or a key that names no card of the deck (with the closest label).

    Examples
    --------
    >>> deck = Deck.from_table([{"name": "VENDEUR", "number": "35", "count": 2},
    ...                         {"name": "VENDEUR", "number": "36", "count": 1},
    ...                         {"name": "PORTAL", "number": "2", "count": 3}])
    >>> counted_row(deck, "PORTAL"), counted_row(deck, "VENDEUR #36")
    (2, 1)
    """
    rows = [i for i, label in enumerate(deck.labels) if label == card]
    if len(rows) != 1:
        rows = [i for i, name in enumerate(deck.names) if name == card]
    if len(rows) > 1:
        raise DeckstatError(tr("{card!r} names {count} printings of the deck {source} ({labels}); name one by its "
                               "label", card=card, count=len(rows), source=deck.source,
                               labels=", ".join(repr(deck.labels[i]) for i in rows)))
    if not rows:
        raise DeckstatError(tr("{card!r} is not a card of the deck {source}{hint}; name a card as the deck file "
                               "writes it", card=card, source=deck.source, hint=suggest(card, deck.labels)))
    return rows[0]


def edited_deck(deck: Deck, counts: tuple[tuple[str, int], ...]) -> Deck:
    """``deck`` with the copies ``counts`` set, built by :meth:`Deck.with_counts` (a card set to 0 leaves it).

    Parameters
    ----------
    deck : Deck
        The deck as its file holds it.
    counts : tuple of (str, int)
        (card name or label, copies) pairs, each card named as :func:`counted_row` reads it.

    Returns
    -------
    Deck
        What ``deck.with_counts(array)`` gives for the file's counts with these set: the call that reproduces a
        batch row from Python.
    """
    array = deck.counts.copy()
    for card, copies in counts:
        array[counted_row(deck, card)] = copies
    return deck.with_counts(array)


_DIGESTS: dict[tuple, str] = {}


def file_digest(path: str | Path) -> str | None:
    """The SHA-256 (hex) of a file's bytes, read again only when its size or modification time changed.

    None when the file cannot be read (it went, or became a folder).
    """
    key = _file_key(Path(path))
    if key not in _DIGESTS:
        try:
            _DIGESTS[key] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        except OSError:
            return None
    return _DIGESTS[key]


def changed_input(task: Task) -> str | None:
    """The first file ``task`` reads whose bytes are no longer those the spec was loaded with, else None."""
    for path, digest in task.inputs:
        if file_digest(path) != digest:
            return path
    return None


_GAME_IDENTITIES: dict[tuple, str] = {}


def _game_identity(game: str) -> str:
    """A shipped profile's id, or ``profile sha256:<digest>`` of a profile file's bytes."""
    if not game.lower().endswith(".toml"):
        return game
    key = _file_key(Path(game))
    if key not in _GAME_IDENTITIES:
        try:
            _GAME_IDENTITIES[key] = "profile sha256:" + hashlib.sha256(Path(game).read_bytes()).hexdigest()
        except OSError:  # the spec checked the file; if it went since, its path is all there is
            return game
    return _GAME_IDENTITIES[key]


def cached_profile(game: str) -> Profile:
    """The profile ``game`` names (a shipped id or a ``.toml`` path), read once per process."""
    if not game.lower().endswith(".toml"):
        return get_profile(game)
    key = _file_key(Path(game))
    if key not in _PROFILES:
        _PROFILES[key] = load_profile_file(game)
    return _PROFILES[key]


def api_arguments(task: Task, decks: list[Deck]) -> dict[str, object]:
    """The keyword arguments of the question's function for ``task`` (without deck, game and rng)."""
    arguments: dict[str, object] = {}
    for name, value in task.params:
        if name in ("seed", "table"):
            continue
        api_name = API_NAMES.get(name, name)
        if name == "opponent":
            value = decks[1]
        elif name == "known":
            value = {zone: list(texts) if isinstance(texts, tuple) else texts for zone, texts in value}
        elif isinstance(value, tuple):
            value = list(value)
        arguments[api_name] = value
    return arguments


def run_task(task: Task, seed: int) -> pd.DataFrame:
    """Answer ``task`` in this process with seed ``seed`` and return its rows.

    The question runs with ``n_workers=1`` and ``rng=seed``, so its numbers are
    those of the Python API (or the command line's ``--seed``) with that seed.

    Parameters
    ----------
    task : Task
    seed : int
        Usually ``task.seed(spec_seed)``.

    Returns
    -------
    pandas.DataFrame
        The result's table named by the task's ``table`` parameter (default:
        the question's main table), its columns preceded by ``task_id``,
        ``question``, ``deck`` (the deck's label; for ``compare`` the labels
        joined with `` vs ``), ``game`` (the profile id), for a task that
        reads an edited deck ``deck_counts`` (the copies its ``counts`` set,
        as JSON by deck label then card), every parameter of the task that is
        not a column of the table (ranges written ``0-6``, several texts
        ``a; b``), then ``seed``. The table's own ``deck``
        column (the deck's file name; in ``deckout`` the seat's deck, in
        ``compare``'s ``odds`` each deck's) is kept as ``deck_file``; its
        ``game`` column, always the profile id, is not repeated.

    Raises
    ------
    DeckstatError
        When the question refuses the deck or a parameter.
    """
    leading, table = _answer(task, seed)
    table = table.copy()
    table.attrs = {}
    table = table.drop(columns=[c for c in ("game",) if c in table.columns])
    table = table.rename(columns={"deck": "deck_file"})
    front = pd.DataFrame({column: [value] * len(table) for column, value in leading.items()}, index=table.index)
    if "seed" in front.columns:
        front["seed"] = front["seed"].astype("int64")
    return pd.concat([front, table], axis=1).reset_index(drop=True)


def task_columns(task: Task, seed: int) -> tuple[list[str], list[list]]:
    """:func:`run_task`'s rows as column names and one list of cells per column, without building its frame.

    What the batch runner keeps of a task (it writes JSON values, not frames): the cells are those of
    :func:`run_task`'s frame as Python objects, leading values repeated on every row.
    """
    leading, table = _answer(task, seed)
    kept = [i for i, c in enumerate(table.columns) if c != "game"]
    names = ["deck_file" if table.columns[i] == "deck" else str(table.columns[i]) for i in kept]
    # One conversion of the whole table: a Series per column costs more (each copies the table's attrs).
    values = table.to_numpy(dtype=object).T.tolist()
    return [*leading, *names], [*([value] * len(table) for value in leading.values()), *(values[i] for i in kept)]


def unkept_tables(task: Task) -> dict[str, bool]:
    """The switches that leave out the tables ``task`` does not keep (``sides=False``, ``effects=False``).

    They change none of the other tables. A parameter the spec sets itself wins over them.
    """
    name = task.param("table") or result_tables(task.question)[0]
    if task.question in ("odds", "when", "compare", "ratio", "mulligan") and name not in ("droughts", "effects",
                                                                                         "played"):
        return {"sides": False}  # tables the task does not keep are not computed
    if task.question == "curve" and name != "effects":
        # Likewise: the effects table is estimated after the others from the same seed, which it leaves unchanged.
        return {"effects": False}
    return {}


#: The set-ups and exact-cost predictions of the questions this process answered, shared by the tasks that ask the
#: same deck with the same events and rules (:func:`~deckstat.questions._setup.shared_setups`). Emptied whole when
#: it holds :data:`MOST_SHARED` entries, so that a long-lived worker does not keep every spec's.
_SHARED: dict = {}
MOST_SHARED = 4096


def process_setups() -> dict:
    """The set-ups and predictions this process shares between the tasks it checks and answers (:data:`_SHARED`)."""
    if len(_SHARED) >= MOST_SHARED:
        _SHARED.clear()
    return _SHARED


def _answer(task: Task, seed: int) -> tuple[dict[str, object], pd.DataFrame]:
    """The leading cells of ``task``'s rows, and the result table it keeps (as the question returns it)."""
    profile = cached_profile(task.game)
    decks = [cached_deck(source) for source in task.decks]
    function = QUESTIONS[task.question]
    subject = decks if task.question == "compare" else decks[0]
    name = task.param("table") or result_tables(task.question)[0]
    arguments = {**unkept_tables(task), **api_arguments(task, decks)}
    # Tasks of one deck differ in their turns, seats or seeds far more often than in their events and rules: the
    # events are compiled and the exact engine priced once for all of them (and for the spec's checks before).
    with shared_setups(process_setups()):
        result = function(subject, profile, rng=seed, n_workers=1, **arguments)
    frames = result.frames()
    if name not in frames:
        raise DeckstatError(tr("the {question} result has no {table!r} table here (it holds {tables}): the "
                               "parameters that fill it are not set", question=task.question, table=name,
                               tables=", ".join(frames)))
    table = frames[name]
    # The columns the rows keep of the table: its game column is the leading one, its deck column is deck_file.
    kept = {"deck_file" if c == "deck" else c for c in table.columns if c != "game"}
    leading: dict[str, object] = {"task_id": task.task_id, "question": task.question, "deck": task.deck_label,
                                  "game": profile.id}
    edited = edited_counts(task.decks)
    if edited:
        # Exact (JSON), as the row is reproduced from it: card names may hold commas, semicolons or '='.
        leading[EDITED_COLUMN] = json.dumps(edited, ensure_ascii=False, separators=(", ", ": "))
    for param_name, value in task.params:
        if param_name in ("seed",) or param_name in kept or param_name in leading:
            continue
        leading[param_name] = shown_value(param_name, value)
    leading["seed"] = seed
    return leading, table
