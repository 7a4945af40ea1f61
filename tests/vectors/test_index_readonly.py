"""A read-only index (a shared or archived copy, chmod -R a-w) can be queried by a user who
cannot write it: search, retrieve and doctor read the vectors through a writable temporary
copy of the Chroma store, which is removed when the command ends.

Tests run as root, where file modes stop no write, so the CLI runs in a child process
without that privilege: as ``nobody`` when that user can run this Python, else as root with
every capability dropped (``setpriv``), where the owner's mode bits apply as to any user.
The index's files must come out byte for byte as they went in, and the child's temporary
directory must be empty afterwards; ``crossbook mcp`` serves the same index to the same user.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import anyio
import pytest

from tests.conftest import SAMPLE
from tests.helpers import without_privilege

# slow: the CLI in a child process (`pytest -m "not slow"` leaves it out)
pytestmark = pytest.mark.slow

CROSSBOOK = [sys.executable, "-m", "crossbook.cli.main"]


def _files(index_dir: Path) -> dict[str, str]:
    """The index's files and their hashes (SQLite's shared-memory file left out: a reader
    may map it)."""
    return {str(p.relative_to(index_dir)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(index_dir.rglob("*")) if p.is_file() and not p.name.endswith("-shm")}


def _set_writable(root: Path, writable: bool) -> None:
    for path in [root, *root.rglob("*")]:
        mode = path.stat().st_mode
        write = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
        path.chmod((mode | stat.S_IWUSR) if writable else (mode & ~write))


@pytest.fixture
def shared_dir():
    """A directory every user can enter (pytest's tmp_path is root's own, mode 700)."""
    path = Path(tempfile.mkdtemp(prefix="crossbook-readonly-test-"))
    path.chmod(0o755)
    yield path
    _set_writable(path, True)
    shutil.rmtree(path, ignore_errors=True)


def test_a_user_without_write_permission_queries_a_read_only_index(cli, shared_dir):
    index_dir = shared_dir / "index"
    assert cli("--index", index_dir, "-q", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    prefix, _ = without_privilege()
    _set_writable(index_dir, False)
    probe = subprocess.run([*prefix, "touch", str(index_dir / "probe")], capture_output=True)
    assert probe.returncode != 0, "the child could still write the index: the test would prove nothing"
    child_tmp = shared_dir / "tmp"
    child_tmp.mkdir(mode=0o1777)
    child_tmp.chmod(0o1777)
    env = {"PATH": os.environ["PATH"], "HOME": str(child_tmp), "TMPDIR": str(child_tmp),
           "CROSSBOOK_EMBEDDER": "hash", "XDG_CACHE_HOME": str(child_tmp / "cache")}
    before = _files(index_dir)

    def run(*args: str) -> dict:
        done = subprocess.run([*prefix, *CROSSBOOK, "--index", str(index_dir), *args, "--json"],
                              capture_output=True, text=True, env=env, cwd=shared_dir, timeout=300)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    assert [r["book"] for r in run("search", "frost breath", "-k", "3")["results"]][:1] == [
        "Bestiary of the Shattered Vale"]
    assert len(run("retrieve", "What does the spell the Rime Wraith casts cost?", "-k", "3")["results"]) == 3
    doctor = run("doctor")
    assert doctor["ok"] and doctor["vectors"] == doctor["chunks"] > 0
    chunk = run("where-else", "Shield")["entities"][0]["books"][0]["mentions"][0]["chunk_id"]
    assert run("show", chunk)["sections"][0]["chunk_id"] == chunk
    assert all(book["vectors_complete"] for book in run("books"))
    assert anyio.run(_mcp_search, [*prefix, *CROSSBOOK, "--index", str(index_dir), "mcp"], env, shared_dir) == 3
    assert list(child_tmp.iterdir()) == [], "a temporary copy of the vectors was left behind"
    assert _files(index_dir) == before


async def _mcp_search(command: list[str], env: dict, cwd: Path) -> int:
    """How many sections ``crossbook mcp`` (run by ``command``) finds for a search."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    server = StdioServerParameters(command=command[0], args=command[1:], env=env, cwd=cwd)
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        result = await session.call_tool("search", {"query": "frost breath", "k": 3})
        assert not result.is_error, result.content
        return len(result.structured_content["results"])


def test_a_writing_command_on_a_read_only_index_fails_with_one_line(cli, shared_dir):
    index_dir = shared_dir / "index"
    assert cli("--index", index_dir, "-q", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    prefix, _ = without_privilege()
    _set_writable(index_dir, False)
    done = subprocess.run([*prefix, *CROSSBOOK, "--index", str(index_dir), "delete-book", "Bestiary", "--json"],
                          capture_output=True, text=True, env={**os.environ, "CROSSBOOK_EMBEDDER": "hash"},
                          cwd=shared_dir, timeout=300)
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"]["code"] in ("index_read_only", "index_busy")
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
