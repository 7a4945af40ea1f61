"""Books read one at a time, as the write asks for them (``StreamedBooks``).

``load_books`` (pipeline.py) reads every book of an ingest before the first is written: a
bad title fails the run before anything changes, and the estimate of a model's cost sees
every chunk. A directory of doc sets with the offline extractor needs neither, and reading
all of it first delays the first answer by the whole read (800 Haddock pages: 80 s) and holds
every book's pages in memory at once. There, each book is read when the write is ready for
it, and let go once it is written.

A book read late that cannot go in (unreadable, or a title another book of the run or of the
index holds) is skipped as an unreadable book is with ``load_books``: the books before it
stay written, and the run ends with the error that names it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from sqlite_utils import Database

from ..core.errors import BadInput
from ..core.steps import EventFn, no_event
from ..extract import ProgressFn, no_progress
from ..readers import ReadLimits, Selection, SourceBook
from .books import find_books
from .identity import book_place, book_title_clash, check_titles_free, ingest_may_take, kept_title, source_of
from .reading import read_told
from .unchanged import unread_book


def distinct_sources(paths: list[Path]) -> list[Path]:
    """``paths`` in order, each book once: a path whose source (ingest/identity.py) an
    earlier one has is left out (a file named itself and in its directory, a folder named
    twice)."""
    files, sources = [], set()
    for path in paths:
        if source_of(path) not in sources:
            sources.add(source_of(path))
            files.append(path)
    return files


def book_files(paths: list[Path], title: str | None, selection: Selection = Selection(),
               as_book: bool = False) -> list[Path]:
    """The files (and folders read as one book) ``paths`` name, each once (a file named
    itself and in its directory is one book). Raises BadInput when ``title`` names one book
    and there are several."""
    files = distinct_sources(find_books(paths, selection.include, selection.exclude, as_book=as_book))
    if title is not None and len(files) != 1:
        raise BadInput(f"--book names one book, but {len(files)} files were given")
    return files


def read_each(files: list[Path], title: str | None, fmt: str | None, limits: ReadLimits,
              skipped: list[tuple[Path, str]] | None, stored: dict[str, dict] | None,
              progress: ProgressFn, selection: Selection, reread: bool,
              events: EventFn) -> Iterator[tuple[SourceBook, str]]:
    """(book, title) for each of ``files``, read when asked for (``load_books`` says what each
    argument does). A book that cannot be read is appended to ``skipped`` (its path, its one
    line) and left out, or raised when ``skipped`` is None or it is the only file."""
    for i, path in enumerate(files):
        book = unread_book(stored, path, title, fmt, limits) if stored and not reread else None
        if book is None:
            progress(f"read {path.name}", i, len(files))
            try:
                book = read_told(path, fmt, limits, selection, events)
            except Exception as exc:  # a reader's failure, foreseen (BadInput) or not, skips only its book
                if skipped is None or len(files) == 1:
                    raise
                skipped.append((path, str(exc) if isinstance(exc, BadInput) else
                                f"'{path}' could not be read (unexpected {type(exc).__name__}: {exc})"))
                continue
        yield book, kept_title((stored or {}).get(source_of(path)), book, title)
        book = None  # let go of its pages while the next is read


@dataclass
class StreamedBooks:
    """The books of ``files``, to be read one at a time by the ingest that writes them
    (``books``): what ``load_books`` takes, but no book read yet. ``skipped`` gets each book
    left out, with its reason."""

    files: list[Path]
    fmt: str | None = None
    limits: ReadLimits = ReadLimits()
    stored: dict[str, dict] | None = None
    selection: Selection = Selection()
    reread: bool = False
    skipped: list[tuple[Path, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.files = distinct_sources(self.files)

    def __len__(self) -> int:
        return len(self.files)

    def books(self, db: Database, progress: ProgressFn = no_progress,
              events: EventFn = no_event) -> Iterator[tuple[SourceBook, str]]:
        """(book, title) as each is read, told on ``progress`` and ``events``; a book whose
        title another book of the run took, or a stored book of another file holds, is
        skipped (``check_titles_free``, with the sources of every file of the run)."""
        may_take = ingest_may_take({source_of(path) for path in self.files})
        seen: dict[str, tuple[str, str]] = {}  # title -> (place, format): not the book, whose pages go
        for book, title in read_each(self.files, None, self.fmt, self.limits, self.skipped, self.stored,
                                     progress, self.selection, self.reread, events):
            reason = str(book_title_clash(*seen[title], book, title)) if title in seen else None
            if reason is None:
                try:
                    check_titles_free(db, [(book, title)], may_take)
                except BadInput as exc:
                    reason = str(exc)
            if reason is not None:
                self.skipped.append((book.path, reason))
                continue
            seen[title] = (book_place(book), book.format)
            yield book, title
