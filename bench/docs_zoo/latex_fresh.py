"""A fresh check set of LaTeX manuals: manuals of the zoo's two LaTeX packages
(texlive-latex-extra-doc, texlive-pictures-doc) that qualify as the zoo's do but that its cap
left out. No rule is tuned on them: they measure what the back-index reader does on manuals
nobody read.

    python -m bench.docs_zoo.latex_fresh [--zoo /work/zoo] [--misses] [--limit N]   # score the committed set
    python -m bench.docs_zoo.latex_fresh --draw                                      # draw it again (latex_fresh.json)

The draw (``draw``), made once and committed in ``latex_fresh.json``: every PDF the two
packages install, sorted by path, that qualifies by the zoo's rule (``assemble.latex_family``:
4 to ``LATEX_MAX_PAGES`` pages, its index giving at least 10 entries to the gold reader) and
that the zoo did not keep (its ``zoo.json``'s LaTeX members, links resolved); of those,
``COUNT`` drawn with ``random.seed(0)``, sorted by path. A manual whose index says its numbers
are code lines is marked so, as the zoo marks its own.

Scoring is the zoo's LaTeX scoring (``eval_zoo.latex_half``): each manual ingested as the
zoo's halves are (rules extractor, no vectors, relations off), each gold entry found as an
entity of its manual, and mentioned in a section on a page its index lists (a code-line
index: found only); per manual and in all.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from pathlib import Path

from bench.docs_zoo import families as F
from bench.docs_zoo.eval_zoo import latex_half, report_latex
from bench.docs_zoo.gold import code_line_index

HERE = Path(__file__).resolve().parent
FRESH = HERE / "latex_fresh.json"
COUNT = 40


def draw(zoo: Path) -> list[dict]:
    """The fresh set: every PDF the two packages install that qualifies by the zoo's rule
    (``assemble.latex_qualified``) and that the zoo did not keep, 40 drawn with random.seed(0),
    sorted by path; dicts of project, path, code_lines."""
    from bench.docs_zoo.assemble import latex_qualified

    kept = {str(Path(m["path"]).resolve()) for m in json.loads((zoo / "zoo.json").read_text())["members"]
            if m["family"] == "latex"}
    qualified = [pdf for pdf in latex_qualified()[0] if str(pdf.resolve()) not in kept]
    random.seed(0)
    drawn = sorted(random.sample(qualified, min(COUNT, len(qualified))))
    print(f"latex fresh: {len(qualified)} manuals qualify and were left out by the zoo's cap; {len(drawn)} drawn")
    return [{"project": pdf.stem, "path": str(pdf), "code_lines": code_line_index(pdf)} for pdf in drawn]


def report(result: dict, misses: bool) -> None:
    """The zoo's LaTeX lines for the fresh set (``eval_zoo.report_latex``), and how many manuals
    find under 0.90 of their entries."""
    print("latex fresh:")
    report_latex("fresh", result, misses)
    books = result["books"].values()
    print(f"           manuals under 0.90 found: {sum(f / max(t, 1) < 0.9 for f, _, t in books)} of {len(books)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--zoo", type=Path, default=F.DEFAULT_ZOO)
    parser.add_argument("--draw", action="store_true", help="draw the set again and write latex_fresh.json")
    parser.add_argument("--misses", action="store_true", help="print the missed entries")
    parser.add_argument("--limit", type=int, help="score only the first N manuals (the smoke lane)")
    args = parser.parse_args()
    if args.draw:
        drawn = draw(args.zoo)
        FRESH.write_text(json.dumps({"rule": " ".join(draw.__doc__.split()), "manuals": drawn}, indent=1,
                                    ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{len(drawn)} manuals -> {FRESH.name}")
        return
    members = [m for m in json.loads(FRESH.read_text(encoding="utf-8"))["manuals"] if Path(m["path"]).is_file()]
    if not members:
        print("latex fresh: none of its manuals is installed (texlive-latex-extra-doc, texlive-pictures-doc), skipped")
        return
    members = members[:args.limit] if args.limit else members
    with tempfile.TemporaryDirectory(prefix="crossbook-latex-fresh-") as tmp:
        report(latex_half(members, Path(tmp), "fresh"), args.misses)


if __name__ == "__main__":
    main()
