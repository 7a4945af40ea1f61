"""The CLI: JSON documents on stdout, messages on stderr, exit codes."""

import json

from crossbook.extract.rules import VERSION as RULES_VERSION
from tests.helpers import BOOK_A, BOOK_B, write


def _pack(tmp_path):
    return write(tmp_path / "pack.toml", """
name = "mini"
[[entity_types]]
name = "spell"
cues = ["cast", "casts", "casters", "spell"]
[[entity_types]]
name = "equipment"
cues = ["wield", "armor"]
[[entity_types]]
name = "condition"
[[entity_types]]
name = "other"
[[heading_rules]]
under = "Spells"
type = "spell"
[[heading_rules]]
under = "Equipment"
type = "equipment"
[[heading_rules]]
under = "Conditions"
type = "condition"
[aliases]
"Frost Lance" = ["Ice Lance"]
""")


def _ingest_both(tmp_path, cli_json):
    a, b = write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)
    return cli_json("ingest", a, b, "--pack", _pack(tmp_path))


def test_ingest_json_reports_each_book(tmp_path, cli_json):
    results = _ingest_both(tmp_path, cli_json)
    assert [(r["title"], r["status"]) for r in results] == [("Core Rules", "added"), ("Grimoire", "added")]
    assert results[0]["sections"] == 6 and results[0]["children"] >= 6


def test_ingest_again_is_an_unchanged_no_op(tmp_path, cli_json):
    _ingest_both(tmp_path, cli_json)
    again = _ingest_both(tmp_path, cli_json)
    assert {r["status"] for r in again} == {"unchanged"}


def test_where_else_groups_by_book_definitions_first(tmp_path, cli_json):
    _ingest_both(tmp_path, cli_json)
    result = cli_json("where-else", "the frost lance")
    [entity] = result["entities"]
    assert (entity["name"], entity["entity_type"]) == ("Frost Lance", "spell")
    assert [g["book"] for g in entity["books"]] == ["Grimoire", "Core Rules"]
    assert entity["books"][0]["mentions"][0]["mention_type"] == "defines"
    ref = entity["books"][1]["mentions"][0]
    assert ref["mention_type"] == "references" and ref["heading_path"] == "Core Rules > Conditions > Chilled"
    assert ref["context"] == "Frost Lance causes it."


def test_same_name_different_types_stay_distinct_and_labelled(tmp_path, cli_json):
    _ingest_both(tmp_path, cli_json)
    result = cli_json("where-else", "Shield")
    assert sorted(e["entity_type"] for e in result["entities"]) == ["equipment", "spell"]
    only_spell = cli_json("where-else", "Shield", "--type", "spell")
    assert [e["entity_type"] for e in only_spell["entities"]] == ["spell"]


def test_where_else_filters(tmp_path, cli_json):
    _ingest_both(tmp_path, cli_json)
    defs = cli_json("where-else", "Frost Lance", "--defines-only")
    assert [m["mention_type"] for g in defs["entities"][0]["books"] for m in g["mentions"]] == ["defines"]
    other = cli_json("where-else", "Frost Lance", "--exclude-book", "Grimoire")
    assert [g["book"] for g in other["entities"][0]["books"]] == ["Core Rules"]
    only = cli_json("where-else", "Frost Lance", "--book", "Grimoire")
    assert [g["book"] for g in only["entities"][0]["books"]] == ["Grimoire"]


def test_where_else_unknown_suggests_and_exits_1(tmp_path, cli, cli_json):
    _ingest_both(tmp_path, cli_json)
    result = cli("where-else", "Frost Lanse")
    assert result.exit_code == 1 and result.stdout == ""
    assert "no entity named 'Frost Lanse'" in result.stderr and "Frost Lance" in result.stderr
    assert "Traceback" not in result.stderr


def test_books_and_entity_json(tmp_path, cli_json):
    _ingest_both(tmp_path, cli_json)
    books = cli_json("books")
    assert [b["title"] for b in books] == ["Core Rules", "Grimoire"]
    core = books[0]
    assert core["sections"] == 6 and core["entities_defined"] == 3 and core["extractor"] == RULES_VERSION
    detail = cli_json("entity", "Chilled")
    [chilled] = detail["entities"]
    assert chilled["definitions"][0]["book"] == "Core Rules"
    assert chilled["references_by_book"] == {"Grimoire": 1}


def test_delete_book_json_and_gc(tmp_path, cli, cli_json):
    _ingest_both(tmp_path, cli_json)
    result = cli_json("delete-book", "Grimoire")
    assert result["deleted"] is True and result["entities_removed"] == 2  # Frost Lance, Shield (spell)
    assert cli("where-else", "Frost Lance").exit_code == 1
    assert [e["entity_type"] for e in cli_json("where-else", "Shield")["entities"]] == ["equipment"]


def test_alias_from_the_pack_links_references(tmp_path, cli_json):
    _ingest_both(tmp_path, cli_json)
    write(tmp_path / "c.md", "# Tales\n\n## The Duel\n\nShe hurled an Ice Lance.\n")
    cli_json("ingest", tmp_path / "c.md", "--pack", _pack(tmp_path))
    result = cli_json("where-else", "Frost Lance", "--book", "Tales")
    assert result["entities"][0]["books"][0]["mentions"][0]["context"] == "She hurled an Ice Lance."


def test_text_output_has_no_ansi_codes_off_a_terminal(tmp_path, cli, cli_json):
    _ingest_both(tmp_path, cli_json)
    result = cli("where-else", "Frost Lance")
    assert result.exit_code == 0 and "\x1b[" not in result.stdout
    assert "Frost Lance (spell)" in result.stdout


def test_rebuild_reconciles_with_the_manifest(tmp_path, cli, cli_json):
    a = write(tmp_path / "a.md", BOOK_A)
    write(tmp_path / "b.md", BOOK_B)
    pack = _pack(tmp_path)
    manifest = write(tmp_path / "crossbook.toml", f'pack = "{pack.name}"\n[[books]]\npath = "a.md"\n[[books]]\npath = "b.md"\ntitle = "Grimoire"\n')
    first = cli_json("rebuild", manifest)
    assert sorted(first["added"]) == ["Core Rules", "Grimoire"] and not first["failed"]
    write(a, BOOK_A.replace("1 Speed", "2 Speed"))
    second = cli_json("rebuild", manifest)
    assert (second["updated"], second["unchanged"]) == (["Core Rules"], ["Grimoire"])
    write(manifest, f'pack = "{pack.name}"\n[[books]]\npath = "a.md"\n[[books]]\npath = "missing.md"\n')
    third = cli("rebuild", manifest, "--json")
    assert third.exit_code == 1
    summary = json.loads(third.stdout)
    assert summary["deleted"] == ["Grimoire"] and summary["unchanged"] == ["Core Rules"]
    assert "missing.md" in summary["failed"][0]["path"]


def test_every_command_has_json_and_help(cli):
    for command in ("ingest", "delete-book", "where-else", "books", "entity", "rebuild"):
        result = cli(command, "--help")
        assert result.exit_code == 0 and "--json" in result.stdout
