"""Relationships through the ingest pipeline with scripted extractor output: normalization,
validation, two-phase resolution, drops, dedup, GC, the inverse-duplicate trigger, review."""

import sqlite3

import pytest

from crossbook.core.config import Settings
from crossbook.core.models import ChunkExtraction, RawMention, RawRelation
from crossbook.extract import ExtractionRun
from crossbook.ingest.pipeline import IngestJob, delete_book, ingest_paths
from crossbook.query.lookup import entity_detail, list_books
from crossbook.query.review import export_graphml, list_relationships, review
from crossbook.storage.db import open_db
from tests.helpers import write

PACK = """
name = "saga"
ontology = ["rulebook", "ttrpg"]
[[entity_types]]
name = "spell"
[[entity_types]]
name = "creature"
[[entity_types]]
name = "condition"
[[entity_types]]
name = "npc"
[[entity_types]]
name = "item"
[[entity_types]]
name = "other"
"""

CORE = """# Core

## Chilled
A Chilled creature is slow. Chilled is inflicted by Frost Lance.

## Frost Wyrm
The Frost Wyrm casts Frost Lance at intruders. The Frost Wyrm hurls Frost Lance again. It casts Deep Freeze when wounded.
"""

GRIMOIRE = """# Grimoire

## Frost Lance
Frost Lance inflicts Chilled on the target.

## Deep Freeze
Deep Freeze requires Frost Lance.
"""


def m(name, etype, kind="references", context=None):
    return RawMention(name, etype, kind, context or name, "llm")


def rel(source, target, relation_type, evidence, **kw):
    return RawRelation(source, target, relation_type, evidence, **kw)


SCRIPT = {
    "Chilled": ([m("Chilled", "condition", "defines", "A Chilled creature is slow."),
                 m("Frost Lance", "spell", context="Chilled is inflicted by Frost Lance.")],
                [rel("Chilled", "Frost Lance", "inflicted_by", "Chilled is inflicted by Frost Lance.")]),
    "Frost Wyrm": ([m("Frost Wyrm", "creature", "defines", "The Frost Wyrm casts Frost Lance at intruders."),
                    m("Frost Lance", "spell", context="The Frost Wyrm casts Frost Lance at intruders.")],
                   [rel("Frost Wyrm", "Frost Lance", "casts", "The Frost Wyrm casts Frost Lance at intruders."),
                    rel("Frost Wyrm", "Frost Lance", "HURLS", "The Frost Wyrm hurls Frost Lance again.", confidence=0.9),
                    rel("Frost Wyrm", "Deep Freeze", "casts", "It casts Deep Freeze when wounded.")]),
    "Frost Lance": ([m("Frost Lance", "spell", "defines", "Frost Lance inflicts Chilled on the target."),
                     m("Chilled", "condition", context="Frost Lance inflicts Chilled on the target.")],
                    [rel("Frost Lance", "Chilled", "inflicts", "Frost Lance inflicts Chilled on the target.")]),
    "Deep Freeze": ([m("Deep Freeze", "spell", "defines", "Deep Freeze requires Frost Lance.")],
                    [rel("Deep Freeze", "Frost Lance", "REQUIRES", "Deep Freeze requires Frost Lance.")]),
}


class Scripted:
    """An extractor answering from {heading: ([RawMention], [RawRelation])}."""

    name = "scripted"
    model = None

    def __init__(self, script):
        self.script = script
        self.known = []

    def extract(self, book, parents, known=None, progress=None):
        self.known.append(known)
        return ExtractionRun([
            ChunkExtraction(p.id, list(self.script.get(p.heading, ([], []))[0]),
                            list(self.script.get(p.heading, ([], []))[1]))
            for p in parents
        ])


