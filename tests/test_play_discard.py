"""The Wankul discard play model: forced Terrains, scored Terrains, drought draws, discard costs, policies."""

import math

import numpy as np
import pandas as pd
import pytest
from helpers import SHARED_CARDDATA, sample_deck
from scipy.special import comb

import deckstat
from deckstat.deck import Deck
from deckstat.engines.kernel import deal_order
from deckstat.errors import DeckstatError
from deckstat.games.profiles import get_profile
from deckstat.play.base import schedule
from deckstat.play.discard import DiscardModel

WANKUL = get_profile("wankul")
T = 8

# A small deck for games dealt by hand; rows are the card numbers below.
TABLE = [
    {"name": "Terrain A", "count": 3, "type": "Terrain", "cost": None},
    {"name": "Terrain B", "count": 3, "type": "Terrain", "cost": None},
    {"name": "Gratuit", "count": 3, "type": "Personnage", "cost": 0},
    {"name": "Petit", "count": 3, "type": "Personnage", "cost": 1},
    {"name": "Moyen", "count": 3, "type": "Personnage", "cost": 2},
    {"name": "Cible", "count": 3, "type": "Personnage", "cost": 0},
    {"name": "Géant", "count": 3, "type": "Personnage", "cost": 5},
]
TA, TB, P0, P1, P2, Z, G = range(7)


def small_deck():
    return Deck.from_table(TABLE).with_synonyms(WANKUL.synonyms)


def model(deck=None, policy="hold", **settings):
    deck = deck if deck is not None else small_deck()
    defaults = {"terrain_turns": 2, "play_after_drought": True, "players": 1}
    return DiscardModel(deck, WANKUL, policy=policy, settings={**defaults, **settings})


def one_game(m, hand, library, target, seat="first", max_turn=T):
    """First playable turn of ``target`` (rows) in one game dealt by hand."""
    hand = np.array(hand, dtype=np.int8)[:, None]
    library = np.array(library, dtype=np.int8).reshape(-1, 1)
    mask = np.isin(np.arange(m.n_rows), target)
    return int(m.first_turns(hand, library, schedule(WANKUL, seat, max_turn, len(library)), [mask])[0, 0])


FILLER = [P1] * 20


# --- games worked out by hand -------------------------------------------------------------------------


def test_cost_counts_the_other_cards_of_the_hand_only():
    # Terrains stay in play. Turn 1: 5 cards + 1 draw - the forced Terrain = Géant and 4 others (cost 5: no);
    # turn 2: 5 others.
    m = model(terrain_turns=0)
    assert one_game(m, [TA, G, P0, P0, P0], FILLER, [G]) == 2


def test_a_personnage_needs_a_terrain_in_play():
    # Cost 0 in hand from the start, but no Terrain until the drought of turn 1 finds one at the 3rd draw.
    m = model(terrain_turns=0)
    assert one_game(m, [Z, P1, P1, P1, P1], [P1, P1, TA] + FILLER, [Z]) == 1
    # The deck runs out before a Terrain comes: the game is lost, nothing is ever playable.
    assert one_game(m, [Z, P1, P1, P1, P1], [P1, P1, P1], [Z]) == T + 1


def test_drought_draws_join_the_hand_and_play_may_follow():
    # Terrain A is gone at turn 2 (terrain_turns = 2); turn 2 draws Cible, then the drought draws Petit, Petit,
    # Terrain B: Terrain B is forced and Cible (cost 0) played in the same turn.
    game = ([TA, P1, P1, P1, P1], [P1, Z, P1, P1, TB, TA] + FILLER)
    assert one_game(model(), *game, [Z]) == 2
    # Not when the turn of a drought allows no other play: turn 3 (Terrain B gone, Terrain A drawn and forced).
    assert one_game(model(play_after_drought=False), *game, [Z]) == 3
    # Terrains in play for ever: no drought, Cible is played when drawn.
    assert one_game(model(terrain_turns=0), *game, [Z]) == 2


def test_drought_cards_count_for_costs():
    # Turn 2: Terrain A is gone, no Terrain in hand: the drought draws 3 Personnages and Terrain B, so the hand
    # holds Géant and 5 other cards (after Terrain B is forced).
    game = ([TA, G, P1, P1, P1], [P1, P1, P1, P1, P1, TB] + FILLER)
    assert one_game(model(), *game, [G]) == 2
    # Terrains in play for ever: turn 2 holds Géant and 5 others as well (no drought, one draw).
    assert one_game(model(terrain_turns=0), [TA, G, P1, P1, P1], FILLER, [G]) == 2
    # ... but 4 on turn 1.
    assert one_game(model(terrain_turns=0), [TA, G, P1, P1, P1], FILLER, [G], max_turn=1) == 2


def test_terrain_leaving_play_and_terrain_turns():
    # Cible drawn on turn 3; the Terrains come at library positions 1, 5 and 6.
    game = ([TA, P1, P1, P1, P1], [P1, TB, Z, P1, P1, TA, TB] + FILLER)
    # terrain_turns = 2: Terrain A leaves at turn 2, Terrain B (drawn turn 2) is forced then and leaves at turn 3;
    # turn 3 draws Cible, and the drought draws Petit, Petit, Terrain A: Cible is played on turn 3, or, with no
    # play in a drought's turn, on turn 4 (Terrain A gone, Terrain B drawn and forced).
    assert one_game(model(play_after_drought=False), *game, [Z]) == 4
    assert one_game(model(), *game, [Z]) == 3
    # terrain_turns = 4: Terrain B, played on turn 2, is still in play on turn 3.
    assert one_game(model(terrain_turns=4, play_after_drought=False), *game, [Z]) == 3
    # terrain_turns = 3 is 2 of the player's turns as well (scored during the opponent's second turn).
    assert one_game(model(terrain_turns=3, play_after_drought=False), *game, [Z]) == 3


