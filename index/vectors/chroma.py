"""Child-chunk vectors in Chroma: the only module that imports chromadb.

Chroma is derived from SQLite and can be rebuilt from it. Each child chunk is one record:
id = the SQLite chunk id; metadata ``book``, ``parent_id``, ``heading_path`` and ``sha256``
(of the child text, so a vector left from an older version of the same section is found);
no documents (the text lives in SQLite). Embeddings are always computed by our Embedder
and passed explicitly: the collection is created with ``embedding_function=None``, so
Chroma never loads its default ONNX model (a download at first use).

A collection belongs to one index and one embedder: ``crossbook-<index id>-<embedder
hash>``. The index id lives in ``crossbook_meta``, so two indexes can share one Chroma
server; the embedder hash keeps vectors of two models apart, and lets ``reembed`` build the
new collection while the old one still serves queries.
"""

from __future__ import annotations

import hashlib
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

from sqlite_utils import Database

from ..core.config import Settings
from ..core.errors import ConfigError, CrossbookError
from ..storage import store
from .embed import Embedder, embed_all, embedder_for_id, embedder_option, get_embedder
from .embed import embedding_text as embed_text_of
from .store_copy import make_copy, remove_copy

ProgressFn = Callable[[str, int, int], None]

META_EMBEDDER = "embedder"
META_DIMENSION = "embedding_dimension"
META_INDEX_ID = "index_id"
META_CONTEXT = "chunk_context"
# What a child's vector is made from (``embedding_text``): "book-path" = "Book > Chapter >
# Section: text". Recorded in the index like the embedder, and in every vector's metadata,
# so vectors made another way are stale and ``reembed`` redoes them. An index that records
# an embedder but no chunk context predates it ("heading path, newline, text").
CHUNK_CONTEXT = "book-path"
LEGACY_CONTEXT = "heading-path"
# "book-path", and for a child whose parent has a situating context (the model's sentences
# about it, ``--extractor openai``: contextual embeddings) that context between the path and the text.
# Each vector's metadata says which of the two made it (and the context's hash), and the
# index records this variant once any vector uses a context: a crossbook that embeds only
# "book-path" then refuses the index until reembed, as for another embedder. An index with
# no situating context (the rules extractor's) keeps "book-path" and its vectors.
SITUATING_CONTEXT = "book-path+situating"
KNOWN_CONTEXTS = (CHUNK_CONTEXT, SITUATING_CONTEXT)
# + ":<collection>:<book>": the digest of the book's children its vectors were last synced with
META_SYNCED = "vectors_synced"
COLLECTION_PREFIX = "crossbook-"
# records per Chroma write; also the unit of progress and of what a crash can leave half done
WRITE_BATCH = 256


class EmbedderMismatch(CrossbookError):
    """The index's vectors were made by another embedder than the one selected."""


class VectorStoreError(CrossbookError):
    """Chroma could not be reached or refused an operation."""


def context_mismatch_message(recorded: str | None) -> str:
    return (f"index vectors were embedded with chunk context '{recorded or LEGACY_CONTEXT}', this crossbook"
            f" embeds '{CHUNK_CONTEXT}' or '{SITUATING_CONTEXT}'; run crossbook reembed")


def mismatch_message(recorded: str) -> str:
    option = embedder_option(recorded)
    hint = f"--embedder {option}"
    if option == "openai":
        hint += f" with CROSSBOOK_EMBEDDING_MODEL={recorded.split(':', 1)[1]}"
    return f"index was built with embedder {recorded}; use {hint} or run crossbook reembed"


@dataclass(frozen=True)
class ChildRow:
    """A child chunk as SQLite holds it: what a vector is made from and checked against."""

    id: str
    book: str
    parent_id: str
    heading_path: str
    text: str
    sha256: str
    situating: str | None = None     # the parent's situating context, if the model wrote one

    @property
    def metadata(self) -> dict:
        meta = {"book": self.book, "parent_id": self.parent_id,
                "heading_path": self.heading_path, "sha256": self.sha256, "context": CHUNK_CONTEXT}
        if self.situating:
            # a vector made before the context changed (or before it existed) is stale
            meta.update(context=SITUATING_CONTEXT, situating_sha256=_text_sha256(self.situating))
        return meta


