"""Relationship commands: relations, review, export (registered on the app by import).

Library code is in index/query/review.py; this module parses, calls and renders.
"""

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape

from crossbook.cli.app import BOOK_HELP, EXCLUDE_BOOKS_OPT, JSON_OPT, State, app, open_index
from crossbook.cli.choices import check_export_format, check_status
from crossbook.cli.group import examples
from crossbook.cli.output import cli_errors, emit, plain_table, relation_label, section_in_book, stderr, warn
from crossbook.cli.writing import lock_options

ID_ARG = typer.Argument(..., help="Relationship id (see: crossbook relations, crossbook review).")


def _render_rows(console: Console, rows: list[dict]) -> None:
    if not rows:
        console.print("no relationships match")
        return
    table = plain_table("id", "source", "relationship", "target", "book", "status", "review")
    for r in rows:
        status = r["status"] + (f" ({r['status_reason']})" if r.get("status_reason") else "")
        table.add_row(str(r.get("id", "-")), escape(r["source"]), escape(relation_label(r["relation_type"], r.get("polarity"))), escape(r["target"]),
                      escape(r["book"]), escape(status), r.get("review_state", "-"))
    console.print(table)


@app.command(epilog=examples(
    "crossbook relations --type inflicts --json",
    "crossbook relations --type member_of --source frob",
    "crossbook relations --status invalid --book grimoire",
))
def relations(
    ctx: typer.Context,
    relation_type: Optional[str] = typer.Option(
        None, "--type", help="Only this relation type and its mirror (an alias works too), read as the name reads."),
    source: Optional[str] = typer.Option(
        None, "--source", help="Only the relationships of this entity, read from its side (with --type member_of:"
        " the options or methods it has)."),
    status: Optional[str] = typer.Option(None, "--status", callback=check_status, help="ready, invalid or pending_entities."),
    book: Optional[str] = typer.Option(None, "--book", help=f"Only relationships stated in this book: {BOOK_HELP}."),
    exclude_book: list[str] = EXCLUDE_BOOKS_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Typed relationships between entities, with their evidence, status and review state."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        with state.shelf() as shelf:
            rows = shelf.relations(relation_type=relation_type, status=status, book=book,
                                   exclude_books=exclude_book, source=source).relationships
        emit(rows, as_json, lambda c: _render_rows(c, rows))


review_app = typer.Typer(
    no_args_is_help=False, pretty_exceptions_show_locals=False,
    help="Review suggested relationships: list them, or accept, reject or adjust one by id.",
)
app.add_typer(review_app, name="review")


def _render_decision(console: Console, row: dict) -> None:
    console.print(f"{row['id']}: {escape(row['source'])} {escape(row['relation_type'])} "
                  f"{escape(row['target'])} — {row['review_state']}")


def _decide(ctx: typer.Context, relationship_id: int, action: str, as_json: bool, **kwargs) -> None:
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        with state.shelf() as shelf:
            row = shelf.review(relationship_id, action, **kwargs, **lock_options(ctx)).to_dict()
        if row["status"] == "invalid" and row["review_state"] == "adjusted":
            warn(f"relationship {row['id']} as adjusted is invalid ({row['status_reason']}): it is left out of "
                 f"entity detail and export unless accepted (crossbook review accept {row['id']})")
        emit(row, as_json, lambda c: _render_decision(c, row))


@review_app.callback(invoke_without_command=True, epilog=examples(
    "crossbook review", "crossbook review --interactive", "crossbook review accept 12",
    "crossbook review adjust 12 --type cast_by --flip",
))
def review_main(
    ctx: typer.Context,
    interactive: bool = typer.Option(False, "--interactive", help="Ask about each suggestion in turn."),
    book: Optional[str] = typer.Option(None, "--book", help=f"Only suggestions stated in this book: {BOOK_HELP}."),
    exclude_book: list[str] = EXCLUDE_BOOKS_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """List suggested relationships (review accept|reject|adjust ID to decide one)."""
    if ctx.invoked_subcommand is not None:
        return
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        with state.shelf() as shelf:
            rows = shelf.relations(book=book, exclude_books=exclude_book, review_state="suggested").relationships
            if not interactive:
                emit(rows, as_json, lambda c: _render_rows(c, rows))
                return
            decisions = _ask_each(ctx, shelf, rows)
        emit(decisions, as_json, lambda c: [_render_decision(c, d) for d in decisions] or c.print("no decisions"))


def _ask_each(ctx: typer.Context, shelf, rows: list[dict]) -> list[dict]:
    """``review --interactive``: each suggestion asked about in turn, each decision a Shelf
    write of its own (the lock is held per decision, not while a question is on screen)."""
    from crossbook.core.errors import BadInput

    decisions = []
    for row in rows:
        stderr.print(f"\n[{row['id']}] {row['source']} —{row['relation_type']}→ {row['target']}"
                     f"  ({row['status']}{', ' + row['status_reason'] if row['status_reason'] else ''})",
                     markup=False)
        stderr.print(f"    {row['book']} — {section_in_book(row['book'], row['section'])}: \"{row['evidence']}\"", markup=False)
        answer = typer.prompt("accept, reject, adjust, skip or quit [a/r/j/s/q]", default="s", err=True)
        answer = answer.strip().lower()[:1]
        if answer == "q":
            break
        if answer in ("a", "r"):
            action = "accept" if answer == "a" else "reject"
            decisions.append(shelf.review(row["id"], action, **lock_options(ctx)).to_dict())
        elif answer == "j":
            new_type = typer.prompt("type", default=row["relation_type"], err=True)
            flip = typer.confirm("flip the direction?", default=False, err=True)
            if not flip and new_type == row["relation_type"]:
                decisions.append(row)
                continue
            try:
                decisions.append(shelf.review(row["id"], "adjust", flip=flip, **lock_options(ctx),
                                              relation_type=None if new_type == row["relation_type"] else new_type)
                                 .to_dict())
            except BadInput as exc:  # a mistyped type skips this one, not the whole session
                warn(f"{exc}; relationship {row['id']} skipped")
    return decisions


@review_app.command("accept", epilog=examples("crossbook review accept 12"))
def review_accept(ctx: typer.Context, relationship_id: int = ID_ARG, as_json: bool = JSON_OPT) -> None:
    """Accept a suggested relationship."""
    _decide(ctx, relationship_id, "accept", as_json)


@review_app.command("reject", epilog=examples("crossbook review reject 12"))
def review_reject(ctx: typer.Context, relationship_id: int = ID_ARG, as_json: bool = JSON_OPT) -> None:
    """Reject a relationship: kept for the record, left out of entity detail and export."""
    _decide(ctx, relationship_id, "reject", as_json)


@review_app.command("adjust", epilog=examples(
    "crossbook review adjust 12 --type inflicts", "crossbook review adjust 12 --flip",
))
def review_adjust(
    ctx: typer.Context,
    relationship_id: int = ID_ARG,
    relation_type: Optional[str] = typer.Option(None, "--type", help="The right relation type."),
    flip: bool = typer.Option(False, "--flip", help="The relationship goes the other way."),
    as_json: bool = JSON_OPT,
) -> None:
    """Adjust a relationship's type and/or direction."""
    _decide(ctx, relationship_id, "adjust", as_json, relation_type=relation_type, flip=flip)


@app.command(epilog=examples(
    "crossbook export --format graphml -o shelf.graphml",
    "crossbook export > graph.jsonl",
))
def export(
    ctx: typer.Context,
    fmt: str = typer.Option("jsonl", "--format", callback=check_export_format, help="jsonl (nodes then edges, one per line) or graphml."),
    output: Optional[Path] = typer.Option(
        None, "-o", "--output", help="Write to FILE (default: stdout; with --json, one JSON document {nodes, edges})."),
    include_invalid: bool = typer.Option(False, "--include-invalid", help="Also export invalid relationships."),
    as_json: bool = JSON_OPT,
) -> None:
    """Export the relationship graph for graph tools (networkx, Gephi, Neo4j import)."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        from crossbook.core.errors import BadInput
        from crossbook.query.review import export as run_export

        db = open_index(state.settings())
        if as_json and output is None:
            # --json asks for one JSON document: the graph itself, whatever --format says
            from crossbook.query.review import export_graph

            emit(export_graph(db, include_invalid), True, lambda c: None)
            return
        text, counts = run_export(db, fmt, include_invalid)
        if output is None:
            typer.echo(text, nl=False)
            return
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise BadInput(f"cannot write '{output}': {exc.strerror}") from None
        summary = {"format": fmt, "path": str(output), **counts}
        emit(summary, as_json, lambda c: c.print(
            f"Wrote {counts['nodes']} entities and {counts['edges']} relationships to {escape(str(output))}"))
