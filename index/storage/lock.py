"""One writer per index: an flock'd lock file in the index directory that names its holder.

Every command that writes (ingest, rebuild, delete-book, reembed, doctor --repair, review
decisions, cache prune) takes the lock before the database is opened, so before migrations
run, and holds it to its end, Chroma writes included; a second writer waits up to ``wait``
seconds and then raises IndexBusy naming the holder's pid. Readers never take it: SQLite's
WAL lets them read the last committed state while a writer writes. A reader that finds the
schema out of date takes it too, to migrate (index/storage/db.py).

The kernel drops an flock when its process dies, SIGKILL included, so a crashed writer
leaves no stale lock; the pid in the file is only for the message. The lock is re-entrant
within one thread (open_db migrating under a command that holds it), and two threads of one
process exclude each other like two processes do (each opens its own file description).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator

from ..core.config import DEFAULT_WAIT
from ..core.errors import IndexBusy, IndexReadOnly

LOCK_FILE = "crossbook.lock"
POLL_SECONDS = 0.1

WaitFn = Callable[[str], None]

_held: dict[tuple[str, int], int] = {}   # (lock path, thread id) -> depth
_held_guard = threading.Lock()


def lock_path(index_dir: Path) -> Path:
    return index_dir / LOCK_FILE


def holder(index_dir: Path) -> dict:
    """What the lock file says about its last holder: ``pid``, ``command``, ``since`` (any may
    be missing: the holder writes them just after it takes the lock)."""
    try:
        data = json.loads(lock_path(index_dir).read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def describe(info: dict) -> str:
    """``pid 1234: crossbook ingest, since 08:21:05 UTC`` (what is known of a holder)."""
    pid = info.get("pid")
    text = f"pid {pid}" if pid else "pid unknown"
    details = [f"crossbook {info['command']}" if info.get("command") else "",
               f"since {info['since']}" if info.get("since") else ""]
    details = [d for d in details if d]
    return text + (f": {', '.join(details)}" if details else "")


def try_flock(fd: int) -> bool:
    """Take ``fd``'s exclusive flock without waiting: False when another process holds it."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return False
        raise


def _open_lock_file(index_dir: Path) -> int:
    try:
        return os.open(lock_path(index_dir), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        if isinstance(exc, PermissionError) or exc.errno == errno.EROFS:
            raise IndexReadOnly(
                f"{index_dir / 'crossbook.db'} is read-only: this command writes to the index"
            ) from None
        raise


def _busy_message(index_dir: Path, info: dict, waited: float) -> str:
    return (
        f"index is busy ({describe(info)}): another crossbook is writing to {index_dir}; "
        f"waited {waited:g} s. Run this again when it has finished, or give --wait SECONDS "
        "to wait longer (queries such as where-else keep working meanwhile)"
    )


@contextlib.contextmanager
def writer_lock(index_dir: Path, wait: float = DEFAULT_WAIT, *, command: str = "",
                on_wait: WaitFn | None = None) -> Iterator[None]:
    """Hold the index's writer lock for the ``with`` block.

    Creates ``index_dir`` when missing. Waits up to ``wait`` seconds for another writer
    (``on_wait`` is told once, with the holder, when it has to wait); then raises IndexBusy.
    Raises IndexReadOnly when the lock file cannot be created. ``command`` is recorded for
    the message another writer gets."""
    key = (str(lock_path(index_dir).resolve()), threading.get_ident())
    with _held_guard:
        depth = _held.get(key, 0)
        if depth:
            _held[key] = depth + 1
    if depth:
        try:
            yield
        finally:
            with _held_guard:
                _held[key] -= 1
        return
    index_dir.mkdir(parents=True, exist_ok=True)
    fd = _open_lock_file(index_dir)
    try:
        start = time.monotonic()
        told = False
        while not try_flock(fd):
            waited = time.monotonic() - start
            if waited >= wait:
                raise IndexBusy(_busy_message(index_dir, holder(index_dir), wait))
            if not told and on_wait is not None:
                on_wait(f"waiting for the index's writer ({describe(holder(index_dir))}) to finish "
                        f"(up to {wait:g} s; --wait SECONDS)")
                told = True
            time.sleep(min(POLL_SECONDS, max(wait - waited, 0.001)))
        since = datetime.now(timezone.utc).strftime("%H:%M:%S UTC")
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"pid": os.getpid(), "command": command, "since": since}).encode(), 0)
        with _held_guard:
            _held[key] = 1
        try:
            yield
        finally:
            with _held_guard:
                del _held[key]
            # the file stays (deleting it would race a waiter that opened it); the kernel
            # releases the flock when the descriptor closes
    finally:
        os.close(fd)


def writer_running(index_dir: Path) -> dict | None:
    """The writer holding the index's lock now (what ``holder`` knows of it), or None when
    no one writes. Never creates the lock file, and takes the lock only for the instant of
    the probe, so a read-only index and a reader that may not write can ask."""
    try:
        fd = os.open(lock_path(index_dir), os.O_RDONLY)
    except OSError:
        return None  # no lock file: no writer has ever run here
    try:
        if try_flock(fd):
            fcntl.flock(fd, fcntl.LOCK_UN)
            return None
        return holder(index_dir)
    finally:
        os.close(fd)
