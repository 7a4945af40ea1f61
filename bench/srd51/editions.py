"""The 5.1 SRD in other editions: the same books as EPUB and as PDF, each typeset from the
Markdown by pandoc (the PDF through pdflatex, as a LaTeX-typeset rulebook is), and measured as
the Markdown shelf is: stated relationships (bench/eval_statblocks.py), definitions and kinds
(bench/srd51/eval_definitions.py), and the srd51 questions and template questions
(bench/eval_retrieval.py; their gold names a book and a quote, which survive the edition).

What it shows is whether the rules hold on a form they were not written against: a PDF has
no Markdown headings below its outline, an EPUB its own markup. Needs pandoc (EPUB) and
pdflatex (PDF, texlive-latex-recommended and lmodern); an edition whose tool is missing is one
line and skipped.

    python -m bench.srd51.editions [--out DIR] [--edition epub] [--edition pdf]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
import unicodedata
from pathlib import Path

from bench import eval_retrieval as R
from bench.common.relation_types import recall_by_type
from bench.common.rule_failures import report as report_failures
from bench.common.scoring import index_edges
from bench.eval_statblocks import GOLD, condition_scores
from bench.srd51 import eval_definitions as D
from bench.srd51.stated_gold import stated
from crossbook.core.config import load_settings
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db

ROOT = Path(__file__).resolve().parents[2]

# what pdflatex can set besides Latin-1 (the rest is spelled as its nearest Latin-1 form)
_SETTABLE = set("“”‘’–—…•×")
_SPELLED = {"\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u02bc": "’"}


def settable(text: str) -> str:
    """``text`` with the characters pdflatex's default fonts lack spelled in Latin-1."""
    out = []
    for char in text:
        if ord(char) < 256 or char in _SETTABLE:
            out.append(char)
        else:
            spelled = _SPELLED.get(char) or unicodedata.normalize("NFKD", char)
            out.append("".join(c for c in spelled if ord(c) < 256 or c in _SETTABLE))
    return "".join(out)


def build(edition: str, markdown: Path, out: Path) -> Path | None:
    """The edition's books in ``out/edition`` (built once), or None when its tool is missing."""
    tools = {"epub": ["pandoc"], "pdf": ["pandoc", "pdflatex"]}[edition]
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        print(f"{edition}: {', '.join(missing)} not installed, skipped")
        return None
    folder = out / edition
    folder.mkdir(parents=True, exist_ok=True)
    for book in sorted(markdown.glob("*.md")):
        target = folder / f"{book.stem}.{edition}"
        if target.is_file():
            continue
        source = book
        if edition == "pdf":  # what pdflatex's fonts can set
            source = out / "settable" / book.name
            source.parent.mkdir(parents=True, exist_ok=True)
            source.write_text(settable(book.read_text(encoding="utf-8")), encoding="utf-8")
        command = ["pandoc", "-f", "markdown", "-o", str(target), str(source), "--metadata", f"title={book.stem}"]
        if edition == "pdf":
            command += ["--pdf-engine=pdflatex", "-V", "geometry:margin=2cm"]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"{edition}: {book.name} failed ({done.stderr.strip().splitlines()[-1:]}), left out")
    return folder


def extraction(folder: Path, edition: str) -> None:
    """Stated relationships, creatures' conditions, definitions and kinds of one edition."""
    index = Path(tempfile.mkdtemp(prefix=f"crossbook-srd51-{edition}-"))
    job = IngestJob(open_db(index, create=True), load_settings({"index_dir": index}, {}, None))
    ingest_paths(job, sorted(folder.glob(f"*.{edition}")))
    edges = index_edges(job.db)
    conditions = condition_scores(edges, json.loads(GOLD.read_text(encoding="utf-8")))
    recall = recall_by_type(stated(D.shelf(), GOLD), edges)
    found, total = sum(f for f, _ in recall.values()), sum(t for _, t in recall.values())
    job.db.close()
    conn = D.open_index(str(index))
    s = D.scores(conn, D.gold(D.shelf()))
    print(f"{edition}: stated relationships {found}/{total} = {found / max(total, 1):.2f} "
          f"({', '.join(f'{k} {f}/{t}' for k, (f, t) in sorted(recall.items()))}); "
          f"creatures' conditions {conditions['found']}/{conditions['stated']}")
    print(f"{edition}: definitions precision {s['precision']:.3f}, recall {s['recall']:.3f}, "
          f"reference recall {s['ref_recall']:.3f}, listed kinds {s['typed']}/{s['kinds']}")


def retrieval(folder: Path, edition: str) -> None:
    """The srd51 questions and template questions (both halves) asked of one edition."""
    base = json.loads((ROOT / "bench" / "srd51" / "questions.json").read_text(encoding="utf-8"))
    books = [{"path": str((folder / b["path"]).with_suffix(f".{edition}")), "title": b["title"]} for b in base["books"]]
    titles = {b["path"]: b["title"] for b in base["books"]}
    for name in ("questions.json", "template_questions.json"):
        spec = json.loads((ROOT / "bench" / "srd51" / name).read_text(encoding="utf-8"))
        shelf = R.Shelf(f"srd51 {edition} edition", R.manifest_lines(books), [Path(b["path"]) for b in books],
                        spec["questions"], titles)
        index, _ = R.build_index(shelf, "local", True, Path(tempfile.mkdtemp()))
        run = R.ask(shelf, index, "local", 10, 2, "simple", latency_runs=1)
        parts = [("own", run)] if name == "questions.json" else R.halves(run)
        for label, part in parts:
            f = R.figures(part, 10)
            print(f"{edition}: {label} questions, second hop in the top 10: retrieve {f['recall'][1]:.1%}, "
                  f"search {f['recall'][0]:.1%}, MRR {f['mrr'][1]:.3f} ({f['questions']} questions)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "crossbook-srd51-editions")
    parser.add_argument("--edition", action="append", choices=("epub", "pdf"))
    args = parser.parse_args()
    markdown = D.shelf()
    for edition in args.edition or ["epub", "pdf"]:
        folder = build(edition, markdown, args.out)
        if folder is not None and not any(folder.glob(f"*.{edition}")):
            print(f"{edition}: no book could be typeset (see the lines above: a missing LaTeX package such as lmodern?),"
                  " skipped")
        elif folder is not None:
            extraction(folder, edition)
            retrieval(folder, edition)
            report_failures(f"srd51 {edition}")


if __name__ == "__main__":
    main()
