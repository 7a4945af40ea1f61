"""What the zoo's families of bench/docs_zoo/family_*.py share: the cap, the copy of a
member's pages and its inventory, and the scoring of (name, kind, page) gold on a shelf."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from bench.docs_zoo.families import PAGES_PER_PROJECT, half_by_position
from bench.docs_zoo.scorers import score_entries
from bench.eval_docs import names_by_page

HERE = Path(__file__).resolve().parent


def every_kth(items: list, cap: int = PAGES_PER_PROJECT) -> list:
    step = max(1, -(-len(items) // cap))
    return items[::step][:cap]


def copy_member(source: Path, target: Path, pages: list[str], keep: list[str]) -> None:
    """The member's pages and the files kept beside them (its inventory), at their paths."""
    for rel in [*keep, *pages]:
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source / rel, target / rel)


def zoo_member(zoo: Path, family: str, project: str, package: str, half: str, source: Path, pages: list[str],
           keep: list[str], gold: str) -> dict:
    """A member: ``pages`` of ``source`` and the files ``keep`` beside them copied into the
    zoo's folder for it, and its zoo.json entry."""
    target = zoo / family / project
    copy_member(source, target, pages, keep)
    return {"family": family, "project": project, "package": package, "half": half, "path": str(target),
            "gold": gold, "pages": pages}


def halves_by_page(zoo: Path, family: str, package: str, project: str, source: Path, linked: list[str],
                   keep: list[str], gold: str) -> list[dict]:
    """A one-project family's members: its capped pages (every k-th of ``linked``) split by
    page, even positions tuned on, odd ones checked; each half a folder with ``keep`` beside."""
    chosen = every_kth(linked)
    halves = half_by_position(chosen)
    return [zoo_member(zoo, family, f"{project}-{half}", package, half, source,
                   [p for p in chosen if halves[p] == half], keep, gold) for half in ("tune", "check")]


def family_modules() -> dict:
    """The families in their own modules (families.FAMILY_MODULES), by name, imported when
    asked (they import this module)."""
    import importlib

    from bench.docs_zoo.families import FAMILY_MODULES

    return {m.NAME: m for m in (importlib.import_module(f"bench.docs_zoo.{name}") for name in FAMILY_MODULES)}


def score_gold(entries, pages: set[str], db: sqlite3.Connection) -> dict:
    """(name, kind, page) gold: each entry's name defined on the page it points at."""
    return score_entries(entries, pages, names_by_page(db), lambda kind: kind)
