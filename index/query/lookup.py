"""Read-only lookups over the index: where_else(), entity_detail(), cross_book(), books().

Every query starts from an index: entities(normalized) for names, entity_mentions(entity_id)
for mentions, entity_mentions(chunk_id) for chunks (checked by tests/storage/test_storage.py with
EXPLAIN QUERY PLAN). The book or entity a user names is resolved first (naming.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from sqlite_utils import Database

from ..core.errors import EntityNotFound
from ..core.models import SUB_ENTRY_SEPARATOR, BookCount, BookInfo, Mention, page_range
from ..core.normalize import normalize_name
from ..storage.book_genres import genre_summary
from .naming import as_typed, backslash_twins, check_name, resolve_books, resolve_entity
from .qualified import OUTSIDE_OWNER, Qualified, names_ending_with, owner_rank, split_qualified

# its columns are Mention's fields, in order (the pages as two columns, ``located`` joins
# them): a row is a mention as where_else returns it
WHERE_ELSE_SQL = """
SELECT e.id AS entity_id, e.name, e.entity_type, m.book, m.chunk_id, c.heading_path,
       m.mention_type, m.context, m.source, c.page_start, c.page_end, c.source_file AS file, m.rule
FROM entities e
JOIN entity_mentions m ON m.entity_id = e.id
JOIN chunks c ON c.id = m.chunk_id
WHERE e.normalized = ?
ORDER BY e.entity_type, m.book, m.mention_type = 'references', c.ordinal, m.id
"""


@dataclass
class BookGroup:
    book: str
    mentions: list[Mention] = field(default_factory=list)


MENTION_FIELDS = tuple(Mention.__dataclass_fields__)


def _dict_rows(db: Database, sql: str, params: list) -> list[dict]:
    """``db.query(sql, params)`` without the savepoint sqlite-utils wraps around every query
    (two more statements than a read needs)."""
    cursor = db.conn.execute(sql, params)
    columns = [c[0] for c in cursor.description]
    return [dict(zip(columns, row)) for row in cursor]


def located(row: dict) -> dict:
    """A mention row with its chunk's ``page_start``/``page_end`` as ``pages`` ([first, last],
    None when the source has no pages), in place; ``file`` stays as selected."""
    start, end, file = row.pop("page_start"), row.pop("page_end"), row.pop("file")
    row["pages"] = page_range(start, end)
    row["file"] = file
    return row


def _mention(row) -> Mention:
    return Mention(**{k: row[k] for k in MENTION_FIELDS})


def where_else(
    db: Database,
    name: str,
    *,
    books: tuple[str, ...] = (),
    exclude_books: tuple[str, ...] = (),
    entity_type: str | None = None,
    defines_only: bool = False,
    limit: int | None = None,
) -> dict:
    """Every mention of the entity across books, grouped by book, defines first; with
    ``limit``, the first ``limit`` of them in that order (``total_mentions`` counts all).

    ``books`` and ``exclude_books`` name books as resolve_book() takes them.
    ``name`` is matched as resolve_entity() does (name, alias, any case, accents folded).
    Returns {"query", "normalized", "matched_by", "entities": [{id, name, entity_type,
    books: [{book, mentions}]}], "total_mentions", "limit", "book_counts": each book that holds
    each entity with its counts of definitions and references, whatever the limit}, and "sub_entries": [{name, owner, entity_type}] when the name
    is stored as the sub-entry of owners ("Ember Drake › Bite"; with no shelf-wide entity of
    that name, those are the entities, matched_by "sub-entry"); an entity defined under three or more different entries
    ("Bite" under every creature) also has "defined_under": {owners, examples}.
    The entity exists but the filters leave no mention: ``entities`` is empty (a query
    with no hits is not an error). Raises BadInput for an empty name, BookNotFound for a
    book filter that names no single book, and EntityNotFound (with suggestions) when no
    entity has that name.
    """
    books = resolve_books(db, books)
    exclude_books = resolve_books(db, exclude_books, "--exclude-book")
    keys, matched_by, rows, scoped = _named_rows(db, name)
    seen = set()
    entities: dict[int, dict] = {}
    filtered = books or exclude_books or entity_type or defines_only
    for row in rows:
        if filtered and (
            (books and row["book"] not in books) or row["book"] in exclude_books
            or (entity_type and row["entity_type"] != entity_type)
            or (defines_only and row["mention_type"] != "defines")
        ):
            continue
        key = (row["entity_id"], row["chunk_id"], row["mention_type"])
        if key in seen:
            continue
        seen.add(key)
        entity = entities.get(row["entity_id"])
        if entity is None:
            entity = entities[row["entity_id"]] = {
                "id": row["entity_id"], "name": row["name"], "entity_type": row["entity_type"], "books": {}}
        # the row is Mention.to_dict() (its columns are Mention's fields): asdict() would
        # deep-copy each field, once most of the time of a lookup
        entity["books"].setdefault(row["book"], []).append(located(row))
    out = []
    for entity in entities.values():
        owners = sub_entry_owners([m for ms in entity["books"].values() for m in ms])
        if len(owners) >= SUB_ENTRY_OWNERS:
            entity["defined_under"] = {"owners": len(owners), "examples": owners[:5]}
        groups = [{"book": b, "mentions": m} for b, m in entity["books"].items()]
        # books that define the entity first, then by name
        groups.sort(key=lambda g: (g["mentions"][0]["mention_type"] != "defines", g["book"]))
        out.append({**entity, "books": groups})
    # a defined entity before one that is only referenced; then a code name as typed, in its
    # case, before the others its key folds together (the setting SPOOL before the class Spool)
    typed = as_typed(name)
    out.sort(key=lambda e: (e["books"][0]["mentions"][0]["mention_type"] != "defines",
                            e["name"].removesuffix("()") not in typed, e["entity_type"]))
    total = sum(len(g["mentions"]) for e in out for g in e["books"])
    result = {"query": name, "normalized": keys[0], "matched_by": matched_by,
              "entities": _first_mentions(out, limit), "total_mentions": total, "limit": limit,
              "book_counts": book_counts(out)}
    if scoped:
        result["sub_entries"] = [{"name": e["name"], "owner": e["owner"], "entity_type": e["entity_type"]}
                                 for e in scoped]
    return result


def _named_rows(db: Database, name: str) -> tuple[list[str], str, list[dict], list[dict]]:
    """The entity keys ``name`` stands for, how it matched, the mention rows of those keys
    (``WHERE_ELSE_SQL``'s) and the sub-entries stored under it (``scoped_entries``). Raises
    BadInput for an empty name, EntityNotFound when nothing is named so."""
    normalized = check_name(name)
    rows = _dict_rows(db, WHERE_ELSE_SQL, [normalized])
    scoped = scoped_entries(db, normalized)
    if rows:  # the name itself (entity GC leaves no entity without a mention), and its twin
        keys, matched_by = backslash_twins(db, normalized) or [normalized], "name"
        rows += [row for key in keys[1:] for row in _dict_rows(db, WHERE_ELSE_SQL, [key])]
        return keys, matched_by, rows, scoped
    if scoped:  # "Bite": no shelf-wide entity, each owner's own ("Ember Drake › Bite")
        keys = [entry["normalized"] for entry in scoped]
        return keys, "sub-entry", [row for key in keys for row in _dict_rows(db, WHERE_ELSE_SQL, [key])], scoped
    try:
        keys, matched_by = resolve_entity(db, name)
    except EntityNotFound:
        found = _qualified_rows(db, name)
        if found is None:
            raise
        return (*found, scoped)
    rows = [row for key in keys for row in _dict_rows(db, WHERE_ELSE_SQL, [key])]
    qualified = split_qualified(name)
    if qualified is not None:  # an alias that names a member of several owners: this owner's first
        rows = _in_owner_place(qualified, rows) or rows
    return keys, matched_by, rows, scoped


def _qualified_rows(db: Database, name: str) -> tuple[list[str], str, list[dict]] | None:
    """A member named with its owner (query/qualified.py), when no name is the whole of it:
    the member's keys, "qualified" and its mentions in the owner's place, those its headings
    name first; "member" and every mention of it when no place is the owner's. None when
    ``name`` is no qualified name, or its member is no entity either."""
    qualified = split_qualified(name)
    if qualified is None:
        return None
    keys = names_ending_with(db, name)
    try:
        keys += resolve_entity(db, qualified.member)[0]
    except EntityNotFound:
        pass
    keys = list(dict.fromkeys(keys))
    rows = [row for key in keys for row in _dict_rows(db, WHERE_ELSE_SQL, [key])]
    if not rows:
        return None
    placed = _in_owner_place(qualified, rows)
    return (keys, "qualified", placed) if placed else (keys, "member", rows)


def _in_owner_place(qualified: Qualified, rows: list[dict]) -> list[dict]:
    """The ``rows`` in the owner's place (``owner_rank``): definitions first, then those its
    headings name before those on its page, else as selected; [] when none is there."""
    ranked = [(owner_rank(qualified, row["heading_path"], row["file"]), row) for row in rows]
    placed = [(rank, row) for rank, row in ranked if rank != OUTSIDE_OWNER]
    placed.sort(key=lambda pair: (pair[1]["mention_type"] != "defines", pair[0]))
    return [row for _, row in placed]


def book_counts(entities: list[dict]) -> list[dict]:
    """Each book that holds each of where_else's ``entities`` (before any limit), in their
    order, with its definitions and references of it: ``BookCount`` documents."""
    return [BookCount(book=group["book"], entity_id=entity["id"], entity=entity["name"],
                      entity_type=entity["entity_type"],
                      defines=sum(m["mention_type"] == "defines" for m in group["mentions"]),
                      references=sum(m["mention_type"] != "defines" for m in group["mentions"])).to_dict()
            for entity in entities for group in entity["books"]]


def scoped_entries(db: Database, normalized: str) -> list[dict]:
    """The entities stored as a sub-entry of an owner under the name ``normalized`` ("Ember
    Drake › Bite" for "bite"), by owner: dicts with id, name, normalized, entity_type, owner."""
    rows = db.execute(
        "SELECT id, name, normalized, entity_type FROM entities WHERE instr(name, ?) > 0 AND normalized LIKE ?",
        [SUB_ENTRY_SEPARATOR, f"%{normalized}"]).fetchall()
    out = []
    for entity_id, entity_name, key, entity_type in rows:
        owner, _, own_name = entity_name.rpartition(SUB_ENTRY_SEPARATOR)
        if normalize_name(own_name) == normalized:
            out.append({"id": entity_id, "name": entity_name, "normalized": key, "entity_type": entity_type,
                        "owner": owner})
    return sorted(out, key=lambda e: (e["owner"].casefold(), e["entity_type"]))


def _first_mentions(entities: list[dict], limit: int | None) -> list[dict]:
    """``entities`` with only their first ``limit`` mentions in order (None: all); a book
    or an entity left with none is left out."""
    if limit is None:
        return entities
    kept, left = [], limit
    for entity in entities:
        groups = []
        for group in entity["books"]:
            if left <= 0:
                break
            groups.append({**group, "mentions": group["mentions"][:left]})
            left -= len(groups[-1]["mentions"])
        if groups:
            kept.append({**entity, "books": groups})
    return kept


# a name defined under this many different entries is a sub-entry name ("Bite" under every
# creature), not one shelf-wide thing
SUB_ENTRY_OWNERS = 3


def sub_entry_owners(mentions: list[dict]) -> list[str]:
    """The distinct entries a name is defined under, in order: for a definition by a heading,
    the heading above it; for a glossary or table term, its section's heading. ``mentions``:
    where_else rows (mention_type, heading_path, source)."""
    owners: dict[str, None] = {}
    for mention in mentions:
        if mention["mention_type"] != "defines":
            continue
        path = mention["heading_path"].split(" > ")
        owner = path[-2] if mention["source"] == "heading" and len(path) > 1 else path[-1]
        owners.setdefault(f"{mention['book']}: {owner}", None)
    return list(owners)


def entity_detail(db: Database, name: str) -> dict:
    """One entity (or each same-name entity of a different type): type, definitions, and
    per-book reference counts. Raises BadInput / EntityNotFound."""
    keys, matched_by = resolve_entity(db, name)
    entities = [
        entity for key in keys
        for entity in db.query("SELECT id, name, entity_type FROM entities WHERE normalized = ? ORDER BY entity_type", [key])
    ]
    out = []
    for entity in entities:
        definitions = [
            {"book": r["book"], "heading_path": r["heading_path"], "section": r["heading_path"],  # "section": old key
             "chunk_id": r["chunk_id"], "context": r["context"],
             "source": r["source"], "pages": page_range(r["page_start"], r["page_end"]), "file": r["source_file"]}
            for r in db.query(
                "SELECT m.book, c.heading_path, m.chunk_id, m.context, m.source, c.page_start, c.page_end,"
                " c.source_file FROM entity_mentions m"
                " JOIN chunks c ON c.id = m.chunk_id WHERE m.entity_id = ? AND m.mention_type = 'defines'"
                " ORDER BY m.book, c.ordinal",
                [entity["id"]],
            )
        ]
        references = {
            r["book"]: r["n"]
            for r in db.query(
                "SELECT book, count(DISTINCT chunk_id) AS n FROM entity_mentions"
                " WHERE entity_id = ? AND mention_type = 'references' GROUP BY book ORDER BY book",
                [entity["id"]],
            )
        }
        out.append({**entity, "definitions": definitions, "references_by_book": references,
                    "related": related_entities(db, entity["id"])})
    return {"query": name, "matched_by": matched_by, "entities": out}


RELATED_SQL = """
SELECT v.related_id, e.name, e.entity_type, r.relation_type, v.relation_type, v.direction, r.polarity,
       count(*) AS n
FROM entity_relationships_view v
JOIN entities e ON e.id = v.related_id
JOIN entity_relationships r ON r.id = v.relationship_id
WHERE v.entity_id = ? AND v.review_state != 'rejected'
  AND (v.status = 'ready' OR v.review_state = 'accepted')
GROUP BY v.related_id, r.relation_type, v.direction, r.polarity
ORDER BY n DESC, e.name, r.relation_type, r.polarity
"""


def related_entities(db: Database, entity_id: int) -> list[dict]:
    """The related-entities table for one entity: each (related entity, relationship,
    direction) with how many chunks state it. ``relationship`` is the type as stored and
    ``arrow`` its real direction (``Frost Wyrm → Frost Lance`` for "casts" on either
    entity's page); ``reads_as`` is the same edge read from this entity (``cast_by``);
    ``polarity`` keeps "X does not counter Y" apart from "X counters Y".
    Rejected and invalid (unless accepted in review; an adjusted one is validated again)
    relationships are left out."""
    me = db.execute("SELECT name FROM entities WHERE id = ?", [entity_id]).fetchone()[0]
    out = []
    for related_id, name, entity_type, stored_type, reads_as, direction, polarity, n in db.execute(RELATED_SQL, [entity_id]):
        out.append({
            "entity": {"id": related_id, "name": name, "entity_type": entity_type},
            "relationship": stored_type,
            "reads_as": reads_as,
            "direction": direction,
            "polarity": polarity,        # "denied": the text says it does NOT hold
            "arrow": f"{me} → {name}" if direction == "outgoing" else f"{name} → {me}",
            "count": n,
        })
    return out


def cross_book(db: Database, chunk_ids: list[str], exclude_books: tuple[str, ...] = ()) -> list[Mention]:
    """Mentions, in other books, of the entities mentioned in ``chunk_ids``: defines first.

    "Other books" means not the book of any given chunk and not in ``exclude_books``. This
    is the lookup the multi-hop retriever runs after each hop.
    """
    if not chunk_ids:
        return []
    marks = ",".join("?" * len(chunk_ids))
    sql = f"""
    WITH seed AS (
        SELECT DISTINCT m.entity_id FROM entity_mentions m WHERE m.chunk_id IN ({marks})
    ), seen_books AS (
        SELECT DISTINCT book FROM chunks WHERE id IN ({marks})
    )
    SELECT e.id AS entity_id, e.name, e.entity_type, m.book, m.chunk_id, c.heading_path,
           m.mention_type, m.context, m.source, c.page_start, c.page_end, c.source_file AS file, m.rule
    FROM seed
    JOIN entities e ON e.id = seed.entity_id
    JOIN entity_mentions m ON m.entity_id = seed.entity_id
    JOIN chunks c ON c.id = m.chunk_id
    WHERE m.book NOT IN (SELECT book FROM seen_books)
    ORDER BY m.mention_type = 'references', e.name, m.book, c.ordinal
    """
    out, seen = [], set()
    for row in db.query(sql, [*chunk_ids, *chunk_ids]):
        if row["book"] in exclude_books:
            continue
        key = (row["entity_id"], row["chunk_id"], row["mention_type"])
        if key not in seen:
            seen.add(key)
            out.append(_mention(located(dict(row))))
    return out


def list_books(db: Database) -> list[BookInfo]:
    """Every book with its section, definition and mention counts."""
    sql = """
    SELECT b.rowid AS id, b.*,
      (SELECT count(*) FROM chunks c WHERE c.book = b.title AND c.kind = 'parent' AND c.part = 0) AS sections,
      (SELECT count(DISTINCT entity_id) FROM entity_mentions m WHERE m.book = b.title AND m.mention_type = 'defines') AS entities_defined,
      (SELECT count(*) FROM entity_mentions m WHERE m.book = b.title) AS mentions,
      (SELECT count(*) FROM entity_relationships r WHERE r.book = b.title) AS relationships,
      (SELECT count(*) FROM relation_claims c WHERE c.book = b.title AND c.status = 'pending_entities') AS unresolved
    FROM books b ORDER BY b.title
    """
    from ..vectors.sync_notes import unsynced_books  # no chromadb: SQLite's notes of what was embedded

    unsynced = unsynced_books(db)
    out = []
    for r in db.query(sql):
        # ingest-time drops (fixed with the book) + endpoints unresolved in the index as it is now
        relation_drops = json.loads(r["relation_drop_reasons"])
        if r["unresolved"]:
            relation_drops["unresolved_endpoint"] = r["unresolved"]
        out.append(BookInfo(
            id=r["id"], title=r["title"], path=r["path"], sha256=r["sha256"], extractor=r["extractor"],
            pack=r["pack"], ingested_at=r["ingested_at"], sections=r["sections"],
            entities_defined=r["entities_defined"], mentions=r["mentions"],
            dropped_mentions=r["dropped_mentions"], drop_reasons=json.loads(r["drop_reasons"]),
            relationships=r["relationships"], dropped_relations=sum(relation_drops.values()),
            relation_drop_reasons=dict(sorted(relation_drops.items())),
            partial=r.get("partial", 0), format=r.get("format"), source=r.get("source") or r["path"],
            pages_without_text=json.loads(r.get("pages_without_text") or "[]"),
            vectors_complete=None if unsynced is None else r["title"] not in unsynced,
            **genre_summary(r),
        ))
    return out


def list_entities(db: Database, *, entity_type: str | None = None, books: tuple[str, ...] = ()) -> dict:
    """Every entity, or those of ``entity_type`` / mentioned in ``books`` (named as
    resolve_book() takes them), by name, with where it is defined and how often it is
    mentioned. Returns {"count", "by_type": {type: n}, "entities": [{id, name,
    entity_type, defined_in, books, mentions}]}; no match is an empty list, not an error.
    Raises BookNotFound."""
    titles = resolve_books(db, books)
    where, params = [], []
    if entity_type:
        where.append("e.entity_type = ?")
        params.append(entity_type)
    if titles:
        where.append(f"m.book IN ({','.join('?' * len(titles))})")
        params.extend(titles)
    sql = (
        "SELECT e.id, e.name, e.entity_type, count(*) AS mentions, count(DISTINCT m.book) AS books,"
        " group_concat(DISTINCT CASE WHEN m.mention_type = 'defines' THEN m.book END) AS defined_in"
        " FROM entities e JOIN entity_mentions m ON m.entity_id = e.id"
        + (" WHERE " + " AND ".join(where) if where else "")
        + " GROUP BY e.id ORDER BY e.normalized, e.entity_type"
    )
    entities = []
    by_type: dict[str, int] = {}
    for r in db.query(sql, params):
        defined = sorted(r["defined_in"].split(",")) if r["defined_in"] else []
        entities.append({"id": r["id"], "name": r["name"], "entity_type": r["entity_type"],
                         "defined_in": defined, "books": r["books"], "mentions": r["mentions"]})
        by_type[r["entity_type"]] = by_type.get(r["entity_type"], 0) + 1
    return {"count": len(entities), "by_type": dict(sorted(by_type.items())), "entities": entities}


def _counts(db: Database, sql: str) -> dict:
    return {str(key): n for key, n in db.execute(sql)}


def index_stats(db: Database, index_dir: Path) -> dict:
    """What the index holds: books, sections, chunks, entities per type, mentions per
    source and kind, relationships per type, status and review state, the embedder its
    vectors were made with, and its size on disk (SQLite, and everything in ``index_dir``,
    embedded Chroma included)."""
    from ..storage.store import partial_books
    from ..vectors.sync_notes import recorded_embedder

    one = lambda sql: db.execute(sql).fetchone()[0]  # noqa: E731
    index_dir = Path(index_dir)
    sqlite_bytes = sum(p.stat().st_size for p in index_dir.glob("crossbook.db*") if p.is_file())
    total_bytes = sum(p.stat().st_size for p in index_dir.rglob("*") if p.is_file())
    return {
        "index": str(index_dir),
        "books": one("SELECT count(*) FROM books"),
        "sections": one("SELECT count(*) FROM chunks WHERE kind = 'parent' AND part = 0"),
        "chunks": _counts(db, "SELECT kind, count(*) FROM chunks GROUP BY kind ORDER BY kind"),
        "entities": one("SELECT count(*) FROM entities"),
        "entities_by_type": _counts(db, "SELECT entity_type, count(*) FROM entities GROUP BY 1 ORDER BY 1"),
        "mentions": one("SELECT count(*) FROM entity_mentions"),
        "mentions_by_source": _counts(db, "SELECT source, count(*) FROM entity_mentions GROUP BY 1 ORDER BY 1"),
        "mentions_by_kind": _counts(db, "SELECT mention_type, count(*) FROM entity_mentions GROUP BY 1 ORDER BY 1"),
        "relationships": one("SELECT count(*) FROM entity_relationships"),
        "relationships_by_type": _counts(
            db, "SELECT relation_type, count(*) FROM entity_relationships GROUP BY 1 ORDER BY 2 DESC, 1"),
        "relationships_by_status": _counts(
            db, "SELECT status, count(*) FROM entity_relationships GROUP BY 1 ORDER BY 1"),
        "relationships_by_review": _counts(
            db, "SELECT review_state, count(*) FROM entity_relationships GROUP BY 1 ORDER BY 1"),
        "pending_claims": one("SELECT count(*) FROM relation_claims WHERE status = 'pending_entities'"),
        # title -> chunks stored without entities (--allow-partial; re-extracted on the next ingest)
        "partial_books": partial_books(db),
        "embedder": recorded_embedder(db),
        "sqlite_bytes": sqlite_bytes,
        "index_bytes": total_bytes,
    }
