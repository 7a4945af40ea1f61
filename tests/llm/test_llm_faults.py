"""The LLM path under faults: nothing valid is lost, nothing invalid is kept."""

from __future__ import annotations

import json

import pytest

from crossbook.core.errors import ChunksFailed
from crossbook.core.packs import load_pack
from crossbook.extract.openai_extractor import OpenAIExtractor
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db
from tests.fakes import ScriptedOpenAI, Stall, completion_body, passage_of
from tests.helpers import BOOK_A, heading_responder, openai_settings, snapshot, write

SOLO = "# Solo\n\nOne section only.\n"
GOOD_SOLO = json.dumps({"entities": [{"name": "Solo", "type": "other", "mention_type": "defines",
                                      "context": "One section only."}]})


def _ingest(index_dir, server, path, force=False, **overrides):
    settings = openai_settings(index_dir, server, **overrides)
    db = open_db(index_dir, create=True)
    extractor = OpenAIExtractor(settings, load_pack("generic"), cache=db, sleep=lambda s: None)
    return ingest_paths(IngestJob(db, settings, extractor=extractor), [path], force=force)[0]


def failing_on(heading: str, clean=None):
    """The heading responder, except the passage under ``heading`` never gets a valid answer."""
    clean = clean or heading_responder()

    def respond(request):
        if passage_of(request).startswith(f"### {heading}\n"):
            return 200, {}, completion_body("{not json")
        return clean(request)

    return respond


def cached(index_dir) -> int:
    db = open_db(index_dir)
    return db.execute("SELECT count(*) FROM llm_cache").fetchone()[0]


def test_valid_answers_are_cached_as_they_arrive_when_another_chunk_fails(tmp_path, index_dir, scripted_openai):
    scripted_openai.responder = failing_on("Prone")
    book = write(tmp_path / "a.md", BOOK_A)
    with pytest.raises(ChunksFailed) as failure:
        _ingest(index_dir, scripted_openai, book, concurrency=1)
    assert "Core Rules: Core Rules > Conditions > Prone" in str(failure.value) and "no valid answer" in str(failure.value)
    assert [f.where for f in failure.value.failed] == ["Core Rules: Core Rules > Conditions > Prone"]
    assert cached(index_dir) == 5   # all five others, including those after the failed one
    assert open_db(index_dir).execute("SELECT count(*) FROM books").fetchone()[0] == 0
    # the re-run asks only for the chunk that failed
    scripted_openai.responder = heading_responder()
    calls_before = len(scripted_openai.chat_calls)
    result = _ingest(index_dir, scripted_openai, book, concurrency=1)
    assert (result.llm_calls, result.cache_hits, result.partial) == (1, 5, 0)
    assert len(scripted_openai.chat_calls) == calls_before + 1


def test_an_invalid_answer_is_asked_again_then_with_the_validation_error(tmp_path, index_dir, scripted_openai):
    scripted_openai.enqueue_content("{not json")
    scripted_openai.enqueue_content("still not json")
    scripted_openai.enqueue_content(GOOD_SOLO)
    result = _ingest(index_dir, scripted_openai, write(tmp_path / "s.md", SOLO))
    assert result.llm_calls == 3 and result.mentions == 1
    first, second, third = scripted_openai.chat_calls
    assert first["messages"] == second["messages"]          # a plain retry first
    assert third["messages"][:2] == first["messages"]       # then the same prompt...
    assert third["messages"][2] == {"role": "assistant", "content": "still not json"}
    assert third["messages"][3]["role"] == "user" and "not JSON" in third["messages"][3]["content"]


def test_an_answer_whose_items_are_all_malformed_is_retried_and_never_cached(tmp_path, index_dir, scripted_openai):
    broken = json.dumps({"entities": [{"entity": "Solo"}, {"name": "Solo", "type": "other"}]})
    scripted_openai.enqueue_content(broken)
    scripted_openai.enqueue_content(GOOD_SOLO)
    result = _ingest(index_dir, scripted_openai, write(tmp_path / "s.md", SOLO))
    assert (result.llm_calls, result.mentions) == (2, 1)
    assert [r[0] for r in open_db(index_dir).execute("SELECT response FROM llm_cache")] == [GOOD_SOLO]


def test_an_empty_entity_list_is_still_a_valid_answer(tmp_path, index_dir, scripted_openai):
    scripted_openai.enqueue_content(json.dumps({"entities": []}))
    result = _ingest(index_dir, scripted_openai, write(tmp_path / "s.md", SOLO))
    assert (result.llm_calls, result.mentions) == (1, 0) and cached(index_dir) == 1


@pytest.mark.parametrize("reply", [
    {**completion_body(""), "choices": []},
    {**completion_body(""), "choices": [{"index": 0, "finish_reason": "stop", "message": {
        "role": "assistant", "content": None, "refusal": "I can't help with that."}}]},
    completion_body(GOOD_SOLO[:30], finish_reason="length"),
    completion_body(json.dumps({"items": []})),
], ids=["empty_choices", "refusal", "truncated", "schema_violation"])
def test_answers_without_a_usable_extraction_are_retried(tmp_path, index_dir, scripted_openai, reply):
    scripted_openai.enqueue(reply)
    scripted_openai.enqueue_content(GOOD_SOLO)
    result = _ingest(index_dir, scripted_openai, write(tmp_path / "s.md", SOLO))
    assert (result.llm_calls, result.mentions) == (2, 1)
    assert [r[0] for r in open_db(index_dir).execute("SELECT response FROM llm_cache")] == [GOOD_SOLO]


