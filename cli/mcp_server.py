"""``crossbook mcp``: a Model Context Protocol server over stdio, on the official ``mcp``
SDK (its ``MCPServer``), a front end like the CLI: each tool calls crossbook.api and
returns a page of the document the CLI prints with ``--json`` (cli/mcp_tools.py), or ``--http``.

Read-only by default: the index is opened with SQLite ``mode=ro`` and there is no tool that
writes; ``allow_ingest`` adds ``ingest`` and ``delete_book``, which take the index's writer
lock like the CLI's commands. Chroma and the embedder load at the first ``search`` or
``retrieve``, never for ``where_else``. A library error, a bad argument or anything
unexpected is a tool error (``is_error``, with the message), never the end of the server.
"""

from __future__ import annotations

import functools
import threading
from typing import Annotated, Any, Callable, Optional

from pydantic import Field

from crossbook.api import CrossbookError, Shelf

INSTRUCTIONS = (
    "crossbook indexes a shelf of books section by section and knows which section defines each "
    "entity (a rule, spell, term) and which only mention it. where_else and entity answer from that "
    "index; search and retrieve find sections by meaning (retrieve follows entities into other books); "
    "show gives the full text of a section by the chunk_id any of them returns. Results cite the book, "
    "the section's heading path and its pages. Long answers come a page at a time: pass an answer's "
    "next_cursor back as cursor for the next."
)


def _guarded(lock: threading.Lock, fn: Callable[..., dict]) -> Callable[..., dict]:
    """``fn`` one call at a time (the shelf's SQLite connection is shared), its failures as
    tool errors that say what to change."""
    from mcp.server.mcpserver.exceptions import ToolError

    @functools.wraps(fn)
    def tool(*args: Any, **kwargs: Any) -> dict:
        try:
            with lock:
                return fn(*args, **kwargs)
        except CrossbookError as exc:
            from crossbook.cli.mcp_errors import tool_message

            raise ToolError(tool_message(exc)) from None
        except Exception as exc:  # a bug must not end the session; its message still helps
            raise ToolError(f"unexpected: {type(exc).__name__}: {exc}") from None

    return tool


def build_server(shelf: Shelf, *, allow_ingest: bool = False):
    """The MCPServer with crossbook's tools over ``shelf``."""
    from crossbook.cli.mcp_errors import CrossbookServer
    from crossbook.cli.mcp_tools import query_tools, writing_annotations, writing_tool

    server = CrossbookServer(name="crossbook", instructions=INSTRUCTIONS, version=_version(), log_level="WARNING")
    lock = threading.Lock()
    for fn, hints in query_tools(lambda: shelf):
        server.add_tool(_guarded(lock, fn), annotations=hints, structured_output=True)
    if allow_ingest:
        for fn in _writing_tools(shelf):
            server.add_tool(_guarded(lock, writing_tool(fn)), annotations=writing_annotations(fn.__name__),
                            structured_output=True)
    return server


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("crossbook")
    except PackageNotFoundError:  # a checkout that was never installed
        return ""


def _writing_tools(shelf: Shelf) -> list[Callable[..., dict]]:
    def ingest(paths: Annotated[list[str], Field(min_length=1, description="Books: Markdown, PDF, EPUB, HTML or text"
                                                 " files, note vaults, or directories of them.")],
               title: Annotated[Optional[str], Field(description="The book's title (one path only).")] = None,
               force: Annotated[bool, Field(description="Re-extract even when unchanged.")] = False,
               as_book: Annotated[bool, Field(description="Read each folder as one book (a vault).")] = False,
               ) -> dict[str, Any]:
        """Ingest books into the index (under its writer lock), as crossbook ingest does."""
        warnings: list[str] = []
        results = shelf.ingest(paths, title=title, force=force, as_book=as_book, warn=warnings.append,
                               command="mcp ingest")
        return {"results": [r.to_dict() for r in results], "warnings": warnings}

    def delete_book(book: Annotated[str, Field(description="The book: a title in any case, a unique prefix, or"
                                               " its id.")]) -> dict[str, Any]:
        """Remove a book and everything derived from it (under the index's writer lock)."""
        return shelf.delete_book(book, command="mcp delete-book").to_dict()

    return [ingest, delete_book]


def serve(shelf: Shelf, *, allow_ingest: bool = False) -> None:
    """Run the server on stdin/stdout until the client closes it."""
    build_server(shelf, allow_ingest=allow_ingest).run("stdio")
