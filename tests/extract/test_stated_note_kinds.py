"""The kinds a rulebook states of its things outside a phrase: a note vault's tags (the last
segment of ``#Asset/Ritual`` is the kind noun a heading "Rituals" would use), a note named by a
plural kind over the notes it embeds, a heading named by a compound of a kind ("Gear Stunts"),
and what is no member: a child that names its heading's own noun. Invented vault and text."""

from __future__ import annotations

from crossbook.chunk.chunking import parent_chunks, split_sections
from crossbook.core.packs import load_pack
from crossbook.extract.contract import rules_off
from crossbook.extract.marks import NoteMarks
from crossbook.extract.rules import book_mentions
from crossbook.readers.vault import read
from tests.helpers import vault

NOTES = {
    "Assets/Glimmer Rite.md": "# Glimmer Rite\n#Asset/Ritual \n\n- When you perform this ritual, roll +wits.\n",
    "Assets/Brawler.md": "# Brawler\n#Asset/Combat_Talent\n## If you fight unarmed\n- When you strike, add +1.\n",
    "Assets/Hound.md": "# Hound\n#Asset/Companion\n- Your hound tracks by scent.\n",
    "Assets/Two Minds.md": "# Two Minds\n#Ritual #Talent\n- Both at once.\n",
}


def note_types(tmp_path) -> dict[str, str]:
    book = read(vault(tmp_path / "v", NOTES))
    parents = parent_chunks("v", list(book.sections))
    marks = NoteMarks(load_pack("generic"), parents, [None] * len(parents))
    return {file.rpartition("/")[2].removesuffix(".md"): kind for file, kind in marks.note_types.items()}


def test_a_tag_whose_segment_is_a_kind_word_types_the_note(tmp_path):
    found = note_types(tmp_path)
    assert found["Glimmer Rite"] == "spell"
    assert found["Brawler"] == "feature"  # "Combat_Talent": a talent
    assert found["Hound"] == "other"  # no kind word among its tags
    assert found["Two Minds"] == "other"  # tags that name two kinds state neither


STUNTS = """# Book

## Gear Stunts

A stunt can reflect fine gear that gives your character an edge.

**Thornhide Cloak**: Because I wear a cloak of thornhide, I get +2 to defend against grapples.

**Glass Dagger**: Because my dagger is hard to see, I get +2 to attack from hiding.

**Mule Saddle**: Because my mule is saddled, I can carry twice the load.
"""


def test_a_heading_named_by_a_compound_of_a_kind_types_its_leads():
    parents = parent_chunks("Book", split_sections(STUNTS))
    found = {m.name: m.entity_type for block in book_mentions(parents, load_pack("generic"), "Book") for m in block}
    assert found["Glass Dagger"] == "feature"  # "Gear Stunts": stunts, whose kind is a feature
    assert found["Thornhide Cloak"] == "feature"


BESTIARY = {
    "Foes/Beasts.md": "# Beasts\nBeasts are the great wild things.\n\n## ![[Marsh Wyrm]]\n## ![[Glass Stag]]\n",
    "Foes/Lore.md": "# Lore\nWhat the wise know.\n\n## ![[Pale Hermit]]\n",
    "Foes/Marsh Wyrm.md": "## Marsh Wyrm\n>[!bug] Marsh Wyrm\n>Rank: Dangerous\n\nIt lurks in fens.\n",
    "Foes/Glass Stag.md": "# Glass Stag\nA stag of glass.\n",
    "Foes/Pale Hermit.md": "# Pale Hermit\nA hermit of the hills.\n",
    "Foes/Creatures.md": "# Creatures\nThe wild things.\n",
    "Foes/Monsters.md": "# Monsters\nAll of them.\n\n## ![[Creatures]]\n",
}


def test_a_note_named_by_a_plural_kind_types_the_notes_it_embeds_as_headings(tmp_path):
    book = read(vault(tmp_path / "b", BESTIARY))
    parents = parent_chunks("b", list(book.sections))
    types = NoteMarks(load_pack("generic"), parents, [None] * len(parents)).note_types
    assert types["Foes/Marsh Wyrm.md"] == "creature" and types["Foes/Glass Stag.md"] == "creature"
    assert types["Foes/Pale Hermit.md"] == "other"  # "Lore" names no kind
    assert types["Foes/Beasts.md"] == "other"
    assert types["Foes/Creatures.md"] == "other"  # named by the kind: a group of them, no member


