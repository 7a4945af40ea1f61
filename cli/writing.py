"""The index as a writing command opens it: under the index's one writer lock (index/storage/lock.py).

A second writer waits up to ``--wait`` seconds (env CROSSBOOK_WAIT, default 30), saying on
stderr whom it waits for, then fails with "index is busy (pid N ...)". Query commands do
not take the lock.
"""

from __future__ import annotations

import contextlib
from typing import Iterator

import typer

from crossbook.cli.output import stderr
from crossbook.core.config import Settings


def _note(message: str) -> None:
    stderr.print(message, markup=False)


def _command(ctx: typer.Context) -> str:
    """The command as typed after the program name: ``ingest``, ``review accept``."""
    return " ".join(ctx.command_path.split()[1:])


def open_writable(ctx: typer.Context, settings: Settings, create: bool = False):
    """The index's database for a command that writes, held (lock and connection) until the
    command ends. Raises IndexBusy, and what open_db raises."""
    from crossbook.storage.db import open_for_writing

    return ctx.with_resource(open_for_writing(
        settings.index_dir, create=create, wait=settings.wait, command=_command(ctx), on_wait=_note))


@contextlib.contextmanager
def writing(ctx: typer.Context, settings: Settings) -> Iterator[None]:
    """The writer lock for one write of a command that mostly reads or waits for the user
    (``review --interactive`` takes it per decision, not while a question is on screen)."""
    from crossbook.storage.lock import writer_lock

    with writer_lock(settings.index_dir, settings.wait, command=_command(ctx), on_wait=_note):
        yield
