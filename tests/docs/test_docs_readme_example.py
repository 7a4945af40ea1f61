"""The README's Python example runs as written right after ``make demo``: it opens the index
the demo builds (the Makefile's DEMO_INDEX) and asks it what the demo's sample corpus holds."""

import contextlib
import io
import re

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")


def readme_python_examples() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, re.S)


def demo_index_and_manifest() -> tuple[str, str]:
    """The folder ``make demo`` indexes into and the manifest it rebuilds from."""
    index = re.search(r"^DEMO_INDEX\s*:?=\s*(\S+)", MAKEFILE, re.M).group(1)
    manifest = re.search(r"--index \$\(DEMO_INDEX\) rebuild (\S+)", MAKEFILE).group(1)
    return index, manifest


def test_the_readme_python_example_runs_after_make_demo(cli):
    index, manifest = demo_index_and_manifest()
    [example] = readme_python_examples()
    assert f'Shelf("{index}")' in example  # what the demo builds, not another index
    built = cli("--index", index, "rebuild", str(ROOT / manifest))  # make demo's rebuild (its embedder aside)
    assert built.exit_code == 0, built.stderr
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(example, "README.md", "exec"), {})
    assert "Frost Lance" in printed.getvalue()
