"""The card-table schema: canonical column names and the header spellings that mean them.

Shared by the loaders (:mod:`deckstat.cards`) and group matching
(:mod:`deckstat.deck`), so a ``Coût`` header and a ``[cost<=1]`` group meet.

A card is its name plus its printing: real card pools hold several cards
under one name (Wankul's Laink and Terracid ``VENDEUR``, #35 and #36; a
common and a holo ``POLICIER``; reprints in later sets). The columns of
:data:`PRINTING_COLUMNS` tell them apart; :func:`printing_labels` writes
each card the way results and text decklists name it (``VENDEUR #35``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from deckstat.i18n import N_
from deckstat.parsing import split_top_level
from deckstat.text import fold, fold_key, format_number

#: Canonical column name -> accepted header spellings (compared with :func:`header_key`).
COLUMN_ALIASES: dict[str, tuple[str, ...]] = {
    "name": ("name", "nom", "carte", "card", "cardname", "nomdelacarte", "nomcarte", "titre", "title"),
    # An unrecognised count header would make its column an attribute and every row one copy, without a word:
    # the spellings and abbreviations French and English players and spreadsheet exports write (``Nb ex.``,
    # ``Qté``, ``Qty``, ``Cnt``), and a few German, Spanish and Italian ones that decklist sites export.
    "count": ("count", "counts", "cnt", "quantite", "quantites", "qte", "qtes", "qt", "qtt", "qty", "qtty",
              "quantity", "quantities", "quant", "qnt", "amount", "nombre", "nb", "nbre", "nbr", "nombredecartes",
              "nbcartes", "nbdecartes", "exemplaires", "exemplaire", "ex", "exs", "expl", "exempl",
              "nombredexemplaires", "nbexemplaires", "nbdexemplaires", "nbexemplaire", "nbex", "nbrex", "nbreex",
              "nbdex", "nbredex", "nombredex", "nbrexemplaires", "nbreexemplaires", "copies", "copie", "copy",
              "nbcopies", "nbdecopies", "nombredecopies", "numberofcopies", "noofcopies", "numcopies", "x", "×",
              "anzahl", "menge", "stuck", "stueck", "cantidad", "cant", "quantita", "qta"),
    # The collector number printed on the card: text (``2A``, ``S181``, ``16/55``), never the quantity.
    "number": ("number", "no", "n°", "nr", "num", "numero", "#", "cardnumber", "cardno", "collectornumber",
               "collectorno", "setnumber", "numerodecarte", "numerodelacarte", "n°decarte", "n°carte",
               "numerodecollection"),
    # The set, edition, season or collection the card was printed in.
    "set": ("set", "setname", "edition", "extension", "serie", "series", "season", "seasonname", "saison",
            "collection", "expansion"),
    # Wankul's effigy: the Laink and Terracid versions of a character are different cards.
    "clan": ("clan", "effigy", "effigie", "character"),
    "base_name": ("basename", "nomdebase"),
    "type": ("type", "cardtype", "typedecarte", "categorie", "category"),
    # A lone "mana" header is the cost, unless the file has another cost column: then it is the mana number
    # (see canonical_columns).
    "cost": ("cost", "cout", "mana", "manacost"),
    # Duel Masters: the number printed upside down at the bottom of a card, the mana it gives in the mana zone
    # (« leur chiffre de mana »).
    "mana_number": ("mananumber", "manano", "chiffredemana", "chiffresdemana", "chiffremana", "valeurdemana",
                    "nombredemana", "manavaluenumber", "manazahl"),
    "force": ("force", "strength"),
    "power": ("power", "puissance"),
    "civilization": ("civilization", "civilisation", "civilizations", "civilisations", "civ"),
    "race": ("race", "races"),
    "team": ("team", "equipe"),
    "shiny": ("shiny", "brillante", "brillant", "holo", "isholo", "foil"),
    "tags": ("tags", "tag", "etiquettes", "motscles", "keywords"),
    "deck": ("deck", "paquet", "pile"),
    "attack": ("attack", "atq", "attaque", "atk"),
    "defense": ("defense", "def"),
    "draw": ("draw", "pioche", "draws"),
    "mill": ("mill", "meule"),
    # Card effects in the small vocabulary of docs/effects.md (``pioche=2``, ``cherche=[type=Terrain]:1``).
    "effect": ("effect", "effects", "effet", "effets"),
    "shield_trigger": ("shieldtrigger", "declencheurdebouclier", "st"),
    "rarity": ("rarity", "rarete"),
    "family": ("family", "famille"),
    # Pandrea: the logistics a Logistique card produces each turn.
    "logistics": ("logistics", "logistique", "production"),
    # Joueur du Grenier summoning conditions (play model "condition").
    "condition": ("condition", "conditions", "conditiondinvocation", "conditionsdinvocation",
                  "summoningcondition", "summoningconditions", "summoncondition"),
    # Licum springs: the names of the cards an Improvisateur fetches (play model "bench").
    "spring": ("spring", "springs", "ressort", "ressorts"),
    # Duel Masters evolution creatures: a 0/1 flag, and the race(s) they are put on when not their own.
    "is_evolution": ("isevolution", "evolution", "evoluee", "estevoluee", "creatureevoluee"),
    "evolves_from": ("evolvesfrom", "evoluede", "evolutionde", "evolvefrom"),
}
_ALIAS_TO_CANONICAL = {alias: canon for canon, aliases in COLUMN_ALIASES.items() for alias in aliases}
#: Headers whose words say what a column of numbers holds when it is not the count (``source_id``,
#: ``booster_id``, ``Niveau``): such a column is never taken for an unrecognised count (see
#: :func:`may_be_count_header`). The spellings of the other canonical columns (``cost``, ``power``…) count too.
NOT_COUNT_WORDS = frozenset({
    "id", "ids", "uid", "index", "idx", "rank", "rang", "level", "lvl", "niveau", "tier", "year", "annee", "page",
    "position", "pos", "row", "ligne", "order", "ordre", "hp", "pv", "vie", "life", "points", "pts", "point", "prix",
    "price", "value", "valeur", "rating", "note", "score", "stars", "etoiles", "gen", "generation", "wave", "vague",
    "booster", "age", "turn", "tour", "damage", "degats", "speed", "vitesse", "initiative", "range", "portee",
    "slot", "size", "taille", "weight", "poids", "percent", "pct", "rate", "taux",
})

#: Values read as true and as false in a yes/no column (``shiny``, ``shield_trigger``), compared folded.
TRUE_WORDS = frozenset({"oui", "yes", "true", "vrai", "x", "o", "y"})
FALSE_WORDS = frozenset({"non", "no", "false", "faux", "n", ""})

#: Headers that mean the quantity in some files and the collector number in others: refused with the
#: message given here (its ``{column}`` is the header as written).
AMBIGUOUS_HEADERS: dict[str, str] = {
    "n": N_("column {column!r} may mean the count of copies or the collector number; rename it 'quantité' "
            "(copies) or 'numéro' (collector number)"),
}
#: Headers read as the collector number that some files use for the count: refused when their column holds what a
#: count holds (small whole numbers that repeat), read as the number otherwise.
COUNT_OR_NUMBER_HEADERS = ("#",)

#: Columns that tell two cards of the same name apart (two printings), in the order labels show them.
#: Rows of a card table with the same name and the same values here are one card; a difference in
#: any other column (cost, type…) between them is an error.
PRINTING_COLUMNS: tuple[str, ...] = ("number", "set", "clan", "rarity", "shiny")
#: Words of a column name that make it a *printing-only* column: it tells printings of a card apart (collector
#: number, set or season, booster, rarity and its pull rate, holo, artist, image, price, database ids) but changes
#: nothing in play. Read from the real Wankul pools: octerry's ``source_id``, ``season_code``, ``rarity_code``,
#: ``rarity_drop_rate``; wildcodeschool's ``booster_id``, ``is_holo``, ``drop_rate_pct_app``,
#: ``official_rate_pct``; timeuh's ``card_id``, ``artist``. Every other column (type, cost, force, clan, gems,
#: effect flags…) is a game attribute: two printings that differ in one are two cards in play.
PRINTING_ONLY_WORDS: frozenset[str] = frozenset({
    "id", "number", "numero", "no", "set", "season", "saison", "edition", "series", "serie", "collection",
    "extension", "expansion", "booster", "release", "sortie", "date", "rarity", "rarete", "drop", "rate", "taux",
    "pct", "odds", "shiny", "holo", "foil", "brillante", "brillant", "artist", "artiste", "illustrator",
    "illustrateur", "illustration", "art", "artwork", "image", "img", "url", "picture", "price", "prix", "cote",
    "language", "langue", "lang", "code", "printing", "impression", "tirage", "serial",
    "owned", "possede", "stock",
})


def printing_only(column: str) -> bool:
    """Whether a card-table column only tells printings apart (see :data:`PRINTING_ONLY_WORDS`).

    The canonical printing columns ``number``, ``set``, ``rarity`` and
    ``shiny`` are; ``clan`` is not: Wankul's Laink and Terracid versions of a
    character are different cards.

    Examples
    --------
    >>> [printing_only(c) for c in ("number", "rarity_drop_rate", "source_id", "cost", "clan", "has_combo")]
    [True, True, True, False, False, False]
    """
    canonical = canonical_column(column)
    if canonical in ("number", "set", "rarity", "shiny"):
        return True
    if canonical in COLUMN_ALIASES:
        return False  # a column deckstat knows (cost, mana_number, clan…) plays
    return any(word in PRINTING_ONLY_WORDS for word in re.split(r"[_\s\-.]+", canonical) if word)


#: Columns kept as text by the loaders: a printing's ``007`` and ``2A`` are not numbers, nor an effect's ``2``.
TEXT_COLUMNS: tuple[str, ...] = ("number", "effect")
#: Columns that hold a number of cards (a card's ``draw`` and ``mill``): whole numbers of at least 0, or empty.
WHOLE_NUMBER_COLUMNS: tuple[str, ...] = ("draw", "mill")
#: How a ``shiny`` flag of 1 reads in a label.
SHINY_WORD = "holo"


def canonical_column(header: str) -> str:
    """Return the canonical name of a CSV header (``Coût`` -> ``cost``).

    Unknown headers are kept, folded to lower case without accents, with
    spaces turned into ``_``, so ``[Points de vie>=3]`` can still be written
    as ``[points_de_vie>=3]``.

    Examples
    --------
    >>> canonical_column("Coût"), canonical_column("N°"), canonical_column("collector_number")
    ('cost', 'number', 'number')
    >>> canonical_column("Points de vie")
    'points_de_vie'
    """
    key = header_key(header)
    if key in _ALIAS_TO_CANONICAL:
        return _ALIAS_TO_CANONICAL[key]
    return re.sub(r"[\s\-]+", "_", fold(header))


def canonical_columns(headers: Sequence[str]) -> list[str]:
    """The canonical names of a header row (:func:`canonical_column`), read together.

    ``mana`` alone is the cost (``coût``), but beside another cost header it
    is the Duel Masters mana number (« chiffre de mana »): the file then has
    both numbers a Duel Masters card prints.

    Examples
    --------
    >>> canonical_columns(["Nom", "mana"]), canonical_columns(["Nom", "Coût", "Mana :"])
    (['name', 'cost'], ['name', 'cost', 'mana_number'])
    """
    canonical = [canonical_column(h) for h in headers]
    costs = [i for i, c in enumerate(canonical) if c == "cost"]
    if len(costs) > 1:
        for i in costs:
            if header_key(headers[i]) == "mana":
                canonical[i] = "mana_number"
    return canonical


def header_key(header: str) -> str:
    """A header compared without case, accents, spaces or punctuation: ``Nb ex.`` and ``nb_ex`` give ``nbex``.

    The degree sign of ``N°`` and a lone ``#`` or ``×`` are kept: they are the header.

    Examples
    --------
    >>> header_key("Nb ex."), header_key("Qté :"), header_key("Exemplaire(s)"), header_key("N°"), header_key("#")
    ('nbex', 'qte', 'exemplaires', 'n°', '#')
    """
    key = fold_key(header)
    stripped = "".join(ch for ch in key if ch.isalnum() or ch == "°")
    return stripped or key


def header_words(header: str) -> list[str]:
    """The folded words of a header: ``booster_id`` gives ``booster``, ``id``; ``powerBase`` gives ``power``, ``base``.

    Examples
    --------
    >>> header_words("booster_id"), header_words("n_civilizations"), header_words("powerBase")
    (['booster', 'id'], ['n', 'civilizations'], ['power', 'base'])
    """
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", str(header))
    return [w for w in re.split(r"[^0-9a-z°]+", fold(spaced)) if w]


def may_be_count_header(header: str) -> bool:
    """Whether a header leaves open that its column is the count: not a known column, no word of another meaning.

    ``Possédés`` and ``Nb. d'exemplaires possédés`` may be; ``Coût``, ``source_id``, ``n_civilizations`` and
    ``Niveau`` are not (see :data:`NOT_COUNT_WORDS`). A header read as the collector number that files also use
    for the count (``#``, :data:`COUNT_OR_NUMBER_HEADERS`) may be.

    Examples
    --------
    >>> [may_be_count_header(h) for h in ("Possédés", "Coût", "booster_id", "n_civilizations", "Niveau", "#")]
    [True, False, False, False, False, True]
    """
    if header_key(header) in COUNT_OR_NUMBER_HEADERS:
        return True
    if header_key(header) in _ALIAS_TO_CANONICAL:
        return False
    words = header_words(header)
    return not any(w in NOT_COUNT_WORDS or _ALIAS_TO_CANONICAL.get(w, "count") != "count" for w in words)


def count_column_lookalike(header: str) -> str | None:
    """The spelling of the count column that ``header`` looks like a slip of (``Quantitée``), or ``None``.

    Examples
    --------
    >>> count_column_lookalike("Quantitée"), count_column_lookalike("Coût")
    ('quantite', None)
    """
    import difflib

    key = header_key(header)
    if key in _ALIAS_TO_CANONICAL or len(key) < 4:
        return None
    near = difflib.get_close_matches(key, [a for a in COLUMN_ALIASES["count"] if len(a) >= 4], n=1, cutoff=0.75)
    if near:
        return near[0]
    return next((a for a in ("quantit", "exemplaire", "count", "copie") if a in key), None)


def _missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or str(value) in ("<NA>", "")


def printing_text(column: str, value: object) -> str:
    """How a printing value reads in a label: ``#35``, ``Origins``, ``holo``; ``""`` for none.

    Examples
    --------
    >>> printing_text("number", 35.0), printing_text("shiny", 1), printing_text("shiny", 0)
    ('#35', 'holo', '')
    """
    if _missing(value):
        return ""
    if column == "shiny":
        return SHINY_WORD if fold(value) in ("1", "1.0", "true") else ""
    text = format_number(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
    text = text.strip()
    return f"#{text}" if column == "number" else text


def printing_key(record: dict, columns: Sequence[str]) -> tuple[str, ...]:
    """The values of ``columns`` that make a row's printing, folded so that spelling does not count."""
    return tuple(fold(printing_text(c, record.get(c))) for c in columns)


def printing_labels(names: Sequence[str], records: Sequence[dict]) -> list[str]:
    """Each card's name, with its printing when other cards share the name.

    Parameters
    ----------
    names : sequence of str
        Card names, one per row.
    records : sequence of dict
        The rows' values of the :data:`PRINTING_COLUMNS` they have.

    Returns
    -------
    list of str
        The name alone for a name held by one printing; otherwise the name
        and ``#number`` when the numbers alone tell the printings apart, or
        the number and the differing printing values in brackets
        (``POLICIER (holo)``, ``Garagiste (Laink)``, ``Brain #14 (DM22-RP2X)``).
        Text decklists accept the same spelling.

    Examples
    --------
    >>> printing_labels(["VENDEUR", "VENDEUR", "PORTAL"],
    ...                 [{"number": "35", "clan": "Laink"}, {"number": "36", "clan": "Terracid"}, {"number": "2"}])
    ['VENDEUR #35', 'VENDEUR #36', 'PORTAL']
    >>> printing_labels(["POLICIER", "POLICIER"], [{"shiny": 0}, {"shiny": 1}])
    ['POLICIER', 'POLICIER (holo)']
    """
    columns = [c for c in PRINTING_COLUMNS if any(c in r for r in records)]
    keys = [printing_key(r, columns) for r in records]
    printings: dict[str, dict[tuple, int]] = {}
    for i, (name, key) in enumerate(zip(names, keys)):
        printings.setdefault(fold(name), {}).setdefault(key, i)
    labels = []
    for name, record in zip(names, records):
        group = list(printings[fold(name)])
        if len(group) == 1:
            labels.append(str(name))
            continue
        differing = [c for j, c in enumerate(columns) if len({k[j] for k in group}) > 1]
        texts = {c: printing_text(c, record.get(c)) for c in differing}
        if "number" in differing:
            numbers = [k[columns.index("number")] for k in group]
            if all(numbers) and len(set(numbers)) == len(numbers):
                labels.append(f"{name} {texts['number']}")
                continue
        texts.pop("number", None)
        number = printing_text("number", record.get("number")) if "number" in columns else ""
        number = f" {number}" if number else ""
        others = [t for t in texts.values() if t]
        labels.append(f"{name}{number}" + (f" ({', '.join(others)})" if others else ""))
    return labels


_SELECT_NUMBER = re.compile(r"^(.*?)\s*#\s*([^#()]+?)$")
_SELECT_WHOLE_NUMBER = re.compile(r"^(.*?)\s*#\s*(.+)$")
_SHINY_WORDS = {"holo", "shiny", "brillante", "brillant", "foil"}


def name_readings(text: str) -> list[tuple[str, str | None, list[str]]]:
    """Readings ``(name, number, printing values)`` of a card reference, the whole text first.

    ``VENDEUR #35``, ``VENDEUR (35)``, ``POLICIER (holo)`` and
    ``Brain #14 (DM22-RP2X)`` pick one printing of a name; a card whose name
    itself ends in brackets (``Aqua Jet (BOOON Sky)``) is found by the first
    reading. Decklist lines, known cards and every option that names a card
    read a card reference this way.

    Examples
    --------
    >>> name_readings("VENDEUR #35")
    [('VENDEUR #35', None, []), ('VENDEUR', '35', [])]
    """
    readings: list[tuple[str, str | None, list[str]]] = [(text, None, [])]
    base, values = text, []
    bracket = _last_bracket(text)
    if bracket and bracket[0]:
        base, inside = bracket
        # No quotes: an apostrophe belongs to a value (``L'Ours``).
        values = [v.text.strip() for v in split_top_level(inside, brackets="()", quotes="") if v.text.strip()]
        readings.append((base, None, values))
        if len(values) > 1:  # one value with a comma in it
            readings.append((base, None, [inside.strip()]))
    number = _SELECT_NUMBER.match(base)
    if number and number.group(1):
        readings.append((number.group(1), number.group(2), values))
    number = _SELECT_WHOLE_NUMBER.match(text)
    if bracket and number and number.group(1):  # a collector number with brackets: "#91/110 (German)"
        readings.append((number.group(1), number.group(2), []))
    return readings


def _last_bracket(text: str) -> tuple[str, str] | None:
    """Split ``Name (a, b (c))`` into the text before its last bracket and what the bracket holds."""
    if not text.endswith(")"):
        return None
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[i], 0)
        if depth == 0:
            return text[:i].rstrip(), text[i + 1:-1]
    return None


