"""Hostile pages are a page's problem: a thousand nested elements convert (no recursion
limit), a DOCTYPE repeated through a 416 KB file is read in one pass, a doc set's page that
cannot be read or converted is left out with one line (the rest indexed), each page is read
once and hashed as parsed; the API applies the CLI's reader limits; ``show`` bounds its page;
delete-book refuses a number that is one book's id and the start of another's title."""

from __future__ import annotations

from pathlib import Path

import pytest

from crossbook.api import Shelf
from crossbook.readers import docset
from crossbook.readers.files import FolderFiles
from crossbook.readers.html_markdown import html_to_markdown
from tests.helpers import write


def _nested(depth: int) -> bytes:
    return (b"<html><body><h1>Deep</h1><p>before</p>" + b"<div><span>x " * depth + b"core"
            + b"</span></div>" * depth + b"</body></html>")


def test_a_page_of_a_thousand_nested_elements_converts():
    markdown = html_to_markdown(_nested(1000))
    assert markdown.startswith("# Deep\n\nbefore\n") and "core" in markdown


def test_a_doctype_repeated_through_a_large_page_is_read_in_one_pass():
    page = b"<!DOCTYPE a [" * 32_000 + b"<p>still read</p>"  # 416 KB: minutes for the old pattern
    assert "still read" in html_to_markdown(page)
    assert html_to_markdown(b'<!DOCTYPE html [ <!ENTITY x "y"> ]><p>ok</p>') == "ok\n"


@pytest.fixture
def doc_set(tmp_path) -> Path:
    root = tmp_path / "docs"
    root.mkdir()
    write(root / "objects.inv", "# Sphinx inventory version 2\n")
    write(root / "index.html", "<html><body><h1>Frost Manual</h1><p>Frost Lance deals cold damage.</p></body></html>")
    write(root / "deep.html", _nested(800).decode())
    write(root / "broken.html", "<html><body><h1>Broken</h1><p>BOOM</p></body></html>")
    write(root / "locked.html", "<html><body><h1>Locked</h1><p>secret</p></body></html>")
    return root


def test_a_page_that_cannot_be_read_or_converted_is_left_out_with_one_line(doc_set, monkeypatch):
    convert, read_bytes = docset.to_markdown, FolderFiles.read_bytes
    reads: list[str] = []

    def to_markdown(root):
        if "BOOM" in "".join(root.itertext()):
            raise RecursionError("maximum recursion depth exceeded")
        return convert(root)

    def counted(files, relative, limit=None):
        if limit is None:  # a whole page (an inventory's finder may look at a page's head)
            reads.append(relative)
        if relative == "locked.html":
            raise PermissionError(13, "Permission denied")
        return read_bytes(files, relative, limit)

    monkeypatch.setattr(docset, "to_markdown", to_markdown)
    monkeypatch.setattr(FolderFiles, "read_bytes", counted)
    book = docset.read(doc_set)
    assert {s.file for s in book.sections} == {"index.html", "deep.html"}
    left_out = [w for w in book.warnings if "left out" in w and ".html" in w]  # the stub objects.inv is one more
    assert len(left_out) == 2 and any("broken.html" in w and "RecursionError" in w for w in left_out)
    assert any("locked.html" in w and "PermissionError" in w for w in left_out)
    # each page read whole once (learning the boilerplate reads what the pages' reading uses again)
    assert sorted(r for r in reads if r.endswith(".html")) == ["broken.html", "deep.html", "index.html", "locked.html"]


def test_the_api_ingest_applies_the_readers_limits(tmp_path, index_dir):
    from bench.common.hostile_books import streamed_epub
    from crossbook.core.errors import BadInput

    text = b"".join(b"<p>frost lance %d ember ward kindle</p>" % n for n in range(200))
    book = streamed_epub(tmp_path / "big.epub", b"<html><body><h1>Big Chapter</h1>", text, 200, b"</body></html>")
    with Shelf(index_dir, epub_max_member_mb=1) as shelf, pytest.raises(BadInput, match="epub_max_member_mb"):
        shelf.ingest([book])


def test_show_bounds_its_page(cli, tmp_path):
    from tests.helpers import make_pdf

    pages = [["Conditions", "A condition changes what a creature can do."], ["Prone", "A Prone fighter is easy to hit."]]
    assert cli("-q", "ingest", make_pdf(tmp_path / "core.pdf", pages, [("Conditions", 1, 0), ("Prone", 1, 1)])).exit_code == 0
    result = cli("show", "the book", "--page", "99999999999999999999")
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert result.exit_code == 1 and len(errors) == 1 and "unexpected" not in result.stderr
    assert "no section of 'The Book' is on page 99999999999999999999 (its sections are on pages 1-2)" in errors[0]


def test_delete_book_refuses_a_number_that_is_an_id_and_a_title_prefix(cli, cli_json, tmp_path):
    cli_json("ingest", write(tmp_path / "farm.md", "# Animal Farm\n\n## Pigs\n\nThe pigs rule the farm.\n"))
    cli_json("ingest", write(tmp_path / "1984.md", "# 1984\n\n## Oceania\n\nBig Brother watches.\n"))
    assert {b["id"]: b["title"] for b in cli_json("books")} == {1: "Animal Farm", 2: "1984"}
    result = cli("delete-book", "1")
    assert result.exit_code == 1 and "'Animal Farm'" in result.stderr and "'1984'" in result.stderr
    assert len(cli_json("books")) == 2
    with Shelf(tmp_path / "index") as shelf:
        from crossbook.core.errors import BookNotFound

        with pytest.raises(BookNotFound, match="both the id"):
            shelf.delete_book("1")
        assert shelf.delete_book("Animal Farm").to_dict()["title"] == "Animal Farm"
