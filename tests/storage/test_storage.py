"""Entity resolution, GC, atomic replacement, indexed lookups, the schema."""

import pytest

from crossbook.ingest.pipeline import delete_book, ingest_paths
from crossbook.query.lookup import WHERE_ELSE_SQL, cross_book
from crossbook.storage.db import open_db
from tests.conftest import make_job
from tests.fakes import ScriptedExtractor, m
from tests.helpers import BOOK_A, BOOK_B, snapshot, write


def _entity_of(db, chunk_heading, normalized):
    return db.execute(
        "SELECT e.entity_type FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
        " JOIN chunks c ON c.id = m.chunk_id WHERE c.heading = ? AND m.normalized = ?",
        [chunk_heading, normalized]).fetchall()


def test_reference_with_disagreeing_type_attaches_to_the_only_definition(tmp_path, index_dir):
    book = write(tmp_path / "a.md", "# B\n\n## Rapid Strike\nA Rapid Strike is fast.\n\n## Combat\nUse the rapid strike often.\n")
    script = {
        "Rapid Strike": [m("Rapid Strike", "technique", "defines", "A Rapid Strike is fast.")],
        "Combat": [m("rapid strike", "maneuver", "references", "Use the rapid strike often.")],
    }
    ingest_paths(make_job(index_dir, pack="gurps", extractor=ScriptedExtractor(script)), [book])
    db = open_db(index_dir)
    assert _entity_of(db, "Combat", "rapid_strike") == [("technique",)]
    assert db.execute("SELECT count(*) FROM entities WHERE normalized = 'rapid_strike'").fetchone()[0] == 1


def test_two_definitions_of_one_name_stay_distinct_and_references_follow_their_type(tmp_path, index_dir):
    book = write(tmp_path / "a.md", "# B\n\n## Shield\nShield the spell.\n\n## Shield Armor\nA Shield is armor.\n\n"
                 "## Use\nCast Shield. Wear a Shield. Shield is odd.\n")
    script = {
        "Shield": [m("Shield", "spell", "defines", "Shield the spell.")],
        "Shield Armor": [m("Shield", "equipment", "defines", "A Shield is armor.")],
        "Use": [m("Shield", "spell", "references", "Cast Shield."), m("Shield", "equipment", "references", "Wear a Shield."),
                m("Shield", "modifier", "references", "Shield is odd.")],
    }
    ingest_paths(make_job(index_dir, pack="gurps", extractor=ScriptedExtractor(script)), [book])
    db = open_db(index_dir)
    # ambiguous (two definitions, neither 'modifier'): it keeps its own type
    assert sorted(_entity_of(db, "Use", "shield")) == [("equipment",), ("modifier",), ("spell",)]


def test_a_new_definition_re_resolves_earlier_references(tmp_path, index_dir):
    """Resolution is derived: it follows the definitions that exist now, in any book order."""
    a = write(tmp_path / "a.md", "# A\n\n## Use\nUse the Rapid Strike.\n")
    b = write(tmp_path / "b.md", "# B\n\n## Rapid Strike\nA Rapid Strike is fast.\n")
    script = {"Use": [m("Rapid Strike", "maneuver", "references", "Use the Rapid Strike.")],
              "Rapid Strike": [m("Rapid Strike", "technique", "defines", "A Rapid Strike is fast.")]}
    job = make_job(index_dir, pack="gurps", extractor=ScriptedExtractor(script))
    ingest_paths(job, [a])
    assert _entity_of(job.db, "Use", "rapid_strike") == [("maneuver",)]
    ingest_paths(job, [b])
    assert _entity_of(job.db, "Use", "rapid_strike") == [("technique",)]
    delete_book(job.db, "B")
    assert _entity_of(job.db, "Use", "rapid_strike") == [("maneuver",)]
    assert job.db.execute("SELECT count(*) FROM entities").fetchone()[0] == 1


def test_crash_during_reingest_keeps_the_previous_version(tmp_path, index_dir):
    book = write(tmp_path / "a.md", BOOK_A)
    from crossbook.core.packs import load_pack
    from crossbook.extract.rules import RulesExtractor
    job = make_job(index_dir, pack="gurps", extractor=RulesExtractor(load_pack("generic")))
    ingest_paths(job, [book])
    before = snapshot(index_dir)
    write(book, BOOK_A + "\n### Dazed\nA Dazed hero acts last.\n")
    job.extractor = ScriptedExtractor({}, fail_on="Dazed")
    with pytest.raises(KeyboardInterrupt):
        ingest_paths(job, [book])
    assert snapshot(index_dir) == before


