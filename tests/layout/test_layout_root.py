"""The repository's root holds what a reader expects there and nothing a run left behind (a
tool that writes where it runs, such as grohtml's ``grohtml-PID.png``, runs in a temporary
folder): the four files and the project's folders, as git tracks them."""

import shutil
import subprocess

import pytest

from tests.layout.structure import ROOT

ROOT_FILES = {"README.md", "Makefile", "pyproject.toml", ".gitignore"}
ROOT_FOLDERS = {".ci", "bench", "cli", "corpora", "docs", "index", "sample_corpus", "tests"}


def tracked_root_names() -> set[str]:
    """The first path part of every file git tracks (a file at the root, or a folder)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the root's tracked names are unknown")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return {path.split("/", 1)[0] for path in listed.decode("utf-8").split("\0") if path}


def unexpected(names: set[str]) -> list[str]:
    return sorted(names - ROOT_FILES - ROOT_FOLDERS)


def test_the_root_holds_only_the_expected_names():
    assert unexpected(tracked_root_names()) == []


def test_a_file_a_run_left_at_the_root_is_unexpected():
    """The check can fail: a grohtml image or a stray script at the root is named."""
    assert unexpected({"README.md", "bench", "grohtml-114171.png", "notes.py"}) == ["grohtml-114171.png", "notes.py"]
