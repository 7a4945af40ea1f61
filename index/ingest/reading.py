"""A book's read as the first step of an ingest, told as it goes (core/steps.py).

A folder read as one book (a doc set, a vault) is read page by page: the step counts the
pages its reader will read (``readers.docset.page_files``, a vault's notes) and hears each
one read (``readers.files.telling_reads``), so a display shows "read: 120/263 pages, about
20 s left" rather than a frozen bar. A file is one unit.
"""

from __future__ import annotations

from pathlib import Path

from ..core.steps import EventFn, step
from ..readers import ReadLimits, Selection, SourceBook, detect_format, read_book
from ..readers.files import FolderFiles, telling_reads


def pages_to_read(path: Path, fmt: str | None, limits: ReadLimits, selection: Selection) -> frozenset[str] | None:
    """The pages (relative paths) a folder's reader will read, when the folder is a doc set or
    a vault; None otherwise (a file, or a folder of another reader)."""
    if not path.is_dir():
        return None
    try:
        kind = fmt or detect_format(path)
        files = FolderFiles(path, selection, limits)
    except (OSError, ValueError):
        return None  # the read says what is wrong, with its one line
    if kind == "docset":
        from ..readers.docset import page_files

        return frozenset(page_files(files))
    if kind == "vault":
        from ..readers.vault.links import NOTE_SUFFIXES

        return frozenset(f for f in files.files if Path(f).suffix.lower() in NOTE_SUFFIXES)
    return None


def read_told(path: Path, fmt: str | None, limits: ReadLimits, selection: Selection, events: EventFn) -> SourceBook:
    """``read_book`` as the step ``read`` (``events``: its start with the pages to read, its
    progress as each is read, its end with the sections found). Raises what read_book raises."""
    pages = pages_to_read(path, fmt, limits, selection)
    total, unit = (len(pages), "pages") if pages else (1, "files")
    with step(events, "read", path.name, total, unit) as tally:
        seen: set[str] = set()

        def read_one(relative: str) -> None:
            if pages is not None and relative in pages and relative not in seen:
                seen.add(relative)
                tally(len(seen))

        with telling_reads(read_one):
            book = read_book(path, fmt, limits, selection)
        tally.done = total
        tally.fields.update(sections=len(book.sections))
    return book
