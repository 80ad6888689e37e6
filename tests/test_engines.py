"""The engines' contracts: cells, the bottom-mulligan dealer, the block runner, result tables, error names."""

from __future__ import annotations

import functools
from collections import Counter, defaultdict

import numpy as np
import pandas as pd
import pytest
from coin import coin_task
from helpers import assert_user_error, run, sample_deck
from hypothesis import given, settings
from hypothesis import strategies as st

import deckstat
from deckstat.cli.options import FLAGS
from deckstat.engines import kernel, runner
from deckstat.engines.cells import partition, shared_partition
from deckstat.errors import DeckstatError, param
from deckstat.results import IDENTITY_COLUMNS

# --- cells -----------------------------------------------------------------------------------------------------


@st.composite
def small_deck(draw, n_keys=None, int_keys=None):
    """Copies per distinct card (some 0, at least one card) and a key row per card."""
    n_cards = draw(st.integers(1, 8))
    n_keys = draw(st.integers(1, 3)) if n_keys is None else n_keys
    int_keys = draw(st.booleans()) if int_keys is None else int_keys
    counts = draw(st.lists(st.integers(0, 6), min_size=n_cards, max_size=n_cards))
    if not any(counts):
        counts[0] = 1
    values = st.integers(0, 3) if int_keys else st.booleans()
    keys = draw(st.lists(st.lists(values, min_size=n_keys, max_size=n_keys), min_size=n_cards, max_size=n_cards))
    dtype = np.int64 if int_keys else bool
    return np.array(counts, dtype=np.int64), np.array(keys, dtype=dtype).reshape(n_cards, n_keys)


def grouped(counts, keys) -> dict[tuple, int]:
    """Copies per distinct key row, cards with no copies left out (the reference partition)."""
    out: dict[tuple, int] = defaultdict(int)
    for count, row in zip(counts, keys):
        if count:
            out[tuple(row.tolist())] += int(count)
    return dict(out)


@settings(max_examples=150, deadline=None)
@given(deck=small_deck())
def test_partition_cells_are_disjoint_and_add_up(deck):
    counts, keys = deck
    cell_counts, cell_keys = partition(counts, keys)
    assert cell_keys.dtype == keys.dtype and cell_keys.shape[1] == keys.shape[1]
    rows = [tuple(row.tolist()) for row in cell_keys]
    # Disjoint: no two cells share a key row; sorted; none empty.
    assert len(set(rows)) == len(rows) and rows == sorted(rows)
    assert (cell_counts > 0).all()
    assert int(cell_counts.sum()) == int(counts.sum())
    assert dict(zip(rows, cell_counts.tolist())) == grouped(counts, keys)


@settings(max_examples=150, deadline=None)
@given(deck=small_deck())
def test_a_single_decks_shared_partition_is_its_partition(deck):
    counts, keys = deck
    cell_keys, [shared_counts] = shared_partition([(counts, keys)])
    own_counts, own_keys = partition(counts, keys)
    present = shared_counts > 0
    np.testing.assert_array_equal(shared_counts[present], own_counts)
    np.testing.assert_array_equal(cell_keys[present], own_keys)
    # Only key rows of cards with no copies can make an empty cell.
    absent = {tuple(row.tolist()) for row in cell_keys[~present]}
    assert absent.isdisjoint(grouped(counts, keys))


