"""Checks of arguments at the public boundary, each naming the parameter at fault.

Every public function checks its arguments with these, so that one kind of
value is accepted (and refused) the same way everywhere: whole numbers may be
Python or NumPy integers but not booleans, probabilities are real numbers in
[0, 1], choices suggest the closest valid name.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np

from deckstat.errors import DeckstatError, param
from deckstat.i18n import N_, tr
from deckstat.terms import BOTH_SEATS, MOST_TURN, SEAT_ALIASES, SEATS
from deckstat.text import suggest


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def is_whole(value: object) -> bool:
    """Whether ``value`` is a Python or NumPy integer (booleans are not)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_whole(value: object, name: str, *, minimum: int = 0, maximum: int | None = None) -> int:
    """Return ``value`` as an int, or raise naming ``name`` when it is not a whole number in range.

    Examples
    --------
    >>> check_whole(np.int64(3), "n_trials", minimum=1)
    3
    >>> check_whole(0, "n_trials", minimum=1)
    Traceback (most recent call last):
    ...
    deckstat.errors.DeckstatError: n_trials must be a whole number of at least 1, got 0
    """
    if not is_whole(value) or value < minimum or (maximum is not None and value > maximum):
        if maximum is not None:
            message = tr("{name} must be a whole number from {minimum} to {maximum}, got {value}", name=param(name),
                         minimum=minimum, maximum=maximum, value=_shown(value))
        elif minimum:
            message = tr("{name} must be a whole number of at least {minimum}, got {value}", name=param(name),
                         minimum=minimum, value=_shown(value))
        else:
            message = tr("{name} must be a whole number from 0, got {value}", name=param(name), value=_shown(value))
        raise DeckstatError(message)
    return int(value)


def parse_count(text: object, name: str, *, minimum: int = 0) -> int:
    """A whole number written as a person writes it: ``200000``, ``100_000``, ``1e8`` or ``2.5e6``.

    Numbers (Python or NumPy, and floats with no fractional part, as TOML
    reads ``1e8``) and texts are accepted; anything that is not a whole number
    of at least ``minimum`` is refused, naming ``name``.

    Examples
    --------
    >>> parse_count("1e8", "n_trials"), parse_count("100_000", "n_trials"), parse_count(2.5e6, "n_trials")
    (100000000, 100000, 2500000)
    >>> parse_count("1.5", "n", minimum=1)
    Traceback (most recent call last):
    ...
    deckstat.errors.DeckstatError: n must be a whole number of at least 1 (e.g. 200000, 100_000 or 1e8), got '1.5'
    """
    value: object = text
    if isinstance(text, str):
        written = text.strip()
        if re.fullmatch(r"\d+(_\d+)*", written):
            value = int(written.replace("_", ""))
        elif match := re.fullmatch(r"(\d+(?:\.\d*)?)[eE]\+?(\d{1,2})", written):
            # Exactly, with no float rounding; exponents stop at 99 so a typo cannot ask for a giant integer.
            exact = Fraction(match[1]) * 10 ** int(match[2])
            value = int(exact) if exact.denominator == 1 else text
    elif isinstance(text, (float, np.floating)) and math.isfinite(text) and float(text).is_integer():
        value = int(text)
    if not is_whole(value) or value < minimum:
        raise DeckstatError(tr("{name} must be a whole number of at least {minimum} (e.g. 200000, 100_000 or 1e8), "
                               "got {value}", name=param(name), minimum=minimum, value=_shown(text)))
    return int(value)


#: What :func:`parse_ranges` says of a part that is not a number, and of a number beyond ``limit``, by its noun.
_RANGE_MESSAGES = {
    "turn": (N_("{option} {text!r}: {part!r} is not a turn or a range such as {example}"),
             N_("{option} {text!r}: turn {high} is beyond any deck")),
    "count": (N_("{option} {text!r}: {part!r} is not a count or a range such as {example}"),
              N_("{option} {text!r}: count {high} is beyond any deck")),
    "draw": (N_("{option} {text!r}: {part!r} is not a draw or a range such as {example}"),
             N_("{option} {text!r}: draw {high} is beyond any deck")),
}


#: Dashes that look like the hyphen of a range (en dash, em dash, minus sign, figure dash, non-breaking hyphen).
_DASHES = "–—−‒‑"


def parse_ranges(text: str, *, option: str, noun: str, example: str, limit: int) -> list[int]:
    """Parse ``"0-6"``, ``"3"`` or ``"0,2,4-6"`` into sorted whole numbers, naming ``option`` in errors.

    Examples
    --------
    >>> parse_ranges("0,2,4-6", option="turns", noun="turn", example="0-6", limit=1000)
    [0, 2, 4, 5, 6]
    """
    not_a_range, beyond = _RANGE_MESSAGES.get(noun, _RANGE_MESSAGES["count"])
    values: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        match = re.fullmatch(r"(\d+)\s*(?:-\s*(\d+))?", part)
        dash = next((ch for ch in part if ch in _DASHES), None)
        if not match and dash:
            raise DeckstatError(tr("{option} {text!r}: {dash!r} (U+{code}) is not a hyphen; write the range with "
                                   "'-', e.g. {example}", option=option, text=text, dash=dash,
                                   code=f"{ord(dash):04X}", example=example))
        if not match:
            raise DeckstatError(tr(not_a_range, option=option, text=text, part=part, example=example))
        low = int(match.group(1))
        high = int(match.group(2)) if match.group(2) else low
        if high < low:
            raise DeckstatError(tr("{option} {text!r}: range {part!r} goes backwards; write {high}-{low}",
                                   option=option, text=text, part=part, high=high, low=low))
        if high > limit:
            raise DeckstatError(tr(beyond, option=option, text=text, high=high))
        values.update(range(low, high + 1))
    return sorted(values)


