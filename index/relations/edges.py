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
state, like linker references), for the chunks the change can affect (index/shelf/derived.py: all
of them on a full refresh), and applied as a diff, so a row that does not change keeps its id. A relationship asserted only by a deleted book loses its claims
(ON DELETE CASCADE) and so its row.

Review decisions live in ``relation_reviews``, keyed by the fingerprint of the normalized
relationship before review: sha256 of (book, chunk id, source key, target key, type), with
entity keys as (normalized name, entity type). The fingerprint does not involve row or
entity ids, so a decision is re-applied whenever the same relationship is derived again
(re-ingest of an unchanged section, delete + re-add of a book, a full rebuild).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Callable

from sqlite_utils import Database

from ..core.models import SUB_ENTRY_SEPARATOR, ChunkExtraction, RawRelation
from ..core.normalize import collapse_whitespace, normalize_name
from ..extract.verify import ChunkText
from ..linking.link_state import categories
from ..storage import meta
from ..storage.store import in_values
from .normalize import INVALID, normalize_type, orient, validate
from .ontology import DEFAULT_PACKS, Ontology, load_ontology, ontology_from_json
from .pattern_context import PatternEntity, not_common_noun, only_in_longer_names
from .patterns import pattern_relations
from .structure import chunk_places, defined_entities, is_label_name

EventFn = Callable[[dict], None]
POLARITIES = ("asserted", "denied", "uncertain")
SKIP_WARNING = "Skipping relationship {type} from {source} to {target}: One or both entities not found."


def _no_event(event: dict) -> None:
    pass


# -- the index's ontology ---------------------------------------------------------------------

def set_index_ontology(db: Database, ontology: Ontology) -> None:
    """Store the merged ontology (source documents in crossbook_meta, types in relation_types);
    index/shelf/derived.py calls it when the index's settings change."""
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
        if normalize_type(rel.relation_type or "", _EMPTY) is None or rel.polarity not in POLARITIES:
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


_EMPTY = Ontology(packs=(), types={}, aliases={}, pairs={}, maps={}, entity_type_aliases={})


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


# -- known entities for a prompt --------------------------------------------------------------

# -- the offline path: spaCy candidates, derived per chunk ------------------------------------

def load_svo():
    """(candidate_relations, ChunkEntity) from index/relations/svo.py, or None when that
    module (or spaCy) is not available."""
    try:
        from . import svo  # noqa: PLC0415 - optional, heavy
    except ImportError:
        return None
    fn, entity_cls = getattr(svo, "candidate_relations", None), getattr(svo, "ChunkEntity", None)
    return (fn, entity_cls) if fn and entity_cls else None


def load_parser(mode: str) -> None:
    """Load spaCy's model (seconds) when ``mode`` runs the offline analysis: ingest calls it
    before its write transaction, so the load does not happen inside it. Raises what
    ``svo.load_nlp`` raises (OSError when the model package is missing)."""
    if mode in ("spacy", "refine") and load_svo() is not None:
        from . import svo  # noqa: PLC0415 - optional, heavy

        svo.load_nlp()


def candidate_event(book: str, chunk_id: str, claim: Claim) -> dict:
    """The ``relation.candidate`` event (docs/relations.md) for one claim, before normalization."""
    return {"event": "relation.candidate", "book": book, "chunk_id": chunk_id,
            "source": claim.source_name, "target": claim.target_name,
            "relation_type": claim.relation_type, "evidence": claim.evidence,
            "confidence": claim.confidence, "polarity": claim.polarity,
            "implicit": claim.implicit, "extractor": claim.extractor}