@pytest.fixture
def shelf(tmp_path, index_dir):
    pack = write(tmp_path / "saga.toml", PACK)
    warnings = []
    job = IngestJob(open_db(index_dir, create=True), Settings(index_dir=index_dir, pack=str(pack)),
                 extractor=Scripted(SCRIPT), warn=warnings.append)
    books = {"Core": write(tmp_path / "core.md", CORE), "Grimoire": write(tmp_path / "grimoire.md", GRIMOIRE)}
    return job, books, warnings


def rows(db, **filters):
    return [(r["source"], r["relation_type"], r["target"], r["book"], r["status"]) for r in list_relationships(db, **filters)]


def test_inverse_types_are_stored_flipped_and_duplicates_in_a_chunk_merge(shelf):
    job, books, _ = shelf
    ingest_paths(job, [books["Core"]])
    stored = {(r["source"], r["relation_type"], r["target"]): r for r in list_relationships(job.db)}
    flipped = stored[("Frost Lance", "inflicts", "Chilled")]
    assert flipped["mapped_from"] == "inflicted_by" and flipped["status"] == "ready"
    casts = stored[("Frost Wyrm", "casts", "Frost Lance")]
    assert casts["claims"] == 2 and casts["confidence"] == 1.0  # "casts" and "HURLS" in one chunk
    assert ("Chilled", "inflicted_by", "Frost Lance") not in stored
    # the view shows both perspectives with the inverse name
    view = job.db.execute(
        "SELECT e.name, v.relation_type, v.direction FROM entity_relationships_view v JOIN entities e"
        " ON e.id = v.entity_id WHERE v.relationship_id = ? ORDER BY v.direction", [flipped["id"]]).fetchall()
    assert view == [("Chilled", "inflicted_by", "incoming"), ("Frost Lance", "inflicts", "outgoing")]


def test_unresolved_endpoint_is_dropped_with_the_warning_and_resolves_when_defined(shelf):
    job, books, warnings = shelf
    [result] = ingest_paths(job, [books["Core"]])
    assert warnings == ["Skipping relationship casts from Frost Wyrm to Deep Freeze: One or both entities not found."]
    assert result.dropped_relations == 1
    assert ("Frost Wyrm", "casts", "Deep Freeze", "Core", "ready") not in rows(job.db)
    info = {b.title: b for b in list_books(job.db)}["Core"]
    assert info.relation_drop_reasons == {"unresolved_endpoint": 1} and info.dropped_relations == 1
    assert rows(job.db, status="pending_entities") == [("Frost Wyrm", "casts", "Deep Freeze", "Core", "pending_entities")]
    # a book defining Deep Freeze arrives: the held claim becomes an edge (any ingest order agrees)
    ingest_paths(job, [books["Grimoire"]])
    assert ("Frost Wyrm", "casts", "Deep Freeze", "Core", "ready") in rows(job.db)
    assert list_books(job.db)[0].relation_drop_reasons == {}
    # and it goes back to pending when that definition is deleted (GC of its endpoint)
    delete_book(job.db, "Grimoire")
    assert ("Frost Wyrm", "casts", "Deep Freeze", "Core", "ready") not in rows(job.db)
    assert len(rows(job.db, status="pending_entities")) == 1


def test_hallucinated_evidence_and_bad_items_are_dropped_and_counted(tmp_path, index_dir):
    script = {"Solo": ([m("Solo", "npc", "defines", "Solo meets Duo.")], [
        rel("Solo", "Duo", "knows", "Solo and Duo were married."),     # not in the chunk
        rel("Solo", None, "knows", "Solo meets Duo."),                 # no target
        rel("Solo", "Duo", "knows", "Solo meets Duo.", polarity="maybe"),
        RawRelation(None, "Solo", "knows", "Solo meets Duo.", source_id=999),  # id never offered
    ])}
    job = IngestJob(open_db(index_dir, create=True), Settings(index_dir=index_dir, pack=str(write(tmp_path / "p.toml", PACK))),
                 extractor=Scripted(script))
    [result] = ingest_paths(job, [write(tmp_path / "s.md", "# S\n\n## Solo\nSolo meets Duo.\n")])
    assert result.relation_claims == 0 and result.dropped_relations == 4
    reasons = list_books(job.db)[0].relation_drop_reasons
    assert reasons == {"hallucinated_evidence": 1, "malformed_relation": 2, "unknown_entity_id": 1}


