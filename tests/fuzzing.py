"""Strategies and guards for tests/test_fuzz.py: inputs built from deckstat's own vocabulary, plus junk.

``DECKSTAT_FUZZ=deep`` selects the long profile (thousands of examples, random seeds); the default is the
short, derandomized one CI runs.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from contextlib import contextmanager
from datetime import timedelta

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st

from deckstat.errors import DeckstatError

DEEP = os.environ.get("DECKSTAT_FUZZ", "").lower() == "deep"
#: Seconds one example may take before the guard fails it (hypothesis' deadline is per example too, but
#: it only measures after the call returns, so a hang would never reach it).
HARD_LIMIT = 30 if DEEP else 20


def fuzz_settings(ci_examples: int, *, deadline_ms: int = 2000, deep_examples: int | None = None) -> settings:
    """Settings of one fuzz test: ``ci_examples`` derandomized examples in CI; when deep, ``deep_examples``
    random ones (20 times ``ci_examples`` unless given)."""
    return settings(
        max_examples=(deep_examples or ci_examples * 20) if DEEP else ci_examples,
        deadline=timedelta(milliseconds=deadline_ms * (3 if DEEP else 1)),
        derandomize=not DEEP,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large,
                               HealthCheck.function_scoped_fixture],
        print_blob=DEEP,
    )


class Hang(AssertionError):
    """An example that ran past :data:`HARD_LIMIT` of CPU (or far longer on the clock)."""


#: A blocked example (a deadlock, a wait on a child) uses no CPU: it is caught on the clock, this many times later.
WALL_FACTOR = 6


@contextmanager
def time_limit(seconds: float = HARD_LIMIT):
    """Fail with :class:`Hang` past ``seconds`` of CPU, or ``WALL_FACTOR`` times as long on the clock.

    The CPU clock (SIGPROF) is what a runaway loop spends whatever else the machine runs; the wall clock (SIGALRM),
    far later, catches a block that waits forever. Main thread only.
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        yield
        return

    def _raise(signum, frame):
        clock = "of CPU" if signum == signal.SIGPROF else "on the clock"
        limit = seconds if signum == signal.SIGPROF else seconds * WALL_FACTOR
        raise Hang(f"example still running after {limit} s {clock}")

    previous = {sig: signal.signal(sig, _raise) for sig in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds * WALL_FACTOR)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def only_deckstat_errors(call: Callable[[], object]) -> object | DeckstatError:
    """Run ``call`` under :func:`time_limit`: its result, or the :class:`DeckstatError` it raised (one line).

    Any other exception propagates and fails the example.
    """
    with time_limit():
        try:
            outcome = call()
        except DeckstatError as exc:
            text = str(exc)
            assert text.strip(), f"empty message from {type(exc).__name__}"
            assert "\n" not in text, text
            event(f"refused ({type(exc).__name__})")  # --hypothesis-show-statistics tells how deep inputs get
            return exc
    event("accepted")
    return outcome


# ----- unicode that breaks naive text handling -----

ODD_CHARACTERS = [
    "\u200b",  # zero-width space
    "\u200d",  # zero-width joiner
    "\ufeff",  # BOM inside text
    "\u0301",  # combining acute accent
    "\u202e",  # right-to-left override
    "\u05d0",  # Hebrew letter
    "\u00a0",  # no-break space
    "\u2028",  # line separator
    "\x85",  # next line
    "\x0b", "\x0c", "\x1c", "\x1e",
    "\x00",
    "🃏", "🐉", "\U0001f1eb\U0001f1f7",  # emoji and a flag pair
    "é", "É", "ß", "ﬁ", "İ", "Ⅻ", "٣", "²",
    "\ud7ff", "\ue000",
]
odd_text = st.lists(st.one_of(st.sampled_from(ODD_CHARACTERS), st.characters(codec="utf-8"),
                              st.text(alphabet="abcXYZ ", min_size=1, max_size=4)), max_size=6).map("".join)

# ----- card CSV files -----

