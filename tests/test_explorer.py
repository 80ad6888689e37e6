"""The explorer without a browser: its state as a batch spec and an address, and its views' numbers.

The numbers an explorer shows are compared with the public questions asked directly of the deck as changed (and
with a batch run of the spec it saves); the page itself is driven in a browser by ``test_explorer_page.py``.
"""

from __future__ import annotations

import json
import math
import os
import string
import subprocess
import sys
import time

import pandas as pd
import pytest
from helpers import run, running, sample_deck
from hypothesis import given, settings
from hypothesis import strategies as st

import deckstat
from deckstat import DeckstatError
from deckstat.explorer.jobs import PARENT_LOOK_SECONDS
from deckstat.explorer.state import FINAL_TRIALS, ExploreState, parse_turn_range

pytest.importorskip("panel")

from deckstat.explorer.app import Explorer, escaped, latency  # noqa: E402

HOSTILE = "<img src=x onerror=alert(1)>"
TURNS = range(0, 7)


@pytest.fixture(scope="module", autouse=True)
def _no_helper_left():
    # An explorer answers its slower views in a helper process; none outlives this file (other files of the same
    # worker count the processes they start).
    yield
    from deckstat.explorer.jobs import HELPER

    HELPER.shutdown(wait=True)


@pytest.fixture(scope="module")
def deck():
    return deckstat.load_deck(sample_deck("wankul"))


def explorer_of(deck, **kwargs) -> Explorer:
    return Explorer.open(deck, "wankul", lang=kwargs.pop("lang", "en"), threaded=False, **kwargs)


def odds_p(deck, event="Terrain>=1", **kwargs) -> list[float]:
    kwargs.setdefault("seat", "both")
    result = deckstat.odds(deck, "wankul", event, turns=kwargs.pop("turns", TURNS), sides=False, rng=1, **kwargs)
    return result.table["p"].tolist()


def panes(explorer: Explorer) -> list[str]:
    return [explorer.rules_pane.object, explorer.event_status.object, explorer.answer_pane.object,
            explorer.odds_pane.object, explorer.mulligan_pane.object, explorer.card_pane.object,
            explorer.sensitivity_pane.object, explorer.status_pane.object]


# --- the state --------------------------------------------------------------------------------------------------

texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40)
states = st.builds(
    ExploreState, event=texts, seat=st.sampled_from(["first", "second", "both"]),
    turns=st.tuples(st.integers(0, 20), st.integers(0, 20)).map(lambda t: (min(t), max(t))),
    mulligan_rule=st.none() | st.sampled_from(["london", "none"]), keep=st.none() | texts, card=st.none() | texts,
    seed=st.integers(0, 10**11 - 1), counts=st.dictionaries(texts, st.integers(0, 60), max_size=4))


@settings(max_examples=150, deadline=None)
@given(states)
def test_a_state_comes_back_from_its_spec_and_its_address(state):
    again, path, game = ExploreState.from_spec_text(state.spec_text("/decks/d.csv", "wankul"))
    assert again == state and path == "/decks/d.csv" and game == "wankul"
    from urllib.parse import parse_qsl

    assert ExploreState.from_query(dict(parse_qsl(state.query())), ExploreState(event="x")) == state


@pytest.mark.parametrize(("fields", "key"), [
    ({"seat": "third"}, "seat"), ({"turns": "6-2"}, "turns"), ({"turns": "a"}, "turns"), ({"seed": "-1"}, "seed"),
    ({"counts": "{"}, "counts"), ({"counts": '{"A": -1}'}, "counts"), ({"counts": '{"A": 1.5}'}, "counts"),
    ({"event": "x" * 3000}, "event"),
])
def test_an_address_with_a_bad_value_is_refused_by_its_key(fields, key):
    with pytest.raises(DeckstatError, match=key):
        ExploreState.from_query(fields, ExploreState(event="Terrain>=1"))


@pytest.mark.parametrize(("text", "words"), [
    ("name = [", "not valid TOML"),
    ('[decks.a]\npath = "a.csv"\n[decks.b]\npath = "b.csv"\n', "one deck table"),
    ('[decks.a]\npath = "d.csv"\n[[questions]]\nquestion = "mulligan"\n', "odds question"),
    ('[decks.a]\npath = "other.csv"\n[[questions]]\nquestion = "odds"\nevent = "x"\n', "saved for the deck other.csv"),
    ('[decks.a]\npath = "d.csv"\ncounts = { A = "2" }\n[[questions]]\nquestion = "odds"\nevent = "x"\n',
     "decks.a.counts.A"),
])
def test_a_state_file_that_is_not_one_is_refused_with_its_reason(text, words):
    with pytest.raises(DeckstatError, match=words):
        ExploreState.from_spec_text(text, deck_name="d.csv")


