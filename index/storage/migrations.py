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


@migrations()
def m002_relationships(db: Database) -> None:
    """Typed relationships (index/relations/).

    relation_claims: what extractors asserted, per book and chunk, with raw endpoint names
      (and the (normalized, type) key when the model named a known entity by id). Stored
      with the book like mentions; ``status`` is derived: 'resolved' or 'pending_entities'.
    entity_relationships: one row per logical relationship per chunk, derived from the
      claims against the current entities (store.refresh_derived), in canonical direction.
    relation_types: the index's merged ontology (name, mirror), for the view and the trigger.
    relation_reviews: human decisions keyed by a relationship's fingerprint, so they survive
      re-derivation; never garbage-collected with books.
    """
    db.executescript(
        """
        ALTER TABLE books ADD COLUMN relation_drop_reasons TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE llm_cache ADD COLUMN known TEXT;
        CREATE TABLE relation_types (
            name TEXT PRIMARY KEY,
            mirror TEXT,
            symmetric INTEGER NOT NULL DEFAULT 0,
            canonical INTEGER NOT NULL DEFAULT 1,
            semantics TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE relation_claims (
            id INTEGER PRIMARY KEY,
            book TEXT NOT NULL REFERENCES books(title) ON DELETE CASCADE,
            chunk_id TEXT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            source_name TEXT NOT NULL,
            source_normalized TEXT NOT NULL,
            source_type TEXT,
            target_name TEXT NOT NULL,
            target_normalized TEXT NOT NULL,
            target_type TEXT,
            relation_type TEXT NOT NULL,
            evidence TEXT NOT NULL,
            confidence REAL NOT NULL DEFAULT 1.0,
            polarity TEXT NOT NULL DEFAULT 'asserted' CHECK (polarity IN ('asserted', 'denied', 'uncertain')),
            implicit INTEGER NOT NULL DEFAULT 0,
            extractor TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'pending_entities' CHECK (status IN ('resolved', 'pending_entities'))
        );
        CREATE INDEX idx_claim_book ON relation_claims(book);
        CREATE INDEX idx_claim_chunk ON relation_claims(chunk_id, extractor);
        CREATE TABLE relation_svo_chunks (
            chunk_id TEXT PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
            signature TEXT NOT NULL
        );
        CREATE TABLE entity_relationships (
            id INTEGER PRIMARY KEY,
            source_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            target_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            relation_type TEXT NOT NULL,
            mapped_from TEXT,
            book TEXT NOT NULL REFERENCES books(title) ON DELETE CASCADE,
            chunk_id TEXT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
            source_name TEXT NOT NULL,
            target_name TEXT NOT NULL,
            evidence TEXT NOT NULL,
            confidence REAL NOT NULL,
            polarity TEXT NOT NULL CHECK (polarity IN ('asserted', 'denied', 'uncertain')),
            implicit INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL CHECK (status IN ('ready', 'invalid')),
            status_reason TEXT,
            review_state TEXT NOT NULL DEFAULT 'suggested'
                CHECK (review_state IN ('suggested', 'accepted', 'rejected', 'adjusted')),
            extractor TEXT NOT NULL,
            claims INTEGER NOT NULL DEFAULT 1,
            fingerprint TEXT NOT NULL,
            UNIQUE (source_id, target_id, relation_type, chunk_id)
        );
        CREATE INDEX idx_rel_source ON entity_relationships(source_id);
        CREATE INDEX idx_rel_target ON entity_relationships(target_id);
        CREATE INDEX idx_rel_type ON entity_relationships(relation_type, status);
        CREATE INDEX idx_rel_book ON entity_relationships(book);
        CREATE INDEX idx_rel_fingerprint ON entity_relationships(fingerprint);
        CREATE TABLE relation_reviews (
            fingerprint TEXT PRIMARY KEY,
            decision TEXT NOT NULL CHECK (decision IN ('accepted', 'rejected', 'adjusted')),
            relation_type TEXT,
            flipped INTEGER NOT NULL DEFAULT 0,
            decided_at TEXT NOT NULL
        );
        -- single-edge storage: no row B->A whose type is the mirror of an existing A->B row
        -- (for a symmetric type the mirror is the type itself, so its reverse is rejected too)
        CREATE TRIGGER entity_relationships_no_inverse_insert
        BEFORE INSERT ON entity_relationships
        WHEN EXISTS (
            SELECT 1 FROM entity_relationships r
            WHERE r.source_id = NEW.target_id AND r.target_id = NEW.source_id
              AND r.relation_type = (SELECT mirror FROM relation_types WHERE name = NEW.relation_type)
        )
        BEGIN
            SELECT RAISE(ABORT, 'inverse duplicate: the mirror of this relationship is already stored');
        END;
        CREATE TRIGGER entity_relationships_no_inverse_update
        BEFORE UPDATE OF source_id, target_id, relation_type ON entity_relationships
        WHEN EXISTS (
            SELECT 1 FROM entity_relationships r
            WHERE r.id != NEW.id AND r.source_id = NEW.target_id AND r.target_id = NEW.source_id
              AND r.relation_type = (SELECT mirror FROM relation_types WHERE name = NEW.relation_type)
        )
        BEGIN
            SELECT RAISE(ABORT, 'inverse duplicate: the mirror of this relationship is already stored');
        END;
        -- both perspectives of every stored relationship: as stored, and read from the target
        -- with the inverse name
        CREATE VIEW entity_relationships_view AS
        SELECT r.id AS relationship_id, r.source_id AS entity_id, r.target_id AS related_id,
               r.relation_type AS relation_type, 'outgoing' AS direction, r.book, r.chunk_id,
               r.evidence, r.confidence, r.polarity, r.status, r.review_state
        FROM entity_relationships r
        UNION ALL
        SELECT r.id, r.target_id, r.source_id,
               COALESCE(t.mirror, 'inverse:' || r.relation_type), 'incoming', r.book, r.chunk_id,
               r.evidence, r.confidence, r.polarity, r.status, r.review_state
        FROM entity_relationships r LEFT JOIN relation_types t ON t.name = r.relation_type;
        """
    )


