"""Running a batch: executors, the journal that makes a run resumable, the manifest, the output files, the dry run.

A run executes each task of a spec once, in this process, in local processes
or on a Dask cluster, and gathers the tasks' tables into one tidy table whose
rows follow the spec's task order (never the order tasks finish in), so the
table is the same whatever the executor and the number of workers.

With an output folder, every finished task is appended to ``journal.jsonl``
(handed to the operating system whole, synced to disk within a second) before
it counts as done; a run stopped at any moment (even ``kill -9``) resumes from
the journal and ends with exactly the rows of an uninterrupted run. ``manifest.json`` says how the run was made and
how it ended; ``results.csv`` (and ``results.parquet`` when pyarrow is
installed) exist only once the run has ended. Every file is written under a
temporary name and renamed, so no file is ever seen half-written.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import os
import platform
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from deckstat._validate import check_whole
from deckstat._version import __version__
from deckstat.engines import progress
from deckstat.engines.runner import (
    ctrl_c_held,
    fresh_seed,
    process_pool,
)
from deckstat.errors import DeckstatError, param
from deckstat.i18n import tr
from deckstat.present.files import TEMPORARY_PREFIX, atomic_write, check_writable_folder, write_error
from deckstat.present.spreadsheet import PLAIN, csv_bytes, spreadsheet_dialect
from deckstat.results import Result

MANIFEST = "manifest.json"
JOURNAL = "journal.jsonl"
RESULTS_CSV = "results.csv"
RESULTS_PARQUET = "results.parquet"
#: Columns of :attr:`BatchResult.tasks` (and of the manifest's task entries, there with ``id``).
TASK_COLUMNS = ["task_id", "description", "status", "error", "seconds", "seed", "rows"]
#: The task parameters that set how many trials a simulation runs.
TRIAL_PARAMS = ("trials", "precision", "max_trials")
#: Modules the batch's worker processes start with (forked from a server that imported them once).
BATCH_PRELOAD = ["deckstat", "deckstat.batching.tasks"]
#: The status of a task that found one of its files changed since the spec was loaded (it stops the run).
CHANGED = "changed"

RunTask = Callable[[Any, int], pd.DataFrame]


@dataclasses.dataclass(frozen=True, kw_only=True, repr=False)
class BatchResult(Result):
    """The tables of a batch run; see :func:`batch`.

    Attributes
    ----------
    table : pandas.DataFrame
        Every task's rows, in the spec's task order: ``task_id``, ``question``,
        ``deck``, ``game``, the task's parameters, ``seed``, then the
        question's own columns (a column another question lacks is empty there).
        Failed tasks have no rows.
    tasks : pandas.DataFrame
        One row per task: ``task_id``, ``description``, ``status`` (``ok`` or
        ``error``), ``error`` (the message), ``seconds``, ``seed``, ``rows``.
    """

    question: ClassVar[str] = "batch"
    table: pd.DataFrame
    tasks: pd.DataFrame

    @property
    def ok(self) -> bool:
        """Whether every task ran without error."""
        return bool((self.tasks["status"] == "ok").all())

    def _headline(self) -> str:
        failed = int((self.tasks["status"] != "ok").sum())
        return (f"{self.provenance['name']}, {len(self.tasks)} task{'s' if len(self.tasks) != 1 else ''}, "
                f"{failed} failed, seed {self.provenance['seed']}")


# --- what a task gives back -------------------------------------------------------------------------------------

def _plain(value: object) -> object:
    """A table cell as a JSON value: missing values become None, numpy scalars Python ones."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, (pd.Timestamp, datetime)):
        return value.isoformat()
    return value


def _records(table: pd.DataFrame) -> tuple[list[str], list[dict]]:
    columns = [str(c) for c in table.columns]
    rows = [dict(zip(columns, (_plain(v) for v in row))) for row in table.itertuples(index=False, name=None)]
    return columns, rows


def _task_records(run_task: RunTask, task: Any, seed: int) -> tuple[list[str], list[dict]]:
    """A task's columns and rows as JSON values.

    The default :func:`~deckstat.batching.tasks.run_task` gives its cells column by column without building its
    frame (the values are the same, a frame per task costs more than a small question).
    """
    from deckstat.batching import tasks

    if run_task is not tasks.run_task:
        return _records(run_task(task, seed))
    columns, cells = tasks.task_columns(task, seed)
    rows = [dict(zip(columns, (_plain(v) for v in row))) for row in zip(*cells)]
    return columns, rows


def _one_line(exc: BaseException) -> str:
    text = exc.render() if isinstance(exc, DeckstatError) else f"{type(exc).__name__}: {exc}"
    return " ".join(text.split())


