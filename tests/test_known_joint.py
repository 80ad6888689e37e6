"""The law of cards known in several zones: every deal consistent with all descriptions at once, weighted equally.

The reference is written here again from the definition in docs/known.md,
card by card: every copy is a distinct card, every deal of the cards to the
zones is enumerated (or, in the property test, real shuffles are dealt),
a deal is kept when each zone's cards can be matched one to one with the
slots of its descriptions (a named card, or a card of a counted group, the
groups read in the order listed), and the event is counted on the hand, the
broken shields and the next cards drawn (the library in random order, then
the bottom block) exactly, with fractions.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pytest
from helpers import assert_user_error, ok_json, run, z_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import deckstat
from deckstat.deck import Deck
from deckstat.errors import DeckstatError

Card = dict
Predicate = Callable[[Card], bool]


@dataclass(frozen=True)
class Part:
    """One description of a zone, as slots: named cards, and group counts read in the order listed."""

    names: tuple[str, ...] = ()
    groups: tuple[tuple[Predicate, int], ...] = ()

    def slots(self) -> list[Predicate]:
        out: list[Predicate] = [lambda card, name=name: card["name"] == name for name in self.names]
        for i, (inside, n) in enumerate(self.groups):
            earlier = [g for g, _ in self.groups[:i]]
            out += [lambda card, inside=inside, earlier=earlier: inside(card) and not any(g(card) for g in earlier)] * n
        return out


def matches(cards: tuple[Card, ...], slots: list[Predicate]) -> bool:
    """Whether the cards can be given one slot each, every slot filled (tried one card at a time)."""
    if len(cards) != len(slots):
        return False
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    return any(slot(first) and matches(rest, slots[:i] + slots[i + 1:]) for i, slot in enumerate(slots))


@dataclass
class Reference:
    """A deck of labelled cards and what is known, for the enumeration."""

    table: list[dict]
    zones: dict[str, list[Part]] = field(default_factory=dict)
    hidden: int = 0
    broken: int = 0
    _verdicts: dict = field(default_factory=dict, repr=False)

    @property
    def cards(self) -> list[Card]:
        return [row for row in self.table for _ in range(row["count"])]

    def size(self, zone: str) -> int:
        return sum(len(part.slots()) for part in self.zones.get(zone, []))

    def fits(self, zone: str, names: tuple[str, ...]) -> bool:
        """Whether a zone holding these cards (by name) fits the zone's descriptions."""
        key = (zone, tuple(sorted(names)))
        if key not in self._verdicts:
            rows = {row["name"]: row for row in self.table}
            slots = [slot for part in self.zones.get(zone, []) for slot in part.slots()]
            self._verdicts[key] = matches(tuple(rows[n] for n in key[1]), slots)
        return self._verdicts[key]


def seen_odds(hand, set_aside, library, bottom, *, broken: int, draws: int, zone: str,
              event: Callable[[list[Card]], bool]) -> Fraction:
    """P(event) once the deal is known: the broken shields and the next draws at random."""
    total, hits = 0, 0
    for broken_cards in itertools.combinations(set_aside, broken):
        if zone == "set_aside":
            total += 1
            hits += event(list(broken_cards) if broken else list(set_aside))
            continue
        if draws <= len(library):
            drawn_sets = [list(d) for d in itertools.combinations(library, draws)]
        else:
            drawn_sets = [list(library) + list(d) for d in itertools.combinations(bottom, draws - len(library))]
        for drawn in drawn_sets:
            total += 1
            hits += event(list(hand) + list(broken_cards) + drawn)
    return Fraction(hits, total)


