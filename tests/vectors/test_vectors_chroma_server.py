"""The Chroma server path: a real `chroma run` on 127.0.0.1 and a free port."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import BOOK_A, BOOK_B, write

# slow: a Chroma server process (`pytest -m "not slow"` leaves it out)
pytestmark = pytest.mark.slow

CHROMA = Path(sys.executable).with_name("chroma")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def chroma_server(tmp_path):
    if not CHROMA.exists() and shutil.which("chroma") is None:
        pytest.fail("the chroma command (from the chromadb package) is not installed")
    port = _free_port()
    log = open(tmp_path / "chroma.log", "w")
    proc = subprocess.Popen(
        [str(CHROMA if CHROMA.exists() else "chroma"), "run", "--path", str(tmp_path / "server-data"),
         "--host", "127.0.0.1", "--port", str(port)],
        stdout=log, stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"chroma run did not start: {(tmp_path / 'chroma.log').read_text()[-2000:]}")
            time.sleep(0.2)
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def test_ingest_search_delete_through_a_chroma_server(chroma_server, tmp_path, cli, index_dir):
    a = write(tmp_path / "a.md", BOOK_A)
    b = write(tmp_path / "b.md", BOOK_B)
    url = ["--chroma-url", chroma_server]
    assert cli(*url, "ingest", a, b).exit_code == 0
    # the vectors are on the server, not in an embedded store under the index
    assert not (index_dir / "chroma").exists()
    hits = json.loads(cli(*url, "search", "Frost Lance Ember", "--json").stdout)["results"]
    assert hits[0]["book"] == "Grimoire"
    assert cli(*url, "delete-book", "Grimoire").exit_code == 0
    hits = json.loads(cli(*url, "search", "Frost Lance Ember", "--json").stdout)["results"]
    assert hits and {h["book"] for h in hits} == {"Core Rules"}
    doctor = json.loads(cli(*url, "doctor", "--json").stdout)
    assert doctor["ok"] and doctor["location"] == chroma_server and doctor["vectors"] == doctor["chunks"]


def test_unreachable_chroma_server_is_a_one_line_error_and_changes_nothing(tmp_path, cli, index_dir):
    a = write(tmp_path / "a.md", BOOK_A)
    result = cli("--chroma-url", f"http://127.0.0.1:{_free_port()}", "ingest", a)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "cannot reach Chroma" in result.stderr
    assert not index_dir.exists()  # the index was not even created
