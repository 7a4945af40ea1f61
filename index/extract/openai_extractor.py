"""The OpenAI-compatible extractor: one chat completion per parent chunk (more on faults).

The only module that imports ``openai``. Works against OpenAI, Ollama, vLLM or a llama.cpp
server (``base_url``). The requests of every book go through one pool (request_pool.py),
``concurrency`` at a time, fewer after a 429; ``plan`` says what a book needs without a
call (cached answers, prompts: the dry run's estimate), ``start`` sends it, ``wait``
collects it. 429, 5xx and dropped connections are retried with exponential backoff that
honours ``Retry-After``; a request that stalls past ``request_timeout`` is retried at once
(it has waited already).

An answer that is truncated, refused, empty, not JSON, off the schema or whose items are
all malformed is invalid: it is asked again, then asked again with the validation error,
then the chunk is reported as failed (``ExtractionRun.failed``) while the book's other
chunks go on. Each valid answer is cached in SQLite as soon as it arrives, keyed by
sha256(endpoint, model, prompt version, prompt), so a re-run asks only for what failed.
Results are returned in chunk order, whatever order the requests finish in.
"""

from __future__ import annotations

import json
import queue
import random
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from datetime import datetime, timezone
from typing import Iterator

import openai
from openai.types.chat import ChatCompletion

from .. import store
from ..preload import import_optional
from ..config import require_model_endpoint
from ..errors import ExtractionFailed, redact
from ..models import ChunkExtraction, ParentChunk
from ..packs import DomainPack
from .base import ExtractionRun, FailedChunk, KnownEntity, ProgressFn, no_progress
from .parse import ParseError, parse_extraction
from .prompt import PROMPT_VERSION, build_messages, cache_key, response_schema
from .request_pool import RequestPool

RETRYABLE = (openai.RateLimitError, openai.InternalServerError, openai.APITimeoutError, openai.APIConnectionError)
MAX_BACKOFF = 60.0
# invalid answers per chunk: the first is asked again as is, the second with the error
INVALID_ANSWER_TRIES = 3
# tries of a request that cannot connect while the endpoint has not answered once in the
# run (a dead --base-url): the run gives up after a few seconds, not after every chunk's
# full backoff (issue 19: 36-65 s and 150 warnings)
UNREACHABLE_TRIES = 3


class EndpointUnreachable(ExtractionFailed):
    """The model endpoint refused every connection and never answered: the run stops."""


class _ChunkGaveUp(Exception):
    """One chunk got no valid answer (the others go on); carries the calls it cost."""

    def __init__(self, reason: str, calls: int):
        super().__init__(reason)
        self.reason, self.calls = reason, calls