def enumerate_deals(reference: Reference, *, draws: list[int], event: Callable[[list[Card]], bool],
                    zone: str = "seen") -> list[Fraction]:
    """The answer by enumeration of every labelled deal: hand, gone, bottom, set-aside known and hidden."""
    cards = reference.cards
    sizes = [reference.size(z) for z in ("hand", "gone", "bottom", "set_aside")] + [reference.hidden]
    sums = [Fraction(0)] * len(draws)
    kept = 0
    answers: dict = {}

    def deal(left: list[int], k: int, chosen: list[tuple[int, ...]]):
        if k == len(sizes):
            yield chosen, left
            return
        for pick in itertools.combinations(left, sizes[k]):
            rest = [i for i in left if i not in pick]
            yield from deal(rest, k + 1, chosen + [pick])

    for (hand, gone, bottom, known_aside, hidden), library in deal(list(range(len(cards))), 0, []):
        zones = {"hand": hand, "gone": gone, "bottom": bottom, "set_aside": known_aside}
        if not all(reference.fits(z, tuple(cards[i]["name"] for i in zones[z])) for z in zones):
            continue
        kept += 1
        key = tuple(tuple(sorted(cards[i]["name"] for i in part)) for part in (hand, bottom, known_aside + hidden,
                                                                              library))
        if key not in answers:
            names = {row["name"]: row for row in reference.table}
            hand_c, bottom_c, aside_c, library_c = ([names[n] for n in part] for part in key)
            answers[key] = [seen_odds(hand_c, aside_c, library_c, bottom_c, broken=reference.broken, draws=d,
                                      zone=zone, event=event) for d in draws]
        sums = [s + a for s, a in zip(sums, answers[key])]
    assert kept, "no deal fits the descriptions"
    return [s / kept for s in sums]


def land(card: Card) -> bool:
    return card["type"] == "Land"


def creature(card: Card) -> bool:
    return card["type"] == "Creature"


def cheap(card: Card) -> bool:
    return card["cost"] <= 1


def anything(card: Card) -> bool:
    return True


# Ten cards: 3 Lands (one of them costly), 7 Creatures; 5 cards of cost 0 or 1.
LANDS = [{"name": "Swamp", "count": 2, "type": "Land", "cost": 0, "shield_trigger": 0},
         {"name": "Vault", "count": 1, "type": "Land", "cost": 3, "shield_trigger": 0},
         {"name": "Elf", "count": 2, "type": "Creature", "cost": 1, "shield_trigger": 1},
         {"name": "Sprite", "count": 1, "type": "Creature", "cost": 0, "shield_trigger": 0},
         {"name": "Bear", "count": 2, "type": "Creature", "cost": 2, "shield_trigger": 1},
         {"name": "Giant", "count": 2, "type": "Creature", "cost": 5, "shield_trigger": 0}]
LAND_DECK = Deck.from_table(LANDS)


def cheap_at_least(n: int) -> Callable[[list[Card]], bool]:
    return lambda cards: sum(cheap(c) for c in cards) >= n


def deckstat_p(known: dict, event: str, draws: list[int], *, game: str = "generic", zone: str = "seen",
               deck: Deck = LAND_DECK) -> list[float]:
    kwargs = {"draws": draws} if zone == "seen" else {}
    return deckstat.odds(deck, game, event, known=known, zone=zone, **kwargs).table["p"].tolist()


def test_the_bottom_description_informs_the_hand():
    # The bottom holds 4 of the 5 costly cards; the hand then holds 1 Land and 3 other cards among the rest.
    reference = Reference(LANDS, {"hand": [Part(groups=((land, 1), (anything, 3)))],
                                  "bottom": [Part(groups=((cheap, 0), (anything, 4)))]})
    draws = [0, 1, 2, 3]
    expected = enumerate_deals(reference, draws=draws, event=cheap_at_least(3))
    got = deckstat_p({"hand": "Land=1, other=3", "bottom": "[cost<=1]=0, other=4"}, "[cost<=1]>=3", draws)
    assert got == pytest.approx([float(x) for x in expected], abs=1e-12)
    # The hand alone, its cards drawn from all ten, is a different law: the bottom's cards matter.
    alone = deckstat_p({"hand": "Land=1, other=3"}, "[cost<=1]>=3", [0])
    assert abs(alone[0] - got[0]) > 0.05


