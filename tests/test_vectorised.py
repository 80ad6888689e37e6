"""The numpy draw loops give the compiled loops' numbers, and small simulations never start numba."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import deckstat
from deckstat.engines import _compiled, _vectorised, kernel, progress
from deckstat.i18n import tr


@st.composite
def draws(draw):
    """Random words and a deck of cells: small and large decks (scaled and plain indices), int8 and int16 cells."""
    many_cells = draw(st.booleans())
    n_cells = draw(st.integers(128, 140)) if many_cells else draw(st.integers(2, 12))
    big = draw(st.booleans())
    counts = np.array(draw(st.lists(st.integers(20, 40) if big else st.integers(1, 5), min_size=n_cells,
                                    max_size=n_cells)), dtype=np.int64)
    n_cards = int(counts.sum())
    length = draw(st.integers(1, min(n_cards, 60)))
    n_trials = draw(st.integers(1, 300))
    n_groups = draw(st.integers(0, 3))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    table = rng.integers(0, 2, (n_cells, n_groups)).astype(np.int16)
    scaled = n_cards < 256
    if scaled:
        bits = rng.integers(0, 2**32, (length, n_trials), dtype=np.uint32)
    else:
        remaining = np.arange(n_cards, n_cards - length, -1)[:, None]
        bits = (rng.random((length, n_trials)) * remaining).astype(np.uint32)
    return bits, scaled, counts, table


@settings(max_examples=150, deadline=None)
@given(draws())
def test_numpy_draws_are_the_compiled_draws(case):
    bits, scaled, counts, table = case
    length, n_trials = bits.shape
    n_groups = table.shape[1]
    dtype = kernel.cell_dtype(len(counts))
    results = []
    for module in (_vectorised, _compiled):
        cells = np.empty((length, n_trials), dtype=dtype)
        prefix = np.zeros((n_groups, length + 1, n_trials), dtype=np.int16)
        module.draw(bits, scaled, counts, table, cells, prefix)
        if module is _compiled and len(counts) != 2:
            _compiled.prefix_counts(cells, table, prefix)
        results.append((cells, prefix))
    (cells, prefix), (compiled_cells, compiled_prefix) = results
    np.testing.assert_array_equal(cells, compiled_cells)
    np.testing.assert_array_equal(prefix, compiled_prefix)
    # Every cell drawn as often as it holds cards, at most (a draw without replacement).
    if length == counts.sum():
        for c, count in enumerate(counts):
            assert np.all((cells == c).sum(axis=0) == count)
    again = np.zeros_like(prefix)
    _vectorised.prefix_counts(cells, table, again)
    np.testing.assert_array_equal(again, compiled_prefix)


def _odds(deck, game, event, **options):
    return deckstat.odds(deck, game, event, method="simulate", n_trials=30_000, rng=11, **options).table


@pytest.mark.parametrize("case", ["wankul", "many cells", "large deck"])
def test_questions_answer_the_same_through_either_loops(case, monkeypatch):
    if case == "wankul":
        deck, game, event = deckstat.load_deck("data/wankul/sample_deck.csv"), "wankul", "Terrain>=1 and [cost<=1]>=2"
        options = {}
    else:
        copies = 3 if case == "many cells" else 40
        cards = [{"name": f"card {i}", "count": copies, "type": "Terrain" if i % 3 == 0 else "Personnage",
                  "cost": i % 4} for i in range(20)]
        deck, game, event = deckstat.Deck.from_table(cards), "generic", "Terrain>=2 and [cost<=1]>=1"
        options = {"seat": "first"}
    tables = []
    for module in (_vectorised, kernel._Compiled):
        monkeypatch.setattr(kernel, "loops", lambda *size, module=module: module)
        tables.append(_odds(deck, game, event, **options))
    assert tables[0].equals(tables[1])


def test_numpy_is_chosen_until_its_work_would_cost_more_than_loading_numba(monkeypatch):
    monkeypatch.setattr(kernel, "_vectorised_work", 0)
    monkeypatch.delitem(sys.modules, "deckstat.engines._compiled")
    assert kernel.loops(200_000, 20, 3, 2) is _vectorised
    assert kernel.loops(10**8, 20, 3, 2) is kernel._Compiled
    # The draws so far count: many small ones end up loading the compiled loops.
    for _ in range(10_000):
        module = kernel.loops(20_000, 20, 3, 2)
    assert module is kernel._Compiled
    monkeypatch.setattr(kernel, "_vectorised_work", 0)
    monkeypatch.setitem(sys.modules, "deckstat.engines._compiled", _compiled)
    assert kernel.loops(10, 2, 2, 1) is kernel._Compiled


def test_before_a_first_compile_numpy_draws_until_compiling_would_pay(monkeypatch, tmp_path):
    monkeypatch.setattr(kernel, "_vectorised_work", 0)
    monkeypatch.delitem(sys.modules, "deckstat.engines._compiled")
    mark = tmp_path / "cache" / "compiled-mark"
    monkeypatch.setattr(kernel, "_marks", [mark])
    # Between the two thresholds: numpy while the loops were never compiled here, compiled once they were.
    size = (3 * 10**7, 20, 3, 2)
    work = 20 * 5 * (3 * 10**7 + kernel.VECTORISED_CALL)
    assert kernel.VECTORISED_WORK < work < kernel.VECTORISED_WORK_UNCOMPILED
    assert not kernel.compiled_once()
    assert kernel.loops(*size) is _vectorised
    monkeypatch.setattr(kernel, "_vectorised_work", 0)
    assert kernel.loops(10**9, 20, 3, 2) is kernel._Compiled  # past the second threshold compiling pays anyway
    # A worker process leaves the compiling to the main one: numpy whatever the work, until the loops are compiled.
    monkeypatch.setattr(kernel, "compiles_here", False)
    assert kernel.loops(10**9, 20, 3, 2) is _vectorised
    monkeypatch.setattr(kernel, "compiles_here", True)
    monkeypatch.setattr(kernel, "_vectorised_work", 0)
    kernel._mark_compiled()
    assert mark.exists() and kernel.compiled_once()
    assert kernel.loops(*size) is kernel._Compiled
    monkeypatch.setattr(kernel, "compiles_here", False)
    assert kernel.loops(*size) is kernel._Compiled



def test_a_run_is_judged_whole_at_its_first_draw(monkeypatch, tmp_path):
    monkeypatch.setattr(kernel, "_vectorised_work", 0)
    monkeypatch.delitem(sys.modules, "deckstat.engines._compiled")
    monkeypatch.setattr(kernel, "_marks", [tmp_path / "never-written"])
    block = (1 << 17, 20, 3, 2)
    per_trial = 20 * 5
    # Never compiled here. A run whose whole work passes the threshold compiles from its first block on ...
    with kernel.drawing(kernel.VECTORISED_WORK_UNCOMPILED // per_trial + 1):
        assert kernel.loops(*block) is kernel._Compiled
    # ... one under it draws every block with numpy, even those past the threshold counted block by block.
    with kernel.drawing(kernel.VECTORISED_WORK_UNCOMPILED // per_trial // 2):
        assert {kernel.loops(*block) for _ in range(800)} == {_vectorised}
    assert kernel._vectorised_work > kernel.VECTORISED_WORK_UNCOMPILED
    # Compiled once: a run past the first threshold is compiled from its first block, not once its blocks add up.
    monkeypatch.setattr(kernel, "_vectorised_work", 0)
    kernel._mark_compiled()
    with kernel.drawing(kernel.VECTORISED_WORK // per_trial + 1):
        assert kernel.loops(*block) is kernel._Compiled
    with kernel.drawing(kernel.VECTORISED_WORK // per_trial // 2) as run:
        assert kernel.loops(*block) is _vectorised and run.choice is _vectorised

def test_a_first_compile_in_a_process_marks_the_install(monkeypatch, tmp_path):
    marks = [tmp_path / "read-only" / "mark", tmp_path / "user" / "mark"]
    marks[0].parent.mkdir()
    marks[0].parent.chmod(0o500)
    monkeypatch.setattr(kernel, "_marks", marks)
    monkeypatch.setattr(kernel, "_ready", set())
    bits = np.zeros((3, 4), dtype=np.uint32)
    args = (bits, True, np.array([2, 3], dtype=np.int64), np.zeros((2, 1), dtype=np.int16),
            np.empty((3, 4), dtype=np.int8), np.zeros((1, 4, 4), dtype=np.int16))
    try:
        kernel.compiled("draw", *args)(*args)
        # The first folder is read-only (unless the tests run as a user who can write anywhere): the next one.
        assert kernel.compiled_once() and (marks[0].exists() or marks[1].exists())
    finally:
        marks[0].parent.chmod(0o700)


def test_compiling_a_signature_is_tracked_as_preparing(monkeypatch):
    monkeypatch.setattr(kernel, "_ready", set())
    seen = []

    def factory(description, total, unit):
        seen.append((description, total, unit))
        return progress.Progress()

    bits = np.zeros((3, 4), dtype=np.uint32)
    args = (bits, True, np.array([2, 3], dtype=np.int64), np.zeros((2, 1), dtype=np.int16),
            np.empty((3, 4), dtype=np.int8), np.zeros((1, 4, 4), dtype=np.int16))
    with progress.listening(factory):
        kernel.compiled("draw", *args)(*args)
        kernel.compiled("draw", *args)(*args)  # ready: not tracked again
    assert seen == [(tr(kernel.PREPARING), None, "")]


@pytest.mark.parametrize("deck, game", [("data/wankul/sample_deck.csv", "wankul"),
                                        ("data/mtg/deck.csv", "data/mtg/profile.toml")])
def test_a_simulated_question_at_the_default_trials_does_not_start_numba(deck, game):
    # Wankul's bottom mulligan, and the London mulligan of the user profile.
    code = (f"import sys, deckstat; deck = deckstat.load_deck({deck!r}); "
            f"r = deckstat.odds(deck, {game!r}, 'Terrain>=1' if {game!r} == 'wankul' else 'Land>=4', "
            "method='simulate', rng=1); "
            "assert set(r.table['method']) == {'simulate'}, r.table; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@st.composite
def reshuffles(draw):
    """A deck of cells with group memberships, a reshuffling rule and its needs: what ``kernel.deal`` takes."""
    n_cells = draw(st.integers(1, 6))
    counts = np.array(draw(st.lists(st.integers(1, 12), min_size=n_cells, max_size=n_cells)), dtype=np.int64)
    n_groups = draw(st.integers(1, 3))
    table = np.array(draw(st.lists(st.lists(st.booleans(), min_size=n_groups, max_size=n_groups),
                                   min_size=n_cells, max_size=n_cells)), dtype=bool)
    n_cards = int(counts.sum())
    hand_size = draw(st.integers(1, min(7, n_cards)))
    set_aside = draw(st.integers(0, min(2, n_cards - hand_size)))
    max_draws = draw(st.integers(0, n_cards - hand_size - set_aside))
    rule = draw(st.sampled_from(["london", "free", "pokemon"]))
    limit = draw(st.integers(1, min(3, hand_size)))
    needs = [(g, draw(st.integers(1, 3))) for g in draw(st.lists(st.integers(0, n_groups - 1), max_size=2))]
    resource = draw(st.one_of(st.none(), st.lists(st.booleans(), min_size=n_cells, max_size=n_cells)))
    threshold = draw(st.integers(0, 2))
    return dict(cell_counts=counts, table=table, hand_size=hand_size, set_aside=set_aside, max_draws=max_draws,
                mulligan=rule, mulligan_limit=limit, needs=needs,
                resource=None if resource is None else np.array(resource), resource_target=draw(st.floats(0, 1)),
                keep=lambda hands: hands[0] >= threshold)


@settings(max_examples=80, deadline=None)
@given(reshuffles(), st.integers(1, 700), st.integers(0, 2**32 - 1))
def test_reshuffling_mulligans_deal_the_same_in_numpy_and_compiled(monkeypatch_module, case, n_trials, seed):
    dealt = []
    for module in (_vectorised, kernel._Compiled):
        monkeypatch_module.setattr(kernel, "loops", lambda *size, module=module: module)
        rng = np.random.default_rng(seed)
        dealt.append((kernel.deal(n_trials=n_trials, rng=rng, **case), rng.bit_generator.state))
    (numpy_zones, numpy_state), (compiled_zones, compiled_state) = dealt
    assert numpy_zones.keys() == compiled_zones.keys()
    for zone in numpy_zones:
        np.testing.assert_array_equal(numpy_zones[zone], compiled_zones[zone], err_msg=zone)
    assert numpy_state == compiled_state  # the same random words spent: later draws go on alike


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch

