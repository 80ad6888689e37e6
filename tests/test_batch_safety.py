"""Batch runs against what happens around them: seeds copied through a spreadsheet, a dry run that runs nothing,
files edited during a run, paths that lead out of the spec's folder, a full disk, a read-only folder."""

from __future__ import annotations

import errno
import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from helpers import DATA, assert_user_error, ok, run

import deckstat
from deckstat.batching import estimate as estimate_module
from deckstat.batching import load_spec, plan, run_task
from deckstat.batching.run import JOURNAL, RESULTS_CSV, Journal, batch
from deckstat.batching.tasks import SEED_BOUND
from deckstat.cards import load_deck
from deckstat.engines import exact, runner
from deckstat.errors import DeckstatError
from deckstat.questions import _setup

DECK = DATA / "wankul" / "sample_deck.csv"


def _spec(folder: Path, deck: Path, body: str = "", *, seed: int = 20261130) -> Path:
    path = folder / "spec.toml"
    path.write_text(f"""name = "safety"
seed = {seed}
game = "wankul"
trials = 2000
[decks.w]
path = "{deck.as_posix()}"
[[questions]]
question = "odds"
event = "Terrain>=1"
turns = "0-2"
method = "simulate"
[questions.sweep]
seat = ["first", "second"]
mulligan_rule = ["bottom", "london"]
{body}""", encoding="utf-8")
    return path


# --- seeds a spreadsheet keeps ---------------------------------------------------------------------------------

def test_seeds_copied_from_the_french_excel_csv_reproduce_their_rows(tmp_path):
    spec = _spec(tmp_path, DECK, seed=987654321987)
    assert_user_error(run("batch", spec, "--dry-run"), "spec.toml:2", "seed", "12 digits", "11")
    spec = _spec(tmp_path, DECK, seed=98765432198)
    result = run("batch", spec, "--out", tmp_path / "out", "--workers", "1", "-q", "--excel", "--lang", "fr")
    assert result.exit_code == 0, result.output
    # As a spreadsheet reads the file: every number a float64 (15 significant digits), written back as text.
    table = pd.read_csv(tmp_path / "out" / RESULTS_CSV, sep=";", decimal=",", encoding="utf-8-sig",
                        dtype={"seed": "float64"})
    seeds = [f"{seed:.15g}" for seed in table["seed"]]
    assert all(len(seed) <= 11 for seed in seeds)
    loaded = load_spec(spec)
    for task in loaded.tasks:
        row = table[table["task_id"] == task.task_id]
        copied = int(seeds[row.index[0]])
        assert copied == task.seed(loaded.seed) < SEED_BOUND
        again = deckstat.odds(load_deck(DECK), "wankul", "Terrain>=1", turns=range(3), seat=task.param("seat"),
                              mulligan_rule=task.param("mulligan_rule"), method="simulate", n_trials=2000,
                              rng=copied).table
        assert again["p"].tolist() == pytest.approx(row["p"].tolist(), abs=1e-12)


def test_task_seeds_stay_below_the_bound_for_any_spec_seed(tmp_path):
    spec = load_spec(_spec(tmp_path, DECK, seed=SEED_BOUND - 1))
    seeds = [task.seed(seed) for task in spec.tasks for seed in (0, 1, SEED_BOUND - 1)]
    assert all(0 <= seed < SEED_BOUND for seed in seeds) and len(set(seeds)) == len(seeds)


# --- the dry run -------------------------------------------------------------------------------------------------

def test_the_dry_run_runs_no_engine(tmp_path, monkeypatch):
    def refused(*args, **kwargs):
        raise AssertionError("the dry run ran an engine")

    monkeypatch.setattr(exact, "segment_weights", refused)
    monkeypatch.setattr(runner.BlockRunner, "run", refused)
    monkeypatch.setattr(runner.BlockRunner, "run_until", refused)
    spec = _spec(tmp_path, DECK, """
[[questions]]
question = "when"
event = "Terrain>=2"
[[questions]]
question = "deckout"
[[questions]]
question = "mulligan"
[[questions]]
question = "ratio"
counts = "10-12"
""")
    table = plan(spec)
    assert table["method"].tolist() == ["simulate"] * 4 + ["exact", "simulate", "exact", "exact"]
    assert (table["seconds"] > 0).all() and table["estimate"].eq("model").all()


