"""The search indexes documentation tools write, read as exact inventories (index/readers/
inventories): rustdoc's search-index.js, mdBook's and MkDocs' search indexes (their headings
that name a thing) and RDoc's js/search_index.js. Fixtures are written here in the shapes the
tools write."""

from __future__ import annotations

import json
from pathlib import Path

from crossbook.core.models import Section
from crossbook.readers import read_book
from crossbook.readers.inventories import InventoryEntry, placed_terms
from crossbook.readers.inventories.heading_names import heading_names
from crossbook.readers.inventories.rustdoc import index_entries


def write(path: Path, data: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data, encoding="utf-8")
    return path


def terms_of(book) -> dict[str, tuple[str, str, tuple[str, ...]]]:
    return {t.name: (t.kind, s.file, t.aliases) for s in book.sections for t in s.terms}


# rustdoc 1.6x: types t, names n, paths q ("" repeats), parents i (1-based into p), in a JS string
RUSTDOC_INDEX = {"basket": {"doc": "", "t": [3, 11, 11, 8, 0, 14, 12],
                            "n": ["Basket", "push", "borrow", "Fill", "tools", "basket", "size"],
                            "q": ["basket", "", "", "", "", "", "basket::tools"],
                            "d": [""] * 7, "i": [0, 1, 1, 0, 0, 0, 2], "f": [None] * 7,
                            "p": [[3, "Basket"], [3, "Crate"]]}}
BLANKET = ('<section id="method.borrow" class="method trait-impl"><h4 class="code-header">fn borrow(&amp;self)'
           ' -&gt; &amp;T</h4><div class="docblock"><p>Immutably borrows from an owned value.</p></div></section>')


def rustdoc_page(title: str, body: str) -> str:
    return (f'<html><head><title>{title}</title></head><body><nav class="sidebar"><a href="../index.html">basket</a>'
            f'</nav><main><h1 class="fqn">{title}</h1>{body}<h2 id="blanket">Blanket Implementations</h2>'
            f'{BLANKET}</main></body></html>')


def rustdoc_set(root: Path) -> Path:
    body = json.dumps(RUSTDOC_INDEX).replace("'", "\\'")
    write(root / "search-index.js", f"var searchIndex = JSON.parse('{body}');\nif (window.initSearch) {{}}")
    write(root / "crates.js", 'window.ALL_CRATES = ["basket"];')
    write(root / "basket/struct.Basket.html", rustdoc_page(
        "Struct basket::Basket", '<p>A basket of items.</p><section id="method.push" class="method">'
        '<h4 class="code-header">pub fn push(&amp;mut self, item: Item)</h4><p>Adds an item.</p></section>'))
    write(root / "basket/trait.Fill.html", rustdoc_page("Trait basket::Fill", "<p>What fills a basket.</p>"))
    write(root / "basket/macro.basket.html", rustdoc_page("Macro basket::basket", "<p>Makes a basket.</p>"))
    write(root / "basket/tools/index.html", rustdoc_page("Module basket::tools", "<p>Tools for baskets.</p>"))
    write(root / "basket/tools/struct.Crate.html", rustdoc_page(
        "Struct basket::tools::Crate", '<p>A crate.</p><span id="structfield.size">size: usize</span>'))
    return root


def test_rustdocs_search_index_gives_each_item_its_page_anchor_and_kind(tmp_path: Path):
    entries = {e.name: e for e in index_entries(rustdoc_set(tmp_path / "doc").joinpath("search-index.js").read_text())}
    assert entries["basket::Basket"] == InventoryEntry("basket::Basket", "struct", "basket/struct.Basket.html")
    assert entries["basket::Basket::push"].page == "basket/struct.Basket.html"
    assert entries["basket::Basket::push"].anchor == "method.push"
    assert entries["basket::tools"].page == "basket/tools/index.html"
    assert entries["basket::tools::Crate::size"].anchor == "structfield.size"
    assert entries["basket::basket"].kind == "macro" and entries["basket::Fill"].kind == "trait"


def test_rustdocs_later_compact_columns_are_read(tmp_path: Path):
    """From 1.69 the types are one letter each and the paths sparse [position, path] pairs."""
    index = {"basket": {"t": "DL", "n": ["Basket", "push"], "q": [[0, "basket"]], "i": [0, 1], "p": [[3, "Basket"]]}}
    pairs = json.dumps(list(index.items()))
    file = write(tmp_path / "search-index.js", f"var searchIndex = new Map(JSON.parse('{pairs}'));")
    names = {e.name: e.kind for e in index_entries(file.read_text())}
    assert names == {"basket::Basket": "struct", "basket::Basket::push": "method"}