HEADERS = {
    "name": ["name", "nom", "Nom", "NAME", "carte", "Nom de la carte", "Card Name"],
    "count": ["count", "quantité", "Quantité", "qté", "qty", "nombre", "exemplaires", "x", "Qte"],
    "type": ["type", "Type", "catégorie"],
    "cost": ["cost", "coût", "Cout", "mana"],
    "draw": ["draw", "pioche"],
    "mill": ["mill", "meule"],
    "effect": ["effet", "effect", "Effets"],
    "shield_trigger": ["shield_trigger", "ST", "Déclencheur de bouclier"],
    "number": ["number", "numéro", "n°", "#", "no"],
    "set": ["set", "édition", "saison"],
    "clan": ["clan", "effigie"],
    "rarity": ["rarity", "rareté"],
    "shiny": ["shiny", "holo", "brillante"],
    "tags": ["tags", "mots-clés"],
    "deck": ["deck", "paquet"],
    "base_name": ["base_name", "nom de base"],
    "junk": ["", " ", "n", "N", "total", "Unnamed: 0", "force", "power", "é", "\u200bnom", "name ", "nom\u00a0"],
}
NAMES = ["Terrain", "Plage de Galets", "Le Grenier Hanté", "VENDEUR", "POLICIER", "Gobelin Chalumeau", "Total",
         "Somme", "Dragon", "Oui, Chef !", "1000 Sabords", "X Factor", "Aqua Jet (BOOON Sky)", "VENDEUR #35",
         "=SUM(A1:A3)", "nan", "None", "NULL", "#N/A", "-", "0", "  "]
NUMBER_CELLS = ["", "0", "1", "2", "3", "4", "40", "-1", "-0", "+3", "1.5", "1,5", "2,0", "3x", "3X", "x3", "×2",
                "1e3", "1e400", "inf", "-inf", "nan", "NaN", "Infinity", "9" * 25, "10000", "10001",
                "9007199254740993", "0x10", "½", "٣", "²", "3 ", " 3", "3\u00a0000", "1 000", "oui", "non", "x",
                "yes", "vrai", "faux", "—"]
TYPES = ["Terrain", "Créature", "Sort", "Terrain;Sort", ";", "", "Terrain ; ", "Fire;Water;", "Feu"]
EFFECT_CELLS = ["pioche=2", "draw", "cherche=[type=Terrain]:1", "regarde=5:[race~=Dragon]:1", "score",
                "permanent:pioche_par_tour=+1", "déclencheur:mana", "pioche=2; meule=1", "pioch=2", "pioche:2",
                "regarde=2:Terrain:3", "Piochez une carte.", "pioche=", "cherche=[cost<=]", ";", "∞:score", ""]
PRINTINGS = ["35", "036", "16/55", "2A", "", "Origins", "Laink", "Terracid", "holo", "Commune", "Ultra rare holo 1",
             "(Starter)", "#91/110 (German)"]
cell = st.one_of(st.sampled_from(NAMES), st.sampled_from(NUMBER_CELLS), st.sampled_from(TYPES),
                 st.sampled_from(PRINTINGS), odd_text)


