"""The vector-store seam: what the shelf's door writes through and what search and retrieval
read. chroma.VectorStore is the one implementation; ``Door.vectors`` and ``IngestJob.vectors``
hold any object of this shape (None: SQLite only), so a test or another store can stand in."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol, runtime_checkable

from sqlite_utils import Database

if TYPE_CHECKING:
    from .children import SyncReport
    from .chroma import VectorHit
    from .embed import Embedder


@runtime_checkable
class Vectors(Protocol):
    """One index's vectors for one embedder, derived from SQLite's child chunks."""

    embedder: Embedder

    def open(self) -> None:
        """Connect now: a store that refuses fails the change before SQLite is written."""

    def close(self) -> None:
        ...

    def replace_book(self, db: Database, title: str, children: list,
                     progress: Callable | None = None) -> SyncReport:
        """``title``'s vectors made those of ``children`` (as just written), noted synced."""

    def ensure_book(self, db: Database, title: str) -> SyncReport:
        """Repair ``title``'s vectors if a crash left them behind its rows."""

    def delete_book(self, title: str) -> None:
        ...

    def query(self, texts: list[str], k: int, books: tuple[str, ...] = (),
              embeddings: list[list[float]] | None = None) -> list[list[VectorHit]]:
        """The ``k`` nearest child chunks of each text, optionally only in ``books``."""

    def similarities(self, query_vector: list[float], child_ids: list[str]) -> dict[str, float]:
        """Cosine similarity of ``query_vector`` to each stored child of ``child_ids``."""
