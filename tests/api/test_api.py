"""The Python API (docs/api.md): each result's to_dict() is the document the CLI prints
with --json for the same query; errors carry the code of the CLI's JSON error; the docs'
examples run; ``import crossbook`` loads neither the API nor Chroma."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from crossbook import CrossbookError, Shelf
from tests.conftest import ROOT, SAMPLE


@pytest.fixture
def shelf(cli, index_dir):
    assert cli("-q", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    with Shelf(index_dir, embedder="hash") as opened:
        yield opened


def test_results_are_the_documents_the_cli_prints(shelf, cli_json):
    frost = shelf.where_else("Frost Lance")
    chunk = frost.mentions[0]["chunk_id"]
    pairs = [
        (frost, ["where-else", "Frost Lance"]),
        (shelf.where_else("ice lance", books=["ashen"], limit=2), ["where-else", "ice lance", "--book", "ashen", "-n", "2"]),
        (shelf.entity("Chilled"), ["entity", "Chilled"]),
        (shelf.search("frost breath", k=3), ["search", "frost breath", "-k", "3"]),
        (shelf.retrieve("What does the spell the Rime Wraith casts cost?", k=4),
         ["retrieve", "What does the spell the Rime Wraith casts cost?", "-k", "4"]),
        (shelf.show(chunk), ["show", chunk]),
        (shelf.show(book="bestiary", heading_path="Frost Wyrm"), ["show", "bestiary", "Frost Wyrm"]),
        (shelf.relations(relation_type="casts"), ["relations", "--type", "casts"]),
    ]
    for result, args in pairs:
        assert result.to_dict() == cli_json(*args), args
    assert [b.to_dict() for b in shelf.books()] == cli_json("books")
    assert frost.matched_by == "name" and frost.mentions[0]["mention_type"] == "defines"


def test_errors_carry_the_code_of_the_cli_json_error(shelf, cli):
    calls = [
        (lambda: shelf.where_else("Frost Lanse"), ["where-else", "Frost Lanse"]),
        (lambda: shelf.where_else("Frost Lance", books=["nope"]), ["where-else", "Frost Lance", "--book", "nope"]),
        (lambda: shelf.show("p000"), ["show", "p000"]),
        (lambda: shelf.search("", k=3), ["search", "", "-k", "3"]),
        (lambda: shelf.delete_book("no such book"), ["delete-book", "no such book"]),
    ]
    for call, args in calls:
        with pytest.raises(CrossbookError) as raised:
            call()
        error = json.loads(cli(*args, "--json").stdout)["error"]
        assert (raised.value.code, str(raised.value)) == (error["code"], error["message"]), args


def test_a_read_only_shelf_refuses_writes_and_the_write_is_the_clis(shelf, cli_json, index_dir, tmp_path):
    with Shelf(index_dir, embedder="hash", read_only=True) as reader:
        assert reader.where_else("Shield").entities
        with pytest.raises(CrossbookError) as raised:
            reader.delete_book("bestiary")
        assert raised.value.code == "index_read_only"
    book = tmp_path / "extra.md"
    book.write_text("# Extra Book\n\n## Glacier Step\n\nGlacier Step lets you walk on ice; Frost Lance cracks it.\n")
    [added] = shelf.ingest([book])
    assert (added.title, added.status) == ("Extra Book", "added")
    assert "Extra Book" in {b["title"] for b in cli_json("books")}
    assert shelf.search("walk on ice", k=1, books=["extra"]).results[0]["book"] == "Extra Book"
    assert shelf.delete_book("EXTRA").to_dict() == {"title": "Extra Book", "deleted": True, "entities_removed": 1,
                                                   "relationships_removed": 0}


@pytest.mark.slow  # a fresh interpreter
def test_import_crossbook_is_cheap_and_the_api_loads_at_first_use():
    script = ("import sys, crossbook; before = 'crossbook.api' in sys.modules; crossbook.Shelf; "
              "print(before, 'crossbook.api' in sys.modules, 'chromadb' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True", "False"]


def test_the_examples_in_docs_api_md_run(tmp_path, monkeypatch):
    (tmp_path / "sample_corpus").symlink_to(SAMPLE)
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "api.md").read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 6
    namespace: dict = {}
    for number, block in enumerate(blocks):
        exec(compile(block, f"docs/api.md block {number + 1}", "exec"), namespace)
    assert (tmp_path / "api-example-index" / "crossbook.db").is_file()
