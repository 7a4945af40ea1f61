"""Consistency between SQLite (the truth) and the Chroma vectors derived from it.

``check`` reports every kind of drift; ``repair`` fixes it from SQLite; ``reembed`` moves
the index to another embedder. Kinds of drift:

- ``missing``: a child chunk with no vector (a crash after SQLite committed an ingest);
- ``stale``: a vector whose metadata (book, parent, section path, text hash, the hash of
  its parent's situating context) no longer matches its chunk (a crash after a re-ingest
  committed);
- ``orphaned``: a vector whose chunk is gone (a crash after delete-book committed);
- ``embedder``: the recorded embedder or dimension disagrees with the vectors stored
  (repair rebuilds the collection from SQLite), or the embedder selected now is not the
  recorded one (not drift in the data: ``crossbook reembed`` switches);
- ``leftover_collections``: collections of this index for another embedder, left by an
  interrupted ``reembed`` (repair drops them).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from sqlite_utils import Database

from ..core.errors import CrossbookError
from ..storage import store
from .children import SyncReport, child_rows, diff
from .chroma import ProgressFn, VectorStore
from .embed import option_makes
from .sync_notes import META_DIMENSION, META_EMBEDDER, context_mismatch, mismatch_message


@dataclass
class DoctorReport:
    location: str
    embedder: str                       # the embedder the index's vectors are checked with
    chunks: int                         # child chunks in SQLite
    vectors: int                        # vectors in the collection
    missing: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    orphaned: list[str] = field(default_factory=list)
    embedder_problems: list[str] = field(default_factory=list)
    leftover_collections: list[str] = field(default_factory=list)
    repaired: dict | None = None        # what --repair did (None without --repair)
    # books stored with --allow-partial: title -> chunks without entities (not drift: the
    # next ingest of the book extracts them again)
    partial_books: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not (self.missing or self.stale or self.orphaned or self.embedder_problems
                    or self.leftover_collections)

    def to_dict(self) -> dict:
        return {**asdict(self), "ok": self.ok}


def _unusable_vectors(db: Database, vectors: VectorStore) -> list[str]:
    """Ways the collection's vectors are not those of the recorded embedder at all (they
    cannot be patched: repair rebuilds the collection from SQLite)."""
    problems = []
    meta = vectors.collection.metadata or {}
    if meta.get("embedder") not in (None, vectors.embedder.id):
        problems.append(
            f"the collection holds vectors of {meta['embedder']}, the index records {vectors.embedder.id}"
        )
    dimension = vectors.stored_dimension()
    recorded_dimension = store.get_meta(db, META_DIMENSION)
    if dimension is not None and recorded_dimension is not None and str(dimension) != recorded_dimension:
        problems.append(
            f"the vectors have {dimension} dimensions, the index records {recorded_dimension}"
        )
    return problems


def check(db: Database, vectors: VectorStore, selected: str | None = None) -> DoctorReport:
    """Compare every child chunk in SQLite with the vectors (read-only: a missing collection
    is reported as no vectors, not created). ``selected`` is the
    --embedder the user chose, if any: one other than the recorded embedder is reported
    (switching is reembed's job)."""
    rows = child_rows(db)
    present = vectors.find_collection()  # a check creates no collection: doctor on a fresh index must leave it as it was
    stored = vectors.stored() if present else {}
    drift = diff(rows, stored)
    problems = []
    recorded = store.get_meta(db, META_EMBEDDER)
    if recorded is not None and (recorded != vectors.embedder.id
                                 or (selected and not option_makes(selected, recorded))):
        problems.append(mismatch_message(recorded))
    context = context_mismatch(db)
    if context is not None:
        problems.append(context)
    return DoctorReport(
        location=vectors.location, embedder=vectors.embedder.id, chunks=len(rows),
        vectors=len(stored), missing=drift.missing, stale=drift.stale, orphaned=drift.orphaned,
        embedder_problems=problems + (_unusable_vectors(db, vectors) if present else []),
        leftover_collections=vectors.other_collections(), partial_books=store.partial_books(db),
    )


def repair(db: Database, vectors: VectorStore, progress: ProgressFn | None = None,
           selected: str | None = None) -> DoctorReport:
    """Fix every kind of drift from SQLite, then check again. The vectors are checked and
    repaired with the index's recorded embedder (``vectors`` must be opened with it)."""
    rebuilt = bool(_unusable_vectors(db, vectors))
    if rebuilt:
        vectors.drop_collection(db, vectors.collection_name(vectors.embedder.id))
    synced: SyncReport = vectors.sync(db, None, progress)  # missing, stale and orphaned
    vectors.mark_all(db)  # every book's vectors now match it (``books`` no longer flags one)
    dropped = vectors.other_collections()
    for name in dropped:
        vectors.drop_collection(db, name)
    after = check(db, vectors, selected)
    after.repaired = {
        "embedded": synced.embedded, "deleted": synced.deleted,
        "collection_rebuilt": rebuilt, "collections_dropped": dropped,
    }
    return after


def reembed(db: Database, new: VectorStore, progress: ProgressFn | None = None) -> dict:
    """Embed every child chunk with ``new.embedder`` into its own collection, then record
    the switch in SQLite, then drop the old collection. Until the switch is recorded the
    old vectors keep serving queries; an interrupted reembed resumes where it stopped
    (chunks already embedded are not embedded again)."""
    previous = store.get_meta(db, META_EMBEDDER)
    try:
        report = new.sync(db, None, progress, record=False)
    except CrossbookError:
        # nothing embedded yet: leave no empty collection behind (a partial one is kept,
        # so running reembed again resumes; doctor lists it until then)
        if previous != new.embedder.id and new.count() == 0:
            new.drop_collection(db, new.collection_name(new.embedder.id))
        raise
    dimension = new.stored_dimension()
    if dimension is not None:
        new.record_embedder(db, dimension)
        new.mark_all(db)
    elif store.get_meta(db, META_EMBEDDER) is not None:
        # an index with no chunks: forget the old embedder
        with db.atomic():
            db.execute("DELETE FROM crossbook_meta WHERE key IN (?, ?)", [META_EMBEDDER, META_DIMENSION])
    dropped = []
    for name in new.other_collections():
        new.drop_collection(db, name)
        dropped.append(name)
    return {
        "embedder": new.embedder.id, "previous": previous,
        "embedded": report.embedded, "deleted": report.deleted, "collections_dropped": dropped,
    }
