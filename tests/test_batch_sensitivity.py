"""Sensitivity in batch specs: the tables of ``deckstat.sensitivity``, sweeps, the table chosen, errors at load time."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pandas as pd
import pytest
from helpers import DATA, line_of, ok, run, spec_error

import deckstat
from deckstat.batching import load_spec, plan, run_task
from deckstat.questions.sensitivity import DEFAULT_TRIALS

DECK = DATA / "wankul" / "sample_deck.csv"
OTHER = DATA / "wankul" / "sample_deck_v2.csv"
#: Two Terrains and a Personnage: a few moves, each exact, so that every test stays well under a second or two.
CARDS = ["Le Grenier Hanté", "Plage de Galets", "Robot Camembert"]
#: Columns a batch row puts before the question's own (besides the task's parameters).
LEADING = ["task_id", "question", "deck", "game", "seed"]


def write_spec(folder: Path, body: str) -> Path:
    path = folder / "spec.toml"
    head = f'seed = 7\ngame = "wankul"\n[decks.w]\npath = "{DECK.as_posix()}"\n[decks.o]\npath = "{OTHER.as_posix()}"\n'
    path.write_text(head + textwrap.dedent(body), encoding="utf-8")
    return path


def own_columns(rows: pd.DataFrame) -> pd.DataFrame:
    """A batch table's rows as the question's table: its own columns, ``deck_file`` back as ``deck``."""
    return rows.drop(columns=LEADING).rename(columns={"deck_file": "deck"})


def same_table(rows: pd.DataFrame, table: pd.DataFrame) -> None:
    """``rows`` hold ``table`` (whose ``game`` column a batch gives once, in front), every cell."""
    expected = table.drop(columns=["game"], errors="ignore")
    pd.testing.assert_frame_equal(own_columns(rows)[list(expected.columns)], expected)


@pytest.fixture(scope="module")
def deck():
    return deckstat.load_deck(DECK)


def test_a_task_gives_the_table_of_deckstat_sensitivity(tmp_path, deck):
    path = write_spec(tmp_path, f"""
        [[questions]]
        question = "sensitivity"
        decks = ["w"]
        event = "Terrain>=1"
        by_turn = 1
        seat = "second"
        cards = {CARDS!r}
        mulligan = false
    """.replace("'", '"'))
    [task] = load_spec(path).tasks
    assert task.question == "sensitivity" and task.param("cards") == tuple(CARDS)
    rows = run_task(task, task.seed(7))
    direct = deckstat.sensitivity(deck, "wankul", event="Terrain>=1", by_turn=1, seat="second", cards=CARDS,
                                  mulligan=False, rng=task.seed(7))
    assert (rows["method"] == "exact").all() and len(rows) == 2 * len(CARDS)
    same_table(rows, direct.table)
    assert set(rows["event"]) == {"Terrain>=1"} and set(rows["cards"]) == {"; ".join(CARDS)}
    # deckstat.batch gathers the same rows.
    result = deckstat.batch(path, workers=1)
    assert result.ok
    columns = ["task_id", "seed", "card", "move", "count", "change", "ci_low", "ci_high", "legal"]
    pd.testing.assert_frame_equal(result.table[columns], rows[columns], check_dtype=False)


def test_a_sweep_over_by_turn_gives_one_task_per_turn(tmp_path, deck):
    path = write_spec(tmp_path, """
        [[questions]]
        question = "sensitivity"
        decks = ["w"]
        event = "Terrain>=2"
        cards = ["Le Grenier Hanté", "Robot Camembert"]
        [questions.sweep]
        by_turn = [0, 4]
    """)
    spec = load_spec(path)
    assert [t.param("by_turn") for t in spec.tasks] == [0, 4]
    assert [t.describe() for t in spec.tasks] == [f"sensitivity w by_turn={turn}" for turn in (0, 4)]
    changes = []
    for task in spec.tasks:
        rows = run_task(task, task.seed(spec.seed))
        direct = deckstat.sensitivity(deck, "wankul", event="Terrain>=2", by_turn=task.param("by_turn"),
                                      cards=["Le Grenier Hanté", "Robot Camembert"]).table
        assert rows["change"].tolist() == direct["change"].tolist()
        assert set(rows["by_turn"]) == {task.param("by_turn")}
        changes.append(rows.set_index(["card", "move"])["change"])
    # A Terrain more matters for two Terrains by turn 0 and by turn 4, by different amounts.
    assert changes[0][("Le Grenier Hanté", "+1")] != pytest.approx(changes[1][("Le Grenier Hanté", "+1")])


@pytest.mark.parametrize("table", ["objectives", "detail"])
def test_the_table_key_chooses_the_result_table(tmp_path, deck, table):
    path = write_spec(tmp_path, f"""
        [[questions]]
        question = "sensitivity"
        decks = ["w"]
        event = "Terrain>=1"
        objectives = ["0.5 * odds: Terrain>=2 @ 3"]
        cards = ["Robot Camembert"]
        table = "{table}"
    """)
    [task] = load_spec(path).tasks
    rows = run_task(task, task.seed(7))
    result = deckstat.sensitivity(deck, "wankul", event="Terrain>=1", objectives=["0.5 * odds: Terrain>=2 @ 3"],
                                  cards=["Robot Camembert"])
    same_table(rows, result.frames()[table])
    assert set(rows["objectives"]) == {"0.5 * odds: Terrain>=2 @ 3"} and set(rows["table"]) == {table}


def test_an_unknown_key_is_refused_with_its_line(tmp_path):
    path = write_spec(tmp_path, """
        [[questions]]
        question = "sensitivity"
        event = "Terrain>=1"
        objective = "odds: Terrain>=2 @ 3"
    """)
    message = spec_error(path)
    assert message.startswith(f"{path}:{line_of(path, 'objective =')}: questions[0].objective: unknown key; did you "
                              "mean 'objectives'?")


@pytest.mark.parametrize(("written", "expected"), [
    ('"odds Terrain>=1 @ 2"', "objective 'odds Terrain>=1 @ 2': expected a kind (odds, curve) then ':'"),
    ('["odds: Terrain>=1 @ 2", "curve: Robot Camembert @ deux"]', "the turn after '@' must be a whole number"),
    ('["odds: Terrain>=1 @ 2", 3]', "objectives must be a text or a list of texts"),
    # Read well, refused by the question's own checks on the deck: its weight, its card.
    ('"0 * odds: Terrain>=1 @ 2"', "objective '0 * odds: Terrain>=1 @ 2': its weight must be a positive number"),
    ('"courbe: Robot Camembrt @ 3"', "card 'Robot Camembrt' is not in the deck"),
])
def test_a_bad_objective_is_refused_at_its_line(tmp_path, written, expected):
    path = write_spec(tmp_path, f"""
        [[questions]]
        question = "sensitivity"
        cards = ["Robot Camembert"]
        objectives = {written}
    """)
    message = spec_error(path)
    assert message.startswith(f"{path}:{line_of(path, 'objectives =')}: questions[0].objectives: "), message
    assert expected in message


@pytest.mark.parametrize(("body", "key", "expected"), [
    ('event = ["Terrain>=1", "Terrain>=2"]', "event", "event is one event here; give the others as objectives"),
    ('event = "Terain>=1"', "event", "event 'Terain>=1', position 1: Terain matches no card type"),
    ('event = "Terrain>=1"\nseat = "both"', "seat", "seat must be one of first, second, got 'both'"),
    ('event = "Terrain>=1"\ncards = ["Robot"]', "cards", "card 'Robot' is not in the deck"),
    ('event = "Terrain>=1"\nfiller = "Robot"', "filler", "card 'Robot' is not in the deck"),
    ('event = "Terrain>=1"\nkeep = "Terain>=1"', "keep", "keep rule 'Terain>=1'"),
    ('event = "Terrain>=1"\nprecision = 0.01', "precision", "unknown key"),
    ('event = "Terrain>=1"\n[questions.sweep]\nby_turn = [2, 60]', "sweep.by_turn", "turns can go up to turn 45"),
    ('seat = "first"', None, "sensitivity needs something to judge the deck on: event, curve_target or objectives"),
])
def test_bad_values_are_refused_at_their_key(tmp_path, body, key, expected):
    path = write_spec(tmp_path, '[[questions]]\nquestion = "sensitivity"\ndecks = ["w"]\n' + body + "\n")
    message = spec_error(path)
    if key is None:
        assert message.startswith(f"{path}:{line_of(path, '[[questions]]')}: questions[0]: "), message
    else:
        needle = f"{key.split('.')[-1]} ="
        assert message.startswith(f"{path}:{line_of(path, needle)}: questions[0].{key}: "), message
    assert expected in message


def test_the_opponent_is_a_deck_of_the_spec(tmp_path):
    path = write_spec(tmp_path, """
        [[questions]]
        question = "sensitivity"
        decks = ["w"]
        opponent = "o"
        curve_target = "Robot Camembert"
        by_turn = 3
        cards = ["Robot Camembert"]
        trials = 1000
    """)
    [task] = load_spec(path).tasks
    assert [d.label for d in task.decks] == ["w", "o"] and task.param("opponent") == "o"
    rows = run_task(task, task.seed(7))
    direct = deckstat.sensitivity(deckstat.load_deck(DECK), "wankul", curve_target="Robot Camembert", by_turn=3,
                                  cards=["Robot Camembert"], n_trials=1000, rng=task.seed(7),
                                  opponent=deckstat.load_deck(OTHER))
    assert rows["change"].tolist() == direct.table["change"].tolist() and set(rows["opponent"]) == {"o"}
    assert (rows["method"] == "simulate").all()


def test_the_dry_run_counts_every_move_and_the_default_trials(tmp_path):
    path = write_spec(tmp_path, """
        [[questions]]
        question = "sensitivity"
        decks = ["w"]
        event = "Terrain>=1"
        [questions.sweep]
        cards = [["Robot Camembert"], ["Robot Camembert", "Le Grenier Hanté", "Plage de Galets"]]
        method = ["exact", "simulate"]
    """)
    table = plan(path)
    assert list(table["method"]) == ["exact", "simulate", "exact", "simulate"]
    assert list(table["trials"].fillna(0)) == [0, DEFAULT_TRIALS, 0, DEFAULT_TRIALS]
    # More cards, more decks a move away: more time.
    one, three = table["seconds"].iloc[[0, 2]]
    assert 0 < one < three
    out = ok(run("batch", path, "--dry-run"))
    assert "sensitivity" in out and "4 tasks" in out
