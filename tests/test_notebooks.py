"""The notebooks: committed without outputs, run from top to bottom, and compute the right numbers.

Each notebook is executed with few trials (``DECKSTAT_NOTEBOOK_TRIALS``) in a
kernel whose working directory is ``notebooks/``. A cell appended to it prints
the values it computed as JSON; they are checked against references made
here from the card files alone: exact probabilities from ``math.comb`` and
``scipy.stats.hypergeom`` (to 1e-12), simulated ones within the standard
error of those, deck-out turns and legality from the rules and the decks.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import os

import pytest
from helpers import ROOT, sample_deck, z_for
from scipy.stats import hypergeom

NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
#: Trials the notebooks simulate in the suite.
N_TRIALS = 2000
EXACT = 1e-12
#: Cards in the opening hand (Wankul, Duel Masters).
HAND = 5
MARK = "deckstat-notebook-values:"
FIGURES_MARK = "deckstat-notebook-figures:"
#: Put first in a notebook: the figures stay open after their cell, so that the last cells can check them.
KEEP_FIGURES = "%config InlineBackend.close_figures = False"
#: Appended to a notebook: runs tests/figure_checks.py on every figure still open, prints the problems as JSON.
CHECK_FIGURES = '''
import json as _json
import sys as _sys
import matplotlib.pyplot as _plt
_sys.path.insert(0, {tests!r})
from figure_checks import figure_problems as _figure_problems
print({mark!r} + _json.dumps([_figure_problems(_plt.figure(number)) for number in _plt.get_fignums()]))
'''

#: Appended to a notebook: prints the value of each expression as JSON (DataFrames as {column: [values]}).
READ_OUT = '''
import json as _json
import pandas as _pd

def _plain(value):
    if isinstance(value, _pd.DataFrame):
        value = value.reset_index(drop=True).astype(object)
        return value.where(value.notna(), None).to_dict("list")
    return value

print({mark!r} + _json.dumps({{name: _plain(eval(code)) for name, code in {expressions!r}.items()}},
                             default=lambda v: v.item()))
'''


def run_notebook(name: str, expressions: dict[str, str]) -> dict:
    """Execute notebook ``name`` and return the value of each expression in its kernel afterwards.

    Every figure the notebook draws is checked for readability (tests/figure_checks.py) after its last cell.
    """
    # Imported here: nbformat's schema validation costs about two CPU seconds to import, and every worker collects
    # this file while only one runs it.
    import nbformat
    from nbclient import NotebookClient

    path = NOTEBOOK_DIR / name
    notebook = nbformat.read(path, as_version=4)
    draws = any("plots." in cell.source for cell in notebook.cells if cell.cell_type == "code")
    notebook.cells.insert(0, nbformat.v4.new_code_cell(KEEP_FIGURES))
    notebook.cells.append(nbformat.v4.new_code_cell(CHECK_FIGURES.format(mark=FIGURES_MARK,
                                                                         tests=str(ROOT / "tests"))))
    notebook.cells.append(nbformat.v4.new_code_cell(READ_OUT.format(mark=MARK, expressions=expressions)))
    env = {**os.environ, "DECKSTAT_NOTEBOOK_TRIALS": str(N_TRIALS), "MPLBACKEND": "Agg"}
    client = NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK_DIR)}})
    client.execute(env=env)
    errors = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs
              if out.output_type == "error"]
    assert not errors, errors
    figures = [json.loads(line[len(FIGURES_MARK):]) for out in notebook.cells[-2].outputs
               if out.output_type == "stream" for line in out.text.splitlines() if line.startswith(FIGURES_MARK)]
    assert len(figures) == 1, notebook.cells[-2].outputs
    assert figures[0] or not draws, f"{name}: no figure was left open to check"
    problems = [problem for found in figures[0] for problem in found]
    assert not problems, f"{name}: " + "\n".join(problems)
    lines = [line for out in notebook.cells[-1].outputs if out.output_type == "stream"
             for line in out.text.splitlines() if line.startswith(MARK)]
    assert len(lines) == 1, notebook.cells[-1].outputs
    return json.loads(lines[0][len(MARK):])


def rows(table: dict) -> list[dict]:
    """The records of a table read out as {column: [values]}."""
    return [dict(zip(table, values)) for values in zip(*table.values())]


# --- references from the card files -------------------------------------------------------------------------

def cards(path) -> list[dict]:
    """The rows of a sample card CSV (comma-separated, UTF-8), each with its whole ``count``."""
    with open(path, encoding="utf-8", newline="") as handle:
        return [{**row, "count": int(row.get("count") or 1)} for row in csv.DictReader(handle)]


def total(deck: list[dict], keep=lambda row: True) -> int:
    """Cards of ``deck`` (rows of :func:`cards`) whose row passes ``keep``."""
    return sum(row["count"] for row in deck if keep(row))


def wankul_cells(path) -> tuple[int, int, int]:
    """(Terrains, Personnages of cost 0 or 1, other cards) of a Wankul deck: disjoint, as the events need."""
    deck = cards(path)
    terrains = total(deck, lambda r: r["type"] == "Terrain")
    cheap = total(deck, lambda r: r["type"] != "Terrain" and r["cost"] != "" and float(r["cost"]) <= 1)
    return terrains, cheap, total(deck) - terrains - cheap


def choose(n: int, k: int) -> int:
    return math.comb(n, k) if 0 <= k <= n else 0


def mv_hypergeom(drawn: tuple[int, ...], cells: tuple[int, ...]) -> float:
    """P(exactly ``drawn[i]`` cards of each cell) when ``sum(drawn)`` cards are drawn from ``cells``."""
    return math.prod(choose(c, x) for c, x in zip(cells, drawn)) / choose(sum(cells), sum(drawn))


def compositions(n: int, cells: tuple[int, ...]):
    """Every way to draw ``n`` cards from the cells, as counts per cell."""
    for drawn in itertools.product(*(range(min(c, n) + 1) for c in cells)):
        if sum(drawn) == n:
            yield drawn


def plus(a, b):
    return tuple(x + y for x, y in zip(a, b))


def minus(a, b):
    return tuple(x - y for x, y in zip(a, b))


def bottom_mulligan_odds(cells, event, draws, keep, hand=HAND) -> float:
    """P(event) among the cards seen after ``draws`` draws, with one Wankul mulligan, by full enumeration.

    A first hand failing ``keep`` goes under the deck: the new hand and the
    draws come from the other cards (the mulliganed ones return only after
    them, so ``hand + draws`` may not exceed them).
    """
    assert hand + draws <= sum(cells) - hand
    p = 0.0
    for first in compositions(hand, cells):
        rest = minus(cells, first)
        if keep(first):
            p += mv_hypergeom(first, cells) * sum(mv_hypergeom(d, rest) for d in compositions(draws, rest)
                                                  if event(plus(first, d)))
        else:
            p += mv_hypergeom(first, cells) * sum(mv_hypergeom(s, rest) for s in compositions(hand + draws, rest)
                                                  if event(s))
    return p


def kept_hand_counts(cells, keep, cell, hand=HAND) -> list[float]:
    """P(the kept hand holds k cards of ``cell``), k = 0..hand, with one Wankul mulligan."""
    out = [0.0] * (hand + 1)
    for first in compositions(hand, cells):
        if keep(first):
            out[first[cell]] += mv_hypergeom(first, cells)
        else:
            rest = minus(cells, first)
            for second in compositions(hand, rest):
                out[second[cell]] += mv_hypergeom(first, cells) * mv_hypergeom(second, rest)
    return out


def none_in(size: int, group: int, seen: int) -> float:
    """P(no card of a ``group`` of cards among ``seen`` random cards of a ``size``-card deck)."""
    return float(hypergeom(size, group, seen).pmf(0))


def within_standard_error(estimate: float, exact: float, n: int, k: int) -> bool:
    """``estimate`` is within z_for(k) standard errors of the exact proportion."""
    return abs(estimate - exact) <= z_for(k) * math.sqrt(exact * (1 - exact) / n)


# --- the notebooks ----------------------------------------------------------------------------------------------

def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 5


def test_every_notebook_has_its_checks():
    assert {p.name for p in NOTEBOOKS} == set(CHECKED)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_committed_without_outputs(path):
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    assert notebook.nbformat == 4
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None, f"{path.name} has stale outputs"


OPENING = "01_mains_de_depart_et_mulligan_wankul.ipynb"  # in French
TERRAIN_COUNT = "02_choosing_a_terrain_count.ipynb"
DECKOUT = "03_deck_out_timing.ipynb"
COMPARE = "04_comparing_two_decklists.ipynb"
DUEL_MASTERS = "05_duel_masters_shields_and_civilizations.ipynb"
BATCH = "06_batch_runs.ipynb"
ON_CURVE = "07_can_i_cast_it_on_curve.ipynb"
DISCARD_COST = "08_wankul_discard_cost.ipynb"
EXPLORER = "09_exploring_a_deck_with_widgets.ipynb"
CHECKED = (OPENING, TERRAIN_COUNT, DECKOUT, COMPARE, DUEL_MASTERS, BATCH, ON_CURVE, DISCARD_COST, EXPLORER)

def has_terrain(counts):
    """Terrain>=1 on (Terrains, cheap Personnages, others) counts: also Wankul's keep rule."""
    return counts[0] >= 1


