"""ingest --batch and `crossbook batch status|collect` against the scripted server's Batch API."""

import json

import pytest

from crossbook.core.errors import BatchFailed
from crossbook.ingest.batch import ingest_through_batch
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db
from tests.conftest import make_job
from tests.fakes import completion_body, passage_of
from tests.helpers import BOOK_A, BOOK_B, heading_responder, openai_settings, snapshot, write


def _job(index_dir, server, **overrides) -> IngestJob:
    return make_job(index_dir, openai_settings(index_dir, server, batch_poll=0, **overrides))


def _batch_ingest(index_dir, server, paths, **kwargs):
    sleeps = []
    outcome = ingest_through_batch(_job(index_dir, server), paths, sleep=sleeps.append, **kwargs)
    return outcome, sleeps


def _sync_ingest(index_dir, server, paths):
    return ingest_paths(_job(index_dir, server), paths)


def _cache(index_dir) -> dict:
    return dict(open_db(index_dir).execute("SELECT key, response FROM llm_cache").fetchall())


def test_batch_ingest_equals_a_synchronous_ingest(tmp_path, scripted_openai):
    scripted_openai.responder = heading_responder({"Frost Lance": [("Chilled", "condition")]})
    books = [write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)]
    outcome, sleeps = _batch_ingest(tmp_path / "batch", scripted_openai, books)
    assert scripted_openai.chat_calls == []  # every answer came through the batch
    assert [b.status for b in outcome.batches] == ["completed"]
    assert sleeps == [0.0, 0.0]  # validating -> in_progress -> finalizing -> completed
    assert [(r.title, r.llm_calls, r.cache_hits) for r in outcome.results] == [("Core Rules", 0, 6), ("Grimoire", 0, 4)]
    assert outcome.submitted == 10 and outcome.batches[0].states == {"cached": 10}
    uploads = [h for h in scripted_openai.history if h["path"] == "/v1/files"]
    assert [(u["purpose"], u["filename"]) for u in uploads] == [("batch", "crossbook-requests.jsonl")]
    [created] = [h for h in scripted_openai.history if h["path"] == "/v1/batches"]
    assert (created["endpoint"], created["completion_window"]) == ("/v1/chat/completions", "24h")

    _sync_ingest(tmp_path / "sync", scripted_openai, books)
    assert snapshot(tmp_path / "batch") == snapshot(tmp_path / "sync")
    # the batch lines are the synchronous requests (but for the known-entity hint, which a
    # book submitted with Core Rules is not offered), and their custom_id is the cache key
    def bodies(requests, book):
        return sorted(json.dumps(r, sort_keys=True) for r in requests if f"from {book}," in json.dumps(r))

    sync_requests = [{k: v for k, v in c.items() if k != "path"} for c in scripted_openai.chat_calls]
    lines = scripted_openai.batch_api.lines
    assert bodies([line["body"] for line in lines], "Core Rules") == bodies(sync_requests, "Core Rules")
    assert len(bodies(sync_requests, "Grimoire")) == 4
    assert {line["custom_id"] for line in lines} == set(_cache(tmp_path / "sync")) == set(_cache(tmp_path / "batch"))


def test_a_second_run_makes_no_request(tmp_path, scripted_openai):
    scripted_openai.responder = heading_responder()
    book = write(tmp_path / "a.md", BOOK_A)
    _batch_ingest(tmp_path / "index", scripted_openai, [book])
    requests = len(scripted_openai.history)
    again, _ = _batch_ingest(tmp_path / "index", scripted_openai, [book])
    assert len(scripted_openai.history) == requests
    assert (again.submitted, again.cached, again.batches) == (0, 6, [])
    assert [r.status for r in again.results] == ["unchanged"]
    forced, _ = _batch_ingest(tmp_path / "index", scripted_openai, [book], force=True)
    assert len(scripted_openai.history) == requests
    assert [(r.status, r.llm_calls, r.cache_hits) for r in forced.results] == [("updated", 0, 6)]


