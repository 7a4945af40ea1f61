"""What the zoo's families of bench/docs_zoo/family_*.py share: the cap, the copy of a
member's pages and its inventory, the bare copy's one rule for search files, and the scoring
of (name, kind, page) gold on a shelf."""

from __future__ import annotations

import fnmatch
import gzip
import json
import re
import shutil
import sqlite3
from pathlib import Path

from bench.docs_zoo.families import PAGES_PER_PROJECT, half_by_position
from bench.docs_zoo.scorers import score_entries
from bench.eval_docs import names_by_page

HERE = Path(__file__).resolve().parent

from crossbook.core.normalize import normalize_name  # noqa: E402

GOLDS = HERE / "golds"   # the committed output of the gold readers of families that ship no list
# a script's first statement assigns or passes one literal: ``searchIndex = {``, ``Search.setIndex({``,
# ``var x = JSON.parse('``, ``window.ALL_CRATES = [``: the data of a search index or an inventory
_DATA_SCRIPT = re.compile(r"""(?:(?:var|let|const)\s+)?[\w$.\[\]]+\s*(?:=\s*|\((?:[\w$.]+,\s*)?)(?:JSON\.parse\(\s*)?[\[{'"`]""")
_COMMENTS = re.compile(r"\A(?:\s+|//[^\n]*|/\*.*?\*/)*", re.DOTALL)


def every_kth(items: list, cap: int = PAGES_PER_PROJECT) -> list:
    step = max(1, -(-len(items) // cap))
    return items[::step][:cap]


def pinned(path: Path, candidates: list, key) -> list | None:
    """The candidates a committed sample names (``path``, a JSON list of keys), in their order;
    None when nothing is pinned yet. A sample of what the machine has installed (every k-th man
    page) moves when one package more is installed, and the draws made from it
    (``lookups.json``) would name pages no longer in the zoo. A pinned key the machine lacks is
    left out, and said."""
    if not path.is_file():
        return None
    keys = set(json.loads(path.read_text(encoding="utf-8")))
    chosen = [c for c in candidates if key(c) in keys]
    missing = sorted(keys - {key(c) for c in chosen})
    if missing:
        print(f"{path.name}: {len(missing)} pinned but not installed, left out: {', '.join(missing[:5])}")
    return chosen


def pin(path: Path, chosen: list, key) -> None:
    """Write the sample ``chosen`` as ``pinned`` reads it: its keys, sorted."""
    path.write_text(json.dumps(sorted(key(c) for c in chosen), indent=0) + "\n", encoding="utf-8")


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
    """(name, kind, page) gold (an anchor after them aside): each entry's name defined on the
    page it points at."""
    return score_entries([e[:3] for e in entries], pages, names_by_page(db), lambda kind: kind)


def gold_anchors(entries) -> dict[str, str]:
    """page#anchor -> the name documented there, of (name, kind, page, anchor) gold: the
    targets the authors' links are measured to (links.py)."""
    return {f"{page}#{anchor}": name for name, _, page, anchor in entries if anchor}


def is_search_file(path: Path) -> bool:
    """Whether ``path`` is a search index or an inventory a generator writes as data beside
    its pages, not a page nor a script the pages run: any ``.json`` file (gzipped or not), and
    a ``.js`` file named for a search index or an index (``searchindex.js``,
    ``member-search-index.js``, Scaladoc's ``index.js``, Racket's ``plt-index.js``) or whose
    first statement assigns or passes one literal and which defines no function (rustdoc's
    ``crates.js``)."""
    name = path.name.lower().removesuffix(".gz")
    if name.endswith(".json"):
        return True
    if not name.endswith(".js"):
        return False
    if "search" in name or "index" in name:
        return True
    data = path.read_bytes()
    text = (gzip.decompress(data) if path.name.lower().endswith(".gz") else data)[:4096].decode("utf-8", "replace")
    code = "function" in text or "=>" in text  # an object of methods is a script, not data
    return not code and bool(_DATA_SCRIPT.match(text, _COMMENTS.match(text).end()))


def drop_search_files(folder: Path) -> list[str]:
    """Remove every search file (``is_search_file``) below ``folder``; returns their paths,
    relative to it. The zoo's bare copy of every family goes through this one rule."""
    dropped = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and is_search_file(path):
            dropped.append(path.relative_to(folder).as_posix())
            path.unlink()
    return dropped


def copy_without(folder: Path, target: Path, patterns: tuple[str, ...]) -> Path:
    """A copy of ``folder`` without the files whose path below it (or name) matches one of
    ``patterns`` (shell patterns: a family's index and listing pages)."""
    def ignored(directory: str, names: list[str]) -> list[str]:
        base = Path(directory).relative_to(folder).as_posix()
        rel = {name: (name if base == "." else f"{base}/{name}") for name in names}
        return [n for n in names if any(fnmatch.fnmatch(rel[n], p) or fnmatch.fnmatch(n, p) for p in patterns)]

    shutil.copytree(folder, target, ignore=ignored)
    return target


def keyed(entries):
    """The gold entries whose name has a key crossbook stores (a name of symbols alone,
    Haddock's ``!!`` or Racket's ``<=``, has none: left out, as Texinfo's ``$!``)."""
    return [e for e in entries if normalize_name(e[0])]


def committed_gold(family: str) -> list[list]:
    """The committed gold of a family whose package ships no list (``golds/<family>.json``):
    [name, kind, page, anchor] rows."""
    return json.loads((GOLDS / f"{family}.json").read_text(encoding="utf-8"))["entries"]


def write_committed_gold(family: str, rule: str, entries) -> Path:
    """Write a gold reader's output (rows of name, kind, page, anchor) to ``golds/<family>.json``."""
    GOLDS.mkdir(exist_ok=True)
    path = GOLDS / f"{family}.json"
    rows = ",\n".join(json.dumps(list(e), ensure_ascii=False) for e in sorted(set(map(tuple, entries))))
    path.write_text(f'{{"family": {json.dumps(family)},\n "rule": {json.dumps(rule, ensure_ascii=False)},\n'
                    f' "entries": [\n{rows}\n]}}\n', encoding="utf-8")
    return path
