"""Of the entities the first hop mentions, the bridge is the one
named in the sentence that best matched the question, over every seed, and not named by
the question itself (it describes the bridge: "the spell the wraith casts"). A generic
neighbour named in a weaker sentence of a section that matched better does not win.
And a category word the question only uses after a name ("the wraith's Icy Aura trait")
is the kind of the named topic, not the kind of thing the question asks for."""

from __future__ import annotations

import pytest

from crossbook.query import bridge, search
from crossbook.query import retrieve as rules
from crossbook.query.question import parse_question
from tests.helpers import rebuild_books

# -- the pure parts -----------------------------------------------------------------------------


def test_the_best_sentence_shares_the_most_words_then_sits_in_the_closest_child():
    sentences = [(2, 0.6, "_winter_roads_"), (4, 0.4, "_rime_wraith_casts_frost_lance_"), (4, 0.5, "_closest_")]
    assert bridge.best_sentences(sentences) == ["_closest_"]
    # two words or more, or none at all (a section the question does not describe)
    assert bridge.best_sentences([(1, 0.9, "_one_word_")]) == []
    assert bridge.best_sentences([]) == []


def test_a_category_word_used_only_after_a_name_is_not_asked():
    named = bridge.named_category_words(
        "The Horse's Mighty ability adds harm when mounted. In that move, what do you roll?")
    assert "ability" in named and "move" not in named
    # used on its own too ("that replaced approach"): the question asks for one
    assert "approach" not in bridge.named_category_words(
        "Gods and Monsters' Bold approach replaces another. How is that replaced approach described?")
    # a capitalized word that only opens the sentence names nothing
    assert "spell" not in bridge.named_category_words("Which spell does the Lich cast?")


# -- on a shelf ---------------------------------------------------------------------------------

SHELF = {
    "grimoire.md": "# Grimoire\n\n## Frost Lance\n\nFrost Lance is a lance of ice.\n\n## Kindle\n\nKindle lights a fire.\n",
    "conditions.md": ("# Conditions\n\n## Chilled\n\nA Chilled creature moves at half speed.\n\n"
                      "## Prone\n\nA Prone creature lies on the ground.\n"),
    "bestiary.md": ("# Bestiary\n\n## Rime Wraith\n\n"
                    "When the Rime Wraith cannot close the distance to its prey, it casts Frost Lance.\n\n"
                    "## Traits\n\n### Icy Aura\n\nIcy Aura is the cold around a wraith.\n\n"
                    "### Swift\n\nA Swift creature moves twice.\n"),
    "almanac.md": ("# Almanac\n\n## Winter Roads\n\n"
                   "Travellers pay a high cost on the winter roads: the wraith leaves them Chilled.\n\n"
                   "## Summer Roads\n\nSummer roads are dusty. The Rime Wraith has an Icy Aura.\n"),
}
QUESTION = "What does the spell cost that the Rime Wraith casts when it cannot close the distance to its prey?"


@pytest.fixture
def shelf_db(cli, tmp_path, index_dir):
    rebuild_books(cli, tmp_path, SHELF)
    from crossbook.storage.db import open_db

    return open_db(index_dir)


def seed(db, heading: str, book: str, similarity: float):
    chunk_id, text = db.execute(
        "SELECT id, text FROM chunks WHERE kind = 'parent' AND heading_path = ?", [heading]).fetchone()
    child = db.execute("SELECT id FROM chunks WHERE parent_id = ? ORDER BY ordinal", [chunk_id]).fetchone()[0]
    passage = search.Passage(chunk_id=chunk_id, book=book, section=heading, score=similarity,
                            similarity=similarity, hop_score=similarity, hop=1, child_id=child, text=text,
                            path_books=(book,), found_at=[1])
    return passage, (child, similarity)


def weights(db, seeds, question: str) -> dict[str, float]:
    passages = [p for p, _ in seeds]
    matched = {p.chunk_id: [child] for p, child in seeds}
    return {f.name: f.weight for f in rules.weigh_entities(db, passages, matched, parse_question(question))}


def test_the_bridge_in_the_best_sentence_beats_a_neighbour_of_a_closer_section(shelf_db):
    db = shelf_db
    # the almanac matched the question better (0.6) but its sentence shares two words
    # ("cost", "wraith"); the wraith's shares five and names the spell the question describes
    seeds = [seed(db, "Bestiary > Rime Wraith", "Bestiary", 0.5), seed(db, "Almanac > Winter Roads", "Almanac", 0.6)]
    found = weights(db, seeds, QUESTION)
    assert {"Frost Lance", "Chilled"} <= set(found)
    assert found["Frost Lance"] > found["Chilled"]


def test_what_the_question_names_gets_no_best_sentence_bonus(shelf_db):
    db = shelf_db
    seeds = [seed(db, "Bestiary > Rime Wraith", "Bestiary", 0.5)]
    described = weights(db, seeds, QUESTION)
    named = weights(db, seeds, QUESTION.replace("the spell", "Frost Lance"))
    # the same sentence matches both questions best; only the one that describes it lifts it
    assert described["Frost Lance"] / named["Frost Lance"] == pytest.approx(1 + rules.BEST_BONUS)


def test_a_kind_named_after_the_topic_is_not_a_category_match(shelf_db):
    db = shelf_db
    seeds = [seed(db, "Almanac > Summer Roads", "Almanac", 0.5)]
    plain = weights(db, seeds, "What does the Rime Wraith do on summer roads with Icy Aura?")
    after_name = weights(db, seeds, "What does the Rime Wraith do on summer roads with its Icy Aura trait?")
    asked = weights(db, seeds, "Which trait does the Rime Wraith show on summer roads?")
    # Icy Aura is filed under "Traits": asked for, it is lifted; named as a trait, it is not
    assert asked["Icy Aura"] > plain["Icy Aura"]
    assert after_name["Icy Aura"] == pytest.approx(plain["Icy Aura"])
