"""``crossbook mcp``: serve the index to AI assistants over the Model Context Protocol
(registered on the app by import; the mcp SDK is imported only when the command runs)."""

import typer

from crossbook.cli.app import State, app
from crossbook.cli.group import examples
from crossbook.cli.output import cli_errors


@app.command(epilog=examples("crossbook --index shelf/.crossbook mcp", "crossbook mcp --allow-ingest"))
def mcp(
    ctx: typer.Context,
    allow_ingest: bool = typer.Option(
        False, "--allow-ingest", help="Also serve the ingest and delete_book tools (they take the writer lock)."),
) -> None:
    """Serve the index over MCP on stdio: where_else, entity, search, retrieve, show and books tools (docs/mcp.md)."""
    state: State = ctx.obj
    with cli_errors(state.debug):
        from crossbook.api import Shelf
        from crossbook.cli.mcp_server import serve

        settings = state.settings()
        shelf = Shelf(settings=settings, read_only=not allow_ingest)
        if not allow_ingest:
            shelf.db  # no index, or not one: one line now, not an error in every tool call
        try:
            serve(shelf, allow_ingest=allow_ingest)
        finally:
            shelf.close()