def execute(run_task: RunTask, task: Any, seed: int) -> dict:
    """Run one task and return its outcome as JSON-ready values (what the journal records).

    Any exception is caught and recorded as the task's error, so one failing
    task never stops the others. A file the task reads whose bytes are no
    longer those the spec was loaded with gives the status ``changed`` (the
    error is the file's path), before or after the task runs: its rows would
    belong to another version of the file. The outcome records the digests
    of the files it read (``inputs``). This runs where the task runs (this
    process, a worker process, a Dask worker).
    """
    from deckstat.batching.tasks import changed_input

    start = time.perf_counter()
    # The files are checked before and after: a file edited while the task read it is caught either way.
    changed = changed_input(task)
    try:
        if changed is not None:
            columns, rows, status, error = [], [], CHANGED, changed
        else:
            with progress.listening(None):  # the batch counts tasks; a task's own trials would be a second bar
                columns, rows = _task_records(run_task, task, seed)
            status, error = "ok", None
    except Exception as exc:  # the error is the task's result, reported with the task
        columns, rows, status, error = [], [], "error", _one_line(exc)
    if changed is None:
        changed = changed_input(task)
        if changed is not None:
            columns, rows, status, error = [], [], CHANGED, changed
    return {"task_id": task.task_id, "status": status, "seconds": round(time.perf_counter() - start, 6),
            "error": error, "seed": seed, "columns": columns, "rows": rows, "inputs": dict(task.inputs)}


def _column(values: list) -> pd.Series:
    """A column of JSON values with a dtype decided by the values alone (whichever path they came by)."""
    present = [v for v in values if v is not None]
    missing = len(present) < len(values)
    if present and all(isinstance(v, bool) for v in present):
        return pd.Series(values, dtype="boolean" if missing else bool)
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return pd.Series(values, dtype="Int64" if missing else "int64")
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return pd.Series([np.nan if v is None else float(v) for v in values], dtype="float64")
    return pd.Series(values, dtype=object)


def assemble(tasks: tuple, outcomes: Mapping[str, dict]) -> pd.DataFrame:
    """The result table: the rows of each task that ran well, in the spec's task order.

    Columns come in order of first appearance. Built from the outcomes' JSON
    values, so a resumed run (rows read back from the journal) and an
    uninterrupted one give the same table, to the dtype.
    """
    columns: dict[str, None] = {}
    rows: list[dict] = []
    for task in tasks:
        outcome = outcomes.get(task.task_id)
        if outcome is None or outcome["status"] != "ok":
            continue
        columns.update(dict.fromkeys(outcome["columns"]))
        rows.extend(outcome["rows"])
    return pd.DataFrame({c: _column([row.get(c) for row in rows]) for c in columns}, index=pd.RangeIndex(len(rows)))


# --- files ------------------------------------------------------------------------------------------------------

def _write_json(path: Path, value: dict) -> None:
    text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    atomic_write(path, lambda p: p.write_text(text, encoding="utf-8"))


def _parquet_ready(table: pd.DataFrame) -> pd.DataFrame:
    """Columns that mix texts and numbers (a parameter swept over both) written as text, as Parquet needs."""
    out = table.copy()
    for name in out.columns:
        if out[name].dtype == object:
            kinds = {type(v) for v in out[name] if v is not None}
            if len(kinds) > 1 or kinds & {list, dict}:
                out[name] = [None if v is None else (json.dumps(v) if isinstance(v, (list, dict)) else str(v))
                             for v in out[name]]
    return out


