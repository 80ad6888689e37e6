"""Events on different cards: ``distinct(G)`` counts the different card names of a group, not its copies."""

from __future__ import annotations

import itertools
import math
import pickle
from collections import Counter

import numpy as np
import pytest
from helpers import DATA, SHARED_CARDDATA, assert_user_error, ok, ok_json, run, z_for
from hypothesis import given, settings
from hypothesis import strategies as st

import deckstat
from deckstat import Deck, ExpressionError, load_deck, parse_event
from deckstat.engines import exact
from deckstat.events import (
    And,
    AttributeGroup,
    Count,
    DistinctGroup,
    NameGroup,
    Not,
    Or,
    count_caps,
    evaluate,
    groups_of,
    to_text,
)
from deckstat.questions._setup import prepare


def distinct(group, op: str = ">=", n: int = 1) -> Count:
    return Count(DistinctGroup(NameGroup(group) if isinstance(group, str) else group), op, n)


# --------------------------------------------------------------------------- syntax

@pytest.mark.parametrize("text", ["distinct(Impro)>=2", "DISTINCT(Impro)>=2", "différentes(Impro)>=2",
                                  "differentes(Impro) >= 2", "Distinctes ( Impro )>=2"])
def test_spellings(text):
    assert parse_event(text) == distinct("Impro", ">=", 2)


def test_a_bare_distinct_means_at_least_one():
    assert parse_event("distinct(Impro)") == distinct("Impro", ">=", 1)


def test_groups_inside_and_composition():
    event = parse_event('distinct([cost<=1])>=3 and Terrain>=1 or not distinct("Grosse Bertha")')
    cheap = distinct(AttributeGroup("cost", "<=", 1.0), ">=", 3)
    assert event == Or((And((cheap, Count(NameGroup("Terrain"), ">=", 1))), Not(distinct("Grosse Bertha"))))


def test_plain_and_distinct_counts_of_one_group_are_two_keys():
    event = parse_event("Impro>=3 and distinct(Impro)>=2")
    assert list(groups_of(event)) == ["impro", "DISTINCT(impro)"]
    assert count_caps(event) == {"impro": 4, "DISTINCT(impro)": 3}
    # Three copies of one Impro: 3 cards, 1 name.
    assert not evaluate(event, {"impro": np.array(3), "DISTINCT(impro)": np.array(1)})
    assert evaluate(event, {"impro": np.array(3), "DISTINCT(impro)": np.array(2)})


def test_a_card_named_distinct_is_quoted():
    event = parse_event('"distinct">=1')
    assert event == Count(NameGroup("distinct"), ">=", 1)
    assert to_text(event) == '"distinct">=1'
    assert to_text(distinct("Distinct")) == 'distinct("Distinct")>=1'


@pytest.mark.parametrize(("text", "position", "wording"), [
    ("distinct Impro>=2", 10, "expected '(' after 'distinct', got 'Impro'"),
    ("différentes>=2", 12, "expected '(' after 'différentes'"),
    ("distinct(Impro", 15, "expected ')' to close the '(' at position 9, got the end"),
    ("distinct(Impro>=2)", 15, "expected ')' to close the '(' at position 9, got '>='"),
    ("distinct(distinct(Impro))>=2", 10, "distinct(...) inside distinct(...)"),
    ("distinct()>=2", 10, "expected a card group"),
    ("distinct(Impro and Terrain)", 16, "expected ')'"),
])
def test_errors_name_the_position(text, position, wording):
    with pytest.raises(ExpressionError) as info:
        parse_event(text)
    assert info.value.column == position
    assert wording in str(info.value)
    assert "\n" not in str(info.value)


def test_a_single_group_is_not_a_distinct_count():
    with pytest.raises(ExpressionError, match="counts different cards in an event; expected a single card group"):
        deckstat.parse_group("distinct(Terrain)")


