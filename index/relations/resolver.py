"""Endpoint resolution: which entity a claim's endpoint names, against the current index.

The key if the claim gives one, else the entities mentioned in the claim's chunk by that
name, else the corpus by normalized name (an entity defined somewhere wins over a bare
reference; two defined candidates are ambiguous). ``fingerprint`` keys a review decision
by the normalized relationship, never by row or entity ids.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict

from sqlite_utils import Database

from ..core.normalize import normalize_name
from ..storage.store import in_values


def fingerprint(book: str, chunk_id: str, source: tuple, target: tuple, relation_type: str) -> str:
    payload = json.dumps([book, chunk_id, list(source), list(target), relation_type], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:24]


class Resolver:
    """Endpoint resolution against the entities that have mentions (those GC keeps); given
    ``chunks`` and ``names``, only for claims of those chunks whose endpoints are among those
    normalized names."""

    def __init__(self, db: Database, chunks: set[str] | None = None, names: set[str] | None = None):
        self.by_key: dict[tuple[str, str], int] = {}
        self.key_of: dict[int, tuple[str, str]] = {}
        self.by_normalized: dict[str, set[int]] = defaultdict(set)
        self.defined: set[int] = set()
        self.in_chunk: dict[str, dict[str, set[int]]] = defaultdict(lambda: defaultdict(set))
        self.defined_in_chunk: dict[str, set[int]] = defaultdict(set)
        condition, params = in_values("m.chunk_id", chunks)
        for entity_id, normalized, entity_type, chunk_id, written, mention_type in db.execute(
            "SELECT e.id, e.normalized, e.entity_type, m.chunk_id, m.name, m.mention_type"
            f" FROM entity_mentions m JOIN entities e ON e.id = m.entity_id WHERE {condition}", params
        ):
            self._add(entity_id, (normalized, entity_type), mention_type == "defines")
            self.in_chunk[chunk_id][normalized].add(entity_id)
            self.in_chunk[chunk_id][normalize_name(written)].add(entity_id)
            if mention_type == "defines":
                self.defined_in_chunk[chunk_id].add(entity_id)
        if chunks is not None:
            # the corpus side for the endpoints' names: their entities, and which are defined
            # (one row per entity, not per mention: a popular name has thousands)
            condition, params = in_values("e.normalized", names)
            for entity_id, normalized, entity_type, defined in db.execute(
                "SELECT e.id, e.normalized, e.entity_type, max(m.mention_type = 'defines') FROM entities e"
                f" JOIN entity_mentions m ON m.entity_id = e.id WHERE {condition} GROUP BY e.id", params
            ):
                self._add(entity_id, (normalized, entity_type), bool(defined))

    def _add(self, entity_id: int, key: tuple[str, str], defined: bool) -> None:
        self.by_key[key] = entity_id
        self.key_of[entity_id] = key
        self.by_normalized[key[0]].add(entity_id)
        if defined:
            self.defined.add(entity_id)

    @staticmethod
    def _one(ids: set[int], preferred: set[int]) -> int | None:
        if len(ids) == 1:
            return next(iter(ids))
        narrowed = ids & preferred
        return next(iter(narrowed)) if len(narrowed) == 1 else None

    def resolve_among(self, normalized: str, types: set[str]) -> int | None:
        """The entity of that name among ``types`` only (a defined one wins), on the whole shelf:
        the end a book names without linking it ("*Armor (shield)*": the armour, not the spell)."""
        found = {i for i in self.by_normalized.get(normalized, ()) if self.key_of[i][1] in types}
        return self._one(found, self.defined) if found else None

    def resolve(self, chunk_id: str, normalized: str, entity_type: str | None) -> int | None:
        if entity_type is not None and (normalized, entity_type) in self.by_key:
            return self.by_key[(normalized, entity_type)]
        local = self.in_chunk.get(chunk_id, {}).get(normalized)
        if local:
            found = self._one(local, self.defined_in_chunk.get(chunk_id, set()))
            if found is not None:
                return found
        corpus = self.by_normalized.get(normalized)
        return self._one(corpus, self.defined) if corpus else None
