"""Scoring helpers shared by bench/eval_relations.py and bench/eval_extraction.py."""

from __future__ import annotations

from dataclasses import dataclass

# A stored relationship counts as found when the product would show it: valid ('ready'),
# not rejected by a reviewer, and asserted (not "X does not counter Y").
EDGES_SQL = """
SELECT r.book, c.heading_path, s.name AS source, t.name AS target, r.source_name, r.target_name,
       r.relation_type, r.evidence, b.path AS book_path
FROM entity_relationships r
JOIN entities s ON s.id = r.source_id
JOIN entities t ON t.id = r.target_id
JOIN chunks c ON c.id = r.chunk_id
JOIN books b ON b.title = r.book
WHERE r.status = 'ready' AND r.review_state != 'rejected' AND r.polarity = 'asserted'
ORDER BY r.book, c.ordinal, r.id
"""


def prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    """(precision, recall, F1); 0.0 where a ratio has no denominator."""
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


@dataclass
class Figure:
    """One precision/recall figure: ``correct`` of ``found`` found items are right, out of
    ``gold`` gold items (``correct_gold`` of them found, when the two counts differ)."""

    gold: int
    found: int
    correct: int
    correct_gold: int | None = None

    @property
    def precision(self) -> float | None:
        return self.correct / self.found if self.found else None

    @property
    def recall(self) -> float | None:
        hit = self.correct if self.correct_gold is None else self.correct_gold
        return hit / self.gold if self.gold else None

    def as_dict(self) -> dict:
        return {"precision": self.precision, "recall": self.recall, "gold": self.gold,
                "found": self.found, "correct": self.correct}


def compare(gold: set, found: set) -> Figure:
    return Figure(len(gold), len(found), len(gold & found))


def index_edges(db) -> list[dict]:
    """The relationships an index shows, with the heading path of their chunk."""
    return [dict(row) for row in db.query(EDGES_SQL)]
