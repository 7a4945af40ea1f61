"""The EPUB reader: spine order, TOC levels and nesting, chapter files, bad archives, twins."""

import zipfile

import pytest
from ebooklib import epub

from bench.twins.epub_twin import write_epub
from crossbook.core.errors import BadInput
from crossbook.readers import detect_format, read_book
from tests.conftest import SAMPLE
from tests.helpers import assert_same_answers


def _chapter(file_name: str, title: str, body: str) -> epub.EpubHtml:
    chapter = epub.EpubHtml(title=title, file_name=file_name, lang="en")
    chapter.content = f"<html><head><title>{title}</title></head><body>{body}</body></html>"
    return chapter


def _ebooklib_book(tmp_path, toc=True):
    """A book as ebooklib writes it: a part with no page of its own, chapters whose
    headings are one level deeper than their TOC depth, an entry pointing at a <div>."""
    book = epub.EpubBook()
    book.set_identifier("test-grimoire")
    book.set_title("The Winter Grimoire")
    book.set_language("en")
    intro = _chapter("text/intro.xhtml", "Introduction",
                     "<h2>Introduction</h2><p>Spells cost <b>Ember</b>.</p>")
    frost = _chapter("text/frost.xhtml", "Frost Spells",
                     "<h2>Frost Spells</h2><p>Cold magic.</p><h3 id='lance'>Frost Lance</h3>"
                     "<p><strong>Frost Lance</strong> hurls ice.</p><h4>Variants</h4><p>Split it.</p>"
                     "<div id='ward'><p>Frost Ward is a shield of ice.</p></div>")
    fire = _chapter("text/fire.xhtml", "Fire Spells",
                    "<h2>Fire Spells</h2><p>Hot magic.</p><h3>Kindle</h3><p>Kindle lights fuel.</p>")
    for chapter in (intro, frost, fire):
        book.add_item(chapter)
    if toc:
        book.toc = (
            epub.Link("text/intro.xhtml", "Introduction", "intro"),
            (epub.Section("Spells"), (
                epub.Link("text/fire.xhtml", "Fire Spells", "fire"),
                epub.Link("text/frost.xhtml", "Frost Spells", "frost"),
                epub.Link("text/frost.xhtml#ward", "Frost Ward", "ward"),
            )),
        )
        book.add_item(epub.EpubNcx())
        book.add_item(epub.EpubNav())
    # the spine, not the manifest (intro, frost, fire), gives the order
    book.spine = (["nav"] if toc else []) + [intro, fire, frost]
    path = tmp_path / "winter.epub"
    epub.write_epub(str(path), book, {})
    return path


def test_sections_follow_the_spine_and_the_toc_levels(tmp_path):
    book = read_book(_ebooklib_book(tmp_path))
    assert (book.format, book.title, book.warnings) == ("epub", "The Winter Grimoire", ())
    assert [(s.heading_path, s.file) for s in book.sections] == [
        (("Introduction",), "EPUB/text/intro.xhtml"),
        (("Spells",), "EPUB/text/fire.xhtml"),
        (("Spells", "Fire Spells"), "EPUB/text/fire.xhtml"),
        (("Spells", "Fire Spells", "Kindle"), "EPUB/text/fire.xhtml"),
        (("Spells", "Frost Spells"), "EPUB/text/frost.xhtml"),
        (("Spells", "Frost Spells", "Frost Lance"), "EPUB/text/frost.xhtml"),
        (("Spells", "Frost Spells", "Frost Lance", "Variants"), "EPUB/text/frost.xhtml"),
        (("Spells", "Frost Ward"), "EPUB/text/frost.xhtml"),
    ]
    frost_lance = book.sections[5].text
    assert frost_lance.startswith("### Frost Lance\n") and "**Frost Lance** hurls ice." in frost_lance
    assert "Frost Ward is a shield of ice." in book.sections[7].text


def test_the_ncx_gives_the_toc_of_an_epub_2(tmp_path):
    path = tmp_path / "old.epub"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" '
                         'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
                         '<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
                         '</rootfiles></container>')
        archive.writestr("OEBPS/content.opf", '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" '
                         'version="2.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Old Book'
                         '</dc:title></metadata><manifest><item id="ncx" href="toc.ncx" '
                         'media-type="application/x-dtbncx+xml"/><item id="c1" href="ch01.html" '
                         'media-type="application/xhtml+xml"/></manifest><spine toc="ncx"><itemref idref="c1"/>'
                         '</spine></package>')
        archive.writestr("OEBPS/toc.ncx", '<?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" '
                         'version="2005-1"><navMap><navPoint id="a"><navLabel><text>Chapter One</text></navLabel>'
                         '<content src="ch01.html"/><navPoint id="b"><navLabel><text>The Storm</text></navLabel>'
                         '<content src="ch01.html#storm"/></navPoint></navPoint></navMap></ncx>')
        # not well-formed XML (&nbsp;, an unclosed <p>): read as HTML
        archive.writestr("OEBPS/ch01.html", '<html><body><p class="chapter">CHAPTER ONE</p><p>It&nbsp;began.'
                         '<p id="storm">Then the storm came.</p></body></html>')
    book = read_book(path)
    assert book.title == "Old Book" and book.warnings == ()
    assert [s.heading_path for s in book.sections] == [("Chapter One",), ("Chapter One", "The Storm")]
    assert "It began." in book.sections[0].text and "Then the storm came." in book.sections[1].text
    assert {s.file for s in book.sections} == {"OEBPS/ch01.html"}


