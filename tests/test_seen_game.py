"""The compiled seen-cards game: the models' games card for card, closed forms, searches and looks played literally."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from helpers import DATA, assert_user_error, ok, run, write, z_for
from scipy.special import comb
from test_effect_odds import random_games
from test_play_discard import WANKUL, deal, random_deck

import deckstat
from deckstat.engines.seen import Program, Seat, SeenGame, play_seen
from deckstat.play.base import effect_positions, schedule
from deckstat.play.discard import DiscardModel
from deckstat.play.engine import Dealing, seen_game

NO_KEEP = (np.zeros(0, dtype=np.int64), np.ones(1, dtype=bool))


def plain_game(counts, table, program, wanted, turns, hand_size=5, keep_member=None, keep=NO_KEEP, limit=0):
    """One player drawing ``wanted`` cards a turn, no Wankul rule."""
    counts = np.asarray(counts, dtype=np.int64)
    member = np.zeros((len(counts), 0), dtype=np.int8) if keep_member is None else keep_member
    wanted = np.vstack([wanted, np.zeros(len(wanted), dtype=np.int64)])
    return SeenGame(Seat(counts, np.zeros(len(counts), dtype=bool), member, limit), None, np.asarray(table), program,
                    wanted, tuple(turns), hand_size, 0, *keep)


def draw_program(draws):
    return Program.of([[("draw", d, None, 0)] if d else [] for d in draws], len(draws))


@pytest.mark.parametrize("seed", range(8))
def test_dealt_wankul_games_are_the_discard_models_card_for_card(seed):
    # The same dealt games through the compiled game and the numpy model: every main phase the same cards drawn,
    # without and with draw effects, one or two players, drought orders, scoring turns, games lost to an empty
    # library included.
    rng = np.random.default_rng([seed, 61])
    deck, rival = random_deck(rng), random_deck(rng)
    n_rows = len(deck.cards)
    draws = rng.integers(0, 3, n_rows) * (rng.random(n_rows) < 0.5)
    settings = {"terrain_turns": int(rng.choice([0, 2, 3])), "drought_order": ("together", "active_first")[seed % 2],
                "players": 1 + (seed % 4 > 0)}
    model = DiscardModel(deck, WANKUL, settings=settings, opponent=rival)
    seat, max_turn, n = ("first", "second")[seed % 3 == 1], 9, 300
    dealt, other = deal(deck, n, seed), deal(rival, n, seed + 900)
    plan = schedule(WANKUL, seat, max_turn, dealt["library"].shape[0])
    opponent = (other["hand"], other["library"]) if model.players == 2 else None
    game = seen_game(model, Dealing.of(deck, 5, 0, None, 0), Dealing.of(rival, 5, 0, None, 0), plan,
                     np.ones((n_rows, 1), dtype=np.int64), range(1, max_turn + 1), draw_program(draws))
    arrays = (dealt["hand"], dealt["library"]) + (opponent or ())
    counts = play_seen(game, np.random.default_rng(seed), n, ways=2, dealt=arrays)[:, :, 0, :] - 5
    for way, effect_draws in enumerate((None, draws)):
        positions = model.seen_positions(dealt["hand"], dealt["library"], plan, opponent=opponent,
                                         effect_draws=effect_draws)
        np.testing.assert_array_equal(counts[way], positions)


@pytest.mark.parametrize("seed", range(4))
def test_dealt_plain_games_draw_as_the_effect_positions(seed):
    rng = np.random.default_rng([seed, 62])
    draws, hand, library = random_games(rng, 6)
    n_rows, n, size = len(draws), hand.shape[1], library.shape[0]
    wanted = np.r_[int(rng.integers(0, 2)), np.ones(9, dtype=np.int64)]
    game = plain_game(np.ones(n_rows), np.ones((n_rows, 1)), draw_program(draws), wanted, range(1, 11))
    counts = play_seen(game, np.random.default_rng(0), n, ways=2, dealt=(hand, library))[1, :, 0, :] - 5
    np.testing.assert_array_equal(counts, effect_positions(hand, library, np.minimum(np.cumsum(wanted), size), draws))


def test_dealing_with_a_bottom_mulligan_against_the_hypergeometric():
    """k Terrains among n cards, 5-card hands, a hand without a Terrain goes under the deck and 5 more come.

    No Terrain is seen by turn t only when the first hand has none and neither have the 5 + t cards after it:
    P = C(n - k, 5) / C(n, 5) * C(n - 5 - k, 5 + t) / C(n - 5, 5 + t) (the first hand lies under the deck,
    drawn only after the rest).
    """
    n, k, h = 30, 6, 5
    keep = (np.array([1], dtype=np.int64), np.array([False, True]))
    game = plain_game([k, n - k], np.array([[1], [0]]), Program.none(2), np.ones(8, dtype=np.int64), range(0, 9),
                      keep_member=np.array([[1], [0]], dtype=np.int8), keep=keep, limit=1)
    trials = 100_000
    seen = play_seen(game, np.random.default_rng(5), trials)[0, :, 0, :]
    z = z_for(9)
    for turn in range(9):
        exact = 1 - comb(n - k, h) / comb(n, h) * comb(n - h - k, h + turn) / comb(n - h, h + turn)
        p = np.mean(seen[turn] >= 1)
        assert abs(p - exact) <= z * math.sqrt(exact * (1 - exact) / trials), turn


def searcher_deck(n_cards: int, terrains: int, effect: str) -> deckstat.Deck:
    return deckstat.Deck.from_table([{"name": "Éclaireur", "count": 1, "effect": effect},
                                     {"name": "Plaine", "count": terrains, "type": "Terrain"},
                                     {"name": "Autre", "count": n_cards - terrains - 1, "type": "Personnage"}])


def test_a_search_gives_the_closed_form():
    """One searcher for a Terrain among n cards, k Terrains, generic rules (5-card hand, one card a turn).

    By turn t >= 1 the turns have drawn m = 5 + t cards. No Terrain is seen only when neither a Terrain nor the
    searcher lies among them (the search always finds one then: all k are left): P(no Terrain) =
    C(n - k - 1, m) / C(n, m), against C(n - k, m) / C(n, m) without it.
    """
    n, k = 30, 3
    result = deckstat.odds(searcher_deck(n, k, "cherche=[type=Terrain]:1"), "generic", "Terrain>=1",
                           turns=range(0, 9), seat="first", rng=7)
    effects = result.effects
    z = z_for(2 * len(effects))
    for row in effects.itertuples(index=False):
        m = 5 + row.turn
        exact = 1 - (comb(n - k - 1, m) if row.turn else comb(n - k, m)) / comb(n, m)
        plain = 1 - comb(n - k, m) / comb(n, m)
        assert abs(row.p - exact) <= z * math.sqrt(exact * (1 - exact) / row.n_trials), row
        assert abs(row.p_without - plain) <= z * math.sqrt(plain * (1 - plain) / row.n_trials), row
        assert row.gain_low - 1e-12 <= row.gain <= row.gain_high + 1e-12


def literal_plain_game(rng: random.Random, deck: list[int], effects: dict, wanted: list[int], hand_size: int,
                       columns: list[set]) -> list[list[int]]:
    """One game card by card: the turns' draws, then every effect card in hand, round by round.

    A round plays the cards that came to hand before it: their draws first, then their searches (random cards of
    the group, the deck shuffled) and looks (the first cards of the group among the top n, the rest under).
    Returns each column's cards in hand or played, by turn 0..len(wanted).
    """
    library = deck[:]
    rng.shuffle(library)
    hand = [library.pop(0) for _ in range(hand_size)]
    pending = [card for card in hand if card in effects]
    out = [[sum(card in column for card in hand) for column in columns]]
    for count in wanted:
        for _ in range(min(count, len(library))):
            card = library.pop(0)
            hand.append(card)
            if card in effects:
                pending.append(card)
        while pending:
            now, pending = pending, []
            total = sum(n for kind, n, _, _ in (e for card in now for e in effects[card]) if kind == "draw")
            for _ in range(min(total, len(library))):
                card = library.pop(0)
                hand.append(card)
                if card in effects:
                    pending.append(card)
            for card in now:
                for kind, n, group, take in effects[card]:
                    if kind == "search":
                        places = [i for i, c in enumerate(library) if c in group]
                        chosen = sorted(rng.sample(places, min(take, len(places))), reverse=True)
                        for i in chosen:
                            found = library.pop(i)
                            hand.append(found)
                            if found in effects:
                                pending.append(found)
                        rng.shuffle(library)
                    elif kind == "look":
                        top, library = library[:n], library[n:]
                        taken = 0
                        for card_seen in top:
                            if taken < take and card_seen in group:
                                hand.append(card_seen)
                                taken += 1
                                if card_seen in effects:
                                    pending.append(card_seen)
                            else:
                                library.append(card_seen)
        out.append([sum(card in column for card in hand) for column in columns])
    return out


@pytest.mark.parametrize("seed", range(3))
def test_searches_looks_and_draws_as_a_literal_game(seed):
    rng = np.random.default_rng([seed, 63])
    n_rows = 6
    counts = rng.integers(1, 5, n_rows)
    groups = [set(np.flatnonzero(rng.random(n_rows) < 0.4).tolist()) or {0} for _ in range(3)]
    kinds = [("draw", 1, None, 0), ("search", 0, groups[0], 1), ("look", 3, groups[1], 1), ("search", 0, groups[2], 2),
             ("look", 4, groups[2], 2)]
    effects = {}
    for row in range(n_rows):
        chosen = [kinds[i] for i in np.flatnonzero(rng.random(len(kinds)) < 0.35)]
        if chosen:
            effects[row] = chosen
    program = Program.of([[(kind, n, None if group is None else np.isin(np.arange(n_rows), list(group)), take)
                           for kind, n, group, take in effects.get(row, [])] for row in range(n_rows)], n_rows)
    columns = [groups[0], groups[1], {int(rng.integers(n_rows))}]
    table = np.array([[row in column for column in columns] for row in range(n_rows)], dtype=np.int64)
    wanted = [1] * 7
    game = plain_game(counts, table, program, np.array(wanted), range(0, 8))
    trials, literal_trials = 100_000, 20_000
    fast = play_seen(game, np.random.default_rng(seed), trials, ways=2)[1]
    deck = np.repeat(np.arange(n_rows), counts).tolist()
    python_rng = random.Random(seed)
    slow = np.array([literal_plain_game(python_rng, deck, effects, wanted, 5, columns) for _ in range(literal_trials)])
    # Per turn and column: P(at least one card of the column in hand), both simulations, a two-sample z test.
    z = z_for(8 * len(columns))
    for turn in range(8):
        for c in range(len(columns)):
            p_fast, p_slow = np.mean(fast[turn, c] >= 1), np.mean(slow[:, turn, c] >= 1)
            pooled = (p_fast * trials + p_slow * literal_trials) / (trials + literal_trials)
            se = math.sqrt(pooled * (1 - pooled) * (1 / trials + 1 / literal_trials))
            assert abs(p_fast - p_slow) <= z * se + 1e-12, (turn, c, p_fast, p_slow)


def test_a_game_does_not_depend_on_how_many_are_played():
    # Each game draws from its own stream (the block's seed and its number): the first games of a longer block
    # are those of a shorter one from the same seed.
    program = Program.of([[("search", 0, np.array([False, True, False]), 1)], [], [("draw", 2, None, 0)]], 3)
    game = plain_game([4, 10, 16], np.eye(3, dtype=np.int64), program, np.ones(6, dtype=np.int64), range(0, 7))
    longer = play_seen(game, np.random.default_rng(9), 1000, ways=2)
    shorter = play_seen(game, np.random.default_rng(9), 300, ways=2)
    np.testing.assert_array_equal(longer[..., :300], shorter)
    assert not np.array_equal(longer[..., :300], longer[..., 300:600])


def test_a_wankul_deck_with_a_search_in_the_command_line(tmp_path):
    # Two players, drought draws and a search for a Terrain: the line says the effects are played; a search for a
    # card the deck lacks is a one-line error naming the card and the closest name, in both languages.
    rows = ["nom,quantité,type,coût,effet", "Plaine,8,Terrain,,", "Robot Camembert,3,Personnage,2,",
            "Éclaireur,4,Personnage,1,cherche=[type=Terrain]:1", "Autre,25,Personnage,1,"]
    path = write(tmp_path, "\n".join(rows) + "\n")
    english = ok(run("odds", path, "-g", "wankul", "--event", "Terrain>=1", "--turns", "0-2", "--seat", "first"))
    assert "with the effects played" in english and "drought draws" in english
    french = ok(run("odds", path, "-g", "wankul", "--event", "Terrain>=1", "--turns", "0-2", "--lang", "fr"))
    assert "avec les effets joués" in french
    bad = write(tmp_path, "\n".join(rows[:3] + ['Éclaireur,4,Personnage,1,"cherche=""Robot Camembrt"""', rows[4]])
                + "\n", name="bad.csv")
    message = assert_user_error(run("odds", bad, "-g", "wankul", "--event", "Terrain>=1", "--turns", "2"),
                                "Éclaireur", "Robot Camembert")
    assert "matches no card of this deck" in message
    assert_user_error(run("odds", bad, "-g", "wankul", "--event", "Terrain>=1", "--lang", "fr"),
                      "ne correspond à aucune carte de ce deck", "Robot Camembert")
    # An attribute the deck lacks: the file, the card and the effect say where.
    unknown = write(tmp_path, "\n".join(rows[:3] + ['Éclaireur,4,Personnage,1,"cherche=[rareté=rare]:1"', rows[4]])
                    + "\n", name="unknown.csv")
    assert_user_error(run("odds", unknown, "-g", "wankul", "--event", "Terrain>=1"), "unknown.csv", "Éclaireur",
                      "unknown attribute 'rareté'")