@st.composite
def card_csv_text(draw) -> str:
    """The text of a card CSV: realistic headers and rows, then mutated (delimiter, quotes, line ends, junk)."""
    # Mostly a name column and distinct columns, so that most files get past the header to their rows.
    kinds = ["name", *draw(st.lists(st.sampled_from(sorted(HEADERS)), max_size=6, unique=True))]
    if draw(st.integers(0, 9)) == 9:
        kinds = draw(st.permutations(kinds + draw(st.lists(st.sampled_from(sorted(HEADERS)), max_size=2))))[1:]
    headers = [draw(st.sampled_from(HEADERS[k])) for k in kinds]
    delimiter = draw(st.sampled_from([",", ";", "\t", ",", ";", ",", "|", " "]))

    def column_cell(kind: str):
        if kind == "name":
            return st.one_of(st.sampled_from(NAMES), odd_text)
        if kind in ("count", "cost", "draw", "mill", "shield_trigger", "shiny"):
            return st.sampled_from(NUMBER_CELLS)
        if kind in ("type", "tags"):
            return st.sampled_from(TYPES)
        if kind == "effect":
            return st.one_of(st.sampled_from(EFFECT_CELLS), odd_text)
        if kind in ("number", "set", "clan", "rarity", "deck", "base_name"):
            return st.sampled_from(PRINTINGS + NAMES[:4])
        return cell

    rows = draw(st.lists(st.tuples(*[column_cell(k) for k in kinds]).map(list), min_size=1, max_size=8))
    quote_style = draw(st.sampled_from(["none", "all", "some", "none", "broken"]))

    def quoted(text: str, i: int) -> str:
        if quote_style == "all" or (quote_style == "some" and i % 2) or delimiter in text or '"' in text:
            return '"' + text.replace('"', '""') + '"'
        if quote_style == "broken" and i == 0:
            return '"' + text
        return text

    lines = [delimiter.join(quoted(h, i) for i, h in enumerate(headers))]
    for row in rows:
        if draw(st.integers(0, 4)) == 4 and row:  # short or long rows
            row = row[: draw(st.integers(0, len(row)))] + draw(st.lists(cell, max_size=2))
        lines.append(delimiter.join(quoted(c, i) for i, c in enumerate(row)))
    if draw(st.integers(0, 4)) == 4:
        lines.insert(0, draw(st.sampled_from(["", "Mon deck", "sep=;", ";;;", "# comment", "Deck Wankul;;"])))
    if draw(st.integers(0, 4)) == 4 and len(lines) > 1:
        lines.append(draw(st.sampled_from(["Total;40", "total,40,", "", ";;", "TOTAL\t40"])))
    end = draw(st.sampled_from(["\n", "\r\n", "\r", "\n\n"]))
    text = end.join(lines) + draw(st.sampled_from(["", end, end * 3]))
    mutations = draw(st.integers(0, 3)) if draw(st.integers(0, 2)) == 2 else 0
    for _ in range(mutations):  # point mutations: drop, insert or double a character
        if not text:
            break
        at = draw(st.integers(0, len(text) - 1))
        what = draw(st.sampled_from(["drop", "insert", "double"]))
        if what == "drop":
            text = text[:at] + text[at + 1:]
        elif what == "insert":
            text = text[:at] + draw(st.sampled_from(['"', "'", delimiter, "\n", "\r", "\x00", "\ufeff", "é"]))\
                + text[at:]
        else:
            text = text[:at] + text[at] + text[at:]
    return text


def encode_text(text: str, encoding: str) -> bytes:
    """``text`` as bytes in ``encoding``; characters it cannot hold become ``?``."""
    return text.encode(encoding, errors="replace")


ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "cp1252", "utf-8", "latin-1", "utf-16-le"]


@st.composite
def card_csv_bytes(draw) -> bytes:
    """A card CSV as bytes: :func:`card_csv_text` in some encoding, sometimes with a row in another one."""
    text = draw(card_csv_text())
    raw = encode_text(text, draw(st.sampled_from(ENCODINGS)))
    # Rare changes are drawn as the largest integer: hypothesis draws (and shrinks towards) the smallest often.
    if draw(st.integers(0, 9)) == 9:  # a row pasted from another program
        raw += encode_text("\nÉté brûlant,2,Sort\n", draw(st.sampled_from(["cp1252", "utf-8"])))
    if draw(st.integers(0, 9)) == 9:
        raw = draw(st.sampled_from([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"PK\x03\x04"])) + raw
    return raw


DECKLIST_LINES = ["2 Le Grenier Hanté", "2x Plage de Galets", "Château Gonflable", "0 Terrain", "-1 Terrain",
                  "99999 Terrain", "10001 Terrain", "1" * 30 + " Terrain", "[Préparation]", "Préparation:", "[]",
                  "# comment", "// comment", "", "3 VENDEUR #35", "1 POLICIER (holo)", "1 POLICIER ()",
                  "1 X (", "1 )(", "2 ((((", "1 #", "1 # #", "x", "3x", "3 x", "٣ Terrain", "2 Terrain (a, b (c))"]


@st.composite
def decklist_text(draw) -> str:
    """A text decklist: lines from :data:`DECKLIST_LINES` and odd text, some with a count in front."""
    lines = draw(st.lists(st.one_of(st.sampled_from(DECKLIST_LINES), odd_text,
                                    st.tuples(st.integers(-3, 12), odd_text).map(lambda t: f"{t[0]} {t[1]}")),
                          max_size=8))
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines)


# ----- events -----

