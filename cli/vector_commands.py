"""Vector commands: search, retrieve, doctor, reembed (registered on the app by import).

chromadb, onnxruntime and the embedders are imported inside the commands, never here: this
module is imported by every crossbook invocation, where-else included.
"""

from typing import TYPE_CHECKING, Callable

import typer
from rich.console import Console
from rich.markup import escape

from crossbook.cli.app import (
    BOOKS_OPT,
    EXCLUDE_BOOKS_OPT,
    JSON_OPT,
    State,
    app,
)
from crossbook.cli.group import examples
from crossbook.cli.output import cli_errors, emit, location, section_in_book, warn
from crossbook.cli.writing import lock_options

if TYPE_CHECKING:
    from crossbook.api import Passages

K_OPT = typer.Option(10, "-k", "--top", min=1, help="How many sections to return.")


def _excerpt(text: str, width: int = 160) -> str:
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    body = " ".join(" ".join(lines).split())
    return body if len(body) <= width else body[: width - 1].rstrip() + "…"


@app.command(epilog=examples("crossbook search \"frost breath\" -k 5 --book bestiary"))
def search(
    ctx: typer.Context,
    query: str = typer.Argument(..., help="What to look for, in words."),
    k: int = K_OPT,
    book: list[str] = BOOKS_OPT,
    exclude_book: list[str] = EXCLUDE_BOOKS_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Plain vector search over child chunks; returns their parent sections."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        found = querying(state, "search", lambda shelf, **shown: shelf.search(
            query, k, books=book, exclude_books=exclude_book, **shown))
        emit(found.to_dict(), as_json, lambda c: _render_passages(c, found.passages))


def querying(state: State, label: str, ask: Callable) -> "Passages":
    """What the commands that search share (search, retrieve): the index opened as the
    API's Shelf, and ``ask(shelf, progress=..., warn=...)`` run under a progress display
    that shows the model's load (a warning, such as books missing vectors, goes to stderr)."""
    with state.shelf() as shelf, state.progress(label, transient=True) as progress:
        return ask(shelf, progress=progress, warn=warn)


@app.command(epilog=examples(
    "crossbook retrieve \"What does the spell the Frost Wyrm casts cost?\" --hops 2 --json",
))
def retrieve(
    ctx: typer.Context,
    question: str = typer.Argument(..., help="The question, in words."),
    hops: int = typer.Option(2, "--hops", min=1, help="1 = plain search; 2 follows entities into other books once."),
    k: int = K_OPT,
    book: list[str] = BOOKS_OPT,
    exclude_book: list[str] = EXCLUDE_BOOKS_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Multi-hop retrieval: vector search, then the entities it found, into the sections of other books."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        found = querying(state, "retrieve", lambda shelf, **shown: shelf.retrieve(
            question, hops, k, books=book, exclude_books=exclude_book, **shown))
        emit(found.to_dict(), as_json, lambda c: _render_passages(c, found.passages))


def _render_passages(console: Console, passages) -> None:
    if not passages:
        console.print("No sections found (is anything ingested? see: crossbook books)")
    for rank, p in enumerate(passages, 1):
        how = f"hop {p.hop}"
        if p.via is not None:
            how += f" via [bold]{escape(p.via.entity)}[/bold] ({p.via.mention_type} in this book; from {escape(p.via.from_book)})"
        if len(p.found_at) > 1:
            how += f"; also found at hop {', '.join(str(h) for h in p.found_at if h != p.hop)}"
        where = location(p.pages, p.file)
        console.print(f"{rank:>2}. [cyan]{escape(p.book)}[/cyan] — {escape(section_in_book(p.book, p.section))}"
                      + (f" ({escape(where)})" if where else "") + f"  [dim]score {p.score:.3f}, {how}[/dim]")
        console.print(f"    [dim]{escape(_excerpt(p.text))}[/dim]")


@app.command(epilog=examples("crossbook doctor", "crossbook doctor --repair"))
def doctor(
    ctx: typer.Context,
    repair: bool = typer.Option(False, "--repair", help="Fix the drift from SQLite (the source of truth)."),
    as_json: bool = JSON_OPT,
) -> None:
    """Report drift between SQLite and the Chroma vectors; --repair fixes it. Exit 1 if drift remains."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        with state.shelf() as shelf, state.progress("repair") as progress:
            report = shelf.repair(progress=progress, **lock_options(ctx)) if repair else shelf.doctor()
        emit(report.to_dict(), as_json, lambda c: _render_doctor(c, report))
        if not report.ok:
            raise typer.Exit(1)


def _render_doctor(console: Console, report) -> None:
    console.print(f"SQLite: {report.chunks} child chunks; Chroma ({escape(report.location)}): "
                  f"{report.vectors} vectors, embedder {escape(report.embedder)}")
    kinds = (("missing", "chunks with no vector"), ("stale", "vectors that no longer match their chunk"),
             ("orphaned", "vectors with no chunk"), ("leftover_collections", "collections of another embedder"))
    for attr, label in kinds:
        items = getattr(report, attr)
        if items:
            console.print(f"  {len(items)} {label}: {escape(', '.join(items[:5]))}{' …' if len(items) > 5 else ''}")
    for problem in report.embedder_problems:
        console.print(f"  embedder: {escape(problem)}")
    if report.partial_books:
        listed = ", ".join(f"{escape(t)} ({n} {'chunk' if n == 1 else 'chunks'})" for t, n in report.partial_books.items())
        console.print(f"  stored partial (chunks without entities; ingest the book again to extract them): {listed}")
    if report.repaired is not None:
        r = report.repaired
        console.print(f"repaired: {r['embedded']} embedded, {r['deleted']} deleted"
                      + (", collection rebuilt" if r["collection_rebuilt"] else "")
                      + (f", {len(r['collections_dropped'])} collections dropped" if r["collections_dropped"] else ""))
    console.print("ok: SQLite and Chroma agree" if report.ok else "drift found (run: crossbook doctor --repair)")


@app.command(epilog=examples("crossbook reembed --embedder openai"))
def reembed(
    ctx: typer.Context,
    as_json: bool = JSON_OPT,
) -> None:
    """Re-embed every child chunk with the embedder given by --embedder, and switch the index to it."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        with state.shelf() as shelf, state.progress("reembed") as progress:
            result = shelf.reembed(progress=progress, **lock_options(ctx)).to_dict()
        emit(result, as_json, lambda c: c.print(
            f"Re-embedded with {escape(result['embedder'])} (was {escape(str(result['previous']))}): "
            f"{result['embedded']} chunks embedded, {len(result['collections_dropped'])} old collections dropped"
        ))
