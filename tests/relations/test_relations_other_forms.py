"""Relationships from forms another edition of a rulebook writes, made up here (no edition's
text): a spell's "Level:" field line with classes in full or abbreviated ("Clr 2, Sor/Wiz
3"), a feat's "Prerequisites:" line, an abbreviation the book gives ("Threat Level (TL)"),
"is a Large object", a stat block's "Immunities", and conditions a class, an item or a
creature puts on itself, cures or resists (index/relations/stated.py, edge_guards.py,
state_guards.py)."""

from __future__ import annotations

import pytest

from crossbook.relations.normalize import normalize_type
from crossbook.relations.ontology import load_ontology
from crossbook.relations.patterns import PatternEntity
from crossbook.relations.state_guards import CURED, INFLICTED, OWN, RESISTED, reading
from crossbook.relations.stated import stated_relations


def _edges(text: str, entities: list[PatternEntity]) -> set[tuple[str, str, str]]:
    return {(r.source_name, r.relation_type, r.target_name) for r in stated_relations(text, entities)}


CLERIC = PatternEntity("Cleric", ("Cleric",), "class")
SORCERER = PatternEntity("Sorcerer", ("Sorcerer",), "class")
WIZARD = PatternEntity("Wizard", ("Wizard",), "class")
BOLT = PatternEntity("Glass Bolt", ("Glass Bolt",), "spell", "heading")


@pytest.mark.parametrize("line", [
    "**Level:** Cleric 2, Sorcerer 3, Wizard 3",
    "Level: Cleric 2, Sorcerer/Wizard 3",
    "**Level:** Clr 2, Sor/Wiz 3",
])
def test_a_level_field_line_names_who_has_the_spell(line):
    text = (f"### Glass Bolt\n\nEvocation [Force]\n\n{line}\n\n**Components:** V, S\n\n"
            "A bolt of glass strikes one creature.\n")
    cleric = PatternEntity("Cleric", ("Cleric", "Clr"), "class") if "Clr" in line else CLERIC
    sorcerer = PatternEntity("Sorcerer", ("Sorcerer", "Sor"), "class") if "Sor/" in line else SORCERER
    wizard = PatternEntity("Wizard", ("Wizard", "Wiz"), "class") if "Wiz" in line else WIZARD
    edges = _edges(text, [BOLT, cleric, sorcerer, wizard])
    assert {("Cleric", "casts", "Glass Bolt"), ("Sorcerer", "casts", "Glass Bolt"),
            ("Wizard", "casts", "Glass Bolt")} <= edges
    assert not {e for e in edges if e[1] == "variant_of"}


def test_a_level_line_with_its_classes_abbreviated_and_unlinked_makes_no_variant():
    text = "### Glass Bolt\n\n**Level:** Clr 2, Sor/Wiz 3\n\nA bolt of glass strikes.\n"
    level = PatternEntity("Level", ("Level",), "other")
    assert _edges(text, [BOLT, level]) == set()


def test_a_feats_prerequisites_line_is_requires():
    feat = PatternEntity("Whirling Guard", ("Whirling Guard",), "feature", "heading")
    dodge = PatternEntity("Dodge", ("Dodge",), "feature")
    label = PatternEntity("Prerequisites", ("Prerequisites",), "other")
    text = ("### Whirling Guard [General]\n\nYou turn aside blows.\n\n**Prerequisites:** Dex 13, Dodge, "
            "base attack bonus +4.\n\n**Benefit:** You gain a +1 dodge bonus to Armor Class.\n")
    edges = _edges(text, [feat, dodge, label])
    assert ("Whirling Guard", "requires", "Dodge") in edges
    assert not {e for e in edges if e[2] == "Prerequisites" or e[1] == "variant_of"}


