"""Crash loop: SIGKILL crossbook commands at random points and check
what the index holds after each kill.

A shelf of four books (the sample corpus's three and a generated 60-section codex; each but
the core rules has two versions, written over the same file as a user edits it) is indexed
with the fast ``hash`` embedder. Each trial runs one of ``ingest`` (a book's other version),
``delete-book``, ``rebuild`` (a manifest of random versions of a random subset) or
``reembed`` (hash <-> local MiniLM, so its Chroma phase is long), and SIGKILLs it at a random
time after one of three anchors: its start (uniform over the run); the start of a book's write
(the ``--events`` of ingest and rebuild); its first SQLite commit seen by another connection
(``PRAGMA data_version``), which puts kills into the Chroma phase that follows the commit
(after a commit, short delays are the most likely: delay = window * U**3).
After each kill:

1. ``PRAGMA integrity_check`` is ok (and ``foreign_key_check`` empty), before anything else
   opens the index;
2. every book is wholly old or wholly new: its sha256 is one of its file's versions, and the
   whole index (chunks, entities, mentions, relationships) equals a fresh build of exactly
   those versions (built in-process, cached per set of versions);
3. SQLite and Chroma agree (``crossbook doctor``) right away, or after the next command (the
   same command run again, which resumes it) or ``crossbook doctor --repair``, chosen at
   random; then 2. is checked again.

The phase a kill hit is read from ``--events`` (ingest, rebuild: extract, sqlite write,
chroma = after the book's commit) or from the state it left (delete-book, reembed). Prints
the kill points by command and phase and the outcomes; exits 1 on any violation.

    python -m bench.crash_test [--kills 40] [--seed 0] [--keep DIR]

Relationships are off (``--relations off``) so that the fresh builds stay cheap: they run in
the same write transaction, which SQLite makes atomic whatever it holds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from crossbook.chunk.chunking import book_title
from crossbook.core.config import Settings
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.readers import read_book
from crossbook.storage.db import open_db
from tests.helpers import render_book, snapshot

ROOT = Path(__file__).resolve().parent.parent

SAMPLE = ROOT / "sample_corpus"
COMMANDS = ("ingest", "delete-book", "rebuild", "reembed")
WEIGHTS = (3, 2, 2, 2)
# a first guess of how long an uncut run takes (s); raised as runs complete before their kill
FIRST_ESTIMATE = {"ingest": 3.0, "delete-book": 2.0, "rebuild": 5.0, "reembed": 6.0}
# per command: (anchor, weight, (shortest, longest) delay after it; None = up to the estimate)
ANCHORS = {
    "ingest": [("start", 4, (0.3, None)), ("write", 3, (0.0, 0.3)), ("commit", 3, (0.0, 0.4))],
    "rebuild": [("start", 5, (0.3, None)), ("write", 3, (0.0, 0.3)), ("commit", 2, (0.0, 0.4))],
    "delete-book": [("start", 1, (0.3, None)), ("commit", 1, (0.0, 0.03))],
    "reembed": [("start", 3, (1.0, None)), ("commit", 1, (0.0, 0.2))],
}


# -- the shelf ------------------------------------------------------------------------------

def edited(text: str, tag: str) -> str:
    """Version 2 of a book: a sentence added to every third section, and a new last section."""
    out, count = [], 0
    for block in text.split("\n\n"):
        out.append(block)
        if not block.startswith("#") and block.strip():
            count += 1
            if count % 3 == 0:
                out[-1] = block + f" This was revised in the {tag} edition."
    return "\n\n".join(out) + f"\n\n## Errata ({tag})\n\nThe {tag} edition corrects Frost Lance and Chilled.\n"


def codex(version: int) -> str:
    names = ["Frost Lance", "Chilled", "Kindle", "Cinder Wall", "Deep Freeze", "Frost Wyrm", "Ember Surge"]
    sections = []
    for n in range(60):
        used = [names[(n + k) % len(names)] for k in range(3)]
        extra = [f"Revised entry {n}."] if version == 2 and n % 10 == 0 else []
        sections.append((f"Part {n // 20 + 1}", f"Entry {n}",
                         [f"{used[0]} meets {used[1]} here.", f"Scholars compare it to {used[2]}.", *extra]))
    return render_book("Codex of Embers", sections)


def make_versions() -> dict[str, dict[int, str]]:
    """slug -> version -> text. The core rules have one version and are never deleted."""
    grimoire = (SAMPLE / "grimoire.md").read_text(encoding="utf-8")
    bestiary = (SAMPLE / "bestiary.md").read_text(encoding="utf-8")
    return {
        "core": {1: (SAMPLE / "core_rules.md").read_text(encoding="utf-8")},
        "grimoire": {1: grimoire, 2: edited(grimoire, "second")},
        "bestiary": {1: bestiary, 2: edited(bestiary, "second")},
        "codex": {1: codex(1), 2: codex(2)},
    }


class Shelf:
    """The book files (one per book, rewritten with the version a command needs), what each
    version's sha256 and title are, and fresh builds of sets of versions."""

    def __init__(self, work: Path):
        self.work = work
        self.versions = make_versions()
        self.books = work / "books"
        self.books.mkdir()
        self.by_sha: dict[str, tuple[str, int]] = {}
        self.titles: dict[str, str] = {}
        for slug, texts in self.versions.items():
            for version, text in texts.items():
                path = self.put(slug, version)
                self.by_sha[read_book(path).sha256] = (slug, version)
                self.titles[slug] = book_title(text, slug)
        self.fresh: dict[tuple, dict] = {}
        self.fresh_seconds = 0.0

    def path(self, slug: str) -> Path:
        return self.books / f"{slug}.md"

    def put(self, slug: str, version: int) -> Path:
        path = self.path(slug)
        path.write_text(self.versions[slug][version], encoding="utf-8")
        return path

    def fresh_snapshot(self, state: tuple) -> dict:
        """The snapshot of a fresh build of ``state`` ((slug, version) pairs), built once."""
        if state not in self.fresh:
            start = time.perf_counter()
            where = self.work / "fresh" / str(len(self.fresh))
            where.mkdir(parents=True)
            paths = []
            for slug, version in state:
                paths.append(where / f"{slug}.md")
                paths[-1].write_text(self.versions[slug][version], encoding="utf-8")
            index_dir = where / "index"
            job = IngestJob(open_db(index_dir, create=True), Settings(index_dir=index_dir, relations="off"))
            if paths:
                ingest_paths(job, paths)
            job.db.conn.close()
            self.fresh[state] = snapshot(index_dir)
            self.fresh_seconds += time.perf_counter() - start
        return self.fresh[state]


