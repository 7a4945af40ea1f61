"""A run of several books stores each book's vectors in a thread while the next book is read
and written (index/changes/behind.py): the vectors are those a plain sync stores, every book
is noted synced at the end, and a Ctrl-C or a failure leaves each written book with its
vectors noted or still to do, never noted without them."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from crossbook.changes import behind as behind_module
from crossbook.changes import door as door_module
from crossbook.changes.behind import VectorsBehind
from crossbook.ingest.pipeline import ingest_paths
from crossbook.storage import store
from crossbook.vectors.children import child_rows, embedding_text
from crossbook.vectors.chroma_client import VectorStoreError
from crossbook.vectors.embed import HashEmbedder
from crossbook.vectors.sync_notes import unsynced_books
from tests.helpers import BOOK_A, BOOK_B, stored_vectors, vectors_job, write

BEHIND_THREAD = "crossbook-vectors-behind"


class GatedEmbedder(HashEmbedder):
    """The hash embedder, noting each text and the thread that embedded it; in the thread
    behind, it waits for ``gate`` first (so a test can stop the run while a book's vectors
    are under way)."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.threads: set[str] = set()
        self.gate = threading.Event()
        self.gate.set()

    def embed(self, texts: list[str]) -> list[list[float]]:
        if threading.current_thread().name == BEHIND_THREAD:
            assert self.gate.wait(10), "the gate was never opened"
        self.texts.extend(texts)
        self.threads.add(threading.current_thread().name)
        return super().embed(texts)


def _books(tmp_path: Path) -> list[Path]:
    return [write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)]


def test_a_run_stores_every_book_s_vectors_behind_and_notes_each_synced(tmp_path):
    embedder = GatedEmbedder()
    job = vectors_job(tmp_path / "index", embedder)
    ingest_paths(job, _books(tmp_path))
    rows = child_rows(job.db)
    assert {r.book for r in rows} == {"Core Rules", "Grimoire"}
    assert BEHIND_THREAD in embedder.threads
    assert sorted(embedder.texts) == sorted({embedding_text(r) for r in rows})  # each text once
    plain = {r.id: [round(x, 5) for x in HashEmbedder().embed([embedding_text(r)])[0]] for r in rows}
    assert stored_vectors(job) == plain
    assert unsynced_books(job.db) == set()
    assert job.behind is None  # the thread is gone with the run


def test_ctrl_c_while_a_book_s_vectors_are_under_way_leaves_them_to_do(tmp_path, monkeypatch):
    embedder = GatedEmbedder()
    embedder.gate.clear()  # the first book's vectors wait until the run is stopped
    job = vectors_job(tmp_path / "index", embedder)
    store_rows, abandon = door_module.store_rows, VectorsBehind.abandon

    def interrupted(db, rows):  # Ctrl-C in the second book's write transaction
        if rows.title == "Grimoire":
            raise KeyboardInterrupt
        return store_rows(db, rows)

    def stopped(self, db):  # the texts under way end once the run is stopping
        self.stopping.set()
        embedder.gate.set()
        abandon(self, db)

    monkeypatch.setattr(behind_module, "SLICE", 1)  # the first book's texts are several slices
    monkeypatch.setattr(door_module, "store_rows", interrupted)
    monkeypatch.setattr(VectorsBehind, "abandon", stopped)
    with pytest.raises(KeyboardInterrupt):
        ingest_paths(job, _books(tmp_path))
    assert store.book_titles(job.db) == ["Core Rules"]  # the second book's transaction rolled back
    assert unsynced_books(job.db) == {"Core Rules"}  # written, its vectors still to do
    assert len(job.vectors.stored()) < len(child_rows(job.db))  # stopped after the slice under way
    monkeypatch.undo()
    ingest_paths(job, _books(tmp_path))  # the next run completes them
    assert unsynced_books(job.db) == set()
    assert len(stored_vectors(job)) == len(child_rows(job.db))


def test_a_store_that_fails_behind_stops_the_run_with_its_error(tmp_path, monkeypatch):
    job = vectors_job(tmp_path / "index", GatedEmbedder())
    sync_rows = job.vectors.sync_rows

    def failing(title, rows, progress=None, embedder=None):
        if title == "Core Rules":
            raise VectorStoreError("Chroma could not write vectors: disk full")
        return sync_rows(title, rows, progress, embedder)

    monkeypatch.setattr(job.vectors, "sync_rows", failing)
    with pytest.raises(VectorStoreError, match="disk full"):
        ingest_paths(job, _books(tmp_path))
    assert "Core Rules" in store.book_titles(job.db)
    assert "Core Rules" in unsynced_books(job.db)  # never noted synced without its vectors
