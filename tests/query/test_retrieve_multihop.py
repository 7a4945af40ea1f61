"""Multi-hop retrieval: every result says how it was reached, the path is real, and each
ranking rule of index/query/retrieve.py holds on a small fixture."""

from __future__ import annotations

import pytest

from crossbook.core.packs import load_pack
from crossbook.query import question, scoring, search
from crossbook.query import retrieve as rules
from crossbook.query.entity_graph import personalized_pagerank
from tests.conftest import RETRIEVE_SHELF as SHELF
from tests.conftest import SAMPLE
from tests.helpers import rebuild_books

QUESTION = "How much Ember does the spell the Frost Wyrm hurls at anything approaching its lair cost?"


@pytest.fixture
def sample_index(cli):
    result = cli("rebuild", SAMPLE / "crossbook.toml")
    assert result.exit_code == 0, result.stderr


# -- the CLI contract --------------------------------------------------------------------------

def test_retrieve_json_gives_the_provenance_of_every_result(sample_index, cli_json):
    result = cli_json("retrieve", QUESTION, "--hops", "2", "-k", "10")
    assert result["queries"][0] == {"hop": 1, "query": QUESTION, "book": None}
    results = result["results"]
    assert 0 < len(results) <= 10
    assert [r["score"] for r in results] == sorted((r["score"] for r in results), reverse=True)
    hop2 = [r for r in results if r["hop"] == 2]
    assert hop2, "the second hop found nothing"
    followed = {(f["entity"], f["from_chunk"]) for f in result["followed"]}
    for r in results:
        assert {"chunk_id", "book", "section", "score", "similarity", "hop", "child_id", "via"} <= set(r)
        assert r["hop"] in r["found_at"] and r["found_at"] == sorted(set(r["found_at"]))
        if r["hop"] == 1:
            assert r["via"] is None
            continue
        via = r["via"]
        # reached from a seed of another book that really mentions the entity ...
        assert via["from_book"] != r["book"]
        assert via["from_chunk"] in result["seeds"]
        assert (via["entity"], via["from_chunk"]) in followed
        where = cli_json("where-else", via["entity"])
        sections = {(m["book"], m["chunk_id"], m["mention_type"])
                    for e in where["entities"] for g in e["books"] for m in g["mentions"]}
        assert any(c == via["from_chunk"] for _, c, _ in sections)
        # ... into a section the index says mentions it, the way it says
        assert (r["book"], r["chunk_id"], via["mention_type"]) in sections
        assert r["defines"] == (via["mention_type"] == "defines")
        # its hop score is the rule's, from its own similarity and the entity's weight
        assert r["hop_score"] == pytest.approx(
            scoring.hop_score(r["similarity"], via["weight"], r["defines"]), abs=2e-4)


def test_hops_1_is_plain_search(sample_index, cli_json):
    one = cli_json("retrieve", QUESTION, "--hops", "1", "-k", "5")["results"]
    plain = cli_json("search", QUESTION, "-k", "5")["results"]
    assert [r["chunk_id"] for r in one] == [r["chunk_id"] for r in plain]
    assert {r["hop"] for r in one} == {1}


def test_retrieve_book_filter_keeps_every_hop_inside_the_books(sample_index, cli_json):
    books = ["Bestiary of the Shattered Vale", "The Ashen Grimoire"]
    results = cli_json("retrieve", QUESTION, "--book", books[0], "--book", books[1])["results"]
    assert results and {r["book"] for r in results} <= set(books)
    assert any(r["hop"] == 2 for r in results)


def test_retrieve_rejects_bad_arguments(sample_index, cli):
    assert cli("retrieve", "").exit_code == 1
    assert cli("retrieve", "x", "--hops", "0").exit_code == 2


# -- the ranking rules, one at a time ----------------------------------------------------------

def test_specificity_is_an_idf_over_sections():
    assert scoring.specificity(1, 1000) == 1.0
    assert scoring.specificity(1000, 1000) == 0.0
    # an entity mentioned in 3 sections is followed before one mentioned in 300
    assert scoring.specificity(3, 1000) > scoring.specificity(30, 1000) > scoring.specificity(300, 1000) > 0


