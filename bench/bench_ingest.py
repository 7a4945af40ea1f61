"""Benchmark: ingest throughput, relink cost and where-else latency on a synthetic shelf.

Prints figures; asserts nothing (timings on shared machines are measured, not tested).
Usage: python -m bench.bench_ingest [--books 7] [--sections 700]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from crossbook.core.config import Settings
from crossbook.ingest.pipeline import IngestJob, delete_book, ingest_paths
from crossbook.query.lookup import where_else
from crossbook.storage.db import open_db

WORDS = ("attack defense roll turn weapon armor cost point round target damage skill spell range "
         "effect hit miss level bonus penalty check move").split()


def synthetic_book(rng: random.Random, b: int, sections: int, names: list[str]) -> str:
    out = [f"# Book {b}\n"]
    per_chapter = 50
    for s in range(sections):
        if s % per_chapter == 0:
            out.append(f"\n## {'Spells' if b % 2 else 'Skills'} {s // per_chapter}\n")
        own = names[b * sections + s]
        body = []
        for _ in range(rng.randint(4, 12)):
            words = rng.choices(WORDS, k=rng.randint(8, 20))
            if rng.random() < 0.5:
                words.insert(rng.randint(0, len(words)), rng.choice(names))
            sentence = " ".join(words)
            body.append(sentence[0].upper() + sentence[1:] + ".")
        out.append(f"\n### {own}\n\n" + " ".join(body) + "\n")
    return "".join(out)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--books", type=int, default=7)
    parser.add_argument("--sections", type=int, default=700)
    args = parser.parse_args()
    rng = random.Random(7)
    syllables = "ka ro mi tel ash vor quin del sa bru".split()
    names = sorted({" ".join(w.capitalize() for w in ("".join(rng.choices(syllables, k=2)), "".join(rng.choices(syllables, k=3))))
                    for _ in range(args.books * args.sections * 3)})[: args.books * args.sections]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        paths = []
        for b in range(args.books):
            path = tmp / f"book{b}.md"
            path.write_text(synthetic_book(rng, b, args.sections, names), encoding="utf-8")
            paths.append(path)
        mb = sum(p.stat().st_size for p in paths) / 1e6
        settings = Settings(index_dir=tmp / "index", pack="gurps")
        job = IngestJob(open_db(settings.index_dir, create=True), settings)
        per_book = []
        start = time.perf_counter()
        for path in paths:
            t0 = time.perf_counter()
            ingest_paths(job, [path])
            per_book.append(time.perf_counter() - t0)
        total = time.perf_counter() - start
        db = job.db
        counts = {t: db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("chunks", "entities", "entity_mentions", "entity_relationships")}
        print(f"shelf: {args.books} books, {args.books * args.sections} sections, {mb:.1f} MB of Markdown")
        print(f"index: {counts['chunks']} chunks, {counts['entities']} entities, {counts['entity_mentions']} mentions, "
              f"{counts['entity_relationships']} relationships (offline spaCy path)")
        print(f"ingest (rules extractor + spaCy relations, corpus relink each book): {total:.1f} s total, "
              f"{args.books * args.sections / total:.0f} sections/s; per book first {per_book[0]:.2f} s, last {per_book[-1]:.2f} s")
        t0 = time.perf_counter()
        ingest_paths(job, paths)
        print(f"re-ingest of the unchanged shelf (all skipped): {time.perf_counter() - t0:.2f} s")
        lookups = []
        for name in rng.sample(names, 200):
            t0 = time.perf_counter()
            where_else(db, name)
            lookups.append((time.perf_counter() - t0) * 1000)
        lookups.sort()
        print(f"where-else over {len(lookups)} names: median {statistics.median(lookups):.2f} ms, "
              f"p95 {lookups[int(len(lookups) * 0.95)]:.2f} ms, max {lookups[-1]:.2f} ms")
        t0 = time.perf_counter()
        delete_book(db, "Book 0")
        print(f"delete-book (with full relink of the rest): {time.perf_counter() - t0:.2f} s")
        db_size = sum(p.stat().st_size for p in settings.index_dir.glob("crossbook.db*")) / 1e6
        print(f"crossbook.db: {db_size:.1f} MB")


if __name__ == "__main__":
    main()
