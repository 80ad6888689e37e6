"""The batch runner: executors, journal and resume, manifest, output files, exit codes, dry run."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest
from helpers import DATA, assert_user_error, run
from scipy.stats import hypergeom

from deckstat.batching import plan
from deckstat.batching.run import JOURNAL, MANIFEST, RESULTS_CSV, RESULTS_PARQUET, Journal, batch
from deckstat.engines import progress
from deckstat.engines.runner import BLOCK_TRIALS
from deckstat.errors import DeckstatError
from deckstat.present.files import TEMPORARY_PREFIX

TESTS = Path(__file__).resolve().parent


# --- specs ------------------------------------------------------------------------------------------------------

DECK = DATA / "wankul" / "sample_deck.csv"


def write_spec(folder: Path, body: str, *, name: str = "grid", seed: int | None = 20261130) -> Path:
    head = f'name = "{name}"\n' + (f"seed = {seed}\n" if seed is not None else "")
    head += f'[decks.wankul]\npath = "{DECK.as_posix()}"\ngame = "wankul"\n'
    path = folder / f"{name}.toml"
    path.write_text(head + textwrap.dedent(body), encoding="utf-8")
    return path


#: 2 exact tasks (no mulligan: P(Terrain>=1 in 5 cards) is hypergeometric) then 10 simulated ones.
SMALL = """
[[questions]]
question = "odds"
event = "Terrain>=1"
turns = "0"
mulligan = false
[questions.sweep]
seat = ["first", "second"]

[[questions]]
question = "odds"
event = ["Terrain>=1", "Terrain>=2"]
turns = "0-2"
method = "simulate"
[questions.sweep]
seat = ["first", "second"]
trials = [1000, 1500, 2000, 2500, 3000]
"""

#: 30 simulated tasks of a few tens of milliseconds each.
THIRTY = """
[[questions]]
question = "odds"
event = "Terrain>=2"
turns = "0-4"
method = "simulate"
[questions.sweep]
seat = ["first", "second"]
mulligan_rule = ["bottom", "london", "vancouver"]
trials = [4000, 4100, 4200, 4300, 4400]
"""

FAILING = """
[[questions]]
question = "odds"
event = "Terrain>=1"
turns = "0-2"
trials = 2000
[questions.sweep]
seat = ["first", "second"]