# -- running and killing crossbook ---------------------------------------------------------------

class Crossbook:
    def __init__(self, work: Path):
        self.index = work / "index"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("CROSSBOOK_", "OPENAI_"))}
        self.env.update(CROSSBOOK_MODEL_CACHE=str(work / "models"), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
        self.cwd = work

    def start(self, args: list[str]) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "crossbook.cli.main", "--index", str(self.index), "-q", *args],
                                cwd=self.cwd, env={**self.env, "PYTHONPATH": str(ROOT)},
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def run(self, args: list[str]) -> tuple[int, str, str]:
        proc = self.start(args)
        out, err = proc.communicate(timeout=900)
        return proc.returncode, out, err

    def doctor(self, repair: bool = False) -> tuple[int, dict]:
        code, out, err = self.run(["doctor", "--json", *(["--repair"] if repair else [])])
        try:
            return code, json.loads(out)
        except ValueError:
            return code, {"error": err.strip()}


def data_version(db_path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(db_path), timeout=30)
    conn.execute("PRAGMA data_version").fetchone()
    return conn


def kill_run(proc: subprocess.Popen, anchor: str, delay: float, db_path: Path, events: Path) -> tuple[bool, float]:
    """SIGKILL ``proc`` ``delay`` seconds after its start, after a book's write started (its
    events), or after the first commit another connection sees. Returns (killed, seconds it ran)."""
    start = time.perf_counter()
    if anchor == "write":
        while proc.poll() is None and not (events.exists() and '"phase": "write"' in events.read_text(encoding="utf-8")):
            time.sleep(0.002)
    if anchor == "commit":
        conn = data_version(db_path)
        first = conn.execute("PRAGMA data_version").fetchone()[0]
        while proc.poll() is None and conn.execute("PRAGMA data_version").fetchone()[0] == first:
            time.sleep(0.002)
        conn.close()
    deadline = time.perf_counter() + delay
    while proc.poll() is None and time.perf_counter() < deadline:
        time.sleep(0.002)
    if proc.poll() is not None:
        proc.communicate()
        return False, time.perf_counter() - start
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    return True, time.perf_counter() - start


