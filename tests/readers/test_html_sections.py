"""A page's section tree from its containers and its own repetition (readers/html_sections.py)."""

from __future__ import annotations

from pathlib import Path

from crossbook.chunk.chunking import split_sections
from crossbook.readers import read_book
from crossbook.readers.html_markdown import html_to_markdown


def paths(body: str) -> list[tuple[str, ...]]:
    markdown = html_to_markdown(f"<html><body>{body}</body></html>".encode())
    return [s.heading_path for s in split_sections(markdown)]


def texts(body: str) -> dict[tuple[str, ...], str]:
    markdown = html_to_markdown(f"<html><body>{body}</body></html>".encode())
    out: dict[tuple[str, ...], str] = {}
    for section in split_sections(markdown):
        out[section.heading_path] = out.get(section.heading_path, "") + section.text
    return out


def test_a_heading_after_the_container_of_a_deeper_heading_is_not_its_child():
    body = ('<h1>Book</h1><p>intro</p><div class="part"><h2>Knobs</h2><p>about knobs</p></div>'
            '<h4>Spools</h4><p>about spools</p>')
    assert ("Book", "Spools") in paths(body)
    assert ("Book", "Knobs", "Spools") not in paths(body)


def test_text_after_a_container_goes_back_to_the_enclosing_section():
    body = ('<h1>Book</h1><div class="section"><h2>Knobs</h2><p>about knobs</p>'
            '<section><h3>Spool</h3><p>spool text</p></section>'
            '<p>the knobs again</p></div><h2>Later</h2><p>later text</p>')
    found = texts(body)
    assert "the knobs again" in found[("Book", "Knobs")]
    assert "the knobs again" not in found[("Book", "Knobs", "Spool")]
    assert ("Book", "Later") in found


def test_a_title_wrapper_holding_the_heading_alone_ends_no_section():
    body = ('<h1>Book</h1><div class="section"><div class="titlepage"><div><h2>Knobs</h2></div>'
            '<a name="k"></a></div><p>about knobs</p><h3>Spool</h3><p>spool text</p></div>')
    assert ("Book", "Knobs", "Spool") in paths(body)
    assert "about knobs" in texts(body)[("Book", "Knobs")]


def test_a_sub_heading_repeated_under_most_entries_labels_its_entry():
    entries = "".join(f'<h4 id="{n}-2">{n}(a, b)</h4><p>{n}s.</p><h3>Parameters</h3><p>a, b</p>'
                      f'<h3>Example</h3><p>{n}(1, 2)</p>' for n in ("blend", "mix", "fade"))
    found = paths(f"<h1>mod</h1>{entries}")
    assert ("mod", "mix(a, b)") in found and ("mod", "fade(a, b)") in found
    assert ("mod", "blend(a, b)", "Parameters") in found
    assert ("mod", "mix(a, b)", "Example") in found
    assert not any(len(p) > 2 and p[1] in ("Parameters", "Example") for p in found)


def test_a_sub_heading_met_under_few_entries_keeps_its_tags_level():
    entries = "".join(f"<h4>{n}</h4><p>{n} text.</p>" for n in ("blend", "mix", "fade", "tint", "glow", "dim", "hue"))
    once = "<h3>Notes</h3><p>n</p>"
    body = f"<h1>mod</h1>{entries}{once}<h4>grain</h4><p>g</p>{once}<h4>shade</h4><p>s</p>{once}<h4>wash</h4><p>w</p>"
    assert ("mod", "Notes", "shade") in paths(body)


def test_a_doc_sets_terms_stay_in_the_section_that_shows_them(tmp_path: Path):
    folder = tmp_path / "set"
    folder.mkdir()
    page = ('<html><head><title>Ref</title></head><body><h1>Ref</h1>'
            '<div class="section"><h2>Knobs</h2><p>about</p><div class="section"><h3>Spool</h3><dl>'
            '<dt><code>spool_depth</code></dt><dd>How deep.</dd></dl></div>'
            '<dl><dt><code>knob_count</code></dt><dd>How many.</dd></dl></div></body></html>')
    (folder / "ref.html").write_text(page, encoding="utf-8")
    (folder / "index.html").write_text('<html><head><title>Set</title></head><body><h1>Set</h1>'
                                       '<p><a href="ref.html">Ref</a></p></body></html>', encoding="utf-8")
    book = read_book(folder, fmt="docset")
    where = {t.name: s.heading_path[-1] for s in book.sections for t in s.terms if not t.subject}
    assert where["spool_depth"] == "Spool"
    assert where["knob_count"] == "Knobs"


def test_text_in_the_next_container_before_its_heading_is_no_continuation():
    body = ('<div class="chapter"><h2>Knobs</h2><p>about knobs</p>'
            '<div class="section"><p class="nav">Next: Cutting</p><h3>Spool</h3><p>spool text</p></div>'
            '<div class="section"><p class="nav">Next: Winding</p><h3>Cutting</h3><p>cut text</p></div></div>')
    assert [p for p in paths(body) if p == ("Knobs",)] == [("Knobs",)]
