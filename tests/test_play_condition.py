"""The Joueur du Grenier condition model: hand-made games, an independent slow simulator, exact reductions, errors."""

from __future__ import annotations

import math
from itertools import combinations, product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import deckstat
from deckstat import load_deck
from deckstat.deck import Deck
from deckstat.engines.kernel import deal_order
from deckstat.errors import DeckstatError
from deckstat.games.profiles import get_profile
from deckstat.play.base import schedule
from deckstat.play.condition import ConditionModel, parse_condition
from deckstat.text import fold
from tests.helpers import sample_deck, z_for

PROFILE = get_profile("jdg")

# A small deck whose games are worked out by hand: (name, type, condition).
CARDS = [
    ("Robot", "INVOCATION", "sacrifice: 2"),            # 0
    ("Soucoupe", "INVOCATION", "TERRAIN: Station"),     # 1
    ("Station", "TERRAIN", ""),                         # 2
    ("Arcade", "TERRAIN", ""),                          # 3
    ("F1", "INVOCATION", ""),                           # 4
    ("F2", "INVOCATION", ""),                           # 5
    ("F3", "Summon", ""),                               # 6 (English type)
    ("F4", "INVOCATION", ""),                           # 7
    ("Gant", "EQUIPEMENT", ""),                         # 8
    ("Reset", "CONTRE", ""),                            # 9
    ("Pilote", "INVOCATION", "TERRAIN et sacrifier 1"),  # 10
    ("Ecran", "EFFET", "terrain : arcade"),             # 11
    ("Glitch", "INVOCATION", "Terrain"),                # 12
]


def small_deck(cards=CARDS) -> Deck:
    table = [{"name": n, "count": 1, "type": t, "condition": c} for n, t, c in cards]
    return Deck.from_table(table).with_synonyms(PROFILE.synonyms)


def model(deck: Deck, policy: str = "") -> ConditionModel:
    return ConditionModel(deck, PROFILE, policy=policy, settings=PROFILE.play_model.settings)


def rows_mask(deck: Deck, *names: str) -> np.ndarray:
    return np.isin(np.array(deck.names), names)


def first_turns(deck, hand, library, targets, max_turn, policy=""):
    hand = np.array(hand, dtype=np.int16).reshape(-1, 1)
    library = np.array(library, dtype=np.int16).reshape(-1, 1)
    sched = schedule(PROFILE, "first", max_turn, library.shape[0])
    return model(deck, policy).first_turns(hand, library, sched, targets)[:, 0].tolist()


@pytest.mark.parametrize("hand, library, expected", [
    # Two condition-free INVOCATIONs in hand feed Robot's sacrifice; Station is held for Soucoupe; Arcade
    # (drawn turn 1) is the TERRAIN Ecran needs; Pilote takes the lowest TERRAIN held (Station) and F1.
    ([4, 5, 2, 9, 8], [3, 0, 1, 6, 7, 10, 11, 12],
     {"Robot": 2, "Soucoupe": 3, "Station": 1, "Arcade": 1, "F1": 1, "Gant": 1, "Reset": 1, "Pilote": 6,
      "Ecran": 7, "Glitch": 8, ("Soucoupe", "Ecran"): 3}),
    # Arcade arrives first: Soucoupe's policy leaves the slot for Station (turn 2); a group wanting both
    # TERRAINs plays Arcade on turn 1, which blocks Soucoupe for good.
    ([4, 5, 6, 7, 12], [3, 2, 0, 1, 8, 9, 10, 11],
     {"Glitch": 1, "Robot": 3, "Soucoupe": 4, ("Soucoupe", "Arcade"): 1, ("Soucoupe", "Ecran"): 8, "Gant": 5,
      "Ecran": 8}),
    # No INVOCATION to sacrifice before turn 5; the TERRAINs arrive on turns 3 and 4. Robot needs no TERRAIN, so
    # under target the slot takes Station (turn 3) to sacrifice it: with F1 and the Gant under it, turn 5;
    # under tribute it waits for a second INVOCATION (turn 6).
    ([0, 1, 8, 10, 9], [11, 12, 2, 3, 4, 5, 6, 7],
     {"Robot": (5, 6), "Gant": 5, "Pilote": 5, "Reset": 1, "Soucoupe": 3, "Ecran": 4, "F4": 8, "Glitch": 3}),
])
@pytest.mark.parametrize("policy", ["target", "tribute"])
def test_hand_made_games(hand, library, expected, policy):
    deck = small_deck()
    keys = list(expected)
    targets = [rows_mask(deck, *(k if isinstance(k, tuple) else (k,))) for k in keys]
    got = first_turns(deck, hand, library, targets, max_turn=8, policy=policy)
    wanted = {k: v[policy == "tribute"] if isinstance(v, tuple) else v for k, v in expected.items()}
    assert dict(zip(keys, got)) == wanted


