"""bench/results.json: every bench script merges its figures under its own key."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results.json"


def record(section: str, figures: dict, path: Path = RESULTS) -> None:
    """Set ``section`` to ``figures`` in results.json, keeping every other section."""
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
