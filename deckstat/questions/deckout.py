"""Deck-out timing: on which turn each seat's deck runs out, and who runs out first.

Two decks race under one game's rules (``deckout`` in the profile, see
:data:`deckstat.terms.DECKOUT_RULES`). The turn reported is the round: a
seat's own turn number (in simultaneous games both seats share it). The
other ways a game ends (life points, scores) are not modelled, and after one
seat runs out the other keeps playing, so that both seats' distributions are
defined; "who runs out first" compares the moments they run out. When the
game itself ends by deck-out is a table of its own: at the first seat's
deck-out under most rules, at the later one under Licum's (the match ends
when both players cannot draw at the end of a turn).

Without card effects and without Wankul's drought rule the answer is
deterministic and computed exactly; otherwise it is simulated by the race
engine (:mod:`deckstat.engines.race`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from deckstat._validate import check_choice, check_deck, check_optional_whole, check_whole
from deckstat._version import __version__
from deckstat.deck import MAX_COPIES, Deck
from deckstat.engines import runner
from deckstat.engines.race import RaceSpec, SeatSpec, deterministic_round, race_task
from deckstat.engines.seen import Program
from deckstat.errors import DeckstatError, ExpressionError, param
from deckstat.events import Count, NameGroup, groups_of, parse_event, parse_group
from deckstat.games.profiles import Profile, get_profile
from deckstat.i18n import N_, tr
from deckstat.questions._estimate import Part, Simulation, estimate
from deckstat.questions._setup import (
    check_groups,
    default_keep_remedy,
    key_columns,
    mulligan_settings,
)
from deckstat.results import DeckoutResult, frame
from deckstat.terms import (
    BOTH_OUT_RULES,
    DEFAULT_POLICY,
    DROUGHT_ORDER_NAMES,
    DROUGHT_ORDERS,
    POLICIES,
    SEATS,
    name_of,
)
from deckstat.text import suggest

DECKOUT_COLUMNS = ["deck", "opponent", "game", "seat", "turn", "p", "ci_low", "ci_high", "cdf", "cdf_low", "cdf_high",
                   "n_trials", "method"]
SUMMARY_COLUMNS = ["deck", "opponent", "game", "seat", "mean_turn", "median_turn", "earliest_turn", "latest_turn",
                   "p_runs_out_first", "ci_low", "ci_high", "p_same_moment", "n_trials", "method"]
GAME_END_COLUMNS = ["deck", "opponent", "game", "turn", "p", "ci_low", "ci_high", "cdf", "cdf_low", "cdf_high",
                    "n_trials", "method"]
#: When the game ends by deck-out, in words, by whether it waits for both seats (:data:`BOTH_OUT_RULES`).
GAME_END_WORDS = {True: N_("at the later of the two decks' run-out turns: the end of the first turn at which "
                           "neither player can draw"),
                  False: N_("at the earlier of the two decks' run-out turns: when the first player runs out")}
#: A simulated distribution with no run-out in it, by whose it is.
_NEVER_RAN_OUT = {"first": N_("the first seat never ran out within {turns} turns"),
                  "second": N_("the second seat never ran out within {turns} turns"),
                  "game": N_("the game never ran out within {turns} turns")}
NEVER = ("never", "jamais")


def same_size_warning(profile: Profile, decks: list[Deck]) -> list[str]:
    """A warning when ``profile`` wants both players' decks of one size (Wankul) and ``decks`` differ.

    Examples
    --------
    >>> import deckstat
    >>> a = deckstat.Deck.from_table([{"name": "T", "count": 10}, {"name": "P", "count": 40}], source="a.csv")
    >>> b = deckstat.Deck.from_table([{"name": "T", "count": 8}, {"name": "P", "count": 32}], source="b.csv")
    >>> same_size_warning(get_profile("wankul"), [a, b])  # doctest: +NORMALIZE_WHITESPACE
    ["Wankul: both players' decks must have the same number of cards; a.csv has 50 and b.csv 40"]
    """
    sizes = [d.size for d in decks]
    if not profile.same_size or len(set(sizes)) < 2:
        return []
    listed = [tr("{deck} has {size}", deck=decks[0].name, size=decks[0].size)]
    listed += [f"{d.name} {d.size}" for d in decks[1:]]
    sizes = functools.reduce(lambda first, second: tr("{first} and {second}", first=first, second=second), listed)
    return [tr("{game}: both players' decks must have the same number of cards; {sizes}", game=profile.name,
               sizes=sizes)]


def _terrain_turns(value: object, profile: Profile) -> int | None:
    """The turns a drought-group card stays in play: the profile's default, a whole number, or never (None)."""
    if value is None:
        return profile.drought_scored_after
    if isinstance(value, str) and value.strip().casefold() in NEVER:
        return None
    if isinstance(value, str):
        raise DeckstatError(tr("{name} must be a whole number of at least 1 or 'never', got {value!r}",
                               name=param("terrain_turns"), value=value))
    turns = check_optional_whole(value, "terrain_turns", minimum=1)
    if turns is not None and turns > MAX_COPIES:  # the same as never, and 10**18 would overflow the race's counters
        check_whole(turns, "terrain_turns", minimum=1, maximum=MAX_COPIES)
    return turns