# Robot 0, Station 2, Arcade 3, F1 4, F2 5, Gant 8, Reset 9; Boost 13 (a condition-free EFFET) and Casque 14 (an
# EQUIPEMENT asking for a sacrifice).
MORE = CARDS + [("Boost", "EFFET", ""), ("Casque", "EQUIPEMENT", "sacrifice: 1")]


@pytest.mark.parametrize("hand, library, target, by_policy", [
    # « le sacrifice d'une ou plusieurs cartes »: Station (Robot needs no TERRAIN), F1 and Boost played from hand
    # make two sacrifices on turn 1; INVOCATIONs alone (tribute) wait for F2 on turn 3.
    ([0, 2, 13, 9, 4], [8, 3, 5, 1, 6, 7, 10, 11, 12, 14], "Robot", {"target": 1, "tribute": 3}),
    # The Gant under F1 is a card in play too: F1 and the Gant pay Robot on turn 1, when the Gant comes.
    ([0, 4, 9, 1, 10], [8, 11, 5, 2, 3, 6, 7, 12, 13, 14], "Robot", {"target": 1, "tribute": 3}),
    # An EQUIPEMENT asking for a sacrifice keeps F1 to go under; Boost is the sacrifice. Under tribute it needs a
    # second INVOCATION (F2, turn 2).
    ([14, 4, 2, 13, 9], [3, 5, 0, 1, 6, 7, 8, 10, 11, 12], "Casque", {"target": 1, "tribute": 2}),
    # Without Boost, Station is no sacrifice for Casque: destroying the TERRAIN would send F1, its carrier, to the
    # bin (« toutes les autres cartes présentes le terrain qui y est associé vont à la poubelle jaune »).
    ([14, 4, 2, 9, 3], [11, 5, 0, 1, 6, 7, 8, 10, 12, 13], "Casque", {"target": 2, "tribute": 2}),
])
def test_what_a_sacrifice_takes(hand, library, target, by_policy):
    deck = small_deck(MORE)
    for policy, expected in by_policy.items():
        assert first_turns(deck, hand, library, [rows_mask(deck, target)], 6, policy) == [expected], policy


def test_a_full_field_keeps_a_slot_for_the_target():
    # Four condition-free INVOCATIONs in hand: Glitch (any TERRAIN, no sacrifice) still finds a slot on
    # turn 2, when the TERRAIN comes; a card needing 4 sacrifices uses all four.
    cards = CARDS + [("Titan", "INVOCATION", "sacrifice 4")]
    deck = small_deck(cards)
    targets = [rows_mask(deck, "Glitch"), rows_mask(deck, "Titan"), rows_mask(deck, "Titan", "Glitch")]
    got = first_turns(deck, [4, 5, 6, 7, 12], [13, 3, 0, 1, 2, 8, 9, 10, 11], targets, max_turn=9)
    # The group keeps a slot for Glitch, so Titan never has its four tributes; Glitch is playable on turn 2.
    assert got == [2, 1, 2]
    assert first_turns(deck, [4, 5, 6, 7, 12], [13, 3, 0, 1, 2, 8, 9, 10, 11], targets, 9, "tribute") == [2, 1, 2]


def test_nothing_playable_is_never():
    deck = small_deck()
    # Robot's sacrifices never come within 3 turns.
    got = first_turns(deck, [0, 1, 2, 3, 8], [9, 10, 11, 4, 12, 5, 6, 7], [rows_mask(deck, "Robot")], max_turn=3)
    assert got == [4]


