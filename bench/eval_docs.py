"""`make eval`: documentation shelves, each ingested as one doc set (index/readers/docset.py).

Shelves (installed by the system, not in the repository; one line and skipped when absent):

- python: ``--pages`` pages of the Python 3.11 HTML documentation's ``library/`` (Sphinx;
  ``apt-get install python3.11-doc``), copied with its ``objects.inv``. Gold: the inventory
  (zlib lines "name domain:role priority uri dispname"): every ``py:*`` and ``std:cmdoption``
  entry of those pages.
- manpages: ``--pages`` git man pages rendered with ``pandoc -f man -t html`` (one page per
  command), where an author's cross-reference (``**git-add**(1)``) is made the link the HTML
  manual has (``<a href="git-add.html">``) when that page is in the set.
- latex: LaTeX package manuals (PDF; ``apt-get install texlive-latex-recommended-doc``), a book
  each. Gold: each manual's back index as ``pdftotext`` reads it (commands, and the entries
  annotated as an option, package or environment, with their pages).

Figures, as the documentation issue asks them:
- back-index entries found as entities of their manual, and mentioned in a section whose
  pages include a page the index lists (latex);
- inventory entries found as entities defined on the page the inventory lists (python);
- each page defines its subject (python: the page's module; manpages: the command);
- the authors' links between pages found as references (the linking page's chunks reference
  an entity defined on the linked page);
- structure labels among the stored definitions (Name, Synopsis, Options, ...) <= 2%;
- one- and two-character entities defined by anything but the pages' own markup.
``--sample N`` prints a seeded sample of stored definitions to read by hand; labels live in
bench/hand_labels/docs-<shelf>-defs.json (key: book, heading path, name) and are scored.

    python -m bench.eval_docs [--pages 40] [--sample 50] [--shelf python|manpages|all]
"""

from __future__ import annotations

import argparse
import gzip
import json
import posixpath
import random
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time
import zlib
from pathlib import Path

from bench.common.rule_failures import report as report_failures
from crossbook.core.config import load_settings
from crossbook.core.normalize import normalize_name
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db

ROOT = Path(__file__).resolve().parent.parent

PYDOCS = Path("/usr/share/doc/python3.11/html")
MAN1 = Path("/usr/share/man/man1")
LATEX = Path("/usr/share/doc/texlive-doc/latex")
LATEX_MANUALS = ("xcolor/xcolor.pdf", "microtype/microtype.pdf", "caption/caption.pdf", "etoolbox/etoolbox.pdf",
                 "mathtools/mathtools.pdf", "listings/listings.pdf", "fancyvrb/fancyvrb-doc.pdf")
LABELS = ROOT / "bench" / "hand_labels"
STRUCTURE_LABELS = {normalize_name(n) for n in (
    "Name", "Synopsis", "Description", "Options", "See Also", "Examples", "Example", "Files", "Environment",
    "Bugs", "Author", "Authors", "Contents", "Index", "Bibliography", "Changes", "Notes", "Exit Status",
    "Return Value", "Discussion", "Configuration", "Git", "Reporting Bugs")}
PY_ROLES = ("py:function", "py:class", "py:method", "py:module", "py:exception", "py:attribute", "py:data",
            "py:classmethod", "py:staticmethod", "py:decorator", "std:cmdoption")


def inventory(path: Path) -> list[tuple[str, str, str]]:
    """(name, domain:role, page) of a Sphinx objects.inv (anchors dropped)."""
    data = path.read_bytes()
    body = data.split(b"\n", 4)[4]
    out = []
    for line in zlib.decompress(body).decode("utf-8").splitlines():
        match = re.match(r"(.+?)\s+(\S+:\S+)\s+(-?\d+)\s+(\S*)\s+(.*)", line)
        if match:
            name, role, _, uri, _ = match.groups()
            uri = uri.replace("$", name)
            out.append((name, role, uri.partition("#")[0]))
    return out


