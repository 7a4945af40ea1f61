"""The one guarded way to a folder's files: a doc set's pages and inventories, a vault's notes.

The folder is walked once (walk.py) and every reader and inventory gets its files from the
``FolderFiles`` that walk built, never from a path of its own:

- **only walked files**: no hidden names, links followed only to places inside the folder
  given, regular files only (a FIFO, a device or a folder named ``x.tag`` is no file);
- **a cap per file** (``max_file_bytes``, far above any real page): a file over it is left
  out with one line, and a file that grew past it since the walk is read no further;
- **decompression capped** as an EPUB's members are (``inflate``: a cap, and a ratio);
- **no path from a file's contents**: a name an inventory gives is looked up among the walked
  files (``has``, ``read_bytes`` refuse any other), never opened as a path;
- **no line names what lies outside the folder** (a link out of it says only that it leads out).

``--glob`` and ``--exclude`` select among the walked files (``Selection``). Each file read
whole is told to the hook ``telling_reads`` sets, if any (an ingest shows its read's progress
by the pages read so far).
"""

from __future__ import annotations

import fnmatch
import os
import stat
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from .source import MIB, ReadLimits, Selection
from .walk import walk_folder

MAX_FILE_BYTES = 64 * MIB
_READ_HOOK: ContextVar[Callable[[str], None] | None] = ContextVar("crossbook_read_hook", default=None)


@contextmanager
def telling_reads(hook: Callable[[str], None]) -> Iterator[None]:
    """Within the block, ``hook(relative path)`` hears each file a ``FolderFiles`` reads whole."""
    token = _READ_HOOK.set(hook)
    try:
        yield
    finally:
        _READ_HOOK.reset(token)


class NotWalked(OSError):
    """A name that is not one of the folder's walked files (or one that changed into no file)."""


class FolderFiles:
    """A folder's files as one walk found them (module doc): relative POSIX paths, sorted."""

    def __init__(self, root: Path, selection: Selection = Selection(), limits: ReadLimits = ReadLimits(),
                 max_file_bytes: int = MAX_FILE_BYTES):
        self.root = root
        self.limits = limits
        self.max_file_bytes = max_file_bytes
        walk = walk_folder(root)
        self.skipped: list[str] = list(walk.skipped)
        self._real: dict[str, Path] = {}
        for path in walk.files:
            relative = path.relative_to(root).as_posix()
            if not selection.keeps(relative):
                continue
            try:
                size = path.stat().st_size
            except OSError:
                continue
            if size > max_file_bytes:
                self.skipped.append(f"'{relative}' is {size // MIB} MiB, over the {max_file_bytes // MIB} MiB a file "
                                    "of a folder may hold: left out")
                continue
            self._real[relative] = path
        self.files: tuple[str, ...] = tuple(sorted(self._real))
        self._names = {}
        for relative in self.files:
            self._names.setdefault(relative.rpartition("/")[2], []).append(relative)

    def has(self, relative: str) -> bool:
        """Whether ``relative`` is one of the walked files."""
        return relative in self._real

    def at_root(self, pattern: str) -> list[str]:
        """The files directly in the folder whose name matches ``pattern`` ("*.devhelp2")."""
        return [f for f in self.files if "/" not in f and fnmatch.fnmatchcase(f, pattern)]

    def matching(self, pattern: str) -> list[str]:
        """The files whose relative path matches ``pattern`` ("js/search_index.js", "index-files/*.html")."""
        return [f for f in self.files if fnmatch.fnmatchcase(f, pattern)]

    def named(self, pattern: str) -> list[str]:
        """The files at any depth whose own name matches ``pattern`` ("*.html", "annotated.html")."""
        if not any(ch in pattern for ch in "*?["):
            return list(self._names.get(pattern, ()))
        return [f for name, found in self._names.items() if fnmatch.fnmatchcase(name, pattern) for f in found]

    def size(self, relative: str) -> int:
        return self._path(relative).stat().st_size

    def read_bytes(self, relative: str, limit: int | None = None) -> bytes:
        """The file's bytes (at most ``limit`` of them when given). Raises NotWalked for a name
        the walk did not find or a file that is no longer a regular file, OSError when it
        cannot be read, and ValueError when it grew past the cap."""
        path = self._path(relative)
        cap = self.max_file_bytes if limit is None else min(limit, self.max_file_bytes)
        # O_NONBLOCK: a file swapped for a FIFO since the walk cannot hang the open
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                raise NotWalked(f"'{relative}' is no longer a file")
            with os.fdopen(descriptor, "rb", closefd=False) as handle:
                data = handle.read(cap + 1)
        finally:
            os.close(descriptor)
        if len(data) > cap:
            if limit is not None and limit < self.max_file_bytes:
                return data[:limit]
            raise ValueError(f"'{relative}' grew past the {self.max_file_bytes // MIB} MiB a file may hold")
        hook = _READ_HOOK.get() if limit is None else None
        if hook is not None:
            hook(relative)
        return data

    def head(self, relative: str, count: int) -> bytes:
        """The file's first ``count`` bytes (b"" when it cannot be read)."""
        try:
            return self.read_bytes(relative, count)
        except (OSError, ValueError):
            return b""

    def read_text(self, relative: str) -> str:
        return self.read_bytes(relative).decode("utf-8")

    def inflate(self, data: bytes, relative: str, wbits: int = zlib.MAX_WBITS) -> bytes:
        """``data`` decompressed (zlib), held to the limits an EPUB's member is: at most
        ``max_member_bytes``, and past ``ratio_floor`` at most ``max_ratio`` times its size.
        Raises ValueError past them."""
        limits = self.limits
        cap = min(limits.max_member_bytes, max(limits.ratio_floor, int(len(data) * limits.max_ratio)))
        inflater = zlib.decompressobj(wbits)
        out = inflater.decompress(data, cap + 1)
        if len(out) > cap:
            raise ValueError(f"'{relative}' inflates past {cap // MIB or 1} MiB (a cap, and {limits.max_ratio:g} times "
                             "its size): left out")
        return out

    def _path(self, relative: str) -> Path:
        path = self._real.get(relative)
        if path is None:
            raise NotWalked(f"'{relative}' is not a file of the folder")
        return path