def test_an_entity_named_in_the_matched_child_outweighs_one_only_in_the_section():
    in_child = scoring.entity_weight(0.5, True, 0.8, 0.0)
    in_parent = scoring.entity_weight(0.5, False, 0.8, 0.0)
    assert in_child > in_parent > 0
    # the hop-1 evidence scales the weight: a better-matching child, a stronger entity
    assert scoring.entity_weight(0.7, True, 0.8, 0.0) > in_child


def test_a_specific_entity_outweighs_a_common_one_from_the_same_child():
    common = scoring.entity_weight(0.6, True, scoring.specificity(400, 2000), 0.0)
    specific = scoring.entity_weight(0.6, True, scoring.specificity(3, 2000), 0.0)
    assert specific > 2 * common


def test_the_question_naming_a_type_prefers_entities_of_that_type():
    pack = load_pack(str(SAMPLE / "emberfall.pack.toml"))
    types = question.question_types("How long does the condition caused by the Gloom Hound's howl last?", pack)
    assert types["condition"] == 1.0
    assert "creature" not in types and "other" not in types
    # a plural names it too; a cue word alone counts for less
    assert question.question_types("Which spells does it cast?", pack)["spell"] == 1.0
    cue_only = question.question_types("What does the Frost Wyrm carry?", pack)
    assert cue_only == {"equipment": question.CUE_SHARE}
    assert scoring.entity_weight(0.5, True, 0.8, 1.0) > scoring.entity_weight(0.5, True, 0.8, question.CUE_SHARE) \
        > scoring.entity_weight(0.5, True, 0.8, 0.0)


def test_short_cue_words_say_nothing():
    pack = load_pack("generic")  # its person cues are "he", "she", "who"
    assert question.question_types("Who is he?", pack) == {}


def test_a_hop2_section_combines_its_own_similarity_with_the_hop1_evidence():
    # the bridge's definition is far from the question, yet a strong hop-1 path lifts it
    # above a section that is merely a little more similar
    assert scoring.hop_score(0.25, 0.6, defines=True) > 0.40
    assert scoring.hop_score(0.3, 0.5, True) > scoring.hop_score(0.3, 0.5, False) > 0.3
    assert scoring.hop_score(0.4, 0.5, True) > scoring.hop_score(0.3, 0.5, True)
    assert scoring.hop_score(0.3, 0.6, True) > scoring.hop_score(0.3, 0.5, True)


def test_rank_fusion_leads_with_the_best_of_each_hop_and_lifts_agreement():
    hop1 = ["a", "b", "c", "d"]
    hop2 = ["x", "c", "y"]
    fused = scoring.rank_fusion([hop1, hop2], k=1)
    order = sorted(fused, key=lambda item: -fused[item])
    assert order[:3] == ["c", "a", "x"] or order[:3] == ["c", "x", "a"]
    assert fused["a"] == fused["x"] > fused["b"] > fused["y"]


def test_question_names_are_runs_of_capitalized_words():
    names = question.question_names("How much Ember does the spell the Frost Wyrm's breath cost, in the Book of Ash?")
    assert names[0] in ("frost_wyrm", "book_of_ash")
    assert {"frost_wyrm", "ember", "book_of_ash", "ash"} <= set(names)
    assert "spell" not in names and "of_ash" not in names


def test_a_question_naming_an_entity_seeds_its_definition(sample_index, index_dir):
    from crossbook.core.config import load_settings
    from crossbook.storage.db import open_db
    from crossbook.vectors.chroma import open_vectors

    settings = load_settings({"index_dir": index_dir}, {"CROSSBOOK_EMBEDDER": "hash"}, None)
    db = open_db(index_dir)
    with open_vectors(settings, db) as vectors:
        asked = "Which condition does the Gloom Hound cause?"
        linked, matched = rules.linked_seeds(vectors, db, question.parse_question(asked),
                                             vectors.embedder.embed([asked])[0], (), set())
        result = rules.retrieve(vectors, db, asked, k=10)
    assert [p.section for p in linked][:1] == ["Bestiary of the Shattered Vale > Creatures > Gloom Hound"]
    assert linked[0].chunk_id in matched and linked[0].chunk_id in result["seeds"]


