"""`make eval`: how well ingest finds definitions, cross-book references, relationships and
titles, on sample_corpus/, the Fate SRD shelf (corpora/fate/) and the Ironsworn vault, side by side.

- sample: sample_corpus/ ingested from its manifest (its emberfall pack), as `make demo`
  does; scored with tests/gold.py against gold.json (by book, section, name and type) and
  against gold_relations.json (by book, section, source, target and type).
- fate: the 8 books ingested one by one with the default settings (rules extractor, generic
  pack, no vectors), scored against bench/fate/gold.json and gold_relations.json.

Names on the Fate shelf are compared fairly: index.normalize.normalize_name on both sides
plus a singular fold of the last word (bench/fate/names.py), a gold alias counts as the
entity's name, and a definition is matched by (book file, name); its section is only
reported. Relationships match by (book, source, target, type); precision counts only the
found edges whose two endpoints are gold entities, and is a lower bound (the relationship
gold is a recall set, not every relationship the books state): a seeded sample of 100
found edges is written with their evidence for checking by hand (--edges-out).

- ironsworn: the Obsidian vault, ingested as one book by the vault reader (bench/common/shelves.py). Scored against bench/ironsworn/gold.json when that file
  exists (by name; the vault's gold comes with the vault reader); without it, only the
  counts and the hand-read precision are printed.

Every shelf also gets its hand-read precision: the seeded sample of 100 stored definitions
and 100 stored edges that bench/hand_sample.py prints, scored with the verdicts saved in
bench/hand_labels/ (items of the sample not read yet are counted as unread, not as right).

    python -m bench.eval_extraction [--shelf fate|sample|ironsworn|all] [--json] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from bench.common.rule_failures import report as report_failures
from bench.common.scoring import Figure, compare, index_edges, prf
from bench.common.shelves import IRONSWORN_GOLD, ingest_ironsworn, ironsworn_notes
from bench.fate.fate_text import BOOKS as FATE_BOOKS
from bench.fate.fate_text import CORPUS as FATE_CORPUS
from bench.fate.score import score_fate
from bench.hand_sample import definitions as stored_definitions
from bench.hand_sample import score as hand_score
from bench.rule_ablation import (
    hand_by_rule,
    kept_books,
    linker_off,
    print_linker_rules,
    print_rules,
    rule_counts,
    switched_off,
)
from crossbook.core.config import load_settings
from crossbook.core.errors import CrossbookError
from crossbook.core.normalize import normalize_name
from crossbook.extract.contract import rules_off
from crossbook.extract.registry import rule_names
from crossbook.ingest.manifest import read_manifest, rebuild
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db
from tests.gold import score_index

ROOT = Path(__file__).resolve().parent.parent

SAMPLE = ROOT / "sample_corpus"
FATE_GOLD = ROOT / "bench" / "fate" / "gold.json"
FATE_RELATIONS = ROOT / "bench" / "fate" / "gold_relations.json"
EDGES_OUT = ROOT / ".crossbook-eval" / "fate-edges-sample.md"
LAST_ROUND = ROOT / "bench" / "eval_last_round.json"  # the figures of the round before (stop 16)


# -- the sample corpus ----------------------------------------------------------------------

def eval_sample(tmp: Path) -> dict:
    manifest = SAMPLE / "crossbook.toml"
    settings = load_settings({"index_dir": tmp / "sample"}, {}, manifest)
    db = open_db(settings.index_dir, create=True)
    started = time.perf_counter()
    summary = rebuild(IngestJob(db, settings), manifest)
    seconds = time.perf_counter() - started
    if summary["failed"]:
        raise SystemExit(f"sample ingest failed: {summary['failed']}")
    scores = score_index(db, SAMPLE / "gold.json")
    gold_rows = json.loads((SAMPLE / "gold_relations.json").read_text(encoding="utf-8"))["relations"]
    gold = {(g["book"], g["path"], normalize_name(g["source"]), normalize_name(g["target"]), g["type"]) for g in gold_rows}
    found = {(e["book"], e["heading_path"], normalize_name(e["source"]), normalize_name(e["target"]), e["relation_type"])
             for e in index_edges(db)}
    expected_titles = [entry.title for entry in read_manifest(manifest)]
    titles = {row["title"] for row in db.query("SELECT title FROM books")}
    hand, rule_made = hand_figures("sample", db), rule_figures("sample", db)
    db.close()
    relations = compare(gold, found)
    return {
        "shelf": "sample_corpus", "books": len(expected_titles), "ingest_seconds": round(seconds, 1),
        "definitions": _from_score(scores["defines"]),
        "cross_book_references": _from_score(scores["cross_book_references"]),
        "relationships": relations.as_dict() | {"f1": prf(relations.correct, relations.found - relations.correct,
                                                          relations.gold - relations.correct)[2]},
        "titles": {"expected": len(expected_titles), "correct": sum(t in titles for t in expected_titles)},
        "hand": hand, "rules": rule_made,
    }


def hand_figures(shelf: str, db) -> dict:
    """Hand-read precision of the shelf's seeded samples (bench/hand_sample.py)."""
    out = {}
    for what, items in (("defs", stored_definitions(db)), ("edges", index_edges(db))):
        figure = hand_score(shelf, what, items, 100, 0)
        figure.pop("unread")
        out[what] = figure
    return out


