"""Definitions and types a rulebook states without a pack: chapters that share a label are a
catalog of entries typed by the book's title, a book's own lists of a kind type their names,
a table's rows take their column's kind, a lead that names a column defines nothing, an
entry that states its kind stays whole ("Detect Evil and Good") and is a name though its
words read as a phrase ("Dancing Lights")."""

from __future__ import annotations

from crossbook.chunk.chunking import parent_chunks, split_sections
from crossbook.core.packs import load_pack
from crossbook.extract.contract import rules_off
from crossbook.extract.entry_kinds import listing_kind
from crossbook.extract.listed_kinds import listed_kinds, stated_kinds
from crossbook.extract.rules import book_mentions

GENERIC = load_pack("generic")


def mentions(text: str, book: str = "Book") -> dict[str, tuple[str, str]]:
    parents = parent_chunks(book, split_sections(text))
    return {m.name: (m.entity_type, m.rule) for found in book_mentions(parents, GENERIC, book) for m in found}


CLASSES = "".join(
    f"{name}\n{'=' * len(name)}\n\n### Class Features\n\nAs a {name.lower()}, you gain these features.\n\n"
    f"### {feature}\n\nYou can use {feature.lower()} once a day.\n\n"
    for name, feature in (("Warden", "Root Stance"), ("Harrier", "Quick Volley"), ("Sage", "Deep Lore")))


def test_chapters_that_share_a_label_are_entries_typed_by_the_books_title():
    found = mentions(CLASSES, book="03 classes")
    assert found["Warden"] == ("class", "labelled_entry")
    assert found["Sage"][0] == "class"
    with rules_off(["labelled_entry"]):
        assert "Warden" not in mentions(CLASSES, book="03 classes")


SKILLS = """# Book

## Skills

### Might

- Climbing
- Swimming

### Wits

- Lore
- Sleight of Mind

## Using Might

**Climbing.** You scale walls and cliffs with a Might (Climbing) check.

**Swimming.** You cross water.
"""


def test_a_books_list_of_a_kind_types_the_names_it_lists():
    assert listing_kind("Skills") == "skill" and listing_kind("Skill") == "skill"
    assert listing_kind("Might") is None and listing_kind("Difficulty Classes") == "rule"
    assert listed_kinds(parent_chunks("Book", split_sections(SKILLS)))["sleight_of_mind"] == "skill"
    found = mentions(SKILLS)
    assert found["Climbing"][0] == found["Swimming"][0] == "skill"


TABLES = """# Book

## Difficulty Classes

| Task | DC |
|------|----|
| Very Easy | 5 |
| Hard Going | 20 |
| Nearly Impossible | 30 |

## Talents

| Skill | Ability |
|-------|---------|
| Climbing | Might |
| Tracking | Wits |
| Haggling | Charm |
"""


def test_a_tables_rows_take_the_kind_its_first_column_names_not_the_headings():
    found = mentions(TABLES)
    assert found["Hard Going"][0] == "other"  # a difficulty table's row is no class
    assert found["Tracking"][0] == "skill"


ARMOR = """# Book

## Armor

| Armor | Cost | Stealth |
|-------|------|---------|
| Quilted | 5 gp | Disadvantage |
| Hide | 10 gp | — |
| Mail | 50 gp | Disadvantage |

**Stealth.** If the Armor table shows "Disadvantage" in the Stealth column, you roll worse.

**Don Time.** Putting armor on takes a minute.
"""


def test_a_lead_that_explains_a_tables_column_defines_nothing():
    found = mentions(ARMOR)
    assert "Stealth" not in found and "Don Time" in found
    with rules_off(["column_note"]):
        assert "Stealth" in mentions(ARMOR)


SPELLS = """# Book

## Spell Descriptions

### Dancing Lights

*Evocation cantrip*

You make lights dance.

### Detect Evil and Good

*1st-level divination*

You sense evil and good.

### Frost Lance

*1st-level evocation*

A lance of ice.

### Ember Ward

*2nd-level abjuration*

A ward.
"""


def test_an_entry_that_states_its_kind_is_one_whole_name():
    found = mentions(SPELLS)
    assert found["Detect Evil and Good"][0] == "spell"
    assert "Good" not in found and "Detect Evil" not in found
    assert found["Dancing Lights"][0] == "spell"
    with rules_off(["states_one_thing", "parts_never_alone"]):
        assert "Good" in mentions(SPELLS)
    with rules_off(["shaped_entry"]):
        assert "Dancing Lights" not in mentions(SPELLS)


