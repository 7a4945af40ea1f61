"""Derived state, in one place: entities, linker references, relationships and garbage
collection, recomputed from the stored books after every change.

``refresh`` is the one entry point the pipeline calls inside its write transaction (after a
book's rows changed): resolve mentions to entities, relink (every chunk when definitions,
aliases or the corpus terms changed; else the changed book's chunks), re-derive relationships
(index/relations/derive.py) and garbage-collect entities left with no mention. Because all of
it is a function of the stored books, the index equals a fresh build of the books it holds
after any sequence of ingest, re-ingest and delete-book (tests/test_invariant.py).

Entity resolution (tested in tests/test_store.py): a mention names an entity by (normalized
name, type). A ``defines`` mention is its own entity. A ``references`` mention attaches to the
definition of the same name and type when there is one; when its type disagrees with the
*only* definition of that name, it attaches to that definition (LLM types are noisy; no
near-duplicate is created); when several definitions of that name exist and none has its
type, or there is no definition, it keeps its own type. So "Shield" the spell and "Shield" the
armor, each defined, stay two entities.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict

from sqlite_utils import Database

from .extract import KnownEntity
from .extract.linker import LinkTarget, Linker, lowercase_terms, lowercase_word_counts
from .normalize import normalize_name
from .packs import DomainPack
from .relations import derive as relations
from .store import ensure_entity, get_meta

def resolve_entities(db: Database) -> None:
    """Point every mention at its entity by the rule in this module's docstring."""
    rows = db.execute(
        "SELECT m.id, m.entity_id, m.normalized, m.declared_type, m.mention_type, m.name,"
        " m.book, c.ordinal, m.source FROM entity_mentions m JOIN chunks c ON c.id = m.chunk_id"
    ).fetchall()
    defined: dict[str, set[str]] = defaultdict(set)
    for _, _, normalized, declared, mention_type, *_ in rows:
        if mention_type == "defines":
            defined[normalized].add(declared)
    targets: dict[int, tuple[str, str]] = {}
    names: dict[tuple[str, str], tuple] = {}
    for mention_id, _, normalized, declared, mention_type, name, book, ordinal, source in rows:
        types = defined.get(normalized, set())
        if mention_type == "defines" or declared in types or len(types) != 1:
            key = (normalized, declared)
        else:
            key = (normalized, next(iter(types)))
        targets[mention_id] = key
        # the entity's display name: its first definition, else its first reference. Linker
        # references come last: they point at definitions, so one that would name the entity
        # is about to go with the definition it followed (delete-book relinks after this)
        rank = (mention_type != "defines", source == "linker", book, ordinal, name)
        if key not in names or rank < names[key]:
            names[key] = rank
    existing = {
        (r[1], r[2]): (r[0], r[3])
        for r in db.execute("SELECT id, normalized, entity_type, name FROM entities")
    }
    ids: dict[tuple[str, str], int] = {}
    for key, rank in names.items():
        name = rank[-1]
        if key in existing:
            entity_id, old_name = existing[key]
            if old_name != name:
                db.execute("UPDATE entities SET name = ? WHERE id = ?", [name, entity_id])
            ids[key] = entity_id
        else:
            ids[key] = ensure_entity(db, key[0], key[1], name)
    updates = [
        (ids[targets[mid]], mid) for mid, entity_id, *_ in rows if ids[targets[mid]] != entity_id
    ]
    db.conn.executemany("UPDATE entity_mentions SET entity_id = ? WHERE id = ?", updates)


def index_terms(db: Database) -> set[str]:
    """The defined single-word names the corpus uses in lowercase as terms (linker.py)."""
    single = {
        row[0] for row in db.execute(
            "SELECT DISTINCT normalized FROM entity_mentions WHERE mention_type = 'defines'"
        )
        if row[0].isalpha()  # one word: no "_" joins
    }
    if not single:
        return set()
    counts, total = lowercase_word_counts(
        row[0] for row in db.execute("SELECT text FROM chunks WHERE kind = 'parent'")
    )
    return lowercase_terms(single, counts, total)


def definitions_signature(db: Database, terms: set[str] | None = None) -> str:
    """A hash of everything the linker depends on: definitions, aliases, the lowercase terms
    (which depend on every book's text: pass ``index_terms(db)`` when already computed) and
    the index's pack."""
    digest = hashlib.sha256()
    for row in db.execute(
        "SELECT normalized, declared_type, name, book FROM entity_mentions"
        " WHERE mention_type = 'defines' ORDER BY 1, 2, 3, 4"
    ):
        digest.update(json.dumps(row).encode())
    for row in db.execute("SELECT alias, canonical, entity_type, book FROM entity_aliases ORDER BY 1, 2, 3, 4"):
        digest.update(json.dumps(row).encode())
    digest.update(json.dumps(sorted(index_terms(db) if terms is None else terms)).encode())
    pack = db.execute("SELECT value FROM crossbook_meta WHERE key = 'pack'").fetchone()
    digest.update((pack[0] if pack else "").encode())
    return digest.hexdigest()