def retry_after_seconds(exc: Exception) -> float | None:
    """Seconds the server asked us to wait (Retry-After / retry-after-ms), if it said."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    if headers.get("retry-after-ms"):
        try:
            return float(headers["retry-after-ms"]) / 1000
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
            return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())
        except (TypeError, ValueError):
            return None


def backoff_seconds(attempt: int, retry_after: float | None) -> float:
    if retry_after is not None:
        return min(retry_after, MAX_BACKOFF)
    return min(MAX_BACKOFF, 0.5 * 2**attempt) * (0.5 + random.random() / 2)


def make_client(settings, what: str = "--extractor openai", instead: str = "use --extractor rules") -> "openai.OpenAI":
    """The OpenAI client for ``settings``; raises ConfigError when no key nor endpoint is set."""
    require_model_endpoint(settings, what, instead)
    return openai.OpenAI(
        api_key=settings.api_key or "not-needed",
        base_url=settings.base_url,
        max_retries=0,  # retries are ours: counted, and they honour Retry-After
        timeout=settings.request_timeout,
    )


class OpenAIExtractor:
    name = "openai"
    situates = True  # its answers carry a situating context for each chunk (prompt.py)

    def __init__(self, settings, pack: DomainPack, cache=None, client=None, sleep=time.sleep):
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
        from ..relations.derive import effective_mode
        from ..relations.ontology import ontology_for

        # relations mode 'llm': the same single request also asks for relationships
        self.ontology = ontology_for(settings, pack) if effective_mode(settings.relations, self.name) == "llm" else None
        self.schema = response_schema(pack, self.ontology)
        self.calls = 0
        # told about each retry ("Grimoire > Frost Lance: connection failed; retrying in 2 s");
        # the pipeline points it at its warning sink
        self.on_retry = _ignore
        # retries are told on the thread that calls wait(), once per reason (not per chunk)
        self._retry_notes: queue.SimpleQueue[tuple[str, str]] = queue.SimpleQueue()
        self._retries_said: dict[str, int] = {}
        # called once on this (the main) thread before the first request thread starts: the
        # pipeline imports there whatever its write phase will import (index/preload.py)
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
        calls, invalid, attempt = 0, 0, 0
        asked = messages
        while True:
            if pool.unreachable is not None:
                raise pool.unreachable
            try:
                calls += 1
                with pool.slot():
                    response = self._ask(asked)
                pool.succeeded()
            except RETRYABLE as exc:
                if isinstance(exc, openai.APIStatusError):
                    pool.answered = True  # a 429 or a 5xx: the endpoint is there
                if isinstance(exc, openai.RateLimitError):
                    pool.rate_limited()
                never_reached = _cannot_connect(exc) and not pool.answered
                if never_reached and attempt + 1 >= min(UNREACHABLE_TRIES, self.max_retries + 1):
                    pool.unreachable = pool.unreachable or EndpointUnreachable(
                        f"cannot reach the model endpoint {self.endpoint} ({_short(exc.__cause__ or exc, 80)});"
                        " check --base-url and that the server is running")
                    raise pool.unreachable
                if attempt >= self.max_retries:
                    raise _ChunkGaveUp(
                        f"the model endpoint kept failing ({type(exc).__name__}) after {attempt + 1} tries", calls
                    ) from None
                # a stall has already waited the whole timeout: ask again at once
                wait = 0.0 if isinstance(exc, openai.APITimeoutError) else backoff_seconds(
                    attempt, retry_after_seconds(exc))
                seconds = f"{wait:.0f}" if wait >= 1 or not wait else f"{wait:.1f}"
                self._retry_notes.put((_retry_reason(exc), f"{where}: {_retry_reason(exc)}; retrying in {seconds} s "
                                                           f"(try {attempt + 2} of {self.max_retries + 1})"))
                if wait:
                    self.sleep(wait)
                attempt += 1
                continue
            except openai.APIStatusError as exc:
                raise ExtractionFailed(
                    f"{where}: the model endpoint refused the request (HTTP {exc.status_code}: "
                    f"{_short(redact(str(exc.message), self._secret))}); check --model, --base-url and OPENAI_API_KEY"
                ) from None
            content = None
            try:
                content = answer_content(response)
                return content, parse_extraction(content, ""), calls
            except ParseError as exc:
                invalid += 1
                if invalid >= INVALID_ANSWER_TRIES:
                    raise _ChunkGaveUp(f"no valid answer in {invalid} tries ({exc})", calls) from None
                if invalid == INVALID_ANSWER_TRIES - 1:
                    asked = messages + [
                        {"role": "assistant", "content": content or ""},
                        {"role": "user", "content": f"That answer is invalid: {exc}. Answer again with "
                                                    "only a JSON object that matches the schema."},
                    ]

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
        except _ChunkGaveUp as exc:
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
    imported for the first time in one (index/preload.py): the chat resources the client
    loads at its first ``client.chat`` (and jiter with them), and ``httpx``, which the
    client looks up in ``sys.modules`` on every request and chromadb imports."""
    import_optional("httpx")
    chat = getattr(client, "chat", None)
    getattr(chat, "completions", None)
    from openai.types.chat import ChatCompletion  # noqa: F401  (the answers' model)


def _retry_reason(exc: Exception) -> str:
    if isinstance(exc, openai.RateLimitError):
        return "rate limited (429)"
    if isinstance(exc, openai.APITimeoutError):
        return "the request stalled past the timeout"
    if isinstance(exc, openai.APIConnectionError):
        return "the endpoint could not be reached"
    status = getattr(exc, "status_code", None)
    return f"the endpoint failed (HTTP {status})" if status else f"the endpoint failed ({type(exc).__name__})"


