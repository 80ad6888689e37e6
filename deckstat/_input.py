"""Read the files a user gives deckstat, within a size limit.

Every file deckstat reads from the user (card files, decklists, known-cards
files, profiles, batch specs) is read through :func:`read_input_bytes`: a
device (``/dev/zero``), a pipe or a folder is refused at once, and a file
larger than its limit is refused before it is read, with its size, the limit
and the way out. The limits are in :mod:`deckstat.terms` and docs/limits.md.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from deckstat.errors import DeckstatError
from deckstat.i18n import N_, number, tr

#: How messages name each kind of file, and what to do with one that is too large.
KINDS = {
    "cards": (N_("a card file"), N_("keep only the cards the deck can use, or split the pool into several files")),
    "profile": (N_("a profile"), N_("a profile holds rules and a few lists; move card data to the card file")),
    "spec": (N_("a batch spec"), N_("split the batch into several specs")),
    "lines": (N_("a lines file"), N_("split the lines into several files")),
}
_CHUNK = 1 << 20


def megabytes(size: int) -> str:
    """``size`` bytes written in megabytes for a reader (``8 MB``, ``200.0 MB``).

    Examples
    --------
    >>> megabytes(8_000_000), megabytes(200_000_201)
    ('8 MB', '200.0 MB')
    """
    if size % 1_000_000 == 0:
        return tr("{size} MB", size=number(size // 1_000_000))
    return tr("{size} MB", size=number(size / 1e6, 1))


def read_input_bytes(path: str | os.PathLike, *, kind: str, limit: int,
                     error: type[DeckstatError] = DeckstatError) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    Parameters
    ----------
    path : str or path
        The file.
    kind : str
        A key of :data:`KINDS`: how messages name the file and the way out.
    limit : int
        The most bytes accepted.
    error : type of DeckstatError
        The error raised (a batch spec raises its own kind).

    Returns
    -------
    bytes

    Raises
    ------
    OSError
        When the file cannot be opened (not found, no permission) or is a folder: callers word those themselves.
    DeckstatError
        For a name holding a NUL, a device, a pipe or a socket, and for a file larger than ``limit``.
    """
    path = Path(path)
    source = str(path)
    what, way_out = KINDS[kind]
    if "\0" in source:  # os.open would raise a ValueError, which names no file
        raise error(tr("the file name holds a NUL character, which no file name can"), source=repr(source))
    # O_NONBLOCK: opening a pipe nobody writes to would otherwise wait forever.
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        status = os.fstat(handle)
        mode = status.st_mode
        if stat.S_ISDIR(mode):  # as open() would say it: each caller words a folder as it words a missing file
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), source)
        if not stat.S_ISREG(mode):
            kind_word = tr("a pipe") if stat.S_ISFIFO(mode) else (
                tr("a socket") if stat.S_ISSOCK(mode) else tr("a device"))
            raise error(tr("is {kind}, not a regular file; expected {what} (save the input to a file first)",
                           kind=kind_word, what=tr(what)), source=source)
        size = status.st_size
        if size > limit:
            # A size just over the limit reads as the limit in megabytes: then it is given in bytes.
            shown = megabytes(size) if round(size / 1e6, 1) > limit / 1e6 else tr("{size} bytes", size=number(size))
            raise _too_large(error, source, tr("is {size}", size=shown), what, limit, way_out)
        parts, total = [], 0
        while total <= limit:  # the file may grow while it is read: never more than limit + 1 bytes
            part = os.read(handle, min(_CHUNK, limit + 1 - total))
            if not part:
                break
            parts.append(part)
            total += len(part)
        if total > limit:
            raise _too_large(error, source, tr("holds more than {limit}", limit=megabytes(limit)), what, limit,
                             way_out)
        return b"".join(parts)
    finally:
        os.close(handle)


def _too_large(error: type[DeckstatError], source: str, size: str, what: str, limit: int,
               way_out: str) -> DeckstatError:
    return error(tr("{size}, more than the {limit} deckstat reads for {what}; {way_out}", size=size,
                    limit=megabytes(limit), what=tr(what), way_out=tr(way_out)), source=source)
