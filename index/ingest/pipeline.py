"""Orchestration: ingest_books(), delete_book() (rebuild() is index/ingest/manifest.py). Each book
is one transaction.

Ingest runs in stages (``ingest_book``): plan, extract and verify, write, vectors. It does
all slow, fallible work (reading, chunking, the extractor's calls) before it opens the write
transaction, so an LLM error or Ctrl-C leaves the previous version of the book fully in the
index. The flow reads straight, each stage calling only later ones: plan (read the index,
decide, chunk), the vector store opened through the shelf's one door (index/changes/door.py), extract
and verify (every model call, no transaction open), then the book's rows (``book_rows``) handed to
``Door.store_book``, which replaces them and refreshes the derived state in one transaction with no
model call inside it (the refiner of ``--relations refine`` answers from its cache there), then
syncs the vectors. delete-book goes through the same door (``Door.remove_book``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from sqlite_utils import Database

from ..changes import derived
from ..changes.behind import VectorsBehind, books_behind
from ..changes.book_rows import BookRows
from ..changes.door import Door, StoredBook
from ..chunk.chunking import parent_chunks
from ..core.config import Settings, effective_mode
from ..core.errors import BadInput, BookNotFound, BooksSkipped, ChunksFailed, CrossbookError
from ..core.genres import genres_in_use
from ..core.models import IngestResult, Veto
from ..core.pack_option import parse_pack_option
from ..core.packs import DomainPack, load_pack, shipped_genres
from ..core.rule_guard import collecting, guarded, section_label, without_failures
from ..core.steps import EventFn, no_event, step
from ..extract import (
    ExtractionRun,
    Extractor,
    ModelExtractor,
    ProgressFn,
    VersionedExtractor,
    get_extractor,
    no_progress,
)
from ..extract.genre_choice import GenreChoice, choice_label, choose_genres
from ..extract.marks import NoteMarks
from ..extract.verify import ChunkText
from ..readers import ReadLimits, Selection, SourceBook
from ..relations.claims import prepare_claims
from ..relations.index_ontology import index_ontology
from ..relations.offline import candidate_event, load_parser
from ..relations.ontology import Ontology, ontology_for
from ..relations.refiner import Refiner
from ..storage import store
from ..storage.index_state import read_state
from ..vectors.embed import child_splitter
from ..vectors.protocol import Vectors
from . import preload
from .identity import (
    book_place,
    book_source,
    check_book_titles_unique,
    check_titles_free,
    ingest_may_take,
    kept_title,
    renamed_from,
)
from .joined import joins_folders, read_joined
from .streamed import StreamedBooks, book_files, read_each
from .unchanged import UnreadBook, file_stamp, record_stamp, stamp_is_current, stored_files

WarnFn = Callable[[str], None]


def _no_warn(message: str) -> None:
    """The default warning sink: drop it (the CLI prints to stderr)."""



@dataclass
class IngestJob:
    """Everything needed to ingest books with one set of settings."""

    db: Database
    settings: Settings
    progress: ProgressFn = no_progress
    warn: WarnFn = _no_warn
    extractor: Extractor | None = None
    # the derived vector store (index/vectors/chroma.py); None = SQLite only
    vectors: Vectors | None = None
    events: EventFn = no_event
    # confirms offline relationship candidates in 'refine' mode (index/relations/openai_refiner.py)
    refiner: Refiner | None = None
    pack: DomainPack = field(init=False)
    ontology: Ontology = field(init=False)
    # the genre packs --pack names for every book; None: chosen per book (extract/genre_choice.py)
    genres: tuple[str, ...] | None = field(init=False)
    # a run of several books: the thread that stores each written book's vectors (changes/behind.py)
    behind: VectorsBehind | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        # no --pack: the pack the index was built with (an ingest without --pack once
        # silently relinked an emberfall shelf with the generic pack)
        stored = store.index_pack(self.db)
        option = parse_pack_option(self.settings.pack)
        self.genres = option.genres
        if option.domain is None:
            self.pack = stored or load_pack("generic")
        else:
            self.pack = load_pack(option.domain)
            if stored is not None and stored.fingerprint != self.pack.fingerprint and store.book_titles(self.db):
                self.warn(f"pack '{self.pack.name}' replaces the index's pack '{stored.name}': "
                          "every book is relinked with it (leave out --pack to keep the index's)")
        self.ontology = ontology_for(self.settings, self.pack)
        if self.extractor is None:
            # relations mode 'llm': the extractor's one request per chunk also asks for relationships
            llm = effective_mode(self.settings.relations, self.settings.extractor) == "llm"
            self.extractor = get_extractor(self.settings, self.pack, cache=self.db,
                                           ontology=self.ontology if llm else None)
        if isinstance(self.extractor, ModelExtractor):
            self.extractor.on_retry = self.warn  # a dead endpoint is not retried in silence
            # no first import while its threads run
            self.extractor.before_requests = lambda: preload.before_requests(self.vectors, self.relations_mode)
        if self.refiner is None and self.relations_mode == "refine":
            from ..relations.openai_refiner import get_refiner  # noqa: PLC0415 - imports openai

            self.refiner = get_refiner(self.settings, self.ontology, cache=self.db)

    @property
    def door(self) -> Door:
        """The one door this job's changes of the shelf go through (index/changes/door.py)."""
        return Door(self.db, self.vectors, self.refiner, self.events, self.progress, self.behind)

    @property
    def relations_mode(self) -> str:
        """'llm' (the extractor's relationships), 'spacy' (offline, derived), 'refine' (offline
        candidates confirmed by a model) or 'off'."""
        return effective_mode(self.settings.relations, self.extractor.name)

    @property
    def extractor_label(self) -> str:
        """The extractor as stored with a book: ``rules/3``, ``openai:gpt-4o-mini``. A book
        extracted under another label is re-extracted even when its file is unchanged."""
        model = self.extractor.model
        if model:
            return f"{self.extractor.name}:{model}"
        if isinstance(self.extractor, VersionedExtractor):
            return self.extractor.version
        return self.extractor.name