@pytest.mark.parametrize("zones, text", [
    # Three zones counted by different, overlapping groups.
    ({"hand": [Part(groups=((land, 1), (cheap, 1), (anything, 1)))],
      "gone": [Part(groups=((cheap, 1), (anything, 1)))],
      "bottom": [Part(groups=((creature, 1), (anything, 1)))]},
     {"hand": "Land=1, [cost<=1]=1, other=1", "gone": "[cost<=1]=1, other=1", "bottom": "Creature=1, other=1"}),
    # A zone described twice: a cheap Land fits either part, and a hand is one set of cards.
    ({"hand": [Part(groups=((land, 1),)), Part(groups=((cheap, 1),))],
      "gone": [Part(groups=((cheap, 0), (anything, 2)))]},
     {"hand": ["Land=1", "[cost<=1]=1"], "gone": "[cost<=1]=0, other=2"}),
    # A named card that also belongs to a counted group: a hand of 2 Elves fits "Elf, Creature=1".
    ({"hand": [Part(names=("Elf",), groups=((creature, 1), (anything, 1)))],
      "bottom": [Part(groups=((cheap, 2),))]},
     {"hand": "Elf, Creature=1, other=1", "bottom": "[cost<=1]=2"}),
    # Names in one zone, groups in the others.
    ({"hand": [Part(names=("Swamp", "Bear"))], "gone": [Part(groups=((land, 1), (anything, 1)))],
      "bottom": [Part(names=("Elf",), groups=((cheap, 1),))]},
     {"hand": "Swamp, Bear", "gone": "Land=1, other=1", "bottom": "Elf, [cost<=1]=1"}),
])
def test_several_zones_agree_with_every_labelled_deal(zones, text):
    reference = Reference(LANDS, zones)
    draws = list(range(0, 10 - sum(reference.size(z) for z in ("hand", "gone")) + 1))
    for need in (1, 2, 3):
        expected = enumerate_deals(reference, draws=draws, event=cheap_at_least(need))
        got = deckstat_p(text, f"[cost<=1]>={need}", draws)
        assert got == pytest.approx([float(x) for x in expected], abs=1e-12), need


def test_named_copies_weigh_as_sets_of_cards():
    # Three Elves; the hand "Elf, Creature=1" of 2 cards: {Elf, Elf} is C(3, 2) = 3 hands, {Elf, Bear} 3 × 2 = 6.
    deck = Deck.from_table([{"name": "Elf", "count": 3, "type": "Creature", "cost": 1},
                            {"name": "Bear", "count": 2, "type": "Creature", "cost": 2},
                            {"name": "Swamp", "count": 5, "type": "Land", "cost": 0}])
    p = deckstat.odds(deck, "generic", "Elf>=2", known={"hand": "Elf, Creature=1"}, draws=[0]).table["p"][0]
    assert p == pytest.approx(3 / 9, abs=1e-12)


def test_broken_shields_and_hidden_shields_over_the_joint_law():
    # Duel Masters sets 5 shields aside: one known to be a trigger, 4 unknown; 2 broken into the hand.
    reference = Reference(LANDS, {"hand": [Part(groups=((land, 1), (anything, 1)))],
                                  "bottom": [Part(groups=((cheap, 1),))],
                                  "set_aside": [Part(groups=((lambda c: c["shield_trigger"] == 1, 1),))]},
                          hidden=4, broken=2)
    trigger = "[shield_trigger=1]>=1"

    def triggers(cards):
        return any(c["shield_trigger"] == 1 for c in cards)

    known = {"hand": "Land=1, other=1", "bottom": "[cost<=1]=1", "set_aside": "[shield_trigger=1]=1", "broken": 2}
    # Library: 10 - 2 hand - 1 bottom - 5 shields = 2 cards; draws 3 reach the bottom block.
    draws = [0, 1, 2, 3]
    expected = enumerate_deals(reference, draws=draws, event=triggers)
    got = deckstat_p(known, trigger, draws, game="duel-masters")
    assert got == pytest.approx([float(x) for x in expected], abs=1e-12)
    among_broken = enumerate_deals(reference, draws=[0], event=triggers, zone="set_aside")
    assert deckstat_p(known, trigger, [0], game="duel-masters", zone="set_aside") == pytest.approx(
        [float(among_broken[0])], abs=1e-12)
    # Without broken shields, the zone is the five shields, the known trigger among them.
    assert deckstat_p({**known, "broken": 0}, trigger, [0], game="duel-masters", zone="set_aside") == [1.0]


