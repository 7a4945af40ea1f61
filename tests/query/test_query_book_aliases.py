"""Names a book declares for an entity (``**Frost Lance (Ice Spear):**``, a heading's
"aka", a vault note's ``aliases:``) are stored in entity_aliases; where-else and entity
find the entity by them, as their --help promises ("Entity name or alias")."""

from __future__ import annotations

import json

from tests.helpers import vault, write

BOOK = """# Frost Book

## Spells

**Frost Lance (Ice Spear):** A spear of ice that deals 2d6 cold damage.

### The Bronze Rule, aka the Ember Law

Anything can be treated like a character.

## Rules

Casting Frost Lance takes an action; the Bronze Rule applies to it.
"""


def test_aliases_a_book_declares_find_their_entity(cli, cli_json, tmp_path):
    assert cli("-q", "ingest", write(tmp_path / "frost.md", BOOK)).exit_code == 0
    for alias, name in (("Ice Spear", "Frost Lance"), ("ice spear", "Frost Lance"), ("the ember law", "The Bronze Rule")):
        found = cli_json("where-else", alias)
        assert found["matched_by"] == "alias", alias
        assert [e["name"] for e in found["entities"]] == [name], alias
        assert [e["name"] for e in cli_json("entity", alias)["entities"]] == [name], alias
    missing = cli("where-else", "Ice Spar", "--json")
    assert missing.exit_code == 1
    assert "Frost Lance" in json.loads(missing.stdout)["error"]["suggestions"]


def test_a_vault_notes_aliases_find_the_note(cli, cli_json, tmp_path):
    notes = vault(tmp_path / "vault", {
        "Frost Lance.md": "---\naliases: [Ice Spear, Winter's Needle]\n---\nA spear of ice.\n",
        "Cold.md": "Cold comes from [[Frost Lance]].\n",
    })
    assert cli("-q", "ingest", notes, "--book", "Notes").exit_code == 0
    for alias in ("Ice Spear", "WINTER'S NEEDLE"):
        found = cli_json("where-else", alias)
        assert [e["name"] for e in found["entities"]] == ["Frost Lance"], alias