#: The moments of a card's own effects the deck-out race plays (under its policy: when drawn, or each turn).
PLAYED_TIMINGS = ("on_play", "on_draw")


def card_effects(deck: Deck, profile: Profile) -> list[np.ndarray]:
    """The cards each distinct card draws and mills: its ``draw`` and ``mill`` columns, or its effects of that kind.

    A card gives each of them in one place (:class:`~deckstat.deck.Deck` refuses both); its ``effect`` cell's
    ``draw``/``mill`` effects played when the card is (see :data:`PLAYED_TIMINGS`; an effect without a moment has the
    profile's ``effect_moment``) are added up.
    """
    effects = []
    for name in ("draw", "mill"):
        from_effects = np.array([sum(e.amount for e in card if e.action == name
                                     and e.moment(profile.effect_moment) in PLAYED_TIMINGS)
                                 for card in deck.effects], dtype=np.int64)
        if name in deck.cards.columns:
            values = pd.to_numeric(deck.cards[name], errors="coerce")
            bad = values.notna() & ((values < 0) | (values % 1 != 0))
            if bad.any():
                card = deck.cards["name"][bad].iloc[0]
                raise DeckstatError(tr("card {card!r} has {column} {value!r}; expected a whole number of at least 0",
                                       card=card, column=name, value=deck.cards[name][bad].iloc[0]),
                                    source=deck.source, column=name)
            effects.append(values.fillna(0).to_numpy(dtype=np.int64) + from_effects)
        else:
            effects.append(from_effects)
    return effects


def effect_program(deck: Deck, profile: Profile) -> Program | None:
    """The effects that bring cards to the player's hand, as the seen-cards game plays them; None without any.

    Per card: its draws (:func:`card_effects`), then its searches and looks in the order its cell writes them,
    those played when the card is (:data:`PLAYED_TIMINGS`).

    Raises
    ------
    ExpressionError
        For a search or look whose group matches no card of the deck.
    """
    draws = card_effects(deck, profile)[0]
    effects = []
    for row, card in enumerate(deck.effects):
        row_effects = [("draw", draws[row], None, 0)] if draws[row] > 0 else []
        for effect in card:
            if effect.action not in ("search", "look") or effect.moment(profile.effect_moment) not in PLAYED_TIMINGS:
                continue
            try:
                members = deck.mask(effect.group)
            except ExpressionError as error:
                # An attribute the deck lacks: the card and the file say where it is written.
                raise DeckstatError(tr("card {card!r}: the effect {effect!r}: {problem}", card=deck.labels[row],
                                       effect=effect.shown(), problem=str(error)), source=deck.source,
                                    column="effect") from None
            if not members.any():
                hint = suggest(effect.group.text, list(deck.labels)) if isinstance(effect.group, NameGroup) else ""
                raise DeckstatError(tr("card {card!r}: the group {group} of its effect {effect!r} matches no card of "
                                       "this deck{hint}", card=deck.labels[row], group=effect.group.label,
                                       effect=effect.shown(), hint=hint), source=deck.source, column="effect")
            row_effects.append((effect.action, effect.amount or 0, members, effect.take or 1))
        effects.append(row_effects)
    program = Program.of(effects, len(deck.cards))
    return None if program.empty else program


