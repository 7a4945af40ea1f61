"""The three development shelves, ingested with the offline defaults (shared by
bench/eval_extraction.py and bench/hand_sample.py).

The Ironsworn vault is read as today's code reads a directory of Markdown notes: each note
is a book of its own, titled by its heading or file name. Two notes whose titles clash
("Assets" in Chapter 1 and Chapter 2) would stop a directory ingest, so the vault goes in
note by note and a clashing note is titled "<folder> / <file name>". The vault reader
(branch `vault`) replaces this.
"""

from __future__ import annotations

import sys
from pathlib import Path

from index.errors import CrossbookError
from index.pipeline import Ingest, ingest_paths

ROOT = Path(__file__).resolve().parent.parent
IRONSWORN = Path("/work/shared/corpora/ironsworn/vault")
for _candidate in (ROOT.parent / "shared" / "corpora" / "ironsworn" / "vault", ROOT / "corpora" / "ironsworn" / "vault"):
    if _candidate.exists():
        IRONSWORN = _candidate
        break
IRONSWORN_GOLD = ROOT / "bench" / "ironsworn" / "gold.json"


def ironsworn_notes() -> list[Path]:
    return sorted(p for p in IRONSWORN.rglob("*.md") if not any(part.startswith(".") for part in p.parts))


def ingest_ironsworn(job: Ingest) -> int:
    """Ingest every note of the vault as a book; returns how many notes failed."""
    failed = 0
    for note in ironsworn_notes():
        try:
            ingest_paths(job, [note])
        except CrossbookError:
            try:
                ingest_paths(job, [note], title=f"{note.parent.name} / {note.stem}")
            except CrossbookError as exc:
                print(f"ingest of {note.name} failed: {exc}", file=sys.stderr)
                failed += 1
    return failed
