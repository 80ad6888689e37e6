"""A slow, literal simulator of the mulligan rules: one game at a time, one card at a time.

Each card is the set of groups it belongs to; a deck is a Python list of
cards, shuffled with a numpy Generator, and every rule is played step by step
as its text says. The needs policy is written here again from its
definition in docs/mulligans.md, card by card, so that the vectorised kernel
can be checked against it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

Card = frozenset
Needs = Callable[[int], Sequence[tuple[str, int]]]


def shuffled(cards: list, rng: np.random.Generator) -> list:
    """A uniformly random order of ``cards``."""
    return [cards[i] for i in rng.permutation(len(cards))]


def ranks(hand: Sequence[Card], needs: Sequence[tuple[str, int]]) -> list[int | None]:
    """Need each card serves, walking the hand in its order (``None``: not wanted)."""
    met = [0] * len(needs)
    out = []
    for card in hand:
        rank = next((i for i, (group, n) in enumerate(needs) if group in card and met[i] < n), None)
        if rank is not None:
            for i, (group, _) in enumerate(needs):
                if group in card:
                    met[i] += 1
        out.append(rank)
    return out


def least_wanted(hand: Sequence[Card], needs: Sequence[tuple[str, int]], n: int,
                 surplus: str | None = None) -> list[int]:
    """Positions of the ``n`` cards to put away: unwanted, then the last needs, the last drawn first.

    Unwanted cards of the ``surplus`` group (the resource group) go before the other unwanted cards.
    """
    order = ranks(hand, needs)

    def rank(i: int) -> int:
        if order[i] is not None:
            return order[i]
        return len(needs) + (1 if surplus is not None and surplus in hand[i] else 0)

    worst_first = sorted(range(len(hand)), key=lambda i: (rank(i), i), reverse=True)
    return worst_first[:n]


@dataclass
class Opening:
    """What one game's opening left: the kept hand, the library in draw order, mulligans taken."""

    hand: list
    library: list
    mulligans: int
    set_aside: list
    bottom: list


def opening(cards: list, rule: str, *, hand_size: int, set_aside: int, limit: int,
            keep: Callable[[list], bool], needs: Needs, rng: np.random.Generator,
            surplus: str | None = None) -> Opening:
    """Deal one opening under ``rule``, literally.

    ``needs(kept_size)`` gives the needs list for a hand that keeps
    ``kept_size`` cards; ``keep(hand)`` says whether a hand is kept;
    ``surplus`` is the resource group, whose unwanted cards go under first.
    """
    if rule == "bottom":
        deck = shuffled(cards, rng)
        aside, rest = deck[:set_aside], deck[set_aside:]
        under: list = []
        for k in range(limit + 1):
            hand, rest = rest[:hand_size], rest[hand_size:]
            if k == limit or keep(hand):
                return Opening(hand, rest + under, k, aside, under)
            under = under + hand
    if rule == "hearthstone":
        deck = shuffled(cards, rng)
        aside, hand, library = deck[:set_aside], deck[set_aside:set_aside + hand_size], deck[set_aside + hand_size:]
        away = [i for i, rank in enumerate(ranks(hand, needs(hand_size))) if rank is None]
        kept = [card for i, card in enumerate(hand) if i not in away]
        replacements, library = library[:len(away)], library[len(away):]
        library = shuffled(library + [hand[i] for i in away], rng)
        return Opening(kept + replacements, library, int(bool(away)), aside, [])
    for k in range(limit + 1):
        deck = shuffled(cards, rng)
        size = hand_size - k if rule == "vancouver" else hand_size
        aside, hand, library = deck[:set_aside], deck[set_aside:set_aside + size], deck[set_aside + size:]
        if k == limit or keep(hand):
            break
    n_bottom = {"london": k, "free": max(k - 1, 0)}.get(rule, 0)
    away = least_wanted(hand, needs(size - n_bottom), n_bottom, surplus)
    bottom = [hand[i] for i in away]
    hand = [card for i, card in enumerate(hand) if i not in away]
    library = library + bottom
    if rule == "vancouver" and k > 0 and library:
        top = library[0]
        if ranks(hand + [top], needs(size))[-1] is None:
            library = library[1:] + [top]
            bottom = [top]
    return Opening(hand, library, k, aside, bottom)


def count(cards: Sequence[Card], group: str) -> int:
    """Cards of ``group`` among ``cards``."""
    return sum(group in card for card in cards)