def rule_figures(shelf: str, db) -> dict:
    """The mentions each rule made on the shelf and its hand-read definitions (bench/rule_ablation.py)."""
    return {"counts": rule_counts(db), "hand": hand_by_rule(shelf, stored_definitions(db))}


def _from_score(score) -> dict:
    return Figure(score.gold, score.found, score.correct).as_dict()


# -- the Fate shelf -------------------------------------------------------------------------

def ingest_fate(tmp: Path) -> tuple[object, dict[str, str], float]:
    """The 8 books, one by one, default settings; returns (db, title -> file, seconds)."""
    settings = load_settings({"index_dir": tmp / "fate"}, {}, None)
    db = open_db(settings.index_dir, create=True)
    job = IngestJob(db, settings)
    started = time.perf_counter()
    for file in FATE_BOOKS:
        try:
            ingest_paths(job, [FATE_CORPUS / file])
        except CrossbookError as exc:  # the book counts as found nothing
            print(f"ingest of {file} failed: {exc}", file=sys.stderr)
    seconds = time.perf_counter() - started
    title_file = {row["title"]: Path(row["path"]).name for row in db.query("SELECT title, path FROM books")}
    return db, title_file, seconds


def eval_fate(tmp: Path, edges_out: Path | None, top: int = 15, ablation: bool = True) -> dict:
    gold = json.loads(FATE_GOLD.read_text(encoding="utf-8"))
    gold_relations = json.loads(FATE_RELATIONS.read_text(encoding="utf-8"))["relations"]
    with kept_books() as books:
        db, title_file, seconds = ingest_fate(tmp)
    mentions = [dict(r) for r in db.query(
        """SELECT m.book, m.mention_type, m.name AS mention, e.name, c.heading_path
           FROM entity_mentions m JOIN entities e ON e.id = m.entity_id JOIN chunks c ON c.id = m.chunk_id""")]
    edges = index_edges(db)
    hand, rule_made = hand_figures("fate", db), rule_figures("fate", db)
    linked_db = db
    stored = [dict(m) for m in mentions]
    result = score_fate(gold, gold_relations, mentions, edges, title_file, top)
    result["ingest_seconds"] = round(seconds, 1)
    result["hand"] = hand
    result["relationships"]["edge_sample"] = str(write_edge_sample(edges, edges_out)) if edges_out else None
    if ablation:  # the definitions' and references' figures with each rule off (bench/rule_ablation.py)
        rule_made["off"] = switched_off(books, stored, lambda kept: score_fate(
            gold, gold_relations, kept, [], title_file, 0)["definitions"])
        rule_made["linker_off"] = linker_off(linked_db, books[0][2], stored, lambda kept: score_fate(
            gold, gold_relations, kept, [], title_file, 0)["cross_book_references"])
    result["rules"] = rule_made
    db.close()
    return result


def write_edge_sample(edges: list[dict], out: Path, size: int = 100, seed: int = 8) -> Path:
    """A seeded random sample of found edges with their evidence, for a verdict by hand."""
    picked = random.Random(seed).sample(edges, min(size, len(edges)))
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"# {len(picked)} of {len(edges)} relationships found on the Fate shelf (seed {seed})", "",
             "Mark each one right or wrong by reading the evidence.", "",
             "| # | verdict | book | source | type | target | evidence |", "|---|---|---|---|---|---|---|"]
    for i, e in enumerate(picked, 1):
        evidence = " ".join(e["evidence"].split()).replace("|", "\\|")
        lines.append(f"| {i} |  | {e['book']} | {e['source']} | {e['relation_type']} | {e['target']} | {evidence} |")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


# -- the Ironsworn vault --------------------------------------------------------------------

