"""The library reads as the pipeline: each stage package imports only the stages before it
(tests/layout/structure.py's STAGES, docs/development.md), no two modules or packages import
each other, lazily or not, and modules and functions stay short enough to read."""

from functools import lru_cache

from tests.layout.structure import (
    ROOT,
    STAGES,
    backward_imports,
    cycles,
    flat_modules,
    import_graph,
    long_functions,
    module_lines,
    package_graph,
    project_files,
    stage_packages,
)

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
# Today's offenders, split pending: a name leaves the list when its module or function is
# split, and none is added (a new long module or function is split before it lands).
LONG_MODULES: set[str] = set()  # split pending
LONG_FUNCTIONS: set[str] = set()  # split pending


@lru_cache(maxsize=1)
def every_import() -> dict[str, set[str]]:
    """The import graph, lazy imports included: parsed once for the tests that read it."""
    return import_graph(project_files())[1]


def test_no_stage_imports_a_later_stage():
    assert backward_imports(every_import()) == []


def test_backward_imports_are_seen():
    """The check can fail: an import from core into query is reported."""
    graph = {"crossbook.core.config": {"crossbook.query.lookup"}, "crossbook.query.lookup": {"crossbook.core.errors"}}
    assert backward_imports(graph) == [("crossbook.core.config", "crossbook.query.lookup")]


def test_no_import_loops_between_modules_or_packages():
    assert cycles(every_import()) == []
    assert cycles(package_graph(every_import(), project_files())) == []


def test_every_stage_is_a_package_and_index_holds_only_stages():
    files = project_files()
    for stage in STAGES:
        assert f"crossbook.{stage}" in files, stage
    assert flat_modules() == ["__init__.py"]


def test_every_package_in_index_has_its_place_in_the_stage_order():
    assert stage_packages() == sorted(STAGES)


def test_no_module_over_the_limit_but_those_pending_a_split():
    long = {name for _, name in module_lines(project_files(), MAX_MODULE_LINES)}
    assert long - LONG_MODULES == set(), f"split these modules by responsibility (<= {MAX_MODULE_LINES} lines)"
    assert LONG_MODULES - long == set(), "split already: take these names off LONG_MODULES"


def test_no_function_over_the_limit_but_those_pending_a_split():
    long = {name for _, name in long_functions(project_files(), MAX_FUNCTION_LINES)}
    assert long - LONG_FUNCTIONS == set(), f"split these functions (<= {MAX_FUNCTION_LINES} lines)"
    assert LONG_FUNCTIONS - long == set(), "split already: take these names off LONG_FUNCTIONS"


def test_the_length_checks_see_a_long_module_and_a_long_function(tmp_path):
    """The checks can fail: a 700-line module with a 90-line function is reported, and a
    migration of the same length is not."""
    body = "def long():\n" + "    x = 1\n" * 89 + "\n" * 610
    (tmp_path / "big.py").write_text(body)
    (tmp_path / "migrations.py").write_text(body)
    files = {"crossbook.core.big": tmp_path / "big.py", "crossbook.storage.migrations": tmp_path / "migrations.py"}
    assert module_lines(files, MAX_MODULE_LINES) == [(700, "crossbook.core.big")]
    assert long_functions(files, MAX_FUNCTION_LINES) == [(90, "crossbook.core.big.long")]


def test_tests_mirror_the_packages():
    """Each test module sits in the folder of the stage it tests (or tests/docs/, tests/layout/);
    shared fixtures and helpers stay at the top of tests/."""
    tests = ROOT / "tests"
    assert sorted(p.name for p in tests.glob("test_*.py")) == []
    folders = {p.name for p in tests.iterdir() if p.is_dir() and p.name != "fixtures" and not p.name.startswith((".", "_"))}
    assert folders <= set(STAGES) | {"docs", "layout"}, sorted(folders - set(STAGES))
    assert all((tests / folder / "__init__.py").exists() for folder in folders)


def test_the_readers_show_their_parts():
    """readers/ keeps at most 15 modules at its top: a format with parts is a folder of its own
    (pdf/, epub/, docset/, vault/), as are the post-passes and the inventories."""
    readers = ROOT / "index" / "readers"
    assert len(list(readers.glob("*.py"))) <= 15
    assert {"pdf", "docset", "inventories", "passes"} <= {p.name for p in readers.iterdir() if p.is_dir()}
