"""The genres chosen for each book as ingest stores it (index/ingest/pipeline.py, m015): chosen
from what the book shows unless ``--pack`` names genres, listed by ``books``, applied to its
extraction, and a change of choice re-extracts an unchanged book."""

from __future__ import annotations

import json

import pytest

from crossbook.core.config import Settings
from crossbook.core.errors import ConfigError
from crossbook.core.pack_option import check_pack_option, parse_pack_option
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.query.lookup import list_books
from crossbook.storage.db import open_db
from tests.helpers import write

BESTIARY = ("# Bestiary\n\n## Along the Vale\n\n### Ash Wolf\n\n*Medium beast, unaligned*\n\n"
            "**Armor Class** 13\n**Hit Points** 11 (2d8 + 2)\n\nThe ash wolf hunts in packs.\n\n"
            "### Cinder Imp\n\n*Tiny fiend, lawful evil*\n\n**Armor Class** 12\n**Hit Points** 7\n")
NOTES = "# Notes\n\n## Lanterns\n\nA lantern sheds light for an hour.\n"


def job(tmp_path, pack: str | None = None) -> IngestJob:
    settings = Settings(index_dir=tmp_path / "index", pack=pack)
    return IngestJob(open_db(settings.index_dir, create=True), settings)


def kinds(db, book: str) -> dict[str, str]:
    return {r[0]: r[1] for r in db.execute(
        "SELECT e.name, e.entity_type FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
        " WHERE m.book = ? AND m.mention_type = 'defines'", [book])}


def test_each_book_stores_its_genres_and_why(tmp_path):
    ingest = job(tmp_path)
    ingest_paths(ingest, [write(tmp_path / "bestiary.md", BESTIARY), write(tmp_path / "notes.md", NOTES)])
    listed = {b.title: b for b in list_books(ingest.db)}
    assert listed["Bestiary"].genres == ["rulebook"]
    assert "stat blocks" in listed["Bestiary"].genre_signals["rulebook"]
    assert listed["Notes"].genres == ["documentation", "rulebook"]  # shows none: every genre
    assert listed["Notes"].genre_choice.startswith("auto@")
    assert json.loads(json.dumps(listed["Bestiary"].to_dict()))["genres"] == ["rulebook"]


def test_pack_names_genres_that_replace_the_choice_and_re_extract_an_unchanged_book(tmp_path):
    path = write(tmp_path / "bestiary.md", BESTIARY)
    first = job(tmp_path)
    assert [r.status for r in ingest_paths(first, [path])] == ["added"]
    assert kinds(first.db, "Bestiary")["Ash Wolf"] == "creature"  # its stat block, a rulebook's
    assert [r.status for r in ingest_paths(job(tmp_path), [path])] == ["unchanged"]
    overridden = job(tmp_path, pack="documentation")
    assert [r.status for r in ingest_paths(overridden, [path])] == ["updated"]
    assert list_books(overridden.db)[0].genres == ["documentation"]
    assert list_books(overridden.db)[0].genre_signals == {"documentation": ["--pack"]}
    assert kinds(overridden.db, "Bestiary").get("Ash Wolf") != "creature"  # rulebook words left out
    # back to the automatic choice: re-extracted again, the stat block read again
    again = job(tmp_path)
    assert [r.status for r in ingest_paths(again, [path])] == ["updated"]
    assert kinds(again.db, "Bestiary")["Ash Wolf"] == "creature"


def test_pack_combines_a_domain_pack_with_genres(tmp_path):
    ingest = job(tmp_path, pack="gurps,rulebook")
    assert ingest.pack.name == "gurps" and ingest.genres == ("rulebook",)
    assert job(tmp_path / "other", pack="rulebook").pack.name == "generic"


def test_pack_option_parsing():
    assert parse_pack_option(None).genres is None
    assert parse_pack_option("gurps").genres is None
    assert parse_pack_option("documentation,rulebook").domain is None
    assert parse_pack_option("rulebook,gurps,rulebook").genres == ("rulebook",)
    with pytest.raises(ConfigError, match="two domain packs"):
        parse_pack_option("gurps,generic")
    with pytest.raises(ConfigError, match="empty name"):
        parse_pack_option("gurps,")
    with pytest.raises(ConfigError, match="unknown pack"):
        check_pack_option("rulebook,gurpz")


def test_a_book_stored_before_the_choice_lists_every_genre_and_is_re_extracted(tmp_path):
    path = write(tmp_path / "notes.md", NOTES)
    first = job(tmp_path)
    ingest_paths(first, [path])
    first.db.execute("UPDATE books SET genres = NULL, genre_signals = '{}', genre_choice = ''")
    assert list_books(first.db)[0].genres is None  # "all" in the books table
    assert [r.status for r in ingest_paths(job(tmp_path), [path])] == ["updated"]


RULES = "# Rules\n\n## Conditions\n\n### Grappled\n\nA creature held fast: its speed becomes 0.\n"
CHASE = "# Chase\n\n## The Chase\n\nThe hound holds the fox: the fox is grappled and cannot run.\n"


def linked(db, book: str) -> set[str]:
    return {r[0] for r in db.execute(
        "SELECT e.name FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
        " WHERE m.book = ? AND m.source = 'linker'", [book])}


def test_relinking_reads_each_book_with_its_own_genres(tmp_path):
    from crossbook.changes.derived import relink_chunks
    from crossbook.linking import link_state
    from crossbook.storage.index_state import read_state

    rules = job(tmp_path)
    ingest_paths(rules, [write(tmp_path / "rules.md", RULES)])
    plain = job(tmp_path, pack="documentation")  # no rulebook words: a state is no lowercase word
    ingest_paths(plain, [write(tmp_path / "chase.md", CHASE)])
    assert "Grappled" not in linked(plain.db, "Chase")
    with plain.db.conn:  # every book's chunks linked again, each with its book's stored genres
        total = read_state(plain.db).lowercase_words or 0
        relink_chunks(plain.db, plain.pack, None, link_state.shelf_terms(plain.db, total))
    assert "Grappled" not in linked(plain.db, "Chase")
    auto = job(tmp_path)
    assert [r.status for r in ingest_paths(auto, [tmp_path / "chase.md"])] == ["updated"]
    assert "Grappled" in linked(auto.db, "Chase")  # its own choice again: every genre (it shows none)
