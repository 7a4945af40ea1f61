"""The refiner seam: what confirms and types one chunk's relationship candidates in an index
in 'refine' mode. openai_refiner.OpenAIRefiner is the one implementation; the shelf's door
and the derivation (edges.refresh_svo_claims) hold any object of this shape, and a test can
pass its own."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..core.models import RawRelation


@runtime_checkable
class Refiner(Protocol):
    """Confirms and types one chunk's candidates; returns what it keeps."""

    label: str     # model and endpoint: part of each chunk's derivation signature
    calls: int
    cache_hits: int
    failed: int

    def refine(self, chunk_text: str, candidates: list[RawRelation]) -> list[RawRelation]:
        ...
