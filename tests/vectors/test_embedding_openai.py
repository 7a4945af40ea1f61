"""The openai embedder through the real client against the scripted loopback server."""

from __future__ import annotations

import json

from crossbook.vectors.embed import EmbeddingFailed, OpenAIEmbedder
from tests.helpers import BOOK_A, openai_settings, snapshot, write


def _responder(body: dict):
    """A fake /embeddings: a 3-dim vector from each input's length, returned in reverse
    order (the API may; the client must sort by index)."""
    data = [{"object": "embedding", "index": i, "embedding": [float(len(text)), 1.0, 0.0]}
            for i, text in enumerate(body["input"])]
    return 200, {}, {"object": "list", "data": list(reversed(data)), "model": body["model"],
                     "usage": {"prompt_tokens": 1, "total_tokens": 1}}


def test_openai_embedder_batches_in_order_and_normalizes(scripted_openai, index_dir):
    scripted_openai.responder = _responder
    embedder = OpenAIEmbedder(openai_settings(index_dir, scripted_openai, embedding_model="emb-model"))
    embedder.batch_size = 2
    from crossbook.vectors.embed import embed_all

    texts = ["a", "bbb", "cc", "dddd", "e"]
    vectors = embed_all(embedder, texts)
    calls = [h for h in scripted_openai.history if h["path"].endswith("/embeddings")]
    assert [c["input"] for c in calls] == [["a", "bbb"], ["cc", "dddd"], ["e"]]
    assert {c["model"] for c in calls} == {"emb-model"} and embedder.id == "openai:emb-model"
    for text, vector in zip(texts, vectors):
        norm = (len(text) ** 2 + 1) ** 0.5
        assert vector == [len(text) / norm, 1 / norm, 0.0]


def test_openai_embedder_failure_is_one_line_and_changes_nothing(scripted_openai, tmp_path, index_dir, cli, monkeypatch):
    assert cli("ingest", write(tmp_path / "a.md", BOOK_A)).exit_code == 0
    before = snapshot(index_dir)
    scripted_openai.responder = lambda body: (400, {}, {"error": {"message": "model not found", "type": "invalid_request_error"}})
    monkeypatch.setenv("OPENAI_BASE_URL", scripted_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    result = cli("--embedder", "openai", "reembed")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith("Error: embedding with text-embedding-3-small failed") and result.stderr.count("\n") == 1
    assert snapshot(index_dir) == before
    doctor = json.loads(cli("doctor", "--json").stdout)  # the hash vectors still serve the index
    assert doctor["ok"] and doctor["embedder"] == "hash:256"


def test_openai_embedder_needs_a_key(index_dir):
    from crossbook.core.config import Settings
    from crossbook.core.errors import ConfigError

    try:
        OpenAIEmbedder(Settings(index_dir=index_dir))
    except ConfigError as exc:
        assert "OPENAI_API_KEY" in str(exc)
    else:
        raise AssertionError("no error without a key")
    assert issubclass(EmbeddingFailed, Exception)
