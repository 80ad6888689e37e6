"""The plain model: a card is playable as soon as it is in hand (games without costs or conditions)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from deckstat.i18n import N_
from deckstat.play.base import PlayModel, Reduction, Schedule, never, record_first


@dataclass
class InHand(PlayModel):
    """Playable on the first turn a copy is in hand: no cost, no condition.

    The model of profiles without a ``[play_model]`` table; its curve is the
    probability of having seen the card, answered exactly.
    """

    kind: ClassVar[str] = "hand"
    policies: ClassVar[dict[str, str]] = {"any": N_("play the target as soon as a copy is in hand")}
    default_policy: ClassVar[str] = "any"

    def first_turns(self, hand: np.ndarray, library: np.ndarray, schedule: Schedule,
                    targets: Sequence[np.ndarray]) -> np.ndarray:
        """First turn a copy of each target is in hand (see :meth:`PlayModel.first_turns`)."""
        n = hand.shape[1]
        first = np.full((len(targets), n), never(schedule), dtype=np.int16)
        for i, target in enumerate(targets):
            member = np.asarray(target, dtype=bool)
            held = member[hand].any(axis=0)
            drawn = member[library]
            for t in range(1, schedule.max_turn + 1):
                upto = int(schedule.drawn[t])
                seen = held | drawn[:upto].any(axis=0) if upto else held
                record_first(first[i], seen, t)
        return first

    def reduction(self, target: np.ndarray) -> Reduction:
        """Always exact: playable once a copy has been seen."""
        return Reduction(sets=(np.asarray(target, dtype=bool),), caps=(1,), holds=lambda counts: counts[0] >= 1,
                         text="in hand")
