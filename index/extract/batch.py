"""Extraction through the OpenAI Batch API: the chunks' chat completion requests in one JSONL
file, answered within 24 hours at a lower price, collected into the same LLM cache as live
answers.

``submit`` uploads the requests (``files.create(purpose="batch")``), creates the batch and
records it and its requests in the index (m007_llm_batches), so that any later process can
``refresh`` and ``collect`` it. A request's ``custom_id`` is its chunk's LLM cache key.
Collecting downloads the output and error files and validates each answer exactly as a live
answer is validated (``openai_extractor.completion_answer``); only valid answers are stored,
in llm_cache, with the known entities their prompt offered. A request whose answer is invalid
or whose line is an error is marked 'invalid': the synchronous path asks it again, with its
retries and escalation. A request that a failed, expired or cancelled batch never answered is
marked 'unanswered': the next ``ingest --batch`` submits it again.

The openai client is passed in (``client_for(endpoint)``); this module does not import openai.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable

from sqlite_utils import Database

from ..core.errors import BatchNotFound, ConfigError
from ..storage import store
from .openai_extractor import completion_answer, endpoint_errors, make_client
from .parse import ParseError

ENDPOINT = "/v1/chat/completions"
# the Batch API's limits per input file: 50,000 requests and 200 MB (a 1,500-token parent's
# request is about 10 kB, so the size can bind first)
MAX_REQUESTS = 50_000
MAX_BYTES = 190_000_000
ENDED = ("completed", "failed", "expired", "cancelled")

ClientFor = Callable[[str], object]


@dataclass(frozen=True)
class BatchRequest:
    """One parent chunk to ask through a batch."""

    custom_id: str     # the chunk's LLM cache key
    book: str
    path: str          # the book's file, for `ingest` once the answers are in
    chunk_id: str
    section: str       # "Book: Heading > Path", for messages
    body: dict         # the chat completion request, as the synchronous path sends it
    known: str | None  # the known entities the prompt offers (JSON), cached with the answer


@dataclass
class BatchReport:
    """A recorded batch as the index knows it (after the last refresh or collect)."""

    id: str
    status: str
    endpoint: str
    model: str
    submitted_at: str
    checked_at: str | None
    collected_at: str | None
    requests: int
    states: dict[str, int]                                  # submitted/cached/ingested/invalid/unanswered
    books: list[dict] = field(default_factory=list)         # {"title", "path", "chunks"}
    failed: list[dict] = field(default_factory=list)        # {"book", "section", "state", "error"}

    @property
    def ended(self) -> bool:
        return self.status in ENDED

    def to_dict(self) -> dict:
        return {"id": self.id, "status": self.status, "endpoint": self.endpoint, "model": self.model,
                "submitted_at": self.submitted_at, "checked_at": self.checked_at,
                "collected_at": self.collected_at, "requests": self.requests, "states": self.states,
                "books": self.books, "failed": self.failed}


def input_files(requests: Iterable[BatchRequest], max_requests: int | None = None,
                max_bytes: int | None = None) -> list[tuple[list[BatchRequest], bytes]]:
    """The Batch API input files for ``requests``: one /v1/chat/completions request per JSONL
    line, one line per custom_id, split so that no file exceeds the limits (default: the
    API's, MAX_REQUESTS and MAX_BYTES)."""
    max_requests, max_bytes = max_requests or MAX_REQUESTS, max_bytes or MAX_BYTES
    files: list[tuple[list[BatchRequest], bytes]] = []
    part: list[BatchRequest] = []
    lines: list[bytes] = []
    size = 0
    for request in {r.custom_id: r for r in requests}.values():
        line = (json.dumps({"custom_id": request.custom_id, "method": "POST", "url": ENDPOINT, "body": request.body},
                           ensure_ascii=False) + "\n").encode("utf-8")
        if part and (len(part) >= max_requests or size + len(line) > max_bytes):
            files.append((part, b"".join(lines)))
            part, lines, size = [], [], 0
        part.append(request)
        lines.append(line)
        size += len(line)
    if part:
        files.append((part, b"".join(lines)))
    return files


def submit(db: Database, client, requests: list[BatchRequest], *, endpoint: str, model: str,
           prompt_version: str, secret: str | None = None) -> list[str]:
    """Upload ``requests`` (split by ``input_files``), create the
    batches and record each, with its requests, in the index as soon as it exists. Returns
    the batch ids. Raises ExtractionFailed when the endpoint refuses (e.g. no Batch API)."""
    ids = []
    for part, jsonl in input_files(requests):
        with endpoint_errors("uploading the batch requests (files.create)", secret):
            uploaded = client.files.create(file=("crossbook-requests.jsonl", jsonl, "application/jsonl"),
                                           purpose="batch")
        with endpoint_errors("creating the batch (batches.create)", secret):
            batch = client.batches.create(input_file_id=uploaded.id, endpoint=ENDPOINT, completion_window="24h",
                                          metadata={"created_by": "crossbook"})
        with db.atomic():
            db.execute(
                "INSERT INTO llm_batches (id, endpoint, model, prompt_version, input_file_id, status, submitted_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [batch.id, endpoint, model, prompt_version, uploaded.id, batch.status, store.now_iso()])
            db.conn.executemany(
                "INSERT INTO llm_batch_requests (batch_id, custom_id, book, path, chunk_id, section, known)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(batch.id, r.custom_id, r.book, r.path, r.chunk_id, r.section, r.known) for r in part])
        ids.append(batch.id)
    return ids


def waiting_batches(db: Database, keys: Iterable[str]) -> dict[str, str]:
    """custom_id -> id of the batch not yet collected that asks it (it is not submitted twice)."""
    rows = db.execute(
        "SELECT r.custom_id, r.batch_id FROM llm_batch_requests r JOIN llm_batches b ON b.id = r.batch_id"
        " WHERE b.collected_at IS NULL AND r.state = 'submitted'").fetchall()
    wanted = set(keys)
    return {key: batch_id for key, batch_id in rows if key in wanted}


def invalid_answers(db: Database, keys: Iterable[str]) -> set[str]:
    """The custom_ids a batch answered invalidly: left to the synchronous path, whose retries
    and escalation (the validation error shown to the model) a batch cannot do."""
    rows = db.execute("SELECT DISTINCT custom_id FROM llm_batch_requests WHERE state = 'invalid'").fetchall()
    wanted = set(keys)
    return {key for (key,) in rows if key in wanted}


def batch_ids(db: Database, ids: Iterable[str] = (), uncollected: bool = False) -> list[str]:
    """The recorded batches named by ``ids`` (all of them, or those not yet collected, when
    none is named), oldest first. Raises BatchNotFound for an id the index did not submit."""
    known = [r[0] for r in db.execute(
        "SELECT id FROM llm_batches" + (" WHERE collected_at IS NULL" if uncollected else "")
        + " ORDER BY submitted_at, rowid")]
    ids = list(dict.fromkeys(ids))
    if not ids:
        return known
    recorded = {r[0] for r in db.execute("SELECT id FROM llm_batches")}
    for batch_id in ids:
        if batch_id not in recorded:
            raise BatchNotFound(f"batch '{batch_id}' was not submitted by this index (see: crossbook batch status)")
    return ids


def refresh(db: Database, client, batch_id: str, secret: str | None = None):
    """Ask the endpoint for the batch's state and record its status; returns the Batch."""
    with endpoint_errors(f"batch {batch_id}", secret):
        batch = client.batches.retrieve(batch_id)
    with db.atomic():
        db.execute("UPDATE llm_batches SET status = ?, checked_at = ? WHERE id = ?",
                   [batch.status, store.now_iso(), batch_id])
    return batch


def collect(db: Database, client, batch, secret: str | None = None) -> None:
    """Store the valid answers of an ended batch (a Batch from ``refresh``) in llm_cache and
    mark every request cached, invalid or unanswered, in one transaction."""
    row = db.execute("SELECT model, prompt_version FROM llm_batches WHERE id = ?", [batch.id]).fetchone()
    model, prompt_version = row
    requests = {r[0]: r[1] for r in db.execute(
        "SELECT custom_id, known FROM llm_batch_requests WHERE batch_id = ? AND state = 'submitted'", [batch.id])}
    outcomes: dict[str, tuple[str, str | None]] = {}  # custom_id -> (state, answer or error)
    for file_id in (batch.output_file_id, batch.error_file_id):
        if not file_id:
            continue
        with endpoint_errors(f"downloading the results of batch {batch.id}", secret):
            text = client.files.content(file_id).text
        for line in text.splitlines():
            if line.strip():
                custom_id, state, value = read_result_line(line)
                if custom_id in requests and custom_id not in outcomes:
                    outcomes[custom_id] = (state, value)
    missing = ("invalid", "no answer in the batch's output") if batch.status == "completed" else (
        "unanswered", f"the batch {batch.status}" + _batch_errors(batch))
    with db.atomic():
        for custom_id, known in requests.items():
            state, value = outcomes.get(custom_id, missing)
            if state == "cached":
                store.cache_put(db, custom_id, model, prompt_version, value, known=known)
                value = None
            db.execute("UPDATE llm_batch_requests SET state = ?, error = ? WHERE batch_id = ? AND custom_id = ?",
                       [state, value, batch.id, custom_id])
        db.execute("UPDATE llm_batches SET status = ?, collected_at = ? WHERE id = ?",
                   [batch.status, store.now_iso(), batch.id])


def read_result_line(line: str) -> tuple[str | None, str, str]:
    """One line of a batch's output or error file -> (custom_id, state, answer or error):
    'cached' with the answer's content when it is valid, else 'invalid' (or 'unanswered' for
    a request the batch never ran) with the reason."""
    try:
        result = json.loads(line)
        custom_id = result.get("custom_id")
    except (ValueError, AttributeError):
        return None, "invalid", "not a JSON result line"
    error, response = result.get("error"), result.get("response") or {}
    if error:
        code = error.get("code") or "error"
        state = "unanswered" if code in ("batch_expired", "batch_cancelled") else "invalid"
        return custom_id, state, f"{code}: {error.get('message') or ''}".strip(": ")
    status = response.get("status_code")
    body = response.get("body")
    if status != 200:
        message = (body or {}).get("error", {}).get("message", "") if isinstance(body, dict) else ""
        return custom_id, "invalid", f"the request failed (HTTP {status}{': ' + message if message else ''})"
    try:
        content, _extraction = completion_answer(body if isinstance(body, dict) else {})
    except ParseError as exc:
        return custom_id, "invalid", f"invalid answer ({exc})"
    return custom_id, "cached", content


def _batch_errors(batch) -> str:
    errors = getattr(getattr(batch, "errors", None), "data", None) or []
    messages = "; ".join(e.message or e.code or "" for e in errors if e.message or e.code)
    return f" ({messages})" if messages else ""


def report(db: Database, batch_id: str) -> BatchReport:
    """What the index records about a batch: status, request states, books, failed chunks."""
    row = db.execute("SELECT id, status, endpoint, model, submitted_at, checked_at, collected_at"
                     " FROM llm_batches WHERE id = ?", [batch_id]).fetchone()
    states = dict(db.execute("SELECT state, count(*) FROM llm_batch_requests WHERE batch_id = ? GROUP BY state",
                             [batch_id]).fetchall())
    books = [{"title": t, "path": p, "chunks": n} for t, p, n in db.execute(
        "SELECT book, path, count(*) FROM llm_batch_requests WHERE batch_id = ? GROUP BY book, path"
        " ORDER BY min(rowid)", [batch_id])]
    failed = [{"book": b, "section": s, "state": st, "error": e} for b, s, st, e in db.execute(
        "SELECT book, section, state, error FROM llm_batch_requests WHERE batch_id = ?"
        " AND state IN ('invalid', 'unanswered') ORDER BY rowid", [batch_id])]
    return BatchReport(*row, requests=sum(states.values()), states=states, books=books, failed=failed)


def forget(db: Database, ids: list[str]) -> list[BatchReport]:
    """Drop the records of batches (one the endpoint lost, one not worth waiting for, or one
    whose answers will not be ingested): the next ``ingest --batch`` submits their chunks
    that have no cached answer again, and ``cache prune`` no longer keeps their answers for
    an ingest. The endpoint is not contacted. Returns the batches as they were recorded.
    Raises BatchNotFound for an id the index did not submit."""
    ids = batch_ids(db, ids)
    reports = [report(db, batch_id) for batch_id in ids]
    with db.atomic():
        for batch_id in ids:
            db.execute("DELETE FROM llm_batch_requests WHERE batch_id = ?", [batch_id])
            db.execute("DELETE FROM llm_batches WHERE id = ?", [batch_id])
    return reports


def client_for(settings) -> ClientFor:
    """A function endpoint -> client for recorded batches: each batch is polled at the
    endpoint it was submitted to, unless --base-url names another. The client retries the
    few batch calls itself. Asking for a client raises ConfigError when no API key nor base
    URL is set."""
    clients: dict[str, object] = {}

    def client(endpoint: str):
        if endpoint not in clients:
            if not settings.api_key and not settings.base_url:
                raise ConfigError(f"asking {endpoint} about its batches needs OPENAI_API_KEY "
                                  "(export it, or give --base-url for a server that needs no key)")
            clients[endpoint] = make_client(replace(settings, base_url=settings.base_url or endpoint)).with_options(
                max_retries=settings.max_retries)
        return clients[endpoint]

    return client


def poll(db: Database, client: ClientFor, ids: list[str], *, collect_ended: bool = True, wait: bool = False,
         poll_seconds: float = 30.0, sleep: Callable[[float], None], secret: str | None = None,
         progress: Callable[[str, int, int], None] | None = None) -> list[BatchReport]:
    """Refresh each batch in ``ids`` that is not collected yet and, with ``collect_ended``,
    collect those that have ended. With ``wait``, poll again every ``poll_seconds`` until
    every batch has ended (and is collected). Returns the batches' reports, in ``ids`` order."""
    while True:
        running, done, total = 0, 0, 0
        for batch_id in ids:
            endpoint, collected = db.execute(
                "SELECT endpoint, collected_at FROM llm_batches WHERE id = ?", [batch_id]).fetchone()
            if collected:
                continue
            batch = refresh(db, client(endpoint), batch_id, secret)
            counts = batch.request_counts
            if counts is not None:
                done, total = done + counts.completed + counts.failed, total + counts.total
            if batch.status in ENDED and collect_ended:
                collect(db, client(endpoint), batch, secret)
            elif batch.status not in ENDED:
                running += 1
        if progress is not None and total:
            progress("batch", done, total)
        if not (wait and running):
            return [report(db, batch_id) for batch_id in ids]
        sleep(poll_seconds)
