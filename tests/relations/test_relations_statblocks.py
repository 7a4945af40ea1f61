"""Stat blocks, spell lists and entry kinds on a shelf nobody wrote a pack for: the issue's
exact form (tests/fixtures/statblocks/gloom_hydra.md) gives every stated edge and type with
the default pack, and each rule that makes it so has its own case below."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.common.scoring import index_edges
from crossbook.ingest.pipeline import ingest_paths
from crossbook.relations.pattern_context import PatternEntity
from crossbook.relations.patterns import pattern_relations
from tests.conftest import make_job

FIXTURE = Path(__file__).parent.parent / "fixtures" / "statblocks" / "gloom_hydra.md"

EXPECTED_EDGES = {
    ("Gloom Hydra", "inflicts", "Snared"),
    ("Gloom Hydra", "inflicts", "Sickened"),
    ("Gloom Hydra", "casts", "Veil of Mist"),
    ("Gloom Hydra", "casts", "Ghost Hand"),
    ("Gloom Hydra", "casts", "Still the Foe"),
    ("Still the Foe", "inflicts", "Rooted"),
    ("Rod of Fetters", "casts", "Bind the Beast"),
    ("Wild Tongue", "casts", "Beast Speech"),
}
EXPECTED_TYPES = {
    "Snared": "condition", "Sickened": "condition", "Rooted": "condition",
    "Still the Foe": "spell", "Veil of Mist": "spell", "Ghost Hand": "spell", "Bind the Beast": "spell",
    "Beast Speech": "spell", "Gloom Hydra": "creature", "Rod of Fetters": "item",
}


@pytest.fixture(scope="module")
def gloom_index(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gloom")
    job = make_job(tmp / "index")
    ingest_paths(job, [FIXTURE])
    edges = {(e["source"], e["relation_type"], e["target"]) for e in index_edges(job.db)}
    types = dict(job.db.execute("SELECT name, entity_type FROM entities").fetchall())
    return edges, types


def test_the_issue_form_gives_every_stated_edge(gloom_index):
    edges, _ = gloom_index
    assert EXPECTED_EDGES <= edges
    # the spell's category line lists who has it: no "variant_of Druid"
    assert not any(kind == "variant_of" for _, kind, _ in edges)


def test_the_issue_form_types_every_entry_without_a_pack(gloom_index):
    _, types = gloom_index
    assert {name: types.get(name) for name in EXPECTED_TYPES} == EXPECTED_TYPES


def test_a_stat_blocks_fields_define_nothing(gloom_index):
    _, types = gloom_index
    assert not {"Armor Class", "Hit Points", "Speed", "Senses", "Cr", "Str", "Dex", "At Will", "Actions"} & set(types)
    assert types.get("Bite") == "feature"  # an action of the creature: a part of it


def _edges(text: str, entities: list[PatternEntity]) -> set[tuple[str, str, str]]:
    return {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(text, entities)}


HYDRA = PatternEntity("Gloom Hydra", ("Gloom Hydra",), "creature", "heading")
MIST = PatternEntity("Veil of Mist", ("Veil of Mist",), "spell")
FOE = PatternEntity("Still the Foe", ("Still the Foe",), "spell")


def test_casts_the_following_spells_across_a_hard_wrapped_line():
    text = ("### Gloom Hydra\n\n***Spellcasting.*** The hydra casts one of the following spells, requiring no Material\n"
            "components (spell save DC 14):\n\n- **At Will:** *Veil of Mist*\n- **1/Day Each:** *Still the Foe*\n")
    assert _edges(text, [HYDRA, MIST, FOE]) == {("Gloom Hydra", "casts", "Veil of Mist"),
                                                ("Gloom Hydra", "casts", "Still the Foe")}


ROD = PatternEntity("Rod of Fetters", ("Rod of Fetters",), "item", "heading")
BIND = PatternEntity("Bind the Beast", ("Bind the Beast",), "spell")
ROD_TEXT = ("#### Rod of Fetters\n\n*Rod, Rare*\n\nWhile holding it, you can expend 5 charges to cast *Bind the Beast* "
            "from it.\n")


def test_an_item_that_casts_a_spell_from_it():
    assert _edges(ROD_TEXT, [ROD, BIND]) == {("Rod of Fetters", "casts", "Bind the Beast")}


def test_a_plural_name_is_an_entry_when_the_book_gives_its_kind():
    untyped = PatternEntity("Rod of Fetters", ("Rod of Fetters",), "other", "heading")
    assert _edges(ROD_TEXT, [untyped, BIND]) == set()  # a plural heading alone is a topic


def test_a_feature_that_keeps_a_spell_prepared():
    tongue = PatternEntity("Wild Tongue", ("Wild Tongue",), "feature", "heading")
    speech = PatternEntity("Beast Speech", ("Beast Speech",), "spell")
    text = "#### Wild Tongue\n\n***Wild Tongue.*** You always have the *Beast Speech* spell prepared.\n"
    assert _edges(text, [tongue, speech]) == {("Wild Tongue", "casts", "Beast Speech")}
    denied = "#### Wild Tongue\n\nYou can't cast *Beast Speech* from it.\n"
    assert _edges(denied, [tongue, speech]) == set()


def test_a_creature_that_only_targets_a_condition_is_no_edge():
    snared = PatternEntity("Snared", ("Snared",), "condition", "heading", "Rules Definitions")
    text = ("### Gloom Hydra\n\n***Crush.*** The hydra deals 10 damage to a creature that has the Snared condition.\n")
    assert _edges(text, [HYDRA, snared]) == set()


LURKER = PatternEntity("Fen Lurker", ("Fen Lurker",), "creature", "heading")
BITE = PatternEntity("Fen Lurker › Bite", ("Bite",), "feature", "glossary")
CREATURE = PatternEntity("Creature", ("creature",), "feature", "glossary")  # a common noun the shelf defines
TARGET = PatternEntity("Targets", ("target",), "other")
STATES = [PatternEntity(c, (c.lower(),), "condition", None, "Conditions")
          for c in ("Grappled", "Restrained", "Blinded", "Charmed", "Frightened", "Incapacitated")]


def _lurker(action: str) -> set[tuple[str, str, str]]:
    text = f"#### Fen Lurker\n\n**Actions**\n\n***Bite.** Melee Weapon Attack:* +5 to hit. {action}\n"
    return {edge for edge in _edges(text, [LURKER, BITE, CREATURE, TARGET, *STATES]) if edge[0] == "Fen Lurker"}


@pytest.mark.parametrize("action, conditions", [
    # the if-clause's nouns are no subject of the main clause
    ("If the target is a Large or smaller creature, it is grappled (escape DC 13).", {"Grappled"}),
    # a common noun before the state is who suffers it
    ("The target must succeed on a DC 14 Wisdom saving throw or be magically charmed by the lurker.", {"Charmed"}),
    # "ends" in an if-clause cures nothing; a list of states after it
    ("Until this grapple ends, the target is restrained, blinded, and at risk of suffocating.", {"Restrained", "Blinded"}),
    # a relative clause's negation describes who is meant
    ("Each creature that isn’t an undead must succeed on a saving throw or become frightened.", {"Frightened"}),
])
def test_an_action_imposes_its_condition_from_the_creature(action, conditions):
    assert _lurker(action) == {("Fen Lurker", "inflicts", c) for c in conditions}


def test_a_list_of_abilities_rolled_is_no_agent_of_the_state():
    # "a Strength or Dexterity saving throw": both names are what is rolled, so the state is
    # still the creature's doing, as with one ability
    abilities = [PatternEntity(a, (a,), "other", "glossary") for a in ("Strength", "Dexterity")]
    text = ("#### Fen Lurker\n\n***Leap.*** Each creature in the space must succeed on a DC 16 Strength or"
            " Dexterity saving throw or be knocked grappled.\n")
    assert ("Fen Lurker", "inflicts", "Grappled") in _edges(text, [LURKER, CREATURE, TARGET, *abilities, *STATES])


@pytest.mark.parametrize("action", [
    "The lurker is incapacitated while in the area of an antimagic field.",  # its own state
    "The lurker can’t be frightened while it can see an ally.",  # a negation with a curly apostrophe
])
def test_the_creatures_own_state_is_no_edge(action):
    assert _lurker(action) == set()


BEAST = PatternEntity("Beasts", ("Beast",), "other", "heading")


def test_a_name_in_the_if_clause_is_no_agent_of_the_main_clause():
    assert _lurker("If the target is a Beast, it is grappled (escape DC 13).") == {("Fen Lurker", "inflicts", "Grappled")}
    text = "#### Fen Lurker\n\n***Bite.*** If the target is a Beast, it is grappled.\n"
    assert ("Fen Lurker", "inflicts", "Grappled") in _edges(text, [LURKER, BITE, BEAST, *STATES])


@pytest.mark.parametrize("action", [
    "Each creature within 30 feet can’t be frightened while it can see an ally.",  # a typographic contraction
    "Magic can neither reduce its speed nor cause it to be grappled or restrained.",
])
def test_a_denied_state_is_no_edge(action):
    assert _lurker(action) == set()


def test_a_sub_entrys_own_state_is_no_edge():
    armor = PatternEntity("Animated Armor › Antimagic Susceptibility", ("Antimagic Susceptibility",), "feature", "glossary")
    text = "***Antimagic Susceptibility.*** The armor is incapacitated while in the area of an antimagic field.\n"
    assert _edges(text, [armor, *STATES]) == set()


def test_a_field_label_is_no_verb_and_object():
    time = PatternEntity("Time", ("Time",), "other", "heading")
    text = "#### Still the Foe\n\n*Level 2 Enchantment (Bard)*\n\n**Casting Time:** 1 action\n"
    assert _edges(text, [PatternEntity("Still the Foe", ("Still the Foe",), "spell", "heading"), time]) == set()


def test_the_word_after_a_closing_emphasis_is_no_name():
    helm = PatternEntity("Helm of Tongues", ("Helm of Tongues",), "item", "heading")
    spells = PatternEntity("Spells", ("spell",), "other", "heading")
    tongues = PatternEntity("Comprehend Languages", ("comprehend languages",), "spell")
    text = ("#### Helm of Tongues\n\n*Wondrous item, uncommon*\n\nWhile wearing this helm, you can use an action to "
            "cast the *comprehend languages* spell from it at will.\n")
    assert _edges(text, [helm, spells, tongues]) == {("Helm of Tongues", "casts", "Comprehend Languages")}


def test_a_verb_without_an_object_counters_nothing():
    ball = PatternEntity("Crystal Orb", ("Crystal Orb",), "item", "heading")
    scrying = PatternEntity("Scrying", ("scrying",), "spell")
    text = "#### Crystal Orb\n\n*Wondrous item, rare*\n\nThe effect lasts, but it ends if *scrying* ends.\n"
    assert _edges(text, [ball, scrying]) == set()


def test_a_word_of_a_name_is_no_verb():
    orb = PatternEntity("Orb of Dragons", ("Orb of Dragons",), "item", "heading")
    spells = [PatternEntity(n, (n.lower(),), "spell") for n in ("Cure Wounds", "Daylight")]
    text = ("#### Orb of Dragons\n\n*Wondrous item, artifact*\n\nYou can cast one of the following spells from it: "
            "*cure wounds* (3 charges), *daylight* (1 charge).\n")
    assert _edges(text, [orb, *spells]) == {("Orb of Dragons", "casts", "Cure Wounds"), ("Orb of Dragons", "casts", "Daylight")}


def test_a_creatures_spellcasting_lead_the_index_does_not_hold_speaks_for_it():
    deva = PatternEntity("Deva", ("Deva",), "creature", "heading")
    bolt = PatternEntity("Deva › Mace", ("Mace",), "feature", "glossary")
    spells = [PatternEntity(n, (n.lower(),), "spell") for n in ("Detect Magic", "Commune")]
    text = ("#### Deva\n\n***Innate Spellcasting.*** The deva can innately cast the following spells, requiring only "
            "verbal components:\n\nAt will: *detect magic*\n1/day each: *commune*\n\n***Mace.*** The deva hits.\n")
    assert _edges(text, [deva, bolt, *spells]) == {("Deva", "casts", "Detect Magic"), ("Deva", "casts", "Commune")}
    untyped = PatternEntity("Deva", ("Deva",), "other", "heading")
    assert _edges(text, [untyped, bolt, *spells]) == set()  # a topic's unknown lead speaks for nobody


def test_the_issue_form_as_two_books_gives_the_same_edges_and_types(tmp_path):
    """As the held-out shelf files it: the spells, rules and items in one book, the creatures in
    another. 'Still the Foe' opens with a word prose headings open with ('Still'): its category
    line says it is an entry, though no other section of its own book names it."""
    text = FIXTURE.read_text(encoding="utf-8")
    cut = text.index("## Monsters")
    rules, bestiary = tmp_path / "rules.md", tmp_path / "bestiary.md"
    rules.write_text(text[:cut], encoding="utf-8")
    bestiary.write_text("# The Gloomfen Bestiary\n\n" + text[cut:], encoding="utf-8")
    job = make_job(tmp_path / "index")
    ingest_paths(job, [rules, bestiary])
    edges = {(e["source"], e["relation_type"], e["target"]) for e in index_edges(job.db)}
    types = dict(job.db.execute("SELECT name, entity_type FROM entities").fetchall())
    assert EXPECTED_EDGES <= edges
    assert {name: types.get(name) for name in EXPECTED_TYPES} == EXPECTED_TYPES
