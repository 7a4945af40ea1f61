"""Benchmark: does a small book's ingest cost grow with the shelf? A manual's pages as books.

Generates a manual of small HTML pages deterministically (each page a topic that defines a
few names and refers to names of earlier pages; most pages repeat the manual's section
headings, "Example", "Usage", "See Also", and say "the example" in lowercase; a footer on
every page), then ingests them one by one into one index as a user does with ``crossbook
ingest page.html`` (rules extractor, offline relationships, the hash embedder into Chroma)
prints every 20th page's ingest time. The figure is ``ratio``: the mean CPU time of the last
tenth of the pages over the mean of the first tenth (page 1, which loads spaCy and Chroma,
left out; pages differ in length, so a tenth, not one page; wall-clock is printed too, but
on a shared machine it measures the neighbours).
Asserts nothing; ``record("small_books", ...)`` into bench/results.json.

Usage: python -m bench.bench_small_books [--pages 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from bench.bench_growth import WORDS, invented
from bench.common.results import record
from crossbook.core.config import Settings
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db
from crossbook.vectors.chroma import open_vectors

SHARED = ("Example", "Usage", "See Also")
FOOTER = "<div class='footer'>&copy; Copyright the authors. Created using Sphinx.</div>"


def sentence(rng: random.Random, refs: list[str]) -> str:
    words = rng.choices(WORDS, k=rng.randint(8, 14))
    for ref in rng.sample(refs, min(len(refs), rng.randint(0, 2))):
        words.insert(rng.randint(0, len(words)), ref)
    if rng.random() < 0.3:
        words.insert(rng.randint(0, len(words)), rng.choice(("the example", "its usage", "an example", "see also")))
    text = " ".join(words)
    return text[0].upper() + text[1:] + "."


def manual(pages: int, seed: int = 29) -> list[tuple[str, str]]:
    """(file stem, HTML) of each page, in ingest order."""
    rng = random.Random(seed)
    defined: list[str] = []
    out = []
    for k in range(pages):
        topic = f"{invented(rng, 2).capitalize()} {invented(rng, 3).capitalize()}"
        names = [f"{invented(rng, 2).capitalize()} {invented(rng, 2).capitalize()}" for _ in range(rng.randint(1, 3))]
        refs = names + rng.sample(defined, min(len(defined), 6))
        body = [f"<h1>{topic}</h1><p>{sentence(rng, refs)} {sentence(rng, refs)}</p>"]
        for name in names:
            body.append(f"<h2>{name}</h2><p>{name} is a part of {topic}. "
                        + " ".join(sentence(rng, refs) for _ in range(rng.randint(6, 12))) + "</p>")
        for heading in SHARED:
            if rng.random() < 0.7:
                body.append(f"<h2>{heading}</h2><p>"
                            + " ".join(sentence(rng, refs) for _ in range(rng.randint(4, 8))) + "</p>")
        out.append((f"page{k:03d}", f"<html><head><title>{topic}</title></head><body>"
                                    f"{''.join(body)}{FOOTER}</body></html>"))
        defined.extend([topic, *names])
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--no-vectors", action="store_true", help="SQLite only (to tell Chroma's share)")
    parser.add_argument("--no-record", action="store_true", help="print only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        paths = []
        for stem, html in manual(args.pages):
            path = tmp / f"{stem}.html"
            path.write_text(html, encoding="utf-8")
            paths.append(path)
        settings = Settings(index_dir=tmp / "index", embedder="hash")
        db = open_db(settings.index_dir, create=True)
        vectors = None if args.no_vectors else open_vectors(settings, db, lazy=True)
        job = IngestJob(db, settings, vectors=vectors)
        cpu, wall = [], []
        for k, path in enumerate(paths, 1):
            t0, c0 = time.perf_counter(), time.process_time()
            ingest_paths(job, [path])
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - t0)
            if k % 20 == 0 or k == 1:
                print(f"page {k:3d}: {cpu[-1]:.3f} s CPU, {wall[-1]:.3f} s wall", flush=True)
        tenth = max(1, args.pages // 10)
        first, last = statistics.mean(cpu[1:tenth + 1]), statistics.mean(cpu[-tenth:])
        wall_ratio = statistics.mean(wall[-tenth:]) / statistics.mean(wall[1:tenth + 1])
        chunks = db.execute("SELECT count(*) FROM chunks").fetchone()[0]
        print(f"{args.pages} pages, {chunks} chunks; per-page ingest CPU: first {first:.3f} s, last {last:.3f} s "
              f"(means of {tenth} pages); ratio {last / first:.2f} (target <= 1.3); wall-clock ratio {wall_ratio:.2f}")
        if not args.no_record and not args.no_vectors:
            record("small_books", {
                "pages": args.pages, "chunks": chunks, "first_s": round(first, 4), "last_s": round(last, 4),
                "ratio": round(last / first, 3), "wall_ratio": round(wall_ratio, 3),
                "ratio_definition": "mean CPU time of the last tenth of the pages / of the first tenth"
                                    " (page 1, which loads spaCy and Chroma, left out)",
                "per_page_s": [round(t, 4) for t in cpu],
            })


if __name__ == "__main__":
    main()