def test_names_in_matches_whole_normalized_words():
    assert question.names_in("The Frost Wyrm casts Frost Lance at anything.", {"frost_lance"})
    assert not question.names_in("A frosty lance of ice.", {"frost_lance"})
    assert not question.names_in("Shields up", {"shield"})


@pytest.fixture
def wraith_index(cli, tmp_path):
    rebuild_books(cli, tmp_path, SHELF, pack=SAMPLE / "emberfall.pack.toml")


def test_weigh_entities_follows_what_the_matched_child_names(wraith_index, index_dir):
    from crossbook.storage.db import open_db

    db = open_db(index_dir)
    wraith_id, wraith_text = db.execute(
        "SELECT id, text FROM chunks WHERE kind = 'parent' AND heading_path LIKE '%> Rime Wraith'").fetchone()
    children = dict(db.execute("SELECT id, text FROM chunks WHERE parent_id = ? ORDER BY ordinal", [wraith_id]))
    lance_child = next(cid for cid, text in children.items() if "Frost Lance" in text)
    assert "Chilled" not in children[lance_child], "the fixture needs Chilled outside the matched child"
    seed = search.Passage(chunk_id=wraith_id, book="Bestiary", section="Rime Wraith", score=0.5,
                         similarity=0.5, hop_score=0.5, hop=1, child_id=lance_child, text=wraith_text,
                         path_books=("Bestiary",), found_at=[1])
    matched = {wraith_id: [(lance_child, 0.5)]}
    from dataclasses import replace

    from crossbook.query.question import parse_question

    weights = {f.name: f.weight for f in rules.weigh_entities(db, [seed], matched, parse_question(""))}
    # both are mentioned once in another book: only the matched child tells them apart
    assert weights["Frost Lance"] > weights["Chilled"] > 0
    # a question that asks for a condition lifts the condition, and only it
    asking = replace(parse_question(""), kinds={"condition": 1.0})
    as_condition = {f.name: f.weight for f in rules.weigh_entities(db, [seed], matched, asking)}
    assert as_condition["Chilled"] == pytest.approx(weights["Chilled"] * (1 + scoring.TYPE_BONUS))
    assert as_condition["Frost Lance"] == weights["Frost Lance"]


def test_personalized_pagerank_spreads_from_the_seeds_through_specific_links():
    # seed s1 mentions a specific entity (one other section) and a common one (three)
    edges: dict[str, dict[str, float]] = {}
    for a, b, w in [("s1", "e_specific", 1.0), ("e_specific", "t1", 1.0),
                    ("s1", "e_common", 1.0), ("e_common", "t2", 1.0), ("e_common", "t3", 1.0),
                    ("e_common", "t4", 1.0)]:
        edges.setdefault(a, {})[b] = w
        edges.setdefault(b, {})[a] = w
    rank = personalized_pagerank(edges, {"s1": 1.0}, damping=0.5)
    assert sum(rank.values()) == pytest.approx(1.0)
    assert rank["t1"] > rank["t2"] == pytest.approx(rank["t3"])
    assert rank["s1"] == max(rank.values())
    assert personalized_pagerank(edges, {}) == {}


def test_ppr_ranking_keeps_the_provenance(sample_index, cli, index_dir):
    from crossbook.core.config import load_settings
    from crossbook.storage.db import open_db
    from crossbook.vectors.chroma import open_vectors

    settings = load_settings({"index_dir": index_dir}, {"CROSSBOOK_EMBEDDER": "hash"}, None)
    db = open_db(index_dir)
    with open_vectors(settings, db) as vectors:
        result = rules.retrieve(vectors, db, QUESTION, k=10, ranking="ppr")
        with pytest.raises(rules.BadInput):
            rules.retrieve(vectors, db, QUESTION, ranking="magic")
    hop2 = [p for p in result["results"] if p.hop == 2]
    assert hop2 and all(p.via is not None and p.via.from_book != p.book for p in hop2)