def test_the_dry_run_shares_what_tasks_have_in_common(tmp_path, monkeypatch):
    # 2,400 tasks asking 8 different things: the set-ups and the exact costs are worked out once each.
    seeds = ", ".join(str(i) for i in range(300))
    spec = _spec(tmp_path, DECK, f"""
[[questions]]
question = "odds"
event = "Terrain>=2"
turns = "0-3"
[questions.sweep]
seat = ["first", "second"]
mulligan = [true, false]
zone = ["seen", "hand"]
seed = [{seeds}]
""")
    calls = {"prepare": 0, "cost": 0}
    prepare_setup, predict = _setup.prepare_setup, _setup.Setup._predict

    def counted_prepare(*args, **kwargs):
        calls["prepare"] += 1
        return prepare_setup(*args, **kwargs)

    def counted_cost(self, *args, **kwargs):
        calls["cost"] += 1
        return predict(self, *args, **kwargs)

    loaded = load_spec(spec)  # the spec's own checks share their set-ups too; the dry run's are counted here
    monkeypatch.setattr(_setup, "prepare_setup", counted_prepare)
    monkeypatch.setattr(_setup.Setup, "_predict", counted_cost)
    table = plan(loaded)
    assert len(table) == 4 + 2400
    # Bottom and London mulligans (the first question), with and without the mulligan: 4 set-ups; one cost per
    # set-up, draws and zone.
    assert calls["prepare"] <= 4 and calls["cost"] <= 8


def test_the_dry_run_estimates_each_deck_of_a_file_and_reads_zones_as_the_questions(tmp_path):
    # Two decks in one file (deck_name): each estimated on its own cards, as a planner started for it alone does.
    (tmp_path / "decks.csv").write_text("deck_name,name,count,type,cost\nsmall,Terrain,8,Terrain,\n"
                                        "small,Petit,22,Personnage,1\nbig,Terrain,20,Terrain,\n"
                                        "big,Petit,30,Personnage,1\nbig,Grand,30,Personnage,2\n", encoding="utf-8")
    spec = load_spec({"seed": 1, "game": "wankul", "decks": {"s": {"path": "decks.csv", "deck_name": "small"},
                                                             "b": {"path": "decks.csv", "deck_name": "big"}},
                      "questions": [{"question": "when", "event": "Terrain>=3", "max_turn": 20}]}, base_dir=tmp_path)
    alone = [estimate_module.Estimator().estimate(task).seconds for task in spec.tasks]
    assert alone[0] != alone[1]
    assert plan(spec)["seconds"].tolist() == alone
    # The shields by their French name and the game's own: estimated as the set-aside zone, not refused.
    dm = load_spec({"seed": 1, "game": "duel-masters", "decks": {"dm": {"path": str(DATA / "duel-masters" /
                                                                                  "sample_deck.csv")}},
                    "questions": [{"question": "odds", "event": "[shield_trigger=1]>=1",
                                   "sweep": {"zone": ["set_aside", "boucliers"]}},
                                  {"question": "ratio", "group": "[shield_trigger=1]", "counts": "8-9",
                                   "sweep": {"zone": ["set_aside", "boucliers", "shields"]}}]})
    table = plan(dm)
    assert table["method"].ne("error").all(), table["estimate"].tolist()
    assert table["seconds"].iloc[0] == table["seconds"].iloc[1]
    assert table["seconds"].iloc[2] == table["seconds"].iloc[3] == table["seconds"].iloc[4]


# --- files edited while a batch runs -------------------------------------------------------------------------------

def test_a_deck_edited_during_the_run_stops_it_and_resume_runs_again_what_read_it(tmp_path):
    deck = tmp_path / "deck.csv"
    shutil.copy(DECK, deck)
    spec = _spec(tmp_path, deck)
    done = []

    def editing(task, seed):
        rows = run_task(task, seed)
        done.append(task.task_id)
        if len(done) == 2:  # a player saves the deck with one Terrain more, while the batch runs
            text = deck.read_text(encoding="utf-8").replace("Le Grenier Hanté,2,", "Le Grenier Hanté,3,")
            deck.write_text(text, encoding="utf-8")
        return rows

    with pytest.raises(DeckstatError) as caught:
        batch(spec, tmp_path / "out", workers=1, run_task=editing)
    message = caught.value.render()
    assert message.startswith(f"{deck}: changed while the batch ran") and "--resume" not in message  # API words
    assert "resume" in message and "\n" not in message
    journal = Journal(tmp_path / "out" / JOURNAL).read()
    # The second task found the file changed after it ran: it may have read either version, so it left no row.
    assert len(journal) == 1
    result = batch(spec, tmp_path / "out", workers=1, resume=True)
    # The first task read the old version too: every task runs again, on the new one.
    assert result.provenance["changed_inputs"] == [str(deck)] and result.provenance["rerun"] == 4
    fresh = batch(spec, workers=1)
    pd.testing.assert_frame_equal(result.table, fresh.table)


