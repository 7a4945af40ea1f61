"""The model behind ``--relations refine`` (phase 2 of the relationship design: a model confirms the offline candidates): an OpenAI-compatible endpoint
confirms and types one chunk's offline candidates in one request (refine_prompt.py builds the
request and parses the answer; index/llm/completion.py makes the call, with retries).

No request is made inside a write transaction: the write runs with the refiner in
``cache_only`` mode, where a chunk whose answer is not cached keeps its offline candidates
and is noted in ``missed``; index/changes/derived.py's ``write_refined`` then rolls the write back,
asks for the missed chunks (``ask_missed``), outside the transaction, and writes again.
"""

from __future__ import annotations

import time

from ..core.errors import ExtractionFailed
from ..core.models import RawRelation
from ..extract.prompt import cache_key
from ..llm.completion import GaveUp, SoloPool, complete, make_client
from ..storage import store
from .ontology import Ontology
from .refine_prompt import REFINE_VERSION, RefineParseError, build_refine_messages, parse_refinement, refine_schema


class OpenAIRefiner:
    """The LLM refinement of offline relationship candidates: one request per parent
    chunk that has candidates, cached like extraction answers. A chunk that gets no valid
    answer keeps its offline candidates (counted in ``failed``): an outage loses no edge."""

    def __init__(self, settings, ontology: Ontology, cache=None, client=None, sleep=time.sleep):
        self.client = client or make_client(settings, "--relations refine", "use --relations spacy")
        self.endpoint = str(self.client.base_url).rstrip("/")
        self.model = settings.model
        self.types = {t.name: t.semantics for t in ontology.prose_types()}
        self.schema = refine_schema(list(self.types))
        self.cache = cache
        self.max_retries = settings.max_retries
        self.sleep = sleep
        self._secret = settings.api_key
        self._pool = SoloPool()  # remembers a dead endpoint: later chunks do not wait for it again
        self.label = f"{self.model}@{self.endpoint}"
        self.calls = self.cache_hits = self.failed = 0
        self.cache_only = False  # set while a write transaction is open
        self.missed: list[tuple[str, list[RawRelation]]] = []

    def refine(self, chunk_text: str, candidates: list[RawRelation]) -> list[RawRelation]:
        """The candidates the model keeps, typed and oriented; the offline candidates when it
        gave no valid answer, or (in ``cache_only`` mode) when its answer is not cached yet."""
        if not candidates:
            return []
        messages, key = self._request(chunk_text, candidates)
        kept = self._cached(key, candidates)
        if kept is not None:
            self.cache_hits += 1
            return kept
        if self.cache_only:
            self.missed.append((chunk_text, candidates))
            return candidates
        return self._ask(messages, key, candidates)

    def ask_missed(self) -> int:
        """Ask for the chunks ``refine`` missed in ``cache_only`` mode (call it with no write
        transaction open) and cache the answers. Returns how many it asked for."""
        missed, self.missed = self.missed, []
        asked = 0
        for chunk_text, candidates in missed:
            messages, key = self._request(chunk_text, candidates)
            if self._cached(key, candidates) is None:
                self._ask(messages, key, candidates)
                asked += 1
        return asked

    def _request(self, chunk_text: str, candidates: list[RawRelation]) -> tuple[list[dict], str]:
        messages = build_refine_messages(chunk_text, candidates, self.types)
        key = cache_key(self.model, messages + [{"role": "system", "content": REFINE_VERSION}], self.schema,
                        self.endpoint)
        return messages, key

    def _cached(self, key: str, candidates: list[RawRelation]) -> list[RawRelation] | None:
        cached = store.cache_get(self.cache, key) if self.cache is not None else None
        if cached is None:
            return None
        try:
            return parse_refinement(cached, candidates, list(self.types))
        except RefineParseError:
            return None  # an unusable cached answer is asked again

    def _send(self, messages: list[dict]):
        self.calls += 1
        return self.client.chat.completions.create(
            model=self.model, messages=messages, temperature=0,
            response_format={"type": "json_schema",
                             "json_schema": {"name": "relation_refinement", "strict": True, "schema": self.schema}},
        )

    def _ask(self, messages: list[dict], key: str, candidates: list[RawRelation]) -> list[RawRelation]:
        try:
            content, kept, _ = complete(
                self._send, messages, lambda content: parse_refinement(content, candidates, list(self.types)),
                parse_errors=(RefineParseError,), max_retries=self.max_retries, sleep=self.sleep,
                where="relationship refinement", endpoint=self.endpoint, secret=self._secret, pool=self._pool)
        except (GaveUp, ExtractionFailed):
            self.failed += 1  # no valid answer: the offline candidates stand as they are
            return candidates
        if self.cache is not None:
            store.cache_put(self.cache, key, self.model, REFINE_VERSION, content)
        return kept


def get_refiner(settings, ontology: Ontology, cache=None, client=None) -> OpenAIRefiner:
    """The model that confirms offline relationship candidates in ``--relations refine`` mode;
    raises ConfigError when no model endpoint is configured."""
    return OpenAIRefiner(settings, ontology, cache=cache, client=client)
