"""The best keep rule: for every opening hand, keep or mulligan, whichever gives the higher P(event by a turn).

Hands are told apart by the cells of the question's groups (the event's and
the keep rule's): two hands with as many cards of every cell have the same
odds, so the policy is a table of compositions. Under the Hearthstone rule the
decision is which cards to replace; under the Pokémon rule there is none (the
keep rule decides). Everything is exact (see :mod:`deckstat.engines.policy`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from deckstat._validate import check_seats, check_whole
from deckstat.deck import Deck
from deckstat.engines.exact import Condition, check_exact_size
from deckstat.engines.policy import MulliganGame
from deckstat.errors import DeckstatError, param
from deckstat.events import groups_of, to_text
from deckstat.games.profiles import Profile, get_profile
from deckstat.i18n import N_, tr
from deckstat.questions._setup import (
    Compiled,
    Setup,
    compile_events,
    default_keep_remedy,
    mulligan_settings,
    prepare,
    turn_plan,
)
from deckstat.results import KeepPolicyResult, frame
from deckstat.terms import MOST_TURN

SUMMARY_COLUMNS = ["deck", "game", "event", "seat", "turn", "mulligan_rule", "mulligan_limit", "keep", "choice",
                   "p_best", "p_keep_rule", "gain", "p_keep_first_best", "p_keep_first_rule", "n_hands", "method"]
POLICY_COLUMNS = ["deck", "game", "event", "seat", "turn", "hand", "p_hand", "p_keep", "p_mulligan", "margin",
                  "decision", "keep_rule", "p_keep_rule"]
#: Values closer than this are a tie: the hand is kept (a mulligan would buy nothing), or the fewest cards replaced.
TIE = 1e-12


@dataclass(frozen=True)
class PolicyQuestion:
    """A keep-or-mulligan question made ready: the rules, the cells and the engine."""

    setup: Setup
    compiled: Compiled
    game: MulliganGame
    event_text: str
    turn: int
    per_seat: dict[str, int]
    cell_labels: tuple[str, ...]

    @property
    def keep_condition(self) -> Condition:
        """The keep rule over the question's cells."""
        return self.compiled.conditions[1]

    def seat_index(self, seat: str) -> int:
        """Index of ``seat``'s draws among the engine's values."""
        return self.game.draws.index(self.per_seat[seat])

    @property
    def shown_cells(self) -> list[int]:
        """Cells in the order hands are written: cells of groups first (by their groups), ``other`` last."""
        rows = self.compiled.cell_membership
        return sorted(range(len(rows)), key=lambda i: [not m for m in rows[i]])

    def hand_label(self, cells: np.ndarray) -> str:
        """A hand's composition by group: ``Terrain=1, [cost<=1]=0, other=4``."""
        return ", ".join(f"{self.cell_labels[i]}={int(cells[i])}" for i in self.shown_cells)

    def replace_label(self, cells: np.ndarray) -> str:
        """A Hearthstone decision: ``keep`` or ``replace: other=2`` (the cells replaced, by group)."""
        if not np.any(cells):
            return "keep"
        return "replace: " + ", ".join(f"{self.cell_labels[i]}={int(cells[i])}" for i in self.shown_cells if cells[i])

    @property
    def choice_text(self) -> str:
        """What the player chooses under the rule."""
        return tr({"hearthstone": N_("which cards to replace"),
                   "pokemon": N_("none: the rule keeps the hands that meet the keep rule and redeals the others")}.get(
                       self.setup.rule, N_("keep or mulligan each hand")))

    def baseline_text(self) -> str:
        """The simple Hearthstone rule the best replacements are compared with."""
        return tr("a hand that meets the keep rule {keep} is kept whole; any other replaces every card outside the "
                  "groups of the keep rule and the event (other)", keep=self.setup.keep_text)

    def later_text(self, keep: str | None) -> str:
        """What a mulligan's value assumes about the decisions that follow it."""
        setup = self.setup
        if setup.rule == "pokemon":
            return tr("the rule leaves no choice: a hand that meets the keep rule {keep} is kept, any other is "
                      "shuffled back and a new one dealt, up to {limit} times (the last one is kept)",
                      keep=setup.keep_text, limit=setup.limit)
        if setup.rule == "hearthstone":
            return tr("one round: the cards replaced are the ones that give the best odds, and they are shuffled "
                      "back into the deck once as many replacements are drawn")
        if setup.limit == 1:
            later = tr("the next hand is kept (one mulligan allowed)")
        elif keep is not None:
            later = tr("later hands are kept when the keep rule {keep} holds, up to {limit} mulligans", keep=keep,
                       limit=setup.limit)
        else:
            later = tr("later hands are kept or mulliganed, whichever gives the higher probability, up to {limit} "
                       "mulligans", limit=setup.limit)
        if setup.rule in ("london", "free"):
            later += tr("; the cards put under the deck are the ones that leave the best odds")
        elif setup.rule == "vancouver":
            later += tr("; after a mulligan the top card stays or goes under the deck, whichever is better")
        return later


