"""Entry kinds read from the book (index/extract/entry_kinds.py): a heading that names its
entries' kind, a bracketed kind, a category line, a stat block; a pack still overrides."""

from __future__ import annotations

from crossbook.chunk.chunking import parent_chunks, split_sections
from crossbook.core.packs import load_pack, parse_pack
from crossbook.extract.entry_kinds import bracket_kind, category_line_kind, heading_kind, path_kind, stat_block_kind
from crossbook.extract.pack_suggest import suggest_pack
from crossbook.extract.rules import book_mentions


def test_a_heading_names_its_entries_kind():
    assert heading_kind("Spell Descriptions") == "spell"
    assert heading_kind("Monsters A–Z") == "creature"
    assert heading_kind("Monsters (B)") == "creature"
    assert heading_kind("Appendix PH-A: Conditions") == "condition"
    assert heading_kind("Rules Definitions") == "rule"
    assert heading_kind("Magic Items") == "item"
    assert heading_kind("Class Features") == "feature"
    # a topic about the kind is no catalog of it
    assert heading_kind("Spell Level") is None
    assert heading_kind("Spell Lists") is None
    assert heading_kind("Spellcasting") is None
    # chapters that discuss their topics as often as they list entries
    assert heading_kind("Optional Rules") is None and heading_kind("Skills") is None
    assert heading_kind("Skills and Gear") is None


def test_a_bracket_names_the_entrys_own_kind():
    assert bracket_kind("Condition") == "condition"
    assert bracket_kind("Skill") == "skill"
    assert bracket_kind("Level 2 Evocation") is None


def test_a_category_line_under_a_name():
    def kind(line):
        return category_line_kind(f"#### Name\n\n{line}\n\nText.")
    assert kind("*Level 2 Enchantment (Bard, Druid)*") == "spell"
    assert kind("*2nd-level evocation*") == "spell"
    assert kind("*Evocation cantrip*") == "spell"
    assert kind("*Rod, Rare (Requires Attunement by a Spellcaster)*") == "item"
    assert kind("*Wondrous item, very rare (requires attunement)*") == "item"
    assert kind("*Huge Monstrosity, Unaligned*") == "creature"
    assert kind("*Medium humanoid (any race), any alignment*") == "creature"
    assert kind("Large or smaller creatures fall prone, and so on.") is None  # a sentence, not set apart


def test_a_stat_block_is_a_creatures_shape():
    assert stat_block_kind("**Armor Class** 17 (natural armor)\n\n**Hit Points** 135 (18d10 + 36)\n") == "creature"
    assert stat_block_kind("- **Armor Class:** 15\n- **Hit Points:** 172\n") == "creature"
    assert stat_block_kind("**Hit Points** are a measure of vigor.\n") is None


def test_field_lines_of_an_npc_block_are_a_stat_block():
    block = ">[!bug] Fen Hag\n>Rank: Dangerous (2 progress per harm)\n>Drives:\n>\t- Hoard bones\n>Tactics:\n>\t- Hex\n"
    assert stat_block_kind(block) == "creature"
    assert stat_block_kind("Rank: Novice\n\nA talent any hero may take.\n") is None  # one field is no block
    assert stat_block_kind("Her drives: to hoard bones. Her tactics: hexes.\n") is None  # prose, no field line


def test_the_kind_passes_through_a_group_but_not_through_an_entry():
    assert path_kind(("Monsters (A)", "Angels", "Deva"), through=lambda h: h == "Angels") == "creature"
    assert path_kind(("Classes", "Warden", "Wild Tongue")) is None


BOOK = """# Book

## Conditions

### Dazed

A dazed creature loses its reaction. Dazed is bad.

### Slowed

A slowed creature moves less. Slowed is bad.

### Burning

A burning creature takes fire damage. Burning is bad.

## Magic Items

### Lantern of Echoes

*Wondrous item, rare*

It glows.
"""


def _types(pack, text=BOOK):
    parents = parent_chunks("Book", split_sections(text))
    return {m.name: m.entity_type for found in book_mentions(parents, pack, "Book") for m in found}


def test_the_extractor_types_entries_without_a_pack_and_a_pack_overrides():
    types = _types(load_pack("generic"))
    assert types["Dazed"] == "condition" and types["Lantern of Echoes"] == "item"
    pack = parse_pack('name = "p"\n[[entity_types]]\nname = "status"\n[[entity_types]]\nname = "other"\n'
                      '[[heading_rules]]\nunder = "Conditions"\ntype = "status"\n', "test")
    assert _types(pack)["Dazed"] == "status"


