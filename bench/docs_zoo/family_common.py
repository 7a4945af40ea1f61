"""What the zoo's families of bench/docs_zoo/family_*.py share: the cap, the copy of a
member's pages and its inventory, and the scoring of (name, kind, page) gold on a shelf."""

from __future__ import annotations

import re
import shutil
import sqlite3
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from eval_docs import names_by_page  # noqa: E402
from families import PAGES_PER_PROJECT  # noqa: E402

from crossbook.core.normalize import normalize_name  # noqa: E402


def every_kth(items: list, cap: int = PAGES_PER_PROJECT) -> list:
    step = max(1, -(-len(items) // cap))
    return items[::step][:cap]


def copy_member(source: Path, target: Path, pages: list[str], keep: list[str]) -> None:
    """The member's pages and the files kept beside them (its inventory), at their paths."""
    for rel in [*keep, *pages]:
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source / rel, target / rel)


def forms(name: str) -> set[str]:
    """The name, and its last part after a dot, ``::`` or ``#`` (a method by its own name)."""
    last = re.split(r"\.|::|#", name.rstrip("()"))[-1]
    return {normalize_name(name), normalize_name(last)} - {""}


def score_gold(entries, pages: set[str], db: sqlite3.Connection) -> dict:
    """(name, kind, page) gold: each entry's name defined on the page it points at."""
    by_page = names_by_page(db)
    out = {"found": 0, "total": 0, "by_kind": {}, "misses": []}
    for name, kind, page in entries:
        if page not in pages:
            continue
        hit = bool(forms(name) & by_page.get(page, set()))
        counts = out["by_kind"].setdefault(kind, [0, 0])
        counts[0] += hit
        counts[1] += 1
        out["found"] += hit
        out["total"] += 1
        if not hit and len(out["misses"]) < 8:
            out["misses"].append(f"{kind} {name} ({page})")
    return out
