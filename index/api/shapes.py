"""The JSON shapes of the API's results, as TypedDicts: what ``to_dict()`` (and the CLI's
``--json``) gives, key by key. The MCP server publishes them as its tools' output schemas.

One key names one thing in every result: ``book`` (a title), ``heading_path`` (a section's
headings joined by " > "), ``pages`` (a PDF's page range, else null), ``file`` (the source
file of a vault's note), ``chunk_id`` (what ``show`` takes). ``DEPRECATED_KEYS`` are the
old names still given beside the new ones for one release.
"""

from __future__ import annotations

from typing import Any, Optional

from typing_extensions import NotRequired, TypedDict

# old key -> the key that replaces it (both are in the documents until the next release)
DEPRECATED_KEYS = {"section": "heading_path", "from_section": "from_heading_path"}


class Mention(TypedDict):
    """One mention of an entity: where it is and how (defines or references)."""
    entity_id: int
    name: str
    entity_type: str
    book: str
    chunk_id: str
    heading_path: str
    mention_type: str
    context: NotRequired[Optional[str]]
    source: NotRequired[Optional[str]]
    pages: Optional[list[int]]
    file: Optional[str]


class BookMentions(TypedDict):
    book: str
    mentions: list[Mention]


class WhereElseEntity(TypedDict):
    id: int
    name: str
    entity_type: str
    books: list[BookMentions]
    defined_under: NotRequired[dict[str, Any]]


class WhereElseDoc(TypedDict):
    """``where_else``: every mention of an entity across books, grouped by book, definitions first."""
    query: str
    normalized: str
    matched_by: str
    entities: list[WhereElseEntity]
    total_mentions: int
    limit: Optional[int]
    sub_entries: NotRequired[list[dict[str, Any]]]


class Definition(TypedDict):
    book: str
    heading_path: str
    chunk_id: str
    context: Optional[str]
    source: Optional[str]
    pages: Optional[list[int]]
    file: Optional[str]


class EntityDoc(TypedDict):
    id: int
    name: str
    entity_type: str
    definitions: list[Definition]
    references_by_book: dict[str, int]
    related: list[dict[str, Any]]


class EntityDetailDoc(TypedDict):
    """``entity``: one entity (or the few a name stands for) with definitions and relationships."""
    query: str
    matched_by: str
    entities: list[EntityDoc]


class PassageDoc(TypedDict):
    """One section found by ``search`` or ``retrieve``."""
    chunk_id: str
    book: str
    heading_path: str
    score: float
    hop: int
    text: str
    pages: Optional[list[int]]
    file: Optional[str]
    similarity: NotRequired[float]
    hop_score: NotRequired[float]
    child_id: NotRequired[Optional[str]]
    via: NotRequired[Optional[dict[str, Any]]]
    defines: NotRequired[bool]
    found_at: NotRequired[list[int]]


class PassagesDoc(TypedDict):
    """``search`` and ``retrieve``: sections best first (``query`` for search, ``question`` for retrieve)."""
    results: list[PassageDoc]
    k: int
    query: NotRequired[str]
    question: NotRequired[str]
    hops: NotRequired[int]


class SectionDoc(TypedDict):
    """One section ``show`` gives, with its text."""
    chunk_id: str
    book: str
    heading_path: str
    pages: Optional[list[int]]
    file: Optional[str]
    text: str
    chunk_ids: list[str]


class SectionsDoc(TypedDict):
    sections: list[SectionDoc]


class BookDoc(TypedDict):
    """One book of the shelf, as ``books`` lists it."""
    id: int
    title: str
    format: NotRequired[Optional[str]]
    source: NotRequired[Optional[str]]
    sections: int
    entities_defined: int
    mentions: int
    vectors_complete: NotRequired[bool]
    genres: NotRequired[Optional[list[str]]]  # the genre packs that apply to it; None: every genre
    genre_signals: NotRequired[dict[str, list[str]]]  # what the book showed of each


class IngestResultDoc(TypedDict):
    """One book an ingest read: what became of it (added, updated, unchanged) and its counts."""
    title: str
    path: str
    status: str
    renamed_from: Optional[str]
    sections: int
    parents: int
    children: int
    mentions: int
    dropped_mentions: int
    relationships: int
    warnings: list[str]


class DeletedDoc(TypedDict):
    """What ``delete_book`` removed."""
    title: str
    deleted: bool
    entities_removed: int
    relationships_removed: int
