"""The explorer's slower answers, asked in a process of their own.

The first answer to a change is given in the page's own process; the mulligan table, the playability curve, the
±1-copy table and the tightening of simulated answers are asked of one helper process. In a thread of the page's
process, their Python (planning, shaping tables) would take turns with the next change's first answer for the
interpreter's lock, and a player who clicks + twice would wait twice as long for the second answer; in a process of
their own, they run beside it. A question's answer does not depend on where it is asked (same seed, same numbers).
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import sys
import threading
import time

from deckstat.errors import DeckstatError
from deckstat.i18n import language
from deckstat.questions.curve import curve
from deckstat.questions.mulligan import mulligan
from deckstat.questions.odds import odds
from deckstat.questions.sensitivity import sensitivity

#: How often the helper process looks whether the page's process still runs, in seconds.
PARENT_LOOK_SECONDS = 0.5

#: The questions the helper process asks, by name.
QUESTIONS = {"odds": odds, "mulligan": mulligan, "curve": curve, "sensitivity": sensitivity}


def answer(question: str, lang: str, deck, game, arguments: dict) -> tuple[str, object]:
    """Ask ``question`` of ``deck``: ``("result", result)``, or ``("problem", message)`` for a refused question.

    The message travels as text: an exception with its own constructor does not always come back whole from
    another process.
    """
    with language(lang):
        try:
            return "result", QUESTIONS[question](deck, game, **arguments)
        except DeckstatError as exc:
            return "problem", str(exc)


def _ready() -> bool:
    """Load the questions' modules (the helper process imports them once, before the first change)."""
    return True


def _end_with(parent: int) -> None:
    """In the helper process: end it as soon as ``parent``, the page's process, has ended, however it ended.

    An idle helper holds both ends of its task queue and would otherwise wait for a task forever once its parent
    is gone (killed, or stopped before it shut the helper down), holding the parent's output open. POSIX only:
    elsewhere a process's parent id does not change when its parent ends.
    """
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_LOOK_SECONDS)
        os._exit(0)

    if os.name == "posix":
        threading.Thread(target=watch, name="deckstat-parent-watch", daemon=True).start()


def can_spawn() -> bool:
    """Whether a helper process can start without running the user's script again.

    A new process imports the main module again unless it is a module run with ``-m`` (``python -m deckstat``,
    guarded as modules are) or there is no file to import (a notebook, the interpreter's prompt). A plain script
    (``python script.py``) would run its top level again in the helper, unless written under
    ``if __name__ == "__main__":``, which nothing can check from here: its explorer answers in a thread instead.
    """
    main = sys.modules.get("__main__")
    return getattr(main, "__file__", None) is None or getattr(main, "__spec__", None) is not None


class Helper:
    """One helper process shared by every explorer of this process, started on first use."""

    def __init__(self) -> None:
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _started(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                # spawn: a fork of a process with a server's threads could copy a lock held by one of them.
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=_end_with,
                    initargs=(os.getpid(),))
            return self._pool

    def warm(self) -> concurrent.futures.Future:
        """Start the process and load its modules now, so that the first change does not wait for them."""
        return self._started().submit(_ready)

    def ask(self, question: str, lang: str, deck, game, arguments: dict):
        """The result of ``question``, asked in the helper process; a refused question raises :class:`DeckstatError`.

        A helper process that died (killed, out of memory) is started again once.
        """
        for attempt in range(2):
            try:
                kind, value = self._started().submit(answer, question, lang, deck, game, arguments).result()
                break
            except concurrent.futures.process.BrokenProcessPool:
                with self._lock:
                    self._pool = None
                if attempt:
                    raise
        if kind == "problem":
            raise DeckstatError(value)
        return value

    def shutdown(self, wait: bool = False) -> None:
        """Stop the process (a later question starts it again); ``wait`` until it has ended."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=wait, cancel_futures=True)


#: The helper of this process.
HELPER = Helper()
