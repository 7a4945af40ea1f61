"""Extraction: one extractor call per parent chunk, then verification against the chunk text.

Extractors implement :class:`Extractor`; :func:`get_extractor` is the registry. Heavy
backends (openai) are imported only when selected.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol

from ..models import ChunkExtraction, ParentChunk

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


EXTRACTORS = ("rules", "openai")


def get_extractor(settings, pack, cache=None, client=None) -> Extractor:
    """Build the extractor named by ``settings.extractor``; raises ConfigError if unknown."""
    from ..errors import ConfigError

    if settings.extractor == "rules":
        from .rules import RulesExtractor

        return RulesExtractor(pack)
    if settings.extractor == "openai":
        from .openai_extractor import OpenAIExtractor

        return OpenAIExtractor(settings, pack, cache=cache, client=client)
    raise ConfigError(
        f"unknown extractor '{settings.extractor}' (choose one of: {', '.join(EXTRACTORS)})"
    )


def get_refiner(settings, ontology, cache=None, client=None):
    """The model that confirms offline relationship candidates in ``--relations refine`` mode
    (index/relations/refine.py); raises ConfigError when no model endpoint is configured."""
    from .openai_extractor import OpenAIRefiner

    return OpenAIRefiner(settings, ontology, cache=cache, client=client)
