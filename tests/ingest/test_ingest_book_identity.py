"""A book is its source file; its title is its display name (index/ingest/identity.py):
renames update, clashes are errors that name the fix, paths do not depend
on the cwd."""

import json
import os
import shutil
import sqlite3

from crossbook.storage.db import open_db
from crossbook.storage.migrations import migrations
from tests.helpers import BOOK_A, BOOK_B, snapshot
from tests.helpers import write as write_file

NOTES = "# Notes\n\n## Frost Lance\n\nFrost Lance is a spell that deals 2d cold damage.\n"
OTHER_NOTES = "# Notes\n\n## Ember Ward\n\nEmber Ward is a spell that wards off fire.\n"


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_file(path, text)


def books(cli_json) -> dict:
    return {b["title"]: b for b in cli_json("books")}


def test_editing_the_title_renames_the_book(tmp_path, cli, cli_json):
    book = write(tmp_path / "notes.md", NOTES)
    cli_json("ingest", book)
    write(book, NOTES.replace("# Notes", "# Field Notes"))
    [result] = cli_json("ingest", book)
    assert (result["status"], result["renamed_from"]) == ("updated", "Notes")
    assert list(books(cli_json)) == ["Field Notes"]
    hits = cli_json("where-else", "Frost Lance")
    assert [b["book"] for e in hits["entities"] for b in e["books"]] == ["Field Notes"]
    doctor = cli_json("doctor")  # the old title's vectors went with it
    assert doctor["ok"] and doctor["vectors"] == doctor["chunks"]
    text = cli("ingest", book)
    assert text.exit_code == 0 and "unchanged" in text.stdout


def test_a_title_rename_equals_a_fresh_build(tmp_path, cli, cli_json, monkeypatch):
    book = write(tmp_path / "shelf" / "core.md", BOOK_A)
    write(tmp_path / "shelf" / "grimoire.md", BOOK_B)
    cli_json("ingest", tmp_path / "shelf")
    write(book, BOOK_A.replace("# Core Rules", "# Core Rulebook"))
    [renamed, unchanged] = cli_json("ingest", tmp_path / "shelf")
    assert renamed["renamed_from"] == "Core Rules" and unchanged["status"] == "unchanged"
    monkeypatch.setenv("CROSSBOOK_INDEX", str(tmp_path / "fresh"))
    cli_json("ingest", tmp_path / "shelf")
    assert snapshot(tmp_path / "index") == snapshot(tmp_path / "fresh")


def test_another_file_with_the_same_title_is_an_error_that_names_the_fix(tmp_path, cli, cli_json):
    first = write(tmp_path / "notes.md", NOTES)
    second = write(tmp_path / "more" / "notes.md", OTHER_NOTES)
    cli_json("ingest", first)
    before = books(cli_json)
    result = cli("ingest", second)
    assert result.exit_code == 1 and result.stdout == ""
    message = result.stderr
    assert str(second) in message and str(first) in message and "--book" in message
    assert "delete-book 'Notes'" in message and len(message.strip().splitlines()) == 1
    assert books(cli_json) == before  # not replaced
    # both fixes it names work
    assert cli("ingest", second, "--book", "More Notes").exit_code == 0
    assert sorted(books(cli_json)) == ["More Notes", "Notes"]
    assert cli("delete-book", "More Notes").exit_code == 0
    assert cli("delete-book", "Notes").exit_code == 0
    assert cli("ingest", second).exit_code == 0
    assert books(cli_json)["Notes"]["sha256"] != before["Notes"]["sha256"]