@migrations()
def m003_relationship_self_loops(db: Database) -> None:
    """A self-relationship (A enemy_of A, kept as invalid 'self_relation' for review) is not
    the inverse duplicate of itself when another chunk states it too."""
    db.executescript(
        """
        DROP TRIGGER entity_relationships_no_inverse_insert;
        DROP TRIGGER entity_relationships_no_inverse_update;
        CREATE TRIGGER entity_relationships_no_inverse_insert
        BEFORE INSERT ON entity_relationships
        WHEN NEW.source_id != NEW.target_id AND EXISTS (
            SELECT 1 FROM entity_relationships r
            WHERE r.source_id = NEW.target_id AND r.target_id = NEW.source_id
              AND r.relation_type = (SELECT mirror FROM relation_types WHERE name = NEW.relation_type)
        )
        BEGIN
            SELECT RAISE(ABORT, 'inverse duplicate: the mirror of this relationship is already stored');
        END;
        CREATE TRIGGER entity_relationships_no_inverse_update
        BEFORE UPDATE OF source_id, target_id, relation_type ON entity_relationships
        WHEN NEW.source_id != NEW.target_id AND EXISTS (
            SELECT 1 FROM entity_relationships r
            WHERE r.id != NEW.id AND r.source_id = NEW.target_id AND r.target_id = NEW.source_id
              AND r.relation_type = (SELECT mirror FROM relation_types WHERE name = NEW.relation_type)
        )
        BEGIN
            SELECT RAISE(ABORT, 'inverse duplicate: the mirror of this relationship is already stored');
        END;
        """
    )


