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
