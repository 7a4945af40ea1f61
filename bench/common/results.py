"""bench/results.json: every bench script merges its figures under its own key
(``BENCH_RESULTS``, a file's path, puts them elsewhere: the smoke lane's runs, bench/smoke.py,
leave the last real figures alone)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[1] / "results.json"


def results_path() -> Path:
    """Where figures go: ``BENCH_RESULTS`` when set, else bench/results.json."""
    return Path(os.environ.get("BENCH_RESULTS") or RESULTS)


def record(section: str, figures: dict, path: Path | None = None) -> None:
    """Set ``section`` to ``figures`` in results.json (``path``, else ``results_path()``),
    keeping every other section."""
    path = path or results_path()
    try:
        results = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        results = {}
    results[section] = figures
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=2, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)
