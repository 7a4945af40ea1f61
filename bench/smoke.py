"""The bench's smoke lane (``make bench-smoke``, run by .ci/run): does every bench still run?

A script no make target runs drifts (a function it imports moves, a flag it passes goes),
so the lane does two things, in about two minutes:

1. imports every module of the bench (a script's imports are checked even when it is too
   heavy to run here);
2. runs every script of ``SMOKE`` once, with arguments that make it small (a few books, one
   run), two at a time, its figures going to a scratch file (``BENCH_RESULTS``): it must end
   with exit 0. A script that needs what a fresh clone lacks (the documentation zoo, pandoc,
   pdflatex, groff) is skipped with one line saying so.

``IMPORT_ONLY`` holds the scripts too heavy for two minutes even small (a whole shelf, a
server and ten clients, root's apt-get), each with where it runs instead. Every script of
the bench is in one of the two (tests/layout/test_layout_bench.py checks it): a new script
comes with its smoke line.

    python -m bench.smoke [--jobs 2] [--only MODULE]
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ZOO = Path(os.environ.get("ZOO", "/work/zoo"))
BUDGET_S = 120


@dataclass(frozen=True)
class Smoke:
    """One script's small run: its arguments and what it needs besides the repository."""

    args: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()


SMOKE: dict[str, Smoke] = {
    # make bench, small
    "bench.bench_startup": Smoke(("--runs", "1")),
    "bench.bench_scale": Smoke(("--shelf-mb", "0.6", "--mentions", "5000", "--book-mentions", "1000",
                                "--delete-index-mentions", "5000")),
    "bench.bench_embed": Smoke(("--ratio-only", "--chunks", "10", "--repeats", "1")),
    "bench.bench_growth": Smoke(("--books", "3", "--sections", "5", "--no-record")),
    "bench.bench_small_books": Smoke(("--pages", "5", "--no-record")),
    "bench.bench_skip_unchanged": Smoke(("--pages", "5", "--pdfs", "1", "--no-record")),
    "bench.bench_llm_pool": Smoke(("--books", "2", "--sections", "3", "--latency", "0.01")),
    "bench.report": Smoke(),
    # by hand, small
    "bench.bench_ingest": Smoke(("--books", "3", "--sections", "100")),
    "bench.bench_llm_runs": Smoke(("--runs", "1")),
    "bench.bench_pdf": Smoke(("--pages", "10")),
    "bench.bench_docset_write": Smoke(("--set", "ghc-base", "--pages", "3", "--embedder", "hash", "--no-record")),
    "bench.bench_hostile": Smoke(),
    "bench.bench_readers": Smoke(("--speed-only",)),
    "bench.structure": Smoke(),
    "bench.edge_checks": Smoke(("--shelf", "sample_corpus")),
    "bench.fate.hand_check": Smoke(("--size", "3")),
    # make eval, on the sample shelf or a few pages
    "bench.eval_retrieval": Smoke(("--shelf", "sample", "--embedder", "hash", "--no-cache", "--latency-runs", "1")),
    "bench.eval_extraction": Smoke(("--shelf", "sample", "--no-ablation")),
    "bench.eval_relations": Smoke(),
    "bench.eval_docs": Smoke(("--shelf", "manpages", "--pages", "3")),
    "bench.eval_docs_retrieval": Smoke(("--pages", "3", "--embedder", "hash")),
    "bench.eval_docs_generators": Smoke(("--pages", "2"), needs=("groff", "pandoc")),
    "bench.docs_zoo.eval_zoo": Smoke(("--zoo", str(ZOO), "--family", "rdoc", "--half", "check"), needs=("zoo",)),
    "bench.docs_zoo.latex_fresh": Smoke(("--limit", "2")),
    "bench.docs_zoo.texinfo_spelled": Smoke(("--zoo", str(ZOO)), needs=("zoo",)),
}

