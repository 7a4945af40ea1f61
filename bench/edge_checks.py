"""The claims no rulebook makes, counted over an index's stored edges (the held-out checks of
the rulebook issue: none of these should be found on any shelf):

- self-loops: an edge whose two ends are one name, or a name and its initials;
- ``variant_of`` to a class (an entity typed ``class``, or one that ``casts`` its own source,
  as a spell header's class does), to a label (the target opens a field: "Prerequisites:"),
  to a size word (the rulebook pack's ``creature_sizes``), or to an abbreviation (the
  evidence writes the one-word target in capitals only);
- fragments: an entity named like one side of an "X and Y" name another entity has
  ("Friends" of "Ward Foes and Friends") that the books never define, and the edges that end at one.

    python -m bench.edge_checks --index DIR        (or: --shelf PATH, ingested into a temporary index)
"""

from __future__ import annotations

import argparse
import re
import tempfile
from collections import Counter
from pathlib import Path

from bench.common.scoring import index_edges
from crossbook.core.normalize import normalize_name
from crossbook.core.packs import genre_words
from crossbook.relations.edge_guards import is_field_label, self_loop, written_as_abbreviation

ROOT = Path(__file__).resolve().parent.parent


def fragments(db) -> set[str]:
    """Normalized names of entities that are one side of another entity's "X and Y" name and
    that the books never define (a heading, or a lead: "***Thunder.***" of a staff's
    properties is one)."""
    defined = {r[0] for r in db.execute(
        "SELECT DISTINCT e.normalized FROM entities e JOIN entity_mentions m ON m.entity_id = e.id"
        " WHERE m.mention_type = 'defines'")}
    names = {r[0] for r in db.execute("SELECT normalized FROM entities")}
    sides = set()
    for (name,) in db.execute("SELECT name FROM entities WHERE name LIKE '% and %' OR name LIKE '% or %'"):
        for side in re.split(r"\s+(?:and|or)\s+", name):
            sides.add(normalize_name(side))
    return {n for n in sides & names if n and n not in defined}


def checks(db, edges: list[dict]) -> dict[str, list[dict]]:
    """Each check's offending edges (the fragments check: edges with a fragment end)."""
    types = {normalize_name(r[0]): r[1] for r in db.execute("SELECT name, entity_type FROM entities")}
    sizes = {normalize_name(w) for w in genre_words("rulebook", "creature_sizes")}
    casts = {(normalize_name(e["source"]), normalize_name(e["target"])) for e in edges if e["relation_type"] == "casts"}
    found: dict[str, list[dict]] = {k: [] for k in ("self-loop", "variant_of a class", "variant_of a label",
                                                    "variant_of a size", "variant_of an abbreviation", "fragment end")}
    frag = fragments(db)
    for e in edges:
        source, target = normalize_name(e["source"]), normalize_name(e["target"])
        if self_loop(e["source"], e["target"]):
            found["self-loop"].append(e)
        if source in frag or target in frag:
            found["fragment end"].append(e)
        if e["relation_type"] != "variant_of":
            continue
        if types.get(target) == "class" or (target, source) in casts:
            found["variant_of a class"].append(e)
        if is_field_label(e["evidence"], (e["target"], e["target_name"] or e["target"])):
            found["variant_of a label"].append(e)
        if target in sizes:
            found["variant_of a size"].append(e)
        if written_as_abbreviation(e["target"], e["evidence"]):
            found["variant_of an abbreviation"].append(e)
    found["fragment entities"] = [{"source": n, "relation_type": "", "target": ""} for n in sorted(frag)]
    return found


def report(db, edges: list[dict]) -> str:
    lines = []
    for name, bad in checks(db, edges).items():
        lines.append(f"{name}: {len(bad)}")
        lines += [f"    {e['source']} {e['relation_type']} {e['target']}".rstrip() for e in bad[:5]]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--index", help="an index directory")
    where.add_argument("--shelf", help="a folder of books, ingested now into a temporary index")
    args = parser.parse_args()
    from crossbook.core.config import load_settings  # noqa: PLC0415
    from crossbook.ingest.pipeline import IngestJob, ingest_paths  # noqa: PLC0415
    from crossbook.storage.db import open_db  # noqa: PLC0415

    if args.index:
        db = open_db(Path(args.index), create=False)
    else:
        directory = Path(tempfile.mkdtemp(prefix="crossbook-edge-checks-"))
        job = IngestJob(open_db(directory, create=True), load_settings({"index_dir": directory}, {}, None))
        ingest_paths(job, [Path(args.shelf)])
        db = job.db
    edges = index_edges(db)
    print(f"edges: {len(edges)} {dict(Counter(e['relation_type'] for e in edges).most_common())}")
    print(report(db, edges))


if __name__ == "__main__":
    main()
