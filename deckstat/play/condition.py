"""Joueur du Grenier: summoning conditions (a TERRAIN in play, INVOCATIONs to sacrifice).

The field holds one TERRAIN, four INVOCATIONs and four EFFETs; the player
plays as many cards as the hand allows in the main phase. Most INVOCATIONs
are summoned freely; others ask for a TERRAIN in play (a given one or any)
or for INVOCATIONs of the field to be sacrificed. The card column
``condition`` says which, in a small syntax (:func:`parse_condition`).

The policy ``target`` aims at the target: it keeps the single TERRAIN slot for
a TERRAIN the target needs and summons condition-free INVOCATIONs as they
come, to sacrifice them. Under it, a single card's playability is an event on
the cards seen (:meth:`ConditionModel.reduction`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from deckstat.deck import LIST_SEPARATOR, is_missing
from deckstat.errors import DeckstatError
from deckstat.i18n import N_, tr
from deckstat.play.base import PlayModel, Reduction, Schedule, never, record_first, seen_by_turn
from deckstat.text import fold, suggest

#: The card types of the game, in the order the rules text lists them.
TYPES = ("INVOCATION", "EFFET", "CONTRE", "EQUIPEMENT", "TERRAIN")
#: INVOCATION slots of a field.
INVOCATION_SLOTS = 4

#: What an unreadable condition is told to look like.
CONDITION_FORMS = N_("empty (none), 'TERRAIN' (any TERRAIN in play), 'TERRAIN: <card name>', 'sacrifice: <n>' "
                      "(or 'sacrifier <n>'), several joined with ';', 'et' or 'and'")

_NONE_WORDS = {"", "-", "aucune", "aucun", "none", "sans", "no"}
_ANY_TERRAIN = {"terrain", "un terrain", "a terrain", "any terrain", "terrain quelconque",
                "n'importe quel terrain", "nimporte quel terrain"}
_GIVEN_TERRAIN = re.compile(r"^terrain\s*[:=]\s*(?P<name>.+)$")
_SACRIFICE = re.compile(r"^(?:sacrifices?|sacrifier|tributes?|tribut)\s*[:=]?\s*(?P<n>\d+)?"
                        r"(?:\s+(?:invocations?|cartes?|cards?|summons?))?$")
# "et"/"and" join two clauses only before a clause word: a TERRAIN may be named "Pierre et Feuille".
_JOIN = re.compile(r"\s+(?:et|and)\s+(?=(?:terrain|sacrifi|tribut))")


@dataclass(frozen=True)
class Condition:
    """A card's summoning condition.

    Attributes
    ----------
    terrain : str or None
        ``None`` (no TERRAIN needed), ``""`` (any TERRAIN in play) or the folded name of the TERRAIN needed.
    sacrifices : int
        INVOCATIONs of the field to sacrifice.
    """

    terrain: str | None = None
    sacrifices: int = 0


def parse_condition(text: object) -> Condition | None:
    """Read a ``condition`` cell; ``None`` when it is not in the documented syntax.

    Examples
    --------
    >>> parse_condition("TERRAIN: Salle d'Arcade Enfumée et sacrifier 1")
    Condition(terrain="salle d'arcade enfumee", sacrifices=1)
    >>> parse_condition("Terrain"), parse_condition("sacrifice: 2"), parse_condition("")
    (Condition(terrain='', sacrifices=0), Condition(terrain=None, sacrifices=2), Condition(terrain=None, sacrifices=0))
    >>> parse_condition("deux cartes") is None
    True
    """
    terrain: str | None = None
    sacrifices = 0
    for piece in str(text).split(LIST_SEPARATOR):
        for clause in _JOIN.split(fold(piece)):
            clause = clause.strip()
            if clause in _NONE_WORDS:
                continue
            if clause in _ANY_TERRAIN:
                terrain = "" if terrain is None else terrain
                continue
            given = _GIVEN_TERRAIN.match(clause)
            if given:
                name = given["name"].strip()
                if terrain and terrain != name:
                    return None  # one TERRAIN slot: two different TERRAINs cannot both be in play
                terrain = name
                continue
            sacrifice = _SACRIFICE.match(clause)
            if sacrifice:
                sacrifices += int(sacrifice["n"]) if sacrifice["n"] else 1
                continue
            return None
    return Condition(terrain, sacrifices)


@dataclass
class ConditionModel(PlayModel):
    """Joueur du Grenier's goldfish: summoning conditions on a field of one TERRAIN and four INVOCATIONs.

    Reads ``type`` (the five card types, French or English) and, when the deck
    has one, ``condition`` (FR ``condition d'invocation``; see
    :func:`parse_condition`); a deck without it has no conditions.

    A card is playable in the main phase when it is in hand and:

    * INVOCATION: its condition is met (the TERRAIN in play; ``n`` other
      INVOCATIONs in play to sacrifice) and a slot is free;
    * EQUIPEMENT: an INVOCATION is in play to carry it (plus its condition);
    * TERRAIN: the single TERRAIN slot is free;
    * EFFET, CONTRE: its condition is met (a CONTRE is counted playable once
      in hand: the goldfish has no opponent to react to, so it assumes the
      occasion the card names comes).
    """

    kind: ClassVar[str] = "condition"
    policies: ClassVar[dict[str, str]] = {
        "target": N_("Keep the TERRAIN slot for a TERRAIN the target needs and play it when held; summon "
                     "condition-free INVOCATIONs as they come (up to 4, or 3 when a slot must stay free for the "
                     "target) so they can be sacrificed or equipped; play the target as soon as it can be played."),
    }
    default_policy: ClassVar[str] = "target"

    def __post_init__(self) -> None:
        super().__post_init__()
        cards = self.deck.cards
        names = [str(n) for n in cards["name"]]
        folded = [fold(n) for n in names]
        # The profile's synonyms let English types (Summon, Effect...) count.
        deck = self.deck.with_synonyms(getattr(self.profile, "synonyms", None))
        type_of = np.full(len(cards), -1, dtype=np.int64)
        for index, type_name in enumerate(TYPES):
            type_of[deck.mask(f"[type={type_name}]") & (type_of < 0)] = index
        for row in np.flatnonzero(type_of < 0):
            value = cards["type"].iloc[row]
            shown = tr("no value") if is_missing(value) else tr("type {type!r}", type=str(value))
            raise DeckstatError(tr("column 'type': card {card!r} has {found}; the condition model needs one of "
                                   "{types} (or Summon, Effect, Counter, Equipment)", card=names[row], found=shown,
                                   types=", ".join(TYPES)))
        #: Index in :data:`TYPES` of each row.
        self.types = type_of
        self.is_terrain = type_of == TYPES.index("TERRAIN")
        self.is_invocation = type_of == TYPES.index("INVOCATION")
        self.is_equipment = type_of == TYPES.index("EQUIPEMENT")
        n_rows = len(cards)
        #: Sacrifices each card needs.
        self.sacrifices = np.zeros(n_rows, dtype=np.int64)
        #: allowed[r, s]: card r's TERRAIN condition holds with row s in the TERRAIN slot (s = n_rows: empty slot).
        self.allowed = np.ones((n_rows, n_rows + 1), dtype=bool)
        self.needs_terrain = np.zeros(n_rows, dtype=bool)
        #: Text of each card's condition, for the reductions' provenance.
        self.condition_text = [""] * n_rows
        terrain_rows = np.flatnonzero(self.is_terrain)
        column = "condition" if "condition" in cards.columns else None
        for row in range(n_rows if column else 0):
            value = cards[column].iloc[row]
            if is_missing(value) or not str(value).strip():
                continue
            condition = parse_condition(value)
            where = tr("column 'condition' (condition d'invocation): card {card!r}", card=names[row])
            if condition is None:
                raise DeckstatError(tr("{where} has {value!r}; expected {forms}", where=where, value=str(value),
                                       forms=tr(CONDITION_FORMS)))
            if condition.terrain is None and condition.sacrifices == 0:
                continue
            if self.is_terrain[row]:
                raise DeckstatError(tr("{where} is a TERRAIN with a condition ({value!r}); the condition model "
                                       "reads conditions of INVOCATION, EFFET, CONTRE and EQUIPEMENT cards only: "
                                       "leave the cell empty", where=where, value=str(value)))
            if condition.sacrifices > INVOCATION_SLOTS:
                raise DeckstatError(tr("{where} asks for {n} sacrifices; a field holds at most {slots} INVOCATIONs "
                                       "to sacrifice", where=where, n=condition.sacrifices, slots=INVOCATION_SLOTS))
            self.sacrifices[row] = condition.sacrifices
            self.condition_text[row] = str(value).strip()
            if condition.terrain is None:
                continue
            self.needs_terrain[row] = True
            self.allowed[row] = False
            if condition.terrain == "":
                self.allowed[row, terrain_rows] = True
                continue
            named = np.array([f == condition.terrain for f in folded], dtype=bool)
            if not named.any():
                terrains = [names[r] for r in terrain_rows]
                raise DeckstatError(tr("{where} has {value!r}: TERRAIN {terrain!r} is not in the deck{suggestion}; "
                                       "expected the name of one of its TERRAIN cards ({terrains})", where=where,
                                       value=str(value), terrain=condition.terrain,
                                       suggestion=suggest(condition.terrain, terrains),
                                       terrains=", ".join(terrains) or tr("none")))
            if not self.is_terrain[named].all():
                raise DeckstatError(tr("{where} has {value!r}: {terrain!r} is not a TERRAIN; expected the name of a "
                                       "TERRAIN card of the deck", where=where, value=str(value),
                                       terrain=condition.terrain))
            self.allowed[row, np.flatnonzero(named)] = True
        # A TERRAIN target is played into the slot: it is playable exactly when the slot holds it.
        self.allowed[terrain_rows] = False
        self.allowed[terrain_rows, terrain_rows] = True
        #: Condition-free INVOCATIONs: what the policy summons as it goes, to sacrifice or equip.
        self.free_invocations = self.is_invocation & (self.sacrifices == 0) & ~self.needs_terrain

    def _filler_cap(self, target: np.ndarray) -> int:
        """How many condition-free INVOCATIONs the policy keeps in play while aiming at ``target``."""
        keeps_slot = (target & self.is_invocation & (self.sacrifices == 0)).any()
        return INVOCATION_SLOTS - 1 if keeps_slot else INVOCATION_SLOTS

    def _wanted_terrains(self, target: np.ndarray) -> np.ndarray:
        """TERRAIN rows the policy plays for ``target``: its own TERRAINs and the ones its cards need."""
        wanted = target & self.is_terrain
        for row in np.flatnonzero(target & self.needs_terrain):
            wanted |= self.allowed[row, :-1]
        return np.flatnonzero(wanted)

    def first_turns(self, hand: np.ndarray, library: np.ndarray, schedule: Schedule,
                    targets: Sequence[np.ndarray]) -> np.ndarray:
        """First turn each target is playable under the policy (see :meth:`PlayModel.first_turns`).

        Per trial the state is small: the TERRAIN in the slot (per target) and
        the cards seen; the condition-free INVOCATIONs in play are the ones seen,
        capped, since the policy summons them as they come and they never leave.
        """
        n_trials = hand.shape[1]
        n_rows = self.n_rows
        first = np.full((len(targets), n_trials), never(schedule), dtype=np.int16)
        # The TERRAIN row in each trial's slot, n_rows while it is empty (the last column of `allowed`).
        slot = np.full((len(targets), n_trials), n_rows, dtype=np.int64)
        plans = []
        for target in targets:
            rows = np.flatnonzero(target)
            # An EQUIPEMENT needs one INVOCATION left to carry it after its sacrifices.
            needed = self.sacrifices[rows] + self.is_equipment[rows]
            plans.append((rows, needed, self.free_invocations & ~target, self._filler_cap(target),
                          self._wanted_terrains(target)))
        # The duel ends at the end of the turn that draws the last card: no turn after it.
        for turn, seen in seen_by_turn(hand, library, schedule, n_rows):
            for k, (rows, needed, fillers, cap, wanted) in enumerate(plans):
                if len(rows) == 0:
                    continue
                if len(wanted):
                    held = seen[wanted] > 0
                    play = (slot[k] == n_rows) & held.any(axis=0)
                    slot[k] = np.where(play, wanted[held.argmax(axis=0)], slot[k])
                in_play = np.minimum(seen[fillers].sum(axis=0), cap)
                playable = ((seen[rows] > 0) & (in_play[None, :] >= needed[:, None])
                            & self.allowed[rows][:, slot[k]]).any(axis=0)
                record_first(first[k], playable, turn)
        return first

    def reduction(self, target: np.ndarray) -> Reduction | None:
        """The exact event for one card, or for a set of cards that need nothing but to be held.

        ``X`` held, plus the TERRAIN it needs (the given one, or any) and ``n``
        condition-free INVOCATIONs seen for ``n`` sacrifices (one more for an
        EQUIPEMENT, to carry it). Under the policy the TERRAIN slot waits for
        that TERRAIN and the INVOCATIONs are summoned as they come, so holding
        the cards is enough.
        """
        rows = np.flatnonzero(target)
        needs = self.sacrifices[rows] + self.is_equipment[rows]
        if len(rows) == 0:
            return None
        names = [str(self.deck.cards["name"].iloc[r]) for r in rows]
        if len(rows) > 1:
            if self.needs_terrain[rows].any() or needs.any():
                return None
            return Reduction(sets=(target.copy(),), caps=(1,), holds=lambda c: c[0] >= 1,
                             text=" or ".join(names) + " >= 1")
        row = int(rows[0])
        need = int(needs[0])
        if need > self._filler_cap(target):
            return None
        sets = [target.copy()]
        words = [f"{names[0]} >= 1"]
        if self.needs_terrain[row]:
            terrains = self.allowed[row, :-1].copy()
            sets.append(terrains)
            named = [str(self.deck.cards["name"].iloc[r]) for r in np.flatnonzero(terrains)]
            words.append(f"{named[0] if len(named) == 1 else 'TERRAIN'} >= 1")
        if need:
            sets.append(self.free_invocations & ~target)
            words.append(f"condition-free INVOCATION >= {need}")
        thresholds = [1] * (len(sets) - (1 if need else 0)) + ([need] if need else [])

        def holds(counts: list[np.ndarray]) -> np.ndarray:
            result = counts[0] >= thresholds[0]
            for count, threshold in zip(counts[1:], thresholds[1:]):
                result = result & (count >= threshold)
            return result

        return Reduction(sets=tuple(sets), caps=tuple(thresholds), holds=holds, text=" and ".join(words))
