"""The query commands: ``crossbook where-else``, ``entity``, ``books``, ``entities`` and
``stats`` (registered on the app by import).

where-else, entity, books and entities are clients of ``crossbook.api.Shelf``'s reads
(``--json`` prints the API's ``to_dict()``); stats reads the index's counts. Without
``--json`` the result is rendered here as text.
"""

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape

from crossbook.cli.app import BOOK_HELP, BOOKS_OPT, EXCLUDE_BOOKS_OPT, JSON_OPT, State, app, open_index
from crossbook.cli.group import examples
from crossbook.cli.output import cli_errors, emit, location, plain_table, relation_label, section_in_book

# -- where-else / entity / books --------------------------------------------------------------

@app.command("where-else", epilog=examples(
    "crossbook where-else \"Frost Lance\"",
    "crossbook where-else \"ice lance\" --book grimoire",
    "crossbook where-else Shield --type spell --exclude-book core --json",
))
def where_else_cmd(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="Entity name or alias, any case and accents ('the' and punctuation ignored)."),
    book: list[str] = BOOKS_OPT,
    exclude_book: list[str] = EXCLUDE_BOOKS_OPT,
    entity_type: Optional[str] = typer.Option(None, "--type", help="Only entities of this type."),
    defines_only: bool = typer.Option(False, "--defines-only", help="Only the sections that define it."),
    limit: Optional[int] = typer.Option(
        None, "--limit", "-n", min=1, help="Show the first N mentions (definitions first) and how many there are."),
    as_json: bool = JSON_OPT,
) -> None:
    """Where else does this entity appear? Mentions across books, definitions first."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        with state.shelf() as shelf:
            found = shelf.where_else(name, books=book, exclude_books=exclude_book, entity_type=entity_type,
                                     defines_only=defines_only, limit=limit)
        result = found.to_dict()
        emit(result, as_json, lambda c: _render_where_else(c, result))


def _render_where_else(console: Console, result: dict) -> None:
    if result.get("matched_by") in ("alias", "accents") and result["entities"]:
        names = ", ".join(e["name"] for e in result["entities"])
        console.print(f"[dim]'{escape(result['query'])}' is {escape(names)} (matched by {result['matched_by']})[/dim]")
    if result.get("sub_entries"):
        owners = [e["owner"] for e in result["sub_entries"]]
        console.print(f"[dim]'{escape(result['query'])}' is a sub-entry of {len(owners)} "
                      f"{'entry' if len(owners) == 1 else 'different entries'} ({escape(', '.join(owners[:8]))}"
                      f"{', ...' if len(owners) > 8 else ''}): each is its owner's own, not one thing[/dim]")
    if not result["entities"]:
        console.print(f"No mention of '{escape(result['query'])}' matches the filters given")
    for entity in result["entities"]:
        console.print(f"[bold]{escape(entity['name'])}[/bold] ({escape(entity['entity_type'])})")
        if "defined_under" in entity:
            under = entity["defined_under"]
            console.print(f"  [dim]defined under {under['owners']} different entries "
                          f"({escape(', '.join(under['examples']))}, ...): each is its entry's own "
                          f"'{escape(entity['name'])}', not one thing[/dim]")
        for group in entity["books"]:
            console.print(f"  [cyan]{escape(group['book'])}[/cyan]")
            for m in group["mentions"]:
                where = location(m.get("pages"), m.get("file"))
                console.print(f"    {m['mention_type']:<10} {escape(section_in_book(group['book'], m['heading_path']))}"
                              + (f"  [dim]({escape(where)})[/dim]" if where else ""))
                console.print(f"               [dim]{escape(m['context'])}[/dim]")
        console.print()
    shown = sum(len(g["mentions"]) for e in result["entities"] for g in e["books"])
    if result.get("limit") is not None and result["entities"]:
        console.print(f"{shown} of {result['total_mentions']} mentions shown (--limit {result['limit']})")


@app.command(epilog=examples("crossbook entity Chilled", "crossbook entity veloute --json"))
def entity(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="Entity name or alias, any case and accents."),
    as_json: bool = JSON_OPT,
) -> None:
    """One entity: its type, where it is defined, and references per book."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        with state.shelf() as shelf:
            result = shelf.entity(name).to_dict()
        emit(result, as_json, lambda c: _render_entity(c, result))


def _render_entity(console: Console, result: dict) -> None:
    for e in result["entities"]:
        console.print(f"[bold]{escape(e['name'])}[/bold] ({escape(e['entity_type'])})")
        if not e["definitions"]:
            console.print("  defined: nowhere in the index (only referenced)")
        for d in e["definitions"]:
            where = location(d.get("pages"), d.get("file"))
            console.print(f"  defined in [cyan]{escape(d['book'])}[/cyan] — {escape(section_in_book(d['book'], d['section']))}"
                          + (f"  [dim]({escape(where)})[/dim]" if where else ""))
            console.print(f"    [dim]{escape(d['context'])}[/dim]")
        if e["references_by_book"]:
            table = plain_table("book", "sections referencing it")
            for b, n in e["references_by_book"].items():
                table.add_row(escape(b), str(n))
            console.print(table)
        if e.get("related"):
            table = plain_table("related to", "relationship", "direction", "count")
            for r in e["related"]:
                table.add_row(escape(r["entity"]["name"]), escape(relation_label(r["relationship"], r["polarity"])), escape(r["arrow"]), str(r["count"]))
            console.print(table)
        for extra in e.get("extra_tables", []):
            console.print(extra)
        console.print()