def format_ranges(values: Iterable[int]) -> str:
    """Write whole numbers as :func:`parse_ranges` reads them, runs as ranges.

    Examples
    --------
    >>> format_ranges([0, 1, 2, 3, 5, 7, 8])
    '0-3,5,7-8'
    """
    ordered = sorted(set(int(v) for v in values))
    parts: list[str] = []
    start = previous = None
    for value in ordered + [None]:
        if start is not None and value is not None and value == previous + 1:
            previous = value
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = value
    return ",".join(parts)


def check_optional_whole(value: object, name: str, *, minimum: int = 0, maximum: int | None = None) -> int | None:
    """:func:`check_whole`, letting ``None`` through."""
    return None if value is None else check_whole(value, name, minimum=minimum, maximum=maximum)


def check_choice(value: object, name: str, choices: Sequence[str]) -> str:
    """Return ``value`` if it is one of ``choices``, or raise listing them (and the closest one)."""
    if not isinstance(value, str) or value not in choices:
        hint = suggest(value, list(choices)) if isinstance(value, str) else ""
        raise DeckstatError(tr("{name} must be one of {choices}, got {value}{hint}", name=param(name),
                               choices=", ".join(choices), value=_shown(value), hint=hint))
    return value


def check_probability(value: object, name: str) -> float:
    """Return ``value`` as a float if it is a real number from 0 to 1."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not 0 <= float(value) <= 1:
        raise DeckstatError(tr("{name} must be a probability from 0 to 1, got {value}", name=param(name),
                               value=_shown(value)))
    return float(value)


def check_half_width(value: object, name: str = "precision") -> float:
    """Return a wanted interval half-width: a real number strictly between 0 and 0.5."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(float(value)) or not 0 < float(value) < 0.5:
        raise DeckstatError(tr("{name} must be an interval half-width between 0 and 0.5, got {value}",
                               name=param(name), value=_shown(value)))
    return float(value)


def check_deck(value: object, name: str = "deck"):
    """Return ``value`` if it is a :class:`~deckstat.deck.Deck`."""
    from deckstat.deck import Deck

    if not isinstance(value, Deck):
        raise DeckstatError(tr("{name} must be a Deck (see deckstat.load_deck), got {kind}", name=param(name),
                               kind=type(value).__name__))
    return value


def seat_name(seat: object) -> object:
    """``seat`` in English: a French name (``premier``, ``les-deux``) as the seat it stands for; anything else as is."""
    return SEAT_ALIASES.get(seat, seat) if isinstance(seat, str) else seat


def check_seats(seat: object, *, single: bool = False) -> tuple[str, ...]:
    """The seats ``seat`` names: ``"first"``, ``"second"``, or both (``"both"``) unless ``single``.

    French names are accepted too: ``"premier"``, ``"second"``, ``"les-deux"`` or ``"tous"``.
    """
    seat = seat_name(seat)
    allowed = SEATS if single else SEATS + BOTH_SEATS[:1]
    if isinstance(seat, str) and seat in BOTH_SEATS and not single:
        return SEATS
    check_choice(seat, "seat", allowed)
    return (seat,)


def check_turns(turns: object, name: str = "turns", *, maximum: int = MOST_TURN) -> list[int]:
    """Sorted distinct turns from an int or an iterable of ints (turn 0: the kept opening hand), up to ``maximum``.

    Draws counted from now (``maximum=MOST_SWEEP``) are read the same way.
    """
    values = [turns] if is_whole(turns) else None
    if values is None:
        if isinstance(turns, (str, bytes)) or not isinstance(turns, Iterable):
            raise DeckstatError(tr("{name} must be a whole number or a list of them, got {value}", name=param(name),
                                   value=_shown(turns)))
        if isinstance(turns, range) and turns and max(turns[0], turns[-1]) > maximum:
            turns = [max(turns[0], turns[-1])]  # refused below, before a list of every turn is made
        values = list(turns)
    if not values:
        raise DeckstatError(tr("{name} is empty; give at least one turn", name=param(name)))
    for turn in values:
        if not is_whole(turn) or turn < 0:
            raise DeckstatError(tr("{name} must be whole numbers from 0, got {value}", name=param(name),
                                   value=_shown(turn)))
        if turn > maximum and maximum == MOST_TURN:
            raise DeckstatError(tr("{name}: turn {value} is beyond any game; deckstat follows turns 0 to {most}",
                                   name=param(name), value=_shown(turn), most=MOST_TURN))
        if turn > maximum:
            raise DeckstatError(tr("{name} must be whole numbers from 0 to {maximum}, got {value}", name=param(name),
                                   maximum=maximum, value=_shown(turn)))
    return sorted({int(t) for t in values})


def check_events(event: object, name: str = "event") -> list[str]:
    """Event texts from one text or a list of them (duplicates dropped, order kept)."""
    values = [event] if isinstance(event, str) else None
    if values is None:
        if not isinstance(event, Iterable):
            raise DeckstatError(tr("{name} must be an event text or a list of them, got {value}", name=param(name),
                                   value=_shown(event)))
        values = list(event)
    if not values:
        raise DeckstatError(tr("{name} is empty; give at least one event such as Terrain>=1", name=param(name)))
    for text in values:
        if not isinstance(text, str):
            raise DeckstatError(tr("{name} must be an event text or a list of them, got {value}", name=param(name),
                                   value=_shown(text)))
    return list(dict.fromkeys(values))
