"""Check: do two indexes hold the same derived state (a speed change must not change what is linked)?

Reads each index's SQLite tables by content, not by row id or ingest time: the entities, every
mention (the linker's included, with its rule and origin book), the relationships and claims
by their endpoints' keys, the aliases, the chunks, and the linker's own state (link targets
and names, chunk words, word counts; the index's state but its id and vector marks). Prints
each table's row count in both and how many rows only one holds (and the first few of them);
exits 1 when any table differs. Asserts nothing else.

    python -m bench.compare_index_tables INDEX_A INDEX_B [--show 5]
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections import Counter
from pathlib import Path

TABLES = {
    "entities": "SELECT name, normalized, entity_type FROM entities",
    "mentions": (
        "SELECT e.normalized, e.entity_type, m.book, m.chunk_id, m.mention_type, m.name, m.normalized,"
        " m.declared_type, m.context, m.source, m.origin_book, m.rule"
        " FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
    ),
    "relationships": (
        "SELECT s.normalized, s.entity_type, t.normalized, t.entity_type, r.relation_type, r.mapped_from,"
        " r.book, r.chunk_id, r.source_name, r.target_name, r.evidence, r.confidence, r.polarity, r.implicit,"
        " r.status, r.status_reason, r.review_state, r.extractor, r.claims, r.fingerprint"
        " FROM entity_relationships r JOIN entities s ON s.id = r.source_id JOIN entities t ON t.id = r.target_id"
    ),
    "claims": (
        "SELECT book, chunk_id, ordinal, source_name, source_normalized, source_type, target_name,"
        " target_normalized, target_type, relation_type, evidence, confidence, polarity, implicit,"
        " extractor, status FROM relation_claims"
    ),
    "aliases": "SELECT book, chunk_id, alias, normalized, canonical, entity_type FROM entity_aliases",
    "rule_vetoes": "SELECT book, chunk_id, stage, name, normalized, rule FROM rule_vetoes",
    "chunks": "SELECT id, book, kind, parent_id, ordinal, heading_path, part, sha256 FROM chunks",
    "link_targets": "SELECT normalized, entity_type, names, books, category FROM link_targets",
    "link_names": "SELECT token, words, normalized, entity_type FROM link_names",
    "link_chunks": "SELECT chunk_id, words FROM link_chunks",
    "book_words": "SELECT book, total, counts FROM book_words",
    "shelf_words": "SELECT word, count FROM shelf_words",
    "index_state": "SELECT key, value FROM crossbook_meta WHERE key != 'index_id' AND key NOT LIKE 'vectors_synced:%'",
}


def rows(db: Path, query: str) -> Counter:
    """The rows of ``query`` in the index folder (or SQLite file) ``db``, as a multiset."""
    path = db / "crossbook.db" if db.is_dir() else db
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return Counter(tuple(r) for r in conn.execute(query))
    except sqlite3.OperationalError as error:  # a table the index does not have
        return Counter({("missing", str(error)): 1})
    finally:
        conn.close()


def compare(a: Path, b: Path, show: int) -> bool:
    """Print each table's comparison; True when every table is equal."""
    same = True
    for table, query in TABLES.items():
        left, right = rows(a, query), rows(b, query)
        only_a, only_b = left - right, right - left
        status = "same" if not only_a and not only_b else "DIFFERENT"
        same &= status == "same"
        print(f"{table:14} {sum(left.values()):>8} {sum(right.values()):>8}  {status}"
              + (f" (only in A: {sum(only_a.values())}, only in B: {sum(only_b.values())})" if status != "same" else ""))
        for label, extra in (("A", only_a), ("B", only_b)):
            for row in sorted(extra, key=repr)[:show]:
                print(f"    only in {label}: {repr(row)[:300]}")
    return same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path, help="an index folder (or its crossbook.db)")
    parser.add_argument("b", type=Path, help="another index folder (or its crossbook.db)")
    parser.add_argument("--show", type=int, default=5, help="rows shown of each difference")
    args = parser.parse_args()
    print(f"{'table':14} {'A rows':>8} {'B rows':>8}")
    sys.exit(0 if compare(args.a, args.b, args.show) else 1)


if __name__ == "__main__":
    main()