GROUPS = [NameGroup("Impro"), NameGroup("Grosse Bertha"), NameGroup("distinct"), NameGroup("et"),
          AttributeGroup("cost", "<=", 1.0), AttributeGroup("race", "~=", "Dragon"), AttributeGroup("name", "~", "(x)")]
counted_st = st.one_of(st.sampled_from(GROUPS), st.sampled_from(GROUPS).map(DistinctGroup))
counts_st = st.builds(Count, counted_st, st.sampled_from([">=", "<=", ">", "<", "==", "!="]), st.integers(0, 5))
events_st = st.recursive(
    counts_st,
    lambda inner: st.one_of(inner.map(Not),
                            st.lists(inner, min_size=2, max_size=3).map(lambda items: And(tuple(items))),
                            st.lists(inner, min_size=2, max_size=3).map(lambda items: Or(tuple(items)))),
    max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(events_st)
def test_generated_events_with_distinct_terms_round_trip(event):
    assert parse_event(to_text(event)) == event


TOKENS = ["distinct", "différentes", "DISTINCTES", "(", ")", "Impro", "[cost<=1]", '"distinct"', ">=", "=", "2", " ",
          "and", "not", "or"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=12).map("".join))
def test_parse_never_raises_anything_else(text):
    try:
        event = parse_event(text)
    except ExpressionError as err:
        assert isinstance(err.column, int) and 1 <= err.column <= len(text) + 1
        return
    assert parse_event(to_text(event)) == event


# --------------------------------------------------------------------------- exact values by hand

def names_deck(names: int, copies: int, blanks: int) -> Deck:
    rows = [{"name": f"Impro {i}", "count": copies, "type": "Impro"} for i in range(names)]
    blank = [{"name": "Blanche", "count": blanks, "type": "Difficulté"}] if blanks else []
    return Deck.from_table(rows + blank)


def p_names(names: int, copies: int, blanks: int, cards: int, at_least: int) -> float:
    """P(at least ``at_least`` different names among ``cards`` cards), by inclusion-exclusion.

    The deck has ``names`` names of ``copies`` copies each, and ``blanks`` other cards.

    Hands in which exactly a given set of ``j`` names is present: choose the
    cards among those names and the blanks, minus those missing some of them.
    """
    total = math.comb(names * copies + blanks, cards)
    hits = 0
    for j in range(at_least, names + 1):
        exactly_these = sum((-1) ** i * math.comb(j, i) * math.comb(blanks + (j - i) * copies, cards)
                            for i in range(j + 1))
        hits += math.comb(names, j) * exactly_these
    return hits / total


def test_inclusion_exclusion_reference_by_hand():
    # 3 names x 2 copies + 10 blanks, 5 cards: at most one name = C(10,5) + 3 (C(12,5) - C(10,5)) = 1872 of 4368.
    assert p_names(3, 2, 10, 5, 2) == pytest.approx(1 - 1872 / 4368, abs=1e-15)
    # All three: C(16,5) - 3 C(14,5) + 3 C(12,5) - C(10,5) = 486.
    assert p_names(3, 2, 10, 5, 3) == pytest.approx(486 / 4368, abs=1e-15)


@pytest.mark.parametrize(("names", "copies", "blanks", "at_least"), [(3, 2, 10, 2), (3, 2, 10, 3), (5, 1, 20, 4),
                                                                     (4, 3, 8, 1), (6, 2, 0, 5), (6, 2, 0, 6)])
def test_exact_against_inclusion_exclusion(names, copies, blanks, at_least):
    deck = names_deck(names, copies, blanks)
    turns = list(range(0, 6))
    table = deckstat.odds(deck, "pandrea", f"distinct(Impro)>={at_least}", turns=turns, seat="first",
                          method="exact").table
    expected = [p_names(names, copies, blanks, 5 + t, at_least) for t in turns]
    np.testing.assert_allclose(table["p"], expected, rtol=0, atol=1e-12)


