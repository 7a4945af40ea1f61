"""Whether a vector query could see every book it searched: a book left without its
vectors (an ingest stopped between its SQLite commit and its embedding) finds nothing, and
"no sections found" would then be a wrong answer."""

from __future__ import annotations

from typing import Callable

from sqlite_utils import Database

from ..core.errors import VectorsMissing
from ..storage.lock import describe
from ..vectors.sync_notes import unsynced_books


def books_without_vectors(db: Database, books: tuple[str, ...] = ()) -> list[str]:
    """The titles among ``books`` (every book when empty) whose vectors are not all there."""
    return sorted(unsynced_books(db, tuple(books)) or ())


def vectors_missing_message(titles: list[str], writer: dict | None = None) -> str:
    """What to say of ``titles`` missing vectors: an ingest still writing them (``writer``, the
    lock's holder) is waited for; one that stopped before embedding them is repaired."""
    named = ", ".join(f"'{t}'" for t in titles[:5]) + (f" and {len(titles) - 5} more" if len(titles) > 5 else "")
    missing = f"vectors missing for {len(titles)} {'book' if len(titles) == 1 else 'books'} ({named})"
    if writer is not None:
        return f"{missing}: a writer is at work on the index ({describe(writer)}); ask again when it has finished"
    return f"{missing}: an ingest stopped before embedding them; run: crossbook doctor --repair"


def check_vectors(db: Database, books: tuple[str, ...], found: int,
                  writer: Callable[[], dict | None] = lambda: None) -> tuple[list[str], str]:
    """After a vector query over ``books`` (every book when empty) that found ``found``
    sections: the searched books missing vectors, and the message that names them (``writer()``
    is the lock's holder, asked only when some are missing). Raises VectorsMissing when
    nothing was found and some are, so the answer is the fix, not an empty result."""
    missing = books_without_vectors(db, books)
    if not missing:
        return [], ""
    message = vectors_missing_message(missing, writer())
    if not found:
        raise VectorsMissing(message)
    return missing, message
