"""pypdf, pypdfium2 and pdfplumber on the PDF twins: which library should read PDFs?

    python -m bench.bench_pdf_libs                 # sample corpus + 3 Fate books
    python -m bench.bench_pdf_libs --fate-books 8  # the whole Fate shelf

For each library, on the twins bench/twins/pdf_twin.py writes (an outline, a running header,
page numbers, justified text, lists, tables):
- ms per page: plain text extraction of every page, best of 2 runs;
- words: share of the Markdown original's distinct words (lowercased, 3+ letters) found in
  the extracted text;
- names: share of the original's bold lead names (`**Name**` / `**Name:**`, the entries the
  rules extractor reads as definitions) found on one line of the text;
- hyphen joins: of the words the twin breaks across lines with a hyphen, the share the text
  gives with a hyphen at a line end (what the reader can join; `None` if none are broken);
- two columns: a page of numbered sentences in two columns, written across the page line by
  line; share of consecutive sentences that come out in order (1.0 = column by column);
- tables: a 4x6 table; share of rows whose cells come out in order on one line.
The last row is crossbook's reader itself (index/readers/pdf.py: the whole book, sections,
cleaning and Markdown included).
Needs the dev extras plus `pip install pypdfium2==5.15.2 pdfplumber==0.11.10`. Printed,
never asserted.
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path

from bench.fate.fate_text import CORPUS as FATE
from bench.twins.pdf_twin import write_pdf

ROOT = Path(__file__).resolve().parent.parent

_WORD = re.compile(r"[A-Za-z]{3,}")
_BOLD_LEAD = re.compile(r"^\s*(?:[-*]\s+)?\*\*([^*\n]{2,60}?)[:.]?\*\*", re.M)


def pypdf_pages(path: Path) -> list[str]:
    from pypdf import PdfReader

    return [page.extract_text() or "" for page in PdfReader(path).pages]


def pdfium_pages(path: Path) -> list[str]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    out = []
    for page in pdf:
        textpage = page.get_textpage()
        out.append(textpage.get_text_range().replace("\r\n", "\n").replace("\r", "\n"))
        textpage.close()
        page.close()
    pdf.close()
    return out


def plumber_pages(path: Path) -> list[str]:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def crossbook_text(path: Path) -> list[str]:
    """crossbook's PDF reader (pypdfium2's boxes, laid out): the whole book's Markdown."""
    from crossbook.readers import read_book

    return [read_book(path).text]


def page_count(path: Path) -> int:
    import pypdfium2 as pdfium

    return len(pdfium.PdfDocument(str(path)))


LIBRARIES = {"pypdf 7.1.1": pypdf_pages, "pypdfium2 5.15.2": pdfium_pages, "pdfplumber 0.11.10": plumber_pages,
             "crossbook reader (pypdfium2 boxes)": crossbook_text}


def two_column_pdf(path: Path, sentences: int = 40) -> Path:
    """A two-column page whose content stream goes across the page line by line (as some
    layout tools write it): reading it in stream order interleaves the columns."""
    from reportlab.lib.pagesizes import LETTER
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(str(path), pagesize=LETTER)
    canvas.setFont("Helvetica", 10)
    half = sentences // 2
    for row in range(half):
        y = LETTER[1] - 72 - row * 14
        canvas.drawString(72, y, f"Sentence S{row:03d} tells of the winding marsh road.")
        canvas.drawString(324, y, f"Sentence S{row + half:03d} tells of the stony hill road.")
    canvas.save()
    return path


def table_pdf(path: Path) -> tuple[Path, list[list[str]]]:
    from reportlab.lib.pagesizes import LETTER
    from reportlab.platypus import SimpleDocTemplate, Table

    rows = [["Name", "Cost", "Range", "Effect"]] + [[f"Spell{n}", f"{n} mana", f"{n * 10} ft", f"burns {n}d6"]
                                                  for n in range(1, 6)]
    SimpleDocTemplate(str(path), pagesize=LETTER).build([Table(rows)])
    return path, rows


