"""Scoring an index against sample_corpus/gold.json (precision/recall of defines and of
cross-book references). Used by tests/extract/test_extraction_gold_sample.py and bench/eval_gold.py."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from crossbook.core.normalize import normalize_name

Key = tuple[str, str, str, str]  # (book, section path, normalized name, type)


@dataclass
class Score:
    gold: int
    found: int
    correct: int

    @property
    def precision(self) -> float:
        return self.correct / self.found if self.found else 0.0

    @property
    def recall(self) -> float:
        return self.correct / self.gold if self.gold else 0.0

    def __str__(self) -> str:
        return f"precision {self.precision:.3f} ({self.correct}/{self.found}), recall {self.recall:.3f} ({self.correct}/{self.gold})"


def _score(gold: set, found: set) -> Score:
    return Score(len(gold), len(found), len(gold & found))


def gold_sets(gold_path: Path) -> tuple[set[Key], set[Key], set[Key]]:
    """(defines, references, cross-book references) of the gold file."""
    sections = json.loads(gold_path.read_text(encoding="utf-8"))["sections"]
    defined_in: dict[tuple[str, str], set[str]] = defaultdict(set)
    defines, references = set(), set()
    for s in sections:
        for d in s["defines"]:
            key = (s["book"], s["path"], normalize_name(d["name"]), d["type"])
            defines.add(key)
            defined_in[key[2:]].add(s["book"])
        for r in s["references"]:
            references.add((s["book"], s["path"], normalize_name(r["name"]), r["type"]))
    cross = {r for r in references if r[0] not in defined_in[r[2:]]}
    return defines, references, cross


def index_sets(db) -> tuple[set[Key], set[Key], set[Key]]:
    rows = db.execute(
        "SELECT m.book, c.heading_path, e.normalized, e.entity_type, m.mention_type FROM entity_mentions m"
        " JOIN entities e ON e.id = m.entity_id JOIN chunks c ON c.id = m.chunk_id"
    ).fetchall()
    defined_in = defaultdict(set)
    for book, _, normalized, etype, kind in rows:
        if kind == "defines":
            defined_in[(normalized, etype)].add(book)
    defines = {r[:4] for r in rows if r[4] == "defines"}
    references = {r[:4] for r in rows if r[4] == "references"}
    cross = {r for r in references if r[0] not in defined_in[r[2:]]}
    return defines, references, cross


def score_index(db, gold_path: Path) -> dict[str, Score]:
    gold = gold_sets(gold_path)
    found = index_sets(db)
    names = ("defines", "references", "cross_book_references")
    return {n: _score(g, f) for n, g, f in zip(names, gold, found)}


def misses(db, gold_path: Path, kind: int = 2) -> tuple[list, list]:
    """(false negatives, false positives) of one kind (0 defines, 1 references, 2 cross-book)."""
    g, f = gold_sets(gold_path)[kind], index_sets(db)[kind]
    return sorted(g - f), sorted(f - g)