def test_an_expired_batch_is_reported_its_answers_kept_and_the_rest_resubmitted(tmp_path, scripted_openai):
    scripted_openai.responder = heading_responder()
    scripted_openai.batch_api.steps = ("validating", "in_progress", "expired")
    scripted_openai.batch_api.answered = 2
    book = write(tmp_path / "a.md", BOOK_A)
    with pytest.raises(BatchFailed, match=r"batch batch_1 expired \(batch_expired: .*\): 2 of 6 answers cached, "
                                          r"4 chunks unanswered\. Nothing was ingested"):
        _batch_ingest(tmp_path / "index", scripted_openai, [book])
    db = open_db(tmp_path / "index")
    assert db.execute("SELECT count(*) FROM books").fetchone()[0] == 0
    answered = {line["custom_id"] for line in scripted_openai.batch_api.lines[:2]}
    assert set(_cache(tmp_path / "index")) == answered
    assert dict(db.execute("SELECT state, count(*) FROM llm_batch_requests GROUP BY state").fetchall()) == {
        "cached": 2, "unanswered": 4}
    # the next run submits only the 4 chunks the batch never ran, then ingests
    scripted_openai.batch_api.steps = ("validating", "completed")
    again, _ = _batch_ingest(tmp_path / "index", scripted_openai, [book])
    assert (again.submitted, again.cached) == (4, 2)
    assert {line["custom_id"] for line in scripted_openai.batch_api.lines[6:]}.isdisjoint(answered)
    assert scripted_openai.chat_calls == []
    _sync_ingest(tmp_path / "sync", scripted_openai, [book])
    assert snapshot(tmp_path / "index") == snapshot(tmp_path / "sync")


def test_a_failed_batch_stores_nothing(tmp_path, scripted_openai):
    scripted_openai.responder = heading_responder()
    scripted_openai.batch_api.steps = ("validating", "failed")
    with pytest.raises(BatchFailed, match=r"batch batch_1 failed \(the batch failed \(The batch input file is not "
                                          r"valid\.\)\): 0 of 6 answers cached, 6 chunks unanswered"):
        _batch_ingest(tmp_path / "index", scripted_openai, [write(tmp_path / "a.md", BOOK_A)])
    db = open_db(tmp_path / "index")
    assert _cache(tmp_path / "index") == {}
    assert db.execute("SELECT count(*) FROM books").fetchone()[0] == 0
    assert scripted_openai.batch_api.lines == [] and scripted_openai.chat_calls == []


def _spoiled(kinds: dict[str, str]):
    """A batch responder: heading_responder's answer, except for the passages whose heading
    is in ``kinds``, which get an invalid answer or a failed request of that kind."""
    clean = heading_responder()

    def respond(request):
        status, headers, good = clean(request)
        heading = passage_of(request).split("\n", 1)[0].lstrip("# ").strip()
        kind = kinds.get(heading)
        content = good["choices"][0]["message"]["content"]
        if kind == "truncated":
            return 200, {}, completion_body(content[:10], finish_reason="length")
        if kind == "not_json":
            return 200, {}, completion_body("Sure! " + content)
        if kind == "off_schema":
            return 200, {}, completion_body(json.dumps({"items": []}))
        if kind == "server_error":
            return 500, {}, {"error": {"message": "overloaded"}}
        return status, headers, good

    return respond


