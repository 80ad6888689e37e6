"""The plain model: a card is playable as soon as it is in hand (games without costs or conditions)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from deckstat.play.base import PlayModel, Reduction, Schedule, effect_positions, never, record_first


@dataclass
class InHand(PlayModel):
    """Playable on the first turn a copy is in hand: no cost, no condition.

    The model of profiles without a ``[play_model]`` table; its curve is the
    probability of having seen the card, answered exactly.
    """

    kind: ClassVar[str] = "hand"
    plays_draw_effects: ClassVar[bool] = True

    def first_turns(self, hand: np.ndarray, library: np.ndarray, schedule: Schedule,
                    targets: Sequence[np.ndarray], effect_draws: np.ndarray | None = None) -> np.ndarray:
        """First turn a copy of each target is in hand (see :meth:`PlayModel.first_turns`).

        ``effect_draws``: the cards each row's draw effects draw, played as soon as the card is in hand
        (:func:`~deckstat.play.base.effect_positions`).
        """
        n = hand.shape[1]
        first = np.full((len(targets), n), never(schedule), dtype=np.int16)
        reach = None if effect_draws is None else effect_positions(hand, library, schedule.drawn[1:], effect_draws)
        for i, target in enumerate(targets):
            member = np.asarray(target, dtype=bool)
            held = member[hand].any(axis=0)
            drawn = member[library]
            if reach is not None:
                # Where the first copy lies in each library (its size when none): seen once the library reaches it.
                where = np.where(drawn.any(axis=0), drawn.argmax(axis=0), library.shape[0])
            for t in range(1, schedule.max_turn + 1):
                if reach is not None:
                    seen = held | (where < reach[t - 1])
                else:
                    upto = int(schedule.drawn[t])
                    seen = held | drawn[:upto].any(axis=0) if upto else held
                record_first(first[i], seen, t)
        return first

    def reduction(self, target: np.ndarray) -> Reduction:
        """Always exact: playable once a copy has been seen."""
        return Reduction(sets=(np.asarray(target, dtype=bool),), caps=(1,), holds=lambda counts: counts[0] >= 1,
                         text="in hand")
