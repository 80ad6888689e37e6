"""The command line's own errors: what is wrong with the arguments themselves, as one line.

click (inside typer) finds some mistakes before any command runs: an option
missing or unknown, a value that is not a number or not one of the choices,
an option without its value, a command that does not exist. :class:`Group`
writes each as the one ``error: …`` line (``erreur : …``) every other
unusable input gets, in the user's language, naming the option, the value and
what was expected, and where to read more (``see 'deckstat odds --help'``);
the exit code is 2. It also ends a Ctrl-C that comes before or after a
command's own handling with ``interrupted`` and 130.

The messages are made from the exception's type and fields (the parameter,
the value pydantic could not read, the options click suggests), not from
click's English text, except where click keeps the facts only in its text
(extra arguments, an option given a value it does not take).
"""

from __future__ import annotations

import difflib
import errno
import os
import re
import sys
from collections.abc import Iterator, Sequence
from enum import Enum
from typing import Any

import typer

from deckstat.cli.options import _CLICK_EXCEPTION, EXIT_USAGE, lang_values
from deckstat.cli.options import Group as HelpGroup
from deckstat.cli.signals import interrupted_code
from deckstat.i18n import LanguageError, detect_language, language, normalise_language, tr, trn

#: The pydantic error types of a value that is not a whole number, not a number, not a yes or no.
_NOT_WHOLE = frozenset({"int_parsing", "int_from_float", "int_type"})
_NOT_NUMBER = frozenset({"float_parsing", "float_type", "finite_number", "decimal_parsing"})
_NOT_BOOL = frozenset({"bool_parsing", "bool_type"})
#: click keeps the unexpected arguments only in its message.
_EXTRA = re.compile(r"unexpected extra argument(?:\(s\)|s)? \((?P<extra>.*)\)$", re.S)


def error_language(args: Sequence[str]) -> str:
    """The language of an error found while parsing ``args``: their last ``--lang``, else the environment's.

    ``--lang``'s own callback has not run when click refuses an argument, and
    in one process (tests) the language of the last command may still be set.
    An unusable ``--lang`` or ``DECKSTAT_LANG`` gives English, the error
    being written all the same.
    """
    given = lang_values(list(args))
    for candidate in (given[-1] if given else None, None):
        try:
            return normalise_language(candidate) if candidate is not None else detect_language()
        except LanguageError:
            continue
    return "en"


def _positionals(command: Any, args: Sequence[str]) -> Iterator[tuple[int, str]]:
    """The words of ``args`` that are no option of ``command`` nor an option's value, with their index."""
    skip = False
    for index, arg in enumerate(args):
        if skip:
            skip = False
        elif arg == "--":
            return
        elif arg.startswith("-") and arg != "-":
            param = _find_option(command, arg)
            skip = param is not None and not param.is_flag and "=" not in arg
        else:
            yield index, arg


def _walk(root: Any, args: Sequence[str], prog_name: str) -> tuple[Any, list[str], list[str]]:
    """The command ``args`` name (a group's subcommands followed), its path (``deckstat games show``), what follows.

    A word that names no subcommand of a group stops the walk: it comes first in what follows.
    """
    command, path, rest = root, [prog_name], list(args)
    while hasattr(command, "commands"):
        for index, arg in _positionals(command, rest):
            sub = command.commands.get(arg)
            if sub is None:
                return command, path, rest[index:]
            command, path, rest = sub, [*path, arg], rest[index + 1:]
            break
        else:
            break
    return command, path, rest


def _name(param: Any) -> str:
    """How the command line spells ``param``: its first flag (``--seat``), or an argument's metavar (``DECK``)."""
    if param is None:
        return "?"
    if getattr(param, "param_type_name", "") == "argument":
        return param.metavar or param.name.upper()
    return (param.opts or param.secondary_opts or [param.name])[0]


def _choices(param: Any) -> str | None:
    descriptor = getattr(param, "type_descriptor", None)
    values = getattr(descriptor, "choices", None) if descriptor is not None else None
    if not values:
        return None
    return ", ".join(str(v.value) if isinstance(v, Enum) else str(v) for v in values)


def _bad_value(exc: Any) -> str:
    """The message of a value click's parameter type (pydantic) refused."""
    option = _name(exc.param)
    cause = exc.__cause__
    errors = cause.errors() if cause is not None and hasattr(cause, "errors") else []
    first = errors[0] if errors else {}
    kind, value = first.get("type"), first.get("input")
    if kind in _NOT_WHOLE:
        return tr("{option}: {value!r} is not a whole number", option=option, value=str(value))
    if kind in _NOT_NUMBER:
        return tr("{option}: {value!r} is not a number", option=option, value=str(value))
    if kind in _NOT_BOOL:
        return tr("{option}: {value!r} is not a yes or no (true, false, yes, no, 1, 0)", option=option,
                  value=str(value))
    choices = _choices(exc.param)
    if choices is not None and value is not None:
        return tr("{option}: {value!r} is not one of: {choices}", option=option, value=str(value), choices=choices)
    return tr("{option}: {detail}", option=option, detail=_one_line(exc.format_message()))


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _find_option(command: Any, name: str | None) -> Any:
    for param in getattr(command, "params", []):
        if name in (*getattr(param, "opts", ()), *getattr(param, "secondary_opts", ())):
            return param
    return None


