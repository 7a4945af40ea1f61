"""Domain pack commands: `crossbook pack suggest` (registered on the app by import)."""

from pathlib import Path
from typing import List

import typer

from crossbook.cli.app import State, app
from crossbook.cli.output import cli_errors

pack_app = typer.Typer(no_args_is_help=True, help="Domain packs: entity types, heading rules, stop headings.")
app.add_typer(pack_app, name="pack")


@pack_app.command("suggest")
def suggest(
    ctx: typer.Context,
    paths: List[Path] = typer.Argument(..., help="Markdown books (or directories of them) to read.", show_default=False),
    name: str = typer.Option("suggested", "--name", help="The name the draft pack gets."),
) -> None:
    """Print a draft domain pack (TOML) drafted from the books' heading structure.

    Example: crossbook pack suggest books/ > mygame.pack.toml
    """
    state: State = ctx.obj
    with cli_errors(state.debug):
        from crossbook.cli.output import warn
        from crossbook.core.packs import load_pack
        from crossbook.extract.pack_suggest import suggest_pack
        from crossbook.ingest.books import find_books
        from crossbook.readers import read_book

        books = [read_book(p) for p in find_books(paths, warn=warn)]
        text = suggest_pack([(b.path.stem, b.text) for b in books], load_pack("generic"), name=name)
        typer.echo(text)
