"""Skipping an unchanged book before it is read.

Reading a book (a PDF's layout, an EPUB's chapters) costs seconds; deciding that its file did
not change costs a ``stat``. A stored book notes its file's size and modification time, and
the title its reader gave it (``record_stamp``, after checking that the file's bytes still
hash to what was stored). A file whose size and time match, or whose bytes hash to the
stored ``sha256`` when only the time moved, stands in for its book as an ``UnreadBook`` that
carries the stored title and hash; ``plan_book`` then finds it unchanged as it would the read
book, or reads it when another setting (extractor, pack) makes it change. A folder (a vault)
is always read.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from sqlite_utils import Database

from ..changes.book_rows import FileStamp, store_file_stamp
from ..core.errors import CrossbookError
from ..readers import ReadLimits, SourceBook, read_book
from ..storage.db import open_for_planning
from .identity import source_of

_HASH_BLOCK = 1 << 20


@dataclass(frozen=True)
class UnreadBook(SourceBook):
    """A book file found unchanged by its stamp or hash: its stored title and hash, no sections."""

    reader_format: str | None = None  # --format, when given
    limits: ReadLimits = ReadLimits()

    def read(self) -> SourceBook:
        return read_book(self.path, self.reader_format, self.limits)


def file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(_HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def stored_files(db: Database) -> dict[str, dict]:
    """source -> the stored book's row (title, hash, format, partial, stamp, the title its
    reader gave it), for the books whose source is recorded (a folder's has no size or
    time); empty for an index made before stamps were recorded."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(books)")}
    if "read_title" not in columns:
        return {}
    return {r["source"]: r for r in db.query(
        "SELECT title, source, sha256, format, partial, file_size, file_mtime_ns, read_title FROM books"
        " WHERE source IS NOT NULL")}


def unread_book(stored: dict[str, dict], path: Path, title: str | None, fmt: str | None,
                limits: ReadLimits = ReadLimits()) -> UnreadBook | None:
    """``path``'s book without reading it when its stored stamp (or hash) says it did not
    change and it keeps its stored title; else None (read it)."""
    row = stored.get(source_of(path)) if path.is_file() else None
    if row is None or row["file_size"] is None or row["partial"] or (fmt is not None and fmt != row["format"]):
        return None
    if title is not None and row["title"] != title:
        return None  # a new --book title: a rename (without one, the stored title is kept: identity.kept_title)
    try:
        stat = path.stat()
    except OSError:
        return None
    if stat.st_size != row["file_size"]:
        return None
    if stat.st_mtime_ns != row["file_mtime_ns"] and file_hash(path) != row["sha256"]:
        return None
    return UnreadBook(path=path, format=row["format"], title=row["read_title"], sections=(),
                      sha256=row["sha256"], reader_format=fmt, limits=limits)


def file_stamp(book: SourceBook) -> FileStamp | None:
    """The stamp to store with ``book``: its file's size and time and its reader's title,
    when the file still holds the bytes that were read (else None: the next ingest reads it);
    a folder's, its reader's title alone."""
    path = book.path
    if path.is_dir():
        return FileStamp(None, None, book.title)
    if not path.is_file():
        return None
    try:
        stat = path.stat()
        if file_hash(path) != book.sha256:
            return None
    except OSError:
        return None
    return FileStamp(stat.st_size, stat.st_mtime_ns, book.title)


def record_stamp(db: Database, title: str, book: SourceBook) -> None:
    """Note the stored book's file stamp (``file_stamp``)."""
    store_file_stamp(db, title, file_stamp(book))


def stamp_is_current(db: Database, title: str, path: Path) -> bool:
    """Whether the stored stamp of ``title`` is its file's size and time now (a folder's:
    whether its reader's title is noted)."""
    row = db.execute("SELECT file_size, file_mtime_ns, read_title FROM books WHERE title = ?", [title]).fetchone()
    if row is not None and path.is_dir():
        return row[2] is not None
    row = row[:2] if row is not None else None
    try:
        stat = path.stat()
    except OSError:
        return False
    return row is not None and tuple(row) == (stat.st_size, stat.st_mtime_ns)


def stored_files_at(index_dir: Path) -> dict[str, dict]:
    """``stored_files`` of the index at ``index_dir``, opened read-only (nothing when there is
    none yet, or it cannot be read: the command that writes it then says why)."""
    try:
        db = open_for_planning(index_dir)
    except CrossbookError:
        return {}
    try:
        return stored_files(db)
    finally:
        db.conn.close()
