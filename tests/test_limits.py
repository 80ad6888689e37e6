"""Limits: every one in docs/limits.md matches its constant, and requests past them are refused before any work."""

from __future__ import annotations

import importlib
import os
import re
import tomllib

import numpy as np
import pytest
from helpers import DATA, ROOT, assert_user_error, run
from hypothesis import given, settings
from hypothesis import strategies as st

import deckstat
from deckstat import events
from deckstat._input import read_input_bytes
from deckstat._validate import check_turns
from deckstat.engines import exact
from deckstat.errors import DeckstatError, ExpressionError
from deckstat.questions import _setup
from deckstat.terms import MOST_EXPRESSION_TERMS

LIMITS_DOC = ROOT / "docs" / "limits.md"
CORPUS = ROOT / "tests" / "bad_inputs" / "limits.toml"
WANKUL = DATA / "wankul" / "sample_deck.csv"


def _table_rows() -> list[tuple[str, str, str]]:
    """(what, value, constant) of each row of the table in docs/limits.md."""
    rows = []
    for line in LIMITS_DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[2].startswith("`deckstat."):
            rows.append((cells[0], cells[1], cells[2].strip("`")))
    return rows


def test_the_limits_table_lists_the_constants_of_the_code():
    rows = _table_rows()
    assert len(rows) >= 20, rows
    for what, value, constant in rows:
        module, name = constant.rsplit(".", 1)
        actual = getattr(importlib.import_module(module), name)
        written = float(re.match(r"[\d,]+(\.\d+)?", value).group(0).replace(",", ""))
        assert written == actual, f"{what}: docs/limits.md says {value}, {constant} is {actual}"


def test_every_terms_limit_is_in_the_table():
    listed = {constant for _, _, constant in _table_rows()}
    import deckstat.terms as terms
    for name in dir(terms):
        if name.startswith("MOST_") or name == "DEFAULT_MAX_TRIALS":
            assert f"deckstat.terms.{name}" in listed, name


def _cases() -> list[dict]:
    with CORPUS.open("rb") as handle:
        return tomllib.load(handle)["case"]


def test_the_corpus_of_limits_is_well_formed():
    cases = _cases()
    ids = [case["id"] for case in cases]
    assert len(cases) >= 20
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i) and i.startswith("limits-") for i in ids)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path):
    pipe = tmp_path / "deck.csv"
    os.mkfifo(pipe)
    assert_user_error(run("odds", pipe, "--game", "wankul", "-e", "Terrain>=1"), str(pipe), "pipe")


def test_a_file_at_the_limit_is_read_and_one_byte_more_is_refused(tmp_path):
    path = tmp_path / "deck.csv"
    path.write_bytes(b"x" * 100)
    assert read_input_bytes(path, kind="cards", limit=100) == b"x" * 100
    with pytest.raises(DeckstatError, match="is 100 bytes, more than the"):
        read_input_bytes(path, kind="cards", limit=99)


def test_a_folder_and_a_missing_file_are_left_to_the_caller_to_word(tmp_path):
    with pytest.raises(IsADirectoryError):
        read_input_bytes(tmp_path, kind="profile", limit=10)
    with pytest.raises(FileNotFoundError):
        read_input_bytes(tmp_path / "absent.toml", kind="profile", limit=10)


def test_an_event_with_too_many_groups_is_refused_before_parsing(monkeypatch):
    def parse_nothing(self):
        raise AssertionError("parsed")

    monkeypatch.setattr(events._Parser, "or_expr", parse_nothing)
    text = " or ".join(["A"] * (MOST_EXPRESSION_TERMS + 1))
    with pytest.raises(ExpressionError, match="1,001 card groups") as info:
        events.parse_event(text)
    assert info.value.column == len(text)  # the 1,001st group is the last character


def test_ten_thousand_terms_are_refused_from_the_length_alone(monkeypatch):
    monkeypatch.setattr(events._Tokenizer, "_refuse_confusables", lambda self: pytest.fail("text was read"))
    with pytest.raises(ExpressionError, match="more than the 10,000 an expression may hold"):
        events.parse_event(" or ".join(["Terrain>=1"] * 10_000))


def test_deep_nesting_is_an_expression_error_not_a_recursion_error():
    for depth in (101, 200, 3000):
        with pytest.raises(ExpressionError, match="nested too deeply"):
            events.parse_event("(" * depth + "A" + ")" * depth)


@pytest.mark.parametrize("text", ["Dragon’s>=1", "'Dragon’s'>=1", '"A≥B">=1', '"« Nom »">=1'])
def test_look_alikes_inside_a_name_or_quotes_are_text(text):
    events.parse_event(text)


def test_a_long_expression_is_shown_cut_in_messages():
    text = "A and " * 300 + "B>="
    with pytest.raises(ExpressionError) as info:
        events.parse_event(text)
    message = str(info.value)
    assert "(1,803 characters)" in message and f"position {len(text) + 1}" in message
    assert len(message) < 300


def test_a_huge_turn_range_is_refused_without_listing_it():
    with pytest.raises(DeckstatError, match="beyond any game"):
        check_turns(range(10**30))


def test_exact_masks_too_large_are_refused_without_a_dry_run(monkeypatch):
    monkeypatch.setattr(_setup, "dry_run", lambda *a, **k: pytest.fail("dry run"))
    deck = deckstat.read_card_csv(DATA / "duel-masters" / "sample_deck.csv")
    event = ("[cost>=0]>=30 and [power>=0]>=30 and Créature>=25 and [cost<=9]>=30 and [power<=99999]>=30 and "
             "[cost>=1]>=30")
    with pytest.raises(DeckstatError, match="at least .* GiB"):
        deckstat.odds(deck, "dm", event, method="exact")
    result = deckstat.odds(deck, "dm", event, n_trials=2000, rng=1)  # auto simulates, with the bound as its note
    assert (result.table["method"] == "simulate").all()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=4), st.data())
def test_the_mask_from_sparse_axes_is_the_dense_one(caps, data):
    needs = [data.draw(st.integers(0, c + 1)) for c in caps]

    def holds(arrays):
        return np.logical_and.reduce([a >= n for a, n in zip(arrays, needs)])

    condition = exact.Condition(tuple(range(len(caps))), tuple(caps), holds)
    dense = np.indices([c + 1 for c in caps])
    np.testing.assert_array_equal(condition.mask(), holds(list(dense)).astype(float))
