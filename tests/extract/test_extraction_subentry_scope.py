"""A lead a book defines under two or more different entries ("Bite" under the Cave
Bear and under the Hill Wolf) is each entry's own sub-entry, stored scoped to its owner
("Cave Bear › Bite"), and `where-else Bite` lists those owners.

The fixture marked "Ironsworn" is an excerpt of the Ironsworn SRD by Shawn Tomkin (CC BY 4.0,
corpora/ironsworn/README.md).
"""

from __future__ import annotations

from crossbook.chunk.chunking import parent_chunks, split_sections
from crossbook.core.models import RawMention
from crossbook.core.packs import load_pack
from crossbook.extract.rules import book_mentions
from crossbook.extract.verify import ChunkText, verify_mentions
from tests.helpers import write

GENERIC = load_pack("generic")

BESTIARY = """# Bestiary

## Creatures

### Cave Bear

A Cave Bear is a beast of the hills.

**Bite.** Hit: 4 damage.

**Crushing Hug.** The bear grapples its prey.

### Hill Wolf

A Hill Wolf hunts in packs.

**Bite.** Hit: 2 damage, and the target is knocked prone.

### Marsh Boar

A Marsh Boar roots in the reeds.

**Gore.** Hit: 3 damage.
"""


def defined(text: str, book: str = "Bestiary") -> set[str]:
    parents = parent_chunks(book, split_sections(text))
    return {m.name for found in book_mentions(parents, GENERIC, book) for m in found if m.mention_type == "defines"}


def test_a_lead_defined_under_two_entries_is_scoped_to_each():
    found = defined(BESTIARY)
    assert {"Cave Bear › Bite", "Hill Wolf › Bite"} <= found
    assert "Bite" not in found
    # a lead only one entry has keeps its own name; the entries themselves are untouched
    assert {"Crushing Hug", "Gore", "Cave Bear", "Hill Wolf", "Marsh Boar"} <= found


def test_a_lead_also_defined_outside_any_entry_is_not_scoped():
    # a glossary section that is no entry of its own defines Bite for the whole book
    text = BESTIARY + "\n## Glossary of Attacks\n\nSee below.\n\n**Bite.** An attack with the teeth.\n"
    found = defined(text)
    assert not {name for name in found if "›" in name}


def test_options_of_two_moves_are_each_moves_own():
    # after Ironsworn: two moves both offer "Recuperate"
    text = ("# Ironsworn\n\n## Moves\n\n### Heal\n\nWhen you treat an injury, roll +iron.\n\n"
            "### Respite\n\nWhen you rest and recover, roll +supply.\n\n"
            "- Recuperate: Take +1 health for you and any companions.\n- Partake: Suffer -1 supply.\n"
            "- Relax: Take +1 spirit.\n\n"
            "### Sojourn\n\nWhen you spend time in a community, roll +heart.\n\n"
            "- Mend: Clear a wounded debility and take +1 health.\n- Recuperate: Take +2 health.\n"
            "- Provision: Take +2 supply.\n")
    found = defined(text)
    assert {"Respite › Recuperate", "Sojourn › Recuperate", "Partake", "Provision"} <= found
    assert "Recuperate" not in found


def test_a_scoped_name_is_grounded_by_its_own_name():
    chunk = ChunkText("**Bite.** Hit: 4 damage.")
    mention = RawMention(name="Cave Bear › Bite", entity_type="other", mention_type="defines",
                         context="**Bite.** Hit: 4 damage.", source="glossary")
    assert [m.name for m in verify_mentions([mention], chunk, ("other",)).mentions] == ["Cave Bear › Bite"]
    missing = RawMention(name="Cave Bear › Claw", entity_type="other", mention_type="defines",
                         context="**Bite.** Hit: 4 damage.", source="glossary")
    assert not verify_mentions([missing], chunk, ("other",)).mentions