def terrain_and_cheap(counts):
    """Terrain>=1 and [cost<=1]>=1 on (Terrains, cheap Personnages, others) counts."""
    return counts[0] >= 1 and counts[1] >= 1


def test_opening_hands_notebook():
    values = run_notebook(OPENING, {
        "legal": "check.legal", "size": "deck.size", "terrains": 'deck.count("Terrain")',
        "illegal_legal": "illegal.legal", "illegal": "illegal.table",
        "with": "with_mulligan.table", "without": "without.table", "keep": "with_mulligan.summary",
        "strict": "report.summary", "kept_hand": "report.kept_hand", "by_turn": "report.by_turn",
        "simulated": "simulated.table", "seed": 'simulated.provenance["seed_entropy"]',
        "kept_words": "format_probability(p_garde)", "language": "deckstat.get_language()",
    })
    path = sample_deck("wankul")
    cells = wankul_cells(path)
    size, terrains = sum(cells), cells[0]
    assert values["legal"] is True and (values["size"], values["terrains"]) == (size, terrains) == (50, 10)
    # data/README.md: 8 Terrains (fewer than 10) and Capitaine Baguette at 4 copies.
    assert values["illegal_legal"] is False
    assert {"Terrain", "Capitaine Baguette"} <= set(values["illegal"]["subject"])

    p_mulligan = none_in(size, terrains, HAND)  # the first hand has no Terrain
    assert values["keep"]["p_keep_first"][0] == pytest.approx(1 - p_mulligan, abs=EXACT)
    assert values["keep"]["mulligan_rule"] == ["bottom"]
    # The notebook writes in French: a decimal comma and a no-break space before %.
    assert values["language"] == "fr"
    assert values["kept_words"] == f"{100 * (1 - p_mulligan):.1f}\u00a0%".replace(".", ",")
    with_rows, without_rows = rows(values["with"]), rows(values["without"])
    assert [r["turn"] for r in with_rows] == [r["turn"] for r in without_rows] == list(range(7))
    exact_with = {}
    for with_row, without_row in zip(with_rows, without_rows):
        t = with_row["turn"]
        # Without the mulligan: no Terrain among the first 5 + t cards.
        assert without_row["p"] == pytest.approx(1 - none_in(size, terrains, HAND + t), abs=EXACT)
        # With it: no Terrain in the first hand, then none in the next 5 + t of the other 45 cards.
        exact_with[t] = 1 - p_mulligan * none_in(size - HAND, terrains, HAND + t)
        assert with_row["p"] == pytest.approx(exact_with[t], abs=EXACT)
        assert with_row["method"] == without_row["method"] == "exact"

    strict = rows(values["strict"])[0]
    p_keep = sum(mv_hypergeom(h, cells) for h in compositions(HAND, cells) if terrain_and_cheap(h))
    assert strict["p_keep_first"] == pytest.approx(p_keep, abs=EXACT)
    assert strict["expected_mulligans"] == pytest.approx(1 - p_keep, abs=EXACT)
    labels = {"Terrain": 0, "[cost<=1]": 1}
    kept = rows(values["kept_hand"])
    assert {r["group"] for r in kept} == set(labels)
    for label, cell in labels.items():
        reference = kept_hand_counts(cells, terrain_and_cheap, cell)
        got = {r["count"]: r["p"] for r in kept if r["group"] == label}
        assert got == pytest.approx(dict(enumerate(reference)), abs=EXACT)
    by_turn = rows(values["by_turn"])
    assert sorted((r["turn"], r["mulligan_rule"]) for r in by_turn) == \
        sorted(itertools.product(range(7), ["bottom", "none"]))
    for r in by_turn:
        if r["mulligan_rule"] == "none":
            expected = 1 - none_in(size, terrains, HAND + r["turn"])
        else:
            expected = bottom_mulligan_odds(cells, has_terrain, r["turn"], keep=terrain_and_cheap)
        assert r["p"] == pytest.approx(expected, abs=EXACT)

    simulated = rows(values["simulated"])
    assert [r["turn"] for r in simulated] == list(range(7))
    assert values["seed"] == 2026
    for r in simulated:
        assert r["method"] == "simulate" and r["n_trials"] == N_TRIALS
        assert within_standard_error(r["p"], exact_with[r["turn"]], N_TRIALS, len(simulated)), r
        assert r["ci_low"] <= r["p"] <= r["ci_high"]


