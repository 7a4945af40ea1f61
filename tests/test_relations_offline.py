"""The offline path's side in the derivation: spaCy candidates are derived per chunk from its
text and entities (a fake ``candidate_relations`` stands in for index/relations/svo.py)."""


import pytest

from index.pipeline import delete_book, ingest_paths
from index.relations import derive
from index.relations.query import list_relationships
from tests.helpers import BOOK_A, BOOK_B, write
from tests.conftest import make_job


def test_rules_extractor_derives_spacy_relationships_order_independently(tmp_path, fake_svo):
    a, b = write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)
    one = make_job(tmp_path / "one")
    ingest_paths(one, [a])
    assert list_relationships(one.db) == []  # Frost Lance is not an entity yet: no pair to parse
    ingest_paths(one, [b])
    two = make_job(tmp_path / "two")
    ingest_paths(two, [b, a])
    found = {(r["source"], r["relation_type"], r["target"], r["book"], r["extractor"]) for r in list_relationships(one.db)}
    assert found == {(r["source"], r["relation_type"], r["target"], r["book"], r["extractor"]) for r in list_relationships(two.db)}
    assert ("Frost Lance", "inflicts", "Chilled", "Core Rules", "spacy") in found   # CAUSES -> inflicts (rulebook alias)
    assert ("Frost Lance", "inflicts", "Chilled", "Grimoire", "spacy") in found     # "It leaves the target Chilled."


def test_only_chunks_whose_text_or_entities_changed_are_parsed_again(tmp_path, fake_svo):
    a, b = write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)
    job = make_job(tmp_path / "i")
    ingest_paths(job, [a, b])
    fake_svo.calls.clear()
    ingest_paths(job, [b], force=True)  # Grimoire's chunks are new rows; Core Rules' are unchanged
    parsed = len(fake_svo.calls)
    grimoire_pairs = job.db.execute(
        "SELECT count(*) FROM (SELECT m.chunk_id FROM entity_mentions m WHERE m.book = 'Grimoire'"
        " GROUP BY m.chunk_id HAVING count(DISTINCT m.entity_id) >= 2)").fetchone()[0]
    assert parsed == grimoire_pairs and parsed > 0
    fake_svo.calls.clear()
    delete_book(job.db, "Grimoire")  # Core Rules' chunks lose Frost Lance: parsed again (< 2 entities: no call)
    assert fake_svo.calls == [] or all(len(c) >= 2 for c in fake_svo.calls)
    assert list_relationships(job.db) == []
    assert job.db.execute("SELECT count(*) FROM relation_claims WHERE extractor = 'spacy'").fetchone()[0] == 0


def test_spacy_claims_go_when_relations_are_off_or_svo_is_missing(tmp_path, fake_svo, monkeypatch):
    a, b = write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)
    job = make_job(tmp_path / "i")
    ingest_paths(job, [a, b])
    assert job.db.execute("SELECT count(*) FROM relation_claims WHERE extractor = 'spacy'").fetchone()[0] > 0
    off = make_job(tmp_path / "i", relations="off")
    ingest_paths(off, [a], force=True)
    assert off.db.execute("SELECT count(*) FROM relation_claims").fetchone()[0] == 0
    assert list_relationships(off.db) == []
    monkeypatch.setattr(derive, "load_svo", lambda: None)
    missing = make_job(tmp_path / "j")
    ingest_paths(missing, [a, b])
    assert missing.db.execute("SELECT count(*) FROM relation_claims").fetchone()[0] == 0


def test_relations_mode_auto_and_unknown():
    assert derive.effective_mode("auto", "rules") == "spacy"
    assert derive.effective_mode("auto", "openai") == "llm"
    assert derive.effective_mode("off", "openai") == "off"
    from index.errors import ConfigError
    with pytest.raises(ConfigError, match="unknown relations mode 'graph'"):
        derive.effective_mode("graph", "rules")