def refresh_svo_claims(
    db: Database, mode: str, events: EventFn = _no_event, refiner=None, chunks: set[str] | None = None
) -> int:
    """Keep the offline claims (catalog patterns and spaCy SVO; confirmed by ``refiner`` in
    'refine' mode) in step with each chunk's text and entities: a chunk (of ``chunks``, or
    any) is analysed again only when its (text, entity list, vocabulary) signature changed;
    each new claim is reported as a ``relation.candidate`` event. Needs the link targets'
    categories current (index/linking/link_state.py). Returns chunks analysed. Given ``chunks``, the
    mode is taken to be the one the claims were made in (index/shelf/derived.py refreshes all
    when it changes)."""
    if mode not in ("spacy", "refine"):
        if chunks is None:
            db.execute("DELETE FROM relation_claims WHERE extractor IN ('spacy', 'pattern', 'llm-refine')")
            db.execute("DELETE FROM relation_svo_chunks")
        return 0
    analysis = _OfflineAnalysis(db, load_svo(), refiner if mode == "refine" else None, chunks)
    parsed = 0
    condition, params = in_values("id", chunks)
    for chunk_id, book, text, sha in db.execute(
        f"SELECT id, book, text, sha256 FROM chunks WHERE kind = 'parent' AND {condition} ORDER BY id", params
    ).fetchall():
        entities = analysis.entities(chunk_id)
        if not analysis.changed(chunk_id, sha, entities):
            continue
        if len(entities) < 2:
            continue
        parsed += 1
        claims = _offline_claims(text, entities, analysis.candidates(text, entities))
        insert_claims(db, book, {chunk_id: claims})
        for claim in claims:
            events(candidate_event(book, chunk_id, claim))
    return parsed


class _OfflineAnalysis:
    """What the offline analysis of some chunks reads once: each chunk's entities (name,
    written forms, key, how defined, where filed), the stored signatures, the ontology."""

    def __init__(self, db: Database, svo, refiner, chunks: set[str] | None):
        self.db, self.svo, self.refiner = db, svo, refiner
        self.per_chunk = _chunk_entities(db, chunks)
        # where each entity's definition is filed (link_state.target_states)
        self.category = categories(db, None if chunks is None else {
            k[0] for entry in self.per_chunk.values() for k in entry})
        condition, params = in_values("chunk_id", chunks)
        self.stored = dict(db.execute(
            f"SELECT chunk_id, signature FROM relation_svo_chunks WHERE {condition}", params).fetchall())
        self.ontology = index_ontology(db)
        # the offline filter keeps only ontology types: another ontology re-derives every chunk
        self.vocabulary = hashlib.sha256((index_ontology_json(db) or "").encode()).hexdigest()
        self.refined_by = refiner.label if refiner is not None else None
        self.places = chunk_places(db, chunks)
        self.owners = defined_entities(db, {
            normalize_name(e["name"].rpartition(SUB_ENTRY_SEPARATOR)[0])
            for entry in self.per_chunk.values() for e in entry.values() if SUB_ENTRY_SEPARATOR in e["name"]})

    def entities(self, chunk_id: str) -> list[tuple]:
        """(name, written forms, key, defines, filed) of each entity the chunk mentions, sorted.
        Block labels are left out (index/relations/structure.py); a label section's owner is
        its heading's entity, and a sub-entry's owner is added, so they can be subjects."""
        place = self.places.get(chunk_id)
        labels = place.labels if place is not None else frozenset()
        if place is not None and place.is_label:
            labels = labels | {place.heading}  # "Gear" over a captain's gear list is no end either
        # a sub-entry is written by its own name ("Bite" for "Cave Bear › Bite")
        rows = {
            key: [e["name"], tuple(sorted({*e["forms"], *(f.rpartition(SUB_ENTRY_SEPARATOR)[2] for f in e["forms"])})),
                  key, e["defines"] or "", self.category.get(key, "")]
            for key, e in self.per_chunk.get(chunk_id, {}).items() if not is_label_name(e["name"], labels)
        }
        owners = [(o, "") for name, *_ in list(rows.values()) if SUB_ENTRY_SEPARATOR in name
                  and (o := self.owners.get(normalize_name(name.rpartition(SUB_ENTRY_SEPARATOR)[0])))]
        if place is not None and place.is_label and place.owner is not None:
            owners.append((place.owner, "heading"))
        for owner, defines in owners:
            if is_label_name(owner.name, labels):
                continue
            row = rows.setdefault(owner.key, [owner.name, (owner.name,), owner.key, "", self.category.get(owner.key, "")])
            row[3] = defines or row[3]
        return sorted(tuple(row) for row in rows.values())

    def changed(self, chunk_id: str, sha: str, entities: list[tuple]) -> bool:
        """Whether the chunk's signature changed; if so its offline claims go and the new
        signature is stored (the caller analyses it again)."""
        signature = hashlib.sha256(json.dumps(
            [sha, entities, self.svo is not None, self.refined_by, self.vocabulary]).encode()).hexdigest()
        if self.stored.get(chunk_id) == signature:
            return False
        self.db.execute("DELETE FROM relation_claims WHERE chunk_id = ? AND extractor IN ('spacy', 'pattern', 'llm-refine')",
                        [chunk_id])
        self.db.execute(
            "INSERT INTO relation_svo_chunks (chunk_id, signature) VALUES (?, ?)"
            " ON CONFLICT(chunk_id) DO UPDATE SET signature = excluded.signature", [chunk_id, signature],
        )
        return True

    def candidates(self, text: str, entities: list[tuple]) -> list[RawRelation]:
        """The chunk's pattern and SVO candidates, refined by the model ('refine') or filtered offline."""
        raw = pattern_relations(text, [
            PatternEntity(name=n, forms=f, entity_type=k[1], defines=d or None, category=c) for n, f, k, d, c in entities
        ])
        if self.svo is not None:
            candidate_relations, chunk_entity = self.svo
            raw += candidate_relations(text, [chunk_entity(name=n, surface_forms=f, key=k) for n, f, k, *_ in entities])
        if not raw:
            return raw
        if self.refiner is not None:
            return self.refiner.refine(text, raw)  # refinement: one request per chunk with candidates
        forms = {n: f for n, f, *_ in entities}
        states = {n for n, f, k, d, c in entities
                  if PatternEntity(name=n, forms=f, entity_type=k[1], defines=d or None, category=c).condition_like}
        return [r for r in raw if _kept_offline(r, forms, self.ontology, states)]


