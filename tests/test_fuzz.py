"""Fuzzing of what reads user input: card files, decklists, events, profiles, batch specs, the command line.

Whatever the input, only deckstat's own errors (:class:`DeckstatError`) may escape, in one line, and nothing
may hang: every example runs under a hard time limit besides hypothesis' deadline. The command line must end
with code 0, 1 or 2, never 70 (a bug) or a traceback. ``DECKSTAT_FUZZ=deep`` runs 20 times as many
examples with random seeds (see tests/fuzzing.py).
"""

from __future__ import annotations

import os
import tempfile
import tomllib
from contextlib import contextmanager
from itertools import count
from pathlib import Path

import pytest
import typer
from fuzzing import (
    VALID_EVENTS,
    card_csv_bytes,
    card_csv_text,
    decklist_text,
    event_text,
    fuzz_settings,
    mutated_event,
    mutated_mapping,
    odd_text,
    only_deckstat_errors,
    time_limit,
)
from helpers import DATA, ROOT, run
from hypothesis import example, given
from hypothesis import strategies as st

from deckstat.batching.spec import load_spec
from deckstat.cards import load_deck, read_card_csv, read_decklist
from deckstat.cli import app
from deckstat.deck import Deck
from deckstat.errors import DeckstatError
from deckstat.events import parse_event, parse_group, to_text
from deckstat.games.profiles import load_profile_file, parse_profile
from deckstat.questions.odds import odds
from deckstat.questions.validate import validate

WANKUL = DATA / "wankul" / "sample_deck.csv"
POOL = DATA / "wankul" / "pool.csv"
_files = count()


@pytest.fixture(scope="module")
def folder():
    """One folder for the module's files: function-scoped fixtures are not reset between hypothesis examples."""
    with tempfile.TemporaryDirectory(prefix="deckstat-fuzz-") as name:
        yield Path(name)


def _write(folder: Path, data: bytes | str, suffix: str = ".csv") -> Path:
    path = folder / f"f{next(_files)}{suffix}"
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


@pytest.fixture(scope="module")
def small_deck() -> Deck:
    """The Wankul sample deck, the engines already warmed up (the first call compiles and imports)."""
    deck = load_deck(WANKUL)
    for method in ("exact", "simulate"):
        odds(deck, "wankul", "Terrain>=1", turns=[0, 1], method=method, n_trials=200 if method == "simulate" else None)
    return deck


def _use(deck: Deck) -> None:
    """What the questions do first with a loaded deck: its size, names, labels, groups and masks."""
    assert deck.size >= 1
    _ = deck.names, deck.labels, deck.attributes, deck.known_words()
    for group in ("Terrain", "[cost<=1]", "[type~Terr]"):
        only_deckstat_errors(lambda g=group: deck.count(g))


# ----- card files -----


@fuzz_settings(400)
@given(raw=st.binary(max_size=300))
@example(raw=b"")
@example(raw=b"\xff\xfe")
@example(raw=b"\xff\xfen\x00a\x00m\x00e\x00\n\x00")
@example(raw=b"name\n\x80\n")
@example(raw=b"name,count\nA,1\n\xe9t\xe9,2\n\xc3\xa9,1\n")
def test_card_loader_on_random_bytes(folder, raw):
    path = _write(folder, raw)
    deck = only_deckstat_errors(lambda: read_card_csv(path))
    if isinstance(deck, Deck):
        _use(deck)


@fuzz_settings(600)
@given(raw=card_csv_bytes())
def test_card_loader_on_mutated_card_files(folder, raw):
    path = _write(folder, raw)
    deck = only_deckstat_errors(lambda: load_deck(path))
    if isinstance(deck, Deck):
        _use(deck)


@fuzz_settings(200)
@given(text=card_csv_text(), event=st.sampled_from(["Terrain>=1", "[cost<=1]>=1", "distinct(Sort)>=1"]))
def test_loaded_card_file_goes_through_a_question(folder, text, event):
    path = _write(folder, text)
    deck = only_deckstat_errors(lambda: read_card_csv(path))
    if isinstance(deck, Deck):
        only_deckstat_errors(lambda: odds(deck, "generic", event, turns=[0, 1], method="exact", allow_absent=True))


