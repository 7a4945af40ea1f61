"""Shared test helpers: small books, index snapshots for the fresh-build comparison."""

from __future__ import annotations

import json
import os
import pwd
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from crossbook.core.config import Settings
from crossbook.storage.db import open_db
from tests.fakes import completion_body, passage_of

BOOK_A = """# Core Rules

## Conditions

### Chilled
A Chilled creature loses 1 Speed. Frost Lance causes it.

### Prone
A Prone fighter is easy to hit.

## Equipment

### Shield
A Shield is armor you wield in the off hand.
"""

BOOK_B = """# Grimoire

## Spells

### Frost Lance
Frost Lance costs 3 Ember. It leaves the target Chilled.

### Shield
The Shield spell costs 2 Ember; casters cast it before a fight.
"""


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def vectors_job(index: Path, embedder):
    """An ingest job (relations off) over a new index at ``index``, its vectors made by ``embedder``."""
    from crossbook.ingest.pipeline import IngestJob  # noqa: PLC0415 - as the tests that use it do
    from crossbook.vectors.chroma import open_vectors  # noqa: PLC0415

    settings = Settings(index_dir=index, relations="off")
    db = open_db(index, create=True)
    return IngestJob(db, settings, vectors=open_vectors(settings, db, embedder=embedder, lazy=True))


def stored_vectors(job) -> dict[str, list[float]]:
    """Each stored vector of the job's store by its id, rounded to 5 places."""
    page = job.vectors.collection.get(include=["embeddings"])
    return {vid: [round(float(x), 5) for x in v] for vid, v in zip(page["ids"], page["embeddings"])}


def snapshot(index_dir: Path) -> dict:
    """What the index holds, independent of row ids and ingest times (for equality checks)."""
    db = open_db(index_dir, create=True)
    entities = sorted(tuple(r) for r in db.execute("SELECT name, normalized, entity_type FROM entities"))
    mentions = sorted(
        tuple(r)
        for r in db.execute(
            "SELECT e.normalized, e.entity_type, m.book, m.chunk_id, m.mention_type, m.name,"
            " m.context, m.source, m.origin_book FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
        )
    )
    chunks = sorted(tuple(r) for r in db.execute("SELECT id, book, kind, sha256 FROM chunks"))
    out = {"entities": entities, "mentions": mentions, "chunks": chunks}
    if "entity_relationships" in db.table_names():
        out["relationships"] = relationship_rows(db)
    db.conn.close()
    return out


def relationship_rows(db) -> list:
    """Relationships by entity keys (not ids), and the claims with their derived status."""
    rows = db.execute(
        "SELECT s.normalized, s.entity_type, t.normalized, t.entity_type, r.relation_type, r.mapped_from,"
        " r.book, r.chunk_id, r.source_name, r.target_name, r.evidence, r.confidence, r.polarity, r.implicit,"
        " r.status, r.status_reason, r.extractor, r.claims, r.fingerprint"
        " FROM entity_relationships r JOIN entities s ON s.id = r.source_id JOIN entities t ON t.id = r.target_id"
    )
    claims = db.execute(
        "SELECT book, chunk_id, ordinal, source_normalized, source_type, target_normalized, target_type,"
        " relation_type, evidence, extractor, status FROM relation_claims"
    )
    return sorted((tuple(r) for r in rows), key=repr) + sorted((("claim", *r) for r in claims), key=repr)


def heading_responder(extra_refs: dict[str, list[tuple[str, str]]] | None = None):
    """A scripted model: the passage's heading defines an entity of type 'other'; names in
    ``extra_refs[heading]`` are reported as references (context: the first sentence holding them)."""
    extra_refs = extra_refs or {}

    def respond(request: dict):
        passage = passage_of(request)
        match = re.match(r"#+ (.+)", passage)
        entities = []
        if match:
            heading = match.group(1).strip()
            body = passage.split("\n", 1)[1].strip()
            first = re.split(r"(?<=[.!?])\s", body)[0] if body else heading
            entities.append({"name": heading, "type": "other", "mention_type": "defines", "context": first})
            for name, etype in extra_refs.get(heading, []):
                sentence = next((s for s in re.split(r"(?<=[.!?])\s", body) if name in s), body)
                entities.append({"name": name, "type": etype, "mention_type": "references", "context": sentence})
        return 200, {}, completion_body(json.dumps({"entities": entities}))

    return respond


