"""Relationships as a rulebook of another edition states them (index/relations/stated.py and
edge_guards.py): a spell header's class list, a prerequisite line, whole names with "and",
"of" or "with", and the claims no book makes (variant_of a size, a label, an abbreviation or
a class; self-loops; a condition the subject has itself; an immunity read as a cure).
tests/fixtures/statblocks/mirefall_codex.md is a small book in those shapes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.common.scoring import index_edges
from crossbook.core.models import RawRelation
from crossbook.ingest.pipeline import ingest_paths
from crossbook.relations.edge_guards import abbreviation_of, guarded, own_condition
from crossbook.relations.patterns import PatternEntity
from crossbook.relations.stated import stated_relations, whole_names
from tests.conftest import make_job

FIXTURE = Path(__file__).parents[1] / "fixtures" / "statblocks" / "mirefall_codex.md"


def _edges(text: str, entities: list[PatternEntity], others=()) -> set[tuple[str, str, str]]:
    return {(r.source_name, r.relation_type, r.target_name) for r in stated_relations(text, entities, others)}


WIZARD = PatternEntity("Wizard", ("Wizard",), "other")
SORCERER = PatternEntity("Sorcerer", ("Sorcerer",), "other")
LASH = PatternEntity("Fire Lash", ("Fire Lash",), "spell", "heading")


@pytest.mark.parametrize("header, holders", [
    ("*Level 1 Evocation (Sorcerer, Wizard)*", {"Sorcerer", "Wizard"}),
    ("*Level 2 Abjuration (Wizard)*", {"Wizard"}),   # one class: still who has it, no variant
    ("*Evocation Cantrip (Sorcerer)*", {"Sorcerer"}),
])
def test_a_spell_headers_classes_each_cast_the_spell(header, holders):
    text = f"#### Fire Lash\n\n{header}\n\n**Casting Time:** Action\n\nA lash of fire strikes.\n"
    assert _edges(text, [LASH, WIZARD, SORCERER]) == {(h, "casts", "Fire Lash") for h in holders}


def test_a_lowercase_ritual_tag_in_the_header_casts_nothing():
    rituals = PatternEntity("Rituals", ("ritual",), "rule")
    text = "#### Fire Lash\n\n*1st-level evocation (ritual)*\n\nA lash of fire strikes.\n"
    assert _edges(text, [LASH, rituals]) == set()


def test_a_magic_weapons_category_line_stays_a_variant():
    blade = PatternEntity("Flame Tongue", ("Flame Tongue",), "item", "heading")
    longsword = PatternEntity("Longsword", ("longsword",), "item")
    text = "#### Flame Tongue\n\n*Weapon (longsword), rare (requires attunement)*\n\nFlames burst from it.\n"
    assert _edges(text, [blade, longsword]) == {("Flame Tongue", "variant_of", "Longsword")}


def test_a_prerequisite_line_is_requires_and_its_label_no_variant():
    grip = PatternEntity("Iron Grip", ("Iron Grip",), "feature", "heading")
    grappler = PatternEntity("Grappler", ("Grappler",), "feature")
    label = PatternEntity("Prerequisites", ("Prerequisite",), "other")
    text = "#### Iron Grip\n\n*General Feat (Prerequisite: Level 4+, Grappler)*\n\nYour hold does not slip.\n"
    assert _edges(text, [grip, grappler, label]) == {("Iron Grip", "requires", "Grappler")}
    bold = "#### Iron Grip\n\n**Prerequisite:** Grappler\n\nYour hold does not slip.\n"
    assert _edges(bold, [grip, grappler, label]) == {("Iron Grip", "requires", "Grappler")}


def test_a_size_word_is_no_variant():
    apparatus = PatternEntity("Apparatus of the Crab", ("Apparatus of the Crab", "apparatus"), "item", "heading")
    large = PatternEntity("Large", ("Large",), "other")
    text = "#### Apparatus of the Crab\n\nThe Apparatus of the Crab is a Large object with these statistics.\n"
    assert _edges(text, [apparatus, large]) == set()


def test_an_abbreviation_is_no_variant_and_no_self_loop():
    level = PatternEntity("Threat Level", ("Threat Level",), "rule", "heading")
    short = PatternEntity("Tl", ("TL",), "other")
    text = "#### Threat Level\n\nThreat Level is a TL that measures how dangerous a creature is.\n"
    assert _edges(text, [level, short]) == set()
    assert abbreviation_of("TL", "Threat Level") and abbreviation_of("AC", "Armor Class")
    assert not abbreviation_of("Bless", "Threat Level")
    loop = RawRelation(source_name="Shield", target_name="Shields", relation_type="variant_of", evidence="x")
    assert guarded([loop], [], str) == []


@pytest.mark.parametrize("spell", ["Ward Foes and Friends", "Rope and Hook", "Speak with Stones"])
def test_a_name_with_and_of_with_is_matched_whole(spell):
    shade = PatternEntity("Marsh Shade", ("Marsh Shade",), "creature", "heading")
    parts = [PatternEntity(p, (p,), "spell") for p in (spell.split()[0], spell.split()[-1])]
    text = f"### Marsh Shade\n\n***Spellcasting.*** The shade casts one of the following spells:\n\n- **At Will:** *{spell}*\n"
    # only the parts are known: neither is cast
    assert {e for e in _edges(text, [shade, *parts]) if e[1] == "casts"} == set()
    whole = PatternEntity(spell, (spell,), "spell")
    assert ("Marsh Shade", "casts", spell) in _edges(text, [shade, whole, *parts])


def test_a_lowercase_emphasized_name_hides_a_shorter_one():
    fire = PatternEntity("Fire", ("fire", "Fire"), "other")
    text = "### Lich\n\n***Spellcasting.*** It has the following spells prepared:\n\nCantrips (at will): *fire bolt*\n"
    assert _edges(text, [LICH, fire]) == set()


def test_whole_names_keeps_a_list_of_names():
    text = "At will: *light*, *mage hand* and *Bless*"
    occurrences = [(10, 15, 0), (19, 28, 1), (35, 40, 2)]
    assert whole_names(text, occurrences) == occurrences


SHADE = PatternEntity("Marsh Shade", ("Marsh Shade",), "creature", "heading")
INVISIBLE = PatternEntity("Invisible", ("Invisible",), "condition", "heading", "Conditions")
PRONE = PatternEntity("Prone", ("Prone",), "condition", "heading", "Conditions")


@pytest.mark.parametrize("trait", [
    "***Shadow Skin.*** While in dim light, the shade has the Invisible condition.",
    "***Shadow Skin.*** While Invisible, the shade can move through creatures.",
])
def test_a_condition_the_creature_has_itself_is_not_inflicted(trait):
    text = f"### Marsh Shade\n\n**Traits**\n\n{trait}\n"
    assert not {e for e in _edges(text, [SHADE, INVISIBLE]) if e[1] == "inflicts"}
    assert own_condition("While in dim light, the shade has the Invisible condition.", "Marsh Shade", ("Invisible",))


def test_a_condition_put_on_the_target_stays_inflicted():
    grappled = PatternEntity("Grappled", ("grappled",), "condition", "heading", "Conditions")
    mimic = PatternEntity("Mimic", ("Mimic",), "creature", "heading")
    stuck = "### Mimic\n\n***Adhesive.*** A Huge or smaller creature adhered to the mimic is also grappled by it.\n"
    assert ("Mimic", "inflicts", "Grappled") in _edges(stuck, [mimic, grappled])
    text = "### Marsh Shade\n\n**Actions**\n\n***Chill Touch.*** *Melee Attack Roll:* +4. The target has the Prone condition.\n"
    assert ("Marsh Shade", "inflicts", "Prone") in _edges(text, [SHADE, PRONE])


def test_an_immunity_is_no_counter_and_a_cure_is():
    poison = PatternEntity("Poisoned", ("Poisoned",), "condition", "heading", "Conditions")
    immune = RawRelation(source_name="Marsh Shade", target_name="Poisoned", relation_type="COUNTERS",
                         evidence="The shade is immune to the Poisoned condition.", extractor="spacy")
    cure = RawRelation(source_name="Marsh Shade", target_name="Poisoned", relation_type="counters",
                       evidence="Its touch ends the Poisoned condition.", extractor="pattern")
    kept = guarded([immune, cure], [SHADE, poison], lambda t: t.lower())
    assert kept == [cure]


@pytest.mark.parametrize("text", ["The shade is immune to the Poisoned condition.", "It has Immunity to Poison damage."])
def test_a_stat_blocks_immunity_counters_nothing(text):
    poisoned = PatternEntity("Poisoned", ("Poisoned",), "condition", "heading", "Conditions")
    poison = PatternEntity("Poison", ("Poison",), "other")
    assert _edges(f"### Marsh Shade\n\n{text}\n", [SHADE, poisoned, poison]) == set()


def test_a_counter_backwards_of_an_inflicted_condition_goes():
    inflicts = RawRelation(source_name="Fire Lash", target_name="Prone", relation_type="inflicts",
                           evidence="the target has the Prone condition")
    counters = RawRelation(source_name="Fire Lash", target_name="Prone", relation_type="counters",
                           evidence="the target resists being Prone")
    assert guarded([inflicts, counters], [LASH, PRONE], str) == [inflicts]


@pytest.fixture(scope="module")
def mirefall_edges(tmp_path_factory):
    job = make_job(tmp_path_factory.mktemp("mirefall") / "index")
    ingest_paths(job, [FIXTURE])
    return {(e["source"], e["relation_type"], e["target"]) for e in index_edges(job.db)}


def test_the_other_editions_book_states_its_edges(mirefall_edges):
    assert {("Iron Grip", "requires", "Grappler"), ("Marsh Shade", "inflicts", "Prone"),
            ("Marsh Shade", "casts", "Speak with Stones"), ("Fire Lash", "inflicts", "Prone")} <= mirefall_edges
    assert not any(kind == "variant_of" for _, kind, _ in mirefall_edges)
    assert not any(source == target for source, _, target in mirefall_edges)
    # the split "Ward Foes and Friends" is no two spells cast, and a list's label is cast by nobody
    assert not {e for e in mirefall_edges if e[0] == "Marsh Shade" and e[2] in ("Friends", "Ward Foes", "At Will")}


LICH = PatternEntity("Lich", ("Lich",), "creature", "heading")
MAGE_HAND = PatternEntity("Mage Hand", ("mage hand",), "spell")
DETECT = PatternEntity("Detect Magic", ("detect magic", "Detect Magic"), "spell")
FIREBALL = PatternEntity("Fireball", ("fireball", "Fireball"), "spell")


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_prepared_spell_list_under_its_lead_is_cast(newline):
    text = ("### Lich\n\n***Spellcasting.*** The lich is an 18th-level spellcaster. It has the following wizard spells"
            " prepared:\n\nCantrips (at will): *mage hand*\n1st level (4 slots): *detect magic*\n\n"
            "***Legendary Resistance.*** It never forgets *fireball*.\n").replace("\n", newline)
    assert _edges(text, [LICH, MAGE_HAND, DETECT, FIREBALL]) == {("Lich", "casts", "Mage Hand"),
                                                                ("Lich", "casts", "Detect Magic")}


def test_what_an_item_lets_you_cast_is_cast_by_the_item():
    wand = PatternEntity("Wand of Fireballs", ("Wand of Fireballs",), "item", "heading")
    text = ("### Wand of Fireballs\n\nWhile holding it, you can use an action to expend 1 or more of its charges to "
            "cast the *fireball* spell (save DC 15) from it. You can't cast *detect magic* with it.\n")
    assert _edges(text, [wand, FIREBALL, DETECT]) == {("Wand of Fireballs", "casts", "Fireball")}


def test_a_rule_named_after_its_condition_inflicts_nothing():
    rule = PatternEntity("Being Prone", ("Being Prone",), "rule", "heading")
    text = "### Being Prone\n\nA creature that is knocked down is prone. Standing up ends it.\n"
    raw = RawRelation(source_name="Being Prone", target_name="Prone", relation_type="inflicts", evidence="is prone")
    assert guarded([raw], [rule, PRONE], str) == []
    assert not {e for e in _edges(text, [rule, PRONE]) if e[2] == "Prone"}


def test_an_item_that_casts_as_if_you_had_or_on_a_success_casts_and_a_rule_of_casting_does_not():
    amulet = PatternEntity("Amulet of Doors", ("Amulet of Doors",), "item", "heading")
    text = ("### Amulet of Doors\n\nMake a DC 15 check. On a success, you cast the *fireball* spell. You can speak its "
            "word and open a door, as if you had cast the *detect magic* spell.\n")
    assert _edges(text, [amulet, FIREBALL, DETECT]) == {("Amulet of Doors", "casts", "Fireball"),
                                                       ("Amulet of Doors", "casts", "Detect Magic")}
    # a rule about casting a spell, no use of the entry
    rule = PatternEntity("Quiet Casting", ("Quiet Casting",), "feature", "heading")
    text = "### Quiet Casting\n\nWhen you cast the *fireball* spell, you may whisper it.\n"
    assert _edges(text, [rule, FIREBALL]) == set()


def test_a_table_column_headed_by_a_spell_list_title_is_what_the_entry_casts():
    beads = PatternEntity("Rosary of Sparks", ("Rosary of Sparks",), "item", "heading")
    text = ("### Rosary of Sparks\n\nEach bead holds a spell.\n\n| d6 | Bead of... | Spell |\n|---|---|---|\n"
            "| 1-3 | Fire | Fireball |\n| 4-6 | Sight | Detect magic |\n")
    assert _edges(text, [beads, FIREBALL, DETECT]) == {("Rosary of Sparks", "casts", "Fireball"),
                                                      ("Rosary of Sparks", "casts", "Detect Magic")}
    # the first column is the catalog's names, and a column of counts lists nothing
    table = "### Rosary of Sparks\n\n| Spell | Level |\n|---|---|\n| Fireball | 3 |\n"
    assert _edges(table, [beads, FIREBALL]) == set()


def test_a_name_written_with_its_article_is_required_without_it():
    stagger = PatternEntity("The Reeling Step", ("The Reeling Step",), "feature", "glossary")
    fall = PatternEntity("The Sudden Fall", ("The Sudden Fall",), "feature", "glossary")
    text = ("<strong>The Reeling Step:</strong> You sway on your feet.\n\n"
            "<strong>The Sudden Fall:</strong> (Requires Reeling Step) You drop and roll away.\n")
    assert _edges(text, [stagger, fall]) == {("The Sudden Fall", "requires", "The Reeling Step")}


def test_a_one_word_name_less_its_article_is_not_that_name():
    game = PatternEntity("The Game", ("The Game",), "other", "glossary")
    hunt = PatternEntity("Night Hunt", ("Night Hunt",), "feature", "glossary")
    text = "<strong>Night Hunt:</strong> (Requires Game) You stalk by moonlight.\n"
    assert _edges(text, [game, hunt]) == set()


STORM = PatternEntity("Storm Calling", ("Storm Calling",), "other", "heading")


def test_a_lead_named_by_its_entry_with_words_before_is_its_part():
    master = PatternEntity("Master Storm Calling", ("Master Storm Calling",), "other", "glossary")
    gale = PatternEntity("Gale Wall", ("Gale Wall",), "other", "glossary")
    text = ("### Enhancements\n\n<strong>Master Storm Calling:</strong> You gain +2 when you call storms.\n\n"
            "<strong>Gale Wall:</strong> A wall of wind stands where you say.\n")
    assert ("Master Storm Calling", "part_of", "Storm Calling") in _edges(text, [STORM, master, gale])
    assert not {e for e in _edges(text, [STORM, master, gale]) if e[0] == "Gale Wall" and e[1] == "part_of"}


def test_a_longer_name_in_prose_or_outside_the_entry_is_no_part():
    master = PatternEntity("Master Storm Calling", ("Master Storm Calling",), "other", "glossary")
    prose = "## Storm Calling\n\nYou call storms. Some learn Master Storm Calling later.\n"
    assert not {e for e in _edges(prose, [STORM, master]) if e[1] == "part_of"}
    elsewhere = PatternEntity("Storm Calling", ("Storm Calling",), "other")  # named here, its section elsewhere
    text = "<strong>Master Storm Calling:</strong> You gain +2 with Storm Calling.\n"
    assert not {e for e in _edges(text, [elsewhere, master]) if e[1] == "part_of"}


def test_a_name_inside_the_other_ends_lead_opens_no_field_of_its_own():
    from crossbook.relations.edge_guards import is_field_label
    lead = "<strong>Master Storm Calling:</strong> You gain +2."
    assert is_field_label(lead, ["Storm Calling"])
    assert not is_field_label(lead, ["Storm Calling"], ["Master Storm Calling"])
    assert is_field_label("**Prerequisite:** Level 4", ["Prerequisite"], ["Master Storm Calling"])
