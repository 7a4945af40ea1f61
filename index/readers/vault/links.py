"""Which note a link names, resolved the way Obsidian resolves it. Pure.

A wikilink's path (``Note``, ``folder/Note``, ``../Note``, ``Note.md``) names a note, case
aside: the note at that exact path from the vault's root, else relative to the linking
note's folder, else the notes whose path ends with it: one in the linking note's folder,
else the one with the shortest path (then the first in path order). A path that names no
note is an unresolved link (Obsidian shows it greyed; it references nothing).
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from urllib.parse import unquote

NOTE_SUFFIXES = (".md", ".markdown")
ATTACHMENTS = {"png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "avif", "pdf", "mp3", "mp4", "webm", "wav",
               "ogg", "m4a", "flac", "mov", "canvas", "excalidraw", "base"}


def is_note(name: str) -> bool:
    return name.lower().endswith(NOTE_SUFFIXES)


def _key(path: str) -> str:
    return path.casefold()


class NoteIndex:
    """The notes of one vault (paths relative to it, POSIX), for resolving links."""

    def __init__(self, notes: list[str]):
        self.notes = list(notes)
        self._exact = {}
        self._by_base: dict[str, list[str]] = defaultdict(list)
        for note in self.notes:
            stem = note.rsplit(".", 1)[0]
            self._exact.setdefault(_key(stem), note)
            self._by_base[_key(stem.rsplit("/", 1)[-1])].append(note)

    def resolve(self, target: str, source: str) -> str | None:
        """The note ``target`` (a link's path, no ``#``) names from the note ``source``, or None."""
        target = target.strip().replace("\\", "/")
        if not target:
            return None
        last = target.rsplit("/", 1)[-1]
        if is_note(last):
            target = target.rsplit(".", 1)[0]
        elif "." in last and last.rsplit(".", 1)[-1].lower() in ATTACHMENTS:
            return None
        folder = posixpath.dirname(source)
        relative = posixpath.normpath(posixpath.join(folder, target)) if folder else posixpath.normpath(target)
        for candidate in (relative, posixpath.normpath(target.lstrip("/"))):
            found = self._exact.get(_key(candidate))
            if found is not None:
                return found
        base = _key(target.rsplit("/", 1)[-1])
        tail = "/" + _key(target.lstrip("./"))
        matches = [n for n in self._by_base.get(base, ())
                   if ("/" + _key(n.rsplit(".", 1)[0])).endswith(tail)]
        if not matches:
            return None
        near = [n for n in matches if posixpath.dirname(n) == folder]
        return (near or sorted(matches, key=lambda n: (n.count("/"), n)))[0]

    def resolve_href(self, href: str, source: str) -> str | None:
        """The note a Markdown link's ``href`` (``other.md``, ``../a%20b.md#x``) names, or None
        (a URL, an anchor in the same note, an attachment)."""
        href = unquote(href.strip().strip("<>").split("#", 1)[0])
        if not href or "://" in href or href.startswith(("mailto:", "/")) or not is_note(href):
            return None
        folder = posixpath.dirname(source)
        path = posixpath.normpath(posixpath.join(folder, href))
        return self._exact.get(_key(path.rsplit(".", 1)[0]))
