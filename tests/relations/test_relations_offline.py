"""The offline path's side in the derivation: spaCy candidates are derived per chunk from its
text and entities. The first test runs the real index/relations/svo.py on sample_corpus; the
others use the ``fake_svo`` fixture (tests/conftest.py) to count which chunks are parsed."""


import pytest

from crossbook.core.config import effective_mode
from crossbook.ingest.pipeline import delete_book, ingest_paths
from crossbook.query.review import list_relationships
from crossbook.relations import offline
from tests.conftest import SAMPLE, make_job
from tests.helpers import BOOK_A, BOOK_B, write

# What the real spaCy path (index/relations/svo.py) finds on the three sample books, by
# (source, type, target). A change to the parser, the patterns or the aliases shows here as a
# diff to review; update the set only when the new edges are right.
SAMPLE_EDGES = {
    ('Ashen Knight', 'casts', 'Greater Shield'),
    ('Ashen Knight', 'casts', 'Shield'),
    ('Ashen Knight', 'wields', 'Longsword'),
    ('Ashen Knight', 'wields', 'Shield'),
    ('Athletics', 'counters', 'Grapple'),
    ('Bash', 'inflicts', 'Dazed'),
    ('Cinder Imp', 'casts', 'Cinder Wall'),
    ('Cinder Imp', 'casts', 'Kindle'),
    ('Cinder Imp', 'inflicts', 'Burning'),
    ('Cinder Wall', 'inflicts', 'Burning'),
    ('Cinder Wall', 'requires', 'Kindle'),
    ('Crumbling Ledge', 'inflicts', 'Prone'),
    ('Circle of Warding', 'requires', 'Warding Chalk'),
    ('Climbing Kit', 'modifies', 'Climb'),
    ('Deep Freeze', 'inflicts', 'Frozen'),
    ('Deep Freeze', 'requires', 'Frost Lance'),
    ('Disarm', 'counters', 'Shield Bash'),
    ('Dread Whisper', 'inflicts', 'Frightened'),
    ('Ember Surge', 'inflicts', 'Burning'),
    ('Ember Vent', 'inflicts', 'Burning'),
    ('Frost Lance', 'counters', 'Cinder Wall'),
    ('Frost Lance', 'counters', 'Ember Vent'),
    ('Frost Lance', 'inflicts', 'Chilled'),
    ('Frost Wyrm', 'casts', 'Deep Freeze'),
    ('Frost Wyrm', 'casts', 'Frost Lance'),
    ('Frost Wyrm', 'inflicts', 'Chilled'),
    ('Gloom Hound', 'casts', 'Dread Whisper'),
    ('Gloom Hound', 'casts', 'Shadow Step'),
    ('Gloom Hound', 'inflicts', 'Frightened'),
    ('Grapple', 'inflicts', 'Prone'),
    ('Greater Shield', 'counters', 'Cinder Wall'),
    ('Greater Shield', 'variant_of', 'Shield'),
    ('Hearthglow', 'counters', 'Chilled'),
    ('Hearthglow', 'part_of', 'Circle of Warding'),
    ('Kindle', 'counters', 'Frozen'),
    ('Kindle', 'part_of', 'Vigil of Embers'),
    ('Lantern Wisp', 'casts', 'Light'),
    ('Lantern Wisp', 'casts', 'Sunburst'),
    ('Lantern Wisp', 'inflicts', 'Blinded'),
    ('Light', 'counters', 'Blinded'),
    ('Light', 'counters', 'Shadow Step'),
    ('Longsword', 'modifies', 'Disarm'),
    ('Rime Wraith', 'casts', 'Dread Whisper'),
    ('Rime Wraith', 'casts', 'Frost Lance'),
    ('Rimefall', 'inflicts', 'Chilled'),
    ('Rimefall', 'inflicts', 'Frozen'),
    ('Shadow Step', 'requires', 'Stealth'),
    ('Shield Bash', 'inflicts', 'Prone'),
    ('Shield Bash', 'modifies', 'Bash'),
    ('Shield Bash', 'requires', 'Shield'),
    ('Shield Bash', 'requires', 'Tower Shield'),
    ('Shield', 'counters', 'Frost Lance'),
    ('Spear', 'modifies', 'Trip'),
    ('Stormcaller Harpy', 'casts', 'Thunderclap'),
    ('Stormcaller Harpy', 'inflicts', 'Dazed'),
    ('Sunburst', 'inflicts', 'Blinded'),
    ('Sunburst', 'requires', 'Light'),
    ('Thunderclap', 'inflicts', 'Dazed'),
    ('Thunderclap', 'inflicts', 'Prone'),
    ('Tower Shield', 'variant_of', 'Shield'),
    ('Trip', 'inflicts', 'Prone'),
    ('Unweave', 'counters', 'Blinded'),
    ('Unweave', 'counters', 'Cinder Wall'),
    ('Unweave', 'counters', 'Greater Shield'),
    ('Vale Troll', 'inflicts', 'Prone'),
    ('Vale Troll', 'wields', 'Tower Shield'),
    ('Vigil of Embers', 'counters', 'Rimefall'),
}


def edges(db) -> set:
    return {(r["source"], r["relation_type"], r["target"]) for r in list_relationships(db)}


def test_the_offline_path_finds_the_sample_corpus_edges(tmp_path):
    job = make_job(tmp_path / "i", pack=str(SAMPLE / "emberfall.pack.toml"))
    ingest_paths(job, [SAMPLE / name for name in ("core_rules.md", "grimoire.md", "bestiary.md")])
    assert edges(job.db) == SAMPLE_EDGES


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
    # "It leaves the target Chilled.": the implicit subject's pattern reads it before spaCy does
    assert ("Frost Lance", "inflicts", "Chilled", "Grimoire", "pattern") in found


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
    assert fake_svo.calls == []
    assert list_relationships(job.db) == []
    assert job.db.execute("SELECT count(*) FROM relation_claims WHERE extractor = 'spacy'").fetchone()[0] == 0


def test_spacy_claims_go_when_relations_are_off_or_svo_is_missing(tmp_path, fake_svo, monkeypatch):
    a, b = write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)
    job = make_job(tmp_path / "i")
    ingest_paths(job, [a, b])
    assert edges(job.db) == {("Frost Lance", "inflicts", "Chilled")}
    off = make_job(tmp_path / "i", relations="off")
    ingest_paths(off, [a], force=True)
    assert off.db.execute("SELECT count(*) FROM relation_claims").fetchone()[0] == 0
    assert list_relationships(off.db) == []
    monkeypatch.setattr(offline, "load_svo", lambda: None)
    missing = make_job(tmp_path / "j")
    ingest_paths(missing, [a, b])
    assert missing.db.execute("SELECT count(*) FROM relation_claims WHERE extractor = 'spacy'").fetchone()[0] == 0
    assert edges(missing.db) == {("Frost Lance", "inflicts", "Chilled")}  # the pattern's, from "It leaves ..."


def test_relations_mode_auto_and_unknown():
    assert effective_mode("auto", "rules") == "spacy"
    assert effective_mode("auto", "openai") == "llm"
    assert effective_mode("off", "openai") == "off"
    from crossbook.core.errors import ConfigError
    with pytest.raises(ConfigError, match="unknown relations mode 'graph'"):
        effective_mode("graph", "rules")