def test_an_epub_with_no_toc_is_read_from_its_headings_with_a_warning(tmp_path):
    path = _ebooklib_book(tmp_path, toc=False)
    book = read_book(path)
    assert book.warnings == (f"'{path}' has no table of contents (nav or NCX): sections come from the chapters' headings",)
    assert [s.heading_path[-1] for s in book.sections] == [
        "Introduction", "Fire Spells", "Kindle", "Frost Spells", "Frost Lance", "Variants"]


def test_the_cli_ingests_an_epub_with_no_toc_and_says_so_in_one_warning(cli, cli_json, tmp_path):
    path = _ebooklib_book(tmp_path, toc=False)
    result = cli("ingest", path)
    assert result.exit_code == 0
    warnings = [line for line in result.stderr.splitlines() if line.startswith("Warning:")]
    assert len(warnings) == 1 and "has no table of contents" in warnings[0]
    assert cli_json("books")[0]["format"] == "epub"


def test_a_broken_archive_is_one_line_and_nothing_is_written(cli, tmp_path, index_dir):
    whole = write_epub(SAMPLE / "grimoire.md", tmp_path / "whole.epub", "The Ashen Grimoire")
    broken = tmp_path / "broken.epub"
    broken.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    assert detect_format(broken) == "epub"
    with pytest.raises(BadInput, match="zip archive is broken or truncated"):
        read_book(broken)
    result = cli("ingest", broken)
    assert result.exit_code == 1 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and "broken or truncated" in result.stderr
    assert not (index_dir / "crossbook.db").exists()


def _with_encryption(source, target, algorithm: str, uri: str):
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(target, "w") as copy:
        for item in original.infolist():
            copy.writestr(item, original.read(item.filename))
        copy.writestr("META-INF/encryption.xml", f'<?xml version="1.0"?><encryption '
                      'xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
                      'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData>'
                      f'<enc:EncryptionMethod Algorithm="{algorithm}"/><enc:CipherData>'
                      f'<enc:CipherReference URI="{uri}"/></enc:CipherData></enc:EncryptedData></encryption>')
    return target


def test_drm_is_refused_and_font_obfuscation_is_not(cli, tmp_path, index_dir):
    whole = write_epub(SAMPLE / "grimoire.md", tmp_path / "whole.epub", "The Ashen Grimoire")
    drm = _with_encryption(whole, tmp_path / "drm.epub", "http://www.w3.org/2001/04/xmlenc#aes128-cbc",
                           "EPUB/text/ch001.xhtml")
    result = cli("ingest", drm)
    assert result.exit_code == 1 and result.stdout == ""
    assert "is DRM-protected (1 file encrypted): crossbook reads DRM-free EPUBs only" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (index_dir / "crossbook.db").exists()
    fonts = _with_encryption(whole, tmp_path / "fonts.epub", "http://www.idpf.org/2008/embedding",
                             "EPUB/fonts/serif.otf")
    assert read_book(fonts).title == "The Ashen Grimoire"


def test_an_archive_that_is_no_epub_inside_is_one_line(tmp_path):
    path = tmp_path / "empty.epub"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/epub+zip")
        archive.writestr("notes.txt", "hello")
    with pytest.raises(BadInput, match="has no package file"):
        read_book(path)


def test_the_twin_keeps_the_markdown_heading_tree(tmp_path):
    markdown = read_book(SAMPLE / "grimoire.md")
    twin = read_book(write_epub(SAMPLE / "grimoire.md", tmp_path / "grimoire.epub", markdown.title))
    assert [s.heading_path for s in twin.sections] == [s.heading_path for s in markdown.sections]
    assert twin.title == markdown.title
    assert all(s.file == "EPUB/text/ch001.xhtml" for s in twin.sections)


def test_an_epub_twin_answers_where_else_like_its_markdown(cli, cli_json, tmp_path):
    twins = tmp_path / "epub"
    twins.mkdir()
    originals = [SAMPLE / f"{name}.md" for name in ("core_rules", "grimoire", "bestiary")]
    for original in originals:
        write_epub(original, twins / f"{original.stem}.epub", read_book(original).title)
    markdown_index, epub_index = tmp_path / "md-index", tmp_path / "epub-index"
    assert cli("--index", markdown_index, "ingest", *originals).exit_code == 0
    assert cli("--index", epub_index, "ingest", twins).exit_code == 0
    assert_same_answers(cli_json, markdown_index, epub_index)
    books = cli_json("--index", epub_index, "books")
    assert {b["format"] for b in books} == {"epub"}
    assert all(b["source"].endswith(".epub") for b in books)


def test_a_chapter_whose_dtd_expands_entities_stores_no_dtd_text(tmp_path):
    # the XML parser refuses the nested entities; the chapter is then read as HTML, which must
    # not keep the DTD's internal subset ("]>") as a section of text
    entities = '<!ENTITY lol "lol">' + "".join(
        f'<!ENTITY lol{i} "{("&lol%s;" % (i - 1 if i > 1 else "")) * 10}">' for i in range(1, 10))
    source, target = _ebooklib_book(tmp_path), tmp_path / "dtd.epub"
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(target, "w") as copy:
        for item in original.infolist():
            data = original.read(item.filename)
            if item.filename.endswith("intro.xhtml"):
                start = data.index(b"<html")
                data = data[:start] + b"<!DOCTYPE html [" + entities.encode() + b"]>\n" + data[start:]
                data = data.replace(b"Spells cost", b"Spells &lol9; cost")
            copy.writestr(item, data)
    book = read_book(target)
    assert book.sections[0].heading_path == ("Introduction",)
    assert "]>" not in book.text and "ENTITY" not in book.text and "lollol" not in book.text
