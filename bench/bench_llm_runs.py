"""Repeated LLM ingests under faults ("30 runs, 0 crashes").

Each run is a fresh ``crossbook ingest BOOK --extractor openai`` process (a module is
imported once per process, so the request threads' import race can only show in a new one) into
a fresh index, against the scripted OpenAI-compatible server of tests/fakes.py, which
answers after a latency with jitter and injects faults (429 with Retry-After, 500/503,
dropped connections, truncated, non-JSON, off-schema answers) into --rate of the requests.
(tests/ingest/test_concurrency_import_race.py widens the race's window on purpose; this runs it as a user
would.) Prints per run: exit code, seconds, LLM calls, partial chunks and the
error line of a failed run; then the totals. A crash is any exit but 0 or an error that is
not a CrossbookError. Asserts nothing.

    python -m bench.bench_llm_runs [--runs 30] [--rate 0.15] [--latency 0.05] [--book PATH]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.fate.fate_text import CORPUS as FATE
from tests.fakes import FaultInjector, ScriptedOpenAI
from tests.helpers import heading_responder

ROOT = Path(__file__).resolve().parent.parent

DEFAULT_BOOK = FATE / "Fate-Condensed-SRD-CC-BY.md"
FAULTS = ("rate_limit", "server_error", "dropped_connection", "truncated", "non_json", "schema_violation",
          "all_items_malformed")


def one_run(book: Path, work: Path, server: ScriptedOpenAI, args) -> dict:
    index = work / "index"
    shutil.rmtree(index, ignore_errors=True)
    command = [sys.executable, "-m", "crossbook.cli.main", "--index", str(index), "--embedder", args.embedder, "-q",
               "ingest", str(book), "--extractor", "openai", "--base-url", server.base_url,
               "--model", "scripted", "--concurrency", str(args.concurrency), "--allow-partial", "--json"]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(work), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env, timeout=900)
    seconds = time.perf_counter() - started
    errors = [line for line in done.stderr.splitlines() if line.startswith(("Error", "Traceback"))]
    row = {"exit": done.returncode, "seconds": round(seconds, 1), "error": errors[-1] if errors else ""}
    if done.returncode == 0:
        result = json.loads(done.stdout)
        row.update(llm_calls=sum(r["llm_calls"] for r in result), partial=sum(r["partial"] for r in result))
    # a crash: a non-zero exit, or an error crossbook did not expect (a traceback, "unexpected")
    row["crash"] = done.returncode != 0 or "unexpected" in done.stderr or "Traceback" in done.stderr
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--rate", type=float, default=0.15, help="share of requests that get a fault")
    parser.add_argument("--latency", type=float, default=0.05, help="seconds before each answer")
    parser.add_argument("--jitter", type=float, default=0.1, help="up to this many seconds more per answer")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--embedder", default="hash", help="hash (fast) or local (the ONNX model)")
    parser.add_argument("--book", type=Path, default=DEFAULT_BOOK if DEFAULT_BOOK.exists()
                        else ROOT / "sample_corpus" / "grimoire.md")
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as tmp, ScriptedOpenAI() as server:
        work = Path(tmp)
        book = work / args.book.name
        shutil.copyfile(args.book, book)
        server.latency, server.jitter = args.latency, args.jitter
        for n in range(args.runs):
            # a new seed per run: other requests get the faults
            server.responder = FaultInjector(heading_responder(), rate=args.rate, kinds=FAULTS, seed=f"run-{n}")
            row = one_run(book, work, server, args)
            row["faults"] = sum(server.responder.injected.values())
            rows.append(row)
            print(f"run {n + 1:>2}: exit {row['exit']}, {row['seconds']:>5} s, {row['faults']:>3} faults, "
                  f"{row.get('llm_calls', '-')} calls, {row.get('partial', '-')} partial"
                  + (f"  {row['error']}" if row["error"] else ""), flush=True)
    crashes = sum(r["crash"] for r in rows)
    faults = sum(r["faults"] for r in rows)
    print(f"\n{len(rows)} runs of {args.book.name}: {crashes} crashes, {faults} faults injected "
          f"(rate {args.rate}, latency {args.latency}+{args.jitter} s, concurrency {args.concurrency}, "
          f"embedder {args.embedder}); "
          f"mean {sum(r['seconds'] for r in rows) / len(rows):.1f} s per run")


if __name__ == "__main__":
    main()
