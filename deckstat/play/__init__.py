"""Goldfish play models: on which turn a card can first be played under a game's costs.

Each game profile names its model in a ``[play_model]`` table (``kind``);
:data:`MODELS` is the catalogue of kinds (their policies in words, the class
each loads, :mod:`deckstat.play.catalogue`), :func:`build_model` makes one for
a deck. See :mod:`deckstat.play.base` for the contract every model follows and
:mod:`deckstat.play.engine` for how curves are computed from them.

Layer rule: play models are engines that know a game's costs. A model reads
the columns it needs from the deck once (``deckstat.deck``), then works on
numpy arrays. Modules here import numpy, pandas, ``deckstat.deck`` and the
modules below it (``errors``, ``events``, ``i18n``, ``parsing``, ``schema``,
``terms``, ``text``); only ``engine`` imports ``deckstat.engines`` (to deal games and
price exact curves), and no model imports ``engine``. Never
``deckstat.games`` (a profile comes in as an argument), the questions,
presentation or the command line. The questions run the models; the
profiles and the report read only this package's :data:`MODELS` (the
policies in words), which loads no model: importing this package loads
neither numpy nor pandas (``deckstat games show`` starts light), and a model
class is imported when :func:`build_model` makes one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckstat.errors import DeckstatError, param
from deckstat.i18n import tr
from deckstat.play.catalogue import MODELS
from deckstat.text import fold, suggest

if TYPE_CHECKING:
    from deckstat.play.base import PlayModel

#: The model classes, importable from this package (``from deckstat.play import DiscardModel``), each loaded when
#: first asked for.
_CLASSES = {"PlayModel": "deckstat.play.base", **{entry.name: entry.module for entry in MODELS.values()}}


def __getattr__(name: str):
    """A model class (:data:`_CLASSES`), imported on first use."""
    if name in _CLASSES:
        import importlib

        return getattr(importlib.import_module(_CLASSES[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_model(deck, profile, policy: str | None = None, opponent=None) -> PlayModel:
    """The play model of ``profile`` for ``deck`` (its drawn cards), following ``policy`` (default: the profile's).

    ``opponent``: the opponent's drawn deck, for a model that plays both players (default: a copy of ``deck``);
    refused by the one-player models.

    Raises
    ------
    DeckstatError
        An unknown model kind or policy, or a card the model cannot read.
    """
    settings = profile.play_model
    if settings.kind not in MODELS:
        raise DeckstatError(tr("unknown play model {model!r} in the {game} profile; expected one of {choices}",
                               model=settings.kind, game=profile.name, choices=", ".join(MODELS))
                            + suggest(settings.kind, list(MODELS)))
    model_class = MODELS[settings.kind].load()
    chosen = policy or settings.policy or model_class.default_policy
    chosen = model_class.policy_aliases.get(fold(chosen), chosen)
    if chosen not in model_class.policies:
        raise DeckstatError(tr("unknown {option} {policy!r} for {game}; expected one of {choices}",
                               option=param("policy"), policy=chosen, game=profile.name,
                               choices=", ".join(model_class.policies)) + suggest(chosen, list(model_class.policies)))
    model = model_class(deck=deck, profile=profile, policy=chosen, settings=dict(settings.settings),
                        **({} if opponent is None or "opponent" not in model_class.__dataclass_fields__
                           else {"opponent": opponent}))
    if opponent is not None and model.rival_deck() is None:
        raise DeckstatError(tr("{option}: the {game} play model plays the player alone, so an opponent's deck "
                               "changes nothing; leave it out", option=param("opponent"), game=profile.name))
    return model