@migrations()
def m004_rules_definitions(db: Database) -> None:
    """Definitions that are not headings (glossary paragraphs, definition lists, catalog
    tables) get their own ``source``, and names a book gives an entity besides its own
    (``Cloak of the Vale (Mistcloak)``, ``Frostbite/Chilblains``) are stored as aliases.

    SQLite cannot alter a CHECK constraint, so entity_mentions is rebuilt with its rows.
    entity_aliases rows belong to a chunk (and go with it); ``canonical`` is the normalized
    name of the entity the alias names, of ``entity_type``.
    """
    db.executescript(
        """
        CREATE TABLE entity_mentions_new (
            id INTEGER PRIMARY KEY,
            entity_id INTEGER NOT NULL REFERENCES entities(id),
            book TEXT NOT NULL REFERENCES books(title) ON DELETE CASCADE,
            chunk_id TEXT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
            mention_type TEXT NOT NULL CHECK (mention_type IN ('defines', 'references')),
            name TEXT NOT NULL,
            normalized TEXT NOT NULL,
            declared_type TEXT NOT NULL,
            context TEXT NOT NULL,
            source TEXT NOT NULL CHECK (source IN ('heading', 'glossary', 'deflist', 'table', 'llm', 'linker')),
            origin_book TEXT
        );
        INSERT INTO entity_mentions_new
            SELECT id, entity_id, book, chunk_id, mention_type, name, normalized, declared_type,
                   context, source, origin_book FROM entity_mentions;
        DROP TABLE entity_mentions;
        ALTER TABLE entity_mentions_new RENAME TO entity_mentions;
        CREATE INDEX idx_mention_entity ON entity_mentions(entity_id);
        CREATE INDEX idx_mention_book ON entity_mentions(book);
        CREATE INDEX idx_mention_chunk ON entity_mentions(chunk_id);
        CREATE INDEX idx_mention_origin ON entity_mentions(origin_book);
        CREATE TABLE entity_aliases (
            id INTEGER PRIMARY KEY,
            book TEXT NOT NULL REFERENCES books(title) ON DELETE CASCADE,
            chunk_id TEXT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
            alias TEXT NOT NULL,
            normalized TEXT NOT NULL,
            canonical TEXT NOT NULL,
            entity_type TEXT NOT NULL
        );
        CREATE INDEX idx_alias_normalized ON entity_aliases(normalized);
        CREATE INDEX idx_alias_canonical ON entity_aliases(canonical, entity_type);
        """
    )


@migrations()
def m004_llm_partial(db: Database) -> None:
    """A book stored with ``--allow-partial`` records how many parent chunks got no valid LLM
    answer (0 = complete; a partial book is re-extracted by the next ingest). Which cached
    answer each stored chunk uses, so ``crossbook cache prune`` can drop the others."""
    db.executescript(
        """
        ALTER TABLE books ADD COLUMN partial INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE llm_cache_chunks (
            chunk_id TEXT PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
            key TEXT NOT NULL
        );
        CREATE INDEX idx_llm_cache_chunks_key ON llm_cache_chunks(key);
        """
    )


@migrations()
def m005_book_identity(db: Database) -> None:
    """A book is its source file; the title is its display name (index/ingest/identity.py).

    ``source`` is the file's resolved absolute path, so no command depends on the directory
    it runs from. A book stored before this migration keeps ``source`` NULL until its next
    ingest when its path was relative (the directory it was relative to is unknown): such a
    book is matched by its title, as before.
    """
    db.executescript(
        """
        ALTER TABLE books ADD COLUMN source TEXT;
        UPDATE books SET source = path WHERE substr(path, 1, 1) = '/';
        CREATE INDEX idx_books_source ON books(source);
        """
    )


