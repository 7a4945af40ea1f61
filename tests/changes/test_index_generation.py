"""Every change through the door counts one generation in the index, so a long-running
reader (the MCP server, a Shelf kept open) can tell that the shelf moved under it."""

from __future__ import annotations

import pytest

from crossbook.core.config import Settings
from crossbook.core.errors import ConfigError
from crossbook.core.packs import genre_words
from crossbook.ingest.pipeline import IngestJob, delete_book, ingest_paths
from crossbook.storage import index_state
from crossbook.storage.db import open_db
from tests.helpers import write

BOOK = "# Grimoire\n\n## Spells\n\n### Frost Lance\n\nFrost Lance is a spell you cast.\n"


def test_generation_grows_with_every_change_and_not_with_an_unchanged_book(tmp_path):
    index = tmp_path / "index"
    db = open_db(index, create=True)
    assert index_state.generation(db) == 0
    settings = Settings(index_dir=index, embedder="hash")
    book = write(tmp_path / "grimoire.md", BOOK)
    job = IngestJob(db, settings)
    ingest_paths(job, [book])
    assert index_state.generation(db) == 1
    ingest_paths(job, [book])  # unchanged: skipped, nothing moved
    assert index_state.generation(db) == 1
    write(book, BOOK + "\n### Ember\n\nEmber is a spell.\n")
    ingest_paths(job, [book])
    assert index_state.generation(db) == 2
    delete_book(db, "Grimoire")
    assert index_state.generation(db) == 3


def test_genre_words_are_read_from_the_pack_and_an_unknown_list_is_named():
    with pytest.raises(ConfigError, match="no word list 'no such list'"):
        genre_words("rulebook", "no such list")
