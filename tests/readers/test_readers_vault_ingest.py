"""A note vault ingested: one book, notes define, links reference, changes and
other shelves. Excerpts follow the Ironsworn vault (CC-BY 4.0, Shawn Tomkin; Obsidian
conversion by the Obsidian-TTRPG-Community)."""

from __future__ import annotations

import json
from pathlib import Path

from crossbook.core.packs import load_pack, parse_pack
from crossbook.extract.openai_extractor import OpenAIExtractor
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.query.lookup import where_else
from crossbook.storage.db import open_db
from tests.helpers import heading_responder, openai_settings, vault, write

NOTES = {
    "Chapter 3/Face Danger.md": "# Face Danger\nWhen you attempt something risky, envision your action and roll.\n"
                                "On a miss, [[Pay the Price#^roll|Pay the Price]].\n",
    "Chapter 3/Pay the Price.md": "# Pay the Price\nWhen you suffer the outcome of a move, choose one.\n^roll\n",
    "Chapter 2/Debilities.md": "---\naliases: [Conditions, Banes]\n---\nDebilities are lasting harms.\n",
    "Chapter 2/Bonds.md": "# Bonds\nBonds are your ties to people and places. Banes break them.\n",
    "Chapter 1/Bonds.md": "# Bonds\nA bond is a progress track.\n",
    "Assets/Alchemist.md": "# Alchemist\n#Asset/Path\nThe drinker must [[Face Danger]] +iron.\n"
                           "A failed brew marks a [[Debilities|debility]].\n"
                           "## Elixirs\nSee [[Chapter 2/Bonds]] and ![[Pay the Price]].\n",
}


def ingest(index_dir: Path, paths, job=None):
    from crossbook.core.config import load_settings

    if job is None:
        settings = load_settings({"index_dir": index_dir, "embedder": "hash"}, {}, None)
        job = IngestJob(open_db(index_dir, create=True), settings)
    return job, ingest_paths(job, paths)


def mentions_of(db, name):
    found = where_else(db, name)
    return [(m["book"], m["heading_path"], m["mention_type"], m["source"])
            for entity in found["entities"] for book in entity["books"] for m in book["mentions"]]


def rows(db, sql, params=()):
    return [tuple(r) for r in db.execute(sql, params).fetchall()]


def test_a_vault_is_one_book_notes_define_and_links_reference(tmp_path, index_dir):
    root = vault(tmp_path / "ironsworn", NOTES)
    job, (result,) = ingest(index_dir, [root])
    db = job.db
    assert result.title == "ironsworn" and result.status == "added"
    assert rows(db, "SELECT title, format FROM books") == [("ironsworn", "vault")]
    defines = rows(db, "SELECT e.name, c.source_file, m.source FROM entity_mentions m JOIN entities e"
                       " ON e.id = m.entity_id JOIN chunks c ON c.id = m.chunk_id WHERE m.mention_type = 'defines'"
                       " AND m.source IN ('note', 'statblock') ORDER BY c.source_file")
    assert defines == [
        ("Alchemist", "Assets/Alchemist.md", "note"), ("Bonds", "Chapter 1/Bonds.md", "note"),
        ("Bonds", "Chapter 2/Bonds.md", "note"), ("Debilities", "Chapter 2/Debilities.md", "note"),
        ("Face Danger", "Chapter 3/Face Danger.md", "note"), ("Pay the Price", "Chapter 3/Pay the Price.md", "note")]
    links = rows(db, "SELECT c.heading_path, m.name, e.name FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
                     " JOIN chunks c ON c.id = m.chunk_id WHERE m.source = 'wikilink' ORDER BY 1, 2")
    assert links == [
        ("Assets > Alchemist", "Debilities", "Debilities"), ("Assets > Alchemist", "Face Danger", "Face Danger"),
        ("Assets > Alchemist > Elixirs", "Bonds", "Bonds"), ("Assets > Alchemist > Elixirs", "Pay the Price", "Pay the Price"),
        ("Chapter 3 > Face Danger", "Pay the Price", "Pay the Price")]
    # each stored mention is grounded in its chunk: the context is the chunk's own text
    for context, text in rows(db, "SELECT m.context, c.text FROM entity_mentions m JOIN chunks c ON c.id = m.chunk_id"):
        assert " ".join(context.split()) in " ".join(text.split())
    # front-matter aliases name the note's entity: the linker finds it by them elsewhere
    assert rows(db, "SELECT alias, canonical FROM entity_aliases ORDER BY alias") == [
        ("Banes", "debility"), ("Conditions", "debility")]
    assert rows(db, "SELECT m.name, m.source FROM entity_mentions m JOIN chunks c ON c.id = m.chunk_id"
                    " WHERE c.source_file = 'Chapter 2/Bonds.md' AND m.normalized = 'debility'") == [("Banes", "linker")]


