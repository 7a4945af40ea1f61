"""Benchmark: chunking one huge paragraph (it used to be super-linear).

Prints seconds and characters tokenized per input character for single-paragraph books of
1, 2 and 5 MB, with sentence ends and without; asserts nothing.

    python bench/bench_chunking.py [--sizes 1,2,5]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import tiktoken  # noqa: E402

from crossbook.chunk.chunking import child_chunks, parent_chunks, split_sections  # noqa: E402
from crossbook.core.tokens import count_tokens  # noqa: E402

WORDS = "the frost wyrm casts a lance of ice at chilled foes while ember burns low in the hearth".split()


def one_paragraph(size: int, separator: str) -> str:
    rng = random.Random(size)
    parts, length = [], 0
    while length < size:
        clause = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 25))).capitalize() + separator
        parts.append(clause)
        length += len(clause)
    return "# Big\n\n" + "".join(parts) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,2,5", help="MB, comma-separated")
    args = parser.parse_args()
    count_tokens("warm up")  # load the encoding outside the timings
    encoded = [0]
    original = tiktoken.Encoding.encode

    def counting(self, text, *a, **k):
        encoded[0] += len(text)
        return original(self, text, *a, **k)

    tiktoken.Encoding.encode = counting
    print(f"{'size':>6} {'text':<14} {'seconds':>8} {'s/MB':>6} {'tokenized/char':>15} {'parents':>8} {'children':>9}")
    for mb in (float(s) for s in args.sizes.split(",")):
        for label, separator in (("sentences", ". "), ("no sentences", ", ")):
            text = one_paragraph(int(mb * 1_000_000), separator)
            encoded[0] = 0
            start = time.perf_counter()
            parents = parent_chunks("Big", split_sections(text))
            children = [c for p in parents for c in child_chunks(p)]
            seconds = time.perf_counter() - start
            print(f"{mb:>4g}MB {label:<14} {seconds:>8.1f} {seconds / mb:>6.1f} {encoded[0] / len(text):>15.1f}"
                  f" {len(parents):>8} {len(children):>9}", flush=True)


if __name__ == "__main__":
    main()
