"""`ingest`/`rebuild` --dry-run and --max-cost: nothing called, nothing
written, tokens counted on the prompts a real run sends."""

from __future__ import annotations

import gc
import json

import pytest

from crossbook.ingest.cost import load_price_table, prompt_tokens
from tests.helpers import BOOK_A, BOOK_B, heading_responder, snapshot, write


@pytest.fixture
def openai_args(scripted_openai, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    scripted_openai.responder = heading_responder()
    return ["--extractor", "openai", "--base-url", scripted_openai.base_url, "--model", "gpt-4o-mini"]


@pytest.fixture
def books(tmp_path):
    return [write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)]


def test_rules_dry_run_says_no_llm_cost_and_creates_nothing(cli, books, index_dir):
    result = cli("ingest", *books, "--dry-run", "--json")
    assert result.exit_code == 0, result.stderr
    estimate = json.loads(result.stdout)
    assert (estimate["extractor"], estimate["requests"], estimate["cost_usd"]) == ("rules", 0, 0.0)
    assert any("no LLM cost" in n for n in estimate["notes"])
    assert not index_dir.exists()
    real = json.loads(cli("ingest", *books, "--json").stdout)
    assert [b["parents"] for b in estimate["books"]] == [r["parents"] for r in real]
    text = cli("ingest", *books, "--dry-run").stdout
    assert "unchanged, skipped" in text and "no LLM cost" in text


def test_openai_dry_run_calls_nothing_and_counts_the_prompts_a_real_run_sends(
        cli, books, index_dir, scripted_openai, openai_args):
    dry = cli("ingest", *books, *openai_args, "--dry-run", "--json")
    assert dry.exit_code == 0, dry.stderr
    estimate = json.loads(dry.stdout)
    assert scripted_openai.history == [] and not index_dir.exists()
    assert (estimate["cached"], estimate["requests"]) == (0, estimate["parents"])
    real = json.loads(cli("ingest", *books, *openai_args, "--json").stdout)
    calls = scripted_openai.chat_calls
    assert len(calls) == estimate["requests"] == sum(r["llm_calls"] for r in real)
    sent = sum(prompt_tokens(c["messages"], c["response_format"]["json_schema"]["schema"]) for c in calls)
    assert estimate["prompt_tokens"] == sent
    price = load_price_table().price("gpt-4o-mini")
    assert estimate["price"]["input_usd_per_mtok"] == price[1]
    assert estimate["cost_usd"] == pytest.approx(
        (estimate["prompt_tokens"] * price[1] + estimate["output_tokens_estimate"] * price[2]) / 1e6, abs=1e-6)


def test_dry_run_on_an_index_counts_cached_answers_and_writes_nothing(cli, books, index_dir, scripted_openai, openai_args):
    assert cli("ingest", *books, *openai_args).exit_code == 0
    write(books[0], BOOK_A.replace("loses 1 Speed", "loses 2 Speed"))
    gc.collect()   # the ingest's connection is closed (and its WAL checkpointed) now, not mid-test
    before, db_bytes = snapshot(index_dir), (index_dir / "crossbook.db").read_bytes()
    calls = len(scripted_openai.history)
    estimate = json.loads(cli("ingest", *books, *openai_args, "--dry-run", "--json").stdout)
    assert len(scripted_openai.history) == calls
    assert [(b["status"], b["requests"], b["cached"]) for b in estimate["books"]] == [
        ("updated", 1, 5), ("unchanged", 0, 0)]
    gc.collect()
    assert snapshot(index_dir) == before and (index_dir / "crossbook.db").read_bytes() == db_bytes
    assert not (index_dir / "crossbook.db-wal").exists() or (index_dir / "crossbook.db-wal").stat().st_size == 0


def test_max_cost_stops_before_any_call_naming_the_estimate(cli, books, index_dir, scripted_openai, openai_args):
    over = cli("ingest", *books, *openai_args, "--max-cost", "0.000001")
    assert over.exit_code == 1 and over.stdout == ""
    assert "estimated cost $" in over.stderr and "--max-cost" in over.stderr and "prompt" in over.stderr
    assert len(over.stderr.strip().splitlines()) == 1
    assert scripted_openai.history == [] and not index_dir.exists()
    as_json = cli("ingest", *books, *openai_args, "--max-cost", "0.000001", "--json")
    assert json.loads(as_json.stdout)["error"]["code"] == "budget_exceeded"
    within = cli("ingest", *books, *openai_args, "--max-cost", "5", "--json")
    assert within.exit_code == 0 and len(scripted_openai.chat_calls) == sum(
        r["llm_calls"] for r in json.loads(within.stdout)) > 0