def test_a_link_outranks_the_linker_and_needs_no_guess(tmp_path, index_dir):
    root = vault(tmp_path / "v", NOTES)
    job, _ = ingest(index_dir, [root])
    alchemist = rows(job.db, "SELECT m.source FROM entity_mentions m JOIN chunks c ON c.id = m.chunk_id"
                             " WHERE c.heading_path = 'Assets > Alchemist' AND m.normalized = 'face_danger'")
    assert alchemist == [("wikilink",)]
    # a link whose shown text differs from its note's name references that note
    debility = rows(job.db, "SELECT m.context FROM entity_mentions m JOIN chunks c ON c.id = m.chunk_id"
                            " WHERE c.heading_path = 'Assets > Alchemist' AND m.normalized = 'debility'")
    assert debility == [("A failed brew marks a debility.",)]


def test_the_pack_types_notes_by_folder_and_tag_and_links_follow(tmp_path, index_dir):
    from crossbook.core.config import load_settings

    pack_file = tmp_path / "pack.toml"
    pack_file.write_text(
        'name = "vaulty"\ndescription = "x"\n[[entity_types]]\nname = "move"\n[[entity_types]]\nname = "asset"\n'
        '[[entity_types]]\nname = "other"\n[[heading_rules]]\nunder = "Chapter 3"\ntype = "move"\n'
        '[[heading_rules]]\nunder = "Path"\ntype = "asset"\n', encoding="utf-8")
    parse_pack(pack_file.read_text(encoding="utf-8"), "test")
    settings = load_settings({"index_dir": index_dir, "embedder": "hash", "pack": str(pack_file)}, {}, None)
    job = IngestJob(open_db(index_dir, create=True), settings)
    ingest(index_dir, [vault(tmp_path / "v", NOTES)], job)
    types = dict(rows(job.db, "SELECT name, entity_type FROM entities WHERE name IN ('Face Danger', 'Alchemist',"
                              " 'Bonds')"))
    assert types == {"Face Danger": "move", "Alchemist": "asset", "Bonds": "other"}
    # the link from the Alchemist declared its target's type: one entity, not two
    assert rows(job.db, "SELECT count(*) FROM entities WHERE normalized = 'face_danger'") == [(1,)]


def test_two_same_name_notes_are_two_definitions_never_a_refusal(tmp_path, index_dir):
    job, _ = ingest(index_dir, [vault(tmp_path / "v", NOTES)])
    bonds = mentions_of(job.db, "Bonds")
    assert sorted(m for m in bonds if m[3] == "note") == [
        ("v", "Chapter 1 > Bonds", "defines", "note"), ("v", "Chapter 2 > Bonds", "defines", "note")]


def test_a_deleted_note_takes_its_sections_and_mentions(tmp_path, index_dir):
    root = vault(tmp_path / "v", NOTES)
    job, _ = ingest(index_dir, [root])
    (root / "Assets" / "Alchemist.md").unlink()
    _, (result,) = ingest(index_dir, [root], job)
    assert result.status == "updated"
    db = job.db
    assert rows(db, "SELECT count(*) FROM chunks WHERE source_file = 'Assets/Alchemist.md'") == [(0,)]
    assert rows(db, "SELECT count(*) FROM entities WHERE name = 'Alchemist'") == [(0,)]
    assert rows(db, "SELECT count(*) FROM entity_mentions WHERE source = 'wikilink' AND normalized = 'face_danger'") \
        == [(0,)]
    assert rows(db, "SELECT count(*) FROM entity_mentions WHERE mention_type = 'defines' AND normalized = 'face_danger'") \
        == [(1,)]


