"""Game profiles: shipped profiles, lookup, user profile files and their errors."""

import re
import shutil
import tomllib
import unicodedata
from pathlib import Path

import pytest
from helpers import ROOT

import deckstat
from deckstat import Deck, DeckstatError, get_profile, list_profiles, load_profile_file, validate
from deckstat.games.profiles import RULE_KINDS, Profile, parse_profile
from deckstat.terms import DECKOUT_RULES, MULLIGAN_RULES, SEATS

PROFILES = ROOT / "deckstat" / "games"
RULES_TEXTS = ROOT.parent / "shared" / "rules"
SHIPPED = ["duel-masters", "generic", "jdg", "licum", "pandrea", "wankul"]

# A small, valid user profile; the malformed-file tests break it one key at a time.
USER_PROFILE = """\
id = "mini"
name = "Mini Game"
aliases = ["mini-game"]
card_types = ["Land", "Spell"]
resource_group = "Land"
assumptions = ["Invented for a test."]

[[decks]]
id = "main"
name = "deck"

[[decks.rules]]
kind = "size"
min = 10
max = 20
text = "10 to 20 cards"

[[decks.rules]]
kind = "copies"
max = 2
text = "at most 2 copies of a card"

[[decks.rules]]
kind = "count"
group = "Land"
min = 3
text = "at least 3 Lands"

[play]
hand_size = 4
mulligan = "bottom"
keep = "Land>=1"
first_turn_draw = { first = 0, second = 1 }
draws_per_turn = 2
deckout = "lose_on_failed_draw"
"""