def test_a_note_whose_callout_is_a_stat_block_is_a_creature_under_any_heading(tmp_path):
    notes = {"Foes/Animals.md": "# Animals\nMost are skittish.\n\n## ![[Fen Hag]]\n## ![[Reed Cat]]\n",
             "Foes/Fen Hag.md": "## Fen Hag\n>[!bug] Fen Hag\n>Rank: Dangerous\n>Drives:\n>- Hoard bones\n",
             "Foes/Reed Cat.md": "## Reed Cat\nA cat of the reeds.\n>[!note] Rank: tame\n"}
    book = read(vault(tmp_path / "a", notes))
    parents = parent_chunks("a", list(book.sections))
    types = NoteMarks(load_pack("generic"), parents, [None] * len(parents)).note_types
    assert types["Foes/Fen Hag.md"] == "creature"  # "Animals" names no kind: its field lines do
    assert types["Foes/Reed Cat.md"] == "other"


def test_a_child_that_names_the_kind_of_its_heading_is_about_the_kind_no_member():
    text = "# 4: Stunts\n\n## Odd Stunt Rubrics\n\nStunts give bonuses.\n\n## Iron Hide\n\nOnce per scene, ignore a wound.\n"
    with rules_off({"marked_entry", "catalog_entry"}):  # kind_member alone decides
        parents = parent_chunks("Book", split_sections(text))
        found = {m.name: m.rule for block in book_mentions(parents, load_pack("generic"), "Book") for m in block}
    assert found.get("Iron Hide") == "kind_member"
    assert "Odd Stunt Rubrics" not in found


DEBILITIES = """# Hardships

Hardships hold you back.

## Conditions

- Bruised may be marked when you are at 0 health. You need rest to recover.
- Rattled is marked when you fail to keep your nerve.

If you are bruised or rattled, you cannot increase the track.

## Troubles

- Each marked trouble lowers your momentum by 1.
- If you have two, your reset is 0.

## Scars

- Hexed is marked when you return from death.
- Haunted is marked when you see the end of days.

When you are hexed or haunted, say how it shows.

## Lore

- Rooks may be seen when a storm comes.
- Crows are seen at dusk.

Rooks and crows are seen often.
"""


def test_the_names_a_list_under_a_kind_opens_its_items_with_are_of_that_kind():
    parents = parent_chunks("Book", split_sections(DEBILITIES.replace("# Hardships", "# Debilities")))
    found = {m.name: m.entity_type for block in book_mentions(parents, load_pack("generic"), "Book") for m in block}
    assert found["Bruised"] == "condition" and found["Rattled"] == "condition"  # under "Conditions"
    assert found["Hexed"] == "condition" and found["Haunted"] == "condition"  # "Debilities > Scars"
    assert "Each" not in found and "If" not in found  # sentences, no names
    assert "Rooks" not in found  # "Lore" names no kind, nor does the book
    # under a heading that names no kind, the same list defines nothing
    parents = parent_chunks("Book", split_sections(DEBILITIES))
    found = {m.name for block in book_mentions(parents, load_pack("generic"), "Book") for m in block}
    assert "Hexed" not in found and "Bruised" in found


WEIGHT = """# Book

## Stunts and Weight

Some stunts also change your weight.

**Bog Strider**: Because I know the fens, my weight counts as 2 in the marsh.

**Iron Jaw**: When I take a blow, my weight counts as 2 against it.

**Tall Tale**: Because I lie well, my weight counts as 2 in a boast.

## Zones and Ranged Weapons

**Long Shot**: A shot across two zones is at -1.

**Cover Fire**: A shot into a zone with cover is at -2.

**Open Ground**: A zone of open ground gives no cover.

## Crafts Stunts

* **Lies upon Lies.** +2 to deceive someone who believed you once.
* **Better than New!** A repaired thing gains an aspect.
* **Quick Hands.** +1 to craft in a hurry.
"""


