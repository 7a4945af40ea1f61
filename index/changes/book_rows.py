"""A book's own rows as an ingest stores them (``BookRows``), all of them gathered before the
write transaction opens, so that the door (door.py) writes them without calling back into
the pipeline: the book, its chunks, its verified mentions and the reasons for those dropped,
its situating contexts, its relationship claims, the LLM cache keys its answers are stored
under and its file's stamp (index/ingest/unchanged.py)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from sqlite_utils import Database

from ..storage import llm_cache, store
from ..storage.book_genres import set_book_genres
from ..vectors.children import ChildRow
from . import derived


@dataclass(frozen=True)
class FileStamp:
    """The stored book's file as it was read: its size and modification time, and the title
    its reader gave it (the next ingest skips the file while they match). A folder (a doc
    set, a vault) has no size or time (it is read again each time): only its reader's title."""

    size: int | None
    mtime_ns: int | None
    read_title: str


@dataclass
class BookRows:
    """One book's rows (``store_rows``); ``parents`` and ``children`` are its chunks, the
    children the vectors are synced with after the commit."""

    title: str
    source: str
    sha256: str
    extractor: str
    pack: str
    model: str | None
    fmt: str
    parents: list
    children: list
    pages_without_text: tuple[int, ...] = ()
    partial: int = 0  # chunks stored without entities (--allow-partial)
    stamp: FileStamp | None = None
    cache_keys: dict[str, str] = field(default_factory=dict)
    mentions: dict[str, list] = field(default_factory=dict)  # parent chunk id -> its verified mentions
    drop_reasons: dict[str, int] = field(default_factory=dict)
    situating: dict[str, str] = field(default_factory=dict)  # parent chunk id -> its situating context
    claims: dict[str, list] = field(default_factory=dict)  # parent chunk id -> its relationship claims
    vetoes: list = field(default_factory=list)  # the candidates a rule dropped (core.models.Veto): `crossbook explain`
    dropped_relations: dict[str, int] = field(default_factory=dict)
    # the genre packs chosen for it (None: every genre), the signals that chose them, and how
    genres: tuple[str, ...] | None = None
    genre_signals: dict[str, list[str]] = field(default_factory=dict)
    genre_choice: str = ""


def store_file_stamp(db: Database, title: str, stamp: FileStamp | None) -> None:
    """Note the stamp of ``title``'s file (None: none, the next ingest reads the file)."""
    if stamp is None:
        db.execute("UPDATE books SET file_size = NULL, file_mtime_ns = NULL, read_title = NULL WHERE title = ?",
                   [title])
    else:
        db.execute("UPDATE books SET file_size = ?, file_mtime_ns = ?, read_title = ? WHERE title = ?",
                   [stamp.size, stamp.mtime_ns, stamp.read_title, title])


def store_rows(db: Database, rows: BookRows) -> tuple[int, int]:
    """Insert the book's rows (its old ones are gone: ``derived.replacing_book``); returns
    (situating contexts, relationship claims) stored."""
    store.insert_book(
        db, title=rows.title, path=rows.source, source=rows.source, sha256=rows.sha256, extractor=rows.extractor,
        pack=rows.pack, model=rows.model, fmt=rows.fmt, drop_reasons=rows.drop_reasons, parents=rows.parents,
        children=rows.children, pages_without_text=rows.pages_without_text,
    )
    store.set_book_partial(db, rows.title, rows.partial)
    store.insert_vetoes(db, rows.title, rows.vetoes)
    set_book_genres(db, rows.title, rows.genres, rows.genre_signals, rows.genre_choice)
    store_file_stamp(db, rows.title, rows.stamp)
    llm_cache.record_chunk_keys(db, rows.cache_keys)
    store.insert_mentions(db, rows.title, rows.mentions)
    situating = store.insert_situating_contexts(db, rows.situating)
    return situating, derived.store_book_claims(db, rows.title, rows.claims, rows.dropped_relations)


def child_rows_of(rows: BookRows) -> list[ChildRow]:
    """The book's children as SQLite will hold them once its rows are stored (``child_rows``
    reads these back after the commit): what their vectors are made from."""
    parents = {p.id: p for p in rows.parents}
    return [ChildRow(c.id, rows.title, c.parent_id, parents[c.parent_id].path_str, c.text,
                     hashlib.sha256(c.text.encode()).hexdigest(), rows.situating.get(c.parent_id))
            for c in rows.children]