@migrations()
def m006_incremental_relink(db: Database) -> None:
    """What lets a change relink only what it touches (index/changes/derived.py):

    link_chunks + link_words: each parent chunk's words as the linker reads them (its match
      view, lowercased, one space between words) under SQLite FTS5, to find the chunks that
      can contain a name; a chunk's row goes with the chunk (cascade, then the trigger).
    book_words / shelf_words: each book's lowercase word counts (JSON) and their shelf
      totals, so the corpus-term rule updates with one book's counts.
    link_targets / link_names: every defined entity's linker names (definitions, aliases),
      the books that define it and its category, and the first word of each name form:
      the inverted index from a chunk's words to the names it may contain.
    Filled by the next write to the index (derived.refresh rebuilds what is missing).
    Indexes for the scoped queries and for the cascades of a book's deletion.
    """
    db.executescript(
        """
        CREATE TABLE link_chunks (
            id INTEGER PRIMARY KEY,
            chunk_id TEXT NOT NULL UNIQUE REFERENCES chunks(id) ON DELETE CASCADE,
            words TEXT NOT NULL
        );
        CREATE VIRTUAL TABLE link_words USING fts5(words, content='link_chunks', content_rowid='id');
        CREATE TRIGGER link_chunks_delete AFTER DELETE ON link_chunks BEGIN
            INSERT INTO link_words (link_words, rowid, words) VALUES ('delete', old.id, old.words);
        END;
        CREATE TABLE book_words (
            book TEXT PRIMARY KEY REFERENCES books(title) ON DELETE CASCADE,
            total INTEGER NOT NULL,
            counts TEXT NOT NULL
        );
        CREATE TABLE shelf_words (
            word TEXT PRIMARY KEY,
            count INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE link_targets (
            normalized TEXT NOT NULL,
            entity_type TEXT NOT NULL,
            names TEXT NOT NULL,
            books TEXT NOT NULL,
            category TEXT NOT NULL,
            PRIMARY KEY (normalized, entity_type)
        ) WITHOUT ROWID;
        CREATE TABLE link_names (
            token TEXT NOT NULL,
            words TEXT NOT NULL,
            normalized TEXT NOT NULL,
            entity_type TEXT NOT NULL
        );
        CREATE INDEX idx_link_names_token ON link_names(token);
        CREATE INDEX idx_link_names_key ON link_names(normalized, entity_type);
        CREATE INDEX idx_mention_normalized ON entity_mentions(normalized);
        CREATE INDEX idx_claim_source ON relation_claims(source_normalized);
        CREATE INDEX idx_claim_target ON relation_claims(target_normalized);
        CREATE INDEX idx_rel_chunk ON entity_relationships(chunk_id);
        CREATE INDEX idx_alias_book ON entity_aliases(book);
        CREATE INDEX idx_alias_chunk ON entity_aliases(chunk_id);
        """
    )


@migrations()
def m007_llm_batches(db: Database) -> None:
    """Extraction requests sent through the OpenAI Batch API (``ingest --batch``), so that a
    later process can poll and collect them (``crossbook batch status|collect``). One row per
    batch, and one per request: its ``custom_id`` is the chunk's LLM cache key, with the book,
    file and chunk it was built from (no foreign key: a new book's chunks are stored only when
    it is ingested from the cache) and the known entities its prompt offered. A request's
    ``state``: submitted, cached (a valid answer is in llm_cache, waiting for an ingest: ``cache
    prune`` keeps it), ingested (an ingest used it), invalid (answered, but the answer failed
    validation or the request failed: the synchronous path asks it again) or unanswered (the
    batch failed, expired or was cancelled first: ``ingest --batch`` resubmits)."""
    db.executescript(
        """
        CREATE TABLE llm_batches (
            id TEXT PRIMARY KEY,
            endpoint TEXT NOT NULL,
            model TEXT NOT NULL,
            prompt_version TEXT NOT NULL,
            input_file_id TEXT NOT NULL,
            status TEXT NOT NULL,
            submitted_at TEXT NOT NULL,
            checked_at TEXT,
            collected_at TEXT
        );
        CREATE TABLE llm_batch_requests (
            batch_id TEXT NOT NULL REFERENCES llm_batches(id) ON DELETE CASCADE,
            custom_id TEXT NOT NULL,
            book TEXT NOT NULL,
            path TEXT NOT NULL,
            chunk_id TEXT NOT NULL,
            section TEXT NOT NULL,
            known TEXT,
            state TEXT NOT NULL DEFAULT 'submitted'
                CHECK (state IN ('submitted', 'cached', 'ingested', 'invalid', 'unanswered')),
            error TEXT,
            PRIMARY KEY (batch_id, custom_id)
        );
        CREATE INDEX idx_llm_batch_requests_key ON llm_batch_requests(custom_id);
        """
    )


