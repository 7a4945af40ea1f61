"""``ingest --events`` times a book phase by phase: inside its write, linking and then the
relationships; the embedding after the write's commit."""

from __future__ import annotations

from crossbook.core.config import Settings
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db
from crossbook.vectors.chroma import open_vectors
from tests.helpers import BOOK_A, BOOK_B, write


def test_the_write_phase_is_timed_as_linking_then_relationships_then_the_embedding(tmp_path):
    events: list[dict] = []
    settings = Settings(index_dir=tmp_path / "index", embedder="hash")
    db = open_db(settings.index_dir, create=True)
    order = [("phase.start", "write"), ("phase.start", "link"), ("phase.done", "link"), ("phase.start", "relations"),
             ("phase.done", "relations"), ("phase.done", "write"), ("phase.start", "vectors"), ("phase.done", "vectors")]
    with open_vectors(settings, db, lazy=True) as vectors:
        job = IngestJob(db, settings, vectors=vectors, events=events.append)
        # the first book refreshes the whole shelf's derived state, the second only what it changes
        for title, book in (("Core Rules", BOOK_A), ("Grimoire", BOOK_B)):
            events.clear()
            ingest_paths(job, [write(tmp_path / f"{title}.md", book)])
            phases = [(e["event"], e["phase"]) for e in events if e["event"] in ("phase.start", "phase.done")]
            assert [p for p in phases if p in order] == order
            assert all(e["book"] == title for e in events if e.get("phase") in ("link", "relations"))
