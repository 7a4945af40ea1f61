"""The bench is one package, run from the repository's root (``python -m bench.NAME``): no
module patches ``sys.path``, every folder of it is a package, no test imports one of its
scripts (a test may import its libraries: bench/common/, the gold readers, the twins), and
every script is mapped in bench/README.md and has its line in the smoke lane (bench/smoke.py:
run small, or imported only, with where it runs instead)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.layout.structure import ROOT

BENCH = ROOT / "bench"


def bench_files() -> list[Path]:
    return sorted(BENCH.rglob("*.py"))


def module_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def is_script(path: Path) -> bool:
    return 'if __name__ == "__main__"' in path.read_text(encoding="utf-8")


def scripts() -> set[str]:
    return {module_of(p) for p in bench_files() if is_script(p)}


def imported_modules(path: Path) -> set[str]:
    """The absolute module names a file imports (``from bench.x import y`` may name bench.x.y)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
            out.update(f"{node.module}.{alias.name}" for alias in node.names)
    return out


def registry(name: str) -> set[str]:
    """The keys of the dict ``name`` (SMOKE, IMPORT_ONLY) in bench/smoke.py, read without importing it."""
    tree = ast.parse((BENCH / "smoke.py").read_text(encoding="utf-8"))
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign)
                                                                     else None)
        if isinstance(target, ast.Name) and target.id == name:
            return {key.value for key in node.value.keys}
    raise AssertionError(f"bench/smoke.py has no {name}")


def test_no_bench_module_patches_sys_path():
    assert [str(p.relative_to(ROOT)) for p in bench_files() if re.search(r"sys\.path\b", p.read_text())] == []


def test_every_folder_of_the_bench_is_a_package():
    folders = {p.parent for p in bench_files()}
    assert sorted(str(f.relative_to(ROOT)) for f in folders if not (f / "__init__.py").is_file()) == []


def scripts_imported_by_tests() -> list[str]:
    scripts_now = scripts()
    return sorted(f"{test.relative_to(ROOT)}: {module}" for test in (ROOT / "tests").rglob("*.py")
                  for module in imported_modules(test) if module in scripts_now)


def test_no_test_imports_a_bench_script():
    assert scripts_imported_by_tests() == []


def test_a_test_importing_a_script_would_be_found():
    """The check can fail: bench_hostile.py is a script, bench/common/hostile_books.py is not."""
    assert "bench.bench_hostile" in scripts() and "bench.common.hostile_books" not in scripts()
    assert "bench.common.hostile_books" in imported_modules(ROOT / "tests" / "readers" / "test_hostile_pages.py")


def test_every_script_has_its_smoke_line_and_is_mapped_in_the_readme():
    run, only = registry("SMOKE"), registry("IMPORT_ONLY")
    assert run.isdisjoint(only)
    assert sorted(scripts() - run - only - {"bench.smoke"}) == []  # a new script comes with its smoke line
    assert sorted((run | only) - scripts()) == []  # and the lane names no script that is gone
    readme = (BENCH / "README.md").read_text(encoding="utf-8")
    assert sorted(s for s in scripts() if f"`{s}`" not in readme) == []
