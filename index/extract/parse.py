"""Pure parsing of a model's answer into mentions (no I/O; tested on fixture strings).

The answer as a whole must be a JSON object with an ``entities`` list, or it is rejected
(ParseError: the caller retries, never caches it). Inside it, each entity that does not
fit the schema is dropped and counted, not fatal.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Literal

from pydantic import BaseModel, ValidationError

from ..models import ChunkExtraction, RawMention

_FENCE = re.compile(r"^\s*```(?:json)?\s*\n(.*)\n```\s*$", re.DOTALL)


class ParseError(ValueError):
    """The answer is not a usable extraction (not JSON, wrong shape)."""


class EntityOut(BaseModel):
    name: str
    type: str
    mention_type: Literal["defines", "references"]
    context: str


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
            RawMention(entity.name, entity.type, entity.mention_type, entity.context, "llm")
        )
    extraction.dropped = dropped
    extraction.raw = data
    return extraction
