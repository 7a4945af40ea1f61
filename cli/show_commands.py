"""``crossbook show``: the section a hit points to (registered on the app by import)."""

from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape

from crossbook.cli.app import JSON_OPT, State, app
from crossbook.cli.group import examples
from crossbook.cli.output import cli_errors, emit, location


@app.command(epilog=examples(
    "crossbook show p7b58d6cd4cd248fbf0a5",
    "crossbook show bestiary --page 12",
    "crossbook show bestiary \"Creatures > Frost Wyrm\" --json",
))
def show(
    ctx: typer.Context,
    target: str = typer.Argument(..., help="A chunk_id (from where-else, search or retrieve --json), or a book:"
                                 " a title, any case; a unique prefix of one; or its id."),
    heading_path: Optional[str] = typer.Argument(
        None, help="With a book: the section's heading path, 'Chapter > Section' (any case; its last headings suffice)."),
    page: Optional[int] = typer.Option(None, "--page", "-p", min=1, help="With a book: the sections on this page."),
    as_json: bool = JSON_OPT,
) -> None:
    """The section a hit points to: its text, book, heading path and pages."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        with state.shelf() as shelf:
            if heading_path is None and page is None:
                shown = shelf.show(target)  # a chunk id (a book named alone is told how to name its section)
            else:
                shown = shelf.show(book=target, page=page, heading_path=heading_path)
        emit(shown.to_dict(), as_json, lambda c: _render(c, shown.sections))


def _render(console: Console, sections) -> None:
    for number, section in enumerate(sections):
        if number:
            console.print()
        where = location(section["pages"], section["file"])
        console.print(f"[cyan]{escape(section['book'])}[/cyan] — [bold]{escape(section['heading_path'])}[/bold]"
                      + (f"  [dim]({escape(where)})[/dim]" if where else ""))
        console.print(f"[dim]chunk {escape(section['chunk_id'])}[/dim]")
        console.print()
        console.print(section["text"], markup=False, highlight=False)
