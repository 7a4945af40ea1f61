"""Open the index database: PRAGMAs and migrations, nothing else."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlite_utils import Database

from .errors import IndexMissing, NotAnIndex
from .migrations import migrations

MARKER = "crossbook-index"


def _check_is_index(db: Database, db_path: Path) -> None:
    tables = set(db.table_names())
    if not tables:
        return
    if "crossbook_meta" not in tables:
        raise NotAnIndex(
            f"{db_path} is a SQLite database but not a crossbook index "
            "(point --index at another directory)"
        )


def open_db(index_dir: Path, *, create: bool = False) -> Database:
    """Open (and migrate) ``index_dir/crossbook.db``.

    ``create=False`` is for read commands: a missing index raises IndexMissing.
    Raises NotAnIndex when the directory or file holds something else.
    """
    db_path = index_dir / "crossbook.db"
    if index_dir.exists() and not index_dir.is_dir():
        raise NotAnIndex(f"index path {index_dir} is a file, not a directory (use --index DIR)")
    if not db_path.exists():
        if index_dir.is_dir() and any(index_dir.iterdir()):
            raise NotAnIndex(
                f"{index_dir} is not a crossbook index (it has files but no crossbook.db; "
                "use --index with an empty or new directory)"
            )
        if not create:
            raise IndexMissing(f"no index at {index_dir} (run: crossbook ingest BOOK)")
        index_dir.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite3.connect(str(db_path), timeout=30, check_same_thread=False)
        db = Database(conn)
        db.execute("PRAGMA busy_timeout = 30000")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA foreign_keys = ON")
        _check_is_index(db, db_path)
    except sqlite3.DatabaseError as exc:
        raise NotAnIndex(f"{db_path} is not a crossbook index ({exc})") from None
    if migrations.pending(db):
        migrations.apply(db)
        with db.atomic():
            db.execute(
                "INSERT OR IGNORE INTO crossbook_meta (key, value) VALUES ('format', ?)", [MARKER]
            )
    return db