def test_descriptions_no_deal_meets_name_the_zone():
    # 5 cheap cards: 2 in the hand and 4 gone cannot both hold.
    with pytest.raises(DeckstatError) as info:
        deckstat_p({"hand": "[cost<=1]=2, other=1", "gone": "[cost<=1]=4"}, "Land>=1", [0])
    assert str(info.value) == ("gone '[cost<=1]=4': no deal of the deck fits this description together with "
                               "hand '[cost<=1]=2, other=1'")
    # One zone alone: two descriptions of one hand with 3 cheap cards each are 6 of the 5 cheap cards.
    with pytest.raises(DeckstatError) as info:
        deckstat_p({"hand": ["[cost<=1]=3", "[cost<=1]=3"]}, "Land>=1", [0])
    assert str(info.value) == "hand '[cost<=1]=3'; hand '[cost<=1]=3': no cards of the deck fit this description"


def test_a_named_card_and_its_group_share_the_copies():
    # Two Swamps named in the hand leave only the Vault for "Land=2" gone: refused before any deal is weighed.
    with pytest.raises(DeckstatError, match="only 1 such cards besides the cards named"):
        deckstat_p({"hand": "2 Swamp", "gone": "Land=2"}, "Land>=1", [0])


@pytest.fixture
def land_csv(tmp_path):
    path = tmp_path / "lands.csv"
    columns = ["name", "count", "type", "cost"]
    path.write_text("\n".join([",".join(columns)] + [",".join(str(row[c]) for c in columns) for row in LANDS]) + "\n",
                    encoding="utf-8")
    return path


def test_the_command_line_weighs_every_zone_at_once(land_csv):
    reference = Reference(LANDS, {"hand": [Part(groups=((land, 1), (anything, 3)))],
                                  "bottom": [Part(groups=((cheap, 0), (anything, 4)))]})
    expected = enumerate_deals(reference, draws=[0, 2], event=cheap_at_least(2))
    data = ok_json(run("odds", land_csv, "--game", "generic", "--given", "hand: Land=1, other=3", "--given",
                       "bottom: [cost<=1]=0, other=4", "--event", "[cost<=1]>=2", "--draws", "0,2", "--format", "json"))
    assert [row["p"] for row in data["table"]] == pytest.approx([float(x) for x in expected], abs=1e-12)
    # Hands that leave too few cheap cards for the gone zone weigh nothing; the others answer.
    gone = Reference(LANDS, {"hand": [Part(groups=((land, 1), (anything, 3)))], "gone": [Part(groups=((cheap, 2),))]})
    expected = enumerate_deals(gone, draws=[0], event=cheap_at_least(2))
    data = ok_json(run("odds", land_csv, "--game", "generic", "--given", "hand: Land=1, other=3", "--given",
                       "gone: [cost<=1]=2", "--event", "[cost<=1]>=2", "--draws", "0", "--format", "json"))
    assert data["table"][0]["p"] == pytest.approx(float(expected[0]), abs=1e-12)


def test_the_command_line_refuses_descriptions_no_deal_meets(land_csv):
    args = ["odds", land_csv, "--game", "generic", "--given", "hand: [cost<=1]=2, other=1", "--given",
            "gone: [cost<=1]=4", "--event", "Land>=1", "--draws", "0"]
    assert_user_error(run(*args), "gone '[cost<=1]=4'", "no deal of the deck fits this description together with")
    assert_user_error(run(*args, "--lang", "fr"), "défausse '[cost<=1]=4'", "aucune donne")


# ---- Rejection sampling of real shuffles, for random small decks and descriptions ----

GROUPS = {"Land": land, "Creature": creature, "[cost<=1]": cheap, "[cost>=2]": lambda c: c["cost"] >= 2}