@settings(max_examples=150, deadline=None)
@given(data=st.data(), n_keys=st.integers(1, 3), int_keys=st.booleans())
def test_a_decks_cells_do_not_depend_on_the_other_decks(data, n_keys, int_keys):
    decks = data.draw(st.lists(small_deck(n_keys=n_keys, int_keys=int_keys), min_size=2, max_size=4))
    cell_keys, per_deck = shared_partition(decks)
    rows = [tuple(row.tolist()) for row in cell_keys]
    assert len(set(rows)) == len(rows) and rows == sorted(rows)
    assert len(per_deck) == len(decks)
    for (counts, keys), deck_counts in zip(decks, per_deck):
        assert deck_counts.dtype == np.int64 and len(deck_counts) == len(rows)
        assert int(deck_counts.sum()) == int(counts.sum())
        mine = {row: int(c) for row, c in zip(rows, deck_counts) if c}
        assert mine == grouped(counts, keys)
        # Membership in each key column (a group) is the same as in the deck alone, and as with one other deck.
        alone_counts, alone_keys = partition(counts, keys)
        pair_keys, [paired, _] = shared_partition([(counts, keys), decks[0]])
        for g in range(n_keys):
            for value in set(keys[:, g].tolist()):
                expected = int(counts[keys[:, g] == value].sum())
                assert int(deck_counts[cell_keys[:, g] == value].sum()) == expected
                assert int(alone_counts[alone_keys[:, g] == value].sum()) == expected
                assert int(paired[pair_keys[:, g] == value].sum()) == expected


# --- the bottom-mulligan dealer ---------------------------------------------------------------------------------


def counts_of(table, cells):
    """Group counts of the cards ``cells`` (positions, trials): shape (n_groups, n_trials)."""
    return np.asarray(table, dtype=np.int64)[cells].sum(axis=0).T


def literal_bottom_deal(cells, table, keep, hand_size, set_aside, limit):
    """The bottom mulligan applied to each shuffled deck (cell ids, positions × trials), one trial at a time."""
    table = np.asarray(table, dtype=np.int64)
    hands, libraries, mulligans = [], [], []
    for order in cells.T.tolist():
        k = 0
        while True:
            start = set_aside + k * hand_size
            hand = order[start:start + hand_size]
            counts = table[hand].sum(axis=0)[:, None]
            if k == limit or keep(counts)[0]:
                break
            k += 1
        hands.append(hand)
        # The hands put back lie under the deck in the order they were dealt.
        libraries.append(order[start + hand_size:] + order[set_aside:start])
        mulligans.append(k)
    return np.array(hands).T, np.array(libraries).T, np.array(mulligans)


def check_deal_matches_deal_order(cell_counts, table, keep, *, hand_size, set_aside, limit, max_draws, n_trials,
                                  seed):
    """``deal`` (bottom rule) and ``deal_order`` agree zone by zone for the same generator state."""
    ordered = kernel.deal_order(cell_counts, table, n_trials, np.random.default_rng(seed), hand_size=hand_size,
                                set_aside=set_aside, limit=limit, keep=keep)
    dealt = kernel.deal(cell_counts, table, n_trials, hand_size=hand_size, set_aside=set_aside,
                        max_draws=max_draws, rng=np.random.default_rng(seed), mulligan="bottom",
                        mulligan_limit=limit, keep=keep)
    hand, library, mulligans = ordered["hand"], ordered["library"], ordered["mulligans"].astype(np.int64)
    np.testing.assert_array_equal(dealt["mulligans"], mulligans)
    np.testing.assert_array_equal(dealt["hand"], counts_of(table, hand))
    n_groups = np.shape(table)[1]
    assert dealt["seen"].shape == dealt["bottom"].shape == (n_groups, max_draws + 1, n_trials)
    # Group counts of the first j library cards, j = 0..len(library): shape (len + 1, groups, trials).
    member = np.asarray(table, dtype=np.int64)[library].transpose(0, 2, 1)
    drawn = np.concatenate([np.zeros_like(member[:1]), np.cumsum(member, axis=0)])
    under_start = library.shape[0] - mulligans * hand_size  # where the bottomed hands begin in the library
    kept = counts_of(table, hand)
    for d in range(max_draws + 1):
        np.testing.assert_array_equal(dealt["seen"][:, d], kept + drawn[d], err_msg=f"seen after {d} draws")
        # Bottomed cards not drawn yet: the library from max(d, under_start) to its end.
        first_left = np.maximum(d, under_start)
        left = drawn[-1] - np.take_along_axis(drawn, first_left[None, None, :], axis=0)[0]
        np.testing.assert_array_equal(dealt["bottom"][:, d], left, err_msg=f"bottom after {d} draws")
    return ordered


