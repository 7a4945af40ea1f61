"""``crossbook explain``: which rule stored each mention of a name, and which rules vetoed the
candidates that could have defined it (registered on the app by import)."""

import typer
from rich.console import Console
from rich.markup import escape

from crossbook.cli.app import BOOKS_OPT, JSON_OPT, State, app
from crossbook.cli.group import examples
from crossbook.cli.output import cli_errors, emit, location


@app.command(epilog=examples(
    "crossbook explain Chilled",
    "crossbook explain \"Frost Lance\" --book grimoire --json",
))
def explain(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The name, as written or an alias, any case."),
    books: list[str] = BOOKS_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Why a name is stored as it is: the rule of each mention, the vetoes of each candidate."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        with state.shelf() as shelf:
            result = shelf.explain(name, books=books).to_dict()
        emit(result, as_json, lambda c: _render(c, result))


def _render(console: Console, result: dict) -> None:
    def where(row: dict) -> str:
        at = location(row.get("pages"), row.get("file"))
        return f"{escape(row['book'])} — {escape(row['heading_path'])}" + (f" [dim]({escape(at)})[/dim]" if at else "")

    if result["mentions"]:
        console.print("[bold]stored[/bold] (the rule that stored each mention)")
        for m in result["mentions"]:
            console.print(f"  {m['mention_type']:<10} [cyan]{escape(m['rule'])}[/cyan]  {escape(m['name'])}"
                          f" ({escape(m['entity_type'])}, {escape(m['source'])})  in {where(m)}")
    if result["vetoes"]:
        console.print("[bold]vetoed[/bold] (the rule that dropped each candidate)")
        for v in result["vetoes"]:
            console.print(f"  {v['stage']:<10} [yellow]{escape(v['rule'])}[/yellow]  {escape(v['name'])}  in {where(v)}")
    counts = ", ".join(f"{r} {n}" for r, n in result["stored_by"].items()) or "-"
    vetoes = ", ".join(f"{r} {n}" for r, n in result["vetoed_by"].items()) or "-"
    console.print(f"[dim]stored by: {counts}; vetoed by: {vetoes}[/dim]")
