"""What an exploration asks, as data: saved as a batch spec, loaded back, written into a page's address.

An :class:`ExploreState` holds the deck's copy counts (the changes from the file), the event, the seat, the turns,
the mulligan and keep rules, the card whose playability is drawn and the seed of the simulated answers. It is
written as a batch spec (:meth:`ExploreState.spec_text`) whose questions are those the explorer answers, each with
the explorer's seed and trials, so ``deckstat batch state.toml`` gives the numbers the page showed; and as the query
of a page's address (:meth:`ExploreState.query`), so that the address of a page is its state.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import urlencode

from deckstat.errors import DeckstatError
from deckstat.i18n import tr

#: Seats, as the questions name them.
SEATS = ("first", "second", "both")
#: The longest text a query value or an event may be: an address or a state file is not a place for a book.
MAX_TEXT = 2000
#: Trials of a simulated answer once it has tightened as far as the explorer takes it.
FINAL_TRIALS = 128_000


@dataclass(frozen=True)
class DeckFile:
    """Where an explorer's deck was read from, as a batch spec's deck table names it.

    Attributes
    ----------
    path : str
        The card file or text decklist (absolute: a saved state stays valid wherever it is saved).
    deck_name : str or None
        For a file that holds several decks, the one read.
    pool : str or None
        The card pool that resolved a text decklist.
    """

    path: str
    deck_name: str | None = None
    pool: str | None = None

    @classmethod
    def of(cls, source: str) -> DeckFile | None:
        """The file a :class:`~deckstat.deck.Deck`'s ``source`` names (``path`` or ``path [deck name]``), if any."""
        if Path(source).is_file():
            return cls(str(Path(source).resolve()))
        head, bracket, rest = source.partition(" [")
        if bracket and rest.endswith("]") and Path(head).is_file():
            return cls(str(Path(head).resolve()), deck_name=rest[:-1])
        return None


