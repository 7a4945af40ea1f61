"""When the question names a thing the first hop lists, it is
followed even though the index stores no mention of it there: the first hop writes it in
lowercase, or in a table row, where the extractor links nothing."""

from __future__ import annotations

import pytest

from crossbook.query import question
from crossbook.query import retrieve as rules
from tests.helpers import opened_shelf, rebuild_books

SHELF = {
    "core.md": ("# Core Rules\n\n## Conditions\n\n### Frightened\n\n"
                "A frightened creature cannot move closer to the source of its fear.\n\n"
                "### Prone\n\nA prone creature is easy to hit until it stands.\n"),
    "bestiary.md": ("# Bestiary\n\n## Creatures\n\n### Gloom Hound\n\n"
                    "The Gloom Hound stalks travellers at dusk and hunts in packs.\n\n"
                    "| Action | Effect |\n|---|---|\n| Bite | 2d6 damage |\n"
                    "| Howl | every listener is frightened for one round |\n\n"
                    "### Marsh Toad\n\nA Marsh Toad croaks all night.\n"),
}
QUESTION = "Which move is forbidden to a frightened listener of the Gloom Hound's howl?"


@pytest.fixture
def shelf(cli, tmp_path, index_dir):
    rebuild_books(cli, tmp_path, SHELF)
    yield from opened_shelf(index_dir)


def test_question_phrases_are_every_run_of_words_in_any_case():
    phrases = question.question_phrases("How long is a creature frightened by the Gloom Hound's howl?")
    assert {"frightened", "gloom_hound", "howl", "creature_frightened"} <= set(phrases)
    # a phrase never opens or closes on a stopword
    assert not any(p.startswith(("the_", "how_")) or p.endswith("_the") for p in phrases)


def test_the_hound_lists_frightened_in_a_table_row_unlinked(shelf):
    db, _ = shelf
    stored = {name for (name,) in db.execute(
        "SELECT e.name FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
        " JOIN chunks c ON c.id = m.chunk_id WHERE c.heading_path LIKE '%> Gloom Hound'")}
    # the premise: the extractor stores no mention of the condition in the hound's section
    assert "Frightened" not in stored


def test_what_the_question_names_and_the_first_hop_lists_is_followed(shelf):
    db, vectors = shelf
    result = rules.retrieve(vectors, db, QUESTION, k=10)
    followed = [f for f in result["followed"] if f["entity"] == "Frightened"]
    hound = db.execute("SELECT id FROM chunks WHERE kind = 'parent' AND heading_path LIKE '%> Gloom Hound'"
                       ).fetchone()[0]
    assert followed and followed[0]["from_chunk"] == hound
    reached = next(p for p in result["results"] if p.section.endswith("> Frightened"))
    assert 2 in reached.found_at and reached.via is not None and reached.via.entity == "Frightened"


def test_a_name_the_seed_does_not_list_is_not_followed(shelf):
    db, vectors = shelf
    # "prone" is a phrase of the question and an entity, but the hound's section never says it
    result = rules.retrieve(vectors, db, QUESTION.replace("frightened", "prone"), k=10)
    assert not [f for f in result["followed"] if f["entity"] in ("Prone", "Frightened")]
