"""The built wheel installs one top-level package, `crossbook`, with every module of index/
and cli/ and their data files, and it imports from a fresh environment."""

import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

# slow: builds a wheel and installs it in a fresh venv (`pytest -m "not slow"` leaves it out)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    source = tmp_path_factory.mktemp("source")  # setuptools writes build/ beside the sources
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for name in ("index", "cli"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                    "-w", str(out), str(source)], check=True, capture_output=True)
    return next(out.glob("crossbook-*.whl"))


def test_wheel_holds_only_crossbook_with_every_module(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert tops == {"crossbook"}
    expected = {"crossbook/" + str(p.relative_to(ROOT / "index")) for p in (ROOT / "index").rglob("*.py")}
    expected |= {"crossbook/cli/" + str(p.relative_to(ROOT / "cli")) for p in (ROOT / "cli").rglob("*.py")}
    expected |= {"crossbook/" + str(p.relative_to(ROOT / "index")) for p in (ROOT / "index").rglob("*.toml")}
    assert expected <= set(names), sorted(expected - set(names))


def test_wheel_imports_in_a_fresh_environment(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    # the dependencies from this environment's site-packages, by path: a path named in a .pth
    # file is not a site directory, so this checkout's editable-install hook there is not run
    site_dir = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                              check=True, capture_output=True, text=True).stdout.strip()
    Path(site_dir, "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True, capture_output=True)
    # run from an empty folder, so the repository's own folders are not on the path
    probe = ("import crossbook, crossbook.cli.main, crossbook.query.lookup, crossbook.core.packs as p, sys;"
             "import importlib.util as u;"
             "assert crossbook.__file__.startswith(sys.prefix), crossbook.__file__;"
             "assert u.find_spec('index') is None and u.find_spec('cli') is None;"
             "print(p.load_pack('generic').name)")
    done = subprocess.run([str(python), "-c", probe], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "generic"