def test_a_keep_rule_too_wide_to_table_is_refused_when_the_question_is_planned():
    deck = searcher_deck(40, 8, "cherche=[type=Terrain]:1")
    # Twelve groups counted up to 5 each: 6**12 hands to table.
    keep = " or ".join(f'"Autre {i}">=5' for i in range(12))
    with pytest.raises(deckstat.DeckstatError, match="too many groups"):
        deckstat.odds(deck, "wankul", "Terrain>=1", turns=[2], keep=keep, allow_absent=True)


def test_the_jdg_search_sample_gives_the_closed_form():
    # Two of its 30 cards search for one of its 4 TERRAIN: none is seen by turn t only when neither a TERRAIN nor
    # a searcher lies among the m = 5 + t cards seen (first seat, one card a turn from turn 1).
    result = deckstat.odds(deckstat.load_deck(DATA / "jdg" / "effects_deck.csv"), "jdg", "TERRAIN>=1",
                           turns=range(1, 6), seat="first", rng=3)
    z = z_for(len(result.effects))
    for row in result.effects.itertuples(index=False):
        m = 5 + row.turn
        exact = 1 - comb(30 - 4 - 2, m) / comb(30, m)
        assert abs(row.p - exact) <= z * math.sqrt(exact * (1 - exact) / row.n_trials), row