def wankul_terrain_odds(k: int, t: int, at_least: int, size: int = 50) -> float:
    """P(at least ``at_least`` Terrains seen by turn t) with k Terrains, under Wankul's mulligan (keep a Terrain)."""
    first = hypergeom(size, k, HAND)  # Terrains in the first hand
    rest = size - HAND  # the new hand and the draws come from the other 45 cards, all k Terrains among them
    if at_least == 1:
        return 1 - first.pmf(0) * none_in(rest, k, HAND + t)
    assert at_least == 2
    one_more = 1 - none_in(rest, k - 1, t)  # a kept hand with one Terrain needs one among the t draws
    mulliganed = hypergeom(rest, k, HAND + t).sf(1)  # two among the new hand and draws
    return first.sf(1) + first.pmf(1) * one_more + first.pmf(0) * mulliganed


def test_terrain_count_notebook():
    values = run_notebook(TERRAIN_COUNT, {
        "sweep": "sweep.table", "summary": "sweep.summary", "decision": "ratio_decision(sweep)",
        "strict": "strict.table", "strict_summary": "strict.summary", "strict_decision": "ratio_decision(strict)",
    })
    size = total(cards(sample_deck("wankul")))
    sweep = rows(values["sweep"])
    assert sorted({r["resource_count"] for r in sweep}) == list(range(8, 16))
    for r in sweep:
        k, t = r["resource_count"], r["turn"]
        assert r["p"] == pytest.approx(wankul_terrain_odds(k, t, 1), abs=EXACT), r
        no_terrain_first = none_in(size, k, HAND)
        assert r["mulligan_rate"] == pytest.approx(no_terrain_first, abs=EXACT)
        assert r["p_resource_in_hand"] == pytest.approx(wankul_terrain_odds(k, 0, 1), abs=EXACT)
        # Mean first turn with a Terrain seen: the sum over turns of P(none seen yet).
        mean_first = sum(no_terrain_first * none_in(size - HAND, k, HAND + u) for u in range(size - 2 * HAND + 1))
        assert r["expected_first_resource_turn"] == pytest.approx(mean_first, abs=EXACT)
        # Wankul: at least 10 Terrains in 50 cards; the rebuilt decks keep every card within 3 copies.
        assert r["legal"] is (k >= 10)
        assert r["is_current"] is (k == 10)
        assert (r["violations"] == "") is r["legal"]
        # The drought rule only adds draws: no deck lasts longer than turn 46 (45 cards to draw after the hand).
        for seat in ("first", "second"):
            assert 0 < r[f"deckout_turn_{seat}"] <= size - HAND + 1
    at_5 = {r["resource_count"]: r["p"] for r in sweep if r["turn"] == 5}
    reaching = [k for k in sorted(at_5) if wankul_terrain_odds(k, 5, 1) >= 0.95]
    summary = rows(values["summary"])[0]
    assert (summary["decision"], summary["target"], summary["target_turn"]) == ("decided", 0.95, 5)
    # The recommendation is the smallest legal count; the smaller illegal one is named after it.
    assert summary["recommended"] == min(k for k in reaching if k >= 10) == 10
    assert summary["smallest_reaching"] == reaching[0] == 8
    assert summary["smallest_reaching_legal"] is False
    assert len(values["decision"]) == 1
    assert values["decision"][0].startswith("recommended: 10 Terrain cards, the smallest legal count")
    assert values["decision"][0].endswith("; 8 would reach the target but is illegal: Terrain: 8 in 50 cards, "
                                          "allowed at least 10 (1 per 5 cards)")

    strict = rows(values["strict"])
    assert sorted({r["resource_count"] for r in strict}) == list(range(8, 18))
    for r in strict:
        assert r["p"] == pytest.approx(wankul_terrain_odds(r["resource_count"], r["turn"], 2), abs=EXACT), r
    # Legal from 10 Terrains up: the rebuilt decks keep every card within 3 copies.
    legal = {r["resource_count"]: r["legal"] for r in strict}
    assert legal == {k: k >= 10 for k in range(8, 18)}
    reaching = [k for k in range(8, 18) if wankul_terrain_odds(k, 3, 2) >= 0.9]
    summary = rows(values["strict_summary"])[0]
    assert summary["target_turn"] == 3
    assert summary["recommended"] == summary["smallest_reaching"] == reaching[0] == 17
    assert summary["smallest_reaching_legal"] is True
    [sentence] = values["strict_decision"]
    assert sentence.startswith("recommended: 17 Terrain cards, the smallest legal count with P(Terrain>=2) ≥ 90.0% "
                               "by turn 3")


