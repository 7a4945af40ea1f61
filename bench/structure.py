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

    python bench/structure.py [--json]
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cli", "index")
# the installed names of the repository's folders (pyproject.toml's package-dir)
IMPORT_NAMES = {"index": ("crossbook",), "cli": ("crossbook", "cli")}
# The stage packages in pipeline order: a package may import only those before it
# (docs/development.md says what each owns).
STAGES = ("core", "readers", "storage", "extract", "linking", "relations", "vectors", "shelf", "query",
          "ingest", "api", "cli")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(IMPORT_NAMES[parts[0]] + tuple(parts[1:]))


def stage_of(module: str) -> str | None:
    """crossbook.extract.rules -> 'extract'; the top package crossbook itself -> None."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in STAGES else None


def backward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(importer, imported) pairs where a stage imports a later stage."""
    found = []
    for source, targets in graph.items():
        a = stage_of(source)
        for target in targets:
            b = stage_of(target)
            if a and b and STAGES.index(b) > STAGES.index(a):
                found.append((source, target))
    return sorted(found)


def long_functions(files: dict[str, Path], limit: int, skip: tuple[str, ...] = ("migrations",)) -> list[tuple[int, str]]:
    """Functions longer than ``limit`` lines, outside modules named in ``skip``."""
    return [(n, name) for n, name in longest_functions(files, len(files) * 100)
            if n > limit and not any(f".{s}." in f".{name}" for s in skip)]


def flat_modules() -> list[str]:
    """The modules directly in index/ (its stage packages aside)."""
    return sorted(p.name for p in (ROOT / "index").glob("*.py"))


def project_files() -> dict[str, Path]:
    return {module_name(p): p for top in PACKAGES for p in sorted((ROOT / top).rglob("*.py"))}


def resolve(importer: str, is_package: bool, node: ast.ImportFrom | ast.Import, modules: set[str]) -> set[str]:
    """The project modules an import statement names (``from . import x`` may name module x)."""
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            base = importer.split(".")
            base = base if is_package else base[:-1]
            base = base[: len(base) - (node.level - 1)]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        names = [prefix] + [f"{prefix}.{alias.name}" for alias in node.names]
    found = set()
    for name in names:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        if name:
            found.add(name)
    return found - {importer}


def import_graph(files: dict[str, Path]) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(module-level imports, all imports including those inside functions)."""
    modules = set(files)
    top: dict[str, set[str]] = defaultdict(set)
    every: dict[str, set[str]] = defaultdict(set)
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                every[name] |= resolve(name, is_package, node, modules)
        for node in tree.body:
            stmts = [node]
            if isinstance(node, ast.If):  # `if TYPE_CHECKING:` blocks are not run
                continue
            for stmt in stmts:
                if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                    top[name] |= resolve(name, is_package, stmt, modules)
    return top, every


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]
    nodes = set(graph) | {m for targets in graph.values() for m in targets}

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for node in sorted(nodes):
        if node not in index:
            visit(node)
    return sorted(found)


def package_of(module: str, files: dict[str, Path]) -> str:
    """crossbook.extract.rules -> crossbook.extract; a package is itself."""
    if files[module].name == "__init__.py":
        return module
    return module.rpartition(".")[0] or module


def package_graph(graph: dict[str, set[str]], files: dict[str, Path]) -> dict[str, set[str]]:
    packages: dict[str, set[str]] = defaultdict(set)
    for source, targets in graph.items():
        for target in targets:
            a, b = package_of(source, files), package_of(target, files)
            # a package importing its own subpackage (index -> index.extract) is not an edge
            # back up; only count edges between packages that are not ancestor and descendant
            if a != b and not b.startswith(a + ".") and not a.startswith(b + "."):
                packages[a].add(b)
            elif a != b and a.startswith(b + "."):  # a subpackage importing its parent's modules
                packages[a].add(b)
    return packages


def longest_functions(files: dict[str, Path], top: int) -> list[tuple[int, str]]:
    found = []
    for name, path in files.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append((node.end_lineno - node.lineno + 1, f"{name}.{node.name}"))
    return sorted(found, reverse=True)[:top]


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
        "functions_over_100_lines": long_functions(files, 100),
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
    print(f"functions over 100 lines outside migrations: {len(figures['functions_over_100_lines'])}"
          + "".join(f"\n  {n:4d}  {name}" for n, name in figures["functions_over_100_lines"]))
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
