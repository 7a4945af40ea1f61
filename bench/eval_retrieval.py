"""`make eval`: recall@k of the second-hop gold section, plain search vs multi-hop retrieve.

Four shelves: ``sample`` (sample_corpus/ and its questions.json), ``fate`` (the eight
Fate SRDs in corpora/fate, else ../shared/corpora/fate, and bench/fate/questions.json)
and ``ironsworn`` (the 245-note Obsidian vault in corpora/ironsworn/vault, else
../shared/corpora/ironsworn/vault, read as one book by the vault reader, and
bench/ironsworn/questions.json, whose gold sections are notes) and ``srd51`` (the 5.1 SRD in
corpora/srd51/markdown, else ../shared/corpora/srd51/markdown, one book per file, and
bench/srd51/questions.json: spell lists, items, features and actions whose second hop is
a spell or a condition). Each is ingested with the
rules extractor and the local embedder into an index cached
under the temp directory, keyed by the books, the manifest and the ingest code (so a
second run only asks the questions). Every question is asked both ways; the tables give
recall@1/3/5/10 and MRR of the second-hop gold section, first-hop recall, the latency of
each call in this process, and for every question ``retrieve`` misses the stage that lost
it:

- bridge not extracted: the index stores no mention of the bridge entity in the
  first-hop gold section (an extraction problem, not a ranking one);
- first hop not reached: the first-hop gold section is not among the sections whose
  entities retrieve follows;
- bridge not followed: it is, but retrieve did not expand through the bridge;
- ranked out: it did, but the second-hop section is not in the top k.

A gold section is a book (title, or ``file`` in the shelf's manifest) plus either its
heading ``path`` or a verbatim ``quote`` inside it (markup stripped, quotes straightened,
whitespace collapsed), so the gold survives changes to chunking and heading recovery.

After the shelves, one table puts them side by side: recall@k and MRR both ways, the
misses by stage, and the median latency.

``srd51-templates`` asks the same index bench/srd51/template_questions.json (written by
templates over the Markdown, fixed before tuning) and reports its tuning half (first hops in
the monsters and magic items books) and its check half (the other books) side by side, with
recall by how a question names its first hop (as written, lower case, a part of its name,
other words).

    python -m bench.eval_retrieval [--shelf sample|fate|ironsworn|srd51|srd51-templates|both|all] [-k 10] [--verbose] [--no-cache]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from bench.common.rule_failures import report as report_failures
from crossbook.core.config import load_settings
from crossbook.core.normalize import normalize_name
from crossbook.ingest.manifest import rebuild
from crossbook.ingest.pipeline import IngestJob
from crossbook.query.retrieve import retrieve
from crossbook.query.search import search
from crossbook.storage.db import open_db
from crossbook.vectors.chroma import open_vectors

ROOT = Path(__file__).resolve().parent.parent

# what the retrieval code may change without the cached index going stale
LATENCY_RUNS = 3
QUERY_ONLY_CODE = {"retrieve.py", "search.py", "scoring.py", "question.py", "bridge.py", "entity_graph.py", "lookup.py",
                   "doctor.py", "loose_names.py", "named_entry.py", "quoted.py"}


# -- shelves -----------------------------------------------------------------------------------

@dataclass
class Shelf:
    name: str
    manifest_text: str            # [[books]] with absolute paths (and the pack line, if any)
    book_files: list[Path]
    questions: list[dict]
    titles: dict[str, str] = field(default_factory=dict)  # file name -> book title
    cacheable: bool = True        # False: books generated in this run's temp directory


def fate_books_dir() -> Path | None:
    for candidate in (ROOT / "corpora" / "fate", ROOT.parent / "shared" / "corpora" / "fate"):
        if (candidate / "fate-core.md").is_file():
            return candidate
    return None


def sample_shelf(corpus: Path, distractors: int, tmp: Path) -> Shelf:
    manifest = corpus / "crossbook.toml"
    data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    books = [{"path": str((corpus / b["path"]).resolve()), **({"title": b["title"]} if "title" in b else {})}
             for b in data["books"]]
    if distractors:
        books += distractor_books(corpus, distractors, 60, tmp)
    head = f"pack = {json.dumps(str((corpus / data['pack']).resolve()))}\n" if "pack" in data else ""
    questions = json.loads((corpus / "questions.json").read_text(encoding="utf-8"))["questions"]
    name = f"sample corpus + {distractors} distractor books" if distractors else "sample corpus"
    return Shelf(name, head + manifest_lines(books), [Path(b["path"]) for b in books], questions,
                 cacheable=not distractors)


def fate_shelf(books_dir: Path) -> Shelf:
    spec = json.loads((ROOT / "bench" / "fate" / "questions.json").read_text(encoding="utf-8"))
    books = [{"path": str((books_dir / b["path"]).resolve()), "title": b["title"]} for b in spec["books"]]
    titles = {b["path"]: b["title"] for b in spec["books"]}
    return Shelf("Fate SRD shelf", manifest_lines(books), [Path(b["path"]) for b in books],
                 spec["questions"], titles)


def srd51_books_dir() -> Path | None:
    for candidate in (ROOT / "corpora" / "srd51" / "markdown", ROOT.parent / "shared" / "corpora" / "srd51" / "markdown"):
        if (candidate / "08 spellcasting.md").is_file():
            return candidate
    return None


def srd51_shelf(books_dir: Path) -> Shelf:
    """The 5.1 SRD, one book per file, with bench/srd51/questions.json: stat blocks, spell
    lists, magic items and class features whose second hop is a spell or a condition."""
    spec = json.loads((ROOT / "bench" / "srd51" / "questions.json").read_text(encoding="utf-8"))
    books = [{"path": str((books_dir / b["path"]).resolve()), "title": b["title"]} for b in spec["books"]]
    titles = {b["path"]: b["title"] for b in spec["books"]}
    return Shelf("SRD 5.1 shelf", manifest_lines(books), [Path(b["path"]) for b in books],
                 spec["questions"], titles)


def srd51_template_shelf(books_dir: Path) -> Shelf:
    """The 5.1 SRD with bench/srd51/template_questions.json: questions written by templates over
    the Markdown, each in the tuning or the check half by its first hop's book. The same
    books and manifest as ``srd51_shelf``, so both ask one cached index."""
    shelf = srd51_shelf(books_dir)
    spec = json.loads((ROOT / "bench" / "srd51" / "template_questions.json").read_text(encoding="utf-8"))
    return Shelf(shelf.name, shelf.manifest_text, shelf.book_files, spec["questions"], shelf.titles)


def halves(run: dict) -> list[tuple[str, dict]]:
    """A run of the template questions split into its tuning and check halves."""
    out = []
    for half in ("tune", "check"):
        picked = [i for i, row in enumerate(run["rows"]) if row["q"].get("split") == half]
        out.append((half, {**run, "rows": [run["rows"][i] for i in picked],
                           "search_ms": [run["search_ms"][i] for i in picked],
                           "retrieve_ms": [run["retrieve_ms"][i] for i in picked]}))
    return out


def by_naming(run: dict, k: int) -> None:
    """Retrieve's recall@k by how the question names the first hop (as written, lower case, ...)."""
    cells = {}
    for row in run["rows"]:
        hit = row["ranks"][1] is not None and row["ranks"][1] <= k
        got, n = cells.get(row["q"].get("named", "-"), (0, 0))
        cells[row["q"].get("named", "-")] = (got + hit, n + 1)
    print(f"retrieve recall@{k} by how the question names the first hop: "
          + "; ".join(f"{name} {got}/{n}" for name, (got, n) in sorted(cells.items())))
    print()