def test_a_deck_edited_between_runs_is_named_by_the_resume(tmp_path):
    deck = tmp_path / "deck.csv"
    shutil.copy(DECK, deck)
    spec = _spec(tmp_path, deck)
    ok(run("batch", spec, "--out", tmp_path / "out", "--workers", "1", "-q"))
    (tmp_path / "out" / RESULTS_CSV).unlink()
    deck.write_text(deck.read_text(encoding="utf-8") + "Vache Sacrée,1,Personnage,,,\n", encoding="utf-8")
    result = run("batch", spec, "--out", tmp_path / "out", "--workers", "1", "-q", "--resume")
    assert result.exit_code == 0, result.output
    assert f"note: {deck} changed since the run started: the 4 tasks that read it ran again" in result.stderr


# --- paths out of the spec's folder ------------------------------------------------------------------------------

SECRET = "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"


@pytest.mark.parametrize("how", ["absolute", "parent", "symlink"])
def test_a_spec_path_to_a_credentials_file_never_shows_its_content(tmp_path, how):
    (tmp_path / "home" / ".aws").mkdir(parents=True)
    credentials = tmp_path / "home" / ".aws" / "credentials"
    credentials.write_text(f"[default]\n{SECRET}\n", encoding="utf-8")
    runs = tmp_path / "runs"
    runs.mkdir()
    written = {"absolute": str(credentials), "parent": "../home/.aws/credentials", "symlink": "deck.csv"}[how]
    if how == "symlink":
        (runs / "deck.csv").symlink_to(credentials)
    spec = _spec(runs, Path(written))
    for lang in ("en", "fr"):
        result = run("batch", spec, "--out", tmp_path / "out", "--lang", lang)
        line = assert_user_error(result, "decks.w.path", repr(written), str(credentials))
        assert "[default]" not in result.output and "wJalr" not in result.output and "aws_secret" not in line
        assert ("card file" if lang == "en" else "fichier de cartes") in line
        assert_user_error(run("batch", spec, "--dry-run", "--lang", lang), repr(written))


# --- a full disk, a read-only folder ------------------------------------------------------------------------------

def _journal_fd(fd: int) -> bool:
    return os.readlink(f"/proc/self/fd/{fd}").endswith(JOURNAL)


def test_a_full_disk_while_the_journal_is_written_is_one_line_and_the_run_resumes(tmp_path, monkeypatch):
    spec = _spec(tmp_path, DECK)
    lines = []
    real_write = os.write

    def full_after_two_lines(fd, data):
        if _journal_fd(fd):
            lines.append(fd)
            if len(lines) > 2:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    if not Path("/proc/self/fd").exists():
        pytest.skip("needs /proc to tell the journal's descriptor")
    monkeypatch.setattr(os, "write", full_after_two_lines)
    result = run("batch", spec, "--out", tmp_path / "out", "--workers", "1", "-q")
    line = assert_user_error(result, str(tmp_path / "out" / JOURNAL), "no space left on the disk", "--resume")
    assert line.count("\n") == 0
    monkeypatch.undo()
    assert len(Journal(tmp_path / "out" / JOURNAL).read()) == 2  # the lines before stay whole, the third is gone
    resumed = run("batch", spec, "--out", tmp_path / "out", "--workers", "1", "-q", "--resume")
    assert resumed.exit_code == 0, resumed.output
    fresh = batch(spec, workers=1)
    table = pd.read_csv(tmp_path / "out" / RESULTS_CSV)
    assert table["p"].tolist() == pytest.approx(fresh.table["p"].tolist(), abs=0)


