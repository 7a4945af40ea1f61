"""Issue 19: a read-only index (a shared or archived copy, chmod -R a-w) can be queried:
search, retrieve and doctor failed with "attempt to write a readonly database".

Tests run as root, where chmod stops no write, so read-only is simulated as the system
shows it to a user: ``os.access(..., W_OK)`` is false under the index (index/storage/db.py then
opens SQLite with ``mode=ro``, which refuses every write for real), and Chroma's
PersistentClient fails on the store as it does on a read-only file system (checked by hand
on a read-only bind mount, where the old code failed in search, retrieve and doctor). The
index's files must come out byte for byte as they went in. (Commands that write fail with
one line, "... is read-only: this command writes to the index": checked on the bind mount,
as root's writes cannot be refused here.)
"""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from tests.conftest import SAMPLE


def _files(index_dir):
    """The index's files and their hashes; SQLite's shared-memory file, and an empty WAL,
    which SQLite opens beside a WAL database even read-only when the directory lets it
    (on a read-only file system it reads the database as immutable instead), are left out."""
    return {str(p.relative_to(index_dir)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(index_dir.rglob("*"))
            if p.is_file() and not p.name.endswith("-shm") and not (p.name.endswith("-wal") and not p.stat().st_size)}


@pytest.fixture
def read_only_index(cli, index_dir, monkeypatch):
    assert cli("-q", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    import chromadb

    root = str(index_dir.resolve())
    real_access, real_client = os.access, chromadb.PersistentClient

    def access(path, mode, *args, **kwargs):
        if mode & os.W_OK and os.path.abspath(path).startswith(root):
            return False
        return real_access(path, mode, *args, **kwargs)

    def persistent_client(path, *args, **kwargs):
        if os.path.abspath(path).startswith(root):  # what chromadb raises on a read-only store
            raise RuntimeError("error returned from database: (code: 8) attempt to write a readonly database")
        return real_client(path, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)
    monkeypatch.setattr(chromadb, "PersistentClient", persistent_client)
    before = _files(index_dir)
    yield
    assert _files(index_dir) == before


@pytest.mark.parametrize("args", [
    ["search", "frost breath", "-k", "3"],
    ["retrieve", "What does the spell the Rime Wraith casts cost?", "-k", "3"],
    ["doctor"],
    ["books"], ["where-else", "Shield"], ["entity", "Chilled"], ["stats"], ["entities"],
])
def test_queries_work_on_a_read_only_index(cli, read_only_index, args):
    result = cli(*args, "--json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    if args[0] in ("search", "retrieve"):
        assert len(document["results"]) == 3
    if args[0] == "doctor":
        assert document["ok"] and document["vectors"] == document["chunks"] > 0
