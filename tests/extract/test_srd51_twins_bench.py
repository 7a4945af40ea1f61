"""The measuring side of rulebook types and item and creature edges (bench/twins/, bench/srd51/
stated_gold.py): the templates that read wields, summons and an item's casts from a book, the
other layouts of a book (bench/twins/srd_layouts.py), and the halves' rule (bench/twins/split.py).
Small books in srd51's shapes with invented names; nothing is ingested."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.srd51.stated_gold import item_casts, summons, wields
from bench.twins import split as S
from bench.twins import srd_layouts as L

BOOKS = {
    "04 equipment.md": "### Weapons List\n\n| Name | Cost |\n|---|---|\n| Hookblade | 2 gp |\n| Crossbow, light | 25 gp |\n\n"
                       "### Armor List\n\n| Armor | Cost |\n|---|---|\n| Leather | 10 gp |\n",
    "08 spellcasting.md": "## Spell Descriptions\n\n#### Acid Arrow\n\nA shimmering green arrow streaks toward a target.\n\n"
                          "#### Glimmer\n\nA bright mote of light flares over the target's head.\n",
    "12 conditions.md": "#### Dazed\n\n- A dazed creature can't take reactions on its turn at all.\n",
    "11 monsters.md": "#### Wyrmcaller\n\n*Medium humanoid, any alignment*\n\n**Armor Class** 12 (leather armor)\n\n"
                      "**Hit Points** 11 (2d8 + 2)\n\n**Challenge** 1 (200 XP)\n\n"
                      "***Hookblade.** Melee Weapon Attack:* +3 to hit, reach 5 ft., one target.\n\n"
                      "***Light Crossbow.** Ranged Weapon Attack:* +3 to hit, range 80 ft., one target.\n\n"
                      "***Bite.** Melee Weapon Attack:* +3 to hit, reach 5 ft., one target.\n\n"
                      "***Brood Call (1/Day).*** The wyrmcaller magically calls 2d4 swarms of gnats or moths, "
                      "a brood of its kin. It can call 3d6 mire hounds instead.\n\n"
                      "#### Swarm of Gnats\n\n**Hit Points** 5\n\n#### Swarm of Moths\n\n**Hit Points** 5\n\n"
                      "#### Mire Hound\n\n**Hit Points** 9\n\n#### Marsh Spirit\n\n**Hit Points** 20\n",
    "15 creatures.md": "",
    "16 npcs.md": "",
    "10 magic items.md": "#### Bowl of the Marsh\n\n*Wondrous item, rare*\n\nYou can speak its word and summon a marsh "
                         "spirit, a wisp that looks like a mire hound.\n\n"
                         "#### Rod of Motes\n\n*Rod, rare*\n\nIt has 7 charges. You can cast one of the following "
                         "spells from it: *glimmer* (2 charges), *acid arrow* (3rd-level version, 3 charges).\n",
}


@pytest.fixture()
def books(tmp_path: Path) -> Path:
    for name, text in BOOKS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def _pairs(items: list[dict]) -> set[tuple[str, str]]:
    return {(i["source"], i["target"]) for i in items}


def test_a_creatures_gear_is_its_weapon_attacks_and_its_armor_by_the_tables_names(books):
    assert _pairs(wields(books)) == {("Wyrmcaller", "Leather"), ("Wyrmcaller", "Hookblade"),
                                     ("Wyrmcaller", "Crossbow, light")}  # no Bite: no table names it


def test_what_a_creature_or_an_item_summons_or_calls_up_to_the_clauses_end(books):
    assert _pairs(summons(books)) == {("Wyrmcaller", "Swarm of Gnats"), ("Wyrmcaller", "Swarm of Moths"),
                                      ("Wyrmcaller", "Mire Hound"), ("Bowl of the Marsh", "Marsh Spirit")}


def test_an_items_spells_with_their_charges_are_what_it_casts(books):
    spells = {"glimmer": "", "acid arrow": ""}
    assert _pairs(item_casts(books, spells)) == {("Rod of Motes", "glimmer"), ("Rod of Motes", "acid arrow")}


CLASSES = ("Wyrmcaller\n==========\n\nClass Features\n--------------\n\nAs a wyrmcaller, you gain the following "
           "class features.\n\n#### Hit Points\n\n**Hit Dice:** 1d8 per wyrmcaller level\n\n#### Proficiencies\n\n"
           "**Armor:** Light armor **Weapons:** Simple\nweapons\n\n#### Equipment\n\n- a hookblade\n")


@pytest.mark.parametrize("twin, title", [("headings", "### Wyrmcaller Traits"), ("leads", "**Core Wyrmcaller Traits**"),
                                         ("tables", "| Wyrmcaller Traits | |")])
def test_a_class_is_a_second_level_heading_under_classes_with_its_traits_table(twin, title):
    text = L.classes_layout(CLASSES, twin)
    lines = text.split("\n")
    assert lines[:2] == ["Classes", "======="] and "## Wyrmcaller" in lines and title in lines
    assert "| Weapons | Simple weapons |" in lines and "#### Hit Points" not in text
    assert "##### Equipment" in lines
    assert ("### Wyrmcaller Features" in lines) == (twin == "headings")
    assert ("As a member of the Wyrmcaller class" in text) == (twin == "leads")


MECHANICS = ("### Skills\n\nThe skills are shown in the following list.\n\n#### Wisdom\n- Tracking\n- Herbalism\n\n"
             "Make a Wisdom (Tracking) check.\n\n### Wisdom Checks\n\n***Tracking.*** Your Wisdom (Tracking) check "
             "finds a trail.\n")


def test_the_skills_list_becomes_table_rows_or_bold_leads_alone():
    table = L.skills_layout(MECHANICS, "headings")
    assert "| Tracking | Wisdom |" in table and "- Tracking" not in table and "***Tracking.***" not in table
    leads = L.skills_layout(MECHANICS, "leads")
    assert "**Tracking.** Your Wisdom (Tracking) check" in leads and "- Tracking" not in leads
    assert "| Tracking" not in leads and L.skills_layout(MECHANICS, "tables") == MECHANICS


def test_the_gear_is_a_field_line_a_list_item_or_a_row_of_the_stat_table():
    section = BOOKS["11 monsters.md"].split("\n\n#### Swarm")[0].split("\n")
    gear = {"hookblade": "Hookblade", "light crossbow": "Crossbow, light", "leather armor": "Leather"}
    assert "Gear: Leather armor, Hookblade, Light Crossbow" in L.stat_block(section, "headings", gear)
    leads = L.stat_block(section, "leads", gear)
    assert "- **Kit** Leather armor, Hookblade, Light Crossbow" in leads and "- **Armor Class** 12 (leather armor)" in leads
    table = L.stat_block(section, "tables", gear)
    assert "| Armor Class | 12 (leather armor) |" in table and "| Equipment | Leather armor, Hookblade, Light Crossbow |" in table
    assert not any(line.startswith("**Hit Points**") for line in table)


def test_the_phrases_that_state_a_type_or_a_summoning():
    assert L.type_phrases("cast the *conjure elemental* spell from it", "leads", set()) == \
        "cast the Conjure Elemental spell from it"
    assert L.type_phrases("the dazed condition ends", "tables", {"dazed"}) == "the Dazed condition ends"
    assert L.summon_phrases("It magically calls 2d4 gnats and can summon a hound.", "leads") == \
        "It magically calls forth 2d4 gnats and can call forth a hound."
    assert L.summon_phrases("It magically calls 2d4 gnats.", "tables") == "It magically summons 2d4 gnats."


def test_halves_are_disjoint_fixed_by_the_seed_and_cover_every_item():
    items = [f"name_{i:02d}" for i in range(11)]
    first = S.halve(items)
    S.random.random()  # another draw in between changes nothing: each split seeds again
    assert S.halve(items) == first
    assert first["tune"] != items[:5]  # shuffled, not cut in order
    assert len(first["tune"]) == 5 and set(first["tune"]) | set(first["check"]) == set(items)
    assert not set(first["tune"]) & set(first["check"])
