"""A member documented on its owner's page has the owner's qualified forms as aliases
(readers/docset/members.py): ``Basket.tally_all``, ``Reel::wind``, built from the page's
subject as the page gives it, for code-like names only."""

from __future__ import annotations

from pathlib import Path

from crossbook.readers import read_book
from crossbook.readers.docset.members import owner_forms

PAGE = """<html><head><title>{title}</title></head><body><h1>{title}</h1><p>{text}</p>
<h2>Methods</h2><dl>{terms}</dl><h2>Overview</h2><p>All about it.</p></body></html>"""


def term(name: str) -> str:
    return f'<dt id="{name}"><code>{name}()</code></dt><dd><p>Does {name}.</p></dd>'


def aliases(book, page: str) -> dict[str, set[str]]:
    return {t.name: set(t.aliases) for s in book.sections if s.file == page for t in s.terms}


def test_a_classs_members_are_typed_with_the_class_first(tmp_path: Path):
    folder = tmp_path / "shop"
    folder.mkdir()
    (folder / "basket.html").write_text(PAGE.format(
        title="Basket Class Reference", text="Call <code>Basket.tally_all()</code> to count.",
        terms=term("tally_all") + term("emptyOut")), encoding="utf-8")
    (folder / "guide.html").write_text(PAGE.format(title="Shopping guide", text="How to shop.",
                                                   terms=term("shop_now")), encoding="utf-8")
    book = read_book(folder, fmt="docset")
    found = aliases(book, "basket.html")
    assert "Basket.tally_all()" in found["tally_all()"] and "Basket.emptyOut()" in found["emptyOut()"]
    assert not any(a.startswith("Basket.") for a in found.get("Basket", ()))  # the owner itself
    # a page about no owner qualifies nothing
    assert not any("." in a for a in aliases(book, "guide.html").get("shop_now", ()))


def test_the_separator_is_the_one_the_page_writes_and_a_qualified_owner_gives_both_forms():
    assert owner_forms("Basket", "Basket::tally_all and more") == ["Basket::"]
    assert owner_forms("Basket", "no member written") == ["Basket."]
    assert owner_forms("shop::Basket", "") == ["Basket::", "shop::Basket::"]
    assert owner_forms("Document", "Document#convert") == ["Document#"]
    assert owner_forms("Basket Class Reference", "") == []  # no code-like owner name


def test_the_qualified_form_is_stored_as_an_alias_of_the_member(tmp_path: Path):
    from tests.docs.test_docs_shelves import ingest

    folder = tmp_path / "shop"
    folder.mkdir()
    for name, member in (("basket", "tally_all"), ("crate", "stack_up")):
        (folder / f"{name}.html").write_text(PAGE.format(
            title=f"{name.title()} Class Reference", text=f"A {name}.", terms=term(member)), encoding="utf-8")
    db = ingest(tmp_path / "index", [folder])
    rows = db.execute("SELECT alias, canonical FROM entity_aliases").fetchall()
    assert ("Basket.tally_all()", "tally_all") in rows and ("Crate.stack_up()", "stack_up") in rows
    assert not any(alias.startswith("Basket.stack_up") for alias, _ in rows)
