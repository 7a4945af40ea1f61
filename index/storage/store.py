"""SQLite reads and writes for books, chunks, mentions, index metadata and the LLM cache.

Derived state (entities' resolution, linker references, relationships, GC) lives in
index/changes/derived.py.

All functions here expect to run inside the caller's ``db.atomic()`` block when they write.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from typing import Iterable

from sqlite_utils import Database

from ..core.models import ChildChunk, ParentChunk, RawMention, Veto
from ..core.normalize import normalize_name
from ..core.packs import DomainPack, parse_pack
from . import index_state


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def in_values(column: str, values: Iterable | None) -> tuple[str, list]:
    """An SQL condition ``column IN (values)`` (always true when ``values`` is None) and its
    parameter: one JSON array, so any number of values is one statement."""
    if values is None:
        return "1", []
    return f"{column} IN (SELECT value FROM json_each(?))", [json.dumps(sorted(values))]


# -- books and chunks -------------------------------------------------------------------------

def get_book(db: Database, title: str) -> dict | None:
    rows = list(db.query("SELECT * FROM books WHERE title = ?", [title]))
    return rows[0] if rows else None


def get_book_by_source(db: Database, source: str) -> dict | None:
    """The book stored from the file ``source`` (index/ingest/identity.py), if any."""
    rows = list(db.query("SELECT * FROM books WHERE source = ?", [source]))
    return rows[0] if rows else None


def set_book_source(db: Database, title: str, path: str, source: str) -> None:
    """Record where an unchanged book's file is now (it moved, or was stored before sources)."""
    db.execute("UPDATE books SET path = ?, source = ? WHERE title = ?", [path, source, title])


def book_sources(db: Database) -> dict[str, str | None]:
    """title -> source file of every book (None: stored before sources were recorded)."""
    return {r["title"]: r["source"] for r in db.query("SELECT title, source FROM books ORDER BY title")}


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
    source: str,
    sha256: str,
    extractor: str,
    pack: str,
    model: str | None,
    drop_reasons: dict[str, int],
    parents: list[ParentChunk],
    children: list[ChildChunk],
    fmt: str = "markdown",
    pages_without_text: tuple[int, ...] = (),
) -> None:
    db.execute(
        "INSERT INTO books (title, path, source, sha256, extractor, pack, model, ingested_at,"
        " dropped_mentions, drop_reasons, format, pages_without_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [title, path, source, sha256, extractor, pack, model, now_iso(), sum(drop_reasons.values()),
         json.dumps(drop_reasons, sort_keys=True), fmt, json.dumps(list(pages_without_text))],
    )
    db.conn.executemany(
        "INSERT INTO chunks (id, book, kind, parent_id, ordinal, heading, heading_path, part,"
        " text, sha256, token_count, page_start, page_end, source_file)"
        " VALUES (?, ?, 'parent', NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(p.id, title, p.ordinal, p.heading, p.path_str, p.part, p.text, p.sha256, p.token_count,
          *(p.pages or (None, None)), p.file) for p in parents],
    )
    by_id = {p.id: p for p in parents}
    db.conn.executemany(
        "INSERT INTO chunks (id, book, kind, parent_id, ordinal, heading, heading_path, part,"
        " text, sha256, token_count, page_start, page_end, source_file)"
        " VALUES (?, ?, 'child', ?, ?, NULL, ?, 0, ?, ?, ?, ?, ?, ?)",
        [(c.id, title, c.parent_id, c.ordinal, by_id[c.parent_id].path_str, c.text,
          hashlib.sha256(c.text.encode()).hexdigest(), c.token_count,
          *(by_id[c.parent_id].pages or (None, None)), by_id[c.parent_id].file) for c in children],
    )


def insert_situating_contexts(db: Database, by_chunk: dict[str, str]) -> int:
    """Store the model's situating context of each parent chunk that has one (after the
    chunks are inserted: the rows go with them). Returns how many."""
    db.conn.executemany(
        "INSERT INTO situating_contexts (chunk_id, context) VALUES (?, ?)", list(by_chunk.items())
    )
    return len(by_chunk)


def ensure_entity(db: Database, normalized: str, entity_type: str, name: str) -> int:
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
            entity_id = ensure_entity(db, normalized, m.entity_type, m.name)
            rows.append((entity_id, book, chunk_id, m.mention_type, m.name, normalized,
                         m.entity_type, m.context, m.source, m.rule or m.source))
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
        " declared_type, context, source, rule) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    return len(rows)


def insert_vetoes(db: Database, book: str, vetoes: list[Veto]) -> None:
    """Store the candidates the rules dropped in ``book`` (each chunk's), for ``crossbook explain``."""
    db.conn.executemany(
        "INSERT INTO rule_vetoes (book, chunk_id, stage, name, normalized, rule) VALUES (?, ?, ?, ?, ?, ?)",
        [(book, v.chunk_id, v.stage, v.name, normalize_name(v.name), v.rule) for v in vetoes
         if normalize_name(v.name)],
    )


# -- the index's pack -------------------------------------------------------------------------

def index_pack(db: Database) -> DomainPack | None:
    """The pack the index was built with (None for an empty index)."""
    text = index_state.read_state(db).pack_text
    return parse_pack(text, "stored in the index") if text else None


def partial_books(db: Database) -> dict[str, int]:
    """Books stored with --allow-partial: title -> parent chunks stored without entities
    (the next ingest extracts them again)."""
    return {title: n for title, n in db.execute("SELECT title, partial FROM books WHERE partial > 0 ORDER BY title")}


def set_book_partial(db: Database, title: str, missing_chunks: int) -> None:
    """Record how many parent chunks of a stored book have no extraction (0 = complete)."""
    db.execute("UPDATE books SET partial = ? WHERE title = ?", [missing_chunks, title])


# -- index metadata ---------------------------------------------------------------------------

def set_meta(db: Database, key: str, value: str) -> None:
    """A note of the vector store's (its own keys, index/vectors/chroma.py); the index's settings
    are the one value of index/storage/index_state.py."""
    index_state.put(db, key, value)


def get_meta(db: Database, key: str) -> str | None:
    return index_state.get(db, key)


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