def openai_settings(index_dir: Path, server, **overrides) -> Settings:
    base = dict(index_dir=index_dir, extractor="openai", model="scripted-model", base_url=server.base_url,
                api_key="test-key", max_retries=3, concurrency=4, request_timeout=10.0)
    base.update(overrides)
    return Settings(**base)


def render_book(title: str, sections) -> str:
    """A generated book: ``sections`` are (chapter, heading, sentences) triples."""
    out = [f"# {title}\n"]
    for chapter, name, sentences in sections:
        out.append(f"\n## {chapter}\n\n### {name}\n\n" + " ".join(sentences) + "\n")
    return "".join(out)


class SimulatedKill(BaseException):
    """A run killed at a point (a BaseException, as nothing in crossbook may catch a kill)."""


class FailingChunkExtractor:
    """Wraps an extractor: the book's last parent chunk gets no valid answer (as an LLM chunk
    whose retries all failed), so its ingest raises ChunksFailed."""

    def __init__(self, inner):
        self.inner = inner

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def extract(self, book, parents, known=None, progress=None, **kwargs):
        from crossbook.extract import FailedChunk

        run = self.inner.extract(book, parents, known=known, progress=progress, **kwargs)
        last = parents[-1]
        run.chunks[-1] = None
        run.failed = [FailedChunk(last.id, " > ".join(last.heading_path), "injected failure")]
        return run


