"""The index's relation ontology: its source documents in the index's state
(storage/index_state.py) and its types in ``relation_types``, read back.

index/changes/derived.py stores the merged ontology when the index's settings change; an
index that stores none uses the default packs.
"""

from __future__ import annotations

from sqlite_utils import Database

from ..storage.index_state import IndexState, read_state
from .ontology import Ontology, active_pack_names, load_ontology, ontology_from_json


def store_relation_types(db: Database, ontology: Ontology) -> None:
    """Store the merged ontology's types in ``relation_types`` (its source documents go in the
    index's state: index/changes/derived.py calls it when the index's settings change)."""
    db.execute("DELETE FROM relation_types")
    db.conn.executemany(
        "INSERT INTO relation_types (name, mirror, symmetric, canonical, semantics) VALUES (?, ?, ?, ?, ?)",
        [(t.name, t.mirror, int(t.symmetric), int(t.canonical), t.semantics) for t in ontology.types.values()],
    )


def ontology_of(state: IndexState) -> Ontology:
    """The ontology an index's state records (the default packs and the genres' vocabularies
    for an index that has none)."""
    return ontology_from_json(state.ontology) if state.ontology else load_ontology(active_pack_names((), ()))


def index_ontology(db: Database) -> Ontology:
    """The ontology stored in the index (the default packs for an index that has none)."""
    return ontology_of(read_state(db))

