"""The offline claims: catalog patterns and spaCy SVO, and a doc set's structure, derived per chunk.

A chunk is analysed again only when its signature (text, entities, ontology, refiner, what
its book's genres read) changed. A book's genres choose what is read (core/genres.py): from
prose, for a genre whose vocabulary is read in sentences (a rulebook's; also a book of no
genre), its candidates (patterns.py, and svo.py when spaCy is installed) are confirmed by
the refiner in 'refine' mode or filtered offline (an ontology type the book's genres take,
names rather than common nouns, an ``inflicts`` whose end is a state); from structure, for
documentation, what its pages state (doc_structure.py: members, See also lists,
deprecations), in every relations mode but 'off', with no parse. A book no genre of which
reads prose gets no spaCy parse (and spaCy is not even loaded for it). Both are stored as claims.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict

from sqlite_utils import Database

from ..core.genres import genres_in_use, reads_prose, reads_structure
from ..core.models import SUB_ENTRY_SEPARATOR, RawRelation
from ..core.normalize import collapse_whitespace, normalize_name
from ..core.packs import shipped_genres
from ..core.rule_guard import guarded
from ..core.steps import EventFn, no_event
from ..extract.verify import ChunkText
from ..linking.link_state import categories
from ..storage.book_genres import books_genres
from ..storage.index_state import IndexState
from ..storage.store import in_values
from .claims import NO_ONTOLOGY, POLARITIES, Claim, insert_claims
from .doc_structure import EXTRACTOR as STRUCTURE_EXTRACTOR
from .doc_structure import DocPlace, doc_places, structure_claims
from .index_ontology import ontology_of
from .normalize import normalize_type
from .ontology import Ontology
from .pattern_context import NAMED_EXTRACTOR, OFFLINE_EXTRACTORS, PatternEntity, not_common_noun, only_in_longer_names
from .stated import stated_relations
from .structure import chunk_places, defined_entities, is_label_name


def load_svo():
    """(candidate_relations, ChunkEntity) from index/relations/svo.py, or None when that
    module (or spaCy) is not available."""
    try:
        from . import svo  # noqa: PLC0415 - optional, heavy
    except ImportError:
        return None
    fn, entity_cls = getattr(svo, "candidate_relations", None), getattr(svo, "ChunkEntity", None)
    return (fn, entity_cls) if fn and entity_cls else None


# every claim this module derives (and deletes again when a chunk or the mode changes)
DERIVED_EXTRACTORS = (*OFFLINE_EXTRACTORS, STRUCTURE_EXTRACTOR)


def load_parser(mode: str, genres: frozenset[str] | tuple[str, ...] | None = None, *, any_genre: bool = True) -> None:
    """Load spaCy's model (seconds) when ``mode`` runs the offline analysis and a book of
    ``genres`` reads prose (``any_genre``: whatever its genres): ingest calls it before its
    write transaction, so the load does not happen inside it. Raises what ``svo.load_nlp``
    raises (OSError when the model package is missing)."""
    if not any_genre and not reads_prose(shipped_genres(), genres):
        return
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
    db: Database, state: IndexState, events: EventFn = no_event, refiner=None, chunks: set[str] | None = None,
    tell=None,
) -> int:
    """Keep the offline claims (catalog patterns and spaCy SVO, confirmed by ``refiner`` in
    'refine' mode, for the books whose genres read prose; a doc set's structure for those whose
    genres read it) in step with each chunk's text and entities: a chunk (of ``chunks``, or
    any) is analysed again only when its signature changed; each new claim is reported as a
    ``relation.candidate`` event. Needs the link targets' categories current
    (index/linking/link_state.py). Returns the chunks whose prose was analysed. ``state``: the
    index's (its relations mode and ontology). Given ``chunks``, the mode is taken to be the one
    the claims were made in (index/changes/derived.py refreshes all when it changes).
    ``tell(done, total)`` hears the chunks gone through as it goes."""
    mode = state.relations_mode
    if mode not in ("spacy", "refine") and chunks is None:  # no prose read: its claims go
        gone = OFFLINE_EXTRACTORS if mode == "llm" else DERIVED_EXTRACTORS
        db.execute(f"DELETE FROM relation_claims WHERE extractor IN ({', '.join('?' * len(gone))})", gone)
        db.execute("DELETE FROM relation_svo_chunks")
    if mode == "off":
        return 0
    genres, packs = books_genres(db), shipped_genres()
    condition, params = in_values("id", chunks)
    rows = db.execute(
        f"SELECT id, book, text, sha256 FROM chunks WHERE kind = 'parent' AND {condition} ORDER BY id", params
    ).fetchall()
    if mode == "llm":  # the model's claims are the prose's: only a doc set's structure is read here
        rows = [r for r in rows if reads_structure(packs, genres.get(r[1]))]
    books = {r[1] for r in rows}
    prose = {b for b in books if mode in ("spacy", "refine") and reads_prose(packs, genres.get(b))}
    structure = {b for b in books if reads_structure(packs, genres.get(b))}
    # every chunk (None) when every book reads prose, as before genres chose
    prose_chunks = None if chunks is None and prose == books else {r[0] for r in rows if r[1] in prose}
    analysis = _OfflineAnalysis(db, refiner if mode == "refine" else None, chunks, state, prose_chunks, structure)
    parsed = 0
    for done, (chunk_id, book, text, sha) in enumerate(rows, 1):
        if tell is not None:
            tell(done, len(rows))
        entities = analysis.entities(chunk_id) if book in prose else []
        place = analysis.places_of_docs.get(chunk_id) if book in structure else None
        if not analysis.changed(chunk_id, sha, entities, book in prose, place):
            continue
        claims = []
        # each chunk read with its own book's genres; a rule that raises costs this chunk's claims
        with genres_in_use(genres.get(book)), guarded(book, chunk_id):
            if entities:  # one entity may still name an unlinked base ("*Weapon (scimitar)*"): patterns only
                parsed += 1
                claims = offline_claims(text, entities, analysis.candidates(text, entities))
            if place is not None:
                claims += structure_claims(text, place, analysis.ontology)
        insert_claims(db, book, {chunk_id: claims})
        for claim in claims:
            events(candidate_event(book, chunk_id, claim))
    return parsed


class _OfflineAnalysis:
    """What the offline analysis of some chunks reads once: each chunk's entities (name,
    written forms, key, how defined, where filed) for the books read from prose, the places
    on their pages of the chunks of books read from structure, the stored signatures, the
    ontology. spaCy is loaded only when a book read from prose is among them."""

    def __init__(self, db: Database, refiner, chunks: set[str] | None, state: IndexState,
                 prose_chunks: set[str] | None, structure: set[str]):
        self.db, self.refiner = db, refiner
        prose = prose_chunks is None or bool(prose_chunks)
        self.svo = load_svo() if prose else None
        self.per_chunk = _chunk_entities(db, prose_chunks) if prose else {}
        # where each entity's definition is filed (link_state.target_states)
        self.category = categories(db, None if prose_chunks is None else {
            k[0] for entry in self.per_chunk.values() for k in entry}) if prose else {}
        condition, params = in_values("chunk_id", chunks)
        self.stored = dict(db.execute(
            f"SELECT chunk_id, signature FROM relation_svo_chunks WHERE {condition}", params).fetchall())
        self.ontology = ontology_of(state)
        # the offline filter keeps only ontology types: another ontology re-derives every chunk
        self.vocabulary = hashlib.sha256((state.ontology or "").encode()).hexdigest()
        self.refined_by = refiner.label if refiner is not None else None
        self.places = chunk_places(db, prose_chunks) if prose else {}
        self.owners = defined_entities(db, {
            normalize_name(e["name"].rpartition(SUB_ENTRY_SEPARATOR)[0])
            for entry in self.per_chunk.values() for e in entry.values() if SUB_ENTRY_SEPARATOR in e["name"]})
        self.places_of_docs: dict[str, DocPlace] = doc_places(db, chunks, structure)

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

    def changed(self, chunk_id: str, sha: str, entities: list[tuple], prose: bool, place: DocPlace | None) -> bool:
        """Whether the chunk's signature changed (its text, entities, what its book's genres
        read: ``prose``, its ``place`` on a doc set's page); if so its offline claims go and the
        new signature is stored (the caller analyses it again)."""
        read = [sha, entities, self.svo is not None, self.refined_by, self.vocabulary]
        if not prose or place is not None:  # a chunk read as before genres chose keeps its signature's form
            read += [prose, place.signature() if place is not None else None]
        signature = hashlib.sha256(json.dumps(read).encode()).hexdigest()
        if self.stored.get(chunk_id) == signature:
            return False
        self.db.execute("DELETE FROM relation_claims WHERE chunk_id = ? AND extractor IN"
                        f" ({', '.join('?' * len(DERIVED_EXTRACTORS))})", [chunk_id, *DERIVED_EXTRACTORS])
        self.db.execute(
            "INSERT INTO relation_svo_chunks (chunk_id, signature) VALUES (?, ?)"
            " ON CONFLICT(chunk_id) DO UPDATE SET signature = excluded.signature", [chunk_id, signature],
        )
        return True

    def candidates(self, text: str, entities: list[tuple]) -> list[RawRelation]:
        """The chunk's pattern and SVO candidates, refined by the model ('refine') or filtered offline."""
        pattern_entities = [PatternEntity(name=n, forms=f, entity_type=k[1], defines=d or None, category=c)
                            for n, f, k, d, c in entities]
        svo_raw = [] if self.svo is None or len(entities) < 2 else self.svo[0](
            text, [self.svo[1](name=n, surface_forms=f, key=k) for n, f, k, *_ in entities])
        raw = stated_relations(text, pattern_entities, svo_raw, lambda t: normalize_type(t, self.ontology))
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


