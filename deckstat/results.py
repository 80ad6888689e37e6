"""The shape of every answer: named tidy tables, and how to reproduce them.

Each question returns a :class:`Result`: one or more long ("tidy") pandas
DataFrames whose column names are shared across questions (``deck``,
``game``, ``event``, ``seat``, ``turn``, ``zone`` identify a row; ``p``,
``ci_low``, ``ci_high``, ``n_trials``, ``method`` give its number), so the
tables of several decks or games can be joined with ``pd.concat`` and keep
every identity column. Summaries that are answers (a keep rate, a recommended
count, who runs out first) are tables too.

``provenance`` records how to reproduce the numbers: the rules in force, the
seed of simulated parts (``seed``, the number to pass again as ``rng``, and
the root ``SeedSequence`` it makes, ``seed_entropy`` and ``seed_spawn_key``),
and the deckstat version. It
is also copied into every table's ``attrs`` and written by the command line's
``--format json`` and ``--format csv``.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, fields
from typing import ClassVar

import pandas as pd

#: Columns that identify a row, in the order results put them first.
IDENTITY_COLUMNS = ("deck", "opponent", "game", "event", "seat", "turn", "zone")


@dataclass(frozen=True, kw_only=True, repr=False)
class Result:
    """Tables answering one question, with their provenance.

    Attributes
    ----------
    provenance : dict
        How to reproduce the tables (JSON-ready values).
    """

    question: ClassVar[str] = ""
    provenance: dict

    def __post_init__(self) -> None:
        for frame in self.frames().values():
            frame.attrs = dict(self.provenance)

    def frames(self) -> dict[str, pd.DataFrame]:
        """The result's tables by name, main table first (tables not asked for are left out)."""
        out = {}
        for spec in fields(self):
            value = getattr(self, spec.name)
            if isinstance(value, pd.DataFrame):
                out[spec.name] = value
        return out

    def __repr__(self) -> str:
        parts = [f"{type(self).__name__} ({self._headline()})"]
        for name, frame in self.frames().items():
            parts.append(f"{name}: {len(frame)} row{'s' if len(frame) != 1 else ''}")
            parts.append(frame.to_string(max_rows=20, max_cols=14, index=False))
        return "\n".join(parts)

    def _repr_html_(self) -> str:
        parts = [f"<p><b>{html.escape(type(self).__name__)}</b> ({html.escape(self._headline())})</p>"]
        for name, frame in self.frames().items():
            parts.append(f"<p><code>.{html.escape(name)}</code></p>")
            parts.append(frame.to_html(max_rows=30, index=False))
        return "\n".join(parts)

    def _headline(self) -> str:
        shown = [f"{key} {self.provenance[key]}" for key in ("game", "mulligan_rule")
                 if self.provenance.get(key) is not None]
        if self.provenance.get("seed") is not None:
            shown.append(f"seed {self.provenance['seed']}")
        elif self.provenance.get("seed_entropy") is not None:
            shown.append(f"seed entropy {self.provenance['seed_entropy']}")
        return ", ".join(shown)


@dataclass(frozen=True, kw_only=True, repr=False)
class OddsResult(Result):
    """P(event) in a zone by turn and seat; see :func:`deckstat.odds`.

    Attributes
    ----------
    table : pandas.DataFrame
        ``deck``, ``game``, ``event``, ``seat``, ``turn``, ``zone``,
        ``zone_size``, ``p``, ``ci_low``, ``ci_high``, ``n_trials``, ``method``.
    summary : pandas.DataFrame
        One row per deck and event: the rules in force and ``p_keep_first``
        (the first hand is kept) with its interval.
    droughts : pandas.DataFrame or None
        Where the game draws more cards in a drought than its turns do
        (Wankul) and ``table`` leaves them out: per event, seat and turn,
        ``p_without`` (the answer of ``table``) and ``p`` with the drought
        draws of both players' turns, simulated, with its interval.
    effects : pandas.DataFrame or None
        Where the deck's cards draw, search or look (a ``draw`` column,
        ``pioche``, ``cherche``, ``regarde`` effects): per event, seat and turn,
        on the same simulated games, ``p_without`` and ``p`` with the effects played (both with the
        drought draws where ``droughts``, Wankul), and ``gain`` = ``p -
        p_without`` with its interval.
    """

    question: ClassVar[str] = "odds"
    table: pd.DataFrame
    summary: pd.DataFrame
    droughts: pd.DataFrame | None = None
    effects: pd.DataFrame | None = None


