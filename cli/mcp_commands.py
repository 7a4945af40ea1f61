"""``crossbook mcp``: serve the index to AI assistants over the Model Context Protocol
(registered on the app by import; the mcp SDK is imported only when the command runs)."""

import typer

from crossbook.cli.app import State, app
from crossbook.cli.group import examples
from crossbook.cli.output import cli_errors


@app.command(epilog=examples("crossbook --index shelf/.crossbook mcp", "crossbook mcp --allow-ingest",
                             "crossbook mcp --http 127.0.0.1:8765"))
def mcp(
    ctx: typer.Context,
    allow_ingest: bool = typer.Option(
        False, "--allow-ingest", help="Also serve the ingest and delete_book tools (they take the writer lock)."),
    http: str = typer.Option(None, "--http", metavar="HOST:PORT",
                             help="Serve over streamable HTTP on HOST:PORT (PORT alone: loopback) instead of stdio."),
    token: str = typer.Option(None, "--token", envvar="CROSSBOOK_MCP_TOKEN",
                              help="With --http: the bearer token every request must carry (needed off loopback)."),
    allow_origin: list[str] = typer.Option([], "--allow-origin", metavar="ORIGIN",
                                           help="With --http: a browser origin allowed beside loopback ones (repeatable)."),
    allow_delete: bool = typer.Option(False, "--allow-delete",
                                      help="With --http and --allow-ingest: serve delete_book too."),
) -> None:
    """Serve the index over MCP (stdio, or --http): where_else, entity, search, retrieve, show and books tools (docs/mcp.md)."""
    state: State = ctx.obj
    with cli_errors(state.debug):
        from crossbook.api import Shelf
        from crossbook.cli.mcp_server import serve

        settings = state.settings()
        shelf = Shelf(settings=settings, read_only=not allow_ingest)
        if not allow_ingest:
            shelf.db  # no index, or not one: one line now, not an error in every tool call
        try:
            if http:
                from crossbook.cli.mcp_http import serve_shared

                serve_shared(shelf, http, token=token, origins=allow_origin, allow_ingest=allow_ingest,
                             allow_delete=allow_delete)
            else:
                serve(shelf, allow_ingest=allow_ingest)
        finally:
            shelf.close()
