"""Benchmark deckstat's Monte Carlo kernel against a plain-Python baseline, a compiled loop and the exact engine.

Every figure is measured in the same run, and speed is reported as a ratio to
the baseline measured alongside it, so the numbers compare across machines.
The methods of a scenario are alternated round by round (baseline, kernel,
exact, compiled loops, baseline, …), so a busy spell of a shared machine falls
on all of them, and each is quoted as the minimum and the median over the
rounds.

Scenarios
---------
wankul
    A 50-card Wankul deck with 10 Terrains and three cost buckets; the
    Wankul mulligan with keep rule ``Terrain>=1``; event
    ``Terrain>=1 and [cost<=1]>=1`` for turns 0-10, first seat.
mtg no mulligan
    The user profile ``data/mtg/profile.toml`` (60 cards, 24 lands, 7-card
    hand, on the play) without mulligan: P(at least 4 lands seen by turn 4,
    i.e. in the top 10 cards).
mtg london
    The same with the profile's London mulligan to 5 (redrawing hands with 0,
    1, 6 or 7 lands).

The two mtg scenarios are also timed against the compiled yardstick
``shared/yardstick/rsbase`` beside the repository (or ``$DECKSTAT_YARDSTICK``),
a Rust loop answering the same questions with a Fisher-Yates shuffle of the
10 cards looked at (``prefix``, the practical limit) or of the whole deck
(``full``, what a per-game simulator does). It is built with ``cargo build
--release --offline`` into the system's temporary directory when cargo is
installed, and skipped with a note otherwise. Its time is the loop's own (its
process start left out); the kernel's is the whole ``deckstat.odds`` call. The
column "kernel ÷ this" is the kernel's speed over each method's.

play
    With ``--play``: playability curves of every card of the 40-card Duel
    Masters sample deck (``data/duel-masters/sample_deck.csv``), one target
    per distinct card, turns 1-10, first seat, ``civ_first`` policy:
    1,000,000 games through the vectorised mana model (dealt with
    ``deal_order`` in blocks of 50,000) against the literal one-game-at-a-time
    simulator of ``scripts/literal_play.py`` (``random.shuffle``, 2,000
    games), alternated; games per second on one core and their ratio, and the
    largest gap between the two curves in standard errors of the literal one.

effects
    With ``--effects``: P(Robot Camembert by turn 6) on the Wankul deck with
    six draw-effect cards (``data/wankul/effects_deck.csv``), 1,000,000
    games: the compiled kernel's answer without effects against the side
    that plays the draw effects and the drought draws on two-player games
    (numpy), and the same side with Capitaine Baguette's draws made
    searches for a Terrain (the compiled card-by-card game), alternated;
    games per second and their ratio.

wankul curve
    With ``--wankul-curve``: playability curves of every card of the Wankul
    sample deck, turns 1-10, first seat, 200,000 games, under the discard
    model with both players' turns against the same model with the player
    alone (``players = 1``), alternated, for each policy; the ratio of their
    times.

optimise
    With ``--optimise``: ``deckstat.optimise`` on the Wankul sample deck
    and ``data/wankul/pool.csv`` for 60 seconds, one and two exact ``odds``
    objectives: the candidate decks evaluated (the exact engine answers each
    distinct cell count once; candidates with the same counts are answered
    from memory), the exact answers, the legality checks, and the candidates
    per 60 seconds, as the optimiser's own clock counts them.

explore
    With ``--explore``: the explorer on the Wankul and Duel Masters sample
    decks, a scripted series of changes (copy counts, events, seats, turns)
    made back to back: each change's first stage (the checks, the exact
    answer, the views redrawn) against the bare ``deckstat.odds`` call of the
    same question, alternated change by change, median and 95th percentile;
    then, when Playwright and Chromium are installed, the same kind of changes
    in the page served by ``deckstat explore``, timed in the page from the
    change to its new numbers (``scripts/page_driver.py``).

report
    With ``--report``: whole ``deckstat report`` commands (the README's
    first, the same in French, the Duel Masters sample) against a process
    that only imports matplotlib and pandas, alternated round by round; wall
    and CPU seconds (the report's helper process included, from
    ``getrusage(RUSAGE_CHILDREN)``) and their ratios to the baseline, min and
    median. With ``--quick``: the Wankul report alone, 2,000 trials, one round.

Usage::

    python scripts/bench.py                 # the kernel scenarios, 4M kernel trials each, 5 alternated rounds
    python scripts/bench.py --quick         # every section asked for, small (a smoke test the test suite runs)
    python scripts/bench.py --memory        # also peak memory at 10^7 and 10^8 trials
    python scripts/bench.py --workers       # also 10^8 trials on 1, 2 and 4 worker processes (minutes)
    python scripts/bench.py --workers --no-kernel --workers-trials 1e7   # that section alone, smaller
    python scripts/bench.py --batch --no-kernel   # a 200-task batch spec on 1, 2, 4 workers and every core
    python scripts/bench.py --play --no-kernel    # the Duel Masters playability scenario alone
    python scripts/bench.py --wankul-curve --no-kernel   # two-player against one-player Wankul curves
    python scripts/bench.py --effects --no-kernel        # the draw-effects side against the kernel
    python scripts/bench.py --optimise --no-kernel       # the optimiser's candidates per minute
    python scripts/bench.py --explore --no-kernel        # the explorer's answer to a change, server and page

Workers
-------
With ``--workers``, each scenario below runs ``--workers-trials`` trials
(default 10^8) with ``n_workers`` 1, 2 and 4, alternated round by round in
this one process, each call starting and closing its own pool as a command
does; speed-ups are the 1-worker time over the others' (min and median).
The row "2 separate processes" is the machine's ceiling: two independent
one-process runs of half the trials each, started together (no pool at all).
More workers than cores cannot help: on a 2-core machine 4 workers share 2
cores, and the machine's other load takes its share too.

Batch
-----
With ``--batch``, a spec of 200 simulated tasks on the Wankul sample deck
(2 seats × 4 mulligan rules × 5 keep rules × 5 events, ``--batch-trials``
each) runs with ``deckstat.batch`` on 1, 2 and 4 workers and every core,
alternated round by round, pool start included; speed-ups are over 1 worker,
and the overhead per task is the worker time not spent inside a task
(start-up, hand-over, the wait at the end) shared out over the tasks.

With ``--batch-overhead``, small tasks run through ``deckstat.batch`` (one
worker, in this process, with an output folder) against the same questions
called directly through the public API in a Python loop, alternated round by
round: 1,000 exact odds without mulligan (100 with ``--quick``) and 200
simulated odds of 2,000 trials (20). The overhead per task is the batch's CPU
(and wall) time less the loop's over the tasks: reading and planning the spec,
the journal, the manifest and the result files included.

wankul sample
    ``data/wankul/sample_deck.csv`` with the profile's defaults: event
    ``Terrain>=1``, turns 0-6, both seats, the Wankul mulligan.
mtg london
    The ``mtg`` scenario (London mulligan to 5), P(at least 4 lands seen by turn 4).
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

import deckstat
from deckstat._validate import parse_count
from deckstat.batching.run import cores
from deckstat.engines.runner import BLOCK_TRIALS
from deckstat.engines.tasks import DealSpec, odds_task
from deckstat.events import parse_event
from deckstat.play.base import schedule
from deckstat.play.discard import DiscardModel
from deckstat.play.engine import CurveSpec, Dealing, curve_task
from deckstat.play.mana import ManaModel
from deckstat.questions._estimate import Simulation, estimate
from deckstat.questions.odds import plan_odds

sys.path.insert(0, str(Path(__file__).resolve().parent))
import literal_play  # noqa: E402  (the literal Duel Masters goldfish next to this script)

ROOT = Path(__file__).resolve().parents[1]
MTG_PROFILE = ROOT / "data" / "mtg" / "profile.toml"
MTG_DECK = ROOT / "data" / "mtg" / "deck.csv"

WANKUL_SAMPLE = ROOT / "data" / "wankul" / "sample_deck.csv"
WANKUL_EFFECTS = ROOT / "data" / "wankul" / "effects_deck.csv"
EFFECT_EVENT = '"Robot Camembert">=1'
DM_SAMPLE = ROOT / "data" / "duel-masters" / "sample_deck.csv"
PLAY_TURNS = 10
#: Games dealt and followed at once, as the curve driver does.
PLAY_BLOCK = 50_000
WORKER_COUNTS = (1, 2, 4)

WANKUL_CARDS = [
    {"name": "Terrain", "count": 10, "type": "Terrain"},
    {"name": "Petit", "count": 18, "type": "Personnage", "cost": 1},
    {"name": "Moyen", "count": 14, "type": "Personnage", "cost": 2},
    {"name": "Gros", "count": 8, "type": "Personnage", "cost": 3},
]
WANKUL_EVENT = "Terrain>=1 and [cost<=1]>=1"
WANKUL_TURNS = range(11)


def wankul_baseline(n_trials: int, seed: int) -> np.ndarray:
    """The Wankul scenario as a hobby simulator would write it: one shuffle per trial."""
    rng = random.Random(seed)
    deck = ["T"] * 10 + ["L"] * 18 + ["M"] * 14 + ["H"] * 8
    hits = [0] * len(WANKUL_TURNS)
    for _ in range(n_trials):
        rng.shuffle(deck)
        hand = deck[:5]
        if "T" in hand:
            library = deck[5:]
        else:  # the hand goes under the deck, five new cards
            hand, library = deck[5:10], deck[10:] + deck[:5]
        terrains, cheap = hand.count("T"), hand.count("L")
        for turn in WANKUL_TURNS:
            if turn:
                card = library[turn - 1]
                terrains += card == "T"
                cheap += card == "L"
            if terrains >= 1 and cheap >= 1:
                hits[turn] += 1
    return np.array(hits) / n_trials


def mtg_baseline(n_trials: int, seed: int) -> float:
    """London mulligan to 5 on the play, plain Python, bottoming toward the deck's land share.

    The same work per game as the kernel (the Rust yardstick's ``london`` mode does the same), but not the same
    choice: deckstat's needs policy bottoms toward what the event needs (4 lands), so its P is higher (0.720 against
    0.684). The timings compare; the probabilities are not meant to.
    """
    rng = random.Random(seed)
    deck = ["L"] * 24 + ["S"] * 36
    share = 24 / 60
    hits = 0
    for _ in range(n_trials):
        for mulligans in range(3):
            rng.shuffle(deck)
            hand = deck[:7]
            lands = hand.count("L")
            if 2 <= lands <= 5 or mulligans == 2:
                break
        kept = 7 - mulligans
        target = round(share * kept)
        bottom_lands = min(max(lands - target, 0), mulligans)
        bottom_lands = max(bottom_lands, mulligans - (7 - lands))
        lands -= bottom_lands
        lands += deck[7:10].count("L")  # draws on turns 2, 3 and 4
        hits += lands >= 4
    return hits / n_trials


def alternate(methods: dict, rounds: int) -> dict[str, tuple[object, float, float]]:
    """Run each method once per round, in turn; return its result, minimum and median wall time."""
    times: dict[str, list[float]] = {name: [] for name in methods}
    results: dict[str, object] = {}
    for _ in range(rounds):
        for name, function in methods.items():
            start = time.perf_counter()
            results[name] = function()
            times[name].append(time.perf_counter() - start)
    return {name: (results[name], min(t), statistics.median(t)) for name, t in times.items()}


def peak_memory(scenario: str, n_trials: int) -> float:
    """Peak resident memory (MiB) of a fresh process running ``n_trials`` kernel trials."""
    code = (
        "import resource, sys; sys.argv = ['bench']; import scripts.bench as b; "
        f"b.run_kernel({scenario!r}, {n_trials}); "
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return int(out.stdout.strip().splitlines()[-1]) / 1024


def run_kernel(scenario: str, n_trials: int, seed: int = 1):
    """One deckstat.odds simulation of ``scenario`` (``wankul``, ``mtg`` or ``mtg plain``), in this process."""
    if scenario == "wankul":
        deck = deckstat.Deck.from_table(WANKUL_CARDS)
        return deckstat.odds(deck, "wankul", WANKUL_EVENT, turns=WANKUL_TURNS, seat="first",
                             method="simulate", n_trials=n_trials, rng=seed).table
    deck = deckstat.load_deck(MTG_DECK)
    return deckstat.odds(deck, str(MTG_PROFILE), "Land>=4", turns=[4], seat="first", method="simulate",
                         mulligan=scenario != "mtg plain", n_trials=n_trials, rng=seed).table


def run_workers(scenario: str, n_trials: int, n_workers: int, seed: int = 1):
    """One simulation of ``scenario`` on ``n_workers`` processes (its own pool, started and closed as by a command)."""
    if scenario == "wankul sample":
        return deckstat.odds(deckstat.load_deck(WANKUL_SAMPLE), "wankul", "Terrain>=1", method="simulate",
                             n_trials=n_trials, rng=seed, n_workers=n_workers).table
    return deckstat.odds(deckstat.load_deck(MTG_DECK), str(MTG_PROFILE), "Land>=4", turns=[4], seat="first",
                         method="simulate", n_trials=n_trials, rng=seed, n_workers=n_workers).table


def side_by_side(scenario: str, n_trials: int, copies: int = 2) -> float:
    """Seconds ``copies`` independent one-process runs of ``n_trials / copies`` trials take when run at once.

    The machine's own ceiling for worker processes: what independent
    processes get from the cores, with no pool, no pickling and no summing.
    Each process times its own simulation (not its start and imports); the
    slowest one counts.
    """
    # Each draws with the compiled loops, as the pool's workers do (copies of a process that chose them for the
    # whole run: a process of its own would choose numpy for half the trials), warms up with a run as long as the
    # timed one, then waits for the others: the timed runs start together.
    code = ("import sys, time; sys.argv = ['bench']; import deckstat.engines._compiled; import scripts.bench as b; "
            "b.run_workers({s!r}, {n}, 1); "
            "print('ready', flush=True); sys.stdin.readline(); "
            "start = time.perf_counter(); b.run_workers({s!r}, {n}, 1); print(time.perf_counter() - start)")
    processes = [subprocess.Popen([sys.executable, "-c", code.format(s=scenario, n=n_trials // copies)], cwd=ROOT,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for _ in range(copies)]
    for process in processes:
        process.stdout.readline()
    for process in processes:
        process.stdin.write("go\n")
        process.stdin.flush()
    return max(float(process.communicate()[0].strip().splitlines()[-1]) for process in processes)


def workers_section(n_trials: int, rounds: int, console: Console, figures: dict) -> None:
    """Time ``n_trials`` trials on 1, 2 and 4 workers, alternated; print the speed-ups over 1 worker."""
    table = Table(title=f"{n_trials:,} trials on worker processes ({cores()} cores usable), "
                  f"alternated over {rounds} rounds")
    for column in ("scenario", "workers", "seconds (min / median)", "trials/s (best)",
                   "speed-up over 1 worker (best / median)", "same numbers"):
        table.add_column(column, justify="left" if column == "scenario" else "right")
    for scenario in ("wankul sample", "mtg london"):
        run_workers(scenario, 1_000, 1)  # warm up: imports and caches no round should pay for
        timings = alternate({w: functools.partial(run_workers, scenario, n_trials, w) for w in WORKER_COUNTS},
                            rounds)
        one, one_min, one_med = timings[1]
        figures.setdefault("workers", {})[scenario] = {}
        for w, (result, low, median) in timings.items():
            same = result.equals(one)
            table.add_row(scenario, str(w), f"{low:.2f} / {median:.2f}", f"{n_trials / low:,.0f}",
                          f"{one_min / low:.2f} / {one_med / median:.2f}", "yes" if same else "NO")
            figures["workers"][scenario][w] = {"seconds_min": low, "seconds_median": median,
                                               "speedup_best": one_min / low, "speedup_median": one_med / median,
                                               "same_numbers": same}
        apart = [side_by_side(scenario, n_trials) for _ in range(rounds)]
        low, median = min(apart), statistics.median(apart)
        table.add_row(scenario, "2 separate processes", f"{low:.2f} / {median:.2f}", f"{n_trials / low:,.0f}",
                      f"{one_min / low:.2f} / {one_med / median:.2f}", "—")
        figures["workers"][scenario]["2 separate processes"] = {"seconds_min": low, "seconds_median": median,
                                                                "speedup_best": one_min / low,
                                                                "speedup_median": one_med / median}
    console.print(table)
    console.print(f"load average (1, 5, 15 min) at the end: {', '.join(f'{v:.2f}' for v in os.getloadavg())}")


def run_play(n_games: int, seed: int = 1) -> np.ndarray:
    """Every card of the Duel Masters sample deck as its own target: games first playable on turn 1..10, or never.

    Runs the simulation path of :func:`deckstat.curve` (its block task, on blocks of 50,000 games with spawned
    streams). Returns an int array (n_cards, PLAY_TURNS + 1): column ``t - 1`` counts the games whose first
    playable turn is ``t``, the last column those with none.
    """
    profile = deckstat.get_profile("duel-masters")
    deck = profile.drawn_deck(deckstat.load_deck(DM_SAMPLE)).with_synonyms(profile.synonyms)
    model = ManaModel(deck, profile, settings=profile.play_model.settings)
    rows = np.arange(len(deck.cards))
    dealing = Dealing.of(deck, profile.hand_size, profile.set_aside, None, 0)
    plan = schedule(profile, "first", PLAY_TURNS, profile.library_size(deck.size))
    spec = CurveSpec(model, dealing, tuple(rows == row for row in rows), (plan,))
    tallies = np.zeros((len(rows), PLAY_TURNS + 1), dtype=np.int64)
    starts = range(0, n_games, PLAY_BLOCK)
    for start, rng in zip(starts, np.random.default_rng(seed).spawn(len(starts))):
        tallies += curve_task(spec, rng, min(PLAY_BLOCK, n_games - start))[0]
    return tallies


def literal_play_run(n_games: int, seed: int = 1) -> np.ndarray:
    """The same scenario, one game at a time in plain Python (``scripts/literal_play.py``)."""
    with open(DM_SAMPLE, encoding="utf-8") as handle:
        records = list(csv.DictReader(handle))
    return np.array(literal_play.play(records, n_games, seed, max_turn=PLAY_TURNS), dtype=np.int64)


def play_section(n_games: int, literal_games: int, rounds: int, console: Console, figures: dict) -> None:
    """Time the vectorised mana model against the literal simulator, alternated; games/s and their ratio."""
    run_play(1_000)  # warm up: imports and caches no round should pay for
    timings = alternate({"literal": lambda: literal_play_run(literal_games),
                         "model": lambda: run_play(n_games)}, rounds)
    (lit, lit_min, lit_med), (model, model_min, model_med) = timings["literal"], timings["model"]
    lit_rate, model_rate = literal_games / lit_min, n_games / model_min
    ratio_median = (n_games / model_med) / (literal_games / lit_med)
    by_turn_lit = np.cumsum(lit[:, :-1], axis=1) / literal_games
    by_turn_model = np.cumsum(model[:, :-1], axis=1) / n_games
    error = np.sqrt(np.maximum(by_turn_model * (1 - by_turn_model), 1e-12) / literal_games)
    worst_z = float(np.max(np.abs(by_turn_lit - by_turn_model) / error))
    table = Table(title=f"Duel Masters playability, {model.shape[0]} targets x turns 1-{PLAY_TURNS}, one core, "
                  f"alternated over {rounds} rounds: min / median time")
    for column in ("method", "games", "seconds (min / median)", "games/s (best)", "× literal (best / median)",
                   "result"):
        table.add_column(column, justify="left" if column == "method" else "right")
    table.add_row("literal python (random.shuffle)", f"{literal_games:,}", f"{lit_min:.2f} / {lit_med:.2f}",
                  f"{lit_rate:,.0f}", "1", f"turn 3, first card: {by_turn_lit[0, 2]:.3f}")
    table.add_row("vectorised mana model", f"{n_games:,}", f"{model_min:.2f} / {model_med:.2f}",
                  f"{model_rate:,.0f}", f"{model_rate / lit_rate:,.0f} / {ratio_median:,.0f}",
                  f"turn 3, first card: {by_turn_model[0, 2]:.4f}; max |z| vs literal {worst_z:.2f}")
    console.print(table)
    figures["play"] = {"literal_games_per_s": lit_rate, "model_games_per_s": model_rate,
                       "ratio_best": model_rate / lit_rate, "ratio_median": ratio_median, "max_abs_z": worst_z}


def run_wankul_curve(n_games: int, players: int, policy: str, seed: int = 1) -> np.ndarray:
    """Every card of the Wankul sample deck as a target, under the discard model with 1 or 2 players.

    The simulation path of :func:`deckstat.curve` (its block task on blocks of 50,000 games), first seat, turns
    1-10. Returns the tallies (n_cards, PLAY_TURNS + 1).
    """
    profile = deckstat.get_profile("wankul")
    deck = profile.drawn_deck(deckstat.load_deck(WANKUL_SAMPLE)).with_synonyms(profile.synonyms)
    model = DiscardModel(deck, profile, policy=policy, settings={**profile.play_model.settings, "players": players})
    rows = np.arange(len(deck.cards))
    keep = parse_event(profile.keep)
    dealing = Dealing.of(deck, profile.hand_size, profile.set_aside, keep, 1)
    plan = schedule(profile, "first", PLAY_TURNS, profile.library_size(deck.size))
    spec = CurveSpec(model, dealing, tuple(rows == row for row in rows), (plan,),
                     dealing if players == 2 else None)
    tallies = np.zeros((len(rows), PLAY_TURNS + 1), dtype=np.int64)
    starts = range(0, n_games, PLAY_BLOCK)
    for start, rng in zip(starts, np.random.default_rng(seed).spawn(len(starts))):
        tallies += curve_task(spec, rng, min(PLAY_BLOCK, n_games - start))[0]
    return tallies


def wankul_curve_section(n_games: int, rounds: int, console: Console, figures: dict) -> None:
    """Time the two-player Wankul curve against the one-player model of earlier versions, alternated."""
    table = Table(title=f"Wankul playability, every card of the sample deck x turns 1-{PLAY_TURNS}, {n_games:,} "
                  f"games, one core, alternated over {rounds} rounds: min / median time")
    for column in ("policy", "1 player (s)", "2 players (s)", "2 / 1 (best / median)"):
        table.add_column(column, justify="left" if column == "policy" else "right")
    figures["wankul_curve"] = {}
    for policy in ("hold", "curve"):
        run_wankul_curve(2_000, 2, policy)  # warm up
        timings = alternate({"one": lambda policy=policy: run_wankul_curve(n_games, 1, policy),
                             "two": lambda policy=policy: run_wankul_curve(n_games, 2, policy)}, rounds)
        (_, one_min, one_med), (_, two_min, two_med) = timings["one"], timings["two"]
        table.add_row(policy, f"{one_min:.2f} / {one_med:.2f}", f"{two_min:.2f} / {two_med:.2f}",
                      f"{two_min / one_min:.2f} / {two_med / one_med:.2f}")
        figures["wankul_curve"][policy] = {"one_player_s": one_min, "two_players_s": two_min,
                                           "ratio_best": two_min / one_min, "ratio_median": two_med / one_med}
    console.print(table)


def optimise_section(seconds: float, console: Console, figures: dict) -> None:
    """Candidate decks the optimiser evaluates in a budget: the Wankul sample and its pool, an exact objective.

    Timed as the optimiser reports it (its own clock, one core): candidate decks evaluated (each cell count
    answered once by the exact engine, the other candidates with the same counts from memory), exact answers
    and legality checks, per 60 seconds.
    """
    deck = deckstat.load_deck(ROOT / "data" / "wankul" / "sample_deck.csv")
    pool = deckstat.load_deck(ROOT / "data" / "wankul" / "pool.csv")
    table = Table(title=f"Optimiser, Wankul sample and pool (50 cards, {len(pool.cards)} pool cards), exact "
                  f"objectives, {seconds:g} s budget, one core")
    for column in ("objectives", "search", "candidates evaluated", "exact answers", "legality checks",
                   "candidates per 60 s", "gain (pp)"):
        table.add_column(column, justify="left" if column in ("objectives", "search") else "right")
    figures["optimise"] = {}
    for label, objectives in (("one", ["odds: Terrain>=1 and [cost<=1]>=1 @ 2"]),
                              ("two", ["odds: Terrain>=1 and [cost<=1]>=1 @ 2", "odds: [cost>=2]>=1 @ 3"])):
        result = deckstat.optimise(deck, "wankul", objectives=objectives, pool=pool, budget=seconds, rng=1)
        facts = result.provenance
        per_minute = facts["evaluations"] / facts["seconds"] * 60
        gain = float(result.table.set_index("candidate").loc["best", "gain"]) * 100
        table.add_row(label, facts["search"], f"{facts['evaluations']:,}", f"{facts['distinct_evaluations']:,}",
                      f"{facts['legality_checks']:,}", f"{per_minute:,.0f}", f"{gain:.2f}")
        figures["optimise"][label] = {key: facts[key] for key in ("evaluations", "distinct_evaluations",
                                                                   "legality_checks", "restarts", "seconds")}
        figures["optimise"][label]["candidates_per_60s"] = per_minute
    console.print(table)


#: The changes a player makes in the explorer, in turn: copy counts up and down, events, seats, turns.
EXPLORE_CHANGES = {
    "wankul": (WANKUL_SAMPLE, [{"copies:Le Grenier Hanté": 1}, {"copies:Ninja du Marché": 3},
                               {"event": "Terrain>=2"}, {"copies:Le Grenier Hanté": 2},
                               {"event": "Terrain>=1 and [cost<=1]>=1"}, {"seat": "second"},
                               {"copies:Ninja du Marché": 2}, {"turns": (0, 10)}, {"event": "Terrain>=1"},
                               {"seat": "first"}, {"turns": (0, 6)}, {"copies:Robot Camembert": 2},
                               {"copies:Robot Camembert": 3}]),
    "duel-masters": (DM_SAMPLE, [{"event": "[civilization~=Feu]>=1"}, {"seat": "second"},
                                 {"event": "[civilization~=Feu]>=1 and Sort>=1"}, {"turns": (0, 8)},
                                 {"seat": "first"}, {"event": "Créature>=2"}, {"turns": (0, 6)}]),
}


WANKUL_V2 = ROOT / "data" / "wankul" / "sample_deck_v2.csv"


def overhead_specs(exact_tasks: int, simulated_tasks: int) -> dict[str, dict]:
    """Specs of small tasks on the Wankul sample deck: exact odds without mulligan, and 2,000-trial simulations.

    The exact spec sweeps 5 events x 20 turn ranges x 2 seats over edited copies of the deck (``counts``: 0 to 4
    Robot Camembert), ``exact_tasks`` of them at most; the simulated one 5 events x 5 turn ranges x 2 seats x 2
    mulligan rules x decks, ``simulated_tasks`` at most.
    """
    events = ["Terrain>=1", "Terrain>=2", "Terrain>=3", "[cost<=1]>=1", "Terrain>=1 and [cost<=2]>=1"]
    turns = [str(t) for t in range(10)] + [f"0-{t}" for t in range(1, 11)]
    per_deck = len(events) * len(turns) * 2
    decks = {f"c{i}": {"path": str(WANKUL_SAMPLE), "game": "wankul", "counts": {"Robot Camembert": i}}
             for i in range(max(1, -(-exact_tasks // per_deck)))}
    exact = {"name": "exact", "seed": 7, "decks": decks, "questions": [{
        "question": "odds", "method": "exact", "mulligan": False,
        "sweep": {"event": events, "turns": turns, "seat": ["first", "second"]}}]}
    simulated = {"name": "simulated", "seed": 7, "trials": 2_000, "decks": {
        "w": {"path": str(WANKUL_SAMPLE), "game": "wankul"}, "v2": {"path": str(WANKUL_V2), "game": "wankul"}},
        "questions": [{"question": "odds", "method": "simulate", "sweep": {
            "event": events, "turns": ["0-2", "0-4", "0-6", "3", "5"], "seat": ["first", "second"],
            "mulligan_rule": ["bottom", "london"]}}]}
    specs = {"exact": exact, "simulated": simulated}
    for name, count in (("exact", exact_tasks), ("simulated", simulated_tasks)):
        specs[name] = _first_tasks(specs[name], count)
    return specs


def _first_tasks(spec: dict, count: int) -> dict:
    """``spec`` cut to its first ``count`` tasks: the first sweep values kept, the last key shortened first."""
    from deckstat.batching import load_spec

    question = spec["questions"][0]
    while len(load_spec(spec).tasks) > count:
        sweep = question["sweep"]
        name = next(key for key in reversed(list(sweep)) if len(sweep[key]) > 1) if any(
            len(v) > 1 for v in sweep.values()) else None
        if name is None:
            break
        sweep[name] = sweep[name][:-1]
    return spec


def loop_method(spec) -> tuple:
    """The baseline: each task's question called directly through the public API, in a Python loop.

    Decks are loaded and arguments written before the timing, as a script would hold them; each call is the one
    :func:`deckstat.batching.run_task` makes (``rng`` the task's seed, one worker, no side tables).
    """
    from deckstat.batching.tasks import QUESTIONS, api_arguments, cached_deck

    calls = []
    for task in spec.tasks:
        decks = [cached_deck(source) for source in task.decks]
        arguments = {"sides": False, **api_arguments(task, decks)}
        calls.append((QUESTIONS[task.question], decks[0], task.game, task.seed(spec.seed), arguments))

    def run() -> list[float]:
        p = []
        for function, deck, game, seed, arguments in calls:
            p += function(deck, game, rng=seed, n_workers=1, **arguments).table["p"].tolist()
        return p
    return run


def batch_method(spec: dict, folder: Path):
    """The whole ``deckstat.batch`` of ``spec`` (a dict: read, checked and planned each time) into ``folder``."""
    def run() -> list[float]:
        return deckstat.batch(spec, out=folder, workers=1, overwrite=True).table["p"].tolist()
    return run


def batch_overhead_section(exact_tasks: int, simulated_tasks: int, rounds: int, console: Console,
                           figures: dict) -> None:
    """Small tasks through ``deckstat.batch`` (one worker, in this process) against the same calls in a loop.

    Both are alternated round by round after a warm-up (imports, deck and profile caches, numba's code); the
    batch reads and plans its spec and writes its journal, manifest and results each round. The overhead per task
    is the batch's time less the loop's, shared out over the tasks, per round (min and median of the rounds).
    """
    specs = overhead_specs(exact_tasks, simulated_tasks)
    table = Table(title=f"Per-task overhead of deckstat batch, one worker, against the same questions called in a "
                  f"loop, alternated over {rounds} rounds (CPU and wall seconds, min / median)")
    for column in ("spec", "tasks", "batch CPU", "loop CPU", "batch wall", "loop wall", "batch ÷ loop (CPU)",
                   "overhead per task, CPU", "overhead per task, wall", "same p"):
        table.add_column(column, justify="right")
    figures["batch_overhead"] = {}
    with tempfile.TemporaryDirectory() as temporary:
        for name, spec in specs.items():
            from deckstat.batching import load_spec

            loaded = load_spec(spec)
            n_tasks = len(loaded.tasks)
            methods = {"batch": batch_method(spec, Path(temporary) / name), "loop": loop_method(loaded)}
            cpu: dict[str, list[float]] = {key: [] for key in methods}
            wall: dict[str, list[float]] = {key: [] for key in methods}
            results = {key: method() for key, method in methods.items()}  # warm-up
            for _ in range(rounds):
                for key, method in methods.items():
                    start, used = time.perf_counter(), time.process_time()
                    results[key] = method()
                    cpu[key].append(time.process_time() - used)
                    wall[key].append(time.perf_counter() - start)
            per_task = {kind: [(b - lo) / n_tasks * 1000 for b, lo in zip(times["batch"], times["loop"])]
                        for kind, times in (("cpu", cpu), ("wall", wall))}
            same = results["batch"] == results["loop"]
            figure = {"tasks": n_tasks, "same_p": same}
            for kind, times in (("cpu", cpu), ("wall", wall)):
                for key in methods:
                    figure[f"{key}_{kind}_min_s"] = min(times[key])
                    figure[f"{key}_{kind}_median_s"] = statistics.median(times[key])
                figure[f"overhead_{kind}_ms_min"] = min(per_task[kind])
                figure[f"overhead_{kind}_ms_median"] = statistics.median(per_task[kind])
            figure["ratio_cpu_min"] = figure["batch_cpu_min_s"] / figure["loop_cpu_min_s"]
            figure["ratio_cpu_median"] = figure["batch_cpu_median_s"] / figure["loop_cpu_median_s"]
            figures["batch_overhead"][name] = figure

            def pair(key: str, kind: str, figure: dict = figure) -> str:
                return f"{figure[f'{key}_{kind}_min_s']:.2f} / {figure[f'{key}_{kind}_median_s']:.2f}"
            table.add_row(name, f"{n_tasks:,}", pair("batch", "cpu"), pair("loop", "cpu"), pair("batch", "wall"),
                          pair("loop", "wall"), f"{figure['ratio_cpu_min']:.2f} / {figure['ratio_cpu_median']:.2f}",
                          f"{figure['overhead_cpu_ms_min']:.2f} / {figure['overhead_cpu_ms_median']:.2f} ms",
                          f"{figure['overhead_wall_ms_min']:.2f} / {figure['overhead_wall_ms_median']:.2f} ms",
                          "yes" if same else "NO")
    console.print(table)


def explore_baseline(explorer) -> float:
    """Seconds of the bare ``deckstat.odds`` call that answers the explorer's question now (its floor)."""
    state = explorer.state
    started = time.perf_counter()
    deckstat.odds(explorer.deck, explorer.profile, state.event, turns=range(state.turns[0], state.turns[1] + 1),
                  seat=state.seat, sides=False, rng=state.seed, n_trials=4_000, **explorer._rules())
    return time.perf_counter() - started


def _quantiles(seconds: list[float]) -> tuple[float, float]:
    """Median and 95th percentile, in milliseconds."""
    values = sorted(seconds)
    return statistics.median(values) * 1000, values[min(len(values) - 1, round(0.95 * (len(values) - 1)))] * 1000


def explore_section(rounds: int, console: Console, figures: dict) -> None:
    """The explorer's answer to a change: in its own process, then in a real browser when one is installed.

    Server side, each change's first stage (checks, the exact answer, the views redrawn) against the bare odds
    call of the same question, alternated change by change; the slower views answer meanwhile in the helper
    process, as on a page. Page side, ``deckstat explore`` in a process of its own and headless Chromium: the
    time, measured in the page, from a change to its new numbers.
    """
    from deckstat.explorer.app import Explorer, latency

    table = Table(title="Explorer: a change to its first answer (ms), changes made back to back")
    for column in ("deck", "changes", "explorer median", "explorer p95", "odds alone median", "odds alone p95",
                   "explorer ÷ odds (medians)"):
        table.add_column(column, justify="left" if column == "deck" else "right")
    figures["explore"] = {}
    for game, (path, changes) in EXPLORE_CHANGES.items():
        explorer = Explorer.open(path, game, lang="en", helper=True)  # as on a page (main() is guarded)
        latency(explorer, changes)  # compiled and cached once, as a page is after its first answers
        mine, floor = [], []
        for _ in range(rounds):
            for change in changes:
                mine.extend(latency(explorer, [change]))
                floor.append(explore_baseline(explorer))
        explorer.wait()
        (median, p95), (floor_median, floor_p95) = _quantiles(mine), _quantiles(floor)
        table.add_row(f"{game}, {path.name}", str(len(mine)), f"{median:.0f}", f"{p95:.0f}", f"{floor_median:.0f}",
                      f"{floor_p95:.0f}", f"{median / floor_median:.2f}")
        figures["explore"][game] = {"changes": len(mine), "median_ms": median, "p95_ms": p95,
                                    "odds_median_ms": floor_median, "odds_p95_ms": floor_p95}
    # A simulated question (Wankul's sample under the London mulligan): the first answer, on 4,000 games, and
    # the time until every view has tightened (the helper process's passes up to 128,000 games).
    explorer = Explorer.open(WANKUL_SAMPLE, "wankul", lang="en", helper=True)
    explorer.rule_input.value = "london"
    explorer.wait()
    first, settled = [], []
    for _ in range(rounds):
        for change in ({"copies:Le Grenier Hanté": 1}, {"copies:Le Grenier Hanté": 2}):
            started = time.perf_counter()
            first.extend(latency(explorer, [change]))
            explorer.wait()
            settled.append(time.perf_counter() - started)
    (median, p95), (settled_median, settled_p95) = _quantiles(first), _quantiles(settled)
    table.add_row("wankul, sample_deck.csv, London (simulated)", str(len(first)), f"{median:.0f}", f"{p95:.0f}",
                  "–", "–", "–")
    figures["explore"]["simulated"] = {"changes": len(first), "first_median_ms": median, "first_p95_ms": p95,
                                       "settled_median_ms": settled_median, "settled_p95_ms": settled_p95}
    console.print(table)
    console.print(f"Simulated question (London mulligan): first answer on 4,000 games, then every view tightened "
                  f"to 128,000 games in the helper process after a median {settled_median:.0f} ms "
                  f"(95th percentile {settled_p95:.0f} ms) from the change.")
    page_times(rounds, console, figures)


def page_times(rounds: int, console: Console, figures: dict) -> None:
    """Seconds from a change in the page to its new numbers, in headless Chromium (skipped without one).

    Timed twice: after the page has finished answering the previous change (a player who reads the answer before
    changing something else), and back to back (the previous change's slower views still being answered and drawn
    by the same two cores), each alternated change by change with Panel's own round trip on an echo page.
    """
    from page_driver import Server, chromium, launch, timed_change

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        console.print("The page was not timed: Playwright is not installed (pip install playwright).")
        return
    if not chromium():
        console.print("The page was not timed: no chromium on the PATH (Debian's chromium package).")
        return
    seconds: dict[str, list[float]] = {"settled": [], "back to back": []}
    floor: list[float] = []
    with Server(WANKUL_SAMPLE, "--lang", "en") as server, Server(None) as echo, sync_playwright() as playwright:
        browser = launch(playwright)
        page, bare = browser.new_page(viewport={"width": 1200, "height": 1600}), browser.new_page()
        page.goto(server.url)
        bare.goto(echo.url)
        page.locator(".deckstat-answer").wait_for(timeout=60_000)
        bare.locator(".deckstat-odds-table").wait_for(timeout=60_000)
        boxes = {card: page.locator(".deckstat-copies").filter(has_text=card).locator("input")
                 for card in ("Le Grenier Hanté", "Ninja du Marché")}
        event, echo_box = page.locator(".deckstat-event input"), bare.locator(".deckstat-event input")
        done = page.locator(".deckstat-status [data-done='1']")
        for _ in range(rounds):
            for how in seconds:
                for element, value, kind in ((boxes["Le Grenier Hanté"], "1", "change"),
                                             (event, "Terrain>=2", "input"),
                                             (boxes["Ninja du Marché"], "3", "change"), (event, "Terrain>=1", "input"),
                                             (boxes["Le Grenier Hanté"], "2", "change"),
                                             (boxes["Ninja du Marché"], "2", "change")):
                    if how == "settled":
                        done.wait_for(timeout=60_000)
                    seconds[how].append(timed_change(page, element, value, kind, 60.0))
                    floor.append(timed_change(bare, echo_box, "x" * (len(floor) % 5 + 1), "input", 60.0))
        browser.close()
    floor_median, floor_p95 = _quantiles(floor)
    figures["explore"]["page"] = {"echo_median_ms": floor_median, "echo_p95_ms": floor_p95}
    for how, times in seconds.items():
        median, p95 = _quantiles(times)
        console.print(f"Page (headless Chromium, Wankul sample), {len(times)} changes, each {how}, from the change "
                      f"to its new numbers: median {median:.0f} ms, 95th percentile {p95:.0f} ms; "
                      f"explorer ÷ echo (medians) {median / floor_median:.2f}.")
        figures["explore"]["page"][how.replace(" ", "_")] = {"changes": len(times), "median_ms": median,
                                                              "p95_ms": p95}
    console.print(f"Panel's own round trip (an echo page, alternated with both): median {floor_median:.0f} ms, "
                  f"95th percentile {floor_p95:.0f} ms.")


def search_deck() -> deckstat.Deck:
    """The Wankul effects deck with Capitaine Baguette's draw made a search for a Terrain (played card by card)."""
    cards = deckstat.load_deck(WANKUL_EFFECTS).cards.copy()
    cards.loc[cards["name"] == "Capitaine Baguette", "effect"] = "cherche=[type=Terrain]:1"
    return deckstat.Deck.from_table(cards)


def run_effects(n_games: int, sides: bool, seed: int = 1, search: bool = False) -> float:
    """P(Robot Camembert by turn 6) on the Wankul deck with six draw-effect cards, first seat, turns 0-6.

    ``sides=False``: the compiled kernel's simulated answer alone (no effects); True: the side that plays the
    draw effects and the drought draws on two-player games (:func:`deckstat.questions.odds.plan_sides`) alone;
    ``search``: the same side with three of the draws made searches (:func:`search_deck`), which the compiled
    game of :mod:`deckstat.engines.seen` plays.
    """
    deck = search_deck() if search else deckstat.load_deck(WANKUL_EFFECTS)
    if not sides:
        return float(deckstat.odds(deck, "wankul", EFFECT_EVENT, turns=range(7), seat="first", method="simulate",
                                   n_trials=n_games, rng=seed, sides=False).table["p"].iloc[-1])
    plan = plan_odds(deck, "wankul", EFFECT_EVENT, turns=range(7), seat="first")
    estimates = estimate(plan.sides.part, Simulation(n_trials=n_games, rng=seed))
    return float(estimates.values[1, 0, 0, -1] / estimates.n_trials)


def effects_section(n_games: int, rounds: int, console: Console, figures: dict) -> None:
    """Time the draw-effects side of an odds question against the compiled kernel's answer, alternated."""
    run_effects(2_000, True)
    run_effects(2_000, True, search=True)
    run_effects(2_000, False)  # warm up all three
    timings = alternate({"kernel": lambda: run_effects(n_games, False), "side": lambda: run_effects(n_games, True),
                         "search": lambda: run_effects(n_games, True, search=True)}, rounds)
    (plain, kernel_min, kernel_med), (played, side_min, side_med) = timings["kernel"], timings["side"]
    searched, search_min, search_med = timings["search"]
    table = Table(title=f"Wankul odds with six draw-effect cards, {n_games:,} games, one core, alternated over "
                  f"{rounds} rounds: min / median time")
    for column in ("method", "seconds (min / median)", "games/s (best)", "× kernel (best / median)", "P by turn 6"):
        table.add_column(column, justify="left" if column == "method" else "right")
    table.add_row("compiled kernel, no effects", f"{kernel_min:.2f} / {kernel_med:.2f}", f"{n_games / kernel_min:,.0f}",
                  "1", f"{plain:.4f}")
    table.add_row("effects side (numpy, two players)", f"{side_min:.2f} / {side_med:.2f}",
                  f"{n_games / side_min:,.0f}", f"{kernel_min / side_min:.2f} / {kernel_med / side_med:.2f}",
                  f"{played:.4f}")
    table.add_row("effects side with searches (compiled game)", f"{search_min:.2f} / {search_med:.2f}",
                  f"{n_games / search_min:,.0f}", f"{kernel_min / search_min:.2f} / {kernel_med / search_med:.2f}",
                  f"{searched:.4f}")
    console.print(table)
    figures["effects"] = {"kernel_games_per_s": n_games / kernel_min, "side_games_per_s": n_games / side_min,
                          "search_games_per_s": n_games / search_min,
                          "side_over_kernel_best": kernel_min / side_min,
                          "side_over_kernel_median": kernel_med / side_med}


def batch_spec(n_trials: int, method: str = "simulate") -> dict:
    """200 tasks on the Wankul sample deck: 2 seats x 4 mulligan rules x 5 keep rules x 5 events."""
    return {
        "name": "bench", "seed": 1, "trials": n_trials, "method": method,
        "decks": {"wankul": {"path": str(WANKUL_SAMPLE), "game": "wankul"}},
        "questions": [{
            "question": "odds", "turns": "0-6",
            "sweep": {"seat": ["first", "second"], "mulligan_rule": ["bottom", "london", "vancouver", "free"],
                      "keep": ["Terrain>=1", "Terrain>=2", "Terrain>=1 and [cost<=1]>=1", "Terrain>=1 or [cost<=1]>=2",
                               "not Terrain>=3"],
                      "event": ["Terrain>=1", "Terrain>=2", "[cost<=1]>=1", "Terrain>=1 and [cost<=2]>=2",
                                "Terrain>=2 or [cost>=3]>=1"]},
        }],
    }


def run_batch(spec, n_workers: int):
    """The whole batch on ``n_workers`` processes (1: in this process), pool start included."""
    return deckstat.batch(spec, workers=n_workers)


def batch_section(n_trials: int, rounds: int, console: Console, figures: dict) -> None:
    """Time a 200-task spec on 1, 2 and 4 workers (and every core), alternated; speed-ups over 1 worker."""
    from deckstat.batching import load_spec

    n_cores = cores()
    counts = sorted(set(WORKER_COUNTS) | {n_cores})
    spec = load_spec(batch_spec(n_trials))
    run_batch(spec, 1)  # warm up: imports, deck and profile caches
    timings = alternate({w: functools.partial(run_batch, spec, w) for w in counts}, rounds)
    one, one_min, one_med = timings[1]
    task_seconds = float(one.tasks["seconds"].sum())
    table = Table(title=f"A {len(spec.tasks)}-task batch spec ({n_trials:,} simulated trials a task) on "
                  f"{n_cores} usable cores, alternated over {rounds} rounds")
    for column in ("workers", "seconds (min / median)", "speed-up over 1 worker (best / median)",
                   "overhead per task", "same table"):
        table.add_column(column, justify="right")
    figures["batch"] = {"tasks": len(spec.tasks), "trials_per_task": n_trials, "cores": n_cores}
    for w, (result, low, median) in timings.items():
        same = result.table.equals(one.table)
        # Worker time not spent in a task (start-up, hand-over, waiting at the end), shared out per task.
        overhead = max(0.0, low * min(w, n_cores) - task_seconds) / len(spec.tasks)
        table.add_row(f"{w}{' (every core)' if w == n_cores else ''}", f"{low:.2f} / {median:.2f}",
                      f"{one_min / low:.2f} / {one_med / median:.2f}", f"{overhead * 1000:.1f} ms",
                      "yes" if same else "NO")
        figures["batch"][w] = {"seconds_min": low, "seconds_median": median, "speedup_best": one_min / low,
                               "speedup_median": one_med / median, "overhead_per_task_s": overhead,
                               "same_table": same}
    console.print(table)


#: The same question simulated at the default trials and answered exactly (whole commands).
SIMULATED_PAIRS = {
    "wankul odds": ["odds", str(WANKUL_SAMPLE), "--game", "wankul", "-e", WANKUL_EVENT, "--seed", "1"],
    "mtg odds, no mulligan": ["odds", str(MTG_DECK), "--game", str(MTG_PROFILE), "-e", "Land>=4", "--turns", "4",
                              "--no-mulligan", "--seed", "1"],
    "duel masters odds": ["odds", str(DM_SAMPLE), "--game", "duel-masters", "-e",
                          "[cost<=2]>=1 and [civilization=Feu]>=2", "--seed", "1"],
}
#: Simulated questions run with numba's on-disk cache empty (as after install) and full.
FIRST_RUNS = {
    "wankul odds, 200,000 trials": ["odds", str(WANKUL_SAMPLE), "--game", "wankul", "-e", WANKUL_EVENT, "--simulate",
                                    "--seed", "1"],
    "wankul odds, 10^7 trials": ["odds", str(WANKUL_SAMPLE), "--game", "wankul", "-e", WANKUL_EVENT, "--trials",
                                 "1e7", "--seed", "1"],
    "mtg odds, London, 200,000 trials": ["odds", str(MTG_DECK), "--game", str(MTG_PROFILE), "-e", "Land>=4",
                                         "--turns", "4", "--seed", "1"],
    "mtg odds, London, 10^7 trials": ["odds", str(MTG_DECK), "--game", str(MTG_PROFILE), "-e", "Land>=4",
                                      "--turns", "4", "--trials", "1e7", "--seed", "1"],
}


def command_method(args: list[str], source: Path | None = None, env: dict | None = None, before=None):
    """A method for :func:`alternate` running ``deckstat ARGS`` in a fresh process; returns its CPU seconds.

    ``source``: a checkout whose ``deckstat`` package runs instead of this one (``--before``). ``before()``
    is called first in each round, outside the timing (e.g. to empty a cache).
    """
    environment = {**os.environ, **(env or {})}
    environment.pop("DECKSTAT_LANG", None)
    if source is not None:
        environment["PYTHONPATH"] = str(source)

    def run() -> float:
        if before is not None:
            before()
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        # Run from the temporary directory: the current directory would come first on the path, before --before.
        subprocess.run([sys.executable, "-m", "deckstat", *args], cwd=tempfile.gettempdir(), env=environment,
                       check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime
    return run


def cpu_of(name: str, methods: dict, rounds: int) -> dict[str, tuple[float, float, float, float]]:
    """Alternate ``methods`` (each returning its CPU seconds): {name: (cpu min, cpu median, wall min, wall median)}."""
    cpu: dict[str, list[float]] = {key: [] for key in methods}
    wall: dict[str, list[float]] = {key: [] for key in methods}
    for _ in range(rounds):
        for key, function in methods.items():
            start = time.perf_counter()
            cpu[key].append(function())
            wall[key].append(time.perf_counter() - start)
    return {key: (min(cpu[key]), statistics.median(cpu[key]), min(wall[key]), statistics.median(wall[key]))
            for key in methods}


def simulated_start_section(rounds: int, before: Path | None, console: Console, figures: dict,
                            quick: bool = False) -> None:
    """Whole commands: simulated versus exact, and a first run with numba's cache empty versus a warm one.

    ``quick``: one question of each table, none that compiles.
    """
    pairs = dict(list(SIMULATED_PAIRS.items())[:1]) if quick else SIMULATED_PAIRS
    first_runs = dict(list(FIRST_RUNS.items())[:1]) if quick else FIRST_RUNS
    sources = {"now": None} if before is None else {"now": None, "before": before}
    load = os.getloadavg()[0]
    figures["simulated_start"] = {"load_1min": load}
    table = Table(title=f"Simulated at the default trials ÷ the same question exact (whole process, CPU; "
                        f"{rounds} alternated rounds; load {load:.1f})")
    for column in ("question", "code", "exact CPU s (min / median)", "simulated CPU s (min / median)",
                   "simulated ÷ exact (min / median)", "wall ratio (median)"):
        table.add_column(column, justify="left" if column in ("question", "code") else "right")
    for question, args in pairs.items():
        methods = {}
        for code, source in sources.items():
            methods[(code, "exact")] = command_method([*args, "--exact"], source)
            methods[(code, "simulated")] = command_method([*args, "--simulate"], source)
        timed = cpu_of(question, methods, rounds)
        for code in sources:
            exact, simulated = timed[(code, "exact")], timed[(code, "simulated")]
            table.add_row(question, code, f"{exact[0]:.2f} / {exact[1]:.2f}",
                          f"{simulated[0]:.2f} / {simulated[1]:.2f}",
                          f"{simulated[0] / exact[0]:.2f} / {simulated[1] / exact[1]:.2f}",
                          f"{simulated[3] / exact[3]:.2f}")
            figures["simulated_start"][f"{question} ({code})"] = {
                "exact_cpu": exact[:2], "simulated_cpu": simulated[:2], "ratio_min": simulated[0] / exact[0],
                "ratio_median": simulated[1] / exact[1], "wall_ratio_median": simulated[3] / exact[3]}
    console.print(table)

    table = Table(title="First simulated question after install (numba's cache empty) ÷ the same with the cache "
                        "full (whole process, CPU)")
    for column in ("question", "code", "warm CPU s (min / median)", "first CPU s (min / median)",
                   "first ÷ warm (min / median)", "wall ratio (median)"):
        table.add_column(column, justify="left" if column in ("question", "code") else "right")
    with tempfile.TemporaryDirectory() as scratch:
        warm_dir = Path(scratch) / "warm"
        cold_dir = Path(scratch) / "cold"

        def empty() -> None:
            shutil.rmtree(cold_dir, ignore_errors=True)

        for question, args in first_runs.items():
            methods = {}
            for code, source in sources.items():
                warm = command_method(args, source, {"NUMBA_CACHE_DIR": str(warm_dir / code)})
                warm()  # fills the warm cache
                methods[(code, "warm")] = warm
                methods[(code, "first")] = command_method(args, source, {"NUMBA_CACHE_DIR": str(cold_dir)}, empty)
            timed = cpu_of(question, methods, rounds)
            for code in sources:
                warm, first = timed[(code, "warm")], timed[(code, "first")]
                table.add_row(question, code, f"{warm[0]:.2f} / {warm[1]:.2f}", f"{first[0]:.2f} / {first[1]:.2f}",
                              f"{first[0] / warm[0]:.2f} / {first[1] / warm[1]:.2f}", f"{first[3] / warm[3]:.2f}")
                figures["simulated_start"][f"first run: {question} ({code})"] = {
                    "warm_cpu": warm[:2], "first_cpu": first[:2], "ratio_min": first[0] / warm[0],
                    "ratio_median": first[1] / warm[1], "wall_ratio_median": first[3] / warm[3]}
    console.print(table)
    console.print("'before' is the deckstat of --before, run in the same rounds; numba's cache is put in a "
                  "directory of its own (NUMBA_CACHE_DIR), emptied before each first run.")


def worker_commands(n_trials: int, folder: Path) -> dict[str, list[str]]:
    """Whole commands of ``n_trials`` simulated trials (a batch spec of 10 tasks sharing them)."""
    spec = folder / "workers.toml"
    events = [f"Terrain>={k % 3 + 1} and [cost<={k // 3 + 1}]>=1" for k in range(10)]
    questions = "".join(f'[[questions]]\nquestion = "odds"\nevent = "{event}"\nturns = "0-6"\nmethod = "simulate"\n\n'
                        for event in events)
    spec.write_text(f'name = "workers"\nseed = 1\ngame = "wankul"\ntrials = {n_trials // 10}\n\n[decks.sample]\n'
                    f'path = "{WANKUL_SAMPLE.as_posix()}"\n\n{questions}', encoding="utf-8")
    trials = str(n_trials)
    return {
        "odds, wankul sample": ["odds", str(WANKUL_SAMPLE), "--game", "wankul", "-e", WANKUL_EVENT, "--trials", trials,
                                "--seed", "1"],
        "odds, mtg London": ["odds", str(MTG_DECK), "--game", str(MTG_PROFILE), "-e", "Land>=4", "--turns", "4",
                             "--trials", trials, "--seed", "1"],
        "curve, duel masters (10x fewer trials)": ["curve", str(DM_SAMPLE), "--game", "duel-masters", "--simulate",
                                                    "--trials", str(n_trials // 10), "--seed", "1"],
        "ratio, wankul 10-12 Terrains": ["ratio", str(WANKUL_SAMPLE), "--game", "wankul", "--range", "10-12",
                                         "--simulate", "--trials", str(n_trials // 3), "--seed", "1"],
        "batch, 10 wankul tasks": ["batch", str(spec), "--out", str(folder / "out"), "--overwrite"],
    }


def workers_commands_section(n_trials: int, rounds: int, console: Console, figures: dict,
                             quick: bool = False) -> None:
    """Whole commands on ``--workers 2`` against ``--workers 1``, alternated: the speed-up a player sees.

    ``quick``: the first command alone.
    """
    load = os.getloadavg()[0]
    table = Table(title=f"Whole commands, --workers 2 ÷ --workers 1 ({cores()} cores usable, {rounds} alternated "
                        f"rounds, load {load:.1f} at the start)")
    for column in ("command", "1 worker wall s (min / median)", "2 workers wall s (min / median)",
                   "speed-up (best / median)", "CPU 2 ÷ 1 (median)"):
        table.add_column(column, justify="left" if column == "command" else "right")
    figures["workers_commands"] = {"load_1min": load, "n_trials": n_trials}
    with tempfile.TemporaryDirectory() as scratch:
        commands = worker_commands(n_trials, Path(scratch))
        for name, args in list(commands.items())[:1] if quick else commands.items():
            methods = {w: command_method([*args, "--workers", str(w)]) for w in (1, 2)}
            timed = cpu_of(name, methods, rounds)
            one, two = timed[1], timed[2]
            table.add_row(name, f"{one[2]:.2f} / {one[3]:.2f}", f"{two[2]:.2f} / {two[3]:.2f}",
                          f"{one[2] / two[2]:.2f} / {one[3] / two[3]:.2f}", f"{two[1] / one[1]:.2f}")
            figures["workers_commands"][name] = {"one_wall": one[2:], "two_wall": two[2:],
                                                 "speedup_best": one[2] / two[2], "speedup_median": one[3] / two[3],
                                                 "cpu_ratio_median": two[1] / one[1]}
    console.print(table)
    console.print(f"load average (1, 5, 15 min) at the end: {', '.join(f'{v:.2f}' for v in os.getloadavg())}")


def plain_baseline(n_trials: int, seed: int) -> float:
    """P(at least 4 lands in the top 10 of 60 cards with 24 lands), no mulligan, plain Python."""
    rng = random.Random(seed)
    deck = ["L"] * 24 + ["S"] * 36
    hits = 0
    for _ in range(n_trials):
        rng.shuffle(deck)
        hits += deck[:10].count("L") >= 4
    return hits / n_trials


def build_yardstick() -> tuple[Path | None, str]:
    """Build the Rust yardstick (``shared/yardstick/rsbase`` beside the repository, or ``$DECKSTAT_YARDSTICK``).

    Returns the binary, or None and why it is skipped. The build goes to a
    directory under the system's temporary directory (the source may be
    read-only) and is reused by later runs.
    """
    source = Path(os.environ.get("DECKSTAT_YARDSTICK", ROOT.parent / "shared" / "yardstick" / "rsbase"))
    if not (source / "Cargo.toml").is_file():
        return None, f"no compiled yardstick: {source} has no Cargo.toml"
    cargo = shutil.which("cargo")
    if cargo is None:
        return None, "no compiled yardstick: cargo is not installed"
    target = Path(tempfile.gettempdir()) / "deckstat-bench-yardstick"
    built = subprocess.run([cargo, "build", "--release", "--offline", "--quiet", "--manifest-path",
                            str(source / "Cargo.toml"), "--target-dir", str(target)], capture_output=True, text=True)
    binary = target / "release" / "rsbase"
    if built.returncode or not binary.is_file():
        reason = (built.stderr.strip().splitlines() or ["no output"])[-1]
        return None, f"no compiled yardstick: cargo build failed ({reason})"
    return binary, ""


def yardstick_method(binary: Path, mode: str, shuffle: str, n_trials: int, seconds: list[float]):
    """A method for :func:`alternate` running the Rust loop; its own timing of the loop goes to ``seconds``.

    The loop's own clock leaves out the process start (about a millisecond), so the compiled figure is the
    loop alone.
    """
    def run() -> float:
        out = subprocess.run([str(binary), mode, str(n_trials), shuffle], capture_output=True, text=True,
                             check=True).stdout
        fields = dict(field.split("=") for field in out.split() if "=" in field)
        seconds.append(float(fields["secs"]))
        return float(fields["p"])
    return run


def run_land_share(n_trials: int, seed: int = 1) -> tuple[float, float]:
    """The compiled loops' London question on deckstat's engine: (P, its standard error).

    The ``mtg`` scenario's deck, keep rule and event dealt by the kernel with
    the land share (0.4 of the kept hand) as the needs policy's only need:
    surplus lands go under the deck first, then spells, then the lands the
    share wants, which is the loops' bottom rule. Blocks and seeds as a
    simulated ``deckstat.odds`` call runs them, on this process; the
    question layer (deck, profile, tables) is left out.
    """
    land = parse_event("Land>=1").group.key
    spec = DealSpec(cell_counts=np.array([36, 24]), table=np.array([[0], [1]], dtype=np.int8), group_keys=(land,),
                    hand_size=7, set_aside=0, max_draws=3, mulligan="london", mulligan_limit=2,
                    keep=parse_event("Land>=2 and Land<=5", what="keep rule"), resource=np.array([False, True]),
                    resource_target=0.4)
    event = parse_event("Land>=4")
    sizes = [BLOCK_TRIALS] * (n_trials // BLOCK_TRIALS) + ([n_trials % BLOCK_TRIALS] if n_trials % BLOCK_TRIALS else [])
    hits = sum(int(odds_task(spec, (event,), "seen", (3,), np.random.default_rng(child), size)[0, 0])
               for child, size in zip(np.random.SeedSequence(seed).spawn(len(sizes)), sizes))
    p = hits / n_trials
    return p, float(np.sqrt(p * (1 - p) / n_trials))


def cpu_timed(function, seconds: list[float], children: bool = False):
    """``function``, recording the CPU seconds each call takes into ``seconds``.

    With ``children``, the CPU time of the child processes it waited for. A
    busy machine stretches wall time far more than CPU time.
    """
    def clock() -> float:
        if not children:
            return time.process_time()
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    def run():
        start = clock()
        result = function()
        seconds.append(clock() - start)
        return result
    return run


def kernel_section(baseline_trials: int, kernel_trials: int, yardstick_trials: int, rounds: int,
                   yardstick: Path | None, yardstick_note: str, console: Console, figures: dict) -> None:
    """Kernel, plain-Python baseline and compiled yardstick on each scenario, alternated round by round."""
    table = Table(title=f"Trials per second (one core), methods alternated over {rounds} rounds: min / median time")
    for column in ("scenario", "method", "trials", "seconds (min / median)", "trials/s (best)",
                   "× baseline (best / median)", "kernel ÷ this (best / median)", "result"):
        table.add_column(column, justify="right" if column not in ("scenario", "method") else "left")

    # Warm up: the first simulation imports scipy.stats, starts the JIT and fills caches, which no round should
    # pay for.
    for scenario in ("wankul", "mtg", "mtg plain"):
        run_kernel(scenario, 1_000)
    run_land_share(1_000)
    deck = deckstat.Deck.from_table(WANKUL_CARDS)
    scenarios = {
        "wankul": {"baseline": lambda: wankul_baseline(baseline_trials, 1),
                   "kernel": lambda: run_kernel("wankul", kernel_trials),
                   "exact": lambda: deckstat.odds(deck, "wankul", WANKUL_EVENT, turns=WANKUL_TURNS, seat="first",
                                                  method="exact").table},
        "mtg plain": {"baseline": lambda: plain_baseline(baseline_trials, 1),
                      "kernel": lambda: run_kernel("mtg plain", kernel_trials)},
        "mtg": {"baseline": lambda: mtg_baseline(baseline_trials, 1),
                "kernel": lambda: run_kernel("mtg", kernel_trials),
                "land share": lambda: run_land_share(kernel_trials)},
    }
    labels = {"wankul": "wankul", "mtg plain": "mtg no mulligan", "mtg": "mtg london"}
    loops = {"mtg plain": "plain", "mtg": "london"}
    cpu_table = Table(title="CPU seconds of the same rounds (min / median), against the compiled partial shuffle")
    for column in ("scenario", "method", "question", "CPU seconds (min / median)", "trials per CPU second (best)",
                   "÷ compiled partial shuffle (best / median)"):
        cpu_table.add_column(column, justify="left" if column in ("scenario", "method", "question") else "right")
    for scenario, methods in scenarios.items():
        loop_seconds = {}
        if yardstick is not None and scenario in loops:
            for shuffle in ("prefix", "full"):
                loop_seconds[shuffle] = []
                methods[f"compiled {shuffle}"] = yardstick_method(yardstick, loops[scenario], shuffle,
                                                                  yardstick_trials, loop_seconds[shuffle])
        cpu = {name: [] for name in ("kernel", "land share", "compiled prefix") if name in methods}
        for name, seconds in cpu.items():
            methods[name] = cpu_timed(methods[name], seconds, children=name.startswith("compiled"))
        timings = alternate(methods, rounds)
        for shuffle, seconds in loop_seconds.items():
            timings[f"compiled {shuffle}"] = (timings[f"compiled {shuffle}"][0], min(seconds),
                                              statistics.median(seconds))
        trials = {"baseline": baseline_trials, "kernel": kernel_trials, "compiled prefix": yardstick_trials,
                  "compiled full": yardstick_trials, "land share": kernel_trials}
        best = {name: trials[name] / low for name, (_, low, _) in timings.items() if name in trials}
        median = {name: trials[name] / med for name, (_, _, med) in timings.items() if name in trials}
        kern = timings["kernel"][0]
        figure = {"baseline_trials_per_s": best["baseline"], "kernel_trials_per_s": best["kernel"],
                  "ratio_best": best["kernel"] / best["baseline"],
                  "ratio_median": median["kernel"] / median["baseline"]}
        names = {"baseline": "python random.shuffle", "kernel": "deckstat kernel",
                 "compiled prefix": "compiled loop, 10-card partial shuffle (Rust)",
                 "compiled full": "compiled loop, full shuffle (Rust)",
                 "land share": "deckstat engine, the loops' bottom rule (land share)"}
        for name, (result, low, med) in timings.items():
            if name == "exact":
                continue
            if name == "kernel":
                p = kern["p"].iloc[-1]
                shown = f"{p:.4f} [{kern['ci_low'].iloc[-1]:.4f}, {kern['ci_high'].iloc[-1]:.4f}]"
            elif name == "land share":
                p, error = result
                shown = f"{p:.4f} [{p - 1.96 * error:.4f}, {p + 1.96 * error:.4f}]"
            else:
                shown = f"{result[-1] if isinstance(result, np.ndarray) else result:.4f}"
            versus = "—" if name == "kernel" else \
                f"{best['kernel'] / best[name]:.2f} / {median['kernel'] / median[name]:.2f}"
            table.add_row(labels[scenario], names[name], f"{trials[name]:,}", f"{low:.3f} / {med:.3f}",
                          f"{best[name]:,.0f}", f"{best[name] / best['baseline']:,.1f} / "
                          f"{median[name] / median['baseline']:,.1f}", versus, shown)
            if name.startswith("compiled"):
                key = name.replace(" ", "_")
                figure[f"{key}_trials_per_s"] = best[name]
                figure[f"kernel_over_{key}_best"] = best["kernel"] / best[name]
                figure[f"kernel_over_{key}_median"] = median["kernel"] / median[name]
                if "land share" in best:
                    figure[f"land_share_over_{key}_best"] = best["land share"] / best[name]
                    figure[f"land_share_over_{key}_median"] = median["land share"] / median[name]
        if "land share" in timings:
            figure["land_share_trials_per_s"] = best["land share"]
            figure["land_share_p"], figure["land_share_se"] = timings["land share"][0]
        if "compiled prefix" in cpu:
            questions = {"kernel": "deckstat's needs policy" if scenario == "mtg" else "the same",
                         "land share": "the same", "compiled prefix": "—"}
            reference = trials["compiled prefix"] / min(cpu["compiled prefix"]), \
                trials["compiled prefix"] / statistics.median(cpu["compiled prefix"])
            for name, seconds in cpu.items():
                low, med = min(seconds), statistics.median(seconds)
                ratio = (trials[name] / low / reference[0], trials[name] / med / reference[1])
                cpu_table.add_row(labels[scenario], names[name], questions[name], f"{low:.3f} / {med:.3f}",
                                  f"{trials[name] / low:,.0f}", f"{ratio[0]:.2f} / {ratio[1]:.2f}")
                if name != "compiled prefix":
                    key = name.replace(" ", "_")
                    figure[f"{key}_over_compiled_prefix_cpu_best"], \
                        figure[f"{key}_over_compiled_prefix_cpu_median"] = ratio
        if "exact" in timings:
            exact, exact_min, exact_med = timings["exact"]
            worst_z = float(np.max(np.abs(kern["p"] - exact["p"])
                                   / np.sqrt(exact["p"] * (1 - exact["p"]) / kernel_trials)))
            table.add_row(labels[scenario], "deckstat exact engine", "—", f"{exact_min:.3f} / {exact_med:.3f}", "—",
                          "—", "—", f"turn 10: {exact['p'].iloc[-1]:.6f}; kernel's max |z| {worst_z:.2f}")
            figure.update({"exact_seconds_min": exact_min, "exact_seconds_median": exact_med, "max_abs_z": worst_z})
        figure["p"] = float(kern["p"].iloc[-1])
        figures[scenario.replace(" ", "_")] = figure
    console.print(table)
    if yardstick_note:
        console.print(yardstick_note)
    else:
        console.print(cpu_table)
        console.print("Which question each answers: without mulligan, the compiled loops and the kernel answer the "
                      "same one. With the London mulligan, the compiled loops bottom toward the deck's land share "
                      "and the kernel's deckstat.odds call toward the event's needs (4 lands: a higher P); the "
                      "'loops' bottom rule' row deals the loops' question with deckstat's engine (the land share as "
                      "the needs policy's only need: the same P), like for like. The compiled loops' time is the "
                      "loop's own; the kernel's the whole deckstat.odds call, the engine row's the blocks of its "
                      "simulation without the question layer.")


#: The light command lines and how they are timed against ``python -c "import typer"`` (--startup).
STARTUP_COMMANDS = {
    "games": (["games"], {}),
    "games show wankul": (["games", "show", "wankul"], {}),
    "games, on a terminal": (["games"], {"TERMINAL": "1"}),
    "games --lang fr": (["games", "--lang", "fr"], {}),
    "DECKSTAT_LANG=fr games": (["games"], {"DECKSTAT_LANG": "fr"}),
    "--help": (["--help"], {}),
    "odds --help": (["odds", "--help"], {}),
}
#: What the start-up of a light command is held to: at most this many times ``import typer``'s whole process.
STARTUP_GOAL = 2.0


def startup_process(argv: list[str], env: dict[str, str]):
    """A method for :func:`startup_section`: run ``argv`` in a fresh process; return its (CPU, wall) seconds."""
    env = dict(env)
    terminal = env.pop("TERMINAL", None) is not None
    environment = {key: value for key, value in os.environ.items() if key != "DECKSTAT_LANG"} | env

    def run() -> tuple[float, float]:
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        if terminal:  # stdout a pseudo-terminal (bold headers), read as it comes so that it never fills
            import pty
            import threading

            reader, writer = pty.openpty()
            drain = threading.Thread(target=_drain, args=(reader,), daemon=True)
            drain.start()
            subprocess.run(argv, env=environment, check=True, stdout=writer, stderr=subprocess.DEVNULL)
            os.close(writer)
            drain.join()
            os.close(reader)
        else:
            subprocess.run(argv, env=environment, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime, wall
    return run


def _drain(descriptor: int) -> None:
    try:
        while os.read(descriptor, 65536):
            pass
    except OSError:  # the terminal's other end closed
        pass


def startup_section(rounds: int, console: Console, figures: dict) -> None:
    """Whole light commands (``games``, ``--help``…) as a ratio to ``python -c "import typer"``, CPU and wall.

    Every round runs the baseline and each command once, in turn; a command's ratio is taken to the baseline
    of its own round (paired, so that a change of the machine's speed between rounds cancels out).
    """
    baseline = startup_process([sys.executable, "-c", "import typer"], {})
    commands = {name: startup_process([sys.executable, "-m", "deckstat", *args], env)
                for name, (args, env) in STARTUP_COMMANDS.items()}
    baseline()  # the first start of the interpreter reads its files from disk: not counted
    runs: dict[str, list[tuple[float, float]]] = {"typer": [], **{name: [] for name in commands}}
    for _ in range(rounds):
        runs["typer"].append(baseline())
        for name, run in commands.items():
            runs[name].append(run())
    load = os.getloadavg()[0]
    typer_cpu = [cpu for cpu, _ in runs["typer"]]
    figures["startup"] = {"load_1min": load, "rounds": rounds, "goal": STARTUP_GOAL,
                          "import_typer_cpu_s": [min(typer_cpu), statistics.median(typer_cpu)]}
    table = Table(title=f"Light commands ÷ python -c 'import typer' (whole process; {rounds} alternated rounds; "
                        f"load {load:.1f}; goal ≤ {STARTUP_GOAL:g}× CPU)")
    for column in ("command", "CPU s (min / median)", "CPU ratio (min / median)", "wall ratio (min / median)"):
        table.add_column(column, justify="left" if column == "command" else "right")
    table.add_row("import typer", f"{min(typer_cpu):.3f} / {statistics.median(typer_cpu):.3f}", "1", "1")
    for name in commands:
        cpu = [c for c, _ in runs[name]]
        cpu_ratio = [c / b for (c, _), (b, _) in zip(runs[name], runs["typer"])]
        wall_ratio = [w / b for (_, w), (_, b) in zip(runs[name], runs["typer"])]
        table.add_row(name, f"{min(cpu):.3f} / {statistics.median(cpu):.3f}",
                      f"{min(cpu_ratio):.2f} / {statistics.median(cpu_ratio):.2f}",
                      f"{min(wall_ratio):.2f} / {statistics.median(wall_ratio):.2f}")
        figures["startup"][name] = {"cpu_s": [min(cpu), statistics.median(cpu)],
                                    "cpu_ratio": [min(cpu_ratio), statistics.median(cpu_ratio)],
                                    "wall_ratio": [min(wall_ratio), statistics.median(wall_ratio)]}
    console.print(table)


#: Whole ``deckstat report`` commands timed by ``--report`` (the README's first command, in French, Duel Masters).
REPORT_COMMANDS = {
    "wankul": ["report", str(WANKUL_SAMPLE), "--game", "wankul", "--seed", "1"],
    "wankul, French": ["report", str(WANKUL_SAMPLE), "--game", "wankul", "--seed", "1", "--lang", "fr"],
    "duel masters": ["report", str(DM_SAMPLE), "--game", "duel-masters", "--seed", "1"],
}
#: The yardstick process of ``--report``: the libraries every report loads, and nothing of deckstat.
REPORT_BASELINE = ["-c", "import matplotlib.pyplot, pandas"]


def _timed_process(arguments: list[str]) -> tuple[float, float]:
    """Run ``python ARGUMENTS`` to its end; its wall seconds and CPU seconds (its own and its children's)."""
    environment = {key: value for key, value in os.environ.items() if key != "DECKSTAT_LANG"}
    environment["MPLBACKEND"] = "Agg"
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, *arguments], cwd=ROOT, env=environment, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime


def report_section(rounds: int, quick: bool, console: Console, figures: dict) -> None:
    """Whole ``deckstat report`` commands against a process that only imports matplotlib and pandas, alternated.

    Each round runs the baseline, then each report (into a fresh folder); the ratios are taken round by round,
    so that a busy spell of the machine falls on both. CPU counts the report's helper process too.
    """
    commands = {"wankul": [*REPORT_COMMANDS["wankul"], "--trials", "2000"]} if quick else REPORT_COMMANDS
    load = os.getloadavg()[0]
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in ["baseline", *commands]}
    with tempfile.TemporaryDirectory() as scratch:
        for round_ in range(rounds):
            times["baseline"].append(_timed_process(REPORT_BASELINE))
            for index, (name, args) in enumerate(commands.items()):
                out = Path(scratch) / f"{round_}-{index}"
                times[name].append(_timed_process(["-m", "deckstat", *args, "--out", str(out)]))
    table = Table(title=f"deckstat report, whole process ÷ python -c 'import matplotlib.pyplot, pandas' "
                        f"({rounds} alternated rounds; load {load:.1f})")
    for column in ("command", "wall s (min / median)", "CPU s (min / median)", "wall ratio (min / median)",
                   "CPU ratio (min / median)"):
        table.add_column(column, justify="left" if column == "command" else "right")
    figures["report"] = {"load_1min": load, "rounds": rounds}
    base = times["baseline"]
    for name, runs in times.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        wall_ratios = [w / b for (w, _), (b, _) in zip(runs, base)]
        cpu_ratios = [c / b for (_, c), (_, b) in zip(runs, base)]
        figures["report"][name] = {
            "wall_min": min(walls), "wall_median": statistics.median(walls), "cpu_min": min(cpus),
            "cpu_median": statistics.median(cpus), "wall_ratio_min": min(wall_ratios),
            "wall_ratio_median": statistics.median(wall_ratios), "cpu_ratio_min": min(cpu_ratios),
            "cpu_ratio_median": statistics.median(cpu_ratios)}
        row = figures["report"][name]
        table.add_row(name, f"{row['wall_min']:.2f} / {row['wall_median']:.2f}",
                      f"{row['cpu_min']:.2f} / {row['cpu_median']:.2f}",
                      f"{row['wall_ratio_min']:.2f} / {row['wall_ratio_median']:.2f}",
                      f"{row['cpu_ratio_min']:.2f} / {row['cpu_ratio_median']:.2f}")
    console.print(table)
    if quick:
        console.print("--quick: the Wankul report alone, at 2,000 trials, one round.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small runs, for a smoke test")
    parser.add_argument("--rounds", type=int, default=5, help="alternated rounds per scenario (default 5)")
    parser.add_argument("--memory", action="store_true", help="peak memory at 10^7 and 10^8 trials")
    parser.add_argument("--startup", action="store_true", help="also time the light commands (games, --help) "
                        "against python -c 'import typer'")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument("--workers", action="store_true", help="also time 1, 2 and 4 worker processes")
    parser.add_argument("--workers-trials", type=lambda text: parse_count(text, "--workers-trials", minimum=1),
                        default=10**8, help="trials of the workers section (default 1e8; 1e6 with --quick)")
    parser.add_argument("--workers-rounds", type=int, default=3, help="rounds of the workers section (default 3)")
    parser.add_argument("--no-kernel", action="store_true", help="skip the kernel-versus-baseline section")
    parser.add_argument("--batch", action="store_true", help="also time a 200-task batch spec on 1, 2 and 4 "
                        "workers and every core")
    parser.add_argument("--batch-trials", type=lambda text: parse_count(text, "--batch-trials", minimum=1),
                        default=100_000, help="simulated trials of each batch task (default 100000; 5000 with "
                        "--quick)")
    parser.add_argument("--batch-overhead", action="store_true", help="also time 1,000 small exact and 200 small "
                        "simulated batch tasks against the same questions called in a loop")
    parser.add_argument("--play", action="store_true", help="also time the Duel Masters playability scenario")
    parser.add_argument("--play-games", type=lambda text: parse_count(text, "--play-games", minimum=1),
                        default=1_000_000, help="games of the vectorised play model (default 1e6; 1e5 with --quick)")
    parser.add_argument("--effects", action="store_true", help="also time the draw-effects side of a Wankul odds "
                        "question against the compiled kernel")
    parser.add_argument("--wankul-curve", action="store_true", help="also time the two-player Wankul curve "
                        "against the one-player model")
    parser.add_argument("--optimise", action="store_true", help="also count the optimiser's candidate "
                        "evaluations in a 60 s budget (10 s with --quick)")
    parser.add_argument("--explore", action="store_true", help="also time the explorer's answer to a change, "
                        "in its process and in headless Chromium")
    parser.add_argument("--report", action="store_true", help="also time whole deckstat report commands against "
                        "python -c 'import matplotlib.pyplot, pandas'")
    parser.add_argument("--literal-games", type=lambda text: parse_count(text, "--literal-games", minimum=1),
                        default=2_000, help="games of the literal play simulator (default 2000; 200 with --quick)")
    parser.add_argument("--workers-commands", action="store_true", help="also time whole commands on 2 workers "
                        "against 1 (--workers-trials trials; default 1e7 here)")
    parser.add_argument("--simulated-start", action="store_true", help="also time whole simulated commands "
                        "against exact ones, and first runs with numba's cache empty")
    parser.add_argument("--before", type=Path, help="a checkout of an older deckstat whose commands "
                        "--simulated-start also times, in the same rounds")
    args = parser.parse_args()
    baseline_trials = 5_000 if args.quick else 100_000
    kernel_trials = 100_000 if args.quick else 4_000_000
    yardstick_trials = 1_000_000 if args.quick else 20_000_000
    rounds = 2 if args.quick else args.rounds
    console = Console(width=160)
    figures = {}
    if args.startup:
        startup_section(3 if args.quick else max(args.rounds, 7), console, figures)
    if args.workers:
        workers_section(10**6 if args.quick else args.workers_trials, 2 if args.quick else args.workers_rounds,
                        console, figures)
    if args.batch:
        batch_section(5_000 if args.quick else args.batch_trials, 2 if args.quick else args.workers_rounds,
                      console, figures)
    if args.batch_overhead:
        batch_overhead_section(100 if args.quick else 1_000, 20 if args.quick else 200,
                               2 if args.quick else args.rounds, console, figures)
    if args.play:
        play_section(100_000 if args.quick else args.play_games, 200 if args.quick else args.literal_games,
                     2 if args.quick else args.rounds, console, figures)
    if args.effects:
        effects_section(40_000 if args.quick else 1_000_000, 2 if args.quick else args.rounds, console, figures)
    if args.optimise:
        optimise_section(10.0 if args.quick else 60.0, console, figures)
    if args.workers_commands:
        workers_commands_section(10**5 if args.quick else min(args.workers_trials, 10**7),
                                 1 if args.quick else args.workers_rounds, console, figures, args.quick)
    if args.simulated_start:
        simulated_start_section(1 if args.quick else args.rounds, args.before, console, figures, args.quick)
    if args.explore:
        explore_section(1 if args.quick else args.rounds, console, figures)
    if args.report:
        report_section(1 if args.quick else args.rounds, args.quick, console, figures)
    if args.wankul_curve:
        wankul_curve_section(20_000 if args.quick else 200_000, 2 if args.quick else args.rounds, console, figures)
    if args.no_kernel:
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2))
        return

    yardstick_binary, yardstick_note = build_yardstick()
    kernel_section(baseline_trials, kernel_trials, yardstick_trials, rounds, yardstick_binary, yardstick_note,
                   console, figures)

    if args.memory:
        memory = Table(title="Peak resident memory of a fresh process (MiB)")
        memory.add_column("scenario")
        for n in (10**7, 10**8):
            memory.add_column(f"{n:.0e} trials", justify="right")
        for scenario in ("wankul", "mtg"):
            values = [peak_memory(scenario, n) for n in (10**7, 10**8)]
            figures[scenario]["peak_mib"] = values
            memory.add_row(scenario, *[f"{v:,.0f}" for v in values])
        console.print(memory)
    console.print(f"Process peak so far: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
