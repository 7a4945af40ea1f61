"""One description per result: the API's ``to_dict()``, the CLI's ``--json`` and the MCP
server's structured answers have, key by key, the shape index/api/shapes.py describes (made
from the library's dataclasses where it returns one), the MCP pages that shape and their own
keys, no more and no fewer. A deprecated alias (``section``) is allowed beside its
replacement in the API and the CLI, and left out by the MCP server."""

from __future__ import annotations

import types
import typing

import anyio
import pytest
from typing_extensions import NotRequired, is_typeddict

from crossbook.api import Shelf, shapes
from tests.helpers import rebuilt_sample

pytest.importorskip("mcp")

def mismatches(value, shape, where: str = "$") -> list[str]:
    """Where ``value`` strays from ``shape`` (a TypedDict, list[...], X | None, dict[str, ...]
    or a plain type): a key missing, a key the shape does not have, an object that should
    be a list. Empty when it fits."""
    origin, args = typing.get_origin(shape), typing.get_args(shape)
    if is_typeddict(shape):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__}, not an object"]
        hints = typing.get_type_hints(shape, include_extras=True)
        required = {k for k, hint in hints.items() if typing.get_origin(hint) is not NotRequired}
        aliases = {k for k, new in shapes.DEPRECATED_KEYS.items() if k in value and new in value}
        out = [f"{where}: no key {k!r}" for k in sorted(required - set(value))]
        out += [f"{where}: key {k!r} not in the shape" for k in sorted(set(value) - set(hints) - aliases)]
        for key in set(value) & set(hints):
            hint = hints[key]
            hint = typing.get_args(hint)[0] if typing.get_origin(hint) is NotRequired else hint
            out += mismatches(value[key], hint, f"{where}.{key}")
        return out
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__}, not a list"]
        return [m for i, item in enumerate(value) for m in mismatches(item, args[0], f"{where}[{i}]")]
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return []
        return min((mismatches(value, a, where) for a in args if a is not type(None)), key=len)
    return []  # a value: a string, a number, a map of data (references_by_book), Any


@pytest.fixture(scope="module")
def sample_index(tmp_path_factory):
    return rebuilt_sample(tmp_path_factory.mktemp("shapes"))


def _mcp(index, calls, *, allow_ingest=()):
    from mcp import Client

    from crossbook.cli.mcp_server import build_server

    async def talk():
        with Shelf(index, embedder="hash", read_only=not allow_ingest) as shelf:
            async with Client(build_server(shelf, allow_ingest=allow_ingest)) as client:
                out = []
                for name, arguments in calls:
                    result = await client.call_tool(name, arguments)
                    assert not result.is_error, result.content
                    out.append(result.structured_content)
                return out

    return anyio.run(talk)


def test_every_read_answers_the_one_shape_through_the_api_the_cli_and_mcp(sample_index, cli_json):
    from crossbook.cli import mcp_tools

    with Shelf(sample_index, embedder="hash") as shelf:
        chunk = shelf.where_else("Frost Lance").mentions[0]["chunk_id"]
        api = {
            "where_else": shelf.where_else("Frost Lance").to_dict(),
            "entity": shelf.entity("Frost Lance").to_dict(),
            "search": shelf.search("frost breath", 3).to_dict(),
            "retrieve": shelf.retrieve("What does the spell the Rime Wraith casts cost?", 2, 4).to_dict(),
            "show": shelf.show(chunk).to_dict(),
            "books": [b.to_dict() for b in shelf.books()],
        }
    index = ("--index", str(sample_index))
    cli = {
        "where_else": cli_json(*index, "where-else", "Frost Lance"),
        "entity": cli_json(*index, "entity", "Frost Lance"),
        "search": cli_json(*index, "search", "frost breath", "-k", "3"),
        "retrieve": cli_json(*index, "retrieve", "What does the spell the Rime Wraith casts cost?", "-k", "4"),
        "show": cli_json(*index, "show", chunk),
        "books": cli_json(*index, "books"),
    }
    mcp = dict(zip(api, _mcp(sample_index, [
        ("where_else", {"name": "Frost Lance"}), ("entity", {"name": "Frost Lance"}),
        ("search", {"query": "frost breath", "k": 3}),
        ("retrieve", {"question": "What does the spell the Rime Wraith casts cost?", "k": 4}),
        ("show", {"chunk_id": chunk}), ("books", {})])))
    documents = {"where_else": shapes.WhereElseDoc, "entity": shapes.EntityDetailDoc, "search": shapes.PassagesDoc,
                 "retrieve": shapes.PassagesDoc, "show": shapes.SectionsDoc, "books": list[shapes.BookDoc]}
    pages = {"where_else": mcp_tools.WhereElsePage, "entity": mcp_tools.EntityPage, "search": mcp_tools.PassagesPage,
             "retrieve": mcp_tools.PassagesPage, "show": mcp_tools.SectionsPage, "books": mcp_tools.BooksPage}
    for tool, shape in documents.items():
        assert api[tool] and mismatches(api[tool], shape) == [], tool
        assert mismatches(cli[tool], shape) == [], tool
        assert mismatches(mcp[tool], pages[tool]) == [], tool
    # what every mention, passage and book carries, in all three
    mention = set(typing.get_type_hints(shapes.Mention))
    assert set(api["where_else"]["entities"][0]["books"][0]["mentions"][0]) - {"section"} == mention
    assert set(mcp["where_else"]["entities"][0]["books"][0]["mentions"][0]) == mention
    assert set(mcp["books"]["books"][0]) == set(cli["books"][0]) == set(typing.get_type_hints(shapes.BookDoc))