def test_the_journal_is_synced_in_groups_and_a_failed_sync_drops_the_lines_it_did_not_sync(tmp_path, monkeypatch):
    if not Path("/proc/self/fd").exists():
        pytest.skip("needs /proc to tell the journal's descriptor")
    spec = _spec(tmp_path, DECK)
    synced = []
    real_fsync = os.fsync

    def counted(fd):
        if _journal_fd(fd):
            synced.append(fd)
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", counted)
    result = batch(spec, tmp_path / "out", workers=1)
    # Far fewer syncs than tasks (one a second at most, and one at the end), every task in the journal all the same.
    assert len(result.tasks) > 2 and len(synced) < len(result.tasks)
    assert len(Journal(tmp_path / "out" / JOURNAL).read()) == len(result.tasks)

    # A sync that fails (a full disk found late) drops the lines written since the last sync: they run again.
    monkeypatch.setattr(Journal, "SYNC_SECONDS", 0.0)
    path = tmp_path / "journal" / JOURNAL
    path.parent.mkdir()
    journal = Journal(path)
    journal.append({"task_id": "a", "status": "ok", "rows": []})

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(DeckstatError, match="no space left"):
        journal.append({"task_id": "b", "status": "ok", "rows": []})
    assert list(Journal(path).read()) == ["a"]


def test_a_journal_end_left_as_zero_bytes_by_a_power_cut_is_dropped(tmp_path):
    path = tmp_path / JOURNAL
    whole = json.dumps({"task_id": "a", "status": "ok", "rows": []}) + "\n"
    later = json.dumps({"task_id": "c", "status": "ok", "rows": []}) + "\n"
    # The blocks of the lines not yet synced may read as zeros, some of a later line not.
    path.write_bytes(whole.encode() + b"\0" * 30 + later.encode())
    assert list(Journal(path).read()) == ["a"]
    assert path.read_text(encoding="utf-8") == whole


def test_a_read_only_output_folder_is_refused_before_the_run(tmp_path, monkeypatch):
    spec = _spec(tmp_path, DECK)
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / RESULTS_CSV).write_text("kept\n")
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if Path(path) == folder and mode & os.W_OK
                        else real_access(path, mode, **kw))
    for extra in ((), ("--overwrite",), ("--resume",)):
        assert_user_error(run("batch", spec, "--out", folder, "-q", *extra), str(folder), "permission denied")
    assert (folder / RESULTS_CSV).read_text() == "kept\n"


@pytest.fixture
def read_only_folder(tmp_path):
    """A folder on a read-only bind mount (root cannot write there either), or a skip where mounts are not allowed."""
    folder = tmp_path / "ro"
    folder.mkdir()
    (folder / RESULTS_CSV).write_text("kept\n")
    mounted = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True)
    if mounted.returncode:
        pytest.skip("no bind mounts here")
    try:
        if subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], capture_output=True).returncode:
            pytest.skip("no read-only remount here")
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


def test_a_read_only_mount_as_out_is_one_line(tmp_path, read_only_folder):
    spec = _spec(tmp_path, DECK)
    for extra in ((), ("--overwrite",)):
        assert_user_error(run("batch", spec, "--out", read_only_folder, "-q", *extra), str(read_only_folder),
                          "read-only file system")


# --- the exact engine's axes --------------------------------------------------------------------------------------

def test_forty_absent_groups_are_simulated_or_refused_before_the_engine():
    deck = load_deck(DECK)
    event = " or ".join(f"Absent{i}>=1" for i in range(40)) + " or Terrain>=1"
    result = deckstat.odds(deck, "wankul", event, turns=[0], seat="first", mulligan=False, allow_absent=True,
                           n_trials=20_000, rng=3)
    assert result.table["method"].eq("simulate").all()
    assert "44 axes" in result.provenance["method_reason"]  # 3 segments and 41 groups
    # The absent groups count nothing: the answer is P(Terrain>=1), 1 - C(40, 5)/C(50, 5) with the sample's 10.
    truth = deckstat.odds(deck, "wankul", "Terrain>=1", turns=[0], seat="first", mulligan=False).table["p"].iloc[0]
    p = result.table["p"].iloc[0]
    assert abs(p - truth) <= 4 * (truth * (1 - truth) / 20_000) ** 0.5
    with pytest.raises(DeckstatError, match="45 axes"):
        deckstat.odds(deck, "wankul", event, turns=[0], allow_absent=True, method="exact")
    line = assert_user_error(run("odds", DECK, "-g", "wankul", "-e", event, "--allow-absent", "--exact"),
                             "--simulate", "axes")
    assert "internal error" not in line
    frame = pd.read_csv(io.StringIO(ok(run("when", DECK, "-g", "wankul", "-e", event, "--allow-absent", "--trials",
                                           2000, "--seed", 1, "--format", "csv"))), comment="#")
    assert frame["method"].eq("simulate").all()
