"""What an extractor offers is typed (extract/base.py): every extractor ``extract``s; a
``VersionedExtractor`` names its rules' version in the label stored with a book; a
``ModelExtractor`` is told where its retries go and pools the requests of every book
(``start``/``wait``), its pool closed when the run ends. IngestJob relies on these
protocols, not on probing for attributes one by one."""

from __future__ import annotations

from crossbook.core.config import Settings
from crossbook.core.models import ChunkExtraction
from crossbook.extract import ExtractionRun, ModelExtractor, VersionedExtractor
from crossbook.extract.rules import VERSION, RulesExtractor
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db
from tests.conftest import make_job
from tests.fakes import ScriptedExtractor
from tests.helpers import write

BOOK = "# Grimoire\n\n## Spells\n\n### Frost Lance\n\nFrost Lance is a spell you cast.\n"


class PoolingExtractor(ScriptedExtractor):
    """A model extractor in miniature: answers nothing, notes the calls the pipeline makes."""

    name = "pooling"
    situates = False

    def __init__(self):
        super().__init__({})
        self.calls: list[str] = []
        self.on_retry = self.before_requests = None

    def plan(self, book, parents, known=None):
        return []

    def start(self, book, parents, known=None):
        self.calls.append(f"start {book}")
        return parents

    def wait(self, pending, progress=None):
        self.calls.append("wait")
        return ExtractionRun([ChunkExtraction(p.id, []) for p in pending])

    def settle(self):
        self.calls.append("settle")

    def close(self):
        self.calls.append("close")


def test_the_protocols_say_what_each_extractor_offers(tmp_path):
    rules = RulesExtractor(make_job(tmp_path / "index").pack)
    assert isinstance(rules, VersionedExtractor) and not isinstance(rules, ModelExtractor)
    assert not isinstance(ScriptedExtractor({}), VersionedExtractor | ModelExtractor)
    assert isinstance(PoolingExtractor(), ModelExtractor)


def test_a_model_extractor_is_pooled_told_of_retries_and_closed(tmp_path):
    warnings: list[str] = []
    extractor = PoolingExtractor()
    index = tmp_path / "index"
    job = IngestJob(open_db(index, create=True), Settings(index_dir=index), warn=warnings.append, extractor=extractor)
    assert extractor.on_retry == warnings.append and callable(extractor.before_requests)
    ingest_paths(job, [write(tmp_path / "grimoire.md", BOOK)])
    assert extractor.calls == ["start Grimoire", "wait", "close"]
    assert job.extractor_label == "pooling"
    assert make_job(tmp_path / "other").extractor_label == VERSION
