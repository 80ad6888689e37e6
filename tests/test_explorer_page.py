"""The explorer's page in a real browser: headless Chromium, driven by Playwright, against ``deckstat explore``.

The page is served by the command line in a process of its own, as a player starts it. The numbers the page shows
are compared with :func:`deckstat.odds` asked directly of the deck as changed; the time from a change to the new
number on the page is measured and printed (``-s``), never held to a bound here (see ``scripts/bench.py``).

Skipped without Playwright or Chromium, unless ``DECKSTAT_REQUIRE_BROWSER`` is set (``.ci/run`` sets it, after
installing Debian's ``chromium`` when it is missing): then a missing browser fails.
"""

from __future__ import annotations

import csv
import os
import re
import statistics
import sys
import time

import pytest
from helpers import ROOT, sample_deck

import deckstat

sys.path.insert(0, str(ROOT / "scripts"))
from page_driver import Server, chromium, launch, timed_change  # noqa: E402

REQUIRED = bool(os.environ.get("DECKSTAT_REQUIRE_BROWSER"))
try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None

if REQUIRED:
    assert sync_playwright is not None, "DECKSTAT_REQUIRE_BROWSER is set but Playwright is not installed"
    assert chromium(), "DECKSTAT_REQUIRE_BROWSER is set but no chromium is on PATH"
elif sync_playwright is None or not chromium():
    pytest.skip("the page's tests need Playwright and Chromium (.ci/run installs them)", allow_module_level=True)
pytest.importorskip("panel")

#: Seconds a page may take to answer at all (the machine may be busy).
PATIENCE = 60.0
#: Significant digits the page writes its probabilities with (data-p attributes).
DIGITS = 12
HOSTILE = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        launched = launch(playwright)
        yield launched
        launched.close()


