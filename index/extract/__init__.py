"""Extraction: one extractor call per parent chunk, then verification against the chunk text.

Extractors implement :class:`Extractor`; :func:`get_extractor` is the registry. Heavy
backends (openai) are imported only when selected.
"""

from __future__ import annotations

from .base import ExtractionRun, Extractor, FailedChunk, KnownEntity, ProgressFn, no_progress

__all__ = ["EXTRACTORS", "ExtractionRun", "Extractor", "FailedChunk", "KnownEntity", "ProgressFn",
           "get_extractor", "get_refiner", "no_progress"]


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
