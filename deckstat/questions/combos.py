"""Combo lines: named lists of requirements met by different physical cards (:func:`combos`).

A line is ``distinct_cards(...)`` of the event language (see
:mod:`deckstat.events`): every requirement (a group or a card, a count,
any-of alternatives) filled by a card of its own, so one card in two groups
fills one requirement only. :func:`combos` asks each line, the lines together
(at least one of them) and what each line alone adds (it holds and no other
does, which is P(any) − P(any without it)) as :func:`deckstat.odds` asks
events: by turn, seat, zone and mulligan, exact where the engine's cost
allows, simulated otherwise. No engine code lives here.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from deckstat._input import read_input_bytes
from deckstat.deck import Deck
from deckstat.engines import runner
from deckstat.errors import DeckstatError, ExpressionError
from deckstat.events import parse_event
from deckstat.games.profiles import Profile
from deckstat.i18n import tr
from deckstat.questions.odds import DEFAULT_TURNS, odds
from deckstat.results import CombosResult, frame
from deckstat.terms import MOST_SPEC_BYTES

#: Lines one question may hold (each adds two events, the line and what it alone adds).
MOST_LINES = 12

COMBO_COLUMNS = ["deck", "game", "line", "kind", "event", "seat", "turn", "zone", "p", "ci_low", "ci_high",
                 "n_trials", "method"]
#: What a row of the table stands for.
KINDS = ("line", "any", "alone")


def combos(deck: Deck, game: str | Profile, lines: Mapping[str, object] | str | os.PathLike, *,
           turns: int | Iterable[int] = DEFAULT_TURNS, seat: str = "both", zone: str = "seen",
           keep: str | None = None, mulligan: bool = True, mulligan_rule: str | None = None,
           mulligan_limit: int | None = None, resource: str | None = None, priority: str | None = None,
           method: str = "auto", n_trials: int | None = None, rng=None,
           chunk_size: int = runner.DEFAULT_CHUNK, n_workers: int = 1, allow_absent: bool = False) -> CombosResult:
    """P(each combo line), P(at least one), and what each line alone adds, by turn.

    Parameters
    ----------
    deck : Deck
    game : str or Profile
    lines : mapping or path
        Each line's name and its requirements: a list of texts ``[N] GROUP [| GROUP…]`` (``"Terrain"``,
        ``"2 [cost<=1]"``, ``"Ninja du Marché | Robot Camembert"``: N cards, 1 when left out, of any of the
        groups), or one text of them separated by commas. A path reads a TOML file with a ``[lines]`` table of
        such lists.
    turns, seat, zone, keep, mulligan, mulligan_rule, mulligan_limit, resource, priority, method, n_trials, rng,
    chunk_size, n_workers, allow_absent :
        As in :func:`deckstat.odds`.

    Returns
    -------
    CombosResult
        ``table``: per line (``kind`` ``line``), for the lines together (``any``: at least one holds) and for
        what each line alone adds (``alone``: it holds and no other does, P(any) − P(any without it)), by seat
        and turn: ``p`` with its interval, ``n_trials``, ``method``; ``event`` is the line as an event
        (``distinct_cards(...)``). ``lines``: each line's requirements.

    Examples
    --------
    >>> import deckstat
    >>> deck = deckstat.Deck.from_table([{"name": "A", "count": 1, "type": "x", "tags": "y"},
    ...                                  {"name": "B", "count": 39, "type": "z"}])
    >>> result = deckstat.combos(deck, "generic", {"pair": ["x", "y"]}, turns=[0], seat="first",
    ...                          mulligan=False)
    >>> float(result.table["p"].iloc[0])  # the one card in both groups cannot fill both requirements
    0.0
    """
    named = read_lines(lines)
    texts = {name: line_event(name, requirements) for name, requirements in named.items()}
    events = list(texts.values())
    wanted = [(name, "line", text) for name, text in texts.items()]
    if len(events) > 1:
        joined = " or ".join(f"({t})" for t in events)
        wanted.append((tr("any line"), "any", joined))
        for name, text in texts.items():
            others = " or ".join(f"({t})" for n, t in texts.items() if n != name)
            wanted.append((name, "alone", f"({text}) and not ({others})"))
    result = odds(deck, game, [text for _, _, text in wanted], turns=turns, seat=seat, zone=zone, keep=keep,
                  mulligan=mulligan, mulligan_rule=mulligan_rule, mulligan_limit=mulligan_limit, resource=resource,
                  priority=priority, method=method,
                  n_trials=n_trials, rng=rng, chunk_size=chunk_size, n_workers=n_workers, allow_absent=allow_absent,
                  sides=False)
    shown = {}
    for name, kind, text in wanted:
        shown[_canonical(text)] = (name, kind)
    table = result.table
    rows = []
    for row in table.to_dict("records"):
        name, kind = shown[row["event"]]
        rows.append({**row, "line": name, "kind": kind})
    requirements = [{"line": name, "requirement": i + 1, "text": text}
                    for name, texts_of in named.items() for i, text in enumerate(texts_of)]
    provenance = {**result.provenance, "question": "combos", "lines": {n: list(r) for n, r in named.items()}}
    return CombosResult(table=frame(rows, COMBO_COLUMNS), lines=frame(requirements, ["line", "requirement", "text"],
                                                                      integers=("requirement",)),
                        provenance=provenance)


def _canonical(text: str) -> str:
    from deckstat.events import to_text

    return to_text(parse_event(text))


def line_event(name: str, requirements: Sequence[str]) -> str:
    """The event of a line: ``distinct_cards(req, req, ...)``, checked (an error names the line)."""
    text = f"distinct_cards({', '.join(requirements)})"
    try:
        parse_event(text, what="event")
    except ExpressionError as exc:
        raise DeckstatError(tr("line {name!r}: {error}", name=name, error=exc.message)) from None
    return text


def read_lines(lines) -> dict[str, tuple[str, ...]]:
    """Each line's requirements from a mapping, or a TOML file's ``[lines]`` table (see :func:`combos`)."""
    source = None
    if isinstance(lines, (str, os.PathLike)) and not isinstance(lines, Mapping):
        source = str(lines)
        try:
            raw = read_input_bytes(Path(lines), kind="lines", limit=MOST_SPEC_BYTES)
        except FileNotFoundError:
            raise DeckstatError(tr("file not found"), source=source) from None
        except OSError as exc:
            raise DeckstatError(tr("cannot read the file ({reason})", reason=exc.strerror or exc),
                                source=source) from None
        try:
            data = tomllib.loads(raw.decode("utf-8-sig"))
        except UnicodeDecodeError as exc:
            raise DeckstatError(tr("not UTF-8 text (byte {byte}); save the file as UTF-8", byte=exc.start),
                                source=source) from None
        except tomllib.TOMLDecodeError as exc:
            # tomllib's message ends with "(at line L, column C)": the place, in its words.
            raise DeckstatError(tr("not a TOML file: {error}", error=str(exc)), source=source) from None
        unknown = [key for key in data if key != "lines"]
        if unknown or not isinstance(data.get("lines"), dict):
            raise DeckstatError(tr("expected a [lines] table of named requirement lists, as in: [lines] Rush = "
                                   "[\"Terrain\", \"2 [cost<=1]\"]{found}",
                                   found=tr("; found {keys}", keys=", ".join(map(repr, unknown))) if unknown else ""),
                                source=source)
        lines = data["lines"]
    if not isinstance(lines, Mapping) or not lines:
        raise DeckstatError(tr("expected named lines: a mapping of each line's name to its requirements"),
                            source=source)
    if len(lines) > MOST_LINES:
        raise DeckstatError(tr("{n} lines, more than the {most} one question may hold", n=len(lines),
                               most=MOST_LINES), source=source)
    out = {}
    for name, requirements in lines.items():
        if isinstance(requirements, str):
            requirements = [part for part in _split(requirements)]
        if (not isinstance(requirements, (list, tuple)) or not requirements
                or not all(isinstance(r, str) and r.strip() for r in requirements)):
            raise DeckstatError(tr("line {name!r}: expected a list of requirements such as [\"Terrain\", \"2 "
                                   "[cost<=1]\"], got {value!r}", name=str(name), value=requirements), source=source)
        out[str(name).strip() or str(name)] = tuple(r.strip() for r in requirements)
    return out


def _split(text: str) -> list[str]:
    """A line written as one text: its requirements, separated by commas outside quotes and brackets."""
    from deckstat.parsing import split_top_level

    return [part.text.strip() for part in split_top_level(text, ",") if part.text.strip()]


