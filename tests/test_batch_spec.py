"""Batch specs: errors located at their line and key, expansion into tasks, identity, seeds, digest, run_task."""

import io
import json
import re
import shlex
import textwrap
import tomllib
from pathlib import Path

import pandas as pd
import pytest
from helpers import DATA, SHARED_CARDDATA, line_of, ok, run, spec_error
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import hypergeom

import deckstat
from deckstat.batching import SpecError, Task, load_spec, plan, run_task
from deckstat.batching.spec import key_lines
from deckstat.batching.tasks import SEED_BOUND, cached_deck

# A 50-card Wankul deck: 10 Terrains, 40 Personnages (20 cost 1, 20 cost 2).
SMALL = "name,count,type,cost\nTerrain,10,Terrain,\nPetit,20,Personnage,1\nGrand,20,Personnage,2\n"
# The same with 12 Terrains.
SMALL_12 = "name,count,type,cost\nTerrain,12,Terrain,\nPetit,18,Personnage,1\nGrand,20,Personnage,2\n"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A spec folder with decks/small.csv, decks/small_12.csv and decks/alt/other.csv."""
    decks = tmp_path / "decks"
    (decks / "alt").mkdir(parents=True)
    (decks / "small.csv").write_text(SMALL, encoding="utf-8")
    (decks / "small_12.csv").write_text(SMALL_12, encoding="utf-8")
    (decks / "alt" / "other.csv").write_text(SMALL, encoding="utf-8")
    return tmp_path


DECKS = """\
game = "wankul"

[decks.small]
path = "decks/small.csv"