def load_books(paths: list[Path], title: str | None, fmt: str | None = None,
               as_book: bool = False, limits: ReadLimits = ReadLimits(),
               skipped: list[tuple[Path, str]] | None = None, stored: dict[str, dict] | None = None,
               progress: ProgressFn = no_progress, selection: Selection = Selection(),
               reread: bool = False, events: EventFn = no_event) -> list[tuple[SourceBook, str]]:
    """Read and check every book before anything is written; returns (book, title) pairs.
    A file named twice (itself and in its directory) is one book. ``fmt`` reads every file
    with that format's reader; ``as_book`` reads each folder given as one book; ``limits``
    bound an archive's members; ``selection`` (--glob, --exclude) picks the files of a
    directory, and those of a folder read as one book (a doc set, a vault). Folders named
    together with a ``title`` are one book (joined.py). With ``skipped`` (a list) and several books, a book that
    cannot be read is left out and (its path, its one-line reason) appended there
    (``skipped_error`` reports them after the others are ingested). ``stored``
    (``unchanged.stored_files``): a file its stamp finds unchanged is not read (an
    ``UnreadBook`` stands in for it), unless ``reread`` (--force, --batch); and a stored
    book keeps its title (``identity.kept_title``). ``progress("read NAME", i, n)`` before
    each file is read (reading a large PDF takes a while), and ``events`` hears each read as
    the step ``read`` (a folder's pages as they are read: ingest/reading.py). Raises BadInput."""
    if joins_folders(paths, title):  # folders named together with --book: one book
        progress(f"read {', '.join(path.name for path in paths)}", 0, 1)
        joined = read_joined(paths, fmt, limits, selection)
        return [(joined, kept_title((stored or {}).get(joined.source), joined, title))]
    files = book_files(paths, title, selection, as_book)
    books = list(read_each(files, title, fmt, limits, skipped, stored, progress, selection, reread, events))
    if not books and skipped:
        raise BadInput(f"none of the {len(files)} books could be read: {skipped[0][1]}"
                       + (f" (and {len(skipped) - 1} more)" if len(skipped) > 1 else ""))
    check_book_titles_unique(books)
    return books