def prepare_policy(deck: Deck, game: str | Profile, event: str | None, *, by_turn: object, seat: str,
                   keep: str | None, mulligan_rule: str | None, mulligan_limit: int | None, resource: str | None,
                   allow_absent: bool) -> PolicyQuestion:
    """Resolve the rules, compile the event and the keep rule, and size the engine (refusing what is too large)."""
    profile = get_profile(game)
    check_seats(seat)
    turn = check_whole(by_turn, "by_turn", maximum=MOST_TURN)
    rule, _, keep_text = mulligan_settings(profile, keep=keep, mulligan=True, mulligan_rule=mulligan_rule,
                                           mulligan_limit=mulligan_limit)
    if rule == "none":
        raise DeckstatError(tr("{game} has no mulligan rule, so there is no hand to mulligan; choose one with "
                               "{option} (bottom, london, vancouver, free, hearthstone or pokemon)", game=profile.name,
                               option=param("mulligan_rule")))
    if event is None:
        resource_text = resource if resource is not None else profile.resource_group
        event = f"{resource_text}>=1" if resource_text else keep_text
    if not isinstance(event, str):
        raise DeckstatError(tr("{name} must be one event text, got {kind}", name=param("event"),
                               kind=type(event).__name__))
    setup = prepare(deck, profile, [event], keep=keep, mulligan_rule=mulligan_rule, mulligan_limit=mulligan_limit,
                    resource=resource, allow_absent=allow_absent,
                    keep_remedy=default_keep_remedy(profile, can_skip=False))
    _, per_seat = turn_plan(setup, [turn], seat, turns_name="by_turn")
    check_exact_size(setup.deck.size)
    # Only the event's and the keep rule's groups tell hands apart (the resource group plays no part here).
    compiled = compile_events(setup.deck, [setup.events[0], setup.keep_event])
    draws = sorted({d[0] for d in per_seat.values()})
    engine = MulliganGame(compiled.cell_counts, compiled.cell_membership, compiled.conditions[0], draws=draws,
                          hand_size=profile.hand_size, set_aside=profile.set_aside, rule=setup.rule,
                          limit=setup.limit, keep=compiled.conditions[1])
    engine.check_cost()
    groups: dict = {}
    for parsed in (setup.events[0], setup.keep_event):
        for key, group in groups_of(parsed).items():
            groups.setdefault(key, group)
    names = [groups[key].label for key in compiled.group_keys]
    cell_labels = tuple(" & ".join(n for n, member in zip(names, row) if member) or "other"
                        for row in compiled.cell_membership)
    return PolicyQuestion(setup, compiled, engine, to_text(setup.events[0]), turn,
                          {s: d[0] for s, d in per_seat.items()}, cell_labels)


