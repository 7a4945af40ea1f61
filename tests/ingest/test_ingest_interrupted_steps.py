"""Ctrl-C at each step of an ingest: the index is as it was, or the book is whole with its
vectors still to do, and ``books`` says which."""

import pytest

from crossbook.api.shelf import Shelf
from crossbook.ingest.pipeline import load_books
from crossbook.readers import ReadLimits
from tests.helpers import BOOK_A, snapshot, write

# the steps before the book's commit (nothing of it stays) and the one after (its vectors)
BEFORE_COMMIT = ("plan", "extract", "verify", "write", "link", "relations")


class Stop:
    """An event sink that raises KeyboardInterrupt when ``phase`` starts (a user's Ctrl-C there)."""

    def __init__(self, phase: str):
        self.phase, self.seen = phase, []

    def __call__(self, event: dict) -> None:
        if event.get("event") == "phase.start":
            self.seen.append(event["phase"])
            if event["phase"] == self.phase:
                raise KeyboardInterrupt


def _ingest(index_dir, path, events) -> None:
    with Shelf(index_dir, embedder="hash") as shelf:
        books = load_books([path], None, None, False, ReadLimits(), [], None)
        shelf.ingest_books(books, events=events)


def _books(index_dir) -> dict:
    with Shelf(index_dir, embedder="hash") as shelf:
        return {b.title: b.vectors_complete for b in shelf.books()}


@pytest.mark.parametrize("phase", BEFORE_COMMIT)
def test_ctrl_c_before_the_commit_leaves_the_index_as_it_was(tmp_path, index_dir, phase):
    first = write(tmp_path / "first.md", BOOK_A.replace("# ", "# First ", 1))
    _ingest(index_dir, first, lambda event: None)
    before, listed = snapshot(index_dir), _books(index_dir)
    stop = Stop(phase)
    with pytest.raises(KeyboardInterrupt):
        _ingest(index_dir, write(tmp_path / "a.md", BOOK_A), stop)
    assert stop.seen[-1] == phase  # the step was reached, and stopped there
    assert snapshot(index_dir) == before
    assert _books(index_dir) == listed


def test_ctrl_c_in_the_vectors_step_holds_the_book_with_its_vectors_to_do(tmp_path, index_dir):
    stop = Stop("vectors")
    with pytest.raises(KeyboardInterrupt):
        _ingest(index_dir, write(tmp_path / "a.md", BOOK_A), stop)
    assert "relations" in stop.seen and stop.seen[-1] == "vectors"
    (title, complete), = _books(index_dir).items()
    assert complete is False  # books says: vectors missing
    with Shelf(index_dir, embedder="hash") as shelf:  # where-else answers from the book's commit
        assert shelf.where_else("Chilled").mentions
