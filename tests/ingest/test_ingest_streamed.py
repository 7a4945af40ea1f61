"""Books read one at a time as the write asks for them (ingest/streamed.py): each is written
before the next is read (its vectors are stored behind: changes/behind.py), Ctrl-C keeps the
books written whole, a title clash found late skips only its book."""

import threading

import pytest

from crossbook.api.shelf import Shelf
from crossbook.core.errors import EntityNotFound
from crossbook.ingest.streamed import StreamedBooks
from tests.helpers import BOOK_A, BOOK_B, write


class Recorder:
    """An event sink noting (event, phase, book); raises KeyboardInterrupt at the ``stop_at``-th
    read, once the first book's vectors are stored (they are stored by another thread)."""

    def __init__(self, stop_at: int | None = None):
        self.seen: list[tuple[str, str | None, str | None]] = []
        self.stop_at, self.reads = stop_at, 0
        self.vectors_done = threading.Event()

    def __call__(self, event: dict) -> None:
        self.seen.append((event.get("event"), event.get("phase"), event.get("book")))
        if event.get("event") == "phase.done" and event.get("phase") == "vectors":
            self.vectors_done.set()
        if event.get("event") == "phase.start" and event.get("phase") == "read":
            self.reads += 1
            if self.reads == self.stop_at:
                assert self.vectors_done.wait(10)
                raise KeyboardInterrupt


def _ingest(index_dir, files, events) -> StreamedBooks:
    streamed = StreamedBooks(files)
    with Shelf(index_dir, embedder="hash") as shelf:
        shelf.ingest_books(streamed, events=events)
    return streamed


def _books(index_dir) -> dict:
    with Shelf(index_dir, embedder="hash") as shelf:
        return {b.title: b.vectors_complete for b in shelf.books()}


def test_each_book_is_written_before_the_next_is_read(tmp_path, index_dir):
    files = [write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)]
    events = Recorder()
    _ingest(index_dir, files, events)
    steps = [(kind, phase) for kind, phase, _ in events.seen if kind in ("phase.start", "phase.done")]
    reads = [i for i, step in enumerate(steps) if step == ("phase.start", "read")]
    written = [i for i, step in enumerate(steps) if step == ("phase.done", "write")]
    vectors_done = [i for i, step in enumerate(steps) if step == ("phase.done", "vectors")]
    assert len(reads) == 2 and len(written) == 2 and len(vectors_done) == 2
    assert reads[0] < written[0] < reads[1] < written[1] < vectors_done[1]
    assert written[0] < vectors_done[0]
    assert _books(index_dir) == {"Core Rules": True, "Grimoire": True}


def test_ctrl_c_in_a_later_read_keeps_the_books_written_whole(tmp_path, index_dir):
    files = [write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)]
    with pytest.raises(KeyboardInterrupt):
        _ingest(index_dir, files, Recorder(stop_at=2))
    # the first, with the vectors its thread stored (noted once the run stopped); the second not begun
    assert _books(index_dir) == {"Core Rules": True}


def test_a_title_clash_read_late_skips_only_its_book(tmp_path, index_dir):
    files = [write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_A.replace("Chilled", "Frozen"))]
    streamed = _ingest(index_dir, files, Recorder())
    [(path, reason)] = streamed.skipped
    assert path == files[1] and "have the same title 'Core Rules'" in reason
    assert _books(index_dir) == {"Core Rules": True}
    with Shelf(index_dir, embedder="hash") as shelf, pytest.raises(EntityNotFound):
        shelf.where_else("Frozen")  # the second book wrote nothing


def test_ingest_of_a_folder_book_streams_and_names_the_book_it_skipped(tmp_path, cli):
    vault = tmp_path / "shelf" / "vault"
    (vault / ".obsidian").mkdir(parents=True)
    (vault / "Note.md").write_text("# Vault Note\n\nA note on Chilled.\n", encoding="utf-8")
    write(tmp_path / "shelf" / "a.md", BOOK_A)
    write(tmp_path / "shelf" / "z.md", BOOK_A.replace("Chilled", "Frozen"))
    events = tmp_path / "events.jsonl"
    result = cli("ingest", tmp_path / "shelf", "--events", events)
    assert result.exit_code == 1 and "have the same title 'Core Rules'" in result.stderr
    assert str(tmp_path / "shelf" / "z.md") in result.stderr
    import json

    seen = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    steps = [(e["event"], e.get("phase")) for e in seen if e.get("event") in ("phase.start", "phase.done")]
    first_write = steps.index(("phase.done", "write"))
    assert ("phase.start", "read") in steps[first_write:]  # a book was read after the first was written


def test_a_book_named_twice_is_read_and_written_once(tmp_path, index_dir):
    book = write(tmp_path / "a.md", BOOK_A)
    streamed = _ingest(index_dir, [book, book], Recorder())
    assert len(streamed) == 1 and streamed.skipped == []
    assert _books(index_dir) == {"Core Rules": True}
