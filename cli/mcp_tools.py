"""The MCP server's query tools: their arguments, output schemas (the API's result shapes,
crossbook.api.shapes, plus the page's own keys) and annotations; each answer a page of the
API's document (cli/mcp_answers.py) with a cursor to the next one (cli/mcp_paging.py).

Each tool reads the shelf ``shelf_of()`` gives for the call; the index's generation is read
before the answer, so a cursor given now is refused once a write has changed the shelf.
"""

from __future__ import annotations

import functools
import inspect
from typing import Annotated, Any, Callable, Optional

from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field
from typing_extensions import NotRequired, TypedDict

from crossbook.api import Shelf
from crossbook.api.shapes import (
    BookDoc,
    DeletedDoc,
    EntityDoc,
    IngestResultDoc,
    PassagesDoc,
    RelationshipDoc,
    SectionsDoc,
    WhereElseDoc,
)
from crossbook.cli import mcp_answers as answers
from crossbook.cli.mcp_paging import make_cursor, read_cursor

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
SEARCH_LIMIT = 100  # the deepest a search or retrieve cursor walks

BOOKS = Annotated[list[str], Field(description="Only these books: a title in any case, a unique prefix, or the id"
                                   " that books gives.")]
EXCLUDE = Annotated[list[str], Field(description="Leave these books out (named as in books).")]
K = Annotated[int, Field(ge=1, le=SEARCH_LIMIT, description="How many sections to return.")]
CURSOR = Annotated[Optional[str], Field(description="The next_cursor of the previous answer, for the next page.")]


class WhereElsePage(WhereElseDoc):
    offset: int
    next_cursor: Optional[str]


class PassagesPage(PassagesDoc):
    """Sections best first; a text cut at the page's budget is named in texts_cut."""
    offset: int
    next_cursor: Optional[str]
    texts_cut: list[str]
    note: NotRequired[str]
    followed_total: NotRequired[int]


class EntityPageEntity(EntityDoc):
    definitions_total: int
    related_total: int


class EntityPage(TypedDict):
    """One entity (or the few a name stands for), its first definitions and related entities."""
    query: str
    matched_by: str
    entities: list[EntityPageEntity]


class TextCut(TypedDict):
    chunk_id: str
    start: int
    end: int
    length: int


class SectionsPage(SectionsDoc):
    """Sections with their text; a text shown in part is named in texts_cut."""
    next_cursor: Optional[str]
    texts_cut: NotRequired[list[TextCut]]


class RelationsPage(TypedDict):
    """Relationships, a page at a time, each read from the side asked for."""
    relationships: list[RelationshipDoc]
    total: int
    offset: int
    next_cursor: Optional[str]


class BooksPage(TypedDict):
    books: list[BookDoc]
    total: int
    offset: int
    next_cursor: Optional[str]
    note: NotRequired[str]


def _answer(summary: str, data: dict) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=summary)], structured_content=data)


def _generation(shelf: Shelf) -> int:
    from crossbook.storage.index_state import generation

    return generation(shelf.db)


class Pager:
    """A cursor's round trip for one call: where the page starts, and the cursor of the next."""

    def __init__(self, shelf: Shelf, tool: str, arguments: dict[str, Any], cursor: str | None, first: Any = 0):
        self.tool, self.arguments = tool, arguments
        self.generation = _generation(shelf)
        self.start = read_cursor(cursor, tool, arguments, self.generation, first) if cursor else first

    def next(self, offset: Any) -> str:
        return make_cursor(self.tool, self.arguments, self.generation, offset)


def query_tools(shelf_of: Callable[[], Shelf]) -> list[tuple[Callable[..., Any], ToolAnnotations]]:
    """The read tools, each with its annotations."""
    return [(fn, READ_ONLY) for fn in (*_lookup_tools(shelf_of), *_relation_tools(shelf_of), *_vector_tools(shelf_of))]