class Page:
    """One visit of the page, with every console error and dialog it raised."""

    def __init__(self, browser, url: str):
        self.page = browser.new_page(viewport={"width": 1200, "height": 1600})
        self.problems: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("console", lambda m: self.problems.append(f"{m.type}: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("dialog", self._dialog)
        self.page.goto(url)
        self.answer.wait_for(timeout=PATIENCE * 1000)

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    @property
    def answer(self):
        return self.page.locator(".deckstat-answer")

    def shown(self) -> dict[tuple[str, int], float]:
        """The probability the page's table shows for each seat and turn."""
        cells = self.page.locator(".deckstat-odds-table td[data-p]")
        found = cells.evaluate_all("cells => cells.map(c => [c.dataset.seat, c.dataset.turn, c.dataset.p])")
        return {(seat, int(turn)): float(p) for seat, turn, p in found}

    def copies(self, card: str):
        return self.page.locator(".deckstat-copies").filter(has_text=card).locator("input")

    def timed(self, element, value: str, event: str) -> float:
        """Set ``element``'s value and fire ``event``; the seconds, timed in the page, until its table changes."""
        return timed_change(self.page, element, value, event, PATIENCE)

    def shows(self, wanted: dict[int, float]) -> None:
        """Wait until the page's table shows ``wanted``, which it must within :data:`PATIENCE`."""
        started = time.perf_counter()
        while time.perf_counter() - started < PATIENCE:
            if same(self.shown(), wanted):
                return
            time.sleep(0.01)
        raise AssertionError(f"the page shows {self.shown()}, not {wanted}, after {PATIENCE} s")

    def settled(self) -> None:
        """Wait until the page has nothing more to tighten."""
        self.page.locator(".deckstat-status [data-done='1']").wait_for(timeout=PATIENCE * 1000)


def expected(deck: deckstat.Deck, event: str, turns: range, seat: str = "both") -> dict[tuple[str, int], float]:
    """``deckstat.odds`` asked directly, by seat and turn (the page starts on both seats, as odds does)."""
    table = deckstat.odds(deck, "wankul", event, turns=turns, seat=seat, sides=False, rng=1).table
    return {(s, int(t)): float(p) for s, t, p in zip(table["seat"], table["turn"], table["p"])}


def same(shown: dict, wanted: dict) -> bool:
    """Whether the page shows the probabilities wanted, to the digits it writes."""
    return shown.keys() == wanted.keys() and all(
        shown[turn] == pytest.approx(wanted[turn], rel=10 ** -(DIGITS - 1)) for turn in wanted)


def test_the_page_answers_a_changed_deck_and_event_as_odds_does(browser):
    deck_path = sample_deck("wankul")
    server = Server(deck_path, "--lang", "en")
    try:
        page = Page(browser, server.url)
        deck = deckstat.load_deck(deck_path)
        turns = range(0, 7)
        assert same(page.shown(), expected(deck, "Terrain>=1", turns)), page.shown()
        seconds = []
        counts = deck.counts.copy()
        # Typed as a player types: the count box, then Enter.
        box = page.copies("Le Grenier Hanté")
        box.fill("0")
        box.press("Enter")
        counts[deck.labels.index("Le Grenier Hanté")] = 0
        page.shows(expected(deck.with_counts(counts), "Terrain>=1", turns))
        for card, value in (("Plage de Galets", 3), ("Le Grenier Hanté", 1), ("Cantine du Lycée", 1),
                            ("Plage de Galets", 2), ("Château Gonflable", 3)):
            counts[deck.labels.index(card)] = value
            seconds.append(page.timed(page.copies(card), str(value), "change"))
            page.shows(expected(deck.with_counts(counts), "Terrain>=1", turns))
        changed = deck.with_counts(counts)
        event = page.page.locator(".deckstat-event input")
        for text in ("Terrain>=2", "Terrain>=1 and [cost<=1]>=1", '"Robot Camembert">=1', "[cost>=2]>=2"):
            seconds.append(page.timed(event, text, "input"))
            page.shows(expected(changed, text, turns))
        # Typed key by key: the page follows the text as it is typed.
        event.fill("")
        event.press_sequentially("Terrain>=3", delay=20)
        page.shows(expected(changed, "Terrain>=3", turns))
        page.settled()
        # A question the parser refuses: its message, with the position, where the player types.
        event.fill("Terrain>=")
        status = page.page.locator(".deckstat-event-status .deckstat-problem")
        status.filter(has_text="position").wait_for(timeout=PATIENCE * 1000)
        assert not page.problems, page.problems
        print(f"\npage: change to new numbers, {len(seconds)} changes: median {statistics.median(seconds) * 1000:.0f} "
              f"ms, slowest {max(seconds) * 1000:.0f} ms")
    finally:
        server.stop()


def test_the_page_in_french(browser):
    server = Server(sample_deck("wankul"), "--lang", "fr")
    try:
        page = Page(browser, server.url)
        text = page.answer.inner_text()
        assert "au tour" in text and "\u00a0%" in text.replace(" %", "\u00a0%"), text
        assert re.search(r"\d,\d", text), text
        page.page.locator(".deckstat-event input").fill("Terain>=1")
        status = page.page.locator(".deckstat-event-status .deckstat-problem")
        status.filter(has_text="position 1").wait_for(timeout=PATIENCE * 1000)
        message = status.inner_text()
        assert "Terrain" in message and "ne correspond" in message, message
        assert not page.problems, page.problems
    finally:
        server.stop()


def test_a_card_name_is_text_not_markup(browser, tmp_path):
    with open(sample_deck("wankul"), encoding="utf-8", newline="") as source:
        rows = list(csv.DictReader(source))
    rows[6]["name"] = HOSTILE
    deck_path = tmp_path / "hostile.csv"
    with open(deck_path, "w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    server = Server(deck_path, "--lang", "en")
    try:
        page = Page(browser, server.url)
        # The name is the label of its count box and a row of the ±1-copy table, as text.
        page.copies(HOSTILE).wait_for(timeout=PATIENCE * 1000)
        page.page.locator(".deckstat-sensitivity td", has_text=HOSTILE).first.wait_for(timeout=PATIENCE * 1000)
        page.page.locator(".deckstat-event input").fill(f'"{HOSTILE}">=1')
        page.answer.filter(has_text=HOSTILE).wait_for(timeout=PATIENCE * 1000)
        time.sleep(0.5)
        assert page.page.locator("img[src='x']").count() == 0
        assert not page.dialogs, page.dialogs
        assert not page.problems, page.problems
    finally:
        server.stop()


def test_the_address_holds_the_state(browser):
    from deckstat.explorer.state import ExploreState

    deck_path = sample_deck("wankul")
    deck = deckstat.load_deck(deck_path)
    state = ExploreState(event="Terrain>=2", seat="second", turns=(1, 5), counts={"Plage de Galets": 3})
    with Server(deck_path, "--lang", "en") as server:
        page = Page(browser, server.url + "?" + state.query())
        counts = deck.counts.copy()
        counts[deck.labels.index("Plage de Galets")] = 3
        page.shows(expected(deck.with_counts(counts), "Terrain>=2", range(1, 6), seat="second"))
        assert page.page.locator(".deckstat-event input").input_value() == "Terrain>=2"
        assert page.copies("Plage de Galets").input_value() == "3"
        # A change is written back into the address, so that the page's address is always its state.
        page.page.locator(".deckstat-event input").fill("Terrain>=3")
        page.page.wait_for_url(re.compile(r"event=Terrain%3E%3D3"), timeout=PATIENCE * 1000)
        assert not page.problems, page.problems
        # An address that is not a state: the page opens on the deck as it is, and says why.
        bad = Page(browser, server.url + "?seat=third&counts=%7B%22Nobody%22%3A2%7D")
        bad.shows(expected(deck, "Terrain>=1", range(0, 7)))
        bad.page.locator(".deckstat-state .deckstat-problem", has_text="seat").wait_for(timeout=PATIENCE * 1000)


def test_a_state_saved_from_the_page_loads_back_into_another(browser, tmp_path):
    deck_path = sample_deck("wankul")
    deck = deckstat.load_deck(deck_path)
    with Server(deck_path, "--lang", "en") as server:
        page = Page(browser, server.url)
        box = page.copies("Ninja du Marché")
        box.fill("3")
        box.press("Enter")
        page.page.locator(".deckstat-event input").fill("Terrain>=2")
        counts = deck.counts.copy()
        counts[deck.labels.index("Ninja du Marché")] = 3
        wanted = expected(deck.with_counts(counts), "Terrain>=2", range(0, 7))
        page.shows(wanted)
        with page.page.expect_download() as download:
            page.page.get_by_text("Save the questions (batch spec)").click()
        saved = tmp_path / "explore.toml"
        download.value.save_as(saved)
        text = saved.read_text(encoding="utf-8")
        assert 'counts = { "Ninja du Marché" = 3 }' in text and 'event = "Terrain>=2"' in text
        other = Page(browser, server.url)
        other.shows(expected(deck, "Terrain>=1", range(0, 7)))
        other.page.locator("input[type=file]").set_input_files(str(saved))
        other.shows(wanted)
        other.page.locator(".deckstat-state .deckstat-ok").wait_for(timeout=PATIENCE * 1000)
        assert not page.problems and not other.problems, page.problems + other.problems
