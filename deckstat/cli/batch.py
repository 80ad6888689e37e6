"""The ``deckstat batch`` command: run a spec's grid of questions, resume it, or show what it would run."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckstat.cli.groups import FROM_FLAGS, Display, expand_groups
from deckstat.cli.layout import Grid
from deckstat.cli.options import (
    FLAGS,
    excel_csv,
    print_items,
    print_text,
    stdout,
    user_errors,
)
from deckstat.cli.signals import interrupted_code
from deckstat.errors import DeckstatError
from deckstat.i18n import N_, localise_number, tr, trn

if TYPE_CHECKING:
    import pandas as pd

#: The command's flags, for the parameters error messages name.
BATCH_FLAGS = {**FLAGS, "out": "--out", "workers": "--workers", "scheduler": "--scheduler", "resume": "--resume",
               "overwrite": "--overwrite"}


def _progress(quiet: bool):
    from deckstat.cli.progress import showing

    return showing(quiet=quiet)


def _duration(seconds: float) -> str:
    """``< 0.1 s``, ``0.4 s``, ``12 s``, ``3 min 20 s``, ``2 h 05 min`` (French: ``0,4 s``)."""
    if seconds < 0.1:
        return localise_number("< 0.1 s")
    if seconds < 10:
        return localise_number(f"{seconds:.1f} s")
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes, rest = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {rest:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


#: Tasks a dry run lists one by one; more are listed by question, deck and method (a person reads no more).
MOST_LISTED_TASKS = 200
#: The methods of a task, as the plan names them.
_METHODS = {"exact": N_("exact"), "simulate": N_("simulated"), "auto": N_("auto"), "error": N_("error")}
#: The estimates the plan writes in words rather than as a time.
_ESTIMATES = {"not estimated": N_("not estimated")}


def _estimate_text(estimate: str, seconds: float) -> str:
    if estimate == "model":
        return _duration(seconds)
    if estimate == "at most":
        return tr("≤ {duration}", duration=_duration(max(seconds, 0.1)))
    return tr(_ESTIMATES[estimate]) if estimate in _ESTIMATES else estimate


def _method_text(method: object) -> str:
    return tr(_METHODS[method]) if method in _METHODS else str(method or "")


def _count(n: float) -> str:
    return localise_number(f"{int(n):,}").replace(",", " ")


def _grouped_plan(tasks: pd.DataFrame) -> Grid:
    """The tasks by question, deck and method: how many, their trials, their estimated time together."""
    rows = []
    keys = ["question", "deck", "method"]
    grouped = tasks.assign(method=tasks["method"].fillna("")).groupby(keys, sort=False, dropna=False)
    for (question, deck, method), group in grouped:
        trials = group["trials"].dropna()
        trials_text = "" if trials.empty else _count(trials.min()) + (
            "" if trials.min() == trials.max() else "–" + _count(trials.max()))
        estimated = group[group["estimate"].isin(["model", "at most"])]
        how = "at most" if (estimated["estimate"] == "at most").any() else "model"
        estimate = _estimate_text(how, float(estimated["seconds"].sum())) if len(estimated) == len(group) else \
            _estimate_text(str(group["estimate"][~group["estimate"].isin(["model", "at most"])].iloc[0]), 0.0)
        rows.append((_count(len(group)), deck, question, _method_text(method), trials_text, estimate))
    grid = Grid([])
    for index, column in enumerate((N_("tasks"), N_("deck"), N_("question"), N_("method"), N_("trials"),
                                    N_("estimate"))):
        grid.add(tr(column), [r[index] for r in rows], names=(column,), key=column == "deck",
                 text=column in ("deck", "estimate"),
                 justify="right" if column in ("tasks", "trials", "estimate") else "left")
    return grid


def _print_plan(tasks: pd.DataFrame, workers: int, name: str) -> None:
    if len(tasks) > MOST_LISTED_TASKS:
        print_items(lambda: [_grouped_plan(tasks),
                             tr("{n} tasks, listed by question, deck and method; deckstat.batching.plan(spec) lists "
                                "each one", n=_count(len(tasks)))])
    else:
        print_items(lambda: [_listed_plan(tasks)])
    _print_totals(tasks, workers, name, stdout())


def _listed_plan(tasks: pd.DataFrame) -> Grid:
    """Each task: its deck, question, swept settings, method, trials and estimated time."""
    import pandas as pd

    rows = []
    for row in tasks.itertuples(index=False):
        trials = "" if pd.isna(row.trials) else _count(row.trials)
        swept = "\n".join(row.swept.split(", "))  # one setting a line: narrow enough for a terminal
        rows.append((str(row.task_id), str(row.deck), str(row.question), swept, _method_text(row.method), trials,
                     _estimate_text(row.estimate, row.seconds)))
    grid = Grid([])
    for index, column in enumerate((N_("task"), N_("deck"), N_("question"), N_("swept"), N_("method"),
                                    N_("trials"), N_("estimate"))):
        # Deck labels and swept values are what a reader checks: wrapped at spaces, never cut short.
        grid.add(tr(column), [r[index] for r in rows], names=(column,), key=index == 0,
                 text=column in ("deck", "swept", "estimate"),
                 justify="right" if column in ("trials", "estimate") else "left")
    return grid


def _print_totals(tasks: pd.DataFrame, workers: int, name: str, console) -> None:
    n_tasks = len(tasks)
    modelled = tasks[tasks["estimate"] == "model"]
    at_most = tasks[tasks["estimate"] == "at most"]
    unknown = n_tasks - len(modelled) - len(at_most)
    work = float(tasks["seconds"].sum())
    parts = [trn("{name}: {n} task", "{name}: {n} tasks", n_tasks, name=name)]
    if len(modelled):
        parts.append(trn("{n} estimated from the cost models, without running it",
                         "{n} estimated from the cost models, without running them", len(modelled)))
    if len(at_most):
        parts.append(trn("{n} run to a precision, counted at its most trials",
                         "{n} run to a precision, counted at their most trials", len(at_most)))
    if unknown:
        parts.append(trn("{n} without an estimate (see the estimate column)",
                         "{n} without an estimate (see the estimate column)", unknown))
    print_text(console, tr("; ").join(parts) + ".")
    print_text(console, trn("About {work} of work, so about {each} on {n} worker, plus their start.",
                            "About {work} of work, so about {each} on {n} workers, plus their start.", workers,
                            work=_duration(work), each=_duration(work / workers)))


@expand_groups
def batch_command(
    spec: Annotated[Path, typer.Argument(help="The batch spec (.toml): decks, questions and their sweeps.",
                                         show_default=False, metavar="SPEC")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Folder for results.csv, results.parquet, "
                                             "manifest.json and the journal a run resumes from.",
                                             metavar="FOLDER")] = None,
    workers: Annotated[int | None, typer.Option("--workers", help="Processes (or local Dask workers); 1 runs in "
                                                "this process. Default: every core, at most one per task.",
                                                metavar="N")] = None,
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Run on a Dask cluster: its scheduler's "
                                                  "address (tcp://host:8786), or local to start one here.",
                                                  metavar="ADDRESS")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Finish the run in --out after an interruption: "
                                         "finished tasks are kept, failed ones run again.")] = False,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Delete the run in --out and start again.")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="List the tasks with their method and an estimate of "
                                          "their time; runs no batch and writes nothing.")] = False,
    plots: Annotated[bool, typer.Option("--plots", help="Also draw each odds and when event by turn, one line "
                                        "per task and seat, in --out/plots/.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    display: Display = FROM_FLAGS,
) -> None:
    """Run a grid of questions (decks × events × turns × seats × rules…) from one TOML spec.

    Every task's rows go into one tidy table, in the spec's order, the same
    whatever runs it: this process (--workers 1), every core, or a Dask
    cluster. A run stopped at any moment, even killed, goes on with --resume
    and ends with exactly the rows of an uninterrupted one. Exit code 0 when
    every task ran, 1 when some failed (their errors are in manifest.json and
    printed), 2 for a bad spec or option.
    """
    from deckstat.batching.run import JOURNAL, MANIFEST, RESULTS_CSV, RESULTS_PARQUET, batch, cores, plan

    with user_errors(BATCH_FLAGS):
        if dry_run:
            with _progress(quiet):
                tasks = plan(spec)
            n_workers = workers or min(cores(), max(1, len(tasks)))
            _print_plan(tasks, n_workers, tasks.attrs.get("name", spec.stem))
            return
        if out is None:
            raise DeckstatError(tr("give the folder for the results with {out} DIR, or look at the tasks first with "
                                   "--dry-run", out=BATCH_FLAGS["out"]))
        try:
            with _progress(quiet):
                result = batch(spec, out, workers=workers, scheduler=scheduler, resume=resume, overwrite=overwrite,
                               excel=excel_csv(to_file=True))
        except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (kill, a scheduler's time limit): see stop_on_sigterm
            typer.echo(tr("interrupted: the finished tasks are in {journal}; run the same command with --resume to "
                          "finish", journal=out / JOURNAL), err=True)
            raise typer.Exit(code=interrupted_code()) from None
    tasks = result.tasks
    changed = result.provenance.get("changed_inputs") or []
    if changed:
        typer.echo(trn("note: {files} changed since the run started: the {rerun} tasks that read it ran again",
                       "note: {files} changed since the run started: the {rerun} tasks that read them ran again",
                       len(changed), files=", ".join(changed), rerun=result.provenance.get("rerun", 0)), err=True)
    worth = result.provenance.get("dask_estimate")
    if worth is not None and not worth["pays"]:
        typer.echo(trn("note: this batch is about {work} of work: a Dask cluster's start and hand-overs (about "
                       "{cost}) cost more than its {n} worker saves; without --scheduler it runs on local processes",
                       "note: this batch is about {work} of work: a Dask cluster's start and hand-overs (about "
                       "{cost}) cost more than its {n} workers save; without --scheduler it runs on local processes",
                       worth["workers"], work=_duration(worth["work_seconds"]),
                       cost=_duration(worth["overhead_seconds"])), err=True)
    failed = tasks[tasks["status"] != "ok"]
    for row in failed.itertuples(index=False):
        typer.echo(tr("failed: task {task} ({description}): {error}", task=row.task_id,
                      description=row.description, error=row.error), err=True)
    provenance = result.provenance
    files = [out / RESULTS_CSV] + ([out / RESULTS_PARQUET] if (out / RESULTS_PARQUET).exists() else [])
    n_rows = len(result.table)
    summary = tr("{name}: {tasks}, {ok} ok, {failed} failed; {rows} in {files} (seed {seed}; how it ran: "
                 "{manifest})", name=provenance["name"], tasks=trn("{n} task", "{n} tasks", len(tasks)),
                 ok=localise_number(f"{len(tasks) - len(failed):,}"),
                 failed=localise_number(f"{len(failed):,}"),
                 rows=trn("{n} row", "{n} rows", n_rows), files=", ".join(str(f) for f in files),
                 seed=provenance["seed"], manifest=out / MANIFEST)
    typer.echo(summary)
    if plots:
        with user_errors(BATCH_FLAGS):
            written = _write_plots(result.table, out / "plots")
        typer.echo(trn("{n} figure in {folder}", "{n} figures in {folder}", len(written), folder=out / "plots")
                   if written else tr("no odds or when rows to draw"))
    raise typer.Exit(code=1 if len(failed) else 0)


def _write_plots(table: pd.DataFrame, folder: Path) -> list[Path]:
    """One figure per odds or when event of the batch, each written whole or not at all."""
    from deckstat.present import plots  # matplotlib only when figures are asked for
    from deckstat.present.files import atomic_write

    written = []
    if table.empty or "question" not in table.columns:
        return written
    for question in plots.BATCH_CURVES:
        rows = table[table["question"] == question]
        for number, event in enumerate(rows["event"].dropna().unique(), start=1):
            folder.mkdir(parents=True, exist_ok=True)
            target = folder / f"{question}_{number}.png"
            ax = plots.plot_batch(rows, question, event)
            atomic_write(target, lambda path, ax=ax: plots.save(ax, path))
            written.append(target)
    return written