class Journal:
    """The finished tasks of a run, one JSON line each, appended as they finish and synced to disk in groups.

    Each line is handed to the operating system whole as its task finishes, so a run that stops (Ctrl-C,
    a crash, ``kill -9``) keeps every finished task. The file is synced to disk at most every
    :data:`SYNC_SECONDS` and when it is closed, not once per task: a sync costs a few milliseconds, more
    than a small task. What a power cut can lose is the lines of the last second or so, which ``--resume``
    runs again.

    Parameters
    ----------
    path : Path
        The ``journal.jsonl`` file.
    """

    #: Longest time between two syncs of the journal to disk while tasks finish.
    SYNC_SECONDS = 1.0

    def __init__(self, path: Path):
        self.path = path
        self._fd: int | None = None
        self._synced = 0  # the length of the file at its last sync
        self._length = 0
        self._last_sync = 0.0

    def read(self) -> dict[str, dict]:
        """The recorded outcomes by task id (a task's last line wins).

        A last line cut short (the run was killed while writing it) is dropped
        and cut off the file, so lines appended next start on a line of
        their own. So is an end of the file that a power cut left as zero
        bytes (written but not yet synced), from its first line that holds one.
        """
        if not self.path.exists():
            return {}
        data = self.path.read_bytes()
        zero = data.find(b"\0")
        if zero >= 0:
            data_end = data.rfind(b"\n", 0, zero) + 1
            os.truncate(self.path, data_end)
            data = data[:data_end]
        *complete, torn = data.split(b"\n")
        outcomes: dict[str, dict] = {}
        for number, line in enumerate(complete, start=1):
            if not line.strip():
                continue
            try:
                outcome = json.loads(line)
                outcomes[outcome["task_id"]] = outcome
            except (ValueError, KeyError, TypeError):
                # Lines are written whole, newline last: a complete line that does not read is damage.
                raise DeckstatError(tr("line {number} is damaged; start the run again with {option}", number=number,
                                       option=param("overwrite")), source=str(self.path)) from None
        if torn:
            os.truncate(self.path, len(data) - len(torn))
        return outcomes

    def append(self, outcome: dict) -> None:
        """Record one finished task; it counts as done once this returns (synced to disk within a second)."""
        line = (json.dumps(outcome, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            if self._fd is None:
                # Held for the run; binary where the system tells text from binary (a newline stays one byte).
                flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
                self._fd = os.open(self.path, flags, 0o666)
                self._synced = self._length = os.fstat(self._fd).st_size
                self._last_sync = time.monotonic()
            try:
                written = 0
                while written < len(line):  # one write but for a signal or a very long line
                    written += os.write(self._fd, line[written:])
            except OSError:
                self._cut(self._length)
                raise
            self._length += len(line)
            if time.monotonic() - self._last_sync >= self.SYNC_SECONDS:
                self._sync()
        except OSError as exc:
            raise self._error(exc) from None

    def _sync(self) -> None:
        """Sync the lines written to disk; when that fails, drop those not synced (their tasks run again)."""
        try:
            os.fsync(self._fd)
        except OSError:
            self._cut(self._synced)
            raise
        self._synced, self._last_sync = self._length, time.monotonic()

    def _error(self, exc: OSError) -> DeckstatError:
        # A full disk, a quota, a folder made read-only: the lines written before stay whole, and --resume
        # goes on from them.
        reason = write_error(exc, self.path).message
        return DeckstatError(tr("{reason}; the tasks finished before are kept in it: make room (or fix the "
                                "folder) and run the same command with {resume}", reason=reason,
                                resume=param("resume")), source=str(self.path))

    def _cut(self, length: int) -> None:
        """Drop what a failed write left past ``length`` bytes (best effort: a torn last line is dropped on read)."""
        fd, self._fd = self._fd, None
        try:
            os.close(fd)
        except OSError:
            pass
        try:
            os.truncate(self.path, length)
        except OSError:
            pass

    def close(self) -> None:
        """Sync the lines not synced yet and close the file (appending again reopens it)."""
        if self._fd is None:
            return
        try:
            if self._length > self._synced:
                self._sync()
        except OSError as exc:
            raise self._error(exc) from None
        finally:
            if self._fd is not None:
                fd, self._fd = self._fd, None
                os.close(fd)


# --- executors --------------------------------------------------------------------------------------------------

def cores() -> int:
    """The cores this process may use (``os.process_cpu_count`` where it exists)."""
    count = getattr(os, "process_cpu_count", os.cpu_count)()
    return max(1, count or 1)


def _failed(task: Any, seed: int, exc: BaseException) -> dict:
    return {"task_id": task.task_id, "status": "error", "seconds": None,
            "error": tr("the worker running it stopped: {reason}", reason=_one_line(exc)), "seed": seed, "columns": [],
            "rows": []}


class InProcess:
    """Runs the tasks one after the other in this process."""

    name = "in-process"

    def __init__(self) -> None:
        self.workers = 1
        self.versions: dict[str, str] = {}

    def __enter__(self) -> InProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        pass

    def run(self, run_task: RunTask, jobs: list[tuple[Any, int]]) -> Iterator[dict]:
        """Yield each task's outcome as it finishes."""
        for task, seed in jobs:
            yield execute(run_task, task, seed)


def _completed(futures: Iterable) -> Iterator:
    """Yield the futures of a local pool as they complete; raise KeyboardInterrupt soon after a stop is asked for.

    A Ctrl-C or SIGTERM raises its interrupt wherever this process is, and
    where that is a destructor or a weakref callback Python drops it: the stop
    request (:func:`deckstat.engines.progress.request_stop`) remains, and a
    wait for a task that may last minutes must see it, not wait the task out.
    One ``as_completed`` serves until a wait passes
    :data:`~deckstat.engines.progress.STOP_LOOK_SECONDS`
    (a wait per future would cost a pass over every pending one each time).
    """
    pending = set(futures)
    while pending:
        progress.stop_if_requested()
        try:
            for future in as_completed(pending, timeout=progress.STOP_LOOK_SECONDS):
                pending.discard(future)
                yield future
        except TimeoutError:  # no task ended in that time: look for a stop, then wait on
            pass


def _completed_on_dask(distributed: Any, futures: list) -> Iterator:
    """:func:`_completed` for the futures of a Dask client (``distributed`` is the module).

    Dask's ``as_completed`` limits its whole run, not one wait, and each new
    one follows every pending future until it ends: one serves, looked at
    every :data:`~deckstat.engines.progress.STOP_LOOK_SECONDS` / 4 while nothing is ready.
    """
    waiting = distributed.as_completed(futures)
    while not waiting.is_empty():
        progress.stop_if_requested()
        ready = waiting.next_batch(block=False)
        if not ready:
            time.sleep(progress.STOP_LOOK_SECONDS / 4)
        yield from ready


class Processes:
    """One pool of local processes for the whole run (forkserver start on POSIX, spawn elsewhere)."""

    name = "processes"

    def __init__(self, workers: int):
        self.workers = workers
        self.versions: dict[str, str] = {}
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> Processes:
        # Workers fork from a server that has loaded what every task needs (the questions, numpy, pandas),
        # instead of each importing it again.
        self._pool = process_pool(self.workers, BATCH_PRELOAD)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc_info: object) -> None:
        if self._pool is None:
            return
        pool, self._pool = self._pool, None
        if exc_type is not None:
            # Ctrl-C, SIGTERM, a changed file or a full disk: a running task may last minutes more, and the pool's
            # shutdown would wait for it. Its worker is stopped instead; the task has no journal line, so --resume
            # runs it again.
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)

    def run(self, run_task: RunTask, jobs: list[tuple[Any, int]]) -> Iterator[dict]:
        """Submit every task, then yield outcomes as they complete."""
        with ctrl_c_held():  # a worker started by a submit is known to the pool before Ctrl-C stops the run
            futures = {self._pool.submit(execute, run_task, task, seed): (task, seed) for task, seed in jobs}
        for future in _completed(futures):
            try:
                yield future.result()
            except Exception as exc:  # a worker that died (BrokenProcessPool) fails its tasks
                yield _failed(*futures[future], exc)


