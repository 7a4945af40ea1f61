"""The library reads as the pipeline: each stage package imports only the stages before it
(bench/structure.py's STAGES, docs/development.md), and no two modules or packages import
each other, lazily or not."""

from bench.structure import STAGES, backward_imports, cycles, flat_modules, import_graph, package_graph, project_files


def test_no_stage_imports_a_later_stage():
    _, every = import_graph(project_files())
    assert backward_imports(every) == []


def test_backward_imports_are_seen():
    """The check can fail: an import from core into query is reported."""
    graph = {"crossbook.core.config": {"crossbook.query.lookup"}, "crossbook.query.lookup": {"crossbook.core.errors"}}
    assert backward_imports(graph) == [("crossbook.core.config", "crossbook.query.lookup")]


def test_no_import_loops_between_modules_or_packages():
    files = project_files()
    _, every = import_graph(files)
    assert cycles(every) == []
    assert cycles(package_graph(every, files)) == []


def test_every_stage_is_a_package_and_index_holds_only_stages():
    files = project_files()
    for stage in STAGES:
        assert f"crossbook.{stage}" in files, stage
    assert flat_modules() == ["__init__.py"]
