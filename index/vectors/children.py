"""Child chunks as SQLite holds them, and what their vectors are made from and checked against.

A ``ChildRow`` is one child chunk with its parent's situating context; its vector's
metadata (``book``, ``parent_id``, ``heading_path``, ``sha256`` of the text, the chunk
context) is what a sync compares (``diff``: missing, stale, orphaned) and what
``children_digest`` hashes for a book. ``embedding_text`` is what is embedded: "Book >
Chapter > Section: text", the situating context before the text when there is one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from sqlite_utils import Database

from .embed import embedding_text as embed_text_of

# What a child's vector is made from (``embedding_text``): "book-path" = "Book > Chapter >
# Section: text". Recorded in the index like the embedder, and in every vector's metadata,
# so vectors made another way are stale and ``reembed`` redoes them. An index that records
# an embedder but no chunk context predates it ("heading path, newline, text").
CHUNK_CONTEXT = "book-path"
LEGACY_CONTEXT = "heading-path"
# "book-path", and for a child whose parent has a situating context (the model's sentences
# about it, ``--extractor openai``: contextual embeddings) that context between the path and the text.
# Each vector's metadata says which of the two made it (and the context's hash), and the
# index records this variant once any vector uses a context: a crossbook that embeds only
# "book-path" then refuses the index until reembed, as for another embedder. An index with
# no situating context (the rules extractor's) keeps "book-path" and its vectors.
SITUATING_CONTEXT = "book-path+situating"
KNOWN_CONTEXTS = (CHUNK_CONTEXT, SITUATING_CONTEXT)


@dataclass(frozen=True)
class ChildRow:
    """A child chunk as SQLite holds it: what a vector is made from and checked against."""

    id: str
    book: str
    parent_id: str
    heading_path: str
    text: str
    sha256: str
    situating: str | None = None     # the parent's situating context, if the model wrote one

    @property
    def metadata(self) -> dict:
        meta = {"book": self.book, "parent_id": self.parent_id,
                "heading_path": self.heading_path, "sha256": self.sha256, "context": CHUNK_CONTEXT}
        if self.situating:
            # a vector made before the context changed (or before it existed) is stale
            meta.update(context=SITUATING_CONTEXT, situating_sha256=_text_sha256(self.situating))
        return meta


def _text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def embedding_text(row: ChildRow) -> str:
    """What is embedded for a child: "Book > Chapter > Section: text", with the parent's
    situating context before the text when it has one (embed.embedding_text)."""
    return embed_text_of(row.heading_path, row.text, row.book, row.situating)


def children_digest(rows: list[ChildRow]) -> str:
    """One hash of the children's ids and vector metadata (what a sync compares), and of
    the chunk context their vectors are made with."""
    digest = hashlib.sha256(CHUNK_CONTEXT.encode())
    for row in rows:
        fields = [row.id, row.book, row.parent_id, row.heading_path, row.sha256]
        if row.situating:  # a row without one hashes as it did before situating contexts
            fields.append(_text_sha256(row.situating))
        digest.update("\x1f".join(fields).encode())
        digest.update(b"\x1e")
    return digest.hexdigest()


def child_rows(db: Database, book: str | None = None) -> list[ChildRow]:
    """Every child chunk in SQLite (of one book, or of the index), in book order, with its
    parent's situating context."""
    sql = ("SELECT c.id, c.book, c.parent_id, c.heading_path, c.text, c.sha256, s.context FROM chunks c"
           " LEFT JOIN situating_contexts s ON s.chunk_id = c.parent_id WHERE c.kind = 'child'"
           + (" AND c.book = ?" if book is not None else "") + " ORDER BY c.book, c.parent_id, c.ordinal")
    return [ChildRow(*row) for row in db.execute(sql, [book] if book is not None else [])]


@dataclass
class SyncReport:
    """What a sync changed: vectors embedded (missing or stale) and deleted (orphaned)."""

    embedded: int = 0
    deleted: int = 0
    missing: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    orphaned: list[str] = field(default_factory=list)


def diff(rows: list[ChildRow], stored: dict[str, dict]) -> SyncReport:
    """Compare SQLite's children with stored vector metadata (id -> metadata)."""
    report = SyncReport()
    wanted = {row.id: row for row in rows}
    for row in rows:
        meta = stored.get(row.id)
        if meta is None:
            report.missing.append(row.id)
        elif meta != row.metadata:
            report.stale.append(row.id)
    report.orphaned = [vid for vid in stored if vid not in wanted]
    return report
