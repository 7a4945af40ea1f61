"""Stat blocks on the 5.1 SRD shelf (../shared/corpora/srd51): what an offline ingest finds.

Prints, for an index built from the shelf (``--index``; without it the shelf is ingested into
a temporary index with the rules extractor and no vectors):
- edges stored, by type;
- creatures' conditions against the hand-read gold in
  tests/fixtures/statblocks/srd51_creature_conditions.json: pairs found, pairs stated, the
  creatures with a stated condition that get at least one right, and pairs found that the gold
  does not state;
- recall per relation type of what the books state (bench/srd51/stated_gold.py: use lines,
  "cast the *X* spell", an item's spells with their charges, a magic weapon's base, the
  creatures' conditions, their gear and what they or an item summon);
- the share of defined entities typed other than ``other``;
- the claims no rulebook makes (bench/edge_checks.py: self-loops, variant_of a class, label,
  size or abbreviation, "X and Y" fragments);
- ``--sample N``: N stored edges drawn with a fixed seed, each relation type in proportion,
  with their evidence, to read by hand.

    python -m bench.eval_statblocks [--index DIR] [--sample 40]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from collections import Counter
from pathlib import Path

from bench.common.relation_types import recall_by_type, type_table
from bench.common.rule_failures import report as report_failures
from bench.common.scoring import index_edges
from bench.edge_checks import report
from bench.srd51.stated_gold import stated
from crossbook.core.config import load_settings
from crossbook.core.normalize import normalize_name
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.storage.db import open_db

ROOT = Path(__file__).resolve().parent.parent

SHELF = ROOT.parent / "shared" / "corpora" / "srd51" / "markdown"
GOLD = ROOT / "tests" / "fixtures" / "statblocks" / "srd51_creature_conditions.json"


def _shelf() -> Path:
    for candidate in (ROOT / "corpora" / "srd51" / "markdown", SHELF, Path("/work/shared/corpora/srd51/markdown")):
        if candidate.is_dir():
            return candidate
    print("srd51 shelf not found (corpora/srd51/markdown or ../shared/corpora/srd51/markdown); skipped")
    raise SystemExit(0)


def _open(index: str | None):
    if index:
        return open_db(Path(index), create=False)
    directory = Path(tempfile.mkdtemp(prefix="crossbook-srd51-"))
    job = IngestJob(open_db(directory, create=True), load_settings({"index_dir": directory}, {}, None))
    ingest_paths(job, [_shelf()])
    return job.db


def condition_scores(edges: list[dict], gold: dict[str, list[str]]) -> dict[str, int]:
    """Creatures' inflicts edges against the gold, by normalized name."""
    found: dict[str, set[str]] = {}
    for edge in edges:
        if edge["relation_type"] == "inflicts":
            found.setdefault(normalize_name(edge["source"]), set()).add(normalize_name(edge["target"]))
    stated = right = extra = creatures = creatures_hit = 0
    for creature, conditions in gold.items():
        if creature.startswith("_"):
            continue
        want = {normalize_name(c) for c in conditions}
        got = found.get(normalize_name(creature), set())
        stated += len(want)
        right += len(want & got)
        extra += len(got - want)
        creatures += bool(want)
        creatures_hit += bool(want & got)
    return {"stated": stated, "found": right, "not_stated": extra, "creatures": creatures,
            "creatures_found": creatures_hit}


def proportional_sample(edges: list[dict], size: int, seed: int = 28) -> list[dict]:
    """``size`` edges drawn with a fixed seed, each relation type in proportion to its share
    (at least one of each type while the size allows), to read by hand."""
    by_type: dict[str, list[dict]] = {}
    for edge in edges:
        by_type.setdefault(edge["relation_type"], []).append(edge)
    rng, out = random.Random(seed), []
    quotas = {kind: max(1, round(size * len(group) / max(len(edges), 1))) for kind, group in by_type.items()}
    while sum(quotas.values()) > size and any(q > 1 for q in quotas.values()):
        biggest = max(quotas, key=quotas.get)
        quotas[biggest] -= 1
    for kind in sorted(by_type):
        out += rng.sample(by_type[kind], min(quotas[kind], len(by_type[kind])))
    return out[:size] if size else []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", help="an index built from the shelf (default: ingest it now)")
    parser.add_argument("--sample", type=int, default=0, help="print this many edges to read by hand")
    args = parser.parse_args()
    db = _open(args.index)
    report_failures("srd51 (stat blocks)")
    edges = index_edges(db)
    print(f"edges stored: {len(edges)} {dict(Counter(e['relation_type'] for e in edges).most_common())}")
    scores = condition_scores(edges, json.loads(GOLD.read_text(encoding="utf-8")))
    print(f"creatures' conditions: {scores['found']} / {scores['stated']} pairs found; "
          f"{scores['creatures_found']} / {scores['creatures']} creatures with a stated condition get one; "
          f"{scores['not_stated']} pairs found that the gold does not state")
    stated_found = recall_by_type(stated(_shelf(), GOLD), edges)
    print("relationships the books state, found per relation type (bench/srd51/stated_gold.py):")
    print(type_table([("srd51", stated_found)]))
    typed, total = db.execute(
        "SELECT sum(e.entity_type != 'other'), count(*) FROM entities e WHERE EXISTS"
        " (SELECT 1 FROM entity_mentions m WHERE m.entity_id = e.id AND m.mention_type = 'defines')").fetchone()
    print(f"defined entities typed other than 'other': {typed} / {total} = {typed / max(total, 1):.2f}")
    by_type = db.execute("SELECT entity_type, count(*) FROM entities GROUP BY entity_type ORDER BY 2 DESC").fetchall()
    print("entities by type:", ", ".join(f"{t} {n}" for t, n in by_type))
    print("the claims no rulebook makes (bench/edge_checks.py):")
    print(report(db, edges))
    for edge in proportional_sample(edges, args.sample):
        print(f"- {edge['source']} {edge['relation_type']} {edge['target']}   [{edge['heading_path']}]\n"
              f"    {' '.join(edge['evidence'].split())[:300]}")


if __name__ == "__main__":
    main()
