"""How Batch API batches are shown: ``ingest --batch`` and ``crossbook batch status|collect``.

Kept apart from cli/batch_commands.py (which registers itself on the app) so that the ingest
command can use it without importing a module that imports cli/app.py.
"""

from __future__ import annotations

import shlex

from rich.console import Console
from rich.markup import escape

SHOWN_FAILURES = 10  # chunks listed per batch in text output


def render_submitted(console: Console, outcome) -> None:
    console.print(f"{outcome.submitted} chunks submitted, {outcome.cached} already cached")
    render_batches(console, outcome.batches)
    if outcome.batches:
        console.print("When they are done: crossbook batch collect, then run this ingest again "
                      "(0 requests: the answers are cached)")


def render_batches(console: Console, reports) -> None:
    """One line per batch, its books, and the chunks that got no usable answer."""
    if not reports:
        console.print("No batches waiting (crossbook batch status --all lists the collected ones)")
    for r in reports:
        states = ", ".join(f"{n} {state}" for state, n in sorted(r.states.items()))
        collected = f", collected {r.collected_at}" if r.collected_at else ""
        console.print(f"[bold]{escape(r.id)}[/bold]  {escape(r.status)}  {r.requests} requests ({states}){collected}")
        for book in r.books:
            console.print(f"  {escape(book['title'])} ({book['chunks']} chunks, {escape(book['path'])})")
        for failed in r.failed[:SHOWN_FAILURES]:
            console.print(f"  [dim]{failed['state']}: {escape(failed['section'])}: {escape(failed['error'] or '')}[/dim]")
        if len(r.failed) > SHOWN_FAILURES:
            console.print(f"  [dim]and {len(r.failed) - SHOWN_FAILURES} more (--json lists them all)[/dim]")


def ingest_hint(reports) -> str | None:
    """The ingest to run once batches are collected (their books' files)."""
    paths = list(dict.fromkeys(b["path"] for r in reports if r.collected_at for b in r.books))
    return "crossbook ingest " + " ".join(shlex.quote(p) for p in paths) if paths else None
