"""How ``crossbook mcp`` runs its tools so it can be left running: no tool waits for another.

The SDK runs each (synchronous) tool call in a worker thread; nothing here serializes them.
A read goes through its thread's own SQLite connection (``Shelf.db``), so it answers while
an ingest writes; a write waits for the index's writer lock at most ``--wait`` seconds and
then ends with an error, the read tools answering meanwhile. A failure of any kind is a tool
error, never the end of the server. On SIGTERM (what a client sends a server that does not
exit at once) the temporary copies of a read-only vector store are removed before the
process ends; a copy a SIGKILL left is swept at the next start.

The server ends when its client leaves (closes stdin), also while a tool call still runs: a
worker thread cannot be cancelled, and the SDK would wait for it (a write waiting for the
writer lock, a long ingest). The call is left behind as a crash would leave it: a write's
transaction is never committed, so the index keeps its state before the call.
"""

from __future__ import annotations

import functools
import io
import os
import signal
import threading
from pathlib import Path
from typing import Any, Callable

from crossbook.api import CrossbookError
from crossbook.core.errors import IndexBusy


def guarded(fn: Callable[..., dict], index_dir: Path | None = None) -> Callable[..., dict]:
    """``fn`` with its failures as tool errors that say what to change."""
    from mcp.server.mcpserver.exceptions import ToolError

    @functools.wraps(fn)
    def tool(*args: Any, **kwargs: Any) -> dict:
        try:
            return fn(*args, **kwargs)
        except IndexBusy as exc:
            raise ToolError(f"{exc.code}: {busy_message(index_dir) if index_dir else exc}") from None
        except CrossbookError as exc:
            from crossbook.cli.mcp_errors import tool_message

            raise ToolError(tool_message(exc)) from None
        except Exception as exc:  # a bug must not end the session; its message still helps
            raise ToolError(f"unexpected: {type(exc).__name__}: {exc}") from None

    return tool


def busy_message(index_dir: Path) -> str:
    """A write that found the writer lock held past its wait: what the assistant can do."""
    from crossbook.storage.lock import describe, holder

    return (f"index is busy ({describe(holder(index_dir))}): another crossbook is writing to {index_dir}, and"
            " this call changed nothing. Call it again when that write has finished; where_else, search and"
            " the other read tools keep answering meanwhile")


def start() -> None:
    """Before serving: sweep the copies dead servers left, and clean up on SIGTERM."""
    from crossbook.vectors import store_copy

    store_copy.sweep()
    signal.signal(signal.SIGTERM, _on_sigterm)


def _on_sigterm(signum: int, frame: Any) -> None:
    from crossbook.vectors import store_copy

    store_copy.remove_all()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)  # end as the signal would have ended it


def run_stdio(server: Any) -> None:
    """Serve ``server`` (an MCPServer) on stdin and stdout until the client closes stdin or
    the session ends; returns then, without waiting for a tool call still running."""
    import anyio

    left = threading.Event()
    failed: list[BaseException] = []

    def loop() -> None:
        try:
            anyio.run(_serve_stdio, server, left)
        except BaseException as exc:  # handed to the main thread, which raises it
            failed.append(exc)
        finally:
            left.set()

    threading.Thread(target=loop, name="mcp-stdio", daemon=True).start()
    left.wait()
    if failed:
        raise failed[0]


async def _serve_stdio(server: Any, left: threading.Event) -> None:
    """The SDK's stdio transport over a stdin whose end sets ``left``. Like the SDK's own
    claim, fd 0 then reads the null device, so nothing else the process runs reads the wire."""
    import anyio
    from mcp.server.stdio import stdio_server

    wire = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    lines = anyio.wrap_file(io.TextIOWrapper(os.fdopen(wire, "rb"), encoding="utf-8", errors="replace"))

    async def until_the_client_leaves():  # the transport reads stdin line by line
        async for line in lines:
            yield line
        left.set()

    async with stdio_server(stdin=until_the_client_leaves()) as (read_stream, write_stream):  # type: ignore[arg-type]
        await server.serve_streams(read_stream, write_stream)
