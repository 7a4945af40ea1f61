"""The relationship commands: relations, review (scripted and interactive), export, entity
detail's related table, books' drop counts, the warning and the events of ingest."""

import json

import networkx
import pytest

from tests.fakes import relations_responder
from tests.helpers import BOOK_A, BOOK_B, write


@pytest.fixture
def rel_index(cli, tmp_path, scripted_openai, monkeypatch):
    """Core Rules then Grimoire, ingested through the CLI with the scripted model; returns
    the first ingest's result (its stderr carries the warnings)."""
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    scripted_openai.responder = relations_responder
    args = ["--extractor", "openai", "--base-url", scripted_openai.base_url, "--model", "scripted"]
    first = cli("ingest", write(tmp_path / "a.md", BOOK_A), *args)
    events = tmp_path / "events.ndjson"
    second = cli("ingest", write(tmp_path / "b.md", BOOK_B), *args, "--events", events)
    assert first.exit_code == 0 and second.exit_code == 0, second.stderr
    return first, events


def test_ingest_warns_about_unresolved_endpoints_and_writes_relation_events(rel_index):
    first, events = rel_index
    # Frost Lance is not defined yet when Core Rules is ingested
    assert "Warning: Skipping relationship causes from Frost Lance to Chilled: One or both entities not found." in first.stderr
    lines = [json.loads(line) for line in events.read_text().splitlines()]
    kinds = [(e["event"], e.get("phase")) for e in lines]
    for expected in [("phase.start", "extract"), ("phase.start", "relation_discovery"), ("relation.candidate", None),
                     ("phase.done", "relation_discovery"), ("phase.start", "relation_normalize"),
                     ("relation.normalized", None), ("phase.done", "relation_normalize")]:
        assert expected in kinds, expected
    assert kinds.index(("phase.start", "relation_discovery")) < kinds.index(("relation.candidate", None)) < \
        kinds.index(("phase.done", "relation_discovery")) < kinds.index(("relation.normalized", None))
    candidate = next(e for e in lines if e["event"] == "relation.candidate")
    assert (candidate["source"], candidate["relation_type"], candidate["target"]) == ("Chilled", "inflicted_by", "Frost Lance")
    normalized = next(e for e in lines if e["event"] == "relation.normalized")
    assert (normalized["source"], normalized["relation_type"], normalized["target"], normalized["status"]) == (
        "frost_lance", "inflicts", "chilled", "ready")


def test_relations_command_filters(rel_index, cli_json, cli):
    rows = cli_json("relations")
    assert {(r["source"], r["relation_type"], r["target"], r["book"]) for r in rows} == {
        ("Frost Lance", "inflicts", "Chilled", "Core Rules"), ("Frost Lance", "inflicts", "Chilled", "Grimoire")}
    assert len(cli_json("relations", "--type", "LEAVES")) == 2   # an alias selects its type
    assert [r["book"] for r in cli_json("relations", "--book", "Grimoire")] == ["Grimoire"]
    assert cli_json("relations", "--status", "invalid") == []
    bad = cli("relations", "--status", "maybe")
    assert bad.exit_code == 2 and bad.stdout == ""  # a usage error
    assert "Error: Invalid value for '--status': unknown status 'maybe'" in bad.stderr
    text = cli("relations")
    assert "Frost Lance" in text.stdout and "inflicts" in text.stdout


def test_review_accept_reject_adjust_by_id(rel_index, cli_json, cli):
    suggested = cli_json("review")
    assert len(suggested) == 2 and {r["review_state"] for r in suggested} == {"suggested"}
    core, grimoire = sorted(suggested, key=lambda r: r["book"])
    assert cli_json("review", "accept", core["id"])["review_state"] == "accepted"
    adjusted = cli_json("review", "adjust", grimoire["id"], "--type", "counters", "--flip")
    assert (adjusted["source"], adjusted["relation_type"], adjusted["target"], adjusted["review_state"]) == (
        "Chilled", "counters", "Frost Lance", "adjusted")
    assert cli_json("review") == []
    rejected = cli_json("review", "reject", adjusted["id"])
    assert rejected["review_state"] == "rejected"
    states = {r["book"]: r["review_state"] for r in cli_json("relations")}
    assert states == {"Core Rules": "accepted", "Grimoire": "rejected"}
    missing = cli("review", "accept", "999999")
    assert missing.exit_code == 1 and "no relationship with id 999999" in missing.stderr
    nothing = cli("review", "adjust", core["id"])
    assert nothing.exit_code == 1 and "adjust needs --type" in nothing.stderr


def test_review_interactive(rel_index, cli, cli_json):
    ids = sorted((r["book"], r["id"]) for r in cli_json("review"))
    result = cli("review", "--interactive", "--json", input="r\nj\ncast_by\nn\n")
    assert result.exit_code == 0, result.stderr
    # CliRunner echoes the typed input to its stdout (a terminal would); the result follows it
    decisions = json.loads(result.stdout[result.stdout.index("[\n"):])
    assert [d["review_state"] for d in decisions] == ["rejected", "adjusted"]
    # cast_by is the inverse of casts: the adjusted relationship is stored as casts, flipped
    assert (decisions[1]["source"], decisions[1]["relation_type"], decisions[1]["target"]) == (
        "Chilled", "casts", "Frost Lance")
    assert "accept, reject, adjust, skip or quit" in result.stderr
    assert {r["id"] for r in cli_json("relations") if r["review_state"] == "rejected"} == {ids[0][1]}
    assert cli_json("review") == []