@fuzz_settings(300)
@given(text=decklist_text(), pool=st.one_of(st.just(None), card_csv_text()))
@example(text="2 Le Grenier Hanté\n[Préparation]\n1 Plage de Galets", pool=None)
def test_decklist_with_a_pool(folder, text, pool):
    pool_path = POOL if pool is None else _write(folder, pool)
    path = _write(folder, text, ".txt")
    deck = only_deckstat_errors(lambda: read_decklist(path, pool_path))
    if isinstance(deck, Deck):
        _use(deck)


# ----- events -----


def _parses_back(event) -> None:
    """An event written by :func:`to_text` reads back as the same tree."""
    assert parse_event(to_text(event)) == event


@fuzz_settings(600)
@given(text=st.one_of(event_text, mutated_event(), st.text(max_size=40)))
@example(text="Terrain>=1e400")
@example(text="[cost>=1e400]")
@example(text="((((((((((Terrain))))))))))")
def test_event_parser(text):
    event = only_deckstat_errors(lambda: parse_event(text))
    if not isinstance(event, DeckstatError):
        with time_limit():
            _parses_back(event)
    only_deckstat_errors(lambda: parse_group(text))


#: Events that parse but ask the deck something odd: a group or column it lacks, a value no card has.
ABSENT_OR_ODD = ["Dragon>=1", "[puissance<=1]>=1", "[cost>=1e300]", "[cost=-0]", "[cost~1]", "[cost~=0]",
                 "[force<0]>=1", "[clan=Laink;Terracid]", "distinct([cost<=1])>=99", "Terrain>=51", "Terrain=0",
                 "not not not Terrain", "Terrain>=0 or Terrain<0", "[name~=' ']", "[type='']", "Terrain<=0",
                 "\"Le Grenier Hanté\">=3", "[count>=2]", "[name=Terrain]", "distinct(\"Plage de Galets\")>=2"]


@fuzz_settings(300, deadline_ms=5000)
@given(text=st.one_of(mutated_event(), st.sampled_from(VALID_EVENTS + ABSENT_OR_ODD)),
       method=st.sampled_from(["exact", "simulate"]))
def test_event_against_a_deck(small_deck, text, method):
    """A parsed event resolved against a deck: groups absent, columns missing, comparisons that cannot hold."""
    only_deckstat_errors(lambda: odds(small_deck, "wankul", text, turns=[0, 2], method=method,
                                      n_trials=200 if method == "simulate" else None, rng=1))


# ----- profiles -----

SHIPPED = ROOT / "deckstat" / "games"
PROFILES = {name: tomllib.loads((SHIPPED / f"{name}.toml").read_text(encoding="utf-8"))
            for name in ("wankul", "duel_masters", "licum", "generic")}


@fuzz_settings(500, deadline_ms=5000)
@given(data=st.sampled_from(sorted(PROFILES)).flatmap(lambda name: mutated_mapping(PROFILES[name])))
def test_profile_from_a_mutated_shipped_profile(small_deck, data):
    profile = only_deckstat_errors(lambda: parse_profile(data, where="fuzz.toml"))
    if isinstance(profile, DeckstatError):
        return
    only_deckstat_errors(lambda: validate(small_deck, profile))
    only_deckstat_errors(lambda: odds(small_deck, profile, "Terrain>=1", turns=[0, 1], method="simulate",
                                      n_trials=200, rng=1))


TOML_PIECES = ["id = \"x\"\n", "name = \"X\"\n", "[play]\n", "hand_size = 5\n", "hand_size = -1\n",
               "hand_size = 1e400\n", "hand_size = 99999999999999999999999\n", "[[decks]]\n", "id = \"main\"\n",
               "decks = []\n", "first_turn_draw = { first = 1, second = 1 }\n", "mulligan = \"bottom\"\n",
               "keep = \"Terrain>=\"\n", "[play_model]\n", "kind = \"mana\"\n", "[synonyms]\n", "type = [[\"a\"]]\n",
               "= 1\n", "[\n", "\"\n", "'''\n", "x = nan\n", "x = inf\n", "\x00", "\ufeff", "é = 1\n"]


@fuzz_settings(300)
@given(text=st.one_of(st.lists(st.sampled_from(TOML_PIECES), max_size=12).map("".join), st.text(max_size=80)),
       raw=st.booleans())
