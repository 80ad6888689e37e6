"""P(event) in a zone, by turn and seat: the question most others build on."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from deckstat._validate import check_events
from deckstat.deck import Deck
from deckstat.engines import runner, tasks
from deckstat.errors import DeckstatError, param
from deckstat.events import to_text
from deckstat.games.profiles import Profile, get_profile
from deckstat.i18n import tr
from deckstat.knowledge import Knowledge
from deckstat.questions import known as known_cards
from deckstat.questions._setup import (
    Setup,
    all_draws,
    check_simulation,
    check_zone,
    each_event,
    pick_method,
    refuse_empty_zone,
    turn_plan,
    zone_size,
)
from deckstat.results import OddsResult, frame
from deckstat.terms import ZONE_NAMES, name_of

ODDS_COLUMNS = ["deck", "game", "event", "seat", "turn", "zone", "zone_size", "p", "ci_low", "ci_high", "n_trials",
                "method"]
#: The turns asked when none are given.
DEFAULT_TURNS = range(7)
KEEP_COLUMNS = ["deck", "game", "event", "mulligan_rule", "mulligan_limit", "keep", "p_keep_first", "ci_low",
                "ci_high", "n_trials", "method"]


@runner.pooled
def odds(deck: Deck, game: str | Profile, event: str | Sequence[str], *,
         turns: int | Iterable[int] = DEFAULT_TURNS,
         seat: str = "both", zone: str = "seen", keep: str | None = None, mulligan: bool = True,
         mulligan_rule: str | None = None, mulligan_limit: int | None = None, resource: str | None = None,
         method: str = "auto", n_trials: int | None = None, rng=None, precision: float | None = None,
         chunk_size: int = runner.DEFAULT_CHUNK, n_workers: int = 1, allow_absent: bool = False,
         max_trials: int = runner.DEFAULT_MAX_TRIALS, priority: str | None = None,
         known: Mapping | Knowledge | None = None, draws: int | Iterable[int] | None = None) -> OddsResult:
    """Probability that an event holds in a zone, by turn and seat.

    Parameters
    ----------
    deck : Deck
        The deck (for Licum, a table holding both decks; the game deck is drawn).
    game : str or Profile
        Game profile id (``"wankul"``, ``"duel-masters"``…) or a ``.toml`` profile path.
    event : str or list of str
        Event expression(s), e.g. ``"Terrain>=1 and [cost<=1]>=1"``.
    turns : int or iterable of int
        Turns to report; turn 0 is the kept opening hand, turn t the state
        after the player's draw step of their t-th turn.
    seat : {"both", "first", "second"}
        Which player's draws to follow.
    zone : {"seen", "hand", "set_aside", "bottom"}
        Where the cards are counted. ``hand`` and ``set_aside`` do not change
        with turns and are reported at turn 0 only. French names (``main``,
        ``dessous``…) and the game's name for its set-aside cards
        (``shields``, ``boucliers``) are read too.
    keep : str, optional
        Keep rule of the mulligan (default: the profile's).
    mulligan : bool
        ``False`` keeps every first hand.
    mulligan_rule : {"bottom", "london", "vancouver", "free", "hearthstone", "pokemon", "none"}, optional
        Replace the profile's mulligan rule, e.g. to compare with published tables.
    mulligan_limit : int, optional
        Mulligans allowed (default: the profile's, or 1).
    resource : str, optional
        Resource group (default: the profile's): the last need of the London,
        Vancouver, free and Hearthstone card choices, with its share of the
        deck times the kept hand size (see ``docs/mulligans.md``).
    method : {"auto", "exact", "simulate"}
        ``auto`` uses the exact engine when it models the rules (no mulligan,
        one bottom mulligan, or the Pokémon rule) and its predicted cost is
        small (at most about a second and 256 MiB, see
        :mod:`deckstat.engines.cost`), the Monte Carlo kernel otherwise; then
        ``provenance["method_reason"]`` says why. ``exact`` forces the exact
        engine, and is refused up front when it would need more than 10
        minutes or 4 GiB.
    n_trials : int, optional
        Simulated trials (default 200 000).
    rng : int, Generator or None
        Seed of the simulation. None draws a fresh seed below 10**9; either
        way ``provenance["seed"]`` is the number that, passed again, gives the
        same numbers (``None`` after a Generator that had already been used:
        then ``seed_entropy`` and ``seed_spawn_key`` record its streams).
        Every event is simulated from the same root seed, so an event's
        numbers do not depend on the others asked with it.
    precision : float, optional
        Simulate until the widest 95% interval's half-width is at most this,
        block by block (the first block at which it holds ends the run).
    chunk_size : int
        With several workers, trials handed out ahead; does not change the
        results.
    n_workers : int
        Processes for the simulation (one pool for every event); does not
        change the results. A script that sets it above 1 must guard its
        top level with ``if __name__ == "__main__":``, as processes started
        by ``multiprocessing`` re-import it.
    allow_absent : bool
        Accept groups (in the events, the keep rule or ``resource``) that
        match no card of the deck. By default such a group is an error that
        lists the values the deck has: a misspelt name or a value the card
        file writes differently would otherwise give a silent 0%.
    max_trials : int
        The most trials a ``precision`` run may spend (default 10**8; it
        bounds nothing else). A precision that even proportions of 0 could
        not reach within it is refused before any trial; otherwise the trials
        needed are estimated after the first block of 131,072 from the
        observed proportions, and a precision that needs more is refused then,
        before the time is spent. A run that reaches ``max_trials`` all the
        same stops with an error. The estimate and the stopping rule are
        recorded in the provenance (``estimated_trials``, ``stopping_rule``).
    priority : str, optional
        Which cards the London, Vancouver, free and Hearthstone mulligans keep,
        most important first, e.g. ``"Terrain=2, [cost<=1]=1, Dragon"`` (a
        group without ``=count`` wants every card of it). Replaces the needs
        read from the keep rule, the event and the resource group.
    known : mapping, optional
        Cards known mid-game, by zone: ``{"hand": "LAINK, 2 DRESSEUSE",
        "gone": "gone.csv", "bottom": "Terrain=2, other=3", "set_aside":
        …, "broken": 2}`` (French zone words too: ``main``, ``défausse``,
        ``dessous``, ``boucliers``, ``brisés``). Each description is a card
        file, a text decklist, names or group counts, or a list of them; see
        docs/known.md. The answer is then exact, with no mulligan: the zone
        ``seen`` counts the hand described, the broken set-aside cards and
        the next cards drawn; turn ``t`` is the state after the draw of the
        player's ``t``-th turn from now (``seat`` ``first`` or ``second``:
        the hand is that seat's opening hand and turn 1 draws as the profile
        says). ``zone="set_aside"`` counts the broken set-aside cards, or
        every set-aside card when none is broken.
    draws : int or iterable of int, optional
        With ``known``: the numbers of next cards drawn to report, instead of turns.

    Returns
    -------
    OddsResult
        ``table``: one row per event, seat and turn, with ``p`` and its 95%
        Wilson interval (equal to ``p`` when exact); ``summary``: per event,
        the rules in force and ``p_keep_first``. With ``known``, ``table``
        has a ``draws`` column (cards drawn from now; ``turn`` is missing when
        ``draws`` was given), ``seat`` is ``now`` unless a seat was given, and
        ``summary`` holds the number of known cards in each zone and the
        ``library`` left to draw before the bottom block.

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "Terrain", "count": 10, "type": "Terrain"},
    ...                                  {"name": "Personnage", "count": 40, "type": "Personnage"}])
    >>> result = deckstat.odds(deck, "wankul", "Terrain>=1", turns=[0], seat="first", mulligan=False)
    >>> round(float(result.table["p"].iloc[0]), 4)  # 1 - C(40,5)/C(50,5)
    0.6894
    """
    texts = check_events(event)
    zone = check_zone(zone, get_profile(game))
    check_simulation(n_trials, precision, chunk_size, n_workers, max_trials, rng=rng)
    if known is not None:
        return _odds_known(deck, game, texts, Knowledge.from_mapping(known), turns=turns, draws=draws, seat=seat,
                           zone=zone, method=method, n_trials=n_trials, precision=precision,
                           keep=keep, mulligan_rule=mulligan_rule, mulligan_limit=mulligan_limit,
                           resource=resource, allow_absent=allow_absent, priority=priority)
    if draws is not None:
        raise DeckstatError(tr("{draws} counts the cards drawn after a known hand; describe it with {known}, or ask "
                               "by {turns}", draws=param("draws"), known=param("known"), turns=param("turns")))
    streams = runner.make_streams(rng) if method != "exact" else None
    rules = {"deck": deck, "game": game, "keep": keep, "mulligan": mulligan, "mulligan_rule": mulligan_rule,
             "mulligan_limit": mulligan_limit, "resource": resource, "allow_absent": allow_absent,
             "priority": priority}
    answer = functools.partial(_odds_one, turns=turns, seat=seat, zone=zone, method=method, n_trials=n_trials,
                               streams=streams, precision=precision, chunk_size=chunk_size, n_workers=n_workers,
                               max_trials=max_trials)
    table, summary, provenance = each_event(texts, rules, answer, "odds")
    return OddsResult(table=table, summary=summary, provenance=provenance)


def _odds_known(deck: Deck, game, texts: list[str], knowledge: Knowledge, *, turns, draws, seat, zone, method,
                n_trials, precision, keep, mulligan_rule, mulligan_limit, resource, allow_absent,
                priority) -> OddsResult:
    """:func:`odds` with known cards: exact, no mulligan (see :mod:`deckstat.questions.known`)."""
    known_cards.check_known_question(method=method, keep=keep, mulligan_rule=mulligan_rule,
                                     mulligan_limit=mulligan_limit, resource=resource, zone=zone,
                                     priority=priority, n_trials=n_trials, precision=precision)
    rules = {"deck": deck, "game": game, "keep": None, "mulligan": False, "mulligan_rule": None,
             "mulligan_limit": None, "resource": None, "allow_absent": allow_absent}

    def answer(setup: Setup):
        refuse_empty_zone(setup.profile, zone)
        rows = known_cards.plan(setup, turns=turns, draws=draws, seat=seat, zone=zone,
                                turns_given=turns is not DEFAULT_TURNS)
        return known_cards.answer(setup, knowledge, zone=zone, rows=rows)

    table, summary, provenance = each_event(texts, rules, answer, "odds")
    return OddsResult(table=table, summary=summary, provenance=provenance)


def _odds_one(setup: Setup, *, turns, seat, zone, method, n_trials, streams, precision, chunk_size,
              n_workers, max_trials) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    profile = setup.profile
    turn_list, per_seat = turn_plan(setup, turns, seat, zone)
    draws = all_draws(per_seat)
    chosen, reason = pick_method(setup, method, cost=lambda: setup.exact_cost(setup.condition(0), draws, zone))
    provenance = dict(setup.provenance)
    if reason:
        provenance["method_reason"] = reason
    if chosen == "exact":
        probs, p_keep = setup.exact_odds(setup.condition(0), draws, zone)
        probs = np.clip(probs, 0.0, 1.0)
        low, high, n_done = probs, probs, None
        keep_p = keep_low = keep_high = float(np.clip(p_keep, 0.0, 1.0))
    else:
        if streams is None:
            streams = runner.make_streams(None)
        task = functools.partial(tasks.odds_task, setup.deal_spec(max(draws)), setup.events, zone, tuple(draws))
        settings = {"chunk_size": chunk_size, "n_workers": n_workers,
                    "description": tr("odds {event} ({zone})", event=to_text(setup.events[0]),
                                              zone=name_of(ZONE_NAMES, zone))}
        hits, n_done, stopping = runner.simulate_until(
            task, streams, precision, n_trials=n_trials, max_trials=max_trials,
            widest=lambda tallies, n: runner.widest_half_width(tallies[:-1], n), **settings)
        probs = hits[0] / n_done
        low, high = runner.intervals(hits[0], n_done)
        kept = int(hits[-1, 0])
        keep_p = kept / n_done
        keep_low, keep_high = runner.wilson_interval(kept, n_done)
        provenance.update(runner.provenance(streams, precision, stopping))
    by_draws = {d: (p, lo, hi) for d, p, lo, hi in zip(draws, probs, low, high)}
    text = to_text(setup.events[0])
    identity = {"deck": setup.deck.name, "game": profile.id, "event": text}
    records = []
    for seat_name, seat_draws in per_seat.items():
        for t, d in zip(turn_list, seat_draws):
            p, lo, hi = by_draws[d]
            records.append({**identity, "seat": seat_name, "turn": t, "zone": zone,
                            "zone_size": zone_size(profile, zone, d), "p": float(p), "ci_low": float(lo),
                            "ci_high": float(hi), "n_trials": n_done, "method": chosen})
    table = frame(records, ODDS_COLUMNS, integers=("n_trials", "zone_size"))
    summary = frame([{**identity, "mulligan_rule": setup.rule, "mulligan_limit": setup.limit, "keep": setup.keep_text,
                      "p_keep_first": keep_p, "ci_low": keep_low, "ci_high": keep_high, "n_trials": n_done,
                      "method": chosen}], KEEP_COLUMNS, integers=("n_trials", "mulligan_limit"))
    return table, summary, provenance
