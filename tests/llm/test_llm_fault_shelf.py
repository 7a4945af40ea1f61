"""Prove it: a shelf ingested through ~15% injected faults equals the fault-free index,
and the API key never shows, whatever fails."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from crossbook.core.packs import load_pack
from crossbook.extract.openai_extractor import OpenAIExtractor
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db
from tests.fakes import FAULT_KINDS, INJECTION, VALID_ANSWER_FAULTS, FaultInjector, ScriptedOpenAI
from tests.helpers import openai_settings, render_book, shelf_headings, shelf_responder, snapshot, write

# slow: a whole shelf through injected faults, and a subprocess (`pytest -m "not slow"` leaves it out)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
BOOKS = ("core_rules.md", "grimoire.md", "bestiary.md")


def ingest_shelf(index_dir, server, books, **overrides):
    settings = openai_settings(index_dir, server, pack=str(books[0].parent / "emberfall.pack.toml"), **overrides)
    db = open_db(index_dir, create=True)
    extractor = OpenAIExtractor(settings, load_pack(settings.pack), cache=db, sleep=lambda s: None)
    results = ingest_paths(IngestJob(db, settings, extractor=extractor), list(books))
    db.conn.close()
    return results


def test_a_shelf_through_injected_faults_equals_the_fault_free_index(tmp_path, corpus):
    books = [corpus / name for name in BOOKS]
    # a fourth book citing the others, so the shelf makes enough requests for every fault kind
    cited = shelf_headings(books)[5:]
    books.append(write(corpus / "chronicle.md", render_book("Chronicle", [
        (f"Year {n // 5}", f"Entry {n}", [f"The scouts met {cited[n % len(cited)]} on day {n}.",
                                          f"Nobody forgot {cited[(7 * n) % len(cited)]}."]) for n in range(40)])))
    # prompt injection in the book text itself, in both runs
    grimoire = books[1].read_text(encoding="utf-8")
    books[1].write_text(grimoire.replace("Cost: 3 Ember.", f"Cost: 3 Ember. {INJECTION}", 1), encoding="utf-8")
    clean = shelf_responder(shelf_headings(books))
    with ScriptedOpenAI() as server:
        server.responder = clean
        fault_free = ingest_shelf(tmp_path / "clean", server, books)
    # a stall outlasts the timeout; the timeout leaves room for a loaded machine (CI shares it)
    faults = FaultInjector(clean, rate=0.15, stall_seconds=3.5)
    with ScriptedOpenAI() as server:
        server.responder = faults
        faulty = ingest_shelf(tmp_path / "faulty", server, books, request_timeout=1.5, max_retries=5)
    expected, got = snapshot(tmp_path / "clean"), snapshot(tmp_path / "faulty")
    assert expected["mentions"] and expected["relationships"]
    assert got == expected
    assert all(r.partial == 0 for r in faulty)
    calls_clean = sum(r.llm_calls for r in fault_free)
    calls_faulty = sum(r.llm_calls for r in faulty)
    injected = sum(faults.injected.values())
    assert set(faults.injected) == set(FAULT_KINDS)   # every kind was tried
    # each fault cost one more call, except the valid-but-wrong answers verification handles
    retried = injected - sum(faults.injected[k] for k in VALID_ANSWER_FAULTS)
    assert injected >= 0.1 * calls_faulty and calls_faulty == calls_clean + retried
    names = {e[1] for e in got["entities"]}
    assert "admin_password" not in names and "dragon_emperor" not in names


def test_the_api_key_never_appears_in_output_logs_or_tracebacks(cli, tmp_path, corpus, monkeypatch):
    secret = "sk-test-SECRET-4f1c9e0b7a"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    book = corpus / "grimoire.md"
    events = tmp_path / "events.ndjson"
    seen = []
    def refused(req):  # OpenAI quotes the key it refused
        return 401, {}, {"error": {
            "message": f"Incorrect API key provided: {secret}. You can find your API key at ...",
            "type": "invalid_request_error", "code": "invalid_api_key"}}
    with ScriptedOpenAI() as server:
        args = ["ingest", book, "--extractor", "openai", "--base-url", server.base_url]
        server.responder = refused
        for extra in (["--json", "--events", str(events)],):
            result = cli(*args, *extra)
            assert result.exit_code == 1 and "HTTP 401" in result.stderr
            seen += [result.stdout, result.stderr]
        # through faults that end in failed chunks
        server.responder = FaultInjector(shelf_responder(shelf_headings([book])), rate=1.0, kinds=("non_json",))
        result = cli(*args, "--json", "--events", str(events))
        assert result.exit_code == 1 and "no valid answer" in result.stderr
        seen += [result.stdout, result.stderr, events.read_text(encoding="utf-8")]
        # --debug prints the traceback: run the real program to see it
        server.responder = refused
        env = {**os.environ, "CROSSBOOK_INDEX": str(tmp_path / "index2"), "OPENAI_API_KEY": secret}
        proc = subprocess.run([sys.executable, "-c", "from crossbook.cli.main import run; run()", "--debug", *map(str, args)], env=env,
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 1 and "Traceback" in proc.stderr and "HTTP 401" in proc.stderr
        seen += [proc.stdout, proc.stderr]
    assert all(secret not in text for text in seen)


def test_the_api_key_never_appears_in_an_embedding_error(tmp_path):
    from crossbook.core.config import Settings
    from crossbook.vectors.embed import EmbeddingFailed, OpenAIEmbedder

    secret = "sk-test-SECRET-embed-77"
    with ScriptedOpenAI() as server:
        server.responder = lambda req: (401, {}, {"error": {"message": f"Incorrect API key provided: {secret}."}})
        embedder = OpenAIEmbedder(Settings(index_dir=tmp_path, api_key=secret, base_url=server.base_url, max_retries=0))
        try:
            embedder.embed(["text"])
        except EmbeddingFailed as exc:
            message = str(exc)
        assert "401" in message and secret not in message
