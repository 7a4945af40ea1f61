"""Benchmark: how many child chunks overflow the local embedder's window, before and after
sizing children in its own tokens.

A child is embedded as its section path + its text; MiniLM sees at most 256 wordpieces
([CLS] and [SEP] included) and drops the rest. Counts the children whose embedded text is
longer, sized the old way (250 tiktoken tokens) and the new way (child_splitter with the
local embedder), over the sample corpus and the generated distractor books of
eval_retrieval.py. Merges the figures under "child_window" in bench/results.json.

    python bench/bench_child_window.py [--distractors 3]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.eval_retrieval import distractor_books  # noqa: E402
from bench.results_json import record  # noqa: E402
from crossbook.chunk.chunking import parent_chunks, split_sections  # noqa: E402
from crossbook.core.config import Settings  # noqa: E402
from crossbook.vectors import minilm  # noqa: E402
from crossbook.vectors.embed import LocalEmbedder, child_splitter, embedding_text  # noqa: E402


def overflow(paths: list[Path], split) -> tuple[int, int]:
    over = total = 0
    for path in paths:
        for parent in parent_chunks(path.stem, split_sections(path.read_text(encoding="utf-8")), Settings.parent_tokens):
            for child in split(parent):
                total += 1
                over += minilm.count_tokens(embedding_text(parent.path_str, child.text)) + 2 > minilm.window()
    return over, total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--distractors", type=int, default=3)
    args = parser.parse_args()
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        corpora = {
            "sample_corpus": sorted((ROOT / "sample_corpus").glob("*.md")),
            "distractors": [Path(b["path"]) for b in distractor_books(ROOT / "sample_corpus", args.distractors, 60, Path(tmp))],
        }
        embedder = LocalEmbedder(Path(tmp) / "models")  # counts tokens only: no graph is built
        print(f"{'corpus':<16}{'sizing':<28}{'children':>9}{'overflow':>9}{'share':>8}")
        for name, paths in corpora.items():
            for sizing, split in (("250 tiktoken tokens (old)", child_splitter(Settings.child_tokens)),
                                  ("MiniLM wordpieces (new)", child_splitter(Settings.child_tokens, embedder))):
                over, total = overflow(paths, split)
                figures[f"{name}:{'old' if 'old' in sizing else 'new'}"] = {
                    "children": total, "overflowing": over, "share": round(over / total, 3)}
                print(f"{name:<16}{sizing:<28}{total:>9}{over:>9}{over / total:>8.1%}")
    record("child_window", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