[[questions]]
question = "odds"
event = "Terrain>=2"
turns = "0"
method = "simulate"
precision = 0.0001
max_trials = 1e6
"""


def load(path: Path):
    from deckstat.batching.spec import load_spec

    return load_spec(path)


def csv_bytes(folder: Path) -> bytes:
    return (folder / RESULTS_CSV).read_bytes()


def manifest(folder: Path) -> dict:
    return json.loads((folder / MANIFEST).read_text(encoding="utf-8"))


# --- (a) the same table whatever runs it --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def dask_address():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address="127.0.0.1:0") as cluster:
        yield cluster.scheduler_address
    # Dask keeps a thread of its own for good (its offload executor): ended here, so that the test files run after
    # this one in this process find one thread, as a command does, and deckstat copies the process as it would there.
    offload = getattr(distributed.utils, "_offload_executor", None)
    if offload is not None:
        offload.shutdown(wait=True)


@pytest.fixture(scope="module")
def small_runs(tmp_path_factory, dask_address):
    folder = tmp_path_factory.mktemp("small")
    spec = write_spec(folder, SMALL)
    runs = {
        "in-process": batch(spec, folder / "in-process", workers=1),
        "processes": batch(spec, folder / "processes", workers=2),
        "dask": batch(spec, folder / "dask", scheduler=dask_address),
    }
    return folder, spec, runs


def test_table_is_the_same_whatever_runs_it(small_runs):
    folder, _, runs = small_runs
    assert {name: r.provenance["executor"] for name, r in runs.items()} == {
        "in-process": "in-process", "processes": "processes", "dask": "dask"}
    assert runs["processes"].provenance["workers"] == runs["dask"].provenance["workers"] == 2
    reference = csv_bytes(folder / "in-process")
    assert csv_bytes(folder / "processes") == reference
    assert csv_bytes(folder / "dask") == reference
    for result in runs.values():
        pd.testing.assert_frame_equal(result.table, runs["in-process"].table)


def test_rows_follow_the_spec_and_exact_rows_are_hypergeometric(small_runs):
    _, spec_path, runs = small_runs
    table = runs["in-process"].table
    spec = load(spec_path)
    # Rows come task by task in spec order: 2 exact tasks of 1 row, then 10 tasks of 2 events x 3 turns.
    expected_ids = [t.task_id for t in spec.tasks[:2]] + [t.task_id for t in spec.tasks[2:] for _ in range(6)]
    assert table["task_id"].tolist() == expected_ids
    assert list(table.columns[:4]) == ["task_id", "question", "deck", "game"]
    exact = table[table["method"] == "exact"]
    # 10 Terrains in 50 cards, 5 in hand, no mulligan: P(at least one) = 1 - P(none).
    p_none = hypergeom(M=50, n=10, N=5).pmf(0)
    assert exact["p"].to_numpy() == pytest.approx([1 - p_none] * 2, abs=1e-12)
    assert table["seed"].tolist()[:2] == [t.seed(20261130) for t in spec.tasks[:2]]
    tasks = runs["in-process"].tasks
    assert tasks["status"].tolist() == ["ok"] * 12 and tasks["rows"].tolist() == [1, 1] + [6] * 10


def test_parquet_holds_the_csv_table(small_runs):
    pytest.importorskip("pyarrow")
    folder, _, _ = small_runs
    from_csv = pd.read_csv(folder / "in-process" / RESULTS_CSV)
    from_parquet = pd.read_parquet(folder / "in-process" / RESULTS_PARQUET)
    assert list(from_parquet.columns) == list(from_csv.columns)
    pd.testing.assert_series_equal(from_parquet["p"], from_csv["p"])


def test_manifest_records_how_the_run_was_made(small_runs):
    folder, spec_path, runs = small_runs
    record = manifest(folder / "dask")
    assert record["status"] == "complete" and record["seed"] == 20261130
    assert record["digest"] == load(spec_path).digest
    assert {"deckstat", "python", "numpy", "scipy", "pandas", "dask", "distributed"} <= set(record["versions"])
    assert [t["id"] for t in record["tasks"]] == runs["dask"].tasks["task_id"].tolist()
    assert {t["status"] for t in record["tasks"]} == {"ok"}
    journal = (folder / "dask" / JOURNAL).read_text(encoding="utf-8").splitlines()
    assert len(journal) == 12 and {json.loads(line)["status"] for line in journal} == {"ok"}


def test_run_task_can_be_passed_and_the_seed_drawn(tmp_path):
    from deckstat.batching.tasks import run_task

    spec = load(write_spec(tmp_path, SMALL, seed=None))
    seen = []

    def counting(task, seed):
        seen.append(task.task_id)
        return run_task(task, seed)

    result = batch(spec, workers=1, run_task=counting)
    assert seen == [t.task_id for t in spec.tasks]
    drawn = result.provenance["seed"]
    assert isinstance(drawn, int) and result.tasks["seed"].tolist() == [t.seed(drawn) for t in spec.tasks]


def test_progress_counts_tasks(tmp_path):
    reports = []

    class Recorder(progress.Progress):
        def __init__(self, description, total, unit):
            self.report = [description, total, unit, 0]
            reports.append(self.report)

        def advance(self, amount=1):
            self.report[3] += amount

    with progress.listening(Recorder):
        batch(write_spec(tmp_path, SMALL), workers=1)
    # One bar, counting tasks: the simulations inside the tasks do not add bars of their own.
    assert reports == [["batch grid", 12, "tasks", 12]]


# --- (b) kill -9 at any moment, then --resume -------------------------------------------------------------------

DRIVER = "import sys; from deckstat.cli import main; sys.argv = ['deckstat'] + {args!r}; main()"


def cli_process(*args: str) -> subprocess.Popen:
    code = DRIVER.format(args=[str(a) for a in args])
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def journal_lines(folder: Path) -> int:
    try:
        return (folder / JOURNAL).read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def kill_when(process: subprocess.Popen, ready, timeout: float = 60) -> bool:
    """SIGKILL the process (and its workers) once ``ready()``; False when it ended first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            process.communicate()
            return False
        if ready():
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return True
        time.sleep(0.002)
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate()
    pytest.fail("the run neither ended nor reached the moment to kill it")


