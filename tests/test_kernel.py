"""The compiled kernel against literal references: which card each random number draws, London's bottom
choice, and the memory of a block dealt in parts."""

import tracemalloc

import numpy as np
import pytest
from helpers import z_for

import deckstat
from deckstat.engines import kernel, tasks


def literal_cells(cell_counts, n_trials, length, seed):
    """Each trial's cells, drawn one card at a time: the index-th of the remaining cards, ordered by cell."""
    cell_counts = np.asarray(cell_counts)
    indices = kernel.card_indices(np.random.default_rng(seed), int(cell_counts.sum()), length, n_trials)
    out = np.empty((length, n_trials), dtype=np.int64)
    for t in range(n_trials):
        remaining = [c for c, count in enumerate(cell_counts) for _ in range(count)]
        for i in range(length):
            out[i, t] = remaining.pop(int(indices[i, t]))
    return out


DECKS = {
    "two cells": [24, 36],
    "three cells": [3, 5, 2],
    "singletons": [1] * 9,
    # Cell ids past int8, and a deck of 256 cards or more (float uniforms instead of 24-bit integers).
    "200 cells": [1, 2] * 100,
    "300 cards": [150, 1, 149],
}


@pytest.mark.parametrize("name", DECKS)
def test_each_draw_is_the_indexed_remaining_card(name):
    counts = np.array(DECKS[name])
    length = min(int(counts.sum()), 30)
    for n_trials in (1, 300):
        cells = kernel.draw_cells(counts, n_trials, length, np.random.default_rng(5))
        assert cells.dtype == (np.int8 if len(counts) <= 127 else np.int16)
        np.testing.assert_array_equal(cells, literal_cells(counts, n_trials, length, 5))


@pytest.mark.parametrize("name", DECKS)
def test_prefix_counts_are_running_group_counts(name):
    counts = np.array(DECKS[name])
    length = min(int(counts.sum()), 30)
    table = np.random.default_rng(len(counts)).integers(0, 2, (len(counts), 3)).astype(np.int8)
    cells = literal_cells(counts, 300, length, 9)
    expected = np.zeros((3, length + 1, 300), dtype=np.int64)
    expected[:, 1:] = np.cumsum(table[cells], axis=0).transpose(2, 0, 1)
    np.testing.assert_array_equal(kernel.draw_prefix_counts(counts, table, 300, length, np.random.default_rng(9)),
                                  expected)


@pytest.mark.parametrize("rule", ["london", "free"])
@pytest.mark.parametrize("resource", [None, [True, False, False]])
def test_reshuffled_hand_bottoms_what_the_needs_policy_ranks_last(monkeypatch, rule, resource):
    # Small rounds carried through in several pieces.
    monkeypatch.setattr(kernel, "ROUND_CHUNK", 7)
    counts = np.array([6, 9, 5])
    table = np.array([[1, 0], [0, 1], [0, 0]], dtype=np.int8)
    hand_size, limit, max_draws, n_trials = 6, 3, 4, 50
    needs = ((0, 2), (1, 1))
    resource = None if resource is None else np.array(resource)

    def never(counts):
        return np.zeros(counts.shape[1], dtype=bool)

    dealt = kernel.deal(counts, table, n_trials, hand_size=hand_size, set_aside=0, max_draws=max_draws,
                        rng=np.random.default_rng(3), mulligan=rule, mulligan_limit=limit, keep=never, needs=needs,
                        resource=resource, resource_target=0.3)
    # Every hand goes back until the last: replay the rounds' draws from the same generator state.
    replay = np.random.default_rng(3)
    for _ in range(limit + 1):
        cells = kernel.draw_cells(counts, n_trials, hand_size + max_draws, replay)
    n_bottom = limit if rule == "london" else limit - 1
    member = np.column_stack([table[:, 0] == 1, table[:, 1] == 1] + ([resource] if resource is not None else []))
    wanted = [2, 1] + ([round(0.3 * (hand_size - n_bottom))] if resource is not None else [])
    hand = cells[:hand_size]
    ranks = kernel.need_ranks(hand, member, wanted)
    if resource is not None:
        ranks[(ranks == len(wanted)) & resource[hand]] = len(wanted) + 1
    under = kernel.bottom_choice(ranks, n_bottom)
    kept = np.stack([(table[hand, g] * ~under).sum(axis=0) for g in range(2)])
    np.testing.assert_array_equal(dealt["hand"], kept)
    library = np.cumsum(table[cells[hand_size:]], axis=0).transpose(2, 0, 1)
    np.testing.assert_array_equal(dealt["seen"][:, 0], kept)
    np.testing.assert_array_equal(dealt["seen"][:, 1:], kept[:, None, :] + library)
    np.testing.assert_array_equal(dealt["mulligans"], limit)


