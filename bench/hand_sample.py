"""A seeded random sample of stored definitions or edges of one shelf, for a verdict by hand.

    python -m bench.hand_sample --shelf fate|ironsworn|sample --what defs|edges [--n 100] [--seed 0]
    python -m bench.hand_sample --shelf fate --what defs --score   # rescore saved labels

Each shelf is ingested with the offline defaults into .crossbook-eval/hand-<shelf>/ (kept, so
the defs and edges samples come from one index; --fresh rebuilds it). The Ironsworn vault is
one book, read by the vault reader (bench/common/shelves.py). A vault note's own definition that a
reader marks wrong (a topic or an index note) is counted twice: as read, and as the vault rule
has it (every note is an entity, as the vault's gold counts it): ``precision_notes_as_entities``.

Labels live in bench/hand_labels/<shelf>-<what>.json as {"items": [{"key": [...], "verdict":
"right"|"wrong", "class": "..."}]}; the key of a definition is (book, heading path, name), of an
edge (book, source, relation type, target). --score prints, for the current index, how many of
the labelled items it still stores are right, and the wrong ones by class; items of its seeded
sample not labelled yet (a rule added them) are listed so they can be read and added.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
from collections import Counter
from pathlib import Path

from bench.common.scoring import index_edges
from bench.common.shelves import ingest_ironsworn
from bench.fate.fate_text import BOOKS as FATE_BOOKS
from bench.fate.fate_text import CORPUS as FATE_CORPUS
from crossbook.core.config import load_settings
from crossbook.core.errors import CrossbookError
from crossbook.ingest.manifest import rebuild
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db

ROOT = Path(__file__).resolve().parent.parent

SAMPLE = ROOT / "sample_corpus"
LABELS = ROOT / "bench" / "hand_labels"
WORK = ROOT / ".crossbook-eval"

DEFS_SQL = """
SELECT m.book, c.heading_path, m.name, e.name AS entity, e.entity_type, m.context, m.source, m.rule
FROM entity_mentions m JOIN entities e ON e.id = m.entity_id JOIN chunks c ON c.id = m.chunk_id
WHERE m.mention_type = 'defines'
ORDER BY m.book, c.ordinal, m.id
"""


def build(shelf: str, index_dir: Path):
    """Ingest ``shelf`` with the offline defaults into ``index_dir``; returns the open db."""
    if shelf == "sample":
        manifest = SAMPLE / "crossbook.toml"
        settings = load_settings({"index_dir": index_dir}, {}, manifest)
        db = open_db(settings.index_dir, create=True)
        rebuild(IngestJob(db, settings), manifest)
        return db
    settings = load_settings({"index_dir": index_dir}, {}, None)
    db = open_db(settings.index_dir, create=True)
    job = IngestJob(db, settings)
    if shelf == "ironsworn":
        ingest_ironsworn(job)
        return db
    for path in [FATE_CORPUS / f for f in FATE_BOOKS]:
        try:
            ingest_paths(job, [path])
        except CrossbookError as exc:
            print(f"ingest of {path.name} failed: {exc}", file=sys.stderr)
    return db


def open_shelf(shelf: str, fresh: bool):
    index_dir = WORK / f"hand-{shelf}"
    if fresh and index_dir.exists():
        shutil.rmtree(index_dir)
    if index_dir.exists() and (index_dir / "crossbook.db").exists():
        settings = load_settings({"index_dir": index_dir}, {}, None)
        return open_db(settings.index_dir)
    return build(shelf, index_dir)


def definitions(db) -> list[dict]:
    return [dict(r) for r in db.query(DEFS_SQL)]


def def_key(d: dict) -> list[str]:
    return [d["book"], d["heading_path"], d["name"]]


def edge_key(e: dict) -> list[str]:
    return [e["book"], e["source"], e["relation_type"], e["target"]]


def pick(items: list[dict], n: int, seed: int) -> list[dict]:
    return random.Random(seed).sample(items, min(n, len(items)))


def show(what: str, picked: list[dict]) -> None:
    for i, item in enumerate(picked, 1):
        if what == "defs":
            context = " ".join(item["context"].split())[:220]
            print(f"{i:>3}. {item['name']!r} [{item['entity_type']}] {item['book']} :: {item['heading_path']}\n"
                  f"     {context}")
        else:
            evidence = " ".join(item["evidence"].split())[:260]
            print(f"{i:>3}. {item['source']} --{item['relation_type']}--> {item['target']}   ({item['book']} :: "
                  f"{item['heading_path']})\n     {evidence}")


def load_labels(shelf: str, what: str) -> dict[tuple, dict]:
    path = LABELS / f"{shelf}-{what}.json"
    if not path.exists():
        return {}
    return {tuple(item["key"]): item for item in json.loads(path.read_text(encoding="utf-8"))["items"]}


def score(shelf: str, what: str, items: list[dict], n: int, seed: int) -> dict:
    """Hand-read precision of the current index: the labelled items it still stores.

    The labels were given to a uniform sample of an earlier index; the labelled items a rule
    kept are a uniform sample of what it kept from that index, so right / read stays an
    unbiased figure after a rule removes items. Items a rule added are not in it: those of
    this index's own seeded sample that carry no label are returned as ``unread``."""
    labels = load_labels(shelf, what)
    key = def_key if what == "defs" else edge_key
    stored = {tuple(key(item)): item for item in items}
    read = [v for k, v in labels.items() if k in stored]
    right = sum(v["verdict"] == "right" for v in read)
    wrong = Counter(v.get("class", "other") for v in read if v["verdict"] != "right")
    # a vault note's own definition read as wrong (a topic or index note): the vault rule makes
    # every note an entity, and a vault's gold counts it right; both figures are reported
    wrong_notes = sum(1 for k, v in labels.items() if k in stored and v["verdict"] != "right"
                      and stored[k].get("source") == "note")
    picked = pick(items, n, seed)
    unread = [item for item in picked if tuple(key(item)) not in labels]
    return {"stored": len(items), "labelled": len(labels), "read": len(read), "right": right,
            "precision": right / len(read) if read else None, "wrong_classes": dict(wrong.most_common()),
            "wrong_notes": wrong_notes,
            "precision_notes_as_entities": (right + wrong_notes) / len(read) if read and wrong_notes else None,
            "unread_in_sample": len(unread), "unread": unread}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shelf", choices=("fate", "ironsworn", "sample"), required=True)
    parser.add_argument("--what", choices=("defs", "edges"), required=True)
    parser.add_argument("--n", type=int, default=100, help="sample size")
    parser.add_argument("--seed", type=int, default=0, help="sample seed")
    parser.add_argument("--fresh", action="store_true", help="rebuild the shelf's index first")
    parser.add_argument("--score", action="store_true", help="score the saved labels on this sample")
    args = parser.parse_args()
    db = open_shelf(args.shelf, args.fresh)
    items = definitions(db) if args.what == "defs" else index_edges(db)
    db.close()
    if args.score:
        result = score(args.shelf, args.what, items, args.n, args.seed)
        unread = result.pop("unread")
        print(json.dumps(result, ensure_ascii=False))
        if unread:
            print(f"\n{len(unread)} sampled items have no label yet:")
            show(args.what, unread)
        return 0
    print(f"# {args.shelf} {args.what}: {min(args.n, len(items))} of {len(items)} stored (seed {args.seed})")
    show(args.what, pick(items, args.n, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
