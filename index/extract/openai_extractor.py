"""The OpenAI-compatible extractor: one chat completion per parent chunk (more on faults).

It and completion.py (the retry loop it shares with the relationship refiner, described
there) are the modules that import ``openai``. Works against OpenAI, Ollama, vLLM or a llama.cpp
server (``base_url``). The requests of every book go through one pool (request_pool.py),
``concurrency`` at a time, fewer after a 429; ``plan`` says what a book needs without a
call (cached answers, prompts: the dry run's estimate), ``start`` sends it, ``wait``
collects it.

An answer that is not JSON, off the schema or whose items are all malformed is invalid
like a truncated or refused one (completion.py): when every try is invalid the chunk is
reported as failed (``ExtractionRun.failed``) while the book's other
chunks go on. Each valid answer is cached in SQLite as soon as it arrives, keyed by
sha256(endpoint, model, prompt version, prompt), so a re-run asks only for what failed.
Results are returned in chunk order, whatever order the requests finish in.
"""

from __future__ import annotations

import json
import queue
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

import openai
from openai.types.chat import ChatCompletion

from ..core.errors import ExtractionFailed, redact
from ..core.imports import import_optional
from ..core.models import ChunkExtraction, ParentChunk
from ..core.packs import DomainPack
from ..llm.completion import (  # noqa: F401  (backoff_seconds, retry_after_seconds, make_client: re-exported)
    GaveUp,
    answer_content,
    backoff_seconds,
    complete,
    make_client,
    retry_after_seconds,
    retry_reason,
    short,
)
from ..llm.request_pool import RequestPool
from ..storage import store
from .base import ExtractionRun, FailedChunk, KnownEntity, ProgressFn, no_progress
from .parse import ParseError, parse_extraction
from .prompt import PROMPT_VERSION, build_messages, cache_key, response_schema


