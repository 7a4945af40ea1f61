"""The entry a question names states its bridge (index/query/named_entry.py): what a named
entry's own text states a relationship with leads the hop, over what other seeds mention or
state, however the question names it (as written, in lower case); of two named entries the
one inside the section leads ("the tail sweep of the marsh hydra"). A list line whose label the
question repeats ("at will", "as a 3rd level spell") names the items it means."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from crossbook.core.normalize import normalized_tokens
from crossbook.query import bridge
from crossbook.query import retrieve as rules
from crossbook.query.named_entry import INSIDE, LOOSE, OWN, lift_named, named_keys
from crossbook.query.question import parse_question
from tests.helpers import opened_shelf, rebuild_books

# -- the pure parts -----------------------------------------------------------------------------


@dataclass
class End:
    name: str
    weight: float
    stated: bool = False
    named_source: int = 0
    asked_kind: bool = False


def test_the_ends_a_named_entry_states_lead_in_their_own_order():
    ends = [End("Neighbour", 1.0), End("Listed", 0.2, True, OWN), End("Second", 0.1, True, OWN),
            End("Sibling", 0.8, True)]
    weights = {e.name: round(e.weight, 3) for e in lift_named(ends)}
    # the best named end weighs (1 + NAMED_LIFT) times the best of all; its list keeps its order
    assert weights["Listed"] == 1.25 and weights["Second"] == 0.625
    # another entry's list (a sibling stat block's) weighs half
    assert weights["Sibling"] == 0.4 and weights["Neighbour"] == 1.0


def test_a_named_entry_inside_the_section_leads_the_sections_own():
    ends = [End("Grappled", 0.9, True, OWN), End("Stunned", 0.3, True, INSIDE), End("Loose", 0.5, True, LOOSE)]
    assert [e.name for e in lift_named(ends)] == ["Stunned", "Grappled", "Loose"]


def test_what_a_part_of_a_name_may_stand_for_leads_but_demotes_nothing():
    # "sight": Devil's, Eldritch, Witch Sight; the question may mean another entry's list
    ends = [End("Neighbour", 1.0), End("Detect Magic", 0.2, True, LOOSE), End("Sibling", 0.8, True)]
    weights = {e.name: round(e.weight, 3) for e in lift_named(ends)}
    assert weights == {"Detect Magic": 1.25, "Neighbour": 1.0, "Sibling": 0.8}


def test_named_ends_of_a_type_the_question_does_not_ask_for_do_not_lead():
    # "the creature that, by the Shield Bash rules, ...": the maneuver requires a shield
    ends = [End("Ashen Knight", 1.0, False, 0, True), End("Shield", 0.5, True, INSIDE)]
    assert [e.name for e in lift_named(ends)] == ["Ashen Knight", "Shield"]
    assert ends[1].weight == 0.5


def test_nothing_named_changes_nothing():
    ends = [End("A", 1.0), End("B", 0.5, True)]
    assert [(e.name, e.weight) for e in lift_named(ends)] == [("A", 1.0), ("B", 0.5)]


def test_a_question_names_an_entry_in_any_case():
    keys = named_keys(parse_question("The tail sweep of marsh hydra can leave its target in a condition."))
    assert {"tail_sweep", "marsh_hydra"} <= keys
    # one lowercase word names an entry only when loose_names linked it to a specific one
    assert "condition" not in keys and "target" not in keys
    assert "hydra" in named_keys(parse_question("What does the hydra cast?"), ["hydra"])


def test_a_list_line_whose_label_the_question_repeats_names_its_items():
    block = ("It can innately cast the following spells:\n\nAt will: *mage hand*\n"
             "- **3rd level (2 slots):** *water breathing*, *fly*\n1/day each: *sleep*\n"
             "***Hit:*** 7 damage\n")
    at_will = bridge.labelled_lines(block, normalized_tokens("The hydra can cast one spell at will."))
    assert at_will == ["_mage_hand_"]
    third = bridge.labelled_lines(block, normalized_tokens("It can cast one spell as a 3rd level spell."))
    assert third == ["_water_breathing_fly_"]
    # a label the question does not repeat, or a one-word label that is no content word, names nothing
    assert bridge.labelled_lines(block, normalized_tokens("Which spell does it cast once a day?")) == []


# -- on a shelf ---------------------------------------------------------------------------------

SHELF = {
    "bestiary.md": ("# Bestiary\n\n## Creatures\n\n### Marsh Hydra\n\n"
                    "The marsh hydra lurks in reed beds and drags prey under the water.\n\n"
                    "***Bite.*** The marsh hydra bites and can leave its target in a condition: the target"
                    " must succeed on a save or be Poisoned.\n\n"
                    "***Tail Sweep.*** Each creature nearby must succeed on a save or be knocked Prone.\n\n"
                    "### Reed Stalker\n\nThe reed stalker hunts in the marsh and its bite leaves a target"
                    " in a condition: every creature it bites is Blinded.\n\n"
                    "## Advancement\n\n### Reed Cloak\n\nAt fifth level the hydra hides among the reeds.\n"),
    "conditions.md": ("# Conditions\n\n## Poisoned\n\nA Poisoned creature has disadvantage on attack rolls.\n\n"
                      "## Prone\n\nA Prone creature lies on the ground and crawls.\n\n"
                      "## Blinded\n\nA Blinded creature cannot see.\n"),
}
QUESTION = "The tail sweep of marsh hydra can leave its target in a condition. What does that condition do?"


@pytest.fixture
def shelf(cli, tmp_path, index_dir):
    rebuild_books(cli, tmp_path, SHELF)
    yield from opened_shelf(index_dir)


def test_a_stated_end_says_which_entry_states_it(shelf):
    db, _ = shelf
    hydra = db.execute("SELECT id FROM chunks WHERE kind = 'parent' AND heading_path LIKE '%> Marsh Hydra'"
                       ).fetchone()[0]
    stated = {(m.name, m.stated_by) for m in rules.graph.stated_mentions(db, [hydra])}
    assert ("Prone", "tail_sweep") in stated


def test_what_the_named_action_inflicts_leads(shelf):
    db, vectors = shelf
    result = rules.retrieve(vectors, db, QUESTION, k=10)
    weights: dict[str, float] = {}
    for f in result["followed"]:
        weights[f["entity"]] = max(weights.get(f["entity"], 0.0), f["weight"])
    assert weights["Prone"] > max(weights.get("Poisoned", 0.0), weights.get("Blinded", 0.0))
    sections = [p.section for p in result["results"]]
    assert "Conditions > Prone" in sections
    prone = sections.index("Conditions > Prone")
    assert all(sections.index(s) > prone for s in ("Conditions > Poisoned", "Conditions > Blinded") if s in sections)


def test_a_section_its_heading_names_is_linked_though_no_entity_is_defined_there(shelf):
    db, vectors = shelf
    assert not db.execute("SELECT 1 FROM entities WHERE normalized = 'reed_cloak'").fetchall()
    question = "Reed Cloak lets a creature vanish. What does it do?"
    linked, _ = rules.linked_seeds(vectors, db, parse_question(question), vectors.embedder.embed([question])[0], (),
                                   set())
    assert [p.section for p in linked] == ["Bestiary > Advancement > Reed Cloak"]
