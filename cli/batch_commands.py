"""Batch API commands: `crossbook batch status`, `collect` and `forget` (registered on the app
by import). They resume batches that `ingest --batch` submitted, from any process; each is a
client of ``crossbook.api.Shelf`` (collect and forget write, under the writer lock)."""

from __future__ import annotations

from typing import Optional

import typer

from crossbook.cli.app import JSON_OPT, State, app
from crossbook.cli.batch_output import ingest_hint, render_batches
from crossbook.cli.group import examples
from crossbook.cli.output import cli_errors, emit
from crossbook.cli.writing import lock_options

batch_app = typer.Typer(no_args_is_help=True, help="OpenAI Batch API batches submitted by ingest --batch.")
app.add_typer(batch_app, name="batch")

IDS_ARG = typer.Argument(None, help="Batch ids (default: the batches not collected yet).")
BASE_URL_OPT = typer.Option(None, "--base-url", help="Ask this endpoint instead of the one each batch was submitted to.")


@batch_app.command("status", epilog=examples("crossbook batch status", "crossbook batch status --all --json"))
def status(
    ctx: typer.Context,
    ids: Optional[list[str]] = IDS_ARG,
    show_all: bool = typer.Option(False, "--all", help="Also the batches already collected."),
    base_url: Optional[str] = BASE_URL_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Ask the endpoint how far each batch is (collect nothing)."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        reports = state.shelf().batches(ids or (), include_collected=show_all, base_url=base_url)
        emit({"batches": [r.to_dict() for r in reports]}, as_json, lambda c: render_batches(c, reports))


@batch_app.command("collect", epilog=examples("crossbook batch collect", "crossbook batch collect batch_abc --until-done"))
def collect(
    ctx: typer.Context,
    ids: Optional[list[str]] = IDS_ARG,
    wait: bool = typer.Option(False, "--until-done", help="Poll until every batch has ended (every batch_poll seconds, default 30)."),
    base_url: Optional[str] = BASE_URL_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Store the answers of the batches that have ended in the LLM cache (then ingest again: 0 requests)."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        from crossbook.core.errors import BatchFailed
        from crossbook.ingest.batch import short_message

        reports = state.shelf().batches(ids or (), collect=True, wait=wait, base_url=base_url, **lock_options(ctx))
        short = [r for r in reports if r.ended and r.status != "completed"]
        if short:
            raise BatchFailed(short_message(short))
        hint = ingest_hint(reports)

        def render(console) -> None:
            render_batches(console, reports)
            if hint:
                console.print(f"Answers cached: run the ingest again ({hint}); it asks only what is not cached")

        emit({"batches": [r.to_dict() for r in reports], "next": hint}, as_json, render)


@batch_app.command("forget", epilog=examples("crossbook batch forget batch_abc"))
def forget(
    ctx: typer.Context,
    ids: list[str] = typer.Argument(..., help="Batch ids (see: crossbook batch status)."),
    as_json: bool = JSON_OPT,
) -> None:
    """Stop waiting for batches: the next ingest --batch submits their unanswered chunks again."""
    state: State = ctx.obj
    with cli_errors(state.debug, as_json):
        reports = state.shelf().forget_batches(ids, **lock_options(ctx))
        emit({"batches": [r.to_dict() for r in reports]}, as_json, lambda c: render_batches(c, reports))