def test_the_writes_answer_the_one_shape_through_the_api_the_cli_and_mcp(tmp_path, cli_json):
    from crossbook.cli import mcp_tools

    book = tmp_path / "books" / "almanac.md"
    book.parent.mkdir()
    book.write_text("# Glacier Almanac\n\n## Glacier Step\n\nGlacier Step crosses blue ice.\n", encoding="utf-8")
    with Shelf(tmp_path / "api", embedder="hash") as shelf:
        api = [r.to_dict() for r in shelf.ingest([book])] + [shelf.delete_book("Glacier Almanac").to_dict()]
    cli = [cli_json("--index", str(tmp_path / "cli"), "ingest", str(book)),
           cli_json("--index", str(tmp_path / "cli"), "delete-book", "Glacier Almanac")]
    mcp_index = tmp_path / "mcp"
    Shelf(mcp_index, embedder="hash").close()
    mcp = _mcp(mcp_index, [("ingest", {"paths": ["almanac.md"]}), ("delete_book", {"book": "Glacier Almanac"})],
               allow_ingest=[book.parent])
    assert mismatches(api[0], shapes.IngestResultDoc) == mismatches(api[1], shapes.DeletedDoc) == []
    assert mismatches(cli[0], list[shapes.IngestResultDoc]) == mismatches(cli[1], shapes.DeletedDoc) == []
    assert mismatches(mcp[0], mcp_tools.IngestAnswer) == mismatches(mcp[1], shapes.DeletedDoc) == []
    assert set(api[0]) == set(cli[0][0]) == set(mcp[0]["results"][0]) == set(typing.get_type_hints(shapes.IngestResultDoc))


def test_a_key_a_shape_does_not_have_or_lacks_is_found():
    """The check can fail: a mention with a key too many, one without its chunk id, a
    document whose list is an object."""
    mention = {k: None for k in typing.get_type_hints(shapes.Mention)}
    assert mismatches({**mention, "extra": 1}, shapes.Mention) == ["$: key 'extra' not in the shape"]
    del mention["chunk_id"]
    assert mismatches(mention, shapes.Mention) == ["$: no key 'chunk_id'"]
    assert mismatches({"sections": {}}, shapes.SectionsDoc) == ["$.sections: dict, not a list"]
    section = {k: None for k in typing.get_type_hints(shapes.SectionDoc)}
    section.update(heading_path="Rules", chunk_ids=[])
    assert mismatches({"sections": [{**section, "section": "Rules"}]}, shapes.SectionsDoc) == []  # an alias
    assert mismatches({"sections": [{**section, "from_section": "Rules"}]}, shapes.SectionsDoc) == [
        "$.sections[0]: key 'from_section' not in the shape"]  # its replacement is not beside it