@dataclass(frozen=True, kw_only=True, repr=False)
class WhenResult(Result):
    """The first turn an event holds; see :func:`deckstat.when`.

    Attributes
    ----------
    table : pandas.DataFrame
        ``deck``, ``game``, ``event``, ``seat``, ``turn``, ``p`` (first holds
        on that turn), ``ci_low``, ``ci_high``, ``cdf`` (holds by that turn),
        ``cdf_low``, ``cdf_high``, ``n_trials``, ``method``.
    summary : pandas.DataFrame
        Per event and seat: ``max_turn``, ``mean_turn`` and ``median_turn``
        (among games where it holds by ``max_turn``), ``p_never``.
    droughts, effects : pandas.DataFrame or None
        As :attr:`OddsResult.droughts` and :attr:`OddsResult.effects`, ``p_without`` and ``p`` being the
        event's having held by the turn (the ``cdf``).
    """

    question: ClassVar[str] = "when"
    table: pd.DataFrame
    summary: pd.DataFrame
    droughts: pd.DataFrame | None = None
    effects: pd.DataFrame | None = None


@dataclass(frozen=True, kw_only=True, repr=False)
class CurveResult(Result):
    """Playability by turn; see :func:`deckstat.curve`.

    Attributes
    ----------
    table : pandas.DataFrame
        ``deck``, ``game``, ``target``, ``seat``, ``turn``, ``p`` (playable on
        or before that turn), ``ci_low``, ``ci_high``, ``n_trials``, ``method``,
        ``policy``.
    summary : pandas.DataFrame
        Per target and seat: ``max_turn``, ``mean_turn`` and ``median_turn``
        (first playable turn, among games where the target is playable by
        ``max_turn``), ``p_never`` with ``p_never_low`` and ``p_never_high``.
    scoring : pandas.DataFrame or None
        When the play model scores Terrains by assumption (Wankul: « Certains effets de cartes vous permettent de
        scorer un Terrain »; the model scores each at the first legal moment): ``table``'s rows at both ends,
        ``terrain_scoring`` = ``first_legal_moment`` (the answer) or ``never``, on the same random games.
    effects : pandas.DataFrame or None
        When the deck's cards draw and the play model plays draw effects (Wankul, Duel Masters): per target, seat
        and turn, on the same simulated games, ``p_without`` and ``p`` with the draw effects played, and ``gain`` =
        ``p - p_without`` with its interval.
    drought_play : pandas.DataFrame or None
        When the play model lets the player play once a drought's Terrain is in play (Wankul: « ils ne peuvent
        pas jouer d'autres cartes » read as lasting while the drought lasts): ``table``'s rows at both ends of
        that reading, ``play_after_drought`` True (the answer) or False (nothing played in that turn), on the
        same random games.
    """

    question: ClassVar[str] = "curve"
    table: pd.DataFrame
    summary: pd.DataFrame
    scoring: pd.DataFrame | None = None
    effects: pd.DataFrame | None = None
    drought_play: pd.DataFrame | None = None


@dataclass(frozen=True, kw_only=True, repr=False)
class MulliganResult(Result):
    """What a mulligan rule does to a deck; see :func:`deckstat.mulligan`.

    Attributes
    ----------
    summary : pandas.DataFrame
        One row: the rule, ``p_keep_first`` with its interval, ``expected_mulligans``.
    mulligans : pandas.DataFrame
        ``mulligans`` taken (0..limit) and ``p``.
    kept_hand : pandas.DataFrame
        ``group``, ``count``, ``p``: each group's count in the kept hand.
    by_turn : pandas.DataFrame
        ``event``, ``seat``, ``turn``, ``mulligan_rule`` (the rule, or
        ``none`` for keeping every first hand), ``p`` and its interval.
    played : pandas.DataFrame or None
        When ``by_turn`` leaves out drought draws (Wankul) or card effects: its rows with them played on
        simulated games, ``p_without`` (``by_turn``'s ``p``), ``p`` and its interval, ``droughts``, ``effects``,
        ``n_trials`` (under the bottom mulligan or none).
    """

    question: ClassVar[str] = "mulligan"
    summary: pd.DataFrame
    mulligans: pd.DataFrame
    kept_hand: pd.DataFrame
    by_turn: pd.DataFrame
    played: pd.DataFrame | None = None


@dataclass(frozen=True, kw_only=True, repr=False)
class HandAdviceResult(Result):
    """Keep or mulligan one opening hand; see :func:`deckstat.hand_advice`.

    Attributes
    ----------
    table : pandas.DataFrame
        Per seat: ``hand``, ``turn``, ``p_keep`` and ``p_mulligan`` (P(event
        by the turn) either way), ``margin`` (``p_keep - p_mulligan``),
        ``advice`` (``keep``, ``mulligan``, or under Hearthstone ``replace:
        …``), ``forced`` (the rule decides, Pokémon), ``later`` (what the
        mulligan's value assumes about later decisions), ``method``.
    """

    question: ClassVar[str] = "hand_advice"
    table: pd.DataFrame


