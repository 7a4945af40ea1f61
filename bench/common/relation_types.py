"""Recall per relation type: what a shelf's gold states, type by type, found among the stored
edges (by normalized source, target and type, in any book), and a table of the shelves side
by side (bench/eval_relations.py --shelf, bench/eval_statblocks.py)."""

from __future__ import annotations

from collections import Counter

from crossbook.core.normalize import normalize_name


def recall_by_type(gold: list[dict], stored: list[dict]) -> dict[str, tuple[int, int]]:
    """relation type -> (found, stated); ``gold`` items have source, target and type (or
    relation_type); ``stored`` are bench.common.scoring.index_edges rows."""
    found = {(normalize_name(e["source"]), normalize_name(e["target"]), e["relation_type"]) for e in stored}
    stated, hit = Counter(), Counter()
    for item in gold:
        kind = item.get("type") or item["relation_type"]
        key = (normalize_name(item["source"]), normalize_name(item["target"]), kind)
        stated[kind] += 1
        hit[kind] += key in found
    return {kind: (hit[kind], stated[kind]) for kind in sorted(stated)}


def type_table(shelves: list[tuple[str, dict[str, tuple[int, int]] | None]]) -> str:
    """A markdown table: one row per relation type, one column per shelf ("no gold" when None)."""
    kinds = sorted({kind for _, figures in shelves if figures for kind in figures})
    header = "| relation type | " + " | ".join(name for name, _ in shelves) + " |"
    lines = [header, "|" + "---|" * (len(shelves) + 1)]

    def cell(figures, kind) -> str:
        if figures is None:
            return "no gold"
        if kind not in figures:
            return "-"
        hit, of = figures[kind]
        return f"{hit}/{of} ({hit / of:.0%})"

    for kind in kinds:
        lines.append(f"| {kind} | " + " | ".join(cell(figures, kind) for _, figures in shelves) + " |")
    totals = []
    for _, figures in shelves:
        if figures is None:
            totals.append("no gold")
            continue
        hit, of = sum(h for h, _ in figures.values()), sum(o for _, o in figures.values())
        totals.append(f"{hit}/{of} ({hit / max(of, 1):.0%})")
    lines.append("| all stated | " + " | ".join(totals) + " |")
    return "\n".join(lines)
