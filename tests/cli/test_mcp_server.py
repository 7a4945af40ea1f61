"""``crossbook mcp`` spoken to by the mcp SDK's own stdio client: the tools it lists, each
tool's structured answer against the CLI's --json for the same query, tool errors (a
malformed call, an unknown entity, an unknown tool) with the server still up, the writing
tools only with --allow-ingest and behind the writer lock, and a where_else that loads
neither Chroma nor the embedder."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from tests.conftest import SAMPLE

# slow: crossbook mcp server processes (`pytest -m "not slow"` leaves it out)
pytestmark = pytest.mark.slow

mcp = pytest.importorskip("mcp")

CROSSBOOK = str(Path(sys.executable).parent / "crossbook")
QUERY_TOOLS = {"where_else", "entity", "search", "retrieve", "show", "books", "relations"}


@pytest.fixture
def sample_index(cli, index_dir):
    assert cli("-q", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    return index_dir


def _session(index_dir: Path, *options: str, env: dict | None = None):
    from mcp import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=CROSSBOOK, args=["--index", str(index_dir), "mcp", *options],
                                   env={"CROSSBOOK_EMBEDDER": "hash", **(env or {})})
    return stdio_client(params)


async def _talk(index_dir: Path, calls: list[tuple[str, dict]], *options: str, env: dict | None = None):
    """(tool names, [(is_error, structured content or error text)]) for ``calls``, in one session."""
    from mcp import ClientSession

    async with _session(index_dir, *options, env=env) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        names = {tool.name for tool in (await session.list_tools()).tools}
        answers = []
        for name, arguments in calls:
            result = await session.call_tool(name, arguments)
            answers.append((result.is_error, result.content[0].text if result.is_error else result.structured_content))
        return names, answers


def _same(mcp_answer, cli_answer):
    """The MCP page carries the CLI's data: the same items, the keys without their deprecated aliases."""
    from crossbook.cli.mcp_answers import without_aliases

    cut = set(mcp_answer.get("texts_cut", []))

    def bare(value):  # without the counts a page adds (definitions_total...), and the texts it cut
        if isinstance(value, list):
            return [bare(v) for v in value]
        if isinstance(value, dict):
            return {k: bare(v) for k, v in value.items()
                    if not k.endswith("_total") and not (k == "text" and value.get("chunk_id") in cut)}
        return value

    cli_answer = without_aliases(cli_answer)
    if "followed" in mcp_answer:  # the first entities followed
        cli_answer["followed"] = cli_answer["followed"][:len(mcp_answer["followed"])]
    return all(bare(mcp_answer[key]) == bare(value) for key, value in cli_answer.items()
               if key in mcp_answer and key != "limit")  # the page's size, not the answer's


def test_every_tool_answers_what_the_cli_prints(sample_index, cli_json):
    chunk = cli_json("where-else", "Frost Lance")["entities"][0]["books"][0]["mentions"][0]["chunk_id"]
    question = "What does the spell the Rime Wraith casts cost?"
    calls = [
        (("where_else", {"name": "Frost Lance", "limit": 100}), ["where-else", "Frost Lance"]),
        (("where_else", {"name": "ice lance", "books": ["ashen"], "limit": 2}),
         ["where-else", "ice lance", "--book", "ashen", "--limit", "2"]),
        (("entity", {"name": "Chilled"}), ["entity", "Chilled"]),
        (("search", {"query": "frost breath", "k": 3}), ["search", "frost breath", "-k", "3"]),
        (("retrieve", {"question": question, "k": 4, "limit": 100}), ["retrieve", question, "-k", "4"]),
        (("show", {"chunk_id": chunk}), ["show", chunk]),
        (("show", {"book": "bestiary", "heading_path": "Creatures > Frost Wyrm"}),
         ["show", "bestiary", "Creatures > Frost Wyrm"]),
    ]
    names, answers = anyio.run(_talk, sample_index, [call for call, _ in calls] + [
        ("relations", {"relation_type": "casts", "source": "Rime Wraith", "limit": 200}), ("books", {})])
    assert names == QUERY_TOOLS  # read-only: no ingest, no delete_book
    for (call, args), (is_error, answer) in zip(calls, answers):
        assert not is_error, (call, answer)
        assert _same(answer, cli_json(*args)), call
    relations = cli_json("relations", "--type", "casts", "--source", "Rime Wraith")
    assert relations and answers[-2][1]["relationships"] == relations and answers[-2][1]["total"] == len(relations)
    assert answers[-1][1]["books"] == cli_json("books")
    mention = answers[0][1]["entities"][0]["books"][0]["mentions"][0]
    assert {"book", "heading_path", "pages", "chunk_id"} <= set(mention)  # every hit cites where it is