@st.composite
def bottom_question(draw):
    n_cells = draw(st.integers(1, 4))
    cell_counts = draw(st.lists(st.integers(1, 5), min_size=n_cells, max_size=n_cells))
    n_cards = sum(cell_counts)
    hand_size = draw(st.integers(1, 4))
    set_aside = draw(st.integers(0, 2))
    limit = draw(st.integers(1, 2))
    # The deck must hold every hand the rule can deal.
    if set_aside + (limit + 1) * hand_size > n_cards:
        cell_counts.append(set_aside + (limit + 1) * hand_size - n_cards)
        n_cards = sum(cell_counts)
    table = draw(st.lists(st.lists(st.booleans(), min_size=2, max_size=2), min_size=len(cell_counts),
                          max_size=len(cell_counts)))
    need = draw(st.integers(0, 2))
    max_draws = draw(st.integers(0, n_cards - set_aside - hand_size))
    return (np.array(cell_counts), np.array(table, dtype=np.int8), need, hand_size, set_aside, limit, max_draws)


def keep_at_least(need, group=0):
    def keep(counts):
        return counts[group] >= need
    return keep


@settings(max_examples=80, deadline=None)
@given(question=bottom_question(), seed=st.integers(0, 2**32 - 1))
def test_bottom_deal_counts_follow_the_dealt_order(question, seed):
    cell_counts, table, need, hand_size, set_aside, limit, max_draws = question
    check_deal_matches_deal_order(cell_counts, table, keep_at_least(need), hand_size=hand_size, set_aside=set_aside,
                                  limit=limit, max_draws=max_draws, n_trials=301, seed=seed)


@pytest.mark.parametrize("limit", [1, 2])
@pytest.mark.parametrize("set_aside", [0, 1])
@pytest.mark.parametrize("cell_counts", [[3, 4, 5], [40, 90, 170]], ids=["12 cards", "300 cards"])
def test_bottom_deal_wraps_into_the_bottomed_hands(cell_counts, set_aside, limit):
    cell_counts = np.array(cell_counts)
    table = np.array([[1, 0], [0, 1], [1, 1]], dtype=np.int8)
    hand_size = 3
    n_cards = int(cell_counts.sum())
    library = n_cards - set_aside - hand_size
    # Keep a hand with no card of the first cell: the deck must often mulligan, up to the limit.
    keep = keep_at_least(hand_size, group=1)
    for max_draws in sorted({0, 2, library - hand_size * limit, library}):
        ordered = check_deal_matches_deal_order(cell_counts, table, keep, hand_size=hand_size, set_aside=set_aside,
                                                limit=limit, max_draws=max_draws, n_trials=999, seed=max_draws)
        assert set(ordered["mulligans"].tolist()) == set(range(limit + 1))


@pytest.mark.parametrize("limit", [0, 1, 2])
def test_deal_order_applies_the_bottom_rule_literally(limit):
    cell_counts = np.array([3, 4, 5])
    table = np.array([[1, 0], [0, 1], [1, 1]], dtype=np.int8)
    keep = keep_at_least(2)
    n_trials = 400
    ordered = kernel.deal_order(cell_counts, table, n_trials, np.random.default_rng(4), hand_size=3, set_aside=1,
                                limit=limit, keep=keep)
    # The same shuffles, drawn whole by draw_cells from the same generator state.
    cells = kernel.draw_cells(cell_counts, n_trials, 12, np.random.default_rng(4))
    hand, library, mulligans = literal_bottom_deal(cells, table, keep, 3, 1, limit)
    np.testing.assert_array_equal(ordered["hand"], hand)
    np.testing.assert_array_equal(ordered["library"], library)
    np.testing.assert_array_equal(ordered["mulligans"], mulligans)


@pytest.mark.parametrize(("cell_counts", "length"), [([3, 5, 2], 10), ([3, 5, 2], 4), ([10, 26, 14], 17),
                                                     ([7], 5), ([2, 2], 0), ([100, 120, 80], 40)])