def test_an_abbreviation_the_book_gives_is_no_variant_and_no_loop():
    threat = PatternEntity("Threat Level", ("Threat Level",), "rule", "heading")
    short = PatternEntity("TL", ("TL",), "other")
    text = ("### Threat Level\n\nThe Threat Level (TL) of a foe is a measure of its danger. A foe of TL 3 "
            "is a Threat Level of three.\n")
    assert not {e for e in _edges(text, [threat, short]) if e[1] == "variant_of" or e[0] == e[2]}


def test_is_a_large_object_is_no_variant():
    wagon = PatternEntity("Siege Wagon", ("Siege Wagon",), "item", "heading")
    large = PatternEntity("Large", ("Large",), "other")
    text = "### Siege Wagon\n\nA siege wagon is a Large object with AC 15 and 40 hit points.\n"
    assert not {e for e in _edges(text, [wagon, large]) if e[1] == "variant_of"}


GOLEM = PatternEntity("Clay Sentinel", ("Clay Sentinel",), "creature", "heading")
POISONED = PatternEntity("Poisoned", ("poisoned", "Poisoned"), "condition", "heading", "Conditions")
CHARMED = PatternEntity("Charmed", ("charmed", "Charmed"), "condition", "heading", "Conditions")
PRONE = PatternEntity("Prone", ("prone", "Prone"), "condition", "heading", "Conditions")


@pytest.mark.parametrize("line", [
    "**Immunities** poison, charmed, poisoned",
    "**Condition Immunities:** charmed, poisoned",
    "**Immune** charmed, poisoned; **Resist** fire 10",
    "The sentinel is immune to being charmed or poisoned.",
    "The sentinel has advantage on saving throws against being charmed or poisoned.",
    "The sentinel can't be charmed or poisoned.",
])
def test_a_stat_blocks_immunities_counter_and_inflict_nothing(line):
    text = f"### Clay Sentinel\n\n*Large construct*\n\n{line}\n\n**Slam.** The target is knocked prone.\n"
    edges = _edges(text, [GOLEM, POISONED, CHARMED, PRONE])
    assert ("Clay Sentinel", "inflicts", "Prone") in edges
    assert not {e for e in edges if e[2] in ("Charmed", "Poisoned")}


@pytest.mark.parametrize("source, text", [
    ("Berserker", "### Berserker\n\n**Battle Fury.** When your fury ends, you suffer one level of exhaustion.\n"),
    ("Berserker", "### Berserker\n\n**Fade.** You can spend 2 points to become invisible for 1 minute.\n"),
    ("Veil Ring", "### Veil Ring\n\nYou can use an action to cause the ring to become invisible.\n"),
    ("Clay Sentinel", "### Clay Sentinel\n\n**Stone Sleep.** The sentinel is unconscious while its master sleeps.\n"),
])
def test_a_condition_the_subject_has_itself_is_no_inflicts(source, text):
    entities = [PatternEntity(source, (source,), "class", "heading"), GOLEM,
                PatternEntity("Exhaustion", ("exhaustion",), "condition", "heading", "Conditions"),
                PatternEntity("Invisible", ("invisible",), "condition", "heading", "Conditions"),
                PatternEntity("Unconscious", ("unconscious",), "condition", "heading", "Conditions")]
    assert not {e for e in _edges(text, entities) if e[1] == "inflicts"}


def test_a_cure_of_a_condition_counters_it():
    calm = PatternEntity("Quiet Mind", ("Quiet Mind",), "spell", "heading")
    text = "### Quiet Mind\n\nYou can suppress any effect causing a target to be charmed.\n"
    assert _edges(text, [calm, CHARMED]) == {("Quiet Mind", "counters", "Charmed")}


@pytest.mark.parametrize("sentence, expected", [
    ("Until this hold ends, the target is prone", INFLICTED),
    ("It must succeed on a saving throw against this magic or become charmed", INFLICTED),
    ("Each creature within 10 feet of you must succeed or become charmed", INFLICTED),
    ("You and the creature are both prone", INFLICTED),
    ("you can end one effect on yourself that is causing you to be charmed", CURED),
    ("it ceases to be poisoned", CURED),
    ("it has advantage on saving throws against being blinded, deafened, and poisoned", RESISTED),
    ("When your fury ends, you suffer one level of exhaustion", OWN),
])
def test_how_a_sentence_holds_a_condition(sentence, expected):
    assert reading(sentence, len(sentence)) == expected