def test_profile_file_on_random_toml(folder, text, raw):
    path = _write(folder, text.encode("utf-8", "surrogatepass") if raw else text.encode("utf-8", "replace"),
                  ".toml")
    only_deckstat_errors(lambda: load_profile_file(path))


# ----- batch specs -----

SPEC = tomllib.loads((ROOT / "runs" / "tournament.toml").read_text(encoding="utf-8"))


@fuzz_settings(400, deadline_ms=5000)
@given(data=mutated_mapping(SPEC))
def test_batch_spec_from_a_mutated_spec(data):
    only_deckstat_errors(lambda: load_spec(data, base_dir=ROOT / "runs"))


@fuzz_settings(200)
@given(text=st.lists(st.sampled_from(["name = \"t\"\n", "seed = 1\n", "seed = -1\n", "trials = 0\n",
                                      "[decks.w]\n", "path = \"../data/wankul/sample_deck.csv\"\n",
                                      "game = \"wankul\"\n", "[[questions]]\n", "question = \"odds\"\n",
                                      "event = \"Terrain>=1\"\n", "turns = \"0-99999999999\"\n",
                                      "[questions.sweep]\n", "seat = []\n", "= 1\n", "\xff", "\x00"]),
                     max_size=14).map("".join))
def test_batch_spec_file_on_random_toml(folder, text):
    path = folder / "runs" / f"s{next(_files)}.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(text.encode("utf-8", "replace"))
    only_deckstat_errors(lambda: load_spec(path, base_dir=ROOT / "runs"))


# ----- the command line -----

COMMANDS = typer.main.get_command(app).commands
#: Commands whose cost the fuzzer can bound (report and batch run many questions; batch specs are fuzzed above).
FUZZED_COMMANDS = ["validate", "odds", "when", "curve", "mulligan", "deckout", "ratio", "compare", "games"]
SAMPLE_DECKS = [str(DATA / "wankul" / "sample_deck.csv"), str(DATA / "duel-masters" / "sample_deck.csv"),
                str(DATA / "licum" / "sample_deck.csv"), str(DATA / "wankul" / "decklist.txt"),
                str(DATA / "jdg" / "sample_deck.csv"), str(DATA / "pandrea" / "sample_deck.csv")]
JUNK = ["", " ", "-", "--", "-1", "0", "1e400", "nan", "abc", "🐉", "\u200b", "é", "9" * 30, "1,5", "-e", "--event",
        "\x00", "[", "'", "Terrain>=", "1-", "3-1", "0-99999999", "1,,2", "x" * 300, "{tmp}/" + "y" * 300]
#: Values that make sense for each option (small, so that a simulation stays short).
GOOD = {
    "--game": ["wankul", "duel-masters", "licum", "jdg", "pandrea", "generic", "dm", "mtg",
               str(DATA / "mtg" / "profile.toml")],
    "--event": ["Terrain>=1", "[cost<=1]>=1", "distinct(Terrain)>=2", "Créature>=1", "Improvisateur>=1"],
    "--keep": ["Terrain>=1", "Terrain>=2 and Sort<=3"],
    "--group": ["Terrain", "[cost<=2]", "Sort"], "--resource": ["Terrain"], "--priority": ["Terrain", "Sort"],
    "--card": ["Terrain", "Le Grenier Hanté"], "--curve-group": ["Terrain"], "--filler": ["Sort", "Terrain"],
    "--known": ["hand: Le Grenier Hanté", "Terrain=1"], "--gone": ["Terrain=1"], "--bottom": ["Terrain=1"],
    "--given": ["Terrain>=1"], "--broken": ["Terrain"], "--hand": ["Terrain=2"],
    "--turns": ["0", "0-2", "1,3", "0-3"], "--max-turn": ["1", "3"], "--draws": ["0", "1", "0-2"],
    "--cards": ["40", "5"], "--hand-size": ["5", "7", "0"], "--range": ["9-11", "10"],
    "--seat": ["first", "second", "both", "premier", "les-deux"], "--zone": ["seen", "hand", "set_aside", "bottom"],
    "--mulligan-rule": ["bottom", "london", "pokemon", "none", "hearthstone"], "--mulligan-limit": ["1", "2", "0"],
    "--trials": ["200", "100", "1e2", "1_000"], "--max-trials": ["500", "2000"], "--seed": ["1", "0", "42"],
    "--precision": ["0.2", "0.1", "0.5"], "--chunk-size": ["100", "1000"], "--workers": ["1"],
    "--target": ["0.9", "0.5", "1"], "--target-turn": ["2", "0"], "--objective": ["curve", "event"],
    "--policy": ["greedy", "hold", "none"], "--flood": ["3"], "--terrain-turns": ["3", "auto", "0"],
    "--drought-order": ["together", "active_first"], "--opponent": [SAMPLE_DECKS[0]], "--copies-by": ["name"],
    "--format": ["text", "json", "csv", "md"], "--lang": ["en", "fr", "de"], "--pool": [str(POOL)],
    "--ratio": ["Terrain"], "--by-turn": ["2"],
}
#: Options whose good values write a file (in the example's own folder).
FILE_OPTIONS = {"--table": ".csv", "--plot": ".png"}
#: Options left out: a value of these may make a command spend far longer than an example may.
EXPENSIVE = {"--workers"}