def _text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def embedding_text(row: ChildRow) -> str:
    """What is embedded for a child: "Book > Chapter > Section: text", with the parent's
    situating context before the text when it has one (embed.embedding_text)."""
    return embed_text_of(row.heading_path, row.text, row.book, row.situating)


def children_digest(rows: list[ChildRow]) -> str:
    """One hash of the children's ids and vector metadata (what a sync compares), and of
    the chunk context their vectors are made with."""
    digest = hashlib.sha256(CHUNK_CONTEXT.encode())
    for row in rows:
        fields = [row.id, row.book, row.parent_id, row.heading_path, row.sha256]
        if row.situating:  # a row without one hashes as it did before situating contexts
            fields.append(_text_sha256(row.situating))
        digest.update("\x1f".join(fields).encode())
        digest.update(b"\x1e")
    return digest.hexdigest()


def child_rows(db: Database, book: str | None = None) -> list[ChildRow]:
    """Every child chunk in SQLite (of one book, or of the index), in book order, with its
    parent's situating context."""
    sql = ("SELECT c.id, c.book, c.parent_id, c.heading_path, c.text, c.sha256, s.context FROM chunks c"
           " LEFT JOIN situating_contexts s ON s.chunk_id = c.parent_id WHERE c.kind = 'child'"
           + (" AND c.book = ?" if book is not None else "") + " ORDER BY c.book, c.parent_id, c.ordinal")
    return [ChildRow(*row) for row in db.execute(sql, [book] if book is not None else [])]


@dataclass(frozen=True)
class VectorHit:
    child_id: str
    parent_id: str
    book: str
    heading_path: str
    similarity: float            # cosine similarity, 1 = same direction


@dataclass
class SyncReport:
    """What a sync changed: vectors embedded (missing or stale) and deleted (orphaned)."""

    embedded: int = 0
    deleted: int = 0
    missing: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    orphaned: list[str] = field(default_factory=list)


def diff(rows: list[ChildRow], stored: dict[str, dict]) -> SyncReport:
    """Compare SQLite's children with stored vector metadata (id -> metadata)."""
    report = SyncReport()
    wanted = {row.id: row for row in rows}
    for row in rows:
        meta = stored.get(row.id)
        if meta is None:
            report.missing.append(row.id)
        elif meta != row.metadata:
            report.stale.append(row.id)
    report.orphaned = [vid for vid in stored if vid not in wanted]
    return report


