"""A book stored with --allow-partial (some chunks got no valid answer) shows as
partial in `books` and `stats`, and `doctor` lists it."""

from __future__ import annotations

import json

from tests.fakes import completion_body, passage_of
from tests.helpers import BOOK_A, heading_responder, write


def _failing_on(heading: str):
    clean = heading_responder()

    def respond(request):
        if passage_of(request).startswith(f"### {heading}\n"):
            return 200, {}, completion_body("{not json")
        return clean(request)

    return respond


def test_a_partial_book_shows_in_books_stats_and_doctor(cli, tmp_path, scripted_openai, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    scripted_openai.responder = _failing_on("Prone")
    book = write(tmp_path / "a.md", BOOK_A)
    stored = cli("ingest", book, "--extractor", "openai", "--base-url", scripted_openai.base_url, "--model", "m",
                 "--allow-partial", "--json")
    assert stored.exit_code == 0, stored.stderr
    assert json.loads(stored.stdout)[0]["partial"] == 1

    assert "Core Rules (partial: 1 without entities)" in cli("books").stdout
    stats = json.loads(cli("stats", "--json").stdout)
    assert stats["partial_books"] == {"Core Rules": 1}
    assert "partial books" in cli("stats").stdout

    doctor = cli("doctor", "--json")
    assert doctor.exit_code == 0, doctor.stderr   # partial is not drift
    assert json.loads(doctor.stdout)["partial_books"] == {"Core Rules": 1}
    assert "stored partial" in cli("doctor").stdout and "Core Rules (1 chunk)" in cli("doctor").stdout


def test_a_complete_index_lists_no_partial_book(cli, tmp_path):
    write(tmp_path / "a.md", BOOK_A)
    assert cli("ingest", tmp_path / "a.md").exit_code == 0
    assert json.loads(cli("stats", "--json").stdout)["partial_books"] == {}
    assert json.loads(cli("doctor", "--json").stdout)["partial_books"] == {}
    assert "partial" not in cli("books").stdout and "partial" not in cli("stats").stdout
