"""An entry whose id spells its signature (``spoolDepth:Int``, ``tint[B](f:A=>B):Mix[B]``)
defines its name (readers/docset/anchors.py), in the section of the heading its anchors stand
before (readers/docset/__init__.py), however Markdown renders that heading."""

from __future__ import annotations

from pathlib import Path

from crossbook.readers import read_book
from crossbook.readers.docset.anchors import id_forms, spelled_name

from .test_docset_anchors import defined


def test_a_name_before_the_colon_its_id_writes_is_the_name_not_a_label():
    assert spelled_name("def spoolDepth: Int", id_forms("spoolDepth:Int", ()), ident="spoolDepth:Int") \
        == ("spoolDepth", "")
    # a label the id does not write before a colon of its own goes, as before
    assert spelled_name("Class: FileHandle", id_forms("class-filehandle", ()), ident="class-filehandle")[0] \
        == "FileHandle"


def test_a_type_after_the_ids_colon_folds_away_as_an_overloads_parameters_do():
    ident = "outDir:Option[shapes.io.Directory]"
    assert spelled_name("val outDir: Option[Directory]", id_forms(ident, ()), ident=ident)[0] == "outDir"
    # a prefix's colon is no type's: "v:" keeps its name after it
    assert spelled_name("insert", id_forms("v:insert", ("v:",)), ident="v:insert")[0] == "insert"


def test_a_result_type_learnt_as_a_prefixs_rest_is_no_name():
    # two ids share "wick:": learnt as a prefix, its rest spells the result type shown after the colon
    body = "".join(f'<li><a id="wick:{t}"></a><h4><span class="name">wick</span><span>: {t}</span></h4><p>x</p></li>'
                   for t in ("Seq[Flame]", "Seq[shapes.Flame]"))
    assert set(defined(f"<ul>{body}</ul>")) == {"wick"}


def test_word_like_values_in_a_run_of_val_entries_are_names():
    body = "".join(f'<li><a id="{n}:Boolean"></a><h4>val {n}: Boolean</h4><p>Whether to.</p></li>'
                   for n in ("anyvals", "genall", "quiet"))
    found = defined(f"<ul>{body}</ul>")
    assert {n: k for n, (k, _, _) in found.items()} == {"anyvals": "value", "genall": "value", "quiet": "value"}


def _entries(tmp_path: Path, entries: str) -> dict[str, tuple[str, ...]]:
    folder = tmp_path / "ref"
    folder.mkdir()
    (folder / "Lamp.html").write_text(
        f"<html><head><title>Lamp</title></head><body><h1>Lamp</h1><p>A lamp.</p><ul>{entries}</ul></body></html>",
        encoding="utf-8")
    book = read_book(folder)
    return {s.heading: tuple(t.name for t in s.terms) for s in book.sections if s.heading}


def test_an_entrys_two_anchors_before_its_heading_are_the_headings(tmp_path):
    entries = "".join(f'<li><a id="{n}(x:Int):Unit"></a><a id="{n}(Int):Unit"></a><h4>def {n}(x: Int): Unit</h4>'
                      f"<p>Sets the {n}.</p></li>" for n in ("dim", "brighten", "flicker"))
    sections = _entries(tmp_path, entries)
    for name in ("dim", "brighten", "flicker"):
        assert sections[f"def {name}(x: Int): Unit"] == (name,)


def test_a_heading_markdown_reads_a_link_in_keeps_its_anchors_terms(tmp_path):
    # "tint[B](f: A)" reads as a Markdown link: the section's heading loses a part of it
    entries = "".join(f'<li><a id="{n}[B](f:A=&gt;B):Mix[B]"></a><h4>def {n}[B](f: (A) ⇒ B): Mix[B]</h4>'
                      f"<p>Maps the {n}.</p></li>" for n in ("tint", "shade", "glow"))
    sections = _entries(tmp_path, entries)
    assert sorted(n for names in sections.values() for n in names if n in ("tint", "shade", "glow")) \
        == ["glow", "shade", "tint"]


def test_an_entry_linking_its_name_to_the_things_own_page_defines_it_here_too():
    body = "".join(f'<li><a id="{n}:{n}"></a><h4>class <a href="{n}.html"><span>{n}</span></a> extends Base</h4>'
                   f"<p>A {n}.</p></li>" for n in ("Lamp", "Wick", "Flame"))
    assert set(defined(f"<ul>{body}</ul>")) == {"Lamp", "Wick", "Flame"}
    # a prefix the page's ids share, then the linked name: the entry implements that thing, not defines it
    impls = "".join(f'<section id="impl-{n}"><h3>impl <a href="trait.{n}.html">{n}</a> for Lamp</h3><p>x</p></section>'
                    for n in ("Debug", "Clone", "Default"))
    assert not {"Debug", "Clone", "Default"} & set(defined(impls))
    # a link that is its own anchor names its target
    linked = "".join(f'<p>See <a href="{n}.html" name="{n}">{n}</a> first.</p>' for n in ("Lamp", "Wick"))
    assert not set(defined(linked))