class VectorStore:
    """The Chroma collection of one index and one embedder. Use as a context manager.

    Chroma is opened (and chromadb imported, about a second) at the first use, so an
    ingest whose books are all unchanged never opens it; call :meth:`open` before a write
    to SQLite that Chroma must follow, so a Chroma that refuses fails it first.
    """

    def __init__(self, connect: Callable[[], object], embedder: Embedder, index_id: str, location: str,
                 on_close: Callable[[], None] | None = None):
        self._connect = connect
        self._client = None
        self._on_close = on_close
        self.embedder = embedder
        self.index_id = index_id
        self.location = location
        self._collection = None

    # -- plumbing ------------------------------------------------------------------------------

    def __enter__(self) -> "VectorStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        close = getattr(self._client, "close", None)
        if close is not None:
            close()
        if self._on_close is not None:  # a read-only index's temporary copy goes with its client
            self._on_close()

    @property
    def client(self):
        if self._client is None:
            self._client = self._connect()
        return self._client

    def open(self) -> None:
        """Open the collection now (raises VectorStoreError when Chroma refuses)."""
        self.collection

    def collection_name(self, embedder_id: str) -> str:
        return collection_name(self.index_id, embedder_id)

    @property
    def collection(self):
        if self._collection is None:
            self._collection = self._chroma(
                "open the collection", self.client.get_or_create_collection,
                name=self.collection_name(self.embedder.id),
                embedding_function=None,  # never Chroma's default: it downloads a model
                configuration={"hnsw": {"space": "cosine"}},
                metadata={"crossbook_index": self.index_id, "embedder": self.embedder.id},
            )
        return self._collection

    def find_collection(self) -> bool:
        """Whether this index's collection for the embedder exists, opening it when it does.
        Creates nothing: for read-only checks (doctor without --repair)."""
        if self._collection is None:
            name = self.collection_name(self.embedder.id)
            names = {c.name for c in self._chroma("list collections", self.client.list_collections)}
            if name not in names:
                return False
            self._collection = self._chroma("open the collection", self.client.get_collection, name,
                                            embedding_function=None)
        return True

    def _chroma(self, what: str, call, *args, **kwargs):
        try:
            return call(*args, **kwargs)
        except CrossbookError:
            raise
        except Exception as exc:  # chromadb raises many types (HTTP, Rust bindings, ValueError)
            raise VectorStoreError(
                f"Chroma at {self.location} could not {what}: {type(exc).__name__}: {exc}"
                " (run crossbook doctor once it is reachable)"
            ) from None

    def stored(self, book: str | None = None) -> dict[str, dict]:
        """id -> metadata of the stored vectors (of one book, or all), read in pages."""
        out: dict[str, dict] = {}
        where = {"book": book} if book is not None else None
        offset = 0
        while True:
            page = self._chroma("read vectors", self.collection.get, where=where,
                                include=["metadatas"], limit=5000, offset=offset)
            out.update(zip(page["ids"], page["metadatas"]))
            if len(page["ids"]) < 5000:
                return out
            offset += len(page["ids"])

    def count(self) -> int:
        return self._chroma("count vectors", self.collection.count)

    # -- writes --------------------------------------------------------------------------------

    def record_embedder(self, db: Database, dimension: int) -> None:
        """Note in SQLite which embedder (and dimension) the index's vectors are made with,
        and their chunk context (SQLite commits first: its situating contexts are those the
        vectors being written use)."""
        context = chunk_context(db)
        if store.get_meta(db, META_EMBEDDER) != self.embedder.id or \
                store.get_meta(db, META_DIMENSION) != str(dimension) or \
                store.get_meta(db, META_CONTEXT) != context:
            with db.atomic():
                store.set_meta(db, META_EMBEDDER, self.embedder.id)
                store.set_meta(db, META_DIMENSION, str(dimension))
                store.set_meta(db, META_CONTEXT, context)

    def write(self, db: Database, rows: list[ChildRow], progress: ProgressFn | None = None,
              record: bool = True) -> int:
        """Embed ``rows`` and upsert them, a batch at a time; returns how many.

        ``record=False`` (reembed) leaves the index's recorded embedder alone: the switch
        is recorded once the new collection is complete.
        """
        for start in range(0, len(rows), WRITE_BATCH):
            batch = rows[start:start + WRITE_BATCH]
            vectors = embed_all(self.embedder, [embedding_text(r) for r in batch])
            self._chroma(
                "write vectors", self.collection.upsert,
                ids=[r.id for r in batch], embeddings=vectors, metadatas=[r.metadata for r in batch],
            )
            if start == 0 and record:
                self.record_embedder(db, len(vectors[0]))
            if progress is not None:
                progress("embed", start + len(batch), len(rows))
        return len(rows)

    def stored_dimension(self) -> int | None:
        """The dimension of the vectors in the collection (None when it is empty)."""
        page = self._chroma("read a vector", self.collection.get, limit=1, include=["embeddings"])
        embeddings = page.get("embeddings")
        if embeddings is None or len(embeddings) == 0:
            return None
        return len(embeddings[0])

    def delete_ids(self, ids: list[str]) -> int:
        for start in range(0, len(ids), WRITE_BATCH):
            self._chroma("delete vectors", self.collection.delete, ids=ids[start:start + WRITE_BATCH])
        return len(ids)

    def sync(self, db: Database, book: str | None = None, progress: ProgressFn | None = None,
             record: bool = True, rows: list[ChildRow] | None = None) -> SyncReport:
        """Make the vectors of one book (or of the whole index) equal to the children in
        SQLite (``rows``: already read): embed the missing and stale ones, delete the
        orphaned ones. Children whose vector is current are not re-embedded."""
        rows = child_rows(db, book) if rows is None else rows
        report = diff(rows, self.stored(book))
        todo = set(report.missing) | set(report.stale)
        report.embedded = self.write(db, [r for r in rows if r.id in todo], progress, record)
        report.deleted = self.delete_ids(report.orphaned)
        return report

    # -- the pipeline's interface (index/ingest/pipeline.py) -------------------------------------------

    def replace_book(self, db: Database, title: str, children: list, progress: ProgressFn | None = None) -> SyncReport:
        """After the book's SQLite transaction committed: bring its vectors in line.

        ``children`` are the chunks just written; the rows are re-read from SQLite so the
        vectors follow the source of truth exactly (ids, section paths, text hashes).
        """
        return self.sync_and_mark(db, title, progress)

    def ensure_book(self, db: Database, title: str) -> SyncReport:
        """For an unchanged book: repair its vectors if they drifted (e.g. a crash after
        SQLite committed). A no-op without opening Chroma when SQLite notes that this
        collection was synced with exactly the book's current children."""
        rows = child_rows(db, title)
        if store.get_meta(db, self.synced_key(title)) == children_digest(rows):
            return SyncReport()
        return self.sync_and_mark(db, title, rows=rows)

    def synced_key(self, title: str) -> str:
        return f"{META_SYNCED}:{self.collection_name(self.embedder.id)}:{title}"

    def sync_and_mark(self, db: Database, title: str, progress: ProgressFn | None = None,
                      rows: list[ChildRow] | None = None) -> SyncReport:
        """sync() one book, then note in SQLite the children its vectors now match. The note
        is written after Chroma, so a crash in between leaves an old note, which no longer
        matches the children, and the next ensure_book() syncs again."""
        rows = child_rows(db, title) if rows is None else rows
        report = self.sync(db, title, progress, rows=rows)
        with db.atomic():
            store.set_meta(db, self.synced_key(title), children_digest(rows))
        return report

    def mark_all(self, db: Database) -> None:
        """Note every book as synced with this collection (after a sync of the whole index)."""
        by_book: dict[str, list[ChildRow]] = {title: [] for (title,) in db.execute("SELECT title FROM books")}
        for row in child_rows(db):
            by_book.setdefault(row.book, []).append(row)
        with db.atomic():
            for title, rows in by_book.items():
                store.set_meta(db, self.synced_key(title), children_digest(rows))

    def delete_book(self, title: str) -> None:
        """Remove every vector of the book, from this index's collections of every embedder
        (so delete-book is complete whichever --embedder it ran with)."""
        self._chroma("delete vectors", self.collection.delete, where={"book": title})
        for name in self.other_collections():
            other = self._chroma("open a collection", self.client.get_collection, name, embedding_function=None)
            self._chroma("delete vectors", other.delete, where={"book": title})

    # -- queries -------------------------------------------------------------------------------

    def query(self, texts: list[str], k: int, books: tuple[str, ...] = (),
              embeddings: list[list[float]] | None = None) -> list[list[VectorHit]]:
        """The ``k`` nearest child chunks for each text, optionally only in ``books``
        (``embeddings``, when given, are the texts' vectors, already computed)."""
        if not texts or k < 1:
            return [[] for _ in texts]
        where = None
        if len(books) == 1:
            where = {"book": books[0]}
        elif books:
            where = {"book": {"$in": list(books)}}
        if embeddings is None:
            embeddings = self.embedder.embed(texts)
        result = self._chroma(
            "query vectors", self.collection.query,
            query_embeddings=embeddings, n_results=k, where=where, include=["metadatas", "distances"],
        )
        out = []
        for ids, metas, distances in zip(result["ids"], result["metadatas"], result["distances"]):
            # a vector whose record another process deleted meanwhile has no metadata: not a hit
            out.append([
                VectorHit(vid, meta["parent_id"], meta["book"], meta["heading_path"], 1.0 - dist)
                for vid, meta, dist in zip(ids, metas, distances) if meta
            ])
        return out

    def similarities(self, query_vector: list[float], child_ids: list[str]) -> dict[str, float]:
        """Cosine similarity of ``query_vector`` to the stored vectors of ``child_ids``
        (ids with no vector are left out). Vectors are unit length: a dot product."""
        if not child_ids:
            return {}
        import numpy  # chromadb's own dependency

        page = self._chroma("read vectors", self.collection.get, ids=list(child_ids), include=["embeddings"])
        if len(page["ids"]) == 0:
            return {}
        products = numpy.asarray(page["embeddings"], dtype=float) @ numpy.asarray(query_vector, dtype=float)
        return {vid: float(p) for vid, p in zip(page["ids"], products)}

    # -- other collections of this index (other embedders) --------------------------------------

    def other_collections(self) -> list[str]:
        """Collections of this index made with another embedder (left by a switch or an
        interrupted reembed)."""
        mine = self.collection_name(self.embedder.id)
        prefix = f"{COLLECTION_PREFIX}{self.index_id}-"
        names = [c.name for c in self._chroma("list collections", self.client.list_collections)]
        return sorted(n for n in names if n.startswith(prefix) and n != mine)

    def drop_collection(self, db: Database, name: str) -> None:
        """Delete a collection of this index, and SQLite's notes of which books it holds in
        sync (a collection made again under that name starts empty)."""
        with db.atomic():
            # the note first: a crash after it only costs a full sync of unchanged books
            db.execute("DELETE FROM crossbook_meta WHERE key >= ? AND key < ?",
                       [f"{META_SYNCED}:{name}:", f"{META_SYNCED}:{name};"])
        self._chroma("delete a collection", self.client.delete_collection, name)
        if name == self.collection_name(self.embedder.id):
            self._collection = None


