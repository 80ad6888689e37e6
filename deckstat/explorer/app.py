"""The explorer's widgets and views, one Panel layout for the page and the notebook.

A change runs two stages. The first, in the callback, answers what the exact engine answers (and a first simulated
answer of the rest, on few games) and redraws; the second, in a thread of its own, tightens each simulated answer
(more games, the same seed) and draws the ±1-copy table, while the page stays free. A later change starts a new
generation: the thread of the old one stops at its next step and its answers are never shown.
"""

from __future__ import annotations

import contextlib
import functools
import html
import io
import json
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from deckstat.cards import load_deck
from deckstat.deck import Deck
from deckstat.errors import DeckstatError
from deckstat.explorer.jobs import HELPER, QUESTIONS, can_spawn
from deckstat.explorer.state import FINAL_TRIALS, SEATS, DeckFile, ExploreState
from deckstat.games.profiles import Profile, get_profile
from deckstat.games.rules import violations
from deckstat.i18n import get_language, language, normalise_language, number, tr, trn
from deckstat.present.format import format_estimate, format_points, seat_words
from deckstat.questions.odds import odds
from deckstat.terms import MULLIGAN_RULES, PLAY_POLICY_NAMES, name_of

try:
    import panel as pn
    from bokeh.models import ColumnDataSource, NumeralTickFormatter, Range1d, SingleIntervalTicker
    from bokeh.plotting import figure
except ImportError:  # pragma: no cover - the message is the point
    pn = None

#: Games of a simulated answer's first pass: a first answer within a few tens of milliseconds.
FIRST_TRIALS = 4_000
#: The passes that tighten a simulated answer, each on the same seed with more games.
TIGHTER_TRIALS = (16_000, 64_000, FINAL_TRIALS)
#: Games of a simulated ±1-copy table (its changes are paired, so few are enough to rank the cards).
SENSITIVITY_TRIALS = 20_000
#: Colours of the seats' lines (first, second), readable by colour-blind players (Okabe–Ito).
SEAT_COLOURS = {"first": "#0072B2", "second": "#D55E00"}
#: Copies a count box goes up to.
MOST_COPIES = 60
#: Edited decks an explorer keeps with their rules check (a player going back and forth meets the same ones).
MOST_DECKS_KEPT = 64


def need_panel() -> None:
    """Refuse, with the command that installs it, when Panel is missing."""
    if pn is None:
        raise DeckstatError(tr("the explorer needs Panel; install it with: pip install \"deckstat[explore]\""))


def escaped(text: object) -> str:
    """Text made safe inside HTML: card names and messages come from user files."""
    return html.escape(str(text), quote=True)


def html_table(columns: list[str], rows: list[list[object]], *, css: str, cells: list[list[dict]] | None = None
               ) -> str:
    """An HTML table of escaped text; ``cells`` adds ``data-*`` attributes to each cell (read by tests and scripts)."""
    head = "".join(f"<th>{escaped(c)}</th>" for c in columns)
    body = []
    for r, row in enumerate(rows):
        tds = []
        for c, value in enumerate(row):
            extra = cells[r][c] if cells else {}
            attributes = "".join(f' data-{escaped(k)}="{escaped(v)}"' for k, v in extra.items())
            tds.append(f"<td{attributes}>{escaped(value)}</td>")
        body.append("<tr>" + "".join(tds) + "</tr>")
    return f'<table class="{css}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


STYLE = """
table.deckstat-table { border-collapse: collapse; font-size: 13px; }
table.deckstat-table th, table.deckstat-table td { border-bottom: 1px solid #ddd; padding: 2px 8px; text-align: right; }
table.deckstat-table th:first-child, table.deckstat-table td:first-child { text-align: left; }
.deckstat-problem { color: #a40000; }
.deckstat-ok { color: #1b6e20; }
.deckstat-note { color: #555; font-size: 12px; }
.deckstat-answer { font-size: 20px; font-weight: 600; }
"""


