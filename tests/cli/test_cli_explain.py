"""``crossbook explain``: the rule that stored each mention of a name, the vetoes that dropped
the candidates that could have defined it; its JSON shape and its exit codes."""

from __future__ import annotations

import json

from crossbook.api import shapes
from crossbook.storage.db import open_db
from tests.helpers import write

BOOK = """# Grimoire

## Introduction

The Grimoire holds spells and their skills.

## Spells

### Frost Lance

A bolt of ice.

**Overcome:** roll Lore.

### Ember Ward

A ward of fire.

**Overcome:** roll Will.

### Stone Skin

Your skin turns hard.

**Overcome:** roll Might.

## Skills

**Overcome:** a skill's first action, rolled against a difficulty.
"""
OTHER = "# Bestiary\n\n## Rime Wraith\n\nThe Rime Wraith casts Frost Lance when it cannot close the distance.\n"


def _ingest(tmp_path, cli_json) -> None:
    cli_json("ingest", write(tmp_path / "grimoire.md", BOOK), write(tmp_path / "bestiary.md", OTHER),
             "--relations", "off")


def test_each_mention_names_its_rule_and_each_veto_its_rule(tmp_path, cli_json):
    _ingest(tmp_path, cli_json)
    lance = cli_json("explain", "frost lance")
    stored = {(m["book"], m["mention_type"], m["rule"]) for m in lance["mentions"]}
    assert ("Grimoire", "defines", "catalog_entry") in stored
    assert ("Bestiary", "references", "as_written") in stored
    overcome = cli_json("explain", "Overcome")
    assert overcome["mentions"] == []
    assert {v["rule"] for v in overcome["vetoes"]} == {"repeated_lead"} and overcome["vetoed_by"]["repeated_lead"] >= 3
    assert {v["stage"] for v in overcome["vetoes"]} == {"entries"}
    spells = cli_json("explain", "Spells", "--book", "grim")
    assert {(v["stage"], v["rule"]) for v in spells["vetoes"]} == {("headings", "category_heading")}
    intro = cli_json("explain", "Introduction")
    assert intro["vetoed_by"] == {"stop_heading": 1}


def test_its_json_is_one_shape_and_a_name_no_rule_met_is_exit_1(tmp_path, cli, cli_json):
    from tests.api.test_api_shapes import mismatches

    _ingest(tmp_path, cli_json)
    assert mismatches(cli_json("explain", "Frost Lance"), shapes.ExplanationDoc) == []
    result = cli("explain", "Glacier Step", "--json")
    assert result.exit_code == 1 and json.loads(result.stdout)["error"]["code"] == "entity_not_found"
    plain = cli("explain", "Glacier Step")
    assert plain.exit_code == 1 and plain.stdout == ""
    assert [line for line in plain.stderr.splitlines() if line] == [
        "Error: 'Glacier Step' is neither stored nor vetoed: no rule met it (see: crossbook entities, or ingest the"
        " book again to record its vetoes)"]


def test_a_deleted_books_vetoes_go_with_it(tmp_path, cli_json, index_dir):
    _ingest(tmp_path, cli_json)
    cli_json("delete-book", "Grimoire")
    db = open_db(index_dir)
    assert db.execute("SELECT count(*) FROM rule_vetoes WHERE book = 'Grimoire'").fetchone()[0] == 0