def test_kill_at_any_moment_then_resume_gives_the_uninterrupted_rows(tmp_path):
    spec = write_spec(tmp_path, THIRTY)
    reference = tmp_path / "reference"
    batch(spec, reference, workers=1)
    out = tmp_path / "out"
    started = time.monotonic()
    moments = [("after 0.3 s", "--workers", "1", lambda: time.monotonic() - started > 0.3),
               ("after 3 tasks", "--workers", "2", lambda: journal_lines(out) >= 3),
               ("after 15 tasks", "--workers", "1", lambda: journal_lines(out) >= 15),
               ("once every task is done", "--workers", "2", lambda: journal_lines(out) >= 30)]
    killed = []
    for moment, flag, workers, ready in moments:
        started = time.monotonic()
        process = cli_process("batch", spec, "--out", out, "--resume", flag, workers, "--quiet")
        if kill_when(process, ready):
            killed.append(moment)
            status = manifest(out)["status"] if (out / MANIFEST).exists() else None
            assert status in (None, "running"), moment
            if moment != "once every task is done":
                assert not (out / RESULTS_CSV).exists() and not (out / RESULTS_PARQUET).exists(), moment
            else:  # killed while writing the results: a file there is whole (written under another name first)
                assert not (out / RESULTS_CSV).exists() or csv_bytes(out) == csv_bytes(reference)
    assert len(killed) >= 3, killed
    final = cli_process("batch", spec, "--out", out, "--resume", "--quiet")
    stdout, stderr = final.communicate(timeout=120)
    assert final.returncode == 0, stderr.decode()
    assert csv_bytes(out) == csv_bytes(reference)
    assert manifest(out)["status"] == "complete"
    assert not list(out.glob(f"{TEMPORARY_PREFIX}*"))


def test_workers_end_when_their_parent_is_killed(tmp_path):
    spec = write_spec(tmp_path, THIRTY)
    out = tmp_path / "out"
    process = cli_process("batch", spec, "--out", out, "--workers", "2", "--quiet")
    deadline = time.monotonic() + 60
    while journal_lines(out) < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert process.poll() is None, "the run ended before its workers could be checked"
    process.kill()  # the parent alone, with no chance to shut its pool down
    try:  # not reaped yet, the parent stays a zombie: its workers must not take that for a live parent
        process.communicate(timeout=15)  # the output pipes close when the last process holding them has ended
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail("worker processes outlived their killed parent")
    # The workers (and the server they fork from) share the killed process's group: it must empty itself.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.killpg(process.pid, signal.SIGKILL)
        pytest.fail("worker processes outlived their killed parent")


def test_a_torn_last_journal_line_is_dropped(tmp_path):
    path = tmp_path / JOURNAL
    whole = json.dumps({"task_id": "a", "status": "ok", "rows": []}) + "\n"
    path.write_text(whole + '{"task_id": "b", "sta', encoding="utf-8")
    journal = Journal(path)
    assert list(journal.read()) == ["a"]
    assert path.read_text(encoding="utf-8") == whole
    journal.append({"task_id": "c", "status": "ok", "rows": []})
    journal.close()
    assert list(Journal(path).read()) == ["a", "c"]
    path.write_text('{"task_id": "b", "sta\n' + whole, encoding="utf-8")
    with pytest.raises(DeckstatError, match="line 1 is damaged"):
        Journal(path).read()


# --- (c) a failing task -----------------------------------------------------------------------------------------