def test_a_model_without_a_price_has_no_cost_and_max_cost_says_how_to_price_it(
        cli, books, tmp_path, scripted_openai, monkeypatch, openai_args):
    args = [a if a != "gpt-4o-mini" else "local-llama" for a in openai_args]
    estimate = json.loads(cli("ingest", *books, *args, "--dry-run", "--json").stdout)
    assert estimate["cost_usd"] is None and estimate["price"] is None and estimate["requests"] > 0
    capped = cli("ingest", *books, *args, "--max-cost", "1")
    assert capped.exit_code == 1 and "--price-table" in capped.stderr and scripted_openai.history == []
    table = write(tmp_path / "prices.toml", '[models."local-llama"]\ninput = 1.0\noutput = 2.0\n')
    priced = json.loads(cli("ingest", *books, *args, "--dry-run", "--json", "--price-table", table).stdout)
    assert priced["price"]["input_usd_per_mtok"] == 1.0 and priced["cost_usd"] > 0


def test_price_table_precedence_flag_env_toml(cli, books, tmp_path, monkeypatch, openai_args):
    def table(name, price):
        return write(tmp_path / name, f'[models."gpt-4o-mini"]\ninput = {price}\noutput = {price}\n')

    write(tmp_path / "crossbook.toml", f'price_table = "{table("toml.toml", 3.0).name}"\n')

    def input_price(*extra):
        result = cli("ingest", *books, *openai_args, "--dry-run", "--json", *extra)
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout)["price"]["input_usd_per_mtok"]

    assert input_price() == 3.0
    monkeypatch.setenv("CROSSBOOK_PRICE_TABLE", str(table("env.toml", 2.0)))
    assert input_price() == 2.0
    assert input_price("--price-table", table("flag.toml", 1.0)) == 1.0


def test_rebuild_dry_run_lists_books_and_deletions_and_calls_nothing(cli, books, tmp_path, index_dir, scripted_openai,
                                                                    openai_args):
    assert cli("ingest", *books, *openai_args).exit_code == 0
    manifest = write(tmp_path / "shelf.toml", f'extractor = "openai"\nmodel = "gpt-4o-mini"\nbase_url = '
                     f'"{scripted_openai.base_url}"\n\n[[books]]\npath = "a.md"\n\n[[books]]\npath = "gone.md"\n')
    calls = len(scripted_openai.history)
    result = cli("rebuild", manifest, "--dry-run", "--json")
    assert result.exit_code == 0, result.stderr
    estimate = json.loads(result.stdout)
    assert len(scripted_openai.history) == calls
    assert [(b["title"], b["status"]) for b in estimate["books"]] == [("Core Rules", "unchanged")]
    assert estimate["deleted"] == ["Grimoire"] and "gone.md" in estimate["failed"][0]["path"]


def test_the_output_ratio_is_measured_on_the_cached_answers(cli, corpus, index_dir, tmp_path, openai_args):
    books = [corpus / "core_rules.md", corpus / "grimoire.md", corpus / "bestiary.md"]
    shipped = json.loads(cli("ingest", *books, *openai_args, "--dry-run", "--json").stdout)
    assert shipped["output_ratio"] == load_price_table().output_ratio   # nothing cached yet
    assert cli("ingest", *books, *openai_args).exit_code == 0
    books[1].write_text(books[1].read_text().replace("Cost: 3 Ember.", "Cost: 4 Ember.", 1))
    estimate = json.loads(cli("ingest", *books, *openai_args, "--dry-run", "--json").stdout)
    from crossbook.core.tokens import count_tokens
    from crossbook.storage.db import open_db

    rows = open_db(index_dir).execute(
        "SELECT c.text, l.response FROM llm_cache l JOIN llm_cache_chunks k ON k.key = l.key"
        " JOIN chunks c ON c.id = k.chunk_id").fetchall()
    per_request = load_price_table().output_per_request
    expected = (sum(count_tokens(r) for _, r in rows) - per_request * len(rows)) / sum(count_tokens(t) for t, _ in rows)
    assert estimate["requests"] == 1 and estimate["output_ratio"] == pytest.approx(max(0.0, expected), abs=1e-4)
    assert any(f"measured on {len(rows)} cached answers" in n for n in estimate["notes"])
    table = write(tmp_path / "ratio.toml", "[estimate]\noutput_ratio = 2.0\n")
    given = json.loads(cli("ingest", *books, *openai_args, "--dry-run", "--json", "--price-table", table).stdout)
    assert given["output_ratio"] == 2.0