class Dask:
    """A ``distributed.Client`` on an existing scheduler (``tcp://…``) or on a local cluster (``"local"``)."""

    name = "dask"

    def __init__(self, scheduler: str, workers: int):
        self.scheduler = scheduler
        self.workers = workers
        self.versions: dict[str, str] = {}
        self._client = None
        self._cluster = None

    def __enter__(self) -> Dask:
        try:
            import distributed
        except ImportError:
            raise DeckstatError(tr("{option} {scheduler!r} runs on Dask, which is not installed: pip install "
                                   "\"deckstat[distributed]\"", option=param("scheduler"),
                                   scheduler=self.scheduler)) from None
        self._distributed = distributed
        self.versions = {name: metadata.version(name) for name in ("dask", "distributed")}
        try:
            if self.scheduler == "local":
                # Port 0: the scheduler's HTTP server takes a free port on this machine only, so a second
                # cluster (or another program on 8787) does not make it warn or fail.
                self._cluster = distributed.LocalCluster(n_workers=self.workers, threads_per_worker=1,
                                                         processes=True,
                                                         dashboard_address="127.0.0.1:0")
                self._client = distributed.Client(self._cluster)
            else:
                self._client = distributed.Client(self.scheduler, timeout="20s")
                self.workers = len(self._client.scheduler_info().get("workers", {}))
        except (OSError, TimeoutError) as exc:
            self.__exit__()
            raise DeckstatError(tr("{option} {scheduler!r}: cannot reach the Dask scheduler ({reason})",
                                   option=param("scheduler"), scheduler=self.scheduler,
                                   reason=_one_line(exc))) from None
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()

    def run(self, run_task: RunTask, jobs: list[tuple[Any, int]]) -> Iterator[dict]:
        """Submit every task to the cluster, then yield outcomes as they complete."""
        run_id = uuid.uuid4().hex[:8]
        futures = {}
        for task, seed in jobs:
            future = self._client.submit(execute, run_task, task, seed, pure=False,
                                         key=f"deckstat-batch-{run_id}-{task.task_id}")
            futures[future.key] = (future, task, seed)
        try:
            for future in _completed_on_dask(self._distributed, [f for f, _, _ in futures.values()]):
                _, task, seed = futures[future.key]
                try:
                    yield future.result()
                except Exception as exc:  # a lost worker (KilledWorker) fails its task
                    yield _failed(task, seed, exc)
        finally:
            self._client.cancel([f for f, _, _ in futures.values()])


