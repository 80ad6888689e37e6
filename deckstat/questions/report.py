"""Everything about one deck at once: legality, opening hands, the by-turn curve, ratios, deck-out.

:func:`report` asks the other questions and returns their results together;
:func:`deckstat.present.report.write_report` writes them as a page with figures.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckstat._validate import check_deck, check_whole
from deckstat.deck import Deck
from deckstat.errors import DeckstatError
from deckstat.games.profiles import Profile, get_profile
from deckstat.questions.deckout import deckout
from deckstat.questions.mulligan import mulligan
from deckstat.questions.odds import odds
from deckstat.questions.ratio import ratio
from deckstat.questions.validate import validate
from deckstat.results import DeckoutResult, MulliganResult, OddsResult, RatioResult, ValidationResult
from deckstat.terms import SEATS

#: The report's ratio target: a resource card in the kept opening hand 95% of the time.
REPORT_TARGET = 0.95


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
        games without a mulligan or a resource group.
    n_trials, seed : int
        Trials and seed of every simulated part.
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
    n_trials: int
    seed: int


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
        raise DeckstatError("the deck has no card type to report on", source=deck.source)
    return [str(types.index[0])]


def report(deck: Deck, game: str | Profile, *, n_trials: int = 100_000, rng: int = 2026, turns: int = 10,
           allow_absent: bool = False) -> Report:
    """Ask every question the deck report shows.

    Parameters
    ----------
    deck : Deck
    game : str or Profile
    n_trials : int
        Trials of each simulated part (deck-out with the drought rule, other mulligans).
    rng : int
        Seed of every simulated part.
    turns : int
        Last turn of the by-turn curves (fewer when the deck runs out before).
    allow_absent : bool
        Accept a default keep rule that names cards the deck lacks (see
        :func:`deckstat.odds`); the report's own events come from the deck.

    Returns
    -------
    Report
    """
    profile = get_profile(game)
    check_deck(deck)
    n_trials = check_whole(n_trials, "n_trials", minimum=1)
    rng = check_whole(rng, "rng")
    turns = check_whole(turns, "turns")
    events = [f"{g}>=1" for g in _groups(deck, profile)]
    drawn = profile.drawn_deck(deck)
    last_turn = min([turns] + [profile.last_turn(drawn.size, seat) for seat in SEATS])
    validation = validate(deck, profile)
    absent = {"allow_absent": allow_absent}
    by_turn = odds(deck, profile, events, turns=range(last_turn + 1), n_trials=n_trials, rng=rng, **absent)
    hands = odds(deck, profile, events, zone="hand", seat="first", n_trials=n_trials, rng=rng, **absent)
    report_mulligan = mulligan(deck, profile, n_trials=n_trials, rng=rng, **absent) \
        if profile.mulligan != "none" else None
    sweep = None
    if profile.resource_group and len(profile.parts) == 1:
        # The sweep `deckstat ratio --target 0.95` runs: the default counts and target turn (the kept opening hand).
        sweep = ratio(deck, profile, turns=range(min(last_turn, 5) + 1), target=REPORT_TARGET, n_trials=n_trials,
                      rng=rng, **absent)
    race = deckout(deck, profile, n_trials=n_trials, rng=rng, **absent)
    return Report(deck=deck, profile=profile, events=events, validation=validation, hands=hands, by_turn=by_turn,
                  mulligan=report_mulligan, ratio=sweep, deckout=race, n_trials=n_trials, seed=rng)