# -- opening -----------------------------------------------------------------------------------

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


def import_chromadb():
    """``import chromadb``, about a quarter faster: its 200 ``@override`` decorators each
    disassemble the class body and compare signatures with the base class at import time
    (the ``overrides`` package), a check for chromadb's developers. While chromadb imports,
    they only mark the method as an override (what ``EnforceOverrides`` looks for)."""
    if "chromadb" in sys.modules:
        return sys.modules["chromadb"]
    import overrides

    def mark_override(method=None, **options):
        if method is None:
            return mark_override
        method.__override__ = True
        return method

    saved = overrides.override, overrides.overrides
    overrides.override = overrides.overrides = mark_override
    try:
        import chromadb
    finally:
        overrides.override, overrides.overrides = saved
    return chromadb


def chroma_location(settings: Settings) -> str:
    """Where the vectors live: the server URL, else the store's directory under the index."""
    return settings.chroma_url or str(settings.index_dir / "chroma")


def chroma_client(settings: Settings, copies: list[Path] | None = None, *, copy: bool = False):
    """An HttpClient for ``settings.chroma_url``, else a PersistentClient under the index.

    Returns (client, location). A read-only store, or any store with ``copy=True`` (a
    read-only shelf: Chroma writes to a store it queries), is opened as a temporary copy
    (index/vectors/store_copy.py), whose directory is appended to ``copies`` (the caller
    removes it with remove_copy). Raises ConfigError for a malformed URL and
    VectorStoreError when the server cannot be reached.
    """
    chromadb = import_chromadb()
    from chromadb.config import Settings as ChromaSettings

    # telemetry would try the network from a background thread
    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    if not settings.chroma_url:
        path = settings.index_dir / "chroma"
        try:
            if not copy:  # a read-only shelf never opens the store itself, nor makes one
                return chromadb.PersistentClient(path=str(path), settings=chroma_settings), str(path)
        except Exception as exc:
            if not (_refused_as_read_only(exc) and path.is_dir()):
                raise VectorStoreError(f"cannot open the Chroma store at {path}: {exc}") from None
        # a read-only index (a shared or archived copy): Chroma writes to its store when it
        # opens it, so queries read a temporary copy (removed at exit); SQLite is opened
        # read-only (index/storage/db.py) and a command that writes fails there first
        try:
            copied = make_copy(path)
            if copies is not None:
                copies.append(copied.parent)
            return chromadb.PersistentClient(path=str(copied), settings=chroma_settings), str(path)
        except Exception as exc:
            raise VectorStoreError(f"cannot open the read-only Chroma store at {path}: {exc}") from None
    url = settings.chroma_url if "://" in settings.chroma_url else f"http://{settings.chroma_url}"
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = -1
    if parts.scheme not in ("http", "https") or not parts.hostname or port == -1:
        raise ConfigError(f"--chroma-url '{settings.chroma_url}' is not an http(s)://host:port URL")
    ssl = parts.scheme == "https"
    try:
        client = chromadb.HttpClient(
            host=parts.hostname, port=port or (443 if ssl else 8000), ssl=ssl, settings=chroma_settings
        )
        client.heartbeat()
    except Exception as exc:
        raise VectorStoreError(
            f"cannot reach Chroma at {settings.chroma_url} ({type(exc).__name__}); start it"
            " (chroma run --path DIR) or drop --chroma-url to use the embedded store"
        ) from None
    return client, settings.chroma_url