def _chunk_entities(db: Database, chunks: set[str] | None) -> dict[str, dict[tuple[str, str], dict]]:
    """For each chunk: its entities by key, with their name, written forms and how defined."""
    per_chunk: dict[str, dict[tuple[str, str], dict]] = defaultdict(dict)
    condition, params = in_values("m.chunk_id", chunks)
    for chunk_id, normalized, entity_type, entity_name, written, mention_type, source in db.execute(
        "SELECT m.chunk_id, e.normalized, e.entity_type, e.name, m.name, m.mention_type, m.source"
        f" FROM entity_mentions m JOIN entities e ON e.id = m.entity_id WHERE {condition}", params
    ):
        entry = per_chunk[chunk_id].setdefault(
            (normalized, entity_type), {"name": entity_name, "forms": set(), "defines": None})
        entry["forms"].add(written)
        if mention_type == "defines":
            kind = "heading" if source == "heading" else "glossary"
            if entry["defines"] != "heading":
                entry["defines"] = kind
    return per_chunk


def _offline_claims(text: str, entities: list[tuple], raw: list[RawRelation]) -> list[Claim]:
    """The candidates whose ends name the chunk's entities and whose evidence is in its text."""
    by_name: dict[str, tuple[str, str]] = {}
    for n, forms, key, _defines, _filed in entities:
        by_name.setdefault(n, key)
        for form in forms:
            by_name.setdefault(form, key)
    chunk = ChunkText(text)
    claims = []
    for rel in raw:
        source, target = by_name.get(rel.source_name or ""), by_name.get(rel.target_name or "")
        if source is None or target is None or not chunk.has_quote(rel.evidence or ""):
            continue
        if normalize_type(rel.relation_type or "", _EMPTY) is None:
            continue
        claims.append(Claim(
            source_name=rel.source_name, source_normalized=source[0], source_type=source[1],
            target_name=rel.target_name, target_normalized=target[0], target_type=target[1],
            relation_type=rel.relation_type, evidence=collapse_whitespace(rel.evidence),
            confidence=min(1.0, max(0.0, float(rel.confidence))),
            polarity=rel.polarity if rel.polarity in POLARITIES else "asserted",
            implicit=bool(rel.implicit), extractor=rel.extractor,
        ))
    return claims


