"""The one door a change of the shelf goes through, SQLite and Chroma together.

IngestJob, delete-book, a rename, rebuild (each of its books) and reembed change the shelf only
here; no caller composes the steps, because their order is what makes a crash safe:

1. the vector store is opened: a Chroma that refuses fails the change before anything else;
2. ``prepare`` runs: the slow, fallible work (an ingest's extraction) with no transaction open;
3. ``write`` stores or removes the rows, and the derived state is refreshed, in one transaction
   with no model call inside it (``derived.write_refined``; rows change through ``derived.replacing_book``);
4. once SQLite has committed (it is the source of truth), the vectors follow it: the titles
   that went are deleted, the title written is synced from its rows. A crash between 3 and 4
   leaves a sync note that no longer matches the book's children: ``crossbook doctor`` finds it
   and the next ingest of the book repairs it (``keep``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Generic, TypeVar

from sqlite_utils import Database

from ..storage import meta
from ..vectors.doctor import reembed, repair
from . import derived

T = TypeVar("T")
P = TypeVar("P")
EventFn = Callable[[dict], None]


def _no_event(event: dict) -> None:
    """The default event sink."""


@dataclass
class Written(Generic[T]):
    """What a ``write`` did, for the vectors that follow it: its ``value`` (returned to the
    caller), the titles whose vectors go (a deleted book, a renamed book's old title) and the
    title whose vectors are synced with its children (``children``: as just written)."""

    value: T
    gone: tuple[str, ...] = ()
    stored: str | None = None
    children: list = field(default_factory=list)


@dataclass
class Door:
    """The shelf of one index: its database, its vector store (None: SQLite only), the refiner
    of an index in 'refine' mode, where events and embedding progress go."""

    db: Database
    vectors: object | None = None
    refiner: object | None = None
    events: EventFn = _no_event
    progress: Callable | None = None

    def change(self, write: Callable[[P | None, EventFn], Written[T]],
               prepare: Callable[[], P] | None = None) -> T:
        """Steps 1-4 of this module's docstring; returns the write's value. ``write(prepared,
        emit)`` runs inside the transaction (``emit`` holds its events until it commits)."""
        if self.vectors is not None:
            self.vectors.open()
        prepared = prepare() if prepare is not None else None
        def counted(emit: EventFn) -> Written[T]:
            meta.bump_generation(self.db)
            return write(prepared, emit)

        written = derived.write_refined(self.db, self.refiner, counted, self.events)
        if self.vectors is not None:
            for title in written.gone:
                self.vectors.delete_book(title)
            if written.stored is not None:
                self.events({"event": "phase.start", "phase": "embed", "book": written.stored,
                             "children": len(written.children)})
                report = self.vectors.replace_book(self.db, written.stored, written.children, progress=self.progress)
                self.events({"event": "phase.done", "phase": "embed", "book": written.stored,
                             "embedded": getattr(report, "embedded", 0)})
        return written.value

    def keep(self, title: str, write: Callable[[], bool]) -> None:
        """A book that did not change: ``write`` (what is noted about it, in one transaction;
        it returns whether a reader sees a change, such as relationships derived again with
        another vocabulary, which then counts a generation), then its vectors are repaired if
        a crash left them behind (without opening Chroma when SQLite notes them synced)."""
        with self.db.atomic():
            if write():
                meta.bump_generation(self.db)
        if self.vectors is not None:
            self.vectors.ensure_book(self.db, title)

    def reembed(self, new) -> dict:
        """Every child chunk embedded again into ``new``'s collection (index/vectors/doctor.py):
        SQLite's rows do not change, only the vectors and the embedder the index records."""
        report = reembed(self.db, new, self.progress)
        with self.db.atomic():
            meta.bump_generation(self.db)
        return report

    def repair(self, selected: str | None = None):
        """Every drift of the vectors from SQLite fixed (index/vectors/doctor.py: ``selected``
        is the embedder the caller chose, reported when it is not the index's); counts a
        generation. Returns the ``DoctorReport`` of the check that follows."""
        report = repair(self.db, self.vectors, self.progress, selected=selected)
        with self.db.atomic():
            meta.bump_generation(self.db)
        return report

    def record(self, write: Callable[[], T]) -> T:
        """A change of what is derived, with no book's rows and no vectors (a review
        decision): ``write()`` in one transaction that counts a generation; returns its value."""
        with self.db.atomic():
            meta.bump_generation(self.db)
            return write()