def test_symmetric_types_are_stored_once(tmp_path, index_dir):
    text = "# S\n\n## Ari\nAri is the enemy of Bo. Bo hates Ari.\n\n## Bo\nBo and Ari are foes: Bo is the enemy of Ari.\n"
    script = {
        "Ari": ([m("Ari", "npc", "defines"), m("Bo", "npc")],
                [rel("Bo", "Ari", "enemy_of", "Ari is the enemy of Bo."), rel("Bo", "Ari", "hates", "Bo hates Ari.")]),
        "Bo": ([m("Bo", "npc", "defines"), m("Ari", "npc")], [rel("Bo", "Ari", "ENEMY_OF", "Bo is the enemy of Ari.")]),
    }
    job = IngestJob(open_db(index_dir, create=True), Settings(index_dir=index_dir, pack=str(write(tmp_path / "p.toml", PACK))),
                 extractor=Scripted(script))
    ingest_paths(job, [write(tmp_path / "s.md", text)])
    stored = list_relationships(job.db)
    # one row per chunk, always in the same endpoint order, the two claims of the first chunk merged
    assert [(r["source"], r["relation_type"], r["target"], r["claims"]) for r in stored] == [
        ("Ari", "enemy_of", "Bo", 2), ("Ari", "enemy_of", "Bo", 1)]
    related = entity_detail(job.db, "Bo")["entities"][0]["related"]
    assert [(r["entity"]["name"], r["relationship"], r["count"]) for r in related] == [("Ari", "enemy_of", 2)]


def test_custom_types_and_type_pair_violations_are_kept_for_review(tmp_path, index_dir):
    text = "# S\n\n## Ari\nAri sings to the Ember Blade. The Ember Blade owns Ari. Ari owns the Ember Blade.\n"
    script = {"Ari": ([m("Ari", "npc", "defines"), m("Ember Blade", "item")], [
        rel("Ari", "Ember Blade", "SINGS_TO", "Ari sings to the Ember Blade."),
        rel("Ember Blade", "Ari", "owns", "The Ember Blade owns Ari."),
        rel("Ari", "Ember Blade", "owns", "Ari owns the Ember Blade."),
    ])}
    job = IngestJob(open_db(index_dir, create=True), Settings(index_dir=index_dir, pack=str(write(tmp_path / "p.toml", PACK))),
                 extractor=Scripted(script))
    ingest_paths(job, [write(tmp_path / "s.md", text)])
    stored = {(r["source"], r["relation_type"], r["target"]): (r["status"], r["status_reason"]) for r in list_relationships(job.db)}
    assert stored == {
        ("Ari", "custom:sings_to", "Ember Blade"): ("ready", None),
        ("Ember Blade", "owns", "Ari"): ("invalid", "invalid_type_pair"),
        ("Ari", "owns", "Ember Blade"): ("ready", None),
    }
    assert [r[1] for r in rows(job.db, status="invalid")] == ["owns"]


def test_dedup_across_chunks_one_row_per_chunk_one_edge_in_the_graph(shelf):
    job, books, _ = shelf
    ingest_paths(job, [books["Core"], books["Grimoire"]])
    inflicts = [r for r in rows(job.db, relation_type="inflicts")]
    assert inflicts == [("Frost Lance", "inflicts", "Chilled", "Core", "ready"),
                        ("Frost Lance", "inflicts", "Chilled", "Grimoire", "ready")]
    related = entity_detail(job.db, "Chilled")["entities"][0]["related"]
    assert {(r["entity"]["name"], r["relationship"], r["reads_as"], r["direction"], r["count"]) for r in related} == {
        ("Frost Lance", "inflicts", "inflicted_by", "incoming", 2)}
    text, counts = export_graphml(job.db)
    assert counts["edges"] == len({(r[0], r[1], r[2]) for r in rows(job.db)}) < len(rows(job.db))


