"""How ``crossbook mcp`` runs its tools so it can be left running: no tool waits for another.

The SDK runs each (synchronous) tool call in a worker thread; nothing here serializes them.
A read goes through its thread's own SQLite connection (``Shelf.db``), so it answers while
an ingest writes; a write waits for the index's writer lock at most ``--wait`` seconds and
then ends with an error, the read tools answering meanwhile. A failure of any kind is a tool
error, never the end of the server. On SIGTERM (what a client sends a server that does not
exit at once) the temporary copies of a read-only vector store are removed before the
process ends; a copy a SIGKILL left is swept at the next start.
"""

from __future__ import annotations

import functools
import os
import signal
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
