"""Card names spelled with look-alike letters of another script: read as the name they imitate, with a warning."""

from __future__ import annotations

import pytest
from helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

from deckstat import Deck, validate
from deckstat.games.profiles import get_profile
from deckstat.games.rules import copy_name, file_warnings
from deckstat.i18n import language
from deckstat.lookalikes import lookalikes

# Letters of Cyrillic and Greek that a reader takes for a Latin one, written here by hand from the look of the
# glyphs (not from the confusables data deckstat reads), each with the Latin letter of the same case it imitates.
CYRILLIC = {"а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s",
            "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w",
            "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
            "Х": "X", "І": "I", "Ј": "J", "Ѕ": "S", "Ү": "Y", "Ԛ": "Q", "Ԝ": "W"}
GREEK = {"ο": "o", "ν": "v", "α": "a", "ρ": "p", "ι": "i", "υ": "u", "γ": "y",
         "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
         "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X"}
IMITATES = {**CYRILLIC, **GREEK}
BY_LATIN: dict[str, list[str]] = {}
for fake, latin in IMITATES.items():
    BY_LATIN.setdefault(latin, []).append(fake)


@pytest.mark.parametrize("fake", sorted(IMITATES))
def test_every_look_alike_letter_inside_a_latin_name_reads_as_its_latin_letter(fake):
    latin = IMITATES[fake]
    name = f"Mort-{fake}Vivant" if fake.isupper() else f"Mort-Viv{fake}nt"
    imitated, letters = lookalikes(name)
    assert imitated == name.replace(fake, latin)
    (letter,) = letters
    assert (letter.character, letter.imitated, letter.imitated_script) == (fake, latin, "LATIN")
    assert letter.script == ("CYRILLIC" if fake in CYRILLIC else "GREEK")
    assert letter.code_point == f"U+{ord(fake):04X}"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abcdeghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ -'0123456789é", min_size=1,
               max_size=24).filter(lambda s: any(c.isalpha() for c in s)), st.data())
def test_a_latin_name_with_some_letters_swapped_for_look_alikes_reads_back(name, data):
    swappable = [i for i, ch in enumerate(name) if ch in BY_LATIN]
    latin_letters = [i for i, ch in enumerate(name) if ch.isalpha()]
    swapped = data.draw(st.sets(st.sampled_from(swappable)) if swappable else st.just(set()))
    # A name whose every letter is swapped is written wholly in Cyrillic or Greek: it is itself, not a look-alike.
    if swapped and set(latin_letters) <= swapped:
        swapped = set(sorted(swapped)[1:])
    fake = "".join(data.draw(st.sampled_from(BY_LATIN[ch])) if i in swapped else ch for i, ch in enumerate(name))
    imitated, letters = lookalikes(fake)
    assert imitated == name
    assert [letter.character for letter in letters] == [fake[i] for i in sorted(swapped)]
    assert copy_name(fake) == copy_name(name)


@pytest.mark.parametrize("name", ["Москва", "ΚΟΡΑ", "Ρομπότ", "Yéti en Vacances", "Cœur de Pâte", "R2-D2",
                                  "Дракон Dragon", "Rayon β", "Samouraï Pixelisé", "ΑΒΓ Alpha"])
def test_names_in_one_script_or_of_whole_words_are_themselves(name):
    assert lookalikes(name) == (name, ())


def test_a_word_of_look_alikes_in_a_latin_name_and_a_latin_letter_in_a_cyrillic_name():
    assert lookalikes("Mort Рор")[0] == "Mort Pop"  # a Cyrillic word that reads as Latin, in a Latin name
    assert lookalikes("МОRТ")[0] == "MORT"  # mostly Cyrillic letters, but it reads wholly in Latin
    imitated, (letter,) = lookalikes("Москвa")  # a Latin a in a Cyrillic name
    assert imitated == "Москва" and (letter.character, letter.imitated_script) == ("a", "CYRILLIC")
    assert lookalikes("Дракон Drаgon")[0] == "Дракон Dragon"  # the mixed word alone is read


def wankul(*named: tuple[str, int]) -> Deck:
    """A 50-card Wankul deck holding the named Personnages."""
    rows = [{"name": f"Terrain {i}", "count": 2, "type": "Terrain"} for i in range(5)]
    rows += [{"name": name, "count": count, "type": "Personnage", "cost": 1} for name, count in named]
    filler = 40 - sum(count for _, count in named)
    rows += [{"name": f"Perso {i}", "count": min(3, filler - 3 * i), "type": "Personnage", "cost": 1}
             for i in range((filler + 2) // 3)]
    return Deck.from_table(rows)


def test_copies_of_a_look_alike_spelling_count_with_the_name_it_imitates():
    result = validate(wankul(("Mort-Vivant", 3), ("Mort-Viv\u0430nt", 2)), "wankul")
    errors = result.table[result.table["level"] == "error"]
    assert errors[["subject", "found"]].values.tolist() == [
        ["Mort-Vivant", "5 copies (3 × Mort-Vivant, 2 × Mort-Viv\u0430nt)"]]
    warnings = result.table[result.table["level"] == "warning"]
    (message,) = warnings["message"]
    assert message == ("Mort-Viv\u0430nt: Cyrillic '\u0430' (U+0430) looks like Latin 'a', expected the letters of "
                       "one script (a name that mixes scripts counts as the name it imitates, 'Mort-Vivant', for copy "
                       "limits)")
    (note,) = result.provenance["notes"]
    assert note.startswith("Mort-Vivant and Mort-Viv\u0430nt count as one card")
    assert "look-alike letters (Cyrillic '\u0430' (U+0430) looks like Latin 'a')" in note
    # Every reading of the limit counts them together: by name too, and in a game counting by name.
    assert not validate(wankul(("Mort-Vivant", 3), ("Mort-Viv\u0430nt", 2)), "wankul", copies_by="name").legal
    assert validate(wankul(("Mort-Vivant", 2), ("Mort-Viv\u0430nt", 1)), "wankul").legal


def test_a_greek_look_alike_breaks_jdg_s_no_duplicates():
    rows = [{"name": f"Carte {i}", "count": 1, "type": "INVOCATION"} for i in range(28)]
    rows += [{"name": "Robot Géant", "count": 1, "type": "INVOCATION"},
             {"name": "R\u03bfbot Géant", "count": 1, "type": "INVOCATION"}]
    result = validate(Deck.from_table(rows), "jdg")
    assert [tuple(r) for r in result.table[result.table["level"] == "error"][["subject", "found"]].values] == [
        ("Robot Géant", "2 copies (1 × Robot Géant, 1 × R\u03bfbot Géant)")]


def test_a_wholly_cyrillic_name_is_not_merged_with_a_latin_one_that_looks_alike():
    # КОРА (Cyrillic) and KOPA (Latin) look the same, but each is written in one script: two cards.
    result = validate(wankul(("КОРА", 3), ("KOPA", 3)), "wankul")
    assert result.legal and result.table.empty


def test_the_warning_in_french_and_on_every_command(tmp_path):
    deck = wankul(("Mort-Vivant", 2), ("Mort-Viv\u0430nt", 1))
    with language("fr"):
        (row,) = file_warnings(deck, get_profile("wankul"))
    assert row["found"] == "la lettre cyrillique '\u0430' (U+0430) ressemble à la lettre latine 'a'"
    path = tmp_path / "deck.csv"
    deck.cards.to_csv(path, index=False)
    result = run("odds", path, "-g", "wankul", "-e", "Terrain>=1", "--turns", "0")
    assert result.exit_code == 0 and "U+0430" in result.stderr and "Mort-Vivant" in result.stderr