def test_a_drought_that_runs_the_library_out_loses():
    # Turn 2: Terrain A gone, no Terrain anywhere: the drawn Cible never gets a Terrain.
    assert one_game(model(), [TA, P1, P1, P1, P1], [P1, Z, P1], [Z]) == T + 1
    # The normal draw failing loses too: 2 library cards, turn 3 cannot draw.
    assert one_game(model(terrain_turns=0), [TA, P1, P1, P1, P1], [P1, P1], [Z]) == T + 1
    assert one_game(model(terrain_turns=0), [TA, P1, P1, P1, P1], [P1, Z], [Z]) == 2


def test_terrain_targets_are_playable_from_hand():
    # The forced Terrain is the target itself.
    assert one_game(model(), [TB, P1, P1, P1, P1], FILLER, [TB]) == 1
    # A Terrain in play already: the target Terrain in hand is still playable (free).
    assert one_game(model(terrain_turns=0), [TA, P1, P1, P1, P1], [P1, TB] + FILLER, [TB]) == 2
    # The drought's Terrain is the target: played even when the drought's turn allows no other play.
    assert one_game(model(play_after_drought=False), [Z, P1, P1, P1, P1], [P1, P1, TB] + FILLER, [TB]) == 1


def test_group_target_is_playable_when_any_card_is():
    hand = [TA, G, P2, P1, P1]
    assert one_game(model(terrain_turns=0), hand, FILLER, [G]) == 2
    assert one_game(model(terrain_turns=0), hand, FILLER, [G, P2]) == 1


def test_second_seat_draws_on_turn_one_too():
    # Wankul: both seats draw on turn 1; Cible is the first library card.
    for seat in ("first", "second"):
        assert one_game(model(terrain_turns=0), [TA, P1, P1, P1, P1], [Z] + FILLER, [Z], seat=seat) == 1


def test_curve_spends_cards_the_target_needs():
    # Hold: Géant (cost 5) on turn 2. Curve: turn 1 plays Petit (discarding the other Petit), then Gratuit twice;
    # the hand never holds 5 other cards again: each Petit drawn is paid with the next.
    game = ([TA, G, P0, P0, P1], FILLER)
    assert one_game(model(terrain_turns=0), *game, [G]) == 2
    assert one_game(model(policy="curve", terrain_turns=0), *game, [G]) == T + 1


def test_curve_plays_the_most_expensive_affordable_first():
    # Turn 1 after Terrain A: Moyen, Petit, Petit, Petit, Géant(target). Fodder for Moyen: 3 others; it is played,
    # paid with two Petit; then Petit costs 1 with no other non-target card: not played. Hand: Géant, Petit.
    # Turns 2..5 draw Petit: hold would reach 5 others on turn 2, curve pays Petit with Petit each turn.
    game = ([TA, P2, P1, P1, G], [P1] * 20)
    assert one_game(model(policy="curve", terrain_turns=0), *game, [G]) == T + 1
    # Free Personnages are always played: with only Gratuit drawn, the hand never grows past Géant.
    assert one_game(model(policy="curve", terrain_turns=0), [TA, G, Z, Z, Z], [P0] * 20, [G]) == T + 1
    # The target's own copies and target Terrains are never spent: Cible (cost 0, target) is kept and played.
    assert one_game(model(policy="curve", terrain_turns=0), [TA, P1, P1, P1, P1], [Z] + FILLER, [Z]) == 1


def test_curve_keeps_a_terrain_when_terrains_are_scored():
    # Turn 1 after Terrain A: Terrain B, Moyen, Petit, Petit, Petit. Moyen is played, paid with two Petit;
    # Petit is not: its only fodder would be Terrain B, kept for turn 2 (Terrain A is scored).
    # Turn 2 draws Cible, Terrain B is forced, Cible played. Spending Terrain B would cause a drought on turn 2
    # and, with no play in a drought's turn, Cible on turn 3.
    game = ([TA, TB, P2, P1, P1], [P1, Z, TA] + FILLER)
    assert one_game(model(policy="curve", play_after_drought=False), *game, [Z]) == 2
    # Terrains in play for ever: nothing to keep, Terrain B pays for Petit; Terrain A stays, Cible on turn 2.
    assert one_game(model(policy="curve", terrain_turns=0, play_after_drought=False), *game, [Z]) == 2


# --- an independent per-game simulator --------------------------------------------------------------


