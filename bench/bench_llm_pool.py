"""Benchmark: LLM request throughput across books (issue 11 item 4).

Generates --books books of --sections parent chunks each and ingests them in one run
through the scripted OpenAI-compatible server of tests/fakes.py, which answers every
request after --latency seconds. Prints the wall time of the whole ingest (chunking,
requests, writes), the ideal time (parents x latency / concurrency), their ratio, and the
most requests in flight at once (counted by the server). ``--per-book`` ingests the books
one call each, as every book had its own pool before, for comparison. Records figures
under "llm_pool" in bench/results.json (or "llm_pool_per_book"). Asserts nothing.

    python bench/bench_llm_pool.py [--books 10] [--sections 20] [--latency 0.3] [--concurrency 16]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.results_json import record  # noqa: E402
from index.db import open_db  # noqa: E402
from index.extract.openai_extractor import OpenAIExtractor  # noqa: E402
from index.packs import load_pack  # noqa: E402
from index.pipeline import Ingest, ingest_paths  # noqa: E402
from tests.fakes import ScriptedOpenAI  # noqa: E402
from tests.helpers import heading_responder, openai_settings, write  # noqa: E402


def make_books(target: Path, books: int, sections: int) -> list[Path]:
    """Books of ``sections`` sections, each one parent chunk (the title's own is the first)."""
    target.mkdir(parents=True)
    paths = []
    for b in range(books):
        text = f"# Book {b:02d}\n\nBook {b:02d} collects rules.\n" + "".join(
            f"\n## Entry {b}-{s}\n\nEntry {b}-{s} is a rule of book {b}. It refers to Entry {(b + 1) % books}-{s}.\n"
            for s in range(sections - 1))
        paths.append(write(target / f"book{b:02d}.md", text))
    return paths


def run(args, per_book: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp, ScriptedOpenAI() as server:
        tmp = Path(tmp)
        server.responder = heading_responder()
        server.latency = args.latency
        books = make_books(tmp / "books", args.books, args.sections)
        settings = openai_settings(tmp / "index", server, concurrency=args.concurrency, request_timeout=60.0)
        db = open_db(settings.index_dir, create=True)
        extractor = OpenAIExtractor(settings, load_pack("generic"), cache=db)
        job = Ingest(db, settings, extractor=extractor)
        started = time.perf_counter()
        if per_book:
            results = [r for path in books for r in ingest_paths(job, [path])]
        else:
            results = ingest_paths(job, books)
        wall = time.perf_counter() - started
        parents = sum(r.parents for r in results)
        calls = sum(r.llm_calls for r in results)
        ideal = parents * args.latency / args.concurrency
        return {"books": args.books, "parents": parents, "llm_calls": calls, "latency_s": args.latency,
                "concurrency": args.concurrency, "wall_s": round(wall, 3), "ideal_s": round(ideal, 3),
                "ratio": round(wall / ideal, 3) if ideal else None, "max_in_flight": server.max_in_flight}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--books", type=int, default=10)
    parser.add_argument("--sections", type=int, default=20, help="parent chunks per book")
    parser.add_argument("--latency", type=float, default=0.3, help="seconds per answer")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--per-book", action="store_true", help="one ingest call per book (the old per-book pools)")
    args = parser.parse_args()
    figures = run(args, args.per_book)
    print(f"LLM pool ({'one ingest per book' if args.per_book else 'one shared pool'}): "
          f"{figures['parents']} parents in {figures['books']} books, {figures['llm_calls']} calls, "
          f"latency {args.latency} s, concurrency {args.concurrency}: wall {figures['wall_s']:.2f} s, "
          f"ideal {figures['ideal_s']:.2f} s, ratio {figures['ratio']}, "
          f"max in flight {figures['max_in_flight']}")
    record("llm_pool_per_book" if args.per_book else "llm_pool", figures)


if __name__ == "__main__":
    main()
