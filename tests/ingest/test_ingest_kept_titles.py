"""A book already in the index keeps its title when the same source is ingested again
(index/ingest/identity.py's ``kept_title``): a title given before (``--book``, a manifest's
``title``) and a folder's title stay whatever its reader says now; a file's own title follows
its text; a title given now renames."""

from __future__ import annotations

from dataclasses import replace

import pytest

from crossbook.core.config import Settings
from crossbook.ingest import reading
from crossbook.ingest.manifest import rebuild
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db
from tests.helpers import write

PAGE = "<html><head><title>Frob</title></head><body><h1>Frob</h1><dl><dt><code>frob_read()</code></dt>" \
       "<dd><p>Reads a frob.</p></dd></dl></body></html>"


@pytest.fixture
def shelf(tmp_path):
    settings = Settings(index_dir=tmp_path / "index")
    job = IngestJob(open_db(settings.index_dir, create=True), settings)
    yield job
    job.db.conn.close()


@pytest.fixture
def docset(tmp_path):
    folder = tmp_path / "frob" / "html"
    folder.mkdir(parents=True)
    write(folder / "index.html", PAGE)
    write(folder / "api.html", PAGE.replace("frob_read", "frob_write"))
    return folder


def _titles(job) -> list[str]:
    return [r[0] for r in job.db.execute("SELECT title FROM books ORDER BY title")]


def test_a_doc_set_given_a_title_keeps_it_when_ingested_again_without_one(shelf, docset):
    [first] = ingest_paths(shelf, [docset], title="Frob Manual", as_book=True)
    assert first.title == "Frob Manual"
    [again] = ingest_paths(shelf, [docset], as_book=True)
    assert (again.title, again.status, again.renamed_from) == ("Frob Manual", "unchanged", None)
    assert _titles(shelf) == ["Frob Manual"]
    # a title given now renames it
    [renamed] = ingest_paths(shelf, [docset], title="Frob", as_book=True)
    assert (renamed.title, renamed.renamed_from) == ("Frob", "Frob Manual") and _titles(shelf) == ["Frob"]


def test_a_doc_set_keeps_its_title_when_its_reader_comes_to_declare_another(shelf, docset, monkeypatch):
    """A doc set stored under its folder's name (before its reader read its home page's
    title) keeps that title; a new doc set takes its home page's."""
    original = reading.read_book
    with monkeypatch.context() as patched:
        patched.setattr(reading, "read_book", lambda path, *args: replace(original(path, *args), title="html"))
        [first] = ingest_paths(shelf, [docset], as_book=True)
    assert first.title == "html"
    [again] = ingest_paths(shelf, [docset], as_book=True)
    assert (again.title, again.status) == ("html", "unchanged")
    [forced] = ingest_paths(shelf, [docset], as_book=True, force=True)  # read again: still the stored title
    assert forced.title == "html" and forced.renamed_from is None
    other = docset.parent.parent / "other" / "html"
    other.mkdir(parents=True)
    write(other / "index.html", PAGE.replace("<title>Frob</title>", "<title>Spool 2.1 Documentation</title>")
          .replace("frob_read", "spool_read"))
    [new] = ingest_paths(shelf, [other], as_book=True)
    assert new.title == "Spool" and _titles(shelf) == ["Spool", "html"]


def test_a_files_own_title_follows_its_text_and_a_given_one_stays(shelf, tmp_path):
    book = write(tmp_path / "Notes.md", "# Notes\n\n## Frost Lance\n\nFrost Lance is a spell.\n")
    ingest_paths(shelf, [book])
    write(book, "# Field Notes\n\n## Frost Lance\n\nFrost Lance is a spell.\n")
    [edited] = ingest_paths(shelf, [book])  # its heading was edited: renamed
    assert (edited.title, edited.renamed_from) == ("Field Notes", "Notes")
    ingest_paths(shelf, [book], title="My Notes")
    write(book, "# Camp Notes\n\n## Frost Lance\n\nFrost Lance is a spell you cast.\n")
    [again] = ingest_paths(shelf, [book], force=True)  # the title given before stays, read or not
    assert (again.title, again.status) == ("My Notes", "updated") and _titles(shelf) == ["My Notes"]


def test_a_manifest_entry_without_a_title_keeps_the_title_its_book_has(shelf, tmp_path, docset):
    manifest = write(tmp_path / "frob" / "crossbook.toml", '[[books]]\npath = "html"\ntitle = "Frob Manual"\n')
    assert rebuild(shelf, manifest)["added"] == ["Frob Manual"]
    write(manifest, '[[books]]\npath = "html"\n')
    summary = rebuild(shelf, manifest)
    assert summary["unchanged"] == ["Frob Manual"] and summary["deleted"] == []
    assert _titles(shelf) == ["Frob Manual"]
