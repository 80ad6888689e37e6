"""Combo lines met by different physical cards: against every hand of small decks, and through the engines."""

import itertools
from math import comb

import numpy as np
import pytest
from helpers import DATA, assert_user_error, ok, run, sample_deck, write, z_for
from hypothesis import given, settings
from hypothesis import strategies as st

import deckstat
from deckstat.events import Cards, NameGroup, Requirement, evaluate, parse_event, to_text

# Groups overlap: A is both x and y, D is both x and z.
CARDS = [{"name": "A", "count": 2, "type": "x", "tags": "y"}, {"name": "B", "count": 2, "type": "x"},
         {"name": "C", "count": 2, "type": "y"}, {"name": "D", "count": 1, "type": "x", "tags": "z"},
         {"name": "E", "count": 3, "type": "w"}]
GROUPS = {"x": {"A", "B", "D"}, "y": {"A", "C"}, "z": {"D"}, "w": {"E"}, "A": {"A"}, "C": {"C"}}


def _physical() -> list[str]:
    return [card["name"] for card in CARDS for _ in range(card["count"])]


def _fills(hand: tuple[str, ...], requirements: list[tuple[int, list[str]]]) -> bool:
    """Whether different cards of ``hand`` meet every requirement: every assignment of cards to the slots tried."""
    slots = [alternatives for n, alternatives in requirements for _ in range(n)]
    if len(slots) > len(hand):
        return False
    for chosen in itertools.permutations(range(len(hand)), len(slots)):
        if all(any(hand[c] in GROUPS[g] for g in alternatives) for c, alternatives in zip(chosen, slots)):
            return True
    return False


def _brute_force(requirements, m: int) -> float:
    physical = _physical()
    hands = list(itertools.combinations(range(len(physical)), m))
    hits = sum(_fills(tuple(physical[i] for i in hand), requirements) for hand in hands)
    return hits / comb(len(physical), m)


LINES = {
    "x, y": [(1, ["x"]), (1, ["y"])],
    "2 x, y": [(2, ["x"]), (1, ["y"])],
    "x, y, z|C": [(1, ["x"]), (1, ["y"]), (1, ["z", "C"])],
    "A, 2 x|y": [(1, ["A"]), (2, ["x", "y"])],
    "2 y, x, w": [(2, ["y"]), (1, ["x"]), (1, ["w"])],
}


def _text(requirements) -> str:
    return "distinct_cards(" + ", ".join(f"{n} {'|'.join(alts)}" for n, alts in requirements) + ")"


@pytest.mark.parametrize("name", list(LINES))
def test_a_line_is_every_hand_that_different_cards_can_fill(name):
    deck = deckstat.Deck.from_table(CARDS, source="small.csv")
    requirements = LINES[name]
    result = deckstat.odds(deck, "generic", _text(requirements), turns=[0, 1, 2], seat="first", mulligan=False,
                           sides=False).table
    assert set(result["method"]) == {"exact"}
    for row in result.itertuples(index=False):
        assert row.p == pytest.approx(_brute_force(requirements, int(row.zone_size)), abs=1e-12)


def test_one_card_in_two_groups_fills_one_requirement():
    # One card that is both x and y: the plain event counts it in both groups, the line needs two cards.
    deck = deckstat.Deck.from_table([{"name": "A", "count": 1, "type": "x", "tags": "y"},
                                     {"name": "B", "count": 1, "type": "x"}, {"name": "E", "count": 8, "type": "w"}])
    plain = deckstat.odds(deck, "generic", "x>=1 and y>=1", turns=[0], seat="first", mulligan=False, sides=False)
    line = deckstat.odds(deck, "generic", "distinct_cards(x, y)", turns=[0], seat="first", mulligan=False,
                         sides=False)
    # P(A in 5 of 10) = 1/2; the line also needs B: P(A and B) = C(8, 3) / C(10, 5).
    assert plain.table["p"].iloc[0] == pytest.approx(0.5, abs=1e-12)
    assert line.table["p"].iloc[0] == pytest.approx(comb(8, 3) / comb(10, 5), abs=1e-12)