def skipped_error(skipped: list[tuple[Path, str]], ingested: int) -> BooksSkipped:
    """The error a run ends with when ``skipped`` books could not be read (``load_books``)
    and ``ingested`` others were: one line that names each and why."""
    books = "book" if len(skipped) == 1 else "books"
    return BooksSkipped(f"{len(skipped)} {books} could not be read and {'was' if len(skipped) == 1 else 'were'} "
                        f"skipped (the other {ingested} {'is' if ingested == 1 else 'are'} in the index): "
                        + "; ".join(reason for _, reason in skipped), [str(path) for path, _ in skipped])


@dataclass
class BookPlan:
    """A book read and chunked, before any call or write (``plan_book``)."""

    book: SourceBook
    result: IngestResult
    sections: list = field(default_factory=list)
    parents: list = field(default_factory=list)
    known: dict | None = None
    pending: object | None = None  # its requests in the extractor's shared pool (ingest_all)
    genres: GenreChoice = GenreChoice(())  # the genre packs that apply to it
    children: list = field(default_factory=list)  # its parents' child chunks, sized for the embedder

    @property
    def unchanged(self) -> bool:
        return self.result.status == "unchanged"


def plan_book(job: IngestJob, book: SourceBook, title: str, force: bool = False) -> BookPlan:
    """Decide whether ``book`` changed and cut it into parent chunks and their children (the
    step ``plan``, told as it goes: the parents, then the children of each, sized in the
    embedder's tokens); reads the index, writes nothing."""
    db, settings, pack = job.db, job.settings, job.pack
    existing = store.get_book(db, title)
    # a renamed book (its file stored under another title) is changed; which book it
    # replaces is decided again when it is written (an earlier book may take that title)
    renamed = renamed_from(db, book_source(book), title) is not None
    result = IngestResult(title=title, path=book_place(book), status="updated" if existing or renamed else "added")
    plan = BookPlan(book, result)
    if (
        existing and not force and not renamed
        and existing["sha256"] == book.sha256
        and existing["extractor"] == job.extractor_label
        and existing["pack"] == pack.label
        and existing.get("genre_choice") == choice_label(shipped_genres(), job.genres)
        and not existing.get("partial")
    ):
        result.status = "unchanged"
        return plan
    if isinstance(book, UnreadBook):  # unchanged on disk, but changed for the index (extractor, pack)
        book = plan.book = book.read()
    plan.sections = list(book.sections)
    # counted in sections, known from the start: a long book's genres and parents take seconds
    with step(job.events, "plan", title, len(plan.sections), "sections") as tally:
        plan.genres = choose_genres(book.format, plan.sections, shipped_genres(), job.genres)
        result.warnings.extend(book.warnings)
        plan.parents = parent_chunks(title, plan.sections, settings.parent_tokens)
        split_children = child_splitter(settings.child_tokens, getattr(job.vectors, "embedder", None),
                                        situating=isinstance(job.extractor, ModelExtractor) and job.extractor.situates)
        done = 0
        for parent in plan.parents:
            plan.children.extend(split_children(parent))
            done += parent.part == 0  # a section's first part: the next section
            tally(min(done, len(plan.sections)))
        if done < len(plan.sections):  # a section with no text makes no parent
            tally(len(plan.sections))
        tally.fields.update(sections=len(plan.sections), parents=len(plan.parents), children=len(plan.children))
    # entities defined in other books, offered to the model by id (a hint: not in the cache key)
    if job.relations_mode == "llm" and job.extractor.name != "rules":
        plan.known = derived.known_entities(db, title, plan.parents, pack)
    return plan


