"""Child-chunk vectors in Chroma: written by ingest, removed with their book, kept in step
with SQLite by doctor/--repair, and tied to one embedder."""

from __future__ import annotations

import json

import pytest

from crossbook.core.config import load_settings
from crossbook.storage.db import open_db
from crossbook.vectors.children import child_rows
from crossbook.vectors.chroma import open_vectors
from crossbook.vectors.sync_notes import META_DIMENSION
from tests.helpers import BOOK_A, BOOK_B, write


def _vectors(index_dir):
    settings = load_settings({"index_dir": index_dir}, {})
    db = open_db(index_dir)
    return db, open_vectors(settings, db, check=False)


@pytest.fixture
def two_books(tmp_path, cli):
    a = write(tmp_path / "a.md", BOOK_A)
    b = write(tmp_path / "b.md", BOOK_B)
    result = cli("ingest", a, b)
    assert result.exit_code == 0, result.stderr
    return a, b


def test_ingest_stores_one_vector_per_child_with_its_metadata(two_books, index_dir):
    db, vectors = _vectors(index_dir)
    rows = child_rows(db)
    stored = vectors.stored()
    assert sorted(stored) == sorted(r.id for r in rows) and rows
    for row in rows:
        meta = stored[row.id]
        assert (meta["book"], meta["parent_id"], meta["heading_path"]) == (row.book, row.parent_id, row.heading_path)
    assert db.execute("SELECT value FROM crossbook_meta WHERE key='embedder'").fetchone()[0] == "hash:256"


def test_delete_book_removes_its_vectors(two_books, index_dir, cli):
    assert cli("delete-book", "Grimoire").exit_code == 0
    db, vectors = _vectors(index_dir)
    books = {m["book"] for m in vectors.stored().values()}
    assert books == {"Core Rules"}
    assert len(vectors.stored()) == len(child_rows(db))


def test_reingest_replaces_vectors_and_keeps_unchanged_ones(two_books, index_dir, cli, monkeypatch):
    a, _ = two_books
    db, vectors = _vectors(index_dir)
    before = vectors.stored("Core Rules")
    write(a, BOOK_A.replace("A Prone fighter is easy to hit.", "A Prone fighter is easy to hit and slow to rise."))
    embedded = []
    from crossbook.vectors import chroma as vectors_module

    real_write = vectors_module.VectorStore.write
    monkeypatch.setattr(vectors_module.VectorStore, "write",
                        lambda self, db, rows, *a, **k: embedded.extend(r.id for r in rows) or real_write(self, db, rows, *a, **k))
    assert cli("ingest", a).exit_code == 0
    db, vectors = _vectors(index_dir)
    after = vectors.stored("Core Rules")
    assert sorted(after) == sorted(r.id for r in child_rows(db, "Core Rules"))
    changed = [i for i in after if after[i] != before.get(i)]
    assert len(changed) == 1 and "Prone" in after[changed[0]]["heading_path"]
    assert embedded == changed  # only the edited section's child was embedded again


@pytest.mark.parametrize("kind", ["missing", "stale", "orphaned", "embedder", "leftover"])
def test_doctor_finds_and_repairs_each_kind_of_drift(two_books, index_dir, cli, kind):
    db, vectors = _vectors(index_dir)
    some_id = sorted(vectors.stored())[0]
    if kind == "missing":
        vectors.collection.delete(ids=[some_id])
    elif kind == "stale":
        vectors.collection.update(ids=[some_id], metadatas=[{"heading_path": "Somewhere else"}])
    elif kind == "orphaned":
        vectors.collection.add(ids=["ghost"], embeddings=[[1.0] + [0.0] * 255],
                               metadatas=[{"book": "Gone", "parent_id": "x", "heading_path": "", "sha256": ""}])
    elif kind == "embedder":
        with db.atomic():
            db.execute("UPDATE crossbook_meta SET value = '999' WHERE key = ?", [META_DIMENSION])
    else:
        vectors.client.create_collection(f"crossbook-{vectors.index_id}-0123456789", embedding_function=None)
    vectors.close()

    found = cli("doctor", "--json")
    assert found.exit_code == 1
    report = json.loads(found.stdout)
    assert not report["ok"]
    field = {"embedder": "embedder_problems", "leftover": "leftover_collections"}.get(kind, kind)
    assert report[field], report

    repaired = cli("doctor", "--repair", "--json")
    assert repaired.exit_code == 0, repaired.stdout
    assert json.loads(repaired.stdout)["ok"]
    assert cli("doctor").exit_code == 0
    db, vectors = _vectors(index_dir)
    assert sorted(vectors.stored()) == sorted(r.id for r in child_rows(db))


