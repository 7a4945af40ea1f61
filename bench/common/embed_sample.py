"""The texts an embedder is measured on: every child chunk of the sample corpus, with its
section's heading path, as an ingest embeds them (bench/bench_embed.py; the local embedder's
tests compare it with onnxruntime called directly)."""

from __future__ import annotations

from pathlib import Path

from crossbook.chunk.chunking import child_chunks, parent_chunks, split_sections

ROOT = Path(__file__).resolve().parents[2]


def sample_children() -> list[str]:
    texts = []
    for path in sorted((ROOT / "sample_corpus").glob("*.md")):
        parents = parent_chunks(path.stem, split_sections(path.read_text(encoding="utf-8")), 1500)
        texts.extend(" > ".join(p.heading_path) + "\n" + c.text for p in parents for c in child_chunks(p, 250))
    return texts
