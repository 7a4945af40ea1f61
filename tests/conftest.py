"""Every test runs offline against a fresh index in tmp_path, with the user's env hidden."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.fakes import ScriptedOpenAI

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_corpus"


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
    monkeypatch.chdir(tmp_path)
    yield


@pytest.fixture
def index_dir(tmp_path) -> Path:
    return tmp_path / "index"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def cli(runner):
    """Run crossbook with args; returns the Click result (stdout and stderr kept apart)."""
    from cli.main import app

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
