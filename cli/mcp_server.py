"""``crossbook mcp``: a Model Context Protocol server over stdio, on the official ``mcp``
SDK (its ``MCPServer``), a front end like the CLI: each tool calls crossbook.api and
returns the document the CLI prints with ``--json`` (as structured content).

Read-only by default: the index is opened with SQLite ``mode=ro`` and there is no tool that
writes; ``allow_ingest`` (the folders the ingest tool may read: index/api/confine.py) adds
``ingest`` and ``delete_book``, which take the index's writer lock like the CLI's commands.
No tool waits for another (cli/mcp_runtime.py). Chroma and the embedder load at the first
``search`` or ``retrieve``, never for ``where_else``. A library error, a bad argument or anything
unexpected is a tool error (``is_error``, with the message), never the end of the server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Callable, Iterable, Optional

from pydantic import Field

from crossbook.api import Shelf
from crossbook.cli.mcp_runtime import guarded, start

INSTRUCTIONS = (
    "crossbook indexes a shelf of books section by section and knows which section defines each "
    "entity (a rule, spell, term) and which only mention it. where_else and entity answer from that "
    "index; search and retrieve find sections by meaning (retrieve follows entities into other books); "
    "show gives the full text of a section by the chunk_id any of them returns. Results cite the book, "
    "the section's heading path and its pages."
)

BOOKS = Annotated[list[str], Field(description="Only these books: a title in any case, a unique prefix, or the id"
                                   " that books gives.")]
EXCLUDE = Annotated[list[str], Field(description="Leave these books out (named as in books).")]
K = Annotated[int, Field(ge=1, le=100, description="How many sections to return.")]


def build_server(shelf: Shelf, *, allow_ingest: Iterable[str | Path] = ()):
    """The MCPServer with crossbook's tools over ``shelf``; with ``allow_ingest`` (folders),
    the writing tools too, the ingest tool reading only inside those folders."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer(name="crossbook", instructions=INSTRUCTIONS, version=_version(), log_level="WARNING")
    for fn in _query_tools(shelf):
        server.add_tool(guarded(fn), structured_output=True)
    roots = list(allow_ingest)
    if roots:
        for fn in _writing_tools(shelf, roots):
            server.add_tool(guarded(fn, shelf.settings.index_dir), structured_output=True)
    return server


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("crossbook")
    except PackageNotFoundError:  # a checkout that was never installed
        return ""


def _query_tools(shelf: Shelf) -> list[Callable[..., dict]]:
    def where_else(
        name: Annotated[str, Field(description="Entity name or alias, any case and accents.")],
        books: BOOKS = [],  # noqa: B006 - pydantic copies defaults
        exclude_books: EXCLUDE = [],  # noqa: B006
        entity_type: Annotated[Optional[str], Field(description="Only entities of this type (e.g. spell).")] = None,
        defines_only: Annotated[bool, Field(description="Only the sections that define it.")] = False,
        limit: Annotated[Optional[int], Field(ge=1, description="The first N mentions, definitions first.")] = None,
    ) -> dict[str, Any]:
        """Where else does this entity appear? Every mention across books, grouped by book, definitions
        first; each mention cites its book, heading_path, pages and a chunk_id that show accepts."""
        return shelf.where_else(name, books=books, exclude_books=exclude_books, entity_type=entity_type,
                                defines_only=defines_only, limit=limit).to_dict()

    def entity(name: Annotated[str, Field(description="Entity name or alias, any case and accents.")]) -> dict[str, Any]:
        """One entity: its type, where it is defined (book, section, pages), references per book, and
        its relationships to other entities."""
        return shelf.entity(name).to_dict()

    def search(query: Annotated[str, Field(description="What to look for, in words.")], k: K = 10,
               books: BOOKS = [], exclude_books: EXCLUDE = []) -> dict[str, Any]:  # noqa: B006
        """Plain vector search: the k sections nearest in meaning to the query, each with its book,
        section, pages, score and text."""
        return shelf.search(query, k, books=books, exclude_books=exclude_books).to_dict()

    def retrieve(question: Annotated[str, Field(description="The question, in words.")],
                 hops: Annotated[int, Field(ge=1, le=4, description="1 = plain search; 2 follows the entities"
                                            " found into other books once.")] = 2,
                 k: K = 10, books: BOOKS = [], exclude_books: EXCLUDE = []) -> dict[str, Any]:  # noqa: B006
        """Multi-hop retrieval for a question: vector search, then the entities it found into the
        sections of other books that define them. Each result cites book, section and pages."""
        return shelf.retrieve(question, hops, k, books=books, exclude_books=exclude_books).to_dict()

    def show(chunk_id: Annotated[Optional[str], Field(description="A chunk_id from where_else, entity, search or"
                                                      " retrieve.")] = None,
             book: Annotated[Optional[str], Field(description="Instead of a chunk_id: a book, with page or"
                                                  " heading_path.")] = None,
             page: Annotated[Optional[int], Field(ge=1, description="With book: the sections on this page.")] = None,
             heading_path: Annotated[Optional[str], Field(description="With book: 'Chapter > Section' (any case;"
                                                          " its last headings suffice).")] = None) -> dict[str, Any]:
        """The full text of the section a hit points to, with its book, heading path and pages."""
        return shelf.show(chunk_id, book=book, page=page, heading_path=heading_path).to_dict()

    def books() -> dict[str, Any]:
        """The books in the index: id, title, format, sections, entities defined, mentions, source."""
        return {"books": [b.to_dict() for b in shelf.books()]}

    return [where_else, entity, search, retrieve, show, books]


def _writing_tools(shelf: Shelf, roots: list) -> list[Callable[..., dict]]:
    def ingest(paths: Annotated[list[str], Field(min_length=1, description="Books: Markdown, PDF, EPUB, HTML or text"
                                                 " files, note vaults, or directories of them.")],
               title: Annotated[Optional[str], Field(description="The book's title (one path only).")] = None,
               force: Annotated[bool, Field(description="Re-extract even when unchanged.")] = False,
               as_book: Annotated[bool, Field(description="Read each folder as one book (a vault).")] = False,
               ) -> dict[str, Any]:
        """Ingest books into the index (under its writer lock), as crossbook ingest does. Only
        regular files and folders inside the folders the server allows, not hidden, are read."""
        warnings: list[str] = []
        results = shelf.ingest(paths, title=title, force=force, as_book=as_book, warn=warnings.append,
                               command="mcp ingest", roots=roots)
        return {"results": [r.to_dict() for r in results], "warnings": warnings}

    def delete_book(book: Annotated[str, Field(description="The book: a title in any case, a unique prefix, or"
                                               " its id.")]) -> dict[str, Any]:
        """Remove a book and everything derived from it (under the index's writer lock)."""
        return shelf.delete_book(book, command="mcp delete-book").to_dict()

    return [ingest, delete_book]


def serve(shelf: Shelf, *, allow_ingest: Iterable[str | Path] = ()) -> None:
    """Run the server on stdin/stdout until the client closes it."""
    server = build_server(shelf, allow_ingest=allow_ingest)
    start()
    server.run("stdio")