def test_zone_hand_and_exactly():
    deck = names_deck(3, 2, 10)
    p = deckstat.odds(deck, "pandrea", "distinct(Impro)=2", zone="hand", method="exact").table["p"].iloc[0]
    assert p == pytest.approx(p_names(3, 2, 10, 5, 2) - p_names(3, 2, 10, 5, 3), abs=1e-12)


# --------------------------------------------------------------------------- printings of one name

def brute_force(rows: list[dict], cards: int, holds) -> float:
    """P(holds) over every hand of ``cards`` cards, one card per copy (the deck is small)."""
    deck = [row for row in rows for _ in range(row["count"])]
    hands = list(itertools.combinations(range(len(deck)), cards))
    return sum(bool(holds([deck[i] for i in hand])) for hand in hands) / len(hands)


# "Élan" and "ELAN" fold alike; "Élan" has two printings, one of cost 1 and one of cost 3, so the cost group
# splits the name over two cells.
PRINTINGS = [{"name": "Élan", "number": "1", "count": 1, "type": "Impro", "cost": 1},
             {"name": "ELAN", "number": "2", "count": 2, "type": "Impro", "cost": 3},
             {"name": "Brume", "count": 2, "type": "Impro", "cost": 1},
             {"name": "Cape", "count": 1, "type": "Impro", "cost": 2},
             {"name": "Pion", "count": 6, "type": "Difficulté", "cost": 1}]


def impro_names(hand, cost_at_most=None):
    return {row["name"].lower().replace("é", "e") for row in hand
            if row["type"] == "Impro" and (cost_at_most is None or row["cost"] <= cost_at_most)}


@pytest.mark.parametrize(("event", "holds"), [
    ("distinct(Impro)>=3", lambda hand: len(impro_names(hand)) >= 3),
    ("distinct(Impro)>=2 and [cost<=1]>=3",
     lambda hand: len(impro_names(hand)) >= 2 and sum(row["cost"] <= 1 for row in hand) >= 3),
    ("distinct([cost<=2])=2 and not distinct(Impro)<3",
     lambda hand: len({row["name"].lower().replace("é", "e") for row in hand if row["cost"] <= 2}) == 2
     and len(impro_names(hand)) >= 3),
    ("Impro>=3 and distinct(Impro)<=1", lambda hand: sum(r["type"] == "Impro" for r in hand) >= 3
     and len(impro_names(hand)) <= 1),
])
def test_printings_of_one_name_count_once(event, holds):
    deck = Deck.from_table(PRINTINGS)
    assert deck.labels[:2] == ["Élan #1", "ELAN #2"]
    table = deckstat.odds(deck, "pandrea", event, turns=[0, 1, 2], seat="first", method="exact").table
    expected = [brute_force(PRINTINGS, cards, holds) for cards in (5, 6, 7)]
    np.testing.assert_allclose(table["p"], expected, rtol=0, atol=1e-12)


def test_printings_as_one_row_give_the_same_answer():
    merged = [{"name": "Élan", "count": 3, "type": "Impro"}, *[{k: v for k, v in row.items() if k != "cost"}
                                                                for row in PRINTINGS[2:]]]
    event = "distinct(Impro)>=3"
    split = deckstat.odds(Deck.from_table(PRINTINGS), "pandrea", event, turns=[0, 3], method="exact").table["p"]
    whole = deckstat.odds(Deck.from_table(merged), "pandrea", event, turns=[0, 3], method="exact").table["p"]
    np.testing.assert_allclose(split, whole, rtol=0, atol=1e-15)


def test_a_distinct_group_adds_one_cell_per_name():
    setup = prepare(Deck.from_table(PRINTINGS), "pandrea", ["distinct(Impro)>=3 and [cost<=1]>=3"])
    # Élan (two cells: cost 1 and cost 3), Brume, Cape, and the Difficulté.
    assert sorted(setup.compiled.cell_counts.tolist()) == [1, 1, 2, 2, 6]
    n_groups = len(setup.compiled.group_keys)  # the event's two, and the profile's resource group
    assert setup.compiled.table.shape == (5, n_groups + 3)  # and one column per Impro name
    assert setup.compiled.distinct_columns[0] == (n_groups, n_groups + 1, n_groups + 2)


