"""Print the seeded random samples of the Fate gold that GOLD.md reports as hand-checked:
100 definitions (the heading or entry line and the lines after it) and 100 cross-book
references (the text around the first occurrence in the referring book).

    python bench/fate/hand_check.py [--seed 8] [--size 100] [--what definitions|references]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from build_gold import book_text, find_mentions  # noqa: E402
from fate_text import read  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--what", choices=("definitions", "references"), default="definitions")
    args = parser.parse_args()
    gold = json.loads((HERE / "gold.json").read_text(encoding="utf-8"))
    rows = gold[args.what]
    picked = random.Random(args.seed).sample(range(len(rows)), min(args.size, len(rows)))
    for n, i in enumerate(picked, 1):
        row = rows[i]
        if args.what == "references":
            text, _ = book_text(row["book"])
            hits = find_mentions(row["names"], text)[:2]
            windows = [" ".join(text[max(0, h.start() - 110):h.end() + 60].split()) for h in hits]
            where = f"{row['book']}:{row['line']} ({row['occurrences']} occurrences)"
            print(f"{n:>3}. {where} {row['name']!r} <- {', '.join(row['defined_in'])}")
            for w in windows:
                print(f"     … {w} …")
            print()
            continue
        lines = read(row["book"]).splitlines()
        line = row["line"]
        context = " ⏎ ".join(l.strip() for l in lines[line - 1:line + 2] if l.strip())[:400]
        extra = f" <- defined in {', '.join(row['defined_in'])}" if args.what == "references" else f" [{row['kind']}] §{row['section']}"
        print(f"{n:>3}. {row['book']}:{line} {row['name']!r}{extra}\n     {context}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
