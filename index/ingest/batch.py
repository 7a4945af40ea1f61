"""``ingest --batch``: ask the OpenAI Batch API for every parent chunk whose answer is not in
the LLM cache, then ingest the books from the cache as usual (0 further requests).

The books are read and chunked first, and each chunk's prompt and cache key are built by the
openai extractor itself, so a batch answer is cached under the very key the synchronous path
looks up. Chunks already waiting in a batch that is not collected yet are not submitted
again: that batch is waited for instead, so running ``ingest --batch`` again after
``--no-wait`` resumes. Chunks a batch answered invalidly are left to the synchronous path.

With several books, the known entities offered in a prompt (relations mode 'llm') are those
already in the index when the batch is submitted: a book of the same run is not offered to
another, as it is when books are ingested one after another. They are a hint, not part of
the cache key.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..changes import derived
from ..chunk.chunking import parent_chunks
from ..core.config import Settings
from ..core.errors import BatchFailed, ConfigError
from ..core.models import IngestResult
from ..extract import batch
from ..extract.batch import BatchReport, BatchRequest
from ..extract.openai_extractor import known_to_json
from ..extract.prompt import PROMPT_VERSION
from ..readers import ReadLimits, SourceBook
from ..storage import store
from .pipeline import IngestJob, ingest_books, load_books


@dataclass
class BatchIngest:
    """What ``ingest --batch`` did: the batches it submitted or waited for, and the books
    ingested (None with ``wait=False`` while a batch runs: submitted, not ingested)."""

    batches: list[BatchReport] = field(default_factory=list)
    submitted: int = 0          # requests sent in new batches
    cached: int = 0             # chunks whose answer was cached already
    results: list[IngestResult] | None = None

    def to_dict(self) -> dict:
        return {"batches": [b.to_dict() for b in self.batches], "submitted": self.submitted, "cached": self.cached}


def check_batch_settings(settings: Settings) -> None:
    """Raise ConfigError unless the settings can use the Batch API (the openai extractor)."""
    if settings.extractor != "openai":
        raise ConfigError("--batch sends the chunks to a model: it needs --extractor openai")


def plan(job: IngestJob, books: list[tuple[SourceBook, str]]) -> tuple[list[BatchRequest], set[str], int]:
    """The requests to submit for ``books`` (as ``load_books`` read them: chunks with no
    cached answer, not waiting in a batch, not left to the synchronous path), the batches to
    wait for, and how many chunks are cached."""
    extractor = job.extractor
    wanted: list[BatchRequest] = []
    cached = 0
    for book, name in books:
        parents = parent_chunks(name, list(book.sections), job.settings.parent_tokens)
        # the key leaves out the known-entity hint: find the uncached chunks before the hint
        # is computed (a linker over the whole index), so a cached book costs no linker
        uncached = [p for p in parents if store.cache_get(job.db, extractor.chunk_request(name, p)[1]) is None]
        cached += len(parents) - len(uncached)
        known = None
        if uncached and job.relations_mode == "llm":
            known = derived.known_entities(job.db, name, uncached, job.pack)
        for parent in uncached:
            messages, key, offered = extractor.chunk_request(name, parent, known)
            wanted.append(BatchRequest(
                custom_id=key, book=name, path=str(book.path), chunk_id=parent.id,
                section=f"{name}: {parent.path_str or '(before the first heading)'}",
                body=extractor.request_body(messages), known=known_to_json(offered)))
    keys = [r.custom_id for r in wanted]
    waiting = batch.waiting_batches(job.db, keys)
    synchronous = batch.invalid_answers(job.db, keys)
    todo = [r for r in wanted if r.custom_id not in waiting and r.custom_id not in synchronous]
    return todo, set(waiting.values()), cached


def ingest_through_batch(job: IngestJob, paths: list[Path], title: str | None = None, force: bool = False,
                         wait: bool = True, sleep: Callable[[float], None] = time.sleep,
                         books: list[tuple[SourceBook, str]] | None = None) -> BatchIngest:
    """Submit the uncached chunks of ``paths`` as Batch API batches (or find them waiting in
    earlier ones). ``wait=False``: return once submitted, unless no batch is running. Else poll every
    ``settings.batch_poll`` seconds until the batches end, collect their answers into the
    cache, warn about the chunks answered invalidly (the synchronous path asks them again)
    and ingest the books. Raises BatchFailed when a batch failed, expired or was cancelled
    before answering (its answers are cached; nothing else is written), ExtractionFailed
    when the endpoint refuses the batch calls. ``books``: ``paths`` already read (``load_books``),
    so each book is read once."""
    check_batch_settings(job.settings)
    extractor = job.extractor
    books = load_books(paths, title, limits=ReadLimits.of(job.settings)) if books is None else books
    requests, waiting, cached = plan(job, books)
    client = extractor.client.with_options(max_retries=job.settings.max_retries)
    secret = job.settings.api_key
    outcome = BatchIngest(submitted=len({r.custom_id for r in requests}), cached=cached)
    ids = [batch_id for batch_id in batch.batch_ids(job.db, uncollected=True) if batch_id in waiting]
    if requests:
        new = batch.submit(job.db, client, requests, endpoint=extractor.endpoint, model=extractor.model,
                           prompt_version=PROMPT_VERSION, secret=secret)
        for batch_id in new:
            job.events({"event": "batch.submitted", "batch": batch_id})
        ids += new
    outcome.batches = batch.poll(job.db, lambda endpoint: client, ids, wait=wait, poll_seconds=job.settings.batch_poll,
                                 sleep=sleep, secret=secret, progress=job.progress)
    if not wait and any(not r.ended for r in outcome.batches):
        return outcome
    for report in outcome.batches:
        job.events({"event": "batch.collected", "batch": report.id, "status": report.status, "states": report.states})
    short = [r for r in outcome.batches if r.status != "completed"]
    if short:
        raise BatchFailed(short_message(short))
    for report in outcome.batches:
        for failed in report.failed:
            job.warn(f"{failed['section']}: the batch's answer was not usable ({failed['error']}); "
                     "asking it again directly")
    outcome.results = ingest_books(job, books, force=force)
    return outcome


def short_message(reports: list[BatchReport]) -> str:
    """One line for batches that ended without answering every chunk."""
    parts = []
    for r in reports:
        unanswered = r.states.get("unanswered", 0)
        reason = next((f["error"] for f in r.failed if f["state"] == "unanswered"), r.status)
        parts.append(f"batch {r.id} {r.status} ({reason}): {r.states.get('cached', 0)} of {r.requests} answers "
                     f"cached, {unanswered} chunks unanswered")
    return ("; ".join(parts) + ". Nothing was ingested: run the same ingest --batch again to submit the "
            "unanswered chunks, or leave out --batch to ask them one by one")
