"""Slow work stays outside the write transaction. Loading spaCy's model took
seconds inside it (the first chunk analysed loaded it there)."""

from crossbook.core.config import Settings
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.relations import svo
from crossbook.storage.db import open_db
from tests.conftest import SAMPLE


def test_spacy_loads_before_the_write_transaction(tmp_path, monkeypatch):
    index_dir = tmp_path / "i"
    job = IngestJob(open_db(index_dir, create=True), Settings(index_dir=index_dir, relations="spacy"))
    in_transaction = []
    real = svo.load_nlp

    def load_nlp():
        in_transaction.append(job.db.conn.in_transaction)
        return real()

    monkeypatch.setattr(svo, "load_nlp", load_nlp)
    ingest_paths(job, [SAMPLE / "grimoire.md"])
    assert job.db.execute("SELECT count(*) FROM relation_claims WHERE extractor = 'spacy'").fetchone()[0] > 0
    assert in_transaction and in_transaction[0] is False  # later calls get the loaded model