#: Seconds to start a local Dask cluster of two workers and stop it (measured on a 2-core machine: 4 to 5 s).
DASK_LOCAL_START_SECONDS = 4.0
#: Seconds to reach a running Dask scheduler and learn its workers.
DASK_CONNECT_SECONDS = 0.5
#: Seconds of a Dask cluster's hand-over of one task (submit, schedule, gather its outcome).
DASK_TASK_SECONDS = 0.005


def dask_worth(work: float, tasks: int, workers: int, *, local: bool) -> dict:
    """Whether a Dask cluster saves time on a batch: its start and hand-overs against what its workers save.

    A Dask cluster is never the default (:func:`batch` runs on local processes unless a scheduler is given);
    this says whether the one asked for pays.

    Parameters
    ----------
    work : float
        The batch's estimated seconds of work on one worker (:func:`plan`'s sum).
    tasks : int
        The tasks it hands over.
    workers : int
        The cluster's workers.
    local : bool
        A cluster started for the run (``scheduler="local"``), else one already running.

    Returns
    -------
    dict
        ``work_seconds``, ``overhead_seconds`` (start and hand-overs), ``workers``, and ``pays``: whether
        the run on the cluster is estimated shorter than in this process, one task after another.

    Examples
    --------
    >>> dask_worth(2.0, 20, 2, local=True)["pays"], dask_worth(600.0, 20, 2, local=True)["pays"]
    (False, True)
    """
    overhead = (DASK_LOCAL_START_SECONDS if local else DASK_CONNECT_SECONDS) + tasks * DASK_TASK_SECONDS
    return {"work_seconds": work, "overhead_seconds": overhead, "workers": workers,
            "pays": overhead + work / max(1, workers) < work}


def _dask_estimate(pending: list, workers: int, scheduler: str) -> dict | None:
    """:func:`dask_worth` for the pending tasks, from the cost models (None when a task cannot be estimated)."""
    from deckstat.batching.estimate import Estimator

    estimator = Estimator()
    work = 0.0
    for task in pending:
        try:
            seconds = estimator.estimate(task).seconds
        except DeckstatError:  # the task will say what is wrong when it runs
            return None
        if seconds is None:
            return None
        work += seconds
    return dask_worth(work, len(pending), workers, local=scheduler == "local")


def _executor(workers: int | None, scheduler: str | None, n_pending: int) -> InProcess | Processes | Dask:
    if scheduler is not None and n_pending:
        return Dask(scheduler, max(1, min(workers or cores(), n_pending)))
    count = min(workers or cores(), n_pending)
    return Processes(count) if count > 1 else InProcess()


# --- the run ----------------------------------------------------------------------------------------------------

def _load(spec: Any):
    """A Spec from a path or a mapping; anything else is taken as an already loaded Spec."""
    if isinstance(spec, (str, os.PathLike, Mapping)):
        from deckstat.batching.spec import load_spec

        return load_spec(spec)
    return spec


def _default_run_task() -> RunTask:
    from deckstat.batching.tasks import run_task

    return run_task


def _check_scheduler(scheduler: object) -> str | None:
    if scheduler is None:
        return None
    if not isinstance(scheduler, str) or not (scheduler == "local" or "://" in scheduler):
        raise DeckstatError(tr("{name} must be \"local\" (a Dask cluster on this machine) or a scheduler address "
                               "such as tcp://host:8786, got {value!r}", name=param("scheduler"), value=scheduler))
    return scheduler


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _versions(extra: Mapping[str, str], parquet: bool) -> dict[str, str]:
    found = {"deckstat": __version__, "python": platform.python_version()}
    for name in ("numpy", "scipy", "pandas") + (("pyarrow",) if parquet else ()):
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return {**found, **extra}