@pytest.mark.parametrize("n_trials", [1, 250, 251])
def test_prefix_counts_and_cells_consume_the_generator_identically(cell_counts, length, n_trials):
    cell_counts = np.array(cell_counts)
    table = np.random.default_rng(len(cell_counts)).integers(0, 2, (len(cell_counts), 2)).astype(bool)
    rng_cells, rng_fused = np.random.default_rng(8), np.random.default_rng(8)
    cells = kernel.draw_cells(cell_counts, n_trials, length, rng_cells)
    fused = kernel.draw_prefix_counts(cell_counts, table, n_trials, length, rng_fused)
    np.testing.assert_array_equal(fused, kernel.prefix_counts(cells, table))
    assert rng_cells.bit_generator.state == rng_fused.bit_generator.state
    # What comes next is the same too.
    np.testing.assert_array_equal(rng_cells.integers(0, 2**62, 4), rng_fused.integers(0, 2**62, 4))
    # Drawing a shorter prefix draws the same first cards.
    if length:
        shorter = kernel.draw_cells(cell_counts, n_trials, length - 1, np.random.default_rng(8))
        np.testing.assert_array_equal(shorter, cells[:-1])


# --- the block runner -----------------------------------------------------------------------------------------


def test_runner_results_do_not_depend_on_chunks_or_workers():
    task = functools.partial(coin_task, 0.3)
    streams = runner.make_streams(17)
    n = 3 * runner.BLOCK_TRIALS + 7
    runs = [runner.simulate(task, streams, n_trials=n, chunk_size=chunk, n_workers=workers)
            for chunk, workers in [(1, 1), (runner.BLOCK_TRIALS, 1), (10 * runner.BLOCK_TRIALS, 1),
                                   (2 * runner.BLOCK_TRIALS, 2), (10 * runner.BLOCK_TRIALS, 2)]]
    # Block i draws from the i-th child of the root seed, whatever else runs.
    children = streams.root().spawn(4)
    sizes = [runner.BLOCK_TRIALS] * 3 + [7]
    expected = sum(coin_task(0.3, np.random.default_rng(child), size) for child, size in zip(children, sizes))
    for tallies, n_done in runs:
        assert n_done == n
        np.testing.assert_array_equal(tallies, expected)


