"""An entry's members listed under a label naming their plural kind are part of it (made-up
text; index/relations/pattern_members.py): never a stat block's scores, a proficiency list, or
a list no entry owns."""

from __future__ import annotations

from crossbook.relations.patterns import PatternEntity
from crossbook.relations.stated import stated_relations

RUSH = PatternEntity("Rush", ("Rush",), "other", "glossary")
GUILE = PatternEntity("Guile", ("Guile",), "other", "glossary")
LEAP = PatternEntity("Leap", ("Leap",), "skill")
BRAWL = PatternEntity("Brawl", ("Brawl",), "skill")
SNEAK = PatternEntity("Sneak", ("Sneak",), "skill")
ALL = [RUSH, GUILE, LEAP, BRAWL, SNEAK]


def _parts(text: str, entities=ALL) -> set[tuple[str, str]]:
    return {(r.source_name, r.target_name) for r in stated_relations(text, entities) if r.relation_type == "part_of"}


def test_a_skills_line_under_a_glossary_term_lists_its_members():
    text = ("## The Styles\n\n**Rush:** Loud, fast and physical.\n\n- **Skills:** Leap, Brawl\n\n"
            "**Guile:** Quiet and patient.\n\n- **Skills:** Sneak, all tricks. (See *Brawl* on page 3.)\n")
    assert _parts(text) == {("Leap", "Rush"), ("Brawl", "Rush"), ("Sneak", "Guile")}


def test_list_items_under_the_label_in_an_entrys_own_section():
    entry = PatternEntity("Rush", ("Rush",), "other", "heading")
    text = "## Rush\n\nLoud and fast.\n\n**Skills:**\n\n- Leap\n- Brawl\n"
    assert _parts(text, [entry, LEAP, BRAWL]) == {("Leap", "Rush"), ("Brawl", "Rush")}


def test_scores_proficiencies_and_an_ownerless_list_are_no_members():
    beast = PatternEntity("Cave Hound", ("Cave Hound",), "creature", "heading")
    assert _parts("## Cave Hound\n\n*Medium beast*\n\n**Skills** Leap +4, Brawl +2\n", [beast, LEAP, BRAWL]) == set()
    ladder = [PatternEntity("Fair", ("Fair",), "other"), PatternEntity("Average", ("Average",), "other")]
    assert _parts("## Cave Hound\n\nSkills: Fair (+2) Leap, Average (+1) Brawl\n", [beast, LEAP, BRAWL, *ladder]) == set()
    klass = PatternEntity("Ranger", ("Ranger",), "class", "heading")
    text = "## Ranger\n\n#### Proficiencies\n\n**Skills:** Leap, Brawl\n"
    assert _parts(text, [klass, LEAP, BRAWL]) == set()
    # a plural topic owns nothing, and a term whose paragraph another paragraph follows owns no later list
    assert _parts("## Skills\n\n**Skills:** Leap, Brawl\n", [LEAP, BRAWL]) == set()
    text = "## The Styles\n\n**Rush:** Loud.\n\nSome more words here.\n\n- **Skills:** Leap, Brawl\n"
    assert _parts(text) == set()


def test_a_label_of_another_kind_lists_no_members():
    text = "## The Styles\n\n**Rush:** Loud.\n\n- **Stunts:** Leap, Brawl\n"
    assert _parts(text) == set()
