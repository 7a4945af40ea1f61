"""The Fate shelf scored against its gold (bench/fate/gold.json and gold_relations.json):
definitions by (book file, name), cross-book references, relationships by (book, source,
target, type), titles; names compared fairly (bench/fate/names.py). bench/eval_extraction.py
prints it; the gold's tests score the gold itself with it."""

from __future__ import annotations

from collections import Counter, defaultdict

from bench.common.scoring import Figure, compare
from bench.fate.fate_text import BOOKS as FATE_BOOKS
from bench.fate.names import canonical_keys, name_key


class GoldNames:
    """Gold entity names: every name and alias key -> the entity's canonical key."""

    def __init__(self, definitions: list[dict]):
        self.canonical = canonical_keys([(d["name"], d["aliases"]) for d in definitions])
        self.display = {}
        for d in definitions:
            self.display.setdefault(self.canonical[name_key(d["name"])], d["name"])

    def key(self, name: str) -> str:
        k = name_key(name)
        return self.canonical.get(k, k)

    def __contains__(self, key: str) -> bool:
        return key in self.display


def score_fate(gold: dict, gold_relations: list[dict], mentions: list[dict], edges: list[dict],
               title_file: dict[str, str], top: int = 15) -> dict:
    """Score what an index found on the Fate shelf against the gold. ``mentions``: dicts with
    book (title), mention_type, mention (surface name), name (entity name), heading_path;
    ``edges``: dicts with book, source, target, relation_type; ``title_file``: book title ->
    file name."""
    names = GoldNames(gold["definitions"])
    # definitions: (book file, entity key)
    gold_defs = {(d["book"], names.key(d["name"])): d for d in gold["definitions"]}
    found_defs: dict[tuple[str, str], dict] = {}
    defined_in: dict[str, set[str]] = defaultdict(set)
    references: dict[tuple[str, str], int] = Counter()
    for m in mentions:
        file = title_file[m["book"]]
        # the entity's name, or the surface form when only that one is a gold name
        key = names.key(m["name"])
        if key not in names and names.key(m["mention"]) in names:
            key = names.key(m["mention"])
        m["key"], m["file"] = key, file
        if m["mention_type"] == "defines":
            found_defs.setdefault((file, key), m)
            defined_in[key].add(file)
    for m in mentions:
        if m["mention_type"] == "references":
            references[(m["file"], m["key"])] += 1
    definitions = compare(set(gold_defs), set(found_defs))

    # cross-book references: a book that mentions an entity another book defines, and does
    # not define it itself (the gold's rule too)
    gold_refs = {(r["book"], names.key(r["name"])) for r in gold["references"]}
    found_refs = {(file, key) for (file, key) in references
                  if defined_in[key] and file not in defined_in[key]}
    cross = compare(gold_refs, found_refs)

    # relationships
    file_of_title = {b["title"]: b["file"] for b in gold["books"]}
    gold_rels = {(file_of_title[g["book"]], names.key(g["source"]), names.key(g["target"]), g["type"])
                 for g in gold_relations}
    found_rels = set()
    for e in edges:
        e["file"] = title_file[e["book"]]
        e["key"] = (e["file"], names.key(e["source"]), names.key(e["target"]), e["relation_type"])
        found_rels.add(e["key"])
    recall_hits = len(gold_rels & found_rels)
    anywhere = {k[1:] for k in found_rels}
    gold_endpoint_edges = {k for k in found_rels if k[1] in names and k[2] in names}
    relations = Figure(len(gold_rels), len(gold_endpoint_edges), len(gold_endpoint_edges & gold_rels), recall_hits)

    # titles
    found_title = {file: title for title, file in title_file.items()}
    titles = [{"file": f, "expected": t, "found": found_title.get(f)} for f, t in FATE_BOOKS.items()]

    misses = sorted(set(gold_defs) - set(found_defs),
                    key=lambda k: (-sum(1 for r in gold_refs if r[1] == k[1]), list(FATE_BOOKS).index(k[0])))
    false_pos = sorted(set(found_defs) - set(gold_defs), key=lambda k: (-references_to(references, k[1]), k))
    return {
        "shelf": "fate", "books": len(FATE_BOOKS),
        "definitions": definitions.as_dict(),
        "cross_book_references": cross.as_dict(),
        "relationships": relations.as_dict() | {
            "found_edges": len(found_rels), "gold_found_in_any_book": len({k[1:] for k in gold_rels} & anywhere),
            "precision_note": "against the recall set, edges with two gold endpoints only: a lower bound"},
        "titles": {"expected": len(titles), "correct": sum(t["expected"] == t["found"] for t in titles),
                   "books": titles},
        "definition_misses": [
            {"book": k[0], "name": gold_defs[k]["name"], "section": gold_defs[k]["section"], "line": gold_defs[k]["line"]}
            for k in misses[:top]],
        "definition_false_positives": [
            {"book": k[0], "name": found_defs[k]["name"], "section": found_defs[k]["heading_path"],
             "references": references_to(references, k[1])} for k in false_pos[:top]],
        "counts": {"gold_definitions": len(gold_defs), "gold_references": len(gold_refs),
                   "gold_relationships": len(gold_rels)},
    }


def references_to(references: Counter, key: str) -> int:
    return sum(n for (_, k), n in references.items() if k == key)