def _cannot_connect(exc: Exception) -> bool:
    """A connection that could not be opened (refused, no route, DNS): not one the server
    dropped after taking the request, nor one that stalled past the timeout."""
    if not isinstance(exc, openai.APIConnectionError) or isinstance(exc, openai.APITimeoutError):
        return False
    # httpx's and httpx2's ConnectError (the client's own exception is the cause)
    return any(cls.__name__ == "ConnectError" for cls in type(exc.__cause__).__mro__)


def _where(book: str, parent: ParentChunk) -> str:
    """How a chunk is named in messages: 'Book: Heading > Path'."""
    return f"{book}: {parent.path_str or '(before the first heading)'}"


def answer_content(response) -> str:
    """The text of a chat completion that finished normally; raises ParseError for no choice,
    a refusal, a truncated or an empty answer."""
    choice = response.choices[0] if response.choices else None
    if choice is None:
        raise ParseError("the answer has no choices")
    refusal = getattr(choice.message, "refusal", None)
    if refusal:
        raise ParseError(f"the model refused ({_short(refusal, 80)})")
    if choice.finish_reason not in ("stop", None):
        raise ParseError(f"answer truncated (finish_reason={choice.finish_reason})")
    if not choice.message.content:
        raise ParseError("empty answer")
    return choice.message.content


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
                               f"{_short(redact(str(detail or exc.message), secret))})") from None
    except openai.APIError as exc:
        raise ExtractionFailed(f"{what}: {_retry_reason(exc)}") from None


def _known_from_json(text: str | None) -> dict[int, KnownEntity]:
    """The ids a cached answer may use: those of the prompt it answered."""
    if not text:
        return {}
    return {row[0]: KnownEntity(*row) for row in json.loads(text)}


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class OpenAIRefiner:
    """Seed 003's LLM refinement of offline relationship candidates (index/relations/refine.py):
    one request per parent chunk that has candidates, cached like extraction answers."""

    def __init__(self, settings, ontology, cache=None, client=None, sleep=time.sleep):
        from ..relations.refine import refine_schema

        self.client = client or make_client(settings, "--relations refine", "use --relations spacy")
        self.endpoint = str(self.client.base_url).rstrip("/")
        self.model = settings.model
        self.types = {t.name: t.semantics for t in ontology.canonical_types()}
        self.schema = refine_schema(list(self.types))
        self.cache = cache
        self.max_retries = settings.max_retries
        self.sleep = sleep
        self._secret = settings.api_key
        self.label = f"{self.model}@{self.endpoint}"
        self.calls = self.cache_hits = self.failed = 0

    def refine(self, chunk_text: str, candidates: list) -> list:
        from ..relations.refine import REFINE_VERSION, RefineParseError, build_refine_messages, parse_refinement

        if not candidates:
            return []
        messages = build_refine_messages(chunk_text, candidates, self.types)
        key = cache_key(self.model, messages + [{"role": "system", "content": REFINE_VERSION}], self.schema,
                        self.endpoint)
        cached = store.cache_get(self.cache, key) if self.cache is not None else None
        if cached is not None:
            try:
                kept = parse_refinement(cached, candidates, list(self.types))
                self.cache_hits += 1
                return kept
            except RefineParseError:
                pass
        attempt = invalid = 0
        while True:
            try:
                self.calls += 1
                response = self.client.chat.completions.create(
                    model=self.model, messages=messages, temperature=0,
                    response_format={"type": "json_schema",
                                     "json_schema": {"name": "relation_refinement", "strict": True, "schema": self.schema}},
                )
                content = answer_content(response)
                kept = parse_refinement(content, candidates, list(self.types))
            except RETRYABLE as exc:
                if attempt >= self.max_retries:
                    break
                if not isinstance(exc, openai.APITimeoutError):
                    self.sleep(backoff_seconds(attempt, retry_after_seconds(exc)))
                attempt += 1
                continue
            except (ParseError, RefineParseError):
                invalid += 1
                if invalid >= INVALID_ANSWER_TRIES:
                    break
                continue
            except openai.APIStatusError:
                break
            if self.cache is not None:
                store.cache_put(self.cache, key, self.model, REFINE_VERSION, content)
            return kept
        # no valid answer: the offline candidates stand as they are (nothing is lost)
        self.failed += 1
        return candidates
