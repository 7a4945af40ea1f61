"""An entry's spell list and gear list ("#### Spells" + items, "**Gear:** Longbow,
Chain Shirt") become ``casts`` and ``wields`` from the entry (index/relations/patterns.py,
index/relations/structure.py); a catalog of spells with no entry above it is no one's list,
and a parenthesized list of who has a spell ("Rank 2 Charm (Bard, Sage)") is no category."""

from __future__ import annotations

from bench.common.scoring import index_edges
from crossbook.core.models import RawRelation
from crossbook.ingest.pipeline import ingest_paths
from crossbook.relations.offline import offline_claims
from crossbook.relations.pattern_context import NAMED_EXTRACTOR, PatternEntity
from crossbook.relations.pattern_lists import list_kind
from crossbook.relations.patterns import pattern_relations
from crossbook.relations.stated import stated_relations
from tests.conftest import make_job
from tests.helpers import write

BOOK = """# Bestiary of the Marches

## Spells

### Firebolt

A mote of fire streaks toward a creature.

### Mist Step

You teleport a short distance.

## Gear

### Longbow

A ranged weapon.

### Chain Shirt

Light armor.

## Creatures

### Marsh Hag

A Marsh Hag lurks in the reeds.

#### Spells

- Firebolt
- Mist Step (1/day)

### Bandit Captain

A Bandit Captain leads outlaws.

#### Gear

Longbow, Chain Shirt
"""


def test_an_entrys_spell_and_gear_lists_are_what_it_casts_and_wields(tmp_path, fake_svo):
    job = make_job(tmp_path / "index")
    ingest_paths(job, [write(tmp_path / "bestiary.md", BOOK)])
    found = {(e["source"], e["relation_type"], e["target"]) for e in index_edges(job.db)}
    assert found == {("Marsh Hag", "casts", "Firebolt"), ("Marsh Hag", "casts", "Mist Step"),
                     ("Bandit Captain", "wields", "Longbow"), ("Bandit Captain", "wields", "Chain Shirt")}


HAG = [PatternEntity("Marsh Hag", ("Marsh Hag",), "creature", "heading"),
       PatternEntity("Firebolt", ("Firebolt",), category="Spells"),
       PatternEntity("Mist Step", ("Mist Step",), category="Spells"),
       PatternEntity("Longbow", ("Longbow", "longbow"), category="Gear"),
       PatternEntity("Bard", ("Bard",), category="Classes"),
       PatternEntity("Sage", ("Sage",), category="Classes")]


def relations(body: str) -> set[tuple[str, str, str]]:
    text = f"### Marsh Hag\n\nA hag of the reeds.\n\n{body}"
    return {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(text, HAG)}


def test_a_lead_line_lists_what_the_entry_casts_and_wields():
    assert relations("**Spells:** Firebolt, Mist Step (at will)\n\n**Gear:** longbow") == {
        ("Marsh Hag", "casts", "Firebolt"), ("Marsh Hag", "casts", "Mist Step"), ("Marsh Hag", "wields", "Longbow")}
    assert relations("Spells:\n- Firebolt\n- Mist Step\n\nShe fears the Bard.") == {
        ("Marsh Hag", "casts", "Firebolt"), ("Marsh Hag", "casts", "Mist Step")}


def test_a_stat_blocks_closed_bold_title_opens_a_list_among_action_leads():
    # the leads ("**Claw.**") are the catalog's entries; the list's own title is none of them
    entities = [*HAG, PatternEntity("Claw", ("Claw",), defines="glossary")]
    text = ("### Marsh Hag\n\n**Actions**\n\n**Claw.** The hag claws one target.\n\n"
            "**Spells** Firebolt, Mist Step.\n")
    assert {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(text, entities)} == {
        ("Marsh Hag", "casts", "Firebolt"), ("Marsh Hag", "casts", "Mist Step")}


def test_a_class_table_of_spells_it_can_prepare_is_what_it_casts():
    entities = [PatternEntity("Warden", ("Warden",), defines="heading"), *HAG[1:3]]
    text = ("### Warden\n\nWardens guard the marches.\n\n**Spells you can prepare**\n\n"
            "| Spell | Level |\n|---|---|\n| Firebolt | 1 |\n| Mist Step | 2 |\n\nThen roll.\n")
    assert {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(text, entities)} == {
        ("Warden", "casts", "Firebolt"), ("Warden", "casts", "Mist Step")}
    # a paragraph of prose after the title is no list
    prose = "### Warden\n\n**Spells you can prepare**\n\nAsk the Firebolt keeper.\n"
    assert pattern_relations(prose, entities) == []


