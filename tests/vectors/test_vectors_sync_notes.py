"""An unchanged book's vectors are trusted from SQLite's note of what they were synced with,
so skipping it never opens Chroma; any doubt (no note, other children, a dropped
collection) falls back to comparing with Chroma."""

from __future__ import annotations

import json

from crossbook.core.config import load_settings
from crossbook.storage import store
from crossbook.storage.db import open_db
from crossbook.vectors.children import child_rows
from crossbook.vectors.chroma import VectorStore, open_vectors
from tests.helpers import BOOK_A, write


def _open(index_dir, **options):
    db = open_db(index_dir)
    return db, open_vectors(load_settings({"index_dir": index_dir}, {}), db, check=False, **options)


def _refuse():
    raise AssertionError("Chroma was opened")


def test_an_unchanged_book_with_a_matching_note_does_not_open_chroma(tmp_path, cli, index_dir):
    a = write(tmp_path / "a.md", BOOK_A)
    assert cli("ingest", a).exit_code == 0
    db, vectors = _open(index_dir, lazy=True)
    title = store.book_titles(db)[0]
    assert store.get_meta(db, vectors.synced_key(title))
    lazy = VectorStore(_refuse, vectors.embedder, vectors.index_id, vectors.location)
    assert lazy.ensure_book(db, title).embedded == 0


def test_children_that_differ_from_the_note_are_synced(tmp_path, cli, index_dir):
    a = write(tmp_path / "a.md", BOOK_A)
    assert cli("ingest", a).exit_code == 0
    db, vectors = _open(index_dir)
    title = store.book_titles(db)[0]
    victim = child_rows(db, title)[0].id
    vectors.delete_ids([victim])
    with db.atomic():  # the note of an older version of the children, as after a crash
        store.set_meta(db, vectors.synced_key(title), "an older version")
    assert vectors.ensure_book(db, title).embedded == 1
    assert victim in vectors.stored(title)


def test_dropping_a_collection_forgets_its_notes(tmp_path, cli, index_dir):
    a = write(tmp_path / "a.md", BOOK_A)
    assert cli("ingest", a).exit_code == 0
    db, vectors = _open(index_dir)
    title = store.book_titles(db)[0]
    vectors.drop_collection(db, vectors.collection_name(vectors.embedder.id))
    assert store.get_meta(db, vectors.synced_key(title)) is None
    assert store.get_meta(db, "index_id")  # other notes stay
    # the next ingest of the unchanged book puts its vectors back
    result = cli("ingest", a, "--json")
    assert json.loads(result.stdout)[0]["status"] == "unchanged"
    assert json.loads(cli("doctor", "--json").stdout)["ok"]