def test_the_simulation_agrees_under_the_bottom_mulligan_and_in_the_shields():
    wankul = deckstat.load_deck(sample_deck("wankul"))
    event = "distinct_cards(Terrain, 2 [cost<=1], \"Robot Camembert\"|\"Ninja du Marché\")"
    exact = deckstat.odds(wankul, "wankul", event, turns=[0, 2, 4], seat="first", sides=False).table
    simulated = deckstat.odds(wankul, "wankul", event, turns=[0, 2, 4], seat="first", method="simulate",
                              n_trials=60_000, rng=5, sides=False).table
    assert set(exact["method"]) == {"exact"}
    z = z_for(2 * len(exact))
    for a, b in zip(exact.itertuples(index=False), simulated.itertuples(index=False)):
        se = np.sqrt(a.p * (1 - a.p) / b.n_trials)
        assert abs(a.p - b.p) <= z * se + 1e-12
    dm = deckstat.load_deck(sample_deck("duel-masters"))
    shields = "distinct_cards([shield_trigger], [cost<=3])"
    exact = deckstat.odds(dm, "duel-masters", shields, zone="set_aside", seat="first", sides=False).table
    simulated = deckstat.odds(dm, "duel-masters", shields, zone="set_aside", seat="first", method="simulate",
                              n_trials=60_000, rng=6, sides=False).table
    p, q, n = exact["p"].iloc[0], simulated["p"].iloc[0], simulated["n_trials"].iloc[0]
    assert abs(p - q) <= z_for(2) * np.sqrt(p * (1 - p) / n)


@pytest.mark.parametrize("text, canonical", [
    ("distinct_cards(x, y)", "distinct_cards(x, y)"),
    ("cartes_distinctes( 2 x | y , z )", "cartes_distinctes(2 x|y, z)"),
    ("DISTINCT_CARDS(\"Robot Camembert\"|[cost<=1], 3 Terrain) and not w", None),
    ("not distinct_cards(x)", None),
])
def test_lines_read_back_as_written(text, canonical):
    event = parse_event(text)
    shown = to_text(event)
    if canonical is not None:
        assert shown == canonical
    assert parse_event(shown) == event


