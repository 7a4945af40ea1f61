"""The index's settings and notes in ``crossbook_meta``, each behind a typed accessor: no
other module names a key of its own here, except the vector store's (index/vectors/chroma.py keeps
its namespaced keys as constants).

The four settings that derived state is a function of (``derived_settings``: pack, link,
relations mode, ontology) are written only through ``index/changes/derived.py``, which refreshes
everything when one of them changes.
"""

from __future__ import annotations

import json

from sqlite_utils import Database

PACK = "pack"                          # the domain pack's TOML text
LINK = "link"                          # '1' linker on, '0' off
RELATIONS = "relations"                # the relations mode the claims were made in
ONTOLOGY = "ontology"                  # the merged ontology (Ontology.to_json)
LINK_STATE = "link_state"              # the version of link_state.py's incremental state
LOWERCASE_WORDS = "lowercase_words"    # the shelf's count of lowercase words
LINK_TERMS = "link_terms"              # the corpus terms (JSON list)
GENERATION = "generation"              # grows by one with every change through the door
DERIVED_SETTINGS = (PACK, LINK, RELATIONS, ONTOLOGY)


def get(db: Database, key: str) -> str | None:
    """The raw value of ``key``, or None."""
    row = db.execute("SELECT value FROM crossbook_meta WHERE key = ?", [key]).fetchone()
    return row[0] if row else None


def put(db: Database, key: str, value: str) -> None:
    """Store ``value`` under ``key`` (in the caller's transaction)."""
    db.execute(
        "INSERT INTO crossbook_meta (key, value) VALUES (?, ?)"
        " ON CONFLICT(key) DO UPDATE SET value = excluded.value", [key, value],
    )


def derived_settings(db: Database) -> tuple:
    """The settings derived state depends on, as stored (compared before and after a change)."""
    return tuple(get(db, key) for key in DERIVED_SETTINGS)


def pack_text(db: Database) -> str | None:
    return get(db, PACK)


def link_on(db: Database) -> bool:
    return get(db, LINK) != "0"


def relations_mode(db: Database) -> str:
    """The relations mode the stored claims were made in ('off' for an index without one)."""
    return get(db, RELATIONS) or "off"


def ontology_json(db: Database) -> str | None:
    return get(db, ONTOLOGY)


def link_state_version(db: Database) -> str | None:
    return get(db, LINK_STATE)


def set_link_state_version(db: Database, version: str) -> None:
    put(db, LINK_STATE, version)


def lowercase_words(db: Database) -> int:
    value = get(db, LOWERCASE_WORDS)
    return int(value) if value else 0


def set_lowercase_words(db: Database, total: int) -> None:
    put(db, LOWERCASE_WORDS, str(total))


def add_lowercase_words(db: Database, delta: int) -> None:
    db.execute(
        "INSERT INTO crossbook_meta (key, value) VALUES (?, ?)"
        " ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + ?", [LOWERCASE_WORDS, str(delta), delta])


def link_terms(db: Database) -> set[str]:
    value = get(db, LINK_TERMS)
    return set(json.loads(value)) if value else set()


def set_link_terms(db: Database, terms: set[str]) -> None:
    put(db, LINK_TERMS, json.dumps(sorted(terms)))


def set_pack_text(db: Database, text: str) -> None:
    put(db, PACK, text)


def set_link_on(db: Database, on: bool) -> None:
    put(db, LINK, "1" if on else "0")


def set_relations_mode(db: Database, mode: str) -> None:
    put(db, RELATIONS, mode)


def set_ontology_json(db: Database, text: str) -> None:
    put(db, ONTOLOGY, text)


def generation(db: Database) -> int:
    """How many changes went through the door (0 for a new index): a long-running reader
    compares it before answering and reopens what it caches when it moved."""
    value = get(db, GENERATION)
    return int(value) if value else 0


def bump_generation(db: Database) -> int:
    """Count one more change (in the caller's transaction); returns the new generation."""
    db.execute(
        "INSERT INTO crossbook_meta (key, value) VALUES (?, '1')"
        " ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1", [GENERATION],
    )
    return generation(db)
