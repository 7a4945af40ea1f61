"""No module is imported in one thread while another thread uses it.

``crossbook ingest --extractor openai`` crashed at random with "partially initialized module
'httpx' has no attribute 'Response'": request threads used the openai client (which looks
``httpx`` up in ``sys.modules`` on every request) while the main thread was importing
chromadb (which imports httpx). The fix imports everything a run will import on the main
thread before the first request thread starts (index/ingest/preload.py), and the request threads
import nothing for the first time. The subprocess tests make the window wide (the import
sleeps a second while half done) so the old code fails every time, not at random.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from crossbook.core.packs import load_pack
from crossbook.extract.openai_extractor import OpenAIExtractor
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db
from tests.helpers import BOOK_A, BOOK_B, heading_responder, openai_settings, write

# slow: fresh interpreters (`pytest -m "not slow"` leaves it out)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CHILD = ROOT / "tests" / "import_race_child.py"


def _race_book(path: Path, sections: int = 30) -> Path:
    return write(path, "# Race Book\n" + "".join(
        f"\n## Part {n}\n\n### Rule {n}\nRule {n} says the Frost Lance costs {n} Ember.\n" for n in range(sections)))


def _run_child(tmp_path: Path, module: str, run: int, fault_rate: float = 0.0) -> dict:
    book = _race_book(tmp_path / "race.md")
    done = subprocess.run(
        [sys.executable, str(CHILD), module, "1.0", str(book), str(tmp_path / f"index-{run}"), str(fault_rate)],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("module,run", [("httpx", 1), ("httpx", 2), ("httpx", 3), ("chromadb", 1)])
def test_requests_in_flight_while_a_slow_first_import_runs(tmp_path, module, run):
    outcome = _run_child(tmp_path, module, run)
    assert outcome["module_loaded"]  # the slow import did happen in that run
    assert outcome["exit_code"] == 0, outcome["error"]
    assert outcome["requests"] >= 61
    assert outcome["thread_imports"] == []


def test_no_request_thread_imports_a_module_first_on_the_retry_paths(tmp_path):
    # 30 % of the answers are faults: 5xx, dropped connections, truncated, malformed, refused
    outcome = _run_child(tmp_path, "httpx", 0, fault_rate=0.3)
    assert outcome["exit_code"] == 0, outcome["error"]
    assert outcome["requests"] > 61  # retries happened
    assert outcome["thread_imports"] == []


class RecordingVectors:
    """A vector store that notes, when it is opened and written, which request threads are
    alive and how many requests the server holds in flight."""

    embedder = None

    def __init__(self, server):
        self.server = server
        self.opened_with_threads: list[str] | None = None
        self.written: list[tuple[str, int]] = []

    def open(self) -> None:
        if self.opened_with_threads is None:
            self.opened_with_threads = [t.name for t in threading.enumerate() if t.name.startswith("crossbook-llm")]

    def ensure_book(self, db, title) -> None:
        pass

    def replace_book(self, db, title, children, progress=None) -> None:
        self.written.append((title, self.server.in_flight))
        self.server.release()  # the held requests of the next book may now be answered

    def delete_book(self, title) -> None:
        pass


def test_the_store_is_opened_before_any_request_thread_starts(tmp_path, index_dir, scripted_openai):
    scripted_openai.responder = heading_responder()
    settings = openai_settings(index_dir, scripted_openai, concurrency=2)
    db = open_db(index_dir, create=True)
    vectors = RecordingVectors(scripted_openai)
    extractor = OpenAIExtractor(settings, load_pack("generic"), cache=db, sleep=lambda s: None)
    ingest_paths(IngestJob(db, settings, extractor=extractor, vectors=vectors), [write(tmp_path / "a.md", BOOK_A)])
    assert vectors.opened_with_threads == []


def test_a_later_books_requests_are_in_flight_while_a_book_is_written(tmp_path, index_dir, scripted_openai):
    # what a real server does: the second book's requests are still out while the first
    # book's SQLite transaction commits and its vectors are written
    scripted_openai.responder = heading_responder()
    scripted_openai.held = lambda request: "Grimoire" in json.dumps(request)
    settings = openai_settings(index_dir, scripted_openai, concurrency=4)
    db = open_db(index_dir, create=True)
    vectors = RecordingVectors(scripted_openai)
    extractor = OpenAIExtractor(settings, load_pack("generic"), cache=db, sleep=lambda s: None)
    books = [write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)]
    results = ingest_paths(IngestJob(db, settings, extractor=extractor, vectors=vectors), books)
    assert [r.title for r in results] == ["Core Rules", "Grimoire"]
    assert vectors.written[0][0] == "Core Rules" and vectors.written[0][1] >= 1