def _kept_offline(rel: RawRelation, forms: dict[str, tuple[str, ...]], ontology: Ontology, states: set[str]) -> bool:
    """Offline, precision over volume (the refine mode lets a model judge the rest): a verb the
    ontology does not know ("uses", "witnesses") is no edge, nor is an SVO parse between common
    nouns ("a character needs skills") rather than names, nor an SVO ``inflicts`` whose
    condition end is no condition or state (``states``: "your foe inflicts harm")."""
    relation_type = normalize_type(rel.relation_type or "", ontology) or "custom:"
    if relation_type.startswith("custom:"):
        return False
    if rel.extractor != "spacy":
        return True
    if relation_type in ("inflicts", "inflicted_by"):
        condition = rel.target_name if relation_type == "inflicts" else rel.source_name
        if condition not in states:
            return False
    return all(not_common_noun(rel.evidence, forms.get(name, (name,)))
               and not only_in_longer_names(rel.evidence, forms.get(name, (name,)))
               for name in (rel.source_name, rel.target_name))


# -- phase B: resolve, normalize, validate, dedup; applied as a diff ---------------------------

def fingerprint(book: str, chunk_id: str, source: tuple, target: tuple, relation_type: str) -> str:
    payload = json.dumps([book, chunk_id, list(source), list(target), relation_type], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:24]


class _Resolver:
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


_ROW_FIELDS = ("mapped_from", "book", "source_name", "target_name", "evidence", "confidence", "polarity",
               "implicit", "status", "status_reason", "review_state", "extractor", "claims", "fingerprint")


def refresh_relationships(
    db: Database, events: EventFn = _no_event, book: str | None = None, chunks: set[str] | None = None
) -> dict:
    """Re-derive every relationship (of ``chunks``, or all) from the claims and the current
    entities (call inside the caller's transaction, after entities are resolved and linked,
    before entity GC). Emits ``relation.normalized`` for the rows of ``book``. Returns counts."""
    ontology = index_ontology(db)
    condition, params = in_values("chunk_id", chunks)
    endpoints = None if chunks is None else {
        name for row in db.execute(
            f"SELECT source_normalized, target_normalized FROM relation_claims WHERE {condition}", params)
        for name in row}
    resolver = _Resolver(db, chunks, endpoints)
    desired = _desired_rows(db, resolver, ontology, chunks)
    _validate_rows(desired, resolver, ontology)
    counts = _apply_rows(db, desired, chunks)
    if book is not None:
        _tell_normalized(events, book, desired, resolver)
    invalid = sum(1 for r in desired.values() if r["status"] == INVALID)
    return {"relationships": len(desired), "invalid": invalid, **counts}


def _desired_rows(db: Database, resolver: "_Resolver", ontology: Ontology, chunks: set[str] | None) -> dict[tuple, dict]:
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


def _add_row(desired: dict, claim: dict, source_key: tuple, target_key: tuple, resolver: "_Resolver",
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


def _validate_rows(desired: dict, resolver: "_Resolver", ontology: Ontology) -> None:
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


def _tell_normalized(events: EventFn, book: str, desired: dict, resolver: "_Resolver") -> None:
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
    db: Database, events: EventFn = _no_event, book: str | None = None, refiner=None,
    chunks: set[str] | None = None, names: set[str] | None = None,
) -> dict:
    """The derived relationship state: offline claims (in 'spacy' and 'refine' modes; refined
    by ``refiner`` in 'refine' mode), then the rows; of every chunk, or of ``chunks`` and of
    the chunks whose claims name one of the normalized ``names`` (index/shelf/derived.py)."""
    mode = meta.relations_mode(db)
    refresh_svo_claims(db, mode, events, refiner, chunks)
    if chunks is not None and names:
        source, params = in_values("source_normalized", names)
        target, _ = in_values("target_normalized", names)
        chunks = chunks | {r[0] for r in db.execute(
            f"SELECT chunk_id FROM relation_claims WHERE {source} UNION SELECT chunk_id FROM relation_claims WHERE {target}",
            params + params)}
    return refresh_relationships(db, events, book, chunks)
