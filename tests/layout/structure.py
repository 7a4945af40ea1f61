"""The shape of the code, as checks: the import graph of cli/ and index/ (every import, at
module level and inside functions), the stage packages in pipeline order, cycles between
modules and packages, and the lengths of modules and functions. tests/layout/ asserts on
these; bench/structure.py prints them as figures."""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("cli", "index")
# the installed names of the repository's folders (pyproject.toml's package-dir)
IMPORT_NAMES = {"index": ("crossbook",), "cli": ("crossbook", "cli")}
# The stage packages in pipeline order: a package may import only those before it
# (docs/development.md says what each owns).
STAGES = ("core", "chunk", "readers", "storage", "llm", "extract", "linking", "relations", "vectors", "changes",
          "query", "ingest", "api", "cli")


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


def module_lines(files: dict[str, Path], limit: int, skip: tuple[str, ...] = ("migrations",)) -> list[tuple[int, str]]:
    """Modules longer than ``limit`` lines, outside modules named in ``skip``."""
    found = []
    for name, path in files.items():
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > limit and not any(f".{s}." in f".{name}." for s in skip):
            found.append((n, name))
    return sorted(found, reverse=True)


def stage_packages() -> list[str]:
    """The packages directly in index/ (the folders with an __init__.py), and cli."""
    return sorted([p.parent.name for p in (ROOT / "index").glob("*/__init__.py")] + ["cli"])
