"""An HTML index is a back index, a contents list defines nothing (readers/docset/index_rows.py,
index_page.py); a title that names its thing before its kind names the page's subject."""

from __future__ import annotations

from pathlib import Path

from crossbook.readers import read_book
from crossbook.readers.docset.index_rows import index_blocks
from crossbook.readers.docset.terms import title_subject
from crossbook.readers.html_markdown import kept_elements, parse_html

NAMES = ("alpha_knob", "beta_knob", "delta_knob", "gamma_knob", "kappa_knob", "omega_knob")


def blocks(body: str):
    root = parse_html(f"<html><body>{body}</body></html>".encode())
    return index_blocks(root, list(kept_elements(root)))


def test_rows_linking_entries_to_anchors_with_a_section_column_are_an_index_even_with_a_comment():
    rows = "".join(f'<tr><td><!-- entry --><a href="ref.html#index-{n}"><code>{n}</code></a>:</td>'
                   f'<td><a href="ref.html#Knobs">Knobs</a></td></tr>' for n in NAMES)
    found = blocks(f"<table>{rows}</table>")
    assert [entry for _, entries in found for entry, _ in entries] == list(NAMES)


def test_a_contents_list_in_document_order_or_nested_is_no_index():
    ordered = "".join(f'<li><a href="#{n}">{n}</a></li>' for n in NAMES)
    sections = "".join(f'<h2 id="{n}">{n}</h2><p>x</p>' for n in NAMES)
    assert blocks(f"<ul>{ordered}</ul>{sections}") == []
    nested = "".join(f'<li><a href="p.html#{n}">{n}</a><ul><li><a href="p.html#{n}-x">more</a></li></ul></li>'
                     for n in NAMES)
    assert blocks(f"<ul>{nested}</ul>") == []


def test_an_index_page_places_each_entry_in_the_section_of_its_anchor(tmp_path: Path):
    folder = tmp_path / "manual"
    folder.mkdir()
    body = "".join(f'<h2 id="{n}-section">Part {i}</h2><p>The <a id="index-{n}"></a>{n} setting turns.</p>'
                   for i, n in enumerate(NAMES))
    (folder / "ref.html").write_text(f"<html><head><title>Ref</title></head><body><h1>Ref</h1>{body}</body></html>",
                                     encoding="utf-8")
    rows = "".join(f'<tr><td><a href="ref.html#index-{n}">{n}</a></td><td><a href="ref.html#{n}-section">'
                   f'Part {i}</a></td></tr>' for i, n in enumerate(NAMES))
    (folder / "idx.html").write_text(f"<html><head><title>Index</title></head><body><h1>Index</h1>"
                                     f"<table>{rows}</table></body></html>", encoding="utf-8")
    book = read_book(folder, fmt="docset")
    defined = {(s.file, t.name) for s in book.sections for t in s.terms if not t.subject}
    assert {("ref.html", n) for n in NAMES} <= defined
    assert not any(f == "idx.html" for f, _ in defined)


def test_a_title_naming_its_thing_before_its_kind_names_the_subject():
    assert title_subject("Tag Class Reference", []) == ("Tag", "class")
    assert title_subject("Examples: Vehicle Struct Reference", []) == ("Vehicle", "struct")
    assert title_subject("Getting Started Guide", [])[1] == "other"
    assert title_subject("Class Reference Manual", [])[1] == "other"


def test_an_index_entry_written_as_a_call_is_the_name_its_anchor_defines(tmp_path: Path):
    folder = tmp_path / "api"
    folder.mkdir()
    calls = ("frob", "tweak", "spin", "twirl", "zap", "zip")
    body = "".join(f'<h3 id="lib_{n}_a">lib.{n}(a)</h3><p>Does it.</p>' for n in calls)
    (folder / "lib.html").write_text(f"<html><head><title>Lib</title></head><body><h1>Lib</h1>{body}</body></html>",
                                     encoding="utf-8")
    rows = "".join(f'<li><a href="lib.html#lib_{n}_a">lib.{n}(a)</a></li>' for n in sorted(calls))
    (folder / "idx.html").write_text(f"<html><head><title>All</title></head><body><h1>All</h1><ul>{rows}</ul>"
                                     "</body></html>", encoding="utf-8")
    book = read_book(folder, fmt="docset")
    names = [t.name for s in book.sections if s.file == "lib.html" for t in s.terms if not t.subject]
    assert sorted(names) == sorted(f"lib.{n}" for n in calls)