def test_a_failing_task_is_recorded_and_the_others_run(tmp_path):
    spec = write_spec(tmp_path, FAILING)
    result = run("batch", spec, "--out", tmp_path / "out", "--workers", "1", "--quiet")
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    record = manifest(tmp_path / "out")
    assert record["status"] == "failed"
    statuses = [t["status"] for t in record["tasks"]]
    assert statuses == ["ok", "ok", "error"]
    # The precision asked needs about 7e7 trials: known only once the first block has estimated p.
    assert "more than max_trials 1e6" in record["tasks"][2]["error"] and "\n" not in record["tasks"][2]["error"]
    assert "more than max_trials 1e6" in result.stderr and record["tasks"][2]["id"] in result.stderr
    table = pd.read_csv(tmp_path / "out" / RESULTS_CSV)
    assert table["task_id"].unique().tolist() == [t["id"] for t in record["tasks"][:2]]
    assert len(table) == 6
    # Resuming runs the failed task again (its error comes back the same), and nothing else.
    again = run("batch", spec, "--out", tmp_path / "out", "--resume", "--quiet")
    assert again.exit_code == 1
    lines = (tmp_path / "out" / JOURNAL).read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["status"] for line in lines] == ["ok", "ok", "error", "error"]


# --- (d) runs that must not go on ----------------------------------------------------------------------------------

def test_an_existing_run_is_not_overwritten_without_asking(tmp_path):
    spec = write_spec(tmp_path, FAILING.split("[[questions]]")[1].join(["[[questions]]", ""]))
    out = tmp_path / "out"
    assert run("batch", spec, "--out", out, "--workers", "1", "--quiet").exit_code == 0
    before = csv_bytes(out)
    assert_user_error(run("batch", spec, "--out", out, "--quiet"), "--resume", "--overwrite", str(out))
    assert csv_bytes(out) == before
    assert_user_error(run("batch", spec, "--out", out, "--resume", "--overwrite"), "--resume", "--overwrite")
    assert run("batch", spec, "--out", out, "--overwrite", "--workers", "1", "--quiet").exit_code == 0
    assert csv_bytes(out) == before
    assert len((out / JOURNAL).read_text(encoding="utf-8").splitlines()) == 2


def test_resume_refuses_a_changed_spec(tmp_path):
    spec = write_spec(tmp_path, FAILING.split("[[questions]]")[1].join(["[[questions]]", ""]))
    out = tmp_path / "out"
    assert run("batch", spec, "--out", out, "--workers", "1", "--quiet").exit_code == 0
    spec.write_text(spec.read_text(encoding="utf-8").replace("trials = 2000", "trials = 3000"), encoding="utf-8")
    line = assert_user_error(run("batch", spec, "--out", out, "--resume"), "changed", "--overwrite")
    assert str(out) in line
    assert manifest(out)["status"] == "complete"


def test_bad_options_are_one_line_errors(tmp_path):
    spec = write_spec(tmp_path, SMALL)
    assert_user_error(run("batch", spec, "--out", tmp_path / "o", "--workers", "0"), "--workers")
    assert_user_error(run("batch", spec, "--out", tmp_path / "o", "--scheduler", "nowhere"), "--scheduler",
                      "tcp://")
    assert_user_error(run("batch", spec), "--out", "--dry-run")
    assert not (tmp_path / "o").exists()


@pytest.mark.slow  # the client retries the connection for 20 s before it gives up
@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="needs dask.distributed")
def test_an_unreachable_scheduler_is_a_one_line_error(tmp_path):
    spec = write_spec(tmp_path, SMALL)
    with pytest.raises(DeckstatError, match="cannot reach the Dask scheduler"):
        batch(spec, tmp_path / "o", scheduler="tcp://127.0.0.1:9")
    assert not (tmp_path / "o" / MANIFEST).exists()


def test_a_dask_cluster_is_never_the_default_and_one_that_does_not_pay_is_said(tmp_path, dask_address):
    spec = write_spec(tmp_path, SMALL)
    default = batch(spec, workers=2)
    assert default.provenance["executor"] == "processes" and default.provenance["dask_estimate"] is None
    # A dozen tasks of milliseconds: the cluster's hand-overs cost more than its two workers save.
    for lang, words in (("en", "cost more than its 2 workers save"), ("fr", "coûtent plus que ne font gagner")):
        result = run("batch", spec, "--out", tmp_path / lang, "--scheduler", dask_address, "-q", "--lang", lang)
        assert result.exit_code == 0, result.output
        notes = [line for line in result.output.splitlines() if words in line]
        assert len(notes) == 1 and "--scheduler" in notes[0], result.output
    on_dask = batch(spec, scheduler=dask_address)
    assert on_dask.provenance["dask_estimate"]["pays"] is False
    assert on_dask.table.equals(default.table)


