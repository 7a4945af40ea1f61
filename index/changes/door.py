"""The one door a change of the shelf goes through, SQLite and Chroma together.

An ingest, delete-book, a rename, rebuild (each of its books), reembed, doctor's repair and a
review decision change the shelf only here; no caller composes the steps, because their order
is what makes a crash safe:

1. the vector store is opened (``open``): a Chroma that refuses fails the change before
   anything else (an ingest opens it before its slow, fallible extraction, which it does with
   no transaction open and hands over as ``BookRows``, book_rows.py);
2. the rows are stored or removed and the derived state refreshed in one transaction with
   no model call inside it (``derived.write_refined``; a book's rows through
   ``derived.replacing_book``), which counts one more generation of the index
   (storage/index_state.py: a long-running reader compares it to notice the shelf moved);
3. once SQLite has committed (it is the source of truth), the vectors follow it: the titles
   that went are deleted, the title written is synced from its rows. A crash between 2 and 3
   leaves a sync note that no longer matches the book's children: ``crossbook doctor`` finds it,
   a search over the book says its vectors are missing (query/coverage.py), and the next ingest
   of the book completes them (``keep``: only the vectors not stored yet are embedded).

The book's entities answer (where-else) from the commit of 2 on. A store that can
(``embed_ahead``, index/vectors/ahead.py: the local MiniLM, on one thread) computes the vectors
of a book's new children in a thread from before 2, beside the transaction's linking and
relations, and holds them in memory for 3: nothing reaches Chroma before SQLite commits, so a crash keeps
the order above.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, TypeVar

from sqlite_utils import Database

from ..core.packs import DomainPack
from ..core.steps import EventFn, no_event, step
from ..relations.refiner import Refiner
from ..storage import store
from ..storage.index_state import bump_generation
from ..vectors.children import child_rows
from ..vectors.doctor import reembed, repair
from ..vectors.protocol import Vectors
from . import derived
from .behind import VectorsBehind
from .book_rows import BookRows, child_rows_of, store_rows

T = TypeVar("T")



@dataclass
class StoredBook:
    """What the door's write of a book found: the title its file was stored under before (a
    rename; that book went as a delete-book would), its counts as ``crossbook books`` counts
    them, and the warning of each claim whose endpoint the index cannot resolve."""

    previous_title: str | None
    mentions: int
    relationships: int
    situating_contexts: int
    relation_claims: int
    pending: list[str]


@dataclass
class Door:
    """The shelf of one index: its database, its vector store (None: SQLite only), the refiner
    of an index in 'refine' mode, where events and progress (writing, embedding) go."""

    db: Database
    vectors: Vectors | None = None
    refiner: Refiner | None = None
    events: EventFn = no_event
    progress: Callable | None = None
    # a run of several books (behind.books_behind): each book's vectors stored by a thread
    behind: VectorsBehind | None = None
    _opened: bool = field(default=False, init=False, repr=False)

    def open(self) -> None:
        """Step 1: the vector store opened (a Chroma that refuses raises here)."""
        if self.vectors is not None and not self._opened:
            self.vectors.open()
        self._opened = True

    def _follow(self, gone: tuple[str, ...] = (), stored: str | None = None, children: tuple | list = ()) -> None:
        """Step 3: the vectors follow the committed rows."""
        if self.vectors is None:
            return
        for title in gone:
            self.vectors.delete_book(title)
        if stored is not None:
            with step(self.events, "vectors", stored, len(children), "children") as tally:
                def progress(phase: str, done: int, total: int) -> None:
                    if self.progress is not None:
                        self.progress(phase, done, total)
                    if phase == "embed":
                        tally(done, total)

                report = self.vectors.replace_book(self.db, stored, list(children), progress=progress)
                tally.fields.update(embedded=getattr(report, "embedded", 0))

    def store_book(self, rows: BookRows, settings: derived.IndexSettings) -> StoredBook:
        """A book's new rows (``rows``, with the index ``settings`` it was extracted under)
        replace its old ones; the book its file was stored under with another title (a
        rename, found now: an earlier book of the run may have taken that title) goes."""
        self.open()
        if self.behind is not None:
            self.behind.collect(self.db)  # the books whose vectors the thread stored, noted synced
        # a store that computes vectors beside the write (not in a run whose thread does)
        ahead = getattr(self.vectors, "embed_ahead", None) if self.behind is None else None
        if ahead is not None:
            ahead(child_rows_of(rows))
        try:
            stored = derived.write_refined(self.db, self.refiner, lambda emit: self._write_book(rows, settings, emit),
                                           self.events)
            gone = (stored.previous_title,) if stored.previous_title is not None else ()
            if self.behind is not None:
                self._follow(gone)
                self.behind.submit(rows.title, child_rows(self.db, rows.title))
            else:
                self._follow(gone, rows.title, rows.children)
        finally:
            if ahead is not None:
                self.vectors.drop_ahead()
        return stored

    def _write_book(self, rows: BookRows, settings: derived.IndexSettings, emit: EventFn) -> StoredBook:
        """Step 2 of ``store_book``: its one transaction's body."""
        db, title = self.db, rows.title
        bump_generation(db)
        emit({"event": "phase.start", "phase": "write", "book": title})
        holder = store.get_book_by_source(db, rows.source)
        previous = holder["title"] if holder is not None and holder["title"] != title else None
        if previous is not None:  # the old title goes as a delete-book would, then the book comes as a new one
            derived.remove(db, previous, settings.pack, refiner=self.refiner)
        with derived.replacing_book(db, title, settings.pack, settings=settings, events=emit, refiner=self.refiner):
            situating, claims = store_rows(db, rows)
            emit({"event": "phase.start", "phase": "relation_normalize", "book": title})
        pending = derived.pending_warnings(db, title)
        # counted like `crossbook books`: the book's mentions after linking, references included
        mentions = db.execute("SELECT count(*) FROM entity_mentions WHERE book = ?", [title]).fetchone()[0]
        relationships = db.execute("SELECT count(*) FROM entity_relationships WHERE book = ?", [title]).fetchone()[0]
        emit({"event": "phase.done", "phase": "relation_normalize", "book": title,
              "relationships": relationships, "pending": len(pending)})
        emit({"event": "phase.done", "phase": "write", "book": title})
        return StoredBook(previous, mentions, relationships, situating, claims, pending)

    def remove_book(self, title: str, pack: DomainPack) -> tuple[int, int]:
        """The book ``title`` goes, with what was derived from it; returns (entities,
        relationships) that went with it."""
        self.open()

        def write(emit: EventFn) -> tuple[int, int]:
            bump_generation(self.db)
            before = self._counts()
            derived.remove(self.db, title, pack, refiner=self.refiner)
            after = self._counts()
            return before[0] - after[0], before[1] - after[1]

        removed = derived.write_refined(self.db, self.refiner, write, self.events)
        self._follow(gone=(title,))
        return removed

    def _counts(self) -> tuple[int, int]:
        return (self.db.execute("SELECT count(*) FROM entities").fetchone()[0],
                self.db.execute("SELECT count(*) FROM entity_relationships").fetchone()[0])

    def keep(self, title: str, write: Callable[[], bool]) -> None:
        """A book that did not change: ``write`` (what is noted about it, in one transaction;
        it returns whether a reader sees a change, such as relationships derived again with
        another vocabulary, which then counts a generation), then its vectors are repaired if
        a crash left them behind (without opening Chroma when SQLite notes them synced)."""
        with self.db.atomic():
            if write():
                bump_generation(self.db)
        if self.vectors is not None:
            self.vectors.ensure_book(self.db, title)

    def reembed(self, new) -> dict:
        """Every child chunk embedded again into ``new``'s collection (index/vectors/doctor.py):
        SQLite's rows do not change, only the vectors and the embedder the index records."""
        report = reembed(self.db, new, self.progress)
        with self.db.atomic():
            bump_generation(self.db)
        return report

    def repair(self, selected: str | None = None):
        """Every drift of the vectors from SQLite fixed (index/vectors/doctor.py: ``selected``
        is the embedder the caller chose, reported when it is not the index's); counts a
        generation. Returns the ``DoctorReport`` of the check that follows."""
        report = repair(self.db, self.vectors, self.progress, selected=selected)
        with self.db.atomic():
            bump_generation(self.db)
        return report

    def record(self, write: Callable[[], T]) -> T:
        """A change of what is derived, with no book's rows and no vectors (a review
        decision): ``write()`` in one transaction that counts a generation; returns its value."""
        with self.db.atomic():
            bump_generation(self.db)
            return write()
