"""`review adjust`: the relationship keeps its id, an unknown type is refused, decisions
add up (a flip after a type change keeps the type), and the adjusted edge is validated
against the ontology's type-pair constraints like any other."""

import json

import pytest

from tests.fakes import completion_body, relations_responder
from tests.helpers import BOOK_A, BOOK_B, write

# only an item inflicts a term (the generic pack's types)
CONSTRAINTS = """
name = "strict"
[types.inflicts]
mirror = "inflicted_by"
[[constraints]]
type = "inflicts"
source = ["item"]
target = ["term"]
"""
TYPES = {"Frost Lance": "item", "Chilled": "term"}


def typed_responder(request):
    """The scripted model of test_relations_openai, naming Frost Lance an item and Chilled a term."""
    status, headers, body = relations_responder(request)
    answer = json.loads(body["choices"][0]["message"]["content"])
    for entity in answer["entities"]:
        entity["type"] = TYPES.get(entity["name"], entity["type"])
    return status, headers, completion_body(json.dumps(answer))


@pytest.fixture
def edge(cli, cli_json, tmp_path, scripted_openai, monkeypatch):
    """The Grimoire's suggested 'Frost Lance inflicts Chilled' (ready), with the strict pack;
    Core Rules states it too (a row with a lower id)."""
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    scripted_openai.responder = typed_responder
    args = ["--extractor", "openai", "--base-url", scripted_openai.base_url, "--model", "scripted",
            "--ontology", write(tmp_path / "strict.toml", CONSTRAINTS)]
    for name, text in (("a.md", BOOK_A), ("b.md", BOOK_B)):
        result = cli("ingest", write(tmp_path / name, text), *args)
        assert result.exit_code == 0, result.stderr
    [row] = [r for r in cli_json("review") if r["book"] == "Grimoire"]
    assert (row["source"], row["relation_type"], row["target"], row["status"]) == (
        "Frost Lance", "inflicts", "Chilled", "ready")
    return row


def _triple(row):
    return row["source"], row["relation_type"], row["target"]


def test_adjust_keeps_the_id(edge, cli_json):
    ids = {r["book"]: r["id"] for r in cli_json("relations")}
    for book in ("Core Rules", "Grimoire"):  # the lower id first: a new row would get another
        adjusted = cli_json("review", "adjust", ids[book], "--type", "counters")
        assert adjusted["id"] == ids[book] and _triple(adjusted) == ("Frost Lance", "counters", "Chilled")
        flipped = cli_json("review", "adjust", ids[book], "--flip")
        assert flipped["id"] == ids[book]
    assert {r["book"]: r["id"] for r in cli_json("relations")} == ids


def test_an_unknown_type_is_refused(edge, cli, cli_json):
    result = cli("review", "adjust", edge["id"], "--type", "bogus")
    assert result.exit_code == 1 and result.stdout == ""
    assert "unknown relation type 'bogus'" in result.stderr and "counters" in result.stderr
    [row] = cli_json("relations", "--book", "Grimoire")
    assert row["relation_type"] == "inflicts" and row["review_state"] == "suggested"
    # an explicit custom: type is a deliberate choice
    custom = cli_json("review", "adjust", edge["id"], "--type", "custom:chills")
    assert custom["relation_type"] == "custom:chills"


def test_a_flip_after_a_type_change_keeps_the_type(edge, cli_json):
    cli_json("review", "adjust", edge["id"], "--type", "counters")
    flipped = cli_json("review", "adjust", edge["id"], "--flip")
    assert _triple(flipped) == ("Chilled", "counters", "Frost Lance")
    # and a type change after a flip keeps the direction shown
    retyped = cli_json("review", "adjust", edge["id"], "--type", "requires")
    assert _triple(retyped) == ("Chilled", "requires", "Frost Lance")
    back = cli_json("review", "adjust", edge["id"], "--flip")
    assert _triple(back) == ("Frost Lance", "requires", "Chilled")


def test_an_inverse_type_reads_from_the_row_as_shown(edge, cli_json):
    # "Frost Lance inflicted_by Chilled" is stored in the canonical direction
    row = cli_json("review", "adjust", edge["id"], "--type", "inflicted_by")
    assert _triple(row) == ("Chilled", "inflicts", "Frost Lance")
    again = cli_json("review", "adjust", edge["id"], "--flip")
    assert _triple(again) == ("Frost Lance", "inflicts", "Chilled")


def test_an_adjusted_edge_is_validated_against_the_constraints(edge, cli, cli_json):
    result = cli("review", "adjust", edge["id"], "--flip", "--json")
    assert result.exit_code == 0
    row = json.loads(result.stdout)
    assert _triple(row) == ("Chilled", "inflicts", "Frost Lance")
    assert (row["status"], row["status_reason"]) == ("invalid", "invalid_type_pair")
    assert "Warning:" in result.stderr and "invalid_type_pair" in result.stderr
    # an invalid adjusted edge is not shown as related or exported until it is accepted
    detail = cli_json("entity", "Chilled")["entities"][0]
    assert all(r["relationship"] != "inflicts" or r["direction"] != "outgoing" for r in detail["related"])
    accepted = cli_json("review", "accept", edge["id"])
    assert _triple(accepted) == ("Chilled", "inflicts", "Frost Lance")  # accepting keeps the adjustment
    assert accepted["review_state"] == "accepted" and accepted["id"] == edge["id"]


def test_interactive_adjust_with_a_mistyped_type_skips_that_one(edge, cli, cli_json):
    result = cli("review", "--interactive", "--book", "grimoire", "--json", input="j\nbogus\nn\n")
    assert result.exit_code == 0, result.stderr
    assert "unknown relation type 'bogus'" in result.stderr and f"relationship {edge['id']} skipped" in result.stderr
    assert [r["review_state"] for r in cli_json("relations", "--book", "grimoire")] == ["suggested"]
