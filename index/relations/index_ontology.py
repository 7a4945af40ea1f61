"""The index's relation ontology: stored in ``crossbook_meta`` and ``relation_types``, read back.

index/changes/derived.py stores the merged ontology when the index's settings change; an
index that stores none uses the default packs.
"""

from __future__ import annotations

from sqlite_utils import Database

from ..storage import meta
from .ontology import DEFAULT_PACKS, Ontology, load_ontology, ontology_from_json


def set_index_ontology(db: Database, ontology: Ontology) -> None:
    """Store the merged ontology (source documents in crossbook_meta, types in relation_types);
    index/changes/derived.py calls it when the index's settings change."""
    text = ontology.to_json()
    if meta.ontology_json(db) == text:
        return
    meta.set_ontology_json(db, text)
    db.execute("DELETE FROM relation_types")
    db.conn.executemany(
        "INSERT INTO relation_types (name, mirror, symmetric, canonical, semantics) VALUES (?, ?, ?, ?, ?)",
        [(t.name, t.mirror, int(t.symmetric), int(t.canonical), t.semantics) for t in ontology.types.values()],
    )


def index_ontology(db: Database) -> Ontology:
    """The ontology stored in the index (the default packs for an index that has none)."""
    text = meta.ontology_json(db)
    return ontology_from_json(text) if text else load_ontology(DEFAULT_PACKS)


def index_ontology_json(db: Database) -> str | None:
    return meta.ontology_json(db)
