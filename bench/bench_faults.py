"""Benchmark: the LLM path under injected faults.

Ingests a shelf (the sample corpus plus a generated book citing it) through the scripted
OpenAI-compatible server of tests/fakes.py, once fault-free and then once per fault kind
(and once with all kinds mixed) at --rate of the requests. Prints per kind: faults
injected, faults survived (the chunk's mentions equal the fault-free run's), failed
chunks (reported, stored with --allow-partial), LLM calls, extra calls, whether the whole
index equals the fault-free one, and, when chunks failed, the calls a fault-free re-run
makes (only the failed chunks) and whether the index then equals. Asserts nothing.

    python bench/bench_faults.py [--rate 0.15] [--copies 1] [--timeout 0.5]
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crossbook.core.errors import ChunksFailed  # noqa: E402
from crossbook.core.packs import load_pack  # noqa: E402
from crossbook.extract.openai_extractor import OpenAIExtractor  # noqa: E402
from crossbook.ingest.pipeline import IngestJob, ingest_paths  # noqa: E402
from crossbook.storage.db import open_db  # noqa: E402
from tests.fakes import FAULT_KINDS, INJECTION, FaultInjector, ScriptedOpenAI  # noqa: E402
from tests.helpers import openai_settings, render_book, shelf_headings, shelf_responder, snapshot, write  # noqa: E402


def make_shelf(target: Path, copies: int) -> list[Path]:
    target.mkdir(parents=True)
    books = []
    for n in range(copies):
        for name in ("core_rules.md", "grimoire.md", "bestiary.md"):
            text = (ROOT / "sample_corpus" / name).read_text(encoding="utf-8")
            if n:
                text = re.sub(r"^# (.+)$", rf"# Copy {n} of \1", text, count=1, flags=re.MULTILINE)
            if name == "grimoire.md":
                text = text.replace("Cost: 3 Ember.", f"Cost: 3 Ember. {INJECTION}", 1)
            books.append(write(target / f"{n}-{name}", text))
    cited = shelf_headings(books)[5:]
    books.append(write(target / "chronicle.md", render_book("Chronicle", [
        (f"Year {n // 5}", f"Entry {n}", [f"The scouts met {cited[n % len(cited)]} on day {n}.",
                                          f"Nobody forgot {cited[(7 * n) % len(cited)]}."]) for n in range(40)])))
    return books


def ingest(index_dir: Path, server: ScriptedOpenAI, books: list[Path], timeout: float) -> tuple[int, int]:
    """(LLM calls, failed chunks). The cache key holds the endpoint: one server per index."""
    settings = openai_settings(index_dir, server, pack=str(ROOT / "sample_corpus" / "emberfall.pack.toml"),
                               request_timeout=timeout, max_retries=5, allow_partial=True)
    db = open_db(index_dir, create=True)
    extractor = OpenAIExtractor(settings, load_pack(settings.pack), cache=db, sleep=lambda s: None)
    try:
        results = ingest_paths(IngestJob(db, settings, extractor=extractor), books)
    except ChunksFailed as exc:  # not with allow_partial, but report it if it happens
        return extractor.calls, len(exc.failed)
    finally:
        db.conn.close()
    return sum(r.llm_calls for r in results), sum(r.partial for r in results)


def mentions_by_chunk_text(index_dir: Path) -> dict[str, list]:
    db = open_db(index_dir)
    out = defaultdict(list)
    for row in db.execute(
        "SELECT c.text, m.mention_type, m.name, m.context FROM entity_mentions m JOIN chunks c ON c.id = m.chunk_id"
        " WHERE m.source = 'llm'"
    ):
        out[row[0]].append(tuple(row[1:]))
    db.conn.close()
    return {k: sorted(v) for k, v in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=0.15, help="share of requests that get a fault")
    parser.add_argument("--copies", type=int, default=1, help="copies of the sample corpus in the shelf")
    parser.add_argument("--timeout", type=float, default=0.5, help="client timeout (a stall lasts 4x this)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="crossbook-faults-"))
    try:
        books = make_shelf(tmp / "books", args.copies)
        clean = shelf_responder(shelf_headings(books))
        start = time.perf_counter()
        with ScriptedOpenAI() as server:
            server.responder = clean
            clean_calls, _ = ingest(tmp / "clean", server, books, args.timeout)
        print(f"fault-free: {clean_calls} LLM calls for {len(books)} books in {time.perf_counter() - start:.1f} s")
        expected, expected_chunks = snapshot(tmp / "clean"), mentions_by_chunk_text(tmp / "clean")
        print(f"{'fault kind':<22} {'injected':>8} {'survived':>8} {'failed':>6} {'calls':>6} {'extra':>6}"
              f" {'equal':>6} {'s':>6}  re-run")
        totals = [0, 0, 0]
        for kinds in [(k,) for k in FAULT_KINDS] + [FAULT_KINDS]:
            label = kinds[0] if len(kinds) == 1 else "all kinds mixed"
            faults = FaultInjector(clean, rate=args.rate, kinds=kinds, seed=label, stall_seconds=4 * args.timeout)
            index_dir = tmp / label.replace(" ", "_")
            with ScriptedOpenAI() as server:
                server.responder = faults
                start = time.perf_counter()
                calls, failed = ingest(index_dir, server, books, args.timeout)
                seconds = time.perf_counter() - start
                got = mentions_by_chunk_text(index_dir)
                survived = sum(1 for _kind, passage in faults.log if got.get(passage) == expected_chunks.get(passage))
                equal = snapshot(index_dir) == expected
                injected = len(faults.log)
                if len(kinds) == 1:
                    totals = [totals[0] + injected, totals[1] + survived, totals[2] + failed]
                rerun = ""
                if failed:
                    server.responder = clean
                    rerun_calls, _ = ingest(index_dir, server, books, args.timeout)
                    rerun = f"{rerun_calls} calls, equal: {'yes' if snapshot(index_dir) == expected else 'NO'}"
            print(f"{label:<22} {injected:>8} {survived:>8} {failed:>6} {calls:>6} {calls - clean_calls:>6}"
                  f" {'yes' if equal else 'NO':>6} {seconds:>6.1f}  {rerun}", flush=True)
        print(f"{'total (single kinds)':<22} {totals[0]:>8} {totals[1]:>8} {totals[2]:>6}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
