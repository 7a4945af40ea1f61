"""Benchmark: crossbook against the bare SQLite work it stands on.

Each ratio is measured in one run of this script, numerator and denominator side by side,
and merged into bench/results.json under its own key; nothing is asserted.

    llm_calls     the openai extractor through the scripted server (tests/fakes.py) on the
                  sample corpus: calls on the first ingest per parent chunk (1), on an
                  unchanged re-ingest (0), after a one-section edit (1)
    pipeline      a generated shelf (--shelf-mb) ingested with the rules extractor and the
                  hash embedder, in a fresh process, against a bare ``executemany`` of the
                  same rows into the same schema; and how much that process's peak RSS
                  exceeds the same process's on half the shelf, against the extra Markdown
    where_else    index.lookup.where_else() on a synthetic index of --mentions mentions,
                  against the bare indexed SELECT of the same rows (median over names)
    delete_book   pipeline.delete_book() of a book of --book-mentions mentions in that
                  index, against a bare ``DELETE FROM books`` (its rows go by cascade)

    python -m bench.bench_scale [--shelf-mb 4] [--mentions 1000000] [--book-mentions 100000]
    python -m bench.bench_scale --only where_else,delete_book
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common.results import record

ROOT = Path(__file__).resolve().parent.parent

SECTIONS = ("llm_calls", "pipeline", "where_else", "delete_book")
SYLLABLES = "ka ro mi tel ash vor quin del sa bru fen gar lo mur".split()


def names(rng: random.Random, count: int) -> list[str]:
    """``count`` distinct two-word names ("Kavor Telashmi")."""
    out: set[str] = set()
    while len(out) < count:
        out.add(" ".join("".join(rng.choices(SYLLABLES, k=k)).capitalize() for k in (2, 3)))
    return sorted(out)


# -- llm_calls ----------------------------------------------------------------------------------

def bench_llm_calls() -> dict:
    from crossbook.ingest.pipeline import IngestJob, ingest_paths
    from crossbook.storage.db import open_db
    from tests.fakes import ScriptedOpenAI
    from tests.helpers import heading_responder, openai_settings

    with tempfile.TemporaryDirectory() as tmp, ScriptedOpenAI() as server:
        tmp = Path(tmp)
        books = []
        for name in ("core_rules.md", "grimoire.md", "bestiary.md"):
            books.append(tmp / name)
            shutil.copy(ROOT / "sample_corpus" / name, books[-1])
        server.responder = heading_responder()
        settings = openai_settings(tmp / "index", server, pack=str(ROOT / "sample_corpus" / "emberfall.pack.toml"))
        job = IngestJob(open_db(settings.index_dir, create=True), settings)

        def calls(run) -> int:
            before = len(server.chat_calls)
            run()
            return len(server.chat_calls) - before

        first_results = []
        first = calls(lambda: first_results.extend(ingest_paths(job, books)))
        unchanged = calls(lambda: ingest_paths(job, books))
        text = books[1].read_text(encoding="utf-8")
        books[1].write_text(text.replace("Cost: 3 Ember.", "Cost: 4 Ember.", 1), encoding="utf-8")
        edited = calls(lambda: ingest_paths(job, books))
    parents = sum(r.parents for r in first_results)
    return {"parents": parents, "first_ingest": first, "unchanged": unchanged, "one_section_edit": edited,
            "calls_per_parent": round(first / parents, 3)}


# -- pipeline and peak RSS ---------------------------------------------------------------------

def generated_shelf(directory: Path, megabytes: float, per_book: int = 400, seed: int = 7) -> list[Path]:
    """Books of ``per_book`` sections each (bench_ingest's catalogs of named entries whose
    prose cites other entries), about ``megabytes`` of Markdown in all (at least one book)."""
    from bench.bench_ingest import synthetic_book

    rng = random.Random(seed)
    directory.mkdir(parents=True)
    books = max(1, round(megabytes * 1e6 / (per_book * 670)))  # 670 bytes a section
    entries = names(rng, books * per_book)
    paths = []
    for b in range(books):
        paths.append(directory / f"book{b:03d}.md")
        paths[-1].write_text(synthetic_book(rng, b, per_book, entries), encoding="utf-8")
    return paths


def ingest_child(shelf: Path, index_dir: Path) -> dict:
    """In this (fresh) process: ingest every book of ``shelf``; the timings and peak RSS."""
    from crossbook.core.config import Settings
    from crossbook.ingest.pipeline import IngestJob, ingest_paths
    from crossbook.storage.db import open_db
    from crossbook.vectors.chroma import open_vectors

    phases: dict[str, float] = {}
    started: dict[str, float] = {}

    def on_event(event: dict) -> None:
        if event.get("event") == "phase.start":
            started[event["phase"]] = time.perf_counter()
        elif event.get("event") == "phase.done" and event["phase"] in started:
            phases[event["phase"]] = phases.get(event["phase"], 0.0) + time.perf_counter() - started.pop(event["phase"])

    settings = Settings(index_dir=index_dir, embedder="hash", pack="generic")
    db = open_db(index_dir, create=True)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0, cpu0 = time.perf_counter(), time.process_time()
    with open_vectors(settings, db, lazy=True) as vectors:
        job = IngestJob(db, settings, vectors=vectors, events=on_event)
        results = ingest_paths(job, sorted(shelf.glob("*.md")))
    total = time.perf_counter() - t0
    return {"total_s": total, "total_cpu_s": time.process_time() - cpu0, "phases_s": phases, "books": len(results),
            "peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "rss_before_ingest_kb": rss_before}


def run_child(*args: str) -> dict:
    out = subprocess.run([sys.executable, "-m", __spec__.name, *args], cwd=ROOT, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"child {args} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def bare_copy_seconds(source_db: Path, target_dir: Path) -> tuple[float, int]:
    """Seconds to insert every row of ``source_db`` into a fresh index of the same schema
    with ``executemany`` in one transaction (foreign keys on, the same indexes); rows."""
    from crossbook.storage.db import open_db

    source = sqlite3.connect(source_db)
    first = ["books", "chunks", "entities"]
    # ordinary tables only: an FTS5 index (and its shadow tables) is rebuilt from its content
    listed = [r for r in source.execute("PRAGMA main.table_list")
              if r[2] == "table" and not r[1].startswith("sqlite_")
              and r[1] not in ("crossbook_meta", "_sqlite_migrations")]
    tables = [r[1] for r in listed]
    without_rowid = {r[1] for r in listed if r[4]}
    fts = [r[1] for r in source.execute("PRAGMA main.table_list") if r[2] == "virtual"]
    tables = [t for t in first if t in tables] + sorted(t for t in tables if t not in first)
    data = {}
    for table in tables:
        order = " ORDER BY kind = 'child', rowid" if table == "chunks" else "" if table in without_rowid else " ORDER BY rowid"
        data[table] = source.execute(f"SELECT * FROM {table}{order}").fetchall()
    source.close()
    target = open_db(target_dir, create=True).conn
    started = time.perf_counter()
    with target:
        for table, rows in data.items():
            if rows:
                target.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)
        for table in fts:  # the full-text index of the rows just copied, as ingest keeps it
            target.execute(f"INSERT INTO {table}({table}) VALUES ('rebuild')")
    return time.perf_counter() - started, sum(len(rows) for rows in data.values())


def bench_pipeline(megabytes: float) -> tuple[dict, dict]:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        books = generated_shelf(tmp / "shelf", megabytes)
        corpus_bytes = sum(p.stat().st_size for p in books)
        # half the shelf: peak RSS grows by what more books cost, not what any ingest loads
        half_bytes = sum(p.stat().st_size for p in generated_shelf(tmp / "half", megabytes / 2))
        baseline = run_child("--child-ingest", str(tmp / "half"), str(tmp / "half-index"))
        piped = run_child("--child-ingest", str(tmp / "shelf"), str(tmp / "index"))
        bare_s, rows = bare_copy_seconds(tmp / "index" / "crossbook.db", tmp / "bare")
    write_s = piped["phases_s"].get("write", 0.0)
    derive_s = piped["phases_s"].get("relation_normalize", 0.0)  # derived.refresh, inside the write
    pipeline = {
        "shelf_mb": round(corpus_bytes / 1e6, 2), "books": piped["books"], "rows": rows,
        "ingest_s": round(piped["total_s"], 2), "ingest_cpu_s": round(piped["total_cpu_s"], 2),
        "phases_s": {k: round(v, 2) for k, v in piped["phases_s"].items()},
        "bare_executemany_s": round(bare_s, 3),
        "write_over_bare": round(write_s / bare_s, 2),
        "storage_over_bare": round((write_s - derive_s) / bare_s, 2),
        "ingest_over_bare": round(piped["total_s"] / bare_s, 1),
        "target_write_over_bare": 3,
    }
    grown_kb = piped["peak_rss_kb"] - baseline["peak_rss_kb"]
    rss = {
        "shelf_mb": pipeline["shelf_mb"],
        "peak_rss_mb": round(piped["peak_rss_kb"] / 1024, 1),
        "half_shelf_mb": round(half_bytes / 1e6, 2),
        "half_shelf_peak_rss_mb": round(baseline["peak_rss_kb"] / 1024, 1),
        "growth_over_corpus": round(grown_kb * 1024 / (corpus_bytes - half_bytes), 2),
        "target_growth_over_corpus": 4,
    }
    return pipeline, rss


# -- a synthetic index of a million mentions ---------------------------------------------------

def synthetic_index(index_dir: Path, mentions: int, book_mentions: int, settle: bool = False,
                    relations: str = "off", seed: int = 11) -> list[str]:
    """An index of about ``mentions`` mentions in books of ``book_mentions`` each: every
    entity is defined once and referenced from other books. Written with bare SQL into the
    real schema; ``settle``: then one derived refresh, as an ingest leaves an index (linker
    references found, entities resolved). ``relations``: the index's relationship mode
    ("off": the offline analysis of every chunk would take hours at a million mentions).
    Returns the entities' names."""
    from crossbook.core.normalize import normalize_name
    from crossbook.core.packs import load_pack
    from crossbook.storage.db import open_db

    rng = random.Random(seed)
    books = max(2, mentions // book_mentions)
    per_entity = 20
    entity_names = names(rng, mentions // per_entity)
    chunks_per_book = max(1, book_mentions // 20)  # about 20 mentions per section
    db = open_db(index_dir, create=True)
    conn = db.conn
    conn.execute("PRAGMA synchronous = OFF")  # building the fixture: nothing to keep if it crashes
    with conn:
        conn.executemany("INSERT INTO crossbook_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                         [("pack", load_pack("generic").text), ("link", "1"), ("relations", relations)])
        conn.executemany(
            "INSERT INTO books (title, path, sha256, extractor, pack, model, ingested_at) VALUES (?, ?, ?, 'rules/2', 'generic', NULL, '2026-01-01')",
            [(f"Book {b:03d}", f"book{b:03d}.md", f"{b:064x}") for b in range(books)])
        entity_rows, mention_rows, chunk_text = [], [], {}
        for e, name in enumerate(entity_names, 1):
            normalized = normalize_name(name)
            entity_type = "spell" if e % 2 else "skill"
            entity_rows.append((e, name, normalized, entity_type))
            home = rng.randrange(books)
            for k in range(per_entity):
                b = home if k == 0 else rng.randrange(books)
                chunk = f"b{b}-p{rng.randrange(chunks_per_book)}"
                kind = "defines" if k == 0 else "references"
                context = f"{name} applies to the target."
                mention_rows.append((e, f"Book {b:03d}", chunk, kind, name, normalized, entity_type, context,
                                     "heading" if k == 0 else "linker"))
                chunk_text.setdefault(chunk, []).append(context)
        conn.executemany(
            "INSERT INTO chunks (id, book, kind, parent_id, ordinal, heading, heading_path, part, text, sha256, token_count)"
            " VALUES (?, ?, 'parent', NULL, ?, ?, ?, 0, ?, '', 0)",
            [(f"b{b}-p{c}", f"Book {b:03d}", c, f"Section {c}", f"Book {b:03d} > Section {c}",
              " ".join(chunk_text.get(f"b{b}-p{c}", ["Nothing here."])))
             for b in range(books) for c in range(chunks_per_book)])
        conn.executemany("INSERT INTO entities (id, name, normalized, entity_type) VALUES (?, ?, ?, ?)", entity_rows)
        conn.executemany(
            "INSERT INTO entity_mentions (entity_id, book, chunk_id, mention_type, name, normalized, declared_type, context, source)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", mention_rows)
    if settle:
        from crossbook.changes import derived

        with db.atomic():
            derived.rederive(db, load_pack("generic"))
    conn.execute("ANALYZE")
    conn.close()
    return entity_names


def median_seconds(call, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def bench_where_else(index_dir: Path, entity_names: list[str], mentions: int) -> dict:
    from crossbook.core.normalize import normalize_name
    from crossbook.query.lookup import WHERE_ELSE_SQL, where_else
    from crossbook.storage.db import open_db

    db = open_db(index_dir)
    sample = random.Random(3).sample(entity_names, 200)
    bare, library = [], []
    for name in sample:  # interleaved, name by name
        key = normalize_name(name)
        bare.append(median_seconds(lambda: db.conn.execute(WHERE_ELSE_SQL, [key]).fetchall(), 5))
        library.append(median_seconds(lambda: where_else(db, name), 5))
    plan = " / ".join(r[3] for r in db.conn.execute("EXPLAIN QUERY PLAN " + WHERE_ELSE_SQL, ["x"]))
    rows = statistics.median(len(db.conn.execute(WHERE_ELSE_SQL, [normalize_name(n)]).fetchall()) for n in sample)
    db.conn.close()
    return {"mentions": mentions, "names": len(sample), "rows_per_name": rows,
            "where_else_ms": round(statistics.median(library) * 1000, 3),
            "bare_select_ms": round(statistics.median(bare) * 1000, 3),
            "ratio": round(statistics.median(library) / statistics.median(bare), 2),
            "query_plan": plan, "target_ratio": 1.5}


def bench_delete_book(index_dir: Path, work: Path, book_mentions: int) -> dict:
    from crossbook.ingest.pipeline import delete_book
    from crossbook.storage.db import open_db

    title = "Book 000"
    count = sqlite3.connect(index_dir / "crossbook.db").execute(
        "SELECT count(*) FROM entity_mentions WHERE book = ?", [title]).fetchone()[0]
    copies = {}
    for name in ("bare", "library"):
        copies[name] = work / name
        shutil.copytree(index_dir, copies[name])
    bare_db = open_db(copies["bare"])
    started = time.perf_counter()
    with bare_db.conn:
        bare_db.conn.execute("DELETE FROM books WHERE title = ?", [title])
    bare_s = time.perf_counter() - started
    library_db = open_db(copies["library"])
    started = time.perf_counter()
    delete_book(library_db, title)
    library_s = time.perf_counter() - started
    left = [db.conn.execute("SELECT count(*) FROM entity_mentions WHERE book = ?", [title]).fetchone()[0]
            for db in (bare_db, library_db)]
    assert left == [0, 0], left
    return {"book_mentions": count, "delete_book_s": round(library_s, 3), "bare_delete_s": round(bare_s, 3),
            "ratio": round(library_s / bare_s, 2), "target_ratio": 2}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shelf-mb", type=float, default=1.0,
                        help="generated shelf for 'pipeline' (the issue asks 50 MB: 1 MB takes 25 s here, and the"
                             " relink after each book grows with the shelf)")
    parser.add_argument("--mentions", type=int, default=1_000_000)
    parser.add_argument("--book-mentions", type=int, default=100_000)
    parser.add_argument("--delete-index-mentions", type=int, default=200_000,
                        help="the index delete_book runs on (settled: a full relink costs minutes per million)")
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated: {', '.join(SECTIONS)}")
    parser.add_argument("--child-ingest", nargs=2, metavar=("SHELF", "INDEX"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_ingest:
        print(json.dumps(ingest_child(Path(args.child_ingest[0]), Path(args.child_ingest[1]))))
        return 0
    only = set(args.only.split(","))
    if "llm_calls" in only:
        figures = bench_llm_calls()
        print(f"LLM calls: first ingest {figures['first_ingest']} for {figures['parents']} parent chunks, "
              f"unchanged re-ingest {figures['unchanged']}, one-section edit {figures['one_section_edit']}")
        record("llm_calls", figures)
    if "pipeline" in only:
        pipeline, rss = bench_pipeline(args.shelf_mb)
        print(f"pipeline: {pipeline['shelf_mb']} MB, {pipeline['books']} books, {pipeline['rows']} rows; ingest "
              f"{pipeline['ingest_s']} s {pipeline['phases_s']}; bare executemany {pipeline['bare_executemany_s']} s; "
              f"write phase / bare {pipeline['write_over_bare']} (target <= 3; its inserts alone "
              f"{pipeline['storage_over_bare']}), whole ingest / bare {pipeline['ingest_over_bare']}")
        print(f"peak RSS: {rss['peak_rss_mb']} MB (half the shelf, {rss['half_shelf_mb']} MB: {rss['half_shelf_peak_rss_mb']} MB); "
              f"growth / corpus {rss['growth_over_corpus']} (target <= 4)")
        record("pipeline", pipeline)
        record("peak_rss", rss)
    if "where_else" in only:
        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            entity_names = synthetic_index(Path(tmp) / "index", args.mentions, args.book_mentions)
            print(f"synthetic index of {args.mentions} mentions: {time.perf_counter() - started:.1f} s")
            figures = bench_where_else(Path(tmp) / "index", entity_names, args.mentions)
        print(f"where-else at {args.mentions} mentions: {figures['where_else_ms']} ms, bare SELECT "
              f"{figures['bare_select_ms']} ms ({figures['rows_per_name']} rows): {figures['ratio']} (target <= 1.5)")
        record("where_else", figures)
    if "delete_book" in only:
        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            synthetic_index(Path(tmp) / "index", args.delete_index_mentions, args.book_mentions, settle=True)
            print(f"settled synthetic index of {args.delete_index_mentions} mentions: {time.perf_counter() - started:.1f} s")
            figures = bench_delete_book(Path(tmp) / "index", Path(tmp), args.book_mentions)
        figures["index_mentions"] = args.delete_index_mentions
        print(f"delete-book of {figures['book_mentions']} mentions (index of {args.delete_index_mentions}): "
              f"{figures['delete_book_s']} s, bare DELETE {figures['bare_delete_s']} s: {figures['ratio']} (target <= 2)")
        record("delete_book", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
