"""Two-phase persistence of relationships, and their derivation (GC included).

Phase A happens in the ingest transaction: the book's entities are materialized (mentions
are stored, entities resolved). Phase B turns the book's *claims* (what the extractor
asserted: raw endpoint names, or the (normalized, type) key of a known entity the model
named by id) into ``entity_relationships`` rows by resolving each endpoint against the
index: the key if given, else the entities mentioned in the claim's chunk by that name,
else the corpus by normalized name (an entity defined somewhere wins over a bare
reference; two defined candidates are ambiguous).

Dropped vs pending (the rule that keeps the index invariant):
- decided at ingest from the chunk alone, and final: a claim whose evidence quote is not a
  verbatim (whitespace-normalized) substring of its chunk is dropped
  (``hallucinated_evidence``), as are malformed items and ids outside the prompt's known
  list (``unknown_entity_id``). These depend only on the book, so any ingest order agrees.
- decided at derivation against the *current* index, and revisable: a claim with an
  endpoint that resolves to no entity is kept in ``relation_claims`` with status
  ``pending_entities`` and produces no edge (no dangling edge is ever stored). It is
  reported with the warning ``Skipping relationship {Type} from {Source} to {Target}: One
  or both entities not found.`` and counted as ``unresolved_endpoint``. If a book ingested
  later defines the entity, the edge appears; if the entity is garbage-collected, the edge
  goes back to pending. Dropping it for good instead would make the result depend on the
  order books were ingested in.

``entity_relationships`` is recomputed from the claims at every refresh (it is derived
state, like linker references), for the chunks the change can affect (index/changes/derived.py: all
of them on a full refresh), and applied as a diff, so a row that does not change keeps its id. A relationship asserted only by a deleted book loses its claims
(ON DELETE CASCADE) and so its row.

Review decisions live in ``relation_reviews``, keyed by the fingerprint of the normalized
relationship before review: sha256 of (book, chunk id, source key, target key, type), with
entity keys as (normalized name, entity type). The fingerprint does not involve row or
entity ids, so a decision is re-applied whenever the same relationship is derived again
(re-ingest of an unchanged section, delete + re-add of a book, a full rebuild).

This module derives the rows and applies them as a diff; the claims and their ingest-time
checks: ``claims.py``; the offline claims (patterns, spaCy SVO): ``offline.py``; endpoint
resolution and the review fingerprint: ``resolver.py``; the index's stored ontology:
``index_ontology.py``.
"""

from __future__ import annotations

from sqlite_utils import Database

from ..core.steps import EventFn, no_event
from ..storage.index_state import IndexState, read_state
from ..storage.store import in_values
from .index_ontology import index_ontology, ontology_of
from .normalize import INVALID, normalize_type, orient, validate
from .offline import refresh_svo_claims
from .ontology import Ontology
from .pattern_context import NAMED_EXTRACTOR
from .resolver import Resolver, fingerprint

# -- phase B: resolve (resolver.py), normalize, validate, dedup; applied as a diff ---------------

_ROW_FIELDS = ("mapped_from", "book", "source_name", "target_name", "evidence", "confidence", "polarity",
               "implicit", "status", "status_reason", "review_state", "extractor", "claims", "fingerprint")


def refresh_relationships(
    db: Database, events: EventFn = no_event, book: str | None = None, chunks: set[str] | None = None,
    ontology: Ontology | None = None,
) -> dict:
    """Re-derive every relationship (of ``chunks``, or all) from the claims and the current
    entities (call inside the caller's transaction, after entities are resolved and linked,
    before entity GC), by ``ontology`` (the index's, read, when not given). Emits
    ``relation.normalized`` for the rows of ``book``. Returns counts."""
    ontology = ontology or index_ontology(db)
    condition, params = in_values("chunk_id", chunks)
    endpoints = None if chunks is None else {
        name for row in db.execute(
            f"SELECT source_normalized, target_normalized FROM relation_claims WHERE {condition}", params)
        for name in row}
    resolver = Resolver(db, chunks, endpoints)
    desired = _desired_rows(db, resolver, ontology, chunks)
    _validate_rows(desired, resolver, ontology)
    counts = _apply_rows(db, desired, chunks)
    if book is not None:
        _tell_normalized(events, book, desired, resolver)
    invalid = sum(1 for r in desired.values() if r["status"] == INVALID)
    return {"relationships": len(desired), "invalid": invalid, **counts}


