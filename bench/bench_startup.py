"""Benchmark: cold start of crossbook commands, against the bare import floor.

Every figure is the median wall (and CPU) time of --runs fresh processes, run interleaved
so that a busy machine slows them alike: read the ratios more than the seconds, and the CPU
seconds when the machine is shared.

    floor       python -c "import typer, rich, sqlite_utils"
    typer_app   the floor + typer running a one-command app (typer builds pydantic adapters
                for the parameters at run time: no typer CLI starts faster)
    where-else  crossbook where-else "Frost Lance"            target <= 1.3 x floor
    search      crossbook search (default local embedder)     target <= 1.5 s
    chromadb    importing chromadb alone (what search cannot go below)
    skip        crossbook ingest of an unchanged book         target <= 0.5 s

The index is the sample corpus built with the default embedder; its ONNX graph is built
once before timing (so "search" is a cold process with the graph on disk, as for a user).
Writes the figures under "cold_start" in bench/results.json.

    python -m bench.bench_startup [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common.results import record

ROOT = Path(__file__).resolve().parent.parent

SAMPLE = ROOT / "sample_corpus"
CROSSBOOK = [sys.executable, "-c", "import sys; from crossbook.cli.main import run; sys.exit(run())"]


def environment(model_cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CROSSBOOK_", "OPENAI_"))}
    env.update(CROSSBOOK_MODEL_CACHE=str(model_cache), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    return env


def wall(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one fresh process running ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


# the floor plus what typer itself does to run a command (it builds pydantic adapters for
# its parameters at run time): what a typer CLI cannot go below
TYPER_APP = """
import typer, rich, sqlite_utils
app = typer.Typer()
@app.command()
def lookup(name: str, json: bool = typer.Option(False, "--json"), k: int = 10) -> None:
    pass
app(["Frost Lance", "--json"])
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        index, cache = Path(tmp) / "index", Path(tmp) / "models"
        env = environment(cache)
        base = [*CROSSBOOK, "--index", str(index)]
        build_s = wall([*base, "rebuild", str(SAMPLE / "crossbook.toml")], env)[0]
        config = ["--config", str(SAMPLE / "crossbook.toml")]
        books = sorted(str(p) for p in SAMPLE.glob("*.md") if p.name != "README.md")
        commands = {
            "floor": [sys.executable, "-c", "import typer, rich, sqlite_utils"],
            "typer_app": [sys.executable, "-c", TYPER_APP],
            "python": [sys.executable, "-c", "pass"],
            # what a cold search cannot go below: chromadb's import (crossbook's faster one)
            "chromadb": [sys.executable, "-c", "from crossbook.vectors.chroma_client import import_chromadb; import_chromadb()"],
            "where_else": [*base, "where-else", "Frost Lance"],
            "search": [*base, "search", "a spell that freezes the enemy", "-k", "5"],
            "skip_unchanged": [*base, *config, "ingest", str(SAMPLE / "bestiary.md")],
            "skip_3_unchanged": [*base, *config, "ingest", *books],
        }
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, argv in commands.items():
                times[name].append(wall(argv, env))
    median = {name: statistics.median(w for w, _ in values) for name, values in times.items()}
    cpu = {name: statistics.median(c for _, c in values) for name, values in times.items()}
    per_book = (median["skip_3_unchanged"] - median["skip_unchanged"]) / 2
    figures = {
        "runs": args.runs,
        "wall_s": {name: round(value, 3) for name, value in median.items()},
        "cpu_s": {name: round(value, 3) for name, value in cpu.items()},
        "where_else_over_floor": round(median["where_else"] / median["floor"], 2),
        "where_else_over_floor_cpu": round(cpu["where_else"] / cpu["floor"], 2),
        "where_else_over_typer_app": round(median["where_else"] / median["typer_app"], 2),
        "search_s": round(median["search"], 3),
        "search_over_chromadb_import": round(median["search"] / median["chromadb"], 2),
        "skip_unchanged_s": round(median["skip_unchanged"], 3),
        "skip_per_extra_unchanged_book_s": round(per_book, 3),
        "rebuild_sample_corpus_s": round(build_s, 2),
        "targets": {"where_else_over_floor": 1.3, "search_s": 1.5, "skip_unchanged_s": 0.5},
    }
    print(f"cold start, median of {args.runs} fresh processes (sample corpus, default embedder)")
    print(f"  {'command':<18}{'wall s':>8}{'x floor':>9}{'cpu s':>8}{'x floor':>9}  target")
    targets = {"where_else": "<= 1.3 x floor", "search": "<= 1.5 s", "skip_unchanged": "<= 0.5 s"}
    for name in commands:
        print(f"  {name:<18}{median[name]:>8.3f}{median[name] / median['floor']:>9.2f}"
              f"{cpu[name]:>8.3f}{cpu[name] / cpu['floor']:>9.2f}  {targets.get(name, '')}")
    print(f"  each further unchanged book in the same run: {per_book:.3f} s")
    record("cold_start", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
