"""The Licum bench model: hand-made games, an independent slow simulator, exact reductions, errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from deckstat import load_deck
from deckstat.deck import Deck
from deckstat.engines.kernel import deal_order
from deckstat.errors import DeckstatError
from deckstat.games.profiles import get_profile
from deckstat.play.base import schedule
from deckstat.play.bench import BenchModel
from tests.helpers import sample_deck, z_for

PROFILE = get_profile("licum")

# (name, type, tags, spring): a game deck whose games are worked out by hand.
CARDS = [
    ("Capitaine", "Improvisateur", "Capitaine", "Sifflet"),   # 0
    ("Joueur A", "Improvisateur", "Joueur", ""),              # 1
    ("Joueur B", "Improvisateur", "Joueur", ""),              # 2
    ("Sub", "Improvisateur", "Substitut", ""),                # 3
    ("Sifflet", "Improvisateur", "Entraîneur", ""),           # 4
    ("Public", "Condition", "", ""),                          # 5
    ("Objection", "Scuze Mais", "", ""),                      # 6
    ("Shote", "Shote", "", ""),                               # 7
    ("Porteur", "Improvisateur", "Joueur", "sub"),            # 8
    ("Recette", "Impro", "Mixte", ""),                        # 9
    ("Lumières", "Condition", "", ""),                        # 10
    ("SubPorteur", "Improvisateur", "Substitut", "LUMIERES"),  # 11
    ("Joueur C", "Improvisateur", "Joueur", ""),              # 12
    ("Joueur D", "Improvisateur", "Joueur", ""),              # 13
]


def small_deck(cards=CARDS) -> Deck:
    table = [{"name": n, "count": 1, "type": t, "tags": g, "spring": s} for n, t, g, s in cards]
    return Deck.from_table(table).with_synonyms(PROFILE.synonyms)


def model(deck: Deck) -> BenchModel:
    return BenchModel(deck, PROFILE, settings=PROFILE.play_model.settings)


def rows_mask(deck: Deck, *names: str) -> np.ndarray:
    return np.isin(np.array(deck.names), names)


@pytest.mark.parametrize("hand, library, expected", [
    # Sub waits for a benched Improvisateur (turn 1) and is drawn at the end of turn 1; Sifflet is sprung by
    # the Capitaine, drawn at the end of turn 3; the Impro never leaves the hand.
    ([5, 6, 1, 9, 2, 12, 13], [3, 10, 0, 8, 4, 7, 11],
     {"Public": 1, "Objection": 1, "Joueur A": 1, "Recette": 9, "Sub": 2, "Sifflet": 4, "Lumières": 3,
      "Shote": 7, "SubPorteur": 8}),
    # No Improvisateur to bench before Joueur A arrives (end of turn 1): a Substitut held from the start
    # waits until turn 3.
    ([3, 11, 5, 6, 7, 10, 9], [1, 2, 0, 4, 8, 12, 13],
     {"Sub": 3, "SubPorteur": 3, "Lumières": 1, "Sifflet": 4, ("Sub", "Public"): 1}),
    # SubPorteur springs Lumières once an Improvisateur is on the bench (benched on turn 2), a turn before
    # Lumières is drawn.
    ([11, 5, 6, 7, 9, 3, 4], [2, 12, 10, 0, 1, 8, 13],
     {"Lumières": 3, "Sub": 3, "Sifflet": 1, ("Recette",): 9}),
    # Porteur would spring Sub, but Sub is already in hand (waiting for a bench): the spring finds nothing, and
    # Porteur is kept for it; Joueur A, drawn at the end of turn 2, is benched on turn 3.
    ([3, 8, 5, 6, 7, 9, 4], [10, 1, 0, 2, 11, 12, 13], {"Sub": 4}),
])
def test_hand_made_games(hand, library, expected):
    deck = small_deck()
    keys = list(expected)
    targets = [rows_mask(deck, *(k if isinstance(k, tuple) else (k,))) for k in keys]
    hand = np.array(hand, dtype=np.int16).reshape(-1, 1)
    library = np.array(library, dtype=np.int16).reshape(-1, 1)
    sched = schedule(PROFILE, "first", 8, library.shape[0])
    got = model(deck).first_turns(hand, library, sched, targets)[:, 0].tolist()
    assert dict(zip(keys, got)) == expected


def test_licum_plays_turn_t_with_the_draws_of_the_turns_before():
    # The only Condition is the first card drawn: it is drawn at the end of turn 1, played on turn 2.
    deck = small_deck()
    sched = schedule(PROFILE, "second", 3, 7)
    hand = np.array([[0, 1, 2, 3, 4, 6, 7]], dtype=np.int16).T
    library = np.array([[5, 8, 9, 10, 11, 12, 13]], dtype=np.int16).T
    assert model(deck).first_turns(hand, library, sched, [rows_mask(deck, "Public")]).tolist() == [[2]]


# ----------------------------------------------------------------- independent slow simulator

def slow_first_turn(cards, hand, library, drawn, max_turn, target):
    """Follow the policy as docs/play/licum.md words it, one game, plain Python.

    ``cards``: per row (name, type, tags, set of rows its spring fetches). A player with no card left to draw plays
    on, drawing nothing (« le match fini [...] quand les deux joueurs n'ont plus de cartes à tirer »), up to
    ``max_turn``.
    """
    names = [c[0] for c in cards]
    types = [c[1] for c in cards]
    is_sub = ["substitut" in c[2].lower() for c in cards]
    is_coach = ["entra" in c[2].lower() for c in cards]
    carriers = {r for r, c in enumerate(cards) if c[3] & target and r not in target}
    use_bench = any(is_sub[r] for r in target | carriers)
    in_hand = list(hand)
    bench = []
    for turn in range(1, max_turn + 1):
        in_hand += list(library[drawn[turn - 1]:drawn[turn]])
        still_in_deck = library[drawn[turn]:]
        for r in in_hand:
            if types[r] in ("Impro", "Difficulté", "Avant-Match", "Entre-Période"):
                continue
            if is_sub[r] and not bench:
                continue
            if r in target:
                return turn
            if r in carriers and any(x in cards[r][3] & target for x in still_in_deck):
                return turn
        if use_bench and len(bench) < 4:
            for r in sorted(in_hand):
                if (types[r] == "Improvisateur" and not is_sub[r] and not is_coach[r] and r not in target
                        and r not in carriers and names[r] not in [names[b] for b in bench]):
                    bench.append(r)
                    in_hand.remove(r)
                    break
    return max_turn + 1


SAMPLE_SPRINGS = {
    "Gontran Lafrite": ["Coach Réjean Sifflet"],
    "Ginette Boisvert": ["Shote d'Énergie"],
    "Marcel Poudrier": ["Yvette Trampoline"],
    "Lulu Cassoulet": ["Public en Délire", "Lumières Tamisées"],
}


def sample_setup():
    deck = PROFILE.drawn_deck(load_deck(sample_deck("licum", "springs_deck.csv"))).with_synonyms(PROFILE.synonyms)
    names = deck.names
    cards = [(name, str(deck.cards["type"].iloc[r]), str(deck.cards["tags"].iloc[r]),
              {names.index(x) for x in SAMPLE_SPRINGS.get(name, [])}) for r, name in enumerate(names)]
    return deck, cards


@pytest.mark.parametrize("seat", ["first", "second"])
def test_vectorised_model_follows_the_slow_simulator(seat):
    deck, cards = sample_setup()
    n_rows = len(deck.cards)
    names = deck.names
    rng = np.random.default_rng(20261202)
    n = 1500
    deal = deal_order(deck.counts, np.zeros((n_rows, 0), np.int8), n, rng, hand_size=PROFILE.hand_size,
                      set_aside=PROFILE.set_aside)
    sched = schedule(PROFILE, seat, 12, deal["library"].shape[0])
    groups = [{r} for r in range(n_rows)]
    groups += [{names.index("Yvette Trampoline"), names.index("Patinoire Glissante")},
               {names.index("Coach Réjean Sifflet"), names.index("Lumières Tamisées")}]
    targets = [np.isin(np.arange(n_rows), list(g)) for g in groups]
    fast = model(deck).first_turns(deal["hand"], deal["library"], sched, targets)
    drawn = sched.drawn.tolist()
    for k, group in enumerate(groups):
        slow = [slow_first_turn(cards, deal["hand"][:, i].tolist(), deal["library"][:, i].tolist(), drawn, 12,
                                group) for i in range(n)]
        assert fast[k].tolist() == slow, [names[r] for r in group]


def test_a_player_with_no_card_left_plays_on():
    # A 9-card game deck: 7 in hand, 2 drawn at the end of turns 1 and 2; at the end of turn 3 nothing is left to
    # draw, and the player still plays a card a turn (a Substitut needs an Improvisateur benched on an earlier turn).
    deck, cards = sample_setup()
    names = deck.names
    keep = ["Yvette Trampoline", "Bertrand Pichenotte", "Public en Délire", "Coach Réjean Sifflet", "Shote d'Énergie"]
    rows = [names.index(n) for n in keep]
    small = Deck.from_table(deck.cards.iloc[rows].assign(count=[2, 1, 2, 1, 3])).with_synonyms(PROFILE.synonyms)
    small_cards = [(c[0], c[1], c[2], {keep.index(names[x]) for x in c[3] if names[x] in keep})
                   for c in (cards[r] for r in rows)]
    assert small.size == 9
    n, max_turn = 1000, 24
    deal = deal_order(small.counts, np.zeros((len(rows), 0), np.int8), n, np.random.default_rng(3),
                      hand_size=PROFILE.hand_size, set_aside=0)
    sched = schedule(PROFILE, "first", max_turn, deal["library"].shape[0])
    assert sched.drawn.tolist()[:5] == [0, 0, 1, 2, 2] and sched.max_turn == 24
    targets = [np.arange(len(rows)) == r for r in range(len(rows))]
    fast = model(small).first_turns(deal["hand"], deal["library"], sched, targets)
    for k in range(len(rows)):
        slow = [slow_first_turn(small_cards, deal["hand"][:, i].tolist(), deal["library"][:, i].tolist(),
                                sched.drawn.tolist(), max_turn, {k}) for i in range(n)]
        assert fast[k].tolist() == slow, keep[k]
    # Bertrand, the one Improvisateur the Substitut can take back, drawn last (seen on turn 3), is benched on turn 3:
    # Yvette is first playable on turn 4, after the player's last draw, in about 1 game in 9.
    assert 0.05 < (fast[keep.index("Yvette Trampoline")] == 4).mean() < 0.2


# ----------------------------------------------------------------- reductions

def test_reductions_agree_with_the_model():
    deck, _ = sample_setup()
    n_rows = len(deck.cards)
    names = deck.names
    m = model(deck)
    targets = [np.arange(n_rows) == r for r in range(n_rows)]
    reductions = [m.reduction(t) for t in targets]
    # Only the Substitut (it needs an Improvisateur benched first) is left to the simulation.
    assert [names[r] for r, red in enumerate(reductions) if red is None] == ["Yvette Trampoline"]
    rng = np.random.default_rng(11)
    n = 40_000
    deal = deal_order(deck.counts, np.zeros((n_rows, 0), np.int8), n, rng, hand_size=PROFILE.hand_size,
                      set_aside=PROFILE.set_aside)
    max_turn = 6
    sched = schedule(PROFILE, "first", max_turn, deal["library"].shape[0])
    first = m.first_turns(deal["hand"], deal["library"], sched, targets)
    checked = [(k, r) for k, r in enumerate(reductions) if r is not None]
    z = z_for(len(checked) * max_turn)
    total = deck.size
    for k, reduction in checked:
        (cards_in_set,) = reduction.sets
        size = int(deck.counts[cards_in_set].sum())
        for turn in range(1, max_turn + 1):
            seen = PROFILE.hand_size + int(sched.drawn[turn])
            exact = 1 - math.comb(total - size, seen) / math.comb(total, seen)
            simulated = float((first[k] <= turn).mean())
            tolerance = z * math.sqrt(max(exact * (1 - exact), 1 / n) / n)
            assert abs(simulated - exact) <= tolerance, (reduction.text, turn, simulated, exact)


def test_a_reduction_by_hand():
    deck, _ = sample_setup()
    reduction = model(deck).reduction(rows_mask(deck, "Coach Réjean Sifflet"))
    # Sifflet (1 copy) or Gontran (1 copy, springs it) among the 7 cards of turn 1.
    assert reduction.text == "Gontran Lafrite or Coach Réjean Sifflet >= 1"
    assert sorted(np.array(deck.names)[reduction.sets[0]]) == ["Coach Réjean Sifflet", "Gontran Lafrite"]
    # 1 - C(28, 7) / C(30, 7) = 1 - (23 * 22) / (30 * 29), against the model on 40,000 deals.
    exact = 1 - 23 * 22 / (30 * 29)
    rng = np.random.default_rng(13)
    n = 40_000
    deal = deal_order(deck.counts, np.zeros((len(deck.cards), 0), np.int8), n, rng, hand_size=7, set_aside=0)
    sched = schedule(PROFILE, "first", 1, deal["library"].shape[0])
    first = model(deck).first_turns(deal["hand"], deal["library"], sched, [rows_mask(deck, "Coach Réjean Sifflet")])
    assert abs((first[0] <= 1).mean() - exact) <= z_for(1) * math.sqrt(exact * (1 - exact) / n)


def test_sample_deck_runs_and_is_sane():
    deck = PROFILE.drawn_deck(load_deck(sample_deck("licum"))).with_synonyms(PROFILE.synonyms)
    m = model(deck)
    rng = np.random.default_rng(5)
    n = 20_000
    deal = deal_order(deck.counts, np.zeros((len(deck.cards), 0), np.int8), n, rng, hand_size=7, set_aside=0)
    sched = schedule(PROFILE, "first", 10, deal["library"].shape[0])
    targets = [deck.mask("Improvisateur"), deck.mask('"Yvette Trampoline"'), deck.mask("Shote")]
    first = m.first_turns(deal["hand"], deal["library"], sched, targets)
    cdf = np.array([[(f <= t).mean() for t in range(1, 11)] for f in first])
    assert np.all(np.diff(cdf, axis=1) >= 0) and np.all((cdf >= 0) & (cdf <= 1))
    assert cdf[1, 0] == 0  # a Substitut cannot be played on the first turn
    # Any of the 7 Shotes among the 7 cards of turn 1.
    exact = 1 - math.comb(23, 7) / math.comb(30, 7)
    assert abs(cdf[2, 0] - exact) <= z_for(1) * math.sqrt(exact * (1 - exact) / n)


# ----------------------------------------------------------------- errors

@pytest.mark.parametrize("cards, words", [
    ([("A", "Sortilège", "", "")], ["column 'type'", "card 'A'", "'Sortilège'", "Improvisateur, Condition"]),
    ([("A", "Condition", "", "B"), ("B", "Shote", "", "")],
     ["column 'spring'", "card 'A'", "only Improvisateurs have springs"]),
])
def test_errors_name_the_column_and_the_card(cards, words):
    with pytest.raises(DeckstatError) as error:
        model(small_deck(cards))
    message = str(error.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message


def test_a_spring_to_a_card_outside_the_deck_fetches_nothing():
    deck = small_deck([("A", "Improvisateur", "Joueur", "Absent"), ("B", "Shote", "", "")])
    assert not model(deck).fetches.any()
