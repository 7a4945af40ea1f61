"""Child-chunk vectors in Chroma: ``VectorStore``, one index's collection for one embedder.

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

Opening Chroma (the only chromadb import): ``chroma_client.py``; the child chunks a sync
compares with the stored vectors: ``children.py``; what SQLite records about the vectors
(embedder, chunk context, index id, which books are synced): ``sync_notes.py``.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from sqlite_utils import Database

from ..core.config import Settings
from ..core.errors import CrossbookError
from ..storage import store
from .ahead import EmbeddedAhead, beside
from .children import ChildRow, SyncReport, child_rows, children_digest, diff, embedding_text
from .chroma_client import VectorStoreError, chroma_client, chroma_location
from .embed import Embedder, embed_all, embedder_for_id, get_embedder
from .store_copy import remove_copy
from .sync_notes import (
    COLLECTION_PREFIX,
    META_CONTEXT,
    META_DIMENSION,
    META_EMBEDDER,
    META_SYNCED,
    check_embedder,
    chunk_context,
    collection_name,
    index_id,
    recorded_embedder,
)

ProgressFn = Callable[[str, int, int], None]
# records per Chroma write; also the unit of progress and of what a crash can leave half done
WRITE_BATCH = 256


@dataclass(frozen=True)
class VectorHit:
    child_id: str
    parent_id: str
    book: str
    heading_path: str
    similarity: float            # cosine similarity, 1 = same direction


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
        self.ahead: EmbeddedAhead | None = None  # a book's vectors being computed beside its write
        # one Chroma call at a time: a run's vectors are stored by a thread (changes/behind.py)
        self._calls = threading.RLock()

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
            with self._calls:
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

    def write(self, db: Database | None, rows: list[ChildRow], progress: ProgressFn | None = None,
              record: bool = True, embedder: Embedder | None = None) -> int:
        """Embed ``rows`` and upsert them, a batch at a time; returns how many.

        Longest texts first (batches of like length pad little; the order is nothing to a
        crash: a sync embeds what is missing, whatever it is); a text several rows share is
        embedded once; a vector computed ahead (``embed_ahead``) is taken, not computed again.
        ``record=False`` (reembed) leaves the index's recorded embedder alone: the switch
        is recorded once the new collection is complete. ``embedder``: the store's embedder
        in another form (the same vectors: ``beside``, or one that chooses at each call).
        """
        if self.ahead is not None:
            self.ahead.stop()  # SQLite has committed: the rest is embedded on every core
        texts = {r.id: embedding_text(r) for r in rows}
        rows = sorted(rows, key=lambda r: len(texts[r.id]), reverse=True)
        shared = {text for text, n in Counter(texts.values()).items() if n > 1}
        kept: dict[str, list[float]] = {}  # the vectors of texts rows share, for their later batches
        for start in range(0, len(rows), WRITE_BATCH):
            batch = rows[start:start + WRITE_BATCH]
            vectors = self._vectors([texts[r.id] for r in batch], shared, kept, embedder or self.embedder)
            self._chroma(
                "write vectors", self.collection.upsert,
                ids=[r.id for r in batch], embeddings=vectors, metadatas=[r.metadata for r in batch],
            )
            if start == 0 and record:
                self.record_embedder(db, len(vectors[0]))
            if progress is not None:
                progress("embed", start + len(batch), len(rows))
        return len(rows)

    def _vectors(self, texts: list[str], shared: set[str], kept: dict[str, list[float]],
                 embedder: Embedder) -> list[list[float]]:
        """One vector per text: kept from an earlier batch, computed ahead, or embedded now (each
        distinct text once)."""
        found = {t: kept[t] for t in texts if t in kept}
        todo = [t for t in dict.fromkeys(texts) if t not in found]
        if todo and self.ahead is not None:
            found.update(self.ahead.take(todo))
            todo = [t for t in todo if t not in found]
        if todo:
            found.update(zip(todo, embed_all(embedder, todo)))
        kept.update((t, v) for t, v in found.items() if t in shared)
        return [found[t] for t in texts]

    def embed_ahead(self, rows: list[ChildRow]) -> None:
        """Start computing, in a thread, the vectors of those of ``rows`` (one book's children,
        about to be written) that are not stored as they are: the sync after the commit takes
        them (ahead.py). Only for an embedder that computes outside the GIL (``beside``)."""
        embedder = beside(self.embedder) if rows else None
        if embedder is None:
            return
        stored = self.stored(rows[0].book)
        texts = [embedding_text(r) for r in rows if stored.get(r.id) != r.metadata]
        if texts:
            self.ahead = EmbeddedAhead(embedder, texts).start()

    def drop_ahead(self) -> None:
        """Forget the vectors computed ahead (the book is written, or its write failed)."""
        if self.ahead is not None:
            self.ahead.stop()
            self.ahead = None

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

    def sync_rows(self, title: str, rows: list[ChildRow], progress: ProgressFn | None = None,
                  embedder: Embedder | None = None) -> SyncReport:
        """``sync`` of one book's ``rows`` (read from SQLite once its write committed) that
        touches Chroma only, not SQLite: a thread may run it while another transaction is
        open (changes/behind.py). The caller then records the embedder and notes the book
        synced (``note_synced``), on its own connection, in that order."""
        report = diff(rows, self.stored(title))
        todo = set(report.missing) | set(report.stale)
        report.embedded = self.write(None, [r for r in rows if r.id in todo], progress, False, embedder)
        report.deleted = self.delete_ids(report.orphaned)
        return report

    def written_dimension(self, report: SyncReport) -> int | None:
        """The dimension of the vectors a ``sync_rows`` wrote (None when it wrote none)."""
        return self.stored_dimension() if report.embedded else None

    def note_synced(self, db: Database, title: str, rows: list[ChildRow], dimension: int | None) -> None:
        """After ``sync_rows``: the embedder recorded (``dimension``: of a vector it wrote;
        None when it wrote none), then the children the book's vectors now match."""
        if dimension is not None:
            self.record_embedder(db, dimension)
        with db.atomic():
            store.set_meta(db, self.synced_key(title), children_digest(rows))

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
