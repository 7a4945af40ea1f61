"""Hostile and unusual input, through the CLI as a user runs it: a zip bomb, symlink loops
and links out of the folder, text that quotes a PDF signature, one bad book in a folder,
a vault note named SUMMARY.md. Each ends with one clear line and the index unchanged (or
holding exactly the good books)."""

import json
import os
import zipfile

import pytest

from bench.common.hostile_books import CONTAINER, PACKAGE, streamed_epub
from tests.helpers import BOOK_A, BOOK_B, snapshot, write


def _epub(path, chapter_parts, repeat):
    """An EPUB whose one chapter is ``chapter_parts[0]``, ``chapter_parts[1]`` ``repeat``
    times, then ``chapter_parts[2]``."""
    head, middle, tail = (p.encode() for p in chapter_parts)
    return streamed_epub(path, head, middle, repeat, tail)


def _one_error(result, *fragments):
    assert result.exit_code == 1, result.stderr
    assert result.stdout == ""
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1 and all(f in errors[0] for f in fragments), result.stderr
    assert "Traceback" not in result.stderr
    return errors[0]


@pytest.fixture
def seeded(tmp_path, cli_json, index_dir):
    cli_json("ingest", write(tmp_path / "a.md", BOOK_A))
    return snapshot(index_dir)


# -- a zip bomb -----------------------------------------------------------------------------

def test_an_epub_chapter_that_inflates_a_thousandfold_is_refused_before_it_is_read(tmp_path, cli, seeded, index_dir):
    # 40 MiB of one repeated paragraph: under 100 KB in the archive
    bomb = _epub(tmp_path / "bomb.epub", ("<html><body><h1>Boom</h1>", "<p>" + "a" * 1017 + "</p>", "</body></html>"),
                 40 * 1024)
    assert bomb.stat().st_size < 200_000
    _one_error(cli("ingest", bomb), "bomb.epub", "OEBPS/ch1.xhtml", "zip bomb", "epub_max_ratio")
    assert snapshot(index_dir) == seeded


def test_many_small_members_that_inflate_together_are_refused(tmp_path, cli, seeded, index_dir):
    chapters = 40
    package = PACKAGE.replace('<item id="c1" href="ch1.xhtml" media-type="application/xhtml+xml"/>', "".join(
        f'<item id="c{n}" href="ch{n}.xhtml" media-type="application/xhtml+xml"/>' for n in range(chapters)))
    package = package.replace('<itemref idref="c1"/>', "".join(f'<itemref idref="c{n}"/>' for n in range(chapters)))
    chapter = "<html><body><h1>Boom</h1>" + ("<p>" + "a" * 1017 + "</p>") * 500 + "</body></html>"  # 500 KB each
    path = tmp_path / "many.epub"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/container.xml", CONTAINER)
        archive.writestr("OEBPS/content.opf", package)
        for n in range(chapters):
            archive.writestr(f"OEBPS/ch{n}.xhtml", chapter)
    _one_error(cli("ingest", path), "many.epub", "members read would inflate", "zip bomb")
    assert snapshot(index_dir) == seeded


@pytest.mark.slow  # a 2 MiB EPUB ingested
def test_the_limits_are_settings(tmp_path, cli, seeded, index_dir, monkeypatch):
    import random

    rng = random.Random(7)
    words = [" ".join(rng.choice(["frost", "lance", "ember", "shield", "ward", "kindle", "rime", "wraith"])
                      + str(rng.randrange(1000)) for _ in range(150)) for _ in range(40)]
    text = ("<html><body><h1>Big Chapter</h1>", "".join(f"<p>{w}</p>" for w in words), "</body></html>")
    book = _epub(tmp_path / "big.epub", text, 80)  # about 2 MiB, compressed 2-3x: not a bomb
    monkeypatch.setenv("CROSSBOOK_EPUB_MAX_MEMBER_MB", "1")
    _one_error(cli("ingest", book), "big.epub", "epub_max_member_mb")
    assert snapshot(index_dir) == seeded
    monkeypatch.setenv("CROSSBOOK_EPUB_MAX_MEMBER_MB", "8")
    result = cli("ingest", book, "--relations", "off", "--json")
    assert result.exit_code == 0, result.stderr
    assert [r["title"] for r in json.loads(result.stdout)] == ["Bomb"]


# -- symlinks -------------------------------------------------------------------------------

def test_a_folder_with_two_link_loops_is_walked_once(tmp_path, cli):
    shelf = tmp_path / "shelf"
    (shelf / "sub").mkdir(parents=True)
    write(shelf / "a.md", BOOK_A)
    write(shelf / "sub" / "b.md", BOOK_B)
    os.symlink(".", shelf / "loop1")
    os.symlink(".", shelf / "loop2")
    os.symlink("..", shelf / "sub" / "up")
    result = cli("ingest", shelf, "--dry-run", "--json")
    assert result.exit_code == 0, result.stderr
    assert sorted(b["title"] for b in json.loads(result.stdout)["books"]) == ["Core Rules", "Grimoire"]


def test_a_link_out_of_the_folder_is_skipped_with_a_line(tmp_path, cli):
    outside = write(tmp_path / "secret.md", "# Secret\n\n## Keys\n\nThe password is swordfish.\n")
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    write(shelf / "a.md", BOOK_A)
    os.symlink(outside, shelf / "x.md")
    result = cli("ingest", shelf, "--relations", "off", "--json")
    assert result.exit_code == 0, result.stderr
    assert [r["title"] for r in json.loads(result.stdout)] == ["Core Rules"]
    assert "x.md' is a link outside the folder given: skipped" in result.stderr
    assert "secret" not in result.stderr  # nothing is said of what lies outside


