"""What every play model shares: the turn schedule, the model interface, exact reductions.

A *play model* is a per-game goldfish (one player, no opponent) that says on
which turn a card, or any card of a set, can first be played under the game's
costs. It reads the columns it needs from the deck once (:meth:`PlayModel.__init__`,
the boundary where a card it cannot read is an error naming the column), then
works on numpy arrays only (:meth:`PlayModel.first_turns`): every trial at once,
the turn loop in Python.

Cards are the rows of the drawn deck (``deck.cards``), numbered ``0..n_rows-1``.
A dealt game is the kept opening hand and the library in draw order, as arrays
of row numbers, position-major (``[position, trial]``), from
:func:`deckstat.engines.kernel.deal_order` (the same shuffles as the other
simulations).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from deckstat.errors import DeckstatError
from deckstat.i18n import tr
from deckstat.play.catalogue import MODELS
from deckstat.terms import BOTH_OUT_RULES


@dataclass(frozen=True)
class Schedule:
    """When one seat's cards arrive, turn by turn.

    Attributes
    ----------
    seat : str
        ``"first"`` or ``"second"``.
    drawn : ndarray of int, shape (max_turn + 1,)
        ``drawn[t]``: library cards in hand by the main phase of the player's
        turn ``t`` (after the draw step when the game draws at the start of a
        turn; the draws of the previous turns when it draws at their end);
        ``drawn[0] == 0``. Never more than the library holds.
    """

    seat: str
    drawn: np.ndarray

    @property
    def max_turn(self) -> int:
        """The last turn followed."""
        return len(self.drawn) - 1


@dataclass(frozen=True)
class Reduction:
    """A target whose playability is an event on the cards seen, answered by the exact engine.

    Playable on turn ``t`` (for ``t >= from_turn``) exactly when the cards
    seen by then (kept hand and ``schedule.drawn[t]`` library cards) satisfy
    ``holds``. A model returns one only when its policy makes that true.

    Attributes
    ----------
    sets : tuple of ndarray of bool, shape (n_rows,)
        Card sets whose seen counts the event reads.
    caps : tuple of int
        Count past which each set's exact value no longer matters.
    holds : callable
        Maps a list of integer count arrays (one per set, broadcast together) to a bool array.
    from_turn : int
        First turn the target can be played at all (a Duel Masters card costing 4 needs 4 mana: turn 4).
    text : str
        The event in words, for the results' provenance (``"Bolshack Dragon >= 1 and Fire >= 1"``).
    """

    sets: tuple[np.ndarray, ...]
    caps: tuple[int, ...]
    holds: Callable[[list[np.ndarray]], np.ndarray]
    from_turn: int = 1
    text: str = ""


@dataclass
class PlayModel:
    """A game's goldfish play model (subclass per game).

    Subclasses set the class attributes, read and check their columns in
    ``__init__`` (raising :class:`~deckstat.errors.DeckstatError` naming the
    column and the card), and implement :meth:`first_turns`; :meth:`reduction`
    is optional.

    Attributes
    ----------
    deck : Deck
        The drawn deck; its rows are the card numbers the arrays hold.
    profile : Profile
        The game's rules (hand size, draws, play-model settings).
    policy : str
        Name of the policy the player follows (a key of :attr:`policies`).
    settings : dict
        The profile's ``[play_model]`` values beyond ``kind`` and ``policy``.
    """

    #: Model id used in ``[play_model] kind``.
    kind: ClassVar[str] = ""
    #: Policy name -> one sentence saying what the player does.
    policies: ClassVar[dict[str, str]] = {}
    #: Policy used when none is asked for.
    default_policy: ClassVar[str] = ""
    #: Other spellings of the policies (French names), folded -> policy name.
    policy_aliases: ClassVar[dict[str, str]] = {}
    #: Whether the seat changes the play beyond the draws (``False``: two seats with the same schedule share games).
    seat_matters: ClassVar[bool] = False
    #: Whether :meth:`first_turns` takes ``effect_draws``: the cards each row's draw effects draw, played.
    plays_draw_effects: ClassVar[bool] = False

    deck: object
    profile: object
    policy: str = ""
    settings: dict = field(default_factory=dict)

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        entry = MODELS.get(cls.__dict__.get("kind", ""))
        if entry is not None:
            # In words and by name in the catalogue, which describes a model without loading it (games show).
            cls.policies, cls.default_policy = entry.policies, entry.default_policy
            cls.policy_aliases = entry.policy_aliases

    def __post_init__(self) -> None:
        if not self.policy:
            self.policy = self.default_policy
        if self.policy not in self.policies:
            raise DeckstatError(tr("unknown policy {policy!r} for the {model} play model; expected one of {choices}",
                                   policy=self.policy, model=self.kind, choices=", ".join(self.policies)))

    @property
    def n_rows(self) -> int:
        """Distinct cards (rows) of the deck."""
        return len(self.deck.cards)

    def first_turns(self, hand: np.ndarray, library: np.ndarray, schedule: Schedule,
                    targets: Sequence[np.ndarray]) -> np.ndarray:
        """First turn at which each target can be played, for every trial.

        Parameters
        ----------
        hand : ndarray of int, shape (hand_size, n_trials)
            Row numbers of the kept opening hand.
        library : ndarray of int, shape (library_size, n_trials)
            Row numbers of the library in draw order (set-aside cards excluded).
        schedule : Schedule
            Cards drawn by each turn for the seat followed.
        targets : sequence of ndarray of bool, shape (n_rows,)
            Each target is a set of cards; it is playable when any of its cards is.

        Returns
        -------
        ndarray of int16, shape (len(targets), n_trials)
            Turn in ``1..schedule.max_turn``, or ``schedule.max_turn + 1`` when
            the target is not playable by then.
        """
        raise NotImplementedError

    def reduction(self, target: np.ndarray) -> Reduction | None:
        """The exact event this target's playability reduces to under the policy, or ``None``."""
        return None

    def rival_deck(self):
        """The deck the opponent plays when the model plays both players' turns; None for a goldfish (the default).

        :meth:`first_turns` of such a model takes the opponent's dealt games as ``opponent``.
        """
        return None

    def notes(self) -> list[str]:
        """What the model assumed of this deck where its columns were silent, one sentence each (none by default)."""
        return []