#: Library after the opening deal, from each sample deck's size: set-aside cards (Duel Masters' 5 shields) and the
#: hand (Licum: 7 cards; its game deck is the cards of deck "jeu").
LIBRARY = {
    "wankul": total(cards(sample_deck("wankul"))) - 5,
    "duel-masters": total(cards(sample_deck("duel-masters"))) - 5 - 5,
    "jdg": total(cards(sample_deck("jdg"))) - 5,
    "licum": total(cards(sample_deck("licum")), lambda r: r["deck"] == "jeu") - 7,
    "pandrea": total(cards(sample_deck("pandrea"))) - 5,
}
#: The turn each seat runs out on (first, second) without effects, from the rules (one draw a turn from turn 1;
#: Duel Masters' first player skips it): Wankul loses on the failed draw after the 45th card; Duel Masters loses on
#: drawing card 30, on the first player's turn 31 and the second's turn 30; JdG ends on drawing the 25th card;
#: Licum (draws at the end of the turn) ends when both cannot draw, after the 23rd; Pandrea loses at the end of
#: the turn with no card to draw, after the 35th.
DECKOUT_TURNS = {
    "wankul": (LIBRARY["wankul"] + 1,) * 2,
    "duel-masters": (LIBRARY["duel-masters"] + 1, LIBRARY["duel-masters"]),
    "jdg": (LIBRARY["jdg"],) * 2,
    "licum": (LIBRARY["licum"] + 1,) * 2,
    "pandrea": (LIBRARY["pandrea"] + 1,) * 2,
}
#: Licum and Pandrea turns are simultaneous; in the others the first player plays first.
SIMULTANEOUS = {"licum", "pandrea"}


def test_deckout_turns_derived_from_the_decks():
    assert DECKOUT_TURNS == {"wankul": (46, 46), "duel-masters": (31, 30), "jdg": (25, 25), "licum": (24, 24),
                             "pandrea": (36, 36)}


def test_deckout_notebook():
    values = run_notebook(DECKOUT, {"fixed": "fixed", "race": "race.summary", "race_table": "race.table",
                                    "fast": "fast.summary", "fast_table": "fast.table"})
    fixed = rows(values["fixed"])
    assert [(r["game"], r["seat"]) for r in fixed] == list(itertools.product(DECKOUT_TURNS, ["first", "second"]))
    for r in fixed:
        first, second = DECKOUT_TURNS[r["game"]]
        mine, other = (first, second) if r["seat"] == "first" else (second, first)
        assert r["median_turn"] == mine, r
        assert r["method"] == "exact"
        if r["game"] in SIMULTANEOUS:
            expected_first, same = float(mine < other), float(mine == other)
        else:  # on equal turn numbers the first player's turn comes first
            expected_first, same = float(mine < other or (mine == other and r["seat"] == "first")), 0.0
        assert (r["p_runs_out_first"], r["p_same_moment"]) == (expected_first, same), r

    last_turn = DECKOUT_TURNS["wankul"][0]
    for name in ("race", "fast"):
        summary, table = rows(values[name]), rows(values[f"{name}_table"])
        assert [r["seat"] for r in summary] == ["first", "second"]
        # race: the 20 Terrains, each scored after 3 turns, cannot keep one in play for 45 rounds, so both players
        # draw in a drought at least once; fast: every card is drawn before the deck runs out, so the draw-2 card is
        # always played. Either way each deck gives up a card beyond its normal draws and none reaches turn 46.
        for r in summary:
            assert r["method"] == "simulate" and r["n_trials"] == N_TRIALS
            assert r["earliest_turn"] <= r["median_turn"] <= r["latest_turn"] < last_turn, r
            assert r["ci_low"] <= r["p_runs_out_first"] <= r["ci_high"]
            seat_rows = [row for row in table if row["seat"] == r["seat"]]
            assert sum(row["p"] for row in seat_rows) == pytest.approx(1.0, abs=EXACT)
            assert seat_rows[-1]["cdf"] == pytest.approx(1.0, abs=EXACT)
        assert sum(r["p_runs_out_first"] for r in summary) + summary[0]["p_same_moment"] == pytest.approx(1.0,
                                                                                                         abs=EXACT)