def _previous(folder: Path | None, spec: Any, *, resume: bool, overwrite: bool) -> dict | None:
    """The manifest of the run to resume (None: start afresh), after refusing what cannot go on."""
    if folder is None:
        return None
    manifest_path, journal_path = folder / MANIFEST, folder / JOURNAL
    if folder.exists() and not folder.is_dir():
        raise DeckstatError(tr("{option} {folder!r} is a file; give a folder for the results", option=param("out"),
                               folder=str(folder)))
    # Up front: a read-only folder (or file system) is refused in one line before anything runs or is deleted.
    check_writable_folder(folder)
    exists = manifest_path.exists() or journal_path.exists()
    if overwrite:
        for name in (MANIFEST, JOURNAL, RESULTS_CSV, RESULTS_PARQUET):
            _remove(folder / name)
        return None
    # Results with no run to go with them (another program's, or a run whose manifest was deleted) would be
    # deleted when the run starts: only --overwrite may do that.
    results = [name for name in (RESULTS_CSV, RESULTS_PARQUET) if (folder / name).exists()]
    if results and not exists:
        raise DeckstatError(tr("{folder} holds {file} already, from no run deckstat can resume; {overwrite} to "
                               "replace it, or another {out} folder", folder=folder, file=results[0],
                               overwrite=param("overwrite"), out=param("out")))
    if exists and not resume:
        raise DeckstatError(tr("{folder} holds a run already; add {resume} to finish it, or {overwrite} to start "
                               "again", folder=folder, resume=param("resume"), overwrite=param("overwrite")))
    if not exists:
        return None
    if not manifest_path.exists():
        raise DeckstatError(tr("{folder} has a journal but no {manifest}; start again with {option}", folder=folder,
                               manifest=MANIFEST, option=param("overwrite")))
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        digest = manifest["digest"]
    except (ValueError, KeyError, TypeError):
        raise DeckstatError(tr("this is not a deckstat batch manifest; start again with {option}",
                               option=param("overwrite")), source=str(manifest_path)) from None
    if isinstance(manifest.get("inputs"), dict) and "spec_digest" in manifest:
        # Files are followed one by one: a changed one only sends the tasks that read it to run again.
        if manifest["spec_digest"] != spec.spec_digest:
            raise DeckstatError(tr("the spec changed since the run in {folder} started (its questions, decks or "
                                   "parameters), so its rows would not belong together; {overwrite} to start again, "
                                   "or another {out} folder", folder=folder, overwrite=param("overwrite"),
                                   out=param("out")))
        return manifest
    if digest != spec.digest:  # a run recorded before files were followed one by one
        raise DeckstatError(tr("the spec or a file it uses changed since the run in {folder} started, so its rows "
                               "would not belong together; {overwrite} to start again, or another {out} folder",
                               folder=folder, overwrite=param("overwrite"), out=param("out")))
    return manifest


def _remove(path: Path) -> None:
    """Delete ``path`` if it exists; a file that cannot be deleted is a :class:`DeckstatError` naming it."""
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        raise write_error(exc, path) from None


def _changed(previous: Mapping | None, spec: Any) -> list[str]:
    """The files of a resumed run whose bytes differ from those it started with (or that it did not use)."""
    recorded = (previous or {}).get("inputs")
    if not isinstance(recorded, dict):
        return []
    return [path for path, digest in spec.inputs if recorded.get(path) != digest]


