"""Open the index database: PRAGMAs and migrations, nothing else.

No sqlite-utils plugins: crossbook uses none, and finding them scans the entry points of
every installed package (importlib.metadata), about 25 ms of every command's start-up.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path
from typing import Iterator

from sqlite_utils import Database

from ..core.errors import IndexMissing, IndexReadOnly, NotAnIndex
from .lock import DEFAULT_WAIT, LOCK_FILE, WaitFn, writer_lock
from .migrations import migrations

MARKER = "crossbook-index"
# the files SQLite keeps for the index; anything else in the index directory was made from it
SQLITE_FILES = ("crossbook.db", "crossbook.db-wal", "crossbook.db-shm", "crossbook.db-journal")


def _check_is_index(db: Database, db_path: Path) -> None:
    # only the migrations table: another process is creating the index (it holds the lock)
    tables = set(db.table_names()) - {migrations.migrations_table}
    if not tables:
        return
    if "crossbook_meta" not in tables:
        raise NotAnIndex(
            f"{db_path} is a SQLite database but not a crossbook index "
            "(point --index at another directory)"
        )


def check_index_dir(index_dir: Path, *, create: bool = False) -> None:
    """Raise NotAnIndex when ``index_dir`` holds something else, IndexMissing when there is
    no index and ``create`` is false (nothing is created)."""
    db_path = index_dir / "crossbook.db"
    if index_dir.exists() and not index_dir.is_dir():
        raise NotAnIndex(f"index path {index_dir} is a file, not a directory (use --index DIR)")
    if not db_path.exists():
        # the lock and SQLite's own files may appear meanwhile: another process creating it
        if index_dir.is_dir() and any(p.name not in SQLITE_FILES and p.name != LOCK_FILE
                                      for p in index_dir.iterdir()):
            raise NotAnIndex(
                f"{index_dir} is not a crossbook index (it has files but no crossbook.db; "
                "use --index with an empty or new directory)"
            )
        if not create:
            raise IndexMissing(f"no index at {index_dir} (run: crossbook ingest BOOK)")


@contextlib.contextmanager
def open_for_writing(index_dir: Path, *, create: bool = False, wait: float = DEFAULT_WAIT,
                     command: str = "", on_wait: WaitFn | None = None) -> Iterator[Database]:
    """The index opened by its one writer (index/storage/lock.py): checked, then locked (waiting up
    to ``wait`` seconds for another writer, then IndexBusy), then opened and migrated. The
    connection is closed and the lock released when the block ends."""
    check_index_dir(index_dir, create=create)
    with writer_lock(index_dir, wait, command=command, on_wait=on_wait):
        db = open_db(index_dir, create=create, wait=wait)
        try:
            yield db
        finally:
            db.conn.close()


def open_db(index_dir: Path, *, create: bool = False, wait: float = DEFAULT_WAIT) -> Database:
    """Open (and migrate) ``index_dir/crossbook.db``.

    ``create=False`` is for read commands: a missing index raises IndexMissing.
    Raises NotAnIndex when the directory or file holds something else. Migrations run under
    the writer lock (index/storage/lock.py; up to ``wait`` seconds for it, then IndexBusy), so two
    processes opening a new or older index do not both migrate it.
    """
    db_path = index_dir / "crossbook.db"
    check_index_dir(index_dir, create=create)
    if not db_path.exists():
        index_dir.mkdir(parents=True, exist_ok=True)
    if not create and not _writable(db_path):
        return _open_read_only(db_path)
    # a new database file is made under the writer lock: switching it to WAL while another
    # process creates it too fails at once with 'database is locked' (no busy wait there)
    fresh = not db_path.exists() or db_path.stat().st_size == 0
    try:
        with writer_lock(index_dir, wait) if fresh else contextlib.nullcontext():
            _check_not_truncated(db_path)  # under the lock: not another process creating it
            conn = sqlite3.connect(str(db_path), timeout=30, check_same_thread=False)
            db = Database(conn, execute_plugins=False)
            db.execute("PRAGMA busy_timeout = 30000")
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA foreign_keys = ON")
            _check_is_index(db, db_path)
    except sqlite3.OperationalError as exc:
        if "readonly" in str(exc):
            raise IndexReadOnly(f"{db_path} is read-only: this command writes to the index") from None
        raise NotAnIndex(f"{db_path} is not a crossbook index ({exc})") from None
    except sqlite3.DatabaseError as exc:
        raise NotAnIndex(f"{db_path} is not a crossbook index ({exc})") from None
    if migrations.pending(db):
        with writer_lock(index_dir, wait):
            if migrations.pending(db):  # another process may have migrated it meanwhile
                migrations.apply(db)
                with db.atomic():
                    db.execute(
                        "INSERT OR IGNORE INTO crossbook_meta (key, value) VALUES ('format', ?)", [MARKER]
                    )
    return db


def _check_not_truncated(db_path: Path) -> None:
    """Raise NotAnIndex for a crossbook.db of 0 bytes next to what was made from it (the
    vectors): opened, it would be a new empty index and orphan them. Alone in its directory
    it is a crash while the index was being created, with nothing to lose: a new index."""
    if not db_path.is_file() or db_path.stat().st_size > 0:
        return
    # the writer lock's file is no index data: a process creating the index holds it
    if any(p.name not in SQLITE_FILES and p.name != LOCK_FILE for p in db_path.parent.iterdir()):
        raise NotAnIndex(
            f"{db_path} is empty (0 bytes): the index lost its books; restore crossbook.db from a backup, "
            f"or delete {db_path.parent} and ingest the books again (e.g. crossbook rebuild crossbook.toml)"
        )


def open_for_planning(index_dir: Path) -> Database:
    """The index read-only, or an empty in-memory one when there is none yet: for a dry run,
    which writes nothing, not even the index directory. Raises NotAnIndex, IndexReadOnly."""
    db_path = index_dir / "crossbook.db"
    if not db_path.is_file():
        db = Database(memory=True)
        migrations.apply(db)
        return db
    return _open_read_only(db_path)


def open_read_only(index_dir: Path) -> Database:
    """The index opened for queries only (SQLite ``mode=ro``: no write, no migration),
    however its files' modes are set: for a server that must never change it. Raises
    IndexMissing, NotAnIndex, IndexReadOnly (an index an older crossbook built)."""
    check_index_dir(index_dir)
    return _open_read_only(index_dir / "crossbook.db")


def _writable(db_path: Path) -> bool:
    """Whether SQLite can write the index: the file, and its directory (WAL side files)."""
    return os.access(db_path, os.W_OK) and os.access(db_path.parent, os.W_OK)


def _open_read_only(db_path: Path) -> Database:
    """A read-only index (a shared or archived copy) opened for queries: no PRAGMA that
    writes, no migration. A WAL index whose side files cannot be created is read as
    immutable. Raises NotAnIndex, or IndexReadOnly when it needs a migration first."""
    uri = db_path.resolve().as_uri() + "?mode=ro"
    try:
        try:
            db = Database(sqlite3.connect(uri, uri=True, check_same_thread=False), execute_plugins=False)
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.OperationalError:
            db = Database(sqlite3.connect(uri + "&immutable=1", uri=True, check_same_thread=False),
                          execute_plugins=False)
        _check_is_index(db, db_path)
        pending = migrations.pending(db)
    except sqlite3.DatabaseError as exc:
        raise NotAnIndex(f"{db_path} is not a crossbook index ({exc})") from None
    if pending:
        raise IndexReadOnly(
            f"{db_path} is read-only and was built by an older crossbook; make it writable once to upgrade it"
        )
    return db