def _desired_rows(db: Database, resolver: "Resolver", ontology: Ontology, chunks: set[str] | None) -> dict[tuple, dict]:
    """The rows the claims (of ``chunks``, or all) give, by (source id, target id, type, chunk),
    reviews applied; stores each claim's resolved/pending status when it changed."""
    reviews = {r[0]: r[1:] for r in db.execute(
        "SELECT fingerprint, decision, relation_type, flipped FROM relation_reviews")}
    desired: dict[tuple, dict] = {}
    claim_status: dict[int, str] = {}
    condition, params = in_values("chunk_id", chunks)
    for claim in db.query(
        "SELECT id, book, chunk_id, source_name, source_normalized, source_type, target_name,"
        " target_normalized, target_type, relation_type, evidence, confidence, polarity, implicit,"
        f" extractor, status FROM relation_claims WHERE {condition} ORDER BY book, chunk_id, extractor, ordinal",
        params,
    ):
        source_id = resolver.resolve(claim["chunk_id"], claim["source_normalized"], claim["source_type"])
        if claim["extractor"] == NAMED_EXTRACTOR:
            target_id = None if source_id is None else _named_end(resolver, claim, resolver.key_of[source_id][1])
        else:
            target_id = resolver.resolve(claim["chunk_id"], claim["target_normalized"], claim["target_type"])
        status = "resolved" if source_id is not None and target_id is not None else "pending_entities"
        if status != claim["status"]:
            claim_status[claim["id"]] = status
        if status == "resolved":
            _add_row(desired, claim, resolver.key_of[source_id], resolver.key_of[target_id], resolver, reviews, ontology)
    if claim_status:
        db.conn.executemany("UPDATE relation_claims SET status = ? WHERE id = ?",
                            [(s, i) for i, s in claim_status.items()])
    return desired


def _named_end(resolver: "Resolver", claim: dict, source_kind: str) -> int | None:
    """The entity a claim to a name no chunk linked ends at: of the kind the claim names, else
    one of no kind ("Shield" a wielded thing); with no kind named, of the source's kind or of
    none (a variant is of its source's kind)."""
    if claim["target_type"]:
        found = resolver.resolve_among(claim["target_normalized"], {claim["target_type"]})
        return found if found is not None else resolver.resolve_among(claim["target_normalized"], {"other"})
    return resolver.resolve_among(claim["target_normalized"], {source_kind, "other"})


def _add_row(desired: dict, claim: dict, source_key: tuple, target_key: tuple, resolver: "Resolver",
             reviews: dict, ontology: Ontology) -> None:
    """Add one resolved claim's row to ``desired`` (or count it on the row it repeats)."""
    relation_type = normalize_type(claim["relation_type"], ontology)
    if relation_type is None:
        return
    names = (claim["source_name"], claim["target_name"])
    oriented = orient(relation_type, source_key, target_key, ontology)
    if oriented.flipped:
        names = names[::-1]
    fp = fingerprint(claim["book"], claim["chunk_id"], oriented.source, oriented.target, oriented.relation_type)
    review = reviews.get(fp)
    review_state = review[0] if review is not None else "suggested"
    if review is not None and (review[1] or review[2]):
        oriented, names = _adjusted(oriented, names, review, ontology)
    key = (resolver.by_key[oriented.source], resolver.by_key[oriented.target], oriented.relation_type, claim["chunk_id"])
    if key in desired:  # the same relationship claimed twice in one chunk: one row
        row = desired[key]
        row["claims"] += 1
        row["confidence"] = max(row["confidence"], claim["confidence"])
        row["implicit"] = int(bool(row["implicit"]) and bool(claim["implicit"]))  # stated once is stated
        return
    desired[key] = {
        "mapped_from": claim["relation_type"] if claim["relation_type"] != oriented.relation_type else None,
        "book": claim["book"], "source_name": names[0], "target_name": names[1],
        "evidence": claim["evidence"], "confidence": claim["confidence"], "polarity": claim["polarity"],
        "implicit": claim["implicit"], "status": None, "status_reason": None, "review_state": review_state,
        "extractor": claim["extractor"], "claims": 1, "fingerprint": fp,
    }


def _adjusted(oriented, names: tuple, review: tuple, ontology: Ontology):
    """A reviewer's adjustment (another type, the other direction): it stays when the adjusted
    relationship is later accepted (or rejected). Returns (oriented, names)."""
    new_type = normalize_type(review[1], ontology) if review[1] else oriented.relation_type
    ends = (oriented.target, oriented.source) if review[2] else (oriented.source, oriented.target)
    adjusted = orient(new_type or oriented.relation_type, *ends, ontology)
    if adjusted.source != oriented.source:
        names = names[::-1]
    return adjusted, names


def _validate_rows(desired: dict, resolver: "Resolver", ontology: Ontology) -> None:
    for (s_id, t_id, relation_type, _), row in desired.items():
        row["status"], row["status_reason"] = validate(
            relation_type, resolver.key_of[s_id][1], resolver.key_of[t_id][1], ontology,
            confidence=row["confidence"], implicit=bool(row["implicit"]), evidence=row["evidence"],
            same_entity=s_id == t_id,
        )