def batch(spec: Any, out: str | os.PathLike | None = None, *, workers: int | None = None,
          scheduler: str | None = None, resume: bool = False, overwrite: bool = False,
          run_task: RunTask | None = None, excel: bool = False) -> BatchResult:
    """Run every task of a batch spec and gather their tables into one tidy table.

    Parameters
    ----------
    spec : path, mapping or Spec
        The TOML spec file, the same content as a dict, or a loaded spec
        (:func:`deckstat.batching.load_spec`).
    out : path, optional
        Folder for ``results.csv`` (and ``results.parquet`` when pyarrow is
        installed), ``manifest.json`` and ``journal.jsonl``. None keeps the
        results in memory only (nothing to resume).
    workers : int, optional
        Processes (or Dask workers with ``scheduler="local"``). Default: the
        machine's cores, capped at the number of tasks; 1 runs in this process.
    scheduler : str, optional
        ``"tcp://host:8786"`` runs the tasks on that Dask cluster (its
        workers need deckstat and the spec's files at the same paths);
        ``"local"`` starts a Dask cluster on this machine for the run.
    resume : bool
        Finish the run in ``out``: tasks recorded in its journal are not run
        again, failed ones are. Refused when the spec or one of its files
        changed. With no run in ``out`` yet, the run starts afresh.
    overwrite : bool
        Delete the run in ``out`` (its four files) and start again.
    run_task : callable, optional
        ``run_task(task, seed) -> DataFrame`` (default:
        :func:`deckstat.batching.run_task`); must be picklable for processes and Dask.
    excel : bool
        Write ``results.csv`` in the spreadsheet dialect of the current
        language (:mod:`deckstat.present.spreadsheet`: in French ``;`` and a
        decimal comma, UTF-8 with a byte order mark) instead of plain CSV;
        the manifest's ``results_csv`` says which.

    Returns
    -------
    BatchResult
        ``table`` holds every task's rows in spec order; ``tasks`` each
        task's status. The seed is ``spec.seed``, else the resumed run's, else
        a fresh one, recorded in ``provenance["seed"]``: the table is the
        same whatever the executor, the worker count and the order tasks end in.
        On a Dask cluster, ``provenance["dask_estimate"]`` says whether the
        cluster was estimated to pay (:func:`dask_worth`); None otherwise.

    Raises
    ------
    DeckstatError
        For a bad spec or option, an existing run in ``out`` without
        ``resume`` or ``overwrite``, or a spec changed since the run to resume.
        A failing task raises nothing: its error is in ``tasks``.
    """
    if resume and overwrite:
        raise DeckstatError(tr("give {resume} or {overwrite}, not both", resume=param("resume"),
                               overwrite=param("overwrite")))
    if out is None and (resume or overwrite):
        raise DeckstatError(tr("{option} needs the {out} folder of a run",
                               option=param("resume" if resume else "overwrite"), out=param("out")))
    workers = None if workers is None else check_whole(workers, "workers", minimum=1)
    scheduler = _check_scheduler(scheduler)
    spec = _load(spec)
    run_task = run_task or _default_run_task()
    folder = None if out is None else Path(out)
    previous = _previous(folder, spec, resume=resume, overwrite=overwrite)
    seed = spec.seed if spec.seed is not None else previous["seed"] if previous else fresh_seed()
    from deckstat.batching.tasks import SEED_SCHEME

    # A run started before task seeds had at most 11 digits goes on with the seeds it started with.
    scheme = previous.get("seed_scheme", 1) if previous else SEED_SCHEME

    journal = Journal(folder / JOURNAL) if folder is not None else None
    unique: dict[str, Any] = {}
    for task in spec.tasks:  # a task listed twice runs once; its rows appear at each of its places
        unique.setdefault(task.task_id, task)
    outcomes = {}
    for tid, outcome in (journal.read().items() if previous else ()):
        task = unique.get(tid)
        # Rows made from another version of a file the task reads are dropped: the task runs again.
        if outcome["status"] == "ok" and task is not None and outcome.get("inputs", dict(task.inputs)) == \
                dict(task.inputs):
            outcomes[tid] = outcome
    changed = _changed(previous, spec)
    rerun = sum(1 for tid, task in unique.items() if tid not in outcomes and previous is not None
                and any(path in changed for path, _ in task.inputs))
    pending = [task for tid, task in unique.items() if tid not in outcomes]
    parquet = importlib.util.find_spec("pyarrow") is not None

    executor = _executor(workers, scheduler, len(pending))
    with executor:
        # Estimated once the cluster's workers are known (a running scheduler says how many it has).
        dask_estimate = _dask_estimate(pending, executor.workers, scheduler) if isinstance(executor, Dask) else None
        manifest = {
            "name": spec.name, "source": None if spec.source is None else str(spec.source), "digest": spec.digest,
            "spec_digest": spec.spec_digest, "inputs": dict(spec.inputs),
            "spec": spec.to_dict(), "seed": seed, "seed_scheme": scheme,
            "versions": _versions(executor.versions, parquet and folder is not None),
            "executor": executor.name, "workers": executor.workers,
            "scheduler": scheduler, "started": previous["started"] if previous else _now(),
            "resumed": [*previous.get("resumed", []), _now()] if previous else [], "ended": None,
            "status": "running", "tasks": [],
        }
        if folder is not None:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise write_error(exc, folder) from None
            for name in (RESULTS_CSV, RESULTS_PARQUET):
                _remove(folder / name)
            for stale in folder.glob(f"{TEMPORARY_PREFIX}*"):
                _remove(stale)
            manifest["tasks"] = _task_entries(unique, outcomes, seed, scheme)
            _write_json(folder / MANIFEST, manifest)
        try:
            with progress.track(tr("batch {name}", name=spec.name), total=len(unique), unit="tasks") as bar:
                bar.advance(len(unique) - len(pending))
                for outcome in executor.run(run_task, [(task, task.seed(seed, scheme)) for task in pending]):
                    progress.stop_if_requested()
                    if outcome["status"] == CHANGED:
                        raise _changed_error(outcome, folder)
                    if journal is not None:
                        journal.append(outcome)
                    outcomes[outcome["task_id"]] = outcome
                    bar.advance(1)
        finally:
            if journal is not None:
                journal.close()

    table = assemble(spec.tasks, outcomes)
    entries = _task_entries(unique, outcomes, seed, scheme)
    failed = any(entry["status"] != "ok" for entry in entries)
    manifest.update(tasks=entries, ended=_now(), status="failed" if failed else "complete")
    if folder is not None:
        dialect = spreadsheet_dialect() if excel else PLAIN
        manifest["results_csv"] = {"sep": dialect.sep, "decimal": dialect.decimal, "encoding": dialect.encoding}
        atomic_write(folder / RESULTS_CSV, lambda p: p.write_bytes(csv_bytes(table, dialect)))
        if parquet:
            atomic_write(folder / RESULTS_PARQUET, lambda p: _parquet_ready(table).to_parquet(p, index=False))
        _write_json(folder / MANIFEST, manifest)
    tasks = pd.DataFrame([{"task_id": e["id"], **{k: e[k] for k in TASK_COLUMNS[1:]}} for e in entries],
                         columns=TASK_COLUMNS)
    tasks["seconds"] = tasks["seconds"].astype("float64")
    tasks["rows"] = tasks["rows"].astype("Int64")
    provenance = {key: value for key, value in manifest.items() if key != "tasks"}
    provenance["out"] = None if folder is None else str(folder)
    provenance["changed_inputs"] = changed
    provenance["rerun"] = rerun
    provenance["dask_estimate"] = dask_estimate
    return BatchResult(table=table, tasks=tasks, provenance=provenance)