# --------------------------------------------------------------------------- engine pieces

def test_segment_weights_move_a_distinct_axis_once_per_name():
    # Two cells of one name (1 and 2 copies) and a blank: how many hands of 2 hold the name, over two segments.
    counts, membership = np.array([1, 2, 3]), np.array([[True], [True], [False]])
    tracker = exact.Tracker((0, 1), (0,), (2,), distinct=(True,), cell_names=(7, 7, -1))
    weights = exact.segment_weights(counts, membership, [1, 1], [tracker])
    # Ordered (first card, second card) pairs of distinct cards: 6 * 5 = 30, of which 3 * 2 = 6 hold no copy.
    assert weights[1, 1].tolist() == [6, 24, 0]
    # Counted as cards instead, the name's pairs split into one copy (18) and two (6).
    plain = exact.segment_weights(counts, membership, [1, 1], [exact.Tracker((0, 1), (0,), (2,))])
    assert plain[1, 1].tolist() == [6, 18, 6]


def test_deal_spec_with_names_is_picklable_and_counts_names():
    setup = prepare(names_deck(3, 2, 10), "pandrea", ["distinct(Impro)>=2 and Impro>=3"])
    spec = setup.deal_spec(2)
    clone = pickle.loads(pickle.dumps(spec))
    assert clone.group_keys == spec.group_keys and clone.distinct_columns == spec.distinct_columns
    # Columns: DISTINCT(impro), impro, the resource group, then one per Impro name: 2 + 0 + 1 copies of the
    # three names is 2 names, 3 cards.
    assert spec.group_keys == ("DISTINCT(impro)", "impro", "logistique")
    counts = spec.counts_dict(np.array([[3], [3], [0], [2], [0], [1]]))
    assert counts["DISTINCT(impro)"].tolist() == [2] and counts["impro"].tolist() == [3]


# --------------------------------------------------------------------------- exact against simulation

def assert_agree(exact_p, simulated_p, n_trials, z):
    exact_p, simulated_p = np.asarray(exact_p), np.asarray(simulated_p)
    se = np.sqrt(exact_p * (1 - exact_p) / n_trials)
    # A probability of exactly 0 or 1 is simulated exactly.
    assert np.all(np.abs(simulated_p - exact_p) <= z * se + 1e-12), (exact_p, simulated_p)


@pytest.mark.parametrize("zone", ["seen", "bottom", "hand"])
def test_bottom_mulligan_exact_against_simulation(zone):
    # 16 cards: a mulligan puts 5 under the 11 left, so draws reach them (wrap) from the third draw on.
    turns = list(range(0, 9)) if zone != "hand" else [0]
    common = {"keep": "distinct(Impro)>=2", "turns": turns, "seat": "first", "zone": zone, "allow_absent": True}
    event = "distinct(Impro)>=3 or (Impro>=2 and distinct([cost<=1])<2)"
    deck = Deck.from_table(PRINTINGS + [{"name": "Voile", "count": 3, "type": "Difficulté", "cost": 2}])
    exact_p = deckstat.odds(deck, "wankul", event, method="exact", **common).table["p"]
    n_trials = 200_000
    simulated = deckstat.odds(deck, "wankul", event, method="simulate", n_trials=n_trials, rng=20240611, **common)
    assert_agree(exact_p, simulated.table["p"], n_trials, z_for(3 * 9))