IRONSWORN_TITLE = "Ironsworn"


def vault_books_dir() -> Path | None:
    for candidate in (ROOT / "corpora" / "ironsworn" / "vault", ROOT.parent / "shared" / "corpora" / "ironsworn" / "vault"):
        if candidate.is_dir():
            return candidate
    return None


def vault_shelf(vault: Path) -> Shelf:
    """The Ironsworn vault as one book (the vault reader); a gold section's ``file`` is a
    note of it (bench/eval_vault.py builds the same shelf, so both share the cached index)."""
    spec = json.loads((ROOT / "bench" / "ironsworn" / "questions.json").read_text(encoding="utf-8"))
    manifest = f"[[books]]\npath = {json.dumps(str(vault.resolve()))}\ntitle = {json.dumps(IRONSWORN_TITLE)}\n"
    notes = sorted(p for p in vault.rglob("*.md"))
    titles = {p.relative_to(vault).as_posix(): IRONSWORN_TITLE for p in notes}
    return Shelf("Ironsworn vault", manifest, notes, spec["questions"], titles)


def manifest_lines(books: list[dict]) -> str:
    return "".join(f"[[books]]\npath = {json.dumps(b['path'])}\n"
                   + (f"title = {json.dumps(b['title'])}\n" if "title" in b else "") for b in books)


