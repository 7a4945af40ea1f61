"""The API's results as a programmer expects them: they iterate and have a length; one key
names one thing (book, heading_path, pages, chunk_id) in every result, the same in the API,
the CLI's --json and the MCP tools (the old keys kept beside them one release);
``crossbook.__version__``."""

from __future__ import annotations

from importlib.metadata import version

import anyio
import pytest

from tests.helpers import rebuilt_sample

QUESTION = "What does the spell the Rime Wraith casts cost?"
# (Shelf call, CLI arguments, MCP tool call) for the same query
SAME_QUERY = [
    (lambda s: s.where_else("Frost Lance"), ["where-else", "Frost Lance"], ("where_else", {"name": "Frost Lance",
                                                                                          "limit": 200})),
    (lambda s: s.entity("Chilled"), ["entity", "Chilled"], ("entity", {"name": "Chilled"})),
    (lambda s: s.search("frost breath", 3), ["search", "frost breath", "-k", "3"],
     ("search", {"query": "frost breath", "k": 3})),
    (lambda s: s.retrieve(QUESTION, 2, 4), ["retrieve", QUESTION, "-k", "4"],
     ("retrieve", {"question": QUESTION, "k": 4, "limit": 100})),
    (lambda s: s.show(book="bestiary", heading_path="Creatures > Frost Wyrm"),
     ["show", "bestiary", "Creatures > Frost Wyrm"],
     ("show", {"book": "bestiary", "heading_path": "Creatures > Frost Wyrm"})),
]
PAGE_KEYS = {"offset", "next_cursor", "texts_cut", "note", "limit", "definitions_total", "related_total",
             "followed_total"}


@pytest.fixture(scope="module")
def sample_index(tmp_path_factory):
    return rebuilt_sample(tmp_path_factory.mktemp("api_results"))


@pytest.fixture
def shelf(sample_index):
    from crossbook.api import Shelf

    with Shelf(sample_index, read_only=True, embedder="hash") as opened:
        yield opened


def _paths(value, at="") -> set[str]:
    """Every key path in a JSON document ("entities[].books[].mentions[].heading_path")."""
    if isinstance(value, list):
        return set().union(*(_paths(v, at + "[]") for v in value)) if value else set()
    if isinstance(value, dict):
        return set().union(*({f"{at}.{k}"} | _paths(v, f"{at}.{k}") for k, v in value.items())) if value else set()
    return set()


def test_results_iterate_and_have_a_length(shelf):
    where = shelf.where_else("Frost Lance")
    assert len(where) == where.to_dict()["total_mentions"] == len(list(where)) == 13
    assert [m["chunk_id"] for m in where] == [m["chunk_id"] for m in where.mentions]
    assert where[0]["mention_type"] == "defines" and where[0]["entity"] == "Frost Lance"
    found = shelf.search("frost breath", 3)
    assert len(found) == 3 and [p["chunk_id"] for p in found] == found.chunk_ids
    assert len(shelf.show(found.chunk_ids[0])) == 1 and len(shelf.entity("Chilled")) == 1
    assert len(shelf.entities(entity_type="spell")) == shelf.entities(entity_type="spell").count
    assert list(shelf.relations()) == shelf.relations().relationships
    assert not shelf.search("frost breath", 3, books=["bestiary"], exclude_books=["bestiary"])  # empty: falsy
    from crossbook.api import Deleted

    assert bool(Deleted({"title": "x", "entities_removed": 0})) and not hasattr(Deleted({}), "__len__")  # one answer


def test_one_key_for_one_thing_in_the_api_the_cli_and_mcp(sample_index, shelf, cli_json, monkeypatch):
    from mcp import Client

    from crossbook.api.shapes import DEPRECATED_KEYS
    from crossbook.cli.mcp_server import build_server

    monkeypatch.setenv("CROSSBOOK_INDEX", str(sample_index))
    monkeypatch.setenv("CROSSBOOK_EMBEDDER", "hash")

    async def mcp_answers():
        async with Client(build_server(shelf)) as client:
            return [(await client.call_tool(name, arguments)).structured_content for _, _, (name, arguments)
                    in SAME_QUERY]

    for (call, args, tool), from_mcp in zip(SAME_QUERY, anyio.run(mcp_answers)):
        api, cli = _paths(call(shelf).to_dict()), _paths(cli_json(*args))
        assert api == cli, args
        old = {p for p in api if p.rsplit(".", 1)[-1] in DEPRECATED_KEYS}
        assert old == {p for p in api if p.rsplit(".", 1)[-1] in DEPRECATED_KEYS
                       and p.rsplit(".", 1)[0] + "." + DEPRECATED_KEYS[p.rsplit(".", 1)[-1]] in api}, args
        mcp = {p for p in _paths(from_mcp) if not set(p.strip(".").replace("[]", "").split(".")) & PAGE_KEYS}
        assert mcp == {p for p in api - old if not set(p.strip(".").replace("[]", "").split(".")) & PAGE_KEYS}, args
        hits = {p.rsplit(".", 1)[0] for p in api if p.endswith(".chunk_id")} - {""}
        for hit in hits:  # every hit cites its place by the same keys
            if f"{hit}.book" in api:
                assert {f"{hit}.heading_path", f"{hit}.pages"} <= api, (args, hit)
        assert not any(p.endswith(".section") and p[:-8] + ".heading_path" not in api for p in api), args


def test_crossbook_has_a_version():
    import crossbook

    assert crossbook.__version__ == version("crossbook")
