"""Card effects as data: the ``effect`` (``effet``) column's small vocabulary, read in French or English.

A cell holds one effect or several separated by ``;``. An effect is an action, optionally after the moment it
happens and a colon::

    pioche=2                          draw 2 cards (at the game's moment for effects: when the card is played)
    cherche=[type=Terrain]:1          search the deck for 1 Terrain, take it, shuffle
    regarde=5:[race~=Dragon]:1        look at the top 5 cards, take 1 Dragon, the rest under the deck
    permanent:pioche_par_tour=+1      while the card is in play, every player draws 1 more card each turn
    déclencheur:mana=1                as a shield trigger: the top card of the deck into the mana zone

Keywords are read as column headers are (:func:`~deckstat.text.fold_key`: without case, accents, spaces, ``_`` or
``-``); groups are written as in events
(``Terrain``, ``"Nom de carte"``, ``[cost<=1]``). The grammar, with an example per game, is in
``docs/effects.md``. Reading an effect checks its words and numbers only: whether its groups name cards of a
deck is checked by the question that plays it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from deckstat.errors import ExpressionError
from deckstat.i18n import N_, get_language, tr
from deckstat.parsing import Piece, split_top_level
from deckstat.terms import MAX_COPIES, MOST_EXPRESSION_CHARS
from deckstat.text import fold_key, suggest

if TYPE_CHECKING:  # the event language is imported where an effect is read: a profile's moments need only TIMINGS
    from deckstat.events import Group

#: The moments an effect happens, by canonical name: their spellings (English, then French) and meaning.
TIMINGS: dict[str, tuple[tuple[str, ...], str]] = {
    "on_play": (("on_play", "played", "pose", "posee", "joue", "jouee"), N_("when the card is played")),
    "on_draw": (("on_draw", "drawn", "piochee", "a_la_pioche"), N_("when the card is drawn")),
    "in_play": (("in_play", "while_in_play", "permanent", "en_jeu", "∞"),
                N_("while the card is in play (a permanent effect)")),
    "combo": (("combo",), N_("when the card completes a combo (Wankul)")),
    "won": (("won", "winner", "gagnant", "pouce_bleu"), N_("when the player wins the score of this Terrain (Wankul)")),
    "lost": (("lost", "loser", "perdant", "pouce_rouge"),
             N_("when the player loses the score of this Terrain (Wankul)")),
    "trigger": (("trigger", "shield_trigger", "declencheur", "declencheur_de_bouclier"),
                N_("when the card is broken from the shields (a Duel Masters shield trigger)")),
}

#: The actions, by canonical name: their spellings (English, then French), the arguments they take and meaning.
#: Arguments: ``n`` a number of cards, ``±n`` a signed number, ``group`` a card group, ``k`` the cards taken; a
#: ``?`` marks one that may be left out (1 then).
ACTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {
    "draw": (("draw", "draws", "pioche", "piocher"), ("n?",), N_("the player draws n cards")),
    "opponent_draws": (("opponent_draws", "adversaire_pioche"), ("n?",), N_("the opponent draws n cards")),
    "mill": (("mill", "meule"), ("n?",), N_("the top n cards of the opponent's deck go to their discard pile")),
    "discard": (("discard", "defausse", "defausser"), ("n?",), N_("the player discards n cards from hand")),
    "opponent_discards": (("opponent_discards", "adversaire_defausse"), ("n?",),
                          N_("the opponent discards n cards from hand")),
    "search": (("search", "cherche", "chercher", "spring"), ("group", "k?"),
               N_("the player takes k cards of the group from the deck into hand, then shuffles the deck")),
    "look": (("look", "regarde", "regarder"), ("n", "group", "k?"),
             N_("the player looks at the top n cards, takes up to k of the group into hand and puts the rest under "
                "the deck")),
    "refill": (("refill", "complete", "completer"), ("n",), N_("the player draws until the hand holds n cards")),
    "mana": (("mana", "charge"), ("n?",), N_("the top n cards of the deck go into the mana zone (Duel Masters)")),
    "score": (("score", "scorer", "marque"), (), N_("the player scores a Terrain in play (Wankul)")),
    "turn_draws": (("turn_draws", "pioche_par_tour"), ("±n",),
                   N_("every player draws n more cards each turn (fewer when negative)")),
}

#: The word messages show for each moment and action in French (the canonical names are the English ones).
FRENCH_WORDS = {"on_play": "posée", "on_draw": "piochée", "in_play": "permanent", "combo": "combo", "won": "gagnant",
                "lost": "perdant", "trigger": "déclencheur", "draw": "pioche", "opponent_draws": "adversaire_pioche",
                "mill": "meule", "discard": "défausse", "opponent_discards": "adversaire_défausse",
                "search": "cherche", "look": "regarde", "refill": "complète", "mana": "mana", "score": "score",
                "turn_draws": "pioche_par_tour"}


def keyword(name: str) -> str:
    """A moment or an action as a message names it in the current language (``draw``, ``pioche``)."""
    return FRENCH_WORDS[name] if get_language() == "fr" else name


#: What separates the effects of a cell, the moment from its action, and an action's arguments.
EFFECT_SEPARATOR, TIMING_SEPARATOR, ARGUMENT_SEPARATOR = ";", ":", ":"
DEFAULT_TIMING = "on_play"


_TIMING_OF = {fold_key(spelling): name for name, (spellings, _) in TIMINGS.items() for spelling in spellings}
_ACTION_OF = {fold_key(spelling): name for name, (spellings, _, _) in ACTIONS.items() for spelling in spellings}


@dataclass(frozen=True)
class Effect:
    """One effect of a card.

    Attributes
    ----------
    action : str
        A key of :data:`ACTIONS` (``draw``, ``search``…).
    timing : str or None
        A key of :data:`TIMINGS`, or None when the cell names no moment: the game's ``effect_moment`` then
        (:meth:`moment`).
    amount : int or None
        The cards drawn, milled, discarded, looked at or put into mana; the hand size of ``refill``; the change of
        ``turn_draws``; None for ``search`` and ``score``.
    group : Group or None
        The cards ``search`` and ``look`` may take.
    take : int or None
        How many of them (``search``, ``look``).
    """

    action: str
    timing: str | None = None
    amount: int | None = None
    group: Group | None = None
    take: int | None = None

    def to_text(self) -> str:
        """The effect as the cell writes it, with English keywords; reads back as the same effect."""
        arguments = []
        for kind in (kind.rstrip("?") for kind in ACTIONS[self.action][1]):
            if kind == "group":
                arguments.append(self.group.label)
            elif kind == "k":
                arguments.append(str(self.take))
            elif kind == "±n":
                arguments.append(f"{self.amount:+d}")
            else:
                arguments.append(str(self.amount))
        action = self.action + ("=" + ARGUMENT_SEPARATOR.join(arguments) if arguments else "")
        return action if self.timing is None else f"{self.timing}{TIMING_SEPARATOR}{action}"

    def shown(self) -> str:
        """The effect as :meth:`to_text` writes it, its keywords in the current language (``cherche=…``)."""
        text = self.to_text()
        if self.timing is not None:
            text = text[len(self.timing) + len(TIMING_SEPARATOR):]
        text = keyword(self.action) + text[len(self.action):]
        return text if self.timing is None else f"{keyword(self.timing)}{TIMING_SEPARATOR}{text}"

    def moment(self, default: str = DEFAULT_TIMING) -> str:
        """When the effect happens: its own moment, else ``default`` (a game profile's ``effect_moment``)."""
        return self.timing or default


def moment_of(word: str) -> str:
    """The moment ``word`` names, in French or English (``posée``, ``on_play``): a key of :data:`TIMINGS`.

    Raises
    ------
    ExpressionError
        For another word, with the moments and the closest one.
    """
    name = _TIMING_OF.get(fold_key(word))
    if name is None:
        raise ExpressionError(tr("unknown moment {word!r}; expected one of {choices}{hint}", word=word,
                                 choices=", ".join(map(keyword, TIMINGS)), hint=_hint(word, TIMINGS)))
    return name


def effects_text(effects: tuple[Effect, ...]) -> str:
    """A cell holding ``effects``, English keywords (the inverse of :func:`parse_effects`)."""
    return f"{EFFECT_SEPARATOR} ".join(effect.to_text() for effect in effects)


def parse_effects(text: str, *, what: str = "effect") -> tuple[Effect, ...]:
    """Read a cell of the ``effect`` column: its effects, in order (none for an empty cell).

    Parameters
    ----------
    text : str
        The cell, e.g. ``"pioche=2"`` or ``"cherche=[type=Terrain]:1; permanent:pioche_par_tour=+1"``.
    what : str
        How messages name the text (the card file's place is added by the loader).

    Returns
    -------
    tuple of Effect

    Raises
    ------
    ExpressionError
        An unknown keyword (with the closest one), a missing or extra argument, a number that is not a whole number
        in range, or a group that does not parse; the message gives the 1-based position in ``text``.

    Examples
    --------
    >>> parse_effects("pioche=2")
    (Effect(action='draw', timing=None, amount=2, group=None, take=None),)
    >>> [e.to_text() for e in parse_effects("Permanent : pioche par tour = +1; cherche=[type=Terrain]")]
    ['in_play:turn_draws=+1', 'search=[type=Terrain]:1']
    """
    if not isinstance(text, str):
        raise ExpressionError(tr("expected text, got {kind}", kind=type(text).__name__), source=what)
    reader = _Reader(text, what)
    if len(text) > MOST_EXPRESSION_CHARS:
        raise reader.error(tr("{length} characters is more than an effect may hold ({most})", length=len(text),
                              most=MOST_EXPRESSION_CHARS), 1)
    pieces = [piece.strip() for piece in split_top_level(text, EFFECT_SEPARATOR)]
    if len(pieces) == 1 and not pieces[0].text:
        return ()
    return tuple(reader.effect(piece) for piece in pieces)


class _Reader:
    """Reads the effects of one cell; its errors point at a position of the whole cell."""

    def __init__(self, text: str, what: str):
        self.text = text
        self.what = what

    def error(self, message: str, position: int) -> ExpressionError:
        from deckstat.events import expression_source, shown_text

        return ExpressionError(message, source=expression_source(self.what, shown_text(self.text)),
                               column=position)

    def effect(self, piece: Piece) -> Effect:
        if not piece.text:
            raise self.error(tr("empty effect between two {separator!r}; expected an effect such as pioche=1",
                                separator=EFFECT_SEPARATOR), piece.start + 1)
        timing, action = None, piece
        head, _, _ = piece.text.partition("=")
        if TIMING_SEPARATOR in head and not head.lstrip().startswith(("[", '"', "'")):
            word = Piece(piece.text[:piece.text.index(TIMING_SEPARATOR)], piece.start).strip()
            after = piece.text.index(TIMING_SEPARATOR) + 1
            action = Piece(piece.text[after:], piece.start + after).strip()
            if fold_key(word.text) in _ACTION_OF and fold_key(word.text) not in _TIMING_OF:
                raise self.error(tr("{word!r} is an action, not a moment: its arguments come after '=', as in "
                                    "{example}", word=word.text, example=f"{word.text}={action.text}"),
                                 word.start + 1)
            timing = self.timing(word)
        return self.action(action, timing)

    def timing(self, word: Piece) -> str:
        try:
            return moment_of(word.text)
        except ExpressionError as error:
            raise self.error(error.message, word.start + 1) from None

    def action(self, piece: Piece, timing: str | None) -> Effect:
        word_text, equals, rest = piece.text.partition("=")
        word = Piece(word_text, piece.start).strip()
        if not word.text:
            raise self.error(tr("missing action; expected one of {choices}",
                                choices=", ".join(map(keyword, ACTIONS))), piece.start + 1)
        name = _ACTION_OF.get(fold_key(word.text))
        if name is None:
            raise self.error(tr("unknown action {word!r}; expected one of {choices}{hint}", word=word.text,
                                choices=", ".join(map(keyword, ACTIONS)), hint=_hint(word.text, ACTIONS)),
                             word.start + 1)
        kinds = [kind.rstrip("?") for kind in ACTIONS[name][1]]
        required = [kind for kind in ACTIONS[name][1] if not kind.endswith("?")]
        start = piece.start + len(word_text) + 1
        written = [Piece(p.text, p.start + start).strip() for p in split_top_level(rest, ARGUMENT_SEPARATOR)] \
            if equals else []
        end = piece.start + len(piece.text) + 1
        if equals and len(written) == 1 and not written[0].text:
            raise self.error(tr("nothing after '='; expected {arguments}", arguments=_arguments(name)), end)
        if len(written) > len(kinds):
            extra = written[len(kinds)]
            raise self.error(tr("{action} takes {arguments}; unexpected {token!r}", action=word.text,
                                arguments=_arguments(name), token=extra.text), extra.start + 1)
        if len(written) < len(required):
            raise self.error(tr("{action} needs {arguments}", action=word.text, arguments=_arguments(name)), end)
        values = {kind: self.argument(kind, argument) for kind, argument in zip(kinds, written)}
        amount = values.get("n", values.get("±n", 1 if "n" in kinds else None))
        take = values.get("k", 1) if "k" in kinds else None
        if name == "turn_draws" and amount == 0:
            raise self.error(tr("a change of 0 cards draws as before; expected a change such as +1 or -1"),
                             written[0].start + 1)
        if name == "look" and take > amount:
            raise self.error(tr("takes {take} of the top {n} cards; expected at most {n}", take=take, n=amount),
                             written[2].start + 1)
        return Effect(name, timing, amount, values.get("group"), take)

    def argument(self, kind: str, piece: Piece) -> object:
        if not piece.text:
            raise self.error(tr("empty argument; expected {kind}", kind=tr(_ARGUMENT_WORDS[kind])), piece.start + 1)
        if kind == "group":
            from deckstat.events import parse_group

            try:
                return parse_group(piece.text, what=self.what)
            except ExpressionError as error:
                inner = error.column if isinstance(error.column, int) else 1
                raise self.error(error.message, piece.start + inner) from None
        signed = kind == "±n"
        text = piece.text.replace(" ", "")
        digits = text[1:] if signed and text[:1] in "+-" else text
        if not digits.isdigit() or not digits.isascii():
            raise self.error(tr("expected {kind}, got {token!r}", kind=tr(_ARGUMENT_WORDS[kind]), token=piece.text),
                             piece.start + 1)
        value = int(text)
        least = -MAX_COPIES if signed else 1
        if not least <= value <= MAX_COPIES:
            raise self.error(tr("{value} is out of range; expected a whole number from {least} to {most}",
                                value=piece.text, least=least, most=MAX_COPIES), piece.start + 1)
        return value


#: How messages name each kind of argument.
_ARGUMENT_WORDS = {"n": N_("a number of cards (1 or more)"), "±n": N_("a signed number of cards such as +1"),
                   "group": N_("a card group such as Terrain or [cost<=1]"),
                   "k": N_("a number of cards taken (1 or more)")}


def _arguments(action: str) -> str:
    """What an action takes, in words."""
    kinds = ACTIONS[action][1]
    if not kinds:
        return tr("no argument")
    words = [tr(_ARGUMENT_WORDS[kind.rstrip("?")]) + (tr(" (1 when left out)") if kind.endswith("?") else "")
             for kind in kinds]
    if len(words) == 1:
        return tr("{argument} after '='", argument=words[0])
    return tr("{arguments} after '=', separated by {separator!r}", arguments=", ".join(words),
              separator=ARGUMENT_SEPARATOR)


def _hint(word: str, names: dict) -> str:
    """``; did you mean 'x'?`` for the closest spelling of ``names`` (their French words as messages show them)."""
    spellings = [spelling for name in names for spelling in (*names[name][0], FRENCH_WORDS[name])]
    return suggest(word, spellings)