def test_english_spellings_read_the_same():
    assert parse_condition("TERRAIN: Station and sacrifice 2") == parse_condition("terrain = station et sacrifier: 2")
    assert parse_condition("any terrain") == parse_condition("TERRAIN")
    assert parse_condition("2 cartes") is None


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_characters=";"), max_size=20).filter(
    lambda s: s.strip() and " et " not in s and " and " not in s), st.integers(0, 4))
def test_any_terrain_name_and_sacrifice_read_back(name, n):
    parsed = parse_condition(f"TERRAIN: {name} ; sacrifice: {n}")
    if fold(name):
        assert parsed is not None and parsed.terrain == fold(name) and parsed.sacrifices == n


# ----------------------------------------------------------------- independent slow simulator

_SACRIFICE_CHECKS: dict[tuple, bool] = {}


def can_sacrifice(kind: str, n: int, field: tuple, policy: str) -> bool:
    """Whether ``n`` cards of ``field`` can be sacrificed so that a card of type ``kind`` is then played.

    ``field`` lists the cards the player could sacrifice, by what they are: ``("I", k)`` the k-th INVOCATION in play,
    ``("E", k)`` an EQUIPEMENT under INVOCATION k, ``"F"`` an EFFET played from hand for it, ``"T"`` the TERRAIN in
    the slot. Every set of ``n`` of them is tried, as the rules text words it: « le sacrifice d'une ou plusieurs
    cartes » (under ``tribute``, INVOCATIONs only). After the sacrifice an INVOCATION needs a free slot of the 4;
    an EQUIPEMENT an INVOCATION left without an EQUIPEMENT, and no TERRAIN destroyed, since « lorsqu'une carte
    TERRAIN est détruite, toutes les autres cartes présentes le terrain qui y est associé vont à la poubelle jaune ».
    """
    key = (kind, n, field, policy)
    if key in _SACRIFICE_CHECKS:
        return _SACRIFICE_CHECKS[key]
    usable = [c for c in field if policy == "target" or (isinstance(c, tuple) and c[0] == "I")]
    ok = False
    for chosen in combinations(range(len(usable)), n):
        gone = [usable[i] for i in chosen]
        left = [c for i, c in enumerate(usable) if i not in chosen]
        invocations = [c[1] for c in left if isinstance(c, tuple) and c[0] == "I"]
        carrying = {c[1] for c in left if isinstance(c, tuple) and c[0] == "E"}
        if "T" in gone:
            invocations, carrying = [], set()  # the TERRAIN's field goes to the bin with it
        if kind == "INVOCATION" and len(invocations) >= 4:
            continue
        if kind == "EQUIPEMENT" and ("T" in gone or not [i for i in invocations if i not in carrying]):
            continue
        ok = True
        break
    _SACRIFICE_CHECKS[key] = ok
    return ok


