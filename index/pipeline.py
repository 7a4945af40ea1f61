"""Orchestration: ingest_books(), delete_book(), rebuild(). Each book is one transaction.

Ingest does all slow, fallible work (reading, chunking, the extractor's calls) before it
opens the write transaction, so an LLM error or Ctrl-C leaves the previous version of the
book fully in the index. The transaction replaces the book's chunks and mentions, then
re-derives entities and linker references, then garbage-collects entities.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from sqlite_utils import Database

from . import derived, llm_cache, store
from .books import BookFile, find_books, read_book
from .chunking import book_title, parent_chunks, split_sections_report
from .embed import child_splitter
from .config import Settings
from .errors import BadInput, BookNotFound, ChunksFailed, ConfigError, CrossbookError
from .extract import Extractor, ProgressFn, get_extractor, get_refiner, no_progress
from .extract.verify import ChunkText, verify_mentions
from .models import IngestResult
from .packs import DomainPack, load_pack
from .relations import derive as relations
from .relations.ontology import Ontology, ontology_for

WarnFn = Callable[[str], None]
EventFn = Callable[[dict], None]


def _no_warn(message: str) -> None:
    """The default warning sink: drop it (the CLI prints to stderr)."""


def _no_event(event: dict) -> None:
    """The default event sink (``ingest --events`` gives one that writes NDJSON)."""


@dataclass
class Ingest:
    """Everything needed to ingest books with one set of settings."""

    db: Database
    settings: Settings
    progress: ProgressFn = no_progress
    warn: WarnFn = _no_warn
    extractor: Extractor | None = None
    # the derived vector store (index/vectors.py); None = SQLite only
    vectors: object | None = None
    events: EventFn = _no_event
    # confirms offline relationship candidates in 'refine' mode (index/relations/refine.py)
    refiner: object | None = None
    pack: DomainPack = field(init=False)
    ontology: Ontology = field(init=False)

    def __post_init__(self) -> None:
        # no --pack: the pack the index was built with (issue 10: an ingest without --pack
        # silently relinked an emberfall shelf with the generic pack)
        stored = store.index_pack(self.db)
        if self.settings.pack is None:
            self.pack = stored or load_pack("generic")
        else:
            self.pack = load_pack(self.settings.pack)
            if stored is not None and stored.fingerprint != self.pack.fingerprint and store.book_titles(self.db):
                self.warn(f"pack '{self.pack.name}' replaces the index's pack '{stored.name}': "
                          "every book is relinked with it (leave out --pack to keep the index's)")
        self.ontology = ontology_for(self.settings, self.pack)
        if self.extractor is None:
            self.extractor = get_extractor(self.settings, self.pack, cache=self.db)
        if hasattr(self.extractor, "on_retry"):
            self.extractor.on_retry = self.warn  # a dead endpoint is not retried in silence
        if self.refiner is None and self.relations_mode == "refine":
            self.refiner = get_refiner(self.settings, self.ontology, cache=self.db)

    @property
    def relations_mode(self) -> str:
        """'llm' (the extractor's relationships), 'spacy' (offline, derived), 'refine' (offline
        candidates confirmed by a model) or 'off'."""
        return relations.effective_mode(self.settings.relations, self.extractor.name)

    @property
    def extractor_label(self) -> str:
        """The extractor as stored with a book: ``rules/2``, ``openai:gpt-4o-mini``. A book
        extracted under another label is re-extracted even when its file is unchanged."""
        model = self.extractor.model
        if model:
            return f"{self.extractor.name}:{model}"
        return getattr(self.extractor, "version", None) or self.extractor.name


def load_books(paths: list[Path], title: str | None) -> list[tuple[BookFile, str]]:
    """Read and check every book before anything is written; returns (file, title) pairs."""
    files = find_books(paths)
    if title is not None and len(files) != 1:
        raise BadInput(f"--book names one book, but {len(files)} files were given")
    books = []
    seen: dict[str, Path] = {}
    for path in files:
        book = read_book(path)
        book_name = title or book_title(book.text, path.stem)
        if book_name in seen:
            raise BadInput(f"'{path}' and '{seen[book_name]}' have the same title '{book_name}' (use --book)")
        seen[book_name] = path
        books.append((book, book_name))
    return books


def ingest_book(job: Ingest, book: BookFile, title: str, force: bool = False) -> IngestResult:
    """Ingest one book (add, replace, or skip when unchanged). Raises CrossbookError."""
    db, settings, pack = job.db, job.settings, job.pack
    job.events({"event": "book.start", "book": title, "path": str(book.path)})
    existing = store.get_book(db, title)
    result = IngestResult(title=title, path=str(book.path), status="updated" if existing else "added")
    if (
        existing and not force
        and existing["sha256"] == book.sha256
        and existing["extractor"] == job.extractor_label
        and existing["pack"] == pack.label
        and not existing.get("partial")
    ):
        result.status = "unchanged"
        with db.atomic():  # a new relation vocabulary re-derives the relationships, nothing else
            derived.refresh_vocabulary(db, job.ontology)
        if job.vectors is not None:
            job.vectors.ensure_book(db, title)  # repairs a crash between the SQLite and Chroma writes
        return result
    if job.vectors is not None:
        job.vectors.open()  # a Chroma that refuses fails the book before SQLite is written
    sections, repair = split_sections_report(book.text)
    if repair.warning:
        result.warnings.append(f"'{book.path}' {repair.warning}")
    if not any(s.heading for s in sections):
        result.warnings.append(f"'{book.path}' has no headings: ingested as one section")
    parents = parent_chunks(title, sections, settings.parent_tokens)
    split_children = child_splitter(settings.child_tokens, getattr(job.vectors, "embedder", None))
    children = [c for p in parents for c in split_children(p)]
    mode = job.relations_mode
    # entities defined in other books, offered to the model by id (a hint: not in the cache key)
    known = derived.known_entities(db, title, parents, pack) if mode == "llm" and job.extractor.name != "rules" else None
    job.events({"event": "phase.start", "phase": "extract", "book": title, "chunks": len(parents)})
    run = job.extractor.extract(title, parents, known=known, progress=job.progress)
    job.events({"event": "phase.done", "phase": "extract", "book": title, "llm_calls": run.llm_calls, "cache_hits": run.cache_hits})
    result.warnings.extend(run.warnings)
    if run.failed:
        if not settings.allow_partial:
            raise ChunksFailed(_failed_message(title, run.failed, len(parents)), run.failed)
        result.partial = len(run.failed)
        result.warnings.extend(f"{f.where}: stored without entities ({f.reason})" for f in run.failed)
    kept, dropped, repaired = {}, Counter(), Counter()
    claims, dropped_relations = {}, Counter()
    if mode == "llm":
        job.events({"event": "phase.start", "phase": "relation_discovery", "book": title})
    for parent, extraction in zip(parents, run.chunks, strict=True):
        if extraction is None:  # failed, stored with --allow-partial: no mentions from it
            continue
        chunk_text = ChunkText(parent.text)
        verified = verify_mentions(extraction.mentions, chunk_text, pack.type_names)
        kept[parent.id] = verified.mentions
        dropped.update(verified.dropped)
        repaired.update(verified.repaired)
        dropped.update(extraction.dropped)
        if mode == "llm":
            chunk_claims, chunk_drops = relations.prepare_claims(extraction, chunk_text)
            claims[parent.id] = chunk_claims
            dropped_relations.update(chunk_drops)
            for claim in chunk_claims:
                job.events(relations.candidate_event(title, parent.id, claim))
    if mode == "llm":
        job.events({"event": "phase.done", "phase": "relation_discovery", "book": title,
                    "candidates": sum(len(c) for c in claims.values()), "dropped": dict(dropped_relations)})
    job.progress("write", 0, 1)
    job.events({"event": "phase.start", "phase": "write", "book": title})
    with db.atomic():
        before = derived.begin_change(db, title)
        store.delete_book_rows(db, title)
        store.insert_book(
            db, title=title, path=str(book.path), sha256=book.sha256,
            extractor=job.extractor_label, pack=pack.label, model=job.extractor.model,
            drop_reasons=dict(dropped), parents=parents, children=children,
        )
        store.set_book_partial(db, title, result.partial)
        llm_cache.record_chunk_keys(db, {k: v for k, v in run.cache_keys.items()
                                         if k not in {f.chunk_id for f in run.failed}})
        store.insert_mentions(db, title, kept)
        result.relation_claims = derived.store_book_claims(db, title, claims, dropped_relations)
        store.set_index_pack(db, pack.text)
        relations.set_index_ontology(db, job.ontology)
        # the rules extractor finds references only through the linker: it is always on there
        store.set_meta(db, "link", "1" if settings.link or job.extractor.name == "rules" else "0")
        store.set_meta(db, "relations", mode)
        job.events({"event": "phase.start", "phase": "relation_normalize", "book": title})
        refine_calls = job.refiner.calls if job.refiner is not None else 0
        derived.refresh(db, pack, before, title, events=job.events, refiner=job.refiner)
        if job.refiner is not None:
            result.refine_calls = job.refiner.calls - refine_calls
        pending = derived.pending_warnings(db, title)
        # counted like `crossbook books`: the book's mentions after linking, references included
        result.mentions = db.execute("SELECT count(*) FROM entity_mentions WHERE book = ?", [title]).fetchone()[0]
        result.relationships = db.execute(
            "SELECT count(*) FROM entity_relationships WHERE book = ?", [title]).fetchone()[0]
        job.events({"event": "phase.done", "phase": "relation_normalize", "book": title,
                    "relationships": result.relationships, "pending": len(pending)})
    job.events({"event": "phase.done", "phase": "write", "book": title})
    for warning in pending:  # seed 001: a relationship whose endpoint is not found is named
        job.warn(warning)
    result.dropped_relations = sum(dropped_relations.values()) + len(pending)
    # SQLite is the source of truth and is committed first; Chroma follows it. A crash in
    # between is found by `crossbook doctor` and repaired by the next ingest of the book.
    if job.vectors is not None:
        job.vectors.replace_book(db, title, children, progress=job.progress)
    job.progress("write", 1, 1)
    result.sections = len(sections)
    result.parents = len(parents)
    result.children = len(children)
    result.dropped_mentions = sum(dropped.values())
    result.repaired_contexts = sum(repaired.values())
    result.llm_calls = run.llm_calls
    result.cache_hits = run.cache_hits
    return result


def _failed_message(title: str, failed: list, parents: int) -> str:
    shown = "; ".join(f"'{f.where}' ({f.reason})" for f in failed[:5])
    more = f"; and {len(failed) - 5} more" if len(failed) > 5 else ""
    return (f"book '{title}': {len(failed)} of {parents} chunks got no valid answer: {shown}{more}. "
            "The other answers are cached: run ingest again to retry only these, "
            "or add --allow-partial to store the book without them")


def ingest_paths(job: Ingest, paths: list[Path], title: str | None = None, force: bool = False) -> list[IngestResult]:
    """Check every path first (BadInput changes nothing), then ingest book by book. A book
    whose chunks failed extraction does not stop the others: ChunksFailed is raised at the
    end, naming every failed chunk (the books that succeeded are stored)."""
    books = load_books(paths, title)
    results, failures = [], []
    for book, name in books:
        try:
            result = ingest_book(job, book, name, force=force)
        except ChunksFailed as exc:
            failures.append(exc)
            continue
        for warning in result.warnings:
            job.warn(warning)
        results.append(result)
    if failures:
        if len(failures) == 1:
            raise failures[0]
        raise ChunksFailed(" | ".join(str(f) for f in failures), [c for f in failures for c in f.failed])
    return results


def index_refiner(db: Database, settings: Settings):
    """The refiner an index built in 'refine' mode needs to re-derive (delete-book), else None."""
    if store.get_meta(db, "relations") != "refine":
        return None
    return get_refiner(settings, relations.index_ontology(db), cache=db)


def delete_book(db: Database, title: str, vectors: object | None = None, refiner: object | None = None) -> dict:
    """Remove a book, its chunks, its mentions, what was derived from its definitions, and
    entities left with no mention, in one transaction. Raises BookNotFound. An index in
    'refine' mode needs its ``refiner`` (``index_refiner``) to re-derive what the book touched."""
    if store.get_book(db, title) is None:
        raise BookNotFound(f"book '{title}' is not in the index (see: crossbook books)")
    pack = store.index_pack(db) or load_pack("generic")
    if vectors is not None:
        vectors.open()  # a Chroma that refuses fails the delete before SQLite is written
    with db.atomic():
        entities_before = db.execute("SELECT count(*) FROM entities").fetchone()[0]
        relationships_before = db.execute("SELECT count(*) FROM entity_relationships").fetchone()[0]
        before = derived.begin_change(db, title)
        store.delete_book_rows(db, title)
        derived.refresh(db, pack, before, None, refiner=refiner)
        entities_after = db.execute("SELECT count(*) FROM entities").fetchone()[0]
        relationships_after = db.execute("SELECT count(*) FROM entity_relationships").fetchone()[0]
    if vectors is not None:
        vectors.delete_book(title)
    return {"title": title, "deleted": True, "entities_removed": entities_before - entities_after,
            "relationships_removed": relationships_before - relationships_after}


# -- rebuild from a manifest ------------------------------------------------------------------

@dataclass(frozen=True)
class ManifestBook:
    path: Path
    title: str | None


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
    out = []
    for i, entry in enumerate(books, 1):
        if not isinstance(entry, dict) or "path" not in entry:
            raise ConfigError(f"manifest '{path}': book #{i} has no path")
        out.append(ManifestBook(path.parent / entry["path"], entry.get("title")))
    return out


def rebuild(job: Ingest, manifest: Path) -> dict:
    """Reconcile the index with a manifest: add, update, delete, skip; failures are reported
    per book and do not stop the others. Returns the summary."""
    entries = read_manifest(manifest)
    summary: dict[str, list] = {k: [] for k in ("added", "updated", "deleted", "unchanged", "failed")}
    listed: set[str] = set()
    failed_paths: set[Path] = set()
    for entry in entries:
        try:
            book = read_book(entry.path) if entry.path.exists() else None
            if book is None:
                raise BadInput(f"path '{entry.path}' does not exist")
            title = entry.title or book_title(book.text, entry.path.stem)
            listed.add(title)
            result = ingest_book(job, book, title)
            for warning in result.warnings:
                job.warn(warning)
            summary[result.status].append(title)
        except CrossbookError as exc:
            # a book that failed keeps its previous version: never delete it as "unlisted"
            if entry.title:
                listed.add(entry.title)
            failed_paths.add(entry.path.resolve())
            summary["failed"].append({"path": str(entry.path), "error": str(exc)})
    for title in store.book_titles(job.db):
        stored_path = Path(store.get_book(job.db, title)["path"]).resolve()
        if title not in listed and stored_path not in failed_paths:
            delete_book(job.db, title, job.vectors, job.refiner)
            summary["deleted"].append(title)
    return summary
