"""The exact engine against scipy.stats, hand-derived formulas and full enumeration."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import hypergeom, multivariate_hypergeom

import deckstat
from deckstat.engines import exact
from deckstat.engines.cells import partition
from deckstat.events import evaluate, groups_of, parse_event, parse_group
from deckstat.games.profiles import parse_profile
from deckstat.questions._setup import compile_events

TIGHT = 1e-12


def make_profile(*, hand_size=5, set_aside=0, mulligan="none", keep=None, first=1, second=1, per_turn=1):
    play = {"hand_size": hand_size, "set_aside": set_aside, "mulligan": mulligan,
            "first_turn_draw": {"first": first, "second": second}, "draws_per_turn": per_turn}
    if keep is not None:
        play["keep"] = keep
    return parse_profile({"id": "test", "name": "Test", "card_types": ["Terrain", "Personnage"],
                          "decks": [{"id": "main", "rules": []}], "play": play}, where="test profile")


def wankul_like(terrains=10, low=15, high=25):
    return deckstat.Deck.from_table([
        {"name": "Terrain A", "count": terrains, "type": "Terrain"},
        {"name": "Petit", "count": low, "type": "Personnage", "cost": 1},
        {"name": "Gros", "count": high, "type": "Personnage", "cost": 3},
    ])


def p_of(result, turn, seat="first"):
    table = result.table
    row = table[(table["turn"] == turn) & (table["seat"] == seat)]
    assert len(row) == 1
    return float(row["p"].iloc[0])


# --- single group, no mulligan: hypergeometric ---------------------------------------------------

@pytest.mark.parametrize("terrains", [1, 5, 10, 12, 20])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_seen_matches_hypergeom(terrains, k):
    deck = wankul_like(terrains, 15, 35 - terrains)
    result = deckstat.odds(deck, "wankul", f"Terrain>={k}", turns=range(11), mulligan=False, seat="first")
    for t in range(11):
        expected = hypergeom(M=50, n=terrains, N=5 + t).sf(k - 1)
        assert p_of(result, t) == pytest.approx(expected, abs=TIGHT)


@pytest.mark.parametrize("op,ref", [
    ("==", lambda d, k: d.pmf(k)), ("<=", lambda d, k: d.cdf(k)), ("<", lambda d, k: d.cdf(k - 1)),
    (">", lambda d, k: d.sf(k)), ("!=", lambda d, k: 1 - d.pmf(k)),
])
def test_every_comparison_matches_hypergeom(op, ref):
    deck = wankul_like()
    result = deckstat.odds(deck, "wankul", f"Terrain{op}2", turns=range(6), mulligan=False, seat="first")
    for t in range(6):
        assert p_of(result, t) == pytest.approx(ref(hypergeom(M=50, n=10, N=5 + t), 2), abs=TIGHT)


def test_disjoint_groups_match_multivariate_hypergeom():
    deck = wankul_like(10, 15, 25)
    result = deckstat.odds(deck, "wankul", "Terrain>=1 and [cost<=1]>=2", turns=range(8), mulligan=False,
                          seat="first")
    for t in range(8):
        n = 5 + t
        dist = multivariate_hypergeom(m=[10, 15, 25], n=n)
        expected = sum(dist.pmf([a, b, n - a - b]) for a in range(1, 11) for b in range(2, 16)
                       if 0 <= n - a - b <= 25)
        assert p_of(result, t) == pytest.approx(expected, abs=TIGHT)


def test_overlapping_groups_are_exact():
    # A card can be both a Terrain and cost<=1: four disjoint cells.
    deck = deckstat.Deck.from_table([
        {"name": "Terrain bon marché", "count": 4, "type": "Terrain", "cost": 0},
        {"name": "Terrain", "count": 6, "type": "Terrain"},
        {"name": "Petit", "count": 12, "type": "Personnage", "cost": 1},
        {"name": "Gros", "count": 28, "type": "Personnage", "cost": 3},
    ])
    result = deckstat.odds(deck, "wankul", "Terrain>=2 and [cost<=1]>=2", turns=range(6), mulligan=False,
                          seat="first")
    cells = [4, 6, 12, 28]  # T&C, T only, C only, neither
    for t in range(6):
        n = 5 + t
        dist = multivariate_hypergeom(m=cells, n=n)
        expected = 0.0
        for both, t_only, c_only in itertools.product(range(5), range(7), range(13)):
            rest = n - both - t_only - c_only
            if 0 <= rest <= 28 and both + t_only >= 2 and both + c_only >= 2:
                expected += dist.pmf([both, t_only, c_only, rest])
        assert p_of(result, t) == pytest.approx(expected, abs=TIGHT)


@pytest.mark.parametrize("k", [1, 3])
def test_when_matches_hypergeom(k):
    deck = wankul_like()
    max_turn = 12
    result = deckstat.when(deck, "wankul", f"Terrain>={k}", max_turn=max_turn, seat="first", mulligan=False)
    table = result.table
    assert list(table["turn"]) == list(range(max_turn + 1)) and (table["method"] == "exact").all()
    cdf = np.array([hypergeom(M=50, n=10, N=5 + t).sf(k - 1) for t in range(max_turn + 1)])
    np.testing.assert_allclose(table["cdf"], cdf, atol=TIGHT)
    np.testing.assert_allclose(table["p"], np.diff(cdf, prepend=0.0), atol=TIGHT)
    [summary] = result.summary.to_dict("records")
    assert summary["p_never"] == pytest.approx(1 - cdf[-1], abs=TIGHT)
    pmf = np.diff(cdf, prepend=0.0)
    assert summary["mean_turn"] == pytest.approx(float(np.arange(max_turn + 1) @ pmf / cdf[-1]), abs=1e-9)
    assert summary["median_turn"] == int(np.argmax(cdf >= 0.5))


# --- Wankul mulligan: hand-derived ------------------------------------------------------------------

def test_wankul_mulligan_opening_hand():
    deck = wankul_like()
    result = deckstat.odds(deck, "wankul", "Terrain>=1", turns=[0, 1, 5], seat="first")
    p_keep = hypergeom(M=50, n=10, N=5).sf(0)
    assert result.summary["p_keep_first"].iloc[0] == pytest.approx(p_keep, abs=TIGHT)
    for t in (0, 1, 5):
        # Mulligan: the 5 go under the deck (no Terrain among them); 5 + t new cards from the other 45.
        expected = p_keep + (1 - p_keep) * hypergeom(M=45, n=10, N=5 + t).sf(0)
        assert p_of(result, t) == pytest.approx(expected, abs=TIGHT)


def test_wankul_mulligan_event_differs_from_keep_rule():
    deck = wankul_like()
    result = deckstat.odds(deck, "wankul", "Terrain>=2", turns=range(6), seat="second")
    first_hand = hypergeom(M=50, n=10, N=5)
    for t in range(6):
        expected = first_hand.pmf(0) * hypergeom(M=45, n=10, N=5 + t).sf(1)
        for x in range(1, 6):
            # Kept with x Terrains; t draws from the other 45 cards, 10 - x of them Terrains.
            expected += first_hand.pmf(x) * hypergeom(M=45, n=10 - x, N=t).sf(1 - x)
        assert p_of(result, t, "second") == pytest.approx(expected, abs=TIGHT)


def test_custom_keep_rule_over_two_groups():
    deck = wankul_like(10, 15, 25)
    keep = "Terrain>=1 and [cost<=1]>=1"
    result = deckstat.odds(deck, "wankul", "Terrain>=1", turns=[0, 3], keep=keep, seat="first")
    dist = multivariate_hypergeom(m=[10, 15, 25], n=5)
    hands = [(a, b, 5 - a - b) for a in range(6) for b in range(6 - a)]
    p_keep = sum(dist.pmf(list(h)) for h in hands if h[0] >= 1 and h[1] >= 1)
    assert result.summary["p_keep_first"].iloc[0] == pytest.approx(p_keep, abs=TIGHT)
    for t in (0, 3):
        expected = 0.0
        for a, b, c in hands:
            weight = dist.pmf([a, b, c])
            if a >= 1 and b >= 1:
                expected += weight
            else:
                expected += weight * hypergeom(M=45, n=10 - a, N=5 + t).sf(0)
        assert p_of(result, t) == pytest.approx(expected, abs=TIGHT)


def test_no_mulligan_flag_and_profile_without_mulligan_agree():
    deck = wankul_like()
    a = deckstat.odds(deck, "wankul", "Terrain>=1", mulligan=False)
    b = deckstat.odds(deck, make_profile(), "Terrain>=1")
    np.testing.assert_allclose(a.table["p"], b.table["p"], atol=TIGHT)


# --- Duel Masters: shields and the first player's skipped draw --------------------------------------

def dm_deck():
    return deckstat.Deck.from_table([
        {"name": "Déclencheur", "count": 8, "type": "Sort", "civilization": "Feu", "shield_trigger": 1},
        {"name": "Dragon rouge", "count": 12, "type": "Créature", "civilization": "Feu", "shield_trigger": 0},
        {"name": "Bête verte", "count": 20, "type": "Créature", "civilization": "Nature", "shield_trigger": 0},
    ])


def test_duel_masters_shields_zone():
    result = deckstat.odds(dm_deck(), "duel-masters", "[shield_trigger=1]>=1", zone="set_aside")
    assert list(result.table["turn"]) == [0, 0]
    assert p_of(result, 0) == pytest.approx(hypergeom(M=40, n=8, N=5).sf(0), abs=TIGHT)


def test_duel_masters_hand_after_shields_and_skipped_draw():
    result = deckstat.odds(dm_deck(), "duel-masters", "[civilization=Feu]>=2", turns=range(5))
    for t in range(5):
        for seat, draws in (("first", max(t - 1, 0)), ("second", t)):
            # The shields are 5 other cards of the shuffle: by exchangeability the hand and draws
            # are still a uniform sample of the 40.
            expected = hypergeom(M=40, n=20, N=5 + draws).sf(1)
            assert p_of(result, t, seat) == pytest.approx(expected, abs=TIGHT)


def test_turns_beyond_the_deck_are_refused():
    with pytest.raises(deckstat.DeckstatError, match="leaves 30 cards in the deck"):
        deckstat.odds(dm_deck(), "duel-masters", "[civilization=Feu]>=2", turns=[31])


# --- Full enumeration of tiny decks: every zone, mulligan, set-aside and wrap -------------------------

def distinct_orders(memberships):
    """Every distinct order of the deck, as tuples of card indices (equal cards are interchangeable).

    Orders of interchangeable cards are equally likely, so one representative of each suffices.
    """
    labels = [tuple(sorted(m.items())) for m in memberships]
    first_index = {label: labels.index(label) for label in labels}
    for order in sorted(set(itertools.permutations(labels))):
        yield tuple(first_index[label] for label in order)


def enumerate_odds(cards, event, keep, hand_size, set_aside, draws, zone):
    """P(event) by enumerating every order of a tiny deck of distinct cards, rules applied literally."""
    key_of = {parse_group("Terrain").key: "terrain", parse_group("[cost<=1]").key: "cheap"}
    memberships = [{key: card[name] for key, name in key_of.items()} for card in cards]
    event_tree = parse_event(event)
    keys = list(groups_of(event_tree))
    keep_tree = parse_event(keep) if keep else None
    keep_keys = list(groups_of(keep_tree)) if keep else []
    hits = total = 0
    for order in distinct_orders(memberships):
        aside = order[:set_aside]
        first = order[set_aside:set_aside + hand_size]
        kept = True
        if keep_tree is not None:
            counts = {k: sum(memberships[c][k] for c in first) for k in keep_keys}
            kept = bool(evaluate(keep_tree, counts))
        if kept:
            hand, library, bottom = first, order[set_aside + hand_size:], ()
        else:
            hand = order[set_aside + hand_size:set_aside + 2 * hand_size]
            library = order[set_aside + 2 * hand_size:] + first
            bottom = first
        drawn = library[:draws]
        zone_cards = {"seen": hand + drawn, "hand": hand, "set_aside": aside,
                      "bottom": bottom[max(0, draws - (len(library) - len(bottom))):]}[zone]
        counts = {k: sum(memberships[c][k] for c in zone_cards) for k in keys}
        hits += bool(evaluate(event_tree, counts))
        total += 1
    return hits / total


def engine_odds(memberships, event, keep, hand_size, set_aside, draws, zone):
    rows = [{"name": f"c{i}", "count": 1, "type": "Terrain" if m["terrain"] else "Personnage",
             "cost": 1 if m["cheap"] else 3} for i, m in enumerate(memberships)]
    deck = deckstat.Deck.from_table(rows)
    events = [parse_event(event)] + ([parse_event(keep)] if keep else [])
    compiled = compile_events(deck, events)
    p, _ = exact.zone_odds(compiled.cell_counts, compiled.cell_membership, compiled.conditions[0],
                           hand_size=hand_size, set_aside=set_aside, draws=[draws], zone=zone,
                           keep=compiled.conditions[1] if keep else None)
    return float(p[0])


TINY = [
    {"terrain": 1, "cheap": 0}, {"terrain": 1, "cheap": 1}, {"terrain": 0, "cheap": 1},
    {"terrain": 0, "cheap": 1}, {"terrain": 0, "cheap": 0}, {"terrain": 0, "cheap": 0},
    {"terrain": 1, "cheap": 0},
]


@pytest.mark.parametrize("zone", ["seen", "hand", "set_aside", "bottom"])
@pytest.mark.parametrize("set_aside", [0, 1])
def test_tiny_deck_against_enumeration(zone, set_aside):
    hand_size = 2
    drawable = len(TINY) - set_aside - hand_size
    for draws in range(drawable + 1):
        for event in ("Terrain>=1", "Terrain>=1 and [cost<=1]>=1", "not Terrain>=2 or [cost<=1]==1"):
            for keep in (None, "Terrain>=1", "[cost<=1]>=1 and Terrain<=1"):
                expected = enumerate_odds(TINY, event, keep, hand_size, set_aside, draws, zone)
                got = engine_odds(TINY, event, keep, hand_size, set_aside, draws, zone)
                assert got == pytest.approx(expected, abs=TIGHT), (zone, set_aside, draws, event, keep)


# --- Properties --------------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(terrains=st.integers(0, 20), others=st.integers(12, 40), k=st.integers(1, 4))
def test_probability_grows_with_turns(terrains, others, k):
    deck = wankul_like(max(terrains, 1), others // 2, others - others // 2)
    result = deckstat.odds(deck, make_profile(), f"Terrain>={k}", turns=range(6), seat="first")
    p = result.table["p"].to_numpy()
    assert np.all((p >= 0) & (p <= 1))
    assert np.all(np.diff(p) >= -TIGHT)


@settings(max_examples=40, deadline=None)
@given(copies=st.integers(1, 9), deck_size=st.integers(20, 60), turn=st.integers(0, 8))
def test_more_copies_never_lower_at_least_one(copies, deck_size, turn):
    def p_for(n):
        deck = wankul_like(n, 5, deck_size - n - 5)
        return p_of(deckstat.odds(deck, make_profile(), "Terrain>=1", turns=[turn], seat="first"), turn)

    assert p_for(copies + 1) >= p_for(copies) - TIGHT


@settings(max_examples=30, deadline=None)
@given(counts=st.lists(st.integers(1, 6), min_size=2, max_size=5), n=st.integers(0, 8))
def test_group_count_distribution_sums_to_one(counts, n):
    counts = np.array(counts)
    n = min(n, int(counts.sum()))
    membership = np.eye(len(counts), dtype=bool)[:, :1]  # one group: the first card
    cell_counts, cell_membership = partition(counts, membership)
    cap = n + 1
    weights = exact.segment_weights(cell_counts, cell_membership, [n], [exact.Tracker((0,), (0,), (cap,))])
    pmf = weights[n] / exact.total_ways(int(counts.sum()), [n])
    assert pmf.sum() == pytest.approx(1.0, abs=TIGHT)
    expected = hypergeom(M=int(counts.sum()), n=int(counts[0]), N=n).pmf(np.arange(cap + 1))
    np.testing.assert_allclose(pmf, expected, atol=TIGHT)


def test_total_ways_is_a_multinomial():
    assert exact.total_ways(10, [2, 3]) == math.factorial(10) / (2 * 6 * math.factorial(5))
