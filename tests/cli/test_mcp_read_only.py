"""A read-only shelf changes nothing: on an index its user cannot write (``chmod -R a-w``;
the test runs the server as ``nobody`` through ``setpriv`` when it runs as root, since root
writes read-only files) every read tool answers, no file of the index changes, the vector
store is copied once and reused, and SIGTERM leaves no copy in the temporary folder (one a
SIGKILL left is swept when the next server starts); on a writable index opened read-only, the
data files of SQLite and Chroma are byte-identical after every read tool."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from crossbook.api import Shelf
from tests.conftest import SAMPLE
from tests.helpers import without_privilege

# slow: crossbook processes (`pytest -m "not slow"` leaves it out)
pytestmark = pytest.mark.slow

CROSSBOOK = str(Path(sys.executable).parent / "crossbook")
SIDE_FILES = ("-wal", "-shm", "-journal")


def _snapshot(index: Path, *, data_only: bool = False) -> dict[str, tuple]:
    """Each file's bytes' hash and mode (``data_only``: SQLite's side files left out)."""
    out = {}
    for path in sorted(index.rglob("*")):
        if path.is_file() and not (data_only and path.name.endswith(SIDE_FILES)):
            out[str(path.relative_to(index))] = (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mode)
    return out


def _copies(tmp: Path) -> list[str]:
    return sorted(p.name for p in tmp.iterdir() if p.name.startswith("crossbook-chroma-"))


@pytest.fixture
def shared(tmp_path):
    """(index, temporary folder) under a folder anyone may enter; the index built, then made
    unwritable; made writable again at the end so it can be removed."""
    base = Path(tempfile.mkdtemp(prefix="crossbook-ro-test-"))
    base.chmod(0o755)
    index, tmp = base / "index", base / "tmp"
    tmp.mkdir()
    tmp.chmod(0o777)
    env = {**os.environ, "CROSSBOOK_EMBEDDER": "hash"}
    subprocess.run([CROSSBOOK, "-q", "--index", str(index), "rebuild", str(SAMPLE / "crossbook.toml")], env=env,
                   check=True, capture_output=True)
    subprocess.run(["chmod", "-R", "a-w,a+rX", str(index)], check=True)
    yield index, tmp
    subprocess.run(["chmod", "-R", "u+w", str(base)], check=True)
    shutil.rmtree(base)


class Server:
    """``crossbook mcp`` spoken to in JSON-RPC lines, so the test holds its process."""

    def __init__(self, index: Path, tmp: Path):
        env = {"PATH": os.environ["PATH"], "CROSSBOOK_EMBEDDER": "hash", "TMPDIR": str(tmp), "HOME": str(tmp)}
        self.proc = subprocess.Popen([*without_privilege()[0], CROSSBOOK, "--index", str(index), "mcp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True, cwd=tmp)
        self.next_id = 0
        self.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "clientInfo": {"name": "test", "version": "0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict) -> None:
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def call(self, method: str, params: dict) -> dict:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        for line in self.proc.stdout:
            message = json.loads(line)
            if message.get("id") == self.next_id:
                assert "error" not in message, message
                return message["result"]
        raise AssertionError(f"the server ended: {self.proc.stderr.read()}")

    def tool(self, name: str, arguments: dict) -> dict:
        result = self.call("tools/call", {"name": name, "arguments": arguments})
        assert not result.get("isError"), (name, result)
        return result["structuredContent"]

    def signal(self, signum: int) -> int:
        self.proc.send_signal(signum)
        return self.proc.wait(timeout=60)


def _every_read_tool(server) -> None:
    found = server.tool("where_else", {"name": "Frost Lance"})
    chunk = found["entities"][0]["books"][0]["mentions"][0]["chunk_id"]
    server.tool("entity", {"name": "Chilled"})
    assert server.tool("search", {"query": "frost breath", "k": 3})["results"]
    assert server.tool("retrieve", {"question": "What does the Rime Wraith cast?", "k": 3})["results"]
    assert server.tool("search", {"query": "a second search", "k": 2})["results"]
    server.tool("show", {"chunk_id": chunk})
    server.tool("books", {})


def test_an_unwritable_index_answers_every_read_tool_and_changes_nothing(shared):
    index, tmp = shared
    before = _snapshot(index)
    server = Server(index, tmp)
    _every_read_tool(server)
    assert len(_copies(tmp)) == 1  # copied once, reused by every vector query
    assert server.signal(signal.SIGTERM) == -signal.SIGTERM
    assert _copies(tmp) == []  # SIGTERM removed the copy
    assert _snapshot(index) == before


def test_a_copy_a_killed_server_left_is_swept_at_the_next_start(shared):
    index, tmp = shared
    server = Server(index, tmp)
    server.tool("search", {"query": "frost", "k": 1})
    assert server.signal(signal.SIGKILL) == -signal.SIGKILL
    assert len(_copies(tmp)) == 1
    again = Server(index, tmp)
    assert _copies(tmp) == []
    again.proc.stdin.close()
    assert again.proc.wait(timeout=60) == 0


def test_a_writable_index_opened_read_only_keeps_its_data_files_byte_identical(index_dir):
    env = {**os.environ, "CROSSBOOK_EMBEDDER": "hash"}
    subprocess.run([CROSSBOOK, "-q", "--index", str(index_dir), "rebuild", str(SAMPLE / "crossbook.toml")], env=env,
                   check=True, capture_output=True)
    before = _snapshot(index_dir, data_only=True)
    assert any(name.startswith("chroma") for name in before)
    with Shelf(index_dir, embedder="hash", read_only=True) as shelf:
        chunk = shelf.where_else("Frost Lance").to_dict()["entities"][0]["books"][0]["mentions"][0]["chunk_id"]
        calls = [lambda: shelf.where_else("Frost Lance"), lambda: shelf.entity("Chilled"),
                 lambda: shelf.search("frost breath", 3), lambda: shelf.retrieve("What does the Rime Wraith cast?"),
                 lambda: shelf.show(chunk), shelf.books, lambda: shelf.search("again", 2)]
        for call in calls:
            call()
            assert _snapshot(index_dir, data_only=True) == before, call