def _options(command: str) -> dict[str, object]:
    """The options of a command by their first flag, with the parameter behind each."""
    return {param.opts[0]: param for param in COMMANDS[command].params if param.param_type_name == "option"}


def _costly(flag: str, value: str) -> bool:
    """Whether ``value`` of ``flag`` is a valid but long simulation (the fuzzer keeps examples short)."""
    try:
        number = float(value.replace("_", ""))
    except ValueError:
        return False
    # Values past the options' own bounds are refused at once: only the long valid ones are left out.
    if flag in ("--trials", "--max-trials"):
        return 5000 < number < 1e13
    if flag == "--precision":
        return 0 < number < 0.05
    if flag in ("--turns", "--max-turn", "--by-turn", "--target-turn"):
        return 20 < number <= 1000
    return False


@st.composite
def argv(draw) -> tuple[list[str], dict[str, str]]:
    """A command line: a real command, a sample deck, then options with good, junk or out-of-range values.

    Returns the arguments and the files to write in the example's folder (name -> suffix).
    """
    command = draw(st.sampled_from(FUZZED_COMMANDS))
    if command == "games":
        return ["games", *draw(st.lists(st.sampled_from(["--lang", "fr", "en", "xx", "-e"]), max_size=3))], {}
    options = _options(command)
    args = [command]
    decks = 2 if command == "compare" else 1
    args += draw(st.lists(st.sampled_from(SAMPLE_DECKS), min_size=decks, max_size=decks))
    if "--game" in options:
        args += ["--game", draw(st.sampled_from(GOOD["--game"][:6]))]
    if "--event" in options and options["--event"].required:
        args += ["-e", draw(st.sampled_from(GOOD["--event"]))]
    flags = sorted(f for f in options if f not in EXPENSIVE)
    for flag in draw(st.lists(st.sampled_from(flags), max_size=5)):
        param = options[flag]
        if param.is_flag:
            args.append(draw(st.sampled_from([flag, *param.secondary_opts])))
            continue
        if flag in FILE_OPTIONS:
            value = draw(st.sampled_from(["{tmp}/out" + FILE_OPTIONS[flag], "{tmp}", "{tmp}/none/x.csv",
                                          "{tmp}/out.xyz", ""]))
        else:
            value = draw(st.one_of(st.sampled_from(GOOD.get(flag, ["1"])), st.sampled_from(JUNK),
                                   st.integers(-(10**12), 10**12).map(str),
                                   st.floats(allow_nan=True).map(str), odd_text))
            if _costly(flag, value):
                value = GOOD.get(flag, ["1"])[0]
        args += [flag, value]
    # Every simulation stays short: a few hundred trials, a bounded precision run.
    if "--max-trials" in options:
        args += ["--max-trials", "2000"] if "--max-trials" not in args else []
    if "--trials" in options and "--trials" not in args and "--exact" not in args and "--precision" not in args:
        if command not in ("odds", "when", "curve") or draw(st.booleans()):
            args += ["--trials", "300"]
    return args, {}


