"""The shared small parsers (deckstat.parsing) and the callers that read text through them."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckstat.deck import Deck
from deckstat.errors import DeckstatError, ExpressionError
from deckstat.knowledge import _split_items, parse_known
from deckstat.parsing import Piece, find_top_level, split_group_count, split_top_level, whole_number, whole_text
from deckstat.questions._setup import parse_priority
from deckstat.schema import name_readings


def _atoms(brackets: str, quotes: str, inside: str, plain: str) -> st.SearchStrategy[str]:
    """Text in which the characters of ``inside`` only appear within brackets or quotes.

    ``plain`` is what may stand outside them; neither holds a bracket, a quote or a line break.
    """
    free = st.text(alphabet=plain + inside, max_size=4)
    # A quote opens a span at the start of a word (after a space here): after a letter, ' is an apostrophe.
    spans = [st.text(alphabet=plain + inside + "".join(sorted(set(brackets + quotes) - {q})), max_size=6).map(
        lambda text, q=q: f" {q}{text}{q}") for q in quotes]
    atoms = st.deferred(lambda: st.one_of(st.text(alphabet=plain, max_size=6), *spans, *bracketed))
    bracketed = [st.lists(st.one_of(atoms, free), max_size=3).map(
        lambda parts, o=brackets[i], c=brackets[i + 1]: o + "".join(parts) + c) for i in range(0, len(brackets), 2)]
    return st.lists(atoms, max_size=4).map("".join)


DIALECTS = {
    # (brackets, quotes, separators, lines): how each caller reads its text.
    "card values": ("()", "", ",", False),
    "known cards": ("()[]", "\"'", ",;", True),
    "priority": ("[]", "\"'", ",", False),
    "inline TOML": ("[]{}", "", ",", False),
}


@st.composite
def _dialect_and_items(draw):
    name = draw(st.sampled_from(sorted(DIALECTS)))
    brackets, quotes, separators, lines = DIALECTS[name]
    # Where quotes mean nothing, they are plain text (an apostrophe in a card value).
    plain = "ab Zé=<>!~#.-12" + ("" if quotes else "\"'")
    items = draw(st.lists(_atoms(brackets, quotes, separators, plain), min_size=1, max_size=5))
    joins = draw(st.lists(st.sampled_from(separators + ("\n" if lines else "")), min_size=len(items) - 1,
                          max_size=len(items) - 1))
    return name, items, joins


@settings(max_examples=300, deadline=None)
@given(_dialect_and_items())
def test_brackets_and_quotes_are_never_split(case):
    name, items, joins = case
    brackets, quotes, separators, lines = DIALECTS[name]
    text = items[0] + "".join(join + item for join, item in zip(joins, items[1:]))
    pieces = split_top_level(text, separators, brackets=brackets, quotes=quotes, lines=lines)
    assert [p.text for p in pieces] == items
    starts = [0]
    for item in items[:-1]:
        starts.append(starts[-1] + len(item) + 1)
    assert [p.start for p in pieces] == starts


ANY_TEXT = st.text(alphabet="ab ,;()[]{}\"'\n=<", max_size=30)


@settings(max_examples=300, deadline=None)
@given(text=ANY_TEXT, dialect=st.sampled_from(sorted(DIALECTS)))
def test_pieces_and_their_separators_give_the_text_back(text, dialect):
    brackets, quotes, separators, lines = DIALECTS[dialect]
    pieces = split_top_level(text, separators, brackets=brackets, quotes=quotes, lines=lines)
    assert pieces[0].start == 0 and pieces[-1].start + len(pieces[-1].text) == len(text)
    for piece, following in zip(pieces, pieces[1:]):
        end = piece.start + len(piece.text)
        assert following.start == end + 1
        assert text[end] in separators + ("\n\r" if lines else "")
    for piece in pieces:
        assert text[piece.start:piece.start + len(piece.text)] == piece.text


@settings(max_examples=200, deadline=None)
@given(first=ANY_TEXT, second=ANY_TEXT)
def test_a_line_break_ends_what_its_line_left_open(first, second):
    """Each line reads as if alone: an unclosed bracket or quote on one line never swallows the next."""
    first = first.replace("\n", "")
    whole = split_top_level(f"{first}\n{second}", ",;", lines=True)
    alone = split_top_level(first, ",;", lines=True)
    rest = split_top_level(second, ",;", lines=True)
    shift = len(first) + 1
    assert whole == alone + [Piece(p.text, p.start + shift) for p in rest]


@settings(max_examples=200, deadline=None)
@given(prefix=_atoms("[]", "\"'", "<>=,", "ab Z(),"), char=st.sampled_from("<>="), rest=ANY_TEXT)
def test_find_top_level_points_at_the_first_character_outside(prefix, char, rest):
    assert find_top_level(prefix, "<>=", brackets="[]") == -1
    assert find_top_level(prefix + char + rest, "<>=", brackets="[]") == len(prefix)


@settings(max_examples=200, deadline=None)
@given(names=st.lists(st.tuples(st.text(alphabet="aZé9", min_size=1, max_size=4),
                                 st.text(alphabet="aZé9 ", max_size=4)).map("'".join), min_size=1, max_size=4),
       dialect=st.sampled_from(["known cards", "priority"]))
def test_an_apostrophe_inside_a_word_opens_no_quote(names, dialect):
    # PILOTE D'AVION, FREDDY'S, Pangaea's Song: names that hold an apostrophe split like any other.
    brackets, quotes, separators, lines = DIALECTS[dialect]
    pieces = split_top_level(", ".join(names), separators, brackets=brackets, quotes=quotes, lines=lines)
    assert [p.text.strip() for p in pieces] == [name.strip() for name in names]


def test_a_closing_bracket_with_none_open_is_ignored():
    assert [p.text for p in split_top_level("a), (b, c)", brackets="()")] == ["a)", " (b, c)"]
    assert find_top_level("a]] [b=1]=2", "=", brackets="[]") == 9


def test_apostrophes_belong_to_card_values():
    assert name_readings("Ours (L'Ours, holo)")[1] == ("Ours", None, ["L'Ours", "holo"])


# --- GROUP=COUNT --------------------------------------------------------------------------------------------

GROUP_NAMES = st.text(alphabet="abcXYZé [];-'", min_size=1, max_size=12).filter(
    lambda t: t.strip() and t.strip()[-1] not in "<>!=~")


@settings(max_examples=300, deadline=None)
@given(name=GROUP_NAMES, count=st.integers(0, 10**6), left=st.sampled_from(["", " "]),
       right=st.sampled_from(["", "  "]))
def test_group_counts_round_trip(name, count, left, right):
    assert split_group_count(f"{name}{left}={right}{count}{left}") == (name.strip(), count)


@settings(max_examples=200, deadline=None)
@given(name=GROUP_NAMES, op=st.sampled_from(["<=", ">=", "==", "!=", "~="]), count=st.integers(0, 99))
def test_comparisons_are_not_group_counts(name, op, count):
    assert split_group_count(f"{name}{op}{count}") is None


@pytest.mark.parametrize("written", ["²", "٣", "1²", "x", "-2", "1.5"])
def test_a_count_int_cannot_read_is_kept_as_text(written):
    assert split_group_count(f"Terrain={written}") == ("Terrain", written)
    assert whole_text(written) is None


@pytest.mark.parametrize("item", ["Terrain", "=2", "Terrain=", " = ", ""])
def test_items_without_both_sides_are_not_group_counts(item):
    assert split_group_count(item) is None


# --- card cells as numbers ----------------------------------------------------------------------------------

def _reference(value: Fraction, most: int | None) -> int | None:
    """What a whole-number cell means, from exact arithmetic."""
    if value.denominator != 1 or value < 0 or (most is not None and value > most):
        return None
    return int(value)


@settings(max_examples=400, deadline=None)
@given(whole=st.integers(-50, 10**9), digits=st.text(alphabet="0123456789", max_size=4),
       point=st.sampled_from([".", ","]), pad=st.sampled_from(["", " ", "\t"]),
       most=st.one_of(st.none(), st.integers(0, 10**4)))
def test_written_numbers_read_as_exact_arithmetic_says(whole, digits, point, pad, most):
    text = f"{whole}{point}{digits}" if digits else str(whole)
    exact = Fraction(text.replace(",", "."))
    assert whole_number(f"{pad}{text}{pad}", most=most) == _reference(exact, most)


@settings(max_examples=300, deadline=None)
@given(value=st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**20, 10**20)),
       kind=st.sampled_from([None, np.float64, np.int64]))
def test_numbers_read_as_exact_arithmetic_says(value, kind):
    if kind is np.int64 and (isinstance(value, float) or not -2**63 <= value < 2**63):
        return
    cell = value if kind is None else kind(value)
    exact = Fraction(int(cell)) if isinstance(cell, (int, np.integer)) else Fraction(float(cell)) \
        if math.isfinite(cell) else None
    expected = None if exact is None else _reference(exact, None)
    assert whole_number(cell) == expected


@pytest.mark.parametrize("cell", [None, float("nan"), "", "  ", "trois", "1_000", "1 000", "inf", "nan", True,
                                  np.True_, False, "2,5", "-1", "1.000,0"])
def test_cells_that_are_no_number_of_cards(cell):
    assert whole_number(cell) is None


def test_the_logistics_model_reads_a_french_comma_as_the_others_do():
    from deckstat.games.profiles import get_profile
    from deckstat.play.logistics import LogisticsModel

    pandrea = get_profile("pandrea")

    def costs(cell):
        deck = Deck.from_table([{"name": "Golem", "count": 2, "type": "Unité", "cost": cell},
                                {"name": "Grenier", "count": 4, "type": "Logistique", "cost": None}])
        model = LogisticsModel(deck.with_synonyms(pandrea.synonyms), pandrea, policy="",
                               settings=dict(pandrea.play_model.settings))
        return model.cost.tolist()

    assert costs("2,0") == costs(2) == costs("2") == costs(2.0)


# --- the callers: positions point at the token --------------------------------------------------------------

ITEMS = st.lists(st.sampled_from(["Terrain=2", "Laink", '"A, B"', "[cost<=1]=1", "2 Laink", "other=3"]),
                 min_size=1, max_size=5)


@settings(max_examples=200, deadline=None)
@given(items=ITEMS, joins=st.lists(st.sampled_from([", ", ";", ",\n  ", "\r\n"]), min_size=4, max_size=4))
def test_known_card_items_point_at_their_text(items, joins):
    text = items[0] + "".join(join + item for join, item in zip(joins, items[1:]))
    found = _split_items(text)
    assert [item for item, _ in found] == items
    for item, position in found:
        assert text[position - 1:].startswith(item)


def test_an_item_left_open_at_the_end_is_kept():
    # An unclosed bracket or quote in the last item once dropped that item: a hand answered without its cards.
    assert _split_items("Terrain=1, 2 (Sort") == [("Terrain=1", 1), ("2 (Sort", 12)]
    assert _split_items('Laink, "Mime') == [("Laink", 1), ('"Mime', 8)]


@settings(max_examples=100, deadline=None)
@given(good=st.lists(st.sampled_from(["Terrain=2", "[cost<=1]=1", "Dragon", '"A, B">=1']), max_size=3),
       bad=st.sampled_from(["x", "²", "0", "-1", ""]))
def test_a_bad_priority_count_is_pointed_at(good, bad):
    text = ", ".join([*good, f"Terrain={bad}"])
    with pytest.raises(ExpressionError) as caught:
        parse_priority(text)
    assert caught.value.column == len(text) - len(bad) + 1


def test_a_superscript_count_in_a_hand_is_no_crash():
    deck = Deck.from_table([{"name": "Terrain", "count": 10, "type": "Terrain"},
                            {"name": "Laink", "count": 3, "type": "Personnage"}])
    assert [(m.tolist(), n) for m, n, _ in parse_known("Terrain=1", deck).classes] == [([True, False], 1)]
    with pytest.raises(DeckstatError, match="unknown card 'Terrain=²'"):
        parse_known("Terrain=²", deck)


# --- TOML tables ----------------------------------------------------------------------------------------------

def test_profiles_and_specs_refuse_a_misspelt_key_in_one_shape(tmp_path):
    import tomllib

    import deckstat
    from deckstat.batching.spec import load_spec
    from deckstat.games.profiles import parse_profile

    profile_file = Path(deckstat.__file__).parent / "games" / "wankul.toml"
    data = tomllib.loads(profile_file.read_text(encoding="utf-8"))
    data["play"]["hand_sise"] = 5
    with pytest.raises(DeckstatError) as profile:
        parse_profile(data, where="p.toml")
    spec = tmp_path / "spec.toml"
    spec.write_text('game = "wankul"\ntrails = 2000\n', encoding="utf-8")
    with pytest.raises(DeckstatError) as batch:
        load_spec(spec)
    assert str(profile.value) == "p.toml [play]: hand_sise: unknown key; did you mean 'hand_size'?"
    assert str(batch.value) == f"{spec}:2: trails: unknown key; did you mean 'trials'?"


def test_a_rule_table_names_its_kind_and_lists_its_keys_when_none_is_close():
    from deckstat.parsing import unknown_key

    assert unknown_key({"max": 1, "zzz": 2}, ("kind", "max"), rule="copies") == (
        "zzz", "unknown key for a 'copies' rule; expected one of kind, max")
    assert unknown_key({"max": 1, "max_fr": 2}, ("max",), accept=lambda key: key == "max_fr") is None


VALUES = st.sampled_from(["1", '"a, b = c"', "[1, 2, [3, 4]]", "{ inner = 1, other = [5, 6] }", "'x}y'", "true"])


@settings(max_examples=200, deadline=None)
@given(entries=st.dictionaries(st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True), VALUES, min_size=1,
                               max_size=4))
def test_the_keys_of_a_one_line_inline_table_are_found_at_its_line(entries):
    import tomllib

    from deckstat.batching.spec import key_lines

    text = "seed = 1\nsweep = { " + ", ".join(f"{k} = {v}" for k, v in entries.items()) + " }\n"
    assert tomllib.loads(text)["sweep"].keys() == entries.keys()
    lines = key_lines(text)
    assert {k for k in lines if k.startswith("sweep.")} == {f"sweep.{k}" for k in entries}
    assert all(lines[f"sweep.{k}"] == 2 for k in entries)


def test_known_cards_read_names_with_apostrophes_and_quoted_names():
    deck = Deck.from_table([{"name": "PILOTE D'AVION", "count": 2, "type": "Personnage"},
                            {"name": "FREDDY'S", "count": 3, "type": "Terrain"},
                            {"name": "Asteria, Spirit of Heaven's Blessing", "count": 4, "type": "Créature"},
                            {"name": "Autre", "count": 30, "type": "Personnage"}])
    known = parse_known("1 PILOTE D'AVION; 2 \"Asteria, Spirit of Heaven's Blessing\", FREDDY'S=1", deck)
    assert known.rows.tolist() == [1, 0, 2, 0]
    assert [(mask.tolist(), n) for mask, n, _ in known.classes] == [([False, True, False, False], 1)]
    # The quotes are not part of the name, in either kind.
    assert parse_known("'Autre', 2 \"FREDDY'S\"", deck).rows.tolist() == [0, 2, 0, 1]
