"""Which stored book a book file is. A book is its source file (its resolved absolute path,
``books.source``); its title is its display name.

- The file of a stored book, under a new title: that book, renamed (no second copy).
- A title another stored book already has: an error that names the fix, unless that book
  may give it up: its file is gone (the file was moved), its file is one of this run's
  books (its title changes in the same run), or it was stored before sources were recorded
  (matched by title, as before). ``rebuild`` lets every book give up its title but one
  whose file could not be read (the manifest is the truth).
- Two files of one run with the same title: an error that names both files, before
  anything is written.
- The same source ingested again keeps its book's title (``kept_title``) unless a title is
  given: a title given before (``--book``, a manifest's ``title``) stays, and so does a
  folder's (a doc set's, a vault's: the title it is known by, whatever its pages say now);
  a file's own title (its heading, front matter, metadata) follows its text, so an edit of
  it renames the book. The title a reader declares (``SourceBook.title``) names a new book.

Pure checks over ``books``: nothing here writes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, TypeVar

from sqlite_utils import Database

from ..core.errors import BadInput
from ..readers import SourceBook
from ..storage import store
from .joined import JoinedBook, joined_parts

T = TypeVar("T")

# how a user gives a book another title, for each command that reads books: ingest's
# depends on where the book's format keeps its title (``ingest_retitle``)
ON_ITS_OWN = "ingest it on its own with --book 'OTHER TITLE'"
_TITLE_FROM = {
    "markdown": "a 'title:' line in its front matter, or ",
    "text": "a 'title:' line in its front matter, or ",
    "html": "its page's <title>, or ",
    "pdf": "the Title of its PDF metadata, or ",
    "epub": "the dc:title of its package file, or ",
    "vault": "a [book] title in its book.toml, or ",
}
MANIFEST_RETITLE = "title = \"...\" in its [[books]] entry of the manifest"


def ingest_retitle(book: SourceBook, other: SourceBook | str | None = None) -> str:
    """How the owner of ``book`` gives it another title on ingest, in its format's terms;
    when the clash is with ``other`` (a book, or its format), a note (Markdown or text) of
    the same folder tree, reading the folder as one book (--as-book) keeps both notes under
    their names."""
    advice = _TITLE_FROM.get(book.format, "") + ON_ITS_OWN
    notes = ("markdown", "text")
    other_format = other if isinstance(other, str) or other is None else other.format
    if other_format in notes and book.format in notes:
        advice += "; or, for a folder of notes whose names repeat, ingest the folder as one book with --as-book"
    return advice


def source_of(path: Path) -> str:
    """A book file's identity: its resolved absolute path (the cwd does not matter)."""
    return str(path.resolve())


def book_source(book: SourceBook) -> str:
    """A book's identity: its file's or folder's (``source_of``), or for a book of several
    folders the set of them (joined.py)."""
    return book.source if isinstance(book, JoinedBook) else source_of(book.path)


def book_place(book: SourceBook) -> str:
    """Where a book comes from, as a message names it: its path, or its folders."""
    return ", ".join(str(part) for part in book.parts) if isinstance(book, JoinedBook) else str(book.path)


def source_exists(source: str) -> bool:
    """Whether a stored book's source is still there: its file or folder, or any of its folders."""
    parts = joined_parts(source)
    return any(part.exists() for part in parts) if parts is not None else Path(source).exists()


def kept_title(stored: dict | None, book: SourceBook, given: str | None) -> str:
    """The title ``book`` is stored under: ``given`` (``--book``, a manifest's title) when
    there is one; the title its reader declares (``book.title``) for a new book; for a book
    already stored from the same source (``stored``: its row, with ``title`` and the
    ``read_title`` its reader gave it), its stored title, unless it is a file whose stored
    title was the one its text stated (then the text's title now: an edit renames it). A
    title given before, and a folder's (a doc set's, a vault's), stay whatever its reader
    says now."""
    if given is not None:
        return given
    if stored is None:
        return book.title
    title = stored["title"]
    text_titled_file = not book.path.is_dir() and stored.get("read_title") == title
    return book.title if text_titled_file else title


def _title_clash(first: str, second: str, title: str, retitle: str) -> BadInput:
    return BadInput(f"'{first}' and '{second}' have the same title '{title}': "
                    f"give one of them another title ({retitle})")


def _first_repeat(titled: list[tuple[str, T]]) -> tuple[str, T, T] | None:
    """(title, first holder, second holder) of the first title given twice, or None."""
    seen: dict[str, T] = {}
    for title, holder in titled:
        if title in seen:
            return title, seen[title], holder
        seen[title] = holder
    return None


def check_unique_titles(titled: list[tuple[str, str]], retitle: str) -> None:
    """``titled``: (title, where the book comes from) pairs. Raises BadInput naming both
    sources of the first title given twice, and how to ``retitle`` one."""
    repeat = _first_repeat(titled)
    if repeat:
        title, first, second = repeat
        raise _title_clash(first, second, title, retitle)


def check_book_titles_unique(books: list[tuple[SourceBook, str]]) -> None:
    """Raise BadInput naming both files of the first title two books of one ingest share,
    and how to retitle the second in its format's terms (``ingest_retitle``)."""
    repeat = _first_repeat([(title, book) for book, title in books])
    if repeat:
        title, first, second = repeat
        raise book_title_clash(book_place(first), first.format, second, title)


def book_title_clash(first_place: str, first_format: str, second: SourceBook, title: str) -> BadInput:
    """The error for ``second`` taking the ``title`` of the book read before it in the same
    ingest (from ``first_place``, of ``first_format``)."""
    return _title_clash(first_place, book_place(second), title, ingest_retitle(second, first_format))


def check_titles_free(
    db: Database, books: list[tuple[SourceBook, str]], may_take: Callable[[dict], bool],
    retitle: str | None = None,
) -> None:
    """Raise BadInput, before anything is written, when a (file, title) pair's title is held
    by another stored book that may not give it up (``may_take(row)`` is False for that
    ``books`` row); the message names both files and the fixes (``retitle``, else the
    advice for the book's format)."""
    for book, title in books:
        holder = store.get_book(db, title)
        if holder is not None and holder["source"] != book_source(book) and not may_take(holder):
            raise BadInput(
                f"'{book_place(book)}' has the title '{title}', which the book from '{holder['path']}' already has: "
                f"give it another title ({retitle or ingest_retitle(book)}), or run crossbook delete-book '{title}' first to replace that book"
            )


def renamed_from(db: Database, source: str, title: str) -> str | None:
    """The title the book stored from ``source`` has, when it is not ``title`` (a rename)."""
    mine = store.get_book_by_source(db, source)
    return mine["title"] if mine is not None and mine["title"] != title else None


def ingest_may_take(run_sources: set[str]) -> Callable[[dict], bool]:
    """For ingest: a stored book gives up its title when its file is gone (moved), is in
    this run, or was never recorded (an index made before sources were)."""

    def may_take(holder: dict) -> bool:
        source = holder["source"]
        return source is None or source in run_sources or not source_exists(source)

    return may_take
