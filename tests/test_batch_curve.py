"""Curve in batch specs: the tables of ``deckstat.curve`` with the task's seed, sweeps, errors at load time, dry run."""

from __future__ import annotations

import re
import textwrap
import tomllib
from math import comb
from pathlib import Path

import pandas as pd
import pytest
from helpers import DATA, line_of, ok, run, spec_error

import deckstat
from deckstat.batching import load_spec, plan, run_task

DECK = DATA / "wankul" / "sample_deck.csv"
OTHER = DATA / "wankul" / "sample_deck_v2.csv"
#: A deck whose cards draw: ``deckstat.curve`` answers its ``effects`` table unless told not to.
EFFECTS = DATA / "wankul" / "effects_deck.csv"
CARDS = ["Robot Camembert", "Ninja du Marché"]
#: Columns a batch row puts before the question's own (besides the task's parameters).
LEADING = ["task_id", "question", "deck", "game", "seed"]


def write_spec(folder: Path, body: str) -> Path:
    path = folder / "spec.toml"
    head = (f'seed = 7\ngame = "wankul"\n[decks.w]\npath = "{DECK.as_posix()}"\n[decks.o]\npath = '
            f'"{OTHER.as_posix()}"\n[decks.e]\npath = "{EFFECTS.as_posix()}"\n')
    path.write_text(head + textwrap.dedent(body), encoding="utf-8")
    return path


def same_table(rows: pd.DataFrame, table: pd.DataFrame) -> None:
    """``rows`` hold ``table`` (whose ``game`` column a batch gives once, in front), every cell."""
    own = rows.drop(columns=LEADING).rename(columns={"deck_file": "deck"})
    expected = table.drop(columns=["game"], errors="ignore")
    pd.testing.assert_frame_equal(own[list(expected.columns)], expected)


def test_a_task_runs_as_deckstat_curve_with_its_seed(tmp_path):
    path = write_spec(tmp_path, """
        [[questions]]
        question = "curve"
        decks = ["e"]
        cards = ["Robot Camembert", "Ninja du Marché"]
        turns = "1-4"
        trials = 2000
    """)
    [task] = load_spec(path).tasks
    assert task.question == "curve" and task.param("cards") == tuple(CARDS) and task.param("turns") == (1, 2, 3, 4)
    seed = task.seed(7)
    rows = run_task(task, seed)
    # The deck's cards draw: the direct call (effects=True, its default) also plays them, which the batch leaves
    # out when its table is not "effects"; its own table is the same.
    direct = deckstat.curve(deckstat.load_deck(EFFECTS), "wankul", cards=CARDS, turns=[1, 2, 3, 4], n_trials=2000,
                            rng=seed)
    assert direct.effects is not None
    same_table(rows, direct.table)
    assert (rows["method"] == "simulate").all() and len(rows) == 2 * 2 * 4  # targets × seats × turns
    assert set(rows["cards"]) == {"; ".join(CARDS)} and set(rows["turns"]) == {"1-4"}
    # deckstat.batch gathers the same rows.
    result = deckstat.batch(path, workers=1)
    assert result.ok
    columns = ["task_id", "seed", "target", "seat", "turn", "p", "ci_low", "ci_high", "n_trials"]
    pd.testing.assert_frame_equal(result.table[columns], rows[columns], check_dtype=False)


@pytest.mark.parametrize(("deck", "table"), [("w", "summary"), ("w", "scoring"), ("w", "drought_play"),
                                             ("e", "effects")])
def test_the_table_key_chooses_the_result_table(tmp_path, deck, table):
    path = write_spec(tmp_path, f"""
        [[questions]]
        question = "curve"
        decks = ["{deck}"]
        cards = "Robot Camembert"
        turns = [2, 4]
        seat = "first"
        trials = 1000
        table = "{table}"
    """)
    [task] = load_spec(path).tasks
    rows = run_task(task, task.seed(7))
    file = {"w": DECK, "e": EFFECTS}[deck]
    direct = deckstat.curve(deckstat.load_deck(file), "wankul", cards="Robot Camembert", turns=[2, 4], seat="first",
                            n_trials=1000, rng=task.seed(7))
    same_table(rows, direct.frames()[table])
    assert set(rows["table"]) == {table} and set(rows["cards"]) == {"Robot Camembert"}