def _effect_cards(deck: Deck, profile: Profile) -> int:
    """Cards (copies counted) with a draw or mill effect."""
    draw, mill = card_effects(deck, profile)
    return int(deck.counts[(draw > 0) | (mill > 0)].sum())


def _seat_spec(deck: Deck, profile: Profile, membership: np.ndarray, drought_group, seat: str) -> SeatSpec:
    drought = deck.mask(drought_group) if drought_group is not None else np.zeros(len(deck.cards), dtype=bool)
    draw, mill = card_effects(deck, profile)
    return SeatSpec.from_cards(deck.counts, membership, drought, draw, mill, profile.first_turn_draw[seat])


@runner.pooled
def deckout(deck: Deck, game: str | Profile, *, opponent: Deck | None = None, policy: str = DEFAULT_POLICY,
            drought: bool = True, terrain_turns: int | str | None = None, drought_order: str = "together",
            keep: str | None = None, mulligan: bool = True, method: str = "auto", n_trials: int | None = None,
            rng=None, chunk_size: int = runner.DEFAULT_CHUNK, n_workers: int = 1,
            allow_absent: bool = False) -> DeckoutResult:
    """On which turn each seat's deck runs out, under the game's deck-out rule.

    Parameters
    ----------
    deck : Deck
        The first player's deck.
    game : str or Profile
    opponent : Deck, optional
        The second player's deck (default: a copy of ``deck``). In a game
        whose decks must have the same size (Wankul), an opponent of another
        size is raced all the same, with a warning in
        ``provenance["warnings"]``.
    policy : {"on_draw", "each_turn", "none"}
        When cards with ``draw`` (extra cards their owner draws) or ``mill``
        (cards the opponent discards from the deck) effects are played; see
        :data:`deckstat.terms.POLICIES`. Costs and other conditions are not
        modelled. The default, ``on_draw``, plays them as soon as they are
        drawn; ``none`` ignores the columns. A deck without such cards gets
        the same exact answer under every policy.
    drought : bool
        Apply the profile's drought rule (Wankul), if it has one.
    terrain_turns : int or "never", optional
        With the drought rule: how many turns (of either player) a
        drought-group card stays in play before it is scored and discarded.
        Default: the profile's ``drought_scored_after``. Wankul's is 2: a
        Terrain is discarded when it is scored (« Vous devez également
        défausser la carte Terrain elle-même »), which cannot happen before the
        opponent's turn (« ne peut pas être marqué avant le tour du joueur
        adverse »); deckstat assumes it is scored then, so it is gone when its
        owner's next turn begins. ``"never"``: it stays until the end.
    drought_order : {"together", "active_first"}
        How the drought rule's « une carte à la fois » is read (see
        :data:`deckstat.terms.DROUGHT_ORDERS`): both players draw a card, then
        both look (default; if both must draw and neither can, the active
        player wins, as « Si deux joueurs doivent piocher simultanément »
        says), or the active player draws first, then the other, one card at
        a time.
    keep, mulligan
        The opening mulligan (Wankul's puts the hand under the deck: the deck
        count does not change, but which cards are left does).
    method : {"auto", "exact", "simulate"}
        ``exact`` is available without effects and without the drought rule.
    n_trials, rng, chunk_size, n_workers
        As in :func:`deckstat.odds`.
    allow_absent : bool
        Accept a keep rule whose groups match no card of a deck (by default an
        error, see :func:`deckstat.odds`).

    Returns
    -------
    DeckoutResult
        ``table``: per seat (``deck`` is the seat's deck) and turn, ``p`` (the
        seat runs out on that turn) and ``cdf``, with 95% Wilson intervals when
        simulated. ``summary``: per seat, the mean, median, earliest and latest
        turn, ``p_runs_out_first`` (this seat runs out strictly before the
        other) with its interval, and ``p_same_moment``. ``game_end``: on
        which turn the game ends by deck-out (``p``, ``cdf``), at the first
        seat's deck-out, or at the later one under Licum's rule.
        ``provenance`` holds the rule, when the game ends in words
        (``game_end_text``), the policy and the drought reading in words,
        ``effect_cards`` (cards with a draw or mill effect in each seat's
        deck), the assumptions, any ``warnings``, and ``order_by_rules``:
        ``"first"`` when the rules alone make the first player run out first
        in every game (libraries of one size drawn alike, no card effect,
        alternating turns, drought draws read ``together``), ``"same_moment"``
        when both run out at once (simultaneous turns), else None. ``scoring``: when the answer rests on the
        profile's Terrain-scoring default (Wankul, ``terrain_turns`` not given), each seat's run-out turns at
        both ends of that assumption, on the same random games; None otherwise.

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "Terrain", "count": 10, "type": "Terrain"},
    ...                                  {"name": "Personnage", "count": 40, "type": "Personnage"}])
    >>> deckstat.deckout(deck, "wankul", drought=False).summary[["seat", "median_turn", "p_runs_out_first"]]
         seat  median_turn  p_runs_out_first
    0   first           46               1.0
    1  second           46               0.0
    """
    simulation = Simulation.checked(method=method, n_trials=n_trials, rng=rng, chunk_size=chunk_size,
                                    n_workers=n_workers)
    arguments = {"opponent": opponent, "policy": policy, "drought": drought, "drought_order": drought_order,
                 "keep": keep, "mulligan": mulligan, "allow_absent": allow_absent, "simulation": simulation}
    race = plan_deckout(deck, game, terrain_turns=terrain_turns, **arguments)
    never = plan_never_scored(race, deck, terrain_turns=terrain_turns, **arguments)
    return answer_deckout(race, simulation, never_scored=never)