class OpenAIExtractor:
    name = "openai"
    situates = True  # its answers carry a situating context for each chunk (prompt.py)

    def __init__(self, settings, pack: DomainPack, cache=None, client=None, sleep=time.sleep, ontology=None):
        if client is None:
            client = make_client(settings)
        self.client = client
        load_request_modules(client)
        self.endpoint = str(client.base_url).rstrip("/")
        self.model = settings.model
        self.pack = pack
        self.cache = cache
        self.concurrency = max(1, settings.concurrency)
        self.max_retries = settings.max_retries
        self.sleep = sleep
        self._secret = settings.api_key
        # given in relations mode 'llm' (get_extractor): the same request also asks for relationships
        self.ontology = ontology
        self.schema = response_schema(pack, self.ontology)
        self.calls = 0
        # told about each retry ("Grimoire > Frost Lance: connection failed; retrying in 2 s");
        # the pipeline points it at its warning sink
        self.on_retry = _ignore
        # retries are told on the thread that calls wait(), once per reason (not per chunk)
        self._retry_notes: queue.SimpleQueue[tuple[str, str]] = queue.SimpleQueue()
        self._retries_said: dict[str, int] = {}
        # called once on this (the main) thread before the first request thread starts: the
        # pipeline imports there whatever its write phase will import (index/ingest/preload.py)
        self.before_requests = _nothing
        self._pool: RequestPool | None = None  # shared by every book this extractor extracts
        self._owners: dict = {}  # future -> the PendingExtraction it belongs to

    def request_body(self, messages: list[dict]) -> dict:
        """The chat completion request for ``messages`` (also a Batch API line's body)."""
        return dict(
            model=self.model,
            messages=messages,
            temperature=0,
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "entity_extraction", "strict": True, "schema": self.schema},
            },
        )

    def chunk_request(self, book: str, parent: ParentChunk,
                      known: dict[str, list[KnownEntity]] | None = None) -> tuple[list[dict], str, list[KnownEntity]]:
        """One parent chunk's prompt: its messages, its LLM cache key and the known entities
        the messages offer (the known-entity hint is not part of the key: see prompt.py)."""
        offered = list((known or {}).get(parent.id, ())) if self.ontology is not None else []
        messages = build_messages(book, parent, self.pack, self.ontology, offered)
        key = cache_key(self.model, build_messages(book, parent, self.pack, self.ontology), self.schema, self.endpoint)
        return messages, key, offered

    def _ask(self, messages: list[dict]):
        return self.client.chat.completions.create(**self.request_body(messages))

    # one chunk, with retries and escalation; runs in a worker thread (no database access here)
    def _complete(self, messages: list[dict], where: str, pool: RequestPool) -> tuple[str, ChunkExtraction, int]:
        return complete(self._ask, messages, lambda content: parse_extraction(content, ""),
                        max_retries=self.max_retries, sleep=self.sleep, where=where, endpoint=self.endpoint,
                        secret=self._secret, pool=pool, note_retry=lambda *note: self._retry_notes.put(note))

    def plan(self, book: str, parents: list[ParentChunk],
             known: dict[str, list[KnownEntity]] | None = None) -> RequestPlan:
        """What extracting ``parents`` takes, without a call: the answers already cached and
        the request (prompt, cache key, known entities offered) for each other chunk."""
        plan = RequestPlan(book, parents, ExtractionRun(chunks=[None] * len(parents)))
        for i, parent in enumerate(parents):
            messages, key, offered = self.chunk_request(book, parent, known)
            plan.run.cache_keys[parent.id] = key
            cached = store.cache_get(self.cache, key) if self.cache is not None else None
            if cached is not None:
                try:
                    plan.run.chunks[i] = parse_extraction(cached, parent.id)
                    plan.run.chunks[i].known = _known_from_json(store.cache_get_known(self.cache, key))
                    plan.run.cache_hits += 1
                    continue
                except ParseError:
                    pass  # an unusable cached answer is asked again
            plan.requests[i] = ChunkRequest(messages, key, offered)
        return plan

    def start(self, book: str, parents: list[ParentChunk],
              known: dict[str, list[KnownEntity]] | None = None) -> "PendingExtraction":
        """Send the uncached chunks' requests to the pool shared by every book of the run;
        ``wait`` collects them. Nothing is written until then."""
        pending = PendingExtraction(self, self.plan(book, parents, known))
        if pending.plan.requests and self._pool is None:
            self.before_requests()
            self.before_requests = _nothing
            self._pool = RequestPool(self.concurrency)
        for i, request in pending.plan.requests.items():
            future = self._pool.submit(self._complete, request.messages, _where(book, parents[i]), self._pool)
            pending.futures[future] = i
            self._owners[future] = pending
        return pending

    def wait(self, pending: "PendingExtraction", progress: ProgressFn = no_progress) -> ExtractionRun:
        """Collect ``pending``'s answers, caching every answer that arrives meanwhile, for any
        book, as it arrives (a later failure or Ctrl-C keeps it). Raises ExtractionFailed."""
        pending.progress = progress
        pending.report()
        while pending.futures:
            self._absorb_next()
        run = pending.result()
        self.calls += run.llm_calls
        return run

    def extract(
        self,
        book: str,
        parents: list[ParentChunk],
        known: dict[str, list[KnownEntity]] | None = None,
        progress: ProgressFn = no_progress,
    ) -> ExtractionRun:
        try:
            return self.wait(self.start(book, parents, known), progress)
        except BaseException:
            self.close()
            raise

    def settle(self) -> None:
        """When a run stops on an error: send nothing more, but wait for the requests already
        sent and cache their answers (they are paid for; the next run will not ask again)."""
        if self._pool is None:
            return
        self._pool.close()
        while self._owners:
            self._absorb_next()

    def _absorb_next(self) -> None:
        """Wait for the next request of any book to finish, and hand it to its book; tell
        the retries of the request threads meanwhile."""
        while True:
            future = self._pool.next_done(timeout=0.2)
            self._tell_retries()
            if future is not None:
                break
        owner = self._owners.pop(future, None)
        if owner is not None:
            owner.absorb(future)

    def _tell_retries(self) -> None:
        """Pass the request threads' retries to ``on_retry`` on this thread: the first of
        each reason with its chunk, the others counted (``close`` says how many)."""
        while True:
            try:
                reason, message = self._retry_notes.get_nowait()
            except queue.Empty:
                return
            if reason not in self._retries_said:
                self._retries_said[reason] = 0
                self.on_retry(message)
            else:
                self._retries_said[reason] += 1

    def close(self) -> None:
        """At the end of a run, or on Ctrl-C: drop the requests that have not started, do not
        wait for the rest."""
        unreachable = self._pool is not None and self._pool.unreachable is not None
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        self._owners.clear()
        self._tell_retries()
        more = {reason: n for reason, n in self._retries_said.items() if n}
        if more and not unreachable:  # the run's one error says it all
            self.on_retry("and " + ", ".join(f"{n} more {'retry' if n == 1 else 'retries'} ({reason})"
                                             for reason, n in more.items()))
        self._retries_said.clear()

    @property
    def max_in_flight(self) -> int:
        """The most requests that were in flight at once (bench/bench_llm_pool.py)."""
        return self._pool.max_in_flight if self._pool is not None else 0


@dataclass
class ChunkRequest:
    """One chunk's request: the messages sent, its cache key and the known entities offered."""

    messages: list[dict]
    key: str
    offered: list[KnownEntity]