def test_the_following_spells_inline_are_what_the_entry_casts():
    entities = [*HAG, PatternEntity("Spellcasting", ("Spellcasting",), defines="glossary")]
    text = ("### Marsh Hag\n\n***Spellcasting.*** The hag casts one of the following spells, requiring no "
            "components: At will: *Firebolt*; 1/day each: *Mist Step*. The Bard hates it.\n")
    # the action "Spellcasting" is the hag's: the hag casts them; the next sentence is no list
    assert {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(text, entities)} == {
        ("Marsh Hag", "casts", "Firebolt"), ("Marsh Hag", "casts", "Mist Step")}


def test_prose_after_a_list_title_is_no_list():
    # a sentence is no list: the verb patterns read it ("casts Firebolt"), not the list rule
    assert relations("**Spells:** She fears the Bard and the Sage.") == set()
    assert relations("**Gear:** Longbow, Firebolt scrolls and a cart of stolen goods.") == set()


def test_a_parenthesized_list_of_classes_is_no_category_and_no_list():
    text = "### Charm\n\nRank 2 Charm (Bard, Sage)\n\nThe target is charmed."
    entities = [PatternEntity("Charm", ("Charm",), defines="heading"), *HAG[4:]]
    assert pattern_relations(text, entities) == []


def test_list_titles():
    assert [list_kind(t) for t in ("Spells", "Spells Known", "Innate Spellcasting", "Starting Equipment", "Gear:",
                                   "Spells you can prepare", "Spells you know")] == [
        "casts", "casts", "casts", "wields", "wields", "casts", "casts"]
    assert [list_kind(t) for t in ("Skills and Gear", "Spell Effects Explained", "Actions")] == [None, None, None]


def test_the_following_spells_on_lines_of_uses_after_a_blank_line():
    entities = [*HAG, PatternEntity("Innate Spellcasting", ("Innate Spellcasting",), defines="glossary")]
    text = ("### Marsh Hag\n\n***Innate Spellcasting.*** The hag can innately cast the following spells:\n\n"
            "At will: *Firebolt*\n3/day each: *mist step*\n\nShe keeps a *longbow* and fears the Bard.\n")
    assert {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(text, entities)} == {
        ("Marsh Hag", "casts", "Firebolt"), ("Marsh Hag", "casts", "Mist Step")}


def test_a_gear_row_of_a_stat_table_and_a_kit_label_are_what_the_entry_wields():
    assert relations("| Armor Class | 12 |\r\n| Gear | Longbow |\r\n\r\nIt waits.") == {
        ("Marsh Hag", "wields", "Longbow")}
    assert relations("- **Armor Class** 12\n- **Kit** Longbow\n") == {("Marsh Hag", "wields", "Longbow")}
    # a kit named by its use is an item, no gear list's title
    assert list_kind("Climbing Kit") is None and list_kind("Kit") == "wields"


def test_a_creatures_weapon_attack_and_gear_name_the_item_not_the_action():
    knight = [PatternEntity("Gloom Knight", ("Gloom Knight",), "creature", "heading"),
              PatternEntity("Gloom Knight › Thornblade", ("Gloom Knight › Thornblade", "Thornblade"), "feature",
                            "glossary"),
              PatternEntity("Thornblade", ("Thornblade",), "item"),
              PatternEntity("Gloom Knight › Bite", ("Gloom Knight › Bite", "Bite"), "feature", "glossary"),
              PatternEntity("Bite", ("Bite",), "other")]
    text = ("### Gloom Knight\n\n*Medium humanoid, any alignment*\n\n**Actions**\n\n***Thornblade.*** *Melee Weapon "
            "Attack:* +4 to hit.\n\n***Bite.*** *Melee Weapon Attack:* +2 to hit.\n")
    # a bite is no item: only the attack named by an item of the book is gear
    assert {(r.source_name, r.relation_type, r.target_name) for r in stated_relations(text, knight)} == {
        ("Gloom Knight", "wields", "Thornblade")}
    gear = "### Gloom Knight\n\n***Thornblade.*** It slashes.\n\nGear: Thornblade\n"
    assert {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(gear, knight)} == {
        ("Gloom Knight", "wields", "Thornblade")}


def _creature(name: str) -> str:
    return (f"### {name}\n\n*Medium humanoid, any alignment*\n\n**Armor Class** 12\n\n**Hit Points** 11 (2d8)\n\n"
            "**Actions**\n\n***Thornclub.*** *Melee Weapon Attack:* +4 to hit, reach 5 ft., one target.\n\n"
            "***Reedknife.*** *Melee Weapon Attack:* +2 to hit, reach 5 ft., one target.\n\n")