def _lookup_tools(shelf_of: Callable[[], Shelf]) -> list[Callable[..., Any]]:
    def where_else(
        name: Annotated[str, Field(description="Entity name or alias, any case and accents.")],
        books: BOOKS = [],  # noqa: B006 - pydantic copies defaults
        exclude_books: EXCLUDE = [],  # noqa: B006
        entity_type: Annotated[Optional[str], Field(description="Only entities of this type (e.g. spell).")] = None,
        defines_only: Annotated[bool, Field(description="Only the sections that define it.")] = False,
        limit: Annotated[int, Field(ge=1, le=200, description="Mentions per answer, definitions first.")] = 10,
        cursor: CURSOR = None,
    ) -> Annotated[CallToolResult, WhereElsePage]:
        """Where else does this entity appear? Its mentions across books, grouped by book, definitions
        first, a page at a time (next_cursor walks the rest); each cites its book, heading_path, pages
        and a chunk_id that show accepts."""
        shelf = shelf_of()
        arguments = {"name": name, "books": books, "exclude_books": exclude_books, "entity_type": entity_type,
                     "defines_only": defines_only}
        pager = Pager(shelf, "where_else", arguments, cursor)
        doc = shelf.where_else(name, books=books, exclude_books=exclude_books, entity_type=entity_type,
                               defines_only=defines_only).to_dict()
        page = answers.where_else_page(doc, pager.start, limit)
        end = pager.start + limit
        page["next_cursor"] = pager.next(end) if end < doc["total_mentions"] else None
        return _answer(answers.where_else_summary(page), page)

    def entity(name: Annotated[str, Field(description="Entity name or alias, any case and accents.")],
               ) -> Annotated[CallToolResult, EntityPage]:
        """One entity: its type, where it is defined (book, heading_path, pages), references per book,
        and its relationships to other entities (the first 20 of each; where_else walks every mention)."""
        page = answers.entity_answer(shelf_of().entity(name).to_dict())
        return _answer(answers.entity_summary(page), page)

    def show(chunk_id: Annotated[Optional[str], Field(description="A chunk_id from where_else, entity, search or"
                                                      " retrieve.")] = None,
             book: Annotated[Optional[str], Field(description="Instead of a chunk_id: a book, with page or"
                                                  " heading_path.")] = None,
             page: Annotated[Optional[int], Field(ge=1, description="With book: the sections on this page.")] = None,
             heading_path: Annotated[Optional[str], Field(description="With book: 'Chapter > Section' (any case;"
                                                          " its last headings suffice).")] = None,
             cursor: CURSOR = None) -> Annotated[CallToolResult, SectionsPage]:
        """The text of the section a hit points to, with its book, heading path and pages; a long text
        comes a page at a time (next_cursor gives the rest)."""
        shelf = shelf_of()
        arguments = {"chunk_id": chunk_id, "book": book, "page": page, "heading_path": heading_path}
        pager = Pager(shelf, "show", arguments, cursor, first=[0, 0])
        doc = shelf.show(chunk_id, book=book, page=page, heading_path=heading_path).to_dict()
        shown, after = answers.sections_page(doc, list(pager.start))
        shown["next_cursor"] = pager.next(after) if after else None
        return _answer(answers.sections_summary(shown), shown)

    def books(limit: Annotated[int, Field(ge=1, le=500, description="Books per answer.")] = 50,
              cursor: CURSOR = None) -> Annotated[CallToolResult, BooksPage]:
        """The books in the index: id, title, format, sections, entities defined, mentions, source,
        and whether their vectors are complete."""
        shelf = shelf_of()
        pager = Pager(shelf, "books", {}, cursor)
        every = [b.to_dict() for b in shelf.books()]
        end = pager.start + limit
        page = {"books": every[pager.start:end], "total": len(every), "offset": pager.start,
                "next_cursor": pager.next(end) if end < len(every) else None}
        unsynced = [b["title"] for b in every if b.get("vectors_complete") is False]
        if unsynced:
            from crossbook.cli.mcp_errors import neutral
            from crossbook.query.coverage import vectors_missing_message

            page["note"] = neutral(vectors_missing_message(unsynced, shelf.writer()))
        return _answer(answers.books_summary(page), page)

    return [where_else, entity, show, books]


def _relation_tools(shelf_of: Callable[[], Shelf]) -> list[Callable[..., Any]]:
    def relations(
        relation_type: Annotated[Optional[str], Field(description="Only this relation type and its mirror (member_of,"
                                                      " see_also, replaced_by, casts...), read as the name reads.")] = None,
        source: Annotated[Optional[str], Field(description="Only the relationships of this entity, read from its side:"
                                               " with relation_type member_of, the options or methods it has.")] = None,
        book: Annotated[Optional[str], Field(description="Only relationships stated in this book.")] = None,
        limit: Annotated[int, Field(ge=1, le=200, description="Relationships per answer.")] = 50,
        cursor: CURSOR = None,
    ) -> Annotated[CallToolResult, RelationsPage]:
        """Typed relationships between entities with their evidence: which options a command takes
        (relation_type member_of, source the command), what a page's authors point to (see_also), what
        replaces a deprecated name (replaced_by); each cites its book, heading_path and chunk_id."""
        shelf = shelf_of()
        arguments = {"relation_type": relation_type, "source": source, "book": book}
        pager = Pager(shelf, "relations", arguments, cursor)
        every = shelf.relations(relation_type=relation_type, source=source, book=book).relationships
        end = pager.start + limit
        page = {"relationships": every[pager.start:end], "total": len(every), "offset": pager.start,
                "next_cursor": pager.next(end) if end < len(every) else None}
        return _answer(answers.relations_summary(page), page)

    return [relations]