def test_runner_stops_at_the_first_block_reaching_the_precision():
    task = functools.partial(coin_task, 0.5)
    streams = runner.make_streams(3)
    target = 0.002
    runs = [runner.simulate(task, streams, precision=target, chunk_size=chunk, n_workers=workers)
            for chunk, workers in [(1, 1), (4 * runner.BLOCK_TRIALS, 1), (4 * runner.BLOCK_TRIALS, 2)]]
    tallies, n_done = runs[0]
    for other_tallies, other_n in runs[1:]:
        assert other_n == n_done
        np.testing.assert_array_equal(other_tallies, tallies)
    assert n_done % runner.BLOCK_TRIALS == 0
    blocks = [coin_task(0.5, np.random.default_rng(child), runner.BLOCK_TRIALS)
              for child in streams.root().spawn(n_done // runner.BLOCK_TRIALS)]
    np.testing.assert_array_equal(tallies, sum(blocks))
    # The widest interval reached the target at this block and not one block earlier.
    assert runner.widest_half_width(tallies, n_done) <= target
    fewer = n_done - runner.BLOCK_TRIALS
    assert fewer == 0 or runner.widest_half_width(sum(blocks[:-1]), fewer) > target


def test_make_streams_passes_streams_through_and_refuses_bad_seeds():
    streams = runner.make_streams(5)
    assert runner.make_streams(streams) is streams
    assert runner.make_streams(5) == streams
    assert runner.make_streams(6) != streams
    generator = np.random.default_rng(5)
    first, second = runner.make_streams(generator), runner.make_streams(generator)
    assert first != second
    for bad in (-1, np.int64(-3), True):
        with pytest.raises(DeckstatError) as caught:
            runner.make_streams(bad)
        assert str(caught.value).startswith(f"rng must be a seed from 0, a numpy Generator or None, got {bad!r}")
        assert caught.value.render(FLAGS).startswith("--seed must be a seed from 0")
    with pytest.raises(DeckstatError, match="^rng must be a seed from 0"):
        deckstat.odds(deckstat.load_deck(sample_deck("wankul")), "wankul", "Terrain>=1", method="simulate",
                      n_trials=10, rng=-1)


# --- result tables ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def two_decks():
    return [deckstat.load_deck(sample_deck("wankul")), deckstat.load_deck(sample_deck("wankul", "sample_deck_v2.csv"))]


NAMES = ("sample_deck.csv", "sample_deck_v2.csv")


def check_concat(tables, expected_identity, keys=()):
    """``pd.concat`` of the decks' tables keeps each deck's rows and identity values.

    Identity columns (and the table's own row ``keys``) come first, identity columns in their usual order.
    """
    for table in tables:
        identity = [c for c in table.columns if c in IDENTITY_COLUMNS]
        assert set(table.columns[:len(identity) + len(keys)]) == set(identity) | set(keys)
        assert identity == [c for c in IDENTITY_COLUMNS if c in identity]
    joined = pd.concat(tables, ignore_index=True)
    assert list(joined.columns) == list(tables[0].columns)
    for name, table in zip(NAMES, tables):
        part = joined[joined["deck"] == name].reset_index(drop=True)
        pd.testing.assert_frame_equal(part, table.reset_index(drop=True))
        for column, values in expected_identity(name).items():
            assert part[column].notna().all()
            assert Counter(part[column].tolist()) == Counter(values), (name, column)
    return joined


def test_odds_tables_of_two_decks_concatenate(two_decks):
    events = ["Terrain >= 1", "Terrain>=1 and [cost<=1]>=1"]
    turns = [0, 2]
    # One deck exact, the other simulated: n_trials stays a nullable integer column.
    results = [deckstat.odds(two_decks[0], "wankul", events, turns=turns),
               deckstat.odds(two_decks[1], "wankul", events, turns=turns, method="simulate", n_trials=1000, rng=1)]
    per_deck = 2 * 2 * 2  # events × seats × turns

    def identity(name):
        return {"deck": [name] * per_deck, "game": ["wankul"] * per_deck,
                "event": ["Terrain>=1"] * 4 + ["Terrain>=1 and [cost<=1]>=1"] * 4,
                "seat": (["first"] * 2 + ["second"] * 2) * 2, "turn": turns * 4, "zone": ["seen"] * per_deck}

    joined = check_concat([r.table for r in results], identity)
    assert joined["n_trials"].dtype == "Int64"
    assert joined.loc[joined["deck"] == NAMES[0], "n_trials"].isna().all()
    assert (joined.loc[joined["deck"] == NAMES[1], "n_trials"] == 1000).all()
    summaries = check_concat([r.summary for r in results], lambda name: {
        "deck": [name] * 2, "game": ["wankul"] * 2, "event": ["Terrain>=1", "Terrain>=1 and [cost<=1]>=1"]})
    assert summaries["n_trials"].dtype == "Int64"


def test_when_tables_of_two_decks_concatenate(two_decks):
    results = [deckstat.when(deck, "wankul", "Terrain>=2", max_turn=3) for deck in two_decks]
    check_concat([r.table for r in results], lambda name: {
        "deck": [name] * 8, "game": ["wankul"] * 8, "event": ["Terrain>=2"] * 8,
        "seat": ["first"] * 4 + ["second"] * 4, "turn": [0, 1, 2, 3] * 2})
    check_concat([r.summary for r in results], lambda name: {
        "deck": [name] * 2, "game": ["wankul"] * 2, "event": ["Terrain>=2"] * 2, "seat": ["first", "second"]})


def test_deckout_tables_of_two_decks_concatenate(two_decks):
    results = [deckstat.deckout(deck, "wankul", drought=False) for deck in two_decks]
    sizes = {name: deck.size for name, deck in zip(NAMES, two_decks)}

    def identity(name):
        # Each deck races a copy of itself: 5 cards in hand, both seats draw on turn 1, the failed draw loses.
        return {"deck": [name] * 2, "opponent": [name] * 2, "game": ["wankul"] * 2, "seat": ["first", "second"],
                "turn": [sizes[name] - 5 + 1] * 2}

    check_concat([r.table for r in results], identity)
    check_concat([r.summary for r in results], lambda name: {
        "deck": [name] * 2, "opponent": [name] * 2, "game": ["wankul"] * 2, "seat": ["first", "second"]})


def test_ratio_tables_of_two_decks_concatenate(two_decks):
    results = [deckstat.ratio(deck, "wankul", counts=[10, 11], turns=[0, 3], target=0.9) for deck in two_decks]
    joined = check_concat([r.table for r in results], lambda name: {
        "deck": [name] * 4, "game": ["wankul"] * 4, "event": ["Terrain>=1"] * 4, "seat": ["first"] * 4,
        "turn": [0, 3] * 2, "resource_count": [10, 10, 11, 11]}, keys=("resource_count",))
    assert joined["n_trials"].dtype == "Int64"
    check_concat([r.summary for r in results], lambda name: {
        "deck": [name], "game": ["wankul"], "event": ["Terrain>=1"], "seat": ["first"]})


# --- error messages name Python parameters, or flags on the command line --------------------------------------


def test_marked_parameters_read_as_python_names_or_flags():
    error = DeckstatError(f"{param('n_trials')} must be at least 1; or use {param('method', 'simulate')}, "
                          f"{param('mulligan', False)} or {param('unknown_name')}")
    assert str(error) == ("n_trials must be at least 1; or use method='simulate', mulligan=False or "
                          "unknown_name")
    assert error.render() == str(error)
    assert error.render(FLAGS) == "--trials must be at least 1; or use --simulate, --no-mulligan or unknown_name"
    assert error.args == (str(error),)


def test_rendered_messages_keep_their_place_and_stay_on_one_line():
    error = DeckstatError(f"{param('seat')} must be\none of first, second", source="deck.csv", line=3,
                          column="count")
    assert str(error) == "deck.csv, line 3, column 'count': seat must be one of first, second"
    assert error.render(FLAGS) == "deck.csv, line 3, column 'count': --seat must be one of first, second"
    wrapped = error.prefixed("with 9 Terrain cards: ")
    assert wrapped.render(FLAGS) == ("with 9 Terrain cards: deck.csv, line 3, column 'count': --seat must be one "
                                     "of first, second")
    assert str(wrapped).startswith("with 9 Terrain cards: deck.csv, line 3, column 'count': seat must be")


def test_api_errors_name_parameters_and_the_command_line_names_flags():
    deck = sample_deck("wankul")
    with pytest.raises(DeckstatError) as caught:
        deckstat.odds(deckstat.load_deck(deck), "wankul", "Terrain>=1", method="simulate", n_trials=0)
    assert str(caught.value) == "n_trials must be a whole number of at least 1, got 0"
    assert caught.value.render(FLAGS) == "--trials must be a whole number of at least 1, got 0"
    assert_user_error(run("odds", deck, "--game", "wankul", "-e", "Terrain>=1", "--trials", "0"),
                      "error: --trials must be a whole number of at least 1, got 0")
    with pytest.raises(DeckstatError, match="^keep and mulligan=False contradict each other"):
        deckstat.odds(deckstat.load_deck(deck), "wankul", "Terrain>=1", keep="Terrain>=2", mulligan=False)
    assert_user_error(run("odds", deck, "--game", "wankul", "-e", "Terrain>=1", "--keep", "Terrain>=2",
                          "--no-mulligan"), "error: --keep and --no-mulligan contradict each other")
