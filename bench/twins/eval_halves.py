"""Round three's checks, per shelf and per half: srd51, its three twins (bench/twins/
srd_layouts.py), Fate, Ironsworn and the sample, each split into the tune and check halves
committed in bench/twins/halves/ (bench/twins/split.py says how).

For each shelf and half it prints:
- **types of the named kinds**: the members of the kinds the shelf's books state (its
  kinds.json, the kinds with a crossbook type) defined with that type and never as ``other``
  (bench/srd51/eval_definitions.py's rule for the listed kinds), per kind too;
- **fair definition precision**: eval_definitions' fair count (a definition is right when the
  book's structure writes its name as a heading, a bold lead or a table row's first cell, and
  nothing in that structure says it is no entry); on a twin, the labels it adds are none
  (srd_layouts.added_labels); on Fate, Ironsworn and the sample, a name the shelf's gold
  defines in that book, or a member of a kind its books state (its kinds.json), is right too;
- **stated relationships**: recall of the shelf's stated relationships (srd51 and its twins:
  bench/srd51/stated_gold.py; Fate and the sample: their gold_relations.json; Ironsworn has
  none), per relation type, a relationship in the half of its source;
- **second hop at 10**: retrieve's recall@10 of the second-hop gold section of the shelf's
  questions (srd51 and its twins: questions.json and template_questions.json; a twin keeps
  the questions whose quotes it still prints).

Each shelf is ingested once with the local embedder into an index cached as
bench/eval_retrieval.py caches it (srd51, Fate, Ironsworn and the sample share make eval's).
A cold run ingests seven shelves (about 30 minutes on two cores); a warm one takes minutes.

    python -m bench.twins.eval_halves [--shelf NAME ...] [--embedder local|hash] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from bench import eval_retrieval as R
from bench.common.relation_types import recall_by_type
from bench.common.scoring import index_edges
from bench.eval_statblocks import GOLD as CONDITIONS_GOLD
from bench.srd51 import eval_definitions as D
from bench.srd51.stated_gold import stated
from bench.twins import split as S
from bench.twins import srd_layouts as L
from crossbook.core.normalize import normalize_name
from crossbook.storage.db import open_db

ROOT = Path(__file__).resolve().parents[2]

TWIN_DIR = Path(tempfile.gettempdir()) / "crossbook-srd51-twins"
SHELVES = ("srd51", *(f"srd51-{t}" for t in L.TWINS), "fate", "ironsworn", "sample")
HALF_NAMES = ("tune", "check", "all")


@dataclass
class Target:
    """One shelf as the scorer reads it."""

    name: str
    shelf: R.Shelf
    halves: S.Halves
    kinds: list[dict]
    files: dict[str, str]                                   # book file stem -> Markdown
    stated: list[dict] | None
    rejects: dict[str, set[str]] = field(default_factory=dict)   # stem -> labels a twin adds
    gold_defs: dict[str, set[str]] = field(default_factory=dict)  # stem -> names the gold defines
    dropped: int = 0                                        # questions whose quotes a twin lost


def with_ids(paths: list[Path]) -> list[dict]:
    """The questions of ``paths`` in order, each with its id ``file#index``."""
    return [{**q, "qid": f"{path.name}#{i}"} for path in paths
            for i, q in enumerate(json.loads(path.read_text(encoding="utf-8"))["questions"])]


