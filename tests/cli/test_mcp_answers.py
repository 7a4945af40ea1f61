"""The MCP tools' answers sized for an assistant, through the SDK's in-process client: a
default page and a cursor that walks the rest once and in order (and is refused once the
index changed), texts cut at a budget with the way to the rest, a short text summary beside
the structured data, real output schemas and annotations, one-sentence argument errors
that name no CLI flag."""

from __future__ import annotations

import json

import anyio
import pytest

from tests.conftest import SAMPLE
from tests.helpers import rebuilt_sample

mcp = pytest.importorskip("mcp")


@pytest.fixture(scope="module")
def sample_index(tmp_path_factory):
    return rebuilt_sample(tmp_path_factory.mktemp("mcp_answers"))


def _calls(index, calls, *, allow_ingest=False):
    """[(is_error, structured content or error text, text content)] for ``calls`` in one session."""
    from mcp import Client

    from crossbook.api import Shelf
    from crossbook.cli.mcp_server import build_server

    async def talk():
        shelf = Shelf(index, embedder="hash", read_only=not allow_ingest)
        try:
            async with Client(build_server(shelf, allow_ingest=[SAMPLE] if allow_ingest else ())) as client:
                out = []
                for name, arguments in calls:
                    if callable(name):  # a step between calls
                        name(shelf)
                        continue
                    result = await client.call_tool(name, arguments)
                    out.append((result.is_error, None if result.is_error else result.structured_content,
                                result.content[0].text))
                return out
        finally:
            shelf.close()

    return anyio.run(talk)


def _tools(index, allow_ingest=False):
    from mcp import Client

    from crossbook.api import Shelf
    from crossbook.cli.mcp_server import build_server

    async def listing():
        with Shelf(index, embedder="hash", read_only=not allow_ingest) as shelf:
            async with Client(build_server(shelf, allow_ingest=[SAMPLE] if allow_ingest else ())) as client:
                return {tool.name: tool for tool in (await client.list_tools()).tools}

    return anyio.run(listing)


def _mentions(page):
    return [(m["chunk_id"], m["mention_type"]) for e in page["entities"] for g in e["books"] for m in g["mentions"]]


def _walk(index, tool, arguments):
    """Every page of ``tool``'s answer, following next_cursor."""
    pages, cursor = [], None
    while True:
        [(is_error, page, text)] = _calls(index, [(tool, {**arguments, **({"cursor": cursor} if cursor else {})})])
        assert not is_error, text
        pages.append(page)
        cursor = page["next_cursor"]
        if cursor is None:
            return pages


def test_where_else_has_a_default_page_and_the_cursor_walks_the_rest_once_in_order(sample_index):
    from crossbook.api import Shelf

    with Shelf(sample_index, read_only=True) as shelf:
        whole = _mentions(shelf.where_else("Arcana").to_dict())
    [(_, first, text)] = _calls(sample_index, [("where_else", {"name": "Arcana"})])
    assert len(whole) > 10 and len(_mentions(first)) == 10 and first["total_mentions"] == len(whole)
    assert first["next_cursor"] and "cursor=" in text
    pages = _walk(sample_index, "where_else", {"name": "Arcana", "limit": 4})
    assert [m for page in pages for m in _mentions(page)] == whole
    assert [page["offset"] for page in pages] == list(range(0, len(whole), 4))



def test_the_first_where_else_page_names_every_book_that_holds_the_entity_with_its_counts(sample_index):
    """A page of two mentions shows one book; its book_counts name every book and count every
    mention, and say so in the text; the pages after it do not repeat them."""
    from crossbook.api import Shelf

    with Shelf(sample_index, read_only=True) as shelf:
        whole = shelf.where_else("Arcana").to_dict()
    held = {(g["book"], e["id"]) for e in whole["entities"] for g in e["books"]}
    assert len({book for book, _ in held}) >= 2
    [(_, first, text)] = _calls(sample_index, [("where_else", {"name": "Arcana", "limit": 2})])
    assert len({g["book"] for e in first["entities"] for g in e["books"]}) < len({book for book, _ in held})
    counts = first["book_counts"]
    assert {(c["book"], c["entity_id"]) for c in counts} == held
    assert sum(c["defines"] + c["references"] for c in counts) == first["total_mentions"]
    for book, _ in held:
        assert book in text.splitlines()[1]
    [(_, second, _)] = _calls(sample_index, [("where_else", {"name": "Arcana", "limit": 2,
                                                             "cursor": first["next_cursor"]})])
    assert "book_counts" not in second