def many_groups_deck():
    cards = [{"name": f"C{i}", "count": 5, "type": ["Terrain", "Personnage", "Objet", "Lieu"][i % 4], "cost": i % 8}
             for i in range(50)]
    return deckstat.Deck.from_table(cards)


MANY_GROUPS = ("Terrain>=2 and Personnage>=1 and Objet>=1 and Lieu>=1 and [cost<=1]>=2 and [cost>=6]>=1 "
               "and C3>=1 and [cost=4]>=1")


def test_a_block_with_many_groups_and_turns_is_dealt_in_parts_of_bounded_memory(data_dir):
    profile = str(data_dir / "mtg" / "profile.toml")
    deck = many_groups_deck()
    captured = {}
    original = tasks.odds_task

    def spy(spec, *args):
        captured["spec"] = spec
        return original(spec, *args)

    # One block of 131,072 trials, 8 groups, 60 turns, London mulligans: about 1.2 GiB in one piece.
    tracemalloc.start()
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(tasks, "odds_task", spy)
            deckstat.odds(deck, profile, MANY_GROUPS, turns=range(61), seat="first", keep="Terrain>=2",
                          resource="Terrain", method="simulate", n_trials=1 << 17, rng=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    spec = captured["spec"]
    assert len(tasks.part_sizes(1 << 17, spec.bytes_per_trial(("seen",)))) > 4
    assert peak < 1.5 * tasks.PART_BYTES


def test_a_block_dealt_in_parts_agrees_with_the_exact_engine(monkeypatch):
    deck = deckstat.Deck.from_table([{"name": "Terrain", "count": 10, "type": "Terrain"},
                                     {"name": "Petit", "count": 18, "type": "Personnage", "cost": 1},
                                     {"name": "Gros", "count": 22, "type": "Personnage", "cost": 3}])
    event = "Terrain>=1 and [cost<=1]>=2"
    exact = deckstat.odds(deck, "wankul", event, turns=range(8), seat="first", method="exact").table["p"]
    monkeypatch.setattr(tasks, "PART_BYTES", 2**20)
    sizes = []
    original = tasks.part_sizes
    monkeypatch.setattr(tasks, "part_sizes", lambda *args: sizes.append(original(*args)) or sizes[-1])
    n_trials = 200_000
    parted = deckstat.odds(deck, "wankul", event, turns=range(8), seat="first", method="simulate",
                           n_trials=n_trials, rng=4).table["p"]
    assert min(len(parts) for parts in sizes) > 10
    tolerance = z_for(len(exact)) * np.sqrt(exact * (1 - exact) / n_trials)
    assert (np.abs(parted - exact) <= tolerance).all()


def test_a_bottom_mulligan_hand_that_runs_past_a_small_deck_takes_the_bottomed_cards():
    # 1 Terrain and 5 Personnages, keep only five Personnages: a first hand holding the Terrain (5 in 6) goes under
    # the deck and the second hand is the sixth card (a Personnage) and 4 of the 5 bottomed ones, the Terrain
    # among them 4 times in 5. P(Terrain in the kept hand) = 1/6 * 0 + 5/6 * 4/5 = 2/3, as the exact engine says.
    deck = deckstat.Deck.from_table([{"name": "T", "count": 1, "type": "Terrain"},
                                     {"name": "P", "count": 5, "type": "Personnage"}])
    exact = deckstat.odds(deck, "wankul", "Terrain>=1", turns=[0], seat="first", zone="hand",
                          keep="Personnage>=5", method="exact")
    assert float(exact.table["p"].iloc[0]) == pytest.approx(2 / 3)
    n = 40_000
    simulated = deckstat.odds(deck, "wankul", "Terrain>=1", turns=[0], seat="first", zone="hand",
                              keep="Personnage>=5", method="simulate", n_trials=n, rng=20261201)
    p = float(simulated.table["p"].iloc[0])
    assert abs(p - 2 / 3) <= z_for(1) * np.sqrt(2 / 3 * 1 / 3 / n), p