def plan_never_scored(race: _Setup, deck: Deck, *, terrain_turns: int | str | None, drought: bool,
                      **arguments) -> _Setup | None:
    """The race at the other end of the Terrain-scoring assumption, when the answer rests on the profile's default.

    The rules text says only « Certains effets de cartes vous permettent de scorer un Terrain »: the default
    scores every Terrain at the first legal moment; this race never scores one. None when the question sets
    ``terrain_turns`` itself, leaves the drought rule out, or the game has no such assumption. ``race`` is the
    answer's plan (:func:`plan_deckout`); the other arguments are the ones it was planned with.
    """
    profile = race.profile
    if not drought or terrain_turns is not None or profile.drought_group is None \
            or profile.drought_scored_after is None:
        return None
    return plan_deckout(deck, profile, terrain_turns="never", drought=drought, **arguments)


@runner.pooled
def mean_turns(deck: Deck, game: str | Profile, *, keep: str | None = None, mulligan: bool = True,
               n_trials: int | None = None, rng=None, chunk_size: int = runner.DEFAULT_CHUNK, n_workers: int = 1,
               allow_absent: bool = False) -> tuple[dict[str, float], str]:
    """The mean turn each seat runs out on, the deck racing a copy of itself, and the method.

    The ``mean_turn`` column of :func:`deckout`'s summary for the same
    arguments (the game's default policy, drought rule and drought reading),
    with the same seed the same numbers, without the tables and their
    intervals: what a sweep over many decks needs of each.

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "Terrain", "count": 10, "type": "Terrain"},
    ...                                  {"name": "Personnage", "count": 40, "type": "Personnage"}])
    >>> mean_turns(deck, "jdg")  # 45 cards left after the 5-card hand, one drawn a turn: the last on turn 45
    ({'first': 45.0, 'second': 45.0}, 'exact')
    """
    simulation = Simulation.checked(n_trials=n_trials, rng=rng, chunk_size=chunk_size, n_workers=n_workers)
    race = _setup(deck, game, opponent=None, policy=DEFAULT_POLICY, drought=True, terrain_turns=None,
                  drought_order="together", keep=keep, mulligan=mulligan, allow_absent=allow_absent,
                  simulation=simulation)
    return answer_mean_turns(race, simulation)


def answer_mean_turns(race: _Setup, simulation: Simulation) -> tuple[dict[str, float], str]:
    """The mean turn each seat of a planned race (:func:`plan_deckout`) runs out on, and the method.

    :func:`mean_turns`' answer: simulated on ``simulation``'s trials, seed and workers when the race is random.
    """
    if race.spec is None:
        rounds = _deterministic_rounds(race.profile, race.seats, race.libraries)
        return {seat: float(r) for seat, r in zip(SEATS, rounds)}, "exact"
    tallies, n_done, _ = _simulate(race, simulation)
    means = {seat: _mean_turn(tallies[i, 1:race.spec.max_rounds + 1], n_done) for i, seat in enumerate(SEATS)}
    return means, "simulate"