def test_allow_partial_stores_the_rest_and_marks_the_book_partial(tmp_path, index_dir, scripted_openai):
    scripted_openai.responder = failing_on("Prone")
    book = write(tmp_path / "a.md", BOOK_A)
    result = _ingest(index_dir, scripted_openai, book, allow_partial=True)
    assert result.partial == 1 and any("Prone" in w for w in result.warnings)
    db = open_db(index_dir)
    assert db.execute("SELECT partial FROM books").fetchone()[0] == 1
    headings = {r[0] for r in db.execute(
        "SELECT c.heading FROM entity_mentions m JOIN chunks c ON c.id = m.chunk_id WHERE m.source = 'llm'")}
    assert "Chilled" in headings and "Prone" not in headings
    # a partial book is not "unchanged": the next ingest asks for the missing chunk only
    scripted_openai.responder = heading_responder()
    again = _ingest(index_dir, scripted_openai, book)
    assert (again.status, again.llm_calls, again.cache_hits, again.partial) == ("updated", 1, 5, 0)
    assert open_db(index_dir).execute("SELECT partial FROM books").fetchone()[0] == 0
    fresh = tmp_path / "fresh"
    _ingest(fresh, scripted_openai, book)
    assert snapshot(index_dir) == snapshot(fresh)


def test_the_cache_key_includes_the_endpoint(tmp_path, index_dir, scripted_openai):
    scripted_openai.responder = heading_responder()
    book = write(tmp_path / "a.md", BOOK_A)
    _ingest(index_dir, scripted_openai, book)
    with ScriptedOpenAI() as other:
        other.responder = heading_responder()
        result = _ingest(index_dir, other, book, force=True)   # same model name, another server
        assert (result.llm_calls, result.cache_hits) == (6, 0) and len(other.chat_calls) == 6


def test_a_stall_is_retried_at_once_with_the_configured_timeout(tmp_path, index_dir, scripted_openai):
    sleeps = []
    scripted_openai.enqueue(Stall(3.0, completion_body(GOOD_SOLO)))
    scripted_openai.enqueue_content(GOOD_SOLO)
    settings = openai_settings(index_dir, scripted_openai, request_timeout=0.3)
    db = open_db(index_dir, create=True)
    extractor = OpenAIExtractor(settings, load_pack("generic"), cache=db, sleep=sleeps.append)
    result = ingest_paths(IngestJob(db, settings, extractor=extractor), [write(tmp_path / "s.md", SOLO)])[0]
    assert (result.llm_calls, result.mentions) == (2, 1)
    assert sleeps == []   # no backoff after a timeout: it has waited already


def test_cache_prune_removes_answers_no_chunk_uses(cli, tmp_path, index_dir, scripted_openai, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    scripted_openai.responder = heading_responder()
    book = write(tmp_path / "a.md", BOOK_A)
    args = ["--extractor", "openai", "--base-url", scripted_openai.base_url, "--model", "scripted", "--json"]
    assert cli("ingest", book, *args).exit_code == 0
    write(book, BOOK_A.replace("loses 1 Speed", "loses 2 Speed"))   # one section's answer is now unused
    assert cli("ingest", book, *args).exit_code == 0
    assert cached(index_dir) == 7
    dry = json.loads(cli("cache", "prune", "--dry-run", "--json").stdout)
    assert dry == {"removed": 1, "kept": 6, "dry_run": True} and cached(index_dir) == 7
    pruned = json.loads(cli("cache", "prune", "--json").stdout)
    assert pruned == {"removed": 1, "kept": 6, "dry_run": False} and cached(index_dir) == 6
    again = json.loads(cli("ingest", book, *args, "--force").stdout)   # nothing in use was removed
    assert again[0]["llm_calls"] == 0 and again[0]["cache_hits"] == 6


def test_cli_ingest_exits_1_naming_failed_chunks_and_allow_partial(cli, tmp_path, index_dir, scripted_openai, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    scripted_openai.responder = failing_on("Prone")
    book = write(tmp_path / "a.md", BOOK_A)
    args = ["--extractor", "openai", "--base-url", scripted_openai.base_url, "--model", "scripted",
            "--timeout", "5"]
    failed = cli("ingest", book, *args)
    assert failed.exit_code == 1 and failed.stdout == ""
    assert "Core Rules: Core Rules > Conditions > Prone" in failed.stderr and "--allow-partial" in failed.stderr
    partial = cli("ingest", book, *args, "--allow-partial", "--json")
    assert partial.exit_code == 0 and json.loads(partial.stdout)[0]["partial"] == 1
    books = json.loads(cli("books", "--json").stdout)
    assert books[0]["partial"] == 1


def test_a_book_with_failed_chunks_does_not_stop_the_next_book(tmp_path, index_dir, scripted_openai):
    from tests.helpers import BOOK_B

    scripted_openai.responder = failing_on("Prone")
    settings = openai_settings(index_dir, scripted_openai)
    db = open_db(index_dir, create=True)
    extractor = OpenAIExtractor(settings, load_pack("generic"), cache=db, sleep=lambda s: None)
    books = [write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)]
    with pytest.raises(ChunksFailed, match="Prone"):
        ingest_paths(IngestJob(db, settings, extractor=extractor), books)
    assert [r[0] for r in db.execute("SELECT title FROM books")] == ["Grimoire"]
