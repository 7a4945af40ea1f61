"""Relationship refinement: a model confirms and types the offline relationship candidates,
one request per parent chunk that has candidates, cached; a model failure loses nothing."""

from __future__ import annotations

import json
import re

import pytest

from crossbook.core.models import RawRelation
from crossbook.ingest.pipeline import IngestJob, delete_book, index_refiner, ingest_paths
from crossbook.relations.refine_prompt import RefineParseError, parse_refinement
from crossbook.storage.db import open_db
from tests.conftest import SAMPLE
from tests.fakes import completion_body
from tests.helpers import openai_settings

BOOKS = [SAMPLE / "core_rules.md", SAMPLE / "grimoire.md", SAMPLE / "bestiary.md"]
CANDIDATE = re.compile(r"^(\d+)\. (.+?) --(\S+)--> (.+?) \| sentence: ", re.MULTILINE)


TYPES = {"casts": "casts", "cast": "casts", "inflicts": "inflicts", "inflict": "inflicts",
         "counters": "counters", "counter": "counters", "requires": "requires", "require": "requires",
         "modifies": "modifies", "wields": "wields", "variant_of": "variant_of", "part_of": "part_of"}


def judge(request):
    """Keep what the parser proposed when its verb is an ontology type; reject custom verbs."""
    user = request["messages"][-1]["content"]
    verdicts = []
    for number, _source, relation_type, _target in CANDIDATE.findall(user):
        known = TYPES.get(relation_type.lower())
        verdicts.append({"candidate": int(number), "keep": known is not None,
                         "relation_type": known or "none", "swap": False})
    return 200, {}, completion_body(json.dumps({"verdicts": verdicts}))


def refine_settings(index_dir, server):
    return openai_settings(index_dir, server, extractor="rules", relations="refine",
                           pack=str(SAMPLE / "emberfall.pack.toml"))


def edges(db):
    return sorted(db.execute(
        "SELECT s.name, r.relation_type, t.name, r.extractor FROM entity_relationships r"
        " JOIN entities s ON s.id = r.source_id JOIN entities t ON t.id = r.target_id").fetchall())


def test_refine_makes_one_call_per_chunk_with_candidates_and_caches(tmp_path, scripted_openai):
    scripted_openai.responder = judge
    db = open_db(tmp_path / "idx", create=True)
    job = IngestJob(db, refine_settings(tmp_path / "idx", scripted_openai))
    results = ingest_paths(job, BOOKS)
    calls = len(scripted_openai.chat_calls)
    with_candidates = db.execute(
        "SELECT count(DISTINCT chunk_id) FROM relation_claims WHERE extractor = 'llm-refine'").fetchone()[0]
    assert calls == sum(r.refine_calls for r in results) > 0
    assert with_candidates <= calls
    stored = edges(db)
    assert stored and {e[3] for e in stored} == {"llm-refine"}
    assert not any(e[1].startswith("custom:") for e in stored)  # the model rejected the custom verbs
    # an unchanged re-ingest asks nothing; a forced one is answered from the cache
    ingest_paths(job, BOOKS, force=True)
    assert len(scripted_openai.chat_calls) == calls
    assert edges(db) == stored


def test_a_failing_model_keeps_the_offline_candidates(tmp_path, scripted_openai):
    scripted_openai.responder = lambda request: (200, {}, completion_body("not json at all"))
    db = open_db(tmp_path / "idx", create=True)
    job = IngestJob(db, refine_settings(tmp_path / "idx", scripted_openai))
    ingest_paths(job, BOOKS)
    assert job.refiner.failed > 0
    extractors = {e[3] for e in edges(db)}
    assert extractors and extractors <= {"spacy", "pattern"}  # nothing lost, nothing refined


def test_delete_book_in_refine_mode_re_derives_with_the_refiner(tmp_path, scripted_openai):
    scripted_openai.responder = judge
    settings = refine_settings(tmp_path / "idx", scripted_openai)
    db = open_db(tmp_path / "idx", create=True)
    ingest_paths(IngestJob(db, settings), BOOKS)
    refiner = index_refiner(db, settings)
    assert refiner is not None
    delete_book(db, "Bestiary of the Shattered Vale", refiner=refiner)
    assert {e[3] for e in edges(db)} == {"llm-refine"}


def test_parse_refinement_keeps_types_swaps_and_rejects():
    candidates = [
        RawRelation("Frost Wyrm", "Frost Lance", "CASTS", "The Frost Wyrm casts Frost Lance.", 0.7, extractor="spacy"),
        RawRelation("Chilled", "Rimefall", "inflicts", "Rimefall inflicts Chilled.", 0.7, extractor="pattern"),
        RawRelation("Imp", "Surge", "WITNESSES", "An Imp witnesses a Surge.", 0.7, extractor="spacy"),
    ]
    answer = json.dumps({"verdicts": [
        {"candidate": 1, "keep": True, "relation_type": "casts", "swap": False},
        {"candidate": 2, "keep": True, "relation_type": "inflicts", "swap": True},
        {"candidate": 3, "keep": False, "relation_type": "none", "swap": False},
    ]})
    kept = parse_refinement(answer, candidates, ["casts", "inflicts"])
    assert [(k.source_name, k.relation_type, k.target_name, k.extractor) for k in kept] == [
        ("Frost Wyrm", "casts", "Frost Lance", "llm-refine"), ("Rimefall", "inflicts", "Chilled", "llm-refine")]
    assert kept[1].evidence == "Rimefall inflicts Chilled."  # the evidence is never the model's
    for bad in ("nope", '{"verdicts": [{"candidate": 9, "keep": true, "relation_type": "casts", "swap": false}]}',
                '{"verdicts": [{"candidate": 1, "keep": true, "relation_type": "befriends", "swap": false}]}'):
        with pytest.raises(RefineParseError):
            parse_refinement(bad, candidates, ["casts", "inflicts"])


def test_refine_without_a_model_endpoint_is_a_one_line_error_that_creates_nothing(cli, tmp_path):
    book = tmp_path / "a.md"
    book.write_text("# A\n\n## B\n\nText.\n", encoding="utf-8")
    result = cli("--index", tmp_path / "fresh", "ingest", book, "--relations", "refine")
    assert result.exit_code == 1 and result.stdout == ""
    assert "--relations refine needs OPENAI_API_KEY" in result.stderr and "use --relations spacy" in result.stderr
    assert not (tmp_path / "fresh").exists()
