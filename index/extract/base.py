"""The extractor contract: the Extractor protocol and what an extraction run returns.

Kept apart from the registry (``index/extract/__init__.py``) so that extractors import it
without importing the package that imports them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol

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


@dataclass(frozen=True)
class KnownEntity:
    """An entity already in the index, offered to the model by id."""

    id: int
    name: str
    entity_type: str


class Extractor(Protocol):
    """``extract`` is all an extractor needs. One that calls a model may also offer
    ``plan(book, parents, known)`` (cached answers and prompts, no call: the dry run),
    ``start``/``wait`` (requests of every book in one pool: pipeline.ingest_all), ``settle``
    and ``close`` (see openai_extractor.py)."""

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