def test_a_moved_file_updates_its_book(tmp_path, cli_json):
    old = write(tmp_path / "notes.md", NOTES)
    cli_json("ingest", old)
    moved = tmp_path / "archive" / "notes.md"
    moved.parent.mkdir()
    shutil.move(old, moved)
    [result] = cli_json("ingest", moved)
    assert result["status"] == "unchanged"
    assert books(cli_json)["Notes"]["path"] == str(moved.resolve())
    # moved and edited: updated, still one book
    shutil.move(moved, tmp_path / "notes-v2.md")
    write(tmp_path / "notes-v2.md", NOTES + "\n## Ember Ward\n\nEmber Ward is a spell.\n")
    [result] = cli_json("ingest", tmp_path / "notes-v2.md")
    assert result["status"] == "updated" and list(books(cli_json)) == ["Notes"]


def test_two_files_with_one_title_in_one_call_name_both_and_a_fix_that_works(tmp_path, cli, cli_json):
    first = write(tmp_path / "a.md", NOTES)
    second = write(tmp_path / "b.md", OTHER_NOTES)
    result = cli("ingest", first, second)
    assert result.exit_code == 1
    assert str(first) in result.stderr and str(second) in result.stderr
    assert "title:" in result.stderr and "--book" in result.stderr
    assert not (tmp_path / "index").exists()  # checked before the index is touched
    # the fix it names: a front-matter title for one of them
    write(second, "---\ntitle: Other Notes\n---\n" + OTHER_NOTES)
    assert sorted(r["title"] for r in cli_json("ingest", first, second)) == ["Notes", "Other Notes"]
    # a swap of titles between two files in one call renames both
    write(first, "---\ntitle: Other Notes\n---\n" + NOTES)
    write(second, OTHER_NOTES)
    cli_json("ingest", first, second)
    stored = books(cli_json)
    assert stored["Notes"]["path"] == str(second.resolve()) and stored["Other Notes"]["path"] == str(first.resolve())


def test_a_file_given_twice_is_one_book(tmp_path, cli_json):
    book = write(tmp_path / "shelf" / "notes.md", NOTES)
    assert [r["title"] for r in cli_json("ingest", book, tmp_path / "shelf")] == ["Notes"]


def test_rebuild_rejects_duplicate_titles_up_front(tmp_path, cli, cli_json):
    write(tmp_path / "a.md", NOTES)
    write(tmp_path / "b.md", OTHER_NOTES)
    manifest = write(tmp_path / "crossbook.toml", '[[books]]\npath = "a.md"\n')
    cli_json("rebuild", manifest)
    before = snapshot(tmp_path / "index")
    write(manifest, '[[books]]\npath = "a.md"\n[[books]]\npath = "b.md"\n')
    result = cli("rebuild", manifest, "--json")
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]["message"]
    assert "a.md" in error and "b.md" in error and "[[books]]" in error
    assert snapshot(tmp_path / "index") == before  # nothing changed
    # an explicit title fixes it; a second run changes nothing
    write(manifest, '[[books]]\npath = "a.md"\n[[books]]\npath = "b.md"\ntitle = "Other Notes"\n')
    assert sorted(cli_json("rebuild", manifest)["added"]) == ["Other Notes"]
    again = cli_json("rebuild", manifest)
    assert sorted(again["unchanged"]) == ["Notes", "Other Notes"] and not again["updated"]


def test_rebuild_rejects_a_file_listed_twice(tmp_path, cli):
    write(tmp_path / "a.md", NOTES)
    manifest = write(tmp_path / "crossbook.toml", '[[books]]\npath = "a.md"\n[[books]]\npath = "./a.md"\ntitle = "B"\n')
    result = cli("rebuild", manifest)
    assert result.exit_code == 1 and "twice" in result.stderr
    assert not (tmp_path / "index" / "crossbook.db").exists() or snapshot(tmp_path / "index")["chunks"] == []


def test_rebuild_renames_a_book_whose_title_changed(tmp_path, cli_json):
    book = write(tmp_path / "a.md", NOTES)
    manifest = write(tmp_path / "crossbook.toml", '[[books]]\npath = "a.md"\n')
    cli_json("rebuild", manifest)
    write(book, NOTES.replace("# Notes", "# Field Notes"))
    summary = cli_json("rebuild", manifest)
    assert summary["updated"] == ["Field Notes"] and summary["deleted"] == []
    assert list(books(cli_json)) == ["Field Notes"]


