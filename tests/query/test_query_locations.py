"""Answers say where a hit is in its source: pages (a PDF) and the chapter file or note."""

import re
from dataclasses import replace

import pytest

import crossbook.ingest.reading as reading
from bench.twins.epub_twin import write_epub
from crossbook.readers import read_book
from tests.conftest import SAMPLE


def _paged(path, fmt=None):
    """The Markdown reader's book as a PDF reader would give it: section n on pages
    100+n (one page) or 100+n..101+n (two), alternately."""
    book = read_book(path, fmt)
    sections = tuple(replace(s, pages=(100 + n, 100 + n + n % 2)) for n, s in enumerate(book.sections))
    return replace(book, sections=sections, format="pdf")


@pytest.fixture
def shelf(cli, tmp_path, monkeypatch):
    """Grimoire as an EPUB (chapter files), the bestiary with pages, core rules as Markdown."""
    grimoire = write_epub(SAMPLE / "grimoire.md", tmp_path / "grimoire.epub", "The Ashen Grimoire")
    monkeypatch.setattr(reading, "read_book",
                        lambda path, fmt=None, *limits: _paged(path, fmt) if path.name == "bestiary.md"
                        else read_book(path, fmt, *limits))
    result = cli("ingest", grimoire, SAMPLE / "bestiary.md", SAMPLE / "core_rules.md")
    assert result.exit_code == 0, result.stderr
    return grimoire


def _section_pages(title: str, heading_path: str) -> list[int]:
    book = _paged(SAMPLE / "bestiary.md")
    n = next(i for i, s in enumerate(book.sections) if " > ".join(s.heading_path) == heading_path)
    return list(book.sections[n].pages)


def test_where_else_gives_pages_and_files_in_json_and_text(cli, cli_json, shelf):
    result = cli_json("where-else", "Frost Lance")
    mentions = {g["book"]: g["mentions"] for e in result["entities"] for g in e["books"]}
    assert {m["file"] for m in mentions["The Ashen Grimoire"]} == {"EPUB/text/ch001.xhtml"}
    assert all(m["pages"] is None for m in mentions["The Ashen Grimoire"])
    bestiary = next(b for b in mentions if b.startswith("Bestiary"))
    for m in mentions[bestiary]:
        assert m["pages"] == _section_pages(bestiary, m["heading_path"]) and m["file"] is None
    core = next(b for b in mentions if b.startswith("Emberfall"))
    assert all(m["pages"] is None and m["file"] is None for m in mentions[core])

    text = cli("where-else", "Frost Lance").stdout
    assert "(EPUB/text/ch001.xhtml)" in text
    pages = [m["pages"] for m in mentions[bestiary]]
    shown = [f"(p. {a})" if a == b else f"(pp. {a}-{b})" for a, b in pages]
    assert all(label in text for label in shown)
    assert "(pp. " in "".join(shown) or "(p. " in "".join(shown)


def test_a_single_page_and_a_range_read_p_and_pp(cli, cli_json, shelf):
    labels = set()
    for name in ("Frost Wyrm", "Gloom Hound", "Rime Wraith", "Ashen Knight"):
        for e in cli_json("where-else", name)["entities"]:
            for g in e["books"]:
                labels.update(tuple(m["pages"]) for m in g["mentions"] if m["pages"])
    assert any(a == b for a, b in labels) and any(a != b for a, b in labels)
    text = "".join(cli("where-else", name).stdout for name in ("Frost Wyrm", "Gloom Hound", "Rime Wraith", "Ashen Knight"))
    assert "(p. 1" in text and "(pp. 1" in text


def test_entity_definitions_give_their_location(cli, cli_json, shelf):
    result = cli_json("entity", "Frost Lance")
    definitions = [d for e in result["entities"] for d in e["definitions"]]
    assert definitions and all(d["file"] == "EPUB/text/ch001.xhtml" and d["pages"] is None for d in definitions)
    assert "(EPUB/text/ch001.xhtml)" in cli("entity", "Frost Lance").stdout
    wyrm = [d for e in cli_json("entity", "Frost Wyrm")["entities"] for d in e["definitions"]]
    assert wyrm and all(d["pages"] and d["file"] is None for d in wyrm)
    first, last = wyrm[0]["pages"]
    assert (f"(p. {first})" if first == last else f"(pp. {first}-{last})") in cli("entity", "Frost Wyrm").stdout


@pytest.mark.parametrize("command", ["search", "retrieve"])
def test_search_and_retrieve_give_their_sections_location(cli, cli_json, shelf, command):
    result = cli_json(command, "frost lance cold damage", "-k", "8")
    passages = result["results"]
    assert passages
    for p in passages:
        assert set(p) >= {"pages", "file"}
        if p["book"] == "The Ashen Grimoire":
            assert p["file"] == "EPUB/text/ch001.xhtml" and p["pages"] is None
        elif p["book"].startswith("Bestiary"):
            assert p["pages"] and p["file"] is None
        else:
            assert p["pages"] is None and p["file"] is None
    assert {p["book"] for p in passages} >= {"The Ashen Grimoire"}
    text = cli(command, "frost lance cold damage", "-k", "8").stdout
    assert "(EPUB/text/ch001.xhtml)" in text
    if any(p["pages"] for p in passages):
        assert "(p. 1" in text or "(pp. 1" in text


def test_books_shows_format_and_source(cli, cli_json, shelf):
    books = {b["title"]: b for b in cli_json("books")}
    assert books["The Ashen Grimoire"]["format"] == "epub"
    assert books["The Ashen Grimoire"]["source"] == str(shelf.resolve())
    assert {b["format"] for b in books.values()} == {"epub", "pdf", "markdown"}
    text = cli("books").stdout
    assert "format" in text and "source" in text and "epub" in text
    assert re.search(r"\sgrimoire\.epub\s", text)  # the working directory's books by their relative path
