"""A page titled by its thing and its kind ("shop::Basket Class Reference") defines that thing
(readers/docset/page_subject.py): shown by its text though Markdown escapes its underscores,
and named by its own name too when the title qualifies it."""

from __future__ import annotations

from pathlib import Path

from crossbook.readers import read_book
from crossbook.readers.docset.page_subject import own_names, shown_in

PAGE = """<html><head><title>{title}</title></head><body><div class="title">{title}</div>
<p>{text}</p><h2>Detailed Description</h2><p>Keeps things.</p></body></html>"""


def subjects(tmp_path: Path, titles: dict[str, str]) -> dict[str, set[str]]:
    folder = tmp_path / "shop"
    folder.mkdir()
    for page, title in titles.items():
        (folder / page).write_text(PAGE.format(title=title, text="Inheritance diagram for this one."),
                                   encoding="utf-8")
    book = read_book(folder, fmt="docset")
    return {t.name: set(t.aliases) for s in book.sections for t in s.terms if t.subject}


def test_a_subject_whose_underscores_markdown_escapes_is_still_shown_and_defined(tmp_path: Path):
    found = subjects(tmp_path, {"a1.html": "__harbor::__lantern Struct Reference",
                                "a2.html": "std::_Spool_impl Class Reference",
                                "a3.html": "crates::stack_up Struct Reference"})
    assert {"__harbor::__lantern", "std::_Spool_impl", "crates::stack_up"} <= set(found)
    assert shown_in("__pool", "the \\_\\_pool class") and not shown_in("__pool", "the pool class")


def test_a_qualified_subject_is_named_by_its_own_name_too(tmp_path: Path):
    found = subjects(tmp_path, {"b1.html": "shop::crates::Basket Class Reference",
                                "b2.html": "shop::Pair&lt; A, B &gt; Class Template Reference",
                                "b3.html": "Crate Class Reference"})
    assert "Basket" in found["shop::crates::Basket"]
    assert {"Pair", "Pair< A, B >"} <= found["shop::Pair"]
    assert found.get("Crate", set()) == set()  # no scope: no other name


def test_own_names_split_at_scopes_outside_type_parameters():
    assert own_names("shop::Pair< crates::A, B >") == ("Pair< crates::A, B >",)
    assert own_names("a::b", "a::b") == ("b",)
    assert own_names("Basket") == ()
