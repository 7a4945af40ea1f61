"""The API's writes: ingest and delete-book as the CLI runs them, each holding the index's
writer lock (index/storage/lock.py) for the whole command."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..core.config import Settings
from ..core.models import IngestResult


def _no_warn(message: str) -> None:
    pass


def ingest(settings: Settings, paths: list[Path], *, title: str | None = None, force: bool = False,
           as_book: bool = False, fmt: str | None = None, warn: Callable[[str], None] | None = None,
           command: str = "api ingest") -> list[IngestResult]:
    """Read every book first (a bad path changes nothing), then ingest them under the lock."""
    from ..ingest.pipeline import IngestJob, ingest_books, load_books
    from ..ingest.unchanged import stored_files_at
    from ..readers.source import ReadLimits
    from ..storage.db import open_for_writing
    from ..vectors.chroma import open_vectors

    # the CLI's limits on what an archive's members inflate to (epub_max_member_mb, epub_max_ratio)
    books = load_books(paths, title, fmt, as_book, ReadLimits.of(settings),
                       stored=None if force else stored_files_at(settings.index_dir))
    with open_for_writing(settings.index_dir, create=True, wait=settings.wait, command=command) as db:
        with open_vectors(settings, db, lazy=True) as vectors:
            job = IngestJob(db, settings, warn=warn or _no_warn, vectors=vectors)
            return ingest_books(job, books, force=force)


def delete_book(settings: Settings, book: str, *, command: str = "api delete-book") -> dict:
    """Remove ``book`` (any case, a unique prefix, its id) under the lock."""
    from ..ingest.pipeline import delete_book as delete
    from ..ingest.pipeline import index_refiner
    from ..query.lookup import resolve_book_to_change
    from ..storage.db import open_for_writing
    from ..vectors.chroma import open_vectors

    with open_for_writing(settings.index_dir, wait=settings.wait, command=command) as db:
        title = resolve_book_to_change(db, book)
        with open_vectors(settings, db, check=False) as vectors:
            return delete(db, title, vectors, index_refiner(db, settings))
