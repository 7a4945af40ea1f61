"""Extraction: one extractor call per parent chunk, then verification against the chunk text.

Extractors implement :class:`Extractor`; :func:`get_extractor` is the registry. Heavy
backends (openai) are imported only when selected.
"""

from __future__ import annotations

from .base import (
    ExtractionRun,
    Extractor,
    FailedChunk,
    KnownEntity,
    ModelExtractor,
    ProgressFn,
    VersionedExtractor,
    no_progress,
)

__all__ = ["EXTRACTORS", "ExtractionRun", "Extractor", "FailedChunk", "KnownEntity", "ModelExtractor", "ProgressFn",
           "VersionedExtractor", "get_extractor", "no_progress"]


EXTRACTORS = ("rules", "openai")


def get_extractor(settings, pack, cache=None, client=None, ontology=None) -> Extractor:
    """Build the extractor named by ``settings.extractor``; a model extractor given the
    ``ontology`` also asks for relationships (relations mode 'llm'). Raises ConfigError if
    the name is unknown."""
    from ..core.errors import ConfigError

    if settings.extractor == "rules":
        from .rules import RulesExtractor

        return RulesExtractor(pack)
    if settings.extractor == "openai":
        from .openai_extractor import OpenAIExtractor

        return OpenAIExtractor(settings, pack, cache=cache, client=client, ontology=ontology)
    raise ConfigError(
        f"unknown extractor '{settings.extractor}' (choose one of: {', '.join(EXTRACTORS)})"
    )