def write(tmp_path: Path, text: str, name: str = "mini.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def mini_deck(lands: int, spells: int, copies: int = 1) -> Deck:
    rows = [{"name": f"Land {i}", "count": 1, "type": "Land"} for i in range(lands)]
    rows += [{"name": f"Spell {i}", "count": 1, "type": "Spell"} for i in range(spells)]
    if copies > 1:
        rows.append({"name": "Copied", "count": copies, "type": "Spell"})
    return Deck.from_table(rows)


# ---------------------------------------------------------------- shipped profiles


def test_list_profiles_ids():
    profiles = list_profiles()
    assert sorted(p.id for p in profiles) == SHIPPED
    assert all(isinstance(p, Profile) for p in profiles)


@pytest.mark.parametrize("game", SHIPPED)
def test_shipped_profile_is_documented(game):
    profile = get_profile(game)
    assert profile.assumptions, "every profile writes its assumptions down"
    assert profile.mulligan in MULLIGAN_RULES and profile.deckout in DECKOUT_RULES
    for part in profile.parts:
        assert part.rules
        for rule in part.rules:
            assert rule.kind in RULE_KINDS and rule.text and rule.source
    if game != "generic":
        assert profile.sources and all(s.startswith("«") for s in profile.sources)


@pytest.mark.skipif(not RULES_TEXTS.is_dir(), reason="the rules texts are not available")
def test_quoted_sources_appear_verbatim_in_the_rules_texts():
    def norm(text: str) -> str:
        return " ".join(unicodedata.normalize("NFC", text).replace("’", "'").split())

    corpus = norm(" ".join(p.read_text(encoding="utf-8") for p in RULES_TEXTS.glob("*.txt")))
    missing = []
    for profile in list_profiles():
        texts = [*profile.sources, *profile.special_rules, *profile.assumptions,
                 *(r.source for part in profile.parts for r in part.rules),
                 *profile.play_model.sources, *profile.play_model.assumptions]
        for quote in (q for text in texts for q in re.findall(r"«\s*(.*?)\s*»", text)):
            if norm(quote).rstrip("…").strip() not in corpus:
                missing.append((profile.id, quote))
    assert missing == []


@pytest.mark.parametrize(("game", "expected"), [
    ("wankul", {"hand_size": 5, "set_aside": 0, "mulligan": "bottom", "mulligan_limit": 1, "keep": "Terrain>=1",
                "deckout": "lose_on_failed_draw", "resource_group": "Terrain"}),
    ("duel-masters", {"hand_size": 5, "set_aside": 5, "set_aside_name": "shields", "mulligan": "none",
                      "mulligan_limit": 0, "deckout": "lose_on_last_draw", "resource_group": None}),
    ("jdg", {"hand_size": 5, "mulligan": "none", "deckout": "end_after_last_draw", "resource_group": "TERRAIN"}),
    ("licum", {"hand_size": 7, "mulligan": "none", "deckout": "end_when_both_cannot_draw", "draw_part": "game",
               "resource_group": "Improvisateur"}),
    ("pandrea", {"hand_size": 5, "mulligan": "none", "deckout": "lose_at_end_of_turn",
                 "resource_group": "Logistique"}),
])
def test_shipped_play_settings(game, expected):
    profile = get_profile(game)
    assert {key: getattr(profile, key) for key in expected} == expected


def test_licum_has_two_deck_parts():
    profile = get_profile("licum")
    assert [p.id for p in profile.parts] == ["preparation", "game"]
    assert profile.part().id == "game"
    assert "jeu" in profile.part("game").aliases and "prep" in profile.part("preparation").aliases
    with pytest.raises(DeckstatError, match="no deck part 'sideboard'"):
        profile.part("sideboard")


# ---------------------------------------------------------------- lookup


@pytest.mark.parametrize(("name", "game"), [
    ("dm", "duel-masters"), ("DM", "duel-masters"), ("duel_masters", "duel-masters"),
    ("Duel-Masters", "duel-masters"), ("Duel Masters", "duel-masters"), ("duelmasters", "duel-masters"),
    ("jdg", "jdg"), ("JDG", "jdg"), ("jdg-tcg", "jdg"), ("Wankul", "wankul"), ("wankul-jcc", "wankul"),
    ("LICUM", "licum"), ("Pandrea", "pandrea"), ("generic", "generic"),
])
def test_lookup_by_id_alias_or_name(name, game):
    profile = get_profile(name)
    assert profile.id == game
    assert profile is next(p for p in list_profiles() if p.id == game)


def test_get_profile_returns_a_profile_unchanged():
    profile = get_profile("wankul")
    assert get_profile(profile) is profile


@pytest.mark.parametrize(("name", "suggestion"), [("wankl", "wankul"), ("pandera", "pandrea"),
                                                   ("duel master", "duel-masters")])
def test_unknown_game_suggests_the_closest(name, suggestion):
    with pytest.raises(DeckstatError) as info:
        get_profile(name)
    message = str(info.value)
    assert f"unknown game {name!r}" in message
    assert f"did you mean {suggestion!r}" in message
    assert all(game in message for game in SHIPPED)


def test_unknown_game_without_close_match_lists_the_games():
    with pytest.raises(DeckstatError, match=r"expected one of duel-masters, .*wankul or a \.toml"):
        get_profile("zzzz")


@pytest.mark.parametrize("value", [42, None, ["wankul"]])
def test_game_must_be_text_a_path_or_a_profile(value):
    with pytest.raises(DeckstatError, match="game must be a name or a profile file"):
        get_profile(value)


# ---------------------------------------------------------------- user profile files


def test_user_profile_loads_by_path_and_validates(tmp_path):
    path = write(tmp_path, USER_PROFILE)
    for game in (str(path), path):
        profile = get_profile(game)
        assert (profile.id, profile.name, profile.hand_size, profile.draws_per_turn) == ("mini", "Mini Game", 4, 2)
        assert profile.path == str(path)
    assert validate(mini_deck(3, 7), str(path)).table.empty
    result = validate(mini_deck(2, 8, copies=3), path)
    triples = set(zip(result.table["subject"], result.table["found"], result.table["allowed"]))
    assert triples == {("Land", "2 cards", "at least 3 cards"), ("Copied", "3 copies", "at most 2")}
    result = validate(mini_deck(3, 18), path)
    assert list(result.table["found"]) == ["21 cards"] and list(result.table["allowed"]) == ["10 to 20 cards"]


def test_user_profile_without_toml_extension_loads_by_path(tmp_path):
    path = write(tmp_path, USER_PROFILE, name="mini_profile")
    assert get_profile(str(path)).id == "mini"


def test_copy_of_the_generic_profile_loads(tmp_path):
    source = ROOT / "deckstat" / "games" / "generic.toml"
    path = tmp_path / "my_game.toml"
    shutil.copy(source, path)
    profile = get_profile(str(path))
    assert profile.id == "generic" and profile.path == str(path)
    assert validate(mini_deck(1, 4), profile).table.empty


def test_missing_profile_file(tmp_path):
    path = tmp_path / "nope.toml"
    with pytest.raises(DeckstatError, match="profile file not found") as info:
        get_profile(str(path))
    assert str(path) in str(info.value)


def test_directory_is_not_a_profile_file(tmp_path):
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    with pytest.raises(DeckstatError, match="cannot read the profile file") as info:
        load_profile_file(folder)
    assert str(folder) in str(info.value)


DECKS = USER_PROFILE[USER_PROFILE.index("[[decks]]"):USER_PROFILE.index("[play]")]

# Each case: (old text, new text, substrings the error message must contain besides the file name).
MALFORMED = {
    "missing play": ("[play]\nhand_size = 4", "[other]\nhand_size = 4", ["missing 'play'"]),
    "missing decks": (DECKS, "", ["missing 'decks'"]),
    "decks as a table": (DECKS, '[decks]\nid = "main"\n\n', ["decks: expected a list, got a table"]),
    "no deck": (DECKS, "decks = []\n\n", ["'decks' lists no deck"]),
    "missing id": ('id = "mini"\n', "", ["missing 'id'"]),
    "missing hand_size": ("hand_size = 4\n", "", ["[play]", "missing 'hand_size'"]),
    "hand_size not an integer": ("hand_size = 4", 'hand_size = "4"',
                                 ["[play]", "hand_size: expected a whole number, got a text '4'"]),
    "hand_size a boolean": ("hand_size = 4", "hand_size = true",
                            ["hand_size: expected a whole number, got true/false True"]),
    "negative hand_size": ("hand_size = 4", "hand_size = -1", ["'hand_size' must be at least 0"]),
    "bad mulligan": ('mulligan = "bottom"', 'mulligan = "shuffle"',
                     ["[play]", "'mulligan' must be one of none, bottom", "'shuffle'"]),
    "mulligan without keep": ('keep = "Land>=1"\n', "", ["[play]", "needs a default 'keep' rule"]),
    "keep does not parse": ('keep = "Land>=1"', 'keep = "Land>="', ["[play] keep", "Land>="]),
    "zero mulligan_limit": ('mulligan = "bottom"', 'mulligan = "bottom"\nmulligan_limit = 0',
                            ["'mulligan_limit' must be at least 1"]),
    "bad deckout": ('deckout = "lose_on_failed_draw"', 'deckout = "lose_on_faild_draw"',
                    ["[play]", "'deckout' must be one of", "did you mean 'lose_on_failed_draw'"]),
    "first_turn_draw without second": ("{ first = 0, second = 1 }", "{ first = 0 }",
                                       ["[play] first_turn_draw", "missing 'second'"]),
    "negative draws_per_turn": ("draws_per_turn = 2", "draws_per_turn = -1", ["'draws_per_turn' must be at least 0"]),
    "draw_deck unknown": ("draws_per_turn = 2", 'draws_per_turn = 2\ndraw_deck = "game"',
                          ["'draw_deck' 'game' is not one of the decks (main)"]),
    "bad kind": ('kind = "size"', 'kind = "sise"',
                 ["[[decks]] #1 rule #1", "unknown rule kind 'sise'", "did you mean 'size'"]),
    "rule without text": ('text = "at least 3 Lands"\n', "", ["[[decks]] #1 rule #3", "missing 'text'"]),
    "group does not parse": ('group = "Land"\nmin', 'group = "[cost<=]"\nmin',
                             ["[[decks]] #1 rule #3 group", "[cost<=]"]),
    "group of two words": ('group = "Land"\nmin', 'group = "Land Spell"\nmin',
                           ["[[decks]] #1 rule #3 group", "Land Spell"]),
    "copies without max": ('max = 2\ntext = "at most 2', 'text = "at most 2',
                           ["[[decks]] #1 rule #2", "missing 'max'"]),
    "max not an integer": ("max = 2\n", 'max = "2"\n',
                           ["[[decks]] #1 rule #2", "max: expected a whole number, got a text '2'"]),
    "count without bounds": ("min = 3\n", "", ["[[decks]] #1 rule #3", "needs 'min' or 'max'"]),
    "min above max": ("min = 10\nmax = 20", "min = 20\nmax = 10", ["rule #1", "'min' (20) is larger than 'max' (10)"]),
    "bad level": ('text = "at least 3 Lands"', 'text = "at least 3 Lands"\nlevel = "warn"',
                  ["[[decks]] #1 rule #3", "'level' must be one of error, warning", "'warn'"]),
    "aliases not strings": ('aliases = ["mini-game"]', "aliases = [1]",
                            ["aliases: expected a list of texts, got the item 1"]),
    "resource group does not parse": ('resource_group = "Land"', 'resource_group = "[Land"',
                                      ["resource_group", "'[Land'"]),
    "invalid TOML": ('name = "Mini Game"', "name = Mini Game", ["not a valid TOML profile"]),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_profile_names_the_file_and_the_key(tmp_path, case):
    old, new, expected = MALFORMED[case]
    assert old in USER_PROFILE
    path = write(tmp_path, USER_PROFILE.replace(old, new, 1))
    with pytest.raises(DeckstatError) as info:
        get_profile(str(path))
    message = str(info.value)
    assert str(path) in message
    for text in expected:
        assert text in message


def test_a_profile_and_a_batch_spec_refuse_a_value_of_the_wrong_kind_in_one_shape(tmp_path):
    from deckstat.batching.spec import load_spec

    profile = write(tmp_path, USER_PROFILE.replace('name = "Mini Game"', "name = 3", 1))
    with pytest.raises(DeckstatError) as from_profile:
        get_profile(str(profile))
    spec = tmp_path / "spec.toml"
    spec.write_text('[decks.w]\npath = 3\ngame = "wankul"\n[[questions]]\nquestion = "odds"\nevent = "Terrain>=1"\n',
                    encoding="utf-8")
    with pytest.raises(DeckstatError) as from_spec:
        load_spec(str(spec))
    # KEY: expected WHAT, got KIND VALUE, after the file and the place, in both.
    assert re.search(r"name: expected a text, got a whole number 3$", str(from_profile.value))
    assert re.search(r":2: decks\.w\.path: expected a non-empty text, got a whole number 3$", str(from_spec.value))


RULE_CASES = {
    "ratio per zero": ('kind = "ratio"\ngroup = "Land"\nper = 0', ["'per' must be at least 1"]),
    "ratio without group": ('kind = "ratio"\nper = 5', ["missing 'group'"]),
    "fraction without of": ('kind = "fraction"\ngroup = "Land"\nmax = 0.5', ["missing 'of'"]),
    "fraction max text": ('kind = "fraction"\ngroup = "Land"\nof = "Spell"\nmax = "half"',
                          ["max: expected a number"]),
    "allowed groups as text": ('kind = "allowed"\ngroups = "Land"', ["groups: expected a list, got a text"]),
    "allowed no groups": ('kind = "allowed"\ngroups = []', ["'groups' lists no group"]),
    "allowed group does not parse": ('kind = "allowed"\ngroups = ["Land", "[x"]', ["rule #4 groups", "'[x'"]),
    "count_as_one group does not parse": ('kind = "size"\nmax = 3\ncount_as_one = ["(Land"]',
                                          ["rule #4 count_as_one"]),
    "same_value without attribute": ('kind = "same_value"\ngroup = "Land"', ["missing 'attribute'"]),
    "distinct without bounds": ('kind = "distinct"\ngroup = "Land"', ["needs 'min' or 'max'"]),
}


@pytest.mark.parametrize("case", sorted(RULE_CASES))
def test_malformed_rule_parameters_are_refused_when_loading(tmp_path, case):
    body, expected = RULE_CASES[case]
    text = USER_PROFILE.replace("[play]", f'[[decks.rules]]\n{body}\ntext = "a rule"\n\n[play]')
    path = write(tmp_path, text)
    with pytest.raises(DeckstatError) as info:
        load_profile_file(path)
    message = str(info.value)
    assert f"{path} [[decks]] #1 rule #4" in message
    for part in expected:
        assert part in message


def test_rule_level_warning_keeps_the_deck_legal(tmp_path):
    text = USER_PROFILE.replace('text = "at least 3 Lands"', 'text = "at least 3 Lands"\nlevel = "warning"')
    result = validate(mini_deck(2, 8), write(tmp_path, text))
    assert list(result.table["level"]) == ["warning"] and result.legal is True


def test_two_decks_need_distinct_ids_and_aliases(tmp_path):
    second = '[[decks]]\nid = "main"\n\n[play]'
    path = write(tmp_path, USER_PROFILE.replace("[play]", second))
    with pytest.raises(DeckstatError, match=r"#2: two decks have the id 'main'"):
        load_profile_file(path)
    second = '[[decks]]\nid = "side"\naliases = ["Main"]\n\n[play]'
    path = write(tmp_path, USER_PROFILE.replace("[play]", second))
    with pytest.raises(DeckstatError, match=r"the alias 'Main' names both the 'main' and the 'side' deck"):
        load_profile_file(path)


# ---------------------------------------------------------------- draws by turn


@pytest.mark.parametrize(("game", "first", "second"), [
    ("duel-masters", [0, 0, 1, 2, 3], [0, 1, 2, 3, 4]),
    ("wankul", [0, 1, 2, 3, 4], [0, 1, 2, 3, 4]),
    ("jdg", [0, 1, 2, 3, 4], [0, 1, 2, 3, 4]),
    ("licum", [0, 1, 2, 3, 4], [0, 1, 2, 3, 4]),
    ("pandrea", [0, 1, 2, 3, 4], [0, 1, 2, 3, 4]),
])
def test_draws_by_turn_per_seat(game, first, second):
    profile = get_profile(game)
    assert [profile.draws_by_turn(t, "first") for t in range(5)] == first
    assert [profile.draws_by_turn(t, "second") for t in range(5)] == second


def test_draws_by_turn_of_a_user_profile(tmp_path):
    profile = get_profile(write(tmp_path, USER_PROFILE))  # first 0, second 1, then 2 per turn
    assert [profile.draws_by_turn(t, "first") for t in range(4)] == [0, 0, 2, 4]
    assert [profile.draws_by_turn(t, "second") for t in range(4)] == [0, 1, 3, 5]


def test_draws_by_turn_refuses_an_unknown_seat():
    assert SEATS == ("first", "second")
    with pytest.raises(DeckstatError, match="seat must be one of first, second, got 'third'"):
        get_profile("wankul").draws_by_turn(1, "third")


# ---------------------------------------------------------------- describe()


def rows_of(profile: Profile, field: str) -> list[str]:
    return [text for name, text in profile.describe() if name == field]


def test_describe_pandrea_states_its_assumed_limits():
    profile = get_profile("pandrea")
    assumptions = rows_of(profile, "assumption")
    assert assumptions == list(profile.assumptions)
    assert any("deck size" in a.lower() and "at least 30 cards" in a for a in assumptions)
    assert any("at most 3 copies" in a for a in assumptions)
    assert rows_of(profile, "deck") == ["at least 30 cards (no maximum)", "at most 3 copies of a card (same name)"]
    assert rows_of(profile, "rules text") == list(profile.sources)


def test_describe_duel_masters_states_the_copy_limit_assumption_and_shields():
    profile = get_profile("dm")
    assert any("At most 4 copies" in a and "not in the rules text" in a for a in rows_of(profile, "assumption"))
    assert rows_of(profile, "set aside") == ["5 cards from the top before the hand (shields)"]
    assert rows_of(profile, "turn 1 draw") == ["first player 0, second player 1"]
    assert rows_of(profile, "deck-out") == [DECKOUT_RULES["lose_on_last_draw"]]
    sources = rows_of(profile, "rules text")
    assert sources == list(profile.sources)
    assert any("ne pioche pas de carte lors de son premier tour" in s for s in sources)


def test_pandrea_recruitment_says_what_the_rules_text_says():
    # « Les cartes sur le jeu produisant la logistique nécessaire pour recruter l'unité sont désengagées »
    (recruitment,) = [r for r in get_profile("pandrea").special_rules if "logistics it needs" in r]
    assert "« désengagées »" in recruitment
    assert " engages " not in recruitment


def test_describe_wankul_mulligan_and_licum_parts():
    wankul = dict(get_profile("wankul").describe())
    assert wankul["game"] == "Wankul (wankul)"
    assert "once" in wankul["mulligan"] and "Terrain>=1" in wankul["mulligan"]
    licum = get_profile("licum")
    fields = [name for name, _ in licum.describe()]
    assert "preparation deck" in fields and "game deck" in fields
    assert rows_of(licum, "opening hand") == ["7 cards"]


def test_describe_user_profile_names_its_file(tmp_path):
    path = write(tmp_path, USER_PROFILE)
    assert rows_of(get_profile(path), "profile file") == [str(path)]
    assert rows_of(get_profile("wankul"), "profile file") == ["deckstat/games/wankul.toml"]


# ---------------------------------------------------------------- docs/profiles.md


def test_docs_example_profile_loads_and_validates(tmp_path):
    text = (ROOT / "docs" / "profiles.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", text, flags=re.DOTALL)
    assert len(blocks) == 1
    path = write(tmp_path, blocks[0], name="my_game.toml")
    profile = get_profile(str(path))
    assert (profile.id, profile.hand_size, profile.first_turn_draw) == ("my-60", 7, {"first": 0, "second": 1})
    assert profile.draws_by_turn(1, "first") == 0 and profile.draws_by_turn(1, "second") == 1
    deck = Deck.from_table([{"name": f"Land {i}", "count": 4, "type": "Land"} for i in range(5)]
                           + [{"name": f"Creature {i}", "count": 4, "type": "Creature"} for i in range(10)])
    assert validate(deck, profile).table.empty
    few_lands = Deck.from_table([{"name": "Land", "count": 4, "type": "Land"}]
                                + [{"name": f"Spell {i}", "count": 4, "type": "Spell"} for i in range(14)])
    result = validate(few_lands, profile)
    assert list(zip(result.table["level"], result.table["subject"])) == [("warning", "Land")]
    assert result.legal


def test_docs_list_every_rule_kind_deckout_and_mulligan():
    text = (ROOT / "docs" / "profiles.md").read_text(encoding="utf-8")
    for word in (*RULE_KINDS, *DECKOUT_RULES, *MULLIGAN_RULES):
        assert re.search(f'`"?{word}"?`', text), word


def test_public_api_exports_profiles():
    assert deckstat.get_profile is get_profile and deckstat.list_profiles is list_profiles


@pytest.mark.parametrize(("table", "key", "hint"), [
    ("play", "hand_sise", "'hand_size'"),
    ("top", "descripton", "'description'"),
    ("first_turn_draw", "fisrt", "'first'"),
    ("deck", "rulez", "'rules'"),
    ("rule", "maxi", "'max'"),
])
def test_a_misspelt_key_is_refused_not_ignored(tmp_path, table, key, hint):
    data = tomllib.loads((PROFILES / "wankul.toml").read_text(encoding="utf-8"))
    target = {"play": data["play"], "top": data, "first_turn_draw": data["play"]["first_turn_draw"],
              "deck": data["decks"][0], "rule": data["decks"][0]["rules"][0]}[table]
    target[key] = 7
    with pytest.raises(DeckstatError, match=f": {key}: unknown key( for a '[a-z_]+' rule)?; did you mean {hint}"):
        parse_profile(data, where="p.toml")