def test_search_and_retrieve_cursors_walk_the_rest_in_order(sample_index):
    from crossbook.api import Shelf

    with Shelf(sample_index, read_only=True, embedder="hash") as shelf:
        whole_search = shelf.search("frost breath", 12).chunk_ids
        whole_retrieve = shelf.retrieve("What does Frost Lance cost?", 2, 6).chunk_ids
    pages = _walk(sample_index, "search", {"query": "frost breath", "k": 4})
    assert [p["chunk_id"] for page in pages for p in page["results"]][:12] == whole_search
    pages = _walk(sample_index, "retrieve", {"question": "What does Frost Lance cost?", "k": 6, "limit": 3})
    assert [p["chunk_id"] for page in pages for p in page["results"]] == whole_retrieve
    assert "followed" in pages[0] and "followed" not in pages[1]  # the trace once


def test_a_cursor_from_before_a_write_is_refused_with_a_way_forward(sample_index):
    from crossbook.storage.db import open_for_writing
    from crossbook.storage.index_state import bump_generation

    def write(shelf):
        with open_for_writing(sample_index, command="test") as db, db.atomic():
            bump_generation(db)

    [(_, page, _)] = _calls(sample_index, [("where_else", {"name": "Arcana", "limit": 2})])
    cursor = page["next_cursor"]
    answers = _calls(sample_index, [
        ("where_else", {"name": "Arcana", "limit": 2, "cursor": cursor}),     # same generation: fine
        ("where_else", {"name": "Chilled", "cursor": cursor}),                # another query
        ("where_else", {"name": "Arcana", "cursor": "not-a-cursor"}),
        (write, None),
        ("where_else", {"name": "Arcana", "limit": 2, "cursor": cursor}),     # the index changed
    ])
    assert not answers[0][0] and _mentions(answers[0][1]) != _mentions(page)
    assert answers[1][0] and "belongs to another query" in answers[1][2]
    assert answers[2][0] and "not one this server gave" in answers[2][2]
    assert answers[3][0] and "the index changed since this cursor was given" in answers[3][2]
    assert "again without a cursor" in answers[3][2]


def test_long_texts_are_cut_with_the_way_to_the_rest(sample_index, monkeypatch):
    from crossbook.api import Shelf
    from crossbook.cli import mcp_answers

    with Shelf(sample_index, read_only=True) as shelf:
        chunk = shelf.where_else("Frost Lance").mentions[0]["chunk_id"]
        whole = shelf.show(chunk).text
    monkeypatch.setattr(mcp_answers, "SHOW_TEXT_BUDGET", 120)
    pages = _walk(sample_index, "show", {"chunk_id": chunk})
    assert len(pages) > 2
    cuts = [c for page in pages for c in page["texts_cut"]]
    assert "".join(whole[c["start"]:c["end"]] for c in cuts) == whole
    assert pages[0]["sections"][0]["text"].endswith(" …") and len(pages[0]["sections"][0]["text"]) <= 122

    monkeypatch.setattr(mcp_answers, "PASSAGES_TEXT_BUDGET", 400)
    [(_, page, text)] = _calls(sample_index, [("search", {"query": "frost breath", "k": 4})])
    assert page["texts_cut"] and all(len(p["text"]) <= 202 for p in page["results"])
    assert "show with a chunk_id gives the whole section" in text


def test_the_text_is_a_short_summary_and_the_data_is_structured(sample_index):
    answers = _calls(sample_index, [("where_else", {"name": "Frost Lance"}), ("search", {"query": "frost", "k": 5}),
                                    ("books", {}), ("entity", {"name": "Chilled"})])
    for is_error, data, text in answers:
        assert not is_error
        assert not text.lstrip().startswith("{") and len(text) < len(json.dumps(data)) / 2
    assert answers[0][2].startswith("Frost Lance (spell): 13 mentions")
    assert "The Ashen Grimoire > Spells > Frost Lance: defines [" in answers[0][2]


def test_tools_list_real_output_schemas_and_annotations(sample_index):
    tools = _tools(sample_index, allow_ingest=True)
    for name in ("where_else", "entity", "search", "retrieve", "show", "books", "relations"):
        schema = tools[name].output_schema
        assert schema["properties"], name
        assert tools[name].annotations.read_only_hint and tools[name].annotations.idempotent_hint, name
    mention = tools["where_else"].output_schema["$defs"]["Mention"]["properties"]
    assert {"book", "heading_path", "pages", "chunk_id"} <= set(mention)
    assert "next_cursor" in tools["search"].output_schema["properties"]
    assert tools["delete_book"].annotations.destructive_hint
    assert "entities_removed" in tools["delete_book"].output_schema["properties"]
    assert "results" in tools["ingest"].output_schema["properties"]
    assert not tools["ingest"].annotations.read_only_hint and not tools["ingest"].annotations.destructive_hint