def _changed_error(outcome: Mapping, folder: Path | None) -> DeckstatError:
    """The error that stops a run when a task found one of its files changed since the spec was loaded."""
    if folder is None:
        return DeckstatError(tr("changed while the batch ran (task {task} reads it): its rows would mix two versions "
                                "of the file; run the batch again", task=outcome["task_id"]), source=outcome["error"])
    return DeckstatError(tr("changed while the batch ran (task {task} reads it): its rows would mix two versions of "
                            "the file; the finished tasks are kept in {journal}: run the same command with {resume} "
                            "to run again those that read it", task=outcome["task_id"], journal=folder / JOURNAL,
                            resume=param("resume")), source=outcome["error"])


def _task_entries(unique: Mapping[str, Any], outcomes: Mapping[str, dict], seed: int, scheme: int) -> list[dict]:
    entries = []
    for tid, task in unique.items():
        outcome = outcomes.get(tid)
        entries.append({
            "id": tid, "description": task.describe(),
            "status": "pending" if outcome is None else outcome["status"],
            "error": None if outcome is None else outcome["error"],
            "seconds": None if outcome is None else outcome["seconds"],
            "seed": task.seed(seed, scheme), "rows": None if outcome is None else len(outcome["rows"]),
        })
    return entries


# --- the dry run ------------------------------------------------------------------------------------------------

def _params(task: Any) -> dict:
    return dict(task.params)


def _spec_text(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return "; ".join(_spec_text(v) for v in value)
    return str(value)


def _with_params(task: Any, params: Mapping[str, object]) -> Any:
    return dataclasses.replace(task, params=tuple(sorted(params.items())))


def plan(spec: Any, *, estimate: bool = True) -> pd.DataFrame:
    """The tasks a run would execute, with the method each uses and an estimate of its time; runs no task.

    The estimate comes from the cost models alone (:mod:`deckstat.batching.estimate`):
    the exact engine's predicted cost, which ``auto`` uses to choose the
    method, for exact answers; the trials times a measured time per trial
    for simulated ones (a ``precision`` task counted at its worst case, a
    proportion of 1/2); a fixed time per task for the rest. What tasks
    share (decks, compiled events, predicted costs) is worked out once.

    Parameters
    ----------
    spec : path, mapping or Spec
    estimate : bool
        False lists the tasks without estimating them (no method, no time).

    Returns
    -------
    pandas.DataFrame
        One row per task in spec order: ``task_id``, ``deck``, ``question``,
        ``swept`` (the swept values), ``method`` (``exact``, ``simulate``,
        ``exact + simulate``, or ``error``), ``trials`` (simulated trials,
        empty for exact tasks), ``seconds`` (estimated time on one worker),
        ``estimate`` (``model``; ``at most`` for a precision task, counted at
        its worst case; or why there is none) and ``description``.
    """
    from deckstat.batching.estimate import Estimator

    spec = _load(spec)
    estimator = Estimator()
    rows = []
    for task in spec.tasks:
        params = _params(task)
        row = {"task_id": task.task_id, "deck": " vs ".join(d.label for d in task.decks), "question": task.question,
               "swept": ", ".join(f"{k}={_spec_text(params.get(k))}" for k in task.swept),
               "method": None, "trials": None, "seconds": None, "estimate": "not estimated",
               "description": task.describe()}
        rows.append(row)
        if not estimate:
            continue
        try:
            found = estimator.estimate(task)
        except DeckstatError as exc:  # a combination only the task itself refuses: shown against it
            row["method"], row["estimate"] = "error", _one_line(exc)
            continue
        row.update(method=found.method, trials=found.trials, seconds=found.seconds, estimate=found.how)
    table = pd.DataFrame(rows, columns=["task_id", "deck", "question", "swept", "method", "trials", "seconds",
                                        "estimate", "description"])
    table["trials"] = table["trials"].astype("Int64")
    table["seconds"] = table["seconds"].astype("float64")
    table.attrs["name"] = spec.name
    return table
