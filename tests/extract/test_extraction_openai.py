"""The openai extractor against a scripted OpenAI-compatible server (real client, no network)."""

import json

import pytest

from crossbook.core.errors import ExtractionFailed
from crossbook.extract.openai_extractor import OpenAIExtractor, backoff_seconds, retry_after_seconds
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db
from tests.fakes import completion_body
from tests.helpers import BOOK_A, BOOK_B, heading_responder, openai_settings, snapshot, write


def _ingest(index_dir, server, path, sleeps=None, force=False, **overrides):
    settings = openai_settings(index_dir, server, **overrides)
    db = open_db(index_dir, create=True)
    extractor = OpenAIExtractor(settings, __import__("crossbook.core.packs", fromlist=["x"]).load_pack("generic"), cache=db,
                                sleep=(sleeps.append if sleeps is not None else lambda s: None))
    job = IngestJob(db, settings, extractor=extractor)
    return ingest_paths(job, [path], force=force)[0]


def test_one_call_per_parent_chunk_with_structured_output(tmp_path, index_dir, scripted_openai):
    scripted_openai.responder = heading_responder()
    book = write(tmp_path / "a.md", BOOK_A)
    result = _ingest(index_dir, scripted_openai, book)
    assert result.parents == 6 and result.llm_calls == 6 and len(scripted_openai.chat_calls) == 6
    request = scripted_openai.chat_calls[0]
    assert request["model"] == "scripted-model"
    assert request["response_format"]["type"] == "json_schema"
    assert request["response_format"]["json_schema"]["strict"] is True
    prompt = request["messages"][-1]["content"]
    assert "Core Rules" in prompt and "mention_type" in prompt and "- term:" in prompt


def test_cache_zero_calls_unchanged_one_call_per_edited_section(tmp_path, index_dir, scripted_openai):
    scripted_openai.responder = heading_responder()
    book = write(tmp_path / "a.md", BOOK_A)
    first = _ingest(index_dir, scripted_openai, book)
    assert first.llm_calls == 6
    again = _ingest(index_dir, scripted_openai, book, force=True)  # forced: goes through the extractor
    assert (again.status, again.llm_calls, again.cache_hits) == ("updated", 0, 6)
    write(book, BOOK_A.replace("loses 1 Speed", "loses 2 Speed"))
    edited = _ingest(index_dir, scripted_openai, book)
    assert (edited.llm_calls, edited.cache_hits) == (1, 5)
    assert len(scripted_openai.chat_calls) == 7


def test_results_do_not_depend_on_completion_order(tmp_path, scripted_openai):
    scripted_openai.responder = heading_responder()
    book = write(tmp_path / "a.md", BOOK_A)
    _ingest(tmp_path / "i1", scripted_openai, book, concurrency=1)
    _ingest(tmp_path / "i2", scripted_openai, book, concurrency=8)
    one, many = snapshot(tmp_path / "i1"), snapshot(tmp_path / "i2")
    assert one == many and one["mentions"]


def test_retries_429_and_5xx_honouring_retry_after(tmp_path, index_dir, scripted_openai):
    scripted_openai.responder = heading_responder()
    scripted_openai.enqueue({"error": {"message": "slow down"}}, status=429, headers={"retry-after": "7"})
    scripted_openai.enqueue({"error": {"message": "boom"}}, status=503)
    sleeps = []
    book = write(tmp_path / "b.md", "# Solo\n\nOne section only.\n")
    result = _ingest(index_dir, scripted_openai, book, sleeps=sleeps, concurrency=1)
    assert result.llm_calls == 3
    assert sleeps[0] == 7.0 and 0 < sleeps[1] <= 60


