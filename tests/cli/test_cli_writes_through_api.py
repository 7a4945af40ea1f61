"""The CLI's writing commands are clients of crossbook.api, as its reads are
(tests/test_cli_through_api.py): each one calls its Shelf write method with the options
given and the display's callbacks, and what the method answers (an error here) is what
the command prints. A command that opened the index for writing on its own would not see a
Shelf method patched here, and these tests would fail. Every write through the door counts
one generation in the index: the number grows with each writing command."""

from __future__ import annotations

import json

import pytest

from crossbook.api import BookNotFound, Relationships, Shelf
from crossbook.storage import index_state
from crossbook.storage.db import open_db
from tests.conftest import SAMPLE
from tests.helpers import write

BOOK = "# Grimoire\n\n## Spells\n\n### Frost Lance\n\nFrost Lance is a spell you cast. It inflicts Chilled.\n"
MANIFEST = '[[books]]\npath = "grimoire.md"\n'
# the callbacks a write gets from the CLI: the progress display, events, warnings, the lock's note and name
SHOWN = ("progress", "events", "warn", "on_wait", "command")


def _titles(books) -> list[str]:
    return [title for _, title in books]


# (Shelf method, command line, what the method must receive: positional, keywords)
WRITE_COMMANDS = [
    ("ingest_books", ["ingest", "grimoire.md", "--force"],
     ((["Grimoire"],), {"force": True, "batch": False, "wait": True})),
    ("rebuild", ["rebuild", "books.toml"], (("books.toml",), {})),
    ("delete_book", ["delete-book", "grim"], (("grim",), {})),
    ("reembed", ["reembed"], ((), {})),
    ("repair", ["doctor", "--repair"], ((), {})),
    ("review", ["review", "accept", "12"], ((12, "accept"), {})),
    ("review", ["review", "adjust", "12", "--type", "causes", "--flip"],
     ((12, "adjust"), {"relation_type": "causes", "flip": True})),
    # the LLM cache's writes: no change of the shelf, but writes under the same lock
    ("prune_cache", ["cache", "prune"], ((), {"dry_run": False})),
    ("batches", ["batch", "collect", "batch_1", "--until-done"],
     ((["batch_1"],), {"collect": True, "wait": True, "base_url": None})),
    ("forget_batches", ["batch", "forget", "batch_1"], ((["batch_1"],), {})),
]
# commands named by their first two words (a group and its command)
GROUPS = ("review", "cache", "batch")


@pytest.mark.parametrize("method, args, expected", WRITE_COMMANDS, ids=[" ".join(c[1][:2]) for c in WRITE_COMMANDS])
def test_each_write_command_calls_the_api_and_shows_its_error(monkeypatch, cli, tmp_path, method, args, expected):
    write(tmp_path / "grimoire.md", BOOK)
    write(tmp_path / "books.toml", MANIFEST)
    calls = []

    def refuse(shelf, *positional, **keywords):
        assert isinstance(shelf, Shelf)
        assert keywords.pop("command") == " ".join(args[:2] if args[0] in GROUPS else args[:1])
        for name in SHOWN:
            keywords.pop(name, None)
        if method == "ingest_books":
            positional = (_titles(positional[0]),)
        elif method == "rebuild":
            positional = (str(positional[0]),)
        calls.append((positional, keywords))
        raise BookNotFound("refused by the API")

    monkeypatch.setattr(Shelf, method, refuse)
    result = cli(*args, "--json")
    assert result.exit_code == 1, result.stderr
    assert json.loads(result.stdout)["error"] == {"code": "book_not_found", "message": "refused by the API"}
    assert "Error: refused by the API" in result.stderr
    assert calls == [expected]


def test_an_interactive_review_decides_through_the_api(monkeypatch, cli):
    suggested = {"id": 7, "source": "Frost Lance", "relation_type": "inflicts", "target": "Chilled", "status": "ready",
                 "status_reason": None, "book": "Grimoire", "section": "Spells", "evidence": "It inflicts Chilled."}
    decided = []
    monkeypatch.setattr(Shelf, "relations", lambda shelf, **kw: Relationships([suggested]))

    def refuse(shelf, relationship_id, action, **keywords):
        decided.append((relationship_id, action))
        raise BookNotFound("refused by the API")

    monkeypatch.setattr(Shelf, "review", refuse)
    result = cli("review", "--interactive", "--json", input="a\n")
    assert result.exit_code == 1
    answer = result.stdout[result.stdout.index("{"):]  # after the test runner's echo of the typed input
    assert json.loads(answer)["error"]["message"] == "refused by the API"
    assert decided == [(7, "accept")]


def test_the_generation_grows_with_each_writing_command(cli, cli_json, tmp_path, index_dir):
    def generation() -> int:
        db = open_db(index_dir)
        try:
            return index_state.generation(db)
        finally:
            db.conn.close()

    seen = []

    def wrote(*args) -> None:
        result = cli("-q", *args)
        assert result.exit_code == 0, result.stderr
        seen.append(generation())

    wrote("rebuild", SAMPLE / "crossbook.toml")
    unchanged = generation()
    wrote("rebuild", SAMPLE / "crossbook.toml")  # every book unchanged: nothing moved
    assert generation() == unchanged
    seen.clear()
    wrote("ingest", write(tmp_path / "grimoire.md", BOOK))
    [row, *_] = cli_json("review")
    wrote("review", "accept", row["id"])
    wrote("review", "adjust", row["id"], "--flip")
    wrote("doctor", "--repair")
    wrote("--embedder", "hash", "reembed")
    wrote("delete-book", "Grimoire")
    assert seen == sorted(set(seen)) and seen[0] > unchanged, seen


@pytest.mark.parametrize("method, args", [
    ("ingest_books", ([],)), ("rebuild", ("books.toml",)), ("delete_book", ("grimoire",)), ("reembed", ()),
    ("repair", ()), ("review", (1, "accept")),
])
def test_a_read_only_shelf_refuses_every_write_before_opening_anything(tmp_path, method, args):
    from crossbook.api import IndexReadOnly

    with Shelf(tmp_path / "no index", embedder="hash", read_only=True) as shelf:
        with pytest.raises(IndexReadOnly):
            getattr(shelf, method)(*args)
    assert not (tmp_path / "no index").exists()


def test_an_unchanged_book_counts_a_generation_only_when_its_relationships_are_derived_again(tmp_path, index_dir):
    book = write(tmp_path / "grimoire.md", BOOK)

    def ingest(**settings) -> tuple[str, int]:
        with Shelf(index_dir, embedder="hash", **settings) as shelf:
            [result] = shelf.ingest([book])
        db = open_db(index_dir)
        try:
            return result.status, index_state.generation(db)
        finally:
            db.conn.close()

    assert ingest() == ("added", 1)
    assert ingest() == ("unchanged", 1)
    assert ingest(ontology=("ttrpg",)) == ("unchanged", 2)  # another relation vocabulary: derived again