def test_a_long_batch_pays_on_dask_and_a_short_one_does_not():
    from deckstat.batching.run import DASK_LOCAL_START_SECONDS, dask_worth

    assert not dask_worth(DASK_LOCAL_START_SECONDS, 100, 8, local=True)["pays"]
    assert dask_worth(10 * DASK_LOCAL_START_SECONDS, 100, 2, local=True)["pays"]
    assert dask_worth(2.0, 10, 4, local=False)["pays"] and not dask_worth(2.0, 10, 1, local=False)["pays"]


# --- (e) the dry run --------------------------------------------------------------------------------------------

def test_dry_run_lists_the_tasks_and_writes_nothing(tmp_path):
    spec = write_spec(tmp_path, SMALL)
    before = sorted(tmp_path.iterdir())
    result = run("batch", spec, "--out", tmp_path / "out", "--dry-run")
    assert result.exit_code == 0, result.output
    assert sorted(tmp_path.iterdir()) == before
    assert "12 tasks" in result.stdout
    assert "12 estimated from the cost models" in result.stdout
    loaded = load(spec)
    for task in loaded.tasks:
        assert task.task_id in result.stdout


def test_plan_gives_methods_trials_and_estimates(tmp_path):
    spec = write_spec(tmp_path, SMALL + """
[[questions]]
question = "odds"
event = "Terrain>=1"
turns = "0-2"
precision = 0.01
mulligan_rule = "london"
""")
    table = plan(spec)
    assert table["method"].tolist() == ["exact"] * 2 + ["simulate"] * 11
    assert table["estimate"].tolist() == ["model"] * 12 + ["at most"]
    assert table["trials"].tolist()[2:12] == [1000, 1500, 2000, 2500, 3000] * 2
    # A precision run is counted at its worst case, p = 1/2: 1.96²/(4·0.01²) ≈ 9604 trials, one block of the runner.
    assert table["trials"].iloc[12] == BLOCK_TRIALS
    assert (table["seconds"] > 0).all()
    # The time of a simulated task grows with its trials.
    simulated = table.iloc[2:7]
    assert simulated["seconds"].is_monotonic_increasing and simulated["seconds"].iloc[-1] > simulated["seconds"].iloc[0]
    assert table["swept"].iloc[2] == "seat=first, trials=1000"
    listed = plan(spec, estimate=False)
    assert listed["method"].isna().all() and len(listed) == 13


# --- figures ---------------------------------------------------------------------------------------------------

def test_plots_draw_each_event_with_one_line_per_task_and_seat(tmp_path):
    from deckstat.present import plots

    spec = write_spec(tmp_path, SMALL)
    result = run("batch", spec, "--out", tmp_path / "out", "--workers", "1", "--quiet", "--plots")
    assert result.exit_code == 0, result.output
    figures = sorted(p.name for p in (tmp_path / "out" / "plots").iterdir())
    # SMALL asks odds of two events: Terrain>=1 (12 tasks' rows) and Terrain>=2 (10 tasks' rows).
    assert figures == ["odds_1.png", "odds_2.png"]
    table = pd.read_csv(tmp_path / "out" / RESULTS_CSV)
    ax = plots.plot_batch(table, "odds", "Terrain>=2")
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    # 5 trial counts x 2 seats, told apart by the settings that differ (trials, seat) in words; plus the interval's key.
    assert len(labels) == 11 and "first player, 1,000 trials" in labels
    lowest = table.loc[table["event"] == "Terrain>=2", "ci_low"].min()
    assert ax.get_ylim()[0] <= lowest
    with pytest.raises(DeckstatError, match="no event 'Terrain>=9'"):
        plots.plot_batch(table, "odds", "Terrain>=9")
