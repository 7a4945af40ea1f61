"""Which entity of a seed section is the bridge: the signals of index/query/bridge.py, one at a
time, then together in retrieve.weigh_entities on a small shelf with the generic pack
(no entity types to lean on, as on a shelf nobody wrote a pack for)."""

from __future__ import annotations

import pytest

from crossbook.query import bridge, scoring, search
from crossbook.query import retrieve as rules
from tests.conftest import RETRIEVE_SHELF
from tests.helpers import rebuild_books

# -- the pure signals ----------------------------------------------------------------------------


def test_content_words_are_singular_and_leave_out_stopwords():
    assert bridge.content_words("Which school of magic does that spell belong to?") == {
        "school", "magic", "spell", "belong"}
    # possessives and hyphens split off; plurals fold; short words go
    assert bridge.content_words("The Lich's ranged-weapon Spells") == {"lich", "ranged", "weapon", "spell"}


def test_category_words_are_the_headings_above_a_definition():
    paths = ("Player Rules > Spells > Spell Descriptions > Fireball",)
    # the book's title and the entity's own heading are not its category
    assert bridge.category_words(paths, "Fireball") == {"spell", "description"}
    # a table row is defined in its table's section: that section's heading is the category
    assert bridge.category_words(("Rules > Equipment > Weapons",), "Longsword") == {"equipment", "weapon"}
    # only the nearest headings: a chapter far above says less
    assert "chapter" not in bridge.category_words(("Rules > Chapter Nine > Appendix > Conditions > Blinded",),
                                                  "Blinded")
    assert bridge.category_words((), "Anything") == set()


def test_asked_words_leave_out_what_the_seed_headings_explain():
    question = bridge.content_words("The Influence power makes the target resist with a skill: which one?")
    asked = bridge.asked_words(question, "Venture City > Powers Catalog > Influence")
    assert "skill" in asked and "power" not in asked and "influence" not in asked


def test_evidence_sentences_are_the_ones_the_question_describes():
    text = ("The wraith drifts over the snow.\nWhen it cannot close the distance, it casts Frost Lance. "
            "Its touch leaves victims Chilled.")
    words = bridge.content_words("What does the spell the wraith casts when it cannot close the distance cost?")
    found = bridge.evidence_sentences(text, words)
    assert len(found) == 1 and "_frost_lance_" in found[0]
    # a section the question does not describe gives no evidence at all
    assert bridge.evidence_sentences("Nothing alike here.", words) == []


def test_leads_elsewhere_is_a_definition_outside_the_seed_path():
    assert bridge.leads_elsewhere({"Grimoire"}, ("Bestiary",))
    assert not bridge.leads_elsewhere({"Bestiary"}, ("Bestiary",))
    assert not bridge.leads_elsewhere(set(), ("Bestiary",))


def test_bridge_factor_orders_the_signals():
    base = scoring.bridge_factor(leads_elsewhere=True, category=False, in_evidence=False)
    assert base == 1.0
    assert scoring.bridge_factor(False, False, False) == scoring.LOCAL_ONLY < base
    assert scoring.bridge_factor(True, True, False) == pytest.approx(1 + scoring.CATEGORY_BONUS)
    assert scoring.bridge_factor(True, False, True) == pytest.approx(1 + scoring.EVIDENCE_BONUS)
    assert scoring.bridge_factor(True, True, True) > scoring.bridge_factor(True, True, False)


# -- together, on a shelf ------------------------------------------------------------------------

SHELF = {
    # the conditions and spells of RETRIEVE_SHELF (tests/conftest.py), and a bestiary whose book defines
    # something of its own that the wraith mentions (Grave Chill)
    **{name: text for name, text in RETRIEVE_SHELF.items() if name != "bestiary.md"},
    "bestiary.md": ("# Bestiary\n\n## Creatures\n\n### Rime Wraith\n\n"
                    "Every victim of its touch is Chilled. Its Grave Chill aura follows it.\n\n"
                    "When it cannot close the distance, the Rime Wraith casts Frost Lance.\n\n"
                    "### Snow Hare\n\nA Snow Hare flees any Rime Wraith and its Grave Chill.\n\n"
                    "## Traits\n\n### Grave Chill\n\nGrave Chill is the cold that clings to the dead.\n\n"
                    "### Swift\n\nA Swift creature moves twice.\n"),
}


