"""Writing files so that an interrupted run never leaves one that looks complete.

A file is written under a temporary name in its own folder, synced, then
renamed into place (:func:`atomic_write`): a rename within a folder is
atomic, so the file holds the old content or the new one, never a part. A
report's folder is built as a temporary sibling and swapped in
(:func:`replace_folder`), so it holds one run's report, never a mix of two.
What a killed run left aside is cleared by the next write of the same path
(:func:`clear_leftovers`). A file that cannot be written is a :class:`~deckstat.errors.DeckstatError`
naming the path and the reason (:func:`write_error`).
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from deckstat.errors import DeckstatError
from deckstat.i18n import N_, tr

#: The start of the names of files and folders being written; an interrupted run may leave some behind.
TEMPORARY_PREFIX = ".deckstat-partial-"

#: The reason an OSError gives, in words a player reads.
_REASONS = {
    errno.ENOENT: N_("no such folder"),
    errno.ENOTDIR: N_("a part of the path is a file, not a folder"),
    errno.EISDIR: N_("it is a folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EROFS: N_("read-only file system"),
    errno.ENOSPC: N_("no space left on the disk"),
    errno.EDQUOT: N_("disk quota exceeded"),
    errno.ENAMETOOLONG: N_("file name too long"),
}


def write_error(error: OSError, path: str | Path) -> DeckstatError:
    """The error to show for ``error`` while writing ``path``: the path and the reason, in words.

    Examples
    --------
    >>> write_error(FileNotFoundError(errno.ENOENT, "No such file or directory"), "nodir/x.png").render()
    'nodir/x.png: cannot write: no such folder'
    """
    reason = _REASONS.get(error.errno)
    reason = tr(reason) if reason is not None else (error.strerror or type(error).__name__)
    return DeckstatError(tr("cannot write: {reason}", reason=reason), source=str(path))


def check_writable_file(path: str | Path) -> None:
    """Refuse, before any work, a file path whose folder is missing or not writable, or that is a folder.

    Raises
    ------
    DeckstatError
        Naming ``path`` and the reason.
    """
    path = Path(path)
    folder = path.parent
    _check_name(path)
    if path.is_dir():
        raise write_error(IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR)), path)
    if not folder.exists():
        code = errno.ENOTDIR if _under_file(folder) else errno.ENOENT
        raise write_error(OSError(code, os.strerror(code)), path)
    if not folder.is_dir():
        raise write_error(NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)), path)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise write_error(PermissionError(errno.EACCES, os.strerror(errno.EACCES)), path)


def check_writable_folder(folder: str | Path) -> None:
    """Refuse, before any work, a folder that cannot be created or written into.

    The folder itself, or else its nearest existing parent, must be a folder
    deckstat may write into; the system is asked (a file made and removed in
    the folder, or the folder's first missing part made and removed), so that
    nothing is left behind and the refusal comes before the work.
    """
    folder = Path(folder)
    _check_name(folder)
    if folder.exists() and not folder.is_dir():
        raise DeckstatError(tr("exists and is not a folder"), source=str(folder))
    existing = next((p for p in (folder, *folder.absolute().parents) if p.exists()), None)
    if existing is None:  # pragma: no cover - the root always exists
        return
    if not existing.is_dir():
        raise write_error(NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)), folder)
    if not os.access(existing, os.W_OK | os.X_OK):
        code = errno.EROFS if _read_only_mount(existing) else errno.EACCES
        raise write_error(OSError(code, os.strerror(code)), folder)
    # Permission bits do not tell everything (root passes them; /proc, a full quota or some network folders refuse
    # anyway): the system is asked, by making what the run will make, and removing it at once.
    try:
        if existing == folder or existing == folder.absolute():
            with tempfile.TemporaryFile(dir=existing):
                pass
        else:
            first_missing = folder.absolute().relative_to(existing.absolute()).parts[0]
            probe = existing / first_missing
            probe.mkdir()
            probe.rmdir()
    except OSError as error:
        raise write_error(error, folder) from None


def _read_only_mount(path: Path) -> bool:
    """Whether ``path`` is on a file system mounted read-only (where even root cannot write)."""
    try:
        return bool(os.statvfs(path).f_flag & getattr(os, "ST_RDONLY", 0))
    except (OSError, AttributeError):  # no statvfs (Windows)
        return False


def _check_name(path: Path) -> None:
    """Refuse a name the system refuses whatever the folder: too long, or holding a NUL character.

    :meth:`pathlib.Path.exists` raises for them instead of answering.
    """
    if "\0" in str(path):
        raise DeckstatError(tr("the file name holds a NUL character, which no file name can"), source=repr(str(path)))
    try:
        path.lstat()
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise write_error(exc, path) from None


def _under_file(folder: Path) -> bool:
    return any(p.exists() and not p.is_dir() for p in folder.absolute().parents)


def _sync(path: Path) -> None:
    """Flush ``path`` (a file or a folder) to the disk; systems that cannot open folders skip it."""
    try:
        handle = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process, or a platform without signals: leave its files alone
        return True
    return True


def clear_leftovers(path: str | Path) -> None:
    """Remove what runs killed while writing ``path`` left beside it, and put back a folder a swap had set aside.

    Only the temporary names of ``path`` (:data:`TEMPORARY_PREFIX`, the
    process id, the name) whose process is gone are touched. A folder that
    :func:`replace_folder` had moved aside, when nothing took its place,
    is renamed back rather than removed: it is the user's previous output.
    """
    path = Path(path).absolute()
    try:
        entries = list(path.parent.iterdir())
    except OSError:
        return
    for entry in entries:
        rest = entry.name.removeprefix(TEMPORARY_PREFIX)
        pid, _, name = rest.partition("-")
        if rest == entry.name or not pid.isdigit() or name not in (path.name, f"old-{path.name}"):
            continue
        if _alive(int(pid)):
            continue
        try:
            if name != path.name and not os.path.lexists(path):
                os.replace(entry, path)
            elif entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        except OSError:
            pass  # a leftover that cannot be cleared does no harm: its name says what it is


def atomic_write(path: str | Path, write: Callable[[Path], object]) -> Path:
    """Write ``path`` through ``write(temporary_path)`` in the same folder, sync it, then rename it into place.

    The temporary name keeps the extension, for writers that choose the format by it (figures).
    An ``OSError`` becomes a :class:`DeckstatError` naming ``path`` (:func:`write_error`); any other
    exception propagates. Either way no temporary file is left and ``path`` keeps its old content.
    """
    path = Path(path)
    clear_leftovers(path)
    temporary = path.with_name(f"{TEMPORARY_PREFIX}{os.getpid()}-{path.name}")
    try:
        write(temporary)
        _sync(temporary)
        os.replace(temporary, path)
    except OSError as error:
        raise write_error(error, path) from None
    finally:
        try:
            temporary.unlink(missing_ok=True)
        except OSError:
            pass
    _sync(path.parent)
    return path


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Write ``data`` into ``path`` atomically (:func:`atomic_write`)."""
    return atomic_write(path, lambda temporary: temporary.write_bytes(data))


@contextmanager
def replace_folder(target: str | Path) -> Iterator[Path]:
    """Build a folder in a temporary sibling of ``target``, then swap it in for ``target``.

    Yields the folder to build into. When the block ends without an
    exception, the old ``target`` (if any) is renamed aside, the new one
    renamed into its place, and the old one removed: ``target`` then holds
    only what was built. On an exception the temporary folder is removed
    and ``target`` is left as it was.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as root:
    ...     with replace_folder(Path(root) / "out") as build:
    ...         _ = (build / "a.txt").write_text("new")
    ...     sorted(p.name for p in Path(root).iterdir()), (Path(root) / "out" / "a.txt").read_text()
    (['out'], 'new')
    """
    target = Path(target).absolute()
    parent = target.parent
    clear_leftovers(target)
    try:
        parent.mkdir(parents=True, exist_ok=True)
        build = parent / f"{TEMPORARY_PREFIX}{os.getpid()}-{target.name}"
        shutil.rmtree(build, ignore_errors=True)
        build.mkdir()
    except OSError as error:
        raise write_error(error, target) from None
    try:
        yield build
        for child in build.iterdir():
            _sync(child)
        _sync(build)
        old = parent / f"{TEMPORARY_PREFIX}{os.getpid()}-old-{target.name}"
        shutil.rmtree(old, ignore_errors=True)
        moved = target.exists()
        if moved:
            os.replace(target, old)
        try:
            os.replace(build, target)
        except OSError:
            if moved:  # put the old folder back rather than leave none
                os.replace(old, target)
            raise
        _sync(parent)
        shutil.rmtree(old, ignore_errors=True)
    except OSError as error:
        raise write_error(error, target) from None
    finally:
        shutil.rmtree(build, ignore_errors=True)


def write_card_file(deck, path: str | Path) -> Path:
    """Write ``deck`` as a card CSV that :func:`deckstat.load_deck` reads back (one row per card, UTF-8)."""
    data = deck.cards.to_csv(index=False, lineterminator="\n").encode("utf-8")
    return atomic_write_bytes(path, data)
