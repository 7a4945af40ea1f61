"""The genre packs chosen for each stored book (``books.genres``, m015): written with the
book, read by the passes that work on several books' chunks at once (linking, relationship
patterns), so that each chunk is read with its own book's genres (core/genres.py)."""

from __future__ import annotations

import json

from sqlite_utils import Database


def set_book_genres(db: Database, title: str, genres: tuple[str, ...] | None, signals: dict[str, list[str]],
                    choice: str) -> None:
    """Record ``title``'s genres (None: every genre), the signals that chose them and how."""
    db.execute("UPDATE books SET genres = ?, genre_signals = ?, genre_choice = ? WHERE title = ?",
               [None if genres is None else json.dumps(list(genres)), json.dumps(signals, sort_keys=True),
                choice, title])


def _parsed(value: str | None) -> frozenset[str] | None:
    return None if value is None else frozenset(json.loads(value))


def books_genres(db: Database) -> dict[str, frozenset[str] | None]:
    """Every book's genres by title (None: every genre applies to it)."""
    return {title: _parsed(genres) for title, genres in db.execute("SELECT title, genres FROM books")}


def genre_summary(row: dict) -> dict:
    """A ``books`` row's genres as listed (``crossbook books --json``): the genres and why."""
    genres = row.get("genres")
    return {"genres": None if genres is None else json.loads(genres),
            "genre_signals": json.loads(row.get("genre_signals") or "{}"),
            "genre_choice": row.get("genre_choice") or ""}
