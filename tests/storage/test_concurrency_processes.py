"""Two writers and readers on one index, as real processes.

Two `crossbook ingest` runs (spaCy relations on: long write transactions) start together on an index that already holds a book: the
second waits for the first (index/storage/lock.py), both succeed, and the index equals a fresh
build of the same books. Meanwhile a reader thread (its own connection each time) and
`crossbook where-else` processes keep answering. The old code: one writer died with
"database is locked"."""

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from crossbook.query.lookup import list_books, where_else
from crossbook.storage.db import open_db
from tests.helpers import BOOK_A, snapshot, write

# slow: real processes and spaCy (`pytest -m "not slow"` leaves it out)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_corpus"


def crossbook(index_dir: Path, *args: str) -> subprocess.Popen:
    # CROSSBOOK_WAIT rather than --wait: the same test runs on the old code (which had neither)
    env = {**os.environ, "CROSSBOOK_INDEX": str(index_dir), "CROSSBOOK_EMBEDDER": "hash", "CROSSBOOK_WAIT": "300"}
    return subprocess.Popen([sys.executable, "-m", "crossbook.cli.main", "-q", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(proc: subprocess.Popen) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=600)
    return proc.returncode, out, err


def test_two_writers_and_readers_on_one_index(tmp_path):
    index_dir = tmp_path / "live"
    seed = write(tmp_path / "a.md", BOOK_A)
    assert finish(crossbook(index_dir, "ingest", str(seed)))[0] == 0

    answers, errors, stop = [], [], threading.Event()

    def read_in_a_loop():
        while not stop.is_set():
            try:
                db = open_db(index_dir)
                hits = where_else(db, "Chilled")
                answers.append((len(list_books(db)), len(hits["entities"])))
                db.conn.close()
            except Exception as exc:  # any failure of a reader is what this test looks for
                errors.append(f"{type(exc).__name__}: {exc}")
            time.sleep(0.02)

    reader = threading.Thread(target=read_in_a_loop, daemon=True)
    reader.start()
    first = crossbook(index_dir, "ingest", str(SAMPLE / "grimoire.md"))
    second = crossbook(index_dir, "ingest", str(SAMPLE / "bestiary.md"), str(SAMPLE / "core_rules.md"))
    cli_readers = []
    while first.poll() is None or second.poll() is None:
        cli_readers.append(finish(crossbook(index_dir, "where-else", "Chilled", "--json")))
    results = [finish(first), finish(second)]
    stop.set()
    reader.join(30)

    for code, _, err in results:
        assert code == 0, err
    # the writers overlapped: one of them waited for the other (it did not fail, nor write at once)
    assert any("waiting for the index's writer (pid" in err for _, _, err in results)
    assert errors == []
    assert answers and all(entities == 1 for _, entities in answers)  # Chilled was there throughout
    assert cli_readers and all(code == 0 for code, _, _ in cli_readers), [e for c, _, e in cli_readers if c]
    seen_books = {books for books, _ in answers}
    assert min(seen_books) == 1 and max(seen_books) == 4  # readers saw the writes land, book by book

    fresh_dir = tmp_path / "fresh"
    code, _, err = finish(crossbook(fresh_dir, "ingest", str(seed), *(str(SAMPLE / n) for n in
                                    ("grimoire.md", "bestiary.md", "core_rules.md"))))
    assert code == 0, err
    assert snapshot(index_dir) == snapshot(fresh_dir)  # nothing lost, nothing doubled