def _no_such_command(group: Any, rest: Sequence[str]) -> str | None:
    """The message for the name in ``rest`` (what follows the group) that ``group`` has no command for."""
    names = sorted(getattr(group, "commands", {}))
    name = rest[0] if rest else None
    if name is None or name in names:
        return None
    close = difflib.get_close_matches(name, names)
    message = tr("no such command {name!r}", name=name)
    if close:
        message = trn("{message} (did you mean {names}?)", "{message} (did you mean one of {names}?)",
                      len(close), message=message, names=", ".join(close))
    return tr("{message}; the commands are: {commands}", message=message, commands=", ".join(names))


def describe(exc: Any, root: Any, args: Sequence[str], prog_name: str) -> str:
    """The one ``error: …`` line for click's exception ``exc`` raised while parsing ``args``.

    Parameters
    ----------
    exc : click.ClickException
        What click (or typer's parameter types) raised.
    root : click.Group
        The ``deckstat`` group, from which the command ``args`` name is found
        when the exception does not say.
    args : sequence of str
        The command line's arguments, without the program's name.
    prog_name : str
        The program's name, as ``--help`` shows it.

    Returns
    -------
    str
        ``error: <what is wrong>; see '<command> --help'``, in the current language.
    """
    command, names, rest = _walk(root, args, prog_name)
    path = exc.ctx.command_path if exc.ctx is not None else " ".join(names)
    kind = type(exc).__name__
    message = None
    if kind == "MissingParameter":
        param = exc.param
        if getattr(param, "param_type_name", "") == "argument":
            message = tr("missing argument {name}", name=_name(param))
        else:
            message = tr("missing option {option} {metavar}", option=_name(param),
                         metavar=getattr(param, "metavar", None) or "VALUE")
    elif kind == "NoSuchOption":
        message = tr("no such option {option}", option=exc.option_name)
        if exc.possibilities:
            message = trn("{message} (did you mean {names}?)", "{message} (did you mean one of {names}?)",
                          len(exc.possibilities), message=message, names=", ".join(exc.possibilities))
    elif kind == "BadOptionUsage":
        param = _find_option(command, exc.option_name)
        if (param is not None and param.is_flag) or "does not take a value" in exc.message:
            message = tr("{option} takes no value: give {option} alone, or leave it out", option=exc.option_name)
        else:
            message = tr("{option} needs a value: {option} {metavar}", option=exc.option_name,
                         metavar=getattr(param, "metavar", None) or "VALUE")
    elif kind == "BadParameter" and exc.param is not None:
        message = _bad_value(exc)
    elif kind == "UsageError":
        extra = _EXTRA.search(exc.message)
        if extra:
            words = extra.group("extra").split()
            message = trn("unexpected argument {arguments}", "unexpected arguments {arguments}", len(words),
                          arguments=" ".join(words))
        else:
            message = _no_such_command(command, rest) if hasattr(command, "commands") else None
    if message is None:
        message = _one_line(exc.format_message())
    return tr("error: {message}", message=tr("{message}; see '{help}'", message=message, help=f"{path} --help"))


class Group(HelpGroup):
    """The ``deckstat`` group: click's own errors as one line and code 2, Ctrl-C as ``interrupted`` and 130.

    Its --help is written in the user's language (:class:`deckstat.cli.options.Group`).

    It runs click without its standalone mode, so that every ending comes
    back here, both from the installed ``deckstat`` command and from
    ``typer.testing.CliRunner``.
    """

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, windows_expand_args: bool = True,
             **extra: Any) -> Any:
        """Run the command ``args`` name; exit with its code (or return it, outside standalone mode)."""
        from deckstat.cli.terminal import safe_text

        args = list(sys.argv[1:] if args is None else args)
        if prog_name is None:
            prog_name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "deckstat"
            if prog_name in ("__main__.py", "-c", ""):
                prog_name = "deckstat"
        self._main_shell_completion(extra, prog_name, complete_var)
        code, returned = 0, None
        try:
            with self.make_context(prog_name, list(args), **extra) as ctx:
                returned = self.invoke(ctx)
        except typer.Exit as exc:
            code = returned = exc.exit_code
        except _CLICK_EXCEPTION as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # deckstat alone: its help, as --help gives it
                typer.echo(exc.ctx.get_help())
            else:
                with language(error_language(args)):
                    typer.echo(safe_text(describe(exc, self, args, prog_name)), err=True)
                code = EXIT_USAGE
        except (KeyboardInterrupt, typer.Abort, EOFError):
            with language(error_language(args)):
                typer.echo(tr("interrupted"), err=True)
            code = interrupted_code()
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise
            # The reader of stdout went away (| head): nothing more can be said there; no traceback either.
            sys.stdout = _Quiet(sys.stdout)
            sys.stderr = _Quiet(sys.stderr)
            code = 1
        if not standalone_mode:
            return returned if code == 0 else code
        sys.exit(code)


class _Quiet:
    """A stream whose flush ignores a closed pipe (Python flushes stdout once more at exit)."""

    def __init__(self, wrapped: Any):
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)