def test_an_exact_task_gives_the_hypergeometric_value(tmp_path):
    # The generic game's player sees 5 + t cards by turn t and plays a card as soon as it is in hand.
    deck = tmp_path / "deck.csv"
    deck.write_text("name,count,type\nA,4,x\nB,36,x\n", encoding="utf-8")
    path = tmp_path / "spec.toml"
    path.write_text('game = "generic"\n[decks.d]\npath = "deck.csv"\n[[questions]]\nquestion = "curve"\n'
                    'cards = "A"\nturns = "1-3"\nseat = "first"\n', encoding="utf-8")
    [task] = load_spec(path).tasks
    rows = run_task(task, task.seed(1))
    expected = [1 - comb(36, 5 + t) / comb(40, 5 + t) for t in (1, 2, 3)]
    assert rows["p"].tolist() == pytest.approx(expected, abs=1e-12)
    assert (rows["method"] == "exact").all() and rows["turn"].tolist() == [1, 2, 3]


def test_a_sweep_gives_one_task_per_value_each_as_the_python_call(tmp_path):
    path = write_spec(tmp_path, """
        [[questions]]
        question = "curve"
        decks = ["w"]
        cards = "Dragon de la Boulangerie"
        turns = 3
        trials = 1000
        [questions.sweep]
        seat = ["first", "second"]
    """)
    spec = load_spec(path)
    assert [t.describe() for t in spec.tasks] == ["curve w seat=first", "curve w seat=second"]
    assert len({t.seed(spec.seed) for t in spec.tasks}) == 2
    deck = deckstat.load_deck(DECK)
    for task in spec.tasks:
        rows = run_task(task, task.seed(spec.seed))
        direct = deckstat.curve(deck, "wankul", cards="Dragon de la Boulangerie", turns=3, seat=task.param("seat"),
                                n_trials=1000, rng=task.seed(spec.seed))
        same_table(rows, direct.table)


def test_the_opponent_is_a_deck_of_the_spec(tmp_path):
    path = write_spec(tmp_path, """
        [[questions]]
        question = "curve"
        decks = ["w"]
        opponent = "o"
        groups = "[cost>=2]"
        turns = "2-3"
        seat = "second"
        trials = 1000
    """)
    [task] = load_spec(path).tasks
    assert [d.label for d in task.decks] == ["w", "o"] and task.param("groups") == ("[cost>=2]",)
    rows = run_task(task, task.seed(7))
    direct = deckstat.curve(deckstat.load_deck(DECK), "wankul", groups="[cost>=2]", turns=[2, 3], seat="second",
                            n_trials=1000, rng=task.seed(7), opponent=deckstat.load_deck(OTHER))
    same_table(rows, direct.table)
    assert set(rows["opponent"]) == {"o"} and set(rows["target"]) == {"[cost>=2]"}


def test_an_edited_deck_is_the_python_call_on_deck_with_counts(tmp_path):
    # What the explorer saves: a deck's counts changed, and its playability asked with a seed.
    path = write_spec(tmp_path, f"""
        [decks.edited]
        path = "{DECK.as_posix()}"
        counts = {{ "Ninja du Marché" = 4, "Robot Camembert" = 0 }}
        [[questions]]
        question = "curve"
        decks = ["edited"]
        cards = "Ninja du Marché"
        turns = "1-3"
        seat = "first"
        trials = 1000
        seed = 12
    """)
    [task] = load_spec(path).tasks
    rows = run_task(task, task.seed(7))
    deck = deckstat.load_deck(DECK)
    counts = [{"Ninja du Marché": 4, "Robot Camembert": 0}.get(name, n) for name, n in zip(deck.names, deck.counts)]
    edited = deck.with_counts(counts)
    assert edited.size == deck.size - 1 and "Robot Camembert" not in edited.names
    direct = deckstat.curve(edited, "wankul", cards="Ninja du Marché", turns=[1, 2, 3], seat="first", n_trials=1000,
                            rng=12)
    same_table(rows, direct.table)
    unedited = deckstat.curve(deck, "wankul", cards="Ninja du Marché", turns=[1, 2, 3], seat="first", n_trials=1000,
                              rng=12)
    assert rows["p"].tolist() != unedited.table["p"].tolist()


