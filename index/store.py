"""SQLite reads and writes for books, chunks, entities and mentions, and the derived passes.

Entity resolution (the rule, tested in tests/test_resolution.py): a mention names an entity
by (normalized name, type). A ``defines`` mention is its own entity. A ``references``
mention attaches to the definition of the same name and type when there is one; when its
type disagrees with the *only* definition of that name, it attaches to that definition
(LLM types are noisy; no near-duplicate is created); when several definitions of that name
exist and none has its type, or there is no definition, it keeps its own type. So "Shield"
the spell and "Shield" the armor, each defined, stay two entities.

All functions here expect to run inside the caller's ``db.atomic()`` block when they write.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from datetime import datetime, timezone

from sqlite_utils import Database

from .extract.linker import LinkTarget, Linker, lowercase_terms, lowercase_word_counts
from .models import ChildChunk, ParentChunk, RawMention
from .normalize import normalize_name
from .packs import DomainPack, parse_pack


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# -- books and chunks -------------------------------------------------------------------------

def get_book(db: Database, title: str) -> dict | None:
    rows = list(db.query("SELECT * FROM books WHERE title = ?", [title]))
    return rows[0] if rows else None


def book_titles(db: Database) -> list[str]:
    return [r["title"] for r in db.query("SELECT title FROM books ORDER BY title")]


def delete_book_rows(db: Database, title: str) -> None:
    """Remove a book, its chunks and their mentions (ON DELETE CASCADE does the rest)."""
    db.execute("DELETE FROM books WHERE title = ?", [title])


def insert_book(
    db: Database,
    *,
    title: str,
    path: str,
    sha256: str,
    extractor: str,
    pack: str,
    model: str | None,
    drop_reasons: dict[str, int],
    parents: list[ParentChunk],
    children: list[ChildChunk],
) -> None:
    db.execute(
        "INSERT INTO books (title, path, sha256, extractor, pack, model, ingested_at,"
        " dropped_mentions, drop_reasons) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [title, path, sha256, extractor, pack, model, now_iso(), sum(drop_reasons.values()),
         json.dumps(drop_reasons, sort_keys=True)],
    )
    db.conn.executemany(
        "INSERT INTO chunks (id, book, kind, parent_id, ordinal, heading, heading_path, part,"
        " text, sha256, token_count) VALUES (?, ?, 'parent', NULL, ?, ?, ?, ?, ?, ?, ?)",
        [(p.id, title, p.ordinal, p.heading, p.path_str, p.part, p.text, p.sha256, p.token_count)
         for p in parents],
    )
    paths = {p.id: p.path_str for p in parents}
    db.conn.executemany(
        "INSERT INTO chunks (id, book, kind, parent_id, ordinal, heading, heading_path, part,"
        " text, sha256, token_count) VALUES (?, ?, 'child', ?, ?, NULL, ?, 0, ?, ?, ?)",
        [(c.id, title, c.parent_id, c.ordinal, paths[c.parent_id], c.text,
          hashlib.sha256(c.text.encode()).hexdigest(), c.token_count) for c in children],
    )


def _ensure_entity(db: Database, normalized: str, entity_type: str, name: str) -> int:
    db.execute(
        "INSERT OR IGNORE INTO entities (name, normalized, entity_type) VALUES (?, ?, ?)",
        [name, normalized, entity_type],
    )
    return db.execute(
        "SELECT id FROM entities WHERE normalized = ? AND entity_type = ?", [normalized, entity_type]
    ).fetchone()[0]


def insert_mentions(db: Database, book: str, by_chunk: dict[str, list[RawMention]]) -> int:
    """Store verified extraction mentions; entity ids are provisional until resolve_entities."""
    rows, aliases = [], []
    for chunk_id, mentions in by_chunk.items():
        for m in mentions:
            normalized = normalize_name(m.name)
            entity_id = _ensure_entity(db, normalized, m.entity_type, m.name)
            rows.append((entity_id, book, chunk_id, m.mention_type, m.name, normalized,
                         m.entity_type, m.context, m.source))
            for alias in m.aliases:
                if normalize_name(alias) and normalize_name(alias) != normalized:
                    aliases.append((book, chunk_id, alias, normalize_name(alias), normalized, m.entity_type))
    db.conn.executemany(
        "INSERT INTO entity_aliases (book, chunk_id, alias, normalized, canonical, entity_type)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        aliases,
    )
    db.conn.executemany(
        "INSERT INTO entity_mentions (entity_id, book, chunk_id, mention_type, name, normalized,"
        " declared_type, context, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    return len(rows)


# -- the index's pack -------------------------------------------------------------------------

def set_index_pack(db: Database, pack_text: str) -> None:
    set_meta(db, "pack", pack_text)


def index_pack(db: Database) -> DomainPack | None:
    row = db.execute("SELECT value FROM crossbook_meta WHERE key = 'pack'").fetchone()
    return parse_pack(row[0], "stored in the index") if row else None


# -- derived state: resolution, linking, garbage collection ------------------------------------

def resolve_entities(db: Database) -> None:
    """Point every mention at its entity by the rule in this module's docstring."""
    rows = db.execute(
        "SELECT m.id, m.entity_id, m.normalized, m.declared_type, m.mention_type, m.name,"
        " m.book, c.ordinal FROM entity_mentions m JOIN chunks c ON c.id = m.chunk_id"
    ).fetchall()
    defined: dict[str, set[str]] = defaultdict(set)
    for _, _, normalized, declared, mention_type, *_ in rows:
        if mention_type == "defines":
            defined[normalized].add(declared)
    targets: dict[int, tuple[str, str]] = {}
    names: dict[tuple[str, str], tuple] = {}
    for mention_id, _, normalized, declared, mention_type, name, book, ordinal in rows:
        types = defined.get(normalized, set())
        if mention_type == "defines" or declared in types or len(types) != 1:
            key = (normalized, declared)
        else:
            key = (normalized, next(iter(types)))
        targets[mention_id] = key
        # the entity's display name: its first definition, else its first reference
        rank = (mention_type != "defines", book, ordinal, name)
        if key not in names or rank < names[key]:
            names[key] = rank
    existing = {
        (r[1], r[2]): (r[0], r[3])
        for r in db.execute("SELECT id, normalized, entity_type, name FROM entities")
    }
    ids: dict[tuple[str, str], int] = {}
    for key, rank in names.items():
        name = rank[3]
        if key in existing:
            entity_id, old_name = existing[key]
            if old_name != name:
                db.execute("UPDATE entities SET name = ? WHERE id = ?", [name, entity_id])
            ids[key] = entity_id
        else:
            ids[key] = _ensure_entity(db, key[0], key[1], name)
    updates = [
        (ids[targets[mid]], mid) for mid, entity_id, *_ in rows if ids[targets[mid]] != entity_id
    ]
    db.conn.executemany("UPDATE entity_mentions SET entity_id = ? WHERE id = ?", updates)


