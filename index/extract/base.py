"""The extractor contract: the Extractor protocol and what an extraction run returns.

Kept apart from the registry (``index/extract/__init__.py``) so that extractors import it
without importing the package that imports them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol, runtime_checkable

from ..core.models import ChunkExtraction, ParentChunk

ProgressFn = Callable[[str, int, int], None]


def no_progress(phase: str, done: int, total: int) -> None:
    """The default progress callback: report nothing."""


@dataclass(frozen=True)
class FailedChunk:
    """A parent chunk the extractor gave up on (its other chunks' answers are kept)."""

    chunk_id: str
    where: str       # "Book > Heading > Path"
    reason: str


@dataclass
class ExtractionRun:
    """What an extractor returns for one book: one ChunkExtraction per parent, in order
    (None for a chunk in ``failed``)."""

    chunks: list[ChunkExtraction | None]
    llm_calls: int = 0
    cache_hits: int = 0
    warnings: list[str] = field(default_factory=list)
    failed: list[FailedChunk] = field(default_factory=list)
    # parent chunk id -> the LLM cache key its answer is stored under (`cache prune` keeps these)
    cache_keys: dict[str, str] = field(default_factory=dict)
    vetoes: list = field(default_factory=list)  # the candidates the rules dropped (core.models.Veto)


@dataclass(frozen=True)
class KnownEntity:
    """An entity already in the index, offered to the model by id."""

    id: int
    name: str
    entity_type: str


class Extractor(Protocol):
    """``extract`` is all an extractor needs. One that versions its rules is a
    ``VersionedExtractor``; one that calls a model is a ``ModelExtractor``."""

    name: str
    model: str | None

    def extract(
        self,
        book: str,
        parents: list[ParentChunk],
        known: dict[str, list[KnownEntity]] | None = None,
        progress: ProgressFn = no_progress,
    ) -> ExtractionRun:
        """Return one ChunkExtraction per parent (same order); chunks it gave up on are None
        and listed in ``failed``. Raises ExtractionFailed when no chunk can succeed."""
        ...


@runtime_checkable
class VersionedExtractor(Extractor, Protocol):
    """An extractor whose output changes with its ``version`` (``rules/19``): a book stored
    under another version is extracted again even when its file is unchanged."""

    version: str


@runtime_checkable
class ModelExtractor(Extractor, Protocol):
    """An extractor that calls a model (openai_extractor.py), and what the ingest pipeline
    uses beyond ``extract``: ``situates`` (its answers carry a situating context for each
    chunk), ``on_retry`` (hears each retry: a dead endpoint is not retried in silence),
    ``before_requests`` (runs once before its request threads start), ``plan`` (cached answers
    and prompts, no call: the dry run), ``start``/``wait`` (the requests of every book in one
    pool: pipeline.ingest_all), ``settle`` (waits for the requests under way, their answers
    cached) and ``close`` (ends the pool)."""

    situates: bool
    on_retry: Callable[[str], None]
    before_requests: Callable[[], None]

    def plan(self, book: str, parents: list[ParentChunk], known: dict[str, list[KnownEntity]] | None = None):
        ...

    def start(self, book: str, parents: list[ParentChunk], known: dict[str, list[KnownEntity]] | None = None):
        ...

    def wait(self, pending, progress: ProgressFn = no_progress) -> ExtractionRun:
        ...

    def settle(self) -> None:
        ...

    def close(self) -> None:
        ...