def test_a_lone_entry_under_a_kind_heading_defines():
    text = "# Book\n\n## Monsters A–Z\n\n### Gloom Hydra\n\nThe hydra lurks in fens.\n"
    assert _types(load_pack("generic"), text) == {"Gloom Hydra": "creature"}
    topic = "# Book\n\n## Equipment\n\n### Equipment Sample Stunts\n\nSome stunts.\n"
    assert _types(load_pack("generic"), topic) == {}


def test_pack_suggest_drafts_the_kinds_names():
    book = BOOK.replace("## Conditions", "## Rules Definitions") + "\n## Monsters A–Z\n\n" + "".join(
        f"### {name}\n\nThe {name.lower()} lurks. {name} is a beast.\n\n" for name in ("Fen Hydra", "Bog Wight", "Reed Imp"))
    draft = suggest_pack([("book", book)], load_pack("generic"))
    assert 'name = "rule"' in draft and 'name = "creature"' in draft
    assert "monsters_a_z" not in draft and "rules_definition" not in draft


def test_a_section_without_the_shape_its_kind_shows_is_a_topic():
    stat = "*Large aberration, lawful evil*\n\n**Armor Class** 17\n\n**Hit Points** 135\n"
    text = ("# Bestiary\n\n## Monsters\n\n### Armor Class\n\nA monster's Armor Class includes its armor.\n\n"
            "### Hit Dice\n\nA monster's Hit Dice are rolled.\n\n"
            f"### Fen Lurker\n\n{stat}\n### Bog Wight\n\n{stat}\n")
    types = _types(load_pack("generic"), text)
    assert types["Fen Lurker"] == "creature" and types["Bog Wight"] == "creature"
    assert types["Armor Class"] == "other"


def test_a_phrase_heading_names_no_kind():
    assert heading_kind("Casting a Spell") is None
    assert heading_kind("Using Magic Items") is None


def test_a_part_of_an_entry_that_states_its_kind_is_a_feature():
    spell = "*Level 5 Evocation (Cleric)*\n\nChoose one effect:\n\n"
    leads = "**Courage.** Creatures can't be frightened.\n\n**Daylight.** Bright light fills it.\n\n" \
            "**Silence.** No sound can reach it.\n"
    text = f"# Book\n\n## Spell Descriptions\n\n### Hallow\n\n{spell}{leads}\n### Ward\n\n{spell}\n"
    types = _types(load_pack("generic"), text)
    assert types["Hallow"] == "spell" and types["Courage"] == "feature"
    # a section that states no kind keeps its parts untyped: another book may define the same name
    plain = "# Book\n\n## Advice\n\n### Tough Scenes\n\nSome advice.\n\n" + leads
    assert _types(load_pack("generic"), plain).get("Courage") == "other"


def test_pack_suggest_names_a_catalog_by_the_kind_its_entries_state():
    stat = "*Large celestial, lawful good*\n\n**Armor Class** 17\n\n**Hit Points** 136\n"
    book = "# Book\n\n## Angels\n\n" + "".join(f"### {n}\n\n{stat}\n" for n in ("Deva", "Planetar", "Solar"))
    draft = suggest_pack([("book", book)], load_pack("generic"))
    assert 'name = "creature"' in draft and 'name = "angel"' not in draft


KIND_CHAPTER = """# Classes

## Wyrmcaller

### Wyrmcaller Traits

| Hit Dice | 1d10 |
|---|---|
| Armor | Light armor |

### Wyrmcaller Features

#### Scale Ward

Your skin hardens.

## Thornwarden

### Thornwarden Features

#### Bramble Step

You pass through thorns.

## Mistdancer

### Mistdancer Features

#### Fog Veil

You vanish in fog.
"""


def test_a_heading_named_by_a_plural_kind_types_its_direct_children():
    # a class holds sections of its own: still a member of "Classes", not a chapter
    types = _types(load_pack("generic"), KIND_CHAPTER)
    assert {types.get(n) for n in ("Wyrmcaller", "Thornwarden", "Mistdancer")} == {"class"}
    # a section under "<Entry> Features" is of the kind that heading names
    assert types.get("Bramble Step") == types.get("Fog Veil") == "feature"
    assert "Wyrmcaller Traits" not in types or types["Wyrmcaller Traits"] != "class"


def test_a_table_of_names_under_a_kind_heading_lists_members_of_that_kind():
    text = ("# Gear\n\n## Simple Melee Weapons\n\n| Name | Cost |\n|---|---|\n| Thornclub | 1 sp |\n"
            "| Reedknife | 2 gp |\n| Stonemaul | 5 gp |\n\n## Prices\n\n| Rarity | Value |\n|---|---|\n"
            "| Common | 50 gp |\n| Rare | 500 gp |\n| Fabled | 5000 gp |\n")
    types = _types(load_pack("generic"), text)
    assert types.get("Thornclub") == types.get("Reedknife") == "item"
    assert types.get("Fabled", "other") != "item"  # a column headed by no name nor kind lists no members