def test_a_malformed_call_is_refused_in_one_sentence_naming_no_flag(sample_index):
    answers = _calls(sample_index, [
        ("where_else", {}),
        ("search", {"query": "frost", "k": 500}),
        ("where_else", {"name": "Frost Lance", "bok": "ashen"}),
        ("where_else", {"name": "Frost Lance", "books": ["no such book"]}),
        ("where_else", {"name": "Frost Lance", "limit": "many"}),
    ])
    texts = [text for _, _, text in answers]
    assert all(is_error for is_error, _, _ in answers)
    assert texts[0] == "Error executing tool where_else: name is required."
    assert texts[1] == "Error executing tool search: k must be at most 100 (got 500)."
    assert "it takes no argument 'bok'" in texts[2] and "books" in texts[2]
    for text in texts:
        assert "\n" not in text and "http" not in text and "pydantic" not in text
        assert "--" not in text and " -k" not in text, text


def test_library_messages_name_the_tools_arguments_not_the_cli_s_flags():
    from crossbook.cli.mcp_errors import neutral

    assert neutral("--book 'x' is not a book in the index (books: 'A' see: crossbook books)") == \
        "books 'x' is not a book in the index (books: 'A' see: the books tool)"
    assert neutral("name its section with --page N or a heading path") == \
        "name its section with page=N or a heading path"
    assert neutral("give a chunk_id from where-else, search or retrieve --json, -k 3") == \
        "give a chunk_id from where-else, search or retrieve, k 3"
    assert neutral("vectors missing for 1 book ('B'): run: crossbook doctor --repair") == \
        "vectors missing for 1 book ('B'): whoever keeps the index can run: crossbook doctor --repair"


def test_show_pages_walk_several_sections_whole_and_in_order():
    from crossbook.cli.mcp_answers import sections_page

    texts = ["alpha " * 30, "short one", "beta " * 50, "gamma"]
    doc = {"sections": [{"chunk_id": f"c{i}", "book": "B", "heading_path": f"H{i}", "pages": None, "file": None,
                         "text": text, "chunk_ids": [f"c{i}"]} for i, text in enumerate(texts)]}
    shown, start = {i: "" for i in range(len(texts))}, [0, 0]
    while start is not None:
        page, start = sections_page(doc, start, budget=70)
        assert sum(len(s["text"]) for s in page["sections"]) <= 72 or len(page["sections"]) == 1
        cuts = {c["chunk_id"]: c for c in page.get("texts_cut", [])}
        for section in page["sections"]:
            cut = cuts.get(section["chunk_id"])
            i = int(section["chunk_id"][1:])
            shown[i] += texts[i][cut["start"]:cut["end"]] if cut else section["text"]
    assert [shown[i] for i in range(len(texts))] == texts


def test_a_forged_cursor_with_a_negative_or_misshapen_offset_is_refused(sample_index):
    from crossbook.cli.mcp_paging import make_cursor
    from crossbook.storage.db import open_db
    from crossbook.storage.index_state import generation

    db = open_db(sample_index)
    now = generation(db)
    db.close()
    where_else = {"name": "Arcana", "books": [], "exclude_books": [], "entity_type": None, "defines_only": False}
    show = {"chunk_id": None, "book": "bestiary", "page": None, "heading_path": None}
    forged = [("where_else", {"name": "Arcana", "cursor": make_cursor("where_else", where_else, now, -3)}),
              ("where_else", {"name": "Arcana", "cursor": make_cursor("where_else", where_else, now, [1, 2])}),
              ("books", {"cursor": make_cursor("books", {}, now, -1)}),
              ("show", {"book": "bestiary", "cursor": make_cursor("show", show, now, [0, -40])}),
              ("show", {"book": "bestiary", "cursor": make_cursor("show", show, now, 2)})]
    answers = _calls(sample_index, forged + [("where_else", {"name": "Arcana", "cursor": make_cursor(
        "where_else", where_else, now, 2)})])
    for (tool, _), (is_error, _, text) in zip(forged, answers):
        assert is_error and "not one this server gave" in text, (tool, text)
    assert not answers[-1][0]  # the same cursor with an offset a page can start at answers
