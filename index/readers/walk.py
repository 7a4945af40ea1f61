"""Walking a folder the user gave: every file below it, each real directory once.

Symbolic links are followed only to places inside the folder given: a link that leads
outside it (``notes/x.md -> /etc/passwd``), or nowhere, is skipped with a line saying so
(which never names, nor tells anything of, a place outside the folder);
a link back to a directory already walked (``loop -> .``) is not walked again, so a loop
ends. Hidden entries (``.obsidian/``, ``.git/``, ``.trash/``) are left out. Reads the
directory tree only, never a file's bytes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable


@dataclass
class Walk:
    """What ``walk_folder`` found below a folder, in path order."""

    files: list[Path] = field(default_factory=list)
    stopped: list[Path] = field(default_factory=list)  # directories ``stop`` kept whole (not walked)
    skipped: list[str] = field(default_factory=list)   # one line for each entry left out, and why


def walk_folder(root: Path, stop: Callable[[Path], bool] | None = None) -> Walk:
    """The files below ``root`` (see the module docstring); a directory for which ``stop``
    is true is listed in ``stopped`` and not walked."""
    real_root = root.resolve()
    seen = {_identity(root)}
    found = Walk()
    pending = [root]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as listing:
                entries = sorted((entry for entry in listing if not entry.name.startswith(".")),
                                 key=lambda entry: entry.name, reverse=True)
        except OSError as exc:
            found.skipped.append(f"cannot read folder '{folder}' ({exc.strerror}): skipped")
            continue
        for entry in entries:
            path = folder / entry.name
            if entry.is_symlink() and not _link_inside(path, real_root, found.skipped):
                continue
            try:
                is_dir = entry.is_dir()
            except OSError:
                continue
            if is_dir:
                identity = _identity(path)
                if identity in seen:
                    continue  # a link back to a directory walked already
                seen.add(identity)
                if stop is not None and stop(path):
                    found.stopped.append(path)
                else:
                    pending.append(path)
            elif entry.is_file():
                found.files.append(path)
    found.files.sort()
    found.stopped.sort()
    return found


def _identity(folder: Path) -> tuple[int, int]:
    """A directory's identity on disk (device, inode): the same through any link."""
    status = folder.stat()
    return status.st_dev, status.st_ino


def _link_inside(link: Path, real_root: Path, skipped: list[str]) -> bool:
    """Whether ``link`` leads to a place inside ``real_root``; when not, a line in ``skipped``
    says so without naming the place (nor whether it exists): a link out of the folder is
    told as one, whatever lies there, and so is one inside it that leads nowhere."""
    target = Path(os.path.realpath(link))  # as far as the links lead, not asking what is there
    if target != real_root and not target.is_relative_to(real_root):
        skipped.append(f"'{link}' is a link outside the folder given: skipped (links are followed only inside it)")
        return False
    try:
        link.resolve(strict=True)
    except (OSError, RuntimeError):
        skipped.append(f"'{link}' is a broken link or a link loop: skipped")
        return False
    return True
