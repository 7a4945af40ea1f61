"""Whose sentence is it: the implicit subject of a catalog entry's paragraph
(index/relations/patterns.py). HTML leads ("<strong>Term:</strong> You gain +2 to Will")
read as Markdown ones do, and a paragraph ends at the next lead, so a catalog entry the index
does not hold lends its sentence to nobody, not to the entry above it or to the section."""

from __future__ import annotations

from crossbook.relations.pattern_context import PatternEntity, only_in_longer_names
from crossbook.relations.patterns import pattern_relations

SKILLS = [PatternEntity(name, (name,), category="Skills") for name in ("Will", "Combat", "Athletics")]


def found(text: str, *terms: str) -> set[tuple[str, str, str]]:
    entities = [PatternEntity("Add a Bonus", ("Add a Bonus",), defines="heading"),
                *(PatternEntity(t, (t,), defines="glossary") for t in terms), *SKILLS]
    return {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(text, entities)}


def test_an_html_lead_is_the_subject_of_its_sentence():
    text = "### Add a Bonus\n\n<strong>Master Shielding:</strong> You gain +2 to Will when keeping your barriers.\n"
    assert found(text, "Master Shielding") == {("Master Shielding", "modifies", "Will")}


def test_an_entry_the_index_does_not_hold_lends_its_sentence_to_nobody():
    text = ("### Add a Bonus\n\n- <strong>Expert Marksman:</strong> +1 to attack with Combat when using a firearm.\n"
            "- <strong>Martial Artist:</strong> +1 to create an advantage with Athletics when fighting unarmed.\n")
    assert found(text, "Expert Marksman") == {("Expert Marksman", "modifies", "Combat")}


def test_a_bare_that_points_back_at_a_sentence_not_at_the_entry():
    entities = [PatternEntity("Rapport", ("Rapport",), defines="heading"), *SKILLS]
    text = "### Rapport\n\nYou might want to stand firm against a mob. That requires Will."
    assert pattern_relations(text, entities) == []
    text = "### Rapport\n\nThis skill requires Will."
    assert [(r.source_name, r.target_name) for r in pattern_relations(text, entities)] == [("Rapport", "Will")]


def test_a_word_of_a_longer_name_is_not_the_entity():
    evidence = "Because I am a Giant Creature of Destruction that wields a Big-Ass Axe"
    assert only_in_longer_names(evidence, ("Creature",))
    assert not only_in_longer_names("A Creature wields an axe.", ("Creature",))
    assert not only_in_longer_names(evidence, ("Dragon",))


def test_a_kind_of_with_a_modifier_is_a_variant():
    entities = [PatternEntity("Boosts", ("Boosts", "boost"), defines="heading"), PatternEntity("Aspects", ("aspect",))]
    for sentence in ("Boosts are a super-transient kind of aspect.", "A boost is a special kind of aspect."):
        relations = pattern_relations(f"### Boosts\n\n{sentence}", entities)
        assert [(r.source_name, r.relation_type, r.target_name) for r in relations] == [("Boosts", "variant_of", "Aspects")]


def test_an_entry_that_replaces_another_is_its_variant():
    entities = [PatternEntity("Wise", ("Wise",), defines="heading"), PatternEntity("Careful", ("Careful",), category="Approaches")]
    relations = pattern_relations("### Wise\n\nWise is action that relies on planning. It replaces Careful.", entities)
    assert [(r.source_name, r.relation_type, r.target_name) for r in relations] == [("Wise", "variant_of", "Careful")]


def test_an_entry_that_names_itself_after_an_introduction_is_the_subject():
    entities = [PatternEntity("Crumbling Ledge", ("Crumbling Ledge",), defines="heading"),
                PatternEntity("Prone", ("Prone",), category="Conditions")]
    text = "### Crumbling Ledge\n\nOn a failure, the Crumbling Ledge inflicts Prone and 2d6 falling damage."
    assert [(r.source_name, r.target_name) for r in pattern_relations(text, entities)] == [("Crumbling Ledge", "Prone")]