def ingest_book(job: IngestJob, book: SourceBook, title: str, force: bool = False,
                plan: BookPlan | None = None) -> IngestResult:
    """Ingest one book (add, replace, or skip when unchanged). Raises CrossbookError.
    ``plan``: the book as ``plan_book`` left it, its requests possibly under way.

    The stages: plan (``plan_book``: read the index, decide, chunk), the door opened (its
    vector store), extract and verify (``extract_book``: every model call), then the door
    stores the book's rows (``book_rows``: one transaction) and syncs its vectors. A reader's
    book (index/readers) comes in before plan."""
    job.events({"event": "book.start", "book": title, "path": book_place(book)})
    plan = plan or plan_book(job, book, title, force)
    if plan.unchanged:
        keep_unchanged(job, plan, title)
        return plan.result
    door = job.door
    door.open()  # a vector store that refuses fails the book before any model call
    refine_calls = job.refiner.calls if job.refiner is not None else 0
    extracted = extract_book(job, plan, title)
    with collecting() as failures:  # a linking or relationship rule that raised on a chunk
        stored = door.store_book(book_rows(job, plan, extracted, title), index_settings(job))
    plan.result.warnings.extend(failure.line() for failure in failures)
    if job.refiner is not None:
        plan.result.refine_calls = job.refiner.calls - refine_calls
    for warning in stored.pending:  # a relationship whose endpoint is not found is named
        job.warn(warning)
    return _summed(plan, extracted, stored)


def keep_unchanged(job: IngestJob, plan: BookPlan, title: str) -> None:
    """An unchanged book: note where its file is now, re-derive the relationships when the
    relation vocabulary changed (nothing else), and repair its vectors if a crash left them behind."""
    db, source = job.db, book_source(plan.book)

    def note() -> bool:
        if store.get_book(db, title)["source"] != source:  # the file moved (or predates sources)
            store.set_book_source(db, title, source, source)
        if not stamp_is_current(db, title, plan.book.path):  # the next run skips it without reading it
            record_stamp(db, title, plan.book)
        return derived.refresh_vocabulary(db, job.ontology)  # relationships derived again: a change

    job.door.keep(title, note)


@dataclass
class ExtractedBook:
    """A book's extraction, verified against its text: what ``book_rows`` hands to the door."""

    run: ExtractionRun
    children: list
    kept: dict = field(default_factory=dict)
    dropped: Counter = field(default_factory=Counter)
    repaired: Counter = field(default_factory=Counter)
    claims: dict = field(default_factory=dict)
    dropped_relations: Counter = field(default_factory=Counter)
    vetoes: list = field(default_factory=list)  # the extractor's and the marks' vetoes (core.models.Veto)


def extract_book(job: IngestJob, plan: BookPlan, title: str) -> ExtractedBook:
    """Every slow, fallible step before the write: the extractor's calls (or the answers of
    requests already under way), verification of mentions and claims against the chunk
    text, and spaCy's model. Raises ChunksFailed (without --allow-partial)."""
    with genres_in_use(plan.genres.genres):  # only the book's genres' words apply to it
        extracted = ExtractedBook(_extraction_run(job, plan, title), plan.children)
        _verify(job, plan, extracted, title)
    # seconds: before the write transaction, not inside it; never for a book no genre of which reads prose
    load_parser(job.relations_mode, plan.genres.genres, any_genre=False)
    return extracted


