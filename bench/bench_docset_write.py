"""Benchmark: a real doc set ingested as a user does, phase by phase (wall and CPU seconds).

Runs ``crossbook ingest FOLDER --events -`` in a child process with the defaults a new user
gets (the rules extractor, the default relations and embedder; ``--embedder`` and
``--relations`` change them) and follows its events as they come: at each event it notes the
wall seconds since the start and the child's CPU seconds (``/proc/PID/stat``: every thread's,
onnxruntime's and the embedding-ahead thread's included). From them it prints:

- each step's wall and CPU seconds, from its ``phase.start`` to its ``phase.done`` (and the
  time before the first event: the process's start, the walk and the read when no ``read``
  phase reports it). Steps nest: ``write`` is the book's one transaction, and
  ``relation_normalize`` inside it is the derived state's refresh at its end, which holds
  ``link`` and ``relations`` (so ``write`` is about ``relation_normalize`` plus storing the rows);
- when ``where-else`` could answer (the first book's SQLite commit: its ``write`` step's
  ``phase.done``, told as the transaction ends, which commits at once), when it could for every
  book (the last book's), and when ``search`` could (every vector written: the last
  ``vectors`` step's end; a run of several books stores them in a thread, behind the next
  book's write), counted from the start of the process;
- each step's CPU seconds of the child's main thread alone (``/proc/PID/task/PID/stat``): the
  process's count the embedding threads' too, which run beside the main thread's steps; at the
  end, the main thread's CPU, the other threads' (the embedding, Chroma's writes) and that per
  child, with the result's counts of the first book and summed over every book;
- the peak resident memory of the child (``wait4``'s ``ru_maxrss``), and each step's: the
  child's resident memory (``/proc/PID/status``'s VmRSS) sampled at every event and every
  ``SAMPLE_S`` seconds between them, the highest sample credited to the steps open then;
- the progress lines it printed on stderr (off a terminal), and how many of them show only
  elapsed seconds with no count.

The stand-ins (``--set``):

- ``ghc-base``: ghc-doc's ``base`` library as Debian installs it
  (/usr/share/doc/ghc-doc/html/libraries/base-4.15.1.0): 514 HTML pages, 263 module pages and
  251 hyperlinked source pages, 42 MB, written by Haddock;
- ``ghc-800``: 800 Haddock pages of ghc-doc's libraries, the issue's "about 800 pages of
  Haddock" (``base`` alone has 263 read pages): the module and index pages (none under a
  ``src/`` folder, the hyperlinked sources a reader skips; none outside a library folder) of every library folder of
  /usr/share/doc/ghc-doc/html/libraries but ``ghc`` (a link to ``ghc-9.0.2``), by their path
  sorted bytewise, the first 800 (``Cabal-3.4.1.0/`` to ``ghc-9.0.2/``'s first 91: Cabal,
  array, base, binary, bytestring, containers, deepseq, directory, exceptions, filepath),
  copied at their paths into a cache folder like the boost slice's;
- ``boost``: a fixed slice of libboost1.81-doc's BoostBook reference pages (DocBook XSL):
  the first 1,200 ``.html`` files under /usr/share/doc/libboost1.81-doc/doc/html/boost, by
  their path sorted bytewise (``boost/CV/constrained_value.html`` to
  ``boost/intrusive/hashtable_defaults.html``, 18 MB), copied at their paths below ``boost/``
  into a cache folder (~/.cache/crossbook-bench), which is the folder ingested;
- any folder's path.

``--pages N`` takes every k-th page of the set instead, N of them (the smoke lane's small run). Prints
and records (bench/results.json, ``docset_write``), asserts nothing; the machine is shared:
read the CPU seconds more than the wall seconds, and note ``uptime``'s load beside them.

    python -m bench.bench_docset_write --set ghc-base [--embedder local] [--relations auto] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.common.results import record

ROOT = Path(__file__).resolve().parents[1]
GHC_BASE = Path("/usr/share/doc/ghc-doc/html/libraries/base-4.15.1.0")
GHC_LIBRARIES = GHC_BASE.parent
GHC_PAGES = 800
BOOST_HTML = Path("/usr/share/doc/libboost1.81-doc/doc/html")
BOOST_PAGES = 1200
CACHE = Path.home() / ".cache" / "crossbook-bench"
TICK = os.sysconf("SC_CLK_TCK")
SAMPLE_S = 0.1  # seconds between two samples of the child's resident memory
# the events that mark no step (one per relationship or candidate)
NOISE = ("relation.candidate", "relation.normalized")


def html_pages(folder: Path) -> list[Path]:
    """The folder's ``.html`` files, relative to it, sorted bytewise by path."""
    return sorted((p.relative_to(folder) for p in folder.rglob("*.html") if p.is_file()), key=lambda p: str(p).encode())


