"""Benchmark: does the k-th book's ingest grow with the shelf?

Generates a shelf of books deterministically (a core book, then supplements that define their
own names and refer to names of the core and of earlier supplements, in singular, plural and
possessive form, aliases and invented lowercase terms included), ingests them one by one into
one index (rules extractor, offline relationships, no vectors) and prints each book's ingest
time. The figure is ``ratio_last_first``: the median of the last 3 books' ingest times over
the median of the first 3, in process CPU time (wall-clock on a shared machine measures
the neighbours; both are printed). Asserts nothing; ``record("growth", ...)`` into bench/results.json.

Usage: python -m bench.bench_growth [--books 50] [--sections 40]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from bench.common.results import record
from crossbook.core.config import Settings
from crossbook.ingest.pipeline import IngestJob, delete_book, ingest_paths
from crossbook.storage.db import open_db

WORDS = ("the a of to and in it is you can when your roll target turn take make each one with "
         "this that for on as any other an at by if its not or may gain use once more than "
         "ally enemy scene effect bonus penalty check move attack defend cost range").split()
SYLLABLES = "ka ro mi tel ash vor quin del sa bru zen fal ith om".split()
CHAPTERS = ("Spells", "Skills", "Gear")


def invented(rng: random.Random, parts: int) -> str:
    return "".join(rng.choices(SYLLABLES, k=parts))


def shelf(books: int, sections: int, seed: int = 11) -> list[tuple[str, str]]:
    """(file stem, Markdown text) for each book, in ingest order."""
    rng = random.Random(seed)
    # invented lowercase words the books use as terms (a few become linker terms, some not)
    terms = sorted({invented(rng, 2) for _ in range(12)})
    seen: set[str] = set()
    out, defined = [], []
    for b in range(books):
        title = "Core Rules" if b == 0 else f"Supplement {b:02d}"
        names = []
        while len(names) < sections:
            name = invented(rng, 2).capitalize() + " " + invented(rng, 3).capitalize()
            if rng.random() < 0.15:
                name = invented(rng, 3).capitalize()  # a single capitalized word
            if name.lower() not in seen:
                seen.add(name.lower())
                names.append(name)
        if b == 0:
            names[: len(terms)] = [t.capitalize() for t in terms]  # the core defines the terms
        lines = [f"# {title}\n"]
        for s, name in enumerate(names):
            if s % 10 == 0:
                lines.append(f"\n## {CHAPTERS[(s // 10) % len(CHAPTERS)]}\n")
            heading = name
            if rng.random() < 0.1:
                alias = invented(rng, 2).capitalize() + " " + invented(rng, 2).capitalize()
                heading = f"{name} ({alias})"
            body = [f"{name} is a {rng.choice(terms)} of this book."]
            for _ in range(rng.randint(3, 7)):
                words = rng.choices(WORDS, k=rng.randint(6, 14))
                pool = names + (rng.sample(defined, min(len(defined), 40)) if defined else [])
                for _ in range(rng.randint(0, 2)):
                    ref = rng.choice(pool)
                    form = rng.choice((ref, ref, ref + "s", ref + "'s", ref.lower()))
                    words.insert(rng.randint(0, len(words)), form)
                for _ in range(rng.randint(0, 3)):
                    words.insert(rng.randint(0, len(words)), rng.choice(terms) + rng.choice(("", "s")))
                if rng.random() < 0.3:
                    words += ["casts", rng.choice(pool)]
                sentence = " ".join(words)
                body.append(sentence[0].upper() + sentence[1:] + ".")
            lines.append(f"\n### {heading}\n\n" + " ".join(body) + "\n")
        defined.extend(names)
        out.append((f"book{b:02d}", "".join(lines)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--books", type=int, default=50)
    parser.add_argument("--sections", type=int, default=40)
    parser.add_argument("--no-record", action="store_true", help="print only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        paths = []
        for stem, text in shelf(args.books, args.sections):
            path = tmp / f"{stem}.md"
            path.write_text(text, encoding="utf-8")
            paths.append(path)
        settings = Settings(index_dir=tmp / "index")
        job = IngestJob(open_db(settings.index_dir, create=True), settings)
        # load spaCy and wordfreq outside the timings, on a book of its own (the offline
        # relationship analysis caches its parses by text: the shelf's texts must not be seen)
        warm_up = tmp / "warm-up.md"
        warm_up.write_text(shelf(1, 5, seed=99)[0][1], encoding="utf-8")
        ingest_paths(job, [warm_up], title="Warm-up")
        delete_book(job.db, "Warm-up")
        times, walls = [], []
        for k, path in enumerate(paths, 1):
            t0, c0 = time.perf_counter(), time.process_time()
            ingest_paths(job, [path])
            times.append(time.process_time() - c0)
            walls.append(time.perf_counter() - t0)
            print(f"book {k:2d}: {times[-1]:.3f} s CPU, {walls[-1]:.3f} s wall", flush=True)
        db = job.db
        counts = {t: db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                  for t in ("chunks", "entities", "entity_mentions", "entity_relationships")}
        first, last = statistics.median(times[:3]), statistics.median(times[-3:])
        wall_ratio = statistics.median(walls[-3:]) / statistics.median(walls[:3])
        fifth = max(1, len(times) // 5)  # steadier on a busy machine: the mean of the last fifth over the first
        fifths_ratio = statistics.mean(times[-fifth:]) / statistics.mean(times[:fifth])
        print(f"shelf: {args.books} books x {args.sections} sections; index: {counts}")
        print(f"per-book ingest CPU: first {first:.3f} s, last {last:.3f} s (medians of 3), "
              f"ratio {last / first:.2f}; last fifth / first fifth (means) {fifths_ratio:.2f}; "
              f"wall-clock ratio {wall_ratio:.2f}; total {sum(times):.1f} s CPU")
        if not args.no_record:
            record("growth", {
                "books": args.books, "sections_per_book": args.sections,
                "first_s": round(first, 4), "last_s": round(last, 4),
                "ratio_last_first": round(last / first, 3),
                "ratio_definition": "median of the last 3 books' ingest CPU times / median of the first 3"
                                    " (process CPU time: the machine is shared; wall_ratio is the same on wall-clock)",
                "wall_ratio_last_first": round(wall_ratio, 3),
                "ratio_fifths": round(fifths_ratio, 3),  # mean CPU time of the last fifth of the books / the first fifth
                "total_s": round(sum(times), 2), "per_book_s": [round(t, 4) for t in times],
                **{f"{table}_rows": count for table, count in counts.items()},
            })


if __name__ == "__main__":
    main()
