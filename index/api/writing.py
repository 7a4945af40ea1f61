"""The API's writes, the only path the CLI's writing commands take too: ingest, rebuild,
delete-book, reembed, review and doctor's repair (changes of the shelf), and the LLM
cache's own writes (collecting and forgetting batches, pruning answers), each holding the index's writer lock
(index/storage/lock.py) for the whole write and changing the shelf through its one door
(index/changes/door.py), which counts every change in the index's generation number (the
cache's writes change no entity, mention or vector: they are not counted).

``Hooks`` says where a write reports: ``progress(phase, done, total)``, ``events`` (the
NDJSON records of ``--events``), ``warn`` (one line each), ``on_wait`` (a note while another
writer holds the lock) and the ``command`` the lock names to a writer that waits for it.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from ..core.config import Settings
from ..core.models import IngestResult
from ..core.steps import EventFn, no_event

WarnFn = Callable[[str], None]
ProgressFn = Callable[[str, int, int], None]


def _no_warn(message: str) -> None:
    """The default warning sink."""



def _no_progress(phase: str, done: int, total: int) -> None:
    """The default progress sink."""


@dataclass(frozen=True)
class Hooks:
    """Where a write reports (this module's docstring); every callback may be None."""

    progress: ProgressFn | None = None
    events: EventFn | None = None
    warn: WarnFn | None = None
    on_wait: WarnFn | None = None
    command: str = "api"


@contextlib.contextmanager
def _writing(settings: Settings, hooks: Hooks, create: bool = False) -> Iterator:
    """The index's database for one write, under the writer lock until the block ends."""
    from ..storage.db import open_for_writing

    with open_for_writing(settings.index_dir, create=create, wait=settings.wait, command=hooks.command,
                          on_wait=hooks.on_wait) as db:
        yield db


@contextlib.contextmanager
def _reading(settings: Settings) -> Iterator:
    """The index's database for a check that writes nothing (no lock), closed after the block."""
    from ..storage.db import open_db

    db = open_db(settings.index_dir)
    try:
        yield db
    finally:
        db.conn.close()


@contextlib.contextmanager
def _ingesting(settings: Settings, hooks: Hooks) -> Iterator:
    """An ``IngestJob`` for a write that ingests (ingest, rebuild): the Chroma server checked,
    the index held for writing (made if new), its vector store opened when a book needs it,
    a local model's load shown on ``progress``."""
    from ..ingest.pipeline import IngestJob
    from ..vectors.chroma import open_vectors
    from ..vectors.chroma_client import check_chroma_server
    from ..vectors.model_load import ModelLoadReporter

    check_chroma_server(settings)
    with _writing(settings, hooks, create=True) as db, open_vectors(settings, db, lazy=True) as vectors:
        if hooks.progress is not None:
            vectors.embedder = ModelLoadReporter(vectors.embedder, hooks.progress)
        yield IngestJob(db, settings, progress=hooks.progress or _no_progress, warn=hooks.warn or _no_warn,
                        vectors=vectors, events=hooks.events or no_event)


def ingest(settings: Settings, paths: list[Path], *, title: str | None = None, force: bool = False,
           as_book: bool = False, fmt: str | None = None, warn: WarnFn | None = None,
           on_wait: WarnFn | None = None, command: str = "api ingest") -> list[IngestResult]:
    """Read every book first (a bad path changes nothing), then ``ingest_books``."""
    from ..ingest.pipeline import load_books
    from ..ingest.unchanged import stored_files_at
    from ..readers.source import ReadLimits

    # the CLI's limits on what an archive's members inflate to (epub_max_member_mb, epub_max_ratio)
    books = load_books(paths, title, fmt, as_book, ReadLimits.of(settings),
                       stored=stored_files_at(settings.index_dir), reread=force)
    return ingest_books(settings, books, force=force, hooks=Hooks(warn=warn, on_wait=on_wait, command=command))


def ingest_books(settings: Settings, books: list, *, force: bool = False, hooks: Hooks = Hooks()) -> list[IngestResult]:
    """Ingest books already read (``pipeline.load_books``), one transaction each, under the lock."""
    from ..ingest.pipeline import ingest_books as run

    with _ingesting(settings, hooks) as job:
        return run(job, books, force=force)


def ingest_batch(settings: Settings, books: list, *, force: bool = False, wait: bool = True,
                 hooks: Hooks = Hooks()):
    """``ingest --batch`` of books already read (index/ingest/batch.py); returns its
    ``BatchIngest`` (``results`` None: submitted, not waited for). On Ctrl-C, ``warn`` names
    the batches that go on running at the endpoint."""
    from ..extract.batch import batch_ids
    from ..ingest.batch import ingest_through_batch

    with _ingesting(settings, hooks) as job:
        try:
            return ingest_through_batch(job, [], force=force, wait=wait, books=books)
        except KeyboardInterrupt:
            waiting = batch_ids(job.db, uncollected=True)
            if waiting and hooks.warn is not None:  # they are recorded: a later process picks them up
                hooks.warn(f"{', '.join(waiting)} went on running at the endpoint: crossbook batch collect "
                           "--until-done, or run this ingest again, picks up their answers")
            raise


def rebuild(settings: Settings, manifest: Path, hooks: Hooks = Hooks()) -> dict:
    """Reconcile the index with a manifest (index/ingest/manifest.py); returns the summary."""
    from ..ingest.manifest import rebuild as run

    with _ingesting(settings, hooks) as job:
        return run(job, manifest)


def delete_book(settings: Settings, book: str, hooks: Hooks = Hooks()) -> dict:
    """Remove ``book`` (any case, a unique prefix, its id) under the lock; the book is
    resolved before Chroma is opened (a fast, clear error)."""
    from ..ingest.pipeline import delete_book as delete
    from ..ingest.pipeline import index_refiner
    from ..query.naming import resolve_book_to_change
    from ..vectors.chroma import open_vectors

    with _writing(settings, hooks) as db:
        title = resolve_book_to_change(db, book)
        with open_vectors(settings, db, check=False) as vectors:
            return delete(db, title, vectors, index_refiner(db, settings))


def reembed(settings: Settings, hooks: Hooks = Hooks()) -> dict:
    """Every child chunk embedded again with ``settings.embedder``, the index switched to it."""
    from ..changes.door import Door
    from ..vectors.chroma import open_vectors
    from ..vectors.embed import get_embedder

    with _writing(settings, hooks) as db:
        with open_vectors(settings, db, check=False, embedder=get_embedder(settings)) as new:
            return Door(db, progress=hooks.progress).reembed(new)


def doctor(settings: Settings, *, repair: bool = False, hooks: Hooks = Hooks()):
    """The drift between SQLite and the vectors (a ``DoctorReport``), checked with the
    embedder the index records (a different selected one is reported: switching is
    reembed's job); ``repair``: fixed first, under the lock, through the door."""
    from ..changes.door import Door
    from ..vectors import doctor as checks
    from ..vectors.chroma import embedder_for_id, open_vectors
    from ..vectors.sync_notes import recorded_embedder

    with _writing(settings, hooks) if repair else _reading(settings) as db:
        recorded = recorded_embedder(db)
        embedder = embedder_for_id(recorded, settings) if recorded else None
        # lazy: a check opens only what exists (repair creates what it needs)
        with open_vectors(settings, db, check=False, embedder=embedder, lazy=True) as vectors:
            if repair:
                return Door(db, vectors, progress=hooks.progress).repair(selected=settings.embedder)
            return checks.check(db, vectors, selected=settings.embedder)


def review(settings: Settings, relationship_id: int, action: str, *, relation_type: str | None = None,
           flip: bool = False, hooks: Hooks = Hooks()) -> dict:
    """Record a review decision (index/query/review.py) under the lock; returns the
    relationship as it is afterwards."""
    from ..query.review import review as decide

    with _writing(settings, hooks) as db:
        return decide(db, relationship_id, action, relation_type=relation_type, flip=flip)


def batches(settings: Settings, ids: list[str], *, collect: bool, uncollected: bool, wait: bool = False,
            sleep: Callable[[float], None] | None = None, hooks: Hooks = Hooks()) -> list:
    """The Batch API batches ``ingest --batch`` recorded (index/extract/batch.py), refreshed
    from their endpoints: named by ``ids``, else the uncollected ones (all with not
    ``uncollected``). With ``collect``, under the writer lock: the answers of those that
    ended stored in the LLM cache (``wait``: polling until every one has ended). Without it
    only the batches' recorded states are refreshed, with no lock (as a query): a status
    asked while an ``ingest --batch`` waits answers at once."""
    import time

    from ..extract import batch

    with _writing(settings, hooks) if collect else _reading(settings) as db:
        chosen = batch.batch_ids(db, ids, uncollected=uncollected)
        return batch.poll(db, batch.client_for(settings), chosen, collect_ended=collect, wait=wait,
                          poll_seconds=settings.batch_poll, sleep=sleep or time.sleep, secret=settings.api_key)


def forget_batches(settings: Settings, ids: list[str], hooks: Hooks = Hooks()) -> list:
    """Drop the records of batches (``batch.forget``) under the writer lock."""
    from ..extract import batch

    with _writing(settings, hooks) as db:
        return batch.forget(db, ids)


def prune_cache(settings: Settings, *, dry_run: bool = False, hooks: Hooks = Hooks()) -> dict:
    """Remove the cached LLM answers no stored chunk uses (``llm_cache.prune``), under the
    writer lock; ``dry_run`` counts them and takes no lock."""
    from ..storage.llm_cache import prune

    with _reading(settings) if dry_run else _writing(settings, hooks) as db:
        return prune(db, dry_run=dry_run)
