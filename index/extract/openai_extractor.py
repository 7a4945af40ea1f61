"""The OpenAI-compatible extractor: exactly one chat completion per parent chunk.

The only module that imports ``openai``. Works against OpenAI, Ollama, vLLM or a llama.cpp
server (``base_url``). Requests run ``concurrency`` at a time; 429, 5xx, timeouts and
connection errors are retried with exponential backoff that honours ``Retry-After``.
Answers are cached in SQLite by sha256(model, prompt version, prompt); an answer that is
truncated or does not parse is retried and never cached. Results are returned in chunk
order, whatever order the requests finish in.
"""

from __future__ import annotations

import json
import random
import time
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from email.utils import parsedate_to_datetime
from datetime import datetime, timezone

import openai

from .. import store
from ..errors import ConfigError, ExtractionFailed
from ..models import ChunkExtraction, ParentChunk
from ..packs import DomainPack
from . import ExtractionRun, KnownEntity, ProgressFn, no_progress
from .parse import ParseError, parse_extraction
from .prompt import PROMPT_VERSION, build_messages, cache_key, response_schema

RETRYABLE = (openai.RateLimitError, openai.InternalServerError, openai.APITimeoutError, openai.APIConnectionError)
MAX_BACKOFF = 60.0
INVALID_ANSWER_RETRIES = 2


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


class OpenAIExtractor:
    name = "openai"

    def __init__(self, settings, pack: DomainPack, cache=None, client=None, sleep=time.sleep):
        if client is None:
            if not settings.api_key and not settings.base_url:
                raise ConfigError("--extractor openai needs OPENAI_API_KEY (export it, or use --extractor rules)")
            client = openai.OpenAI(
                api_key=settings.api_key or "not-needed",
                base_url=settings.base_url,
                max_retries=0,  # retries are ours: counted, and they honour Retry-After
                timeout=settings.request_timeout,
            )
        self.client = client
        self.model = settings.model
        self.pack = pack
        self.cache = cache
        self.concurrency = max(1, settings.concurrency)
        self.max_retries = settings.max_retries
        self.sleep = sleep
        from ..relations.derive import effective_mode
        from ..relations.ontology import ontology_for

        # relations mode 'llm': the same single request also asks for relationships
        self.ontology = ontology_for(settings, pack) if effective_mode(settings.relations, self.name) == "llm" else None
        self.schema = response_schema(pack, self.ontology)
        self.calls = 0

    # one request, with retries; runs in a worker thread (no database access here)
    def _complete(self, messages: list[dict], where: str) -> tuple[str, ChunkExtraction, int]:
        calls, invalid, attempt = 0, 0, 0
        while True:
            try:
                calls += 1
                response = self.client.chat.completions.create(
                    model=self.model,
                    messages=messages,
                    temperature=0,
                    response_format={
                        "type": "json_schema",
                        "json_schema": {"name": "entity_extraction", "strict": True, "schema": self.schema},
                    },
                )
            except RETRYABLE as exc:
                if attempt >= self.max_retries:
                    raise ExtractionFailed(
                        f"{where}: the model endpoint kept failing ({type(exc).__name__}) after "
                        f"{attempt + 1} tries; the book was not changed, run ingest again later"
                    ) from None
                self.sleep(backoff_seconds(attempt, retry_after_seconds(exc)))
                attempt += 1
                continue
            except openai.APIStatusError as exc:
                raise ExtractionFailed(
                    f"{where}: the model endpoint refused the request (HTTP {exc.status_code}: "
                    f"{_short(exc.message)}); check --model, --base-url and OPENAI_API_KEY"
                ) from None
            choice = response.choices[0] if response.choices else None
            content = choice.message.content if choice else None
            try:
                if choice is None or choice.finish_reason not in ("stop", None):
                    raise ParseError(f"answer truncated (finish_reason={getattr(choice, 'finish_reason', None)})")
                return content, parse_extraction(content, ""), calls
            except ParseError as exc:
                invalid += 1
                if invalid > INVALID_ANSWER_RETRIES:
                    raise ExtractionFailed(
                        f"{where}: the model gave no valid answer in {invalid} tries ({exc}); "
                        "the book was not changed (try another --model)"
                    ) from None

    def extract(
        self,
        book: str,
        parents: list[ParentChunk],
        known: dict[str, list[KnownEntity]] | None = None,
        progress: ProgressFn = no_progress,
    ) -> ExtractionRun:
        results: list[ChunkExtraction | None] = [None] * len(parents)
        run = ExtractionRun(chunks=[])
        pending: dict[int, tuple[str, list[dict]]] = {}
        offered: dict[int, list[KnownEntity]] = {}
        for i, parent in enumerate(parents):
            offered[i] = list((known or {}).get(parent.id, ())) if self.ontology is not None else []
            messages = build_messages(book, parent, self.pack, self.ontology, offered[i])
            # the known-entity hint is not part of the key (see prompt.py)
            key = cache_key(self.model, build_messages(book, parent, self.pack, self.ontology), self.schema)
            cached = store.cache_get(self.cache, key) if self.cache is not None else None
            if cached is not None:
                try:
                    results[i] = parse_extraction(cached, parent.id)
                    results[i].known = _known_from_json(store.cache_get_known(self.cache, key))
                    run.cache_hits += 1
                    continue
                except ParseError:
                    pass  # an unusable cached answer is asked again
            pending[i] = (key, messages)
        done = len(parents) - len(pending)
        progress("extract", done, len(parents))
        if pending:
            with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
                futures = {
                    pool.submit(self._complete, messages, f"{book} > {parents[i].path_str}"): i
                    for i, (key, messages) in pending.items()
                }
                try:
                    remaining = set(futures)
                    while remaining:
                        finished, remaining = wait(remaining, return_when=FIRST_EXCEPTION)
                        for future in finished:
                            i = futures[future]
                            content, extraction, calls = future.result()
                            run.llm_calls += calls
                            extraction.chunk_id = parents[i].id
                            extraction.known = {k.id: k for k in offered[i]}
                            results[i] = extraction
                            if self.cache is not None:
                                store.cache_put(self.cache, pending[i][0], self.model, PROMPT_VERSION, content,
                                                known=_known_to_json(offered[i]))
                            done += 1
                            progress("extract", done, len(parents))
                except BaseException:
                    for future in futures:
                        future.cancel()
                    raise
        run.chunks = [r for r in results]  # type: ignore[misc]
        self.calls += run.llm_calls
        return run


def _known_to_json(known: list[KnownEntity]) -> str | None:
    return json.dumps([[k.id, k.name, k.entity_type] for k in known], ensure_ascii=False) if known else None


def _known_from_json(text: str | None) -> dict[int, KnownEntity]:
    """The ids a cached answer may use: those of the prompt it answered."""
    if not text:
        return {}
    return {row[0]: KnownEntity(*row) for row in json.loads(text)}


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
