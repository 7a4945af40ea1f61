"""One writer per index. A second writer waits up to --wait seconds, then
exits 1 with "index is busy (pid N)"; queries keep working; two processes creating an index
at once do not both migrate it; a killed writer leaves no lock behind."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from crossbook.core.errors import IndexBusy
from crossbook.storage.lock import writer_lock
from tests.helpers import BOOK_A, BOOK_B, write

# slow: real processes (`pytest -m "not slow"` leaves it out)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


class HeldLock:
    """The index's writer lock held by another thread (threads exclude each other like
    processes do; the CLI under test runs in this thread)."""

    def __init__(self, index_dir: Path):
        self.index_dir = index_dir
        self.taken, self.release = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._hold, daemon=True)

    def _hold(self) -> None:
        with writer_lock(self.index_dir, 5, command="ingest"):
            self.taken.set()
            self.release.wait(30)

    def __enter__(self) -> "HeldLock":
        self.thread.start()
        assert self.taken.wait(10)
        return self

    def __exit__(self, *exc) -> None:
        self.release.set()
        self.thread.join(10)


@pytest.fixture
def shelf(tmp_path, cli_json):
    """An index with two books; returns the paths the commands below need."""
    a, b = write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)
    cli_json("ingest", a, b)
    manifest = write(tmp_path / "crossbook.toml", '[[books]]\npath = "a.md"\n[[books]]\npath = "b.md"\n')
    return {"a": a, "manifest": manifest}


WRITERS = {
    "ingest": lambda p: ["ingest", p["a"], "--force"],
    "rebuild": lambda p: ["rebuild", p["manifest"]],
    "delete-book": lambda p: ["delete-book", "Grimoire"],
    "reembed": lambda p: ["reembed"],
    "doctor --repair": lambda p: ["doctor", "--repair"],
    "review accept": lambda p: ["review", "accept", "1"],
    "cache prune": lambda p: ["cache", "prune"],
    "batch collect": lambda p: ["batch", "collect"],
    "batch forget": lambda p: ["batch", "forget", "batch_1"],
}


@pytest.mark.parametrize("command", WRITERS)
def test_every_writing_command_waits_for_the_writer_then_reports_busy(command, shelf, cli, index_dir, monkeypatch):
    monkeypatch.setenv("CROSSBOOK_WAIT", "0.2")  # the env var: the old code ran these at once
    before = cli("books", "--json").stdout
    with HeldLock(index_dir):
        result = cli(*WRITERS[command](shelf), "--json")
    assert result.exit_code == 1, result.stderr
    assert f"index is busy (pid {os.getpid()}: crossbook ingest, since " in result.stderr
    assert "--wait SECONDS" in result.stderr
    assert json.loads(result.stdout)["error"]["code"] == "index_busy"
    assert cli("books", "--json").stdout == before  # nothing was written


def test_queries_answer_while_a_writer_holds_the_lock(shelf, cli, cli_json, index_dir):
    with HeldLock(index_dir):
        assert cli_json("where-else", "Frost Lance")["entities"]
        assert {b["title"] for b in cli_json("books")} == {"Core Rules", "Grimoire"}
        assert cli_json("stats")["books"] == 2
        assert cli("doctor").exit_code == 0  # a doctor without --repair only reads


def test_a_waiting_writer_goes_on_when_the_lock_is_released(shelf, cli, index_dir, tmp_path):
    held = HeldLock(index_dir).__enter__()
    timer = threading.Timer(0.3, held.__exit__)
    timer.start()
    try:
        result = cli("--wait", "20", "ingest", write(tmp_path / "c.md", "# Third\n\n## Rope\nA Rope.\n"))
    finally:
        timer.join()
    assert result.exit_code == 0, result.stderr
    assert f"waiting for the index's writer (pid {os.getpid()}: crossbook ingest" in result.stderr


def test_wait_zero_fails_at_once_and_the_library_raises_index_busy(index_dir):
    with HeldLock(index_dir):
        with pytest.raises(IndexBusy, match=r"index is busy \(pid \d+"):
            with writer_lock(index_dir, 0):
                pass


def test_the_lock_is_reentrant_in_one_thread(index_dir):
    from crossbook.storage.db import open_db

    with writer_lock(index_dir, 0):
        with writer_lock(index_dir, 0):  # open_db migrating under a command that holds it
            open_db(index_dir, create=True)
    with HeldLock(index_dir):  # and released at the end of the outer block
        pass


def test_a_killed_writer_leaves_no_lock(index_dir):
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; from crossbook.storage.lock import writer_lock\n"
         f"with writer_lock(Path({str(index_dir)!r}), 0, command='ingest'):\n"
         "    print('held', flush=True); time.sleep(60)"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(IndexBusy, match=f"pid {holder.pid}: crossbook ingest"):
            with writer_lock(index_dir, 0):
                pass
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    with writer_lock(index_dir, 0):  # the kernel dropped the flock with the process
        pass


def test_the_lock_file_does_not_make_a_new_index_directory_look_foreign(index_dir, cli_json, tmp_path):
    with writer_lock(index_dir, 0):
        pass
    assert [p.name for p in index_dir.iterdir()] == ["crossbook.lock"]
    assert cli_json("ingest", write(tmp_path / "a.md", BOOK_A))[0]["status"] == "added"


OPEN_AT = """
import sys, time
from pathlib import Path
from crossbook.storage.db import open_db
start = float(sys.argv[2])
while time.time() < start:
    pass
db = open_db(Path(sys.argv[1]), create=True)
print(db.execute("SELECT count(*) FROM _sqlite_migrations").fetchone()[0])
"""


def test_processes_creating_one_index_at_once_do_not_race_the_migrations(tmp_path):
    """The old code: 'duplicate column name' or 'table ... already exists' in all but one."""
    failures = []
    for attempt in range(3):
        index_dir = tmp_path / f"fresh{attempt}"
        start = time.time() + 1.5  # every process is past its imports by then
        procs = [subprocess.Popen([sys.executable, "-c", OPEN_AT, str(index_dir), str(start)], cwd=ROOT,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
        for proc in procs:
            out, err = proc.communicate(timeout=60)
            if proc.returncode != 0:
                failures.append(err.strip().splitlines()[-1])
    assert failures == []


def test_a_writer_on_a_read_only_index_directory_says_read_only(shelf, cli, monkeypatch):
    real_open = os.open

    def refuse_the_lock_file(path, *args, **kwargs):  # as a directory we may not write to does
        if str(path).endswith("crossbook.lock"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse_the_lock_file)
    result = cli("delete-book", "Grimoire", "--json")
    assert result.exit_code == 1 and "is read-only: this command writes to the index" in result.stderr
    assert json.loads(result.stdout)["error"]["code"] == "index_read_only"