@pytest.mark.parametrize(("body", "key", "expected"), [
    ('cards = ["Robot Camembert", "Robot"]', "cards", "card 'Robot' is not in the deck"),
    ('cards = "Robot Camembert"\nturns = "0-3"', "turns", "turns start at turn 1"),
    ('cards = "Robot Camembert"\nturns = "1-60"', "turns", "is past the last turn this 50-card deck can play"),
    ('cards = "Robot Camembert"\nseat = "third"', "seat", "seat must be one of first, second, both"),
    ('cards = "Robot Camembert"\npolicy = "greedy"', "policy", "unknown policy 'greedy' for Wankul"),
    ('groups = "[cost>=2"', "groups", "group '[cost>=2'"),
    ('groups = ["[cost>=2]", "Terain"]', "groups", "Terain matches no card type"),
    ('cards = "Robot Camembert"\nopponent = "x"', "opponent", "unknown deck 'x'"),
    ('cards = "Robot Camembert"\ntable = "sumary"', "table", "did you mean 'summary'?"),
    ('cards = "Robot Camembert"\ncard = "Robot Camembert"', "card", "unknown key; did you mean 'cards'?"),
    ('cards = "Robot Camembert"\nmethod = "exact"', "method", "has no exact form for Robot Camembert"),
    ('cards = "Robot Camembert"\n[questions.sweep]\nturns = ["1-3", "2-70"]', "sweep.turns",
     "is past the last turn"),
])
def test_bad_values_are_refused_at_their_key(tmp_path, body, key, expected):
    path = write_spec(tmp_path, '[[questions]]\nquestion = "curve"\ndecks = ["w"]\n' + body + "\n")
    message = spec_error(path)
    needle = f"{key.split('.')[-1]} ="
    assert message.startswith(f"{path}:{line_of(path, needle)}: questions[0].{key}: "), message
    assert expected in message


def test_the_dry_run_gives_each_task_its_method_and_more_time_for_more(tmp_path):
    deck = tmp_path / "deck.csv"
    deck.write_text("name,count,type\nA,4,x\nB,36,x\n", encoding="utf-8")
    path = write_spec(tmp_path, f"""
        [decks.g]
        path = "{deck.as_posix()}"
        game = "generic"
        [[questions]]
        question = "curve"
        decks = ["g"]
        cards = "A"
        [[questions]]
        question = "curve"
        decks = ["w", "e"]
        trials = 5000
        [questions.sweep]
        cards = [["Robot Camembert"], ["Robot Camembert", "Ninja du Marché", "Yéti en Vacances"]]
        table = ["table", "effects"]
    """)
    table = plan(path)
    assert list(table["method"]) == ["exact"] + ["simulate"] * 8
    assert pd.isna(table["trials"].iloc[0]) and set(table["trials"].iloc[1:]) == {5000}
    seconds = table.set_index("description")["seconds"]
    one = "curve {deck} cards=Robot Camembert"
    three = "curve {deck} cards=Robot Camembert; Ninja du Marché; Yéti en Vacances"
    for deck in ("w", "e"):
        # More targets follow more cards in each game.
        assert seconds[f"{one.format(deck=deck)} table=table"] < seconds[f"{three.format(deck=deck)} table=table"]
    # The effects table plays each game again with and without the draws, when the deck has some.
    assert seconds[f"{one.format(deck='e')} table=effects"] > seconds[f"{one.format(deck='e')} table=table"]
    assert seconds[f"{one.format(deck='w')} table=effects"] == seconds[f"{one.format(deck='w')} table=table"]
    out = ok(run("batch", path, "--dry-run"))
    assert "curve" in out and "9 tasks" in out


def test_the_documented_reproduction_of_an_edited_row(monkeypatch):
    # docs/batch.md's example spec, its curve task on the edited deck, and the Python it gives to reproduce a row.
    page = (DATA.parent / "docs" / "batch.md").read_text(encoding="utf-8")
    [toml] = re.findall(r"```toml\n(.*?)```", page, flags=re.S)
    [code] = [block for block in re.findall(r"```python\n(.*?)```", page, flags=re.S) if "with_counts" in block]
    spec = load_spec(tomllib.loads(toml), base_dir=DATA.parent / "docs")
    [task] = [t for t in spec.tasks if t.question == "curve" and t.deck_label == "edited"]
    rows = run_task(task, task.seed(spec.seed))
    monkeypatch.chdir(DATA.parent)
    names = {"row": rows.iloc[0]}
    exec(code, names)
    same_table(rows, names["result"].table)
    assert names["edited"].size == deckstat.load_deck(DECK).size + 1 - 3
