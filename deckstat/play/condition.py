"""Joueur du Grenier: summoning conditions (a TERRAIN in play, cards to sacrifice).

The field holds one TERRAIN, four INVOCATIONs (each with at most one
EQUIPEMENT under it) and four EFFETs; the player plays as many cards as the
hand allows in the main phase. Most INVOCATIONs are summoned freely; others
ask for a TERRAIN in play (a given one or any) or for « le sacrifice d'une ou
plusieurs cartes ». The card column ``condition`` says which, in a small
syntax (:func:`parse_condition`).

What a sacrifice may take is a policy. ``target`` (the default) reads the
rules text to the letter: any of the player's cards in play, INVOCATIONs,
their EQUIPEMENTs, EFFETs played that turn, and the TERRAIN the target does not
need. ``tribute`` reads it as the games JdG parodies do: INVOCATIONs of the
field only. Both keep the single TERRAIN slot for a TERRAIN the target needs
and summon condition-free INVOCATIONs as they come, to sacrifice them; under
both, a single card's playability is an event on the cards seen
(:meth:`ConditionModel.reduction`).
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
from deckstat.play.base import PlayModel, Reduction, Schedule, never, plays_on, record_first, seen_by_turn
from deckstat.text import fold, suggest

#: The card types of the game, in the order the rules text lists them.
TYPES = ("INVOCATION", "EFFET", "CONTRE", "EQUIPEMENT", "TERRAIN")
#: INVOCATION slots of a field; EFFET slots are as many.
INVOCATION_SLOTS = 4
EFFET_SLOTS = 4
#: The most cards a field holds at once: 4 INVOCATIONs, an EQUIPEMENT under each, 4 EFFETs and a TERRAIN.
FIELD_CARDS = 2 * INVOCATION_SLOTS + EFFET_SLOTS + 1

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

    * INVOCATION: its condition is met (the TERRAIN in play; ``n`` cards of
      the field to sacrifice, see the policies) and a slot is free;
    * EQUIPEMENT: an INVOCATION without an EQUIPEMENT is in play to carry it
      (plus its condition);
    * TERRAIN: the single TERRAIN slot is free;
    * EFFET, CONTRE: its condition is met (a CONTRE is counted playable once
      in hand: the goldfish has no opponent to react to, so it assumes the
      occasion the card names comes).
    """

    kind: ClassVar[str] = "condition"

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
            most = INVOCATION_SLOTS if self.policy == "tribute" else FIELD_CARDS
            if condition.sacrifices > most:
                what = (tr("a field holds at most {slots} INVOCATIONs to sacrifice", slots=INVOCATION_SLOTS)
                        if self.policy == "tribute" else
                        tr("a field holds at most {cards} cards to sacrifice (4 INVOCATIONs, an EQUIPEMENT under "
                           "each, 4 EFFETs and a TERRAIN)", cards=FIELD_CARDS))
                raise DeckstatError(tr("{where} asks for {n} sacrifices; {what}", where=where, n=condition.sacrifices,
                                       what=what))
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
        free = (self.sacrifices == 0) & ~self.needs_terrain
        #: Condition-free INVOCATIONs: what the policy summons as it goes, to sacrifice or equip.
        self.free_invocations = self.is_invocation & free
        #: Condition-free EQUIPEMENTs and EFFETs: more to sacrifice under the ``target`` policy.
        self.free_equipments = self.is_equipment & free
        self.free_effets = (type_of == TYPES.index("EFFET")) & free

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

    def _fodder_sets(self, target: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The cards the policy may sacrifice for ``target``: INVOCATIONs, EQUIPEMENTs, EFFETs, TERRAINs (masks).

        Under ``tribute`` only INVOCATIONs; under ``target`` also the others,
        and the TERRAINs only when no card of the target needs or is one (the
        slot is then free for any TERRAIN).
        """
        none = np.zeros(self.n_rows, dtype=bool)
        invocations = self.free_invocations & ~target
        if self.policy == "tribute":
            return invocations, none, none, none
        terrains = self.is_terrain & ~target if len(self._wanted_terrains(target)) == 0 else none
        return invocations, self.free_equipments & ~target, self.free_effets & ~target, terrains

    @staticmethod
    def _fodder(invocations, equipments, effets, terrain, keep_carrier: bool):
        """Cards that can be sacrificed at once, for a target that is not an EQUIPEMENT and for one that is.

        ``invocations`` are the condition-free INVOCATIONs in play (already
        capped by the slots), ``equipments`` and ``effets`` the condition-free
        ones seen, ``terrain`` whether a TERRAIN the target does not need is in
        the slot. An EQUIPEMENT goes under an INVOCATION that carries no other;
        when the target holds an EQUIPEMENT (``keep_carrier``) one INVOCATION
        is kept free to carry it, and the TERRAIN is not sacrificed for it:
        destroying it sends every card of its field, the carrier too, to the
        bin. ``-1`` where an EQUIPEMENT target has no INVOCATION to go under.
        """
        effets = np.minimum(effets, EFFET_SLOTS)
        placed = np.minimum(equipments, np.maximum(invocations - int(keep_carrier), 0))
        anything = effets + placed + invocations + terrain
        for_equipment = np.where(invocations >= 1, effets + placed + invocations - 1, -1)
        return anything, for_equipment

    def first_turns(self, hand: np.ndarray, library: np.ndarray, schedule: Schedule,
                    targets: Sequence[np.ndarray]) -> np.ndarray:
        """First turn each target is playable under the policy (see :meth:`PlayModel.first_turns`).

        Per trial the state is small: the TERRAIN in the slot (per target) and
        the cards seen; the condition-free INVOCATIONs in play are the ones seen,
        capped, since the policy summons them as they come and they never leave;
        EQUIPEMENTs go under them as they come, and EFFETs wait in hand until a
        sacrifice needs them.
        """
        n_trials = hand.shape[1]
        n_rows = self.n_rows
        first = np.full((len(targets), n_trials), never(schedule), dtype=np.int16)
        # The TERRAIN row in each trial's slot, n_rows while it is empty (the last column of `allowed`).
        slot = np.full((len(targets), n_trials), n_rows, dtype=np.int64)
        plans = []
        terrain_rows = np.flatnonzero(self.is_terrain)
        for target in targets:
            rows = np.flatnonzero(target)
            invocations, equipments, effets, terrains = self._fodder_sets(target)
            wanted = self._wanted_terrains(target)
            # With no TERRAIN to wait for, the slot takes the first TERRAIN held, to sacrifice it.
            slot_for = wanted if len(wanted) or not terrains.any() else terrain_rows
            plans.append((rows, self.sacrifices[rows][:, None], self.is_equipment[rows][:, None], invocations,
                          equipments, effets, terrains.any(), self._filler_cap(target), slot_for,
                          bool(self.is_equipment[rows].any())))
        # The duel ends at the end of the turn that draws the last card: no turn after it (unless the profile's
        # deck-out rule lets a player with no card left play on).
        for turn, seen in seen_by_turn(hand, library, schedule, n_rows, play_on=plays_on(self.profile)):
            for k, (rows, needed, equipment, invocations, equipments, effets, terrain_fodder, cap,
                    slot_for, keep_carrier) in enumerate(plans):
                if len(rows) == 0:
                    continue
                if len(slot_for):
                    held = seen[slot_for] > 0
                    play = (slot[k] == n_rows) & held.any(axis=0)
                    slot[k] = np.where(play, slot_for[held.argmax(axis=0)], slot[k])
                in_play = np.minimum(seen[invocations].sum(axis=0), cap)
                if self.policy == "tribute":
                    anything, for_equipment = in_play, np.where(in_play >= 1, in_play - 1, -1)
                else:
                    anything, for_equipment = self._fodder(
                        in_play, seen[equipments].sum(axis=0), seen[effets].sum(axis=0),
                        (slot[k] != n_rows) & terrain_fodder, keep_carrier)
                fodder = np.where(equipment, for_equipment[None, :], anything[None, :])
                playable = ((seen[rows] > 0) & (fodder >= needed) & self.allowed[rows][:, slot[k]]).any(axis=0)
                record_first(first[k], playable, turn)
        return first

    def reduction(self, target: np.ndarray) -> Reduction | None:
        """The exact event for one card, or for a set of cards that need nothing but to be held.

        ``X`` held, plus the TERRAIN it needs (the given one, or any), and
        enough cards seen to sacrifice ``n`` (and, for an EQUIPEMENT, an
        INVOCATION to carry it): under ``tribute`` ``n`` condition-free
        INVOCATIONs; under ``target`` condition-free INVOCATIONs (at most 4),
        EQUIPEMENTs (one under each INVOCATION), EFFETs (at most 4) and a
        TERRAIN when ``X`` needs none. Under the policy the TERRAIN slot waits
        for that TERRAIN and the INVOCATIONs are summoned as they come, so the
        cards seen are enough.
        """
        rows = np.flatnonzero(target)
        if len(rows) == 0:
            return None
        names = [str(self.deck.cards["name"].iloc[r]) for r in rows]
        if len(rows) > 1:
            needs = self.sacrifices[rows] + self.is_equipment[rows]
            if self.needs_terrain[rows].any() or needs.any():
                return None
            return Reduction(sets=(target.copy(),), caps=(1,), holds=lambda c: c[0] >= 1,
                             text=" or ".join(names) + " >= 1")
        row = int(rows[0])
        sacrifices, equipment = int(self.sacrifices[row]), bool(self.is_equipment[row])
        if self.policy == "tribute" and sacrifices + equipment > self._filler_cap(target):
            return None
        sets = [target.copy()]
        caps = [1]
        words = [f"{names[0]} >= 1"]
        if self.needs_terrain[row]:
            terrains = self.allowed[row, :-1].copy()
            sets.append(terrains)
            caps.append(1)
            named = [str(self.deck.cards["name"].iloc[r]) for r in np.flatnonzero(terrains)]
            words.append(f"{named[0] if len(named) == 1 else 'TERRAIN'} >= 1")
        checked = len(sets)
        if sacrifices or equipment:
            invocations, equipments, effets, terrains = self._fodder_sets(target)
            if equipment:
                terrains = np.zeros_like(terrains)  # destroying the TERRAIN would take the carrier with it
            cap = self._filler_cap(target)
            fodder = [(invocations, cap), (equipments, INVOCATION_SLOTS), (effets, EFFET_SLOTS), (terrains, 1)]
            for mask, most in fodder:
                if mask.any():
                    sets.append(mask)
                    caps.append(most)
            present = [mask.any() for mask, _ in fodder]
            if self.policy == "tribute":
                words.append(f"condition-free INVOCATION >= {sacrifices + equipment}")
            else:
                kinds = [w for w, p in zip(("INVOCATION", "EQUIPEMENT", "EFFET", "TERRAIN"), present) if p]
                what = f"{sacrifices} to sacrifice" + (" and one to carry it" if equipment else "")
                words.append(f"condition-free {'/'.join(kinds) or 'card'} in play >= {what}")
        else:
            present = [False] * 4
        policy, fodder_of = self.policy, self._fodder

        def holds(counts: list[np.ndarray]) -> np.ndarray:
            result = counts[0] >= 1
            for count in counts[1:checked]:
                result = result & (count >= 1)
            if not (sacrifices or equipment):
                return result
            found = iter(counts[checked:])
            invocations, equipments, effets, terrain = (next(found) if p else 0 for p in present)
            invocations = np.minimum(invocations, caps[checked]) if present[0] else np.asarray(0)
            if policy == "tribute":
                anything, for_equipment = invocations, np.where(invocations >= 1, invocations - 1, -1)
            else:
                anything, for_equipment = fodder_of(invocations, equipments, effets, np.minimum(terrain, 1), equipment)
            return result & ((for_equipment if equipment else anything) >= sacrifices)

        return Reduction(sets=tuple(sets), caps=tuple(caps), holds=holds, text=" and ".join(words))