@pytest.mark.parametrize("text, needle", [
    ("distinct_cards x, y", "expected '('"),
    ("distinct_cards(x, y", "expected ',' or ')'"),
    ("distinct_cards(x,)", "expected a card group"),
    ("distinct_cards(0 x)", "at least 1"),
    ("distinct_cards(x)>=2", "compared with nothing"),
    ("distinct_cards(a, b, c, d, e, f, g)", "more than the 6"),
])
def test_a_bad_line_is_refused_with_its_position(text, needle):
    with pytest.raises(deckstat.ExpressionError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        parse_event(text)


def test_a_comma_stays_part_of_a_name_outside_a_line():
    event = parse_event("Oui,Chef>=1")
    assert not isinstance(event, Cards) and to_text(event) == "Oui,Chef>=1"


def test_combos_gives_each_line_any_line_and_what_each_adds():
    deck = deckstat.Deck.from_table(CARDS, source="small.csv")
    lines = {"pair": ["x", "y"], "triple": "2 x, w"}
    result = deckstat.combos(deck, "generic", lines, turns=[0, 2], seat="first", mulligan=False)
    table = result.table
    assert set(table["kind"]) == {"line", "any", "alone"}
    for turn in (0, 2):
        at = table[table["turn"] == turn].set_index(["line", "kind"])["p"]
        size = int(deckstat.odds(deck, "generic", "x>=1", turns=[turn], seat="first", mulligan=False,
                                 sides=False).table["zone_size"].iloc[0])
        physical = _physical()
        hands = [tuple(physical[i] for i in hand) for hand in itertools.combinations(range(len(physical)), size)]
        pair = [_fills(h, [(1, ["x"]), (1, ["y"])]) for h in hands]
        triple = [_fills(h, [(2, ["x"]), (1, ["w"])]) for h in hands]
        total = len(hands)
        assert at[("pair", "line")] == pytest.approx(sum(pair) / total, abs=1e-12)
        assert at[("triple", "line")] == pytest.approx(sum(triple) / total, abs=1e-12)
        anyone = [a or b for a, b in zip(pair, triple)]
        any_row = table[(table["turn"] == turn) & (table["kind"] == "any")]["p"].iloc[0]
        assert any_row == pytest.approx(sum(anyone) / total, abs=1e-12)
        # What a line alone adds: P(any) - P(any without it).
        assert at[("pair", "alone")] == pytest.approx((sum(anyone) - sum(triple)) / total, abs=1e-12)
        assert at[("triple", "alone")] == pytest.approx((sum(anyone) - sum(pair)) / total, abs=1e-12)


def test_lines_from_a_file_and_the_command(tmp_path):
    lines = write(tmp_path, '[lines]\nRush = ["Terrain", "2 [cost<=1]"]\n"Robot" = ["Terrain", '
                            '"\\"Robot Camembert\\" | \\"Ninja du Marché\\""]\n', name="lines.toml")
    wankul = deckstat.load_deck(sample_deck("wankul"))
    result = deckstat.combos(wankul, "wankul", lines, turns=[0, 3], seat="first")
    assert list(dict.fromkeys(result.table["line"][result.table["kind"] == "line"])) == ["Rush", "Robot"]
    text = ok(run("combos", sample_deck("wankul"), "--game", "wankul", "--lines", lines, "--turns", "0-3"))
    assert "Rush" in text and "Robot" in text
    french = ok(run("combos", sample_deck("wankul"), "--game", "wankul", "--lines", lines, "--turns", "1",
                    "--lang", "fr"))
    assert "Rush" in french


@pytest.mark.parametrize("content, needle", [
    ('[lines]\nRush = ["Terrain", "2 [cots<=1]"]\n', "cots"),
    ('[lines]\nRush = []\n', "Rush"),
    ('lines = 3\n', "[lines]"),
    ('[lines\nRush = ["Terrain"]\n', "TOML"),
    ('[lines]\nRush = ["Terrain", "distinct_cards(x)"]\n', "Rush"),
])
def test_a_bad_lines_file_is_one_line_naming_it(tmp_path, content, needle):
    path = write(tmp_path, content, name="lines.toml")
    assert_user_error(run("combos", sample_deck("wankul"), "--game", "wankul", "--lines", path), needle)


def test_a_line_in_odds_when_and_compare():
    wankul = deckstat.load_deck(sample_deck("wankul"))
    v2 = deckstat.load_deck(DATA / "wankul" / "sample_deck_v2.csv")
    event = "distinct_cards(Terrain, [cost<=1])"
    when = deckstat.when(wankul, "wankul", event, seat="first")
    odds = deckstat.odds(wankul, "wankul", event, turns=range(6), seat="first", sides=False).table
    # when's cumulative distribution is the odds of an event that cards only ever help.
    assert np.allclose(when.table["cdf"].to_numpy()[:6], odds["p"].to_numpy(), atol=1e-12)
    compared = deckstat.compare([wankul, v2], "wankul", event, turns=[2], seat="first", sides=False)
    assert compared.table["method"].iloc[0] == "exact"


# --------------------------------------------------------------------------- properties

_WORDS = ["x", "y", "z", "w"]


@st.composite
def _lines_and_hands(draw):
    """A line of 1-4 requirements over four groups, and a hand of 0-7 cards each in some of the groups."""
    requirements = draw(st.lists(st.tuples(st.integers(1, 3), st.sets(st.sampled_from(_WORDS), min_size=1,
                                                                      max_size=2)), min_size=1, max_size=4))
    hand = draw(st.lists(st.frozensets(st.sampled_from(_WORDS), max_size=3), max_size=7))
    return [(n, sorted(groups)) for n, groups in requirements], hand


@settings(max_examples=300, deadline=None)
@given(_lines_and_hands())
def test_hall_counts_agree_with_every_assignment_of_cards(case):
    requirements, hand = case
    event = Cards(tuple(Requirement(n, tuple(NameGroup(g) for g in groups)) for n, groups in requirements))
    # The engines' counts: the cards of the hand filling exactly each combination of requirements.
    fills = [[any(g in card for g in groups) for _, groups in requirements] for card in hand]
    counts = {}
    for group in event.patterns():
        counts[group.key] = np.array(sum(all(bool(f[i]) == bool(group.pattern >> i & 1) for i in range(len(f)))
                                         for f in fills))
    slots = [groups for n, groups in requirements for _ in range(n)]
    literal = len(slots) <= len(hand) and any(
        all(any(g in hand[c] for g in groups) for c, groups in zip(chosen, slots))
        for chosen in itertools.permutations(range(len(hand)), len(slots)))
    assert bool(evaluate(event, counts)) == literal


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 9), st.lists(st.sampled_from(["Terrain", "[cost<=1]", '"Robot Camembert"',
                                                                       "[race~=Dragon]", "x"]),
                                                       min_size=1, max_size=3)),
                min_size=1, max_size=6),
       st.sampled_from(["distinct_cards", "cartes_distinctes", "DISTINCT_CARDS"]))
def test_a_line_reads_back_as_the_same_event(requirements, word):
    text = f"{word}(" + ", ".join(f"{n} {'|'.join(groups)}" for n, groups in requirements) + ")"
    event = parse_event(text)
    assert isinstance(event, Cards) and len(event.requirements) == len(requirements)
    assert parse_event(to_text(event)) == event