def copied(source: Path, pages: list[Path], name: str) -> Path:
    """``pages`` of ``source`` copied at their paths under the cache folder ``name`` (kept)."""
    target = CACHE / name
    if target.is_dir() and len(html_pages(target)) == len(pages):
        return target
    shutil.rmtree(target, ignore_errors=True)
    for page in pages:
        (target / page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / page, target / page)
    return target


def spread(pages: list[Path], wanted: int | None) -> list[Path]:
    """Every k-th of ``pages`` so that ``wanted`` are kept (all when None)."""
    if wanted is None or wanted >= len(pages):
        return pages
    return pages[::max(1, len(pages) // wanted)][:wanted]


def doc_set(name: str, pages: int | None) -> Path | None:
    """The folder of the stand-in ``name`` (or a path), every k-th of its pages so that
    ``pages`` are kept when given; None when its package is not installed."""
    if name == "ghc-base":
        if not GHC_BASE.is_dir():
            return None
        return GHC_BASE if pages is None else copied(GHC_BASE, spread(html_pages(GHC_BASE), pages), f"ghc-base-{pages}")
    if name == "ghc-800":
        if not GHC_BASE.is_dir():
            return None
        modules = [p for p in html_pages(GHC_LIBRARIES) if len(p.parts) > 1 and p.parts[0] != "ghc" and "src" not in p.parts[1:-1]]
        chosen = spread(modules[:GHC_PAGES], pages)
        return copied(GHC_LIBRARIES, chosen, f"ghc-libraries-{len(chosen)}")
    if name == "boost":
        if not (BOOST_HTML / "boost").is_dir():
            return None
        chosen = spread(html_pages(BOOST_HTML / "boost")[:BOOST_PAGES], pages)
        # the folder given is the slice's boost/, as a user names the reference's folder
        return copied(BOOST_HTML / "boost", chosen, f"boost-slice-{len(chosen)}")
    path = Path(name)
    if pages is None or not path.is_dir():
        return path if path.exists() else None
    return copied(path, spread(html_pages(path), pages), f"{path.name}-{pages}")


def cpu_seconds(pid: int, thread: int | None = None) -> float:
    """The process's user and system CPU seconds (every thread's), from /proc; with
    ``thread``, that thread's alone (``thread=pid``: the main thread's)."""
    where = f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat"
    try:
        fields = Path(where).read_text().rpartition(")")[2].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_mb(pid: int) -> float:
    """The process's resident memory now (VmRSS), in MB; 0 once it has ended."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class Run:
    """One ingest in a child process, followed event by event."""

    def __init__(self, folder: Path, index: Path, embedder: str | None, relations: str | None,
                 crossbook: Path = ROOT / ".venv" / "bin" / "crossbook"):
        self.command = [str(crossbook), "--index", str(index), "ingest", str(folder), "--events", "-"]
        self.command += ["--embedder", embedder] if embedder else []
        self.command += ["--relations", relations] if relations else []
        self.marks: list[tuple[float, float, float, dict]] = []  # (wall s, CPU s, main thread's CPU s, event)
        self.main_cpu = 0.0  # the main thread's CPU seconds at the last line it wrote
        self.progress: list[tuple[float, str]] = []
        self.result: dict | None = None
        self.live = False  # print each step's event as it comes
        self.open_steps: list[str] = ["before the first event"]
        self.step_rss: dict[str, float] = {}  # step -> the highest RSS sampled while it was open, MB

    def go(self) -> tuple[int, int]:
        """Runs it; returns (exit status, peak RSS in KB)."""
        env = {**os.environ, "COLUMNS": "200"}
        start = time.perf_counter()
        child = subprocess.Popen(self.command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        lines = threading.Thread(target=self._stderr, args=(child, start), daemon=True)
        lines.start()
        done = threading.Event()
        sampler = threading.Thread(target=self._sample, args=(child.pid, done), daemon=True)
        sampler.start()
        try:
            self._follow(child, start)
        except BaseException:
            child.kill()  # this script stopped (Ctrl-C): its ingest does not run on alone
            raise
        finally:
            done.set()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        self.total = (time.perf_counter() - start, usage.ru_utime + usage.ru_stime)
        lines.join()
        return child.returncode, usage.ru_maxrss

    def _sample(self, pid: int, done: threading.Event) -> None:
        while not done.wait(SAMPLE_S):
            self._note_rss(pid)

    def _note_rss(self, pid: int) -> None:
        rss = rss_mb(pid)
        for step in list(self.open_steps):
            self.step_rss[step] = max(self.step_rss.get(step, 0.0), rss)

    def _follow(self, child, start: float) -> None:
        assert child.stdout is not None
        for line in child.stdout:
            wall, cpu = time.perf_counter() - start, cpu_seconds(child.pid)
            self.main_cpu = cpu_seconds(child.pid, child.pid)
            self._note_rss(child.pid)
            try:
                event = json.loads(line)
            except ValueError:
                continue
            kind, phase = event.get("event"), event.get("phase")
            if kind == "phase.start":
                self.open_steps = [s for s in self.open_steps if s not in ("before the first event", "between steps")] + [phase]
            elif kind == "phase.done" and phase in self.open_steps:
                self.open_steps = [s for s in self.open_steps if s != phase] or ["between steps"]
            if event.get("event") == "result":
                self.result = event
            elif event.get("event") not in NOISE:
                self.marks.append((wall, cpu, self.main_cpu, event))
                if self.live and event.get("event") != "phase.progress":
                    print(f"  [{wall:7.1f} s, CPU {cpu:7.1f} s] {event.get('event')} {event.get('phase', '')}", flush=True)

    def _stderr(self, child, start: float) -> None:
        for line in child.stderr:
            self.progress.append((time.perf_counter() - start, line.rstrip("\n")))


def steps(run: Run) -> dict[str, list[float]]:
    """Each step's [wall s, CPU s, main thread's CPU s]: from its phase.start to its phase.done
    (a step seen twice is summed), and ``before the first event`` (start-up, walk, read). The
    process's CPU counts every thread: a step of the main thread (read, link...) also holds
    what the embedding threads computed beside it meanwhile; its main thread's CPU does not."""
    out: dict[str, list[float]] = {}
    if run.marks:
        out["before the first event"] = list(run.marks[0][:3])
    open_: dict[str, tuple[float, float, float]] = {}
    for wall, cpu, main_cpu, event in run.marks:
        phase = event.get("phase")
        if event.get("event") == "phase.start":
            open_[phase] = (wall, cpu, main_cpu)
        elif event.get("event") == "phase.done" and phase in open_:
            began = open_.pop(phase)
            spent = out.setdefault(phase, [0.0, 0.0, 0.0])
            for i, now in enumerate((wall, cpu, main_cpu)):
                spent[i] += now - began[i]
    return out


def ready(run: Run) -> tuple[float | None, float | None, float | None]:
    """(where-else, where-else for every book, search): the wall seconds of the first book's
    write step ending (its transaction commits then), of the last book's, and of the last
    vectors step ending (every vector written)."""
    written = [w for w, _, _, e in run.marks if e.get("event") == "phase.done" and e.get("phase") == "write"]
    ends = [w for w, _, _, e in run.marks if e.get("event") == "phase.done" and e.get("phase") in ("embed", "vectors")]
    return (written[0] if written else None), (written[-1] if written else None), (ends[-1] if ends else None)


def elapsed_only(lines: list[tuple[float, str]]) -> list[str]:
    """The progress lines that show a phase by its elapsed seconds alone, no count in them."""
    return [text for _, text in lines if text.endswith(" s)") and "/" not in text.rpartition("(")[0]]


def report(run: Run, status: int, peak_kb: int, folder: Path) -> dict:
    print(f"doc set: {folder} ({len(html_pages(folder))} HTML pages); exit {status}")
    print(f"{'step':<28}{'wall s':>9}{'CPU s':>9}{'main s':>9}{'peak RSS MB':>13}")
    figures: dict = {"folder": str(folder), "pages": len(html_pages(folder)), "exit": status, "steps": {}}
    for name, (wall, cpu, main_cpu) in steps(run).items():
        rss = run.step_rss.get(name, float("nan"))
        print(f"  {name:<26}{wall:>9.1f}{cpu:>9.1f}{main_cpu:>9.1f}{rss:>13.0f}")
        figures["steps"][name] = {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
                                  "main_thread_cpu_s": round(main_cpu, 1), "peak_rss_mb": round(rss)}
    if "between steps" in run.step_rss:
        print(f"  {'between steps':<26}{'':>18}{run.step_rss['between steps']:>13.0f}")
    where_else, every_book, search = ready(run)
    print(f"  {'total':<26}{run.total[0]:>9.1f}{run.total[1]:>9.1f}{run.main_cpu:>9.1f}")
    print(f"where-else answers at {where_else or float('nan'):.0f} s (every book at {every_book or float('nan'):.0f} s), "
          f"search at {search or float('nan'):.0f} s (from the start of the process); peak RSS {peak_kb / 1024:.0f} MB")
    figures.update(total_wall_s=round(run.total[0], 1), total_cpu_s=round(run.total[1], 1),
                   where_else_s=where_else and round(where_else), where_else_every_book_s=every_book and round(every_book),
                   search_s=search and round(search), peak_rss_mb=round(peak_kb / 1024))
    if run.result is not None:
        figures.update(books_figures(run))
    bare = elapsed_only(run.progress)
    print(f"progress: {len(run.progress)} lines on stderr, {len(bare)} with elapsed seconds and no count")
    for _, text in run.progress[:4] + run.progress[-4:]:
        print(f"  | {text}")
    for text in bare[:5]:  # what a phase told by its seconds alone says: the line to fix
        print(f"  | no count: {text}")
    figures["progress_lines"], figures["elapsed_only_lines"] = len(run.progress), len(bare)
    return figures


def books_figures(run: Run) -> dict:
    """The result's counts, of the first book and summed over every book, and the CPU the
    threads other than the main one spent (the embedding, Chroma's writes) a child; printed."""
    results = run.result.get("result") if run.result else None
    results = [r for r in results if isinstance(r, dict)] if isinstance(results, list) else []
    keys = ("sections", "parents", "children", "mentions", "relationships")
    first = results[0] if results else {}
    every = {k: sum(r.get(k) or 0 for r in results) for k in keys}
    print("book: " + ", ".join(f"{k} {first.get(k)}" for k in keys) + " (the first)")
    print(f"books: {len(results)}, " + ", ".join(f"{k} {every[k]:,}" for k in keys) + " (all)")
    others = run.total[1] - run.main_cpu
    per_child = 1000 * others / every["children"] if every["children"] else float("nan")
    print(f"CPU s: main thread {run.main_cpu:.1f}, other threads {others:.1f} "
          f"({per_child:.1f} ms a child of every book: the embedding, Chroma)")
    return {"book": {k: first.get(k) for k in keys}, "books": {"count": len(results), **every},
            "main_thread_cpu_s": round(run.main_cpu, 1), "other_threads_cpu_s": round(others, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="ghc-base", help="ghc-base, ghc-800, boost, or a folder's path")
    parser.add_argument("--pages", type=int, help="the first N pages only (a small run)")
    parser.add_argument("--embedder", help="local, local-int8, hash (default: crossbook's)")
    parser.add_argument("--relations", help="auto, spacy, off (default: crossbook's)")
    parser.add_argument("--keep", type=Path, help="build the index here (empty) and keep it")
    parser.add_argument("--crossbook", type=Path, default=ROOT / ".venv" / "bin" / "crossbook",
                        help="the crossbook to run (another worktree's, to measure its code: before and after)")
    parser.add_argument("--live", action="store_true", help="print each step's event as it comes")
    parser.add_argument("--no-record", action="store_true", help="print only")
    args = parser.parse_args()
    folder = doc_set(args.set, args.pages)
    if folder is None:
        print(f"skipped: the doc set '{args.set}' is not installed (ghc-doc, libboost1.81-doc)")
        return 0
    with tempfile.TemporaryDirectory(prefix="crossbook-docset-") as tmp:
        run = Run(folder, args.keep or Path(tmp) / "index", args.embedder, args.relations, args.crossbook)
        run.live = args.live
        status, peak = run.go()
        figures = report(run, status, peak, folder)
    print(f"load: {os.getloadavg()[0]:.2f} (1 min) at the end")
    if not args.no_record:
        record(f"docset_write:{args.set if args.pages is None else f'{args.set}-{args.pages}'}", figures)
    return 0 if status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