ARMORY = ("# Armory\n\n## Simple Melee Weapons\n\n| Name | Cost | Damage |\n|---|---|---|\n"
          "| Thornclub | 1 sp | 1d4 |\n| Reedknife | 2 gp | 1d4 |\n| Stonemaul | 5 gp | 2d6 |\n")
BESTIARY = "# Marches Bestiary\n\n## Monsters\n\n" + "".join(_creature(n) for n in ("Gloom Knight", "Reed Goblin", "Fen Hag"))


def test_a_weapon_attack_wields_the_item_of_the_table_not_the_attack(tmp_path, fake_svo):
    job = make_job(tmp_path / "index")
    ingest_paths(job, [write(tmp_path / "armory.md", ARMORY), write(tmp_path / "bestiary.md", BESTIARY)])
    found = {(e["source"], e["relation_type"], e["target"]) for e in index_edges(job.db)
             if e["relation_type"] == "wields"}
    assert found == {(n, "wields", w) for n in ("Gloom Knight", "Reed Goblin", "Fen Hag")
                     for w in ("Thornclub", "Reedknife")}


GEAR_BOOK = """# Bestiary of the Marches

## Gear

### Longsword

A martial weapon.

### Leather

Light armor.

### Horn

A hunting horn.

## Classes

### Warden

Wardens guard the marches.

#### Proficiencies

**Armor:** Leather armor

**Weapons:** Longsword

## Creatures

### Gloom Knight

*Medium humanoid, any alignment*

**Armor Class** 12 (leather armor)

**Hit Points** 11 (2d8)

**Actions**

***Longsword.*** *Melee Weapon Attack:* +4 to hit, one target.

### Thorn Ram

*Large beast, unaligned*

**Armor Class** 11 (natural armor)

**Hit Points** 19 (3d10)

**Actions**

***Horns.*** *Melee Weapon Attack:* +5 to hit, one target.
"""


def test_a_stat_blocks_armor_and_weapon_attacks_are_gear_and_proficiencies_are_none(tmp_path, fake_svo):
    # the armour its Armor Class names, less the closing kind word, is what the knight wields;
    # "natural armor" is no gear, "Horns" no Horn, and a class's proficiencies are no gear of it
    job = make_job(tmp_path / "index")
    ingest_paths(job, [write(tmp_path / "bestiary.md", GEAR_BOOK)])
    found = {(e["source"], e["relation_type"], e["target"]) for e in index_edges(job.db) if e["relation_type"] == "wields"}
    assert found == {("Gloom Knight", "wields", "Leather"), ("Gloom Knight", "wields", "Longsword")}


def test_an_attack_named_by_an_item_another_entry_defines_names_the_item():
    # the chunk links "Longsword" to the attack another creature defines: the claim names the
    # item of that name, resolved on the shelf among the wielded kind
    ogre = [PatternEntity("Gloom Ogre", ("Gloom Ogre",), "creature", "heading"),
            PatternEntity("Longsword", ("Longsword",), "feature")]
    text = "### Gloom Ogre\n\n**Actions**\n\n***Longsword.*** *Melee Weapon Attack:* +4 to hit.\n"
    [claim] = stated_relations(text, ogre)
    assert (claim.source_name, claim.relation_type, claim.target_name, claim.target_kind) == (
        "Gloom Ogre", "wields", "Longsword", "item")


def test_a_claim_from_a_stat_block_is_the_creatures_not_the_class_of_its_name():
    # the chunk holds the class as the owner of a sub-entry ("Warden › Spellcasting") and
    # defines the creature: a claim naming "Warden" is the creature's
    text = "### Warden\n\n***Quarterstaff.*** *Melee Weapon Attack:* +2 to hit.\n"
    entities = [("Warden", ("Warden",), ("warden", "class"), "", ""),
                ("Warden", ("Warden",), ("warden", "creature"), "heading", "")]
    raw = RawRelation(source_name="Warden", target_name="Quarterstaff", relation_type="wields",
                      evidence="***Quarterstaff.*** *Melee Weapon Attack:* +2 to hit.", extractor=NAMED_EXTRACTOR,
                      target_kind="item")
    [claim] = offline_claims(text, entities, [raw])
    assert (claim.source_type, claim.target_normalized, claim.target_type) == ("creature", "quarterstaff", "item")
