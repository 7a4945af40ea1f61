"""Generic precision rules of the offline extractor and the offline relationship
patterns, one test per rule (each fails without its rule).

Fixtures marked "Fate SRD" are short excerpts of the Fate SRDs (corpora/fate, Evil Hat
Productions, CC BY 3.0); those marked "Ironsworn" are excerpts of the Ironsworn SRD by Shawn
Tomkin (CC BY 4.0, corpora/ironsworn/README.md).
"""

from __future__ import annotations

from crossbook.chunk.chunking import parent_chunks, split_sections
from crossbook.core.packs import load_pack
from crossbook.extract.rules import book_mentions
from crossbook.relations.pattern_context import PatternEntity
from crossbook.relations.patterns import pattern_relations

GENERIC = load_pack("generic")


def defined(text: str, book: str = "Book") -> set[str]:
    parents = parent_chunks(book, split_sections(text))
    return {m.name for found in book_mentions(parents, GENERIC, book) for m in found if m.mention_type == "defines"}


def edges(text: str, entities: list[PatternEntity]) -> set[tuple[str, str, str]]:
    found = pattern_relations(text, entities)
    for relation in found:
        assert relation.evidence in text  # verbatim evidence
    return {(r.source_name, r.relation_type, r.target_name) for r in found}


# -- definitions ------------------------------------------------------------------------------

def test_list_rows_written_as_phrases_are_not_entities():
    # Ironsworn: the rows of a move's rank list, and Fate SRD: a list of costs
    text = ("# Book\n\n## Undertake a Journey\n\nSet the rank of your journey.\n\n"
            "- Troublesome journey: 3 progress per waypoint.\n- Dangerous journey: 2 progress per waypoint.\n"
            "- Formidable journey: 1 progress per waypoint.\n\n"
            "## Succeed at a Cost\n\n* **Delay success.** The task takes much longer than expected.\n"
            "* **Hurt them.** The character takes a hit.\n* **Raise the stakes.** Something worse is coming.\n")
    found = defined(text)
    assert not found & {"Troublesome journey", "Dangerous journey", "Formidable journey", "Delay success"}


def test_a_phrase_naming_a_kind_of_a_term_of_the_book_stays_an_entry():
    # Fate SRD: "Scenario aspects" is a kind of aspect, and the book defines Aspects
    text = ("# Book\n\n## Aspects\n\nAn aspect is a phrase that describes something.\n\n"
            "## Other Kinds\n\n**Scenario aspects:** A new trope that shows up in the storyline.\n\n"
            "**Zone aspects:** Features of a zone.\n\n**Character aspects:** Features of a character.\n")
    assert {"Scenario aspects", "Zone aspects", "Character aspects"} <= defined(text)


def test_table_rows_repeated_across_sections_are_labels():
    # a stat-block table whose row labels come back in every entry
    blocks = "".join(
        f"## {name}\n\n{name} is a beast of the hills.\n\n| Trait | Value |\n|---|---|\n| Wounds | 3 |\n| Pace | 6 |\n\n"
        for name in ("Cave Bear", "Hill Wolf", "Marsh Boar"))
    found = defined("# Bestiary\n\n" + blocks)
    assert not found & {"Wounds", "Pace"}
    assert {"Cave Bear", "Hill Wolf", "Marsh Boar"} <= found


# -- relationships ----------------------------------------------------------------------------

def test_a_parenthesized_list_is_not_a_category():
    text = "### Soothing Song\n\n*Rank 2 Charm (Bard, Sage)*\n\nThe song calms a crowd.\n"
    entities = [PatternEntity("Soothing Song", ("Soothing Song",), defines="heading"),
                PatternEntity("Bard", ("Bard",)), PatternEntity("Sage", ("Sage",))]
    assert not {e for e in edges(text, entities) if e[1] == "variant_of"}


def test_a_sentence_with_a_parenthesis_is_not_a_category_line():
    # Fate SRD (Fate Condensed, Full Defense)
    text = ("### Full Defense\n\nSometimes a player (or GM) may want their character to go all-in on using "
            "defend until their next turn.\n")
    entities = [PatternEntity("Full Defense", ("Full Defense",), defines="heading"), PatternEntity("GM", ("GM",))]
    assert edges(text, entities) == set()


def test_a_word_of_a_longer_name_is_not_the_target():
    # Fate SRD: "(requires Fast Talk)" names a stunt; the shelf defines only the word "Talk"
    text = "* **Instant Cover.** (requires Fast Talk) You can invent a cover story at once.\n"
    entities = [PatternEntity("Instant Cover", ("Instant Cover",), defines="glossary"), PatternEntity("Talk", ("Talk",))]
    assert edges(text, entities) == set()


def test_only_conditions_are_inflicted():
    # Fate SRD (Venture City): a consequence dealt to an NPC; and a lowercase "-ed" word
    text = ("### Eviscerate\n\nYou can instantly take out a nameless NPC, or cause a mild consequence to a named NPC.\n"
            "Its function is specialized but very important.\n")
    entities = [PatternEntity("Eviscerate", ("Eviscerate",), defines="heading"), PatternEntity("NPCs", ("NPC",)),
                PatternEntity("Specialized", ("specialized",))]
    assert edges(text, entities) == set()


def test_conditions_are_still_inflicted():
    text = "### Ember Drake\n\n***Bite.*** Hit: 7 damage, and the target has the Burning condition.\n"
    entities = [PatternEntity("Ember Drake", ("Ember Drake",), defines="heading"),
                PatternEntity("Burning", ("Burning",), category="Conditions")]
    assert edges(text, entities) == {("Ember Drake", "inflicts", "Burning")}


def test_the_target_of_an_entry_is_not_its_subject():
    # Fate SRD (Provoke stunt "Okay, Fine!")
    text = ("* **Okay, Fine!** You can use Provoke in place of Empathy to learn a target's aspects. "
            "The target defends against this with Will.\n")
    entities = [PatternEntity("Okay, Fine!", ("Okay, Fine!",), defines="glossary"),
                PatternEntity("Provoke", ("Provoke",)), PatternEntity("Empathy", ("Empathy",)),
                PatternEntity("Will", ("Will",))]
    found = edges(text, entities)
    assert ("Okay, Fine!", "counters", "Will") not in found
    assert ("Okay, Fine!", "modifies", "Provoke") in found


def test_a_rolled_name_before_the_state_is_not_its_subject():
    text = ("### Ember Drake\n\n***Sting.*** The target must succeed on a DC 13 Constitution saving throw "
            "or be Poisoned for 1 minute.\n")
    entities = [PatternEntity("Ember Drake", ("Ember Drake",), defines="heading"),
                PatternEntity("Constitution", ("Constitution",)),
                PatternEntity("Poisoned", ("Poisoned",), category="Conditions")]
    assert edges(text, entities) == {("Ember Drake", "inflicts", "Poisoned")}

