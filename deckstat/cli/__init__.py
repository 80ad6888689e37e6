"""The ``deckstat`` command line.

Layer rule: every command parses its arguments, makes one public API call
(``deckstat.odds``, ``deckstat.ratio``…) and presents the result with
:mod:`deckstat.present` and the rich tables of :mod:`deckstat.cli.tables`;
no statistics here. ``options`` holds what commands share, including the
flags that error messages name instead of Python parameters; ``groups``
makes the option families several commands take (simulation, mulligan,
known cards, deck file, output, display) one object each, declared once.

This module imports the commands only when asked (``app``, ``main()``), so
that a Ctrl-C while they load is answered like any other.
"""

from __future__ import annotations

__all__ = ["app", "main", "parse_turns"]


def main() -> None:
    """Entry point of the ``deckstat`` command: load the commands and run the one asked for.

    A Ctrl-C or a SIGTERM while typer, rich and the commands load prints
    ``interrupted`` and exits with 130 or 143, as it does once a command runs.
    """
    from deckstat.cli.signals import ends_in_interrupt, forget_handled_interrupt, interrupted_code, stop_on_sigterm

    stop_on_sigterm()
    try:
        from deckstat.cli.commands import main as run
    except BaseException as exc:
        if not ends_in_interrupt(exc):
            raise
        import sys

        from deckstat.i18n import tr

        print(tr("interrupted"), file=sys.stderr)
        forget_handled_interrupt()
        raise SystemExit(interrupted_code()) from None
    run()


def __getattr__(name: str) -> object:
    """``app`` and ``parse_turns``, imported with the commands on first use."""
    if name == "app":
        from deckstat.cli.commands import app

        return app
    if name == "parse_turns":
        from deckstat.cli.options import parse_turns

        return parse_turns
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