class Explorer:
    """A deck's explorer: copy counts, event, seat, turns, rules and card pickers, and the answers they give.

    Build one with :func:`deckstat.explore` (notebook) or serve it with :func:`serve`. Setting a widget's value from
    code answers as a click does; :meth:`wait` waits until the simulated answers have tightened.

    Attributes
    ----------
    copies : dict
        The copy-count widget of each card, by card label.
    event_input, keep_input : TextInput
        The event and the keep rule, answered as they are typed.
    seat_input, turns_input, rule_input, card_input : widgets
        Seat, turn range, mulligan rule and the card whose playability is drawn.
    answers : dict
        The results shown now, by view (``odds``, ``mulligan``, ``curve``, ``sensitivity``), and ``problems``:
        the message of each view that could not answer.
    layout : panel layout
        What is displayed.
    """

    def __init__(self, deck: Deck, profile: Profile, *, lang: str, state: ExploreState,
                 deck_file: DeckFile | None = None, threaded: bool = True, helper: bool | None = None):
        need_panel()
        self.lang = lang
        self.base = deck
        self.profile = profile
        self.deck_file = deck_file
        self.labels = list(deck.labels)
        self.base_counts = np.asarray(deck.counts, dtype=np.int64)
        self.state = state
        self.answers: dict = {"problems": {}}
        self.timings: list[float] = []
        self._threaded = threaded
        self._helper = HELPER if threaded and (can_spawn() if helper is None else helper) else None
        self._generation = 0
        self._lock = threading.Lock()
        self._worker: threading.Thread | None = None
        self._quiet = False
        self._decks: dict[tuple[int, ...], tuple[Deck, list[dict]]] = {}
        self._document = pn.state.curdoc if pn.state.curdoc is not None and pn.state.curdoc.session_context else None
        if self._document is not None:
            self._document.on_session_destroyed(self._stop)  # a closed tab asks nothing more of the helper
        with language(lang):
            self._build()
            self._apply_state(state)
            self.refresh()

    @classmethod
    def open(cls, deck, game, *, lang: str | None = None, state=None, seed: int | None = None, pool=None,
             deck_name: str | None = None, threaded: bool = True, deck_file: DeckFile | None = None,
             helper: bool | None = None) -> Explorer:
        """An explorer of ``deck`` (a Deck or a card file) for ``game``; see :func:`deckstat.explore`.

        ``deck_file`` names the file a Deck was read from, for a saved state (default: the Deck's source).
        ``threaded=False`` answers everything in the call that changes a widget (for scripts and tests).
        ``helper`` answers the slower views in the helper process (True), in a thread (False), or decides
        (None: the process, except in a plain script, see :func:`deckstat.explorer.jobs.can_spawn`).
        """
        inputs = read_inputs(deck, game, lang=lang, state=state, seed=seed, deck_file=deck_file, pool=pool,
                             deck_name=deck_name)
        return cls(inputs.deck, inputs.profile, lang=inputs.lang, state=inputs.state, deck_file=inputs.deck_file,
                   threaded=threaded, helper=helper)

    # -- widgets -----------------------------------------------------------------------------------------------

    def _build(self) -> None:
        profile = self.profile
        self.copies = {}
        for label, count in zip(self.labels, self.base_counts):
            widget = pn.widgets.IntInput(label=label, value=int(count), start=0, end=MOST_COPIES, step=1, width=190,
                                         css_classes=["deckstat-copies"])
            widget.param.watch(functools.partial(self._copies_changed, label), "value")
            self.copies[label] = widget
        self.reset_button = pn.widgets.Button(label=tr("Back to the deck file"), width=190)
        self.reset_button.on_click(lambda _: self._reset_counts())
        self.event_input = pn.widgets.TextInput(label=tr("Event"), value=self.state.event, width=360,
                                                css_classes=["deckstat-event"])
        self.event_input.param.watch(self._changed, "value_input")
        seats = {seat_words(s) if s != "both" else tr("both players"): s for s in SEATS}
        self.seat_input = pn.widgets.RadioButtonGroup(label=tr("Seat"), options=seats, value=self.state.seat)
        self.seat_input.param.watch(self._changed, "value")
        last = max(1, max(profile.last_turn(int(self.base_counts.sum()), s) for s in ("first", "second")))
        self.turns_input = pn.widgets.IntRangeSlider(label=tr("Turns"), start=0, end=min(last, 40),
                                                     value=self.state.turns, step=1, width=360)
        self.turns_input.param.watch(self._changed, "value")
        rules = {_rule_words(r, profile): r for r in MULLIGAN_RULES}
        self.rule_input = pn.widgets.Select(label=tr("Mulligan rule"), options=rules,
                                            value=self.state.mulligan_rule or profile.mulligan, width=360)
        self.rule_input.param.watch(self._changed, "value")
        self.keep_input = pn.widgets.TextInput(label=tr("Keep rule"), value=self.state.keep or profile.keep or "",
                                               placeholder=tr("keep every hand"), width=360)
        self.keep_input.param.watch(self._changed, "value_input")
        names = sorted(set(_drawn_names(self.base, profile)), key=str.casefold)
        self.card_input = pn.widgets.Select(label=tr("Playability of"), options={tr("(no card)"): "", **{
            n: n for n in names}}, value=self.state.card or "", width=360)
        self.card_input.param.watch(self._changed, "value")

        self.rules_pane = _html("deckstat-rules")
        self.event_status = _html("deckstat-event-status")
        self.keep_status = _html("deckstat-keep-status")
        self.answer_pane = _html("deckstat-answer-box")
        self.odds_pane = _html("deckstat-odds")
        self.mulligan_pane = _html("deckstat-mulligan")
        self.card_pane = _html("deckstat-card")
        self.sensitivity_pane = _html("deckstat-sensitivity")
        self.status_pane = _html("deckstat-status")
        self.state_pane = _html("deckstat-state")
        self.odds_figure = CurveFigure(tr("P(event) by turn"))
        self.card_figure = CurveFigure(tr("P(playable) by turn"))
        self.save_button = pn.widgets.FileDownload(callback=self._spec_file, filename="deckstat-explore.toml",
                                                   label=tr("Save the questions (batch spec)"), width=360)
        self.load_input = pn.widgets.FileInput(accept=".toml", multiple=False, width=360)
        self.load_input.param.watch(self._load_state_file, "value")

        deck_grid = pn.GridBox(*self.copies.values(), ncols=2)
        title = tr("{deck} — {game}", deck=self.base.name, game=profile.name)
        controls = pn.Column(
            pn.pane.HTML(f"<h2>{escaped(title)}</h2><style>{STYLE}</style>", stylesheets=[STYLE]),
            self.event_input, self.event_status, self.seat_input, self.turns_input, self.rule_input,
            self.keep_input, self.keep_status, self.card_input, pn.pane.HTML(f"<h3>{escaped(tr('Cards'))}</h3>"),
            self.rules_pane,
            self.reset_button, deck_grid, pn.pane.HTML(f"<h3>{escaped(tr('State'))}</h3>"), self.save_button,
            pn.pane.HTML(f"<span class='deckstat-note'>{escaped(tr('Load a saved state:'))}</span>"),
            self.load_input, self.state_pane, width=420)
        answers = pn.Column(
            self.answer_pane, self.status_pane, self.odds_figure.pane, self.odds_pane,
            pn.pane.HTML(f"<h3>{escaped(tr('Keep or mulligan'))}</h3>"), self.mulligan_pane,
            pn.pane.HTML(f"<h3>{escaped(tr('Playability'))}</h3>"), self.card_figure.pane, self.card_pane,
            pn.pane.HTML(f"<h3>{escaped(tr('One copy fewer, one copy more'))}</h3>"), self.sensitivity_pane,
            width=640)
        self.layout = pn.Row(controls, answers)
        for widget in (*self.copies.values(), self.event_input, self.seat_input, self.turns_input, self.rule_input,
                       self.keep_input, self.card_input):
            # Panel waits 50 ms after a change in the page before answering it (to gather a burst of them); the
            # first answer to a change takes about 10 ms here, so that wait would be most of a player's.
            widget._debounce = 0

    def _repr_mimebundle_(self, include=None, exclude=None):
        return self.layout._repr_mimebundle_(include, exclude)

    def servable(self):
        """The layout, marked servable (``panel serve``)."""
        return self.layout.servable()

    # -- state -------------------------------------------------------------------------------------------------

    @property
    def counts(self) -> np.ndarray:
        """The copy counts shown now, in the deck's row order."""
        return np.array([self.copies[label].value or 0 for label in self.labels], dtype=np.int64)

    @property
    def deck(self) -> Deck:
        """The deck as edited (cards at 0 copies left out)."""
        return self._edited(tuple(int(c) for c in self.counts))[0]

    def _edited(self, counts: tuple[int, ...]) -> tuple[Deck, list[dict]]:
        """The deck at ``counts`` and the construction rules it breaks, kept: going back and forth costs nothing."""
        if counts not in self._decks:
            if len(self._decks) >= MOST_DECKS_KEPT:
                self._decks.pop(next(iter(self._decks)))  # the oldest
            deck = self.base.with_counts(np.array(counts, dtype=np.int64))
            try:
                found = violations(deck, self.profile)
            except DeckstatError as exc:
                found = [{"level": "error", "message": str(exc)}]
            self._decks[counts] = deck, found
        return self._decks[counts]

    def current_state(self) -> ExploreState:
        """The state the widgets show."""
        counts = {label: int(c) for label, c, base in zip(self.labels, self.counts, self.base_counts) if c != base}
        rule = self.rule_input.value
        keep = self.keep_input.value_input if self.keep_input.value_input is not None else self.keep_input.value
        return ExploreState(event=self.event_input.value_input or "", seat=self.seat_input.value,
                            turns=tuple(self.turns_input.value), card=self.card_input.value or None,
                            mulligan_rule=None if rule == self.profile.mulligan else rule,
                            keep=None if keep.strip() == (self.profile.keep or "") else keep.strip(),
                            seed=self.state.seed, counts=counts)

    def _apply_state(self, state: ExploreState) -> None:
        _check_state(state, self.base)
        self._quiet = True
        try:
            for label, base in zip(self.labels, self.base_counts):
                self.copies[label].value = int(state.counts.get(label, base))
            self.event_input.value = state.event
            self.event_input.value_input = state.event
            self.seat_input.value = state.seat
            last = self.turns_input.end
            self.turns_input.value = (min(state.turns[0], last), min(state.turns[1], last))
            self.rule_input.value = state.mulligan_rule or self.profile.mulligan
            keep = state.keep if state.keep is not None else self.profile.keep or ""
            self.keep_input.value = keep
            self.keep_input.value_input = keep
            self.card_input.value = state.card or ""
        finally:
            self._quiet = False
        self.state = state

    def _reset_counts(self) -> None:
        self._quiet = True
        try:
            for label, base in zip(self.labels, self.base_counts):
                self.copies[label].value = int(base)
        finally:
            self._quiet = False
        self._changed()

    def spec_text(self) -> str:
        """The questions shown, as a batch spec: what *Save the questions* downloads (see ExploreState.spec_text)."""
        with language(self.lang):
            where = self.deck_file or self.base.name
            return self.current_state().spec_text(where, self.profile.id, mulligan=not self._no_mulligan)

    def _spec_file(self) -> io.StringIO:
        return io.StringIO(self.spec_text())

    def _load_state_file(self, event) -> None:
        if not event.new:
            return
        with language(self.lang):
            try:
                text = event.new.decode("utf-8")
                name = Path(self.deck_file.path).name if self.deck_file else None
                state, _, game = ExploreState.from_spec_text(text, source=self.load_input.filename or "<state>",
                                                             deck_name=name)
                _check_game(game, self.profile)
                self._apply_state(state.edited(seed=self.state.seed if state.seed is None else state.seed))
            except (DeckstatError, UnicodeDecodeError) as exc:
                message = str(exc) if isinstance(exc, DeckstatError) else tr("a saved state is UTF-8 text")
                self.state_pane.object = f"<span class='deckstat-problem'>{escaped(message)}</span>"
                return
            self.state_pane.object = f"<span class='deckstat-ok'>{escaped(tr('State loaded.'))}</span>"
        self.refresh()

    # -- answering ---------------------------------------------------------------------------------------------

    def _copies_changed(self, label: str, event) -> None:
        if event.new is None:
            return
        self._changed()

    def _changed(self, *_events) -> None:
        if self._quiet:
            return
        self.refresh()

    def refresh(self) -> None:
        """Answer the widgets' questions again: the exact answers now, the simulated ones tightening in a thread."""
        started = time.perf_counter()
        with self._lock:
            self._generation += 1
            generation = self._generation
            self.answers = {"problems": {}}
        with language(self.lang), self._held():
            self.state = self.current_state()
            self.keep_input.disabled = self._no_mulligan
            deck = self._checked_deck()
            if deck is not None:
                self._first_answers(deck)
            self._show_address()
        self.timings.append(time.perf_counter() - started)
        if deck is None:
            return
        steps = self._later_steps()
        if self._threaded:
            self._worker = threading.Thread(target=self._tighten, args=(generation, steps), daemon=True)
            if self._document is not None and not pn.state.loaded:
                # A page's first answers: the later ones start once the page has loaded. Queued on the page
                # while its session was still being set up, their display was now and then lost, and the page
                # said "still answering…" for good.
                pn.state.onload(self._worker.start)
            else:
                self._worker.start()
        else:
            self._tighten(generation, steps)

    def _held(self):
        """Send the changes of a stage to the page together, as one message (each change alone costs a round)."""
        return pn.io.hold(self._document) if self._document is not None else contextlib.nullcontext()

    def wait(self, timeout: float | None = None) -> None:
        """Wait until the simulated answers of the last change have tightened (for scripts and tests)."""
        if self._worker is not None and self._worker.ident is not None:  # a page's first: started once it loads
            self._worker.join(timeout)

    def _checked_deck(self) -> Deck | None:
        counts = self.counts
        if counts.sum() == 0:
            self.rules_pane.object = f"<span class='deckstat-problem'>{escaped(tr('The deck is empty.'))}</span>"
            self._clear(tr("The deck is empty."))
            return None
        deck, found = self._edited(tuple(int(c) for c in counts))
        size = trn("{n} card", "{n} cards", int(counts.sum()))
        if not found:
            self.rules_pane.object = (f"<span class='deckstat-ok'>{escaped(size)} · "
                                      f"{escaped(tr('legal under the rules of the game'))}</span>")
        else:
            items = "".join(f"<li class='deckstat-problem'>{escaped(row['message'])}</li>" for row in found)
            self.rules_pane.object = f"<span>{escaped(size)}</span><ul class='deckstat-violations'>{items}</ul>"
        return deck

    def _common(self) -> dict:
        if self.profile.mulligan == "none":  # the game's own rule, which curve and sensitivity play
            return {"keep": None}
        keep = self.state.keep
        return {"keep": keep if keep is not None else self.profile.keep}

    @property
    def _no_mulligan(self) -> bool:
        """Whether every first hand is kept: the rule picked, or the game's when none is picked, is ``none``."""
        return (self.state.mulligan_rule or self.profile.mulligan) == "none"

    def _rules(self) -> dict:
        if self._no_mulligan:  # every hand is kept: no keep rule applies
            return {"keep": None, "mulligan_rule": self.state.mulligan_rule}
        return {**self._common(), "mulligan_rule": self.state.mulligan_rule}

    def _first_answers(self, deck: Deck) -> None:
        state = self.state
        turns = range(state.turns[0], state.turns[1] + 1)
        result = self._ask("odds", lambda: odds(deck, self.profile, state.event, turns=turns, seat=state.seat,
                                                sides=False, rng=state.seed, n_trials=FIRST_TRIALS, **self._rules()))
        keep = self._rules()["keep"]
        if result is None:
            message = self.answers["problems"]["odds"]
            problem = f"<span class='deckstat-problem'>{escaped(message)}</span>"
            # Said under the box whose text it quotes: the keep rule's, or else the event's.
            about_keep = bool(keep) and f"'{keep}'" in message and f"'{state.event}'" not in message
            self.keep_status.object = problem if about_keep else ""
            self.event_status.object = "" if about_keep else problem
            self._clear(tr("No answer until the question is mended."))
            return
        self.keep_status.object = ""
        self.event_status.object = f"<span class='deckstat-ok'>{escaped(tr('Event understood.'))}</span>"
        # The other views keep their last answer until the thread brings the new one: a redraw costs the page
        # more than the few tenths of a second the old numbers stay (the status line says they are coming).
        self._show_odds(result, tightening=True)
        if self._no_mulligan:
            self.mulligan_pane.object = (f"<span class='deckstat-note'>"
                                         f"{escaped(tr('With no mulligan, every first hand is kept.'))}</span>")
        self.card_figure.pane.visible = bool(state.card)
        if not state.card:
            self.card_pane.object = (f"<span class='deckstat-note'>"
                                     f"{escaped(tr('Pick a card to draw when it can be played.'))}</span>")
            self.card_figure.clear()

    def _later_steps(self) -> list[tuple[str, Callable[[], object], Callable[[object], None]]]:
        """The answers after the first, in the order they are worth waiting for: each a view, a question, a display.

        The mulligan table and the playability curve come first (on few games when simulated), then the ±1-copy
        table, then each simulated answer again on more games.
        """
        state, deck = self.state, self.deck
        turns = list(range(state.turns[0], state.turns[1] + 1))
        seat = "first" if state.seat == "both" else state.seat
        asked = {
            "mulligan": dict(event=state.event, turns=turns, seat=seat, sides=False, rng=state.seed, **self._rules()),
            "odds": dict(event=state.event, turns=turns, seat=state.seat, sides=False, rng=state.seed,
                         **self._rules()),
            "curve": dict(cards=state.card, turns=list(range(1, max(1, state.turns[1]) + 1)), seat=state.seat,
                          rng=state.seed, **self._common()),
        }

        def ask(view: str, n_trials: int) -> Callable[[], object]:
            return functools.partial(self._answer, view, deck, {**asked[view], "n_trials": n_trials})

        kept = self._no_mulligan  # every hand kept: no keep/mulligan table to draw
        steps = [] if kept else [("mulligan", ask("mulligan", FIRST_TRIALS), self._show_mulligan)]
        if state.card:
            steps.append(("curve", ask("curve", FIRST_TRIALS), functools.partial(self._show_card, tightening=True)))
        steps.append(("sensitivity", functools.partial(self._answer, "sensitivity", deck, dict(
            event=state.event, by_turn=state.turns[1], seat=seat, rng=state.seed, n_trials=SENSITIVITY_TRIALS,
            **self._common())), self._show_sensitivity))
        for n_trials in TIGHTER_TRIALS:
            final = n_trials == TIGHTER_TRIALS[-1]
            steps.append(("odds", ask("odds", n_trials), functools.partial(self._show_odds, tightening=not final)))
            if not kept:
                steps.append(("mulligan", ask("mulligan", n_trials), self._show_mulligan))
            if state.card:
                steps.append(("curve", ask("curve", n_trials),
                              functools.partial(self._show_card, tightening=not final)))
        return steps

    def _answer(self, view: str, deck: Deck, arguments: dict):
        """``view``'s question asked of ``deck``: in the helper process when there is one, else here."""
        if self._helper is not None:
            return self._helper.ask(view, self.lang, deck, self.profile, arguments)
        return QUESTIONS[view](deck, self.profile, **arguments)

    def _tighten(self, generation: int, steps) -> None:
        # Whether each view's last answer was simulated: an exact one is not asked again on more games.
        simulated = {"odds": _simulated(self.answers.get("odds"))}
        seen = {"odds"}
        for view, ask, show in steps:
            if generation != self._generation:
                return
            if view in seen and not simulated.get(view, False):
                continue
            seen.add(view)
            with language(self.lang):
                try:
                    result = ask()
                except DeckstatError as exc:
                    result = exc
            simulated[view] = _simulated(result) if not isinstance(result, DeckstatError) else False
            self._on_page(functools.partial(self._show_later, generation, view, result, show))
        self._on_page(functools.partial(self._finished, generation))

    def _on_page(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` where the page's document may be changed: its server's loop, or here in a notebook."""
        if self._document is None:
            callback()
            return
        try:
            self._document.add_next_tick_callback(callback)
        except Exception:  # the page was closed: its answers have nowhere to go
            self._stop()

    def _stop(self, *_context) -> None:
        """Stop answering: the thread of the last change ends at its next step."""
        with self._lock:
            self._generation += 1

    def _show_later(self, generation: int, view: str, result, show) -> None:
        # Under the lock: in a notebook this runs in the answering thread, and a change may start meanwhile.
        with self._lock, language(self.lang), self._held():
            if generation != self._generation:
                return
            if isinstance(result, DeckstatError):
                self.answers["problems"][view] = str(result)
                show(None)
                return
            self.answers[view] = result
            show(result)

    def _finished(self, generation: int) -> None:
        with self._lock, language(self.lang):
            if generation == self._generation:
                self._show_status(done=True)

    def _ask(self, view: str, question: Callable[[], object]):
        try:
            result = question()
        except DeckstatError as exc:
            self.answers["problems"][view] = str(exc)
            return None
        self.answers[view] = result
        return result

    # -- views -------------------------------------------------------------------------------------------------

    def _clear(self, message: str) -> None:
        for pane in (self.answer_pane, self.odds_pane, self.mulligan_pane, self.card_pane, self.sensitivity_pane):
            pane.object = ""
        self.answer_pane.object = f"<span class='deckstat-problem'>{escaped(message)}</span>"
        self.odds_figure.clear()
        self.card_figure.clear()
        self.status_pane.object = ""

    def _show_odds(self, result, tightening: bool = False) -> None:
        if result is None:
            return
        table = result.table
        records = table[["turn", "seat", "p", "ci_low", "ci_high", "method"]].to_dict("records")
        last_turn = max(r["turn"] for r in records)
        heads, rows, cells = [], [], []
        for row in records:
            text = format_estimate(row["p"], row["ci_low"], row["ci_high"], row["method"])
            if row["turn"] == last_turn:
                who = f" ({seat_words(row['seat'])})" if self.state.seat == "both" else ""
                heads.append(f"<span data-p='{float(row['p']):.12g}' data-seat='{escaped(row['seat'])}'>"
                             f"{escaped(text)}{escaped(who)}</span>")
            rows.append([int(row["turn"]), seat_words(row["seat"]), text])
            cells.append([{}, {}, {"p": f"{float(row['p']):.12g}", "turn": int(row["turn"]), "seat": row["seat"]}])
        sentence = tr("P({event}) by turn {turn}:", event=self.state.event, turn=int(last_turn))
        self.answer_pane.object = (f"<div class='deckstat-answer'>{escaped(sentence)} "
                                   f"{' · '.join(heads)}</div>")
        self.odds_pane.object = html_table([tr("turn"), tr("seat"), tr("probability")], rows, cells=cells,
                                           css="deckstat-table deckstat-odds-table")
        self.odds_figure.show(table, *self.state.turns)
        self._show_status(done=not tightening)

    def _show_status(self, done: bool) -> None:
        result = self.answers.get("odds")
        if result is None:
            return
        method = str(result.table["method"].iloc[0])
        if method == "exact":
            text = tr("exact")
        else:
            text = tr("simulated on {n} games, seed {seed}", n=number(result.table["n_trials"].iloc[0]),
                      seed=self.state.seed)
        if not done:
            text += " · " + tr("still answering…")
        self.status_pane.object = f"<span class='deckstat-note' data-done='{int(done)}'>{escaped(text)}</span>"

    def _show_mulligan(self, result) -> None:
        if result is None:
            problem = self.answers["problems"].get("mulligan", "")
            self.mulligan_pane.object = f"<span class='deckstat-problem'>{escaped(problem)}</span>"
            return
        summary = result.summary.iloc[0]
        keep_line = tr("Keeps its first hand: {p}; mulligans on average: {n}",
                       p=format_estimate(summary["p_keep_first"], summary["ci_low"], summary["ci_high"],
                                         summary["method"]),
                       n=number(summary["expected_mulligans"], 2))
        by_turn = result.frames()["by_turn"]
        rule = str(summary["mulligan_rule"])
        with_rule = by_turn[by_turn["mulligan_rule"] == rule].set_index("turn")
        without = by_turn[by_turn["mulligan_rule"] == "none"].set_index("turn")
        rows = []
        for turn in with_rule.index:
            a, b = with_rule.loc[turn], without.loc[turn] if turn in without.index else None
            rows.append([int(turn), format_estimate(a["p"], a["ci_low"], a["ci_high"], a["method"]),
                         "–" if b is None else format_estimate(b["p"], b["ci_low"], b["ci_high"], b["method"])])
        table = html_table([tr("turn"), tr("with the {rule} mulligan", rule=rule), tr("keeping every hand")], rows,
                           css="deckstat-table")
        self.mulligan_pane.object = f"<p>{escaped(keep_line)}</p>{table}"

    def _show_card(self, result, tightening: bool = False) -> None:
        if result is None:
            problem = self.answers["problems"].get("curve", "")
            self.card_pane.object = f"<span class='deckstat-problem'>{escaped(problem)}</span>"
            self.card_figure.clear()
            return
        self.card_figure.show(result.table, 1, max(1, self.state.turns[1]))
        lines = []
        for _, row in result.summary.iterrows():
            lines.append(tr("{seat}: never playable by turn {turn} in {p} of games",
                            seat=seat_words(row["seat"]), turn=int(row["max_turn"]),
                            p=format_estimate(row["p_never"], row["p_never_low"], row["p_never_high"],
                                              row["method"])))
        note = tr("policy: {policy}", policy=name_of(PLAY_POLICY_NAMES, str(result.table["policy"].iloc[0])))
        if tightening and _simulated(result):
            note += " · " + tr("tightening…")
        self.card_pane.object = ("<ul>" + "".join(f"<li>{escaped(line)}</li>" for line in lines) + "</ul>"
                                 f"<span class='deckstat-note'>{escaped(note)}</span>")

    def _show_sensitivity(self, result) -> None:
        if result is None:
            problem = self.answers["problems"].get("sensitivity", "")
            self.sensitivity_pane.object = f"<span class='deckstat-note'>{escaped(problem)}</span>"
            return
        table = result.table
        rows = []
        for card, moves in table.groupby("card", sort=False):
            by_move = {m: r for m, r in zip(moves["move"], moves.itertuples())}
            cut, add = by_move.get("-1"), by_move.get("+1")
            rows.append([card, int(moves["count"].iloc[0]),
                         "–" if cut is None else format_points(cut.change),
                         "–" if add is None else format_points(add.change),
                         max(abs(cut.change) if cut else 0, abs(add.change) if add else 0)])
        rows.sort(key=lambda r: -r[-1])
        shown = [r[:-1] for r in rows[:12]]
        sentence = tr("Change of P({event}) by turn {turn}, largest first", event=self.state.event,
                      turn=self.state.turns[1])
        self.sensitivity_pane.object = (f"<p class='deckstat-note'>{escaped(sentence)}</p>" + html_table(
            [tr("card"), tr("copies"), tr("a copy fewer"), tr("a copy more")], shown, css="deckstat-table"))

    def _show_address(self) -> None:
        if self._document is None:
            return
        location = pn.state.location
        if location is not None:
            location.search = "?" + self.state.query()


@dataclass(frozen=True)
class Inputs:
    """What an explorer is opened on, read and checked."""

    deck: Deck
    profile: Profile
    lang: str
    state: ExploreState
    deck_file: DeckFile | None


def read_inputs(deck, game, *, lang: str | None = None, state=None, seed: int | None = None,
                deck_file: DeckFile | None = None, pool=None, deck_name: str | None = None) -> Inputs:
    """Read and check an explorer's deck, game, language and starting state (see :func:`deckstat.explore`)."""
    need_panel()
    lang = normalise_language(lang) if lang is not None else get_language()
    pool_path = str(Path(pool).resolve()) if pool is not None else None
    with language(lang):
        if not isinstance(deck, Deck):
            deck_file = deck_file or DeckFile(str(Path(deck).resolve()), deck_name=deck_name, pool=pool_path)
            deck = load_deck(deck, pool=pool, deck_name=deck_name)
        elif deck_file is None:  # a Deck read from a file: its source names it
            deck_file = DeckFile.of(deck.source)
            if deck_file is not None and pool_path is not None:
                deck_file = replace(deck_file, pool=pool_path)
        profile = get_profile(game)
        if state is not None and not isinstance(state, ExploreState):
            path = Path(state)
            state, _, saved_game = ExploreState.from_spec_text(
                _read_state_file(path), source=str(path), deck_name=Path(deck_file.path).name if deck_file else None)
            _check_game(saved_game, profile)
        state = state or default_state(deck, profile)
        if seed is not None:
            state = state.edited(seed=seed)
        _check_state(state, deck)
        return Inputs(deck, profile, lang, state, deck_file)


def _check_game(saved: str | None, profile: Profile) -> None:
    if saved is not None and get_profile(saved).id != profile.id:
        raise DeckstatError(tr("this exploration was saved for the game {saved}, not {shown}", saved=saved,
                               shown=profile.name))


def _check_state(state: ExploreState, deck: Deck) -> None:
    """Refuse a state that names cards the deck does not have (the questions check the rest, on the page)."""
    unknown = sorted(set(state.counts) - set(deck.labels))
    if unknown:
        raise DeckstatError(tr("the saved counts name {card!r}, which is not a card of this deck", card=unknown[0]))
    if state.card is not None and state.card not in set(deck.names):
        raise DeckstatError(tr("the saved card {card!r} is not a card of this deck", card=state.card))


def default_state(deck: Deck, profile: Profile) -> ExploreState:
    """The questions an explorer starts with: the game's keep rule as the event, or one card of its resource."""
    event = profile.keep or (f"{profile.resource_group}>=1" if profile.resource_group else None)
    if event is None:  # the card the deck plays most copies of
        drawn = profile.drawn_deck(deck)
        event = f"{_quoted(drawn.names[int(np.argmax(drawn.counts))])}>=1"
    last = max(0, min(6, profile.last_turn(deck.size, "first")))
    return ExploreState(event=event, turns=(0, last))


def _quoted(name: str) -> str:
    """A card name as an event writes it: quoted unless it is one word of letters and digits."""
    if name.isalnum():
        return name
    quote = "'" if '"' in name else '"'  # an event's quoted name runs to the next quote of the same kind
    return f"{quote}{name}{quote}"


def _drawn_names(deck: Deck, profile: Profile) -> list[str]:
    """The names of the cards drawn from (Licum: its game deck), the cards a playability curve can follow."""
    try:
        return list(profile.drawn_deck(deck).names)
    except DeckstatError:
        return list(deck.names)


def _rule_words(rule: str, profile: Profile) -> str:
    words = tr("no mulligan") if rule == "none" else tr("{rule} mulligan", rule=rule)
    return tr("{rule} (the game's)", rule=words) if rule == profile.mulligan else words


def _simulated(result) -> bool:
    if result is None:
        return False
    table = result.summary if not hasattr(result, "table") else result.table
    return bool((table["method"] == "simulate").any())


def _html(css: str):
    return pn.pane.HTML("", css_classes=[css], stylesheets=[STYLE], sizing_mode="stretch_width")


def _empty_curve() -> dict:
    return {"turn": [], "p": [], "low": [], "high": []}


class CurveFigure:
    """A by-turn probability figure: one line per seat, with its 95% interval as a band (none when exact)."""

    def __init__(self, title: str):
        self.sources = {seat: ColumnDataSource(_empty_curve()) for seat in SEAT_COLOURS}
        self.plot = figure(height=260, width=620, title=title, y_range=(0, 1), x_range=Range1d(-0.3, 6.3),
                           toolbar_location=None, x_axis_label=tr("turn"), y_axis_label=tr("probability"))
        for seat, source in self.sources.items():
            colour = SEAT_COLOURS[seat]
            self.plot.varea(x="turn", y1="low", y2="high", source=source, fill_color=colour, fill_alpha=0.18)
            self.plot.line(x="turn", y="p", source=source, line_color=colour, line_width=2,
                           legend_label=seat_words(seat))
            self.plot.scatter(x="turn", y="p", source=source, color=colour, size=6)
        # 80 % in French: numbro writes the space only when the format has one, whatever its language.
        french = get_language() == "fr"
        self.plot.yaxis.formatter = NumeralTickFormatter(format="0 %" if french else "0%", language=get_language())
        self.plot.xaxis.ticker = SingleIntervalTicker(interval=1)
        self.plot.legend.location = "bottom_right"
        self.pane = pn.pane.Bokeh(self.plot)

    def show(self, table, first: int, last: int) -> None:
        """Draw ``table``'s ``p``, ``ci_low`` and ``ci_high`` by turn and seat, over turns ``first`` to ``last``."""
        self.plot.x_range.start, self.plot.x_range.end = first - 0.3, max(last, first + 1) + 0.3
        seats = table["seat"].to_numpy() if table is not None else np.array([])
        for seat, source in self.sources.items():
            mine = seats == seat
            if not mine.any():
                if source.data["turn"]:
                    source.data = _empty_curve()
                continue
            order = np.argsort(table["turn"].to_numpy()[mine], kind="stable")
            source.data = {key: table[column].to_numpy(dtype=float)[mine][order].tolist()
                           for key, column in (("turn", "turn"), ("p", "p"), ("low", "ci_low"),
                                               ("high", "ci_high"))}
        self.plot.legend.visible = len(set(seats.tolist())) > 1

    def clear(self) -> None:
        """Draw nothing."""
        self.show(None, int(self.plot.x_range.start + 0.3), int(self.plot.x_range.end - 0.3))


def _read_state_file(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DeckstatError(tr("cannot read the state file: {problem}", problem=exc.strerror or str(exc)),
                            source=str(path)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise DeckstatError(tr("a saved state is UTF-8 text"), source=str(path)) from None


def serve(deck, game, *, port: int = 0, host: str = "127.0.0.1", open_browser: bool = True, lang: str | None = None,
          state=None, seed: int | None = None, ready: Callable[[str], None] | None = None,
          deck_file: DeckFile | None = None) -> None:
    """Serve the explorer as a local page until interrupted; each visit gets an explorer of its own.

    Parameters
    ----------
    deck, game, lang, state, seed
        As :func:`deckstat.explore`; the deck and the state are read once, here, so that a bad file is refused
        before anything listens.
    deck_file : DeckFile, optional
        The file a Deck was read from, written into saved states.
    port : int
        The port (0: a free one).
    host : str
        The address to listen on; anything but 127.0.0.1 makes the page reachable from other machines.
    open_browser : bool
        Open the page in the browser.
    ready : callable, optional
        Called with the page's address once the server listens.
    """
    inputs = read_inputs(deck, game, lang=lang, state=state, seed=seed, deck_file=deck_file)
    lang, base, profile, start, path = inputs.lang, inputs.deck, inputs.profile, inputs.state, inputs.deck_file
    HELPER.warm()

    def page():
        # The page's address may hold a state (a bookmark, a shared link): a bad one is said, and the start used.
        problem = None
        try:
            with language(lang):
                asked = ExploreState.from_query(_query(), start)
                _check_state(asked, base)
        except DeckstatError as exc:
            asked, problem = start, str(exc)
        explorer = Explorer(base, profile, lang=lang, state=asked, deck_file=path)
        if problem is not None:
            explorer.state_pane.object = f"<span class='deckstat-problem'>{escaped(problem)}</span>"
        return explorer.layout

    def _query() -> dict[str, str]:
        location = pn.state.location
        # Panel reads a query value that looks like JSON (the counts, the seed) as JSON: written back as text here.
        return {k: v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
                for k, v in (location.query_params if location is not None else {}).items()}

    with language(lang):
        title = tr("deckstat explorer")
    with language(lang):
        port = listening_port(host, port)
    origins = {f"{host}:{port}"} | ({f"localhost:{port}", f"127.0.0.1:{port}"} if host in LOCAL_HOSTS else set())
    try:
        server = pn.serve({"/": page}, port=port, address=host, show=False, start=False, title=title,
                          websocket_origin=sorted(origins), threaded=False, verbose=False)
    except OSError as exc:  # taken between the check and now
        with language(lang):
            raise _listen_error(host, port, exc) from None
    server.start()
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    if ready is not None:
        ready(url)
    if open_browser:
        import webbrowser

        server.io_loop.add_callback(webbrowser.open, url)
    server.io_loop.start()


#: The addresses that only this machine reaches.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def _listen_error(host: str, port: int, exc: OSError) -> DeckstatError:
    return DeckstatError(tr("cannot listen on {host} port {port}: {problem}; choose another with --port or --host",
                            host=host, port=port, problem=exc.strerror or str(exc)))


def listening_port(host: str, port: int) -> int:
    """``port`` (0: one the system finds free) once checked free on ``host``, for a server that must know it first.

    Raises
    ------
    DeckstatError
        For a port that is taken or an address that is not this machine's, in words, before the server tries.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds: a closed port is free
        try:
            probe.bind((host, port))
        except OSError as exc:  # taken, not this machine's address, or no such host
            raise _listen_error(host, port, exc) from None
        return int(probe.getsockname()[1])


def latency(explorer: Explorer, changes: list[Mapping[str, object]]) -> list[float]:
    """Seconds of each change's first stage, set on ``explorer``'s widgets in turn (for ``scripts/bench.py``).

    Each change maps a widget (``"copies:<label>"``, ``"event"``, ``"seat"``, ``"turns"``, ``"rule"``, ``"keep"``,
    ``"card"``) to its new value.
    """
    widgets = {"event": explorer.event_input, "seat": explorer.seat_input, "turns": explorer.turns_input,
               "rule": explorer.rule_input, "keep": explorer.keep_input, "card": explorer.card_input}
    seconds = []
    for change in changes:
        for key, value in change.items():
            before = len(explorer.timings)
            if key.startswith("copies:"):
                explorer.copies[key.removeprefix("copies:")].value = value
            elif key in ("event", "keep"):
                widgets[key].value_input = value
            else:
                widgets[key].value = value
            seconds.extend(explorer.timings[before:])
    return seconds
