"""`make eval`: the documentation zoo (bench/docs_zoo/README.md), every family's tune half and
check half, each twice: with the authors' inventories read (the product) and with them
ignored (the shelf built from a copy without its inventory files and without any search file
(``family_common.is_search_file``): the conventions alone); a family whose module names its
index pages (``INDEX_PAGES``) a third time, ignored and without those pages (a doc set's
anchors, headings and links alone). A family with no inventory at all is read once. Then the
lookups (``lookups.py``) on the check members' shelves, inventories read.

    python -m bench.docs_zoo.eval_zoo [--zoo /work/zoo] [--family sphinx] [--half tune] [--misses]

A family the zoo does not hold is one line and skipped (``make zoo`` assembles it). Rules
extractor, no vectors. Besides the gold found: the stored definitions (each entity defined on
a page, once) divided by the gold's count, and the authors' links to documented things found.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

from bench.common.rule_failures import report as report_failures
from bench.docs_zoo import links, lookups, scorers
from bench.docs_zoo.families import DEFAULT_ZOO
from bench.docs_zoo.family_common import copy_without, drop_search_files, family_modules, gold_anchors, is_search_file
from bench.eval_docs import ingest

HERE = Path(__file__).resolve().parent

MODULES = family_modules()
FAMILIES = {"sphinx": scorers.sphinx, "gtkdoc": scorers.devhelp, "man": scorers.name_lines,
            **{name: m.score for name, m in MODULES.items()}}
ORDER = ("sphinx", "gtkdoc", "man", "latex", *MODULES)
INVENTORY_FILES = ("objects.inv", "*.devhelp2")
MODES = ("read", "ignored", "no-index")  # inventories read; ignored; ignored and no index pages


def _without_inventory(folder: Path, work: Path, family: str) -> Path:
    target = work / f"{folder.parent.name}-{folder.name}-bare"
    if target.exists():  # made for the copy without inventories, again for the one without index pages
        return target
    module = MODULES.get(family)
    if hasattr(module, "bare_copy"):  # a family of its own module knows its inventory's files
        module.bare_copy(folder, target)
    else:
        ignored = (*INVENTORY_FILES, *getattr(module, "INVENTORY_FILES", ()))
        shutil.copytree(folder, target, ignore=shutil.ignore_patterns(*ignored))
    drop_search_files(target)  # every family's search indexes and data files go, by one rule
    return target


def index_pages(family: str, member: dict) -> tuple[str, ...]:
    """The patterns of a member's index and listing pages (its own, else its module's)."""
    return tuple(member.get("index_pages") or getattr(MODULES.get(family), "INDEX_PAGES", ()))


def has_inventory(family: str, member: dict) -> bool:
    """Whether ignoring inventories changes the member's copy: an inventory its family
    names, or a search file beside its pages."""
    module = MODULES.get(family)
    if family in ("sphinx", "gtkdoc") or hasattr(module, "bare_copy") or getattr(module, "INVENTORY_FILES", ()):
        return True
    return any(is_search_file(p) for p in Path(member["path"]).rglob("*") if p.is_file())


def modes(family: str, members: list[dict]) -> list[str]:
    """The copies a family's half is scored on (``MODES``)."""
    out = ["read"]
    if family != "man" and any(has_inventory(family, m) for m in members):
        out.append("ignored")
    if any(index_pages(family, m) for m in members):
        out.append("no-index")
    return out


def _copy(member: dict, work: Path, family: str, mode: str) -> Path:
    folder = Path(member["path"])
    if mode == "read":
        return folder
    bare = _without_inventory(folder, work, family)
    if mode == "ignored":
        return bare
    return copy_without(bare, work / f"{bare.name}-noindex", index_pages(family, member))


def stored_definitions(db: sqlite3.Connection) -> int:
    """Each entity defined on a page, once: what the shelf stores as documented things."""
    return db.execute("SELECT count(*) FROM (SELECT DISTINCT m.entity_id, c.source_file FROM entity_mentions m"
                      " JOIN chunks c ON c.id = m.chunk_id WHERE m.mention_type = 'defines')").fetchone()[0]


def _add(total: dict, part: dict) -> None:
    total["found"] = total.get("found", 0) + part["found"]
    total["total"] = total.get("total", 0) + part["total"]
    for kind, (hit, count) in part.get("by_kind", {}).items():
        known = total.setdefault("by_kind", {}).setdefault(kind, [0, 0])
        known[0] += hit
        known[1] += count
    total.setdefault("misses", []).extend(part["misses"][:3])
    total.setdefault("projects", []).append(part.get("project"))


def html_half(family: str, members: list[dict], work: Path, mode: str) -> dict:
    total: dict = {"seconds": 0.0, "per_project": {}, "definitions": 0, "indexes": {}}
    module = MODULES.get(family)
    for member in members:
        source = _copy(member, work, family, mode)
        index = work / f"index-{family}-{member['project']}-{mode}"
        total["seconds"] += ingest([source], index, relations=getattr(module, "RELATIONS", None))
        total["indexes"][member["project"]] = index
        db = sqlite3.connect(index / "crossbook.db")
        part = FAMILIES[family](member, db)
        total["definitions"] += stored_definitions(db)
        anchored = gold_anchors(module.member_gold(member)) if hasattr(module, "member_gold") else None
        _add_links(total, links.score(member, db, anchored))
        db.close()
        part["project"] = member["project"]
        total["per_project"][member["project"]] = (part["found"], part["total"])
        _add(total, part)
    return total


def _add_links(total: dict, part: dict) -> None:
    """The authors' links to documented things (bench/docs_zoo/links.py), summed over members;
    the widest-defined name, the widest of them."""
    found, count = total.get("links", (0, 0))
    total["links"] = (found + part["found"], count + part["total"])
    total.setdefault("link_misses", []).extend(part["misses"][:2])
    total["most_defined"] = max(total.get("most_defined", (0, "")), part["most_defined"])