TOPICS = """# Book

## Aspects

Aspects are phrases.

## Fate Points

Fate points are tokens.

## Aspects and Fate Points

You spend fate points to invoke aspects.

## Problems and Character Aspects

A problem makes an aspect.

## Stunts

Stunts are tricks.

## Motivations and Instincts

Each foe has a Motivation, and an Instinct. Give the Motivation a word; an Instinct acts
first, a Motivation last. A Motivation and an Instinct may clash.
"""


def test_a_joined_heading_splits_only_into_names_the_book_heads_alone():
    found = mentions(TOPICS)
    assert "Problems and Character Aspects" in found
    assert "Problems" not in found and "Character Aspects" not in found
    assert "Aspects and Fate Points" not in found and {"Aspects", "Fate Points"} <= set(found)
    assert {"Motivations", "Instincts"} <= set(found)  # written capitalised in its sentences
    with rules_off(["parts_never_alone"]):
        assert "Problems" in mentions(TOPICS)


STEPS = """# Book

## Order of Battle

1. **Determine surprise.** The GM decides who is surprised.
2. **Roll initiative.** Everyone rolls.

**Surprise.** A surprised creature cannot act.

**Initiative.** The order of turns.

## Threats

| Abbreviation | Meaning |
|--------------|---------|
| TL | Threat Level |
| HD | Hit Dice |
| Tough | Very hard |

### Threat Level

Threat Level is how dangerous a foe is.

### Hit Dice

Hit Dice are dice.

### Adjustments

Change the numbers as you like.

**Example Quick Stunt:** Because I am quick, I get +2.

**Important Note:** Read the threats first.

## Sizes

| Size | Space |
|------|-------|
| Tiny | 2 ft |
| Huge | 15 ft |
| Towering | 30 ft |
"""


def test_steps_labels_values_and_abbreviations_define_nothing():
    found = mentions(STEPS)
    assert "Determine surprise" not in found and "Roll initiative" not in found and "Surprise" in found
    assert "Tl" not in found and "Tiny" not in found and "Huge" not in found and "Towering" in found
    assert "Adjustments" not in found
    assert "Example Quick Stunt" not in found and "Important Note" not in found
    with rules_off(["step_lead", "column_value", "abbreviation_row", "generic_label"]):
        loose = mentions(STEPS)
        assert {"Roll initiative", "Huge", "Tl", "Adjustments", "Important Note"} <= set(loose)


def test_an_abbreviation_row_is_an_alias_of_what_it_abbreviates():
    parents = parent_chunks("Book", split_sections(STEPS))
    aliases = {m.name: m.aliases for found in book_mentions(parents, GENERIC, "Book") for m in found}
    assert "TL" in aliases["Threat Level"]



def test_a_phrase_states_a_things_kind():
    text = ("# Play\n\nThe Athletics skill covers climbing. Make a Wisdom (Tracking) check. As a member of the "
            "Wyrmcaller class, you gain it. Cast the *Glimmer* spell; end the Dazed condition. Read the Bard spell "
            "list. The Hush condition, and the Hush spell.\n")
    assert stated_kinds(parent_chunks("Book", split_sections(text))) == {
        "athletics": "skill", "tracking": "skill", "wyrmcaller": "class", "glimmer": "spell", "dazed": "condition"}


FIELDS = """# Book

## Creatures

### Marsh Hag

The hag lurks in the reeds.

**Kit** Spear, Hide Cloak

- **Wounds:** 3 (1d6)

**Tactics:** She hides in the reeds.

**Hex.** The hag curses a creature.

## Terms

**Refresh:** 3 fate points at the start of
every session.

## Gear

- **Armored Jacket:** Armor:2
"""


def test_a_lead_whose_line_goes_on_with_a_value_is_a_field():
    found = mentions(FIELDS)
    # a field of an entry's stat lines, though no stat block frames it
    assert not {name for name in found if "Kit" in name or "Wounds" in name}
    # a sentence after the lead, an action, a definition wrapped onto the next line: entries
    assert {"Tactics", "Hex", "Refresh"} <= {name.split(" › ")[-1] for name in found}
    # a value with its own stat labels is a thing's stat line, its lead the thing (Atomic Robo)
    assert "Armored Jacket" in found
    with rules_off(["field_line"]):
        assert {name for name in mentions(FIELDS) if "Kit" in name}
