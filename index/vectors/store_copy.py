"""A temporary copy of a Chroma store, for reading an index without changing it: Chroma
writes to a store when it opens and queries it, so a read-only index (an unwritable one, or a
``Shelf(read_only=True)``) is queried through a copy.

Each copy is a ``crossbook-chroma-*`` folder in the temporary directory holding an ``.owner``
file its process keeps locked (flock) while it lives. The copy is removed when it is closed,
at exit, or by the signal handler of a server (``remove_all``); one whose owner died without
either (SIGKILL) is swept by the next :func:`make_copy` of any crossbook: the kernel drops a
dead process's locks, so an ``.owner`` that can be locked has no owner.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

from ..storage.lock import try_flock

PREFIX = "crossbook-chroma-"
OWNER = ".owner"
UNOWNED_GRACE = 60.0   # seconds a folder with no .owner yet may be another process's copy being made

_owned: dict[Path, int] = {}   # copy folder -> the locked .owner's descriptor
_guard = threading.Lock()


def make_copy(path: Path) -> Path:
    """A writable copy of the store at ``path`` (sweeping stale copies first); returns the
    store's folder inside it. Raises OSError.

    Files are copied without their modes: copytree would keep the store's read-only ones,
    and Chroma writes to the copy when it opens it."""
    sweep()
    base = Path(tempfile.mkdtemp(prefix=PREFIX))
    fd = os.open(base / OWNER, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    with _guard:
        _owned[base] = fd
    atexit.register(remove_copy, base)
    copy = base / "chroma"
    try:
        for folder, _, files in os.walk(path):
            target = copy / Path(folder).relative_to(path)
            target.mkdir()
            for name in files:
                shutil.copyfile(Path(folder) / name, target / name)
    except OSError:
        remove_copy(base)
        raise
    return copy


def remove_copy(base: Path) -> None:
    """Remove a copy made by make_copy (its folder, the parent of the store's; nothing when it
    is gone already)."""
    with _guard:
        fd = _owned.pop(base, None)
    shutil.rmtree(base, ignore_errors=True)
    if fd is not None:
        os.close(fd)


def remove_all() -> None:
    """Remove every copy this process made (a server's SIGTERM handler calls it)."""
    with _guard:
        bases = list(_owned)
    for base in bases:
        remove_copy(base)


def owned() -> list[Path]:
    """The copies this process holds now."""
    with _guard:
        return list(_owned)


def sweep(directory: Path | None = None) -> list[Path]:
    """Remove the copies in ``directory`` (the temporary directory) whose process is gone;
    returns them."""
    directory = Path(directory or tempfile.gettempdir())
    removed = []
    try:
        candidates = [p for p in directory.iterdir() if p.name.startswith(PREFIX) and p.is_dir()]
    except OSError:
        return removed
    for base in candidates:
        with _guard:
            if base in _owned:
                continue
        if _abandoned(base):
            shutil.rmtree(base, ignore_errors=True)
            removed.append(base)
    return removed


def _abandoned(base: Path) -> bool:
    try:
        fd = os.open(base / OWNER, os.O_RDWR)
    except FileNotFoundError:  # an older crossbook's copy, or one being made this instant
        try:
            return time.time() - base.stat().st_mtime > UNOWNED_GRACE
        except OSError:
            return False
    except OSError:
        return False  # another user's copy: not ours to judge
    try:
        return try_flock(fd)  # no live process owns the copy
    finally:
        os.close(fd)