@pytest.fixture
def generic_shelf(cli, tmp_path, index_dir):
    rebuild_books(cli, tmp_path, SHELF)
    from crossbook.storage.db import open_db

    db = open_db(index_dir)
    wraith_id, text = db.execute(
        "SELECT id, text FROM chunks WHERE kind = 'parent' AND heading_path LIKE '%> Rime Wraith'").fetchone()
    child = db.execute("SELECT id FROM chunks WHERE parent_id = ? ORDER BY ordinal", [wraith_id]).fetchone()[0]
    seed = search.Passage(chunk_id=wraith_id, book="Bestiary", section="Bestiary > Creatures > Rime Wraith",
                         score=0.5, similarity=0.5, hop_score=0.5, hop=1, child_id=child, text=text,
                         path_books=("Bestiary",), found_at=[1])
    return db, seed, {wraith_id: [(child, 0.5)]}


def weights(db, seed, matched, question: str = "") -> dict[str, float]:
    from crossbook.query.question import parse_question

    return {f.name: f.weight for f in rules.weigh_entities(db, [seed], matched, parse_question(question))}


def test_an_entity_only_the_seed_book_defines_is_the_topic_not_the_bridge(generic_shelf):
    db, seed, matched = generic_shelf
    plain = weights(db, seed, matched)
    assert {"Chilled", "Frost Lance", "Grave Chill"} <= set(plain)
    # all three are named in the one matched child; Grave Chill is the Bestiary's own
    assert plain["Grave Chill"] < plain["Chilled"] and plain["Grave Chill"] < plain["Frost Lance"]


def test_a_question_asking_for_a_kind_lifts_the_entities_filed_under_it(generic_shelf):
    db, seed, matched = generic_shelf
    plain = weights(db, seed, matched)
    asked = weights(db, seed, matched, "Which condition does the wraith's touch leave, and for how long?")
    assert asked["Chilled"] > asked["Frost Lance"]
    assert asked["Chilled"] / plain["Chilled"] > asked["Frost Lance"] / plain["Frost Lance"]
    spell = weights(db, seed, matched, "How much Ember does that spell cost?")
    assert spell["Frost Lance"] > spell["Chilled"]


def test_the_sentence_the_question_describes_names_the_bridge(generic_shelf):
    db, seed, matched = generic_shelf
    # no kind asked: only the evidence sentence tells Frost Lance from Chilled
    asked = weights(db, seed, matched, "What happens when the wraith cannot close the distance?")
    plain = weights(db, seed, matched)
    # one seed: its best sentence is also the best over every seed (tests/query/test_retrieve_best_sentence.py)
    assert asked["Frost Lance"] / plain["Frost Lance"] == pytest.approx(
        (1 + scoring.EVIDENCE_BONUS) * (1 + rules.BEST_BONUS))
    assert asked["Chilled"] == pytest.approx(plain["Chilled"])


def test_a_section_hop_1_found_is_reached_again_through_the_bridge(generic_shelf, index_dir, monkeypatch):
    """When every section is a hop-1 seed (a small shelf, or a question close to both), the
    bridge's definition must still be credited by hop 2, so the fusion lifts it above
    sections only one hop found."""
    from crossbook.core.config import load_settings
    from crossbook.vectors.chroma import open_vectors

    monkeypatch.setattr(rules, "SEEDS_PER_HOP", 50)
    db, _, _ = generic_shelf
    settings = load_settings({"index_dir": index_dir}, {"CROSSBOOK_EMBEDDER": "hash"}, None)
    with open_vectors(settings, db) as vectors:
        result = rules.retrieve(vectors, db, "What does the spell the Rime Wraith casts cost?", k=10)
    ranked = [p.section for p in result["results"]]
    lance = next(p for p in result["results"] if p.section.endswith("> Frost Lance"))
    assert lance.found_at == [1, 2] and lance.via is not None and lance.via.entity == "Frost Lance"
    assert ranked.index(lance.section) <= 1


def test_what_a_query_remembers_is_read_again_once_the_index_changes(generic_shelf, cli):
    """Definitions and the section count are kept between queries on one open index; a
    change by another process (here the CLI's own connection) is seen at the next query."""
    from crossbook.query import entity_graph as graph

    db, _, _ = generic_shelf
    [lance] = [r[0] for r in db.execute("SELECT id FROM entities WHERE name = 'Frost Lance'")]
    sections = graph.section_count(db)
    assert [d.book for d in graph.definitions(db, [lance])[lance]] == ["Grimoire"]
    assert cli("delete-book", "Grimoire").exit_code == 0
    assert graph.definitions(db, [lance]) == {}
    assert graph.section_count(db) < sections
