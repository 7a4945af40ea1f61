"""A folder of HTML pages a generator wrote is one doc set with no flag (readers/docset_detect.py)."""

from __future__ import annotations

from pathlib import Path

from crossbook.ingest.books import find_books
from crossbook.readers import detect_format, read_book
from crossbook.readers.docset.detect import docset_reason
from crossbook.readers.files import FolderFiles
from tests.docset_fixtures import write_docset


def test_a_generators_mark_makes_a_folder_one_doc_set(tmp_path: Path):
    folder = write_docset(tmp_path / "quux")
    assert find_books([tmp_path]) == [folder]
    assert detect_format(folder) == "docset"
    assert "generator" in docset_reason(FolderFiles(folder))


def test_pages_that_share_navigation_and_link_each_other_are_one_doc_set(tmp_path: Path):
    folder = write_docset(tmp_path / "quux", generator=False)
    assert docset_reason(FolderFiles(folder)) == "its pages share their navigation and link each other"
    assert find_books([tmp_path]) == [folder]


def test_a_folder_of_unrelated_pages_says_why_and_names_as_book(tmp_path: Path):
    for name in ("recipes", "travel", "letters"):
        (tmp_path / f"{name}.html").write_text(f"<html><body><h1>{name}</h1><p>About {name}.</p></body></html>")
    told: list[str] = []
    books = find_books([tmp_path], warn=told.append)
    assert len(books) == 3
    assert len(told) == 1 and "--as-book" in told[0] and "3 HTML pages" in told[0]


def test_an_options_description_indented_by_style_defines_the_option(tmp_path: Path):
    # groff -Thtml sets an option's description further in than its term, by style
    page = """<html><head><meta name="generator" content="groff -Thtml"><title>FROB</title></head><body>
<h2>NAME</h2><p style="margin-left:11%">{0} - frobnicate</p>
<h2>OPTIONS</h2><p style="margin-left:11%; margin-top: 1em">-n, --dry-run</p>
<p style="margin-left:17%;">Do nothing.</p>
<p style="margin-left:11%; margin-top: 1em">Plain text that opens a paragraph.</p>
<p style="margin-left:11%;">More text.</p></body></html>"""
    for name in ("frob", "frob-add"):
        (tmp_path / f"{name}.html").write_text(page.format(name))
    book = read_book(tmp_path)
    terms = {t.name for s in book.sections for t in s.terms}
    assert terms == {"frob", "frob-add", "frob › --dry-run", "frob-add › --dry-run"}  # each page's own


def test_docbooks_wrapped_blockquote_is_an_indented_description(tmp_path: Path):
    page = """<html><head><meta name="generator" content="DocBook XSL"><title>{0}</title></head><body>
<h2>Name</h2><p>{0} — frobnicate</p><h2>OPTIONS</h2><p>-s, --signoff</p>
<div class="blockquote"><blockquote class="blockquote"><p>Add a trailer.</p></blockquote></div></body></html>"""
    for name in ("frob", "frob-add"):
        (tmp_path / f"{name}.html").write_text(page.format(name))
    terms = {t.name for s in read_book(tmp_path).sections for t in s.terms}
    assert "frob › --signoff" in terms