def _vector_tools(shelf_of: Callable[[], Shelf]) -> list[Callable[..., Any]]:
    def search(query: Annotated[str, Field(description="What to look for, in words.")], k: K = 10,
               books: BOOKS = [], exclude_books: EXCLUDE = [],  # noqa: B006
               cursor: CURSOR = None) -> Annotated[CallToolResult, PassagesPage]:
        """Plain vector search: the k sections nearest in meaning to the query, each with its book,
        heading_path, pages, score and the start of its text (show gives the rest); next_cursor gives
        the next k."""
        shelf = shelf_of()
        pager = Pager(shelf, "search", {"query": query, "books": books, "exclude_books": exclude_books}, cursor)
        deep = min(pager.start + k, SEARCH_LIMIT)
        doc = shelf.search(query, deep, books=books, exclude_books=exclude_books).to_dict()
        page = answers.passages_page(doc, pager.start, k)
        page["k"] = k
        more = len(doc["results"]) == deep and deep < SEARCH_LIMIT
        page["next_cursor"] = pager.next(deep) if more else None
        return _answer(answers.passages_summary(page, "search"), page)

    def retrieve(question: Annotated[str, Field(description="The question, in words.")],
                 hops: Annotated[int, Field(ge=1, le=4, description="1 = plain search; 2 follows the entities"
                                            " found into other books once.")] = 2,
                 k: K = 10, books: BOOKS = [], exclude_books: EXCLUDE = [],  # noqa: B006
                 limit: Annotated[int, Field(ge=1, le=SEARCH_LIMIT, description="Sections per answer.")] = 10,
                 cursor: CURSOR = None) -> Annotated[CallToolResult, PassagesPage]:
        """Multi-hop retrieval for a question: vector search, then the entities it found into the
        sections of other books that define them. Each result cites book, heading_path and pages, with
        the start of its text (show gives the rest); next_cursor gives the next sections."""
        shelf = shelf_of()
        arguments = {"question": question, "hops": hops, "k": k, "books": books, "exclude_books": exclude_books}
        pager = Pager(shelf, "retrieve", arguments, cursor)
        doc = shelf.retrieve(question, hops, k, books=books, exclude_books=exclude_books).to_dict()
        page = answers.passages_page(doc, pager.start, limit, answers.RETRIEVE_TEXT_BUDGET)
        end = pager.start + limit
        page["next_cursor"] = pager.next(end) if end < len(doc["results"]) else None
        return _answer(answers.passages_summary(page, "retrieve"), page)

    return [search, retrieve]


class IngestAnswer(TypedDict):
    results: list[IngestResultDoc]
    warnings: list[str]


def _ingest_summary(data: dict) -> str:
    lines = [f"- {r['title']}: {r['status']} ({r['sections']} sections, {r['mentions']} mentions)"
             for r in data["results"]]
    return "\n".join([f"{len(lines)} book{'s' * (len(lines) != 1)} read:", *lines, *data["warnings"]])


def _deleted_summary(data: dict) -> str:
    return (f"Removed '{data['title']}': {data['entities_removed']} entities and"
            f" {data['relationships_removed']} relationships went with it.")


WRITING = {"ingest": (IngestAnswer, _ingest_summary), "delete_book": (DeletedDoc, _deleted_summary)}


def writing_tool(fn: Callable[..., dict]) -> Callable[..., CallToolResult]:
    """A writing tool whose answer is a summary beside its data, and whose output schema is its shape."""
    shape, summary = WRITING[fn.__name__]

    @functools.wraps(fn)
    def tool(*args: Any, **kwargs: Any) -> CallToolResult:
        data = fn(*args, **kwargs)
        return _answer(summary(data), data)

    signature = inspect.signature(fn, eval_str=True)
    tool.__signature__ = signature.replace(return_annotation=Annotated[CallToolResult, shape])  # type: ignore[attr-defined]
    return tool


def writing_annotations(tool: str) -> ToolAnnotations:
    """``ingest`` adds or refreshes books (again: nothing more); ``delete_book`` removes one."""
    return ToolAnnotations(read_only_hint=False, destructive_hint=tool == "delete_book", idempotent_hint=True,
                           open_world_hint=False)
