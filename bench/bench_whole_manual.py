"""Benchmark: one whole manual ingested, phase by phase (wall and CPU seconds of each).

A manual of about 500k tokens (the zoo's pgfmanual, ~1,300 PDF pages, from Debian's
texlive-pictures-doc) with the offline defaults: the rules extractor, spaCy relations and
the local MiniLM embedder. Runs the pipeline in this process and times its phases by
wrapping the functions that do them: the PDF read, chunking (parents, then children sized
in the embedder's wordpieces), the rules extraction, the SQLite rows, linking, relations,
the embedding (MiniLM's compute apart from Chroma's writes). Prints when ``where-else``
could answer (the book's SQLite commit) and when ``search`` could (its vectors written),
counted from the start of the read; then the children as embedded (how many, their
wordpieces, the padding their batches carry, identical texts) and the embedder alone on a
fixed sample of them (chunks/s). Prints, asserts nothing; the machine is shared: read the
CPU seconds more than the wall seconds. CPU is the process's (onnxruntime's threads and the
thread that embeds ahead, index/vectors/ahead.py, included) and the calling thread's own.

    python -m bench.bench_whole_manual [PATH] [--embedder local] [--sample 512] [--read-cache FILE]

PATH defaults to pgfmanual.pdf where texlive-pictures-doc puts it. The figures before and after
the vectors computed beside the write (and onnxruntime without spinning threads) are in
docs/documentation.md, "A whole manual": on the busy machine of that round the write took 825 s
(relationships 787 s of it, linking 27 s), the embedding after the commit 460 s, the embedder
alone 51 -> 40 ms of CPU a chunk.
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from bench.common.results import record
from crossbook.changes import derived, door
from crossbook.core.config import Settings
from crossbook.ingest import pipeline
from crossbook.readers import read_book
from crossbook.relations import edges
from crossbook.storage.db import open_db
from crossbook.vectors import chroma, minilm
from crossbook.vectors.children import child_rows, embedding_text

ROOT = Path(__file__).resolve().parent.parent

MANUAL = Path("/usr/share/doc/texlive-doc/generic/pgf/pgfmanual.pdf")
CACHE = Path.home() / ".cache" / "crossbook" / "models"


class Clock:
    """Wall and CPU seconds spent in each named phase (a phase entered inside another is
    counted in both), and when each phase was last left, from the start."""

    def __init__(self) -> None:
        self.start_wall, self.start_cpu = time.perf_counter(), time.process_time()
        # wall, CPU of the process (onnxruntime's threads and the thread embedding ahead included),
        # CPU of the calling thread
        self.spent: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
        self.left: dict[str, float] = {}

    def timed(self, name: str, call):
        def wrapper(*args, **kwargs):
            wall, cpu, own = time.perf_counter(), time.process_time(), time.thread_time()
            try:
                return call(*args, **kwargs)
            finally:
                spent = self.spent[name]
                spent[0] += time.perf_counter() - wall
                spent[1] += time.process_time() - cpu
                spent[2] += time.thread_time() - own
                self.left[name] = time.perf_counter() - self.start_wall
        return wrapper

    def patch(self, owner, attribute: str, name: str) -> None:
        setattr(owner, attribute, self.timed(name, getattr(owner, attribute)))


def instrument(clock: Clock) -> None:
    """Wrap the functions each phase runs (module attributes, as the pipeline looks them up)."""
    clock.patch(pipeline, "parent_chunks", "chunk: parents")
    splitter = pipeline.child_splitter
    pipeline.child_splitter = lambda *a, **k: clock.timed("chunk: children (wordpieces)", splitter(*a, **k))
    clock.patch(pipeline, "_extraction_run", "extract (rules)")
    clock.patch(pipeline, "_verify", "verify mentions")
    clock.patch(pipeline, "load_parser", "load spaCy")
    clock.patch(door.Door, "_write_book", "write transaction (all)")
    clock.patch(door, "store_rows", "write: SQLite rows")
    clock.patch(derived, "relink_chunks", "write: linking")
    clock.patch(edges, "refresh", "write: relations")
    clock.patch(derived, "gc_entities", "write: entity GC")
    clock.patch(door.Door, "_follow", "embed phase (all)")
    clock.patch(chroma, "embed_all", "embed: MiniLM compute")
    clock.patch(chroma.VectorStore, "stored", "embed: read stored vectors")


def read(clock: Clock, path: Path, cache: Path | None):
    """The book read (timed), or taken from ``cache`` (a pickle of an earlier read: its time
    is then not counted) and written there when it is not yet."""
    if cache is not None and cache.exists():
        return pickle.loads(cache.read_bytes())
    book = clock.timed("read", read_book)(path)
    if cache is not None:
        cache.write_bytes(pickle.dumps(book))
    return book


def ingest(path: Path, embedder: str, index: Path, cache: Path | None = None) -> tuple[Clock, object, str]:
    clock = Clock()
    instrument(clock)
    book = read(clock, path, cache)
    settings = Settings(index_dir=index, model_cache=CACHE, embedder=embedder)
    db = open_db(index, create=True)
    with chroma.open_vectors(settings, db, lazy=True) as vectors:
        job = pipeline.IngestJob(db, settings, vectors=vectors)
        results = pipeline.ingest_books(job, [(book, book.title)])
    clock.left["total"] = time.perf_counter() - clock.start_wall
    clock.spent["total"] = [clock.left["total"], time.process_time() - clock.start_cpu, float("nan")]
    return clock, db, results[0].title


def print_phases(clock: Clock) -> dict:
    print(f"{'phase':<34}{'wall s':>9}{'CPU s':>9}{'its thread':>12}")
    figures = {}
    for name, (wall, cpu, own) in clock.spent.items():
        print(f"  {name:<32}{wall:>9.1f}{cpu:>9.1f}{own:>12.1f}")
        figures[name] = {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "thread_cpu_s": round(own, 1)}
    where_else = clock.left.get("write transaction (all)", 0.0)
    search = clock.left.get("embed phase (all)", where_else)
    print(f"where-else answers at {where_else:.0f} s (the book's SQLite commit), "
          f"search at {search:.0f} s (its vectors written), from the start of the read")
    figures["where_else_ready_s"], figures["search_ready_s"] = round(where_else), round(search)
    return figures


def padded(lengths: list[int], call: int, inference: int, sort_all: bool) -> int:
    """Wordpieces the model runs when ``lengths`` go in calls of ``call`` texts, each sorted
    and run ``inference`` at a time, padded to the longest of each batch."""
    total = 0
    calls = [sorted(lengths, reverse=True)] if sort_all else [lengths[s:s + call] for s in range(0, len(lengths), call)]
    for chunk in calls:
        ordered = sorted(chunk, reverse=True)
        total += sum(max(ordered[s:s + inference]) * len(ordered[s:s + inference])
                     for s in range(0, len(ordered), inference))
    return total


def children_figures(db, title: str) -> tuple[dict, list[str]]:
    rows = child_rows(db, title)
    texts = [embedding_text(r) for r in rows]
    model = minilm.load(CACHE)
    lengths = [len(e.ids) for e in model.tokenizer.encode_batch(texts)]
    repeats = Counter(hashlib.sha256(t.encode()).hexdigest() for t in texts)
    figures = {"children": len(texts), "wordpieces": sum(lengths), "mean_wordpieces": round(statistics.mean(lengths), 1),
               "at_window": sum(n >= model.max_tokens for n in lengths),
               "identical_texts_beyond_first": sum(n - 1 for n in repeats.values()),
               "padded_wordpieces_per_call": padded(lengths, 256, 32, False),
               "padded_wordpieces_sorted_all": padded(lengths, 256, 32, True)}
    print(f"children: {figures['children']}, {figures['wordpieces']} wordpieces embedded "
          f"(mean {figures['mean_wordpieces']}, {figures['at_window']} at the window's 256), "
          f"{figures['identical_texts_beyond_first']} identical texts beyond their first")
    print(f"padding: batches sorted per call of 256 run {figures['padded_wordpieces_per_call']} wordpieces, "
          f"sorted over the whole book {figures['padded_wordpieces_sorted_all']}")
    return figures, texts


def embedder_alone(texts: list[str], sample: int) -> dict:
    """The local embedder on a fixed sample of the children (every k-th), as the pipeline calls it."""
    from crossbook.vectors.embed import LocalEmbedder, embed_all

    step = max(1, len(texts) // sample)
    chosen = texts[::step][:sample]
    embedder = LocalEmbedder(CACHE)
    embedder.embed(["warm up"])
    wall, cpu = time.perf_counter(), time.process_time()
    embed_all(embedder, chosen)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"embedder alone: {len(chosen)} children in {wall:.1f} s wall, {cpu:.1f} s CPU: "
          f"{len(chosen) / wall:.1f} chunks/s ({cpu / len(chosen) * 1000:.0f} CPU ms per chunk)")
    return {"sample": len(chosen), "chunks_per_s": round(len(chosen) / wall, 1),
            "cpu_ms_per_chunk": round(cpu / len(chosen) * 1000)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=MANUAL)
    parser.add_argument("--embedder", default="local", help="local (default), local-int8, hash")
    parser.add_argument("--sample", type=int, default=512, help="children the embedder embeds alone")
    parser.add_argument("--keep", type=Path, help="build the index here and keep it")
    parser.add_argument("--read-cache", type=Path,
                        help="a pickle of the book as read: written by the first run, reused (the read not timed) by the next")
    args = parser.parse_args()
    if not args.path.exists():
        print(f"{args.path} not found (apt-get install texlive-pictures-doc, or name a manual)")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        index = args.keep or Path(tmp) / "index"
        clock, db, title = ingest(args.path, args.embedder, index, args.read_cache)
        figures = {"book": str(args.path), "embedder": args.embedder, "phases": print_phases(clock)}
        figures["children"], texts = children_figures(db, title)
        figures["embedder_alone"] = embedder_alone(texts, args.sample)
    record("whole_manual", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
