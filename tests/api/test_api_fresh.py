"""A Shelf left open while other processes change the index (index/api/fresh.py): its
search finds a book the CLI ingested and never raises after the CLI deleted one; each
thread reads through its own SQLite connection; a vector hit whose record is gone is not a hit."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from crossbook.api import Shelf
from tests.conftest import SAMPLE

# slow: crossbook processes (`pytest -m "not slow"` leaves it out)
pytestmark = pytest.mark.slow

CROSSBOOK = str(Path(sys.executable).parent / "crossbook")
EXTRA = "# Glacier Almanac\n\n## Glacier Step\n\nGlacier Step lets a walker cross blue ice and crevasses.\n"


def _crossbook(index: Path, *args: str) -> None:
    env = {**os.environ, "CROSSBOOK_EMBEDDER": "hash"}
    done = subprocess.run([CROSSBOOK, "-q", "--index", str(index), *args], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.fixture
def sample_index(index_dir):
    _crossbook(index_dir, "rebuild", str(SAMPLE / "crossbook.toml"))
    return index_dir


@pytest.mark.parametrize("read_only", [False, True])
def test_an_open_shelf_follows_a_cli_ingest_and_delete(sample_index, tmp_path, read_only):
    book = tmp_path / "almanac.md"
    book.write_text(EXTRA, encoding="utf-8")
    with Shelf(sample_index, embedder="hash", read_only=read_only) as shelf:
        assert shelf.search("frost breath", 3).results  # the vector store is open (and cached)
        _crossbook(sample_index, "ingest", str(book))
        found = shelf.search("glacier step blue ice", 3, books=["Glacier Almanac"]).results
        assert found and found[0]["book"] == "Glacier Almanac"
        assert "Glacier Almanac" in {p["book"] for p in shelf.retrieve("glacier step blue ice", 1, 5).results}
        _crossbook(sample_index, "delete-book", "Glacier Almanac")
        after = shelf.search("glacier step blue ice", 5).results
        assert after and "Glacier Almanac" not in {p["book"] for p in after}


def test_each_thread_reads_through_its_own_connection_closed_when_the_thread_ended(sample_index):
    with Shelf(sample_index, read_only=True) as shelf:
        seen = []
        for _ in range(5):  # a server's worker threads come and go
            thread = threading.Thread(target=lambda: seen.append(shelf.db))
            thread.start()
            thread.join()
        assert seen[0] is not seen[1] and shelf.db not in seen
        assert shelf.where_else("Frost Lance").to_dict()["entities"]
        assert shelf._connections.count() == 1  # only this thread's: each ended worker's was closed


def test_a_vector_whose_record_is_gone_is_not_a_hit():
    from crossbook.core.config import Settings
    from crossbook.vectors.chroma import VectorStore
    from crossbook.vectors.embed import get_embedder

    class Collection:
        def query(self, **_):
            return {"ids": [["c1", "c2"]], "distances": [[0.1, 0.2]],
                    "metadatas": [[None, {"parent_id": "p2", "book": "B", "heading_path": "H"}]]}

    store = VectorStore(lambda: None, get_embedder(Settings(embedder="hash")), "x", "here")
    store._collection = Collection()
    [hits] = store.query(["q"], 2)
    assert [hit.child_id for hit in hits] == ["c2"]