def latex_half(members: list[dict], work: Path, half: str) -> dict:
    index = work / f"index-latex-{half}"
    # relations off: spaCy's relation pass (half the time) writes claims, never the entities scored
    seconds = ingest([Path(m["path"]) for m in members], index, as_book=False, relations="off")
    db = sqlite3.connect(index / "crossbook.db")
    result = scorers.back_indexes(members, db)
    db.close()
    result["seconds"] = seconds
    return result


def ratio(found: int, total: int) -> str:
    return f"{found}/{total} = {found / total:.3f}" if total else "-"


LABELS = {"read": "inventories read", "ignored": "ignored", "no-index": "ignored, no index pages"}


def _per_mode(results: dict, pair) -> str:
    return "  ".join(f"{mode} {ratio(*pair(result))}" for mode, result in results.items())


def report_html(family: str, half: str, results: dict, misses: bool) -> None:
    """One half's figures, per copy scored (``MODES``): the gold found, stored definitions per
    gold entry, the authors' links found; per project and per kind below."""
    read = results["read"]
    seconds = sum(r["seconds"] for r in results.values())
    if family == "man":  # a man page has no inventory beside it: its conventions are all there is
        print(f"  {half:5}  NAME line defined on its page: {ratio(read['found'], read['total'])}"
              f" (no inventory to ignore; {seconds:.0f} s)")
    else:
        shown = [f"{LABELS[mode]}: {ratio(r['found'], r['total'])}" for mode, r in results.items()]
        if "ignored" not in results:
            shown.insert(1, "ignored: the same (no inventory)")
        print(f"  {half:5}  " + "   ".join(shown) + f"  ({seconds:.0f} s)")
    print("           stored definitions / gold: " + ", ".join(
        f"{mode} {r['definitions']}/{r['total']} = {r['definitions'] / max(r['total'], 1):.2f}" for mode, r in results.items()))
    if read["links"][1]:
        print(f"           authors' links to documented things found on their page: {_per_mode(results, lambda r: r['links'])}")
    widest, name = read["most_defined"]
    print(f"           most pages one name is defined on (read): {widest} ({name})")
    for project in read["per_project"]:
        print(f"           {project:16} {_per_mode(results, lambda r: r['per_project'][project])}")
    for kind in sorted(read.get("by_kind", {})):
        print(f"           {kind:16} {_per_mode(results, lambda r: r.get('by_kind', {}).get(kind, (0, 0)))}")
    if misses:
        for mode, result in results.items():
            for miss in result["misses"][:12]:
                print(f"           miss ({mode}): {miss}")
            for miss in result["link_misses"][:8]:
                print(f"           link missed ({mode}): {miss}")


def report_latex(half: str, result: dict, misses: bool) -> None:
    books = result["books"]
    low = min((f / t for f, _, t in books.values() if t), default=0)
    print(f"  {half:5}  index entries found: {ratio(result['found'], result['total'])}, on a listed page:"
          f" {ratio(result['placed'], result['placed_total'])}; lowest manual found {low:.3f}"
          f" ({len(books)} manuals, {result['seconds']:.0f} s); ignored: not separable (the index is the text's own)")
    for book, (found, placed, count) in sorted(books.items(), key=lambda kv: kv[1][0] / max(kv[1][2], 1)):
        if found / max(count, 1) < 0.9 or misses:
            where = "code lines" if placed is None else f"on a listed page {placed}/{count}"
            print(f"           {book}: found {found}/{count}, {where}")
    if misses:
        for miss in result["misses"]:
            print(f"           miss: {miss}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--zoo", type=Path, default=DEFAULT_ZOO)
    parser.add_argument("--family", action="append", choices=ORDER)
    parser.add_argument("--half", choices=("tune", "check"), action="append")
    parser.add_argument("--misses", action="store_true", help="print missed gold entries")
    parser.add_argument("--member", action="append", help="only the members (projects) of these names")
    args = parser.parse_args()
    manifest = args.zoo / "zoo.json"
    if not manifest.is_file():
        print(f"docs zoo: not assembled at {args.zoo} (make zoo), skipped")
        return
    members = json.loads(manifest.read_text(encoding="utf-8"))["members"]
    started = time.perf_counter()
    built: dict[tuple[str, str], Path] = {}  # (family, project) -> its check member's shelf, inventories read
    with tempfile.TemporaryDirectory(prefix="crossbook-zoo-") as tmp:
        work = Path(tmp)
        for family in args.family or ORDER:
            own = [m for m in members if m["family"] == family and Path(m["path"]).exists()
                   and (not args.member or m["project"] in args.member)]
            if not own:
                print(f"\n{family}: not in the zoo (make zoo), skipped")
                continue
            print(f"\n{family}: {len(own)} members")
            for half in args.half or ("tune", "check"):
                part = [m for m in own if m["half"] == half]
                if not part:
                    continue
                if family == "latex":
                    report_latex(half, latex_half(part, work, half), args.misses)
                    report_failures(f"zoo {family} {half}")
                    continue
                results = {mode: html_half(family, part, work, mode) for mode in modes(family, part)}
                if half == "check":
                    built.update({(family, p): i for p, i in results["read"]["indexes"].items()})
                report_html(family, half, results, args.misses)
                report_failures(f"zoo {family} {half}")
        if lookups.LOOKUPS.is_file() and built:
            drawn = json.loads(lookups.LOOKUPS.read_text(encoding="utf-8"))["lookups"]
            lookups.report(lookups.score(drawn, lambda family, project: built.get((family, project))), args.misses)
    print(f"\ndocs zoo: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