def keep_policy(deck: Deck, game: str | Profile, event: str | None = None, *, by_turn: int, seat: str = "both",
                keep: str | None = None, mulligan_rule: str | None = None, mulligan_limit: int | None = None,
                resource: str | None = None, allow_absent: bool = False) -> KeepPolicyResult:
    """The best keep rule for an event by a turn, and what it gains over a keep rule.

    Every possible first hand (by its count of each cell of the groups read)
    is kept or mulliganed, whichever gives the higher P(event by turn
    ``by_turn``), with later hands decided the same way. The keep rule
    (default: the profile's) is evaluated under the same rules, with the same
    best choices of cards put under the deck or scried, so that the gain is
    the keep decisions alone. Exact.

    ``hearthstone``: the decision is which cards to replace (the best ones,
    at least one, fewest on a tie: ``p_mulligan``, ``decision`` ``replace:
    other=2``); the comparison is the simple rule that keeps a hand whole
    when the keep rule holds and otherwise replaces every card outside the
    groups of the keep rule and the event. ``pokemon``: the keep rule decides
    every hand, so the best policy is the rule itself (gain 0, ``choice``
    says so) and its probability is :func:`deckstat.odds`'s.

    Parameters
    ----------
    deck, game
        As in :func:`deckstat.odds`.
    event : str, optional
        The goal (default: the resource group ``>=1``, else the keep rule).
    by_turn : int
        Turn by which the event should hold (0: in the kept hand).
    seat : {"both", "first", "second"}
    keep : str, optional
        Keep rule compared with (default: the profile's).
    mulligan_rule : {"bottom", "london", "vancouver", "free", "hearthstone", "pokemon"}, optional
    mulligan_limit : int, optional
        As in :func:`deckstat.odds`; a game without a mulligan rule needs ``mulligan_rule``.
    resource : str, optional
        Only used for the default event.
    allow_absent : bool
        As in :func:`deckstat.odds`.

    Returns
    -------
    KeepPolicyResult
        ``summary`` (per seat: ``choice``, what the player decides;
        ``p_best``, ``p_keep_rule``, ``gain``) and ``policy`` (per seat and
        first hand: ``p_hand``, ``p_keep``, ``p_mulligan``, ``decision``, and
        what the keep rule does, ``keep_rule``, with its value ``p_keep_rule``).

    Raises
    ------
    DeckstatError
        A game without mulligan, bad arguments, or more hands than can be evaluated in reasonable time.

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "Terrain", "count": 10, "type": "Terrain"},
    ...                                  {"name": "Personnage", "count": 40, "type": "Personnage"}])
    >>> result = deckstat.keep_policy(deck, "wankul", "Terrain>=2", by_turn=0, seat="first")
    >>> for row in result.policy.itertuples():
    ...     print(row.hand, row.decision)
    Terrain=0, other=5 mulligan
    Terrain=1, other=4 mulligan
    Terrain=2, other=3 keep
    Terrain=3, other=2 keep
    Terrain=4, other=1 keep
    Terrain=5, other=0 keep
    """
    question = prepare_policy(deck, game, event, by_turn=by_turn, seat=seat, keep=keep, mulligan_rule=mulligan_rule,
                              mulligan_limit=mulligan_limit, resource=resource, allow_absent=allow_absent)
    setup, engine = question.setup, question.game
    hands, probs = engine.opening_hands()
    # Rows in the order the hands are written, fewest cards of the first group first.
    order = np.lexsort(hands[:, question.shown_cells[::-1]].T)
    hands, probs = hands[order], probs[order]
    kept_by_rule = np.array([engine.kept_by(question.keep_condition, hand) for hand in hands], dtype=bool)
    if setup.rule == "hearthstone":
        columns = _replacement_columns(question, hands, kept_by_rule)
    else:
        keep_values = np.array([engine.keep_value(hand) for hand in hands]).reshape(len(hands), -1)
        rule_mulligan = np.array([engine.mulligan_value(hand, question.keep_condition) for hand in hands])
        rule_values = np.where(kept_by_rule[:, None], keep_values, rule_mulligan.reshape(keep_values.shape))
        if setup.rule == "pokemon":
            # No choice: the keep rule decides, and what a mulligan is worth is what the rule does next.
            best_mulligan = rule_mulligan.reshape(keep_values.shape)
            keeps = np.repeat(kept_by_rule[:, None], keep_values.shape[1], axis=1)
        else:
            best_mulligan = np.array([engine.mulligan_value(hand) for hand in hands]).reshape(keep_values.shape)
            keeps = keep_values >= best_mulligan - TIE
        words = np.array(["mulligan", "keep"])
        columns = {"p_keep": keep_values, "p_mulligan": best_mulligan, "keeps": keeps,
                   "p_best": np.where(keeps, keep_values, best_mulligan), "decision": words[keeps.astype(int)],
                   "p_keep_rule": rule_values, "rule_keeps": kept_by_rule,
                   "keep_rule": words[kept_by_rule.astype(int)]}
    identity = {"deck": setup.deck.name, "game": setup.profile.id, "event": question.event_text}
    labels = [question.hand_label(hand) for hand in hands]
    summary, policy = [], []
    for seat_name in question.per_seat:
        i = question.seat_index(seat_name)
        p_best = float(probs @ columns["p_best"][:, i])
        p_rule = float(probs @ columns["p_keep_rule"][:, i])
        keeps = columns["keeps"][:, i]
        summary.append({**identity, "seat": seat_name, "turn": question.turn, "mulligan_rule": setup.rule,
                        "mulligan_limit": setup.limit, "keep": setup.keep_text, "choice": question.choice_text,
                        "p_best": p_best, "p_keep_rule": p_rule, "gain": p_best - p_rule,
                        "p_keep_first_best": float(probs[keeps].sum()),
                        "p_keep_first_rule": float(probs[columns["rule_keeps"]].sum()), "n_hands": len(hands),
                        "method": "exact"})
        for j in range(len(hands)):
            keep_p, mull_p = float(columns["p_keep"][j, i]), float(columns["p_mulligan"][j, i])
            policy.append({**identity, "seat": seat_name, "turn": question.turn, "hand": labels[j],
                           "p_hand": float(probs[j]), "p_keep": keep_p, "p_mulligan": mull_p,
                           "margin": keep_p - mull_p, "decision": str(columns["decision"][j, i]),
                           "keep_rule": str(columns["keep_rule"][j]),
                           "p_keep_rule": float(columns["p_keep_rule"][j, i])})
    provenance = {**setup.provenance, "question": "keep_policy", "event": question.event_text,
                  "by_turn": question.turn, "choice": question.choice_text, "later": question.later_text(None),
                  "rule_later": (question.baseline_text() if setup.rule == "hearthstone"
                                 else question.later_text(setup.keep_text)),
                  "cells": list(question.cell_labels), "evaluations": engine.evaluated}
    return KeepPolicyResult(summary=frame(summary, SUMMARY_COLUMNS, integers=("mulligan_limit", "n_hands")),
                            policy=frame(policy, POLICY_COLUMNS, integers=()), provenance=provenance)


