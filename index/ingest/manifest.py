"""Rebuild from a manifest: the [[books]] of a crossbook.toml are read, ingested (added,
updated, a file whose title changed renames its book) and the books it no longer lists
deleted, each book through index/ingest/pipeline.py. An entry names one file or folder
(``path = "..."``) or several folders that are one book (``paths = [...]``, joined.py)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import BadInput, ConfigError, CrossbookError
from ..core.models import IngestResult
from ..core.steps import no_event
from ..extract import ProgressFn, no_progress
from ..readers import ReadLimits, Selection, SourceBook
from ..storage import store
from .identity import MANIFEST_RETITLE, check_titles_free, check_unique_titles, kept_title, source_of
from .joined import joined_source, read_joined
from .pipeline import IngestJob, delete_book, ingest_all
from .reading import read_told
from .unchanged import stored_files, unread_book


@dataclass(frozen=True)
class ManifestBook:
    path: Path                 # its file or folder; of several folders (``parts``), the first
    title: str | None
    format: str | None = None  # a reader's name (index/readers); None: found from the file
    parts: tuple[Path, ...] = ()  # the folders of a book of several (``paths = [...]``)

    @property
    def source(self) -> str:
        """The identity of the book it names (identity.py, joined.py)."""
        return joined_source(self.parts) if self.parts else source_of(self.path)

    @property
    def place(self) -> str:
        return ", ".join(str(part) for part in self.parts) if self.parts else str(self.path)


def read_manifest(path: Path) -> list[ManifestBook]:
    """The [[books]] of a crossbook.toml (paths relative to it); raises ConfigError."""
    if not path.is_file():
        raise ConfigError(f"manifest '{path}' does not exist (give the path to a crossbook.toml)")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"manifest '{path}' is not valid TOML ({exc})") from None
    books = data.get("books")
    if not isinstance(books, list) or not books:
        raise ConfigError(f"manifest '{path}' lists no [[books]] (each needs path = ...)")
    return [_entry(path, i, entry) for i, entry in enumerate(books, 1)]


def _entry(manifest: Path, number: int, entry: object) -> ManifestBook:
    """The ``number``-th [[books]] entry: ``path = "..."``, or ``paths = [...]`` (two folders
    or more); raises ConfigError."""
    if not isinstance(entry, dict) or ("path" not in entry and "paths" not in entry):
        raise ConfigError(f"manifest '{manifest}': book #{number} has no path")
    if "path" in entry and "paths" in entry:
        raise ConfigError(f"manifest '{manifest}': book #{number} gives both path and paths (keep one)")
    if "path" in entry:
        return ManifestBook(manifest.parent / entry["path"], entry.get("title"), entry.get("format"))
    paths = entry["paths"]
    if not isinstance(paths, list) or len(paths) < 2 or not all(isinstance(p, str) for p in paths):
        raise ConfigError(f"manifest '{manifest}': book #{number}'s paths is not a list of two folders or more"
                          " (one is path = \"...\")")
    parts = tuple(manifest.parent / p for p in paths)
    return ManifestBook(parts[0], entry.get("title"), entry.get("format"), parts)


def read_manifest_books(entries: list[ManifestBook], limits: ReadLimits = ReadLimits(),
                        stored: dict[str, dict] | None = None, progress: ProgressFn = no_progress,
                        events=None) -> tuple[list[tuple[int, SourceBook, str]], dict[int, CrossbookError]]:
    """Read each entry's book (an archive's members held to ``limits``): (position, book,
    title) of those read, and the error of each other position. ``stored``
    (``unchanged.stored_files``): a file its stamp finds unchanged is not read;
    ``progress("read NAME", i, n)`` before a file is read, and ``events`` hears each read as
    the step ``read`` (ingest/reading.py)."""
    readable, unreadable = [], {}
    for n, entry in enumerate(entries):
        try:
            book = unread_book(stored, entry.path, entry.title, entry.format, limits) if stored and not entry.parts \
                else None
            if book is None:
                progress(f"read {entry.path.name}", n, len(entries))
                book = read_joined(list(entry.parts), entry.format, limits) if entry.parts else \
                    read_told(entry.path, entry.format, limits, Selection(), events or no_event)
            readable.append((n, book, kept_title((stored or {}).get(entry.source), book, entry.title)))
        except CrossbookError as exc:
            unreadable[n] = exc
    return readable, unreadable


def rebuild(job: IngestJob, manifest: Path) -> dict:
    """Reconcile the index with a manifest: add, update (a file whose title changed renames
    its book), delete, skip. Two entries with one file or one title raise BadInput before
    anything changes. A book that fails is reported, does not stop the others, and keeps its
    previous version: it is never deleted as unlisted. Returns the summary."""
    entries = read_manifest(manifest)
    summary: dict[str, list] = {k: [] for k in ("added", "updated", "deleted", "unchanged", "failed")}
    _check_distinct_files(manifest, entries)
    readable, unreadable = read_manifest_books(entries, ReadLimits.of(job.settings), stored_files(job.db),
                                               job.progress, job.events)
    failed_sources = {entries[n].source for n in unreadable}
    titled = [(title, entries[n].place) for n, _, title in readable]
    titled += [(entries[n].title, entries[n].place) for n in unreadable if entries[n].title]
    check_unique_titles(titled, MANIFEST_RETITLE)
    listed = {title for title, _ in titled}
    outcomes: dict[int, IngestResult | CrossbookError] = dict(unreadable)
    to_ingest: list[tuple[int, SourceBook, str]] = []
    for n, book, title in readable:
        try:
            # the manifest is the truth: any book gives up its title, but one whose file failed
            check_titles_free(job.db, [(book, title)], lambda holder: holder["source"] not in failed_sources,
                              MANIFEST_RETITLE)
            to_ingest.append((n, book, title))
        except CrossbookError as exc:
            outcomes[n] = exc

    def on_book(position: int, outcome: IngestResult | CrossbookError) -> None:
        outcomes[to_ingest[position][0]] = outcome
        if isinstance(outcome, IngestResult):
            for warning in outcome.warnings:
                job.warn(warning)

    ingest_all(job, [(book, title) for _, book, title in to_ingest], on_book)
    for n, entry in enumerate(entries):
        outcome = outcomes[n]
        if isinstance(outcome, IngestResult):
            summary[outcome.status].append(outcome.title)
            continue
        failed_sources.add(entry.source)
        summary["failed"].append({"path": entry.place, "error": str(outcome)})
    for title, source in store.book_sources(job.db).items():
        # a book stored before sources were recorded may be the file that failed: kept
        unknown = source is None and summary["failed"]
        if title not in listed and source not in failed_sources and not unknown:
            delete_book(job.db, title, job.vectors, job.refiner)
            summary["deleted"].append(title)
    return summary


def _check_distinct_files(manifest: Path, entries: list[ManifestBook]) -> None:
    """A file or folder is in one book: a manifest that lists one twice (alone, or among an
    entry's ``paths``) is rejected (BadInput)."""
    seen: dict[str, Path] = {}
    for entry in entries:
        for path in entry.parts or (entry.path,):
            source = source_of(path)
            if source in seen:
                raise BadInput(f"manifest '{manifest}' lists the file '{source}' twice "
                               f"('{seen[source]}' and '{path}'): a file is one book, keep one entry")
            seen[source] = path