def test_reingesting_a_vault_asks_the_model_only_for_the_changed_note(tmp_path, index_dir, scripted_openai):
    scripted_openai.responder = heading_responder()
    settings = openai_settings(index_dir, scripted_openai)
    db = open_db(index_dir, create=True)
    job = IngestJob(db, settings, extractor=OpenAIExtractor(settings, load_pack("generic"), cache=db,
                                                         sleep=lambda s: None))
    root = vault(tmp_path / "v", NOTES)
    _, (first,) = ingest(index_dir, [root], job)
    assert first.llm_calls == first.parents == len(scripted_openai.chat_calls)
    face = root / "Chapter 3" / "Face Danger.md"
    face.write_text(face.read_text(encoding="utf-8") + "A second thought.\n", encoding="utf-8")
    _, (second,) = ingest(index_dir, [root], job)
    assert second.status == "updated" and second.llm_calls == 1 and second.cache_hits == second.parents - 1
    # the model's answers and the note's marks together: one definition of Face Danger
    assert rows(db, "SELECT source FROM entity_mentions WHERE mention_type = 'defines' AND normalized = 'face_danger'") \
        == [("note",)]


def test_where_else_crosses_from_a_vault_note_to_a_markdown_book_and_back(tmp_path, index_dir):
    root = vault(tmp_path / "v", NOTES)
    book = write(tmp_path / "guide.md", "# Solo Guide\n\n## Iron Vow\nAn Iron Vow is a sworn quest.\n\n"
                                        "## Playing Alone\nWhen in doubt, Face Danger. Then swear an Iron Vow.\n")
    (root / "Chapter 3" / "Swear.md").write_text("# Swear\nTo begin, you swear an Iron Vow.\n", encoding="utf-8")
    job, _ = ingest(index_dir, [root, book])
    face = {(m[0], m[1], m[2]) for m in mentions_of(job.db, "Face Danger")}
    assert ("v", "Chapter 3 > Face Danger", "defines") in face
    assert ("Solo Guide", "Solo Guide > Playing Alone", "references") in face
    vow = {(m[0], m[1], m[2]) for m in mentions_of(job.db, "Iron Vow")}
    assert ("Solo Guide", "Solo Guide > Iron Vow", "defines") in vow
    assert ("v", "Chapter 3 > Swear", "references") in vow


def test_the_cli_ingests_and_queries_a_vault(tmp_path, cli, cli_json):
    root = vault(tmp_path / "v", NOTES)
    (result,) = cli_json("ingest", root)
    assert result["title"] == "v" and result["sections"] == 7
    found = cli_json("where-else", "Pay the Price")
    sources = [m["source"] for e in found["entities"] for b in e["books"] for m in b["mentions"]]
    assert sources.count("note") == 1 and sources.count("wikilink") == 2
    empty = tmp_path / "empty"
    (empty / ".obsidian").mkdir(parents=True)
    failed = cli("ingest", empty)
    assert failed.exit_code == 1 and "holds no notes" in failed.stderr and failed.stdout == ""
    assert json.loads(cli("books", "--json").stdout)[0]["title"] == "v"


def test_a_heading_that_embeds_another_note_defines_nothing_there(tmp_path, index_dir):
    notes = dict(NOTES)
    notes["Chapter 3/03 Chapter - Moves.md"] = "# Making Moves\nMoves help you decide what happens.\n"
    notes["Chapter 3/Table of Contents.md"] = (
        "# ![[03 Chapter - Moves]]\n# ![[Face Danger]]\n# ![[Pay the Price]]\n# ![[Debilities]]\n")
    job, _ = ingest(index_dir, [vault(tmp_path / "v", notes)])
    in_contents = rows(job.db, "SELECT m.name, m.mention_type, m.source FROM entity_mentions m JOIN chunks c"
                               " ON c.id = m.chunk_id WHERE c.source_file = 'Chapter 3/Table of Contents.md'"
                               " AND m.mention_type = 'defines' ORDER BY 1")
    assert in_contents == [("Table of Contents", "defines", "note")]