def python_shelf(work: Path, pages: int) -> Path | None:
    if not (PYDOCS / "objects.inv").is_file():
        return None
    folder = work / "python-library"
    (folder / "library").mkdir(parents=True)
    shutil.copy(PYDOCS / "objects.inv", folder / "objects.inv")
    chosen = sorted((PYDOCS / "library").glob("*.html"))
    step = max(1, len(chosen) // pages)
    for page in chosen[::step][:pages]:
        shutil.copy(page, folder / "library" / page.name)
    return folder


def man_shelf(work: Path, pages: int) -> Path | None:
    sources = sorted(MAN1.glob("git-*.1.gz"))[:pages] if MAN1.is_dir() else []
    if not sources or shutil.which("pandoc") is None:
        return None
    folder = work / "manpages"
    folder.mkdir(parents=True)
    names = {p.name[:-len(".1.gz")] for p in sources}
    for source in sources:
        html = subprocess.run(["pandoc", "-f", "man", "-t", "html"], input=gzip.decompress(source.read_bytes()),
                              capture_output=True, check=True).stdout.decode("utf-8")

        def link(match: re.Match) -> str:
            return f'<a href="{match.group(1)}.html">{match.group(0)}</a>' if match.group(1) in names else match.group(0)

        html = re.sub(r"<strong>([\w.-]+)</strong>\(\d\)", link, html)
        (folder / f"{source.name[:-len('.1.gz')]}.html").write_text(html, encoding="utf-8")
    return folder


def latex_shelf(work: Path, pages: int) -> list[Path] | None:
    found = [LATEX / name for name in LATEX_MANUALS if (LATEX / name).is_file()]
    return found if found and shutil.which("pdftotext") else None


def ingest(paths: list[Path], index: Path, as_book: bool = True, relations: str | None = None) -> float:
    """Seconds to ingest ``paths`` into ``index`` (rules extractor; ``relations`` the mode, None the default)."""
    settings = load_settings({"index_dir": index, "relations": relations}, {}, None)
    db = open_db(index, create=True)
    started = time.perf_counter()
    ingest_paths(IngestJob(db, settings), paths, as_book=as_book)
    db.close()
    return time.perf_counter() - started


# an index entry as pdftotext reads a back index: "\colorlet . . . 12", "draft (option) . . 34, 51"
_GOLD_ENTRY = re.compile(r"(\\[A-Za-z@]+\*?|[A-Za-z][\w@.-]*\*?)(?: \((option|package|environment|env\.)\))?"
                         r" (?:\. ?){2,}\s*(\d[\d, –-]*)")


def index_gold(pdf: Path) -> list[tuple[str, str, set[int]]]:
    """(name, annotation, pages) of a manual's back-index entries that name a command (a
    backslash) or an annotated option, package or environment: read with pdftotext from the
    back index's heading on, independently of crossbook's reader."""
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, check=True).stdout.decode("utf-8", "replace")
    starts = [m.start() for m in re.finditer(r"(?m)^\f?\s*(?:INDEX|Index)\s*$", text)]
    if not starts:
        return []
    # the back index starts at its first heading in the book's last part (its pages repeat
    # "INDEX" as a running head)
    at = next((a for a in starts if a > 0.6 * len(text)), starts[-1])
    out = []
    for name, annotation, numbers in _GOLD_ENTRY.findall(text[at:]):
        if not (name.startswith("\\") or annotation):
            continue
        pages = set()
        for part in re.split(r",\s*", numbers.strip(" ,")):
            bounds = [int(n) for n in re.findall(r"\d+", part)]
            if bounds:
                pages.update(range(bounds[0], bounds[-1] + 1))
        out.append((name, annotation, pages))
    return out


def score_latex(pdfs: list[Path], index: Path, seconds: float, sample: int) -> dict:
    db = sqlite3.connect(index / "crossbook.db")
    result: dict = {"shelf": "latex", "pages": len(pdfs), "ingest_seconds": round(seconds, 1),
                    "definitions": db.execute("SELECT count(*) FROM entity_mentions WHERE mention_type = 'defines'"
                                              ).fetchone()[0],
                    "entities": db.execute("SELECT count(*) FROM entities").fetchone()[0], "books": {}}
    titles = {Path(p).name: t for t, p in db.execute("SELECT title, path FROM books")}
    found_total = placed_total = gold_total = 0
    for pdf in pdfs:
        book = titles.get(pdf.name)
        gold = index_gold(pdf)
        if book is None or not gold:
            continue
        rows = db.execute(
            "SELECT e.normalized, c.page_start, c.page_end FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
            " JOIN chunks c ON c.id = m.chunk_id WHERE m.book = ?", [book]).fetchall()
        keys: dict[str, list[tuple[int, int]]] = {}
        for key, start, end in rows:
            keys.setdefault(key, []).append((start or 0, end or 0))
        found = placed = 0
        for name, _, pages in gold:
            spans = keys.get(normalize_name(name), [])
            found += bool(spans)
            placed += any(lo <= p <= hi for lo, hi in spans for p in pages)
        result["books"][book] = (found, placed, len(gold))
        found_total, placed_total, gold_total = found_total + found, placed_total + placed, gold_total + len(gold)
    result["index_found"] = (found_total, gold_total)
    result["index_placed"] = (placed_total, gold_total)
    defs = definitions(db)
    labels = [d for d in defs if normalize_name(d[1]) in STRUCTURE_LABELS and d[3] != "deflist"]
    result["label_definitions"] = (len(labels), len(defs), sorted({d[1] for d in labels})[:10])
    result["short_entities_not_marked"] = sorted({d[1] for d in defs if len(d[1].strip()) <= 2
                                                  and d[3] not in ("note", "deflist")})
    result["hand"] = hand("latex", defs, sample)
    db.close()
    return result


