"""The index as a writing command holds it: under the index's one writer lock (index/storage/lock.py),
taken by the API's Shelf writes, given the options here (``lock_options``).

A second writer waits up to ``--wait`` seconds (env CROSSBOOK_WAIT, default 30), saying on
stderr whom it waits for, then fails with "index is busy (pid N ...)". Query commands do
not take the lock.
"""

from __future__ import annotations

import typer

from crossbook.cli.output import stderr


def _note(message: str) -> None:
    stderr.print(message, markup=False)


def _command(ctx: typer.Context) -> str:
    """The command as typed after the program name: ``ingest``, ``review accept``."""
    return " ".join(ctx.command_path.split()[1:])


def lock_options(ctx: typer.Context) -> dict:
    """The keywords a Shelf write takes for the lock: the command it names to a writer that
    waits, and the note shown on stderr while this one waits."""
    return {"command": _command(ctx), "on_wait": _note}