def _refused_as_read_only(exc: Exception) -> bool:
    text = str(exc).lower()
    return "readonly" in text or "read-only" in text or "read only" in text or isinstance(exc, PermissionError)


def check_chroma_server(settings: Settings) -> None:
    """With ``--chroma-url``: check the URL and that the server answers, so a command can
    fail before it creates or touches the index. Nothing to check for the embedded store."""
    if settings.chroma_url:
        client, _ = chroma_client(settings)
        close = getattr(client, "close", None)
        if close is not None:
            close()


def open_vectors(
    settings: Settings, db: Database, *, check: bool = True, embedder: Embedder | None = None,
    warm: bool = False, lazy: bool = False, copy: bool = False,
) -> VectorStore:
    """The index's vector store.

    The embedder is ``embedder``, else the one ``settings.embedder`` selects, else (none
    selected) the one the index records, else ``local``. ``check=True`` raises
    EmbedderMismatch when a selected embedder differs from the recorded one (doctor,
    reembed and delete-book pass False). Raises VectorStoreError when Chroma cannot be
    opened; nothing is written to SQLite but the index id. ``warm=True`` (a query is
    coming) loads the embedder's model in a thread while chromadb is imported.
    ``lazy=True`` opens Chroma at its first use (the caller calls ``open()`` before it
    writes SQLite), so a command with nothing to embed never imports chromadb.
    ``copy=True`` (a read-only shelf) queries a temporary copy of the store, made once.
    """
    recorded = recorded_embedder(db)
    if embedder is None:
        if settings.embedder is None and recorded is not None:
            embedder = embedder_for_id(recorded, settings)
        else:
            embedder = get_embedder(settings)
    if check:
        check_embedder(db, embedder)
    copies: list[Path] = []
    vectors = VectorStore(lambda: chroma_client(settings, copies, copy=copy)[0], embedder, index_id(db),
                          chroma_location(settings), on_close=lambda: [remove_copy(c) for c in copies])
    if warm and hasattr(embedder, "start_warming"):
        embedder.start_warming()  # the model loads in a thread while open() imports chromadb
    if not lazy:
        vectors.open()  # fail here, before a command writes SQLite, if Chroma refuses
    return vectors