@dataclass(frozen=True, kw_only=True, repr=False)
class KeepPolicyResult(Result):
    """The best keep rule and its gain over a keep rule; see :func:`deckstat.keep_policy`.

    Attributes
    ----------
    summary : pandas.DataFrame
        Per seat: ``choice`` (what the rule lets the player decide),
        ``p_best`` (P(event by the turn) with the best decisions),
        ``p_keep_rule`` (with the keep rule), ``gain``, and how often each
        keeps the first hand.
    policy : pandas.DataFrame
        Per seat and first-hand composition (``hand``, by group): ``p_hand``,
        ``p_keep``, ``p_mulligan``, ``margin``, ``decision``, what the keep
        rule does (``keep_rule``) and its value (``p_keep_rule``).
    """

    question: ClassVar[str] = "keep_policy"
    summary: pd.DataFrame
    policy: pd.DataFrame


@dataclass(frozen=True, kw_only=True, repr=False)
class RatioResult(Result):
    """The resource-count sweep; see :func:`deckstat.ratio`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per resource count, event and turn: P(event) and the facts of
        the rebuilt deck (legality, hand odds, mulligan rate, first resource
        turn, deck-out turns, ``target_status``).
    summary : pandas.DataFrame
        One row per event: the target and the ``recommended`` count (always a
        legal deck), the kind of ``decision`` (``decided``, ``none``,
        ``undecided``, ``no target``), and the smallest count reaching the
        target, legal or not (``smallest_reaching``). Under the curve
        objective the table gains ``target_copies``, ``play_model`` and
        ``policy``, the summary ``objective``, ``best``, ``best_decision``,
        ``close_to_best``, ``play_model`` and ``policy``.
    played : pandas.DataFrame or None
        When each count's P(event) leaves out drought draws (Wankul) or card effects: per count, event and turn,
        ``p_without`` (the table's ``p``) and ``p`` with them played on simulated games, its interval,
        ``droughts``, ``effects``, ``n_trials`` (as :attr:`OddsResult.effects`).
    """

    question: ClassVar[str] = "ratio"
    table: pd.DataFrame
    summary: pd.DataFrame
    played: pd.DataFrame | None = None


@dataclass(frozen=True, kw_only=True, repr=False)
class SensitivityResult(Result):
    """What a copy fewer and a copy more of each card change; see :func:`deckstat.sensitivity`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per card and move (``-1``, ``+1``): ``count``, ``count_after``, ``change`` (the objectives'
        weighted change, a probability difference) with ``ci_low``/``ci_high``, ``legal`` and ``violation``
        (the rule the move breaks), and for a move that breaks one its legal version at the deck's size:
        ``swap_card`` (the card that makes room, or the filler that fills) and ``swap_change`` with
        ``swap_ci_low``/``swap_ci_high``; ``method``. Cards that move the answer most come first.
    objectives : pandas.DataFrame
        One row per objective: ``objective``, ``kind``, ``target``, ``turn``, ``seat``, ``weight``, and the
        deck's own ``p`` with its interval.
    detail : pandas.DataFrame
        Each objective's ``p`` and ``change`` for each move and legal version (``swap_card``).
    """

    question: ClassVar[str] = "sensitivity"
    table: pd.DataFrame
    objectives: pd.DataFrame
    detail: pd.DataFrame


@dataclass(frozen=True, kw_only=True, repr=False)
class OptimiseResult(Result):
    """The best legal deck found from a pool and a collection; see :func:`deckstat.optimise`.

    Attributes
    ----------
    best : Deck
        The best deck found (the deck itself when nothing beats it).
    table : pandas.DataFrame
        The deck as it is (``current``), ``start`` when given, and the ``best``: ``value`` (the objectives'
        weighted sum), ``gain`` over the deck, ``legal``.
    objectives : pandas.DataFrame
        Each objective's ``p_current``, ``p_best`` and ``change``.
    cards : pandas.DataFrame
        The best deck's card differences from the deck (:func:`deckstat.card_differences`).
    tied : pandas.DataFrame
        Legal decks found with the best value (``cards`` as ``3 A, 2 B``).
    front : pandas.DataFrame or None
        With two objectives: the legal decks checked that no other beats on both (``p_1``, ``p_2``).
    """

    question: ClassVar[str] = "optimise"
    best: object
    table: pd.DataFrame
    objectives: pd.DataFrame
    cards: pd.DataFrame
    tied: pd.DataFrame
    front: pd.DataFrame | None = None


