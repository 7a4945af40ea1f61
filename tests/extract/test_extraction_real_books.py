"""The offline extractor on real-world rulebook shapes (one test per failure class).

Fixtures marked "Fate SRD" are short excerpts of the Fate SRDs (corpora/fate, Evil Hat
Productions, CC BY 3.0; see that folder's README for the full attribution).
"""

from __future__ import annotations

import pytest

from crossbook.chunk.chunking import parent_chunks, split_sections
from crossbook.core.normalize import normalize_name
from crossbook.core.packs import load_pack
from crossbook.extract.glossary import glossary_terms, table_terms
from crossbook.extract.headings import display_case, heading_name, is_topical
from crossbook.extract.rules import book_mentions
from crossbook.linking.linker import Linker, LinkTarget
from crossbook.linking.matchview import match_view
from crossbook.relations.pattern_context import PatternEntity
from crossbook.relations.patterns import pattern_relations

GENERIC = load_pack("generic")


def defined(text: str, book: str = "Book") -> list[tuple[str, str]]:
    parents = parent_chunks(book, split_sections(text))
    return [(m.name, m.source) for found in book_mentions(parents, GENERIC, book) for m in found]


# -- 1. from heading to entity name ------------------------------------------------------------

@pytest.mark.parametrize("heading, name, aliases", [
    ("Frost Lance (Level 2 Evocation)", "Frost Lance", ()),
    ("Hearthglow [Condition]", "Hearthglow", ()),
    ("Rations (5 SP)", "Rations", ()),
    ("Level 6: Ember Ward", "Ember Ward", ()),
    ("5: Choose a Path", "Choose a Path", ()),
    ("Chapter 3 - Magic", "Magic", ()),
    ("Cloak of the Vale (Mistcloak)", "Cloak of the Vale", ("Mistcloak",)),
    ("Frostbite/Chilblains", "Frostbite/Chilblains", ("Frostbite", "Chilblains")),  # one name, its parts candidates
    ("THE BRONZE RULE, AKA THE FATE FRACTAL", "The Bronze Rule", ("The Fate Fractal",)),  # Fate SRD
    ("THE SKILL CAP", "The Skill Cap", ()),
    ("*Fireball*", "Fireball", ()),
    ("<em>Fate Core</em> Skills", "Fate Core Skills", ()),
])
def test_heading_names_drop_qualifiers_and_keep_aliases(heading, name, aliases):
    named = heading_name(heading)
    assert (named.name, named.aliases) == (name, aliases)


def test_all_caps_is_title_case_and_plurals_and_possessives_fold():
    assert display_case("ASPECTS AND FATE POINTS") == "Aspects and Fate Points"
    assert normalize_name("Fate Points") == normalize_name("fate point")
    assert normalize_name("Aspects") == "aspect"
    assert normalize_name("The Wyrm’s Breath") == normalize_name("wyrm breath")


# -- 2. which headings define -------------------------------------------------------------------

@pytest.mark.parametrize("heading", [
    "Surviving a Fall", "Choosing a Path", "Parts of a Talent", "As a First-Level Hero",
    "What Do I Need to Play?", "Make Characters", "Your Character Idea", "Building Stunts",
])
def test_prose_headings_are_topical(heading):
    assert is_topical(heading_name(heading).name)


@pytest.mark.parametrize("heading", ["Burning", "Climbing Kit", "Frost Lance", "Fate Points", "The Ladder"])
def test_names_are_not_topical(heading):
    assert not is_topical(heading_name(heading).name)


CATALOG = """# Bestiary

## Monsters

Monsters of the land.

### Cloaker

A cloaker hides in the dark. It is a monster.

#### Tactics

It waits.

### Ghoul

A ghoul eats the dead.

#### Tactics

It swarms.

### Harpy (Level 3)

A harpy sings.

#### Tactics

It dives.

## Surviving a Fall

Falling hurts.
"""


def test_catalog_entries_define_and_categories_labels_and_prose_do_not():
    assert defined(CATALOG) == [("Cloaker", "heading"), ("Ghoul", "heading"), ("Harpy", "heading")]


def test_a_plural_concept_heading_defines_and_is_found_in_lowercase():
    # Fate SRD (Fate Core, "The Character Sheet"): plural headings define core concepts
    text = ("# Game\n\n## The Character Sheet\n\n### Aspects\n\nAspects are phrases that describe something.\n\n"
            "### Stunts\n\nStunts are special tricks.\n\n### Refresh\n\nRefresh is the number of fate points.\n\n"
            "## Play\n\nInvoke an aspect for a bonus. A stunt helps. Spend refresh.\n")
    names = [name for name, _ in defined(text)]
    assert names == ["Aspects", "Stunts", "Refresh"]


# -- 3. definitions that are not headings ------------------------------------------------------

