"""Derived state changes through one unit: ``derived.replacing_book`` does the whole
sequence a book write, a rename and a delete share, and a review decision re-derives only the
chunks of the relationship it decided."""

from __future__ import annotations

import pytest

from crossbook.changes import derived
from crossbook.core.config import Settings
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.query.review import list_relationships, review
from crossbook.relations import edges
from crossbook.storage import index_state, store
from crossbook.storage.db import open_db
from crossbook.vectors.sync_notes import META_SYNCED
from tests.conftest import SAMPLE

BOOKS = [SAMPLE / "core_rules.md", SAMPLE / "grimoire.md", SAMPLE / "bestiary.md"]


@pytest.fixture
def shelf(tmp_path):
    """The sample shelf, rules extractor and offline relationships."""
    settings = Settings(index_dir=tmp_path / "idx", extractor="rules", relations="spacy",
                        pack=str(SAMPLE / "emberfall.pack.toml"))
    db = open_db(tmp_path / "idx", create=True)
    job = IngestJob(db, settings)
    ingest_paths(job, BOOKS)
    yield job
    db.conn.close()


def relationship_rows(db):
    return db.execute(
        "SELECT id, source_id, target_id, relation_type, chunk_id, review_state, status, fingerprint"
        " FROM entity_relationships ORDER BY id").fetchall()


def test_change_forgets_the_book_then_refreshes_with_what_the_block_stored(shelf, monkeypatch):
    db, title = shelf.db, "The Ashen Grimoire"
    assert store.get_book(db, title) is not None
    note = f"{META_SYNCED}:some_collection:{title}"
    with db.atomic():
        index_state.put(db, note, "digest")
    refreshed = []
    real_refresh = derived.refresh
    monkeypatch.setattr(derived, "refresh", lambda db, pack, before, state, book, **kw: (
        refreshed.append((before.book, book)), real_refresh(db, pack, before, state, book, **kw))[1])
    with db.atomic():
        with derived.replacing_book(db, title, shelf.pack) as before:
            # inside: what the book held is noted, its rows and its vectors' note are gone
            assert before.book == title and before.names
            assert store.get_book(db, title) is None
            assert db.execute("SELECT count(*) FROM chunks WHERE book = ?", [title]).fetchone()[0] == 0
            assert index_state.get(db, note) is None
            assert refreshed == []  # the refresh runs on exit, after the block's writes
    assert refreshed == [(title, None)]  # nothing stored: refreshed as a delete
    assert db.execute("SELECT count(*) FROM entity_mentions WHERE book = ?", [title]).fetchone()[0] == 0


def test_a_failing_block_refreshes_nothing_and_the_transaction_keeps_the_book(shelf, monkeypatch):
    db = shelf.db
    calls = []
    monkeypatch.setattr(derived, "refresh", lambda *a, **kw: calls.append(a))
    with pytest.raises(RuntimeError):
        with db.atomic():
            with derived.replacing_book(db, "The Ashen Grimoire", shelf.pack):
                raise RuntimeError("bad input")
    assert calls == []
    assert store.get_book(db, "The Ashen Grimoire") is not None


def test_changed_settings_go_through_the_unit_and_refresh_everything(shelf, monkeypatch):
    db = shelf.db
    full = []
    real_all = derived.refresh_all
    monkeypatch.setattr(derived, "refresh_all", lambda *a, **kw: (full.append(a[3]), real_all(*a, **kw))[1])
    settings = derived.IndexSettings(shelf.pack, link=False, relations="spacy", ontology=shelf.ontology)
    with db.atomic():
        with derived.replacing_book(db, "Nothing Here", shelf.pack, settings=settings):
            pass
    assert full == [None]  # the link switch changed: a full refresh
    assert not index_state.read_state(db).link_on
    assert db.execute("SELECT count(*) FROM entity_mentions WHERE source = 'linker'").fetchone()[0] == 0


def test_a_review_re_derives_only_the_reviewed_relationships_chunk(shelf, monkeypatch):
    db = shelf.db
    rows = list_relationships(db)
    assert len({r["chunk_id"] for r in rows}) > 1, "the shelf needs relationships in several chunks"
    target = rows[len(rows) // 2]
    derived_chunks = []
    real = edges.refresh_relationships
    monkeypatch.setattr(edges, "refresh_relationships", lambda db, *a, chunks=None, **kw: (
        derived_chunks.append(chunks), real(db, *a, chunks=chunks, **kw))[1])
    after = review(db, target["id"], "reject")
    assert after["review_state"] == "rejected"
    assert derived_chunks == [{target["chunk_id"]}]
    # and what the partial re-derivation left equals a full one
    kept = relationship_rows(db)
    with db.atomic():
        real(db)
    assert relationship_rows(db) == kept


def test_a_change_reads_the_index_state_once_and_writes_it_once(shelf):
    """The index's state (storage/index_state.py) is one value: a change reads it when it
    begins and writes what changed once, after the refresh; no phase reads a key again."""
    db = shelf.db
    statements: list[str] = []
    db.conn.set_trace_callback(statements.append)
    settings = derived.IndexSettings(shelf.pack, link=True, relations="spacy", ontology=shelf.ontology)
    try:
        with db.atomic():
            with derived.replacing_book(db, "The Ashen Grimoire", shelf.pack, settings=settings):
                db.execute("INSERT INTO books (title, path, sha256, extractor, pack, ingested_at)"
                           " VALUES ('The Ashen Grimoire', 'g.md', 'x', 'rules', 'emberfall', 'now')")
    finally:
        db.conn.set_trace_callback(None)
    # the vector store's own notes (vectors_synced:...) are not the index's state
    state = [s for s in statements if "crossbook_meta" in s and "vectors_" not in s]
    assert len([s for s in state if s.lstrip().upper().startswith("SELECT")]) == 1, state
    writes = {s.split("VALUES")[0] for s in state if not s.lstrip().upper().startswith("SELECT")}
    assert len(writes) == 1 and "INSERT INTO crossbook_meta" in next(iter(writes)), state  # one executemany
    after = index_state.read_state(db)
    assert after.lowercase_words is not None and after.link_terms_json is not None