def _extraction_run(job: IngestJob, plan: BookPlan, title: str) -> ExtractionRun:
    """The extractor's answers for the book's chunks; failed chunks stop it unless partial books are allowed."""
    parents, result = plan.parents, plan.result
    with step(job.events, "extract", title, len(parents), "chunks") as tally:
        def progress(phase: str, done: int, total: int) -> None:
            job.progress(phase, done, total)
            tally(done, total)

        if plan.pending is not None:
            run = job.extractor.wait(plan.pending, progress=progress)
        else:
            run = job.extractor.extract(title, parents, known=plan.known, progress=progress)
        tally.fields.update(llm_calls=run.llm_calls, cache_hits=run.cache_hits)
    result.warnings.extend(run.warnings)
    if run.failed:
        if not job.settings.allow_partial:
            raise ChunksFailed(_failed_message(title, run.failed, len(parents)), run.failed)
        result.partial = len(run.failed)
        result.warnings.extend(f"{f.where}: stored without entities ({f.reason})" for f in run.failed)
    return run


def _verify(job: IngestJob, plan: BookPlan, extracted: ExtractedBook, title: str) -> None:
    """Keep the mentions (and in 'llm' mode the relationship claims) the chunk text bears out."""
    llm = job.relations_mode == "llm"
    if llm:
        job.events({"event": "phase.start", "phase": "relation_discovery", "book": title})
    with step(job.events, "verify", title, len(plan.parents), "chunks") as tally:
        marks = _note_marks(job, plan, extracted.run.chunks, title)  # a vault's exact definitions and links
        for done, (parent, extraction) in enumerate(zip(plan.parents, extracted.run.chunks, strict=True), 1):
            tally(done)
            if extraction is not None:  # failed, stored with --allow-partial: no mentions from it
                _verify_chunk(job, plan, extracted, title, parent, extraction, marks)
    if llm:
        job.events({"event": "phase.done", "phase": "relation_discovery", "book": title,
                    "candidates": sum(len(c) for c in extracted.claims.values()),
                    "dropped": dict(extracted.dropped_relations)})


def _verify_chunk(job: IngestJob, plan: BookPlan, extracted: ExtractedBook, title: str, parent, extraction,
                  marks: NoteMarks) -> None:
    """One chunk's mentions (and claims) checked against its text, kept in ``extracted``."""
    llm = job.relations_mode == "llm"
    chunk_text = ChunkText(parent.text)
    with guarded(title, section_label(parent.heading_path, parent.id), warnings=plan.result.warnings):  # costs this chunk only
        verified = marks.verify(parent, extraction.mentions, chunk_text)
        extracted.kept[parent.id] = verified.mentions
        extracted.dropped.update(verified.dropped)
        extracted.repaired.update(verified.repaired)
        extracted.vetoes.extend(Veto(parent.id, "guesses", name, rule) for name, rule in verified.vetoed)
    extracted.dropped.update(extraction.dropped)
    if llm:
        chunk_claims, chunk_drops = prepare_claims(extraction, chunk_text)
        extracted.claims[parent.id] = chunk_claims
        extracted.dropped_relations.update(chunk_drops)
        for claim in chunk_claims:
            job.events(candidate_event(title, parent.id, claim))


def _note_marks(job: IngestJob, plan: BookPlan, extractions: list, title: str) -> NoteMarks:
    """The book's marks (extract/marks.py); a chunk whose marks raise is left out of them."""
    def attempt(at: list[int]) -> NoteMarks:
        return NoteMarks(job.pack, [plan.parents[i] for i in at], [extractions[i] for i in at])

    marks, _ = without_failures(range(len(plan.parents)), attempt, title,
                                lambda i: section_label(plan.parents[i].heading_path, plan.parents[i].id),
                                plan.result.warnings)
    return marks


def index_settings(job: IngestJob) -> derived.IndexSettings:
    """The index settings a book is stored under; the rules extractor finds references only
    through the linker: it is always on there."""
    return derived.IndexSettings(job.pack, job.settings.link or job.extractor.name == "rules", job.relations_mode,
                                 job.ontology)


