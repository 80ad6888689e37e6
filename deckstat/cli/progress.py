"""The command line's progress bar: what :mod:`deckstat.engines.progress` reports, drawn on stderr.

The bar appears only when stderr is a terminal and the work has run for
about a second (a quick answer shows nothing), shows each piece of work
being tracked (a simulation, a sweep's counts, a report's parts) with its
count, rate and time left, and disappears when the work ends, so that what
the command prints on stdout reads as without it. ``--quiet`` turns it off.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.progress import Progress as RichProgress
from rich.text import Text

from deckstat.engines import progress
from deckstat.i18n import N_, get_language, language, localise_number, tr

#: Seconds of work before the bar appears.
DELAY = 1.0
#: The units work is counted in, as the bar names them.
UNITS = {"trials": N_("trials"), "counts": N_("counts"), "parts": N_("parts"), "tasks": N_("tasks")}


def _unit(task: Task) -> str:
    unit = task.fields.get("unit", "")
    return tr(UNITS[unit]) if unit in UNITS else unit


def _short(value: float) -> str:
    """A count in a few characters: ``950``, ``12.3k``, ``4.5M``, ``1.2G``.

    Examples
    --------
    >>> _short(950), _short(12_345), _short(4_500_000), _short(1.2e9)
    ('950', '12.3k', '4.5M', '1.2G')
    >>> from deckstat.i18n import language
    >>> with language("fr"):
    ...     _short(12_345)
    '12,3k'
    """
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= limit:
            return localise_number(f"{value / limit:.1f}{suffix}")
    return f"{value:.0f}"


class _Localised(ProgressColumn):
    """A column written in the language of the command that made it, whichever thread draws it.

    rich draws the bar from threads of its own, which do not see the language the command set (``--lang``).
    """

    def __init__(self) -> None:
        super().__init__()
        self.lang = get_language()

    def render(self, task: Task) -> Text:
        with language(self.lang):
            return self.text(task)

    def text(self, task: Task) -> Text:
        raise NotImplementedError


class _Count(_Localised):
    """Done out of the total, in the work's unit: ``12.3M/100.0M trials``."""

    def text(self, task: Task) -> Text:
        if task.total is None and not task.fields.get("unit"):
            return Text("")  # work that is not counted (preparing the compiled kernel): its description alone
        total = "?" if task.total is None else _short(task.total)
        return Text(f"{_short(task.completed)}/{total} {_unit(task)}".rstrip())


class _Rate(_Localised):
    """Units per second: ``7.9M trials/s``."""

    def text(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{_short(speed)} {_unit(task)}/s")


class _Bar(progress.Progress):
    """One tracked piece of work: a line of the rich display, removed when the work ends."""

    def __init__(self, display: RichProgress, description: str, total: float | None, unit: str):
        self.display = display
        self.task_id = display.add_task(description, total=total, unit=unit)

    def advance(self, amount: float = 1) -> None:
        self.display.advance(self.task_id, amount)

    def update(self, *, total: float | None = None, description: str | None = None) -> None:
        changes = {key: value for key, value in (("total", total), ("description", description)) if value is not None}
        self.display.update(self.task_id, **changes)

    def close(self) -> None:
        if self.task_id in self.display.task_ids:
            self.display.remove_task(self.task_id)


class _Listener:
    """Makes a :class:`_Bar` for each tracked piece of work, and shows them all once the work has lasted."""

    def __init__(self, console: Console, delay: float):
        # The description as written: rich markup would eat an event's "[cost<=1]", as it did --help's.
        self.display = RichProgress(TextColumn("{task.description}", markup=False), BarColumn(bar_width=24), _Count(),
                                    _Rate(), TimeRemainingColumn(), console=console, transient=True)
        self.delay = delay
        self.lock = threading.Lock()
        self.timer: threading.Timer | None = None
        #: When the first piece of work was reported (the delay counts from it), else None.
        self.started: float | None = None
        self.shown = False
        self.paused = False
        self.closed = False

    def __call__(self, description: str, total: float | None, unit: str) -> _Bar:
        with self.lock:
            if self.started is None and not self.closed:
                self.started = time.monotonic()
                self._arm()
        return _Bar(self.display, description, total, unit)

    def _arm(self) -> None:
        # A timer rather than a check on each report: the first report may be the last for a while.
        self.timer = threading.Timer(max(0.0, self.started + self.delay - time.monotonic()), self._show)
        self.timer.daemon = True
        self.timer.start()

    def _show(self) -> None:
        with self.lock:
            if not self.closed and not self.paused:
                self.display.start()
                self.shown = True

    def pause(self) -> None:
        """Stop the timer, or the bar's drawing, meanwhile (:func:`deckstat.engines.progress.threads_paused`).

        A bar shown is erased, and drawn again at :meth:`resume` (its drawing thread has ended meanwhile).
        """
        with self.lock:
            self.paused = True
            timer, self.timer = self.timer, None
            drawing = getattr(self.display.live, "_refresh_thread", None) if self.shown else None
            if self.shown:
                self.display.stop()
        if timer is not None:
            timer.cancel()
            timer.join()
        if drawing is not None:
            drawing.join()

    def resume(self) -> None:
        """Start the timer again, for what is left of the delay, or the bar's drawing."""
        with self.lock:
            self.paused = False
            if self.closed or self.started is None:
                return
            if self.shown:
                self.display.start()
            elif self.timer is None:
                self._arm()

    def close(self) -> None:
        with self.lock:
            self.closed = True
            timer = self.timer
        if timer is not None:
            timer.cancel()
        if self.shown:
            self.display.stop()


@contextmanager
def showing(quiet: bool = False, *, console: Console | None = None, delay: float = DELAY) -> Iterator[None]:
    """Draw a progress bar on stderr for the work tracked inside the ``with`` block.

    Parameters
    ----------
    quiet : bool
        Draw nothing (``--quiet``).
    console : rich.console.Console, optional
        Where to draw (default: stderr). Nothing is drawn unless it is a
        terminal, so output piped or redirected to a file stays clean.
    delay : float
        Seconds of work before the bar appears.

    Examples
    --------
    >>> from deckstat.engines.progress import track
    >>> with showing(quiet=True), track("simulating", total=10) as bar:
    ...     bar.advance(10)
    """
    if quiet:
        yield
        return
    console = console if console is not None else Console(file=sys.stderr)
    if not console.is_terminal:
        yield
        return
    listener = _Listener(console, delay)
    try:
        with progress.listening(listener):
            yield
    finally:
        listener.close()


def bar_paused(call: Callable) -> Callable:
    """``call`` with the bar's threads paused while it runs (it may copy this process, as a report's figures do).

    See :func:`deckstat.engines.progress.threads_paused`.
    """
    def paused(*args, **kwargs):
        with progress.threads_paused():
            return call(*args, **kwargs)

    return paused
