"""A literal Duel Masters goldfish: one game at a time, one card at a time, in plain Python.

Written from docs/play/duel-masters.md, not from deckstat's code, so that the
vectorised mana model (:mod:`deckstat.play.mana`) can be checked against it
game by game, and timed against it (``scripts/bench.py --play``).

A card is a dict with ``name``, ``count``, ``type``, ``civilization``,
``race``, ``cost`` and optionally ``is_evolution``, ``evolves_from`` and
``mana_number`` (the mana the card gives in the mana zone, « leur chiffre de
mana »; 1 when absent) (``;`` separates several values). Values are compared in lower case without
accents; no synonyms (write one spelling per deck).
"""

from __future__ import annotations

import itertools
import random
import unicodedata


def plain(text) -> str:
    """Lower case, no accents, no outer spaces."""
    decomposed = unicodedata.normalize("NFKD", str(text))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold().strip()


def values(cell) -> list[str]:
    if cell is None or cell == "" or (isinstance(cell, float) and cell != cell):
        return []
    return [plain(v) for v in str(cell).split(";") if v.strip()]


class Card:
    """What the rules need to know about one distinct card."""

    def __init__(self, row: int, record: dict):
        self.row = row
        self.name = record["name"]
        self.cost = int(float(record["cost"]))
        self.civ_order = list(dict.fromkeys(values(record["civilization"])))
        self.civs = frozenset(self.civ_order)
        kind = plain(record.get("type") or "")
        flag = plain(record.get("is_evolution") or "") in ("1", "1.0", "oui", "yes", "true", "vrai")
        self.evolution = flag or "evolution" in kind or "evolue" in kind
        self.creature = "creature" in kind or self.evolution
        self.races = set(values(record.get("race")))
        self.evolves_from = set(values(record.get("evolves_from"))) or self.races
        mana = record.get("mana_number")
        self.mana = 1 if mana is None or mana == "" else int(float(mana))


def cards_of(records: list[dict]) -> list[Card]:
    return [Card(row, record) for row, record in enumerate(records)]


def can_pay(cards: list[Card], spells: list[Card]) -> bool:
    """Whether the mana of the untapped ``cards`` pays for every spell of ``spells``.

    A card gives its mana number of mana, each of them of the card's
    civilizations (a multicolour card's count as each of its own). A spell
    costing ``c`` takes ``c`` mana, among which at least one of each of its
    civilizations (« au moins 1 des manas utilisés »); each mana pays one spell.
    """
    mana = [card for card in cards for _ in range(card.mana)]
    if len(mana) < sum(spell.cost for spell in spells):
        return False

    def cover(spell_index: int, free: list[int]) -> bool:
        if spell_index == len(spells):
            return True
        spell = spells[spell_index]
        if spell.cost == 0:
            return cover(spell_index + 1, free)
        for size in range(1, min(len(spell.civs), spell.cost) + 1):
            for chosen in itertools.combinations(free, size):
                if set().union(*(mana[i].civs for i in chosen)) >= spell.civs:
                    if cover(spell_index + 1, [i for i in free if i not in chosen]):
                        return True
        return False

    return cover(0, list(range(len(mana))))


