"""Print the table of bench/results.json: each ratio, its target and whether it is met.

A section no script has written shows as "not run". Reads only; ``make bench`` runs the
benchmarks first.

    python -m bench.report [--results bench/results.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable

from bench.common.results import results_path

# (row, results key, value from the section, target as text, met(value) or None: information only)
Row = tuple[str, str, Callable[[dict], Any], str, Callable[[Any], bool] | None]


def _get(*path: str) -> Callable[[dict], Any]:
    def value(section: dict) -> Any:
        for key in path:
            section = section[key]
        return section
    return value


def _at_most(limit: float) -> Callable[[Any], bool]:
    return lambda value: value <= limit


ROWS: list[Row] = [
    ("LLM calls per parent chunk, first ingest", "llm_calls", _get("calls_per_parent"), "1", lambda v: v == 1),
    ("LLM calls, unchanged re-ingest", "llm_calls", _get("unchanged"), "0", lambda v: v == 0),
    ("LLM calls, one-section edit", "llm_calls", _get("one_section_edit"), "1", lambda v: v == 1),
    ("LLM pool wall / ideal wall", "llm_pool", _get("ratio"), "<= 1.2", _at_most(1.2)),
    ("LLM pool max requests in flight", "llm_pool", _get("max_in_flight"), "info", None),
    ("ingest write transaction / bare executemany", "pipeline", _get("write_over_bare"), "<= 3", _at_most(3)),
    ("  its inserts alone (no derived refresh)", "pipeline", _get("storage_over_bare"), "info", None),
    ("  whole ingest (extract, embed, Chroma) / bare", "pipeline", _get("ingest_over_bare"), "info", None),
    ("where-else / bare indexed SELECT", "where_else", _get("ratio"), "<= 1.5", _at_most(1.5)),
    ("delete-book / bare DELETE", "delete_book", _get("ratio"), "<= 2", _at_most(2)),
    ("pipeline embedding / bare onnxruntime encode", "embedding", _get("pipeline_over_bare_encode"), "<= 1.3", _at_most(1.3)),
    ("peak RSS growth / corpus growth", "peak_rss", _get("growth_over_corpus"), "<= 4", _at_most(4)),
    ("k-th book ingest / 1st book", "growth", _get("ratio_last_first"), "<= 1.5", _at_most(1.5)),
    ("200th small page ingest / 1st (CPU, tenths)", "small_books", _get("ratio"), "<= 1.3", _at_most(1.3)),
    ("unchanged book skipped, seconds per book", "skip_unchanged", _get("skip_s"), "<= 0.3", _at_most(0.3)),
    ("  read first (as before), seconds per book", "skip_unchanged", _get("read_first_s"), "info", None),
    ("cold where-else / import floor (wall)", "cold_start", _get("where_else_over_floor"), "<= 1.3", _at_most(1.3)),
    ("cold where-else / import floor (CPU)", "cold_start", _get("where_else_over_floor_cpu"), "<= 1.3", _at_most(1.3)),
    ("cold search, seconds", "cold_start", _get("search_s"), "<= 1.5", _at_most(1.5)),
    ("  its CPU seconds", "cold_start", _get("cpu_s", "search"), "info", None),
    ("  cold search / chromadb import alone", "cold_start", _get("search_over_chromadb_import"), "info", None),
    ("skip an unchanged book, seconds", "cold_start", _get("skip_unchanged_s"), "<= 0.5", _at_most(0.5)),
    ("  its CPU seconds", "cold_start", _get("cpu_s", "skip_unchanged"), "info", None),
]

# what each section was measured on, shown under the table
SCALE: dict[str, Callable[[dict], str]] = {
    "llm_calls": lambda s: f"{s['parents']} parent chunks of the sample corpus, scripted server",
    "llm_pool": lambda s: f"wall {s['wall_s']} s, ideal {s['ideal_s']} s",
    "pipeline": lambda s: f"{s['shelf_mb']} MB generated shelf, {s['books']} books, {s['rows']} rows; "
                          f"ingest {s['ingest_s']} s, bare executemany {s['bare_executemany_s']} s",
    "where_else": lambda s: f"{s['mentions']:,} mentions, {s['rows_per_name']:g} rows per name; "
                            f"{s['where_else_ms']} ms vs {s['bare_select_ms']} ms",
    "delete_book": lambda s: f"book of {s['book_mentions']:,} mentions in an index of {s.get('index_mentions', 0):,}; "
                             f"{s['delete_book_s']} s vs {s['bare_delete_s']} s",
    "embedding": lambda s: f"{s['chunks']} child chunks",
    "peak_rss": lambda s: f"{s['peak_rss_mb']} MB peak for {s['shelf_mb']} MB of Markdown, "
                          f"{s['half_shelf_peak_rss_mb']} MB for {s['half_shelf_mb']} MB",
    "growth": lambda s: f"first {s['first_s']} s, last {s['last_s']} s",
    "small_books": lambda s: f"{s['pages']} generated HTML pages, {s['chunks']} chunks, hash vectors; "
                             f"first {s['first_s']} s, last {s['last_s']} s CPU",
    "skip_unchanged": lambda s: f"{s['books']} books ({s['pdf_pages']}-page PDFs, {s['megabytes']} MB); "
                                f"after touch (hash decides) {s['touched_s']} s",
    "cold_start": lambda s: f"median of {s['runs']} fresh processes; floor {s['wall_s']['floor']} s wall, "
                            f"{s['cpu_s']['floor']} s CPU",
}


def format_value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def table(results: dict) -> list[str]:
    lines = [f"{'measure':<48}{'value':>10}  {'target':<8}  verdict", "-" * 78]
    for label, key, value_of, target, met in ROWS:
        section = results.get(key)
        if section is None:
            lines.append(f"{label:<48}{'not run':>10}  {target:<8}")
            continue
        try:
            value = value_of(section)
        except (KeyError, TypeError):
            lines.append(f"{label:<48}{'missing':>10}  {target:<8}")
            continue
        verdict = "" if met is None else ("met" if met(value) else "MISSED")
        lines.append(f"{label:<48}{format_value(value):>10}  {target:<8}  {verdict}")
    lines.append("")
    for key, describe in SCALE.items():
        if key in results:
            try:
                lines.append(f"{key}: {describe(results[key])}")
            except (KeyError, TypeError):
                pass
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, help="default: BENCH_RESULTS, else bench/results.json")
    args = parser.parse_args()
    try:
        results = json.loads((args.results or results_path()).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        results = {}
    print("\n".join(table(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
