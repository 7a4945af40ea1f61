"""Schema migrations (append-only: never edit an applied one, add the next)."""

from __future__ import annotations

from sqlite_utils import Database, Migrations

migrations = Migrations("crossbook")


@migrations()
def m001_initial(db: Database) -> None:
    db.executescript(
        """
        CREATE TABLE crossbook_meta (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        CREATE TABLE books (
            title TEXT PRIMARY KEY,
            path TEXT NOT NULL,
            sha256 TEXT NOT NULL,
            extractor TEXT NOT NULL,
            pack TEXT NOT NULL,
            model TEXT,
            ingested_at TEXT NOT NULL,
            dropped_mentions INTEGER NOT NULL DEFAULT 0,
            drop_reasons TEXT NOT NULL DEFAULT '{}'
        );
        CREATE TABLE chunks (
            id TEXT PRIMARY KEY,
            book TEXT NOT NULL REFERENCES books(title) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('parent', 'child')),
            parent_id TEXT REFERENCES chunks(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            heading TEXT,
            heading_path TEXT NOT NULL,
            part INTEGER NOT NULL DEFAULT 0,
            text TEXT NOT NULL,
            sha256 TEXT NOT NULL,
            token_count INTEGER NOT NULL
        );
        CREATE INDEX idx_chunks_book ON chunks(book, kind, ordinal);
        CREATE INDEX idx_chunks_parent ON chunks(parent_id);
        CREATE TABLE entities (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            normalized TEXT NOT NULL,
            entity_type TEXT NOT NULL,
            UNIQUE (normalized, entity_type)
        );
        CREATE INDEX idx_entity_name ON entities(normalized);
        CREATE TABLE entity_mentions (
            id INTEGER PRIMARY KEY,
            entity_id INTEGER NOT NULL REFERENCES entities(id),
            book TEXT NOT NULL REFERENCES books(title) ON DELETE CASCADE,
            chunk_id TEXT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
            mention_type TEXT NOT NULL CHECK (mention_type IN ('defines', 'references')),
            name TEXT NOT NULL,
            normalized TEXT NOT NULL,
            declared_type TEXT NOT NULL,
            context TEXT NOT NULL,
            source TEXT NOT NULL CHECK (source IN ('heading', 'llm', 'linker')),
            origin_book TEXT
        );
        CREATE INDEX idx_mention_entity ON entity_mentions(entity_id);
        CREATE INDEX idx_mention_book ON entity_mentions(book);
        CREATE INDEX idx_mention_chunk ON entity_mentions(chunk_id);
        CREATE INDEX idx_mention_origin ON entity_mentions(origin_book);
        CREATE TABLE llm_cache (
            key TEXT PRIMARY KEY,
            model TEXT NOT NULL,
            prompt_version TEXT NOT NULL,
            response TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        """
    )
