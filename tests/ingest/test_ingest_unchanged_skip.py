"""An unchanged book is skipped before it is read (index/ingest/unchanged.py): its file's size
and modification time decide, then its hash; anything else that changes the book for the
index (its title, the pack, an edit) still reads it."""

from __future__ import annotations

import os

import pytest

from crossbook.core.config import Settings
from crossbook.ingest import reading
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db
from tests.helpers import write

BOOK = "# Grimoire\n\n## Spells\n\n### Frost Lance\n\nFrost Lance is a spell you cast.\n"


@pytest.fixture
def shelf(tmp_path):
    settings = Settings(index_dir=tmp_path / "index")
    return IngestJob(open_db(settings.index_dir, create=True), settings)


@pytest.fixture
def reads(monkeypatch):
    """The paths the ingest reads, counted."""
    seen = []
    original = reading.read_book

    def counting(path, *args):
        seen.append(path.name)
        return original(path, *args)

    monkeypatch.setattr(reading, "read_book", counting)
    monkeypatch.setattr("crossbook.ingest.unchanged.read_book", counting)
    return seen


def test_an_unchanged_book_is_not_read(shelf, tmp_path, reads):
    path = write(tmp_path / "grimoire.md", BOOK)
    assert [r.status for r in ingest_paths(shelf, [path])] == ["added"]
    assert reads == ["grimoire.md"]
    assert [r.status for r in ingest_paths(shelf, [path])] == ["unchanged"]
    assert reads == ["grimoire.md"]  # not read again


def test_a_touched_file_with_the_same_bytes_is_decided_by_its_hash_then_by_its_new_stamp(shelf, tmp_path, reads,
                                                                                          monkeypatch):
    path = write(tmp_path / "grimoire.md", BOOK)
    ingest_paths(shelf, [path])
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 5_000_000_000))
    assert [r.status for r in ingest_paths(shelf, [path])] == ["unchanged"]
    assert reads == ["grimoire.md"]
    hashed = []
    monkeypatch.setattr("crossbook.ingest.unchanged.file_hash", lambda p: hashed.append(p) or "")
    assert [r.status for r in ingest_paths(shelf, [path])] == ["unchanged"]
    assert hashed == []  # the new time was noted: size and time decide alone now


def test_an_edit_of_the_same_size_is_read(shelf, tmp_path, reads):
    path = write(tmp_path / "grimoire.md", BOOK)
    ingest_paths(shelf, [path])
    write(path, BOOK.replace("Frost Lance is", "Frost Lance IS"))
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 5_000_000_000))
    assert [r.status for r in ingest_paths(shelf, [path])] == ["updated"]
    assert reads == ["grimoire.md", "grimoire.md"]


def test_a_book_stored_under_a_given_title_keeps_it_unread_and_a_new_title_renames_it(shelf, tmp_path, reads):
    path = write(tmp_path / "grimoire.md", BOOK)
    ingest_paths(shelf, [path], title="Old Name")
    results = ingest_paths(shelf, [path])  # without --book: the book keeps the title it was given
    assert [(r.title, r.status, r.renamed_from) for r in results] == [("Old Name", "unchanged", None)]
    assert len(reads) == 1
    results = ingest_paths(shelf, [path], title="Grimoire")  # a new --book title: read and renamed
    assert [(r.title, r.status, r.renamed_from) for r in results] == [("Grimoire", "updated", "Old Name")]
    assert len(reads) == 2
    assert [r.status for r in ingest_paths(shelf, [path], title="Grimoire")] == ["unchanged"]
    assert len(reads) == 2


def test_a_book_unchanged_on_disk_but_not_for_the_index_is_read(shelf, tmp_path, reads):
    path = write(tmp_path / "grimoire.md", BOOK)
    ingest_paths(shelf, [path])
    gurps = IngestJob(shelf.db, Settings(index_dir=tmp_path / "index", pack="gurps"))
    assert [r.status for r in ingest_paths(gurps, [path])] == ["updated"]
    assert len(reads) == 2
    assert [r.status for r in ingest_paths(gurps, [path], force=True)] == ["updated"]
    assert len(reads) == 3


def test_the_cli_skips_an_unchanged_book_without_reading_it(tmp_path, cli_json, reads):
    path = write(tmp_path / "grimoire.md", BOOK)
    assert [r["status"] for r in cli_json("ingest", path)] == ["added"]
    assert [r["status"] for r in cli_json("ingest", path)] == ["unchanged"]
    assert reads == ["grimoire.md"]
