"""The readers' shared entry point (index/readers): format detection, encodings, plain text."""

import codecs

import pytest

from crossbook.core.errors import BadInput
from crossbook.readers import detect_format, read_book
from crossbook.readers.text import to_markdown


def test_the_format_comes_from_the_content_then_the_suffix(tmp_path):
    pdf = tmp_path / "rules.md"
    pdf.write_bytes(b"%PDF-1.7\n...")
    epub = tmp_path / "book.zip"
    epub.write_bytes(b"PK\x03\x04" + b"\x00" * 26 + b"mimetypeapplication/epub+zip")
    html = tmp_path / "page"
    html.write_bytes(b"\n<!DOCTYPE html><html><body><h1>T</h1></body></html>")
    assert detect_format(pdf) == "pdf"
    assert detect_format(epub) == "epub"
    assert detect_format(html) == "html"
    assert detect_format(tmp_path / "x.txt", b"COMBAT\n") == "text"
    assert detect_format(tmp_path / "x.md", b"# T\n") == "markdown"
    assert detect_format(tmp_path) == "vault"


@pytest.mark.parametrize("bom,encoding", [(codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"),
                                          (codecs.BOM_UTF8, "utf-8")])
def test_a_file_with_a_byte_order_mark_is_decoded(tmp_path, bom, encoding):
    path = tmp_path / "book.md"
    path.write_bytes(bom + "# Grimoire\n\n## Frost Lance\n\nA lance of ice.\n".encode(encoding))
    book = read_book(path)
    assert book.title == "Grimoire"
    assert [s.heading for s in book.sections] == ["Grimoire", "Frost Lance"]


def test_binary_and_unknown_formats_are_one_line_errors(tmp_path):
    path = tmp_path / "blob.md"
    path.write_bytes(b"abc\x00def")
    with pytest.raises(BadInput, match="binary file"):
        read_book(path)
    with pytest.raises(BadInput, match="unknown format 'docx'"):
        read_book(path, "docx")
    with pytest.raises(BadInput, match="reads a folder"):
        read_book(path, "vault")


def test_plain_text_headings_from_numbers_capitals_and_underlines():
    text = ("INTRODUCTION\n\nWelcome to the game.\n\n1 Combat\n\nFighting rules.\n\n1.2 Rolling Dice\n\n"
            "Roll two dice.\n\nMagic\n=====\n\nSpells.\n\nWards\n-----\n\nA ward protects.\n\n"
            "3 goblins attack the camp.\n")
    markdown, found = to_markdown(text)
    assert found == 5
    assert "# Introduction" in markdown and "# 1 Combat" in markdown and "## 1.2 Rolling Dice" in markdown
    assert "# Magic" in markdown and "## Wards" in markdown
    assert "# 3 goblins" not in markdown


def test_plain_text_without_headings_is_cut_into_windows_with_a_warning(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("just some words. " * 2000, encoding="utf-8")
    book = read_book(path)
    assert book.format == "text" and len(book.sections) > 1
    assert "no headings" in book.warnings[0]
    assert "".join(s.text for s in book.sections).count("just some words.") == 2000


SPELLS = ("SPELLS\n\nMagic for casters. Your HP and AC matter.\n\nMAGE'S ARMOR\n\nA shimmering ward.\n\n"
          "HP AND AC\n\nTo track damage:\n\n1. Subtract it from HP\n\n2. Compare the roll with AC\n\n"
          "3. Mark the wound\n\nRULES OF THE ROAD\n\nKeep left.\n")


def test_capitals_headings_keep_the_authors_capitals_where_title_case_breaks_them(tmp_path, cli_json):
    path = tmp_path / "spells.txt"
    path.write_text(SPELLS, encoding="utf-8")
    cli_json("ingest", path, "--relations", "off")
    sections = [hit["section"] for hit in cli_json("search", "ward damage roll road", "-k", "10")["results"]]
    assert sorted(set(sections)) == ["HP and AC", "Mage's Armor", "Rules of the Road", "Spells"]


def test_a_numbered_list_after_a_colon_is_a_list_not_headings():
    markdown, found = to_markdown(SPELLS)
    assert found == 4
    assert "\n1. Subtract it from HP\n\n2. Compare the roll with AC\n\n3. Mark the wound\n" in markdown
    # a numbered heading after the list is still one
    markdown, found = to_markdown("Steps:\n\n1. Roll\n\n2. Add\n\n3 Combat\n\nFight.\n")
    assert found == 1 and "# 3 Combat" in markdown and "# 1. Roll" not in markdown


def test_a_text_files_front_matter_gives_its_title(tmp_path, cli_json):
    path = tmp_path / "notes.txt"
    path.write_text("---\ntitle: Winter Notes\n---\nSPELLS\n\nFrost Lance is cold.\n", encoding="utf-8")
    [book] = cli_json("ingest", path, "--relations", "off")
    assert book["title"] == "Winter Notes"
    hits = cli_json("search", "frost lance", "-k", "3")["results"]
    assert not any("title:" in hit["text"] for hit in hits)