def test_retry_after_parsing():
    class Exc:
        def __init__(self, headers):
            self.response = type("R", (), {"headers": headers})()
    assert retry_after_seconds(Exc({"retry-after": "3"})) == 3.0
    assert retry_after_seconds(Exc({"retry-after-ms": "250"})) == 0.25
    assert retry_after_seconds(Exc({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"})) == 0.0
    assert retry_after_seconds(Exc({})) is None
    assert backoff_seconds(10, 500.0) == 60.0


def test_endpoint_that_keeps_failing_leaves_the_index_unchanged(tmp_path, index_dir, scripted_openai):
    scripted_openai.responder = heading_responder()
    book = write(tmp_path / "a.md", BOOK_A)
    _ingest(index_dir, scripted_openai, book)
    before = snapshot(index_dir)
    write(book, BOOK_A + "\n### Dazed\nA Dazed hero acts last.\n")
    scripted_openai.responder = lambda req: (500, {}, {"error": {"message": "down"}})
    with pytest.raises(ExtractionFailed, match="kept failing"):
        _ingest(index_dir, scripted_openai, book, max_retries=2)
    assert snapshot(index_dir) == before


def test_invalid_and_truncated_answers_are_retried_and_never_cached(tmp_path, index_dir, scripted_openai):
    book = write(tmp_path / "b.md", "# Solo\n\nOne section only.\n")
    good = json.dumps({"entities": [{"name": "Solo", "type": "other", "mention_type": "defines", "context": "One section only."}]})
    scripted_openai.enqueue_content("this is not json")
    scripted_openai.enqueue_content(good[:20], finish_reason="length")
    scripted_openai.enqueue_content(good)
    result = _ingest(index_dir, scripted_openai, book)
    assert result.llm_calls == 3 and result.mentions == 1
    db = open_db(index_dir)
    assert [r[0] for r in db.execute("SELECT response FROM llm_cache")] == [good]


def test_model_that_never_answers_validly_fails_the_book_cleanly(tmp_path, index_dir, scripted_openai):
    scripted_openai.responder = lambda req: (200, {}, completion_body("{not json"))
    book = write(tmp_path / "b.md", "# Solo\n\nOne section only.\n")
    with pytest.raises(ExtractionFailed, match="no valid answer"):
        _ingest(index_dir, scripted_openai, book)
    db = open_db(index_dir)
    assert db.execute("SELECT count(*) FROM books").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM llm_cache").fetchone()[0] == 0


def test_hallucinated_mentions_are_dropped_and_counted(tmp_path, index_dir, scripted_openai):
    answer = {"entities": [
        {"name": "Solo", "type": "other", "mention_type": "defines", "context": "One section only."},
        {"name": "Dragon", "type": "other", "mention_type": "references", "context": "One section only."},
        {"name": "Solo", "type": "other", "mention_type": "references", "context": "A sentence the book lacks."},
    ]}
    scripted_openai.enqueue_content(json.dumps(answer))
    result = _ingest(index_dir, scripted_openai, write(tmp_path / "b.md", "# Solo\n\nOne section only.\n"))
    assert result.mentions == 1 and result.dropped_mentions == 2
    db = open_db(index_dir)
    reasons = json.loads(db.execute("SELECT drop_reasons FROM books").fetchone()[0])
    assert reasons == {"context_not_verbatim": 1, "name_not_in_chunk": 1}


def test_linker_adds_what_the_llm_missed_and_records_sources(tmp_path, index_dir, scripted_openai):
    scripted_openai.responder = heading_responder({"Frost Lance": [("Chilled", "condition")]})
    _ingest(index_dir, scripted_openai, write(tmp_path / "a.md", BOOK_A))
    _ingest(index_dir, scripted_openai, write(tmp_path / "b.md", BOOK_B))
    db = open_db(index_dir)
    sources = dict(db.execute(
        "SELECT m.source, count(*) FROM entity_mentions m GROUP BY m.source").fetchall())
    assert sources["llm"] >= 6 and sources["linker"] >= 1
    # Chilled in the Frost Lance section came from the model (type disagreed: 'condition' vs
    # the only definition's 'other', so it attached to that definition)
    rows = db.execute(
        "SELECT m.source, e.entity_type FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
        " JOIN chunks c ON c.id = m.chunk_id WHERE e.normalized = 'chilled' AND c.heading = 'Frost Lance'").fetchall()
    assert rows == [("llm", "other")]


def test_no_link_turns_the_linker_off(tmp_path, index_dir, scripted_openai):
    scripted_openai.responder = heading_responder()
    _ingest(index_dir, scripted_openai, write(tmp_path / "a.md", BOOK_A), link=False)
    _ingest(index_dir, scripted_openai, write(tmp_path / "b.md", BOOK_B), link=False)
    db = open_db(index_dir)
    assert db.execute("SELECT count(*) FROM entity_mentions WHERE source = 'linker'").fetchone()[0] == 0


def test_sample_corpus_call_counts_through_the_cli(cli, corpus, index_dir, scripted_openai, monkeypatch):
    """The figures for the closing note: first ingest, unchanged re-ingest, one-section edit."""
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    scripted_openai.responder = heading_responder()
    args = ["--extractor", "openai", "--base-url", scripted_openai.base_url, "--model", "scripted",
            "--pack", corpus / "emberfall.pack.toml", "--json"]
    books = [corpus / "core_rules.md", corpus / "grimoire.md", corpus / "bestiary.md"]
    first = json.loads(cli("ingest", *books, *args).stdout)
    forced = json.loads(cli("ingest", *books, *args, "--force").stdout)
    text = books[1].read_text()
    books[1].write_text(text.replace("Cost: 3 Ember.", "Cost: 4 Ember.", 1))
    edited = json.loads(cli("ingest", *books, *args).stdout)
    calls = [sum(r["llm_calls"] for r in run) for run in (first, forced, edited)]
    parents = sum(r["parents"] for r in first)
    assert calls == [parents, 0, 1]
    assert [r["status"] for r in edited] == ["unchanged", "updated", "unchanged"]
    assert len(scripted_openai.chat_calls) == parents + 1


def test_each_retry_is_said_with_its_reason(tmp_path, index_dir, scripted_openai):
    # six silent retries to a dead endpoint; now each one is a warning naming the chunk
    scripted_openai.responder = heading_responder()
    scripted_openai.enqueue({"error": {"message": "slow down"}}, status=429, headers={"retry-after": "3"})
    scripted_openai.enqueue({"error": {"message": "boom"}}, status=503)
    settings = openai_settings(index_dir, scripted_openai, concurrency=1)
    db = open_db(index_dir, create=True)
    warnings = []
    extractor = OpenAIExtractor(settings, __import__("crossbook.core.packs", fromlist=["x"]).load_pack("generic"), cache=db,
                                sleep=lambda s: None)
    job = IngestJob(db, settings, extractor=extractor, warn=warnings.append)
    ingest_paths(job, [write(tmp_path / "b.md", "# Solo\n\nOne section only.\n")])
    retries = [w for w in warnings if "retrying" in w]
    assert len(retries) == 2
    assert retries[0].startswith("Solo") and retries[0].endswith(": rate limited (429); retrying in 3 s (try 2 of 4)")
    assert ": the endpoint failed (HTTP 503); retrying in " in retries[1] and retries[1].endswith("(try 3 of 4)")