@dataclass
class RequestPlan:
    """One book's extraction before any call: ``run`` holds the cached answers (and every
    chunk's cache key); ``requests`` what is left to ask, by chunk position."""

    book: str
    parents: list[ParentChunk]
    run: ExtractionRun
    requests: dict[int, ChunkRequest] = field(default_factory=dict)


class PendingExtraction:
    """One book's requests in the shared pool; its answers are absorbed on the caller's thread."""

    def __init__(self, extractor: OpenAIExtractor, plan: RequestPlan):
        self.extractor, self.plan = extractor, plan
        self.futures: dict = {}
        self.progress: ProgressFn = no_progress
        self.error: BaseException | None = None
        self.done = len(plan.parents) - len(plan.requests)

    def report(self) -> None:
        self.progress("extract", self.done, len(self.plan.parents))

    def absorb(self, future) -> None:
        """Take one finished request: cache a valid answer now, record a chunk given up on;
        an endpoint that refused is raised by ``result`` (when this book's turn comes)."""
        i = self.futures.pop(future)
        parent, run, request = self.plan.parents[i], self.plan.run, self.plan.requests[i]
        if future.cancelled():
            return
        try:
            content, extraction, calls = future.result()
        except GaveUp as exc:
            run.llm_calls += exc.calls
            run.failed.append(FailedChunk(parent.id, _where(self.plan.book, parent), exc.reason))
            return
        except Exception as exc:  # ExtractionFailed, or a defect: this book's, raised in its turn
            self.error = self.error or exc
            return
        run.llm_calls += calls
        extraction.chunk_id = parent.id
        extraction.known = {k.id: k for k in request.offered}
        run.chunks[i] = extraction
        cache = self.extractor.cache
        if cache is not None:
            store.cache_put(cache, request.key, self.extractor.model, PROMPT_VERSION, content,
                            known=known_to_json(request.offered))
        self.done += 1
        self.report()

    def result(self) -> ExtractionRun:
        if self.error is not None:
            raise self.error
        run = self.plan.run
        order = {p.id: n for n, p in enumerate(self.plan.parents)}
        run.failed.sort(key=lambda f: order[f.chunk_id])
        return run


def _ignore(message: str) -> None:
    """The default retry sink: say nothing."""


def _nothing() -> None:
    """The default ``before_requests``: nothing to import."""


def load_request_modules(client) -> None:
    """Import, on the calling thread, every module a request thread will use, so none is
    imported for the first time in one (index/ingest/preload.py): the chat resources the client
    loads at its first ``client.chat`` (and jiter with them), and ``httpx``, which the
    client looks up in ``sys.modules`` on every request and chromadb imports."""
    import_optional("httpx")
    chat = getattr(client, "chat", None)
    getattr(chat, "completions", None)
    from openai.types.chat import ChatCompletion  # noqa: F401  (the answers' model)


def _where(book: str, parent: ParentChunk) -> str:
    """How a chunk is named in messages: 'Book: Heading > Path'."""
    return f"{book}: {parent.path_str or '(before the first heading)'}"


def known_to_json(known: list[KnownEntity]) -> str | None:
    return json.dumps([[k.id, k.name, k.entity_type] for k in known], ensure_ascii=False) if known else None


def completion_answer(body: dict) -> tuple[str, ChunkExtraction]:
    """A chat completion received as JSON (a Batch API output line), validated exactly as a
    live answer is: returns its content and extraction; raises ParseError."""
    try:
        response = ChatCompletion.model_validate(body)
    except ValueError:
        raise ParseError("the answer is not a chat completion") from None
    content = answer_content(response)
    return content, parse_extraction(content, "")


@contextmanager
def endpoint_errors(what: str, secret: str | None = None) -> Iterator[None]:
    """Turn the openai client's errors in the block into one ExtractionFailed line that
    says ``what`` failed and why (the API key redacted)."""
    try:
        yield
    except openai.APIStatusError as exc:
        # the endpoint's own words when it gave some, not the client's "Error code: 404 - {...}"
        detail = exc.body.get("message") if isinstance(exc.body, dict) else None
        raise ExtractionFailed(f"{what}: the endpoint refused (HTTP {exc.status_code}: "
                               f"{short(redact(str(detail or exc.message), secret))})") from None
    except openai.APIError as exc:
        raise ExtractionFailed(f"{what}: {retry_reason(exc)}") from None


def _known_from_json(text: str | None) -> dict[int, KnownEntity]:
    """The ids a cached answer may use: those of the prompt it answered."""
    if not text:
        return {}
    return {row[0]: KnownEntity(*row) for row in json.loads(text)}
