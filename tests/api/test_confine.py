"""An ingest confined to some folders (index/api/confine.py): every path resolved (symlink
chains, ``..``) and refused outside the folders, hidden below them, or when it is not a
regular file or folder (a FIFO, /dev/zero: by stat, never opened), or too large; and
Shelf.ingest(roots=...) applying the rule before anything is read or written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from crossbook.api import Shelf
from crossbook.api.confine import PathNotAllowed, check_paths, resolve_roots
from crossbook.core.errors import BadInput

BOOK = "# Glacier Book\n\n## Glacier Step\n\nGlacier Step lets you walk on ice.\n"


@pytest.fixture
def root(tmp_path) -> Path:
    folder = tmp_path / "books"
    folder.mkdir()
    (folder / "glacier.md").write_text(BOOK, encoding="utf-8")
    return folder


def _refused(path, roots, *, match: str = "", **options) -> str:
    with pytest.raises(PathNotAllowed) as caught:
        check_paths([path], resolve_roots(roots), **options)
    message = str(caught.value)
    assert str(Path(roots[0]).resolve()) in message  # the error names the allowed folders
    assert match in message
    return message


def test_a_book_inside_the_root_is_allowed_and_resolved(root):
    (root / "sub").mkdir()
    assert check_paths([root / "glacier.md", root], resolve_roots([root])) == [root / "glacier.md", root]
    assert check_paths([root / "sub" / ".." / "glacier.md"], resolve_roots([root / "."])) == [root / "glacier.md"]


def test_outside_paths_are_refused_however_they_are_spelled(root, tmp_path):
    secret = tmp_path / "secret.md"
    secret.write_text("# Secret\n\nthe password\n", encoding="utf-8")
    _refused(root / ".." / "secret.md", [root], match="outside the allowed folders")
    _refused("/etc/passwd", [root], match="outside")
    _refused("/proc/self/environ", [root], match="outside")
    # a chain of links, the last leading out of the root
    (tmp_path / "hop.md").symlink_to(secret)
    (root / "chain.md").symlink_to(tmp_path / "hop.md")
    _refused(root / "chain.md", [root], match=f"it leads to '{secret}'")
    (root / "up").symlink_to("..")
    _refused(root / "up" / "secret.md", [root], match="outside")


def test_hidden_below_the_root_and_special_files_are_refused(root):
    (root / ".ssh").mkdir()
    (root / ".ssh" / "id_ed25519").write_text("PRIVATE KEY", encoding="utf-8")
    _refused(root / ".ssh" / "id_ed25519", [root], match="hidden below an allowed folder ('.ssh')")
    _refused(root / ".ssh", [root], match="hidden")
    fifo = root / "x.md"
    os.mkfifo(fifo)  # opening it would block until a writer came: stat tells it first
    _refused(fifo, [root], match="not a regular file or a folder (a FIFO)")
    (root / "zero.md").symlink_to("/dev/zero")
    _refused(root / "zero.md", [Path("/dev"), root], match="character device")


def test_a_file_over_the_size_cap_is_refused_in_a_folder_too(root):
    (root / "big.md").write_text("x" * 3000, encoding="utf-8")
    _refused(root / "big.md", [root], match="over the", max_file_bytes=2000)
    _refused(root, [root], match="big.md", max_file_bytes=2000)


def test_a_folder_holding_a_link_out_or_a_fifo_is_refused(root, tmp_path):
    vault = root / "vault"
    vault.mkdir()
    (vault / "note.md").write_text(BOOK, encoding="utf-8")
    assert check_paths([vault], resolve_roots([root])) == [vault]
    (tmp_path / "secret.md").write_text("* [Secret](secret.md)\n", encoding="utf-8")
    (vault / "SUMMARY.md").symlink_to(tmp_path / "secret.md")  # a vault reader opens it by name
    _refused(vault, [root], match="SUMMARY.md' links to")
    (vault / "SUMMARY.md").unlink()
    os.mkfifo(vault / "pipe.md")
    _refused(root, [root], match="pipe.md' is not a regular file or a folder (a FIFO)")


def test_a_hard_link_is_the_file_itself_and_is_read(root, tmp_path):
    """A hard link inside the root to a file outside cannot be told from the root's own
    files by its path: it is allowed (documented in confine.py and docs/mcp.md)."""
    outside = tmp_path / "outside.md"
    outside.write_text(BOOK, encoding="utf-8")
    os.link(outside, root / "linked.md")
    assert check_paths([root / "linked.md"], resolve_roots([root])) == [root / "linked.md"]


def test_roots_must_be_folders(root):
    with pytest.raises(BadInput, match="does not exist"):
        resolve_roots([root / "nowhere"])
    with pytest.raises(BadInput, match="is not a folder"):
        resolve_roots([root / "glacier.md"])


def test_shelf_ingest_applies_the_rule_before_reading_anything(root, tmp_path, index_dir):
    (root / ".hidden").mkdir()
    (root / ".hidden" / "notes.md").write_text(BOOK.replace("Glacier", "Hidden"), encoding="utf-8")
    with Shelf(index_dir) as shelf:
        with pytest.raises(PathNotAllowed):
            shelf.ingest([root / "glacier.md", root / ".hidden" / "notes.md"], roots=[root])
        assert not (index_dir / "crossbook.db").exists()  # nothing written, not even the index
        results = shelf.ingest([root / "glacier.md"], roots=[root])
        assert [r.title for r in results] == ["Glacier Book"]


def test_a_relative_path_names_a_book_inside_the_roots_not_in_the_working_directory(root, tmp_path, monkeypatch):
    other = tmp_path / "notes"
    other.mkdir()
    (other / "almanac.md").write_text("# Almanac\n\nalmanac\n", encoding="utf-8")
    working = tmp_path / "server-cwd"
    working.mkdir()
    (working / "glacier.md").write_text("# Decoy\n\nthe server's working directory\n", encoding="utf-8")
    monkeypatch.chdir(working)
    roots = resolve_roots([root, other])
    assert check_paths(["glacier.md", "almanac.md", "."], roots) == [root / "glacier.md", other / "almanac.md", root]
    with pytest.raises(BadInput, match=str(root / "absent.md")):
        check_paths(["absent.md"], roots)
    _refused("../server-cwd/glacier.md", [root], match="outside the allowed folders")
    with Shelf(tmp_path / "index", embedder="hash") as shelf:
        [result] = shelf.ingest(["glacier.md"], roots=[root])
    assert result.title == "Glacier Book"
