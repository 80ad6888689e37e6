"""What every question shares: rules in force, events compiled to cells, the method, the turns, provenance.

A question resolves its game profile and rules once (:func:`prepare`),
which parses the events and the keep rule, checks that their groups mean
something for this deck, and partitions the drawn deck into cells; then it
picks an engine (:func:`choose_method`) and lays out the draws each seat has
made by each turn (:func:`turn_plan`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np
import pandas as pd

from deckstat._validate import (
    check_choice,
    check_deck,
    check_half_width,
    check_optional_whole,
    check_seats,
    check_turns,
    check_whole,
)
from deckstat._version import __version__
from deckstat.deck import LIST_SEPARATOR, Deck, attribute_column, card_rows, column_values, has_word
from deckstat.engines import exact
from deckstat.engines.cells import partition
from deckstat.engines.cost import Cost, dry_run, format_bytes, format_seconds, grid_floor, too_many_axes
from deckstat.engines.runner import check_seed, check_trials
from deckstat.engines.tasks import DealSpec
from deckstat.errors import DeckstatError, ExpressionError, param
from deckstat.events import (
    COUNT_OPS,
    TEXT_OPS,
    And,
    AttributeGroup,
    Cards,
    Count,
    DistinctGroup,
    Event,
    Group,
    NameGroup,
    Not,
    Or,
    PatternGroup,
    evaluate,
    expression_source,
    groups_of,
    parse_event,
    parse_group,
    saturation_caps,
)
from deckstat.games.profiles import Profile, get_profile
from deckstat.i18n import N_, number, tr, trn
from deckstat.parsing import find_top_level, split_top_level, whole_text
from deckstat.schema import canonical_column
from deckstat.terms import (
    DECKOUT_RULES,
    FIXED_ZONES,
    MAX_MULLIGANS,
    MAX_REDEALS,
    METHODS,
    MOST_CHUNK,
    MULLIGAN_RULES,
    REDEAL_LIMIT,
    ZONE_ALIASES,
    ZONES,
)
from deckstat.text import fold, suggest

#: Mulligan rules that choose cards by the needs policy (London's bottom cards, Vancouver's scry, Hearthstone's
#: replaced cards), and so read the resource group.
RESOURCE_MULLIGANS = ("london", "vancouver", "free", "hearthstone")
#: ``method="auto"`` uses the exact engine when its predicted time and peak memory stay within these
#: (:mod:`deckstat.engines.cost`): beyond, simulating is faster at the default trial counts.
AUTO_EXACT_SECONDS = 1.0
AUTO_EXACT_BYTES = 256 * 2**20
#: ``method="exact"`` is refused up front beyond these.
MAX_EXACT_SECONDS = 600.0
MAX_EXACT_BYTES = 4 * 2**30
#: The memory the method being chosen may use (:func:`pick_method` sets it while it asks for the cost):
#: :meth:`Setup.exact_cost` does not dry-run a question whose masks alone need more.
_COST_MEMORY_LIMIT: ContextVar[int] = ContextVar("deckstat_cost_memory_limit", default=MAX_EXACT_BYTES)
#: Values an "absent group" message lists before "…".
SHOWN_VALUES = 8
#: How an "absent group" message names the cards looked at, by the ``scope`` the questions give.
_SCOPES = {"this deck": N_("of this deck"), "any deck compared": N_("of any deck compared"),
           "the deck at any count swept": N_("of the deck at any count swept")}
#: The advice when a word is a whole word of values of a column, by column (``~=``; other columns: ``None``).
_WHOLE_WORD_ADVICE = {
    "type": N_("; use {label} to match a whole word of a type ({values})"),
    "tags": N_("; use {label} to match a whole word of a tag ({values})"),
    "name": N_("; use {label} to match a whole word of a card name ({values})"),
    None: N_("; use {label} to match a whole word of a {column} value ({values})"),
}
#: A turn whose draws the deck cannot supply, by seat.
_TOO_LATE = {
    "first": N_("turn {turn} needs {draws} for the first player, but the opening hand leaves {left} in the deck; "
                "{option} can go up to turn {last}"),
    "second": N_("turn {turn} needs {draws} for the second player, but the opening hand leaves {left} in the deck; "
                 "{option} can go up to turn {last}"),
}
#: A turn the game never reaches for a seat, because the other player's last draw ends it first (JdG).
_GAME_OVER = {
    "first": N_("turn {turn} never comes for the first player: with two {size}-card decks the second player draws "
                "their last card on their turn {end}, and {rule}; {option} can go up to turn {last}"),
    "second": N_("turn {turn} never comes for the second player: with two {size}-card decks the first player draws "
                 "their last card on their turn {end}, and {rule}; {option} can go up to turn {last}"),
}


def check_card_types(deck: Deck, profile: Profile) -> None:
    """Refuse a type column that writes the game's card types in the plural (``Terrains``).

    Such a deck would load, then count no ``Terrain`` at all.
    """
    if "type" not in deck.cards.columns or not profile.card_types:
        return
    singular = {fold(t): t for t in profile.card_types}
    for value in dict.fromkeys(v for v in deck.cards["type"] if isinstance(v, str)):
        for item in (v.strip() for v in value.split(LIST_SEPARATOR)):
            key = fold(item)
            if key in singular or key[-1:] not in ("s", "x") or key[:-1] not in singular:
                continue
            rows = [isinstance(v, str) and key in {fold(t) for t in v.split(LIST_SEPARATOR)}
                    for v in deck.cards["type"]]
            cards = int(deck.counts[rows].sum())
            raise DeckstatError(tr("type {type!r} ({cards} cards, e.g. {card!r}) is not a {game} card type; did you "
                                   "mean {singular!r}? The card types are {types}, in the singular", type=item,
                                   cards=cards, card=deck.labels[rows.index(True)], game=profile.name,
                                   singular=singular[key[:-1]], types=", ".join(profile.card_types)),
                                source=deck.source, column="type")


def check_groups(deck: Deck, event: Event, profile: Profile, what: str, text: str, *, allow_absent: bool = False,
                 remedy: str | None = None, scope: str = "this deck") -> None:
    """Refuse groups of ``event`` that match no card of ``deck``, unless ``allow_absent``.

    An unknown attribute is refused in any case. A group that matches no card
    would make every answer about it 0 (or 1) for a reason the player did not
    mean, most often a value spelled as the card file does not (``Feu`` in an
    English file, ``Dragon`` for ``Armored Dragon``), so the message lists the
    values the deck has and suggests the fix. ``deck`` should carry the
    profile's synonyms (:meth:`Deck.with_synonyms`).

    Parameters
    ----------
    deck : Deck
    event : Event
    profile : Profile
    what, text : str
        How the expression is named in the message (``event``, ``keep rule``) and its text.
    allow_absent : bool
        Accept groups that match no card (a deliberate question about an absent card).
    remedy : str, optional
        What the message suggests instead of :func:`param` ``allow_absent=True``.
    scope : str
        How the message names ``deck`` (``"any deck compared"`` for a pooled deck, see :func:`pooled`).

    Raises
    ------
    ExpressionError
    """
    check_card_types(deck, profile)
    for group in _checked_groups(event):
        try:
            matches = deck.mask(group).any()
        except ExpressionError as exc:
            # An unknown attribute: name the expression the player typed, where the position points.
            inner = group.group if isinstance(group, DistinctGroup) else group
            raise ExpressionError(exc.message, source=expression_source(what, repr(text)),
                                  column=inner.position) from None
        if matches or allow_absent:
            continue
        raise absent_group_error(deck, group, profile, what, text, remedy=remedy, scope=scope)


def _checked_groups(event: Event) -> list:
    """The groups of ``event`` a deck must have cards of.

    For a ``distinct_cards(...)``, its requirements' groups, each once, rather than the combinations of requirements
    the engines count (many of which no deck has).
    """
    out: dict[str, object] = {}
    for key, group in groups_of(event).items():
        if isinstance(group, PatternGroup):
            for requirement in group.requirements:
                for alternative in requirement.groups:
                    out.setdefault(alternative.key, alternative)
        else:
            out.setdefault(key, group)
    return list(out.values())


def pooled(decks: Iterable[Deck], profile: Profile) -> Deck:
    """Every card of ``decks`` in one table, with the profile's synonyms.

    A group matches a card of the pooled deck exactly when it matches a card
    of one of the decks, so questions over several decks (compare, the ratio
    sweep) refuse only groups that no deck has.
    """
    tables = [d.cards for d in decks]
    return Deck.from_table(pd.concat(tables, ignore_index=True), source="pooled decks").with_synonyms(
        profile.synonyms)


def check_pooled(decks: Iterable[Deck], profile: Profile, events: Iterable[str], *, keep: str | None,
                 keep_text: str | None, resource: str | None, scope: str) -> None:
    """Refuse groups of ``events``, the keep rule or ``resource`` that match no card of any of ``decks``.

    ``keep`` is the keep rule given (``None``: ``keep_text`` is the profile's default).
    """
    pool = pooled(decks, profile)
    for text in events:
        check_groups(pool, parse_event(text), profile, "event", text, scope=scope)
    if keep_text is not None:
        check_groups(pool, parse_event(keep_text, what="keep rule"), profile, "keep rule", keep_text, scope=scope,
                     remedy=default_keep_remedy(profile) if keep is None else None)
    if resource is not None:
        check_groups(pool, Count(parse_group(resource), ">=", 1), profile, "resource group", resource, scope=scope)


def absent_group_error(deck: Deck, group, profile: Profile, what: str, text: str, *, scope: str = "this deck",
                       remedy: str | None = None) -> ExpressionError:
    """The error for a group of ``what`` ``text`` that matches no card of ``deck`` (``scope`` names the decks)."""
    if remedy is None:
        remedy = tr("to ask about it anyway, pass {option}", option=param("allow_absent", True))
    scope = tr(_SCOPES[scope]) if scope in _SCOPES else f"of {scope}"
    if isinstance(group, DistinctGroup):
        group = group.group  # distinct(G) has cards exactly when G has
    if isinstance(group, NameGroup):
        message = _absent_word(deck, group, profile, scope)
    else:
        message = _absent_attribute(deck, group, scope)
    return ExpressionError(tr("{message}; {remedy}", message=message, remedy=remedy),
                           source=expression_source(what, repr(text)), column=group.position)


def _listed(values: list[str]) -> str:
    shown = ", ".join(values[:SHOWN_VALUES])
    return shown + ", …" if len(values) > SHOWN_VALUES else shown


def _partial_hint(deck: Deck, column: str, texts: Iterable[str], whole_word: bool) -> tuple[str, list[str]]:
    """How the values of ``column`` hold one of ``texts``: ``("~=", values)``, ``("~", values)`` or ``("", [])``.

    ``~=`` when some hold it as a whole word (only asked when ``whole_word``), else ``~`` when some hold it inside a
    longer word; ``values`` are those matched, as the deck writes them.
    """
    texts = list(texts)
    values = column_values(deck, column)
    if whole_word:
        whole = [v for v in values if any(has_word(fold(v), t) for t in texts)]
        if whole:
            return "~=", whole
    inside = [v for v in values if any(t in fold(v) for t in texts)]
    return ("~", inside) if inside else ("", [])


def _inside_word(column: str, target: str, values: list[str]) -> str:
    """What a message says when ``target`` is no whole word of ``column``'s values, only part of longer words.

    ``~`` would count those values (``Dragonoid`` for ``Dragon``): they are named, not offered as the fix.
    """
    return tr("; no {column} value holds the word {text!r}, only longer words that contain it ({values}), which "
              "{label} would count", column=column, text=target, values=_listed(values),
              label=AttributeGroup(column, "~", target).label)


def _absent_attribute(deck: Deck, group: AttributeGroup, scope: str) -> str:
    column = attribute_column(deck, group.attribute)
    values = column_values(deck, column)
    canonical = canonical_column(group.attribute)
    message = tr("{group} matches no card {scope}", group=group.label, scope=scope)
    message += tr("; its {attribute} values are {values}", attribute=group.attribute, values=_listed(values)) \
        if values else tr("; no card of it has a {attribute} value", attribute=group.attribute)
    if group.op == "!=" or (isinstance(group.value, float) and group.op not in TEXT_OPS):
        return message  # every card has the value, or a number compared: the values say it all
    target = str(group.value)
    wanted = deck.synonyms.equivalents(canonical, target)
    kind, matched = _partial_hint(deck, column, wanted, whole_word=group.op != "~=") \
        if group.op in ("=", "==", "~=") else ("", [])
    if kind == "~=":
        # Some value holds the word: the operator, not the spelling, is what to change.
        label = AttributeGroup(group.attribute, kind, target).label
        return message + tr("; use {op} to match a whole word of a value: {label} ({values})", op=kind, label=label,
                            values=_listed(matched))
    if kind == "~":
        return message + _inside_word(group.attribute, target, matched)
    return message + suggest(target, values)


def _text_columns(deck: Deck) -> list[str]:
    """The columns a bare word may be a whole word of, in the order advice looks at them.

    Types and tags first, then the other text attributes (race, civilization, family…), card names last.
    """
    skip = {"name", "count", "type", "tags", "number", "deck"}
    others = [str(c) for c in deck.cards.columns if c not in skip and any(isinstance(v, str) for v in deck.cards[c])]
    return [c for c in ("type", "tags") if c in deck.cards.columns] + others + ["name"]


def _absent_word(deck: Deck, group: NameGroup, profile: Profile, scope: str) -> str:
    game_types = {fold(s) for t in profile.card_types for s in [t, *deck.synonyms.spellings("type", t)]}
    if group.key in game_types:
        message = tr("{group} is a card type of {game}, but no card {scope} has it", group=group.label,
                     game=profile.name, scope=scope)
    else:
        message = tr("{group} matches no card type, tag or card name {scope}", group=group.label, scope=scope)
    for column, listing in (("type", N_("; its types are {values}")), ("tags", N_("; its tags are {values}"))):
        values = column_values(deck, column)
        if values:
            message += tr(listing, values=_listed(values))
    columns = _text_columns(deck)
    hints = {c: _partial_hint(deck, c, deck.synonyms.equivalents(canonical_column(c), group.text), whole_word=True)
             for c in columns}
    # A whole word of some column is what the word most likely means (Dragon: the race Armored Dragon), wherever
    # it is; a card name is only the last place looked.
    whole = next((c for c in columns if hints[c][0] == "~="), None)
    if whole is not None and whole != "name" and any(fold(v) == group.key for v in hints[whole][1]):
        # The word is a whole value (the race Dragonoid): the attribute is all that is missing.
        return message + tr("; use {label} to match the cards of that {column} value", column=whole,
                            label=AttributeGroup(whole, "=", group.text).label)
    if whole is not None:
        advice = _WHOLE_WORD_ADVICE.get(whole, _WHOLE_WORD_ADVICE[None])
        return message + tr(advice, label=AttributeGroup(whole, "~=", group.text).label, column=whole,
                            values=_listed(hints[whole][1]))
    # A card as a decklist line names it ("CT #83" when the deck holds one CT, labelled "CT"): its label.
    rows = card_rows(deck, group.text)
    if rows:
        return message + tr("; did you mean {name!r}?", name=deck.labels[rows[0]])
    # Never the group itself back: a card type of the game that the deck lacks would be suggested for itself.
    message += suggest(group.text, sorted(w for w in deck.known_words() | set(profile.card_types)
                                          if fold(w) != group.key))
    inside = next((c for c in columns if hints[c][0] == "~"), None)
    if inside is not None:
        message += _inside_word(inside, group.text, hints[inside][1])
    return message


@dataclass(frozen=True)
class Compiled:
    """Events compiled against one deck: disjoint cells and engine conditions.

    Attributes
    ----------
    cell_counts : ndarray of int
    cell_membership : ndarray of bool, shape (n_cells, n_groups)
        Membership of each cell in each group (for ``distinct(G)``, in ``G``).
    conditions : tuple of Condition
    group_keys : tuple of str
    name_table : ndarray of bool, shape (n_cells, n_name_columns)
        One column per card name of each distinct group (see :func:`key_columns`).
    distinct_columns : tuple
        Per group, ``None`` or the columns of :attr:`table` holding its names.
    cell_names : tuple of int
        Card name of each cell (see :class:`deckstat.engines.exact.Tracker`).
    card_cells : ndarray of int64, shape (n_cards,)
        The cell of each row of the deck (0 for a row with no copy: it weighs nothing).
    """

    cell_counts: np.ndarray
    cell_membership: np.ndarray
    conditions: tuple[exact.Condition, ...]
    group_keys: tuple[str, ...]
    name_table: np.ndarray | None = None
    distinct_columns: tuple = ()
    cell_names: tuple[int, ...] = ()
    card_cells: np.ndarray | None = None

    @property
    def table(self) -> np.ndarray:
        """What the kernel counts per cell: the group columns, then the name columns (int8)."""
        if self.name_table is None:
            return self.cell_membership.astype(np.int8)
        return np.column_stack([self.cell_membership, self.name_table]).astype(np.int8)

    def condition(self, index: int, cap: int, holds: Callable) -> exact.Condition:
        """A condition on the single group column ``index``, counted as the event reading it counts it."""
        distinct = (self.distinct_columns[index] is not None,) if self.distinct_columns else ()
        return exact.Condition((index,), (cap,), holds, distinct, self.cell_names)


def key_columns(decks: list[Deck], groups: dict) -> tuple[list[np.ndarray], tuple]:
    """What tells the cards of ``decks`` apart for ``groups``: their membership, and their names where counted.

    Parameters
    ----------
    decks : list of Deck
        Decks dealt over one list of cells (one deck, or the decks compared).
    groups : dict of str to group
        The groups read, by key (:func:`deckstat.events.groups_of`).

    Returns
    -------
    keys : list of ndarray of int64, shape (n_cards, n_columns)
        Per deck and card: one 0/1 column per group; then, per
        ``distinct(G)``, one 0/1 column per card name of ``G`` in any of the
        decks (folded as deck names are, so printings of one name are one
        column); last, the card's name as an integer (-1 for a card in no
        distinct group), so that every cell of a distinct group holds one name.
    distinct_columns : tuple
        Per group, ``None``, or for ``distinct(G)`` the indices of its name columns.
    """
    masks = [[deck.mask(g) for g in groups.values()] for deck in decks]
    folded = [[fold(n) for n in deck.names] for deck in decks]
    name_ids: dict[str, int] = {}
    distinct_columns: list = []
    name_columns: list[tuple[int, str]] = []
    for g, group in enumerate(groups.values()):
        if not isinstance(group, DistinctGroup):
            distinct_columns.append(None)
            continue
        names = dict.fromkeys(name for deck_masks, deck_names in zip(masks, folded)
                              for name, member in zip(deck_names, deck_masks[g]) if member)
        distinct_columns.append(tuple(range(len(groups) + len(name_columns),
                                            len(groups) + len(name_columns) + len(names))))
        name_columns += [(g, name) for name in names]
        for name in names:
            name_ids.setdefault(name, len(name_ids))
    keys = []
    for deck_masks, deck_names, deck in zip(masks, folded, decks):
        columns = [m.astype(np.int64) for m in deck_masks]
        columns += [deck_masks[g] & np.array([n == name for n in deck_names]) for g, name in name_columns]
        counted = np.zeros(len(deck_names), dtype=bool)
        for mask, columns_of_group in zip(deck_masks, distinct_columns):
            counted |= mask if columns_of_group is not None else False
        columns.append(np.where(counted, [name_ids.get(n, -1) for n in deck_names], -1))
        keys.append(np.column_stack(columns).astype(np.int64).reshape(len(deck.cards), -1))
    return keys, tuple(distinct_columns)


def compile_events(deck: Deck, events: Iterable[Event]) -> Compiled:
    """Partition ``deck`` into cells by the groups of ``events`` and build their conditions.

    A ``distinct(G)`` count also parts the cards of ``G`` by name (see :func:`key_columns`).
    """
    events = list(events)
    keys: dict[str, object] = {}
    for event in events:
        for key, group in groups_of(event).items():
            keys.setdefault(key, group)
    key_list = list(keys)
    (card_keys,), distinct_columns = key_columns([deck], keys)
    cell_counts, cell_keys = partition(deck.counts, card_keys)
    n_groups = len(key_list)
    cell_membership = cell_keys[:, :n_groups].astype(bool)
    has_distinct = any(c is not None for c in distinct_columns)
    name_table = cell_keys[:, n_groups:-1].astype(bool) if has_distinct else None
    cell_names = tuple(int(n) for n in cell_keys[:, -1]) if has_distinct else ()
    distinct_columns = distinct_columns if has_distinct else ()
    # A count never exceeds the group's cards (its names, for distinct): saturating there is exact and keeps grids
    # small.
    sizes = {}
    for g, (key, group) in enumerate(keys.items()):
        columns = distinct_columns[g] if has_distinct else None
        sizes[key] = len(columns) if columns is not None else int(deck.counts[deck.mask(group)].sum())
    conditions = []
    for event in events:
        own = list(groups_of(event))
        caps = {key: min(cap, sizes[key]) for key, cap in saturation_caps(event).items()}

        def holds(arrays, event=event, own=own):
            return evaluate(event, dict(zip(own, arrays)))

        distinct = tuple(isinstance(keys[k], DistinctGroup) for k in own) if has_distinct else ()
        conditions.append(exact.Condition(tuple(key_list.index(k) for k in own),
                                          tuple(caps[k] for k in own), holds, distinct, cell_names))
    # A row's cell is the one with its whole key row: names included, as distinct groups part cells by name.
    lookup = {tuple(row.tolist()): i for i, row in enumerate(cell_keys)}
    card_cells = np.array([lookup.get(tuple(row.tolist()), 0) for row in card_keys], dtype=np.int64)
    return Compiled(cell_counts, cell_membership, tuple(conditions), tuple(key_list), name_table, distinct_columns,
                    cell_names, card_cells)


def is_increasing(event: Event, negated: bool = False) -> bool:
    """Whether ``event`` can only turn from false to true as cards are added to a zone."""
    if isinstance(event, Count):
        if event.op in ("==", "!="):
            return False
        grows = event.op in (">=", ">")
        return grows != negated
    if isinstance(event, Cards):
        return not negated  # more cards never unmeet a requirement
    if isinstance(event, Not):
        return is_increasing(event.item, not negated)
    if isinstance(event, (And, Or)):
        return all(is_increasing(item, negated) for item in event.items)
    return False


#: A need whose count was left out: every card of the group in the hand is wanted.
EVERY_CARD = None


def event_needs(event: Event | None) -> list[tuple[Group, int]]:
    """The needs an event brings, in order: each group compared with ``>=`` or ``>``, with the count that satisfies it.

    ``Terrain>=2`` needs 2 Terrains, ``[cost<=1]>1`` needs 2 such cards.
    Groups compared with ``<=``, ``<``, ``==`` or ``!=``, and every group
    under ``not``, bring no need: more of their cards never helps such a
    comparison.

    Examples
    --------
    >>> [(g.label, n) for g, n in event_needs(parse_event("Terrain>=2 and ([cost<=1]>1 or not Dragon>=1)"))]
    [('Terrain', 2), ('[cost<=1]', 2)]
    """
    if event is None or isinstance(event, Not):
        return []
    if isinstance(event, Cards):
        # Each requirement's first group, as many cards as it needs.
        return [(requirement.groups[0], requirement.n) for requirement in event.requirements]
    if isinstance(event, Count):
        n = event.n if event.op == ">=" else event.n + 1 if event.op == ">" else 0
        return [(event.group, n)] if n > 0 else []
    return [need for item in event.items for need in event_needs(item)]


def merge_needs(needs: Iterable[tuple[Group, int | None]]) -> tuple[tuple[Group, int | None], ...]:
    """Drop the needs an earlier need of the same group already covers (same or more cards)."""
    out: list[tuple[Group, int | None]] = []
    for group, n in needs:
        covered = any(g.key == group.key and (m is EVERY_CARD or (n is not EVERY_CARD and m >= n))
                      for g, m in out)
        if not covered:
            out.append((group, n))
    return tuple(out)


def parse_priority(text: str) -> tuple[tuple[Group, int | None], ...]:
    """Parse a priority list: ``"Terrain=2, [cost<=1]=1, Dragon"``.

    Items are separated by commas; each is a card group (the event syntax:
    a type, tag or name, quoted if need be, or ``[attribute op value]``),
    then ``=count`` (``>=count`` is read the same). A group without a count
    wants every card of it.

    Returns
    -------
    tuple of (Group, int or None)
        ``None`` where the count is left out.

    Raises
    ------
    ExpressionError
        Naming the 1-based position of the problem in ``text``.

    Examples
    --------
    >>> [(g.label, n) for g, n in parse_priority("Terrain=2, [cost<=1]=1, Dragon")]
    [('Terrain', 2), ('[cost<=1]', 1), ('Dragon', None)]
    """
    source = f"{param('priority')} {text!r}" if isinstance(text, str) else param('priority')
    if not isinstance(text, str):
        raise ExpressionError(tr("expected text, got {kind}", kind=type(text).__name__), source=source)
    out = []
    for item, offset in split_top_level(text, ",", brackets="[]"):
        if not item.strip():
            raise ExpressionError(tr("expected a card group such as Terrain=2 or [cost<=1]=1 here"), source=source,
                                  column=offset + len(item) - len(item.lstrip()) + 1)
        at = find_top_level(item, "<>=!~", brackets="[]")
        group_text, count = (item, EVERY_CARD) if at < 0 else (item[:at], None)
        try:
            group = parse_group(group_text, what="priority")
        except ExpressionError as exc:
            position = exc.column if isinstance(exc.column, int) else 1
            raise ExpressionError(exc.message, source=source, column=offset + position) from None
        group = replace(group, position=offset + group.position)
        if at >= 0:
            op = next((op for op in sorted(COUNT_OPS, key=len, reverse=True) if item.startswith(op, at)), None)
            if op is None:
                raise ExpressionError(tr("unexpected {char!r}; a priority is written group=count", char=item[at]),
                                      source=source, column=offset + at + 1)
            written = item[at + len(op):].strip()
            if op not in ("=", "==", ">="):
                raise ExpressionError(tr("a priority is written group=count, not {op!r}", op=op), source=source,
                                      column=offset + at + 1)
            count = whole_text(written)
            if count is None or count < 1:
                message = tr("expected a whole number of cards (1 or more) after {op!r}, got {value!r}", op=op,
                             value=written) if written else \
                    tr("expected a whole number of cards (1 or more) after {op!r}, got nothing", op=op)
                raise ExpressionError(message, source=source, column=offset + at + len(op) + 1)
        out.append((group, count))
    return tuple(out)


@dataclass(frozen=True)
class Setup:
    """A question made ready for the engines: rules in force, events compiled against the deck."""

    profile: Profile
    deck: Deck
    events: tuple[Event, ...]
    keep_text: str | None
    keep_event: Event | None
    rule: str
    limit: int
    resource_text: str | None
    compiled: Compiled
    resource_target: float
    provenance: dict = field(default_factory=dict)
    #: The needs policy's list before the resource group (see :meth:`needs_for`); ``None`` counts mean every card.
    needs: tuple[tuple[Group, int | None], ...] = ()
    #: The ``priority`` text that replaced the needs, if any.
    priority_text: str | None = None

    @cached_property
    def resource_group(self) -> Group | None:
        """The resource group read from :attr:`resource_text`, parsed once (``None`` without one)."""
        return parse_group(self.resource_text) if self.resource_text else None

    @property
    def exact_capable(self) -> bool:
        """Whether the exact engine models these rules (no mulligan, one bottom mulligan, or the Pokémon rule)."""
        return self.rule in ("none", "pokemon") or (self.rule == "bottom" and self.limit == 1)

    def exact_odds(self, condition: exact.Condition, draws, zone: str = "seen",
                   weigh: exact.Weigh | None = None) -> tuple[np.ndarray, float]:
        """Exact P(condition) in ``zone`` for each number of draws, and P(keep the first hand), under these rules.

        ``weigh`` replaces :func:`deckstat.engines.exact.segment_weights` (see :meth:`exact_cost`).
        """
        rules = {"hand_size": self.profile.hand_size, "set_aside": self.profile.set_aside, "draws": draws,
                 "zone": zone, "keep": self.keep_condition, "weigh": weigh}
        try:
            if self.rule == "pokemon":
                return exact.redeal_odds(self.compiled.cell_counts, self.compiled.cell_membership, condition,
                                         limit=self.limit, **rules)
            return exact.zone_odds(self.compiled.cell_counts, self.compiled.cell_membership, condition, **rules)
        except MemoryError:
            # Within the up-front limits the machine may still have less memory free than the engine needs.
            if weigh is not None:
                raise
            raise DeckstatError(tr("not enough memory for the exact engine, which needs {cost} for this question; "
                                   "use {option}, or ask about fewer groups or turns",
                                   cost=self.exact_cost(condition, draws, zone).describe(),
                                   option=param("method", "simulate"))) from None

    def cell_counts_of(self, counts: np.ndarray) -> np.ndarray:
        """The cells' counts of a deck with ``counts`` copies of each row of :attr:`deck` (the same cards)."""
        cells = np.asarray(self.compiled.card_cells, dtype=np.int64)
        return np.bincount(cells, weights=counts, minlength=len(self.compiled.cell_counts)).astype(np.int64)

    def exact_odds_at(self, cell_counts: np.ndarray, condition: exact.Condition, draws) -> np.ndarray:
        """:meth:`exact_odds` in the zone ``seen`` for another deck of the same cells, with ``cell_counts``."""
        compiled = replace(self.compiled, cell_counts=np.asarray(cell_counts, dtype=np.int64))
        return replace(self, compiled=compiled).exact_odds(condition, draws)[0]

    def exact_cost(self, condition: exact.Condition, draws, zone: str = "seen") -> Cost:
        """What :meth:`exact_odds` with these arguments would cost, predicted without running it.

        A question whose masks alone need more memory than the method asked for may use gets that lower
        bound (:func:`deckstat.engines.cost.grid_floor`) without a dry run, which would build them.
        """
        cache = _SHARED_SETUPS.get()
        if cache is None:
            return self._predict(condition, draws, zone)
        # Within shared_setups (a batch spec), tasks that differ in what the prediction does not read share it.
        key = ("cost", id(self), id(condition), tuple(draws), zone, _COST_MEMORY_LIMIT.get())
        if key not in cache:
            cache[key] = (self, condition, self._predict(condition, draws, zone))  # holds what the key names
        return cache[key][2]

    def _predict(self, condition: exact.Condition, draws, zone: str) -> Cost:
        beyond = too_many_axes(condition, self.keep_condition)
        if beyond is not None:
            return beyond
        floor = grid_floor(condition, self.keep_condition)
        if floor.peak_bytes > _COST_MEMORY_LIMIT.get():
            return floor
        return dry_run(self.exact_odds, condition, draws, zone)

    def condition(self, i: int) -> exact.Condition:
        """Engine condition of event ``i``."""
        return self.compiled.conditions[i]

    @property
    def keep_condition(self) -> exact.Condition | None:
        """Engine condition of the keep rule."""
        return self.compiled.conditions[len(self.events)] if self.keep_event is not None else None

    def needs_for(self, kept_size: int) -> list[tuple[Group, int | None]]:
        """The needs policy's list for a kept hand of ``kept_size`` cards, most important first.

        The keep rule's needs, then the events' (:func:`event_needs`), then
        the resource group with ``round(share in the deck × kept_size)``
        cards; or the ``priority`` list alone when one was given. A count of
        ``None`` wants every card of the group.
        """
        needs = list(self.needs)
        if self.resource_text and self.priority_text is None:
            needs.append((self.resource_group, round(self.resource_target * kept_size)))
        return needs

    def need_columns(self, keys: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
        """:attr:`needs` as (column of ``keys``, cards wanted), for :class:`DealSpec`."""
        every = np.iinfo(np.int16).max
        return tuple((keys.index(group.key), every if n is EVERY_CARD else n) for group, n in self.needs)

    def resource_cells(self, keys: tuple[str, ...], membership: np.ndarray) -> np.ndarray | None:
        """Cells of the resource need (``None`` without one), for :class:`DealSpec`."""
        if not self.resource_text or self.priority_text is not None:
            return None
        return membership[:, keys.index(self.resource_group.key)].astype(bool)

    def deal_spec(self, max_draws: int) -> DealSpec:
        """The simulation spec for these rules."""
        keys = self.compiled.group_keys
        return DealSpec(
            cell_counts=self.compiled.cell_counts, table=self.compiled.table,
            group_keys=keys, distinct_columns=self.compiled.distinct_columns,
            hand_size=self.profile.hand_size, set_aside=self.profile.set_aside,
            max_draws=max_draws, mulligan=self.rule, mulligan_limit=self.limit, keep=self.keep_event,
            needs=self.need_columns(keys), resource=self.resource_cells(keys, self.compiled.cell_membership),
            resource_target=self.resource_target)

    def drawable(self) -> int:
        """Cards left to draw after the set-aside cards and the opening hand."""
        return self.profile.library_size(self.deck.size)

    def groups(self) -> dict:
        """Every group the events, the keep rule and the resource group read, by key."""
        out: dict = {}
        for event in self.events + ((self.keep_event,) if self.keep_event is not None else ()):
            for key, group in groups_of(event).items():
                out.setdefault(key, group)
        if self.resource_text:
            group = self.resource_group
            out.setdefault(group.key, group)
        for group, _ in self.needs:
            out.setdefault(group.key, group)
        return out


def mulligan_settings(profile: Profile, *, keep: str | None, mulligan: bool, mulligan_rule: str | None,
                      mulligan_limit: int | None) -> tuple[str, int, str | None]:
    """The mulligan rule, limit and keep rule in force: the profile's unless replaced."""
    rule = profile.mulligan if mulligan_rule is None else check_choice(mulligan_rule, "mulligan_rule",
                                                                       MULLIGAN_RULES)
    if not isinstance(mulligan, bool):
        raise DeckstatError(tr("{name} must be True or False, got {value!r}", name=param("mulligan"), value=mulligan))
    if not mulligan:
        rule = "none"
    if rule == "none" and keep is not None and mulligan:
        raise DeckstatError(tr("{game} has no mulligan rule, so a keep rule does not apply; choose one with "
                               "{option}", game=profile.name, option=param("mulligan_rule")))
    if keep is not None and not mulligan:
        raise DeckstatError(tr("{keep} and {no_mulligan} contradict each other: without a mulligan every first hand "
                               "is kept, so no keep rule applies", keep=param("keep"),
                               no_mulligan=param("mulligan", False)))
    if rule == "none":
        return rule, 0, None
    limit = check_optional_whole(mulligan_limit, "mulligan_limit", minimum=1)
    if limit is None:
        same = rule == profile.mulligan
        limit = 1 if rule == "hearthstone" else profile.mulligan_limit if same else \
            REDEAL_LIMIT if rule == "pokemon" else max(profile.mulligan_limit, 1)
    if rule == "hearthstone" and limit != 1:
        raise DeckstatError(tr("the Hearthstone mulligan is one round; {option} can only be 1",
                               option=param("mulligan_limit")))
    if rule == "pokemon" and limit > MAX_REDEALS:
        raise DeckstatError(tr("{option} can be at most {most} with the pokemon rule", option=param("mulligan_limit"),
                               most=number(MAX_REDEALS)))
    if limit > MAX_MULLIGANS:
        # The kernel tallies hands by number of mulligans taken: a limit of 10^8 would take gigabytes a block.
        raise DeckstatError(tr("{option} can be at most {most} with the {rule} mulligan (it takes the mulligans "
                               "one by one, and no deck needs more)", option=param("mulligan_limit"),
                               most=number(MAX_MULLIGANS), rule=rule))
    if rule == "vancouver" and limit >= profile.hand_size:
        raise DeckstatError(tr("Vancouver mulligans shrink the hand by one each; {option} can be at most {most} with "
                               "{size}-card hands", option=param("mulligan_limit"), most=profile.hand_size - 1,
                               size=profile.hand_size))
    keep_text = keep if keep is not None else profile.keep
    if keep_text is None:
        raise DeckstatError(tr("{game} has no default keep rule; give one with {option}", game=profile.name,
                               option=param("keep")))
    return rule, limit, keep_text


def default_keep_remedy(profile: Profile, *, can_skip: bool = True) -> str:
    """What to do when the profile's default keep rule names cards the deck lacks."""
    if can_skip:
        return tr("it is {game}'s default keep rule: give one that fits this deck with {keep}, keep every first "
                  "hand with {no_mulligan}, or pass {allow_absent} to keep it as it is", game=profile.name,
                  keep=param("keep"), no_mulligan=param("mulligan", False), allow_absent=param("allow_absent", True))
    return tr("it is {game}'s default keep rule: give one that fits this deck with {keep}, or pass {allow_absent} "
              "to keep it as it is", game=profile.name, keep=param("keep"), allow_absent=param("allow_absent", True))


#: The set-ups :func:`prepare` shares while :func:`shared_setups` is in force, by what they were prepared from.
_SHARED_SETUPS: ContextVar[dict | None] = ContextVar("deckstat_shared_setups", default=None)


@contextmanager
def shared_setups(cache: dict | None = None) -> Iterator[dict]:
    """Share :func:`prepare`'s set-ups and :meth:`Setup.exact_cost`'s predictions between questions (a spec's tasks).

    A set-up is shared only with a call on the same deck and profile
    objects, the same events and the same rules; ``cache`` (kept by the
    caller) carries them over from one ``with`` block to the next.
    """
    cache = {} if cache is None else cache
    token = _SHARED_SETUPS.set(cache)
    try:
        yield cache
    finally:
        _SHARED_SETUPS.reset(token)


@contextmanager
def question_setups() -> Iterator[dict]:
    """Share set-ups and predictions within one question: in the :func:`shared_setups` block in force, else its own."""
    with shared_setups(_SHARED_SETUPS.get()) as cache:
        yield cache


def prepare(deck: Deck, game: str | Profile, events: Iterable[str], *, keep: str | None = None,
            mulligan: bool = True, mulligan_rule: str | None = None, mulligan_limit: int | None = None,
            resource: str | None = None, allow_absent: bool = False, keep_remedy: str | None = None,
            priority: str | None = None) -> Setup:
    """Resolve the rules in force and compile ``events`` (and the keep rule) against ``deck``.

    Within :func:`shared_setups`, a set-up already prepared from the same
    arguments is returned as it is. Otherwise see :func:`prepare_setup`.
    """
    rules = {"keep": keep, "mulligan": mulligan, "mulligan_rule": mulligan_rule, "mulligan_limit": mulligan_limit,
             "resource": resource, "allow_absent": allow_absent, "keep_remedy": keep_remedy, "priority": priority}
    cache = _SHARED_SETUPS.get()
    if cache is None:
        return prepare_setup(deck, game, events, **rules)
    events = list(events)
    # keep_remedy only words a refusal, and a refused set-up is not kept: set-ups that differ by it alone are one.
    same = sorted((name, value) for name, value in rules.items() if name != "keep_remedy")
    key = (id(deck), game if isinstance(game, str) else id(game), repr(events), repr(same))
    if key not in cache:
        cache[key] = (deck, game, prepare_setup(deck, game, events, **rules))  # holds what the key names
    return cache[key][2]


def prepare_setup(deck: Deck, game: str | Profile, events: Iterable[str], *, keep: str | None = None,
                  mulligan: bool = True, mulligan_rule: str | None = None, mulligan_limit: int | None = None,
                  resource: str | None = None, allow_absent: bool = False, keep_remedy: str | None = None,
                  priority: str | None = None) -> Setup:
    """Resolve the rules in force and compile ``events`` (and the keep rule) against ``deck``: :func:`prepare`'s work.

    The drawn deck carries the profile's synonyms from here on, so every
    group of the question matches the same cards. Groups that match no card
    are refused unless ``allow_absent`` (see :func:`check_groups`); the
    resource group is checked only when given or when the mulligan uses it.
    ``keep_remedy`` replaces the advice given when the profile's default keep
    rule matches no card (:func:`default_keep_remedy`). ``priority`` (:func:`parse_priority`)
    replaces the needs list the mulligan's card choices follow
    (:meth:`Setup.needs_for`); its groups are compiled with the others.
    """
    profile = get_profile(game)
    check_deck(deck)
    if not isinstance(allow_absent, bool):
        raise DeckstatError(tr("{name} must be True or False, got {value!r}", name=param("allow_absent"),
                               value=allow_absent))
    drawn = profile.drawn_deck(deck).with_synonyms(profile.synonyms)
    texts = list(events)
    parsed = []
    for text in texts:
        event = parse_event(text)
        check_groups(drawn, event, profile, "event", text, allow_absent=allow_absent)
        parsed.append(event)
    rule, limit, keep_text = mulligan_settings(profile, keep=keep, mulligan=mulligan, mulligan_rule=mulligan_rule,
                                               mulligan_limit=mulligan_limit)
    if rule == "bottom" and limit > 1 and profile.set_aside + (limit + 1) * profile.hand_size > drawn.size:
        most = max(1, (drawn.size - profile.set_aside) // profile.hand_size - 1)
        raise DeckstatError(tr("{option} {limit} asks for {hands} hands of {size} cards from the top of a "
                               "{deck}-card deck; it can be at most {most}", option=param("mulligan_limit"),
                               limit=limit, hands=limit + 1, size=profile.hand_size, deck=drawn.size, most=most))
    keep_event = None
    all_events = list(parsed)
    if keep_text is not None:
        keep_event = parse_event(keep_text, what="keep rule")
        check_groups(drawn, keep_event, profile, "keep rule", keep_text, allow_absent=allow_absent,
                     remedy=(keep_remedy or default_keep_remedy(profile)) if keep is None else None)
        all_events.append(keep_event)
    resource_text = resource if resource is not None else profile.resource_group
    target = 0.0
    if resource_text:
        group = parse_group(resource_text, what="resource group")
        # The profile's resource group only matters to the mulligans that choose cards by it.
        used = resource is not None or rule in RESOURCE_MULLIGANS
        check_groups(drawn, Count(group, ">=", 1), profile, "resource group", resource_text,
                     allow_absent=allow_absent or not used)
        all_events.append(Count(group, ">=", 1))
        target = drawn.count(group) / drawn.size
    if priority is None:
        needs = merge_needs(event_needs(keep_event) + [n for event in parsed for n in event_needs(event)])
        counted = {key for event in all_events for key in groups_of(event)}
        for group, _ in needs:
            # A distinct_cards(...) needs its requirements' groups, which it counts only by combination.
            if group.key not in counted:
                counted.add(group.key)
                all_events.append(Count(group, ">=", 1))
    else:
        if rule not in RESOURCE_MULLIGANS:
            raise DeckstatError(tr("{option} sets which cards the London, Vancouver, free and Hearthstone mulligans "
                                   "keep; the {rule} rule chooses no card", option=param("priority"), rule=rule))
        needs = merge_needs(parse_priority(priority))
        for group, _ in needs:
            check_groups(drawn, Count(group, ">=", 1), profile, "priority", priority, allow_absent=allow_absent)
            all_events.append(Count(group, ">=", 1))
    if rule == "hearthstone" and drawn.size < profile.set_aside + 2 * profile.hand_size:
        raise DeckstatError(tr("the Hearthstone mulligan may replace the whole {size}-card hand, so the deck needs "
                               "at least {needed} cards; it has {count}", size=profile.hand_size,
                               needed=profile.set_aside + 2 * profile.hand_size, count=drawn.size))
    compiled = compile_events(drawn, all_events)
    provenance = {"game": profile.id, "deck_source": drawn.source, "deck_size": drawn.size, "mulligan_rule": rule,
                  "mulligan_limit": limit, "keep": keep_text, "resource_group": resource_text,
                  "deckstat_version": __version__}
    if priority is not None:
        provenance["priority"] = priority
    if drawn.effect_copies:
        # The answer is the game without the card effects the file declares (docs/effects.md): said, not implied.
        provenance.update(card_effects="left out", cards_with_effects=drawn.effect_copies)
    return Setup(profile, drawn, tuple(parsed), keep_text, keep_event, rule, limit, resource_text, compiled,
                 target, provenance, needs, priority)


def choose_method(setup: Setup, method: str, needs_order: bool = False,
                  cost: Callable[[], Cost] | None = None) -> str:
    """The engine for ``method``: ``auto`` picks exact whenever it models the question (see :func:`pick_method`)."""
    return pick_method(setup, method, needs_order, cost)[0]


def pick_method(setup: Setup, method: str, needs_order: bool = False,
                cost: Callable[[], Cost] | None = None) -> tuple[str, str | None]:
    """The engine for ``method``, and why ``auto`` simulated a question the exact engine models (else ``None``).

    ``auto`` picks exact when it models the question and, given ``cost``
    (the exact computation's :func:`deckstat.engines.cost.dry_run`), when
    it is predicted to take at most :data:`AUTO_EXACT_SECONDS` and
    :data:`AUTO_EXACT_BYTES`. ``exact`` is refused up front when it does not
    model the question, or would need more than :data:`MAX_EXACT_SECONDS` or
    :data:`MAX_EXACT_BYTES`.
    """
    check_choice(method, "method", METHODS)
    capable = setup.exact_capable and not needs_order
    if method == "exact" and not capable:
        if not setup.exact_capable:
            raise DeckstatError(tr("the exact engine does not model the {rule} mulligan; use {option}",
                                   rule=setup.rule, option=param("method", "simulate")))
        raise DeckstatError(tr("the exact engine does not model this question; use {option}",
                               option=param("method", "simulate")))
    if method == "simulate" or not capable:
        return "simulate", None
    if setup.deck.size > exact.MAX_EXACT_DECK:
        if method == "exact":
            exact.check_exact_size(setup.deck.size)
        return "simulate", tr("the exact engine handles decks of up to {most} cards, this one has {size}: simulated",
                              most=exact.MAX_EXACT_DECK, size=setup.deck.size)
    if cost is None:
        return "exact", None
    token = _COST_MEMORY_LIMIT.set(MAX_EXACT_BYTES if method == "exact" else AUTO_EXACT_BYTES)
    try:
        predicted = cost()
    finally:
        _COST_MEMORY_LIMIT.reset(token)
    if predicted.axes:
        if method == "exact":
            raise DeckstatError(tr("the exact engine cannot answer this question: it would need {cost}; use "
                                   "{option}, or count fewer groups", cost=predicted.describe(),
                                   option=param("method", "simulate")))
        return "simulate", tr("the exact engine would need {cost}: simulated", cost=predicted.describe())
    if method == "exact":
        if predicted.seconds > MAX_EXACT_SECONDS or predicted.peak_bytes > MAX_EXACT_BYTES:
            raise DeckstatError(tr("the exact engine would take {cost} for this question, beyond its limits "
                                   "({seconds}, {memory}); use {option}, or ask about fewer groups or turns",
                                   cost=predicted.describe(), seconds=format_seconds(MAX_EXACT_SECONDS),
                                   memory=format_bytes(MAX_EXACT_BYTES), option=param("method", "simulate")))
        return "exact", None
    if predicted.seconds > AUTO_EXACT_SECONDS or predicted.peak_bytes > AUTO_EXACT_BYTES:
        return "simulate", tr("exact would take {cost}: simulated (auto uses exact up to {seconds} and {memory})",
                              cost=predicted.describe(), seconds=format_seconds(AUTO_EXACT_SECONDS),
                              memory=format_bytes(AUTO_EXACT_BYTES))
    return "exact", None


def check_simulation(n_trials: object, precision: object, chunk_size: object, n_workers: object,
                     max_trials: object = None, *, rng: object = None) -> None:
    """Check the simulation settings up front, whether or not the question ends up simulated.

    ``max_trials`` (None: not a parameter of the question) bounds a precision run only; ``rng`` is refused
    when it cannot be a seed (:func:`~deckstat.engines.runner.check_seed`), even for an exact answer.
    """
    check_seed(rng)
    if n_trials is not None:
        check_trials(n_trials)
    if precision is not None:
        check_half_width(precision)
        if n_trials is not None:
            raise DeckstatError(tr("give {n_trials} or {precision}, not both: the simulation runs a number of "
                                   "trials, or until the intervals are narrow enough", n_trials=param("n_trials"),
                                   precision=param("precision")))
    # Below 1 refused as every count is, "at least 1"; the range is said only to a count too large.
    check_whole(check_whole(chunk_size, "chunk_size", minimum=1), "chunk_size", minimum=1, maximum=MOST_CHUNK)
    check_whole(n_workers, "n_workers", minimum=1)
    if max_trials is not None:
        check_trials(max_trials, "max_trials")


def check_zone(zone: object, profile: Profile | None = None) -> str:
    """A zone of :data:`~deckstat.terms.ZONES` by its name, a French name or the name of the set-aside cards.

    Examples
    --------
    >>> check_zone("boucliers"), check_zone("main"), check_zone("seen")
    ('set_aside', 'hand', 'seen')
    """
    if isinstance(zone, str):
        key = fold(zone).replace("_", "-").replace(" ", "-")
        names = {fold(n).replace(" ", "-") for n in _set_aside_names(profile)}
        zone = "set_aside" if key in names else ZONE_ALIASES.get(key, zone)
    return check_choice(zone, "zone", ZONES)


def _set_aside_names(profile: Profile | None) -> list[str]:
    """A profile's name for its set-aside cards, in every language it is written in."""
    if profile is None or not profile.set_aside:
        return []
    name = profile.set_aside_name
    return [str(name), *getattr(name, "translations", {}).values()]


def refuse_empty_zone(profile: Profile, zone: str) -> None:
    """Refuse ``set_aside`` for a game that sets no card aside: every event on it would get a confident 0 or 1."""
    if zone == "set_aside" and not profile.set_aside:
        raise DeckstatError(tr("{game} sets no card aside, so {option} set_aside is always empty", game=profile.name,
                               option=param("zone")))


def turn_plan(setup: Setup, turns: object, seat: object, zone: str = "seen", *,
              turns_name: str = "turns") -> tuple[list[int], dict[str, list[int]]]:
    """The turns reported and, per seat, the cards drawn after the opening hand by each of them.

    Fixed zones (the kept hand, the set-aside cards) are reported at turn 0
    only. Turns whose draws the deck cannot supply are refused, naming the
    last turn it can, and so are turns the game never reaches for a seat
    because the deck-out rule ends it first, both decks of the same size
    (:meth:`~deckstat.games.profiles.Profile.duel_end_turn`: the JdG duel
    ends at the end of the first player's turn 25, so the second player has
    no turn 25).
    """
    profile = setup.profile
    refuse_empty_zone(profile, zone)
    turn_list = [0] if zone in FIXED_ZONES else check_turns(turns, turns_name)
    seats = check_seats(seat)
    drawable = setup.drawable()
    if drawable < 0:
        raise DeckstatError(tr("the deck has {size} cards, fewer than the {dealt} dealt before turn 1",
                               size=setup.deck.size, dealt=profile.set_aside + profile.hand_size))
    per_seat = {s: [profile.draws_by_turn(t, s) for t in turn_list] for s in seats}
    for seat_name, draws in per_seat.items():
        for t, d in zip(turn_list, draws):
            if d > drawable:
                last = profile.last_turn(setup.deck.size, seat_name)
                raise DeckstatError(tr(_TOO_LATE[seat_name], turn=t, draws=trn("{n} draw", "{n} draws", d),
                                       left=trn("{n} card", "{n} cards", drawable), option=param(turns_name),
                                       last=last))
        if zone not in FIXED_ZONES and turn_list:
            check_game_reaches(profile, setup.deck.size, seat_name, turn_list[-1], turns_name)
    return turn_list, per_seat


def check_game_reaches(profile: Profile, deck_size: int, seat: str, turn: int, turns_name: str = "turns") -> None:
    """Refuse a turn of ``seat`` the game never reaches because the other player's last draw ends it first.

    Both decks are taken to hold ``deck_size`` cards (JdG asks for exactly 30:
    the first player's turn 25 draws their last card and ends the duel, so the
    second player has no turn 25; see
    :meth:`~deckstat.games.profiles.Profile.duel_end_turn`).
    """
    end = profile.duel_end_turn(deck_size, seat)
    if end is None or turn <= end:
        return
    other = "second" if seat == "first" else "first"
    raise DeckstatError(tr(_GAME_OVER[seat], turn=turn, size=number(deck_size),
                           end=profile.last_draw_turn(profile.library_size(deck_size), other),
                           rule=tr(DECKOUT_RULES[profile.deckout]), option=param(turns_name), last=end))


def zone_size(profile: Profile, zone: str, draws: int) -> int | None:
    """Cards in ``zone`` after ``draws`` draws (``None`` for ``bottom``, whose size depends on the mulligan)."""
    return {"seen": profile.hand_size + draws, "hand": profile.hand_size,
            "set_aside": profile.set_aside}.get(zone)


def all_draws(per_seat: dict[str, list[int]]) -> list[int]:
    """Every draw count any seat needs, sorted: one pass of an engine answers them all."""
    return sorted({d for draws in per_seat.values() for d in draws})
