"""Relationships from the OpenAI extractor: still one request per parent chunk, known
entities by id, the cache, and the pure parse of relationship items."""

import json

from crossbook.extract.parse import parse_extraction
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.query.lookup import list_books
from crossbook.query.review import list_relationships
from crossbook.storage.db import open_db
from tests.fakes import passage_of, relation, relations_responder
from tests.helpers import BOOK_A, BOOK_B, openai_settings, snapshot, write


def _ingest(index_dir, server, path, force=False):
    job = IngestJob(open_db(index_dir, create=True), openai_settings(index_dir, server))
    return ingest_paths(job, [path], force=force)[0]


def test_relationships_come_in_the_same_single_request(tmp_path, index_dir, scripted_openai):
    scripted_openai.responder = relations_responder
    result = _ingest(index_dir, scripted_openai, write(tmp_path / "b.md", BOOK_B))
    assert result.llm_calls == result.parents == len(scripted_openai.chat_calls)
    request = scripted_openai.chat_calls[0]
    schema = request["response_format"]["json_schema"]["schema"]
    assert schema["required"] == ["situating_context", "entities", "relationships"]
    assert set(schema["properties"]["relationships"]["items"]["required"]) >= {
        "source_name", "source_id", "relation_type", "evidence", "confidence", "polarity", "implicit"}
    prompt = request["messages"][-1]["content"]
    assert "- casts (inverse: cast_by):" in prompt and "- counters (inverse: countered_by):" in prompt
    # Chilled is defined in the other book: held as pending until it arrives
    assert list_relationships(open_db(index_dir)) == []
    [pending] = list_relationships(open_db(index_dir), status="pending_entities")
    assert (pending["source"], pending["relation_type"], pending["target"]) == ("Chilled", "inflicted_by", "Frost Lance")
    _ingest(index_dir, scripted_openai, write(tmp_path / "a.md", BOOK_A))
    stored = [r for r in list_relationships(open_db(index_dir)) if r["book"] == "Grimoire"]
    assert [(r["source"], r["relation_type"], r["target"], r["mapped_from"]) for r in stored] == [
        ("Frost Lance", "inflicts", "Chilled", "inflicted_by")]


def test_known_entities_by_id_only_from_their_prompt_and_the_cache_keeps_them(tmp_path, index_dir, scripted_openai):
    scripted_openai.responder = relations_responder
    _ingest(index_dir, scripted_openai, write(tmp_path / "b.md", BOOK_B))
    book_a = write(tmp_path / "a.md", BOOK_A)
    first = _ingest(index_dir, scripted_openai, book_a)
    db = open_db(index_dir)
    frost_lance = db.execute("SELECT id FROM entities WHERE normalized = 'frost_lance'").fetchone()[0]
    chilled_prompt = next(c["messages"][-1]["content"] for c in scripted_openai.chat_calls
                          if "Frost Lance causes it." in passage_of(c))
    assert f"- [{frost_lance}] Frost Lance (other)" in chilled_prompt
    by_book = {(r["source"], r["relation_type"], r["target"], r["book"]) for r in list_relationships(db)}
    assert ("Frost Lance", "inflicts", "Chilled", "Core Rules") in by_book
    assert first.dropped_relations == 2
    assert {b.title: b.relation_drop_reasons for b in list_books(db)}["Core Rules"] == {
        "malformed_relation": 1, "unknown_entity_id": 1}
    before = snapshot(index_dir)
    calls = len(scripted_openai.chat_calls)
    again = _ingest(index_dir, scripted_openai, book_a, force=True)
    assert (again.llm_calls, again.cache_hits) == (0, again.parents) and len(scripted_openai.chat_calls) == calls
    assert snapshot(index_dir) == before  # the cached answer's id still means Frost Lance


def test_the_known_list_is_not_part_of_the_cache_key(tmp_path, index_dir, scripted_openai):
    """A book ingested first sees no known entities; re-ingesting it after others makes no call."""
    scripted_openai.responder = relations_responder
    book_a = write(tmp_path / "a.md", BOOK_A)
    first = _ingest(index_dir, scripted_openai, book_a)
    _ingest(index_dir, scripted_openai, write(tmp_path / "b.md", BOOK_B))
    again = _ingest(index_dir, scripted_openai, book_a, force=True)
    assert first.llm_calls == first.parents and again.llm_calls == 0
    # the name-based claim of the first answer resolved once Grimoire defined Frost Lance
    rows = {(r["source"], r["relation_type"], r["target"], r["book"]) for r in list_relationships(open_db(index_dir))}
    assert ("Frost Lance", "inflicts", "Chilled", "Core Rules") in rows


def test_parse_relationships_from_fixture_strings():
    good = relation("Frost Lance", 7, "CASTS", "Frost Lance hits.")
    raw = json.dumps({"entities": [], "relationships": [
        good, {**good, "polarity": "perhaps"}, {**good, "confidence": 1.5}, {**good, "source_name": " "},
        {**good, "evidence": ""}, "not an object",
    ]})
    extraction = parse_extraction(raw, "c1")
    [rel] = extraction.relationships
    assert (rel.source_name, rel.target_id, rel.target_name, rel.relation_type, rel.extractor) == (
        "Frost Lance", 7, None, "CASTS", "llm")
    assert extraction.dropped_relations == {"malformed_relation": 5}
    assert extraction.dropped == {}
    # an answer without relationships (or with a broken list) still parses: its entities count
    assert parse_extraction('{"entities": []}', "c").relationships == []
    assert parse_extraction('{"entities": [], "relationships": {}}', "c").dropped_relations == {"malformed_relation": 1}