def never(schedule: Schedule) -> int:
    """The value :meth:`PlayModel.first_turns` gives a target not playable by ``schedule.max_turn``."""
    return schedule.max_turn + 1


def record_first(first: np.ndarray, playable: np.ndarray, turn: int) -> None:
    """Set ``first`` to ``turn`` where ``playable`` holds and no earlier turn was recorded (in place).

    ``first`` starts at :func:`never`; a turn is recorded once.
    """
    np.minimum(first, np.where(playable, turn, first), out=first)


def running_sums(values: np.ndarray, out: np.ndarray) -> None:
    """Set ``out[p]`` to ``values[:p].sum(axis=0)`` for p = 0..len(values) (in place).

    A running sum row by row: several times faster than ``np.cumsum`` along the first axis.

    Examples
    --------
    >>> out = np.empty((4, 1), dtype=np.int64)
    >>> running_sums(np.array([[1], [0], [2]]), out)
    >>> out.ravel().tolist()
    [0, 1, 1, 3]
    """
    out[0] = 0
    for position in range(len(values)):
        np.add(out[position], values[position], out=out[position + 1])


def schedule(profile, seat: str, max_turn: int, library_size: int) -> Schedule:
    """The :class:`Schedule` of ``seat`` under ``profile`` for turns ``0..max_turn``.

    A game that draws at the end of a turn (Licum) plays turn ``t`` with the
    draws of turns ``1..t-1``; the others after turn ``t``'s draw. Draws stop
    when the library is empty.

    Examples
    --------
    >>> from deckstat.games.profiles import get_profile
    >>> schedule(get_profile("duel-masters"), "first", 3, 30).drawn.tolist()
    [0, 0, 1, 2]
    >>> schedule(get_profile("licum"), "first", 3, 23).drawn.tolist()
    [0, 0, 1, 2]
    """
    shift = 1 if profile.draw_step == "end" else 0
    drawn = [0] + [profile.draws_by_turn(t - shift, seat) for t in range(1, max_turn + 1)]
    return Schedule(seat=seat, drawn=np.minimum(np.asarray(drawn, dtype=np.int64), library_size))


def plays_on(profile) -> bool:
    """Whether a player whose library is empty goes on playing (Licum: the match ends when neither can draw)."""
    return profile.deckout in BOTH_OUT_RULES


def seen_by_turn(hand: np.ndarray, library: np.ndarray, schedule: Schedule, n_rows: int, *,
                 play_on: bool = False):
    """Yield ``(turn, seen)`` for each turn played: the count of each row among the cards seen by then.

    ``seen`` (n_rows, n_trials) is updated in place from one turn to the next.
    The game ends at the end of the turn whose draws empty the library (the
    JdG duel), so no later turn is yielded, unless ``play_on``: then the
    player plays the turns after it without drawing, up to
    ``schedule.max_turn`` (a Licum player with no card left, while the
    opponent can still draw; see :func:`plays_on`).
    """
    n_trials = hand.shape[1]
    trials = np.arange(n_trials)
    seen = np.zeros((n_rows, n_trials), dtype=np.int16)
    for position in range(hand.shape[0]):
        seen[hand[position], trials] += 1
    drawn = 0
    for turn in range(1, schedule.max_turn + 1):
        if turn > 1 and schedule.drawn[turn - 1] >= library.shape[0] and not play_on:
            return
        for position in range(drawn, int(schedule.drawn[turn])):
            seen[library[position], trials] += 1
        drawn = int(schedule.drawn[turn])
        yield turn, seen


def effect_positions(hand: np.ndarray, library: np.ndarray, drawn: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """Library cards seen by each turn when the player plays every draw effect in hand, the cards drawn theirs too.

    Parameters
    ----------
    hand, library : ndarray of int
        Rows of the kept hands and libraries, position-major.
    drawn : ndarray of int, shape (max_turn,)
        Library cards the turns draw by each turn 1..max_turn (``Schedule.drawn[1:]``).
    draws : ndarray of int, shape (n_rows,)
        Cards each row's effects draw.

    Returns
    -------
    ndarray of int64, shape (max_turn, n_trials)
        At most the library's size: the effects stop when it is empty.

    Examples
    --------
    >>> hand = np.array([[0]]); library = np.array([[1], [1], [0], [1]])
    >>> effect_positions(hand, library, np.array([1, 2]), np.array([1, 0])).tolist()  # row 0 draws 1
    [[2], [4]]
    """
    size, n = library.shape
    from_hand = np.take(draws, hand).sum(axis=0)
    prefix = np.empty((size + 1, n), dtype=np.int64)
    running_sums(np.take(draws, library), prefix)
    flat, trials = prefix.reshape(-1), np.arange(n)
    out = np.empty((len(drawn), n), dtype=np.int64)
    played = np.zeros(n, dtype=np.int64)
    for t, base in enumerate(np.asarray(drawn, dtype=np.int64)):
        # Effects are played, and play those they draw, until no card in hand has one left to play.
        while True:
            position = np.minimum(base + played, size)
            total = from_hand + flat[position * n + trials]
            if np.array_equal(total, played):
                break
            played = total
        out[t] = position
    return out