def test_delete_and_reingest_garbage_collect_relationships(shelf):
    job, books, _ = shelf
    ingest_paths(job, [books["Core"], books["Grimoire"]])
    assert ("Deep Freeze", "requires", "Frost Lance", "Grimoire", "ready") in rows(job.db)
    # re-ingest with the Deep Freeze section rewritten: its relationship goes
    write(books["Grimoire"], GRIMOIRE.replace("Deep Freeze requires Frost Lance.", "Deep Freeze is cold."))
    job.extractor.script = {**SCRIPT, "Deep Freeze": ([m("Deep Freeze", "spell", "defines", "Deep Freeze is cold.")], [])}
    ingest_paths(job, [books["Grimoire"]])
    assert [r for r in rows(job.db) if r[1] == "requires"] == []
    delete_book(job.db, "Grimoire")
    assert {r[3] for r in rows(job.db)} == {"Core"}
    orphans = job.db.execute(
        "SELECT count(*) FROM entity_relationships r WHERE NOT EXISTS"
        " (SELECT 1 FROM entity_mentions m WHERE m.entity_id IN (r.source_id, r.target_id))").fetchone()[0]
    assert orphans == 0
    delete_book(job.db, "Core")
    assert job.db.execute("SELECT count(*) FROM entity_relationships").fetchone()[0] == 0
    assert job.db.execute("SELECT count(*) FROM relation_claims").fetchone()[0] == 0


def test_trigger_rejects_inverse_duplicates(shelf):
    job, books, _ = shelf
    ingest_paths(job, [books["Core"], books["Grimoire"]])
    db = job.db
    source_id, target_id, chunk_id = db.execute(
        "SELECT source_id, target_id, chunk_id FROM entity_relationships WHERE relation_type = 'inflicts' LIMIT 1").fetchone()

    def insert(relation_type, source, target):
        db.execute(
            "INSERT INTO entity_relationships (source_id, target_id, relation_type, book, chunk_id, source_name,"
            " target_name, evidence, confidence, polarity, status, extractor, fingerprint)"
            " VALUES (?, ?, ?, 'Core', ?, 'x', 'y', 'e', 1.0, 'asserted', 'ready', 'test', 'fp')",
            [source, target, relation_type, chunk_id])

    with pytest.raises(sqlite3.IntegrityError, match="inverse duplicate"):
        insert("inflicted_by", target_id, source_id)
    insert("counters", target_id, source_id)  # a different relationship the other way is fine
    # a symmetric type: its reverse is its own inverse duplicate
    insert("enemy_of", source_id, target_id)
    with pytest.raises(sqlite3.IntegrityError, match="inverse duplicate"):
        insert("enemy_of", target_id, source_id)
    with pytest.raises(sqlite3.IntegrityError):  # and the plain duplicate hits the UNIQUE dedup key
        insert("counters", target_id, source_id)
    # a self-relationship stated in two chunks is not its own inverse duplicate
    insert("enemy_of", source_id, source_id)
    chunk_id = db.execute("SELECT id FROM chunks WHERE kind = 'parent' AND id != ? LIMIT 1", [chunk_id]).fetchone()[0]
    insert("enemy_of", source_id, source_id)