def distractor_books(corpus: Path, count: int, sections: int, out: Path) -> list[dict]:
    """``count`` generated books that share the corpus's vocabulary but answer none of its
    questions: every sentence is a shuffle of words from the corpus (entity names
    included, as other books on a shelf mention them). A stand-in for the rest of a shelf,
    where many sections talk about spells, costs and creatures. Deterministic (seeded)."""
    rng = random.Random(11)
    words = sorted({w for p in sorted(corpus.glob("*.md"))
                    for w in re.findall(r"[A-Za-z][a-z]+", p.read_text(encoding="utf-8"))})
    syllables = "ka ro mi tel ash vor quin del sa bru".split()
    books = []
    for b in range(count):
        lines = [f"# Distractor Book {b + 1}\n"]
        for s in range(sections):
            if s % 20 == 0:
                lines.append(f"\n## Chapter {s // 20 + 1}\n")
            name = " ".join("".join(rng.choices(syllables, k=3)).capitalize() for _ in range(2))
            body = []
            for _ in range(rng.randint(3, 7)):
                sentence = " ".join(rng.choices(words, k=rng.randint(8, 16)))
                body.append(sentence[0].upper() + sentence[1:] + ".")
            lines.append(f"\n### {name}\n\n" + " ".join(body) + "\n")
        path = out / f"distractor{b + 1}.md"
        path.write_text("".join(lines), encoding="utf-8")
        books.append({"path": str(path), "title": f"Distractor Book {b + 1}"})
    return books


# -- the cached index --------------------------------------------------------------------------

def index_key(shelf: Shelf, embedder: str) -> str:
    """Content key: the books, the manifest and every ingest-side source file."""
    digest = hashlib.sha256()
    digest.update(f"{embedder}\n{shelf.manifest_text}".encode())
    for path in shelf.book_files:
        digest.update(path.read_bytes())
    pack = re.search(r'^pack = "(.*)"$', shelf.manifest_text, re.M)
    if pack:
        digest.update(Path(pack.group(1)).read_bytes())
    for path in sorted((ROOT / "index").rglob("*")):
        if path.is_file() and path.suffix in (".py", ".toml", ".json") and path.name not in QUERY_ONLY_CODE:
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def build_index(shelf: Shelf, embedder: str, cache: bool, tmp: Path) -> tuple[Path, float | None]:
    """The index directory for the shelf (built now, or found in the cache) and the ingest
    time in seconds (None when it came from the cache)."""
    slug = re.sub(r"\W+", "-", shelf.name.lower()).strip("-")
    final = Path(tempfile.gettempdir()) / "crossbook-eval" / f"{slug}-{index_key(shelf, embedder)}"
    if cache and (final / "complete").is_file():
        return final, None
    work = tmp / f"build-{slug}"
    manifest = tmp / f"{slug}.toml"
    manifest.write_text(shelf.manifest_text, encoding="utf-8")
    # an empty environ: the eval must not depend on the caller's CROSSBOOK_* variables
    settings = load_settings({"index_dir": work, "embedder": embedder}, {}, manifest)
    db = open_db(work, create=True)
    started = time.perf_counter()
    with open_vectors(settings, db) as vectors:
        summary = rebuild(IngestJob(db, settings, vectors=vectors), manifest)
    seconds = time.perf_counter() - started
    db.close()
    if summary["failed"]:
        raise SystemExit(f"ingest failed: {summary['failed']}")
    if not cache:
        return work, seconds
    (work / "complete").write_text(f"{seconds:.1f}\n", encoding="utf-8")
    final.parent.mkdir(parents=True, exist_ok=True)
    # one cached index per shelf: the older ones were built from other code or books
    for old in final.parent.glob(f"{slug}-*"):
        if re.fullmatch(rf"{re.escape(slug)}-[0-9a-f]{{16}}", old.name):
            shutil.rmtree(old, ignore_errors=True)
    shutil.move(str(work), str(final))
    return final, seconds


# -- gold --------------------------------------------------------------------------------------

