"""How a stunt or an ability reads against a skill (index/relations/patterns.py): "Use Will
instead of Physique" in the entry's own paragraph modifies Will (the replaced skill is no
subject), "use Lore as a defense against Provoke" also counters Provoke, and the same
imperative in a section's advice ("Use Lore as your Hard approach") is the reader's."""

from __future__ import annotations

from crossbook.relations.pattern_context import PatternEntity
from crossbook.relations.patterns import pattern_relations

SKILLS = [PatternEntity(name, (name,), category="Skills") for name in ("Will", "Physique", "Lore", "Provoke")]


def found(text: str, *terms: str) -> set[tuple[str, str, str]]:
    entities = [PatternEntity("Will Stunts", ("Will Stunts",), defines="heading"),
                *(PatternEntity(t, (t,), defines="glossary") for t in terms), *SKILLS]
    return {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(text, entities)}


def test_an_imperative_in_an_entrys_paragraph_is_the_entrys():
    text = "###### Will Stunts\n\n* **Strength From Determination.** Use Will instead of Physique on overcome rolls.\n"
    assert found(text, "Strength From Determination") == {("Strength From Determination", "modifies", "Will")}


def test_a_skill_used_as_a_defense_counters_what_it_defends_against():
    text = "###### Will Stunts\n\n* **Shield of Reason.** You can use Lore as a defense against Provoke attempts.\n"
    assert found(text, "Shield of Reason") == {("Shield of Reason", "modifies", "Lore"),
                                               ("Shield of Reason", "counters", "Provoke")}


def test_an_imperative_in_a_sections_advice_is_the_readers():
    entities = [PatternEntity("Opposition", ("Opposition",), defines="heading"), *SKILLS]
    text = "### Opposition\n\nUse Lore or Will as your Hard approaches."
    assert pattern_relations(text, entities) == []


def test_a_stunt_quoted_as_an_example_is_not_the_sections():
    entities = [PatternEntity("Gear", ("Gear",), defines="heading"), *SKILLS]
    quoted = ("### Gear\n\nGear can be a stunt, like “Grapnel Gun: +2 to overcome with Physique when there's "
              "an anchor around.” But you can combine those into a gadget.")
    assert pattern_relations(quoted, entities) == []
    plain = "### Gear\n\nGrapnel Gun: +2 to overcome with Physique when there's an anchor around."
    assert {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(plain, entities)} \
        == {("Gear", "modifies", "Physique")}


CONTACTS = [PatternEntity("Contacts", ("Contacts", "contacts"), category="Skills"),
            PatternEntity("Conflict", ("conflict",)), *SKILLS]


def entries_of(heading: str, body: str, *terms: str) -> set[tuple[str, str, str]]:
    entities = [*(PatternEntity(t, (t,), defines="glossary") for t in terms), *CONTACTS]
    text = f"###### {heading}\n\n{body}"
    return {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(text, entities)}


def test_an_entry_of_a_skills_stunts_that_names_the_skill_modifies_it():
    body = ("* **Ear to the Ground.** Whenever someone starts a conflict against you, you roll Contacts first.\n"
            "* **Steady Hand.** Once per scene you can make a special Will roll.\n")
    assert entries_of("Contacts Stunts", body, "Ear to the Ground", "Steady Hand") == {
        ("Ear to the Ground", "modifies", "Contacts")}  # Will is not the skill these are stunts of
    # the same paragraphs under a heading that is no skill's stunts say nothing
    assert entries_of("Favours", body, "Ear to the Ground", "Steady Hand") == set()


def test_the_reader_using_a_skill_after_a_common_noun_and_an_introduction():
    body = ("* **Ear to the Ground.** Whenever someone starts a conflict against you, you use Contacts instead of "
            "Will to act first.\n"
            "* **Shadowed.** Provided you are in darkness, you can use Lore instead of Will to defend against "
            "Provoke attempts.\n")
    assert entries_of("Tricks", body, "Ear to the Ground", "Shadowed") == {
        ("Ear to the Ground", "modifies", "Contacts"), ("Shadowed", "modifies", "Lore"),
        ("Shadowed", "counters", "Provoke")}


def test_an_example_in_parentheses_and_a_name_past_a_copula_are_not_the_entrys():
    example = ("* **Teamwork.** Helping is stacking advantages (like causing distractions so one person can use "
               "Lore to get in).\n")
    assert entries_of("Tricks", example, "Teamwork") == set()
    copula = "* **Huge.** While huge, you gain +1 to attack rolls and your attacks are Physique:2.\n"
    assert entries_of("Tricks", copula, "Huge") == set()


def test_an_additional_bonus_is_a_bonus():
    body = "* **Master Lore.** You know a lot. Gain an additional +2 bonus to Lore when reading.\n"
    assert entries_of("Enhancements", body, "Master Lore") == {("Master Lore", "modifies", "Lore")}
