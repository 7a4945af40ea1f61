"""The inventories of Javadoc (its search indexes), Doxygen (a tag file, else its index pages)
and Texinfo HTML (its index nodes): each entry defines its name in the section that holds its
anchor, typed by its role, its name keeping its characters. Fixtures are written here in the
shapes the tools write (Javadoc 17, Doxygen 1.9, Texinfo 6.8)."""

from __future__ import annotations

from pathlib import Path

from crossbook.readers import read_book
from crossbook.readers.files import FolderFiles
from crossbook.readers.inventories import has_inventory, inventory_entries


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def terms_of(book) -> dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """name -> (kind, heading path, aliases) of every term of the book's sections."""
    return {t.name: (t.kind, s.heading_path, t.aliases) for s in book.sections for t in s.terms}


# -- Javadoc ---------------------------------------------------------------------------------

JAVADOC_PAGE = """<!DOCTYPE HTML><html lang="en"><head><title>Basket</title></head><body class="class-declaration-page">
<main role="main"><div class="header"><div class="sub-title">Package org.shop</div>
<h1 title="Class Basket" class="title">Class Basket</h1></div>
<section class="class-description" id="class-description"><div class="block">A basket of items.</div></section>
<section class="details"><section class="field-details" id="field-detail"><h2>Field Details</h2>
<ul class="member-list"><li><section class="detail" id="MAX_ITEMS"><h3>MAX_ITEMS</h3>
<div class="member-signature"><span class="modifiers">public static final</span>&nbsp;<span class="return-type">int</span>
&nbsp;<span class="element-name">MAX_ITEMS</span></div><div class="block">The largest number of items.</div></section></li></ul>
</section><section class="method-details" id="method-detail"><h2>Method Details</h2>
<ul class="member-list"><li><section class="detail" id="isBlank(java.lang.CharSequence)"><h3>isBlank</h3>
<div class="member-signature"><span class="modifiers">public static</span>&nbsp;<span class="return-type">boolean</span>
&nbsp;<span class="element-name">isBlank</span><wbr><span class="parameters">(CharSequence&nbsp;cs)</span></div>
<div class="block">Checks if a CharSequence is empty or whitespace only.</div></section></li></ul>
</section></section></main></body></html>"""


def javadoc_set(root: Path) -> Path:
    write(root / "org/shop/Basket.html", JAVADOC_PAGE)
    write(root / "element-list", "org.shop\n")
    write(root / "type-search-index.js", 'typeSearchIndex = [{"p":"org.shop","l":"Basket"},'
                                           '{"l":"All Classes and Interfaces","u":"allclasses-index.html"}];updateSearchResults();')
    write(root / "member-search-index.js", 'memberSearchIndex = [{"p":"org.shop","c":"Basket","l":"MAX_ITEMS"},'
                                             '{"p":"org.shop","c":"Basket","l":"isBlank(CharSequence)",'
                                             '"u":"isBlank(java.lang.CharSequence)"}];updateSearchResults();')
    return root


def test_a_javadoc_search_index_is_an_inventory_typed_by_its_form(tmp_path: Path):
    root = javadoc_set(tmp_path / "api")
    entries = {e.name: e for found in inventory_entries(FolderFiles(root), []).values() for e in found}
    assert has_inventory(FolderFiles(root))
    assert entries["Basket.isBlank"].kind == "method" and entries["Basket.isBlank"].anchor == "isBlank(java.lang.CharSequence)"
    assert entries["Basket.MAX_ITEMS"].kind == "field"
    assert entries["Basket"].kind == "class" and entries["Basket"].page == "org/shop/Basket.html"
    assert "All Classes and Interfaces" not in entries


def test_a_javadoc_method_is_defined_in_its_detail_section_with_its_class_qualified_name(tmp_path: Path):
    terms = terms_of(read_book(javadoc_set(tmp_path / "api")))
    kind, path, aliases = terms["isBlank"]
    assert kind == "method" and path[-2:] == ("Method Details", "isBlank")  # its detail: a section of its own
    assert "Basket.isBlank" in aliases and "org.shop.Basket.isBlank" in aliases
    assert terms["MAX_ITEMS"][0] == "field"


# -- Doxygen -----------------------------------------------------------------------------------

