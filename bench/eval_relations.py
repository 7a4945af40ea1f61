"""Precision/recall of the offline (spaCy) relationship path on sample_corpus/ (no LLM).

Builds an index of the corpus with the rules extractor in a temporary directory (for the
entities each section mentions), runs ``index.relations.svo.candidate_relations`` on every
parent chunk with that chunk's entities, maps the UPPER_SNAKE relation types to the gold
types and compares with ``gold_relations.json`` on (book, section, source, target, type).
Prints figures; asserts nothing.

    python -m bench.eval_relations [--corpus sample_corpus] [--verbose]

With --shelf (fate, ironsworn, sample or all) it reports, per shelf, what ingest stores: the
edges (by type), the recall per relation type of the shelf's gold relationships (a table of
the shelves side by side), on Fate the stated relationships found against bench/fate/gold_relations.json
(scored as bench/eval_extraction.py scores them), and the hand-read precision of the saved
labels (bench/hand_labels/<shelf>-edges.json, bench/hand_sample.py's scoring). The shelf's
index is the one bench/hand_sample.py keeps (.crossbook-eval/hand-<shelf>/, built when
missing); its relationships are derived again with the current code first (claims and rows
only: entities and mentions do not depend on index/relations), so a relationship rule is
measured on all three shelves in seconds.

    python -m bench.eval_relations --shelf all [--json] [--show-unread]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from bench.common.relation_types import recall_by_type, type_table
from bench.common.rule_failures import report as report_failures
from bench.common.scoring import index_edges, prf
from crossbook.core.config import load_settings
from crossbook.ingest.manifest import rebuild
from crossbook.ingest.pipeline import IngestJob
from crossbook.relations import svo
from crossbook.storage.db import open_db
from crossbook.storage.index_state import read_state

ROOT = Path(__file__).resolve().parent.parent

# Used when no ontology module with a normalize function is importable: the gold types of
# the sample corpus and the verbs that express them.
VERB_TO_TYPE = {
    "INFLICTS": "inflicts",
    "CASTS": "casts",
    "COUNTERS": "counters",
    "REQUIRES": "requires",
    "MODIFIES": "modifies",
    "WIELDS": "wields",
    "VARIANT_OF": "variant_of",
    "PART_OF": "part_of",
}


def local_type_map(relation_type: str) -> str:
    return VERB_TO_TYPE.get(relation_type, f"custom:{relation_type.lower()}")


def type_mapper(settings) -> tuple[object, str]:
    """The ontology's normalizer (index/relations/normalize.py) when it is importable, else
    the local table; returns (raw type -> type, what was used)."""
    try:
        from crossbook.core.packs import load_pack
        from crossbook.relations.normalize import normalize_type
        from crossbook.relations.ontology import ontology_for

        ontology = ontology_for(settings, load_pack(settings.pack))
        return (lambda t: normalize_type(t, ontology) or t), "the ontology (index.relations.normalize.normalize_type)"
    except Exception as exc:  # the ontology modules are another engineer's and may be absent
        reason = f"{type(exc).__name__}: {exc}"
        return local_type_map, f"the local verb->type table in bench/eval_relations.py (no usable ontology: {reason})"


def section_entities(db) -> dict[str, tuple[dict, list[svo.ChunkEntity]]]:
    """Parent chunk id -> (chunk row, the chunk's entities as ChunkEntity)."""
    chunks = {row["id"]: row for row in db.query(
        "SELECT id, book, heading_path, text FROM chunks WHERE kind = 'parent' ORDER BY book, ordinal"
    )}
    forms: dict[str, dict[tuple, tuple[str, set[str]]]] = defaultdict(dict)
    for row in db.query(
        """SELECT m.chunk_id, m.name AS mention_name, e.name, e.normalized, e.entity_type
           FROM entity_mentions m JOIN entities e ON e.id = m.entity_id
           JOIN chunks c ON c.id = m.chunk_id WHERE c.kind = 'parent'"""
    ):
        key = (row["normalized"], row["entity_type"])
        entry = forms[row["chunk_id"]].setdefault(key, (row["name"], set()))
        entry[1].add(row["mention_name"])
    out = {}
    for chunk_id, chunk in chunks.items():
        entities = [
            svo.ChunkEntity(name=name, surface_forms=tuple(sorted(names)), key=key)
            for key, (name, names) in sorted(forms.get(chunk_id, {}).items())
        ]
        out[chunk_id] = (chunk, entities)
    return out


def rederive(db) -> None:
    """Derive the index's relationships again with the current code (every chunk's claims
    and every row), as a full refresh does."""
    from crossbook.relations import edges, offline

    with db.atomic():
        db.execute("DELETE FROM relation_svo_chunks")
        offline.load_parser(read_state(db).relations_mode)
        edges.refresh(db)


def shelf_report(shelf: str, fresh: bool, show_unread: bool) -> dict:
    """Edges stored, found vs gold (Fate) and hand-read precision of one shelf's index."""
    from bench.hand_sample import open_shelf
    from bench.hand_sample import score as hand_score

    db = open_shelf(shelf, fresh)
    rederive(db)
    stored = index_edges(db)
    title_file = {row["title"]: Path(row["path"]).name for row in db.query("SELECT title, path FROM books")}
    db.close()
    report = {"shelf": shelf, "edges": len(stored),
              "by_type": dict(Counter(e["relation_type"] for e in stored).most_common())}
    gold_file = {"fate": ROOT / "bench" / "fate" / "gold_relations.json",
                 "sample": ROOT / "sample_corpus" / "gold_relations.json"}.get(shelf)
    report["by_type_recall"] = recall_by_type(
        json.loads(gold_file.read_text(encoding="utf-8"))["relations"], stored) if gold_file else None
    if shelf == "fate":
        from bench.eval_extraction import FATE_GOLD, FATE_RELATIONS
        from bench.fate.score import score_fate

        gold = json.loads(FATE_GOLD.read_text(encoding="utf-8"))
        gold_relations = json.loads(FATE_RELATIONS.read_text(encoding="utf-8"))["relations"]
        rel = score_fate(gold, gold_relations, [], [dict(e) for e in stored], title_file)["relationships"]
        report["gold"] = {"found": rel["correct"], "of": rel["gold"]}
    hand = hand_score(shelf, "edges", stored, 100, 0)
    unread = hand.pop("unread")
    report["hand"] = hand
    if show_unread:
        report["unread"] = [{k: e[k] for k in ("book", "source", "relation_type", "target", "evidence")}
                            for e in unread]
    return report


def shelves_main(args) -> int:
    shelves = ("fate", "ironsworn", "sample") if args.shelf == "all" else (args.shelf,)
    reports = []
    for shelf in shelves:
        reports.append(shelf_report(shelf, args.fresh, args.show_unread))
        report_failures(f"{shelf} (relations)")
    if args.json:
        print(json.dumps(reports, ensure_ascii=False, indent=1))
        return 0
    print("recall per relation type of the gold relationships (in any book):")
    print(type_table([(r["shelf"], r["by_type_recall"]) for r in reports]))
    for r in reports:
        hand = r["hand"]
        gold = f", gold found {r['gold']['found']}/{r['gold']['of']}" if "gold" in r else ""
        precision = f"{hand['precision']:.2f}" if hand["precision"] is not None else "-"
        print(f"{r['shelf']:<10} edges {r['edges']}{gold}; hand {hand['right']}/{hand['read']} right ({precision}), "
              f"wrong {hand['wrong_classes']}, unread in sample {hand['unread_in_sample']}")
        print(f"{'':<10} by type {r['by_type']}")
        for e in r.get("unread", []):
            print(f"{'':<12}{e['source']} --{e['relation_type']}--> {e['target']}  | {' '.join(e['evidence'].split())[:200]}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "sample_corpus")
    parser.add_argument("--shelf", choices=("fate", "ironsworn", "sample", "all"),
                        help="report what ingest stores on a development shelf (see the docstring)")
    parser.add_argument("--fresh", action="store_true", help="with --shelf: rebuild the shelf's index first")
    parser.add_argument("--json", action="store_true", help="with --shelf: one JSON document")
    parser.add_argument("--show-unread", action="store_true", help="with --shelf: list the sampled edges not labelled yet")
    parser.add_argument("--verbose", action="store_true", help="list misses and false positives")
    parser.add_argument("--local-types", action="store_true", help="map types with the local table, not the ontology")
    args = parser.parse_args()
    if args.shelf:
        return shelves_main(args)
    manifest = args.corpus / "crossbook.toml"
    gold_rows = json.loads((args.corpus / "gold_relations.json").read_text(encoding="utf-8"))["relations"]
    gold = {(g["book"], g["path"], g["source"], g["target"], g["type"]) for g in gold_rows}
    gold_sections = {(g["book"], g["path"]) for g in gold_rows}

    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings({"index_dir": Path(tmp), "embedder": "hash"}, {}, manifest)
        to_type, mapper_name = type_mapper(settings)
        if args.local_types:
            to_type, mapper_name = local_type_map, "the local verb->type table in bench/eval_relations.py (--local-types)"
        db = open_db(settings.index_dir, create=True)
        summary = rebuild(IngestJob(db, settings), manifest)
        if summary["failed"]:
            print(f"ingest failed: {summary['failed']}", file=sys.stderr)
            return 1
        sections = section_entities(db)
        db.close()

    started = time.perf_counter()
    svo.load_nlp()
    load_seconds = time.perf_counter() - started

    svo.clear_cache()
    stats = svo.SvoStats()
    predictions: list[tuple[tuple, object]] = []
    started = time.perf_counter()
    for chunk, entities in sections.values():
        result = svo.analyse_chunk(chunk["text"], entities)
        stats.add(result.stats)
        for rel in result.relations:
            predictions.append(((chunk["book"], chunk["heading_path"]), rel))
    cold_seconds = time.perf_counter() - started
    started = time.perf_counter()
    for chunk, entities in sections.values():
        svo.analyse_chunk(chunk["text"], entities)
    warm_seconds = time.perf_counter() - started

    asserted = [(sec, rel) for sec, rel in predictions if rel.polarity == "asserted"]
    predicted = {(*sec, rel.source_name, rel.target_name, to_type(rel.relation_type)) for sec, rel in asserted}
    predicted_in_gold_sections = {p for p in predicted if p[:2] in gold_sections}
    tp_set = predicted & gold

    print(f"offline relationship path on {args.corpus.name}/ (model {svo.MODEL}, no LLM)")
    print(f"type mapping: {mapper_name}")
    print(
        f"sections {len(sections)}, sentences {stats.sentences}, with 2+ entities {stats.candidate_sentences}, "
        f"parsed {stats.parsed}, mention pairs {stats.pairs}, linked {stats.linked}, "
        f"filtered non-verbs {stats.filtered_non_verbs}"
    )
    polarity = Counter(rel.polarity for _, rel in predictions)
    print(f"candidates {len(predictions)} ({', '.join(f'{k} {v}' for k, v in sorted(polarity.items()))}); "
          f"distinct typed triples scored {len(predicted)}")
    print(
        f"throughput: model load {load_seconds:.2f}s; cold {cold_seconds * 1000:.0f} ms "
        f"({stats.parsed / cold_seconds:.0f} parsed sentences/s, {stats.sentences / cold_seconds:.0f} sentences/s); "
        f"warm (cache) {warm_seconds * 1000:.0f} ms"
    )
    print()
    print(f"{'gold type':<12} {'gold':>5} {'pred':>5} {'tp':>4} {'P':>6} {'R':>6} {'F1':>6}")
    types = sorted({g[4] for g in gold})
    for t in types:
        g_t = {g for g in gold if g[4] == t}
        p_t = {p for p in predicted if p[4] == t}
        tp = len(g_t & p_t)
        p, r, f = prf(tp, len(p_t) - tp, len(g_t) - tp)
        print(f"{t:<12} {len(g_t):>5} {len(p_t):>5} {tp:>4} {p:>6.2f} {r:>6.2f} {f:>6.2f}")
    other = {p for p in predicted if p[4] not in types}
    print(f"{'(other)':<12} {0:>5} {len(other):>5} {0:>4}")
    p, r, f = prf(len(tp_set), len(predicted) - len(tp_set), len(gold) - len(tp_set))
    print(f"{'overall':<12} {len(gold):>5} {len(predicted):>5} {len(tp_set):>4} {p:>6.2f} {r:>6.2f} {f:>6.2f}")
    typed = {x for x in predicted if x[4] in types}
    p2, r2, f2 = prf(len(tp_set), len(typed) - len(tp_set), len(gold) - len(tp_set))
    print(f"{'gold types only':<12} {len(gold):>5} {len(typed):>5} {len(tp_set):>4} {p2:>6.2f} {r2:>6.2f} {f2:>6.2f}"
          "   (predictions of other types not counted)")
    tp_g = len(predicted_in_gold_sections & gold)
    p3, r3, f3 = prf(tp_g, len(predicted_in_gold_sections) - tp_g, len(gold) - tp_g)
    print(f"{'gold sections':<12} {len(gold):>5} {len(predicted_in_gold_sections):>5} {tp_g:>4} "
          f"{p3:>6.2f} {r3:>6.2f} {f3:>6.2f}   (only sections that have gold relations)")
    if args.verbose:
        evidence = {(g["book"], g["path"], g["source"], g["target"], g["type"]): g["evidence"] for g in gold_rows}
        print("\nmissed:")
        for g in sorted(gold - predicted):
            print(f"  {g[2]} -{g[4]}-> {g[3]}  | {evidence[g]}")
        print("\nfalse positives:")
        ev = {(*sec, rel.source_name, rel.target_name, to_type(rel.relation_type)): rel for sec, rel in asserted}
        for x in sorted(predicted - gold):
            rel = ev[x]
            print(f"  {x[2]} -{rel.relation_type}-> {x[3]} ({rel.confidence})  | {rel.evidence}")
        print("\nnot asserted (not scored):")
        for sec, rel in predictions:
            if rel.polarity != "asserted":
                print(f"  [{rel.polarity}] {rel.source_name} -{rel.relation_type}-> {rel.target_name}  | {rel.evidence}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
