"""A book's vectors computed beside its write transaction (index/vectors/ahead.py), each
distinct text embedded once, and nothing in Chroma before SQLite commits."""

from __future__ import annotations

import threading

import pytest

from crossbook.changes import door as door_module
from crossbook.ingest.pipeline import ingest_paths
from crossbook.vectors.ahead import EmbeddedAhead, longest_first
from crossbook.vectors.children import ChildRow, child_rows, embedding_text
from crossbook.vectors.embed import HashEmbedder
from tests.helpers import BOOK_A, BOOK_B, stored_vectors, vectors_job, write

AHEAD_THREAD = "crossbook-embed-ahead"


class CountingEmbedder(HashEmbedder):
    """The hash embedder, as one that computes ahead (``beside``: itself), noting each text it
    embeds and the thread it embedded it in."""

    ahead = True

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.threads: set[str] = set()

    def __getattr__(self, name: str):
        if name == "beside" and self.ahead:
            return lambda: self
        raise AttributeError(name)

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.texts.extend(texts)
        self.threads.add(threading.current_thread().name)
        return super().embed(texts)


def test_a_new_book_is_embedded_ahead_once_and_its_vectors_are_those_of_a_plain_embedding(tmp_path):
    embedder = CountingEmbedder()
    job = vectors_job(tmp_path / "index", embedder)
    for path in (write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)):
        ingest_paths(job, [path])  # one book a run (a run of several stores vectors behind: test_vectors_behind.py)
    texts = [embedding_text(r) for r in child_rows(job.db)]
    assert sorted(embedder.texts) == sorted(set(texts))  # every text once: the sync took them, it did not embed again
    assert AHEAD_THREAD in embedder.threads
    plain = {r.id: [round(x, 5) for x in HashEmbedder().embed([embedding_text(r)])[0]] for r in child_rows(job.db)}
    assert stored_vectors(job) == plain
    assert job.vectors.ahead is None  # dropped once the book is written


def test_an_edited_book_embeds_ahead_only_its_changed_children(tmp_path):
    book = write(tmp_path / "a.md", BOOK_A)
    embedder = CountingEmbedder()
    job = vectors_job(tmp_path / "index", embedder)
    ingest_paths(job, [book])
    write(book, BOOK_A.replace("A Prone fighter is easy to hit.", "A Prone fighter is easy to hit and slow to rise."))
    embedder.texts.clear()
    ingest_paths(job, [book])
    assert len(embedder.texts) == 1 and "slow to rise" in embedder.texts[0]


def test_a_write_that_fails_leaves_chroma_without_the_book_and_stops_the_thread(tmp_path, monkeypatch):
    embedder = CountingEmbedder()
    job = vectors_job(tmp_path / "index", embedder)

    def fail(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(door_module, "store_rows", fail)
    with pytest.raises(RuntimeError):
        ingest_paths(job, [write(tmp_path / "a.md", BOOK_A)])
    assert job.vectors.ahead is None
    assert job.vectors.stored() == {}  # vectors computed ahead never reach Chroma before the commit
    assert job.db.execute("SELECT count(*) FROM chunks").fetchone()[0] == 0


def test_rows_sharing_a_text_are_embedded_once_and_each_gets_its_vector(tmp_path):
    embedder = CountingEmbedder()
    embedder.ahead = False
    job = vectors_job(tmp_path / "index", embedder)
    rows = [ChildRow(f"c{i}", "Book", "p", "Book > Part", text, str(i))
            for i, text in enumerate(["same words", "other words", "same words", "a longer text than the others"] * 2)]
    assert job.vectors.write(job.db, rows) == len(rows)
    assert sorted(embedder.texts) == sorted({embedding_text(r) for r in rows})
    stored = stored_vectors(job)
    assert stored["c0"] == stored["c2"] == stored["c6"] and len(stored) == len(rows)


def test_embedded_ahead_gives_what_it_has_when_the_embedder_fails(monkeypatch):
    from crossbook.vectors import ahead as ahead_module

    monkeypatch.setattr(ahead_module, "AHEAD_BATCH", 2)

    class FailsLater(CountingEmbedder):
        def embed(self, texts):
            if len(self.texts) >= 3:
                raise RuntimeError("model gone")
            return super().embed(texts)

    ahead = EmbeddedAhead(FailsLater(), ["a b", "c d e", "f", "g h i j", "k l"]).start()
    ahead.stop()
    found = ahead.take(["a b", "c d e", "f", "g h i j", "k l"])
    assert isinstance(ahead.error, RuntimeError)
    assert set(found) == {"g h i j", "c d e", "a b"}  # the longest first, until the failure
    assert ahead.take(["g h i j"]) == {}  # a text taken is not given twice


def test_longest_first_keeps_each_text_once():
    assert longest_first(["bb", "a", "ccc", "bb", "dd"]) == ["ccc", "bb", "dd", "a"]


class Releasing(HashEmbedder):
    """The hash embedder, noting when it is told to let go of its session."""

    def __init__(self) -> None:
        super().__init__()
        self.released = 0

    def release(self) -> None:
        self.released += 1


def test_a_large_books_thread_keeps_the_one_session_for_the_vectors_after_the_commit():
    embedder = Releasing()  # the local embedder's sessions are one: letting it go would only reload it
    ahead = EmbeddedAhead(embedder, [f"text {i}" for i in range(1500)]).start()
    ahead.stop()
    assert embedder.released == 0
    assert len(ahead.take([ahead.order[0]])) == 1  # what was computed stays to be taken