@dataclass(frozen=True)
class ExploreState:
    """One exploration: the deck as edited and the questions asked of it.

    Attributes
    ----------
    counts : dict
        Copies of each card whose count differs from the deck file, by card label (``Deck.labels``).
    event : str
        The event expression of the by-turn curve, the mulligan table and the ±1-copy table.
    seat : str
        ``first``, ``second`` or ``both``.
    turns : tuple of int
        First and last turn shown.
    mulligan_rule : str or None
        The mulligan rule (None: the game's).
    keep : str or None
        The keep rule (None: the game's).
    card : str or None
        The card whose playability curve is drawn (None: none).
    seed : int
        Seed of every simulated answer.
    """

    event: str
    seat: str = "both"
    turns: tuple[int, int] = (0, 6)
    mulligan_rule: str | None = None
    keep: str | None = None
    card: str | None = None
    seed: int = 1
    counts: dict[str, int] = field(default_factory=dict)

    def edited(self, **changes: object) -> ExploreState:
        """A copy with ``changes`` applied."""
        return replace(self, **changes)

    @property
    def turn_text(self) -> str:
        """The turns as the command line writes them (``0-6``, or ``3`` for one turn)."""
        first, last = self.turns
        return str(first) if first == last else f"{first}-{last}"

    def spec_text(self, deck: DeckFile | str, game: str, *, name: str = "explore", mulligan: bool = True) -> str:
        """The state as a batch spec: its questions with the explorer's seed and trials, one deck, edited counts.

        Parameters
        ----------
        deck : DeckFile or str
            Where the deck was read from; a path is written as given (an absolute path keeps the spec valid
            wherever it is saved).
        game : str
            The game profile id.
        name : str
            The batch's name.
        mulligan : bool
            Whether a mulligan is in force (the keep/mulligan table is asked only then).

        Returns
        -------
        str
            TOML text that :func:`deckstat.batching.load_spec` reads and :meth:`from_spec_text` loads back.
        """
        common = {"seed": self.seed}
        rules = {key: value for key, value in (("mulligan_rule", self.mulligan_rule), ("keep", self.keep))
                 if value is not None}
        keep = {"keep": self.keep} if self.keep is not None else {}
        questions = [
            {"question": "odds", "event": self.event, "turns": self.turn_text, "seat": self.seat, **rules,
             "trials": FINAL_TRIALS, **common},
            {"question": "mulligan", "event": self.event, "turns": self.turn_text,
             "seat": "first" if self.seat == "both" else self.seat, **rules, "trials": FINAL_TRIALS, **common},
            # Sensitivity and playability play the game's own mulligan rule; they take the keep rule alone.
            {"question": "sensitivity", "event": self.event, "by_turn": self.turns[1],
             "seat": "first" if self.seat == "both" else self.seat, **keep, **common},
        ]
        if not mulligan:
            del questions[1]
        if self.card is not None:
            questions.insert(len(questions) - 1, {
                "question": "curve", "cards": self.card, "turns": f"1-{max(1, self.turns[1])}", "seat": self.seat,
                **keep, "trials": FINAL_TRIALS, **common})
        lines = [f"# {tr('The questions of a deckstat exploration; run them again with: deckstat batch FILE')}",
                 f"name = {_toml(name)}", f"game = {_toml(game)}", "", "[decks.deck]"]
        deck = deck if isinstance(deck, DeckFile) else DeckFile(deck)
        lines += [f"{key} = {_toml(value)}" for key, value in (("path", deck.path), ("deck_name", deck.deck_name),
                                                                ("pool", deck.pool)) if value is not None]
        if self.counts:
            pairs = ", ".join(f"{_toml(label)} = {count}" for label, count in sorted(self.counts.items()))
            lines.append(f"counts = {{ {pairs} }}")
        for question in questions:
            lines += ["", "[[questions]]"] + [f"{key} = {_toml(value)}" for key, value in question.items()]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_spec_text(cls, text: str, *, source: str = "<state>", deck_name: str | None = None) -> tuple[
            ExploreState, str | None, str | None]:
        """Read a state written by :meth:`spec_text` (or any spec of one deck asking odds).

        Parameters
        ----------
        text : str
            The TOML text.
        source : str
            Shown in error messages.
        deck_name : str, optional
            The file name of the deck the explorer shows: a state saved for another deck file is refused.

        Returns
        -------
        state : ExploreState
        deck_path : str or None
            The spec's deck path, as written.
        game : str or None
            The spec's game.

        Raises
        ------
        DeckstatError
            For text that is not TOML, a spec with no deck or several, no odds question, or a value of the wrong
            kind; the message names the key.
        """
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise DeckstatError(tr("not valid TOML: {problem}", problem=str(exc)), source=source) from None
        decks = data.get("decks")
        if not isinstance(decks, Mapping) or len(decks) != 1:
            raise DeckstatError(tr("a saved exploration has one deck table, [decks.deck]"), source=source)
        ((label, deck),) = decks.items()
        deck = _table(deck, f"decks.{label}", source)
        deck_path = deck.get("path")
        if deck_path is not None and not isinstance(deck_path, str):
            raise DeckstatError(tr("{key} must be text", key=f"decks.{label}.path"), source=source)
        if deck_name is not None and deck_path is not None and Path(deck_path).name != deck_name:
            raise DeckstatError(tr("this exploration was saved for the deck {saved}, not {shown}; open it with "
                                   "that deck", saved=Path(deck_path).name, shown=deck_name), source=source)
        counts = _table(deck.get("counts", {}), f"decks.{label}.counts", source)
        for card, count in counts.items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise DeckstatError(tr("{key} must be a whole number of copies, at least 0, got {value!r}",
                                       key=f"decks.{label}.counts.{card}", value=count), source=source)
        questions = data.get("questions", [])
        if not isinstance(questions, list):
            raise DeckstatError(tr("{key} must be a list of tables", key="questions"), source=source)
        by_kind = {}
        for index, question in enumerate(questions):
            question = _table(question, f"questions[{index}]", source)
            by_kind.setdefault(question.get("question"), question)
        odds = by_kind.get("odds")
        if odds is None:
            raise DeckstatError(tr("a saved exploration asks an odds question; this one asks none"), source=source)
        game = data.get("game") if isinstance(data.get("game"), str) else None
        values = {"event": _text(odds, "event", source), "seat": odds.get("seat", "both"),
                  "turns": parse_turn_range(odds.get("turns", "0-6"), source=source),
                  "mulligan_rule": odds.get("mulligan_rule"), "keep": odds.get("keep"),
                  "seed": odds.get("seed", 1), "counts": dict(counts)}
        curve = by_kind.get("curve")
        if curve is not None:
            values["card"] = _text(curve, "cards", source)
        return checked_state(values, source=source), deck_path, game

    def query(self) -> str:
        """The state as the query of a page's address (``event=…&seat=…``), read back by :meth:`from_query`."""
        fields = {"event": self.event, "seat": self.seat, "turns": self.turn_text, "seed": str(self.seed)}
        for key in ("mulligan_rule", "keep", "card"):
            if getattr(self, key) is not None:
                fields[key] = getattr(self, key)
        if self.counts:
            fields["counts"] = json.dumps(self.counts, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        return urlencode(fields)

    @classmethod
    def from_query(cls, fields: Mapping[str, str], default: ExploreState) -> ExploreState:
        """The state a page's query describes, ``default`` for what it leaves out.

        Raises
        ------
        DeckstatError
            For a value that is not what its key holds, naming the key.
        """
        values = {"event": default.event, "seat": default.seat, "turns": default.turns,
                  "mulligan_rule": default.mulligan_rule, "keep": default.keep, "card": default.card,
                  "seed": default.seed, "counts": dict(default.counts)}
        source = tr("the page's address")
        for key, value in fields.items():
            if key not in values:
                continue
            if len(value) > MAX_TEXT:
                raise DeckstatError(tr("{key} is longer than {n} characters", key=key, n=MAX_TEXT), source=source)
            if key == "turns":
                values[key] = parse_turn_range(value, source=source)
            elif key == "seed":
                values[key] = _whole(value, key, source)
            elif key == "counts":
                try:
                    values[key] = json.loads(value)
                except json.JSONDecodeError:
                    raise DeckstatError(tr("{key} must be a table of card copies", key=key), source=source) from None
            else:
                values[key] = value
        return checked_state(values, source=source)


def checked_state(values: Mapping[str, object], *, source: str) -> ExploreState:
    """An :class:`ExploreState` from plain values, each checked for its kind (the questions check the rest)."""
    seat = values["seat"]
    if seat not in SEATS:
        raise DeckstatError(tr("seat must be one of {choices}, got {seat!r}", choices=", ".join(SEATS), seat=seat),
                            source=source)
    counts = values["counts"]
    if not isinstance(counts, Mapping) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v >= 0
            for k, v in counts.items()):
        raise DeckstatError(tr("{key} must be a table of card copies", key="counts"), source=source)
    texts = {}
    for key in ("event", "mulligan_rule", "keep", "card"):
        value = values.get(key)
        if value is not None and (not isinstance(value, str) or len(value) > MAX_TEXT):
            raise DeckstatError(tr("{key} must be text of at most {n} characters", key=key, n=MAX_TEXT),
                                source=source)
        texts[key] = value
    seed = values["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise DeckstatError(tr("{key} must be a whole number, at least 0, got {value!r}", key="seed", value=seed),
                            source=source)
    return ExploreState(event=texts["event"] or "", seat=seat, turns=tuple(values["turns"]),
                        mulligan_rule=texts["mulligan_rule"], keep=texts["keep"], card=texts["card"], seed=seed,
                        counts=dict(counts))


