"""Data files shipped inside the package (game profiles, message catalogues), parsed once per version of them.

Every command reads some: ``deckstat games`` all the profiles, any table the
French catalogue. Parsing them (``tomllib`` for the profiles) cost a command a
tenth of what importing typer does. Their parsed form is kept beside the
package's bytecode, in ``__pycache__``, as Python keeps a module's: with the
file's modification time and size, and those of the module that parses it, so
that a change to either is read again; written only where Python writes
bytecode (not under ``PYTHONDONTWRITEBYTECODE``) and never required (a
read-only install parses every time).
"""

from __future__ import annotations

import marshal
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

#: The folder of the package's own files.
PACKAGE = Path(__file__).resolve().parent


def shipped_path(*parts: str) -> Path:
    """The path of a file shipped inside the package, e.g. ``shipped_path("games", "wankul.toml")``."""
    return PACKAGE.joinpath(*parts)


def parsed(path: Path, parse: Callable[[str], dict]) -> dict:
    """``parse`` of the UTF-8 text of the shipped file ``path``, from the kept copy when it is still that file's.

    Parameters
    ----------
    path : Path
        A file inside the package.
    parse : callable
        Text to a dict of the types :mod:`marshal` writes (strings, numbers, booleans, lists and dicts of them);
        another result is returned but not kept.

    Returns
    -------
    dict
        A new dict at every call: the caller may change it.
    """
    stamp = _stamp(path, parse)
    kept = path.parent / "__pycache__" / f"{path.name}.{sys.implementation.cache_tag}.marshal"
    try:
        with open(kept, "rb") as handle:
            found = marshal.load(handle)
        if isinstance(found, tuple) and len(found) == 2 and found[0] == stamp and isinstance(found[1], dict):
            return found[1]
    except (OSError, EOFError, ValueError, TypeError):  # none kept yet, or not one this version wrote
        pass
    data = parse(path.read_text(encoding="utf-8"))
    if not sys.dont_write_bytecode:
        _keep(kept, stamp, data)
    return data


def _stamp(path: Path, parse: Callable) -> tuple:
    own = path.stat()
    parser = Path(sys.modules[parse.__module__].__file__).stat()
    return (marshal.version, parse.__qualname__, own.st_mtime_ns, own.st_size, parser.st_mtime_ns, parser.st_size)


def _keep(kept: Path, stamp: tuple, data: dict) -> None:
    try:
        blob = marshal.dumps((stamp, data))
    except ValueError:  # a type marshal does not write (a TOML date): parsed every time
        return
    partial = kept.with_name(f"{kept.name}.{os.getpid()}.{threading.get_ident()}.tmp")  # each writer its own
    try:
        kept.parent.mkdir(exist_ok=True)
        partial.write_bytes(blob)
        os.replace(partial, kept)  # whole or not at all, whoever reads it meanwhile
    except OSError:  # a read-only install
        try:
            partial.unlink(missing_ok=True)
        except OSError:
            pass