@dataclass(frozen=True)
class _Setup:
    """A checked deck-out question: the seats, the provenance and, when simulated, the race to run."""

    profile: Profile
    seats: tuple[SeatSpec, SeatSpec]
    libraries: list[int]
    names: list[tuple[str, str]]
    provenance: dict
    spec: RaceSpec | None


def plan_deckout(deck: Deck, game: str | Profile, *, opponent: Deck | None = None, policy: str = DEFAULT_POLICY,
                 drought: bool = True, terrain_turns: int | str | None = None, drought_order: str = "together",
                 keep: str | None = None, mulligan: bool = True, allow_absent: bool = False,
                 simulation: Simulation | None = None) -> _Setup:
    """Every check of :func:`deckout`, nothing computed: its seats, provenance and, when simulated, its race.

    ``simulation`` holds the method and simulation settings (default: ``auto``), checked by the caller.
    """
    simulation = Simulation() if simulation is None else simulation
    return _setup(deck, game, opponent=opponent, policy=policy, drought=drought, terrain_turns=terrain_turns,
                  drought_order=drought_order, keep=keep, mulligan=mulligan, allow_absent=allow_absent,
                  simulation=simulation)


def answer_deckout(race: _Setup, simulation: Simulation, never_scored: _Setup | None = None) -> DeckoutResult:
    """Race a planned :func:`deckout` question: by the rules alone, or simulated on ``simulation``'s settings.

    ``never_scored`` (:func:`plan_never_scored`): the same race with Terrains never scored, run on the same seed
    and trials; its run-out turns beside the answer's make ``DeckoutResult.scoring``.
    """
    if never_scored is not None:
        simulation = simulation.seeded()  # both ends of the assumption on the same random games
    result = _answer(race, simulation)
    if never_scored is None:
        return result
    other = _answer(never_scored, simulation)
    records = []
    for scoring, answer in (("first_legal_moment", result), ("never", other)):
        for row in answer.summary.itertuples(index=False):
            records.append({"deck": row.deck, "opponent": row.opponent, "game": row.game, "seat": row.seat,
                            "terrain_scoring": scoring, "median_turn": row.median_turn, "mean_turn": row.mean_turn,
                            "earliest_turn": row.earliest_turn, "latest_turn": row.latest_turn,
                            "n_trials": int(answer.table["n_trials"].iloc[0]), "method": row.method})
    scoring = frame(records, SCORING_COLUMNS, integers=("n_trials",))
    return replace(result, scoring=scoring)


#: Columns of :attr:`DeckoutResult.scoring`.
SCORING_COLUMNS = ("deck", "opponent", "game", "seat", "terrain_scoring", "median_turn", "mean_turn", "earliest_turn",
                   "latest_turn", "n_trials", "method")


def _answer(race: _Setup, simulation: Simulation) -> DeckoutResult:
    provenance = dict(race.provenance)
    if race.spec is None:
        table, summary, game_end = _exact_race(race.profile, race.seats, race.libraries, race.names)
    else:
        tallies, n_done, simulated = _simulate(race, simulation)
        provenance.update(simulated)
        table, summary, game_end = _simulated_race(race.profile, tallies, n_done, race.spec.max_rounds, race.names)
    return DeckoutResult(table=table, summary=summary, game_end=game_end, provenance=provenance)


def simulates(deck: Deck, game: str | Profile, *, opponent: Deck | None = None, policy: str = DEFAULT_POLICY,
              drought: bool = True, terrain_turns: int | str | None = None, drought_order: str = "together",
              keep: str | None = None, mulligan: bool = True, method: str = "auto",
              allow_absent: bool = False) -> bool:
    """Whether :func:`deckout` with these arguments simulates races (the checks alone, nothing computed)."""
    race = _setup(deck, game, opponent=opponent, policy=policy, drought=drought, terrain_turns=terrain_turns,
                  drought_order=drought_order, keep=keep, mulligan=mulligan, allow_absent=allow_absent,
                  simulation=Simulation.checked(method=method))
    return race.spec is not None