def _apply_rows(db: Database, desired: dict, chunks: set[str] | None) -> dict:
    """Make the stored rows (of ``chunks``, or all) ``desired``, as a diff: a row that does
    not change keeps its id, and so does one a review re-typed or turned (its stale row, of
    the same fingerprint, is re-keyed rather than deleted and inserted anew)."""
    condition, params = in_values("chunk_id", chunks)
    existing = {
        tuple(r[1:5]): (r[0], tuple(r[5:]))
        for r in db.execute(
            "SELECT id, source_id, target_id, relation_type, chunk_id, " + ", ".join(_ROW_FIELDS)
            + f" FROM entity_relationships WHERE {condition}", params
        )
    }
    stale = {row_id for key, (row_id, _) in existing.items() if key not in desired}
    stale_by_fingerprint = {fields[-1]: row_id for key, (row_id, fields) in existing.items() if row_id in stale}
    rekeyed = []
    for key, row in desired.items():
        row_id = stale_by_fingerprint.pop(row["fingerprint"], None) if key not in existing else None
        if row_id is not None:
            stale.discard(row_id)
            rekeyed.append((*key, *(row[f] for f in _ROW_FIELDS), row_id))
    db.conn.executemany("DELETE FROM entity_relationships WHERE id = ?", [(i,) for i in sorted(stale)])
    db.conn.executemany(
        "UPDATE entity_relationships SET source_id = ?, target_id = ?, relation_type = ?, chunk_id = ?, "
        + ", ".join(f"{f} = ?" for f in _ROW_FIELDS) + " WHERE id = ?", rekeyed
    )
    new = _update_and_insert(db, desired, existing, {tuple(r[:4]) for r in rekeyed})
    return {"inserted": new, "deleted": len(stale), "rekeyed": len(rekeyed)}


def _update_and_insert(db: Database, desired: dict, existing: dict, rekeyed_keys: set) -> int:
    """Update the rows whose fields changed, insert the new ones; returns how many are new."""
    changed = [
        (*(row[f] for f in _ROW_FIELDS), existing[key][0])
        for key, row in desired.items()
        if key in existing and existing[key][1] != tuple(row[f] for f in _ROW_FIELDS)
    ]
    db.conn.executemany(
        "UPDATE entity_relationships SET " + ", ".join(f"{f} = ?" for f in _ROW_FIELDS) + " WHERE id = ?", changed
    )
    new = [(*key, *(row[f] for f in _ROW_FIELDS)) for key, row in desired.items()
           if key not in existing and key not in rekeyed_keys]
    db.conn.executemany(
        "INSERT INTO entity_relationships (source_id, target_id, relation_type, chunk_id, "
        + ", ".join(_ROW_FIELDS) + ") VALUES (" + ", ".join("?" * (4 + len(_ROW_FIELDS))) + ")",
        new,
    )
    return len(new)


def _tell_normalized(events: EventFn, book: str, desired: dict, resolver: "Resolver") -> None:
    """The ``relation.normalized`` event (docs/relations.md) for each of ``book``'s rows."""
    for (s_id, t_id, relation_type, chunk_id), row in desired.items():
        if row["book"] == book:
            events({
                "event": "relation.normalized", "book": book, "chunk_id": chunk_id,
                "source": resolver.key_of[s_id][0], "target": resolver.key_of[t_id][0],
                "relation_type": relation_type, "mapped_from": row["mapped_from"],
                "status": row["status"], "status_reason": row["status_reason"],
                "confidence": row["confidence"], "polarity": row["polarity"],
            })


def refresh(
    db: Database, events: EventFn = no_event, book: str | None = None, refiner=None,
    chunks: set[str] | None = None, names: set[str] | None = None, state: IndexState | None = None,
    tell=None,
) -> dict:
    """The derived relationship state: offline claims (in 'spacy' and 'refine' modes; refined
    by ``refiner`` in 'refine' mode), then the rows; of every chunk, or of ``chunks`` and of
    the chunks whose claims name one of the normalized ``names`` (index/changes/derived.py).
    ``state``: the index's, as the change holds it (its relations mode and ontology); read
    when not given; ``tell(done, total)`` hears the chunks analysed as it goes."""
    state = state or read_state(db)
    refresh_svo_claims(db, state, events, refiner, chunks, tell)
    if chunks is not None and names:
        source, params = in_values("source_normalized", names)
        target, _ = in_values("target_normalized", names)
        chunks = chunks | {r[0] for r in db.execute(
            f"SELECT chunk_id FROM relation_claims WHERE {source} UNION SELECT chunk_id FROM relation_claims WHERE {target}",
            params + params)}
    return refresh_relationships(db, events, book, chunks, ontology_of(state))
