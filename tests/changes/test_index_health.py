"""Small defects of the index's health checks: each test failed before its fix."""

from __future__ import annotations

import json
import os
import shutil

from crossbook.ingest.pipeline import delete_book, ingest_paths
from tests.conftest import make_job
from tests.fakes import ScriptedExtractor, m
from tests.helpers import BOOK_A, snapshot, write


def test_after_delete_book_no_entity_keeps_a_name_from_a_deleted_mention(tmp_path):
    """'Alpha' names Frost Lance in lowercase, which the linker references while 'Core'
    defines it; 'Zeta' references it as FROST LANCE. Once 'Core' is deleted, the linker
    reference goes: the entity's name must come from a mention that is left."""
    books = {
        "Core": "# Core\n\n## Frost Lance\nFrost Lance is a cold spell.\n",
        "Alpha": "# Alpha\n\n## Tactics\nOpen with a frost lance at range.\n",
        "Zeta": "# Zeta\n\n## Lore\nThe FROST LANCE was first cast by Ari.\n",
    }
    script = {
        "Frost Lance": [m("Frost Lance", "spell", "defines", "Frost Lance is a cold spell.")],
        "Lore": [m("FROST LANCE", "spell", "references", "The FROST LANCE was first cast by Ari.")],
    }
    paths = {title: write(tmp_path / f"{title}.md", text) for title, text in books.items()}
    live = make_job(tmp_path / "live", pack="gurps", extractor=ScriptedExtractor(script))
    ingest_paths(live, list(paths.values()))
    delete_book(live.db, "Core")
    fresh = make_job(tmp_path / "fresh", pack="gurps", extractor=ScriptedExtractor(script))
    ingest_paths(fresh, [paths["Alpha"], paths["Zeta"]])
    names = live.db.execute("SELECT name FROM entities WHERE normalized = 'frost_lance'").fetchall()
    assert names == [("FROST LANCE",)]
    live.db.conn.close()
    fresh.db.conn.close()
    assert snapshot(tmp_path / "live") == snapshot(tmp_path / "fresh")


def _collections(index_dir) -> list[str]:
    from crossbook.vectors.chroma_client import import_chromadb

    chromadb = import_chromadb()
    from chromadb.config import Settings as ChromaSettings

    client = chromadb.PersistentClient(path=str(index_dir / "chroma"), settings=ChromaSettings(anonymized_telemetry=False))
    return [c.name for c in client.list_collections()]


def test_a_read_only_doctor_creates_no_collection(tmp_path, index_dir, cli, cli_json):
    a = write(tmp_path / "a.md", BOOK_A)
    assert cli("ingest", a).exit_code == 0
    shutil.rmtree(index_dir / "chroma")  # the vectors are lost
    result = cli("doctor", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["vectors"] == 0 and len(report["missing"]) == report["chunks"] > 0
    assert _collections(index_dir) == []  # checking wrote nothing
    repaired = cli_json("doctor", "--repair")
    assert repaired["ok"] and repaired["vectors"] == repaired["chunks"] and len(_collections(index_dir)) == 1


def test_a_truncated_index_is_an_error_that_says_what_to_do(tmp_path, index_dir, cli):
    a = write(tmp_path / "a.md", BOOK_A)
    assert cli("ingest", a).exit_code == 0
    db_path = index_dir / "crossbook.db"
    for side in ("crossbook.db-wal", "crossbook.db-shm"):
        (index_dir / side).unlink(missing_ok=True)
    # a new 0-byte file in its place: a connection still open in this process keeps the old one
    (index_dir / "empty").write_bytes(b"")
    os.replace(index_dir / "empty", db_path)
    for command in (("books",), ("ingest", a), ("doctor",), ("where-else", "Hearthglow")):
        result = cli(*command)
        assert result.exit_code == 1, command
        message = result.stderr.strip()
        assert "0 bytes" in message and "backup" in message and "ingest" in message and len(message.splitlines()) == 1
    assert db_path.stat().st_size == 0  # nothing was written over it


def test_an_empty_database_alone_is_a_new_index(tmp_path, index_dir, cli, cli_json):
    """A crash while the index was being created leaves crossbook.db empty with nothing else."""
    index_dir.mkdir()
    (index_dir / "crossbook.db").write_bytes(b"")
    a = write(tmp_path / "a.md", BOOK_A)
    assert cli("ingest", a).exit_code == 0
    assert [b["title"] for b in cli_json("books")] == ["Core Rules"]
