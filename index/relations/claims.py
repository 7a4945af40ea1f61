"""Relationship claims: what an extractor asserted about one chunk, checked at ingest and stored.

A claim keeps its raw endpoint names (or the key of a known entity the model named by id)
and its raw type; ``prepare_claims`` drops, from the chunk alone and for good, malformed
items, ids outside the prompt's known list and evidence that is not a verbatim quote of
the chunk. The claims are stored in ``relation_claims``; a claim whose endpoint resolves to
no entity stays pending (``pending_claims``, ``skip_warning``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from sqlite_utils import Database

from ..core.models import ChunkExtraction
from ..core.normalize import collapse_whitespace, normalize_name
from ..extract.verify import ChunkText
from .normalize import normalize_type
from .ontology import Ontology

POLARITIES = ("asserted", "denied", "uncertain")
SKIP_WARNING = "Skipping relationship {type} from {source} to {target}: One or both entities not found."



# -- phase A': claims from one chunk's extraction (pure) --------------------------------------

@dataclass(frozen=True)
class Claim:
    source_name: str
    source_normalized: str
    source_type: str | None      # set when the endpoint is a known entity (given by id)
    target_name: str
    target_normalized: str
    target_type: str | None
    relation_type: str           # raw, as the extractor gave it
    evidence: str
    confidence: float
    polarity: str
    implicit: bool
    extractor: str


def _endpoint(name: str | None, entity_id: int | None, known: dict) -> tuple[str, str, str | None] | str:
    """(name, normalized, type or None), or a drop reason."""
    if entity_id is not None:
        entity = known.get(entity_id)
        if entity is None:
            return "unknown_entity_id"
        return entity.name, normalize_name(entity.name), entity.entity_type
    if not name or not normalize_name(name):
        return "malformed_relation"
    return collapse_whitespace(name), normalize_name(name), None


def prepare_claims(extraction: ChunkExtraction, chunk: ChunkText) -> tuple[list[Claim], Counter]:
    """The claims of one chunk that survive the ingest-time checks, and drops by reason.

    ``extraction.known`` maps the ids offered in that chunk's prompt to KnownEntity; any
    other id is dropped (``unknown_entity_id``): ids are valid only for their own prompt.
    """
    claims: list[Claim] = []
    dropped: Counter = Counter(extraction.dropped_relations)
    known = extraction.known or {}
    for rel in extraction.relationships:
        source = _endpoint(rel.source_name, rel.source_id, known)
        target = _endpoint(rel.target_name, rel.target_id, known)
        if isinstance(source, str) or isinstance(target, str):
            dropped[source if isinstance(source, str) else target] += 1
            continue
        if normalize_type(rel.relation_type or "", NO_ONTOLOGY) is None or rel.polarity not in POLARITIES:
            dropped["malformed_relation"] += 1
            continue
        if not chunk.has_quote(rel.evidence or ""):
            dropped["hallucinated_evidence"] += 1
            continue
        claims.append(Claim(
            source_name=source[0], source_normalized=source[1], source_type=source[2],
            target_name=target[0], target_normalized=target[1], target_type=target[2],
            relation_type=rel.relation_type.strip(), evidence=collapse_whitespace(rel.evidence),
            confidence=min(1.0, max(0.0, float(rel.confidence))), polarity=rel.polarity,
            implicit=bool(rel.implicit), extractor=rel.extractor,
        ))
    return claims, dropped


NO_ONTOLOGY = Ontology(packs=(), types={}, aliases={}, pairs={}, maps={}, entity_type_aliases={})


def insert_claims(db: Database, book: str, by_chunk: dict[str, list[Claim]]) -> int:
    rows = [
        (book, chunk_id, i, c.source_name, c.source_normalized, c.source_type, c.target_name,
         c.target_normalized, c.target_type, c.relation_type, c.evidence, c.confidence, c.polarity,
         int(c.implicit), c.extractor)
        for chunk_id, claims in by_chunk.items() for i, c in enumerate(claims)
    ]
    db.conn.executemany(
        "INSERT INTO relation_claims (book, chunk_id, ordinal, source_name, source_normalized, source_type,"
        " target_name, target_normalized, target_type, relation_type, evidence, confidence, polarity,"
        " implicit, extractor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    return len(rows)


def set_book_drops(db: Database, book: str, dropped: Counter) -> None:
    db.execute("UPDATE books SET relation_drop_reasons = ? WHERE title = ?",
               [json.dumps(dict(dropped), sort_keys=True), book])


def pending_claims(db: Database, book: str) -> list[dict]:
    return list(db.query(
        "SELECT relation_type, source_name, target_name, chunk_id FROM relation_claims"
        " WHERE book = ? AND status = 'pending_entities' ORDER BY chunk_id, extractor, ordinal", [book]))


def skip_warning(claim: dict) -> str:
    return SKIP_WARNING.format(type=claim["relation_type"], source=claim["source_name"], target=claim["target_name"])