@contextmanager
def _inside(folder: Path):
    """Run with ``folder`` as the working directory (files the command writes land there)."""
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def check_cli_outcome(result) -> None:
    """Exit 0, 1 or 2 without a traceback; exit 2 is one ``error:`` line and nothing on stdout."""
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output, result.output
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.stderr)
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(("error: ", "erreur\u00a0: ")), result.stderr
        # Click's own usage errors (several lines) are made one line elsewhere; deckstat's are checked here.


# A whole command per example (a second at most): the suite's quick run tries 100 fixed ones, the deep run 6,000.
@fuzz_settings(100, deadline_ms=15000, deep_examples=6000)
@given(command=argv())
@example(command=(["odds", SAMPLE_DECKS[0], "--game", "wankul", "-e", "Terrain>=1", "--turns", "0-2"], {}))
# A line separator in a file name split the one error line in two.
@example(command=(["ratio", SAMPLE_DECKS[0], "--game", "wankul", "--pool", "\u2028", "--trials", "300"], {}))
# The playability of every card of a 61-card deck: its legend, taller than the figure, collapsed the axes
# (matplotlib's warning, an error under the suite's warning filter: exit 70).
@example(command=(["curve", SAMPLE_DECKS[2], "--game", "generic", "--plot", "{tmp}/out.png", "--max-trials", "2000"],
                  {}))
# A group the deck lacks left the default ratio sweep empty: IndexError, exit 70.
@example(command=(["ratio", SAMPLE_DECKS[0], "--game", "wankul", "--group", "Sort", "--trials", "300"], {}))
def test_command_line(folder, command):
    args, _ = command
    example_folder = Path(tempfile.mkdtemp(dir=folder))
    args = [a.replace("{tmp}", str(example_folder)) for a in args]
    with _inside(example_folder), time_limit():
        result = run(*args)
    if result.exit_code == 2 and not result.stderr.startswith(("error: ", "erreur\u00a0: ")):
        return  # a usage error of click itself (several lines): not deckstat's to shape here
    check_cli_outcome(result)
    leftovers = [p.name for p in example_folder.iterdir() if p.name.startswith(".deckstat-partial-")]
    assert not leftovers, leftovers


# ----- names the system refuses (found by the fuzzer: a profile name 3,000 characters long) -----

LONG = "x" * 300  # longer than any file name the system allows (255 bytes)
REFUSED_NAMES = [LONG, "a\0b"]


@pytest.mark.parametrize("name", REFUSED_NAMES, ids=["too-long", "nul"])
@pytest.mark.parametrize("load", [
    lambda name: read_card_csv(name + ".csv"),
    lambda name: read_decklist(name + ".txt", POOL),
    lambda name: load_profile_file(name + ".toml"),
    lambda name: load_spec(name + ".toml"),
    lambda name: load_spec({"decks": {"w": {"path": name, "game": "wankul"}},
                            "questions": [{"question": "odds", "event": "Terrain>=1"}]}, base_dir=ROOT / "runs"),
    lambda name: load_spec({"decks": {"w": {"path": "../data/wankul/decklist.txt", "pool": name, "game": "wankul"}},
                            "questions": [{"question": "odds", "event": "Terrain>=1"}]}, base_dir=ROOT / "runs"),
    lambda name: load_spec({"decks": {"w": {"path": "../data/wankul/sample_deck.csv", "game": "wankul" * 60}},
                            "questions": [{"question": "odds", "event": "Terrain>=1"}]}, base_dir=ROOT / "runs"),
], ids=["cards", "decklist", "profile", "spec", "spec-deck", "spec-pool", "spec-game"])
def test_a_name_the_system_refuses_is_an_input_error(load, name):
    with pytest.raises(DeckstatError):
        load(name)


@pytest.mark.parametrize("args", [
    ["odds", WANKUL, "--game", "wankul" * 60, "-e", "Terrain>=1"],
    ["odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--known", "hand: " + LONG],
    ["odds", WANKUL, "--game", "wankul", "-e", "Terrain>=1", "--plot", f"{tempfile.gettempdir()}/{LONG}.png"],
    ["report", WANKUL, "--game", "wankul", "--trials", "100", "--out", f"{tempfile.gettempdir()}/{LONG}"],
], ids=["game", "known", "plot", "report-out"])
def test_a_name_the_system_refuses_on_the_command_line(args):
    result = run(*args)
    check_cli_outcome(result)
    assert result.exit_code == 2, result.stderr