EVENT_TOKENS = ["Terrain", "Sort", "Créature", "Dragon", "Plage", "cost", "force", "type", "name", "clan",
                "and", "or", "not", "et", "ou", "non", "AND", "Not", "distinct", "différentes", "distinctes",
                "(", ")", "[", "]", "<", "<=", ">", ">=", "=", "==", "!=", "~", "~=", "!", "<>", "=>",
                "0", "1", "2", "3", "-1", "1.5", "1,5", "1e400", "9" * 30, "nan", "inf",
                '"', "'", '"Plage de Galets"', "'Le Grenier Hanté'", ",", ";", "#", "\\", " ", "  ", "\t", "\n",
                "\u200b", "\u00a0", "é", "🐉", "\x00", "\u0301", "\u202e"]
event_text = st.lists(st.sampled_from(EVENT_TOKENS), max_size=14).map("".join) \
    | st.lists(st.sampled_from(EVENT_TOKENS), max_size=14).map(" ".join)
VALID_EVENTS = ["Terrain>=1", "Terrain>=2 and Sort<=1", "not Terrain", "(Terrain or Sort)>=1 and not Dragon",
                "[cost<=1]>=2", "[cost=2]", "[type~Terr]>=1", "[clan~=Laink]", "distinct(Terrain)>=2",
                "différentes([cost>=1])>=3", "\"Plage de Galets\">=1 ou Terrain=0", "Terrain!=1 et non Sort>3",
                "[force>=10000]>=1", "Terrain==0", "[name='Plage de Galets']"]


@st.composite
def mutated_event(draw) -> str:
    """A valid event with a few tokens inserted, removed or replaced."""
    text = draw(st.sampled_from(VALID_EVENTS))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        what = draw(st.sampled_from(["insert", "drop", "replace"]))
        token = draw(st.sampled_from(EVENT_TOKENS))
        if what == "insert":
            text = text[:at] + token + text[at:]
        elif what == "drop":
            text = text[:at] + text[at + draw(st.integers(1, 4)):]
        else:
            text = text[:at] + token + text[at + 1:]
    return text


# ----- TOML values: replacing a value of a valid mapping -----

odd_values = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.sampled_from([-1, 0, 1, 2, 10**6, 10**18, 2**63]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(["", "x", "-1", "1e400", "Terrain>=1", "[", "(",
                                                                    "none", "bottom", "first", "main"]),
    odd_text, st.lists(st.integers(-2, 3), max_size=3), st.lists(st.text(max_size=3), max_size=3),
    st.dictionaries(st.sampled_from(["a", "first", "second", "kind", "id"]), st.integers(-2, 3), max_size=2),
)


def paths_of(data: object, prefix: tuple = ()) -> list[tuple]:
    """Every key path of nested dicts and lists (``("play", "hand_size")``, ``("decks", 0, "rules", 1)``)."""
    out = [prefix] if prefix else []
    if isinstance(data, dict):
        for key, value in data.items():
            out += paths_of(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += paths_of(value, (*prefix, i))
    return out


def mutate(data: dict, path: tuple, action: str, value: object) -> dict:
    """A deep copy of ``data`` with ``path`` removed (``drop``) or set to ``value`` (``set``, ``negate``)."""
    import copy

    data = copy.deepcopy(data)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if action == "drop":
        del parent[key]
    elif action == "negate" and isinstance(parent[key], (int, float)) and not isinstance(parent[key], bool):
        parent[key] = -parent[key] - 1
    elif action == "huge":
        # A long text, not an ever longer one: repeated mutations of one key must not exhaust the memory.
        parent[key] = 10**30 if not isinstance(parent[key], str) else (parent[key] * 500)[:5000]
    else:
        parent[key] = value
    return data


@st.composite
def mutated_mapping(draw, base: dict, max_changes: int = 3) -> dict:
    """``base`` with one to ``max_changes`` keys dropped, retyped, negated or made huge."""
    data = base
    for _ in range(draw(st.integers(1, max_changes))):
        paths = paths_of(data)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["drop", "set", "set", "negate", "huge"]))
        data = mutate(data, path, action, draw(odd_values))
        if draw(st.integers(0, 4)) == 0:  # an unknown key too
            data = mutate(data, (draw(st.sampled_from(["extra", "hand_sise", "nom"])),), "set", draw(odd_values))
    return data


__all__ = ["DEEP", "Hang", "card_csv_bytes", "decklist_text", "event_text", "fuzz_settings", "mutated_event",
           "mutated_mapping", "only_deckstat_errors", "time_limit"]