def test_where_else_lists_the_owners_of_a_sub_entry(tmp_path, cli, cli_json):
    book = write(tmp_path / "bestiary.md", BESTIARY)
    cli_json("ingest", book, "--relations", "off")
    result = cli_json("where-else", "bite")
    assert result["matched_by"] == "sub-entry"
    assert [e["owner"] for e in result["sub_entries"]] == ["Cave Bear", "Hill Wolf"]
    assert {e["name"] for e in result["entities"]} == {"Cave Bear › Bite", "Hill Wolf › Bite"}
    shown = cli("where-else", "Bite")
    assert shown.exit_code == 0, shown.stderr
    assert "sub-entry of 2 different entries (Cave Bear, Hill Wolf)" in shown.stdout
    # the scoped entry itself is found by its full name, and a name with no sub-entry has no note
    assert cli_json("where-else", "Cave Bear › Bite")["entities"][0]["name"] == "Cave Bear › Bite"
    assert "sub_entries" not in cli_json("where-else", "Gore")


CLASSES = "# Heroes\n\n## Classes\n\nPick one.\n\n" + "".join(
    f"### {name}\n\nA {name} is a class of the realm.\n\n#### Spells Known\n\n"
    f"| Spell | Level |\n|---|---|\n| Frost Lance | 1 |\n| {spell} | 2 |\n\n"
    for name, spell in (("Wizard", "Ember Ward"), ("Sorcerer", "Mist Step"), ("Warlock", "Hex Bolt")))


def test_a_table_in_an_entrys_label_section_lists_that_entrys_things():
    # a class's spell list, repeated under every class: its rows name spells, they define
    # none of them (neither shelf-wide nor as "Wizard › Ember Ward"; its rows are
    # references); the spells' own catalog defines them
    found = defined(CLASSES, book="Heroes")
    assert {"Wizard", "Sorcerer", "Warlock"} <= found
    assert not [name for name in found if "Ember Ward" in name or "Mist Step" in name or "Frost Lance" in name]
    # a catalog table (its section is no label) still defines its rows
    catalog = "# Gear\n\n## Equipment\n\n| Item | Cost |\n|---|---|\n| Rope | 1 sp |\n| Lantern | 5 sp |\n"
    assert {"Rope", "Lantern"} <= defined(catalog, book="Gear")


def test_a_spell_list_row_references_the_spell_another_book_defines(tmp_path, cli_json):
    spells = write(tmp_path / "spells.md", "# Grimoire\n\n## Spells\n\n### Ember Ward\n\nA ward of embers.\n\n"
                   "### Mist Step\n\nA step through mist.\n\n### Hex Bolt\n\nA bolt of hexes.\n")
    heroes = write(tmp_path / "heroes.md", CLASSES)
    cli_json("ingest", spells, heroes, "--relations", "off")
    result = cli_json("where-else", "Ember Ward")
    places = {(m["book"], m["mention_type"]) for e in result["entities"] for b in e["books"] for m in b["mentions"]}
    assert ("Grimoire", "defines") in places and ("Heroes", "references") in places
    assert ("Heroes", "defines") not in places


STAT_BLOCKS = "# Bestiary\n\n## Creatures\n\n" + "".join(
    f"### {name}\n\nA {name} of the hills.\n\n**Wounds** 12 **Pace** 6\n\n**Actions**\n\n"
    f"**Bite.** The {name.lower()} bites one target.\n\n**{own}.** {text}\n\n**Gear** A hide.\n\n"
    for name, own, text in [("Cave Bear", "Crushing Hug", "The bear grapples its prey."),
                            ("Hill Wolf", "Howl", "Every creature that hears it is frightened."),
                            ("Marsh Boar", "Gore", "The boar gores one target."),
                            ("Ash Hound", "Ember Breath", "The hound breathes embers.")])


def test_an_action_in_many_entries_is_scoped_and_their_labels_define_nothing():
    found = defined(STAT_BLOCKS)
    # "**Bite.**" with its sentence in four creatures: each creature's own action
    assert {"Cave Bear › Bite", "Hill Wolf › Bite", "Marsh Boar › Bite", "Ash Hound › Bite"} <= found
    assert {"Crushing Hug", "Howl", "Gore", "Ember Breath"} <= found
    # the stat block's labels, repeated in every entry, are structure: neither scoped nor plain
    assert not {n for n in found if n.rpartition(" › ")[2] in ("Wounds", "Pace", "Actions", "Gear")}
    assert "Bite" not in found