def test_turn_ranges():
    assert parse_turn_range("0-6", source="s") == (0, 6)
    assert parse_turn_range(3, source="s") == (3, 3)
    assert parse_turn_range([1, 4], source="s") == (1, 4)


def test_a_saved_exploration_runs_as_a_batch_and_gives_the_numbers_shown(deck, tmp_path):
    from deckstat.batching import batch, load_spec

    explorer = explorer_of(deck)
    explorer.copies["Le Grenier Hanté"].value = 0
    explorer.card_input.value = "Robot Camembert"
    explorer.seat_input.value = "second"
    spec = tmp_path / "explore.toml"
    spec.write_text(explorer._spec_file().read(), encoding="utf-8")
    loaded = load_spec(spec)
    assert [t.question for t in loaded.tasks] == ["odds", "mulligan", "curve", "sensitivity"]
    table = batch(loaded, workers=1).table
    odds_rows = table[table["question"] == "odds"].sort_values("turn")
    shown = explorer.answers["odds"].table
    assert odds_rows["p"].tolist() == pytest.approx(shown["p"].tolist(), abs=1e-12)
    edited = deck.with_counts([0 if label == "Le Grenier Hanté" else c for label, c in zip(deck.labels, deck.counts)])
    assert shown["p"].tolist() == pytest.approx(odds_p(edited, seat="second"), abs=1e-12)
    # The playability curve's batch row is the explorer's last, tightest answer: same seed, same games.
    curve_rows = table[table["question"] == "curve"]
    card = explorer.answers["curve"].table
    assert int(card["n_trials"].iloc[0]) == FINAL_TRIALS
    assert sorted(curve_rows["p"].round(12)) == sorted(card["p"].round(12))


# --- the views --------------------------------------------------------------------------------------------------

def test_the_first_answer_is_odds_of_the_deck_as_changed(deck):
    explorer = explorer_of(deck)
    assert explorer.answers["odds"].table["p"].tolist() == pytest.approx(odds_p(deck), abs=1e-12)
    counts = deck.counts.copy()
    for card, value in (("Le Grenier Hanté", 0), ("Ninja du Marché", 3), ("Plage de Galets", 1)):
        explorer.copies[card].value = value
        counts[deck.labels.index(card)] = value
        wanted = odds_p(deck.with_counts(counts))
        assert explorer.answers["odds"].table["p"].tolist() == pytest.approx(wanted, abs=1e-12)
        assert f"data-p='{wanted[-1]:.12g}'" in explorer.answer_pane.object
    # 7 Terrains in 48 cards: the rule broken, in words.
    assert "Terrain: 7 in 48 cards" in explorer.rules_pane.object
    explorer.event_input.value_input = "Terrain>=2 and [cost<=1]>=1"
    assert explorer.answers["odds"].table["p"].tolist() == pytest.approx(
        odds_p(deck.with_counts(counts), "Terrain>=2 and [cost<=1]>=1"), abs=1e-12)
    explorer.turns_input.value = (2, 9)
    assert explorer.answers["odds"].table["turn"].tolist() == list(range(2, 10)) * 2  # first seat, then second


def test_an_event_the_parser_refuses_shows_its_message_and_no_number(deck):
    explorer = explorer_of(deck)
    explorer.event_input.value_input = "Terrain>= and"
    message = explorer.answers["problems"]["odds"]
    assert "position" in message
    assert escaped(message) in explorer.event_status.object
    assert "odds" not in explorer.answers and "data-p" not in explorer.answer_pane.object
    explorer.event_input.value_input = "Terrain>=1"
    assert "odds" in explorer.answers


