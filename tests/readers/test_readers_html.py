"""The HTML reader and the HTML -> Markdown converter the EPUB reader shares."""

import pytest
from markdown_it import MarkdownIt

from crossbook.core.errors import BadInput
from crossbook.readers import read_book
from crossbook.readers.html_markdown import html_to_markdown
from tests.conftest import SAMPLE
from tests.helpers import assert_same_answers

PAGE = b"""<!DOCTYPE html>
<html><head><title>The Ashen Grimoire</title><style>h1 { color: red }</style>
<script>document.write("<h2>Injected</h2>")</script></head>
<body>
<header><nav><a href="/">Home</a> | <a href="/books">Books</a></nav></header>
<main>
<h1>Spells</h1>
<p>Spells cost&nbsp;Ember &amp; time.</p>
<h2>Frost Lance</h2>
<p><strong>Frost Lance</strong> hurls a <em>spear</em> of ice.<br>It costs 3&nbsp;Ember.</p>
<ul><li>Range: 20 paces</li><li>Damage: 2d6<ul><li>cold</li></ul></li></ul>
<h3>Variants</h3>
<table><thead><tr><th>Variant</th><th>Cost</th></tr></thead>
<tbody><tr><td>Split Lance</td><td>+2 | Ember</td></tr><tr><td colspan="2">Deep Lance</td></tr></tbody></table>
<dl><dt>Chilled</dt><dd>Moves at half speed.</dd></dl>
<blockquote><p>Ice remembers.</p></blockquote>
<p>1. Not a list * and not emphasis</p>
<noscript>Enable JavaScript</noscript>
<div hidden>secret</div><p style="display: none">hidden too</p>
</main>
<footer>Copyright 2026 <a href="/about">About</a></footer>
</body></html>
"""


def test_html_becomes_markdown_with_its_structure():
    markdown = html_to_markdown(PAGE)
    assert markdown.startswith("# Spells\n\nSpells cost Ember & time.\n\n## Frost Lance\n")
    assert "**Frost Lance** hurls a *spear* of ice.\nIt costs 3 Ember." in markdown
    assert "- Range: 20 paces\n- Damage: 2d6\n  - cold" in markdown
    assert "### Variants" in markdown
    assert "| Variant | Cost |\n|---|---|\n| Split Lance | +2 \\| Ember |\n| Deep Lance |  |" in markdown
    assert "Chilled\n: Moves at half speed." in markdown
    assert "> Ice remembers." in markdown
    assert "1\\. Not a list \\* and not emphasis" in markdown
    for dropped in ("Home", "Injected", "color", "JavaScript", "secret", "hidden too", "Copyright", "&amp;", "&nbsp;"):
        assert dropped not in markdown


def test_header_and_footer_stay_when_the_page_marks_no_main_content():
    markdown = html_to_markdown(b"<html><body><header><h1>Rules</h1></header><p>Text.</p>"
                                b"<footer>Written by Ada.</footer></body></html>")
    assert markdown == "# Rules\n\nText.\n\nWritten by Ada.\n"


def test_layout_tables_give_their_cells_text_and_headings():
    markdown = html_to_markdown(b"<body><table><tr><td><h2>Sidebar</h2><p>One.</p><p>Two.</p></td></tr></table>"
                                b"<table><tr><td>only one cell</td></tr></table></body>")
    assert markdown == "## Sidebar\n\nOne.\n\nTwo.\n\nonly one cell\n"


def test_an_html_page_is_a_book_titled_by_its_title_tag(tmp_path):
    path = tmp_path / "grimoire.html"
    path.write_bytes(PAGE)
    book = read_book(path)
    assert (book.format, book.title, book.warnings) == ("html", "The Ashen Grimoire", ())
    assert [s.heading_path for s in book.sections] == [
        ("Spells",), ("Spells", "Frost Lance"), ("Spells", "Frost Lance", "Variants")]
    # a page with no <title> is titled by its first <h1>
    path.write_bytes(b"<html><body><h2>Intro</h2><p>x</p><h1>Real Title</h1><p>y</p></body></html>")
    assert read_book(path).title == "Real Title"


def test_a_page_with_no_headings_is_one_section_with_a_warning(tmp_path):
    path = tmp_path / "notes.htm"
    path.write_bytes(b"<html><head><title>Notes</title></head><body><p>Frost Lance is a spell.</p></body></html>")
    book = read_book(path)
    assert len(book.sections) == 1 and book.sections[0].heading is None
    assert book.warnings == (f"'{path}' has no headings (<h1>..<h6>): ingested as one section",)


def test_a_page_with_no_text_and_a_binary_file_are_one_line_errors(tmp_path):
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"<html><head><script>x()</script></head><body><nav>Home</nav></body></html>")
    with pytest.raises(BadInput, match="has no text once scripts"):
        read_book(empty)
    binary = tmp_path / "blob.html"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    with pytest.raises(BadInput, match="binary file"):
        read_book(binary)


def test_bad_html_is_refused_by_the_cli_with_nothing_written(cli, tmp_path, index_dir):
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"<html><body><script>x()</script></body></html>")
    result = cli("ingest", empty)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.strip().count("\n") == 0 and "has no text" in result.stderr
    assert not (index_dir / "crossbook.db").exists()


def _html_twin(markdown_path, out_path):
    """The page a Markdown renderer makes of the book, inside site chrome."""
    body = MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown_path.read_text(encoding="utf-8"))
    title = read_book(markdown_path).title
    out_path.write_text(f"<!DOCTYPE html><html><head><title>{title}</title></head>"
                        f"<body><nav><a href='/'>Home</a></nav><main>{body}</main></body></html>", encoding="utf-8")
    return out_path