def test_items_of_one_list_do_not_act_on_each_other():
    feeble = PatternEntity("Dull Wits", ("Dull Wits",), "spell", "heading")
    mend = PatternEntity("Mend Mind", ("mend mind",), "spell")
    heal = PatternEntity("Heal", ("heal",), "spell")
    text = "### Dull Wits\n\nThe spell can also be ended by *mend mind*, *heal*, or *wish*.\n"
    from crossbook.core.models import RawRelation
    from crossbook.relations.edge_guards import guarded
    raw = RawRelation(source_name="Mend Mind", target_name="Heal", relation_type="counters",
                      evidence="The spell can also be ended by *mend mind*, *heal*, or *wish*.", extractor="spacy")
    assert guarded([raw], [feeble, mend, heal], str) == []
    assert not {e for e in _edges(text, [feeble, mend, heal]) if {e[0], e[2]} == {"Mend Mind", "Heal"}}


def test_the_subject_named_by_its_own_word_holds_its_condition():
    sentence = "If the sentinel is struck by lightning, it must succeed on a saving throw or fall unconscious."
    at = sentence.index("unconscious")
    assert reading(sentence, at, frozenset({"clay", "sentinel"})) == OWN
    prey = "The sentinel leaves its prey unconscious."
    assert reading(prey, prey.index("unconscious"), frozenset({"clay", "sentinel"})) == INFLICTED


def test_a_name_inside_a_longer_list_item_is_no_sibling():
    from crossbook.relations.edge_guards import list_siblings
    line = "At will: *fire bolt*, *light*, *sage hand* 1/day: *detect magic*, *sage armor*"
    assert not list_siblings(line, ["Sage"], ["light"])
    assert not list_siblings(line, ["Sage"], ["detect magic"])
    assert list_siblings(line, ["fire bolt"], ["light"])


@pytest.mark.parametrize("sentence, condition", [
    ("Any equipment the sentinel wears or carries is invisible with it.", "invisible"),
    ("The condition can be blinded, deafened, or poisoned.", "poisoned"),
])
def test_a_carried_state_and_a_list_of_choices_inflict_nothing(sentence, condition):
    at = sentence.index(condition)
    assert reading(sentence, at, frozenset({"sentinel"}), at + len(condition)) in (OWN, RESISTED)


def test_ones_own_ability_used_is_no_modifies_but_a_new_use_is():
    sorcerer = PatternEntity("Sorcerer", ("Sorcerer",), "class", "heading")
    charisma = PatternEntity("Charisma", ("Charisma",), "other")
    own = "### Sorcerer\n\nYou use your Charisma whenever a spell refers to your spellcasting ability.\n"
    assert _edges(own, [sorcerer, charisma]) == set()
    new = "### Sorcerer\n\nYou can use your Charisma instead of your Strength for attacks.\n"
    assert _edges(new, [sorcerer, charisma]) == {("Sorcerer", "modifies", "Charisma")}


def test_a_lead_the_chunk_defines_wins_over_a_reference_of_that_name():
    sprite = PatternEntity("Bog Sprite", ("Bog Sprite",), "creature", "heading")
    table_bow = PatternEntity("Shortbow", ("Shortbow",), "other")
    own_bow = PatternEntity("Bog Sprite › Shortbow", ("Shortbow",), "feature", "glossary")
    sword = PatternEntity("Bog Sprite › Longsword", ("Longsword",), "feature", "glossary")
    text = ("### Bog Sprite\n\n***Longsword.*** *Melee Weapon Attack:* +2 to hit. *Hit:* 1 slashing damage.\n\n"
            "***Shortbow.*** *Ranged Weapon Attack:* +6 to hit. *Hit:* 1 piercing damage, and the "
            "target must succeed on a DC 10 saving throw or become poisoned for 1 minute.\n")
    assert ("Bog Sprite", "inflicts", "Poisoned") in _edges(text, [table_bow, own_bow, sword, sprite, POISONED])


