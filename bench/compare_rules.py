"""Old and new extraction rules side by side: identical mentions on every development shelf.

The rules of a git revision (``--rev``, default the last commit before the rule contract)
are loaded beside today's: ``index/extract/rules.py`` and ``marks.py`` of that revision run
as modules of today's ``crossbook.extract`` package (their helpers are today's). Each shelf
is ingested once, offline (no vectors, no relationships); every book's ``book_mentions`` and
every chunk's ``NoteMarks.verify`` run both ways, and the mentions are compared field by
field (the rule a mention names is new, so it is left out). Prints per shelf the books, the
mentions and the differences (none expected), and the mentions per rule.

With ``--save FILE`` it writes every shelf's mentions (with their rules); ``--against FILE``
compares a later run with them too, which catches a change in the helpers both sides share
(a word list moved into a pack).

    python -m bench.compare_rules [--rev REV] [--shelf NAME ...] [--pages 40] [--save F] [--against F]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from bench.common.shelves import IRONSWORN
from bench.eval_docs import latex_shelf, man_shelf, python_shelf
from bench.fate.fate_text import BOOKS as FATE_BOOKS
from bench.fate.fate_text import CORPUS as FATE_CORPUS
from crossbook.core.config import load_settings
from crossbook.core.errors import CrossbookError
from crossbook.extract import marks as new_marks
from crossbook.extract import rules as new_rules
from crossbook.ingest.manifest import rebuild
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db

ROOT = Path(__file__).resolve().parent.parent

BEFORE = "c5933e1"  # the last commit before the rule contract
SRD51 = next((p for p in (ROOT / "corpora" / "srd51" / "markdown", ROOT.parent / "shared" / "corpora" / "srd51" / "markdown",
                          Path("/work/shared/corpora/srd51/markdown")) if p.is_dir()), None)
SHELVES = ("sample", "fate", "ironsworn", "srd51", "python", "manpages", "latex")


def old_module(rev: str, name: str):
    """``index/extract/<name>.py`` of ``rev``, run as a module of today's crossbook.extract."""
    source = subprocess.run(["git", "show", f"{rev}:index/extract/{name}.py"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout
    module_name = f"crossbook.extract._before_{name}"
    spec = importlib.util.spec_from_loader(module_name, loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "crossbook.extract"
    sys.modules[module_name] = module
    exec(compile(source, f"{rev}:index/extract/{name}.py", "exec"), module.__dict__)  # noqa: S102
    return module


def key(mention) -> tuple:
    return (mention.name, mention.entity_type, mention.mention_type, mention.context, mention.source, mention.aliases)


class SideBySide:
    """Patches today's book_mentions and NoteMarks.verify to run the old ones beside them."""

    def __init__(self, rev: str):
        self.old_rules, self.old_marks = old_module(rev, "rules"), old_module(rev, "marks")
        self.books = self.mentions = self.marked = 0
        self.differences: list[str] = []
        self.by_rule: Counter = Counter()
        self.stored: list[list] = []  # every verified mention of the shelf, for --save and --against

    def compare(self, where: str, old: list, new: list) -> None:
        if [key(m) for m in old] != [key(m) for m in new]:
            only_old = [key(m) for m in old if key(m) not in {key(n) for n in new}]
            only_new = [key(m) for m in new if key(m) not in {key(o) for o in old}]
            self.differences.append(f"{where}: old only {only_old[:3]}, new only {only_new[:3]}")

    def install(self) -> None:
        side, book_mentions = self, new_rules.book_mentions
        init, verify = new_marks.NoteMarks.__init__, new_marks.NoteMarks.verify

        def both_book_mentions(parents, pack, book, vetoes=None):
            new = book_mentions(parents, pack, book, vetoes)
            old = side.old_rules.book_mentions(parents, pack, book)
            side.books += 1
            for parent, old_found, new_found in zip(parents, old, new, strict=True):
                side.compare(f"{book} / {parent.heading}", old_found, new_found)
            return new

        def both_init(marks, pack, parents, extractions):
            init(marks, pack, parents, extractions)
            marks.before = side.old_marks.NoteMarks(pack, parents, extractions)

        def both_verify(marks, parent, mentions, chunk):
            new = verify(marks, parent, mentions, chunk)
            old = marks.before.verify(parent, mentions, chunk)
            side.compare(f"marks {parent.heading}", old.mentions, new.mentions)
            side.mentions += len(new.mentions)
            side.marked += sum(1 for m in new.mentions if m.source not in ("heading", "glossary", "deflist", "table")
                               or m.rule in ("page_subject", "doc_term"))
            side.by_rule.update(m.rule or "(none)" for m in new.mentions)
            side.stored.extend([parent.id, *key(m), m.rule] for m in new.mentions)
            return new

        new_rules.book_mentions = both_book_mentions
        new_marks.NoteMarks.__init__, new_marks.NoteMarks.verify = both_init, both_verify


def ingest(shelf: str, work: Path, pages: int) -> bool:
    settings = load_settings({"index_dir": work / shelf, "relations": "off"}, {},
                             ROOT / "sample_corpus" / "crossbook.toml" if shelf == "sample" else None)
    db = open_db(settings.index_dir, create=True)
    job = IngestJob(db, settings)
    try:
        if shelf == "sample":
            rebuild(job, ROOT / "sample_corpus" / "crossbook.toml")
        elif shelf == "fate":
            for file in FATE_BOOKS:
                ingest_paths(job, [FATE_CORPUS / file])
        elif shelf == "ironsworn":
            ingest_paths(job, [IRONSWORN], as_book=True)
        elif shelf == "srd51":
            if SRD51 is None:
                return False
            ingest_paths(job, [SRD51])
        else:
            found = {"python": python_shelf, "manpages": man_shelf, "latex": latex_shelf}[shelf](work / "src", pages)
            if not found:
                return False
            ingest_paths(job, found if isinstance(found, list) else [found], as_book=True)
    except CrossbookError as exc:
        print(f"{shelf}: ingest failed ({exc})", file=sys.stderr)
    finally:
        db.close()
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default=BEFORE)
    parser.add_argument("--shelf", action="append", choices=SHELVES)
    parser.add_argument("--pages", type=int, default=40, help="pages of the Python docs and man pages")
    parser.add_argument("--save", type=Path, help="write every shelf's mentions to this JSON file")
    parser.add_argument("--against", type=Path, help="compare every shelf's mentions with a --save file too")
    args = parser.parse_args()
    saved = json.loads(args.against.read_text(encoding="utf-8")) if args.against else {}
    stored = {}
    side = SideBySide(args.rev)
    side.install()
    failed = False
    print("| shelf | books | mentions | of them marks | differences |\n|---|---|---|---|---|")
    for shelf in args.shelf or SHELVES:
        side.books = side.mentions = side.marked = 0
        side.differences, side.stored = [], []
        with tempfile.TemporaryDirectory(prefix=f"crossbook-compare-{shelf}-") as tmp:
            (Path(tmp) / "src").mkdir()
            if not ingest(shelf, Path(tmp), args.pages):
                print(f"| {shelf} | not found | | | |")
                continue
        stored[shelf] = side.stored = json.loads(json.dumps(side.stored))
        if shelf in saved and saved[shelf] != side.stored:
            before, now = {tuple(m) for m in saved[shelf]}, {tuple(m) for m in side.stored}
            side.differences.append(f"against {args.against}: before only {sorted(before - now)[:3]}, "
                                    f"now only {sorted(now - before)[:3]}")
        print(f"| {shelf} | {side.books} | {side.mentions} | {side.marked} | {len(side.differences)} |")
        for line in side.differences[:10]:
            print(f"    {line}", file=sys.stderr)
        failed = failed or bool(side.differences)
    if args.save:
        args.save.write_text(json.dumps(stored), encoding="utf-8")
    print("\nmentions per rule, all shelves: " + ", ".join(f"{r} {n}" for r, n in side.by_rule.most_common()))
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
