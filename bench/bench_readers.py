"""PDF, EPUB and HTML readers on twins of the shelves: how fast they read, and whether the
index answers where-else on a twin as on its Markdown original.

    python -m bench.bench_readers               # Fate shelf + sample corpus
    python -m bench.bench_readers --speed-only  # no ingest

Twins: bench/twins/pdf_twin.py (a LaTeX-like PDF: outline, running heads with the chapter's
title, page numbers, tables; `--format pdf2` the same in two columns),
bench/twins/epub_twin.py (pandoc-like EPUB 3) and an HTML page per book
(markdown-it-py's rendering inside site chrome). Speed: each reader's time on every book,
and on one large book (the whole Fate shelf as one file, ~1.4 MB of Markdown); ebooklib's
own read_epub on the same EPUB for comparison. Agreement: each shelf is ingested three times
(Markdown, EPUB, HTML; rules extractor, hash embedder); for every entity of the Markdown
index, where-else's (book, section, mention type) set on the twin is compared with it.
Printed, not asserted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from markdown_it import MarkdownIt

from bench.common.rule_failures import report as report_failures
from bench.fate.fate_text import CORPUS as FATE
from bench.twins.epub_twin import write_epub
from bench.twins.pdf_twin import write_pdf
from crossbook.chunk.markdown_repair import repair_headings
from crossbook.readers import read_book

ROOT = Path(__file__).resolve().parent.parent

SHELVES = {"fate": FATE, "sample": ROOT / "sample_corpus"}


def books_of(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.md") if p.name.lower() != "readme.md")


def write_html(markdown_path: Path, out_path: Path, title: str) -> Path:
    # as the EPUB twin: a broken conversion's '#>Title</h1>' lines read as headings first
    markdown, _ = repair_headings(markdown_path.read_text(encoding="utf-8"))
    body = MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown)
    out_path.write_text(f"<!DOCTYPE html><html><head><title>{title}</title><script>var x;</script></head>"
                        f"<body><nav><a href='/'>Home</a></nav><main>{body}</main></body></html>", encoding="utf-8")
    return out_path


def best_of(fn, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def speed(work: Path) -> None:
    big = work / "fate-shelf.md"
    big.write_text("\n\n".join(p.read_text(encoding="utf-8") for p in books_of(FATE)), encoding="utf-8")
    epub_path = write_epub(big, work / "fate-shelf.epub", "Fate Shelf")
    html_path = write_html(big, work / "fate-shelf.html", "Fate Shelf")
    pdf_path = write_pdf(big, work / "fate-shelf.pdf", "Fate Shelf")
    size = big.stat().st_size / 1e6
    from pypdf import PdfReader

    print(f"one large book as PDF: {len(PdfReader(pdf_path).pages)} pages")
    times = {fmt: best_of(lambda p=p: read_book(p), runs=1 if fmt == "pdf" else 3) for fmt, p in
             (("markdown", big), ("epub", epub_path), ("html", html_path), ("pdf", pdf_path))}
    print(f"one large book: {size:.2f} MB of Markdown; EPUB {epub_path.stat().st_size / 1e6:.2f} MB, "
          f"HTML {html_path.stat().st_size / 1e6:.2f} MB")
    for fmt, seconds in times.items():
        print(f"  {fmt:<9} read in {seconds * 1000:7.0f} ms ({size / seconds:5.1f} MB of text/s)")
    try:
        import warnings

        from ebooklib import epub

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            seconds = best_of(lambda: [item.get_content() for item in epub.read_epub(str(epub_path)).get_items()])
        print(f"  ebooklib.read_epub alone (no conversion): {seconds * 1000:.0f} ms")
    except ImportError:
        print("  (ebooklib not installed: pip install -e '.[dev]')")


def ingest(index: Path, paths: list[Path]) -> None:
    env = {**os.environ, "CROSSBOOK_EMBEDDER": "hash"}
    subprocess.run([sys.executable, "-m", "crossbook.cli.main", "--index", str(index), "--quiet", "ingest", *map(str, paths)],
                   check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)


def answers(index: Path) -> dict[str, set]:
    from crossbook.query.lookup import list_entities, where_else
    from crossbook.storage.db import open_db

    db = open_db(index)
    out = {}
    for entity in list_entities(db)["entities"]:
        result = where_else(db, entity["name"])
        out[entity["name"]] = {(e["entity_type"], g["book"], m["heading_path"], m["mention_type"])
                               for e in result["entities"] for g in e["books"] for m in g["mentions"]}
    return out


def agreement(work: Path, shelf: str, formats: tuple[str, ...] = ("epub", "html")) -> None:
    originals = books_of(SHELVES[shelf])
    folders = {fmt: work / f"{shelf}-{fmt}" for fmt in formats}
    for folder in folders.values():
        folder.mkdir()
    for original in originals:
        title = read_book(original).title
        if "epub" in folders:
            write_epub(original, folders["epub"] / f"{original.stem}.epub", title)
        if "html" in folders:
            write_html(original, folders["html"] / f"{original.stem}.html", title)
        if "pdf" in folders:
            write_pdf(original, folders["pdf"] / f"{original.stem}.pdf", title)
        if "pdf2" in folders:  # the same PDF twin set in two columns
            write_pdf(original, folders["pdf2"] / f"{original.stem}.pdf", title, columns=2)
    start = time.perf_counter()
    ingest(work / f"{shelf}-md-index", originals)
    md_seconds = time.perf_counter() - start
    base = answers(work / f"{shelf}-md-index")
    base_defines = {(n, *a) for n, s in base.items() for a in s if a[3] == "defines"}
    base_all = {(n, *a) for n, s in base.items() for a in s}
    print(f"{shelf}: {len(originals)} books, {len(base)} entities, {len(base_all)} mentions "
          f"(Markdown ingest {md_seconds:.1f} s)")
    for fmt, folder in folders.items():
        start = time.perf_counter()
        ingest(work / f"{shelf}-{fmt}-index", sorted(folder.iterdir()))
        seconds = time.perf_counter() - start
        twin = answers(work / f"{shelf}-{fmt}-index")
        same = sum(1 for name, found in base.items() if twin.get(name) == found)
        twin_all = {(n, *a) for n, s in twin.items() for a in s}
        twin_defines = {m for m in twin_all if m[4] == "defines"}
        print(f"  {fmt:<5} where-else identical for {same}/{len(base)} entities ({same / len(base):.1%}); "
              f"mentions shared {len(base_all & twin_all)}/{len(base_all | twin_all)} "
              f"(Jaccard {len(base_all & twin_all) / len(base_all | twin_all):.3f}); definitions recall "
              f"{len(base_defines & twin_defines) / len(base_defines):.3f}, precision "
              f"{len(base_defines & twin_defines) / max(1, len(twin_defines)):.3f}; ingest {seconds:.1f} s")
        missing = sorted(base_defines - twin_defines)[:3]
        extra = sorted(twin_defines - base_defines)[:3]
        if missing or extra:
            print(f"        e.g. lost {missing}; new {extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed-only", action="store_true", help="Measure reading speed only (no ingest).")
    parser.add_argument("--shelf", choices=sorted(SHELVES), action="append", help="Shelves to compare (default: both).")
    parser.add_argument("--format", choices=("pdf", "pdf2", "epub", "html"), action="append", dest="formats",
                        help="Twins to compare (default: pdf, epub, html; pdf2 is the PDF twin in two columns).")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        speed(work)
        if not args.speed_only:
            for shelf in args.shelf or ["sample", "fate"]:
                agreement(work, shelf, tuple(args.formats or ("pdf", "epub", "html")))
                report_failures(f"{shelf} (its PDF, EPUB and HTML twins)")


if __name__ == "__main__":
    main()
