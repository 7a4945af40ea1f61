"""``crossbook mcp``: serve the index to AI assistants over the Model Context Protocol
(registered on the app by import; the mcp SDK is imported only when the command runs)."""

from pathlib import Path
from typing import Any

import typer
from typer.core import TyperCommand

from crossbook.cli.app import State, app
from crossbook.cli.group import examples
from crossbook.cli.output import cli_errors

BARE = "\0bare"  # what a bare --allow-ingest parses to (it once was a flag)
NEW_FORM = ("--allow-ingest now names a folder the ingest tool may read: --allow-ingest DIR "
            "(repeat it for more folders)")


class _McpCommand(TyperCommand):
    """A bare ``--allow-ingest`` parses (to BARE) so the command can say what it takes now,
    instead of Click's 'requires an argument'."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        marked = []
        for i, arg in enumerate(args):
            following = args[i + 1] if i + 1 < len(args) else None
            bare = arg == "--allow-ingest" and (following is None or following.startswith("-"))
            marked.append(f"--allow-ingest={BARE}" if bare else arg)
        return super().parse_args(ctx, marked)


@app.command(cls=_McpCommand, epilog=examples("crossbook --index shelf/.crossbook mcp",
                                              "crossbook mcp --allow-ingest ~/books",
                                              "crossbook mcp --http 127.0.0.1:8765"))
def mcp(
    ctx: typer.Context,
    allow_ingest: list[str] = typer.Option(
        [], "--allow-ingest", metavar="DIR",
        help="Also serve the ingest and delete_book tools; ingest reads only inside DIR (repeatable)."),
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
        from crossbook.api.confine import resolve_roots
        from crossbook.cli.mcp_server import serve
        from crossbook.core.errors import BadInput

        if BARE in allow_ingest:
            raise BadInput(NEW_FORM)
        roots = resolve_roots([Path(d) for d in allow_ingest]) if allow_ingest else []
        settings = state.settings()
        shelf = Shelf(settings=settings, read_only=not roots)
        if not roots:
            shelf.db  # no index, or not one: one line now, not an error in every tool call
        try:
            if http:
                from crossbook.cli.mcp_http import serve_shared

                serve_shared(shelf, http, token=token, origins=allow_origin, allow_ingest=roots,
                             allow_delete=allow_delete)
            else:
                serve(shelf, allow_ingest=roots)
        finally:
            shelf.close()