@dataclass(frozen=True, kw_only=True, repr=False)
class CombosResult(Result):
    """Combo lines met by different physical cards; see :func:`deckstat.combos`.

    Attributes
    ----------
    table : pandas.DataFrame
        Per line (``kind`` ``line``), for the lines together (``any``) and for what each line alone adds
        (``alone``), by seat and turn: ``p`` with ``ci_low``/``ci_high``, ``n_trials``, ``method``, and the
        ``event`` asked.
    lines : pandas.DataFrame
        Each line's requirements, as written.
    """

    question: ClassVar[str] = "combos"
    table: pd.DataFrame
    lines: pd.DataFrame


@dataclass(frozen=True, kw_only=True, repr=False)
class DeckoutResult(Result):
    """The turn each seat runs out of cards; see :func:`deckstat.deckout`.

    Attributes
    ----------
    table : pandas.DataFrame
        ``deck`` (the seat's deck), ``opponent``, ``game``, ``seat``, ``turn``,
        ``p`` (runs out on that turn), ``ci_low``, ``ci_high``, ``cdf``,
        ``cdf_low``, ``cdf_high``, ``n_trials``, ``method``.
    summary : pandas.DataFrame
        Per seat: ``mean_turn``, ``median_turn``, ``earliest_turn``,
        ``latest_turn``, ``p_runs_out_first`` (this seat runs out strictly
        before the other) with ``ci_low``/``ci_high``, ``p_same_moment``.
    game_end : pandas.DataFrame or None
        ``deck`` (the first seat's), ``opponent``, ``game``, ``turn``, ``p``
        (the game ends by deck-out on that turn) and ``cdf``, with
        intervals: the earlier seat's deck-out, or the later one where the
        game ends only when both players cannot draw (Licum);
        ``provenance["game_end_text"]`` says which.
    scoring : pandas.DataFrame or None
        When the answer rests on the profile's Terrain-scoring assumption (Wankul: « Certains effets de cartes
        vous permettent de scorer un Terrain », the default scores each Terrain at the first legal moment): per
        ``terrain_scoring`` end (``first_legal_moment``, the answer's; ``never``) and seat, ``median_turn``,
        ``mean_turn``, ``earliest_turn``, ``latest_turn``, on the same random games. None otherwise.
    """

    question: ClassVar[str] = "deckout"
    table: pd.DataFrame
    summary: pd.DataFrame
    game_end: pd.DataFrame | None = None
    scoring: pd.DataFrame | None = None


@dataclass(frozen=True, kw_only=True, repr=False)
class CompareResult(Result):
    """The same question for several decks; see :func:`deckstat.compare`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per other deck, event, seat and turn: ``deck_a``, ``deck_b``,
        ``p_a``, ``p_b``, ``diff`` (``p_b - p_a``), ``diff_ci_low``,
        ``diff_ci_high``, ``p_value``.
    odds : pandas.DataFrame
        Each deck's own odds, shaped like :attr:`OddsResult.table`.
    cards : pandas.DataFrame
        Card differences of each deck from the first.
    deckout : pandas.DataFrame or None
        With ``deckout=True``: each deck's deck-out summary against a copy of itself.
    ratio : pandas.DataFrame or None
        With ``ratio_counts``: each deck's resource-count sweep.
    played : pandas.DataFrame or None
        When a deck's answer leaves out drought draws or card effects: ``deck_a``, ``deck_b``, ``event``,
        ``seat``, ``turn``, ``p_a``, ``p_b``, ``diff`` with them played (simulated), ``diff_ci_low``,
        ``diff_ci_high``, ``diff_without`` (the answer's), ``droughts``, ``effects_a``, ``effects_b``,
        ``n_trials``.
    """

    question: ClassVar[str] = "compare"
    table: pd.DataFrame
    odds: pd.DataFrame
    cards: pd.DataFrame
    deckout: pd.DataFrame | None = None
    ratio: pd.DataFrame | None = None
    played: pd.DataFrame | None = None


@dataclass(frozen=True, kw_only=True, repr=False)
class ValidationResult(Result):
    """A deck checked against its game's construction rules; see :func:`deckstat.validate`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per violation: ``deck``, ``game``, ``part`` (which of the
        game's decks), ``rule``, ``level``, ``subject``, ``found``,
        ``allowed``, ``message``.
    summary : pandas.DataFrame
        One row: ``deck``, ``game``, ``deck_size``, ``legal``, ``errors``, ``warnings``.
    """

    question: ClassVar[str] = "validate"
    table: pd.DataFrame
    summary: pd.DataFrame

    @property
    def legal(self) -> bool:
        """Whether no construction rule is broken (warnings allowed)."""
        return bool(self.summary["legal"].iloc[0])


def frame(records: list[dict], columns: list[str], *, integers: tuple[str, ...] = ("n_trials",)) -> pd.DataFrame:
    """A result table from records, with nullable integer columns for counts that may be missing."""
    table = pd.DataFrame.from_records(records, columns=columns)
    for column in integers:
        if column in table.columns:
            table[column] = table[column].astype("Int64")
    return table
