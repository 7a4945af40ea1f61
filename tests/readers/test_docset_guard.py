"""One guarded way to a doc set's files (readers/files.py): only walked files, links only
inside the folder, no hidden names, a cap per file and on what inflates, no path taken from a
file's contents, and no line that names what lies outside the folder."""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path

from crossbook.readers import Selection, read_book
from crossbook.readers.files import FolderFiles, NotWalked
from crossbook.readers.source import ReadLimits

SECRET = "ZZOUTSIDEZZ"
PAGE = ('<html><head><title>{title}</title></head><body><nav><a href="index.html">Home</a> '
        '<a href="good.html">Good</a></nav><h1>{title}</h1><p>{body}</p></body></html>')


def _set(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "index.html").write_text(PAGE.format(title="Frob Manual", body="frob_open opens a frob."))
    (folder / "good.html").write_text(PAGE.format(title="Good", body="frob_close closes it."))
    return folder


def _outside(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.html").write_text(f'<h1 class="class">{SECRET}</h1>')
    return outside


def _text(book) -> str:
    return "".join(s.text for s in book.sections) + repr([t for s in book.sections for t in s.terms])


def test_only_walked_regular_files_are_given(tmp_path):
    folder = _set(tmp_path / "docs")
    outside = _outside(tmp_path)
    (folder / ".hidden.html").write_text("x")
    (folder / "annotated.html").mkdir()
    os.symlink(outside / "secret.html", folder / "linked.html")
    os.symlink(folder / "nowhere.tag", folder / "dangling.tag")
    os.mkfifo(folder / "pipe.html")
    files = FolderFiles(folder)
    assert files.files == ("good.html", "index.html")
    assert not any(str(outside) in line or "secret" in line for line in files.skipped)
    assert any("linked.html' is a link outside the folder given" in line for line in files.skipped)
    for name in ("../outside/secret.html", str(outside / "secret.html"), "/dev/zero", "pipe.html", ".hidden.html"):
        try:
            files.read_bytes(name)
        except NotWalked:
            continue
        raise AssertionError(f"{name} was read")


def test_a_file_over_the_cap_is_left_out_with_one_line(tmp_path):
    folder = _set(tmp_path / "docs")
    (folder / "huge.html").write_bytes(b"<p>" + b"a" * 5000 + b"</p>")
    files = FolderFiles(folder, max_file_bytes=4096)
    assert "huge.html" not in files.files
    assert [line for line in files.skipped if "huge.html" in line and "left out" in line]


def test_inflating_is_capped(tmp_path):
    files = FolderFiles(_set(tmp_path / "docs"), limits=ReadLimits(max_member_bytes=1 << 20, max_ratio=10,
                                                                   ratio_floor=1 << 10))
    bomb = zlib.compress(b"a" * (8 << 20))
    try:
        files.inflate(bomb, "objects.inv")
    except ValueError as exc:
        assert "inflates past" in str(exc)
    else:
        raise AssertionError("the bomb inflated")
    assert files.inflate(zlib.compress(b"frob"), "x") == b"frob"


def test_an_rdoc_index_naming_files_outside_opens_none(tmp_path):
    folder = _set(tmp_path / "docs")
    outside = _outside(tmp_path)
    os.mkfifo(outside / "pipe")
    rows = [["Zero", "", "/dev/zero"], ["Pipe", "", str(outside / "pipe")], ["Secret", "", "../outside/secret.html"],
            ["frob_open", "Frob", "index.html#method-i-frob_open"]]
    (folder / "js").mkdir()
    (folder / "js" / "search_index.js").write_text("var search_data = " + json.dumps({"index": {"info": rows}}))
    book = read_book(folder, "docset")  # a FIFO opened would hang here; /dev/zero would never end
    assert SECRET not in _text(book)
    assert {s.file for s in book.sections} == {"index.html", "good.html"}


def test_inventories_behind_hidden_names_or_links_out_are_not_read(tmp_path):
    folder = _set(tmp_path / "docs")
    outside = _outside(tmp_path)
    devhelp = (f'<?xml version="1.0"?><book xmlns="http://www.devhelp.net/book" name="x" link="index.html">'
               f'<functions><keyword type="function" name="{SECRET} ()" link="index.html#x"/></functions></book>')
    (outside / "s.devhelp2").write_text(devhelp)
    (folder / ".h.devhelp2").write_text(devhelp)
    os.symlink(outside / "s.devhelp2", folder / "l.devhelp2")
    book = read_book(folder, "docset")
    assert SECRET not in _text(book)
    assert not any(str(outside) in w for w in book.warnings)


def test_an_xml_entity_names_no_file(tmp_path):
    folder = _set(tmp_path / "docs")
    outside = _outside(tmp_path)
    (folder / "x.devhelp2").write_text(
        f'<?xml version="1.0"?><!DOCTYPE book [<!ENTITY s SYSTEM "file://{outside}/secret.html">]>'
        '<book xmlns="http://www.devhelp.net/book" name="x" link="index.html"><functions>'
        '<keyword type="function" name="&s;" link="index.html#x"/></functions></book>')
    assert SECRET not in _text(read_book(folder, "docset"))


def test_glob_and_exclude_pick_a_doc_sets_pages(tmp_path):
    folder = _set(tmp_path / "docs")
    (folder / "_modules").mkdir()
    (folder / "_modules" / "frob.html").write_text(PAGE.format(title="Source", body="def frob_open(): pass"))
    every = {s.file for s in read_book(folder, "docset").sections}
    picked = {s.file for s in read_book(folder, "docset", selection=Selection(exclude=("_modules/*",))).sections}
    assert "_modules/frob.html" in every and picked == every - {"_modules/frob.html"}
    only = {s.file for s in read_book(folder, "docset", selection=Selection(include=("good.html",))).sections}
    assert only == {"good.html"}


def test_ingest_exclude_reaches_inside_a_doc_set(tmp_path, cli, cli_json):
    folder = _set(tmp_path / "docs")
    (folder / "_modules").mkdir()
    (folder / "_modules" / "frob.html").write_text(PAGE.format(title="Source", body="def frob_open(): pass"))
    sections = {}
    for index, flags in (("every", []), ("picked", ["--exclude", "_modules/*"])):
        result = cli("--index", tmp_path / index, "ingest", folder, "--as-book", *flags, "--relations", "off", "--json")
        assert result.exit_code == 0, result.stderr
        sections[index] = cli_json("--index", tmp_path / index, "books")[0]["sections"]
    assert sections["picked"] == sections["every"] - 1


def test_a_folder_the_glob_picks_nothing_of_is_not_a_book(tmp_path, cli):
    shelf = tmp_path / "shelf"
    _set(shelf / "docs")
    (shelf / "notes.md").write_text("# Notes\n\nText.\n")
    (shelf / "docs" / "objects.inv").write_bytes(b"# Sphinx inventory version 2\n")
    result = cli("ingest", shelf, "--glob", "*.md", "--dry-run", "--json")
    assert result.exit_code == 0, result.stderr
    assert [b["title"] for b in json.loads(result.stdout)["books"]] == ["Notes"]
