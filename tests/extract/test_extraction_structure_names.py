"""Names that are the book's structure, not things in it (definitions precision):
pages that gather other things, groups of a kind, counts and numbered rows, leads that label
a list, and the outcomes of a roll. Each case failed on rules/11."""

import pytest

from crossbook.extract.glossary import glossary_terms
from crossbook.extract.headings import is_topical


@pytest.mark.parametrize("heading", [
    "Skill List", "Moves Summary", "Table of Contents", "Move Glossary", "Overview",  # a page of the book
    "New Skills", "Additional Flaws", "Other Solutions",                              # more of a kind
    "Fifteen skills", "Number of Zones",                                              # a count
    "Limits", "Basics", "Features",                                                   # a topic word
])
def test_structure_headings_name_nothing(heading):
    assert is_topical(heading)


@pytest.mark.parametrize("heading", [
    "Battle", "Zone Aspects", "Special Effects", "Listening Post", "Indexed Archive", "New Moon Rite",
])
def test_names_that_look_alike_stay_names(heading):
    assert not is_topical(heading)


def names(text: str) -> list[str]:
    return [t.name for t in glossary_terms(text)]


def test_a_plural_lead_over_a_list_of_names_labels_the_list():
    text = ("* **Approaches:** Careful, Clever, Flashy, Forceful, Quick, Sneaky.\n"
            "* **Roles:** Driver, Hitter, Hacker, and Thief.\n"
            "* **Column:** A roughly equal number of skills rated at each tier.\n"
            "**Spells** Frost Lance, Ember Ward.\n"
            "**Allies:** Marsh Hag and Cave Troll\n")
    assert names(text) == ["Column"]


def test_a_singular_lead_over_a_list_is_a_thing_made_of_them():
    text = ("> **Battle:** Athletics, Intimidation, Melee, Missile, Physique\n"
            "> **Talk:** Contacts, Deceit, Empathy, Rapport, Will\n")
    assert names(text) == ["Battle", "Talk"]


def test_a_lead_alone_on_its_line_over_a_list_titles_the_list():
    text = ("<strong>Mild Consequences</strong>:\n\n- <em>Clamor of Armies</em> (Ares)\n\n"
            "<strong>Recovery:</strong> Mild consequences are easily cleared.\n\n"
            "**Ember Ward:**\nA ward of embers.\n")
    assert "Mild Consequences" not in names(text)
    assert "Recovery" in names(text)


def test_roll_outcomes_and_numbered_rows_are_not_names():
    text = ("**ON A STRONG HIT**, things come to pass as you hoped.\n"
            "**ON A WEAK HIT**, your life takes an unexpected turn.\n"
            "**ON A MISS**, your fears are realized.\n\n"
            "- If you tie: You attain your goal at a cost.\n- Succeed: You attain it.\n- Fail: You don't.\n\n"
            "<strong>Effect 5:</strong> A character may spend all remaining points.\n")
    found = names(text)
    assert not [n for n in found if n.lower().startswith(("on a", "if you")) or "5" in n]
    assert {"Succeed", "Fail"} <= set(found)


def test_a_list_bullet_opens_no_emphasis():
    text = ("* Fair (+2) **Chain Link Fence**, Great (+4) difficulty to remove\n"
            "* The big bad may **reduce the stress** of successful attacks.\n"
            "* **Taking Cover**: You can use advantages to represent cover.\n")
    assert names(text) == ["Taking Cover"]


def test_a_licensing_section_defines_nothing(tmp_path):
    from crossbook.core.models import ParentChunk
    from crossbook.core.packs import load_pack
    from crossbook.extract.rules import heading_definitions

    def parent(i, path):
        return ParentChunk(id=f"p{i}", book="B", ordinal=i, heading=path[-1], heading_path=path, part=0,
                           text=f"## {path[-1]}\n{path[-1]} is a thing the book names elsewhere.\n",
                           sha256="", token_count=10)

    parents = [parent(0, ("Rules",)), parent(1, ("Rules", "Zones")), parent(2, ("Rules", "Boosts")),
               parent(3, ("Rules", "Licensing"))]
    defined = {n.name for names in heading_definitions(parents, load_pack("generic"), "B").values() for n in names}
    assert "Licensing" not in defined and "Zones" in defined


def test_a_lead_joining_a_group_to_something_is_a_topic():
    text = ("<strong>Zones and Ranged Weapons</strong>: An equipment stunt could affect other zones.\n\n"
            "<strong>Equipment Stunts and Weight</strong>: Equipment stunts can also add weight.\n\n"
            "<strong>Cloak and Dagger</strong>: You strike from the shadows.\n")
    assert names(text) == ["Cloak and Dagger"]


def test_a_heading_joining_a_name_and_a_phrase_is_a_topic():
    assert is_topical("Zones and the Battlefield")
    assert not is_topical("Aspects and Fate Points")  # two names: each defined (conjoined_names)
