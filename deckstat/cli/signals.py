"""How a command stops on Ctrl-C or SIGTERM: one ``interrupted`` line and the shell's code for the signal.

Standard library only (and :mod:`deckstat.engines.progress`, which is too): the
entry point installs the handlers before it loads typer, rich and the
commands, so that a ``kill`` during that second is answered like one later.
"""

from __future__ import annotations

import signal
import sys
import threading

from deckstat.engines.progress import request_stop, stop_signal

#: Exit code of a command stopped by Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130
#: Exit codes of a command stopped by Ctrl-C or by SIGTERM.
INTERRUPT_CODES = (EXIT_INTERRUPTED, 128 + signal.SIGTERM)


def stop_on_sigterm() -> None:
    """From now on SIGTERM (``kill``, a scheduler's time limit) stops the command as Ctrl-C does.

    The command then ends its worker processes and says ``interrupted``, with
    code 143 (128 + 15, as shells report SIGTERM); killed outright instead,
    it left multiprocessing's semaphores to its resource tracker, which
    warned about them under the command's output. Both signals (Ctrl-C unless
    it is ignored) also ask the work to stop at its next block
    (:func:`deckstat.engines.progress.request_stop`).
    """
    if threading.current_thread() is not threading.main_thread():
        return

    def stop(signum: int, frame: object) -> None:
        # Raised here, the interrupt can be lost (caught on its way out of a library's import); asked for too, the
        # work stops at its next block all the same.
        request_stop(signum)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # an ignored Ctrl-C stays ignored
        signal.signal(signal.SIGINT, stop)
    previous = sys.unraisablehook

    def unraisable(info: object) -> None:
        # An interrupt raised where Python cannot raise it (the import system's weakref callbacks) was printed as
        # "Exception ignored" and lost: the stop request now acts on it, without a traceback under the one line.
        if isinstance(getattr(info, "exc_value", None), KeyboardInterrupt) and stop_signal() is not None:
            return
        previous(info)

    sys.unraisablehook = unraisable


def ends_in_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` is a Ctrl-C (or the SIGTERM turned into one) that other code wrapped on its way out.

    Python 3.11 raises a ``RuntimeError`` from any exception met while a class
    is created (``__set_name__``), as a library's classes are while it is
    imported: a Ctrl-C in that moment must still read ``interrupted``, not an
    internal error.
    """
    if stop_signal() is not None:  # whatever the interrupt became on its way out, the signal came first
        return True
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def interrupted_code() -> int:
    """The exit code of an interrupted command: 143 after SIGTERM, 130 after Ctrl-C."""
    signum = stop_signal()
    return EXIT_INTERRUPTED if signum is None else 128 + signum


def forget_handled_interrupt() -> None:
    """Let the exit code the command chose stand after it has handled an interrupt.

    CPython marks an interrupt that leaves code run by ``exec`` of a string
    (dataclasses and named tuples build their methods so, often while a
    module loads) as unhandled for good, even when the program catches it
    later; ``python -m deckstat`` then ended by SIGINT (status -2) after
    printing ``interrupted``, whatever code the command had chosen. The mark
    is a private global of CPython's runtime: where it is missing (another
    interpreter, another version), there is nothing to forget.
    """
    try:
        import ctypes

        ctypes.c_int.in_dll(ctypes.pythonapi, "_Py_UnhandledKeyboardInterrupt").value = 0
    except (ImportError, AttributeError, ValueError, OSError):
        pass
