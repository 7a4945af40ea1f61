"""``crossbook mcp --http``: the same tools over the SDK's streamable HTTP transport on
127.0.0.1, spoken to by the SDK's HTTP client: several clients at once get the same answers;
a bearer token, the Host and the Origin are checked; a non-loopback address needs a token;
the writing tools only when allowed, delete_book over HTTP only with its own flag."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from pathlib import Path

import anyio
import pytest

from crossbook.api import BadInput
from tests.conftest import SAMPLE
from tests.helpers import rebuilt_sample

mcp = pytest.importorskip("mcp")
uvicorn = pytest.importorskip("uvicorn")
# slow: HTTP servers in threads and a crossbook mcp --http process (`pytest -m "not slow"` leaves it out)
pytestmark = pytest.mark.slow

CROSSBOOK = str(Path(sys.executable).parent / "crossbook")
CALLS = [("where_else", {"name": "Frost Lance"}), ("entity", {"name": "Chilled"}), ("books", {})]


@pytest.fixture(scope="module")
def sample_index(tmp_path_factory):
    return rebuilt_sample(tmp_path_factory.mktemp("mcp_http"))


@contextlib.contextmanager
def _serving(index, *, token=None, origins=(), allow_ingest=False, allow_delete=False):
    """A server on 127.0.0.1 (a port the system picks) in a thread; yields its URL."""
    from crossbook.api import Shelf
    from crossbook.cli.mcp_http import HttpAccess, http_app, listen, without_delete
    from crossbook.cli.mcp_server import build_server

    shelf = Shelf(index, embedder="hash", read_only=not allow_ingest)
    server = build_server(shelf, allow_ingest=[SAMPLE] if allow_ingest else ())
    if not allow_delete:
        without_delete(server)
    access = HttpAccess("127.0.0.1", 0, token, list(origins))
    sock = listen(access)
    runner = uvicorn.Server(uvicorn.Config(http_app(server, access), log_level="warning", lifespan="on"))
    pause = threading.Event()  # never set: its wait is the poll's pause
    thread = threading.Thread(target=lambda: runner.run(sockets=[sock]), daemon=True)
    thread.start()
    for _ in range(6000):  # bounded (a minute); the thread ends if startup fails
        if runner.started or not thread.is_alive():
            break
        pause.wait(0.01)
    assert runner.started, "the HTTP server did not start"
    try:
        yield access.url(sock.getsockname()[1])
    finally:
        runner.should_exit = True
        thread.join(30)
        shelf.close()


async def _session_calls(url, calls, headers=None):
    """[(is_error, structured content or text)] for ``calls`` in one HTTP session; and the tool names."""
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async with httpx2.AsyncClient(headers=headers or {}, timeout=60) as http:
        async with streamable_http_client(url, http_client=http) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            names = {tool.name for tool in (await session.list_tools()).tools}
            out = []
            for name, arguments in calls:
                result = await session.call_tool(name, arguments)
                out.append((result.is_error, result.content[0].text if result.is_error else result.structured_content))
            return names, out


def test_several_clients_at_once_get_the_same_answers(sample_index):
    async def clients(url, n):
        answers = [None] * n

        async def one(i):
            answers[i] = await _session_calls(url, CALLS)

        async with anyio.create_task_group() as group:
            for i in range(n):
                group.start_soon(one, i)
        return answers

    with _serving(sample_index) as url:
        answers = anyio.run(clients, url, 5)
    names, first = answers[0]
    assert names == {"where_else", "entity", "search", "retrieve", "show", "books", "relations"}  # read-only
    assert not any(is_error for is_error, _ in first)
    assert first[0][1]["total_mentions"] == 13
    assert all(answer == answers[0] for answer in answers)


def test_the_token_the_host_and_the_origin_are_checked(sample_index):
    import httpx2

    def post(url, **headers):
        return httpx2.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers={
            "accept": "application/json, text/event-stream", **headers}, timeout=30)

    with _serving(sample_index, token="s3cret", origins=["https://team.example"]) as url:
        assert post(url).status_code == 401
        assert post(url, authorization="Bearer wrong").status_code == 401
        assert post(url, authorization="Bearer s3cret", origin="https://evil.example").status_code == 403
        assert post(url, authorization="Bearer s3cret", host="evil.example").status_code == 421
        assert post(url, authorization="Bearer s3cret", origin="https://team.example").status_code != 403
        names, [(is_error, answer)] = anyio.run(_session_calls, url, CALLS[:1], {"authorization": "Bearer s3cret"})
    assert not is_error and answer["entities"]


def test_writing_tools_need_the_ingest_flag_and_delete_its_own(sample_index):
    with _serving(sample_index, allow_ingest=True) as url:
        names, _ = anyio.run(_session_calls, url, [])
    assert "ingest" in names and "delete_book" not in names
    with _serving(sample_index, allow_ingest=True, allow_delete=True) as url:
        names, _ = anyio.run(_session_calls, url, [])
    assert {"ingest", "delete_book"} <= names


def test_addresses_and_tokens():
    from crossbook.cli.mcp_http import access_for, parse_address

    assert parse_address("8765") == ("127.0.0.1", 8765) == parse_address(":8765")
    assert parse_address("[::1]:8765") == ("::1", 8765)
    assert access_for("localhost:1", None, []).loopback
    with pytest.raises(BadInput, match="needs a bearer token"):
        access_for("0.0.0.0:8765", None, [])
    assert access_for("0.0.0.0:8765", "t", []).token == "t"
    with pytest.raises(BadInput, match="HOST:PORT"):
        parse_address("somewhere")


def test_the_command_serves_over_http(sample_index):
    process = subprocess.Popen([CROSSBOOK, "--index", str(sample_index), "mcp", "--http", "127.0.0.1:0"],
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "CROSSBOOK_EMBEDDER": "hash"})
    try:
        line = process.stderr.readline()
        assert line.startswith("crossbook MCP server on http://127.0.0.1:"), line
        names, [(is_error, answer)] = anyio.run(_session_calls, line.split()[-1], CALLS[:1])
        assert not is_error and answer["total_mentions"] == 13 and "delete_book" not in names
    finally:
        process.terminate()
        process.wait(30)
    refused = subprocess.run([CROSSBOOK, "--index", str(sample_index), "mcp", "--http", "0.0.0.0:0"],
                             capture_output=True, text=True, timeout=60, env={**os.environ, "CROSSBOOK_MCP_TOKEN": ""})
    assert refused.returncode == 1 and "needs a bearer token" in refused.stderr


def test_sigterm_leaves_no_copy_of_the_vector_store_behind(sample_index, tmp_path):
    """The HTTP server of a read-only shelf queries a temporary copy of the Chroma store; uvicorn
    ends gracefully on SIGTERM and raises it again, and the copy goes with the process."""
    import signal

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "CROSSBOOK_EMBEDDER": "hash", "TMPDIR": str(scratch)}
    process = subprocess.Popen([CROSSBOOK, "--index", str(sample_index), "mcp", "--http", "127.0.0.1:0"],
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = process.stderr.readline()
        assert line.startswith("crossbook MCP server on http://127.0.0.1:"), line
        _, [(is_error, answer)] = anyio.run(_session_calls, line.split()[-1], [("search", {"query": "frost", "k": 1})])
        assert not is_error and answer["results"]
        assert [p.name for p in scratch.iterdir() if p.name.startswith("crossbook-chroma-")]  # the copy it reads
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == -signal.SIGTERM
    finally:
        process.kill()
        process.wait()
    assert [p.name for p in scratch.iterdir() if p.name.startswith("crossbook-chroma-")] == []
