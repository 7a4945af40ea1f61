"""A dead --base-url (connection refused) took 36 to 65 s, printed about 150
warnings and ended with one 846-character error. Now a connection that cannot be opened,
while the endpoint never answered in the run, is tried 3 times; then the run stops with
one short line, and retries are said once per reason, not once per chunk."""

from __future__ import annotations

import re
import socket

from tests.helpers import render_book, write


def _dead_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_dead_base_url_fails_with_one_short_line(cli, tmp_path, index_dir):
    book = write(tmp_path / "book.md", render_book("Dead Book", [
        (f"Chapter {n}", f"Rule {n}", [f"Rule {n} costs {n} Ember."]) for n in range(12)]))
    result = cli("ingest", book, "--extractor", "openai", "--base-url", f"http://127.0.0.1:{_dead_port()}/v1",
                 "--model", "m", "--concurrency", "4")
    assert result.exit_code == 1 and result.stdout == ""
    # the progress of the steps before any request ("Dead Book: plan 13/13 sections") aside
    lines = [line for line in result.stderr.splitlines() if line.strip() and not re.search(r" \d+/\d+ \w+$", line)]
    errors = [line for line in lines if line.startswith("Error:")]
    warnings = [line for line in lines if line.startswith("Warning:")]
    assert len(errors) == 1 and len(errors[0]) < 200, errors
    assert "cannot reach the model endpoint" in errors[0] and "--base-url" in errors[0]
    assert len(warnings) <= 1, warnings   # the first retry is said; not one per chunk
    assert len(lines) == len(errors) + len(warnings)
    assert not (index_dir / "crossbook.db").exists() or cli("books", "--json").stdout.strip() == "[]"


def test_retries_are_said_once_per_reason(tmp_path, index_dir, scripted_openai):
    from crossbook.core.packs import load_pack
    from crossbook.extract.openai_extractor import OpenAIExtractor
    from crossbook.ingest.pipeline import IngestJob, ingest_paths
    from crossbook.storage.db import open_db
    from tests.helpers import heading_responder, openai_settings

    scripted_openai.responder = heading_responder()
    for _ in range(6):  # six requests in a row get a 503, each is retried
        scripted_openai.enqueue({"error": {"message": "boom"}}, status=503)
    settings = openai_settings(index_dir, scripted_openai, concurrency=1, max_retries=8)
    db = open_db(index_dir, create=True)
    warnings: list[str] = []
    extractor = OpenAIExtractor(settings, load_pack("generic"), cache=db, sleep=lambda s: None)
    book = write(tmp_path / "b.md", render_book("Six", [(f"C{n}", f"S{n}", ["Text."]) for n in range(3)]))
    ingest_paths(IngestJob(db, settings, extractor=extractor, warn=warnings.append), [book])
    retries = [w for w in warnings if "HTTP 503" in w]
    assert len(retries) == 2, warnings
    assert "retrying in" in retries[0] and retries[1] == "and 5 more retries (the endpoint failed (HTTP 503))"