def build_linker(db: Database, pack: DomainPack, terms: set[str] | None = None) -> Linker:
    """A linker over every defined entity's names (as written), the pack's and the books'
    aliases, and the corpus terms (``index_terms(db)`` unless given)."""
    targets: dict[tuple[str, str], LinkTarget] = {}
    for normalized, entity_type, name, book in db.execute(
        "SELECT e.normalized, e.entity_type, m.name, m.book FROM entity_mentions m"
        " JOIN entities e ON e.id = m.entity_id WHERE m.mention_type = 'defines'"
    ):
        target = targets.setdefault((normalized, entity_type), LinkTarget((normalized, entity_type), set()))
        target.names.add(name)
        target.books.add(book)
    by_normalized = defaultdict(list)
    for target in targets.values():
        by_normalized[target.key[0]].append(target)
    for canonical, aliases in pack.aliases.items():
        for target in by_normalized.get(normalize_name(canonical), []):
            target.names.update(aliases)
    for alias, canonical, entity_type in db.execute(
        "SELECT alias, canonical, entity_type FROM entity_aliases ORDER BY id"
    ):
        for target in by_normalized.get(canonical, []):
            if target.key[1] == entity_type or len(by_normalized[canonical]) == 1:
                target.names.add(alias)
    cues = {t.name: t.cues for t in pack.entity_types}
    return Linker(sorted(targets.values(), key=lambda t: t.key), cues,
                  index_terms(db) if terms is None else terms)


def relink(db: Database, pack: DomainPack, book: str | None = None, terms: set[str] | None = None) -> int:
    """Recompute linker references for one book's chunks, or for the whole index."""
    if book is None:
        db.execute("DELETE FROM entity_mentions WHERE source = 'linker'")
        chunks = db.execute(
            "SELECT id, book, text FROM chunks WHERE kind = 'parent' ORDER BY book, ordinal"
        ).fetchall()
    else:
        db.execute("DELETE FROM entity_mentions WHERE source = 'linker' AND book = ?", [book])
        chunks = db.execute(
            "SELECT id, book, text FROM chunks WHERE kind = 'parent' AND book = ? ORDER BY ordinal",
            [book],
        ).fetchall()
    linker = build_linker(db, pack, terms)
    if linker.empty:
        return 0
    present = defaultdict(set)
    for chunk_id, normalized, entity_type in db.execute(
        "SELECT m.chunk_id, e.normalized, e.entity_type FROM entity_mentions m"
        " JOIN entities e ON e.id = m.entity_id"
    ):
        present[chunk_id].add((normalized, entity_type))
    ids = {(r[1], r[2]): r[0] for r in db.execute("SELECT id, normalized, entity_type FROM entities")}
    rows = []
    for chunk_id, chunk_book, text in chunks:
        for match in linker.link(text, chunk_book, present[chunk_id]):
            rows.append((ids[match.key], chunk_book, chunk_id, "references", match.name,
                         match.key[0], match.key[1], match.context, "linker", match.origin_book))
    db.conn.executemany(
        "INSERT INTO entity_mentions (entity_id, book, chunk_id, mention_type, name, normalized,"
        " declared_type, context, source, origin_book) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    return len(rows)


def gc_entities(db: Database) -> int:
    """Delete entities no mention points at; returns how many went."""
    cursor = db.execute(
        "DELETE FROM entities WHERE NOT EXISTS"
        " (SELECT 1 FROM entity_mentions m WHERE m.entity_id = entities.id)"
    )
    return cursor.rowcount


def refresh(
    db: Database, pack: DomainPack, signature_before: str, book: str | None, events=None, refiner=None
) -> None:
    """After a book changed: resolve entities, relink (all if definitions changed), derive
    relationships, GC.

    Linking is an index-level switch (``--no-link`` with the openai extractor turns it off
    for the whole index, so every book is linked the same way). Relationships are derived
    from the stored claims against the entities as they are now (index/relations/derive.py),
    before entity GC, and only ever point at entities that keep a mention, so GC never
    leaves a dangling edge; ``events`` receives ``relation.normalized`` for ``book``'s rows.
    """
    resolve_entities(db)
    if get_meta(db, "link") == "0":
        db.execute("DELETE FROM entity_mentions WHERE source = 'linker'")
    else:
        terms = index_terms(db)  # a scan of every book's text: once for the signature and the linker
        if definitions_signature(db, terms) != signature_before:
            relink(db, pack, terms=terms)
        elif book is not None:
            relink(db, pack, book, terms=terms)
    relations.refresh(db, events or (lambda event: None), book, refiner)
    gc_entities(db)


def known_entities(db: Database, book: str, parents, pack, limit: int = 40) -> dict:
    """For each parent chunk: entities defined in *other* books whose names occur in it
    (the corpus linker's matching), at most ``limit``, sorted by name then type."""
    linker = build_linker(db, pack)
    if linker.empty:
        return {}
    ids = {(r[1], r[2]): (r[0], r[3]) for r in db.execute("SELECT id, normalized, entity_type, name FROM entities")}
    out = {}
    for parent in parents:
        found = []
        for match in linker.link(parent.text, book, set()):
            if not (linker.targets[match.key].books - {book}) or match.key not in ids:
                continue
            entity_id, name = ids[match.key]
            found.append(KnownEntity(entity_id, name, match.key[1]))
        if found:
            out[parent.id] = sorted(found, key=lambda k: (k.name, k.entity_type))[:limit]
    return out


def refresh_vocabulary(db: Database, ontology) -> bool:
    """When the index's relation vocabulary differs from ``ontology``: store it and re-derive
    the relationships (nothing else changes). Returns whether it did."""
    if relations.index_ontology_json(db) == ontology.to_json():
        return False
    relations.set_index_ontology(db, ontology)
    relations.refresh_relationships(db)
    return True


def store_book_claims(db: Database, book: str, claims: dict, dropped) -> int:
    """Store one book's relationship claims (per chunk) and its claim drop counts."""
    count = relations.insert_claims(db, book, claims)
    relations.set_book_drops(db, book, dropped)
    return count


def pending_warnings(db: Database, book: str) -> list[str]:
    """Seed 001's warning for each claim of ``book`` whose endpoint the index cannot resolve."""
    return [relations.skip_warning(claim) for claim in relations.pending_claims(db, book)]