def test_invalid_batch_answers_are_reported_never_cached_and_asked_synchronously(tmp_path, scripted_openai):
    scripted_openai.responder = heading_responder()
    scripted_openai.batch_api.responder = _spoiled(
        {"Chilled": "truncated", "Prone": "not_json", "Shield": "off_schema", "Equipment": "server_error"})
    book = write(tmp_path / "a.md", BOOK_A)
    warnings = []
    job = _job(tmp_path / "index", scripted_openai)
    job.warn = warnings.append
    outcome = ingest_through_batch(job, [book], sleep=lambda s: None)
    assert outcome.batches[0].states == {"cached": 2, "invalid": 4}
    expected = {"Conditions > Chilled": "answer truncated (finish_reason=length)", "Conditions > Prone": "not JSON",
                "Equipment > Shield": "entities", "Equipment:": "the request failed (HTTP 500: overloaded)"}
    assert len(warnings) == 4
    for section, reason in expected.items():
        [warning] = [w for w in warnings if f"Core Rules > {section}" in w]
        assert reason in warning and warning.endswith("asking it again directly")
    # nothing the batch answered invalidly is stored; the synchronous path asked those 4
    assert len(scripted_openai.chat_calls) == 4
    assert [(r.llm_calls, r.cache_hits) for r in outcome.results] == [(4, 2)]
    _sync_ingest(tmp_path / "sync", scripted_openai, [book])
    assert snapshot(tmp_path / "index") == snapshot(tmp_path / "sync")
    assert _cache(tmp_path / "index") == _cache(tmp_path / "sync")
    # a later --batch run does not submit them again: they are the synchronous path's
    again, _ = _batch_ingest(tmp_path / "index", scripted_openai, [book])
    assert (again.submitted, again.batches) == (0, [])


@pytest.fixture
def batch_cli(cli, scripted_openai, monkeypatch):
    """crossbook with the scripted endpoint's key and no wait between polls."""
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("CROSSBOOK_BATCH_POLL", "0")
    return cli


def _openai_flags(server):
    return ["--extractor", "openai", "--model", "scripted-model", "--base-url", server.base_url]


def test_no_wait_then_status_and_collect_resume_in_later_processes(tmp_path, index_dir, scripted_openai, batch_cli):
    scripted_openai.responder = heading_responder()
    book = write(tmp_path / "a.md", BOOK_A)
    submitted = batch_cli("ingest", book, *_openai_flags(scripted_openai), "--batch", "--no-wait", "--json")
    assert submitted.exit_code == 0, submitted.stderr
    document = json.loads(submitted.stdout)
    assert (document["submitted"], document["cached"]) == (6, 0)
    [batch] = document["batches"]
    assert (batch["status"], batch["states"], batch["collected_at"]) == ("in_progress", {"submitted": 6}, None)
    assert batch["books"] == [{"title": "Core Rules", "path": str(book), "chunks": 6}]
    assert open_db(index_dir).execute("SELECT count(*) FROM books").fetchone()[0] == 0

    text = batch_cli("batch", "status", batch["id"])  # a named batch; text for people
    assert text.exit_code == 0 and text.stdout.startswith(f"{batch['id']}  finalizing  6 requests (6 submitted)")
    assert f"Core Rules (6 chunks, {book})" in text.stdout
    status = batch_cli("batch", "status", "--json")
    assert status.exit_code == 0, status.stderr
    assert [(b["id"], b["status"], b["states"]) for b in json.loads(status.stdout)["batches"]] == [
        (batch["id"], "completed", {"submitted": 6})]
    assert _cache(index_dir) == {}  # status collects nothing, even from a completed batch

    collected = batch_cli("batch", "collect", "--json")
    assert collected.exit_code == 0, collected.stderr
    document = json.loads(collected.stdout)
    assert [(b["status"], b["states"]) for b in document["batches"]] == [("completed", {"cached": 6})]
    assert document["next"] == f"crossbook ingest {book}"
    assert len(_cache(index_dir)) == 6

    before = len(scripted_openai.history)
    listed = batch_cli("batch", "status", "--all", "--json")  # collected: the index answers, not the endpoint
    assert json.loads(listed.stdout)["batches"][0]["states"] == {"cached": 6}
    assert batch_cli("batch", "status", "--json").stdout.strip() == '{\n  "batches": []\n}'
    ingested = batch_cli("ingest", book, *_openai_flags(scripted_openai), "--json")
    assert ingested.exit_code == 0, ingested.stderr
    assert [(r["llm_calls"], r["cache_hits"]) for r in json.loads(ingested.stdout)] == [(0, 6)]
    assert len(scripted_openai.history) == before and scripted_openai.chat_calls == []


