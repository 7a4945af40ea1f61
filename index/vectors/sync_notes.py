"""The SQLite side of the vectors: what the index records about them in ``crossbook_meta``.

The embedder and dimension the vectors are made with, their chunk context (a mismatch
raises EmbedderMismatch: ``crossbook reembed`` fixes both), the index id that names its
Chroma collections (``collection_name``), and per collection and book the digest of the
children its vectors were last synced with (``unsynced_books`` reads them from SQLite
alone; ``forget_synced`` drops them when a book's chunks change). No chromadb here.
"""

from __future__ import annotations

import hashlib
import uuid

from sqlite_utils import Database

from ..core.errors import CrossbookError
from ..storage import store
from .children import CHUNK_CONTEXT, KNOWN_CONTEXTS, LEGACY_CONTEXT, SITUATING_CONTEXT, ChildRow, children_digest
from .embed import Embedder, embedder_option

META_EMBEDDER = "embedder"
META_DIMENSION = "embedding_dimension"
META_INDEX_ID = "index_id"
META_CONTEXT = "chunk_context"
# + ":<collection>:<book>": the digest of the book's children its vectors were last synced with
META_SYNCED = "vectors_synced"
COLLECTION_PREFIX = "crossbook-"


class EmbedderMismatch(CrossbookError):
    """The index's vectors were made by another embedder than the one selected."""


def context_mismatch_message(recorded: str | None) -> str:
    return (f"index vectors were embedded with chunk context '{recorded or LEGACY_CONTEXT}', this crossbook"
            f" embeds '{CHUNK_CONTEXT}' or '{SITUATING_CONTEXT}'; run crossbook reembed")


def mismatch_message(recorded: str) -> str:
    option = embedder_option(recorded)
    hint = f"--embedder {option}"
    if option == "openai":
        hint += f" with CROSSBOOK_EMBEDDING_MODEL={recorded.split(':', 1)[1]}"
    return f"index was built with embedder {recorded}; use {hint} or run crossbook reembed"


def forget_synced(db: Database, title: str) -> None:
    """Drop SQLite's notes that a collection's vectors match ``title``'s children. Called in
    the transaction that replaces or deletes the book's chunks: a note left from before could
    match the book's children again later (the book deleted and added back, or changed back
    to that version) while Chroma holds other vectors, and ensure_book would then skip the
    sync that repairs a crash between SQLite's commit and Chroma's writes."""
    keys = [key for (key,) in db.execute("SELECT key FROM crossbook_meta WHERE key >= ? AND key < ?",
                                         [f"{META_SYNCED}:", f"{META_SYNCED};"])
            if key.split(":", 2)[2:] == [title]]  # META_SYNCED:<collection>:<title>
    for key in keys:
        db.execute("DELETE FROM crossbook_meta WHERE key = ?", [key])


def collection_name(index: str, embedder_id: str) -> str:
    """The Chroma collection of one index and one embedder."""
    digest = hashlib.sha256(embedder_id.encode()).hexdigest()[:10]
    return f"{COLLECTION_PREFIX}{index}-{digest}"


def unsynced_books(db: Database, books: tuple[str, ...] = ()) -> set[str] | None:
    """The books (of ``books``, or of the index) whose vectors SQLite does not note as
    matching their children (an ingest stopped between its SQLite commit and its
    embedding, or the vectors were lost), from SQLite alone; None when the index has no
    vectors and no child chunk that needs one."""
    recorded, index = recorded_embedder(db), store.get_meta(db, META_INDEX_ID)
    titles = f" IN ({','.join('?' * len(books))})" if books else " IS NOT NULL"
    if recorded is None or index is None:
        # no vector was ever written: an index with children whose first ingest stopped
        # before its first vector is missing every book's, not an index without vectors
        return {title for (title,) in db.execute(
            f"SELECT DISTINCT book FROM chunks WHERE kind = 'child' AND book{titles}", list(books))} or None
    prefix = f"{META_SYNCED}:{collection_name(index, recorded)}:"
    marks = {key[len(prefix):]: value for key, value in db.execute(
        "SELECT key, value FROM crossbook_meta WHERE substr(key, 1, ?) = ?", [len(prefix), prefix])}
    by_book: dict[str, list[ChildRow]] = {
        title: [] for (title,) in db.execute(f"SELECT title FROM books WHERE title{titles}", list(books))}
    sql = ("SELECT c.id, c.book, c.parent_id, c.heading_path, '', c.sha256, s.context FROM chunks c"
           f" LEFT JOIN situating_contexts s ON s.chunk_id = c.parent_id WHERE c.kind = 'child' AND c.book{titles}"
           " ORDER BY c.book, c.parent_id, c.ordinal")  # child_rows' order: the digest depends on it
    for row in db.execute(sql, list(books)):
        by_book.setdefault(row[1], []).append(ChildRow(*row))
    return {title for title, rows in by_book.items() if marks.get(title) != children_digest(rows)}


def recorded_embedder(db: Database) -> str | None:
    """The embedder id the index's vectors were made with (None before the first vector)."""
    return store.get_meta(db, META_EMBEDDER)


def chunk_context(db: Database) -> str:
    """The chunk context the index's children are embedded with: SITUATING_CONTEXT when
    some parent chunk has a situating context, else CHUNK_CONTEXT."""
    situated = db.execute("SELECT 1 FROM situating_contexts LIMIT 1").fetchone()
    return SITUATING_CONTEXT if situated else CHUNK_CONTEXT


def context_mismatch(db: Database) -> str | None:
    """The problem, when the index's vectors were made from another chunk context than
    this crossbook's (None when they match, or when there are no vectors yet)."""
    if recorded_embedder(db) is None:
        return None
    recorded = store.get_meta(db, META_CONTEXT)
    return None if recorded in KNOWN_CONTEXTS else context_mismatch_message(recorded)


def check_embedder(db: Database, embedder: Embedder) -> None:
    """Raise EmbedderMismatch when the index was built with another embedder, or with
    another chunk context (both are fixed by ``crossbook reembed``)."""
    recorded = recorded_embedder(db)
    if recorded is not None and recorded != embedder.id:
        raise EmbedderMismatch(mismatch_message(recorded))
    problem = context_mismatch(db)
    if problem is not None:
        raise EmbedderMismatch(problem)


def index_id(db: Database) -> str:
    """This index's id (made on first use): it names the index's Chroma collections."""
    value = store.get_meta(db, META_INDEX_ID)
    if value is None:
        with db.atomic():
            store.set_meta(db, META_INDEX_ID, uuid.uuid4().hex[:16])
        value = store.get_meta(db, META_INDEX_ID)
    return value