def test_glossary_paragraphs_definition_lists_and_catalog_tables_define():
    text = ("**Grappled.** A grappled creature cannot move.\n\n***Prone.*** The creature lies down.\n\n"
            "<strong>Basic Effects</strong>: Equipment stunts work.\n\nFrostbite\n: Cold damage over time.\n\n"
            "**Note** that this is emphasis.\n")
    assert [t.name for t in glossary_terms(text)] == ["Grappled", "Prone", "Basic Effects", "Frostbite"]
    table = ("| Weapon | Cost | Damage |\n|---|---|---|\n| Longsword | 15 gp | 1d8 |\n| Dagger | 2 gp | 1d4 |\n"
             "| Halberd | 20 gp | 1d10 |\n\n| d6 | Result |\n|---|---|\n| 1 | Nothing |\n| 2 | Rain |\n")
    assert [t.name for t in table_terms(table)] == ["Longsword", "Dagger", "Halberd"]


def test_a_bold_lead_repeated_in_every_entry_is_a_label():
    entry = "### {name}\n\n{name} is a skill.\n\n**Overcome:** Use {name} to pass.\n\n**Attack:** No.\n\n"
    text = "# Skills\n\n" + "".join(entry.format(name=n) for n in ("Athletics", "Burglary", "Contacts"))
    assert [name for name, source in defined(text) if source == "glossary"] == []


# -- 4. the linker -------------------------------------------------------------------------------

def link(targets, text, terms=frozenset()):
    linker = Linker([LinkTarget((normalize_name(n), "other"), {n}, {"A"}) for n in targets], {}, terms)
    return [m.name for m in linker.link(text, "B", set())]


def test_linker_reads_through_line_breaks_markup_and_curly_quotes():
    assert link(["Fate Core"], "as in <em>Fate\nCore</em>, you") == ["Fate Core"]
    assert link(["Frost Lance"], "cast *Frost  Lance* now") == ["Frost Lance"]
    assert link(["Wyrm's Breath"], "the Wyrm’s Breath burns") == ["Wyrm's Breath"]
    view = match_view("a <em>b</em>\n  c")
    assert view.text == "a b c" and view.span(2, 3) == (6, 7)


def test_multi_word_names_link_in_lowercase_single_common_words_only_as_terms():
    assert link(["Fate Points"], "spend a fate point") == ["fate point"]
    assert link(["Fight"], "they fight the troll") == []
    assert link(["Fight"], "roll Fight") == ["Fight"]
    assert link(["Aspects"], "invoke an aspect", terms={"aspect"}) == ["aspect"]
    assert link(["Aspects"], "invoke an aspect") == []


# -- 5. relationships offline ----------------------------------------------------------------------

def test_the_entry_is_the_implicit_subject_of_its_actions():
    text = ("### Cloaker\n\n*Medium aberration*\n\n***Bite.*** Melee Weapon Attack: +6 to hit. Hit: 10 damage, "
            "and the target is grappled (escape DC 13).\n\n***Innate Spellcasting.*** It can cast the following "
            "spells:\n\n- Darkness\n- Mirror Image\n\nIt wields a Scimitar. If it is Frightened, it flees.\n")
    entities = [
        PatternEntity("Cloaker", ("Cloaker",), defines="heading"),
        PatternEntity("Grappled", ("grappled",), category="Conditions"),
        PatternEntity("Frightened", ("Frightened",), category="Conditions"),
        PatternEntity("Darkness", ("Darkness",)),
        PatternEntity("Mirror Image", ("Mirror Image",)),
        PatternEntity("Scimitar", ("Scimitar",)),
    ]
    found = {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(text, entities)}
    assert found == {("Cloaker", "inflicts", "Grappled"), ("Cloaker", "casts", "Darkness"),
                     ("Cloaker", "casts", "Mirror Image"), ("Cloaker", "wields", "Scimitar")}
    for relation in pattern_relations(text, entities):
        assert relation.evidence in text


