"""Retrieval follows what a section's own entry states a relationship with: a creature's
whole list of spells and the conditions its actions impose, an item's property named after
the spell it casts. The reached definitions then compete on their own similarity to the
question, which describes the spell and never names it."""

from __future__ import annotations

import pytest

from crossbook.query import retrieve as rules
from crossbook.query import search
from tests.helpers import opened_shelf, rebuild_books

SPELLS = ["Veil of Mist", "Ghost Hand", "Jade Mirror", "Amber Ward", "Bone Lantern", "Cinder Step",
          "Dusk Chorus", "Ember Tithe", "Frost Psalm", "Gale Needle", "Hollow Bell", "Iron Vow"]
BESTIARY = """# Bestiary

## Monsters A–Z

### Gloom Hydra

*Huge Monstrosity, Unaligned*

- **Armor Class:** 15
- **Hit Points:** 172 (15d12 + 75)

**Actions**

***Bite.*** *Melee Attack Roll:* +8, reach 10 ft. 10 (1d10 + 5) Piercing damage.

***Spellcasting.*** The hydra casts one of the following spells, requiring no Material components
and using Wisdom as the spellcasting ability (spell save DC 14):

- **At Will:** {at_will}
- **1/Day Each:** {daily}
"""
ITEMS = """# Treasures

## Magic Items

### Rod of Fetters

*Rod, Rare (Requires Attunement by a Spellcaster)*

This rod has 7 charges.

***Bind the Beast.*** You can expend 5 charges to cast *Bind the Beast* from it.
"""


def spells_book() -> str:
    lines = ["# Grimoire\n\n## Spell Descriptions\n"]
    for name in [*SPELLS, "Bind the Beast"]:
        lines.append(f"\n### {name}\n\n*Level 2 Enchantment (Bard, Druid)*\n\n"
                     f"The caster of {name} weaves a small working of the old school.\n")
    # the one the question describes
    lines.append("\n### Tidal Lung\n\n*Level 3 Transmutation (Druid)*\n\n"
                 "Up to ten willing creatures breathe underwater for a day; a reed is the material component.\n")
    return "".join(lines)


@pytest.fixture
def shelf(cli, tmp_path, index_dir):
    listed = [f"*{name}*" for name in [*SPELLS, "Tidal Lung"]]
    books = {
        "bestiary.md": BESTIARY.format(at_will=", ".join(listed[:6]), daily=", ".join(listed[6:])),
        "grimoire.md": spells_book(),
        "treasures.md": ITEMS,
    }
    rebuild_books(cli, tmp_path, books)
    yield from opened_shelf(index_dir)


def _chunk(db, heading: str) -> str:
    return db.execute("SELECT id FROM chunks WHERE kind = 'parent' AND heading_path LIKE ?",
                      [f"%> {heading}"]).fetchone()[0]


def _followed(seed, name: str, weight: float, stated: bool) -> rules.Followed:
    return rules.Followed(entity_id=hash(name), name=name, entity_type="spell", weight=weight, seed=seed,
                          stated=stated)


def test_a_stated_entity_weighs_at_least_as_much_as_its_seeds_other_entities():
    a = search.Passage("a", "Bestiary", "Bestiary > Hydra", 0.5, 0.5, 0.5, 1, "a1", "")
    b = search.Passage("b", "Other", "Other > Topic", 0.5, 0.5, 0.5, 1, "b1", "")
    weighted = rules.lift_stated([_followed(a, "Best", 0.9, False), _followed(a, "Listed", 0.1, True),
                                  _followed(b, "Elsewhere", 2.0, False), _followed(b, "Plain", 0.2, False)])
    weights = {f.name: f.weight for f in weighted}
    # raised to its own seed's best, not to another seed's
    assert weights == {"Best": 0.9, "Listed": 0.9, "Elsewhere": 2.0, "Plain": 0.2}
    assert [f.name for f in weighted][:2] == ["Elsewhere", "Best"]


def test_every_spell_of_a_creatures_list_is_followed(shelf):
    db, vectors = shelf
    hydra = _chunk(db, "Gloom Hydra")
    result = rules.retrieve(vectors, db, "What material component does the gloom hydra's underwater breathing"
                            " spell need?", k=10)
    from_hydra = {f["entity"] for f in result["followed"] if f["from_chunk"] == hydra}
    # thirteen spells: more than the weights alone follow from one seed (ENTITIES_PER_HOP + per seed)
    assert {*SPELLS, "Tidal Lung"} <= from_hydra
    reached = next(p for p in result["results"] if p.section.endswith("> Tidal Lung"))
    assert reached.via is not None and reached.via.from_chunk == hydra


def test_an_items_property_leads_to_the_spell_of_its_name(shelf):
    db, vectors = shelf
    rod = _chunk(db, "Rod of Fetters")
    stated = [m for m in rules.graph.stated_mentions(db, [rod]) if m.name == "Bind the Beast"]
    spell = db.execute("SELECT e.id FROM entities e JOIN entity_mentions m ON m.entity_id = e.id"
                       " JOIN chunks c ON c.id = m.chunk_id WHERE e.name = 'Bind the Beast'"
                       " AND m.mention_type = 'defines' AND c.book = 'Grimoire'").fetchone()[0]
    assert spell in {m.entity_id for m in stated}


def test_an_edge_to_an_untyped_end_is_no_list_of_uses(shelf):
    db, _ = shelf
    hydra = _chunk(db, "Gloom Hydra")
    assert "Iron Vow" in {m.name for m in rules.graph.stated_mentions(db, [hydra])}
    # the same edge, had the books not said what Iron Vow is: a sentence's guess, not followed
    with db.conn:
        db.execute("UPDATE entities SET entity_type = 'other' WHERE name = 'Iron Vow'")
    assert "Iron Vow" not in {m.name for m in rules.graph.stated_mentions(db, [hydra])}


def test_what_a_followed_entity_leads_to_is_followed_at_a_share_of_its_weight(shelf):
    # a seed of another book mentions the rod: the spell the rod casts is followed from that seed
    db, _ = shelf
    rod = db.execute("SELECT id FROM entities WHERE name = 'Rod of Fetters'").fetchone()[0]
    seed = search.Passage("x", "Chronicle", "Chronicle > Vault", 0.5, 0.5, 0.5, 1, "x1", "")
    followed = rules.Followed(entity_id=rod, name="Rod of Fetters", entity_type="item", weight=1.0, seed=seed)
    led = rules.with_led(db, [followed], ["casts"])
    assert {f.name: f.weight for f in led} == {"Rod of Fetters": 1.0, "Bind the Beast": rules.LED_SHARE}
    assert all(f.seed is seed for f in led)
    # a relation type the ontology does not mark as leading is not followed
    assert [f.name for f in rules.with_led(db, [followed], ["inflicts"])] == ["Rod of Fetters"]


def test_the_rulebook_ontology_leads_from_an_entry_to_what_it_casts_wields_and_summons():
    from crossbook.relations.ontology import load_ontology

    assert load_ontology(("rulebook",)).leading_types() == ["casts", "summons", "wields"]