def srd51_target(name: str, markdown: Path) -> Target:
    spec = json.loads((ROOT / "bench" / "srd51" / "questions.json").read_text(encoding="utf-8"))
    questions = with_ids(S.QUESTIONS["srd51"])
    kinds, gold = S.load_kinds("srd51"), stated(markdown, CONDITIONS_GOLD)
    if name == "srd51":
        shelf = R.srd51_shelf(markdown)
        shelf = R.Shelf(shelf.name, shelf.manifest_text, shelf.book_files, questions, shelf.titles)
        files = {p.stem: p.read_text(encoding="utf-8") for p in sorted(markdown.glob("*.md"))}
        return Target(name, shelf, S.Halves("srd51"), kinds, files, gold)
    twin = name.removeprefix("srd51-")
    conditions = {normalize_name(m) for k in kinds if k["kind"] == "condition" for m in k["members"]}
    folder = L.relay(twin, markdown, TWIN_DIR, conditions)
    books = [{"path": str(folder / b["path"]), "title": b["title"]} for b in spec["books"]]
    texts = {b["path"]: R.plain((folder / b["path"]).read_text(encoding="utf-8")) for b in spec["books"]}
    kept = [q for q in questions if all(R.plain(q[hop]["quote"]) in texts[q[hop]["file"]]
                                        for hop in ("first_hop", "second_hop"))]
    shelf = R.Shelf(f"SRD 5.1 twin {twin}", R.manifest_lines(books), [Path(b["path"]) for b in books], kept,
                    {b["path"]: b["title"] for b in spec["books"]})
    files = {p.stem: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.md"))}
    return Target(name, shelf, S.Halves("srd51"), kinds, files, gold,
                  rejects={stem: {normalize_name(n) for n in names} for stem, names in L.added_labels(twin, markdown).items()},
                  dropped=len(questions) - len(kept))


def other_target(name: str, tmp: Path) -> Target:
    """Fate, Ironsworn or the sample, with the names its gold defines per book."""
    gold_defs: dict[str, set[str]] = defaultdict(set)
    if name == "fate":
        shelf = R.fate_shelf(R.fate_books_dir())
        for d in json.loads(S.FATE_GOLD.read_text(encoding="utf-8"))["definitions"]:
            gold_defs[Path(d["book"]).stem] |= {normalize_name(n) for n in (d["name"], *d["aliases"])}
        relations = json.loads((ROOT / "bench" / "fate" / "gold_relations.json").read_text(encoding="utf-8"))["relations"]
    elif name == "ironsworn":
        shelf = R.vault_shelf(R.vault_books_dir())
        for d in json.loads(S.IRONSWORN_GOLD.read_text(encoding="utf-8"))["defines"]:
            gold_defs["vault"] |= {normalize_name(n) for n in (d["name"], *d["aliases"])}
        relations = None
    else:
        shelf = R.sample_shelf(ROOT / "sample_corpus", 0, tmp)
        manifest = tomllib.loads((ROOT / "sample_corpus" / "crossbook.toml").read_text(encoding="utf-8"))
        stem_of = {b["title"]: Path(b["path"]).stem for b in manifest["books"]}
        for section in json.loads(S.SAMPLE_GOLD.read_text(encoding="utf-8"))["sections"]:
            gold_defs[stem_of[section["book"]]] |= {normalize_name(d["name"]) for d in section["defines"]}
        relations = json.loads((ROOT / "sample_corpus" / "gold_relations.json").read_text(encoding="utf-8"))["relations"]
    shelf = R.Shelf(shelf.name, shelf.manifest_text, shelf.book_files, with_ids(S.QUESTIONS[name]), shelf.titles,
                    shelf.cacheable)
    kinds, texts = S.load_kinds(name), S.book_texts(name)
    # the members of the kinds the books state are gold as well (Ironsworn's debilities, which
    # its note-name gold does not list), in any of the shelf's books
    members = {normalize_name(m) for k in kinds for m in k["members"]}
    for stem in texts:
        gold_defs[stem] |= members
    return Target(name, shelf, S.Halves(name), kinds, texts, relations, gold_defs=dict(gold_defs))


def target(name: str, tmp: Path) -> Target:
    return srd51_target(name, D.shelf()) if name.startswith("srd51") else other_target(name, tmp)


# -- the figures --------------------------------------------------------------------------------

def types(t: Target, defined: dict[str, set[str]]) -> dict[str, dict[str, list[int]]]:
    """half -> kind -> [typed right, members], over the kinds with a crossbook type."""
    out = {h: defaultdict(lambda: [0, 0]) for h in HALF_NAMES}
    for k in t.kinds:
        if not k["type"]:
            continue
        for member in k["members"]:
            n = normalize_name(member)
            right = k["type"] in defined.get(n, ()) and "other" not in defined[n]
            for h in (t.halves.of(member), "all"):
                out[h][k["kind"]][0] += right
                out[h][k["kind"]][1] += 1
    return {h: dict(v) for h, v in out.items()}


def precision(t: Target, per_book: set[tuple[str, str]]) -> dict[str, list[int]]:
    """half -> [right, found] of the definitions, by the fair count."""
    names, rejects = D.source_names(t.files)
    out = {h: [0, 0] for h in HALF_NAMES}
    for stem, n in per_book:
        right = (n in names[stem] and n not in rejects[stem] and n not in t.rejects.get(stem, ())) \
            or n in t.gold_defs.get(stem, ())
        for h in (t.halves.of(n), "all"):
            out[h][0] += right
            out[h][1] += 1
    return out


def details(t: Target, defined: dict[str, set[str]], per_book: set[tuple[str, str]]) -> dict[str, dict]:
    """half -> {"wrong": the definitions the fair count finds wrong, as "stem: name";
    "mistyped": kind -> {member: the types it is defined as}}, to read what a figure misses."""
    names, rejects = D.source_names(t.files)
    out: dict[str, dict] = {h: {"wrong": [], "mistyped": defaultdict(dict)} for h in HALF_NAMES}
    for stem, n in sorted(per_book):
        if (n in names[stem] and n not in rejects[stem] and n not in t.rejects.get(stem, ())) \
                or n in t.gold_defs.get(stem, ()):
            continue
        for h in (t.halves.of(n), "all"):
            out[h]["wrong"].append(f"{stem}: {n}")
    for k in t.kinds:
        for member in k["members"] if k["type"] else ():
            n = normalize_name(member)
            if k["type"] not in defined.get(n, ()) or "other" in defined[n]:
                for h in (t.halves.of(member), "all"):
                    out[h]["mistyped"][k["kind"]][member] = sorted(defined.get(n, ()))
    return out


def relationships(t: Target, edges: list[dict]) -> dict[str, dict[str, tuple[int, int]]] | None:
    """half -> relation type -> (found, stated), a relationship in its source's half."""
    if t.stated is None:
        return None
    return {h: recall_by_type([g for g in t.stated if h == "all" or t.halves.of(g["source"]) == h], edges)
            for h in HALF_NAMES}


def second_hop(t: Target, run: dict, k: int) -> dict[str, list[int]]:
    """half -> [questions whose second-hop gold is in retrieve's top k, questions]."""
    out = {h: [0, 0] for h in HALF_NAMES}
    for row in run["rows"]:
        hit = row["ranks"][1] is not None and row["ranks"][1] <= k
        for h in (t.halves.of_question(row["q"]["qid"]), "all"):
            out[h][0] += hit
            out[h][1] += 1
    return out


def score(t: Target, embedder: str, k: int, tmp: Path, cache: bool) -> dict:
    started = time.perf_counter()
    index_dir, ingest = R.build_index(t.shelf, embedder, cache and t.shelf.cacheable, tmp)
    db = open_db(index_dir)
    defined, per_book = D.definitions(db.conn)
    edges = index_edges(db)
    db.close()
    run = R.ask(t.shelf, index_dir, embedder, k, 2, "simple", latency_runs=1)
    return {"shelf": t.name, "types": types(t, defined), "precision": precision(t, per_book),
            "details": details(t, defined, per_book),
            "stated": relationships(t, edges), "second_hop": second_hop(t, run, k),
            "questions_dropped": t.dropped, "ingest_seconds": ingest, "seconds": round(time.perf_counter() - started)}


# -- output -------------------------------------------------------------------------------------

def ratio(hit: int, of: int) -> str:
    return f"{hit}/{of} = {hit / of:.3f}" if of else "-"


def cells(result: dict, half: str) -> dict[str, str]:
    typed = result["types"][half]
    out = {"types of the named kinds": ratio(sum(a for a, _ in typed.values()), sum(b for _, b in typed.values()))}
    if typed:  # a whole figure can hide one kind at nothing (a layout's classes)
        low = min(typed, key=lambda name: (typed[name][0] / typed[name][1], name))
        out["  the lowest kind"] = f"{low} {typed[low][0]}/{typed[low][1]}"
    out |= {f"  typed: {name}": ratio(a, b) for name, (a, b) in sorted(typed.items())}
    out["fair definition precision"] = ratio(*result["precision"][half])
    stated_half = result["stated"][half] if result["stated"] else None
    out["stated relationships"] = ratio(sum(a for a, _ in stated_half.values()), sum(b for _, b in stated_half.values())) \
        if stated_half else "no gold"
    out |= {f"  stated: {name}": ratio(a, b) for name, (a, b) in sorted((stated_half or {}).items())}
    out["second hop at 10"] = ratio(*result["second_hop"][half])
    return out


def print_results(results: list[dict]) -> None:
    for result in results:
        columns = {half: cells(result, half) for half in HALF_NAMES}
        labels = list(columns["all"])  # every label is in the whole shelf's column
        dropped = f"; {result['questions_dropped']} questions left out (a quote the twin does not print)" \
            if result["questions_dropped"] else ""
        print(f"## {result['shelf']} ({result['seconds']} s{dropped})\n")
        print(f"| {'figure':<34} | " + " | ".join(f"{h:>20}" for h in HALF_NAMES) + " |")
        print(f"|{'-' * 36}|" + "|".join("-" * 22 for _ in HALF_NAMES) + "|")
        for label in labels:
            print(f"| {label:<34} | " + " | ".join(f"{columns[h].get(label, '-'):>20}" for h in HALF_NAMES) + " |")
        print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shelf", action="append", choices=SHELVES, help="one shelf (repeatable); default all")
    parser.add_argument("--embedder", default="local", help="local (default) or hash")
    parser.add_argument("-k", type=int, default=10, help="cut-off of the second hop")
    parser.add_argument("--no-cache", action="store_true", help="ingest into fresh indexes, keep nothing")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--details", type=Path,
                        help="write the wrong definitions and the mistyped members per half to this JSON file")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp_name:
        for name in args.shelf or SHELVES:
            results.append(score(target(name, Path(tmp_name)), args.embedder, args.k, Path(tmp_name), not args.no_cache))
            print_results(results[-1:])
            sys.stdout.flush()
    if args.details:
        args.details.write_text(json.dumps({r["shelf"]: r["details"] for r in results}, indent=1) + "\n",
                                encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps([{k: v for k, v in r.items() if k != "details"} for r in results],
                                        indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    raise SystemExit(main())
