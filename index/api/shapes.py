"""The JSON shapes of the API's results, as TypedDicts: what ``to_dict()`` (and the CLI's
``--json``) gives, key by key. The MCP server publishes them as its tools' output schemas
(cli/mcp_tools.py); tests/api/test_api_shapes.py checks the API's, the CLI's and the MCP
server's documents against them, key by key.

Each shape is described once. A record the library returns as a dataclass has its TypedDict
made here from the dataclass's fields (``from_dataclass``): a mention, a book, an ingest's
result (core/models.py), a passage and how it was reached (query/passage.py), a section shown
(query/show.py). The documents the library builds as dicts around them are described here.

One key names one thing in every result: ``book`` (a title), ``heading_path`` (a section's
headings joined by " > "), ``pages`` (a PDF's page range, else null), ``file`` (the source
file of a vault's note), ``chunk_id`` (what ``show`` takes). ``DEPRECATED_KEYS`` are the
old names still given beside the new ones for one release.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, Iterable, Optional

from typing_extensions import NotRequired, TypedDict

from ..core import models
from ..query import passage, show

# old key -> the key that replaces it (both are in the documents until the next release)
DEPRECATED_KEYS = {"section": "heading_path", "from_section": "from_heading_path"}


def from_dataclass(cls: type, name: str, *, rename: dict[str, str] | None = None, drop: Iterable[str] = (),
                   types: dict[str, Any] | None = None) -> type:
    """The TypedDict of ``cls``'s ``to_dict()``: a key per field, typed as the field (``types``
    overrides a field's type, by its key), ``rename``\\d (old name -> key) and without ``drop``."""
    rename, types, hints = rename or {}, types or {}, typing.get_type_hints(cls)
    keys = {rename.get(f.name, f.name): hints[f.name] for f in dataclasses.fields(cls) if f.name not in set(drop)}
    shape = TypedDict(name, {key: types.get(key, hint) for key, hint in keys.items()})  # type: ignore[operator]
    shape.__doc__ = cls.__doc__
    shape.__module__ = __name__
    return shape


Mention = from_dataclass(models.Mention, "Mention")
BookCountDoc = from_dataclass(models.BookCount, "BookCountDoc")
BookDoc = from_dataclass(models.BookInfo, "BookDoc")
IngestResultDoc = from_dataclass(models.IngestResult, "IngestResultDoc")
ViaDoc = from_dataclass(passage.Via, "ViaDoc", rename={"from_section": "from_heading_path"})
PassageDoc = from_dataclass(passage.Passage, "PassageDoc", rename={"section": "heading_path"}, drop=("path_books",),
                            types={"via": Optional[ViaDoc]})
SectionDoc = from_dataclass(show.ShownSection, "SectionDoc")


class BookMentions(TypedDict):
    book: str
    mentions: list[Mention]  # type: ignore[valid-type]


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
    # every book that holds each entity, with its counts (the MCP tool: on its first page)
    book_counts: NotRequired[list[BookCountDoc]]  # type: ignore[valid-type]
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


class ExplainedMention(TypedDict):
    book: str
    heading_path: str
    chunk_id: str
    mention_type: str
    name: str
    entity_type: str
    source: str
    rule: str
    pages: Optional[list[int]]
    file: Optional[str]


class ExplainedVeto(TypedDict):
    book: str
    heading_path: str
    chunk_id: str
    stage: str
    name: str
    rule: str
    pages: Optional[list[int]]
    file: Optional[str]


class ExplanationDoc(TypedDict):
    """``explain``: each mention of a name with the rule that stored it, each candidate a veto dropped."""
    query: str
    keys: list[str]
    mentions: list[ExplainedMention]
    vetoes: list[ExplainedVeto]
    stored_by: dict[str, int]
    vetoed_by: dict[str, int]


class PassagesDoc(TypedDict):
    """``search`` and ``retrieve``: sections best first (``query`` for search; ``question``,
    ``hops`` and the trace of what was followed for retrieve)."""
    results: list[PassageDoc]  # type: ignore[valid-type]
    k: int
    query: NotRequired[str]
    question: NotRequired[str]
    hops: NotRequired[int]
    ranking: NotRequired[str]
    queries: NotRequired[list[dict[str, Any]]]
    seeds: NotRequired[list[str]]
    followed: NotRequired[list[dict[str, Any]]]


class SectionsDoc(TypedDict):
    sections: list[SectionDoc]  # type: ignore[valid-type]


class RelationshipDoc(TypedDict):
    """One typed relationship (``relations``): its ends, type, evidence, status and review
    state, read from the side the query asked for (``source``)."""
    id: int
    relation_type: str
    mapped_from: Optional[str]
    source_id: int
    source: str
    source_type: str
    target_id: int
    target: str
    target_type: str
    book: str
    section: str
    heading_path: str
    chunk_id: str
    evidence: str
    confidence: float
    polarity: str
    implicit: bool
    status: str
    status_reason: Optional[str]
    review_state: str
    extractor: str
    claims: int
    fingerprint: str


class DeletedDoc(TypedDict):
    """What ``delete_book`` removed."""
    title: str
    deleted: bool
    entities_removed: int
    relationships_removed: int