def slow_first_turn(types, needs, hand, library, drawn, max_turn, target, policy="target"):
    """Follow the policy as docs/play/jdg.md words it, one game, plain Python.

    ``types``: card type per row; ``needs``: per row (terrain rows or None or "any", sacrifices).
    """
    n_rows = len(types)
    terrains = [r for r in range(n_rows) if types[r] == "TERRAIN"]
    wanted = set(r for r in target if types[r] == "TERRAIN")
    for r in target:
        terrain, _ = needs[r]
        if terrain == "any":
            wanted |= set(terrains)
        elif terrain is not None:
            wanted |= set(terrain)
    # With no TERRAIN to wait for, the slot takes any TERRAIN, to be sacrificed (policy target).
    slot_takes = wanted if wanted or policy == "tribute" else set(terrains)
    keep_slot = any(types[r] == "INVOCATION" and needs[r][1] == 0 for r in target)
    cap = 3 if keep_slot else 4
    keep_carrier = any(types[r] == "EQUIPEMENT" for r in target)
    in_hand = list(hand)
    slot = None
    field = []  # INVOCATIONs in play
    under = []  # EQUIPEMENTs in play, each under one INVOCATION
    for turn in range(1, max_turn + 1):
        if turn > 1 and drawn[turn - 1] >= len(library):
            break
        in_hand += list(library[drawn[turn - 1]:drawn[turn]])
        if slot is None:
            held = sorted(r for r in in_hand if r in slot_takes)
            if held:
                slot = held[0]
                in_hand.remove(slot)
                if slot in target:
                    return turn
        for r in sorted(in_hand):
            free = types[r] == "INVOCATION" and needs[r] == (None, 0)
            if free and r not in target and len(field) < cap:
                field.append(r)
                in_hand.remove(r)
        if policy == "target":
            for r in sorted(in_hand):
                free = types[r] == "EQUIPEMENT" and needs[r] == (None, 0)
                if free and r not in target and len(under) < len(field) - (1 if keep_carrier else 0):
                    under.append(r)
                    in_hand.remove(r)
        effets = [r for r in in_hand if types[r] == "EFFET" and needs[r] == (None, 0) and r not in target][:4]
        offer = tuple([("I", k) for k in range(len(field))] + [("E", k) for k in range(len(under))]
                      + ["F"] * len(effets) + (["T"] if slot is not None and not wanted else []))
        for r in in_hand:
            if r not in target or types[r] == "TERRAIN":
                continue  # a TERRAIN target is played into the slot above, or not at all
            terrain, sacrifices = needs[r]
            if terrain == "any" and slot is None:
                continue
            if terrain not in (None, "any") and slot not in terrain:
                continue
            if can_sacrifice(types[r], sacrifices, offer, policy):
                return turn
    return max_turn + 1


# The sample deck with conditions, as its condition column reads (written out here by hand).
SAMPLE_NEEDS = {
    "Robot Géant en Carton": (None, 2),
    "Soucoupe Rouillée": (("Station Orbitale Bon Marché",), 0),
    "Joystick Possédé": (("Salle d'Arcade Enfumée",), 0),
    "Pilote Clignotant": ("any", 1),
    "Samouraï Pixelisé": (None, 1),
    "Kaiju de Poche": (("Studio de Doublage Raté",), 1),
}


def sample_setup():
    deck = PROFILE.drawn_deck(load_deck(sample_deck("jdg", "conditions_deck.csv"))).with_synonyms(PROFILE.synonyms)
    names = deck.names
    types = [str(t).upper() for t in deck.cards["type"]]
    needs = []
    for name in names:
        terrain, sacrifices = SAMPLE_NEEDS.get(name, (None, 0))
        if isinstance(terrain, tuple):
            terrain = tuple(names.index(t) for t in terrain)
        needs.append((terrain, sacrifices))
    return deck, types, needs


@pytest.mark.parametrize(("seat", "policy"), [("first", "target"), ("second", "target"), ("first", "tribute")])
def test_vectorised_model_follows_the_slow_simulator(seat, policy):
    deck, types, needs = sample_setup()
    n_rows = len(deck.cards)
    rng = np.random.default_rng(20261201)
    n = 1500
    deal = deal_order(deck.counts, np.zeros((n_rows, 0), np.int8), n, rng, hand_size=PROFILE.hand_size,
                      set_aside=PROFILE.set_aside)
    library_size = deal["library"].shape[0]
    sched = schedule(PROFILE, seat, 12, library_size)
    groups = [[r] for r in range(n_rows)]
    names = deck.names
    groups += [[names.index("Soucoupe Rouillée"), names.index("Joystick Possédé")],
               [names.index("Robot Géant en Carton"), names.index("Super Moustache Man")],
               [names.index("Kaiju de Poche"), names.index("Pilote Clignotant"),
                names.index("Gant de Puissance Douteux")],
               [names.index("Salle d'Arcade Enfumée"), names.index("Soucoupe Rouillée")]]
    targets = [np.isin(np.arange(n_rows), g) for g in groups]
    fast = model(deck, policy).first_turns(deal["hand"], deal["library"], sched, targets)
    drawn = sched.drawn.tolist()
    for k, group in enumerate(groups):
        slow = [slow_first_turn(types, needs, deal["hand"][:, i].tolist(), deal["library"][:, i].tolist(), drawn,
                                12, set(group), policy) for i in range(n)]
        assert fast[k].tolist() == slow, [names[r] for r in group]