def in_order(text: str, tokens: list[str]) -> float:
    """Share of consecutive tokens that come out one right after the other."""
    seen = sorted((text.find(t), t) for t in tokens if t in text)
    after = {a: b for (_, a), (_, b) in zip(seen, seen[1:])}
    return sum(1 for a, b in zip(tokens, tokens[1:]) if after.get(a) == b) / max(1, len(tokens) - 1)


def rows_on_one_line(text: str, rows: list[list[str]]) -> float:
    lines = text.splitlines()
    ok = 0
    for row in rows:
        for line in lines:
            at = [line.find(cell) for cell in row]
            if all(a >= 0 for a in at) and at == sorted(at):
                ok += 1
                break
    return ok / len(rows)


def hyphen_breaks(markdown: str, text: str) -> float | None:
    """Share of words broken as 'wo-\\nrd' in the text whose whole word is in the original."""
    words = set(w.lower() for w in _WORD.findall(markdown))
    broken = re.findall(r"([A-Za-z]+)-\s*\n\s*([a-z]+)", text)
    if not broken:
        return None
    return sum(1 for a, b in broken if (a + b).lower() in words) / len(broken)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fate-books", type=int, default=3, help="How many Fate books to include (default 3).")
    args = parser.parse_args()
    originals = sorted((ROOT / "sample_corpus").glob("*.md"))
    originals = [p for p in originals if p.name.lower() != "readme.md"]
    originals += sorted(p for p in FATE.glob("*.md") if p.name.lower() != "readme.md")[:args.fate_books]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        twins = [(md, write_pdf(md, work / f"{md.stem}.pdf", md.stem)) for md in originals]
        columns = two_column_pdf(work / "columns.pdf")
        table, rows = table_pdf(work / "table.pdf")
        print(f"{len(twins)} twins ({', '.join(md.stem for md, _ in twins)})")
        print("| library | ms/page | words | names | hyphen breaks kept | two columns | table rows |")
        print("|---|---|---|---|---|---|---|")
        for name, extract in LIBRARIES.items():
            pages = seconds = 0.0
            words_found = words_total = names_found = names_total = 0
            hyphen: list[float] = []
            for md, pdf in twins:
                best = float("inf")
                for _ in range(2):
                    start = time.perf_counter()
                    texts = extract(pdf)
                    best = min(best, time.perf_counter() - start)
                seconds += best
                pages += page_count(pdf)
                text = "\n".join(texts)
                joined = re.sub(r"(\w)-\s*\n\s*([a-z])", r"\1\2", text).replace("*", "").lower()
                markdown = md.read_text(encoding="utf-8")
                words = set(w.lower() for w in _WORD.findall(markdown))
                found = set(_WORD.findall(joined))
                words_found += len(words & found)
                words_total += len(words)
                lines = {" ".join(line.split()) for line in joined.splitlines()}
                flat = " ".join(joined.split())
                for lead in {m.group(1).strip().lower() for m in _BOLD_LEAD.finditer(markdown)}:
                    names_total += 1
                    lead = " ".join(re.sub(r"[*_`\\]", "", lead).split())
                    names_found += lead in flat and any(lead in line for line in lines)
                ratio = hyphen_breaks(markdown, text)
                if ratio is not None:
                    hyphen.append(ratio)
            column_text = "\n".join(extract(columns))
            table_text = "\n".join(extract(table))
            order = in_order(column_text, [f"S{n:03d}" for n in range(40)])
            hyphen_share = f"{sum(hyphen) / len(hyphen):.2f}" if hyphen else "none broken"
            print(f"| {name} | {seconds / pages * 1000:.1f} | {words_found / words_total:.3f} | "
                  f"{names_found / max(1, names_total):.3f} | {hyphen_share} | {order:.2f} | "
                  f"{rows_on_one_line(table_text, rows):.2f} |")


if __name__ == "__main__":
    main()