def test_compare_notebook():
    values = run_notebook(COMPARE, {"differences": "differences", "exact": "exact.table",
                                    "each": "each", "paired": "paired.table", "unpaired": "unpaired.table"})
    path_a, path_b = sample_deck("wankul"), sample_deck("wankul", "sample_deck_v2.csv")
    counts_a = {r["name"]: r["count"] for r in cards(path_a)}
    counts_b = {r["name"]: r["count"] for r in cards(path_b)}
    changed = {(name, counts_a.get(name, 0), counts_b.get(name, 0)) for name in counts_a | counts_b
               if counts_a.get(name, 0) != counts_b.get(name, 0)}
    differences = rows(values["differences"])
    assert {(r["name"], r["count_a"], r["count_b"]) for r in differences} == changed
    assert {(r["deck_a"], r["deck_b"]) for r in differences} == {(path_a.name, path_b.name)}

    cells_a, cells_b = wankul_cells(path_a), wankul_cells(path_b)
    assert (cells_a, cells_b) == ((10, 26, 14), (12, 25, 13))  # as the notebook's introduction says
    reference = {(deck, t): bottom_mulligan_odds(cells, terrain_and_cheap, t, keep=has_terrain)
                 for deck, cells in ((path_a.name, cells_a), (path_b.name, cells_b)) for t in range(7)}
    exact = rows(values["exact"])
    assert [r["turn"] for r in exact] == list(range(7))
    for r in exact:
        p_a, p_b = reference[path_a.name, r["turn"]], reference[path_b.name, r["turn"]]
        assert (r["deck_a"], r["deck_b"], r["method"]) == (path_a.name, path_b.name, "exact")
        assert (r["p_a"], r["p_b"], r["diff"]) == pytest.approx((p_a, p_b, p_b - p_a), abs=EXACT)
    each = rows(values["each"])
    assert sorted((r["deck"], r["turn"]) for r in each) == sorted(reference)
    for r in each:
        assert r["p"] == pytest.approx(reference[r["deck"], r["turn"]], abs=EXACT)

    simulated = {"paired": rows(values["paired"]), "unpaired": rows(values["unpaired"])}
    k = sum(3 * len(table) for table in simulated.values())  # p_a, p_b and diff on every row
    for table in simulated.values():
        assert [r["turn"] for r in table] == list(range(7))
        for r in table:
            p_a, p_b = reference[path_a.name, r["turn"]], reference[path_b.name, r["turn"]]
            assert r["method"] == "simulate" and r["n_trials"] == N_TRIALS
            assert within_standard_error(r["p_a"], p_a, N_TRIALS, k), r
            assert within_standard_error(r["p_b"], p_b, N_TRIALS, k), r
            # sd(B - A) <= sd(A) + sd(B) whatever the pairing.
            sd = math.sqrt(p_a * (1 - p_a)) + math.sqrt(p_b * (1 - p_b))
            assert abs(r["diff"] - (p_b - p_a)) <= z_for(k) * sd / math.sqrt(N_TRIALS), r
            assert r["diff_ci_low"] <= r["diff"] <= r["diff_ci_high"]
    # The notebook's point: the same shuffles for both decks narrow the interval on the difference.
    width = {name: sum(r["diff_ci_high"] - r["diff_ci_low"] for r in table) for name, table in simulated.items()}
    assert width["paired"] < width["unpaired"]


def is_dragon(row: dict) -> bool:
    """Race Dragon, alone or among others (``Dragon;Humain``); Dragonoïde is another race."""
    return "Dragon" in row["race"].split(";")


def test_duel_masters_notebook():
    values = run_notebook(DUEL_MASTERS, {"shields": "shields.table", "both": "both.table", "first": "first.table",
                                         "summary": "first.summary"})
    deck = cards(sample_deck("duel-masters"))
    size = total(deck)
    triggers = total(deck, lambda r: r["shield_trigger"] == "1")
    feu = total(deck, lambda r: r["civilization"] == "Feu")
    nature = total(deck, lambda r: r["civilization"] == "Nature")
    not_dragon = total(deck, lambda r: not is_dragon(r))
    neither = total(deck, lambda r: r["civilization"] != "Feu" and not is_dragon(r))
    assert (size, triggers, feu, nature, feu + nature) == (40, 8, 22, 18, size)

    shields = rows(values["shields"])
    assert [(r["zone"], r["turn"], r["zone_size"]) for r in shields] == [("set_aside", 0, 5)]
    assert shields[0]["p"] == pytest.approx(1 - none_in(size, triggers, 5), abs=EXACT)

    def seen(seat, turn):
        """Cards seen: the 5-card hand and one draw a turn, the first player skipping turn 1's (random cards)."""
        return 5 + (max(turn - 1, 0) if seat == "first" else turn)

    both = rows(values["both"])
    assert sorted((r["seat"], r["turn"]) for r in both) == sorted(itertools.product(["first", "second"], range(6)))
    for r in both:
        n = seen(r["seat"], r["turn"])
        # Feu and Nature split the deck: P(no Feu) + P(no Nature) is all that misses.
        assert r["p"] == pytest.approx(1 - none_in(size, feu, n) - none_in(size, nature, n), abs=EXACT)

    def by_turn(seat, turn):  # P(a Feu card and a Dragon seen), by inclusion and exclusion
        n = seen(seat, turn)
        return 1 - none_in(size, feu, n) - none_in(size, size - not_dragon, n) + none_in(size, size - neither, n)

    first = rows(values["first"])
    assert sorted((r["seat"], r["turn"]) for r in first) == sorted(itertools.product(["first", "second"], range(9)))
    for r in first:
        cdf = by_turn(r["seat"], r["turn"])
        before = by_turn(r["seat"], r["turn"] - 1) if r["turn"] > 0 else 0.0
        assert (r["cdf"], r["p"]) == pytest.approx((cdf, cdf - before), abs=EXACT)
    for r in rows(values["summary"]):
        cdf = [by_turn(r["seat"], t) for t in range(9)]
        pmf = [cdf[0]] + [b - a for a, b in zip(cdf, cdf[1:])]
        assert r["max_turn"] == 8
        assert r["p_never"] == pytest.approx(1 - cdf[8], abs=EXACT)
        assert r["median_turn"] == next(t for t in range(9) if cdf[t] >= 0.5)
        assert r["mean_turn"] == pytest.approx(sum(t * p for t, p in enumerate(pmf)) / cdf[8], abs=EXACT)