def test_export_round_trips_through_networkx(rel_index, cli, cli_json, tmp_path):
    out = tmp_path / "graph.graphml"
    summary = cli_json("export", "--format", "graphml", "-o", out)
    assert summary == {"format": "graphml", "path": str(out), "nodes": 2, "edges": 1}
    graph = networkx.read_graphml(out)
    assert graph.is_directed() and graph.number_of_nodes() == 2 and graph.number_of_edges() == 1
    names = {n: d["name"] for n, d in graph.nodes(data=True)}
    [(source, target, data)] = list(graph.edges(data=True))
    assert (names[source], data["relation_type"], names[target]) == ("Frost Lance", "inflicts", "Chilled")
    assert data["count"] == 2 and data["books"] == "Core Rules; Grimoire" and isinstance(data["confidence"], float)
    jsonl = cli("export", "--format", "jsonl")
    lines = [json.loads(line) for line in jsonl.stdout.splitlines()]
    assert [line["kind"] for line in lines] == ["node", "node", "edge", "edge"]
    assert {"source", "target", "relation_type", "evidence", "book", "chunk_id", "status", "review_state"} <= set(lines[2])
    bad = cli("export", "--format", "dot")
    assert bad.exit_code == 2 and "unknown export format 'dot'" in bad.stderr


def test_entity_detail_has_the_related_entities_table(rel_index, cli, cli_json):
    [chilled] = cli_json("entity", "Chilled")["entities"]
    assert chilled["related"] == [{
        "entity": {"id": chilled["related"][0]["entity"]["id"], "name": "Frost Lance", "entity_type": "other"},
        "relationship": "inflicts", "reads_as": "inflicted_by", "direction": "incoming",
        "polarity": "asserted", "arrow": "Frost Lance → Chilled", "count": 2}]
    # on Chilled's page the edge keeps its stated verb and real direction (seed 003's table)
    chilled_text = cli("entity", "Chilled").stdout
    assert "inflicts" in chilled_text and "Frost Lance → Chilled" in chilled_text and "inflicted_by" not in chilled_text
    text = cli("entity", "Frost Lance").stdout
    assert "related to" in text and "inflicts" in text and "Frost Lance → Chilled" in text


def test_books_shows_relation_drop_reasons(rel_index, cli_json):
    books = {b["title"]: b for b in cli_json("books")}
    assert books["Core Rules"]["relation_drop_reasons"] == {"malformed_relation": 1, "unknown_entity_id": 1}
    assert books["Core Rules"]["relationships"] == 1 and books["Grimoire"]["dropped_relations"] == 0


def test_offline_ingest_events_on_stdout_include_spacy_candidates(tmp_path, cli):
    book_a = write(tmp_path / "a.md", BOOK_A)
    # a plain subject-verb-object sentence the offline parser reads as Frost Lance -> Chilled
    book_b = write(tmp_path / "b.md", BOOK_B.replace("It leaves the target Chilled.", "Frost Lance inflicts Chilled on its target."))
    result = cli("ingest", book_a, book_b, "--relations", "spacy", "--events", "-")
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]  # every line is one JSON event
    assert lines[-1]["event"] == "result" and [r["title"] for r in lines[-1]["result"]] == ["Core Rules", "Grimoire"]
    candidates = [e for e in lines if e["event"] == "relation.candidate"]
    assert candidates and {c["extractor"] for c in candidates} == {"spacy"}
    assert any((c["source"], c["target"]) == ("Frost Lance", "Chilled") for c in candidates)
    normalized = [e for e in lines if e["event"] == "relation.normalized"]
    assert any(e["relation_type"] == "inflicts" and e["mapped_from"] for e in normalized), normalized
    phases = [(e["event"], e["phase"]) for e in lines if e["event"].startswith("phase.")]
    assert ("phase.start", "extract") in phases and ("phase.done", "write") in phases
    assert "Core Rules: added" in result.stderr  # the text summary moved to stderr


def test_a_denied_relationship_never_reads_as_an_assertion(tmp_path, cli, cli_json):
    import networkx

    book_b = write(tmp_path / "b.md", BOOK_B.replace(
        "It leaves the target Chilled.", "Frost Lance does not inflict Chilled on its target."))
    assert cli("ingest", write(tmp_path / "a.md", BOOK_A), book_b, "--relations", "spacy").exit_code == 0
    rows = cli_json("relations", "--type", "inflicts")
    assert [(r["source"], r["target"], r["polarity"]) for r in rows] == [("Frost Lance", "Chilled", "denied")]
    listing = cli("relations").stdout
    assert "NOT inflicts" in listing
    [chilled] = cli_json("entity", "Chilled")["entities"]
    assert [(r["relationship"], r["polarity"]) for r in chilled["related"]] == [("inflicts", "denied")]
    assert "NOT inflicts" in cli("entity", "Chilled").stdout
    out = tmp_path / "g.graphml"
    cli_json("export", "--format", "graphml", "-o", out)
    [(_, _, data)] = list(networkx.read_graphml(out).edges(data=True))
    assert (data["relation_type"], data["polarity"]) == ("inflicts", "denied")