def test_a_category_line_gives_variant_of_and_explicit_subjects_are_left_to_svo():
    text = "### Frost Brand\n\n*Weapon (Longsword), rare*\n\nThe Ashen Knight wields a Longsword.\n"
    entities = [PatternEntity("Frost Brand", ("Frost Brand",), defines="heading"),
                PatternEntity("Longsword", ("Longsword",)), PatternEntity("Ashen Knight", ("Ashen Knight",))]
    found = [(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(text, entities)]
    assert found == [("Frost Brand", "variant_of", "Longsword")]


# -- 7. pack suggest ------------------------------------------------------------------------------

def test_pack_suggest_reproduces_the_emberfall_types(cli, tmp_path):
    from crossbook.core.packs import load_pack, parse_pack
    from tests.conftest import SAMPLE

    result = cli("pack", "suggest", SAMPLE / "core_rules.md", SAMPLE / "grimoire.md", SAMPLE / "bestiary.md")
    assert result.exit_code == 0, result.stderr
    suggested = parse_pack(result.stdout, "suggested")
    emberfall = load_pack(str(SAMPLE / "emberfall.pack.toml"))
    # the hand-written pack's types, named as the rulebook kinds name them ("Equipment" -> item)
    assert {"item" if t == "equipment" else t for t in emberfall.type_names} <= set(suggested.type_names)
    assert suggested.type_for(("Emberfall Core Rules", "Equipment", "Ember Torch")) == "item"
    # each catalog heading gets a rule for its type, as the emberfall pack writes them
    assert suggested.type_for(("Emberfall Core Rules", "Conditions", "Chilled")) == "condition"
    assert suggested.type_for(("The Ashen Grimoire", "Spells", "Kindle")) == "spell"


def test_a_glossary_entry_is_the_subject_of_its_paragraph():
    # Fate SRD (Fate Core, "Provoke Stunts" and "Drive Stunts" shapes)
    text = ("###### Stunts\n* **Hard to Shake.** +2 to Drive whenever you chase.\n"
            "* **Armor of Fear.** You can use Provoke to defend against Fight attacks.\n"
            "* **Ear to the Ground.** Whenever a conflict starts, you use Contacts instead of Notice.\n"
            "* **Tough Luck.** You cannot use Fight here.\n")
    names = ["Hard to Shake", "Armor of Fear", "Ear to the Ground", "Tough Luck"]
    entities = [PatternEntity(n, (n,), defines="glossary") for n in names] + [
        PatternEntity(n, (n,)) for n in ("Drive", "Provoke", "Fight", "Contacts", "Notice")]
    found = {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(text, entities)}
    assert found == {("Hard to Shake", "modifies", "Drive"), ("Armor of Fear", "modifies", "Provoke"),
                     ("Armor of Fear", "counters", "Fight"), ("Ear to the Ground", "modifies", "Contacts")}


def test_a_copular_definition_gives_variant_of():
    text = "### Drawbacks\n\nDrawbacks are aspects, like a power's trouble.\n"
    entities = [PatternEntity("Drawbacks", ("Drawbacks",), defines="heading"), PatternEntity("Aspects", ("aspects",))]
    found = [(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(text, entities)]
    assert found == [("Drawbacks", "variant_of", "Aspects")]


def test_patterns_need_an_entry_subject_and_a_named_first_object():
    # a plural heading is a topic: its sentences are about the players, not about it
    topic = "### Chases\n\nYou can use Deceive to fake out your opponent.\n"
    entities = [PatternEntity("Chases", ("Chases",), defines="heading"), PatternEntity("Deceive", ("Deceive",))]
    assert pattern_relations(topic, entities) == []
    # "+2 to Fight if you can attack": Fight is the object; a later common noun is not
    entry = "### Wall Kick\n\nYou gain +2 to Fight if you can attack someone from a wall.\n"
    entities = [PatternEntity("Wall Kick", ("Wall Kick",), defines="heading"), PatternEntity("Fight", ("Fight",)),
                PatternEntity("Attack", ("attack",))]
    found = [(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(entry, entities)]
    assert found == [("Wall Kick", "modifies", "Fight")]
    # an emphasized lowercase name is a name (stat blocks write spells in italics)
    block = "### Lich\n\nIt can cast *fireball* at will.\n"
    entities = [PatternEntity("Lich", ("Lich",), defines="heading"), PatternEntity("Fireball", ("fireball",))]
    assert [(r.relation_type, r.target_name) for r in pattern_relations(block, entities)] == [("casts", "Fireball")]


def test_ingest_without_pack_keeps_the_index_pack_and_a_new_pack_is_announced(cli, corpus, tmp_path):
    # an ingest without --pack relinked an emberfall shelf with the generic pack
    pack = corpus / "emberfall.pack.toml"
    assert cli("ingest", corpus / "core_rules.md", corpus / "grimoire.md", "--pack", pack).exit_code == 0
    extra = tmp_path / "notes.md"
    extra.write_text("# Field Notes\n\n## Cold\n\nThe wyrm's Ice Lance hurt us; Chilled for hours.\n", encoding="utf-8")
    result = cli("ingest", extra)
    assert result.exit_code == 0 and "replaces the index's pack" not in result.stderr
    found = cli("where-else", "Ice Lance", "--json")
    assert found.exit_code == 0 and "Field Notes" in found.stdout  # the pack's alias still links
    other = cli("ingest", extra, "--pack", "generic", "--force")
    assert other.exit_code == 0 and "pack 'generic' replaces the index's pack 'emberfall'" in other.stderr
