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
    # a batch answer an ingest has used no longer waits for one (see prune)
    db.conn.executemany("UPDATE llm_batch_requests SET state = 'ingested' WHERE custom_id = ? AND state = 'cached'",
                        [(key,) for key in set(keys.values())])


def prune(db: Database, dry_run: bool = False) -> dict:
    """Delete cached answers that no stored chunk uses (a section edited away, a deleted book,
    another model or endpoint), but for the answers of Batch API batches that no ingest has
    used yet: they wait for it. Returns {"removed": n, "kept": n}."""
    unused = ("FROM llm_cache WHERE key NOT IN (SELECT key FROM llm_cache_chunks)"
              " AND key NOT IN (SELECT custom_id FROM llm_batch_requests WHERE state = 'cached')")
    with db.atomic():
        total = db.execute("SELECT count(*) FROM llm_cache").fetchone()[0]
        removed = db.execute(f"SELECT count(*) {unused}").fetchone()[0]
        if not dry_run:
            db.execute(f"DELETE {unused}")
    return {"removed": removed, "kept": total - removed, "dry_run": dry_run}
