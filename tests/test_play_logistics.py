"""The Pandrea logistics play model: hand-made games, an independent slow simulator, exact reductions, errors."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from helpers import DATA, z_for
from scipy.special import comb
from scipy.stats import hypergeom

from deckstat.cards import load_deck
from deckstat.deck import Deck
from deckstat.engines.kernel import deal_order
from deckstat.errors import DeckstatError
from deckstat.games.profiles import get_profile
from deckstat.play.base import schedule
from deckstat.play.logistics import LogisticsModel

PANDREA = get_profile("pandrea")
SETTINGS = PANDREA.play_model.settings


def deck_of(rows: list[tuple]) -> Deck:
    """A deck from (name, count, type, cost[, logistics]) rows, with Pandrea's synonyms."""
    records = []
    for row in rows:
        record = {"name": row[0], "count": row[1], "type": row[2], "cost": row[3]}
        if len(row) > 4:
            record["logistics"] = row[4]
        records.append(record)
    return Deck.from_table(records).with_synonyms(PANDREA.synonyms)


def model(deck: Deck, policy: str = "", profile=PANDREA, **settings) -> LogisticsModel:
    return LogisticsModel(deck, profile, policy=policy, settings={**SETTINGS, **settings})


def game(deck: Deck, hand: list[str], library: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """One dealt game (one trial) from card names."""
    row = {name: i for i, name in enumerate(deck.names)}
    return (np.array([[row[n]] for n in hand], dtype=np.int16).reshape(len(hand), 1),
            np.array([[row[n]] for n in library], dtype=np.int16).reshape(len(library), 1))


def any_of(deck: Deck, *groups: str) -> np.ndarray:
    """The cards of any of ``groups``: a target made of several groups."""
    return np.logical_or.reduce([deck.mask(g) for g in groups])


def first_turn(m: LogisticsModel, hand, library, target: str, max_turn: int = 8) -> int:
    sched = schedule(m.profile, "first", max_turn, library.shape[0])
    return int(m.first_turns(hand, library, sched, [m.deck.mask(f'"{target}"')])[0, 0])


# A small deck for hand-made games: every rule and policy branch.
SMALL = deck_of([
    ("Golem", 2, "Unité", 4, None),
    ("Hallebardier", 2, "Unité", 2, None),
    ("Paysan", 2, "Unité", 1, None),
    ("Bluff", 2, "Stratégie", 0, None),
    ("Embuscade", 2, "Stratégie", 3, None),
    ("Grenier", 4, "Logistique", None, 1),
    ("Moulin", 2, "Logistique", None, 2),
    ("Pierre", 10, "Unité", 9, None),
])


class TestHandMadeGames:
    def test_cost_zero_is_playable_on_the_turn_it_is_in_hand(self):
        hand, library = game(SMALL, ["Pierre"] * 5, ["Pierre", "Bluff", "Pierre"])
        assert first_turn(model(SMALL), hand, library, "Bluff") == 2

    def test_one_logistique_a_turn_pays_once_per_turn_cumulatively(self):
        # Two Greniers in hand: one goes into play on turn 1, the other on turn 2.
        hand, library = game(SMALL, ["Hallebardier", "Grenier", "Grenier", "Pierre", "Pierre"], ["Pierre"] * 5)
        assert first_turn(model(SMALL), hand, library, "Hallebardier") == 2
        assert first_turn(model(SMALL, logistics_per_turn=2), hand, library, "Hallebardier") == 1
        assert first_turn(model(SMALL, logistics_per_turn="any"), hand, library, "Hallebardier") == 1

    def test_logistics_in_play_pay_again_every_turn(self):
        # The Hallebardier arrives on turn 4; the two Greniers put into play on turns 1-2 still pay.
        hand, library = game(SMALL, ["Grenier", "Grenier", "Pierre", "Pierre", "Pierre"],
                             ["Pierre", "Pierre", "Pierre", "Hallebardier", "Pierre"])
        assert first_turn(model(SMALL), hand, library, "Hallebardier") == 4

    def test_the_largest_producer_goes_first(self):
        # Moulin (2) and Grenier (1) in hand: turn 1 puts the Moulin in play, turn 2 the Grenier: 3 on turn 2.
        hand, library = game(SMALL, ["Embuscade", "Grenier", "Moulin", "Pierre", "Pierre"], ["Pierre"] * 5)
        assert first_turn(model(SMALL), hand, library, "Embuscade") == 2
        hand2, library2 = game(SMALL, ["Hallebardier", "Grenier", "Moulin", "Pierre", "Pierre"], ["Pierre"] * 5)
        assert first_turn(model(SMALL), hand2, library2, "Hallebardier") == 1

    def test_logistique_target_is_playable_once_in_hand(self):
        hand, library = game(SMALL, ["Grenier", "Pierre", "Pierre", "Pierre", "Pierre"],
                             ["Pierre", "Pierre", "Moulin", "Pierre"])
        m = model(SMALL)
        assert first_turn(m, hand, library, "Moulin") == 3
        # The Grenier held since the opening hand is playable on turn 1, though the policy would drop it anyway.
        assert first_turn(m, hand, library, "Grenier") == 1

    def test_a_group_is_playable_when_any_of_its_cards_is(self):
        hand, library = game(SMALL, ["Golem", "Embuscade", "Grenier", "Grenier", "Grenier"],
                             ["Grenier", "Pierre", "Pierre", "Pierre", "Pierre"])
        m = model(SMALL)
        sched = schedule(PANDREA, "first", 8, library.shape[0])
        targets = [SMALL.mask('"Golem"'), SMALL.mask('"Embuscade"'), any_of(SMALL, '"Golem"', '"Embuscade"'),
                   SMALL.mask("[type=Unit]")]
        assert m.first_turns(hand, library, sched, targets)[:, 0].tolist() == [4, 3, 3, 4]

    def test_not_playable_by_the_last_turn(self):
        hand, library = game(SMALL, ["Golem", "Pierre", "Pierre", "Pierre", "Pierre"], ["Pierre"] * 10)
        assert first_turn(model(SMALL), hand, library, "Golem", max_turn=6) == 7

    def test_peasant_policy_switches_on_the_entrepot(self):
        # Turn 1: a Grenier in play pays the Paysan; from then on the entrepôt adds 1.
        hand, library = game(SMALL, ["Embuscade", "Paysan", "Grenier", "Grenier", "Grenier"], ["Pierre"] * 8)
        assert first_turn(model(SMALL, "target"), hand, library, "Embuscade") == 3
        assert first_turn(model(SMALL, "peasant"), hand, library, "Embuscade") == 2
        assert first_turn(model(SMALL, "peasant", warehouse_points=0), hand, library, "Embuscade") == 3
        assert first_turn(model(SMALL, "peasant", warehouse_points=2), hand, library, "Embuscade") == 2
        # A peasant group that names no card in the deck: nothing to recruit.
        assert first_turn(model(SMALL, "peasant", peasants="[name~fermier]"), hand, library, "Embuscade") == 3

    def test_peasant_is_recruited_only_when_it_can_be_paid(self):
        # No logistics until turn 3: the Paysan (cost 1) waits, then the entrepôt helps from turn 3.
        hand, library = game(SMALL, ["Golem", "Paysan", "Pierre", "Pierre", "Pierre"],
                             ["Pierre", "Pierre", "Grenier", "Grenier", "Grenier", "Pierre"])
        assert first_turn(model(SMALL, "target"), hand, library, "Golem") == 8 + 1
        # Turn 3: a Grenier in play pays the Paysan; turn 5: 3 Greniers + the entrepôt.
        assert first_turn(model(SMALL, "peasant"), hand, library, "Golem") == 5

    def test_entrepot_point_counts_on_the_turn_the_peasant_arrives(self):
        deck = deck_of([("Paysanne", 1, "Unité", 0), ("Chevalier", 1, "Unité", 3),
                        ("Grenier", 4, "Logistique", None), ("Pierre", 10, "Unité", 9)])
        hand, library = game(deck, ["Chevalier", "Paysanne", "Grenier", "Grenier", "Pierre"], ["Pierre"] * 5)
        assert first_turn(model(deck, "peasant", logistics_per_turn="any"), hand, library, "Chevalier") == 1
        assert first_turn(model(deck, "target", logistics_per_turn="any"), hand, library, "Chevalier") == 9

    def test_usure_the_turn_without_a_draw_is_played_then_lost(self):
        hand, _ = game(SMALL, ["Golem", "Grenier", "Grenier", "Grenier", "Grenier"], [])
        row = SMALL.names.index("Pierre")
        short = np.full((2, 1), row, dtype=np.int16)  # turn 3 cannot draw: played, then lost
        enough = np.full((3, 1), row, dtype=np.int16)  # turn 4 cannot draw: played
        assert first_turn(model(SMALL), hand, short, "Golem") == 9
        assert first_turn(model(SMALL), hand, enough, "Golem") == 4
        # Under a rule where the failed draw loses at once, turn 4 is not played.
        strict = dataclasses.replace(PANDREA, deckout="lose_on_failed_draw")
        assert first_turn(model(SMALL, profile=strict), hand, enough, "Golem") == 9
        assert first_turn(model(SMALL, profile=strict), hand, np.full((4, 1), row, np.int16), "Golem") == 4


# ---------------------------------------------------------------------------------------------------------------
# An independent slow simulator: one game at a time, plain Python, following docs/play/pandrea.md.


def slow_first_turn(deck: Deck, hand: list[int], library: list[int], target: set[int], *, policy: str,
                    per_turn, warehouse: int, peasants: set[int], max_turn: int) -> int:
    types = [str(t) for t in deck.cards["type"]]
    logistique = {i for i, t in enumerate(types) if t in ("Logistique", "Logistics")}
    cost = {i: int(c) for i, c in enumerate(deck.cards["cost"]) if i not in logistique}
    produce = {i: (int(deck.cards["logistics"].iloc[i]) if "logistics" in deck.cards else 1) for i in logistique}
    hand, library = list(hand), list(library)
    in_play = 0
    peasant_in_play = False
    for turn in range(1, max_turn + 1):
        if library:
            hand.append(library.pop(0))
            out_of_cards = False
        else:
            out_of_cards = True  # « il joue le tour normalement » then loses at its end
        if any(card in target for card in hand if card in logistique):
            return turn
        for _ in range(len(hand) if per_turn == "any" else per_turn):
            ready = [card for card in hand if card in logistique]
            if not ready:
                break
            best = min(ready, key=lambda card: (-produce[card], card))
            hand.remove(best)
            in_play += produce[best]
        budget = in_play + (warehouse if peasant_in_play else 0)

        def payable(budget=budget):
            return any(card in target and card not in logistique and cost[card] <= budget for card in hand)

        if payable():
            return turn
        if policy == "peasant" and not peasant_in_play and warehouse > 0:
            ready = sorted((card for card in hand if card in peasants), key=lambda card: (cost[card], card))
            if ready and cost[ready[0]] <= budget:
                hand.remove(ready[0])
                peasant_in_play = True
                budget = budget - cost[ready[0]] + warehouse
                if payable(budget):
                    return turn
        if out_of_cards:
            break
    return max_turn + 1


def deal(deck: Deck, n_trials: int, seed: int):
    d = deal_order(deck.counts, np.zeros((len(deck.cards), 0), np.int8), n_trials, np.random.default_rng(seed),
                   hand_size=PANDREA.hand_size, set_aside=PANDREA.set_aside)
    return d["hand"], d["library"]


SAMPLE = PANDREA.drawn_deck(load_deck(DATA / "pandrea" / "sample_deck.csv")).with_synonyms(PANDREA.synonyms)
LOGISTICS = PANDREA.drawn_deck(load_deck(DATA / "pandrea" / "logistics_deck.csv")).with_synonyms(PANDREA.synonyms)


@pytest.mark.parametrize(("deck", "policy", "per_turn", "max_turn"), [
    (SAMPLE, "target", 1, 8),
    (SAMPLE, "peasant", 1, 8),
    (LOGISTICS, "target", 1, 10),
    (LOGISTICS, "peasant", 1, 10),
    (LOGISTICS, "peasant", 2, 6),
    (LOGISTICS, "peasant", "any", 6),
    (LOGISTICS, "target", "any", 40),  # past the last card: usure
])
def test_vectorised_model_matches_the_slow_simulator_game_by_game(deck, policy, per_turn, max_turn):
    n_trials = 600
    hand, library = deal(deck, n_trials, seed=7 + max_turn)
    groups = [(f'"{name}"',) for name in deck.names] + [("[cost>=3]",), ("[type=Logistique]",),
                                                        ('"Golem de Pavés"', '"Grenier à Navets"')]
    targets = [any_of(deck, *g) for g in groups]
    m = model(deck, policy, logistics_per_turn=per_turn)
    sched = schedule(PANDREA, "first", max_turn, library.shape[0])
    fast = m.first_turns(hand, library, sched, targets)
    assert fast.dtype == np.int16 and fast.shape == (len(targets), n_trials)
    peasants = set(np.flatnonzero(deck.mask("[name~paysan]") & deck.mask("[type=Unité]")).tolist())
    for k, target in enumerate(targets):
        rows = set(np.flatnonzero(target).tolist())
        slow = [slow_first_turn(deck, hand[:, i].tolist(), library[:, i].tolist(), rows, policy=policy,
                                per_turn=per_turn, warehouse=1, peasants=peasants, max_turn=max_turn)
                for i in range(n_trials)]
        assert fast[k].tolist() == slow, groups[k]


def test_peasant_policy_never_plays_later_than_target_policy():
    hand, library = deal(LOGISTICS, 3000, seed=11)
    targets = [LOGISTICS.mask(f'"{name}"') for name in LOGISTICS.names]
    sched = schedule(PANDREA, "second", 8, library.shape[0])
    plain = model(LOGISTICS, "target").first_turns(hand, library, sched, targets)
    helped = model(LOGISTICS, "peasant").first_turns(hand, library, sched, targets)
    assert (helped <= plain).all()
    assert (helped < plain).any()  # the entrepôt changes the answer for units of cost >= 2


# ---------------------------------------------------------------------------------------------------------------
# Exact reductions.


def seen_counts(hand: np.ndarray, library: np.ndarray, drawn: int, mask: np.ndarray) -> np.ndarray:
    seen = np.concatenate([hand, library[:drawn]])
    return mask[seen].sum(axis=0)


def exact_probability(deck: Deck, reduction, n_seen: int) -> float:
    """P(reduction holds) for ``n_seen`` cards drawn at random: every split of them among the deck's cells.

    A cell gathers the rows that belong to the same sets; the split follows the multivariate hypergeometric law.
    """
    membership = np.stack(reduction.sets).T.astype(np.int64)  # (n_rows, n_sets)
    keys, inverse = np.unique(membership, axis=0, return_inverse=True)
    sizes = np.bincount(inverse.ravel(), weights=deck.counts).astype(np.int64)
    grid = np.stack(np.meshgrid(*[np.arange(min(s, n_seen) + 1) for s in sizes], indexing="ij"), axis=-1)
    splits = grid.reshape(-1, len(sizes))
    splits = splits[splits.sum(axis=1) == n_seen]
    weights = np.prod(comb(sizes[None, :], splits), axis=1) / comb(deck.size, n_seen)
    in_sets = splits @ keys  # (n_splits, n_sets)
    holds = np.asarray(reduction.holds([in_sets[:, j] for j in range(keys.shape[1])]), dtype=bool)
    return float(weights[holds].sum())


class TestReductions:
    def test_unit_of_cost_one_needs_one_logistique_seen(self):
        # scipy check of the event, by inclusion-exclusion: P(Paysans >= 1 and Logistique >= 1) in 7 cards.
        m = model(SAMPLE)
        reduction = m.reduction(SAMPLE.mask('"Paysans à Fourche"'))
        assert reduction is not None and reduction.text == "Paysans à Fourche >= 1 and Logistique >= 1"
        size, paysans, logistique, seen = SAMPLE.size, 3, 14, 7
        expected = (1 - hypergeom(M=size, n=paysans, N=seen).pmf(0) - hypergeom(M=size, n=logistique, N=seen).pmf(0)
                    + hypergeom(M=size, n=paysans + logistique, N=seen).pmf(0))
        assert exact_probability(SAMPLE, reduction, seen) == pytest.approx(expected, rel=1e-12)

    def test_none_where_the_order_of_arrivals_matters(self):
        assert model(SAMPLE).reduction(SAMPLE.mask('"Golem de Pavés"')) is None  # cost 4, one a turn
        assert model(LOGISTICS, "peasant").reduction(LOGISTICS.mask('"Paysans à Fourche"')) is None
        assert model(SAMPLE, "peasant", logistics_per_turn="any").reduction(SAMPLE.mask('"Golem de Pavés"')) is None
        # No peasant for the entrepôt: the peasant policy is the target policy.
        assert model(SAMPLE, "peasant", peasants="[name~fermier]").reduction(SAMPLE.mask('"Paysans à Fourche"'))

    def test_unlimited_logistics_with_productions(self):
        m = model(LOGISTICS, logistics_per_turn="any")
        reduction = m.reduction(LOGISTICS.mask('"Golem de Pavés"'))
        assert reduction.text == ("Golem de Pavés >= 1 and Logistique + 2 x Logistique(2) + 3 x Logistique(3) >= 4")
        assert reduction.caps == (1, 4, 2, 2)

    @pytest.mark.parametrize(("deck", "per_turn", "groups"), [
        (SAMPLE, "any", ('"Golem de Pavés"',)),
        (SAMPLE, "any", ("[cost>=3]",)),
        (SAMPLE, 1, ("[cost<=1]",)),
        (SAMPLE, 1, ('"Forge Portative"', '"Bluff du Général"')),
        (LOGISTICS, "any", ('"Dragon de Basse-Cour"', '"Moulin à Réquisitions"')),
        (LOGISTICS, "any", ("[type=Unité]",)),
        (LOGISTICS, 2, ('"Frondeurs du Moulin"',)),
    ])
    def test_reduction_agrees_with_the_model_game_by_game_and_in_probability(self, deck, per_turn, groups):
        max_turn, n_trials = 6, 20_000
        m = model(deck, logistics_per_turn=per_turn)
        target = any_of(deck, *groups)
        reduction = m.reduction(target)
        assert reduction is not None
        hand, library = deal(deck, n_trials, seed=3)
        sched = schedule(PANDREA, "first", max_turn, library.shape[0])
        first = m.first_turns(hand, library, sched, [target])[0]
        z = z_for(max_turn)
        for turn in range(1, max_turn + 1):
            counts = [seen_counts(hand, library, sched.drawn[turn], s) for s in reduction.sets]
            event = np.asarray(reduction.holds(counts)) & (turn >= reduction.from_turn)
            assert ((first <= turn) == event).all(), turn
            exact = exact_probability(deck, reduction, PANDREA.hand_size + int(sched.drawn[turn]))
            tolerance = z * math.sqrt(max(exact * (1 - exact), 1e-12) / n_trials)
            assert abs((first <= turn).mean() - exact) <= tolerance


# ---------------------------------------------------------------------------------------------------------------
# Errors.


class TestErrors:
    def test_unit_without_cost(self):
        deck = deck_of([("Golem", 2, "Unité", None), ("Grenier", 4, "Logistique", None)])
        with pytest.raises(DeckstatError, match=r"column 'cost' \(coût\): card 'Golem' has no value; the logistics "
                                                r"play model needs the cost of every Unité and Stratégie"):
            model(deck)

    def test_cost_not_a_whole_number(self):
        for bad, shown in (("trois", "'trois'"), (1.5, "1.5"), (-1, "-1")):
            deck = deck_of([("Golem", 2, "Unité", bad), ("Grenier", 4, "Logistique", None)])
            with pytest.raises(DeckstatError, match=f"card 'Golem' has {shown};.*as a whole number of at least 0"):
                model(deck)
        whole_numbers = Deck.from_table([{"name": "Golem", "type": "Unité", "cost": -2},
                                         {"name": "Bluff", "type": "Stratégie", "cost": 0}])
        with pytest.raises(DeckstatError, match="card 'Golem' has -2;"):
            model(whole_numbers)

    def test_no_cost_column(self):
        deck = Deck.from_table([{"name": "Golem", "type": "Unité"}, {"name": "Grenier", "type": "Logistique"}])
        with pytest.raises(DeckstatError, match=r"column 'cost' \(coût\) is missing"):
            model(deck)

    def test_logistique_without_production_when_the_column_exists(self):
        deck = deck_of([("Golem", 2, "Unité", 4, None), ("Grenier", 4, "Logistique", None, None),
                        ("Moulin", 2, "Logistique", None, 2)])
        with pytest.raises(DeckstatError, match=r"column 'logistics' \(logistique\): card 'Grenier' has no value; "
                                                r"the logistics play model needs the production of every "
                                                r"Logistique card \(or no column at all"):
            model(deck)

    def test_card_of_another_type(self):
        deck = deck_of([("Golem", 2, "Unité", 4), ("Boule de feu", 1, "Sort", 2)])
        with pytest.raises(DeckstatError, match=r"column 'type': card 'Boule de feu' has type 'Sort'; .*Unité, "
                                                r"Logistique and Stratégie"):
            model(deck)
        untyped = Deck.from_table([{"name": "Golem", "cost": 4}])
        with pytest.raises(DeckstatError, match="card 'Golem' has no value"):
            model(untyped)

    @pytest.mark.parametrize(("settings", "words"), [
        ({"logistics_per_turn": 0}, "'logistics_per_turn' must be a whole number of at least 1 or \"any\", got 0"),
        ({"logistics_per_turn": "beaucoup"}, "got 'beaucoup'"),
        ({"warehouse_points": -1}, "'warehouse_points' must be a whole number of at least 0, got -1"),
        ({"peasants": 3}, "'peasants' must be a group"),
        ({"logistic_per_turn": 2}, "unknown setting 'logistic_per_turn'"),
    ])
    def test_bad_settings(self, settings, words):
        with pytest.raises(DeckstatError, match=words.replace("(", r"\(").replace(")", r"\)")):
            LogisticsModel(SMALL, PANDREA, settings={**SETTINGS, **settings})

    def test_unknown_policy(self):
        with pytest.raises(DeckstatError, match="unknown policy 'spend' for the logistics play model; expected one "
                                                "of target, peasant"):
            model(SMALL, "spend")


def test_english_types_and_illimite_spelling():
    deck = Deck.from_table([{"name": "Golem", "count": 2, "type": "Unit", "cost": 2},
                            {"name": "Barn", "count": 4, "type": "Logistics"}]).with_synonyms(PANDREA.synonyms)
    hand, library = game(deck, ["Golem", "Barn", "Barn", "Golem", "Golem"], ["Barn"] * 3)
    assert first_turn(model(deck, logistics_per_turn="illimité"), hand, library, "Golem") == 1


def test_profile_names_the_model_and_the_sample_decks_work():
    assert PANDREA.play_model.kind == "logistics" == LogisticsModel.kind
    assert PANDREA.play_model.policy == LogisticsModel.default_policy
    for deck in (SAMPLE, LOGISTICS):
        hand, library = deal(deck, 2000, seed=5)
        sched = schedule(PANDREA, "second", 8, library.shape[0])
        first = model(deck).first_turns(hand, library, sched, [deck.mask("[type=Unité]")])[0]
        curve = [(first <= t).mean() for t in range(1, 9)]
        assert all(0 <= p <= 1 for p in curve) and curve == sorted(curve) and curve[-1] > 0.9
    assert model(LOGISTICS).production[LOGISTICS.names.index("Caravane de Ravitaillement")] == 3