IMPORT_ONLY: dict[str, str] = {
    "bench.crash_test": "make crash-test (.ci/run: 20 kill points)",
    "bench.bench_mcp": "by hand: MCP servers and ten clients, 40 s even with one run",
    "bench.bench_whole_manual": "by hand: a whole manual (pgfmanual.pdf), minutes",
    "bench.bench_pdf_libs": "by hand: the PDF library choice (docs/formats.md)",
    "bench.compare_rules": "by hand: a git revision's rules beside today's on every shelf",
    "bench.compare_index_tables": "by hand: two indexes built before and after a change",
    "bench.eval_statblocks": "make eval: the srd51 stat blocks, a minute",
    "bench.eval_vault": "make eval: the whole Ironsworn vault",
    "bench.eval_mcp_sizes": "by hand: every development shelf built, 40 s",
    "bench.hand_sample": "by hand: the development shelves ingested",
    "bench.fate.build_gold": "by hand: --check rebuilds the Fate gold, 25 s",
    "bench.ironsworn.build_gold": "by hand: the Ironsworn gold, from the vault",
    "bench.srd51.editions": "make eval: the srd51 shelf typeset twice (pandoc, pdflatex)",
    "bench.srd51.eval_definitions": "make eval: the srd51 shelf",
    "bench.srd51.make_template_questions": "by hand: it writes bench/srd51/template_questions.json",
    "bench.docs_zoo.assemble": "make zoo (as root: apt-get)",
    "bench.docs_zoo.lookups": "make eval (eval_zoo scores them on the check halves it built): minutes alone",
    "bench.docs_zoo.write_golds": "by hand: it rewrites bench/docs_zoo/golds/*.json from the installed packages",
    "bench.twins.eval_halves": "make eval-halves: seven rulebook shelves ingested, half an hour cold",
    "bench.twins.write_halves": "by hand: --check says whether the committed halves and kinds are the rule's",
    "bench.twins.write_twins": "by hand (eval_halves writes them): the srd51 corpus of ../shared/corpora",
}

TOOLS = ("groff", "pandoc", "pdflatex")


def missing(needs: tuple[str, ...]) -> list[str]:
    """What of ``needs`` this machine lacks: a tool on PATH, the zoo (``ZOO``)."""
    out = [tool for tool in needs if tool in TOOLS and shutil.which(tool) is None]
    if "zoo" in needs and not (ZOO / "zoo.json").is_file():
        out.append(f"the documentation zoo ({ZOO}: make zoo)")
    return out


def bench_modules() -> list[str]:
    """Every module of the bench, by its import name."""
    return sorted(".".join(p.relative_to(ROOT).with_suffix("").parts) for p in (ROOT / "bench").rglob("*.py")
                  if p.name != "__init__.py")


def import_all() -> list[str]:
    """One line for each bench module that does not import."""
    failed = []
    for module in bench_modules():
        try:
            importlib.import_module(module)
        except Exception as exc:  # any failure is the line to print
            failed.append(f"{module}: does not import: {type(exc).__name__}: {exc}")
    return failed


def run(module: str, smoke: Smoke, results: Path) -> tuple[str, float, str | None]:
    """(module, seconds, None or the failure's last line) of one small run."""
    lacking = missing(smoke.needs)
    if lacking:
        return module, 0.0, f"skipped: needs {', '.join(lacking)}"
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", module, *smoke.args], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "BENCH_RESULTS": str(results)})
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()[-1]
        return module, seconds, f"FAILED (exit {done.returncode}): {last}"
    return module, seconds, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="scripts run at once")
    parser.add_argument("--only", action="append", help="run only these modules (bench.xxx)")
    args = parser.parse_args()
    started = time.perf_counter()
    failures = import_all()
    for line in failures:
        print(line)
    chosen = {m: s for m, s in SMOKE.items() if not args.only or m in args.only}
    with tempfile.TemporaryDirectory(prefix="crossbook-smoke-") as scratch, \
            ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for module, seconds, problem in pool.map(lambda item: run(*item, Path(scratch) / "results.json"),
                                                 chosen.items()):
            print(f"{module}: {problem or 'ok'}" + (f" ({seconds:.1f} s)" if seconds else ""), flush=True)
            failures += [module] if problem and problem.startswith("FAILED") else []
    total = time.perf_counter() - started
    print(f"smoke lane: {len(chosen)} scripts run or skipped, {len(bench_modules())} modules imported,"
          f" {len(failures)} failed, {total:.0f} s (budget {BUDGET_S} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