def test_bad_calls_are_tool_errors_and_the_server_stays_up(sample_index):
    calls = [
        ("where_else", {}),                                  # no name
        ("search", {"query": "frost", "k": 0}),              # out of range
        ("where_else", {"name": "Nothing Like It"}),         # unknown entity
        ("show", {"chunk_id": "p000"}),
        ("where_else", {"name": "Frost Lance", "books": ["no such book"]}),
        ("ingest", {"paths": ["x.md"]}),                     # not served read-only
        ("where_else", {"name": "Frost Lance"}),             # still answering
    ]
    _, answers = anyio.run(_talk, sample_index, calls)
    assert [is_error for is_error, _ in answers] == [True] * 6 + [False]
    assert "entity_not_found: no entity named 'Nothing Like It'" in answers[2][1]
    assert "section_not_found" in answers[3][1] and "book_not_found" in answers[4][1]
    assert answers[-1][1]["entities"]


def test_allow_ingest_adds_the_writing_tools_behind_the_writer_lock(sample_index, tmp_path, cli_json):
    book = tmp_path / "extra.md"
    book.write_text("# Extra Book\n\n## Glacier Step\n\nGlacier Step lets you walk on ice.\n", encoding="utf-8")
    calls = [("ingest", {"paths": [str(book)]}), ("where_else", {"name": "glacier step"}),
             ("delete_book", {"book": "extra"}), ("where_else", {"name": "glacier step"})]
    names, answers = anyio.run(_talk, sample_index, calls, "--allow-ingest", str(tmp_path))
    assert names == QUERY_TOOLS | {"ingest", "delete_book"}
    assert answers[0][1]["results"][0]["title"] == "Extra Book"
    assert answers[1][1]["entities"][0]["books"][0]["book"] == "Extra Book"
    assert answers[2][1]["title"] == "Extra Book" and answers[3][0]
    assert "Extra Book" not in {b["title"] for b in cli_json("books")}

    from crossbook.storage.lock import writer_lock

    with writer_lock(sample_index, 1, command="test"):  # another writer holds the index
        _, [(is_error, text), (books_error, _)] = anyio.run(functools.partial(
            _talk, sample_index, [("delete_book", {"book": "bestiary"}), ("books", {})], "--allow-ingest",
            str(tmp_path), env={"CROSSBOOK_WAIT": "0.2"}))
    assert is_error and "index_busy: index is busy (pid" in text
    assert "changed nothing" in text and "read tools keep answering" in text
    assert not books_error  # the read answered while the write could not
    assert "Bestiary of the Shattered Vale" in {b["title"] for b in cli_json("books")}


def test_reads_answer_while_a_write_waits_for_the_writer_lock(sample_index, tmp_path):
    """A delete_book queued behind another writer's lock does not hold up where_else (the
    old server ran one tool at a time, so the read waited out the write's whole --wait)."""
    import contextlib

    from mcp import ClientSession

    from crossbook.storage.lock import writer_lock

    async def scenario():
        done = {}
        held = contextlib.ExitStack()
        held.enter_context(writer_lock(sample_index, 1, command="test"))
        async with _session(sample_index, "--allow-ingest", str(tmp_path), env={"CROSSBOOK_WAIT": "600"}) as (
                read, write), ClientSession(read, write) as session:
            await session.initialize()

            async def delete():
                done["delete"] = await session.call_tool("delete_book", {"book": "bestiary"})

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(delete)
                await anyio.wait_all_tasks_blocked()  # the delete_book request is sent and waiting
                with anyio.fail_after(120):  # a guard against a hang, not a timing
                    answer = await session.call_tool("where_else", {"name": "Frost Lance"})
                done["pending"] = "delete" not in done
                held.close()  # the other writer finishes; the delete goes ahead
        return answer, done

    answer, done = anyio.run(scenario)
    assert not answer.is_error and answer.structured_content["entities"]
    assert done["pending"] and not done["delete"].is_error


def test_a_running_server_follows_a_cli_ingest_and_delete_book(sample_index, tmp_path):
    from mcp import ClientSession

    book = tmp_path / "almanac.md"
    book.write_text("# Glacier Almanac\n\n## Glacier Step\n\nGlacier Step crosses blue ice.\n", encoding="utf-8")
    env = {**os.environ, "CROSSBOOK_EMBEDDER": "hash"}

    def crossbook(*args):
        subprocess.run([CROSSBOOK, "-q", "--index", str(sample_index), *args], env=env, check=True, capture_output=True)

    async def scenario():
        async with _session(sample_index) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            answers = [await session.call_tool("search", {"query": "frost", "k": 2})]
            crossbook("ingest", str(book))
            answers.append(await session.call_tool("search", {"query": "glacier step", "k": 2,
                                                              "books": ["Glacier Almanac"]}))
            crossbook("delete-book", "Glacier Almanac")
            answers.append(await session.call_tool("search", {"query": "glacier step", "k": 5}))
            return answers

    answers = anyio.run(scenario)
    assert not any(a.is_error for a in answers), [a.content for a in answers]
    assert answers[1].structured_content["results"][0]["book"] == "Glacier Almanac"
    assert "Glacier Almanac" not in {r["book"] for r in answers[2].structured_content["results"]}


