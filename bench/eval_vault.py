"""`make eval`: the Ironsworn note vault, ingested as one book and scored.

The vault (corpora/ironsworn/vault, else ../shared/corpora/ironsworn/vault) is ingested
from a manifest entry pointing at the folder, with the default settings (rules extractor,
generic pack, local embedder), into an index cached like eval_retrieval.py's. Figures:

- note-defines recall: the note's entity (its file name) is stored as defined in a
  section of that note (bench/ironsworn/gold.json, built mechanically by build_gold.py);
- alias recall: a front-matter alias is stored as a name of the note's entity;
- link recall: for each (linking note, linked note) pair the authors wrote, the linked
  note's entity is stored as referenced in a section of the linking note;
- precision of stored definitions, over the definitions read by hand
  (bench/ironsworn/hand_labels.json; ``--sample 60`` prints a seeded sample to label);
- retrieve vs search on bench/ironsworn/questions.json (two-note questions), as
  eval_retrieval.py reports them (the same shelf and cached index: eval_retrieval.py
  also prints it next to the other shelves);
- ingest (+ embed) time.

``--score-index DIR --as-directory`` scores an index built otherwise (e.g. by older code
that ingested each note as a book: a chunk's note is then its book's file).

    python -m bench.eval_vault [--no-cache] [--sample N] [--verbose] [--skip-retrieval]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from bench.common.rule_failures import report as report_failures
from bench.eval_retrieval import ask, build_index, report, vault_shelf
from bench.ironsworn.build_gold import vault_dir
from crossbook.core.normalize import normalize_name

ROOT = Path(__file__).resolve().parent.parent

HERE = ROOT / "bench" / "ironsworn"
TITLE = "Ironsworn"


def note_of_chunks(db: sqlite3.Connection, vault: Path, as_directory: bool) -> dict[str, str]:
    """chunk id -> the vault note it comes from."""
    if not as_directory:
        return {cid: f for cid, f in db.execute(
            "SELECT id, source_file FROM chunks WHERE kind = 'parent' AND source_file IS NOT NULL")}
    root = vault.resolve()
    out = {}
    for cid, path in db.execute("SELECT c.id, b.path FROM chunks c JOIN books b ON b.title = c.book"
                                " WHERE c.kind = 'parent'"):
        try:
            out[cid] = Path(path).resolve().relative_to(root).as_posix()
        except ValueError:
            continue
    return out


def score(db: sqlite3.Connection, gold: dict, vault: Path, as_directory: bool = False) -> dict:
    notes = note_of_chunks(db, vault, as_directory)
    defined, referenced = defaultdict(set), defaultdict(set)
    definitions = []
    for cid, mention_type, normalized, entity_norm, name, source in db.execute(
            "SELECT m.chunk_id, m.mention_type, m.normalized, e.normalized, m.name, m.source"
            " FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"):
        note = notes.get(cid)
        if note is None:
            continue
        target = defined if mention_type == "defines" else referenced
        target[note].update((normalized, entity_norm))
        if mention_type == "defines":
            definitions.append((note, name, source))
    aliases = defaultdict(set)
    for alias, canonical in db.execute("SELECT normalized, canonical FROM entity_aliases"):
        aliases[canonical].add(alias)
    stored_notes = set(notes.values())
    defines_hit, alias_total, alias_hit, missed_defines = 0, 0, 0, []
    for entry in gold["defines"]:
        key = normalize_name(entry["name"])
        if key in defined[entry["file"]]:
            defines_hit += 1
        else:
            missed_defines.append(entry["file"])
        for alias in entry["aliases"]:
            if normalize_name(alias) == key:
                continue
            alias_total += 1
            alias_hit += normalize_name(alias) in aliases[key] or normalize_name(alias) in defined[entry["file"]]
    pairs = {(link["file"], link["target_file"], link["target"]) for link in gold["links"]}
    missed_links = [p for p in sorted(pairs) if normalize_name(p[2]) not in referenced[p[0]]]
    return {
        "notes": gold["notes"], "notes_stored": len(stored_notes & {d["file"] for d in gold["defines"]}),
        "defines": (defines_hit, len(gold["defines"])), "aliases": (alias_hit, alias_total),
        "links": (len(pairs) - len(missed_links), len(pairs)), "missed_defines": missed_defines,
        "missed_links": missed_links, "definitions": definitions,
    }


def precision(definitions: list[tuple[str, str, str]]) -> tuple[int, int, int]:
    """(correct, labelled, stored but not labelled) over the hand labels."""
    labels = json.loads((HERE / "hand_labels.json").read_text(encoding="utf-8"))["labels"]
    by_key = {(x["file"], normalize_name(x["name"])): x["correct"] for x in labels}
    stored = {(note, normalize_name(name)) for note, name, _ in definitions}
    labelled = [by_key[key] for key in stored if key in by_key]
    return sum(labelled), len(labelled), len(stored) - len(labelled)


def sample(definitions: list[tuple[str, str, str]], n: int) -> list[dict]:
    unique = sorted({(note, name, source) for note, name, source in definitions})
    return [{"file": note, "name": name, "source": source} for note, name, source in
            random.Random(17).sample(unique, min(n, len(unique)))]


def print_figures(figures: dict, label: str, verbose: bool) -> None:
    def ratio(pair):
        return f"{pair[0] / pair[1]:.1%} ({pair[0]}/{pair[1]})" if pair[1] else "-"

    print(f"## Ironsworn vault: {label}")
    print()
    print(f"| {'figure':<44} | {'value':>22} |")
    print(f"|{'-' * 46}|{'-' * 24}|")
    print(f"| {'notes stored (of the vault)':<44} | {ratio((figures['notes_stored'], figures['notes'])):>22} |")
    print(f"| {'note-defines recall':<44} | {ratio(figures['defines']):>22} |")
    print(f"| {'front-matter alias recall':<44} | {ratio(figures['aliases']):>22} |")
    print(f"| {'link recall (linked entity referenced)':<44} | {ratio(figures['links']):>22} |")
    if "precision" in figures:
        correct, labelled, unlabelled = figures["precision"]
        print(f"| {'precision of stored definitions (by hand)':<44} | {ratio((correct, labelled)):>22} |")
        print(f"| {'stored definitions (not in the hand sample)':<44} | {unlabelled:>22} |")
    if "ingest" in figures:
        print(f"| {'ingest + embed, seconds':<44} | {figures['ingest']:>22} |")
    print()
    if verbose:
        print("missed defines:", ", ".join(figures["missed_defines"][:20]) or "none")
        print("missed links:", "; ".join(f"{f} -> {t}" for f, _, t in figures["missed_links"][:30]) or "none")
        print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", default="local", help="local (default), hash or openai")
    parser.add_argument("-k", type=int, default=10, help="cut-off for recall@k")
    parser.add_argument("--no-cache", action="store_true", help="ingest into a fresh index, keep nothing")
    parser.add_argument("--score-index", type=Path, help="score this index instead of building one")
    parser.add_argument("--as-directory", action="store_true", help="with --score-index: each note is a book")
    parser.add_argument("--sample", type=int, default=0, help="print a seeded sample of N stored definitions (JSON)")
    parser.add_argument("--skip-retrieval", action="store_true", help="no questions")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    vault = vault_dir()
    if vault is None:
        print("Ironsworn vault not found (corpora/ironsworn/vault or ../shared/corpora/ironsworn/vault); skipped",
              file=sys.stderr)
        return 0
    gold = json.loads((HERE / "gold.json").read_text(encoding="utf-8"))
    if args.score_index is not None:
        db = sqlite3.connect(args.score_index / "crossbook.db")
        figures = score(db, gold, vault, args.as_directory)
        print_figures(figures, f"index {args.score_index}", args.verbose)
        return 0
    with tempfile.TemporaryDirectory() as tmp_name:
        shelf = vault_shelf(vault)
        index_dir, seconds = build_index(shelf, args.embedder, not args.no_cache, Path(tmp_name))
        if seconds is None and (index_dir / "complete").is_file():
            seconds = float((index_dir / "complete").read_text().strip())
        report_failures("Ironsworn vault")
        db = sqlite3.connect(index_dir / "crossbook.db")
        figures = score(db, gold, vault)
        db.close()
        if args.sample:
            print(json.dumps(sample(figures["definitions"], args.sample), ensure_ascii=False, indent=1))
            return 0
        figures["precision"] = precision(figures["definitions"])
        figures["ingest"] = f"{seconds:.0f}" if seconds is not None else "-"
        print_figures(figures, "one book, rules extractor, generic pack", args.verbose)
        if not args.skip_retrieval:
            run = ask(shelf, index_dir, args.embedder, args.k, 2, "simple")
            report(shelf, run, args.k, args.embedder, None, args.verbose)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    sys.exit(main())
