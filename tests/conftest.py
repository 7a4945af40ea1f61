"""Every test runs offline against a fresh index in tmp_path, with the user's env hidden."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crossbook.core.config import Settings
from crossbook.core.rule_guard import raise_failures
from crossbook.ingest.pipeline import IngestJob
from crossbook.storage.db import open_db
from tests.fakes import FakeChunkEntity, FakeSVO, ScriptedOpenAI

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_corpus"


def make_job(index_dir, settings: Settings | None = None, *, extractor=None, events=None, **fields) -> IngestJob:
    """An IngestJob on a new (or existing) index at index_dir: ``settings``, or Settings built from ``fields``."""
    settings = settings or Settings(index_dir=index_dir, **fields)
    extra = {"events": events} if events is not None else {}
    return IngestJob(open_db(index_dir, create=True), settings, extractor=extractor, **extra)


def pack_job(index_dir, pack_path) -> IngestJob:
    """The job the invariant replays build (``replay_equals_fresh_build``): the offline extractor, a pack file."""
    return make_job(index_dir, pack=str(pack_path))


@pytest.fixture(autouse=True)
def offline_env(tmp_path, monkeypatch):
    for name in list(__import__("os").environ):
        if name.startswith(("CROSSBOOK_", "OPENAI_")):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CROSSBOOK_INDEX", str(tmp_path / "index"))
    monkeypatch.setenv("CROSSBOOK_EMBEDDER", "hash")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # the per-user model cache (cli/paths.py)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    monkeypatch.setenv("CROSSBOOK_STRICT_RULES", "1")  # a CLI in a subprocess raises as these tests do
    monkeypatch.chdir(tmp_path)
    before = raise_failures(True)  # a rule that raises fails its test: the catch hides no bug here
    yield
    raise_failures(before)


@pytest.fixture
def index_dir(tmp_path) -> Path:
    return tmp_path / "index"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def cli(runner):
    """Run crossbook with args; returns the Click result (stdout and stderr kept apart)."""
    from crossbook.cli.main import app

    def invoke(*args, input=None):
        return runner.invoke(app, [str(a) for a in args], input=input, catch_exceptions=False)

    return invoke


@pytest.fixture
def cli_json(cli):
    def invoke(*args):
        result = cli(*args, "--json")
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout)

    return invoke


@pytest.fixture
def corpus(tmp_path) -> Path:
    """A writable copy of the bundled sample corpus."""
    target = tmp_path / "corpus"
    shutil.copytree(SAMPLE, target)
    return target


@pytest.fixture
def scripted_openai():
    with ScriptedOpenAI() as server:
        yield server


@pytest.fixture
def fake_svo(monkeypatch):
    """FakeSVO in place of spaCy's relation candidates (index/relations/svo.py); ``.calls`` counts the chunks parsed."""
    from crossbook.relations import offline

    fake = FakeSVO()
    monkeypatch.setattr(offline, "load_svo", lambda: (fake, FakeChunkEntity))
    return fake


RELATIONS_PACK = """
name = "prop"
ontology = ["rulebook", "ttrpg"]
[[entity_types]]
name = "spell"
[[entity_types]]
name = "npc"
[[entity_types]]
name = "other"
[[heading_rules]]
under = "Spells"
type = "spell"
[[heading_rules]]
under = "People"
type = "npc"
"""


RETRIEVE_SHELF = {
    # a catalog of two entries, so the rules extractor reads the headings as definitions
    "core.md": ("# Core Rules\n\n## Conditions\n\n### Chilled\n\nA Chilled creature loses 1 Speed until it warms up.\n\n"
                "### Prone\n\nA Prone creature is easy to hit until it stands.\n"),
    "grimoire.md": ("# Grimoire\n\n## Spells\n\n### Frost Lance\n\nFrost Lance costs 3 Ember and deals 2d6 cold.\n\n"
                    "### Kindle\n\nKindle costs 1 Ember and lights a fire.\n"),
    "bestiary.md": ("# Bestiary\n\n## Creatures\n\n### Rime Wraith\n\n"
                    + "Every victim of its touch is Chilled. "
                    + "The wraith drifts over the snow and the cold follows wherever it goes. " * 40 + "\n\n"
                    + "When it cannot close the distance, the Rime Wraith casts Frost Lance.\n"),
}
