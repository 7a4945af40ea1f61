"""LLM answer cache commands: `crossbook cache prune` (registered on the app by import)."""

import typer

from crossbook.cli.app import JSON_OPT, State, app
from crossbook.cli.output import cli_errors, emit
from crossbook.cli.writing import lock_options

cache_app = typer.Typer(no_args_is_help=True, help="The cache of LLM answers in the index.")
app.add_typer(cache_app, name="cache")


@cache_app.command("prune")
def prune(
    ctx: typer.Context,
    dry_run: bool = typer.Option(False, "--dry-run", help="Count what would be removed; remove nothing."),
    as_json: bool = JSON_OPT,
) -> None:
    """Remove cached LLM answers that no stored chunk uses (edited sections, deleted books, other models)."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        result = state.shelf().prune_cache(dry_run=dry_run, **lock_options(ctx))
        verb = "would remove" if dry_run else "removed"
        emit(result, as_json, lambda c: c.print(f"{verb} {result['removed']} cached answers, kept {result['kept']}"))