@migrations()
def m008_situating_context(db: Database) -> None:
    """The situating context (contextual embeddings): one or two sentences the model wrote about each parent
    chunk (``--extractor openai``), prepended to the embedding text of its children. It is
    model-written and unverified, so it lives apart from entity_mentions and is never a
    mention nor evidence; it goes with its chunk (and so with its book)."""
    db.executescript(
        """
        CREATE TABLE situating_contexts (
            chunk_id TEXT PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
            context TEXT NOT NULL
        );
        """
    )


@migrations()
def m009_foreign_key_indexes(db: Database) -> None:
    """Indexes on the foreign keys that had none: deleting a book's chunks (delete-book, and
    every re-ingest) scanned entity_relationships and entity_aliases once per chunk."""
    db.executescript(
        """
        CREATE INDEX IF NOT EXISTS idx_rel_chunk ON entity_relationships(chunk_id);
        CREATE INDEX IF NOT EXISTS idx_alias_chunk ON entity_aliases(chunk_id);
        CREATE INDEX IF NOT EXISTS idx_alias_book ON entity_aliases(book);
        """
    )



@migrations()
def m010_source_locations(db: Database) -> None:
    """Books in other formats (index/readers): each book's format, and where each chunk is in
    its source, so answers cite "p. 117" of a PDF or the note of a vault. NULL: not known
    (a Markdown book, or one ingested before this migration)."""
    db.executescript(
        """
        ALTER TABLE books ADD COLUMN format TEXT;
        ALTER TABLE chunks ADD COLUMN page_start INTEGER;
        ALTER TABLE chunks ADD COLUMN page_end INTEGER;
        ALTER TABLE chunks ADD COLUMN source_file TEXT;
        """
    )


@migrations()
def m011_note_marks(db: Database) -> None:
    """Mentions a note vault's conventions state exactly (index/extract/marks.py) get their own
    ``source``: 'note' (a note defines its name, title and aliases), 'wikilink' (a link
    references the note it names) and 'statblock' (a stat block's ``name:``). SQLite cannot
    alter a CHECK constraint, so entity_mentions is rebuilt with its rows and indexes."""
    db.executescript(
        """
        CREATE TABLE entity_mentions_new (
            id INTEGER PRIMARY KEY,
            entity_id INTEGER NOT NULL REFERENCES entities(id),
            book TEXT NOT NULL REFERENCES books(title) ON DELETE CASCADE,
            chunk_id TEXT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
            mention_type TEXT NOT NULL CHECK (mention_type IN ('defines', 'references')),
            name TEXT NOT NULL,
            normalized TEXT NOT NULL,
            declared_type TEXT NOT NULL,
            context TEXT NOT NULL,
            source TEXT NOT NULL CHECK (source IN ('heading', 'glossary', 'deflist', 'table', 'llm', 'linker',
                                                   'note', 'wikilink', 'statblock')),
            origin_book TEXT
        );
        INSERT INTO entity_mentions_new
            SELECT id, entity_id, book, chunk_id, mention_type, name, normalized, declared_type,
                   context, source, origin_book FROM entity_mentions;
        DROP TABLE entity_mentions;
        ALTER TABLE entity_mentions_new RENAME TO entity_mentions;
        CREATE INDEX idx_mention_entity ON entity_mentions(entity_id);
        CREATE INDEX idx_mention_book ON entity_mentions(book);
        CREATE INDEX idx_mention_chunk ON entity_mentions(chunk_id);
        CREATE INDEX idx_mention_origin ON entity_mentions(origin_book);
        CREATE INDEX idx_mention_normalized ON entity_mentions(normalized);
        """
    )