def book_rows(job: IngestJob, plan: BookPlan, extracted: ExtractedBook, title: str) -> BookRows:
    """The book's own rows, as the door stores them: the book, its chunks, mentions,
    situating contexts and claims, the cache keys of its answers and its file's stamp."""
    run, book = extracted.run, plan.book
    failed = {f.chunk_id for f in run.failed}
    return BookRows(
        title=title, source=book_source(book), sha256=book.sha256, extractor=job.extractor_label,
        pack=job.pack.label, model=job.extractor.model, fmt=book.format, parents=plan.parents,
        children=extracted.children, pages_without_text=book.pages_without_text, partial=plan.result.partial,
        stamp=file_stamp(book), cache_keys={k: v for k, v in run.cache_keys.items() if k not in failed},
        mentions=extracted.kept, drop_reasons=dict(extracted.dropped),
        situating={p.id: e.situating_context for p, e in zip(plan.parents, run.chunks)
                   if e is not None and e.situating_context},
        claims=extracted.claims, dropped_relations=dict(extracted.dropped_relations),
        vetoes=[v for v in (*run.vetoes, *extracted.vetoes) if v.chunk_id not in failed],
        genres=plan.genres.genres, genre_signals=plan.genres.signals, genre_choice=plan.genres.label)


def _summed(plan: BookPlan, extracted: ExtractedBook, stored: StoredBook) -> IngestResult:
    """The result's counts from every stage."""
    result = plan.result
    if stored.previous_title is not None:
        result.status, result.renamed_from = "updated", stored.previous_title
    result.mentions, result.relationships = stored.mentions, stored.relationships
    result.situating_contexts, result.relation_claims = stored.situating_contexts, stored.relation_claims
    result.dropped_relations = sum(extracted.dropped_relations.values()) + len(stored.pending)
    result.sections = len(plan.sections)
    result.parents = len(plan.parents)
    result.children = len(extracted.children)
    result.dropped_mentions = sum(extracted.dropped.values())
    result.repaired_contexts = sum(extracted.repaired.values())
    result.llm_calls = extracted.run.llm_calls
    result.cache_hits = extracted.run.cache_hits
    return result


def _failed_message(title: str, failed: list, parents: int) -> str:
    shown = "; ".join(f"'{f.where}' ({f.reason})" for f in failed[:5])
    more = f"; and {len(failed) - 5} more" if len(failed) > 5 else ""
    return (f"book '{title}': {len(failed)} of {parents} chunks got no valid answer: {shown}{more}. "
            "The other answers are cached: run ingest again to retry only these, "
            "or add --allow-partial to store the book without them")


def ingest_paths(job: IngestJob, paths: list[Path], title: str | None = None, force: bool = False,
                 fmt: str | None = None, as_book: bool = False) -> list[IngestResult]:
    """Check every path first (BadInput changes nothing), then ingest book by book. A book
    whose chunks failed extraction does not stop the others: ChunksFailed is raised at the
    end, naming every failed chunk (the books that succeeded are stored)."""
    books = load_books(paths, title, fmt, as_book, ReadLimits.of(job.settings), stored=stored_files(job.db),
                       reread=force)
    return ingest_books(job, books, force)


def ingest_books(job: IngestJob, books: list[tuple[SourceBook, str]] | StreamedBooks,
                 force: bool = False) -> list[IngestResult]:
    """``ingest_paths`` for books already read (``load_books``), or read one at a time as
    each is written (``StreamedBooks``: each book's title is checked as it is read)."""
    several = len(books) > 1  # each book's vectors are then stored behind the next book's write
    if isinstance(books, StreamedBooks):
        books = books.books(job.db, job.progress, job.events)
    else:
        check_titles_free(job.db, books, ingest_may_take({book_source(book) for book, _ in books}))
    results, failures = [], []

    def on_book(position: int, outcome: IngestResult | CrossbookError) -> None:
        if isinstance(outcome, ChunksFailed):
            failures.append(outcome)
        elif isinstance(outcome, CrossbookError):
            raise outcome
        else:
            for warning in outcome.warnings:
                job.warn(warning)
            results.append(outcome)

    ingest_all(job, books, on_book, force=force, behind=several)
    if failures:
        if len(failures) == 1:
            raise failures[0]
        raise ChunksFailed(" | ".join(str(f) for f in failures), [c for f in failures for c in f.failed])
    return results