def test_the_drought_side_dealt_by_the_kernel_agrees_with_whole_decks_shuffled(monkeypatch):
    # The drought side's games are dealt by the kernel's draws, as every simulated answer is; whole decks were
    # shuffled by numpy before (rng.permuted), from other random numbers. Each turn's number agrees with that
    # way's within their combined standard errors (both at 40,000 games, different seeds of the same deck).
    from deckstat.engines.kernel import arrange

    def shuffled(self, rng, n_trials):
        cards = np.repeat(np.arange(len(self.counts), dtype=np.int16), np.asarray(self.counts, dtype=np.int64))
        cells = np.ascontiguousarray(rng.permuted(np.broadcast_to(cards, (n_trials, len(cards))), axis=1).T)
        dealt = arrange(cells, self.counts, self.keep_table, hand_size=self.hand_size, set_aside=self.set_aside,
                        limit=self.limit, keep=self.keep)
        return dealt["hand"], dealt["library"]

    deck = deckstat.load_deck(DATA / "wankul" / "sample_deck.csv")
    turns = range(0, 8)
    dealt = deckstat.odds(deck, "wankul", "Terrain>=2", turns=turns, seat="both", rng=11).droughts
    monkeypatch.setattr(Dealing, "deal", shuffled)
    whole = deckstat.odds(deck, "wankul", "Terrain>=2", turns=turns, seat="both", rng=12).droughts
    p, q = dealt["p"].to_numpy(), whole["p"].to_numpy()
    n, m = dealt["n_trials"].to_numpy(), whole["n_trials"].to_numpy()
    se = np.sqrt(p * (1 - p) / n + q * (1 - q) / m)
    assert (np.abs(p - q) <= z_for(len(p)) * se).all(), (p, q)
