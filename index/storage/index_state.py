"""The index's state in ``crossbook_meta``, as one value: ``IndexState``, read by one query
(``read_state``) and written by one statement of the keys that changed (``write_state``).

A change of the shelf reads it once when it begins and writes it once when its derived
state is refreshed (index/changes/derived.py); what the refresh needs of it in between
(the relations mode, the ontology, the shelf's count of lowercase words) it is handed, not
read again. The four settings derived state is a function of (``derived_settings``: pack,
link, relations mode, ontology) are stored only through that refresh, which refreshes
everything when one of them changes.

Besides, ``generation`` is the count of changes (the door bumps it in each change's
transaction; a long-running reader compares it), and ``get``/``put`` hold the vector
store's own notes (index/vectors/: embedder, sync notes), under keys of its own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace
from functools import cached_property

from sqlite_utils import Database

GENERATION = "generation"              # grows by one with every change through the door
# field of IndexState -> its key in crossbook_meta
KEYS = {
    "pack_text": "pack",               # the domain pack's TOML text
    "link": "link",                    # '1' linker on, '0' off
    "relations": "relations",          # the relations mode the claims were made in
    "ontology": "ontology",            # the merged ontology (Ontology.to_json)
    "link_state": "link_state",        # the version of the derived state's incremental indexes
    "lowercase_words": "lowercase_words",  # the shelf's count of lowercase words
    "link_terms_json": "link_terms",   # the corpus terms (a JSON list)
    "generation": GENERATION,
}


@dataclass(frozen=True)
class IndexState:
    """What ``crossbook_meta`` records of the index, as stored (None: never recorded)."""

    pack_text: str | None = None
    link: str | None = None
    relations: str | None = None
    ontology: str | None = None
    link_state: str | None = None
    lowercase_words: int | None = None
    link_terms_json: str | None = None
    generation: int = 0

    @property
    def derived_settings(self) -> tuple:
        """The settings derived state depends on, as stored (compared before and after a change)."""
        return (self.pack_text, self.link, self.relations, self.ontology)

    @property
    def link_on(self) -> bool:
        return self.link != "0"

    @property
    def relations_mode(self) -> str:
        """The relations mode the stored claims were made in ('off' for an index without one)."""
        return self.relations or "off"

    @cached_property
    def link_terms(self) -> frozenset[str]:
        """The corpus terms the linker reads single-word names by (index/linking/linker.py)."""
        return frozenset(json.loads(self.link_terms_json)) if self.link_terms_json else frozenset()

    def with_settings(self, pack_text: str, link: bool, relations: str, ontology: str) -> IndexState:
        """This state with the four derived settings as an ingest stores them."""
        return replace(self, pack_text=pack_text, link="1" if link else "0", relations=relations, ontology=ontology)

    def with_terms(self, lowercase_words: int | None, terms: set[str] | frozenset[str]) -> IndexState:
        """This state with the shelf's lowercase word count and corpus terms as a refresh left them."""
        return replace(self, lowercase_words=lowercase_words, link_terms_json=json.dumps(sorted(terms)))

    def with_link_state(self, version: str) -> IndexState:
        return replace(self, link_state=version)


def read_state(db: Database) -> IndexState:
    """The index's state, in one query."""
    by_key = dict(db.execute(
        f"SELECT key, value FROM crossbook_meta WHERE key IN ({', '.join('?' * len(KEYS))})", list(KEYS.values())))
    values = {name: by_key.get(key) for name, key in KEYS.items()}
    words, generation = values.pop("lowercase_words"), values.pop("generation")
    return IndexState(**values, lowercase_words=int(words) if words else None,
                      generation=int(generation) if generation else 0)


def write_state(db: Database, state: IndexState, since: IndexState) -> None:
    """Store what ``state`` changed from ``since`` (the state read when the change began), in
    the caller's transaction: one statement, nothing when nothing changed. The generation is
    the door's (``bump_generation``), not written here."""
    changed = [(KEYS[f.name], str(getattr(state, f.name))) for f in fields(state)
               if f.name != "generation" and getattr(state, f.name) != getattr(since, f.name)
               and getattr(state, f.name) is not None]
    db.conn.executemany(
        "INSERT INTO crossbook_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        changed)


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


def get(db: Database, key: str) -> str | None:
    """The vector store's note under ``key`` (its own keys), or None."""
    row = db.execute("SELECT value FROM crossbook_meta WHERE key = ?", [key]).fetchone()
    return row[0] if row else None


def put(db: Database, key: str, value: str) -> None:
    """Store the vector store's note ``value`` under ``key`` (in the caller's transaction)."""
    db.execute(
        "INSERT INTO crossbook_meta (key, value) VALUES (?, ?)"
        " ON CONFLICT(key) DO UPDATE SET value = excluded.value", [key, value],
    )
