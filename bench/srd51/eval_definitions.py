"""Definitions and types on the 5.1 SRD shelf, against gold read from the source Markdown's
structure (not from crossbook's output).

The gold, from the Markdown of ``corpora/srd51/markdown`` alone:
- **listed kinds**: the classes are the top-level (setext) headings of the classes file, the
  skills the list items under its "Skills" heading in the mechanics file, the conditions the
  headings under the conditions appendix's title;
- **catalog entries**: the spells under "Spell Descriptions", the magic items under "Magic
  Items A-Z", every heading whose section holds a stat block ("**Armor Class**"), the feats,
  and the listed kinds above;
- **source names** of each book: its headings, its bold leads (``***Name.***``, ``**Name:**``,
  ``<strong>Name</strong>:``), its list items' plain leads (``- Name: text``) and its tables'
  first-column cells.

Printed figures:
- definitions recall: catalog entries defined on the shelf (any type);
- reference recall: a catalog entry written as such (its exact capitalisation, a whole word,
  not a word of a longer capitalised name) in a section of another book, found there as a
  reference (or a definition);
- definitions precision, the fair count: defined names (per book) that are a source name of
  that book, less what the source's structure says is no entry: a heading or a colon lead
  repeated three or more times in a book (a label), a lead opening or closing with "Example" or "Note",
  a lead whose sentence calls it a table's column ("the Stealth column"), a name the book writes in a table's later column (a value of a column:
  a size, a school), a lead or heading opening with an imperative of a procedure ("Choose",
  "Roll"), an all-capitals abbreviation, a fragment of a heading that joins names with "and";
- types: each listed class, skill and condition defined with its kind and never also as
  ``other``.

    python -m bench.srd51.eval_definitions [--index DIR] [--misses]
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import tempfile
from collections import defaultdict
from pathlib import Path

from bench.common.rule_failures import report as report_failures
from bench.srd51.source_gold import clean, headings, sections, source_names
from crossbook.core.models import SUB_ENTRY_SEPARATOR
from crossbook.core.normalize import normalize_name

ROOT = Path(__file__).resolve().parent.parent.parent


def shelf() -> Path:
    for candidate in (ROOT / "corpora" / "srd51" / "markdown", ROOT.parent / "shared" / "corpora" / "srd51" / "markdown",
                      Path("/work/shared/corpora/srd51/markdown")):
        if candidate.is_dir():
            return candidate
    raise SystemExit("srd51 shelf not found; skipped")


def gold(root: Path) -> dict:
    kinds: dict[str, str] = {}
    entries: set[str] = set()
    files = {path.stem: path.read_text(encoding="utf-8") for path in sorted(root.glob("*.md"))}
    names, rejects = source_names(files)
    # the listed kinds
    for level, name, _ in headings(files["02 classes"]):
        if level == 1:
            kinds[normalize_name(name)] = "class"
    for path, body in sections(files["06 mechanics"]):
        if len(path) >= 2 and path[-2] == "Skills":
            for item in re.findall(r"(?m)^\s*[-*]\s+(.+?)\s*$", body):
                kinds[normalize_name(clean(item))] = "skill"
    for level, name, _ in headings(files["12 conditions"]):
        if level > 1:
            kinds[normalize_name(name)] = "condition"
    entries.update(kinds)
    for stem, text in files.items():
        for path, body in sections(text):
            under = set(path[:-1])
            if "Spell Descriptions" in under and len(path) >= 2 and path[-2] == "Spell Descriptions" \
                    or any(h.startswith("Magic Items A") for h in path[:-1]) and len(path) >= 2 \
                    and path[-2].startswith("Magic Items A") \
                    or "**Armor Class**" in body or stem == "05 feats" and len(path) > 1:
                entries.add(normalize_name(path[-1]))
    entries.discard("")
    return {"kinds": kinds, "entries": entries, "names": names, "rejects": rejects, "files": files}


def open_index(index: str | None) -> sqlite3.Connection:
    if index:
        return sqlite3.connect(Path(index) / "crossbook.db")
    from crossbook.core.config import load_settings
    from crossbook.ingest.pipeline import IngestJob, ingest_paths
    from crossbook.storage.db import open_db

    directory = Path(tempfile.mkdtemp(prefix="crossbook-srd51-defs-"))
    job = IngestJob(open_db(directory, create=True), load_settings({"index_dir": directory}, {}, None))
    ingest_paths(job, [shelf()])
    return sqlite3.connect(directory / "crossbook.db")


def definitions(conn: sqlite3.Connection) -> tuple[dict[str, set[str]], set[tuple[str, str]]]:
    """(normalized name -> the entity types it is defined as, {(book file stem, normalized
    name defined there)}) of an index; a sub-entry ("Aboleth › Tentacle") by its own part."""
    stems = {title: Path(path).stem for title, path in conn.execute("SELECT title, path FROM books")}
    defined: dict[str, set[str]] = defaultdict(set)
    per_book: set[tuple[str, str]] = set()
    for normalized, etype, book, name in conn.execute(
            "SELECT e.normalized, e.entity_type, m.book, m.name FROM entity_mentions m"
            " JOIN entities e ON e.id = m.entity_id WHERE m.mention_type = 'defines'"):
        defined[normalized].add(etype)
        per_book.add((stems[book], normalize_name(name.rpartition(SUB_ENTRY_SEPARATOR)[2])))
    return defined, per_book


def scores(conn: sqlite3.Connection, g: dict) -> dict:
    stems = {title: Path(path).stem for title, path in conn.execute("SELECT title, path FROM books")}
    defined, per_book = definitions(conn)
    right = [(s, n) for s, n in per_book if n in g["names"][s] and n not in g["rejects"][s]]
    wrong = sorted(per_book - set(right))
    found_entries = {e for e in g["entries"] if e in defined}
    typed = {n: k for n, k in g["kinds"].items() if k in defined.get(n, ()) and "other" not in defined[n]}
    ref_total, ref_found = reference_recall(conn, g, stems)
    by_kind = defaultdict(lambda: [0, 0])
    for n, k in g["kinds"].items():
        by_kind[k][1] += 1
        by_kind[k][0] += n in typed
    return {"precision": len(right) / max(1, len(per_book)), "right": len(right), "found": len(per_book),
            "recall": len(found_entries) / max(1, len(g["entries"])), "entries": len(g["entries"]),
            "entries_found": len(found_entries), "ref_recall": ref_found / max(1, ref_total),
            "ref_found": ref_found, "ref_total": ref_total, "typed": len(typed), "kinds": len(g["kinds"]),
            "by_kind": dict(by_kind), "wrong": wrong,
            "mistyped": {n: sorted(defined.get(n, ())) for n in g["kinds"] if n not in typed},
            "missed": sorted(set(g["entries"]) - found_entries)}


def _whole_name(text: str, found: re.Match) -> bool:
    """Not a word of a longer capitalised name ("Mage" in "Mage Hand", "Priest" in "Priest's
    Pack", "Spider" in "Spider Climb"), which names something else."""
    before, after = text[:found.start()], text[found.end():]
    return not (re.search(r"[A-Z][\w’']* $", before) or re.match(r"(?:[’']s)? [A-Z]", after))


def reference_recall(conn: sqlite3.Connection, g: dict, stems: dict[str, str]) -> tuple[int, int]:
    """Catalog entries written (exact case, whole word) in another book's sections: found there?"""
    written = {}
    for stem, text in g["files"].items():
        for level, name, _ in headings(text):
            if normalize_name(name) in g["entries"] and len(name) > 3:
                written.setdefault(normalize_name(name), name)
    pattern = {k: re.compile(rf"(?<![\w-]){re.escape(v)}(?![\w-])") for k, v in written.items()}
    home = defaultdict(set)
    for normalized, book in conn.execute("SELECT normalized, book FROM entity_mentions WHERE mention_type = 'defines'"):
        home[normalized].add(book)
    mentioned = set(conn.execute("SELECT chunk_id, normalized FROM entity_mentions"))
    total = found = 0
    for chunk_id, book, text in conn.execute("SELECT id, book, text FROM chunks WHERE kind = 'parent'"):
        body = text.split("\n", 1)[1] if "\n" in text else ""
        for key, pat in pattern.items():
            if book not in home.get(key, {book}) and any(_whole_name(body, m) for m in pat.finditer(body)):
                total += 1
                found += (chunk_id, key) in mentioned
    return total, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", help="an index built from the shelf (default: ingest it now)")
    parser.add_argument("--misses", action="store_true", help="list the wrong, the missed and the mistyped")
    args = parser.parse_args()
    s = scores(open_index(args.index), gold(shelf()))
    report_failures("srd51")
    print("srd51 definitions and types, gold from the source Markdown (bench/srd51/eval_definitions.py)")
    print(f"  definitions precision (fair count): {s['right']}/{s['found']} = {s['precision']:.3f}")
    print(f"  definitions recall (catalog entries): {s['entries_found']}/{s['entries']} = {s['recall']:.3f}")
    print(f"  reference recall:                   {s['ref_found']}/{s['ref_total']} = {s['ref_recall']:.3f}")
    print(f"  listed kinds typed so:              {s['typed']}/{s['kinds']} = {s['typed'] / max(1, s['kinds']):.3f}  "
          + ", ".join(f"{k} {a}/{b}" for k, (a, b) in sorted(s["by_kind"].items())))
    if args.misses:
        print("mistyped:", s["mistyped"])
        print("missed:", s["missed"][:80])
        print("wrong:", [f"{b}:{n}" for b, n in s["wrong"]])


if __name__ == "__main__":
    main()