def test_ingest_batch_again_resumes_the_waiting_batch(tmp_path, index_dir, scripted_openai, batch_cli):
    scripted_openai.responder = heading_responder()
    book = write(tmp_path / "a.md", BOOK_A)
    assert batch_cli("ingest", book, *_openai_flags(scripted_openai), "--batch", "--no-wait").exit_code == 0
    resumed = batch_cli("ingest", book, *_openai_flags(scripted_openai), "--batch", "--json")
    assert resumed.exit_code == 0, resumed.stderr
    assert [(r["status"], r["llm_calls"], r["cache_hits"]) for r in json.loads(resumed.stdout)] == [("added", 0, 6)]
    assert len([h for h in scripted_openai.history if h["path"] == "/v1/batches"]) == 1
    assert scripted_openai.chat_calls == []
    # with nothing left to wait for, --no-wait ingests at once
    edited = write(tmp_path / "b.md", BOOK_B)
    scripted_openai.batch_api.steps = ("completed",)
    both = batch_cli("ingest", book, edited, *_openai_flags(scripted_openai), "--batch", "--no-wait", "--json")
    assert both.exit_code == 0, both.stderr
    assert [(r["status"], r["llm_calls"]) for r in json.loads(both.stdout)] == [("unchanged", 0), ("added", 0)]


def test_collect_reports_an_expired_batch_as_an_error(tmp_path, index_dir, scripted_openai, batch_cli):
    scripted_openai.responder = heading_responder()
    scripted_openai.batch_api.steps = ("validating", "in_progress", "expired")
    scripted_openai.batch_api.answered = 1
    book = write(tmp_path / "a.md", BOOK_A)
    assert batch_cli("ingest", book, *_openai_flags(scripted_openai), "--batch", "--no-wait").exit_code == 0
    result = batch_cli("batch", "collect", "--until-done")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith("Error: batch batch_1 expired") and "1 of 6 answers cached" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert len(_cache(index_dir)) == 1


def test_batch_bad_input_is_one_line(tmp_path, index_dir, scripted_openai, cli, monkeypatch):
    book = write(tmp_path / "a.md", BOOK_A)

    def one_line_error(result, code, text):
        assert result.exit_code == code and result.stdout == ""
        assert text in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr

    one_line_error(cli("ingest", book, "--extractor", "openai", "--batch"), 1, "needs OPENAI_API_KEY")
    one_line_error(cli("ingest", book, "--batch"), 1, "--batch sends the chunks to a model: it needs --extractor openai")
    assert not index_dir.exists()
    usage = cli("ingest", book, "--no-wait")
    assert usage.exit_code == 2 and "--no-wait goes with --batch" in usage.stderr
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    scripted_openai.responder = heading_responder()
    assert cli("ingest", book, *_openai_flags(scripted_openai), "--batch", "--no-wait").exit_code == 0
    one_line_error(cli("batch", "status", "batch_404"), 1,
                   "batch 'batch_404' was not submitted by this index (see: crossbook batch status)")
    one_line_error(cli("batch", "collect", "nope"), 1, "batch 'nope' was not submitted by this index")
    monkeypatch.delenv("OPENAI_API_KEY")
    one_line_error(cli("batch", "collect"), 1, "about its batches needs OPENAI_API_KEY")
    # a batch the endpoint does not know (deleted, another account): the endpoint's answer, one line
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    scripted_openai.batch_api.batches.clear()
    one_line_error(cli("batch", "status"), 1, "batch batch_1: the endpoint refused (HTTP 404")
    # forgetting it lets the next ingest --batch submit its chunks again (the endpoint is not asked)
    asked = len(scripted_openai.history)
    forgotten = cli("batch", "forget", "batch_1", "--json")
    assert forgotten.exit_code == 0 and len(scripted_openai.history) == asked
    assert json.loads(forgotten.stdout)["batches"][0]["states"] == {"submitted": 6}
    assert json.loads(cli("batch", "status", "--all", "--json").stdout) == {"batches": []}
    one_line_error(cli("batch", "forget", "batch_9"), 1, "batch 'batch_9' was not submitted by this index")
    again = cli("ingest", book, *_openai_flags(scripted_openai), "--batch", "--no-wait", "--json")
    assert json.loads(again.stdout)["submitted"] == 6