def test_crash_between_sqlite_and_chroma_is_repaired_by_the_next_ingest(tmp_path, cli, index_dir, monkeypatch):
    from crossbook.vectors import chroma as vectors_module

    a = write(tmp_path / "a.md", BOOK_A)

    def crash(self, *args, **kwargs):
        raise vectors_module.VectorStoreError("simulated crash after the SQLite commit")

    with monkeypatch.context() as patch:
        patch.setattr(vectors_module.VectorStore, "replace_book", crash)
        assert cli("ingest", a).exit_code == 1
    assert json.loads(cli("doctor", "--json").stdout)["missing"]
    # the book is in SQLite and unchanged: the next ingest skips extraction but fixes vectors
    result = cli("ingest", a, "--json")
    assert json.loads(result.stdout)[0]["status"] == "unchanged"
    assert cli("doctor").exit_code == 0


def test_a_different_embedder_is_a_clear_error_and_reembed_switches(two_books, cli, monkeypatch):
    from crossbook.vectors.embed import EMBEDDERS, HashEmbedder

    # a second hashed space stands in for another model (the local one is tested below)
    EMBEDDERS["hash128"] = lambda settings: HashEmbedder(128)
    try:
        wrong = cli("--embedder", "hash128", "search", "frost")
        assert wrong.exit_code == 1 and wrong.stdout == ""
        assert "built with embedder hash:256" in wrong.stderr and "reembed" in wrong.stderr
        # doctor checks with the recorded embedder and reports the selected one as a mismatch
        doctor = cli("--embedder", "hash128", "doctor", "--json")
        assert doctor.exit_code == 1
        report = json.loads(doctor.stdout)
        assert report["embedder"] == "hash:256" and not report["missing"]
        assert any("reembed" in p for p in report["embedder_problems"])
        switched = cli("--embedder", "hash128", "reembed", "--json")
        assert switched.exit_code == 0, switched.stderr
        report = json.loads(switched.stdout)
        assert (report["previous"], report["embedder"]) == ("hash:256", "hash:128")
        assert len(report["collections_dropped"]) == 1
        assert cli("--embedder", "hash", "search", "frost").exit_code == 1
        # with no embedder selected, the index's own embedder is used
        monkeypatch.delenv("CROSSBOOK_EMBEDDER")
        hits = json.loads(cli("search", "Frost Lance Ember", "--json").stdout)["results"]
        assert hits and cli("doctor").exit_code == 0
    finally:
        del EMBEDDERS["hash128"]


def test_vectors_embed_the_book_and_section_path_and_the_index_records_that(two_books, index_dir):
    from crossbook.vectors.children import CHUNK_CONTEXT, embedding_text
    from crossbook.vectors.sync_notes import META_CONTEXT

    db, vectors = _vectors(index_dir)
    row = next(r for r in child_rows(db) if r.heading_path.endswith("Frost Lance"))
    assert embedding_text(row) == f"{row.heading_path}: {row.text}"   # the path starts with the title
    titled = type(row)(row.id, "The Grimoire", row.parent_id, "Spells > Frost Lance", row.text, row.sha256)
    assert embedding_text(titled).startswith("The Grimoire > Spells > Frost Lance: ")
    assert db.execute("SELECT value FROM crossbook_meta WHERE key = ?", [META_CONTEXT]).fetchone()[0] == CHUNK_CONTEXT
    assert all(meta["context"] == CHUNK_CONTEXT for meta in vectors.stored().values())


def test_vectors_of_another_chunk_context_are_refused_until_reembed(two_books, index_dir, cli):
    from crossbook.vectors.sync_notes import META_CONTEXT

    db, vectors = _vectors(index_dir)
    # an index whose vectors were made from another text than this crossbook's (here: one
    # from before chunk contexts were recorded)
    stored = vectors.stored()
    vectors.collection.update(ids=list(stored), metadatas=[
        {**meta, "context": "heading-path"} for meta in stored.values()])
    with db.atomic():
        db.execute("DELETE FROM crossbook_meta WHERE key = ?", [META_CONTEXT])
    wrong = cli("search", "frost")
    assert wrong.exit_code == 1 and wrong.stdout == ""
    assert "chunk context 'heading-path'" in wrong.stderr and "reembed" in wrong.stderr
    doctor = json.loads(cli("doctor", "--json").stdout)
    assert any("chunk context" in p for p in doctor["embedder_problems"])
    assert len(doctor["stale"]) == len(stored)
    redone = cli("reembed", "--json")
    assert redone.exit_code == 0, redone.stderr
    assert json.loads(redone.stdout)["embedded"] == len(stored)
    assert cli("search", "frost").exit_code == 0 and cli("doctor").exit_code == 0


def test_search_returns_parent_sections_and_honours_book_filters(two_books, cli_json):
    result = cli_json("search", "Frost Lance costs Ember", "-k", "3")["results"]
    assert result[0]["section"] == "Grimoire > Spells > Frost Lance"
    assert len({r["chunk_id"] for r in result}) == len(result)  # one entry per section
    only_core = cli_json("search", "Frost Lance costs Ember", "--book", "Core Rules")["results"]
    assert only_core and {r["book"] for r in only_core} == {"Core Rules"}


def test_search_bad_input(two_books, cli):
    empty = cli("search", "  ")
    assert empty.exit_code == 1 and "query is empty" in empty.stderr
    assert cli("search", "x", "-k", "0").exit_code == 2