def parse_turn_range(value: object, *, source: str) -> tuple[int, int]:
    """``"0-6"``, ``"3"``, ``3`` or ``[0, 6]`` as (first, last) turns."""
    if isinstance(value, int) and not isinstance(value, bool):
        first = last = value
    elif isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        first, last = value
    elif isinstance(value, str):
        first_text, _, last_text = value.strip().partition("-")
        first = _whole(first_text, "turns", source)
        last = _whole(last_text, "turns", source) if last_text else first
    else:
        raise DeckstatError(tr("turns must be a range such as 0-6, got {value!r}", value=value), source=source)
    if first < 0 or last < first:
        raise DeckstatError(tr("turns must be a range such as 0-6, got {value!r}", value=value), source=source)
    return first, last


def _whole(text: str, key: str, source: str) -> int:
    try:
        number = int(text.strip())
    except ValueError:
        raise DeckstatError(tr("{key} must be a whole number, at least 0, got {value!r}", key=key, value=text),
                            source=source) from None
    if number < 0:
        raise DeckstatError(tr("{key} must be a whole number, at least 0, got {value!r}", key=key, value=text),
                            source=source)
    return number


def _table(value: object, key: str, source: str) -> dict:
    if not isinstance(value, Mapping):
        raise DeckstatError(tr("{key} must be a table", key=key), source=source)
    return dict(value)


def _text(table: Mapping, key: str, source: str) -> str:
    value = table.get(key)
    if not isinstance(value, str):
        raise DeckstatError(tr("{key} must be text", key=key), source=source)
    return value


def _toml(value: object) -> str:
    """A TOML value: JSON's string escapes are TOML's basic string escapes (TOML also refuses a raw DEL)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value), ensure_ascii=False).replace("\x7f", "\\u007f")