# ----------------------------------------------------------------- reductions against the exact law

def exact_probability(deck: Deck, sets, holds, seen: int) -> float:
    """P(holds) over the counts of disjoint ``sets`` among ``seen`` cards dealt from ``deck`` (enumeration)."""
    counts = deck.counts
    sizes = [int(counts[s].sum()) for s in sets]
    rest = int(counts.sum()) - sum(sizes)
    total = math.comb(int(counts.sum()), seen)
    probability = 0.0
    for drawn in product(*(range(min(size, seen) + 1) for size in sizes)):
        left = seen - sum(drawn)
        if left < 0 or left > rest:
            continue
        if bool(holds([np.array(c) for c in drawn])):
            probability += math.prod(math.comb(s, c) for s, c in zip(sizes, drawn)) * math.comb(rest, left)
    return probability / total


@pytest.mark.parametrize("policy", ["target", "tribute"])
def test_reductions_agree_with_the_model(policy):
    deck, _, _ = sample_setup()
    n_rows = len(deck.cards)
    m = model(deck, policy)
    names = deck.names
    targets = [np.arange(n_rows) == r for r in range(n_rows)]
    targets.append(np.isin(np.array(names), ["Super Moustache Man", "Capitaine Slip", "Salle d'Arcade Enfumée"]))
    reductions = [m.reduction(t) for t in targets]
    assert all(r is not None for r in reductions)
    # Every set a reduction reads is disjoint from the others (the enumeration below needs it).
    for r in reductions:
        assert sum(s.astype(int) for s in r.sets).max() == 1
    rng = np.random.default_rng(7)
    n = 20_000
    deal = deal_order(deck.counts, np.zeros((n_rows, 0), np.int8), n, rng, hand_size=PROFILE.hand_size,
                      set_aside=PROFILE.set_aside)
    max_turn = 6
    sched = schedule(PROFILE, "first", max_turn, deal["library"].shape[0])
    first = m.first_turns(deal["hand"], deal["library"], sched, targets)
    z = z_for(len(targets) * max_turn)
    for k, reduction in enumerate(reductions):
        for turn in range(1, max_turn + 1):
            seen = PROFILE.hand_size + int(sched.drawn[turn])
            exact = exact_probability(deck, reduction.sets, reduction.holds, seen)
            simulated = float((first[k] <= turn).mean())
            tolerance = z * math.sqrt(max(exact * (1 - exact), 1 / n) / n)
            assert abs(simulated - exact) <= tolerance, (reduction.text, turn, simulated, exact)


def test_a_reduction_by_hand():
    # Under tribute Robot needs 2 of the 10 condition-free INVOCATIONs among the 6 cards of turn 1.
    deck, _, _ = sample_setup()
    robot = rows_mask(deck, "Robot Géant en Carton")
    reduction = model(deck, "tribute").reduction(robot)
    assert reduction.text == "Robot Géant en Carton >= 1 and condition-free INVOCATION >= 2"
    others = 29 - 10
    by_hand = sum(math.comb(10, k) * math.comb(others, 5 - k) for k in range(2, 6)) / math.comb(30, 6)
    assert exact_probability(deck, reduction.sets, reduction.holds, 6) == pytest.approx(by_hand)
    # Under target, any card in play: besides Robot the 29 cards are 10 condition-free INVOCATIONs, 3 EQUIPEMENTs
    # (each needs an INVOCATION to go under), 4 EFFETs, 4 TERRAINs (one slot: one at most counts), and 8 that give
    # nothing (5 INVOCATIONs with a condition, 3 CONTREs). Fewer than 2 sacrifices among the 5 others seen: none at
    # all (5 of the 8 or EQUIPEMENTs: 11 cards), one INVOCATION and none of EQUIPEMENT, EFFET or TERRAIN, one EFFET
    # and no INVOCATION nor TERRAIN, or TERRAINs only.
    fewer = (math.comb(11, 5) + 10 * math.comb(8, 4) + 4 * math.comb(11, 4)
             + sum(math.comb(4, k) * math.comb(11, 5 - k) for k in range(1, 5)))
    by_hand = (math.comb(29, 5) - fewer) / math.comb(30, 6)
    reduction = model(deck).reduction(robot)
    assert exact_probability(deck, reduction.sets, reduction.holds, 6) == pytest.approx(by_hand, abs=1e-12)
    curve = deckstat.curve(deck, "jdg", cards="Robot Géant en Carton", turns=[1], seat="first")
    assert curve.table["method"].iloc[0] == "exact" and curve.table["p"].iloc[0] == pytest.approx(by_hand, abs=1e-12)
    soucoupe = model(deck).reduction(rows_mask(deck, "Soucoupe Rouillée"))
    assert soucoupe.text == "Soucoupe Rouillée >= 1 and Station Orbitale Bon Marché >= 1"
    assert exact_probability(deck, soucoupe.sets, soucoupe.holds, 6) == pytest.approx(
        math.comb(28, 4) / math.comb(30, 6))