def test_kept_hand_table_counts_names():
    deck = names_deck(3, 2, 10)
    exact_rows = deckstat.mulligan(deck, "wankul", keep="distinct(Impro)>=2", event="Impro>=1", turns=[0],
                                   method="exact").kept_hand
    rows = exact_rows[exact_rows["group"] == "distinct(Impro)"]
    assert rows["count"].tolist() == [0, 1, 2, 3, 4, 5]
    # A hand with 4 or 5 different Impros does not exist: there are 3.
    assert rows["p"].iloc[4:].tolist() == [0.0, 0.0]
    n_trials = 100_000
    simulated = deckstat.mulligan(deck, "wankul", keep="distinct(Impro)>=2", event="Impro>=1", turns=[0],
                                  method="simulate", n_trials=n_trials, rng=7).kept_hand
    simulated = simulated[simulated["group"] == "distinct(Impro)"]
    assert_agree(rows["p"], simulated["p"], n_trials, z_for(6))


@pytest.mark.parametrize("rule", ["london", "vancouver"])
def test_reshuffle_mulligans_count_names(rule):
    # A keep rule every hand meets: no mulligan, so the odds are those of the first hand and its draws.
    deck = names_deck(3, 2, 10)
    n_trials = 50_000
    table = deckstat.odds(deck, "wankul", "distinct(Impro)>=2", keep="Impro>=0", mulligan_rule=rule, turns=[0, 2],
                          seat="first", method="simulate", n_trials=n_trials, rng=11, allow_absent=True).table
    assert_agree([p_names(3, 2, 10, 5, 2), p_names(3, 2, 10, 7, 2)], table["p"], n_trials, z_for(4))


def test_compare_pairs_decks_with_different_names():
    a, b = names_deck(3, 2, 10), names_deck(2, 3, 10)
    for method in ("exact", "simulate"):
        table = deckstat.compare([a, b], "pandrea", "distinct(Impro)>=2", turns=[0], seat="first", method=method,
                                 n_trials=100_000, rng=5).table
        # Deck B: 2 names x 3 copies; both names among 5 of 16 cards: C(16,5) - 2 C(13,5) + C(10,5) ways.
        p_b = (4368 - 2 * 1287 + 252) / 4368
        expected = [p_names(3, 2, 10, 5, 2), p_b]
        if method == "exact":
            np.testing.assert_allclose(table[["p_a", "p_b"]].iloc[0], expected, rtol=0, atol=1e-12)
        else:
            assert_agree(expected, table[["p_a", "p_b"]].iloc[0], 100_000, z_for(2))


def test_deckout_keep_rule_reads_names():
    # One Terrain name: no hand holds two different Terrains, so distinct(Terrain)>=2 sends every first hand
    # under the deck, as Terrain>=6 does; the drought rule makes the race depend on the hand kept.
    deck = Deck.from_table([{"name": "Port", "count": 12, "type": "Terrain"},
                            {"name": "Loup", "count": 38, "type": "Personnage"}])
    common = {"method": "simulate", "n_trials": 4_000, "rng": 3}
    by_names = deckstat.deckout(deck, "wankul", keep="distinct(Terrain)>=2", **common).table
    never = deckstat.deckout(deck, "wankul", keep="Terrain>=6", **common).table
    as_cards = deckstat.deckout(deck, "wankul", keep="Terrain>=2", **common).table
    assert by_names["p"].tolist() == never["p"].tolist()
    assert by_names["p"].tolist() != as_cards["p"].tolist()


# --------------------------------------------------------------------------- games

def licum_reference(counts: list[int], deck_size: int, cards: int, at_least: int) -> float:
    """P(at least ``at_least`` different names among ``cards`` cards), summing over each name's copies drawn."""
    others = deck_size - sum(counts)
    ways = 0
    for drawn in itertools.product(*[range(c + 1) for c in counts]):
        if sum(drawn) <= cards and sum(d > 0 for d in drawn) >= at_least:
            ways += math.prod(math.comb(c, d) for c, d in zip(counts, drawn)) * math.comb(others, cards - sum(drawn))
    return ways / math.comb(deck_size, cards)


