"""``crossbook mcp``: a Model Context Protocol server over stdio, on the official ``mcp``
SDK (its ``MCPServer``), a front end like the CLI: each tool calls crossbook.api and
returns a page of the document the CLI prints with ``--json`` (cli/mcp_tools.py), or ``--http``.

Read-only by default: the index is opened with SQLite ``mode=ro`` and there is no tool that
writes; ``allow_ingest`` (the folders the ingest tool may read: index/api/confine.py) adds
``ingest`` and ``delete_book``, which take the index's writer lock like the CLI's commands.
No tool waits for another (cli/mcp_runtime.py). Chroma and the embedder load at the first
``search`` or ``retrieve``, never for ``where_else``. A library error, a bad argument or anything
unexpected is a tool error (``is_error``, with the message), never the end of the server.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, Callable, Iterable, Optional

from pydantic import Field

from crossbook.api import Shelf
from crossbook.cli.mcp_runtime import guarded, run_stdio, start

INSTRUCTIONS = (
    "crossbook indexes a shelf of books section by section and knows which section defines each "
    "entity (a rule, spell, term) and which only mention it. where_else and entity answer from that "
    "index; search and retrieve find sections by meaning (retrieve follows entities into other books); "
    "show gives the full text of a section by the chunk_id any of them returns. Results cite the book, "
    "the section's heading path and its pages. Long answers come a page at a time: pass an answer's "
    "next_cursor back as cursor for the next."
)


def build_server(shelf: Shelf, *, allow_ingest: Iterable[str | Path] = ()):
    """The MCPServer with crossbook's tools over ``shelf``; with ``allow_ingest`` (folders),
    the writing tools too, the ingest tool reading only inside those folders."""
    from crossbook.cli.mcp_errors import CrossbookServer
    from crossbook.cli.mcp_tools import query_tools, writing_annotations, writing_tool

    server = CrossbookServer(name="crossbook", instructions=INSTRUCTIONS, version=_version(), log_level="WARNING")
    for fn, hints in query_tools(lambda: shelf):
        server.add_tool(guarded(fn), annotations=hints, structured_output=True)
    roots = list(allow_ingest)
    if roots:
        for fn in _writing_tools(shelf, roots):
            server.add_tool(guarded(writing_tool(fn), shelf.settings.index_dir),
                            annotations=writing_annotations(fn.__name__), structured_output=True)
    return server


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("crossbook")
    except PackageNotFoundError:  # a checkout that was never installed
        return ""


def _writing_tools(shelf: Shelf, roots: list) -> list[Callable[..., dict]]:
    def ingest(paths: Annotated[list[str], Field(min_length=1, description="Books: Markdown, PDF, EPUB, HTML or text"
                                                 " files, note vaults, or directories of them; a relative path"
                                                 " is read inside the allowed folders.")],
               title: Annotated[Optional[str], Field(description="The book's title (one path only).")] = None,
               force: Annotated[bool, Field(description="Re-extract even when unchanged.")] = False,
               as_book: Annotated[bool, Field(description="Read each folder as one book (a vault).")] = False,
               ) -> dict[str, Any]:
        """Ingest books into the index (under its writer lock), as crossbook ingest does. Only
        regular files and folders inside the folders the server allows, not hidden, are read."""
        warnings: list[str] = []
        results = shelf.ingest(paths, title=title, force=force, as_book=as_book, warn=warnings.append,
                               on_wait=waiting, command="mcp ingest", roots=roots)
        return {"results": [r.to_dict() for r in results], "warnings": warnings}

    def delete_book(book: Annotated[str, Field(description="The book: a title in any case, a unique prefix, or"
                                               " its id.")]) -> dict[str, Any]:
        """Remove a book and everything derived from it (under the index's writer lock)."""
        return shelf.delete_book(book, on_wait=waiting, command="mcp delete-book").to_dict()

    return [ingest, delete_book]


def waiting(note: str) -> None:
    """A writing tool waits for another writer: the server's log (stderr) says so."""
    print(f"crossbook mcp: {note}", file=sys.stderr, flush=True)


def serve(shelf: Shelf, *, allow_ingest: Iterable[str | Path] = ()) -> None:
    """Run the server on stdin/stdout until the client closes it (cli/mcp_runtime.py)."""
    server = build_server(shelf, allow_ingest=allow_ingest)
    start()
    run_stdio(server)