def test_ctrl_c_while_waiting_says_the_batch_goes_on(tmp_path, index_dir, scripted_openai, batch_cli, monkeypatch):
    from crossbook.extract import batch

    scripted_openai.responder = heading_responder()
    real_refresh = batch.refresh

    def interrupted(db, client, batch_id, secret=None):
        if len([h for h in scripted_openai.history if h["path"].startswith("/v1/batches/")]) >= 2:
            raise KeyboardInterrupt
        return real_refresh(db, client, batch_id, secret)

    monkeypatch.setattr(batch, "refresh", interrupted)
    result = batch_cli("ingest", write(tmp_path / "a.md", BOOK_A), *_openai_flags(scripted_openai), "--batch")
    assert result.exit_code == 130
    assert "Warning: batch_1 went on running at the endpoint: crossbook batch collect --until-done" in result.stderr
    monkeypatch.setattr(batch, "refresh", real_refresh)
    assert json.loads(batch_cli("batch", "collect", "--json").stdout)["batches"][0]["states"] == {"cached": 6}


def test_input_files_respect_the_api_limits():
    from crossbook.extract.batch import BatchRequest, input_files

    requests = [BatchRequest(f"key{i % 5}", "Book", "b.md", f"c{i}", "Book: S", {"n": "x" * 50}, None) for i in range(7)]
    files = input_files(requests, max_requests=2)
    assert [[r.custom_id for r in part] for part, _ in files] == [["key0", "key1"], ["key2", "key3"], ["key4"]]
    line = len(files[0][1]) // 2
    by_size = input_files(requests, max_bytes=3 * line)  # three lines fit, not four
    assert [len(part) for part, _ in by_size] == [3, 2]
    assert all(len(data) <= 3 * line for _, data in by_size)
    first = json.loads(files[0][1].decode().splitlines()[0])
    assert first == {"custom_id": "key0", "method": "POST", "url": "/v1/chat/completions", "body": {"n": "x" * 50}}


def test_a_shelf_over_the_limit_goes_in_several_batches(tmp_path, scripted_openai, monkeypatch):
    from crossbook.extract import batch

    monkeypatch.setattr(batch, "MAX_REQUESTS", 4)
    scripted_openai.responder = heading_responder()
    book = write(tmp_path / "a.md", BOOK_A)
    outcome, _ = _batch_ingest(tmp_path / "index", scripted_openai, [book])
    assert [(b.id, b.states) for b in outcome.batches] == [("batch_1", {"cached": 4}), ("batch_2", {"cached": 2})]
    assert scripted_openai.chat_calls == [] and [r.cache_hits for r in outcome.results] == [6]
    _sync_ingest(tmp_path / "sync", scripted_openai, [book])
    assert snapshot(tmp_path / "index") == snapshot(tmp_path / "sync")


@pytest.mark.slow  # CLI processes
def test_a_batch_submitted_by_a_process_that_exited_is_collected_by_another(tmp_path, index_dir, scripted_openai, batch_cli):
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    scripted_openai.responder = heading_responder()
    book = write(tmp_path / "a.md", BOOK_A)

    def crossbook(*args):
        return subprocess.run([sys.executable, "-c", "from crossbook.cli.main import run; run()", *map(str, args)],
                              env=dict(os.environ), cwd=ROOT, capture_output=True, text=True, timeout=120)

    submitted = crossbook("ingest", book, *_openai_flags(scripted_openai), "--batch", "--no-wait", "--json")
    assert submitted.returncode == 0, submitted.stderr
    collected = batch_cli("batch", "collect", "--until-done", "--json")
    assert collected.exit_code == 0, collected.stderr
    assert [b["states"] for b in json.loads(collected.stdout)["batches"]] == [{"cached": 6}]
    ingested = batch_cli("ingest", book, *_openai_flags(scripted_openai), "--json")
    assert [(r["llm_calls"], r["cache_hits"]) for r in json.loads(ingested.stdout)] == [(0, 6)]
    assert scripted_openai.chat_calls == []


