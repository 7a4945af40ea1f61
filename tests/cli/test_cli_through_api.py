"""The CLI's read commands are clients of crossbook.api: each one calls its Shelf method
with the options given, and what the method answers (a result, an error, a warning) is
what the command prints. A command that read the index on its own would not see a
Shelf method patched here, and these tests would fail."""

from __future__ import annotations

import json

import pytest

from crossbook.api import BookNotFound, Passages, Shelf
from tests.conftest import SAMPLE

# (Shelf method, command line, the arguments the method must receive)
READ_COMMANDS = [
    ("where_else", ["where-else", "Frost Lance", "--book", "ashen", "--exclude-book", "core", "--type", "spell",
                    "--defines-only", "-n", "3"],
     (("Frost Lance",), {"books": ["ashen"], "exclude_books": ["core"], "entity_type": "spell",
                         "defines_only": True, "limit": 3})),
    ("entity", ["entity", "Chilled"], (("Chilled",), {})),
    ("entities", ["entities", "--type", "spell", "--book", "ashen", "--exclude-book", "core"],
     ((), {"entity_type": "spell", "books": ["ashen"], "exclude_books": ["core"]})),
    ("books", ["books"], ((), {})),
    ("show", ["show", "p0123"], (("p0123",), {})),
    ("show", ["show", "bestiary", "Frost Wyrm"], ((), {"book": "bestiary", "page": None, "heading_path": "Frost Wyrm"})),
    ("show", ["show", "bestiary", "--page", "4"], ((), {"book": "bestiary", "page": 4, "heading_path": None})),
    ("relations", ["relations", "--type", "casts", "--status", "ready", "--book", "ashen", "--exclude-book", "core"],
     ((), {"relation_type": "casts", "status": "ready", "book": "ashen", "exclude_books": ["core"], "source": None})),
    ("relations", ["relations", "--type", "member_of", "--source", "frob"],
     ((), {"relation_type": "member_of", "status": None, "book": None, "exclude_books": [], "source": "frob"})),
    ("relations", ["review", "--book", "ashen"],
     ((), {"book": "ashen", "exclude_books": [], "review_state": "suggested"})),
    ("search", ["search", "frost breath", "-k", "3", "--book", "ashen"],
     (("frost breath", 3), {"books": ["ashen"], "exclude_books": []})),
    ("retrieve", ["retrieve", "What does it cost?", "--hops", "1", "-k", "4", "--exclude-book", "core"],
     (("What does it cost?", 1, 4), {"books": [], "exclude_books": ["core"]})),
]


@pytest.mark.parametrize("method, args, expected", READ_COMMANDS, ids=[" ".join(c[1][:2]) for c in READ_COMMANDS])
def test_each_read_command_calls_the_api_and_shows_its_error(monkeypatch, cli, method, args, expected):
    calls = []

    def refuse(shelf, *positional, **keywords):
        assert isinstance(shelf, Shelf)
        keywords.pop("progress", None), keywords.pop("warn", None)  # the display's callbacks
        calls.append((positional, keywords))
        raise BookNotFound("refused by the API")

    monkeypatch.setattr(Shelf, method, refuse)
    result = cli(*args, "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"] == {"code": "book_not_found", "message": "refused by the API"}
    assert "Error: refused by the API" in result.stderr
    assert calls == [expected]


def test_the_api_s_answer_and_warning_are_what_search_prints(monkeypatch, cli):
    def answer(shelf, text, k, *, books, exclude_books, progress, warn):
        warn("a warning from the API")
        return Passages({"query": text, "k": k, "results": [], "from": "the API"})

    monkeypatch.setattr(Shelf, "search", answer)
    result = cli("search", "anything", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"query": "anything", "k": 10, "results": [], "from": "the API"}
    assert "Warning: a warning from the API" in result.stderr


def test_entities_and_review_s_list_are_the_api_s_documents(cli, cli_json, index_dir):
    assert cli("-q", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    with Shelf(index_dir, embedder="hash", read_only=True) as shelf:
        spells = shelf.entities(entity_type="spell", exclude_books=["bestiary"])
        assert spells.to_dict() == cli_json("entities", "--type", "spell", "--exclude-book", "bestiary")
        assert spells.count == len(spells.entities) > 0 and set(spells.by_type) == {"spell"}
        assert shelf.entities(exclude_books=["emberfall", "ashen", "bestiary"]).to_dict() == {
            "count": 0, "by_type": {}, "entities": []}
        suggested = shelf.relations(review_state="suggested")
        assert suggested.to_dict() == cli_json("review")
        assert {r["review_state"] for r in suggested.relationships} <= {"suggested"}
