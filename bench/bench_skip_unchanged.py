"""Benchmark: what skipping an unchanged book costs (index/ingest/unchanged.py).

Generates PDFs of many pages (reportlab) and a Markdown book, ingests them once (rules
extractor, the hash embedder into Chroma), then ingests them again unchanged, book by book,
twice: the way a run decides now (the file's size and time, then its hash, before reading)
and reading every book first as before (``load_books`` without the stored stamps). Prints
the seconds per unchanged book of each (target <= 0.3 s), and once more after ``touch``
(same bytes, new time: decided by the hash). Asserts nothing; ``record("skip_unchanged", ...)``
into bench/results.json.

Usage: python -m bench.bench_skip_unchanged [--pages 150] [--pdfs 3]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from bench.bench_growth import WORDS, invented
from bench.common.results import record
from crossbook.core.config import Settings
from crossbook.ingest.pipeline import IngestJob, ingest_books, ingest_paths, load_books
from crossbook.ingest.unchanged import stored_files
from crossbook.storage.db import open_db
from crossbook.vectors.chroma import open_vectors


def make_pdf(path: Path, pages: int, rng: random.Random) -> Path:
    from reportlab.lib.pagesizes import A5
    from reportlab.pdfgen import canvas

    pdf = canvas.Canvas(str(path), pagesize=A5)
    pdf.setTitle(f"Manual {path.stem}")
    for n in range(pages):
        y = 560
        if n % 3 == 0:
            pdf.setFont("Helvetica-Bold", 14)
            pdf.drawString(40, y, f"{n // 3 + 1}. {invented(rng, 2).capitalize()} {invented(rng, 3).capitalize()}")
            y -= 24
        pdf.setFont("Helvetica", 10)
        for _ in range(28):
            pdf.drawString(40, y, " ".join(rng.choices(WORDS, k=11)))
            y -= 18
        pdf.showPage()
    pdf.save()
    return path


def timed(job: IngestJob, paths: list[Path], fast: bool) -> list[float]:
    """Seconds per book to ingest each unchanged book on its own."""
    out = []
    for path in paths:
        t0 = time.perf_counter()
        if fast:
            results = ingest_paths(job, [path])
        else:  # as before: every book read before the index is asked
            results = ingest_books(job, load_books([path], None))
        out.append(time.perf_counter() - t0)
        assert results[0].status == "unchanged", results[0].status
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=150)
    parser.add_argument("--pdfs", type=int, default=3)
    parser.add_argument("--no-record", action="store_true", help="print only")
    args = parser.parse_args()
    rng = random.Random(13)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        paths = [make_pdf(tmp / f"manual{i}.pdf", args.pages, rng) for i in range(args.pdfs)]
        md = tmp / "notes.md"
        md.write_text("# Notes\n" + "".join(f"\n## Part {i}\n\n" + " ".join(rng.choices(WORDS, k=400)) + "\n"
                                            for i in range(200)), encoding="utf-8")
        paths.append(md)
        settings = Settings(index_dir=tmp / "index", embedder="hash")
        db = open_db(settings.index_dir, create=True)
        job = IngestJob(db, settings, vectors=open_vectors(settings, db, lazy=True))
        t0 = time.perf_counter()
        ingest_paths(job, paths)
        first = time.perf_counter() - t0
        assert len(stored_files(db)) == len(paths)
        read = timed(job, paths, fast=False)
        skipped = timed(job, paths, fast=True)
        for path in paths:
            os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 2_000_000_000))
        touched = timed(job, paths, fast=True)
        size_mb = sum(p.stat().st_size for p in paths) / 1e6
        print(f"{len(paths)} books ({args.pdfs} PDFs of {args.pages} pages, one Markdown book; {size_mb:.1f} MB), "
              f"first ingest {first:.1f} s")
        print(f"unchanged book, read first (before): {statistics.mean(read):.3f} s per book (max {max(read):.3f})")
        print(f"unchanged book, size and time decide: {statistics.mean(skipped):.3f} s per book "
              f"(max {max(skipped):.3f}; target <= 0.3)")
        print(f"unchanged book after touch, hash decides: {statistics.mean(touched):.3f} s per book "
              f"(max {max(touched):.3f})")
        if not args.no_record:
            record("skip_unchanged", {
                "books": len(paths), "pdf_pages": args.pages, "megabytes": round(size_mb, 2),
                "read_first_s": round(statistics.mean(read), 4), "skip_s": round(statistics.mean(skipped), 4),
                "skip_max_s": round(max(skipped), 4), "touched_s": round(statistics.mean(touched), 4),
            })


if __name__ == "__main__":
    main()
