"""Read-only SQL over the entity-mention graph for multi-hop retrieval, and personalized
PageRank over it.

The graph is bipartite: parent sections on one side, entities on the other, an edge for
every stored mention. ``retrieve`` (index/query/retrieve.py) reads the mentions of its hop-1
sections, how many sections mention each entity (for specificity), and the sections of
other books that mention the entities it follows.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from sqlite_utils import Database


@dataclass(frozen=True)
class SeedMention:
    """An entity mentioned in a section: its names and how widely the index mentions it."""

    entity_id: int
    name: str                  # the entity's name
    entity_type: str
    chunk_id: str              # the parent section that mentions it
    surface: str               # the name as this mention wrote it
    sections: int              # parent sections of the whole index that mention the entity
    mention_type: str = "references"  # how the seed section mentions it
    stated_by: str = ""        # stated_mentions: the normalized name of the entry that states it


# Where a section is, for a path across places: its book; in a note vault or a doc set, its
# note or page (each is one book of many pages, and a hop from the page that mentions a
# command to the page that documents it is a hop)
PLACE_SQL = ("CASE WHEN b.format IN ('vault', 'docset') AND c.source_file IS NOT NULL"
             " THEN c.book || char(31) || c.source_file ELSE c.book END")


@dataclass(frozen=True)
class EntitySection:
    """A section that mentions an entity, in a place (book, a vault's note, a doc page) the path has
    not visited yet."""

    entity_id: int
    chunk_id: str
    book: str
    mention_type: str          # "defines" or "references"
    place: str = ""            # PLACE_SQL


def _marks(values) -> str:
    return ",".join("?" * len(values))


def section_count(db: Database) -> int:
    """Parent sections in the index (the N of the specificity weight), counted once until
    the index changes (a scan of the chunks, twice a query otherwise)."""
    return _while_unchanged(db, "sections", lambda: db.execute(
        "SELECT count(*) FROM chunks WHERE kind = 'parent'").fetchone()[0])


def seed_mentions(db: Database, chunk_ids: list[str]) -> list[SeedMention]:
    """Every entity mention stored for ``chunk_ids`` (parent sections), with the number of
    sections of the index that mention the same entity."""
    if not chunk_ids:
        return []
    sql = f"""
    WITH seed AS (
        SELECT m.id, m.entity_id, m.chunk_id, m.name, m.mention_type FROM entity_mentions m
        WHERE m.chunk_id IN ({_marks(chunk_ids)})
    ), spread AS (
        -- ingest stores one mention per entity and section: count(*) is an index-only scan
        SELECT d.entity_id, count(*) AS sections FROM entity_mentions d
        WHERE d.entity_id IN (SELECT entity_id FROM seed) GROUP BY d.entity_id
    )
    SELECT seed.entity_id, e.name, e.entity_type, seed.chunk_id, seed.name AS surface, spread.sections,
           seed.mention_type
    FROM seed JOIN entities e ON e.id = seed.entity_id JOIN spread ON spread.entity_id = seed.entity_id
    ORDER BY seed.chunk_id, seed.entity_id, seed.id
    """
    return [SeedMention(*row) for row in db.execute(sql, list(chunk_ids))]


@dataclass(frozen=True)
class Definition:
    """A section that defines an entity."""

    chunk_id: str
    book: str
    heading_path: str
    place: str = ""            # PLACE_SQL


# per open database: values read from the index, kept until it changes (and gone with it)
_memo: "weakref.WeakKeyDictionary[Database, dict[str, tuple[tuple[int, int], object]]]" = weakref.WeakKeyDictionary()


def _while_unchanged(db: Database, what: str, compute):
    """``compute()``, remembered for this open database until the index changes: SQLite's
    data_version for other connections' commits, total_changes for this one's."""
    stamp = (db.execute("PRAGMA data_version").fetchone()[0], db.conn.total_changes)
    remembered = _memo.setdefault(db, {})
    cached = remembered.get(what)
    if cached is None or cached[0] != stamp:
        cached = remembered[what] = (stamp, compute())
    return cached[1]


def definitions(db: Database, entity_ids: list[int]) -> dict[int, list[Definition]]:
    """entity id -> every section that defines it (in the order they were stored).

    Each entity's definitions are read once and kept until the index changes
    (``_while_unchanged``): queries in one process ask about many of the same entities,
    and a single query reads only the ones it needs (not the whole table)."""
    known: dict[int, list[Definition]] = _while_unchanged(db, "definitions", dict)
    missing = sorted({entity_id for entity_id in entity_ids if entity_id not in known})
    if missing:
        for entity_id in missing:
            known[entity_id] = []
        for entity_id, chunk_id, book, heading_path, place in db.execute(
                f"SELECT m.entity_id, m.chunk_id, c.book, c.heading_path, {PLACE_SQL} FROM entity_mentions m"
                " JOIN chunks c ON c.id = m.chunk_id JOIN books b ON b.title = c.book"
                f" WHERE m.entity_id IN ({_marks(missing)}) AND m.mention_type = 'defines' ORDER BY m.id", missing):
            known[entity_id].append(Definition(chunk_id, book, heading_path, place))
    return {entity_id: known[entity_id] for entity_id in entity_ids if known.get(entity_id)}


def defining_sections(db: Database, normalized_names: list[str]) -> list[tuple[str, str, str, int]]:
    """(normalized name, entity name, defining section, sections mentioning the entity) for
    every entity whose normalized name is in ``normalized_names``."""
    if not normalized_names:
        return []
    sql = f"""
    SELECT e.normalized, e.name, m.chunk_id,
           (SELECT count(DISTINCT d.chunk_id) FROM entity_mentions d WHERE d.entity_id = e.id) AS sections
    FROM entities e JOIN entity_mentions m ON m.entity_id = e.id AND m.mention_type = 'defines'
    WHERE e.normalized IN ({_marks(normalized_names)})
    ORDER BY e.normalized, m.chunk_id
    """
    return [tuple(row) for row in db.execute(sql, list(normalized_names))]


def named_entities(db: Database, normalized_names: list[str]) -> list[tuple[int, str, str, str, int]]:
    """(entity id, name, entity type, normalized name, sections mentioning it) of every
    entity whose normalized name is in ``normalized_names`` and that some section defines."""
    if not normalized_names:
        return []
    sql = f"""
    SELECT e.id, e.name, e.entity_type, e.normalized,
           (SELECT count(*) FROM entity_mentions d WHERE d.entity_id = e.id) AS sections
    FROM entities e
    WHERE e.normalized IN ({_marks(normalized_names)})
      AND EXISTS (SELECT 1 FROM entity_mentions m WHERE m.entity_id = e.id AND m.mention_type = 'defines')
    ORDER BY e.id
    """
    return [tuple(row) for row in db.execute(sql, list(normalized_names))]


def entity_sections(db: Database, entity_ids: list[int], referenced_ids: list[int],
                    limit_per_book: int) -> list[EntitySection]:
    """Sections mentioning each entity, definitions first: every definition of
    ``entity_ids``, and for ``referenced_ids`` also the first ``limit_per_book`` references
    in each book (the caller drops the books already on its path, so one cap over all
    books could leave nothing)."""
    out: list[EntitySection] = []
    seen: set[tuple[int, str]] = set()

    def add(rows) -> None:
        for entity_id, chunk_id, book, mention_type, place in rows:
            if (entity_id, chunk_id) not in seen:
                seen.add((entity_id, chunk_id))
                out.append(EntitySection(entity_id, chunk_id, book, mention_type, place))

    if entity_ids:
        defined = definitions(db, entity_ids)
        add((entity_id, d.chunk_id, d.book, "defines", d.place)
            for entity_id in sorted(set(entity_ids)) for d in defined.get(entity_id, ()))
    if referenced_ids:
        # per place (a book, or a vault's note), the first references
        add(db.execute(f"""
            SELECT entity_id, chunk_id, book, mention_type, place FROM (
                SELECT m.entity_id, m.chunk_id, m.book, m.mention_type, {PLACE_SQL} AS place, m.id,
                       row_number() OVER (PARTITION BY m.entity_id, {PLACE_SQL} ORDER BY m.id) AS nth
                FROM entity_mentions m JOIN chunks c ON c.id = m.chunk_id JOIN books b ON b.title = c.book
                WHERE m.entity_id IN ({_marks(referenced_ids)}) AND m.mention_type = 'references'
            ) WHERE nth <= ? ORDER BY entity_id, place, nth""", [*referenced_ids, limit_per_book]))
    return out


def children_of(db: Database, parent_ids: list[str]) -> dict[str, str]:
    """child id -> parent id for the children of ``parent_ids``."""
    if not parent_ids:
        return {}
    sql = f"SELECT id, parent_id FROM chunks WHERE kind = 'child' AND parent_id IN ({_marks(parent_ids)})"
    return dict(db.execute(sql, list(parent_ids)).fetchall())


def chunk_texts(db: Database, chunk_ids: list[str]) -> dict[str, str]:
    if not chunk_ids:
        return {}
    sql = f"SELECT id, text FROM chunks WHERE id IN ({_marks(chunk_ids)})"
    return dict(db.execute(sql, list(chunk_ids)).fetchall())


def personalized_pagerank(
    edges: dict[str, dict[str, float]],
    seeds: dict[str, float],
    damping: float = 0.5,
    iterations: int = 30,
) -> dict[str, float]:
    """Personalized PageRank: the stationary probability of a walk that follows a weighted
    edge with probability ``damping`` and jumps back to a seed (chosen in proportion to
    ``seeds``) otherwise. ``edges`` is an undirected weighted graph as adjacency dicts
    (both directions listed). A node with no edges sends its mass back to the seeds.
    Returns node -> probability (summing to 1)."""
    total = sum(seeds.values())
    if total <= 0:
        return {}
    restart = {node: weight / total for node, weight in seeds.items()}
    out_weight = {node: sum(nbrs.values()) for node, nbrs in edges.items()}
    rank = dict(restart)
    for _ in range(iterations):
        nxt = {node: (1 - damping) * p for node, p in restart.items()}
        dangling = 0.0
        for node, p in rank.items():
            weight = out_weight.get(node, 0.0)
            if weight <= 0:
                dangling += p
                continue
            share = damping * p / weight
            for neighbour, w in edges[node].items():
                nxt[neighbour] = nxt.get(neighbour, 0.0) + share * w
        if dangling:
            for node, p in restart.items():
                nxt[node] = nxt.get(node, 0.0) + damping * dangling * p
        rank = nxt
    return rank


def stated_mentions(db: Database, chunk_ids: list[str]) -> list[SeedMention]:
    """The other end of every relationship a section states from an entry it defines
    ("Storm Giant casts Water Breathing" in the giant's stat block, "Tentacle Slam inflicts
    Stunned" in the otyugh's): those ends as mentions of the section, whether or not a
    mention of them is stored there (a list of uses names the spell in lowercase), and for
    an end the section itself defines, the entities of the same name defined elsewhere
    (an item's property named after the spell it casts); each with the normalized name of
    the entry that states it (``stated_by``: "Tentacle Slam" of the otyugh's block). Only ends of a kind (a spell, a
    condition: the pack's types or the kinds the books give): an edge to an untyped
    ``other`` is a sentence's guess, not a list of uses. Rejected and denied ones say
    nothing."""
    if not chunk_ids:
        return []
    sql = f"""
    WITH stated AS (
        SELECT r.chunk_id, r.source_id AS own, r.target_id AS other FROM entity_relationships r
        WHERE r.chunk_id IN ({_marks(chunk_ids)}) AND r.status = 'ready' AND r.polarity = 'asserted'
          AND r.review_state != 'rejected'
        UNION
        SELECT r.chunk_id, r.target_id, r.source_id FROM entity_relationships r
        WHERE r.chunk_id IN ({_marks(chunk_ids)}) AND r.status = 'ready' AND r.polarity = 'asserted'
          AND r.review_state != 'rejected'
    )
    -- the other end, and its namesakes defined elsewhere: a property named after the spell it
    -- casts ("***Faerie Fire.*** ... cast *faerie fire*") is the edge's end in the entry itself
    SELECT DISTINCT n.id, n.name, n.entity_type, s.chunk_id, n.name,
           (SELECT count(*) FROM entity_mentions d WHERE d.entity_id = n.id) AS sections,
           'references', o.normalized
    FROM stated s JOIN entities e ON e.id = s.other JOIN entities n ON n.normalized = e.normalized
    JOIN entities o ON o.id = s.own
    WHERE n.entity_type != 'other'
      AND EXISTS (SELECT 1 FROM entity_mentions m WHERE m.chunk_id = s.chunk_id AND m.entity_id = s.own
                  AND m.mention_type = 'defines')
      AND NOT EXISTS (SELECT 1 FROM entity_mentions m WHERE m.chunk_id = s.chunk_id AND m.entity_id = n.id
                      AND m.mention_type = 'defines')
      AND (n.id = e.id OR EXISTS (SELECT 1 FROM entity_mentions m WHERE m.entity_id = n.id
                                  AND m.mention_type = 'defines'))
    ORDER BY s.chunk_id, n.id, o.normalized
    """
    return [SeedMention(*row) for row in db.execute(sql, [*chunk_ids, *chunk_ids])]


def led_to(db: Database, entity_ids: list[int], relation_types: list[str]) -> list[tuple[int, int, str, str, int]]:
    """(source id, target id, target name, target type, sections mentioning the target) of each
    relationship of ``relation_types`` stated from one of ``entity_ids``, in any section ("the
    Horn of Valhalla summons berserkers" in the horn's entry, a creature's weapon in its block):
    ready, asserted and not rejected, to an end of a kind (an untyped ``other`` is a guess)."""
    if not entity_ids or not relation_types:
        return []
    sql = f"""
    SELECT DISTINCT r.source_id, t.id, t.name, t.entity_type,
           (SELECT count(*) FROM entity_mentions d WHERE d.entity_id = t.id) AS sections
    FROM entity_relationships r JOIN entities t ON t.id = r.target_id
    WHERE r.source_id IN ({_marks(entity_ids)}) AND r.relation_type IN ({_marks(relation_types)})
      AND r.status = 'ready' AND r.polarity = 'asserted' AND r.review_state != 'rejected'
      AND t.entity_type != 'other'
    ORDER BY r.source_id, t.id
    """
    return list(db.execute(sql, [*entity_ids, *relation_types]))