def test_an_html_twin_answers_where_else_like_its_markdown(cli, cli_json, tmp_path):
    twins = tmp_path / "html"
    twins.mkdir()
    for name in ("core_rules", "grimoire", "bestiary"):
        _html_twin(SAMPLE / f"{name}.md", twins / f"{name}.html")
    markdown_index, html_index = tmp_path / "md-index", tmp_path / "html-index"
    originals = [SAMPLE / f"{name}.md" for name in ("core_rules", "grimoire", "bestiary")]
    assert cli("--index", markdown_index, "ingest", *originals).exit_code == 0
    assert cli("--index", html_index, "ingest", twins).exit_code == 0
    assert [b["title"] for b in cli_json("--index", html_index, "books")] == \
        [b["title"] for b in cli_json("--index", markdown_index, "books")]
    assert_same_answers(cli_json, markdown_index, html_index)
    books = cli_json("--index", html_index, "books")
    assert {b["format"] for b in books} == {"html"}
    assert all(b["source"].endswith(".html") for b in books)


def test_a_heading_inside_an_inline_element_stays_a_heading():
    markdown = html_to_markdown(b'<body><a id="ch3"><h2>Frost Lance</h2><p>A <b>spear</b>.</p></a>'
                                b'<span>after</span> it</body>')
    assert markdown == "## Frost Lance\n\nA **spear**.\n\nafter it\n"


def test_epub_chrome_in_the_text_is_dropped_and_an_image_heading_reads_its_alt_text():
    markdown = html_to_markdown(
        b'<body><h2><img alt="Chapter One" src="c1.png"/></h2><p>Frost<a epub:type="noteref" href="#n1">1</a>'
        b' Lance<span epub:type="pagebreak" title="12">12</span> hurls ice.</p></body>')
    assert markdown == "## Chapter One\n\nFrost Lance hurls ice.\n"


def test_a_page_without_a_declared_charset_is_read_as_utf8_else_as_it_declares(tmp_path):
    path = tmp_path / "guide.html"
    path.write_bytes("<html><body><h1>Veterans’ Guide</h1><p>Café rules.</p></body></html>".encode())
    book = read_book(path)
    assert book.title == "Veterans’ Guide" and "Café rules." in book.sections[0].text
    # an XML declaration counts only where it declares: at the start, not pasted in the body
    path.write_bytes('<html><body><?xml version="1.0" encoding="latin-1"?><p>Ally’s Shield</p></body></html>'.encode())
    assert "Ally’s Shield" in read_book(path).text
    path.write_bytes('<html><head><meta charset="windows-1252"></head><body><p>Café</p></body></html>'.encode("cp1252"))
    assert "Café" in read_book(path).text


SPHINX_PAGE = """<!DOCTYPE html>
<html><head><title>json — JSON encoder and decoder</title></head><body>
<div class="related" role="navigation"><ul><li><a href="index.html">index</a></li></ul></div>
<div class="document"><div class="documentwrapper"><div class="bodywrapper">
<div class="body" role="main">
<section id="lists"><h1>Lists<a class="headerlink" href="#lists" title="Permalink to this heading">\u00b6</a></h1>
<p>Lists hold values.</p>
<dl class="py function"><dt class="sig" id="json.dump"><code>json.dump</code>(<em>obj</em>)
<a class="headerlink" href="#json.dump" title="Permalink to this definition">\u00b6</a></dt>
<dd><p>Write <em>obj</em> to a file.</p></dd></dl>
<section id="tuples"><h2>Tuples<a href="#tuples">\u00a7</a></h2><p>Tuples are fixed.</p></section>
</section></div></div></div></div>
<div class="footer">\u00a9 <a href="../copyright.html">Copyright</a> 2001-2026, A Foundation.
<br/>Created using <a href="https://www.sphinx-doc.org/">Sphinx</a> 5.3.0.</div>
</body></html>""".encode()


def test_permalink_marks_and_a_theme_footer_are_left_out(tmp_path):
    # Sphinx writes a "headerlink" anchor drawn as a pilcrow after every heading and definition,
    # and its themes put the site footer in a <div class="footer"> beside the role="main" block
    path = tmp_path / "json.html"
    path.write_bytes(SPHINX_PAGE)
    book = read_book(path)
    assert [s.heading for s in book.sections] == ["Lists", "Tuples"]
    assert "\u00b6" not in book.text and "\u00a7" not in book.text
    assert "`json.dump`(*obj*)\n: Write *obj* to a file." in book.text
    assert "Copyright" not in book.text and "Sphinx" not in book.text
    assert book.sections[-1].text.rstrip().endswith("Tuples are fixed.")


def test_a_footer_div_inside_the_main_content_stays():
    markdown = html_to_markdown(b"<html><body><div role='main'><h1>Notes</h1><p>Text.</p>"
                                b"<div class='footer'>Signed, Ada.</div></div></body></html>")
    assert markdown == "# Notes\n\nText.\n\nSigned, Ada.\n"


def test_an_xhtml_chapter_with_an_entity_expanding_dtd_stores_no_markup(tmp_path):
    # the XML parser refuses the nested entities (good); the HTML fallback must not read the
    # DOCTYPE's internal subset as text ("]>")
    entities = '<!ENTITY lol "lol">\n' + "".join(
        f'<!ENTITY lol{i} "{("&lol%s;" % (i - 1 if i > 1 else "")) * 10}">\n' for i in range(1, 10))
    path = tmp_path / "chapter.xhtml"
    path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html [\n' + entities + ']>\n'
                    '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Bomb</title></head>'
                    '<body><h1>Chapter</h1><p>Text &lol9; here.</p></body></html>', encoding="utf-8")
    book = read_book(path)
    assert [s.heading for s in book.sections] == ["Chapter"]
    assert "]>" not in book.text and "ENTITY" not in book.text
    assert "lollol" not in book.text
