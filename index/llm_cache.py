"""The LLM answer cache's bookkeeping: which answer each stored chunk uses, and pruning.

The answers themselves are read and written by store.cache_get / store.cache_put.
"""

from __future__ import annotations

from sqlite_utils import Database


def record_chunk_keys(db: Database, keys: dict[str, str]) -> None:
    """Remember the cache key of each parent chunk (call inside the book's transaction,
    after its chunks are inserted: the rows go with the chunks)."""
    db.conn.executemany(
        "INSERT OR REPLACE INTO llm_cache_chunks (chunk_id, key) VALUES (?, ?)", list(keys.items())
    )


def prune(db: Database, dry_run: bool = False) -> dict:
    """Delete cached answers that no stored chunk uses (a section edited away, a deleted book,
    another model or endpoint). Returns {"removed": n, "kept": n}."""
    unused = "FROM llm_cache WHERE key NOT IN (SELECT key FROM llm_cache_chunks)"
    with db.atomic():
        total = db.execute("SELECT count(*) FROM llm_cache").fetchone()[0]
        removed = db.execute(f"SELECT count(*) {unused}").fetchone()[0]
        if not dry_run:
            db.execute(f"DELETE {unused}")
    return {"removed": removed, "kept": total - removed, "dry_run": dry_run}
