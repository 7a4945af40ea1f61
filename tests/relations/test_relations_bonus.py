"""A bonus on a named move or skill ("When you Secure an Advantage by aiming, add +1") is
``modifies`` from the entry (index/relations/patterns.py); a rule quoted in an example is the
quoted entry's, not the example's. The companion text is after Ironsworn's assets (Shawn
Tomkin, CC BY 4.0, corpora/ironsworn/README.md)."""

from __future__ import annotations

from crossbook.relations.pattern_context import PatternEntity
from crossbook.relations.patterns import pattern_relations

MOVES = [PatternEntity(name, (name,), defines=None, category="Moves")
         for name in ("Secure an Advantage", "Face Danger", "Undertake a Journey")]


def found(text: str, subject: str) -> set[tuple[str, str, str]]:
    entities = [PatternEntity(subject, (subject,), defines="heading"), *MOVES]
    return {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(text, entities)}


def test_a_bonus_when_you_make_a_move_modifies_it():
    text = ("### Swift\n\nWhen you Face Danger +edge using your horse's speed, or when you Undertake a Journey, "
            "add +1.\n\nWhen you Secure an Advantage, you may describe the terrain.")
    assert found(text, "Swift") == {("Swift", "modifies", "Face Danger"), ("Swift", "modifies", "Undertake a Journey")}


def test_a_rule_quoted_in_an_example_is_not_the_examples():
    text = '### Into the Fight\n\nPer the asset, "When you Face Danger using your horse\'s speed, add +1."'
    assert found(text, "Into the Fight") == set()
