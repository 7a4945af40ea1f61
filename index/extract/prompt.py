"""The extraction prompt (from the entity index design) and its JSON schema.

Bump PROMPT_VERSION whenever the prompt or schema changes: it is part of the cache key.
"""

from __future__ import annotations

import hashlib
import json

from ..models import ParentChunk
from ..packs import DomainPack

PROMPT_VERSION = "entities-v1"

SYSTEM = (
    "You extract entities from book passages for a cross-reference index. "
    "Copy names and context sentences verbatim from the passage; never invent an entity "
    "that the passage does not name."
)

USER_TEMPLATE = """Given this passage from {book}, section "{heading_path}":

<passage>
{text}
</passage>

Extract all {domain} entities mentioned in the passage. Entity types:
{types}

For each entity give:
- name: the exact name as written in the passage
- type: one of the types above
- mention_type: "defines" if this passage explains or defines the entity, "references" if it only mentions it
- context: one or two sentences copied verbatim from the passage around the mention

Return JSON matching the schema."""


def response_schema(pack: DomainPack) -> dict:
    return {
        "type": "object",
        "properties": {
            "entities": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "type": {"type": "string", "enum": list(pack.type_names)},
                        "mention_type": {"type": "string", "enum": ["defines", "references"]},
                        "context": {"type": "string"},
                    },
                    "required": ["name", "type", "mention_type", "context"],
                    "additionalProperties": False,
                },
            }
        },
        "required": ["entities"],
        "additionalProperties": False,
    }


def build_messages(book: str, parent: ParentChunk, pack: DomainPack) -> list[dict]:
    """The chat messages for one parent chunk: depends only on the chunk, book and pack."""
    types = "\n".join(
        f"- {t.name}: {t.description}" if t.description else f"- {t.name}" for t in pack.entity_types
    )
    user = USER_TEMPLATE.format(
        book=book,
        heading_path=parent.path_str or "(before the first heading)",
        text=parent.text,
        domain=pack.name,
        types=types,
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def cache_key(model: str, messages: list[dict], schema: dict) -> str:
    """sha256 of (model, prompt version, full prompt): equal prompts share one LLM answer."""
    payload = json.dumps(
        {"model": model, "version": PROMPT_VERSION, "messages": messages, "schema": schema},
        sort_keys=True, ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()