DOXYGEN_PAGE = """<!DOCTYPE html><html><head><meta name="generator" content="Doxygen 1.9.4"/>
<title>libstdc++: std::vector Class Reference</title></head><body>
<div class="header"><div class="headertitle"><div class="title">__gnu_cxx::__pool Class Reference</div></div></div>
<div class="contents"><p>A pool of memory.</p>
<h2 class="groupheader">Member Function Documentation</h2>
<a id="a1f2" name="a1f2"></a>
<h2 class="memtitle"><span class="permalink"><a href="#a1f2">&#9670;&#160;</a></span>_M_reserve_block()</h2>
<div class="memitem"><div class="memproto"><table class="memname"><tr>
<td class="memname">void __gnu_cxx::__pool::_M_reserve_block</td><td>(</td><td class="paramname"></td><td>)</td>
</tr></table></div><div class="memdoc"><p>Reserves a block.</p></div></div>
</div></body></html>"""

TAG_FILE = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<tagfile doxygen_version="1.9.4">
  <compound kind="class"><name>__gnu_cxx::__pool</name><filename>a001.html</filename>
    <member kind="function"><type>void</type><name>_M_reserve_block</name><anchorfile>a001.html</anchorfile>
      <anchor>a1f2</anchor><arglist>()</arglist></member>
  </compound>
  <compound kind="page"><name>index</name><title>Main Page</title><filename>index.html</filename></compound>
