"""A magic item's category line names its base ("*Weapon (scimitar), rare*") that the chunk
does not link: the claim names it, and the shelf resolves it by name once a book defines it,
whatever the order the books come in (index/relations/patterns.py ``category_line_family``,
offline.py). A catalog table in a file with Windows line ends defines its rows
(index/extract/glossary.py ``table_terms``)."""

from __future__ import annotations

import pytest

from bench.common.scoring import index_edges
from crossbook.ingest.pipeline import ingest_paths
from crossbook.relations.patterns import PatternEntity, pattern_relations
from tests.conftest import make_job
from tests.helpers import write

WEAPONS = """# Arms of the Marches

## Weapons

### Martial Weapons

| Name     | Cost  | Damage       |
|----------|-------|--------------|
| Scimitar | 25 gp | 1d6 slashing |
| Trident  | 5 gp  | 1d6 piercing |
| Flail    | 10 gp | 1d8 bludgeoning |
"""

ITEMS = """# Treasures of the Marches

## Magic Items

### Scimitar of Haste

*Weapon (scimitar), rare (requires attunement)*

You gain a +2 bonus to attack and damage rolls made with this magic weapon.

### Trident of the Deep

*Weapon (trident), uncommon*

This trident hums near water.

### Blade of Many Edges

*Weapon (any sword), rare*

Its edge is never dull.
"""


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("names", [("a-weapons.md", "b-items.md"), ("b-weapons.md", "a-items.md")])
def test_an_items_base_named_in_its_category_line_is_its_variant(tmp_path, fake_svo, newline, names):
    books = tmp_path / "books"
    books.mkdir()
    for name, text in zip(names, (WEAPONS, ITEMS)):
        (books / name).write_bytes(text.replace("\n", newline).encode("utf-8"))
    job = make_job(tmp_path / "index")
    ingest_paths(job, [books])
    found = {(e["source"], e["relation_type"], e["target"]) for e in index_edges(job.db)}
    assert {("Scimitar of Haste", "variant_of", "Scimitar"), ("Trident of the Deep", "variant_of", "Trident")} <= found
    assert not {e for e in found if e[0] == "Blade of Many Edges"}


def test_a_base_no_book_defines_makes_no_edge(tmp_path, fake_svo):
    job = make_job(tmp_path / "index")
    ingest_paths(job, [write(tmp_path / "items.md", ITEMS)])
    assert not [e for e in index_edges(job.db) if e["relation_type"] == "variant_of"]


@pytest.mark.parametrize("line", ["*Large fiend (devil), lawful evil*", "*1st-level evocation (ritual)*",
                                  "*Armor (medium or heavy)*", "*Weapon (any axe), rare*"])
def test_only_an_items_one_plain_base_is_named(line):
    entry = PatternEntity("Horned Thing", ("Horned Thing",), "item", "heading")
    assert pattern_relations(f"### Horned Thing\n\n{line}\n\nIt is old.\n", [entry]) == []


SPELLS = """# Spells of the Marches

## Spells

### Shield

*Level 1 Abjuration (Wizard)*

A barrier of force springs up.

### Frost Lance

*Level 2 Evocation (Wizard)*

A lance of ice flies.
"""

ARMORY = """# Armory of the Marches

## Armor

### Shield

A shield is carried in one hand. Wielding a shield increases your Armor Class by 2.

### Buckler

A buckler is a small shield.

## Magic Items

### Warded Shield

*Armor (shield), rare*

It hums when arrows fly.
"""


def test_a_named_base_is_of_its_items_kind_not_the_spell_of_that_name(tmp_path, fake_svo):
    books = tmp_path / "books"
    books.mkdir()
    write(books / "a-spells.md", SPELLS)
    write(books / "b-armory.md", ARMORY)
    job = make_job(tmp_path / "index")
    ingest_paths(job, [books])
    rows = job.db.execute(
        "SELECT s.name, t.name, t.entity_type FROM entity_relationships r JOIN entities s ON s.id = r.source_id"
        " JOIN entities t ON t.id = r.target_id WHERE r.relation_type = 'variant_of'").fetchall()
    assert [tuple(r)[:2] for r in rows] == [("Warded Shield", "Shield")] and rows[0][2] != "spell"
