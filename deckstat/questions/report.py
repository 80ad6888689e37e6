"""Everything about one deck at once: legality, opening hands, the by-turn curve, playability, ratios, deck-out.

:func:`report` asks the other questions and returns their results together;
:func:`deckstat.present.report.write_report` writes them as a page with figures.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pandas as pd

from deckstat._fork import Forked, work_beside
from deckstat._validate import check_deck, check_whole
from deckstat._version import __version__
from deckstat.deck import Deck
from deckstat.engines import runner
from deckstat.engines.progress import listening, threads_paused, track
from deckstat.errors import DeckstatError, param
from deckstat.games.profiles import Profile, get_profile
from deckstat.i18n import tr
from deckstat.play.engine import shared_deals
from deckstat.questions._estimate import Simulation
from deckstat.questions._setup import shared_setups
from deckstat.questions.curve import (
    answer_curve,
    last_play_turn,
    plan_curve,
    plan_never_scored_curve,
    plan_no_play_after_drought_curve,
)
from deckstat.questions.deckout import answer_deckout, plan_deckout, plan_never_scored
from deckstat.questions.mulligan import answer_mulligan, plan_mulligan
from deckstat.questions.odds import answer_odds, plan_odds
from deckstat.questions.ratio import legal_counts, ratio
from deckstat.questions.sensitivity import sensitivity
from deckstat.questions.validate import validate
from deckstat.results import (
    CurveResult,
    DeckoutResult,
    MulliganResult,
    OddsResult,
    RatioResult,
    SensitivityResult,
    ValidationResult,
)
from deckstat.schema import canonical_column
from deckstat.terms import DEFAULT_POLICY, SEATS
from deckstat.text import fold

#: The cards a shield trigger section counts: those whose ``shield_trigger`` column is 1 (or more).
SHIELD_TRIGGER_GROUP = "[shield_trigger>=1]"


@dataclass(frozen=True)
class ShieldTriggers:
    """How many shield triggers the set-aside cards (Duel Masters' shields) hold.

    Attributes
    ----------
    odds : OddsResult
        P(at least k triggers among the set-aside cards), one event
        ``[shield_trigger>=1]>=k`` per k from 1 to the number of set-aside cards.
    cards : int
        Shield triggers in the deck.
    shields : int
        Cards set aside.
    expected : float
        Expected number of triggers among them: the sum over k of P(at least k).
    """

    odds: OddsResult
    cards: int
    shields: int
    expected: float

    def at_least(self, k: int) -> float:
        """P(at least ``k`` triggers among the set-aside cards)."""
        return float(self.odds.table["p"].iloc[k - 1])


@dataclass(frozen=True)
class Playability:
    """When the deck's cards can be played: :func:`deckstat.curve` for the first player, card by card.

    Attributes
    ----------
    curve : CurveResult or None
        One target per card name (every printing of a name together), the
        :data:`PLAYABILITY_CARDS` most-copied ones when the deck has more;
        ``None`` when the play model cannot read the deck (see ``error``).
    copies : dict of str to int
        Copies of each card followed, in the order followed.
    names : int
        Distinct card names in the drawn deck.
    reach : pandas.DataFrame
        The first turn each card's P(playable on or before turn t) reaches each of :data:`REACH_LEVELS`
        (see :func:`reach_turns`); empty without a curve.
    mulligan : bool
        Whether the curves take the profile's mulligan (only the bottom mulligan is modelled; under another one
        every first hand is kept).
    error : str or None
        Why there is no curve (a card the play model cannot read), in one line.
    """

    curve: CurveResult | None
    copies: dict[str, int]
    names: int
    mulligan: bool
    error: str | None = None
    reach: pd.DataFrame = field(default_factory=pd.DataFrame)


#: Card names the playability section follows at most, the most-copied first: every card of most decks (a
#: 40-card Duel Masters deck holds 10 to 20 names), few enough for one panel each in a readable figure.
PLAYABILITY_CARDS = 20
#: The probabilities whose first turn the playability section gives for each card: even odds, nine times in ten.
REACH_LEVELS = (0.5, 0.9)
#: Slack for probabilities computed exactly: an exact 0.5 written as 0.49999999999999994 still reaches 0.5.
_EXACT_SLACK = 1e-12


def reach_turns(table: pd.DataFrame, levels: tuple[float, ...] = REACH_LEVELS) -> pd.DataFrame:
    """The first turn each target's P(playable on or before turn t) reaches each level.

    Parameters
    ----------
    table : pandas.DataFrame
        A :func:`deckstat.curve` table of one seat (``target``, ``turn``, ``p``, ``ci_low``, ``ci_high``).
    levels : tuple of float
        Probabilities in (0, 1].

    Returns
    -------
    pandas.DataFrame
        One row per target and level: ``turn`` (the first turn whose ``p`` reaches the level), ``earliest``
        and ``latest`` (the first turns whose 95% interval's top, and bottom, reach it: the turn the data
        cannot tell apart from its neighbours when simulated; both equal ``turn`` when exact), ``last_turn``
        (the last turn asked). A turn is NaN when the level is not reached by the last turn.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"target": "Dragon", "turn": [1, 2, 3], "p": [0.3, 0.6, 0.89],
    ...                       "ci_low": [0.28, 0.58, 0.87], "ci_high": [0.32, 0.62, 0.91]})
    >>> reach_turns(table)[["level", "turn", "earliest", "latest"]].values.tolist()
    [[0.5, 2.0, 2.0, 2.0], [0.9, nan, 3.0, nan]]
    """
    rows = []
    for target, part in table.groupby("target", sort=False):
        part = part.sort_values("turn")
        turns = part["turn"].to_numpy(dtype=float)

        def first(values, level, turns=turns) -> float:
            reached = turns[values.to_numpy(dtype=float) >= level - _EXACT_SLACK]
            return float(reached[0]) if reached.size else math.nan

        for level in levels:
            rows.append({"target": target, "level": level, "turn": first(part["p"], level),
                         "earliest": first(part["ci_high"], level), "latest": first(part["ci_low"], level),
                         "last_turn": float(turns[-1])})
    return pd.DataFrame(rows, columns=["target", "level", "turn", "earliest", "latest", "last_turn"])

#: The report's ratio target: a resource card in the kept opening hand 95% of the time.
REPORT_TARGET = 0.95
#: Trials of the report's simulated parts when none are given (the resource-count sweep keeps ratio's own).
REPORT_TRIALS = 100_000
#: The turn of the report's ±1-copy table: the first event by this turn.
SENSITIVITY_TURN = 2


@dataclass(frozen=True)
class Report:
    """The results a deck report shows.

    Attributes
    ----------
    deck : Deck
    profile : Profile
    events : list of str
        The events followed: a resource card seen, else one per civilization, else the commonest type.
    validation, hands, by_turn, mulligan, ratio, deckout
        The results of :func:`deckstat.validate`, :func:`deckstat.odds` (kept
        hand; by turn), :func:`deckstat.mulligan`, :func:`deckstat.ratio` and
        :func:`deckstat.deckout`; ``mulligan`` and ``ratio`` are ``None`` for
        games without a mulligan or a resource group. The deck-out race keeps
        every first hand under a mulligan other than the bottom one, which
        the deck-out model does not know.
    shield_triggers : ShieldTriggers or None
        For a game that sets cards aside (Duel Masters' shields) and a deck
        with a ``shield_trigger`` column; ``None`` otherwise.
    playability : Playability or None
        P(each card is playable by turn t) for the first player under the
        profile's play model (:func:`deckstat.curve`); ``None`` when the deck
        cannot play a turn.
    n_trials : int
        Trials of every simulated part but the resource-count sweep (see :func:`report`).
    seed : int or None
        The number that, passed again as ``rng`` (``--seed``), reproduces every
        simulated part (``None`` after a Generator that had already been used).
    provenance : dict
        The seed (``seed``, ``seed_entropy``, ``seed_spawn_key``), the trials
        and the deckstat version.
    illegal_counts : bool
        Whether the resource-count sweep shows counts that make an illegal
        deck (see :func:`report`).
    sensitivity : SensitivityResult or None
        What a copy fewer and a copy more of each card change in P(the first
        event by turn :data:`SENSITIVITY_TURN`) for the first player
        (:func:`deckstat.sensitivity`, exact); ``None`` when the deck cannot
        play that turn or the exact engine cannot answer.
    """

    deck: Deck
    profile: Profile
    events: list[str]
    validation: ValidationResult
    hands: OddsResult
    by_turn: OddsResult
    mulligan: MulliganResult | None
    ratio: RatioResult | None
    deckout: DeckoutResult
    shield_triggers: ShieldTriggers | None
    n_trials: int
    seed: int | None
    provenance: dict
    playability: Playability | None = None
    illegal_counts: bool = False
    sensitivity: SensitivityResult | None = None

    def parts(self) -> dict[str, object]:
        """The results the report shows, by attribute name (parts the deck has no use for left out)."""
        parts = {name: getattr(self, name) for name in ("validation", "hands", "by_turn", "mulligan", "ratio",
                                                        "sensitivity", "deckout")}
        if self.shield_triggers is not None:
            parts["shield_triggers"] = self.shield_triggers.odds
        if self.playability is not None and self.playability.curve is not None:
            parts["playability"] = self.playability.curve
        return {name: result for name, result in parts.items() if result is not None}

    def frames(self) -> dict[str, pd.DataFrame]:
        """Every table of every part, named ``part.table``."""
        return {f"{part}.{name}": frame for part, result in self.parts().items()
                for name, frame in result.frames().items()}

    def simulated(self) -> list[str]:
        """The parts with simulated numbers (the others are exact)."""
        # A part records a seed only when it simulated something (the ratio sweep's deck-out turns, say).
        return [part for part, result in self.parts().items() if result.provenance.get("seed_entropy") is not None]


def _groups(deck: Deck, profile: Profile) -> list[str]:
    """Groups the report follows: the resource group, else each civilization, else the commonest type."""
    if profile.resource_group:
        return [profile.resource_group]
    if "civilization" in deck.cards.columns:
        values = []
        for cell in deck.cards["civilization"].dropna():
            for value in str(cell).split(";"):
                if value.strip() and value.strip() not in values:
                    values.append(value.strip())
        if values:
            return [f"[civilization={v}]" for v in values]
    types = deck.cards.groupby("type")["count"].sum().sort_values(ascending=False)
    if types.empty:
        raise DeckstatError(tr("the deck has no card type to report on"), source=deck.source)
    return [str(types.index[0])]


def _shield_triggers(deck: Deck, profile: Profile, simulation: Simulation) -> ShieldTriggers | None:
    """The shield-trigger odds, for a game that sets cards aside and a deck with a ``shield_trigger`` column."""
    if profile.set_aside == 0 or all(canonical_column(str(c)) != "shield_trigger" for c in deck.cards.columns):
        return None
    shields = profile.set_aside
    events = [f"{SHIELD_TRIGGER_GROUP}>={k}" for k in range(1, shields + 1)]
    # A deck whose column marks no card still gets its section, which says so.
    result = answer_odds(plan_odds(deck, profile, events, zone="set_aside", seat="first", allow_absent=True,
                                   simulation=simulation), simulation)
    # The count X runs from 0 to the number of shields, so E[X] is the sum over k >= 1 of P(X >= k).
    expected = float(result.table["p"].sum())
    return ShieldTriggers(odds=result, cards=profile.drawn_deck(deck).count(SHIELD_TRIGGER_GROUP), shields=shields,
                          expected=expected)


def _playability(deck: Deck, profile: Profile, simulation: Simulation, *, last_turn: int) -> Playability | None:
    """The playability curves of the deck's most-copied card names, first player, turns 1..``last_turn``."""
    drawn = profile.drawn_deck(deck)
    copies: dict[str, int] = {}
    spelled: dict[str, str] = {}
    for name, count in zip(drawn.names, drawn.counts):
        key = fold(name)
        spelled.setdefault(key, name)
        copies[key] = copies.get(key, 0) + int(count)
    # Most copies first; ties keep the deck's order (sorted is stable).
    followed = sorted((key for key in copies if copies[key] > 0), key=lambda key: -copies[key])
    names = len(followed)
    followed = followed[:PLAYABILITY_CARDS]
    shown = {spelled[key]: copies[key] for key in followed}
    last = min(last_turn, last_play_turn(profile, drawn.size, "first"))
    if last < 1 or not shown:
        return None
    # Curves model the bottom mulligan only; under another one every first hand is kept, as in the deck-out part.
    mulligan = profile.mulligan in ("none", "bottom")
    try:
        arguments = {"cards": list(shown), "turns": range(1, last + 1), "seat": "first", "mulligan": mulligan,
                     "simulation": simulation}
        plan = plan_curve(deck, profile, effects=True, **arguments)
        result = answer_curve(plan, simulation, never_scored=plan_never_scored_curve(plan, deck, **arguments),
                              no_play_after_drought=plan_no_play_after_drought_curve(plan, deck, **arguments))
    except DeckstatError as exc:
        # A deck the play model cannot read (a card without a cost…) still gets the rest of its report.
        return Playability(curve=None, copies=shown, names=names, mulligan=mulligan, error=str(exc))
    return Playability(curve=result, copies=shown, names=names, mulligan=mulligan, reach=reach_turns(result.table))


@contextmanager
def _sweep(deck: Deck, profile: Profile, arguments: dict | None) -> Iterator[Callable[[], RatioResult | None]]:
    """The report's resource-count sweep (:func:`deckstat.ratio` with ``arguments``; None: no sweep), as a call.

    The sweep is the report's longest part after the playability curves and depends on no other part: where a
    second processor is free and no worker process is asked for, a copy of this process computes it from the
    start, beside the other parts, and the call takes its result. Each of its counts draws from its own
    stream of the report's seed, so the numbers are the same wherever it runs. The call computes the sweep
    itself when the copy could not be made or failed (raising the sweep's own error, if any); leaving the
    block ends a copy still running.
    """
    copy = None
    if arguments is not None and arguments["n_workers"] == 1:
        # The progress bar's threads stop while the process is copied (a copy has only the thread that made it).
        with threads_paused():
            if work_beside():
                copy = Forked(functools.partial(_quiet_sweep, deck, profile, arguments))

    def result() -> RatioResult | None:
        if arguments is None:
            return None
        swept = copy() if copy is not None else None
        return swept if isinstance(swept, RatioResult) else ratio(deck, profile, **arguments)

    try:
        yield result
    finally:
        if copy is not None:
            copy.stop()


def _quiet_sweep(deck: Deck, profile: Profile, arguments: dict) -> RatioResult:
    """:func:`deckstat.ratio` without telling its progress: the copy computing it has no progress bar to draw."""
    with listening(None):
        return ratio(deck, profile, **arguments)


def _sensitivity(deck: Deck, profile: Profile, event: str, last_turn: int) -> SensitivityResult | None:
    """The ±1-copy table of ``event`` by :data:`SENSITIVITY_TURN` for the first player, exact; None if it cannot."""
    if last_turn < SENSITIVITY_TURN:
        return None
    try:
        return sensitivity(deck, profile, event=event, by_turn=SENSITIVITY_TURN, seat="first", method="exact")
    except DeckstatError:
        # An event the exact engine cannot price within its limits: the rest of the report stands.
        return None


@runner.pooled
def report(deck: Deck, game: str | Profile, *, n_trials: int | None = None, rng=None, turns: int = 10,
           policy: str = DEFAULT_POLICY, allow_absent: bool = False, illegal_counts: bool = False,
           n_workers: int = 1, on_part: Callable[[str, object], None] | None = None) -> Report:
    """Ask every question the deck report shows.

    Parameters
    ----------
    deck : Deck
    game : str or Profile
    n_trials : int, optional
        Trials of each simulated part (deck-out with the drought rule or card
        effects, other mulligans). By default :data:`REPORT_TRIALS`, and the
        resource-count sweep keeps :func:`deckstat.ratio`'s own defaults; the
        sweep's numbers are those of ``deckstat ratio --target 0.95`` with the
        same seed and, when given, the same ``--trials``.
    rng : int, Generator or None
        Seed of every simulated part; None draws a fresh one, recorded as
        ``seed`` (see :func:`deckstat.odds`).
    turns : int
        Last turn of the by-turn curves (fewer when the deck runs out before).
    policy : {"on_draw", "each_turn", "none"}
        When the deck-out part plays the cards of the ``draw`` and ``mill``
        columns, as in :func:`deckstat.deckout` (same default).
    allow_absent : bool
        Accept a default keep rule that names cards the deck lacks (see
        :func:`deckstat.odds`); the report's own events come from the deck.
    illegal_counts : bool
        The resource-count sweep's counts. False (default): the counts
        nearest the deck's own that make a legal deck under the profile's
        construction rules (:func:`deckstat.questions.ratio.legal_counts`),
        and the deck's own count whatever its legality. True: the deck's
        own count ± 5, as :func:`deckstat.ratio` sweeps by default, each
        marked legal or not.
    n_workers : int
        Processes for the simulated parts, started once for the whole
        report; does not change the results.
    on_part : callable, optional
        Called as ``on_part(name, part)`` as soon as each part is computed,
        ``name`` the :class:`Report` attribute that will hold it (``"by_turn"``,
        ``"playability"``…; a part the deck does not get is not announced),
        so that its figure can be drawn while the next parts are computed
        (:class:`deckstat.present.report.FiguresAhead`).

    Returns
    -------
    Report

    Notes
    -----
    The sweep's numbers are those of ``deckstat ratio --range COUNTS
    --target 0.95`` with the same seed: each count has its own random
    stream, so the other counts swept do not change them. On Linux, with a
    second processor free, no other thread running and ``n_workers=1``, a
    copy of this process computes the sweep from the start, beside the other
    parts: the same numbers, sooner.

    The playability part is :func:`deckstat.curve` for the first player over
    the :data:`PLAYABILITY_CARDS` most-copied card names, turns 1 to
    ``turns``, under the profile's play model and default policy, with the
    report's trials and seed when simulated: each card's numbers are those of
    ``deckstat curve --card NAME --seat first --turns 1-N --trials T --seed S``.
    """
    profile = get_profile(game)
    check_deck(deck)
    trials = REPORT_TRIALS if n_trials is None else n_trials
    # The settings every part shares, checked once; one root seed for every part, so that each gives the numbers
    # its own question gives with that seed.
    simulation = Simulation.checked(n_trials=trials, rng=rng, n_workers=n_workers).seeded()
    rng = simulation.rng
    if not isinstance(illegal_counts, bool):
        raise DeckstatError(tr("{name} must be True or False, got {value!r}", name=param("illegal_counts"),
                               value=illegal_counts))
    turns = check_whole(turns, "turns")
    if on_part is not None and not callable(on_part):
        raise DeckstatError(tr("{name} must be a function or None, got {value!r}", name=param("on_part"),
                               value=on_part))

    def done(name: str, part: object) -> None:
        if on_part is not None and part is not None:
            on_part(name, part)

    events = [f"{g}>=1" for g in _groups(deck, profile)]
    drawn = profile.drawn_deck(deck)
    last_turn = min([turns] + [profile.last_game_turn(drawn.size, seat) for seat in SEATS])
    validation = validate(deck, profile)
    has_mulligan = profile.mulligan != "none"
    # The deck-out model knows the bottom mulligan only; under another the race keeps every first hand.
    race_mulligan = profile.mulligan in ("none", "bottom")
    has_sweep = bool(profile.resource_group) and len(profile.parts) == 1
    sweep_arguments = None
    if has_sweep:
        # The sweep `deckstat ratio --target 0.95` runs at the default target turn (the kept opening hand),
        # over the legal counts unless illegal ones are asked for. Trials as given, or ratio's own: its numbers
        # are those of `ratio --range COUNTS --target 0.95 --seed S [--trials N]`.
        counts = None
        if not illegal_counts:
            current, legal = legal_counts(deck, profile)
            counts = sorted({current, *legal})
        sweep_arguments = {"counts": counts, "turns": range(min(last_turn, 5) + 1), "target": REPORT_TARGET,
                           "n_trials": n_trials, "rng": rng, "allow_absent": allow_absent, "n_workers": n_workers}
    # The parts that ask about the same events under the same rules share their set-ups (the kept hands and the
    # by-turn odds, say), each prepared once.
    # Parts seeded alike deal the same games (the curves' two ends of an assumption, the drought sides): once.
    with _sweep(deck, profile, sweep_arguments) as swept, shared_setups(), shared_deals(), \
            track(tr("report"), total=6 + has_mulligan + has_sweep, unit="parts") as parts:
        by_turn = answer_odds(plan_odds(deck, profile, events, turns=range(last_turn + 1), allow_absent=allow_absent,
                                        simulation=simulation), simulation)
        done("by_turn", by_turn)
        parts.advance()
        hands = answer_odds(plan_odds(deck, profile, events, zone="hand", seat="first", allow_absent=allow_absent,
                                      simulation=simulation), simulation)
        done("hands", hands)
        parts.advance()
        report_mulligan = answer_mulligan(plan_mulligan(deck, profile, allow_absent=allow_absent,
                                                        simulation=simulation), simulation) if has_mulligan else None
        done("mulligan", report_mulligan)
        parts.advance(has_mulligan)
        playability = _playability(deck, profile, simulation, last_turn=last_turn)
        done("playability", playability)
        parts.advance()
        sweep = swept()
        if has_sweep:
            done("ratio", sweep)
            parts.advance()
        copies = _sensitivity(deck, profile, events[0], last_turn)
        done("sensitivity", copies)
        parts.advance()
        race_arguments = {"policy": policy, "mulligan": race_mulligan, "allow_absent": allow_absent,
                          "simulation": simulation}
        planned = plan_deckout(deck, profile, **race_arguments)
        race = answer_deckout(planned, simulation, never_scored=plan_never_scored(
            planned, deck, terrain_turns=None, drought=True, **race_arguments))
        done("deckout", race)
        parts.advance()
        triggers = _shield_triggers(deck, profile, simulation)
        done("shield_triggers", triggers)
        parts.advance()
    provenance = {"question": "report", "game": profile.id, "deck_source": deck.source, "n_trials": trials,
                  "policy": race.provenance["policy"], **runner.provenance(rng), "deckstat_version": __version__}
    return Report(deck=deck, profile=profile, events=events, validation=validation, hands=hands, by_turn=by_turn,
                  mulligan=report_mulligan, ratio=sweep, deckout=race, shield_triggers=triggers, n_trials=trials,
                  seed=rng.seed, provenance=provenance, playability=playability, illegal_counts=illegal_counts,
                  sensitivity=copies)
