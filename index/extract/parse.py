"""Pure parsing of a model's answer into mentions (no I/O; tested on fixture strings).

The answer as a whole must be a JSON object with an ``entities`` list whose items are not
all malformed, or it is rejected (ParseError: the caller retries, never caches it). Inside it, each entity or relationship
that does not fit the schema is dropped and counted, not fatal; a missing or malformed
``relationships`` list counts as none. The ``situating_context`` is optional: a missing,
non-string, empty or oversized one is no context (the chunk's entities still count).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from ..core.models import ChunkExtraction, RawMention, RawRelation
from ..llm.answer import ParseError

_FENCE = re.compile(r"^\s*```(?:json)?\s*\n(.*)\n```\s*$", re.DOTALL)
# one or two sentences; the child splitter keeps room for this much beside each child
# (embed.SITUATING_TOKENS), so a longer one is not a situating context but an essay
MAX_SITUATING_CHARS = 300


class EntityOut(BaseModel):
    name: str
    type: str
    mention_type: Literal["defines", "references"]
    context: str


class RelationOut(BaseModel):
    source_name: str | None = None
    source_id: int | None = None
    target_name: str | None = None
    target_id: int | None = None
    relation_type: str
    evidence: str
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    polarity: Literal["asserted", "denied", "uncertain"] = "asserted"
    implicit: bool = False


def parse_relationship(item) -> RawRelation | None:
    """One relationship item, or None when it is malformed (no endpoint, empty type...)."""
    try:
        rel = RelationOut.model_validate(item)
    except ValidationError:
        return None
    has_source = rel.source_id is not None or (rel.source_name or "").strip()
    has_target = rel.target_id is not None or (rel.target_name or "").strip()
    if not (has_source and has_target and rel.relation_type.strip() and rel.evidence.strip()):
        return None
    return RawRelation(
        source_name=rel.source_name if rel.source_id is None else None,
        target_name=rel.target_name if rel.target_id is None else None,
        relation_type=rel.relation_type, evidence=rel.evidence, confidence=rel.confidence,
        polarity=rel.polarity, implicit=rel.implicit, source_id=rel.source_id, target_id=rel.target_id,
        extractor="llm",
    )


def load_json_object(raw: str) -> dict:
    """The JSON object in ``raw`` (a ```json fence is tolerated); raises ParseError."""
    if raw is None or not raw.strip():
        raise ParseError("empty answer")
    fenced = _FENCE.match(raw)
    text = fenced.group(1) if fenced else raw
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"not JSON ({exc.msg} at char {exc.pos})") from None
    if not isinstance(data, dict):
        raise ParseError(f"expected a JSON object, got {type(data).__name__}")
    return data


def parse_extraction(raw: str, chunk_id: str) -> ChunkExtraction:
    """Parse one answer; returns the mentions and a Counter of dropped items by reason."""
    data = load_json_object(raw)
    items = data.get("entities")
    if not isinstance(items, list):
        raise ParseError("the answer has no 'entities' list")
    extraction = ChunkExtraction(chunk_id)
    dropped = Counter()
    for item in items:
        try:
            entity = EntityOut.model_validate(item)
        except ValidationError:
            dropped["malformed_entity"] += 1
            continue
        extraction.mentions.append(
            RawMention(entity.name, entity.type, entity.mention_type, entity.context, "llm", rule="llm")
        )
    if items and not extraction.mentions:
        # every item broken is a broken answer, not a chunk without entities: retry, never cache
        raise ParseError(f"all {len(items)} entity items are malformed")
    extraction.dropped = dropped
    relations = data.get("relationships")
    dropped_relations = Counter()
    for item in relations if isinstance(relations, list) else []:
        relation = parse_relationship(item)
        if relation is None:
            dropped_relations["malformed_relation"] += 1
        else:
            extraction.relationships.append(relation)
    if relations is not None and not isinstance(relations, list):
        dropped_relations["malformed_relation"] += 1
    extraction.dropped_relations = dict(dropped_relations)
    extraction.situating_context = parse_situating_context(data.get("situating_context"))
    extraction.raw = data
    return extraction


def parse_situating_context(value) -> str | None:
    """The answer's situating context with its whitespace collapsed, or None when it is not a
    string, is empty, or is longer than MAX_SITUATING_CHARS."""
    if not isinstance(value, str):
        return None
    text = " ".join(value.split())
    return text if 0 < len(text) <= MAX_SITUATING_CHARS else None
