"""Which paths an ingest confined to some folders (the roots) may read: the MCP server's
``--allow-ingest DIR`` and ``Shelf.ingest(..., roots=[...])``.

The rule, checked before a byte of any book is read:

- a relative path names a path inside the roots (the first root that holds it), never one of
  the process's working directory, which a confined ingest does not choose;
- every path is resolved first (each symbolic link of a chain, every ``..``) and must then
  lie inside one of the roots (resolved the same way);
- below its root, no part of the path is hidden (``.ssh/id_rsa``, ``.config/x.md``);
- it is a regular file or a folder, told by ``stat`` and never by opening it (a FIFO
  would block the open, ``/dev/zero`` would never end);
- a folder's entries (hidden ones aside: no reader opens them) follow the same rule: a link
  leads inside the roots, each is a regular file or a folder; a FIFO or a link out of the
  roots anywhere in it refuses the folder (a vault reader opens its ``SUMMARY.md`` by name);
- a file is at most ``max_file_bytes`` long, and so is every file of a folder.

A hard link is a file's own name, not a pointer: a hard link inside a root to a file outside
it cannot be told from any other file of the root by its path, and is read. Making one takes
write access to the root (and, with Linux's ``fs.protected_hardlinks``, owning the target),
so the roots are the trust boundary: give folders whose contents you would let the assistant
read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Iterable

from ..core.errors import BadInput

MIB = 1024 * 1024
MAX_FILE_BYTES = 512 * MIB   # one book file; the largest PDF rulebooks are a few hundred MB


class PathNotAllowed(BadInput):
    """A path an ingest confined to some folders may not read (nothing was read or written)."""


def resolve_roots(roots: Iterable[str | Path]) -> list[Path]:
    """The roots, resolved; each must be an existing folder. Raises BadInput."""
    resolved = []
    for root in roots:
        try:
            real = Path(root).expanduser().resolve(strict=True)
        except (OSError, RuntimeError):
            raise BadInput(f"allowed folder '{root}' does not exist") from None
        if not real.is_dir():
            raise BadInput(f"allowed folder '{root}' is not a folder")
        resolved.append(real)
    if not resolved:
        raise BadInput("no allowed folder given: name at least one folder the ingest may read")
    return resolved


def check_paths(paths: Iterable[str | Path], roots: list[Path], *,
                max_file_bytes: int = MAX_FILE_BYTES) -> list[Path]:
    """The ``paths`` resolved, each allowed by the rule in the module docstring over the
    (resolved) ``roots``. Raises PathNotAllowed naming the roots, BadInput for a missing path."""
    return [check_path(inside_roots(Path(p), roots), roots, max_file_bytes=max_file_bytes) for p in paths]


def inside_roots(path: Path, roots: list[Path]) -> Path:
    """``path`` as a confined ingest reads it: an absolute path (or ``~/...``) as it is, a
    relative one below the first of the (resolved) ``roots`` that holds it, else below the
    first root (where :func:`check_path` finds it missing)."""
    path = path.expanduser()
    if path.is_absolute():
        return path
    return next((root / path for root in roots if (root / path).exists()), roots[0] / path)


def check_path(path: Path, roots: list[Path], *, max_file_bytes: int = MAX_FILE_BYTES) -> Path:
    """One path of :func:`check_paths`, resolved."""
    try:
        real = path.expanduser().resolve(strict=True)
    except (OSError, RuntimeError):
        raise BadInput(f"path '{path}' does not exist (or is a broken link)") from None
    root = next((r for r in roots if real == r or real.is_relative_to(r)), None)
    if root is None:
        _refuse(path, "is outside the allowed folders" + (f" (it leads to '{real}')" if real != path else ""), roots)
    hidden = next((part for part in real.relative_to(root).parts if part.startswith(".")), None)
    if hidden is not None:
        _refuse(path, f"is hidden below an allowed folder ('{hidden}')", roots)
    mode = os.stat(real).st_mode
    if stat.S_ISDIR(mode):
        _check_folder(path, real, roots, max_file_bytes)
    elif stat.S_ISREG(mode):
        _check_size(path, real, roots, max_file_bytes)
    else:
        _refuse(path, f"is not a regular file or a folder (a {_kind(mode)})", roots)
    return real


def _check_folder(path: Path, real: Path, roots: list[Path], max_file_bytes: int) -> None:
    """Every entry of the folder that is not hidden: a link must lead inside the roots, and
    each must be a regular file (within the size cap) or a folder. A reader opens some names
    itself (a vault's ``SUMMARY.md``, ``book.toml``), not only the files its walk finds."""
    for folder, folders, files in os.walk(real):  # a linked folder is an entry here, not walked
        folders[:] = [name for name in folders if not name.startswith(".")]
        for name in [*folders, *files]:
            if name.startswith("."):
                continue
            entry = Path(folder) / name
            try:
                target = entry.resolve(strict=True) if entry.is_symlink() else entry
                status = os.stat(target)
            except (OSError, RuntimeError):
                continue  # a broken link or a loop: the walk skips it, nothing is read
            if not any(target == r or target.is_relative_to(r) for r in roots):
                _refuse(entry, f"links to '{target}', outside the allowed folders", roots)
            if stat.S_ISREG(status.st_mode):
                _check_size(entry, target, roots, max_file_bytes)
            elif not stat.S_ISDIR(status.st_mode):
                _refuse(entry, f"is not a regular file or a folder (a {_kind(status.st_mode)})", roots)


def _check_size(path: Path, real: Path, roots: list[Path], max_file_bytes: int) -> None:
    size = os.stat(real).st_size
    if size > max_file_bytes:
        _refuse(path, f"is {size / MIB:.0f} MB, over the {max_file_bytes / MIB:.0f} MB a file may be", roots)


def _kind(mode: int) -> str:
    kinds = [(stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"),
             (stat.S_ISSOCK, "socket")]
    return next((name for test, name in kinds if test(mode)), "special file")


def _refuse(path: Path, why: str, roots: list[Path]) -> None:
    raise PathNotAllowed(f"'{path}' {why}: this ingest reads only regular files and folders, not hidden,"
                         f" inside {', '.join(str(r) for r in roots)}")