def slow_first_turn(hand, library, wanted, deck_info, target, policy, terrain_turns, play_after_drought):
    """One game followed card by card, as docs/play/wankul.md describes it."""
    is_terrain, _ = deck_info
    hand, library = list(hand), list(library)
    life = -(-terrain_turns // 2) if terrain_turns else None
    gone = 0
    next_card = 0
    for turn in range(1, len(wanted) + 1):
        in_play = life is None and gone > 0 or gone > turn
        for _ in range(wanted[turn - 1]):
            if next_card == len(library):
                return len(wanted) + 1
            hand.append(library[next_card])
            next_card += 1
        drought = not in_play and not any(is_terrain[c] for c in hand)
        while drought and not any(is_terrain[c] for c in hand):
            if next_card == len(library):
                return len(wanted) + 1
            hand.append(library[next_card])
            next_card += 1
        if not in_play:
            terrains = [c for c in hand if is_terrain[c]]
            others = [c for c in terrains if not target[c]]
            forced = (others or terrains)[0]
            hand.remove(forced)
            in_play, gone = True, turn + (life or 0)
            if target[forced]:
                return turn
        if drought and not play_after_drought:
            continue
        # Alone, the player reaches its main phase with a Terrain in play (or has lost).
        if main_phase(hand, deck_info, target, policy, True, terrain_turns):
            return turn
    return len(wanted) + 1


def deal(deck, n, seed, limit=1):
    terrain = deck.mask("Terrain")
    return deal_order(deck.counts, terrain.astype(np.int8)[:, None], n, np.random.default_rng(seed),
                      hand_size=WANKUL.hand_size, set_aside=0, limit=limit,
                      keep=(lambda c: c[0] >= 1) if limit else None)


def compare_with_slow(deck, targets, seat, n, seed, max_turn=T, **options):
    m = DiscardModel(deck, WANKUL, policy=options.pop("policy", "hold"), settings={"players": 1, **options})
    dealt = deal(deck, n, seed)
    size = dealt["library"].shape[0]
    fast = m.first_turns(dealt["hand"], dealt["library"], schedule(WANKUL, seat, max_turn, size), targets)
    wanted = [WANKUL.draws_by_turn(t, seat) - WANKUL.draws_by_turn(t - 1, seat) for t in range(1, max_turn + 1)]
    info = (m.terrain, m.cost)
    for k, target in enumerate(targets):
        slow = [slow_first_turn(dealt["hand"][:, i], dealt["library"][:, i], wanted, info, target,
                                m.policy, options["terrain_turns"], options["play_after_drought"])
                for i in range(n)]
        np.testing.assert_array_equal(fast[k], slow)
    return fast


@pytest.mark.parametrize("policy", ["hold", "curve"])
@pytest.mark.parametrize("terrain_turns", [0, 2, 3])
@pytest.mark.parametrize("after", [True, False])
def test_same_first_turns_as_a_card_by_card_simulator_on_the_sample_deck(policy, terrain_turns, after):
    deck = deckstat.load_deck(sample_deck("wankul")).with_synonyms(WANKUL.synonyms)
    targets = [deck.mask('"Dragon de la Boulangerie"'), deck.mask("[cost>=2]"), deck.mask('"Le Grenier Hanté"'),
               deck.mask("[cost=0]") | deck.mask('"Plage de Galets"')]
    fast = compare_with_slow(deck, targets, "second", 400, 11, policy=policy, terrain_turns=terrain_turns,
                             play_after_drought=after)
    assert (fast <= T).any() and (fast > 1).any()


@pytest.mark.parametrize("policy", ["hold", "curve"])
def test_same_first_turns_on_a_small_deck_that_runs_out(policy):
    # 12 cards, 2 Terrains: droughts empty the library often within 8 turns.
    table = [{"name": "Terrain A", "count": 2, "type": "Terrain"},
             {"name": "Petit", "count": 4, "type": "Personnage", "cost": 1},
             {"name": "Gratuit", "count": 3, "type": "Personnage", "cost": 0},
             {"name": "Moyen", "count": 2, "type": "Personnage", "cost": 2},
             {"name": "Géant", "count": 1, "type": "Personnage", "cost": 5}]
    deck = Deck.from_table(table)
    targets = [deck.mask('"Géant"'), deck.mask('"Moyen"'), deck.mask("Terrain")]
    fast = compare_with_slow(deck, targets, "first", 600, 5, policy=policy, terrain_turns=2,
                             play_after_drought=True)
    assert (fast == T + 1).any()


def random_deck(rng, readable=True):
    """A random deck of 14 to 40 cards: 1 to 3 Terrains, Personnages of costs 0 to 4, maybe one without a cost."""
    rows = [{"name": f"Terrain {i}", "count": int(rng.integers(1, 5)), "type": "Terrain"}
            for i in range(rng.integers(1, 4))]
    rows += [{"name": f"Perso {i}", "count": int(rng.integers(1, 5)), "type": "Personnage",
              "cost": int(rng.integers(0, 5))} for i in range(rng.integers(2, 8))]
    if not readable:
        rows.append({"name": "Sans Coût", "count": int(rng.integers(1, 4)), "type": "Personnage", "cost": None})
    while sum(r["count"] for r in rows) < 14:
        rows[-1]["count"] += 1
    return Deck.from_table(rows)


def costed_targets(deck):
    """The rows that can be played (Terrains, and Personnages with a cost), and each of them alone as a target."""
    costed = ~np.isnan(deck.cards["cost"].to_numpy(dtype=float)) | deck.mask("Terrain")
    return costed, [np.arange(len(deck.cards)) == row for row in np.flatnonzero(costed)]


@pytest.mark.parametrize("seed", range(12))
def test_same_first_turns_on_random_decks_and_settings(seed):
    rng = np.random.default_rng([seed, 4])
    policy = ("hold", "curve")[seed % 2]
    deck = random_deck(rng, readable=policy == "curve" or seed % 4 == 0)
    n_rows = len(deck.cards)
    # Each card alone, and groups mixing Terrains and Personnages.
    costed, targets = costed_targets(deck)
    targets += [costed & (rng.random(n_rows) < 0.4) for _ in range(3)]
    targets = [t for t in targets if t.any()]
    compare_with_slow(deck, targets, ("first", "second")[seed % 3 == 0], 150, seed, max_turn=int(rng.integers(3, 11)),
                      policy=policy, terrain_turns=int(rng.choice([0, 2, 3, 4])),
                      play_after_drought=bool(rng.integers(2)))


@pytest.mark.parametrize("policy", ["hold", "curve"])
def test_same_first_turns_on_a_deck_of_more_than_127_cards(policy):
    # A library of 170 cards: positions past what 8-bit integers hold.
    deck = Deck.from_table([{**row, "count": 25} for row in TABLE])
    targets = [deck.mask('"Géant"'), deck.mask('"Cible"') | deck.mask('"Terrain B"'), deck.mask("Terrain")]
    compare_with_slow(deck, targets, "first", 200, 9, policy=policy, terrain_turns=2, play_after_drought=True)


# --- two players: a literal simulator of both players' turns ----------------------------------------------------


def slow_two_player(player, rival, seat, wanted, info, rival_terrain, target, policy, terrain_turns,
                    play_after_drought, order, seen=None, effect_draws=None):
    """One game of two players followed card by card and turn by turn, as the rules text tells it.

    ``player`` and ``rival`` are (hand, library) as lists of their decks' rows; ``wanted[side][t - 1]`` the cards
    side 0 (the player) or 1 draws at its turn t. A Terrain played at time 2t + seat leaves at that time plus
    ``terrain_turns`` (never with 0). ``seen``, a list: the player's library cards drawn by each of its main
    phases are appended to it (the game played to the end when no card is the target). ``effect_draws``: the
    cards each row draws when played; in each main phase with a Terrain in play the player plays every card it
    has seen and not played yet, one at a time, in the order seen.
    """
    is_terrain, cost = info
    hands = [list(player[0]), list(rival[0])]
    libraries = [list(player[1]), list(rival[1])]
    terrain_of = [lambda c: bool(is_terrain[c]), lambda c: bool(rival_terrain[c])]
    leaves = None  # the time the Terrain in play leaves; None: no Terrain in play
    me = 0 if seat == "first" else 1
    last = len(wanted[0])

    def holds_terrain(side):
        return any(terrain_of[side](c) for c in hands[side])

    seen_rows, played = list(player[0]), 0

    def draw(side):
        if not libraries[side]:
            return False
        hands[side].append(libraries[side].pop(0))
        if side == 0:
            seen_rows.append(hands[0][-1])
        return True

    for turn in range(1, last + 1):
        for seat_playing in (0, 1):
            side = 0 if seat_playing == me else 1
            if side == 1 and seat_playing > me and turn == last:
                break
            time = 2 * turn + seat_playing
            if leaves is not None and leaves <= time:
                leaves = None
            for _ in range(wanted[side][turn - 1]):
                if not draw(side):
                    return last + 1
            forced = None
            drought = False
            if leaves is None and not holds_terrain(0) and not holds_terrain(1):
                drought = True
                while not (holds_terrain(0) or holds_terrain(1)):
                    if order == "together":
                        if not libraries[0] or not libraries[1]:
                            return last + 1
                        draw(0)
                        draw(1)
                    else:
                        if not draw(side):
                            return last + 1
                        if holds_terrain(side):
                            break
                        if not draw(1 - side):
                            return last + 1
            if leaves is None and holds_terrain(side):
                terrains = [c for c in hands[side] if terrain_of[side](c)]
                if side == 0:
                    others = [c for c in terrains if not target[c]]
                    forced = (others or terrains)[0]
                else:
                    forced = terrains[0]
                hands[side].remove(forced)
                leaves = time + terrain_turns if terrain_turns else math.inf
            if side == 1:
                continue
            if effect_draws is not None and leaves is not None:
                while played < len(seen_rows):
                    played += 1
                    for _ in range(int(effect_draws[seen_rows[played - 1]])):
                        if not draw(0):
                            return last + 1
            if seen is not None:
                seen.append(len(player[1]) - len(libraries[0]))
            if forced is not None and target[forced]:
                return turn
            if drought and not play_after_drought:
                continue
            if main_phase(hands[0], info, target, policy, leaves is not None, terrain_turns):
                return turn
    return last + 1


def main_phase(hand, info, target, policy, in_play, terrain_turns):
    """Whether the target can be played from ``hand``; if not, the ``curve`` player's plays (``hand`` in place)."""
    is_terrain, cost = info
    if any(target[c] and is_terrain[c] for c in hand):
        return True
    if in_play and any(target[c] and not is_terrain[c] and cost[c] <= len(hand) - 1 for c in hand):
        return True
    if policy == "curve" and in_play:
        keep = 1 if terrain_turns else 0
        while True:
            spare = [c for c in hand if not is_terrain[c] and not target[c]]
            spare_terrains = [c for c in hand if is_terrain[c] and not target[c]]
            budget = len(spare) - 1 + max(0, len(spare_terrains) - keep)
            playable = [c for c in spare if not math.isnan(cost[c]) and cost[c] <= budget]
            if not playable:
                break
            card = max(playable, key=lambda c: cost[c])
            hand.remove(card)
            spare.remove(card)
            # Discards: the most expensive non-target Personnages first (unreadable costs before all).
            spare.sort(key=lambda c: -math.inf if math.isnan(cost[c]) else -cost[c])
            for _ in range(int(cost[card])):
                victim = spare.pop(0) if spare else spare_terrains.pop(0)
                hand.remove(victim)
    return False


def compare_two_players(deck, rival_deck, targets, seat, n, seed, max_turn=T, effect_draws=None, **options):
    settings = {"terrain_turns": 2, "play_after_drought": True, "drought_order": "together", **options}
    policy = settings.pop("policy", "hold")
    m = DiscardModel(deck, WANKUL, policy=policy, settings={**settings, "players": 2}, opponent=rival_deck)
    dealt, rival = deal(deck, n, seed), deal(rival_deck, n, seed + 1000)
    size = dealt["library"].shape[0]
    fast = m.first_turns(dealt["hand"], dealt["library"], schedule(WANKUL, seat, max_turn, size), targets,
                         opponent=(rival["hand"], rival["library"]), effect_draws=effect_draws)
    other = "second" if seat == "first" else "first"
    wanted = [[WANKUL.draws_by_turn(t, s) - WANKUL.draws_by_turn(t - 1, s) for t in range(1, max_turn + 1)]
              for s in (seat, other)]
    for k, target in enumerate(targets):
        slow = [slow_two_player((dealt["hand"][:, i], dealt["library"][:, i]),
                                (rival["hand"][:, i], rival["library"][:, i]), seat, wanted, (m.terrain, m.cost),
                                m.rival_terrain, target, policy, settings["terrain_turns"],
                                settings["play_after_drought"], settings["drought_order"], effect_draws=effect_draws)
                for i in range(n)]
        np.testing.assert_array_equal(fast[k], slow)
    return fast


@pytest.mark.parametrize("policy", ["hold", "curve"])
@pytest.mark.parametrize("seat", ["first", "second"])
@pytest.mark.parametrize("order", ["together", "active_first"])
def test_two_players_as_a_literal_simulator_on_the_sample_deck(policy, seat, order):
    deck = deckstat.load_deck(sample_deck("wankul")).with_synonyms(WANKUL.synonyms)
    targets = [deck.mask('"Robot Camembert"'), deck.mask("[cost>=2]"), deck.mask('"Le Grenier Hanté"')]
    fast = compare_two_players(deck, deck, targets, seat, 300, 21, policy=policy, drought_order=order)
    assert (fast <= T).any() and (fast > 1).any()


@pytest.mark.parametrize("seed", range(10))
def test_two_players_as_a_literal_simulator_on_random_decks(seed):
    rng = np.random.default_rng([seed, 26])
    policy = ("hold", "curve")[seed % 2]
    deck, rival = random_deck(rng, readable=policy == "curve"), random_deck(rng)
    n_rows = len(deck.cards)
    costed, targets = costed_targets(deck)
    targets += [costed & (rng.random(n_rows) < 0.4) for _ in range(2)]
    compare_two_players(deck, rival, [t for t in targets if t.any()], ("first", "second")[seed % 3 == 0], 120, seed,
                        max_turn=int(rng.integers(3, 11)), policy=policy, terrain_turns=int(rng.choice([0, 2, 3])),
                        play_after_drought=bool(rng.integers(2)),
                        drought_order=("together", "active_first")[seed % 4 == 1])


@pytest.mark.parametrize("seed", range(6))
def test_cards_seen_with_draw_effects_are_those_of_a_literal_two_player_game(seed):
    rng = np.random.default_rng([seed, 43])
    deck, rival = random_deck(rng), random_deck(rng)
    draws = rng.integers(0, 3, len(deck.cards)) * (rng.random(len(deck.cards)) < 0.5)
    settings = {"terrain_turns": int(rng.choice([0, 2, 3])), "drought_order": ("together", "active_first")[seed % 2],
                "players": 2}
    m = DiscardModel(deck, WANKUL, settings=settings, opponent=rival)
    seat, max_turn, n = ("first", "second")[seed % 3 == 1], 8, 150
    dealt, other = deal(deck, n, seed), deal(rival, n, seed + 900)
    plan = schedule(WANKUL, seat, max_turn, dealt["library"].shape[0])
    opponent = (other["hand"], other["library"])
    positions = m.seen_positions(dealt["hand"], dealt["library"], plan, opponent=opponent, effect_draws=draws)
    plain = m.seen_positions(dealt["hand"], dealt["library"], plan, opponent=opponent)
    wanted = [[WANKUL.draws_by_turn(t, s) - WANKUL.draws_by_turn(t - 1, s) for t in range(1, max_turn + 1)]
              for s in (seat, "second" if seat == "first" else "first")]
    nothing = np.zeros(len(deck.cards), dtype=bool)
    for i in range(n):
        seen = []
        slow_two_player((dealt["hand"][:, i], dealt["library"][:, i]), (other["hand"][:, i], other["library"][:, i]),
                        seat, wanted, (m.terrain, m.cost), m.rival_terrain, nothing, "hold",
                        settings["terrain_turns"], True, settings["drought_order"], seen=seen, effect_draws=draws)
        # A game that ends early (a draw from an empty library) is compared up to its last main phase.
        assert positions[:len(seen), i].tolist() == seen, i
    assert (positions > plain).any() == bool((draws[dealt["library"]] > 0).any() | (draws[dealt["hand"]] > 0).any())


@pytest.mark.parametrize("seed", range(6))
def test_cards_seen_are_those_of_a_literal_two_player_game(seed):
    # The player's library cards drawn by each main phase, droughts on both players' turns included.
    rng = np.random.default_rng([seed, 41])
    deck, rival = random_deck(rng), random_deck(rng)
    settings = {"terrain_turns": int(rng.choice([0, 2, 3])), "drought_order": ("together", "active_first")[seed % 2],
                "players": 2}
    m = DiscardModel(deck, WANKUL, settings=settings, opponent=rival)
    seat, max_turn, n = ("first", "second")[seed % 3 == 1], 9, 150
    dealt, other = deal(deck, n, seed), deal(rival, n, seed + 500)
    positions = m.seen_positions(dealt["hand"], dealt["library"],
                                 schedule(WANKUL, seat, max_turn, dealt["library"].shape[0]),
                                 opponent=(other["hand"], other["library"]))
    wanted = [[WANKUL.draws_by_turn(t, s) - WANKUL.draws_by_turn(t - 1, s) for t in range(1, max_turn + 1)]
              for s in (seat, "second" if seat == "first" else "first")]
    nothing = np.zeros(len(deck.cards), dtype=bool)
    ended = 0
    for i in range(n):
        seen = []
        slow_two_player((dealt["hand"][:, i], dealt["library"][:, i]), (other["hand"][:, i], other["library"][:, i]),
                        seat, wanted, (m.terrain, m.cost), m.rival_terrain, nothing, "hold",
                        settings["terrain_turns"], True, settings["drought_order"], seen=seen)
        # A game that ends early is compared up to its last main phase.
        assert positions[:len(seen), i].tolist() == seen, i
        ended += len(seen) < max_turn
    if settings["terrain_turns"]:
        assert positions.max() > max_turn  # droughts drew cards beyond one a turn


@pytest.mark.parametrize("seed", range(8))
def test_playable_never_comes_before_seen(seed):
    # Property: on every game, the first turn a target is playable is no earlier than the first turn one of its
    # cards has been seen (kept hand and every card drawn, drought draws included), for the hold player, whose
    # draws odds' drought side counts.
    rng = np.random.default_rng([seed, 42])
    deck = random_deck(rng)
    settings = {"terrain_turns": int(rng.choice([0, 2, 3, 4])), "play_after_drought": bool(rng.integers(2)),
                "drought_order": ("together", "active_first")[int(rng.integers(2))], "players": 1 + seed % 2}
    m = DiscardModel(deck, WANKUL, settings=settings)
    seat, max_turn, n = ("first", "second")[int(rng.integers(2))], int(rng.integers(2, 12)), 2000
    dealt = deal(deck, n, seed)
    plan = schedule(WANKUL, seat, max_turn, dealt["library"].shape[0])
    opponent = None
    if m.players == 2:
        other = deal(deck, n, seed + 700)
        opponent = (other["hand"], other["library"])
    costed, targets = costed_targets(deck)
    first = m.first_turns(dealt["hand"], dealt["library"], plan, targets, opponent=opponent)
    positions = m.seen_positions(dealt["hand"], dealt["library"], plan, opponent=opponent)
    for k, target in enumerate(targets):
        in_hand = target[dealt["hand"]].any(axis=0)
        drawn = np.cumsum(target[dealt["library"]], axis=0)
        seen_by = np.array([in_hand | (np.take_along_axis(np.vstack([np.zeros((1, n), dtype=drawn.dtype), drawn]),
                                                          positions[t - 1][None, :], axis=0)[0] > 0)
                            for t in range(1, max_turn + 1)])
        first_seen = np.where(seen_by.any(axis=0), seen_by.argmax(axis=0) + 1, max_turn + 1)
        assert (first[k] >= first_seen).all()
        assert ((first[k] == first_seen) | (first[k] > max_turn)).any()


@pytest.mark.parametrize("seed", range(6))
def test_first_turns_with_draw_effects_as_a_literal_two_player_game(seed):
    rng = np.random.default_rng([seed, 44])
    policy = ("hold", "curve")[seed % 2]
    deck, rival = random_deck(rng, readable=policy == "curve"), random_deck(rng)
    n_rows = len(deck.cards)
    draws = rng.integers(1, 3, n_rows) * (rng.random(n_rows) < 0.5)
    costed, targets = costed_targets(deck)
    compare_two_players(deck, rival, targets, ("first", "second")[seed % 3 == 0], 120, seed, max_turn=8,
                        effect_draws=draws, policy=policy, terrain_turns=int(rng.choice([0, 2, 3])),
                        play_after_drought=bool(rng.integers(2)))


def test_two_players_share_the_terrain_and_the_droughts():
    # Games dealt by hand, the player second; the opponent's deck: Terrain A and Petit only.
    m = model(players=2, terrain_turns=2)
    rival_hand = np.array([TA, P1, P1, P1, P1], dtype=np.int8)[:, None]

    def game(hand, library, rival_library, target, seat="second", **settings):
        m = model(players=2, **settings)
        return int(m.first_turns(np.array(hand, dtype=np.int8)[:, None],
                                 np.array(library, dtype=np.int8).reshape(-1, 1),
                                 schedule(WANKUL, seat, T, len(library)), [np.isin(np.arange(7), target)],
                                 opponent=(rival_hand, np.array(rival_library, dtype=np.int8).reshape(-1, 1)))[0, 0])

    # No Terrain in the player's hand: the opponent's Terrain A, played on its turn 1, carries Cible on turn 1.
    assert game([Z, P1, P1, P1, P1], FILLER, FILLER, [Z]) == 1
    # Alone, the player would go through a drought first (and find Terrain B at the third draw).
    assert one_game(model(), [Z, P1, P1, P1, P1], [P1, P1, TB] + FILLER, [Z]) == 1
    # The player first, with no Terrain: the opponent plays Terrain A on its turn 1; it is scored and gone on the
    # opponent's turn 2, when neither holds a Terrain: the drought on the opponent's turn makes both draw two cards
    # (the opponent finds Terrain A and plays it; the player draws Petit and Cible), and Cible is played on the
    # player's turn 3, where the draws alone would bring it on turn 4.
    assert game([P1] * 5, [P1, P1, P1, Z] + FILLER, [P1, P1, P1, TA] + FILLER, [Z], seat="first") == 3
    # Alone, the same player never sees a Terrain in its library: its first drought loses the game.
    assert one_game(model(), [P1] * 5, [P1, P1, P1, Z] + FILLER, [Z]) == T + 1
    assert m.seat_matters and not model().seat_matters


def test_two_players_need_the_opponents_games():
    with pytest.raises(ValueError, match="opponent"):
        model(players=2).first_turns(np.zeros((5, 1), dtype=np.int8), np.zeros((3, 1), dtype=np.int8),
                                     schedule(WANKUL, "first", 2, 3), [np.arange(7) == Z])
    with pytest.raises(DeckstatError, match="players must be 1 .* or 2"):
        model(players=3)
    with pytest.raises(DeckstatError, match="drought_order must be one of together, active_first.*did you mean"):
        model(drought_order="togther")


# --- exact answers ---------------------------------------------------------------------------------------


def test_drought_with_terrains_kept_matches_the_combinatorial_answer():
    """One target (cost 0) among N cards with K Terrains, Terrains never scored, no mulligan.

    A Terrain is in play from turn 1 (forced, or found by the turn-1 drought, which draws up to the first
    Terrain at position f > 6), so the cards seen by turn t are the first m + max(0, f - 6), m = 5 + t. The target
    at position z > m is seen when f >= z - m + 6, that is when none of the K Terrains lies among the z - m + 5
    first positions (all before z), out of the N - 1 positions other than z:
    P(by t) = m / N + sum_{z > m} (1 / N) C(N - 1 - (z - m + 5), K) / C(N - 1, K).
    """
    n_cards, n_terrains = 20, 2
    table = [{"name": "Terrain A", "count": n_terrains, "type": "Terrain"},
             {"name": "Cible", "count": 1, "type": "Personnage", "cost": 0},
             {"name": "Autre", "count": n_cards - n_terrains - 1, "type": "Personnage", "cost": 3}]
    deck = Deck.from_table(table)
    n = 60_000
    dealt = deal(deck, n, 3, limit=0)
    m = DiscardModel(deck, WANKUL, settings={"terrain_turns": 0, "players": 1})
    first = m.first_turns(dealt["hand"], dealt["library"], schedule(WANKUL, "first", T, n_cards - 5),
                          [deck.mask('"Cible"')])[0]
    z = 4.5
    for t in range(1, T + 1):
        seen = 5 + t
        exact = seen / n_cards + sum(comb(n_cards - 1 - (pos - seen + 5), n_terrains) / comb(n_cards - 1, n_terrains)
                                     for pos in range(seen + 1, n_cards + 1)) / n_cards
        simulated = np.mean(first <= t)
        assert abs(simulated - exact) <= z * math.sqrt(exact * (1 - exact) / n) + 1e-12, (t, simulated, exact)


def test_hold_first_turn_of_a_free_card_with_many_terrains():
    # 40 Terrains and 1 cost-0 target in 41 cards: a Terrain is always in hand; P(by t) = (5 + t) / 41 exactly,
    # whatever terrain_turns.
    deck = Deck.from_table([{"name": "Terrain A", "count": 40, "type": "Terrain"},
                            {"name": "Cible", "count": 1, "type": "Personnage", "cost": 0}])
    dealt = deal(deck, 20_000, 8)
    for turns in (0, 2):
        m = DiscardModel(deck, WANKUL, settings={"terrain_turns": turns, "players": 1})
        first = m.first_turns(dealt["hand"], dealt["library"], schedule(WANKUL, "first", T, 36),
                              [deck.mask('"Cible"')])[0]
        for t in range(1, T + 1):
            p = (5 + t) / 41
            assert abs(np.mean(first <= t) - p) <= 4.5 * math.sqrt(p * (1 - p) / 20_000)


# --- the profile, settings and errors ---------------------------------------------------------------------


def test_profile_settings_and_defaults():
    assert WANKUL.play_model.kind == "discard"
    m = DiscardModel(small_deck(), WANKUL, settings=WANKUL.play_model.settings)
    assert (m.policy, m.terrain_turns, m.terrain_life, m.play_after_drought) == ("hold", 2, 1, True)
    assert DiscardModel(small_deck(), WANKUL).terrain_turns == WANKUL.drought_scored_after
    assert DiscardModel(small_deck(), WANKUL, settings={"terrain_turns": 0}).terrain_life is None
    assert DiscardModel(small_deck(), WANKUL, policy="courbe").policy == "curve"
    assert DiscardModel(small_deck(), WANKUL, policy="Garder").policy == "hold"
    assert model().reduction(np.arange(7) == G) is None


@pytest.mark.parametrize("turns", [1, -2, 2.5, "2", True])
def test_bad_terrain_turns(turns):
    with pytest.raises(DeckstatError, match="terrain_turns must be 0 .* or a whole number of turns >= 2"):
        model(terrain_turns=turns)


def test_bad_settings_and_policy():
    with pytest.raises(DeckstatError, match="play_after_drought must be true or false"):
        model(play_after_drought="oui")
    with pytest.raises(DeckstatError, match="unknown \\[play_model\\] setting 'terain_turns'.*did you mean"):
        DiscardModel(small_deck(), WANKUL, settings={"terain_turns": 2})
    with pytest.raises(DeckstatError, match="unknown policy 'greedy'.*hold, curve"):
        model(policy="greedy")


def cost_deck(cost):
    return Deck.from_table(TABLE[:2] + [{"name": "Sans Coût", "count": 3, "type": "Personnage", "cost": cost}]
                           + TABLE[3:])


def test_a_target_without_a_cost_is_an_error_naming_the_card():
    deck = cost_deck(None)
    hold = DiscardModel(deck, WANKUL, settings={"players": 1})
    with pytest.raises(DeckstatError, match="column 'cost' \\(coût\\): card 'Sans Coût' has no value; the discard"):
        hold.reduction(deck.mask('"Sans Coût"'))
    with pytest.raises(DeckstatError, match="card 'Sans Coût' has no value"):
        one_game(hold, [TA, P1, P1, P1, P1], FILLER, [P0])
    # Not a target under hold: it is only discarded, the model runs.
    assert one_game(hold, [TA, P0, P1, P1, P1], FILLER, [P1]) == 1
    # The curve player may play any Personnage: all need a cost.
    with pytest.raises(DeckstatError, match="card 'Sans Coût' has no value"):
        DiscardModel(deck, WANKUL, policy="curve")


def test_a_bad_cost_is_an_error_naming_the_value():
    for bad in ("X", "-1", "1.5"):
        with pytest.raises(DeckstatError, match=f"card 'Sans Coût' has '{bad}'; expected a whole number"):
            DiscardModel(cost_deck(bad), WANKUL).reduction(np.arange(7) == P0)


def test_missing_columns():
    no_cost = Deck.from_table([{k: v for k, v in row.items() if k != "cost"} for row in TABLE])
    with pytest.raises(DeckstatError, match="column 'cost' \\(coût\\) is missing; .*'Gratuit'"):
        DiscardModel(no_cost, WANKUL, policy="curve")
    # A Terrain target needs no cost.
    assert DiscardModel(no_cost, WANKUL).reduction(no_cost.mask("Terrain")) is None
    no_type = Deck.from_table([{k: v for k, v in row.items() if k != "type"} for row in TABLE])
    with pytest.raises(DeckstatError, match="column 'type' \\(type de carte\\) has no value"):
        DiscardModel(no_type, WANKUL)


def test_french_headers(tmp_path):
    path = tmp_path / "deck.csv"
    pd.DataFrame(TABLE).rename(columns={"name": "Nom", "count": "Quantité", "type": "Type de carte",
                                        "cost": "Coût"}).to_csv(path, index=False)
    deck = deckstat.load_deck(path).with_synonyms(WANKUL.synonyms)
    m = DiscardModel(deck, WANKUL, policy="curve", settings={"terrain_turns": 0, "players": 1})
    assert one_game(m, [TA, G, P0, P0, P1], FILLER, [G]) == T + 1


# --- real cards -----------------------------------------------------------------------------------------------

OCTERRY = SHARED_CARDDATA / "wankul_octerry_cards.csv"


@pytest.mark.skipif(not OCTERRY.exists(), reason="shared card data absent")
def test_a_legal_deck_of_real_cards(tmp_path):
    pool = pd.read_csv(OCTERRY, dtype=str)
    origins = pool[pool["season_code"] == "SO1"]
    personnages = origins[origins["card_type"] == "Personnage"]
    # 10 Terrains, 12 + 12 + 9 + 6 Personnages of cost 0, 1, 2, 3 (printings apart), and the card without a cost.
    parts = [origins[origins["card_type"] == "Terrain"].head(5).assign(count=2)]
    parts += [personnages[personnages["cost"] == cost].head(k).assign(count=3)
              for cost, k in (("0", 4), ("1", 4), ("2", 3), ("3", 2))]
    parts.append(pool[(pool["card_type"] == "Personnage") & pool["cost"].isna()].head(1).assign(count=1))
    table = pd.concat(parts)
    assert table["count"].sum() == 50 and len(parts[-1]) == 1
    path = tmp_path / "real.csv"
    table.to_csv(path, index=False)
    deck = deckstat.load_deck(path).with_synonyms(WANKUL.synonyms)
    assert deckstat.validate(deck, "wankul").legal
    dealt = deal(deck, 20_000, 2)
    sched = schedule(WANKUL, "first", T, dealt["library"].shape[0])
    targets = [deck.mask("[cost=3]"), deck.mask("[cost<=1]"), deck.mask("Terrain")]
    for turns in (0, 2):
        m = DiscardModel(deck, WANKUL, settings={**WANKUL.play_model.settings, "terrain_turns": turns, "players": 1})
        first = m.first_turns(dealt["hand"], dealt["library"], sched, targets)
        cdf = np.array([[np.mean(f <= t) for t in range(1, T + 1)] for f in first])
        assert ((cdf >= 0) & (cdf <= 1)).all() and (np.diff(cdf, axis=1) >= 0).all()
        # 6 cost-3 cards: in the first 6 cards with P = 1 - C(44, 6) / C(50, 6) = 0.56 (drought draws add some).
        assert 0.5 < cdf[0, 0] < 0.7 and cdf[0, -1] > cdf[0, 0] + 0.15
        # 24 cards of cost <= 1 and a Terrain in play from turn 1: nearly always playable at once.
        assert cdf[1, 0] > 0.95 and (cdf[2] == 1).all()
    with pytest.raises(DeckstatError, match="card 'CYBERTERRA - Starter Pack Pop-Culture' has no value"):
        DiscardModel(deck, WANKUL, policy="curve")