def eval_ironsworn(tmp: Path) -> dict:
    settings = load_settings({"index_dir": tmp / "ironsworn"}, {}, None)
    db = open_db(settings.index_dir, create=True)
    started = time.perf_counter()
    failed = ingest_ironsworn(IngestJob(db, settings))
    seconds = time.perf_counter() - started
    mentions = [dict(r) for r in db.query(
        """SELECT m.book, m.mention_type, m.name AS mention, e.name
           FROM entity_mentions m JOIN entities e ON e.id = m.entity_id""")]
    edges = index_edges(db)
    hand, rule_made = hand_figures("ironsworn", db), rule_figures("ironsworn", db)
    books = db.execute("SELECT count(*) FROM books").fetchone()[0]
    db.close()
    defined = {normalize_name(m["name"]) for m in mentions if m["mention_type"] == "defines"}
    result = {
        "shelf": "ironsworn", "books": books, "notes": len(ironsworn_notes()), "failed_notes": failed,
        "ingest_seconds": round(seconds, 1), "hand": hand, "rules": rule_made,
        "stored": {"definitions": sum(m["mention_type"] == "defines" for m in mentions),
                   "defined_entities": len(defined), "edges": len(edges)},
        "definitions": Figure(0, 0, 0).as_dict(), "cross_book_references": Figure(0, 0, 0).as_dict(),
        "relationships": Figure(0, 0, 0).as_dict(), "titles": {"expected": 0, "correct": 0},
        "gold": None,
    }
    if IRONSWORN_GOLD.exists():
        result.update(score_ironsworn(json.loads(IRONSWORN_GOLD.read_text(encoding="utf-8")), mentions, edges))
    return result


def score_ironsworn(gold: dict, mentions: list[dict], edges: list[dict]) -> dict:
    """Score by name only (the vault's books differ between today's reader and the vault
    reader): definitions, references (names mentioned in a book that does not define them)
    and relationships (source, target, type), as far as the gold file lists them."""
    key = normalize_name
    gold_defs = {key(d["name"]) for d in gold.get("definitions", gold.get("defines", []))}
    found_defs = {key(m["name"]) for m in mentions if m["mention_type"] == "defines"}
    out = {"gold": str(IRONSWORN_GOLD), "definitions": compare(gold_defs, found_defs).as_dict()}
    if gold.get("references") or gold.get("links"):
        gold_refs = {key(r.get("name") or r["target"]) for r in gold.get("references") or gold["links"]}
        found_refs = {key(m["name"]) for m in mentions if m["mention_type"] == "references"}
        out["cross_book_references"] = compare(gold_refs, found_refs).as_dict()
    if gold.get("relations") or gold.get("relationships"):
        rows = gold.get("relations") or gold.get("relationships")
        gold_rels = {(key(g["source"]), key(g["target"]), g["type"]) for g in rows}
        found_rels = {(key(e["source"]), key(e["target"]), e["relation_type"]) for e in edges}
        out["relationships"] = compare(gold_rels, found_rels).as_dict()
    return out


# -- output ---------------------------------------------------------------------------------

def fmt(value: float | None) -> str:
    return "  -  " if value is None else f"{value:.2f}"


def table_rows(r: dict) -> dict[str, str]:
    """One shelf's results as the table's cells, by row label."""
    cells: dict[str, str] = {}
    for key, label in (("definitions", "definitions"), ("cross_book_references", "cross-book references"),
                       ("relationships", "relationships")):
        cells[f"{label}: precision"] = fmt(r[key]["precision"])
        cells[f"{label}: recall"] = fmt(r[key]["recall"])
        cells[f"{label}: gold / found"] = "no gold" if not r[key]["gold"] else f"{r[key]['gold']} / {r[key]['found']}"
    cells["book titles right"] = f"{r['titles']['correct']} / {r['titles']['expected']}"
    for what, label in (("defs", "definitions"), ("edges", "edges")):
        hand = r["hand"][what]
        cells[f"hand-read {label}: precision"] = fmt(hand["precision"])
        if what == "defs":
            cells["  the same, a note an entity"] = fmt(hand.get("precision_notes_as_entities"))
        cells[f"hand-read {label}: right / read"] = f"{hand['right']} / {hand['read']}"
        cells[f"stored {label}"] = f"{hand['stored']}"
    cells["ingest seconds"] = f"{r['ingest_seconds']}"
    return cells


def print_table(results: list[dict], last: dict[str, dict] | None = None, label: str = "last round") -> None:
    """The shelves side by side; with ``last`` (shelf -> last round's results), each cell
    is "now (last round)" (or another ``label``: "with all rules")."""
    columns = []
    for r in results:
        now = table_rows(r)
        before = table_rows(last[r["shelf"]]) if last and r["shelf"] in last else {}
        columns.append({k: (f"{v} ({before[k]})" if k in before else v) for k, v in now.items()})
    names = [r["shelf"] + (f" ({label})" if last and r["shelf"] in last else "") for r in results]
    width = max(12, *(len(n) for n in names), *(len(c) for col in columns for c in col.values()))
    print(f"| {'figure':<36} | " + " | ".join(f"{n:>{width}}" for n in names) + " |")
    print(f"|{'-' * 38}|" + "|".join("-" * (width + 2) for _ in names) + "|")
    for label in columns[0]:
        print(f"| {label:<36} | " + " | ".join(f"{col.get(label, '-'):>{width}}" for col in columns) + " |")


