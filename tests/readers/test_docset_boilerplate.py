"""A doc set's boilerplate is found by its repetition across pages (readers/boilerplate.py)."""

from __future__ import annotations

from pathlib import Path

from crossbook.readers import read_book
from crossbook.readers.docset.boilerplate import Boilerplate, page_subject_title
from crossbook.readers.html_markdown import parse_html, to_markdown
from tests.docs.test_docs_shelves import ingest
from tests.docset_fixtures import SITE, write_docset

NAVIGATION = ("Voriges", "Weiter", "Hoch", "Heimat", SITE, "Copyright 2026")


def test_invented_navigation_words_and_classes_vanish_from_the_text(tmp_path: Path):
    book = read_book(write_docset(tmp_path / "quux"), fmt="docset")
    text = "\n".join(s.text for s in book.sections)
    for word in NAVIGATION:
        assert word not in text
    assert "The `frob add` command acts on the frobnicator." in text  # the pages' own text stays


def test_navigation_links_are_no_references_and_its_words_no_entities(tmp_path: Path):
    book = read_book(write_docset(tmp_path / "quux"), fmt="docset")
    targets = {target for s in book.sections for _, _, target in s.links}
    assert "index.html" not in targets  # "Hoch", "Heimat", the site header: all to the contents page
    # an author's link in a page's own sentence stays, though four pages make it at the same place
    assert any(link[2] == "frob-add.html" for s in book.sections if s.file == "frob-list.html" for link in s.links)
    db = ingest(tmp_path / "index", [tmp_path / "quux"])
    names = {row[0].casefold() for row in db.execute("SELECT name FROM entities")}
    assert not names & {w.casefold() for w in NAVIGATION}
    assert {"frob-add", "frob-list"} <= names


def test_a_heading_that_opens_a_pages_own_text_stays_though_every_page_has_it(tmp_path: Path):
    book = read_book(write_docset(tmp_path / "quux"), fmt="docset")
    headings = {s.heading for s in book.sections if s.file == "frob-list.html"}
    assert {"Name", "Synopsis", "Description", "Options"} <= headings


def test_too_few_pages_have_no_boilerplate():
    page = b"<html><body><div class='x'><a href='a.html'>Back</a> <a href='b.html'>On</a></div><p>Text.</p></body></html>"
    boiler = Boilerplate()
    for _ in range(3):
        boiler.learn(parse_html(page))
    root = parse_html(page)
    assert boiler.strip(root) == 0 and "Back" in to_markdown(root)


def test_a_title_less_the_sites_name():
    assert page_subject_title("frob-add — Quux Handbuch", {SITE}) == "frob-add"
    assert page_subject_title(SITE, {SITE}) == ""
    assert page_subject_title("json — JSON encoder and decoder", set()) == "json — JSON encoder and decoder"
