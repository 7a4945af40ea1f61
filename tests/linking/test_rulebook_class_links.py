"""A kind documentation and rulebooks share (``class``): a documentation set's class named by
a plain word links only in code font, a rulebook's class ("Wizard") links in prose."""

from crossbook.linking.linker import Linker, LinkTarget

TEXT = "A Wizard learns spells from a spellbook."


def linked(doc_books: set[str]) -> list[str]:
    target = LinkTarget(("wizard", "class"), {"Wizard"}, {"Classes"})
    return [m.name for m in Linker([target], {}, frozenset(), doc_books).link(TEXT, "Spells", set())]


def test_a_rulebooks_class_links_in_prose():
    assert linked(set()) == ["Wizard"]


def test_a_documented_class_named_by_a_word_links_only_in_code():
    assert linked({"Classes"}) == []