def _setup(deck: Deck, game: str | Profile, *, opponent: Deck | None, policy: str, drought: bool,
           terrain_turns: int | str | None, drought_order: str, keep: str | None, mulligan: bool,
           allow_absent: bool, simulation: Simulation) -> _Setup:
    """Check a deck-out question (see :func:`deckout`) and reduce it to seats, provenance and race.

    ``simulation`` was checked by the caller (:meth:`Simulation.checked`): its settings are not checked again.
    """
    method = simulation.method
    profile = get_profile(game)
    check_deck(deck)
    if opponent is not None:
        check_deck(opponent, "opponent")
    check_choice(policy, "policy", tuple(POLICIES))
    check_choice(drought_order, "drought_order", tuple(DROUGHT_ORDERS))
    terrain_turns = _terrain_turns(terrain_turns, profile)
    if profile.deckout == "none":
        raise DeckstatError(tr("{game}: running out of cards has no rules effect, so there is no deck-out turn",
                               game=profile.name))
    if not isinstance(allow_absent, bool):
        raise DeckstatError(tr("{name} must be True or False, got {value!r}", name=param("allow_absent"),
                               value=allow_absent))
    decks = [profile.drawn_deck(d).with_synonyms(profile.synonyms)
             for d in (deck, opponent if opponent is not None else deck)]
    rule, _, keep_text = mulligan_settings(profile, keep=keep, mulligan=mulligan, mulligan_rule=None,
                                           mulligan_limit=None)
    if rule not in ("none", "bottom"):
        raise DeckstatError(tr("the deck-out model handles no mulligan or the bottom mulligan; {game} uses {rule}: "
                               "pass {option}", game=profile.name, rule=rule, option=param("mulligan", False)))
    keep_event = parse_event(keep_text, what="keep rule") if keep_text else None
    keep_groups = groups_of(keep_event) if keep_event is not None else {}
    drought_group = parse_group(profile.drought_group) if (drought and profile.drought_group) else None
    for i, d in enumerate(decks):
        if keep_event is not None:
            try:
                check_groups(d, keep_event, profile, "keep rule", keep_text, allow_absent=allow_absent,
                             remedy=default_keep_remedy(profile) if keep is None else None)
            except DeckstatError as exc:
                raise (exc.prefixed(tr("opponent {deck}: ", deck=d.name)) if i and opponent is not None
                       else exc) from None
        if drought_group is not None:
            # A deck without drought-group cards is in drought for good: what the rule says, not a misspelling.
            check_groups(d, Count(drought_group, ">=", 1), profile, "drought group", profile.drought_group,
                         allow_absent=True)
        if profile.library_size(d.size) < 0:
            raise DeckstatError(tr("{deck} has {size} cards, fewer than the {dealt} dealt before turn 1", deck=d.source,
                                   size=d.size, dealt=profile.set_aside + profile.hand_size))
    # Both seats' keep columns line up, names of distinct(...) groups included; the last column only parts names.
    keep_columns, keep_distinct = key_columns(decks, keep_groups)
    seats = tuple(_seat_spec(d, profile, k[:, :-1], drought_group, seat) for d, k, seat in zip(decks, keep_columns,
                                                                                                 SEATS))
    effect_cards = [_effect_cards(d, profile) for d in decks]
    has_effects = policy != "none" and any(effect_cards)
    needs_simulation = has_effects or drought_group is not None
    if method == "exact" and needs_simulation:
        why = N_("the deck-out turn is random with card effects; use {option} or turn it off") if has_effects else \
            N_("the deck-out turn is random with the drought rule; use {option} or turn it off")
        raise DeckstatError(tr(why, option=param("method", "simulate")))
    chosen = "simulate" if (method == "simulate" or needs_simulation) else "exact"
    libraries = [profile.library_size(d.size) for d in decks]
    both_out = profile.deckout in BOTH_OUT_RULES
    drought_notes = []
    if drought_group is not None:
        if terrain_turns is None:
            stays = tr("a drought-group card in play stays until the end")
        elif terrain_turns == profile.drought_scored_after:
            stays = tr("a drought-group card in play is scored and discarded {turns} turns after it is played (the "
                       "profile's default)", turns=terrain_turns)
        else:
            stays = tr("a drought-group card in play is scored and discarded {turns} turns after it is played",
                       turns=terrain_turns)
        drought_notes = [stays, tr("drought draws ({order}): {text}", order=name_of(DROUGHT_ORDER_NAMES, drought_order),
                                   text=tr(DROUGHT_ORDERS[drought_order]))]
    order = _order_by_rules(profile, seats, libraries, effects=has_effects,
                            drought_order=drought_order if drought_group is not None else None)
    provenance = {"question": "deckout", "game": profile.id, "deck_source": decks[0].source,
                  "opponent_source": decks[1].source, "rule": profile.deckout,
                  "game_end_text": tr(GAME_END_WORDS[both_out]), "policy": policy,
                  "policy_text": tr(POLICIES[policy]), "effect_cards": effect_cards,
                  "drought": drought_group is not None,
                  "terrain_turns": terrain_turns if drought_group is not None else None,
                  "drought_order": drought_order if drought_group is not None else None,
                  "mulligan_rule": rule, "keep": keep_text, "library_sizes": libraries,
                  "assumptions": [
                      tr("other ways the game ends (life, score, every Impro played) are not modelled; after one "
                         "seat runs out the other keeps playing"),
                      tr("card costs and conditions are ignored: effect cards are played as the policy says"),
                  ] + drought_notes,
                  "warnings": same_size_warning(profile, decks),
                  "order_by_rules": order,
                  "deckstat_version": __version__}
    names = [(decks[0].name, decks[1].name), (decks[1].name, decks[0].name)]
    spec = None
    if chosen == "simulate":
        spec = RaceSpec(seats=seats, keep_keys=tuple(keep_groups), keep_distinct=keep_distinct, keep=keep_event,
                        hand_size=profile.hand_size,
                        set_aside=profile.set_aside, draws_per_turn=profile.draws_per_turn, rule=profile.deckout,
                        simultaneous=profile.turn_order == "simultaneous", draw_at_end=profile.draw_step == "end",
                        policy=policy, drought=drought_group is not None, terrain_turns=terrain_turns,
                        max_rounds=(max(libraries) + 1) // max(profile.draws_per_turn, 1) + 3,
                        drought_order=drought_order)
    return _Setup(profile=profile, seats=seats, libraries=libraries, names=names, provenance=provenance, spec=spec)