@st.composite
def situations(draw):
    """A small deck, one deal of it, and descriptions of that deal's zones (so that some deal fits them)."""
    # Every group matches some card: a cheap Land and a costly Creature, then up to two cards of any kind.
    kinds = [("Land", draw(st.integers(0, 1))), ("Creature", draw(st.integers(2, 3)))]
    kinds += draw(st.lists(st.tuples(st.sampled_from(["Land", "Creature"]), st.integers(0, 3)), max_size=2))
    table = [{"name": f"Card{i}", "count": draw(st.integers(1, 3)), "type": kind, "cost": cost}
             for i, (kind, cost) in enumerate(kinds)]
    cards = [row for row in table for _ in range(row["count"])]
    sizes = {"hand": draw(st.integers(1, min(3, len(cards))))}
    sizes["gone"] = draw(st.integers(0, min(3, len(cards) - sizes["hand"])))
    sizes["bottom"] = draw(st.integers(0, min(3, len(cards) - sizes["hand"] - sizes["gone"])))
    order = draw(st.permutations(range(len(cards))))
    start, texts, parts = 0, {}, {}
    for zone, size in sizes.items():
        held = [cards[i] for i in order[start:start + size]]
        start += size
        if not held:
            continue
        named = held[:1] if draw(st.booleans()) else []
        listed = draw(st.lists(st.sampled_from(sorted(GROUPS)), unique=True, max_size=2))
        counts = [0] * (len(listed) + 1)  # the last one: other
        for card in held[len(named):]:
            counts[next((i for i, g in enumerate(listed) if GROUPS[g](card)), len(listed))] += 1
        texts[zone] = ", ".join([c["name"] for c in named] + [f"{g}={n}" for g, n in zip(listed, counts)]
                                + [f"other={counts[-1]}"])
        parts[zone] = [Part(names=tuple(c["name"] for c in named),
                            groups=tuple(zip([GROUPS[g] for g in listed] + [anything], counts)))]
    group = draw(st.sampled_from(sorted(GROUPS)))
    need = draw(st.integers(1, 3))
    return table, parts, texts, sizes, group, need


def sampled_odds(reference, sizes, group, need, draws, rng, *, block=20_000, most=400_000, enough=4_000):
    """P(event) by rejection sampling: shuffle, deal hand | gone | bottom | library, keep the deals that fit."""
    cards = reference.cards
    names = [row["name"] for row in reference.table]
    row_of = np.array([names.index(c["name"]) for c in cards])
    in_group = np.array([GROUPS[group](c) for c in cards])
    h, g, b = sizes["hand"], sizes["gone"], sizes["bottom"]
    hits, kept, dealt = np.zeros(len(draws)), 0, 0
    while kept < enough and dealt < most:
        shuffles = rng.permuted(np.tile(np.arange(len(cards)), (block, 1)), axis=1)
        dealt += block
        fits = np.ones(block, dtype=bool)
        for zone, (first, size) in {"hand": (0, h), "gone": (h, g), "bottom": (h + g, b)}.items():
            held = np.zeros((block, len(names)), dtype=int)
            np.add.at(held, (np.arange(block)[:, None], row_of[shuffles[:, first:first + size]]), 1)
            contents, content_of = np.unique(held, axis=0, return_inverse=True)
            verdict = np.array([reference.fits(zone, tuple(n for n, k in zip(names, row) for _ in range(k)))
                                for row in contents.tolist()])
            fits &= verdict[content_of.ravel()]
        shuffles = shuffles[fits]
        kept += len(shuffles)
        # Draw order after the hand: the library (in its random order), then the bottom block (in its own).
        draw_order = np.concatenate([shuffles[:, h + g + b:], shuffles[:, h + g:h + g + b]], axis=1)
        seen = in_group[shuffles[:, :h]].sum(axis=1)[:, None] + np.concatenate(
            [np.zeros((len(shuffles), 1), dtype=int), in_group[draw_order].cumsum(axis=1)], axis=1)
        hits += (seen[:, draws] >= need).sum(axis=0)
    return hits / kept, kept


EXAMPLES = 25


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(situation=situations())
def test_the_exact_law_matches_rejection_sampling_of_shuffles(situation):
    table, parts, texts, sizes, group, need = situation
    left = sum(row["count"] for row in table) - sizes["hand"] - sizes["gone"]
    draws = sorted({0, left // 2, left})
    exact = np.array(deckstat.odds(Deck.from_table(table), "generic", f"{group}>={need}", known=texts,
                                   draws=draws).table["p"])
    sampled, kept = sampled_odds(Reference(table, parts), sizes, group, need, draws, np.random.default_rng(7))
    se = np.sqrt(exact * (1 - exact) / kept)
    # An exact 0 or 1 must be sampled exactly; otherwise within z standard errors, z for every comparison made.
    assert np.all(np.abs(sampled - exact) <= z_for(EXAMPLES * 3) * se + 1e-12), (texts, exact, sampled, kept)
