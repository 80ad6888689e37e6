"""Progress of long runs, told to whoever listens, else to nobody.

The engines and the batch runner report what they have done through
:func:`track`; a front end (the command line's progress bar) listens with
:func:`listening`. Nothing listens by default, so a notebook or a script pays
nothing and prints nothing. The listener is held in a context variable, so
concurrent runs in different contexts do not mix their progress.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar


class Progress:
    """One piece of work being tracked; this base class ignores every report."""

    def advance(self, amount: float = 1) -> None:
        """Record ``amount`` more units done."""

    def update(self, *, total: float | None = None, description: str | None = None) -> None:
        """Change the expected total (e.g. once a precision run has estimated it) or the description."""

    def close(self) -> None:
        """The work is over (finished, stopped or failed)."""

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


#: The signals a front end's handler asked the work to stop for (the command line's, on Ctrl-C and SIGTERM).
_stop_signals: list[int] = []


def request_stop(signum: int) -> None:
    """Ask the work under way to stop at its next block, whatever became of the interrupt raised at the signal.

    A handler raises KeyboardInterrupt wherever the program is: raised in a
    weakref callback (the import system's module locks have some, so during
    any import, e.g. numpy's of ``numpy.random`` for pandas), Python prints
    it as "Exception ignored" and goes on, and the command then simulated
    on as if the signal had never come. Long work checks
    :func:`stop_if_requested` between its blocks.
    """
    _stop_signals.append(signum)


#: Seconds a wait that may last long (a batch's tasks, a first compile) waits before it looks for a stop request.
STOP_LOOK_SECONDS = 0.2


def stop_signal() -> int | None:
    """The signal the last stop was asked for (:func:`request_stop`), or None when none was."""
    return _stop_signals[-1] if _stop_signals else None


def stop_if_requested() -> None:
    """Raise KeyboardInterrupt if a stop was asked for: the checkpoint of long work, between blocks.

    Examples
    --------
    >>> stop_if_requested()  # nothing asked: nothing happens
    """
    if _stop_signals:
        raise KeyboardInterrupt


#: ``factory(description, total, unit) -> Progress``: what a listener provides.
Factory = Callable[[str, "float | None", str], Progress]

_listener: ContextVar[Factory | None] = ContextVar("deckstat_progress", default=None)


def track(description: str, total: float | None = None, unit: str = "trials") -> Progress:
    """Start tracking a piece of work of ``total`` units (None: unknown), for the current listener.

    Examples
    --------
    >>> with track("simulating", total=10) as bar:  # nobody listens: nothing happens
    ...     bar.advance(10)
    """
    factory = _listener.get()
    return Progress() if factory is None else factory(description, total, unit)


@contextmanager
def listening(factory: Factory | None) -> Iterator[None]:
    """Send every :func:`track` made inside the ``with`` block to ``factory`` (None: to nobody).

    None silences the work done inside the block, e.g. the simulations of a
    batch's tasks, which the batch's own progress already counts.
    """
    token = _listener.set(factory)
    try:
        yield
    finally:
        _listener.reset(token)


@contextmanager
def threads_paused() -> Iterator[None]:
    """Ask the listener to stop its threads inside the ``with`` block, and to start them again after it.

    Inside, this process may be copied (its worker processes are, :mod:`deckstat.engines.runner`): a copy has
    only the thread that made it, and a lock another thread held then would stay held in the copy. A listener
    with a ``pause()`` method stops its threads there (one it cannot stop keeps running, and the process is not
    copied) and starts them again in ``resume()``; any other listener is left as it is.
    """
    listener = _listener.get()
    pause = getattr(listener, "pause", None)
    if pause is None:
        yield
        return
    pause()
    try:
        yield
    finally:
        listener.resume()