def definitions(db: sqlite3.Connection) -> list[tuple]:
    return db.execute(
        "SELECT m.name, e.name, e.entity_type, m.source, c.source_file, c.heading_path, m.book, m.context"
        " FROM entity_mentions m JOIN entities e ON e.id = m.entity_id JOIN chunks c ON c.id = m.chunk_id"
        " WHERE m.mention_type = 'defines'").fetchall()


def names_by_page(db: sqlite3.Connection) -> dict[str, set[str]]:
    """page -> the normalized names (and aliases) of the entities its chunks define."""
    out: dict[str, set[str]] = {}
    for name, entity, _, _, page, _, _, _ in definitions(db):
        out.setdefault(page, set()).update({normalize_name(name), normalize_name(entity)})
    for alias, page in db.execute(
            "SELECT a.alias, c.source_file FROM entity_aliases a JOIN chunks c ON c.id = a.chunk_id"):
        out.setdefault(page, set()).add(normalize_name(alias))
    return out


def link_pairs(folder: Path) -> set[tuple[str, str]]:
    """(linking page, linked page) of the authors' links between two pages of the set: the
    links in the page's content (``role="main"``, else ``<main>``, else the body), not its
    navigation bars."""
    from lxml import html as lxml_html

    pages = {p.relative_to(folder).as_posix() for p in folder.rglob("*.html")}
    pairs = set()
    for page in pages:
        root = lxml_html.fromstring((folder / page).read_bytes())
        main = root.xpath('//*[@role="main"]') or root.xpath("//main") or root.xpath("//body") or [root]
        for href in main[0].xpath(".//a/@href"):
            address = href.partition("#")[0]
            if not address.endswith(".html") or ":" in address:
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(page), address))
            if target in pages and target != page:
                pairs.add((page, target))
    return pairs


def found_links(db: sqlite3.Connection) -> set[tuple[str, str]]:
    defined_on: dict[int, set[str]] = {}
    for entity, page in db.execute(
            "SELECT m.entity_id, c.source_file FROM entity_mentions m JOIN chunks c ON c.id = m.chunk_id"
            " WHERE m.mention_type = 'defines'"):
        defined_on.setdefault(entity, set()).add(page)
    pairs = set()
    for entity, page in db.execute(
            "SELECT m.entity_id, c.source_file FROM entity_mentions m JOIN chunks c ON c.id = m.chunk_id"
            " WHERE m.mention_type = 'references'"):
        for target in defined_on.get(entity, ()):
            pairs.add((page, target))
    return pairs


def score(shelf: str, folder: Path, index: Path, seconds: float, sample: int) -> dict:
    db = sqlite3.connect(index / "crossbook.db")
    defs = definitions(db)
    pages = sorted({p.relative_to(folder).as_posix() for p in folder.rglob("*.html")})
    by_page = names_by_page(db)
    result: dict = {"shelf": shelf, "pages": len(pages), "ingest_seconds": round(seconds, 1),
                    "definitions": len(defs), "entities": db.execute("SELECT count(*) FROM entities").fetchone()[0]}
    subjects = {p: _subject(shelf, folder, p) for p in pages}
    hit = [p for p in pages if subjects[p] and normalize_name(subjects[p]) in by_page.get(p, set())]
    result["page_defines_subject"] = (len(hit), sum(1 for p in pages if subjects[p]))
    gold_links = link_pairs(folder)
    found = found_links(db) & gold_links
    result["links_as_references"] = (len(found), len(gold_links))
    # a section label stored as a definition (a typed entry of a definition list named "name"
    # is an attribute the page documents, not a label)
    labels = [d for d in defs if normalize_name(d[1]) in STRUCTURE_LABELS and d[3] != "deflist"]
    result["label_definitions"] = (len(labels), len(defs), sorted({d[1] for d in labels})[:10])
    pages_of: dict[str, set[str]] = {}
    for d in defs:
        pages_of.setdefault(d[1], set()).add(d[4])
    widest = max(pages_of.items(), key=lambda item: len(item[1]), default=("", set()))
    result["widest_definition"] = (widest[0], len(widest[1]))
    short = sorted({d[1] for d in defs if len(d[1].strip()) <= 2 and d[3] not in ("note", "deflist")})
    result["short_entities_not_marked"] = short
    if shelf == "python":
        gold = [(n, r, p) for n, r, p in inventory(folder / "objects.inv") if r in PY_ROLES and p in pages]
        ok = sum(1 for n, _, p in gold if normalize_name(n) in by_page.get(p, set())
                 or normalize_name(n.rsplit(".", 1)[-1]) in by_page.get(p, set()))
        result["inventory_found"] = (ok, len(gold))
    result["hand"] = hand(shelf, defs, sample)
    db.close()
    return result