def test_rebuild_from_another_directory_keeps_a_book_whose_file_failed(tmp_path, cli, cli_json, monkeypatch):
    project = tmp_path / "project"
    write(project / "a.md", BOOK_A)
    write(project / "b.md", BOOK_B)
    write(project / "crossbook.toml", '[[books]]\npath = "a.md"\n[[books]]\npath = "b.md"\n')
    monkeypatch.chdir(project)
    assert sorted(cli_json("rebuild", "crossbook.toml")["added"]) == ["Core Rules", "Grimoire"]
    (project / "b.md").write_bytes(b"# Grimoire\n\n\xff\xfe not UTF-8\n")  # cannot be read now
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = cli("rebuild", project / "crossbook.toml", "--json")
    assert result.exit_code == 1
    summary = json.loads(result.stdout)
    assert summary["deleted"] == [] and "b.md" in summary["failed"][0]["path"]
    assert sorted(books(cli_json)) == ["Core Rules", "Grimoire"]


def test_an_index_from_before_book_sources_migrates(tmp_path, cli, cli_json):
    """Books stored with relative paths (the directory unknown) get source NULL and are
    matched by title until their next ingest; absolute paths are their source."""
    db_path = tmp_path / "index" / "crossbook.db"
    db_path.parent.mkdir()
    from sqlite_utils import Database

    old = Database(sqlite3.connect(db_path))
    migrations.apply(old, stop_before="m005_book_identity")
    for title, path in (("Notes", "notes.md"), ("Core Rules", str(tmp_path / "core.md"))):
        old.execute("INSERT INTO books (title, path, sha256, extractor, pack, model, ingested_at)"
                    " VALUES (?, ?, 'x', 'rules', 'generic', NULL, 'then')", [title, path])
    old.execute("INSERT INTO crossbook_meta (key, value) VALUES ('format', 'crossbook-index')")
    old.conn.commit()
    old.conn.close()
    db = open_db(tmp_path / "index")
    assert dict(db.execute("SELECT title, source FROM books").fetchall()) == {
        "Notes": None, "Core Rules": str(tmp_path / "core.md")}
    db.conn.close()
    write(tmp_path / "elsewhere" / "notes.md", NOTES)
    [result] = cli_json("ingest", tmp_path / "elsewhere" / "notes.md")
    assert result["status"] == "updated"
    assert books(cli_json)["Notes"]["path"] == str((tmp_path / "elsewhere" / "notes.md").resolve())
    assert os.path.isabs(books(cli_json)["Notes"]["path"])


def test_rebuild_keeps_a_book_of_unknown_source_while_an_entry_fails(tmp_path, cli, cli_json):
    """A book stored with a relative path (source unknown) may be the file that failed."""
    write(tmp_path / "a.md", BOOK_A)
    write(tmp_path / "notes.md", NOTES)
    manifest = write(tmp_path / "crossbook.toml", '[[books]]\npath = "a.md"\n[[books]]\npath = "notes.md"\n')
    cli_json("rebuild", manifest)
    db = open_db(tmp_path / "index")
    with db.atomic():
        db.execute("UPDATE books SET path = 'notes.md', source = NULL WHERE title = 'Notes'")
    db.conn.close()
    (tmp_path / "notes.md").write_bytes(b"\xff\xfe")
    result = cli("rebuild", manifest, "--json")
    assert result.exit_code == 1 and json.loads(result.stdout)["deleted"] == []
    assert sorted(books(cli_json)) == ["Core Rules", "Notes"]
    write(manifest, '[[books]]\npath = "a.md"\n')  # nothing fails: an unlisted book goes
    assert cli_json("rebuild", manifest)["deleted"] == ["Notes"]