def _number_matches(wanted: str, value: object) -> bool:
    """``#16`` matches the collector number ``16``, ``016`` and ``16/55``."""
    number = printing_text("number", value)[1:]
    if not number:
        return False
    wanted, number = fold(wanted.lstrip("#")), fold(number)
    candidates = {number, number.split("/")[0]}
    return wanted in candidates or any(wanted.isdigit() and c.isdigit() and int(wanted) == int(c) for c in candidates)


def _value_matches(wanted: str, record: dict, columns: list[str]) -> bool:
    """Whether a bracketed value names this printing: its number, set, clan, rarity or ``holo``.

    ``holo`` matches the ``shiny`` flag, or a rarity with the word in it when the pool has no such flag.
    """
    key = fold(wanted)
    if key in _SHINY_WORDS:
        if "shiny" in columns:
            return printing_text("shiny", record.get("shiny")) != ""
        # Without a flag column the rarity tells (Wankul's "Ultra rare holo 1").
        return key in fold(printing_text("rarity", record.get("rarity"))).split()
    if "number" in columns and _number_matches(key, record.get("number")):
        return True
    return any(fold(printing_text(c, record.get(c))) == key for c in columns if c not in ("number", "shiny"))


def printing_matches(number: str | None, values: list[str], record: dict, columns: list[str]) -> bool:
    """Whether a printing has the number and every bracketed value a decklist line gives."""
    if number is not None and not _number_matches(number, record.get("number")):
        return False
    return all(_value_matches(v, record, columns) for v in values)
