"""Print the seeded random samples of the Fate gold that GOLD.md reports as hand-checked:
100 definitions (the heading or entry line and the lines after it) and 100 cross-book
references (the text around the first occurrence in the referring book).

    python -m bench.fate.hand_check [--seed 8] [--size 100] [--what definitions|references]
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from bench.fate.build_gold import book_text, find_mentions
from bench.fate.fate_text import read

HERE = Path(__file__).resolve().parent


def sample_indexes(rows: list[dict], seed: int, size: int) -> list[int]:
    """A seeded sample that stays put when the gold changes elsewhere: the rows with the
    smallest hash of (seed, book, name)."""
    def rank(i: int) -> str:
        return hashlib.sha1(f"{seed}:{rows[i]['book']}:{rows[i]['name']}".encode()).hexdigest()
    return sorted(range(len(rows)), key=rank)[:size]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--what", choices=("definitions", "references"), default="definitions")
    parser.add_argument("--score", action="store_true",
                        help="tally the sample against hand_check_verdicts.json instead of printing it")
    args = parser.parse_args()
    gold = json.loads((HERE / "gold.json").read_text(encoding="utf-8"))
    rows = gold[args.what]
    picked = sample_indexes(rows, args.seed, args.size)
    if args.score:
        verdicts = json.loads((HERE / "hand_check_verdicts.json").read_text(encoding="utf-8"))[args.what]
        judged = [verdicts.get(f"{rows[i]['book']}|{rows[i]['name']}") for i in picked]
        right = sum(1 for v in judged if v and v["ok"])
        wrong = [(rows[i]["book"], rows[i]["name"], v["note"]) for i, v in zip(picked, judged) if v and not v["ok"]]
        print(f"{args.what}: {right} right, {len(wrong)} wrong, {judged.count(None)} not judged, of {len(picked)}")
        for book, name, note in wrong:
            print(f"  wrong: {book} {name!r}: {note}")
        return 0
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
        context = " ⏎ ".join(text.strip() for text in lines[line - 1:line + 2] if text.strip())[:400]
        extra = f" <- defined in {', '.join(row['defined_in'])}" if args.what == "references" else f" [{row['kind']}] §{row['section']}"
        print(f"{n:>3}. {row['book']}:{line} {row['name']!r}{extra}\n     {context}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
