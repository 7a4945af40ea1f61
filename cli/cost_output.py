"""`ingest`/`rebuild` --dry-run and --max-cost: the estimate (index/ingest/cost.py), shown or checked."""

from __future__ import annotations

from typing import Callable

import typer
from rich.console import Console
from rich.markup import escape

from crossbook.cli.output import emit

DRY_RUN_OPT = typer.Option(
    False, "--dry-run", help="Call nothing, write nothing: print the chunks to extract, cached answers, tokens and price.")
MAX_COST_OPT = typer.Option(
    None, "--max-cost", min=0.0, help="USD: stop before any call when the estimated LLM cost is higher (env CROSSBOOK_MAX_COST).")
PRICE_TABLE_OPT = typer.Option(
    None, "--price-table", help="TOML of model prices (USD per 1M tokens) over the shipped one (env CROSSBOOK_PRICE_TABLE).")


def dry_run_or_budget(estimate: Callable[[], dict], max_cost: float | None, dry_run: bool, as_json: bool) -> bool:
    """With --dry-run: print the estimate and return True (the command stops there). With
    --max-cost: raise BudgetExceeded when the estimate is over it. Else do nothing."""
    if not dry_run and max_cost is None:
        return False
    from crossbook.ingest.cost import check_budget

    result = estimate()
    check_budget(result, max_cost)
    if not dry_run:
        return False
    result["max_cost_usd"] = max_cost
    emit(result, as_json, lambda c: render_estimate(c, result))
    return True


def render_estimate(console: Console, e: dict) -> None:
    console.print("Dry run: nothing was called or written.")
    for book in e["books"]:
        if book["status"] == "unchanged":
            console.print(f"  {escape(book['title'])}: unchanged, skipped")
            continue
        line = f"  {escape(book['title'])}: {book['status']} — {book['parents']} parent chunks"
        if book["requests"] or book["cached"]:
            line += f", {book['cached']} cached, {book['requests']} requests, {book['prompt_tokens']:,} prompt tokens"
        console.print(line)
    for failure in e.get("failed", []):
        console.print(f"  failed: {escape(failure['path'])}: {escape(failure['error'])}")
    for title in e.get("deleted", []):
        console.print(f"  {escape(title)}: not in the manifest, would be deleted")
    if e["price"] is None and e["cost_usd"] == 0.0 and not e["requests"]:
        console.print(f"{e['parents']} parent chunks to extract, {e['cached']} cached: no LLM call, no LLM cost")
    else:
        console.print(f"{e['parents']} parent chunks to extract: {e['cached']} cached, {e['requests']} requests "
                      f"to {escape(e['model'] or '')}")
        console.print(f"prompt tokens {e['prompt_tokens']:,} (counted), output tokens ~{e['output_tokens_estimate']:,} (estimated)")
        if e["cost_usd"] is None:
            console.print("estimated cost: unknown (no price for this model)")
        else:
            price = e["price"]
            via = (f" ({escape(price['model'])}: ${price['input_usd_per_mtok']:g} in / ${price['output_usd_per_mtok']:g} "
                   f"out per 1M tokens, {escape(price['source'])})") if price else ""
            console.print(f"estimated cost: ${e['cost_usd']:.4f}{via}")
    if e.get("max_cost_usd") is not None:
        console.print(f"within --max-cost ${e['max_cost_usd']:g}")
    for note in e["notes"]:
        console.print(f"[dim]{escape(note)}[/dim]")
