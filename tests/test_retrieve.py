"""Multi-hop retrieval: every result says how it was reached, and the path is real."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLE

QUESTION = "How much Ember does the spell the Frost Wyrm hurls at anything approaching its lair cost?"


@pytest.fixture
def sample_index(cli):
    result = cli("rebuild", SAMPLE / "crossbook.toml")
    assert result.exit_code == 0, result.stderr


def test_retrieve_json_gives_the_provenance_of_every_result(sample_index, cli_json):
    result = cli_json("retrieve", QUESTION, "--hops", "2", "-k", "10")
    assert result["queries"][0] == {"hop": 1, "query": QUESTION, "book": None}
    results = result["results"]
    assert 0 < len(results) <= 10
    assert [r["score"] for r in results] == sorted((r["score"] for r in results), reverse=True)
    hop2 = [r for r in results if r["hop"] == 2]
    assert hop2, "the second hop found nothing"
    for r in results:
        assert {"chunk_id", "book", "section", "score", "similarity", "hop", "child_id", "via"} <= set(r)
        assert r["hop"] in r["found_at"] and r["found_at"] == sorted(set(r["found_at"]))
        if r["hop"] == 1:
            assert r["via"] is None
            continue
        via = r["via"]
        # reached from a section of another book that really mentions the entity ...
        assert via["from_book"] != r["book"]
        where = cli_json("where-else", via["entity"])
        sections = {(m["book"], m["chunk_id"], m["mention_type"])
                    for e in where["entities"] for g in e["books"] for m in g["mentions"]}
        assert any(c == via["from_chunk"] for _, c, _ in sections)
        # ... by a book-filtered query built from the entity name and the question
        assert via["query"].startswith(via["entity"]) and QUESTION in via["query"]
        assert {"hop": 2, "query": via["query"], "book": r["book"], "entity": via["entity"]} in result["queries"]
        # "defines" is what the index says about this book
        assert (via["mention_type"] == "defines") == any(
            b == r["book"] and t == "defines" for b, _, t in sections)
        if r["defines"]:
            assert (r["book"], r["chunk_id"], "defines") in sections


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
