"""Vectors behind: a run of several books embeds each book's vectors in a thread while the
next book is read and written.

A doc set's books are written one after another (ingest/streamed.py), and each book's vectors
took as long as its read and write together: on two cores, the run used one. Here the door
(door.py) hands a book's children, read from SQLite once its transaction has committed, to
one thread that embeds and stores them in Chroma (``VectorStore.sync_rows``: Chroma only),
book after book, in the order they were written, while the door goes on to the next book.

SQLite stays the main thread's: the thread touches only Chroma. The main thread notes each
book the thread has finished as synced (``collect``: its embedder, then its sync note), between
two books' transactions and at the end of the run, never inside one. So a crash or Ctrl-C at
any moment leaves what it left before: every book written holds its rows, and a book whose
vectors were not noted is a book whose vectors are still to do (``crossbook books``, doctor,
the next ingest completes them). On Ctrl-C the thread stops after the texts under way
(``abandon``); the books it finished are noted, the one it was on is not.

The thread embeds on one core while the main thread works (``beside``: the other core is
the write's) and on every core once the run's last book is written (``finish``).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field

from sqlite_utils import Database

from ..core.errors import CrossbookError
from ..core.steps import EventFn, step
from ..vectors.ahead import beside
from ..vectors.children import ChildRow, SyncReport

# texts per embedding call of the thread: between two, it checks whether the run stopped
SLICE = 32


class Stopped(Exception):
    """The run stopped (Ctrl-C, or an error): the thread ends without finishing its book."""


@dataclass
class Finished:
    """A book whose vectors the thread stored: what the main thread notes of it."""

    title: str
    rows: list[ChildRow]
    report: SyncReport
    dimension: int | None


class Either:
    """The store's embedder on one core while the run writes, on every core once it is done:
    the same model, hence the same vectors; checks between slices whether the run stopped."""

    def __init__(self, embedder, behind: "VectorsBehind"):
        self.full, self.one = embedder, beside(embedder) or embedder
        self.id, self.batch_size = embedder.id, embedder.batch_size
        self.behind = behind

    def embed(self, texts: list[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), SLICE):
            if self.behind.stopping.is_set():
                raise Stopped
            model = self.full if self.behind.alone.is_set() else self.one
            vectors.extend(model.embed(texts[start:start + SLICE]))
        return vectors


@dataclass
class VectorsBehind:
    """The thread that stores the vectors of the books ``submit`` hands it, in order."""

    vectors: object  # a store with sync_rows / written_dimension / note_synced (chroma.VectorStore)
    events: EventFn
    alone: threading.Event = field(default_factory=threading.Event)     # the run's writes are over
    stopping: threading.Event = field(default_factory=threading.Event)  # Ctrl-C or an error: stop
    error: Exception | None = None
    _todo: queue.Queue = field(default_factory=queue.Queue)
    _done: list[Finished] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _thread: threading.Thread | None = None

    def submit(self, title: str, rows: list[ChildRow]) -> None:
        """Store ``title``'s vectors (``rows``: its children as SQLite committed them), after
        those of the books submitted before."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="crossbook-vectors-behind", daemon=True)
            self._thread.start()
        self._todo.put((title, rows))

    def told(self, event: dict) -> None:
        """The thread's events, marked ``behind``: a display shows them under their own book."""
        self.events({**event, "behind": True})

    def _run(self) -> None:
        embedder = Either(self.vectors.embedder, self)
        while (item := self._todo.get()) is not None:
            if self.error is not None or self.stopping.is_set():
                continue  # the run goes on to its end; these books' vectors stay to do
            title, rows = item
            try:
                with step(self.told, "vectors", title, len(rows), "children") as tally:
                    def progress(phase: str, done: int, total: int) -> None:
                        if phase == "embed":
                            tally(done, total)

                    report = self.vectors.sync_rows(title, rows, progress, embedder)
                    tally.fields.update(embedded=report.embedded)
                finished = Finished(title, rows, report, self.vectors.written_dimension(report))
            except Stopped:
                continue
            except Exception as exc:  # noqa: BLE001 - raised in the main thread by collect()
                self.error = exc
                continue
            with self._lock:
                self._done.append(finished)

    def collect(self, db: Database) -> list[Finished]:
        """In the main thread, with no transaction open: note each book the thread finished as
        synced; raises the error the thread met (its book and the later ones stay to do)."""
        done = self._note(db)
        if self.error is not None:
            raise self.error
        return done

    def finish(self, db: Database) -> list[Finished]:
        """The run's last book is written: the thread embeds on every core, is waited for, and
        every book it finished is noted (``collect``)."""
        self.alone.set()
        self._end()
        return self.collect(db)

    def abandon(self, db: Database) -> None:
        """Ctrl-C: the thread stops after the texts under way, and the books it finished are
        noted when no transaction is open (one interrupted has rolled back by now); the others
        have their vectors still to do."""
        self.stopping.set()
        self._end()
        if not db.conn.in_transaction:
            self._note(db)

    def _note(self, db: Database) -> list[Finished]:
        with self._lock:
            done, self._done = self._done, []
        for book in done:
            self.vectors.note_synced(db, book.title, book.rows, book.dimension)
        return done

    def _end(self) -> None:
        if self._thread is not None:
            self._todo.put(None)
            self._thread.join()
            self._thread = None


@contextmanager
def books_behind(db: Database, vectors, events: EventFn) -> Iterator[VectorsBehind | None]:
    """A run of several books: the ``VectorsBehind`` the door hands each written book to
    (None for a store that cannot: no store, or one without ``sync_rows``). At the block's
    end the thread is waited for and the books it finished are noted synced, also when the
    block raised an error (the books written keep their vectors); on Ctrl-C it stops, and the
    books not noted have their vectors still to do."""
    if vectors is None or not hasattr(vectors, "sync_rows"):
        yield None
        return
    behind = VectorsBehind(vectors, events)
    try:
        yield behind
    except Exception:
        with suppress(CrossbookError):  # the run's own error is the one told; these vectors stay to do
            behind.finish(db)
        raise
    except BaseException:
        behind.abandon(db)
        raise
    behind.finish(db)