def test_review_decisions_survive_re_derivation(shelf):
    job, books, _ = shelf
    ingest_paths(job, [books["Core"], books["Grimoire"]])
    by_key = {(r["source"], r["relation_type"], r["target"], r["book"]): r["id"] for r in list_relationships(job.db)}
    rejected = review(job.db, by_key[("Frost Lance", "inflicts", "Chilled", "Core")], "reject")
    assert rejected["review_state"] == "rejected"
    adjusted = review(job.db, by_key[("Deep Freeze", "requires", "Frost Lance", "Grimoire")], "adjust",
                      relation_type="variant_of", flip=True)
    assert (adjusted["source"], adjusted["relation_type"], adjusted["target"], adjusted["review_state"]) == (
        "Frost Lance", "variant_of", "Deep Freeze", "adjusted")
    accepted = review(job.db, by_key[("Frost Wyrm", "casts", "Frost Lance", "Core")], "accept")
    # a forced re-ingest of both books re-derives everything: the decisions are applied again
    ingest_paths(job, [books["Core"], books["Grimoire"]], force=True)
    states = {(r["source"], r["relation_type"], r["target"], r["book"]): r["review_state"] for r in list_relationships(job.db)}
    assert states[("Frost Lance", "inflicts", "Chilled", "Core")] == "rejected"
    assert states[("Frost Lance", "variant_of", "Deep Freeze", "Grimoire")] == "adjusted"
    assert states[("Frost Wyrm", "casts", "Frost Lance", "Core")] == "accepted" == accepted["review_state"]
    assert states[("Frost Lance", "inflicts", "Chilled", "Grimoire")] == "suggested"
    # a rejected relationship is out of the entity's related table
    related = entity_detail(job.db, "Chilled")["entities"][0]["related"]
    assert [r["count"] for r in related] == [1]


def test_relations_mode_off_stores_no_claims(tmp_path, index_dir):
    pack = write(tmp_path / "p.toml", PACK)
    job = IngestJob(open_db(index_dir, create=True), Settings(index_dir=index_dir, pack=str(pack), relations="off"),
                 extractor=Scripted(SCRIPT))
    ingest_paths(job, [write(tmp_path / "core.md", CORE)])
    assert job.db.execute("SELECT count(*) FROM relation_claims").fetchone()[0] == 0
    assert job.extractor.known == [None]


def test_known_entities_offered_are_those_defined_in_other_books(shelf):
    job, books, _ = shelf
    ingest_paths(job, [books["Grimoire"]])
    ingest_paths(job, [books["Core"]])
    assert job.extractor.known[0] == {}
    offered = job.extractor.known[1]
    names = {chunk: [k.name for k in known] for chunk, known in offered.items()}
    assert sorted(names.values()) == [["Deep Freeze", "Frost Lance"], ["Frost Lance"]]


def test_claims_merged_in_a_chunk_are_validated_together(tmp_path, index_dir):
    pack = write(tmp_path / "story.toml", 'name = "s"\nontology = ["story"]\n[[entity_types]]\nname = "character"\n'
                                          '[[entity_types]]\nname = "faction"\n')
    text = "# S\n\n## Ari\nAri may have joined the Order. Ari swore loyalty to the Order.\n"
    weak = rel("Ari", "Order", "member_of", "Ari may have joined the Order.", confidence=0.3)
    strong = rel("Ari", "Order", "MEMBER_OF", "Ari swore loyalty to the Order.", confidence=0.8)
    script = {"Ari": ([m("Ari", "character", "defines"), m("Order", "faction")], [weak])}
    job = IngestJob(open_db(index_dir, create=True), Settings(index_dir=index_dir, pack=str(pack)), extractor=Scripted(script))
    book = write(tmp_path / "s.md", text)
    ingest_paths(job, [book])
    assert [(r["status"], r["status_reason"]) for r in list_relationships(job.db)] == [("invalid", "below_min_confidence")]
    job.extractor.script = {"Ari": (script["Ari"][0], [weak, strong])}
    ingest_paths(job, [book], force=True)
    [row] = list_relationships(job.db)
    assert (row["relation_type"], row["claims"], row["confidence"], row["status"]) == ("member_of", 2, 0.8, "ready")