def first_turn(cards: list[Card], hand: list[int], library: list[int], drawn: list[int], target: set[int],
               policy: str = "civ_first", effect_draws: list[int] | None = None) -> int:
    """The first turn the target is playable in this game, or ``len(drawn)`` when it is not by the last turn.

    ``hand`` and ``library`` are row numbers (the library in draw order, shields
    left out); ``drawn[t]`` is the number of library cards drawn by turn ``t``.
    ``effect_draws[row]``: the cards that row's draw effect draws; each turn, after
    its draw, every card come to hand whose effect is not played yet is played
    (its cost left aside, the card staying in hand), one after the other, the
    cards drawn playing theirs, until the deck's last card.
    """
    hand = list(hand)
    come = list(hand)  # every card come to hand, in order; `played` of them have played their draw effect
    played = extra = reached = 0
    mana: list[tuple[Card, int]] = []  # (card, turn it was charged)
    battle: list[Card] = []
    evolutions = [cards[r] for r in sorted(target) if cards[r].evolution]
    bases = {c.row for c in cards if c.creature and not c.evolution
             and any(c.races & e.evolves_from for e in evolutions)}
    wanted: list[str] = []
    for row in sorted(target) + sorted(bases, key=lambda r: (cards[r].cost, r)):
        wanted += [civ for civ in cards[row].civ_order if civ not in wanted]

    def rank(row: int):
        tier = 2 if row in target else 1 if row in bases else 0
        return tier, -cards[row].mana, -cards[row].cost, row

    for turn in range(1, len(drawn)):
        reach = min(drawn[turn] + extra, len(library))
        new = library[reached:reach]
        come += new
        while effect_draws is not None and played < len(come):
            extra += effect_draws[come[played]]
            played += 1
            more = library[reach:min(drawn[turn] + extra, len(library))]
            reach += len(more)
            new += more
            come += more
        if reach >= len(library) and reach > reached:
            return len(drawn)  # drew the last card of the deck: lost
        reached = reach
        hand += new
        base_in_play = any(c.row in bases for c in battle)

        # Charge one card.
        choice = None
        if policy == "first_drawn":
            choice = next((row for row in hand if row not in target), None)
        else:
            # Never the last target card in hand, nor the last base while none is in play.
            last_target = sum(r in target for r in hand) < 2
            last_base = not base_in_play and sum(r in bases for r in hand) < 2
            candidates = sorted({row for row in hand if not (row in target and last_target)
                                 and not (row in bases and last_base)}, key=rank)
            # A card whose mana number is 0 gives no mana, so no civilization.
            in_mana = set().union(*(card.civs for card, _ in mana if card.mana > 0)) if mana else set()
            for civ in wanted:
                if civ not in in_mana:
                    bringing = [row for row in candidates if civ in cards[row].civs and cards[row].mana > 0]
                    if bringing:
                        choice = bringing[0]
                        break
            if choice is None and candidates:
                choice = candidates[0]
        if choice is not None:
            hand.remove(choice)
            mana.append((cards[choice], turn))

        # Multicolour cards enter the mana zone tapped.
        untapped = [card for card, when in mana if when < turn or len(card.civs) == 1]
        for row in sorted(target):
            if row not in hand:
                continue
            card = cards[row]
            if not card.evolution:
                if can_pay(untapped, [card]):
                    return turn
                continue
            if any(b.row in bases and b.races & card.evolves_from for b in battle) and can_pay(untapped, [card]):
                return turn
            for base in set(hand):
                if base in bases and cards[base].races & card.evolves_from and \
                        can_pay(untapped, [cards[base], card]):
                    return turn
        if bases and not base_in_play:
            for base in sorted(set(hand) & bases, key=lambda r: (cards[r].cost, r)):
                if can_pay(untapped, [cards[base]]):
                    hand.remove(base)
                    battle.append(cards[base])
                    break
    return len(drawn)


def play(records: list[dict], n_games: int, seed: int, max_turn: int = 10, shields: int = 5, hand_size: int = 5,
         seat: str = "first", policy: str = "civ_first") -> list[list[int]]:
    """Deal ``n_games`` games with ``random.shuffle`` and follow each card of the deck as its own target.

    Returns, per distinct card, how many games first had it playable on each
    turn ``1..max_turn`` (index ``t - 1``) and, last, on none of them.
    """
    cards = cards_of(records)
    deck = [row for row, record in enumerate(records) for _ in range(int(record.get("count") or 1))]
    library_size = len(deck) - shields - hand_size
    first_draw = 0 if seat == "first" else 1
    drawn = [0] + [min(first_draw + t - 1, library_size) for t in range(1, max_turn + 1)]
    tallies = [[0] * (max_turn + 1) for _ in cards]
    rng = random.Random(seed)
    for _ in range(n_games):
        rng.shuffle(deck)
        hand, library = deck[shields:shields + hand_size], deck[shields + hand_size:]
        for card in cards:
            tallies[card.row][first_turn(cards, hand, library, drawn, {card.row}, policy) - 1] += 1
    return tallies