def test_a_simulated_answer_tightens_to_the_same_numbers_as_asked_directly(deck):
    explorer = explorer_of(deck)
    explorer.rule_input.value = "london"
    result = explorer.answers["odds"]
    assert (result.table["method"] == "simulate").all() and int(result.table["n_trials"].iloc[0]) == FINAL_TRIALS
    direct = deckstat.odds(deck, "wankul", "Terrain>=1", turns=TURNS, mulligan_rule="london", sides=False,
                           n_trials=FINAL_TRIALS, rng=1)
    assert result.table["p"].tolist() == direct.table["p"].tolist()
    assert "data-done='1'" in explorer.status_pane.object


def test_both_seats_and_no_mulligan(deck):
    explorer = explorer_of(deck)
    assert explorer.answer_pane.object.count("data-p=") == 2  # both seats, as deckstat.odds asks by default
    explorer.seat_input.value = "first"
    assert explorer.answer_pane.object.count("data-p=") == 1
    explorer.seat_input.value = "both"
    assert explorer.answer_pane.object.count("data-p=") == 2
    explorer.rule_input.value = "none"
    assert explorer.keep_input.disabled
    size, terrains = deck.size, deck.count("Terrain")
    by_turn = explorer.answers["odds"].table
    first = by_turn[by_turn["seat"] == "first"]
    for turn, p in zip(first["turn"], first["p"]):
        assert p == pytest.approx(1 - math.comb(size - terrains, 5 + turn) / math.comb(size, 5 + turn), abs=1e-12)
    assert "every first hand is kept" in explorer.mulligan_pane.object


def test_card_names_are_text_in_every_view(deck):
    table = deck.cards.copy()
    table.loc[6, "name"] = HOSTILE
    hostile = deckstat.Deck.from_table(table, source="hostile.csv")
    explorer = explorer_of(hostile)
    explorer.card_input.value = HOSTILE
    explorer.event_input.value_input = f'"{HOSTILE}">=1'
    shown = "".join(panes(explorer))
    assert "<img" not in shown
    assert escaped(HOSTILE) in explorer.sensitivity_pane.object
    assert escaped(HOSTILE) in explorer.answer_pane.object


def test_the_explorer_in_french(deck):
    explorer = explorer_of(deck, lang="fr")
    answer = explorer.answer_pane.object
    assert "au tour" in answer and "\u00a0%" in answer and "," in answer
    explorer.event_input.value_input = "Terain>=1"
    assert "ne correspond" in explorer.event_status.object
    explorer.event_input.value_input = "Terrain>=1"
    explorer.card_input.value = "Robot Camembert"
    # The play model's policy as the French command line names it, not its English key.
    assert "stratégie\u00a0: garder" in explorer.card_pane.object


def test_a_saved_state_loads_back_and_another_decks_is_refused(deck):
    explorer = explorer_of(deck)
    explorer.copies["Ninja du Marché"].value = 3
    explorer.event_input.value_input = "Terrain>=2"
    text = explorer._spec_file().read()
    other = explorer_of(deck)

    class Upload:
        def __init__(self, data):
            self.new = data

    other._load_state_file(Upload(text.encode("utf-8")))
    assert other.current_state() == explorer.current_state()
    assert other.answers["odds"].table["p"].tolist() == explorer.answers["odds"].table["p"].tolist()
    other._load_state_file(Upload(text.replace("sample_deck.csv", "other_deck.csv").encode("utf-8")))
    assert "other_deck.csv" in other.state_pane.object and "deckstat-problem" in other.state_pane.object
    other._load_state_file(Upload(b"\xff\xfe"))
    assert "UTF-8" in other.state_pane.object


def test_latency_reports_each_change(deck):
    explorer = explorer_of(deck)
    seconds = latency(explorer, [{"copies:Ninja du Marché": 1}, {"event": "Terrain>=2"}, {"seat": "second"}])
    assert len(seconds) == 3 and all(s > 0 for s in seconds)


# --- the command line -------------------------------------------------------------------------------------------

def test_the_command_refuses_a_bad_deck_or_state_before_it_serves(tmp_path):
    result = run("explore", tmp_path / "missing.csv", "--game", "wankul", "--no-browser")
    assert result.exit_code == 2 and "Traceback" not in result.output
    state = tmp_path / "state.toml"
    state.write_text("secret = [", encoding="utf-8")
    result = run("explore", sample_deck("wankul"), "--game", "wankul", "--no-browser", "--state", state)
    assert result.exit_code == 2 and "not valid TOML" in result.output and "secret" not in result.output
    state.write_text('[decks.d]\npath = "sample_deck.csv"\ncounts = { Nobody = 2 }\n[[questions]]\n'
                     'question = "odds"\nevent = "Terrain>=1"\n', encoding="utf-8")
    result = run("explore", sample_deck("wankul"), "--game", "wankul", "--no-browser", "--state", state)
    assert result.exit_code == 2 and "Nobody" in result.output


