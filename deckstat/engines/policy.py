"""Exact value of keeping or mulliganing an opening hand, and the best keep rule, by dynamic programming.

A player who sees their opening hand (its cells) chooses to keep it or to
mulligan; the value of each choice is P(event on the kept hand and the next
``d`` draws), exact, for each ``d`` asked (one per seat). Keeping is
:func:`deckstat.engines.known.known_odds` over the rest of the deck. A
mulligan's value is the value of what follows when every later decision is
made the same way: optimally (the larger of the two values), or by a keep
rule given as a :class:`~deckstat.engines.exact.Condition`.

Rules modelled:

* ``bottom`` (Wankul): the hand goes under the deck and the next hand is
  dealt from the top, no shuffle. Each hand put back lies under the deck in
  random order, under the hands put back before it; draws reach them only
  after the rest of the deck, first the first hand put back. The state is the
  ordered list of those hands (their sum when no draw asked can reach them).
* ``london``: shuffle, draw a full hand, put ``k`` cards under the deck after
  the ``k``-th mulligan, the ``k`` that leave the best value (every
  sub-composition is tried); ``free``: the first mulligan puts none back,
  the ``k``-th puts ``k - 1``; ``vancouver``: the ``k``-th hand has
  ``hand_size - k`` cards and, once kept, the top card is seen and left on
  top or put under the deck, whichever gives the better value. These rules
  reshuffle, so the value of a mulligan does not depend on the hand.
* ``pokemon``: reshuffle and deal a full hand again while the keep rule
  fails, up to the limit. The rule leaves no choice: every hand after a
  mulligan is worth the same, ``A (1 - f^n) / q + f^n U`` with ``n``
  mulligans still allowed, ``q`` the chance that a hand meets the keep rule,
  ``f = 1 - q``, ``A`` = P(event and keep rule) and ``U`` = P(event) (a
  geometric series, so a limit of 100 or 10,000 costs one pass over the hands).
* ``hearthstone``: one round; the player chooses which cards to replace,
  draws as many from the deck without them, then shuffles the replaced cards
  back in. The value of replacing ``r`` from hand ``h`` averages, over the
  replacements ``n`` (hypergeometric from the deck minus ``h``), the value of
  the final hand ``h - r + n`` with the library made of every other card.

Cards set aside before the hand (Duel Masters' shields) are unknown and come
off the top: they are exchangeable with the rest of the deck, so they only
matter when draws reach the cards a rule put under the deck, and then the
value is averaged over their composition. Under the Hearthstone rule they are
set aside before the replaced cards return, so the library holds the
replaced cards and the others less the set-aside ones: the ``d`` draws are
``j`` replaced cards (hypergeometric) and ``d - j`` cards drawn uniformly from
the other cards the final hand leaves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from deckstat.engines.exact import Condition
from deckstat.engines.known import compositions, group_counts, known_odds, zone_counts
from deckstat.errors import DeckstatError
from deckstat.i18n import number, tr, trn

#: Rules a hand's value can be computed under.
POLICY_RULES = ("bottom", "london", "vancouver", "free", "hearthstone", "pokemon")
#: Rules that reshuffle the hand into the deck, so that a mulligan's value does not depend on it.
RESHUFFLE_RULES = ("london", "vancouver", "free", "pokemon")
#: Most zone evaluations :class:`MulliganGame` accepts to make (see :func:`MulliganGame.evaluations`). Each
#: costs about half a millisecond (0.4 to 0.9 ms measured, with the keep rule's pass), so about 30 s at most.
MAX_EVALUATIONS = 50_000
#: Hearthstone: (final hand, replacement) pairs weighed per evaluation in the cost, vectorised or not (a Python
#: loop when set-aside cards are involved); measured at about the time of one evaluation.
PAIRS_PER_EVALUATION = {"vectorised": 15_000, "loop": 500}


def holds(condition: Condition, group_counts: np.ndarray) -> np.ndarray:
    """Whether ``condition`` holds for each row of group counts.

    Parameters
    ----------
    condition : Condition
    group_counts : ndarray of int, shape (n, n_groups)

    Returns
    -------
    ndarray of bool, shape (n,)
    """
    group_counts = np.atleast_2d(np.asarray(group_counts, dtype=np.int64))
    if not condition.groups:
        return np.broadcast_to(np.asarray(condition.holds([]), dtype=bool), (len(group_counts),)).copy()
    values = [np.minimum(group_counts[:, g], cap) for g, cap in zip(condition.groups, condition.caps)]
    return np.asarray(condition.holds(values), dtype=bool).reshape(len(group_counts))


def count_compositions(cell_counts: Sequence[int], size: int) -> int:
    """How many ways ``size`` cards split over cells of these sizes (the rows :func:`compositions` returns).

    Examples
    --------
    >>> count_compositions([2, 3], 2)
    3
    """
    return _weighted_splits(cell_counts, size, lambda k: 1)


def _weighted_splits(cell_counts: Sequence[int], size: int, weight) -> int:
    """Sum over the compositions of ``size`` cards of the product over cells of ``weight(cards of the cell)``."""
    if size < 0:
        return 0
    ways = [1] + [0] * size
    for count in cell_counts:
        new = [0] * (size + 1)
        for total, w in enumerate(ways):
            if w:
                for k in range(min(int(count), size - total) + 1):
                    new[total + k] += w * weight(k)
        ways = new
    return ways[size]


def count_choices(cell_counts: Sequence[int], size: int) -> int:
    """Sum over the compositions of ``size`` cards of their sub-compositions: the (hand, cards replaced) pairs.

    Examples
    --------
    >>> count_choices([2, 3], 2)  # (0, 2) and (2, 0) have 3 sub-compositions each, (1, 1) has 4
    10
    """
    # A cell holding k cards of the hand can give 0..k of them: k + 1 sub-compositions.
    return _weighted_splits(cell_counts, size, lambda k: k + 1)


def count_nested(cell_counts: Sequence[int], inner: int, outer: int) -> int:
    """How many pairs of compositions ``Z <= T`` over the cells, ``inner`` cards in ``Z`` and ``outer`` in ``T``.

    Examples
    --------
    >>> count_nested([1, 1], 1, 2)  # T = (1, 1), Z = (1, 0) or (0, 1)
    2
    """
    ways = {(0, 0): 1}
    for count in cell_counts:
        new: dict = {}
        for (z, t), w in ways.items():
            for t_cell in range(min(int(count), outer - t) + 1):
                for z_cell in range(min(t_cell, inner - z) + 1):
                    key = (z + z_cell, t + t_cell)
                    new[key] = new.get(key, 0) + w
        ways = new
    return ways.get((inner, outer), 0)


def bottom_count(rule: str, mulligans: int) -> int:
    """Cards put under the deck after the ``mulligans``-th mulligan of a full hand (London, free)."""
    return {"london": mulligans, "free": max(mulligans - 1, 0)}.get(rule, 0)


def dealt_size(rule: str, hand_size: int, mulligans: int) -> int:
    """Cards dealt for the hand after ``mulligans`` mulligans (Vancouver deals one fewer each time)."""
    return hand_size - mulligans if rule == "vancouver" else hand_size


class MulliganGame:
    """One deck, event and mulligan rule: the values of keeping and mulliganing each hand.

    Parameters
    ----------
    cell_counts : ndarray of int, shape (n_cells,)
        The drawn deck, per cell.
    membership : ndarray of bool, shape (n_cells, n_groups)
    condition : Condition
        The event.
    draws : sequence of int
        Cards drawn after the kept hand, one entry per value asked (e.g. per seat).
    hand_size, set_aside : int
    rule : {"bottom", "london", "vancouver", "free", "hearthstone", "pokemon"}
    limit : int
        Mulligans allowed; the last hand is kept (``hearthstone``: 1, its one round).
    keep : Condition, optional
        The keep rule over the columns of ``membership``; the ``pokemon`` rule
        needs it (it decides every hand).

    Raises
    ------
    DeckstatError
        A rule not modelled, or more evaluations than :data:`MAX_EVALUATIONS`.
    """

    def __init__(self, cell_counts: np.ndarray, membership: np.ndarray, condition: Condition, *,
                 draws: Sequence[int], hand_size: int, set_aside: int, rule: str, limit: int,
                 keep: Condition | None = None) -> None:
        if rule not in POLICY_RULES:
            raise DeckstatError(tr("the value of a mulligan is not modelled for the {rule!r} rule; the rules "
                                   "modelled are {rules}", rule=rule, rules=", ".join(POLICY_RULES)))
        if rule == "pokemon" and keep is None:
            raise ValueError("the pokemon rule needs the keep rule")
        self.cell_counts = np.asarray(cell_counts, dtype=np.int64)
        self.membership = np.asarray(membership, dtype=bool).reshape(len(self.cell_counts), -1)
        self.condition = condition
        self.keep = keep
        self.draws = tuple(int(d) for d in draws)
        self.hand_size, self.set_aside, self.rule, self.limit = hand_size, set_aside, rule, limit
        n_cards = int(self.cell_counts.sum())
        # Can a draw reach the hands a bottom mulligan put back? Then their order matters, not only their sum.
        self.ordered = rule == "bottom" and max(self.draws, default=0) > n_cards - set_aside - (limit + 1) * hand_size
        # Hearthstone: how many cards can be replaced (the library must hold their replacements), and whether
        # the set-aside cards make a final hand's value depend on the cards replaced (they never return).
        self.max_replaced = min(hand_size, n_cards - set_aside - hand_size)
        self.mixed = rule == "hearthstone" and set_aside > 0 and max(self.draws, default=0) > 0
        self.evaluated = 0
        self._seen: dict = {}
        self._splits: dict = {}
        self._values: dict = {}

    # --- cost -------------------------------------------------------------------------------------------------

    def evaluations(self) -> int:
        """An upper bound on the zone evaluations the first-hand table needs (each a :func:`known_odds` call)."""
        c, h, n_cells = self.cell_counts, self.hand_size, len(self.cell_counts)
        hands = count_compositions(c, h)
        if self.rule == "pokemon" or hands > MAX_EVALUATIONS:
            # One evaluation per hand at least.
            return hands
        if self.rule == "hearthstone":
            # Every (hand, cards replaced) choice averages over every arrival: pairs, weighed by their time.
            arrivals = max(count_compositions(c, m) for m in range(self.max_replaced + 1))
            pairs = count_choices(c, h) * arrivals // PAIRS_PER_EVALUATION["loop" if self.mixed else "vectorised"]
            if not self.mixed or pairs > MAX_EVALUATIONS:
                # Every final hand is a composition of a hand's size, evaluated once.
                return hands + pairs
            # An evaluation reads the cards in hand or drawn Z (the final hand and j replaced cards) and the cards
            # T they are drawn from with the library (the final hand and every replaced card): one per draw
            # count and (Z, T). Each (final hand, cards replaced) pair also sums them, a Python loop.
            keys = sum(count_nested(c, h + j, h + m) for d in self.draws for j in range(min(d, self.max_replaced) + 1)
                       for m in range(j, self.max_replaced + 1))
            sums = 0
            for m in range(self.max_replaced + 1):
                for replaced in self._compositions(c, m)[0]:
                    per_pair = sum(count_compositions(replaced, j) for d in self.draws for j in range(min(d, m) + 1))
                    sums += count_compositions(c - replaced, h) * per_pair
            return keys + sums // 50 + pairs
        if self.rule == "bottom":
            if self.ordered:
                return sum(hands ** (k + 1) for k in range(self.limit + 1))
            return sum(count_compositions(c, k * h) * hands for k in range(self.limit + 1))
        total = 0
        for k in range(self.limit + 1):
            size, n_bottom = dealt_size(self.rule, h, k), bottom_count(self.rule, k)
            n_hands = count_compositions(c, size)
            if self.rule == "vancouver" and k > 0:
                total += n_hands * (1 + 2 * n_cells)
            elif n_bottom and n_hands <= MAX_EVALUATIONS:
                # Each hand tries every choice of the cards it puts back: count them hand by hand.
                total += sum(count_compositions(hand, min(n_bottom, size)) for hand in self._compositions(c, size)[0])
            else:
                total += n_hands * math.comb(n_bottom + n_cells - 1, n_cells - 1)
        return total

    def check_cost(self) -> None:
        """Refuse up front a question whose evaluations exceed :data:`MAX_EVALUATIONS`."""
        needed = self.evaluations()
        if needed > MAX_EVALUATIONS:
            hands = count_compositions(self.cell_counts, self.hand_size)
            rounds = tr("one round") if self.rule == "hearthstone" else \
                trn("{n} mulligan", "{n} mulligans", self.limit)
            facts = {"hands": number(hands), "kinds": len(self.cell_counts), "needed": number(needed),
                     "rule": self.rule, "rounds": rounds, "most": number(MAX_EVALUATIONS)}
            if self.rule in ("hearthstone", "pokemon"):
                raise DeckstatError(tr("{hands} different opening hands over {kinds} kinds of cards need about "
                                       "{needed} evaluations under the {rule} rule with {rounds}, more than the "
                                       "{most} computed exactly in reasonable time; ask about fewer groups", **facts))
            raise DeckstatError(tr("{hands} different opening hands over {kinds} kinds of cards need about {needed} "
                                   "evaluations under the {rule} rule with {rounds}, more than the {most} computed "
                                   "exactly in reasonable time; ask about fewer groups or allow fewer mulligans",
                                   **facts))

    # --- the value of a zone ----------------------------------------------------------------------------------

    def _group_counts(self, cells: np.ndarray) -> np.ndarray:
        return group_counts(cells, self.membership)

    def seen_value(self, library: np.ndarray, zone: np.ndarray, blocks: tuple = (),
                   draws: Sequence[int] | None = None) -> np.ndarray:
        """P(event on ``zone`` plus the next ``d`` draws), for each ``d`` of ``draws`` (default: the game's).

        ``library`` holds every unknown card above ``blocks`` (the set-aside
        cards among them); ``blocks`` are cell counts of cards under it, in
        order from the top, each in random order.
        """
        draws = self.draws if draws is None else tuple(int(d) for d in draws)
        blocks = tuple(tuple(int(x) for x in b) for b in blocks if sum(b))
        key = (tuple(int(x) for x in library), tuple(int(x) for x in zone), blocks, draws)
        if key in self._seen:
            return self._seen[key]
        library = np.asarray(library, dtype=np.int64)
        zone = np.asarray(zone, dtype=np.int64)
        reach = max(draws, default=0) > int(library.sum()) - self.set_aside
        if not blocks or not reach:
            # The unknown set-aside cards are exchangeable with the library while no draw goes past it.
            value = self._known(library, zone, draws)
        elif self.set_aside:
            splits, probs = compositions(library, self.set_aside)
            value = sum(p * self._ordered(library - s, zone, blocks, draws) for s, p in zip(splits, probs))
        else:
            value = self._ordered(library, zone, blocks, draws)
        self._seen[key] = value
        return value

    def _known(self, library: np.ndarray, zone: np.ndarray, draws: Sequence[int],
               bottom: np.ndarray | None = None) -> np.ndarray:
        """P(event) on the cards ``zone`` (per cell) plus the next draws."""
        self.evaluated += 1
        return known_odds(library, self.membership, self.condition, base=self._group_counts(zone), draws=draws,
                          bottom=bottom, seen_cells=zone)

    def _ordered(self, library: np.ndarray, zone: np.ndarray, blocks: tuple, draws: Sequence[int]) -> np.ndarray:
        """The zone's value when draws go through ``library``, then each block in turn."""
        if len(blocks) == 1:
            return self._known(library, zone, draws, np.asarray(blocks[0], dtype=np.int64))
        out = np.empty(len(draws))
        n_library = int(library.sum())
        early = [i for i, d in enumerate(draws) if d <= n_library]
        if early:
            out[early] = self._known(library, zone, [draws[i] for i in early])
        for i, d in enumerate(draws):
            if d <= n_library:
                continue
            seen, left = zone + library, d - n_library
            for block in blocks:
                block = np.asarray(block, dtype=np.int64)
                if left <= block.sum():
                    out[i] = self._known(block, seen, [left])[0]
                    break
                seen, left = seen + block, left - int(block.sum())
            else:
                out[i] = float(holds(self.condition, zone_counts(self.condition, self.membership, seen)[None, :])[0])
        return out

    def _compositions(self, cells: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
        key = (tuple(int(x) for x in cells), size)
        if key not in self._splits:
            self._splits[key] = compositions(np.asarray(cells, dtype=np.int64), size)
        return self._splits[key]

    # --- keeping a hand ---------------------------------------------------------------------------------------

    def keep_value(self, hand: np.ndarray, mulligans: int = 0, blocks: tuple = ()) -> np.ndarray:
        """Value of keeping ``hand`` dealt after ``mulligans`` mulligans, with the best bottom or scry choice.

        ``blocks``: under the bottom rule, the hands put back before it, in order.
        """
        hand = np.asarray(hand, dtype=np.int64)
        if self.rule == "bottom":
            under = sum((np.asarray(b, dtype=np.int64) for b in blocks), np.zeros_like(hand))
            return self.seen_value(self.cell_counts - under - hand, hand, blocks if self.ordered else ())
        library = self.cell_counts - hand
        n_bottom = min(bottom_count(self.rule, mulligans), int(hand.sum()))
        if n_bottom:
            best = None
            splits, _ = self._compositions(hand, n_bottom)
            for under in splits:
                value = self.seen_value(library, hand - under, (under,))
                best = value if best is None else np.maximum(best, value)
            return best
        if self.rule == "vancouver" and mulligans > 0 and library.sum() > 0:
            return self._scry_value(hand, library)
        return self.seen_value(library, hand)

    def _scry_value(self, hand: np.ndarray, library: np.ndarray) -> np.ndarray:
        """Vancouver: see the top card, leave it on top or put it under the deck, whichever is better."""
        draws = np.asarray(self.draws)
        total = np.zeros(len(draws))
        n_library = int(library.sum())
        for cell in np.flatnonzero(library):
            top = np.zeros_like(library)
            top[cell] = 1
            rest = library - top
            # Left on top, the card is the first drawn; with no draw it is never seen, either way.
            on_top = np.where(draws >= 1, self.seen_value(rest, hand + top, draws=np.maximum(draws - 1, 0)),
                              self.seen_value(library, hand))
            under = self.seen_value(rest, hand, (top,))
            total += library[cell] / n_library * np.maximum(on_top, under)
        return total

    # --- mulligans --------------------------------------------------------------------------------------------

    def mulligan_value(self, hand: np.ndarray | None = None, later: Condition | None = None) -> np.ndarray:
        """Value of mulliganing the first hand ``hand``, later hands kept optimally or when ``later`` holds.

        ``later`` is a keep rule over the columns of the membership (evaluated
        on the hand dealt, before any card is put back); ``hand`` is needed by
        the bottom rule only. Under the ``pokemon`` rule the game's keep rule
        decides and ``later`` is not read; a ``hearthstone`` hand has
        :meth:`replacements` instead.
        """
        if self.limit < 1:
            raise DeckstatError(tr("no mulligan is allowed"))
        if self.rule == "hearthstone":
            raise ValueError("a Hearthstone mulligan replaces chosen cards: see replacements()")
        if self.rule == "pokemon":
            return self.redeal_value(1)
        if self.rule == "bottom":
            if hand is None:
                raise ValueError("the bottom rule needs the hand put back")
            return self._bottom_value(1, (tuple(int(x) for x in hand),), later)
        return self._reshuffle_value(1, later)

    def kept_by(self, rule: Condition, hand: np.ndarray) -> bool:
        """Whether the keep rule ``rule`` keeps ``hand`` (cells)."""
        return bool(holds(rule, zone_counts(rule, self.membership, hand)[None, :])[0])

    def _decide(self, hand: np.ndarray, keep: np.ndarray, mulligan: np.ndarray,
                later: Condition | None) -> np.ndarray:
        if later is None:
            return np.maximum(keep, mulligan)
        return keep if self.kept_by(later, hand) else mulligan

    def _bottom_value(self, k: int, blocks: tuple, later) -> np.ndarray:
        """Value of being dealt hand ``k`` from the top, with ``blocks`` (the hands put back) under the deck."""
        under = np.sum(np.asarray(blocks, dtype=np.int64), axis=0) if blocks else np.zeros_like(self.cell_counts)
        state = blocks if self.ordered else tuple(int(x) for x in under)
        key = ("bottom", k, state, later)
        if key in self._values:
            return self._values[key]
        splits, probs = self._compositions(self.cell_counts - under, self.hand_size)
        total = np.zeros(len(self.draws))
        for hand, p in zip(splits, probs):
            keep = self.keep_value(hand, k, blocks)
            if k < self.limit:
                hand_key = tuple(int(x) for x in hand)
                value = self._decide(hand, keep, self._bottom_value(k + 1, blocks + (hand_key,), later), later)
            else:
                value = keep
            total += p * value
        self._values[key] = total
        return total

    def _reshuffle_value(self, k: int, later) -> np.ndarray:
        """Value of the hand dealt after ``k`` mulligans of a reshuffling rule."""
        key = ("reshuffle", k, later)
        if key in self._values:
            return self._values[key]
        splits, probs = self._compositions(self.cell_counts, dealt_size(self.rule, self.hand_size, k))
        total = np.zeros(len(self.draws))
        for hand, p in zip(splits, probs):
            keep = self.keep_value(hand, k)
            value = self._decide(hand, keep, self._reshuffle_value(k + 1, later), later) if k < self.limit \
                else keep
            total += p * value
        self._values[key] = total
        return total

    def opening_hands(self) -> tuple[np.ndarray, np.ndarray]:
        """Every first hand (cells) and its probability."""
        return self._compositions(self.cell_counts, self.hand_size)

    def first_hands(self, later: Condition | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every first hand with its probability and the values of keeping and of mulliganing it.

        Returns
        -------
        hands : ndarray of int64, shape (n_hands, n_cells)
        probabilities : ndarray of float, shape (n_hands,)
        keep, mulligan : ndarray of float, shape (n_hands, len(draws))
        """
        hands, probs = self._compositions(self.cell_counts, self.hand_size)
        keep = np.array([self.keep_value(hand) for hand in hands]).reshape(len(hands), len(self.draws))
        mulligan = np.array([self.mulligan_value(hand, later) for hand in hands]).reshape(keep.shape)
        return hands, probs, keep, mulligan

    # --- Pokémon: no choice -----------------------------------------------------------------------------------

    def redeal_terms(self) -> tuple[np.ndarray, float, np.ndarray]:
        """Pokémon: P(event and keep rule), P(keep rule) and P(event) for one hand from a full shuffle.

        Returns
        -------
        both : ndarray of float, shape (len(draws),)
        q : float
        plain : ndarray of float, shape (len(draws),)
        """
        if "redeal" not in self._values:
            hands, probs = self._compositions(self.cell_counts, self.hand_size)
            values = np.array([self.keep_value(hand) for hand in hands]).reshape(len(hands), len(self.draws))
            kept = np.array([self.kept_by(self.keep, hand) for hand in hands], dtype=bool)
            self._values["redeal"] = (probs[kept] @ values[kept], float(probs[kept].sum()), probs @ values)
        return self._values["redeal"]

    def redeal_value(self, mulligans: int) -> np.ndarray:
        """Pokémon: value of the hand dealt after ``mulligans`` mulligans (the rule decides every later hand).

        With ``n`` mulligans still allowed, the hands that fail the keep rule
        are redealt ``n`` times at most and the last one is kept:
        ``A (1 + f + ... + f^(n-1)) + f^n U = A (1 - f^n) / q + f^n U``.
        """
        both, q, plain = self.redeal_terms()
        left = self.limit - mulligans
        if left <= 0 or q == 0.0:
            return plain
        if q == 1.0:
            return both
        # (1 - f^n) without cancellation when the keep rule is rarely met.
        log_fail = left * math.log1p(-q)
        return both * (-math.expm1(log_fail) / q) + math.exp(log_fail) * plain

    # --- Hearthstone: which cards to replace ------------------------------------------------------------------

    def replacements(self, hand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Hearthstone: every choice of cards of ``hand`` to replace, and its value.

        Parameters
        ----------
        hand : ndarray of int, shape (n_cells,)

        Returns
        -------
        replaced : ndarray of int64, shape (n_choices, n_cells)
            The cards replaced, per cell: first none (the hand kept whole),
            then by number of cards, in lexicographic order.
        values : ndarray of float, shape (n_choices, len(draws))
        """
        hand = np.asarray(hand, dtype=np.int64)
        rows = [np.zeros((1, len(hand)), dtype=np.int64)]
        values = [np.asarray(self.keep_value(hand)).reshape(1, -1)]
        library = self.cell_counts - hand
        ways = self._ways()
        for m in range(1, min(self.max_replaced, int(hand.sum())) + 1):
            # Every split of m cards over the deck's cells, once: the hand's sub-compositions are the splits
            # it holds, the replacements' law is multivariate hypergeometric over the library.
            splits, _ = self._compositions(self.cell_counts, m)
            replaced = splits[(splits <= hand).all(axis=1)]
            weights = ways[library, splits].prod(axis=1)
            arrivals = splits[weights > 0]
            probs = weights[weights > 0] / math.comb(int(library.sum()), m)
            kept = hand - replaced
            if self.mixed:
                value = np.array([sum(p * self._replaced_value(kept_part + arrival, cards)
                                      for arrival, p in zip(arrivals, probs))
                                  for kept_part, cards in zip(kept, replaced)])
            else:
                finals = kept[:, None, :] + arrivals[None, :, :]
                value = np.einsum("cad,a->cd", self._final_values(finals), probs)
            rows.append(replaced)
            values.append(value.reshape(len(replaced), len(self.draws)))
        return np.concatenate(rows), np.concatenate(values)

    def _ways(self) -> np.ndarray:
        """``comb(a, k)`` for every cell size ``a`` and ``k`` up to a hand's size, as floats (exact here)."""
        if "ways" not in self._values:
            sizes, top = int(self.cell_counts.max()) + 1, self.hand_size + 1
            self._values["ways"] = np.array([[math.comb(a, k) for k in range(top)] for a in range(sizes)],
                                            dtype=float)
        return self._values["ways"]

    def _final_values(self, finals: np.ndarray) -> np.ndarray:
        """Values of final hands (any leading shape) when the library is every card not in them."""
        if "finals" not in self._values:
            hands, _ = self._compositions(self.cell_counts, self.hand_size)
            # A hand holds at most hand_size cards of a cell: base hand_size + 1 numbers hands uniquely.
            fits = (self.hand_size + 1) ** len(hands[0]) < 2 ** 62
            radix = np.array([(self.hand_size + 1) ** i for i in range(hands.shape[1])],
                             dtype=np.int64 if fits else object)
            codes = hands @ radix
            order = np.argsort(codes)
            values = np.array([self.seen_value(self.cell_counts - hand, hand) for hand in hands[order]])
            self._values["finals"] = (radix, codes[order], values.reshape(len(hands), len(self.draws)))
        radix, codes, values = self._values["finals"]
        return values[np.searchsorted(codes, finals @ radix)]

    def _replaced_value(self, final: np.ndarray, replaced: np.ndarray) -> np.ndarray:
        """Value of the final hand when ``replaced`` went back into the library after the set-aside cards left.

        The library is the replaced cards plus the other cards left less the
        set-aside ones, a uniform choice among those others: ``j`` of the ``d``
        draws are replaced cards (hypergeometric) and the ``d - j`` others a
        uniform draw from the other cards left.
        """
        key = ("replaced", tuple(int(x) for x in final), tuple(int(x) for x in replaced))
        if key in self._values:
            return self._values[key]
        others = self.cell_counts - final - replaced
        n_replaced, n_others = int(replaced.sum()), int(others.sum()) - self.set_aside
        out = np.zeros(len(self.draws))
        for i, d in enumerate(self.draws):
            for j in range(max(0, d - n_others), min(n_replaced, d) + 1):
                weight = math.comb(n_replaced, j) * math.comb(n_others, d - j) / math.comb(n_others + n_replaced, d)
                for drawn, p in zip(*self._compositions(replaced, j)):
                    out[i] += weight * p * self.seen_value(others, final + drawn, draws=[d - j])[0]
        self._values[key] = out
        return out
