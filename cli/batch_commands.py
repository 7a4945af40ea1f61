"""Batch API commands: `crossbook batch status` and `crossbook batch collect` (registered on
the app by import). They resume batches that `ingest --batch` submitted, from any process."""

from __future__ import annotations

import time
from typing import Optional

import typer

from crossbook.cli.app import JSON_OPT, State, app, open_index
from crossbook.cli.batch_output import ingest_hint, render_batches
from crossbook.cli.group import examples
from crossbook.cli.output import cli_errors, emit

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
        reports = _poll(state, ids, base_url, uncollected=not show_all, collect_ended=False)
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

        reports = _poll(state, ids, base_url, uncollected=not ids, wait=wait)
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
        from crossbook.extract import batch

        reports = batch.forget(open_index(state.settings()), ids)
        emit({"batches": [r.to_dict() for r in reports]}, as_json, lambda c: render_batches(c, reports))


def _poll(state: State, ids: Optional[list[str]], base_url: Optional[str], uncollected: bool, **options):
    """Refresh (and collect, unless told not to) the batches named, or the recorded ones."""
    from crossbook.extract import batch

    settings = state.settings(base_url=base_url)
    db = open_index(settings)
    chosen = batch.batch_ids(db, ids or (), uncollected=uncollected)
    return batch.poll(db, batch.client_for(settings), chosen, poll_seconds=settings.batch_poll, sleep=time.sleep,
                      secret=settings.api_key, **options)
