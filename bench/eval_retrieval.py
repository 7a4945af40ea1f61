"""`make eval`: recall@k of the second-hop gold section, plain search vs multi-hop retrieve.

Ingests sample_corpus/ (rules extractor, local MiniLM embedder) into a temporary index,
asks every question of sample_corpus/questions.json both ways, and prints one table. A
question counts as found when its second_hop section (book + heading path) is among the
top k parent sections.

    python bench/eval_retrieval.py [-k 10] [--embedder local] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from index.config import load_settings  # noqa: E402
from index.db import open_db  # noqa: E402
from index.pipeline import Ingest, rebuild  # noqa: E402
from index.retrieve import retrieve, search  # noqa: E402
from index.vectors import open_vectors  # noqa: E402


def distractor_books(corpus: Path, count: int, sections: int, out: Path) -> list[dict]:
    """``count`` generated books that share the corpus's vocabulary but answer none of its
    questions: every sentence is a shuffle of words from the corpus (entity names
    included, as other books on a shelf mention them). A stand-in for the rest of a shelf,
    where many sections talk about spells, costs and creatures. Deterministic (seeded)."""
    rng = random.Random(11)
    words = sorted({w for p in sorted(corpus.glob("*.md"))
                    for w in re.findall(r"[A-Za-z][a-z]+", p.read_text(encoding="utf-8"))})
    syllables = "ka ro mi tel ash vor quin del sa bru".split()
    books = []
    for b in range(count):
        lines = [f"# Distractor Book {b + 1}\n"]
        for s in range(sections):
            if s % 20 == 0:
                lines.append(f"\n## Chapter {s // 20 + 1}\n")
            name = " ".join("".join(rng.choices(syllables, k=3)).capitalize() for _ in range(2))
            body = []
            for _ in range(rng.randint(3, 7)):
                sentence = " ".join(rng.choices(words, k=rng.randint(8, 16)))
                body.append(sentence[0].upper() + sentence[1:] + ".")
            lines.append(f"\n### {name}\n\n" + " ".join(body) + "\n")
        path = out / f"distractor{b + 1}.md"
        path.write_text("".join(lines), encoding="utf-8")
        books.append({"path": str(path), "title": f"Distractor Book {b + 1}"})
    return books


def rank_of(results, gold: dict) -> int | None:
    for rank, passage in enumerate(results, 1):
        if passage.book == gold["book"] and passage.section == gold["path"]:
            return rank
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", type=int, default=10, help="cut-off for recall@k")
    parser.add_argument("--embedder", default="local", help="local (default), hash or openai")
    parser.add_argument("--corpus", type=Path, default=ROOT / "sample_corpus")
    parser.add_argument("--hops", type=int, default=2, help="hops for retrieve")
    parser.add_argument("--distractors", type=int, default=0,
                        help="add N generated books of 60 sections that share the corpus's vocabulary")
    parser.add_argument("--verbose", action="store_true", help="one line per question")
    args = parser.parse_args()
    manifest = args.corpus / "crossbook.toml"
    questions = json.loads((args.corpus / "questions.json").read_text(encoding="utf-8"))["questions"]
    with tempfile.TemporaryDirectory() as tmp:
        # settings (the pack) from the corpus manifest; an empty environ: the eval must not
        # depend on the caller's CROSSBOOK_* variables
        settings = load_settings({"index_dir": Path(tmp) / "index", "embedder": args.embedder}, {}, manifest)
        if args.distractors:
            books = [{"path": str((args.corpus / b["path"]).resolve()), **({"title": b["title"]} if "title" in b else {})}
                     for b in tomllib.loads(manifest.read_text(encoding="utf-8"))["books"]]
            books += distractor_books(args.corpus, args.distractors, 60, Path(tmp))
            manifest = Path(tmp) / "crossbook.toml"
            manifest.write_text("".join(
                f"[[books]]\npath = {json.dumps(b['path'])}\n" + (f"title = {json.dumps(b['title'])}\n" if "title" in b else "")
                for b in books), encoding="utf-8")
        db = open_db(settings.index_dir, create=True)
        started = time.perf_counter()
        with open_vectors(settings, db) as vectors:
            summary = rebuild(Ingest(db, settings, vectors=vectors), manifest)
            if summary["failed"]:
                print(f"ingest failed: {summary['failed']}", file=sys.stderr)
                return 1
            ingest_seconds = time.perf_counter() - started
            first_hop = {"search": 0, "retrieve": 0}
            rows = []
            started = time.perf_counter()
            for q in questions:
                plain = search(vectors, db, q["question"], k=args.k)
                multi = retrieve(vectors, db, q["question"], hops=args.hops, k=args.k)["results"]
                ranks = (rank_of(plain, q["second_hop"]), rank_of(multi, q["second_hop"]))
                first_hop["search"] += rank_of(plain, q["first_hop"]) is not None
                first_hop["retrieve"] += rank_of(multi, q["first_hop"]) is not None
                rows.append((q, ranks))
            query_ms = (time.perf_counter() - started) * 1000 / len(questions)
    n = len(questions)
    if args.verbose:
        for q, (s, r) in rows:
            print(f"search {str(s or '-'):>3}  retrieve {str(r or '-'):>3}  via {q['via']:<16} {q['question']}")
        print()
    k = args.k
    shelf = f"sample corpus + {args.distractors} distractor books" if args.distractors else "sample corpus"
    print(f"{shelf}: {n} two-book questions, embedder {args.embedder}, ingest {ingest_seconds:.1f}s,"
          f" search + retrieve {query_ms:.0f} ms per question")
    print()
    print(f"| {'second-hop gold section':<30} | {'search':>8} | {'retrieve':>8} |")
    print(f"|{'-' * 32}|{'-' * 10}|{'-' * 10}|")
    for cut in sorted({1, 3, 5, k}):
        if cut > k:
            continue
        hits = [sum(1 for _, r in rows if r[i] is not None and r[i] <= cut) for i in (0, 1)]
        label = f"recall@{cut}"
        print(f"| {label:<30} | {hits[0] / n:>8.0%} | {hits[1] / n:>8.0%} |")
    mrr = [sum(1 / r[i] for _, r in rows if r[i] is not None) / n for i in (0, 1)]
    print(f"| {f'MRR@{k}':<30} | {mrr[0]:>8.3f} | {mrr[1]:>8.3f} |")
    print(f"| {f'first-hop gold, recall@{k}':<30} | {first_hop['search'] / n:>8.0%} | {first_hop['retrieve'] / n:>8.0%} |")
    print(f"| {'questions':<30} | {n:>8} | {n:>8} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