def phase_from_events(path: Path) -> str:
    """Where an ingest or rebuild was: extract, sqlite write, or chroma (after a book's commit)."""
    phase = "startup"
    if not path.exists():
        return phase
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            break  # a line cut by the kill
        kind, name = event.get("event"), event.get("phase")
        if kind == "book.start" or (kind == "phase.start" and name == "extract"):
            phase = "extract"
        elif kind == "phase.start" and name == "write":
            phase = "sqlite write"
        elif kind == "phase.done" and name == "write":
            phase = "chroma"
    return phase


# -- checks ---------------------------------------------------------------------------------

def integrity(db_path: Path) -> list[str]:
    conn = sqlite3.connect(str(db_path), timeout=30)
    try:
        problems = [r[0] for r in conn.execute("PRAGMA integrity_check") if r[0] != "ok"]
        problems += [f"foreign key: {r}" for r in conn.execute("PRAGMA foreign_key_check")]
        return problems
    finally:
        conn.close()


def index_state(shelf: Shelf, db_path: Path) -> tuple[tuple, list[str]]:
    """The (slug, version) of every book in the index, and the books of no known version."""
    conn = sqlite3.connect(str(db_path), timeout=30)
    try:
        rows = conn.execute("SELECT title, sha256 FROM books").fetchall()
    finally:
        conn.close()
    state, unknown = [], []
    for title, sha in rows:
        if sha in shelf.by_sha:
            state.append(shelf.by_sha[sha])
        else:
            unknown.append(f"book '{title}' is no version of its file (sha256 {sha[:12]})")
    return tuple(sorted(state)), unknown


def check_books(shelf: Shelf, index_dir: Path) -> tuple[tuple, list[str]]:
    state, problems = index_state(shelf, index_dir / "crossbook.db")
    if not problems and snapshot(index_dir) != shelf.fresh_snapshot(state):
        problems.append(f"the index differs from a fresh build of {state}")
    return state, problems


def recorded_embedder(db_path: Path) -> str | None:
    conn = sqlite3.connect(str(db_path), timeout=30)
    try:
        row = conn.execute("SELECT value FROM crossbook_meta WHERE key = 'embedder'").fetchone()
        return row[0] if row else None
    finally:
        conn.close()


# -- the loop -------------------------------------------------------------------------------

def plan(rng: random.Random, shelf: Shelf, state: tuple, embedder: str | None, work: Path) -> tuple[str, list[str], dict]:
    """The next command and its arguments (files are rewritten for it)."""
    present = dict(state)
    command = rng.choices(COMMANDS, WEIGHTS)[0]
    deletable = [s for s in present if s != "core"]
    if command == "delete-book" and not deletable:
        command = "ingest"
    events = work / "events.ndjson"
    events.unlink(missing_ok=True)
    if command == "ingest":
        slug = rng.choice([s for s in shelf.versions if s != "core"])
        versions = [v for v in shelf.versions[slug] if v != present.get(slug)]
        version = rng.choice(versions)
        shelf.put(slug, version)
        return command, ["ingest", "--relations", "off", "--events", str(events), str(shelf.path(slug))], \
            {"book": slug, "version": version}
    if command == "delete-book":
        slug = rng.choice(deletable)
        return command, ["delete-book", shelf.titles[slug]], {"book": slug}
    if command == "rebuild":
        listed = ["core"] + [s for s in shelf.versions if s != "core" and rng.random() < 0.75]
        lines = []
        for slug in listed:
            shelf.put(slug, rng.choice(sorted(shelf.versions[slug])))
            lines.append(f'[[books]]\npath = "books/{slug}.md"\n')
        manifest = work / "crossbook.toml"
        manifest.write_text('relations = "off"\n' + "".join(lines), encoding="utf-8")
        return command, ["rebuild", "--events", str(events), str(manifest)], {"listed": listed}
    target = "local" if (embedder or "").startswith("hash") else "hash"
    return command, ["--embedder", target, "reembed"], {"to": target}


