"""Work in copies of this process (``fork``) beside it: worker processes, a report's figures."""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable


def forkable() -> bool:
    """Whether a copy of this process may work beside it: on Linux, with no other thread running.

    A copy has only the thread that made it: a lock another thread held at
    that moment (a buffered stream's, a module's import lock) stays held in
    the copy forever. macOS's system libraries refuse to run in a copy.
    """
    return sys.platform.startswith("linux") and threading.active_count() == 1


def work_beside() -> bool:
    """Whether a copy of this process may work beside it (:func:`forkable`) on a second processor of its own.

    On one processor the copy would only take turns with this process.
    """
    if not forkable():
        return False
    try:
        return len(os.sched_getaffinity(0)) > 1
    except (AttributeError, OSError):
        return False


class Forked:
    """Run ``job`` (returning something picklable) in a copy of this process; call the object for its result.

    The result is None when the copy failed, for any reason: the caller then does the job itself. The copy
    ignores Ctrl-C (this process handles it and ends the copy in :meth:`stop`) and leaves with ``os._exit``,
    so that nothing of this process (its open report folder, its exit handlers) runs twice.
    """

    def __init__(self, job: Callable[[], object]) -> None:
        self._read, write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the copy
            status = 1
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                os.close(self._read)
                data = pickle.dumps(job(), protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(write, "wb") as pipe:
                    pipe.write(data)
                status = 0
            except BaseException:  # noqa: BLE001  (this process then does the job itself, raising its error)
                pass
            finally:
                os._exit(status)
        os.close(write)

    def __call__(self) -> object:
        try:
            with os.fdopen(self._read, "rb", closefd=False) as pipe:
                data = pipe.read()
            _, status = os.waitpid(self.pid, 0)
            self.pid = 0
            return pickle.loads(data) if status == 0 and data else None
        except (OSError, pickle.UnpicklingError, EOFError):
            return None

    def stop(self) -> None:
        """End the copy if it is still running (this process was interrupted), and close the pipe."""
        if self.pid:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except OSError:
                pass
            self.pid = 0
        try:
            os.close(self._read)
        except OSError:
            pass