def test_failure_inside_the_write_transaction_rolls_back(tmp_path, index_dir, monkeypatch):
    book = write(tmp_path / "a.md", BOOK_A)
    from crossbook.core.packs import load_pack
    from crossbook.extract.rules import RulesExtractor
    job = make_job(index_dir, pack="gurps", extractor=RulesExtractor(load_pack("generic")))
    ingest_paths(job, [book])
    before = snapshot(index_dir)
    write(book, BOOK_A.replace("Prone", "Sprawled"))

    def crash(*args, **kwargs):
        raise RuntimeError("disk on fire")
    from crossbook.changes import derived
    monkeypatch.setattr(derived, "gc_entities", crash)  # the last step of the write
    with pytest.raises(RuntimeError):
        ingest_paths(job, [book])
    assert snapshot(index_dir) == before


def test_delete_book_garbage_collects_entities_and_derived_references(tmp_path, index_dir, cli_json):
    cli_json("ingest", write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B))
    db = open_db(index_dir)
    # Core Rules' "Frost Lance causes it." is a linker reference derived from Grimoire's definition
    assert db.execute("SELECT origin_book FROM entity_mentions WHERE book = 'Core Rules' AND normalized = 'frost_lance'").fetchall() == [("Grimoire",)]
    cli_json("delete-book", "Grimoire")
    assert db.execute("SELECT count(*) FROM entity_mentions WHERE origin_book = 'Grimoire' OR book = 'Grimoire'").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM chunks WHERE book = 'Grimoire'").fetchone()[0] == 0
    orphans = db.execute("SELECT count(*) FROM entities e WHERE NOT EXISTS (SELECT 1 FROM entity_mentions m WHERE m.entity_id = e.id)").fetchone()[0]
    assert orphans == 0


def _plan(db, sql, params):
    return " | ".join(r[3] for r in db.execute("EXPLAIN QUERY PLAN " + sql, params))


def test_where_else_uses_indexes_not_scans(tmp_path, index_dir, cli_json):
    cli_json("ingest", write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B))
    db = open_db(index_dir)
    plan = _plan(db, WHERE_ELSE_SQL, ["frost_lance"])
    # entities by normalized name (idx_entity_name or the UNIQUE(normalized, type) index that
    # leads with the same column), mentions by entity id, chunks by primary key: no scans
    assert "SEARCH e USING INDEX" in plan and "(normalized=?)" in plan, plan
    assert "SEARCH m USING INDEX idx_mention_entity (entity_id=?)" in plan, plan
    assert "SCAN" not in plan, plan


def test_cross_book_returns_other_books_definitions_first(tmp_path, index_dir, cli_json):
    cli_json("ingest", write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B))
    db = open_db(index_dir)
    [chunk_id] = [r[0] for r in db.execute("SELECT id FROM chunks WHERE kind = 'parent' AND heading = 'Frost Lance'")]
    mentions = cross_book(db, [chunk_id])
    assert {x.book for x in mentions} == {"Core Rules"}
    assert mentions[0].mention_type == "defines" and mentions[0].name == "Chilled"
    assert cross_book(db, [chunk_id], exclude_books=("Core Rules",)) == []
    assert cross_book(db, []) == []