def test_a_rustdoc_set_defines_each_item_on_its_page(tmp_path: Path):
    terms = terms_of(read_book(rustdoc_set(tmp_path / "doc")))
    assert terms["basket::Basket"][:2] == ("struct", "basket/struct.Basket.html")
    assert terms["push"][:2] == ("method", "basket/struct.Basket.html")
    assert "basket::Basket::push" in terms["push"][2]
    assert terms["size"][:2] == ("field", "basket/tools/struct.Crate.html")


def test_a_method_every_page_repeats_is_no_boilerplate_where_the_inventory_names_it(tmp_path: Path):
    """A blanket implementation's method reads alike on every page, which the boilerplate
    learner leaves out; the index names it on each page, so it stays."""
    book = read_book(rustdoc_set(tmp_path / "doc"))
    pages = {s.file for s in book.sections for t in s.terms if t.name == "borrow"}
    assert "basket/struct.Basket.html" in pages


MDBOOK_PAGE = """<html><head><title>Other reprs - The Book</title></head><body><main>
<h1 id="alternative-representations"><a class="header" href="#alternative-representations">Alternative representations</a></h1>
<p>Types may be laid out otherwise.</p>
<h2 id="reprc"><a class="header" href="#reprc">repr(C)</a></h2><p>This is the most important repr.</p>
<h2 id="why-it-matters"><a class="header" href="#why-it-matters">Why it matters</a></h2><p>It matters.</p>
</main></body></html>"""


def mdbook_set(root: Path) -> Path:
    urls = ["other-reprs.html#alternative-representations", "other-reprs.html#reprc", "other-reprs.html#why-it-matters"]
    titles = ["Alternative representations", "repr(C)", "Why it matters"]
    docs = {str(i): {"id": str(i), "title": t, "body": "", "breadcrumbs": t} for i, t in enumerate(titles)}
    index = {"doc_urls": urls, "index": {"documentStore": {"docs": docs}}}
    write(root / "searchindex.js", f"Object.assign(window.search, {json.dumps(index)});")
    write(root / "book.js", "// mdBook")
    write(root / "other-reprs.html", MDBOOK_PAGE)
    return root


def test_an_mdbook_heading_that_names_a_thing_defines_it_in_its_section(tmp_path: Path):
    book = read_book(mdbook_set(tmp_path / "book"))
    found = [(t.name, t.kind, s.heading_path[-1]) for s in book.sections for t in s.terms if t.name == "repr(C)"]
    assert found == [("repr(C)", "section", "repr(C)")]
    assert not [t for s in book.sections for t in s.terms if t.name == "Why it matters"]


def test_a_sphinx_searchindex_is_no_mdbook_index(tmp_path: Path):
    root = tmp_path / "sphinx"
    write(root / "searchindex.js", 'Search.setIndex({"docnames": ["index"], "titles": ["Home"]})')
    write(root / "index.html", "<html><body><h1>Home</h1><p>Welcome.</p></body></html>")
    assert read_book(root).warnings == ()


def test_heading_names_are_code_not_prose():
    assert heading_names("site_name") == ["site_name"]
    assert heading_names("-v/--verbose: use verbose output") == ["-v", "--verbose"]
    assert heading_names("repr(u*), repr(i*)") == ["repr(u*)", "repr(i*)"]
    assert heading_names("mkdocs.yml") == ["mkdocs.yml"] and heading_names("std::io::Read") == ["std::io::Read"]
    assert heading_names("Getting Started") == [] and heading_names("Traits") == [] and heading_names("ABI") == []


RDOC_PAGE = """<html><head><title>class Basket - RDoc Documentation</title></head><body>
<nav id="navigation"><a href="index.html">Home</a></nav><main>
<h1 id="class-Basket" class="class">class Basket</h1><section class="description"><p>A basket.</p></section>
<div id="method-i-push" class="method-detail"><div class="method-heading"><span class="method-name">push</span>
<span class="method-args">(item)</span></div><div class="method-description"><p>Adds an item.</p></div></div>
<div id="method-c-open" class="method-detail"><div class="method-heading"><span class="method-name">open</span>
</div><div class="method-description"><p>Opens a basket.</p></div></div>
</main></body></html>"""


