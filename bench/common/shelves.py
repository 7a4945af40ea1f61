"""The three development shelves, ingested with the offline defaults (shared by
bench/eval_extraction.py and bench/hand_sample.py).

The Ironsworn vault is one book, read by the vault reader (index/readers/vault): until it
landed each note was ingested as a book of its own.
"""

from __future__ import annotations

import sys
from pathlib import Path

from crossbook.core.errors import CrossbookError
from crossbook.ingest.pipeline import IngestJob, ingest_paths

ROOT = Path(__file__).resolve().parents[2]
IRONSWORN = Path("/work/shared/corpora/ironsworn/vault")
for _candidate in (ROOT.parent / "shared" / "corpora" / "ironsworn" / "vault", ROOT / "corpora" / "ironsworn" / "vault"):
    if _candidate.exists():
        IRONSWORN = _candidate
        break
IRONSWORN_GOLD = ROOT / "bench" / "ironsworn" / "gold.json"


def ironsworn_notes() -> list[Path]:
    return sorted(p for p in IRONSWORN.rglob("*.md") if not any(part.startswith(".") for part in p.parts))


def ingest_ironsworn(job: IngestJob) -> int:
    """Ingest the vault as one book through the vault reader (index/readers/vault); returns
    how many notes failed (the reader takes every note or fails the book)."""
    try:
        ingest_paths(job, [IRONSWORN], as_book=True)
    except CrossbookError as exc:
        print(f"ingest of the Ironsworn vault failed: {exc}", file=sys.stderr)
        return len(ironsworn_notes())
    return 0
