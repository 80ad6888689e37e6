"""The play models as a player reads them: kinds, policies in words, default policy; no model loaded.

``deckstat games show`` and the report describe a profile's policies from
here, which imports neither numpy nor pandas; :meth:`Entry.load` imports the
model class, which reads decks with them. A model class takes its
``policies``, ``default_policy`` and ``policy_aliases`` from here, by its
``kind`` (:class:`deckstat.play.base.PlayModel`), so the words exist once.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from deckstat.i18n import N_


@dataclass(frozen=True)
class Entry:
    """One play model as the profiles name it, and where its class is.

    Attributes
    ----------
    kind : str
        The ``[play_model] kind`` naming it.
    policies : dict of str to str
        Policy name -> one sentence saying what the player does (English, translated when shown).
    default_policy : str
        The policy followed when none is asked for.
    policy_aliases : dict of str to str
        Other spellings of the policies (French names), folded -> policy name.
    module, name : str
        The module and name of the model class.
    """

    kind: str
    policies: dict[str, str]
    default_policy: str
    module: str
    name: str
    policy_aliases: dict[str, str] = field(default_factory=dict)

    def load(self) -> type:
        """The model class, a :class:`deckstat.play.base.PlayModel` subclass (importing it loads numpy)."""
        return getattr(importlib.import_module(self.module), self.name)


#: The play models by ``[play_model] kind``, in the order their classes were listed.
MODELS: dict[str, Entry] = {entry.kind: entry for entry in (
    Entry("hand", {"any": N_("play the target as soon as a copy is in hand")}, "any", "deckstat.play.hand", "InHand"),
    Entry("discard", {
        "hold": N_("Plays only the Terrains the rules force and keeps every other card for the target, played as "
                   "soon as it can be paid."),
        "curve": N_("Each turn the target cannot be played, plays other Personnages, the most expensive it can pay "
                    "first, discarding only cards it does not need for the target (and keeping a Terrain for the "
                    "next turn when Terrains are scored)."),
    }, "hold", "deckstat.play.discard", "DiscardModel",
        {"garder": "hold", "conserver": "hold", "courbe": "curve", "jouer": "curve"}),
    Entry("mana", {
        "civ_first": N_("charge a card every turn, never the last copy of the target in hand (nor, for an "
                        "evolution, the last base creature while none is in the battle zone); first a card bringing "
                        "a civilization the target or its base still lacks in mana, otherwise a card that is "
                        "neither target nor base, the most expensive first; cast the cheapest base creature as soon "
                        "as possible, then evolve"),
        "first_drawn": N_("charge the card that has been in hand longest, never a target card (an evolution's base "
                          "creatures may go); cast the cheapest base creature as soon as possible, then evolve"),
    }, "civ_first", "deckstat.play.mana", "ManaModel"),
    Entry("condition", {
        "target": N_("Keep the TERRAIN slot for a TERRAIN the target needs and play it when held (any TERRAIN when "
                     "it needs none); summon condition-free INVOCATIONs as they come (up to 4, or 3 when a slot must "
                     "stay free for the target) and put condition-free EQUIPEMENTs under them; a sacrifice takes any "
                     "of these cards in play and condition-free EFFETs played from hand that turn; play the target "
                     "as soon as it can be played."),
        "tribute": N_("As target, but a sacrifice takes only INVOCATIONs of the field (the tributes of the games JdG "
                      "parodies), not EQUIPEMENTs, EFFETs or the TERRAIN."),
    }, "target", "deckstat.play.condition", "ConditionModel", {"cible": "target", "tribut": "tribute"}),
    Entry("bench", {
        "target": N_("Play the target when it can be played; otherwise play an Improvisateur whose spring fetches "
                     "it; otherwise, when a Substitut needs an Improvisateur to take back, bench one (at most 4)."),
    }, "target", "deckstat.play.bench", "BenchModel"),
    Entry("logistics", {
        "target": N_("Each turn, put the Logistique cards that produce the most into play and recruit the target "
                     "as soon as the logistics in play pay for it; no other card is played."),
        "peasant": N_("As target, and when the target cannot be paid, also recruit the cheapest affordable peasant "
                      "(one is enough) so that the entrepôt gives its point from then on."),
    }, "target", "deckstat.play.logistics", "LogisticsModel"),
)}
