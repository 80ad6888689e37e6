"""The card-table schema: canonical column names and the header spellings that mean them.

Shared by the loaders (:mod:`deckstat.cards`) and group matching
(:mod:`deckstat.deck`), so a ``Coût`` header and a ``[cost<=1]`` group meet.
"""

from __future__ import annotations

import re

from deckstat.text import fold, fold_key

#: Canonical column name -> accepted header spellings (compared with :func:`fold_key`).
COLUMN_ALIASES: dict[str, tuple[str, ...]] = {
    "name": ("name", "nom", "carte", "card", "cardname", "nomdelacarte", "nomcarte", "titre", "title"),
    "count": ("count", "quantite", "qte", "qty", "quantity", "nombre", "nb", "exemplaires", "copies",
              "number", "n", "x"),
    "type": ("type", "cardtype", "typedecarte", "categorie", "category"),
    "cost": ("cost", "cout", "mana", "manacost"),
    "force": ("force", "strength"),
    "power": ("power", "puissance"),
    "civilization": ("civilization", "civilisation", "civilizations", "civilisations", "civ"),
    "race": ("race", "races"),
    "team": ("team", "equipe"),
    "shiny": ("shiny", "brillante", "brillant", "holo"),
    "tags": ("tags", "tag", "etiquettes", "motscles", "keywords"),
    "deck": ("deck", "paquet", "pile"),
    "attack": ("attack", "atq", "attaque", "atk"),
    "defense": ("defense", "def"),
    "draw": ("draw", "pioche", "draws"),
    "mill": ("mill", "meule"),
    "shield_trigger": ("shieldtrigger", "declencheurdebouclier", "st"),
    "rarity": ("rarity", "rarete"),
    "family": ("family", "famille"),
}
_ALIAS_TO_CANONICAL = {alias: canon for canon, aliases in COLUMN_ALIASES.items() for alias in aliases}


def canonical_column(header: str) -> str:
    """Return the canonical name of a CSV header (``Coût`` -> ``cost``).

    Unknown headers are kept, folded to lower case without accents, with
    spaces turned into ``_``, so ``[Points de vie>=3]`` can still be written
    as ``[points_de_vie>=3]``.
    """
    key = fold_key(header)
    if key in _ALIAS_TO_CANONICAL:
        return _ALIAS_TO_CANONICAL[key]
    return re.sub(r"[\s\-]+", "_", fold(header))
