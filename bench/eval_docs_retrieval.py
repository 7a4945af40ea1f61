"""Two-hop retrieval over documentation shelves: recall@k of the second-hop gold section,
plain ``search`` vs multi-hop ``retrieve``, with each miss's stage (as bench/eval_retrieval.py).

The shelves are the ones bench/eval_docs.py builds (40 pages of the Python 3.11 HTML
``library/`` and 40 git man pages rendered by pandoc, each ingested as one doc set with the
local embedder); the questions are bench/docs/questions.json: each needs a first-hop section
that names a documented thing (a function, a command, an option) the question never names,
and that thing's own section.

    python -m bench.eval_docs_retrieval [-k 10] [--verbose] [--embedder local] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from bench.eval_docs import man_shelf, python_shelf
from bench.eval_retrieval import Shelf, ask, build_index, report

ROOT = Path(__file__).resolve().parent.parent

QUESTIONS = ROOT / "bench" / "docs" / "questions.json"
BUILDERS = {"python": python_shelf, "manpages": man_shelf}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", type=int, default=10)
    parser.add_argument("--embedder", default="local")
    parser.add_argument("--hops", type=int, default=2)
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--keep", type=Path, help="build the shelves and indexes in this empty folder and keep them")
    args = parser.parse_args()
    spec = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="crossbook-docs-retrieval-") as tmp:
        work = args.keep or Path(tmp)
        for shelf_spec in spec["shelves"]:
            folder = BUILDERS[shelf_spec["shelf"]](work, args.pages)
            if folder is None:
                print(f"{shelf_spec['shelf']}: not installed, skipped")
                continue
            manifest = f'[[books]]\npath = "{folder}"\ntitle = "{shelf_spec["title"]}"\n'
            shelf = Shelf(shelf_spec["shelf"], manifest, [], shelf_spec["questions"], cacheable=False)
            index_dir, seconds = build_index(shelf, args.embedder, False, work)
            run = ask(shelf, index_dir, args.embedder, args.k, args.hops, "simple", 1)
            report(shelf, run, args.k, args.embedder, seconds, args.verbose)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
