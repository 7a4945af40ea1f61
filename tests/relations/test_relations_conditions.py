"""Conditions stated in stat blocks: "has the X condition", "is X", "becomes X" where X is a condition or state
entity become ``inflicts`` from the entry the sentence is about (index/relations/patterns.py),
including lists of conditions; "immune to the X condition" counters it; a rule that only
describes who has a state ("a creature that is Poisoned", "if the target is Prone") is none."""

from __future__ import annotations

import pytest

from bench.common.scoring import index_edges
from crossbook.ingest.pipeline import ingest_paths
from crossbook.relations.pattern_context import PatternEntity
from crossbook.relations.patterns import pattern_relations
from tests.conftest import make_job
from tests.helpers import write

ENTITIES = [
    PatternEntity("Ember Drake", ("Ember Drake",), "creature", "heading"),
    *(PatternEntity(name, (name, name.lower()), "other", None, "Conditions")
      for name in ("Grappled", "Blinded", "Deafened", "Prone", "Poisoned", "Frightened", "Exhaustion", "Heavily Obscured")),
]


def found(sentence: str) -> set[tuple[str, str, str]]:
    text = f"### Ember Drake\n\n**Fire Bite.** Melee attack. Hit: 5 damage, and {sentence}"
    return {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(text, ENTITIES)}


@pytest.mark.parametrize("sentence, targets", [
    ("the target has the Grappled condition.", {"Grappled"}),
    ("the target has the Blinded and Deafened conditions.", {"Blinded", "Deafened"}),
    ("the target has the Blinded, Deafened, and Prone conditions until its next turn.", {"Blinded", "Deafened", "Prone"}),
    ("the target is Poisoned and Frightened.", {"Poisoned", "Frightened"}),
    ("the target becomes frightened for 1 minute.", {"Frightened"}),
    ("it must succeed on a DC 13 Constitution saving throw or be Poisoned.", {"Poisoned"}),
    ("the target gains one level of Exhaustion.", {"Exhaustion"}),
    ("the area is Heavily Obscured.", {"Heavily Obscured"}),  # a condition of two words
    ("the blast leaves the target Blinded until dawn.", {"Blinded"}),  # a causative with its object
    ("the tail knocks it Prone.", {"Prone"}),
    # a condition of the main clause after an if-clause about something else
    ("if the target is a Large or smaller creature, it has the Prone condition.", {"Prone"}),
])
def test_a_stated_condition_is_inflicted_by_the_entry(sentence, targets):
    assert found(sentence) == {("Ember Drake", "inflicts", t) for t in targets}


def test_immune_to_a_condition_counters_it():
    assert found("the drake is immune to the Poisoned condition.") == {("Ember Drake", "counters", "Poisoned")}


@pytest.mark.parametrize("sentence", [
    "a creature that is Poisoned takes 2 damage.",
    "if the target is Prone, it takes double damage.",
    "if a Poisoned creature is poisoned again, it becomes Frightened.",  # a state's own rule
    "the drake can't be Frightened.",
    "the drake has advantage against a Frightened creature.",
])
def test_a_state_only_described_is_no_edge(sentence):
    assert found(sentence) == set()


SHELF = """# Frostlands

## Conditions

### Chilled

A chilled creature moves at half speed.

## Perils

### Avalanche

Snow falls on everything below.

## Creatures

### Ice Wraith

The Ice Wraith leaves its prey Chilled.

### Frost Giant

The Frost Giant causes an Avalanche.
"""


def test_a_parsed_inflicts_needs_a_condition_at_its_end(tmp_path, fake_svo):
    job = make_job(tmp_path / "index")
    ingest_paths(job, [write(tmp_path / "frost.md", SHELF)])
    found = {(e["source"], e["relation_type"], e["target"]) for e in index_edges(job.db)}
    assert ("Ice Wraith", "inflicts", "Chilled") in found
    assert not any(target == "Avalanche" for _, _, target in found)  # "causes an Avalanche" names no state


def test_what_an_entrys_action_inflicts_the_entry_inflicts():
    text = "### Ember Drake\n\n**Tail Sweep.** Every creature next to the drake must save or be knocked Prone.\n"
    action = PatternEntity("Tail Sweep", ("Tail Sweep",), "other", "glossary")
    found = {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(text, [*ENTITIES, action])}
    assert found == {("Tail Sweep", "inflicts", "Prone"), ("Ember Drake", "inflicts", "Prone")}
    # a lead under a heading that defines nothing is nobody's action
    topic = text.replace("### Ember Drake", "### Hazards")
    found = {(r.source_name, r.relation_type, r.target_name) for r in pattern_relations(topic, [*ENTITIES[1:], action])}
    assert found == {("Tail Sweep", "inflicts", "Prone")}
