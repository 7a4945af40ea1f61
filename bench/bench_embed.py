"""Benchmark: embedding throughput (child chunks per second) and Chroma write/query cost.

Prints figures; asserts nothing. Texts are the sample corpus's child chunks, repeated
until there are --chunks of them (each made distinct so nothing is cached).

    python bench/bench_embed.py [--chunks 1000] [--embedder local]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from index.chunking import child_chunks, parent_chunks, split_sections  # noqa: E402
from index.config import load_settings  # noqa: E402
from index.db import open_db  # noqa: E402
from index.embed import embed_all, get_embedder  # noqa: E402
from index.vectors import ChildRow, open_vectors  # noqa: E402


def sample_children() -> list[str]:
    texts = []
    for path in sorted((ROOT / "sample_corpus").glob("*.md")):
        parents = parent_chunks(path.stem, split_sections(path.read_text(encoding="utf-8")), 1500)
        texts.extend(c.text for p in parents for c in child_chunks(p, 250))
    return texts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=1000)
    parser.add_argument("--embedder", default="local")
    args = parser.parse_args()
    base = sample_children()
    texts = [f"{base[i % len(base)]} ({i})" for i in range(args.chunks)]
    words = statistics.mean(len(t.split()) for t in texts)
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings({"index_dir": Path(tmp), "embedder": args.embedder}, {})
        embedder = get_embedder(settings)
        started = time.perf_counter()
        embedder.embed(["warm up: load the model"])
        load_s = time.perf_counter() - started
        started = time.perf_counter()
        vectors = embed_all(embedder, texts)
        embed_s = time.perf_counter() - started
        db = open_db(Path(tmp), create=True)
        with open_vectors(settings, db, embedder=embedder) as store:
            rows = [ChildRow(f"c{i}", "Bench", "p", "Bench > Section", t, str(i)) for i, t in enumerate(texts)]
            started = time.perf_counter()
            for start in range(0, len(rows), 256):
                batch = rows[start:start + 256]
                store.collection.upsert(ids=[r.id for r in batch], metadatas=[r.metadata for r in batch],
                                        embeddings=vectors[start:start + 256])
            write_s = time.perf_counter() - started
            latencies = []
            for text in base[:50]:
                started = time.perf_counter()
                store.query([text], 40)
                latencies.append((time.perf_counter() - started) * 1000)
    print(f"embedder {embedder.id}: {len(texts)} child chunks (mean {words:.0f} words)")
    print(f"  model load         {load_s:6.2f} s")
    print(f"  embedding          {embed_s:6.2f} s  = {len(texts) / embed_s:7.1f} chunks/s")
    print(f"  Chroma upsert      {write_s:6.2f} s  = {len(texts) / write_s:7.1f} chunks/s")
    print(f"  query (embed + k=40) median {statistics.median(latencies):.1f} ms,"
          f" p95 {sorted(latencies)[int(len(latencies) * 0.95) - 1]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
