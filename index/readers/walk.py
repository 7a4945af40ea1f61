"""Walking a folder the user gave: every file below it, each real directory once.

Symbolic links are followed only to places inside the folder given: a link that leads
outside it (``notes/x.md -> /etc/passwd``), or nowhere, is skipped with a line saying so;
a link back to a directory already walked (``loop -> .``) is not walked again, so a loop
ends. Hidden entries (``.obsidian/``, ``.git/``, ``.trash/``) are left out. Reads the
directory tree only, never a file's bytes.
"""

from __future__ import annotations

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
    seen = {real_root}
    found = Walk()
    pending = [root]
    while pending:
        folder = pending.pop()
        try:
            entries = sorted(folder.iterdir(), reverse=True)
        except OSError as exc:
            found.skipped.append(f"cannot read folder '{folder}' ({exc.strerror}): skipped")
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            real = _inside(entry, real_root, found.skipped)
            if real is None:
                continue
            if entry.is_dir():
                if real in seen:
                    continue  # a link back to a directory walked already
                seen.add(real)
                if stop is not None and stop(entry):
                    found.stopped.append(entry)
                else:
                    pending.append(entry)
            elif entry.is_file():
                found.files.append(entry)
    found.files.sort()
    found.stopped.sort()
    return found


def _inside(entry: Path, real_root: Path, skipped: list[str]) -> Path | None:
    """``entry``'s real path when it lies inside ``real_root``; None (with a line in
    ``skipped``) for a link that leads outside it or to nothing."""
    try:
        real = entry.resolve(strict=entry.is_symlink())
    except (OSError, RuntimeError):
        skipped.append(f"'{entry}' is a broken link or a link loop: skipped")
        return None
    if entry.is_symlink() and real != real_root and not real.is_relative_to(real_root):
        skipped.append(f"'{entry}' links to '{real}', outside the folder given: skipped "
                       "(links are followed only inside it)")
        return None
    return real