def test_batch_notebook():
    values = run_notebook(BATCH, {"n_tasks": "len(spec.tasks)", "status": "result.tasks['status'].tolist()",
                                  "opening": "opening", "exact": "exact",
                                  "again": "(float(row['p']), float(same['p']))",
                                  "files": "sorted(p.name for p in folder.iterdir())"})
    assert set(values["status"]) == {"ok"} and len(values["status"]) == values["n_tasks"]
    assert {"results.csv", "manifest.json", "journal.jsonl"} <= set(values["files"])
    # The bottom-mulligan rows are exact: P(Terrain>=1 in the kept hand), by enumeration of both hands.
    for r in rows(values["opening"]):
        if r["mulligan_rule"] != "bottom" or r["deck"] == "wankul/sample_deck_fr":
            continue
        cells = wankul_cells(sample_deck("wankul", r["deck"].split("/")[1] + ".csv"))
        assert r["p"] == pytest.approx(bottom_mulligan_odds(cells, has_terrain, 0, has_terrain), abs=EXACT)
    # A row asked again with its seed gives the same number, to the last digit.
    assert values["again"][0] == values["again"][1]
    exact = {r["game"]: r["p"] for r in rows(values["exact"])}
    dm, jdg = cards(sample_deck("duel-masters")), cards(sample_deck("jdg"))
    triggers = total(dm, lambda r: r["shield_trigger"] == "1")
    assert exact["duel-masters"] == pytest.approx(1 - none_in(total(dm), triggers, 5), abs=EXACT)
    terrains = total(jdg, lambda r: r["type"] == "TERRAIN")
    assert exact["jdg"] == pytest.approx(1 - none_in(total(jdg), terrains, 5), abs=EXACT)


def dm_seen(seat: str, turn: int) -> int:
    """Duel Masters cards seen by turn t: the 5-card hand and a draw a turn, the first player skipping turn 1's."""
    return HAND + (turn - 1 if seat == "first" else turn)


def castable_mono(size: int, copies: int, civ_cards: int, seen: int, cost: int, turn: int) -> float:
    """P(a copy and a second card of its civilization among ``seen`` cards) from turn ``cost`` on, 0 before.

    With one card charged a turn the mana is the turn number; a mono-civilization card needs a copy in hand and
    one card of its civilization (``civ_cards`` counts the copies) in the mana zone:
    1 - P(no copy) - P(one copy and no other card of the civilization).
    """
    if turn < cost:
        return 0.0
    return (1 - choose(size - copies, seen) / choose(size, seen)
            - copies * choose(size - civ_cards, seen - 1) / choose(size, seen))


def evolution_bound(deck: list[dict], evolution: dict, seen: int) -> float:
    """P(an evolution, one of its bases and a third card giving its civilization among ``seen`` cards).

    Every game where the evolution is playable has them: the evolution in hand, its base in the battle zone and
    a card of the civilization in the mana zone (a spare evolution or base, or a multicolour card, may be it).
    """
    civ = evolution["civilization"]
    races = set((evolution["évolue_de"] or evolution["race"]).split(";"))
    bases = [r for r in deck if r["type"] == "Créature" and races & set(r["race"].split(";"))]
    evo, base = evolution["count"], sum(r["count"] for r in bases)
    other = total(deck, lambda r: civ in r["civilization"].split(";") and r not in bases
                  and r["name"] != evolution["name"])
    cells = (evo, base, other, total(deck) - evo - base - other)
    return sum(mv_hypergeom(drawn, cells) for drawn in compositions(seen, cells)
               if drawn[0] >= 1 and drawn[1] >= 1 and drawn[0] + drawn[1] + drawn[2] >= 3)