def classify(command: str, details: dict, shelf: Shelf, crossbook: Crossbook, events: Path,
             killed: bool, doctor: dict) -> str:
    if not killed:
        return "completed"
    if command in ("ingest", "rebuild"):
        return phase_from_events(events)
    drift = not doctor.get("ok", False)
    if command == "delete-book":
        state, _ = index_state(shelf, crossbook.index / "crossbook.db")
        if details["book"] in dict(state):
            return "before commit"
        return "chroma" if drift else "after chroma"
    leftover = bool(doctor.get("leftover_collections"))
    switched = (recorded_embedder(crossbook.index / "crossbook.db") or "").startswith(details["to"])
    if switched:
        return "chroma (dropping old)" if leftover else "after chroma"
    return "chroma (new collection)" if leftover else "before chroma"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=40, help="kill points to try (default 40)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", type=Path, help="work in this directory and keep it")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="crossbook-crash-")) if args.keep is None else args.keep
    work.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    shelf = Shelf(work)
    crossbook = Crossbook(work)
    db_path = crossbook.index / "crossbook.db"
    code, _, err = crossbook.run(["--embedder", "hash", "ingest", "--relations", "off",
                                  *(str(shelf.put(slug, 1)) for slug in shelf.versions)])
    if code != 0:
        print(f"seeding the index failed: {err}", file=sys.stderr)
        return 1
    estimate = dict(FIRST_ESTIMATE)
    by_phase: dict[str, Counter] = defaultdict(Counter)
    outcomes: Counter = Counter()
    violations: list[str] = []
    trials = 0
    while trials < args.kills:
        state, _ = index_state(shelf, db_path)
        command, argv, details = plan(rng, shelf, state, recorded_embedder(db_path), work)
        anchors = ANCHORS[command]
        anchor, _, (shortest, longest) = rng.choices(anchors, [a[1] for a in anchors])[0]
        if longest is None:  # anywhere in the run
            delay = rng.uniform(shortest, max(estimate[command], shortest))
        else:  # after a commit, soon after it most often (a lost write shows right after it)
            delay = shortest + (longest - shortest) * rng.random() ** (3 if anchor == "commit" else 1)
        proc = crossbook.start(argv)
        killed, ran = kill_run(proc, anchor, delay, db_path, work / "events.ndjson")
        if not killed:
            estimate[command] = max(estimate[command] * 0.9, ran * 1.1)
            if proc.returncode not in (0, 1):
                violations.append(f"{command} {details} exited {proc.returncode} uncut")
            outcomes["ran to completion before its kill"] += 1
            continue
        trials += 1
        after = {"start": "", "write": " a book's write started", "commit": " its first commit"}[anchor]
        label = f"#{trials} {command} {details} killed {ran:.2f}s after its start" + \
            (f", {delay:.2f}s after{after}" if after else "")
        problems = integrity(db_path)
        state, book_problems = check_books(shelf, crossbook.index)
        problems += book_problems
        code, report = crossbook.doctor()
        phase = classify(command, details, shelf, crossbook, work / "events.ndjson", killed, report)
        by_phase[command][phase] += 1
        if code == 0 and report.get("ok"):
            outcomes["SQLite and Chroma agreed at once"] += 1
        else:
            rerun = command != "delete-book" and rng.random() < 0.5
            if rerun:
                code, _, err = crossbook.run(argv)
                if code != 0:
                    problems.append(f"the next command ({' '.join(argv[:1])}) failed: {err.strip()}")
                code, report = crossbook.doctor()
                fixed = "fixed by the next command"
            else:
                code, report = crossbook.doctor(repair=True)
                fixed = "fixed by doctor --repair"
            if code == 0 and report.get("ok"):
                outcomes[fixed] += 1
            else:
                problems.append(f"SQLite and Chroma still disagree after the {fixed.split('by ')[1]}: {report}")
            problems += integrity(db_path)
            problems += check_books(shelf, crossbook.index)[1]
        status = "ok" if not problems else "VIOLATION"
        print(f"{label}: {phase}: {status}", flush=True)
        violations += [f"{label}: {p}" for p in problems]

    elapsed = time.perf_counter() - began
    print()
    print(f"crash test: seed {args.seed}, {trials} kill points in {elapsed:.0f} s "
          f"(fresh builds {shelf.fresh_seconds:.0f} s for {len(shelf.fresh)} sets of versions)")
    width = max(len(p) for c in by_phase.values() for p in c) if by_phase else 10
    for command in COMMANDS:
        phases = by_phase.get(command, Counter())
        print(f"  {command:<12} {sum(phases.values()):>3} kills: "
              + ", ".join(f"{phase} {n}" for phase, n in sorted(phases.items())))
    print("  after each kill: integrity_check ok, every book wholly old or wholly new (= a fresh build)")
    for outcome, n in outcomes.most_common():
        print(f"  {outcome:<{max(width, 34)}} {n}")
    print(f"  violations: {len(violations)}")
    for violation in violations:
        print(f"    {violation}")
    if args.keep is None and not violations:
        shutil.rmtree(work, ignore_errors=True)
    elif violations:
        print(f"  the work directory is kept: {work}")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