def plain(text: str) -> str:
    text = re.sub(r"<[^>]+>", "", text)
    text = text.translate(str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'}))
    text = re.sub(r"[*_`]+", "", text)
    return re.sub(r"\s+", " ", text).strip().casefold()


def gold_book(gold: dict, shelf: Shelf) -> str:
    return gold["book"] if "book" in gold else shelf.titles[gold["file"]]


def is_gold(book: str, section: str, text: str, gold: dict, shelf: Shelf) -> bool:
    if book != gold_book(gold, shelf):
        return False
    if "path" in gold:
        return section == gold["path"]
    return plain(gold["quote"]) in plain(text)


def rank_of(results, gold: dict, shelf: Shelf) -> int | None:
    for rank, passage in enumerate(results, 1):
        if is_gold(passage.book, passage.section, passage.text, gold, shelf):
            return rank
    return None


def gold_sections(db, gold: dict, shelf: Shelf) -> list[str]:
    book = gold_book(gold, shelf)
    return [row["id"] for row in db.query(
        "SELECT id, heading_path, text FROM chunks WHERE kind = 'parent' AND book = ?", [book])
        if is_gold(book, row["heading_path"], row["text"], gold, shelf)]


def same_entity(name: str, bridge: str) -> bool:
    """The bridge as a question names it ("Boost") and as the index stores it ("Boosts")."""
    a, b = normalize_name(name), normalize_name(bridge)
    return a == b or a.rstrip("s") == b.rstrip("s")


def miss_stage(db, q: dict, result: dict, shelf: Shelf) -> str:
    first = gold_sections(db, q["first_hop"], shelf)
    if not first:
        return "first-hop gold not in the index"
    marks = ",".join("?" * len(first))
    stored = [row[0] for row in db.execute(
        f"SELECT DISTINCT e.name FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
        f" WHERE m.chunk_id IN ({marks})", first)]
    # retrieve may follow a bridge the index does not store there (a name the question
    # uses, listed in a table row): that is no extraction miss
    followed_first = [f["entity"] for f in result.get("followed", ()) if f.get("from_chunk") in first]
    if not any(same_entity(name, q["via"]) for name in (*stored, *followed_first)):
        return "bridge not extracted"
    followed_from = set(result.get("seeds", ())) or {
        p.chunk_id for p in result["results"] if p.hop == 1}
    if not followed_from & set(first):
        return "first hop not reached"
    followed = [f["entity"] for f in result.get("followed", ())] or [
        query.get("entity", "") for query in result["queries"]]
    if not any(same_entity(name, q["via"]) for name in followed):
        return "bridge not followed"
    return "ranked out"


# -- the run -----------------------------------------------------------------------------------

def ask(shelf: Shelf, index_dir: Path, embedder: str, k: int, hops: int, ranking: str,
        latency_runs: int = LATENCY_RUNS) -> dict:
    settings = load_settings({"index_dir": index_dir, "embedder": embedder}, {}, None)
    db = open_db(index_dir)
    rows, search_ms, retrieve_ms = [], [], []
    with open_vectors(settings, db) as vectors:
        search(vectors, db, "warm up the embedder", k=k)
        for q in shelf.questions:
            # each call's best of latency_runs: the machine is shared, and a pause taken by
            # another process says nothing about either call
            times = []
            for _ in range(max(1, latency_runs)):
                started = time.perf_counter()
                plain_results = search(vectors, db, q["question"], k=k)
                middle = time.perf_counter()
                result = retrieve(vectors, db, q["question"], hops=hops, k=k, ranking=ranking)
                times.append(((middle - started) * 1000, (time.perf_counter() - middle) * 1000))
            search_ms.append(min(t[0] for t in times))
            retrieve_ms.append(min(t[1] for t in times))
            multi = result["results"]
            row = {
                "q": q,
                "ranks": (rank_of(plain_results, q["second_hop"], shelf), rank_of(multi, q["second_hop"], shelf)),
                "first": (rank_of(plain_results, q["first_hop"], shelf) is not None,
                          rank_of(multi, q["first_hop"], shelf) is not None),
            }
            if row["ranks"][1] is None:
                row["stage"] = miss_stage(db, q, result, shelf)
            rows.append(row)
    db.close()
    return {"rows": rows, "search_ms": search_ms, "retrieve_ms": retrieve_ms, "latency_runs": max(1, latency_runs)}


STAGES = ("bridge not extracted", "first hop not reached", "bridge not followed", "ranked out",
          "first-hop gold not in the index")


def figures(run: dict, k: int) -> dict:
    """One shelf's headline figures: recall@k and MRR both ways, misses by stage, latency."""
    rows = run["rows"]
    n = len(rows) or 1
    recall = [sum(1 for row in rows if row["ranks"][i] is not None and row["ranks"][i] <= k) / n for i in (0, 1)]
    mrr = [sum(1 / row["ranks"][i] for row in rows if row["ranks"][i] is not None) / n for i in (0, 1)]
    misses = [row["stage"] for row in rows if "stage" in row]
    return {"questions": len(rows), "recall": recall, "mrr": mrr,
            "misses": {stage: misses.count(stage) for stage in STAGES},
            "latency": [statistics.median(run["search_ms"] or [0]), statistics.median(run["retrieve_ms"] or [0])]}


def side_by_side(named: list[tuple[str, dict]], k: int) -> None:
    """The shelves' figures as the columns of one table."""
    width = max(12, *(len(name) for name, _ in named))
    print(f"## All shelves, k = {k}")
    print()
    print(f"| {'':<34} |" + "".join(f" {name:>{width}} |" for name, _ in named))
    print(f"|{'-' * 36}|" + "".join(f"{'-' * (width + 2)}|" for _ in named))

    def line(label: str, cells: list[str]) -> None:
        print(f"| {label:<34} |" + "".join(f" {cell:>{width}} |" for cell in cells))

    line("questions", [str(f["questions"]) for _, f in named])
    line(f"recall@{k} search", [f"{f['recall'][0]:.1%}" for _, f in named])
    line(f"recall@{k} retrieve", [f"{f['recall'][1]:.1%}" for _, f in named])
    line("retrieve / search", [f"{f['recall'][1] / f['recall'][0]:.1f}x" if f["recall"][0] else "-"
                               for _, f in named])
    line(f"MRR@{k} search", [f"{f['mrr'][0]:.3f}" for _, f in named])
    line(f"MRR@{k} retrieve", [f"{f['mrr'][1]:.3f}" for _, f in named])
    for stage in STAGES:
        if stage in STAGES[:4] or any(f["misses"][stage] for _, f in named):
            line(f"miss: {stage}", [str(f["misses"][stage]) for _, f in named])
    line("latency median ms, search", [f"{f['latency'][0]:.0f}" for _, f in named])
    line("latency median ms, retrieve", [f"{f['latency'][1]:.0f}" for _, f in named])
    print()


def report(shelf: Shelf, run: dict, k: int, embedder: str, ingest: float | None, verbose: bool) -> None:
    rows = run["rows"]
    n = len(rows)
    if verbose:
        for row in rows:
            s, r = row["ranks"]
            print(f"search {str(s or '-'):>3}  retrieve {str(r or '-'):>3}  via {row['q']['via']:<22}"
                  f" {row.get('stage', ''):<22} {row['q']['question'][:90]}")
        print()
    built = "cached index" if ingest is None else f"ingest + embed {ingest:.0f} s"
    print(f"## {shelf.name}: {n} two-book questions, embedder {embedder}, {built}")
    print()
    print(f"| {'second-hop gold section':<30} | {'search':>8} | {'retrieve':>8} |")
    print(f"|{'-' * 32}|{'-' * 10}|{'-' * 10}|")
    for cut in sorted({1, 3, 5, k}):
        if cut > k:
            continue
        hits = [sum(1 for row in rows if row["ranks"][i] is not None and row["ranks"][i] <= cut) for i in (0, 1)]
        print(f"| {f'recall@{cut}':<30} | {hits[0] / n:>8.1%} | {hits[1] / n:>8.1%} |")
    mrr = [sum(1 / row["ranks"][i] for row in rows if row["ranks"][i] is not None) / n for i in (0, 1)]
    print(f"| {f'MRR@{k}':<30} | {mrr[0]:>8.3f} | {mrr[1]:>8.3f} |")
    first = [sum(row["first"][i] for row in rows) / n for i in (0, 1)]
    print(f"| {f'first-hop gold, recall@{k}':<30} | {first[0]:>8.1%} | {first[1]:>8.1%} |")
    times = [statistics.median(run["search_ms"]), statistics.median(run["retrieve_ms"])]
    timed = f"latency, median ms (best of {run['latency_runs']})"
    print(f"| {timed:<30} | {times[0]:>8.0f} | {times[1]:>8.0f} |")
    means = [statistics.fmean(run["search_ms"]), statistics.fmean(run["retrieve_ms"])]
    print(f"| {'latency, mean ms':<30} | {means[0]:>8.0f} | {means[1]:>8.0f} |")
    print(f"| {'retrieve / search latency':<30} | {'':>8} | {times[1] / times[0]:>7.1f}x |")
    misses = [row["stage"] for row in rows if "stage" in row]
    print()
    print(f"retrieve misses at k = {k}: {len(misses)} of {n}"
          + "".join(f"; {stage}: {misses.count(stage)}" for stage in STAGES if misses.count(stage)))
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", type=int, default=10, help="cut-off for recall@k")
    parser.add_argument("--shelf", choices=("sample", "fate", "ironsworn", "srd51", "srd51-templates", "both", "all"),
                        default="all", help="both: sample and fate; all: the five (srd51-templates: the"
                        " template questions, tuning and check halves)")
    parser.add_argument("--embedder", default="local", help="local (default), hash or openai")
    parser.add_argument("--corpus", type=Path, default=ROOT / "sample_corpus", help="the sample shelf's corpus")
    parser.add_argument("--hops", type=int, default=2, help="hops for retrieve")
    parser.add_argument("--distractors", type=int, default=0,
                        help="add N generated books of 60 sections that share the sample corpus's vocabulary")
    parser.add_argument("--no-cache", action="store_true", help="ingest into a fresh index, keep nothing")
    parser.add_argument("--index", type=Path, help="ask an index built already (with one --shelf)")
    parser.add_argument("--ranking", default="simple", help="retrieve's ranking: simple or ppr")
    parser.add_argument("--latency-runs", type=int, default=LATENCY_RUNS,
                        help="time each call this many times and keep the best")
    parser.add_argument("--verbose", action="store_true", help="one line per question")
    args = parser.parse_args()
    wanted = {"both": ("sample", "fate"), "all": ("sample", "fate", "ironsworn", "srd51", "srd51-templates")}.get(
        args.shelf, (args.shelf,))
    if args.index is not None and len(wanted) > 1:
        parser.error("--index asks one shelf's questions: give --shelf sample, fate, ironsworn or srd51")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        shelves = []
        if "sample" in wanted:
            shelves.append(("sample", sample_shelf(args.corpus, args.distractors, tmp)))
        found_shelves = (  # short name, what it is, where it lives, its finder, its builder
            ("fate", "Fate shelf", "corpora/fate or ../shared/corpora/fate", fate_books_dir, fate_shelf),
            ("ironsworn", "Ironsworn vault", "corpora/ironsworn/vault or ../shared/corpora/ironsworn/vault",
             vault_books_dir, vault_shelf),
            ("srd51", "SRD 5.1 shelf", "corpora/srd51/markdown or ../shared/corpora/srd51/markdown",
             srd51_books_dir, srd51_shelf),
            ("srd51-templates", "SRD 5.1 shelf", "corpora/srd51/markdown or ../shared/corpora/srd51/markdown",
             srd51_books_dir, srd51_template_shelf),
        )
        for short, label, where, find, build in found_shelves:
            if short not in wanted:
                continue
            books_dir = find()
            if books_dir is None:
                print(f"{label} not found ({where}); skipped", file=sys.stderr)
            else:
                shelves.append((short, build(books_dir)))
        named = []
        for short, shelf in shelves:
            if args.index is not None:
                index_dir, ingest = args.index, None
            else:
                index_dir, ingest = build_index(shelf, args.embedder, shelf.cacheable and not args.no_cache, tmp)
            run = ask(shelf, index_dir, args.embedder, args.k, args.hops, args.ranking, args.latency_runs)
            report_failures(short)
            if short != "srd51-templates":
                report(shelf, run, args.k, args.embedder, ingest, args.verbose)
                named.append((short, figures(run, args.k)))
                continue
            for half, part in halves(run):
                part_shelf = Shelf(f"{shelf.name}, template questions, {half} half", shelf.manifest_text,
                                   shelf.book_files, [row["q"] for row in part["rows"]], shelf.titles)
                report(part_shelf, part, args.k, args.embedder, ingest, args.verbose)
                by_naming(part, args.k)
                named.append((f"srd51 {half}", figures(part, args.k)))
        if len(named) > 1:
            side_by_side(named, args.k)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    sys.exit(main())
