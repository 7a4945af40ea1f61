"""Hostile input through the CLI: how long each case takes, how much memory, and the line it ends with.

    python -m bench.bench_hostile [--big]

Cases: an EPUB whose one chapter inflates to 300 MB (a few hundred KB on disk), with --big
also one with a 2 GiB member; a folder with two link loops (ingest --dry-run); a folder
with a note quoting %PDF-, a damaged PDF and two good books; and the hostile doc sets of
bench/common/hostile_docsets.py (inventories naming /dev/zero and a FIFO, hidden and linked-out inventory
files, an objects.inv bomb, a 20 MB rustdoc index, 20,000 entries on one page, odd folder
entries, separator-only tables), each checked for its pages stored and nothing from outside
the folder in the index or in what it prints. Each runs `crossbook ingest`
in a subprocess on a fresh index (hash embedder, relations off) and prints its wall time,
peak resident memory, exit code and its last stderr line. Nothing is asserted: the
targets (seconds, a few MB above the interpreter, one line) are printed beside them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common.hostile_books import streamed_epub
from bench.common.hostile_docsets import SECRET, all_cases

ROOT = Path(__file__).resolve().parent.parent
CROSSBOOK = ROOT / ".venv" / "bin" / "crossbook"
BOOK = "# Core Rules\n\n## Conditions\n\n### Chilled\nA Chilled creature loses 1 Speed.\n"
def bomb(path: Path, megabytes: int) -> Path:
    """An EPUB whose one chapter is ``megabytes`` MiB of one paragraph repeated."""
    paragraph = ("<p>" + "a" * 1017 + "</p>").encode()
    return streamed_epub(path, b"<html><body><h1>Boom</h1>", paragraph * 1024, megabytes, b"</body></html>")


def loops(folder: Path) -> Path:
    (folder / "sub").mkdir(parents=True)
    (folder / "a.md").write_text(BOOK, encoding="utf-8")
    os.symlink(".", folder / "loop1")
    os.symlink(".", folder / "loop2")
    return folder


def sniffing(folder: Path) -> Path:
    folder.mkdir()
    (folder / "a.md").write_text(BOOK, encoding="utf-8")
    (folder / "b.md").write_text(BOOK.replace("Core Rules", "Other Rules"), encoding="utf-8")
    (folder / "pdf-notes.md").write_text("# PDF Notes\n\n## Headers\n\nA PDF starts with %PDF-1.7.\n", encoding="utf-8")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\n truncated")
    return folder


def run(label: str, args: list[str], index: Path, target: str) -> str:
    env = {**os.environ, "CROSSBOOK_EMBEDDER": "hash", "CROSSBOOK_INDEX": str(index)}
    start = time.perf_counter()
    process = subprocess.Popen([str(CROSSBOOK), *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    stderr = process.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    last = (stderr.strip().splitlines() or [""])[-1]
    print(f"{label:<36} {seconds:6.2f} s  {usage.ru_maxrss / 1024:7.1f} MB peak  exit {os.waitstatus_to_exitcode(status)}"
          f"  (target: {target})\n    {last[:220]}")
    return stderr


def hostile_docsets(work: Path) -> None:
    """Each case of bench/common/hostile_docsets.py ingested (target: 60 s or less, 1 GB or less), then its
    sections counted and the index and the lines printed searched for what lies outside."""
    for n, case in enumerate(all_cases(work / "docsets")):
        index = work / f"d{n}"
        args = ["ingest", str(case.path), "--relations", "off"] + (["--as-book"] if case.path.is_dir() else [])
        stderr = run(case.label, args, index, f"60 s, 1 GB; {case.target}")
        books = subprocess.run([str(CROSSBOOK), "books", "--json"], capture_output=True, text=True,
                               env={**os.environ, "CROSSBOOK_EMBEDDER": "hash", "CROSSBOOK_INDEX": str(index)})
        sections = sum(book.get("sections", 0) for book in json.loads(books.stdout or "[]"))
        leaked = any(SECRET.encode() in path.read_bytes() for path in index.rglob("*") if path.is_file())
        told = SECRET in stderr or "/outside" in stderr or "/etc/" in stderr or "/dev/zero" in stderr
        print(f"    sections stored: {sections} (at least {case.pages}); from outside in the index: "
              f"{'YES' if leaked else 'no'}; in what it printed: {'YES' if told else 'no'}")


def refuse_in_process(epub: Path) -> None:
    """The reader alone: how long the refusal takes, without the interpreter's start."""
    import resource

    from crossbook.core.errors import BadInput
    from crossbook.readers import read_book

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    try:
        read_book(epub)
        outcome = "read (not refused)"
    except BadInput:
        outcome = "refused"
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    print(f"    in process: {outcome} in {(time.perf_counter() - start) * 1000:.1f} ms, peak memory +{grown / 1024:.1f} MB")


def main() -> None:
    big = "--big" in sys.argv
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        run("baseline: crossbook --version", ["--version"], work / "iv", "the interpreter's start")
        run("baseline: one small book", ["ingest", str(sniffing(work / "base") / "a.md"), "--relations", "off"],
            work / "i0", "the interpreter and imports")
        epub = bomb(work / "bomb300.epub", 300)
        print(f"(bomb300.epub: {epub.stat().st_size / 1024:.0f} KB on disk, one chapter of 300 MiB)")
        run("EPUB, a 300 MB chapter", ["ingest", str(epub)], work / "i1", "< 1 s, one line, a few MB over baseline")
        refuse_in_process(epub)
        if big:
            epub = bomb(work / "bomb2g.epub", 2048)
            print(f"(bomb2g.epub: {epub.stat().st_size / 1024:.0f} KB on disk, one member of 2 GiB)")
            run("EPUB, a 2 GiB member", ["ingest", str(epub)], work / "i2", "< 1 s, one line")
            refuse_in_process(epub)
        run("two link loops, --dry-run", ["ingest", str(loops(work / "loops")), "--dry-run"], work / "i3",
            "seconds, one book")
        run("bad book among good ones", ["ingest", str(sniffing(work / "shelf")), "--relations", "off"], work / "i4",
            "exit 1 naming broken.pdf; 3 books in the index")
        books = subprocess.run([str(CROSSBOOK), "books", "--json"], capture_output=True, text=True,
                               env={**os.environ, "CROSSBOOK_EMBEDDER": "hash", "CROSSBOOK_INDEX": str(work / "i4")})
        titles = [book["title"] for book in json.loads(books.stdout or "[]")]
        print(f"    books in the index: {len(titles)} {titles}")
        hostile_docsets(work)


if __name__ == "__main__":
    main()