def best_replacement(replaced: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per value column, the row of the best choice that replaces at least one card (fewest cards on a tie).

    ``replaced`` and ``values`` as :meth:`MulliganGame.replacements` returns
    them: row 0 (nothing replaced) is left out.
    """
    if len(replaced) < 2:
        raise DeckstatError(tr("no card can be replaced: the library is empty"))
    rest = values[1:]
    # The first row within TIE of the best: rows come by number of cards replaced.
    return 1 + np.argmax(rest >= rest.max(axis=0) - TIE, axis=0)


def _replacement_columns(question: PolicyQuestion, hands: np.ndarray, kept_by_rule: np.ndarray) -> dict:
    """Hearthstone: per hand and value column, keeping whole, the best replacement, and the simple rule."""
    engine = question.game
    outside = ~np.asarray(question.compiled.cell_membership, dtype=bool).any(axis=1)
    n_draws = len(engine.draws)
    shape = (len(hands), n_draws)
    keep_values, best_values, rule_values = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    decision = np.empty(shape, dtype=object)
    rule_words = np.empty(len(hands), dtype=object)
    rule_keeps = np.zeros(len(hands), dtype=bool)
    for j, hand in enumerate(hands):
        replaced, values = engine.replacements(hand)
        keep_values[j] = values[0]
        best = best_replacement(replaced, values)
        best_values[j] = values[best, np.arange(n_draws)]
        for i in range(n_draws):
            chosen = replaced[best[i]] if best_values[j, i] > keep_values[j, i] + TIE else replaced[0]
            decision[j, i] = question.replace_label(chosen)
        # The simple rule: a hand that fails the keep rule replaces its cards outside every group.
        simple = np.zeros_like(hand) if kept_by_rule[j] else np.where(outside, hand, 0)
        row = int(np.flatnonzero((replaced == simple).all(axis=1))[0])
        rule_values[j] = values[row]
        rule_words[j] = question.replace_label(simple)
        rule_keeps[j] = row == 0
    keeps = decision == "keep"
    return {"p_keep": keep_values, "p_mulligan": best_values, "keeps": keeps,
            "p_best": np.where(keeps, keep_values, best_values), "decision": decision, "p_keep_rule": rule_values,
            "rule_keeps": rule_keeps, "keep_rule": rule_words}
