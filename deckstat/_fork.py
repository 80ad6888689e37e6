"""Whether this process may be copied (``fork``) for work beside it: worker processes, a report's figures."""

from __future__ import annotations

import sys
import threading


def forkable() -> bool:
    """Whether a copy of this process may work beside it: on Linux, with no other thread running.

    A copy has only the thread that made it: a lock another thread held at
    that moment (a buffered stream's, a module's import lock) stays held in
    the copy forever. macOS's system libraries refuse to run in a copy.
    """
    return sys.platform.startswith("linux") and threading.active_count() == 1