def test_five_links_to_the_pages_own_sections_in_its_order_are_its_contents():
    names = ("Methods", "Handles", "Objects", "Implementations", "Examples")
    links = "".join(f'<li><a href="#{n.lower()}">{n}</a></li>' for n in names)
    sections = "".join(f'<h2 id="{n.lower()}">{n}</h2><p>x</p>' for n in names)
    assert blocks(f"<ul>{links}</ul>{sections}") == []


def test_short_blocks_under_letters_are_one_index_placed_at_the_markers_in_prose(tmp_path: Path):
    """An index split under letters' headings, a few entries each, whose links point at
    empty markers in the prose (not at titles): each entry lands in the marker's section."""
    folder = tmp_path / "book"
    folder.mkdir()
    words = {"Winding": ("bobbin", "spindle", "spool"), "Cutting": ("blade", "shears", "cutter guard")}
    marker = {w: f"idm{n}" for n, w in enumerate(w for ws in words.values() for w in ws)}  # ids that spell nothing
    body = "".join(f'<div class="section"><div class="titlepage"><h2>{title}</h2></div>'
                   + "".join(f'<p><a class="indexterm" name="{marker[w]}"></a>The {w} turns.</p>' for w in ws)
                   + "</div>" for title, ws in words.items())
    (folder / "ch01.html").write_text(f"<html><head><title>Ch</title></head><body><h1>Ch</h1>{body}</body></html>",
                                      encoding="utf-8")
    by_letter: dict[str, list[str]] = {}
    for title, ws in words.items():
        for w in ws:
            by_letter.setdefault(w[0].upper(), []).append(
                f'<dt>{w}, <a class="indexterm" href="ch01.html#{marker[w]}">{title}</a></dt>')
    groups = "".join(f'<div class="indexdiv"><h3>{letter}</h3><dl>{"".join(sorted(rows))}</dl></div>'
                     for letter, rows in sorted(by_letter.items()))
    (folder / "ix01.html").write_text(f"<html><head><title>Index</title></head><body><h1>Index</h1>{groups}"
                                      "</body></html>", encoding="utf-8")
    book = read_book(folder, fmt="docset")
    placed = {(s.heading, t.name) for s in book.sections for t in s.terms if t.rule == "back_index"}
    assert placed == {(title, w) for title, ws in words.items() for w in ws}


def test_an_entry_its_anchors_section_never_spells_is_carried_there_in_the_indexs_words(tmp_path: Path):
    folder = tmp_path / "manual"
    folder.mkdir()
    topics = ["lamps, lighting", "wicks, trimming", "oil, pouring", "glass, cleaning", "flames, shading"]
    body = "".join(f'<h2 id="part-{i}">Part {i}</h2><a id="index-{i}"></a><p>What to do first.</p>'
                   for i, _ in enumerate(topics))
    rows = "".join(f'<tr><td><a href="#index-{i}">{t}</a>:</td><td><a href="#part-{i}">Part {i}</a></td></tr>'
                   for i, t in sorted(enumerate(topics), key=lambda p: p[1]))
    (folder / "manual.html").write_text(
        f"<html><head><title>Manual</title></head><body><h1>Manual</h1>{body}"
        f'<h2 id="concepts">A.1 Concept Index</h2><table>{rows}</table></body></html>', encoding="utf-8")
    book = read_book(folder, fmt="docset")
    by_heading = {s.heading: s for s in book.sections}
    for i, topic in enumerate(topics):
        section = by_heading[f"Part {i}"]
        assert topic in {t.name for t in section.terms}
        assert f"Concept Index: {topic}" in section.text  # the chunk spells what is stored of it
    # a link to a page, not to an anchor in it, carries nothing
    assert "Concept Index" not in by_heading["Manual"].text