def load_last_round(path: Path | None) -> dict[str, dict] | None:
    """shelf -> results of the last round (``--json`` output saved at its end), or None."""
    if path is None or not path.exists():
        return None
    return {r["shelf"]: r for r in json.loads(path.read_text(encoding="utf-8"))["results"]}


def print_fate_details(fate: dict) -> None:
    rel = fate["relationships"]
    print()
    print(f"Fate relationships: {rel['found_edges']} edges found; {rel['correct']} of the {rel['gold']} gold "
          f"relationships found in their book ({rel['gold_found_in_any_book']} in any book); precision is "
          f"{rel['precision_note']}.")
    if rel["edge_sample"]:
        print(f"hand-check sample of found edges: {rel['edge_sample']}")
    print("\nFate titles:")
    for t in fate["titles"]["books"]:
        mark = "ok " if t["expected"] == t["found"] else "BAD"
        print(f"  {mark} {t['file']:<30} {t['found']!r} (expected {t['expected']!r})")
    print(f"\nFate definitions, top {len(fate['definition_misses'])} misses (most referenced first):")
    for m in fate["definition_misses"]:
        print(f"  {m['book']:<30} {m['name']:<32} (section {m['section']!r}, line {m['line']})")
    print(f"\nFate definitions, top {len(fate['definition_false_positives'])} false positives (most referenced first):")
    for m in fate["definition_false_positives"]:
        print(f"  {m['book']:<30} {m['name']:<40} refs {m['references']:>4}  ({m['section']})")


def run(shelf: str, edges_out: Path | None, ablation: bool) -> list[dict]:
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        if shelf in ("sample", "all"):
            results.append(eval_sample(Path(tmp)))
            report_failures("sample")
        if shelf in ("fate", "all"):
            results.append(eval_fate(Path(tmp), edges_out, ablation=ablation))
            report_failures("Fate")
        if shelf in ("ironsworn", "all") and ironsworn_notes():
            results.append(eval_ironsworn(Path(tmp)))
            report_failures("Ironsworn")
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shelf", choices=("fate", "sample", "ironsworn", "all"), default="all",
                        help="which shelf to score")
    parser.add_argument("--json", action="store_true", help="print the results as one JSON document")
    parser.add_argument("--last-round", type=Path, default=LAST_ROUND,
                        help="the last round's --json output, printed next to this round's figures")
    parser.add_argument("--edges-out", type=Path, default=EDGES_OUT,
                        help="where to write the hand-check sample of found Fate edges")
    parser.add_argument("--without", action="append", default=[], metavar="RULE",
                        help="switch an extraction rule off (repeatable); the figures print beside those with all rules")
    parser.add_argument("--no-ablation", action="store_true",
                        help="skip the Fate definitions' figures with each rule off")
    args = parser.parse_args()
    unknown = sorted(set(args.without) - set(rule_names()))
    if unknown:
        parser.error(f"unknown rule(s) {', '.join(unknown)} (rules: {', '.join(rule_names())})")
    started = time.perf_counter()
    with_all = run(args.shelf, None, ablation=False) if args.without else None
    with rules_off(args.without):
        results = run(args.shelf, args.edges_out, ablation=not args.no_ablation and not args.without)
    total = time.perf_counter() - started
    if args.json:
        print(json.dumps({"results": results, "without": args.without, "seconds": round(total, 1)},
                         ensure_ascii=False, indent=1))
        return 0
    print(f"extraction eval (offline defaults: rules extractor, no vectors), {total:.0f}s"
          + (f"; rules off: {', '.join(args.without)}" if args.without else "") + "\n")
    if with_all is not None:
        print_table(results, {r["shelf"]: r for r in with_all}, "with all rules")
    else:
        print_table(results, load_last_round(args.last_round))
    print_rules(results)
    for r in results:
        if r["shelf"] == "fate":
            print_fate_details(r)
            print_linker_rules(r)
    for r in results:
        if r["shelf"] == "ironsworn":
            print(f"\nIronsworn: {r['notes']} notes read as {r['books']} books (the vault reader, "
                  f"{r['failed_notes']} failed); {r['stored']['definitions']} definitions of "
                  f"{r['stored']['defined_entities']} names, {r['stored']['edges']} edges; "
                  + (f"gold: {r['gold']}" if r["gold"] else "no gold yet (bench/ironsworn/gold.json)"))
    for r in results:
        wrong = {what: r["hand"][what]["wrong_classes"] for what in ("defs", "edges")}
        print(f"hand-read wrong classes, {r['shelf']}: definitions {wrong['defs'] or '-'}; edges {wrong['edges'] or '-'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
