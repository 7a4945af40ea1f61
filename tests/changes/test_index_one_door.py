"""Every change of the shelf goes through one door (index/changes/door.py), SQLite and Chroma
together, in the order a crash needs: Chroma opened first, the rows committed, then the
vectors; and no other module composes those steps."""

from __future__ import annotations

import ast
import sqlite3
from pathlib import Path

from crossbook.core.config import Settings
from crossbook.ingest.pipeline import IngestJob, delete_book, ingest_paths
from crossbook.storage.db import open_db
from tests.helpers import write

ROOT = Path(__file__).resolve().parents[2]
# the steps only the door takes: the transaction with the refiner, and the vector store's syncing
DOOR_STEPS = {"write_refined", "replace_book", "ensure_book", "delete_book", "open"}
BOOK = "# Grimoire\n\n## Spells\n\n### Frost Lance\n\nFrost Lance is a spell you cast.\n"


class RecordingVectors:
    """A vector store that notes each call, and what SQLite holds (committed) at that moment."""

    def __init__(self, db_path: Path):
        self.db_path = db_path
        self.calls: list[tuple[str, str | None, list[str]]] = []

    def _committed(self) -> list[str]:
        with sqlite3.connect(self.db_path) as other:  # another connection sees only what is committed
            return [r[0] for r in other.execute("SELECT title FROM books ORDER BY title")]

    def open(self) -> None:
        self.calls.append(("open", None, self._committed()))

    def replace_book(self, db, title, children, progress=None):
        self.calls.append(("replace_book", title, self._committed()))

    def ensure_book(self, db, title):
        self.calls.append(("ensure_book", title, self._committed()))

    def delete_book(self, title):
        self.calls.append(("delete_book", title, self._committed()))


def test_ingest_rename_and_delete_open_chroma_first_and_sync_it_after_the_commit(tmp_path):
    index = tmp_path / "index"
    db = open_db(index, create=True)
    vectors = RecordingVectors(index / "crossbook.db")
    job = IngestJob(db, Settings(index_dir=index), vectors=vectors)
    path = write(tmp_path / "grimoire.md", BOOK)
    ingest_paths(job, [path])
    assert vectors.calls == [("open", None, []), ("replace_book", "Grimoire", ["Grimoire"])]
    vectors.calls.clear()
    ingest_paths(job, [path], title="Ashen Grimoire")  # a rename: the old title's vectors go
    assert vectors.calls == [("open", None, ["Grimoire"]), ("delete_book", "Grimoire", ["Ashen Grimoire"]),
                             ("replace_book", "Ashen Grimoire", ["Ashen Grimoire"])]
    vectors.calls.clear()
    ingest_paths(job, [path], title="Ashen Grimoire")  # unchanged: its vectors checked, nothing opened
    assert vectors.calls == [("ensure_book", "Ashen Grimoire", ["Ashen Grimoire"])]
    vectors.calls.clear()
    delete_book(db, "Ashen Grimoire", vectors)
    assert vectors.calls == [("open", None, ["Ashen Grimoire"]), ("delete_book", "Ashen Grimoire", [])]


def _door_calls(path: Path) -> list[str]:
    """The door's steps a module calls itself (``x.replace_book(...)``, ``write_refined(...)``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            owner = func.value if isinstance(func, ast.Attribute) else None
            if name == "open" and not (isinstance(owner, ast.Attribute) and owner.attr == "vectors"
                                       or isinstance(owner, ast.Name) and owner.id == "vectors"):
                continue  # open() of a file, not of the vector store
            if name in DOOR_STEPS and name != "delete_book" or (
                    name == "delete_book" and isinstance(owner, (ast.Attribute, ast.Name))
                    and "vectors" in ast.unparse(owner)):
                found.append(f"{path.relative_to(ROOT)}: {ast.unparse(func)}")
    return found


def test_no_module_but_the_door_composes_the_steps_of_a_change():
    """The vector store's own module and the derived state's, which define these steps, and
    the doctor and preload, which open the store to check or repair it, are not callers."""
    allowed = {"index/changes/door.py", "index/changes/derived.py", "index/vectors/chroma.py",
               "index/vectors/doctor.py", "index/ingest/preload.py"}
    calls = [c for folder in ("index", "cli") for path in sorted((ROOT / folder).rglob("*.py"))
             if str(path.relative_to(ROOT)) not in allowed for c in _door_calls(path)]
    assert calls == []