def _write_half_then_die(original):
    def write_rows(self, db, rows, progress=None, record=True):
        original(self, db, rows[: len(rows) // 2], progress, record)
        raise SimulatedKill("killed while embedding")
    return write_rows


def _die(*args, **kwargs):
    raise SimulatedKill("killed")


# Where a killed run dies: (operation it kills, object, attribute replaced). SQLite points are
# inside the book's write transaction (the book must stay wholly old); vector points are after
# it committed (the book is wholly new, and SQLite and Chroma agree after the next command or
# doctor --repair).
KILL_POINTS = {
    "kill:write": ("ingest", "crossbook.storage.store", "insert_mentions"),          # rows half replaced
    "kill:derive": ("ingest", "crossbook.changes.derived", "gc_entities"),           # relinked, derived, not GC'd
    "kill:embed": ("ingest", "crossbook.vectors.chroma.VectorStore", "write"),      # half the vectors upserted
    "kill:sync_note": ("ingest", "crossbook.vectors.chroma", "children_digest"),    # Chroma done, SQLite's note not
    "kill:delete_vectors": ("delete", "crossbook.vectors.chroma.VectorStore", "delete_book"),  # SQLite deleted it
}


class Replay:
    """One live index under a sequence of operations, with the books it must hold after each.

    ``OPERATIONS`` maps an operation's name to the method that applies it; the sequences are
    (name, title, sections) triples. A book is its file (index/ingest/identity.py): ``files`` says
    which file holds each book, and "rename" gives a book's file another title."""

    def __init__(self, tmp: Path, pack: Path, make_job, vectors: bool = False):
        self.tmp = tmp
        self.job = make_job(tmp / "live", pack)
        self.current: dict[str, str] = {}
        self.files: dict[str, Path] = {}  # title -> the file that holds it
        self.vectors = None
        if vectors:
            from crossbook.vectors.chroma import open_vectors

            self.vectors = open_vectors(Settings(index_dir=tmp / "live", embedder="hash"), self.job.db, lazy=True)
            self.job.vectors = self.vectors
        self.failures_survived = 0      # failed or killed runs that happened
        self.vector_repairs = 0         # times doctor --repair had to fix what the next ingest left

    def _file(self, title: str, sections) -> tuple[Path, str]:
        """Write ``title``'s book to its file: the one that holds it, else a new one."""
        text = render_book(title, sections)
        path = self.files.get(title)
        if path is None:
            taken = set(self.files.values())
            path = next(p for n in range(len(taken) + 1)
                        if (p := self.tmp / f"{title}{'-' + str(n) if n else ''}.md") not in taken)
        return write(path, text), text

    def ingest(self, title, sections) -> None:
        from crossbook.ingest.pipeline import ingest_paths

        path, text = self._file(title, sections)
        ingest_paths(self.job, [path])
        self.current[title] = text
        self.files[title] = path

    def rename(self, title, sections) -> None:
        """The book's file gets another title (and these sections): the same book, renamed."""
        from crossbook.ingest.pipeline import ingest_paths

        new_title = f"{title} Renamed"
        if title not in self.current or new_title in self.current:
            return
        path = self.files.pop(title)
        text = render_book(new_title, sections)
        [result] = ingest_paths(self.job, [write(path, text)])
        assert result.renamed_from == title
        del self.current[title]
        self.current[new_title], self.files[new_title] = text, path

    def delete(self, title, _sections) -> None:
        from crossbook.ingest.pipeline import delete_book

        if title in self.current:
            delete_book(self.job.db, title, self.vectors)
            del self.current[title]
            self.files.pop(title, None)

    def state(self) -> tuple:
        """The live index as a test compares it: SQLite's snapshot, its books, the vectors."""
        books = sorted(tuple(r) for r in self.job.db.execute("SELECT title, sha256, extractor FROM books"))
        stored = sorted(self.vectors.stored().items()) if self.vectors is not None and self.vectors.count() else []
        return snapshot(self.tmp / "live"), books, stored

    def fail_chunk(self, title, sections) -> None:
        """An ingest whose last chunk fails: it raises, and leaves the index as it was."""
        from crossbook.core.errors import ChunksFailed
        from crossbook.ingest.pipeline import ingest_paths

        before = self.state()
        path, _ = self._file(title, sections)
        inner, self.job.extractor = self.job.extractor, FailingChunkExtractor(self.job.extractor)
        try:
            ingest_paths(self.job, [path], force=True)
            raise AssertionError("an ingest with a failed chunk did not raise")
        except ChunksFailed:
            pass
        finally:
            self.job.extractor = inner
        assert self.state() == before
        self.failures_survived += 1

    def kill(self, point: str, title, sections) -> None:
        """A run killed at ``point`` (KILL_POINTS): before its SQLite commit the index is as it
        was; after it, the book is wholly new and only the vectors may lag."""
        import importlib
        from unittest import mock

        kind, owner, attribute = KILL_POINTS[point]
        try:
            target = importlib.import_module(owner)
        except ModuleNotFoundError:  # a class: "crossbook.vectors.chroma.VectorStore"
            module, _, name = owner.rpartition(".")
            target = getattr(importlib.import_module(module), name)
        replacement = _write_half_then_die(target.write) if point == "kill:embed" else _die
        if kind == "delete" and title not in self.current:
            return
        before = self.state()
        path, text = self._file(title, sections) if kind == "ingest" else (None, None)
        try:
            with mock.patch.object(target, attribute, replacement):
                if kind == "ingest":
                    from crossbook.ingest.pipeline import ingest_paths

                    ingest_paths(self.job, [path], force=True)
                else:
                    self.delete(title, None)
        except SimulatedKill:  # else the point was not reached (no vectors to write): it completed
            self.failures_survived += 1
        if point in ("kill:write", "kill:derive"):
            assert self.state() == before
        elif kind == "ingest":
            self.current[title] = text
            self.files[title] = path
        else:
            self.current.pop(title, None)
            self.files.pop(title, None)

    def settle_vectors(self) -> None:
        """The next command, then ``doctor --repair``: ingesting every book again (unchanged)
        must bring its vectors in line (nothing missing or stale); what is left (vectors of a
        book whose delete was killed) is for doctor --repair. Then SQLite and Chroma agree."""
        from crossbook.ingest.pipeline import ingest_paths
        from crossbook.vectors import doctor

        if self.vectors is None:
            return
        for title, text in self.current.items():
            ingest_paths(self.job, [write(self.files[title], text)])
        report = doctor.check(self.job.db, self.vectors)
        assert not (report.missing or report.stale), report.to_dict()
        if not report.ok:
            doctor.repair(self.job.db, self.vectors)
            self.vector_repairs += 1
        report = doctor.check(self.job.db, self.vectors)
        assert report.ok, report.to_dict()

    def apply(self, operation) -> None:
        name, title, sections = operation
        if name in KILL_POINTS:
            self.kill(name, title, sections)
        else:
            getattr(self, OPERATIONS[name])(title, sections)

    def close(self) -> None:
        if self.vectors is not None:
            self.vectors.close()
        self.job.db.conn.close()


OPERATIONS = {"ingest": "ingest", "delete": "delete", "fail_chunk": "fail_chunk", "rename": "rename"}


def replay_equals_fresh_build(operations, pack_text: str, make_job, vectors: bool = False) -> Replay:
    """Apply operations (OPERATIONS and KILL_POINTS names, as (name, title, sections)) to one
    index, build a fresh index from the books that remain (in reverse order), and assert both
    snapshots are equal. ``make_job(index_dir, pack_path)`` returns an IngestJob. ``vectors``:
    the live index has Chroma vectors (hash embedder), which must agree with SQLite at the
    end (Replay.settle_vectors: after the next ingest, then doctor --repair). Returns the
    replay (its counts of failures survived and vector repairs)."""
    import tempfile

    from crossbook.ingest.pipeline import ingest_paths

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        pack = write(tmp / "pack.toml", pack_text)
        replay = Replay(tmp, pack, make_job, vectors=vectors)
        try:
            for operation in operations:
                replay.apply(operation)
            replay.settle_vectors()
        finally:
            replay.close()
        fresh = make_job(tmp / "fresh", pack)
        for title in sorted(replay.current, reverse=True):
            ingest_paths(fresh, [write(tmp / f"fresh-{title}.md", replay.current[title])])
        fresh.db.conn.close()
        assert snapshot(tmp / "live") == snapshot(tmp / "fresh")
    return replay


def shelf_responder(names: list[str]):
    """A scripted model for a whole shelf: the passage's heading defines an entity of type
    'other' and every other name of ``names`` in the passage is a reference, each with the
    verbatim sentence verification would choose (index/extract/verify.py) as its context;
    each reference is also a relationship from the heading's entity. Instructions inside
    the passage are ignored, as the system prompt asks."""
    from crossbook.extract.verify import ChunkText

    def respond(request: dict):
        passage = passage_of(request)
        chunk = ChunkText(passage)
        match = re.match(r"#+ (.+)", passage)
        heading = match.group(1).strip() if match else None
        entities, relationships = [], []
        if heading:
            entities.append({"name": heading, "type": "other", "mention_type": "defines",
                             "context": chunk.sentence_of(heading)})
        for name in names:
            sentence = chunk.sentence_of(name) if name != heading else None
            if sentence:
                entities.append({"name": name, "type": "other", "mention_type": "references", "context": sentence})
                if heading:
                    relationships.append({
                        "source_name": heading, "source_id": None, "target_name": name, "target_id": None,
                        "relation_type": "references", "evidence": sentence, "confidence": 0.9,
                        "polarity": "asserted", "implicit": False})
        return 200, {}, completion_body(json.dumps({"entities": entities, "relationships": relationships}))

    return respond


def shelf_headings(paths) -> list[str]:
    """Every heading text of these Markdown files (the names a shelf_responder knows)."""
    names = []
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            match = re.match(r"#{1,6} (.+)", line)
            if match and match.group(1).strip() not in names:
                names.append(match.group(1).strip())
    return names


def _answers(result: dict) -> set:
    return {(e["name"], e["entity_type"], g["book"], m["heading_path"], m["mention_type"])
            for e in result["entities"] for g in e["books"] for m in g["mentions"]}


def assert_same_answers(cli_json, original_index, twin_index) -> None:
    """Both indexes know the same entities, and where-else answers each alike (same books,
    sections and mention types; contexts may differ in their Markdown escapes)."""
    names = [e["name"] for e in cli_json("--index", original_index, "entities")["entities"]]
    assert names == [e["name"] for e in cli_json("--index", twin_index, "entities")["entities"]]
    assert len(names) > 20
    for name in names:
        original = cli_json("--index", original_index, "where-else", name)
        twin = cli_json("--index", twin_index, "where-else", name)
        assert _answers(twin) == _answers(original), name


def vault(root: Path, notes: dict[str, str], obsidian: bool = True) -> Path:
    for name, text in notes.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if obsidian:
        (root / ".obsidian").mkdir(exist_ok=True)
        (root / ".obsidian" / "app.json").write_text("{}", encoding="utf-8")
    return root


def make_pdf(path, pages, outline=(), title="The Book", encrypt=None, running=True):
    """``pages``: a list of lists of lines; ``outline``: (title, level, page index) entries."""
    from reportlab.lib.pagesizes import A5
    from reportlab.pdfgen import canvas

    pdf = canvas.Canvas(str(path), pagesize=A5, encrypt=encrypt)
    pdf.setTitle(title)
    keys = {}
    for n, lines in enumerate(pages):
        for entry_title, level, page in outline:
            if page == n:
                key = f"k{len(keys)}"
                keys[key] = (entry_title, level)
                pdf.bookmarkPage(key)
                pdf.addOutlineEntry(entry_title, key, level=level - 1)
        y = 560
        if running:
            pdf.drawString(40, 580, "The Book - Running Header")
        for line in lines:
            if line is None:  # an image, no text
                pdf.rect(40, 200, 200, 200, fill=1)
                continue
            pdf.drawString(40, y, line)
            y -= 16
        if running:
            pdf.drawString(200, 20, str(n + 1))
        pdf.showPage()
    pdf.save()
    return path


def rebuild_books(cli, folder: Path, books: dict[str, str], pack: Path | None = None) -> None:
    """Write ``books`` (file name -> Markdown) into ``folder`` with a manifest listing them
    (and ``pack``), and index them with ``crossbook rebuild``, as a user builds a shelf."""
    for name, text in books.items():
        (folder / name).write_text(text, encoding="utf-8")
    head = f'pack = "{pack.as_posix()}"\n' if pack else ""
    (folder / "crossbook.toml").write_text(head + "".join(f'[[books]]\npath = "{name}"\n' for name in books),
                                           encoding="utf-8")
    result = cli("rebuild", folder / "crossbook.toml")
    assert result.exit_code == 0, result.stderr


def opened_shelf(index_dir: Path):
    """(db, vectors) of an index built with the hash embedder, for a fixture to yield: the
    vectors close when the generator does."""
    from crossbook.core.config import load_settings
    from crossbook.storage.db import open_db
    from crossbook.vectors.chroma import open_vectors

    db = open_db(index_dir)
    settings = load_settings({"index_dir": index_dir}, {"CROSSBOOK_EMBEDDER": "hash"}, None)
    with open_vectors(settings, db) as vectors:
        yield db, vectors


def rebuilt_sample(folder: Path) -> Path:
    """The sample corpus rebuilt (hash embedder) into ``folder / "index"``, through the CLI; the
    index, for a module's read-only tests to share."""
    from typer.testing import CliRunner

    from crossbook.cli.main import app

    index = folder / "index"
    manifest = Path(__file__).resolve().parent.parent / "sample_corpus" / "crossbook.toml"
    result = CliRunner().invoke(app, ["--index", str(index), "--embedder", "hash", "-q", "rebuild", str(manifest)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return index


def as_nobody() -> list[str] | None:
    """A command prefix that runs as ``nobody``, when that user exists and can run this Python."""
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        return None
    if shutil.which("setpriv") is None:
        return None
    prefix = ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups"]
    probe = subprocess.run([*prefix, sys.executable, "-c", "import crossbook"], capture_output=True)
    return prefix if probe.returncode == 0 else None


def without_privilege() -> tuple[list[str], bool]:
    """(command prefix, whether it runs as another user) for a child that cannot write
    what its modes refuse; skips when the system offers neither way."""
    if os.geteuid() != 0:
        return [], False  # already an ordinary user
    nobody = as_nobody()
    if nobody is not None:
        return nobody, True
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: no way to run a child that file modes refuse")
    # e.g. this Python lives under /root (mode 700), which nobody cannot enter
    return ["setpriv", "--inh-caps=-all", "--ambient-caps=-all", "--bounding-set=-all"], False