def ingest_all(job: IngestJob, books: Iterable[tuple[SourceBook, str]],
               on_book: Callable[[int, IngestResult | CrossbookError], None], force: bool = False,
               behind: bool = False) -> None:
    """Ingest ``books`` in their order, one write transaction each, calling ``on_book(position,
    result or the CrossbookError it raised)`` after each (raising there stops the run). Each
    book is let go once written, so books read as they are asked for (``StreamedBooks``) are
    not all held at once.

    With an extractor that pools its requests (``start``/``wait``: openai), every changed
    book's requests are sent first into one shared pool, so later books' requests run while
    an earlier book waits for its last answer or is written. Entities offered to the model as
    known are then those of the index as the run found it. When the run stops on an error,
    requests not yet sent are dropped and those under way are waited for and cached; on
    Ctrl-C nothing is waited for."""
    pooled = job.extractor if isinstance(job.extractor, ModelExtractor) else None
    start = pooled.start if pooled is not None else None
    plans: list[BookPlan | CrossbookError | None] = []
    try:
        if start is not None:
            books = list(books)
            plans = [None] * len(books)
            for i, (book, title) in enumerate(books):
                try:
                    plan = plans[i] = plan_book(job, book, title, force)
                    if not plan.unchanged:
                        plan.pending = start(title, plan.parents, plan.known)
                except CrossbookError as exc:
                    plans[i] = exc
        # several books: each one's vectors stored by a thread while the next is read and written
        with books_behind(job.db, job.vectors if behind else None, job.events) as job.behind:
            _write_each(job, books, plans, on_book, force)
    except Exception:
        if pooled is not None:
            pooled.settle()   # the answers of requests already sent are cached, not lost
        raise
    finally:
        job.behind = None
        if pooled is not None:
            pooled.close()


def _write_each(job: IngestJob, books: Iterable[tuple[SourceBook, str]], plans: list,
                on_book: Callable[[int, IngestResult | CrossbookError], None], force: bool) -> None:
    """``ingest_all``'s loop: each book ingested in turn (``plans``: its plan, or the error
    planning it met, when its requests were sent first), ``on_book`` told of each."""
    for i, (book, title) in enumerate(books):
        plan = plans[i] if plans else None
        if plans:
            plans[i] = None
        if isinstance(plan, CrossbookError):
            on_book(i, plan)
            continue
        try:
            outcome = ingest_book(job, book, title, force=force, plan=plan)
        except CrossbookError as exc:
            outcome = exc
        book = plan = None  # not held while the next book is read
        on_book(i, outcome)


def index_refiner(db: Database, settings: Settings):
    """The refiner an index built in 'refine' mode needs to re-derive (delete-book), else None."""
    if read_state(db).relations_mode != "refine":
        return None
    from ..relations.openai_refiner import get_refiner  # noqa: PLC0415 - imports openai

    return get_refiner(settings, index_ontology(db), cache=db)


def delete_book(db: Database, title: str, vectors: object | None = None, refiner: object | None = None) -> dict:
    """Remove a book, its chunks, its mentions, what was derived from its definitions, and
    entities left with no mention, in one transaction. Raises BookNotFound. An index in
    'refine' mode needs its ``refiner`` (``index_refiner``) to re-derive what the book touched."""
    if store.get_book(db, title) is None:
        raise BookNotFound(f"book '{title}' is not in the index (see: crossbook books)")
    pack = store.index_pack(db) or load_pack("generic")
    entities_removed, relationships_removed = Door(db, vectors, refiner).remove_book(title, pack)
    return {"title": title, "deleted": True, "entities_removed": entities_removed,
            "relationships_removed": relationships_removed}
