"""A self-made ~300-page PDF: the PDF reader's own time and `crossbook ingest` of the PDF
against its Markdown twin (rules extractor, hash embedder so that embedding does not hide
the reading). Target: the PDF ingests in at most 1.5x the Markdown's time. Printed, never
asserted.

    python -m bench.bench_pdf [--pages 300]

The book is the Fate shelf's books concatenated up to about the page count asked, typeset by
bench/twins/pdf_twin.py (an outline by heading level, a running header, page numbers,
justified paragraphs, lists and tables).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.fate.fate_text import CORPUS as FATE
from bench.twins.pdf_twin import write_pdf
from crossbook.readers import read_book

ROOT = Path(__file__).resolve().parent.parent

CHARS_PER_PAGE = 3200  # the twin sets about this much Markdown on a Letter page


def ingest_seconds(index: Path, book: Path) -> float:
    env = {**os.environ, "CROSSBOOK_EMBEDDER": "hash", "CROSSBOOK_EXTRACTOR": "rules"}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "crossbook.cli.main", "--index", str(index), "--quiet", "ingest", str(book),
                    "--book", "Fate Shelf"], check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=300, help="About how many pages (default 300).")
    args = parser.parse_args()
    parts, size = [], 0
    for path in sorted(p for p in FATE.glob("*.md") if p.name.lower() != "readme.md"):
        text = path.read_text(encoding="utf-8")
        parts.append(text[: args.pages * CHARS_PER_PAGE - size])
        size += len(parts[-1])
        if size >= args.pages * CHARS_PER_PAGE:
            break
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        markdown = work / "fate-shelf.md"
        markdown.write_text("\n\n".join(parts), encoding="utf-8")
        pdf = write_pdf(markdown, work / "fate-shelf.pdf", "Fate Shelf")
        import pypdfium2

        pages = len(pypdfium2.PdfDocument(str(pdf)))
        start = time.perf_counter()
        book = read_book(pdf)
        reader = time.perf_counter() - start
        print(f"{pages} pages, {size / 1e6:.2f} MB of Markdown, {len(book.sections)} sections")
        print(f"PDF reader alone: {reader:.2f} s ({reader / pages * 1000:.1f} ms/page)")
        md_seconds = ingest_seconds(work / "md-index", markdown)
        pdf_seconds = ingest_seconds(work / "pdf-index", pdf)
        print(f"crossbook ingest: Markdown {md_seconds:.1f} s, PDF {pdf_seconds:.1f} s, "
              f"ratio {pdf_seconds / md_seconds:.2f}x (target <= 1.5x)")


if __name__ == "__main__":
    main()