def test_query_values_survive_any_text():
    # An address carries any text the player typed, quotes and ampersands included.
    state = ExploreState(event='"Oui, Chef !">=1 & x', keep=string.punctuation, counts={"Oui, Chef !": 3})
    from urllib.parse import parse_qsl

    assert ExploreState.from_query(dict(parse_qsl(state.query())), ExploreState(event="x")) == state
    assert json.loads(dict(parse_qsl(state.query()))["counts"]) == {"Oui, Chef !": 3}


def test_a_deck_from_a_file_of_several_decks_saves_its_name(tmp_path):
    from deckstat.batching import batch, load_spec

    rows = deckstat.load_deck(sample_deck("duel-masters")).cards
    both = tmp_path / "decks.csv"
    pd.concat([rows.assign(deck_name="Feu"), rows.assign(deck_name="Eau", count=1)]).to_csv(both, index=False)
    deck = deckstat.load_deck(both, deck_name="Feu")
    explorer = Explorer.open(deck, "duel-masters", lang="en", threaded=False)
    text = explorer.spec_text()
    assert 'deck_name = "Feu"' in text
    # Duel Masters keeps every hand: no keep/mulligan table, so none is asked.
    assert 'question = "mulligan"' not in text and "every first hand is kept" in explorer.mulligan_pane.object
    spec = tmp_path / "state.toml"
    spec.write_text(text, encoding="utf-8")
    table = batch(load_spec(spec), workers=1).table
    odds_rows = table[table["question"] == "odds"]
    assert odds_rows["p"].tolist() == pytest.approx(explorer.answers["odds"].table["p"].tolist(), abs=1e-12)


def test_a_port_taken_is_refused_in_one_line():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("explore", sample_deck("wankul"), "--game", "wankul", "--no-browser", "--port", port)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"cannot listen on 127.0.0.1 port {port}" in result.output


def test_a_decklist_saves_its_pool(tmp_path):
    from deckstat.batching import batch, load_spec

    decklist, pool = sample_deck("wankul", "decklist.txt"), sample_deck("wankul", "pool.csv")
    explorer = deckstat.explore(decklist, "wankul", pool=pool, lang="en")
    explorer.copies["Le Grenier Hanté"].value = 3
    explorer.wait()
    text = explorer.spec_text()
    assert f"pool = {json.dumps(str(pool.resolve()))}" in text
    spec = tmp_path / "state.toml"
    spec.write_text(text, encoding="utf-8")
    table = batch(load_spec(spec), workers=1).table
    assert table[table["question"] == "odds"]["p"].tolist() == pytest.approx(
        explorer.answers["odds"].table["p"].tolist(), abs=1e-12)


def test_a_keep_rule_the_parser_refuses_is_said_under_the_keep_rule(deck):
    explorer = explorer_of(deck)
    explorer.keep_input.value_input = "Terain>=1"
    assert "position 1" in explorer.keep_status.object and "Terain" in explorer.keep_status.object
    assert explorer.event_status.object == "" and "odds" not in explorer.answers
    explorer.keep_input.value_input = "Terrain>=1 and [cost<=1]>=1"
    assert explorer.keep_status.object == "" and "odds" in explorer.answers


# --- the helper process -----------------------------------------------------------------------------------------

@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads processes in /proc")
def test_the_helper_process_ends_with_the_process_it_helps():
    # A page's process killed (or stopped before it shut its helper down) left its idle helper waiting for a task
    # forever, holding the page's output open.
    script = ("import os, time\nfrom deckstat.explorer.jobs import Helper\nhelper = Helper()\n"
              "print(helper._started().submit(os.getpid).result(), flush=True)\ntime.sleep(600)\n")
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        helper = int(process.stdout.readline())
        time.sleep(2 * PARENT_LOOK_SECONDS)
        assert running(helper)  # an idle helper lives while its parent does
    finally:
        process.kill()
        process.wait()
        process.stdout.close()
    deadline = time.monotonic() + 20 * PARENT_LOOK_SECONDS
    while running(helper) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(helper)