</tagfile>
"""


def test_a_doxygen_tag_file_types_a_member_of_a_class_as_a_method_named_with_its_scope(tmp_path: Path):
    root = tmp_path / "api"
    write(root / "a001.html", DOXYGEN_PAGE)
    write(root / "libstdc++.tag", TAG_FILE)
    entries = {e.name: e for found in inventory_entries(FolderFiles(root), []).values() for e in found}
    assert set(entries) == {"__gnu_cxx::__pool", "__gnu_cxx::__pool::_M_reserve_block"}  # a page is structure
    assert entries["__gnu_cxx::__pool::_M_reserve_block"].kind == "method"
    assert entries["__gnu_cxx::__pool"].kind == "class"


def test_a_name_the_pages_markdown_escapes_is_defined_with_its_underscores(tmp_path: Path):
    root = tmp_path / "api"
    write(root / "a001.html", DOXYGEN_PAGE)
    write(root / "libstdc++.tag", TAG_FILE)
    terms = terms_of(read_book(root))
    assert terms["__gnu_cxx::__pool"][0] == "class"
    member = next(name for name, (kind, _, _) in terms.items() if kind == "method")
    assert member.endswith("_M_reserve_block")
    assert "__gnu_cxx::__pool::_M_reserve_block" in {member, *terms[member][2]}


DOXYGEN_CLASS = """<html><head><meta name="generator" content="Doxygen 1.9.4"/></head><body>
<div class="header"><div class="headertitle"><div class="title">Autolink_Test Class Reference</div></div></div>
<div class="contents"><h2 class="groupheader">Member Function Documentation</h2>
<a id="a393" name="a393"></a><h2 class="memtitle">member()</h2>
<div class="memitem"><div class="memproto"><table class="memname"><tr><td class="memname">void Autolink_Test::member</td>
<td>(</td><td>)</td></tr></table></div><div class="memdoc"><p>A member function.</p></div></div></div></body></html>"""


def doxygen_index_pages(root: Path) -> Path:
    html = root / "autolink" / "html"
    write(html / "class_autolink___test.html", DOXYGEN_CLASS)
    head = '<html><head><meta name="generator" content="Doxygen 1.9.4"/></head><body><div class="contents">'
    write(html / "annotated.html", head + '<table class="directory"><tr id="row_0_"><td class="entry">'
                                          '<a class="el" href="class_autolink___test.html">Autolink_Test</a></td></tr></table></div></body></html>')
    write(html / "functions_func.html", head + '<ul><li>member()&#160;:&#160;<a class="el" '
                                               'href="class_autolink___test.html#a393">Autolink_Test</a></li></ul></div></body></html>')
    return root


def test_doxygen_index_pages_below_the_root_are_the_inventory_without_a_tag_file(tmp_path: Path):
    root = doxygen_index_pages(tmp_path / "examples")
    entries = {e.name: e for found in inventory_entries(FolderFiles(root), []).values() for e in found}
    assert entries["Autolink_Test"].kind == "class"
    assert entries["Autolink_Test"].page == "autolink/html/class_autolink___test.html"
    assert entries["Autolink_Test::member"].kind == "function" and entries["Autolink_Test::member"].anchor == "a393"


# -- Texinfo -----------------------------------------------------------------------------------

TEXINFO_PAGE = """<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<html><!-- Created by GNU Texinfo 6.8, https://www.gnu.org/software/texinfo/ --><head><title>Shell Manual</title></head><body>
<div class="chapter" id="Shell-Variables"><span id="Shell-Variables-1"></span><h2 class="chapter">5 Shell Variables</h2>
<p>This chapter describes the shell variables.</p>
<dl compact="compact">
<dt><span id="index-BASH_005fVERSION"></span><span><code>BASH_VERSION</code></span></dt>
<dd><p>The version number of the current instance of Bash.</p></dd>
</dl>
</div>
<div class="chapter" id="Compound-Commands"><h2 class="chapter">6 Compound Commands</h2>
<span id="index-commands_002c-compound"></span><p>Compound commands are the shell programming language constructs.</p>
</div>
<div class="appendix" id="Indexes"><h2 class="appendix">Appendix A Indexes</h2>
<div class="appendixsec" id="Variable-Index"><h3 class="appendixsec">A.1 Parameter and Variable Index</h3>
<table class="index-vr" border="0"><tr><td></td><th align="left">Index Entry</th><td>&nbsp;</td><th align="left"> Section</th></tr>
<tr><td></td><td valign="top"><a href="#index-BASH_005fVERSION"><code>BASH_VERSION</code></a>:</td><td>&nbsp;</td>
<td valign="top"><a href="#Shell-Variables">Shell Variables</a></td></tr>
</table></div>
<div class="appendixsec" id="Concept-Index"><h3 class="appendixsec">A.2 Concept Index</h3>
<table class="index-cp" border="0">
<tr><td></td><td valign="top"><a href="#index-commands_002c-compound">commands, compound</a>:</td><td>&nbsp;</td>
<td valign="top"><a href="#Compound-Commands">Compound Commands</a></td></tr>
</table></div></div></body></html>"""


def test_a_texinfo_index_node_is_an_inventory_typed_by_its_index(tmp_path: Path):
    root = tmp_path / "manual"
    write(root / "shell.html", TEXINFO_PAGE)
    entries = {e.name: e for found in inventory_entries(FolderFiles(root), []).values() for e in found}
    assert entries["BASH_VERSION"].kind == "variable" and entries["BASH_VERSION"].anchor == "index-BASH_005fVERSION"
    assert entries["commands, compound"].kind == "index entry"
    assert {e.page for e in entries.values()} == {"shell.html"}


def test_a_texinfo_entry_is_defined_in_its_anchors_section_and_an_inverted_one_as_the_text_reads(tmp_path: Path):
    root = tmp_path / "manual"
    write(root / "shell.html", TEXINFO_PAGE)
    terms = terms_of(read_book(root, fmt="docset"))
    assert terms["BASH_VERSION"][:2] == ("variable", ("Shell Manual", "5 Shell Variables"))
    kind, path, aliases = terms["Compound Commands"]
    assert kind == "index entry" and path[-1] == "6 Compound Commands" and "commands, compound" in aliases


def test_a_page_a_tool_did_not_index_is_no_inventory(tmp_path: Path):
    write(tmp_path / "plain" / "page.html", "<html><body><h1>Notes</h1><table class='index-x'></table></body></html>")
    write(tmp_path / "plain" / "member-search-index.js", "memberSearchIndex = [];")  # no element-list: not Javadoc's
    assert not has_inventory(FolderFiles(tmp_path / "plain"))


# Texinfo 7.1 writes its index nodes with other classes: a table per index named
# "<code>-entries-printindex", the entry cell "printindex-index-entry" first in its row, the
# section cell after it, and index anchors as <a class="index-entry-id">
TEXINFO7_PAGE = """<!DOCTYPE html><html><!-- Created by GNU Texinfo 7.1, https://www.gnu.org/software/texinfo/ -->
<head><title>Shell Manual</title></head><body>
<div class="chapter-level-extent" id="Shell-Variables"><h2 class="chapter" id="Shell-Variables-1"><span>5 Shell Variables</span></h2>
<p>This chapter describes the shell variables.</p>
<dl class="vtable"><dt><a id="index-BASH_005fVERSION"></a><span><code class="code">BASH_VERSION</code></span></dt>
<dd><p>The version number of the current instance of Bash.</p></dd></dl></div>
<div class="chapter-level-extent" id="Compound-Commands"><h2 class="chapter"><span>6 Compound Commands</span></h2>
<a class="index-entry-id" id="index-commands_002c-compound"></a><p>Compound commands are the shell programming language constructs.</p></div>
<div class="appendix-level-extent" id="Indexes"><h2 class="appendix"><span>Appendix A Indexes</span></h2>
<div class="appendix-level-extent" id="Variable-Index"><h3 class="appendix"><span>A.1 Parameter and Variable Index</span></h3>
<div class="printindex vr-printindex"><table class="index-entries-printindex vr-entries-printindex">
<tr><th class="index-letter-header-printindex vr-letter-header-printindex" colspan="2" id="Variable-Index_vr_letter-B">B</th></tr>
<tr><td class="printindex-index-entry"><a href="#index-BASH_005fVERSION"><code>BASH_VERSION</code></a></td>
<td class="printindex-index-section"><a href="#Shell-Variables">Shell Variables</a></td></tr>
</table></div></div>
<div class="appendix-level-extent" id="Concept-Index"><h3 class="appendix"><span>A.2 Concept Index</span></h3>
<div class="printindex cp-printindex"><table class="cp-entries-printindex" border="0">
<tr><td></td><th class="entries-header-printindex">Index Entry</th><td>&nbsp;</td><th class="sections-header-printindex"> Section</th></tr>
<tr><td></td><td class="printindex-index-entry"><a href="#index-commands_002c-compound">commands, compound</a>:</td><td>&nbsp;</td>
<td class="printindex-index-section"><a href="#Compound-Commands">Compound Commands</a></td></tr>
</table></div></div></div></body></html>"""


def test_a_texinfo_7_index_node_is_read_as_a_texinfo_6_one(tmp_path: Path):
    root = tmp_path / "manual"
    write(root / "shell.html", TEXINFO7_PAGE)
    entries = {e.name: e for found in inventory_entries(FolderFiles(root), []).values() for e in found}
    # the section cells ("Shell Variables") are where an entry is, not entries
    assert set(entries) == {"BASH_VERSION", "commands, compound"}
    assert entries["BASH_VERSION"].kind == "variable" and entries["BASH_VERSION"].anchor == "index-BASH_005fVERSION"
    terms = terms_of(read_book(root, fmt="docset"))
    assert terms["BASH_VERSION"][:2] == ("variable", ("Shell Manual", "5 Shell Variables"))
    kind, path, aliases = terms["Compound Commands"]
    assert kind == "index entry" and path[-1] == "6 Compound Commands" and "commands, compound" in aliases


# Javadoc 8 wrote no search index: its member index, split by letter (-splitindex), is the inventory
JAVADOC8_INDEX = """<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><html><head><title>I-Index</title></head>
<body><div class="contentContainer"><a name="I:I"><!-- --></a><h2 class="title">I</h2>
<dl>
<dt><span class="memberNameLink"><a href="../org/shop/Basket.html#isBlank-java.lang.CharSequence-">isBlank(CharSequence)</a></span>
 - Static method in class org.shop.<a href="../org/shop/Basket.html" title="class in org.shop">Basket</a></dt>