def index_terms(db: Database) -> set[str]:
    """The defined single-word names the corpus uses in lowercase as terms (linker.py)."""
    single = {
        row[0] for row in db.execute(
            "SELECT DISTINCT normalized FROM entity_mentions WHERE mention_type = 'defines'"
            " AND normalized NOT LIKE '%\\_%' ESCAPE '\\'"
        )
        if row[0].isalpha()
    }
    if not single:
        return set()
    counts, total = lowercase_word_counts(
        row[0] for row in db.execute("SELECT text FROM chunks WHERE kind = 'parent'")
    )
    return lowercase_terms(single, counts, total)


def definitions_signature(db: Database) -> str:
    """A hash of everything the linker depends on: definitions, aliases, the lowercase terms
    (which depend on every book's text) and the index's pack."""
    digest = hashlib.sha256()
    for row in db.execute(
        "SELECT normalized, declared_type, name, book FROM entity_mentions"
        " WHERE mention_type = 'defines' ORDER BY 1, 2, 3, 4"
    ):
        digest.update(json.dumps(row).encode())
    for row in db.execute("SELECT alias, canonical, entity_type, book FROM entity_aliases ORDER BY 1, 2, 3, 4"):
        digest.update(json.dumps(row).encode())
    digest.update(json.dumps(sorted(index_terms(db))).encode())
    pack = db.execute("SELECT value FROM crossbook_meta WHERE key = 'pack'").fetchone()
    digest.update((pack[0] if pack else "").encode())
    return digest.hexdigest()


def build_linker(db: Database, pack: DomainPack) -> Linker:
    """A linker over every defined entity's names (as written) and the pack's aliases."""
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
    return Linker(sorted(targets.values(), key=lambda t: t.key), cues, index_terms(db))


def relink(db: Database, pack: DomainPack, book: str | None = None) -> int:
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
    linker = build_linker(db, pack)
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


def set_meta(db: Database, key: str, value: str) -> None:
    db.execute(
        "INSERT INTO crossbook_meta (key, value) VALUES (?, ?)"
        " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        [key, value],
    )


def get_meta(db: Database, key: str) -> str | None:
    row = db.execute("SELECT value FROM crossbook_meta WHERE key = ?", [key]).fetchone()
    return row[0] if row else None


def refresh_derived(
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
    from .relations import derive as relations

    resolve_entities(db)
    if get_meta(db, "link") == "0":
        db.execute("DELETE FROM entity_mentions WHERE source = 'linker'")
    elif definitions_signature(db) != signature_before:
        relink(db, pack)
    elif book is not None:
        relink(db, pack, book)
    relations.refresh(db, events or (lambda event: None), book, refiner)
    gc_entities(db)


def set_book_partial(db: Database, title: str, missing_chunks: int) -> None:
    """Record how many parent chunks of a stored book have no extraction (0 = complete)."""
    db.execute("UPDATE books SET partial = ? WHERE title = ?", [missing_chunks, title])


# -- LLM response cache -----------------------------------------------------------------------

def cache_get(db: Database, key: str) -> str | None:
    row = db.execute("SELECT response FROM llm_cache WHERE key = ?", [key]).fetchone()
    return row[0] if row else None


def cache_get_known(db: Database, key: str) -> str | None:
    """The known-entity list (JSON) a cached answer was given against, if any."""
    row = db.execute("SELECT known FROM llm_cache WHERE key = ?", [key]).fetchone()
    return row[0] if row else None


def cache_put(
    db: Database, key: str, model: str, prompt_version: str, response: str, known: str | None = None
) -> None:
    with db.atomic():
        db.execute(
            "INSERT OR REPLACE INTO llm_cache (key, model, prompt_version, response, created_at, known)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [key, model, prompt_version, response, now_iso(), known],
        )