def test_schema_after_migrating_a_blank_database(tmp_path):
    db = open_db(tmp_path / "fresh", create=True)
    tables = set(db.table_names())
    assert {"crossbook_meta", "books", "chunks", "entities", "entity_mentions", "llm_cache", "_sqlite_migrations"} <= tables
    assert [c.name for c in db["entities"].columns] == ["id", "name", "normalized", "entity_type"]
    assert [c.name for c in db["entity_mentions"].columns] == [
        "id", "entity_id", "book", "chunk_id", "mention_type", "name", "normalized", "declared_type",
        "context", "source", "origin_book", "rule"]
    indexes = {i.name for t in ("entities", "entity_mentions", "chunks") for i in db[t].indexes}
    assert {"idx_entity_name", "idx_mention_entity", "idx_mention_book", "idx_mention_chunk"} <= indexes
    # m002_relationships
    assert {"entity_relationships", "relation_claims", "relation_reviews", "relation_types", "relation_svo_chunks"} <= tables
    assert [c.name for c in db["entity_relationships"].columns] == [
        "id", "source_id", "target_id", "relation_type", "mapped_from", "book", "chunk_id", "source_name",
        "target_name", "evidence", "confidence", "polarity", "implicit", "status", "status_reason",
        "review_state", "extractor", "claims", "fingerprint"]
    assert [c.name for c in db["relation_claims"].columns] == [
        "id", "book", "chunk_id", "ordinal", "source_name", "source_normalized", "source_type", "target_name",
        "target_normalized", "target_type", "relation_type", "evidence", "confidence", "polarity", "implicit",
        "extractor", "status"]
    assert "relation_drop_reasons" in {c.name for c in db["books"].columns}
    assert "known" in {c.name for c in db["llm_cache"].columns}
    assert {"idx_rel_source", "idx_rel_target", "idx_rel_type", "idx_rel_book", "idx_claim_book", "idx_claim_chunk"} <= {
        i.name for t in ("entity_relationships", "relation_claims") for i in db[t].indexes}
    assert db.view_names() == ["entity_relationships_view"]
    assert {t.name for t in db.triggers} == {"entity_relationships_no_inverse_insert", "entity_relationships_no_inverse_update",
                                             "link_chunks_delete"}
    # m004_rules_definitions: non-heading definition sources, and aliases
    assert [c.name for c in db["entity_aliases"].columns] == [
        "id", "book", "chunk_id", "alias", "normalized", "canonical", "entity_type"]
    assert "'glossary', 'deflist', 'table'" in db["entity_mentions"].schema
    assert {"idx_alias_normalized", "idx_alias_canonical"} <= {i.name for i in db["entity_aliases"].indexes}
    # m006_incremental_relink: the indexes an incremental refresh finds its chunks and targets with
    assert {"link_chunks", "link_words", "book_words", "shelf_words", "link_targets", "link_names"} <= set(db.table_names())
    assert [c.name for c in db["link_targets"].columns] == ["normalized", "entity_type", "names", "books", "category"]
    assert {"idx_mention_normalized", "idx_claim_source", "idx_claim_target", "idx_link_names_token"} <= {
        i.name for t in ("entity_mentions", "relation_claims", "link_names") for i in db[t].indexes}
    # m008_situating_context: the model's sentences about a parent chunk, apart from mentions
    assert [c.name for c in db["situating_contexts"].columns] == ["chunk_id", "context"]
    assert [(k.column, k.other_table, k.other_column) for k in db["situating_contexts"].foreign_keys] == [
        ("chunk_id", "chunks", "id")]
    assert "ON DELETE CASCADE" in db["situating_contexts"].schema
    assert [r[0] for r in db.execute("SELECT name FROM _sqlite_migrations ORDER BY id")] == [
        "m001_initial", "m002_relationships", "m003_relationship_self_loops", "m004_rules_definitions",
        "m004_llm_partial", "m005_book_identity", "m006_incremental_relink", "m007_llm_batches",
        "m008_situating_context", "m009_foreign_key_indexes", "m010_source_locations", "m011_note_marks",
        "m012_pages_without_text", "m013_book_file_stamp", "m014_mention_rule", "m015_book_genres",
        "m016_rule_vetoes"]
    # m016_rule_vetoes: the candidates a rule dropped, for crossbook explain, gone with their chunk
    assert [c.name for c in db["rule_vetoes"].columns] == ["book", "chunk_id", "stage", "name", "normalized", "rule"]
    assert {(k.column, k.other_table) for k in db["rule_vetoes"].foreign_keys} == {("book", "books"), ("chunk_id", "chunks")}
    assert {"idx_rule_vetoes_normalized", "idx_rule_vetoes_chunk"} <= {i.name for i in db["rule_vetoes"].indexes}
    # m014_mention_rule: every mention names the extraction rule that made it
    assert db["entity_mentions"].columns_dict["rule"] is str
    # m013_book_file_stamp: what lets an unchanged book be skipped before it is read
    assert {"file_size", "file_mtime_ns", "read_title"} <= {c.name for c in db["books"].columns}
    # m010_source_locations: each book's format, where each chunk is in its source
    assert "format" in {c.name for c in db["books"].columns}
    assert {"page_start", "page_end", "source_file"} <= {c.name for c in db["chunks"].columns}
    # m005_book_identity: a book's source file is its identity
    assert "source" in {c.name for c in db["books"].columns}
    assert "idx_books_source" in {i.name for i in db["books"].indexes}
    # m007_llm_batches: Batch API batches and their requests (custom_id = the LLM cache key)
    assert [c.name for c in db["llm_batches"].columns] == [
        "id", "endpoint", "model", "prompt_version", "input_file_id", "status", "submitted_at", "checked_at",
        "collected_at"]
    assert [c.name for c in db["llm_batch_requests"].columns] == [
        "batch_id", "custom_id", "book", "path", "chunk_id", "section", "known", "state", "error"]
    assert "idx_llm_batch_requests_key" in {i.name for i in db["llm_batch_requests"].indexes}
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # reopening applies nothing twice
    again = open_db(tmp_path / "fresh")
    assert again.execute("SELECT count(*) FROM _sqlite_migrations").fetchone()[0] == len(list(db.query("SELECT * FROM _sqlite_migrations")))


def test_every_foreign_key_is_indexed(tmp_path):
    """A child column without an index is scanned once per deleted parent row: deleting a
    book's thousands of chunks would scan the whole child table thousands of times."""
    db = open_db(tmp_path / "index", create=True)
    unindexed = []
    for table in db.table_names():
        leading = {c.columns[0] for c in db[table].indexes} | set(db[table].pks)
        for fk in db.execute(f"PRAGMA foreign_key_list({table})").fetchall():
            if fk[3] not in leading:
                unindexed.append(f"{table}.{fk[3]}")
    assert unindexed == []