def test_on_curve_notebook():
    values = run_notebook(ON_CURVE, {"every": "every.table", "on_curve": "on_curve.reset_index()",
                                     "seen": "seen.table", "policies": "policies",
                                     "naive_method": "naive.table['method'].unique().tolist()",
                                     "evolutions": "evolutions.table"})
    deck = cards(sample_deck("duel-masters"))
    size = total(deck)
    assert size == 40 and {r["civilization"] for r in deck} == {"Feu", "Nature"}  # every card mono-civilization
    by_name = {r["name"]: r for r in deck}

    def reference(name, seat, turn):
        card = by_name[name]
        civ_cards = total(deck, lambda r: r["civilization"] == card["civilization"])
        return castable_mono(size, card["count"], civ_cards, dm_seen(seat, turn), int(card["cost"]), turn)

    every = rows(values["every"])
    assert sorted((r["target"], r["seat"], r["turn"]) for r in every) == \
        sorted(itertools.product(by_name, ["first", "second"], range(1, 11)))
    for r in every:
        assert (r["method"], r["policy"]) == ("exact", "civ_first")
        assert r["p"] == pytest.approx(reference(r["target"], r["seat"], r["turn"]), abs=EXACT), r

    on_curve = rows(values["on_curve"])
    assert [r["target"] for r in on_curve] == sorted(by_name, key=lambda n: int(by_name[n]["cost"]))
    for r in on_curve:
        cost = int(by_name[r["target"]]["cost"])
        assert r["cost"] == cost
        for seat in ("first", "second"):
            assert r[seat] == pytest.approx(reference(r["target"], seat, cost), abs=EXACT), r

    dragon = by_name["Dragon Crème Brûlée"]
    seen = rows(values["seen"])
    assert sorted((r["seat"], r["turn"]) for r in seen) == sorted(itertools.product(["first", "second"],
                                                                                    range(1, 11)))
    for r in seen:
        assert r["p"] == pytest.approx(1 - none_in(size, dragon["count"], dm_seen(r["seat"], r["turn"])), abs=EXACT)

    policies = rows(values["policies"])
    assert values["naive_method"] == ["simulate"]
    assert {r["target"] for r in policies} == {"Dragon Crème Brûlée", "Scarabée Tondeuse"}
    for r in policies:
        exact = reference(r["target"], "first", r["turn"])
        assert r["exact"] == pytest.approx(exact, abs=EXACT)
        # The simulated civ_first plays exactly the exact event, so it agrees within the standard error.
        assert within_standard_error(r["civ_first"], exact, N_TRIALS, len(policies)), r
        # Every policy needs that event, and both policies played the same deals: the naive one is never ahead.
        assert r["first_drawn"] <= r["civ_first"], r
    # The notebook's point: the naive player often misses the 2-cost Nature card on turn 2.
    [scarab] = [r for r in policies if (r["target"], r["turn"]) == ("Scarabée Tondeuse", 2)]
    exact = reference("Scarabée Tondeuse", "first", 2)
    assert scarab["first_drawn"] < exact - z_for(1) * math.sqrt(exact * (1 - exact) / N_TRIALS)

    evolution_deck = cards(sample_deck("duel-masters", "evolution_deck.csv"))
    evolutions = {r["name"]: r for r in evolution_deck if "évolu" in r["type"]}
    table = rows(values["evolutions"])
    checked = [r for r in table if r["target"] in evolutions]
    assert {r["target"] for r in checked} == set(evolutions)
    for r in table:
        assert (r["method"], r["n_trials"]) == ("simulate", N_TRIALS)
    for r in checked:
        evolution = evolutions[r["target"]]
        races = set((evolution["évolue_de"] or evolution["race"]).split(";"))
        base_cost = min(int(b["cost"]) for b in evolution_deck
                        if b["type"] == "Créature" and races & set(b["race"].split(";")))
        # The base is summoned on an earlier turn (mana >= its cost) or on the same turn with mana for both.
        if r["turn"] < max(int(evolution["cost"]), base_cost + 1):
            assert r["p"] == 0.0, r
        else:
            bound = evolution_bound(evolution_deck, evolution, dm_seen("first", r["turn"]))
            assert r["p"] <= bound + z_for(len(checked)) * math.sqrt(bound * (1 - bound) / N_TRIALS), r


def drought_seen(cells: tuple[int, int, int], turn: int) -> float:
    """P(a target among the cards seen by turn t), Wankul without mulligan, Terrains never leaving play.

    ``cells`` = (targets, Terrains, others). Turn 1 sees the 5-card hand and a draw; with no Terrain among them
    the drought draws up to the first Terrain, at position f. That Terrain stays in play, so turn t has seen the
    first 5 + t + max(0, f - 6) cards. The target is missed when the f - 1 cards before the Terrain are others and
    none of the next s - f cards is a target.
    """
    targets, terrains, others = cells
    size = sum(cells)
    missed = 0.0
    for f in range(1, others + 2):
        seen = HAND + turn + max(0, f - 6)
        assert seen <= size
        before = math.perm(others, f - 1) / math.perm(size, f - 1)
        missed += (before * terrains / (size - f + 1)
                   * choose(size - f - targets, seen - f) / choose(size - f, seen - f))
    return 1 - missed


def kept_terrain_seen(cells: tuple[int, int, int], turn: int, mulligan: bool) -> float:
    """:func:`drought_seen` with Wankul's bottom mulligan (a first hand without Terrain goes under the deck).

    A kept first hand holds a Terrain, played on turn 1 and never leaving: no drought, the cards seen are the
    hand and t draws. A mulliganed one leaves the other 45 cards, with every Terrain, to be played as a deck
    without mulligan (the drought stops at a Terrain long before the cards put under).
    """
    if not mulligan:
        return drought_seen(cells, turn)
    p = 0.0
    for first in compositions(HAND, cells):
        rest = minus(cells, first)
        if first[1] >= 1:
            p += mv_hypergeom(first, cells) * (1.0 if first[0] else 1 - none_in(sum(rest), rest[0], turn))
        else:
            p += mv_hypergeom(first, cells) * drought_seen(rest, turn)
    return p