@app.command(epilog=examples("crossbook books", "crossbook books --json"))
def books(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """The books in the index, with their counts and how they were ingested."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        with state.shelf() as shelf:
            rows = shelf.books()
            writer = shelf.writer() if any(b.vectors_complete is False for b in rows) else None
        emit([b.to_dict() for b in rows], as_json, lambda c: _render_books(c, rows, writer))


def _render_books(console: Console, rows, writer: dict | None = None) -> None:
    if not rows:
        console.print("No books in the index yet (run: crossbook ingest BOOK)")
        return
    table = plain_table("id", "title", "format", "sections", "defined", "mentions", "dropped", "extractor",
                        "ingested", "source")
    for b in rows:
        title = escape(b.title) + (f" (partial: {b.partial} without entities)" if b.partial else "")
        if b.pages_without_text:
            title += f" ({len(b.pages_without_text)} scanned {'page' if len(b.pages_without_text) == 1 else 'pages'}" \
                     " without text, left out)"
        title += (" (vectors being written)" if writer else " (vectors missing)") if b.vectors_complete is False else ""
        table.add_row(str(b.id), title, escape(b.format or "-"), str(b.sections), str(b.entities_defined),
                      str(b.mentions), str(b.dropped_mentions), escape(b.extractor), b.ingested_at,
                      escape(_shown_path(b.source or b.path)))
    table.columns[-1].overflow = "fold"  # a path is worth whole, not cut with an ellipsis
    console.print(table)
    unsynced = sum(b.vectors_complete is False for b in rows)
    if unsynced:
        from crossbook.storage.lock import describe

        missing = f"{unsynced} {'book is' if unsynced == 1 else 'books are'} missing vectors"
        console.print(f"{missing}: a writer is at work on the index ({escape(describe(writer))}); they come when it"
                      " has finished" if writer else f"{missing}: run crossbook doctor --repair")


def _shown_path(path: str) -> str:
    """A book's source as a user reads it: relative to the working directory when inside it."""
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path


@app.command(epilog=examples(
    "crossbook entities", "crossbook entities --type spell --book grimoire", "crossbook entities --json",
))
def entities(
    ctx: typer.Context,
    entity_type: Optional[str] = typer.Option(None, "--type", help="Only entities of this type (e.g. spell)."),
    book: list[str] = typer.Option([], "--book", help=f"Only entities mentioned in this book: {BOOK_HELP} (repeatable)."),
    exclude_book: list[str] = typer.Option(
        [], "--exclude-book", help=f"Leave this book's mentions out: {BOOK_HELP} (repeatable)."),
    as_json: bool = JSON_OPT,
) -> None:
    """List entities with their type, where they are defined and how often they are mentioned."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        with state.shelf() as shelf:
            result = shelf.entities(entity_type=entity_type, books=book, exclude_books=exclude_book).to_dict()
        emit(result, as_json, lambda c: _render_entities(c, result))


def _render_entities(console: Console, result: dict) -> None:
    if not result["entities"]:
        console.print("No entities match")
        return
    table = plain_table("name", "type", "defined in", "books", "mentions")
    for e in result["entities"]:
        table.add_row(escape(e["name"]), escape(e["entity_type"]), escape(", ".join(e["defined_in"]) or "-"),
                      str(e["books"]), str(e["mentions"]))
    console.print(table)
    per_type = ", ".join(f"{n} {escape(t)}" for t, n in result["by_type"].items())
    console.print(f"{result['count']} entities: {per_type}")


@app.command(epilog=examples("crossbook stats", "crossbook stats --json"))
def stats(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """What the index holds: books, sections, entities per type, mentions, relationships, size, embedder."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        from crossbook.query.lookup import index_stats

        settings = state.settings()
        db = open_index(settings)
        result = index_stats(db, settings.index_dir)
        emit(result, as_json, lambda c: _render_stats(c, result))


def _render_stats(console: Console, s: dict) -> None:
    def listed(parts: dict) -> str:
        return ", ".join(f"{escape(k)} {v}" for k, v in parts.items())

    def line(label: str, value, parts: dict | None = None) -> None:
        console.print(f"{label:<15} {value}" + (f" ({listed(parts)})" if parts else ""))

    line("index", escape(s["index"]))
    line("books", s["books"])
    line("sections", s["sections"], {f"{k} chunks": v for k, v in s["chunks"].items()})
    line("entities", s["entities"], s["entities_by_type"])
    line("mentions", s["mentions"], s["mentions_by_kind"])
    line("  by source", listed(s["mentions_by_source"]) or "-")
    line("relationships", s["relationships"], s["relationships_by_type"])
    line("  by status", listed(s["relationships_by_status"]) or "-")
    line("  by review", listed(s["relationships_by_review"]) or "-")
    line("pending claims", s["pending_claims"])
    if s.get("partial_books"):
        line("partial books", len(s["partial_books"]), {t: f"{n} chunks without entities" for t, n in s["partial_books"].items()})
    line("embedder", escape(s["embedder"] or "none yet"))
    line("size", f"{_megabytes(s['index_bytes'])} (SQLite {_megabytes(s['sqlite_bytes'])})")


def _megabytes(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"