def test_sample_deck_without_conditions():
    deck = PROFILE.drawn_deck(load_deck(sample_deck("jdg"))).with_synonyms(PROFILE.synonyms)
    m = model(deck)
    rng = np.random.default_rng(3)
    deal = deal_order(deck.counts, np.zeros((len(deck.cards), 0), np.int8), 20_000, rng,
                      hand_size=PROFILE.hand_size, set_aside=0)
    sched = schedule(PROFILE, "second", 8, deal["library"].shape[0])
    first = m.first_turns(deal["hand"], deal["library"], sched, [deck.mask("TERRAIN"), deck.mask("EQUIPEMENT")])
    cdf = np.array([[(f <= t).mean() for t in range(1, 9)] for f in first])
    assert np.all(np.diff(cdf, axis=1) >= 0) and np.all((cdf >= 0) & (cdf <= 1))
    # Any of 4 TERRAINs among the 6 cards of turn 1: 1 - C(26, 6) / C(30, 6).
    exact = 1 - math.comb(26, 6) / math.comb(30, 6)
    assert abs(cdf[0, 0] - exact) <= z_for(1) * math.sqrt(exact * (1 - exact) / 20_000)


# ----------------------------------------------------------------- errors

@pytest.mark.parametrize("cards, words", [
    ([("A", "INVOCATION", "deux cartes")], ["column 'condition'", "'A'", "'deux cartes'", "TERRAIN: <card name>"]),
    ([("A", "INVOCATION", "TERRAIN: Nulle Part"), ("Station", "TERRAIN", "")],
     ["card 'A'", "'nulle part'", "not in the deck", "Station"]),
    ([("A", "INVOCATION", "TERRAIN: B"), ("B", "EFFET", "")], ["card 'A'", "not a TERRAIN"]),
    ([("Station", "TERRAIN", "sacrifice: 1")], ["card 'Station'", "is a TERRAIN with a condition"]),
    ([("A", "INVOCATION", "sacrifice: 14")], ["card 'A'", "14 sacrifices", "at most 13 cards"]),
    ([("A", "Piège", "")], ["column 'type'", "card 'A'", "'Piège'", "INVOCATION, EFFET"]),
    ([("A", "INVOCATION", "TERRAIN: B; TERRAIN: C"), ("B", "TERRAIN", ""), ("C", "TERRAIN", "")],
     ["card 'A'", "expected"]),
])
def test_errors_name_the_column_the_card_and_the_forms(cards, words):
    with pytest.raises(DeckstatError) as error:
        model(small_deck(cards))
    message = str(error.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message


def test_more_sacrifices_than_invocations_is_refused_under_tribute():
    with pytest.raises(DeckstatError, match="card 'A' asks for 5 sacrifices; a field holds at most 4 INVOCATIONs"):
        model(small_deck([("A", "INVOCATION", "sacrifice: 5")]), "tribute")
    assert model(small_deck([("A", "INVOCATION", "sacrifice: 5")])).sacrifices.tolist() == [5]


def test_a_deck_without_the_column_has_no_conditions():
    deck = Deck.from_table([{"name": "A", "type": "INVOCATION"}, {"name": "B", "type": "Equipment"}])
    m = model(deck.with_synonyms(PROFILE.synonyms))
    assert m.sacrifices.tolist() == [0, 0] and not m.needs_terrain.any()