def _subject(shelf: str, folder: Path, page: str) -> str | None:
    if shelf == "manpages":
        return Path(page).stem
    text = (folder / page).read_text(encoding="utf-8", errors="replace")
    match = re.search(r'<span id="module-([\w.]+)"|id="module-([\w.]+)"', text)
    return (match.group(1) or match.group(2)) if match else None


def hand(shelf: str, defs: list[tuple], sample: int) -> dict:
    """Score saved verdicts on the stored definitions; print a seeded sample to read."""
    path = LABELS / f"docs-{shelf}-defs.json"
    stored = {(d[6], d[5], d[1]): d for d in defs}
    # a verdict on an option's definition holds for it as its page's sub-entry ("git-add › --all")
    for d in defs:
        stored.setdefault((d[6], d[5], d[1].rpartition(" › ")[2]), d)
    labels = json.loads(path.read_text(encoding="utf-8"))["items"] if path.is_file() else []
    read = [item for item in labels if tuple(item["key"]) in stored]
    right = sum(1 for item in read if item["verdict"] == "right")
    if sample:
        keys = sorted(stored)
        random.Random(0).shuffle(keys)
        for key in keys[:sample]:
            d = stored[key]
            print(json.dumps({"key": list(key), "type": d[2], "source": d[3], "context": d[7][:160]},
                             ensure_ascii=False))
    return {"read": len(read), "right": right, "precision": round(right / len(read), 3) if read else None}


def ratio(pair) -> str:
    found, total = pair[0], pair[1]
    return f"{found}/{total} = {found / total:.3f}" if total else "-"


def report_latex(result: dict) -> None:
    print(f"\nlatex: {result['pages']} package manuals (PDF), a book each, rules extractor, no vectors "
          f"({result['ingest_seconds']} s); {result['definitions']} definitions, {result['entities']} entities")
    print(f"  back-index entries found as entities of their manual (>= 0.90): {ratio(result['index_found'])}")
    print(f"  ... mentioned in a section on a page the index lists (>= 0.80): {ratio(result['index_placed'])}")
    for book, (found, placed, total) in result["books"].items():
        print(f"    {book}: found {found}/{total}, on a listed page {placed}/{total}")
    found, total, names = result["label_definitions"]
    print(f"  structure labels among definitions (<= 0.02):                  {ratio((found, total))} {names}")
    print(f"  1-2 character entities no markup defined:                      "
          f"{result['short_entities_not_marked'] or 'none'}")
    hand_result = result["hand"]
    if hand_result["read"]:
        print(f"  definitions read by hand, right (>= 0.90):                     "
              f"{ratio((hand_result['right'], hand_result['read']))}")


def report(result: dict) -> None:
    if result["shelf"] == "latex":
        return report_latex(result)
    print(f"\n{result['shelf']}: {result['pages']} pages, one book, rules extractor, no vectors "
          f"({result['ingest_seconds']} s); {result['definitions']} definitions, {result['entities']} entities")
    if "inventory_found" in result:
        print(f"  inventory entries found as entities on their page (>= 0.90): {ratio(result['inventory_found'])}")
    print(f"  pages that define their subject (>= 0.95):               {ratio(result['page_defines_subject'])}")
    print(f"  authors' links found as references (>= 0.95):            {ratio(result['links_as_references'])}")
    found, total, names = result["label_definitions"]
    print(f"  structure labels among definitions (<= 0.02):            {ratio((found, total))} {names}")
    print(f"  1-2 character entities the pages' markup did not define: {result['short_entities_not_marked'] or 'none'}")
    name, spread = result["widest_definition"]
    print(f"  most pages one name is defined on (<= 10):               {spread} ({name})")
    hand_result = result["hand"]
    if hand_result["read"]:
        print(f"  definitions read by hand, right (>= 0.90):               "
              f"{ratio((hand_result['right'], hand_result['read']))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--sample", type=int, default=0, help="print a seeded sample of N stored definitions")
    parser.add_argument("--shelf", choices=("python", "manpages", "latex", "all"), default="all")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="crossbook-docs-") as tmp:
        work = Path(tmp)
        for shelf, build in (("python", python_shelf), ("manpages", man_shelf), ("latex", latex_shelf)):
            if args.shelf not in (shelf, "all"):
                continue
            found = build(work, args.pages)
            if found is None:
                print(f"{shelf}: documentation not installed here, skipped")
                continue
            index = work / f"index-{shelf}"
            if shelf == "latex":
                seconds = ingest(found, index, as_book=False)
                results.append(score_latex(found, index, seconds, args.sample))
            else:
                seconds = ingest([found], index)
                results.append(score(shelf, found, index, seconds, args.sample))
            report_failures(shelf)
    for result in results:
        print(json.dumps(result)) if args.json else report(result)


if __name__ == "__main__":
    main()