def test_a_vault_note_that_links_out_of_the_vault_is_not_read(tmp_path, cli, cli_json):
    outside = write(tmp_path / "passwd", "root:x:0:0:root:/root:/bin/bash\n")
    vault = tmp_path / "vault"
    (vault / ".obsidian").mkdir(parents=True)
    (vault / "notes").mkdir()
    write(vault / "notes" / "Frost Lance.md", "A spell of ice.\n")
    os.symlink(outside, vault / "notes" / "x.md")
    os.symlink("..", vault / "notes" / "loop")
    result = cli("ingest", vault, "--relations", "off", "--json")
    assert result.exit_code == 0, result.stderr
    assert "x.md' is a link outside the folder given" in result.stderr and "passwd" not in result.stderr
    sections = cli_json("books")[0]["sections"]
    assert sections == 1  # its one note, once (not again through the loop)
    assert "root:x" not in json.dumps(cli_json("search", "root bash", "-k", "5"))


# -- sniffing and one bad book --------------------------------------------------------------

@pytest.mark.parametrize("name, body", [
    ("pdf-notes.md", "# PDF Notes\n\n## Headers\n\nA PDF file starts with %PDF-1.7 and ends with %%EOF.\n"),
    ("pdf-notes.txt", "PDF NOTES\n\nA PDF file starts with %PDF-1.7 and ends with %%EOF.\n"),
    ("pdf-notes.html", "<html><head><title>PDF Notes</title></head><body><h1>PDF Notes</h1>"
                       "<p>A PDF file starts with <code>%PDF-1.7</code>.</p></body></html>"),
])
def test_text_that_quotes_a_pdf_header_is_read_by_its_suffix(tmp_path, cli, name, body):
    result = cli("ingest", write(tmp_path / name, body), "--relations", "off", "--json")
    assert result.exit_code == 0, result.stderr
    [book] = json.loads(result.stdout)
    assert book["title"] == "PDF Notes" and book["sections"] >= 1


def test_a_file_that_starts_with_a_pdf_signature_is_a_pdf_whatever_its_suffix(tmp_path, cli, seeded, index_dir):
    (tmp_path / "renamed.md").write_bytes(b"%PDF-1.4\n garbage that is no PDF")
    _one_error(cli("ingest", tmp_path / "renamed.md"), "damaged or truncated PDF")
    assert snapshot(index_dir) == seeded


def test_one_bad_book_in_a_folder_is_skipped_and_the_good_ones_are_ingested(tmp_path, cli, cli_json, index_dir):
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    write(shelf / "a.md", BOOK_A)
    write(shelf / "b.md", BOOK_B)
    (shelf / "broken.pdf").write_bytes(b"%PDF-1.4\n truncated")
    result = cli("ingest", shelf, "--relations", "off")
    error = _one_error(result, "1 book could not be read and was skipped", "the other 2 are in the index",
                       "broken.pdf", "damaged or truncated PDF")
    assert "Warning: skipped:" in result.stderr and error
    assert sorted(b["title"] for b in cli_json("books")) == ["Core Rules", "Grimoire"]
    again = cli("ingest", shelf, "--relations", "off", "--json")
    assert again.exit_code == 1
    error = json.loads(again.stdout)["error"]
    assert error["code"] == "books_skipped" and [p.rsplit("/", 1)[-1] for p in error["skipped"]] == ["broken.pdf"]
    # the same shelf ingested without the bad book gives the same index
    fresh = tmp_path / "fresh"
    (shelf / "broken.pdf").unlink()
    assert cli("--index", fresh, "ingest", shelf, "--relations", "off").exit_code == 0
    assert snapshot(index_dir) == snapshot(fresh)


# -- a vault note named SUMMARY.md ----------------------------------------------------------

def test_a_note_named_summary_is_kept_in_an_obsidian_vault(tmp_path, cli, cli_json):
    vault = tmp_path / "vault"
    (vault / ".obsidian").mkdir(parents=True)
    write(vault / "SUMMARY.md", "# Summary\n\nThe session so far: the party met the Rime Wraith.\n")
    write(vault / "Rime Wraith.md", "A ghost of the snow.\n")
    result = cli("ingest", vault, "--relations", "off", "--json")
    assert result.exit_code == 0, result.stderr
    hits = cli_json("search", "party met the wraith", "-k", "3")
    assert any("party met" in json.dumps(hit) for hit in hits["results"]), hits


def test_a_reader_that_fails_unexpectedly_skips_only_its_book(tmp_path, cli, cli_json, monkeypatch):
    from crossbook.readers import html

    def crash(path, options=None):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(html, "read", crash)
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    write(shelf / "a.md", BOOK_A)
    write(shelf / "page.html", "<html><body><h1>Deep</h1><p>Nested.</p></body></html>")
    result = cli("ingest", shelf, "--relations", "off")
    _one_error(result, "1 book could not be read", "page.html' could not be read (unexpected RecursionError")
    assert [b["title"] for b in cli_json("books")] == ["Core Rules"]


def test_a_dry_run_lists_the_book_it_would_skip(tmp_path, cli, index_dir):
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    write(shelf / "a.md", BOOK_A)
    (shelf / "broken.pdf").write_bytes(b"%PDF-1.4\n truncated")
    result = cli("ingest", shelf, "--dry-run", "--json")
    assert result.exit_code == 0, result.stderr
    estimate = json.loads(result.stdout)
    assert [b["title"] for b in estimate["books"]] == ["Core Rules"]
    [failed] = estimate["failed"]
    assert failed["path"].endswith("broken.pdf") and "damaged or truncated PDF" in failed["error"]
    assert "Warning: skipped:" in result.stderr and not index_dir.exists()