def _order_by_rules(profile: Profile, seats: tuple[SeatSpec, SeatSpec], libraries: list[int], *, effects: bool,
                    drought_order: str | None) -> str | None:
    """Who runs out first in every game when the rules alone decide it: ``"first"``, ``"same_moment"`` or None.

    Both libraries hold as many cards and both seats draw alike, without card effects: each round takes as many
    cards from each. With alternating turns the first player draws first in each round, so runs out first;
    Wankul's drought draws read ``together`` keep it so (both draw one card at a time, and when both must draw
    and cannot, the active player wins), the ``active_first`` reading does not (the second player, active,
    draws first). With simultaneous turns both run out at the same moment.
    """
    if effects or libraries[0] != libraries[1] or seats[0].first_turn_draw != seats[1].first_turn_draw:
        return None
    if profile.turn_order == "simultaneous":
        return "same_moment" if drought_order is None else None
    return "first" if drought_order in (None, "together") else None


def _simulate(race: _Setup, simulation: Simulation) -> tuple[np.ndarray, int, dict]:
    """Run the races of ``race``: their tallies (:func:`~deckstat.engines.race.race_task`), count and provenance.

    The provenance is what reproduces the races (seed, stopping rule).
    """
    part = Part("simulate", None, lambda: None, functools.partial(race_task, race.spec), tr("deck-out"))
    estimates = estimate(part, simulation.seeded())
    return estimates.values, estimates.n_trials, estimates.provenance


def _deterministic_rounds(profile: Profile, seats: tuple[SeatSpec, SeatSpec], libraries: list[int]) -> list[int]:
    """The round each seat runs out on without effects or droughts."""
    return [deterministic_round(lib, s.first_turn_draw, profile.draws_per_turn, profile.deckout)
            for lib, s in zip(libraries, seats)]


def _mean_turn(hist: np.ndarray, n_done: int) -> float:
    """Mean turn of a simulated distribution (``hist[j]``: races that ran out on turn ``j + 1``)."""
    p = hist / n_done
    return float(np.dot(np.arange(1, hist.size + 1), p) / p.sum())


