"""The shape of the code, in figures: import cycles, longest functions, the modules
one ingest visits, and the README's length. Read-only; prints, asserts nothing.

    import graph   every import in cli/ and index/, at module level and inside functions
                   (a lazy import hides a cycle from Python, not from this count): the
                   module-level cycles and the package-level cycles (index.extract <->
                   index.relations, for instance), each with and without the lazy imports
    longest        the longest functions in index/ and cli/, in lines
    one ingest     the project modules whose functions run while `crossbook ingest` of one
                   sample_corpus book runs (a fresh index, the default rules extractor), and
                   those called directly from pipeline.ingest_book
    README         its lines, and those of docs/*.md

    python -m bench.structure [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

# the checks tests/layout/ asserts on; this script prints them as figures
from tests.layout.structure import (
    STAGES,
    backward_imports,
    cycles,
    flat_modules,
    import_graph,
    long_functions,
    longest_functions,
    module_lines,
    package_graph,
    project_files,
)

ROOT = Path(__file__).resolve().parent.parent

TRACE = r"""
import json, sys
from pathlib import Path
root = Path(sys.argv[1])
visited, direct, known = set(), set(), {}
def module_of(filename):
    if filename not in known:
        known[filename] = module_path(filename)
    return known[filename]
def module_path(filename):
    try:
        rel = Path(filename).resolve().relative_to(root)
    except ValueError:
        return None
    if rel.parts[0] not in ("cli", "index"):
        return None
    parts = list(rel.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join({"index": ["crossbook"], "cli": ["crossbook", "cli"]}[parts[0]] + parts[1:])
def profile(frame, event, arg):
    if event != "call" or frame.f_code.co_name == "<module>":
        return
    mod = module_of(frame.f_code.co_filename)
    if mod is None:
        return
    visited.add(mod)
    caller = frame.f_back
    if caller is not None and caller.f_code.co_name == "ingest_book" and module_of(caller.f_code.co_filename) == "crossbook.ingest.pipeline":
        direct.add(mod)
from crossbook.cli.main import run
sys.argv = ["crossbook", "--index", sys.argv[2], "ingest", sys.argv[3], "-q"]
sys.setprofile(profile)
try:
    run()
except SystemExit:
    pass
sys.setprofile(None)
print(json.dumps({"visited": sorted(visited), "direct": sorted(direct - {"crossbook.ingest.pipeline"})}))
"""


def one_ingest() -> dict:
    book = ROOT / "sample_corpus" / "core_rules.md"
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [sys.executable, "-c", TRACE, str(ROOT), str(Path(tmp) / "index"), str(book)],
            cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout
    data = json.loads(out.strip().splitlines()[-1])
    data["book"] = book.name
    return data


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--top", type=int, default=10, help="how many longest functions")
    args = parser.parse_args()
    files = project_files()
    top, every = import_graph(files)
    ingest = one_ingest()
    figures = {
        "modules": len(files),
        "module_cycles": cycles(top),
        "module_cycles_with_lazy": cycles(every),
        "package_cycles": cycles(package_graph(top, files)),
        "package_cycles_with_lazy": cycles(package_graph(every, files)),
        "lazy_imports": sum(len(every[m] - top[m]) for m in files),
        "backward_stage_imports": backward_imports(every),
        "flat_modules_in_index": flat_modules(),
        "functions_over_80_lines": long_functions(files, 80),
        "modules_over_600_lines": module_lines(files, 600),
        "longest_functions": longest_functions(files, args.top),
        "ingest_modules": ingest["visited"],
        "ingest_book_calls": ingest["direct"],
        "readme_lines": lines(ROOT / "README.md"),
        "docs_lines": {p.name: lines(p) for p in sorted((ROOT / "docs").glob("*.md"))},
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"modules in cli/ and index/: {figures['modules']}")
    for key in ("module_cycles", "module_cycles_with_lazy", "package_cycles", "package_cycles_with_lazy"):
        found = figures[key]
        print(f"{key.replace('_', ' ')}: {len(found)}" + "".join(f"\n  {' <-> '.join(c)}" for c in found))
    print(f"imports made inside functions (project modules): {figures['lazy_imports']}")
    print(f"stage imports against the order {' < '.join(STAGES)}: {len(figures['backward_stage_imports'])}"
          + "".join(f"\n  {a} -> {b}" for a, b in figures["backward_stage_imports"]))
    print(f"modules directly in index/: {len(figures['flat_modules_in_index'])} "
          f"({', '.join(figures['flat_modules_in_index'])})")
    print(f"functions over 80 lines outside migrations: {len(figures['functions_over_80_lines'])}"
          + "".join(f"\n  {n:4d}  {name}" for n, name in figures["functions_over_80_lines"]))
    print(f"modules over 600 lines outside migrations: {len(figures['modules_over_600_lines'])}"
          + "".join(f"\n  {n:4d}  {name}" for n, name in figures["modules_over_600_lines"]))
    print("longest functions:")
    for length, name in figures["longest_functions"]:
        print(f"  {length:4d}  {name}")
    print(f"one ingest ({ingest['book']}, rules extractor) runs code in {len(ingest['visited'])} modules:")
    print("  " + ", ".join(ingest["visited"]))
    print(f"pipeline.ingest_book calls into {len(ingest['direct'])} modules directly:")
    print("  " + ", ".join(ingest["direct"]))
    print(f"README.md: {figures['readme_lines']} lines; docs/: "
          + ", ".join(f"{k} {v}" for k, v in figures["docs_lines"].items()))


if __name__ == "__main__":
    main()
