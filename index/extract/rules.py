"""The offline default extractor: a section's heading defines the entity it names.

References are not found here but by the corpus linker (``index/extract/linker.py``), which
matches every defined name against every chunk once the set of definitions is known.
"""

from __future__ import annotations

from ..models import ChunkExtraction, ParentChunk, RawMention
from ..packs import DomainPack
from . import ExtractionRun, KnownEntity, ProgressFn, no_progress
from .text import first_body_sentence


def heading_definition(parent: ParentChunk, pack: DomainPack, book: str) -> RawMention | None:
    """The definition a section heading makes, or None (title, category, stop-listed, part>0)."""
    heading = parent.heading
    if not heading or parent.part > 0:
        return None
    if len(parent.heading_path) == 1 and heading == book:
        return None  # the book's own title
    if pack.is_stop(heading) or pack.is_category(heading):
        return None
    context = first_body_sentence(parent.text) or parent.text.splitlines()[0]
    return RawMention(
        name=heading,
        entity_type=pack.type_for(parent.heading_path),
        mention_type="defines",
        context=context,
        source="heading",
    )


class RulesExtractor:
    name = "rules"
    model = None

    def __init__(self, pack: DomainPack):
        self.pack = pack

    def extract(
        self,
        book: str,
        parents: list[ParentChunk],
        known: dict[str, list[KnownEntity]] | None = None,
        progress: ProgressFn = no_progress,
    ) -> ExtractionRun:
        chunks = []
        for i, parent in enumerate(parents):
            definition = heading_definition(parent, self.pack, book)
            chunks.append(ChunkExtraction(parent.id, [definition] if definition else []))
            progress("extract", i + 1, len(parents))
        return ExtractionRun(chunks)
