"""A thing the book says is like another with a difference is a variant of it (made-up text;
index/relations/pattern_likeness.py): the difference or "any other" must stand with the likeness,
the thing must open its clause and be what the chunk defines."""

from __future__ import annotations

import pytest

from crossbook.relations.pattern_context import NAMED_EXTRACTOR
from crossbook.relations.patterns import PatternEntity
from crossbook.relations.stated import stated_relations

HEX = PatternEntity("Hexes", ("Hexes", "hex"), "other", "heading")
CURSE = PatternEntity("Curse", ("Curse", "curse"), "other")
STORM = PatternEntity("Storm Mark", ("Storm Mark",), "other", "heading")
MARK = PatternEntity("Marks", ("mark",), "other")
BOON = PatternEntity("Boon", ("Boon",), "other")


def _variants(text: str, entities: list[PatternEntity]) -> set[tuple[str, str, str]]:
    return {(r.source_name, r.target_name, r.extractor) for r in stated_relations(text, entities)
            if r.relation_type == "variant_of"}


@pytest.mark.parametrize("sentence", [
    "Hexes are like curses, except that they fade at dawn.",
    "Hexes work like a Curse, except they fade at dawn.",
    "Hexes are a lot like curses, save that they fade at dawn.",
    "In one respect, casting a hex is like casting any other curse—you spend a point.",
    "Once you bear a hex, that hex is a curse on your sheet like any other.",
])
def test_a_likeness_with_a_difference_or_any_other_is_a_variant(sentence):
    found = _variants(f"## Hexes\n\n{sentence}\n", [HEX, CURSE])
    assert {(s, t) for s, t, _ in found} == {("Hexes", "Curse")}


def test_a_kin_the_chunk_does_not_link_is_left_to_the_shelf_by_name():
    found = _variants("## Storm Mark\n\nA Storm Mark is like a boon, except it hurts.\n", [STORM])
    assert found == {("Storm Mark", "boon", NAMED_EXTRACTOR)}


@pytest.mark.parametrize("sentence", [
    "Hexes are a lot like curses: you can invoke them.",              # no difference, no "any other"
    "Hexes are like curses and fade at dawn, except on holy days.",   # the difference is not the kin's
    "Hexes are not like curses, except in name.",                     # no likeness
    "Your foes think the hex is like any other curse.",                # the clause opens with someone else
    "Once you bear a hex, that hex is a curse on your sheet.",       # "is a" alone states no kind here
])
def test_no_variant_without_both_marks_or_from_another_subject(sentence):
    assert _variants(f"## Hexes\n\n{sentence}\n", [HEX, CURSE]) == set()


def test_the_thing_is_one_the_chunk_defines():
    # the Boon is only mentioned here: the chunk says nothing of what kind of thing it is
    text = "## Storm Mark\n\nA Boon is like any other mark, and the Storm Mark is rare.\n"
    assert _variants(text, [STORM, MARK, BOON]) == set()