def test_rdocs_search_index_defines_classes_and_methods_on_their_pages(tmp_path: Path):
    root = tmp_path / "rdoc"
    info = [["Basket", "", "Basket.html", "", ""], ["push", "Basket", "Basket.html#method-i-push", "(item)", ""],
            ["open", "Basket", "Basket.html#method-c-open", "()", ""]]
    write(root / "js/search_index.js", "var search_data = " + json.dumps({"index": {"info": info}}) + ";")
    write(root / "Basket.html", RDOC_PAGE)
    terms = terms_of(read_book(root))
    assert terms["Basket"][:2] == ("class", "Basket.html")
    assert terms["push"][:2] == ("method", "Basket.html") and "Basket#push" in terms["push"][2]
    assert "Basket.open" in terms["open"][2]


MKDOCS_PAGE = """<html><head><title>Configuration - MkDocs</title></head><body><div role="main">
<h1 id="configuration">Configuration</h1><p>The settings live in mkdocs.yml.</p>
<h3 id="site_name">site_name<a class="headerlink" href="#site_name">&para;</a></h3><p>The site's name.</p>
<h3 id="introduction">Introduction</h3><p>An introduction.</p></div></body></html>"""


def test_an_mkdocs_index_defines_its_named_headings_on_directory_pages(tmp_path: Path):
    root = tmp_path / "site"
    docs = [{"location": "user-guide/", "title": "Configuration", "text": ""},
            {"location": "user-guide/#site_name", "title": "site_name", "text": ""},
            {"location": "user-guide/#introduction", "title": "Introduction", "text": ""}]
    write(root / "search/search_index.json", json.dumps({"config": {}, "docs": docs}))
    write(root / "user-guide/index.html", MKDOCS_PAGE)
    terms = terms_of(read_book(root))
    assert terms["site_name"][:2] == ("section", "user-guide/index.html")
    assert "Introduction" not in terms


def test_a_title_led_by_its_kind_word_gives_the_inventorys_name_as_the_pages_subject(tmp_path: Path):
    """"Struct basket::Basket" is the page of basket::Basket: one subject, as the index names it."""
    book = read_book(rustdoc_set(tmp_path / "doc"))
    subjects = [(t.name, t.kind) for s in book.sections for t in s.terms
                if t.subject and s.file == "basket/struct.Basket.html"]
    assert subjects == [("basket::Basket", "struct")]
    named = [t for s in book.sections for t in s.terms if t.name == "basket::Basket"]
    assert len(named) == 1


def test_a_sections_anchor_is_its_headings_though_a_source_link_stands_before_it(tmp_path: Path):
    """rustdoc writes ``<section id="method.from"><span class="rightside">source</span><h4>``:
    the anchor is the heading's, not the section before it (whose prose says "from")."""
    root = rustdoc_set(tmp_path / "doc")
    index = json.loads(json.dumps(RUSTDOC_INDEX))
    index["basket"]["t"].append(11)
    index["basket"]["n"].append("from")
    for column, value in (("q", "basket"), ("d", ""), ("i", 1), ("f", None)):
        index["basket"][column].append(value)
    write(root / "search-index.js", f"var searchIndex = JSON.parse('{json.dumps(index)}');")
    write(root / "basket/struct.Basket.html", rustdoc_page("Struct basket::Basket", (
        '<p>A basket.</p><section id="method.clone_from" class="method"><span class="rightside"><a href="#">source</a>'
        '</span><h4 class="code-header">fn clone_from(&amp;mut self, source: &amp;Self)</h4><p>Performs copy-assignment'
        ' from source.</p></section><section id="method.from" class="method"><span class="rightside"><a href="#">'
        'source</a></span><h4 class="code-header">fn from(basket: Crate) -&gt; Basket</h4><p>Converts.</p></section>')))
    book = read_book(root)
    found = [s.heading_path[-1] for s in book.sections for t in s.terms if t.name == "from"]
    assert found == ["fn from(basket: Crate) -> Basket"]


def test_an_entry_its_anchors_neighbours_do_not_show_is_found_in_another_section_of_its_page():
    sections = [Section("Nodes", 1, ("Nodes",), "# Nodes\n\nThe node classes.", 0),
                Section("Kinds", 2, ("Nodes", "Kinds"), "## Kinds\n\nThe kinds.", 2),
                Section("Lists", 2, ("Nodes", "Lists"), "## Lists\n\nSee also", 4),
                Section("Top", 2, ("Nodes", "Top"), "## Top\n\nall of them live in basket.nodes", 6)]
    placed = placed_terms([InventoryEntry("basket.nodes", "module", "nodes.html", "module-basket.nodes")],
                          sections, {"module-basket.nodes": 0})
    assert {i: [t.name for t in terms] for i, terms in placed.items()} == {3: ["basket.nodes"]}
