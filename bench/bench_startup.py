"""Benchmark: cold start of crossbook commands, against the bare import floor.

Every figure is the median wall time of --runs fresh processes, run interleaved so that a
busy machine slows them alike: read the ratios more than the seconds.

    floor       python -c "import typer, rich, sqlite_utils"
    where-else  crossbook where-else "Frost Lance"            target <= 1.3 x floor
    search      crossbook search (default local embedder)     target <= 1.5 s
    skip        crossbook ingest of an unchanged book         target <= 0.5 s

The index is the sample corpus built with the default embedder; its ONNX graph is built
once before timing (so "search" is a cold process with the graph on disk, as for a user).
Writes the figures under "cold_start" in bench/results.json.

    python bench/bench_startup.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.results_json import record  # noqa: E402

SAMPLE = ROOT / "sample_corpus"
CROSSBOOK = [sys.executable, "-c", "import sys; from cli.app import run; sys.exit(run())"]


def environment(model_cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CROSSBOOK_", "OPENAI_"))}
    env.update(CROSSBOOK_MODEL_CACHE=str(model_cache), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    return env


def wall(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        index, cache = Path(tmp) / "index", Path(tmp) / "models"
        env = environment(cache)
        base = [*CROSSBOOK, "--index", str(index)]
        build_s = wall([*base, "rebuild", str(SAMPLE / "crossbook.toml")], env)
        commands = {
            "floor": [sys.executable, "-c", "import typer, rich, sqlite_utils"],
            "python": [sys.executable, "-c", "pass"],
            "where_else": [*base, "where-else", "Frost Lance"],
            "search": [*base, "search", "a spell that freezes the enemy", "-k", "5"],
            "skip_unchanged": [*base, "--config", str(SAMPLE / "crossbook.toml"), "ingest", str(SAMPLE / "bestiary.md")],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, argv in commands.items():
                times[name].append(wall(argv, env))
    median = {name: statistics.median(values) for name, values in times.items()}
    figures = {
        "runs": args.runs,
        "seconds": {name: round(value, 3) for name, value in median.items()},
        "where_else_over_floor": round(median["where_else"] / median["floor"], 2),
        "search_s": round(median["search"], 3),
        "skip_unchanged_s": round(median["skip_unchanged"], 3),
        "rebuild_sample_corpus_s": round(build_s, 2),
        "targets": {"where_else_over_floor": 1.3, "search_s": 1.5, "skip_unchanged_s": 0.5},
    }
    print(f"cold start, median of {args.runs} fresh processes (sample corpus, default embedder)")
    print(f"  {'command':<16}{'median s':>10}{'min s':>9}{'x floor':>9}  target")
    targets = {"where_else": "<= 1.3 x floor", "search": "<= 1.5 s", "skip_unchanged": "<= 0.5 s"}
    for name in commands:
        print(f"  {name:<16}{median[name]:>10.3f}{min(times[name]):>9.3f}"
              f"{median[name] / median['floor']:>9.2f}  {targets.get(name, '')}")
    record("cold_start", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
