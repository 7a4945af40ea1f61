"""A shelf (one index) opened from Python: the queries and writes the CLI runs, returning
typed results whose ``to_dict()`` is the CLI's ``--json`` document.

SQLite is opened at the first call; Chroma and the embedder only by ``search``,
``retrieve``, ``ingest`` and ``delete_book`` (a ``where_else`` never imports chromadb).
Errors are :class:`crossbook.core.errors.CrossbookError` subclasses; ``exc.code`` is the
code of the CLI's JSON error (``entity_not_found``, ``book_not_found``...).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterable

from sqlite_utils import Database

from ..core.config import Settings
from ..core.models import BookInfo, IngestResult
from ..core.steps import EventFn
from .fresh import ThreadConnections, VectorCache, state
from .results import (
    Deleted,
    EntityDetail,
    EntityList,
    Explanation,
    Passages,
    Rebuilt,
    Reembedded,
    Relationships,
    Reviewed,
    Sections,
    WhereElse,
)

WarnFn = Callable[[str], None]
ProgressFn = Callable[[str, int, int], None]


class Shelf:
    """One crossbook index. ``Shelf("path/to/index")``, or ``Shelf(settings=...)``; more
    Settings fields as keywords (``embedder="hash"``). ``read_only=True`` opens SQLite
    read-only (``mode=ro``) whatever the file modes, queries a temporary copy of the vector
    store (Chroma writes to a store it queries), and refuses ``ingest``/``delete_book``.
    Use it as a context manager, or call :meth:`close`.

    A shelf may be left open while other processes change the index, and queried from
    several threads at once: each thread reads through its own SQLite connection, and the
    vector store is reopened when the index moved (index/api/fresh.py)."""

    def __init__(self, index_dir: str | Path | None = None, *, settings: Settings | None = None,
                 read_only: bool = False, **fields):
        if settings is None:
            settings = Settings(index_dir=Path(index_dir or ".crossbook"), **fields)
        else:
            settings = replace(settings, **fields, **({"index_dir": Path(index_dir)} if index_dir else {}))
        self.settings = settings
        self.read_only = read_only
        self._connections = ThreadConnections()
        self._vectors = VectorCache()

    def __enter__(self) -> "Shelf":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Close the vector store (and its temporary copy) and every thread's SQLite connection."""
        self._vectors.close()
        self._connections.close()

    @property
    def db(self) -> Database:
        """The index's SQLite database, for reads: a connection of this thread's own (WAL
        lets it read while another connection writes). Raises IndexMissing, NotAnIndex."""
        return self._connections.get(self._open_db)

    def _open_db(self) -> Database:
        from ..storage.db import open_db, open_read_only

        index_dir = self.settings.index_dir
        return open_read_only(index_dir) if self.read_only else open_db(index_dir)

    def _open_vectors(self):
        from ..vectors.chroma import open_vectors

        return open_vectors(self.settings, self.db, warm=True, copy=self.read_only)

    # -- queries ---------------------------------------------------------------------------------

    def where_else(self, name: str, *, books: Iterable[str] = (), exclude_books: Iterable[str] = (),
                   entity_type: str | None = None, defines_only: bool = False, limit: int | None = None) -> WhereElse:
        """Every mention of the entity ``name`` (a name or alias, any case) across books,
        definitions first. Books are named as ``--book`` takes them. Raises
        EntityNotFound (with ``suggestions``), BookNotFound, BadInput."""
        from ..query.lookup import where_else

        return WhereElse(where_else(self.db, name, books=tuple(books), exclude_books=tuple(exclude_books),
                                    entity_type=entity_type, defines_only=defines_only, limit=limit))

    def entity(self, name: str) -> EntityDetail:
        """One entity: its type, where it is defined, references per book, relationships."""
        from ..query.lookup import entity_detail

        return EntityDetail(entity_detail(self.db, name))

    def explain(self, name: str, *, books: Iterable[str] = ()) -> Explanation:
        """Which rule stored each mention of ``name``, and which rules vetoed the headings,
        entries and guesses that could have defined it, in ``books`` (every book when none).
        Raises EntityNotFound when the index neither stores nor vetoed the name."""
        from ..query.explain import explain

        titles = self._searched(books, ())
        return Explanation(explain(self.db, name, list(titles) or None))

    def books(self) -> list[BookInfo]:
        """The books in the index, with their counts and how they were ingested."""
        from ..query.lookup import list_books

        return list_books(self.db)

    def entities(self, *, entity_type: str | None = None, books: Iterable[str] = (),
                 exclude_books: Iterable[str] = ()) -> EntityList:
        """The entities, with their type, the books that define them and how often they
        are mentioned, counted in the books given (every book but the excluded ones)."""
        from ..query.lookup import list_entities

        searched = self._searched(books, exclude_books)
        if searched is None:
            return EntityList({"count": 0, "by_type": {}, "entities": []})
        return EntityList(list_entities(self.db, entity_type=entity_type, books=searched))

    def _searched(self, books: Iterable[str], exclude_books: Iterable[str]) -> tuple[str, ...] | None:
        from ..query.naming import books_left

        return books_left(self.db, tuple(books), tuple(exclude_books))

    def search(self, text: str, k: int = 10, *, books: Iterable[str] = (), exclude_books: Iterable[str] = (),
               progress: ProgressFn | None = None, warn: WarnFn | None = None) -> Passages:
        """Plain vector search: the ``k`` sections nearest to ``text``. Raises
        VectorsMissing when nothing is found in a book whose vectors are missing; when
        something is, ``warn`` gets the message that names the fix. ``progress(phase,
        done, total)`` hears a local model's load (``"loading model"``)."""
        from ..query.search import search

        searched = self._searched(books, exclude_books)
        if searched is None:
            return Passages({"query": text, "k": k, "results": []})
        passages = self._vector_query(searched, lambda vectors: search(vectors, self.db, text, k=k, books=searched),
                                      len, progress, warn)
        return Passages({"query": text, "k": k, "results": passages})

    def retrieve(self, question: str, hops: int = 2, k: int = 10, *, books: Iterable[str] = (),
                 exclude_books: Iterable[str] = (), progress: ProgressFn | None = None,
                 warn: WarnFn | None = None) -> Passages:
        """Multi-hop retrieval: vector search, then the entities it found into other books.
        ``progress`` and ``warn`` as for :meth:`search`."""
        from ..query.retrieve import retrieve

        searched = self._searched(books, exclude_books)
        if searched is None:
            return Passages({"question": question, "hops": hops, "k": k, "results": []})
        result = self._vector_query(
            searched, lambda vectors: retrieve(vectors, self.db, question, hops=hops, k=k, books=searched),
            lambda found: len(found["results"]), progress, warn)
        return Passages(result)

    def _vector_query(self, searched: tuple[str, ...], run: Callable, count: Callable,
                      progress: ProgressFn | None, warn: WarnFn | None):
        """``run(vectors)``, a model load shown on ``progress``; then the searched books'
        vectors checked for the ``count(result)`` passages found (a warning, or VectorsMissing)."""
        from ..query.coverage import check_vectors

        with self._vectors.use(state(self.db), self._open_vectors) as vectors:
            embedder = vectors.embedder
            if progress is not None:
                from ..vectors.model_load import ModelLoadReporter

                vectors.embedder = ModelLoadReporter(embedder, progress)
            try:
                result = run(vectors)
            finally:
                vectors.embedder = embedder  # the store outlives this call; the next may report elsewhere
        missing, message = check_vectors(self.db, searched, count(result), self.writer)
        if missing and warn is not None:
            warn(message)
        return result

    def writer(self) -> dict | None:
        """The writer at work on the index now (its ``pid``, ``command``, ``since``, as far as
        known), or None: books missing vectors while an ingest runs are not broken, only not
        done yet."""
        from ..storage.lock import writer_running

        return writer_running(self.settings.index_dir)

    def show(self, chunk_id: str | None = None, *, book: str | None = None, page: int | None = None,
             heading_path: str | None = None) -> Sections:
        """The section a ``chunk_id`` (from where_else, search, retrieve) points to, or
        ``book``'s sections on ``page`` or at ``heading_path``. Raises SectionNotFound,
        BookNotFound, BadInput."""
        from ..core.errors import BadInput
        from ..query.show import show_target

        if (chunk_id is None) == (book is None):
            raise BadInput("give a chunk_id, or a book with a page or a heading path")
        target = book if book is not None else chunk_id
        if book is not None and page is None and heading_path is None:
            raise BadInput(f"name a section of '{book}': give page= or heading_path=")
        return Sections({"sections": show_target(self.db, target, heading_path=heading_path, page=page)})

    def relations(self, *, relation_type: str | None = None, status: str | None = None, book: str | None = None,
                  exclude_books: Iterable[str] = (), review_state: str | None = None,
                  source: str | None = None) -> Relationships:
        """Typed relationships between entities, with evidence, status and review state
        (``review_state="suggested"``: the ones ``crossbook review`` lists). ``relation_type``
        picks a type and its mirror, read as the name given reads; ``source`` (an entity's name)
        the relationships it is an end of, read from its side: ``relation_type="member_of",
        source="frob"`` answers which options frob takes. Raises EntityNotFound for a source
        the index does not hold (with the names it may mean)."""
        from ..query.naming import resolve_book, resolve_books
        from ..query.review import list_relationships

        return Relationships(list_relationships(
            self.db, relation_type=relation_type, status=status, book=resolve_book(self.db, book) if book else None,
            exclude_books=resolve_books(self.db, tuple(exclude_books), "--exclude-book"), review_state=review_state,
            source=source))

    # -- writes (under the index's writer lock) --------------------------------------------------

    def _check_writable(self) -> None:
        if self.read_only:
            from ..core.errors import IndexReadOnly

            raise IndexReadOnly("this shelf was opened read-only: open it without read_only=True to write")

    def ingest(self, paths: Iterable[str | Path], *, title: str | None = None, force: bool = False,
               as_book: bool = False, fmt: str | None = None, warn: WarnFn | None = None,
               on_wait: WarnFn | None = None, command: str = "api ingest",
               roots: Iterable[str | Path] | None = None, max_file_bytes: int | None = None) -> list[IngestResult]:
        """Ingest books (files, vaults, directories) as ``crossbook ingest`` does, under the
        writer lock (``on_wait`` hears a note when another writer holds it). With ``roots``
        (folders), only regular files and folders inside them, not hidden, each file at most
        ``max_file_bytes``, are read, a relative path inside the roots (index/api/confine.py:
        raises PathNotAllowed). Raises BadInput (nothing written), IndexBusy, ChunksFailed."""
        from .writing import ingest

        self._check_writable()
        paths = [Path(p) for p in paths]
        if roots is not None:
            from .confine import MAX_FILE_BYTES, check_paths, resolve_roots

            paths = check_paths(paths, resolve_roots(roots), max_file_bytes=max_file_bytes or MAX_FILE_BYTES)
        results = ingest(self.settings, paths, title=title, force=force, as_book=as_book,
                         fmt=fmt, warn=warn, on_wait=on_wait, command=command)
        self._drop_vectors()
        return results

    def delete_book(self, book: str, *, on_wait: WarnFn | None = None, command: str = "api delete-book") -> Deleted:
        """Remove a book (named as ``--book`` takes it) and everything derived from it."""
        from .writing import delete_book

        hooks = self._hooks(None, None, None, on_wait, command)
        result = delete_book(self.settings, book, hooks)
        self._drop_vectors()
        return Deleted(result)

    def _hooks(self, progress, events, warn, on_wait, command: str):
        """Where a write reports (api/writing.py's ``Hooks``), once the shelf is found writable."""
        from .writing import Hooks

        self._check_writable()
        return Hooks(progress, events, warn, on_wait, command)

    def ingest_books(self, books: list, *, force: bool = False, batch: bool = False, wait: bool = True,
                     progress: ProgressFn | None = None, events: EventFn | None = None, warn: WarnFn | None = None,
                     on_wait: WarnFn | None = None, command: str = "api ingest"):
        """:meth:`ingest` for books already read (``crossbook.ingest.pipeline.load_books``),
        or to be read one at a time as each is written (``crossbook.ingest.streamed.StreamedBooks``;
        not with ``batch``), as ``crossbook ingest`` runs it. ``batch``: through the OpenAI Batch API (``wait``:
        until it ends), returning its ``BatchIngest`` (``results`` None: submitted only).
        ``progress(phase, done, total)``, ``events`` (``--events`` records), ``warn`` and
        ``on_wait`` (a note while another writer holds the index) hear the write."""
        from .writing import ingest_batch, ingest_books

        hooks = self._hooks(progress, events, warn, on_wait, command)
        try:
            if batch:
                return ingest_batch(self.settings, books, force=force, wait=wait, hooks=hooks)
            return ingest_books(self.settings, books, force=force, hooks=hooks)
        finally:
            self._drop_vectors()

    def rebuild(self, manifest: str | Path, *, progress: ProgressFn | None = None, events: EventFn | None = None,
                warn: WarnFn | None = None, on_wait: WarnFn | None = None, command: str = "api rebuild") -> Rebuilt:
        """Reconcile the index with a manifest (a crossbook.toml's ``[[books]]``): add,
        update, delete and skip unchanged books; a book that fails keeps its previous
        version and is listed in ``failed``. Callbacks as for :meth:`ingest_books`."""
        from .writing import rebuild

        hooks = self._hooks(progress, events, warn, on_wait, command)
        try:
            return Rebuilt(rebuild(self.settings, Path(manifest), hooks))
        finally:
            self._drop_vectors()

    def reembed(self, *, progress: ProgressFn | None = None, on_wait: WarnFn | None = None,
                command: str = "api reembed") -> Reembedded:
        """Embed every child chunk again with the settings' embedder and switch the index to it."""
        from .writing import reembed

        hooks = self._hooks(progress, None, None, on_wait, command)
        try:
            return Reembedded(reembed(self.settings, hooks))
        finally:
            self._drop_vectors()

    def doctor(self):
        """The drift between SQLite and the vectors, as ``crossbook doctor`` reports it
        (a ``DoctorReport``: ``ok``, ``missing``, ``stale``... ``to_dict()``); writes nothing."""
        from .writing import doctor

        return doctor(self.settings)

    def repair(self, *, progress: ProgressFn | None = None, on_wait: WarnFn | None = None,
               command: str = "api doctor --repair"):
        """``crossbook doctor --repair``: the vectors fixed from SQLite (the source of truth),
        then checked again; returns the ``DoctorReport`` with ``repaired`` filled in."""
        from .writing import doctor

        hooks = self._hooks(progress, None, None, on_wait, command)
        try:
            return doctor(self.settings, repair=True, hooks=hooks)
        finally:
            self._drop_vectors()

    def review(self, relationship_id: int, action: str, *, relation_type: str | None = None, flip: bool = False,
               on_wait: WarnFn | None = None, command: str = "api review") -> Reviewed:
        """Decide a relationship: ``action`` is "accept", "reject" or "adjust" (with
        ``relation_type`` and/or ``flip``). Raises RelationshipNotFound, BadInput."""
        from .writing import review

        hooks = self._hooks(None, None, None, on_wait, command)
        return Reviewed(review(self.settings, relationship_id, action, relation_type=relation_type, flip=flip,
                               hooks=hooks))

    def batches(self, ids: Iterable[str] = (), *, collect: bool = False, include_collected: bool = False,
                wait: bool = False, base_url: str | None = None, on_wait: WarnFn | None = None,
                command: str = "api batch collect") -> list:
        """The Batch API batches ``ingest --batch`` submitted, asked of their endpoints (or
        ``base_url``): those named by ``ids``, else the ones not collected yet (all of them with
        ``include_collected``). ``collect``: store the answers of those that ended in the LLM
        cache, under the writer lock (``wait``: until every one has ended); the next ingest
        asks only what is not cached. Returns their ``BatchReport``s. Raises BatchNotFound,
        ConfigError (no key nor base URL)."""
        from .writing import Hooks, batches

        ids = list(ids)
        hooks = self._hooks(None, None, None, on_wait, command) if collect else Hooks()
        settings = replace(self.settings, base_url=base_url) if base_url else self.settings
        return batches(settings, ids, collect=collect, uncollected=not ids and not include_collected, wait=wait,
                       hooks=hooks)

    def forget_batches(self, ids: Iterable[str], *, on_wait: WarnFn | None = None,
                       command: str = "api batch forget") -> list:
        """Stop waiting for batches: the next ``ingest --batch`` submits their unanswered chunks
        again (the endpoint is not asked). Returns the batches as they were recorded."""
        from .writing import forget_batches

        return forget_batches(self.settings, list(ids), self._hooks(None, None, None, on_wait, command))

    def prune_cache(self, *, dry_run: bool = False, on_wait: WarnFn | None = None,
                    command: str = "api cache prune") -> dict:
        """Remove cached LLM answers no stored chunk uses; ``{"removed": n, "kept": n}``
        (``dry_run``: counted, nothing removed)."""
        from .writing import prune_cache

        hooks = self._hooks(None, None, None, on_wait, command)
        return prune_cache(self.settings, dry_run=dry_run, hooks=hooks)

    def _drop_vectors(self) -> None:
        """After a write: the next query opens the vectors again (a new collection may exist)."""
        self._vectors.invalidate()


def open_shelf(index_dir: str | Path | None = None, **options) -> Shelf:
    """``Shelf(index_dir, **options)``, opened now: raises IndexMissing or NotAnIndex here."""
    shelf = Shelf(index_dir, **options)
    shelf.db
    return shelf