def test_cache_prune_keeps_batch_answers_until_their_book_is_ingested(tmp_path, index_dir, scripted_openai, batch_cli):
    scripted_openai.responder = heading_responder()
    book = write(tmp_path / "a.md", BOOK_A)
    flags = _openai_flags(scripted_openai)
    assert batch_cli("ingest", book, *flags).exit_code == 0  # the first version, answered directly
    edited = write(book, BOOK_A.replace("loses 1 Speed", "loses 2 Speed"))
    assert batch_cli("ingest", edited, *flags, "--batch", "--no-wait").exit_code == 0
    assert batch_cli("batch", "collect", "--until-done").exit_code == 0
    # the edited section's answer is used by no stored chunk yet, but it waits for the ingest
    prune = json.loads(batch_cli("cache", "prune", "--json").stdout)
    assert prune == {"removed": 0, "kept": 7, "dry_run": False}
    calls = len(scripted_openai.chat_calls)
    ingested = json.loads(batch_cli("ingest", edited, *flags, "--json").stdout)
    assert [(r["llm_calls"], r["cache_hits"]) for r in ingested] == [(0, 6)] and len(scripted_openai.chat_calls) == calls
    # once ingested, the replaced section's old answer goes, as without batches
    assert json.loads(batch_cli("cache", "prune", "--json").stdout) == {"removed": 1, "kept": 6, "dry_run": False}
    # forgetting a batch drops its record, not its answers
    assert batch_cli("batch", "forget", "batch_1").exit_code == 0
    assert len(_cache(index_dir)) == 6


def test_known_entities_offered_in_a_batch_prompt_are_cached_with_its_answer(tmp_path, scripted_openai):
    # Core Rules is in the index first: Grimoire's prompts offer its entities by id, in a batch
    # exactly as in a live request, and the cache keeps which ones each answer was given
    scripted_openai.responder = heading_responder({"Frost Lance": [("Chilled", "condition")]})
    core, grimoire = write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)
    _sync_ingest(tmp_path / "batch", scripted_openai, [core])
    _batch_ingest(tmp_path / "batch", scripted_openai, [grimoire])
    # two runs: within one run the shared request pool offers only what the index held at its start
    _sync_ingest(tmp_path / "sync", scripted_openai, [core])
    _sync_ingest(tmp_path / "sync", scripted_openai, [grimoire])
    live = [{k: v for k, v in c.items() if k != "path"} for c in scripted_openai.chat_calls if "from Grimoire," in json.dumps(c)]
    batched = [line["body"] for line in scripted_openai.batch_api.lines]
    assert sorted(json.dumps(b, sort_keys=True) for b in batched) == sorted(json.dumps(b, sort_keys=True) for b in live)
    assert any("Known entities defined in other books" in json.dumps(body) for body in batched)

    def known(index_dir):
        return sorted(r for r in open_db(index_dir).execute("SELECT key, known FROM llm_cache"))

    assert known(tmp_path / "batch") == known(tmp_path / "sync") and any(k for _, k in known(tmp_path / "sync"))
    assert snapshot(tmp_path / "batch") == snapshot(tmp_path / "sync")


def test_an_endpoint_without_the_batch_api_is_one_line(tmp_path, index_dir, scripted_openai, batch_cli):
    def not_found(handler):
        handler.rfile.read(int(handler.headers.get("content-length", 0)))
        handler._send(404, {}, json.dumps({"error": {"message": "404 page not found"}}).encode())

    scripted_openai.batch_api.post = not_found
    result = batch_cli("ingest", write(tmp_path / "a.md", BOOK_A), *_openai_flags(scripted_openai), "--batch")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.strip() == ("Error: uploading the batch requests (files.create): the endpoint refused "
                                     "(HTTP 404: 404 page not found)")
    db = open_db(index_dir)
    assert [db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("books", "llm_batches", "llm_cache")] == [0, 0, 0]
