"""Benchmark: LLM request throughput across books.

Generates --books books of --sections parent chunks each and ingests them in one run
through the scripted OpenAI-compatible server of tests/fakes.py, run in its own process,
which answers every request after --latency seconds. Prints the wall time of the whole ingest (chunking,
requests, writes), the ideal time (parents x latency / concurrency), their ratio, the
most requests in flight at once and the span from the first request to the last answer
(both seen by the server); then the same books ingested one
call each (as when every book had its own pool), and once at zero latency with
--concurrency 8. Records figures under "llm_pool" in bench/results.json. Asserts nothing.

    python -m bench.bench_llm_pool [--books 10] [--sections 20] [--latency 0.3] [--concurrency 16]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common.results import record
from crossbook.core.packs import load_pack
from crossbook.extract.openai_extractor import OpenAIExtractor
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db
from tests.fakes import ScriptedOpenAI
from tests.helpers import heading_responder, openai_settings, write

ROOT = Path(__file__).resolve().parent.parent


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


class ServerProcess:
    """The scripted server in its own process (a real endpoint is remote: its CPU is not the
    client's); quacks like ScriptedOpenAI for base_url and max_in_flight."""

    def __init__(self, latency: float):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", __spec__.name, "--serve", str(latency)], cwd=ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.base_url = self.proc.stdout.readline().strip()
        self.max_in_flight, self.span = 0, 0.0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.proc.stdin.close()   # the server's signal to stop and report
        in_flight, span = (self.proc.stdout.readline().split() or ["0", "0"])
        self.max_in_flight, self.span = int(in_flight), float(span)
        self.proc.wait(timeout=30)


def serve(latency: float) -> None:
    arrivals = []
    answer = heading_responder()

    def respond(request):
        arrivals.append(time.perf_counter())
        return answer(request)

    with ScriptedOpenAI() as server:
        server.responder = respond
        server.latency = latency
        print(server.base_url, flush=True)
        sys.stdin.read()
        # the requests' span: first arrival to the last answer (the last arrival + latency)
        span = arrivals[-1] + latency - arrivals[0] if arrivals else 0.0
        print(server.max_in_flight, span, flush=True)


def run(args, per_book: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        books = make_books(tmp / "books", args.books, args.sections)
        server = ServerProcess(args.latency)
        with server:
            settings = openai_settings(tmp / "index", server, concurrency=args.concurrency, request_timeout=60.0)
            db = open_db(settings.index_dir, create=True)
            extractor = OpenAIExtractor(settings, load_pack("generic"), cache=db)
            job = IngestJob(db, settings, extractor=extractor)
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
                "ratio": round(wall / ideal, 3) if ideal else None, "max_in_flight": server.max_in_flight,
                "requests_s": round(server.span, 3), "requests_ratio": round(server.span / ideal, 3) if ideal else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--books", type=int, default=10)
    parser.add_argument("--sections", type=int, default=20, help="parent chunks per book")
    parser.add_argument("--latency", type=float, default=0.3, help="seconds per answer")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--serve", type=float, help=argparse.SUPPRESS)   # the server process
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve)
        return
    load = os.getloadavg()[0]
    pooled = run(args, per_book=False)
    per_book = run(args, per_book=True)
    zero = run(argparse.Namespace(**{**vars(args), "latency": 0.0, "concurrency": 8}), per_book=False)
    print(f"LLM pool: {pooled['parents']} parents in {pooled['books']} books, {pooled['llm_calls']} calls, "
          f"latency {args.latency} s, concurrency {args.concurrency} (load average {load:.1f})")
    print(f"  one shared pool:     wall {pooled['wall_s']:.2f} s, ideal {pooled['ideal_s']:.2f} s, "
          f"ratio {pooled['ratio']:.2f}, max in flight {pooled['max_in_flight']}; first request to last "
          f"answer {pooled['requests_s']:.2f} s, ratio {pooled['requests_ratio']:.2f}")
    print(f"  one ingest per book: wall {per_book['wall_s']:.2f} s, ratio {per_book['ratio']:.2f}")
    print(f"  zero latency, concurrency 8: wall {zero['wall_s']:.2f} s, max in flight {zero['max_in_flight']}")
    record("llm_pool", {**pooled, "per_book_wall_s": per_book["wall_s"], "per_book_ratio": per_book["ratio"],
                        "zero_latency_wall_s": zero["wall_s"], "zero_latency_max_in_flight": zero["max_in_flight"],
                        "load_average": round(load, 2)})


if __name__ == "__main__":
    main()