<dd><div class="block">Checks if a CharSequence is empty or whitespace only.</div></dd>
<dt><span class="memberNameLink"><a href="../org/shop/Basket.html#MAX_ITEMS">MAX_ITEMS</a></span>
 - Static variable in class org.shop.<a href="../org/shop/Basket.html" title="class in org.shop">Basket</a></dt>
<dt><a href="../org/shop/Basket.html" title="class in org.shop"><span class="typeNameLink">Basket</span></a>
 - Class in <a href="../org/shop/package-summary.html">org.shop</a></dt>
<dt><a href="../org/shop/package-summary.html">org.shop</a> - package org.shop</dt>
</dl></div></body></html>"""


def test_a_javadoc_8_member_index_is_the_inventory_of_a_build_without_search_indexes(tmp_path: Path):
    root = tmp_path / "api"
    write(root / "org/shop/Basket.html", JAVADOC_PAGE)
    write(root / "package-list", "org.shop\n")
    write(root / "index-files/index-9.html", JAVADOC8_INDEX)
    entries = {e.name: e for found in inventory_entries(FolderFiles(root), []).values() for e in found}
    assert set(entries) == {"Basket.isBlank", "Basket.MAX_ITEMS", "Basket"}  # a package's summary is no entry
    assert entries["Basket.isBlank"].kind == "method" and entries["Basket.isBlank"].page == "org/shop/Basket.html"
    assert "org.shop.Basket.isBlank" in entries["Basket.isBlank"].aliases
    assert entries["Basket.MAX_ITEMS"].kind == "field" and entries["Basket"].aliases == ("org.shop.Basket",)
    write(root / "member-search-index.js", 'memberSearchIndex = [{"p":"org.shop","c":"Basket","l":"isBlank(CharSequence)"}];')
    entries = {e.name for found in inventory_entries(FolderFiles(root), []).values() for e in found}
    assert entries == {"Basket.isBlank"}  # a search index, where the build wrote one, is read instead