[decks.all]
path = "decks/small*.csv"
"""


def write(folder: Path, body: str, decks: str = DECKS) -> Path:
    path = folder / "spec.toml"
    path.write_text(decks + textwrap.dedent(body), encoding="utf-8")
    return path


# --- errors: each names the file, the line and the key ----------------------------------------------------

def test_unknown_key_names_the_closest(folder):
    path = write(folder, """
        [[questions]]
        question = "odds"
        evnt = "Terrain>=1"
    """)
    message = spec_error(path)
    assert message.startswith(f"{path}:{line_of(path, 'evnt')}: questions[0].evnt: unknown key; did you mean 'event'?")


def test_unknown_top_level_key(folder):
    path = write(folder, '[[questions]]\nquestion = "odds"\nevent = "Terrain>=1"\n', "trails = 1000\n" + DECKS)
    assert spec_error(path).startswith(f"{path}:{line_of(path, 'trails')}: trails: unknown key; did you mean 'trials'?")


@pytest.mark.parametrize(("line", "key", "needle"), [
    ('mulligan = "no"', "questions[0].mulligan", "mulligan must be true or false, got 'no'"),
    ("trials = 1.5", "questions[0].trials", "trials must be a whole number of at least 1"),
    ("precision = 0.7", "questions[0].precision", "precision must be an interval half-width"),
    ("turns = [0, -1]", "questions[0].turns", "turns must be a whole number from 0, got -1"),
    ('table = "sumary"', "questions[0].table", "did you mean 'summary'?"),
])
def test_wrong_type_or_value_of_a_parameter(folder, line, key, needle):
    path = write(folder, f"""
        [[questions]]
        question = "odds"
        event = "Terrain>=1"
        {line}
    """)
    message = spec_error(path)
    assert message.startswith(f"{path}:{line_of(path, line)}: {key}: ")
    assert needle in message


def test_wrong_type_at_the_top(folder):
    path = write(folder, """
        [[questions]]
        question = "odds"
        event = "Terrain>=1"
    """, decks='seed = "abc"\n' + DECKS)
    message = spec_error(path)
    assert message.startswith(f"{path}:1: seed: seed must be a whole number")


def test_missing_deck_file(folder):
    decks = DECKS.replace("decks/small.csv", "decks/missing.csv")
    path = write(folder, '[[questions]]\nquestion = "odds"\nevent = "Terrain>=1"\n', decks)
    message = spec_error(path)
    assert message.startswith(f"{path}:{line_of(path, 'missing.csv')}: decks.small.path: deck file 'decks/missing.csv' "
                              "not found")


def test_glob_matching_nothing(folder):
    decks = DECKS.replace("decks/small*.csv", "decks/nothing*.csv")
    path = write(folder, '[[questions]]\nquestion = "odds"\nevent = "Terrain>=1"\n', decks)
    assert spec_error(path).startswith(f"{path}:{line_of(path, 'nothing')}: decks.all.path: 'decks/nothing*.csv' "
                                       "matches no file")


def test_unknown_deck_label(folder):
    path = write(folder, """
        [[questions]]
        question = "odds"
        decks = ["small", "smal/x"]
        event = "Terrain>=1"
    """)
    message = spec_error(path)
    assert message.startswith(f"{path}:{line_of(path, 'smal/x')}: questions[0].decks[1]: unknown deck 'smal/x'")
    assert "all/small_12" in message


def test_bad_event_names_its_token(folder):
    path = write(folder, """
        [[questions]]
        question = "when"
        event = "Terrain>=1 andd Petit"
    """)
    message = spec_error(path)
    assert message.startswith(f"{path}:{line_of(path, 'andd')}: questions[0].event: ")
    assert "position 12: unexpected 'andd'" in message


def test_group_absent_from_the_deck_is_found_before_anything_runs(folder):
    path = write(folder, """
        [[questions]]
        question = "odds"
        decks = ["small"]
        event = "Terain>=1"
    """)
    message = spec_error(path)
    assert message.startswith(f"{path}:{line_of(path, 'Terain')}: questions[0].event: ")
    assert "'Terrain'" in message and "allow_absent = true" in message


def test_unknown_game(folder):
    path = write(folder, '[[questions]]\nquestion = "odds"\nevent = "Terrain>=1"\n',
                 DECKS.replace('game = "wankul"', 'game = "wankl"'))
    message = spec_error(path)
    assert message.startswith(f"{path}:1: game: unknown game 'wankl'")
    assert "did you mean 'wankul'?" in message


def test_empty_sweep(folder):
    path = write(folder, """
        [[questions]]
        question = "odds"
        event = "Terrain>=1"
        [questions.sweep]
        seat = []
    """)
    assert spec_error(path).startswith(f"{path}:{line_of(path, 'seat =')}: questions[0].sweep.seat: expected a "
                                       "non-empty list")


def test_sweep_key_that_is_not_a_parameter(folder):
    path = write(folder, """
        [[questions]]
        question = "mulligan"
        [questions.sweep]
        max_turn = [3, 4]
    """)
    message = spec_error(path)
    assert message.startswith(f"{path}:{line_of(path, 'max_turn')}: questions[0].sweep.max_turn: not a parameter of "
                              "mulligan")


@pytest.mark.parametrize(("sweep", "key", "needle"), [
    ('seat = ["first", "third"]', "questions[1].sweep.seat", "seat must be one of first, second, both, got 'third'"),
    ('turns = ["0-2", "6-2"]', "questions[1].sweep.turns", "range '6-2' goes backwards; write 2-6"),
    ('method = ["simulate", "exactly"]', "questions[1].sweep.method", "did you mean 'exact'?"),
])
def test_sweep_value_the_question_refuses(folder, sweep, key, needle):
    path = write(folder, f"""
        [[questions]]
        question = "odds"
        event = "Terrain>=1"

        [[questions]]
        question = "odds"
        event = "Terrain>=2"
        [questions.sweep]
        {sweep}
    """)
    message = spec_error(path)
    assert message.startswith(f"{path}:{line_of(path, sweep)}: {key}: ")
    assert needle in message


def test_turn_beyond_the_deck_is_refused_before_running(folder):
    path = write(folder, """
        [[questions]]
        question = "odds"
        decks = ["small"]
        event = "Terrain>=1"
        turns = "0-60"
    """)
    message = spec_error(path)
    assert message.startswith(f"{path}:{line_of(path, '0-60')}: questions[0].turns: turn ")
    assert "turns can go up to turn" in message


def test_toml_syntax_error_gives_its_line(folder):
    path = write(folder, """
        [[questions]]
        question = "odds"
        event = "Terrain>=1
    """)
    message = spec_error(path)
    assert message.startswith(f"{path}:{line_of(path, 'event =')}: column ")
    assert "not valid TOML" in message


def test_dict_spec_errors_name_the_key_alone(folder):
    with pytest.raises(SpecError) as caught:
        load_spec({"game": "wankul", "decks": {"small": {"path": "decks/small.csv"}},
                   "questions": [{"question": "odds", "event": "Terrain>=1", "sweep": {"seat": ["third"]}}]},
                  base_dir=folder)
    assert str(caught.value).startswith("questions[0].sweep.seat: seat must be one of first, second, both")


def test_unknown_question(folder):
    path = write(folder, '[[questions]]\nquestion = "odd"\n')
    message = spec_error(path)
    where = f"{path}:{line_of(path, 'odd')}: questions[0].question"
    assert message == f"{where}: unknown question 'odd'; did you mean 'odds'?"
    path = write(folder, '[[questions]]\nquestion = "probability"\n')
    assert spec_error(path).endswith("unknown question 'probability'; expected one of odds, when, mulligan, ratio, "
                                     "deckout, compare, sensitivity, curve")


def test_key_lines_follow_inline_tables_and_skip_multiline_arrays():
    text = textwrap.dedent("""\
        [[questions]]
        event = [
          "a = 1",
          "[b]",
        ]
        sweep = { seat = ["first"], turns = ["0-1"] }
        [[questions]]
        question = "odds"
    """)
    lines = key_lines(text)
    assert lines["questions[0].event"] == 2
    assert lines["questions[0].sweep.turns"] == 6
    assert lines["questions[1].question"] == 8
    assert "a" not in lines and "b" not in lines


# --- expansion ---------------------------------------------------------------------------------------------

def test_expansion_is_decks_times_the_sweep_product_and_compare_is_one_task(folder):
    path = write(folder, """
        [[questions]]
        question = "odds"
        decks = ["all"]
        event = "Terrain>=1"
        [questions.sweep]
        seat = ["first", "second"]
        mulligan_rule = ["bottom", "london", "free"]

        [[questions]]
        question = "compare"
        decks = ["all/small", "all/small_12"]
        event = "Terrain>=1"
    """)
    spec = load_spec(path)
    assert len(spec.tasks) == 2 * 2 * 3 + 1
    odds_tasks = spec.tasks[:12]
    # Spec order: each deck, then the combinations in the order written.
    assert [(t.decks[0].label, t.param("seat"), t.param("mulligan_rule")) for t in odds_tasks[:3]] == [
        ("all/small", "first", "bottom"), ("all/small", "first", "london"), ("all/small", "first", "free")]
    assert odds_tasks[6].decks[0].label == "all/small_12"
    assert all(t.swept == ("seat", "mulligan_rule") for t in odds_tasks)
    comparison = spec.tasks[-1]
    assert [d.label for d in comparison.decks] == ["all/small", "all/small_12"]
    assert len({t.task_id for t in spec.tasks}) == len(spec.tasks)
    assert spec.name == "spec" and spec.seed is None


def test_every_deck_by_default_and_defaults_reach_the_questions(folder):
    spec = load_spec({"game": "wankul", "trials": "1e4", "method": "simulate",
                      "decks": {"a": {"path": "decks/small.csv"}, "b": {"path": "decks/alt/*.csv"}},
                      "questions": [{"question": "odds", "event": "Terrain>=1"},
                                    {"question": "odds", "event": "Terrain>=2", "precision": 0.01}]},
                     base_dir=folder)
    assert [t.decks[0].label for t in spec.tasks] == ["a", "b/other", "a", "b/other"]
    assert spec.tasks[0].param("trials") == 10_000 and spec.tasks[0].param("method") == "simulate"
    # A question that sets precision does not inherit the default trial count.
    assert spec.tasks[2].param("trials") is None and spec.tasks[2].param("precision") == 0.01
    assert spec.name == "batch"


def test_the_same_task_twice_is_refused(folder):
    path = write(folder, """
        [[questions]]
        question = "odds"
        event = "Terrain>=1"
        [questions.sweep]
        turns = ["0-2", [0, 1, 2]]
    """)
    assert "asks the same task twice" in spec_error(path)


def test_deckout_opponent_is_a_deck_label(folder):
    spec = load_spec({"game": "wankul", "decks": {"a": {"path": "decks/small.csv"},
                                                  "b": {"path": "decks/small_12.csv"}},
                      "questions": [{"question": "deckout", "decks": ["a"], "opponent": "b", "drought": False}]},
                     base_dir=folder)
    [task] = spec.tasks
    assert [d.label for d in task.decks] == ["a", "b"] and task.param("opponent") == "b"
    rows = run_task(task, task.seed(1))
    first = rows[rows["seat"] == "first"].iloc[0]
    assert first["deck"] == "a" and first["deck_file"] == "small.csv" and first["opponent"] == "small_12.csv"


def test_ratio_curve_opponent_is_a_deck_label(folder):
    # The curve objective's opponent is resolved as deckout's: a deck of the spec, the task holding both.
    spec = load_spec({"game": "wankul", "decks": {"a": {"path": "decks/small.csv"},
                                                  "b": {"path": "decks/small_12.csv"}},
                      "questions": [{"question": "ratio", "decks": ["a"], "opponent": "b", "objective": "curve",
                                     "curve_group": "Terrain", "target_turn": 2, "counts": [10], "trials": 500}]},
                     base_dir=folder)
    [task] = spec.tasks
    assert [d.label for d in task.decks] == ["a", "b"] and task.param("opponent") == "b"
    rows = run_task(task, task.seed(1))
    assert set(rows["opponent"]) == {"b"} and len(rows) == 2


# --- identity, seeds and digest ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def shared_folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("batch")
    (folder / "a.csv").write_text(SMALL, encoding="utf-8")
    (folder / "b.csv").write_text(SMALL_12, encoding="utf-8")
    return folder


EVENTS = ["Terrain>=1", "Terrain>=2", "[cost<=1]>=1", "Terrain>=1 and Petit>=1"]
SEATS = ["first", "second", "both"]


@settings(max_examples=25, deadline=None)
@given(questions=st.lists(st.tuples(st.sampled_from(EVENTS), st.lists(st.sampled_from(SEATS), min_size=1,
                                                                       max_size=3, unique=True),
                                    st.lists(st.integers(0, 5), min_size=1, max_size=3, unique=True)),
                          min_size=1, max_size=3, unique_by=lambda q: q[0]),
       order=st.randoms(use_true_random=False), spec_seed=st.integers(0, SEED_BOUND - 1))
def test_ids_and_seeds_do_not_depend_on_the_order_written(shared_folder, questions, order, spec_seed):
    def spec(items):
        return {"seed": spec_seed, "game": "wankul",
                "decks": {"a": {"path": "a.csv"}, "b": {"path": "b.csv"}},
                "questions": [{"question": "odds", "event": event, "sweep": {"seat": seats, "turns": turns}}
                              for event, seats, turns in items]}

    written = load_spec(spec(questions), base_dir=shared_folder)
    shuffled_questions = [(event, order.sample(seats, len(seats)), order.sample(turns, len(turns)))
                          for event, seats, turns in order.sample(questions, len(questions))]
    shuffled = load_spec(spec(shuffled_questions), base_dir=shared_folder)
    pairs = {(t.task_id, t.seed(spec_seed)) for t in written.tasks}
    assert pairs == {(t.task_id, t.seed(spec_seed)) for t in shuffled.tasks}
    # Different tasks have different ids and seeds.
    assert len(pairs) == len(written.tasks) == len({seed for _, seed in pairs})
    assert all(0 <= seed < SEED_BOUND for _, seed in pairs)


def test_seed_given_by_a_question_is_its_seed(folder):
    spec = load_spec({"game": "wankul", "decks": {"a": {"path": "decks/small.csv"}},
                      "questions": [{"question": "odds", "event": "Terrain>=1", "sweep": {"seed": [7, 8]}}]},
                     base_dir=folder)
    assert [t.seed(123) for t in spec.tasks] == [7, 8]


def test_digest_follows_deck_bytes_and_parameters_not_comments(folder):
    body = """
        [[questions]]
        question = "odds"
        event = "Terrain>=1"
        turns = "0-3"
    """
    path = write(folder, body)
    first = load_spec(path).digest
    path.write_text("# a comment\n\n" + path.read_text(encoding="utf-8").replace("turns = ", "turns   =  ")
                    + "\n# the end\n", encoding="utf-8")
    assert load_spec(path).digest == first
    write(folder, body.replace("0-3", "0-4"))
    assert load_spec(path).digest != first
    write(folder, body)
    assert load_spec(path).digest == first
    (folder / "decks" / "small.csv").write_text(SMALL.replace("Petit,20", "Petit,21"), encoding="utf-8")
    assert load_spec(path).digest != first


def test_to_dict_is_the_canonical_spec(folder):
    path = write(folder, '[[questions]]\nquestion = "odds"\nevent = "Terrain>=1"\n')
    spec = load_spec(path)
    data = spec.to_dict()
    assert data["decks"]["all"]["labels"] == ["all/small", "all/small_12"]
    assert data["questions"] == [{"question": "odds", "event": "Terrain>=1"}]
    assert spec.source == path.resolve()


# --- run_task ------------------------------------------------------------------------------------------------

def one_task(folder, **question) -> Task:
    spec = load_spec({"game": "wankul", "decks": {"small": {"path": "decks/small.csv"}},
                      "questions": [question]}, base_dir=folder)
    [task] = spec.tasks
    return task


def test_exact_task_matches_the_hypergeometric_value(folder):
    task = one_task(folder, question="odds", event="Terrain>=1", turns="0-2", seat="first", mulligan=False)
    rows = run_task(task, task.seed(5))
    # Wankul's first player draws on turn 1: 5, 6 then 7 cards seen.
    expected = [1 - hypergeom(M=50, n=10, N=seen).pmf(0) for seen in (5, 6, 7)]
    assert rows["p"].tolist() == pytest.approx(expected, abs=1e-12)
    assert (rows["method"] == "exact").all()
    assert list(rows.columns[:8]) == ["task_id", "question", "deck", "game", "mulligan", "turns", "seed",
                                      "deck_file"]
    assert rows["turns"].iloc[0] == "0-2" and rows["deck"].iloc[0] == "small"
    assert rows["task_id"].iloc[0] == task.task_id


def test_task_rows_equal_the_python_api_with_its_seed(folder):
    task = one_task(folder, question="odds", event=["Terrain>=2", "Petit>=2"], turns=[0, 3], method="simulate",
                    trials=20_000, mulligan_rule="london")
    seed = task.seed(20261130)
    rows = run_task(task, seed)
    deck = deckstat.load_deck(folder / "decks" / "small.csv")
    direct = deckstat.odds(deck, "wankul", ["Terrain>=2", "Petit>=2"], turns=[0, 3], method="simulate",
                           n_trials=20_000, mulligan_rule="london", rng=seed).table
    own = rows[[c for c in direct.columns if c not in ("deck", "game")]]
    pd.testing.assert_frame_equal(own, direct.drop(columns=["deck", "game"]))
    assert (rows["seed"] == seed).all() and rows["event"].tolist()[0] == "Terrain>=2"


def test_a_row_is_reproduced_by_the_command_line_seed(folder):
    task = one_task(folder, question="when", event="Terrain>=2", max_turn=3, seat="second", method="simulate",
                    trials=5000)
    seed = task.seed(99)
    rows = run_task(task, seed)
    out = ok(run("when", folder / "decks" / "small.csv", "-g", "wankul", "-e", "Terrain>=2", "--max-turn", 3,
                 "--seat", "second", "--simulate", "--trials", 5000, "--seed", seed, "--format", "csv"))
    cli = pd.read_csv(io.StringIO(out), comment="#")
    assert cli["p"].tolist() == pytest.approx(rows["p"].tolist(), abs=1e-15)


def test_chosen_table_and_compare_label(folder):
    spec = load_spec({"game": "wankul", "decks": {"all": {"path": "decks/small*.csv"}},
                      "questions": [{"question": "compare", "event": "Terrain>=1", "turns": 0, "seat": "first",
                                     "mulligan": False},
                                    {"question": "mulligan", "decks": ["all/small"], "table": "kept_hand"}]},
                     base_dir=folder)
    comparison, kept = (run_task(t, t.seed(1)) for t in spec.tasks)
    assert comparison["deck"].iloc[0] == "all/small vs all/small_12"
    hand = [1 - hypergeom(M=50, n=k, N=5).pmf(0) for k in (10, 12)]
    assert comparison["diff"].iloc[0] == pytest.approx(hand[1] - hand[0], abs=1e-12)
    assert {"group", "count", "p", "table"} <= set(kept.columns) and (kept["table"] == "kept_hand").all()


def test_real_pool_decklist(tmp_path):
    pool = SHARED_CARDDATA / "wankul_octerry_cards.csv"
    if not pool.exists():
        pytest.skip("shared card data not available")
    cards = pd.read_csv(pool)
    # Names printed once, so that a decklist line names one card.
    cards = cards[~cards["name"].duplicated(keep=False)]
    terrains = cards[cards["card_type"] == "Terrain"]["name"].head(5).tolist()
    others = cards[cards["card_type"] == "Personnage"]["name"].head(10).tolist()
    decklist = tmp_path / "deck.txt"
    decklist.write_text("\n".join([f"2 {n}" for n in terrains] + [f"3 {n}" for n in others]) + "\n",
                        encoding="utf-8")
    spec = load_spec({"game": "wankul", "decks": {"real": {"path": "deck.txt", "pool": str(pool)}},
                      "questions": [{"question": "odds", "event": "Terrain>=1", "turns": 0, "seat": "first",
                                     "mulligan": False}]}, base_dir=tmp_path)
    [task] = spec.tasks
    rows = run_task(task, task.seed(0))
    assert rows["p"].iloc[0] == pytest.approx(1 - hypergeom(M=40, n=10, N=5).pmf(0), abs=1e-12)


def test_sample_data_spec_loads(tmp_path):
    spec = load_spec({"decks": {"wankul": {"path": str(DATA / "wankul" / "sample_deck*.csv"), "game": "wankul"},
                                "dm": {"path": str(DATA / "duel-masters" / "sample_deck.csv"),
                                       "game": "Duel Masters"}},
                      "questions": [{"question": "deckout", "decks": ["dm"]}]}, base_dir=tmp_path)
    [task] = spec.tasks
    assert task.game == "duel-masters" and task.describe() == "deckout dm"


def test_documented_spec_and_reproduction_command():
    page = (DATA.parent / "docs" / "batch.md").read_text(encoding="utf-8")
    [toml] = re.findall(r"```toml\n(.*?)```", page, flags=re.S)
    path = DATA.parent / "docs" / "example.toml"
    spec = load_spec(tomllib.loads(toml), base_dir=path.parent)
    assert len(spec.tasks) == 18
    [command] = [line for line in page.splitlines() if line.startswith("deckstat odds ")]
    args = shlex.split(command)[1:]
    seed = int(args[args.index("--seed") + 1])
    [task] = [t for t in spec.tasks if t.question == "odds" and t.decks[0].label == "wankul/sample_deck"
              and t.param("seat") == "first" and t.param("mulligan_rule") == "london"]
    assert task.seed(spec.seed) == seed
    rows = run_task(task, seed)
    out = ok(run(*[str(DATA.parent / a) if a.startswith("data/") else a for a in args], "--format", "csv"))
    cli = pd.read_csv(io.StringIO(out), comment="#")
    assert cli["p"].tolist() == rows["p"].tolist()


def test_deckout_keep_rule_is_checked_before_running(folder):
    path = write(folder, """
        [[questions]]
        question = "deckout"
        decks = ["small"]
        keep = "Terrian>=1"
    """)
    message = spec_error(path)
    assert message.startswith(f"{path}:{line_of(path, 'Terrian')}: questions[0].keep: keep rule 'Terrian>=1'")


def test_max_trials_reaches_the_question_and_bounds_a_precision_run(folder):
    path = write(folder, """
        [[questions]]
        question = "odds"
        decks = ["small"]
        event = "Terrain>=2"
        turns = "0"
        method = "simulate"
        precision = 0.0001
        max_trials = 1e6
    """)
    (task,) = load_spec(path).tasks
    assert dict(task.params)["max_trials"] == 1_000_000
    # About 1.96² p(1-p) / 0.0001² ≈ 7.6e7 trials at p ≈ 0.26: refused after the first block, not run.
    with pytest.raises(deckstat.DeckstatError, match=r"needs about .* more than max_trials 1e6"):
        run_task(task, task.seed(1))


def test_a_profile_file_counts_by_its_content_not_its_place(tmp_path):
    def task_ids(where: Path) -> list[str]:
        (where / "decks").mkdir(parents=True)
        (where / "decks" / "deck.csv").write_bytes((DATA / "mtg" / "deck.csv").read_bytes())
        (where / "profile.toml").write_bytes((DATA / "mtg" / "profile.toml").read_bytes())
        spec = where / "spec.toml"
        spec.write_text('seed = 3\n[decks.mtg]\npath = "decks/deck.csv"\ngame = "profile.toml"\n'
                        '[[questions]]\nquestion = "odds"\nevent = "Land>=1"\nturns = "0"\n', encoding="utf-8")
        return [(t.task_id, t.seed(3)) for t in load_spec(spec).tasks]

    assert task_ids(tmp_path / "here") == task_ids(tmp_path / "elsewhere" / "deeper")


def test_a_ratio_target_turn_outside_its_turns_is_refused_before_anything_runs(folder):
    path = write(folder, """
        [[questions]]
        question = "ratio"
        decks = ["small"]
        counts = "10-11"
        turns = "0-1"
        target = 0.9
        target_turn = 3
    """)
    message = spec_error(path)
    assert "spec.toml:" in message and "questions[0].target_turn" in message and "(0, 1)" in message


def test_compare_asks_about_a_card_only_one_deck_holds(folder):
    # v2 swaps the 20 "Petit" for as many "Moyen": deckstat.compare asks about either card, and so does a spec.
    (folder / "decks" / "v2.csv").write_text(SMALL.replace("Petit,20", "Moyen,20"), encoding="utf-8")
    path = write(folder, """
        [decks.v2]
        path = "decks/v2.csv"

        [[questions]]
        question = "compare"
        decks = ["small", "v2"]
        event = "Petit>=1"
        turns = "0"
        seat = "first"
        mulligan = false
        """, decks=DECKS.replace('[decks.all]\npath = "decks/small*.csv"\n', ""))
    [task] = load_spec(path).tasks
    assert plan(path)["method"].tolist() == ["exact"]
    rows = run_task(task, task.seed(1))
    assert rows[["p_a", "p_b"]].values.ravel().tolist() == pytest.approx([1 - hypergeom(50, 20, 5).pmf(0), 0.0],
                                                                      abs=1e-12)
    # A group no deck holds is still refused before anything runs.
    path.write_text(path.read_text(encoding="utf-8").replace('"Petit>=1"', '"Petti>=1"'), encoding="utf-8")
    assert "Petti matches no card type, tag or card name of any deck compared" in spec_error(path)


def test_zones_are_read_as_the_questions_read_them():
    # French zone words and the game's name for its set-aside cards, as deckstat.odds and ratio take them.
    deck = DATA / "duel-masters" / "sample_deck.csv"
    spec = load_spec({"seed": 1, "game": "duel-masters", "decks": {"dm": {"path": str(deck)}},
                      "questions": [{"question": "odds", "event": "[shield_trigger=1]>=1",
                                     "sweep": {"zone": ["set_aside", "boucliers", "shields", "main"]}}]})
    p = [run_task(task, 1)["p"].tolist() for task in spec.tasks]
    # 8 triggers in 40 cards: 5 shields, or a 5-card opening hand, hold none with probability C(32, 5)/C(40, 5),
    # for either seat.
    assert p[0] == p[1] == p[2] == p[3] == pytest.approx([1 - hypergeom(40, 8, 5).pmf(0)] * 2, abs=1e-12)


# --- known cards ------------------------------------------------------------------------------------------------

def test_known_cards_in_a_spec_give_the_python_numbers(folder):
    # Two Terrains gone (a file next to the spec) and a hand of 5 Personnages: 8 Terrains among 43 cards.
    (folder / "gone.txt").write_text("2 Terrain\n", encoding="utf-8")
    path = write(folder, """\
        [[questions]]
        question = "odds"
        decks = ["small"]
        event = "Terrain>=1"
        known = { main = "Petit=3, Grand=2", "défausse" = "gone.txt" }
        draws = [1, 3]
        """)
    result = deckstat.batch(path, workers=1)
    rows = result.table
    assert rows["p"].tolist() == pytest.approx([1 - hypergeom(43, 8, d).pmf(0) for d in (1, 3)], abs=1e-12)
    assert set(rows["known"]) == {f"gone: {folder / 'gone.txt'}; hand: Petit=3, Grand=2"}
    assert set(rows["method"]) == {"exact"}


@pytest.mark.parametrize("value, needle", [
    ('"Petit=3"', "expected a table of known cards by zone"),
    ('{ poche = "Petit=1" }', "unknown zone 'poche'"),
    ('{ hand = 3 }', "expected a description of cards"),
    ('{ broken = -1 }', "broken"),
])
def test_bad_known_cards_name_the_key(folder, value, needle):
    path = write(folder, f"""\
        [[questions]]
        question = "odds"
        decks = ["small"]
        event = "Terrain>=1"
        known = {value}
        """)
    message = spec_error(path)
    assert f":{line_of(path, 'known =')}:" in message and "known" in message and needle in message


# --- edited copy counts ------------------------------------------------------------------------------------------

EXACT_ODDS = {"question": "odds", "event": "Terrain>=1", "turns": "0-2", "seat": "first", "mulligan": False}


def copies(deck) -> dict[str, int]:
    return dict(zip(deck.names, deck.counts.tolist()))


def file_copies(text: str) -> dict[str, int]:
    table = pd.read_csv(io.StringIO(text))
    return dict(zip(table["name"], table["count"]))


def test_counts_set_the_copies_of_the_deck_read(folder):
    # small.csv with 12 Terrains and 18 Petits is the deck small_12.csv holds.
    spec = load_spec({"game": "wankul", "decks": {"small": "decks/small.csv",
                                                  "edited": {"path": "decks/small.csv",
                                                             "counts": {"Terrain": 12, "Petit": 18}},
                                                  "twelve": "decks/small_12.csv"},
                      "questions": [EXACT_ODDS]}, base_dir=folder)
    small, edited, twelve = spec.tasks
    assert copies(cached_deck(edited.decks[0])) == file_copies(SMALL_12)
    assert copies(cached_deck(small.decks[0])) == file_copies(SMALL)
    rows = {task.deck_label: run_task(task, task.seed(1)) for task in spec.tasks}
    # Wankul's first player draws on turn 1: 5, 6 then 7 cards seen.
    for label, terrains in (("small", 10), ("edited", 12), ("twelve", 12)):
        expected = [1 - hypergeom(M=50, n=terrains, N=seen).pmf(0) for seen in (5, 6, 7)]
        assert rows[label]["p"].tolist() == pytest.approx(expected, abs=1e-12)
    # The edited deck says so in its rows, exactly; the others have no such column.
    assert set(rows["edited"]["deck_counts"]) == {'{"edited": {"Petit": 18, "Terrain": 12}}'}
    assert "deck_counts" not in rows["small"].columns and "deck_counts" not in rows["twelve"].columns


def test_a_row_of_an_edited_deck_is_the_python_call_on_deck_with_counts(folder):
    spec = load_spec({"seed": 11, "game": "wankul",
                      "decks": {"edited": {"path": "decks/small.csv", "counts": {"Grand": 0, "Terrain": 14}}},
                      "questions": [{"question": "odds", "event": ["Terrain>=2", "Petit>=2"], "turns": [0, 3],
                                     "method": "simulate", "trials": 3000, "mulligan_rule": "london"}]},
                     base_dir=folder)
    [task] = spec.tasks
    rows = run_task(task, task.seed(spec.seed))
    # What docs/batch.md says reproduces the row: the deck file's counts, with the row's deck_counts set.
    counts = json.loads(rows["deck_counts"].iloc[0])[rows["deck"].iloc[0]]
    deck = deckstat.load_deck(folder / "decks" / "small.csv")
    edited = deck.with_counts([counts.get(label, count) for label, count in zip(deck.labels, deck.counts)])
    assert copies(edited) == {"Terrain": 14, "Petit": 20}  # a card set to 0 leaves the deck
    direct = deckstat.odds(edited, "wankul", ["Terrain>=2", "Petit>=2"], turns=[0, 3], method="simulate",
                           n_trials=3000, mulligan_rule="london", rng=task.seed(spec.seed)).table
    assert rows["p"].tolist() == direct["p"].tolist() and (rows["method"] == "simulate").all()
    assert rows["deck_file"].tolist() == direct["deck"].tolist()


def test_tables_of_one_file_with_other_counts_are_other_tasks(folder):
    spec = load_spec({"seed": 3, "game": "wankul",
                      "decks": {"as_is": "decks/small.csv",
                                "more": {"path": "decks/small.csv", "counts": {"Terrain": 12}},
                                "fewer": {"path": "decks/small.csv", "counts": {"Terrain": 8}}},
                      "questions": [EXACT_ODDS]}, base_dir=folder)
    assert len({t.task_id for t in spec.tasks}) == 3 and len({t.seed(3) for t in spec.tasks}) == 3
    for task, terrains in zip(spec.tasks, (10, 12, 8)):
        expected = [1 - hypergeom(M=40 + terrains, n=terrains, N=seen).pmf(0) for seen in (5, 6, 7)]
        assert run_task(task, 1)["p"].tolist() == pytest.approx(expected, abs=1e-12), task.deck_label


def test_an_edited_deck_is_checked_as_edited(folder):
    # The file's deck asks about its Terrains; the same file with none is refused, not passed as already checked.
    path = write(folder, """
        [[questions]]
        question = "odds"
        decks = ["small", "none"]
        event = "Terrain>=1"
    """, DECKS + '\n[decks.none]\npath = "decks/small.csv"\ncounts = { Terrain = 0 }\n')
    message = spec_error(path)
    assert message.startswith(f"{path}:{line_of(path, 'event =')}: questions[0].event: "), message
    assert "no card of this deck has it; its types are Personnage" in message


def test_counts_change_the_digest_and_the_ids_of_the_edited_deck_alone(folder):
    def spec(counts=None):
        edited = {"path": "decks/small.csv"} if counts is None else {"path": "decks/small.csv", "counts": counts}
        return load_spec({"seed": 1, "game": "wankul", "decks": {"small": "decks/small.csv", "edited": edited},
                          "questions": [EXACT_ODDS]}, base_dir=folder)

    unedited, twelve, eleven, empty = spec(), spec({"Terrain": 12}), spec({"Terrain": 11}), spec({})
    assert len({unedited.digest, twelve.digest, eleven.digest}) == 3
    assert len({unedited.spec_digest, twelve.spec_digest, eleven.spec_digest}) == 3
    assert twelve.to_dict()["decks"]["edited"]["counts"] == {"Terrain": 12}
    ids = [[t.task_id for t in s.tasks] for s in (unedited, twelve, eleven)]
    assert ids[0][0] == ids[1][0] == ids[2][0]  # the deck left as it is keeps its task
    assert len({i[1] for i in ids}) == 3
    # An empty table edits nothing: the same spec, digest and tasks as without it.
    assert (empty.digest, [t.task_id for t in empty.tasks]) == (unedited.digest, ids[0])


def test_counts_of_a_glob_edit_every_deck_it_matches(folder):
    spec = load_spec({"game": "wankul", "decks": {"all": {"path": "decks/small*.csv", "counts": {"Grand": 10}}},
                      "questions": [EXACT_ODDS]}, base_dir=folder)
    edited = {t.deck_label: copies(cached_deck(t.decks[0])) for t in spec.tasks}
    assert edited == {"all/small": {**file_copies(SMALL), "Grand": 10},
                      "all/small_12": {**file_copies(SMALL_12), "Grand": 10}}
    # A file of the glob without the card is refused, by name.
    odd = folder / "decks" / "small_odd.csv"
    odd.write_text("name,count,type,cost\nTerrain,10,Terrain,\nPetit,40,Personnage,1\n", encoding="utf-8")
    path = write(folder, "[[questions]]\nquestion = 'odds'\nevent = 'Terrain>=1'\n",
                 DECKS.replace('path = "decks/small*.csv"', 'path = "decks/small*.csv"\ncounts = { Grand = 10 }'))
    assert spec_error(path) == (f"{path}:{line_of(path, 'counts =')}: decks.all.counts.Grand: 'Grand' is not a card "
                                f"of the deck {odd}; name a card as the deck file writes it")


@pytest.mark.parametrize(("counts", "key", "expected"), [
    ("{ Terain = 3 }", "decks.edited.counts.Terain", "'Terain' is not a card of the deck {deck}; did you mean "
                                                      "'Terrain'?; name a card as the deck file writes it"),
    # Names are compared as the file writes them: the closest is offered, not taken.
    ("{ terrain = 3 }", "decks.edited.counts.terrain", "'terrain' is not a card of the deck {deck}; did you mean "
                                                       "'Terrain'?; name a card as the deck file writes it"),
    ("{ Terrain = -1 }", "decks.edited.counts.Terrain", "expected a whole number of copies from 0 to 10,000, got -1"),
    ("{ Terrain = 2.5 }", "decks.edited.counts.Terrain", "expected a whole number of copies from 0 to 10,000, got 2.5"),
    ('{ Terrain = "3" }', "decks.edited.counts.Terrain", "expected a whole number of copies from 0 to 10,000, got '3'"),
    ("{ Terrain = true }", "decks.edited.counts.Terrain",
     "expected a whole number of copies from 0 to 10,000, got True"),
    ("{ Terrain = 10_001 }", "decks.edited.counts.Terrain",
     "expected a whole number of copies from 0 to 10,000, got 10001"),
    ('"Terrain = 3"', "decks.edited.counts", "expected a table of copies by card, e.g. counts = {{ \"Robot Camembert\" "
                                             "= 3 }}, got a text"),
    ("{ Terrain = 0, Petit = 0, Grand = 0 }", "decks.edited.counts",
     "the counts leave no card in the deck {deck}; keep at least one copy"),
])
def test_bad_counts_are_refused_at_their_card(folder, counts, key, expected):
    path = write(folder, '[[questions]]\nquestion = "odds"\nevent = "Terrain>=1"\n',
                 DECKS + f'\n[decks.edited]\npath = "decks/small.csv"\ncounts = {counts}\n')
    deck = (folder / "decks" / "small.csv").resolve()
    assert spec_error(path) == f"{path}:{line_of(path, 'counts =')}: {key}: {expected.format(deck=deck)}"


def test_a_name_of_several_printings_is_refused_and_its_label_taken(folder):
    deck_path = folder / "decks" / "printings.csv"
    deck_path.write_text("name,count,type,number\nVENDEUR,2,Personnage,35\nVENDEUR,1,Personnage,36\n"
                         "Terrain,10,Terrain,1\nPetit,37,Personnage,2\n", encoding="utf-8")
    head = 'game = "wankul"\n[decks.p]\npath = "decks/printings.csv"\n[decks.p.counts]\n'
    question = '[[questions]]\nquestion = "odds"\nevent = "Terrain>=1"\n'
    path = folder / "spec.toml"
    path.write_text(head + "VENDEUR = 3\n" + question, encoding="utf-8")
    assert spec_error(path) == (f"{path}:{line_of(path, 'VENDEUR =')}: decks.p.counts.VENDEUR: 'VENDEUR' names 2 "
                                f"printings of the deck {deck_path} ('VENDEUR #35', 'VENDEUR #36'); name one by its "
                                "label")
    path.write_text(head + '"VENDEUR #36" = 3\n' + question, encoding="utf-8")
    [task] = load_spec(path).tasks
    cards = cached_deck(task.decks[0]).cards
    by_number = dict(zip(cards["number"].astype(str), cards["count"]))
    assert by_number == {"35": 2, "36": 3, "1": 10, "2": 37}


def test_a_name_is_kept_by_its_label_and_a_card_given_twice_refused(folder):
    # Two printings whose names differ by case alone: each name is one row, whose label tells them apart.
    (folder / "decks" / "cases.csv").write_text("name,count,type,number\nVendeur,2,Personnage,35\n"
                                                "VENDEUR,1,Personnage,36\nTerrain,10,Terrain,1\n"
                                                "Petit,37,Personnage,2\n", encoding="utf-8")
    spec = load_spec({"game": "wankul", "decks": {"c": {"path": "decks/cases.csv", "counts": {"Vendeur": 4}}},
                      "questions": [EXACT_ODDS]}, base_dir=folder)
    [task] = spec.tasks
    deck = deckstat.load_deck(folder / "decks" / "cases.csv")
    assert task.decks[0].counts == (("Vendeur #35", 4),) and deck.labels[0] == "Vendeur #35"
    # The rows' counts, by label, give the deck the task reads.
    counts = json.loads(run_task(task, 1)["deck_counts"].iloc[0])["c"]
    rebuilt = deck.with_counts([counts.get(label, n) for label, n in zip(deck.labels, deck.counts)])
    assert rebuilt.counts.tolist() == cached_deck(task.decks[0]).counts.tolist() == [4, 1, 10, 37]
    path = write(folder, '[[questions]]\nquestion = "odds"\nevent = "Terrain>=1"\n',
                 'game = "wankul"\n[decks.c]\npath = "decks/cases.csv"\n[decks.c.counts]\nVendeur = 4\n'
                 '"Vendeur #35" = 3\n')
    assert spec_error(path) == (f"{path}:{line_of(path, 'Vendeur #35')}: decks.c.counts.Vendeur #35: 'Vendeur #35' "
                                "names the card 'Vendeur' names too; give its copies once")
