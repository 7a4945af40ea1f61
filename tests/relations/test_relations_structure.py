"""Relationships and a book's structure (index/relations/structure.py): block labels
("Actions" under every creature) are never an edge's end, the implicit subject of a sub-entry's
sentence is its owner (the creature, not its "Bite"), and a glossary paragraph ends at a blank
line even with Windows line ends. Offline path, patterns only (the ``fake_svo`` fixture)."""

from __future__ import annotations

from bench.common.scoring import index_edges
from crossbook.ingest.pipeline import ingest_paths
from crossbook.relations.pattern_context import PatternEntity
from crossbook.relations.patterns import pattern_relations
from crossbook.relations.structure import book_labels
from tests.conftest import make_job
from tests.helpers import write

BESTIARY = """# Bestiary of the Marches

## Conditions

### Grappled

A grappled creature cannot move.

### Prone

A prone creature crawls.

## Creatures

### Cave Bear

A Cave Bear is a beast of the hills.

#### Special Actions

**Bite.** Melee attack. Hit: 7 damage, and the target has the Grappled condition.

**Rend.** Melee attack. Hit: 9 damage.

### Hill Wolf

A Hill Wolf hunts in packs.

#### Special Actions

**Bite.** Melee attack. Hit: 4 damage, and the target is knocked Prone.

**Howl.** The pack gathers.

### Marsh Boar

A Marsh Boar roots in the reeds.

#### Special Actions

**Gore.** Melee attack. Hit: 5 damage. Special Actions leave the target Prone.
"""


def edges_of(tmp_path, text: str) -> set[tuple[str, str, str]]:
    job = make_job(tmp_path / "index")
    ingest_paths(job, [write(tmp_path / "bestiary.md", text)])
    return {(e["source"], e["relation_type"], e["target"]) for e in index_edges(job.db)}


def test_a_sub_entry_sentence_has_its_owner_as_subject(tmp_path, fake_svo):
    found = edges_of(tmp_path, BESTIARY)
    assert ("Cave Bear", "inflicts", "Grappled") in found
    assert ("Hill Wolf", "inflicts", "Prone") in found
    assert not any("›" in source for source, _, _ in found)


ACTION_HEADINGS = "# Bestiary\n\n## Creatures\n\n" + "".join(
    f"### {name}\n\nA {name.lower()} of the wilds.\n\n#### Actions\n\n##### Bite\n\nThe {name.lower()} bites.\n\n"
    f"##### {own}\n\n{text}\n\n"
    for name, own, text in [("Ember Drake", "Tail Sweep", "Every creature next to it must save or be knocked Prone."),
                            ("Ash Wolf", "Howl", "Every creature that hears it must save or become Frightened."),
                            ("Cave Troll", "Club", "The troll swings its club.")]
) + "## Conditions\n\n" + "".join(f"### {c}\n\nA {c.lower()} creature suffers.\n\n" for c in ("Prone", "Frightened"))


def test_a_section_inside_an_entrys_label_section_belongs_to_the_entry(tmp_path, fake_svo):
    # "#### Actions" has no text of its own, only its actions: a label all the same, and each
    # action under it ("##### Tail Sweep") speaks for its creature
    assert edges_of(tmp_path, ACTION_HEADINGS) == {("Ember Drake", "inflicts", "Prone"),
                                                  ("Ash Wolf", "inflicts", "Frightened")}


def test_a_heading_with_sections_under_it_counts_as_having_a_body():
    rows = [(str(i), f"B > {n} > Actions", "Actions", False) for i, n in enumerate(("Bear", "Wolf", "Boar"))]
    assert book_labels(rows) == frozenset()  # three empty "Actions" (embedded notes): no label
    actions = [(f"a{i}", f"B > {n} > Actions > {a}", a, True) for i, (n, a) in enumerate(
        (("Bear", "Bite"), ("Wolf", "Howl"), ("Boar", "Gore")))]
    assert book_labels(rows + actions) == frozenset({"action"})
    assert book_labels(rows + actions[:2]) == frozenset()  # over sections under two parents only


GRIMOIRE = """# Grimoire of the Marches

## Spells

### Firebolt

A mote of fire streaks toward a creature.

### Mist Step

You teleport a short distance.

## Creatures

### Marsh Hag

A Marsh Hag lurks in the reeds.

#### Spellcasting

The hag casts Firebolt at intruders.

### Cave Witch

A Cave Witch hides in caves.

#### Spellcasting

The witch casts Mist Step to escape.

### Bog Sage

A Bog Sage mutters.

#### Spellcasting

The sage casts Firebolt and Mist Step.
"""


def test_a_block_label_is_no_end_of_an_edge_and_its_section_belongs_to_the_entry(tmp_path, fake_svo):
    found = edges_of(tmp_path, GRIMOIRE)
    assert not any("Spellcasting" in (source, target) for source, _, target in found)
    assert {("Marsh Hag", "casts", "Firebolt"), ("Cave Witch", "casts", "Mist Step"),
            ("Bog Sage", "casts", "Firebolt"), ("Bog Sage", "casts", "Mist Step")} <= found


def test_labels_are_headings_repeated_with_a_body_under_different_parents():
    rows = [
        ("1", "B > Bear > Actions", "Actions", True),
        ("2", "B > Wolf > Actions", "Actions", True),
        ("3", "B > Boar > Actions", "Actions", True),
        # an embedded note repeats its title with no body of its own: no label
        ("4", "B > Moves > Face Danger", "Face Danger", False),
        ("5", "B > Summary > Face Danger", "Face Danger", False),
        ("6", "B > Face Danger", "Face Danger", True),
        ("7", "B > Other > Face Danger", "Face Danger", True),
    ]
    assert book_labels(rows) == frozenset({"action"})
    assert book_labels(rows[:2]) == frozenset()


def test_a_glossary_paragraph_ends_at_a_blank_line_with_windows_line_ends():
    text = ("# Opposition\r\n\r\n**Concessions**: NPCs should concede often.\r\n \r\n"
            "Old Finn\r\nStunts:\tBattlefield Expert. +2 to Stealth in a city.\r\n")
    entities = [PatternEntity("Concessions", ("Concessions",), defines="glossary"), PatternEntity("Stealth", ("Stealth",))]
    assert pattern_relations(text, entities) == []
    # the same stunt inside the paragraph is the term's
    inside = text.replace("\r\n \r\n", "\r\n")
    assert [(r.source_name, r.target_name) for r in pattern_relations(inside, entities)] == [("Concessions", "Stealth")]


ARMORY = """# Armory of the Marches

## Armor

### Heavy Armor

**Plate.** Plate consists of shaped, interlocking metal plates. A suit of plate is heavy.

**Scale.** Scale is a coat of metal scales. A coat of scale is noisy.

## Magic Items

### Ember Armor

*Armor (Plate), rare*

While wearing this armor, you have resistance to fire damage.

### Storm Mail

*Armor (Scale), rare*

While wearing this armor, you hear thunder before it comes.
"""


def test_an_item_named_like_a_gear_list_is_an_entry_not_a_list(tmp_path, fake_svo):
    # "Ember Armor" reads as a gear list's title ("Armor"), but its section defines an item
    found = edges_of(tmp_path, ARMORY)
    assert {("Ember Armor", "variant_of", "Plate"), ("Storm Mail", "variant_of", "Scale")} <= found
