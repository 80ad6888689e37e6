"""Argument checks at the public boundary (deckstat._validate), and their use by every question.

One kind of value is accepted, and refused, the same way everywhere: whole
numbers may be Python or NumPy integers but not booleans, floats or text;
probabilities are real numbers from 0 to 1; choices suggest the closest
valid name; every message is one line naming the parameter at fault.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from helpers import DATA, stable_id
from hypothesis import given, settings
from hypothesis import strategies as st

import deckstat
from deckstat import Deck, DeckstatError
from deckstat._validate import (
    check_choice,
    check_deck,
    check_events,
    check_half_width,
    check_optional_whole,
    check_probability,
    check_seats,
    check_turns,
    check_whole,
    is_whole,
)
from deckstat.terms import DECKOUT_RULES, DRAW_STEPS, METHODS, MULLIGAN_RULES, POLICIES, SEATS, TURN_ORDERS, ZONES

NUMPY_INTEGERS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def message(check, *args, **kwargs) -> str:
    """Call ``check`` expecting a DeckstatError; return its one-line message."""
    with pytest.raises(DeckstatError) as info:
        check(*args, **kwargs)
    text = str(info.value)
    assert "\n" not in text
    return text


def numpy_integers(min_value: int = 0, max_value: int = 10**6):
    """NumPy integer scalars of every width, between the bounds their dtype allows."""
    def make(dtype):
        info = np.iinfo(dtype)
        low, high = max(min_value, int(info.min)), min(max_value, int(info.max))
        return st.integers(low, high).map(dtype)
    return st.sampled_from(NUMPY_INTEGERS).flatmap(make)


NOT_WHOLE = [True, False, np.True_, 3.0, np.float64(3.0), 2.5, float("nan"), float("inf"), "3", None, [3],
             np.array([3]), 1 + 0j]


# --------------------------------------------------------------------------- check_whole


@settings(max_examples=200, deadline=None)
@given(value=st.integers(-10**20, 10**20), minimum=st.integers(-3, 3))
def test_check_whole_python_ints(value, minimum):
    if value >= minimum:
        result = check_whole(value, "n_trials", minimum=minimum)
        assert result == value and type(result) is int
    else:
        assert message(check_whole, value, "n_trials", minimum=minimum).startswith("n_trials must be a whole number")


@settings(max_examples=200, deadline=None)
@given(value=numpy_integers(0, 10**6))
def test_check_whole_accepts_numpy_ints(value):
    result = check_whole(value, "n_trials", minimum=0)
    assert result == int(value) and type(result) is int
    assert is_whole(value)


@settings(max_examples=100, deadline=None)
@given(value=st.floats(allow_nan=True, allow_infinity=True))
def test_check_whole_refuses_every_float(value):
    # Even 3.0: a trial count written as a float is a mistake somewhere.
    assert message(check_whole, value, "max_turn").startswith("max_turn must be a whole number from 0, got ")


@pytest.mark.parametrize("value", NOT_WHOLE, ids=stable_id)
def test_check_whole_refuses_booleans_floats_and_text(value):
    text = message(check_whole, value, "n_trials", minimum=1)
    assert text.startswith("n_trials must be a whole number of at least 1, got ")
    assert not is_whole(value)


@pytest.mark.parametrize(("kwargs", "value", "expected"), [
    ({"minimum": 1}, 0, "n_trials must be a whole number of at least 1, got 0"),
    ({}, -1, "n_trials must be a whole number from 0, got -1"),
    ({"minimum": 1, "maximum": 4}, 5, "n_trials must be a whole number from 1 to 4, got 5"),
    ({"minimum": 1, "maximum": 4}, np.int64(0), "n_trials must be a whole number from 1 to 4, got np.int64(0)"),
])
def test_check_whole_messages(kwargs, value, expected):
    assert message(check_whole, value, "n_trials", **kwargs) == expected


def test_check_whole_bounds_are_inclusive():
    assert check_whole(1, "x", minimum=1, maximum=4) == 1
    assert check_whole(np.uint8(4), "x", minimum=1, maximum=4) == 4


def test_long_values_are_shortened_in_one_line():
    text = message(check_whole, "x" * 500, "n_trials")
    assert len(text) < 150 and text.endswith("...")
    text = message(check_whole, list(range(500)), "n_trials")
    assert len(text) < 150 and text.endswith("...")
    message(check_choice, "line\nbreak" * 50, "zone", ZONES)  # one line, checked by message()


def test_check_optional_whole():
    assert check_optional_whole(None, "terrain_turns") is None
    assert check_optional_whole(np.int32(2), "terrain_turns", minimum=1) == 2
    assert message(check_optional_whole, 0, "terrain_turns", minimum=1) == (
        "terrain_turns must be a whole number of at least 1, got 0")


# --------------------------------------------------------------------------- check_choice

TERMS = {"seat": SEATS, "zone": ZONES, "method": METHODS, "mulligan_rule": MULLIGAN_RULES,
         "policy": tuple(POLICIES), "deckout": tuple(DECKOUT_RULES), "turn_order": TURN_ORDERS,
         "draw_step": DRAW_STEPS}


def typos(word: str) -> set[str]:
    """One letter dropped, two neighbours swapped, other capitals, a plural."""
    dropped = {word[:i] + word[i + 1:] for i in range(len(word))}
    swapped = {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)}
    return (dropped | swapped | {word.upper(), word.title(), word + "s"}) - {word}


@pytest.mark.parametrize("name", sorted(TERMS))
def test_check_choice_accepts_each_choice(name):
    for choice in TERMS[name]:
        assert check_choice(choice, name, TERMS[name]) == choice


@pytest.mark.parametrize("name", sorted(TERMS))
def test_check_choice_suggests_the_closest_name(name):
    choices = TERMS[name]
    for choice in choices:
        for typo in typos(choice) - set(choices):
            text = message(check_choice, typo, name, choices)
            assert text == f"{name} must be one of {', '.join(choices)}, got {typo!r}; did you mean {choice!r}?"


@pytest.mark.parametrize("value", ["zzzzzz", "", None, 3, ["london"]], ids=stable_id)
def test_check_choice_without_a_close_name(value):
    text = message(check_choice, value, "mulligan_rule", MULLIGAN_RULES)
    assert text == ("mulligan_rule must be one of none, bottom, london, vancouver, free, hearthstone, pokemon, "
                    f"got {value!r}")


@settings(max_examples=100, deadline=None)
@given(value=st.text(max_size=12))
def test_check_choice_any_text(value):
    if value in METHODS:
        assert check_choice(value, "method", METHODS) == value
    else:
        assert message(check_choice, value, "method", METHODS).startswith(
            "method must be one of auto, exact, simulate, got ")


# --------------------------------------------------------------------------- probabilities and half-widths


@settings(max_examples=200, deadline=None)
@given(value=st.floats(0.0, 1.0) | st.sampled_from([0, 1, np.float32(0.25), np.float64(0.75), np.int64(1)]))
def test_check_probability_accepts_0_to_1(value):
    result = check_probability(value, "target")
    assert result == float(value) and type(result) is float


@settings(max_examples=200, deadline=None)
@given(value=st.floats(allow_nan=True, allow_infinity=True).filter(lambda v: not 0 <= v <= 1)
       | st.sampled_from([True, False, np.True_, "0.5", None, [0.5], -1, 2]))
def test_check_probability_refuses_the_rest(value):
    assert message(check_probability, value, "target") == (
        f"target must be a probability from 0 to 1, got {value!r}")


@settings(max_examples=200, deadline=None)
@given(value=st.floats(0.0, 0.5, exclude_min=True, exclude_max=True))
def test_check_half_width_accepts_between_0_and_half(value):
    assert check_half_width(value) == value


@pytest.mark.parametrize("value", [0, 0.0, 0.5, 1, -0.01, float("nan"), float("inf"), True, "0.01", None],
                         ids=stable_id)
def test_check_half_width_refuses_the_rest(value):
    assert message(check_half_width, value) == (
        f"precision must be an interval half-width between 0 and 0.5, got {value!r}")


# --------------------------------------------------------------------------- decks, seats, turns, events


def small_deck() -> Deck:
    return Deck.from_table([{"name": "Terrain", "count": 10, "type": "Terrain"},
                            {"name": "Personnage", "count": 40, "type": "Personnage"}])


@pytest.mark.parametrize("value", ["data/wankul/sample_deck.csv", 42, None, pd.DataFrame({"name": ["a"]}),
                                   [{"name": "a"}]], ids=lambda v: type(v).__name__)
def test_check_deck_refuses_what_is_not_a_deck(value):
    assert message(check_deck, value) == (
        f"deck must be a Deck (see deckstat.load_deck), got {type(value).__name__}")
    assert message(check_deck, value, "opponent").startswith("opponent must be a Deck")


def test_check_deck_returns_the_deck():
    deck = small_deck()
    assert check_deck(deck) is deck


@pytest.mark.parametrize(("seat", "expected"), [("first", ("first",)), ("second", ("second",)),
                                                ("both", SEATS), ("all", SEATS)])
def test_check_seats(seat, expected):
    assert check_seats(seat) == expected
    if seat in SEATS:
        assert check_seats(seat, single=True) == expected


@pytest.mark.parametrize("seat", ["both", "all"])
def test_check_seats_single_refuses_both(seat):
    assert message(check_seats, seat, single=True) == f"seat must be one of first, second, got {seat!r}"


@pytest.mark.parametrize(("seat", "hint"), [("frist", "; did you mean 'first'?"), ("Second", "; did you mean "
                                            "'second'?"), ("third", ""), (None, ""), (1, "")])
def test_check_seats_refuses_unknown_seats(seat, hint):
    assert message(check_seats, seat) == f"seat must be one of first, second, both, got {seat!r}{hint}"


@settings(max_examples=200, deadline=None)
@given(turns=st.lists(st.integers(0, 60) | numpy_integers(0, 60), min_size=1, max_size=12))
def test_check_turns_sorts_and_deduplicates(turns):
    result = check_turns(turns)
    assert result == sorted({int(t) for t in turns})
    assert all(type(t) is int for t in result)


@pytest.mark.parametrize(("turns", "expected"), [(3, [3]), (np.int64(0), [0]), (range(4), [0, 1, 2, 3]),
                                                 (np.arange(3), [0, 1, 2]), ((t for t in (2, 1)), [1, 2]),
                                                 ({5, 0}, [0, 5])], ids=stable_id)
def test_check_turns_accepts_ints_and_iterables(turns, expected):
    assert check_turns(turns) == expected


@pytest.mark.parametrize(("turns", "expected"), [
    ([], "turns is empty; give at least one turn"),
    (range(0), "turns is empty; give at least one turn"),
    (-1, "turns must be whole numbers from 0, got -1"),
    ("0-6", "turns must be a whole number or a list of them, got '0-6'"),
    (None, "turns must be a whole number or a list of them, got None"),
    (True, "turns must be a whole number or a list of them, got True"),
    (2.0, "turns must be a whole number or a list of them, got 2.0"),
    ([0, -1], "turns must be whole numbers from 0, got -1"),
    ([0, 1.0], "turns must be whole numbers from 0, got 1.0"),
    ([0, True], "turns must be whole numbers from 0, got True"),
], ids=stable_id)
def test_check_turns_refuses(turns, expected):
    assert message(check_turns, turns) == expected


def test_check_turns_names_its_parameter():
    assert message(check_turns, [], "max_turn").startswith("max_turn is empty")


@settings(max_examples=200, deadline=None)
@given(events=st.lists(st.sampled_from(["Terrain>=1", "Terrain>=2", "[cost<=1]>=1", "Sort>=1"]), min_size=1,
                       max_size=8))
def test_check_events_keeps_the_first_of_each_in_order(events):
    result = check_events(events)
    assert result == list(dict.fromkeys(events))
    assert check_events(tuple(events)) == result


@settings(max_examples=50, deadline=None)
@given(text=st.text(max_size=30))
def test_check_events_one_text_is_a_list_of_one(text):
    assert check_events(text) == [text]


@pytest.mark.parametrize(("event", "expected"), [
    ([], "event is empty; give at least one event such as Terrain>=1"),
    ((), "event is empty; give at least one event such as Terrain>=1"),
    (None, "event must be an event text or a list of them, got None"),
    (5, "event must be an event text or a list of them, got 5"),
    (["Terrain>=1", 5], "event must be an event text or a list of them, got 5"),
    ([None], "event must be an event text or a list of them, got None"),
], ids=stable_id)
def test_check_events_refuses(event, expected):
    assert message(check_events, event) == expected


def test_check_events_refuses_bytes():
    assert message(check_events, b"Terrain>=1").startswith("event must be an event text or a list of them")


# --------------------------------------------------------------------------- every question uses the same checks

QUESTIONS = {
    "odds": lambda deck, **kw: deckstat.odds(deck, "wankul", "Terrain>=2", turns=[0, 1], **kw),
    "when": lambda deck, **kw: deckstat.when(deck, "wankul", "Terrain>=2", max_turn=1, **kw),
    "mulligan": lambda deck, **kw: deckstat.mulligan(deck, "wankul", turns=[0, 1], **kw),
    "ratio": lambda deck, **kw: deckstat.ratio(deck, "wankul", counts=[10], turns=[0], **kw),
    "deckout": lambda deck, **kw: deckstat.deckout(deck, "wankul", **kw),
    "compare": lambda deck, **kw: deckstat.compare([small_deck(), deck], "wankul", "Terrain>=2", turns=[0], **kw),
}
# The parameter that holds the deck in each function's error messages.
DECK_PARAMETER = {"compare": "decks"}
BAD_TRIALS = [0, -5, 2.5, 3000.0, np.float64(3000.0), True, "3000", [3000]]


@pytest.mark.parametrize("name", sorted(QUESTIONS) + ["validate"])
@pytest.mark.parametrize("value", ["data/wankul/sample_deck.csv", 42, pd.DataFrame({"name": ["a"], "count": [50]})],
                         ids=lambda v: type(v).__name__)
def test_every_question_refuses_what_is_not_a_deck(name, value):
    ask = QUESTIONS.get(name, lambda deck: deckstat.validate(deck, "wankul"))
    parameter = DECK_PARAMETER.get(name, "deck")
    assert message(ask, value) == (
        f"{parameter} must be a Deck (see deckstat.load_deck), got {type(value).__name__}")


@pytest.mark.parametrize("name", sorted(QUESTIONS))
def test_every_question_refuses_a_bad_trial_count_when_simulating(name):
    for value in BAD_TRIALS:
        assert message(QUESTIONS[name], small_deck(), method="simulate", n_trials=value) == (
            f"n_trials must be a whole number of at least 1, got {value!r}"), value


@pytest.mark.parametrize("name", sorted(QUESTIONS))
def test_every_question_refuses_a_bad_trial_count_even_when_the_answer_is_exact(name):
    # Refused whatever the engine: a bad value is a mistake whether or not it is used.
    for value in BAD_TRIALS:
        assert message(QUESTIONS[name], small_deck(), n_trials=value) == (
            f"n_trials must be a whole number of at least 1, got {value!r}"), value


@pytest.mark.parametrize("name", sorted(QUESTIONS))
def test_every_question_accepts_numpy_trial_counts(name):
    with_numpy = QUESTIONS[name](small_deck(), method="simulate", n_trials=np.int64(3000), rng=np.int64(5),
                                 chunk_size=np.int32(4096), n_workers=np.uint8(1))
    with_python = QUESTIONS[name](small_deck(), method="simulate", n_trials=3000, rng=5, chunk_size=4096,
                                  n_workers=1)
    frames = with_numpy.frames()
    assert frames.keys() == with_python.frames().keys()
    for key, frame in frames.items():
        pd.testing.assert_frame_equal(frame, with_python.frames()[key], obj=key)
    trials = [v for f in frames.values() if "n_trials" in f.columns for v in f["n_trials"].dropna()]
    assert trials and set(trials) == {3000}
    assert with_numpy.provenance["seed_entropy"] == 5


def test_numpy_integers_are_accepted_for_every_whole_number():
    deck = small_deck()
    pairs = [
        (lambda i: deckstat.odds(deck, "wankul", "Terrain>=2", turns=i(np.arange(3)), mulligan_limit=i(1)),
         "odds"),
        (lambda i: deckstat.when(deck, "wankul", "Terrain>=2", max_turn=i(3)), "when"),
        (lambda i: deckstat.mulligan(deck, "wankul", turns=i(np.arange(2)), mulligan_limit=i(1)), "mulligan"),
        (lambda i: deckstat.ratio(deck, "wankul", counts=i(np.array([9, 10])), turns=i(1), target_turn=i(1),
                                  target=0.5, rng=i(3)), "ratio"),
        (lambda i: deckstat.deckout(deck, "wankul", terrain_turns=i(2), n_trials=i(2000), rng=i(3)), "deckout"),
    ]

    def as_numpy(value):
        return np.asarray(value, dtype=np.int64) if isinstance(value, np.ndarray) else np.int64(value)

    def as_python(value):
        return [int(v) for v in value] if isinstance(value, np.ndarray) else int(value)

    for ask, name in pairs:
        with_numpy, with_python = ask(as_numpy), ask(as_python)
        for key, frame in with_numpy.frames().items():
            pd.testing.assert_frame_equal(frame, with_python.frames()[key], obj=f"{name}.{key}")


@pytest.mark.parametrize("value", [True, 1.0, -1, "2"], ids=stable_id)
def test_questions_refuse_non_whole_turn_arguments_naming_them(value):
    deck = small_deck()
    assert message(deckstat.when, deck, "wankul", "Terrain>=1", max_turn=value).startswith("max_turn must be")
    assert message(deckstat.odds, deck, "wankul", "Terrain>=1", turns=[0, value]).startswith("turns must be")
    assert message(deckstat.odds, deck, "wankul", "Terrain>=1", mulligan_limit=value).startswith(
        "mulligan_limit must be a whole number")


def test_with_resource_count_and_card_differences_refuse_what_is_not_a_deck():
    deck = small_deck()
    assert message(deckstat.card_differences, deck, 42) == "b must be a Deck (see deckstat.load_deck), got int"
    assert message(deckstat.with_resource_count, 42, "wankul", 10) == (
        "deck must be a Deck (see deckstat.load_deck), got int")


@pytest.mark.parametrize(("question", "kwargs"), [
    ("when", {"max_turn": 10**30}),  # range(max_turn + 1) was listed: OverflowError, or MemoryError at 10**12
    ("when", {"max_turn": 1001}),
    ("odds", {"turns": range(10**30)}),
    ("odds", {"turns": [3, 10**12]}),
])
def test_turns_beyond_the_last_one_followed_are_refused_before_any_work(question, kwargs):
    deck = deckstat.load_deck(DATA / "wankul" / "sample_deck.csv")
    with pytest.raises(DeckstatError, match="(from 0 to 1000|deckstat follows turns 0 to 1000)"):
        getattr(deckstat, question)(deck, "wankul", "Terrain>=1", **kwargs)


def test_a_batch_spec_with_a_huge_max_turn_is_refused():
    from deckstat.batching.spec import load_spec

    spec = {"decks": {"w": {"path": str(DATA / "wankul" / "sample_deck.csv"), "game": "wankul"}},
            "questions": [{"question": "when", "event": "Terrain>=1", "max_turn": 10**30}]}
    with pytest.raises(DeckstatError, match="max_turn"):
        load_spec(spec)