def test_wankul_discard_cost_notebook():
    values = run_notebook(DISCARD_COST, {"hold": "hold.table", "courbe": "courbe.table", "seen": "seen.table",
                                         "droughts": "seen.droughts", "settings": "settings",
                                         "kept_hold": "never_scored.table",
                                         "kept_courbe": "never_scored_courbe.table"})
    deck = cards(sample_deck("wankul"))
    terrains = total(deck, lambda r: r["type"] == "Terrain")

    def cells_of(keep):
        """(targets, Terrains, others) of the sample deck."""
        targets = total(deck, keep)
        return targets, terrains, total(deck) - targets - terrains

    robot = cells_of(lambda r: r["name"] == "Robot Camembert")
    costly = cells_of(lambda r: r["type"] != "Terrain" and float(r["cost"]) >= 2)
    assert (robot, costly) == ((3, 10, 37), (14, 10, 26))
    # Both targets cost 2 or 3; under hold the hand never falls below 5 cards, so 4 others pay for a target in
    # hand: playable = seen (with a Terrain in play). For the player alone with Terrains never scored no drought
    # follows turn 1, and the cards seen are those of kept_terrain_seen; with Terrains scored the droughts only
    # add cards.
    reference = {("Robot Camembert", t, m): kept_terrain_seen(robot, t, m) for t in range(1, 11) for m in (0, 1)}

    hold, courbe = rows(values["hold"]), rows(values["courbe"])
    assert [(r["target"], r["turn"]) for r in hold] == [(r["target"], r["turn"]) for r in courbe] == \
        list(itertools.product(["Robot Camembert", "[coût>=2]"], range(1, 11)))
    settings = rows(values["settings"])
    kept_hold, kept_courbe = rows(values["kept_hold"]), rows(values["kept_courbe"])
    k = len(hold) + 6 * len(settings)
    for table, policy in ((hold, "hold"), (courbe, "curve"), (kept_hold, "hold"), (kept_courbe, "curve")):
        for r in table:
            assert (r["method"], r["n_trials"], r["policy"]) == ("simulate", N_TRIALS, policy), r
    for h, c in itertools.chain(zip(hold, courbe), zip(kept_hold, kept_courbe)):
        # Same deals: curve's hand is a subset of hold's, and on turn 1 nothing has been spent yet.
        assert c["p"] <= h["p"], (h, c)
        if h["turn"] == 1:
            assert c["p"] == h["p"]

    seen, droughts = rows(values["seen"]), rows(values["droughts"])
    assert [r["turn"] for r in settings] == [r["turn"] for r in seen] == [r["turn"] for r in droughts] == \
        list(range(1, 11))
    for r, d, s in zip(seen, droughts, settings):
        t = r["turn"]
        # Seen among the kept hand and t draws (no drought): enumeration of both hands of the bottom mulligan.
        exact_seen = bottom_mulligan_odds(robot, lambda c: c[0] >= 1, t, keep=lambda c: c[1] >= 1)
        assert r["p"] == s["seen"] == d["p_without"] == pytest.approx(exact_seen, abs=EXACT)
        # The drought draws only add cards, and playable (both players) never exceeds seen with them: two
        # simulations, so within their standard errors.
        assert d["p"] == s["seen_with_droughts"]
        assert d["p"] >= exact_seen - z_for(k) * math.sqrt(exact_seen * (1 - exact_seen) / d["n_trials"]), d
        error = math.hypot(math.sqrt(d["p"] * (1 - d["p"]) / d["n_trials"]),
                           math.sqrt(s["scored"] * (1 - s["scored"]) / N_TRIALS))
        assert s["scored"] <= d["p"] + z_for(k) * max(error, 1 / N_TRIALS), (d, s)
        for column, mulligan in (("alone_never_scored", 1), ("alone_never_scored_no_mulligan", 0)):
            exact = reference["Robot Camembert", t, mulligan]
            assert within_standard_error(s[column], exact, N_TRIALS, k), (column, s)
        for column, mulligan in (("alone_scored", 1), ("alone_scored_no_mulligan", 0)):
            exact = reference["Robot Camembert", t, mulligan]
            assert s[column] >= exact - z_for(k) * math.sqrt(exact * (1 - exact) / N_TRIALS), (column, s)
    for r, s in zip([r for r in hold if r["target"] == "Robot Camembert"], settings):
        assert s["scored"] == r["p"]  # the same question asked again with the same seed
    for r, s in zip(kept_hold, settings):
        assert s["alone_never_scored"] == r["p"]


def test_explorer_notebook():
    pytest.importorskip("panel")
    values = run_notebook(EXPLORER, {
        "changed": "changed.table", "two": "two_terrains.table", "refused": "refused",
        "rules": "explorer.rules_pane.object", "answer": "explorer.answer_pane.object",
        "spec": "spec_text", "widgets": "sorted(explorer.copies)",
    })
    deck = cards(sample_deck("wankul"))
    assert values["widgets"] == sorted(row["name"] for row in deck)
    size = total(deck) - 2
    terrains = total(deck, lambda r: r["type"] == "Terrain") - 2
    # No mulligan, the first player: the opening hand, then one card a turn.
    for row in rows(values["changed"]):
        assert row["seat"] == "first" and row["method"] == "exact"
        assert row["p"] == pytest.approx(1 - none_in(size, terrains, HAND + row["turn"]), abs=EXACT)
    for row in rows(values["two"]):
        seen = HAND + row["turn"]
        at_most_one = sum(float(hypergeom(size, terrains, seen).pmf(k)) for k in (0, 1))
        assert row["p"] == pytest.approx(1 - at_most_one, abs=EXACT)
    # The rules check names the rule the deck now breaks; the headline is the last turn's answer, as text.
    assert "Terrain: 8 in 48 cards" in values["rules"]
    last = rows(values["two"])[-1]
    assert f"{100 * last['p']:.1f}%" in values["answer"]
    assert "position" in values["refused"] and "Terrain&gt;=" not in values["refused"]
    # The saved questions are the ones on screen, the deck's changes with them.
    assert 'counts = { "Le Grenier Hanté" = 1, "Plage de Galets" = 1 }' in values["spec"]
    assert 'mulligan_rule = "none"' in values["spec"] and 'event = "Terrain>=2"' in values["spec"]
