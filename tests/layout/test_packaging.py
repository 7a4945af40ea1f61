"""The wheel ships every directory of cli/ and index/ (as crossbook.cli and crossbook) (setuptools warns about, and will
later drop, a directory missing from `packages`), with its data files."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_source_directory_is_a_declared_package_with_its_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    packages = set(config["packages"])
    data = config["package-data"]
    for top in ("cli", "index"):
        for directory in [ROOT / top, *(ROOT / top).rglob("*")]:
            if not directory.is_dir() or directory.name == "__pycache__":
                continue
            files = [p for p in directory.iterdir() if p.is_file() and p.suffix != ".pyc"]
            if not files:
                continue
            parts = directory.relative_to(ROOT).parts  # index/ installs as crossbook, cli/ as crossbook.cli
            package = ".".join(("crossbook",) + parts[1:] if parts[0] == "index" else ("crossbook",) + parts)
            assert package in packages, package
            for extra in {p.suffix for p in files} - {".py"}:
                assert f"*{extra}" in data.get(package, []), (package, extra)
