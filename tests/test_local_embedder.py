"""The default embedder is real (MiniLM from a PyPI package) and works with no network;
light commands never import the heavy libraries."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

import pytest

from tests.conftest import ROOT, SAMPLE


@pytest.fixture
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError("network disabled in this test")

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_local_embedder_offline_gives_semantic_vectors(no_network):
    from index.embed import LocalEmbedder

    texts = [
        "The wizard casts a freezing spell that chills the enemy.",
        "A sorcerer hurls a bolt of ice magic at a foe.",
        "Bread rises best in a warm kitchen overnight.",
    ]
    a, b, c = LocalEmbedder().embed(texts)
    assert len(a) == 384
    dot = lambda x, y: sum(p * q for p, q in zip(x, y))  # noqa: E731
    assert abs(dot(a, a) - 1) < 1e-4  # unit vectors
    assert dot(a, b) > dot(a, c) + 0.2 and dot(a, b) > dot(b, c) + 0.2


def test_where_else_does_not_import_chromadb_torch_or_openai(cli, index_dir):
    assert cli("rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    code = (
        "import sys, json\n"
        "from cli.app import app\n"
        "from typer.testing import CliRunner\n"
        "r = CliRunner().invoke(app, ['--index', sys.argv[1], 'where-else', 'Frost Lance', '--json'])\n"
        "assert r.exit_code == 0, r.output\n"
        "heavy = ('chromadb', 'torch', 'openai', 'sentence_transformers', 'spacy', 'onnxruntime')\n"
        "print(json.dumps(sorted(m for m in heavy if m in sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(index_dir)], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