def offline_claims(text: str, entities: list[tuple], raw: list[RawRelation]) -> list[Claim]:
    """The candidates whose ends name the chunk's entities and whose evidence is in its text."""
    # an entity's own name first: "Club" is the item Club, not the "Acolyte › Club" attack written so;
    # of two of one name, the one the chunk defines (the Druid stat block's creature, not the class)
    by_name: dict[str, tuple[str, str]] = {
        n: key for n, _forms, key, _defines, _filed in sorted(reversed(entities), key=lambda e: bool(e[3]))}
    for n, forms, key, _defines, _filed in entities:
        for form in forms:
            by_name.setdefault(form, key)
    chunk = ChunkText(text)
    claims = []
    for rel in raw:
        source, target = by_name.get(rel.source_name or ""), by_name.get(rel.target_name or "")
        if (target is None or rel.target_kind) and rel.extractor == NAMED_EXTRACTOR and normalize_name(rel.target_name or ""):
            # resolved on the shelf by name (among the kind it names: the item "Longsword", not the attack the chunk links)
            target = (normalize_name(rel.target_name or ""), rel.target_kind)
        if source is None or target is None or source == target or not chunk.has_quote(rel.evidence or ""):
            continue
        if normalize_type(rel.relation_type or "", NO_ONTOLOGY) is None:
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
    if relation_type.startswith("custom:") or not ontology.applies(relation_type):
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