def test_licum_different_improvisateurs_in_the_opening_hand():
    # Two Improvisateurs of one name cannot sit on the bench together: what counts is different names.
    deck = load_deck(DATA / "licum" / "sample_deck.csv")
    table = deckstat.odds(deck, "licum", "différentes(Improvisateur)>=3", turns=[0, 3], seat="first").table
    counts = [1, 2, 2, 2, 1, 2, 1]  # the sample game deck's 7 Improvisateurs, 13 cards of 30
    expected = [licum_reference(counts, 30, 7, 3), licum_reference(counts, 30, 10, 3)]
    np.testing.assert_allclose(table["p"], expected, rtol=0, atol=1e-12)


def test_licum_five_different_impros_agrees_with_validation():
    # The preparation deck's rule « exactement 5 Impros différentes » and distinct(Impro) read names alike.
    deck = load_deck(DATA / "licum" / "sample_deck.csv").part(["preparation"], label="preparation")
    impros = deck.cards[deck.mask("Impro")]
    setup = prepare(deck.with_counts(np.where(deck.mask("Impro"), deck.counts, 0)), "pandrea",
                    ["distinct(Impro)>=5"])
    assert len(setup.compiled.distinct_columns[0]) == impros["name"].str.casefold().nunique()
    assert deckstat.validate(load_deck(DATA / "licum" / "sample_deck.csv"), "licum").legal


real_data = pytest.mark.skipif(not SHARED_CARDDATA.is_dir(), reason="no real card data next to the repository")


def elementary_symmetric(values: list[int], k: int) -> int:
    """Sum over every k-subset of ``values`` of their product (hands of k cards of k different names)."""
    e = [1] + [0] * k
    for v in values:
        for j in range(k, 0, -1):
            e[j] += e[j - 1] * v
    return e[k]


@real_data
def test_real_wankul_pool_counts_a_name_once_across_printings(tmp_path):
    pool = load_deck(SHARED_CARDDATA / "wankul_octerry_cards.csv")
    cards = pool.cards.assign(label=pool.labels)
    per_name = Counter(pool.names)
    single = cards[np.array([per_name[n] == 1 for n in pool.names]) & (cards["set"] == "Origins")]
    terrains = single[single["type"] == "Terrain"]["label"].head(4).tolist()
    personnages = single[single["type"] == "Personnage"]["label"].head(10).tolist()
    lines = [f"3 {name}" for name in terrains + personnages]
    lines += ["2 VENDEUR #35", "2 VENDEUR #36", "2 POLICIER #112", "2 POLICIER #153"]
    path = tmp_path / "deck.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    deck = load_deck(path, pool=pool)
    assert deck.size == 50 and len(deck.cards) == 18
    p = deckstat.odds(deck, "wankul", "distinct(Personnage)>=5", zone="hand", mulligan=False).table["p"].iloc[0]
    # Five Personnages of five different names: VENDEUR and POLICIER have 4 cards each over two printings.
    assert p == pytest.approx(elementary_symmetric([4, 4] + [3] * 10, 5) / math.comb(50, 5), abs=1e-12)
    assert p < elementary_symmetric([2] * 4 + [3] * 10, 5) / math.comb(50, 5)  # what printings apart would give


# --------------------------------------------------------------------------- command line

def test_cli_odds_with_a_distinct_event():
    deck = DATA / "licum" / "sample_deck.csv"
    out = ok(run("odds", deck, "-g", "licum", "--event", "distinct(Improvisateur)>=3", "--turns", "0-1"))
    assert "distinct(Improvisateur)>=3" in out
    counts = [1, 2, 2, 2, 1, 2, 1]
    assert f"{licum_reference(counts, 30, 7, 3):.1%}" in out
    data = ok_json(run("odds", deck, "-g", "licum", "-e", "différentes(Improvisateur)>=3", "--turns", "0",
                       "--format", "json"))
    assert data["table"][0]["event"] == "distinct(Improvisateur)>=3"


def test_cli_error_on_a_bad_distinct():
    assert_user_error(run("odds", DATA / "licum" / "sample_deck.csv", "-g", "licum", "-e", "distinct Impro>=2"),
                      "position 10", "expected '(' after 'distinct'")