def _exact_race(profile: Profile, seats: tuple[SeatSpec, SeatSpec], libraries: list[int],
                names: list[tuple[str, str]]) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Without effects or droughts every game runs out on the same turn: the tables of that certainty."""
    rounds = _deterministic_rounds(profile, seats, libraries)
    times = [2 * r if profile.turn_order == "simultaneous" else 2 * r + i for i, r in enumerate(rounds)]
    rows, summary = [], []
    for i, r in enumerate(rounds):
        identity = {"deck": names[i][0], "opponent": names[i][1], "game": profile.id, "seat": SEATS[i]}
        first = float(times[i] < times[1 - i])
        rows.append({**identity, "turn": r, "p": 1.0, "ci_low": 1.0, "ci_high": 1.0, "cdf": 1.0, "cdf_low": 1.0,
                     "cdf_high": 1.0, "n_trials": None, "method": "exact"})
        summary.append({**identity, "mean_turn": float(r), "median_turn": r, "earliest_turn": r, "latest_turn": r,
                        "p_runs_out_first": first, "ci_low": first, "ci_high": first,
                        "p_same_moment": float(times[0] == times[1]), "n_trials": None, "method": "exact"})
    end = max(rounds) if profile.deckout in BOTH_OUT_RULES else min(rounds)
    game_end = [{"deck": names[0][0], "opponent": names[0][1], "game": profile.id, "turn": end, "p": 1.0,
                 "ci_low": 1.0, "ci_high": 1.0, "cdf": 1.0, "cdf_low": 1.0, "cdf_high": 1.0, "n_trials": None,
                 "method": "exact"}]
    return frame(rows, DECKOUT_COLUMNS), frame(summary, SUMMARY_COLUMNS), frame(game_end, GAME_END_COLUMNS)


def _distribution(hist: np.ndarray, n_done: int, identity: dict, who: str) -> list[dict]:
    """Rows of a simulated turn distribution (``hist[j]``: races that ended on turn ``j + 1``), first to last turn.

    ``who`` is the seat (``first``, ``second``) or ``game``, for the message when nothing ran out.
    """
    turns = np.flatnonzero(hist)
    if turns.size == 0:
        raise DeckstatError(tr(_NEVER_RAN_OUT[who], turns=hist.size))
    span = np.arange(turns[0], turns[-1] + 1)
    low, high = runner.intervals(hist[span], n_done)
    cumulative = np.cumsum(hist)[span]
    cdf_low, cdf_high = runner.intervals(cumulative, n_done)
    return [{**identity, "turn": int(t), "p": hist[span[j]] / n_done, "ci_low": low[j], "ci_high": high[j],
             "cdf": float(cumulative[j] / n_done), "cdf_low": cdf_low[j], "cdf_high": cdf_high[j],
             "n_trials": n_done, "method": "simulate"} for j, t in enumerate(span + 1)]


def _simulated_race(profile: Profile, tallies: np.ndarray, n_done: int, max_rounds: int,
                    names: list[tuple[str, str]]) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The tables of simulated races, from :func:`deckstat.engines.race.race_task` tallies."""
    rows, summary = [], []
    for i, seat in enumerate(SEATS):
        identity = {"deck": names[i][0], "opponent": names[i][1], "game": profile.id, "seat": seat}
        hist = tallies[i, 1:max_rounds + 1]
        turns = np.flatnonzero(hist)
        rows.extend(_distribution(hist, n_done, identity, seat))
        p = hist / n_done
        first = int(tallies[2, i])
        first_low, first_high = runner.wilson_interval(first, n_done)
        summary.append({**identity, "mean_turn": _mean_turn(hist, n_done),
                        "median_turn": int(np.searchsorted(np.cumsum(p), 0.5) + 1),
                        "earliest_turn": int(turns[0] + 1), "latest_turn": int(turns[-1] + 1),
                        "p_runs_out_first": first / n_done, "ci_low": first_low, "ci_high": first_high,
                        "p_same_moment": int(tallies[2, 2]) / n_done, "n_trials": n_done, "method": "simulate"})
    game_end = _distribution(tallies[3, 1:max_rounds + 1], n_done,
                             {"deck": names[0][0], "opponent": names[0][1], "game": profile.id}, "game")
    return frame(rows, DECKOUT_COLUMNS), frame(summary, SUMMARY_COLUMNS), frame(game_end, GAME_END_COLUMNS)
