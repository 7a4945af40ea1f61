"""Whether a vector query could see every book it searched: a book left without its
vectors (an ingest stopped between its SQLite commit and its embedding) finds nothing, and
"no sections found" would then be a wrong answer."""

from __future__ import annotations

from sqlite_utils import Database

from ..core.errors import VectorsMissing
from ..vectors.chroma import unsynced_books


def books_without_vectors(db: Database, books: tuple[str, ...] = ()) -> list[str]:
    """The titles among ``books`` (every book when empty) whose vectors are not all there."""
    return sorted(unsynced_books(db, tuple(books)) or ())


def vectors_missing_message(titles: list[str]) -> str:
    named = ", ".join(f"'{t}'" for t in titles[:5]) + (f" and {len(titles) - 5} more" if len(titles) > 5 else "")
    return (f"{'book' if len(titles) == 1 else 'books'} {named} {'is' if len(titles) == 1 else 'are'} missing"
            " vectors (an ingest stopped before embedding them); run: crossbook doctor --repair")


def check_vectors(db: Database, books: tuple[str, ...], found: int) -> list[str]:
    """After a vector query over ``books`` (every book when empty) that found ``found``
    sections: the searched books missing vectors. Raises VectorsMissing when nothing was
    found and some are, so the answer is the fix, not an empty result."""
    missing = books_without_vectors(db, books)
    if missing and not found:
        raise VectorsMissing(vectors_missing_message(missing))
    return missing
