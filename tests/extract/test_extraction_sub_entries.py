"""A generic name defined under many owners ("Bite" under every creature) is each
owner's sub-entry; where-else says so instead of presenting one shelf-wide thing."""

from __future__ import annotations

from crossbook.query.lookup import sub_entry_owners
from tests.helpers import write

CREATURE = "# {book}\n\n## {creature}\n\n{creature} is a beast of the hills.\n\n**Bite.** Hit: 4 damage.\n"


def test_where_else_says_a_name_is_defined_under_many_owners(tmp_path, cli, cli_json):
    books = [write(tmp_path / f"{i}.md", CREATURE.format(book=f"Bestiary {i}", creature=creature))
             for i, creature in enumerate(("Cave Bear", "Hill Wolf", "Marsh Boar"))]
    cli_json("ingest", *books, "--relations", "off")
    result = cli_json("where-else", "Bite")
    [bite] = result["entities"]
    assert bite["defined_under"]["owners"] == 3
    assert "Bestiary 0: Cave Bear" in bite["defined_under"]["examples"]
    shown = cli("where-else", "Bite")
    assert shown.exit_code == 0, shown.stderr
    assert "defined under 3 different entries" in shown.stdout
    # a name defined once has no such note
    assert "defined_under" not in cli_json("where-else", "Cave Bear")["entities"][0]


def test_owners_are_the_entries_the_definitions_sit_under():
    rows = [
        {"mention_type": "defines", "heading_path": "Bestiary > Creatures > Ember Drake", "source": "llm", "book": "B"},
        {"mention_type": "defines", "heading_path": "Bestiary > Creatures > Ember Drake > Bite", "source": "heading",
         "book": "B"},
        {"mention_type": "references", "heading_path": "Bestiary > Rules", "source": "linker", "book": "B"},
    ]
    assert sub_entry_owners(rows) == ["B: Ember Drake"]
