"""Folders named together with --book are one book (index/ingest/joined.py): its identity is
the set of its folders, for the unchanged skip, delete-book, a re-ingest and a manifest's
``paths = [...]``."""

from __future__ import annotations

import json
import os

import pytest

from tests.helpers import snapshot, write


def page(title: str, names: tuple[str, ...]) -> str:
    entries = "".join(f"<dt><code>{name}()</code></dt><dd><p>Does {name}.</p></dd>" for name in names)
    return f"<html><head><title>{title}</title></head><body><h1>{title}</h1><dl>{entries}</dl></body></html>"


@pytest.fixture
def parts(tmp_path):
    core, extra = tmp_path / "parts" / "core" / "html", tmp_path / "parts" / "extra" / "html"
    for folder in (core, extra):
        folder.mkdir(parents=True)
    write(core / "index.html", page("Frob core", ("frob_read", "frob_write")))
    write(core / "spool.html", page("Spools", ("spool_wind",)))
    write(extra / "index.html", page("Frob extras", ("frob_readv",)))
    return core, extra


def _books(cli_json) -> dict:
    return {b["title"]: b for b in cli_json("books")}


def _files(cli_json, name: str) -> set[str]:
    found = cli_json("where-else", name)
    return {m["file"] for e in found["entities"] for g in e["books"] for m in g["mentions"]}


def test_folders_named_with_book_are_one_book_and_its_pages_keep_their_folders(cli_json, parts):
    core, extra = parts
    [result] = cli_json("ingest", core, extra, "--book", "Frob")
    assert (result["title"], result["status"]) == ("Frob", "added")
    books = _books(cli_json)
    assert list(books) == ["Frob"]
    assert json.loads(books["Frob"]["source"]) == sorted([str(core.resolve()), str(extra.resolve())])
    assert _files(cli_json, "frob_readv") == {"extra/html/index.html"}
    assert _files(cli_json, "spool_wind") == {"core/html/spool.html"}
    # two pages of one name in two folders stay two pages
    assert {f for f in _files(cli_json, "frob_read")} == {"core/html/index.html"}


def test_the_same_folders_in_any_order_from_anywhere_are_the_same_book(cli, cli_json, parts, tmp_path, monkeypatch):
    core, extra = parts
    cli_json("ingest", core, extra, "--book", "Frob")
    before = snapshot(tmp_path / "index")
    monkeypatch.chdir(tmp_path / "parts")
    [again] = cli_json("ingest", os.path.join("extra", "html"), os.path.join("core", "html"), "--book", "Frob")
    assert again["status"] == "unchanged"
    assert snapshot(tmp_path / "index") == before
    # one folder edited: the same book, updated
    write(extra / "more.html", page("More", ("frob_seek",)))
    [updated] = cli_json("ingest", core, extra, "--book", "Frob")
    assert updated["status"] == "updated" and list(_books(cli_json)) == ["Frob"]
    assert _files(cli_json, "frob_seek") == {"extra/html/more.html"}
    # ingested again without --book's title changing it: a new title renames the same book
    [renamed] = cli_json("ingest", core, extra, "--book", "Frob Manual")
    assert renamed["renamed_from"] == "Frob" and list(_books(cli_json)) == ["Frob Manual"]


def test_one_of_its_folders_alone_is_another_book_and_delete_book_removes_the_whole(cli, cli_json, parts, tmp_path):
    core, extra = parts
    cli_json("ingest", core, extra, "--book", "Frob")
    before = snapshot(tmp_path / "index")
    taken = cli("ingest", core, "--as-book", "--book", "Frob")  # another source under its title
    assert taken.exit_code == 1 and "Frob" in taken.stderr and str(extra.resolve()) in taken.stderr
    assert snapshot(tmp_path / "index") == before
    cli_json("ingest", core, "--as-book", "--book", "Frob Core")
    assert sorted(_books(cli_json)) == ["Frob", "Frob Core"]
    deleted = cli_json("delete-book", "Frob")
    assert deleted["deleted"] and sorted(_books(cli_json)) == ["Frob Core"]
    assert _files(cli_json, "frob_read") == {"index.html"}
    assert cli("where-else", "frob_readv").exit_code == 1


def test_folders_that_cannot_be_one_book_are_refused_before_anything_is_written(cli, parts, tmp_path):
    core, extra = parts
    inside = cli("ingest", core.parent, core, "--book", "Frob")
    assert inside.exit_code == 1 and "inside" in inside.stderr
    vault = tmp_path / "notes"
    vault.mkdir()
    write(vault / "a.md", "# Alpha\n\nAlpha is a note.\n")
    mixed = cli("ingest", core, vault, "--book", "Frob")
    assert mixed.exit_code == 1 and "one format" in mixed.stderr
    files = cli("ingest", core / "index.html", extra / "index.html", "--book", "Frob")
    assert files.exit_code == 1 and "--book names one book" in files.stderr
    assert not (tmp_path / "index" / "crossbook.db").exists()


def test_a_manifests_paths_are_one_book(cli, cli_json, parts, tmp_path):
    manifest = write(tmp_path / "parts" / "crossbook.toml",
                     '[[books]]\npaths = ["core/html", "extra/html"]\ntitle = "Frob"\n')
    assert cli_json("rebuild", manifest)["added"] == ["Frob"]
    assert _files(cli_json, "frob_readv") == {"extra/html/index.html"}
    again = cli_json("rebuild", manifest)
    assert again["unchanged"] == ["Frob"] and not again["updated"]
    # the same folders ingested by hand are that book
    [same] = cli_json("ingest", *parts, "--book", "Frob")
    assert same["status"] == "unchanged"
    # a folder listed alone and among paths is refused
    write(manifest, '[[books]]\npaths = ["core/html", "extra/html"]\ntitle = "Frob"\n[[books]]\npath = "core/html"\n')
    twice = cli("rebuild", manifest)
    assert twice.exit_code == 1 and "twice" in twice.stderr
    write(manifest, '[[books]]\npaths = ["core/html"]\n')
    assert cli("rebuild", manifest).exit_code != 0
    # no longer listed: deleted
    write(tmp_path / "solo.md", "# Solo\n\nSolo is a note.\n")
    write(manifest, '[[books]]\npath = "../solo.md"\n')
    summary = cli_json("rebuild", manifest)
    assert summary["deleted"] == ["Frob"] and list(_books(cli_json)) == ["Solo"]