def test_a_stat_line_closed_by_a_period_is_no_action():
    text = STAT_BLOCKS.replace("**Wounds** 12 **Pace** 6", "**Speed.** 30 ft.\n\n**Senses.** darkvision 60 ft.")
    found = defined(text)
    assert not {n for n in found if n.rpartition(" › ")[2] in ("Speed", "Senses")}
    assert "Cave Bear › Bite" in found


GRIMOIRE = ("# Grimoire\n\n## Spells\n\n### Ember Ward\n\nA ward of embers.\n\n"
            "### Mist Step\n\nA step through mist.\n")
ONE_CLASS = ("# Heroes\n\n## Classes\n\n### Wizard\n\nA Wizard is a class of the realm.\n\n"
             "| Spell | Level |\n|---|---|\n| Ember Ward | 1 |\n| Mist Step | 2 |\n| Hex Bolt | 3 |\n")


def places(cli_json, name: str) -> set[tuple[str, str]]:
    result = cli_json("where-else", name)
    return {(m["book"], m["mention_type"]) for e in result["entities"] for b in e["books"] for m in b["mentions"]}


def test_a_table_row_another_book_defines_is_a_reference_until_that_book_goes(tmp_path, cli_json):
    # one class's spell table (no label section, no row under two entries): its rows define
    # what no other book defines ("Hex Bolt"), and reference what the Grimoire defines
    heroes = write(tmp_path / "heroes.md", ONE_CLASS)
    cli_json("ingest", heroes, "--relations", "off")
    assert places(cli_json, "Ember Ward") == {("Heroes", "defines")}
    grimoire = write(tmp_path / "grimoire.md", GRIMOIRE)
    cli_json("ingest", grimoire, "--relations", "off")
    assert places(cli_json, "Ember Ward") == {("Grimoire", "defines"), ("Heroes", "references")}
    assert places(cli_json, "Hex Bolt") == {("Heroes", "defines")}
    # derived state: the row defines again when the book that defined its name is deleted
    cli_json("delete-book", "Grimoire")
    assert places(cli_json, "Ember Ward") == {("Heroes", "defines")}


def test_rows_of_two_catalogs_both_define(tmp_path, cli_json):
    for title in ("Gear", "Kit"):
        write(tmp_path / f"{title}.md", f"# {title}\n\n## Equipment\n\n| Item | Cost |\n|---|---|\n| Rope | 1 sp |\n| Lantern | 5 sp |\n")
    cli_json("ingest", tmp_path / "Gear.md", tmp_path / "Kit.md", "--relations", "off")
    assert places(cli_json, "Rope") == {("Gear", "defines"), ("Kit", "defines")}


def test_a_heading_that_adds_a_singular_to_its_parents_name_is_an_entry():
    # a bestiary's family: "Centaur Lancer" under "Centaur" is a kind of centaur, an entry;
    # "Athletics Stunts" under "Athletics" (a plural added) is the parent's list, a label
    text = ("# Bestiary\n\n## Monsters\n\n### Centaur\n\nCentaurs roam the plains.\n\n"
            "#### Centaur Lancer\n\nA centaur with a lance charges.\n\n"
            "#### Centaur Raider\n\nA centaur raider strikes from afar.\n\n"
            "#### Centaur Chieftain\n\nThe chieftain leads the herd.\n\n"
            "### Azer\n\nFire dwarves.\n\n#### Fire Bat\n\nA bat of flame.\n\n"
            "#### Azer Soldier\n\nThe azer soldier guards the forge.\n\n"
            "#### Azer Forgemaster\n\nThe forgemaster commands the soldiers.\n\n"
            "## Skills\n\n### Athletics\n\nRun and jump.\n\n#### Athletics Stunts\n\nThese stunts help.\n\n"
            "### Fight\n\nHit things.\n\n### Notice\n\nSee things.\n")
    found = defined(text)
    assert {"Centaur Lancer", "Centaur Raider", "Centaur Chieftain", "Azer Soldier", "Azer Forgemaster", "Fire Bat"} <= found
    assert "Athletics Stunts" not in found and "Athletics" in found
