"""No model call inside a write transaction: with ``--relations refine``
every refinement request is made while no SQLite write transaction is open, in an ingest, a
re-ingest that changes what other books' chunks hold, and a delete-book; the edges are the
ones the model's answers give.

The fakes live here for now (a responder that judges candidates, and a ``db.atomic`` that
counts the transactions open); they move to tests/fakes.py when that file gathers them."""

from __future__ import annotations

import json
import re
from contextlib import contextmanager

from crossbook.ingest.pipeline import IngestJob, delete_book, index_refiner, ingest_paths
from crossbook.storage.db import open_db
from tests.conftest import SAMPLE
from tests.fakes import completion_body
from tests.helpers import openai_settings

BOOKS = [SAMPLE / "core_rules.md", SAMPLE / "grimoire.md", SAMPLE / "bestiary.md"]
CANDIDATE = re.compile(r"^(\d+)\. (.+?) --(\S+)--> (.+?) \| sentence: ", re.MULTILINE)
LISTED_TYPE = re.compile(r"^- (\w+): ", re.MULTILINE)


class TransactionWatch:
    """Wraps ``db.atomic`` to know, from the fake endpoint's thread, whether a write
    transaction is open on the index; ``requests`` records it for each request."""

    def __init__(self, db):
        self.db, self.open, self.requests = db, 0, []
        real = db.atomic

        @contextmanager
        def atomic():
            self.open += 1
            try:
                with real():
                    yield db
            finally:
                self.open -= 1

        db.atomic = atomic

    def judge(self, request):
        """Keep a candidate whose verb is a listed type; note whether a write was open."""
        self.requests.append(self.open > 0 or self.db.conn.in_transaction)
        user = request["messages"][1]["content"]
        types = set(LISTED_TYPE.findall(user))
        verdicts = []
        for number, _source, relation_type, _target in CANDIDATE.findall(user):
            kept = relation_type.lower() if relation_type.lower() in types else None
            verdicts.append({"candidate": int(number), "keep": kept is not None,
                             "relation_type": kept or "none", "swap": False})
        return 200, {}, completion_body(json.dumps({"verdicts": verdicts}))


def refined_edges(db):
    return db.execute("SELECT count(*) FROM entity_relationships WHERE extractor = 'llm-refine'").fetchone()[0]


def test_no_refinement_request_while_the_write_transaction_is_open(tmp_path, scripted_openai):
    settings = openai_settings(tmp_path / "idx", scripted_openai, extractor="rules", relations="refine",
                               pack=str(SAMPLE / "emberfall.pack.toml"))
    db = open_db(tmp_path / "idx", create=True)
    watch = TransactionWatch(db)
    scripted_openai.responder = watch.judge
    results = ingest_paths(IngestJob(db, settings), BOOKS)
    assert watch.requests, "the shelf needs candidates to refine"
    assert not any(watch.requests), f"{sum(watch.requests)} of {len(watch.requests)} requests ran inside a write"
    assert sum(r.refine_calls for r in results) == len(watch.requests)
    assert refined_edges(db) > 0
    # a delete re-derives the chunks that named the book's entities: asked outside too
    asked = len(watch.requests)
    delete_book(db, "The Ashen Grimoire", refiner=index_refiner(db, settings))
    assert not any(watch.requests[asked:])
    assert refined_edges(db) > 0


def test_refined_edges_equal_those_of_a_cache_that_already_held_every_answer(tmp_path, scripted_openai):
    """The write that asked outside its transaction stores what a write that found every
    answer in the cache stores (a second index, the same cache rows, no request)."""
    settings = openai_settings(tmp_path / "a", scripted_openai, extractor="rules", relations="refine",
                               pack=str(SAMPLE / "emberfall.pack.toml"))
    db = open_db(tmp_path / "a", create=True)
    watch = TransactionWatch(db)
    scripted_openai.responder = watch.judge
    ingest_paths(IngestJob(db, settings), BOOKS)
    first = db.execute("SELECT s.name, r.relation_type, t.name, r.extractor FROM entity_relationships r"
                       " JOIN entities s ON s.id = r.source_id JOIN entities t ON t.id = r.target_id"
                       " ORDER BY 1, 2, 3, 4").fetchall()
    asked = len(watch.requests)
    job = IngestJob(db, settings)
    ingest_paths(job, BOOKS, force=True)  # every answer from the cache: no request
    assert len(watch.requests) == asked and job.refiner.cache_hits > 0
    again = db.execute("SELECT s.name, r.relation_type, t.name, r.extractor FROM entity_relationships r"
                       " JOIN entities s ON s.id = r.source_id JOIN entities t ON t.id = r.target_id"
                       " ORDER BY 1, 2, 3, 4").fetchall()
    assert again == first