def test_a_subject_after_its_entrys_lead_holds_its_own_state():
    sentence = "***Fade.*** The will-o'-wisp and its light magically become invisible until it attacks."
    at = sentence.index("invisible")
    assert reading(sentence, at, frozenset({"will", "o", "wisp"}), at + 9) == OWN


HORN = PatternEntity("Horn of the Fen", ("Horn of the Fen",), "item", "heading")
MARSH_WOLF = PatternEntity("Marsh Wolf", ("Marsh Wolf", "marsh wolves"), "creature")
GLOOM = PatternEntity("Gloom Wraith", ("Gloom Wraith",), "creature", "heading")
FEAR = PatternEntity("Frightened", ("Frightened",), "condition")


@pytest.mark.parametrize("sentence", [
    "While holding it, you can use an action to summon a Marsh Wolf.",
    "Once per dawn, the horn calls forth 2d4 marsh wolves that obey you.",
    "When blown, it summons 1d4 Marsh Wolf allies.",
])
def test_what_an_item_summons(sentence):
    assert _edges(f"### Horn of the Fen\n\n*Wondrous item, rare*\n\n{sentence}\n", [HORN, MARSH_WOLF]) \
        == {("Horn of the Fen", "summons", "Marsh Wolf")}


def test_a_summons_ends_at_a_creature_near_its_verb_and_is_never_denied():
    text = "### Gloom Wraith\n\nIt summons its kin. The Marsh Wolf fears it, and it cannot summon a Marsh Wolf.\n"
    assert _edges(text, [GLOOM, MARSH_WOLF]) == set()
    # no creature: a summoned creature "gains the Frightened condition" is no summons of a condition
    assert ("Gloom Wraith", "summons", "Frightened") not in _edges(
        "### Gloom Wraith\n\nIt summons Frightened foes.\n", [GLOOM, FEAR])


def test_the_rulebook_ontology_knows_summons_and_its_mirror():
    ontology = load_ontology(("rulebook",))
    assert normalize_type("summons", ontology) == "summons"
    assert normalize_type("summoned_by", ontology) == "summoned_by"
    assert ("creature", "creature") in ontology.pairs["summons"]
    assert ("item", "condition") not in ontology.pairs["summons"]


@pytest.mark.parametrize("sentence, linked", [
    ("In response, warrior spirits appear. They use the statistics of a Marsh Wolf. They leave at dawn.", True),
    ("A great bird takes its place. The bird has the statistics of a marsh wolf, but it obeys you.", False),
])
def test_what_appears_with_a_creatures_statistics_is_summoned(sentence, linked):
    found = {(r.source_name, r.relation_type, r.target_name, r.target_kind)
             for r in stated_relations(f"### Horn of the Fen\n\n*Wondrous item, rare*\n\n{sentence}\n",
                                       [HORN, *([MARSH_WOLF] if linked else [])])}
    assert found == ({("Horn of the Fen", "summons", "Marsh Wolf", None)} if linked
                     else {("Horn of the Fen", "summons", "marsh wolf", "creature")})


@pytest.mark.parametrize("sentence", [
    "While transformed, you use the statistics of the chosen beast.",   # a form taken: no article "a"
    "The horn cannot use the statistics of a Marsh Wolf.",              # denied
    "The horn has the statistics of a Frightened thing.",               # linked to no creature
])
def test_statistics_taken_are_no_summons_without_a_creature_after_a(sentence):
    edges = _edges(f"### Horn of the Fen\n\n*Wondrous item, rare*\n\n{sentence}\n", [HORN, MARSH_WOLF, FEAR])
    assert not {e for e in edges if e[1] == "summons"}