@migrations()
def m012_pages_without_text(db: Database) -> None:
    """A PDF's pages with no text layer (scanned), as printed: a JSON list, so ``books``
    shows how much of a partly scanned book was left out ('[]': none, or not a PDF)."""
    db.executescript("ALTER TABLE books ADD COLUMN pages_without_text TEXT NOT NULL DEFAULT '[]';")


@migrations()
def m013_book_file_stamp(db: Database) -> None:
    """What lets an unchanged book be skipped before it is read: its file's size and
    modification time when it was stored (checked against its bytes' hash then), and the
    title its reader gave it (a book stored under --book is not the title its file gives).
    NULL: not known (a folder, or a book stored before this migration): the book is read."""
    db.executescript(
        """
        ALTER TABLE books ADD COLUMN file_size INTEGER;
        ALTER TABLE books ADD COLUMN file_mtime_ns INTEGER;
        ALTER TABLE books ADD COLUMN read_title TEXT;
        """
    )


@migrations()
def m014_mention_rule(db: Database) -> None:
    """The extraction rule that made each mention (index/extract/contract.py: "catalog_entry",
    "bold_lead", "doc_link", "llm", "linker"...), the first in order when several agree. A
    mention stored before this migration names its source, the closest known; the rules'
    version changed with it, so ``rebuild`` re-extracts the books and names their rules."""
    db.executescript(
        """
        ALTER TABLE entity_mentions ADD COLUMN rule TEXT NOT NULL DEFAULT '';
        UPDATE entity_mentions SET rule = source;
        """
    )


@migrations()
def m015_book_genres(db: Database) -> None:
    """The genre packs chosen for each book (index/extract/genre_choice.py): ``genres`` a JSON
    list of their names (NULL: stored before the choice, every genre's words applied), the
    signals that chose each (``genre_signals``, JSON), and how they were chosen
    (``genre_choice``: ``auto@FINGERPRINT`` of the genre packs, or ``pack:NAMES`` from
    --pack). A book stored before this migration has no choice: the next ingest re-extracts it."""
    db.executescript(
        """
        ALTER TABLE books ADD COLUMN genres TEXT;
        ALTER TABLE books ADD COLUMN genre_signals TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE books ADD COLUMN genre_choice TEXT NOT NULL DEFAULT '';
        """
    )


@migrations()
def m016_rule_vetoes(db: Database) -> None:
    """The candidates the extraction rules dropped, each with the veto that dropped it
    (index/extract/contract.py: a heading's "stop_heading", an entry's "repeated_lead", a guess's
    "marked_exactly"), per chunk: ``crossbook explain`` shows them beside the rule that stored
    each mention of a name. A book's go with its chunks; a book stored before this migration
    has none until it is ingested again."""
    db.executescript(
        """
        CREATE TABLE rule_vetoes (
            book TEXT NOT NULL REFERENCES books(title) ON DELETE CASCADE,
            chunk_id TEXT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
            stage TEXT NOT NULL,
            name TEXT NOT NULL,
            normalized TEXT NOT NULL,
            rule TEXT NOT NULL
        );
        CREATE INDEX idx_rule_vetoes_normalized ON rule_vetoes(normalized);
        CREATE INDEX idx_rule_vetoes_chunk ON rule_vetoes(chunk_id);
        CREATE INDEX idx_rule_vetoes_book ON rule_vetoes(book);
        """
    )
