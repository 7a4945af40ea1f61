"""`make eval`: the documentation zoo (bench/docs_zoo/README.md), every family's tune half and
check half, each twice: with the authors' inventories read (the product) and with them
ignored (the shelf built from a copy without its inventory files: the conventions alone).

    python -m bench.docs_zoo.eval_zoo [--zoo /work/zoo] [--family sphinx] [--half tune] [--misses]

A family the zoo does not hold is one line and skipped (``make zoo`` assembles it). Rules
extractor, no vectors.
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
from bench.docs_zoo import links, scorers
from bench.docs_zoo.families import DEFAULT_ZOO
from bench.docs_zoo.family_common import family_modules
from bench.eval_docs import ingest

HERE = Path(__file__).resolve().parent

MODULES = family_modules()
FAMILIES = {"sphinx": scorers.sphinx, "gtkdoc": scorers.devhelp, "man": scorers.name_lines,
            **{name: m.score for name, m in MODULES.items()}}
ORDER = ("sphinx", "gtkdoc", "man", "latex", *MODULES)
INVENTORY_FILES = ("objects.inv", "*.devhelp2")


def _without_inventory(folder: Path, work: Path, family: str) -> Path:
    target = work / f"{folder.parent.name}-{folder.name}-bare"
    module = MODULES.get(family)
    if hasattr(module, "bare_copy"):  # a family of its own module knows its inventory's files
        return module.bare_copy(folder, target)
    ignored = (*INVENTORY_FILES, *getattr(module, "INVENTORY_FILES", ()))
    shutil.copytree(folder, target, ignore=shutil.ignore_patterns(*ignored))
    return target


def _add(total: dict, part: dict) -> None:
    total["found"] = total.get("found", 0) + part["found"]
    total["total"] = total.get("total", 0) + part["total"]
    for kind, (hit, count) in part.get("by_kind", {}).items():
        known = total.setdefault("by_kind", {}).setdefault(kind, [0, 0])
        known[0] += hit
        known[1] += count
    total.setdefault("misses", []).extend(part["misses"][:3])
    total.setdefault("projects", []).append(part.get("project"))


def html_half(family: str, members: list[dict], work: Path, inventories: bool) -> dict:
    total: dict = {"seconds": 0.0, "per_project": {}}
    for member in members:
        folder = Path(member["path"])
        source = folder if inventories else _without_inventory(folder, work, family)
        index = work / f"index-{family}-{member['project']}-{int(inventories)}"
        total["seconds"] += ingest([source], index)
        db = sqlite3.connect(index / "crossbook.db")
        part = FAMILIES[family](member, db)
        _add_links(total, links.score(member, db))
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


def report_html(family: str, half: str, read: dict, bare: dict, misses: bool) -> None:
    if family == "man":  # a man page has no inventory beside it: its conventions are all there is
        print(f"  {half:5}  NAME line defined on its page: {ratio(read['found'], read['total'])}"
              f" (no inventory to ignore; {read['seconds'] + bare['seconds']:.0f} s)")
    else:
        print(f"  {half:5}  inventories read: {ratio(read['found'], read['total']):22}"
              f"  ignored: {ratio(bare['found'], bare['total']):22}  ({read['seconds'] + bare['seconds']:.0f} s)")
    widest, name = read["most_defined"]
    print(f"           authors' links to documented things found on their page: {ratio(*read['links'])};"
          f" most pages one name is defined on: {widest} ({name})")
    for project, (found, count) in read["per_project"].items():
        plain = bare["per_project"][project]
        print(f"           {project:12} read {ratio(found, count):22} ignored {ratio(*plain)}")
    for kind, (found, count) in sorted(read.get("by_kind", {}).items()):
        print(f"           {kind:12} read {ratio(found, count):22} ignored {ratio(*bare['by_kind'].get(kind, (0, 0)))}")
    if misses:
        for miss in read["misses"][:12]:
            print(f"           miss: {miss}")
        for miss in read["link_misses"][:8]:
            print(f"           link missed: {miss}")


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
                else:
                    read = html_half(family, part, work, True)
                    bare = read if family == "man" else html_half(family, part, work, False)
                    report_html(family, half, read, bare, args.misses)
                report_failures(f"zoo {family} {half}")
    print(f"\ndocs zoo: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