def test_leads_under_a_heading_joining_a_kind_to_a_topic_take_the_kind():
    parents = parent_chunks("Book", split_sections(WEIGHT))
    found = {m.name: m.entity_type for block in book_mentions(parents, load_pack("generic"), "Book") for m in block}
    assert found["Bog Strider"] == "feature" and found["Iron Jaw"] == "feature"  # stunts, whose kind is a feature
    assert found["Long Shot"] == "other"  # "Zones and Ranged Weapons": the topic is zones, no kind
    # title case leaves "upon" and "than" in lower case: the catalog's entries are names
    assert found["Lies upon Lies"] == "feature" and found["Better than New!"] == "feature"


SUMMONS = """# Book

## Voidcallers

### Creatures and Powers

There is no way to list them all.

#### Sample Creatures

##### Ash Moths

**Summoning Difficulty:** Fair (+1)

Moths that eat light.

#### Glass Eels

**Summoning Difficulty:** Good (+2)

Eels of glass that swim through windows.

##### Bone Wren

**Summoning Difficulty:** Great (+3)

A small bird of bones.

##### The Grey Clerk

**Summoning Difficulty:** Poor (-1)

He keeps the void's ledgers.
"""


def test_sections_opening_with_one_field_line_are_one_catalog_whatever_their_levels():
    parents = parent_chunks("Book", split_sections(SUMMONS))
    found = {m.name: m.entity_type for block in book_mentions(parents, load_pack("generic"), "Book") for m in block}
    # "Glass Eels" sits a level up and holds the next two, but opens as they do: one of them
    assert {found.get(n) for n in ("Ash Moths", "Glass Eels", "Bone Wren", "The Grey Clerk")} == {"creature"}


OFFERED = """# Book

## Reeling Fist

Here's an example of a kung fu stunt tree, for the Reeling Fist style.

<strong>The Reeling Step:</strong> You sway on your feet and evade blows.

<strong>The Reeling Shove:</strong> Your push hits harder than it seems.

<strong>Cup of Wine:</strong> (Requires The Reeling Step) You drink and clear a stress box.

## Reading the Room

Here's how to read a crowd, in three looks:

<strong>Glance Left:</strong> See who stands apart.

<strong>Glance Right:</strong> See who watches the door.

<strong>Look Up:</strong> See who holds the balcony.
"""


def test_leads_after_a_sentence_offering_examples_of_a_kind_take_the_kind():
    parents = parent_chunks("Book", split_sections(OFFERED))
    found = {m.name: m.entity_type for block in book_mentions(parents, load_pack("generic"), "Book") for m in block}
    assert found["The Reeling Step"] == "feature" and found["Cup of Wine"] == "feature"  # stunts
    assert found["Glance Left"] == "other"  # "Here's how to read a crowd": no kind offered


LEAGUE = """# Book

## Adversaries

### The Ash League

**Aspects**: Ash Is All, The Cold Hearth

**Skills**: Great (+4) Burn

Good (+3) Hide

**Stunts**: **Smoke Step**. +2 to Hide when a fire burns near.

**Cinder Oath**. Once per scene, reroll a Burn roll.

**Grey Market**. When you buy from the League, pay one less.

### The Salt Guild

**Notes**: **Brine Ledger**. The guild's book of debts.

**Tide Clerk**. A clerk who counts the tides.

**Wharf Rat**. A runner of the docks.
"""


def test_leads_after_a_field_label_naming_a_kind_take_the_kind():
    parents = parent_chunks("Book", split_sections(LEAGUE))
    found = {m.name: m.entity_type for block in book_mentions(parents, load_pack("generic"), "Book") for m in block}
    assert {found[n] for n in ("Cinder Oath", "Grey Market")} == {"feature"}  # the leads after "**Stunts**:"
    assert found["Tide Clerk"] == "other"  # "**Notes**:" names no kind


def test_a_heading_over_a_list_of_members_of_its_kind_names_a_group_no_member():
    parents = parent_chunks("Book", split_sections(DEBILITIES.replace("# Hardships", "# Debilities")))
    found = {m.name: m.entity_type for block in book_mentions(parents, load_pack("generic"), "Book") for m in block}
    assert found["Hexed"] == "condition" and found.get("Scars", "other") == "other"
