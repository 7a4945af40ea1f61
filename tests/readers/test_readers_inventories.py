"""The authors' inventories (index/readers/inventories): a Sphinx build's objects.inv and a
gtk-doc build's devhelp2 define each entry in the section that holds its anchor, whatever the
markup, typed by its role. Fixtures are written here in the shapes the tools write."""

from __future__ import annotations

import zlib
from pathlib import Path

from crossbook.core.models import Section
from crossbook.readers import read_book
from crossbook.readers.docset import is_docset
from crossbook.readers.files import FolderFiles
from crossbook.readers.inventories import InventoryEntry, placed_terms
from crossbook.readers.inventories.devhelp import devhelp_entries


def write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def objects_inv(lines: list[str]) -> bytes:
    header = (b"# Sphinx inventory version 2\n# Project: Basket\n# Version: 1.0\n"
              b"# The remaining of this file is compressed using zlib.\n")
    return header + zlib.compress("\n".join(lines).encode("utf-8") + b"\n")


# a project's own object type (confkey) in markup the conventions do not read as an entry,
# and a method whose signature is two code runs
BASKET = """<html><body><div role="main"><section id="config">
<h1>Configuration</h1><p>Basket reads its settings from basket.toml.</p>
<section id="keys"><h2>Keys</h2>
<div class="confkey" id="confkey-max_items"><p><strong>max_items</strong> is the largest number of items.</p></div>
</section>
<section id="api"><h2>API</h2>
<dl class="py method"><dt class="sig sig-object py" id="basket.Basket.tally">
<code class="sig-prename descclassname">Basket.</code><code class="sig-name descname">tally</code>()</dt>
<dd><p>Count the items.</p></dd></dl>
</section></section></div></body></html>"""


def sphinx_set(root: Path) -> Path:
    write(root / "config.html", BASKET)
    write(root / "objects.inv", objects_inv([
        "max_items std:confkey 1 config.html#confkey-$ -",
        "basket.Basket.tally py:method 1 config.html#$ -",
        "config std:doc -1 config.html Configuration",
        "keys std:label -1 config.html#keys Keys",
    ]))
    return root


def terms_of(book) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {t.name: (t.kind, s.heading_path) for s in book.sections for t in s.terms}


def test_a_sphinx_inventory_defines_a_projects_own_role_in_its_anchors_section(tmp_path: Path):
    terms = terms_of(read_book(sphinx_set(tmp_path / "basket")))
    assert terms["max_items"] == ("confkey", ("Configuration", "Keys"))


def test_a_sphinx_inventory_names_a_method_as_its_signature_shows_it(tmp_path: Path):
    book = read_book(sphinx_set(tmp_path / "basket"))
    tally = [t for s in book.sections for t in s.terms if t.kind == "method"]
    assert tally and tally[0].name == "Basket.tally" and "basket.Basket.tally" in tally[0].aliases


def test_a_pages_title_and_a_sections_label_are_structure_not_terms(tmp_path: Path):
    terms = terms_of(read_book(sphinx_set(tmp_path / "basket")))
    assert "keys" not in {n.casefold() for n in terms}
    assert "config" not in terms


GTK_PAGE = """<html><body><div class="refentry">
<h1>Main Loop</h1><p>The main event loop.</p>
<div class="refsect2"><a name="g-main-loop-new"></a><h3>g_main_loop_new ()</h3>
<pre class="programlisting">GMainLoop * g_main_loop_new (GMainContext *context);</pre>
<p>Creates a new loop.</p></div>
<div class="refsect2"><a name="GTimeVal"></a><h3>struct GTimeVal</h3>
<table><tr><td><p><a name="GTimeVal.tv-sec"></a>tv_sec</p></td><td><p>seconds</p></td></tr></table>
<p>A time.</p></div>
<div class="refsect2"><a name="GMainLoop"></a><h3>GMainLoop</h3><p>An opaque loop.</p></div>
</div></body></html>"""

DEVHELP = """<?xml version="1.0" encoding="utf-8" standalone="no"?>
<book xmlns="http://www.devhelp.net/book" title="Loop" link="index.html" name="loop" version="2" language="c">
<functions>
<keyword type="function" name="g_main_loop_new ()" link="loop.html#g-main-loop-new"/>
<keyword type="struct" name="struct GTimeVal" link="loop.html#GTimeVal"/>
<keyword type="member" name="GTimeVal.tv-sec" link="loop.html#GTimeVal.tv-sec"/>
<keyword type="function" name="g_nowhere ()" link="loop.html#g-nowhere"/>
</functions></book>"""


def gtk_set(root: Path) -> Path:
    write(root / "loop.html", GTK_PAGE)
    write(root / "loop.devhelp2", DEVHELP)
    return root


def test_a_devhelp_build_is_a_doc_set(tmp_path: Path):
    assert is_docset(gtk_set(tmp_path / "loop"))


def test_a_devhelp_keyword_defines_its_name_under_its_anchors_heading(tmp_path: Path):
    terms = terms_of(read_book(gtk_set(tmp_path / "loop")))
    assert terms["g_main_loop_new"] == ("function", ("Main Loop", "g_main_loop_new ()"))
    assert terms["GTimeVal"][0] == "type"


def test_a_struct_member_keeps_its_underscore(tmp_path: Path):
    entries = {e.name: e for e in devhelp_entries(FolderFiles(gtk_set(tmp_path / "loop")), ["loop.devhelp2"])}
    assert "GTimeVal.tv_sec" in entries
    terms = terms_of(read_book(tmp_path / "loop"))
    assert "tv_sec" in terms


def test_an_entry_no_section_shows_is_left_out(tmp_path: Path):
    terms = terms_of(read_book(gtk_set(tmp_path / "loop")))
    assert "g_nowhere" not in terms


def test_placing_prefers_the_anchors_section_over_an_earlier_mention():
    sections = [Section("Intro", 1, ("Intro",), "# Intro\n\nsee frob_all below", 0),
                Section("frob_all", 2, ("Intro", "frob_all"), "## frob_all\n\nfrob_all frobs", 3)]
    placed = placed_terms([InventoryEntry("frob_all", "function", "p.html", "frob-all")], sections, {"frob-all": 1})
    assert list(placed) == [1]


def test_two_index_entries_the_text_shows_as_one_name_are_one_term_with_both_names():
    # an index lists a concept twice, straight and inverted; the section shows it in its
    # heading's case and in the prose's: one term, the index's other forms its aliases
    sections = [Section("Arithmetic Expansion", 2, ("Arithmetic Expansion",),
                        "## Arithmetic Expansion\n\nArithmetic expansion evaluates; arithmetic expansion is", 0)]
    entries = [InventoryEntry("arithmetic expansion", "index entry", "p.html", "index-arithmetic-expansion"),
               InventoryEntry("expansion, arithmetic", "index entry", "p.html", "index-expansion-arithmetic")]
    placed = placed_terms(entries, sections, {"index-arithmetic-expansion": 0, "index-expansion-arithmetic": 0})
    [term] = placed[0]
    assert term.name == "arithmetic expansion" and term.aliases == ("expansion, arithmetic",)
