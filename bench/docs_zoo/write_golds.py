"""Write the committed gold of the zoo's families whose package ships no list of what it
documents (Node.js, Boost's reference pages, Racket): each module's reader over the pages
its cap chooses, from the installed package, to ``bench/docs_zoo/golds/<family>.json``.

    python -m bench.docs_zoo.write_golds [--family nodejs ...] [--sample 30]

The golds are committed before any rule of the product is tuned on them; run this only to
see that the readers still give them (``git diff`` is empty) or when the packages change.
``--sample N`` prints a seeded sample of each gold (``random.seed(0)``) with the text of its
page around the anchor, to check by hand (``golds/handcheck.md`` holds the verdicts).
"""

from __future__ import annotations

import argparse
import random
import re
from html import unescape
from pathlib import Path

from bench.docs_zoo import family_boostbook, family_nodejs, family_scribble
from bench.docs_zoo.family_common import committed_gold, write_committed_gold

HERE = Path(__file__).resolve().parent


def nodejs() -> tuple[list, str]:
    module = family_nodejs
    return module.entries(module.ROOT, module.chosen_pages()), module.__doc__


def boostbook() -> tuple[list, str]:
    module = family_boostbook
    pages = sorted({p for listing in module.LIBRARIES.values() for p in module.chosen_pages(listing)})
    return module.entries(module.ROOT, pages), module.__doc__


def scribble() -> tuple[list, str]:
    module = family_scribble
    pages = [p for manual in module.MANUALS for p in module.chosen_pages(manual)]
    return module.entries(module.ROOT, pages), module.__doc__


READERS = {"nodejs": (nodejs, family_nodejs.ROOT), "boostbook": (boostbook, family_boostbook.ROOT),
           "scribble": (scribble, family_scribble.ROOT)}


def _rule(doc: str) -> str:
    """The module docstring's gold paragraphs, the rule the committed file states."""
    start = doc.index("Gold:")
    return " ".join(doc[start:].split())


def around(root: Path, page: str, anchor: str, width: int = 300) -> str:
    """The text of ``page`` from its anchor on, tags stripped: what a hand check reads."""
    html = (root / page).read_text(encoding="utf-8", errors="replace")
    at = max(html.find(f'id="{anchor}"'), html.find(f'name="{anchor}"'))
    if at < 0:
        return "(anchor not found)"
    start = max(html.rfind("<h", 0, at), html.rfind("<pre", 0, at), html.rfind("<table", 0, at), at - 600)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html[start:at + 6 * width])).split())[:width]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", action="append", choices=sorted(READERS))
    parser.add_argument("--sample", type=int, default=0, help="print N seeded entries of each committed gold")
    args = parser.parse_args()
    for family in args.family or sorted(READERS):
        reader, root = READERS[family]
        if args.sample:
            random.seed(0)
            for name, kind, page, anchor in random.sample(committed_gold(family), args.sample):
                print(f"{family} | {name} | {kind} | {page}#{anchor}\n    {around(root, page, anchor)}")
            continue
        if not root.is_dir():
            print(f"{family}: not installed, skipped")
            continue
        found, doc = reader()
        path = write_committed_gold(family, _rule(doc), found)
        print(f"{family}: {len(found)} entries on {len({e[2] for e in found})} pages -> {path.relative_to(HERE)}")


if __name__ == "__main__":
    main()