def test_the_ingest_tool_reads_only_inside_the_allowed_folders(sample_index, tmp_path):
    root = tmp_path / "allowed"
    (root / ".ssh").mkdir(parents=True)
    (root / ".ssh" / "id_ed25519").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n", encoding="utf-8")
    (root / "book.md").write_text("# Allowed Book\n\n## Glacier Step\n\nGlacier Step walks on ice.\n",
                                  encoding="utf-8")
    outside = tmp_path / "outside.md"
    outside.write_text("# Outside\n\nnot for the assistant\n", encoding="utf-8")
    (root / "escape.md").symlink_to(outside)
    (root / "zero.md").symlink_to("/dev/zero")
    os.mkfifo(root / "pipe.md")
    refused = ["/etc/passwd", str(root / ".ssh" / "id_ed25519"), "/dev/zero", str(root / "zero.md"),
               str(root / "pipe.md"), str(root / "escape.md"), str(root / ".." / "outside.md")]
    calls = [("ingest", {"paths": [path]}) for path in refused] + [("ingest", {"paths": [str(root / "book.md")]})]
    _, answers = anyio.run(_talk, sample_index, calls, "--allow-ingest", str(root))
    for path, (is_error, text) in zip(refused, answers):
        assert is_error and "path_not_allowed" in text and str(root) in text, (path, text)
    assert answers[-1][1]["results"][0]["title"] == "Allowed Book"


def test_a_bare_allow_ingest_names_the_new_form(sample_index, cli):
    result = cli("--index", sample_index, "mcp", "--allow-ingest")
    assert result.exit_code == 1 and "--allow-ingest DIR" in result.stderr


def test_where_else_loads_neither_chroma_nor_the_embedder(sample_index):
    script = f"""
import sys, anyio
from crossbook.api import Shelf
from crossbook.cli.mcp_server import build_server

heavy = ("chromadb", "onnxruntime", "tokenizers", "crossbook.vectors.embed")
server = build_server(Shelf({str(sample_index)!r}, embedder="hash", read_only=True))
first = anyio.run(server.call_tool, "where_else", {{"name": "Frost Lance"}})
after_where_else = [m for m in heavy if m in sys.modules]
anyio.run(server.call_tool, "search", {{"query": "frost", "k": 1}})
print(first.is_error, after_where_else, "chromadb" in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "False [] True"


def test_the_docs_client_entry_runs_the_server(tmp_path):
    """docs/mcp.md's mcpServers entry is valid JSON naming this command."""
    from tests.conftest import ROOT

    text = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    entry = json.loads(text.split("```json\n", 1)[1].split("```", 1)[0])
    server = entry["mcpServers"]["crossbook"]
    assert server["command"] == "crossbook" and "mcp" in server["args"]


def test_the_server_ends_when_its_client_leaves_during_a_tool_call(sample_index, tmp_path):
    """A delete_book waiting for another writer's lock (up to 600 s) does not keep the server:
    once the client closes stdin the process ends, and the index keeps the book."""
    import select

    from crossbook.storage.lock import writer_lock

    env = {**os.environ, "CROSSBOOK_EMBEDDER": "hash", "CROSSBOOK_WAIT": "600"}
    with writer_lock(sample_index, 1, command="test"):
        server = subprocess.Popen([CROSSBOOK, "--index", str(sample_index), "mcp", "--allow-ingest", str(tmp_path)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        try:
            def send(message):
                server.stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
                server.stdin.flush()

            send({"id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                                              "clientInfo": {"name": "test", "version": "0"}}})
            assert json.loads(server.stdout.readline())["id"] == 1
            send({"method": "notifications/initialized"})
            send({"id": 2, "method": "tools/call", "params": {"name": "delete_book", "arguments": {"book": "bestiary"}}})
            log = b""
            while b"waiting for the index's writer" not in log:  # the call runs, blocked on the lock
                assert select.select([server.stderr], [], [], 120)[0], log  # a guard against a hang
                line = server.stderr.readline()
                assert line, log  # the server ended before the call waited
                log += line
            server.stdin.close()
            assert server.wait(timeout=60) == 0  # before: it waited out the write's 600 s
        finally:
            server.kill()
            server.wait()
    books = subprocess.run([CROSSBOOK, "--index", str(sample_index), "books", "--json"], env=env,
                           capture_output=True, text=True, check=True).stdout
    assert "Bestiary of the Shattered Vale" in books
